/* TEMPORARY (issue 4): being written */
#include "cli-commands.h"
int
hyd_cli_render (int argc, char **argv)
{
  return 2;
}

/* TEMPORARY (issue 3): being written */
#include "cli-commands.h"
int
hyd_cli_verify (int argc, char **argv)
{
  return 2;
}

/* TEMPORARY (issue 3): being written */
#include "cli-commands.h"
int
hyd_cli_bench (int argc, char **argv)
{
  return 2;
}

/* cli-commands.h — bramah-cli commands that live in their own files. */
#pragma once

int hyd_cli_verify (int argc, char **argv);  /* cli-verify.c */
int hyd_cli_bench (int argc, char **argv);   /* cli-bench.c */
int hyd_cli_render (int argc, char **argv);  /* cli-render.c */

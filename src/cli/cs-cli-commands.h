/* cs-cli-commands.h — one function per callscope-cli command (argv[0] is the command) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Returned by a command in callscope-cli for work that needs cairo (report --format
 * html|pdf): main then execs callscope-cli-render with the same arguments. */
#define CS_CLI_RUN_RENDER (-1)

int cs_cli_cmd_report (int argc, char **argv);   /* report, calls, streams, findings */
int cs_cli_cmd_ladder (int argc, char **argv);   /* ladder (callscope-cli-render) */
int cs_cli_cmd_graph (int argc, char **argv);    /* graph (callscope-cli-render) */
int cs_cli_cmd_export (int argc, char **argv);   /* export */
int cs_cli_cmd_loadtest (int argc, char **argv); /* loadtest */
int cs_cli_cmd_audio (int argc, char **argv);    /* audio (callscope-cli-render) */
int cs_cli_cmd_capture (int argc, char **argv);  /* capture */
int cs_cli_cmd_hep (int argc, char **argv);      /* hep */
int cs_cli_cmd_frames (int argc, char **argv);   /* frames */
int cs_cli_cmd_frame (int argc, char **argv);    /* frame */

G_END_DECLS

/* cs-cli-commands.h — one function per callscope-cli command (argv[0] is the command) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int cs_cli_cmd_report (int argc, char **argv);   /* report, calls, streams, findings */
int cs_cli_cmd_ladder (int argc, char **argv);   /* ladder */
int cs_cli_cmd_graph (int argc, char **argv);    /* graph */
int cs_cli_cmd_export (int argc, char **argv);   /* export */
int cs_cli_cmd_loadtest (int argc, char **argv); /* loadtest */
int cs_cli_cmd_audio (int argc, char **argv);    /* audio */
int cs_cli_cmd_capture (int argc, char **argv);  /* capture */
int cs_cli_cmd_hep (int argc, char **argv);      /* hep */

G_END_DECLS

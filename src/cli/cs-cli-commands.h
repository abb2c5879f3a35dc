/* cs-cli-commands.h — one function per callscope-cli command (argv[0] is the command) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int cs_cli_cmd_report (int argc, char **argv); /* report, calls, streams, findings */

G_END_DECLS

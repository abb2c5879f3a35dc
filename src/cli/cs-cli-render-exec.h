/* cs-cli-render-exec.h — callscope-cli hands drawing and audio commands to callscope-cli-render */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Replaces the process with callscope-cli-render on the same argv (argv[0] kept, so
 * messages and --help read as before). It is looked for beside this executable (build
 * tree), then in libexecdir relative to it, then in the configured libexecdir. Returns
 * only when none could be run, with the message printed and exit status 1. */
int cs_cli_exec_render (char **argv);

G_END_DECLS

/* callscope-cli-render — the callscope-cli commands that need cairo, pango or the audio
 * codecs. callscope-cli execs it with its own arguments; it is not meant to be run by
 * hand, so it has no usage text of its own. */
#include "cs-config.h"

#include <locale.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"

typedef struct
{
  const char *name;
  int (*run) (int argc, char **argv);
} CsCliRenderCommand;

static const CsCliRenderCommand cs_cli_render_commands[] = {
  { "report", cs_cli_cmd_report }, /* --format html|pdf */
  { "ladder", cs_cli_cmd_ladder }, { "graph", cs_cli_cmd_graph },
  { "audio", cs_cli_cmd_audio },   { "loadtest", cs_cli_cmd_loadtest }, /* --format html */
};

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  if (argc >= 2 && g_strcmp0 (argv[1], "--version") == 0)
    {
      g_print ("callscope-cli-render %s\n", PACKAGE_VERSION);
      return CS_EXIT_OK;
    }
  for (guint i = 0; argc >= 2 && i < G_N_ELEMENTS (cs_cli_render_commands); i++)
    if (g_strcmp0 (argv[1], cs_cli_render_commands[i].name) == 0)
      return cs_cli_render_commands[i].run (argc - 1, argv + 1);
  g_printerr ("callscope-cli-render runs 'ladder', 'graph', 'audio', 'report --format "
              "html|pdf' and 'loadtest --format html' for callscope-cli; use callscope-cli.\n");
  return CS_EXIT_USAGE;
}

/* callscope-cli — the engine headless: reports for scripts, tests and benchmarks.
 * This front end links GLib and libpcap only; the commands that draw or decode
 * audio run in callscope-cli-render (see src/cli/meson.build). */
#include "cs-config.h"

#include <locale.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "cs-cli-render-exec.h"

typedef struct
{
  const char *name;
  int (*run) (int argc, char **argv); /* NULL: callscope-cli-render runs it */
  const char *synopsis;
} CsCliCommand;

/* Each command lives in its own cs-cli-*.c file. */
static const CsCliCommand cs_cli_commands[] = {
  { "report", cs_cli_cmd_report,
    "report FILE... [--format json|text|csv|html|pdf] [--call CALL]  totals, calls, streams, "
    "findings" },
  { "calls", cs_cli_cmd_report, "calls FILE... [--format text|csv|json]     the calls table" },
  { "streams", cs_cli_cmd_report,
    "streams FILE... [--format text|csv|json]   RTP streams and their metrics" },
  { "findings", cs_cli_cmd_report,
    "findings FILE... [--format text|csv|json]  problems, with frame numbers" },
  { "frames", cs_cli_cmd_frames,
    "frames FILE... [--call CALL | --stream ID | --finding N | --filter BPF] [--format "
    "text|csv|json]  the packet list" },
  { "frame", cs_cli_cmd_frame,
    "frame FILE... N [--format text|json]  one frame's protocol tree and bytes" },
  { "ladder", NULL,
    "ladder FILE --call CALL [-o out.png|.svg|.pdf|.txt]  the call's ladder diagram" },
  { "graph", NULL,
    "graph FILE --stream ID [--kind jitter|delta|skew|mos|bitrate] -o out.png|.svg|.pdf" },
  { "export", cs_cli_cmd_export,
    "export FILE --call CALL [--redact] -o out.pcapng  trimmed capture" },
  { "loadtest", cs_cli_cmd_loadtest,
    "loadtest FILE [--interval S] [--sipp-stat F] [--compare FILE2] [--format text|csv|json|html]  "
    "load-test statistics, breaking point, capacity" },
  { "audio", NULL,
    "audio FILE (--call CALL | --stream ID) [--jitter-buffer MS] -o out.wav|.flac  decoded audio" },
  { "capture", cs_cli_cmd_capture,
    "capture --interface IF [--filter BPF] [--duration S | --count N] [-w out.pcapng] [--format "
    "json|text]  live capture, then the report" },
  { "hep", cs_cli_cmd_hep,
    "hep --listen ADDR:PORT [--duration S] [-w out.pcapng] [--format json|text]  receive HEP, then "
    "the report" },
};

static void
cs_cli_print_usage (FILE *out)
{
  fprintf (out, "Usage: callscope-cli COMMAND FILE... [OPTIONS]\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (cs_cli_commands); i++)
    fprintf (out, "  %s\n", cs_cli_commands[i].synopsis);
  fprintf (out, "\nCommon options:\n"
                "  -f, --format FMT   output format\n"
                "  -t, --threads N    decode threads (default: one per processor)\n"
                "  --filter BPF       analyse only frames matching a BPF expression\n"
                "  -o, --output FILE  write to FILE instead of standard output\n"
                "\nExit status: 0 clean, 1 unreadable input, 2 usage, 3 damaged input\n"
                "(analysed up to the damage; stderr names the file and byte offset).\n"
                "'callscope-cli COMMAND --help' lists a command's options.\n");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  if (argc < 2)
    {
      cs_cli_print_usage (stderr);
      return CS_EXIT_USAGE;
    }
  if (g_strcmp0 (argv[1], "help") == 0 || g_strcmp0 (argv[1], "--help") == 0
      || g_strcmp0 (argv[1], "-h") == 0)
    {
      cs_cli_print_usage (stdout);
      return CS_EXIT_OK;
    }
  if (g_strcmp0 (argv[1], "--version") == 0)
    {
      g_print ("callscope-cli %s\n", PACKAGE_VERSION);
      return CS_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cs_cli_commands); i++)
    if (g_strcmp0 (argv[1], cs_cli_commands[i].name) == 0)
      {
        int status = cs_cli_commands[i].run != NULL ? cs_cli_commands[i].run (argc - 1, argv + 1)
                                                    : CS_CLI_RUN_RENDER;

        return status == CS_CLI_RUN_RENDER ? cs_cli_exec_render (argv) : status;
      }
  cs_cli_print_usage (stderr);
  return cs_cli_usage_error (argv[1], "unknown command");
}

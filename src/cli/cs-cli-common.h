/* cs-cli-common.h — what every callscope-cli command shares: options, loading, exit codes */
#pragma once

#include <stdio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

enum
{
  CS_EXIT_OK = 0,
  CS_EXIT_UNREADABLE = 1, /* nothing could be analysed */
  CS_EXIT_USAGE = 2,
  CS_EXIT_DAMAGED = 3, /* analysed up to damage in the input */
};

typedef struct
{
  char *format;
  int threads;
  char *filter;
  char *output;
  gboolean quiet;
  char **srtp_key_specs; /* --srtp-key SSRC_OR_STREAM=inline:KEY, repeatable */
  GArray *srtp_keys;     /* CsSrtpUserKey, parsed from them */
  char *keylog_path;     /* --keylog FILE: TLS secrets (NSS key log) */
  gboolean points;       /* --points: the files are capture points of one network */
  char **files;          /* remaining arguments */
  /* instead of files: a window of a Homer 7 store (cs-cli-homer.c) */
  char *homer;
  char *homer_from;
  char *homer_to;
  char **homer_call_ids;
  char *homer_from_user;
  char *homer_to_user;
  char *homer_ruri_user;
  char *homer_ip;
  char *homer_node;
  /* after loading files: replay them as HEP to a collector */
  char *hep_send;
  double hep_rate;
  gboolean hep_real_time;
} CsCliOptions;

/* Parses argv (argv[0] is the command name) with the common options plus
 * `extra` (may be NULL). Prints usage and returns FALSE on errors. */
gboolean cs_cli_parse (int argc, char **argv, const char *synopsis, const GOptionEntry *extra,
                       CsCliOptions *opts);
void cs_cli_options_clear (CsCliOptions *opts);
/* Loads opts->files with --threads and --filter. On failure prints the error
 * and sets *exit_status (1 or 2), returning NULL. The analysis is kept until the
 * process exits (cs_cli_keep_until_exit). */
CsAnalysis *cs_cli_load (const CsCliOptions *opts, int *exit_status);
/* The process is about to end: freeing a large analysis call by call only
 * costs time (a second on 100k calls). Keeps it reachable until exit, except in
 * sanitizer builds, where every allocation is freed so leaks stay visible. */
void cs_cli_keep_until_exit (CsAnalysis *analysis);
/* With CALLSCOPE_PROFILE set: one line on stderr with the wall time since
 * `since_us` (g_get_monotonic_time) and the memory, like the loader's phases. */
void cs_cli_profile (const char *phase, gint64 since_us);
/* Exit status after a successful load: 3 (with the message on stderr) when
 * the input was damaged, else 0. */
int cs_cli_damage_status (CsAnalysis *analysis);
/* stdout or the --output file; NULL (message printed) when it cannot be opened. */
FILE *cs_cli_open_output (const CsCliOptions *opts);
/* Closes what cs_cli_open_output returned; FALSE when writing failed. */
gboolean cs_cli_close_output (FILE *out, gboolean written);
int cs_cli_usage_error (const char *command, const char *message);
/* Appends the numbers of the calls given by --call (numbers or Call-IDs) to numbers; FALSE,
 * with a usage error printed, at the first the capture does not have. */
gboolean cs_cli_find_calls (CsAnalysis *analysis, char **specs, const char *command,
                            GArray *numbers);

/* The --homer/--from/--to/… and --hep-send options (cs-cli-homer.c), added to every command
 * that reads captures. */
void cs_cli_homer_add_entries (GOptionContext *context, CsCliOptions *opts);
void cs_cli_homer_options_clear (CsCliOptions *opts);
/* Loads the --homer window with loader; on failure prints the error, sets *exit_status. */
CsAnalysis *cs_cli_homer_load (const CsCliOptions *opts, CsLoader *loader, int *exit_status);
/* Rows the last cs_cli_homer_load skipped as malformed (exit status 3 when some were). */
guint64 cs_cli_homer_get_bad_rows (void);
/* --hep-send: replays opts->files to the collector; FALSE (message printed) on failure. */
gboolean cs_cli_hep_send_files (const CsCliOptions *opts);

G_END_DECLS

/* cs-cli-live.h — what `capture` and `hep` share: run a live session, then report like a file */
#pragma once

#include "cs-cli-common.h"
#include "callscope-engine.h"

G_BEGIN_DECLS

typedef struct
{
  CsCliOptions *opts;
  CsLiveSession *session;
  GMainLoop *loop;
  double duration_s;                  /* 0: until stopped */
  const char *what;                   /* "packets" or "HEP messages", for the progress line */
  GError *end_error;                  /* set when the source ended by itself with an error */
  gboolean (*done) (gpointer source); /* TRUE when the source's --count was reached */
  void (*describe) (gpointer source, GString *line); /* source counters for the progress line */
  gpointer source;
} CsCliLive;

/* --format must be json or text; prints the usage error otherwise. */
gboolean cs_cli_live_check_format (CsCliOptions *opts, const char *command);
/* Checks --ring-files N / --ring-size MB; prints the usage error and returns FALSE when bad. */
gboolean cs_cli_live_check_ring (const char *command, gint64 ring_files, double ring_size_mb);
/* Opens the session on -w FILE (or a temporary file), as a ring of ring_files files of
 * ring_size_mb MB when they are set (see CsRingWriter), or prints why not (exit status 1). */
CsLiveSession *cs_cli_live_open_session (const char *write_path, gint64 ring_files,
                                         double ring_size_mb, char **tmp_dir, int *status);
/* Run as root: switches to user (NULL: "nobody"; "root": stays) for good, right after the
 * capture device or listening sockets are open and before any output file is. FALSE (the
 * reason printed) when that fails. Not root: nothing to do. */
gboolean cs_cli_drop_privileges (const char *user, gboolean quiet);
/* Runs the main loop until --duration, the source's count, Ctrl-C or the source ending. */
void cs_cli_live_run (CsCliLive *live);
/* Stops the session, reopens what it saved and writes the report as `report` would; removes
 * tmp_dir afterwards. Returns the exit status. */
int cs_cli_live_report (CsCliLive *live, const char *tmp_dir);

G_END_DECLS

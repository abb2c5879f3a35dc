/* cs-loadtest-sipp.h — interval edges from a SIPp -trace_stat file, so the load
 * statistics use the same periods as SIPp's own counters */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The CurrentTime of every row of a SIPp statistics CSV (";"-separated, header
 * first; CurrentTime is "date<TAB>time<TAB>epoch.micro"), as absolute ns. NULL with
 * an error naming the file and line when it is not such a file. */
GArray *cs_load_read_sipp_edges (const char *path, GError **error);

G_END_DECLS

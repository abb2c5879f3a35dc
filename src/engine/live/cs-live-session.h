/* cs-live-session.h — packets as they arrive: saved to a pcapng ring and analysed in batches */
#pragma once

#include <gio/gio.h>

#include "loader/cs-analysis.h"

G_BEGIN_DECLS

/* Errors of live sources (capture, HEP listener) and sessions. */
#define CS_LIVE_ERROR (cs_live_error_quark ())
typedef enum
{
  CS_LIVE_ERROR_PERMISSION, /* capturing needs CAP_NET_RAW (or root, or the pcap group) */
  CS_LIVE_ERROR_NO_DEVICE,  /* no such interface, or it is down */
  CS_LIVE_ERROR_FILTER,     /* the BPF expression does not compile */
  CS_LIVE_ERROR_OPEN,       /* anything else libpcap refused at start */
  CS_LIVE_ERROR_READ,       /* reading stopped: interface went away, read error */
  CS_LIVE_ERROR_ADDRESS,    /* listen address unusable (bad syntax, in use) */
} CsLiveError;
GQuark cs_live_error_quark (void);

/* Counters for the live indicator and the CLI. */
typedef struct
{
  guint64 packets; /* frames analysed (and saved) */
  guint64 bytes;
  guint64 sip_messages;
  guint64 rtp_packets;
  guint64 queue_drops;   /* frames dropped because analysis fell behind */
  guint64 calls;         /* calls found so far (evicted ones included) */
  guint64 calls_evicted; /* finished calls dropped from memory and the live list for its cap */
  guint64 malformed;     /* frames whose headers were cut short */
  double packets_per_second;
  double messages_per_second;
  gint64 first_ns, last_ns;
  guint64 calls_kept; /* calls held in memory now (≤ the cap unless all are in progress) */
  guint64 rtp_packets_evicted; /* RTP packets dropped with the streams of evicted calls */
} CsLiveCounters;

#define CS_TYPE_LIVE_SESSION (cs_live_session_get_type ())
G_DECLARE_FINAL_TYPE (CsLiveSession, cs_live_session, CS, LIVE_SESSION, GObject)

/* Frames are saved as pcapng to path (see CsRingWriter for file_bytes/max_files). The session
 * publishes on the thread-default main context of the caller, at most ~10 times a second. */
CsLiveSession *cs_live_session_new (const char *path, guint64 file_bytes, guint max_files,
                                    GError **error);

/* Thread-safe: queues one captured frame (the bytes are copied). Frames beyond the pending cap
 * (analysis behind) are dropped and counted. */
void cs_live_session_push_frame (CsLiveSession *self, guint16 linktype, gint64 ts_ns,
                                 const guint8 *data, gsize caplen, gsize origlen);

/* Saves and analyses everything queued so far, then publishes (owner's context). Called by
 * the session's own timer; tests and the CLI may call it directly. Returns frames processed. */
guint cs_live_session_process_pending (CsLiveSession *self);

/* Processes what is queued, stops the timer and closes the capture file(s). */
gboolean cs_live_session_stop (CsLiveSession *self, GError **error);
gboolean cs_live_session_is_running (CsLiveSession *self);

/* While paused the lists keep their content; analysis and saving continue. */
void cs_live_session_set_paused (CsLiveSession *self, gboolean paused);
gboolean cs_live_session_get_paused (CsLiveSession *self);
/* How many calls the session keeps in memory and in its list (default 20000; 0 = no limit).
 * Above it, finished calls (completed, cancelled, rejected, failed) are evicted, oldest and
 * those idle for 32 s first, with their RTP packets; they are counted (calls_evicted,
 * rtp_packets_evicted). Calls in progress are never evicted. The saved file keeps everything. */
void cs_live_session_set_max_calls (CsLiveSession *self, guint max_calls);

/* GListModel of CsCall, newest last; a call whose messages changed is replaced in place so
 * rows refresh. */
GListModel *cs_live_session_get_calls (CsLiveSession *self);
void cs_live_session_get_counters (CsLiveSession *self, CsLiveCounters *out);
/* A snapshot of the streams so far (CsStream*, transfer full); the session keeps its packets. */
GPtrArray *cs_live_session_dup_streams (CsLiveSession *self);
/* The capture file(s) written, oldest first. */
char **cs_live_session_dup_paths (CsLiveSession *self);
/* The first error writing the capture file, or NULL; after it frames are analysed only. */
const GError *cs_live_session_get_write_error (CsLiveSession *self);

/* Reopens the saved file(s) with the file loader: the report of a live session. */
CsAnalysis *cs_live_session_load_saved (CsLiveSession *self, GError **error);

G_END_DECLS

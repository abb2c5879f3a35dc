/* cs-hep-sender.h — forwards SIP and RTCP to a HEP collector (Homer, or our own listener) */
#pragma once

#include <gio/gio.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

typedef struct _CsHepSender CsHepSender;

/* Connects to host:port over UDP or TCP. auth_key may be NULL. Errors: GIOError. */
CsHepSender *cs_hep_sender_new (const char *host, guint16 port, gboolean tcp, const char *auth_key,
                                guint32 capture_id, GError **error);
void cs_hep_sender_free (CsHepSender *sender);

/* Sends one payload as a HEP3 packet (payload_type 1 SIP, 5 RTCP). */
gboolean cs_hep_sender_send (CsHepSender *sender, const CsEndpoint *src, const CsEndpoint *dst,
                             guint8 ip_proto, guint8 payload_type, gint64 ts_ns,
                             const guint8 *payload, gsize len, GError **error);
/* Sends what a captured frame carries: SIP over UDP, TCP (reassembled) and IP fragments, and
 * RTCP. Frames must come in capture order. Other frames are ignored (TRUE). */
gboolean cs_hep_sender_send_frame (CsHepSender *sender, guint linktype, gint64 ts_ns,
                                   const guint8 *data, gsize caplen, GError **error);
/* Replays every frame of a capture file through cs_hep_sender_send_frame; pauses
 * pause_every packets for a millisecond so a local UDP receiver keeps up (0: never). */
gboolean cs_hep_sender_replay_file (CsHepSender *sender, const char *path, guint pause_every,
                                    GError **error);
/* Replays a capture file for --hep-send: at the capture's own pace (real_time: each packet
 * when its timestamp says, counted from the first), and never faster than max_per_second HEP
 * packets a second (0: no limit). Cancellation gives G_IO_ERROR_CANCELLED. */
gboolean cs_hep_sender_replay_file_paced (CsHepSender *sender, const char *path, gboolean real_time,
                                          double max_per_second, GCancellable *cancellable,
                                          GError **error);
guint64 cs_hep_sender_get_sent (CsHepSender *sender);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsHepSender, cs_hep_sender_free)

G_END_DECLS

/* cs-sdp.h — SDP (RFC 4566) session descriptions, parsed leniently */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

typedef enum
{
  CS_SDP_SENDRECV,
  CS_SDP_SENDONLY,
  CS_SDP_RECVONLY,
  CS_SDP_INACTIVE,
} CsSdpDirection;

/* encoding/clock_rate come from a=rtpmap; NULL/0 when the payload type has no rtpmap
 * (static types). channels: the rtpmap's third field, 1 for audio when omitted, 0
 * without rtpmap. */
typedef struct
{
  guint8 payload_type;
  char *encoding;
  guint clock_rate;
  guint channels;
  char *fmtp;
} CsSdpFormat;

typedef struct
{
  char *media; /* "audio", "video", "image", … */
  guint16 port;
  guint n_ports;
  char *proto;              /* "RTP/AVP", "RTP/SAVP", "udptl" … */
  CsAddr connection;        /* media-level c=, else session-level c= (family 0 if none) */
  CsSdpDirection direction; /* media-level attribute, else session-level, else sendrecv */
  guint ptime;              /* a=ptime, 0 if absent */
  guint maxptime;           /* a=maxptime, 0 if absent */
  guint16 rtcp_port;        /* a=rtcp:, else 0 */
  gboolean rtcp_mux;
  /* a=crypto values (RFC 4568: "TAG SUITE inline:KEY…"), the first CS_SDP_MAX_CRYPTO of the
   * block in order, NULL after the last */
  char *crypto[4];
  GArray *formats; /* CsSdpFormat in m= line order (numeric formats only); a read-only
                    * view inside the description: read ->len and ->data only */
} CsSdpMedia;

typedef struct _CsSdp CsSdp;
struct _CsSdp
{
  char *origin_username;
  guint64 session_id;
  guint64 session_version;
  CsAddr origin_address;
  char *session_name;
  CsAddr connection;        /* session-level c= */
  CsSdpDirection direction; /* session-level attribute */
  GPtrArray *media;         /* CsSdpMedia*; a read-only view: read ->len and ->pdata only */
  char *malformed;          /* NULL or the first problem found; parsing keeps what it can */
};

/* Bounds: at most CS_SDP_MAX_MEDIA m= blocks and CS_SDP_MAX_FORMATS formats per block;
 * more sets ->malformed and is dropped. */
#define CS_SDP_MAX_MEDIA 64
#define CS_SDP_MAX_FORMATS 128
#define CS_SDP_MAX_CRYPTO 4

/* NULL (CS_SDP_ERROR_MALFORMED) only for bytes that are not SDP at all (no v= line).
 * Lines end with CRLF or LF; unknown or garbage lines are skipped. */
CsSdp *cs_sdp_parse (const char *text, gsize len, GError **error);
void cs_sdp_free (CsSdp *sdp);
/* For a parser that keeps the description inside its own allocation: parses into this
 * thread's scratch and *parsed, and returns the size cs_sdp_freeze_to needs (0 when the
 * text has no v= line); cs_sdp_freeze_to then writes it to block (8-byte aligned, that
 * size), before this thread parses any other SDP. Such a description is not freed with
 * cs_sdp_free; it lives as long as the block. */
gsize cs_sdp_parse_pending (const char *text, gsize len, CsSdp *parsed);
CsSdp *cs_sdp_freeze_to (const CsSdp *parsed, void *block);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSdp, cs_sdp_free)

/* "sendrecv", "sendonly", "recvonly", "inactive" */
const char *cs_sdp_direction_to_string (CsSdpDirection dir);
/* Format for a payload type in a media block, or NULL */
const CsSdpFormat *cs_sdp_media_find_format (const CsSdpMedia *media, guint8 payload_type);
/* TRUE when the block puts the peer on hold: sendonly, inactive, or c= 0.0.0.0 / :: */
gboolean cs_sdp_media_is_hold (const CsSdpMedia *media);

G_END_DECLS

/* cs-hep.h — HEP v2 and v3 (HEP3/EEP) decapsulation, and a HEP3 encoder */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"
#include "base/cs-error.h"

G_BEGIN_DECLS

/* Codes in the CS_DECODE_ERROR domain. */
typedef enum
{
  CS_DECODE_ERROR_MALFORMED,   /* lengths that lie, missing mandatory parts */
  CS_DECODE_ERROR_UNSUPPORTED, /* well formed but not something we decode (compressed payload) */
} CsDecodeError;

/* HEP3 protocol types (chunk 0x000b). */
#define CS_HEP_PROTO_SIP 1
#define CS_HEP_PROTO_RTCP 5

typedef struct
{
  guint8 version;  /* 2 or 3 */
  guint8 ip_proto; /* 17/6 */
  CsEndpoint src, dst;
  gint64 ts_ns;        /* from the HEP timestamp chunks */
  guint8 payload_type; /* HEP3 chunk 0x000b: 1 = SIP, 5 = RTCP, 32+ QoS …; v2 → 1 */
  guint32 capture_id;
  const guint8 *payload; /* points into the input */
  gsize payload_len;
  const char *correlation_id; /* chunk 0x0011, may be NULL; not NUL-terminated */
  gsize correlation_id_len;
  const char *auth_key; /* chunk 0x000e, may be NULL; not NUL-terminated */
  gsize auth_key_len;
} CsHepPacket;

/* "HEP3" magic, or a plausible v1/v2 header (version, header length matching the family,
 * UDP/TCP/SCTP). */
gboolean cs_hep_looks_like (const guint8 *data, gsize len);

/* Decodes one HEP packet (one UDP datagram's payload). Pointers in out point into data.
 * HEP v1/v2: the fixed header; v2 timestamps are read little-endian (senders write host order).
 * HEP3: chunks of vendor 0 are read, others skipped; the payload chunk (0x000f) is required.
 * Returns FALSE with CS_DECODE_ERROR on malformed input. */
gboolean cs_hep_decode (const guint8 *data, gsize len, CsHepPacket *out, GError **error);

/* Encoder for tests and the future HEP sender: writes a HEP3 packet into a new GByteArray
 * (addresses family from in->src, timestamp as seconds + microseconds). NULL if it would not fit
 * in HEP3's 16-bit length. */
GByteArray *cs_hep3_encode (const CsHepPacket *in);

G_END_DECLS

/* gen-srtp.h — SRTP for generated calls, written with libsrtp from the generator's RTP
 * (the truth the decrypting side is checked against: keys, suites, MKI, rollover) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *suite;     /* RFC 4568/6188/7714 name, e.g. "AES_CM_128_HMAC_SHA1_80" */
  guint mki_length;      /* bytes of MKI (value 1 up, 2 down); 0 = none */
  const char *lifetime;  /* "2^20" or NULL: written in a=crypto */
  gboolean no_key_lines; /* RTP/SAVP without a=crypto (keys exchanged elsewhere) */
  gboolean wrong_up_key; /* the caller sends with another key than its SDP announces */
  guint16 seq0;          /* first sequence number of both directions; 0 = random */
  guint duplicates;      /* caller packets the network delivers twice (replays, not failures) */
} GenSrtpPlan;

typedef struct _GenSrtp GenSrtp;

/* Master key + salt bytes of a suite; 0 for a name libsrtp's policies here do not cover. */
guint gen_srtp_key_length (const char *suite);
/* A sending session for ssrc: key is key_length bytes; mki_length bytes of mki_value. */
GenSrtp *gen_srtp_new (const char *suite, guint32 ssrc, const guint8 *key, guint mki_value,
                       guint mki_length);
void gen_srtp_free (GenSrtp *srtp);
/* Protects the RTP packet pkt (len bytes, room for len + 64) in place; the new length. */
gsize gen_srtp_protect (GenSrtp *srtp, guint8 *pkt, gsize len);
/* SDP text with the m= line's RTP/AVP made RTP/SAVP and a=crypto for key put in (taken). */
char *gen_srtp_sdp (const GenSrtpPlan *plan, char *sdp, const guint8 *key, guint mki_value);

G_END_DECLS

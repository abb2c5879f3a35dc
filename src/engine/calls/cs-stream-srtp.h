/* cs-stream-srtp.h — whether a stream is SRTP, which key opens it, and its payloads read
 * back decrypted: ciphertext is never handed out as payload */
#pragma once

#include "capture/cs-capture-set.h"
#include "cs-stream.h"
#include "rtp/cs-srtp-key.h"
#include "rtp/cs-srtp-session.h"

G_BEGIN_DECLS

typedef enum
{
  CS_STREAM_CLEAR,      /* plain RTP: payloads are read as they are */
  CS_STREAM_ENCRYPTED,  /* SRTP without a key: header metrics only, no audio */
  CS_STREAM_DECRYPTED,  /* SRTP opened with a key that authenticates its packets */
  CS_STREAM_KEY_FAILED, /* SRTP whose keys all fail authentication: nothing decoded */
} CsStreamProtection;

/* "clear", "encrypted", "decrypted", "key-failed" */
const char *cs_stream_protection_to_string (CsStreamProtection protection);

#define CS_STREAM_SRTP_FAILED_FRAMES 8

typedef struct
{
  CsStreamProtection protection;
  CsSrtpSuite suite;  /* DECRYPTED: the suite that authenticated; else the SDP's, if any */
  gboolean user_key;  /* the key came from the user (--srtp-key, the GUI), else from SDP */
  guint32 key_frame;  /* the SDP message that carried the key; 0 for a user key */
  guint n_keys_tried; /* keys (× suites) tried on the first packets */
  guint32 decrypted;  /* packets that authenticated */
  guint32 failed;     /* packets that failed authentication (after the key was chosen) */
  guint32 failed_frames[CS_STREAM_SRTP_FAILED_FRAMES]; /* the first of them */
  guint n_failed_frames;
  guint32 expired;       /* packets past the key's lifetime */
  guint32 expired_frame; /* the first of them */
  CsSrtpKey key;         /* the key in use (DECRYPTED, KEY_FAILED: the first tried) */
} CsStreamSrtp;

/* NULL for a clear stream. */
const CsStreamSrtp *cs_stream_get_srtp (CsStream *stream);
CsStreamProtection cs_stream_get_protection (CsStream *stream);

/* For every stream: SRTP when the SDP that announced it says RTP/SAVP(F) (or a user key
 * names it); its keys from the a=crypto lines of the SDP that announced its source (the
 * sender's key, RFC 4568 6.1), the user's keys first; the key that authenticates its first
 * packets is kept and all packets checked. calls: CsCall* in number order. user_keys:
 * CsSrtpUserKey (may be NULL). */
void cs_stream_srtp_attach_all (GPtrArray *calls, GPtrArray *streams, const GArray *user_keys,
                                CsCaptureSet *set);
/* The same for one stream with one more key (the GUI's key entry): TRUE when it opened it. */
gboolean cs_stream_srtp_try_key (CsStream *stream, const CsSrtpKey *key, CsCaptureSet *set);

/* Reads a stream's payloads in capture order, decrypted when the stream is SRTP. */
typedef struct _CsStreamPayloadReader CsStreamPayloadReader;
CsStreamPayloadReader *cs_stream_payload_reader_new (CsStream *stream, CsCaptureSet *set);
void cs_stream_payload_reader_free (CsStreamPayloadReader *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsStreamPayloadReader, cs_stream_payload_reader_free)
/* The RTP payload of packet (one of the stream's records, given in capture order): FALSE
 * when its frame no longer holds it, or the stream is encrypted without a working key, or
 * the packet does not authenticate. The bytes stay valid until the next read. */
gboolean cs_stream_payload_reader_read (CsStreamPayloadReader *reader, const CsRtpPacket *packet,
                                        const guint8 **payload, gsize *len);

G_END_DECLS

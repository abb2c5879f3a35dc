/* cs-srtp-session.h — one direction of SRTP/SRTCP (one SSRC, one key) opened with libsrtp:
 * packets unprotected in capture order, as their receiver did */
#pragma once

#include <glib.h>

#include "cs-srtp-key.h"

G_BEGIN_DECLS

typedef enum
{
  CS_SRTP_OK,        /* authenticated and decrypted */
  CS_SRTP_AUTH_FAIL, /* the authentication tag does not match: wrong key (or damaged) */
  CS_SRTP_REPLAY,    /* a packet already unprotected (a duplicate) or too old to tell */
  CS_SRTP_MALFORMED, /* too short for its header and tag, or an unknown MKI */
} CsSrtpStatus;

const char *cs_srtp_status_to_string (CsSrtpStatus status);

/* Bytes a protected packet of the suite carries after its payload (auth tag; SRTCP adds
 * its 4-byte index), with an MKI of mki_length bytes. */
guint cs_srtp_suite_trailer (CsSrtpSuite suite, guint mki_length, gboolean rtcp);

typedef struct _CsSrtpSession CsSrtpSession;

/* A receiving session for ssrc with key, as suite (key->suite, or one of its candidate
 * suites when that is unknown). NULL with an error when libsrtp refuses the key. */
CsSrtpSession *cs_srtp_session_new (const CsSrtpKey *key, CsSrtpSuite suite, guint32 ssrc,
                                    GError **error);
void cs_srtp_session_free (CsSrtpSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSrtpSession, cs_srtp_session_free)
CsSrtpSuite cs_srtp_session_get_suite (const CsSrtpSession *session);

/* Unprotects the SRTP packet in buf (len bytes; buf has room for len) in place: on
 * CS_SRTP_OK *out_len is the clear RTP packet's length. */
CsSrtpStatus cs_srtp_session_unprotect_rtp (CsSrtpSession *session, guint8 *buf, gsize len,
                                            gsize *out_len);
/* The same for an SRTCP packet (a compound packet as a whole). */
CsSrtpStatus cs_srtp_session_unprotect_rtcp (CsSrtpSession *session, guint8 *buf, gsize len,
                                             gsize *out_len);

G_END_DECLS

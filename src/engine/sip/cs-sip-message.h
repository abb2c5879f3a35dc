/* cs-sip-message.h — one parsed SIP message (RFC 3261), parsed leniently */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"
#include "cs-sip-method.h"

G_BEGIN_DECLS

typedef enum
{
  CS_SIP_TRANSPORT_UDP,
  CS_SIP_TRANSPORT_TCP,
  CS_SIP_TRANSPORT_HEP,
  CS_SIP_TRANSPORT_TLS, /* TCP whose TLS records were decrypted with a key log */
} CsSipTransport;

/* name as written (compact forms kept as written), value unfolded and trimmed */
typedef struct
{
  char *name;
  char *value;
} CsSipHeader;

typedef struct _CsSdp CsSdp;

/* The decoded strings, read through cs_sip_message_get_call_id () and the other accessors
 * below (a message keeps them as offsets, not pointers). */
typedef enum
{
  CS_SIP_FIELD_METHOD_NAME, /* request method token as written (also unknown ones) */
  CS_SIP_FIELD_REQUEST_URI,
  CS_SIP_FIELD_REASON, /* responses */
  CS_SIP_FIELD_CALL_ID,
  CS_SIP_FIELD_FROM, /* the whole header value */
  CS_SIP_FIELD_FROM_TAG,
  CS_SIP_FIELD_FROM_USER, /* URI user part */
  CS_SIP_FIELD_FROM_DISPLAY,
  CS_SIP_FIELD_TO,
  CS_SIP_FIELD_TO_TAG,
  CS_SIP_FIELD_TO_USER,
  CS_SIP_FIELD_TO_DISPLAY,
  CS_SIP_FIELD_CSEQ_METHOD_NAME,
  CS_SIP_FIELD_VIA_BRANCH,   /* branch param of the top-most Via */
  CS_SIP_FIELD_USER_AGENT,   /* User-Agent, or Server for responses */
  CS_SIP_FIELD_CONTACT,      /* the whole header value */
  CS_SIP_FIELD_CONTENT_TYPE, /* lowercased media type without parameters, e.g. "application/sdp" */
  CS_SIP_FIELD_MALFORMED,    /* NULL when well-formed; else the first problem found */
  CS_SIP_N_FIELDS
} CsSipField;

/* A parsed message; its layout is the SIP parser's own (sip/cs-sip-message-private.h):
 * everything else reads it through the accessors below (pure: a caller's repeated reads of
 * one field between other calls may be one). */
typedef struct _CsSipMessage CsSipMessage;

/* The decoded string, NULL when absent; valid as long as the message. */
const char *cs_sip_message_get_string (const CsSipMessage *msg, CsSipField field) G_GNUC_PURE;

#define CS_SIP_MESSAGE_STRING_GETTER(name, FIELD)                                                  \
  static inline const char *cs_sip_message_get_##name (const CsSipMessage *msg)                    \
  {                                                                                                \
    return cs_sip_message_get_string (msg, CS_SIP_FIELD_##FIELD);                                  \
  }
CS_SIP_MESSAGE_STRING_GETTER (method_name, METHOD_NAME)
CS_SIP_MESSAGE_STRING_GETTER (request_uri, REQUEST_URI)
CS_SIP_MESSAGE_STRING_GETTER (reason, REASON)
CS_SIP_MESSAGE_STRING_GETTER (call_id, CALL_ID)
CS_SIP_MESSAGE_STRING_GETTER (from, FROM)
CS_SIP_MESSAGE_STRING_GETTER (from_tag, FROM_TAG)
CS_SIP_MESSAGE_STRING_GETTER (from_user, FROM_USER)
CS_SIP_MESSAGE_STRING_GETTER (from_display, FROM_DISPLAY)
CS_SIP_MESSAGE_STRING_GETTER (to, TO)
CS_SIP_MESSAGE_STRING_GETTER (to_tag, TO_TAG)
CS_SIP_MESSAGE_STRING_GETTER (to_user, TO_USER)
CS_SIP_MESSAGE_STRING_GETTER (to_display, TO_DISPLAY)
CS_SIP_MESSAGE_STRING_GETTER (cseq_method_name, CSEQ_METHOD_NAME)
CS_SIP_MESSAGE_STRING_GETTER (via_branch, VIA_BRANCH)
CS_SIP_MESSAGE_STRING_GETTER (user_agent, USER_AGENT)
CS_SIP_MESSAGE_STRING_GETTER (contact, CONTACT)
CS_SIP_MESSAGE_STRING_GETTER (content_type, CONTENT_TYPE)
CS_SIP_MESSAGE_STRING_GETTER (malformed, MALFORMED)
#undef CS_SIP_MESSAGE_STRING_GETTER

/* Where the message was captured: set by whoever decoded it (cs_sip_message_stamp), the
 * parser leaves them zero. */
guint32 cs_sip_message_get_frame (const CsSipMessage *msg) G_GNUC_PURE; /* frame of its last byte */
guint32 cs_sip_message_get_first_frame (const CsSipMessage *msg)
    G_GNUC_PURE; /* differs for TCP/fragments */
gint64 cs_sip_message_get_ts_ns (const CsSipMessage *msg) G_GNUC_PURE;
const CsEndpoint *cs_sip_message_get_src (const CsSipMessage *msg) G_GNUC_PURE;
const CsEndpoint *cs_sip_message_get_dst (const CsSipMessage *msg) G_GNUC_PURE;
CsSipTransport cs_sip_message_get_transport (const CsSipMessage *msg) G_GNUC_PURE;
/* Byte offset of the message in its file when it was read from one place of a mapped
 * capture, else 0. */
guint64 cs_sip_message_get_offset (const CsSipMessage *msg) G_GNUC_PURE;
/* The capture point that saw it (file index in a --points capture set + 1), 0 without
 * points: set by the loader. */
guint cs_sip_message_get_point (const CsSipMessage *msg) G_GNUC_PURE;

/* The decoded start line and headers that are not strings. */
gboolean cs_sip_message_is_request (const CsSipMessage *msg) G_GNUC_PURE;
CsSipMethod
cs_sip_message_get_method (const CsSipMessage *msg) G_GNUC_PURE; /* UNKNOWN for other tokens */
guint cs_sip_message_get_status_code (const CsSipMessage *msg) G_GNUC_PURE; /* responses */
guint32 cs_sip_message_get_cseq (const CsSipMessage *msg) G_GNUC_PURE;
CsSipMethod cs_sip_message_get_cseq_method (const CsSipMessage *msg) G_GNUC_PURE;
/* The method of the message's transaction: a request's own, a response's CSeq method. */
CsSipMethod cs_sip_message_get_transaction_method (const CsSipMessage *msg) G_GNUC_PURE;
gint64 cs_sip_message_get_content_length (const CsSipMessage *msg) G_GNUC_PURE; /* -1 when absent */
/* The parsed SDP (application/sdp body or the first such part of a multipart), or NULL. */
CsSdp *cs_sip_message_get_sdp (const CsSipMessage *msg) G_GNUC_PURE;

/* Stamps where a message was captured (frame and first frame alike) and returns it; NULL
 * stays NULL. */
CsSipMessage *cs_sip_message_stamp (CsSipMessage *msg, const CsEndpoint *src, const CsEndpoint *dst,
                                    CsSipTransport transport, guint32 frame, gint64 ts_ns);
/* The same fields one at a time (reassembled messages, tests). */
void cs_sip_message_set_frame (CsSipMessage *msg, guint32 frame);
void cs_sip_message_set_first_frame (CsSipMessage *msg, guint32 first_frame);
void cs_sip_message_set_ts_ns (CsSipMessage *msg, gint64 ts_ns);
void cs_sip_message_set_point (CsSipMessage *msg, guint point);
void cs_sip_message_set_endpoints (CsSipMessage *msg, const CsEndpoint *src, const CsEndpoint *dst);

/* A signature identifies one transmission of a message within its transaction: seeing it
 * twice means the sender retransmitted. Requests: branch, CSeq, method; responses: branch,
 * CSeq, CSeq method, status, To tag (NULL and "" alike). For a hash set of messages. */
guint cs_sip_message_signature_hash (gconstpointer msg);
gboolean cs_sip_message_signature_equal (gconstpointer a, gconstpointer b);
/* The numbers of a signature mixed: equal signatures have equal quick keys. */
guint32 cs_sip_message_quick_signature (const CsSipMessage *msg) G_GNUC_PURE;

/* Bounds on hostile input: more headers, or a longer value, sets ->malformed and the
 * excess is dropped. */
#define CS_SIP_MAX_HEADERS 256
#define CS_SIP_MAX_HEADER_VALUE (64 * 1024)

/* TRUE when the bytes start with a SIP start line: "SIP/2.0 NNN …" or
 * "TOKEN SP URI SP SIP/2.0", then CRLF or LF. Allocation-free; rejects RTP, DNS, HTTP,
 * RTSP. */
gboolean cs_sip_looks_like (const guint8 *data, gsize len);

/* Parses one message. NULL (CS_SIP_ERROR_NOT_SIP) only when the bytes are not SIP at
 * all; anything that starts like SIP gives a message, with ->malformed set for problems.
 * Never reads past len. Trailing bytes after Content-Length are ignored. All strings are
 * valid UTF-8 (NUL bytes and invalid sequences replaced); body is the raw bytes. */
CsSipMessage *cs_sip_message_parse (const guint8 *data, gsize len, GError **error);
/* The same message from len bytes at data inside bytes (a mapped capture file), kept
 * lean: it holds a reference to bytes and its decoded fields, and reads the headers and
 * an SDP body again from bytes on first request. Anything else in the body is kept.
 * Data outside bytes gives an ordinary message. With share, strings equal to those of
 * an earlier message with the same Call-ID parsed through it are not copied again. */
typedef struct _CsMappedBytes CsMappedBytes;
typedef struct _CsSipShare CsSipShare;
CsSipMessage *cs_sip_message_parse_mapped (CsMappedBytes *bytes, CsSipShare *share,
                                           const guint8 *data, gsize len);
/* cs_sip_message_parse_mapped for data that cs_sip_looks_like (data, len) accepted: its
 * start line is not checked again. */
CsSipMessage *cs_sip_message_parse_mapped_sip (CsMappedBytes *bytes, CsSipShare *share,
                                               const guint8 *data, gsize len);
/* The first messages of recent Call-IDs for cs_sip_message_parse_mapped (thread-safe;
 * it keeps a few thousand messages alive until freed, and freeing it keeps the others). */
CsSipShare *cs_sip_share_new (void);
void cs_sip_share_free (CsSipShare *share);
CsSipMessage *cs_sip_message_ref (CsSipMessage *msg);
void cs_sip_message_unref (CsSipMessage *msg);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSipMessage, cs_sip_message_unref)

/* Every header in order (CsSipHeader*): a read-only view owned by the message, built on
 * the first call (thread-safe); read ->len and ->pdata, never ref or modify it. */
const GPtrArray *cs_sip_message_get_headers (const CsSipMessage *msg);
/* The body's raw bytes, NUL-terminated (NULL bytes inside are kept); *len its length. */
const char *cs_sip_message_get_body (const CsSipMessage *msg, gsize *len);

/* First header by name, case-insensitive, long and compact forms alike ("Call-ID" finds
 * "i:"). NULL if absent. */
const char *cs_sip_message_get_header (const CsSipMessage *msg, const char *name);
/* "INVITE" / "200 OK": a short label for ladders and lists */
char *cs_sip_message_dup_label (const CsSipMessage *msg);

/* A 1xx response / a response of 200 or more. */
gboolean cs_sip_message_is_provisional (const CsSipMessage *msg) G_GNUC_PURE;
gboolean cs_sip_message_is_final (const CsSipMessage *msg) G_GNUC_PURE;

/* Framing on stream transports (TCP): how long is the message at the start of data. */
typedef enum
{
  CS_SIP_FRAMING_COMPLETE,   /* *message_len = start line + headers + Content-Length body */
  CS_SIP_FRAMING_INCOMPLETE, /* need more bytes */
  CS_SIP_FRAMING_INVALID,    /* not a SIP start line, bad Content-Length, or over the bounds */
} CsSipFraming;

/* Headers larger than this, or a Content-Length larger than CS_SIP_MAX_FRAMED_BODY, are
 * INVALID so that a reassembler never buffers without bound. A missing Content-Length
 * means an empty body (RFC 3261 §18.3 makes it mandatory on streams). */
#define CS_SIP_MAX_FRAMED_HEADERS (1024 * 1024)
#define CS_SIP_MAX_FRAMED_BODY (16 * 1024 * 1024)
CsSipFraming cs_sip_message_frame_length (const guint8 *data, gsize len, gsize *message_len);

G_END_DECLS

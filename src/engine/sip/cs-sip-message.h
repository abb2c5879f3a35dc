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

/* Fields are ordered by size so that the struct has no padding holes. */
typedef struct
{
  /* where it was found — filled by the caller (loader), the parser leaves them zero */
  guint64 offset; /* byte offset of the message in its file when contiguous, else 0 */
  gint64 ts_ns;
  gint64 content_length; /* -1 when absent */
  CsSdp *sdp; /* parsed SDP (application/sdp body or first such part of a multipart), or NULL */
  gpointer priv_headers_view; /* private: the headers view (a lean message: its full parse) */
  guintptr priv_owner;        /* private: a lean message's CsMappedBytes *, or its donor | 1 */
  /* private: each decoded string's offset from the message (CS_SIP_STRING_DONOR: from
   * the donor), 0 for NULL, up to CS_SIP_STRING_SPECIAL for one kept elsewhere (or
   * further away than 15 bits reach) */
  guint16 priv_strings[CS_SIP_N_FIELDS];
  gatomicrefcount ref_count;
  guint32 frame;       /* frame holding the message's last byte (as Wireshark numbers it) */
  guint32 first_frame; /* first frame (differs for TCP/fragments) */
  guint status_code;   /* responses */
  guint32 cseq;
  /* private: the body (NUL-terminated) and the headers packed as name NUL value NUL …,
   * from the struct; read them through cs_sip_message_get_headers / _get_body */
  guint32 priv_body_at;
  guint32 priv_body_len;
  guint32 priv_header_offset;
  CsEndpoint src, dst;
  guint16 priv_n_headers;
  guint8 transport;   /* CsSipTransport */
  guint8 is_request;  /* gboolean */
  guint8 method;      /* CsSipMethod: request method, UNKNOWN for other tokens */
  guint8 cseq_method; /* CsSipMethod */
} CsSipMessage;

#define CS_SIP_STRING_DONOR 0x8000u
#define CS_SIP_STRING_SPECIAL 15u
#define CS_SIP_STRING_METHOD 1u      /* cs_sip_method_to_string (msg->method) */
#define CS_SIP_STRING_CSEQ_METHOD 2u /* cs_sip_method_to_string (msg->cseq_method) */
/* A string kept elsewhere (a known method's spelling, a field read again on request, an
 * offset of 32 KiB or more). */
const char *cs_sip_message_string_special (const CsSipMessage *msg, CsSipField field);

/* The decoded string, NULL when absent; valid as long as the message. */
static inline const char *
cs_sip_message_get_string (const CsSipMessage *msg, CsSipField field)
{
  guint at = msg->priv_strings[field];

  if (G_LIKELY (at > CS_SIP_STRING_SPECIAL))
    {
      const char *base = (at & CS_SIP_STRING_DONOR) != 0
                             ? (const char *) (msg->priv_owner & ~(guintptr) 1)
                             : (const char *) msg;
      return base + (at & (CS_SIP_STRING_DONOR - 1));
    }
  if (at <= CS_SIP_STRING_CSEQ_METHOD)
    {
      /* a known method, spelled from the enum (messages only hold valid ones) */
      if (at == 0)
        return NULL;
      return cs_sip_method_spellings[at == CS_SIP_STRING_METHOD ? msg->method : msg->cseq_method];
    }
  return cs_sip_message_string_special (msg, field);
}

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

static inline gboolean
cs_sip_message_is_provisional (const CsSipMessage *m)
{
  return !m->is_request && m->status_code >= 100 && m->status_code < 200;
}

static inline gboolean
cs_sip_message_is_final (const CsSipMessage *m)
{
  return !m->is_request && m->status_code >= 200;
}

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

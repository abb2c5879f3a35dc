/* cs-sip-message-layout.h — a parsed SIP message's layout, and its accessors as inline
 * reads for the engine's measured hot path.
 *
 * The layout is the SIP parser's own (cs-sip-message-private.h includes this header);
 * nothing outside the engine can include it (other layers include callscope-engine.h only),
 * and inside the engine only the merge thread's per-message code does (calls/cs-call.c,
 * cs-call-tracker.c, cs-transaction.c, cs-stream-binder.c, loader/cs-merge.c): with the
 * accessors as calls that thread ran 4.6 % more instructions on corpus S (callgrind, 2
 * threads: 1 487 -> 1 555 M), and it is the load's critical path. It still reads the
 * message only through the accessors' names: below, each one becomes the field read it
 * stands for (the functions of cs-sip-message-access.c are defined with their names in
 * parentheses, which a function-like macro leaves alone). */
#pragma once

#include "cs-sip-message.h"

G_BEGIN_DECLS

/* Fields are ordered by size so that the struct has no padding holes. */
struct _CsSipMessage
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
  guint16 point;      /* capture point (file of a --points set) + 1; 0 without points */
};

#define CS_SIP_STRING_DONOR 0x8000u
#define CS_SIP_STRING_SPECIAL 15u
#define CS_SIP_STRING_METHOD 1u      /* cs_sip_method_to_string (msg->method) */
#define CS_SIP_STRING_CSEQ_METHOD 2u /* cs_sip_method_to_string (msg->cseq_method) */
/* A string kept elsewhere (a known method's spelling, a field read again on request, an
 * offset of 32 KiB or more). */
const char *cs_sip_message_string_special (const CsSipMessage *msg, CsSipField field);

/* cs_sip_message_get_string, inline. */
static inline const char *
cs_sip_message_string_at (const CsSipMessage *msg, CsSipField field)
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

static inline CsSipMethod
cs_sip_message_transaction_method_at (const CsSipMessage *msg)
{
  return (CsSipMethod) (msg->is_request ? msg->method : msg->cseq_method);
}

/* cs_sip_message_quick_signature, inline (cs-sip-signature.c). */
static inline guint32
cs_sip_message_quick_signature_at (const CsSipMessage *msg)
{
  guint32 method = cs_sip_message_transaction_method_at (msg);
  guint32 h
      = (msg->cseq * 0x9e3779b1u) ^ ((method * 2u + (msg->is_request ? 1u : 0u)) * 0x85ebca6bu);

  return msg->is_request ? h : h ^ (msg->status_code * 0xc2b2ae35u);
}

/* The accessors as reads (each argument evaluated once). */
#define cs_sip_message_get_frame(msg) ((guint32) (msg)->frame)
#define cs_sip_message_get_first_frame(msg) ((guint32) (msg)->first_frame)
#define cs_sip_message_get_ts_ns(msg) ((gint64) (msg)->ts_ns)
#define cs_sip_message_get_src(msg) ((const CsEndpoint *) &(msg)->src)
#define cs_sip_message_get_dst(msg) ((const CsEndpoint *) &(msg)->dst)
#define cs_sip_message_get_transport(msg) ((CsSipTransport) (msg)->transport)
#define cs_sip_message_get_offset(msg) ((guint64) (msg)->offset)
#define cs_sip_message_is_request(msg) ((gboolean) (msg)->is_request)
#define cs_sip_message_get_method(msg) ((CsSipMethod) (msg)->method)
#define cs_sip_message_get_status_code(msg) ((guint) (msg)->status_code)
#define cs_sip_message_get_cseq(msg) ((guint32) (msg)->cseq)
#define cs_sip_message_get_cseq_method(msg) ((CsSipMethod) (msg)->cseq_method)
#define cs_sip_message_get_transaction_method(msg) cs_sip_message_transaction_method_at (msg)
#define cs_sip_message_get_content_length(msg) ((gint64) (msg)->content_length)
#define cs_sip_message_get_sdp(msg) ((CsSdp *) (msg)->sdp)
#define cs_sip_message_quick_signature(msg) cs_sip_message_quick_signature_at (msg)
#define cs_sip_message_get_string(msg, field) cs_sip_message_string_at ((msg), (field))
#define cs_sip_message_get_method_name(msg)                                                        \
  cs_sip_message_string_at ((msg), CS_SIP_FIELD_METHOD_NAME)
#define cs_sip_message_get_request_uri(msg)                                                        \
  cs_sip_message_string_at ((msg), CS_SIP_FIELD_REQUEST_URI)
#define cs_sip_message_get_reason(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_REASON)
#define cs_sip_message_get_call_id(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_CALL_ID)
#define cs_sip_message_get_from(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_FROM)
#define cs_sip_message_get_from_tag(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_FROM_TAG)
#define cs_sip_message_get_from_user(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_FROM_USER)
#define cs_sip_message_get_from_display(msg)                                                       \
  cs_sip_message_string_at ((msg), CS_SIP_FIELD_FROM_DISPLAY)
#define cs_sip_message_get_to(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_TO)
#define cs_sip_message_get_to_tag(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_TO_TAG)
#define cs_sip_message_get_to_user(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_TO_USER)
#define cs_sip_message_get_to_display(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_TO_DISPLAY)
#define cs_sip_message_get_cseq_method_name(msg)                                                   \
  cs_sip_message_string_at ((msg), CS_SIP_FIELD_CSEQ_METHOD_NAME)
#define cs_sip_message_get_via_branch(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_VIA_BRANCH)
#define cs_sip_message_get_user_agent(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_USER_AGENT)
#define cs_sip_message_get_contact(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_CONTACT)
#define cs_sip_message_get_content_type(msg)                                                       \
  cs_sip_message_string_at ((msg), CS_SIP_FIELD_CONTENT_TYPE)
#define cs_sip_message_get_malformed(msg) cs_sip_message_string_at ((msg), CS_SIP_FIELD_MALFORMED)

G_END_DECLS

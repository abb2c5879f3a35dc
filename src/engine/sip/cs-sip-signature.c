/* cs-sip-signature.c — what makes two messages the same transmission of one message of a
 * transaction (a retransmission): compared field by field on the messages themselves, so
 * nothing is allocated per message */
#include "cs-sip-message-private.h"

static const char *
or_empty (const char *s)
{
  return s != NULL ? s : "";
}

guint
cs_sip_message_signature_hash (gconstpointer data)
{
  const CsSipMessage *msg = data;
  guint h = g_str_hash (or_empty (cs_sip_message_string_at (msg, CS_SIP_FIELD_VIA_BRANCH))) * 31u
            + msg->cseq;

  if (msg->is_request)
    return h * 31u
           + g_str_hash (or_empty (cs_sip_message_string_at (msg, CS_SIP_FIELD_METHOD_NAME)));
  h = h * 31u
      + g_str_hash (or_empty (cs_sip_message_string_at (msg, CS_SIP_FIELD_CSEQ_METHOD_NAME)));
  h = h * 31u + msg->status_code;
  return h * 31u + g_str_hash (or_empty (cs_sip_message_string_at (msg, CS_SIP_FIELD_TO_TAG))) + 1u;
}

static gboolean
same_text (const char *a, const char *b)
{
  return a == b || strcmp (or_empty (a), or_empty (b)) == 0;
}

static inline gboolean
same_field (const CsSipMessage *a, const CsSipMessage *b, CsSipField field)
{
  return same_text (cs_sip_message_string_at (a, field), cs_sip_message_string_at (b, field));
}

static inline gboolean
methods_may_match (const CsSipMessage *a, const CsSipMessage *b)
{
  CsSipMethod ma = cs_sip_message_transaction_method_at (a);
  CsSipMethod mb = cs_sip_message_transaction_method_at (b);

  return ma == mb || ma == CS_SIP_METHOD_UNKNOWN || mb == CS_SIP_METHOD_UNKNOWN;
}

/* A reliable provisional response (RFC 3262) is sent again with its RSeq; a new one, with
 * everything else alike, has the next RSeq. Read only when all else matched (rare). */
static gboolean
same_reliable_provisional (const CsSipMessage *a, const CsSipMessage *b)
{
  if (a->status_code <= 100 || a->status_code >= 200)
    return TRUE;
  return same_text (cs_sip_message_get_header (a, "RSeq"), cs_sip_message_get_header (b, "RSeq"));
}

/* numbers first, then the short strings: most stored messages differ early */
gboolean
cs_sip_message_signature_equal (gconstpointer a_data, gconstpointer b_data)
{
  const CsSipMessage *a = a_data, *b = b_data;

  if (a->is_request != b->is_request || a->cseq != b->cseq)
    return FALSE;
  /* known methods are parsed from their exact names: different ones differ in name */
  if (!methods_may_match (a, b))
    return FALSE;
  if (a->is_request)
    return same_field (a, b, CS_SIP_FIELD_METHOD_NAME)
           && same_field (a, b, CS_SIP_FIELD_VIA_BRANCH);
  return a->status_code == b->status_code && same_field (a, b, CS_SIP_FIELD_TO_TAG)
         && same_field (a, b, CS_SIP_FIELD_CSEQ_METHOD_NAME)
         && same_field (a, b, CS_SIP_FIELD_VIA_BRANCH) && same_reliable_provisional (a, b);
}

guint32 (cs_sip_message_quick_signature) (const CsSipMessage *msg)
{
  return cs_sip_message_quick_signature_at (msg);
}

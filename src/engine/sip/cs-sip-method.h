/* cs-sip-method.h — SIP request methods */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CS_SIP_METHOD_UNKNOWN = 0,
  CS_SIP_METHOD_INVITE,
  CS_SIP_METHOD_ACK,
  CS_SIP_METHOD_BYE,
  CS_SIP_METHOD_CANCEL,
  CS_SIP_METHOD_REGISTER,
  CS_SIP_METHOD_OPTIONS,
  CS_SIP_METHOD_PRACK,
  CS_SIP_METHOD_SUBSCRIBE,
  CS_SIP_METHOD_NOTIFY,
  CS_SIP_METHOD_PUBLISH,
  CS_SIP_METHOD_INFO,
  CS_SIP_METHOD_REFER,
  CS_SIP_METHOD_MESSAGE,
  CS_SIP_METHOD_UPDATE,
} CsSipMethod;

#define CS_SIP_METHOD_COUNT (CS_SIP_METHOD_UPDATE + 1)

/* Case-sensitive, as RFC 3261 §7.1 says method names are. */
CsSipMethod cs_sip_method_from_string (const char *text, gsize len);
/* "INVITE", …; "UNKNOWN" for CS_SIP_METHOD_UNKNOWN and out-of-range values. */
const char *cs_sip_method_to_string (CsSipMethod method);
/* The same spellings by CsSipMethod, for inline readers (cs_sip_message_get_string). */
extern const char *const *const cs_sip_method_spellings;

G_END_DECLS

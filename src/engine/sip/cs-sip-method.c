/* cs-sip-method.c — SIP request methods */
#include "cs-sip-method.h"

#include <string.h>

static const char *const method_names[CS_SIP_METHOD_COUNT] = {
  [CS_SIP_METHOD_UNKNOWN] = "UNKNOWN",
  [CS_SIP_METHOD_INVITE] = "INVITE",
  [CS_SIP_METHOD_ACK] = "ACK",
  [CS_SIP_METHOD_BYE] = "BYE",
  [CS_SIP_METHOD_CANCEL] = "CANCEL",
  [CS_SIP_METHOD_REGISTER] = "REGISTER",
  [CS_SIP_METHOD_OPTIONS] = "OPTIONS",
  [CS_SIP_METHOD_PRACK] = "PRACK",
  [CS_SIP_METHOD_SUBSCRIBE] = "SUBSCRIBE",
  [CS_SIP_METHOD_NOTIFY] = "NOTIFY",
  [CS_SIP_METHOD_PUBLISH] = "PUBLISH",
  [CS_SIP_METHOD_INFO] = "INFO",
  [CS_SIP_METHOD_REFER] = "REFER",
  [CS_SIP_METHOD_MESSAGE] = "MESSAGE",
  [CS_SIP_METHOD_UPDATE] = "UPDATE",
};

/* The spelling of length len that may be method m: one compare of constant size. */
static inline CsSipMethod
method_if (const char *text, gsize len, CsSipMethod m)
{
  return memcmp (text, method_names[m], len) == 0 ? m : CS_SIP_METHOD_UNKNOWN;
}

CsSipMethod
cs_sip_method_from_string (const char *text, gsize len)
{
  if (text == NULL)
    return CS_SIP_METHOD_UNKNOWN;
  /* by length, then the first letter where two share it */
  switch (len)
    {
    case 3:
      return method_if (text, 3, text[0] == 'A' ? CS_SIP_METHOD_ACK : CS_SIP_METHOD_BYE);
    case 4:
      return method_if (text, 4, CS_SIP_METHOD_INFO);
    case 5:
      return method_if (text, 5, text[0] == 'P' ? CS_SIP_METHOD_PRACK : CS_SIP_METHOD_REFER);
    case 6:
      switch (text[0])
        {
        case 'I':
          return method_if (text, 6, CS_SIP_METHOD_INVITE);
        case 'C':
          return method_if (text, 6, CS_SIP_METHOD_CANCEL);
        case 'N':
          return method_if (text, 6, CS_SIP_METHOD_NOTIFY);
        default:
          return method_if (text, 6, CS_SIP_METHOD_UPDATE);
        }
    case 7:
      switch (text[0])
        {
        case 'O':
          return method_if (text, 7, CS_SIP_METHOD_OPTIONS);
        case 'P':
          return method_if (text, 7, CS_SIP_METHOD_PUBLISH);
        default:
          return method_if (text, 7, CS_SIP_METHOD_MESSAGE);
        }
    case 8:
      return method_if (text, 8, CS_SIP_METHOD_REGISTER);
    case 9:
      return method_if (text, 9, CS_SIP_METHOD_SUBSCRIBE);
    default:
      return CS_SIP_METHOD_UNKNOWN;
    }
}

const char *
cs_sip_method_to_string (CsSipMethod method)
{
  if ((int) method < 0 || (int) method >= CS_SIP_METHOD_COUNT)
    return method_names[CS_SIP_METHOD_UNKNOWN];
  return method_names[method];
}

const char *const *const cs_sip_method_spellings = method_names;

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

/* lengths of method_names, so most candidates fail on two compares */
static const guint8 method_lens[CS_SIP_METHOD_COUNT] = {
  7, 6, 3, 3, 6, 8, 7, 5, 9, 6, 7, 4, 5, 7, 6,
};

CsSipMethod
cs_sip_method_from_string (const char *text, gsize len)
{
  if (text == NULL || len < 3 || len > 9)
    return CS_SIP_METHOD_UNKNOWN;
  for (int m = CS_SIP_METHOD_INVITE; m < CS_SIP_METHOD_COUNT; m++)
    {
      if (method_lens[m] == len && method_names[m][0] == text[0]
          && memcmp (method_names[m], text, len) == 0)
        return (CsSipMethod) m;
    }
  return CS_SIP_METHOD_UNKNOWN;
}

const char *
cs_sip_method_to_string (CsSipMethod method)
{
  if ((int) method < 0 || (int) method >= CS_SIP_METHOD_COUNT)
    return method_names[CS_SIP_METHOD_UNKNOWN];
  return method_names[method];
}

const char *const *const cs_sip_method_spellings = method_names;

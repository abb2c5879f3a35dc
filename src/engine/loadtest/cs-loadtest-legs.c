/* cs-loadtest-legs.c — the client and server legs of a call seen through a proxy */
#include "cs-loadtest-legs.h"

#include <string.h>

void
cs_load_legs_find (CsCall *call, CsLoadLegs *legs)
{
  guint n = cs_call_get_n_messages (call);
  gboolean found = FALSE;

  memset (legs, 0, sizeof *legs);
  for (guint i = 0; i < n; i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);

      if (!cs_sip_message_is_request (msg) || cs_call_message_is_retransmission (call, i)
          || cs_sip_message_get_method (msg) != CS_SIP_METHOD_INVITE)
        continue;
      if (!found)
        {
          legs->client = *cs_sip_message_get_src (msg);
          legs->server = *cs_sip_message_get_dst (msg);
          found = TRUE;
        }
      else if (!cs_endpoint_equal (cs_sip_message_get_src (msg), &legs->client)
               && !cs_endpoint_equal (cs_sip_message_get_dst (msg), &legs->client))
        {
          /* a copy forwarded by a proxy: the last one seen is the hop to the UAS */
          legs->server = *cs_sip_message_get_dst (msg);
          legs->proxied = TRUE;
        }
    }
  if (!found && n > 0)
    {
      CsSipMessage *first = cs_call_get_message (call, 0);

      legs->client = *cs_sip_message_get_src (first);
      legs->server = *cs_sip_message_get_dst (first);
    }
}

guint
cs_load_legs_of (const CsLoadLegs *legs, const CsSipMessage *msg)
{
  const CsEndpoint *src = cs_sip_message_get_src (msg);
  const CsEndpoint *dst = cs_sip_message_get_dst (msg);
  gboolean client
      = cs_endpoint_equal (src, &legs->client) || cs_endpoint_equal (dst, &legs->client);
  gboolean server
      = cs_endpoint_equal (src, &legs->server) || cs_endpoint_equal (dst, &legs->server);

  if (!legs->proxied)
    return CS_LOAD_LEG_CLIENT | CS_LOAD_LEG_SERVER;
  return (client ? CS_LOAD_LEG_CLIENT : 0) | (server && !client ? CS_LOAD_LEG_SERVER : 0);
}

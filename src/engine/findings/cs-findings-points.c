/* cs-findings-points.c — SIP lost on a hop between two capture points */
#include "cs-findings-private.h"

#include "sip/cs-sip-message.h"

/* The call holding the message of frame, and the message; NULL when no call has it. */
static CsCall *
cs_findings_call_of_frame (GPtrArray *calls, guint32 frame, CsSipMessage **msg)
{
  for (guint i = 0; calls != NULL && i < calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (calls, i);

      for (guint m = 0; m < cs_call_get_n_messages (call); m++)
        if (cs_sip_message_get_frame (cs_call_get_message (call, m)) == frame)
          {
            *msg = cs_call_get_message (call, m);
            return call;
          }
    }
  return NULL;
}

void
cs_findings_point_losses (const CsPointClock *clock, CsCaptureSet *set, GPtrArray *calls,
                          GPtrArray *findings)
{
  guint before = findings->len;

  for (guint i = 0; clock != NULL && i < clock->losses->len; i++)
    {
      const CsPointLoss *loss = &g_array_index (clock->losses, CsPointLoss, i);
      CsSipMessage *msg = NULL;
      CsCall *call = cs_findings_call_of_frame (calls, loss->frame, &msg);
      char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN], what[48];
      const char *from = cs_capture_get_path (cs_capture_set_get_file (set, loss->from));
      const char *to = cs_capture_get_path (cs_capture_set_get_file (set, loss->to));

      if (loss->frame == 0)
        continue;
      if (msg == NULL)
        g_strlcpy (what, "SIP message", sizeof what);
      else if (cs_sip_message_is_request (msg))
        g_snprintf (what, sizeof what, "%s", cs_sip_message_get_method_name (msg));
      else
        g_snprintf (what, sizeof what, "%u %s", cs_sip_message_get_status_code (msg),
                    cs_sip_message_get_reason (msg) != NULL ? cs_sip_message_get_reason (msg) : "");
      g_strchomp (what);
      cs_findings_add_two (findings, CS_FINDING_LOST_BETWEEN_POINTS, CS_SEVERITY_WARNING,
                           call != NULL ? cs_call_get_number (call) : 0, 0, loss->frame, 0,
                           "%s %s → %s left capture point %u (%s) and never reached point %u "
                           "(%s): lost on the hop between them",
                           what, cs_endpoint_to_string (&loss->src, src),
                           cs_endpoint_to_string (&loss->dst, dst), loss->from + 1, from,
                           loss->to + 1, to);
    }
  if (findings->len > before)
    g_ptr_array_sort (findings, cs_findings_compare_first_frame);
}

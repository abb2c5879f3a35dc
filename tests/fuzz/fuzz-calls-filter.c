/* fuzz-calls-filter.c — the calls filter language: parse any text, and match
 * what parses against a few real calls */
#include "fuzz-common.h"

#include "calls/cs-call-tracker.h"
#include "cs-calls-filter.h"

#include <string.h>

static const char *const messages[] = {
  "INVITE sip:bob@h SIP/2.0\r\nVia: SIP/2.0/UDP a;branch=z9hG4bK1\r\nFrom: <sip:alice@a>;tag=1\r\n"
  "To: <sip:bob@h>\r\nCall-ID: c1\r\nCSeq: 1 INVITE\r\nUser-Agent: fuzz\r\nContent-Length: "
  "0\r\n\r\n",
  "SIP/2.0 180 Ringing\r\nVia: SIP/2.0/UDP a;branch=z9hG4bK1\r\nFrom: <sip:alice@a>;tag=1\r\n"
  "To: <sip:bob@h>;tag=2\r\nCall-ID: c1\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
  "SIP/2.0 486 Busy Here\r\nVia: SIP/2.0/UDP a;branch=z9hG4bK1\r\nFrom: <sip:alice@a>;tag=1\r\n"
  "To: <sip:bob@h>;tag=2\r\nCall-ID: c1\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
  "REGISTER sip:h SIP/2.0\r\nVia: SIP/2.0/UDP a;branch=z9hG4bK9\r\nFrom: <sip:carol@h>;tag=7\r\n"
  "To: <sip:carol@h>\r\nCall-ID: r1\r\nCSeq: 1 REGISTER\r\nContent-Length: 0\r\n\r\n",
};

static const GPtrArray *
sample_calls (void)
{
  static CsCallTracker *tracker;

  if (tracker == NULL)
    {
      tracker = cs_call_tracker_new ();
      for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
        {
          CsSipMessage *msg
              = cs_sip_message_parse ((const guint8 *) messages[i], strlen (messages[i]), NULL);

          cs_sip_message_set_ts_ns (msg, (gint64) (i + 1) * 100000000);
          cs_sip_message_set_frame (msg, i + 1);
          cs_call_tracker_add (tracker, msg);
          cs_sip_message_unref (msg);
        }
      g_ptr_array_unref (cs_call_tracker_finish (tracker, 10 * G_GINT64_CONSTANT (1000000000)));
    }
  return cs_call_tracker_get_calls (tracker);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  guint start = 0, end = 0;
  GError *error = NULL;
  CsCallsFilter *filter;
  const GPtrArray *calls;

  cs_fuzz_init_once ();
  calls = sample_calls ();
  filter = cs_calls_filter_new (text, &start, &end, &error);
  if (filter == NULL)
    {
      g_assert (error != NULL);
      g_assert (start <= end && end <= strlen (text));
      g_error_free (error);
      return 0;
    }
  for (guint i = 0; i < calls->len; i++)
    cs_calls_filter_match (filter, g_ptr_array_index (calls, i), NULL);
  cs_calls_filter_is_empty (filter);
  cs_calls_filter_free (filter);
  return 0;
}

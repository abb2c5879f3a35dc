/* cs-findings-srtp.c — SRTP streams that cannot be heard: no key, a key that fails
 * authentication, a key used past its lifetime */
#include "cs-findings-private.h"

#include "calls/cs-stream-srtp.h"

/* "a, b, c" of the first failing frames */
static char *
frame_list (const CsStreamSrtp *srtp)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < srtp->n_failed_frames; i++)
    g_string_append_printf (s, "%s%u", i > 0 ? ", " : "", srtp->failed_frames[i]);
  return g_string_free (s, FALSE);
}

static void
stream_name (CsStream *stream, char *out, gsize size)
{
  char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];

  cs_endpoint_to_string (cs_stream_get_src (stream), src);
  cs_endpoint_to_string (cs_stream_get_dst (stream), dst);
  g_snprintf (out, size, "Stream %u (%s → %s, SSRC 0x%08x)", cs_stream_get_id (stream), src, dst,
              cs_stream_get_ssrc (stream));
}

void
cs_findings_stream_srtp (CsStream *stream, const CsFindingThresholds *t, GPtrArray *out)
{
  const CsStreamSrtp *srtp = cs_stream_get_srtp (stream);
  const CsRtpStats *st = cs_stream_get_stats (stream);
  guint call = cs_stream_get_call_number (stream), id = cs_stream_get_id (stream);
  char name[2 * CS_ENDPOINT_STRLEN + 64];
  g_autofree char *frames_text = NULL;
  g_autoptr (GArray) frames = NULL;

  (void) t;
  if (srtp == NULL || srtp->protection == CS_STREAM_CLEAR)
    return;
  stream_name (stream, name, sizeof name);
  if (srtp->protection == CS_STREAM_ENCRYPTED)
    {
      cs_findings_add_two (out, CS_FINDING_SRTP_NO_KEY, CS_SEVERITY_WARNING, call, id,
                           st->first_frame, 0,
                           "%s is SRTP without a key: packets, loss and jitter are measured "
                           "from the headers, its audio is encrypted — key needed (an SDP "
                           "a=crypto line, decrypted SIP over TLS, or --srtp-key %u=inline:KEY)",
                           name, id);
      return;
    }
  frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (frames, srtp->failed_frames, srtp->n_failed_frames);
  frames_text = frame_list (srtp);
  if (srtp->protection == CS_STREAM_KEY_FAILED)
    {
      char source[48];

      if (srtp->user_key)
        g_strlcpy (source, "the key given", sizeof source);
      else
        g_snprintf (source, sizeof source, "the SDP key of frame %u", srtp->key_frame);
      cs_findings_add (out, CS_FINDING_SRTP_AUTH_FAILED, CS_SEVERITY_ERROR, call, id, frames,
                       "%s: %s (%s) fails SRTP authentication on every packet (first frames "
                       "%s; %u key%s tried): wrong key, nothing is decoded from it",
                       name, source, cs_srtp_suite_to_string (srtp->suite), frames_text,
                       srtp->n_keys_tried, srtp->n_keys_tried == 1 ? "" : "s");
      return;
    }
  if (srtp->failed > 0)
    cs_findings_add (out, CS_FINDING_SRTP_AUTH_FAILED, CS_SEVERITY_WARNING, call, id, frames,
                     "%s: %u of %u packets fail SRTP authentication (%s; first frames %s): "
                     "they are left out of audio and DTMF",
                     name, srtp->failed, srtp->failed + srtp->decrypted,
                     cs_srtp_suite_to_string (srtp->suite), frames_text);
  if (srtp->expired > 0)
    cs_findings_add_two (
        out, CS_FINDING_SRTP_KEY_LIFETIME, CS_SEVERITY_WARNING, call, id, srtp->expired_frame, 0,
        "%s: %u packets were sent past the master key's lifetime of %" G_GUINT64_FORMAT
        " packets, from frame %u (the sender did not rekey)",
        name, srtp->expired, srtp->key.keys[0].lifetime, srtp->expired_frame);
}

/* cs-dtmf.c — RFC 4733 event folding and SIP INFO DTMF bodies */
#include "cs-dtmf.h"

#include "base/cs-cursor.h"

#include <string.h>

/* How many recent digits a late redundant packet may still merge into. */
#define MERGE_LOOKBACK 4

gboolean
cs_dtmf_parse_event (const guint8 *payload, gsize len, CsDtmfEvent *out)
{
  CsCursor c;
  guint8 flags;

  cs_cursor_init (&c, payload, len);
  if (!cs_cursor_u8 (&c, &out->event) || !cs_cursor_u8 (&c, &flags)
      || !cs_cursor_u16be (&c, &out->duration))
    return FALSE;
  out->end = (flags & 0x80) != 0;
  out->volume = flags & 0x3f;
  return TRUE;
}

char
cs_dtmf_event_char (guint event)
{
  static const char chars[] = "0123456789*#ABCD!";

  return event < sizeof chars - 1 ? chars[event] : '?';
}

void
cs_dtmf_tracker_init (CsDtmfTracker *tracker, guint clock_rate)
{
  tracker->clock_rate = clock_rate != 0 ? clock_rate : 8000;
}

void
cs_dtmf_tracker_feed (CsDtmfTracker *tracker, const CsRtpPacket *packet, const guint8 *payload,
                      gsize payload_len, GArray *digits)
{
  CsDtmfEvent ev;
  CsDtmfDigit *digit = NULL;
  double duration_ms;

  if (!cs_dtmf_parse_event (payload, payload_len, &ev))
    return;
  for (guint back = 1; back <= MIN (digits->len, MERGE_LOOKBACK); back++)
    {
      CsDtmfDigit *d = &g_array_index (digits, CsDtmfDigit, digits->len - back);

      if (d->rtp_timestamp == packet->timestamp && d->event == ev.event)
        {
          digit = d;
          break;
        }
    }
  if (digit == NULL)
    {
      CsDtmfDigit fresh = { 0 };

      fresh.digit = cs_dtmf_event_char (ev.event);
      fresh.event = ev.event;
      fresh.volume = ev.volume;
      fresh.rtp_timestamp = packet->timestamp;
      fresh.start_ns = fresh.end_ns = packet->arrival_ns;
      fresh.first_frame = fresh.last_frame = packet->frame;
      g_array_append_val (digits, fresh);
      digit = &g_array_index (digits, CsDtmfDigit, digits->len - 1);
    }
  digit->packets++;
  digit->ended |= ev.end;
  if (packet->arrival_ns > digit->end_ns)
    {
      digit->end_ns = packet->arrival_ns;
      digit->last_frame = packet->frame;
    }
  duration_ms = ev.duration * 1000.0 / tracker->clock_rate;
  digit->duration_ms = MAX (digit->duration_ms, duration_ms);
}

GArray *
cs_dtmf_fold (const CsRtpPacket *packets, const guint8 *const *payloads, const gsize *payload_lens,
              gsize n, guint event_pt, guint clock_rate)
{
  GArray *digits = g_array_new (FALSE, TRUE, sizeof (CsDtmfDigit));
  CsDtmfTracker tracker;

  cs_dtmf_tracker_init (&tracker, clock_rate);
  for (gsize i = 0; i < n; i++)
    if (packets[i].payload_type == event_pt && payloads[i] != NULL)
      cs_dtmf_tracker_feed (&tracker, &packets[i], payloads[i], payload_lens[i], digits);
  return digits;
}

/* A digit given as a character or as an event number ("10" = '*'). */
static gboolean
parse_signal (const char *value, char *digit)
{
  gsize len = strlen (value);
  char *end;
  guint64 code;

  if (len == 1 && strchr ("0123456789*#ABCDabcd", value[0]) != NULL)
    {
      *digit = g_ascii_toupper (value[0]);
      return TRUE;
    }
  code = g_ascii_strtoull (value, &end, 10);
  if (len > 0 && *end == '\0' && code <= 16)
    {
      *digit = cs_dtmf_event_char ((guint) code);
      return TRUE;
    }
  return FALSE;
}

static gboolean
content_type_is (const char *content_type, const char *wanted)
{
  gsize n = strlen (wanted);

  while (*content_type == ' ' || *content_type == '\t')
    content_type++;
  if (g_ascii_strncasecmp (content_type, wanted, n) != 0)
    return FALSE;
  content_type += n;
  while (*content_type == ' ' || *content_type == '\t')
    content_type++;
  return *content_type == '\0' || *content_type == ';';
}

gboolean
cs_dtmf_parse_sip_info (const char *content_type, const guint8 *body, gsize len, char *digit,
                        guint *duration_ms)
{
  g_autofree char *text = NULL;
  gboolean found = FALSE;

  *duration_ms = 0;
  if (content_type == NULL || body == NULL || len == 0 || len > 4096)
    return FALSE;
  text = g_strndup ((const char *) body, len);

  if (content_type_is (content_type, "application/dtmf"))
    return parse_signal (g_strstrip (text), digit);
  if (!content_type_is (content_type, "application/dtmf-relay"))
    return FALSE;

  for (char *line = text, *next; line != NULL; line = next)
    {
      char *eq;

      next = strpbrk (line, "\r\n");
      if (next != NULL)
        *next++ = '\0';
      eq = strchr (line, '=');
      if (eq == NULL)
        continue;
      *eq = '\0';
      g_strstrip (line);
      g_strstrip (eq + 1);
      if (g_ascii_strcasecmp (line, "Signal") == 0)
        found = parse_signal (eq + 1, digit);
      else if (g_ascii_strcasecmp (line, "Duration") == 0)
        *duration_ms = (guint) MIN (g_ascii_strtoull (eq + 1, NULL, 10), G_MAXUINT);
    }
  return found;
}

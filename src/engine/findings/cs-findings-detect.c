/* cs-findings-detect.c — signalling findings per call, and the whole-capture pass */
#include "cs-findings-detect.h"

#include "cs-findings-private.h"

#include "base/cs-fixed-format.h"
#include "base/cs-parallel.h"
#include "base/cs-prefetch.h"
#include "sip/cs-sdp.h"

#include <math.h>
#include <string.h>

void
cs_finding_thresholds_init (CsFindingThresholds *t)
{
  t->slow_pdd_ms = 5000;
  t->high_jitter_ms = 30;
  t->delta_spike_ms = 150;
  t->short_call_s = 2;
  t->late_media_ms = 2000;
  t->rtp_after_bye_ms = 1000;
  t->one_way_min_packets = 5;
  t->ptime_tolerance = 0.3;
  t->max_frames = 64;
}

/* g_strdup_vprintf for the conversions finding texts use most (%s %u %d %% and %.Nf), with
 * the same bytes as glibc, into text (CS_FINDINGS_TEXT_MAX bytes, not NUL-terminated);
 * returns the length, or -1 for any other conversion or a long text (args are then spent). */
#define CS_FINDINGS_TEXT_MAX 256

static gssize
cs_findings_format_simple (char *text, const char *format, va_list args)
{
  char digits[64];
  gsize n = 0;

  for (const char *p = format; *p != '\0'; p++)
    {
      const char *piece, *conversion = strchrnul (p, '%');
      gsize len = (gsize) (conversion - p);

      /* the literal text up to the next conversion */
      if (len > CS_FINDINGS_TEXT_MAX - n)
        return -1;
      memcpy (text + n, p, len);
      n += len;
      p = conversion;
      if (*p == '\0')
        break;
      switch (*++p)
        {
        case '%':
          piece = "%";
          break;
        case 's':
          piece = va_arg (args, const char *);
          if (piece == NULL)
            piece = "(null)";
          break;
        case 'u':
          piece = cs_decimal_digits_before (digits + sizeof digits - 1, va_arg (args, unsigned int),
                                            1);
          digits[sizeof digits - 1] = '\0';
          break;
        case 'd':
          {
            int value = va_arg (args, int);
            guint64 magnitude = value < 0 ? -(gint64) value : value;
            char *start = cs_decimal_digits_before (digits + sizeof digits - 1, magnitude, 1);

            digits[sizeof digits - 1] = '\0';
            if (value < 0)
              *--start = '-';
            piece = start;
          }
          break;
        case '.':
          {
            double value;

            if (!g_ascii_isdigit (p[1]) || p[2] != 'f')
              return -1;
            p += 2;
            value = va_arg (args, double);
            /* huge values and NaN: printf's own text, never cut to the buffer */
            if (!(fabs (value) < 1e15))
              return -1;
            cs_fixed_format (digits, value, p[-1] - '0');
            piece = digits;
          }
          break;
        default:
          return -1;
        }
      len = strlen (piece);
      if (len > CS_FINDINGS_TEXT_MAX - n)
        return -1;
      memcpy (text + n, piece, len);
      n += len;
    }
  return (gssize) n;
}

/* While a detection pass runs on this thread: per format, the last text it gave (a
 * GRefString), which the next findings that come out the same share instead of a copy each
 * ("Call lasted only 1.04 s …" for a block's calls, one loss text for streams losing alike). */
#define CS_FINDINGS_SHARED_FORMATS 4

typedef struct
{
  const char *format;
  char *text; /* GRefString */
} CsFindingsSharedText;

static _Thread_local gboolean cs_findings_sharing;
static _Thread_local CsFindingsSharedText cs_findings_shared[CS_FINDINGS_SHARED_FORMATS];
static _Thread_local guint cs_findings_shared_next; /* the entry a new format replaces */

static void
cs_findings_begin_sharing (void)
{
  cs_findings_sharing = TRUE;
}

static void
cs_findings_end_sharing (void)
{
  cs_findings_sharing = FALSE;
  for (guint i = 0; i < CS_FINDINGS_SHARED_FORMATS; i++)
    {
      g_clear_pointer (&cs_findings_shared[i].text, g_ref_string_release);
      cs_findings_shared[i].format = NULL;
    }
}

/* A reference to a GRefString holding text[0..len), made from format. */
static char *
cs_findings_shared_text (const char *format, const char *text, gsize len)
{
  CsFindingsSharedText *entry = NULL;

  for (guint i = 0; i < CS_FINDINGS_SHARED_FORMATS && entry == NULL; i++)
    if (cs_findings_shared[i].format == format)
      entry = &cs_findings_shared[i];
  if (entry == NULL)
    {
      entry = &cs_findings_shared[cs_findings_shared_next];
      cs_findings_shared_next = (cs_findings_shared_next + 1) % CS_FINDINGS_SHARED_FORMATS;
      entry->format = format;
    }
  else if (g_ref_string_length (entry->text) == len && memcmp (entry->text, text, len) == 0)
    return g_ref_string_acquire (entry->text);
  if (entry->text != NULL)
    g_ref_string_release (entry->text);
  entry->text = g_ref_string_new_len (text, (gssize) len);
  return g_ref_string_acquire (entry->text);
}

typedef enum
{
  CS_FINDINGS_TEXT_STATIC, /* the format itself: a literal */
  CS_FINDINGS_TEXT_OWNED,  /* g_free */
  CS_FINDINGS_TEXT_SHARED, /* a GRefString reference */
} CsFindingsTextKind;

/* A finding's text: a format without conversions is used as it is (a literal, which lives
 * as long as the program: most findings of a kind then share one text). */
static char *
cs_findings_format (const char *format, va_list args, CsFindingsTextKind *kind)
{
  char text[CS_FINDINGS_TEXT_MAX];
  va_list again;
  gssize len;
  char *out;

  if (strchr (format, '%') == NULL)
    {
      *kind = CS_FINDINGS_TEXT_STATIC;
      return (char *) format;
    }
  va_copy (again, args);
  len = cs_findings_format_simple (text, format, args);
  if (len >= 0 && cs_findings_sharing)
    {
      *kind = CS_FINDINGS_TEXT_SHARED;
      out = cs_findings_shared_text (format, text, (gsize) len);
    }
  else
    {
      *kind = CS_FINDINGS_TEXT_OWNED;
      out = len >= 0 ? g_strndup (text, (gsize) len) : g_strdup_vprintf (format, again);
    }
  va_end (again);
  return out;
}

static CsFinding *
cs_findings_new (CsFindingKind kind, CsSeverity severity, guint call, guint stream,
                 const guint32 *frames, guint n_frames, char *text, CsFindingsTextKind text_kind)
{
  if (text_kind == CS_FINDINGS_TEXT_SHARED)
    return cs_finding_new_ref_text (kind, severity, call, stream, frames, n_frames, text);
  return cs_finding_new_take (kind, severity, call, stream, frames, n_frames, text,
                              text_kind == CS_FINDINGS_TEXT_STATIC);
}

void
cs_findings_add (GPtrArray *out, CsFindingKind kind, CsSeverity severity, guint call, guint stream,
                 GArray *frames, const char *format, ...)
{
  va_list args;
  CsFindingsTextKind text_kind;
  char *text;

  va_start (args, format);
  text = cs_findings_format (format, args, &text_kind);
  va_end (args);
  if (frames != NULL && frames->len > 1)
    g_array_sort (frames, cs_frames_compare);
  g_ptr_array_add (out, cs_findings_new (kind, severity, call, stream,
                                         frames != NULL ? (const guint32 *) frames->data : NULL,
                                         frames != NULL ? frames->len : 0, text, text_kind));
}

void
cs_findings_add_two (GPtrArray *out, CsFindingKind kind, CsSeverity severity, guint call,
                     guint stream, guint32 first, guint32 second, const char *format, ...)
{
  va_list args;
  CsFindingsTextKind text_kind;
  char *text;
  guint32 frames[2];
  guint n = 0;

  if (first != 0)
    frames[n++] = first;
  if (second != 0 && second != first)
    frames[n++] = second;
  if (n == 2 && frames[1] < frames[0])
    {
      frames[0] = second;
      frames[1] = first;
    }
  va_start (args, format);
  text = cs_findings_format (format, args, &text_kind);
  va_end (args);
  g_ptr_array_add (out, cs_findings_new (kind, severity, call, stream, frames, n, text, text_kind));
}

int
cs_frames_compare (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

gint
cs_findings_compare_first_frame (gconstpointer a, gconstpointer b)
{
  CsFinding *x = *(CsFinding *const *) a, *y = *(CsFinding *const *) b;
  const GArray *fx = cs_finding_get_frames (x), *fy = cs_finding_get_frames (y);
  guint32 ax = fx->len > 0 ? g_array_index (fx, guint32, 0) : 0;
  guint32 ay = fy->len > 0 ? g_array_index (fy, guint32, 0) : 0;

  return ax < ay ? -1 : ax > ay;
}

GArray *
cs_frames_new (guint32 first, guint32 second)
{
  guint32 both[2];
  guint n = 0;

  if (first != 0)
    both[n++] = first;
  if (second != 0 && second != first)
    both[n++] = second;
  return g_array_append_vals (g_array_sized_new (FALSE, FALSE, sizeof (guint32), 2), both, n);
}

/* Frames of the messages matching a predicate, at most max. */
static GArray *
cs_call_frames_where (CsCall *call, gboolean (*match) (CsCall *, guint, gpointer), gpointer data,
                      guint max)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < cs_call_get_n_messages (call) && frames->len < max; i++)
    if (match (call, i, data))
      {
        guint32 frame = cs_sip_message_get_frame (cs_call_get_message (call, i));
        g_array_append_val (frames, frame);
      }
  return frames;
}

static gboolean
cs_is_request (CsCall *call, guint i, gpointer method)
{
  CsSipMessage *msg = cs_call_get_message (call, i);

  return cs_sip_message_is_request (msg)
         && cs_sip_message_get_method (msg) == (CsSipMethod) GPOINTER_TO_INT (method);
}

static gboolean
cs_is_final_invite_response (CsCall *call, guint i, gpointer code)
{
  CsSipMessage *msg = cs_call_get_message (call, i);

  return !cs_sip_message_is_request (msg)
         && cs_sip_message_get_cseq_method (msg) == CS_SIP_METHOD_INVITE
         && cs_sip_message_get_status_code (msg) == GPOINTER_TO_UINT (code);
}

static gboolean
cs_is_retransmission (CsCall *call, guint i, gpointer unused)
{
  return cs_call_message_is_retransmission (call, i);
}

static gboolean
cs_is_first_provisional (CsCall *call, guint i, gpointer unused)
{
  CsSipMessage *msg = cs_call_get_message (call, i);

  return !cs_sip_message_is_request (msg)
         && (cs_sip_message_get_status_code (msg) == 180
             || cs_sip_message_get_status_code (msg) == 183);
}

static void
cs_findings_call_outcome (CsCall *call, const CsFindingThresholds *t, GPtrArray *out)
{
  guint number = cs_call_get_number (call);
  guint code = cs_call_get_final_status (call);
  const char *reason = cs_call_get_final_reason (call);
  const char *what = cs_call_get_method_name (call);

  if (cs_call_get_state (call) == CS_CALL_STATE_REJECTED)
    {
      GArray *frames;
      CsSeverity severity = code >= 500 && code != 603 ? CS_SEVERITY_ERROR : CS_SEVERITY_WARNING;

      if (cs_call_get_method (call) != CS_SIP_METHOD_INVITE)
        {
          /* Out-of-dialog answers are listed, but a 401 challenge alone is routine. */
          cs_findings_add_two (
              out, CS_FINDING_FAILED_CALL, CS_SEVERITY_INFO, number, 0,
              cs_call_get_last_frame (call), 0, "%s from %s to %s was rejected: %u %s", what,
              cs_call_get_from (call), cs_call_get_to (call), code, reason != NULL ? reason : "");
          return;
        }
      frames = cs_call_frames_where (call, cs_is_final_invite_response, GUINT_TO_POINTER (code),
                                     t->max_frames);
      cs_findings_add (out, CS_FINDING_FAILED_CALL, severity, number, 0, frames,
                       "%s from %s to %s was rejected: %u %s", what, cs_call_get_from (call),
                       cs_call_get_to (call), code, reason != NULL ? reason : "");
      g_array_unref (frames);
    }
  else if (cs_call_get_state (call) == CS_CALL_STATE_FAILED)
    {
      GArray *frames = cs_call_frames_where (
          call, cs_is_request, GINT_TO_POINTER (cs_call_get_method (call)), t->max_frames);

      char sent[32];

      if (frames->len == 1)
        g_strlcpy (sent, "once", sizeof sent);
      else
        g_snprintf (sent, sizeof sent, "%u times", frames->len);
      cs_findings_add (
          out,
          cs_call_get_method (call) == CS_SIP_METHOD_INVITE ? CS_FINDING_UNANSWERED
                                                            : CS_FINDING_UNANSWERED_REQUEST,
          CS_SEVERITY_ERROR, number, 0, frames, "%s from %s to %s got no final response (sent %s)",
          what, cs_call_get_from (call), cs_call_get_to (call), sent);
      g_array_unref (frames);
    }
}

static void
cs_findings_call_timing (CsCall *call, const CsFindingThresholds *t, GPtrArray *out)
{
  guint number = cs_call_get_number (call);
  double pdd = cs_call_get_pdd_ms (call);
  double setup = cs_call_get_setup_ms (call);
  double duration = cs_call_get_duration_s (call);
  double wait = pdd >= 0 ? pdd : setup;

  if (wait > t->slow_pdd_ms)
    {
      GArray *provisional = cs_call_frames_where (call, cs_is_first_provisional, NULL, 1);
      GArray *frames
          = cs_frames_new (cs_call_get_first_frame (call),
                           provisional->len > 0 ? g_array_index (provisional, guint32, 0) : 0);

      cs_findings_add (out, CS_FINDING_SLOW_PDD, CS_SEVERITY_WARNING, number, 0, frames,
                       "Post-dial delay of %.1f s before the callee %s", wait / 1000,
                       pdd >= 0 ? "rang" : "answered");
      g_array_unref (provisional);
      g_array_unref (frames);
    }
  if (duration >= 0 && duration < t->short_call_s)
    {
      cs_findings_add_two (out, CS_FINDING_SHORT_CALL, CS_SEVERITY_INFO, number, 0,
                           cs_call_get_first_frame (call), cs_call_get_last_frame (call),
                           "Call lasted only %.2f s after it was answered", duration);
    }
}

static void
cs_findings_call_transactions (CsCall *call, const CsFindingThresholds *t, GPtrArray *out)
{
  guint number = cs_call_get_number (call);

  if (cs_call_get_retransmissions (call) > 0)
    {
      GArray *frames = cs_call_frames_where (call, cs_is_retransmission, NULL, t->max_frames);

      cs_findings_add (
          out, CS_FINDING_RETRANSMISSIONS,
          cs_call_get_retransmissions (call) >= 3 ? CS_SEVERITY_WARNING : CS_SEVERITY_INFO, number,
          0, frames, "%u SIP message%s retransmitted", cs_call_get_retransmissions (call),
          cs_call_get_retransmissions (call) == 1 ? " was" : "s were");
      g_array_unref (frames);
    }
  if (cs_call_get_method (call) == CS_SIP_METHOD_INVITE && cs_call_get_setup_ms (call) >= 0)
    {
      if (!cs_call_has_ack (call))
        {
          GArray *frames = cs_call_frames_where (call, cs_is_final_invite_response,
                                                 GUINT_TO_POINTER (cs_call_get_final_status (call)),
                                                 t->max_frames);

          cs_findings_add (out, CS_FINDING_MISSING_ACK, CS_SEVERITY_WARNING, number, 0, frames,
                           "The %u answer was never acknowledged (no ACK)",
                           cs_call_get_final_status (call));
          g_array_unref (frames);
        }
    }
  for (guint i = 0; cs_call_get_n_malformed (call) > 0 && i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);

      if (cs_sip_message_get_malformed (msg) != NULL)
        {
          g_autofree char *label = cs_sip_message_dup_label (msg);

          cs_findings_add_two (out, CS_FINDING_MALFORMED_SIP, CS_SEVERITY_WARNING, number, 0,
                               cs_sip_message_get_frame (msg), 0, "Malformed SIP %s: %s", label,
                               cs_sip_message_get_malformed (msg));
        }
    }
}

void
cs_findings_detect_call (CsCall *call, GPtrArray *call_streams, const CsFindingThresholds *t,
                         GPtrArray *out)
{
  cs_findings_call_outcome (call, t, out);
  cs_findings_call_timing (call, t, out);
  cs_findings_call_transactions (call, t, out);
  if (cs_call_get_method (call) == CS_SIP_METHOD_INVITE)
    cs_findings_call_media (call, call_streams, t, out);
}

/* A cap (CsLimits) was reached: say what was dropped and how to raise the cap. */
static void
cs_findings_detect_limits (const CsCaptureStats *stats, GPtrArray *out)
{
  const CsLimits *l = &stats->limits;

  if (stats->call_limit_messages > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "Call limit of %u reached: %" G_GUINT64_FORMAT
                     " SIP messages of further calls were not analysed "
                     "(raise it with " CS_LIMITS_ENV "=calls=N)",
                     l->max_calls, stats->call_limit_messages);
  if (stats->call_messages_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " SIP messages beyond %u per call were not kept "
                     "(they still updated call states; " CS_LIMITS_ENV "=messages_per_call=N)",
                     stats->call_messages_dropped, l->max_messages_per_call);
  if (stats->rtp_packets_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "RTP stream limit of %u reached: %" G_GUINT64_FORMAT
                     " packets were not analysed, %" G_GUINT64_FORMAT
                     " single-packet flows evicted (" CS_LIMITS_ENV "=streams=N)",
                     l->max_streams, stats->rtp_packets_dropped, stats->rtp_flows_evicted);
  if (stats->rtcp_packets_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " RTCP packets were not attached to their streams "
                     "(over the limit of %u kept)",
                     stats->rtcp_packets_dropped, 1u << 20);
  if (stats->orphan_messages_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_INFO, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " more SIP messages outside any call were not listed "
                     "(limit %u)",
                     stats->orphan_messages_dropped, l->max_orphan_messages);
}

void
cs_findings_detect_capture (const CsCaptureStats *stats, const GError *damage,
                            GPtrArray *orphan_messages, GPtrArray *out)
{
  if (damage != NULL)
    cs_findings_add (out, CS_FINDING_DAMAGED_CAPTURE, CS_SEVERITY_ERROR, 0, 0, NULL, "%s",
                     damage->message);
  if (stats->ip_fragments_evicted > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " incomplete IP datagrams were dropped "
                     "(fragment reassembly limit reached)",
                     stats->ip_fragments_evicted);
  if (stats->tcp_streams_evicted > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " TCP streams were dropped (reassembly limit reached)",
                     stats->tcp_streams_evicted);
  if (stats->esp_encrypted_packets > 0)
    cs_findings_add (out, CS_FINDING_ENCRYPTED_TRAFFIC, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " IPsec ESP packet%s encrypted: what %s carry "
                     "(SIP, RTP) cannot be read",
                     stats->esp_encrypted_packets,
                     stats->esp_encrypted_packets == 1 ? " is" : "s are",
                     stats->esp_encrypted_packets == 1 ? "it may" : "they may");
  cs_findings_detect_limits (stats, out);
  for (guint i = 0; orphan_messages != NULL && i < orphan_messages->len; i++)
    {
      CsSipMessage *msg = g_ptr_array_index (orphan_messages, i);
      g_autofree char *label = cs_sip_message_dup_label (msg);

      cs_findings_add_two (out, CS_FINDING_MALFORMED_SIP, CS_SEVERITY_WARNING, 0, 0,
                           cs_sip_message_get_frame (msg), 0, "Malformed SIP %s: %s", label,
                           cs_sip_message_get_malformed (msg) != NULL
                               ? cs_sip_message_get_malformed (msg)
                               : "belongs to no call");
    }
}

/* Findings are sorted by first frame, then kind, keeping the order they were found in
 * among equal keys (what the stable sort on both did): stable radix passes, least
 * significant digit first — the kind, then the frame's four bytes. */
typedef struct
{
  guint32 first_frame;
  guint kind;
  CsFinding *finding;
} CsFindingSortKey;

G_STATIC_ASSERT (CS_FINDING_DAMAGED_CAPTURE < 256); /* a kind is one radix digit */

static guint
cs_findings_sort_digit (const CsFindingSortKey *key, guint pass)
{
  return pass == 0 ? key->kind : (key->first_frame >> (8 * (pass - 1))) & 0xff;
}

static void
cs_findings_sort_keys (CsFindingSortKey *keys, guint n)
{
  CsFindingSortKey *from = keys, *to = g_new (CsFindingSortKey, MAX (n, 1)), *swap;

  for (guint pass = 0; pass < 5; pass++)
    {
      guint count[256] = { 0 }, start = 0;

      for (guint i = 0; i < n; i++)
        count[cs_findings_sort_digit (&from[i], pass)]++;
      if (n == 0 || count[cs_findings_sort_digit (&from[0], pass)] == n)
        continue; /* one digit for all: nothing moves */
      for (guint d = 0; d < 256; d++)
        {
          guint c = count[d];

          count[d] = start;
          start += c;
        }
      for (guint i = 0; i < n; i++)
        to[count[cs_findings_sort_digit (&from[i], pass)]++] = from[i];
      swap = from;
      from = to;
      to = swap;
    }
  if (from != keys)
    memcpy (keys, from, n * sizeof *keys);
  g_free (from != keys ? from : to);
}

/* Keys of findings [from, len) of the array, written at keys. */
static void
cs_findings_fill_keys (GPtrArray *findings, guint from, CsFindingSortKey *keys)
{
  for (guint i = from; i < findings->len; i++)
    {
      CsFinding *f = g_ptr_array_index (findings, i);
      const GArray *frames = cs_finding_get_frames (f);

      keys->first_frame = frames->len > 0 ? g_array_index (frames, guint32, 0) : 0;
      keys->kind = (guint) cs_finding_get_kind (f);
      keys->finding = f;
      keys++;
    }
}

static gboolean
cs_findings_keys_sorted (const CsFindingSortKey *keys, guint n)
{
  for (guint i = 1; i < n; i++)
    if (keys[i].first_frame < keys[i - 1].first_frame
        || (keys[i].first_frame == keys[i - 1].first_frame && keys[i].kind < keys[i - 1].kind))
      return FALSE;
  return TRUE;
}

/* Sorts the keys (calls' findings come mostly in order already: then nothing moves) and
 * returns their findings in that order, owned. */
static GPtrArray *
cs_findings_sorted (CsFindingSortKey *keys, guint n)
{
  GPtrArray *out = g_ptr_array_new_full (n, g_object_unref);

  if (!cs_findings_keys_sorted (keys, n))
    cs_findings_sort_keys (keys, n);
  g_ptr_array_set_size (out, n);
  for (guint i = 0; i < n; i++)
    out->pdata[i] = keys[i].finding;
  return out;
}

/* Work is handed out in blocks, each with its own output array: streams by a few (heavy,
 * but an array per stream cost more than most streams' findings), then calls by this
 * many (light). */
#define CS_FINDINGS_STREAM_BLOCK 8
#define CS_FINDINGS_CALL_BLOCK 64
/* calls fetched this many ahead of the one being judged */
#define CS_FINDINGS_CALLS_AHEAD 8

typedef struct
{
  GPtrArray *calls;
  GPtrArray *streams;
  GPtrArray **call_streams; /* per call: its CsStream*, NULL when none */
  GPtrArray *no_streams;    /* empty, shared by calls without streams */
  GPtrArray **found;        /* findings per block */
  /* their sort keys, made while the findings are fresh in this thread's cache */
  CsFindingSortKey **found_keys;
  guint n_stream_blocks;
  const CsFindingThresholds *t;
} CsFindingsJob;

static void
cs_findings_detect_block (guint block, gpointer data)
{
  CsFindingsJob *job = data;
  GPtrArray *out = g_ptr_array_new ();
  guint first, end;

  cs_findings_begin_sharing ();
  if (block < job->n_stream_blocks)
    {
      first = block * CS_FINDINGS_STREAM_BLOCK;
      end = MIN (job->streams->len, first + CS_FINDINGS_STREAM_BLOCK);
      for (guint s = first; s < end; s++)
        cs_findings_detect_stream (g_ptr_array_index (job->streams, s), job->t, out);
    }
  else
    {
      first = (block - job->n_stream_blocks) * CS_FINDINGS_CALL_BLOCK;
      end = MIN (job->calls->len, first + CS_FINDINGS_CALL_BLOCK);
      for (guint c = first; c < end; c++)
        {
          GPtrArray *streams = job->call_streams[c];

          /* the calls are cold by now (S: 100 000 of them); the next block's first calls
           * are fetched too, as blocks run in order on one thread */
          if (c + CS_FINDINGS_CALLS_AHEAD < job->calls->len)
            cs_call_prefetch (g_ptr_array_index (job->calls, c + CS_FINDINGS_CALLS_AHEAD), FALSE);

          cs_findings_detect_call (g_ptr_array_index (job->calls, c),
                                   streams != NULL ? streams : job->no_streams, job->t, out);
        }
    }
  cs_findings_end_sharing ();
  job->found[block] = out;
  job->found_keys[block] = g_new (CsFindingSortKey, MAX (out->len, 1));
  cs_findings_fill_keys (out, 0, job->found_keys[block]);
}

GPtrArray *
cs_findings_detect_all (GPtrArray *calls, GPtrArray *streams, const CsCaptureStats *stats,
                        const GError *damage, GPtrArray *orphan_messages,
                        const CsFindingThresholds *t, guint n_threads)
{
  GPtrArray *capture_findings = g_ptr_array_new (), *out;
  CsFindingSortKey *keys;
  guint n = 0;
  guint n_stream_blocks = (streams->len + CS_FINDINGS_STREAM_BLOCK - 1) / CS_FINDINGS_STREAM_BLOCK;
  guint n_blocks
      = n_stream_blocks + (calls->len + CS_FINDINGS_CALL_BLOCK - 1) / CS_FINDINGS_CALL_BLOCK;
  CsFindingsJob job = { calls,
                        streams,
                        g_new0 (GPtrArray *, MAX (calls->len, 1)),
                        NULL,
                        g_new0 (GPtrArray *, MAX (n_blocks, 1)),
                        g_new0 (CsFindingSortKey *, MAX (n_blocks, 1)),
                        n_stream_blocks,
                        t };

  job.no_streams = g_ptr_array_new ();
  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *stream = g_ptr_array_index (streams, i);
      guint number = cs_stream_get_call_number (stream);

      if (number == 0 || number > calls->len)
        continue;
      if (job.call_streams[number - 1] == NULL)
        job.call_streams[number - 1] = g_ptr_array_new ();
      g_ptr_array_add (job.call_streams[number - 1], stream);
    }
  /* Streams and calls are independent: detect on all cores, then gather in
   * item order so the result does not depend on scheduling. */
  cs_parallel_for (n_blocks, n_threads, cs_findings_detect_block, &job);
  cs_findings_detect_capture (stats, damage, orphan_messages, capture_findings);
  for (guint b = 0; b < n_blocks; b++)
    n += job.found[b]->len;
  keys = g_new (CsFindingSortKey, MAX (n + capture_findings->len, 1));
  n = 0;
  for (guint b = 0; b < n_blocks; b++)
    {
      memcpy (keys + n, job.found_keys[b], job.found[b]->len * sizeof *keys);
      n += job.found[b]->len;
      g_free (job.found_keys[b]);
      g_ptr_array_unref (job.found[b]); /* no free func: the keys hold the references */
    }
  cs_findings_fill_keys (capture_findings, 0, keys + n);
  n += capture_findings->len;
  g_ptr_array_unref (capture_findings);
  g_free (job.found);
  g_free (job.found_keys);
  for (guint i = 0; i < calls->len; i++)
    if (job.call_streams[i] != NULL)
      g_ptr_array_unref (job.call_streams[i]);
  g_free (job.call_streams);
  g_ptr_array_unref (job.no_streams);
  out = cs_findings_sorted (keys, n);
  g_free (keys);
  return out;
}

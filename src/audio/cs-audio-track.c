/* cs-audio-track.c — playout of one stream. Packets are placed where the
 * emulated jitter buffer plays them: talkspurt anchor (arrival) + timestamp
 * offset + buffer delay, re-anchored where the buffer re-anchors. */
#include "cs-audio-track.h"
#include "callscope-engine.h"

#include <math.h>
#include <string.h>

#include "cs-audio-decoder.h"
#include "cs-audio-error.h"
#include "cs-audio-resample.h"

#define NS_PER_S 1000000000.0
/* The jitter buffer's re-anchoring thresholds (cs-jitter-buffer.c). */
#define TIMESTAMP_JUMP_NS 1000000000LL
/* Comfort noise lasts until the next packet, but no longer than this. */
#define MAX_COMFORT_NOISE_NS (30 * 1000000000LL)

typedef struct
{
  guint32 ext_seq;
  guint32 frame;
  gint64 start_ns, end_ns;
} SeqSpan;

typedef struct
{
  CsCaptureSet *set;
  CsStream *stream;
  CsStreamPayloadReader *reader; /* decrypts SRTP, in capture order */
  const CsAudioFormatMap *formats;
  const CsAudioPlayoutOptions *opts;
  CsAudioTrack *track;
  CsAudioDecoder *decoders[128];
  gboolean decoder_failed[128];
  guint8 main_pt;
  guint main_clock;
  gint64 delay_ns;
  gint64 ptime_ns;
  GArray *spans; /* SeqSpan */
  GArray *scratch;
  gboolean cn_pending;
  gint64 cn_start_ns;
  guint8 cn_level;
  guint32 noise_state;
} Playout;

const char *
cs_audio_mark_kind_to_string (CsAudioMarkKind kind)
{
  switch (kind)
    {
    case CS_AUDIO_MARK_LOST:
      return "lost";
    case CS_AUDIO_MARK_LATE:
      return "late";
    case CS_AUDIO_MARK_DTMF:
      return "dtmf";
    case CS_AUDIO_MARK_COMFORT_NOISE:
      return "comfort-noise";
    case CS_AUDIO_MARK_UNDECODABLE:
      return "undecodable";
    }
  return "unknown";
}

void
cs_audio_playout_options_init (CsAudioPlayoutOptions *opts)
{
  cs_jitter_buffer_config_init_default (&opts->jb);
  opts->comfort_noise = TRUE;
}

void
cs_audio_track_free (CsAudioTrack *track)
{
  if (track == NULL)
    return;
  g_free (track->codec);
  g_clear_pointer (&track->samples, g_array_unref);
  g_clear_pointer (&track->marks, g_array_unref);
  g_free (track);
}

static void
add_mark (Playout *po, CsAudioMarkKind kind, guint32 frame, gint64 start_ns, gint64 end_ns,
          guint32 packets)
{
  GArray *marks = po->track->marks;
  CsAudioMark mark = { 0 };

  /* Back-to-back marks of one kind become one, so a burst is one mark. */
  if (marks->len > 0 && kind != CS_AUDIO_MARK_DTMF)
    {
      CsAudioMark *last = &g_array_index (marks, CsAudioMark, marks->len - 1);

      if (last->kind == kind && start_ns <= last->end_ns + po->ptime_ns / 2
          && start_ns >= last->start_ns)
        {
          last->end_ns = MAX (last->end_ns, end_ns);
          last->packets += packets;
          return;
        }
    }
  mark.kind = kind;
  mark.stream_id = po->track->stream_id;
  mark.frame = frame;
  mark.packets = packets;
  mark.start_ns = start_ns;
  mark.end_ns = MAX (end_ns, start_ns);
  g_array_append_val (marks, mark);
}

/* Sample index at which capture time t plays. */
static gint64
sample_at (const CsAudioTrack *track, gint64 t_ns)
{
  return (gint64) floor ((double) (t_ns - track->start_ns) * track->sample_rate / NS_PER_S + 0.5);
}

static void
write_samples (CsAudioTrack *track, gint64 pos, const gint16 *src, gsize n)
{
  if (pos < 0)
    {
      if ((gint64) n <= -pos)
        return;
      src += -pos;
      n -= (gsize) -pos;
      pos = 0;
    }
  if (pos + (gint64) n > CS_AUDIO_TRACK_MAX_SAMPLES)
    {
      track->truncated = TRUE;
      if (pos >= CS_AUDIO_TRACK_MAX_SAMPLES)
        return;
      n = (gsize) (CS_AUDIO_TRACK_MAX_SAMPLES - pos);
    }
  if ((gsize) pos + n > track->samples->len)
    g_array_set_size (track->samples, (guint) ((gsize) pos + n));
  memcpy (&g_array_index (track->samples, gint16, pos), src, n * sizeof (gint16));
}

/* Renders a pending comfort-noise period up to until_ns. */
static void
flush_comfort_noise (Playout *po, gint64 until_ns)
{
  CsAudioTrack *track = po->track;
  gint64 start, end;
  double rms, amplitude;

  if (!po->cn_pending)
    return;
  po->cn_pending = FALSE;
  until_ns = MIN (until_ns, po->cn_start_ns + MAX_COMFORT_NOISE_NS);
  if (until_ns <= po->cn_start_ns)
    return;
  add_mark (po, CS_AUDIO_MARK_COMFORT_NOISE, 0, po->cn_start_ns, until_ns, 0);
  if (!po->opts->comfort_noise)
    return;
  start = MAX (sample_at (track, po->cn_start_ns), 0);
  end = MIN (sample_at (track, until_ns), (gint64) CS_AUDIO_TRACK_MAX_SAMPLES);
  if (end <= start)
    return;
  /* RFC 3389: the level byte is the noise power in −dBov; uniform noise of
   * amplitude A has an RMS of A/√3. */
  rms = 32767.0 * pow (10.0, -(double) (po->cn_level & 0x7f) / 20.0);
  amplitude = MIN (rms * sqrt (3.0), 32767.0);
  if ((gsize) end > track->samples->len)
    g_array_set_size (track->samples, (guint) end);
  for (gint64 i = start; i < end; i++)
    {
      po->noise_state = po->noise_state * 1664525u + 1013904223u;
      g_array_index (track->samples, gint16, i)
          = (gint16) lrint (amplitude * ((double) (po->noise_state >> 8) / (1 << 23) - 1.0));
    }
}

static CsAudioDecoder *
decoder_for (Playout *po, guint8 pt, GError **error)
{
  const char *encoding = po->formats != NULL ? po->formats->encoding[pt] : NULL;
  guint clock = po->formats != NULL ? po->formats->clock_rate[pt] : 0;
  guint channels = po->formats != NULL ? po->formats->channels[pt] : 1;
  const CsCodecInfo *info = cs_stream_get_codec_info (po->stream);

  if (po->decoders[pt] != NULL || po->decoder_failed[pt])
    return po->decoders[pt];
  if (encoding == NULL && pt == po->main_pt && info != NULL)
    {
      encoding = info->encoding;
      clock = info->clock_rate;
    }
  if (encoding == NULL)
    {
      const CsCodecInfo *st = cs_codec_lookup_static (pt);

      encoding = st != NULL ? st->encoding : NULL;
      clock = st != NULL ? st->clock_rate : 0;
      channels = pt == 10 ? 2 : 1;
    }
  po->decoders[pt]
      = encoding != NULL ? cs_audio_decoder_new_with_fmtp (
            encoding, clock, channels, po->formats != NULL ? po->formats->fmtp[pt] : NULL, error)
                         : NULL;
  if (po->decoders[pt] == NULL)
    {
      po->decoder_failed[pt] = TRUE;
      if (encoding == NULL)
        g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_UNSUPPORTED,
                     "No decoder for payload type %u: its codec is unknown", pt);
    }
  return po->decoders[pt];
}

static gboolean
is_telephone_event (Playout *po, const CsRtpClockMap *clocks, guint8 pt)
{
  return clocks->telephone_event_pt[pt]
         || (po->formats != NULL && cs_codec_is_telephone_event (po->formats->encoding[pt]));
}

static gboolean
is_comfort_noise (Playout *po, const CsRtpClockMap *clocks, guint8 pt)
{
  return clocks->comfort_noise_pt[pt]
         || (po->formats != NULL && cs_codec_is_comfort_noise (po->formats->encoding[pt]));
}

static guint
clock_of (Playout *po, const CsRtpClockMap *clocks, guint8 pt)
{
  if (clocks->clock_rate_by_pt[pt] != 0)
    return clocks->clock_rate_by_pt[pt];
  if (po->formats != NULL && po->formats->clock_rate[pt] != 0)
    return po->formats->clock_rate[pt];
  return po->main_clock;
}

/* Decodes one played packet at due_ns; returns where its audio ends. */
static gint64
play_packet (Playout *po, const CsRtpPacket *p, guint8 pt, const guint8 *payload, gsize len,
             gint64 due_ns)
{
  CsAudioTrack *track = po->track;
  CsAudioDecoder *decoder = decoder_for (po, pt, NULL);
  guint rate;
  gsize n;

  g_array_set_size (po->scratch, 0);
  if (decoder == NULL || payload == NULL
      || (n = cs_audio_decoder_decode (decoder, payload, len, po->scratch)) == 0)
    {
      track->undecodable++;
      add_mark (po, CS_AUDIO_MARK_UNDECODABLE, p->frame, due_ns, due_ns + po->ptime_ns, 1);
      return due_ns + po->ptime_ns;
    }
  rate = cs_audio_decoder_get_sample_rate (decoder);
  if (rate != track->sample_rate)
    {
      GArray *converted = cs_audio_resample_array (po->scratch, 1, rate, track->sample_rate);

      g_array_unref (po->scratch);
      po->scratch = converted;
      n = converted->len;
    }
  write_samples (track, sample_at (track, due_ns), (const gint16 *) (gpointer) po->scratch->data,
                 n);
  track->played++;
  return due_ns + (gint64) ((double) n * NS_PER_S / track->sample_rate);
}

static gint
compare_spans (gconstpointer a, gconstpointer b)
{
  const SeqSpan *x = a, *y = b;

  return x->ext_seq < y->ext_seq ? -1 : x->ext_seq > y->ext_seq;
}

static gint
compare_marks (gconstpointer a, gconstpointer b)
{
  const CsAudioMark *x = a, *y = b;

  return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* Sequence numbers never received, placed between their neighbours. */
static void
mark_losses (Playout *po)
{
  g_array_sort (po->spans, compare_spans);
  for (guint i = 1; i < po->spans->len; i++)
    {
      const SeqSpan *a = &g_array_index (po->spans, SeqSpan, i - 1);
      const SeqSpan *b = &g_array_index (po->spans, SeqSpan, i);
      guint32 gap = b->ext_seq - a->ext_seq;

      if (gap > 1)
        add_mark (po, CS_AUDIO_MARK_LOST, b->frame, a->end_ns,
                  b->start_ns > a->end_ns ? b->start_ns
                                          : a->end_ns + (gint64) (gap - 1) * po->ptime_ns,
                  gap - 1);
    }
}

static void
mark_digits (Playout *po, GArray *digits)
{
  for (guint i = 0; i < digits->len; i++)
    {
      const CsDtmfDigit *d = &g_array_index (digits, CsDtmfDigit, i);
      gint64 start = d->start_ns + po->delay_ns;
      CsAudioMark mark = { 0 };

      mark.kind = CS_AUDIO_MARK_DTMF;
      mark.digit = d->digit;
      mark.stream_id = po->track->stream_id;
      mark.frame = d->first_frame;
      mark.packets = d->packets;
      mark.start_ns = start;
      mark.end_ns = start + (gint64) (MAX (d->duration_ms, 1.0) * 1e6);
      g_array_append_val (po->track->marks, mark);
    }
}

static void
run_playout (Playout *po, const CsRtpPacket *packets, gsize n, const guint8 *verdicts)
{
  const CsRtpClockMap *clocks = cs_stream_get_clock_map (po->stream);
  g_autoptr (GArray) digits = g_array_new (FALSE, TRUE, sizeof (CsDtmfDigit));
  CsDtmfTracker dtmf;
  gboolean anchored = FALSE;
  gint64 anchor_arrival = 0, anchor_ts = 0, ts_ref = (gint64) 1 << 32 | packets[0].timestamp;
  guint32 max_ext = 0x10000u + packets[0].seq;
  gint64 last_end_ns = po->track->start_ns;

  cs_dtmf_tracker_init (&dtmf, clock_of (po, clocks, po->main_pt));
  for (gsize i = 0; i < n; i++)
    {
      const CsRtpPacket *p = &packets[i];
      guint8 pt = p->payload_type & 0x7f;
      guint clock = MAX (clock_of (po, clocks, pt), 1);
      gint64 ts = cs_rtp_extend_timestamp (ts_ref, p->timestamp);
      gboolean media = pt == po->main_pt;
      const guint8 *payload = NULL;
      gsize len = 0;
      SeqSpan span = { 0 };
      gint64 due_ns, offset_ns;

      if (verdicts[i] == CS_JITTER_BUFFER_DUPLICATE)
        continue;
      ts_ref = ts;
      span.ext_seq = cs_rtp_extend_seq (max_ext, p->seq);
      max_ext = MAX (max_ext, span.ext_seq);
      span.frame = p->frame;

      offset_ns = (gint64) ((double) (ts - anchor_ts) * NS_PER_S / clock);
      due_ns = anchor_arrival + offset_ns + po->delay_ns;
      if (media
          && (!anchored || (p->flags & CS_RTP_FLAG_MARKER)
              || (po->opts->jb.kind != CS_JITTER_BUFFER_OFF
                  && verdicts[i] == CS_JITTER_BUFFER_PLAYED && p->arrival_ns > due_ns)
              || -offset_ns > TIMESTAMP_JUMP_NS
              || due_ns - p->arrival_ns > po->delay_ns + TIMESTAMP_JUMP_NS))
        {
          anchored = TRUE;
          anchor_arrival = p->arrival_ns;
          anchor_ts = ts;
          due_ns = p->arrival_ns + po->delay_ns;
        }
      else if (!anchored)
        due_ns = p->arrival_ns + po->delay_ns;

      if (verdicts[i] != CS_JITTER_BUFFER_LATE)
        cs_stream_payload_reader_read (po->reader, p, &payload, &len);
      span.start_ns = due_ns;
      if (verdicts[i] == CS_JITTER_BUFFER_LATE)
        {
          span.end_ns = due_ns + po->ptime_ns;
          add_mark (po, CS_AUDIO_MARK_LATE, p->frame, due_ns, span.end_ns, 1);
        }
      else if (is_telephone_event (po, clocks, pt))
        {
          span.end_ns = due_ns;
          if (payload != NULL)
            cs_dtmf_tracker_feed (&dtmf, p, payload, len, digits);
        }
      else if (is_comfort_noise (po, clocks, pt))
        {
          flush_comfort_noise (po, due_ns);
          span.end_ns = due_ns;
          po->cn_pending = TRUE;
          po->cn_start_ns = due_ns;
          po->cn_level = payload != NULL && len >= 1 ? payload[0] : 127;
        }
      else
        {
          flush_comfort_noise (po, due_ns);
          span.end_ns = play_packet (po, p, pt, payload, len, due_ns);
        }
      last_end_ns = MAX (last_end_ns, span.end_ns);
      g_array_append_val (po->spans, span);
    }
  flush_comfort_noise (po, MAX (last_end_ns, po->cn_start_ns + po->ptime_ns));
  /* Silence up to the last packet's end, so lost or undecodable tails still take their time. */
  {
    gint64 end = MIN (sample_at (po->track, last_end_ns), (gint64) CS_AUDIO_TRACK_MAX_SAMPLES);

    if (end > (gint64) po->track->samples->len)
      g_array_set_size (po->track->samples, (guint) end);
  }
  mark_losses (po);
  mark_digits (po, digits);
  g_array_sort (po->track->marks, compare_marks);
}

CsAudioTrack *
cs_audio_track_decode (CsCaptureSet *set, CsStream *stream, const CsAudioFormatMap *formats,
                       const CsAudioPlayoutOptions *opts, GError **error)
{
  const GArray *array = cs_stream_get_packets (stream);
  const CsRtpPacket *packets = array != NULL ? (const CsRtpPacket *) (gpointer) array->data : NULL;
  gsize n = array != NULL ? array->len : 0;
  const CsRtpClockMap *clocks = cs_stream_get_clock_map (stream);
  const CsCodecInfo *info = cs_stream_get_codec_info (stream);
  CsAudioPlayoutOptions default_opts;
  Playout po = { 0 };
  g_autofree guint8 *verdicts = NULL;
  CsAudioDecoder *main_decoder;
  CsJitterBufferResult probe;

  if (n == 0)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_MEDIA, "Stream %u has no packets",
                   cs_stream_get_id (stream));
      return NULL;
    }
  if (cs_stream_get_protection (stream) == CS_STREAM_ENCRYPTED
      || cs_stream_get_protection (stream) == CS_STREAM_KEY_FAILED)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_ENCRYPTED,
                   cs_stream_get_protection (stream) == CS_STREAM_ENCRYPTED
                       ? "Stream %u is encrypted (SRTP) — key needed"
                       : "Stream %u is encrypted (SRTP) — its key fails authentication",
                   cs_stream_get_id (stream));
      return NULL;
    }
  if (opts == NULL)
    {
      cs_audio_playout_options_init (&default_opts);
      opts = &default_opts;
    }
  po.set = set;
  po.stream = stream;
  po.formats = formats;
  po.opts = opts;
  po.noise_state = 0x2545f491u;

  /* The same two calls as cs_mos_for_stream, so playout and MOS see one buffer. */
  cs_jitter_buffer_emulate (packets, n, 0, &opts->jb, &probe);
  po.main_pt = probe.media_payload_type;
  po.main_clock = clocks->clock_rate_by_pt[po.main_pt] != 0 ? clocks->clock_rate_by_pt[po.main_pt]
                  : info != NULL                            ? info->clock_rate
                                                            : 8000;

  po.track = g_new0 (CsAudioTrack, 1);
  po.track->stream_id = cs_stream_get_id (stream);
  verdicts = g_malloc0 (n);
  cs_jitter_buffer_emulate_verdicts (packets, n, po.main_clock, &opts->jb, verdicts, &po.track->jb);

  main_decoder = NULL;
  if (!is_telephone_event (&po, clocks, po.main_pt) && !is_comfort_noise (&po, clocks, po.main_pt))
    {
      g_autoptr (GError) local = NULL;

      main_decoder = decoder_for (&po, po.main_pt, &local);
      if (main_decoder == NULL)
        {
          g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_UNSUPPORTED,
                       "Stream %u (%s) cannot be played: %s", po.track->stream_id,
                       cs_stream_get_codec (stream), local->message);
          cs_audio_track_free (po.track);
          return NULL;
        }
    }
  po.track->codec = g_strdup (main_decoder != NULL ? cs_audio_decoder_get_name (main_decoder)
                                                   : cs_stream_get_codec (stream));
  po.track->sample_rate
      = main_decoder != NULL ? cs_audio_decoder_get_sample_rate (main_decoder) : 8000;
  po.track->samples = g_array_new (FALSE, TRUE, sizeof (gint16));
  po.track->marks = g_array_new (FALSE, TRUE, sizeof (CsAudioMark));
  po.delay_ns = opts->jb.kind == CS_JITTER_BUFFER_OFF ? 0 : (gint64) opts->jb.delay_ms * 1000000;
  po.track->start_ns = packets[0].arrival_ns + po.delay_ns;
  po.ptime_ns = (gint64) (cs_mos_packetisation_ms (packets, n, po.main_clock) * 1e6);
  po.spans = g_array_sized_new (FALSE, FALSE, sizeof (SeqSpan), (guint) MIN (n, 1u << 20));
  po.scratch = g_array_new (FALSE, FALSE, sizeof (gint16));

  po.reader = cs_stream_payload_reader_new (stream, set);
  run_playout (&po, packets, n, verdicts);
  cs_stream_payload_reader_free (po.reader);

  for (guint pt = 0; pt < 128; pt++)
    cs_audio_decoder_free (po.decoders[pt]);
  g_array_unref (po.spans);
  g_array_unref (po.scratch);
  return po.track;
}

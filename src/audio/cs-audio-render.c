/* cs-audio-render.c — streams decoded into tracks, tracks laid side by side on
 * one time axis: a call in stereo (caller left, callee right) or mixed */
#include "cs-audio-render.h"

#include <math.h>
#include <string.h>

#include "cs-audio-error.h"
#include "cs-audio-resample.h"

#define NS_PER_S 1000000000.0

typedef struct
{
  gatomicrefcount ref_count;
  CsAudioRender render;
} RenderBox;

void
cs_audio_render_options_init (CsAudioRenderOptions *opts)
{
  memset (opts, 0, sizeof *opts);
  cs_audio_playout_options_init (&opts->playout);
  opts->layout = CS_AUDIO_LAYOUT_STEREO;
}

static CsAudioRender *
render_new (guint channels)
{
  RenderBox *box = g_new0 (RenderBox, 1);

  g_atomic_ref_count_init (&box->ref_count);
  box->render.channels = channels;
  box->render.samples = g_array_new (FALSE, TRUE, sizeof (gint16));
  box->render.marks = g_array_new (FALSE, TRUE, sizeof (CsAudioMark));
  box->render.stream_ids = g_array_new (FALSE, TRUE, sizeof (guint));
  box->render.stream_channels = g_array_new (FALSE, TRUE, sizeof (guint8));
  box->render.messages = g_ptr_array_new_with_free_func (g_free);
  return &box->render;
}

CsAudioRender *
cs_audio_render_ref (CsAudioRender *render)
{
  RenderBox *box = (RenderBox *) (gpointer) ((char *) render - G_STRUCT_OFFSET (RenderBox, render));

  g_atomic_ref_count_inc (&box->ref_count);
  return render;
}

void
cs_audio_render_unref (CsAudioRender *render)
{
  RenderBox *box;

  if (render == NULL)
    return;
  box = (RenderBox *) (gpointer) ((char *) render - G_STRUCT_OFFSET (RenderBox, render));
  if (!g_atomic_ref_count_dec (&box->ref_count))
    return;
  g_array_unref (render->samples);
  g_array_unref (render->marks);
  g_array_unref (render->stream_ids);
  g_array_unref (render->stream_channels);
  g_ptr_array_unref (render->messages);
  g_free (box);
}

CsAudioRender *
cs_audio_render_new_from_samples (guint sample_rate, guint channels, gint64 start_ns,
                                  const gint16 *samples, gsize n_frames)
{
  CsAudioRender *render = render_new (CLAMP (channels, 1, 2));

  render->sample_rate = sample_rate;
  render->start_ns = start_ns;
  g_array_append_vals (render->samples, samples, (guint) (n_frames * render->channels));
  return render;
}

gsize
cs_audio_render_get_n_frames (const CsAudioRender *render)
{
  return render->samples->len / MAX (render->channels, 1);
}

double
cs_audio_render_get_duration_s (const CsAudioRender *render)
{
  return render->sample_rate > 0
             ? (double) cs_audio_render_get_n_frames (render) / render->sample_rate
             : 0.0;
}

/* Media endpoints announced in SDP sent by the caller (side 0) or callee (1). */
static void
collect_sdp_endpoints (CsCall *call, GArray *announced[2])
{
  const char *caller_tag = cs_call_get_from_tag (call);

  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);
      gboolean caller_tagged;
      guint side;

      if (msg == NULL || cs_sip_message_get_sdp (msg) == NULL
          || cs_sip_message_get_sdp (msg)->media == NULL)
        continue;
      caller_tagged = g_strcmp0 (cs_sip_message_get_from_tag (msg), caller_tag) == 0;
      /* The caller sends its requests and answers the callee's (re-INVITEs from the far end). */
      side = cs_sip_message_is_request (msg) == caller_tagged ? 0 : 1;
      for (guint m = 0; m < cs_sip_message_get_sdp (msg)->media->len; m++)
        {
          const CsSdpMedia *media = g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, m);
          CsEndpoint ep = { 0 };

          if (g_strcmp0 (media->media, "audio") != 0 || media->port == 0)
            continue;
          ep.addr = media->connection;
          ep.port = media->port;
          g_array_append_val (announced[side], ep);
        }
    }
}

static gboolean
endpoint_in (const GArray *endpoints, const CsEndpoint *ep)
{
  for (guint i = 0; i < endpoints->len; i++)
    if (cs_endpoint_equal (&g_array_index (endpoints, CsEndpoint, i), ep))
      return TRUE;
  return FALSE;
}

/* 0 when the caller sent the stream (the caller's voice), 1 when the callee did. */
static guint
stream_side (CsStream *stream, GArray *announced[2], GArray *left_sources)
{
  const CsEndpoint *src = cs_stream_get_src (stream), *dst = cs_stream_get_dst (stream);

  if (endpoint_in (announced[0], dst))
    return 1; /* sent to where the caller listens */
  if (endpoint_in (announced[1], dst))
    return 0;
  if (endpoint_in (announced[0], src))
    return 0;
  if (endpoint_in (announced[1], src))
    return 1;
  /* No SDP to go by: the first stream is the caller's, and so is any from its source. */
  if (left_sources->len == 0 || endpoint_in (left_sources, src))
    return 0;
  return 1;
}

static void
add_jb (CsJitterBufferResult *sum, const CsJitterBufferResult *r)
{
  sum->expected += r->expected;
  sum->received += r->received;
  sum->lost_network += r->lost_network;
  sum->discarded_late += r->discarded_late;
  sum->duplicates += r->duplicates;
  sum->played += r->played;
  sum->max_burst = MAX (sum->max_burst, r->max_burst);
  sum->effective_loss_pct
      = sum->expected > 0
            ? 100.0 * (double) (sum->expected - MIN (sum->played, sum->expected)) / sum->expected
            : 0.0;
}

/* Adds the track into the render's channel at its place on the time axis. */
static void
mix_track (CsAudioRender *render, const CsAudioTrack *track, guint channel)
{
  g_autoptr (GArray) converted = NULL;
  const GArray *samples = track->samples;
  gint64 offset;
  gsize needed;

  if (track->sample_rate != render->sample_rate)
    {
      g_autoptr (CsAudioResampler) r
          = cs_audio_resampler_new (track->sample_rate, render->sample_rate);
      /* Converted only up to the cap, so a long track at a higher rate cannot balloon. */
      gsize n_out = MIN (cs_audio_resampler_output_frames (r, track->samples->len),
                         (gsize) CS_AUDIO_TRACK_MAX_SAMPLES);

      converted = g_array_sized_new (FALSE, TRUE, sizeof (gint16), (guint) n_out);
      g_array_set_size (converted, (guint) n_out);
      cs_audio_resampler_process (r, (const gint16 *) (gconstpointer) track->samples->data,
                                  track->samples->len, 1, 0, (gint16 *) (gpointer) converted->data,
                                  n_out);
      samples = converted;
    }
  offset = (gint64) floor (
      (double) (track->start_ns - render->start_ns) * render->sample_rate / NS_PER_S + 0.5);
  offset = MAX (offset, 0);
  /* The whole render obeys the track cap too, however far apart its streams are. */
  if ((gsize) offset + samples->len > CS_AUDIO_TRACK_MAX_SAMPLES)
    {
      g_ptr_array_add (render->messages,
                       g_strdup_printf ("Stream %u plays too long after the call's first audio; "
                                        "what lies past the limit was cut",
                                        track->stream_id));
      if ((gsize) offset >= CS_AUDIO_TRACK_MAX_SAMPLES)
        return;
    }
  needed
      = MIN ((gsize) offset + samples->len, (gsize) CS_AUDIO_TRACK_MAX_SAMPLES) * render->channels;
  if (needed > render->samples->len)
    g_array_set_size (render->samples, (guint) needed);
  for (gsize i = 0; i < samples->len && (gsize) offset + i < CS_AUDIO_TRACK_MAX_SAMPLES; i++)
    {
      gint16 *out = &g_array_index (render->samples, gint16,
                                    ((gsize) offset + i) * render->channels + channel);
      gint32 sum = *out + g_array_index (samples, gint16, i);

      *out = (gint16) CLAMP (sum, -32768, 32767);
    }
}

/* Decodes each stream, then lays the tracks out from the earliest start. */
static CsAudioRender *
render_streams (CsAnalysis *analysis, CsStream **streams, const guint *sides, guint n,
                guint channels, const CsAudioFormatMap *formats, const CsAudioRenderOptions *opts,
                GCancellable *cancellable, GError **error)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  g_autoptr (GPtrArray) tracks
      = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_audio_track_free);
  g_autoptr (GArray) track_sides = g_array_new (FALSE, FALSE, sizeof (guint));
  CsAudioRender *render = render_new (channels);

  render->start_ns = G_MAXINT64;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) local = NULL;
      CsAudioTrack *track;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          cs_audio_render_unref (render);
          return NULL;
        }
      track = cs_audio_track_decode (set, streams[i], formats, &opts->playout, &local);
      if (track == NULL)
        {
          g_ptr_array_add (render->messages, g_strdup (local->message));
          continue;
        }
      if (track->truncated)
        g_ptr_array_add (render->messages,
                         g_strdup_printf ("Stream %u is longer than callscope plays; its end "
                                          "was cut",
                                          track->stream_id));
      g_ptr_array_add (tracks, track);
      g_array_append_val (track_sides, sides[i]);
      render->start_ns = MIN (render->start_ns, track->start_ns);
      render->sample_rate = MAX (render->sample_rate, track->sample_rate);
    }
  if (tracks->len == 0)
    {
      g_autoptr (GString) why = g_string_new (render->messages->len == 0 ? "no RTP stream" : "");

      for (guint i = 0; i < render->messages->len; i++)
        g_string_append_printf (why, "%s%s", i > 0 ? "; " : "",
                                (const char *) g_ptr_array_index (render->messages, i));
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_MEDIA, "Nothing to play: %s", why->str);
      cs_audio_render_unref (render);
      return NULL;
    }
  if (opts->sample_rate != 0)
    render->sample_rate = opts->sample_rate;
  for (guint i = 0; i < tracks->len; i++)
    {
      const CsAudioTrack *track = g_ptr_array_index (tracks, i);
      guint8 channel = channels == 2 ? (guint8) g_array_index (track_sides, guint, i) : 0;

      mix_track (render, track, channel);
      for (guint m = 0; m < track->marks->len; m++)
        {
          CsAudioMark mark = g_array_index (track->marks, CsAudioMark, m);

          mark.channel = channel;
          g_array_append_val (render->marks, mark);
        }
      g_array_append_val (render->stream_ids, track->stream_id);
      g_array_append_val (render->stream_channels, channel);
      add_jb (&render->jb[channel], &track->jb);
    }
  return render;
}

static gint
compare_marks (gconstpointer a, gconstpointer b)
{
  const CsAudioMark *x = a, *y = b;

  return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

CsAudioRender *
cs_audio_render_call (CsAnalysis *analysis, CsCall *call, const CsAudioRenderOptions *opts,
                      GCancellable *cancellable, GError **error)
{
  const GArray *ids = cs_call_get_stream_ids (call);
  g_autoptr (GPtrArray) streams = g_ptr_array_new ();
  g_autoptr (GArray) sides = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) left_sources = g_array_new (FALSE, FALSE, sizeof (CsEndpoint));
  GArray *announced[2];
  CsAudioRenderOptions default_opts;
  CsAudioFormatMap formats;
  CsAudioRender *render;

  if (opts == NULL)
    {
      cs_audio_render_options_init (&default_opts);
      opts = &default_opts;
    }
  announced[0] = g_array_new (FALSE, FALSE, sizeof (CsEndpoint));
  announced[1] = g_array_new (FALSE, FALSE, sizeof (CsEndpoint));
  collect_sdp_endpoints (call, announced);
  for (guint i = 0; ids != NULL && i < ids->len; i++)
    {
      CsStream *stream = cs_analysis_lookup_stream (analysis, g_array_index (ids, guint, i));
      guint side;

      if (stream == NULL)
        continue;
      side = stream_side (stream, announced, left_sources);
      if (side == 0)
        g_array_append_val (left_sources, *cs_stream_get_src (stream));
      g_ptr_array_add (streams, stream);
      g_array_append_val (sides, side);
    }
  g_array_unref (announced[0]);
  g_array_unref (announced[1]);

  cs_audio_format_map_init (&formats);
  cs_audio_format_map_add_call (&formats, call);
  render = render_streams (
      analysis, (CsStream **) streams->pdata, (const guint *) (gpointer) sides->data, streams->len,
      opts->layout == CS_AUDIO_LAYOUT_STEREO ? 2 : 1, &formats, opts, cancellable, error);
  cs_audio_format_map_clear (&formats);
  if (render != NULL)
    g_array_sort (render->marks, compare_marks);
  return render;
}

CsAudioRender *
cs_audio_render_stream (CsAnalysis *analysis, CsStream *stream, const CsAudioRenderOptions *opts,
                        GError **error)
{
  CsAudioRenderOptions default_opts;
  CsAudioFormatMap formats;
  CsAudioRender *render;
  CsCall *call = NULL;
  guint side = 0;

  if (opts == NULL)
    {
      cs_audio_render_options_init (&default_opts);
      opts = &default_opts;
    }
  cs_audio_format_map_init (&formats);
  if (cs_stream_get_call_number (stream) != 0)
    {
      g_autofree char *number = g_strdup_printf ("%u", cs_stream_get_call_number (stream));

      call = cs_analysis_find_call (analysis, number);
    }
  if (call != NULL)
    cs_audio_format_map_add_call (&formats, call);
  render = render_streams (analysis, &stream, &side, 1, 1, &formats, opts, NULL, error);
  cs_audio_format_map_clear (&formats);
  return render;
}

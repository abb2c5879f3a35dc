/* test-golden-audio.c — calls decoded as heard: generated tones come out at the
 * frequency and time the generator put them, on the right channel; playout loss
 * equals the MOS module's; exported files hold the same samples; real G.711,
 * G.729 and Opus captures decode cleanly */
#include <glib/gstdio.h>
#include <sndfile.h>
#include <sys/wait.h>

#include "../unit/audio/test-audio-common.h"
#include "cs-audio-export.h"
#include "cs-audio-render.h"
#include "loader/cs-loader.h"
#include "quality/cs-mos.h"
#include "golden-common.h"

static char *tmp_dir;

/* Writes a generator scenario and returns its path, NULL (test skipped) without cs-gen. */
static char *
gen_scenario (const char *name)
{
  const char *gen = g_getenv ("CS_GEN");
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (gen == NULL)
    {
      g_test_skip ("CS_GEN not set");
      return NULL;
    }
  path = g_strdup_printf ("%s/%s.pcapng", tmp_dir, name);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      const char *argv[] = { gen, "scenario", name, "-o", path, NULL };

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                    &status, &error);
      g_assert_no_error (error);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
  return g_steal_pointer (&path);
}

static CsAnalysis *
load (const char *path)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  const char *paths[] = { path, NULL };
  CsAnalysis *analysis = cs_loader_load (loader, paths, NULL, &error);

  g_assert_no_error (error);
  return analysis;
}

static CsStream *
stream_by_id (CsAnalysis *analysis, guint id)
{
  CsStream *stream = cs_analysis_lookup_stream (analysis, id);

  g_assert_nonnull (stream);
  return stream;
}

static const gint16 *
frame_at (const CsAudioRender *render, double seconds, guint channel)
{
  gsize frame = (gsize) (seconds * render->sample_rate);

  g_assert_cmpuint (frame, <, cs_audio_render_get_n_frames (render));
  return (const gint16 *) (gconstpointer) render->samples->data + frame * render->channels
         + channel;
}

/* The generator's sweep: 300 → 3000 Hz over 4 s (instantaneous frequency). */
static double
sweep_hz (double t)
{
  return 300.0 + 2700.0 * fmod (t, 4.0) / 4.0;
}

static void
test_clean_call_tones (void)
{
  g_autofree char *path = gen_scenario ("clean");
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAudioRender) render = NULL;
  g_autoptr (GError) error = NULL;
  const CsRtpPacket *first;
  double worst_left = 0.0, worst_right = 0.0;

  if (path == NULL)
    return;
  analysis = load (path);
  render
      = cs_audio_render_call (analysis, cs_analysis_find_call (analysis, "1"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (render->channels, ==, 2);
  g_assert_cmpuint (render->sample_rate, ==, 8000);
  g_assert_cmpuint (render->stream_ids->len, ==, 2);
  g_assert_cmpuint (render->marks->len, ==, 0);
  g_assert_cmpuint (render->messages->len, ==, 0);
  g_assert_cmpfloat_with_epsilon (cs_audio_render_get_duration_s (render), 10.0, 0.01);
  /* Sample 0 is the caller's first packet, played after the 50 ms buffer. */
  first = (const CsRtpPacket *) (gconstpointer) cs_stream_get_packets (stream_by_id (analysis, 1))
              ->data;
  g_assert_cmpint (render->start_ns, ==, first->arrival_ns + 50000000);
  g_assert_cmpuint (g_array_index (render->stream_channels, guint8, 0), ==, 0);
  g_assert_cmpuint (g_array_index (render->stream_channels, guint8, 1), ==, 1);

  /* Left (alice, the caller): 440 Hz then 660 Hz, each for 500 ms, for 10 s. */
  for (guint k = 0; k < 20; k++)
    {
      double t = k * 0.5 + 0.1;
      double peak = test_audio_peak_hz (frame_at (render, t, 0), 2400, 2, 8000, 200, 3800);

      g_assert_cmpfloat_with_epsilon (peak, k % 2 == 0 ? 440.0 : 660.0, 3.0);
      worst_left = MAX (worst_left, fabs (peak - (k % 2 == 0 ? 440.0 : 660.0)));
    }
  /* Right (bob): the sweep, 3 ms behind. 50 ms windows, centred. */
  for (double t = 0.25; t < 9.7; t += 0.5)
    {
      double peak = test_audio_peak_hz (frame_at (render, t - 0.025, 1), 400, 2, 8000, 200, 3800);
      double want = sweep_hz (t - 0.003);

      if (fmod (t, 4.0) > 3.9)
        continue; /* the sweep wraps inside the window */
      g_assert_cmpfloat_with_epsilon (peak, want, 25.0);
      worst_right = MAX (worst_right, fabs (peak - want));
    }
  g_test_message ("clean: worst left peak error %.1f Hz, right %.1f Hz", worst_left, worst_right);
}

static void
check_wav_equals_render (const char *wav, const CsAudioRender *render)
{
  SF_INFO info = { 0 };
  SNDFILE *file = sf_open (wav, SFM_READ, &info);
  g_autofree gint16 *got = NULL;

  g_assert_nonnull (file);
  g_assert_cmpint (info.samplerate, ==, (int) render->sample_rate);
  g_assert_cmpint (info.channels, ==, (int) render->channels);
  g_assert_cmpint (info.frames, ==, (sf_count_t) cs_audio_render_get_n_frames (render));
  got = g_new (gint16, info.frames * info.channels);
  g_assert_cmpint (sf_readf_short (file, got, info.frames), ==, info.frames);
  sf_close (file);
  g_assert_cmpmem (got, info.frames * info.channels * sizeof (gint16), render->samples->data,
                   render->samples->len * sizeof (gint16));
}

static gboolean
cli_usable (void)
{
  const char *args[] = { "--version", NULL };
  g_autofree char *out = NULL;
  int status = -1;

  if (g_getenv ("CS_CLI") == NULL || !g_file_test (g_getenv ("CS_CLI"), G_FILE_TEST_IS_EXECUTABLE))
    return FALSE;
  out = golden_run_cli (args, &status, NULL);
  return status == 0;
}

static void
test_cli_export (void)
{
  g_autofree char *path = gen_scenario ("clean");
  g_autofree char *wav = g_strdup_printf ("%s/clean-call.wav", tmp_dir);
  g_autofree char *flac = g_strdup_printf ("%s/clean-stream.flac", tmp_dir);
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAudioRender) call = NULL;
  g_autoptr (CsAudioRender) stream = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (path == NULL)
    return;
  if (!cli_usable ())
    {
      g_test_skip ("callscope-cli not built");
      return;
    }
  analysis = load (path);
  call = cs_audio_render_call (analysis, cs_analysis_find_call (analysis, "1"), NULL, NULL, NULL);
  stream = cs_audio_render_stream (analysis, stream_by_id (analysis, 2), NULL, NULL);
  g_assert_nonnull (call);
  g_assert_nonnull (stream);
  {
    const char *args[] = { "audio", path, "--call", "1", "-o", wav, NULL };

    g_free (golden_run_cli (args, &status, &err));
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (err, "2 channels"));
    check_wav_equals_render (wav, call);
  }
  {
    const char *args[]
        = { "audio", path, "--stream", "2", "--jitter-buffer", "50", "-o", flac, NULL };

    g_free (golden_run_cli (args, &status, NULL));
    g_assert_cmpint (status, ==, 0);
    check_wav_equals_render (flac, stream);
  }
  {
    const char *both[] = { "audio", path, "--call", "1", "--stream", "2", "-o", wav, NULL };
    const char *no_out[] = { "audio", path, "--call", "1", NULL };
    const char *bad_jb[] = { "audio", path, "--call", "1", "-j", "soon", "-o", wav, NULL };
    const char *no_call[] = { "audio", path, "--call", "77", "-o", wav, NULL };
    const char *bad_ext[] = { "audio", path, "--call", "1", "-o", "x.mp3", NULL };

    g_free (golden_run_cli (both, &status, NULL));
    g_assert_cmpint (status, ==, 2);
    g_free (golden_run_cli (no_out, &status, NULL));
    g_assert_cmpint (status, ==, 2);
    g_free (golden_run_cli (bad_jb, &status, NULL));
    g_assert_cmpint (status, ==, 2);
    g_free (golden_run_cli (bad_ext, &status, NULL));
    g_assert_cmpint (status, ==, 2);
    g_clear_pointer (&err, g_free);
    g_free (golden_run_cli (no_call, &status, &err));
    g_assert_cmpint (status, ==, 1);
    g_assert_nonnull (strstr (err, "no call"));
  }
}

static guint32
marked_packets (const CsAudioRender *render, CsAudioMarkKind kind, guint stream_id)
{
  guint32 total = 0;

  for (guint i = 0; i < render->marks->len; i++)
    {
      const CsAudioMark *m = &g_array_index (render->marks, CsAudioMark, i);

      if (m->kind == kind && m->stream_id == stream_id)
        total += m->packets;
    }
  return total;
}

static void
check_loss_matches_mos (CsAnalysis *analysis, CsStream *stream, const CsJitterBufferConfig *jb)
{
  CsAudioRenderOptions opts;
  g_autoptr (CsAudioRender) render = NULL;
  const GArray *packets = cs_stream_get_packets (stream);
  CsMos mos;
  guint id = cs_stream_get_id (stream);

  cs_audio_render_options_init (&opts);
  opts.playout.jb = *jb;
  render = cs_audio_render_stream (analysis, stream, &opts, NULL);
  g_assert_nonnull (render);
  cs_mos_for_stream ((const CsRtpPacket *) (gconstpointer) packets->data, packets->len,
                     cs_stream_get_clock_map (stream), cs_stream_get_codec_info (stream), jb, &mos);
  /* One jitter buffer: the loss the listener hears is the loss the MOS scores. */
  g_assert_cmpfloat_with_epsilon (render->jb[0].effective_loss_pct, mos.ppl, 1e-9);
  g_assert_cmpuint (marked_packets (render, CS_AUDIO_MARK_LOST, id), ==,
                    render->jb[0].lost_network);
  g_assert_cmpuint (marked_packets (render, CS_AUDIO_MARK_LATE, id), ==,
                    render->jb[0].discarded_late);
  /* What was not played is silence. */
  for (guint i = 0; i < render->marks->len; i++)
    {
      const CsAudioMark *m = &g_array_index (render->marks, CsAudioMark, i);
      gint64 from = (m->start_ns - render->start_ns) * 8000 / 1000000000 + 2;
      gint64 to = (m->end_ns - render->start_ns) * 8000 / 1000000000 - 2;

      if (m->kind != CS_AUDIO_MARK_LOST)
        continue;
      for (gint64 s = from; s < to && s < (gint64) render->samples->len; s++)
        g_assert_cmpint (g_array_index (render->samples, gint16, s), ==, 0);
    }
}

static void
test_loss_jitter_matches_mos (void)
{
  g_autofree char *path = gen_scenario ("loss-jitter");
  g_autoptr (CsAnalysis) analysis = NULL;
  CsJitterBufferConfig fixed, off = { CS_JITTER_BUFFER_OFF, 0, 0 },
                              adaptive = { CS_JITTER_BUFFER_ADAPTIVE, 40, 200 },
                              tight = { CS_JITTER_BUFFER_FIXED, 20, 0 };
  g_autoptr (CsAudioRender) render = NULL;

  if (path == NULL)
    return;
  analysis = load (path);
  cs_jitter_buffer_config_init_default (&fixed);
  for (guint id = 1; id <= 2; id++)
    {
      CsStream *stream = stream_by_id (analysis, id);

      check_loss_matches_mos (analysis, stream, &fixed);
      check_loss_matches_mos (analysis, stream, &off);
      check_loss_matches_mos (analysis, stream, &adaptive);
      check_loss_matches_mos (analysis, stream, &tight);
    }
  /* bob → alice is the impaired direction: the right channel has loss marks, the left none. */
  render = cs_audio_render_call (analysis, cs_analysis_find_call (analysis, "1"), NULL, NULL, NULL);
  g_assert_nonnull (render);
  g_assert_cmpuint (render->jb[1].lost_network, >, 0);
  g_assert_cmpuint (render->jb[0].lost_network, ==, 0);
  for (guint i = 0; i < render->marks->len; i++)
    g_assert_cmpuint (g_array_index (render->marks, CsAudioMark, i).channel, ==, 1);
  g_test_message ("loss-jitter: right channel lost %u, late %u, effective loss %.2f%%",
                  render->jb[1].lost_network, render->jb[1].discarded_late,
                  render->jb[1].effective_loss_pct);
}

static void
test_one_way_silent_right (void)
{
  g_autofree char *path = gen_scenario ("one-way");
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAudioRender) render = NULL;

  if (path == NULL)
    return;
  analysis = load (path);
  render = cs_audio_render_call (analysis, cs_analysis_find_call (analysis, "1"), NULL, NULL, NULL);
  g_assert_nonnull (render);
  g_assert_cmpfloat (test_audio_rms ((const gint16 *) (gconstpointer) render->samples->data + 1,
                                     cs_audio_render_get_n_frames (render), 2),
                     ==, 0.0);
  g_assert_cmpfloat (test_audio_rms ((const gint16 *) (gconstpointer) render->samples->data,
                                     cs_audio_render_get_n_frames (render), 2),
                     >, 3000.0);
}

static void
test_dtmf_marks (void)
{
  g_autofree char *path = gen_scenario ("dtmf");
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAudioRender) render = NULL;
  GString *digits = g_string_new (NULL);
  gint64 previous = 0;

  if (path == NULL)
    return;
  analysis = load (path);
  render = cs_audio_render_call (analysis, cs_analysis_find_call (analysis, "1"), NULL, NULL, NULL);
  g_assert_nonnull (render);
  for (guint i = 0; i < render->marks->len; i++)
    {
      const CsAudioMark *m = &g_array_index (render->marks, CsAudioMark, i);

      g_assert_cmpint (m->kind, ==, CS_AUDIO_MARK_DTMF);
      g_assert_cmpint (m->start_ns, >, previous);
      g_assert_cmpint (m->end_ns - m->start_ns, >=, 100000000); /* the digits last ≥ 100 ms */
      g_assert_cmpuint (m->channel, ==, 0);
      previous = m->start_ns;
      g_string_append_c (digits, m->digit);
    }
  g_assert_cmpstr (digits->str, ==, "15#");
  g_string_free (digits, TRUE);
}

static char *
sample_path (const char *name)
{
  const char *dir = golden_samples_dir ();
  char *path = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("samples not available");
      g_free (path);
      return NULL;
    }
  return path;
}

/* Real speech: every packet decodes, the level is speech-like and never clips. */
static void
check_speech (const CsAudioRender *render, guint rate)
{
  const gint16 *s = (const gint16 *) (gconstpointer) render->samples->data;
  gsize n = render->samples->len;
  gint peak = 0;

  g_assert_cmpuint (render->sample_rate, ==, rate);
  for (guint i = 0; i < render->marks->len; i++)
    g_assert_cmpint (g_array_index (render->marks, CsAudioMark, i).kind, !=,
                     CS_AUDIO_MARK_UNDECODABLE);
  for (gsize i = 0; i < n; i++)
    peak = MAX (peak, ABS ((gint) s[i]));
  g_assert_cmpint (peak, >, 3000);
  g_assert_cmpint (peak, <, 32767);
  g_assert_cmpfloat (test_audio_rms (s, n, 1), >, 300.0);
}

static void
test_sample_codecs (void)
{
  static const struct
  {
    const char *file, *call;
    guint rate;
    const char *codec;
    gboolean speech;
  } cases[] = {
    { "sip-rtp-g711.pcap", "1", 8000, "PCMU", TRUE },
    { "sip-rtp-g711.pcap", "2", 8000, "PCMA", TRUE },
    { "sip-rtp-g729a.pcap", "1", 8000, "G729", TRUE },
    /* Synthetic payloads (TOC 0xfc, then 0xa5 filler): valid Opus that decodes to silence. */
    { "invite-opus-bye.pcap", "1", 48000, "opus", FALSE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = sample_path (cases[c].file);
      g_autoptr (CsAnalysis) analysis = NULL;
      g_autoptr (CsAudioRender) render = NULL;
      g_autoptr (GError) error = NULL;
      CsCall *call;

      if (path == NULL)
        return;
      analysis = load (path);
      call = cs_analysis_find_call (analysis, cases[c].call);
      g_assert_nonnull (call);
      render = cs_audio_render_call (analysis, call, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (render->sample_rate, ==, cases[c].rate);
      if (cases[c].speech)
        check_speech (render, cases[c].rate);
      for (guint i = 0; i < render->stream_ids->len; i++)
        {
          CsStream *stream = stream_by_id (analysis, g_array_index (render->stream_ids, guint, i));
          g_autoptr (CsAudioTrack) track = cs_audio_track_decode (
              cs_analysis_get_capture_set (analysis), stream, NULL, NULL, &error);

          g_assert_no_error (error);
          g_assert_cmpstr (track->codec, ==, cases[c].codec);
          g_assert_cmpuint (track->undecodable, ==, 0);
          g_assert_cmpuint (track->played, ==, track->jb.played);
        }
      g_test_message ("%s call %s: %.2f s of %s", cases[c].file, cases[c].call,
                      cs_audio_render_get_duration_s (render), cases[c].codec);
    }
}

static void
test_sample_unassociated_speech (void)
{
  g_autofree char *path = sample_path ("speech_8k_ulaw.pcap");
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAudioRender) render = NULL;
  const GArray *packets;

  if (path == NULL)
    return;
  analysis = load (path);
  render = cs_audio_render_stream (analysis, stream_by_id (analysis, 1), NULL, NULL);
  g_assert_nonnull (render);
  g_assert_cmpuint (render->channels, ==, 1);
  check_speech (render, 8000);
  packets = cs_stream_get_packets (stream_by_id (analysis, 1));
  /* 20 ms per packet, and the stream has no gaps in time. */
  g_assert_cmpfloat_with_epsilon (cs_audio_render_get_duration_s (render), packets->len * 0.02,
                                  0.1);
}

static void
test_sample_broken_opus (void)
{
  g_autofree char *path = sample_path ("sip-rtp-opus-hybrid.pcap");
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAudioRender) render = NULL;
  g_autoptr (GString) frames = g_string_new (NULL);

  if (path == NULL)
    return;
  analysis = load (path);
  render = cs_audio_render_call (analysis, cs_analysis_find_call (analysis, "1"), NULL, NULL, NULL);
  g_assert_nonnull (render);
  /* Frames 6 and 7 carry code-3 Opus packets libopus rejects: marked, left silent; the
   * track still spans the stream's 6.3 s. */
  for (guint i = 0; i < render->marks->len; i++)
    {
      const CsAudioMark *m = &g_array_index (render->marks, CsAudioMark, i);

      if (m->kind == CS_AUDIO_MARK_UNDECODABLE)
        g_string_append_printf (frames, "%u ", m->frame);
    }
  g_assert_cmpstr (frames->str, ==, "6 7 ");
  g_assert_cmpfloat (cs_audio_render_get_duration_s (render), >, 6.2);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("cs-golden-audio-XXXXXX", NULL);
  g_test_add_func ("/golden/audio/clean-call-tones", test_clean_call_tones);
  g_test_add_func ("/golden/audio/cli-export", test_cli_export);
  g_test_add_func ("/golden/audio/loss-jitter-matches-mos", test_loss_jitter_matches_mos);
  g_test_add_func ("/golden/audio/one-way", test_one_way_silent_right);
  g_test_add_func ("/golden/audio/dtmf", test_dtmf_marks);
  g_test_add_func ("/golden/audio/samples/codecs", test_sample_codecs);
  g_test_add_func ("/golden/audio/samples/unassociated-speech", test_sample_unassociated_speech);
  g_test_add_func ("/golden/audio/samples/broken-opus", test_sample_broken_opus);
  status = g_test_run ();
  {
    g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *file = g_build_filename (tmp_dir, name, NULL);

        g_unlink (file);
      }
    g_rmdir (tmp_dir);
  }
  g_free (tmp_dir);
  return status;
}

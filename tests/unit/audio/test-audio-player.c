/* test-audio-player.c — the PortAudio player: what it plays reaches the device
 * unchanged (ALSA file sink, see ENVIRONMENT.md), and with no device it says so */
#include <glib/gstdio.h>
#include <sndfile.h>

#include "cs-audio-error.h"
#include "cs-audio-player.h"
#include "test-audio-common.h"

#define RATE 48000

static char *
write_alsa_config (const char *dir, const char *wav_path)
{
  g_autofree char *conf = g_build_filename (dir, "asound.conf", NULL);
  g_autofree char *text = NULL;

  if (wav_path == NULL)
    text = g_strdup ("# the only PCM is on a sound card that is not there\n"
                     "pcm.!default { type hw card 7 }\n");
  else
    text = g_strdup_printf ("pcm.!default { type plug\n"
                            "  slave { pcm \"capture\" format S16_LE rate %d channels 2 } }\n"
                            "pcm.capture { type file  slave.pcm { type null }\n"
                            "  file \"%s\"  format \"wav\"  perm 0644 }\n",
                            RATE, wav_path);
  g_assert_true (g_file_set_contents (conf, text, -1, NULL));
  return g_steal_pointer (&conf);
}

static CsAudioRender *
stereo_tones (gsize frames)
{
  g_autofree gint16 *samples = g_new (gint16, 2 * frames);

  /* Left 440 Hz, right 1 kHz, no zero runs: every sample can be found in the output. */
  for (gsize i = 0; i < frames; i++)
    {
      samples[2 * i] = (gint16) lrint (9000.0 * sin (2 * G_PI * 440.0 * i / RATE) + 100);
      samples[2 * i + 1] = (gint16) lrint (7000.0 * sin (2 * G_PI * 1000.0 * i / RATE) - 100);
    }
  return cs_audio_render_new_from_samples (RATE, 2, 1000000000, samples, frames);
}

static void
count_notify (GObject *object, GParamSpec *pspec, gpointer data)
{
  (*(guint *) data)++;
}

static void
wait_until_stopped (CsAudioPlayer *player)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;

  while (cs_audio_player_get_state (player) == CS_AUDIO_PLAYER_PLAYING
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_plays_to_file_sink (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *wav = NULL;
  g_autofree char *conf = NULL;
  g_autoptr (CsAudioRender) render = stereo_tones (RATE / 2);
  g_autoptr (GError) error = NULL;
  CsAudioPlayer *player;
  SF_INFO info = { 0 };
  SNDFILE *file;
  g_autofree gint16 *got = NULL;
  gsize first = 0;
  guint state_changes = 0;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }
  dir = g_dir_make_tmp ("cs-audio-XXXXXX", NULL);
  wav = g_build_filename (dir, "out.wav", NULL);
  conf = write_alsa_config (dir, wav);
  g_setenv ("ALSA_CONFIG_PATH", conf, TRUE);

  player = cs_audio_player_new ();
  g_signal_connect (player, "notify::state", G_CALLBACK (count_notify), &state_changes);
  cs_audio_player_set_render (player, render);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_duration (player), 0.5, 1e-9);
  if (!cs_audio_player_play (player, &error))
    {
      g_test_skip (error->message);
      g_object_unref (player);
      return;
    }
  g_assert_cmpuint (cs_audio_player_get_device_rate (player), ==, RATE);
  g_assert_cmpint (cs_audio_player_get_state (player), ==, CS_AUDIO_PLAYER_PLAYING);
  wait_until_stopped (player);
  g_assert_cmpint (cs_audio_player_get_state (player), ==, CS_AUDIO_PLAYER_STOPPED);
  /* Played to the end: the position says so, and the capture time follows it. */
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_position (player), 0.5, 1e-3);
  g_assert_cmpint (cs_audio_player_get_position_ns (player), ==, 1000000000 + 500000000);
  g_object_unref (player); /* closes the device: the WAV header gets its length */

  file = sf_open (wav, SFM_READ, &info);
  g_assert_nonnull (file);
  g_assert_cmpint (info.channels, ==, 2);
  g_assert_cmpint (info.samplerate, ==, RATE);
  g_assert_cmpint (info.frames, >=, RATE / 2);
  got = g_new (gint16, 2 * info.frames);
  g_assert_cmpint (sf_readf_short (file, got, info.frames), ==, info.frames);
  sf_close (file);
  /* The device may start with silence; from the first sound on, every sample is the render's. */
  while (first < (gsize) info.frames && got[2 * first] == 0 && got[2 * first + 1] == 0)
    first++;
  g_assert_cmpint ((gint64) info.frames - (gint64) first, >=, RATE / 2);
  for (gsize i = 0; i < RATE / 2; i++)
    {
      g_assert_cmpint (got[2 * (first + i)], ==, g_array_index (render->samples, gint16, 2 * i));
      g_assert_cmpint (got[2 * (first + i) + 1], ==,
                       g_array_index (render->samples, gint16, 2 * i + 1));
    }
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz (got + 2 * first, RATE / 4, 2, RATE, 100, 3000), 440.0, 2.0);
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz (got + 2 * first + 1, RATE / 4, 2, RATE, 100, 3000), 1000.0, 2.0);
  g_assert_cmpuint (state_changes, >=, 2); /* playing, then stopped */
  g_unlink (wav);
  g_unlink (conf);
  g_rmdir (dir);
}

static void
test_resamples_to_device (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *wav = NULL;
  g_autofree char *conf = NULL;
  g_autofree gint16 *tone = g_new (gint16, 2000);
  g_autoptr (CsAudioRender) render = NULL;
  g_autoptr (GError) error = NULL;
  CsAudioPlayer *player;
  SF_INFO info = { 0 };
  SNDFILE *file;
  g_autofree gint16 *got = NULL;
  gsize first = 0, last = 0;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }
  dir = g_dir_make_tmp ("cs-audio-XXXXXX", NULL);
  wav = g_build_filename (dir, "out.wav", NULL);
  conf = write_alsa_config (dir, wav);
  g_setenv ("ALSA_CONFIG_PATH", conf, TRUE);
  /* 250 ms of 440 Hz, mono at 8 kHz: the device gets it at 48 kHz on both channels. */
  test_audio_tone (tone, 2000, 8000, 440.0, 9000.0);
  render = cs_audio_render_new_from_samples (8000, 1, 0, tone, 2000);
  player = cs_audio_player_new ();
  cs_audio_player_set_render (player, render);
  if (!cs_audio_player_play (player, &error))
    {
      g_test_skip (error->message);
      g_object_unref (player);
      return;
    }
  wait_until_stopped (player);
  g_assert_cmpint (cs_audio_player_get_state (player), ==, CS_AUDIO_PLAYER_STOPPED);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_position (player), 0.25, 1e-3);
  g_object_unref (player);

  file = sf_open (wav, SFM_READ, &info);
  g_assert_nonnull (file);
  got = g_new (gint16, 2 * info.frames);
  g_assert_cmpint (sf_readf_short (file, got, info.frames), ==, info.frames);
  sf_close (file);
  for (gsize i = 0; i < (gsize) info.frames; i++)
    if (ABS (got[2 * i]) > 300)
      {
        if (first == 0)
          first = i;
        last = i;
      }
  g_assert_cmpint ((gint64) (last - first), >=, 12000 - 60);
  g_assert_cmpint ((gint64) (last - first), <=, 12000 + 60);
  g_assert_cmpfloat_with_epsilon (test_audio_peak_hz (got + 2 * first, 9600, 2, RATE, 100, 3000),
                                  440.0, 2.0);
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz (got + 2 * first + 1, 9600, 2, RATE, 100, 3000), 440.0, 2.0);
  g_unlink (wav);
  g_unlink (conf);
  g_rmdir (dir);
}

static void
test_no_device (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *conf = NULL;
  g_autoptr (CsAudioRender) render = stereo_tones (4800);
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAudioPlayer) player = NULL;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }
  dir = g_dir_make_tmp ("cs-audio-XXXXXX", NULL);
  conf = write_alsa_config (dir, NULL);
  g_setenv ("ALSA_CONFIG_PATH", conf, TRUE);

  g_assert_false (cs_audio_player_probe_device (&error));
  g_assert_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "No audio output device"));
  g_assert_nonnull (strstr (error->message, "Export"));
  g_clear_error (&error);

  player = cs_audio_player_new ();
  cs_audio_player_set_render (player, render);
  g_assert_false (cs_audio_player_play (player, &error));
  g_assert_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_DEVICE);
  g_assert_cmpint (cs_audio_player_get_state (player), ==, CS_AUDIO_PLAYER_STOPPED);
  /* Seeking still works without a device (the waveform cursor follows it). */
  cs_audio_player_seek (player, 0.05);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_position (player), 0.05, 1e-4);
  cs_audio_player_seek (player, 99.0);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_position (player), 0.1, 1e-4);
  g_unlink (conf);
  g_rmdir (dir);
}

static void
test_controls_without_playing (void)
{
  g_autoptr (CsAudioPlayer) player = cs_audio_player_new ();
  g_autoptr (CsAudioRender) render = stereo_tones (RATE);
  g_autoptr (GError) error = NULL;

  /* Nothing set: nothing to play. */
  g_assert_false (cs_audio_player_play (player, &error));
  g_assert_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_MEDIA);
  cs_audio_player_set_render (player, render);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_duration (player), 1.0, 1e-9);
  cs_audio_player_set_volume (player, 0.25);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_volume (player), 0.25, 1e-4);
  cs_audio_player_set_volume (player, 7.0);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_volume (player), 1.0, 1e-9);
  g_object_set (player, "position", 0.75, NULL);
  g_assert_cmpfloat_with_epsilon (cs_audio_player_get_position (player), 0.75, 1e-4);
  g_assert_cmpint (cs_audio_player_get_position_ns (player), ==, 1000000000 + 750000000);
  cs_audio_player_stop (player);
  g_assert_cmpfloat (cs_audio_player_get_position (player), ==, 0.0);
  cs_audio_player_set_render (player, NULL);
  g_assert_cmpfloat (cs_audio_player_get_duration (player), ==, 0.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/audio/player/file-sink", test_plays_to_file_sink);
  g_test_add_func ("/audio/player/resamples", test_resamples_to_device);
  g_test_add_func ("/audio/player/no-device", test_no_device);
  g_test_add_func ("/audio/player/controls", test_controls_without_playing);
  return g_test_run ();
}

/* cs-audio-resample.h — band-limited sample-rate conversion with random access,
 * so a player can seek and an exporter can convert in one pass with the same code */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CsAudioResampler CsAudioResampler;

CsAudioResampler *cs_audio_resampler_new (guint in_rate, guint out_rate);
void cs_audio_resampler_free (CsAudioResampler *resampler);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsAudioResampler, cs_audio_resampler_free)

/* Output frames a whole input of n_in frames becomes. */
gsize cs_audio_resampler_output_frames (CsAudioResampler *resampler, gsize n_in);

/* Computes output frames [first_out, first_out + n_out) of the converted
 * signal. in has n_in frames of `channels` interleaved samples; out receives
 * n_out × channels samples scaled to −1..1. Frames beyond the input are 0. */
void cs_audio_resampler_process_float (CsAudioResampler *resampler, const gint16 *in, gsize n_in,
                                       guint channels, gsize first_out, float *out, gsize n_out);

/* The same into 16-bit samples (saturated). */
void cs_audio_resampler_process (CsAudioResampler *resampler, const gint16 *in, gsize n_in,
                                 guint channels, gsize first_out, gint16 *out, gsize n_out);

/* Converts a whole mono or interleaved buffer: GArray of gint16. */
GArray *cs_audio_resample_array (const GArray *in, guint channels, guint in_rate, guint out_rate);

G_END_DECLS

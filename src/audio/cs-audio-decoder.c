/* cs-audio-decoder.c — G.711 by table, G.722 (spandsp), G.729/G.729A (bcg729),
 * Opus (libopus) and L16 behind one interface */
#include "cs-audio-decoder.h"

#include <bcg729/decoder.h>
#include <opus.h>
#include <stddef.h>
#include <stdint.h>
/* spandsp's headers need stddef/stdint first */
#include <spandsp/telephony.h>

#include <spandsp/g722.h>

#include "cs-audio-error.h"
#include "cs-g711.h"

#define G729_FRAME_BYTES 10
#define G729_SID_BYTES 2
#define G729_FRAME_SAMPLES 80
#define OPUS_RATE 48000
#define OPUS_MAX_FRAME_SAMPLES 5760 /* 120 ms at 48 kHz, the longest Opus packet */

typedef enum
{
  FORMAT_PCMU,
  FORMAT_PCMA,
  FORMAT_G722,
  FORMAT_G729,
  FORMAT_OPUS,
  FORMAT_L16,
} Format;

struct _CsAudioDecoder
{
  Format format;
  guint sample_rate;
  guint channels; /* L16 only */
  g722_decode_state_t *g722;
  bcg729DecoderChannelContextStruct *g729;
  OpusDecoder *opus;
};

static const struct
{
  const char *encoding;
  Format format;
} known_encodings[] = {
  { "PCMU", FORMAT_PCMU }, { "PCMA", FORMAT_PCMA },  { "G722", FORMAT_G722 },
  { "G729", FORMAT_G729 }, { "G729A", FORMAT_G729 }, { "opus", FORMAT_OPUS },
  { "L16", FORMAT_L16 },
};

static const char *format_names[] = { "PCMU", "PCMA", "G722", "G729", "opus", "L16" };

static gboolean
lookup_format (const char *encoding, Format *format)
{
  if (encoding == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (known_encodings); i++)
    if (g_ascii_strcasecmp (encoding, known_encodings[i].encoding) == 0)
      {
        *format = known_encodings[i].format;
        return TRUE;
      }
  return FALSE;
}

gboolean
cs_audio_encoding_is_supported (const char *encoding)
{
  Format format;

  return lookup_format (encoding, &format);
}

CsAudioDecoder *
cs_audio_decoder_new (const char *encoding, guint clock_rate, guint channels, GError **error)
{
  CsAudioDecoder *decoder;
  Format format;
  int opus_error = OPUS_OK;

  if (!lookup_format (encoding, &format))
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_UNSUPPORTED,
                   "No decoder for the codec “%s”", encoding != NULL ? encoding : "(unknown)");
      return NULL;
    }
  decoder = g_new0 (CsAudioDecoder, 1);
  decoder->format = format;
  decoder->channels = 1;
  switch (format)
    {
    case FORMAT_PCMU:
    case FORMAT_PCMA:
    case FORMAT_G729:
      decoder->sample_rate = 8000;
      break;
    case FORMAT_G722:
      decoder->sample_rate = 16000; /* its RTP clock says 8000 (RFC 3551 §4.5.2) */
      decoder->g722 = g722_decode_init (NULL, 64000, 0);
      break;
    case FORMAT_OPUS:
      decoder->sample_rate = OPUS_RATE;
      decoder->opus = opus_decoder_create (OPUS_RATE, 1, &opus_error);
      break;
    case FORMAT_L16:
      decoder->sample_rate = clock_rate != 0 ? clock_rate : 44100;
      decoder->channels = CLAMP (channels, 1, 8);
      break;
    }
  if (format == FORMAT_G729)
    decoder->g729 = initBcg729DecoderChannel ();
  if ((format == FORMAT_G722 && decoder->g722 == NULL)
      || (format == FORMAT_G729 && decoder->g729 == NULL)
      || (format == FORMAT_OPUS && (decoder->opus == NULL || opus_error != OPUS_OK)))
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_UNSUPPORTED,
                   "The %s decoder could not be started", format_names[format]);
      cs_audio_decoder_free (decoder);
      return NULL;
    }
  return decoder;
}

void
cs_audio_decoder_free (CsAudioDecoder *decoder)
{
  if (decoder == NULL)
    return;
  if (decoder->g722 != NULL)
    g722_decode_free (decoder->g722);
  if (decoder->g729 != NULL)
    closeBcg729DecoderChannel (decoder->g729);
  if (decoder->opus != NULL)
    opus_decoder_destroy (decoder->opus);
  g_free (decoder);
}

guint
cs_audio_decoder_get_sample_rate (CsAudioDecoder *decoder)
{
  return decoder->sample_rate;
}

const char *
cs_audio_decoder_get_name (CsAudioDecoder *decoder)
{
  return format_names[decoder->format];
}

/* Grows out by n samples and returns where they go. */
static gint16 *
append_space (GArray *out, gsize n)
{
  guint old_len = out->len;

  g_array_set_size (out, old_len + (guint) n);
  return &g_array_index (out, gint16, old_len);
}

static gsize
decode_g729 (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  gsize frames = len / G729_FRAME_BYTES, rest = len % G729_FRAME_BYTES;
  gsize n = frames * G729_FRAME_SAMPLES + (rest == G729_SID_BYTES ? G729_FRAME_SAMPLES : 0);
  gint16 *pcm;

  /* Annex B: a 2-byte SID frame may follow the speech frames; other lengths are not G.729. */
  if (n == 0 || (rest != 0 && rest != G729_SID_BYTES))
    return 0;
  pcm = append_space (out, n);
  for (gsize f = 0; f < frames; f++)
    bcg729Decoder (decoder->g729, payload + f * G729_FRAME_BYTES, G729_FRAME_BYTES, 0, 0, 0,
                   pcm + f * G729_FRAME_SAMPLES);
  if (rest == G729_SID_BYTES)
    bcg729Decoder (decoder->g729, payload + frames * G729_FRAME_BYTES, G729_SID_BYTES, 0, 1, 0,
                   pcm + frames * G729_FRAME_SAMPLES);
  return n;
}

static gsize
decode_opus (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  int samples = opus_packet_get_nb_samples (payload, (opus_int32) len, OPUS_RATE);
  guint old_len = out->len;
  int decoded;

  if (len == 0 || len > G_MAXINT32 || samples <= 0 || samples > OPUS_MAX_FRAME_SAMPLES)
    return 0;
  decoded = opus_decode (decoder->opus, payload, (opus_int32) len, append_space (out, samples),
                         samples, 0);
  if (decoded <= 0)
    {
      g_array_set_size (out, old_len);
      return 0;
    }
  g_array_set_size (out, old_len + (guint) decoded);
  return (gsize) decoded;
}

static gsize
decode_l16 (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  guint channels = decoder->channels;
  gsize n = len / (2 * channels);
  gint16 *pcm;

  if (n == 0)
    return 0;
  pcm = append_space (out, n);
  for (gsize i = 0; i < n; i++)
    {
      gint32 sum = 0;

      for (guint c = 0; c < channels; c++)
        {
          const guint8 *b = payload + 2 * (i * channels + c);

          sum += (gint16) (guint16) ((b[0] << 8) | b[1]); /* network byte order */
        }
      pcm[i] = (gint16) (sum / (gint32) channels);
    }
  return n;
}

gsize
cs_audio_decoder_decode (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  gint16 *pcm;
  guint old_len;
  int n;

  if (payload == NULL || len == 0)
    return 0;
  switch (decoder->format)
    {
    case FORMAT_PCMU:
      cs_g711_ulaw_decode (payload, len, append_space (out, len));
      return len;
    case FORMAT_PCMA:
      cs_g711_alaw_decode (payload, len, append_space (out, len));
      return len;
    case FORMAT_G722:
      if (len > G_MAXINT / 2)
        return 0;
      old_len = out->len;
      pcm = append_space (out, 2 * len);
      n = g722_decode (decoder->g722, pcm, payload, (int) len);
      g_array_set_size (out, old_len + (guint) MAX (n, 0));
      return (gsize) MAX (n, 0);
    case FORMAT_G729:
      return decode_g729 (decoder, payload, len, out);
    case FORMAT_OPUS:
      return decode_opus (decoder, payload, len, out);
    case FORMAT_L16:
      return decode_l16 (decoder, payload, len, out);
    }
  return 0;
}

/* cs-audio-decoder.c — G.711 by table, G.722 and G.726 (spandsp), G.729/G.729A (bcg729),
 * GSM 06.10 (libgsm), AMR and AMR-WB (opencore-amr), Speex (libspeex), Opus (libopus) and L16
 * behind one interface */
#include "cs-audio-decoder.h"

#include <bcg729/decoder.h>
#include <opus.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* spandsp's headers need stddef/stdint first */
#include <spandsp/telephony.h>

#include <spandsp/g722.h>
#include <spandsp/g726.h>

#include <gsm.h>
#include <opencore-amrnb/interf_dec.h>
#include <opencore-amrwb/dec_if.h>
#include <speex/speex.h>

#include "cs-amr-payload.h"
#include "cs-audio-error.h"
#include "cs-g711.h"

#define G729_FRAME_BYTES 10
#define G729_SID_BYTES 2
#define G729_FRAME_SAMPLES 80
#define OPUS_RATE 48000
#define OPUS_MAX_FRAME_SAMPLES 5760 /* 120 ms at 48 kHz, the longest Opus packet */
#define GSM_FRAME_BYTES 33
#define GSM_FRAME_SAMPLES 160
#define SPEEX_MAX_FRAMES 16 /* frames read from one payload at most */

typedef enum
{
  FORMAT_PCMU,
  FORMAT_PCMA,
  FORMAT_G722,
  FORMAT_G729,
  FORMAT_OPUS,
  FORMAT_L16,
  FORMAT_GSM,
  FORMAT_G726,      /* RFC 3551 packing: first codeword in the low bits */
  FORMAT_AAL2_G726, /* I.366.2 (AAL2) packing: first codeword in the high bits */
  FORMAT_AMR,
  FORMAT_AMR_WB,
  FORMAT_SPEEX,
  FORMAT_ILBC, /* known, but no decoder is packaged: named in the error */
} Format;

struct _CsAudioDecoder
{
  Format format;
  guint sample_rate;
  guint channels; /* L16 only */
  g722_decode_state_t *g722;
  bcg729DecoderChannelContextStruct *g729;
  OpusDecoder *opus;
  gsm gsm;
  g726_state_t *g726;
  void *amr;              /* opencore-amrnb or -amrwb state */
  gboolean octet_aligned; /* RFC 4867 payload mode, from fmtp octet-align */
  void *speex;
  SpeexBits speex_bits;
  guint speex_frame;
};

static const struct
{
  const char *encoding;
  Format format;
} known_encodings[] = {
  { "PCMU", FORMAT_PCMU },
  { "PCMA", FORMAT_PCMA },
  { "G722", FORMAT_G722 },
  { "G729", FORMAT_G729 },
  { "G729A", FORMAT_G729 },
  { "opus", FORMAT_OPUS },
  { "L16", FORMAT_L16 },
  { "GSM", FORMAT_GSM },
  { "G726-16", FORMAT_G726 },
  { "G726-24", FORMAT_G726 },
  { "G726-32", FORMAT_G726 },
  { "G726-40", FORMAT_G726 },
  { "G721", FORMAT_G726 }, /* static type 2: G.726-32 in RFC 3551 packing */
  { "AAL2-G726-16", FORMAT_AAL2_G726 },
  { "AAL2-G726-24", FORMAT_AAL2_G726 },
  { "AAL2-G726-32", FORMAT_AAL2_G726 },
  { "AAL2-G726-40", FORMAT_AAL2_G726 },
  { "AMR", FORMAT_AMR },
  { "AMR-WB", FORMAT_AMR_WB },
  { "speex", FORMAT_SPEEX },
  { "iLBC", FORMAT_ILBC },
};

static const char *format_names[] = { "PCMU", "PCMA",      "G722", "G729",   "opus",  "L16", "GSM",
                                      "G726", "AAL2-G726", "AMR",  "AMR-WB", "speex", "iLBC" };

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

  return lookup_format (encoding, &format) && format != FORMAT_ILBC;
}

/* The bit rate of "G726-32", "AAL2-G726-16", "G721": the number after the last dash. */
static int
g726_bit_rate (const char *encoding)
{
  const char *dash = strrchr (encoding, '-');
  int kbit = dash != NULL ? atoi (dash + 1) : 32;

  return (kbit == 16 || kbit == 24 || kbit == 40 ? kbit : 32) * 1000;
}

/* Speex's mode by its RTP clock (RFC 5574): 8000 narrowband, 16000 wide, 32000 ultra-wide. */
static const SpeexMode *
speex_mode_for (guint clock_rate, guint *rate)
{
  *rate = clock_rate == 16000 || clock_rate == 32000 ? clock_rate : 8000;
  return speex_lib_get_mode (*rate == 32000   ? SPEEX_MODEID_UWB
                             : *rate == 16000 ? SPEEX_MODEID_WB
                                              : SPEEX_MODEID_NB);
}

/* The libraries behind the formats that need a state; FALSE when one would not start. */
static gboolean
start_library (CsAudioDecoder *decoder, const char *encoding, guint clock_rate)
{
  int opus_error = OPUS_OK;

  switch (decoder->format)
    {
    case FORMAT_G722:
      decoder->g722 = g722_decode_init (NULL, 64000, 0);
      return decoder->g722 != NULL;
    case FORMAT_G729:
      decoder->g729 = initBcg729DecoderChannel ();
      return decoder->g729 != NULL;
    case FORMAT_OPUS:
      decoder->opus = opus_decoder_create (OPUS_RATE, 1, &opus_error);
      return decoder->opus != NULL && opus_error == OPUS_OK;
    case FORMAT_GSM:
      decoder->gsm = gsm_create ();
      return decoder->gsm != NULL;
    case FORMAT_G726:
    case FORMAT_AAL2_G726:
      /* spandsp's names, as Wireshark uses them: RIGHT for RFC 3551, LEFT for AAL2 */
      decoder->g726
          = g726_init (NULL, g726_bit_rate (encoding), G726_ENCODING_LINEAR,
                       decoder->format == FORMAT_G726 ? G726_PACKING_RIGHT : G726_PACKING_LEFT);
      return decoder->g726 != NULL;
    case FORMAT_AMR:
      decoder->amr = Decoder_Interface_init ();
      return decoder->amr != NULL;
    case FORMAT_AMR_WB:
      decoder->amr = D_IF_init ();
      return decoder->amr != NULL;
    case FORMAT_SPEEX:
      {
        int frame = 0;

        decoder->speex = speex_decoder_init (speex_mode_for (clock_rate, &decoder->sample_rate));
        if (decoder->speex == NULL)
          return FALSE;
        speex_bits_init (&decoder->speex_bits);
        speex_decoder_ctl (decoder->speex, SPEEX_GET_FRAME_SIZE, &frame);
        decoder->speex_frame = (guint) CLAMP (frame, 1, 640);
        return TRUE;
      }
    default:
      return TRUE;
    }
}

CsAudioDecoder *
cs_audio_decoder_new (const char *encoding, guint clock_rate, guint channels, GError **error)
{
  return cs_audio_decoder_new_with_fmtp (encoding, clock_rate, channels, NULL, error);
}

CsAudioDecoder *
cs_audio_decoder_new_with_fmtp (const char *encoding, guint clock_rate, guint channels,
                                const char *fmtp, GError **error)
{
  CsAudioDecoder *decoder;
  Format format;

  if (!lookup_format (encoding, &format))
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_UNSUPPORTED,
                   "No decoder for the codec “%s”", encoding != NULL ? encoding : "(unknown)");
      return NULL;
    }
  if (format == FORMAT_ILBC)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_UNSUPPORTED,
                   "No decoder for iLBC: no iLBC library is packaged for Debian, so this stream "
                   "cannot be played or exported");
      return NULL;
    }
  decoder = g_new0 (CsAudioDecoder, 1);
  decoder->format = format;
  decoder->channels = 1;
  decoder->sample_rate = 8000;
  switch (format)
    {
    case FORMAT_G722:
      decoder->sample_rate = 16000; /* its RTP clock says 8000 (RFC 3551 §4.5.2) */
      break;
    case FORMAT_OPUS:
      decoder->sample_rate = OPUS_RATE;
      break;
    case FORMAT_L16:
      decoder->sample_rate = clock_rate != 0 ? clock_rate : 44100;
      decoder->channels = CLAMP (channels, 1, 8);
      break;
    case FORMAT_AMR_WB:
      decoder->sample_rate = 16000;
      decoder->octet_aligned = cs_amr_fmtp_octet_aligned (fmtp);
      break;
    case FORMAT_AMR:
      decoder->octet_aligned = cs_amr_fmtp_octet_aligned (fmtp);
      break;
    default:
      break;
    }
  if (!start_library (decoder, encoding, clock_rate))
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
  if (decoder->gsm != NULL)
    gsm_destroy (decoder->gsm);
  if (decoder->g726 != NULL)
    g726_free (decoder->g726);
  if (decoder->amr != NULL && decoder->format == FORMAT_AMR)
    Decoder_Interface_exit (decoder->amr);
  if (decoder->amr != NULL && decoder->format == FORMAT_AMR_WB)
    D_IF_exit (decoder->amr);
  if (decoder->speex != NULL)
    {
      speex_bits_destroy (&decoder->speex_bits);
      speex_decoder_destroy (decoder->speex);
    }
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

/* 33-byte frames of 160 samples; a payload of another length is not GSM 06.10. */
static gsize
decode_gsm (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  gsize frames = len / GSM_FRAME_BYTES;
  gint16 *pcm;

  if (frames == 0 || len % GSM_FRAME_BYTES != 0)
    return 0;
  pcm = append_space (out, frames * GSM_FRAME_SAMPLES);
  for (gsize f = 0; f < frames; f++)
    if (gsm_decode (decoder->gsm, (gsm_byte *) payload + f * GSM_FRAME_BYTES,
                    pcm + f * GSM_FRAME_SAMPLES)
        != 0)
      memset (pcm + f * GSM_FRAME_SAMPLES, 0, GSM_FRAME_SAMPLES * sizeof (gint16));
  return frames * GSM_FRAME_SAMPLES;
}

static gsize
decode_g726 (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  /* at most 8 samples per byte (16 kbit/s) */
  guint old_len = out->len;
  int n;

  if (len > G_MAXINT / 8)
    return 0;
  n = g726_decode (decoder->g726, append_space (out, 8 * len), payload, (int) len);
  g_array_set_size (out, old_len + (guint) MAX (n, 0));
  return (gsize) MAX (n, 0);
}

static gsize
decode_amr (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  gboolean wideband = decoder->format == FORMAT_AMR_WB;
  guint per_frame = wideband ? 320 : 160;
  CsAmrFrames *frames = g_new (CsAmrFrames, 1);
  gsize n = 0;

  if (cs_amr_payload_split (wideband, decoder->octet_aligned, payload, len, frames))
    {
      gint16 *pcm = append_space (out, (gsize) frames->n_frames * per_frame);

      for (guint f = 0; f < frames->n_frames; f++)
        {
          if (wideband)
            D_IF_decode (decoder->amr, frames->frames[f], pcm + f * per_frame, 0);
          else
            Decoder_Interface_Decode (decoder->amr, frames->frames[f], pcm + f * per_frame, 0);
        }
      n = (gsize) frames->n_frames * per_frame;
    }
  g_free (frames);
  return n;
}

static gsize
decode_speex (CsAudioDecoder *decoder, const guint8 *payload, gsize len, GArray *out)
{
  guint old_len = out->len;
  gsize n = 0;

  if (len > G_MAXINT)
    return 0;
  speex_bits_read_from (&decoder->speex_bits, (const char *) payload, (int) len);
  /* several frames may share a payload; a terminator or too few bits ends it */
  for (guint f = 0; f < SPEEX_MAX_FRAMES && speex_bits_remaining (&decoder->speex_bits) >= 5; f++)
    {
      gint16 *pcm = append_space (out, decoder->speex_frame);

      if (speex_decode_int (decoder->speex, &decoder->speex_bits, pcm) != 0)
        {
          g_array_set_size (out, old_len + (guint) n);
          break;
        }
      n += decoder->speex_frame;
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
    case FORMAT_GSM:
      return decode_gsm (decoder, payload, len, out);
    case FORMAT_G726:
    case FORMAT_AAL2_G726:
      return decode_g726 (decoder, payload, len, out);
    case FORMAT_AMR:
    case FORMAT_AMR_WB:
      return decode_amr (decoder, payload, len, out);
    case FORMAT_SPEEX:
      return decode_speex (decoder, payload, len, out);
    case FORMAT_ILBC:
      return 0;
    }
  return 0;
}

/* gen-codecs.c — GSM, G.726 (both packings), AMR and AMR-WB (both payload formats) and Speex
 * payloads of a pure tone, encoded by the reference libraries */
#include "gen-codecs.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* spandsp's headers need stddef/stdint first */
#include <spandsp/telephony.h>

#include <gsm.h>
#include <opencore-amrnb/interf_enc.h>
#include <spandsp/g726.h>
#include <speex/speex.h>
#include <vo-amrwbenc/enc_if.h>

#define AMR_OA "octet-align=1"

static const GenCodec codecs[] = {
  { "codec-gsm", "GSM", NULL, 3, 8000, 697.0 },
  { "codec-g726-16", "G726-16", NULL, 97, 8000, 770.0 },
  { "codec-g726-24", "G726-24", NULL, 97, 8000, 852.0 },
  { "codec-g726-32", "G726-32", NULL, 97, 8000, 941.0 },
  { "codec-g726-40", "G726-40", NULL, 97, 8000, 1209.0 },
  { "codec-aal2-g726-16", "AAL2-G726-16", NULL, 98, 8000, 1336.0 },
  { "codec-aal2-g726-24", "AAL2-G726-24", NULL, 98, 8000, 1477.0 },
  { "codec-aal2-g726-32", "AAL2-G726-32", NULL, 98, 8000, 1633.0 },
  { "codec-aal2-g726-40", "AAL2-G726-40", NULL, 98, 8000, 600.0 },
  { "codec-amr-octet", "AMR", AMR_OA, 96, 8000, 750.0 },
  { "codec-amr-efficient", "AMR", NULL, 96, 8000, 650.0 },
  { "codec-amr-wb-octet", "AMR-WB", AMR_OA, 99, 16000, 1250.0 },
  { "codec-amr-wb-efficient", "AMR-WB", NULL, 99, 16000, 1050.0 },
  { "codec-speex-nb", "speex", NULL, 100, 8000, 800.0 },
  { "codec-speex-wb", "speex", NULL, 100, 16000, 1500.0 },
};

struct _GenCodecEncoder
{
  const GenCodec *codec;
  gsm gsm;
  g726_state_t *g726;
  void *amr;
  void *speex;
  SpeexBits bits;
};

const GenCodec *
gen_codec_list (guint *n)
{
  *n = G_N_ELEMENTS (codecs);
  return codecs;
}

const GenCodec *
gen_codec_find (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (codecs); i++)
    if (strcmp (codecs[i].name, name) == 0)
      return &codecs[i];
  return NULL;
}

guint
gen_codec_samples_per_packet (const GenCodec *codec)
{
  return codec->clock / 50;
}

static gboolean
is_amr (const GenCodec *c)
{
  return g_str_has_prefix (c->encoding, "AMR");
}

GenCodecEncoder *
gen_codec_encoder_new (const GenCodec *codec)
{
  GenCodecEncoder *e = g_new0 (GenCodecEncoder, 1);
  const char *dash = strrchr (codec->encoding, '-');

  e->codec = codec;
  if (strcmp (codec->encoding, "GSM") == 0)
    e->gsm = gsm_create ();
  else if (strstr (codec->encoding, "G726") != NULL)
    e->g726 = g726_init (NULL, atoi (dash + 1) * 1000, G726_ENCODING_LINEAR,
                         g_str_has_prefix (codec->encoding, "AAL2") ? G726_PACKING_LEFT
                                                                    : G726_PACKING_RIGHT);
  else if (strcmp (codec->encoding, "AMR") == 0)
    e->amr = Encoder_Interface_init (0);
  else if (strcmp (codec->encoding, "AMR-WB") == 0)
    e->amr = E_IF_init ();
  else
    {
      int quality = 8;

      e->speex = speex_encoder_init (
          speex_lib_get_mode (codec->clock == 16000 ? SPEEX_MODEID_WB : SPEEX_MODEID_NB));
      speex_encoder_ctl (e->speex, SPEEX_SET_QUALITY, &quality);
      speex_bits_init (&e->bits);
    }
  return e;
}

void
gen_codec_encoder_free (GenCodecEncoder *e)
{
  if (e == NULL)
    return;
  if (e->gsm != NULL)
    gsm_destroy (e->gsm);
  if (e->g726 != NULL)
    g726_free (e->g726);
  if (e->amr != NULL && strcmp (e->codec->encoding, "AMR") == 0)
    Encoder_Interface_exit (e->amr);
  else if (e->amr != NULL)
    E_IF_exit (e->amr);
  if (e->speex != NULL)
    {
      speex_bits_destroy (&e->bits);
      speex_encoder_destroy (e->speex);
    }
  g_free (e);
}

/* One storage-format AMR frame (header byte, speech bits) as an RFC 4867 payload. */
static gsize
amr_payload (const GenCodec *c, const guint8 *frame, gsize frame_len, guint8 *out)
{
  guint ft = (frame[0] >> 3) & 0x0f, q = (frame[0] >> 2) & 1;
  gsize speech_bytes = frame_len - 1, pos = 0;

  if (c->fmtp != NULL)
    {
      /* CMR 15 (no request), one TOC entry, the frame's bytes */
      out[0] = 0xf0;
      out[1] = (guint8) (ft << 3 | q << 2);
      memcpy (out + 2, frame + 1, speech_bytes);
      return 2 + speech_bytes;
    }
  /* bandwidth-efficient: CMR (4 bits), F, FT, Q (6 bits), then the speech bits */
  memset (out, 0, 2 + speech_bytes);
  for (guint b = 0; b < 4; b++, pos++)
    out[pos / 8] |= (guint8) (1u << (7 - pos % 8)); /* CMR 15 */
  pos++;                                            /* F = 0 */
  for (guint b = 0; b < 4; b++, pos++)
    out[pos / 8] |= (guint8) (((ft >> (3 - b)) & 1) << (7 - pos % 8));
  out[pos / 8] |= (guint8) (q << (7 - pos % 8));
  pos++;
  for (gsize b = 0; b < speech_bytes * 8; b++, pos++)
    out[pos / 8] |= (guint8) (((frame[1 + b / 8] >> (7 - b % 8)) & 1) << (7 - pos % 8));
  return (pos + 7) / 8;
}

gsize
gen_codec_encode (GenCodecEncoder *e, guint64 pos, guint8 *out, gsize max)
{
  const GenCodec *c = e->codec;
  guint n = gen_codec_samples_per_packet (c);
  gint16 pcm[320];
  guint8 frame[128];
  int len;

  for (guint i = 0; i < n; i++)
    pcm[i]
        = (gint16) lrint (8000.0 * sin (2.0 * G_PI * c->tone_hz * (double) (pos + i) / c->clock));
  if (e->gsm != NULL)
    {
      gsm_encode (e->gsm, pcm, out);
      return 33;
    }
  if (e->g726 != NULL)
    return (gsize) g726_encode (e->g726, out, pcm, (int) n);
  if (e->amr != NULL && is_amr (c))
    {
      len = strcmp (c->encoding, "AMR") == 0
                ? Encoder_Interface_Encode (e->amr, MR122, pcm, frame, 0)
                : E_IF_encode (e->amr, 8, pcm, frame, 0);
      g_assert (len > 1 && (gsize) len + 2 <= max);
      return amr_payload (c, frame, (gsize) len, out);
    }
  speex_bits_reset (&e->bits);
  speex_encode_int (e->speex, pcm, &e->bits);
  return (gsize) speex_bits_write (&e->bits, (char *) out, (int) max);
}

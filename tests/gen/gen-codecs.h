/* gen-codecs.h — RTP payloads in the codecs real networks use, encoded from a known tone with
 * the same libraries the decoders come from (libgsm, spandsp, opencore-amr, vo-amrwbenc,
 * libspeex), so a test can find the tone again in the exported audio */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *name;     /* scenario name: "codec-gsm" */
  const char *encoding; /* rtpmap encoding: "GSM" */
  const char *fmtp;     /* a=fmtp parameters, or NULL */
  guint8 pt;
  guint clock;    /* RTP clock (and audio sample rate) */
  double tone_hz; /* the sine each packet carries */
} GenCodec;

typedef struct _GenCodecEncoder GenCodecEncoder;

const GenCodec *gen_codec_list (guint *n);
const GenCodec *gen_codec_find (const char *name);
GenCodecEncoder *gen_codec_encoder_new (const GenCodec *codec);
void gen_codec_encoder_free (GenCodecEncoder *encoder);
/* Samples in one 20 ms packet. */
guint gen_codec_samples_per_packet (const GenCodec *codec);
/* The payload of the 20 ms of tone starting at absolute sample pos; returns its length. */
gsize gen_codec_encode (GenCodecEncoder *encoder, guint64 pos, guint8 *out, gsize max);

G_END_DECLS

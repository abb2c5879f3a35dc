/* cs-amr-payload.c — RFC 4867 §4.3 (bandwidth-efficient) and §4.4 (octet-aligned) payloads:
 * CMR, the table of contents, then the frames, read bit by bit within bounds */
#include "cs-amr-payload.h"

#include <string.h>

/* 3GPP TS 26.101 Table 1a and TS 26.201 Table 2: class A+B+C bits per frame type. */
static const gint16 nb_bits[16]
    = { 95, 103, 118, 134, 148, 159, 204, 244, 39, 0, 0, 0, 0, 0, -1, 0 };
static const gint16 wb_bits[16]
    = { 132, 177, 253, 285, 317, 365, 397, 461, 477, 40, 0, 0, 0, 0, 0, 0 };

gint
cs_amr_frame_bits (gboolean wideband, guint ft)
{
  if (ft > 15)
    return -1;
  /* reserved types 9..14 (NB) and 10..13 (WB) are not sent */
  if ((!wideband && ft >= 9 && ft <= 14) || (wideband && ft >= 10 && ft <= 13))
    return -1;
  return wideband ? wb_bits[ft] : nb_bits[ft];
}

/* Reads n bits (n <= 8) from a big-endian bit string. */
typedef struct
{
  const guint8 *data;
  gsize bits;
  gsize pos;
} BitReader;

static gboolean
bits_read (BitReader *r, guint n, guint *out)
{
  guint v = 0;

  if (r->bits - r->pos < n)
    return FALSE;
  for (guint i = 0; i < n; i++, r->pos++)
    v = (v << 1) | ((r->data[r->pos / 8] >> (7 - r->pos % 8)) & 1);
  *out = v;
  return TRUE;
}

gboolean
cs_amr_payload_split (gboolean wideband, gboolean octet_aligned, const guint8 *payload, gsize len,
                      CsAmrFrames *out)
{
  BitReader r = { payload, len * 8, 0 };
  guint cmr, toc[CS_AMR_MAX_FRAMES], n = 0, follow = 1;

  memset (out, 0, sizeof *out);
  if (payload == NULL || len == 0 || !bits_read (&r, octet_aligned ? 8 : 4, &cmr))
    return FALSE;
  /* the table of contents: F (more follow), FT, Q; padded to a byte when octet-aligned */
  while (follow)
    {
      guint entry;

      if (n == CS_AMR_MAX_FRAMES || !bits_read (&r, octet_aligned ? 8 : 6, &entry))
        return FALSE;
      if (octet_aligned)
        entry >>= 2;
      follow = entry >> 5;
      toc[n++] = entry & 0x1f; /* FT and Q */
      if (cs_amr_frame_bits (wideband, toc[n - 1] >> 1) < 0)
        return FALSE;
    }
  for (guint f = 0; f < n; f++)
    {
      guint ft = toc[f] >> 1, q = toc[f] & 1;
      gint nbits = cs_amr_frame_bits (wideband, ft);
      guint8 *frame = out->frames[f];

      frame[0] = (guint8) (ft << 3 | q << 2);
      for (gint b = 0; b < nbits; b++)
        {
          guint bit;

          if (!bits_read (&r, 1, &bit))
            return FALSE;
          frame[1 + b / 8] |= (guint8) (bit << (7 - b % 8));
        }
      if (octet_aligned && r.pos % 8 != 0)
        r.pos += 8 - r.pos % 8; /* each frame is padded to a byte */
    }
  out->n_frames = n;
  return TRUE;
}

gboolean
cs_amr_fmtp_octet_aligned (const char *fmtp)
{
  g_auto (GStrv) params = NULL;

  if (fmtp == NULL)
    return FALSE;
  params = g_strsplit_set (fmtp, "; ", -1);
  for (guint i = 0; params[i] != NULL; i++)
    if (g_ascii_strcasecmp (params[i], "octet-align=1") == 0)
      return TRUE;
  return FALSE;
}

/* gen-rtp.h — RTP streams carrying G.711 tones, with loss, jitter and DTMF */
#pragma once

#include "gen-audio.h"
#include "gen-codecs.h"
#include "gen-capture.h"
#include "gen-expect.h"
#include "gen-srtp.h"

G_BEGIN_DECLS

#define GEN_RTP_PTIME GEN_MS (20)
#define GEN_PT_TELEPHONE_EVENT 101

typedef struct
{
  double loss_burst_start; /* chance per packet that a loss burst starts */
  guint loss_burst_max;    /* a burst loses 1..max packets */
  double jitter_share;     /* share of packets delayed by jitter_min..max */
  gint64 jitter_min_ns;
  gint64 jitter_max_ns;
  guint duplicates; /* packets sent twice */
  guint reorders;   /* adjacent pairs that arrive swapped */
} GenRtpImpair;

typedef struct
{
  GenCapture *cap;
  CsEndpoint src;
  CsEndpoint dst;
  guint32 ssrc;
  guint8 pt;
  guint16 seq0;
  guint32 ts0;
  gint64 next_index; /* unwrapped sequence offset of the next packet */
  gint64 origin_ns;  /* the instant RTP timestamp ts0 stands for */
  GenTone tone;
  gboolean marker_pending;
  GenExpectStream *expect;
  const GenCodec *codec;    /* NULL: G.711 (pt 0 or 8) of tone */
  GenCodecEncoder *encoder; /* made on the first packet; gen_rtp_stream_clear frees it */
  GenSrtp *srtp;            /* packets leave as SRTP; gen_rtp_stream_clear frees it */
} GenRtpStream;

/* Frees what the stream holds (the codec's encoder). */
void gen_rtp_stream_clear (GenRtpStream *s);

/* A new stream with random SSRC, sequence and timestamp bases; origin_ns is
 * its first send time. */
void gen_rtp_stream_init (GenRtpStream *s, GenCapture *cap, const CsEndpoint *src,
                          const CsEndpoint *dst, guint8 pt, GenTone tone, gint64 origin_ns,
                          gboolean associated);
/* The same SSRC and sequence continue on new addresses: a new stream identity. */
void gen_rtp_stream_move (GenRtpStream *s, const CsEndpoint *src, const CsEndpoint *dst);
/* Audio every 20 ms in [start, start + duration); returns the next send time. */
gint64 gen_rtp_send_audio (GenRtpStream *s, gint64 start, gint64 duration,
                           const GenRtpImpair *impair);
/* One audio packet of sequence offset index (next_index counts them), its timestamp that of
 * send_ns, captured at arrival_ns exactly (no scheduling noise); returns its packet id. */
guint gen_rtp_send_audio_packet (GenRtpStream *s, gint64 index, gint64 send_ns, gint64 arrival_ns,
                                 gboolean duplicate);
/* An RFC 4733 event of n_packets updates plus three end packets; returns the
 * next send time. The event packets are listed in dtmf when not NULL. */
gint64 gen_rtp_send_dtmf (GenRtpStream *s, gint64 start, char digit, guint n_packets,
                          GenExpectDtmf *dtmf);

G_END_DECLS

/* cs-jitter-buffer.h — receiver jitter-buffer emulation, one implementation shared
 * by MOS (loss after the buffer) and audio playout (which packets are heard) */
#pragma once

#include <glib.h>
#include <math.h>

#include "rtp/cs-rtp.h"

G_BEGIN_DECLS

typedef enum
{
  CS_JITTER_BUFFER_OFF,      /* infinite buffer: only network loss counts */
  CS_JITTER_BUFFER_FIXED,    /* playout = talkspurt anchor + timestamp offset + delay_ms */
  CS_JITTER_BUFFER_ADAPTIVE, /* like fixed, delay re-chosen at each talkspurt from jitter */
} CsJitterBufferKind;

#define CS_JITTER_BUFFER_DEFAULT_DELAY_MS 50
#define CS_JITTER_BUFFER_DEFAULT_MAX_DELAY_MS 200

typedef struct
{
  CsJitterBufferKind kind;
  guint delay_ms;     /* fixed delay; the adaptive buffer's starting delay */
  guint max_delay_ms; /* adaptive ceiling; 0 = default */
} CsJitterBufferConfig;

/* Fixed, 50 ms (the documented default for MOS). */
void cs_jitter_buffer_config_init_default (CsJitterBufferConfig *cfg);

typedef struct
{
  guint32 expected;       /* extended seq range of the stream */
  guint32 received;       /* distinct sequence numbers received */
  guint32 lost_network;   /* expected − received */
  guint32 discarded_late; /* arrived after their playout time */
  guint32 duplicates;
  guint32 played;            /* received − discarded_late */
  double effective_loss_pct; /* (expected − played) / expected × 100 */
  guint32 max_burst;         /* longest run of consecutive unplayed sequence numbers */
  double burst_ratio;        /* ITU-T G.113 BurstR: mean burst / mean burst under random loss */
  guint8 media_payload_type; /* the payload type judged (most frequent) */
} CsJitterBufferResult;

typedef enum
{
  CS_JITTER_BUFFER_PLAYED,
  CS_JITTER_BUFFER_LATE,
  CS_JITTER_BUFFER_DUPLICATE,
  CS_JITTER_BUFFER_AUX, /* another payload type (CN, telephone-event): passed through */
} CsJitterBufferVerdict;

/* The payload type the buffer judges: the most frequent one; on a tie the first packet's,
 * else the lowest. */
guint8 cs_jitter_buffer_media_payload_type (const CsRtpPacket *packets, gsize n);

void cs_jitter_buffer_emulate (const CsRtpPacket *packets, gsize n, guint clock_rate,
                               const CsJitterBufferConfig *cfg, CsJitterBufferResult *out);

/* Same, and verdicts[i] (a CsJitterBufferVerdict) for every packet when verdicts != NULL. */
void cs_jitter_buffer_emulate_verdicts (const CsRtpPacket *packets, gsize n, guint clock_rate,
                                        const CsJitterBufferConfig *cfg, guint8 *verdicts,
                                        CsJitterBufferResult *out);

/* Same, judging media_pt (as cs_jitter_buffer_media_payload_type would find it). */
void cs_jitter_buffer_emulate_media (const CsRtpPacket *packets, gsize n, guint8 media_pt,
                                     guint clock_rate, const CsJitterBufferConfig *cfg,
                                     guint8 *verdicts, CsJitterBufferResult *out);

/* The same emulation a packet at a time, for a pass that already tells each packet's extended
 * sequence number and whether it is a duplicate (the stream measurement feeds it from its
 * stats pass instead of walking the packets again). */

typedef struct
{
  guint32 lo, hi;
} CsJitterBufferRun;

/* What the usual packet reads and changes, apart so that a loop can keep it in registers. */
typedef struct
{
  gint64 ts_ref, anchor_ts; /* extended timestamps: the last judged packet's, the anchor's */
  double clock_hz, anchor_ms, delay_ms, pending_delay_ms;
  guint32 run_lo, run_hi; /* the played run being extended; run_hi G_MAXUINT32 before any */
  guint32 received, discarded_late;
  guint late_run;
  gboolean anchored;
} CsJitterBufferHot;

typedef struct
{
  CsJitterBufferHot hot;
  CsJitterBufferKind kind;
  gboolean judge_lateness, started, have_run, have_transit;
  guint8 media_pt;
  guint32 min_ext, max_ext, duplicates;
  gint64 first_arrival_ns;
  double max_delay_ms, jitter_ms, prev_transit_ms;
  /* the played runs before the current one: local, or a heap copy once local is full */
  CsJitterBufferRun *runs;
  guint n_runs, runs_cap;
  gboolean runs_sorted; /* every run starts after the previous one ended */
  CsJitterBufferRun local_runs[32];
} CsJitterBuffer;

/* Ready for the first packet; cfg NULL = the default. The buffer must not be moved. */
void cs_jitter_buffer_init (CsJitterBuffer *jb, guint8 media_pt, guint clock_rate,
                            const CsJitterBufferConfig *cfg);
/* One packet in capture order: ext is its extended sequence number (the first packet's
 * 0x10000 + seq, then cs_rtp_extend_seq against the highest so far), duplicate whether that
 * number was seen in the last 65536. */
CsJitterBufferVerdict cs_jitter_buffer_feed (CsJitterBuffer *jb, const CsRtpPacket *p, guint32 ext,
                                             gboolean duplicate);
/* The result of the packets fed so far. */
void cs_jitter_buffer_finish (CsJitterBuffer *jb, CsJitterBufferResult *out);
/* Frees what the buffer holds. */
void cs_jitter_buffer_clear (CsJitterBuffer *jb);
/* Starts a new played run at ext (out of line: a clean stream is one run). */
void cs_jitter_buffer_new_run (CsJitterBuffer *jb, CsJitterBufferHot *hot, guint32 ext);

/* A buffer cs_jitter_buffer_feed_next may be fed by: started, not adaptive. */
static inline gboolean
cs_jitter_buffer_can_feed_next (const CsJitterBuffer *jb)
{
  return jb->started && jb->kind != CS_JITTER_BUFFER_ADAPTIVE;
}

/* A buffer that ran dry for this many packets in a row restarts playout. */
#define CS_JITTER_BUFFER_RESYNC_PACKETS 5
/* A packet due this much later than (arrival + delay) is a timestamp jump. */
#define CS_JITTER_BUFFER_JUMP_MS 1000.0
#define CS_JITTER_BUFFER_ADAPTIVE_MIN_DELAY_MS 20.0

/* Whether a packet of the media payload type comes too late for its playout time, re-anchoring
 * playout as receivers do; arrival_ms counts from the first packet's arrival as
 * (double) (arrival_ns − first_arrival_ns) / 1e6. adaptive: the buffer is adaptive (inline so
 * that a loop over usual packets drops that code). */
static inline gboolean
cs_jitter_buffer_judge (CsJitterBuffer *jb, CsJitterBufferHot *h, const CsRtpPacket *p,
                        double arrival_ms, gboolean adaptive)
{
  gint64 ts = h->ts_ref + (gint32) (p->timestamp - (guint32) h->ts_ref);
  double since_anchor_ms, due_ms;

  h->ts_ref = ts;
  /* Only the adaptive buffer reads the jitter estimate. */
  if (adaptive)
    {
      double transit_ms = arrival_ms - (double) ts * 1000.0 / h->clock_hz;

      if (jb->have_transit)
        jb->jitter_ms += (fabs (transit_ms - jb->prev_transit_ms) - jb->jitter_ms) / 16.0;
      jb->prev_transit_ms = transit_ms;
      jb->have_transit = TRUE;
    }
  /* ms of media since the anchor; the jump test negates it (exactly) for the ms the
   * timestamp went back */
  since_anchor_ms = (double) (ts - h->anchor_ts) * 1000.0 / h->clock_hz;
  due_ms = h->anchor_ms + since_anchor_ms + h->delay_ms; /* read only once anchored */
  /* Talkspurt starts, underruns and timestamp jumps re-anchor playout, as receivers do. */
  if (!h->anchored || (p->flags & CS_RTP_FLAG_MARKER)
      || h->late_run >= CS_JITTER_BUFFER_RESYNC_PACKETS
      || -since_anchor_ms > CS_JITTER_BUFFER_JUMP_MS
      || due_ms - arrival_ms > h->delay_ms + CS_JITTER_BUFFER_JUMP_MS)
    {
      if (adaptive)
        h->delay_ms = CLAMP (MAX (h->pending_delay_ms, 4.0 * jb->jitter_ms),
                             CS_JITTER_BUFFER_ADAPTIVE_MIN_DELAY_MS, jb->max_delay_ms);
      h->anchor_ms = arrival_ms;
      h->anchor_ts = ts;
      h->anchored = TRUE;
      h->late_run = 0;
      return FALSE;
    }
  if (arrival_ms > due_ms + 1e-9)
    {
      h->late_run++;
      /* The adaptive buffer grows by what it missed, from the next talkspurt. */
      h->pending_delay_ms = MAX (h->pending_delay_ms, h->delay_ms + (arrival_ms - due_ms));
      return TRUE;
    }
  h->late_run = 0;
  return FALSE;
}

/* Counts a received packet (not a duplicate; the caller counts it received) as played or
 * late. */
static inline void
cs_jitter_buffer_play (CsJitterBuffer *jb, CsJitterBufferHot *h, guint32 ext, gboolean late)
{
  if (late)
    h->discarded_late++;
  else if (ext == h->run_hi + 1 && ext > h->run_hi)
    h->run_hi = ext;
  else
    cs_jitter_buffer_new_run (jb, h, ext);
}

/* cs_jitter_buffer_feed for the packet right after the highest so far (ext = max_ext + 1; the
 * caller sets max_ext and adds the packets to hot.received afterwards) in a buffer
 * cs_jitter_buffer_can_feed_next accepts, with hot a copy the caller keeps and writes back;
 * arrival_ms as for cs_jitter_buffer_judge, judge = judge_lateness and the packet's payload type is
 * the media's. */
static inline void
cs_jitter_buffer_feed_next (CsJitterBuffer *jb, CsJitterBufferHot *h, const CsRtpPacket *p,
                            guint32 ext, double arrival_ms, gboolean judge)
{
  cs_jitter_buffer_play (jb, h, ext, judge && cs_jitter_buffer_judge (jb, h, p, arrival_ms, FALSE));
}

G_END_DECLS

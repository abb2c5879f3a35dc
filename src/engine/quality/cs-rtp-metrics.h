/* cs-rtp-metrics.h — RTP stream statistics, computed exactly as Wireshark's
 * rtppacket_analyse() (TShark 4.0 `-z rtp,streams`) does. Pure functions: the
 * GUI, the CLI and the tests get the same numbers from the same packets. */
#pragma once

#include <glib.h>

#include "cs-jitter-buffer.h"
#include "rtp/cs-rtp-clock-map.h"
#include "rtp/cs-rtp.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 packets;  /* received */
  guint32 expected; /* extended last seq − first seq + 1 (Wireshark's definition) */
  gint32 lost;      /* expected − packets (negative with duplicates) */
  guint32 duplicates, out_of_order, sequence_errors;
  guint32 marker_packets, payload_type_changes, comfort_noise_packets, telephone_event_packets;
  guint32 wrong_timestamp_packets;
  double min_delta_ms, mean_delta_ms, max_delta_ms; /* 0 when no packet qualified */
  guint32 max_delta_frame;                          /* frame at which the max delta was observed */
  double min_jitter_ms, mean_jitter_ms, max_jitter_ms; /* 0 when no packet qualified */
  double last_jitter_ms;
  double max_skew_ms, last_skew_ms; /* Wireshark's skew: nominal (timestamps) − arrival */
  double clock_drift_ms, clock_drift_ppm;
  double mean_bitrate_kbps; /* RTP payload bits / (last − first arrival) */
  guint clock_rate;         /* of the main payload type */
  guint8 payload_type;      /* first (main) payload type */
  gboolean problem;         /* tshark's "Problems?" X: a sequence or timestamp error */
  guint32 first_frame, last_frame;
  gint64 first_ns, last_ns;
} CsRtpStats;

void cs_rtp_stats_compute (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                           CsRtpStats *out);

/* Timestamp steps > 0 between packets next to each other in capture order with consecutive
 * sequence numbers and the same payload type, counted per distinct value: a stream's steps
 * take one or a few values (its packet length, a talkspurt's gap, an event's duration). */
#define CS_RTP_STEP_TABLE_SIZE 16
typedef struct
{
  guint32 value[CS_RTP_STEP_TABLE_SIZE], count[CS_RTP_STEP_TABLE_SIZE];
  guint n_values;
  guint last;        /* the index counted last */
  gboolean overflow; /* a step found no room: the table is incomplete */
} CsRtpStepTable;

void cs_rtp_step_table_init (CsRtpStepTable *t);
void cs_rtp_step_table_add (CsRtpStepTable *t, guint32 step);
/* Counts a step, most often the one counted last. */
static inline void
cs_rtp_step_table_count (CsRtpStepTable *t, guint32 step)
{
  if (t->value[t->last] == step)
    t->count[t->last]++;
  else
    cs_rtp_step_table_add (t, step);
}

/* Where a stream's problems are, for findings, collected in the same pass as the stats.
 * The caller sets max_frames and the two buffers (max_frames entries each). */
typedef struct
{
  guint max_frames;
  guint32 *gap_frames;   /* the first packets after skipped sequence numbers */
  guint32 *order_frames; /* the first sequence errors, duplicates and reordered packets */
  guint n_gap_frames, n_order_frames;
  guint32 gaps;                 /* packets after skipped sequence numbers */
  guint32 largest_gap;          /* most sequence numbers skipped at once … */
  guint32 largest_gap_frame;    /* … first just before this packet */
  guint32 max_jitter_frame;     /* the first packet at which the running jitter peaked */
  gboolean mixed_payload_types; /* a packet's payload type differs from the first's */
  CsRtpStepTable *steps;        /* set by the caller: where to count the timestamp steps, or NULL */
} CsRtpMarks;

/* cs_rtp_stats_compute, and marks (may be NULL) as the per-packet steps
 * (CS_RTP_STEP_*, lost_before, jitter_ms) would give them. */
void cs_rtp_stats_compute_marks (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                                 CsRtpStats *out, CsRtpMarks *marks);
/* The same, feeding jb (cs_jitter_buffer_init'ed, may be NULL) the same packets in the same
 * pass: what cs_jitter_buffer_emulate_media would then find. */
void cs_rtp_stats_compute_with_buffer (const CsRtpPacket *packets, gsize n,
                                       const CsRtpClockMap *clocks, CsRtpStats *out,
                                       CsRtpMarks *marks, CsJitterBuffer *jb);
/* The same from n records packed as cs-rtp-pack.h packs them. */
void cs_rtp_stats_compute_packed (const guint8 *packed, guint32 n, const CsRtpClockMap *clocks,
                                  CsRtpStats *out, CsRtpMarks *marks, CsJitterBuffer *jb);

/* The per-packet recurrence behind cs_rtp_stats_compute, for graphs and for
 * incremental (live) use. Feed packets of ONE stream in capture order. */
#define CS_RTP_STEP_FIRST (1u << 0)
#define CS_RTP_STEP_MARKER (1u << 1)
#define CS_RTP_STEP_WRONG_SEQ (1u << 2)
#define CS_RTP_STEP_WRONG_TIMESTAMP (1u << 3)
#define CS_RTP_STEP_PT_CN (1u << 4)
#define CS_RTP_STEP_FOLLOW_PT_CN (1u << 5)
#define CS_RTP_STEP_PT_CHANGE (1u << 6)
#define CS_RTP_STEP_REG_PT_CHANGE (1u << 7)
#define CS_RTP_STEP_TELEPHONE_EVENT (1u << 8)
#define CS_RTP_STEP_DUPLICATE (1u << 9)
#define CS_RTP_STEP_OUT_OF_ORDER (1u << 10)

/* The running figures of the statistics step (cs_rtp_running_step and its parts in
 * cs-rtp-metrics-private.h): what Wireshark's recurrence carries from one packet to the next.
 * Every feed (packet by packet, and the loops over usual packets of arrays and packed
 * records) updates them through the same step. A minimum not seen yet is +inf (every delta
 * and jitter is finite). */
typedef struct
{
  gint64 first_ns;         /* arrival of the first packet */
  guint32 first_timestamp; /* RTP timestamp of the first packet */
  guint32 total_nr;        /* packets fed before the current one */
  double time_ms;          /* arrival of the last packet in time sequence, ms from the first */
  double delta_ms;         /* arrival spacing to the previous in-time-sequence packet */
  double jitter_ms;        /* RFC 3550 running jitter */
  double skew_ms;          /* nominal − arrival time since the first packet */
  double last_nominal;     /* timestamp of the last packet with a clock, ms from the first */
  double peak_jitter_ms;   /* the running jitter's peak (its frame: the analyser's) */
  double sum_t, sum_ts, sum_t2, sum_tts; /* least squares of nominal vs arrival: clock drift */
  double max_skew_ms;
  double min_delta_ms, mean_delta_ms, max_delta_ms;    /* regular packets */
  double min_jitter_ms, mean_jitter_ms, max_jitter_ms; /* regular packets with a clock */
} CsRtpRunning;

typedef struct
{
  /* public results after each step: flags and lost_before, and run.delta_ms, run.jitter_ms,
   * run.skew_ms */
  guint flags;         /* CS_RTP_STEP_* for the packet just fed */
  guint32 lost_before; /* sequence numbers skipped just before this packet */
  CsRtpRunning run;

  /* private state */
  CsRtpStats stats;                           /* the counters (the running figures are in run) */
  guint32 peak_jitter_frame, max_delta_frame; /* where run's peak jitter and max delta were */
  gboolean started;
  guint16 start_seq, stop_seq, last_seq;
  guint32 seq_cycles;
  gboolean under;
  guint8 pt, reg_pt;
  gboolean reg_pt_set;
  guint64 payload_bytes_after_first;
  /* own reorder/duplicate detection (Wireshark does not separate them) */
  guint32 max_ext_seq, min_ext_seq; /* of the packets fed */
  guint8 *seen;                     /* 65536-bit window keyed by raw seq */
  /* what cs_rtp_stats_compute_marks reports beyond the stats */
  CsRtpMarks *marks; /* NULL but during cs_rtp_stats_compute_marks */
  guint16 prev_seq;  /* of the packet fed last */
  guint32 prev_timestamp;
  gboolean mixed_payload_types;
  CsRtpStepTable steps;
  CsJitterBuffer *jb; /* fed the same packets, or NULL */
} CsRtpAnalyser;

void cs_rtp_analyser_init (CsRtpAnalyser *a);
void cs_rtp_analyser_feed (CsRtpAnalyser *a, const CsRtpPacket *packet,
                           const CsRtpClockMap *clocks);
/* Writes the totals so far; the analyser can keep being fed. */
void cs_rtp_analyser_get_stats (const CsRtpAnalyser *a, CsRtpStats *out);
void cs_rtp_analyser_clear (CsRtpAnalyser *a);

G_END_DECLS

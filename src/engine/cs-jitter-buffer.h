/* cs-jitter-buffer.h — receiver jitter-buffer emulation, one implementation shared
 * by MOS (loss after the buffer) and audio playout (which packets are heard) */
#pragma once

#include <glib.h>

#include "cs-rtp.h"

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

G_END_DECLS

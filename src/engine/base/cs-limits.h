/* cs-limits.h — caps on every store keyed by packet data, so hostile input cannot exhaust memory
 *
 * Each cap has an eviction policy (docs/fault-model.md); whatever a cap drops
 * is counted in CsCaptureStats and reported as a "dropped-state" finding. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  /* Calls (dialogs and out-of-dialog exchanges). Beyond the cap, messages of
   * new Call-IDs are counted and dropped; calls already tracked go on. */
  guint max_calls;
  /* SIP messages kept per call. Later messages still move the call's state
   * (answer, BYE) but are not stored; they are counted. */
  guint max_messages_per_call;
  /* RTP flows (src, dst, SSRC) tracked. When full, flows of a single packet
   * (noise, scans) are evicted first; if that frees too little, new flows are
   * refused. Packets dropped either way are counted. */
  guint max_streams;
  /* IP reassembly: datagrams waiting for fragments and the bytes they hold
   * (oldest evicted first). */
  guint max_ip_datagrams;
  gsize max_ip_bytes;
  /* TCP reassembly: directions tracked (least recently used evicted) and the
   * bytes one direction may buffer (the stream resynchronises). */
  guint max_tcp_streams;
  gsize max_tcp_bytes_per_stream;
  /* SIP messages outside any call kept for findings. */
  guint max_orphan_messages;
  /* Distinct SIP method names counted by name; further names count as "OTHER". */
  guint max_method_names;
} CsLimits;

/* Defaults: sized so a worst-case flood stays within a few GiB on a desktop
 * while real captures (a 24 h carrier trace, a 500k-call load test) fit. */
#define CS_LIMITS_DEFAULT_MAX_CALLS 500000u
#define CS_LIMITS_DEFAULT_MAX_MESSAGES_PER_CALL 2000u
#define CS_LIMITS_DEFAULT_MAX_STREAMS 200000u
#define CS_LIMITS_DEFAULT_MAX_IP_DATAGRAMS 65536u
#define CS_LIMITS_DEFAULT_MAX_IP_BYTES (64u * 1024 * 1024)
#define CS_LIMITS_DEFAULT_MAX_TCP_STREAMS 65536u
#define CS_LIMITS_DEFAULT_MAX_TCP_BYTES_PER_STREAM (1024u * 1024)
#define CS_LIMITS_DEFAULT_MAX_ORPHAN_MESSAGES 10000u
#define CS_LIMITS_DEFAULT_MAX_METHOD_NAMES 64u

void cs_limits_init_default (CsLimits *limits);
/* Replaces every 0 (unset) field with its default. */
void cs_limits_fill_defaults (CsLimits *limits);

/* Applies "calls=1000,streams=500,…" (names as the fields without "max_";
 * values accept k/M suffixes) on top of limits. Unknown names or bad values
 * give a G_OPTION_ERROR_BAD_VALUE error and leave limits unchanged. */
gboolean cs_limits_parse (CsLimits *limits, const char *spec, GError **error);

/* The environment variable read by cs_loader_new () (same syntax as above). */
#define CS_LIMITS_ENV "CALLSCOPE_LIMITS"

G_END_DECLS

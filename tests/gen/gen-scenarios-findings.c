/* gen-scenarios-findings.c — findings under test: for each finding kind calls that must
 * produce it, and calls at and around its threshold (docs/findings.md) that must not. Every
 * finding a scenario must produce is listed with the frames the generator wrote for it; a
 * scenario lists all of them, so any other finding is wrong too. */
#include "gen-scenarios.h"

#include <math.h>
#include <string.h>

#define CT_SDP "application/sdp"
#define T0 (GEN_EPOCH + GEN_MS (100))
#define NONE G_MAXUINT

/* Calls one after another, alice to bob through the proxy, each on its own media ports. */
typedef struct
{
  GenCapture *cap;
  GenCast cast;
  guint n;  /* calls so far */
  gint64 t; /* when the next one starts */
} Script;

typedef struct
{
  Script *script;
  GenCall c;
  GenExpectCall *call;
  guint invite, ring, ok, last; /* packet ids (NONE: not sent) */
  gint64 answer_ns;
  guint up_first, up_last, down_first, down_last;
} FCall;

static void
script_init (Script *s, GenCapture *cap)
{
  memset (s, 0, sizeof *s);
  s->cap = cap;
  gen_cast_init (&s->cast);
  s->t = T0;
  gen_expect_findings_known (cap->expect);
}

static void
fcall_begin (Script *s, FCall *f)
{
  GenCallPlan plan;

  gen_plan_init (&plan, s->t, &s->cast.alice, &s->cast.bob, &s->cast.proxy);
  plan.caller_rtp = 40000 + 10 * s->n;
  plan.callee_rtp = 50000 + 10 * s->n;
  s->n++;
  memset (f, 0, sizeof *f);
  f->script = s;
  gen_call_init (&f->c, s->cap, &plan);
  f->invite = f->ring = f->ok = f->last = NONE;
  f->up_first = f->up_last = f->down_first = f->down_last = NONE;
  f->answer_ns = -1;
}

/* The next call starts a second after this one's end. */
static void
fcall_end (FCall *f, gint64 end)
{
  gen_call_clear (&f->c);
  f->script->t = end + GEN_S (1);
}

/* The SDP with a=ptime:ptime instead of the usual 20 (ptime NULL: as it is). */
static char *
with_ptime (char *sdp, const char *ptime)
{
  char *at = strstr (sdp, "a=ptime:20\r\n");
  char *out;

  if (ptime == NULL)
    return sdp;
  g_assert_nonnull (at);
  *at = '\0';
  out = g_strdup_printf ("%sa=ptime:%s\r\n%s", sdp, ptime, at + strlen ("a=ptime:20\r\n"));
  g_free (sdp);
  return out;
}

/* The INVITE with its offer at t0. */
static void
fcall_request (FCall *f, const char *ptime)
{
  g_autofree char *offer = with_ptime (gen_call_offer (&f->c, "sendrecv"), ptime);

  gen_dialog_request (f->c.d, f->c.plan.t0, GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  f->invite = gen_capture_last_packet (f->c.cap);
  f->call = f->c.d->expect;
}

/* INVITE at t0, 100 after 10 ms, 180 ring_ms after the INVITE (none when < 0). */
static void
fcall_invite (FCall *f, gint64 ring_ms, const char *ptime)
{
  gint64 t0 = f->c.plan.t0;

  fcall_request (f, ptime);
  gen_dialog_respond_invite (f->c.d, t0 + GEN_MS (10), 100, NULL, NULL);
  if (ring_ms >= 0)
    {
      gen_dialog_respond_invite (f->c.d, t0 + GEN_MS (ring_ms), 180, NULL, NULL);
      f->ring = gen_capture_last_packet (f->c.cap);
    }
}

/* The 200 with the answer answer_ms after the INVITE and, unless !ack, its ACK 6 ms later;
 * returns when media starts (20 ms after the 200). */
static gint64
fcall_answer (FCall *f, gint64 answer_ms, gboolean ack, const char *ptime)
{
  g_autofree char *answer = with_ptime (gen_call_answer_sdp (&f->c, "sendrecv"), ptime);
  gint64 t = f->c.plan.t0 + GEN_MS (answer_ms);

  gen_dialog_respond_invite (f->c.d, t, 200, CT_SDP, answer);
  f->ok = gen_capture_last_packet (f->c.cap);
  f->answer_ns = t;
  if (ack)
    gen_dialog_ack (f->c.d, t + GEN_MS (6), TRUE);
  return t + GEN_MS (20);
}

/* A final failure answer answer_ms after the INVITE, ACKed 5 ms later; returns the end. */
static gint64
fcall_reject (FCall *f, gint64 answer_ms, guint status)
{
  gint64 t = f->c.plan.t0 + GEN_MS (answer_ms);

  gen_dialog_respond_invite (f->c.d, t, status, NULL, NULL);
  f->last = gen_capture_last_packet (f->c.cap);
  gen_dialog_ack (f->c.d, t + GEN_MS (5), FALSE);
  gen_dialog_set_state (f->c.d, "rejected");
  return t + GEN_MS (10);
}

/* BYE from the caller at t, its 200 12 ms later; returns the end. */
static gint64
fcall_bye (FCall *f, gint64 t)
{
  t = gen_call_hangup (&f->c, t, GEN_CALLER);
  f->last = gen_capture_last_packet (f->c.cap);
  return t;
}

static void
init_stream (FCall *f, GenRtpStream *s, gboolean up, const CsEndpoint *src, const CsEndpoint *dst,
             guint8 pt, gint64 t)
{
  gen_rtp_stream_init (s, f->c.cap,
                       src != NULL ? src
                       : up        ? &f->c.caller_media
                                   : &f->c.callee_media,
                       dst != NULL ? dst
                       : up        ? &f->c.callee_media
                                   : &f->c.caller_media,
                       pt, up ? GEN_TONE_DUAL : GEN_TONE_SWEEP, t, TRUE);
}

/* n packets of audio 20 ms apart in RTP time from start, captured arrival_step apart exactly
 * (no noise); sets the first and last packet ids. Returns when the next packet would go. */
static gint64
exact_audio (GenRtpStream *s, gint64 start, guint n, gint64 arrival_step, guint *first, guint *last)
{
  for (guint k = 0; k < n; k++)
    {
      guint id = gen_rtp_send_audio_packet (s, s->next_index++, start + (gint64) k * GEN_RTP_PTIME,
                                            start + (gint64) k * arrival_step, FALSE);

      if (k == 0)
        *first = id;
      *last = id;
    }
  return start + (gint64) n * GEN_RTP_PTIME;
}

/* Audio both ways from t (up n_up packets, down n_down starting 3 ms later), on time;
 * returns when the longer one ends. */
static gint64
fcall_talk (FCall *f, gint64 t, guint n_up, guint n_down)
{
  gint64 end = t;

  if (n_up > 0)
    {
      init_stream (f, &f->c.up, TRUE, NULL, NULL, f->c.plan.pt, t);
      end = exact_audio (&f->c.up, t, n_up, GEN_RTP_PTIME, &f->up_first, &f->up_last);
    }
  if (n_down > 0)
    {
      gint64 down_end;

      init_stream (f, &f->c.down, FALSE, NULL, NULL, f->c.plan.pt, t + GEN_MS (3));
      down_end = exact_audio (&f->c.down, t + GEN_MS (3), n_down, GEN_RTP_PTIME, &f->down_first,
                              &f->down_last);
      end = MAX (end, down_end);
    }
  return end;
}

static GenExpectFinding *
expect_finding (FCall *f, const char *kind, const char *severity, GenRtpStream *stream, guint frame,
                guint other_frame)
{
  GenExpectFinding *x = gen_expect_add_finding (f->c.cap->expect, kind, severity, f->call,
                                                stream != NULL ? stream->expect : NULL);

  if (frame != NONE)
    gen_expect_finding_frame (x, frame);
  if (other_frame != NONE)
    gen_expect_finding_frame (x, other_frame);
  return x;
}

/* The usual call: 180 after ring_ms (none < 0), 200 after answer_ms (ACKed unless !ack),
 * audio both ways until 80 ms before the BYE, which comes duration_ms after the 200. The
 * call is left open for expectations: fcall_end it. */
static gint64
timed_call (Script *s, FCall *f, gint64 ring_ms, gint64 answer_ms, gint64 duration_ms, gboolean ack)
{
  gint64 t;
  guint n = (guint) ((duration_ms - 100) / 20);

  fcall_begin (s, f);
  fcall_invite (f, ring_ms, NULL);
  t = fcall_answer (f, answer_ms, ack, NULL);
  fcall_talk (f, t, n, n);
  return fcall_bye (f, f->answer_ns + GEN_MS (duration_ms));
}

/* ---- nothing wrong ---- */

void
gen_scn_findings_none (GenCapture *cap)
{
  Script s;
  FCall f;

  script_init (&s, cap);
  fcall_end (&f, timed_call (&s, &f, 80, 1000, 2600, TRUE));
}

/* ---- post-dial delay, short calls, ACK ---- */

void
gen_scn_findings_setup (GenCapture *cap)
{
  Script s;
  FCall f;
  gint64 end;

  script_init (&s, cap);
  /* the 180 exactly 5 s after the INVITE: not slower than the threshold */
  fcall_end (&f, timed_call (&s, &f, 5000, 6000, 2600, TRUE));
  /* 1 ms more: slow, the INVITE and the 180 shown */
  end = timed_call (&s, &f, 5001, 6000, 2600, TRUE);
  expect_finding (&f, "slow-pdd", "warning", NULL, f.invite, f.ring);
  fcall_end (&f, end);
  /* no 180: the 200 counts, exactly 5 s is not slow, 5.001 s is (the INVITE alone shown) */
  fcall_end (&f, timed_call (&s, &f, -1, 5000, 2600, TRUE));
  end = timed_call (&s, &f, -1, 5001, 2600, TRUE);
  expect_finding (&f, "slow-pdd", "warning", NULL, f.invite, NONE);
  fcall_end (&f, end);
  /* 2 s from the 200 to the BYE is not short; 1.999 s is (first and last message) */
  fcall_end (&f, timed_call (&s, &f, 80, 1000, 2000, TRUE));
  end = timed_call (&s, &f, 80, 1000, 1999, TRUE);
  expect_finding (&f, "short-call", "info", NULL, f.invite, f.last);
  fcall_end (&f, end);
  /* the 200 never ACKed */
  end = timed_call (&s, &f, 80, 1000, 2600, FALSE);
  expect_finding (&f, "missing-ack", "warning", NULL, f.ok, NONE);
  fcall_end (&f, end);
}

/* ---- media timing: late media, RTP after BYE, no media ---- */

/* Answered after 1 s; up sends n_up packets from media_ms after the 200, down 100 packets;
 * the BYE comes bye_before_last_ms before up's last packet (or 3 s after the 200 when < 0). */
static gint64
media_call (Script *s, FCall *f, gint64 media_ms, guint n_up, gint64 bye_before_last_ms)
{
  gint64 t, bye;

  fcall_begin (s, f);
  fcall_invite (f, 80, NULL);
  fcall_answer (f, 1000, TRUE, NULL);
  t = f->answer_ns + GEN_MS (media_ms);
  fcall_talk (f, t, n_up, 100);
  bye = bye_before_last_ms >= 0
            ? t + (gint64) (n_up - 1) * GEN_RTP_PTIME - GEN_MS (bye_before_last_ms)
            : f->answer_ns + GEN_S (3) + GEN_MS (media_ms);
  t += (gint64) n_up * GEN_RTP_PTIME;
  bye = fcall_bye (f, bye);
  return MAX (bye, t);
}

void
gen_scn_findings_media_timing (GenCapture *cap)
{
  Script s;
  FCall f;
  gint64 end;

  script_init (&s, cap);
  /* first RTP exactly 2 s after the 200: not late; 2.001 s: late, its first packet shown */
  fcall_end (&f, media_call (&s, &f, 2000, 100, -1));
  end = media_call (&s, &f, 2001, 100, -1);
  expect_finding (&f, "late-media", "warning", NULL, f.up_first, NONE);
  fcall_end (&f, end);
  /* up's last packet exactly 1 s after the BYE: not reported; 1.001 s: its last packet */
  fcall_end (&f, media_call (&s, &f, 20, 200, 1000));
  end = media_call (&s, &f, 20, 200, 1001);
  expect_finding (&f, "rtp-after-bye", "info", &f.c.up, f.up_last, NONE);
  fcall_end (&f, end);
  /* answered, no RTP at all */
  fcall_begin (&s, &f);
  fcall_invite (&f, 80, NULL);
  fcall_answer (&f, 1000, TRUE, NULL);
  end = fcall_bye (&f, f.answer_ns + GEN_MS (2600));
  expect_finding (&f, "no-media", "error", NULL, f.invite, NONE);
  fcall_end (&f, end);
}

/* ---- directions: one-way audio, NAT ---- */

static gint64
direction_call (Script *s, FCall *f, guint n_up, guint n_down)
{
  gint64 t;

  fcall_begin (s, f);
  fcall_invite (f, 80, NULL);
  t = fcall_answer (f, 1000, TRUE, NULL);
  fcall_talk (f, t, n_up, n_down);
  return fcall_bye (f, f->answer_ns + GEN_MS (2600));
}

void
gen_scn_findings_directions (GenCapture *cap)
{
  Script s;
  FCall f;
  gint64 end, t;
  CsEndpoint nat;

  script_init (&s, cap);
  /* 5 packets back are enough (the minimum); 4 are not */
  fcall_end (&f, direction_call (&s, &f, 120, 5));
  end = direction_call (&s, &f, 120, 4);
  expect_finding (&f, "one-way-audio", "error", &f.c.up, f.up_first, f.up_last);
  fcall_end (&f, end);
  /* a direction of exactly 5 packets is judged too */
  end = direction_call (&s, &f, 5, 0);
  expect_finding (&f, "one-way-audio", "error", &f.c.up, f.up_first, f.up_last);
  fcall_end (&f, end);
  /* alice behind NAT: her RTP leaves from another port, bob answers there (symmetric RTP) */
  fcall_begin (&s, &f);
  fcall_invite (&f, 80, NULL);
  t = fcall_answer (&f, 1000, TRUE, NULL);
  nat = f.c.caller_media;
  nat.port += 2;
  init_stream (&f, &f.c.up, TRUE, &nat, NULL, 0, t);
  exact_audio (&f.c.up, t, 120, GEN_RTP_PTIME, &f.up_first, &f.up_last);
  init_stream (&f, &f.c.down, FALSE, NULL, &nat, 0, t + GEN_MS (3));
  exact_audio (&f.c.down, t + GEN_MS (3), 120, GEN_RTP_PTIME, &f.down_first, &f.down_last);
  end = fcall_bye (&f, f.answer_ns + GEN_MS (2600));
  expect_finding (&f, "nat-mismatch", "info", &f.c.up, f.up_first, NONE);
  fcall_end (&f, end);
}

/* ---- per stream: loss, delta spikes, sequence errors ---- */

/* Answered after 1 s, up on time for 2.5 s; returns when down (initialised, nothing sent
 * yet) starts: the caller shapes its packets. */
static gint64
down_to_shape (Script *s, FCall *f)
{
  gint64 t;

  fcall_begin (s, f);
  fcall_invite (f, 80, NULL);
  t = fcall_answer (f, 1000, TRUE, NULL);
  fcall_talk (f, t, 125, 0);
  init_stream (f, &f->c.down, FALSE, NULL, NULL, 0, t + GEN_MS (3));
  return t + GEN_MS (3);
}

/* down (down_to_shape) takes n packets of sequence offsets 0..n-1
 * at send times t + 20 ms * k (+ shift_ms from packet shift_from on), all but skip_from ..
 * skip_to (inclusive; none when skip_from > skip_to), captured when sent. The id of packet
 * `wanted` is returned in *wanted_id. */
static gint64
quality_call (Script *s, FCall *f, guint n, guint skip_from, guint skip_to, guint shift_from,
              gint64 shift_ms, guint wanted, guint *wanted_id)
{
  gint64 down_t, send = 0;

  down_t = down_to_shape (s, f);
  for (guint k = 0; k < n; k++)
    {
      guint id;

      send = down_t + (gint64) k * GEN_RTP_PTIME + (k >= shift_from ? GEN_MS (shift_ms) : 0);
      if (k >= skip_from && k <= skip_to)
        continue;
      id = gen_rtp_send_audio_packet (&f->c.down, k, send, send, FALSE);
      if (k == wanted)
        *wanted_id = id;
    }
  f->c.down.next_index = n;
  return fcall_bye (f, MAX (f->answer_ns + GEN_MS (2600), send + GEN_MS (40)));
}

void
gen_scn_findings_stream (GenCapture *cap)
{
  Script s;
  FCall f;
  gint64 end;
  guint after_gap = NONE, late = NONE, ids[2] = { NONE, NONE };
  gint64 down_t;

  script_init (&s, cap);
  /* 5 of 100 lost (5 %: an error), 1 of 100 (1 %: a warning), 1 of 101 (< 1 %: info); the
   * frame shown is the packet after each gap. The jump is loss only: no sequence error is
   * reported for it as well (Wireshark's "wrong sequence" count has both) */
  end = quality_call (&s, &f, 100, 40, 44, NONE, 0, 45, &after_gap);
  expect_finding (&f, "loss-burst", "error", &f.c.down, after_gap, NONE);
  fcall_end (&f, end);
  end = quality_call (&s, &f, 100, 40, 40, NONE, 0, 41, &after_gap);
  expect_finding (&f, "loss-burst", "warning", &f.c.down, after_gap, NONE);
  fcall_end (&f, end);
  end = quality_call (&s, &f, 101, 40, 40, NONE, 0, 41, &after_gap);
  expect_finding (&f, "loss-burst", "info", &f.c.down, after_gap, NONE);
  fcall_end (&f, end);
  /* the sender pauses (timestamps follow): a 150 ms gap is not a spike, 151 ms is */
  fcall_end (&f, quality_call (&s, &f, 100, 1, 0, 50, 130, 50, &late));
  end = quality_call (&s, &f, 100, 1, 0, 50, 131, 50, &late);
  expect_finding (&f, "delta-spike", "warning", &f.c.down, late, NONE);
  fcall_end (&f, end);

  /* packet 50 captured twice, 80 and 81 swapped: the copy and 80 (late) are the errors */
  down_t = down_to_shape (&s, &f);
  for (guint k = 0; k < 100; k++)
    {
      gint64 send = down_t + (gint64) k * GEN_RTP_PTIME;
      gint64 arrival = k == 80 ? send + GEN_MS (30) : k == 81 ? send - GEN_MS (10) : send;
      guint id = gen_rtp_send_audio_packet (&f.c.down, k, send, arrival, FALSE);

      if (k == 50)
        ids[0] = gen_rtp_send_audio_packet (&f.c.down, k, send, send + GEN_MS (1), TRUE);
      if (k == 80)
        ids[1] = id;
    }
  end = fcall_bye (&f, f.answer_ns + GEN_MS (2600));
  /* 81 arriving early is a jump forward that 80 fills in later: not loss, and not an error
   * of its own; the copy and the late 80 are */
  expect_finding (&f, "sequence-errors", "warning", &f.c.down, ids[0], ids[1]);
  fcall_end (&f, end);
}

/* ---- jitter ---- */

/* RFC 3550 §6.4.1 over a schedule (send and capture times, ns): the largest running jitter
 * (ms) and the packet where it is first reached. */
static double
rfc3550_peak_jitter (const gint64 *send, const gint64 *arrival, guint n, guint *at)
{
  double j = 0, peak = 0;

  *at = 0;
  for (guint k = 1; k < n; k++)
    {
      double d = ((arrival[k] - arrival[k - 1]) - (send[k] - send[k - 1])) / 1e6;

      j += (fabs (d) - j) / 16;
      if (j > peak)
        {
          peak = j;
          *at = k;
        }
    }
  return peak;
}

/* down's packets captured 20 + stretch_ms apart while their RTP time says 20 ms: the
 * running jitter climbs towards stretch_ms. */
static gint64
jitter_call (Script *s, FCall *f, gint64 stretch_ms)
{
  enum
  {
    N = 100
  };
  gint64 send[N], arrival[N], down_t;
  guint ids[N], at;
  double peak;

  down_t = down_to_shape (s, f);
  for (guint k = 0; k < N; k++)
    {
      send[k] = down_t + (gint64) k * GEN_RTP_PTIME;
      arrival[k] = down_t + (gint64) k * (GEN_RTP_PTIME + GEN_MS (stretch_ms));
      ids[k] = gen_rtp_send_audio_packet (&f->c.down, k, send[k], arrival[k], FALSE);
    }
  f->c.down.next_index = N;
  peak = rfc3550_peak_jitter (send, arrival, N, &at);
  /* above 30 ms a warning, above twice that an error (docs/findings.md) */
  if (peak > 30)
    expect_finding (f, "high-jitter", peak > 60 ? "error" : "warning", &f->c.down, ids[at], NONE);
  return fcall_bye (f, arrival[N - 1] + GEN_MS (40));
}

void
gen_scn_findings_jitter (GenCapture *cap)
{
  Script s;
  FCall f;

  script_init (&s, cap);
  fcall_end (&f, jitter_call (&s, &f, 30)); /* approaches 30 ms from below: none */
  fcall_end (&f, jitter_call (&s, &f, 31)); /* passes 30 ms: a warning */
  fcall_end (&f, jitter_call (&s, &f, 70)); /* passes 60 ms: an error */
}

/* ---- the SDP: codec, ptime, SSRC ---- */

/* up sends payload type pt although the answer chose 0; SDP ptimes as given. */
static gint64
sdp_call (Script *s, FCall *f, guint8 up_pt, const char *ptime)
{
  gint64 t;

  fcall_begin (s, f);
  fcall_invite (f, 80, ptime);
  t = fcall_answer (f, 1000, TRUE, ptime);
  init_stream (f, &f->c.up, TRUE, NULL, NULL, up_pt, t);
  exact_audio (&f->c.up, t, 120, GEN_RTP_PTIME, &f->up_first, &f->up_last);
  init_stream (f, &f->c.down, FALSE, NULL, NULL, 0, t + GEN_MS (3));
  exact_audio (&f->c.down, t + GEN_MS (3), 120, GEN_RTP_PTIME, &f->down_first, &f->down_last);
  return fcall_bye (f, f->answer_ns + GEN_MS (2600));
}

void
gen_scn_findings_sdp (GenCapture *cap)
{
  Script s;
  FCall f;
  gint64 end, t;
  GenRtpStream restarted;
  guint first = NONE, last = NONE;

  script_init (&s, cap);
  /* G.729 (18) was never offered; PCMA (8) was offered though not answered: fine */
  end = sdp_call (&s, &f, 18, NULL);
  expect_finding (&f, "codec-mismatch", "warning", &f.c.up, f.up_first, NONE);
  fcall_end (&f, end);
  fcall_end (&f, sdp_call (&s, &f, 8, NULL));
  /* 20 ms packets: a ptime of 28 is within 30 %, 29 is not (each stream shown) */
  fcall_end (&f, sdp_call (&s, &f, 0, "28"));
  end = sdp_call (&s, &f, 0, "29");
  expect_finding (&f, "ptime-mismatch", "info", &f.c.up, f.up_first, NONE);
  expect_finding (&f, "ptime-mismatch", "info", &f.c.down, f.down_first, NONE);
  fcall_end (&f, end);
  /* alice's phone restarts its stream mid-call: same ports, a new SSRC */
  fcall_begin (&s, &f);
  fcall_invite (&f, 80, NULL);
  t = fcall_answer (&f, 1000, TRUE, NULL);
  fcall_talk (&f, t, 60, 125);
  init_stream (&f, &restarted, TRUE, NULL, NULL, 0, t + 60 * GEN_RTP_PTIME);
  exact_audio (&restarted, t + 60 * GEN_RTP_PTIME, 60, GEN_RTP_PTIME, &first, &last);
  end = fcall_bye (&f, f.answer_ns + GEN_MS (2600));
  expect_finding (&f, "ssrc-change", "info", &restarted, f.up_last, first);
  gen_rtp_stream_clear (&restarted);
  fcall_end (&f, end);
}

/* ---- signalling: retransmissions, failures, no answer ---- */

void
gen_scn_findings_signalling (GenCapture *cap)
{
  static const guint failures[] = { 486, 500, 603, 404 };
  static const int timer_a_ms[] = { 500, 1500, 3500, 7500, 15500, 31500 };
  Script s;
  FCall f;
  GenExpectFinding *x, *y;
  gint64 end, t;
  guint retransmitted[6];
  GenDialog *d;

  script_init (&s, cap);
  /* the INVITE sent twice more (2: info), then also the 200 (3: a warning) */
  for (guint with_ok_again = 0; with_ok_again < 2; with_ok_again++)
    {
      fcall_begin (&s, &f);
      fcall_request (&f, NULL);
      x = expect_finding (&f, "retransmissions", with_ok_again ? "warning" : "info", NULL, NONE,
                          NONE);
      for (guint i = 0; i < 2; i++)
        {
          gen_dialog_retransmit (f.c.d, f.c.plan.t0 + GEN_MS (timer_a_ms[i]), GEN_CALLER);
          gen_expect_finding_frame (x, gen_capture_last_packet (cap));
        }
      gen_dialog_respond_invite (f.c.d, f.c.plan.t0 + GEN_MS (1540), 100, NULL, NULL);
      gen_dialog_respond_invite (f.c.d, f.c.plan.t0 + GEN_MS (1600), 180, NULL, NULL);
      t = fcall_answer (&f, 2000, !with_ok_again, NULL);
      if (with_ok_again)
        {
          gen_dialog_retransmit (f.c.d, f.answer_ns + GEN_MS (500), GEN_CALLEE);
          gen_expect_finding_frame (x, gen_capture_last_packet (cap));
          gen_dialog_ack (f.c.d, f.answer_ns + GEN_MS (506), TRUE);
          t = f.answer_ns + GEN_MS (520);
        }
      fcall_talk (&f, t, 100, 100);
      fcall_end (&f, fcall_bye (&f, f.answer_ns + GEN_MS (2600)));
    }
  /* rejected: 5xx but 603 are errors, the rest warnings; the answer shown */
  for (guint i = 0; i < G_N_ELEMENTS (failures); i++)
    {
      fcall_begin (&s, &f);
      fcall_invite (&f, 80, NULL);
      end = fcall_reject (&f, 1000, failures[i]);
      expect_finding (&f, "failed-call",
                      failures[i] >= 500 && failures[i] != 603 ? "error" : "warning", NULL, f.last,
                      NONE);
      fcall_end (&f, end);
    }
  /* a MESSAGE refused: info, its answer shown */
  d = gen_dialog_new (cap, &s.cast.alice, &s.cast.bob, &s.cast.proxy.sip, FALSE);
  gen_dialog_request (d, s.t, GEN_CALLER, "MESSAGE", NULL, "text/plain", "hello");
  gen_dialog_respond (d, s.t + GEN_MS (20), GEN_CALLER, 404, NULL, NULL, NULL);
  x = gen_expect_add_finding (cap->expect, "failed-call", "info", NULL, NULL);
  x->exchange = d->txn[GEN_CALLER].non_invite;
  gen_expect_finding_frame (x, gen_capture_last_packet (cap));
  gen_dialog_free (d);
  /* an OPTIONS sent twice, never answered */
  d = gen_dialog_new (cap, &s.cast.alice, &s.cast.bob, &s.cast.bob.sip, FALSE);
  gen_dialog_request (d, s.t + GEN_S (1), GEN_CALLER, "OPTIONS", NULL, NULL, NULL);
  x = gen_expect_add_finding (cap->expect, "unanswered-request", "error", NULL, NULL);
  x->exchange = d->txn[GEN_CALLER].non_invite;
  gen_expect_finding_frame (x, gen_capture_last_packet (cap));
  gen_dialog_retransmit (d, s.t + GEN_S (1) + GEN_MS (500), GEN_CALLER);
  gen_expect_finding_frame (x, gen_capture_last_packet (cap));
  y = gen_expect_add_finding (cap->expect, "retransmissions", "info", NULL, NULL);
  y->exchange = x->exchange;
  gen_expect_finding_frame (y, gen_capture_last_packet (cap));
  gen_dialog_free (d);
  s.t += GEN_S (3);
  /* an INVITE to a phone that is gone: Timer A until Timer B, the capture goes on past it */
  fcall_begin (&s, &f);
  fcall_request (&f, NULL);
  x = expect_finding (&f, "unanswered-invite", "error", NULL, f.invite, NONE);
  for (guint i = 0; i < G_N_ELEMENTS (timer_a_ms); i++)
    {
      gen_dialog_retransmit (f.c.d, f.c.plan.t0 + GEN_MS (timer_a_ms[i]), GEN_CALLER);
      gen_expect_finding_frame (x, gen_capture_last_packet (cap));
      retransmitted[i] = gen_capture_last_packet (cap);
    }
  y = expect_finding (&f, "retransmissions", "warning", NULL, NONE, NONE);
  for (guint i = 0; i < G_N_ELEMENTS (timer_a_ms); i++)
    gen_expect_finding_frame (y, retransmitted[i]);
  gen_dialog_set_state (f.c.d, "failed");
  gen_options_ping (cap, f.c.plan.t0 + GEN_S (40), &s.cast.alice, &s.cast.proxy);
  fcall_end (&f, f.c.plan.t0 + GEN_S (41));
}

/* ---- the capture: malformed SIP, encrypted IPsec, dropped state ---- */

void
gen_scn_findings_capture (GenCapture *cap)
{
  Script s;
  FCall f;
  GenDialog *d;
  GenExpectFinding *x;
  CsEndpoint a, b;

  script_init (&s, cap);
  /* an OPTIONS without Call-ID: no call takes it */
  d = gen_dialog_new (cap, &s.cast.alice, &s.cast.proxy, &s.cast.proxy.sip, FALSE);
  d->omit_call_id = TRUE;
  gen_dialog_request (d, s.t, GEN_CALLER, "OPTIONS", NULL, NULL, NULL);
  g_ptr_array_remove (cap->expect->non_invite, d->txn[GEN_CALLER].non_invite);
  x = gen_expect_add_finding (cap->expect, "malformed-sip", "warning", NULL, NULL);
  gen_expect_finding_frame (x, gen_capture_last_packet (cap));
  gen_dialog_free (d);
  /* a MESSAGE whose Content-Length claims 40 bytes more than it carries: flagged in its
   * exchange, which is answered */
  d = gen_dialog_new (cap, &s.cast.alice, &s.cast.bob, &s.cast.proxy.sip, FALSE);
  d->content_length_lie = 40;
  gen_dialog_request (d, s.t + GEN_MS (200), GEN_CALLER, "MESSAGE", NULL, "text/plain", "short");
  x = gen_expect_add_finding (cap->expect, "malformed-sip", "warning", NULL, NULL);
  x->exchange = d->txn[GEN_CALLER].non_invite;
  gen_expect_finding_frame (x, gen_capture_last_packet (cap));
  gen_dialog_respond (d, s.t + GEN_MS (210), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_free (d);
  /* two IPsec ESP packets of ciphertext (a next header no decoder takes) */
  gen_endpoint (&a, "10.0.0.40", 0);
  gen_endpoint (&b, "10.0.0.41", 0);
  for (guint k = 0; k < 2; k++)
    {
      guint8 esp[120];
      GByteArray *ip;

      for (guint i = 0; i < sizeof esp; i++)
        esp[i] = (guint8) gen_rand_next (&cap->rand);
      esp[sizeof esp - 13] = 0xfe;
      ip = gen_build_ip (cap, &a, &b, 50, esp, sizeof esp);
      gen_capture_add_ip (cap, s.t + GEN_MS (300 + 10 * k), ip->data, ip->len);
      g_byte_array_unref (ip);
    }
  gen_expect_add_finding (cap->expect, "encrypted-traffic", "warning", NULL, NULL);
  s.t += GEN_S (1);
  /* and a call nothing is wrong with */
  fcall_end (&f, timed_call (&s, &f, 80, 1000, 2600, TRUE));
}

void
gen_scn_findings_limits (GenCapture *cap)
{
  Script s;
  FCall f;

  script_init (&s, cap);
  /* read with at most 5 messages per call: the last 2 of the 7 are not kept */
  cap->expect->limits = "messages_per_call=5";
  fcall_end (&f, timed_call (&s, &f, 80, 1000, 2600, TRUE));
  f.call->messages = 5;
  gen_expect_add_finding (cap->expect, "dropped-state", "warning", NULL, NULL);
}

void
gen_scn_findings_damaged (GenCapture *cap)
{
  Script s;
  FCall f;
  CsEndpoint a, b;
  const guint8 probe[32] = { 0 };

  script_init (&s, cap);
  fcall_end (&f, timed_call (&s, &f, 80, 1000, 2600, TRUE));
  /* a last datagram (no SIP, no RTP) whose record the file loses the end of */
  gen_endpoint (&a, "10.0.0.50", 4000);
  gen_endpoint (&b, "10.0.0.51", 9);
  gen_send_udp (cap, s.t, &a, &b, probe, sizeof probe);
  cap->truncate_bytes = 20;
  cap->expect->frames_cut = 1;
  cap->expect->exit_status = 3;
  gen_expect_add_finding (cap->expect, "damaged-capture", "error", NULL, NULL);
}

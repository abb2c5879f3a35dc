/* gen-points.c — one network captured at three points with their own clocks:
 *
 *   alice ──hop 1── proxy ──hop 2── bob
 *        A        B (at the proxy)    C
 *
 * Point A captures hop 1 next to alice, point B both hops at the proxy, point C hop 2 next to
 * bob. Every SIP datagram is written at the points on its hop: at the sender's point when it
 * is sent, at the other after the hop's one-way delay (plus a little jitter), each point
 * stamping it with its own clock. One INVITE is lost on hop 1 after point A (alice sends it
 * again); one 200 OK on hop 2 is lost between point C and the proxy (bob sends it again); in
 * one call the proxy resends its INVITE after 120 ms (a short T1), seen at B and C; in another
 * point A's capture misses alice's ACK, which B has: a gap in one file, not a loss. The truth
 * (clock offsets, delays, what each call must count) goes to a JSON file beside the captures. */
#include "gen-points.h"
#include "gen-calls.h"

#include <glib/gstdio.h>
#include <string.h>

enum
{
  POINT_A,
  POINT_B,
  POINT_C,
  N_POINTS
};

static const char *const point_names[N_POINTS] = { "points-a", "points-b", "points-c" };
/* each point's clock minus true time */
static const gint64 point_clock_ns[N_POINTS] = { 0, 37250000, -12400000 };
/* one-way delay of a datagram between the two points of each hop */
#define HOP1_DELAY_NS 1800000
#define HOP2_DELAY_NS 3100000
#define N_CALLS 6

typedef struct
{
  GenCapture *caps[N_POINTS];
  guint copies[N_POINTS]; /* SIP datagrams written per point */
  guint sightings;        /* copies beyond the first of one transmission */
  GString *lost;          /* JSON objects of the datagrams lost between points */
} GenPoints;

/* One hop: the point next to the dialog's caller end and the one next to its other end. */
typedef struct
{
  GenPoints *points;
  guint near[2]; /* by GenSide: the point beside that end */
  gint64 delay_ns;
  gboolean lose_next; /* the next datagram never reaches the far point */
  gboolean drop_next; /* the near point's capture misses the next datagram (not a loss) */
} GenPointsHop;

static void
points_write (GenPoints *points, guint point, gint64 t, const CsEndpoint *src,
              const CsEndpoint *dst, const char *text, gsize len)
{
  gen_send_udp (points->caps[point], t + point_clock_ns[point], src, dst, (const guint8 *) text,
                len);
  points->copies[point]++;
}

static void
at_points (GenDialog *d, gint64 t, GenSide from, const char *text, gsize len, gpointer data)
{
  GenPointsHop *hop = data;
  const CsEndpoint *src = &d->ends[from], *dst = &d->ends[!from];
  /* 0..150 µs of jitter on the way, from the generator's seeded random numbers */
  gint64 jitter = (gint64) gen_rand_range (&d->cap->rand, 0, 150) * 1000;

  if (hop->drop_next)
    {
      /* only the far point has it: a gap in one capture, not a datagram lost on the way */
      hop->drop_next = FALSE;
      points_write (hop->points, hop->near[!from], t + hop->delay_ns + jitter, src, dst, text, len);
      return;
    }
  points_write (hop->points, hop->near[from], t, src, dst, text, len);
  if (hop->lose_next)
    {
      char src_text[CS_ENDPOINT_STRLEN], dst_text[CS_ENDPOINT_STRLEN];
      /* "INVITE sip:…" → INVITE, "SIP/2.0 200 OK" → 200 */
      g_auto (GStrv) words = g_strsplit (text, " ", 3);
      const char *what = g_str_has_prefix (text, "SIP/2.0 ") ? words[1] : words[0];

      hop->lose_next = FALSE;
      g_string_append_printf (hop->points->lost,
                              "%s    {\"what\": \"%s\", \"src\": \"%s\", \"dst\": \"%s\", "
                              "\"from_point\": %u, \"to_point\": %u, \"call_id\": \"%s\"}",
                              hop->points->lost->len > 0 ? ",\n" : "", what,
                              cs_endpoint_to_string (src, src_text),
                              cs_endpoint_to_string (dst, dst_text), hop->near[from] + 1,
                              hop->near[!from] + 1, d->call_id);
      return;
    }
  points_write (hop->points, hop->near[!from], t + hop->delay_ns + jitter, src, dst, text, len);
  hop->points->sightings++;
  if (d->expect != NULL)
    {
      d->expect->messages++;
      d->expect->sightings++;
    }
}

/* One call through the proxy (a stateful proxy: same Call-ID and tags, its own Via branch
 * on hop 2); lose: 1 loses alice's INVITE on hop 1, 2 loses bob's 200 on hop 2, 3 has the
 * proxy resend its INVITE 120 ms later, 4 has point A miss alice's ACK (B has it). */
static void
points_call (GenCapture *truth, GenPoints *points, gint64 t0, guint n, guint lose)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  GenDialog *hop2;
  GenPointsHop h1 = { points, { POINT_A, POINT_B }, HOP1_DELAY_NS, FALSE, FALSE };
  GenPointsHop h2 = { points, { POINT_B, POINT_C }, HOP2_DELAY_NS, FALSE, FALSE };
  g_autofree char *offer = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *to_tag = g_strdup_printf ("bob-%u", n);
  gint64 t = t0;

  gen_cast_init (&cast);
  gen_plan_init (&plan, t0, &cast.alice, &cast.bob, &cast.proxy);
  plan.caller_rtp = (guint16) (40000 + 10 * n);
  plan.callee_rtp = (guint16) (50000 + 10 * n);
  gen_call_init (&c, truth, &plan);
  hop2 = gen_dialog_new (truth, &cast.alice, &cast.bob, &cast.bob.sip, TRUE);
  hop2->ends[0] = cast.proxy.sip;
  gen_dialog_set_call_id (hop2, c.d->call_id);
  gen_dialog_set_from_tag (hop2, c.d->from_tag);
  hop2->cseq[GEN_CALLER] = c.d->cseq[GEN_CALLER];
  c.d->sink = at_points;
  c.d->sink_data = &h1;
  hop2->sink = at_points;
  hop2->sink_data = &h2;

  offer = gen_call_offer (&c, "sendrecv");
  h1.lose_next = lose == 1;
  gen_dialog_request (c.d, t, GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  hop2->expect = c.d->expect; /* one call on both hops */
  if (lose == 1)
    {
      t += GEN_MS (500); /* Timer A: alice sends it again */
      gen_dialog_retransmit (c.d, t, GEN_CALLER);
    }
  gen_dialog_respond_invite (c.d, t + GEN_MS (4), 100, NULL, NULL);
  gen_dialog_request (hop2, t + GEN_MS (6), GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  hop2->invite_txn.initial_invite = TRUE;
  if (lose == 3) /* a proxy with T1 = 120 ms: its copy seen again at B within 200 ms */
    gen_dialog_retransmit (hop2, t + GEN_MS (126), GEN_CALLER);
  gen_dialog_respond_invite (hop2, t + GEN_MS (15), 100, NULL, NULL);
  gen_dialog_set_to_tag (hop2, to_tag);
  gen_dialog_set_to_tag (c.d, to_tag);
  gen_dialog_respond_invite (hop2, t + GEN_MS (300), 180, NULL, NULL);
  gen_dialog_respond_invite (c.d, t + GEN_MS (304), 180, NULL, NULL);
  answer = gen_call_answer_sdp (&c, "sendrecv");
  t += GEN_MS (1500);
  h2.lose_next = lose == 2;
  gen_dialog_respond_invite (hop2, t, 200, CT_SDP, answer);
  if (lose == 2)
    {
      t += GEN_MS (500); /* bob's 200 is sent again (Timer G) */
      gen_dialog_retransmit (hop2, t, GEN_CALLEE);
    }
  gen_dialog_respond_invite (c.d, t + GEN_MS (4), 200, CT_SDP, answer);
  h1.drop_next = lose == 4;
  gen_dialog_ack (c.d, t + GEN_MS (12), TRUE);
  gen_dialog_ack (hop2, t + GEN_MS (15), TRUE);
  t += GEN_S (3);
  gen_dialog_request (c.d, t, GEN_CALLER, "BYE", NULL, NULL, NULL);
  gen_dialog_request (hop2, t + GEN_MS (3), GEN_CALLER, "BYE", NULL, NULL, NULL);
  gen_dialog_respond (hop2, t + GEN_MS (10), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_respond (c.d, t + GEN_MS (14), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_set_state (c.d, "completed");
  hop2->expect = NULL; /* the call's truth belongs to the first hop's dialog */
  gen_dialog_free (hop2);
  gen_call_clear (&c);
}

static char *
points_truth_json (GenCapture *truth, GenPoints *points)
{
  g_autofree char *calls = gen_expect_to_json (truth->expect, "points", truth);
  GString *s = g_string_new ("{\n  \"points\": [\n");

  for (guint p = 0; p < N_POINTS; p++)
    g_string_append_printf (
        s,
        "    {\"point\": %u, \"file\": \"%s.pcapng\", \"clock_offset_ms\": %.6f,"
        " \"sip_datagrams\": %u}%s\n",
        p + 1, point_names[p], (double) point_clock_ns[p] / 1e6, points->copies[p],
        p + 1 < N_POINTS ? "," : "");
  g_string_append_printf (
      s,
      "  ],\n  \"hops\": [\n"
      "    {\"points\": [1, 2], \"one_way_ms\": %.6f, \"max_jitter_ms\": 0.15},\n"
      "    {\"points\": [2, 3], \"one_way_ms\": %.6f, \"max_jitter_ms\": 0.15}\n"
      "  ],\n  \"lost\": [\n%s\n  ],\n  \"sightings\": %u,\n  \"expect\": %s\n}\n",
      (double) HOP1_DELAY_NS / 1e6, (double) HOP2_DELAY_NS / 1e6, points->lost->str,
      points->sightings, calls);
  return g_string_free (s, FALSE);
}

gboolean
gen_points_write (const char *dir, GError **error)
{
  GenCapture *truth = gen_capture_new ("points");
  GenPoints points = { { NULL } };

  points.lost = g_string_new (NULL);
  g_autofree char *json = NULL;
  g_autofree char *json_path = NULL;
  gboolean ok = TRUE;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot create %s", dir);
      gen_capture_free (truth);
      return FALSE;
    }
  for (guint p = 0; p < N_POINTS; p++)
    {
      points.caps[p] = gen_capture_new (point_names[p]);
      gen_capture_set_link (points.caps[p], GEN_LINK_ETHERNET);
    }
  for (guint n = 0; n < N_CALLS; n++)
    points_call (truth, &points, GEN_EPOCH + GEN_S (1) + n * GEN_S (7), n + 1,
                 n == 1   ? 1
                 : n == 3 ? 4
                 : n == 4 ? 2
                 : n == 5 ? 3
                          : 0);
  for (guint p = 0; p < N_POINTS && ok; p++)
    {
      g_autofree char *file = g_strdup_printf ("%s.pcapng", point_names[p]);
      g_autofree char *path = g_build_filename (dir, file, NULL);

      ok = gen_capture_write (points.caps[p], path, error);
    }
  json = points_truth_json (truth, &points);
  json_path = g_build_filename (dir, "points.truth.json", NULL);
  if (ok)
    ok = g_file_set_contents (json_path, json, -1, error);
  for (guint p = 0; p < N_POINTS; p++)
    gen_capture_free (points.caps[p]);
  g_string_free (points.lost, TRUE);
  gen_capture_free (truth);
  return ok;
}

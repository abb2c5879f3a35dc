/* Ladder layout, text rendering, and PNG/SVG/PDF export on a crafted call with RTP:
 * columns, rows, retransmissions, SDP summaries, lanes, legs, and the PDF read back as text
 * with positions. */
#include <cairo.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "calls/cs-call-private.h"
#include "calls/cs-call-tracker.h"
#include "cs-ladder-layout.h"
#include "cs-ladder-render.h"
#include "cs-ladder-text.h"
#include "calls/cs-stream-private.h"

#define MS (G_GINT64_CONSTANT (1000000))
#define T0 (G_GINT64_CONSTANT (1709287202) * 1000000000) /* 2024-03-01 10:00:02 UTC */

typedef struct
{
  CsCallTracker *tracker;
  GListStore *streams;
  guint32 frame;
} Fixture;

static const char *const sdp_a = "v=0\r\no=a 1 1 IN IP4 10.0.0.10\r\ns=-\r\nc=IN IP4 10.0.0.10\r\n"
                                 "t=0 0\r\nm=audio 40000 RTP/AVP 0 8 101\r\n"
                                 "a=rtpmap:101 telephone-event/8000\r\na=sendrecv\r\n";
static const char *const sdp_b = "v=0\r\no=b 1 1 IN IP4 10.0.0.20\r\ns=-\r\nc=IN IP4 10.0.0.20\r\n"
                                 "t=0 0\r\nm=audio 50000 RTP/AVP 0\r\na=sendrecv\r\n";

static void
endpoint (CsEndpoint *ep, const char *addr, guint16 port)
{
  memset (ep, 0, sizeof *ep);
  g_assert_true (cs_addr_parse (&ep->addr, addr));
  ep->port = port;
}

static void
message_endpoints (CsSipMessage *msg, const char *src_addr, const char *dst_addr)
{
  CsEndpoint src, dst;

  endpoint (&src, src_addr, 5060);
  endpoint (&dst, dst_addr, 5060);
  cs_sip_message_set_endpoints (msg, &src, &dst);
}

/* One message from A (10.0.0.10:5060) or B (10.0.0.20:5060) at t_ms. */
static void
feed (Fixture *f, gint64 t_ms, gboolean from_a, const char *start, const char *branch,
      const char *cseq, const char *to_tag, const char *extra, const char *body)
{
  g_autofree char *text = g_strdup_printf (
      "%s\r\nVia: SIP/2.0/UDP 10.0.0.10:5060;branch=%s\r\n"
      "From: <sip:1001@example.com>;tag=ft1\r\nTo: <sip:1002@example.com>%s%s\r\n"
      "Call-ID: call-1@10.0.0.10\r\nCSeq: %s\r\n%s%s%sContent-Length: %u\r\n\r\n%s",
      start, branch, to_tag != NULL ? ";tag=" : "", to_tag != NULL ? to_tag : "", cseq,
      from_a ? "User-Agent: Softphone A 1.0\r\n" : "Server: PBX B 2.0\r\n",
      extra != NULL ? extra : "", body != NULL ? "Content-Type: application/sdp\r\n" : "",
      body != NULL ? (guint) strlen (body) : 0, body != NULL ? body : "");
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);

  g_assert_nonnull (msg);
  cs_sip_message_set_frame (msg, ++f->frame);
  cs_sip_message_set_ts_ns (msg, T0 + t_ms * MS);
  message_endpoints (msg, from_a ? "10.0.0.10" : "10.0.0.20", from_a ? "10.0.0.20" : "10.0.0.10");
  cs_call_tracker_add (f->tracker, msg);
  cs_sip_message_unref (msg);
}

static CsStream *
make_stream (guint id, const char *src, guint16 sport, const char *dst, guint16 dport,
             gint64 start_ms, guint n, guint lose_every)
{
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (CsRtpPacket));
  CsRtpClockMap clocks;
  CsEndpoint s, d;

  cs_rtp_clock_map_init_static (&clocks);
  for (guint i = 0; i < n; i++)
    {
      CsRtpPacket p = { 0 };
      if (lose_every > 0 && i % lose_every == lose_every - 1)
        continue;
      p.arrival_ns = T0 + (start_ms + i * 20) * MS;
      p.frame = 100 + i;
      p.timestamp = 160 * i;
      p.seq = (guint16) (1000 + i);
      p.payload_len = 160;
      g_array_append_val (packets, p);
    }
  endpoint (&s, src, sport);
  endpoint (&d, dst, dport);
  CsStream *stream = cs_stream_new (id, &s, &d, 0x1234 + id, 1, packets, &clocks, NULL);

  cs_stream_measure (stream);
  return stream;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->tracker = cs_call_tracker_new ();
  f->streams = g_list_store_new (CS_TYPE_STREAM);
  f->frame = 0;
  feed (f, 0, TRUE, "INVITE sip:1002@example.com SIP/2.0", "z9hG4bK1", "1 INVITE", NULL, NULL,
        sdp_a);
  feed (f, 500, TRUE, "INVITE sip:1002@example.com SIP/2.0", "z9hG4bK1", "1 INVITE", NULL, NULL,
        sdp_a);
  feed (f, 520, FALSE, "SIP/2.0 100 Trying", "z9hG4bK1", "1 INVITE", NULL, NULL, NULL);
  feed (f, 600, FALSE, "SIP/2.0 180 Ringing", "z9hG4bK1", "1 INVITE", "tt2", NULL, NULL);
  feed (f, 2000, FALSE, "SIP/2.0 200 OK", "z9hG4bK1", "1 INVITE", "tt2", NULL, sdp_b);
  feed (f, 2010, TRUE, "ACK sip:1002@10.0.0.20 SIP/2.0", "z9hG4bK2", "1 ACK", "tt2", NULL, NULL);
  feed (f, 6000, TRUE, "BYE sip:1002@10.0.0.20 SIP/2.0", "z9hG4bK3", "2 BYE", "tt2", NULL, NULL);
  feed (f, 6010, FALSE, "SIP/2.0 200 OK", "z9hG4bK3", "2 BYE", "tt2", NULL, NULL);
  {
    g_autoptr (GPtrArray) calls = cs_call_tracker_finish (f->tracker, T0 + 7000 * MS);
    CsCall *call = g_ptr_array_index (calls, 0);
    g_autoptr (CsStream) ab = make_stream (1, "10.0.0.10", 40000, "10.0.0.20", 50000, 2020, 150, 0);
    g_autoptr (CsStream) ba
        = make_stream (2, "10.0.0.20", 50000, "10.0.0.10", 40000, 2030, 150, 10);

    g_list_store_append (f->streams, ab);
    g_list_store_append (f->streams, ba);
    cs_call_add_stream (call, 1, -1);
    cs_call_add_stream (call, 2, -1);
  }
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  cs_call_tracker_free (f->tracker);
  g_object_unref (f->streams);
}

static CsCall *
first_call (Fixture *f)
{
  const GPtrArray *calls = cs_call_tracker_get_calls (f->tracker);

  g_assert_cmpuint (calls->len, ==, 1);
  return g_ptr_array_index (calls, 0);
}

static CsLadderLayout *
layout_for (Fixture *f)
{
  CsCall *call = first_call (f);

  return cs_ladder_layout_new (&call, 1, G_LIST_MODEL (f->streams));
}

static void
test_layout_columns_rows (Fixture *f, gconstpointer data)
{
  g_autoptr (CsLadderLayout) layout = layout_for (f);
  const CsLadderColumn *a, *b;
  const CsLadderRow *r;

  /* RTP endpoints share the phones' columns (same address): two columns only. */
  g_assert_cmpuint (layout->columns->len, ==, 2);
  a = &g_array_index (layout->columns, CsLadderColumn, 0);
  b = &g_array_index (layout->columns, CsLadderColumn, 1);
  g_assert_cmpstr (a->title, ==, "10.0.0.10:5060");
  g_assert_cmpstr (a->subtitle, ==, "Softphone A 1.0");
  g_assert_cmpstr (b->title, ==, "10.0.0.20:5060");
  g_assert_cmpstr (b->subtitle, ==, "PBX B 2.0");
  g_assert_cmpfloat (b->x - a->x, >=, CS_LADDER_MIN_GAP);
  g_assert_cmpfloat (a->x, >, CS_LADDER_TIME_WIDTH);
  g_assert_cmpfloat (layout->width, >, b->x);

  /* 8 messages + 2 stream rows, by time. */
  g_assert_cmpuint (layout->rows->len, ==, 10);
  r = &g_array_index (layout->rows, CsLadderRow, 0);
  g_assert_cmpint (r->kind, ==, CS_LADDER_ROW_MESSAGE);
  g_assert_cmpstr (r->label, ==, "INVITE");
  g_assert_cmpuint (r->from_col, ==, 0);
  g_assert_cmpuint (r->to_col, ==, 1);
  g_assert_true (r->is_request);
  g_assert_false (r->retransmission);
  g_assert_cmpstr (r->detail, ==, "g711U,g711A,telephone-event  10.0.0.10:40000  sendrecv");
  g_assert_cmpfloat (r->height, ==, CS_LADDER_ROW_HEIGHT + CS_LADDER_SDP_HEIGHT);
  r = &g_array_index (layout->rows, CsLadderRow, 1);
  g_assert_true (r->retransmission);
  r = &g_array_index (layout->rows, CsLadderRow, 3);
  g_assert_cmpstr (r->label, ==, "180 Ringing");
  g_assert_cmpuint (r->status, ==, 180);
  g_assert_cmpuint (r->from_col, ==, 1);
  g_assert_cmpuint (r->to_col, ==, 0);
  g_assert_null (r->detail);
  g_assert_cmpfloat (r->y, ==,
                     2 * (CS_LADDER_ROW_HEIGHT + CS_LADDER_SDP_HEIGHT) + CS_LADDER_ROW_HEIGHT);

  r = &g_array_index (layout->rows, CsLadderRow, 6);
  g_assert_cmpint (r->kind, ==, CS_LADDER_ROW_STREAM);
  g_assert_cmpstr (r->label, ==, "RTP g711U");
  g_assert_cmpstr (r->detail, ==, "#1 · 150 pkts · loss 0.0% · MOS 4.36");
  g_assert_cmpint (r->quality, ==, CS_LADDER_QUALITY_GOOD);
  r = &g_array_index (layout->rows, CsLadderRow, 7);
  g_assert_cmpint (r->kind, ==, CS_LADDER_ROW_STREAM);
  g_assert_cmpuint (r->from_col, ==, 1);
  g_assert_true (g_str_has_prefix (r->detail, "#2 · 135 pkts · loss 9.4% · MOS "));
  g_assert_cmpint (r->quality, ==, CS_LADDER_QUALITY_BAD);

  /* Lanes last until the stream's last packet (2.02 s + 149 × 20 ms = 5.0 s). */
  g_assert_cmpuint (layout->lanes->len, ==, 2);
  {
    const CsLadderLane *lane = &g_array_index (layout->lanes, CsLadderLane, 0);
    const CsLadderRow *bye = &g_array_index (layout->rows, CsLadderRow, 8);
    g_assert_cmpuint (lane->row, ==, 6);
    g_assert_cmpfloat (lane->y_end, >, lane->y_start);
    const CsLadderRow *last_stream = &g_array_index (layout->rows, CsLadderRow, 7);
    /* The last packet at 5.0 s lies 3/4 of the way from the 2.03 s row to the 6.0 s BYE. */
    double from = last_stream->y + CS_LADDER_ARROW_Y, to = bye->y + CS_LADDER_ARROW_Y;
    g_assert_cmpfloat (
        fabs (lane->y_end - (from + (5000.0 - 2030.0) / (6000.0 - 2030.0) * (to - from))), <, 0.01);
  }
  g_assert_cmpfloat (layout->rows_height, ==,
                     g_array_index (layout->rows, CsLadderRow, 9).y + CS_LADDER_ROW_HEIGHT);
}

static void
test_layout_navigation_times (Fixture *f, gconstpointer data)
{
  g_autoptr (CsLadderLayout) layout = layout_for (f);
  g_autofree char *abs = NULL, *rel = NULL, *delta = NULL, *abs0 = NULL, *utc = NULL;
  g_autofree char *capture = NULL;
  const CsLadderRow *r3 = &g_array_index (layout->rows, CsLadderRow, 3);

  g_assert_cmpuint (cs_ladder_layout_row_at (layout, 0), ==, 0);
  g_assert_cmpuint (cs_ladder_layout_row_at (layout, r3->y + 1), ==, 3);
  g_assert_cmpuint (cs_ladder_layout_row_at (layout, layout->rows_height + 5), ==, 10);
  /* Keyboard moves skip stream rows. */
  g_assert_cmpuint (cs_ladder_layout_next_message (layout, 5, 1), ==, 8);
  g_assert_cmpuint (cs_ladder_layout_next_message (layout, 8, -1), ==, 5);
  g_assert_cmpuint (cs_ladder_layout_next_message (layout, 9, 1), ==, 9);
  g_assert_cmpuint (cs_ladder_layout_next_message (layout, 0, -1), ==, 0);
  g_assert_cmpint (cs_ladder_layout_find_message (layout, 0, 3), ==, 3);
  g_assert_cmpint (cs_ladder_layout_find_message (layout, 0, 7), ==, 9);
  g_assert_cmpint (cs_ladder_layout_find_message (layout, 1, 0), ==, -1);

  abs = cs_ladder_layout_format_time (layout, 3, CS_LADDER_TIME_ABSOLUTE);
  rel = cs_ladder_layout_format_time (layout, 3, CS_LADDER_TIME_RELATIVE);
  delta = cs_ladder_layout_format_time (layout, 3, CS_LADDER_TIME_DELTA);
  /* Absolute: the hour on the first row (and where it changes), then minutes and seconds. */
  abs0 = cs_ladder_layout_format_time (layout, 0, CS_LADDER_TIME_ABSOLUTE);
  g_assert_cmpstr (abs0, ==, "10:00:02.000");
  g_assert_cmpstr (abs, ==, "00:02.600000");
  utc = cs_ladder_layout_format_utc (layout, 3);
  g_assert_true (g_str_has_suffix (utc, " 10:00:02.600000 UTC"));
  g_assert_cmpstr (rel, ==, "0.600000");
  g_assert_cmpstr (delta, ==, "+0.080000");
  /* Since the capture's first packet, here 1.5 s before the call's first message. */
  layout->capture_ns = layout->first_ns - G_GINT64_CONSTANT (1500000000);
  capture = cs_ladder_layout_format_time (layout, 3, CS_LADDER_TIME_CAPTURE);
  g_assert_cmpstr (capture, ==, "2.100000");
}

static void
test_text (Fixture *f, gconstpointer data)
{
  g_autoptr (CsLadderLayout) layout = layout_for (f);
  g_autofree char *text = cs_ladder_text_render (layout, CS_LADDER_TIME_RELATIVE);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (lines[0], "Time"));
  g_assert_nonnull (strstr (lines[0], "10.0.0.10:5060"));
  g_assert_nonnull (strstr (lines[0], "10.0.0.20:5060"));
  g_assert_nonnull (strstr (lines[1], "Softphone A 1.0"));
  g_assert_true (g_str_has_prefix (lines[2], "0.000000"));
  g_assert_nonnull (strstr (lines[2], "|----"));
  g_assert_nonnull (strstr (lines[2], " INVITE "));
  g_assert_nonnull (strstr (lines[2], "--->|"));
  g_assert_nonnull (strstr (lines[3], "10.0.0.10:40000  sendrecv"));
  g_assert_nonnull (strstr (lines[4], "INVITE (retransmission)"));
  g_assert_nonnull (strstr (text, "|<------ 180 Ringing ---"));
  g_assert_nonnull (strstr (text, "= RTP g711U ===="));
  g_assert_nonnull (strstr (text, "====>|"));
  g_assert_nonnull (strstr (text, "|<==="));
  /* 8 messages, 2 streams, 4 detail lines (3 SDP, 2 streams: 5), 2 header lines. */
  g_assert_cmpuint (g_strv_length (lines) - 1, ==, 2 + 10 + 5);
}

static void
test_related_legs (Fixture *f, gconstpointer data)
{
  CsCall *call = first_call (f);
  g_autoptr (CsCallTracker) tracker = cs_call_tracker_new ();
  g_autoptr (GListStore) all = g_list_store_new (CS_TYPE_CALL);
  const char *text
      = "INVITE sip:1002@10.0.0.30 SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.20:5060;branch=z9hG4bKb\r\n"
        "From: <sip:1001@b2bua>;tag=leg2\r\nTo: <sip:1002@10.0.0.30>\r\n"
        "Call-ID: leg-2@10.0.0.20\r\nCSeq: 1 INVITE\r\nX-Call-ID: call-1@10.0.0.10\r\n"
        "Content-Length: 0\r\n\r\n";
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);
  g_autoptr (GPtrArray) legs2 = NULL;
  g_autoptr (GPtrArray) related = NULL;
  g_autoptr (CsLadderLayout) layout = NULL;
  g_autofree char *ladder = NULL;
  CsCall *both[2];

  const char *options
      = "OPTIONS sip:10.0.0.30 SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.20:5060;branch=z9hG4bKo\r\n"
        "From: <sip:b2bua@10.0.0.20>;tag=o\r\nTo: <sip:10.0.0.30>\r\n"
        "Call-ID: ping@10.0.0.20\r\nCSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n";
  CsSipMessage *ping = cs_sip_message_parse ((const guint8 *) options, strlen (options), NULL);

  /* Calls are told apart by number: an OPTIONS first makes the second leg call 2. */
  cs_sip_message_set_frame (ping, 2);
  cs_sip_message_set_ts_ns (ping, T0 + 500 * MS);
  message_endpoints (ping, "10.0.0.20", "10.0.0.30");
  cs_call_tracker_add (tracker, ping);
  cs_sip_message_unref (ping);
  cs_sip_message_set_frame (msg, 3);
  cs_sip_message_set_ts_ns (msg, T0 + 510 * MS);
  message_endpoints (msg, "10.0.0.20", "10.0.0.30");
  cs_call_tracker_add (tracker, msg);
  cs_sip_message_unref (msg);
  legs2 = cs_call_tracker_finish (tracker, T0 + 7000 * MS);
  g_ptr_array_remove_index (legs2, 0); /* the OPTIONS */
  g_assert_cmpuint (cs_call_get_number (g_ptr_array_index (legs2, 0)), ==, 2);
  g_list_store_append (all, call);
  g_list_store_append (all, g_ptr_array_index (legs2, 0));

  related = cs_ladder_find_related_calls (G_LIST_MODEL (all), NULL, call, NULL);
  g_assert_cmpuint (related->len, ==, 2);
  g_assert_true (g_ptr_array_index (related, 0) == call);
  g_clear_pointer (&related, g_ptr_array_unref);
  related
      = cs_ladder_find_related_calls (G_LIST_MODEL (all), NULL, g_ptr_array_index (legs2, 0), NULL);
  g_assert_cmpuint (related->len, ==, 2);

  both[0] = g_ptr_array_index (legs2, 0);
  both[1] = call;
  layout = cs_ladder_layout_new (both, 2, G_LIST_MODEL (f->streams));
  /* Sorted by start: the A leg first; the B2BUA's second leg adds a column. */
  g_assert_true (g_ptr_array_index (layout->calls, 0) == call);
  g_assert_cmpuint (layout->columns->len, ==, 3);
  g_assert_cmpuint (layout->rows->len, ==, 11);
  g_assert_cmpuint (g_array_index (layout->rows, CsLadderRow, 2).leg, ==, 1);
  g_assert_cmpuint (g_array_index (layout->rows, CsLadderRow, 2).to_col, ==, 2);
  ladder = cs_ladder_text_render (layout, CS_LADDER_TIME_RELATIVE);
  g_assert_nonnull (strstr (ladder, "Leg 2: call 2, Call-ID leg-2@10.0.0.20"));
}

typedef struct
{
  double x0, y0, x1;
  char *text;
} PdfWord;

static void
pdf_word_free (gpointer data)
{
  PdfWord *w = data;

  g_free (w->text);
  g_free (w);
}

/* The words of a PDF's first page with their boxes, from `pdftotext -bbox` (poppler). */
static GPtrArray *
pdf_words (const char *pdf)
{
  const char *argv[] = { "pdftotext", "-f", "1", "-l", "1", "-bbox", pdf, "-", NULL };
  g_autofree char *out = NULL;
  g_autoptr (GRegex) re = g_regex_new ("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" "
                                       "xMax=\"([0-9.]+)\" yMax=\"[0-9.]+\">([^<]*)</word>",
                                       0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  GPtrArray *words = g_ptr_array_new_with_free_func (pdf_word_free);
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  for (g_regex_match (re, out, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      PdfWord *w = g_new0 (PdfWord, 1);
      g_autofree char *x0 = g_match_info_fetch (match, 1);
      g_autofree char *y0 = g_match_info_fetch (match, 2);
      g_autofree char *x1 = g_match_info_fetch (match, 3);

      w->x0 = g_ascii_strtod (x0, NULL);
      w->y0 = g_ascii_strtod (y0, NULL);
      w->x1 = g_ascii_strtod (x1, NULL);
      w->text = g_match_info_fetch (match, 4);
      g_ptr_array_add (words, w);
    }
  return words;
}

/* The n-th word (0-based) equal to text, NULL when fewer. */
static const PdfWord *
pdf_word (GPtrArray *words, const char *text, guint n)
{
  for (guint i = 0; i < words->len; i++)
    {
      const PdfWord *w = g_ptr_array_index (words, i);

      if (strcmp (w->text, text) == 0 && n-- == 0)
        return w;
    }
  return NULL;
}

/* The exported ladder read back as text with positions (pdftotext), against the fixture's
 * own call: both endpoints head a column, A's left of B's; every message is labelled in the
 * order it was sent, each label between the two columns, with its time since the first
 * message on its row. */
static void
test_pdf_structure (Fixture *f, gconstpointer data)
{
  static const struct
  {
    const char *word;   /* first word of the label */
    guint nth;          /* which one of that word */
    const char *second; /* the next word on the label, or NULL */
    const char *time;   /* seconds since the INVITE, as fed */
  } rows[] = {
    { "INVITE", 0, NULL, "0.000000" },  { "INVITE", 1, NULL, "0.500000" },
    { "100", 0, "Trying", "0.520000" }, { "180", 0, "Ringing", "0.600000" },
    { "200", 0, "OK", "2.000000" },     { "ACK", 0, NULL, "2.010000" },
    { "BYE", 0, NULL, "6.000000" },     { "200", 1, "OK", "6.010000" },
  };
  g_autoptr (CsLadderLayout) layout = layout_for (f);
  g_autofree char *dir = g_dir_make_tmp ("cs-ladder-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "ladder.pdf", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) words = NULL;
  g_autofree char *pdftotext = g_find_program_in_path ("pdftotext");
  const PdfWord *a, *b;
  double last_y = 0;

  if (pdftotext == NULL)
    {
      g_test_skip ("pdftotext (poppler-utils) is not installed");
      return;
    }
  g_assert_true (
      cs_ladder_export (layout, CS_LADDER_TIME_RELATIVE, pdf, CS_LADDER_FORMAT_PDF, &error));
  g_assert_no_error (error);
  words = pdf_words (pdf);
  a = pdf_word (words, "10.0.0.10:5060", 0);
  b = pdf_word (words, "10.0.0.20:5060", 0);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpfloat (fabs (a->y0 - b->y0), <, 1);
  g_assert_cmpfloat (a->x1, <, b->x0);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const PdfWord *label = pdf_word (words, rows[i].word, rows[i].nth);
      const PdfWord *time = pdf_word (words, rows[i].time, 0);
      double middle;

      g_test_message ("row %u: %s %s at %s", i, rows[i].word,
                      rows[i].second != NULL ? rows[i].second : "", rows[i].time);
      g_assert_nonnull (label);
      g_assert_nonnull (time);
      middle = (label->x0 + label->x1) / 2;
      g_assert_cmpfloat (label->y0, >, last_y); /* below the row before */
      g_assert_cmpfloat (label->y0, >, a->y0);
      g_assert_cmpfloat (middle, >, (a->x0 + a->x1) / 2);
      g_assert_cmpfloat (middle, <, (b->x0 + b->x1) / 2);
      /* the time sits on the label's row, left of the first column */
      g_assert_cmpfloat (fabs (time->y0 - label->y0), <, 15);
      g_assert_cmpfloat (time->x1, <, a->x1);
      if (rows[i].second != NULL)
        {
          const PdfWord *next = pdf_word (words, rows[i].second, rows[i].nth);

          g_assert_nonnull (next);
          g_assert_cmpfloat (fabs (next->y0 - label->y0), <, 1);
          g_assert_cmpfloat (next->x0, >, label->x1);
        }
      last_y = label->y0;
    }
  /* the PNG of the same ladder: the layout's size */
  {
    g_autofree char *png = g_build_filename (dir, "ladder.png", NULL);
    cairo_surface_t *image;

    g_assert_true (
        cs_ladder_export (layout, CS_LADDER_TIME_RELATIVE, png, CS_LADDER_FORMAT_PNG, &error));
    image = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (image), ==, (int) ceil (layout->width));
    g_assert_cmpint (cairo_image_surface_get_height (image), ==,
                     (int) ceil (CS_LADDER_HEADER_HEIGHT + layout->rows_height + 12));
    cairo_surface_destroy (image);
    g_unlink (png);
  }
  /* no other message: exactly the labels fed */
  g_assert_null (pdf_word (words, "INVITE", 2));
  g_assert_null (pdf_word (words, "ACK", 1));
  g_assert_null (pdf_word (words, "BYE", 1));
  g_unlink (pdf);
  g_rmdir (dir);
}

/* Runs a validator (rsvg-convert / pdftoppm) when installed; returns its PNG's size. */
static gboolean
convert_to_png (const char *const *argv, const char *png, int *width, int *height)
{
  g_autofree char *tool = g_find_program_in_path (argv[0]);
  g_autoptr (GError) error = NULL;
  int status = -1;
  cairo_surface_t *image;

  if (tool == NULL)
    return FALSE;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  *width = cairo_image_surface_get_width (image);
  *height = cairo_image_surface_get_height (image);
  cairo_surface_destroy (image);
  return TRUE;
}

static void
test_svg_pdf (Fixture *f, gconstpointer data)
{
  g_autoptr (CsLadderLayout) layout = layout_for (f);
  g_autofree char *dir = g_dir_make_tmp ("cs-ladder-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "ladder.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "ladder.pdf", NULL);
  g_autofree char *svg_png = g_build_filename (dir, "svg.png", NULL);
  g_autofree char *pdf_prefix = g_build_filename (dir, "pdf", NULL);
  g_autofree char *pdf_png = g_build_filename (dir, "pdf-1.png", NULL);
  g_autofree char *svg_text = NULL;
  g_autoptr (GError) error = NULL;
  int w = 0, h = 0;
  gboolean validated = FALSE;

  g_assert_true (
      cs_ladder_export (layout, CS_LADDER_TIME_DELTA, svg, CS_LADDER_FORMAT_SVG, &error));
  g_assert_true (
      cs_ladder_export (layout, CS_LADDER_TIME_DELTA, pdf, CS_LADDER_FORMAT_PDF, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_true (g_str_has_prefix (svg_text, "<?xml"));
  g_assert_nonnull (strstr (svg_text, "<svg"));
  g_assert_cmpuint (cs_ladder_pdf_page_count (layout), ==, 1);
  {
    const char *argv[]
        = { "rsvg-convert", "--dpi-x", "72", "--dpi-y", "72", svg, "-o", svg_png, NULL };
    if (convert_to_png (argv, svg_png, &w, &h))
      {
        g_assert_cmpint (w, ==, (int) ceil (layout->width));
        g_assert_cmpint (h, ==, (int) ceil (CS_LADDER_HEADER_HEIGHT + layout->rows_height + 12));
        validated = TRUE;
      }
  }
  {
    const char *argv[] = { "pdftoppm", "-r", "72", "-png", pdf, pdf_prefix, NULL };
    if (convert_to_png (argv, pdf_png, &w, &h))
      {
        g_assert_cmpint (w, ==, 842);
        g_assert_cmpint (h, ==, 595);
        validated = TRUE;
      }
  }
  g_unlink (svg);
  g_unlink (pdf);
  g_unlink (svg_png);
  g_unlink (pdf_png);
  g_rmdir (dir);
  if (!validated)
    g_test_skip ("neither rsvg-convert nor pdftoppm is installed");
}

/* A 3,000-message call spreads over several PDF pages, each row on exactly one. */
static void
test_pdf_pagination (void)
{
  g_autoptr (CsCallTracker) tracker = cs_call_tracker_new ();
  g_autoptr (GPtrArray) calls = NULL;
  g_autoptr (CsLadderLayout) layout = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-ladder-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "long.pdf", NULL);
  g_autofree char *png = g_build_filename (dir, "long.png", NULL);
  g_autoptr (GError) error = NULL;
  guint rows_per_page;
  cairo_surface_t *image;

  for (guint i = 0; i < 3000; i++)
    {
      g_autofree char *text = g_strdup_printf (
          "%s\r\nVia: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK%u\r\nFrom: <sip:a@x>;tag=1\r\n"
          "To: <sip:b@x>\r\nCall-ID: long@x\r\nCSeq: %u %s\r\nContent-Length: 0\r\n\r\n",
          i == 0  ? "INVITE sip:b@x SIP/2.0"
          : i % 2 ? "SIP/2.0 180 Ringing"
                  : "INFO sip:b@x SIP/2.0",
          i / 2, i / 2 + 1, i == 0 || i == 1 ? "INVITE" : "INFO");
      CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);
      cs_sip_message_set_frame (msg, i + 1);
      cs_sip_message_set_ts_ns (msg, T0 + i * 10 * MS);
      message_endpoints (msg, i % 2 ? "10.0.0.2" : "10.0.0.1", i % 2 ? "10.0.0.1" : "10.0.0.2");
      cs_call_tracker_add (tracker, msg);
      cs_sip_message_unref (msg);
    }
  calls = cs_call_tracker_finish (tracker, T0 + 40000 * MS);
  layout = cs_ladder_layout_new ((CsCall *const *) calls->pdata, 1, NULL);
  g_assert_cmpuint (layout->rows->len, ==, 3000);
  rows_per_page = (guint) ((CS_LADDER_PDF_PAGE_HEIGHT - 2 * CS_LADDER_PDF_MARGIN - 14)
                           - CS_LADDER_HEADER_HEIGHT)
                  / (guint) CS_LADDER_ROW_HEIGHT;
  g_assert_cmpuint (cs_ladder_pdf_page_count (layout), ==,
                    (3000 + rows_per_page - 1) / rows_per_page);
  g_assert_true (
      cs_ladder_export (layout, CS_LADDER_TIME_RELATIVE, pdf, CS_LADDER_FORMAT_PDF, &error));
  g_assert_no_error (error);
  /* PNG stops at its height limit and says so. */
  g_assert_true (
      cs_ladder_export (layout, CS_LADDER_TIME_RELATIVE, png, CS_LADDER_FORMAT_PNG, &error));
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, CS_LADDER_PNG_MAX_HEIGHT);
  cairo_surface_destroy (image);
  g_unlink (pdf);
  g_unlink (png);
  g_rmdir (dir);
}

static void
test_formats (void)
{
  CsLadderFormat format;
  CsLadderTimeMode mode;

  g_assert_true (cs_ladder_format_from_path ("a/b.PNG", &format));
  g_assert_cmpint (format, ==, CS_LADDER_FORMAT_PNG);
  g_assert_true (cs_ladder_format_from_path ("x.svg", &format));
  g_assert_cmpint (format, ==, CS_LADDER_FORMAT_SVG);
  g_assert_true (cs_ladder_format_from_path ("x.pdf", &format));
  g_assert_cmpint (format, ==, CS_LADDER_FORMAT_PDF);
  g_assert_true (cs_ladder_format_from_path ("x.txt", &format));
  g_assert_cmpint (format, ==, CS_LADDER_FORMAT_TEXT);
  g_assert_false (cs_ladder_format_from_path ("x.jpeg", &format));
  g_assert_false (cs_ladder_format_from_path ("noext", &format));
  g_assert_true (cs_ladder_time_mode_parse ("delta", &mode));
  g_assert_cmpint (mode, ==, CS_LADDER_TIME_DELTA);
  g_assert_false (cs_ladder_time_mode_parse ("since", &mode));
  g_assert_cmpint (cs_ladder_quality_for_mos (4.2), ==, CS_LADDER_QUALITY_GOOD);
  g_assert_cmpint (cs_ladder_quality_for_mos (3.7), ==, CS_LADDER_QUALITY_DEGRADED);
  g_assert_cmpint (cs_ladder_quality_for_mos (2.0), ==, CS_LADDER_QUALITY_BAD);
  g_assert_cmpint (cs_ladder_quality_for_mos (-1), ==, CS_LADDER_QUALITY_UNKNOWN);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/ladder/layout/columns-rows", Fixture, NULL, fixture_setup, test_layout_columns_rows,
              fixture_teardown);
  g_test_add ("/ladder/layout/navigation-times", Fixture, NULL, fixture_setup,
              test_layout_navigation_times, fixture_teardown);
  g_test_add ("/ladder/text", Fixture, NULL, fixture_setup, test_text, fixture_teardown);
  g_test_add ("/ladder/related-legs", Fixture, NULL, fixture_setup, test_related_legs,
              fixture_teardown);
  g_test_add ("/ladder/pdf-structure", Fixture, NULL, fixture_setup, test_pdf_structure,
              fixture_teardown);
  g_test_add ("/ladder/svg-pdf", Fixture, NULL, fixture_setup, test_svg_pdf, fixture_teardown);
  g_test_add_func ("/ladder/pdf-pagination", test_pdf_pagination);
  g_test_add_func ("/ladder/formats", test_formats);
  return g_test_run ();
}

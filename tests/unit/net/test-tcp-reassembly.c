/* test-tcp-reassembly.c — TCP stream reassembly and SIP framing */
#include "net/cs-tcp-reassembly.h"

#include <string.h>

#define INVITE                                                                                     \
  "INVITE sip:bob@example.com SIP/2.0\r\n"                                                         \
  "Via: SIP/2.0/TCP 10.0.0.1:5060;branch=z9hG4bK1\r\n"                                             \
  "Call-ID: abc@10.0.0.1\r\n"                                                                      \
  "CSeq: 1 INVITE\r\n"                                                                             \
  "Content-Type: application/sdp\r\n"                                                              \
  "Content-Length: 10\r\n"                                                                         \
  "\r\n"                                                                                           \
  "v=0\r\no=x\r\n"
#define TRYING                                                                                     \
  "SIP/2.0 100 Trying\r\n"                                                                         \
  "Call-ID: abc@10.0.0.1\r\n"                                                                      \
  "CSeq: 1 INVITE\r\n"                                                                             \
  "\r\n"
#define COMPACT                                                                                    \
  "MESSAGE sip:bob@example.com SIP/2.0\r\n"                                                        \
  "i: m1\r\n"                                                                                      \
  "l : 5\r\n"                                                                                      \
  "\r\n"                                                                                           \
  "hello"

typedef struct
{
  char *text;
  guint32 first_frame;
  guint32 last_frame;
  guint16 src_port;
} Message;

typedef struct
{
  CsTcpReassembler *r;
  GPtrArray *messages;
  guint32 next_frame;
} Fixture;

static void
message_free (gpointer p)
{
  Message *m = p;

  g_free (m->text);
  g_free (m);
}

static void
on_message (const guint8 *msg, gsize len, const CsPacket *packet, guint32 first_frame,
            guint32 last_frame, gint64 ts_ns, gpointer user_data)
{
  Fixture *f = user_data;
  Message *m = g_new0 (Message, 1);

  m->text = g_strndup ((const char *) msg, len);
  m->first_frame = first_frame;
  m->last_frame = last_frame;
  m->src_port = packet->src.port;
  g_ptr_array_add (f->messages, m);
}

static void
fixture_init (Fixture *f, gsize max_bytes, guint max_streams)
{
  f->r = cs_tcp_reassembler_new (max_bytes, max_streams);
  f->messages = g_ptr_array_new_with_free_func (message_free);
  f->next_frame = 1;
}

static void
fixture_clear (Fixture *f)
{
  cs_tcp_reassembler_free (f->r);
  g_ptr_array_unref (f->messages);
}

/* Feeds a segment of the direction 10.0.0.1:sport -> 10.0.0.2:5060; returns its frame number. */
static guint32
segment (Fixture *f, guint16 sport, guint32 seq, guint8 flags, const char *data, gsize len)
{
  CsPacket p;

  memset (&p, 0, sizeof p);
  cs_addr_parse (&p.src.addr, "10.0.0.1");
  cs_addr_parse (&p.dst.addr, "10.0.0.2");
  p.src.port = sport;
  p.dst.port = 5060;
  p.ip_version = 4;
  p.ip_proto = CS_IP_PROTO_TCP;
  p.tcp_seq = seq;
  p.tcp_flags = flags;
  p.payload = (const guint8 *) data;
  p.payload_len = data != NULL ? len : 0;
  guint32 frame = f->next_frame++;
  cs_tcp_reassembler_add (f->r, &p, frame, (gint64) frame * 1000, on_message, f);
  return frame;
}

static guint32
segment_str (Fixture *f, guint32 seq, const char *text)
{
  return segment (f, 40000, seq, CS_TCP_ACK | CS_TCP_PSH, text, strlen (text));
}

static const Message *
message_at (Fixture *f, guint i)
{
  g_assert_cmpuint (i, <, f->messages->len);
  return f->messages->pdata[i];
}

static void
test_start_line_check (void)
{
  struct
  {
    const char *text;
    int expected;
  } cases[] = {
    { "INVITE sip:a@b SIP/2.0\r\n", 1 },
    { "\r\n\r\nOPTIONS sip:a@b SIP/2.0\n", 1 },
    { "SIP/2.0 200 OK\r\n", 1 },
    { "SIP/2.0 180 ", 1 },
    { "sip/2.0 486 Busy\r\n", 1 },
    { "X-CUSTOM sips:x SIP/2.0\r\n", 1 },
    { "INV", -1 },
    { "INVITE sip:a@b SIP/2", -1 },
    { "SIP/2.0 2", -1 },
    { "", -1 },
    { "GET / HTTP/1.1\r\n", 0 },
    { "\x16\x03\x01\x02\x00", 0 },
    { "SIP/2.0 OK\r\n", 0 },
    { "INVITE  sip:a SIP/2.0\r\n", 0 },
    { "INVITE sip:a SIP/3.0\r\n", 0 },
    { "INVITE sip:a SIP/2.0 x\r\n", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("start line case %u", i);
      g_assert_cmpint (
          cs_tcp_sip_start_line_check ((const guint8 *) cases[i].text, strlen (cases[i].text)), ==,
          cases[i].expected);
    }
}

static void
test_two_messages_one_segment (void)
{
  Fixture f;

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 999, CS_TCP_SYN, NULL, 0);
  guint32 frame = segment_str (&f, 1000, INVITE TRYING);
  g_assert_cmpuint (f.messages->len, ==, 2);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, INVITE);
  g_assert_cmpstr (message_at (&f, 1)->text, ==, TRYING);
  g_assert_cmpuint (message_at (&f, 0)->first_frame, ==, frame);
  g_assert_cmpuint (message_at (&f, 1)->last_frame, ==, frame);
  g_assert_cmpuint (message_at (&f, 1)->src_port, ==, 40000);
  fixture_clear (&f);
}

static void
test_one_message_three_segments (void)
{
  Fixture f;
  const char *msg = INVITE;
  gsize len = strlen (msg);

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  guint32 f1 = segment (&f, 40000, 1, CS_TCP_ACK, msg, 10);
  segment (&f, 40000, 11, CS_TCP_ACK, msg + 10, 100);
  g_assert_cmpuint (f.messages->len, ==, 0);
  guint32 f3 = segment (&f, 40000, 111, CS_TCP_ACK, msg + 110, len - 110);
  g_assert_cmpuint (f.messages->len, ==, 1);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, INVITE);
  g_assert_cmpuint (message_at (&f, 0)->first_frame, ==, f1);
  g_assert_cmpuint (message_at (&f, 0)->last_frame, ==, f3);
  fixture_clear (&f);
}

static void
test_retransmission_dropped (void)
{
  Fixture f;
  const char *msg = INVITE;
  gsize len = strlen (msg);

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  segment (&f, 40000, 1, CS_TCP_ACK, msg, 50);
  segment (&f, 40000, 1, CS_TCP_ACK, msg, 50);       /* exact retransmission */
  segment (&f, 40000, 21, CS_TCP_ACK, msg + 20, 60); /* overlaps 30 old bytes, 30 new */
  segment (&f, 40000, 81, CS_TCP_ACK, msg + 80, len - 80);
  g_assert_cmpuint (f.messages->len, ==, 1);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, INVITE);
  /* The whole message retransmitted later is not delivered twice. */
  segment (&f, 40000, 1, CS_TCP_ACK, msg, len);
  g_assert_cmpuint (f.messages->len, ==, 1);
  fixture_clear (&f);
}

static void
test_out_of_order_segment (void)
{
  Fixture f;
  const char *msg = INVITE TRYING;
  gsize len = strlen (msg);

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 4999, CS_TCP_SYN, NULL, 0);
  guint32 f1 = segment (&f, 40000, 5000, CS_TCP_ACK, msg, 40);
  guint32 f3 = segment (&f, 40000, 5000 + 100, CS_TCP_ACK, msg + 100, len - 100);
  g_assert_cmpuint (f.messages->len, ==, 0);
  guint32 f2 = segment (&f, 40000, 5000 + 40, CS_TCP_ACK, msg + 40, 60);
  g_assert_cmpuint (f.messages->len, ==, 2);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, INVITE);
  g_assert_cmpstr (message_at (&f, 1)->text, ==, TRYING);
  g_assert_cmpuint (message_at (&f, 0)->first_frame, ==, f1);
  g_assert_cmpuint (message_at (&f, 0)->last_frame, ==, f3);
  g_assert_cmpuint (message_at (&f, 1)->first_frame, ==, f3);
  (void) f2;
  fixture_clear (&f);
}

static void
test_byte_by_byte (void)
{
  Fixture f;
  const char *msg = "\r\n" INVITE TRYING;
  gsize len = strlen (msg);
  guint32 frames[1024];

  g_assert_cmpuint (len, <, G_N_ELEMENTS (frames));
  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  for (gsize i = 0; i < len; i++)
    frames[i] = segment (&f, 40000, 1 + (guint32) i, CS_TCP_ACK, msg + i, 1);
  g_assert_cmpuint (f.messages->len, ==, 2);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, INVITE);
  g_assert_cmpstr (message_at (&f, 1)->text, ==, TRYING);
  g_assert_cmpuint (message_at (&f, 0)->first_frame, ==, frames[2]);
  g_assert_cmpuint (message_at (&f, 0)->last_frame, ==, frames[1 + strlen (INVITE)]);
  g_assert_cmpuint (message_at (&f, 1)->first_frame, ==, frames[2 + strlen (INVITE)]);
  g_assert_cmpuint (message_at (&f, 1)->last_frame, ==, frames[len - 1]);
  fixture_clear (&f);
}

static void
test_sequence_wraparound (void)
{
  Fixture f;
  const char *msg = TRYING;

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0xfffffff0u, CS_TCP_SYN, NULL, 0);
  segment (&f, 40000, 0xfffffff1u, CS_TCP_ACK, msg, 20);
  segment (&f, 40000, 0xfffffff1u + 20, CS_TCP_ACK, msg + 20, strlen (msg) - 20);
  g_assert_cmpuint (f.messages->len, ==, 1);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, TRYING);
  fixture_clear (&f);
}

static void
test_non_sip_stream_ignored (void)
{
  Fixture f;
  const char *http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  segment (&f, 40000, 1, CS_TCP_ACK, http, strlen (http));
  /* Later SIP-looking bytes on the same connection are ignored too. */
  segment (&f, 40000, 1 + (guint32) strlen (http), CS_TCP_ACK, TRYING, strlen (TRYING));
  g_assert_cmpuint (f.messages->len, ==, 0);

  /* A new connection (new SYN) on the same ports is looked at afresh. */
  segment (&f, 40000, 7000, CS_TCP_SYN, NULL, 0);
  segment (&f, 40000, 7001, CS_TCP_ACK, TRYING, strlen (TRYING));
  g_assert_cmpuint (f.messages->len, ==, 1);

  /* Picked up without its SYN: a few non-SIP segments, then ignored. */
  guint32 seq = 100;
  for (guint i = 0; i < 10; i++)
    {
      segment (&f, 41000, seq, CS_TCP_ACK, "\x17\x03\x03garbage", 10);
      seq += 10;
    }
  segment (&f, 41000, seq, CS_TCP_ACK, TRYING, strlen (TRYING));
  g_assert_cmpuint (f.messages->len, ==, 1);
  fixture_clear (&f);
}

static void
test_mid_stream_pickup_resyncs (void)
{
  Fixture f;
  const char *msg = INVITE;
  gsize len = strlen (msg);

  fixture_init (&f, 0, 0);
  /* No SYN: the first segment is the tail of a message, the next one starts a message. */
  segment (&f, 40000, 500, CS_TCP_ACK, msg + 60, len - 60);
  segment (&f, 40000, 500 + (guint32) (len - 60), CS_TCP_ACK, COMPACT, strlen (COMPACT));
  g_assert_cmpuint (f.messages->len, ==, 1);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, COMPACT);
  fixture_clear (&f);
}

static void
test_content_length_forms_and_keepalives (void)
{
  Fixture f;
  const char *stream = "\r\n\r\n" COMPACT "\r\n" TRYING "\r\n\r\n";

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  segment_str (&f, 1, stream);
  g_assert_cmpuint (f.messages->len, ==, 2);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, COMPACT);
  g_assert_cmpstr (message_at (&f, 1)->text, ==, TRYING);
  fixture_clear (&f);
}

static void
test_body_split_after_headers (void)
{
  Fixture f;
  const char *msg = INVITE;
  gsize len = strlen (msg);

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  /* Headers complete, body (10 bytes) not yet: wait. */
  segment (&f, 40000, 1, CS_TCP_ACK, msg, len - 4);
  g_assert_cmpuint (f.messages->len, ==, 0);
  segment (&f, 40000, 1 + (guint32) (len - 4), CS_TCP_ACK | CS_TCP_FIN, msg + len - 4, 4);
  g_assert_cmpuint (f.messages->len, ==, 1);
  g_assert_cmpstr (message_at (&f, 0)->text, ==, INVITE);
  fixture_clear (&f);
}

static void
test_fin_and_rst_release (void)
{
  Fixture f;
  const char *msg = INVITE;

  fixture_init (&f, 0, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  segment (&f, 40000, 1, CS_TCP_ACK, msg, 30);
  segment (&f, 40000, 31, CS_TCP_RST, NULL, 0);
  /* The rest of the message after the reset does not produce it. */
  segment (&f, 40000, 31, CS_TCP_ACK, msg + 30, strlen (msg) - 30);
  g_assert_cmpuint (f.messages->len, ==, 0);
  g_assert_cmpuint (cs_tcp_reassembler_get_evicted (f.r), ==, 0);
  fixture_clear (&f);
}

static void
test_gap_never_filled (void)
{
  Fixture f;

  fixture_init (&f, 2000, 0);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  segment (&f, 40000, 1, CS_TCP_ACK, INVITE, 20); /* the rest of the INVITE is lost */
  guint32 seq = 1 + (guint32) strlen (INVITE);
  /* Responses keep coming after the gap until the hold cap gives up on it. */
  for (guint i = 0; i < 40; i++)
    {
      segment_str (&f, seq, TRYING);
      seq += (guint32) strlen (TRYING);
    }
  g_assert_cmpuint (cs_tcp_reassembler_get_evicted (f.r), >=, 1);
  g_assert_cmpuint (f.messages->len, >=, 30);
  for (guint i = 0; i < f.messages->len; i++)
    g_assert_cmpstr (message_at (&f, i)->text, ==, TRYING);
  fixture_clear (&f);
}

static void
test_caps (void)
{
  Fixture f;
  char *huge_body
      = g_strdup_printf ("MESSAGE sip:a@b SIP/2.0\r\nContent-Length: 99999\r\n\r\n%0500d", 0);

  fixture_init (&f, 1024, 2);
  segment (&f, 40000, 0, CS_TCP_SYN, NULL, 0);
  guint32 seq = 1;
  for (guint i = 0; i < 2; i++)
    {
      segment (&f, 40000, seq, CS_TCP_ACK, huge_body, strlen (huge_body));
      seq += (guint32) strlen (huge_body);
    }
  /* More than 1024 bytes of one unfinished message: given up. */
  g_assert_cmpuint (cs_tcp_reassembler_get_evicted (f.r), ==, 1);
  /* The stream resynchronises on the next message. */
  segment_str (&f, seq, TRYING);
  g_assert_cmpuint (f.messages->len, ==, 1);

  /* Stream cap 2: a third direction evicts the least recently used one (holding bytes). */
  segment (&f, 41000, 0, CS_TCP_SYN, NULL, 0);
  segment (&f, 41000, 1, CS_TCP_ACK, INVITE, 20);
  segment (&f, 42000, 0, CS_TCP_SYN, NULL, 0);
  g_assert_cmpuint (cs_tcp_reassembler_get_stream_count (f.r), ==, 2);
  segment (&f, 43000, 0, CS_TCP_SYN, NULL, 0);
  g_assert_cmpuint (cs_tcp_reassembler_get_stream_count (f.r), ==, 2);
  g_assert_cmpuint (cs_tcp_reassembler_get_evicted (f.r), ==, 2);
  g_free (huge_body);
  fixture_clear (&f);
}

static void
test_random_segments (void)
{
  Fixture f;
  GRand *rand = g_rand_new_with_seed (7);
  const char *pieces[]
      = { INVITE, TRYING, COMPACT, "\r\n", "garbage", "Content-Length: 4000000000\r\n" };
  char buf[600];

  fixture_init (&f, 4096, 8);
  for (guint i = 0; i < 20000; i++)
    {
      const char *piece = pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))];
      gsize len = MIN (strlen (piece), sizeof buf);
      memcpy (buf, piece, len);
      if (g_rand_int_range (rand, 0, 4) == 0)
        buf[g_rand_int_range (rand, 0, (gint32) len)] = (char) g_rand_int (rand);
      guint8 flags = CS_TCP_ACK;
      if (g_rand_int_range (rand, 0, 50) == 0)
        flags |= 1u << g_rand_int_range (rand, 0, 3);
      segment (&f, (guint16) (40000 + g_rand_int_range (rand, 0, 12)),
               g_rand_int_range (rand, 0, 3000), flags, buf,
               g_rand_int_range (rand, 0, (gint32) len + 1));
      g_assert_cmpuint (cs_tcp_reassembler_get_stream_count (f.r), <=, 8);
    }
  g_test_message ("%u messages from random segments", f.messages->len);
  /* Whatever came out starts with a SIP start line. */
  for (guint i = 0; i < f.messages->len; i++)
    {
      const char *text = message_at (&f, i)->text;
      g_assert_cmpint (cs_tcp_sip_start_line_check ((const guint8 *) text, strlen (text)), ==, 1);
    }
  g_rand_free (rand);
  fixture_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tcp-reassembly/start-line-check", test_start_line_check);
  g_test_add_func ("/tcp-reassembly/two-messages-one-segment", test_two_messages_one_segment);
  g_test_add_func ("/tcp-reassembly/one-message-three-segments", test_one_message_three_segments);
  g_test_add_func ("/tcp-reassembly/retransmission", test_retransmission_dropped);
  g_test_add_func ("/tcp-reassembly/out-of-order", test_out_of_order_segment);
  g_test_add_func ("/tcp-reassembly/byte-by-byte", test_byte_by_byte);
  g_test_add_func ("/tcp-reassembly/sequence-wraparound", test_sequence_wraparound);
  g_test_add_func ("/tcp-reassembly/non-sip-ignored", test_non_sip_stream_ignored);
  g_test_add_func ("/tcp-reassembly/mid-stream-pickup", test_mid_stream_pickup_resyncs);
  g_test_add_func ("/tcp-reassembly/content-length-forms",
                   test_content_length_forms_and_keepalives);
  g_test_add_func ("/tcp-reassembly/body-split", test_body_split_after_headers);
  g_test_add_func ("/tcp-reassembly/fin-rst", test_fin_and_rst_release);
  g_test_add_func ("/tcp-reassembly/gap-never-filled", test_gap_never_filled);
  g_test_add_func ("/tcp-reassembly/caps", test_caps);
  g_test_add_func ("/tcp-reassembly/random", test_random_segments);
  return g_test_run ();
}

/* test-redact-frames.c — redacted frames: lengths and checksums recomputed where text changed
 * length, TCP sequence numbers and fragment offsets moved, HEP chunks rebuilt, outer tunnel
 * headers mapped, garbage survived */
#include <string.h>

#include "export/cs-redact.h"
#include "net/cs-decode.h"
#include "net/cs-hep.h"

static guint16
get16 (const guint8 *p)
{
  return (guint16) (p[0] << 8 | p[1]);
}

/* RFC 1071 sum, independent of the code under test. */
static guint16
checksum (const guint8 *p, gsize len, guint32 sum)
{
  for (gsize i = 0; i + 1 < len; i += 2)
    sum += (guint32) (p[i] << 8 | p[i + 1]);
  if (len & 1)
    sum += (guint32) p[len - 1] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) sum;
}

/* Ethernet + IPv4 (+ options) + UDP/TCP around payload; ip_extra prepends an outer IPv4
 * header (IP-in-IP). */
static GByteArray *
build_ipv4 (guint8 proto, const guint8 *payload, gsize plen, guint32 seq, guint16 id,
            guint16 frag_field, gboolean tunnel)
{
  GByteArray *f = g_byte_array_new ();
  guint8 eth[14] = { 0, 1, 2, 3, 4, 5, 0x00, 0x16, 0x3e, 9, 10, 11, 0x08, 0x00 };
  guint8 outer[20] = { 0x45, 0, 0, 0, 0, 7, 0, 0, 64, 4, 0, 0, 81, 2, 69, 1, 81, 2, 69, 2 };
  guint8 ip[20] = { 0x45, 0, 0, 0, 0, 0, 0, 0, 64, proto, 0, 0, 10, 0, 0, 10, 10, 0, 0, 1 };
  guint8 udp[8] = { 0x13, 0xc4, 0x13, 0xc4, 0, 0, 0x12, 0x34 };
  guint8 tcp[20] = { 0x13, 0xc4, 0x9c, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 0x50, 0x18, 0xff, 0xff };
  gsize l4 = frag_field & 0x1fff ? 0 : (proto == 17 ? 8 : 20);
  guint16 total = (guint16) (20 + l4 + plen);

  ip[2] = total >> 8, ip[3] = total & 0xff;
  ip[4] = id >> 8, ip[5] = id & 0xff;
  ip[6] = frag_field >> 8, ip[7] = frag_field & 0xff;
  udp[4] = (guint8) ((8 + plen) >> 8), udp[5] = (guint8) (8 + plen);
  tcp[4] = seq >> 24, tcp[5] = seq >> 16, tcp[6] = seq >> 8, tcp[7] = (guint8) seq;
  g_byte_array_append (f, eth, 14);
  if (tunnel)
    {
      guint16 ot = (guint16) (total + 20);

      outer[2] = ot >> 8, outer[3] = ot & 0xff;
      g_byte_array_append (f, outer, 20);
    }
  g_byte_array_append (f, ip, 20);
  if (l4 == 8)
    g_byte_array_append (f, udp, 8);
  else if (l4 == 20)
    g_byte_array_append (f, tcp, 20);
  g_byte_array_append (f, payload, (guint) plen);
  return f;
}

static GByteArray *
rewrite (CsRedactor *r, guint32 number, const GByteArray *f, gsize *origlen)
{
  *origlen = f->len;
  return cs_redactor_rewrite_frame (r, number, CS_LINKTYPE_ETHERNET, f->data, f->len, origlen);
}

static void
assert_ipv4_valid (const guint8 *ip, gsize ip_avail)
{
  gsize hl = (gsize) (ip[0] & 0x0f) * 4;

  g_assert_cmphex (checksum (ip, hl, 0), ==, 0xffff);
  g_assert_cmpuint (get16 (ip + 2), ==, ip_avail);
}

static void
assert_udp_valid (const guint8 *ip, const guint8 *udp)
{
  guint16 len = get16 (udp + 4);

  g_assert_cmphex (checksum (udp, len, checksum (ip + 12, 8, 0) + 17 + len), ==, 0xffff);
}

static const char sip[] = "MESSAGE sip:bob@10.0.0.1 SIP/2.0\r\n"
                          "From: \"Bob Marley\" <sip:bob@10.0.0.10>;tag=77a\r\n"
                          "Content-Type: application/sdp\r\n"
                          "Content-Length: 34\r\n"
                          "\r\n"
                          "v=0\r\nc=IN IP4 10.0.0.10\r\nm=x 0 x\r\n";

static void
test_udp_length_changes (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GByteArray) f = build_ipv4 (17, (const guint8 *) sip, strlen (sip), 0, 1, 0, FALSE);
  g_autoptr (GByteArray) out = NULL;
  CsPacket pkt;
  gsize origlen;
  const char *body;
  g_autofree char *text = NULL;

  cs_redactor_observe_frame (r, 1, CS_LINKTYPE_ETHERNET, f->data, f->len);
  g_assert_true (cs_redactor_seal (r, NULL));
  out = rewrite (r, 1, f, &origlen);
  /* 10.0.0.1 (8) and 10.0.0.10 (9 characters) become 192.0.2.x (10 to 12): longer */
  g_assert_cmpuint (out->len, >, f->len);
  g_assert_cmpuint (origlen, ==, out->len);
  assert_ipv4_valid (out->data + 14, out->len - 14);
  assert_udp_valid (out->data + 14, out->data + 34);
  g_assert_cmpuint (get16 (out->data + 34 + 4), ==, out->len - 34);
  /* the MAC addresses are locally administered replacements */
  g_assert_cmpint (memcmp (out->data + 6, f->data + 6, 6), !=, 0);
  g_assert_cmphex (out->data[6] & 0x03, ==, 0x02);
  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, out->data, out->len, &pkt), ==,
                   CS_DECODE_OK);
  text = g_strndup ((const char *) pkt.payload, pkt.payload_len);
  g_assert_null (strstr (text, "10.0.0."));
  g_assert_null (strstr (text, "bob"));
  g_assert_null (strstr (text, "Marley"));
  body = strstr (text, "\r\n\r\n") + 4;
  {
    g_autofree char *cl = g_strdup_printf ("Content-Length: %zu\r\n", strlen (body));

    g_assert_nonnull (strstr (text, cl));
  }
}

static void
test_tcp_segments_split_inside_an_address (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  gsize len = strlen (sip), cut = strstr (sip, "10.0.0.10") - sip + 4; /* "10.0|.0.10" */
  guint32 seq0 = 0xfffffff0u;                                          /* wraps inside the stream */
  g_autoptr (GByteArray) a = build_ipv4 (6, (const guint8 *) sip, cut, seq0, 1, 0, FALSE);
  g_autoptr (GByteArray) b
      = build_ipv4 (6, (const guint8 *) sip + cut, len - cut, seq0 + (guint32) cut, 2, 0, FALSE);
  g_autoptr (GByteArray) ra = NULL;
  g_autoptr (GByteArray) rb = NULL;
  g_autoptr (GByteArray) whole = NULL;
  GByteArray *joined = g_byte_array_new ();
  CsPacket pa, pb;
  gsize origlen;

  cs_redactor_observe_frame (r, 1, CS_LINKTYPE_ETHERNET, a->data, a->len);
  cs_redactor_observe_frame (r, 2, CS_LINKTYPE_ETHERNET, b->data, b->len);
  g_assert_true (cs_redactor_seal (r, NULL));
  ra = rewrite (r, 1, a, &origlen);
  rb = rewrite (r, 2, b, &origlen);
  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, ra->data, ra->len, &pa), ==,
                   CS_DECODE_OK);
  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, rb->data, rb->len, &pb), ==,
                   CS_DECODE_OK);
  /* the second segment starts where the first one's new bytes end */
  g_assert_cmphex (pb.tcp_seq, ==, pa.tcp_seq + (guint32) pa.payload_len);
  g_assert_cmphex (pa.tcp_seq, ==, seq0);
  assert_ipv4_valid (ra->data + 14, ra->len - 14);
  assert_ipv4_valid (rb->data + 14, rb->len - 14);
  /* TCP checksums over the pseudo-header */
  {
    const guint8 *ip = rb->data + 14;
    gsize seg = rb->len - 34;

    g_assert_cmphex (checksum (ip + 20, seg, checksum (ip + 12, 8, 0) + 6 + (guint32) seg), ==,
                     0xffff);
  }
  /* joined, the segments are the message redacted whole: the split address is gone too */
  g_byte_array_append (joined, pa.payload, (guint) pa.payload_len);
  g_byte_array_append (joined, pb.payload, (guint) pb.payload_len);
  whole = cs_redactor_rewrite_sip (r, sip, len);
  g_assert_cmpmem (joined->data, joined->len, whole->data, whole->len);
  g_assert_null (g_strstr_len ((const char *) joined->data, joined->len, "10.0.0"));
  g_byte_array_unref (joined);
}

static void
test_fragments_out_of_order (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  GString *big = g_string_new ("MESSAGE sip:carol@10.0.0.1 SIP/2.0\r\nContent-Type: text/x\r\n");
  g_autoptr (GByteArray) datagram = g_byte_array_new ();
  GByteArray *frames[3];
  guint order[3] = { 2, 0, 1 }, offsets[3] = { 0, 1480, 2960 };
  GByteArray *rebuilt = g_byte_array_new ();
  guint8 udp[8] = { 0x13, 0xc4, 0x13, 0xc4, 0, 0, 0xbe, 0xef };
  gsize body_len;

  for (guint i = 0; i < 100; i++)
    g_string_append_printf (big, "X-Hop-%02u: carol at 10.0.%u.%u\r\n", i, i, i + 1);
  body_len = 0;
  g_string_append_printf (big, "Content-Length: %zu\r\n\r\n", body_len);
  udp[4] = (guint8) ((8 + big->len) >> 8), udp[5] = (guint8) (8 + big->len);
  g_byte_array_append (datagram, udp, 8);
  g_byte_array_append (datagram, (const guint8 *) big->str, (guint) big->len);
  g_assert_cmpuint (datagram->len, >, 2960);
  for (guint k = 0; k < 3; k++)
    {
      guint end = k < 2 ? offsets[k + 1] : datagram->len;
      guint16 field = (guint16) ((k < 2 ? 0x2000 : 0) | offsets[k] / 8);

      /* build_ipv4 adds a UDP header only to unfragmented frames: pass the bytes raw */
      frames[k] = build_ipv4 (17, datagram->data + offsets[k], end - offsets[k], 0, 4242,
                              field | (k == 0 ? 0x2000 : 0), FALSE);
      if (k == 0)
        {
          /* offset 0 with MF: build_ipv4 took it for a whole datagram; drop its UDP header */
          g_byte_array_remove_range (frames[k], 34, 8);
          frames[k]->data[16] = (guint8) ((20 + end) >> 8),
          frames[k]->data[17] = (guint8) (20 + end);
        }
    }
  for (guint i = 0; i < 3; i++)
    cs_redactor_observe_frame (r, 10 + i, CS_LINKTYPE_ETHERNET, frames[order[i]]->data,
                               frames[order[i]]->len);
  g_assert_true (cs_redactor_seal (r, NULL));
  g_byte_array_set_size (rebuilt, 0);
  for (guint k = 0; k < 3; k++)
    {
      guint i = 0;
      gsize origlen;
      CsPacket pkt;
      g_autoptr (GByteArray) out = NULL;

      while (order[i] != k)
        i++;
      out = rewrite (r, 10 + i, frames[k], &origlen);
      g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, out->data, out->len, &pkt), ==,
                       CS_DECODE_FRAGMENT);
      assert_ipv4_valid (out->data + 14, out->len - 14);
      /* in order of offset, each fragment continues the previous one, on 8-byte bounds */
      g_assert_cmpuint (pkt.frag.offset, ==, rebuilt->len);
      g_assert_cmpuint (pkt.frag.offset % 8, ==, 0);
      g_assert_cmpint (pkt.frag.more, ==, k < 2);
      g_byte_array_append (rebuilt, pkt.frag.data, (guint) pkt.frag.len);
    }
  /* the datagram: UDP length and checksum of the whole, no original left */
  g_assert_cmpuint (get16 (rebuilt->data + 4), ==, rebuilt->len);
  {
    guint8 pseudo[8];
    CsAddr a, m;

    cs_addr_parse (&a, "10.0.0.10");
    cs_redactor_map_addr (r, &a, &m);
    memcpy (pseudo, m.bytes, 4);
    cs_addr_parse (&a, "10.0.0.1");
    cs_redactor_map_addr (r, &a, &m);
    memcpy (pseudo + 4, m.bytes, 4);
    g_assert_cmphex (
        checksum (rebuilt->data, rebuilt->len, checksum (pseudo, 8, 0) + 17 + rebuilt->len), ==,
        0xffff);
  }
  g_assert_null (g_strstr_len ((const char *) rebuilt->data, rebuilt->len, "carol"));
  g_assert_null (g_strstr_len ((const char *) rebuilt->data, rebuilt->len, " 10.0."));
  for (guint k = 0; k < 3; k++)
    g_byte_array_unref (frames[k]);
  g_byte_array_unref (rebuilt);
  g_string_free (big, TRUE);
}

static void
test_incomplete_fragment_blanked (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  const char *text = "INVITE sip:dave@10.0.0.1 SIP/2.0\r\nFrom: <sip:dave@10.0.0.10>\r\n";
  g_autoptr (GByteArray) f
      = build_ipv4 (17, (const guint8 *) text, 48, 0, 99, 0x2000 | (1480 / 8), FALSE);
  g_autoptr (GByteArray) out = NULL;
  gsize origlen;

  cs_redactor_observe_frame (r, 1, CS_LINKTYPE_ETHERNET, f->data, f->len);
  g_assert_true (cs_redactor_seal (r, NULL));
  out = rewrite (r, 1, f, &origlen);
  g_assert_cmpuint (out->len, ==, f->len);
  g_assert_null (g_strstr_len ((const char *) out->data, out->len, "dave"));
  g_assert_cmpuint (cs_redactor_get_n_blanked (r), ==, 1);
  assert_ipv4_valid (out->data + 14, out->len - 14);
}

static void
test_tunnel_outer_addresses (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GByteArray) f = build_ipv4 (17, (const guint8 *) sip, strlen (sip), 0, 1, 0, TRUE);
  g_autoptr (GByteArray) out = NULL;
  gsize origlen;

  cs_redactor_observe_frame (r, 1, CS_LINKTYPE_ETHERNET, f->data, f->len);
  g_assert_true (cs_redactor_seal (r, NULL));
  out = rewrite (r, 1, f, &origlen);
  /* the outer (tunnel) header: addresses mapped, length and checksum follow the inner */
  g_assert_cmpint (memcmp (out->data + 14 + 12, (guint8[]){ 81, 2, 69, 1 }, 4), !=, 0);
  g_assert_cmpint (memcmp (out->data + 14 + 16, (guint8[]){ 81, 2, 69, 2 }, 4), !=, 0);
  assert_ipv4_valid (out->data + 14, out->len - 14);
  assert_ipv4_valid (out->data + 34, out->len - 34);
  assert_udp_valid (out->data + 34, out->data + 54);
}

static void
test_gre_checksum (void)
{
  /* Ethernet, outer IPv4 (protocol 47), GRE with its checksum bit, inner IPv4/UDP/SIP */
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GByteArray) inner
      = build_ipv4 (17, (const guint8 *) sip, strlen (sip), 0, 1, 0, FALSE);
  g_autoptr (GByteArray) f = g_byte_array_new ();
  g_autoptr (GByteArray) out = NULL;
  guint8 outer[20] = { 0x45, 0, 0, 0, 0, 9, 0, 0, 64, 47, 0, 0, 81, 2, 69, 1, 81, 2, 69, 2 };
  guint8 gre[8] = { 0x80, 0, 0x08, 0x00, 0, 0, 0, 0 };
  gsize inner_ip = inner->len - 14, origlen;
  CsPacket pkt;

  outer[2] = (guint8) ((20 + 8 + inner_ip) >> 8), outer[3] = (guint8) (20 + 8 + inner_ip);
  g_byte_array_append (f, inner->data, 14);
  g_byte_array_append (f, outer, 20);
  g_byte_array_append (f, gre, 8);
  g_byte_array_append (f, inner->data + 14, (guint) inner_ip);
  cs_redactor_observe_frame (r, 1, CS_LINKTYPE_ETHERNET, f->data, f->len);
  g_assert_true (cs_redactor_seal (r, NULL));
  out = rewrite (r, 1, f, &origlen);
  g_assert_cmpuint (cs_redactor_get_n_blanked (r), ==, 0);
  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, out->data, out->len, &pkt), ==,
                   CS_DECODE_OK);
  g_assert_cmpuint (pkt.n_tunnels, ==, 1);
  assert_ipv4_valid (out->data + 14, out->len - 14);
  /* the GRE checksum covers the GRE header and the inner packet, as rewritten */
  g_assert_cmphex (checksum (out->data + 34, out->len - 34, 0), ==, 0xffff);
  assert_ipv4_valid (out->data + 42, out->len - 42);
  assert_udp_valid (out->data + 42, out->data + 62);
  g_assert_null (g_strstr_len ((const char *) out->data, out->len, "Marley"));
}

/* One HEP3 chunk. */
static void
chunk (GByteArray *b, guint16 type, const void *value, gsize len)
{
  guint8 head[6] = { 0, 0, type >> 8, type & 0xff, (guint8) ((len + 6) >> 8), (guint8) (len + 6) };

  g_byte_array_append (b, head, 6);
  g_byte_array_append (b, value, (guint) len);
}

static void
test_hep3_credentials_and_payload (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  GByteArray *hep = g_byte_array_new ();
  guint8 family = 2, proto = 17, sip_type = 1, v4src[4] = { 172, 16, 4, 1 },
         v4dst[4] = { 172, 16, 4, 2 };
  const char *call_id = "a84b4c76e66710@pbx.secret-corp.com";
  g_autoptr (GByteArray) f = NULL;
  g_autoptr (GByteArray) out = NULL;
  CsPacket pkt;
  CsHepPacket decoded;
  g_autoptr (GError) error = NULL;
  gsize origlen;

  g_byte_array_append (hep, (const guint8 *) "HEP3\0\0", 6);
  chunk (hep, 0x0001, &family, 1);
  chunk (hep, 0x0002, &proto, 1);
  chunk (hep, 0x0003, v4src, 4);
  chunk (hep, 0x0004, v4dst, 4);
  chunk (hep, 0x000b, &sip_type, 1);
  chunk (hep, 0x000e, "hunter2pass", 11);
  chunk (hep, 0x0013, "sbc-frankfurt-01", 16);
  chunk (hep, 0x0011, call_id, strlen (call_id));
  chunk (hep, 0x000f, sip, strlen (sip));
  hep->data[4] = (guint8) (hep->len >> 8), hep->data[5] = (guint8) hep->len;
  f = build_ipv4 (17, hep->data, hep->len, 0, 1, 0, FALSE);
  cs_redactor_observe_frame (r, 1, CS_LINKTYPE_ETHERNET, f->data, f->len);
  g_assert_true (cs_redactor_seal (r, NULL));
  out = rewrite (r, 1, f, &origlen);
  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, out->data, out->len, &pkt), ==,
                   CS_DECODE_OK);
  assert_udp_valid (out->data + 14, out->data + 34);
  /* the HEP packet decodes again, its length and chunk lengths right */
  g_assert_true (cs_hep_decode (pkt.payload, pkt.payload_len, &decoded, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (get16 (pkt.payload + 4), ==, pkt.payload_len);
  g_assert_cmpuint (decoded.auth_key_len, ==, 11);
  g_assert_cmpint (memcmp (decoded.auth_key, "hunter2pass", 11), !=, 0);
  g_assert_cmpint (memcmp (decoded.src.addr.bytes, v4src, 4), !=, 0);
  g_assert_cmpuint (decoded.src.addr.bytes[0], ==, 192); /* private → 192.0.2.0/24 */
  for (const char *gone[] = { "hunter2pass", "frankfurt", "secret-corp", "bob", "10.0.0.1", NULL },
                  **g = gone;
       *g != NULL; g++)
    g_assert_null (g_strstr_len ((const char *) pkt.payload, pkt.payload_len, *g));
  /* the correlation id is the Call-ID, redacted the same way as the SIP's */
  {
    g_autofree char *id = g_strndup (decoded.correlation_id, decoded.correlation_id_len);

    g_assert_true (g_str_has_suffix (id, ".example"));
  }
  g_byte_array_unref (hep);
}

static void
test_garbage_frames (void)
{
  GRand *rand = g_rand_new_with_seed (24);
  g_autofree guint8 *noise = g_malloc (2048);

  for (guint round = 0; round < 300; round++)
    {
      g_autoptr (CsRedactor) r = cs_redactor_new ();
      guint linktypes[] = { CS_LINKTYPE_ETHERNET, CS_LINKTYPE_RAW, CS_LINKTYPE_LINUX_SLL };
      guint lt = linktypes[round % 3];
      gsize len = (gsize) g_rand_int_range (rand, 0, 2048);
      g_autoptr (GByteArray) valid
          = build_ipv4 (round % 2 ? 6 : 17, (const guint8 *) sip, strlen (sip), round, 1, 0, FALSE);
      gsize origlen = len;
      GByteArray *out;

      for (gsize k = 0; k < len; k++)
        noise[k] = (guint8) g_rand_int (rand);
      /* a real frame with random bytes flipped, then pure noise */
      for (guint k = 0; k < 8; k++)
        valid->data[g_rand_int_range (rand, 0, (gint32) valid->len)] = (guint8) g_rand_int (rand);
      cs_redactor_observe_frame (r, 1, CS_LINKTYPE_ETHERNET, valid->data, valid->len);
      cs_redactor_observe_frame (r, 2, lt, noise, len);
      g_assert_true (cs_redactor_seal (r, NULL));
      out = cs_redactor_rewrite_frame (r, 2, lt, noise, len, &origlen);
      g_assert_nonnull (out);
      g_byte_array_unref (out);
      origlen = valid->len;
      out = cs_redactor_rewrite_frame (r, 1, CS_LINKTYPE_ETHERNET, valid->data, valid->len,
                                       &origlen);
      g_assert_nonnull (out);
      g_assert_null (g_strstr_len ((const char *) out->data, out->len, "Marley"));
      g_byte_array_unref (out);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/redact-frames/udp-length-changes", test_udp_length_changes);
  g_test_add_func ("/redact-frames/tcp-split-address", test_tcp_segments_split_inside_an_address);
  g_test_add_func ("/redact-frames/fragments-out-of-order", test_fragments_out_of_order);
  g_test_add_func ("/redact-frames/incomplete-fragment", test_incomplete_fragment_blanked);
  g_test_add_func ("/redact-frames/tunnel-outer", test_tunnel_outer_addresses);
  g_test_add_func ("/redact-frames/gre-checksum", test_gre_checksum);
  g_test_add_func ("/redact-frames/hep3", test_hep3_credentials_and_payload);
  g_test_add_func ("/redact-frames/garbage", test_garbage_frames);
  return g_test_run ();
}

/* test-sdp.c — SDP parser */
#include "base/cs-error.h"
#include "sip/cs-sdp.h"

#include <string.h>

/* sip-rtp-g711.pcap, the FreeSWITCH answer */
static const char freeswitch_answer[] = "v=0\r\n"
                                        "o=FreeSWITCH 1480144037 1480144038 IN IP4 10.0.2.15\r\n"
                                        "s=FreeSWITCH\r\n"
                                        "c=IN IP4 10.0.2.15\r\n"
                                        "t=0 0\r\n"
                                        "m=audio 27942 RTP/AVP 0 101\r\n"
                                        "a=rtpmap:0 PCMU/8000\r\n"
                                        "a=rtpmap:101 telephone-event/8000\r\n"
                                        "a=fmtp:101 0-16\r\n"
                                        "a=sendonly\r\n"
                                        "a=ptime:20\r\n";

static CsSdp *
parse_str (const char *text)
{
  GError *error = NULL;
  CsSdp *sdp = cs_sdp_parse (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (sdp);
  return sdp;
}

static CsSdpMedia *
media_at (CsSdp *sdp, guint i)
{
  g_assert_cmpuint (i, <, sdp->media->len);
  return g_ptr_array_index (sdp->media, i);
}

static void
assert_addr (const CsAddr *addr, const char *expected)
{
  char buf[CS_ADDR_STRLEN];

  g_assert_cmpstr (cs_addr_to_string (addr, buf), ==, expected);
}

static void
test_real_answer (void)
{
  g_autoptr (CsSdp) sdp = parse_str (freeswitch_answer);

  g_assert_null (sdp->malformed);
  g_assert_cmpstr (sdp->origin_username, ==, "FreeSWITCH");
  g_assert_cmpuint (sdp->session_id, ==, 1480144037);
  g_assert_cmpuint (sdp->session_version, ==, 1480144038);
  assert_addr (&sdp->origin_address, "10.0.2.15");
  g_assert_cmpstr (sdp->session_name, ==, "FreeSWITCH");
  assert_addr (&sdp->connection, "10.0.2.15");
  g_assert_cmpint (sdp->direction, ==, CS_SDP_SENDRECV);
  g_assert_cmpuint (sdp->media->len, ==, 1);

  CsSdpMedia *audio = media_at (sdp, 0);
  g_assert_cmpstr (audio->media, ==, "audio");
  g_assert_cmpuint (audio->port, ==, 27942);
  g_assert_cmpuint (audio->n_ports, ==, 1);
  g_assert_cmpstr (audio->proto, ==, "RTP/AVP");
  assert_addr (&audio->connection, "10.0.2.15");
  g_assert_cmpint (audio->direction, ==, CS_SDP_SENDONLY);
  g_assert_true (cs_sdp_media_is_hold (audio));
  g_assert_cmpuint (audio->ptime, ==, 20);
  g_assert_cmpuint (audio->maxptime, ==, 0);
  g_assert_cmpuint (audio->rtcp_port, ==, 0);
  g_assert_false (audio->rtcp_mux);
  g_assert_cmpuint (audio->formats->len, ==, 2);

  const CsSdpFormat *pcmu = &g_array_index (audio->formats, CsSdpFormat, 0);
  const CsSdpFormat *dtmf = &g_array_index (audio->formats, CsSdpFormat, 1);
  g_assert_cmpuint (pcmu->payload_type, ==, 0);
  g_assert_cmpstr (pcmu->encoding, ==, "PCMU");
  g_assert_cmpuint (pcmu->clock_rate, ==, 8000);
  g_assert_cmpuint (pcmu->channels, ==, 1);
  g_assert_null (pcmu->fmtp);
  g_assert_cmpuint (dtmf->payload_type, ==, 101);
  g_assert_cmpstr (dtmf->encoding, ==, "telephone-event");
  g_assert_cmpstr (dtmf->fmtp, ==, "0-16");
  g_assert_true (cs_sdp_media_find_format (audio, 101) == dtmf);
  g_assert_null (cs_sdp_media_find_format (audio, 8));
}

static void
test_session_vs_media (void)
{
  g_autoptr (CsSdp) sdp = parse_str ("v=0\n"
                                     "o=alice 2890844526 2890844527 IN IP4 192.0.2.10\n"
                                     "s=Session\n"
                                     "c=IN IP4 192.0.2.10\n"
                                     "t=0 0\n"
                                     "a=sendonly\n"
                                     "a=rtpmap:0 PCMU/8000\n"
                                     "m=audio 49170 RTP/AVP 0 8\n"
                                     "c=IN IP4 198.51.100.7\n"
                                     "a=recvonly\n"
                                     "a=maxptime:40\n"
                                     "m=video 51372/2 RTP/AVP 31 96\n"
                                     "a=rtpmap:96 H264/90000\n"
                                     "a=fmtp:96 profile-level-id=42e01f; packetization-mode=1\n"
                                     "a=rtcp:51374 IN IP4 192.0.2.10\n"
                                     "a=rtcp-mux\n");

  g_assert_null (sdp->malformed);
  g_assert_cmpint (sdp->direction, ==, CS_SDP_SENDONLY);
  assert_addr (&sdp->connection, "192.0.2.10");
  g_assert_cmpuint (sdp->media->len, ==, 2);

  CsSdpMedia *audio = media_at (sdp, 0);
  assert_addr (&audio->connection, "198.51.100.7");
  g_assert_cmpint (audio->direction, ==, CS_SDP_RECVONLY);
  g_assert_false (cs_sdp_media_is_hold (audio));
  g_assert_cmpuint (audio->maxptime, ==, 40);
  /* a session-level rtpmap does not apply to media */
  g_assert_null (cs_sdp_media_find_format (audio, 0)->encoding);

  CsSdpMedia *video = media_at (sdp, 1);
  assert_addr (&video->connection, "192.0.2.10");
  g_assert_cmpint (video->direction, ==, CS_SDP_SENDONLY);
  g_assert_cmpuint (video->port, ==, 51372);
  g_assert_cmpuint (video->n_ports, ==, 2);
  g_assert_cmpuint (video->rtcp_port, ==, 51374);
  g_assert_true (video->rtcp_mux);
  const CsSdpFormat *h264 = cs_sdp_media_find_format (video, 96);
  g_assert_cmpstr (h264->encoding, ==, "H264");
  g_assert_cmpuint (h264->clock_rate, ==, 90000);
  g_assert_cmpuint (h264->channels, ==, 0);
  g_assert_cmpstr (h264->fmtp, ==, "profile-level-id=42e01f; packetization-mode=1");
  /* static payload type without rtpmap */
  const CsSdpFormat *h261 = cs_sdp_media_find_format (video, 31);
  g_assert_nonnull (h261);
  g_assert_null (h261->encoding);
  g_assert_cmpuint (h261->clock_rate, ==, 0);
}

static void
test_hold (void)
{
  g_autoptr (CsSdp) inactive
      = parse_str ("v=0\r\no=- 1 2 IN IP4 10.0.0.1\r\ns=-\r\nc=IN IP4 10.0.0.1\r\nt=0 0\r\n"
                   "m=audio 4000 RTP/AVP 0\r\na=inactive\r\n");
  g_autoptr (CsSdp) zero
      = parse_str ("v=0\r\no=- 1 2 IN IP4 10.0.0.1\r\ns=-\r\nc=IN IP4 0.0.0.0\r\nt=0 0\r\n"
                   "m=audio 4000 RTP/AVP 0\r\n");
  g_autoptr (CsSdp) active
      = parse_str ("v=0\r\no=- 1 2 IN IP4 10.0.0.1\r\ns=-\r\nc=IN IP4 10.0.0.1\r\nt=0 0\r\n"
                   "m=audio 4000 RTP/AVP 0\r\n");

  g_assert_cmpint (media_at (inactive, 0)->direction, ==, CS_SDP_INACTIVE);
  g_assert_true (cs_sdp_media_is_hold (media_at (inactive, 0)));
  g_assert_cmpint (media_at (zero, 0)->direction, ==, CS_SDP_SENDRECV);
  assert_addr (&media_at (zero, 0)->connection, "0.0.0.0");
  g_assert_cmpuint (media_at (zero, 0)->connection.family, ==, 4);
  g_assert_true (cs_sdp_media_is_hold (media_at (zero, 0)));
  g_assert_false (cs_sdp_media_is_hold (media_at (active, 0)));
  g_assert_false (cs_sdp_media_is_hold (NULL));
}

static void
test_addresses (void)
{
  g_autoptr (CsSdp) sdp = parse_str ("v=0\r\n"
                                     "o=bob 18446744073709551615 1 IN IP6 2001:db8::2\r\n"
                                     "s= \r\n"
                                     "c=IN IP6 2001:db8::2\r\n"
                                     "t=0 0\r\n"
                                     "m=audio 5004 RTP/AVP 96\r\n"
                                     "a=rtpmap:96 opus/48000/2\r\n"
                                     "m=audio 5006 RTP/AVP 0\r\n"
                                     "c=IN IP4 224.2.1.1/127/3\r\n"
                                     "m=audio 5008 RTP/AVP 0\r\n"
                                     "c=IN IP4 pbx.example.com\r\n");

  g_assert_null (sdp->malformed);
  g_assert_cmpuint (sdp->session_id, ==, G_MAXUINT64);
  assert_addr (&sdp->origin_address, "2001:db8::2");
  g_assert_cmpuint (sdp->connection.family, ==, 6);
  g_assert_cmpstr (sdp->session_name, ==, "");
  assert_addr (&media_at (sdp, 0)->connection, "2001:db8::2");
  const CsSdpFormat *opus = cs_sdp_media_find_format (media_at (sdp, 0), 96);
  g_assert_cmpstr (opus->encoding, ==, "opus");
  g_assert_cmpuint (opus->clock_rate, ==, 48000);
  g_assert_cmpuint (opus->channels, ==, 2);
  assert_addr (&media_at (sdp, 1)->connection, "224.2.1.1");
  /* an FQDN is legal but gives no address */
  g_assert_cmpuint (media_at (sdp, 2)->connection.family, ==, 0);
}

static void
test_non_rtp (void)
{
  g_autoptr (CsSdp) sdp = parse_str ("v=0\r\no=- 1 1 IN IP4 10.0.0.1\r\ns=-\r\nt=0 0\r\n"
                                     "m=image 6000 udptl t38\r\n"
                                     "c=IN IP4 10.0.0.1\r\n"
                                     "a=T38FaxVersion:0\r\n"
                                     "m=audio 0 RTP/AVP 0\r\n");

  g_assert_null (sdp->malformed);
  g_assert_cmpstr (media_at (sdp, 0)->media, ==, "image");
  g_assert_cmpstr (media_at (sdp, 0)->proto, ==, "udptl");
  g_assert_cmpuint (media_at (sdp, 0)->formats->len, ==, 0);
  g_assert_cmpuint (media_at (sdp, 1)->port, ==, 0);
  /* no session c=: the rejected stream has no address */
  g_assert_cmpuint (media_at (sdp, 1)->connection.family, ==, 0);
}

static void
test_garbage (void)
{
  g_autoptr (CsSdp) sdp = parse_str ("v=0\r\n"
                                     "this line is junk\r\n"
                                     "o=- 1 1 IN IP4 10.0.0.1\r\n"
                                     "=novalue\r\n"
                                     "s=-\r\n"
                                     "\r\n"
                                     "c=IN IP4 10.0.0.1\r\n"
                                     "m=audio 7078 RTP/AVP 0 8 101\r\n"
                                     "a=rtpmap:8 PCMA/8000\r\n"
                                     "a=rtpmap:99 nothere/8000\r\n"
                                     "x\r\n"
                                     "a=ptime:20.0\r\n");

  g_assert_cmpstr (sdp->malformed, ==, "bad line");
  g_assert_cmpuint (sdp->media->len, ==, 1);
  CsSdpMedia *audio = media_at (sdp, 0);
  g_assert_cmpuint (audio->port, ==, 7078);
  g_assert_cmpuint (audio->formats->len, ==, 3);
  g_assert_cmpstr (cs_sdp_media_find_format (audio, 8)->encoding, ==, "PCMA");
  g_assert_null (cs_sdp_media_find_format (audio, 99));
  g_assert_cmpuint (audio->ptime, ==, 20);

  g_autoptr (CsSdp) bad_m = parse_str ("v=0\nm=audio abc RTP/AVP 0 x 300\nm=audio\n");
  g_assert_cmpstr (bad_m->malformed, ==, "bad m= port");
  g_assert_cmpuint (bad_m->media->len, ==, 2);
  g_assert_cmpuint (media_at (bad_m, 0)->formats->len, ==, 1);
  g_assert_cmpstr (media_at (bad_m, 1)->media, ==, "audio");

  g_autoptr (CsSdp) bad_c = parse_str ("v=0\nc=IN\nm=audio 1 RTP/AVP 0\na=rtpmap:0\n");
  g_assert_cmpstr (bad_c->malformed, ==, "bad c= line");

  g_autoptr (CsSdp) late_v = parse_str ("s=x\nv=0\n");
  g_assert_cmpstr (late_v->malformed, ==, "v= is not the first line");
  g_assert_cmpstr (late_v->session_name, ==, "x");

  g_autoptr (CsSdp) bad_o = parse_str ("v=0\no=- abc 1 IN IP4 10.0.0.1\n");
  g_assert_cmpstr (bad_o->malformed, ==, "bad o= line");
  g_assert_cmpstr (bad_o->origin_username, ==, "-");
}

static void
test_not_sdp (void)
{
  GError *error = NULL;

  g_assert_null (cs_sdp_parse ("hello world\r\n", 13, &error));
  g_assert_error (error, CS_SDP_ERROR, CS_SDP_ERROR_MALFORMED);
  g_clear_error (&error);
  g_assert_null (cs_sdp_parse ("", 0, NULL));
  g_assert_null (cs_sdp_parse (NULL, 5, NULL));
  /* only the given length counts */
  g_assert_null (cs_sdp_parse ("m=audio 1 RTP/AVP 0\nv=0\n", 20, NULL));
}

static void
test_bounds (void)
{
  GString *text = g_string_new ("v=0\r\n");

  for (int i = 0; i < 70; i++)
    g_string_append_printf (text, "m=audio %d RTP/AVP 0\r\na=sendonly\r\n", 1000 + 2 * i);
  g_autoptr (CsSdp) sdp = parse_str (text->str);
  g_assert_cmpstr (sdp->malformed, ==, "too many m= lines");
  g_assert_cmpuint (sdp->media->len, ==, CS_SDP_MAX_MEDIA);
  g_assert_cmpuint (media_at (sdp, CS_SDP_MAX_MEDIA - 1)->port, ==,
                    1000 + 2 * (CS_SDP_MAX_MEDIA - 1));

  g_string_assign (text, "v=0\r\nm=audio 1000 RTP/AVP");
  for (int i = 0; i < 200; i++)
    g_string_append_printf (text, " %d", i % 128);
  g_string_append (text, "\r\n");
  g_autoptr (CsSdp) formats = parse_str (text->str);
  g_assert_cmpstr (formats->malformed, ==, "too many formats in m= line");
  g_assert_cmpuint (media_at (formats, 0)->formats->len, ==, CS_SDP_MAX_FORMATS);
  g_string_free (text, TRUE);
}

static void
test_truncated (void)
{
  gsize full = strlen (freeswitch_answer);
  gsize media_at = strstr (freeswitch_answer, "m=audio") - freeswitch_answer;

  for (gsize n = 0; n <= full; n++)
    {
      char *copy = g_memdup2 (freeswitch_answer, n > 0 ? n : 1);
      CsSdp *sdp = cs_sdp_parse (copy, n, NULL);
      /* "v=" is the least that is SDP */
      if (n < 2)
        g_assert_null (sdp);
      else
        {
          g_assert_nonnull (sdp);
          g_assert_cmpuint (sdp->media->len, ==, n >= media_at + 2 ? 1 : 0);
          cs_sdp_free (sdp);
        }
      g_free (copy);
    }
}

static void
test_mutations (void)
{
  gsize full = strlen (freeswitch_answer);
  char *buf = g_malloc (full);

  /* fuzz-like: random byte changes never crash and keep the bounds */
  for (int round = 0; round < 3000; round++)
    {
      static const char interesting[] = { '\r', '\n', '=', ':', '/', ' ', 0, 'm', 'a', 'c' };
      memcpy (buf, freeswitch_answer, full);
      for (int i = g_test_rand_int_range (1, 10); i > 0; i--)
        {
          gsize at = (gsize) g_test_rand_int_range (0, (gint32) full);
          buf[at] = g_test_rand_bit () ? interesting[g_test_rand_int_range (0, 10)]
                                       : (char) g_test_rand_int_range (0, 256);
        }
      gsize len = (gsize) g_test_rand_int_range (0, (gint32) full + 1);
      CsSdp *sdp = cs_sdp_parse (buf, len, NULL);
      if (sdp != NULL)
        {
          g_assert_cmpuint (sdp->media->len, <=, CS_SDP_MAX_MEDIA);
          for (guint i = 0; i < sdp->media->len; i++)
            {
              CsSdpMedia *media = g_ptr_array_index (sdp->media, i);
              g_assert_cmpuint (media->formats->len, <=, CS_SDP_MAX_FORMATS);
              for (guint j = 0; j < media->formats->len; j++)
                g_assert_cmpuint (g_array_index (media->formats, CsSdpFormat, j).payload_type, <=,
                                  127);
            }
          cs_sdp_free (sdp);
        }
    }
  g_free (buf);
}

static void
test_direction_strings (void)
{
  g_assert_cmpstr (cs_sdp_direction_to_string (CS_SDP_SENDRECV), ==, "sendrecv");
  g_assert_cmpstr (cs_sdp_direction_to_string (CS_SDP_SENDONLY), ==, "sendonly");
  g_assert_cmpstr (cs_sdp_direction_to_string (CS_SDP_RECVONLY), ==, "recvonly");
  g_assert_cmpstr (cs_sdp_direction_to_string (CS_SDP_INACTIVE), ==, "inactive");
}

/* o= and c= lines in their usual spelling (read without splitting) and in odd ones (read
 * by splitting a copy) give the same description. */
static void
test_usual_lines (void)
{
  static const char *const pairs[][2] = {
    { "o=alice 123 456 IN IP4 10.0.0.1", "o=alice  123\t456 IN  IP4 \t10.0.0.1" },
    { "o=- 12345678901234567890 1 IN IP4 1.2.3.4", "o=-\t12345678901234567890 1 IN IP4  1.2.3.4" },
    { "o=- 1 2 IN IP6 ::1", "o=-  1 2 IN IP6 ::1" },
    { "o=- 1 2 IN IP4 host.example", "o=- 1 2\tIN IP4 host.example" },
    { "o=- 1x 2 IN IP4 1.2.3.4", "o=-  1x 2 IN IP4 1.2.3.4" },
    { "c=IN IP4 10.0.0.2", "c=IN  IP4\t10.0.0.2" },
    { "c=in IP4 10.0.0.3/127", "c=IN IP4 10.0.0.3/127" },
    { "c=IN IP4 host.example", "c=IN\tIP4 host.example" },
    { "c=IN IP4 010.0.0.1", "c=IN  IP4 010.0.0.1" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *a = g_strdup_printf ("v=0\r\n%s\r\ns=x\r\n", pairs[i][0]);
      g_autofree char *b = g_strdup_printf ("v=0\r\n%s\r\ns=x\r\n", pairs[i][1]);
      g_autoptr (CsSdp) usual = cs_sdp_parse (a, strlen (a), NULL);
      g_autoptr (CsSdp) odd = cs_sdp_parse (b, strlen (b), NULL);

      g_assert_nonnull (usual);
      g_assert_nonnull (odd);
      g_assert_cmpstr (usual->origin_username, ==, odd->origin_username);
      g_assert_cmpuint (usual->session_id, ==, odd->session_id);
      g_assert_cmpuint (usual->session_version, ==, odd->session_version);
      g_assert_cmpmem (&usual->origin_address, sizeof (CsAddr), &odd->origin_address,
                       sizeof (CsAddr));
      g_assert_cmpmem (&usual->connection, sizeof (CsAddr), &odd->connection, sizeof (CsAddr));
      g_assert_cmpstr (usual->malformed, ==, odd->malformed);
    }
  /* and the usual ones read as they should */
  const char text[] = "v=0\r\no=bob 7 8 IN IP4 192.0.2.1\r\nc=IN IP4 192.0.2.2\r\n";
  g_autoptr (CsSdp) sdp = cs_sdp_parse (text, strlen (text), NULL);
  g_assert_cmpstr (sdp->origin_username, ==, "bob");
  g_assert_cmpuint (sdp->session_id, ==, 7);
  g_assert_cmpuint (sdp->session_version, ==, 8);
  g_assert_cmpuint (sdp->origin_address.bytes[3], ==, 1);
  g_assert_cmpuint (sdp->connection.bytes[3], ==, 2);
  g_assert_null (sdp->malformed);
}

/* m= and a= lines in their usual spelling (read by the short paths) and in odd ones (read
 * by splitting) give the same description. */
static void
test_usual_media_lines (void)
{
  static const char *const pairs[][2] = {
    { "m=audio 16384 RTP/AVP 0 101", "m=audio  16384\tRTP/AVP  0\t101" },
    { "m=audio 65535 RTP/AVP 0 8 18", "m=audio 65535  RTP/AVP 0 8 18" },
    { "m=audio 65536 RTP/AVP 0", "m=audio  65536 RTP/AVP 0" },
    { "m=audio 016384 RTP/AVP 0127 128 1x", "m=audio\t016384 RTP/AVP 0127\t128 1x" },
    { "m=audio 4000/2 RTP/AVP 0", "m=audio\t4000/2 RTP/AVP 0" },
    { "m=audio 4000 RTP/AVPF 0", "m=audio\t4000 RTP/AVPF 0" },
    { "m=audio 4000 RTP/AVP", "m=audio  4000 RTP/AVP" },
    { "m=audio 4000 udptl t38", "m=audio\t4000 udptl t38" },
    { "m=audio 4000  RTP/AVP 0", "m=audio\t4000  RTP/AVP 0" },
  };
  static const char *const attributes[][2] = {
    { "a=rtpmap:0 PCMU/8000", "a= rtpmap :0 PCMU/8000" },
    { "a=rtpmap:0 PCMU/8000", "a=rtpmap:0  PCMU/8000" },
    { "a=rtpmap:101 telephone-event/8000/1", "a=rtpmap:101\ttelephone-event/8000/1" },
    { "a=rtpmap:0 PCMU/8000/x", "a=rtpmap:00  PCMU/8000/x" },
    { "a=rtpmap:0 PCMU/8000/300", "a=rtpmap:0\tPCMU/8000/300" },
    { "a=rtpmap:0 PCMU/4294967295", "a=rtpmap:0\tPCMU/4294967295" },
    { "a=rtpmap:0 PCMU/8000x/2", "a=rtpmap:0\tPCMU/8000x/2" },
    { "a=rtpmap:8 PCMA/8000", "a=rtpmap:8\tPCMA/8000" },
    { "a=rtpmap:101 telephone-event/8000/1", "a=rtpmap :101\ttelephone-event/8000/1" },
    { "a=rtpmap:0 PCMU", "a= rtpmap:0 PCMU" },
    { "a=rtpmap:0 /8000", "a=rtpmap :0 /8000" },
    { "a=rtpmap:0 PCMU/x/300", "a=rtpmap :0 PCMU/x/300" },
    { "a=ptime:20", "a= ptime:20" },
    { "a=ptime:x", "a=ptime :x" },
    { "a=sendonly", "a= sendonly" },
    { "a=inactive:x", "a=inactive :x" },
    { "a=maxptime:40", "a=maxptime :40" },
    { "a=rtcp-mux", "a=rtcp-mux " },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (pairs) + G_N_ELEMENTS (attributes); i++)
    {
      gboolean media = i < G_N_ELEMENTS (pairs);
      const char *const *pair = media ? pairs[i] : attributes[i - G_N_ELEMENTS (pairs)];
      const char *m = media ? "" : "m=audio 4000 RTP/AVP 0 101\r\n";
      g_autofree char *a = g_strdup_printf ("v=0\r\n%s%s\r\n", m, pair[0]);
      g_autofree char *b = g_strdup_printf ("v=0\r\n%s%s\r\n", m, pair[1]);
      g_autoptr (CsSdp) usual = cs_sdp_parse (a, strlen (a), NULL);
      g_autoptr (CsSdp) odd = cs_sdp_parse (b, strlen (b), NULL);

      g_assert_cmpstr (usual->malformed, ==, odd->malformed);
      g_assert_cmpuint (usual->media->len, ==, 1);
      g_assert_cmpuint (odd->media->len, ==, 1);
      CsSdpMedia *x = media_at (usual, 0), *y = media_at (odd, 0);
      g_assert_cmpstr (x->media, ==, y->media);
      g_assert_cmpstr (x->proto, ==, y->proto);
      g_assert_cmpuint (x->port, ==, y->port);
      g_assert_cmpuint (x->n_ports, ==, y->n_ports);
      g_assert_cmpint (x->direction, ==, y->direction);
      g_assert_cmpuint (x->ptime, ==, y->ptime);
      g_assert_cmpuint (x->maxptime, ==, y->maxptime);
      g_assert_cmpuint (x->rtcp_mux, ==, y->rtcp_mux);
      g_assert_cmpuint (x->formats->len, ==, y->formats->len);
      for (guint f = 0; f < x->formats->len; f++)
        {
          const CsSdpFormat *p = &g_array_index (x->formats, CsSdpFormat, f);
          const CsSdpFormat *q = &g_array_index (y->formats, CsSdpFormat, f);
          g_assert_cmpuint (p->payload_type, ==, q->payload_type);
          g_assert_cmpstr (p->encoding, ==, q->encoding);
          g_assert_cmpuint (p->clock_rate, ==, q->clock_rate);
          g_assert_cmpuint (p->channels, ==, q->channels);
        }
    }
  /* and the usual ones read as they should */
  const char text[] = "v=0\r\nm=audio 16384 RTP/AVP 0 101\r\na=rtpmap:101 telephone-event/8000\r\n"
                      "a=ptime:20\r\na=sendonly\r\n";
  g_autoptr (CsSdp) sdp = cs_sdp_parse (text, strlen (text), NULL);
  CsSdpMedia *audio = media_at (sdp, 0);
  g_assert_null (sdp->malformed);
  g_assert_cmpstr (audio->media, ==, "audio");
  g_assert_cmpstr (audio->proto, ==, "RTP/AVP");
  g_assert_cmpuint (audio->port, ==, 16384);
  g_assert_cmpuint (audio->formats->len, ==, 2);
  g_assert_cmpstr (cs_sdp_media_find_format (audio, 101)->encoding, ==, "telephone-event");
  g_assert_cmpuint (cs_sdp_media_find_format (audio, 101)->clock_rate, ==, 8000);
  g_assert_cmpuint (cs_sdp_media_find_format (audio, 101)->channels, ==, 1);
  g_assert_cmpuint (audio->ptime, ==, 20);
  g_assert_cmpint (audio->direction, ==, CS_SDP_SENDONLY);
  /* the usual encoding names come interned (the stream binder compares pointers) */
  g_assert_true (cs_sdp_media_find_format (audio, 101)->encoding
                 == g_intern_string ("telephone-event"));
  const char pcmu[] = "v=0\r\nm=audio 4000 RTP/AVP 0 8\r\na=rtpmap:0 PCMU/8000\r\n"
                      "a=rtpmap:8 PCMA/8000\r\n";
  g_autoptr (CsSdp) g711 = cs_sdp_parse (pcmu, strlen (pcmu), NULL);
  g_assert_true (cs_sdp_media_find_format (media_at (g711, 0), 0)->encoding
                 == g_intern_string ("PCMU"));
  g_assert_true (cs_sdp_media_find_format (media_at (g711, 0), 8)->encoding
                 == g_intern_string ("PCMA"));
}

/* The text is read where it lies: a NUL or a byte that is not ASCII anywhere in it (even
 * in its last bytes) still gives the repaired reading, NULs as spaces and UTF-8 made
 * valid. */
static void
test_not_plain (void)
{
  static const char nul[] = "v=0\r\ns=a\0b\r\nm=audio 4000 RTP/AVP 0\r\n";
  g_autoptr (CsSdp) with_nul = cs_sdp_parse (nul, sizeof nul - 1, NULL);
  g_assert_cmpstr (with_nul->session_name, ==, "a b");
  g_assert_cmpuint (media_at (with_nul, 0)->port, ==, 4000);

  static const char latin1[] = "v=0\r\no=- 1 2 IN IP4 10.0.0.1\r\ns=caf\xe9";
  g_autoptr (CsSdp) with_latin1 = cs_sdp_parse (latin1, sizeof latin1 - 1, NULL);
  g_assert_true (g_utf8_validate (with_latin1->session_name, -1, NULL));
  g_assert_cmpstr (with_latin1->session_name, ==, "caf\xef\xbf\xbd");

  /* a NUL in a text shorter than 16 bytes, and in the last byte of a longer one */
  g_autoptr (CsSdp) short_nul = cs_sdp_parse ("v=0\ns=\0x", 9, NULL);
  g_assert_cmpstr (short_nul->session_name, ==, "x");
  static const char last[] = "v=0\r\ns=0123456789abcdef\0";
  g_autoptr (CsSdp) last_nul = cs_sdp_parse (last, sizeof last - 1, NULL);
  g_assert_cmpstr (last_nul->session_name, ==, "0123456789abcdef");

  /* lines of every length around the 16-byte reads, none lost */
  for (int n = 0; n < 40; n++)
    {
      g_autofree char *name = g_strnfill ((gsize) n + 1, 'n');
      g_autofree char *text = g_strdup_printf ("v=0\ns=%s\nm=audio %d RTP/AVP 0", name, 1000 + n);
      g_autoptr (CsSdp) sdp = cs_sdp_parse (text, strlen (text), NULL);
      g_assert_cmpstr (sdp->session_name, ==, name);
      g_assert_cmpuint (media_at (sdp, 0)->port, ==, 1000 + n);
    }
}

/* o= and c= usually name the same address, read once: equal texts give equal addresses,
 * texts of the same length that differ anywhere do not. */
static void
test_same_address (void)
{
  static const char *const pairs[][2] = {
    { "10.1.0.3", "10.1.0.3" },
    { "10.1.0.3", "10.1.0.4" },
    { "10.1.0.3", "90.1.0.3" },
    { "10.1.0.3", "10.1.003" },
    { "1.2.3.4", "1.2.3.5" },
    { "1.2.3.4", "1.2.3.4" },
    { "192.168.100.200", "192.168.100.201" },
    { "192.168.100.200", "192.168.100.200" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *text = g_strdup_printf (
          "v=0\r\no=- 1 2 IN IP4 %s\r\nc=IN IP4 %s\r\nm=audio 4000 RTP/AVP 0\r\nc=IN IP4 %s\r\n",
          pairs[i][0], pairs[i][1], pairs[i][0]);
      g_autoptr (CsSdp) sdp = cs_sdp_parse (text, strlen (text), NULL);
      CsAddr origin, connection;

      cs_addr_parse (&origin, pairs[i][0]);
      cs_addr_parse (&connection, pairs[i][1]);
      g_assert_cmpmem (&sdp->origin_address, sizeof (CsAddr), &origin, sizeof (CsAddr));
      g_assert_cmpmem (&sdp->connection, sizeof (CsAddr), &connection, sizeof (CsAddr));
      g_assert_cmpmem (&media_at (sdp, 0)->connection, sizeof (CsAddr), &origin, sizeof (CsAddr));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sdp/real-answer", test_real_answer);
  g_test_add_func ("/sdp/session-vs-media", test_session_vs_media);
  g_test_add_func ("/sdp/hold", test_hold);
  g_test_add_func ("/sdp/addresses", test_addresses);
  g_test_add_func ("/sdp/non-rtp", test_non_rtp);
  g_test_add_func ("/sdp/garbage", test_garbage);
  g_test_add_func ("/sdp/not-sdp", test_not_sdp);
  g_test_add_func ("/sdp/bounds", test_bounds);
  g_test_add_func ("/sdp/truncated", test_truncated);
  g_test_add_func ("/sdp/mutations", test_mutations);
  g_test_add_func ("/sdp/direction-strings", test_direction_strings);
  g_test_add_func ("/sdp/usual-lines", test_usual_lines);
  g_test_add_func ("/sdp/usual-media-lines", test_usual_media_lines);
  g_test_add_func ("/sdp/not-plain", test_not_plain);
  g_test_add_func ("/sdp/same-address", test_same_address);
  return g_test_run ();
}

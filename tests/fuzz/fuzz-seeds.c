/* fuzz-seeds.c — builds the seed corpora of every fuzz target from the
 * generator's scenario captures.
 *
 * Usage: fuzz-seeds CS_GEN OUT_DIR
 * Runs `CS_GEN all -d OUT_DIR/scenarios`, then writes OUT_DIR/<target>/ files:
 * capture (small captures: the first frames of each scenario, same format and
 * link type), decode (frames as records), sip, sdp, hep, rtp and dtmf
 * (packets as records), rtcp. Touches OUT_DIR/corpus.stamp when done. */
#include "capture/cs-capture-set.h"
#include "loader/cs-chunk.h"
#include "net/cs-decode.h"
#include "net/cs-hep.h"
#include "export/cs-pcapng-writer.h"
#include "rtp/cs-rtp.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define SEED_FRAMES 48 /* frames per capture seed and per decode seed */
#define SEED_RTP_PACKETS 60
#define MAX_TEXT_SEEDS 12 /* SIP / SDP / HEP / RTCP seeds per scenario */

typedef struct
{
  const char *out;
  const char *scenario;
  guint sip, sdp, hep, rtcp;
  GByteArray *decode;
  GByteArray *rtp;
  GByteArray *dtmf;
  guint32 rtp_ssrc;
  gboolean have_ssrc;
} SeedRun;

static void
write_seed (const char *out, const char *target, const char *scenario, guint n, const guint8 *data,
            gsize len)
{
  g_autofree char *dir = g_build_filename (out, target, NULL);
  g_autofree char *name = g_strdup_printf ("%s-%03u", scenario, n);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  GError *error = NULL;

  g_mkdir_with_parents (dir, 0755);
  if (!g_file_set_contents (path, (const char *) data, (gssize) len, &error))
    g_error ("%s", error->message);
}

static void
append_record (GByteArray *records, const guint8 *data, gsize len)
{
  guint8 prefix[2];

  len = MIN (len, G_MAXUINT16);
  prefix[0] = len & 0xff;
  prefix[1] = len >> 8;
  g_byte_array_append (records, prefix, 2);
  g_byte_array_append (records, data, (guint) len);
}

static void
seed_sip (SeedRun *run, const guint8 *data, gsize len)
{
  const guint8 *body;

  if (run->sip < MAX_TEXT_SEEDS)
    write_seed (run->out, "sip", run->scenario, run->sip++, data, len);
  body = memmem (data, len, "\r\n\r\nv=0", 7);
  if (body != NULL && run->sdp < MAX_TEXT_SEEDS)
    write_seed (run->out, "sdp", run->scenario, run->sdp++, body + 4,
                len - (gsize) (body + 4 - data));
}

static void
seed_udp (SeedRun *run, const CsPacket *pkt)
{
  switch (cs_udp_payload_classify (pkt->payload, pkt->payload_len, pkt->src.port, pkt->dst.port))
    {
    case CS_UDP_PAYLOAD_SIP:
      seed_sip (run, pkt->payload, pkt->payload_len);
      break;
    case CS_UDP_PAYLOAD_HEP:
      {
        CsHepPacket hep;

        if (run->hep < MAX_TEXT_SEEDS)
          write_seed (run->out, "hep", run->scenario, run->hep++, pkt->payload, pkt->payload_len);
        if (cs_hep_decode (pkt->payload, pkt->payload_len, &hep, NULL)
            && hep.payload_type == CS_HEP_PROTO_SIP)
          seed_sip (run, hep.payload, hep.payload_len);
      }
      break;
    case CS_UDP_PAYLOAD_RTCP:
      if (run->rtcp < MAX_TEXT_SEEDS)
        write_seed (run->out, "rtcp", run->scenario, run->rtcp++, pkt->payload, pkt->payload_len);
      break;
    case CS_UDP_PAYLOAD_RTP:
      {
        CsRtpHeader hdr;

        if (!cs_rtp_parse_header (pkt->payload, pkt->payload_len, &hdr))
          break;
        if (!run->have_ssrc)
          {
            run->rtp_ssrc = hdr.ssrc;
            run->have_ssrc = TRUE;
          }
        if (hdr.ssrc == run->rtp_ssrc && run->rtp->len < SEED_RTP_PACKETS * 200)
          append_record (run->rtp, pkt->payload, pkt->payload_len);
        /* Four-byte payloads of a dynamic type: telephone-events. */
        if (hdr.payload_type >= 96 && hdr.payload_len == 4 && run->dtmf->len < 4096)
          {
            guint8 rec[8];

            rec[0] = hdr.timestamp >> 24;
            rec[1] = (hdr.timestamp >> 16) & 0xff;
            rec[2] = (hdr.timestamp >> 8) & 0xff;
            rec[3] = hdr.timestamp & 0xff;
            memcpy (rec + 4, pkt->payload + hdr.header_len, 4);
            append_record (run->dtmf, rec, sizeof rec);
          }
      }
      break;
    default:
      break;
    }
}

static void
seed_capture_file (CsCaptureSet *set, const char *out, const char *scenario, const char *format)
{
  g_autofree char *dir = g_build_filename (out, "capture", NULL);
  g_autofree char *path = g_build_filename (dir, scenario, NULL);
  gboolean pcapng = g_strcmp0 (format, "pcapng") == 0;
  g_autoptr (CsPcapngWriter) writer = NULL;
  guint16 linktypes[8];
  guint n_linktypes = 0;
  GError *error = NULL;

  g_mkdir_with_parents (dir, 0755);
  writer = cs_pcapng_writer_new_file (path, pcapng ? CS_CAPTURE_FILE_PCAPNG : CS_CAPTURE_FILE_PCAP,
                                      g_strcmp0 (format, "pcap-ns") == 0, FALSE, &error);
  if (writer == NULL)
    g_error ("%s", error->message);
  for (guint32 n = 1; n <= MIN (cs_capture_set_get_n_frames (set), SEED_FRAMES); n++)
    {
      CsFrame frame_copy;
      const CsFrame *frame = cs_capture_set_get_frame (set, n, &frame_copy) ? &frame_copy : NULL;
      guint iface = 0;

      while (iface < n_linktypes && linktypes[iface] != frame->linktype)
        iface++;
      if (iface == n_linktypes)
        {
          if (n_linktypes == G_N_ELEMENTS (linktypes)
              || cs_pcapng_writer_add_interface (writer, frame->linktype, NULL, NULL) < 0)
            continue;
          linktypes[n_linktypes++] = frame->linktype;
        }
      cs_pcapng_writer_write_packet (writer, iface, frame->ts_ns,
                                     cs_capture_set_frame_data (set, frame), frame->caplen,
                                     frame->origlen, NULL, NULL);
    }
  if (!cs_pcapng_writer_close (writer, &error))
    g_error ("%s", error->message);
}

static void
seed_scenario (const char *out, const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  CsCaptureSet *set = cs_capture_set_new ();
  SeedRun run = { 0 };

  *strrchr (base, '.') = '\0';
  if (!cs_capture_set_add_file (set, path, NULL))
    {
      cs_capture_set_free (set);
      return;
    }
  cs_capture_set_index (set, NULL, NULL, NULL, NULL);
  run.out = out;
  run.scenario = base;
  run.decode = g_byte_array_new ();
  run.rtp = g_byte_array_new ();
  run.dtmf = g_byte_array_new ();
  seed_capture_file (set, out, base, cs_capture_get_format_name (cs_capture_set_get_file (set, 0)));
  if (cs_capture_set_get_n_frames (set) > 0)
    {
      /* fuzz-decode's first byte picks the link type from its table: 0 is Ethernet. */
      guint8 linktype_choice = 0;
      CsFrame first = { 0 };

      cs_capture_set_get_frame (set, 1, &first);
      switch (first.linktype)
        {
        case CS_LINKTYPE_NULL:
          linktype_choice = 1;
          break;
        case CS_LINKTYPE_RAW:
          linktype_choice = 2;
          break;
        case CS_LINKTYPE_LINUX_SLL:
          linktype_choice = 6;
          break;
        case CS_LINKTYPE_LINUX_SLL2:
          linktype_choice = 9;
          break;
        default:
          break;
        }
      g_byte_array_append (run.decode, &linktype_choice, 1);
    }
  for (guint32 n = 1; n <= cs_capture_set_get_n_frames (set); n++)
    {
      CsFrame frame_copy;
      const CsFrame *frame = cs_capture_set_get_frame (set, n, &frame_copy) ? &frame_copy : NULL;
      const guint8 *data = cs_capture_set_frame_data (set, frame);
      CsPacket pkt;

      memset (&pkt, 0, sizeof pkt);
      /* Signalling, fragments and TCP first: they are rarer than RTP. */
      if (cs_decode_frame (frame->linktype, data, frame->caplen, &pkt) == CS_DECODE_OK
          && pkt.ip_proto == CS_IP_PROTO_UDP)
        seed_udp (&run, &pkt);
      if (n <= SEED_FRAMES)
        append_record (run.decode, data, frame->caplen);
    }
  if (run.decode->len > 1)
    write_seed (out, "decode", base, 0, run.decode->data, run.decode->len);
  if (run.rtp->len > 0)
    write_seed (out, "rtp", base, 0, run.rtp->data, run.rtp->len);
  if (run.dtmf->len > 0)
    write_seed (out, "dtmf", base, 0, run.dtmf->data, run.dtmf->len);
  g_byte_array_unref (run.decode);
  g_byte_array_unref (run.rtp);
  g_byte_array_unref (run.dtmf);
  cs_capture_set_free (set);
}

static void
put_be32 (GByteArray *b, guint32 v)
{
  guint8 x[4] = { v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };

  g_byte_array_append (b, x, 4);
}

/* No scenario sends RTCP: hand-built compounds (SR+SDES, RR+BYE, XR VoIP metrics). */
static void
seed_rtcp_by_hand (const char *out)
{
  GByteArray *b = g_byte_array_new ();
  static const guint8 sdes[] = { 0x81, 202, 0,   4,   0x11, 0x22, 0x33, 0x44, 1,   9,
                                 'u',  's', 'e', 'r', '@',  'h',  'o',  's',  't', 0 };

  put_be32 (b, 0x81c8000c); /* SR, one report block, 13 words */
  put_be32 (b, 0x11223344);
  put_be32 (b, 0xe8f0a1b2);
  put_be32 (b, 0x40000000);
  put_be32 (b, 160000);
  put_be32 (b, 500);
  put_be32 (b, 80000);
  put_be32 (b, 0x55667788); /* report block */
  put_be32 (b, 0x0a000005);
  put_be32 (b, 1234);
  put_be32 (b, 40);
  put_be32 (b, 0xa1b24000);
  put_be32 (b, 0x00008000);
  g_byte_array_append (b, sdes, sizeof sdes);
  write_seed (out, "rtcp", "hand", 0, b->data, b->len);
  g_byte_array_set_size (b, 0);
  put_be32 (b, 0x80c90001); /* empty RR */
  put_be32 (b, 0x55667788);
  put_be32 (b, 0x81cb0001); /* BYE */
  put_be32 (b, 0x55667788);
  write_seed (out, "rtcp", "hand", 1, b->data, b->len);
  g_byte_array_set_size (b, 0);
  put_be32 (b, 0x80cf000a); /* XR with a VoIP metrics block */
  put_be32 (b, 0x55667788);
  put_be32 (b, 0x07000008);
  put_be32 (b, 0x11223344);
  for (guint i = 0; i < 8; i++)
    put_be32 (b, 0x10203040 + i);
  write_seed (out, "rtcp", "hand", 2, b->data, b->len);
  g_byte_array_unref (b);
}

/* Homer rows for fuzz-homer-row: a table byte, then srcIp NUL dstIp NUL srcPort NUL dstPort NUL
 * protocol NUL captureId NUL raw (a SIP message, heplify's RTCP JSON). */
static void
seed_homer_by_hand (const char *out)
{
  static const char sip[] = "0"
                            "10.0.0.10\0"
                            "10.0.0.1\0"
                            "5060\0"
                            "5060\0"
                            "17\0"
                            "sbc-1\0"
                            "INVITE sip:bob@b SIP/2.0\r\nCall-ID: x\r\n\r\n";
  static const char tcp[] = "1"
                            "2001:db8::1\0"
                            "2001:db8::2\0"
                            "5061\0"
                            "5060\0"
                            "6\0"
                            "n\0"
                            "REGISTER sip:b SIP/2.0\r\n\r\n";
  static const char rtcp[]
      = "3"
        "10.0.0.10\0"
        "10.0.0.20\0"
        "40001\0"
        "40003\0"
        "17\0"
        "rtp-1\0"
        "[{\"sender_information\":{\"ntp_timestamp_sec\":3918276000,\"ntp_timestamp_usec\":1,"
        "\"rtp_timestamp\":160000,\"packets\":500,\"octets\":80000},\"ssrc\":305419896,"
        "\"type\":200,\"report_count\":1,\"report_blocks\":[{\"source_ssrc\":1,"
        "\"fraction_lost\":12,\"packets_lost\":-1,\"highest_seq_no\":70000,\"ia_jitter\":37,"
        "\"lsr\":1234,\"dlsr\":65536}]},{\"type\":201,\"ssrc\":7}]";

  write_seed (out, "homer", "hand", 0, (const guint8 *) sip, sizeof sip - 1);
  write_seed (out, "homer", "hand", 1, (const guint8 *) tcp, sizeof tcp - 1);
  write_seed (out, "homer", "hand", 2, (const guint8 *) rtcp, sizeof rtcp - 1);
}

/* The calls filter language: the forms its header documents. */
static void
seed_filter_by_hand (const char *out)
{
  static const char *const examples[] = { "alice",
                                          "from:alice to:bob",
                                          "state:rejected code:4xx",
                                          "!state:completed",
                                          "mos < 3.5",
                                          "pdd > 2s or setup >= 500ms",
                                          "has:one-way codec:PCMU",
                                          "-ua:fuzz | method:REGISTER",
                                          "duration != 3m messages>=2",
                                          "callid:\"x y\"" };

  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    write_seed (out, "filter", "hand", i, (const guint8 *) examples[i], strlen (examples[i]));
}

int
main (int argc, char **argv)
{
  g_autofree char *scenarios = NULL;
  g_autofree char *stamp = NULL;
  char *gen_argv[5];
  GError *error = NULL;
  int status = 0;
  GDir *dir;
  const char *name;

  if (argc != 3)
    {
      fprintf (stderr, "usage: fuzz-seeds CS_GEN OUT_DIR\n");
      return 2;
    }
  scenarios = g_build_filename (argv[2], "scenarios", NULL);
  g_mkdir_with_parents (scenarios, 0755);
  gen_argv[0] = argv[1];
  gen_argv[1] = (char *) "all";
  gen_argv[2] = (char *) "-d";
  gen_argv[3] = scenarios;
  gen_argv[4] = NULL;
  if (!g_spawn_sync (NULL, gen_argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                     &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    {
      fprintf (stderr, "fuzz-seeds: %s\n", error->message);
      return 1;
    }
  dir = g_dir_open (scenarios, 0, &error);
  if (dir == NULL)
    {
      fprintf (stderr, "fuzz-seeds: %s\n", error->message);
      return 1;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".pcap") || g_str_has_suffix (name, ".pcapng"))
      {
        g_autofree char *path = g_build_filename (scenarios, name, NULL);

        seed_scenario (argv[2], path);
      }
  g_dir_close (dir);
  seed_rtcp_by_hand (argv[2]);
  seed_homer_by_hand (argv[2]);
  seed_filter_by_hand (argv[2]);
  stamp = g_build_filename (argv[2], "corpus.stamp", NULL);
  g_file_set_contents (stamp, "", 0, NULL);
  return 0;
}

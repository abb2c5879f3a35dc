/* test-pcapng-writer.c — pcapng/pcap files written, then read back */
#include "base/cs-error.h"
#include "export/cs-pcapng-writer.h"

#include <glib/gstdio.h>
#include <pcap/pcap.h>
#include <string.h>

#define T_BASE G_GINT64_CONSTANT (1709287200123456789) /* 2024-03-01 10:00:00.123456789 */

static const guint8 frame_a[] = { 0xde, 0xad, 0xbe, 0xef, 0x01 };
static const guint8 frame_b[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17 };

static guint32
read_u32 (const guint8 *p, gboolean big_endian)
{
  if (big_endian)
    return ((guint32) p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
  return ((guint32) p[3] << 24) | (p[2] << 16) | (p[1] << 8) | p[0];
}

static guint16
read_u16 (const guint8 *p, gboolean big_endian)
{
  return big_endian ? (p[0] << 8) | p[1] : (p[1] << 8) | p[0];
}

typedef struct
{
  guint n_shb, n_idb, n_epb;
  guint16 link_types[4];
  guint8 tsresol[4];
  guint32 epb_iface[8];
  guint64 epb_ticks[8];
  guint32 epb_caplen[8];
  char *epb_comment[8];
} Blocks;

static void
blocks_clear (Blocks *b)
{
  for (guint i = 0; i < G_N_ELEMENTS (b->epb_comment); i++)
    g_free (b->epb_comment[i]);
}

/* Walks options [p, end) and records tsresol (IDB) or comment (EPB). */
static void
walk_options (const guint8 *p, const guint8 *end, gboolean be, guint8 *tsresol, char **comment)
{
  while (end - p >= 4)
    {
      guint16 code = read_u16 (p, be), len = read_u16 (p + 2, be);
      g_assert_cmpint (end - p - 4, >=, len);
      if (code == 0)
        break;
      if (code == 9 && tsresol != NULL)
        *tsresol = p[4];
      if (code == 1 && comment != NULL)
        *comment = g_strndup ((const char *) p + 4, len);
      p += 4 + ((len + 3) & ~3);
    }
}

static void
parse_pcapng (GBytes *bytes, gboolean be, Blocks *out)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  gsize off = 0;

  memset (out, 0, sizeof *out);
  while (off < size)
    {
      guint32 type, len;

      g_assert_cmpuint (size - off, >=, 12);
      type = read_u32 (data + off, be);
      len = read_u32 (data + off + 4, be);
      g_assert_cmpuint (len % 4, ==, 0);
      g_assert_cmpuint (len, >=, 12);
      g_assert_cmpuint (size - off, >=, len);
      g_assert_cmpuint (read_u32 (data + off + len - 4, be), ==, len);
      if (type == 0x0A0D0D0A)
        {
          g_assert_cmphex (read_u32 (data + off + 8, be), ==, 0x1A2B3C4D);
          out->n_shb++;
        }
      else if (type == 1)
        {
          guint i = out->n_idb++;
          g_assert_cmpuint (i, <, 4);
          out->link_types[i] = read_u16 (data + off + 8, be);
          walk_options (data + off + 16, data + off + len - 4, be, &out->tsresol[i], NULL);
        }
      else if (type == 6)
        {
          guint i = out->n_epb++;
          guint32 caplen = read_u32 (data + off + 20, be);
          g_assert_cmpuint (i, <, 8);
          out->epb_iface[i] = read_u32 (data + off + 8, be);
          out->epb_ticks[i]
              = ((guint64) read_u32 (data + off + 12, be) << 32) | read_u32 (data + off + 16, be);
          out->epb_caplen[i] = caplen;
          walk_options (data + off + 28 + ((caplen + 3) & ~3u), data + off + len - 4, be, NULL,
                        &out->epb_comment[i]);
        }
      off += len;
    }
}

static void
test_pcapng_blocks (void)
{
  for (int be = 0; be <= 1; be++)
    {
      g_autoptr (CsPcapngWriter) w = cs_pcapng_writer_new_memory (CS_CAPTURE_FILE_PCAPNG, TRUE, be);
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GError) error = NULL;
      Blocks b;

      g_assert_cmpint (cs_pcapng_writer_add_interface (w, CS_LINKTYPE_ETHERNET, "eth0", &error), ==,
                       0);
      g_assert_cmpint (cs_pcapng_writer_add_interface (w, CS_LINKTYPE_LINUX_SLL, "any", &error), ==,
                       1);
      g_assert_true (cs_pcapng_writer_write_packet (w, 0, T_BASE, frame_a, sizeof frame_a,
                                                    sizeof frame_a, NULL, &error));
      g_assert_true (cs_pcapng_writer_write_packet (
          w, 1, T_BASE + 20000000, frame_b, sizeof frame_b, 1500, "retransmitted INVITE", &error));
      g_assert_no_error (error);
      g_assert_false (
          cs_pcapng_writer_write_packet (w, 2, T_BASE, frame_a, sizeof frame_a, 0, NULL, &error));
      g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT);
      g_assert_cmpuint (cs_pcapng_writer_get_packet_count (w), ==, 2);

      bytes = cs_pcapng_writer_steal_bytes (w);
      parse_pcapng (bytes, be, &b);
      g_assert_cmpuint (b.n_shb, ==, 1);
      g_assert_cmpuint (b.n_idb, ==, 2);
      g_assert_cmpuint (b.n_epb, ==, 2);
      g_assert_cmpuint (b.link_types[0], ==, 1);
      g_assert_cmpuint (b.link_types[1], ==, 113);
      g_assert_cmpuint (b.tsresol[0], ==, 9);
      g_assert_cmpuint (b.epb_iface[1], ==, 1);
      g_assert_cmpuint (b.epb_ticks[0], ==, (guint64) T_BASE);
      g_assert_cmpuint (b.epb_ticks[1], ==, (guint64) T_BASE + 20000000);
      g_assert_cmpuint (b.epb_caplen[1], ==, sizeof frame_b);
      g_assert_null (b.epb_comment[0]);
      g_assert_cmpstr (b.epb_comment[1], ==, "retransmitted INVITE");
      blocks_clear (&b);
    }
}

static void
test_pcapng_microseconds (void)
{
  g_autoptr (CsPcapngWriter) w = cs_pcapng_writer_new_memory (CS_CAPTURE_FILE_PCAPNG, FALSE, FALSE);
  g_autoptr (GBytes) bytes = NULL;
  Blocks b;

  g_assert_cmpint (cs_pcapng_writer_add_interface (w, CS_LINKTYPE_RAW, NULL, NULL), ==, 0);
  g_assert_true (
      cs_pcapng_writer_write_packet (w, 0, T_BASE, frame_b, sizeof frame_b, 0, NULL, NULL));
  bytes = cs_pcapng_writer_steal_bytes (w);
  parse_pcapng (bytes, FALSE, &b);
  g_assert_cmpuint (b.link_types[0], ==, 101);
  g_assert_cmpuint (b.tsresol[0], ==, 6);
  g_assert_cmpuint (b.epb_ticks[0], ==, (guint64) T_BASE / 1000);
  blocks_clear (&b);
}

/* Writes a file with the file writer and reads it back with libpcap. */
static void
check_with_libpcap (CsCaptureFileFormat format, gboolean nanosecond, gboolean big_endian)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-writer-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "out.cap", NULL);
  CsPcapngWriter *w;
  char errbuf[PCAP_ERRBUF_SIZE];
  pcap_t *pcap;
  struct pcap_pkthdr *hdr;
  const u_char *data;
  guint n = 0;

  g_assert_no_error (error);
  w = cs_pcapng_writer_new_file (path, format, nanosecond, big_endian, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cs_pcapng_writer_add_interface (w, CS_LINKTYPE_ETHERNET, "eth0", &error), ==, 0);
  for (guint i = 0; i < 3; i++)
    g_assert_true (cs_pcapng_writer_write_packet (w, 0, T_BASE + i * 20000000, frame_b,
                                                  sizeof frame_b - i, 0, i == 1 ? "note" : NULL,
                                                  &error));
  g_assert_true (cs_pcapng_writer_close (w, &error));
  cs_pcapng_writer_free (w);

  pcap = pcap_open_offline_with_tstamp_precision (path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
  g_assert_nonnull (pcap);
  g_assert_cmpint (pcap_datalink (pcap), ==, DLT_EN10MB);
  while (pcap_next_ex (pcap, &hdr, &data) == 1)
    {
      gint64 want = T_BASE + n * 20000000;
      if (!nanosecond)
        want = want / 1000 * 1000;
      g_assert_cmpint (hdr->ts.tv_sec, ==, want / 1000000000);
      g_assert_cmpint (hdr->ts.tv_usec, ==, want % 1000000000); /* nanoseconds here */
      g_assert_cmpuint (hdr->caplen, ==, sizeof frame_b - n);
      g_assert_cmpmem (data, hdr->caplen, frame_b, sizeof frame_b - n);
      n++;
    }
  g_assert_cmpuint (n, ==, 3);
  pcap_close (pcap);

  if (format == CS_CAPTURE_FILE_PCAP)
    {
      g_autofree guint8 *raw = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (path, (char **) &raw, &len, NULL));
      g_assert_cmpuint (len, ==, 24 + 3 * 16 + 3 * sizeof frame_b - 3);
      g_assert_cmphex (read_u32 (raw, big_endian), ==, nanosecond ? 0xA1B23C4D : 0xA1B2C3D4);
      g_assert_cmpuint (raw[0], ==, big_endian ? 0xA1 : (nanosecond ? 0x4D : 0xD4));
      g_assert_null (memmem (raw, len, "note", 4)); /* classic pcap has no comments */
    }
  else
    {
      g_autofree char *raw = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (path, &raw, &len, NULL));
      g_assert_nonnull (memmem (raw, len, "note", 4));
    }
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_pcap_usec_le (void)
{
  check_with_libpcap (CS_CAPTURE_FILE_PCAP, FALSE, FALSE);
}

static void
test_pcap_nsec_be (void)
{
  check_with_libpcap (CS_CAPTURE_FILE_PCAP, TRUE, TRUE);
}

static void
test_pcapng_libpcap (void)
{
  check_with_libpcap (CS_CAPTURE_FILE_PCAPNG, TRUE, FALSE);
  check_with_libpcap (CS_CAPTURE_FILE_PCAPNG, FALSE, TRUE);
}

static void
test_pcap_single_link_type (void)
{
  g_autoptr (CsPcapngWriter) w = cs_pcapng_writer_new_memory (CS_CAPTURE_FILE_PCAP, FALSE, FALSE);
  g_autoptr (GError) error = NULL;

  g_assert_false (
      cs_pcapng_writer_write_packet (w, 0, T_BASE, frame_a, sizeof frame_a, 0, NULL, &error));
  g_clear_error (&error);
  g_assert_cmpint (cs_pcapng_writer_add_interface (w, CS_LINKTYPE_LINUX_SLL2, NULL, &error), ==, 0);
  g_assert_cmpint (cs_pcapng_writer_add_interface (w, CS_LINKTYPE_ETHERNET, NULL, &error), ==, -1);
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT);
}

static void
test_open_failure (void)
{
  g_autoptr (GError) error = NULL;
  CsPcapngWriter *w = cs_pcapng_writer_new_file ("/nonexistent-dir/x.pcapng",
                                                 CS_CAPTURE_FILE_PCAPNG, FALSE, FALSE, &error);

  g_assert_null (w);
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pcapng-writer/blocks", test_pcapng_blocks);
  g_test_add_func ("/pcapng-writer/microseconds", test_pcapng_microseconds);
  g_test_add_func ("/pcapng-writer/pcap-usec-le", test_pcap_usec_le);
  g_test_add_func ("/pcapng-writer/pcap-nsec-be", test_pcap_nsec_be);
  g_test_add_func ("/pcapng-writer/pcapng-libpcap", test_pcapng_libpcap);
  g_test_add_func ("/pcapng-writer/pcap-single-link-type", test_pcap_single_link_type);
  g_test_add_func ("/pcapng-writer/open-failure", test_open_failure);
  return g_test_run ();
}

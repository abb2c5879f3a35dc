/* cs-capture-wiretap.c — every other capture format Wireshark reads (snoop, Network Monitor,
 * ERF, Sniffer, …): libwiretap reads the packets in order, and a pcapng copy of them is
 * written to a temporary file and mapped, so that the fast reader and the frame numbers
 * (Wireshark's: the order wiretap returns the packets in) stay what they are for pcapng */
#include "cs-capture-private.h"

#include "cs-config.h"

#if CS_HAVE_WIRETAP

#include <errno.h>
#include <unistd.h>
#include <wiretap/pcap-encap.h>
#include <wiretap/wtap.h>
#include <wsutil/wslog.h>

#define MAX_INTERFACES 64
#define PROGRESS_EVERY 4096 /* packets */

/* ERF record types whose payload is an Ethernet frame, or an IP packet. */
#define ERF_ETH 2
#define ERF_COLOR_ETH 10
#define ERF_DSM_COLOR_ETH 16
#define ERF_COLOR_HASH_ETH 20
#define ERF_IPV4 22
#define ERF_IPV6 23

typedef struct
{
  CsCapture *capture;
  int fd;
  GByteArray *out; /* buffered output, flushed past a megabyte */
  guint64 written;
  gint linktypes[MAX_INTERFACES]; /* one pcapng interface per link type met */
  guint n_interfaces;
} Writer;

static void
put16 (GByteArray *b, guint16 v)
{
  g_byte_array_append (b, (const guint8 *) &v, 2);
}

static void
put32 (GByteArray *b, guint32 v)
{
  g_byte_array_append (b, (const guint8 *) &v, 4);
}

static gboolean
writer_flush (Writer *w, GError **error)
{
  const guint8 *p = w->out->data;
  gsize left = w->out->len;

  while (left > 0)
    {
      ssize_t n = write (w->fd, p, left);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;

          cs_capture_set_error (w->capture, error, CS_CAPTURE_ERROR_OPEN,
                                "cannot write the converted copy: %s", g_strerror (saved));
          return FALSE;
        }
      p += n;
      left -= (gsize) n;
    }
  w->written += w->out->len;
  g_byte_array_set_size (w->out, 0);
  return TRUE;
}

/* A section header (host byte order, as the reader takes either), no options. */
static void
write_shb (Writer *w)
{
  put32 (w->out, 0x0a0d0d0a);
  put32 (w->out, 28);
  put32 (w->out, 0x1a2b3c4d);
  put16 (w->out, 1);
  put16 (w->out, 0);
  put32 (w->out, 0xffffffffu); /* section length unknown */
  put32 (w->out, 0xffffffffu);
  put32 (w->out, 28);
}

/* The interface of linktype, added (nanosecond timestamps) when it is new. */
static guint
writer_interface (Writer *w, gint linktype)
{
  for (guint i = 0; i < w->n_interfaces; i++)
    if (w->linktypes[i] == linktype)
      return i;
  if (w->n_interfaces == MAX_INTERFACES)
    return MAX_INTERFACES - 1; /* a file of 64 link types: the rest share the last */
  w->linktypes[w->n_interfaces] = linktype;
  put32 (w->out, 1);
  put32 (w->out, 32);
  put16 (w->out, (guint16) linktype);
  put16 (w->out, 0);
  put32 (w->out, 0); /* snaplen: no limit */
  put16 (w->out, 9); /* if_tsresol */
  put16 (w->out, 1);
  g_byte_array_append (w->out, (const guint8[]){ 9, 0, 0, 0 }, 4);
  put32 (w->out, 0); /* opt_endofopt */
  put32 (w->out, 32);
  return w->n_interfaces++;
}

/* wiretap encapsulation -> pcap link type + 1 (0: none), filled once */
#define MAX_ENCAP 512
#define MAX_LINKTYPE 300
static int pcap_linktype_of[MAX_ENCAP];

/* The pcap link type of a packet: wiretap's mapping, and ERF records by their type. */
static gint
packet_linktype (const wtap_packet_header *header)
{
  if (header->pkt_encap == WTAP_ENCAP_ERF)
    switch (header->pseudo_header.erf.phdr.type & 0x7f)
      {
      case ERF_ETH:
      case ERF_COLOR_ETH:
      case ERF_DSM_COLOR_ETH:
      case ERF_COLOR_HASH_ETH:
        return 1; /* the Ethernet frame (the ERF Ethernet header is in the pseudo-header) */
      case ERF_IPV4:
      case ERF_IPV6:
        return 101;
      default:
        break;
      }
  if (header->pkt_encap == WTAP_ENCAP_NETTL_ETHERNET)
    return 1; /* HP-UX nettl: the frame after a pseudo-header wiretap has read */
  if (header->pkt_encap == WTAP_ENCAP_NETTL_RAW_IP)
    return 101;
  if (header->pkt_encap >= 0 && header->pkt_encap < MAX_ENCAP
      && pcap_linktype_of[header->pkt_encap] != 0)
    return pcap_linktype_of[header->pkt_encap] - 1;
  return -1;
}

static void
write_epb (Writer *w, guint interface, gint64 ts_ns, const guint8 *data, guint32 caplen,
           guint32 origlen)
{
  guint32 pad = (4 - caplen % 4) % 4, total = 32 + caplen + pad;
  guint64 ts = (guint64) MAX (ts_ns, 0);

  put32 (w->out, 6);
  put32 (w->out, total);
  put32 (w->out, interface);
  put32 (w->out, (guint32) (ts >> 32));
  put32 (w->out, (guint32) ts);
  put32 (w->out, caplen);
  put32 (w->out, origlen);
  g_byte_array_append (w->out, data, caplen);
  g_byte_array_append (w->out, (const guint8[]){ 0, 0, 0, 0 }, pad);
  put32 (w->out, total);
}

static gpointer
wiretap_init_once (gpointer data)
{
  /* wiretap's own log says which readers it tried: not for our stderr */
  ws_log_set_level (LOG_LEVEL_CRITICAL);
  wtap_init (FALSE);
  /* libwiretap exports only the pcap-to-wiretap direction: invert it once (first wins) */
  for (int linktype = 0; linktype < MAX_LINKTYPE; linktype++)
    {
      int encap = wtap_pcap_encap_to_wtap_encap (linktype);

      if (encap >= 0 && encap < MAX_ENCAP && pcap_linktype_of[encap] == 0)
        pcap_linktype_of[encap] = linktype + 1;
    }
  return NULL;
}

/* Copies every packet record of wth into w; damage is kept for the index to report. */
static gboolean
copy_packets (wtap *wth, Writer *w, const CsCaptureOpenRun *run, GError **error)
{
  wtap_rec rec;
  Buffer buf;
  gint64 offset = 0;
  guint64 packets = 0;
  int err = 0;
  gchar *err_info = NULL;
  gboolean ok = TRUE;

  wtap_rec_init (&rec);
  ws_buffer_init (&buf, 2048);
  while (ok && wtap_read (wth, &rec, &buf, &err, &err_info, &offset))
    {
      if (rec.rec_type == REC_TYPE_PACKET)
        {
          const wtap_packet_header *header = &rec.rec_header.packet_header;
          gint linktype = packet_linktype (header);
          /* clamped as the pcap readers clamp (hostile files hold any number) */
          gint64 secs = (rec.presence_flags & WTAP_HAS_TS)
                            ? CLAMP ((gint64) rec.ts.secs, 0, CS_TIMESTAMP_MAX_NS / 1000000000)
                            : 0;
          gint64 ts_ns = secs * 1000000000 + CLAMP ((gint64) rec.ts.nsecs, 0, 999999999);
          guint32 caplen = MIN (header->caplen, CS_CAPTURE_MAX_CAPLEN);

          write_epb (w, writer_interface (w, linktype < 0 ? 147 : linktype), ts_ns,
                     ws_buffer_start_ptr (&buf), caplen, MAX (header->len, caplen));
        }
      /* every record counts as a frame in Wireshark: others too would shift the numbers,
       * but a network capture's reader returns packets only */
      packets++;
      if (w->out->len >= (1u << 20))
        ok = writer_flush (w, error);
      if (ok && packets % PROGRESS_EVERY == 0)
        {
          if (g_cancellable_set_error_if_cancelled (run != NULL ? run->cancellable : NULL, error))
            ok = FALSE;
          else if (run != NULL && run->progress != NULL)
            run->progress ((guint64) MAX (offset, 0), w->capture->size, run->user_data);
        }
      wtap_rec_reset (&rec);
    }
  if (ok && err != 0)
    w->capture->source_damage
        = g_strdup_printf ("libwiretap stopped reading after %" G_GUINT64_FORMAT
                           " records, near byte offset %" G_GINT64_FORMAT ": %s%s%s",
                           packets, offset, wtap_strerror (err), err_info != NULL ? " — " : "",
                           err_info != NULL ? err_info : "");
  g_free (err_info);
  wtap_rec_cleanup (&rec);
  ws_buffer_free (&buf);
  return ok && writer_flush (w, error);
}

/* Files wiretap opens that hold no network packets: a whole document shown as one record. */
static gboolean
is_media_file (int encap)
{
  return encap == WTAP_ENCAP_MIME || encap == WTAP_ENCAP_MP4 || encap == WTAP_ENCAP_JSON
         || encap == WTAP_ENCAP_JPEG_JFIF || encap == WTAP_ENCAP_RUBY_MARSHAL;
}

gboolean
cs_capture_read_with_wiretap (CsCapture *capture, const CsCaptureOpenRun *run, GError **error)
{
  static GOnce init = G_ONCE_INIT;
  Writer w = { capture, -1, NULL, 0, { 0 }, 0 };
  int err = 0;
  gchar *err_info = NULL;
  wtap *wth;
  gboolean ok;

  if (g_getenv ("CALLSCOPE_NO_WIRETAP") != NULL)
    {
      /* turned off (the pcap-reader fuzz target does, to stay on its own parser) */
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                   "%s: not a pcap or pcapng file (unknown magic %02x%02x%02x%02x at byte offset "
                   "0; other formats are off: CALLSCOPE_NO_WIRETAP is set)",
                   capture->path, capture->data[0], capture->data[1], capture->data[2],
                   capture->data[3]);
      return FALSE;
    }
  g_once (&init, wiretap_init_once, NULL);
  wth = wtap_open_offline (capture->path, WTAP_TYPE_AUTO, &err, &err_info, FALSE);
  /* wiretap also shows media files (MP4, JPEG, …) as one "packet": no capture at all */
  if (wth != NULL && is_media_file (wtap_file_encap (wth)))
    {
      wtap_close (wth);
      wth = NULL;
      err = WTAP_ERR_FILE_UNKNOWN_FORMAT;
    }
  if (wth == NULL)
    {
      if (err == WTAP_ERR_FILE_UNKNOWN_FORMAT)
        g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                     "%s: not a capture file callscope or libwiretap can read (unknown magic "
                     "%02x%02x%02x%02x at byte offset 0)",
                     capture->path, capture->data[0], capture->data[1], capture->data[2],
                     capture->data[3]);
      else
        g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                     "%s: libwiretap cannot read it: %s%s%s", capture->path, wtap_strerror (err),
                     err_info != NULL ? " — " : "", err_info != NULL ? err_info : "");
      g_free (err_info);
      return FALSE;
    }
  w.fd = cs_capture_temp_fd (capture, error);
  if (w.fd < 0)
    {
      wtap_close (wth);
      return FALSE;
    }
  w.out = g_byte_array_sized_new (1u << 21);
  write_shb (&w);
  ok = copy_packets (wth, &w, run, error);
  if (ok)
    {
      capture->source
          = g_strdup (wtap_file_type_subtype_description (wtap_file_type_subtype (wth)));
      capture->source_size = capture->size;
      ok = cs_capture_map_fd (capture, w.fd, w.written, error);
    }
  g_byte_array_unref (w.out);
  close (w.fd);
  wtap_close (wth);
  return ok;
}

#else

gboolean
cs_capture_read_with_wiretap (CsCapture *capture, const CsCaptureOpenRun *run, GError **error)
{
  g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
               "%s: not a pcap or pcapng file (unknown magic %02x%02x%02x%02x at byte offset 0; "
               "this build of callscope has no libwiretap, which reads the other formats)",
               capture->path, capture->data[0], capture->data[1], capture->data[2],
               capture->data[3]);
  return FALSE;
}

#endif

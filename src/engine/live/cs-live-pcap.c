/* cs-live-pcap.c — libpcap live source: open with clear errors, capture thread, clean end */
#include "cs-live-pcap.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <poll.h>

#define CS_LIVE_POLL_MS 100
#define CS_LIVE_BUFFER_BYTES (8 * 1024 * 1024)

struct _CsLivePcap
{
  pcap_t *handle;
  char *interface;
  guint linktype;
  CsLiveSession *session;
  guint64 max_packets;
  CsLivePcapTapFunc tap;
  gpointer tap_data;
  CsLivePcapEndFunc on_end;
  gpointer end_data;
  GMainContext *context;
  GSource *end_source; /* pending end report, destroyed if the capture is freed first */
  GThread *thread;
  gint stop;    /* atomic: stop requested */
  gint running; /* atomic */

  GMutex lock;
  guint64 received, dropped, if_dropped;
};

void
cs_live_interface_free (CsLiveInterface *iface)
{
  if (iface == NULL)
    return;
  g_free (iface->name);
  g_free (iface->description);
  g_free (iface->addresses);
  g_free (iface);
}

static void
cs_live_append_address (GString *text, const struct sockaddr *sa)
{
  char buf[INET6_ADDRSTRLEN];
  const void *bytes;

  if (sa == NULL)
    return;
  if (sa->sa_family == AF_INET)
    bytes = &((const struct sockaddr_in *) sa)->sin_addr;
  else if (sa->sa_family == AF_INET6)
    bytes = &((const struct sockaddr_in6 *) sa)->sin6_addr;
  else
    return;
  if (inet_ntop (sa->sa_family, bytes, buf, sizeof buf) == NULL)
    return;
  if (text->len > 0)
    g_string_append (text, ", ");
  g_string_append (text, buf);
}

GPtrArray *
cs_live_pcap_list_interfaces (GError **error)
{
  char errbuf[PCAP_ERRBUF_SIZE] = "";
  pcap_if_t *all = NULL;
  GPtrArray *list;

  if (pcap_findalldevs (&all, errbuf) != 0)
    {
      g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_OPEN, "Cannot list interfaces: %s", errbuf);
      return NULL;
    }
  list = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_live_interface_free);
  for (pcap_if_t *dev = all; dev != NULL; dev = dev->next)
    {
      CsLiveInterface *iface = g_new0 (CsLiveInterface, 1);
      GString *addresses = g_string_new (NULL);

      for (pcap_addr_t *a = dev->addresses; a != NULL; a = a->next)
        cs_live_append_address (addresses, a->addr);
      iface->name = g_strdup (dev->name);
      iface->description = g_strdup (dev->description);
      iface->addresses = g_string_free (addresses, FALSE);
      iface->up = (dev->flags & PCAP_IF_UP) != 0;
      iface->running = (dev->flags & PCAP_IF_RUNNING) != 0;
      iface->loopback = (dev->flags & PCAP_IF_LOOPBACK) != 0;
      g_ptr_array_add (list, iface);
    }
  pcap_freealldevs (all);
  return list;
}

char *
cs_live_pcap_permission_hint (const char *interface)
{
  return g_strdup_printf (
      "Capturing on %s is not permitted for this user. Live capture needs the CAP_NET_RAW "
      "capability: run as root, or grant it once with "
      "“sudo setcap cap_net_raw,cap_net_admin=eip $(command -v callscope-cli)”, or join the "
      "group allowed to capture (“pcap” or “wireshark”, with dumpcap set up for it) and log in "
      "again. Listening for HEP needs no privileges.",
      interface);
}

static gboolean
cs_live_fail (GError **error, CsLiveError code, pcap_t *handle, const char *interface,
              const char *what)
{
  if (code == CS_LIVE_ERROR_PERMISSION)
    {
      g_autofree char *hint = cs_live_pcap_permission_hint (interface);

      g_set_error (error, CS_LIVE_ERROR, code, "%s (libpcap: %s)", hint,
                   handle != NULL ? pcap_geterr (handle) : what);
    }
  else
    g_set_error (error, CS_LIVE_ERROR, code, "%s on %s: %s", what, interface,
                 handle != NULL ? pcap_geterr (handle) : "");
  if (handle != NULL)
    pcap_close (handle);
  return FALSE;
}

static gboolean
cs_live_apply_filter (pcap_t *handle, const char *interface, const char *filter, GError **error)
{
  struct bpf_program program;

  if (filter == NULL || *filter == '\0')
    return TRUE;
  if (pcap_compile (handle, &program, filter, 1, PCAP_NETMASK_UNKNOWN) != 0)
    {
      g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_FILTER, "Capture filter “%s”: %s", filter,
                   pcap_geterr (handle));
      return FALSE;
    }
  if (pcap_setfilter (handle, &program) != 0)
    {
      g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_FILTER, "Capture filter on %s: %s",
                   interface, pcap_geterr (handle));
      pcap_freecode (&program);
      return FALSE;
    }
  pcap_freecode (&program);
  return TRUE;
}

CsLivePcap *
cs_live_pcap_open (const char *interface, const char *filter, gboolean promiscuous, guint snaplen,
                   GError **error)
{
  char errbuf[PCAP_ERRBUF_SIZE] = "";
  pcap_t *handle;
  CsLivePcap *pcap;
  int status;

  if (interface == NULL || *interface == '\0')
    {
      g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_NO_DEVICE, "No interface given");
      return NULL;
    }
  handle = pcap_create (interface, errbuf);
  if (handle == NULL)
    {
      g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_OPEN, "Cannot open %s: %s", interface,
                   errbuf);
      return NULL;
    }
  pcap_set_snaplen (handle, snaplen > 0 ? (int) MIN (snaplen, G_MAXINT) : CS_LIVE_DEFAULT_SNAPLEN);
  pcap_set_promisc (handle, promiscuous ? 1 : 0);
  pcap_set_immediate_mode (handle, 1);
  pcap_set_buffer_size (handle, CS_LIVE_BUFFER_BYTES);
  pcap_set_tstamp_precision (handle, PCAP_TSTAMP_PRECISION_NANO);
  status = pcap_activate (handle);
  switch (status)
    {
    case 0:
    case PCAP_WARNING:
    case PCAP_WARNING_PROMISC_NOTSUP:
    case PCAP_WARNING_TSTAMP_TYPE_NOTSUP:
      break;
    case PCAP_ERROR_PERM_DENIED:
    case PCAP_ERROR_PROMISC_PERM_DENIED:
      cs_live_fail (error, CS_LIVE_ERROR_PERMISSION, handle, interface, "permission denied");
      return NULL;
    case PCAP_ERROR_NO_SUCH_DEVICE:
      cs_live_fail (error, CS_LIVE_ERROR_NO_DEVICE, handle, interface, "No such interface");
      return NULL;
    case PCAP_ERROR_IFACE_NOT_UP:
      cs_live_fail (error, CS_LIVE_ERROR_NO_DEVICE, handle, interface, "Interface is down");
      return NULL;
    default:
      cs_live_fail (error, CS_LIVE_ERROR_OPEN, handle, interface, "Cannot capture");
      return NULL;
    }
  if (!cs_live_apply_filter (handle, interface, filter, error)
      || pcap_setnonblock (handle, 1, errbuf) != 0)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_OPEN, "%s", errbuf);
      pcap_close (handle);
      return NULL;
    }
  pcap = g_new0 (CsLivePcap, 1);
  g_mutex_init (&pcap->lock);
  pcap->handle = handle;
  pcap->interface = g_strdup (interface);
  pcap->linktype = (guint) pcap_datalink (handle);
  return pcap;
}

void
cs_live_pcap_free (CsLivePcap *pcap)
{
  if (pcap == NULL)
    return;
  cs_live_pcap_stop (pcap);
  if (pcap->end_source != NULL)
    {
      g_source_destroy (pcap->end_source);
      g_source_unref (pcap->end_source);
    }
  pcap_close (pcap->handle);
  g_free (pcap->interface);
  g_clear_pointer (&pcap->context, g_main_context_unref);
  g_mutex_clear (&pcap->lock);
  g_free (pcap);
}

guint
cs_live_pcap_get_linktype (CsLivePcap *pcap)
{
  return pcap->linktype;
}

static void
cs_live_on_packet (u_char *user, const struct pcap_pkthdr *hdr, const u_char *bytes)
{
  CsLivePcap *pcap = (CsLivePcap *) user;
  /* Nanosecond precision was requested: tv_usec holds nanoseconds. */
  gint64 ts_ns = (gint64) hdr->ts.tv_sec * G_GINT64_CONSTANT (1000000000) + hdr->ts.tv_usec;

  if (pcap->max_packets > 0 && pcap->received >= pcap->max_packets)
    return;
  if (pcap->tap != NULL)
    pcap->tap (pcap->linktype, ts_ns, bytes, hdr->caplen, pcap->tap_data);
  cs_live_session_push_frame (pcap->session, (guint16) pcap->linktype, ts_ns, bytes, hdr->caplen,
                              hdr->len);
  g_mutex_lock (&pcap->lock);
  pcap->received++;
  g_mutex_unlock (&pcap->lock);
}

typedef struct
{
  CsLivePcap *pcap;
  GError *error;
} CsLiveEnd;

static void
cs_live_end_free (gpointer data)
{
  CsLiveEnd *end = data;

  g_clear_error (&end->error);
  g_free (end);
}

static gboolean
cs_live_report_end (gpointer user_data)
{
  CsLiveEnd *end = user_data;

  g_clear_pointer (&end->pcap->end_source, g_source_unref);
  if (end->pcap->on_end != NULL)
    end->pcap->on_end (end->pcap, end->error, end->pcap->end_data);
  return G_SOURCE_REMOVE;
}

static void
cs_live_update_stats (CsLivePcap *pcap)
{
  struct pcap_stat st;

  if (pcap_stats (pcap->handle, &st) != 0)
    return;
  g_mutex_lock (&pcap->lock);
  pcap->dropped = st.ps_drop;
  pcap->if_dropped = st.ps_ifdrop;
  g_mutex_unlock (&pcap->lock);
}

static gpointer
cs_live_pcap_thread (gpointer user_data)
{
  CsLivePcap *pcap = user_data;
  GError *error = NULL;
  struct pollfd pfd = { pcap_get_selectable_fd (pcap->handle), POLLIN, 0 };

  while (!g_atomic_int_get (&pcap->stop))
    {
      int n;

      if (pcap->max_packets > 0 && pcap->received >= pcap->max_packets)
        break;
      if (poll (&pfd, 1, CS_LIVE_POLL_MS) < 0 && errno != EINTR)
        {
          g_set_error (&error, CS_LIVE_ERROR, CS_LIVE_ERROR_READ, "Capture on %s stopped: %s",
                       pcap->interface, g_strerror (errno));
          break;
        }
      if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
        {
          /* The interface went away or down: libpcap tells why on the next read. */
          n = pcap_dispatch (pcap->handle, -1, cs_live_on_packet, (u_char *) pcap);
          g_set_error (&error, CS_LIVE_ERROR, CS_LIVE_ERROR_READ, "Capture on %s stopped: %s",
                       pcap->interface,
                       n < 0 ? pcap_geterr (pcap->handle) : "the interface went down");
          break;
        }
      n = pcap_dispatch (pcap->handle, -1, cs_live_on_packet, (u_char *) pcap);
      if (n < 0)
        {
          g_set_error (&error, CS_LIVE_ERROR, CS_LIVE_ERROR_READ, "Capture on %s stopped: %s",
                       pcap->interface, pcap_geterr (pcap->handle));
          break;
        }
      cs_live_update_stats (pcap);
    }
  cs_live_update_stats (pcap);
  g_atomic_int_set (&pcap->running, 0);
  if (!g_atomic_int_get (&pcap->stop) && pcap->context != NULL)
    {
      CsLiveEnd *end = g_new0 (CsLiveEnd, 1);

      GSource *source = g_idle_source_new ();

      end->pcap = pcap;
      end->error = error;
      g_source_set_callback (source, cs_live_report_end, end, cs_live_end_free);
      pcap->end_source = source; /* joined before free, so no race with the owner */
      g_source_attach (source, pcap->context);
    }
  else
    g_clear_error (&error);
  return NULL;
}

void
cs_live_pcap_start (CsLivePcap *pcap, CsLiveSession *session, guint64 max_packets,
                    CsLivePcapTapFunc tap, gpointer tap_data, CsLivePcapEndFunc on_end,
                    gpointer end_data)
{
  g_return_if_fail (pcap->thread == NULL);
  pcap->session = g_object_ref (session);
  pcap->max_packets = max_packets;
  pcap->tap = tap;
  pcap->tap_data = tap_data;
  pcap->on_end = on_end;
  pcap->end_data = end_data;
  g_clear_pointer (&pcap->context, g_main_context_unref);
  pcap->context = g_main_context_ref_thread_default ();
  g_atomic_int_set (&pcap->stop, 0);
  g_atomic_int_set (&pcap->running, 1);
  pcap->thread = g_thread_new ("cs-live-pcap", cs_live_pcap_thread, pcap);
}

void
cs_live_pcap_stop (CsLivePcap *pcap)
{
  if (pcap->thread == NULL)
    return;
  g_atomic_int_set (&pcap->stop, 1);
  pcap_breakloop (pcap->handle);
  g_thread_join (pcap->thread);
  pcap->thread = NULL;
  g_clear_object (&pcap->session);
}

gboolean
cs_live_pcap_is_running (CsLivePcap *pcap)
{
  return g_atomic_int_get (&pcap->running);
}

void
cs_live_pcap_get_stats (CsLivePcap *pcap, guint64 *received, guint64 *dropped, guint64 *if_dropped)
{
  g_mutex_lock (&pcap->lock);
  if (received != NULL)
    *received = pcap->received;
  if (dropped != NULL)
    *dropped = pcap->dropped;
  if (if_dropped != NULL)
    *if_dropped = pcap->if_dropped;
  g_mutex_unlock (&pcap->lock);
}

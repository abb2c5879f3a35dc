/* cs-live-pcap.h — live capture from a network interface with libpcap */
#pragma once

#include <gio/gio.h>

#include "cs-live-session.h"

G_BEGIN_DECLS

typedef struct
{
  char *name;        /* "eth0" */
  char *description; /* libpcap's description, or NULL */
  char *addresses;   /* "192.0.2.1, 2001:db8::1" (may be empty) */
  gboolean up, running, loopback;
} CsLiveInterface;

void cs_live_interface_free (CsLiveInterface *iface);
/* Capture devices (CsLiveInterface*), as pcap_findalldevs lists them. */
GPtrArray *cs_live_pcap_list_interfaces (GError **error);

#define CS_LIVE_DEFAULT_SNAPLEN 262144

typedef struct _CsLivePcap CsLivePcap;

/* Called on the capture thread for each frame, before it is queued (e.g. a HEP sender). */
typedef void (*CsLivePcapTapFunc) (guint linktype, gint64 ts_ns, const guint8 *data, gsize caplen,
                                   gpointer user_data);
/* Called on the main context of cs_live_pcap_start's caller when capturing ends by itself;
 * error says why (NULL when stopped on request or after the requested count). */
typedef void (*CsLivePcapEndFunc) (CsLivePcap *pcap, const GError *error, gpointer user_data);

/* Opens and activates the interface. snaplen 0 means CS_LIVE_DEFAULT_SNAPLEN. Errors:
 * CS_LIVE_ERROR_PERMISSION (with what to do), _NO_DEVICE, _FILTER, _OPEN. */
CsLivePcap *cs_live_pcap_open (const char *interface, const char *filter, gboolean promiscuous,
                               guint snaplen, GError **error);
void cs_live_pcap_free (CsLivePcap *pcap);
guint cs_live_pcap_get_linktype (CsLivePcap *pcap);

/* Captures on a thread, pushing frames to session, until stopped, max_packets (0: no limit) or
 * an error. */
void cs_live_pcap_start (CsLivePcap *pcap, CsLiveSession *session, guint64 max_packets,
                         CsLivePcapTapFunc tap, gpointer tap_data, CsLivePcapEndFunc on_end,
                         gpointer end_data);
void cs_live_pcap_stop (CsLivePcap *pcap);
gboolean cs_live_pcap_is_running (CsLivePcap *pcap);
/* Packets seen, dropped by the kernel buffer, dropped by the interface (pcap_stats). */
void cs_live_pcap_get_stats (CsLivePcap *pcap, guint64 *received, guint64 *dropped,
                             guint64 *if_dropped);

/* The text shown when capturing is not permitted. */
char *cs_live_pcap_permission_hint (const char *interface);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLivePcap, cs_live_pcap_free)

G_END_DECLS

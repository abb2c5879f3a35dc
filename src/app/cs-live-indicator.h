/* cs-live-indicator.h — status-bar strip of a live capture or HEP session: what is watched,
 * packet and message rates, drops, Pause and Stop (the window's win.live-pause and
 * win.live-stop, cs-window-live.c) */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_TYPE_LIVE_INDICATOR (cs_live_indicator_get_type ())
G_DECLARE_FINAL_TYPE (CsLiveIndicator, cs_live_indicator, CS, LIVE_INDICATOR, GtkBox)

/* Signals: "started" once a source runs; "stopped" (const char *saved, the capture's path or
 * NULL) after Stop or when the source ends by itself. */
CsLiveIndicator *cs_live_indicator_new (void);

/* Starts watching; the frames are saved under the user cache directory. Errors from the
 * source (permissions, interface, address) are returned and nothing starts. */
gboolean cs_live_indicator_start_interface (CsLiveIndicator *self, const char *interface,
                                            const char *filter, gboolean promiscuous, guint snaplen,
                                            GError **error);
gboolean cs_live_indicator_start_hep (CsLiveIndicator *self, const char *listen,
                                      const char *auth_key, GError **error);
/* Stops the source and the session; emits "stopped" (saved path, or NULL). */
void cs_live_indicator_stop (CsLiveIndicator *self);
gboolean cs_live_indicator_is_running (CsLiveIndicator *self);
CsLiveSession *cs_live_indicator_get_session (CsLiveIndicator *self);
/* What is watched, as shown ("Live on eth0", "HEP on 127.0.0.1:9060"). */
const char *cs_live_indicator_get_source (CsLiveIndicator *self);
/* The counters line as shown ("1,204 packets · 40/s · …"), for tests. */
const char *cs_live_indicator_get_text (CsLiveIndicator *self);

G_END_DECLS

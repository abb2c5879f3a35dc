/* cs-live-indicator.h — status-bar strip of a live capture or HEP session: what is watched,
 * packet and message rates, drops, Pause and Stop; and the window's Capture actions */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-window.h"

G_BEGIN_DECLS

#define CS_TYPE_LIVE_INDICATOR (cs_live_indicator_get_type ())
G_DECLARE_FINAL_TYPE (CsLiveIndicator, cs_live_indicator, CS, LIVE_INDICATOR, GtkBox)

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
/* The counters line as shown ("1,204 packets · 40/s · …"), for tests. */
const char *cs_live_indicator_get_text (CsLiveIndicator *self);

/* Adds the indicator to the window's status bar and the actions win.live-capture,
 * win.hep-listen, win.live-stop and win.live-pause. While live, the calls list shows the
 * session's calls; on Stop the saved capture is opened like any file. */
void cs_live_indicator_install (CsWindow *window);

G_END_DECLS

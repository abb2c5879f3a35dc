/* cs-window-private.h — CsWindow's state, shared by its files and the UI tests */
#pragma once

#include "callscope-engine.h"
#include "cs-calls-view.h"
#include "cs-detail-pane.h"
#include "cs-findings-view.h"
#include "cs-packets-view.h"
#include "cs-graph-view.h"
#include "cs-ladder-pane.h"
#include "cs-live-indicator.h"
#include "cs-load-view.h"
#include "cs-player-bar.h"
#include "cs-selection.h"
#include "cs-streams-view.h"
#include "cs-status-page.h"
#include "cs-summary-view.h"
#include "cs-window.h"

G_BEGIN_DECLS

typedef enum
{
  CS_WINDOW_STATE_EMPTY,   /* nothing open: says how to open a capture */
  CS_WINDOW_STATE_LOADING, /* reading in the background; calls appear as found */
  CS_WINDOW_STATE_LOADED,  /* everything read (possibly up to damage) */
  CS_WINDOW_STATE_ERROR,   /* nothing could be read; says why */
} CsWindowState;

struct _CsWindow
{
  GtkApplicationWindow parent_instance;

  /* Template children */
  GtkLabel *title_label;
  GtkMenuButton *recent_button;
  GtkSearchEntry *search_entry;
  GtkRevealer *damage_revealer;
  GtkLabel *damage_label;
  GtkStack *main_stack;
  CsStatusPage *error_page;
  GtkStack *view_stack;
  CsCallsView *calls_view;
  CsSummaryView *summary_view;
  CsLoadView *load_view;         /* issue 11 */
  CsStreamsView *streams_view;   /* issue 7 */
  CsFindingsView *findings_view; /* issue 7 */
  CsPacketsView *packets_view;   /* issue 21 */
  CsGraphView *graph_view;       /* issue 7 */
  CsLadderPane *ladder_pane;     /* issue 6 */
  CsDetailPane *detail_pane;     /* issue 6 */
  CsPlayerBar *player_bar;       /* issue 8 */
  GtkPaned *list_paned;
  GtkPaned *detail_paned;
  GtkPaned *workspace_paned;
  GtkWidget *quality_strip; /* graphs and player, below the ladder */
  GtkStackSwitcher *page_switcher;
  GtkWidget *back_button;    /* shown while the list is collapsed */
  GtkWidget *layout_buttons; /* list, graphs, detail pane, maximised ladder */
  GtkWidget *statusbar;
  GtkLabel *status_label;
  GtkWidget *load_box;
  GtkProgressBar *load_progress;
  CsLiveIndicator *live_indicator; /* issue 12 */

  gboolean attached_to_application;
  GSettings *settings; /* NULL when the schema is not installed */
  CsWindowState state;
  GPtrArray *files;          /* GFile being read or shown */
  gboolean files_are_points; /* several files: capture points of one network (cs-point-clock.h) */
  CsLoader *loader;          /* the current load; NULL once finished or cancelled */
  CsPublisher *publisher;    /* how fast its calls show (attached to the loader) */
  GCancellable *cancellable;
  CsAnalysis *analysis;       /* "analysis": from the moment the loader makes it */
  gboolean analysis_loaded;   /* every call is in it: "loaded-analysis" is it too */
  CsSelection *selection;     /* the shared cursor every view follows */
  gboolean syncing_selection; /* a bridge is moving views: their echoes are ignored */
  guint cursor_frame_seen;    /* the cursor when the ladder last followed or moved it */
  gint64 cursor_time_seen;
  guint restore_panes_id; /* tick callback that puts the dividers where they were */
  char *error_message;
  gboolean live_paused; /* "live-paused": the live calls list holds still */
  /* cs-window-layout.c */
  gboolean call_focused;     /* the list collapsed: the workspace has the height */
  gboolean ladder_maximized; /* the ladder alone */
  gboolean detail_visible;
  gboolean graphs_visible;
};

/* The window's properties, which cs-window.ui binds the views to. */
typedef enum
{
  CS_WINDOW_PROP_0,
  CS_WINDOW_PROP_ANALYSIS,         /* the capture's analysis; its calls fill in while loading */
  CS_WINDOW_PROP_LOADED_ANALYSIS,  /* the same once loaded (NULL before): whole-capture views */
  CS_WINDOW_PROP_SELECTION,        /* the shared cursor */
  CS_WINDOW_PROP_LIVE_PAUSED,      /* win.live-pause: the live calls list holds still */
  CS_WINDOW_PROP_CALL_FOCUSED,     /* win.call-focused: the list collapsed to the page strip */
  CS_WINDOW_PROP_LADDER_MAXIMIZED, /* win.ladder-maximized: the ladder alone */
  CS_WINDOW_PROP_DETAIL_VISIBLE,   /* win.detail-visible: the message/SDP/frame pane */
  CS_WINDOW_PROP_GRAPHS_VISIBLE,   /* win.graphs-visible: graphs and player below the ladder */
  CS_WINDOW_N_PROPS
} CsWindowProperty;

/* cs-window.c */
void cs_window_notify (CsWindow *self, CsWindowProperty property);
void cs_window_set_state (CsWindow *self, CsWindowState state);
CsWindowState cs_window_get_state (CsWindow *self);
void cs_window_update_title (CsWindow *self);
void cs_window_update_status (CsWindow *self);
void cs_window_show_error (CsWindow *self, const char *title, const char *detail);

/* cs-window-loading.c */
void cs_window_cancel_load (CsWindow *self);
/* Drops the loader, the analysis and what the views show. */
void cs_window_forget_capture (CsWindow *self);

/* cs-window-actions.c: win.open, win.export, win.cancel-load, win.focus-search,
 * win.hide-damage, win.play-pause (installed on the class); Space plays and pauses */
void cs_window_actions_class_init (GtkWidgetClass *widget_class);
void cs_window_actions_init (CsWindow *self);
/* Enables the actions that apply in the window's state. */
void cs_window_actions_update (CsWindow *self);

/* cs-window-live.c: the Capture actions, the live indicator, its calls while live */
void cs_window_live_class_init (GtkWidgetClass *widget_class);
void cs_window_live_init (CsWindow *self);
void cs_window_live_set_paused (CsWindow *self, gboolean paused);

/* cs-window-selection.c: calls list, ladder and Load page ↔ the shared cursor */
void cs_window_selection_init (CsWindow *self);
void cs_window_selection_dispose (CsWindow *self);
/* The ladder row of the message in that frame, else the message nearest in time; -1. */
int cs_window_find_ladder_row (const CsLadderLayout *layout, guint frame, gint64 time_ns);

/* cs-window-frames.c: win.show-frame(u), win.show-stream(u), win.show-finding-packets,
 * win.show-time-range((xx)), win.next-finding, win.previous-finding */
void cs_window_frames_class_init (GtkWidgetClass *widget_class);
/* The Packets page at frame (0: the shared cursor's frame), its tree and bytes shown. */
void cs_window_show_frame (CsWindow *self, guint32 frame);
/* The Packets page listing a stream (0: the shared cursor's stream), which the cursor takes. */
void cs_window_show_stream (CsWindow *self, guint stream_id);

/* cs-window-layout.c: the layout properties and actions (win.call-focused,
 * win.ladder-maximized, win.detail-visible, win.graphs-visible, win.open-call,
 * win.back-to-list, win.previous-call, win.next-call) */
void cs_window_layout_class_init (GtkWidgetClass *widget_class);
GParamSpec *cs_window_layout_param_spec (CsWindowProperty property);
gboolean cs_window_layout_get (CsWindow *self, CsWindowProperty property);
void cs_window_layout_set (CsWindow *self, CsWindowProperty property, gboolean value);
/* Shows and hides the parts for the page and the layout properties. */
void cs_window_layout_apply (CsWindow *self);
void cs_window_layout_restore (CsWindow *self);
void cs_window_layout_save (CsWindow *self);

/* cs-window-panes.c: dividers restored (once allocated) and saved as fractions */
void cs_window_panes_init (CsWindow *self);
void cs_window_panes_save (CsWindow *self);
void cs_window_panes_dispose (CsWindow *self);
/* The room a paned's two children share: its size less the handle. */
int cs_window_paned_room (GtkPaned *paned);

/* For tests: the calls as shown (filtered, sorted), and the error text. */
GListModel *cs_window_get_calls_model (CsWindow *self);
const char *cs_window_get_error_message (CsWindow *self);
const char *cs_window_get_title_text (CsWindow *self);

G_END_DECLS

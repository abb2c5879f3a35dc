/* cs-player-bar.h — play, pause, seek and export the selected call or stream,
 * with its waveform; follows and moves the shared cursor (CsSelection) */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-audio-player.h"
#include "cs-calls-view.h"
#include "cs-selection.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_PLAYER_BAR (cs_player_bar_get_type ())
G_DECLARE_FINAL_TYPE (CsPlayerBar, cs_player_bar, CS, PLAYER_BAR, CsView)

/* The bar plays the view's selection's call (stereo) or, without a call, its stream, from
 * the view's analysis, and keeps "time-ns" and its cursor in step while playing. */
GtkWidget *cs_player_bar_new (void);

/* Also plays the call selected in a calls list ("calls-view", bound in cs-window.ui). */
void cs_player_bar_follow_calls_view (CsPlayerBar *self, CsCallsView *calls_view);

/* Pauses while playing, else plays (from the cursor); does nothing before audio is decoded. */
void cs_player_bar_toggle_play (CsPlayerBar *self);

/* For tests. */
CsAudioPlayer *cs_player_bar_get_player (CsPlayerBar *self);
CsAudioRender *cs_player_bar_get_render (CsPlayerBar *self);
const char *cs_player_bar_get_message (CsPlayerBar *self);
/* Decodes now, on the calling thread (tests); the bar otherwise decodes in the background. */
void cs_player_bar_render_now (CsPlayerBar *self);

G_END_DECLS

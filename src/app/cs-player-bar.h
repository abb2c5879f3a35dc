/* cs-player-bar.h — play, pause, seek and export the selected call or stream,
 * with its waveform; follows and moves the shared cursor (CsSelection) */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-audio-player.h"
#include "cs-selection.h"

G_BEGIN_DECLS

#define CS_TYPE_PLAYER_BAR (cs_player_bar_get_type ())
G_DECLARE_FINAL_TYPE (CsPlayerBar, cs_player_bar, CS, PLAYER_BAR, GtkWidget)

GtkWidget *cs_player_bar_new (void);
void cs_player_bar_set_analysis (CsPlayerBar *self, CsAnalysis *analysis);
/* The bar plays the selection's call (stereo) or, without a call, its stream,
 * and keeps "time-ns" and its cursor in step while playing. */
void cs_player_bar_set_selection (CsPlayerBar *self, CsSelection *selection);

/* Also plays the call selected in a list that has a "selected-call" property
 * (CsCallsView), for lists that do not set the shared selection. */
void cs_player_bar_follow_calls_view (CsPlayerBar *self, GObject *calls_view);

/* Pauses while playing, else plays (from the cursor); does nothing before audio is decoded. */
void cs_player_bar_toggle_play (CsPlayerBar *self);

/* For tests. */
CsAudioPlayer *cs_player_bar_get_player (CsPlayerBar *self);
CsAudioRender *cs_player_bar_get_render (CsPlayerBar *self);
const char *cs_player_bar_get_message (CsPlayerBar *self);
/* Decodes now, on the calling thread (tests); the bar otherwise decodes in the background. */
void cs_player_bar_render_now (CsPlayerBar *self);

G_END_DECLS

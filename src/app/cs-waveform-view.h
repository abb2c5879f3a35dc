/* cs-waveform-view.h — a render's waveform, one lane per channel, with lost,
 * late and undecodable packets, comfort noise and DTMF marked, and a cursor */
#pragma once

#include <gtk/gtk.h>

#include "cs-audio-render.h"

G_BEGIN_DECLS

#define CS_TYPE_WAVEFORM_VIEW (cs_waveform_view_get_type ())
G_DECLARE_FINAL_TYPE (CsWaveformView, cs_waveform_view, CS, WAVEFORM_VIEW, GtkWidget)

/* Signals: "seek" (gint64 time_ns) when the person clicks or drags in the view. */
GtkWidget *cs_waveform_view_new (void);

/* NULL shows the placeholder text instead. The view keeps a ref. */
void cs_waveform_view_set_render (CsWaveformView *self, CsAudioRender *render);
CsAudioRender *cs_waveform_view_get_render (CsWaveformView *self);
/* Text shown when there is no render ("Select a call…", "Decoding…"). */
void cs_waveform_view_set_placeholder (CsWaveformView *self, const char *text);
/* Cursor at a capture time (ns since the epoch); 0 hides it. */
void cs_waveform_view_set_cursor_ns (CsWaveformView *self, gint64 time_ns);
gint64 cs_waveform_view_get_cursor_ns (CsWaveformView *self);
/* Capture time under an x coordinate of the widget (for tests and clicks). */
gint64 cs_waveform_view_time_at (CsWaveformView *self, double x);
/* The mark drawn at widget point (x, y) in that channel's lane (a few pixels of slack), NULL
 * when none; a double click opens its frame (win.show-frame). */
const CsAudioMark *cs_waveform_view_mark_at (CsWaveformView *self, double x, double y);

G_END_DECLS

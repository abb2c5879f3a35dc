/* cs-view.h — the base of the window's views: a widget that shows part of a capture, with the
 * capture's "analysis" and the shared "selection" it follows (bound in cs-window.ui) */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-selection.h"

G_BEGIN_DECLS

#define CS_TYPE_VIEW (cs_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (CsView, cs_view, CS, VIEW, GtkWidget)

struct _CsViewClass
{
  GtkWidgetClass parent_class;

  /* After the property changed (never for the same value); the new one is read back with
   * the getter, the old one (NULL or not) is still alive during the call. */
  void (*analysis_changed) (CsView *self, CsAnalysis *old_analysis);
  void (*selection_changed) (CsView *self, CsSelection *old_selection);
};

/* The analysis shown; NULL shows the view's empty state. */
CsAnalysis *cs_view_get_analysis (CsView *self);
void cs_view_set_analysis (CsView *self, CsAnalysis *analysis);
/* The cursor shared with the other views (NULL: follows nothing). */
CsSelection *cs_view_get_selection (CsView *self);
void cs_view_set_selection (CsView *self, CsSelection *selection);

G_END_DECLS

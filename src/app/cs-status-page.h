/* cs-status-page.h — a centred icon, title, explanation and optional action */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_STATUS_PAGE (cs_status_page_get_type ())
G_DECLARE_FINAL_TYPE (CsStatusPage, cs_status_page, CS, STATUS_PAGE, GtkWidget)

GtkWidget *cs_status_page_new (void);
void cs_status_page_set_icon_name (CsStatusPage *self, const char *icon_name);
void cs_status_page_set_title (CsStatusPage *self, const char *title);
const char *cs_status_page_get_title (CsStatusPage *self);
void cs_status_page_set_description (CsStatusPage *self, const char *description);
const char *cs_status_page_get_description (CsStatusPage *self);
/* A widget shown below the description, usually a button. */
void cs_status_page_set_child (CsStatusPage *self, GtkWidget *child);

G_END_DECLS

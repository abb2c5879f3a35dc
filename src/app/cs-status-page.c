/* cs-status-page.c — a centred icon, title, explanation and optional action */
#include "cs-status-page.h"

struct _CsStatusPage
{
  GtkWidget parent_instance;

  GtkWidget *scroller;
  GtkImage *icon;
  GtkLabel *title_label;
  GtkLabel *description_label;
  GtkBox *child_box;
  GtkWidget *child;
};

G_DEFINE_FINAL_TYPE (CsStatusPage, cs_status_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_ICON_NAME,
  PROP_TITLE,
  PROP_DESCRIPTION,
  PROP_CHILD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GtkWidget *
cs_status_page_new (void)
{
  return g_object_new (CS_TYPE_STATUS_PAGE, NULL);
}

void
cs_status_page_set_icon_name (CsStatusPage *self, const char *icon_name)
{
  g_return_if_fail (CS_IS_STATUS_PAGE (self));

  gtk_image_set_from_icon_name (self->icon, icon_name);
  gtk_widget_set_visible (GTK_WIDGET (self->icon), icon_name != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICON_NAME]);
}

void
cs_status_page_set_title (CsStatusPage *self, const char *title)
{
  g_return_if_fail (CS_IS_STATUS_PAGE (self));

  gtk_label_set_text (self->title_label, title != NULL ? title : "");
  gtk_widget_set_visible (GTK_WIDGET (self->title_label), title != NULL && *title != '\0');
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
cs_status_page_get_title (CsStatusPage *self)
{
  g_return_val_if_fail (CS_IS_STATUS_PAGE (self), NULL);
  return gtk_label_get_text (self->title_label);
}

void
cs_status_page_set_description (CsStatusPage *self, const char *description)
{
  g_return_if_fail (CS_IS_STATUS_PAGE (self));

  gtk_label_set_text (self->description_label, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->description_label),
                          description != NULL && *description != '\0');
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DESCRIPTION]);
}

const char *
cs_status_page_get_description (CsStatusPage *self)
{
  g_return_val_if_fail (CS_IS_STATUS_PAGE (self), NULL);
  return gtk_label_get_text (self->description_label);
}

void
cs_status_page_set_child (CsStatusPage *self, GtkWidget *child)
{
  g_return_if_fail (CS_IS_STATUS_PAGE (self));

  if (self->child == child)
    return;
  if (self->child != NULL)
    gtk_box_remove (self->child_box, self->child);
  self->child = child;
  if (child != NULL)
    gtk_box_append (self->child_box, child);
  gtk_widget_set_visible (GTK_WIDGET (self->child_box), child != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHILD]);
}

static void
cs_status_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsStatusPage *self = CS_STATUS_PAGE (object);

  switch (prop_id)
    {
    case PROP_ICON_NAME:
      g_value_set_string (value, gtk_image_get_icon_name (self->icon));
      break;
    case PROP_TITLE:
      g_value_set_string (value, cs_status_page_get_title (self));
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, cs_status_page_get_description (self));
      break;
    case PROP_CHILD:
      g_value_set_object (value, self->child);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_status_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsStatusPage *self = CS_STATUS_PAGE (object);

  switch (prop_id)
    {
    case PROP_ICON_NAME:
      cs_status_page_set_icon_name (self, g_value_get_string (value));
      break;
    case PROP_TITLE:
      cs_status_page_set_title (self, g_value_get_string (value));
      break;
    case PROP_DESCRIPTION:
      cs_status_page_set_description (self, g_value_get_string (value));
      break;
    case PROP_CHILD:
      cs_status_page_set_child (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_status_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), CS_TYPE_STATUS_PAGE);
  G_OBJECT_CLASS (cs_status_page_parent_class)->dispose (object);
}

static void
cs_status_page_class_init (CsStatusPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cs_status_page_get_property;
  object_class->set_property = cs_status_page_set_property;
  object_class->dispose = cs_status_page_dispose;

  properties[PROP_ICON_NAME]
      = g_param_spec_string ("icon-name", NULL, NULL, NULL,
                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TITLE]
      = g_param_spec_string ("title", NULL, NULL, NULL,
                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_DESCRIPTION]
      = g_param_spec_string ("description", NULL, NULL, NULL,
                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CHILD]
      = g_param_spec_object ("child", NULL, NULL, GTK_TYPE_WIDGET,
                             G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-status-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CsStatusPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, CsStatusPage, icon);
  gtk_widget_class_bind_template_child (widget_class, CsStatusPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, CsStatusPage, description_label);
  gtk_widget_class_bind_template_child (widget_class, CsStatusPage, child_box);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "statuspage");
}

static void
cs_status_page_init (CsStatusPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* cs-view.c — the "analysis" and "selection" every view of the window has: kept here once,
 * the views only react to a change */
#include "cs-view.h"

typedef struct
{
  CsAnalysis *analysis;
  CsSelection *selection;
} CsViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (CsView, cs_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_ANALYSIS,
  PROP_SELECTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

CsAnalysis *
cs_view_get_analysis (CsView *self)
{
  CsViewPrivate *priv = cs_view_get_instance_private (self);

  g_return_val_if_fail (CS_IS_VIEW (self), NULL);
  return priv->analysis;
}

/* Puts a new reference in *slot; FALSE when it held that object already. The old one goes to
 * *old, for the caller to drop after telling the view. */
static gboolean
replace_object (gpointer *slot, gpointer object, gpointer *old)
{
  if (*slot == object)
    return FALSE;
  *old = g_steal_pointer (slot);
  *slot = object != NULL ? g_object_ref (object) : NULL;
  return TRUE;
}

void
cs_view_set_analysis (CsView *self, CsAnalysis *analysis)
{
  CsViewPrivate *priv = cs_view_get_instance_private (self);
  g_autoptr (CsAnalysis) old = NULL;

  g_return_if_fail (CS_IS_VIEW (self));
  g_return_if_fail (analysis == NULL || CS_IS_ANALYSIS (analysis));

  if (!replace_object ((gpointer *) &priv->analysis, analysis, (gpointer *) &old))
    return;
  if (CS_VIEW_GET_CLASS (self)->analysis_changed != NULL)
    CS_VIEW_GET_CLASS (self)->analysis_changed (self, old);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANALYSIS]);
}

CsSelection *
cs_view_get_selection (CsView *self)
{
  CsViewPrivate *priv = cs_view_get_instance_private (self);

  g_return_val_if_fail (CS_IS_VIEW (self), NULL);
  return priv->selection;
}

void
cs_view_set_selection (CsView *self, CsSelection *selection)
{
  CsViewPrivate *priv = cs_view_get_instance_private (self);
  g_autoptr (CsSelection) old = NULL;

  g_return_if_fail (CS_IS_VIEW (self));
  g_return_if_fail (selection == NULL || CS_IS_SELECTION (selection));

  if (!replace_object ((gpointer *) &priv->selection, selection, (gpointer *) &old))
    return;
  if (CS_VIEW_GET_CLASS (self)->selection_changed != NULL)
    CS_VIEW_GET_CLASS (self)->selection_changed (self, old);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

static void
cs_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsView *self = CS_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      g_value_set_object (value, cs_view_get_analysis (self));
      break;
    case PROP_SELECTION:
      g_value_set_object (value, cs_view_get_selection (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsView *self = CS_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      cs_view_set_analysis (self, g_value_get_object (value));
      break;
    case PROP_SELECTION:
      cs_view_set_selection (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The views' own dispose runs first (they let go of their signal handlers there); the
 * references go last. */
static void
cs_view_dispose (GObject *object)
{
  CsViewPrivate *priv = cs_view_get_instance_private (CS_VIEW (object));

  g_clear_object (&priv->analysis);
  g_clear_object (&priv->selection);
  G_OBJECT_CLASS (cs_view_parent_class)->dispose (object);
}

static void
cs_view_class_init (CsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = cs_view_get_property;
  object_class->set_property = cs_view_set_property;
  object_class->dispose = cs_view_dispose;

  properties[PROP_ANALYSIS]
      = g_param_spec_object ("analysis", NULL, NULL, CS_TYPE_ANALYSIS,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION]
      = g_param_spec_object ("selection", NULL, NULL, CS_TYPE_SELECTION,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_view_init (CsView *self)
{
}

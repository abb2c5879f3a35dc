/* cs-selection.c — the shared cursor: selected call, stream, frame and time, followed by every view
 */
#include "cs-selection.h"

struct _CsSelection
{
  GObject parent_instance;

  CsCall *call;
  CsStream *stream;
  guint frame;
  gint64 time_ns;
};

G_DEFINE_FINAL_TYPE (CsSelection, cs_selection, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_CALL,
  PROP_STREAM,
  PROP_FRAME,
  PROP_TIME_NS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

CsSelection *
cs_selection_new (void)
{
  return g_object_new (CS_TYPE_SELECTION, NULL);
}

CsCall *
cs_selection_get_call (CsSelection *self)
{
  g_return_val_if_fail (CS_IS_SELECTION (self), NULL);
  return self->call;
}

void
cs_selection_set_call (CsSelection *self, CsCall *call)
{
  g_return_if_fail (CS_IS_SELECTION (self));
  g_return_if_fail (call == NULL || CS_IS_CALL (call));

  if (g_set_object (&self->call, call))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALL]);
}

CsStream *
cs_selection_get_stream (CsSelection *self)
{
  g_return_val_if_fail (CS_IS_SELECTION (self), NULL);
  return self->stream;
}

void
cs_selection_set_stream (CsSelection *self, CsStream *stream)
{
  g_return_if_fail (CS_IS_SELECTION (self));
  g_return_if_fail (stream == NULL || CS_IS_STREAM (stream));

  if (g_set_object (&self->stream, stream))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STREAM]);
}

guint
cs_selection_get_frame (CsSelection *self)
{
  g_return_val_if_fail (CS_IS_SELECTION (self), 0);
  return self->frame;
}

void
cs_selection_set_frame (CsSelection *self, guint frame)
{
  g_return_if_fail (CS_IS_SELECTION (self));

  if (self->frame == frame)
    return;
  self->frame = frame;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRAME]);
}

gint64
cs_selection_get_time_ns (CsSelection *self)
{
  g_return_val_if_fail (CS_IS_SELECTION (self), 0);
  return self->time_ns;
}

void
cs_selection_set_time_ns (CsSelection *self, gint64 time_ns)
{
  g_return_if_fail (CS_IS_SELECTION (self));

  if (self->time_ns == time_ns)
    return;
  self->time_ns = time_ns;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_NS]);
}

void
cs_selection_set_cursor (CsSelection *self, guint frame, gint64 time_ns)
{
  g_return_if_fail (CS_IS_SELECTION (self));

  g_object_freeze_notify (G_OBJECT (self));
  cs_selection_set_frame (self, frame);
  cs_selection_set_time_ns (self, time_ns);
  g_object_thaw_notify (G_OBJECT (self));
}

void
cs_selection_select (CsSelection *self, CsCall *call, CsStream *stream, guint frame, gint64 time_ns)
{
  g_return_if_fail (CS_IS_SELECTION (self));

  g_object_freeze_notify (G_OBJECT (self));
  cs_selection_set_call (self, call);
  cs_selection_set_stream (self, stream);
  cs_selection_set_frame (self, frame);
  cs_selection_set_time_ns (self, time_ns);
  g_object_thaw_notify (G_OBJECT (self));
}

void
cs_selection_clear (CsSelection *self)
{
  cs_selection_select (self, NULL, NULL, 0, 0);
}

static void
cs_selection_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsSelection *self = CS_SELECTION (object);

  switch (prop_id)
    {
    case PROP_CALL:
      g_value_set_object (value, self->call);
      break;
    case PROP_STREAM:
      g_value_set_object (value, self->stream);
      break;
    case PROP_FRAME:
      g_value_set_uint (value, self->frame);
      break;
    case PROP_TIME_NS:
      g_value_set_int64 (value, self->time_ns);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_selection_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsSelection *self = CS_SELECTION (object);

  switch (prop_id)
    {
    case PROP_CALL:
      cs_selection_set_call (self, g_value_get_object (value));
      break;
    case PROP_STREAM:
      cs_selection_set_stream (self, g_value_get_object (value));
      break;
    case PROP_FRAME:
      cs_selection_set_frame (self, g_value_get_uint (value));
      break;
    case PROP_TIME_NS:
      cs_selection_set_time_ns (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_selection_dispose (GObject *object)
{
  CsSelection *self = CS_SELECTION (object);

  g_clear_object (&self->call);
  g_clear_object (&self->stream);
  G_OBJECT_CLASS (cs_selection_parent_class)->dispose (object);
}

static void
cs_selection_class_init (CsSelectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = cs_selection_get_property;
  object_class->set_property = cs_selection_set_property;
  object_class->dispose = cs_selection_dispose;

  properties[PROP_CALL] = g_param_spec_object ("call", NULL, NULL, CS_TYPE_CALL, flags);
  properties[PROP_STREAM] = g_param_spec_object ("stream", NULL, NULL, CS_TYPE_STREAM, flags);
  properties[PROP_FRAME] = g_param_spec_uint ("frame", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_TIME_NS]
      = g_param_spec_int64 ("time-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_selection_init (CsSelection *self)
{
}

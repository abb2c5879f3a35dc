/* cs-analysis.c — the result of one load */
#include "cs-analysis-private.h"

#include "calls/cs-call-loading.h"
#include "findings/cs-finding.h"
#include "cs-object-list.h"
#include "base/cs-prefetch.h"
#include "calls/cs-stream.h"

struct _CsAnalysis
{
  GObject parent_instance;
  CsCaptureSet *set;
  CsCaptureStats stats;
  GError *damage;
  GMutex calls_lock;  /* the load thread adds calls while the main context publishes */
  GPtrArray *calls;   /* CsCall*, everything found */
  gboolean published; /* every real call is in the model */
  CsCallList *call_list;
  GPtrArray *streams; /* CsStream*, set once at the end of the load */
  CsObjectList *stream_list;
  GPtrArray *findings; /* CsFinding*, set once at the end of the load */
  CsObjectList *finding_list;
  GArray *rtcp;              /* CsRtcpRef */
  CsPointClock *point_clock; /* files read as capture points, or NULL */
};

G_DEFINE_FINAL_TYPE (CsAnalysis, cs_analysis, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_PUBLISHED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
cs_analysis_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsAnalysis *self = CS_ANALYSIS (object);

  switch (prop_id)
    {
    case PROP_PUBLISHED:
      g_value_set_boolean (value, self->published);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gpointer
cs_copy_object_ref (gconstpointer object, gpointer user_data)
{
  return g_object_ref ((gpointer) object);
}

static void
cs_analysis_finalize (GObject *object)
{
  CsAnalysis *self = CS_ANALYSIS (object);

  g_clear_object (&self->call_list);
  g_clear_object (&self->stream_list);
  g_clear_object (&self->finding_list);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->rtcp, g_array_unref);
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_pointer (&self->calls, g_ptr_array_unref);
  g_mutex_clear (&self->calls_lock);
  g_clear_error (&self->damage);
  g_clear_pointer (&self->point_clock, cs_point_clock_free);
  g_hash_table_unref (self->stats.sip_methods);
  g_hash_table_unref (self->stats.sip_statuses);
  cs_capture_set_free (self->set);
  G_OBJECT_CLASS (cs_analysis_parent_class)->finalize (object);
}

static void
cs_analysis_class_init (CsAnalysisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cs_analysis_finalize;
  object_class->get_property = cs_analysis_get_property;
  properties[PROP_PUBLISHED]
      = g_param_spec_boolean ("published", NULL, NULL, FALSE,
                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_analysis_init (CsAnalysis *self)
{
  self->stats.sip_methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stats.sip_statuses = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->call_list = cs_call_list_new ();
  self->stream_list = cs_object_list_new (CS_TYPE_STREAM);
  self->finding_list = cs_object_list_new (CS_TYPE_FINDING);
  self->findings = g_ptr_array_new_with_free_func (g_object_unref);
  self->streams = g_ptr_array_new_with_free_func (g_object_unref);
  self->calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&self->calls_lock);
}

CsAnalysis *
cs_analysis_new (CsCaptureSet *set)
{
  CsAnalysis *self = g_object_new (CS_TYPE_ANALYSIS, NULL);

  self->set = set;
  return self;
}

CsCaptureSet *
cs_analysis_get_capture_set (CsAnalysis *self)
{
  return self->set;
}

GListModel *
cs_analysis_get_calls (CsAnalysis *self)
{
  return G_LIST_MODEL (self->call_list);
}

guint
cs_analysis_get_n_calls (CsAnalysis *self)
{
  return cs_call_list_get_n_invite_dialogs (self->call_list);
}

guint
cs_analysis_get_n_other_exchanges (CsAnalysis *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->call_list))
         - cs_call_list_get_n_invite_dialogs (self->call_list);
}

GListModel *
cs_analysis_get_streams (CsAnalysis *self)
{
  return G_LIST_MODEL (self->stream_list);
}

void
cs_analysis_take_streams (CsAnalysis *self, GPtrArray *streams)
{
  g_mutex_lock (&self->calls_lock);
  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *stream = g_ptr_array_index (streams, i);
      guint number = cs_stream_get_call_number (stream);
      double mos = cs_stream_get_mos (stream)->mos;

      self->stats.rtp_packets += cs_stream_get_stats (stream)->packets;
      if (number == 0 || number > self->calls->len)
        continue;
      CsCall *call = g_ptr_array_index (self->calls, number - 1);
      cs_call_add_stream (call, cs_stream_get_id (stream), mos);
    }
  g_ptr_array_extend (self->streams, streams, cs_copy_object_ref, NULL);
  g_mutex_unlock (&self->calls_lock);
}

static void
cs_analysis_add_findings (CsAnalysis *self, GPtrArray *findings, gboolean move)
{
  g_mutex_lock (&self->calls_lock);
  for (guint i = 0; i < findings->len; i++)
    {
      guint number = cs_finding_get_call_number (g_ptr_array_index (findings, i));

      /* findings and calls are cold after the detection (S: 200 000 and 100 000) */
      if (i + 8 < findings->len)
        CS_PREFETCH (g_ptr_array_index (findings, i + 8));
      if (i + 4 < findings->len)
        {
          guint ahead = cs_finding_get_call_number (g_ptr_array_index (findings, i + 4));

          if (ahead > 0 && ahead <= self->calls->len)
            cs_call_prefetch (g_ptr_array_index (self->calls, ahead - 1), FALSE);
        }

      if (number > 0 && number <= self->calls->len)
        cs_call_count_finding (g_ptr_array_index (self->calls, number - 1));
    }
  if (move)
    g_ptr_array_extend_and_steal (self->findings, g_ptr_array_ref (findings));
  else
    g_ptr_array_extend (self->findings, findings, cs_copy_object_ref, NULL);
  g_mutex_unlock (&self->calls_lock);
}

void
cs_analysis_take_findings (CsAnalysis *self, GPtrArray *findings)
{
  cs_analysis_add_findings (self, findings, FALSE);
}

void
cs_analysis_adopt_findings (CsAnalysis *self, GPtrArray *findings)
{
  cs_analysis_add_findings (self, findings, TRUE);
}

GListModel *
cs_analysis_get_findings (CsAnalysis *self)
{
  return G_LIST_MODEL (self->finding_list);
}

const CsCaptureStats *
cs_analysis_get_stats (CsAnalysis *self)
{
  return &self->stats;
}

CsCaptureStats *
cs_analysis_get_stats_mutable (CsAnalysis *self)
{
  return &self->stats;
}

const GArray *
cs_analysis_get_rtcp (CsAnalysis *self)
{
  static const GArray empty = { 0 };

  return self->rtcp != NULL ? self->rtcp : &empty;
}

void
cs_analysis_set_rtcp (CsAnalysis *self, GArray *rtcp)
{
  g_clear_pointer (&self->rtcp, g_array_unref);
  self->rtcp = rtcp != NULL ? g_array_ref (rtcp) : NULL;
}

const GError *
cs_analysis_get_damage (CsAnalysis *self)
{
  return self->damage;
}

const CsPointClock *
cs_analysis_get_point_clock (CsAnalysis *self)
{
  return self->point_clock;
}

CsPointClock **
cs_analysis_point_clock_slot (CsAnalysis *self)
{
  return &self->point_clock;
}

void
cs_analysis_set_damage (CsAnalysis *self, const GError *damage)
{
  g_clear_error (&self->damage);
  if (damage != NULL)
    self->damage = g_error_copy (damage);
}

void
cs_analysis_take_calls (CsAnalysis *self, GPtrArray *calls)
{
  g_mutex_lock (&self->calls_lock);
  g_ptr_array_extend (self->calls, calls, cs_copy_object_ref, NULL);
  g_mutex_unlock (&self->calls_lock);
}

void
cs_analysis_adopt_calls (CsAnalysis *self, GPtrArray *calls)
{
  g_mutex_lock (&self->calls_lock);
  g_ptr_array_extend_and_steal (self->calls, g_ptr_array_ref (calls));
  g_mutex_unlock (&self->calls_lock);
}

/* Items of `all` not yet in `list`, appended outside the lock. */
static void
cs_analysis_publish_store (CsAnalysis *self, CsObjectList *list, GPtrArray *all)
{
  guint published = g_list_model_get_n_items (G_LIST_MODEL (list));
  g_autoptr (GPtrArray) fresh = NULL;

  g_mutex_lock (&self->calls_lock);
  if (published < all->len)
    {
      /* the pointers only (the load thread may grow `all`, which keeps its objects) */
      fresh = g_ptr_array_sized_new (all->len - published);
      for (guint i = published; i < all->len; i++)
        g_ptr_array_add (fresh, g_ptr_array_index (all, i));
    }
  g_mutex_unlock (&self->calls_lock);
  if (fresh != NULL)
    cs_object_list_append_many (list, fresh->pdata, fresh->len);
}

void
cs_analysis_publish_results (CsAnalysis *self)
{
  cs_analysis_publish_store (self, self->stream_list, self->streams);
  cs_analysis_publish_store (self, self->finding_list, self->findings);
}

void
cs_analysis_set_published (CsAnalysis *self)
{
  if (self->published)
    return;
  self->published = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PUBLISHED]);
}

/* The pointers only, as self->calls only grows and keeps its calls as long as the analysis (a
 * reference up and down on each of S's 100 000 cold calls cost ~5 ms). */
GPtrArray *
cs_analysis_dup_calls (CsAnalysis *self)
{
  GPtrArray *calls = g_ptr_array_new ();

  g_mutex_lock (&self->calls_lock);
  g_ptr_array_extend (calls, self->calls, NULL, NULL);
  g_mutex_unlock (&self->calls_lock);
  return calls;
}

gboolean
cs_analysis_has_calls (CsAnalysis *self)
{
  gboolean any;

  g_mutex_lock (&self->calls_lock);
  any = self->calls->len > 0;
  g_mutex_unlock (&self->calls_lock);
  return any;
}

void
cs_analysis_publish (CsAnalysis *self)
{
  guint published = g_list_model_get_n_items (G_LIST_MODEL (self->call_list));
  g_autoptr (GPtrArray) calls = NULL;

  /* Streams and findings first: whoever indexes them (the calls list's codec and findings
   * columns) has done so when the rows of the calls bind. */
  cs_analysis_publish_results (self);
  calls = cs_analysis_dup_calls (self);
  /* items-changed is emitted outside the lock: handlers may call back in. */
  if (published < calls->len)
    cs_call_list_append_many (self->call_list, (CsCall *const *) calls->pdata + published,
                              calls->len - published);
  cs_analysis_set_published (self);
}

gboolean
cs_analysis_get_published (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), FALSE);
  return self->published;
}

CsStream *
cs_analysis_lookup_stream (CsAnalysis *self, guint id)
{
  return cs_streams_lookup (G_LIST_MODEL (self->stream_list), id);
}

CsCall *
cs_analysis_lookup_call (CsAnalysis *self, guint number)
{
  return cs_call_list_lookup_number (self->call_list, number);
}

CsCall *
cs_analysis_find_call (CsAnalysis *self, const char *number_or_call_id)
{
  return cs_call_list_lookup (self->call_list, number_or_call_id);
}

CsCall *
cs_analysis_find_call_id (CsAnalysis *self, const char *call_id)
{
  return cs_call_list_lookup_call_id (self->call_list, call_id);
}

char *
cs_analysis_dup_title (CsAnalysis *self)
{
  guint n = self->set != NULL ? cs_capture_set_get_n_files (self->set) : 0;
  g_autofree char *base = NULL;

  if (n == 0)
    return g_strdup ("");
  base = g_path_get_basename (cs_capture_get_path (cs_capture_set_get_file (self->set, 0)));
  if (n == 1)
    return g_steal_pointer (&base);
  return g_strdup_printf ("%s + %u more", base, n - 1);
}

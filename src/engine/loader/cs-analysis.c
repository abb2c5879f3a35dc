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
  GMutex calls_lock;            /* the load thread adds calls while the main context publishes */
  GPtrArray *calls;             /* CsCall*, everything found */
  GPtrArray *pending_snapshots; /* CsCall* copies made while loading, not yet shown */
  gboolean showing_snapshots;   /* main context: the model holds copies */
  guint continue_id;            /* main context: idle showing the copies left by a publish */
  GPtrArray *placing;           /* main context: the real calls a sliced publish is placing */
  guint placed;                 /* rows of `placing` in the model */
  guint placed_slice;           /* rows of the next slice */
  gint64 placing_since;         /* monotonic time the sliced publish began */
  GPtrArray *replaced;          /* the copies the real calls replaced so far */
  gboolean published;           /* every real call is in the model */
  CsCallList *call_list;
  GPtrArray *streams; /* CsStream*, set once at the end of the load */
  CsObjectList *stream_list;
  GPtrArray *findings; /* CsFinding*, set once at the end of the load */
  CsObjectList *finding_list;
  GArray *rtcp; /* CsRtcpRef */
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

  g_clear_pointer (&self->placing, g_ptr_array_unref);
  g_clear_pointer (&self->replaced, g_ptr_array_unref);
  g_clear_object (&self->call_list);
  g_clear_object (&self->stream_list);
  g_clear_object (&self->finding_list);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->rtcp, g_array_unref);
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_pointer (&self->calls, g_ptr_array_unref);
  g_mutex_clear (&self->calls_lock);
  g_ptr_array_unref (self->pending_snapshots);
  g_clear_error (&self->damage);
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
  self->pending_snapshots = g_ptr_array_new_with_free_func (g_object_unref);
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

guint
cs_analysis_stage_snapshots (CsAnalysis *self, const GPtrArray *calls)
{
  g_autoptr (GPtrArray) fresh = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_staged;

  for (guint i = 0; i < calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (calls, i);

      if (!cs_call_take_changed (call))
        continue;
      g_ptr_array_add (fresh, cs_call_snapshot (call));
    }
  n_staged = fresh->len;
  g_mutex_lock (&self->calls_lock);
  g_ptr_array_extend_and_steal (self->pending_snapshots, g_steal_pointer (&fresh));
  g_mutex_unlock (&self->calls_lock);
  return n_staged;
}

/* Replaced rows are announced in at most this many ranges per publish: a few
 * items-changed, whatever the number of calls that changed. */
#define CS_SNAPSHOT_MAX_RANGES 8

/* The latest copy of each call, by row: slots[i] is row first + i (NULL: unchanged).
 * Copies staged later (a later pass of the load thread) win. */
static GPtrArray *
cs_snapshots_by_row (GPtrArray *snapshots, guint *first)
{
  guint lo = G_MAXUINT, hi = 0;
  GPtrArray *slots;

  for (guint i = 0; i < snapshots->len; i++)
    {
      guint row = cs_call_get_number (g_ptr_array_index (snapshots, i)) - 1;

      lo = MIN (lo, row);
      hi = MAX (hi, row);
    }
  slots = g_ptr_array_new ();
  g_ptr_array_set_size (slots, hi - lo + 1);
  for (guint i = 0; i < snapshots->len; i++)
    {
      CsCall *snapshot = g_ptr_array_index (snapshots, i);

      slots->pdata[cs_call_get_number (snapshot) - 1 - lo] = snapshot;
    }
  *first = lo;
  return slots;
}

/* Ranges [start, end) of changed rows below `limit`; ranges closer than a growing gap are
 * joined (the rows between are replaced by themselves) until at most max are left. */
static GArray *
cs_snapshot_ranges (GPtrArray *slots, guint first, guint limit, guint max)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (guint) * 2);

  for (guint gap = 0;; gap = gap * 2 + 1)
    {
      g_array_set_size (ranges, 0);
      for (guint i = 0; i < slots->len && first + i < limit; i++)
        {
          guint row = first + i;
          guint *last
              = ranges->len > 0 ? &g_array_index (ranges, guint, 2 * (ranges->len - 1)) : NULL;

          if (slots->pdata[i] == NULL)
            continue;
          if (last != NULL && row - last[1] <= gap)
            last[1] = row + 1;
          else
            {
              guint range[2] = { row, row + 1 };

              g_array_append_val (ranges, range);
            }
        }
      if (ranges->len <= max)
        return ranges;
    }
}

/* Rows changed in one go, then a check of the time spent: a list view builds widgets for
 * the rows it keeps (a few hundred) inside items-changed, so a publish is cut into slices and
 * the rest waits for the next idle once the budget is spent. Slices double (rows no view
 * keeps cost little), so a publish stays a few items-changed. */
#define CS_PUBLISH_FIRST_SLICE_ROWS 16
#define CS_PUBLISH_BUDGET_US 8000

typedef struct
{
  guint start, end; /* rows */
  gboolean append;
} CsRowsChange;

/* Replaces or appends rows [start, end) from the slots (a replaced row without a copy is
 * replaced by itself). */
static void
cs_analysis_apply_rows (CsAnalysis *self, GPtrArray *slots, guint first, guint start, guint end,
                        gboolean append)
{
  GListModel *model = G_LIST_MODEL (self->call_list);
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint row = start; row < end; row++)
    {
      CsCall *snapshot = slots->pdata[row - first];

      g_ptr_array_add (rows, snapshot != NULL ? g_object_ref (snapshot)
                                              : g_list_model_get_item (model, row));
    }
  if (append)
    cs_call_list_append_many (self->call_list, (CsCall *const *) rows->pdata, rows->len);
  else
    cs_call_list_replace (self->call_list, start, (CsCall *const *) rows->pdata, rows->len);
}

/* The copies of the changes from change c, row on, not applied yet. */
static GPtrArray *
cs_snapshots_left (GArray *changes, guint c, guint row, GPtrArray *slots, guint first)
{
  GPtrArray *rest = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = c; i < changes->len; i++)
    {
      const CsRowsChange *change = &g_array_index (changes, CsRowsChange, i);

      for (guint r = i == c ? row : change->start; r < change->end; r++)
        if (slots->pdata[r - first] != NULL)
          g_ptr_array_add (rest, g_object_ref (slots->pdata[r - first]));
    }
  return rest;
}

/* While loading: the copies replace the rows of their calls, or add rows, in a few
 * items-changed (the list's filter and sort models see each one) and within the time
 * budget when budget_us > 0. Returns the copies not shown yet (NULL when all were). */
static GPtrArray *
cs_analysis_show_snapshots (CsAnalysis *self, GPtrArray *snapshots, gint64 budget_us)
{
  GListModel *model = G_LIST_MODEL (self->call_list);
  guint n_items = g_list_model_get_n_items (model);
  guint first, n_new = 0, slice;
  gint64 started = g_get_monotonic_time ();
  g_autoptr (GPtrArray) slots = NULL;
  g_autoptr (GArray) ranges = NULL;
  g_autoptr (GArray) changes = g_array_new (FALSE, FALSE, sizeof (CsRowsChange));

  if (snapshots->len == 0)
    return NULL;
  self->showing_snapshots = TRUE;
  slots = cs_snapshots_by_row (snapshots, &first);
  /* New calls first: they follow the last row without a hole (calls are numbered as found),
   * and cost little past the rows a view keeps; replacing kept rows costs most, and copies of
   * busy calls keep coming, so they must not hold the new rows back. */
  while (n_items + n_new >= first && n_items + n_new - first < slots->len
         && slots->pdata[n_items + n_new - first] != NULL)
    n_new++;
  if (n_new > 0)
    {
      CsRowsChange change = { n_items, n_items + n_new, TRUE };

      g_array_append_val (changes, change);
    }
  ranges = cs_snapshot_ranges (slots, first, n_items, CS_SNAPSHOT_MAX_RANGES);
  for (guint r = 0; r < ranges->len; r++)
    {
      CsRowsChange change = { g_array_index (ranges, guint, 2 * r),
                              g_array_index (ranges, guint, 2 * r + 1), FALSE };

      g_array_append_val (changes, change);
    }

  for (guint c = 0; c < changes->len; c++)
    {
      CsRowsChange *change = &g_array_index (changes, CsRowsChange, c);

      slice = CS_PUBLISH_FIRST_SLICE_ROWS; /* the rows of another range may be kept ones */
      for (guint row = change->start; row < change->end;)
        {
          guint end = row + MIN (slice, change->end - row);
          gint64 before = g_get_monotonic_time ();

          /* out of time: the copies from this row on are shown at the next idle */
          if (budget_us > 0 && before - started > budget_us)
            return cs_snapshots_left (changes, c, row, slots, first);
          cs_analysis_apply_rows (self, slots, first, row, end, change->append);
          slice = MIN (slice * 2, G_MAXUINT / 2);
          row = end;
        }
    }
  return NULL;
}

/* Takes the copies staged so far; NULL once the real calls are known (they win). */
static GPtrArray *
cs_analysis_steal_snapshots (CsAnalysis *self)
{
  GPtrArray *snapshots;

  g_mutex_lock (&self->calls_lock);
  snapshots = g_steal_pointer (&self->pending_snapshots);
  self->pending_snapshots = g_ptr_array_new_with_free_func (g_object_unref);
  if (self->calls->len > 0)
    g_clear_pointer (&snapshots, g_ptr_array_unref);
  g_mutex_unlock (&self->calls_lock);
  return snapshots;
}

#define CS_RELEASE_COPIES_PER_IDLE 4096

/* Drops the copies shown while loading, a few thousand per idle. */
static gboolean
cs_analysis_release_copies (gpointer data)
{
  GPtrArray *copies = data;
  guint n = MIN (copies->len, CS_RELEASE_COPIES_PER_IDLE);

  g_ptr_array_remove_range (copies, copies->len - n, n);
  if (copies->len > 0)
    return G_SOURCE_CONTINUE;
  g_ptr_array_unref (copies);
  return G_SOURCE_REMOVE;
}

static gboolean
cs_analysis_continue_publish (gpointer data)
{
  CsAnalysis *self = data;

  self->continue_id = 0;
  cs_analysis_publish_snapshots (self);
  return G_SOURCE_REMOVE;
}

void
cs_analysis_publish_snapshots (CsAnalysis *self)
{
  g_autoptr (GPtrArray) snapshots = cs_analysis_steal_snapshots (self);
  g_autoptr (GPtrArray) rest = NULL;

  /* items-changed is emitted outside the lock: handlers may call back in. */
  if (snapshots != NULL)
    rest = cs_analysis_show_snapshots (self, snapshots, CS_PUBLISH_BUDGET_US);
  if (rest == NULL)
    return;
  /* The rest goes before the copies staged meanwhile: those are newer and must win. */
  g_mutex_lock (&self->calls_lock);
  g_ptr_array_extend_and_steal (rest, g_steal_pointer (&self->pending_snapshots));
  self->pending_snapshots = g_steal_pointer (&rest);
  g_mutex_unlock (&self->calls_lock);
  /* after the frame that shows this slice; holds a reference until it runs */
  if (self->continue_id == 0)
    self->continue_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, cs_analysis_continue_publish,
                                         g_object_ref (self), g_object_unref);
}

static void
cs_analysis_set_published (CsAnalysis *self)
{
  if (self->published)
    return;
  self->published = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PUBLISHED]);
}

/* The real calls known so far, taken under the lock: the pointers only, as self->calls
 * only grows and keeps its calls as long as the analysis (a reference up and down on each
 * of S's 100 000 cold calls cost ~5 ms). */
static GPtrArray *
cs_analysis_dup_calls (CsAnalysis *self)
{
  GPtrArray *calls = g_ptr_array_new ();

  g_mutex_lock (&self->calls_lock);
  g_ptr_array_extend (calls, self->calls, NULL, NULL);
  g_mutex_unlock (&self->calls_lock);
  return calls;
}

void
cs_analysis_publish (CsAnalysis *self)
{
  guint published = g_list_model_get_n_items (G_LIST_MODEL (self->call_list));
  g_autoptr (GPtrArray) snapshots = cs_analysis_steal_snapshots (self);
  g_autoptr (GPtrArray) calls = NULL;

  /* Streams and findings first: whoever indexes them (the calls list's codec and findings
   * columns) has done so when the rows of the real calls bind. */
  cs_analysis_publish_store (self, self->stream_list, self->streams);
  cs_analysis_publish_store (self, self->finding_list, self->findings);
  /* items-changed is emitted outside the lock: handlers may call back in. */
  if (snapshots != NULL)
    {
      g_autoptr (GPtrArray) rest = cs_analysis_show_snapshots (self, snapshots, 0);
      cs_analysis_set_published (self);
      return;
    }
  calls = cs_analysis_dup_calls (self);
  if (self->showing_snapshots)
    {
      /* The load is complete: the real calls take the copies' places (one items-changed). */
      GPtrArray *copies = g_ptr_array_new_full (published, g_object_unref);

      published = MIN (published, calls->len);
      for (guint i = 0; i < published; i++)
        g_ptr_array_add (copies, g_list_model_get_item (G_LIST_MODEL (self->call_list), i));
      cs_call_list_replace (self->call_list, 0, (CsCall *const *) calls->pdata, published);
      self->showing_snapshots = FALSE;
      /* freeing tens of thousands of copies can wait until the window has drawn the rows */
      g_idle_add_full (G_PRIORITY_LOW, cs_analysis_release_copies, copies, NULL);
    }
  if (published < calls->len)
    cs_call_list_append_many (self->call_list, (CsCall *const *) calls->pdata + published,
                              calls->len - published);
  cs_analysis_set_published (self);
}

/* A sliced publish changes at most this many rows per items-changed: a list view rebuilds
 * the widgets of the rows it keeps that change (a millisecond or so each), and which rows it
 * keeps is not known here, so no slice may hold many of them. */
#define CS_PLACE_MAX_SLICE_ROWS 32
/* Each slice that reaches kept rows also costs a few ms whatever its size, and so does the
 * frame after it (10-20 ms): slices of 16 there (20-35 ms) make a dozen such frames instead of
 * 25 with 8 (main-thread CPU 0.7 s instead of 0.9 s to the end of a 20 000-call load). */
#define CS_PLACE_MIN_SLICE_ROWS 16
/* Slices that stay costly (the list got sorted meanwhile: each changes nearly every row shown)
 * would take minutes; past this time the rest go in at once. */
#define CS_PLACE_DEADLINE_US (3 * G_USEC_PER_SEC)

/* One idle of a sliced publish: slices of real calls replace the copies, then the calls not
 * shown yet are appended, until the budget is spent. */
static gboolean
cs_analysis_place_calls (gpointer data)
{
  CsAnalysis *self = data;
  GListModel *model = G_LIST_MODEL (self->call_list);
  gint64 started = g_get_monotonic_time ();

  while (self->placed < self->placing->len)
    {
      guint n_items = g_list_model_get_n_items (model);
      guint start = self->placed;
      gboolean append = start >= n_items;
      guint limit = append ? self->placing->len : MIN (n_items, self->placing->len);
      guint end = MIN (limit, start + self->placed_slice);
      CsCall *const *calls = (CsCall *const *) self->placing->pdata + start;
      gint64 before = g_get_monotonic_time (), spent;

      if (before - self->placing_since > CS_PLACE_DEADLINE_US)
        self->placed_slice = G_MAXUINT / 2;
      else if (before - started > CS_PUBLISH_BUDGET_US)
        return G_SOURCE_CONTINUE;
      if (append)
        cs_call_list_append_many (self->call_list, calls, end - start);
      else
        {
          for (guint row = start; row < end; row++)
            g_ptr_array_add (self->replaced, g_list_model_get_item (model, row));
          cs_call_list_replace (self->call_list, start, calls, end - start);
        }
      self->placed = end;
      /* rows no view keeps are cheap: slices grow while they are, shrink when not */
      spent = g_get_monotonic_time () - before;
      if (spent < CS_PUBLISH_BUDGET_US / 8)
        self->placed_slice = MIN (self->placed_slice * 2, CS_PLACE_MAX_SLICE_ROWS);
      else if (spent > 2 * CS_PUBLISH_BUDGET_US)
        self->placed_slice = MAX (self->placed_slice / 2, CS_PLACE_MIN_SLICE_ROWS);
    }
  self->continue_id = 0;
  self->showing_snapshots = FALSE;
  g_clear_pointer (&self->placing, g_ptr_array_unref);
  /* freeing tens of thousands of copies can wait until the window has drawn the rows */
  g_idle_add_full (G_PRIORITY_LOW, cs_analysis_release_copies, g_steal_pointer (&self->replaced),
                   NULL);
  cs_analysis_set_published (self);
  return G_SOURCE_REMOVE;
}

void
cs_analysis_publish_in_slices (CsAnalysis *self)
{
  g_autoptr (GPtrArray) calls = NULL;

  g_return_if_fail (self->placing == NULL && !self->published);
  calls = cs_analysis_dup_calls (self);
  /* nothing to slice: no real calls (copies only), or none shown */
  if (calls->len == 0)
    {
      cs_analysis_publish (self);
      return;
    }
  /* the copies left over by a publish while loading are not worth showing any more */
  g_clear_handle_id (&self->continue_id, g_source_remove);
  cs_analysis_publish_store (self, self->stream_list, self->streams);
  cs_analysis_publish_store (self, self->finding_list, self->findings);
  self->placing = g_steal_pointer (&calls);
  self->placed = 0;
  self->placed_slice = CS_PUBLISH_FIRST_SLICE_ROWS;
  self->placing_since = g_get_monotonic_time ();
  self->replaced = g_ptr_array_new_with_free_func (g_object_unref);
  /* after this dispatch (the streams and findings indexed), a budget per idle */
  self->continue_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, cs_analysis_place_calls,
                                       g_object_ref (self), g_object_unref);
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

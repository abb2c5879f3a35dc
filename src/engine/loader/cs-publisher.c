/* cs-publisher.c — the GUI's pace for a load's calls: copies of the calls found so far,
 * staged on the load thread a few times a second and shown from idles within a time budget,
 * then the real calls in their places, at once or in slices */
#include "cs-publisher-private.h"

#include "cs-analysis-private.h"
#include "cs-loader-private.h"
#include "calls/cs-call-loading.h"

/* Copies of the calls a window sees while loading: at most this often. */
#define CS_STAGE_INTERVAL_US (G_USEC_PER_SEC / 5)

struct _CsPublisher
{
  GObject parent_instance;
  GMainContext *context; /* where its idles run */
  gboolean in_slices;

  /* shared by the load thread (staging) and the main context (showing) */
  GMutex lock;
  CsAnalysis *analysis;  /* the one being loaded; a reference */
  GPtrArray *pending;    /* CsCall* copies staged, not yet shown */
  gboolean show_queued;  /* an idle will show them */
  gint64 last_staged_us; /* load thread only */

  /* main context only */
  gboolean showing_copies; /* the calls model holds copies */
  guint continue_id;       /* idle showing the copies left over by a show, or placing calls */
  GPtrArray *placing;      /* the real calls a sliced publish is placing */
  guint placed;            /* rows of `placing` in the model */
  guint placed_slice;      /* rows of the next slice */
  gint64 placing_since;    /* monotonic time the sliced publish began */
  GPtrArray *replaced;     /* the copies the real calls replaced so far */
};

G_DEFINE_FINAL_TYPE (CsPublisher, cs_publisher, G_TYPE_OBJECT)

static void
cs_publisher_finalize (GObject *object)
{
  CsPublisher *self = CS_PUBLISHER (object);

  g_clear_pointer (&self->placing, g_ptr_array_unref);
  g_clear_pointer (&self->replaced, g_ptr_array_unref);
  g_ptr_array_unref (self->pending);
  g_clear_object (&self->analysis);
  g_mutex_clear (&self->lock);
  g_main_context_unref (self->context);
  G_OBJECT_CLASS (cs_publisher_parent_class)->finalize (object);
}

static void
cs_publisher_class_init (CsPublisherClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_publisher_finalize;
}

static void
cs_publisher_init (CsPublisher *self)
{
  g_mutex_init (&self->lock);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->context = g_main_context_ref_thread_default ();
}

CsPublisher *
cs_publisher_new (void)
{
  return g_object_new (CS_TYPE_PUBLISHER, NULL);
}

void
cs_publisher_set_in_slices (CsPublisher *self, gboolean in_slices)
{
  g_return_if_fail (CS_IS_PUBLISHER (self));
  self->in_slices = in_slices;
}

/* An idle on the publisher's context; returns its id. */
static guint
cs_publisher_idle (CsPublisher *self, int priority, GSourceFunc func, gpointer data,
                   GDestroyNotify destroy)
{
  GSource *source = g_idle_source_new ();
  guint id;

  g_source_set_priority (source, priority);
  g_source_set_callback (source, func, data, destroy);
  id = g_source_attach (source, self->context);
  g_source_unref (source);
  return id;
}

/* The calls model of the analysis shown. */
static CsCallList *
cs_publisher_list (CsAnalysis *analysis)
{
  return CS_CALL_LIST (cs_analysis_get_calls (analysis));
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
cs_publisher_apply_rows (CsCallList *list, GPtrArray *slots, guint first, guint start, guint end,
                         gboolean append)
{
  GListModel *model = G_LIST_MODEL (list);
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint row = start; row < end; row++)
    {
      CsCall *snapshot = slots->pdata[row - first];

      g_ptr_array_add (rows, snapshot != NULL ? g_object_ref (snapshot)
                                              : g_list_model_get_item (model, row));
    }
  if (append)
    cs_call_list_append_many (list, (CsCall *const *) rows->pdata, rows->len);
  else
    cs_call_list_replace (list, start, (CsCall *const *) rows->pdata, rows->len);
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
cs_publisher_show_copies (CsPublisher *self, CsCallList *list, GPtrArray *snapshots,
                          gint64 budget_us)
{
  GListModel *model = G_LIST_MODEL (list);
  guint n_items = g_list_model_get_n_items (model);
  guint first, n_new = 0, slice;
  gint64 started = g_get_monotonic_time ();
  g_autoptr (GPtrArray) slots = NULL;
  g_autoptr (GArray) ranges = NULL;
  g_autoptr (GArray) changes = g_array_new (FALSE, FALSE, sizeof (CsRowsChange));

  if (snapshots->len == 0)
    return NULL;
  self->showing_copies = TRUE;
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
          cs_publisher_apply_rows (list, slots, first, row, end, change->append);
          slice = MIN (slice * 2, G_MAXUINT / 2);
          row = end;
        }
    }
  return NULL;
}

/* The copies staged so far and the analysis they are for; no copies once the real calls
 * are known (they win). */
static GPtrArray *
cs_publisher_steal_pending (CsPublisher *self, CsAnalysis **analysis)
{
  GPtrArray *pending;

  g_mutex_lock (&self->lock);
  pending = g_steal_pointer (&self->pending);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->show_queued = FALSE;
  *analysis = self->analysis != NULL ? g_object_ref (self->analysis) : NULL;
  g_mutex_unlock (&self->lock);
  if (*analysis == NULL || cs_analysis_has_calls (*analysis))
    g_clear_pointer (&pending, g_ptr_array_unref);
  return pending;
}

static gboolean
cs_publisher_show_idle (gpointer data)
{
  cs_publisher_show_staged (data);
  return G_SOURCE_REMOVE;
}

/* An idle on the publisher's context showing what is staged (one at a time); it holds a
 * reference until it runs. */
static void
cs_publisher_queue_show (CsPublisher *self)
{
  cs_publisher_idle (self, G_PRIORITY_DEFAULT_IDLE, cs_publisher_show_idle, g_object_ref (self),
                     g_object_unref);
}

guint
cs_publisher_stage (CsPublisher *self, CsAnalysis *analysis, const GPtrArray *calls)
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
  g_mutex_lock (&self->lock);
  if (self->analysis != analysis)
    {
      /* a new load: what was staged for the last one is not worth showing */
      g_set_object (&self->analysis, analysis);
      g_ptr_array_set_size (self->pending, 0);
    }
  g_ptr_array_extend_and_steal (self->pending, g_steal_pointer (&fresh));
  /* new rows are worth showing now */
  if (n_staged > 0 && !self->show_queued)
    {
      self->show_queued = TRUE;
      cs_publisher_queue_show (self);
    }
  g_mutex_unlock (&self->lock);
  return n_staged;
}

/* The loader's watch (load thread): copies a few times a second, and once more before the
 * calls are finished (finishing, streams and findings take a while yet). */
static void
cs_publisher_calls_found (gpointer data, CsAnalysis *analysis, const GPtrArray *calls,
                          gboolean last)
{
  CsPublisher *self = data;
  gint64 now = g_get_monotonic_time ();

  if (!last && now - self->last_staged_us < CS_STAGE_INTERVAL_US)
    return;
  self->last_staged_us = now;
  cs_publisher_stage (self, analysis, calls);
}

#define CS_RELEASE_COPIES_PER_IDLE 4096

/* Drops the copies shown while loading, a few thousand per idle. */
static gboolean
cs_publisher_release_copies (gpointer data)
{
  GPtrArray *copies = data;
  guint n = MIN (copies->len, CS_RELEASE_COPIES_PER_IDLE);

  g_ptr_array_remove_range (copies, copies->len - n, n);
  if (copies->len > 0)
    return G_SOURCE_CONTINUE;
  g_ptr_array_unref (copies);
  return G_SOURCE_REMOVE;
}

/* Freeing tens of thousands of copies can wait until the window has drawn the rows. */
static void
cs_publisher_release_later (CsPublisher *self, GPtrArray *copies)
{
  cs_publisher_idle (self, G_PRIORITY_LOW, cs_publisher_release_copies, copies, NULL);
}

static gboolean
cs_publisher_continue_show (gpointer data)
{
  CsPublisher *self = data;

  self->continue_id = 0;
  cs_publisher_show_staged (self);
  return G_SOURCE_REMOVE;
}

void
cs_publisher_show_staged (CsPublisher *self)
{
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GPtrArray) snapshots = cs_publisher_steal_pending (self, &analysis);
  g_autoptr (GPtrArray) rest = NULL;

  /* items-changed is emitted outside the lock: handlers may call back in. */
  if (snapshots != NULL)
    rest = cs_publisher_show_copies (self, cs_publisher_list (analysis), snapshots,
                                     CS_PUBLISH_BUDGET_US);
  if (rest == NULL)
    return;
  /* The rest goes before the copies staged meanwhile: those are newer and must win. */
  g_mutex_lock (&self->lock);
  g_ptr_array_extend_and_steal (rest, g_steal_pointer (&self->pending));
  self->pending = g_steal_pointer (&rest);
  g_mutex_unlock (&self->lock);
  /* after the frame that shows this slice; holds a reference until it runs */
  if (self->continue_id == 0)
    self->continue_id
        = cs_publisher_idle (self, G_PRIORITY_DEFAULT_IDLE, cs_publisher_continue_show,
                             g_object_ref (self), g_object_unref);
}

/* The load is complete: the real calls take the copies' places (one items-changed), then the
 * calls not shown yet follow. */
static void
cs_publisher_publish_now (CsPublisher *self, CsAnalysis *analysis)
{
  CsCallList *list = cs_publisher_list (analysis);
  guint published = g_list_model_get_n_items (G_LIST_MODEL (list));
  g_autoptr (GPtrArray) calls = NULL;
  GPtrArray *copies;

  if (!self->showing_copies)
    {
      cs_analysis_publish (analysis);
      return;
    }
  cs_analysis_publish_results (analysis);
  calls = cs_analysis_dup_calls (analysis);
  copies = g_ptr_array_new_full (published, g_object_unref);
  published = MIN (published, calls->len);
  for (guint i = 0; i < published; i++)
    g_ptr_array_add (copies, g_list_model_get_item (G_LIST_MODEL (list), i));
  cs_call_list_replace (list, 0, (CsCall *const *) calls->pdata, published);
  self->showing_copies = FALSE;
  cs_publisher_release_later (self, copies);
  if (published < calls->len)
    cs_call_list_append_many (list, (CsCall *const *) calls->pdata + published,
                              calls->len - published);
  cs_analysis_set_published (analysis);
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
cs_publisher_place_calls (gpointer data)
{
  CsPublisher *self = data;
  CsAnalysis *analysis = self->analysis;
  CsCallList *list = cs_publisher_list (analysis);
  GListModel *model = G_LIST_MODEL (list);
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
        cs_call_list_append_many (list, calls, end - start);
      else
        {
          for (guint row = start; row < end; row++)
            g_ptr_array_add (self->replaced, g_list_model_get_item (model, row));
          cs_call_list_replace (list, start, calls, end - start);
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
  self->showing_copies = FALSE;
  g_clear_pointer (&self->placing, g_ptr_array_unref);
  cs_publisher_release_later (self, g_steal_pointer (&self->replaced));
  cs_analysis_set_published (analysis);
  return G_SOURCE_REMOVE;
}

static void
cs_publisher_publish_in_slices (CsPublisher *self, CsAnalysis *analysis)
{
  g_autoptr (GPtrArray) calls = NULL;

  g_return_if_fail (self->placing == NULL && !cs_analysis_get_published (analysis));
  calls = cs_analysis_dup_calls (analysis);
  /* nothing to slice: no real calls */
  if (calls->len == 0)
    {
      cs_publisher_publish_now (self, analysis);
      return;
    }
  cs_analysis_publish_results (analysis);
  self->placing = g_steal_pointer (&calls);
  self->placed = 0;
  self->placed_slice = CS_PUBLISH_FIRST_SLICE_ROWS;
  self->placing_since = g_get_monotonic_time ();
  self->replaced = g_ptr_array_new_with_free_func (g_object_unref);
  /* after this dispatch (the streams and findings indexed), a budget per idle */
  self->continue_id = cs_publisher_idle (self, G_PRIORITY_DEFAULT_IDLE, cs_publisher_place_calls,
                                         g_object_ref (self), g_object_unref);
}

void
cs_publisher_publish (CsPublisher *self, CsAnalysis *analysis)
{
  g_return_if_fail (CS_IS_PUBLISHER (self) && CS_IS_ANALYSIS (analysis));
  /* the copies left over by a show while loading are not worth showing any more */
  if (self->continue_id != 0)
    {
      GSource *source = g_main_context_find_source_by_id (self->context, self->continue_id);

      if (source != NULL)
        g_source_destroy (source);
      self->continue_id = 0;
    }
  g_mutex_lock (&self->lock);
  g_set_object (&self->analysis, analysis);
  g_ptr_array_set_size (self->pending, 0);
  g_mutex_unlock (&self->lock);
  if (self->in_slices)
    cs_publisher_publish_in_slices (self, analysis);
  else
    cs_publisher_publish_now (self, analysis);
}

static void
cs_publisher_publish_watched (gpointer data, CsAnalysis *analysis)
{
  cs_publisher_publish (data, analysis);
}

void
cs_publisher_attach (CsPublisher *self, CsLoader *loader)
{
  static const CsLoaderWatch watch = { cs_publisher_calls_found, cs_publisher_publish_watched };

  g_return_if_fail (CS_IS_PUBLISHER (self) && CS_IS_LOADER (loader));
  cs_loader_set_watch (loader, &watch, g_object_ref (self), g_object_unref);
}

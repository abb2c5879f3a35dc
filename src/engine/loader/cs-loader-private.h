/* cs-loader-private.h — what the loader object (cs-loader.c) and its decode pipeline
 * (cs-loader-pipeline.c) share */
#pragma once

#include "cs-loader.h"
#include "cs-merge.h"

G_BEGIN_DECLS

/* What watches a background load besides its progress (a window's publisher,
 * cs-publisher.c): told of the calls found so far after each merged chunk and once more, with
 * last, before they are finished (load thread); handed the analysis by load_finish, which then
 * publishes nothing itself (main context). */
typedef struct
{
  void (*calls_found) (gpointer data, CsAnalysis *analysis, const GPtrArray *calls, gboolean last);
  void (*publish) (gpointer data, CsAnalysis *analysis);
} CsLoaderWatch;

/* Replaces the watch (data is freed with destroy when replaced or with the loader). */
void cs_loader_set_watch (CsLoader *self, const CsLoaderWatch *watch, gpointer data,
                          GDestroyNotify destroy);

struct _CsLoader
{
  GObject parent_instance;
  guint n_threads;
  guint chunk_frames; /* 0: the default chunk sizes */
  CsLimits limits;
  char *filter;
  GArray *srtp_keys;          /* CsSrtpUserKey given by the user, or NULL */
  CsTlsKeylog *keylog;        /* TLS secrets given by the user, or NULL */
  gboolean points;            /* several files are capture points */
  const CsLoaderWatch *watch; /* or NULL */
  gpointer watch_data;
  GDestroyNotify watch_destroy;

  /* Progress, written by the load thread, read on the main context. */
  GMutex lock;
  double fraction;
  guint64 packets;
  double packets_per_second;
  char *message;
  gboolean notify_pending;
  GMainContext *context;
  gint64 started_us;
  gint64 last_report_us;

  CsAnalysis *analysis;
};

/* Progress for the main context (rate-limited unless force); CALLSCOPE_PROFILE phases. */
void cs_loader_report (CsLoader *self, double fraction, guint64 packets, const char *message,
                       gboolean force);
void cs_loader_profile (const char *phase);

/* The parallel map, pipelined with the index walk: the walk plans chunks, workers decode
 * them, the walking thread merges them in order. */
typedef struct
{
  CsLoader *loader;
  CsCaptureSet *set;
  CsAnalysis *analysis;
  GCancellable *cancellable;
  CsMerge *merge;
  CsSipShare *sip_share; /* a one-file load: strings shared between the messages of a call */
  GAsyncQueue *todo;     /* CsChunk* to decode; the pipeline itself is the stop sentinel */
  GAsyncQueue *spent;    /* CsChunk* merged: the workers free them between decodes */
  GThread **workers;
  guint n_workers;
  GMutex lock; /* guards CsChunk.decoded */
  GCond cond;
  GPtrArray *chunks; /* planned, in capture order; merged ones are NULL */
  guint n_merged;
  guint32 planned_frames;
  guint64 merged_frames;
  guint64 indexed_bytes; /* of index_bytes, as the walk last told */
  guint64 index_bytes;
  gboolean indexing;              /* progress: the index is still running */
  gboolean can_pipeline;          /* no filter: frames can be decoded before the index ends */
  gboolean may_keep_walked_pages; /* one worker or a small capture (see the header) */
  gboolean keeps_walked_pages;    /* and the frames seen so far are small */
  double index_share;             /* part of the progress bar the index walk stands for */
  double index_fraction;
} CsPipeline;

/* Frames in the next chunk after n_planned chunks, with about frames_left still to plan:
 * a ramp up from a small first chunk, 32768 in the middle, a geometric shrink at the end. */
guint32 cs_pipeline_chunk_frames (guint n_planned, guint64 frames_left, guint n_workers);

/* Starts the workers; can_pipeline (no filter) lets chunks decode while the walk runs. */
void cs_pipeline_start (CsPipeline *p, CsLoader *self, CsAnalysis *analysis,
                        GCancellable *cancellable, gboolean can_pipeline);
/* The index walk's progress callback (user_data: the pipeline). */
void cs_pipeline_index_progress (guint64 done, guint64 total, gpointer user_data);
/* After the index: decodes and merges the rest, then (when analyse) measures and
 * judges. Always called once the pipeline started: it stops the workers. */
void cs_pipeline_finish (CsPipeline *p, gboolean analyse);

G_END_DECLS

/* ps-run-analysis.c — the series of a loaded run, computed off the main thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ps-run-analysis.h"
#include "ps-counter-changes.h"
#include "ps-format.h"
#include "ps-task-util.h"

G_DEFINE_BOXED_TYPE (PsRunAnalysis, ps_run_analysis, ps_run_analysis_ref, ps_run_analysis_unref)

static void
ps_run_analysis_clear (gpointer data)
{
  PsRunAnalysis *self = data;

  g_clear_pointer (&self->members, g_hash_table_unref);
  g_mutex_clear (&self->members_lock);
  g_clear_object (&self->store);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->scopes, ps_scope_analysis_unref);
  g_clear_object (&self->call_tree);
  g_clear_pointer (&self->changes, g_hash_table_unref);
}

static PsRunAnalysis *
run_analysis_alloc (PsEventStore *store)
{
  PsRunAnalysis *self = g_rc_box_new0 (PsRunAnalysis);

  self->store = g_object_ref (store);
  g_mutex_init (&self->members_lock);
  return self;
}

/* What the series of the analysis are collected with, but for the
 * cancellable */
static void
series_options_init (PsRunAnalysis   *self,
                     PsSeriesOptions *options)
{
  memset (options, 0, sizeof *options);
  /* The tables show statistics of durations; only CPU and memory are drawn */
  options->durations_summary_only = TRUE;
  options->has_index_range = self->has_range;
  options->index_first = self->first;
  options->index_last = self->last;
}

/* The changes of the levels the CE view charts, found here rather than
 * on the main thread when the view fills: a log of 1 GiB has hundreds of
 * thousands of readings a series */
static void
find_changes (PsRunAnalysis *self)
{
  PsChangePointOptions options;

  ps_change_point_options_init (&options);
  self->changes = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_array_unref);
  for (guint i = 0; i < self->groups->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (self->groups, i);

      /* Sequence numbers are far below G_MAXINT64 */
      if ((series->kind == PS_SERIES_CPU || series->kind == PS_SERIES_MEMORY) && series->indexes != NULL)
        g_hash_table_insert (self->changes, (gpointer)series,
                             ps_counter_changes_find_in_points ((const gint64 *)(gpointer)series->indexes->data,
                                                                (const double *)(gpointer)series->values->data,
                                                                series->values->len, &options));
    }
}

/* The call tree of a store's calls: from its spans, or as a profiler
 * report gives them; NULL when it has none or when cancelled */
typedef struct
{
  PsEventStore *store;
  GCancellable *cancellable;
  PsCallTree   *tree;
} CallTreeJob;

static gpointer
call_tree_job_run (gpointer data)
{
  CallTreeJob *job = data;
  g_autoptr(GError) error = NULL;
  PsCallTreeOptions tree_options = { PS_NONE, NULL, 0 };

  tree_options.cancellable = job->cancellable;
  job->tree = ps_call_tree_new_for_store (job->store, &tree_options, &error);
  if (job->tree == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("No call tree: %s", error->message);
  return NULL;
}

/* Spans from which the call tree is built beside the scope analysis, in
 * a thread of its own: each walks every span once, and a log of a
 * million scopes took the sum of the two */
#define CALL_TREE_THREAD_MIN_SPANS 65536

/* Runs in any thread: the store is not changed once loaded. */
/* NULL when cancelled between two of its parts */
static PsRunAnalysis *
run_analysis_new (PsEventStore *store,
                  GCancellable *cancellable)
{
  g_autoptr(PsRunAnalysis) self = NULL;
  PsSeriesOptions options = { 0 };
  CallTreeJob call_tree_job = { store, cancellable, NULL };
  GThread *call_tree_thread = NULL;
  gboolean has_scopes;
  /* A sampled run's spans are the lifetimes of its processes: its view
   * builds the tree of the samples it shows, one event at a time
   * (ps-profile-view-build.c), and a tree of all of them would take
   * seconds and hundreds of MiB for nothing */
  gboolean sampled = ps_event_store_get_n_samples (store) > 0 && ps_event_store_get_n_report_rows (store) == 0;
  /* Calls with the four instrumentation values: from the spans, or as a
   * profiler report gives them */
  gboolean has_calls = !sampled && (ps_event_store_get_n_spans (store) > 0
                                    || ps_event_store_get_n_report_rows (store) > 0);

  self = run_analysis_alloc (store);

  if (has_calls && ps_event_store_get_n_spans (store) >= CALL_TREE_THREAD_MIN_SPANS)
    call_tree_thread = g_thread_new ("perfscope-calls", call_tree_job_run, &call_tree_job);
  else if (has_calls)
    call_tree_job_run (&call_tree_job);

  /* Scopes and messages (RTL logs): the measurement series would only
   * repeat the span series of the scope analysis */
  has_scopes = g_strcmp0 (ps_event_store_get_format (store), ps_format_rtl_logfile.name) == 0
               || ps_event_store_get_n_spans (store) > 0 || ps_event_store_get_n_marks (store) > 0;
  if (has_scopes)
    self->scopes = ps_scope_analysis_new_cancellable (store, NULL, cancellable);

  if (call_tree_thread != NULL)
    g_thread_join (call_tree_thread);
  self->call_tree = call_tree_job.tree;
  if ((has_scopes && self->scopes == NULL) || g_cancellable_is_cancelled (cancellable))
    return NULL;

  if (self->scopes != NULL && ps_event_store_get_n_measurements (store) == 0)
    self->groups = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_series_free);
  else
    {
      g_autoptr(PsSeriesPoints) points = NULL;

      series_options_init (self, &options);
      options.group_by_name = TRUE;
      options.cancellable = cancellable;
      /* A CE run's timeline charts every measurement (its charts are over
       * their sequence): the statistics come from the same points, made
       * once for both, rather than from a copy of every duration */
      if (ps_series_points_suit (store))
        {
          points = ps_series_points_get_shared (store, cancellable);
          if (points == NULL)
            return NULL;
          options.points = points;
        }
      self->groups = ps_series_collect (store, &options);
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
    }

  find_changes (self);

  return g_steal_pointer (&self);
}

PsRunAnalysis *
ps_run_analysis_new (PsEventStore *store)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  return run_analysis_new (store, NULL);
}

PsRunAnalysis *
ps_run_analysis_new_for_range (PsEventStore *store,
                               guint64       first,
                               guint64       last)
{
  PsRunAnalysis *self;
  PsSeriesOptions options;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = run_analysis_alloc (store);
  self->has_range = TRUE;
  self->first = first;
  self->last = last;
  series_options_init (self, &options);
  options.group_by_name = TRUE;
  self->groups = ps_series_collect (store, &options);
  find_changes (self);
  return self;
}

GArray *
ps_run_analysis_get_changes (PsRunAnalysis  *self,
                             const PsSeries *group)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->changes != NULL ? g_hash_table_lookup (self->changes, group) : NULL;
}

PsRunAnalysis *
ps_run_analysis_ref (PsRunAnalysis *self)
{
  return g_rc_box_acquire (self);
}

void
ps_run_analysis_unref (PsRunAnalysis *self)
{
  g_rc_box_release_full (self, ps_run_analysis_clear);
}

gboolean
ps_run_analysis_set (PsRunAnalysis **slot,
                     PsRunAnalysis  *analysis)
{
  g_return_val_if_fail (slot != NULL, FALSE);

  if (*slot == analysis)
    return FALSE;

  g_clear_pointer (slot, ps_run_analysis_unref);
  if (analysis != NULL)
    *slot = ps_run_analysis_ref (analysis);
  return TRUE;
}

typedef struct
{
  PsEventStore *store;
  gboolean      has_range;
  guint64       first;
  guint64       last;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_clear_object (&data->store);
  g_free (data);
}

static gpointer
compute_analysis (gpointer      data,
                  GCancellable *cancellable)
{
  ComputeData *compute = data;

  return compute->has_range ? ps_run_analysis_new_for_range (compute->store, compute->first, compute->last)
                            : run_analysis_new (compute->store, cancellable);
}

static const PsComputation analysis_computation = {
  .source_tag = ps_run_analysis_compute_async,
  .compute = compute_analysis,
  .data_free = (GDestroyNotify)compute_data_free,
  .result_free = (GDestroyNotify)ps_run_analysis_unref,
};

static void
start_compute (PsEventStore        *store,
               gboolean             has_range,
               guint64              first,
               guint64              last,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  ComputeData *compute = g_new0 (ComputeData, 1);

  compute->store = g_object_ref (store);
  compute->has_range = has_range;
  compute->first = first;
  compute->last = last;
  ps_task_compute_in_thread (&analysis_computation, compute, cancellable, callback, user_data);
}

void
ps_run_analysis_compute_range_async (PsEventStore        *store,
                                     guint64              first,
                                     guint64              last,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (PS_IS_EVENT_STORE (store));

  start_compute (store, TRUE, first, last, cancellable, callback, user_data);
}

void
ps_run_analysis_compute_async (PsEventStore        *store,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (PS_IS_EVENT_STORE (store));

  start_compute (store, FALSE, 0, 0, cancellable, callback, user_data);
}

PsRunAnalysis *
ps_run_analysis_compute_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

GPtrArray *
ps_run_analysis_get_members (PsRunAnalysis  *self,
                             const PsSeries *group)
{
  g_autoptr(GMutexLocker) locker = NULL;
  GPtrArray *members;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (group != NULL, NULL);

  locker = g_mutex_locker_new (&self->members_lock);
  if (self->members == NULL)
    self->members = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_ptr_array_unref);
  members = g_hash_table_lookup (self->members, group);
  if (members == NULL)
    {
      PsSeriesOptions options;

      series_options_init (self, &options);
      members = ps_series_collect_members (self->store, &options, group);
      g_hash_table_insert (self->members, (gpointer)group, members);
    }
  return members;
}

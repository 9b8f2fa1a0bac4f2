/* ps-counter-change-finder.c — the change points of counters, found in a
 * worker for the charts
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Finding the changes of a counter costs milliseconds among the at most
 * PS_COUNTER_OVERVIEW_BUCKETS means of its overview, and a run can have
 * hundreds of counters checked: a worker finds them, and the charts mark
 * them when they are there. The overviews are copied first, on the
 * thread that owns the store.
 */
#include "config.h"

#include "ps-counter-change-finder.h"
#include "ps-task-util.h"

typedef struct
{
  GArray *overviews;  /* PsCounterOverview, whose buckets are copies */
} FindData;

static void
find_data_free (gpointer data)
{
  FindData *find = data;

  for (guint i = 0; i < find->overviews->len; i++)
    g_free ((gpointer)g_array_index (find->overviews, PsCounterOverview, i).buckets);
  g_array_unref (find->overviews);
  g_free (find);
}

static void
find_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  FindData *find = task_data;
  g_autoptr(GPtrArray) changes = g_ptr_array_new_full (find->overviews->len, (GDestroyNotify)g_array_unref);
  PsChangePointOptions options;

  ps_change_point_options_init (&options);
  for (guint i = 0; i < find->overviews->len; i++)
    {
      const PsCounterOverview *overview = &g_array_index (find->overviews, PsCounterOverview, i);

      if (g_task_return_error_if_cancelled (task))
        return;
      g_ptr_array_add (changes, overview->n_buckets > 0 ? ps_counter_changes_find (overview, &options) : NULL);
    }
  g_task_return_pointer (task, g_steal_pointer (&changes), (GDestroyNotify)g_ptr_array_unref);
}

void
ps_counter_changes_find_async (PsEventStore       *store,
                               const guint32      *tracks,
                               guint               n_tracks,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  FindData *find;

  g_return_if_fail (PS_IS_EVENT_STORE (store));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ps_counter_changes_find_async);
  find = g_new0 (FindData, 1);
  find->overviews = g_array_sized_new (FALSE, TRUE, sizeof (PsCounterOverview), n_tracks);
  for (guint i = 0; i < n_tracks; i++)
    {
      PsCounterOverview overview = { 0 };

      if (ps_event_store_get_counter_overview (store, tracks[i], &overview))
        overview.buckets = g_memdup2 (overview.buckets, overview.n_buckets * sizeof (PsCounterBucket));
      else
        overview = (PsCounterOverview) { 0 };
      g_array_append_val (find->overviews, overview);
    }
  g_task_set_task_data (task, find, find_data_free);
  ps_task_run_in_background (task, find_thread);
}

GPtrArray *
ps_counter_changes_find_finish (GAsyncResult *result,
                                GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The chart is held weakly: one closed before its changes are found is
 * not kept for them */
typedef struct
{
  GWeakRef chart;
  guint    n_series;
} ChartQuestion;

static void
chart_found_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  ChartQuestion *question = user_data;
  g_autoptr(PsCounterChart) chart = g_weak_ref_get (&question->chart);
  g_autoptr(GPtrArray) changes = ps_counter_changes_find_finish (result, NULL);

  if (chart != NULL && changes != NULL && ps_counter_chart_get_n_series (chart) == question->n_series)
    for (guint i = 0; i < changes->len; i++)
      ps_counter_chart_set_series_changes (chart, i, g_ptr_array_index (changes, i));
  g_weak_ref_clear (&question->chart);
  g_free (question);
}

static void
cancel_and_unref (gpointer data)
{
  g_cancellable_cancel (data);
  g_object_unref (data);
}

void
ps_counter_chart_find_changes (PsCounterChart *chart,
                               PsEventStore   *store,
                               const guint32  *tracks,
                               guint           n_tracks)
{
  GCancellable *cancellable = g_cancellable_new ();
  ChartQuestion *question = g_new0 (ChartQuestion, 1);

  g_return_if_fail (PS_IS_COUNTER_CHART (chart));

  g_weak_ref_init (&question->chart, chart);
  question->n_series = ps_counter_chart_get_n_series (chart);
  /* The question before is cancelled as this one replaces it, and this
   * one as the chart goes */
  g_object_set_data_full (G_OBJECT (chart), "ps-change-finder", g_object_ref (cancellable), cancel_and_unref);
  ps_counter_changes_find_async (store, tracks, MIN (n_tracks, question->n_series), cancellable, chart_found_cb,
                                 question);
  g_object_unref (cancellable);
}

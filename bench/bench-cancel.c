/* bench-cancel.c — how soon a load, and the analysis the window runs
 * after it, answer a cancellation
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-cancel FILE [N]: loads FILE once to time it, then N times more,
 * cancelling each at another point of the load (1/(N+1), 2/(N+1), … of
 * its time), and prints the time from g_cancellable_cancel () to the
 * callback, and to when the worker thread stopped working (the process
 * uses no more CPU: less than 2 ms of it in 20 ms); then the same for the
 * run analysis of the loaded run (the series, scopes and call tree every
 * run page computes), and for the comparison of the run with itself (the
 * rows, series and significance tests of a comparison page). Issue 12
 * ("Resource limits"): within 100 ms.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "ps-loader.h"
#include "ps-run-analysis.h"
#include "ps-run-diff.h"

typedef enum
{
  WORK_LOAD,
  WORK_ANALYSIS,
  WORK_COMPARISON,
} Work;

typedef struct
{
  GMainLoop    *loop;
  GCancellable *cancellable;
  gint64        cancelled_at;   /* monotonic µs, 0 if not cancelled */
  gint64        done_at;
  gboolean      was_cancelled;
  PsEventStore *store;
  PsRunAnalysis *analysis;
} Run;

/* When a load or analysis answered; an error other than cancelled ends
 * the benchmark */
static void
finished (Run    *run,
          GError *error)
{
  run->done_at = g_get_monotonic_time ();
  run->was_cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  if (error != NULL && !run->was_cancelled)
    {
      fprintf (stderr, "bench-cancel: %s\n", error->message);
      exit (1);
    }
  g_main_loop_quit (run->loop);
}

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;

  run->store = ps_loader_load_finish (PS_LOADER (source), result, &error);
  finished (run, error);
}

static void
analysis_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;

  run->analysis = ps_run_analysis_compute_finish (result, &error);
  finished (run, error);
}

static void
diff_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  PsEventStore *store = task_data;
  PsRunDiffOptions options;
  PsRunDiff *diff;

  ps_run_diff_options_init (&options);
  options.cancellable = cancellable;
  diff = ps_run_diff_new (store, store, &options);
  if (diff == NULL)
    g_task_return_error_if_cancelled (task);
  else
    g_task_return_pointer (task, diff, (GDestroyNotify)ps_run_diff_free);
}

static void
diff_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;

  ps_run_diff_free (g_task_propagate_pointer (G_TASK (result), &error));
  finished (run, error);
}

static gboolean
cancel_cb (gpointer user_data)
{
  Run *run = user_data;

  run->cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (run->cancellable);
  return G_SOURCE_REMOVE;
}

static double
cpu_ms (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3
         + usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3;
}

/* Milliseconds from since (monotonic µs) until the process is idle */
static double
wait_idle (gint64 since)
{
  for (;;)
    {
      double before = cpu_ms ();

      g_usleep (20000);
      if (cpu_ms () - before < 2)
        return (g_get_monotonic_time () - 20000 - since) / 1000.0;
    }
}

/* One load or analysis, cancelled after_ms (< 0: not cancelled); returns
 * the time it took in ms and sets *latency_ms when it was cancelled */
static double
run_once (Work          work,
          GFile        *file,
          PsEventStore *store,
          double        after_ms,
          double       *latency_ms,
          double       *stopped_ms,
          PsEventStore **loaded)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(PsLoader) loader = NULL;
  Run run = { loop, cancellable, 0, 0, FALSE, NULL, NULL };
  gint64 start = g_get_monotonic_time ();

  if (after_ms >= 0)
    g_timeout_add_full (G_PRIORITY_HIGH, (guint) after_ms, cancel_cb, &run, NULL);
  if (work == WORK_LOAD)
    {
      loader = ps_loader_new (file);
      ps_loader_load_async (loader, cancellable, load_cb, &run);
    }
  else if (work == WORK_ANALYSIS)
    ps_run_analysis_compute_async (store, cancellable, analysis_cb, &run);
  else
    {
      g_autoptr(GTask) task = g_task_new (NULL, cancellable, diff_cb, &run);

      g_task_set_task_data (task, store, NULL);
      g_task_set_return_on_cancel (task, TRUE);
      g_task_run_in_thread (task, diff_thread);
    }
  g_main_loop_run (loop);
  /* A timeout that did not fire */
  g_source_remove_by_user_data (&run);

  *latency_ms = run.was_cancelled ? (run.done_at - run.cancelled_at) / 1000.0 : -1;
  *stopped_ms = run.was_cancelled ? wait_idle (run.cancelled_at) : -1;
  if (loaded != NULL)
    *loaded = run.store;
  else
    g_clear_object (&run.store);
  g_clear_pointer (&run.analysis, ps_run_analysis_unref);
  return (run.done_at - start) / 1000.0;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
measure (const char   *what,
         Work          work,
         GFile        *file,
         PsEventStore *store,
         guint         n,
         PsEventStore **loaded)
{
  double latency, stopped;
  double full = run_once (work, file, store, -1, &latency, &stopped, loaded);
  double *latencies = g_new (double, n);
  double *stops = g_new (double, n);
  guint n_cancelled = 0;

  for (guint i = 1; i <= n; i++)
    {
      run_once (work, file, store, full * i / (n + 1), &latency, &stopped, NULL);
      if (latency >= 0)
        {
          latencies[n_cancelled] = latency;
          stops[n_cancelled++] = stopped;
        }
    }
  qsort (latencies, n_cancelled, sizeof (double), compare_doubles);
  qsort (stops, n_cancelled, sizeof (double), compare_doubles);
  printf ("%-10s %8.0f ms  %2u of %2u cancelled  answer: median %5.1f ms, max %5.1f ms  "
          "work stopped: median %6.1f ms, max %6.1f ms\n", what, full, n_cancelled, n,
          n_cancelled > 0 ? latencies[n_cancelled / 2] : 0, n_cancelled > 0 ? latencies[n_cancelled - 1] : 0,
          n_cancelled > 0 ? stops[n_cancelled / 2] : 0, n_cancelled > 0 ? stops[n_cancelled - 1] : 0);
  g_free (latencies);
  g_free (stops);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(PsEventStore) store = NULL;
  guint n = 10;

  if (argc < 2 || argc > 3)
    {
      fprintf (stderr, "Usage: bench-cancel FILE [N]\n");
      return 2;
    }
  if (argc == 3)
    n = (guint) g_ascii_strtoull (argv[2], NULL, 10);

  file = g_file_new_for_commandline_arg (argv[1]);
  measure ("load", WORK_LOAD, file, NULL, n, &store);
  measure ("analysis", WORK_ANALYSIS, file, store, n, NULL);
  measure ("comparison", WORK_COMPARISON, file, store, n, NULL);
  return 0;
}

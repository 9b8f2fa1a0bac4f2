/* test-cancel.c — analyses that are cancelled stop and give nothing, and
 * the faster paths taken for them give the same numbers
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "ps-call-tree.h"
#include "parse-fixture.h"
#include "ps-run-diff.h"
#include "ps-series.h"

static PsEventStore *
load_demo (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);

  return parse_fixture_load_file (path, 0);
}

static void
assert_same_stats (const PsStats *a,
                   const PsStats *b)
{
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpfloat (a->sum, ==, b->sum);
  g_assert_cmpfloat (a->min, ==, b->min);
  g_assert_cmpfloat (a->max, ==, b->max);
  g_assert_cmpfloat (a->mean, ==, b->mean);
  g_assert_cmpfloat (a->median, ==, b->median);
  g_assert_cmpfloat (a->p90, ==, b->p90);
  g_assert_cmpfloat (a->p95, ==, b->p95);
  g_assert_cmpfloat (a->p99, ==, b->p99);
  g_assert_cmpfloat (a->stddev, ==, b->stddev);
}

/* Statistics-only durations are gathered apart from the full series; every
 * series of the demo logs has the same numbers both ways, as instances and
 * as groups, over the whole log and over a range */
static void
test_series_summary (void)
{
  const char *logs[] = {
    "fsperf_CEPC_x86_6_0_3122.log", "dbperf_CEPC_x86_6_0_3122.log", "regperf_CEPC_x86_6_0_3122.log",
  };

  for (guint l = 0; l < G_N_ELEMENTS (logs); l++)
    {
      g_autoptr(PsEventStore) store = load_demo (logs[l]);

      for (guint variant = 0; variant < 4; variant++)
        {
          PsSeriesOptions full_options = { 0 };
          PsSeriesOptions summary_options;
          g_autoptr(GPtrArray) full = NULL;
          g_autoptr(GPtrArray) summary = NULL;
          guint n_durations = 0;

          full_options.group_by_name = (variant & 1) != 0;
          if (variant & 2)
            {
              full_options.has_index_range = TRUE;
              full_options.index_first = 5;
              full_options.index_last = 1000;
            }
          summary_options = full_options;
          summary_options.durations_summary_only = TRUE;
          full = ps_series_collect (store, &full_options);
          summary = ps_series_collect (store, &summary_options);

          g_assert_cmpuint (full->len, ==, summary->len);
          for (guint i = 0; i < full->len; i++)
            {
              const PsSeries *a = g_ptr_array_index (full, i);
              const PsSeries *b = g_ptr_array_index (summary, i);

              g_assert_cmpstr (a->name, ==, b->name);
              g_assert_cmpint (a->kind, ==, b->kind);
              g_assert_cmpuint (a->n_instances, ==, b->n_instances);
              for (guint t = 0; t < a->n_instances; t++)
                g_assert_cmpuint (a->tracks[t], ==, b->tracks[t]);
              g_assert_cmpuint (a->n_excluded, ==, b->n_excluded);
              assert_same_stats (&a->stats, &b->stats);
              if (a->kind == PS_SERIES_DURATION)
                {
                  assert_same_stats (&a->ticks_stats, &b->ticks_stats);
                  g_assert_cmpuint (a->values->len, ==, a->stats.count);
                  g_assert_cmpuint (b->values->len, ==, 0);
                  g_assert_cmpuint (b->ticks->len, ==, 0);
                  g_assert_cmpuint (b->indexes->len, ==, 0);
                  if (a->stats.count > 0)
                    n_durations++;
                }
              else
                g_assert_cmpuint (b->values->len, ==, a->values->len);
            }
          /* The demo logs have durations in every variant */
          g_assert_cmpuint (n_durations, >=, 5);
        }
    }
}

/* Cancelled before it starts, a collection sets up no series */
static void
test_series_cancelled (void)
{
  g_autoptr(PsEventStore) store = load_demo ("fsperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  for (guint summary = 0; summary < 2; summary++)
    {
      PsSeriesOptions options = { 0 };
      g_autoptr(GPtrArray) series = NULL;

      options.cancellable = cancellable;
      options.durations_summary_only = summary;
      series = ps_series_collect (store, &options);
      g_assert_cmpuint (series->len, >, 3);

      g_cancellable_cancel (cancellable);
      g_clear_pointer (&series, g_ptr_array_unref);
      series = ps_series_collect (store, &options);
      g_assert_cmpuint (series->len, ==, 0);
      g_cancellable_reset (cancellable);
    }
}

/* A call tree of samples and one of scopes: the same tree with a
 * cancellable that is not cancelled, none and a cancelled error with one
 * that is */
static void
test_call_tree_cancelled (void)
{
  const char *logs[] = { "pmcstat_freebsd14.pmclog", "soffice_4711.log" };

  for (guint l = 0; l < G_N_ELEMENTS (logs); l++)
    {
      g_autoptr(PsEventStore) store = load_demo (logs[l]);
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      PsCallTreeOptions options = { PS_NONE, NULL, 0 };
      g_autoptr(PsCallTree) plain = NULL;
      g_autoptr(PsCallTree) watched = NULL;
      g_autoptr(PsCallTree) cancelled = NULL;
      g_autoptr(GError) error = NULL;

      plain = ps_call_tree_new_for_store (store, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (plain);
      g_assert_cmpuint (ps_call_tree_get_n_functions (plain), >, 3);

      options.cancellable = cancellable;
      watched = ps_call_tree_new_for_store (store, &options, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ps_call_tree_get_n_functions (watched), ==, ps_call_tree_get_n_functions (plain));
      g_assert_cmpint (ps_call_tree_get_unit (watched), ==, ps_call_tree_get_unit (plain));

      g_cancellable_cancel (cancellable);
      cancelled = ps_call_tree_new_for_store (store, &options, &error);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (cancelled);
    }
}

/* Comparing two runs: the same rows with a cancellable that is not
 * cancelled, NULL with one that is */
static void
test_run_diff_cancelled (void)
{
  g_autoptr(PsEventStore) a = load_demo ("fsperf_CEPC_x86_6_0_3122.log");
  g_autoptr(PsEventStore) b = load_demo ("dbperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  PsRunDiffOptions options;
  PsRunDiff *plain, *watched;

  ps_run_diff_options_init (&options);
  plain = ps_run_diff_new (a, b, &options);
  options.cancellable = cancellable;
  watched = ps_run_diff_new (a, b, &options);
  g_assert_nonnull (plain);
  g_assert_nonnull (watched);
  g_assert_cmpuint (plain->rows->len, >, 3);
  g_assert_cmpuint (watched->rows->len, ==, plain->rows->len);
  for (guint i = 0; i < plain->rows->len; i++)
    {
      const PsRunDiffRow *x = g_ptr_array_index (plain->rows, i);
      const PsRunDiffRow *y = g_ptr_array_index (watched->rows, i);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpint (x->change, ==, y->change);
    }
  ps_run_diff_free (plain);
  ps_run_diff_free (watched);

  g_cancellable_cancel (cancellable);
  g_assert_null (ps_run_diff_new (a, b, &options));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cancel/series-summary", test_series_summary);
  g_test_add_func ("/cancel/series", test_series_cancelled);
  g_test_add_func ("/cancel/call-tree", test_call_tree_cancelled);
  g_test_add_func ("/cancel/run-diff", test_run_diff_cancelled);

  return g_test_run ();
}

/* test-compare.c — two runs compared side by side (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens tests/data/diff/run-a.log and run-b.log as a comparison through
 * ps_window_compare_files () (where --compare, a drop of two files and
 * Compare With… end), and checks the table against ps_run_diff_new () of
 * the same stores: rows, values, sorting, the filters; that zooming one
 * timeline zooms the other, with the offset; and the exported CSV and
 * Markdown by value; the differential flame graph of two RTL logs, the
 * histograms of a row from both runs, Match With…, the recent comparisons
 * and --compare sent to a running instance. Issue 8, "Tests".
 */
#include "config.h"

#include <gtk/gtk.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-ce-view-private.h"
#include "ps-compare-export.h"
#include "ps-compare-page-private.h"
#include "ps-compare-row.h"
#include "ps-flame-graph-private.h"
#include "ps-histogram-view-private.h"
#include "ps-marker-row.h"
#include "ps-run-page-private.h"
#include "ps-timeline-view.h"
#include "ps-util.h"
#include "ps-window-private.h"

static gboolean
page_is_ready (gpointer data)
{
  return ps_compare_page_is_ready (PS_COMPARE_PAGE (data));
}

static PsComparePage *
open_comparison (Fixture *fixture)
{
  g_autofree char *path_a = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-a.log", NULL);
  g_autofree char *path_b = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-b.log", NULL);
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = g_file_new_for_path (path_b);
  PsComparePage *page = ps_window_compare_files (fixture->window, file_a, file_b);

  g_assert_true (PS_IS_COMPARE_PAGE (page));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  /* A comparison is not a run: the run API of the window says so */
  g_assert_null (ps_window_get_current_page (fixture->window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "run-a.log ↔ run-b.log");
  g_assert_true (iterate_until (page_is_ready, page));
  iterate_for (50);
  return page;
}

/* What the engine says about the same two stores */
static PsRunDiff *
engine_diff (PsComparePage *page)
{
  PsEventStore *store_a = ps_run_page_get_store (ps_compare_page_get_run_page (page, 0));
  PsEventStore *store_b = ps_run_page_get_store (ps_compare_page_get_run_page (page, 1));

  g_assert_nonnull (store_a);
  g_assert_nonnull (store_b);
  return ps_run_diff_new (store_a, store_b, NULL);
}

/* The shown row of that name, and its position */
static const PsRunDiffRow *
find_shown (PsComparePage *page,
            const char    *name,
            guint         *position)
{
  GListModel *rows = ps_compare_page_get_rows (page);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);

      if (g_strcmp0 (ps_compare_row_get_row (item)->name, name) == 0)
        {
          if (position != NULL)
            *position = i;
          /* The store keeps the item: the pointer outlives this reference */
          return ps_compare_row_get_row (item);
        }
    }
  return NULL;
}

static void
assert_same_row (const PsRunDiffRow *shown,
                 const PsRunDiffRow *expected)
{
  g_assert_nonnull (shown);
  g_assert_nonnull (expected);
  g_assert_cmpint (shown->has_a, ==, expected->has_a);
  g_assert_cmpint (shown->has_b, ==, expected->has_b);
  g_assert_cmpuint (shown->a.count, ==, expected->a.count);
  g_assert_cmpuint (shown->b.count, ==, expected->b.count);
  g_assert_cmpfloat (shown->a.mean, ==, expected->a.mean);
  g_assert_cmpfloat (shown->b.mean, ==, expected->b.mean);
  g_assert_true ((isnan (shown->ratio_mean) && isnan (expected->ratio_mean))
                 || shown->ratio_mean == expected->ratio_mean);
  g_assert_cmpint (shown->change, ==, expected->change);
}

static void
test_table (Fixture       *fixture,
            gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  g_autoptr(PsRunDiff) diff = engine_diff (page);
  const PsRunDiffRow *open, *load, *save;
  guint position;
  g_autofree char *cell = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (ps_compare_page_get_rows (page)), ==, diff->rows->len);
  g_assert_cmpint (ps_compare_page_get_diff (page)->matched, ==, PS_RUN_DIFF_MATCH_SERIES);
  /* The header names both files, their format and how rows were matched */
  g_assert_nonnull (strstr (ps_compare_page_get_header_text (page), "A: run-a.log"));
  g_assert_nonnull (strstr (ps_compare_page_get_header_text (page), "B: run-b.log"));
  g_assert_nonnull (strstr (ps_compare_page_get_header_text (page), "series"));

  open = find_shown (page, "Open", &position);
  assert_same_row (open, ps_run_diff_find_row (diff, "Open", NULL));
  g_assert_cmpint (open->change, ==, PS_RUN_DIFF_REGRESSION);
  g_assert_cmpuint (open->a.count, ==, 4);
  /* DUR [10] [13] [11] [12] at 1000 ticks per second */
  g_assert_cmpfloat_with_epsilon (open->a.mean, 0.0115, 1e-12);
  cell = ps_compare_page_get_cell_text (page, position, "change");
  g_assert_cmpstr (cell, ==, "Regression");
  g_clear_pointer (&cell, g_free);
  cell = ps_compare_page_get_cell_text (page, position, "a-mean");
  g_assert_cmpstr (cell, ==, "11.50 ms");
  g_clear_pointer (&cell, g_free);
  cell = ps_compare_page_get_cell_text (page, position, "ratio");
  {
    g_autofree char *expected = g_strdup_printf ("%.2f×", open->ratio_mean);

    g_assert_cmpstr (cell, ==, expected);
  }
  g_clear_pointer (&cell, g_free);

  load = find_shown (page, "Load", &position);
  assert_same_row (load, ps_run_diff_find_row (diff, "Load", NULL));
  g_assert_cmpint (load->change, ==, PS_RUN_DIFF_IMPROVEMENT);
  g_assert_cmpfloat (load->ratio_mean, <, 1.0);
  cell = ps_compare_page_get_cell_text (page, position, "change");
  g_assert_cmpstr (cell, ==, "Improvement");
  g_clear_pointer (&cell, g_free);

  save = find_shown (page, "Save", NULL);
  assert_same_row (save, ps_run_diff_find_row (diff, "Save", NULL));
  g_assert_cmpint (save->change, ==, PS_RUN_DIFF_UNCHANGED);

  /* Rows of one run only, shown as such */
  {
    const PsRunDiffRow *only_a = find_shown (page, "OnlyA", &position);

    assert_same_row (only_a, ps_run_diff_find_row (diff, "OnlyA", NULL));
    g_assert_true (only_a->has_a && !only_a->has_b);
    cell = ps_compare_page_get_cell_text (page, position, "change");
    g_assert_cmpstr (cell, ==, "Only in A");
    g_clear_pointer (&cell, g_free);
    cell = ps_compare_page_get_cell_text (page, position, "b-mean");
    g_assert_cmpstr (cell, ==, "–");
    g_clear_pointer (&cell, g_free);
  }
  {
    const PsRunDiffRow *only_b = find_shown (page, "OnlyB", &position);

    assert_same_row (only_b, ps_run_diff_find_row (diff, "OnlyB", NULL));
    g_assert_true (!only_b->has_a && only_b->has_b);
    cell = ps_compare_page_get_cell_text (page, position, "change");
    g_assert_cmpstr (cell, ==, "Only in B");
    g_clear_pointer (&cell, g_free);
  }
  /* Without a rename map, the renamed marker is one row on each side */
  g_assert_true (find_shown (page, "OldName", NULL)->has_a);
  g_assert_false (find_shown (page, "OldName", NULL)->has_b);
  g_assert_true (find_shown (page, "NewName", NULL)->has_b);

  maybe_save_screenshot (fixture, "compare");
}

static void
test_sort_and_filter (Fixture       *fixture,
                      gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  g_autoptr(PsRunDiff) diff = engine_diff (page);
  GListModel *rows = ps_compare_page_get_rows (page);
  guint n_regressions = 0, n_one_side = 0;
  double previous = -INFINITY;
  gboolean seen_absent = FALSE;

  /* Worst first by default */
  {
    g_autoptr(PsCompareRow) first = g_list_model_get_item (rows, 0);

    g_assert_cmpint (ps_compare_row_get_row (first)->change, ==, PS_RUN_DIFF_REGRESSION);
  }

  /* By A's mean: ascending, rows without A last */
  ps_compare_page_sort_by (page, "a-mean", GTK_SORT_ASCENDING);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);
      const PsRunDiffRow *row = ps_compare_row_get_row (item);

      if (!row->has_a)
        {
          seen_absent = TRUE;
          continue;
        }
      g_assert_false (seen_absent);
      g_assert_cmpfloat (row->a.mean, >=, previous);
      previous = row->a.mean;
    }
  /* By name, descending */
  ps_compare_page_sort_by (page, "name", GTK_SORT_DESCENDING);
  {
    g_autoptr(PsCompareRow) first = g_list_model_get_item (rows, 0);
    g_autoptr(PsCompareRow) last = g_list_model_get_item (rows, g_list_model_get_n_items (rows) - 1);

    g_assert_cmpstr (ps_compare_row_get_row (first)->name, ==, "Save");
    g_assert_cmpstr (ps_compare_row_get_row (last)->name, ==, "Load");
  }

  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      if (!row->has_a || !row->has_b)
        n_one_side++;
      else if (row->change == PS_RUN_DIFF_REGRESSION)
        n_regressions++;
    }
  g_assert_cmpuint (n_regressions, >=, 1);

  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_REGRESSIONS);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_regressions);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);

      g_assert_cmpint (ps_compare_row_get_row (item)->change, ==, PS_RUN_DIFF_REGRESSION);
    }
  g_assert_nonnull (find_shown (page, "Open", NULL));
  g_assert_null (find_shown (page, "Load", NULL));

  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ONE_SIDE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_one_side);

  /* Search within the filter, ignoring case */
  ps_compare_page_set_search (page, "only");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ALL);
  ps_compare_page_set_search (page, "LOAD");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
  ps_compare_page_set_search (page, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, diff->rows->len);
}

/* The demo runs of builds 3122 and 3150 compared (A: 3122) */
static PsComparePage *
compare_demo_builds (Fixture *fixture)
{
  g_autofree char *path_a = demo_file_path ("fsperf_CEPC_x86_6_0_3122.log");
  g_autofree char *path_b = demo_file_path ("fsperf_CEPC_x86_6_0_3150.log");
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = g_file_new_for_path (path_b);

  return ps_window_compare_files (fixture->window, file_a, file_b);
}

/* A filter or a search that leaves no row says so in the table's place:
 * the build 3122 and 3150 demo runs share all their 26 rows */
static void
test_empty_filter (Fixture       *fixture,
                   gconstpointer  data)
{
  PsComparePage *page = compare_demo_builds (fixture);
  GListModel *rows = ps_compare_page_get_rows (page);

  g_assert_true (iterate_until (page_is_ready, page));
  iterate_for (50);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 26);
  g_assert_null (ps_compare_page_get_empty_text (page));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (ps_compare_page_get_column_view (page))));

  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ONE_SIDE);
  iterate_for (50);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  g_assert_cmpstr (ps_compare_page_get_empty_text (page), ==, "Every row is in both runs");
  /* In the table's place, not under an empty table */
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (ps_compare_page_get_column_view (page))));
  maybe_save_screenshot (fixture, "compare-empty-filter");

  /* No row changed without a verdict of better or worse: Changed keeps
   * the regressions and improvements */
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_CHANGED);
  iterate_for (50);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 10);
  g_assert_null (ps_compare_page_get_empty_text (page));

  /* A search that finds nothing the filter leaves */
  ps_compare_page_set_search (page, "no such name");
  iterate_for (50);
  g_assert_cmpstr (ps_compare_page_get_empty_text (page), ==, "No name matches “no such name”");
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ONE_SIDE);
  g_assert_cmpstr (ps_compare_page_get_empty_text (page), ==, "Every row is in both runs");
  ps_compare_page_set_search (page, NULL);
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ALL);
  iterate_for (50);
  g_assert_null (ps_compare_page_get_empty_text (page));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (ps_compare_page_get_column_view (page))));
}

typedef struct
{
  PsComparePage *page;
} TimelinesData;

static gboolean
timelines_are_indexed (gpointer data)
{
  PsComparePage *page = data;

  for (guint side = 0; side < 2; side++)
    {
      PsRunPage *run = ps_compare_page_get_run_page (page, side);

      if (ps_run_page_get_session (run) == NULL
          || ps_timeline_view_get_model (ps_run_page_get_timeline_view (run)) == NULL
          || !widget_is_drawn (ps_run_page_get_timeline_view (run)))
        return FALSE;
    }
  return TRUE;
}

static void
test_zoom_follows (Fixture       *fixture,
                   gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  PsRunPage *run_a = ps_compare_page_get_run_page (page, 0);
  PsRunPage *run_b = ps_compare_page_get_run_page (page, 1);
  PsSession *session_a, *session_b;
  gint64 a_begin, a_end, b_begin, b_end, before_begin, before_end;

  g_assert_true (iterate_until (timelines_are_indexed, page));
  iterate_for (100);
  session_a = ps_run_page_get_session (run_a);
  session_b = ps_run_page_get_session (run_b);

  ps_session_get_visible_range (session_a, &before_begin, &before_end);
  ps_timeline_view_zoom (ps_run_page_get_timeline_view (run_a), 4.0,
                         gtk_widget_get_width (GTK_WIDGET (ps_run_page_get_timeline_view (run_a))) / 2.0);
  iterate_for (50);
  ps_session_get_visible_range (session_a, &a_begin, &a_end);
  ps_session_get_visible_range (session_b, &b_begin, &b_end);
  /* A zoomed in, and B shows the same range */
  g_assert_cmpint (a_end - a_begin, <, before_end - before_begin);
  g_assert_cmpint (b_begin, ==, a_begin);
  g_assert_cmpint (b_end, ==, a_end);

  /* Zooming B zooms A back */
  ps_timeline_view_zoom (ps_run_page_get_timeline_view (run_b), 0.5,
                         gtk_widget_get_width (GTK_WIDGET (ps_run_page_get_timeline_view (run_b))) / 2.0);
  iterate_for (50);
  ps_session_get_visible_range (session_a, &a_begin, &a_end);
  ps_session_get_visible_range (session_b, &b_begin, &b_end);
  g_assert_cmpint (b_begin, ==, a_begin);
  g_assert_cmpint (b_end, ==, a_end);

  /* CE runs have a sequence, not times: no offset is offered, and one
   * set anyway does not shift B's view */
  g_assert_false (ps_compare_page_get_align_visible (page));
  ps_compare_page_set_offset_ms (page, 2.5);
  ps_timeline_view_zoom (ps_run_page_get_timeline_view (run_a), 2.0,
                         gtk_widget_get_width (GTK_WIDGET (ps_run_page_get_timeline_view (run_a))) / 2.0);
  iterate_for (50);
  ps_session_get_visible_range (session_a, &a_begin, &a_end);
  ps_session_get_visible_range (session_b, &b_begin, &b_end);
  g_assert_cmpint (b_begin, ==, a_begin);
  g_assert_cmpint (b_end, ==, a_end);

  /* Stacked: the same runs, one over the other */
  ps_compare_page_set_stacked (page, TRUE);
  iterate_for (100);
  g_assert_true (widget_is_drawn (ps_run_page_get_timeline_view (run_a)));
  g_assert_true (widget_is_drawn (ps_run_page_get_timeline_view (run_b)));
}

/* Both runs show on one scale, each whole: the range of the longer one */
static void
assert_both_whole (PsSession *session_a,
                   PsSession *session_b)
{
  gint64 whole_begin[2], whole_end[2], a_begin, a_end, b_begin, b_end;

  g_assert_true (ps_session_get_whole_range (session_a, &whole_begin[0], &whole_end[0]));
  g_assert_true (ps_session_get_whole_range (session_b, &whole_begin[1], &whole_end[1]));
  ps_session_get_visible_range (session_a, &a_begin, &a_end);
  ps_session_get_visible_range (session_b, &b_begin, &b_end);
  g_assert_cmpint (a_begin, ==, MIN (whole_begin[0], whole_begin[1]));
  g_assert_cmpint (a_end, ==, MAX (whole_end[0], whole_end[1]));
  g_assert_cmpint (b_begin, ==, a_begin);
  g_assert_cmpint (b_end, ==, a_end);
}

/* Whichever run is read last, and after Reset Zoom in either, both runs
 * show whole: the last one's own range cut the longer run short */
static void
test_both_runs_whole (Fixture       *fixture,
                      gconstpointer  data)
{
  PsComparePage *page = compare_demo_builds (fixture);
  PsRunPage *run_a = ps_compare_page_get_run_page (page, 0);
  PsRunPage *run_b = ps_compare_page_get_run_page (page, 1);
  PsSession *session_a, *session_b;
  gint64 a_end, b_end;

  g_assert_true (iterate_until (page_is_ready, page));
  g_assert_true (iterate_until (timelines_are_indexed, page));
  iterate_for (100);
  session_a = ps_run_page_get_session (run_a);
  session_b = ps_run_page_get_session (run_b);
  /* A is the longer run */
  g_assert_true (ps_session_get_whole_range (session_a, NULL, &a_end));
  g_assert_true (ps_session_get_whole_range (session_b, NULL, &b_end));
  g_assert_cmpint (a_end, >, b_end);
  assert_both_whole (session_a, session_b);

  /* B's whole run alone, as when B is read last */
  ps_timeline_view_zoom (ps_run_page_get_timeline_view (run_b), 4.0, 200);
  iterate_for (50);
  ps_timeline_view_reset_zoom (ps_run_page_get_timeline_view (run_b));
  iterate_for (50);
  assert_both_whole (session_a, session_b);

  ps_timeline_view_zoom (ps_run_page_get_timeline_view (run_a), 4.0, 200);
  iterate_for (50);
  ps_timeline_view_reset_zoom (ps_run_page_get_timeline_view (run_a));
  iterate_for (50);
  assert_both_whole (session_a, session_b);
}

static void
test_export (Fixture       *fixture,
             gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  g_autoptr(PsRunDiff) diff = engine_diff (page);
  const PsRunDiffRow *open = ps_run_diff_find_row (diff, "Open", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *markdown = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) fields = NULL;

  /* Exactly the rows shown */
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_REGRESSIONS);
  ps_compare_page_sort_by (page, "name", GTK_SORT_ASCENDING);
  csv = ps_compare_page_dup_csv (page);
  lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + g_list_model_get_n_items (ps_compare_page_get_rows (page)) + 1);
  g_assert_cmpstr (lines[0], ==,
                   "name,a_name,context,kind,unit,a_count,a_mean (s),a_median (s),a_p95 (s),a_total (s),"
                   "b_count,b_mean (s),b_median (s),b_p95 (s),b_total (s),delta_mean (s),ratio_mean,p_value,change,"
                   "basis,reason,noise_floor (s)");
  fields = g_strsplit (lines[1], ",", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, 22);
  g_assert_cmpstr (fields[0], ==, "Open");
  g_assert_cmpstr (fields[3], ==, "duration");
  g_assert_cmpstr (fields[4], ==, "s");
  g_assert_cmpstr (fields[5], ==, "4");
  g_assert_cmpfloat (g_ascii_strtod (fields[6], NULL), ==, open->a.mean);
  g_assert_cmpfloat (g_ascii_strtod (fields[11], NULL), ==, open->b.mean);
  g_assert_cmpfloat (g_ascii_strtod (fields[16], NULL), ==, open->ratio_mean);
  g_assert_cmpfloat (g_ascii_strtod (fields[17], NULL), ==, open->p_value);
  g_assert_cmpstr (fields[18], ==, "regression");
  g_assert_cmpstr (fields[19], ==, ps_run_diff_basis_to_string (open->basis));
  g_assert_cmpstr (fields[20], ==, ps_run_diff_reason_to_string (open->reason));
  g_assert_cmpstr (lines[g_strv_length (lines) - 1], ==, "");

  /* The summary: every regression and improvement with its numbers */
  markdown = ps_compare_page_dup_markdown (page);
  g_assert_true (g_str_has_prefix (markdown, "## Comparison: run-a.log → run-b.log\n"));
  g_assert_nonnull (strstr (markdown, "Rows matched by: series."));
  g_assert_nonnull (strstr (markdown, "### Regressions"));
  g_assert_nonnull (strstr (markdown, "### Improvements"));
  {
    g_autofree char *a_mean = ps_compare_export_format_value (open->a.mean, "s", FALSE);
    g_autofree char *b_mean = ps_compare_export_format_value (open->b.mean, "s", FALSE);
    g_autofree char *delta = ps_compare_export_format_value (open->delta_mean, "s", TRUE);
    g_autofree char *ratio = ps_compare_export_format_ratio (open->ratio_mean);
    g_autofree char *line = g_strdup_printf ("| Open | %s | %s | %s | %s |", a_mean, b_mean, delta, ratio);

    g_assert_cmpstr (a_mean, ==, "11.500 ms");
    g_assert_true (g_str_has_prefix (delta, "+"));
    g_assert_nonnull (strstr (markdown, line));
  }
  g_assert_nonnull (strstr (markdown, "- OnlyA: only in A ("));
  g_assert_nonnull (strstr (markdown, "- OnlyB: only in B ("));
}

/* The writers alone, on rows made here. Every expected text is written
 * out by hand from the rules of ps-compare-export.h: CSV numbers as the
 * shortest decimal that reads back, Markdown values in their units. */
static void
test_export_writers (void)
{
  static const struct {
    double      value;
    const char *unit;
    gboolean    is_signed;
    const char *expected;
  } values[] = {
    { 1536, "bytes", FALSE, "1.5 KiB" },
    { -0.0025, "s", TRUE, "−2.500 ms" },
    { 2500, "ns", TRUE, "+2.500 µs" },
    { 42.5, "percent", FALSE, "42.50 %" },
    { 12.345, "samples", FALSE, "12.35 samples" },
    { 1234.4, "ticks", FALSE, "1234 ticks" },
    { NAN, "s", FALSE, "–" },
  };
  PsRunDiffRow only_a = { 0 };
  PsRunDiffRow slower = { 0 };
  PsRunDiffRow faster = { 0 };
  PsRunDiffRow only_b = { 0 };
  const PsRunDiffRow *one_row[] = { &only_a };
  const PsRunDiffRow *rows[] = { &slower, &faster, &only_b };
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autoptr(GString) mixed_csv = g_string_new (NULL);
  g_autoptr(GString) markdown = g_string_new (NULL);
  g_autofree char *text = NULL;

  only_a.name = (char *)"Say \"hi\", twice";
  only_a.kind = "counter";
  only_a.unit = "bytes";
  only_a.has_a = TRUE;
  only_a.a.count = 2;
  only_a.a.mean = 1536;
  only_a.a.median = 1536;
  only_a.a.p95 = 2048;
  only_a.a.sum = 3072;
  only_a.delta_mean = only_a.ratio_mean = only_a.delta_total = only_a.ratio_total = only_a.p_value = NAN;
  only_a.noise_floor = NAN;
  only_a.basis = PS_RUN_DIFF_BASIS_NONE;
  only_a.reason = PS_RUN_DIFF_REASON_ONE_SIDE;
  only_a.change = PS_RUN_DIFF_UNCHANGED;

  /* One unit: the value headers name it; a side the row lacks is empty */
  ps_compare_export_csv (csv, one_row, 1);
  g_assert_cmpstr (csv->str, ==,
                   "name,a_name,context,kind,unit,a_count,a_mean (bytes),a_median (bytes),a_p95 (bytes),a_total (bytes),"
                   "b_count,b_mean (bytes),b_median (bytes),b_p95 (bytes),b_total (bytes),delta_mean (bytes),ratio_mean,p_value,change,"
                   "basis,reason,noise_floor (bytes)\r\n"
                   "\"Say \"\"hi\"\", twice\",,,counter,bytes,2,1536,1536,2048,3072,,,,,,,,,only-a,none,one-side,\r\n");

  /* A regression in seconds, a renamed improvement in a context, a row
   * in ticks only in B */
  slower = (PsRunDiffRow) {
    .name = (char *)"read|file", .kind = "span", .unit = "s", .has_a = TRUE, .has_b = TRUE,
    .a = { .count = 4, .mean = 0.0125, .median = 0.012, .p95 = 0.02, .sum = 0.05 },
    .b = { .count = 5, .mean = 0.025, .median = 0.024, .p95 = 0.04, .sum = 0.125 },
    .delta_mean = 0.0125, .ratio_mean = 2, .delta_total = 0.075, .ratio_total = 2.5, .p_value = 0.0159,
    .noise_floor = NAN, .basis = PS_RUN_DIFF_BASIS_TEST, .reason = PS_RUN_DIFF_REASON_SIGNIFICANT,
    .change = PS_RUN_DIFF_REGRESSION,
  };
  faster = (PsRunDiffRow) {
    .name = (char *)"write", .a_name = (char *)"write_old", .context = (char *)"main",
    .kind = "span", .unit = "s", .has_a = TRUE, .has_b = TRUE,
    .a = { .count = 3, .mean = 0.5, .median = 0.5, .p95 = 0.75, .sum = 1.5 },
    .b = { .count = 3, .mean = 0.25, .median = 0.25, .p95 = 0.375, .sum = 0.75 },
    .delta_mean = -0.25, .ratio_mean = 0.5, .delta_total = -0.75, .ratio_total = 0.5, .p_value = 0.02,
    .noise_floor = NAN, .basis = PS_RUN_DIFF_BASIS_TEST, .reason = PS_RUN_DIFF_REASON_SIGNIFICANT,
    .change = PS_RUN_DIFF_IMPROVEMENT,
  };
  only_b = (PsRunDiffRow) {
    .name = (char *)"flush", .kind = "counter", .unit = "ticks", .has_b = TRUE,
    .b = { .count = 1234, .mean = 1234.4, .median = 1200, .p95 = 2000.5, .sum = 1523249.6 },
    .delta_mean = NAN, .ratio_mean = NAN, .delta_total = NAN, .ratio_total = NAN, .p_value = NAN,
    .noise_floor = NAN, .basis = PS_RUN_DIFF_BASIS_NONE, .reason = PS_RUN_DIFF_REASON_ONE_SIDE,
  };

  /* Units that differ: no unit in the headers, each row says its own */
  ps_compare_export_csv (mixed_csv, rows, G_N_ELEMENTS (rows));
  g_assert_cmpstr (mixed_csv->str, ==,
                   "name,a_name,context,kind,unit,a_count,a_mean,a_median,a_p95,a_total,"
                   "b_count,b_mean,b_median,b_p95,b_total,delta_mean,ratio_mean,p_value,change,basis,reason,noise_floor\r\n"
                   "read|file,,,span,s,4,0.0125,0.012,0.02,0.05,5,0.025,0.024,0.04,0.125,0.0125,2,0.0159,regression,"
                   "mann-whitney,significant,\r\n"
                   "write,write_old,main,span,s,3,0.5,0.5,0.75,1.5,3,0.25,0.25,0.375,0.75,-0.25,0.5,0.02,improvement,"
                   "mann-whitney,significant,\r\n"
                   "flush,,,counter,ticks,,,,,,1234,1234.4,1200,2000.5,1523249.6,,,,only-b,none,one-side,\r\n");

  /* Markdown, in the C locale of the tests: no digit grouping; markup
   * characters of names escaped */
  ps_compare_export_markdown (markdown, "a.log", "b.log", PS_RUN_DIFF_MATCH_SERIES, rows, G_N_ELEMENTS (rows), 10);
  g_assert_cmpstr (markdown->str, ==,
                   "## Comparison: a.log → b.log\n"
                   "\n"
                   "Rows matched by: series. Regressions: 1, improvements: 1, other changes: 0, unchanged: 0, "
                   "in one run only: 1.\n"
                   "\n"
                   "### Regressions\n"
                   "\n"
                   "| Name | A | B | Δ | Ratio | p-value | Basis | Count A / B |\n"
                   "|---|---:|---:|---:|---:|---:|---|---:|\n"
                   "| read\\|file | 12.500 ms | 25.000 ms | +12.500 ms | 2.00× | 0.016 | Mann–Whitney test (means) | 4 / 5 |\n"
                   "\n"
                   "### Improvements\n"
                   "\n"
                   "| Name | A | B | Δ | Ratio | p-value | Basis | Count A / B |\n"
                   "|---|---:|---:|---:|---:|---:|---|---:|\n"
                   "| write (was write\\_old) | 500.000 ms | 250.000 ms | −250.000 ms | 0.50× | 0.020 | Mann–Whitney test (means) "
                   "| 3 / 3 |\n"
                   "\n"
                   "### In One Run Only\n"
                   "\n"
                   "- flush: only in B (count 1234, mean 1234 ticks)\n");

  /* Values for people */
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *shown = ps_compare_export_format_value (values[i].value, values[i].unit, values[i].is_signed);

      g_assert_cmpstr (shown, ==, values[i].expected);
    }
  text = ps_compare_export_format_ratio (1.7449);
  g_assert_cmpstr (text, ==, "1.74×");
  g_clear_pointer (&text, g_free);
  text = ps_compare_export_format_p_value (0.0001);
  g_assert_cmpstr (text, ==, "< 0.001");
  g_clear_pointer (&text, g_free);
  text = ps_compare_export_format_p_value (0.0289);
  g_assert_cmpstr (text, ==, "0.029");
  g_clear_pointer (&text, g_free);

  /* Grouped as the locale groups digits, where a locale that groups is
   * installed */
  {
    g_autofree char *numeric = g_strdup (setlocale (LC_NUMERIC, NULL));

    if (setlocale (LC_NUMERIC, "en_US.UTF-8") != NULL)
      {
        text = ps_compare_export_format_value (1234567.4, "ticks", FALSE);
        g_assert_cmpstr (text, ==, "1,234,567 ticks");
        g_clear_pointer (&text, g_free);
      }
    else
      g_test_message ("No en_US.UTF-8 locale: digit grouping not checked");
    setlocale (LC_NUMERIC, numeric);
  }
}

/* Two RTL logs with call trees: f takes 30 % of A and 60 % of B, g 40 %
 * and 20 % (times in ms, main 100 ms in both) */
static const char rtl_a[] =
  "opening log file 1246545872.402817 seconds past January 1st 1970\n"
  "corresponding to 0 ms after timer start\n"
  "Process id is 4711\n"
  "000000 1 { demo (ab000001) ::main\n"
  "000010 1 { demo (ab000001) ::f\n"
  "000040 1 } demo (ab000001) ::f\n"
  "000050 1 { demo (ab000001) ::g\n"
  "000090 1 } demo (ab000001) ::g\n"
  "000100 1 } demo (ab000001) ::main\n"
  "closing log file at 000101\n";
static const char rtl_b[] =
  "opening log file 1246545972.402817 seconds past January 1st 1970\n"
  "corresponding to 0 ms after timer start\n"
  "Process id is 4712\n"
  "000000 1 { demo (ab000001) ::main\n"
  "000010 1 { demo (ab000001) ::f\n"
  "000070 1 } demo (ab000001) ::f\n"
  "000075 1 { demo (ab000001) ::g\n"
  "000095 1 } demo (ab000001) ::g\n"
  "000100 1 } demo (ab000001) ::main\n"
  "closing log file at 000101\n";

static PsComparePage *
open_rtl_comparison (Fixture *fixture)
{
  g_autoptr(GFile) file_a = write_temp_file (fixture, "calls_4711.log", rtl_a, -1);
  g_autoptr(GFile) file_b = write_temp_file (fixture, "calls_4712.log", rtl_b, -1);
  PsComparePage *page = ps_window_compare_files (fixture->window, file_a, file_b);

  g_assert_true (PS_IS_COMPARE_PAGE (page));
  g_assert_true (iterate_until (page_is_ready, page));
  iterate_for (50);
  return page;
}

/* The path main → function, with the names as the tree spells them (the
 * function part, after the author) */
static void
frame_path (PsFlameGraph *flame_graph,
            const char   *function,
            const char  **path)
{
  PsCallTree *tree = ps_flame_graph_get_tree (flame_graph);
  g_autofree char *suffix = g_strconcat ("::", function, NULL);

  path[0] = path[1] = path[2] = NULL;
  for (guint32 i = 0; i < ps_call_tree_get_n_functions (tree); i++)
    {
      const char *name = ps_call_tree_get_function_name (tree, i);

      if (g_str_has_suffix (name, "::main"))
        path[0] = name;
      else if (g_str_has_suffix (name, suffix))
        path[1] = name;
    }
  g_assert_nonnull (path[0]);
  g_assert_nonnull (path[1]);
}

static void
test_flame_graph (Fixture       *fixture,
                  gconstpointer  data)
{
  PsComparePage *page = open_rtl_comparison (fixture);
  PsFlameGraph *flame_graph = ps_compare_page_get_flame_graph (page);
  PsCallTreeDiff *baseline;
  const char *path_f[3], *path_g[3];
  g_autofree char *f_tip = NULL;
  g_autofree char *g_tip = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  /* Both runs have call trees: the page offers the flame graph */
  g_assert_true (ps_compare_page_has_flame_graph (page));
  g_assert_cmpstr (ps_compare_page_get_visible_view (page), ==, "table");
  ps_compare_page_show_view (page, "flame");
  iterate_for (100);
  g_assert_cmpstr (ps_compare_page_get_visible_view (page), ==, "flame");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (flame_graph)));

  /* B's tree, coloured against A's */
  baseline = ps_flame_graph_get_baseline (flame_graph);
  g_assert_nonnull (baseline);
  g_assert_true (ps_flame_graph_get_tree (flame_graph) == ps_call_tree_diff_get_b (baseline));
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_a_nodes (baseline), ==, 0);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_b_nodes (baseline), ==, 0);

  /* f: 30 ms of 100 in A, 60 of 100 in B; g: 40 and 20 */
  frame_path (flame_graph, "f", path_f);
  frame_path (flame_graph, "g", path_g);
  f_tip = _ps_flame_graph_get_tooltip (flame_graph, path_f);
  g_assert_nonnull (strstr (f_tip, "Exclusive: A 30.00 % → B 60.00 %, +30.00 pp (×2.00)"));
  g_tip = _ps_flame_graph_get_tooltip (flame_graph, path_g);
  g_assert_nonnull (strstr (g_tip, "Exclusive: A 40.00 % → B 20.00 %, −20.00 pp (×0.50)"));

  /* The frames are drawn in the diff colours: f red, g blue */
  texture = render_widget (GTK_WIDGET (flame_graph));
  {
    int width = gtk_widget_get_width (GTK_WIDGET (flame_graph));
    int top = _ps_flame_graph_get_draw_top (flame_graph);
    gsize stride = gdk_texture_get_width (texture) * 4;
    g_autofree guchar *pixels = g_malloc (stride * gdk_texture_get_height (texture));
    const char **paths[2] = { path_f, path_g };
    guint red[2], blue[2];

    gdk_texture_download (texture, pixels, stride);
    for (guint i = 0; i < 2; i++)
      {
        double x, y, frame_width, frame_height;
        guint32 pixel;

        g_assert_true (_ps_flame_graph_get_frame (flame_graph, width, paths[i], &x, &y, &frame_width, &frame_height));
        /* Near the frame's right end, clear of its label and focus ring */
        pixel = *(const guint32 *)(pixels + (gsize)(top + y + 3) * stride + (gsize)(x + frame_width - 4) * 4);
        red[i] = (pixel >> 16) & 0xff;
        blue[i] = pixel & 0xff;
      }
    g_assert_cmpuint (red[0], >, blue[0] + 40);
    g_assert_cmpuint (blue[1], >, red[1] + 40);
  }

  maybe_save_screenshot (fixture, "compare-flame");
}

static void
test_no_flame_graph_without_trees (Fixture       *fixture,
                                   gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);

  /* CE logs have markers, no calls */
  g_assert_false (ps_compare_page_has_flame_graph (page));
  g_assert_null (ps_flame_graph_get_baseline (ps_compare_page_get_flame_graph (page)));
  g_assert_cmpstr (ps_compare_page_get_visible_view (page), ==, "table");
}

/* A CE marker row selects that marker in both runs' marker tables, under
 * its name in each run (renamed rows included) */
static const char *
selected_marker (PsComparePage *page,
                 guint          side)
{
  PsCeView *view = ps_run_page_get_ce_view (ps_compare_page_get_run_page (page, side));
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_ce_view_get_marker_view (view));
  GtkTreeListRow *tree_row = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
  g_autoptr(PsMarkerRow) row = NULL;

  if (tree_row == NULL)
    return NULL;
  row = gtk_tree_list_row_get_item (tree_row);
  return ps_marker_row_get_name (row);
}

static void
test_select_marker_in_both (Fixture       *fixture,
                            gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page));
  guint position;

  find_shown (page, "Load", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_cmpstr (selected_marker (page, 0), ==, "Load");
  g_assert_cmpstr (selected_marker (page, 1), ==, "Load");

  find_shown (page, "Save", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_cmpstr (selected_marker (page, 0), ==, "Save");
  g_assert_cmpstr (selected_marker (page, 1), ==, "Save");

  /* Only in A: B keeps what it had */
  find_shown (page, "OnlyA", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_cmpstr (selected_marker (page, 0), ==, "OnlyA");
  g_assert_cmpstr (selected_marker (page, 1), ==, "Save");
}

static guint64
histogram_count (const PsHistogram *histogram)
{
  guint64 count = 0;

  for (guint i = 0; i < histogram->n_bins; i++)
    count += histogram->bins[i].count;
  return count;
}

static void
test_histogram_overlay (Fixture       *fixture,
                        gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page));
  PsHistogramView *view = ps_compare_page_get_histogram_view (page);
  const PsHistogram *bars, *outline;
  const PsRunDiffRow *open;
  guint position;

  g_assert_false (ps_compare_page_get_histogram_visible (page));

  open = find_shown (page, "Open", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_true (ps_compare_page_get_histogram_visible (page));

  /* B's values as bars, A's as the outline, on the same bins */
  bars = ps_histogram_view_get_histogram (view);
  outline = ps_histogram_view_get_overlay (view);
  g_assert_nonnull (bars);
  g_assert_nonnull (outline);
  g_assert_cmpuint (histogram_count (bars), ==, open->b.count);
  g_assert_cmpuint (histogram_count (outline), ==, open->a.count);
  g_assert_cmpuint (outline->n_bins, ==, bars->n_bins);
  for (guint i = 0; i < bars->n_bins; i++)
    {
      g_assert_cmpfloat (outline->bins[i].lower, ==, bars->bins[i].lower);
      g_assert_cmpfloat (outline->bins[i].upper, ==, bars->bins[i].upper);
    }
  /* A's fastest Open (10 ms) is in the first bin; its slowest is B's range */
  g_assert_cmpfloat (bars->bins[0].lower, <=, MIN (open->a.min, open->b.min));
  g_assert_cmpfloat (bars->bins[bars->n_bins - 1].upper, >=, MAX (open->a.max, open->b.max));
  g_assert_cmpfloat_with_epsilon (bars->median, open->b.median, 1e-12);
  g_assert_cmpfloat_with_epsilon (outline->median, open->a.median, 1e-12);
  g_assert_true (widget_is_drawn (view));

  /* A row of one run only has the bars, or the outline, alone */
  find_shown (page, "OnlyA", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_true (ps_compare_page_get_histogram_visible (page));
  g_assert_nonnull (ps_histogram_view_get_overlay (view));
  g_assert_cmpuint (histogram_count (ps_histogram_view_get_overlay (view)), ==,
                    find_shown (page, "OnlyA", NULL)->a.count);

  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  iterate_for (50);
  g_assert_false (ps_compare_page_get_histogram_visible (page));

  maybe_save_screenshot (fixture, "compare-histogram");
}

/* The name of the row selected in the table, NULL for none */
static const char *
selected_row_name (PsComparePage *page)
{
  PsCompareRow *item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page)));

  return item != NULL ? ps_compare_row_get_row (item)->name : NULL;
}

/* A filter keeps the selected row selected where it shows it, and the
 * runs and the histogram keep following it; a filter that hides it
 * leaves none selected until it shows it again */
static void
test_filter_keeps_selection (Fixture       *fixture,
                             gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page));
  PsHistogramView *view = ps_compare_page_get_histogram_view (page);
  const PsRunDiffRow *open;
  guint position;

  open = find_shown (page, "Open", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_cmpstr (selected_row_name (page), ==, "Open");

  for (guint round = 0; round < 2; round++)
    {
      /* Open is a regression: Regressions shows it, then All */
      ps_compare_page_set_filter (page, round == 0 ? PS_COMPARE_FILTER_REGRESSIONS : PS_COMPARE_FILTER_CHANGED);
      iterate_for (50);
      g_assert_cmpstr (selected_row_name (page), ==, "Open");
      ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ALL);
      iterate_for (50);
      g_assert_cmpstr (selected_row_name (page), ==, "Open");
      find_shown (page, "Open", &position);
      g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, position);
      g_assert_cmpstr (selected_marker (page, 0), ==, "Open");
      g_assert_cmpstr (selected_marker (page, 1), ==, "Open");
      g_assert_true (ps_compare_page_get_histogram_visible (page));
      g_assert_cmpuint (histogram_count (ps_histogram_view_get_histogram (view)), ==, open->b.count);
    }

  /* A row selected under a filter stays selected in All */
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ONE_SIDE);
  find_shown (page, "OnlyB", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ALL);
  iterate_for (50);
  g_assert_cmpstr (selected_row_name (page), ==, "OnlyB");
  find_shown (page, "OnlyB", &position);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, position);
  g_assert_cmpuint (histogram_count (ps_histogram_view_get_histogram (view)), ==, find_shown (page, "OnlyB", NULL)->b.count);
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_REGRESSIONS);
  find_shown (page, "Open", &position);
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ALL);
  iterate_for (50);
  g_assert_cmpstr (selected_row_name (page), ==, "Open");

  /* Improvements hides it: nothing selected, no histogram */
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_IMPROVEMENTS);
  iterate_for (50);
  g_assert_null (selected_row_name (page));
  g_assert_false (ps_compare_page_get_histogram_visible (page));
  /* All shows it again, selected */
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ALL);
  iterate_for (50);
  g_assert_cmpstr (selected_row_name (page), ==, "Open");
  g_assert_true (ps_compare_page_get_histogram_visible (page));
  g_assert_cmpstr (selected_marker (page, 1), ==, "Open");

  /* The search too */
  ps_compare_page_set_search (page, "op");
  iterate_for (50);
  g_assert_cmpstr (selected_row_name (page), ==, "Open");
  ps_compare_page_set_search (page, NULL);
  iterate_for (50);
  g_assert_cmpstr (selected_row_name (page), ==, "Open");

  /* A row the user unselects stays unselected */
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_REGRESSIONS);
  ps_compare_page_set_filter (page, PS_COMPARE_FILTER_ALL);
  iterate_for (50);
  g_assert_null (selected_row_name (page));
  g_assert_false (ps_compare_page_get_histogram_visible (page));
}

/* Two CE logs with CPU and memory monitor rows: A's CPU 10, 20, 30 %,
 * B's 40, 50, 60, 70 %; A's memory 1, 2 MiB, B's 3, 4, 5 MiB */
static const char ce_monitor_a[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [CPU: app] AS [103] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [MEM: app] AS [102] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [103] CPU [10]\r\n"
  "## PERF ## APP [app] EVT [103] CPU [20]\r\n"
  "## PERF ## APP [app] EVT [103] CPU [30]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [1048576]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [2097152]\r\n";
static const char ce_monitor_b[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x2]\r\n"
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [CPU: app] AS [103] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [MEM: app] AS [102] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [103] CPU [40]\r\n"
  "## PERF ## APP [app] EVT [103] CPU [50]\r\n"
  "## PERF ## APP [app] EVT [103] CPU [60]\r\n"
  "## PERF ## APP [app] EVT [103] CPU [70]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [3145728]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [4194304]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [5242880]\r\n";

/* Two CE logs of whole milliseconds (1000 ticks per second): Same takes
 * 140 ms in both, Slower 5 and 6 ms in A, 7 and 8 ms in B; memory 1 and
 * 2 MiB in A, 3 and 4 in B */
static const char ce_whole_ms_a[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [Same] AS [0] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Slower] AS [1] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [MEM: app] AS [102] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [140]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [140]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [5]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [6]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [1048576]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [2097152]\r\n";
static const char ce_whole_ms_b[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x2]\r\n"
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [Same] AS [0] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Slower] AS [1] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [MEM: app] AS [102] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [140]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [140]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [7]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [8]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [3145728]\r\n"
  "## PERF ## APP [app] EVT [102] MEM [4194304]\r\n";

static void
assert_shown_cell (PsComparePage *page,
                   const char    *name,
                   const char    *column_id,
                   const char    *expected)
{
  g_autofree char *cell = NULL;
  guint position;

  g_assert_nonnull (find_shown (page, name, &position));
  cell = ps_compare_page_get_cell_text (page, position, column_id);
  g_assert_cmpstr (cell, ==, expected);
}

/* The table's values have the digits of the window's other tables, not
 * the trailing zeros of the exports ("140 ms", not "140.000 ms"), and no
 * change is in the unit of its row's means ("0 ms", not "0 s") */
static void
test_value_digits (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GFile) file_a = write_temp_file (fixture, "whole-a.log", ce_whole_ms_a, -1);
  g_autoptr(GFile) file_b = write_temp_file (fixture, "whole-b.log", ce_whole_ms_b, -1);
  PsComparePage *page = ps_window_compare_files (fixture->window, file_a, file_b);

  g_assert_true (iterate_until (page_is_ready, page));
  iterate_for (50);

  assert_shown_cell (page, "Same", "a-mean", "140 ms");
  assert_shown_cell (page, "Same", "b-mean", "140 ms");
  assert_shown_cell (page, "Same", "a-total", "280 ms");
  assert_shown_cell (page, "Same", "delta-mean", "0 ms");
  assert_shown_cell (page, "Slower", "a-mean", "5.50 ms");
  assert_shown_cell (page, "Slower", "b-mean", "7.50 ms");
  assert_shown_cell (page, "Slower", "a-median", "5 ms");
  assert_shown_cell (page, "Slower", "a-total", "11 ms");
  assert_shown_cell (page, "Slower", "delta-mean", "+2 ms");
  assert_shown_cell (page, "MEM: app", "a-mean", "1.50 MiB");
  assert_shown_cell (page, "MEM: app", "delta-mean", "+2 MiB");
}

/* The shown row of that kind */
static const PsRunDiffRow *
find_shown_kind (PsComparePage *page,
                 const char    *kind,
                 guint         *position)
{
  GListModel *rows = ps_compare_page_get_rows (page);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);

      if (g_strcmp0 (ps_compare_row_get_row (item)->kind, kind) == 0)
        {
          *position = i;
          return ps_compare_row_get_row (item);
        }
    }
  return NULL;
}

/* Rows that are not durations get their histograms too, on an axis in
 * their unit */
static void
test_histogram_units (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GFile) file_a = write_temp_file (fixture, "monitor-a.log", ce_monitor_a, -1);
  g_autoptr(GFile) file_b = write_temp_file (fixture, "monitor-b.log", ce_monitor_b, -1);
  PsComparePage *page = ps_window_compare_files (fixture->window, file_a, file_b);
  GtkSingleSelection *selection;
  PsHistogramView *view = ps_compare_page_get_histogram_view (page);
  const PsHistogram *bars, *outline;
  const PsRunDiffRow *cpu, *memory;
  g_autofree char *x_title = NULL;
  guint position;

  g_assert_true (iterate_until (page_is_ready, page));
  iterate_for (50);
  selection = GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page));

  cpu = find_shown_kind (page, "cpu", &position);
  g_assert_nonnull (cpu);
  g_assert_cmpstr (cpu->unit, ==, "percent");
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_true (ps_compare_page_get_histogram_visible (page));
  g_assert_cmpstr (ps_histogram_view_get_unit (view), ==, "percent");
  bars = ps_histogram_view_get_histogram (view);
  outline = ps_histogram_view_get_overlay (view);
  g_assert_nonnull (bars);
  g_assert_nonnull (outline);
  g_assert_cmpuint (histogram_count (bars), ==, 4);
  g_assert_cmpuint (histogram_count (outline), ==, 3);
  g_assert_cmpfloat (bars->bins[0].lower, <=, 10);
  g_assert_cmpfloat (bars->bins[bars->n_bins - 1].upper, >=, 70);
  g_assert_cmpfloat_with_epsilon (bars->median, cpu->b.median, 1e-9);
  g_assert_cmpfloat_with_epsilon (outline->median, 20, 1e-9);
  g_assert_cmpfloat_with_epsilon (cpu->b.mean, 55, 1e-9);
  x_title = ps_histogram_view_dup_axis_title (view, GTK_ORIENTATION_HORIZONTAL);
  g_assert_cmpstr (x_title, ==, "value (%)");
  g_clear_pointer (&x_title, g_free);
  g_assert_true (widget_is_drawn (view));

  memory = find_shown_kind (page, "memory", &position);
  g_assert_nonnull (memory);
  g_assert_cmpstr (memory->unit, ==, "bytes");
  gtk_single_selection_set_selected (selection, position);
  iterate_for (50);
  g_assert_true (ps_compare_page_get_histogram_visible (page));
  bars = ps_histogram_view_get_histogram (view);
  outline = ps_histogram_view_get_overlay (view);
  g_assert_cmpuint (histogram_count (bars), ==, 3);
  g_assert_cmpuint (histogram_count (outline), ==, 2);
  g_assert_cmpfloat (bars->bins[bars->n_bins - 1].upper, >=, 5242880);
  /* Megabytes are shown in MiB, not in millions of bytes */
  x_title = ps_histogram_view_dup_axis_title (view, GTK_ORIENTATION_HORIZONTAL);
  g_assert_cmpstr (x_title, ==, "value (MiB)");
  g_clear_pointer (&x_title, g_free);
  ps_histogram_view_set_by_total (view, TRUE);
  x_title = ps_histogram_view_dup_axis_title (view, GTK_ORIENTATION_VERTICAL);
  g_assert_cmpstr (x_title, ==, "total (MiB)");
  ps_histogram_view_set_by_total (view, FALSE);
  g_assert_true (widget_is_drawn (view));

  maybe_save_screenshot (fixture, "compare-histogram-units");
}

/* Two RTL logs with the same messages at other times: "ready" at 30 ms
 * in A and 55 ms in B (and again at 80 ms: the first one counts) */
static const char rtl_marks_a[] =
  "opening log file 1246545872.402817 seconds past January 1st 1970\n"
  "corresponding to 0 ms after timer start\n"
  "Process id is 4721\n"
  "000000 1 { demo (ab000001) ::main\n"
  "000010 1 | demo (ab000001) ::main : starting\n"
  "000030 1 | demo (ab000001) ::main : ready\n"
  "000100 1 } demo (ab000001) ::main\n"
  "closing log file at 000101\n";
static const char rtl_marks_b[] =
  "opening log file 1246545972.402817 seconds past January 1st 1970\n"
  "corresponding to 0 ms after timer start\n"
  "Process id is 4722\n"
  "000000 1 { demo (ab000001) ::main\n"
  "000020 1 | demo (ab000001) ::main : starting\n"
  "000055 1 | demo (ab000001) ::main : ready\n"
  "000080 1 | demo (ab000001) ::main : ready\n"
  "000120 1 } demo (ab000001) ::main\n"
  "closing log file at 000121\n";

static double
fraction_of (PsSession *session,
             gint64     time_ns)
{
  gint64 begin, end;

  ps_session_get_visible_range (session, &begin, &end);
  return (double)(time_ns - begin) / (double)(end - begin);
}

static void
test_align_at_mark (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GFile) file_a = write_temp_file (fixture, "marks_4721.log", rtl_marks_a, -1);
  g_autoptr(GFile) file_b = write_temp_file (fixture, "marks_4722.log", rtl_marks_b, -1);
  PsComparePage *page = ps_window_compare_files (fixture->window, file_a, file_b);
  GtkDropDown *dropdown_a = ps_compare_page_get_align_dropdown (page, 0);
  GtkDropDown *dropdown_b = ps_compare_page_get_align_dropdown (page, 1);
  PsSession *session_a, *session_b;
  gint64 a_begin, a_end, b_begin, b_end;

  g_assert_true (iterate_until (page_is_ready, page));
  g_assert_true (iterate_until (timelines_are_indexed, page));
  iterate_for (100);
  session_a = ps_run_page_get_session (ps_compare_page_get_run_page (page, 0));
  session_b = ps_run_page_get_session (ps_compare_page_get_run_page (page, 1));

  /* The run's start, then each text once, with its first time */
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dropdown_a)));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dropdown_b)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown_a)), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown_b)), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (dropdown_a)), 0), ==,
                   "Run start");
  g_assert_nonnull (strstr (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (dropdown_b)), 2),
                            "ready"));
  g_assert_nonnull (strstr (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (dropdown_b)), 2),
                            "55"));
  g_assert_cmpfloat (ps_compare_page_get_offset_ms (page), ==, 0);

  g_assert_true (ps_compare_page_align_at (page, 0, "ready"));
  /* One side chosen: A's mark against B's start */
  g_assert_cmpfloat (ps_compare_page_get_offset_ms (page), ==, -30);
  g_assert_true (ps_compare_page_align_at (page, 1, "ready"));
  iterate_for (50);
  g_assert_false (ps_compare_page_align_at (page, 1, "no such message"));
  /* B's "ready" 25 ms after A's: B's axis shifted by exactly that, in
   * the spin button too */
  g_assert_cmpfloat (ps_compare_page_get_offset_ms (page), ==, 25);
  ps_session_get_visible_range (session_a, &a_begin, &a_end);
  ps_session_get_visible_range (session_b, &b_begin, &b_end);
  g_assert_cmpint (b_begin, ==, a_begin + 25 * 1000000);
  g_assert_cmpint (b_end, ==, a_end + 25 * 1000000);
  g_assert_cmpfloat_with_epsilon (fraction_of (session_a, 30 * 1000000), fraction_of (session_b, 55 * 1000000), 1e-12);

  /* Zooming keeps them together */
  ps_timeline_view_zoom (ps_run_page_get_timeline_view (ps_compare_page_get_run_page (page, 0)), 3.0, 40);
  iterate_for (50);
  g_assert_cmpfloat_with_epsilon (fraction_of (session_a, 30 * 1000000), fraction_of (session_b, 55 * 1000000), 1e-12);

  /* The offset stays the user's to adjust */
  ps_compare_page_set_offset_ms (page, 26.5);
  iterate_for (20);
  ps_session_get_visible_range (session_a, &a_begin, &a_end);
  ps_session_get_visible_range (session_b, &b_begin, &b_end);
  g_assert_cmpint (b_begin, ==, a_begin + 26500000);

  /* Starting on each other again */
  g_assert_true (ps_compare_page_align_at (page, 0, NULL));
  g_assert_true (ps_compare_page_align_at (page, 1, NULL));
  g_assert_cmpfloat (ps_compare_page_get_offset_ms (page), ==, 0);
}

/* CE logs have no marks: nothing to align at but the start, and the
 * dropdowns say why */
static void
test_align_without_marks (Fixture       *fixture,
                          gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);

  for (guint side = 0; side < 2; side++)
    {
      GtkDropDown *dropdown = ps_compare_page_get_align_dropdown (page, side);

      g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dropdown)));
      g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (dropdown)), ==,
                       "Neither run has marks (messages, exec or fork records) to align at");
      g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 1);
    }
  g_assert_false (ps_compare_page_align_at (page, 0, "anything"));
}

static void
test_match_with (Fixture       *fixture,
                 gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page));
  guint n_rows = g_list_model_get_n_items (ps_compare_page_get_rows (page));
  const PsRunDiffRow *renamed;
  guint position;
  g_autoptr(GHashTable) renames = g_hash_table_new (g_str_hash, g_str_equal);
  PsRunDiffOptions options;
  g_autoptr(PsRunDiff) expected = NULL;
  g_autofree char *cell = NULL;

  /* Offered for a row of A only, not for a matched one */
  find_shown (page, "Open", &position);
  gtk_single_selection_set_selected (selection, position);
  g_assert_false (ps_compare_page_can_match (page));
  find_shown (page, "OldName", &position);
  gtk_single_selection_set_selected (selection, position);
  g_assert_true (ps_compare_page_can_match (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "compare.match-with", NULL));
  iterate_for (50);
  /* The dialog lists B's rows of B only; it is closed here and the pair
   * matched as its Match button does */
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    guint n_dialogs = 0;

    for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
      {
        g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i - 1);

        if (gtk_window_get_transient_for (window) == GTK_WINDOW (fixture->window))
          {
            g_assert_cmpstr (gtk_window_get_title (window), ==, "Match With");
            gtk_window_destroy (window);
            n_dialogs++;
          }
      }
    g_assert_cmpuint (n_dialogs, ==, 1);
  }

  ps_compare_page_match_rows (page, "OldName", "NewName");
  g_assert_false (ps_compare_page_is_ready (page));
  g_assert_true (iterate_until (page_is_ready, page));
  iterate_for (50);

  /* The pair is one row, with both runs' values */
  g_assert_cmpuint (g_list_model_get_n_items (ps_compare_page_get_rows (page)), ==, n_rows - 1);
  g_assert_null (find_shown (page, "OldName", NULL));
  renamed = find_shown (page, "NewName", &position);
  g_assert_nonnull (renamed);
  g_assert_true (renamed->has_a && renamed->has_b);
  g_assert_cmpstr (renamed->a_name, ==, "OldName");
  cell = ps_compare_page_get_cell_text (page, position, "name");
  g_assert_cmpstr (cell, ==, "NewName (was OldName)");

  /* The numbers the engine gives with the same rename map */
  g_hash_table_insert (renames, "OldName", "NewName");
  ps_run_diff_options_init (&options);
  options.renames = renames;
  expected = ps_run_diff_new (ps_run_page_get_store (ps_compare_page_get_run_page (page, 0)),
                              ps_run_page_get_store (ps_compare_page_get_run_page (page, 1)),
                              &options);
  assert_same_row (renamed, ps_run_diff_find_row (expected, "NewName", NULL));
  g_assert_cmpuint (renamed->a.count, >, 0);

  /* Undone: two rows again */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "compare.clear-matches", NULL));
  g_assert_true (iterate_until (page_is_ready, page));
  g_assert_cmpuint (g_list_model_get_n_items (ps_compare_page_get_rows (page)), ==, n_rows);
  g_assert_nonnull (find_shown (page, "OldName", NULL));
}

/* The item of the window's recent menu with that action, and its target */
static GVariant *
find_recent_target (PsWindow   *window,
                    const char *action)
{
  GMenuModel *menu = G_MENU_MODEL (window->recent_menu);

  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      for (int j = 0; section != NULL && j < g_menu_model_get_n_items (section); j++)
        {
          g_autofree char *item_action = NULL;

          if (g_menu_model_get_item_attribute (section, j, G_MENU_ATTRIBUTE_ACTION, "s", &item_action)
              && g_strcmp0 (item_action, action) == 0)
            return g_menu_model_get_item_attribute_value (section, j, G_MENU_ATTRIBUTE_TARGET, NULL);
        }
    }
  return NULL;
}

static void
test_recent_comparison (Fixture       *fixture,
                        gconstpointer  data)
{
  PsComparePage *page = open_comparison (fixture);
  g_autofree char *uri_a = g_file_get_uri (ps_compare_page_get_file (page, 0));
  g_autofree char *uri_b = g_file_get_uri (ps_compare_page_get_file (page, 1));
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GVariant) pairs = NULL;
  g_autoptr(GVariant) target = NULL;
  const char *target_a, *target_b;
  GtkWidget *reopened;

  /* Remembered as a pair, newest first */
  pairs = g_settings_get_value (settings, "recent-comparisons");
  g_assert_cmpuint (g_variant_n_children (pairs), ==, 1);
  {
    const char *pair_a, *pair_b;

    g_variant_get_child (pairs, 0, "(&s&s)", &pair_a, &pair_b);
    g_assert_cmpstr (pair_a, ==, uri_a);
    g_assert_cmpstr (pair_b, ==, uri_b);
  }

  /* Open Recent lists it under Comparisons */
  _ps_window_update_recent_menu (fixture->window);
  target = find_recent_target (fixture->window, "win.compare-uris");
  g_assert_nonnull (target);
  g_variant_get (target, "(&s&s)", &target_a, &target_b);
  g_assert_cmpstr (target_a, ==, uri_a);
  g_assert_cmpstr (target_b, ==, uri_b);

  /* Choosing it opens the comparison again */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (fixture->window), "win.compare-uris", target));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
  reopened = _ps_window_get_nth_child (fixture->window, 1);
  g_assert_true (PS_IS_COMPARE_PAGE (reopened));
  g_assert_true (g_file_equal (ps_compare_page_get_file (PS_COMPARE_PAGE (reopened), 0),
                               ps_compare_page_get_file (page, 0)));
  g_assert_true (g_file_equal (ps_compare_page_get_file (PS_COMPARE_PAGE (reopened), 1),
                               ps_compare_page_get_file (page, 1)));
  g_assert_true (iterate_until (page_is_ready, reopened));

  /* The same pair once, still first */
  g_clear_pointer (&pairs, g_variant_unref);
  pairs = g_settings_get_value (settings, "recent-comparisons");
  g_assert_cmpuint (g_variant_n_children (pairs), ==, 1);
}

/* --compare A B with Perfscope running: the process started sends the
 * flag with the files (platform data), the running one opens a comparison */
static void
test_remote_compare (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(PsApplication) launcher = ps_application_new ("io.github.perfscope.Perfscope.Launcher",
                                                          G_APPLICATION_HANDLES_OPEN);
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  GVariantBuilder builder;
  g_autoptr(GVariant) platform_data = NULL;
  gboolean compare = FALSE;
  g_autofree char *path_a = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-a.log", NULL);
  g_autofree char *path_b = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-b.log", NULL);
  GFile *files[2];
  GtkWidget *child;

  /* The launching side */
  g_variant_dict_insert (options, "compare", "b", TRUE);
  g_assert_cmpint (G_APPLICATION_GET_CLASS (launcher)->handle_local_options (G_APPLICATION (launcher), options), ==, -1);
  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  G_APPLICATION_GET_CLASS (launcher)->add_platform_data (G_APPLICATION (launcher), &builder);
  platform_data = g_variant_ref_sink (g_variant_builder_end (&builder));
  g_assert_true (g_variant_lookup (platform_data, "perfscope-compare", "b", &compare));
  g_assert_true (compare);

  /* The running side: one comparison, not two tabs */
  files[0] = g_file_new_for_path (path_a);
  files[1] = g_file_new_for_path (path_b);
  G_APPLICATION_GET_CLASS (fixture->app)->before_emit (G_APPLICATION (fixture->app), platform_data);
  /* What the running instance does with the files that arrive */
  g_signal_emit_by_name (fixture->app, "open", files, 2, "");
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  child = _ps_window_get_nth_child (fixture->window, 0);
  g_assert_true (PS_IS_COMPARE_PAGE (child));
  g_assert_true (iterate_until (page_is_ready, child));

  /* Without the flag, files open one by one */
  {
    g_autoptr(GVariant) plain = g_variant_ref_sink (g_variant_new ("a{sv}", NULL));

    G_APPLICATION_GET_CLASS (fixture->app)->before_emit (G_APPLICATION (fixture->app), plain);
    /* What the running instance does with the files that arrive */
  g_signal_emit_by_name (fixture->app, "open", files, 2, "");
    g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 3);
    g_assert_true (PS_IS_RUN_PAGE (_ps_window_get_nth_child (fixture->window, 1)));
  }
  g_object_unref (files[0]);
  g_object_unref (files[1]);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/compare/export-writers", test_export_writers);
  ADD_TEST ("/compare/table", test_table);
  ADD_TEST ("/compare/sort-and-filter", test_sort_and_filter);
  ADD_TEST ("/compare/empty-filter", test_empty_filter);
  ADD_TEST ("/compare/filter-keeps-selection", test_filter_keeps_selection);
  ADD_TEST ("/compare/value-digits", test_value_digits);
  ADD_TEST ("/compare/zoom-follows", test_zoom_follows);
  ADD_TEST ("/compare/both-runs-whole", test_both_runs_whole);
  ADD_TEST ("/compare/export", test_export);
  ADD_TEST ("/compare/flame-graph", test_flame_graph);
  ADD_TEST ("/compare/no-flame-graph", test_no_flame_graph_without_trees);
  ADD_TEST ("/compare/histogram-overlay", test_histogram_overlay);
  ADD_TEST ("/compare/select-marker-in-both", test_select_marker_in_both);
  ADD_TEST ("/compare/histogram-units", test_histogram_units);
  ADD_TEST ("/compare/align-at-mark", test_align_at_mark);
  ADD_TEST ("/compare/align-without-marks", test_align_without_marks);
  ADD_TEST ("/compare/match-with", test_match_with);
  ADD_TEST ("/compare/recent", test_recent_comparison);
  ADD_TEST ("/compare/remote", test_remote_compare);

  return gui_test_run ();
}

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
 * Markdown by value. Issue 8, "Tests".
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-compare-export.h"
#include "ps-compare-page-private.h"
#include "ps-compare-row.h"
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
  g_assert_cmpstr (cell, ==, "11.500 ms");
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

  /* With B 2.5 ms later, B's view is A's shifted by the offset */
  ps_compare_page_set_offset_ms (page, 2.5);
  iterate_for (50);
  ps_session_get_visible_range (session_a, &a_begin, &a_end);
  ps_session_get_visible_range (session_b, &b_begin, &b_end);
  g_assert_cmpint (b_begin, ==, a_begin + 2500000);
  g_assert_cmpint (b_end, ==, a_end + 2500000);

  /* Stacked: the same runs, one over the other */
  ps_compare_page_set_stacked (page, TRUE);
  iterate_for (100);
  g_assert_true (widget_is_drawn (ps_run_page_get_timeline_view (run_a)));
  g_assert_true (widget_is_drawn (ps_run_page_get_timeline_view (run_b)));
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
                   "b_count,b_mean (s),b_median (s),b_p95 (s),b_total (s),delta_mean (s),ratio_mean,p_value,change");
  fields = g_strsplit (lines[1], ",", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, 19);
  g_assert_cmpstr (fields[0], ==, "Open");
  g_assert_cmpstr (fields[3], ==, "duration");
  g_assert_cmpstr (fields[4], ==, "s");
  g_assert_cmpstr (fields[5], ==, "4");
  g_assert_cmpfloat (g_ascii_strtod (fields[6], NULL), ==, open->a.mean);
  g_assert_cmpfloat (g_ascii_strtod (fields[11], NULL), ==, open->b.mean);
  g_assert_cmpfloat (g_ascii_strtod (fields[16], NULL), ==, open->ratio_mean);
  g_assert_cmpfloat (g_ascii_strtod (fields[17], NULL), ==, open->p_value);
  g_assert_cmpstr (fields[18], ==, "regression");
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

/* The writers alone, on rows made here */
static void
test_export_writers (void)
{
  PsRunDiffRow row = { 0 };
  const PsRunDiffRow *rows[] = { &row };
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autofree char *bytes = NULL;

  row.name = (char *)"Say \"hi\", twice";
  row.kind = "counter";
  row.unit = "bytes";
  row.has_a = TRUE;
  row.a.count = 2;
  row.a.mean = 1536;
  row.a.median = 1536;
  row.a.p95 = 2048;
  row.a.sum = 3072;
  row.delta_mean = row.ratio_mean = row.delta_total = row.ratio_total = row.p_value = NAN;
  row.change = PS_RUN_DIFF_UNCHANGED;

  ps_compare_export_csv (csv, rows, 1);
  g_assert_cmpstr (csv->str, ==,
                   "name,a_name,context,kind,unit,a_count,a_mean (bytes),a_median (bytes),a_p95 (bytes),a_total (bytes),"
                   "b_count,b_mean (bytes),b_median (bytes),b_p95 (bytes),b_total (bytes),delta_mean (bytes),ratio_mean,p_value,change\r\n"
                   "\"Say \"\"hi\"\", twice\",,,counter,bytes,2,1536,1536,2048,3072,,,,,,,,,only-a\r\n");

  bytes = ps_compare_export_format_value (1536, "bytes", FALSE);
  g_assert_cmpstr (bytes, ==, "1.5 KiB");
  g_clear_pointer (&bytes, g_free);
  bytes = ps_compare_export_format_value (-0.0025, "s", TRUE);
  g_assert_cmpstr (bytes, ==, "−2.500 ms");
  g_clear_pointer (&bytes, g_free);
  bytes = ps_compare_export_format_value (1234.4, "ticks", FALSE);
  {
    /* Grouped as the locale groups digits */
    g_autofree char *count = ps_util_format_count (1234);
    g_autofree char *expected = g_strconcat (count, " ticks", NULL);

    g_assert_cmpstr (bytes, ==, expected);
  }
  g_clear_pointer (&bytes, g_free);
  bytes = ps_compare_export_format_p_value (0.0001);
  g_assert_cmpstr (bytes, ==, "< 0.001");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  if (!gui_test_init (&argc, &argv, &data_home))
    return 0;

  g_test_add_func ("/compare/export-writers", test_export_writers);
  ADD_TEST ("/compare/table", test_table);
  ADD_TEST ("/compare/sort-and-filter", test_sort_and_filter);
  ADD_TEST ("/compare/zoom-follows", test_zoom_follows);
  ADD_TEST ("/compare/export", test_export);

  status = g_test_run ();
  gui_test_remove_tree (data_home);
  return status;
}

/* test-trend-page.c — the Trend page and its links (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs written here with known steps: Test=Write 30 % slower from the
 * eighth run on, Test=Seek 15 % faster from the fifth, Test=Read flat.
 * The page lists the rows by their largest change with the change point
 * where it is; a point opens its run, a change point the comparison of
 * the runs on each side; a file that is not a run is listed, not fatal.
 * The same runs appended in one CE log are its sessions; data/demo's
 * fsperf log appended six times, a marker 25 % slower from the fourth
 * on, gives the comparison of the sessions on each side of the change.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-ce-view.h"
#include "ps-compare-page-private.h"
#include "ps-compare-page-sessions.h"
#include "ps-compare-row.h"
#include "ps-run-page-private.h"
#include "ps-timeline-view.h"
#include "ps-trend-loader.h"
#include "ps-trend-page.h"
#include "ps-window-private.h"

#define N_RUNS     12
#define WRITE_STEP 7   /* 0-based: the first slower run of Test=Write */
#define SEEK_STEP  4   /* the first faster run of Test=Seek */
#define N_CALLS    20

#define DEMO_SESSIONS 6
#define DEMO_STEP     3   /* 0-based: the first session where SLOWED is slower */
#define SLOWED        "Test=WriteFile,Bytes=4096,time=%AVG%"

/* One run's log: build 1001 + run, timer at 1 MHz, noise of about 1 % */
static void
append_run_log (GString *text,
                guint    run)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (run + 1);

  g_string_append_printf (text, "## PERF ## OSVERSION=[6.0] BUILD=[%u]\r\n", 1001 + run);
  g_string_append (text, "## PERF ## PLATFORM=[CEPC] CPU=[x86]\r\n"
                         "## PERF ## REGISTERED APP [bench] PROCCESSID [0x1]\r\n"
                         "## PERF ## RESOLUTION [1000000] TICKS PER SECOND\r\n"
                         "## PERF ## REGISTERED MARKER [Test=Write] AS [0] BY APP [bench]\r\n"
                         "## PERF ## REGISTERED MARKER [Test=Read] AS [1] BY APP [bench]\r\n"
                         "## PERF ## REGISTERED MARKER [Test=Seek] AS [2] BY APP [bench]\r\n");
  for (guint i = 0; i < N_CALLS; i++)
    {
      g_string_append_printf (text, "## PERF ## APP [bench] EVT [0] DUR [%.0f]\r\n",
                              (run < WRITE_STEP ? 10000 : 13000) + g_rand_double_range (rand, -100, 100));
      g_string_append_printf (text, "## PERF ## APP [bench] EVT [1] DUR [%.0f]\r\n",
                              5000 + g_rand_double_range (rand, -50, 50));
      g_string_append_printf (text, "## PERF ## APP [bench] EVT [2] DUR [%.0f]\r\n",
                              (run < SEEK_STEP ? 2000 : 1700) + g_rand_double_range (rand, -20, 20));
    }
}

/* The runs as run-1.log … run-12.log in a folder of their own, with a
 * file that is not a run */
static GFile *
write_folder (Fixture *fixture)
{
  g_autofree char *folder = g_build_filename (fixture->tmpdir, "nightly", NULL);

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  for (guint run = 0; run < N_RUNS; run++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *name = g_strdup_printf ("nightly/run-%u.log", run + 1);
      g_autoptr(GFile) file = NULL;

      append_run_log (text, run);
      file = write_temp_file (fixture, name, text->str, (gssize)text->len);
    }
  g_object_unref (write_temp_file (fixture, "nightly/notes.txt", "not a log\n", -1));
  return g_file_new_for_path (folder);
}

static gboolean
trend_is_shown (gpointer data)
{
  PsTrendPage *page = data;

  return !ps_trend_page_is_busy (page) && ps_trend_page_get_trend (page) != NULL
         && g_strcmp0 (ps_trend_page_get_visible_state (page), "view") == 0;
}

/* The trend of files in a tab, read and shown, by file name */
static PsTrendPage *
open_trend (Fixture *fixture,
            GFile   *file)
{
  PsTrendPage *page = ps_window_open_trend (fixture->window, &file, 1);

  g_assert_true (iterate_until (trend_is_shown, page));
  ps_trend_page_set_options (page, PS_TREND_BY_NAME, PS_TREND_VALUE_MEDIAN, 0.05);
  g_assert_true (iterate_until (trend_is_shown, page));
  g_assert_true (iterate_until (widget_is_drawn, ps_trend_page_get_chart (page)));
  return page;
}

static double
cell_number (PsTrendPage *page,
             guint        position,
             guint        column)
{
  g_autofree char *text = ps_trend_page_get_cell_text (page, position, column);
  g_autoptr(GString) ascii = g_string_new (text);

  /* The sign of a decrease is a minus sign, not a hyphen */
  g_string_replace (ascii, "−", "-", 0);
  return g_ascii_strtod (ascii->str, NULL);
}

static void
show_tab (Fixture   *fixture,
          GtkWidget *child)
{
  _ps_window_show_child (fixture->window, child);
  g_assert_true (iterate_until (widget_is_drawn, child));
  iterate_for (50);
}

static gboolean
current_run_page_is_read (gpointer data)
{
  PsRunPage *page = ps_window_get_current_page (data);

  return page != NULL && ps_run_page_is_ready (page);
}

static gboolean
current_is_comparison (gpointer data)
{
  return PS_IS_COMPARE_PAGE (_ps_window_get_current_child (data));
}

static void
assert_file_name (GFile      *file,
                  const char *name)
{
  g_autofree char *base = g_file_get_basename (file);

  g_assert_cmpstr (base, ==, name);
}

/* Clicks the chart where it draws a point of the row, or a change point */
static void
click_point (PsTrendPage *page,
             guint        value_index)
{
  double x, y;

  g_assert_true (ps_trend_chart_get_point_position (ps_trend_page_get_chart (page), value_index, &x, &y));
  ps_trend_chart_click (ps_trend_page_get_chart (page), x + 2, y - 1);
}

static void
click_change_point (PsTrendPage *page,
                    guint        index)
{
  double x, y;

  g_assert_true (ps_trend_chart_get_change_point_position (ps_trend_page_get_chart (page), index, &x, &y));
  /* Above the points, on the line */
  ps_trend_chart_click (ps_trend_page_get_chart (page), x + 1, 30);
}

static void
test_rows_and_links (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GFile) folder = write_folder (fixture);
  PsTrendPage *page = open_trend (fixture, folder);
  const PsTrend *trend = ps_trend_page_get_trend (page);
  const PsTrendRow *write_row;
  const PsChangePoint *point;
  const PsRunSummary *run;
  g_autofree char *name = NULL;
  g_autofree char *runs = NULL;
  PsComparePage *compare;
  GtkListBoxRow *change_row;

  /* Every run, the file that is not one named with its reason */
  g_assert_cmpuint (trend->runs->len, ==, N_RUNS);
  g_assert_nonnull (ps_trend_page_get_problems_text (page));
  g_assert_nonnull (strstr (ps_trend_page_get_problems_text (page), "notes.txt"));

  /* By largest change: Write (+30 %), Seek (−15 %), Read (none) */
  g_assert_cmpuint (ps_trend_page_get_n_rows (page), ==, 3);
  name = ps_trend_page_get_cell_text (page, 0, 0);
  g_assert_cmpstr (name, ==, "Test=Write");
  g_clear_pointer (&name, g_free);
  g_assert_cmpfloat_with_epsilon (cell_number (page, 0, 4), 30.0, 1.0);
  name = ps_trend_page_get_cell_text (page, 1, 0);
  g_assert_cmpstr (name, ==, "Test=Seek");
  g_clear_pointer (&name, g_free);
  g_assert_cmpfloat_with_epsilon (cell_number (page, 1, 4), -15.0, 1.0);
  name = ps_trend_page_get_cell_text (page, 2, 0);
  g_assert_cmpstr (name, ==, "Test=Read");
  g_clear_pointer (&name, g_free);
  name = ps_trend_page_get_cell_text (page, 2, 4);
  g_assert_cmpstr (name, ==, "–");
  runs = ps_trend_page_get_cell_text (page, 0, 3);
  g_assert_cmpstr (runs, ==, "12");

  /* The first row is chosen: one change point, at the eighth run */
  g_assert_cmpuint (ps_trend_page_get_selected_row (page), ==, 0);
  write_row = g_ptr_array_index (trend->rows, 0);
  g_assert_cmpuint (write_row->change_points->len, ==, 1);
  point = &g_array_index (write_row->change_points, PsChangePoint, 0);
  g_assert_cmpuint (point->index, ==, WRITE_STEP);
  g_assert_cmpuint (ps_trend_row_get_run_before (write_row, point), ==, WRITE_STEP - 1);
  run = g_ptr_array_index (trend->runs, point->index);
  g_assert_cmpstr (run->file, ==, "run-8.log");
  g_assert_cmpfloat_with_epsilon (point->relative_change, 0.30, 0.01);

  /* Drawn in the colour of a regression, where the change point is */
  {
    static const GdkRGBA red = { 0.878, 0.106, 0.141, 1.0 };
    g_autoptr(GdkTexture) texture = render_widget (GTK_WIDGET (ps_trend_page_get_chart (page)));
    double x, y;

    g_assert_true (ps_trend_chart_get_change_point_position (ps_trend_page_get_chart (page), 0, &x, &y));
    g_assert_cmpuint (count_pixels_near (texture, (int)x - 2, (int)y - 20, (int)x + 2, (int)y + 20, &red), >, 40);
    /* Between two runs, not on one */
    g_assert_cmpuint (count_pixels_near (texture, (int)x - 40, (int)y - 20, (int)x - 10, (int)y + 20, &red), ==, 0);
  }

  /* The change point's row under the chart says where and how much */
  change_row = gtk_list_box_get_row_at_index (ps_trend_page_get_change_list (page), 0);
  g_assert_nonnull (change_row);
  g_assert_null (gtk_list_box_get_row_at_index (ps_trend_page_get_change_list (page), 1));
  {
    g_autofree char *text = collect_label_text (GTK_WIDGET (change_row));

    g_assert_nonnull (strstr (text, "run-8.log"));
    g_assert_nonnull (strstr (text, "+30."));
  }

  /* Tooltips: a point's run and value, a change point's runs and means */
  {
    PsTrendChart *chart = ps_trend_page_get_chart (page);
    g_autofree char *point_text = NULL;
    g_autofree char *change_text = NULL;
    double x, y;

    g_assert_true (ps_trend_chart_get_point_position (chart, 2, &x, &y));
    point_text = ps_trend_chart_get_tooltip_text (chart, x, y);
    g_assert_nonnull (point_text);
    g_assert_nonnull (strstr (point_text, "Run 3 of 12: run-3.log"));
    {
      g_autofree char *value = ps_trend_format_value (write_row->values[2], write_row->unit);
      g_autofree char *line = g_strdup_printf ("Median: %s", value);

      g_assert_nonnull (strstr (point_text, line));
      g_assert_true (g_str_has_suffix (value, " ms"));
    }
    /* A CE log has no time: the file's, said so */
    g_assert_nonnull (strstr (point_text, "File modified "));
    g_assert_nonnull (strstr (point_text, "Version 6.0, build 1003"));
    g_assert_true (ps_trend_chart_get_change_point_position (chart, 0, &x, &y));
    change_text = ps_trend_chart_get_tooltip_text (chart, x, 30);
    g_assert_nonnull (change_text);
    g_assert_nonnull (strstr (change_text, "Change between run-7.log and run-8.log"));
    g_assert_nonnull (strstr (change_text, "worse"));
    g_assert_null (ps_trend_chart_get_tooltip_text (chart, 1, 1));
  }

  /* A point opens its run */
  click_point (page, 2);
  g_assert_true (iterate_until (current_run_page_is_read, fixture->window));
  assert_file_name (ps_run_page_get_file (ps_window_get_current_page (fixture->window)), "run-3.log");

  /* The change point compares the run before with the run after */
  show_tab (fixture, GTK_WIDGET (page));
  click_change_point (page, 0);
  g_assert_true (iterate_until (current_is_comparison, fixture->window));
  compare = PS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window));
  assert_file_name (ps_compare_page_get_file (compare, 0), "run-7.log");
  assert_file_name (ps_compare_page_get_file (compare, 1), "run-8.log");
  _ps_window_remove_child (fixture->window, GTK_WIDGET (compare));

  /* So does its row's Compare, from the keyboard */
  show_tab (fixture, GTK_WIDGET (page));
  ps_trend_page_select_row (page, 1);
  iterate_for (50);
  change_row = gtk_list_box_get_row_at_index (ps_trend_page_get_change_list (page), 0);
  g_assert_true (gtk_widget_activate (GTK_WIDGET (change_row)));
  g_assert_true (iterate_until (current_is_comparison, fixture->window));
  compare = PS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window));
  assert_file_name (ps_compare_page_get_file (compare, 0), "run-4.log");
  assert_file_name (ps_compare_page_get_file (compare, 1), "run-5.log");
}

/* A higher least change leaves the smaller step out */
static void
test_min_change (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GFile) folder = write_folder (fixture);
  PsTrendPage *page = open_trend (fixture, folder);
  const PsTrend *trend;

  ps_trend_page_set_options (page, PS_TREND_BY_NAME, PS_TREND_VALUE_MEDIAN, 0.20);
  g_assert_true (iterate_until (trend_is_shown, page));
  trend = ps_trend_page_get_trend (page);
  g_assert_cmpuint (((PsTrendRow *)g_ptr_array_index (trend->rows, 0))->change_points->len, ==, 1);
  g_assert_cmpuint (((PsTrendRow *)g_ptr_array_index (trend->rows, 1))->change_points->len, ==, 0);
  /* The row chosen stays chosen */
  g_assert_cmpuint (ps_trend_page_get_selected_row (page), ==, 0);
}

/* The sessions of one appended log are the runs: a point opens the log
 * on its session */
static void
test_appended_log (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GFile) file = NULL;
  PsTrendPage *page;
  const PsTrend *trend;
  PsRunPage *run_page;

  for (guint run = 0; run < N_RUNS; run++)
    append_run_log (text, run);
  file = write_temp_file (fixture, "appended.log", text->str, (gssize)text->len);
  page = open_trend (fixture, file);
  trend = ps_trend_page_get_trend (page);
  g_assert_cmpuint (trend->runs->len, ==, N_RUNS);
  g_assert_cmpint (((PsRunSummary *)g_ptr_array_index (trend->runs, 9))->session, ==, 9);
  g_assert_null (ps_trend_page_get_problems_text (page));
  g_assert_cmpuint (g_array_index (((PsTrendRow *)g_ptr_array_index (trend->rows, 0))->change_points,
                                   PsChangePoint, 0).index, ==, WRITE_STEP);

  click_point (page, 9);
  g_assert_true (iterate_until (current_run_page_is_read, fixture->window));
  run_page = ps_window_get_current_page (fixture->window);
  assert_file_name (ps_run_page_get_file (run_page), "appended.log");
  iterate_for (50);
  g_assert_cmpuint (ps_ce_view_get_session (ps_run_page_get_ce_view (run_page)), ==, 9);
}

/* data/demo's fsperf log appended DEMO_SESSIONS times, each copy a
 * session, with the durations of SLOWED a quarter longer from session
 * DEMO_STEP on. The calls of SLOWED in one copy go to n_slowed. */
static GFile *
write_demo_sessions (Fixture *fixture,
                     guint   *n_slowed)
{
  g_autofree char *path = demo_file_path ("fsperf_CEPC_x86_6_0_3122.log");
  g_autofree char *demo = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  static const char registered[] = "## PERF ## REGISTERED MARKER [";

  g_assert_true (g_file_get_contents (path, &demo, NULL, NULL));
  lines = g_strsplit (demo, "\r\n", -1);
  *n_slowed = 0;
  for (guint session = 0; session < DEMO_SESSIONS; session++)
    {
      gint64 slowed_id = -1;

      for (guint i = 0; lines[i] != NULL; i++)
        {
          const char *line = lines[i];
          gint64 id;
          double ticks;

          if (*line == '\0')
            continue;
          if (g_str_has_prefix (line, registered))
            {
              const char *description = line + strlen (registered);
              const char *end = strstr (description, "] AS [");

              g_assert_nonnull (end);
              id = g_ascii_strtoll (end + strlen ("] AS ["), NULL, 10);
              if ((size_t)(end - description) == strlen (SLOWED) && strncmp (description, SLOWED, strlen (SLOWED)) == 0)
                slowed_id = id;
              else if (id == slowed_id)
                slowed_id = -1;
            }
          else if (slowed_id >= 0
                   && sscanf (line, "## PERF ## APP [fsperf] EVT [%" SCNd64 "] DUR [%lf]", &id, &ticks) == 2
                   && id == slowed_id)
            {
              if (session == 0)
                (*n_slowed)++;
              if (session >= DEMO_STEP)
                {
                  g_string_append_printf (text, "## PERF ## APP [fsperf] EVT [%" PRId64 "] DUR [%.0f]\r\n",
                                          id, ticks * 1.25);
                  continue;
                }
            }
          g_string_append (text, line);
          g_string_append (text, "\r\n");
        }
    }
  g_assert_cmpuint (*n_slowed, >=, 10);
  return write_temp_file (fixture, "fsperf-sessions.log", text->str, (gssize)text->len);
}

static gboolean
comparison_is_ready (gpointer data)
{
  return ps_compare_page_is_ready (data);
}

static gboolean
sides_show_their_sessions (gpointer data)
{
  PsComparePage *page = data;

  for (guint side = 0; side < 2; side++)
    {
      PsRunPage *run_page = ps_compare_page_get_run_page (page, side);

      if (!ps_run_page_is_ready (run_page)
          || ps_ce_view_get_session (ps_run_page_get_ce_view (run_page)) != (guint)ps_compare_page_get_session (page, side))
        return FALSE;
    }
  return TRUE;
}

/* A change point between two sessions of one log compares the session
 * before with the session after, each alone: the slower marker is the
 * one regression, about a quarter slower, significantly */
static void
test_sessions_compared (Fixture       *fixture,
                        gconstpointer  data)
{
  guint n_slowed;
  g_autoptr(GFile) file = write_demo_sessions (fixture, &n_slowed);
  PsTrendPage *page = open_trend (fixture, file);
  const PsTrend *trend = ps_trend_page_get_trend (page);
  const PsTrendRow *row = g_ptr_array_index (trend->rows, 0);
  PsComparePage *compare;
  const PsRunDiff *diff;
  const PsRunDiffRow *slowed = NULL;
  guint n_regressions = 0, position = G_MAXUINT;
  GListModel *rows;

  g_assert_cmpuint (trend->runs->len, ==, DEMO_SESSIONS);
  g_assert_cmpstr (row->name, ==, SLOWED);
  g_assert_cmpuint (row->change_points->len, ==, 1);
  g_assert_cmpuint (g_array_index (row->change_points, PsChangePoint, 0).index, ==, DEMO_STEP);
  g_assert_cmpuint (ps_trend_page_get_selected_row (page), ==, 0);

  click_change_point (page, 0);
  g_assert_true (iterate_until (current_is_comparison, fixture->window));
  compare = PS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window));
  assert_file_name (ps_compare_page_get_file (compare, 0), "fsperf-sessions.log");
  assert_file_name (ps_compare_page_get_file (compare, 1), "fsperf-sessions.log");
  g_assert_cmpint (ps_compare_page_get_session (compare, 0), ==, DEMO_STEP - 1);
  g_assert_cmpint (ps_compare_page_get_session (compare, 1), ==, DEMO_STEP);
  g_assert_cmpstr (ps_compare_page_get_title (compare), ==, "fsperf-sessions.log: sessions 3 ↔ 4");
  g_assert_true (iterate_until (comparison_is_ready, compare));

  /* Each side says which session it is, and shows it */
  g_assert_cmpstr (gtk_label_get_text (ps_compare_page_get_title_label (compare, 0)), ==, "session 3 of 6");
  g_assert_cmpstr (gtk_label_get_text (ps_compare_page_get_title_label (compare, 1)), ==, "session 4 of 6");
  g_assert_nonnull (strstr (ps_compare_page_get_header_text (compare), "fsperf-sessions.log — session 3 of 6"));
  g_assert_nonnull (strstr (ps_compare_page_get_header_text (compare), "fsperf-sessions.log — session 4 of 6"));
  g_assert_true (iterate_until (sides_show_their_sessions, compare));
  /* Each timeline on its session's measurements, not on the other's */
  for (guint side = 0; side < 2; side++)
    {
      PsRunPage *run_page = ps_compare_page_get_run_page (compare, side);
      PsTimelineModel *model = ps_timeline_view_get_model (ps_run_page_get_timeline_view (run_page));
      guint64 first, end_measurement;
      gint64 shown_begin, shown_end;
      guint n_open = 0;

      /* From its first measurement to its last */
      g_assert_true (ps_event_store_get_session_measurements (ps_run_page_get_store (run_page),
                                                              (guint32)ps_compare_page_get_session (compare, side),
                                                              &first, &end_measurement));
      ps_session_get_visible_range (ps_run_page_get_session (run_page), &shown_begin, &shown_end);
      g_assert_cmpint (shown_begin, ==, (gint64)first);
      g_assert_cmpint (shown_end, ==, (gint64)end_measurement - 1);
      /* Its rows open, the other sessions' closed */
      g_assert_nonnull (model);
      for (guint r = 0; r < model->rows->len; r++)
        {
          const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

          if (row->kind == PS_TIMELINE_ROW_GROUP)
            {
              g_assert_true (row->collapsed == (row->session != (guint)ps_compare_page_get_session (compare, side)));
              n_open += !row->collapsed;
            }
        }
      g_assert_cmpuint (n_open, ==, 1);
    }

  /* One session's calls on each side, not the log's */
  diff = ps_compare_page_get_diff (compare);
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *one = g_ptr_array_index (diff->rows, i);

      g_assert_true (one->has_a && one->has_b);
      if (one->change == PS_RUN_DIFF_REGRESSION)
        n_regressions++;
      if (strcmp (one->name, SLOWED) == 0)
        slowed = one;
    }
  g_assert_cmpuint (n_regressions, ==, 1);
  g_assert_nonnull (slowed);
  g_assert_cmpuint (slowed->a.count, ==, n_slowed);
  g_assert_cmpuint (slowed->b.count, ==, n_slowed);
  g_assert_cmpfloat_with_epsilon (slowed->ratio_mean, 1.25, 0.001);
  g_assert_cmpint (slowed->basis, ==, PS_RUN_DIFF_BASIS_TEST);
  g_assert_cmpint (slowed->reason, ==, PS_RUN_DIFF_REASON_SIGNIFICANT);
  g_assert_cmpfloat (slowed->p_value, <, 0.001);

  /* As its row in the table says it */
  rows = ps_compare_page_get_rows (compare);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (rows, i);

      if (strcmp (ps_compare_row_get_row (item)->name, SLOWED) == 0)
        position = i;
    }
  g_assert_cmpuint (position, ==, 0);
  {
    g_autofree char *change = ps_compare_page_get_cell_text (compare, position, "change");
    g_autofree char *ratio = ps_compare_page_get_cell_text (compare, position, "ratio");
    g_autofree char *why = ps_compare_page_get_cell_text (compare, position, "why");
    g_autofree char *markdown = ps_compare_page_dup_markdown (compare);

    g_assert_cmpstr (change, ==, "Regression");
    g_assert_cmpstr (ratio, ==, "1.25×");
    g_assert_cmpstr (why, ==, "Mann–Whitney test, p < 0.001");
    /* The summary for a bug report names the sessions and the change */
    g_test_message ("%s", markdown);
    g_assert_nonnull (strstr (markdown, "fsperf-sessions.log — session 3 of 6"));
    g_assert_nonnull (strstr (markdown, "| 1.25× | < 0.001 |"));
  }
  maybe_save_screenshot (fixture, "compare-sessions");
}

/* At a laptop's size and a desktop's, the list and the chart get room
 * and the window is not made wider than asked. With
 * PERFSCOPE_TEST_SCREENSHOTS=DIR (on a screen of 1920×1080 or more), its
 * pictures at 1024×700 and 1920×1080. */
static void
test_sizes (Fixture       *fixture,
            gconstpointer  data)
{
  static const struct { int width, height; } sizes[] = { { 1024, 700 }, { 1360, 800 } };
  static const struct { int width, height; } pictures[] = { { 1024, 700 }, { 1920, 1080 } };
  g_autoptr(GFile) folder = write_folder (fixture);
  PsTrendPage *page = open_trend (fixture, folder);
  GtkWidget *chart = GTK_WIDGET (ps_trend_page_get_chart (page));

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      fixture_resize_window (fixture, sizes[i].width, sizes[i].height);
      g_assert_false (report_wide_widgets (GTK_WIDGET (fixture->window), sizes[i].width));
      /* Of the half beside the rows, the chart takes all but its margins */
      g_assert_cmpint (gtk_widget_get_width (chart), >=, sizes[i].width * 45 / 100);
      g_assert_cmpint (gtk_widget_get_height (chart), >=, sizes[i].height / 3);
    }

  if (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS") == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (pictures); i++)
    {
      g_autofree char *name = g_strdup_printf ("trend-%dx%d", pictures[i].width, pictures[i].height);

      fixture_resize_window (fixture, pictures[i].width, pictures[i].height);
      maybe_save_screenshot (fixture, name);
    }
}

/* The name cells of a trend's rows whose names are up to 40 characters,
 * with how many of them are cut */
static guint
count_cut_names (GtkWidget *widget,
                 guint     *n_checked)
{
  guint n_cut = 0;

  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    {
      g_autoptr(GString) name = g_string_new (gtk_label_get_text (GTK_LABEL (widget)));

      /* The break after each comma */
      g_string_replace (name, "\xe2\x80\x8b", "", 0);
      if (g_str_has_prefix (name->str, "Test=") && g_utf8_strlen (name->str, -1) <= 40)
        {
          (*n_checked)++;
          if (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
            {
              g_test_message ("cut: %s", name->str);
              n_cut++;
            }
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n_cut += count_cut_names (child, n_checked);
  return n_cut;
}

/* At 1024×700 the CE markers whose names differ in their middle
 * ("Test=WriteFile,Bytes=4096,time=%AVG%" and its siblings) are shown
 * whole, and a row's unit is the one its chart and change list use */
static void
test_names_told_apart (Fixture       *fixture,
                       gconstpointer  data)
{
  guint n_slowed, n_checked = 0;
  g_autoptr(GFile) file = write_demo_sessions (fixture, &n_slowed);
  PsTrendPage *page = open_trend (fixture, file);
  GtkWidget *rows_view = find_widget_of_type (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, TRUE);
  g_autofree char *name = NULL;
  g_autofree char *unit = NULL;

  fixture_resize_window (fixture, 1024, 700);
  iterate_for (100);
  g_assert_nonnull (rows_view);
  g_assert_cmpuint (count_cut_names (rows_view, &n_checked), ==, 0);
  g_assert_cmpuint (n_checked, >=, 5);

  /* The marker slowed down takes some milliseconds a call: its chart's
   * axis is in ms, and so is its row */
  name = ps_trend_page_get_cell_text (page, 0, 0);
  g_assert_cmpstr (name, ==, SLOWED);
  unit = ps_trend_page_get_cell_text (page, 0, 2);
  g_assert_cmpstr (unit, ==, "ms");
}

/* Summaries of perfscope-cli summarize trend as their logs do; a point
 * opens the log the summary sums up when it lies next to it */
static void
test_summaries (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GFile) folder = write_folder (fixture);
  g_autofree char *summaries = g_build_filename (fixture->tmpdir, "summaries", NULL);
  g_autoptr(GFile) summaries_folder = g_file_new_for_path (summaries);
  PsTrendPage *page;
  const PsTrend *trend;
  const PsTrendRow *row;

  g_assert_cmpint (g_mkdir (summaries, 0700), ==, 0);
  for (guint run = 0; run < N_RUNS; run++)
    {
      g_autofree char *log_name = g_strdup_printf ("run-%u.log", run + 1);
      g_autofree char *json_name = g_strdup_printf ("summaries/run-%u.json", run + 1);
      g_autoptr(GFile) log = g_file_get_child (folder, log_name);
      g_autoptr(PsTrendInputs) inputs = ps_trend_inputs_read (&log, 1, NULL, NULL, NULL, NULL);
      g_autoptr(GString) json = g_string_new (NULL);

      g_assert_nonnull (inputs);
      ps_run_summary_write (inputs->runs, json);
      g_object_unref (write_temp_file (fixture, json_name, json->str, (gssize)json->len));
    }

  page = open_trend (fixture, summaries_folder);
  trend = ps_trend_page_get_trend (page);
  g_assert_cmpuint (trend->runs->len, ==, N_RUNS);
  g_assert_null (ps_trend_page_get_problems_text (page));
  row = g_ptr_array_index (trend->rows, 0);
  g_assert_cmpstr (row->name, ==, "Test=Write");
  g_assert_cmpuint (g_array_index (row->change_points, PsChangePoint, 0).index, ==, WRITE_STEP);

  /* The logs are elsewhere: said, and nothing opens */
  click_point (page, 0);
  iterate_for (50);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  g_assert_nonnull (strstr (ps_trend_page_get_hint_text (page), "run-1.log"));

  /* Next to it, the log opens */
  {
    g_autoptr(GFile) log = g_file_get_child (folder, "run-1.log");
    g_autoptr(GFile) copy = g_file_get_child (summaries_folder, "run-1.log");
    g_autoptr(GError) error = NULL;

    g_file_copy (log, copy, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
  }
  click_point (page, 0);
  g_assert_true (iterate_until (current_run_page_is_read, fixture->window));
  {
    g_autoptr(GFile) parent = g_file_get_parent (ps_run_page_get_file (ps_window_get_current_page (fixture->window)));

    assert_file_name (ps_run_page_get_file (ps_window_get_current_page (fixture->window)), "run-1.log");
    g_assert_true (g_file_equal (parent, summaries_folder));
  }
}

/* A folder dropped on the window, or given as a file, is trended, in one
 * tab however often it comes */
static void
test_drop_folder (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GFile) folder = write_folder (fixture);
  g_autoptr(GSList) files = g_slist_append (NULL, folder);
  PsTrendPage *page;

  _ps_window_drop_files (fixture->window, files);
  page = PS_TREND_PAGE (_ps_window_get_current_child (fixture->window));
  g_assert_true (PS_IS_TREND_PAGE (page));
  g_assert_true (iterate_until (trend_is_shown, page));
  g_assert_cmpuint (ps_trend_page_get_trend (page)->runs->len, ==, N_RUNS);
  g_assert_cmpstr (ps_trend_page_get_title (page), ==, "Trend of nightly");

  ps_window_open_file (fixture->window, folder);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  g_assert_true (_ps_window_get_current_child (fixture->window) == GTK_WIDGET (page));
}

/* The same folder, or the same runs in another order, opened as a trend
 * again: the tab they have, shown; other runs: a tab of their own */
static void
test_open_again (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GFile) folder = write_folder (fixture);
  g_autoptr(GFile) same_folder = g_file_new_for_path (g_file_peek_path (folder));
  GFile *runs[3], *reversed[3];
  PsTrendPage *page = open_trend (fixture, folder);
  PsTrendPage *runs_page;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u.log", i + 1);

      runs[i] = g_file_get_child (folder, name);
      reversed[2 - i] = runs[i];
    }

  g_assert_true (ps_window_open_trend (fixture->window, &same_folder, 1) == page);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);

  /* Three of its runs are another trend */
  runs_page = ps_window_open_trend (fixture->window, runs, 3);
  g_assert_true (runs_page != page);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
  g_assert_true (_ps_window_get_current_child (fixture->window) == GTK_WIDGET (runs_page));

  /* The folder again brings its tab to the front; the runs in another
   * order theirs */
  ps_window_open_file (fixture->window, folder);
  g_assert_true (_ps_window_get_current_child (fixture->window) == GTK_WIDGET (page));
  g_assert_true (ps_window_open_trend (fixture->window, reversed, 3) == runs_page);
  g_assert_true (_ps_window_get_current_child (fixture->window) == GTK_WIDGET (runs_page));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
  /* Two of them are not the same runs */
  g_assert_true (ps_window_open_trend (fixture->window, runs, 2) != runs_page);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_object_unref (runs[i]);
}


static gboolean
shows_error (gpointer data)
{
  return g_strcmp0 (ps_trend_page_get_visible_state (data), "error") == 0;
}

/* Cancel stops the reading and says so; Read Again reads the runs */
static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GFile) folder = write_folder (fixture);
  PsTrendPage *page = ps_window_open_trend (fixture->window, &folder, 1);
  g_autofree char *text = NULL;

  g_assert_cmpstr (ps_trend_page_get_visible_state (page), ==, "loading");
  g_assert_true (ps_trend_page_is_busy (page));
  g_assert_true (click_button (GTK_WIDGET (page), "_Cancel"));
  g_assert_true (iterate_until (shows_error, page));
  g_assert_null (ps_trend_page_get_trend (page));
  text = collect_label_text (GTK_WIDGET (page));
  g_assert_nonnull (strstr (text, "Reading Cancelled"));

  g_assert_true (click_button (GTK_WIDGET (page), "_Read Again"));
  g_assert_true (iterate_until (trend_is_shown, page));
  g_assert_cmpuint (ps_trend_page_get_trend (page)->runs->len, ==, N_RUNS);
}

/* Nothing to trend: said, with the reason of each file */
static void
test_nothing_readable (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GFile) file = write_temp_file (fixture, "notes.txt", "not a log\n", -1);
  PsTrendPage *page = ps_window_open_trend (fixture->window, &file, 1);
  g_autofree char *text = NULL;

  g_assert_true (iterate_until (shows_error, page));
  text = collect_label_text (GTK_WIDGET (page));
  g_assert_nonnull (strstr (text, "notes.txt"));
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/trend-page/rows-and-links", test_rows_and_links);
  ADD_TEST ("/trend-page/min-change", test_min_change);
  ADD_TEST ("/trend-page/appended-log", test_appended_log);
  ADD_TEST ("/trend-page/sessions-compared", test_sessions_compared);
  ADD_TEST ("/trend-page/nothing-readable", test_nothing_readable);
  ADD_TEST ("/trend-page/sizes", test_sizes);
  ADD_TEST ("/trend-page/names-told-apart", test_names_told_apart);
  ADD_TEST ("/trend-page/summaries", test_summaries);
  ADD_TEST ("/trend-page/drop-folder", test_drop_folder);
  ADD_TEST ("/trend-page/open-again", test_open_again);
  ADD_TEST ("/trend-page/cancel", test_cancel);

  return gui_test_run ();
}

/* test-gui.c — the application in a real window (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens files through ps_window_open_file() like a user would and checks
 * what the widgets show: the marker table's model against the oracle of
 * ce-perflog.md §6, the error, partial and cancelled states, and the
 * pixels of a rendered chart and of a histogram.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-application.h"
#include "ps-call-tree-private.h"
#include "ps-call-tree-view-private.h"
#include "ps-ce-view-private.h"
#include "ps-flame-graph-private.h"
#include "ps-histogram-view-private.h"
#include "ps-loader.h"
#include "ps-marker-row.h"
#include "ps-report-view-private.h"
#include "ps-rtl-view-private.h"
#include "ps-run-analysis.h"
#include "ps-run-page-private.h"
#include "ps-store-builder.h"
#include "ps-format.h"
#include "ps-counter-chart.h"
#include "ps-timeline-render.h"
#include "ps-timeline-view.h"
#include "ps-view-util.h"
#include "ps-window-private.h"
#include "ps-warning-row.h"
#include "seeded-noise.h"

#define TICKS_PER_SECOND 1193180.0

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "ce", name, NULL);
}

static GFile *
spec_example_file (void)
{
  g_autofree char *path = data_path ("fsperf_CEPC_x86_6_0_3122.log");

  return g_file_new_for_path (path);
}

/* The PsMarkerRow shown at a position of the marker table (transfer full) */
static PsMarkerRow *
marker_at (GListModel *model,
           guint       position)
{
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, position);

  g_assert_true (GTK_IS_TREE_LIST_ROW (tree_row));
  return gtk_tree_list_row_get_item (tree_row);
}

static PsMarkerRow *
find_marker (GListModel *model,
             const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      PsMarkerRow *row = marker_at (model, i);

      if (g_strcmp0 (ps_marker_row_get_name (row), name) == 0)
        return row;
      g_object_unref (row);
    }

  return NULL;
}

/* Tests */

static void
test_empty_state (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "empty");
  g_assert_true (gtk_widget_get_mapped (fixture->window->empty_state));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->window->tab_view)));
  g_assert_null (ps_window_get_current_page (fixture->window));
  maybe_save_screenshot (fixture, "empty");
}

static void
test_open_ce_example (Fixture       *fixture,
                      gconstpointer  data)
{
  /* ce-perflog.md §6: name, count, total ticks, mean seconds */
  static const struct {
    const char *name;
    guint64     count;
    double      total_ticks;
    double      mean_seconds;
    gint64      id;
    guint       instance;
  } expected[] = {
    { "Test=CreateFile,Files=100,time=%AVG%", 3, 136199, 0.038049, 0, 1 },
    { "Test=WriteFile,Bytes=4096,time=%AVG%", 2, 24341, 0.010200, 1, 1 },
    { "Test=WriteFile,Bytes=65536,time=%AVG%", 2, 240322, 0.100707, 1, 2 },
    { "Test=ReadFile,Bytes=65536,time=%AVG%", 2, 119761, 0.050186, 0, 2 },
  };
  g_autoptr(GFile) file = spec_example_file ();
  g_autofree char *uri = g_file_get_uri (file);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  GListModel *markers = ps_ce_view_get_marker_model (view);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "view");
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "runs");
  g_assert_cmpstr (ps_run_page_get_title (page), ==, "fsperf_CEPC_x86_6_0_3122.log");
  g_assert_false (ps_run_page_get_banner_revealed (page));

  /* Four description groups, in declaration order, each one registration */
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(PsMarkerRow) row = marker_at (markers, i);
      const PsSeries *series = ps_marker_row_get_series (row);

      g_assert_cmpstr (ps_marker_row_get_name (row), ==, expected[i].name);
      g_assert_cmpstr (ps_marker_row_get_app (row), ==, "fsperf");
      g_assert_true (ps_marker_row_is_group (row));
      g_assert_cmpint (series->id, ==, expected[i].id);
      g_assert_cmpuint (series->instance, ==, expected[i].instance);
      g_assert_cmpuint (ps_marker_row_get_count (row), ==, expected[i].count);
      g_assert_cmpfloat (ps_marker_row_get_total_ticks (row), ==, expected[i].total_ticks);
      g_assert_cmpfloat_with_epsilon (ps_marker_row_get_mean (row), expected[i].mean_seconds, 1e-6);
      g_assert_true (ps_marker_row_has_seconds (row));
    }

  {
    g_autoptr(PsMarkerRow) write = find_marker (markers, "Test=WriteFile,Bytes=4096,time=%AVG%");

    g_assert_nonnull (write);
    g_assert_cmpuint (ps_marker_row_get_count (write), ==, 2);
    g_assert_cmpfloat (ps_marker_row_get_mean_ticks (write), ==, 12170.5);
    g_assert_cmpfloat_with_epsilon (ps_marker_row_get_mean (write), 0.0102, 1e-6);
    /* Nearest-rank p95 of two values is the larger; population stddev */
    g_assert_cmpfloat_with_epsilon (ps_marker_row_get_p95 (write), 12410 / TICKS_PER_SECOND, 1e-12);
    g_assert_cmpfloat_with_epsilon (ps_marker_row_get_stddev (write), 239.5 / TICKS_PER_SECOND, 1e-12);
    g_assert_cmpfloat (ps_marker_row_get_min (write), ==, 11931 / TICKS_PER_SECOND);
    g_assert_cmpfloat (ps_marker_row_get_max (write), ==, 12410 / TICKS_PER_SECOND);
    /* §6: "Placeholder expansion for the first write instance: time=0.010200" */
    g_assert_nonnull (strstr (ps_marker_row_get_expanded_name (write), "time=0.010200"));
    g_assert_cmpstr (ps_marker_row_get_description_value (write, "Bytes"), ==, "4096");
  }

  /* Session header (ce-perflog.md §5 #1) */
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "os"), ==, "6.0");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "build"), ==, "3122");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "platform"), ==, "CEPC");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "cpu"), ==, "x86");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "device"), ==, "CEPC");
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "app"), "fsperf"));
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "app"), "0x0a5f0012"));
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "resolution"), "1,193,180 ticks/s"));

  /* CPU and MEM: one series each; no warnings for the example */
  g_assert_cmpuint (ps_counter_chart_get_n_series (ps_ce_view_get_cpu_chart (view)), ==, 1);
  g_assert_cmpuint (ps_counter_chart_get_n_series (ps_ce_view_get_memory_chart (view)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (ps_run_view_get_warning_model (PS_RUN_VIEW (view))), ==, 0);

  /* A loaded file goes to the recent files, and the menu lists it */
  g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  _ps_window_update_recent_menu (fixture->window);
  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (fixture->window->recent_menu)), ==, 1);

  /* Opening the same file again shows the same tab */
  ps_window_open_file (fixture->window, file);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);

  maybe_save_screenshot (fixture, "markers");
  ps_ce_view_show_page (view, "cpu-memory");
  maybe_save_screenshot (fixture, "cpu-memory");
  ps_ce_view_show_page (view, "warnings");
  maybe_save_screenshot (fixture, "warnings");
}

static GtkColumnViewColumn *
find_column (GtkColumnView *view,
             const char    *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }

  return NULL;
}

/* The first widget under widget (itself included) that matches */
static GtkWidget *
find_widget (GtkWidget     *widget,
             gboolean     (*matches) (GtkWidget     *widget,
                                      gconstpointer  data),
             gconstpointer  data)
{
  if (matches (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, matches, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_drawn_label (GtkWidget     *widget,
                gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
         && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* Where the drawn label under widget that shows text is, in root's
 * coordinates; FALSE when none is drawn */
static gboolean
find_drawn_label (GtkWidget       *root,
                  GtkWidget       *widget,
                  const char      *text,
                  graphene_rect_t *bounds)
{
  GtkWidget *label = find_widget (widget, is_drawn_label, text);

  return label != NULL && gtk_widget_compute_bounds (label, root, bounds);
}

/* The marker table lists names in this order, in its model and on screen:
 * each name's cell is drawn below the one before */
static void
assert_marker_order (GtkColumnView      *column_view,
                     GListModel         *markers,
                     const char * const *names,
                     guint               n_names)
{
  double previous_y = -G_MAXDOUBLE;

  /* Let the table bind its rows again */
  iterate_for (100);
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, n_names);
  for (guint i = 0; i < n_names; i++)
    {
      g_autoptr(PsMarkerRow) row = marker_at (markers, i);
      graphene_rect_t bounds;

      g_assert_cmpstr (ps_marker_row_get_name (row), ==, names[i]);
      g_assert_true (find_drawn_label (GTK_WIDGET (column_view), GTK_WIDGET (column_view), names[i], &bounds));
      g_assert_cmpfloat (bounds.origin.y, >, previous_y);
      previous_y = bounds.origin.y;
    }
}

/* Numbers sort as numbers, not as their text: a description value of 9
 * comes before 10 and 100, a mean of 100 s after 10 s and 9 s; as text,
 * "10" < "100" < "9" and "10.000 s" < "100.000 s" < "9.000 s". No
 * expected order is the declared one, which a sort that did nothing
 * would leave. */
static void
test_sort_markers (Fixture       *fixture,
                   gconstpointer  data)
{
  static const char log[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED APP [a] PROCCESSID [0x1]\r\n"
    "## PERF ## REGISTERED MARKER [Test=Copy,Bytes=10] AS [0] BY APP [a]\r\n"
    "## PERF ## REGISTERED MARKER [Test=Copy,Bytes=100] AS [1] BY APP [a]\r\n"
    "## PERF ## REGISTERED MARKER [Test=Copy,Bytes=9] AS [2] BY APP [a]\r\n"
    "## PERF ## APP [a] EVT [0] DUR [9000]\r\n"
    "## PERF ## APP [a] EVT [1] DUR [100000]\r\n"
    "## PERF ## APP [a] EVT [2] DUR [10000]\r\n";
  static const char * const by_mean_descending[] = {
    "Test=Copy,Bytes=100", "Test=Copy,Bytes=9", "Test=Copy,Bytes=10",
  };
  static const char * const by_mean_ascending[] = {
    "Test=Copy,Bytes=10", "Test=Copy,Bytes=9", "Test=Copy,Bytes=100",
  };
  static const char * const by_bytes_ascending[] = {
    "Test=Copy,Bytes=9", "Test=Copy,Bytes=10", "Test=Copy,Bytes=100",
  };
  static const char * const by_bytes_descending[] = {
    "Test=Copy,Bytes=100", "Test=Copy,Bytes=10", "Test=Copy,Bytes=9",
  };
  g_autoptr(GFile) file = write_temp_file (fixture, "sizes.log", log, sizeof log - 1);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  GListModel *markers = ps_ce_view_get_marker_model (view);
  GtkColumnView *column_view = ps_ce_view_get_marker_view (view);
  GtkColumnViewColumn *column;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_true (iterate_until (widget_is_drawn, column_view));

  column = find_column (column_view, "Mean (s)");
  g_assert_nonnull (column);
  gtk_column_view_sort_by_column (column_view, column, GTK_SORT_DESCENDING);
  assert_marker_order (column_view, markers, by_mean_descending, G_N_ELEMENTS (by_mean_descending));
  gtk_column_view_sort_by_column (column_view, column, GTK_SORT_ASCENDING);
  assert_marker_order (column_view, markers, by_mean_ascending, G_N_ELEMENTS (by_mean_ascending));

  /* A description key column sorts by the (numeric) value */
  column = find_column (column_view, "Bytes");
  g_assert_nonnull (column);
  gtk_column_view_sort_by_column (column_view, column, GTK_SORT_ASCENDING);
  assert_marker_order (column_view, markers, by_bytes_ascending, G_N_ELEMENTS (by_bytes_ascending));
  gtk_column_view_sort_by_column (column_view, column, GTK_SORT_DESCENDING);
  assert_marker_order (column_view, markers, by_bytes_descending, G_N_ELEMENTS (by_bytes_descending));
}

/* ce-perflog.md §4.4: the disk test re-registers one description before
 * every iteration; the group holds the registrations as children. */
static void
test_group_instances (Fixture       *fixture,
                      gconstpointer  data)
{
  static const char log[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
    "## PERF ## PLATFORM=[CEPC] CPU=[x86]\r\n"
    "## PERF ## REGISTERED APP [disk] PROCCESSID [0x10]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [Test=Read] AS [0] BY APP [disk]\r\n"
    "## PERF ## APP [disk] EVT [0] DUR [10]\r\n"
    "## PERF ## REGISTERED MARKER [Test=Read] AS [0] BY APP [disk]\r\n"
    "## PERF ## APP [disk] EVT [0] DUR [20]\r\n"
    "## PERF ## APP [disk] EVT [0] DUR [30]\r\n";
  g_autoptr(GFile) file = write_temp_file (fixture, "disk.log", log, -1);
  PsRunPage *page = open_and_wait (fixture, file);
  GListModel *markers = ps_ce_view_get_marker_model (ps_run_page_get_ce_view (page));
  g_autoptr(GtkTreeListRow) tree_row = NULL;
  g_autoptr(PsMarkerRow) group = NULL;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, 1);

  group = marker_at (markers, 0);
  g_assert_cmpuint (ps_marker_row_get_count (group), ==, 3);
  g_assert_cmpfloat_with_epsilon (ps_marker_row_get_mean (group), 0.020, 1e-12);

  tree_row = g_list_model_get_item (markers, 0);
  g_assert_true (gtk_tree_list_row_is_expandable (tree_row));
  gtk_tree_list_row_set_expanded (tree_row, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, 3);

  {
    g_autoptr(PsMarkerRow) first = marker_at (markers, 1);
    g_autoptr(PsMarkerRow) second = marker_at (markers, 2);

    g_assert_false (ps_marker_row_is_group (first));
    g_assert_cmpuint (ps_marker_row_get_series (first)->instance, ==, 1);
    g_assert_cmpuint (ps_marker_row_get_count (first), ==, 1);
    g_assert_cmpuint (ps_marker_row_get_series (second)->instance, ==, 2);
    g_assert_cmpuint (ps_marker_row_get_count (second), ==, 2);
    g_assert_cmpfloat (ps_marker_row_get_mean_ticks (second), ==, 25);
  }
}

/* ce-perflog.md §4.2: appended runs are sessions, chosen in the header */
static void
test_sessions (Fixture       *fixture,
               gconstpointer  data)
{
  static const char log[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
    "## PERF ## PLATFORM=[CEPC] CPU=[x86]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [Test=A] AS [0] BY APP [a]\r\n"
    "## PERF ## APP [a] EVT [0] DUR [10]\r\n"
    "## PERF ## OSVERSION=[7.0] BUILD=[4000]\r\n"
    "## PERF ## PLATFORM=[ARMV4I] CPU=[ARM]\r\n"
    "## PERF ## REGISTERED MARKER [Test=B] AS [0] BY APP [a]\r\n"
    "## PERF ## REGISTERED MARKER [Test=C] AS [1] BY APP [a]\r\n"
    "## PERF ## APP [a] EVT [0] DUR [20]\r\n"
    "## PERF ## APP [a] EVT [1] DUR [30]\r\n";
  g_autoptr(GFile) file = write_temp_file (fixture, "sessions.log", log, -1);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  GListModel *markers = ps_ce_view_get_marker_model (view);

  g_assert_cmpuint (ps_ce_view_get_session (view), ==, 0);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "os"), ==, "6.0");
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, 1);

  ps_ce_view_set_session (view, 1);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "os"), ==, "7.0");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "platform"), ==, "ARMV4I");
  /* No RESOLUTION in the second run: ticks only (§7 #5) */
  g_assert_nonnull (strstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "resolution"), "ticks"));
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, 2);
  {
    g_autoptr(PsMarkerRow) row = marker_at (markers, 0);

    g_assert_cmpstr (ps_marker_row_get_name (row), ==, "Test=B");
    g_assert_false (ps_marker_row_has_seconds (row));
    g_assert_cmpfloat (ps_marker_row_get_mean (row), ==, 20);
  }
}

static gboolean
has_warning (GListModel *warnings,
             const char *code)
{
  for (guint i = 0; i < g_list_model_get_n_items (warnings); i++)
    {
      g_autoptr(PsWarningRow) row = g_list_model_get_item (warnings, i);

      if (g_strcmp0 (ps_warning_row_get_code (row), code) == 0)
        return TRUE;
    }

  return FALSE;
}

/* ce-perflog.md §7 #13 and #31: bad values and a cut-off last line are
 * warnings; the valid data is still shown. */
static void
test_broken_file (Fixture       *fixture,
                  gconstpointer  data)
{
  static const char log[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
    "## PERF ## RESOLUTION [1193180] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED APP [fsperf] PROCCESSID [0x0a5f0012]\r\n"
    "## PERF ## REGISTERED MARKER [Test=WriteFile] AS [1] BY APP [fsperf]\r\n"
    "## PERF ## APP [fsperf] EVT [1] DUR [11931]\r\n"
    "## PERF ## APP [fsperf] EVT [1] DUR [12410]\r\n"
    "## PERF ## APP [fsperf] EVT [1] DUR [12a4]\r\n"
    "## PERF ## APP [fsperf] EVT [1] DUR [4521";
  g_autoptr(GFile) file = write_temp_file (fixture, "broken.log", log, -1);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  GListModel *warnings = ps_run_view_get_warning_model (PS_RUN_VIEW (view));
  GListModel *markers = ps_ce_view_get_marker_model (view);
  g_autoptr(PsMarkerRow) row = NULL;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_cmpuint (g_list_model_get_n_items (warnings), >=, 2);
  g_assert_true (has_warning (warnings, "W-BADVALUE"));
  g_assert_true (has_warning (warnings, "W-TRUNCATED"));
  {
    g_autoptr(PsWarningRow) first = g_list_model_get_item (warnings, 0);

    g_assert_cmpuint (ps_warning_row_get_line (first), >=, 7);
  }
  g_assert_nonnull (strstr (ps_run_view_get_warnings_title (PS_RUN_VIEW (view)), "("));

  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, 1);
  row = marker_at (markers, 0);
  g_assert_cmpuint (ps_marker_row_get_count (row), ==, 2);
  g_assert_cmpfloat (ps_marker_row_get_mean_ticks (row), ==, 12170.5);

  ps_ce_view_show_page (view, "warnings");
  maybe_save_screenshot (fixture, "broken-warnings");
}

/* Reading stopped after some data: the banner tells where, the data stays */
static void
test_partial_store (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GFile) file = spec_example_file ();
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) read_error = NULL;
  PsRunPage *page;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  store = ps_load_stream (G_INPUT_STREAM (stream), "fsperf_CEPC_x86_6_0_3122.log", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);

  read_error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, "Input/output error at line 17 (byte offset 0x2f1)");
  ps_event_store_set_error (store, read_error);
  g_assert_false (ps_event_store_is_complete (store));

  page = PS_RUN_PAGE (ps_run_page_new (file));
  _ps_window_add_tab (fixture->window, GTK_WIDGET (page), "partial", NULL);
  ps_run_page_show_store (page, store);
  wait_for_page (page);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_PARTIAL);
  g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "view");
  g_assert_true (ps_run_page_get_banner_revealed (page));
  g_assert_nonnull (strstr (ps_run_page_get_banner_text (page), "line 17"));
  g_assert_cmpuint (g_list_model_get_n_items (ps_ce_view_get_marker_model (ps_run_page_get_ce_view (page))), ==, 4);

  maybe_save_screenshot (fixture, "partial");
}

static void
test_missing_file (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->tmpdir, "does-not-exist.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_FAILED);
  g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "error");
  g_assert_nonnull (ps_run_page_get_error_message (page));
  g_assert_cmpstr (ps_run_page_get_error_message (page), !=, "");
  g_assert_null (ps_run_page_get_store (page));

  maybe_save_screenshot (fixture, "error");

  /* Close from the error state */
  gtk_widget_activate_action (GTK_WIDGET (page), "run.close", NULL);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "empty");
}

/* The text of an RTL log of n_scopes scopes on two threads, nested ten
 * deep: ten depths, each name in thirteen classes */
static GString *
many_scopes_log (guint n_scopes)
{
  GString *log = g_string_new (NULL);
  guint32 time = 0;

  for (guint made = 0; made < n_scopes;)
    for (guint t = 0; t < 2 && made < n_scopes; t++)
      {
        guint n = MIN (10, n_scopes - made);

        for (guint d = 0; d < n; d++)
          g_string_append_printf (log, "%06u %u { mod (ab%06u) ::Class%u::Function%u\n", time++, t + 1, d, (made + d) % 13, d);
        for (guint d = n; d-- > 0;)
          g_string_append_printf (log, "%06u %u } mod (ab%06u) ::Class%u::Function%u\n", time++, t + 1, d, (made + d) % 13, d);
        made += n;
      }
  return log;
}

/* The store of many_scopes_log () */
static PsEventStore *
many_scopes_store (guint n_scopes)
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (&ps_format_rtl_logfile, builder);
  g_autoptr(GString) log = many_scopes_log (n_scopes);

  g_assert_true (ps_parser_feed (parser, (const guint8 *)log->str, log->len, NULL));
  g_assert_true (ps_parser_finish (parser, NULL));
  ps_store_builder_flush (builder);
  g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, n_scopes);
  return store;
}

static gboolean
page_has_store (gpointer page)
{
  return ps_run_page_get_store (page) != NULL;
}

/* An RTL log's timeline comes from its store alone: it is shown, above
 * "Computing statistics…", from the moment the store is read until the
 * statistics come, which may be cancelled meanwhile; then the views */
static void
test_timeline_while_computing (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(GString) log = many_scopes_log (200000);
  g_autoptr(GFile) file = NULL;
  PsRunPage *page;

  file = write_temp_file (fixture, "soffice_4711.log", log->str, log->len);

  for (guint round = 0; round < 2; round++)
    {
      ps_window_open_file (fixture->window, file);
      page = ps_window_get_current_page (fixture->window);
      g_assert_true (iterate_until (page_has_store, page));

      /* The store is read; its statistics are not computed yet */
      g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADING);
      g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "computing");
      g_assert_nonnull (ps_run_page_get_session (page));
      g_assert_true (ps_timeline_view_get_session (ps_run_page_get_timeline_view (page)) == ps_run_page_get_session (page));
      g_assert_true (gtk_widget_is_visible (gtk_widget_get_parent (GTK_WIDGET (ps_run_page_get_timeline_view (page)))));
      g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (page)));

      if (round == 0)
        {
          /* Cancelled while computing: nothing comes after */
          gtk_widget_activate_action (GTK_WIDGET (page), "run.cancel", NULL);
          g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_CANCELLED);
          g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "cancelled");
          iterate_for (500);
          g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_CANCELLED);
          gtk_widget_activate_action (GTK_WIDGET (page), "run.close", NULL);
          continue;
        }

      /* The statistics come: the views take the place of the notice (a
       * screenshot lets the main loop run, so not before the cancelling) */
      maybe_save_screenshot (fixture, "computing");
      g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
      g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
      g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "view");
      g_assert_true (gtk_widget_is_visible (GTK_WIDGET (ps_run_page_get_rtl_view (page))));
      g_assert_true (ps_timeline_view_get_session (ps_run_page_get_timeline_view (page)) == ps_run_page_get_session (page));
    }
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  static const char line[] = "## PERF ## APP [a] EVT [0] DUR [123]\r\n";
  const gsize size = 50 * 1024 * 1024;
  g_autoptr(GString) contents = g_string_sized_new (size + sizeof line);
  g_autoptr(GFile) file = NULL;
  PsRunPage *page;

  while (contents->len < size)
    g_string_append_len (contents, line, sizeof line - 1);
  file = write_temp_file (fixture, "large.log", contents->str, contents->len);

  ps_window_open_file (fixture->window, file);
  page = ps_window_get_current_page (fixture->window);
  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADING);
  g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "loading");
  maybe_save_screenshot (fixture, "loading");

  /* What the Cancel button does */
  gtk_widget_activate_action (GTK_WIDGET (page), "run.cancel", NULL);
  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_CANCELLED);
  g_assert_cmpstr (ps_run_page_get_visible_state (page), ==, "cancelled");
  g_assert_null (ps_run_page_get_store (page));

  /* The worker's late answer does not bring the page back */
  iterate_for (500);
  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_CANCELLED);
  g_assert_null (ps_run_page_get_store (page));
  maybe_save_screenshot (fixture, "cancelled");

  /* A cancelled file is not a recent file */
  {
    g_autofree char *uri = g_file_get_uri (file);

    g_assert_false (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  }

  gtk_widget_activate_action (GTK_WIDGET (page), "run.close", NULL);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
}

/* Whether a premultiplied BGRA pixel (CAIRO_FORMAT_ARGB32 in memory
 * order) is the first series colour, #3584e4, nearly opaque */
static gboolean
is_series_blue (const guchar *p)
{
  guchar blue = p[0], green = p[1], red = p[2], alpha = p[3];

  return alpha > 200 && blue > 170 && red < 110 && green > 90 && green < 170;
}

/* Whether the line passes through the pixel at (x, y) or one beside
 * it: a line drawn to its end covers only part of its last pixel */
static gboolean
is_series_blue_near (const guchar *pixels,
                     gsize         stride,
                     double        x,
                     double        y)
{
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if (is_series_blue (pixels + (gsize)(y + dy) * stride + (gsize)(x + dx) * 4))
        return TRUE;
  return FALSE;
}

/* How far (x, y) lies from the segment (x0, y0)–(x1, y1) */
static double
distance_to_segment (double x,
                     double y,
                     double x0,
                     double y0,
                     double x1,
                     double y1)
{
  double dx = x1 - x0, dy = y1 - y0;
  double t = dx == 0 && dy == 0 ? 0 : CLAMP (((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy), 0, 1);

  return hypot (x - (x0 + t * dx), y - (y0 + t * dy));
}

/* The CPU chart of ce-perflog.md §6: 61.25 % at the third event of
 * the file (global event index 2) and 88.125 % at the tenth (index 9),
 * on an x axis over the session's 13 events and a y axis from 0 %. Its
 * blue is drawn at those two places and along the line between them,
 * and nowhere else in the plot. */
static void
test_chart_pixels (Fixture       *fixture,
                   gconstpointer  data)
{
  static const struct {
    double index;
    double percent;
  } points[] = { { 2, 61.25 }, { 9, 88.125 } };
  g_autoptr(GFile) file = spec_example_file ();
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  PsCounterChart *chart = ps_ce_view_get_cpu_chart (view);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  graphene_rect_t plot;
  gint64 x_begin, x_end;
  double x_first, x_last, y_min, y_max;
  double px[G_N_ELEMENTS (points)], py[G_N_ELEMENTS (points)];
  int width, height;
  gsize stride;
  guint n_drawn_pixels = 0, n_line_pixels = 0;

  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (chart)), ==, GTK_ACCESSIBLE_ROLE_IMG);
  g_assert_cmpstr (gtk_widget_get_css_name (GTK_WIDGET (chart)), ==, "counterchart");

  ps_ce_view_show_page (view, "cpu-memory");
  g_assert_true (iterate_until (widget_is_drawn, chart));
  iterate_for (100);

  texture = render_widget (GTK_WIDGET (chart));
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  g_assert_cmpint (width, >, 100);
  g_assert_cmpint (height, >=, 180);
  stride = (gsize)width * 4;
  pixels = g_malloc (stride * height);
  gdk_texture_download (texture, pixels, stride);

  /* The axes: the session's events, from 0 % */
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_min, &y_max));
  x_first = (double)x_begin;
  x_last = (double)x_end;
  g_assert_cmpfloat (x_first, ==, 0);
  g_assert_cmpfloat (x_last, ==, 12);
  g_assert_cmpfloat (y_min, ==, 0);
  g_assert_cmpfloat (y_max, >=, 88.125);
  g_assert_cmpfloat (y_max, <=, 100);
  g_assert_cmpfloat (plot.size.width, >, 100);
  g_assert_cmpfloat (plot.size.height, >, 60);

  /* Each reading where the axes put it: its dot's centre is blue, and so
   * is the middle of the line between the two */
  for (guint i = 0; i < G_N_ELEMENTS (points); i++)
    {
      px[i] = plot.origin.x + (points[i].index - x_first) / (x_last - x_first) * plot.size.width;
      py[i] = plot.origin.y + plot.size.height - (points[i].percent - y_min) / (y_max - y_min) * plot.size.height;
      g_test_message ("%.3f %% at (%.1f, %.1f)", points[i].percent, px[i], py[i]);
      g_assert_true (is_series_blue_near (pixels, stride, px[i], py[i]));
    }
  g_assert_true (is_series_blue_near (pixels, stride, (px[0] + px[1]) / 2, (py[0] + py[1]) / 2));

  /* Nowhere else: not where the readings would be upside down, not at
   * the other events, not past the last reading */
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const guchar *p = pixels + y * stride + x * 4;
        gboolean in_plot = x >= plot.origin.x - 4 && x <= plot.origin.x + plot.size.width + 4
                           && y >= plot.origin.y - 4 && y <= plot.origin.y + plot.size.height + 4;

        if (p[3] > 0)
          n_drawn_pixels++;
        if (!in_plot || !is_series_blue (p))
          continue;
        n_line_pixels++;
        /* Within a few pixels of the line */
        g_assert_cmpfloat (distance_to_segment (x + 0.5, y + 0.5, px[0], py[0], px[1], py[1]), <, 4.5);
      }

  g_assert_cmpuint (n_drawn_pixels, >, 500);   /* axes, grid, labels */
  g_assert_cmpuint (n_line_pixels, >, 30);     /* the CPU line */
}

/* An application whose CPU steps from 20 % to 55 % at its 900th reading
 * (measurement #2700) and whose memory starts to climb by 20 kB a reading
 * from its 600th (#1801): 1500 readings of each, and a marker between */
static GFile *
write_changing_log (Fixture *fixture)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autoptr(GString) log = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                         "## PERF ## REGISTERED APP [leaky] PROCCESSID [0x1234]\r\n"
                                         "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
                                         "## PERF ## REGISTERED MARKER [CPU: leaky] AS [101] BY APP [leaky]\r\n"
                                         "## PERF ## REGISTERED MARKER [MEM: leaky] AS [102] BY APP [leaky]\r\n"
                                         "## PERF ## REGISTERED MARKER [Test=Work,time=%AVG%] AS [0] BY APP [leaky]\r\n"
                                         "## PERF ## REGISTERED MARKER [Test=Slower] AS [1] BY APP [leaky]\r\n");

  for (guint i = 0; i < 1500; i++)
    {
      double cpu = MAX (seeded_noise_normal (rand, i < 900 ? 20 : 55, 3), 0);
      double memory = 10 * 1048576.0 + (i > 600 ? (i - 600) * 20000.0 : 0) + seeded_noise_normal (rand, 0, 30000);

      g_string_append_printf (log, "## PERF ## APP [leaky] EVT [101] CPU [%.2f]\r\n", cpu);
      g_string_append_printf (log, "## PERF ## APP [leaky] EVT [102] MEM [%.0f]\r\n", memory);
      g_string_append_printf (log, "## PERF ## APP [leaky] EVT [0] DUR [%.0f]\r\n", seeded_noise_normal (rand, 50, 5));
    }
  /* Then a marker's durations, 50 ms and from its 300th on 80 ms: the
   * step at measurement 4500 + 300 */
  for (guint i = 0; i < 600; i++)
    g_string_append_printf (log, "## PERF ## APP [leaky] EVT [1] DUR [%.0f]\r\n",
                            seeded_noise_normal (rand, i < 300 ? 50 : 80, 5));
  return write_temp_file (fixture, "leaky.log", log->str, (gssize)log->len);
}

/* Whether a column of the chart's pixels above the plot's middle holds
 * the series' blue: the line of a change mark */
static gboolean
column_has_mark (GtkWidget       *chart,
                 const graphene_rect_t *plot,
                 double           x)
{
  g_autoptr(GdkTexture) texture = render_widget (chart);
  int width = gdk_texture_get_width (texture);
  gsize stride = (gsize)width * 4;
  g_autofree guchar *pixels = g_malloc (stride * gdk_texture_get_height (texture));
  guint n_blue = 0;

  gdk_texture_download (texture, pixels, stride);
  /* From the top of the plot down to a quarter of it, above both lines */
  for (int y = (int)plot->origin.y + 2; y < (int)(plot->origin.y + plot->size.height / 4); y++)
    for (int dx = -1; dx <= 1; dx++)
      if (is_series_blue (pixels + (gsize)y * stride + (gsize)(x + dx) * 4))
        {
          n_blue++;
          break;
        }
  return n_blue >= 5;
}

/* The CPU & Memory page marks where a level changed: the CPU's step at
 * the measurement where it happened, the memory's climb where it began,
 * each with its relative change, drawn and described */
static void
test_ce_chart_changes (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GFile) file = write_changing_log (fixture);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  PsCounterChart *cpu = ps_ce_view_get_cpu_chart (view);
  PsCounterChart *memory = ps_ce_view_get_memory_chart (view);
  g_autofree char *description = NULL;
  g_autofree char *tooltip = NULL;
  GArray *changes;
  const PsCounterChange *step, *climb;
  graphene_rect_t plot;
  double x;

  g_assert_true (iterate_until (run_view_is_idle, view));
  /* Found with the analysis, off the main thread: one for each chart */
  {
    PsRunAnalysis *analysis = ps_run_view_get_analysis (PS_RUN_VIEW (view));
    guint n_found = 0;

    for (guint i = 0; i < analysis->groups->len; i++)
      {
        const PsSeries *series = g_ptr_array_index (analysis->groups, i);

        changes = ps_run_analysis_get_changes (analysis, series);
        if (series->kind == PS_SERIES_CPU || series->kind == PS_SERIES_MEMORY)
          {
            g_assert_nonnull (changes);
            g_assert_cmpuint (changes->len, ==, 1);
            n_found++;
          }
        else
          g_assert_null (changes);
      }
    g_assert_cmpuint (n_found, ==, 2);
  }
  ps_ce_view_show_page (view, "cpu-memory");
  g_assert_true (iterate_until (widget_is_drawn, cpu));
  iterate_for (100);

  changes = ps_counter_chart_get_series_changes (cpu, 0);
  g_assert_nonnull (changes);
  g_assert_cmpuint (changes->len, ==, 1);
  step = &g_array_index (changes, PsCounterChange, 0);
  g_test_message ("CPU: from #%" G_GINT64_FORMAT ", %+.1f %%", step->time_ns, step->relative_change * 100);
  g_assert_cmpuint (step->n_steps, ==, 1);
  g_assert_cmpint (llabs (step->time_ns - 2700), <=, 24);
  g_assert_cmpfloat (step->relative_change, >, 1.5);
  g_assert_cmpfloat (step->relative_change, <, 2.0);

  changes = ps_counter_chart_get_series_changes (memory, 0);
  g_assert_nonnull (changes);
  g_assert_cmpuint (changes->len, ==, 1);
  climb = &g_array_index (changes, PsCounterChange, 0);
  g_test_message ("memory: from #%" G_GINT64_FORMAT " to #%" G_GINT64_FORMAT " in %u steps, %+.1f %%",
                  climb->time_ns, climb->end_ns, climb->n_steps, climb->relative_change * 100);
  g_assert_cmpuint (climb->n_steps, >, 1);
  g_assert_cmpint (llabs (climb->time_ns - 1801), <=, 60);
  g_assert_cmpint (climb->end_ns, >, 3600);
  g_assert_cmpfloat (climb->relative_change, >, 0.5);

  /* Drawn where the axis puts that measurement */
  g_assert_true (ps_counter_chart_get_plot (cpu, &plot));
  g_assert_true (ps_counter_chart_get_change_x (cpu, 0, 0, &x, NULL));
  {
    gint64 x_begin, x_end;
    double y_low, y_high;

    g_assert_true (ps_counter_chart_get_axes (cpu, &x_begin, &x_end, &y_low, &y_high));
    g_assert_cmpfloat_with_epsilon (x, plot.origin.x + (double)(step->time_ns - x_begin) / (double)(x_end - x_begin)
                                       * plot.size.width, 1.5);
  }
  g_assert_true (column_has_mark (GTK_WIDGET (cpu), &plot, x));
  g_assert_false (column_has_mark (GTK_WIDGET (cpu), &plot, plot.origin.x + plot.size.width / 4));
  description = ps_counter_chart_get_description (cpu);
  g_assert_nonnull (strstr (description, "+"));
  tooltip = ps_counter_chart_describe_change_at (cpu, x);
  g_assert_nonnull (tooltip);
  g_test_message ("%s", tooltip);
}

/* The row of the timeline's model charting a track */
static PsTimelineRow *
timeline_row_of_track (PsTimelineModel *model,
                       guint32          track)
{
  for (guint r = 0; r < model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_VALUES && row->track == track)
        return row;
    }
  return NULL;
}

/* How many of the rows y0…y1 of a column hold the series' blue */
static guint
count_blue_in_column (const guchar *pixels,
                      gsize         stride,
                      double        x,
                      double        y0,
                      double        y1)
{
  guint n = 0;

  for (int y = (int)y0; y < (int)y1; y++)
    if (is_series_blue (pixels + (gsize)y * stride + (gsize)x * 4))
      n++;
  return n;
}

/* The timeline marks the same changes on its CE charts: the CPU's step
 * and the memory's climb where they begin, with how much in the tooltip;
 * a marker's noisy durations have none, another's step is marked */
static void
test_ce_timeline_changes (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GFile) file = write_changing_log (fixture);
  PsRunPage *page = open_and_wait (fixture, file);
  PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
  PsEventStore *store = ps_run_page_get_store (page);
  PsTimelineModel *model;
  PsTimelineRow *cpu = NULL, *memory = NULL, *durations = NULL, *slower = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  g_autofree char *tooltip = NULL;
  const PsCounterChange *step;
  gsize stride;
  double x, y;

  g_assert_true (iterate_until (timeline_view_is_ready, timeline));
  model = ps_timeline_view_get_model (timeline);
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const char *name = ps_event_store_get_string (store, ps_event_store_get_track (store, t)->name);

      if (g_str_has_prefix (name, "CPU"))
        cpu = timeline_row_of_track (model, t);
      else if (g_str_has_prefix (name, "MEM"))
        memory = timeline_row_of_track (model, t);
      else if (g_str_has_prefix (name, "Test=Slower"))
        slower = timeline_row_of_track (model, t);
      else
        durations = timeline_row_of_track (model, t);
    }
  g_assert_nonnull (cpu);
  g_assert_nonnull (memory);
  g_assert_nonnull (durations);
  g_assert_nonnull (slower);

  /* Drawn, so found */
  texture = render_widget (GTK_WIDGET (timeline));
  g_assert_nonnull (cpu->changes);
  g_assert_cmpuint (cpu->changes->len, ==, 1);
  step = &g_array_index (cpu->changes, PsCounterChange, 0);
  g_assert_cmpint (llabs (step->time_ns - 2700), <=, 24);
  g_assert_cmpfloat (step->relative_change, >, 1.5);
  g_assert_nonnull (memory->changes);
  g_assert_cmpuint (memory->changes->len, ==, 1);
  g_assert_cmpint (llabs (g_array_index (memory->changes, PsCounterChange, 0).time_ns - 1801), <=, 60);
  g_assert_cmpuint (g_array_index (memory->changes, PsCounterChange, 0).n_steps, >, 1);
  g_assert_cmpuint (ps_timeline_row_get_changes (durations)->len, ==, 0);
  g_assert_cmpuint (ps_timeline_row_get_changes (slower)->len, ==, 1);
  g_assert_cmpint (llabs (g_array_index (slower->changes, PsCounterChange, 0).time_ns - 4800), <=, 8);
  g_assert_cmpfloat (fabs (g_array_index (slower->changes, PsCounterChange, 0).relative_change - 0.6), <, 0.1);
  tooltip = ps_timeline_row_tooltip (cpu);
  g_test_message ("%s", tooltip);
  g_assert_nonnull (strstr (tooltip, "Changed at #"));

  /* Its line down the CPU chart, below the levels before and after,
   * where nothing else is drawn a little later */
  stride = (gsize)gdk_texture_get_width (texture) * 4;
  pixels = g_malloc (stride * gdk_texture_get_height (texture));
  gdk_texture_download (texture, pixels, stride);
  x = round (ps_timeline_view_x_of (timeline, step->time_ns));
  y = ps_timeline_view_get_row_y (timeline, cpu->track);
  g_assert_cmpfloat (y, >, 0);
  g_assert_cmpuint (count_blue_in_column (pixels, stride, x, y + PS_TIMELINE_VALUES_HEIGHT - 12,
                                          y + PS_TIMELINE_VALUES_HEIGHT - 2), >=, 8);
  g_assert_cmpuint (count_blue_in_column (pixels, stride, x + 30, y + PS_TIMELINE_VALUES_HEIGHT - 12,
                                          y + PS_TIMELINE_VALUES_HEIGHT - 2), ==, 0);

  /* The slower marker's change comes near the end of the run, where its
   * values are: the chart's scale gives way to the left, where it has
   * none, and the change's label is drawn at the right (at the right, the
   * scale would have left it out) */
  gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (timeline)), slower->y);
  iterate_for (50);
  {
    g_autoptr(GArray) changes = g_steal_pointer (&slower->changes);
    g_autoptr(GdkTexture) with_changes = render_widget (GTK_WIDGET (timeline));
    g_autoptr(GdkTexture) without = NULL;
    g_autofree guchar *a = g_malloc (stride * gdk_texture_get_height (texture));
    g_autofree guchar *b = g_malloc (stride * gdk_texture_get_height (texture));
    double right = ps_timeline_view_x_of (timeline, (double)model->extent_end);
    double change_x = ps_timeline_view_x_of (timeline, g_array_index (changes, PsCounterChange, 0).time_ns);
    guint differ = 0;

    slower->changes = g_array_new (FALSE, FALSE, sizeof (PsCounterChange));
    without = render_widget (GTK_WIDGET (timeline));
    g_clear_pointer (&slower->changes, g_array_unref);
    slower->changes = g_steal_pointer (&changes);
    g_clear_object (&with_changes);
    with_changes = render_widget (GTK_WIDGET (timeline));
    gdk_texture_download (with_changes, a, stride);
    gdk_texture_download (without, b, stride);
    y = ps_timeline_view_get_row_y (timeline, slower->track);
    g_test_message ("slower's change at x %.0f, the plot ends at %.0f", change_x, right);
    g_assert_cmpfloat (right - change_x, <, 90);
    g_assert_cmpfloat (y, >, PS_TIMELINE_HEADER_HEIGHT);
    g_assert_cmpfloat (y + 18, <=, gdk_texture_get_height (with_changes));
    g_assert_cmpint (gdk_texture_get_height (with_changes), ==, gdk_texture_get_height (texture));
    for (int py = (int)y; py < (int)y + 18; py++)
      for (int px = (int)change_x + 3; px < (int)right; px++)
        differ += memcmp (a + (gsize)py * stride + (gsize)px * 4, b + (gsize)py * stride + (gsize)px * 4, 4) != 0;
    g_test_message ("%u pixels of the change's label", differ);
    g_assert_cmpuint (differ, >, 50);
  }
}

static gboolean
focus_is_in (GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Tab and Shift+Tab leave a table for the widgets after and before it,
 * rather than going through its rows one by one */
static void
test_tab_leaves_table (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *path = demo_file_path ("fsperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);
  GtkWidget *table = GTK_WIDGET (ps_ce_view_get_marker_view (ps_run_page_get_ce_view (page)));
  GtkWidget *after = NULL, *before = NULL;

  g_assert_true (iterate_until (widget_is_drawn, table));
  for (guint direction = 0; direction < 2; direction++)
    {
      gtk_widget_grab_focus (table);
      iterate_for (50);
      g_assert_true (focus_is_in (table));
      ps_view_leave_table (table, direction == 0 ? GTK_DIR_TAB_FORWARD : GTK_DIR_TAB_BACKWARD);
      iterate_for (50);
      g_assert_nonnull (gtk_root_get_focus (GTK_ROOT (fixture->window)));
      g_assert_false (focus_is_in (table));
      /* and the table takes the focus again */
      g_assert_true (gtk_widget_get_can_focus (table));
      if (direction == 0)
        after = gtk_root_get_focus (GTK_ROOT (fixture->window));
      else
        before = gtk_root_get_focus (GTK_ROOT (fixture->window));
    }
  g_assert_true (after != before);
  g_test_message ("after the table: %s, before it: %s", G_OBJECT_TYPE_NAME (after), G_OBJECT_TYPE_NAME (before));
}

/* Latin-1 bytes in a description reach the table's cells as text, never as
 * invalid UTF-8 (ce-perflog.md §7 #28; a Pango warning would abort here) */
static void
test_latin1_description (Fixture       *fixture,
                         gconstpointer  data)
{
  static const char log[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED APP [a] PROCCESSID [0x1]\r\n"
    "## PERF ## REGISTERED MARKER [Test=Caf\xe9,Size=1] AS [0] BY APP [a]\r\n"
    "## PERF ## APP [a] EVT [0] DUR [250]\r\n";
  g_autoptr(GFile) file = write_temp_file (fixture, "latin1.log", log, sizeof log - 1);
  PsRunPage *page = open_and_wait (fixture, file);
  GListModel *markers = ps_ce_view_get_marker_model (ps_run_page_get_ce_view (page));
  g_autoptr(PsMarkerRow) row = marker_at (markers, 0);

  GtkWidget *table = GTK_WIDGET (ps_ce_view_get_marker_view (ps_run_page_get_ce_view (page)));
  graphene_rect_t description, value;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_cmpstr (ps_marker_row_get_description_value (row, "Test"), ==, "Caf\xe9");
  /* Let the table bind and draw its cells */
  g_assert_true (iterate_until (widget_is_drawn, table));
  iterate_for (200);

  /* The byte 0xE9 is é in Latin-1: the description's cell and the Test
   * column's cell show it so, side by side on one row */
  g_assert_nonnull (find_column (GTK_COLUMN_VIEW (table), "Test"));
  g_assert_true (find_drawn_label (table, table, "Test=Caf\u00e9,Size=1", &description));
  g_assert_true (find_drawn_label (table, table, "Caf\u00e9", &value));
  g_assert_cmpfloat_with_epsilon (description.origin.y + description.size.height / 2,
                                  value.origin.y + value.size.height / 2, 1.0);
  g_assert_cmpfloat (value.origin.x, >, description.origin.x);
}

static gboolean
pair_is_open (gpointer window)
{
  return !ps_window_is_opening_pair (window);
}

/* Drops the files on the window's drop target as a drag would; whether
 * it took them */
static gboolean
drop_files_on (GtkDropTarget *target,
               GSList        *files)
{
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (target, "drop", &value, 20.0, 20.0, &handled);
  g_value_unset (&value);
  return handled;
}

/* A dropped file opens in its own tab, through the same open path as the
 * other ways in; two dropped at once open as a comparison, or as two
 * tabs when they are of different kinds */
static void
test_drop_files (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GFile) example = spec_example_file ();
  g_autoptr(GFile) other = write_temp_file (fixture, "dropped.log",
                                            "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
                                            "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
                                            "## PERF ## REGISTERED APP [a] PROCCESSID [0x1]\r\n"
                                            "## PERF ## REGISTERED MARKER [Test=Drop] AS [0] BY APP [a]\r\n"
                                            "## PERF ## APP [a] EVT [0] DUR [250]\r\n", -1);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (fixture->window));
  GtkDropTarget *target = NULL;
  g_autoptr(GSList) files = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);

  /* One file opens as a run */
  files = g_slist_append (files, other);
  g_assert_true (drop_files_on (target, files));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  wait_for_page (ps_window_get_page (fixture->window, 0));
  g_assert_cmpint (ps_run_page_get_state (ps_window_get_page (fixture->window, 0)), ==, PS_RUN_PAGE_LOADED);
  g_assert_cmpstr (ps_run_page_get_title (ps_window_get_page (fixture->window, 0)), ==, "dropped.log");
  {
    PsCeView *view = ps_run_page_get_ce_view (ps_window_get_page (fixture->window, 0));
    g_autoptr(PsMarkerRow) row = find_marker (ps_ce_view_get_marker_model (view), "Test=Drop");

    g_assert_nonnull (row);
  }

  /* Two files dropped at once are compared, the first as A (issue 8) */
  g_clear_pointer (&files, g_slist_free);
  files = g_slist_append (files, example);
  files = g_slist_append (files, other);
  g_assert_true (drop_files_on (target, files));
  /* Once their formats are known: both CE logs */
  g_assert_true (iterate_until (pair_is_open, fixture->window));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
  g_assert_null (ps_window_get_page (fixture->window, 1));
  {
    PsComparePage *comparison = PS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window));

    g_assert_true (g_file_equal (ps_compare_page_get_file (comparison, 0), example));
    g_assert_true (g_file_equal (ps_compare_page_get_file (comparison, 1), other));
    g_assert_cmpstr (ps_compare_page_get_title (comparison), ==, "fsperf_CEPC_x86_6_0_3122.log ↔ dropped.log");
  }
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "runs");
  g_assert_false (ps_window_get_pair_banner_revealed (fixture->window));

  /* A CE log and an RTL log are not compared: a tab each, and a banner
   * that says so (issue 29) */
  {
    g_autoptr(GFile) rtl = g_file_new_build_filename (g_test_get_dir (G_TEST_DIST), "data", "rtl",
                                                      "startup_4711.log", NULL);

    g_clear_pointer (&files, g_slist_free);
    files = g_slist_append (files, rtl);
    files = g_slist_append (files, other);
    g_assert_true (drop_files_on (target, files));
    g_assert_true (iterate_until (pair_is_open, fixture->window));
    /* dropped.log's tab was open already: it comes after the RTL log's */
    g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 3);
    g_assert_true (g_file_equal (ps_run_page_get_file (ps_window_get_current_page (fixture->window)), rtl));
    g_assert_true (g_file_equal (ps_run_page_get_file (ps_window_get_page (fixture->window, 0)), rtl));
    g_assert_true (g_file_equal (ps_run_page_get_file (ps_window_get_page (fixture->window, 1)), other));
    g_assert_true (ps_window_get_pair_banner_revealed (fixture->window));
    g_assert_cmpstr (ps_window_get_pair_banner_text (fixture->window), ==,
                     "startup_4711.log is an OpenOffice RTL log and dropped.log a Windows CE performance log: "
                     "they are opened as two tabs. They have nothing in common to compare.");
  }
}

/* RTL logs (rtl-logfile.md §6) */

static GFile *
rtl_example_file (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", "startup_4711.log", NULL);

  return g_file_new_for_path (path);
}

static void
wait_for_rtl_view (PsRtlView *view)
{
  g_assert_true (iterate_until (run_view_is_idle, view));
}

/* The view of an RTL log, opened and with its statistics */
static PsRtlView *
open_rtl_file (Fixture *fixture,
               GFile   *file)
{
  PsRunPage *page = open_and_wait (fixture, file);
  PsRtlView *view = ps_run_page_get_rtl_view (page);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  wait_for_rtl_view (view);
  return view;
}

static PsRtlView *
open_rtl_example (Fixture *fixture)
{
  g_autoptr(GFile) file = rtl_example_file ();

  return open_rtl_file (fixture, file);
}

static PsRtlView *
open_rtl_demo (Fixture *fixture)
{
  g_autofree char *path = demo_file_path ("soffice_4711.log");
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return open_rtl_file (fixture, file);
}

/* The row of the scope table at a position (transfer full) */
static PsScopeRow *
scope_row_at (GListModel *model,
              guint       position)
{
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, position);

  g_assert_true (GTK_IS_TREE_LIST_ROW (tree_row));
  return gtk_tree_list_row_get_item (tree_row);
}

/* The position of the first row of that name after start, or -1 */
static int
find_scope_row (GListModel *model,
                const char *name,
                guint       start)
{
  for (guint i = start; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsScopeRow) row = scope_row_at (model, i);

      if (g_strcmp0 (ps_scope_row_get_name (row), name) == 0)
        return i;
    }

  return -1;
}

static void
expand_scope_row (GListModel *model,
                  int         position)
{
  g_autoptr(GtkTreeListRow) tree_row = NULL;

  g_assert_cmpint (position, >=, 0);
  tree_row = g_list_model_get_item (model, position);
  g_assert_true (gtk_tree_list_row_is_expandable (tree_row));
  gtk_tree_list_row_set_expanded (tree_row, TRUE);
}

/* The names of the rows right below an expanded row, in table order */
static char *
child_names (GListModel *model,
             int         position)
{
  g_autoptr(GtkTreeListRow) parent = g_list_model_get_item (model, position);
  guint depth = gtk_tree_list_row_get_depth (parent);
  GString *names = g_string_new (NULL);

  for (guint i = position + 1; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);
      g_autoptr(PsScopeRow) row = NULL;

      if (gtk_tree_list_row_get_depth (tree_row) <= depth)
        break;
      if (gtk_tree_list_row_get_depth (tree_row) > depth + 1)
        continue;
      row = gtk_tree_list_row_get_item (tree_row);
      if (names->len > 0)
        g_string_append (names, " / ");
      g_string_append (names, ps_scope_row_get_name (row));
    }

  return g_string_free (names, FALSE);
}

static void
assert_scope_cell (PsRtlView  *view,
                   int         position,
                   const char *column,
                   const char *expected)
{
  g_autoptr(PsScopeRow) row = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpint (position, >=, 0);
  row = scope_row_at (ps_rtl_view_get_scope_model (view), position);
  text = ps_rtl_view_get_scope_cell_text (view, row, column);
  g_assert_cmpstr (text, ==, expected);
}

/* Whether a drawn label under widget shows text */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;

  return FALSE;
}

static PsScopeTotalRow *
find_total (GListModel *model,
            const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      PsScopeTotalRow *row = g_list_model_get_item (model, i);

      if (g_strcmp0 (ps_scope_total_row_get_name (row), name) == 0)
        return row;
      g_object_unref (row);
    }

  return NULL;
}

static void
assert_total_cell (PsRtlView       *view,
                   PsScopeTotalRow *row,
                   const char      *column,
                   const char      *expected)
{
  g_autofree char *text = ps_rtl_view_get_totals_cell_text (view, row, column);

  g_assert_cmpstr (text, ==, expected);
}

#define RTL_MAIN "desktop (ab123456) ::desktop::Desktop::Main"
#define RTL_SW_LOAD "sw (ef112233) ::SwDocShell::Load"

static void
test_rtl_open_example (Fixture       *fixture,
                       gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  PsRunPage *page = ps_window_get_current_page (fixture->window);
  GListModel *scopes = ps_rtl_view_get_scope_model (view);
  guint n_threads = 0;
  int main_row, open_documents, do_load, sw_load, styles;

  /* The RTL view, not the CE one */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_ce_view (page))));
  g_assert_true (iterate_until (widget_is_drawn, view));
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (view)), ==, "scopes");

  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "process"), ==, "4711");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "threads"), ==, "3");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "scopes"), ==, "9");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "messages"), ==, "7");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "closed"), ==, "at 2,013 ms");

  /* One top-level row per thread, with its scopes and its time */
  for (guint i = 0; i < g_list_model_get_n_items (scopes); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (scopes, i);
      g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);
      g_autofree char *name = NULL;

      if (gtk_tree_list_row_get_depth (tree_row) > 0)
        continue;
      n_threads++;
      name = g_strdup_printf ("Thread %u", n_threads);
      g_assert_cmpint (ps_scope_row_get_kind (row), ==, PS_SCOPE_ROW_THREAD);
      g_assert_cmpstr (ps_scope_row_get_name (row), ==, name);
    }
  g_assert_cmpuint (n_threads, ==, 3);
  {
    g_autoptr(PsScopeRow) thread1 = scope_row_at (scopes, 0);

    g_assert_cmpuint (ps_scope_row_get_n_spans (thread1), ==, 7);
    g_assert_cmpuint (ps_scope_row_get_n_marks (thread1), ==, 5);
    assert_scope_cell (view, 0, "Duration (ms)", "2,007");
  }

  /* Thread 1 opens to its message and Desktop::Main (rtl-logfile.md §6) */
  expand_scope_row (scopes, 0);
  {
    g_autofree char *names = child_names (scopes, 0);

    g_assert_cmpstr (names, ==, "PERFORMANCE - entering main / " RTL_MAIN);
  }

  main_row = find_scope_row (scopes, RTL_MAIN, 0);
  assert_scope_cell (view, main_row, "Begin (ms)", "3");
  assert_scope_cell (view, main_row, "Duration (ms)", "2,007");
  assert_scope_cell (view, main_row, "Exclusive (ms)", "1,037");
  assert_scope_cell (view, main_row, "Thread", "1");
  assert_scope_cell (view, main_row, "Status", "");
  /* 1246545872.402817 + 0.003 s, shown in the tooltip as UTC */
  {
    g_autoptr(PsScopeRow) row = scope_row_at (scopes, main_row);

    g_autofree char *tooltip = NULL;
    g_autofree char *text = NULL;
    gboolean dim;

    g_assert_cmpint (ps_scope_row_get_wall_ns (row), ==, G_GINT64_CONSTANT (1246545872405817000));
    /* rtl-logfile.md §6: 2009-07-02T14:44:32.405817Z, in the Begin cell's
     * tooltip */
    text = _ps_rtl_view_scope_cell_text (row, SCOPE_COLUMN_BEGIN, &tooltip, &dim);
    g_assert_cmpstr (text, ==, "3");
    g_assert_nonnull (strstr (tooltip, "2009-07-02T14:44:32.405817Z"));
  }

  expand_scope_row (scopes, main_row);
  {
    g_autofree char *names = child_names (scopes, main_row);

    g_assert_cmpstr (names, ==, "register services / configmgr (ij778899) ::configmgr::Provider::create / "
                                "splash screen shown / PERFORMANCE - open documents");
  }
  assert_scope_cell (view, find_scope_row (scopes, "register services", 0), "Duration (ms)", "126");
  assert_scope_cell (view, find_scope_row (scopes, "splash screen shown", 0), "Line", "13");

  open_documents = find_scope_row (scopes, "PERFORMANCE - open documents", 0);
  expand_scope_row (scopes, open_documents);
  do_load = find_scope_row (scopes, "PERFORMANCE SfxObjectShell::DoLoad", 0);
  expand_scope_row (scopes, do_load);
  sw_load = find_scope_row (scopes, RTL_SW_LOAD, 0);
  expand_scope_row (scopes, sw_load);
  assert_scope_cell (view, sw_load, "Duration (ms)", "505");
  assert_scope_cell (view, sw_load, "Exclusive (ms)", "449");
  assert_scope_cell (view, open_documents, "Exclusive (ms)", "251");

  /* The repaired message in place, with its line and status */
  styles = find_scope_row (scopes, "styles imported: 212", 0);
  g_assert_cmpint (styles, ==, sw_load + 2);
  assert_scope_cell (view, styles, "Line", "21");
  assert_scope_cell (view, styles, "Status", "context not open");
  assert_scope_cell (view, styles, "Duration (ms)", NULL);

  /* What the user sees: the cells were drawn */
  iterate_for (200);
  g_assert_true (shows_label (GTK_WIDGET (ps_rtl_view_get_scope_view (view)), "1,037"));
  g_assert_true (shows_label (GTK_WIDGET (ps_rtl_view_get_scope_view (view)), "styles imported: 212"));

  maybe_save_screenshot (fixture, "rtl-scopes");
}

/* Children sort among their siblings; the tree stays a tree */
static void
test_rtl_sort_scopes (Fixture       *fixture,
                      gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  GListModel *scopes = ps_rtl_view_get_scope_model (view);
  GtkColumnView *column_view = ps_rtl_view_get_scope_view (view);
  GtkColumnViewColumn *column = find_column (column_view, "Duration (ms)");
  int thread3;

  g_assert_nonnull (column);
  gtk_column_view_sort_by_column (column_view, column, GTK_SORT_DESCENDING);

  {
    g_autoptr(PsScopeRow) first = scope_row_at (scopes, 0);

    g_assert_cmpstr (ps_scope_row_get_name (first), ==, "Thread 1");
  }
  thread3 = find_scope_row (scopes, "Thread 3", 0);
  g_assert_cmpint (thread3, >, find_scope_row (scopes, "Thread 1", 0));
  g_assert_cmpint (thread3, <, find_scope_row (scopes, "Thread 2", 0));
  expand_scope_row (scopes, thread3);
  {
    g_autofree char *names = child_names (scopes, thread3);

    /* The scope before the message, which has no duration */
    g_assert_cmpstr (names, ==, "svtools (mn334455) ::svt::ThumbnailRenderer::run / worker thread started");
  }
}

static gboolean
widget_is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data));
}

static gboolean
model_has_one_item (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) == 1;
}

static gboolean
widget_is_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (GTK_WIDGET (data));
}

/* The Totals get their rows when their page shows: on a big log the
 * table's widgets for them would hold up the first view */
static void
test_rtl_totals_when_shown (Fixture       *fixture,
                            gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  GtkColumnView *column_view = ps_rtl_view_get_totals_view (view);
  GListModel *shown = G_LIST_MODEL (gtk_column_view_get_model (column_view));

  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (view)), ==, "scopes");
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (column_view)));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 0);
  /* Per thread, while hidden: still nothing made */
  ps_rtl_view_set_per_thread (view, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 0);

  ps_rtl_view_show_page (view, "totals");
  g_assert_true (iterate_until (widget_is_mapped, column_view));
  /* Nine scope names, each on one thread */
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 9);
  g_assert_cmpstr (gtk_column_view_column_get_title (find_column (column_view, "Thread")), ==, "Thread");

  /* Shown, the rows follow at once */
  ps_rtl_view_set_per_thread (view, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 9);
  ps_rtl_view_show_page (view, "scopes");
  g_assert_true (iterate_until (widget_is_unmapped, column_view));
  gtk_editable_set_text (GTK_EDITABLE (ps_run_view_get_search_entry (PS_RUN_VIEW (view))), "register");
  g_assert_true (iterate_until (model_has_one_item, shown));
  ps_rtl_view_show_page (view, "totals");
  g_assert_true (iterate_until (widget_is_mapped, column_view));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
}

static void
test_rtl_totals (Fixture       *fixture,
                 gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  GListModel *totals = ps_rtl_view_get_totals_model (view);
  GtkColumnView *column_view = ps_rtl_view_get_totals_view (view);
  g_autoptr(PsScopeTotalRow) main_total = NULL;
  g_autoptr(PsScopeTotalRow) register_services = NULL;

  ps_rtl_view_show_page (view, "totals");
  g_assert_cmpuint (g_list_model_get_n_items (totals), ==, 9);

  main_total = find_total (totals, RTL_MAIN);
  g_assert_nonnull (main_total);
  assert_total_cell (view, main_total, "Calls", "1");
  assert_total_cell (view, main_total, "Total (ms)", "2,007");
  assert_total_cell (view, main_total, "Min (ms)", "2,007");
  assert_total_cell (view, main_total, "Mean (ms)", "2,007");
  assert_total_cell (view, main_total, "Exclusive (ms)", "1,037");
  assert_total_cell (view, main_total, "Threads", "1");
  assert_total_cell (view, main_total, "Excluded", "0");
  assert_total_cell (view, main_total, "Context", "");

  register_services = find_total (totals, "register services");
  g_assert_nonnull (register_services);
  assert_total_cell (view, register_services, "Context", RTL_MAIN);
  assert_total_cell (view, register_services, "Total (ms)", "126");

  /* Sorted by total time, longest first */
  gtk_column_view_sort_by_column (column_view, find_column (column_view, "Total (ms)"), GTK_SORT_DESCENDING);
  {
    g_autoptr(PsScopeTotalRow) first = g_list_model_get_item (totals, 0);
    g_autoptr(PsScopeTotalRow) second = g_list_model_get_item (totals, 1);
    g_autoptr(PsScopeTotalRow) last = g_list_model_get_item (totals, 8);

    g_assert_cmpstr (ps_scope_total_row_get_name (first), ==, RTL_MAIN);
    g_assert_cmpstr (ps_scope_total_row_get_name (second), ==, "PERFORMANCE - open documents");
    g_assert_cmpstr (ps_scope_total_row_get_name (last), ==, "configmgr (ij778899) ::configmgr::Provider::create");
  }
  gtk_column_view_sort_by_column (column_view, find_column (column_view, "Total (ms)"), GTK_SORT_ASCENDING);
  {
    g_autoptr(PsScopeTotalRow) first = g_list_model_get_item (totals, 0);

    g_assert_cmpstr (ps_scope_total_row_get_name (first), ==, "configmgr (ij778899) ::configmgr::Provider::create");
  }
  /* Every column sorts */
  for (guint i = 0; i < g_list_model_get_n_items (gtk_column_view_get_columns (column_view)); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (gtk_column_view_get_columns (column_view), i);

      g_assert_nonnull (gtk_column_view_column_get_sorter (column));
    }

  iterate_for (200);
  g_assert_true (shows_label (GTK_WIDGET (column_view), "2,007"));
  maybe_save_screenshot (fixture, "rtl-totals");

  /* Per thread: the same scopes, each on its one thread */
  ps_rtl_view_set_per_thread (view, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (totals), ==, 9);
  g_assert_nonnull (find_column (column_view, "Thread"));
  {
    g_autoptr(PsScopeTotalRow) ucb = find_total (totals, "ucb (kl001122) ::ucb::Broker::init");

    assert_total_cell (view, ucb, "Thread", "2");
    assert_total_cell (view, ucb, "Total (ms)", "58");
  }
}

/* One search entry: a flat list of the matching scopes and messages, the
 * matching totals and warnings */
static void
test_rtl_search (Fixture       *fixture,
                 gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  GListModel *scopes = ps_rtl_view_get_scope_model (view);
  GtkEditable *search = ps_run_view_get_search_entry (PS_RUN_VIEW (view));

  gtk_editable_set_text (search, "LOAD");
  wait_for_rtl_view (view);

  g_assert_cmpuint (g_list_model_get_n_items (scopes), ==, 3);
  {
    g_autoptr(PsScopeRow) first = scope_row_at (scopes, 0);
    g_autoptr(PsScopeRow) second = scope_row_at (scopes, 1);
    g_autoptr(PsScopeRow) third = scope_row_at (scopes, 2);

    /* In file order, nested ones included */
    g_assert_cmpstr (ps_scope_row_get_name (first), ==, "PERFORMANCE SfxObjectShell::DoLoad");
    g_assert_cmpint (ps_scope_row_get_kind (second), ==, PS_SCOPE_ROW_MARK);
    g_assert_cmpstr (ps_scope_row_get_name (second), ==, "loading \"file:///home/user/report.odt\"");
    g_assert_cmpstr (ps_scope_row_get_name (third), ==, RTL_SW_LOAD);
  }
  /* A match opens like any scope */
  expand_scope_row (scopes, 2);
  g_assert_cmpuint (g_list_model_get_n_items (scopes), ==, 5);
  assert_scope_cell (view, 2, "Duration (ms)", "505");

  g_assert_cmpuint (g_list_model_get_n_items (ps_rtl_view_get_totals_model (view)), ==, 2);
  /* The repair's message names SwDocShell::Load */
  g_assert_cmpuint (g_list_model_get_n_items (ps_run_view_get_warning_model (PS_RUN_VIEW (view))), ==, 1);
  maybe_save_screenshot (fixture, "rtl-search");

  gtk_editable_set_text (search, "thumbnail");
  wait_for_rtl_view (view);
  g_assert_cmpuint (g_list_model_get_n_items (scopes), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (ps_run_view_get_warning_model (PS_RUN_VIEW (view))), ==, 0);

  gtk_editable_set_text (search, "not open");
  wait_for_rtl_view (view);
  g_assert_cmpuint (g_list_model_get_n_items (scopes), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (ps_run_view_get_warning_model (PS_RUN_VIEW (view))), ==, 1);

  /* Cleared: the tree again */
  gtk_editable_set_text (search, "");
  wait_for_rtl_view (view);
  g_assert_cmpuint (g_list_model_get_n_items (ps_rtl_view_get_totals_model (view)), ==, 9);
  {
    g_autoptr(PsScopeRow) first = scope_row_at (scopes, 0);

    g_assert_cmpstr (ps_scope_row_get_name (first), ==, "Thread 1");
  }
}

/* Include/exclude regular expressions on whole scopes (rtl-logfile.md §5) */
static void
test_rtl_filters (Fixture       *fixture,
                  gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  GListModel *scopes = ps_rtl_view_get_scope_model (view);
  GtkEditable *include = ps_rtl_view_get_include_entry (view);
  GtkEditable *exclude = ps_rtl_view_get_exclude_entry (view);
  int thread1, sw_load;

  gtk_editable_set_text (include, "SwDocShell|xmloff");
  wait_for_rtl_view (view);
  g_assert_null (ps_rtl_view_get_filter_error (view));
  g_assert_cmpuint (g_list_model_get_n_items (ps_rtl_view_get_totals_model (view)), ==, 2);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "scopes"), ==, "2 of 9");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "messages"), ==, "1 of 7");

  /* SwDocShell::Load moved up to Thread 1, with the message written in it;
   * Threads 2 and 3 have nothing left to show */
  g_assert_cmpint (find_scope_row (scopes, "Thread 2", 0), <, 0);
  g_assert_cmpint (find_scope_row (scopes, "Thread 3", 0), <, 0);
  thread1 = find_scope_row (scopes, "Thread 1", 0);
  {
    g_autoptr(PsScopeRow) row = scope_row_at (scopes, thread1);
    g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (scopes, thread1);
    g_autofree char *names = NULL;

    g_assert_cmpuint (ps_scope_row_get_n_spans (row), ==, 2);
    g_assert_cmpuint (ps_scope_row_get_n_marks (row), ==, 1);
    gtk_tree_list_row_set_expanded (tree_row, TRUE);
    names = child_names (scopes, thread1);
    g_assert_cmpstr (names, ==, RTL_SW_LOAD);
  }
  /* Self times stay those of the scope */
  sw_load = find_scope_row (scopes, RTL_SW_LOAD, 0);
  assert_scope_cell (view, sw_load, "Duration (ms)", "505");
  assert_scope_cell (view, sw_load, "Exclusive (ms)", "449");
  maybe_save_screenshot (fixture, "rtl-include");

  /* Exclude only */
  gtk_editable_set_text (include, "");
  gtk_editable_set_text (exclude, "^PERFORMANCE");
  g_signal_emit_by_name (exclude, "activate");
  wait_for_rtl_view (view);
  g_assert_cmpuint (g_list_model_get_n_items (ps_rtl_view_get_totals_model (view)), ==, 7);
  g_assert_null (find_total (ps_rtl_view_get_totals_model (view), "PERFORMANCE - open documents"));

  /* A bad expression: said inline, the shown data stays */
  gtk_editable_set_text (include, "(unclosed");
  wait_for_rtl_view (view);
  g_assert_nonnull (ps_rtl_view_get_filter_error (view));
  g_assert_nonnull (strstr (ps_rtl_view_get_filter_error (view), "Include"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (include), "error"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (exclude), "error"));
  g_assert_cmpuint (g_list_model_get_n_items (ps_rtl_view_get_totals_model (view)), ==, 7);
  iterate_for (100);
  maybe_save_screenshot (fixture, "rtl-bad-regex");

  /* Fixed, then cleared: everything again */
  gtk_editable_set_text (include, "");
  gtk_editable_set_text (exclude, "");
  wait_for_rtl_view (view);
  g_assert_null (ps_rtl_view_get_filter_error (view));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (include), "error"));
  g_assert_cmpuint (g_list_model_get_n_items (ps_rtl_view_get_totals_model (view)), ==, 9);
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "scopes"), ==, "9");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "messages"), ==, "7");
}

static void
test_rtl_warnings (Fixture       *fixture,
                   gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  GListModel *warnings = ps_run_view_get_warning_model (PS_RUN_VIEW (view));
  PsRunPage *page = ps_window_get_current_page (fixture->window);

  g_assert_cmpuint (g_list_model_get_n_items (warnings), ==, 1);
  {
    g_autoptr(PsWarningRow) row = g_list_model_get_item (warnings, 0);

    g_assert_cmpstr (ps_warning_row_get_code (row), ==, "I-CONTEXT-NOT-OPEN");
    g_assert_cmpuint (ps_warning_row_get_line (row), ==, 21);
    g_assert_cmpint (ps_warning_row_get_severity (row), ==, PS_SEVERITY_INFO);
  }
  g_assert_cmpstr (ps_run_view_get_warnings_title (PS_RUN_VIEW (view)), ==, "_Warnings (1)");

  /* The run page's action shows them */
  gtk_widget_activate_action (GTK_WIDGET (page), "run.show-warnings", NULL);
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (view)), ==, "warnings");
  iterate_for (200);
  g_assert_true (shows_label (GTK_WIDGET (view), "I-CONTEXT-NOT-OPEN"));
  g_assert_true (shows_label (GTK_WIDGET (view), "21"));
  maybe_save_screenshot (fixture, "rtl-warnings");
}

/* The header's counts have their digits grouped, as every count of the
 * window has: the demo log's 1711 scopes read "1,711" (the C locale's
 * grouping is a comma). It read "1711". So do the counts written in
 * sentences, as a thread's row (it read "1200 scopes"). */
static void
test_rtl_header_counts (Fixture       *fixture,
                        gconstpointer  data)
{
  PsRtlView *view = open_rtl_demo (fixture);

  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "scopes"), ==, "1,711");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "messages"), ==, "466");
  gtk_widget_activate_action (GTK_WIDGET (view), "run.close", NULL);

  {
    /* 1200 scopes on each of two threads */
    g_autoptr(GString) log = many_scopes_log (2400);
    g_autoptr(GFile) many = write_temp_file (fixture, "soffice_4711.log", log->str, log->len);

    view = open_rtl_file (fixture, many);
    g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "scopes"), ==, "2,400");
    ps_rtl_view_show_page (view, "scopes");
    iterate_for (200);
    g_assert_true (shows_label (GTK_WIDGET (ps_rtl_view_get_scope_view (view)), "1,200 scopes · 0 messages"));
  }
}

/* The warnings are listed in the order of their lines, where the parser
 * tells of a scope left open (line 1035) when the scope around it ends
 * (line 1078), after the message of line 1037 */
static void
test_rtl_warnings_line_order (Fixture       *fixture,
                              gconstpointer  data)
{
  PsRtlView *view = open_rtl_demo (fixture);
  GListModel *warnings;
  GListModel *shown;
  guint64 previous = 0;
  guint position_1035 = G_MAXUINT, position_1037 = G_MAXUINT;

  warnings = ps_run_view_get_warning_model (PS_RUN_VIEW (view));
  shown = G_LIST_MODEL (gtk_column_view_get_model (view->warning_view));
  g_assert_cmpuint (g_list_model_get_n_items (warnings), >, 12);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, g_list_model_get_n_items (warnings));
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(PsWarningRow) row = g_list_model_get_item (shown, i);
      guint64 line = ps_warning_row_get_line (row);

      g_assert_cmpuint (line, >=, previous);
      previous = line;
      if (line == 1035)
        {
          position_1035 = i;
          g_assert_cmpstr (ps_warning_row_get_code (row), ==, "W-UNTERMINATED");
        }
      else if (line == 1037)
        position_1037 = i;
    }
  g_assert_cmpuint (position_1035, <, position_1037);
  gtk_widget_activate_action (GTK_WIDGET (view), "run.show-warnings", NULL);
  iterate_for (200);
  maybe_save_screenshot (fixture, "rtl-warnings-line-order");
}

/* Unterminated scopes: a lower bound, marked, left out of the totals */
static gboolean
timeline_has_model (gpointer data)
{
  return ps_timeline_view_get_model (data) != NULL;
}

static void
test_rtl_unterminated (Fixture       *fixture,
                       gconstpointer  data)
{
  static const char log[] =
    "opening log file 1246545872.402817 seconds past January 1st 1970\n"
    "corresponding to 0 ms after timer start\n"
    "000010 1 { app (ab123456) ::Outer\n"
    "000020 1 { app (ab123456) ::Inner\n"
    "000050 1 } app (ab123456) ::Inner\n"
    "000090 1 | app (ab123456) ::Outer : still working\n";
  g_autoptr(GFile) file = write_temp_file (fixture, "cut_42.log", log, -1);
  PsRunPage *page = open_and_wait (fixture, file);
  PsRtlView *view = ps_run_page_get_rtl_view (page);
  GListModel *scopes = ps_rtl_view_get_scope_model (view);
  int outer;

  wait_for_rtl_view (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "closed"), ==, "No close line");

  /* A single thread opens by itself */
  outer = find_scope_row (scopes, "app (ab123456) ::Outer", 0);
  g_assert_cmpint (outer, ==, 1);
  assert_scope_cell (view, outer, "Duration (ms)", "≥ 80");
  assert_scope_cell (view, outer, "Status", "unterminated");
  /* The thread's row is not "0" above its 80 ms scope: the thread's
   * extent, from its first record to its last */
  assert_scope_cell (view, 0, "Duration (ms)", "80");
  /* Times of day in UTC, as the opening line gives them, and named so in
   * the column's title, the header and the timeline's axis alike */
  assert_scope_cell (view, outer, "Time of day (UTC)", "14:44:32.412");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "opened"), ==, "2009-07-02 14:44:32.402 UTC");
  {
    PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
    g_autofree char *wall = NULL;

    g_assert_true (iterate_until (timeline_has_model, timeline));
    wall = ps_timeline_format_wall (ps_timeline_view_get_model (timeline), 0);
    g_assert_cmpstr (wall, ==, "2009-07-02 14:44:32.402 UTC");
  }
  {
    g_autoptr(PsScopeTotalRow) total = find_total (ps_rtl_view_get_totals_model (view), "app (ab123456) ::Outer");

    g_assert_nonnull (total);
    assert_total_cell (view, total, "Calls", "0");
    assert_total_cell (view, total, "Excluded", "1");
    assert_total_cell (view, total, "Total (ms)", "–");
  }
  g_assert_true (has_warning (ps_run_view_get_warning_model (PS_RUN_VIEW (view)), "W-UNTERMINATED"));
}

/* Every number says what it is: units in the titles of the columns, one
 * rule for the digits ("390,095", not "390095.238095"), and a memory
 * chart whose flat line starts at 0 unless zoomed, which it then says */
static void
test_ce_units (Fixture       *fixture,
               gconstpointer  data)
{
  static const char log[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
    "## PERF ## REGISTERED APP [a] PROCCESSID [0x1]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [MEM: a] AS [102] BY APP [a]\r\n"
    "## PERF ## APP [a] EVT [102] MEM [10727424]\r\n"
    "## PERF ## REGISTERED MARKER [Test=Write,Bytes=4096,time=%AVG%,Bps AVG=%Bytes%/%AVG%] AS [0] BY APP [a]\r\n"
    "## PERF ## APP [a] EVT [0] DUR [10]\r\n"
    "## PERF ## APP [a] EVT [0] DUR [11]\r\n"
    "## PERF ## APP [a] EVT [102] MEM [10743808]\r\n"
    "## PERF ## APP [a] EVT [102] MEM [10735616]\r\n";
  g_autoptr(GFile) file = write_temp_file (fixture, "units.log", log, sizeof log - 1);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  GtkColumnView *column_view = ps_ce_view_get_marker_view (view);
  PsCounterChart *chart = ps_ce_view_get_memory_chart (view);
  g_autofree char *description = NULL;
  GtkWidget *label;
  char *tooltip;
  gint64 x_begin, x_end;
  double y_min, y_max;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_true (iterate_until (widget_is_drawn, column_view));
  iterate_for (100);

  /* "time=%AVG%" is a duration, in the unit its title names; "Bps AVG"
   * is Bytes per second; the statistics name their unit too */
  g_assert_nonnull (find_column (column_view, "time (ms)"));
  g_assert_null (find_column (column_view, "time"));
  g_assert_nonnull (find_column (column_view, "Bps AVG (Bytes/s)"));
  g_assert_nonnull (find_column (column_view, "Mean (ms)"));
  g_assert_nonnull (find_column (column_view, "Total (ms)"));
  g_assert_nonnull (find_column (column_view, "Mean (ticks)"));
  g_assert_nonnull (find_column (column_view, "Bytes"));

  /* 4096 B / 10.5 ms, with its digits grouped and no six decimals */
  label = find_widget (GTK_WIDGET (column_view), is_drawn_label, "390,095");
  g_assert_nonnull (label);
  g_assert_cmpfloat (gtk_label_get_xalign (GTK_LABEL (label)), ==, 1.0);
  tooltip = ps_view_cell_dup_tooltip (label);
  g_assert_cmpstr (tooltip, ==, "390095.238095 Bytes/s");
  g_free (tooltip);
  g_assert_null (find_widget (GTK_WIDGET (column_view), is_drawn_label, "390095.238095"));
  /* The mean, 10.5 ms, by the rule: two decimals below 100; exact in
   * the tooltip */
  label = find_widget (GTK_WIDGET (column_view), is_drawn_label, "10.50");
  g_assert_nonnull (label);
  /* made when asked for: binding a row sets no tooltip, which would
   * cost GTK a round trip to the X server per cell */
  g_assert_null (gtk_widget_get_tooltip_text (label));
  g_assert_true (gtk_widget_get_has_tooltip (label));
  tooltip = ps_view_cell_dup_tooltip (label);
  g_assert_cmpstr (tooltip, ==, "0.0105 s");
  g_free (tooltip);
  g_assert_null (find_widget (GTK_WIDGET (column_view), is_drawn_label, "0.010500"));
  g_assert_nonnull (find_widget (GTK_WIDGET (column_view), is_drawn_label, "21.00"));

  /* The memory chart of a flat 10.23–10.25 MiB: from 0 */
  ps_ce_view_show_page (view, "cpu-memory");
  g_assert_true (iterate_until (widget_is_drawn, chart));
  iterate_for (100);
  g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_min, &y_max));
  g_assert_cmpfloat (y_min, ==, 0);
  g_assert_cmpfloat (y_max, >=, 10743808 / 1048576.0);
  g_assert_null (ps_counter_chart_get_axis_note (chart));
  g_assert_false (ps_counter_chart_get_zoomed (chart));
  g_assert_true (gtk_widget_get_visible (ps_counter_chart_get_zoom_button (chart)));
  /* In MiB, as its title says */
  description = ps_counter_chart_get_description (chart);
  g_assert_nonnull (strstr (description, "MiB"));

  /* Zoomed by its button: the data's range, and the title says so */
  g_signal_emit_by_name (ps_counter_chart_get_zoom_button (chart), "clicked");
  g_assert_true (ps_counter_chart_get_zoomed (chart));
  iterate_for (100);
  g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_min, &y_max));
  g_assert_cmpfloat (y_min, >, 10);
  g_assert_cmpfloat (y_min, <=, 10727424 / 1048576.0);
  g_assert_cmpfloat (y_max, >=, 10743808 / 1048576.0);
  g_assert_cmpfloat (y_max, <, 10.5);
  g_assert_nonnull (ps_counter_chart_get_axis_note (chart));

  /* And back */
  g_signal_emit_by_name (ps_counter_chart_get_zoom_button (chart), "clicked");
  iterate_for (100);
  g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_min, &y_max));
  g_assert_cmpfloat (y_min, ==, 0);
  g_assert_null (ps_counter_chart_get_axis_note (chart));
}

/* The one rule for digits and units, as the views write them */
static void
test_number_rule (Fixture       *fixture,
                  gconstpointer  data)
{
  static const struct {
    PsViewQuantity  quantity;
    double          value;
    const char     *text;
  } quantities[] = {
    { PS_VIEW_QUANTITY_SECONDS, 0.0051953, "5.20 ms" },
    { PS_VIEW_QUANTITY_SECONDS, 2.137, "2.14 s" },
    { PS_VIEW_QUANTITY_SECONDS, 3585, "3,585 s" },
    { PS_VIEW_QUANTITY_SECONDS, 0.00000052, "520 ns" },
    { PS_VIEW_QUANTITY_BYTES, 512, "512 B" },
    { PS_VIEW_QUANTITY_BYTES, 11202560, "10.68 MiB" },
    { PS_VIEW_QUANTITY_PERCENT, 42.9612, "42.96 %" },
    { PS_VIEW_QUANTITY_TICKS, 444315, "444,315 ticks" },
    { PS_VIEW_QUANTITY_NONE, 400428.168879, "400,428" },
  };
  double scale;

  for (guint i = 0; i < G_N_ELEMENTS (quantities); i++)
    {
      g_autofree char *text = ps_view_format_quantity (quantities[i].quantity, quantities[i].value);

      g_assert_cmpstr (text, ==, quantities[i].text);
    }
  {
    g_autofree char *whole = ps_view_format_number_whole (1906);
    g_autofree char *mean = ps_view_format_number_whole (18.3333);

    g_assert_cmpstr (whole, ==, "1,906");
    g_assert_cmpstr (mean, ==, "18.33");
  }

  /* A column of 1.79 ms to 2.137 s reads in ms, not in s */
  g_assert_cmpstr (ps_view_quantity_unit_for_range (PS_VIEW_QUANTITY_SECONDS, 0.00179, 2.137, &scale), ==, "ms");
  g_assert_cmpfloat (scale, ==, 1e-3);
  g_assert_cmpstr (ps_view_quantity_unit_for_range (PS_VIEW_QUANTITY_SECONDS, 9, 100, &scale), ==, "s");
  g_assert_cmpstr (ps_view_quantity_unit_for_range (PS_VIEW_QUANTITY_SECONDS, 0, 0.004, &scale), ==, "ms");

  /* Zones as the file gives them: a minus sign, hours and minutes */
  {
    g_autofree char *utc = ps_view_format_zone (0);
    g_autofree char *pacific = ps_view_format_zone (-480);
    g_autofree char *india = ps_view_format_zone (330);
    g_autofree char *wall = ps_view_format_wall_time (G_GINT64_CONSTANT (1709542800123000000), -480, "%Y-%m-%d %H:%M:%S");

    g_assert_cmpstr (utc, ==, "UTC");
    g_assert_cmpstr (pacific, ==, "UTC−08:00");
    g_assert_cmpstr (india, ==, "UTC+05:30");
    g_assert_cmpstr (wall, ==, "2024-03-04 01:00:00.123 UTC−08:00");
  }
}

/* CE PerfLog files keep their view */
static void
test_rtl_not_for_ce (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GFile) file = spec_example_file ();
  PsRunPage *page = open_and_wait (fixture, file);

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_ce_view (page))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_rtl_view (page))));
  g_assert_cmpuint (g_list_model_get_n_items (ps_ce_view_get_marker_model (ps_run_page_get_ce_view (page))), ==, 4);
}

/* The call-tree page (vs-instrumentation.md §3, §4) */

static void
wait_for_call_tree_view (PsCallTreeView *view)
{
  g_assert_true (iterate_until (call_tree_is_idle, view));
}

/* The RTL example's Call Tree page, drawn */
static PsCallTreeView *
open_rtl_call_tree (Fixture *fixture)
{
  PsRtlView *rtl_view = open_rtl_example (fixture);
  PsCallTreeView *view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (rtl_view));

  ps_rtl_view_show_page (rtl_view, "calltree");
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (rtl_view)), ==, "calltree");
  g_assert_true (iterate_until (widget_is_drawn, view));
  wait_for_call_tree_view (view);
  return view;
}

/* The row of the call-tree table at a position (transfer full) */
static PsCallNodeRow *
call_row_at (GListModel *model,
             guint       position)
{
  g_autoptr(GObject) item = g_list_model_get_item (model, position);

  g_assert_nonnull (item);
  if (GTK_IS_TREE_LIST_ROW (item))
    return gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (item));
  g_assert_true (PS_IS_CALL_NODE_ROW (item));
  return g_object_ref (PS_CALL_NODE_ROW (item));
}

/* The position of the first row of that name, or -1 */
static int
find_call_row (GListModel *model,
               const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsCallNodeRow) row = call_row_at (model, i);

      if (g_strcmp0 (ps_call_node_row_get_name (row), name) == 0)
        return i;
    }

  return -1;
}

/* The names of the rows, " / " between them */
static char *
call_row_names (GListModel *model)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsCallNodeRow) row = call_row_at (model, i);

      if (names->len > 0)
        g_string_append (names, " / ");
      g_string_append (names, ps_call_node_row_get_name (row));
    }

  return g_string_free (names, FALSE);
}

static guint
call_row_depth (GListModel *model,
                guint       position)
{
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, position);

  return gtk_tree_list_row_get_depth (tree_row);
}

static void
assert_call_cell (PsCallTreeView *view,
                  GListModel     *model,
                  int             position,
                  CallColumn      column,
                  const char     *expected)
{
  g_autoptr(PsCallNodeRow) row = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpint (position, >=, 0);
  row = call_row_at (model, position);
  text = ps_call_tree_view_get_cell_text (view, row, column);
  g_assert_cmpstr (text, ==, expected);
}

static const char *
column_title (PsCallTreeView *view,
              CallColumn      column)
{
  return gtk_column_view_column_get_title (ps_call_tree_view_get_column (view, column));
}

/* What the engine computes for the same store, row by row, as the table
 * prints it (RTL: whole milliseconds) */
static void
assert_rows_match_engine (PsCallTreeView *view,
                          PsCallTree     *reference)
{
  GListModel *model = ps_call_tree_view_get_model (view);

  g_assert_cmpuint (g_list_model_get_n_items (model), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsCallNodeRow) row = call_row_at (model, i);
      guint32 node = ps_call_node_row_get_index (row);
      const PsCallStats *stats = ps_call_tree_get_node_stats (reference, node);

      g_assert_cmpint (ps_call_node_row_get_kind (row), ==, PS_CALL_NODE_ROW_TOP_DOWN);
      g_assert_cmpstr (ps_call_node_row_get_name (row), ==,
                       ps_call_tree_get_function_name (reference, ps_call_tree_get_node_function (reference, node)));
      for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
        {
          g_autofree char *value = ps_view_format_fixed (stats->total[v] / 1e6, 0);
          g_autofree char *percent =
            g_strdup_printf ("%.2f", ps_call_tree_get_percent (reference, stats, v, PS_CALL_BASIS_S1));

          assert_call_cell (view, model, i, CALL_COLUMN_VALUE (v), value);
          assert_call_cell (view, model, i, CALL_COLUMN_PERCENT (v), percent);
        }
      {
        g_autofree char *calls = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->calls);

        assert_call_cell (view, model, i, CALL_COLUMN_CALLS, calls);
      }
    }
}

#define CT_MAIN "::desktop::Desktop::Main"
#define CT_OPEN_DOCUMENTS "PERFORMANCE - open documents"
#define CT_DO_LOAD "PERFORMANCE SfxObjectShell::DoLoad"
#define CT_SW_LOAD "::SwDocShell::Load"
#define CT_THUMBNAIL "::svt::ThumbnailRenderer::run"

static void
test_call_tree_rtl (Fixture       *fixture,
                    gconstpointer  data)
{
  PsCallTreeView *view = open_rtl_call_tree (fixture);
  PsRunPage *page = ps_window_get_current_page (fixture->window);
  GListModel *model = ps_call_tree_view_get_model (view);
  g_autoptr(PsCallTree) reference = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *names = NULL;
  int main_row;

  reference = ps_call_tree_new_for_store (ps_run_page_get_store (page), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ps_call_tree_view_get_tree (view));
  g_assert_cmpstr (ps_call_tree_view_get_mode (view), ==, "top-down");

  /* Units in every value header */
  g_assert_cmpstr (column_title (view, CALL_COLUMN_FUNCTION), ==, "Function");
  g_assert_cmpstr (column_title (view, CALL_COLUMN_CALLS), ==, "Calls");
  g_assert_cmpstr (column_title (view, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE)), ==, "Elapsed incl.\n(ms)");
  g_assert_cmpstr (column_title (view, CALL_COLUMN_VALUE (PS_CALL_VALUE_APPLICATION_EXCLUSIVE)), ==, "Application excl.\n(ms)");
  g_assert_cmpstr (column_title (view, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE)), ==, "%");

  /* RTL logs have no OS events: said, not hidden; and the totals, more
   * than the log's time, say that they add up threads */
  g_assert_cmpstr (ps_call_tree_view_get_notice (view), ==,
                   "3 threads ran side by side: their calls add up to 2,698 ms, "
                   "more than the 2,010 ms from the log’s first record to its last. "
                   "No OS events: application time is elapsed time.");
  g_assert_null (ps_call_tree_view_get_percent_label (view));
  g_assert_cmpstr (ps_call_tree_view_get_status (view), ==,
                   "9 functions · elapsed total 2,698 ms · application total 2,698 ms");

  /* The three threads' entry points, largest first; the biggest one open */
  names = call_row_names (model);
  g_assert_cmpstr (names, ==, CT_MAIN " / " CT_OPEN_DOCUMENTS " / register services / ::configmgr::Provider::create / "
                              CT_THUMBNAIL " / ::ucb::Broker::init");
  g_assert_cmpuint (call_row_depth (model, 1), ==, 1);
  assert_rows_match_engine (view, reference);

  /* By hand (rtl-startup log): Desktop::Main runs 3…2010 ms; inside it
   * 126 + 39 + 805 ms of scopes, so 1037 ms of its own; 2698 ms are the
   * three threads' top-level scopes together */
  main_row = find_call_row (model, CT_MAIN);
  g_assert_cmpint (main_row, ==, 0);
  assert_call_cell (view, model, main_row, CALL_COLUMN_CALLS, "1");
  assert_call_cell (view, model, main_row, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "2,007");
  assert_call_cell (view, model, main_row, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "1,037");
  assert_call_cell (view, model, main_row, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "74.39");
  assert_call_cell (view, model, main_row, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "38.44");
  assert_call_cell (view, model, main_row, CALL_COLUMN_VALUE (PS_CALL_VALUE_APPLICATION_INCLUSIVE), "2,007");

  /* Deeper rows open on request and keep to their parent */
  {
    int open_documents = find_call_row (model, CT_OPEN_DOCUMENTS);
    g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, open_documents);
    int do_load;

    gtk_tree_list_row_set_expanded (tree_row, TRUE);
    do_load = find_call_row (model, CT_DO_LOAD);
    g_assert_cmpint (do_load, ==, open_documents + 1);
    g_assert_cmpuint (call_row_depth (model, do_load), ==, 2);
    assert_call_cell (view, model, do_load, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "554");
    assert_call_cell (view, model, do_load, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "49");
  }
  assert_rows_match_engine (view, reference);

  /* What the user sees */
  iterate_for (200);
  g_assert_true (shows_label (GTK_WIDGET (ps_call_tree_view_get_column_view (view)), "2,007"));
  g_assert_true (shows_label (GTK_WIDGET (ps_call_tree_view_get_column_view (view)), "74.39"));
  g_assert_true (shows_label (GTK_WIDGET (ps_call_tree_view_get_column_view (view)), CT_MAIN));
  maybe_save_screenshot (fixture, "calltree-rtl");
}

/* The most expensive function by any value: Functions, then a header */
static void
test_call_tree_functions_sort (Fixture       *fixture,
                               gconstpointer  data)
{
  PsCallTreeView *view = open_rtl_call_tree (fixture);
  GListModel *model = ps_call_tree_view_get_model (view);
  GtkColumnView *column_view = ps_call_tree_view_get_column_view (view);

  ps_call_tree_view_set_mode (view, "functions");
  wait_for_call_tree_view (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 9);

  /* Elapsed inclusive, largest first, is the default */
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, CT_MAIN " / " CT_OPEN_DOCUMENTS " / " CT_THUMBNAIL " / " CT_DO_LOAD " / " CT_SW_LOAD
                                " / register services / ::ucb::Broker::init / ::SvXMLImport::startDocument / "
                                "::configmgr::Provider::create");
  }

  gtk_column_view_sort_by_column (column_view, ps_call_tree_view_get_column (view, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_EXCLUSIVE)),
                                  GTK_SORT_DESCENDING);
  wait_for_call_tree_view (view);
  {
    g_autoptr(PsCallNodeRow) first = call_row_at (model, 0);
    g_autoptr(PsCallNodeRow) second = call_row_at (model, 1);
    g_autoptr(PsCallNodeRow) third = call_row_at (model, 2);
    g_autoptr(PsCallNodeRow) fourth = call_row_at (model, 3);

    /* 1037, 633, 449 and 251 ms of their own */
    g_assert_cmpstr (ps_call_node_row_get_name (first), ==, CT_MAIN);
    g_assert_cmpstr (ps_call_node_row_get_name (second), ==, CT_THUMBNAIL);
    g_assert_cmpstr (ps_call_node_row_get_name (third), ==, CT_SW_LOAD);
    g_assert_cmpstr (ps_call_node_row_get_name (fourth), ==, CT_OPEN_DOCUMENTS);
    assert_call_cell (view, model, 2, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "449");
    assert_call_cell (view, model, 2, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "16.64");
  }

  /* Smallest application exclusive first, by its percentage column */
  gtk_column_view_sort_by_column (column_view, ps_call_tree_view_get_column (view, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_EXCLUSIVE)),
                                  GTK_SORT_ASCENDING);
  wait_for_call_tree_view (view);
  {
    g_autoptr(PsCallNodeRow) first = call_row_at (model, 0);
    g_autoptr(PsCallNodeRow) last = call_row_at (model, 8);

    g_assert_cmpstr (ps_call_node_row_get_name (first), ==, "::configmgr::Provider::create");
    g_assert_cmpstr (ps_call_node_row_get_name (last), ==, CT_MAIN);
  }

  /* Back in the tree, children sort within their parent */
  ps_call_tree_view_set_mode (view, "top-down");
  wait_for_call_tree_view (view);
  gtk_column_view_sort_by_column (column_view, ps_call_tree_view_get_column (view, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE)),
                                  GTK_SORT_ASCENDING);
  wait_for_call_tree_view (view);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, "::ucb::Broker::init / " CT_THUMBNAIL " / " CT_MAIN
                                " / ::configmgr::Provider::create / register services / " CT_OPEN_DOCUMENTS);
  }
  maybe_save_screenshot (fixture, "calltree-functions");
}

static void
test_call_tree_search (Fixture       *fixture,
                       gconstpointer  data)
{
  PsCallTreeView *view = open_rtl_call_tree (fixture);
  GListModel *model = ps_call_tree_view_get_model (view);

  /* The paths to the matches, open; the first match shows all below it */
  ps_call_tree_view_set_search (view, "LOAD");
  wait_for_call_tree_view (view);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, CT_MAIN " / " CT_OPEN_DOCUMENTS " / " CT_DO_LOAD " / " CT_SW_LOAD);
  }
  g_assert_cmpuint (call_row_depth (model, 3), ==, 3);
  g_assert_cmpstr (ps_call_tree_view_get_status (view), ==,
                   "2 of 9 functions match “LOAD” · elapsed total 2,698 ms · application total 2,698 ms");
  {
    g_autoptr(GtkTreeListRow) sw_load = g_list_model_get_item (model, 3);

    gtk_tree_list_row_set_expanded (sw_load, TRUE);
    g_assert_cmpint (find_call_row (model, "::SvXMLImport::startDocument"), ==, 4);
  }
  iterate_for (100);
  maybe_save_screenshot (fixture, "calltree-search");

  /* The same search on the functions */
  ps_call_tree_view_set_mode (view, "functions");
  wait_for_call_tree_view (view);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, CT_DO_LOAD " / " CT_SW_LOAD);
  }

  /* And bottom-up: a function, then the callers it was called from */
  ps_call_tree_view_set_mode (view, "bottom-up");
  ps_call_tree_view_set_search (view, "thumbnail");
  wait_for_call_tree_view (view);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, CT_THUMBNAIL);
  }
  /* Functions at the top that match; not those below whose callers do */
  ps_call_tree_view_set_search (view, "desktop::main");
  wait_for_call_tree_view (view);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, CT_MAIN);
  }
  ps_call_tree_view_set_search (view, "configmgr");
  wait_for_call_tree_view (view);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, "::configmgr::Provider::create");
  }
  {
    g_autoptr(GtkTreeListRow) configmgr = g_list_model_get_item (model, 0);

    gtk_tree_list_row_set_expanded (configmgr, TRUE);
    g_assert_cmpint (find_call_row (model, CT_MAIN), ==, 1);
  }
  iterate_for (100);
  maybe_save_screenshot (fixture, "calltree-bottom-up");

  ps_call_tree_view_set_search (view, "no such function");
  wait_for_call_tree_view (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  iterate_for (50);
  g_assert_true (shows_label (GTK_WIDGET (view), "No function matches “no such function”"));

  /* Cleared: every function again */
  ps_call_tree_view_set_search (view, "");
  wait_for_call_tree_view (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 9);
}

static void
test_call_tree_callers (Fixture       *fixture,
                        gconstpointer  data)
{
  PsCallTreeView *view = open_rtl_call_tree (fixture);
  PsCallTree *tree = ps_call_tree_view_get_tree (view);
  GListModel *model = ps_call_tree_view_get_model (view);
  GListModel *callers = ps_call_tree_view_get_callers_model (view);
  GListModel *callees = ps_call_tree_view_get_callees_model (view);
  guint32 sw_load = ps_call_tree_lookup_function (tree, CT_SW_LOAD);
  guint32 main_function = ps_call_tree_lookup_function (tree, CT_MAIN);

  g_assert_cmpuint (sw_load, !=, PS_NONE);
  g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 0);

  g_assert_true (ps_call_tree_view_select_function (view, sw_load));
  g_assert_cmpstr (ps_call_tree_view_get_mode (view), ==, "functions");
  g_assert_cmpuint (ps_call_tree_view_get_selected_function (view), ==, sw_load);
  {
    GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (ps_call_tree_view_get_column_view (view)));
    g_autoptr(PsCallNodeRow) selected = call_row_at (model, gtk_single_selection_get_selected (selection));

    g_assert_cmpstr (ps_call_node_row_get_name (selected), ==, CT_SW_LOAD);
  }

  /* SwDocShell::Load is called by DoLoad only, and calls the XML import */
  {
    g_autofree char *caller_names = call_row_names (callers);
    g_autofree char *callee_names = call_row_names (callees);

    g_assert_cmpstr (caller_names, ==, CT_DO_LOAD);
    g_assert_cmpstr (callee_names, ==, "::SvXMLImport::startDocument");
  }
  assert_call_cell (view, callers, 0, CALL_COLUMN_CALLS, "1");
  assert_call_cell (view, callers, 0, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "505");
  assert_call_cell (view, callers, 0, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "449");
  assert_call_cell (view, callers, 0, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "18.72");
  assert_call_cell (view, callees, 0, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "56");
  iterate_for (200);
  g_assert_true (shows_label (GTK_WIDGET (ps_call_tree_view_get_callers_view (view)), CT_DO_LOAD));
  g_assert_true (shows_label (GTK_WIDGET (ps_call_tree_view_get_callees_view (view)), "::SvXMLImport::startDocument"));
  maybe_save_screenshot (fixture, "calltree-callers");

  /* Activating a caller (Enter) goes to it */
  g_signal_emit_by_name (ps_call_tree_view_get_callers_view (view), "activate", 0);
  {
    g_autofree char *caller_names = call_row_names (callers);
    g_autofree char *callee_names = call_row_names (callees);

    g_assert_cmpuint (ps_call_tree_view_get_selected_function (view), ==,
                      ps_call_tree_lookup_function (tree, CT_DO_LOAD));
    g_assert_cmpstr (caller_names, ==, CT_OPEN_DOCUMENTS);
    g_assert_cmpstr (callee_names, ==, CT_SW_LOAD);
  }
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (ps_call_tree_view_get_column_view (view)))
                 || gtk_widget_is_ancestor (gtk_root_get_focus (gtk_widget_get_root (GTK_WIDGET (view))),
                                            GTK_WIDGET (ps_call_tree_view_get_column_view (view))));

  /* An entry point has no caller; that row goes nowhere */
  g_assert_true (ps_call_tree_view_select_function (view, main_function));
  {
    g_autofree char *caller_names = call_row_names (callers);

    g_assert_cmpstr (caller_names, ==, "(entry point)");
  }
  g_signal_emit_by_name (ps_call_tree_view_get_callers_view (view), "activate", 0);
  g_assert_cmpuint (ps_call_tree_view_get_selected_function (view), ==, main_function);

  /* A search that hides the function is cleared to show it */
  ps_call_tree_view_set_search (view, "thumbnail");
  wait_for_call_tree_view (view);
  g_assert_true (ps_call_tree_view_select_function (view, sw_load));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 9);
}

/* The worked example of vs-instrumentation.md §5, with its OS events */
static PsCallTree *
worked_example_tree (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  guint32 main_function = ps_call_tree_builder_intern_function (builder, "main", NULL);
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", NULL);
  guint32 b = ps_call_tree_builder_intern_function (builder, "B", NULL);
  guint32 c = ps_call_tree_builder_intern_function (builder, "C", NULL);
  const gint64 ms = 1000000;

  ps_call_tree_builder_enter (builder, 0, main_function, 0);
  ps_call_tree_builder_enter (builder, 0, a, 10 * ms);
  ps_call_tree_builder_enter (builder, 0, b, 30 * ms);
  ps_call_tree_builder_os_event (builder, 0);
  ps_call_tree_builder_leave (builder, 0, 60 * ms);
  ps_call_tree_builder_enter (builder, 0, b, 65 * ms);
  ps_call_tree_builder_leave (builder, 0, 80 * ms);
  ps_call_tree_builder_leave (builder, 0, 85 * ms);
  ps_call_tree_builder_os_event (builder, 0);
  ps_call_tree_builder_enter (builder, 0, c, 95 * ms);
  ps_call_tree_builder_enter (builder, 0, b, 120 * ms);
  ps_call_tree_builder_leave (builder, 0, 130 * ms);
  ps_call_tree_builder_os_event (builder, 0);
  ps_call_tree_builder_leave (builder, 0, 135 * ms);
  ps_call_tree_builder_leave (builder, 0, 140 * ms);

  return ps_call_tree_builder_end (builder);
}

/* A drop-down whose first choice is first */
static gboolean
is_drop_down_of (GtkWidget     *widget,
                 gconstpointer  first)
{
  GListModel *choices = GTK_IS_DROP_DOWN (widget) ? gtk_drop_down_get_model (GTK_DROP_DOWN (widget)) : NULL;

  return GTK_IS_STRING_LIST (choices)
         && g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (choices), 0), first) == 0;
}

static void
test_call_tree_basis (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PsCallTree) tree = worked_example_tree ();
  PsCallTreeView *view = PS_CALL_TREE_VIEW (ps_call_tree_view_new ());
  GtkWidget *window = gtk_window_new ();
  GListModel *model = ps_call_tree_view_get_model (view);
  GtkWidget *column_view = GTK_WIDGET (ps_call_tree_view_get_column_view (view));
  int a;

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 700);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  ps_call_tree_view_set_tree (view, tree);
  g_assert_true (iterate_until (widget_is_drawn, view));
  wait_for_call_tree_view (view);

  /* OS events: nothing to explain; times down to the ms, so three decimals */
  g_assert_null (ps_call_tree_view_get_notice (view));
  g_assert_cmpstr (ps_call_tree_view_get_status (view), ==,
                   "4 functions · elapsed total 140 ms · application total 95 ms");

  ps_call_tree_view_set_mode (view, "functions");
  wait_for_call_tree_view (view);
  a = find_call_row (model, "A");
  assert_call_cell (view, model, a, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "75");
  assert_call_cell (view, model, a, CALL_COLUMN_VALUE (PS_CALL_VALUE_APPLICATION_INCLUSIVE), "45");
  assert_call_cell (view, model, a, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "53.57");
  /* Basis s1: application over T_A = 95 ms (vs-instrumentation.md §5.3) */
  g_assert_cmpint (ps_call_tree_view_get_basis (view), ==, PS_CALL_BASIS_S1);
  assert_call_cell (view, model, a, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_INCLUSIVE), "47.37");
  assert_call_cell (view, model, a, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_EXCLUSIVE), "31.58");
  iterate_for (100);
  g_assert_true (shows_label (column_view, "47.37"));

  /* The bases in plain words; the Visual Studio terms in the tooltip */
  {
    GtkDropDown *dropdown = GTK_DROP_DOWN (find_widget (GTK_WIDGET (view), is_drop_down_of, "Own total"));
    GListModel *choices;

    g_assert_nonnull (dropdown);
    choices = gtk_drop_down_get_model (dropdown);
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (choices), 1), ==, "Elapsed total");
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (dropdown)), "application total"));
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (dropdown)), "Understanding Instrumentation Data Values"));
    ps_call_tree_view_set_basis (view, PS_CALL_BASIS_VIEW);
    g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (dropdown)), "Functions and Call Tree views"));
    g_assert_null (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (dropdown)), "(s1)"));
  }

  /* Basis view: all four over T_E = 140 ms; the drawn cells follow */
  ps_call_tree_view_set_basis (view, PS_CALL_BASIS_VIEW);
  assert_call_cell (view, model, a, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_INCLUSIVE), "32.14");
  assert_call_cell (view, model, a, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_EXCLUSIVE), "21.43");
  assert_call_cell (view, model, a, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "53.57");
  iterate_for (100);
  g_assert_true (shows_label (column_view, "32.14"));
  g_assert_false (shows_label (column_view, "47.37"));

  /* B: three calls, the per-call values in the tooltip
   * (vs-instrumentation.md §5.3) */
  {
    g_autoptr(PsCallNodeRow) row = call_row_at (model, find_call_row (model, "B"));
    g_autofree char *tooltip = NULL;
    g_autofree char *text = _ps_call_tree_view_cell_text (view, row, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE),
                                                          &tooltip);

    g_assert_cmpstr (text, ==, "55");
    g_assert_nonnull (strstr (tooltip, "3 calls"));
    g_assert_nonnull (strstr (tooltip, "min 10 ms · avg 18.333 ms · max 30 ms"));
  }
  {
    g_autoptr(PsCallNodeRow) row = call_row_at (model, find_call_row (model, "B"));
    g_autofree char *tooltip = NULL;
    g_autofree char *text = _ps_call_tree_view_cell_text (view, row, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_INCLUSIVE),
                                                          &tooltip);

    g_assert_cmpstr (text, ==, "17.86");
    g_assert_cmpstr (tooltip, ==, "17.86 % of the elapsed total (140 ms)");
  }

  /* The call paths of vs-instrumentation.md §5.4 */
  ps_call_tree_view_set_mode (view, "top-down");
  wait_for_call_tree_view (view);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, "main / A / C");
  }
  {
    g_autoptr(GtkTreeListRow) a_row = g_list_model_get_item (model, 1);

    gtk_tree_list_row_set_expanded (a_row, TRUE);
    assert_call_cell (view, model, 2, CALL_COLUMN_CALLS, "2");
    assert_call_cell (view, model, 2, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "45");
    assert_call_cell (view, model, 2, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_INCLUSIVE), "10.71");
  }
  ps_call_tree_view_set_basis (view, PS_CALL_BASIS_S1);
  assert_call_cell (view, model, 2, CALL_COLUMN_PERCENT (PS_CALL_VALUE_APPLICATION_INCLUSIVE), "15.79");

  /* The flame graph's tooltips follow the basis: main › A, application
   * inclusive 45 ms = 47.37 % of T_A, 32.14 % of T_E */
  {
    PsFlameGraph *flame_graph = ps_call_tree_view_get_flame_graph (view);
    const char *path[] = { "main", "A", NULL };
    g_autofree char *s1 = _ps_flame_graph_get_tooltip (flame_graph, path);
    g_autofree char *view_basis = NULL;

    g_assert_nonnull (strstr (s1, "(47.37 %)"));
    ps_call_tree_view_set_basis (view, PS_CALL_BASIS_VIEW);
    view_basis = _ps_flame_graph_get_tooltip (flame_graph, path);
    g_assert_nonnull (strstr (view_basis, "(32.14 %)"));
    g_assert_null (strstr (view_basis, "(47.37 %)"));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* One thread's tree, built in a worker; all threads again */
static void
test_call_tree_threads (Fixture       *fixture,
                        gconstpointer  data)
{
  PsCallTreeView *view = open_rtl_call_tree (fixture);
  PsCallTree *run_tree = ps_call_tree_view_get_tree (view);
  GListModel *threads = ps_call_tree_view_get_threads (view);
  GListModel *model = ps_call_tree_view_get_model (view);

  g_assert_true (ps_call_tree_view_has_thread_choice (view));
  g_assert_cmpuint (g_list_model_get_n_items (threads), ==, 4);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (threads), 0), ==, "All threads");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (threads), 3), ==, "Thread 3");

  ps_call_tree_view_select_thread (view, 3);
  /* The old tree stays until the new one is there */
  g_assert_true (ps_call_tree_view_get_tree (view) == run_tree);
  g_assert_true (ps_call_tree_view_is_busy (view));
  wait_for_call_tree_view (view);
  g_assert_true (ps_call_tree_view_get_tree (view) != run_tree);
  {
    g_autofree char *names = call_row_names (model);

    g_assert_cmpstr (names, ==, CT_THUMBNAIL);
  }
  assert_call_cell (view, model, 0, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "100.00");
  g_assert_cmpstr (ps_call_tree_view_get_status (view), ==,
                   "1 function · elapsed total 633 ms · application total 633 ms");

  /* Another thread while one is being built: only the last one counts */
  ps_call_tree_view_select_thread (view, 2);
  ps_call_tree_view_select_thread (view, 1);
  wait_for_call_tree_view (view);
  g_assert_cmpint (find_call_row (model, CT_MAIN), ==, 0);
  g_assert_cmpint (find_call_row (model, CT_THUMBNAIL), ==, -1);

  ps_call_tree_view_select_thread (view, 0);
  wait_for_call_tree_view (view);
  g_assert_true (ps_call_tree_view_get_tree (view) == run_tree);
}

static GFile *
vs_report_file (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "vs-report-csv", name, NULL);

  return g_file_new_for_path (path);
}

/* A Visual Studio caller/callee report: its own view, the values as given */
static void
test_call_tree_vs_report (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GFile) file = vs_report_file ("l4_cc.csv");
  PsRunPage *page = open_and_wait (fixture, file);
  PsReportView *report_view = ps_run_page_get_report_view (page);
  PsCallTreeView *view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (report_view));
  GListModel *model = ps_call_tree_view_get_model (view);
  PsEventStore *store = ps_run_page_get_store (page);
  g_autoptr(PsCallTree) reference = NULL;
  g_autoptr(GError) error = NULL;
  PsCallTree *tree;
  int fib;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (report_view)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_rtl_view (page))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_ce_view (page))));
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (report_view)), ==, "calltree");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (report_view), "kind"), ==, "Caller/callee");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (report_view), "unit"), ==, "Timer ticks");
  g_assert_true (iterate_until (widget_is_drawn, view));
  wait_for_call_tree_view (view);

  tree = ps_call_tree_view_get_tree (view);
  g_assert_nonnull (tree);
  g_assert_true (ps_call_tree_is_report (tree));

  /* No call tree in a caller/callee report: the functions, as given */
  g_assert_cmpstr (ps_call_tree_view_get_mode (view), ==, "functions");
  g_assert_false (ps_call_tree_view_is_mode_available (view, "top-down"));
  g_assert_false (ps_call_tree_view_is_mode_available (view, "flame-graph"));
  g_assert_cmpstr (ps_call_tree_view_get_percent_label (view), ==, "Percentages as the report gives them");
  g_assert_cmpstr (ps_call_tree_view_get_notice (view), ==,
                   "Times are timer ticks of unknown frequency: the report does not say how many make a second.");
  g_assert_cmpstr (column_title (view, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE)), ==, "Elapsed incl.\n(ticks)");

  reference = ps_call_tree_new_for_store (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, ps_call_tree_get_n_functions (reference));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsCallNodeRow) row = call_row_at (model, i);
      const PsCallStats *stats = ps_call_tree_get_function_stats (reference, ps_call_node_row_get_index (row));
      g_autofree char *calls = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->calls);

      g_assert_cmpint (ps_call_node_row_get_kind (row), ==, PS_CALL_NODE_ROW_FUNCTION);
      assert_call_cell (view, model, i, CALL_COLUMN_CALLS, calls);
      for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
        {
          g_autofree char *value = ps_view_format_fixed (stats->total[v], 0);
          g_autofree char *percent = g_strdup_printf ("%.2f", stats->given_percent[v]);

          assert_call_cell (view, model, i, CALL_COLUMN_VALUE (v), value);
          assert_call_cell (view, model, i, CALL_COLUMN_PERCENT (v), percent);
        }
    }

  /* The file's rows: "Root","_wmainCRTStartup",1064922,87461,…,100.00,8.21 and
   * "Root","Fib(int)",76683,76251,…,7.20,7.16,… 500 calls */
  assert_call_cell (view, model, 0, CALL_COLUMN_FUNCTION, "_wmainCRTStartup");
  assert_call_cell (view, model, 0, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "1,064,922");
  assert_call_cell (view, model, 0, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "87,461");
  assert_call_cell (view, model, 0, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "100.00");
  assert_call_cell (view, model, 0, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "8.21");
  fib = find_call_row (model, "Fib(int)");
  assert_call_cell (view, model, fib, CALL_COLUMN_CALLS, "500");
  assert_call_cell (view, model, fib, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "76,683");
  assert_call_cell (view, model, fib, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "7.20");
  assert_call_cell (view, model, fib, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_EXCLUSIVE), "7.16");

  iterate_for (200);
  g_assert_true (shows_label (GTK_WIDGET (ps_call_tree_view_get_column_view (view)), "1,064,922"));

  /* Its callers, as the report gives them */
  {
    g_autoptr(PsCallNodeRow) row = call_row_at (model, fib);
    GListModel *callers = ps_call_tree_view_get_callers_model (view);

    g_assert_true (ps_call_tree_view_select_function (view, ps_call_node_row_get_index (row)));
    g_assert_cmpuint (g_list_model_get_n_items (callers), >, 0);
    g_assert_cmpint (find_call_row (callers, "Fib(int)"), >=, 0);
  }
  iterate_for (200);
  /* Scrolled to the selected function */
  g_assert_true (shows_label (GTK_WIDGET (ps_call_tree_view_get_column_view (view)), "76,683"));
  maybe_save_screenshot (fixture, "calltree-vs-report");

  /* A tick rate turns the ticks into times */
  ps_call_tree_view_set_ticks_per_second (view, 1e6);
  wait_for_call_tree_view (view);
  g_assert_cmpint (ps_call_tree_get_unit (ps_call_tree_view_get_tree (view)), ==, PS_CALL_UNIT_NS);
  g_assert_cmpstr (column_title (view, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE)), ==, "Elapsed incl.\n(ms)");
  g_assert_cmpstr (ps_call_tree_view_get_notice (view), ==, "Timer ticks converted to times at 1000000 ticks per second.");
  {
    int start = find_call_row (model, "_wmainCRTStartup");

    assert_call_cell (view, model, start, CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "1,064.922");
    assert_call_cell (view, model, start, CALL_COLUMN_PERCENT (PS_CALL_VALUE_ELAPSED_INCLUSIVE), "100.00");
  }
  ps_call_tree_view_set_ticks_per_second (view, 0);
  wait_for_call_tree_view (view);
  g_assert_true (ps_call_tree_view_get_tree (view) == tree);

  /* The warnings page of the report view */
  gtk_widget_activate_action (GTK_WIDGET (page), "run.show-warnings", NULL);
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (report_view)), ==, "warnings");
}

static GtkWindow *
find_about_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (window))
        return window;
    }

  return NULL;
}

static void
test_actions (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GFile) file = spec_example_file ();
  GtkWindow *about;

  open_and_wait (fixture, file);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);

  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "about", NULL);
  about = find_about_dialog ();
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==, PACKAGE_VERSION);
  gtk_window_destroy (about);

  /* Ctrl+W */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "empty");

  /* Open Recent goes through the same open path */
  {
    g_autofree char *uri = g_file_get_uri (file);

    gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-recent", "s", uri);
    g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
    wait_for_page (ps_window_get_current_page (fixture->window));
    g_assert_cmpint (ps_run_page_get_state (ps_window_get_current_page (fixture->window)), ==, PS_RUN_PAGE_LOADED);
  }
}

/* Histograms */

/* A PsHistogramView in a window of its own, drawn */
static PsHistogramView *
histogram_in_window (Fixture     *fixture,
                     GtkWindow  **window)
{
  GtkWidget *view = ps_histogram_view_new ();

  *window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_application (*window, GTK_APPLICATION (fixture->app));
  gtk_window_set_default_size (*window, 600, 300);
  gtk_window_set_child (*window, view);
  gtk_window_present (*window);
  g_assert_true (iterate_until (widget_is_drawn, view));
  return PS_HISTOGRAM_VIEW (view);
}

typedef struct
{
  cairo_surface_t *surface;
  const guchar    *data;
  int              stride;
} Picture;

/* Un-premultiplied colour of a pixel of a CAIRO_FORMAT_ARGB32 surface,
 * and whether it is the colour (±0.06) at an opacity of at least alpha */
static gboolean
pixel_is (const Picture *picture,
          int            x,
          int            y,
          const GdkRGBA *color,
          double         min_alpha)
{
  const guint32 pixel = *(const guint32 *)(picture->data + y * picture->stride + x * 4);
  double alpha = ((pixel >> 24) & 0xff) / 255.0;
  double red, green, blue;

  if (alpha < min_alpha || alpha == 0)
    return FALSE;
  red = ((pixel >> 16) & 0xff) / 255.0 / alpha;
  green = ((pixel >> 8) & 0xff) / 255.0 / alpha;
  blue = (pixel & 0xff) / 255.0 / alpha;
  return fabs (red - color->red) < 0.06 && fabs (green - color->green) < 0.06 && fabs (blue - color->blue) < 0.06;
}

/* How many pixels of the colour stand above the plot's bottom in column x */
static int
bar_height_at (const Picture         *picture,
               const graphene_rect_t *plot,
               int                    x,
               const GdkRGBA         *color,
               double                 min_alpha)
{
  int bottom = (int)(plot->origin.y + plot->size.height) - 1;
  int height = 0;

  for (int y = bottom; y >= (int)plot->origin.y - 1; y--)
    if (pixel_is (picture, x, y, color, min_alpha))
      height++;
  return height;
}

static Picture
draw_histogram (PsHistogramView *view,
                int              width,
                int              height)
{
  Picture picture;
  cairo_t *cr;

  picture.surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (picture.surface);
  ps_histogram_view_draw (view, cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (picture.surface);
  picture.data = cairo_image_surface_get_data (picture.surface);
  picture.stride = cairo_image_surface_get_stride (picture.surface);
  return picture;
}

static void
count_notify (gpointer object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  (*(guint *)user_data)++;
}

/* Bars at the x range of their bins, as high as their counts say */
static void
test_histogram_pixels (Fixture       *fixture,
                       gconstpointer  data)
{
  /* 50 × 1 ms, 25 × 3 ms, 20 × 5.5 ms, 5 × 9 ms */
  double values[100];
  GtkWindow *window = NULL;
  PsHistogramView *view = histogram_in_window (fixture, &window);
  const PsHistogram *histogram;
  graphene_rect_t plot;
  GdkRGBA bar_color;
  Picture picture;
  double y_top;
  guint n_bars = 0;

  for (guint i = 0; i < 100; i++)
    values[i] = i < 50 ? 0.001 : i < 75 ? 0.003 : i < 95 ? 0.0055 : 0.009;

  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (view)), ==, GTK_ACCESSIBLE_ROLE_IMG);
  g_assert_cmpstr (gtk_widget_get_css_name (GTK_WIDGET (view)), ==, "histogramview");
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (view)));

  ps_histogram_view_set_values (view, values, G_N_ELEMENTS (values));
  histogram = ps_histogram_view_get_histogram (view);
  g_assert_nonnull (histogram);
  g_assert_cmpuint (histogram->n_values, ==, 100);
  /* Automatic bins: Freedman–Diaconis, 2 × 2 ms / 100^(1/3) over 8 ms */
  g_assert_cmpuint (histogram->n_bins, ==, 10);
  g_assert_cmpuint (histogram->bins[0].count, ==, 50);
  g_assert_cmpuint (histogram->bins[2].count, ==, 25);
  g_assert_cmpuint (histogram->bins[5].count, ==, 20);
  g_assert_cmpuint (histogram->bins[9].count, ==, 5);
  g_assert_cmpfloat (histogram->median, ==, 0.001);
  g_assert_cmpfloat (histogram->p95, ==, 0.0055);

  ps_histogram_view_get_bar_color (FALSE, &bar_color);
  g_assert_true (ps_histogram_view_get_plot_area (view, 600, 300, &plot));
  y_top = ps_histogram_view_get_y_top (view);
  g_assert_cmpfloat (y_top, >=, 50);
  picture = draw_histogram (view, 600, 300);

  for (guint i = 0; i < histogram->n_bins; i++)
    {
      const PsHistogramBin *bin = &histogram->bins[i];
      /* A linear axis from the first bin's lower edge to the last's upper */
      double span = histogram->bins[histogram->n_bins - 1].upper - histogram->bins[0].lower;
      double x0 = plot.origin.x + (bin->lower - histogram->bins[0].lower) / span * plot.size.width;
      double x1 = plot.origin.x + (bin->upper - histogram->bins[0].lower) / span * plot.size.width;
      int middle = (int)((x0 + x1) / 2);
      double expected = (double)bin->count / y_top * plot.size.height;
      int height = bar_height_at (&picture, &plot, middle, &bar_color, 0.5);

      g_assert_cmpfloat (fabs (height - expected), <=, 2);
      if (bin->count > 0)
        {
          n_bars++;
          /* The bar fills its bin's range, and no more */
          g_assert_cmpint (bar_height_at (&picture, &plot, (int)ceil (x0) + 3, &bar_color, 0.5), ==, height);
          g_assert_cmpint (bar_height_at (&picture, &plot, (int)floor (x1) - 3, &bar_color, 0.5), ==, height);
          if (i + 1 < histogram->n_bins && histogram->bins[i + 1].count == 0)
            g_assert_cmpint (bar_height_at (&picture, &plot, (int)ceil (x1) + 2, &bar_color, 0.5), ==, 0);
        }
    }
  g_assert_cmpuint (n_bars, ==, 4);
  /* Heights in proportion to the counts: 50 against 25 */
  {
    int first = bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.05), &bar_color, 0.5);
    int third = bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.25), &bar_color, 0.5);

    g_assert_cmpint (first, >, 20);
    g_assert_cmpfloat (fabs (first - 2.0 * third), <=, 2);
  }
  cairo_surface_destroy (picture.surface);

  /* By total time: 5 × 9 ms = 45 ms outweighs 50 × 1 ms = 50 ms less than
   * it did by count */
  ps_histogram_view_set_by_total (view, TRUE);
  picture = draw_histogram (view, 600, 300);
  g_assert_true (ps_histogram_view_get_plot_area (view, 600, 300, &plot));
  {
    int first = bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.05), &bar_color, 0.5);
    int last = bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.95), &bar_color, 0.5);

    g_assert_cmpint (first, >, 20);
    g_assert_cmpfloat (fabs (last - first * 45.0 / 50.0), <=, 2);
  }
  cairo_surface_destroy (picture.surface);

  gtk_window_destroy (window);
}

/* The labels under the x axis as drawn: runs of columns with ink in the
 * band below the ticks, apart by more than a space */
static guint
count_x_labels (const Picture         *picture,
                const graphene_rect_t *plot,
                int                    text_height)
{
  int top = (int)(plot->origin.y + plot->size.height) + 4 + 2;
  int width = cairo_image_surface_get_width (picture->surface);
  int run_end = -G_MAXINT / 2;
  guint n_labels = 0;

  for (int x = 0; x < width; x++)
    for (int y = top; y < top + text_height - 4; y++)
      if ((*(const guint32 *)(picture->data + y * picture->stride + x * 4) >> 24) > 60)
        {
          if (x - run_end > 8)
            n_labels++;
          run_end = x;
          break;
        }
  return n_labels;
}

/* The labelled ticks of the x axis at 600 × 300, checked as the eye would:
 * left to right, apart, centred on their ticks but for the ends, which
 * stay within the plot */
static GPtrArray *
check_x_ticks (PsHistogramView *view)
{
  g_autoptr(GArray) ticks = ps_histogram_view_get_x_ticks (view, 600, 300);
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  graphene_rect_t plot;
  double last_end = -G_MAXDOUBLE;

  g_assert_nonnull (ticks);
  g_assert_true (ps_histogram_view_get_plot_area (view, 600, 300, &plot));
  for (guint i = 0; i < ticks->len; i++)
    {
      const PsHistogramTick *tick = &g_array_index (ticks, PsHistogramTick, i);

      g_assert_cmpfloat (tick->x, >=, plot.origin.x);
      g_assert_cmpfloat (tick->x, <=, plot.origin.x + plot.size.width + 1);
      if (tick->text == NULL)
        continue;
      g_test_message ("x label %s at %g", tick->text, tick->x);
      g_assert_cmpfloat (tick->text_x, >=, last_end + 8);
      g_assert_cmpfloat (tick->text_x, >=, plot.origin.x);
      g_assert_cmpfloat (tick->text_x + tick->text_width, <=, plot.origin.x + plot.size.width + 0.5);
      if (tick->text_x > plot.origin.x && tick->text_x + tick->text_width < plot.origin.x + plot.size.width)
        g_assert_cmpfloat (fabs (tick->text_x + tick->text_width / 2.0 - tick->x), <=, 0.5);
      last_end = tick->text_x + tick->text_width;
      g_ptr_array_add (labels, g_strdup (tick->text));
    }
  return labels;
}

/* A logarithmic axis labels a range under a decade with steps as a linear
 * one would, and a wide one with powers of ten or 1-2-5, each label with
 * its unit */
static void
test_histogram_log_ticks (Fixture       *fixture,
                          gconstpointer  data)
{
  double values[200];
  GtkWindow *window = NULL;
  PsHistogramView *view = histogram_in_window (fixture, &window);
  g_autoptr(GPtrArray) labels = NULL;
  g_autofree char *x_title = NULL;
  graphene_rect_t plot;
  Picture picture;
  int text_height;

  {
    g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (view), "0");

    pango_layout_get_pixel_size (layout, NULL, &text_height);
  }

  /* 3.8 to 5.6 ms */
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = 0.0038 + 0.0018 * i / (G_N_ELEMENTS (values) - 1);
  ps_histogram_view_set_values (view, values, G_N_ELEMENTS (values));
  ps_histogram_view_set_log_scale (view, TRUE);
  labels = check_x_ticks (view);
  g_assert_cmpuint (labels->len, >=, 3);
  for (guint i = 0; i < labels->len; i++)
    g_assert_true (g_str_has_suffix (g_ptr_array_index (labels, i), " ms"));
  g_assert_true (g_ptr_array_find_with_equal_func (labels, "5.0 ms", g_str_equal, NULL)
                 || g_ptr_array_find_with_equal_func (labels, "5 ms", g_str_equal, NULL));
  x_title = ps_histogram_view_dup_axis_title (view, GTK_ORIENTATION_HORIZONTAL);
  g_assert_cmpstr (x_title, ==, "duration (logarithmic)");
  /* As drawn: as many labels under the axis */
  g_assert_true (ps_histogram_view_get_plot_area (view, 600, 300, &plot));
  picture = draw_histogram (view, 600, 300);
  g_assert_cmpuint (count_x_labels (&picture, &plot, text_height), ==, labels->len);
  cairo_surface_destroy (picture.surface);
  g_clear_pointer (&labels, g_ptr_array_unref);

  /* 2 µs to 3 s: more than six decades */
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = 2e-6 * pow (1.5e6, (double)i / (G_N_ELEMENTS (values) - 1));
  ps_histogram_view_set_values (view, values, G_N_ELEMENTS (values));
  labels = check_x_ticks (view);
  g_assert_cmpuint (labels->len, >=, 4);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *label = g_ptr_array_index (labels, i);

      /* 1, 2 or 5 × a power of ten, in its own unit */
      g_assert_true (g_regex_match_simple ("^[125]0* (ns|µs|ms|s)$", label, 0, 0));
    }
  g_assert_true (g_ptr_array_find_with_equal_func (labels, "1 ms", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (labels, "1 s", g_str_equal, NULL));
  picture = draw_histogram (view, 600, 300);
  g_assert_true (ps_histogram_view_get_plot_area (view, 600, 300, &plot));
  g_assert_cmpuint (count_x_labels (&picture, &plot, text_height), ==, labels->len);
  cairo_surface_destroy (picture.surface);
  g_clear_pointer (&labels, g_ptr_array_unref);

  /* On a linear axis the labels are numbers in the title's unit */
  ps_histogram_view_set_log_scale (view, FALSE);
  labels = check_x_ticks (view);
  g_assert_cmpuint (labels->len, >=, 3);
  g_assert_null (strchr (g_ptr_array_index (labels, 0), ' '));

  gtk_window_destroy (window);
}

/* Brushing: the selection property follows the selected bins */
static void
test_histogram_selection (Fixture       *fixture,
                          gconstpointer  data)
{
  /* Bins of 1 ms from 0 to 10 ms, a value in the middle of each */
  double values[] = { 0, 0.0005, 0.0015, 0.0025, 0.0035, 0.0045, 0.0055, 0.0065, 0.0075, 0.0085, 0.0095, 0.010 };
  GtkWindow *window = NULL;
  PsHistogramView *view = histogram_in_window (fixture, &window);
  g_autoptr(PsHistogramSelection) selection = NULL;
  const PsHistogram *histogram;
  guint n_notifies = 0;
  guint first, last;
  GdkRGBA bar_color, selected_color;
  graphene_rect_t plot;
  Picture picture;

  g_signal_connect (view, "notify::selection", G_CALLBACK (count_notify), &n_notifies);
  ps_histogram_view_set_values (view, values, G_N_ELEMENTS (values));
  histogram = ps_histogram_view_get_histogram (view);
  g_assert_cmpuint (histogram->n_bins, ==, 10);
  g_assert_false (ps_histogram_view_get_selection (view, NULL, NULL));
  g_object_get (view, "selection", &selection, NULL);
  g_assert_null (selection);

  ps_histogram_view_select_bins (view, 4, 2);
  g_assert_cmpuint (n_notifies, ==, 1);
  g_assert_true (ps_histogram_view_get_selection (view, &first, &last));
  g_assert_cmpuint (first, ==, 2);
  g_assert_cmpuint (last, ==, 4);
  g_object_get (view, "selection", &selection, NULL);
  g_assert_nonnull (selection);
  g_assert_cmpuint (selection->first_bin, ==, 2);
  g_assert_cmpuint (selection->last_bin, ==, 4);
  g_assert_cmpfloat (selection->lower, ==, histogram->bins[2].lower);
  g_assert_cmpfloat (selection->upper, ==, histogram->bins[4].upper);
  g_assert_true (ps_histogram_view_selection_contains (view, 0.003));
  g_assert_false (ps_histogram_view_selection_contains (view, 0.001));
  g_assert_false (ps_histogram_view_selection_contains (view, 0.006));

  /* The same again is no change */
  ps_histogram_view_select_bins (view, 2, 4);
  g_assert_cmpuint (n_notifies, ==, 1);

  /* Selected bars are drawn in their own colour, the others dimmed */
  ps_histogram_view_get_bar_color (FALSE, &bar_color);
  g_assert_true (ps_histogram_view_get_plot_area (view, 600, 300, &plot));
  ps_histogram_view_get_bar_color (TRUE, &selected_color);
  picture = draw_histogram (view, 600, 300);
  g_assert_cmpint (bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.35), &bar_color, 0), ==, 0);
  g_assert_cmpint (bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.35), &selected_color, 0.9), >, 5);
  g_assert_cmpint (bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.75), &bar_color, 0.9), ==, 0);
  g_assert_cmpint (bar_height_at (&picture, &plot, (int)(plot.origin.x + plot.size.width * 0.75), &bar_color, 0.2), >, 5);
  cairo_surface_destroy (picture.surface);

  ps_histogram_view_unselect (view);
  g_assert_cmpuint (n_notifies, ==, 2);
  g_clear_pointer (&selection, ps_histogram_selection_free);
  g_object_get (view, "selection", &selection, NULL);
  g_assert_null (selection);

  /* The keyboard: arrows move the cursor (still at the last bin selected)
   * and select its bin, Shift extends from the anchor, Escape clears */
  n_notifies = 0;
  gtk_widget_activate_action (GTK_WIDGET (view), "histogram.unselect", NULL);
  g_assert_cmpuint (n_notifies, ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "histogram.move-cursor", "(ib)", 1, FALSE));
  g_assert_true (ps_histogram_view_get_selection (view, &first, &last));
  g_assert_cmpuint (first, ==, 5);
  g_assert_cmpuint (last, ==, 5);
  gtk_widget_activate_action (GTK_WIDGET (view), "histogram.move-cursor", "(ib)", 1, FALSE);
  gtk_widget_activate_action (GTK_WIDGET (view), "histogram.move-cursor", "(ib)", 1, TRUE);
  gtk_widget_activate_action (GTK_WIDGET (view), "histogram.move-cursor", "(ib)", 1, TRUE);
  g_assert_true (ps_histogram_view_get_selection (view, &first, &last));
  g_assert_cmpuint (first, ==, 6);
  g_assert_cmpuint (last, ==, 8);
  /* Back past the anchor: the range turns around it */
  for (guint i = 0; i < 3; i++)
    gtk_widget_activate_action (GTK_WIDGET (view), "histogram.move-cursor", "(ib)", -1, TRUE);
  g_assert_true (ps_histogram_view_get_selection (view, &first, &last));
  g_assert_cmpuint (first, ==, 5);
  g_assert_cmpuint (last, ==, 6);
  /* The end stops it */
  gtk_widget_activate_action (GTK_WIDGET (view), "histogram.move-cursor", "(ib)", 100, FALSE);
  g_assert_true (ps_histogram_view_get_selection (view, &first, &last));
  g_assert_cmpuint (first, ==, 9);
  g_assert_cmpuint (last, ==, 9);
  n_notifies = 0;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "histogram.unselect", NULL));
  g_assert_cmpuint (n_notifies, ==, 1);
  g_assert_false (ps_histogram_view_get_selection (view, NULL, NULL));

  /* Another axis makes other bins: the selection goes */
  n_notifies = 0;
  ps_histogram_view_select_bins (view, 0, 0);
  g_assert_cmpuint (n_notifies, ==, 1);
  g_object_set (view, "log-scale", TRUE, NULL);
  g_assert_cmpuint (n_notifies, ==, 2);
  g_assert_false (ps_histogram_view_get_selection (view, NULL, NULL));
  /* The zero is counted apart, never lost */
  histogram = ps_histogram_view_get_histogram (view);
  g_assert_cmpuint (histogram->underflow, ==, 1);
  g_assert_cmpuint (histogram->n_values, ==, G_N_ELEMENTS (values));

  gtk_window_destroy (window);
}

/* Selecting a row of the totals shows its durations below the table */
static void
test_rtl_histogram (Fixture       *fixture,
                    gconstpointer  data)
{
  PsRtlView *view = open_rtl_example (fixture);
  GtkColumnView *column_view = ps_rtl_view_get_totals_view (view);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (column_view));
  GListModel *totals = ps_rtl_view_get_totals_model (view);
  PsHistogramView *histogram_view = ps_run_view_get_histogram_view (PS_RUN_VIEW (view));
  GtkWidget *histogram_box = gtk_widget_get_parent (GTK_WIDGET (histogram_view));

  ps_rtl_view_show_page (view, "totals");
  g_assert_false (gtk_widget_get_visible (histogram_box));

  for (guint i = 0; i < g_list_model_get_n_items (totals); i++)
    {
      g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (totals, i);
      const PsHistogram *histogram;
      guint64 n_binned = 0;
      double total = 0;

      gtk_single_selection_set_selected (selection, i);
      g_assert_true (gtk_widget_get_visible (histogram_box));
      histogram = ps_histogram_view_get_histogram (histogram_view);
      /* The durations the totals are computed from, all of them */
      g_assert_nonnull (histogram);
      g_assert_cmpuint (histogram->n_values, ==, ps_scope_total_row_get_calls (row) - ps_scope_total_row_get_excluded (row));
      for (guint b = 0; b < histogram->n_bins; b++)
        {
          n_binned += histogram->bins[b].count;
          total += histogram->bins[b].total;
        }
      g_assert_cmpuint (n_binned + histogram->underflow, ==, histogram->n_values);
      g_assert_cmpfloat_with_epsilon (total, ps_scope_total_row_get_total (row), 1e-9);
      g_assert_cmpfloat (histogram->median, ==, ps_scope_total_row_get_median (row));
    }

  g_assert_true (iterate_until (widget_is_drawn, histogram_view));
  maybe_save_screenshot (fixture, "rtl-histogram");

  /* Buckets selected on the histogram of Desktop::Main: the call tree
   * has only that call and what ran inside it (rtl-logfile.md §6: 2.007 s) */
  {
    PsCallTreeView *call_tree_view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (view));
    const PsHistogram *histogram;
    PsCallTree *tree;
    guint32 main_node;

    for (guint i = 0; i < g_list_model_get_n_items (totals); i++)
      {
        g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (totals, i);

        if (strstr (ps_scope_total_row_get_name (row), "Desktop::Main") != NULL)
          gtk_single_selection_set_selected (selection, i);
      }
    histogram = ps_histogram_view_get_histogram (histogram_view);
    g_assert_cmpuint (histogram->n_values, ==, 1);
    g_assert_false (ps_call_tree_view_has_span_selection (call_tree_view));
    ps_histogram_view_select_bins (histogram_view, 0, histogram->n_bins - 1);
    g_assert_true (ps_call_tree_view_has_span_selection (call_tree_view));
    wait_for_call_tree_view (call_tree_view);
    tree = ps_call_tree_view_get_tree (call_tree_view);
    g_assert_cmpuint (ps_call_tree_get_n_children (tree, PS_CALL_NODE_ROOT), ==, 1);
    main_node = ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, 0);
    g_assert_cmpstr (ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, main_node)), ==,
                     "::desktop::Desktop::Main");
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 2007e6);
    g_assert_cmpuint (ps_call_tree_lookup_function (tree, "::ucb::Broker::init"), ==, PS_NONE);

    /* Clearing the selection brings back every call */
    ps_histogram_view_unselect (histogram_view);
    g_assert_false (ps_call_tree_view_has_span_selection (call_tree_view));
    wait_for_call_tree_view (call_tree_view);
    tree = ps_call_tree_view_get_tree (call_tree_view);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 2698e6);
  }

  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  g_assert_false (gtk_widget_get_visible (histogram_box));
  g_assert_null (ps_histogram_view_get_histogram (histogram_view));
}


/* The flame graph (issue 5) */

#define FLAME_WIDTH  600
#define FLAME_HEIGHT 200
#define MS           1e6

static PsCallTree *
load_call_tree (const char *file_name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", file_name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  PsCallTree *tree;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  store = ps_load_stream (G_INPUT_STREAM (stream), file_name, NULL, NULL, &error);
  g_assert_no_error (error);
  tree = ps_call_tree_new_for_store (store, NULL, &error);
  g_assert_no_error (error);
  return tree;
}

/* A flame graph of the tree in a window of its own */
static PsFlameGraph *
flame_graph_window_new (PsCallTree *tree,
                        GtkWidget **window)
{
  PsFlameGraph *flame_graph = PS_FLAME_GRAPH (ps_flame_graph_new ());

  *window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (*window), FLAME_WIDTH, 300);
  gtk_window_set_child (GTK_WINDOW (*window), GTK_WIDGET (flame_graph));
  ps_flame_graph_set_tree (flame_graph, tree);
  gtk_window_present (GTK_WINDOW (*window));
  g_assert_true (iterate_until (widget_is_drawn, flame_graph));
  return flame_graph;
}

typedef struct
{
  double x, y, width, height;
} FrameRect;

static FrameRect
flame_frame (PsFlameGraph *flame_graph,
             const char   *first,
             ...)
{
  const char *path[8] = { NULL };
  FrameRect rect;
  va_list args;
  guint n = 0;

  va_start (args, first);
  for (const char *name = first; name != NULL && n < G_N_ELEMENTS (path) - 1; name = va_arg (args, const char *))
    path[n++] = name;
  va_end (args);

  g_assert_true (_ps_flame_graph_get_frame (flame_graph, FLAME_WIDTH, path,
                                            &rect.x, &rect.y, &rect.width, &rect.height));
  return rect;
}

/* The flame graph drawn into an image, as snapshot draws it */
static cairo_surface_t *
draw_flame_graph (PsFlameGraph *flame_graph)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, FLAME_WIDTH, FLAME_HEIGHT);
  cairo_t *cr = cairo_create (surface);

  _ps_flame_graph_draw (flame_graph, cr, FLAME_WIDTH, FLAME_HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Premultiplied ARGB32 */
static void
surface_pixel (cairo_surface_t *surface,
               int              x,
               int              y,
               double          *rgba)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  double alpha = ((pixel >> 24) & 0xff) / 255.0;

  rgba[3] = alpha;
  rgba[0] = alpha > 0 ? ((pixel >> 16) & 0xff) / 255.0 / alpha : 0;
  rgba[1] = alpha > 0 ? ((pixel >> 8) & 0xff) / 255.0 / alpha : 0;
  rgba[2] = alpha > 0 ? (pixel & 0xff) / 255.0 / alpha : 0;
}

static void
assert_frame_color (cairo_surface_t *surface,
                    FrameRect        rect,
                    const GdkRGBA   *color,
                    double           alpha)
{
  double rgba[4];

  /* Left of the label, above it */
  surface_pixel (surface, (int) rect.x + 2, (int) rect.y + 1, rgba);
  g_assert_cmpfloat_with_epsilon (rgba[3], alpha, 2.0 / 255);
  g_assert_cmpfloat_with_epsilon (rgba[0], color->red, 6.0 / 255);
  g_assert_cmpfloat_with_epsilon (rgba[1], color->green, 6.0 / 255);
  g_assert_cmpfloat_with_epsilon (rgba[2], color->blue, 6.0 / 255);
}

static void
count_activation (PsFlameGraph *flame_graph,
                  guint         function,
                  gpointer      data)
{
  guint32 *activated = data;

  *activated = function;
}

/* tests/data/rtl/calltree_4711.log, the worked example: thread 1 runs
 * main for 140 ms, in it A for 75 ms (B twice, 30 + 15 ms) and C for 40 ms
 * (B for 10 ms); thread 2 runs worker for 10 ms. 150 ms in all. */
static void
test_flame_graph_pixels (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(PsCallTree) tree = load_call_tree ("calltree_4711.log");
  GtkWidget *window = NULL;
  PsFlameGraph *flame_graph = flame_graph_window_new (tree, &window);
  guint32 function_a = ps_call_tree_lookup_function (tree, "::A");
  guint32 activated = PS_NONE;
  cairo_surface_t *surface;
  g_autofree char *zoom = NULL;
  FrameRect root, main_frame, a, b, c, worker;
  GdkRGBA color_a, color_main;
  double rgba[4];

  g_assert_cmpuint (function_a, !=, PS_NONE);
  g_assert_cmpint (ps_flame_graph_get_value (flame_graph), ==, PS_CALL_VALUE_ELAPSED_INCLUSIVE);
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (flame_graph)));
  /* A group: its breadcrumbs and drop-downs are inside it */
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (flame_graph)), ==, GTK_ACCESSIBLE_ROLE_GROUP);

  /* Widths proportional to the values, the root at the top */
  root = flame_frame (flame_graph, NULL);
  main_frame = flame_frame (flame_graph, "::main", NULL);
  a = flame_frame (flame_graph, "::main", "::A", NULL);
  b = flame_frame (flame_graph, "::main", "::A", "::B", NULL);
  c = flame_frame (flame_graph, "::main", "::C", NULL);
  worker = flame_frame (flame_graph, "::worker", NULL);
  g_assert_cmpfloat_with_epsilon (root.x, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (root.width, FLAME_WIDTH, 1e-9);
  g_assert_cmpfloat_with_epsilon (root.y, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (main_frame.width, FLAME_WIDTH * 140.0 / 150, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.x, 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.width, FLAME_WIDTH * 75.0 / 150, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.width / main_frame.width, 75.0 / 140, 1e-9);
  g_assert_cmpfloat_with_epsilon (b.width, FLAME_WIDTH * 45.0 / 150, 1e-6);
  g_assert_cmpfloat_with_epsilon (c.x, FLAME_WIDTH * 75.0 / 150, 1e-6);
  g_assert_cmpfloat_with_epsilon (c.width, FLAME_WIDTH * 40.0 / 150, 1e-6);
  g_assert_cmpfloat_with_epsilon (worker.x, FLAME_WIDTH * 140.0 / 150, 1e-6);
  g_assert_cmpfloat (main_frame.y, <, a.y);
  g_assert_cmpfloat (a.y, <, b.y);

  /* Each frame in the colour of its module (all "demo" here) */
  _ps_flame_graph_get_function_color (flame_graph, function_a, &color_a);
  _ps_flame_graph_get_function_color (flame_graph, ps_call_tree_lookup_function (tree, "::main"), &color_main);
  g_assert_true (gdk_rgba_equal (&color_a, &color_main));
  g_assert_cmpfloat (color_a.red, >=, color_a.blue);  /* warm */
  surface = draw_flame_graph (flame_graph);
  assert_frame_color (surface, a, &color_a, 1.0);
  assert_frame_color (surface, c, &color_a, 1.0);
  /* The gap after A, and nothing below the deepest row */
  surface_pixel (surface, (int) (a.x + a.width) - 1, (int) a.y + 1, rgba);
  g_assert_cmpfloat (rgba[3], <, 0.01);
  surface_pixel (surface, (int) b.x + 2, (int) (b.y + 2 * b.height), rgba);
  g_assert_cmpfloat (rgba[3], <, 0.01);
  cairo_surface_destroy (surface);

  /* By self-time share: B (all its own time) redder than main (little) */
  ps_flame_graph_set_color_by (flame_graph, PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE);
  {
    GdkRGBA color_b;

    _ps_flame_graph_get_function_color (flame_graph, ps_call_tree_lookup_function (tree, "::B"), &color_b);
    _ps_flame_graph_get_function_color (flame_graph, ps_call_tree_lookup_function (tree, "::main"), &color_main);
    g_assert_cmpfloat (color_b.green, <, color_main.green);
  }
  ps_flame_graph_set_color_by (flame_graph, PS_FLAME_GRAPH_COLOR_BY_MODULE);

  /* Search: the frames of other functions are dimmed */
  ps_flame_graph_set_search (flame_graph, "::b");
  surface = draw_flame_graph (flame_graph);
  assert_frame_color (surface, b, &color_a, 1.0);
  assert_frame_color (surface, a, &color_a, 0.25);
  assert_frame_color (surface, main_frame, &color_a, 0.25);
  cairo_surface_destroy (surface);
  ps_flame_graph_set_search (flame_graph, NULL);

  /* A click on A zooms into it: full width, its callers above it */
  g_signal_connect (flame_graph, "frame-activated", G_CALLBACK (count_activation), &activated);
  _ps_flame_graph_click (flame_graph, FLAME_WIDTH, a.x + 10, a.y + 5);
  g_assert_cmpuint (activated, ==, function_a);
  zoom = _ps_flame_graph_get_zoom_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "::main/::A");
  a = flame_frame (flame_graph, "::main", "::A", NULL);
  g_assert_cmpfloat_with_epsilon (a.x, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (a.width, FLAME_WIDTH, 1e-9);
  b = flame_frame (flame_graph, "::main", "::A", "::B", NULL);
  g_assert_cmpfloat_with_epsilon (b.width, FLAME_WIDTH * 45.0 / 75, 1e-6);
  main_frame = flame_frame (flame_graph, "::main", NULL);
  g_assert_cmpfloat_with_epsilon (main_frame.width, FLAME_WIDTH, 1e-9);
  /* C is outside the zoom: not drawn */
  {
    const char *path_c[] = { "::main", "::C", NULL };
    double x, y, width, height;

    g_assert_false (_ps_flame_graph_get_frame (flame_graph, FLAME_WIDTH, path_c, &x, &y, &width, &height));
  }
  surface = draw_flame_graph (flame_graph);
  surface_pixel (surface, FLAME_WIDTH - 10, (int) a.y + 1, rgba);
  g_assert_cmpfloat_with_epsilon (rgba[3], 1.0, 0.01);
  cairo_surface_destroy (surface);

  /* Escape: one level out; Home: the whole tree */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.zoom-out", NULL));
  g_clear_pointer (&zoom, g_free);
  zoom = _ps_flame_graph_get_zoom_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "::main");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.zoom-reset", NULL));
  g_clear_pointer (&zoom, g_free);
  zoom = _ps_flame_graph_get_zoom_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "");

  /* The keyboard, from A (zoomed out of): up twice to the root, down to
   * main, down to A, right to C; Enter zooms */
  gtk_widget_grab_focus (GTK_WIDGET (flame_graph));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (flame_graph)));
  g_clear_pointer (&zoom, g_free);
  zoom = _ps_flame_graph_get_focus_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "::main/::A");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.move", "i", 0));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.move", "i", 0));
  g_clear_pointer (&zoom, g_free);
  zoom = _ps_flame_graph_get_focus_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.move", "i", 1));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.move", "i", 1));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.move", "i", 3));
  g_clear_pointer (&zoom, g_free);
  zoom = _ps_flame_graph_get_focus_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "::main/::C");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.zoom-in", NULL));
  g_clear_pointer (&zoom, g_free);
  zoom = _ps_flame_graph_get_zoom_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "::main/::C");
  g_assert_cmpuint (activated, ==, ps_call_tree_lookup_function (tree, "::C"));
  /* Up leaves the zoomed frame for its caller, drawn above it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_graph), "flame.move", "i", 0));
  g_clear_pointer (&zoom, g_free);
  zoom = _ps_flame_graph_get_focus_path (flame_graph);
  g_assert_cmpstr (zoom, ==, "::main");
  ps_flame_graph_zoom_reset (flame_graph);

  /* An exclusive kind: widths are subtree sums of exclusive values */
  ps_flame_graph_set_value (flame_graph, PS_CALL_VALUE_ELAPSED_EXCLUSIVE);
  main_frame = flame_frame (flame_graph, "::main", NULL);
  a = flame_frame (flame_graph, "::main", "::A", NULL);
  g_assert_cmpfloat_with_epsilon (main_frame.width, FLAME_WIDTH * 140.0 / 150, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.width, FLAME_WIDTH * 75.0 / 150, 1e-6);

  /* The real widget draws the same frames, below its breadcrumb bar */
  iterate_for (100);
  {
    g_autoptr(GdkTexture) texture = render_widget (GTK_WIDGET (flame_graph));
    int width = gdk_texture_get_width (texture);
    int height = gdk_texture_get_height (texture);
    g_autofree guint8 *pixels = g_malloc (width * height * 4);
    gboolean found = FALSE;

    gdk_texture_download (texture, pixels, width * 4);
    for (int y = 0; y < height && !found; y++)
      {
        guint32 pixel = *(guint32 *) (pixels + y * width * 4 + ((int) a.x + 2) * 4);

        found = fabs (((pixel >> 16) & 0xff) / 255.0 - color_a.red) < 6.0 / 255
                && fabs (((pixel >> 8) & 0xff) / 255.0 - color_a.green) < 6.0 / 255
                && fabs ((pixel & 0xff) / 255.0 - color_a.blue) < 6.0 / 255;
      }
    g_assert_true (found);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
assert_flame_totals (PsFlameGraph *flame_graph,
                     PsCallTree   *tree)
{
  /* Exclusive values are conserved by every transform but focus */
  g_assert_cmpfloat_with_epsilon (_ps_flame_graph_get_top_sum (flame_graph, PS_CALL_VALUE_ELAPSED_EXCLUSIVE),
                                  ps_call_tree_get_elapsed_total (tree), 1);
  g_assert_cmpfloat_with_epsilon (_ps_flame_graph_get_top_sum (flame_graph, PS_CALL_VALUE_APPLICATION_EXCLUSIVE),
                                  ps_call_tree_get_application_total (tree), 1);
  g_assert_cmpfloat_with_epsilon (_ps_flame_graph_get_top_sum (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE),
                                  ps_call_tree_get_elapsed_total (tree), 1);
}

static double
flame_value (PsFlameGraph *flame_graph,
             PsCallValue   value,
             const char   *first,
             ...)
{
  const char *path[8] = { NULL };
  va_list args;
  guint n = 0;

  va_start (args, first);
  for (const char *name = first; name != NULL && n < G_N_ELEMENTS (path) - 1; name = va_arg (args, const char *))
    path[n++] = name;
  va_end (args);
  return _ps_flame_graph_get_node_value (flame_graph, path, value);
}

static gboolean
pointer_is_null (gpointer data)
{
  return *(gpointer *)data == NULL;
}

static gboolean
flame_graph_laid_out (gpointer data)
{
  return !_ps_flame_graph_is_laying_out (data);
}

/* The analysis of a log of many scopes builds its call tree beside the
 * scope analysis, in a thread of its own: the same tree as built alone,
 * and the scopes' series with it */
static void
test_analysis_call_tree_beside (void)
{
  g_autoptr(PsEventStore) store = many_scopes_store (100000);
  g_autoptr(PsRunAnalysis) analysis = ps_run_analysis_new (store);
  g_autoptr(PsCallTree) alone = NULL;
  PsCallTreeOptions options = { PS_NONE, NULL, 0 };
  guint n_series = 0;

  alone = ps_call_tree_new_for_store (store, &options, NULL);
  g_assert_nonnull (alone);
  g_assert_nonnull (analysis->call_tree);
  g_assert_nonnull (analysis->scopes);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (analysis->call_tree), ==, ps_call_tree_get_n_nodes (alone));
  g_assert_cmpuint (ps_call_tree_get_n_nodes (alone), >, 100);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (analysis->call_tree), ==, ps_call_tree_get_elapsed_total (alone));
  for (guint32 node = 0; node < ps_call_tree_get_n_nodes (alone); node++)
    {
      PsCallStats a, b;

      ps_call_tree_copy_node_stats (alone, node, &a);
      ps_call_tree_copy_node_stats (analysis->call_tree, node, &b);
      g_assert_cmpuint (a.calls, ==, b.calls);
      g_assert_cmpfloat (a.total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], ==, b.total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE]);
    }
  for (guint i = 0; i < analysis->scopes->series->len; i++)
    n_series += ((PsSeries *)g_ptr_array_index (analysis->scopes->series, i))->kind == PS_SERIES_SPAN;
  g_assert_cmpuint (n_series, ==, 130);
}

/* A range's analysis (a range chosen on the timeline) makes a group's
 * instances of that range alone, when they are first asked for, and
 * keeps them */
static void
test_analysis_members_in_range (void)
{
  g_autoptr(GString) log = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
                                         "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
                                         "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n");
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(PsRunAnalysis) analysis = NULL;
  const PsSeries *group;
  GPtrArray *members;

  /* Registration i has the durations 10 + i and 20 + i ms: measurements
   * 2i and 2i + 1 */
  for (guint i = 0; i < 10; i++)
    {
      g_string_append (log, "## PERF ## REGISTERED MARKER [Test=Step,time=%AVG%] AS [0] BY APP [app]\r\n");
      g_string_append_printf (log, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n"
                              "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", 10 + i, 20 + i);
    }
  stream = g_memory_input_stream_new_from_data (g_memdup2 (log->str, log->len), (gssize)log->len, g_free);
  store = ps_load_stream (stream, "range.log", NULL, NULL, NULL);
  g_assert_nonnull (store);
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 20);

  /* Measurements 5 to 12: the second of registration 2, both of 3 to
   * 5, the first of 6 */
  analysis = ps_run_analysis_new_for_range (store, 5, 12);
  g_assert_null (analysis->members);
  g_assert_cmpuint (analysis->groups->len, ==, 1);
  group = g_ptr_array_index (analysis->groups, 0);
  g_assert_cmpuint (group->stats.count, ==, 8);
  g_assert_cmpuint (group->n_instances, ==, 10);
  members = ps_run_analysis_get_members (analysis, group);
  g_assert_cmpuint (members->len, ==, 10);
  for (guint i = 0; i < members->len; i++)
    {
      const PsSeries *member = g_ptr_array_index (members, i);
      guint expected = i == 2 || i == 6 ? 1 : i >= 3 && i <= 5 ? 2 : 0;

      g_assert_cmpuint (member->instance, ==, i + 1);
      g_assert_cmpuint (member->stats.count, ==, expected);
      if (i == 2)
        g_assert_cmpfloat (member->stats.min, ==, 0.022);
      if (i == 6)
        g_assert_cmpfloat (member->stats.max, ==, 0.016);
    }
  g_assert_true (ps_run_analysis_get_members (analysis, group) == members);
}

/* A sampled run's analysis builds no call tree of its own: its view
 * builds the tree of the event it shows, and that tree has the calls */
static void
test_analysis_sampled_run (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "pmcstat_freebsd14.pmclog", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(PsRunAnalysis) analysis = NULL;
  g_autoptr(PsCallTree) shown = NULL;
  PsCallTreeOptions options = { PS_NONE, NULL, 0 };

  g_assert_nonnull (stream);
  store = ps_load_stream (G_INPUT_STREAM (stream), "pmcstat_freebsd14.pmclog", NULL, NULL, NULL);
  g_assert_nonnull (store);
  g_assert_cmpuint (ps_event_store_get_n_samples (store), >, 0);
  g_assert_cmpuint (ps_event_store_get_n_spans (store), >, 0);

  analysis = ps_run_analysis_new (store);
  g_assert_null (analysis->call_tree);
  /* The processes' lifetimes still make their scopes */
  g_assert_nonnull (analysis->scopes);

  options.group_addresses = TRUE;
  shown = ps_call_tree_new_for_store (store, &options, NULL);
  g_assert_nonnull (shown);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (shown), >, 1);
}

/* A big tree is copied in a worker: until then the graph has no frames
 * and says so; then the same values as a tree copied at once, and a tree
 * set meanwhile wins over the copy of the one before */
static void
test_flame_graph_worker (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(PsCallTree) tree = load_call_tree ("calltree_4711.log");
  g_autoptr(PsCallTree) other = load_call_tree ("calltree_4711.log");
  GtkWidget *window;
  PsFlameGraph *flame_graph = flame_graph_window_new (NULL, &window);
  cairo_surface_t *empty;
  double rgba[4];

  _ps_flame_graph_set_sync_limit (flame_graph, 0);
  ps_flame_graph_set_tree (flame_graph, tree);
  g_assert_true (_ps_flame_graph_is_laying_out (flame_graph));
  g_assert_true (isnan (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", NULL)));
  empty = draw_flame_graph (flame_graph);
  surface_pixel (empty, 10, 5, rgba);
  cairo_surface_destroy (empty);
  g_assert_cmpfloat (rgba[3], ==, 0);

  /* Another tree before the copy is done: only its copy is installed */
  ps_flame_graph_set_tree (flame_graph, other);
  g_assert_true (iterate_until (flame_graph_laid_out, flame_graph));
  g_assert_true (ps_flame_graph_get_tree (flame_graph) == other);
  assert_flame_totals (flame_graph, other);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", "::A", NULL), 75 * MS, 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", NULL), 140 * MS, 1);
  {
    cairo_surface_t *drawn = draw_flame_graph (flame_graph);
    FrameRect main_frame = flame_frame (flame_graph, "::main", NULL);

    surface_pixel (drawn, (int) main_frame.x + 2, (int) main_frame.y + 1, rgba);
    cairo_surface_destroy (drawn);
    g_assert_cmpfloat (rgba[3], >, 0.9);
  }

  /* Gone while a copy is made: it is let go when the copy is done */
  ps_flame_graph_set_tree (flame_graph, tree);
  g_assert_true (_ps_flame_graph_is_laying_out (flame_graph));
  g_object_add_weak_pointer (G_OBJECT (flame_graph), (gpointer *)&flame_graph);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (iterate_until (pointer_is_null, &flame_graph));
}

/* A big tree set while the graph is not shown, as behind another mode
 * of the call tree, is copied only once it is shown: a worker started at
 * once would be done long before the wait ends */
static void
test_flame_graph_deferred (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(PsCallTree) tree = load_call_tree ("calltree_4711.log");
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *other = gtk_label_new ("other mode");
  PsFlameGraph *flame_graph = PS_FLAME_GRAPH (ps_flame_graph_new ());

  gtk_window_set_default_size (GTK_WINDOW (window), FLAME_WIDTH, 300);
  gtk_stack_add_named (GTK_STACK (stack), other, "other");
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (flame_graph), "flame");
  gtk_stack_set_visible_child (GTK_STACK (stack), other);
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until (widget_is_drawn, other));

  _ps_flame_graph_set_sync_limit (flame_graph, 0);
  ps_flame_graph_set_tree (flame_graph, tree);
  iterate_for (300);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (flame_graph)));
  g_assert_true (_ps_flame_graph_is_laying_out (flame_graph));
  g_assert_true (isnan (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", NULL)));

  /* Shown: copied, with the tree's values, which the copy reads without
   * making the tree keep every node's statistics */
  gtk_stack_set_visible_child (GTK_STACK (stack), GTK_WIDGET (flame_graph));
  g_assert_true (iterate_until (flame_graph_laid_out, flame_graph));
  g_assert_cmpuint (tree->n_node_chunks, >, 0);
  for (guint c = 0; c < tree->n_node_chunks; c++)
    g_assert_null (tree->node_chunks[c]);
  assert_flame_totals (flame_graph, tree);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", NULL), 140 * MS, 1);

  /* A tree set while shown is copied at once; hidden again, the next one waits */
  ps_flame_graph_set_tree (flame_graph, NULL);
  gtk_stack_set_visible_child (GTK_STACK (stack), other);
  iterate_for (50);
  ps_flame_graph_set_tree (flame_graph, tree);
  iterate_for (300);
  g_assert_true (_ps_flame_graph_is_laying_out (flame_graph));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_flame_graph_transforms (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(PsCallTree) tree = load_call_tree ("calltree_4711.log");
  PsFlameGraph *flame_graph = g_object_ref_sink (PS_FLAME_GRAPH (ps_flame_graph_new ()));
  guint32 function_a = ps_call_tree_lookup_function (tree, "::A");
  guint32 function_b = ps_call_tree_lookup_function (tree, "::B");
  const PsCallStats *stats_b = ps_call_tree_get_function_stats (tree, function_b);
  g_autoptr(PsCallTreeBuilder) builder = NULL;
  g_autoptr(PsCallTree) recursive = NULL;
  guint32 main_function, r, x;

  ps_flame_graph_set_tree (flame_graph, tree);
  assert_flame_totals (flame_graph, tree);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", "::A", NULL), 75 * MS, 1);

  /* Merge A: its callee B goes to main, its own time too */
  ps_flame_graph_add_transform (flame_graph, PS_FLAME_TRANSFORM_MERGE, function_a);
  g_assert_cmpuint (ps_flame_graph_get_n_transforms (flame_graph), ==, 1);
  assert_flame_totals (flame_graph, tree);
  g_assert_true (isnan (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", "::A", NULL)));
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", "::B", NULL), 45 * MS, 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", NULL), 140 * MS, 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_EXCLUSIVE, "::main", NULL), 140 * MS, 1);
  g_assert_cmpuint (_ps_flame_graph_get_n_children (flame_graph, (const char *[]) { "::main", NULL }), ==, 2);

  /* Undo: as recorded */
  ps_flame_graph_undo_transform (flame_graph);
  g_assert_cmpuint (ps_flame_graph_get_n_transforms (flame_graph), ==, 0);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::main", "::A", NULL), 75 * MS, 1);

  /* Focus on B: its calls from A and from C merged as the only root */
  ps_flame_graph_add_transform (flame_graph, PS_FLAME_TRANSFORM_FOCUS, function_b);
  g_assert_cmpuint (_ps_flame_graph_get_n_children (flame_graph, NULL), ==, 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::B", NULL),
                                  stats_b->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "::B", NULL), 55 * MS, 1);
  g_assert_cmpfloat_with_epsilon (_ps_flame_graph_get_top_sum (flame_graph, PS_CALL_VALUE_ELAPSED_EXCLUSIVE),
                                  stats_b->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, NULL),
                                  stats_b->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], 1);
  /* Transforms stack: then merge B away, then reset */
  ps_flame_graph_add_transform (flame_graph, PS_FLAME_TRANSFORM_MERGE, function_b);
  g_assert_cmpuint (ps_flame_graph_get_n_transforms (flame_graph), ==, 2);
  g_assert_cmpuint (_ps_flame_graph_get_n_children (flame_graph, NULL), ==, 0);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_EXCLUSIVE, NULL), 55 * MS, 1);
  ps_flame_graph_reset_transforms (flame_graph);
  g_assert_cmpuint (ps_flame_graph_get_n_transforms (flame_graph), ==, 0);
  assert_flame_totals (flame_graph, tree);
  g_assert_cmpuint (_ps_flame_graph_get_n_children (flame_graph, NULL), ==, 2);

  /* Collapse recursion: main → R → R → X (10 ms each level, 70 ms in
   * all) becomes main → R → X */
  builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  main_function = ps_call_tree_builder_intern_function (builder, "main", NULL);
  r = ps_call_tree_builder_intern_function (builder, "R", NULL);
  x = ps_call_tree_builder_intern_function (builder, "X", NULL);
  ps_call_tree_builder_enter (builder, 1, main_function, 0);
  ps_call_tree_builder_enter (builder, 1, r, 10 * MS);
  ps_call_tree_builder_enter (builder, 1, r, 20 * MS);
  ps_call_tree_builder_enter (builder, 1, x, 30 * MS);
  ps_call_tree_builder_leave (builder, 1, 40 * MS);
  ps_call_tree_builder_leave (builder, 1, 50 * MS);
  ps_call_tree_builder_leave (builder, 1, 60 * MS);
  ps_call_tree_builder_leave (builder, 1, 70 * MS);
  recursive = ps_call_tree_builder_end (g_steal_pointer (&builder));
  ps_flame_graph_set_tree (flame_graph, recursive);
  assert_flame_totals (flame_graph, recursive);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "main", "R", "R", NULL), 30 * MS, 1);

  ps_flame_graph_add_transform (flame_graph, PS_FLAME_TRANSFORM_COLLAPSE_RECURSION, r);
  assert_flame_totals (flame_graph, recursive);
  g_assert_true (isnan (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "main", "R", "R", NULL)));
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "main", "R", NULL), 50 * MS, 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_INCLUSIVE, "main", "R", "X", NULL), 10 * MS, 1);
  g_assert_cmpfloat_with_epsilon (flame_value (flame_graph, PS_CALL_VALUE_ELAPSED_EXCLUSIVE, "main", "R", NULL), 50 * MS, 1);

  /* A new tree drops the transforms */
  ps_flame_graph_set_tree (flame_graph, tree);
  g_assert_cmpuint (ps_flame_graph_get_n_transforms (flame_graph), ==, 0);

  g_object_unref (flame_graph);
}

static void
test_call_tree_flame_graph (Fixture       *fixture,
                            gconstpointer  data)
{
  PsCallTreeView *view = open_rtl_call_tree (fixture);
  PsFlameGraph *flame_graph = ps_call_tree_view_get_flame_graph (view);
  PsCallTree *tree = ps_call_tree_view_get_tree (view);
  guint32 function = ps_call_tree_lookup_function (tree, CT_DO_LOAD);

  g_assert_true (ps_call_tree_view_is_mode_available (view, "flame-graph"));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (flame_graph)));
  ps_call_tree_view_set_mode (view, "flame-graph");
  g_assert_cmpstr (ps_call_tree_view_get_mode (view), ==, "flame-graph");
  g_assert_true (iterate_until (widget_is_drawn, flame_graph));
  g_assert_true (ps_flame_graph_get_tree (flame_graph) == tree);
  maybe_save_screenshot (fixture, "call-tree-flame-graph");

  /* A frame activated shows its function's callers and callees; the
   * graph stays */
  g_assert_cmpuint (function, !=, PS_NONE);
  g_signal_emit_by_name (flame_graph, "frame-activated", function);
  g_assert_cmpuint (ps_call_tree_view_get_selected_function (view), ==, function);
  g_assert_cmpstr (ps_call_tree_view_get_mode (view), ==, "flame-graph");
  g_assert_cmpuint (g_list_model_get_n_items (ps_call_tree_view_get_callers_model (view)), >, 0);

  /* The view's search dims the graph's frames */
  ps_call_tree_view_set_search (view, "DoLoad");
  wait_for_call_tree_view (view);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (flame_graph)));

  /* The other modes still work */
  ps_call_tree_view_set_mode (view, "top-down");
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (flame_graph)));
  g_assert_cmpuint (g_list_model_get_n_items (ps_call_tree_view_get_model (view)), >, 0);
}

/* A CE log whose one description is registered many times: the page is
 * ready once, after its analysis, with the marker table filled and the
 * timeline drawn; the group's registrations are rows made on demand */
typedef struct
{
  PsRunPage *page;
  guint      n_ready;
  guint      n_markers_at_ready;
  gboolean   timeline_drawn_at_ready;
  gboolean   loaded_at_ready;
} ReadyWatch;

static void
page_ready_cb (PsRunPage  *page,
               ReadyWatch *watch)
{
  PsCeView *view = ps_run_page_get_ce_view (page);

  watch->n_ready++;
  watch->n_markers_at_ready = g_list_model_get_n_items (ps_ce_view_get_marker_model (view));
  watch->timeline_drawn_at_ready = ps_timeline_view_has_drawn_model (ps_run_page_get_timeline_view (page));
  watch->loaded_at_ready = ps_run_page_get_state (page) == PS_RUN_PAGE_LOADED;
}

static gboolean
watch_is_ready (gpointer data)
{
  return ((ReadyWatch *)data)->n_ready > 0;
}

#define N_REGISTRATIONS 300

/* An application a harness restarted 300 times is named once in the
 * header, with its first process id and how many registrations followed */
static void
test_ce_header_registrations (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GString) log = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
                                         "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n");
  g_autoptr(GFile) file = NULL;
  PsRunPage *page;
  const char *apps;

  for (guint i = 0; i < 300; i++)
    g_string_append_printf (log, "## PERF ## REGISTERED APP [harnessed] PROCCESSID [0x%x]\r\n", 0x100 + i);
  g_string_append (log, "## PERF ## REGISTERED APP [other] PROCCESSID [0x9]\r\n"
                        "## PERF ## REGISTERED MARKER [Test=Step,time=%AVG%] AS [0] BY APP [other]\r\n"
                        "## PERF ## APP [other] EVT [0] DUR [10]\r\n");
  file = write_temp_file (fixture, "harness.log", log->str, (gssize)log->len);
  page = open_and_wait (fixture, file);

  apps = ps_run_view_get_header_value (PS_RUN_VIEW (ps_run_page_get_ce_view (page)), "app");
  g_assert_cmpstr (apps, ==, "harnessed (PID 0x100 and 299 more), other (PID 0x9)");
}

static void
test_ready_once (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GString) log = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
                                         "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
                                         "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GtkTreeListRow) group_row = NULL;
  GListModel *children;
  ReadyWatch watch = { 0 };
  PsRunPage *page;
  GListModel *markers;
  PsRunAnalysis *analysis;

  for (guint i = 0; i < N_REGISTRATIONS; i++)
    {
      g_string_append (log, "## PERF ## REGISTERED MARKER [Test=Step,time=%AVG%] AS [0] BY APP [app]\r\n");
      g_string_append_printf (log, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n"
                              "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", 10 + i, 20 + i);
    }
  file = write_temp_file (fixture, "registrations.log", log->str, (gssize)log->len);

  ps_window_open_file (fixture->window, file);
  page = ps_window_get_current_page (fixture->window);
  g_assert_nonnull (page);
  g_assert_false (ps_run_page_is_ready (page));
  g_signal_connect (page, "ready", G_CALLBACK (page_ready_cb), &watch);
  g_assert_true (iterate_until (watch_is_ready, &watch));
  /* More frames change nothing */
  gtk_widget_queue_draw (GTK_WIDGET (page));
  iterate_for (300);

  g_assert_cmpuint (watch.n_ready, ==, 1);
  g_assert_true (ps_run_page_is_ready (page));
  g_assert_true (watch.loaded_at_ready);
  g_assert_true (watch.timeline_drawn_at_ready);
  g_assert_cmpuint (watch.n_markers_at_ready, ==, 1);

  /* One timeline row for all the registrations, after the application's
   * group, with the values of each */
  {
    PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
    PsTimelineModel *model = ps_timeline_view_get_model (timeline);
    guint n_rows = 0;

    for (guint r = 0; r < model->rows->len; r++)
      {
        const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

        if (row->kind != PS_TIMELINE_ROW_VALUES)
          continue;
        g_assert_cmpstr (ps_timeline_view_get_row_label (timeline, r), ==, "Test=Step,time=%AVG%");
        g_assert_cmpuint (ps_value_lod_get_n_points (row->values), ==, 2 * N_REGISTRATIONS);
        n_rows++;
      }
    g_assert_cmpuint (n_rows, ==, 1);
  }

  /* One group of all the registrations, with their values */
  markers = ps_ce_view_get_marker_model (ps_run_page_get_ce_view (page));
  group_row = g_list_model_get_item (markers, 0);
  {
    g_autoptr(PsMarkerRow) group = gtk_tree_list_row_get_item (group_row);

    g_assert_cmpuint (ps_marker_row_get_count (group), ==, 2 * N_REGISTRATIONS);
    g_assert_cmpfloat (ps_marker_row_get_min (group), ==, 0.010);
    g_assert_cmpfloat (ps_marker_row_get_max (group), ==, (20 + N_REGISTRATIONS - 1) / 1000.0);
  }
  /* The registrations' own series are made when their group is opened,
   * and kept */
  analysis = ps_run_view_get_analysis (PS_RUN_VIEW (ps_run_page_get_ce_view (page)));
  g_assert_null (analysis->members);
  g_assert_true (gtk_tree_list_row_is_expandable (group_row));
  gtk_tree_list_row_set_expanded (group_row, TRUE);
  g_assert_nonnull (analysis->members);
  g_assert_cmpuint (g_hash_table_size (analysis->members), ==, 1);
  children = gtk_tree_list_row_get_children (group_row);
  g_assert_nonnull (children);
  /* The table lists the group and its registrations */
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, 1 + N_REGISTRATIONS);
  g_assert_cmpuint (g_list_model_get_n_items (children), ==, N_REGISTRATIONS);
  {
    g_autoptr(PsMarkerRow) last = g_list_model_get_item (children, N_REGISTRATIONS - 1);
    g_autoptr(PsMarkerRow) again = g_list_model_get_item (children, N_REGISTRATIONS - 1);

    /* The same object each time; the last registration's own values */
    g_assert_true (last == again);
    g_assert_false (ps_marker_row_is_group (last));
    g_assert_cmpuint (ps_marker_row_get_count (last), ==, 2);
    g_assert_cmpfloat (ps_marker_row_get_min (last), ==, (10 + N_REGISTRATIONS - 1) / 1000.0);
    g_assert_null (g_list_model_get_item (children, N_REGISTRATIONS));
  }
  /* Each registration's values, in the order of the log */
  for (guint i = 0; i < N_REGISTRATIONS; i += 37)
    {
      g_autoptr(PsMarkerRow) one = g_list_model_get_item (children, i);

      g_assert_cmpuint (ps_marker_row_get_series (one)->instance, ==, i + 1);
      g_assert_cmpuint (ps_marker_row_get_count (one), ==, 2);
      g_assert_cmpfloat (ps_marker_row_get_min (one), ==, (10 + i) / 1000.0);
      g_assert_cmpfloat (ps_marker_row_get_max (one), ==, (20 + i) / 1000.0);
    }
  gtk_tree_list_row_set_expanded (group_row, FALSE);
  gtk_tree_list_row_set_expanded (group_row, TRUE);
  g_assert_cmpuint (g_hash_table_size (analysis->members), ==, 1);

  /* Reloading makes the page ready once more */
  ps_run_page_load (page);
  g_assert_false (ps_run_page_is_ready (page));
  g_assert_true (iterate_until ((gboolean (*) (gpointer))ps_run_page_is_ready, page));
  g_assert_cmpuint (watch.n_ready, ==, 2);
}

/* The modes of many labels at once are those of each among the others */
static void
test_ellipsize_modes_among (Fixture       *fixture,
                            gconstpointer  data)
{
  static const char *const words[] = {
    "Test=WriteFile,Bytes=512,time=%AVG%", "Test=WriteFile,Bytes=4096,time=%AVG%",
    "Test=ReadFile,Bytes=512,time=%AVG%", "soffice.bin.log", "swriter.log", "x", "",
    "Test=WriteFile,Bytes=512,time=%AVG%,extra", "abcd.efgh", "zzzz.efgh", "Bytes=512,time=%AVG%",
  };
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  const char *texts[64];
  PangoEllipsizeMode modes[64];
  gsize differs_at[64];
  guint n = 0;

  /* Copies at other addresses, the same address twice, and gaps */
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    texts[n++] = words[i];
  for (guint i = 0; i < 4; i++)
    {
      g_ptr_array_add (owned, g_strdup (words[i * 2]));
      texts[n++] = g_ptr_array_index (owned, owned->len - 1);
    }
  texts[n++] = words[3];
  texts[n++] = NULL;
  texts[n++] = words[5];

  ps_view_ellipsize_modes_among (texts, n, modes, differs_at);
  for (guint i = 0; i < n; i++)
    {
      gsize expected_at = 0;

      if (texts[i] == NULL)
        continue;
      g_assert_cmpint (modes[i], ==, ps_view_ellipsize_mode_among (texts[i], texts, n, &expected_at));
      g_assert_cmpuint (differs_at[i], ==, expected_at);
    }
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/gui/window/empty-state", test_empty_state);
  ADD_TEST ("/gui/window/actions", test_actions);
  ADD_TEST ("/gui/ce/open-example", test_open_ce_example);
  ADD_TEST ("/gui/ce/ready-once", test_ready_once);
  ADD_TEST ("/gui/ce/header-registrations", test_ce_header_registrations);
  ADD_TEST ("/gui/timeline/ellipsize-modes-among", test_ellipsize_modes_among);
  ADD_TEST ("/gui/window/drop-files", test_drop_files);
  ADD_TEST ("/gui/ce/latin1-description", test_latin1_description);
  ADD_TEST ("/gui/ce/sort-markers", test_sort_markers);
  ADD_TEST ("/gui/ce/group-instances", test_group_instances);
  ADD_TEST ("/gui/ce/tab-leaves-table", test_tab_leaves_table);
  ADD_TEST ("/gui/ce/sessions", test_sessions);
  ADD_TEST ("/gui/ce/broken-file", test_broken_file);
  ADD_TEST ("/gui/run-page/partial-store", test_partial_store);
  ADD_TEST ("/gui/run-page/missing-file", test_missing_file);
  ADD_TEST ("/gui/run-page/cancel", test_cancel);
  ADD_TEST ("/gui/run-page/timeline-while-computing", test_timeline_while_computing);
  ADD_TEST ("/gui/chart/pixels", test_chart_pixels);
  ADD_TEST ("/gui/ce/chart-changes", test_ce_chart_changes);
  ADD_TEST ("/gui/ce/timeline-changes", test_ce_timeline_changes);
  ADD_TEST ("/gui/ce/units", test_ce_units);
  ADD_TEST ("/gui/numbers/rule", test_number_rule);
  ADD_TEST ("/gui/histogram/pixels", test_histogram_pixels);
  ADD_TEST ("/gui/histogram/selection", test_histogram_selection);
  ADD_TEST ("/gui/histogram/log-ticks", test_histogram_log_ticks);
  ADD_TEST ("/gui/rtl/open-example", test_rtl_open_example);
  ADD_TEST ("/gui/rtl/sort-scopes", test_rtl_sort_scopes);
  ADD_TEST ("/gui/rtl/totals", test_rtl_totals);
  ADD_TEST ("/gui/rtl/totals-when-shown", test_rtl_totals_when_shown);
  ADD_TEST ("/gui/rtl/histogram", test_rtl_histogram);
  ADD_TEST ("/gui/rtl/search", test_rtl_search);
  ADD_TEST ("/gui/rtl/filters", test_rtl_filters);
  ADD_TEST ("/gui/rtl/warnings", test_rtl_warnings);
  ADD_TEST ("/gui/rtl/warnings-line-order", test_rtl_warnings_line_order);
  ADD_TEST ("/gui/rtl/header-counts", test_rtl_header_counts);
  ADD_TEST ("/gui/rtl/unterminated", test_rtl_unterminated);
  ADD_TEST ("/gui/rtl/not-for-ce", test_rtl_not_for_ce);
  ADD_TEST ("/gui/call-tree/rtl", test_call_tree_rtl);
  ADD_TEST ("/gui/call-tree/functions-sort", test_call_tree_functions_sort);
  ADD_TEST ("/gui/call-tree/search", test_call_tree_search);
  ADD_TEST ("/gui/call-tree/callers", test_call_tree_callers);
  ADD_TEST ("/gui/call-tree/basis", test_call_tree_basis);
  ADD_TEST ("/gui/call-tree/threads", test_call_tree_threads);
  ADD_TEST ("/gui/call-tree/vs-report", test_call_tree_vs_report);
  ADD_TEST ("/gui/call-tree/flame-graph", test_call_tree_flame_graph);
  g_test_add_func ("/analysis/call-tree-beside-scopes", test_analysis_call_tree_beside);
  g_test_add_func ("/analysis/members-in-range", test_analysis_members_in_range);
  g_test_add_func ("/analysis/sampled-run", test_analysis_sampled_run);
  ADD_TEST ("/gui/flame-graph/pixels", test_flame_graph_pixels);
  ADD_TEST ("/gui/flame-graph/worker", test_flame_graph_worker);
  ADD_TEST ("/gui/flame-graph/deferred", test_flame_graph_deferred);
  ADD_TEST ("/gui/flame-graph/transforms", test_flame_graph_transforms);

  return gui_test_run ();
}

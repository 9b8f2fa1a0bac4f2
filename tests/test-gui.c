/* test-gui.c — the application in a real window (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens files through ps_window_open_file() like a user would and checks
 * what the widgets show: the marker table's model against the oracle of
 * specs/ce-perflog.md §6, the error, partial and cancelled states, and the
 * pixels of a rendered chart.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "ps-application.h"
#include "ps-ce-view-private.h"
#include "ps-loader.h"
#include "ps-marker-row.h"
#include "ps-run-page-private.h"
#include "ps-series-chart.h"
#include "ps-window-private.h"
#include "ps-warning-row.h"

#define TICKS_PER_SECOND 1193180.0

typedef struct
{
  PsApplication *app;
  PsWindow      *window;
  char          *tmpdir;
} Fixture;

/* Test helpers */

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until condition() holds or a minute has passed */
static gboolean
iterate_until (gboolean (*condition) (gpointer data),
               gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint wake_id = g_timeout_add (10, wake_up, NULL);
  gboolean done;

  while (!(done = condition (data)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake_id);
  return done;
}

static void
iterate_for (guint milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;
  guint wake_id = g_timeout_add (10, wake_up, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake_id);
}

static gboolean
page_is_settled (gpointer data)
{
  PsRunPageState state = ps_run_page_get_state (data);

  return state != PS_RUN_PAGE_LOADING && state != PS_RUN_PAGE_EMPTY;
}

static void
wait_for_page (PsRunPage *page)
{
  g_assert_true (iterate_until (page_is_settled, page));
}

static gboolean
widget_is_drawn (gpointer data)
{
  GtkWidget *widget = data;

  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0
         && gtk_widget_get_height (widget) > 0;
}

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

static GFile *
write_temp_file (Fixture    *fixture,
                 const char *name,
                 const char *contents,
                 gssize      length)
{
  g_autofree char *path = g_build_filename (fixture->tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);

  return g_file_new_for_path (path);
}

static PsRunPage *
open_and_wait (Fixture *fixture,
               GFile   *file)
{
  PsRunPage *page;

  ps_window_open_file (fixture->window, file);
  page = ps_window_get_current_page (fixture->window);
  g_assert_nonnull (page);
  g_assert_true (g_file_equal (ps_run_page_get_file (page), file));
  wait_for_page (page);

  return page;
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

static GdkTexture *
render_widget (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* With PERFSCOPE_TEST_SCREENSHOTS=DIR, keeps pictures of the window */
static void
maybe_save_screenshot (Fixture    *fixture,
                       const char *name)
{
  const char *dir = g_getenv ("PERFSCOPE_TEST_SCREENSHOTS");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file_name = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  iterate_for (300);
  texture = render_widget (GTK_WIDGET (fixture->window));
  file_name = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file_name, NULL);
  gdk_texture_save_to_png (texture, path);
}

/* Fixture */

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->tmpdir = g_dir_make_tmp ("perfscope-test-gui-XXXXXX", &error);
  g_assert_no_error (error);

  fixture->app = ps_application_new ("io.github.perfscope.Perfscope.Test", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (fixture->app), NULL, &error);
  g_assert_no_error (error);

  fixture->window = ps_window_new (fixture->app);
  gtk_window_present (GTK_WINDOW (fixture->window));
  g_assert_true (iterate_until (widget_is_drawn, fixture->window));
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_remove (child);
    }
  g_rmdir (path);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate_for (50);
  g_clear_object (&fixture->app);
  remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

/* Tests */

static void
test_empty_state (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "empty");
  g_assert_true (gtk_widget_get_mapped (fixture->window->empty_state));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->window->notebook)));
  g_assert_null (ps_window_get_current_page (fixture->window));
  maybe_save_screenshot (fixture, "empty");
}

static void
test_open_ce_example (Fixture       *fixture,
                      gconstpointer  data)
{
  /* specs/ce-perflog.md §6: name, count, total ticks, mean seconds */
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

  /* Session header (§5.1) */
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "os"), ==, "6.0");
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "build"), ==, "3122");
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "platform"), ==, "CEPC");
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "cpu"), ==, "x86");
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "device"), ==, "CEPC");
  g_assert_nonnull (strstr (ps_ce_view_get_header_value (view, "app"), "fsperf"));
  g_assert_nonnull (strstr (ps_ce_view_get_header_value (view, "app"), "0x0a5f0012"));
  g_assert_nonnull (strstr (ps_ce_view_get_header_value (view, "resolution"), "1193180"));

  /* CPU and MEM: one series each; no warnings for the example */
  g_assert_cmpuint (ps_series_chart_get_n_series (ps_ce_view_get_cpu_chart (view)), ==, 1);
  g_assert_cmpuint (ps_series_chart_get_n_series (ps_ce_view_get_memory_chart (view)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (ps_ce_view_get_warning_model (view)), ==, 0);

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

static void
test_sort_markers (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GFile) file = spec_example_file ();
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  GListModel *markers = ps_ce_view_get_marker_model (view);
  GtkColumnView *column_view = ps_ce_view_get_marker_view (view);
  GtkColumnViewColumn *column;

  column = find_column (column_view, "Mean");
  g_assert_nonnull (column);
  gtk_column_view_sort_by_column (column_view, column, GTK_SORT_DESCENDING);
  {
    g_autoptr(PsMarkerRow) first = marker_at (markers, 0);
    g_autoptr(PsMarkerRow) last = marker_at (markers, 3);

    g_assert_cmpstr (ps_marker_row_get_name (first), ==, "Test=WriteFile,Bytes=65536,time=%AVG%");
    g_assert_cmpstr (ps_marker_row_get_name (last), ==, "Test=WriteFile,Bytes=4096,time=%AVG%");
  }

  /* A description key column sorts by the (numeric) value */
  column = find_column (column_view, "Bytes");
  g_assert_nonnull (column);
  gtk_column_view_sort_by_column (column_view, column, GTK_SORT_ASCENDING);
  {
    g_autoptr(PsMarkerRow) second = marker_at (markers, 1);

    g_assert_cmpstr (ps_marker_row_get_description_value (second, "Bytes"), ==, "4096");
  }
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
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "os"), ==, "6.0");
  g_assert_cmpuint (g_list_model_get_n_items (markers), ==, 1);

  ps_ce_view_set_session (view, 1);
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "os"), ==, "7.0");
  g_assert_cmpstr (ps_ce_view_get_header_value (view, "platform"), ==, "ARMV4I");
  /* No RESOLUTION in the second run: ticks only (§7 #5) */
  g_assert_nonnull (strstr (ps_ce_view_get_header_value (view, "resolution"), "ticks"));
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
  GListModel *warnings = ps_ce_view_get_warning_model (view);
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
  g_assert_nonnull (strstr (ps_ce_view_get_warnings_title (view), "("));

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
  store = ps_load_stream (G_INPUT_STREAM (stream), "fsperf_CEPC_x86_6_0_3122.log", NULL,
                          0, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);

  read_error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, "Input/output error at line 17 (byte offset 0x2f1)");
  ps_event_store_set_error (store, read_error);
  g_assert_false (ps_event_store_is_complete (store));

  page = PS_RUN_PAGE (ps_run_page_new (file));
  gtk_notebook_append_page (fixture->window->notebook, GTK_WIDGET (page), gtk_label_new ("partial"));
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

static void
test_chart_pixels (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GFile) file = spec_example_file ();
  PsRunPage *page = open_and_wait (fixture, file);
  PsCeView *view = ps_run_page_get_ce_view (page);
  PsSeriesChart *chart = ps_ce_view_get_cpu_chart (view);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  int width, height;
  gsize stride;
  guint n_line_pixels = 0, n_drawn_pixels = 0;

  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (chart)), ==, GTK_ACCESSIBLE_ROLE_IMG);
  g_assert_cmpstr (gtk_widget_get_css_name (GTK_WIDGET (chart)), ==, "serieschart");

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

  /* Pixels are premultiplied BGRA (CAIRO_FORMAT_ARGB32 in memory order) */
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const guchar *p = pixels + y * stride + x * 4;
        guchar blue = p[0], green = p[1], red = p[2], alpha = p[3];

        if (alpha > 0)
          n_drawn_pixels++;
        /* The first series colour, #3584e4 */
        if (alpha > 200 && blue > 170 && red < 110 && green > 90 && green < 170)
          n_line_pixels++;
      }

  g_assert_cmpuint (n_drawn_pixels, >, 500);   /* axes, grid, labels */
  g_assert_cmpuint (n_line_pixels, >, 30);     /* the CPU line and its dots */
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

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_cmpstr (ps_marker_row_get_description_value (row, "Test"), ==, "Caf\xe9");
  /* Let the table bind and draw its cells */
  g_assert_true (iterate_until (widget_is_drawn, ps_run_page_get_ce_view (page)));
  iterate_for (200);
}

/* Dropping several files opens each in its own tab, through the same open
 * path as the other ways in */
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
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);

  files = g_slist_append (files, example);
  files = g_slist_append (files, other);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (target, "drop", &value, 20.0, 20.0, &handled);
  g_value_unset (&value);

  g_assert_true (handled);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      PsRunPage *page = ps_window_get_page (fixture->window, i);

      wait_for_page (page);
      g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
    }
  g_assert_cmpstr (ps_run_page_get_title (ps_window_get_page (fixture->window, 0)), ==,
                   "fsperf_CEPC_x86_6_0_3122.log");
  g_assert_cmpstr (ps_run_page_get_title (ps_window_get_page (fixture->window, 1)), ==, "dropped.log");
  {
    PsCeView *view = ps_run_page_get_ce_view (ps_window_get_page (fixture->window, 1));
    g_autoptr(PsMarkerRow) row = find_marker (ps_ce_view_get_marker_model (view), "Test=Drop");

    g_assert_nonnull (row);
  }
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "runs");
}

static GtkWindow *
find_about_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_ABOUT_DIALOG (window))
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
  g_assert_cmpstr (gtk_about_dialog_get_version (GTK_ABOUT_DIALOG (about)), ==, PACKAGE_VERSION);
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

static gboolean
allow_no_session_bus (const char     *log_domain,
                      GLogLevelFlags  log_level,
                      const char     *message,
                      gpointer        user_data)
{
  /* Xvfb runs often come without a D-Bus session; GtkApplication warns */
  return strstr (message, "session bus") == NULL;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = g_dir_make_tmp ("perfscope-test-gui-data-XXXXXX", NULL);
  int status;

  /* Keep the recent files of these runs out of the user's list.
   * (G_TEST_OPTION_ISOLATE_DIRS would do more, but librsvg then fails to
   * load the symbolic icon.) */
  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (allow_no_session_bus, NULL);

  if (!gtk_init_check ())
    {
      /* TAP: skip the whole program */
      g_print ("1..0 # SKIP no display: run under xvfb-run\n");
      remove_tree (data_home);
      return 0;
    }

#define ADD_TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD_TEST ("/gui/window/empty-state", test_empty_state);
  ADD_TEST ("/gui/window/actions", test_actions);
  ADD_TEST ("/gui/ce/open-example", test_open_ce_example);
  ADD_TEST ("/gui/window/drop-files", test_drop_files);
  ADD_TEST ("/gui/ce/latin1-description", test_latin1_description);
  ADD_TEST ("/gui/ce/sort-markers", test_sort_markers);
  ADD_TEST ("/gui/ce/group-instances", test_group_instances);
  ADD_TEST ("/gui/ce/sessions", test_sessions);
  ADD_TEST ("/gui/ce/broken-file", test_broken_file);
  ADD_TEST ("/gui/run-page/partial-store", test_partial_store);
  ADD_TEST ("/gui/run-page/missing-file", test_missing_file);
  ADD_TEST ("/gui/run-page/cancel", test_cancel);
  ADD_TEST ("/gui/chart/pixels", test_chart_pixels);

  status = g_test_run ();
  remove_tree (data_home);
  return status;
}

/* test-counters-view.c — the view of performance-counter runs (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens the PDH logs of tests/data/pdh-csv through the real loader, and a
 * PerfLib-like run built here with raw values and bases, and checks what
 * the user sees: which view shows the run, the counter tree, the counters
 * checked at first, the charts and the statistics of the checked ones,
 * stacked against overlaid pixels, the read-out, search and keyboard, and
 * the marks of where a counter changed.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "gui-fixture.h"
#include "ps-perflib-block.h"
#include "ps-counters-view-private.h"
#include "ps-run-page-private.h"
#include "ps-store-builder.h"
#include "ps-timeline-render.h"
#include "ps-timeline-view.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-window-private.h"

#define SECOND G_GINT64_CONSTANT (1000000000)

#define PROCESSOR_TIME "\\\\WS01\\Processor(_Total)\\% Processor Time"
#define AVAILABLE "\\\\WS01\\Memory\\Available MBytes"
#define SVCHOST3_WORKING_SET "\\\\WS01\\Process(svchost#3)\\Working Set"
#define SVCHOST_WORKING_SET "\\\\WS01\\Process(svchost)\\Working Set"

static gboolean
view_has_tree (gpointer data)
{
  PsCountersView *view = data;

  return g_list_model_get_n_items (G_LIST_MODEL (ps_counters_view_get_tree_selection (view))) > 0;
}

static PsCountersView *
open_counters (Fixture    *fixture,
               const char *name,
               PsRunPage **page_out)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCountersView *view = ps_run_page_get_counters_view (page);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  /* The counters view is the one shown, under the timeline */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_ce_view (page))));
  g_assert_true (gtk_widget_get_visible (gtk_paned_get_start_child (ps_run_page_get_paned (page))));
  g_assert_true (iterate_until (view_has_tree, view));
  ps_counters_view_update_now (view);
  iterate_for (50);
  if (page_out != NULL)
    *page_out = page;
  return view;
}

/* "kind:label" of every row of the tree as shown */
static char *
describe_tree (PsCountersView *view)
{
  GListModel *rows = G_LIST_MODEL (ps_counters_view_get_tree_selection (view));
  static const char *kinds[] = {
    [PS_TRACK_MACHINE] = "M", [PS_TRACK_OBJECT] = "O", [PS_TRACK_INSTANCE] = "I", [PS_TRACK_COUNTER] = "C",
  };
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(PsCounterNode) node = gtk_tree_list_row_get_item (row);

      g_string_append_printf (text, "%s%s:%s", i > 0 ? " | " : "", kinds[ps_counter_node_get_kind (node)],
                              ps_counter_node_get_label (node));
    }
  return g_string_free (text, FALSE);
}

static PsCounterNode *
stats_row (PsCountersView *view,
           PsCounterNode  *node)
{
  GListModel *model = ps_counters_view_get_stats_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsCounterNode) row = g_list_model_get_item (model, i);

      if (row == node)
        return row;
    }
  return NULL;
}

static void
assert_cell (PsCountersView *view,
             PsCounterNode  *node,
             const char     *column,
             const char     *expected)
{
  g_autofree char *text = ps_counters_view_get_stats_cell_text (view, node, column);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_tree (Fixture       *fixture,
           gconstpointer  data)
{
  PsCountersView *view = open_counters (fixture, "logman-pdt.csv", NULL);
  g_autofree char *tree = describe_tree (view);
  g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (view);

  g_assert_cmpstr (tree, ==,
                   "M:WS01 | O:Processor | I:_Total | C:% Processor Time"
                   " | O:Memory | C:Available MBytes"
                   " | O:PhysicalDisk | I:0 C: | C:Avg. Disk sec/Read"
                   " | O:Process | I:svchost#3 | C:Working Set | I:svchost | C:Working Set"
                   " | O:Thread | I:explorer/0 | C:Context Switches/sec");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "machine"), ==, "WS01");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "counters"), ==, "6");
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (view)), ==, "counters");

  /* "analysis", PsRunView's property, is the analysis the view shows */
  {
    g_autoptr(PsRunAnalysis) analysis = NULL;

    g_object_get (view, "analysis", &analysis, NULL);
    g_assert_nonnull (analysis);
    g_assert_true (analysis == ps_run_view_get_analysis (PS_RUN_VIEW (view)));
  }

  /* At first: the processor time, drawn, in the table */
  g_assert_cmpuint (checked->len, ==, 1);
  g_assert_true (g_ptr_array_index (checked, 0) == ps_counters_view_find_counter (view, PROCESSOR_TIME));
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 1);
  g_assert_cmpuint (ps_counter_chart_get_n_series (ps_counters_view_get_chart (view, 0)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (ps_counters_view_get_stats_model (view)), ==, 1);
  /* The short row of 10:00:02 is dropped: 11.296…, -1 and a blank */
  assert_cell (view, g_ptr_array_index (checked, 0), "Count", "2");
  assert_cell (view, g_ptr_array_index (checked, 0), "Missing", "1");
  assert_cell (view, g_ptr_array_index (checked, 0), "Min", "-1.00 %");
  assert_cell (view, g_ptr_array_index (checked, 0), "Max", "11.30 %");
  assert_cell (view, g_ptr_array_index (checked, 0), "Instance", "_Total");
  assert_cell (view, g_ptr_array_index (checked, 0), "Machine", "WS01");

  /* The object checks all of its counters, and shows some checked */
  {
    PsCounterNode *working_set = ps_counters_view_find_counter (view, SVCHOST3_WORKING_SET);
    PsCounterNode *process = ps_counter_node_get_ancestor (working_set, PS_TRACK_OBJECT);
    PsCounterNode *machine = ps_counter_node_get_ancestor (working_set, PS_TRACK_MACHINE);

    g_assert_true (ps_counter_node_get_inconsistent (machine));
    g_assert_false (ps_counter_node_get_checked (process));
    ps_counter_node_set_checked (working_set, TRUE);
    g_assert_true (ps_counter_node_get_inconsistent (process));
    ps_counter_node_set_checked (process, TRUE);
    g_assert_true (ps_counter_node_get_checked (process));
    g_assert_false (ps_counter_node_get_inconsistent (process));
    g_assert_true (ps_counter_node_get_checked (ps_counters_view_find_counter (view, SVCHOST_WORKING_SET)));
    ps_counter_node_set_checked (process, FALSE);
    g_assert_false (ps_counter_node_get_checked (working_set));
  }
}

static void
test_check_more (Fixture       *fixture,
                 gconstpointer  data)
{
  PsCountersView *view = open_counters (fixture, "logman-pdt.csv", NULL);
  PsCounterNode *svchost3 = ps_counters_view_find_counter (view, SVCHOST3_WORKING_SET);
  PsCounterNode *svchost = ps_counters_view_find_counter (view, SVCHOST_WORKING_SET);
  PsCounterNode *available = ps_counters_view_find_counter (view, AVAILABLE);
  PsEventStore *store = ps_counter_node_get_store (svchost3);
  const PsCounterStats *stats = ps_event_store_get_counter_stats (store, ps_counter_node_get_track (svchost3));
  g_autofree char *min = NULL, *max = NULL, *mean = NULL;
  PsCounterChart *bytes_chart;

  g_assert_nonnull (svchost3);
  g_assert_nonnull (svchost);
  ps_counter_node_set_checked (svchost3, TRUE);
  ps_counter_node_set_checked (svchost, TRUE);
  /* Checks take effect at the next idle */
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 1);
  ps_counters_view_update_now (view);

  /* Bytes and percents: two charts; the working sets share one */
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 2);
  bytes_chart = ps_counters_view_get_chart (view, 1);
  g_assert_cmpuint (ps_counter_chart_get_n_series (bytes_chart), ==, 2);
  g_assert_cmpstr (ps_counter_chart_get_title (bytes_chart), ==, "Process — Working Set");

  /* The table: the store's statistics, which are the file's values */
  g_assert_cmpuint (g_list_model_get_n_items (ps_counters_view_get_stats_model (view)), ==, 3);
  g_assert_nonnull (stats_row (view, svchost3));
  g_assert_cmpuint (stats->n_values, ==, 3);
  g_assert_cmpfloat (stats->min, ==, 10485760);
  g_assert_cmpfloat (stats->max, ==, 10498048);
  g_assert_cmpfloat_with_epsilon (stats->sum / stats->n_values, (10485760.0 + 10489856 + 10498048) / 3, 1e-6);
  /* By the one rule for digits (ps-view-util.h) */
  min = g_strdup ("10.00 MiB");
  max = g_strdup ("10.01 MiB");
  mean = g_strdup ("10.01 MiB");
  assert_cell (view, svchost3, "Min", min);
  assert_cell (view, svchost3, "Max", max);
  assert_cell (view, svchost3, "Mean", mean);
  assert_cell (view, svchost3, "Instance", "svchost#3");
  assert_cell (view, svchost3, "Unit", "bytes");
  assert_cell (view, svchost3, "Count", "3");

  /* A third unit, through the keyboard's path: the selected row, Space */
  {
    GtkSelectionModel *selection = ps_counters_view_get_tree_selection (view);
    guint position = G_MAXUINT;

    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (selection)) && position == G_MAXUINT; i++)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (selection), i);
        g_autoptr(PsCounterNode) node = gtk_tree_list_row_get_item (row);

        if (node == available)
          position = i;
      }
    g_assert_cmpuint (position, !=, G_MAXUINT);
    gtk_selection_model_select_item (selection, position, TRUE);
    ps_counters_view_toggle_selected (view);
    g_assert_true (ps_counter_node_get_checked (available));
    ps_counters_view_update_now (view);
    g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 3);
    assert_cell (view, available, "Max", "15,000,000,000 MB");
    ps_counters_view_toggle_selected (view);
    ps_counters_view_update_now (view);
    g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 2);
  }

  /* Sorted by the maximum, the largest working set last */
  {
    GtkColumnView *table = ps_counters_view_get_stats_view (view);
    GListModel *columns = gtk_column_view_get_columns (table);
    GListModel *rows = ps_counters_view_get_stats_model (view);

    for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
      {
        g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

        if (g_strcmp0 (gtk_column_view_column_get_title (column), "Max") == 0)
          gtk_column_view_sort_by_column (table, column, GTK_SORT_ASCENDING);
      }
    {
      g_autoptr(PsCounterNode) last = g_list_model_get_item (rows, g_list_model_get_n_items (rows) - 1);
      g_autoptr(PsCounterNode) first = g_list_model_get_item (rows, 0);

      g_assert_true (last == svchost3);
      g_assert_true (first == ps_counters_view_find_counter (view, PROCESSOR_TIME));
    }
  }
}


/* Counters of one unit but of different names share a chart, titled with
 * that unit once: "Counters (%)", where it read "Counters in % (%)" */
static void
test_unit_chart_title (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *path = demo_file_path ("perfmon_4cpu.csv");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsCountersView *view = ps_run_page_get_counters_view (open_and_wait (fixture, file));
  PsCounterNode *user;
  PsCounterChart *shared = NULL;

  g_assert_true (iterate_until (view_has_tree, view));
  user = ps_counters_view_find_counter (view, "\\\\PERF-HOST\\Processor(0)\\% User Time");
  g_assert_nonnull (user);
  ps_counter_node_set_checked (user, TRUE);
  ps_counters_view_update_now (view);
  for (guint i = 0; i < ps_counters_view_get_n_charts (view); i++)
    if (ps_counter_chart_get_n_series (ps_counters_view_get_chart (view, i)) > 1)
      shared = ps_counters_view_get_chart (view, i);
  g_assert_nonnull (shared);
  {
    g_autofree char *title = ps_counter_chart_dup_title_with_unit (shared);

    g_assert_cmpstr (title, ==, "Counters (%)");
  }
}

/* Pixels of a colour close to @color */
static guint
count_color (GdkTexture    *texture,
             const GdkRGBA *color)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guchar *pixels = g_malloc ((gsize)width * height * 4);
  guint count = 0;

  gdk_texture_download (texture, pixels, width * 4);
  for (int i = 0; i < width * height; i++)
    {
      /* Cairo's ARGB32, premultiplied, little-endian: B G R A */
      double b = pixels[i * 4] / 255.0, g = pixels[i * 4 + 1] / 255.0, r = pixels[i * 4 + 2] / 255.0;

      /* The hue of the colour, at any strength over a light background */
      if (fabs ((r - g) - (color->red - color->green) * (1 - b + color->blue)) < 0.25 && r > g + 0.15 && r > b + 0.3)
        count++;
    }
  return count;
}

static void
test_stacked (Fixture       *fixture,
              gconstpointer  data)
{
  PsCountersView *view = open_counters (fixture, "logman-pdt.csv", NULL);
  PsCounterChart *chart;
  g_autoptr(GdkTexture) overlaid = NULL;
  g_autoptr(GdkTexture) stacked = NULL;
  g_autofree char *overlaid_readout = NULL;
  g_autofree char *stacked_readout = NULL;
  graphene_rect_t plot;
  GdkRGBA second;
  guint overlaid_count, stacked_count;

  ps_counter_node_set_checked (ps_counter_node_get_ancestor (ps_counters_view_find_counter (view, SVCHOST_WORKING_SET),
                                                             PS_TRACK_OBJECT), TRUE);
  ps_counter_node_set_checked (ps_counters_view_find_counter (view, PROCESSOR_TIME), FALSE);
  ps_counters_view_update_now (view);
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 1);
  chart = ps_counters_view_get_chart (view, 0);
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 2);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  g_assert_false (ps_counter_chart_get_stacked (chart));

  ps_counter_chart_get_color (chart, 1, &second);
  overlaid = render_widget (GTK_WIDGET (chart));
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  overlaid_readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);

  ps_counters_view_set_stacked (view, TRUE);
  g_assert_true (ps_counter_chart_get_stacked (chart));
  stacked = render_widget (GTK_WIDGET (chart));
  stacked_readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);

  /* Overlaid: two lines; stacked: the second series is an area */
  overlaid_count = count_color (overlaid, &second);
  stacked_count = count_color (stacked, &second);
  g_test_message ("orange pixels: overlaid %u, stacked %u", overlaid_count, stacked_count);
  if (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS") != NULL)
    {
      g_autofree char *overlaid_path = g_build_filename (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS"), "counters-overlaid.png", NULL);
      g_autofree char *stacked_path = g_build_filename (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS"), "counters-stacked.png", NULL);

      gdk_texture_save_to_png (overlaid, overlaid_path);
      gdk_texture_save_to_png (stacked, stacked_path);
    }
  g_assert_cmpuint (stacked_count, >, 5 * MAX (overlaid_count, 1));
  g_assert_null (strstr (overlaid_readout, "Total"));
  g_assert_nonnull (strstr (stacked_readout, "Total"));

  /* A new chart is drawn in the chosen mode */
  ps_counter_node_set_checked (ps_counters_view_find_counter (view, PROCESSOR_TIME), TRUE);
  ps_counters_view_update_now (view);
  for (guint i = 0; i < ps_counters_view_get_n_charts (view); i++)
    g_assert_true (ps_counter_chart_get_stacked (ps_counters_view_get_chart (view, i)));

  ps_counters_view_set_stacked (view, FALSE);
  g_assert_false (ps_counter_chart_get_stacked (ps_counters_view_get_chart (view, 0)));
}

/* The _Total instance is its instances' total: stacked, the instances
 * make the stack and _Total is a line over it, not an area on top that
 * doubled the stack's height */
static const char *
total_line_of (const char *readout,
               const char *prefix)
{
  const char *line = strstr (readout, prefix);

  g_assert_nonnull (line);
  return line;
}

static void
test_stacked_total (Fixture       *fixture,
                    gconstpointer  data)
{
  static const char *instances[] = { "0", "1", "2", "3", "_Total" };
  g_autofree char *path = demo_file_path ("perfmon_4cpu.csv");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsCountersView *view = ps_run_page_get_counters_view (open_and_wait (fixture, file));
  PsCounterNode *total;
  PsCounterChart *chart;
  guint total_series = G_MAXUINT;
  double parts_min, parts_max, min, max;
  graphene_rect_t plot;
  g_autofree char *parts_readout = NULL;
  g_autofree char *readout = NULL;
  g_autofree char *parts_sum = NULL;
  g_autofree char *sum = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GdkRGBA color, area;
  guint area_pixels;

  g_assert_true (iterate_until (view_has_tree, view));
  {
    g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (view);

    for (guint i = 0; i < checked->len; i++)
      ps_counter_node_set_checked (g_ptr_array_index (checked, i), FALSE);
  }
  for (guint i = 0; i < G_N_ELEMENTS (instances); i++)
    {
      g_autofree char *counter = g_strdup_printf ("\\\\PERF-HOST\\Processor(%s)\\%% Processor Time", instances[i]);
      PsCounterNode *node = ps_counters_view_find_counter (view, counter);

      g_assert_nonnull (node);
      g_assert_true (ps_counter_node_is_aggregate (node) == (i == 4));
      ps_counter_node_set_checked (node, i < 4);
    }
  total = ps_counters_view_find_counter (view, "\\\\PERF-HOST\\Processor(_Total)\\% Processor Time");
  ps_counters_view_set_stacked (view, TRUE);
  ps_counters_view_update_now (view);

  /* The four processors alone */
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 1);
  chart = ps_counters_view_get_chart (view, 0);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  g_assert_true (ps_counter_chart_get_value_range (chart, &parts_min, &parts_max));
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  parts_readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);
  parts_sum = g_strdup (total_line_of (parts_readout, "\nTotal: "));

  /* With _Total: the same stack, and _Total a line over it */
  ps_counter_node_set_checked (total, TRUE);
  ps_counters_view_update_now (view);
  chart = ps_counters_view_get_chart (view, 0);
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 5);
  for (guint s = 0; s < 5; s++)
    if (ps_counter_chart_get_series_aggregate (chart, s))
      total_series = s;
  g_assert_cmpuint (total_series, ==, 4);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  g_assert_true (ps_counter_chart_get_value_range (chart, &min, &max));
  g_test_message ("stack of the processors up to %g, with _Total up to %g", parts_max, max);
  g_assert_cmpfloat (max, ==, parts_max);
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);
  g_test_message ("read-out: %s", readout);
  sum = g_strdup (total_line_of (readout, "\nTotal: "));
  g_assert_cmpstr (sum, ==, parts_sum);
  g_assert_nonnull (strstr (readout, "(line, not in the total below)"));
  g_assert_nonnull (strstr (total_line_of (readout, "\n_Total: "), "(line, not in the total below)"));

  /* No area in _Total's colour: its areas are drawn at 60 % over the
   * background, its line opaque */
  texture = render_widget (GTK_WIDGET (chart));
  ps_counter_chart_get_color (chart, total_series, &color);
  area = (GdkRGBA) { 0.6 * color.red + 0.4, 0.6 * color.green + 0.4, 0.6 * color.blue + 0.4, 1 };
  area_pixels = count_pixels_near (texture, plot.origin.x, plot.origin.y, plot.origin.x + plot.size.width,
                                   plot.origin.y + plot.size.height, &area);
  g_test_message ("pixels of _Total's area: %u", area_pixels);
  g_assert_cmpuint (area_pixels, <, 50);
  g_assert_cmpuint (count_pixels_near (texture, plot.origin.x, plot.origin.y, plot.origin.x + plot.size.width,
                                       plot.origin.y + plot.size.height, &color), >, 100);
  if (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS") != NULL)
    {
      g_autofree char *shot = g_build_filename (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS"), "counters-stacked-total.png", NULL);

      gdk_texture_save_to_png (texture, shot);
    }

  /* The legend says so; overlaid, _Total is a line like the others */
  {
    g_autofree char *description = NULL;

    ps_counters_view_set_stacked (view, FALSE);
    g_assert_true (ps_counter_chart_get_value_range (chart, &min, &max));
    g_assert_cmpfloat (max, <, parts_max);
    description = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);
    g_assert_null (strstr (description, "not in the total"));
  }
}

static void
test_readout (Fixture       *fixture,
              gconstpointer  data)
{
  PsCountersView *view = open_counters (fixture, "logman-pdt.csv", NULL);
  PsCounterChart *chart = ps_counters_view_get_chart (view, 0);
  g_autofree char *readout = NULL;
  graphene_rect_t plot;

  g_assert_true (iterate_until (widget_is_drawn, chart));
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  /* At the right end: the last reading, -1 % */
  readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width);
  g_assert_nonnull (readout);
  g_test_message ("read-out: %s", readout);
  g_assert_nonnull (strstr (readout, "_Total: -1.00 %"));
  g_clear_pointer (&readout, g_free);
  /* Just after one second: 11.3 %, by the rule for digits */
  readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width * 0.4);
  g_assert_nonnull (strstr (readout, "_Total: 11.30 %"));
}

static gboolean
timeline_has_model (gpointer data)
{
  return ps_timeline_view_get_model (data) != NULL;
}

/* A zone Performance Monitor cut off ("(RTZ 2 (" on a Russian machine):
 * the start as the log wrote it, saying the zone was cut, not missing */
static void
test_zone_cut (Fixture       *fixture,
               gconstpointer  data)
{
  PsCountersView *view = open_counters (fixture, "cp1251-cut-zone.csv", NULL);
  const char *started = ps_run_view_get_header_value (PS_RUN_VIEW (view), "started");

  g_assert_true (g_str_has_suffix (started, " (time zone cut off)"));
  g_assert_true (g_str_has_prefix (started, "12/02/2026 10:00:00"));
}

/* The start of a PDH log in the zone its header gives (Pacific Daylight
 * Time, bias 420), named the same in the header and on the timeline's
 * axis; the chart's value axis from 0 unless zoomed, which it then says */
static void
test_zone_and_zoom (Fixture       *fixture,
                    gconstpointer  data)
{
  PsRunPage *page = NULL;
  PsCountersView *view = open_counters (fixture, "logman-pdt.csv", &page);
  PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
  g_autofree char *wall = NULL;

  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "started"), ==, "2024-06-15 10:00:00.000 UTC−07:00");
  g_assert_true (iterate_until (timeline_has_model, timeline));
  wall = ps_timeline_format_wall (ps_timeline_view_get_model (timeline), 0);
  g_assert_cmpstr (wall, ==, "2024-06-15 10:00:00.000 UTC−07:00");

  /* A flat memory series, 10.230 to 10.245 MiB: from 0, so it looks flat */
  {
    GtkWidget *widget = ps_counter_chart_new ();
    PsCounterChart *chart = PS_COUNTER_CHART (widget);
    GtkWindow *window = GTK_WINDOW (gtk_window_new ());
    gint64 x[] = { 0, SECOND, 2 * SECOND };
    double values[] = { 10.230 * 1048576, 10.245 * 1048576, 10.240 * 1048576 };
    g_autoptr(PsValueLod) lod = ps_value_lod_new (x, values, 3);
    gint64 x_begin, x_end;
    double y_low, y_high;

    ps_counter_chart_set_title (chart, "Working Set");
    ps_counter_chart_set_unit (chart, "MiB", 1.0 / 1048576);
    ps_counter_chart_add_series (chart, "svchost", lod);
    gtk_window_set_application (window, GTK_APPLICATION (fixture->app));
    gtk_window_set_default_size (window, 640, 260);
    gtk_window_set_child (window, widget);
    gtk_window_present (window);
    g_assert_true (iterate_until (widget_is_drawn, widget));
    g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_low, &y_high));
    g_assert_cmpfloat (y_low, ==, 0);
    g_assert_cmpfloat (y_high, >=, 10.245);
    g_assert_null (ps_counter_chart_get_axis_note (chart));
    g_assert_true (gtk_widget_get_visible (ps_counter_chart_get_zoom_button (chart)));

    /* Zoomed by its button: the data's range, which the title says */
    g_signal_emit_by_name (ps_counter_chart_get_zoom_button (chart), "clicked");
    g_assert_true (ps_counter_chart_get_zoomed (chart));
    iterate_for (50);
    g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_low, &y_high));
    g_assert_cmpfloat (y_low, >, 10.2);
    g_assert_cmpfloat (y_low, <=, 10.230);
    g_assert_cmpfloat (y_high, >=, 10.245);
    g_assert_cmpfloat (y_high, <, 10.3);
    g_assert_cmpstr (ps_counter_chart_get_axis_note (chart), ==, "axis zoomed, not from 0");
    gtk_window_destroy (window);
  }
}

static gboolean
row_count_is (gpointer data)
{
  PsCountersView *view = data;

  return g_list_model_get_n_items (G_LIST_MODEL (ps_counters_view_get_tree_selection (view))) == 3;
}

static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  PsCountersView *view = open_counters (fixture, "logman-pdt.csv", NULL);
  GtkEditable *entry = ps_run_view_get_search_entry (PS_RUN_VIEW (view));
  g_autofree char *tree = NULL;
  GtkWidget *focus;

  /* Ctrl+F's action puts the focus in the search */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "counters.focus-search", NULL));
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_nonnull (focus);
  g_assert_true (focus == GTK_WIDGET (entry) || gtk_widget_is_ancestor (focus, GTK_WIDGET (entry)));

  gtk_editable_set_text (entry, "MEMORY");
  g_assert_true (iterate_until (row_count_is, view));
  tree = describe_tree (view);
  g_assert_cmpstr (tree, ==, "M:WS01 | O:Memory | C:Available MBytes");

  gtk_editable_set_text (entry, "");
  iterate_for (400);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (ps_counters_view_get_tree_selection (view))), ==, 17);
}

/* A machine and a localized name: the default is the processor time */
static void
test_defaults (Fixture       *fixture,
               gconstpointer  data)
{
  PsCountersView *view = open_counters (fixture, "typeperf-stdout.csv", NULL);
  g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (view);
  PsCountersView *french;
  g_autoptr(GPtrArray) french_checked = NULL;

  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "machine"), ==, "HOST");
  g_assert_cmpuint (checked->len, ==, 1);
  g_assert_cmpstr (ps_counter_node_get_label (g_ptr_array_index (checked, 0)), ==, "% Processor Time");
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 1);

  french = open_counters (fixture, "cp1252.csv", NULL);
  french_checked = ps_counters_view_list_checked (french);
  g_assert_cmpuint (french_checked->len, ==, 1);
  g_assert_cmpstr (ps_counter_node_get_label (g_ptr_array_index (french_checked, 0)), ==, "% temps processeur");
}

/* PerfLib-like readings: the read-out gives the raw value and the base */
static PsEventStore *
build_perflib_store_full (guint n_instances)
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  PsTrack track = { 0 };
  guint32 machine, object;
  g_autofree guint32 *instances = g_new (guint32, n_instances);
  g_autofree guint32 *counters = g_new (guint32, n_instances);
  g_autofree guint32 *user_times = g_new (guint32, n_instances);

  ps_event_store_set_format (store, "perflib-plv2");
  ps_event_store_add_session (store, 0, FALSE);
  track.kind = PS_TRACK_MACHINE;
  track.parent = PS_NONE;
  track.name = ps_event_store_intern (store, "BOX", -1);
  machine = ps_event_store_add_track (store, &track);
  track.kind = PS_TRACK_OBJECT;
  track.parent = machine;
  track.name = ps_event_store_intern (store, "Processor", -1);
  object = ps_event_store_add_track (store, &track);
  for (guint i = 0; i < n_instances; i++)
    {
      g_autofree char *name = g_strdup_printf ("%u", i);
      g_autofree char *user_path = g_strdup_printf ("\\\\BOX\\Processor(%u)\\%% User Time", i);
      g_autofree char *path = g_strdup_printf ("\\\\BOX\\Processor(%u)\\%% Processor Time", i);

      track.kind = PS_TRACK_INSTANCE;
      track.parent = object;
      track.name = ps_event_store_intern (store, name, -1);
      instances[i] = ps_event_store_add_track (store, &track);
      track.kind = PS_TRACK_COUNTER;
      track.parent = instances[i];
      track.name = ps_event_store_intern (store, "% Processor Time", -1);
      track.category = ps_event_store_intern (store, path, -1);
      track.unit = ps_event_store_intern (store, "%", -1);
      /* A type with a base: the read-out names both */
      track.flags = PS_TRACK_FLAG_COUNTER_TYPE;
      track.ordinal = PS_PERF_RAW_FRACTION;
      counters[i] = ps_event_store_add_track (store, &track);
      track.flags = 0;
      track.ordinal = 0;
      /* Runs of many instances have a second counter each */
      if (n_instances > 2)
        {
          track.name = ps_event_store_intern (store, "% User Time", -1);
          track.category = ps_event_store_intern (store, user_path, -1);
          user_times[i] = ps_event_store_add_track (store, &track);
        }
      track.category = 0;
      track.unit = 0;
    }
  for (gint64 t = 0; t < 10; t++)
    for (guint i = 0; i < n_instances; i++)
      {
        PsCounterValue value = { 0 };
        PsCounterRaw raw = { 0 };

        value.time_ns = t * SECOND;
        value.track = counters[i];
        value.flags = PS_COUNTER_FLAG_RAW;
        value.value = i == 0 ? 12.5 : 50;
        raw.raw = i == 0 ? 1234567 : 4000000;
        raw.base = i == 0 ? 9876543 : 8000000;
        ps_store_builder_add_raw_counter_value (builder, &value, &raw);
        if (n_instances > 2)
          {
            value.track = user_times[i];
            value.value = 5;
            ps_store_builder_add_counter_value (builder, &value);
          }
      }
  ps_store_builder_flush (builder);
  return store;
}

static PsEventStore *
build_perflib_store (void)
{
  return build_perflib_store_full (2);
}

static void
test_perflib_readout (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(PsEventStore) store = build_perflib_store ();
  g_autoptr(GFile) file = write_temp_file (fixture, "built.plv2", "", 0);
  PsRunPage *page = PS_RUN_PAGE (ps_run_page_new (file));
  PsCountersView *view;
  PsCounterChart *chart;
  g_autofree char *readout = NULL;
  graphene_rect_t plot;

  _ps_window_add_tab (fixture->window, GTK_WIDGET (page), "built", NULL);
  ps_run_page_show_store (page, store);
  wait_for_page (page);
  view = ps_run_page_get_counters_view (page);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));

  /* Both instances of the processor time, in one chart */
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 1);
  chart = ps_counters_view_get_chart (view, 0);
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 2);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);
  g_assert_nonnull (strstr (readout, "0: 12.50 % (raw 1234567, base 9876543)"));
  g_assert_nonnull (strstr (readout, "1: 50.00 % (raw 4000000, base 8000000)"));

  /* Stacked, they add up */
  ps_counters_view_set_stacked (view, TRUE);
  g_clear_pointer (&readout, g_free);
  readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);
  g_assert_nonnull (strstr (readout, "Total: 62.50 %"));
}

static PsCountersView *
show_built_store (Fixture      *fixture,
                  PsEventStore *store,
                  PsRunPage   **page_out)
{
  g_autoptr(GFile) file = write_temp_file (fixture, "built.plv2", "", 0);
  PsRunPage *page = PS_RUN_PAGE (ps_run_page_new (file));
  PsCountersView *view;

  _ps_window_add_tab (fixture->window, GTK_WIDGET (page), "built", NULL);
  ps_run_page_show_store (page, store);
  wait_for_page (page);
  view = ps_run_page_get_counters_view (page);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  ps_counters_view_update_now (view);
  if (page_out != NULL)
    *page_out = page;
  return view;
}

static gboolean
rects_overlap (const graphene_rect_t *a,
               const graphene_rect_t *b)
{
  return a->origin.x < b->origin.x + b->size.width && b->origin.x < a->origin.x + a->size.width
         && a->origin.y < b->origin.y + b->size.height && b->origin.y < a->origin.y + a->size.height;
}

/* 64 series: the legend wraps below the title, ends with "+N more", and
 * the plot starts below it; the read-out lists the highest readings */
static void
test_legend (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(PsEventStore) store = build_perflib_store_full (64);
  PsCountersView *view = show_built_store (fixture, store, NULL);
  PsCounterChart *chart;
  graphene_rect_t title, legend, plot;
  g_autofree char *readout = NULL;
  guint n_shown = 0;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 1);
  chart = ps_counters_view_get_chart (view, 0);
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 64);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  g_assert_true (ps_counter_chart_get_legend_area (chart, &title, &legend, &n_shown));
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  g_test_message ("chart %d px wide: title %g,%g %gx%g, legend %g,%g %gx%g, %u shown, plot from y %g",
                  gtk_widget_get_width (GTK_WIDGET (chart)),
                  title.origin.x, title.origin.y, title.size.width, title.size.height,
                  legend.origin.x, legend.origin.y, legend.size.width, legend.size.height,
                  n_shown, plot.origin.y);
  g_assert_false (rects_overlap (&title, &legend));
  g_assert_cmpfloat (legend.origin.y, >=, title.origin.y + title.size.height);
  g_assert_cmpfloat (plot.origin.y, >=, legend.origin.y + legend.size.height);
  g_assert_cmpfloat (legend.origin.x + legend.size.width, <=, gtk_widget_get_width (GTK_WIDGET (chart)));
  /* More than one line, at most three */
  g_assert_cmpfloat (legend.size.height, >, title.size.height * 1.5);
  g_assert_cmpfloat (legend.size.height, <, title.size.height * 5);
  g_assert_cmpuint (n_shown, >, 1);
  g_assert_cmpuint (n_shown, <=, 64);

  /* Every other series' reading is 12.5 %, instance 1's is 50 %: first */
  readout = ps_counter_chart_describe_at (chart, plot.origin.x + plot.size.width / 2);
  lines = g_strsplit (readout, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 16 + 1);
  g_assert_true (g_str_has_prefix (lines[1], "1: 50.00 %"));
  g_assert_cmpstr (lines[17], ==, "+48 more");

  /* Longer names in a narrower chart: three lines, then "+N more" */
  {
    GtkWidget *narrow = ps_counter_chart_new ();
    GtkWindow *window = GTK_WINDOW (gtk_window_new ());
    gint64 x[] = { 0, SECOND };
    double values[] = { 10, 20 };
    g_autoptr(PsValueLod) lod = ps_value_lod_new (x, values, 2);

    ps_counter_chart_set_title (PS_COUNTER_CHART (narrow), "Processor Information — % Processor Time");
    ps_counter_chart_set_unit (PS_COUNTER_CHART (narrow), "%", 1);
    for (guint i = 0; i < 64; i++)
      {
        g_autofree char *label = g_strdup_printf ("Processor %u,%u", i / 16, i % 16);

        ps_counter_chart_add_series (PS_COUNTER_CHART (narrow), label, lod);
      }
    gtk_window_set_application (window, GTK_APPLICATION (fixture->app));
    gtk_window_set_default_size (window, 600, 300);
    gtk_window_set_child (window, narrow);
    gtk_window_present (window);
    g_assert_true (iterate_until (widget_is_drawn, narrow));
    iterate_for (50);
    g_assert_true (ps_counter_chart_get_legend_area (PS_COUNTER_CHART (narrow), &title, &legend, &n_shown));
    g_assert_true (ps_counter_chart_get_plot (PS_COUNTER_CHART (narrow), &plot));
    g_test_message ("narrow chart: legend %g,%g %gx%g, %u shown, plot from y %g",
                    legend.origin.x, legend.origin.y, legend.size.width, legend.size.height, n_shown, plot.origin.y);
    g_assert_false (rects_overlap (&title, &legend));
    g_assert_cmpfloat (plot.origin.y, >=, legend.origin.y + legend.size.height);
    g_assert_cmpfloat (legend.size.height, <, title.size.height * 5);
    g_assert_cmpuint (n_shown, >, 3);
    g_assert_cmpuint (n_shown, <, 64);
    gtk_window_destroy (window);
  }

  /* Two series fit beside the title, on its line */
  {
    g_autoptr(PsEventStore) small = build_perflib_store ();
    PsCountersView *small_view = show_built_store (fixture, small, NULL);
    PsCounterChart *small_chart = ps_counters_view_get_chart (small_view, 0);

    g_assert_true (iterate_until (widget_is_drawn, small_chart));
    g_assert_true (ps_counter_chart_get_legend_area (small_chart, &title, &legend, &n_shown));
    g_assert_cmpuint (n_shown, ==, 2);
    g_assert_false (rects_overlap (&title, &legend));
    g_assert_cmpfloat (legend.origin.y, ==, title.origin.y);
    g_assert_cmpfloat (legend.origin.x, >, title.origin.x + title.size.width);
  }
}

typedef struct
{
  PsTimelineView *timeline;
  guint           n_rows;
} RowsWanted;

static guint
count_value_rows (PsTimelineModel *model)
{
  guint n = 0;

  for (guint r = 0; model != NULL && r < model->rows->len; r++)
    if (((PsTimelineRow *)g_ptr_array_index (model->rows, r))->kind == PS_TIMELINE_ROW_VALUES)
      n++;
  return n;
}

static gboolean
timeline_has_rows (gpointer data)
{
  RowsWanted *wanted = data;

  return count_value_rows (ps_timeline_view_get_model (wanted->timeline)) == wanted->n_rows;
}

/* The timeline of a counter run: a row per checked counter, named by its
 * instance, following the checks */
static void
test_timeline_rows (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(PsEventStore) store = build_perflib_store_full (64);
  PsRunPage *page = NULL;
  PsCountersView *view = show_built_store (fixture, store, &page);
  PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
  g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (view);
  RowsWanted wanted = { timeline, 64 };
  PsTimelineModel *model;
  PsCounterNode *user_time;
  guint checked_rows = 0;

  /* 128 counters, 64 checked: the processor time of each instance */
  g_assert_cmpuint (checked->len, ==, 64);
  g_assert_true (iterate_until (timeline_has_rows, &wanted));
  model = ps_timeline_view_get_model (timeline);
  for (guint r = 0; r < model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind != PS_TIMELINE_ROW_VALUES)
        continue;
      for (guint i = 0; i < checked->len; i++)
        if (ps_counter_node_get_track (g_ptr_array_index (checked, i)) == row->track)
          checked_rows++;
    }
  g_assert_cmpuint (checked_rows, ==, 64);
  {
    PsTimelineRow *first = NULL;

    for (guint r = 0; r < model->rows->len && first == NULL; r++)
      if (((PsTimelineRow *)g_ptr_array_index (model->rows, r))->kind == PS_TIMELINE_ROW_VALUES)
        first = g_ptr_array_index (model->rows, r);
    g_assert_cmpstr (first->label, ==, "0 — % Processor Time");
    g_assert_cmpstr (first->tooltip, ==, "\\\\BOX\\Processor(0)\\% Processor Time");
  }

  /* One more checked: one more row, with its name */
  user_time = ps_counters_view_find_counter (view, "\\\\BOX\\Processor(7)\\% User Time");
  g_assert_nonnull (user_time);
  ps_counter_node_set_checked (user_time, TRUE);
  ps_counters_view_update_now (view);
  wanted.n_rows = 65;
  g_assert_true (iterate_until (timeline_has_rows, &wanted));
  model = ps_timeline_view_get_model (timeline);
  {
    gboolean found = FALSE;

    for (guint r = 0; r < model->rows->len; r++)
      {
        PsTimelineRow *row = g_ptr_array_index (model->rows, r);

        if (row->kind == PS_TIMELINE_ROW_VALUES && row->track == ps_counter_node_get_track (user_time))
          found = g_str_equal (row->label, "7 — % User Time");
      }
    g_assert_true (found);
  }

  /* Nothing checked: no counter rows */
  ps_counter_node_set_checked (ps_counter_node_get_ancestor (user_time, PS_TRACK_MACHINE), FALSE);
  ps_counters_view_update_now (view);
  wanted.n_rows = 0;
  g_assert_true (iterate_until (timeline_has_rows, &wanted));
}

/* Counts in thousands, values with one precision down a column */
static void
test_number_format (Fixture       *fixture,
                    gconstpointer  data)
{
  static const struct { double value; const char *text; } numbers[] = {
    { 42.9612, "42.96" }, { 1, "1.00" }, { 850.2, "850" }, { 0, "0.00" }, { -1, "-1.00" },
    { 12345.6, "12,346" }, { 0.00052, "0.000520" }, { 0.5, "0.500" }, { 1.5e10, "15,000,000,000" },
  };
  g_autoptr(PsEventStore) store = build_perflib_store_full (64);
  PsCountersView *view = show_built_store (fixture, store, NULL);
  g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (view);

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autofree char *text = ps_view_format_number (numbers[i].value);

      g_assert_cmpstr (text, ==, numbers[i].text);
    }
  {
    g_autofree char *count = ps_view_format_count (55040000);

    g_assert_cmpstr (count, ==, "55,040,000");
  }

  /* 128 counters of 10 readings */
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "readings"), ==, "1,280");
  g_assert_cmpstr (ps_run_view_get_header_value (PS_RUN_VIEW (view), "counters"), ==, "128");
  assert_cell (view, g_ptr_array_index (checked, 0), "Max", "12.50 %");
  assert_cell (view, g_ptr_array_index (checked, 1), "Mean", "50.00 %");
  assert_cell (view, g_ptr_array_index (checked, 0), "Count", "10");
}

/* A counter of one reading: a dot of its colour */
static void
test_lone_reading (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *chart = ps_counter_chart_new ();
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  gint64 x[] = { 5 * SECOND };
  double values[] = { 35 };
  g_autoptr(PsValueLod) lod = ps_value_lod_new (x, values, 1);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  graphene_rect_t plot;
  GdkRGBA color;
  gint64 x_begin, x_end;
  double y_low, y_high, dot_x, dot_y;
  int width, height;
  guint count = 0;

  ps_counter_chart_set_title (PS_COUNTER_CHART (chart), "Lone");
  ps_counter_chart_set_unit (PS_COUNTER_CHART (chart), "%", 1);
  ps_counter_chart_add_series (PS_COUNTER_CHART (chart), "one", lod);
  ps_counter_chart_get_color (PS_COUNTER_CHART (chart), 0, &color);
  gtk_window_set_application (window, GTK_APPLICATION (fixture->app));
  gtk_window_set_default_size (window, 640, 260);
  gtk_window_set_child (window, chart);
  gtk_window_present (window);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  iterate_for (50);
  g_assert_true (ps_counter_chart_get_plot (PS_COUNTER_CHART (chart), &plot));

  /* One reading: the x axis a second either side of it, so the reading
   * is in the middle; the y axis from 0 up to a round number at or
   * above 35 % */
  g_assert_true (ps_counter_chart_get_axes (PS_COUNTER_CHART (chart), &x_begin, &x_end, &y_low, &y_high));
  g_assert_cmpint (x_begin, ==, 4 * SECOND);
  g_assert_cmpint (x_end, ==, 6 * SECOND);
  g_assert_cmpfloat (y_low, ==, 0);
  g_assert_cmpfloat (y_high, >=, 35);
  dot_x = plot.origin.x + (double)(5 * SECOND - x_begin) / (double)(x_end - x_begin) * plot.size.width;
  dot_y = plot.origin.y + plot.size.height - (35 - y_low) / (y_high - y_low) * plot.size.height;
  g_assert_cmpfloat_with_epsilon (dot_x, plot.origin.x + plot.size.width / 2, 0.5);

  texture = render_widget (chart);
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  pixels = g_malloc ((gsize)width * height * 4);
  gdk_texture_download (texture, pixels, width * 4);
  /* The series' colour inside the plot (the legend's swatch is above
   * it): a dot at the reading, and nothing further from it than the
   * dot's radius (2.5) and its edge */
  for (int y = (int)plot.origin.y; y < (int)(plot.origin.y + plot.size.height) && y < height; y++)
    for (int x_pixel = (int)plot.origin.x; x_pixel < (int)(plot.origin.x + plot.size.width) && x_pixel < width; x_pixel++)
      {
        const guchar *p = pixels + ((gsize)y * width + x_pixel) * 4;

        if (fabs (p[2] / 255.0 - color.red) < 0.12 && fabs (p[1] / 255.0 - color.green) < 0.12
            && fabs (p[0] / 255.0 - color.blue) < 0.12 && p[3] > 200)
          {
            count++;
            g_assert_cmpfloat (hypot (x_pixel + 0.5 - dot_x, y + 0.5 - dot_y), <, 3.5);
          }
      }
  g_test_message ("pixels of the lone reading at (%.1f, %.1f): %u", dot_x, dot_y, count);
  g_assert_cmpuint (count, >=, 4);
  {
    const guchar *centre = pixels + ((gsize)dot_y * width + (gsize)dot_x) * 4;

    g_assert_cmpfloat (fabs (centre[2] / 255.0 - color.red), <, 0.12);
    g_assert_cmpfloat (fabs (centre[1] / 255.0 - color.green), <, 0.12);
    g_assert_cmpfloat (fabs (centre[0] / 255.0 - color.blue), <, 0.12);
    g_assert_cmpuint (centre[3], >, 200);
  }
  gtk_window_destroy (window);
}

/* A PDH log of ten minutes from 14:00, a reading a second: the committed
 * memory steps from 100 MiB to 138 MiB at 14:03, the processor time only
 * wavers around 20 % */
static char *
write_step_log (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (35);
  g_autoptr(GString) text = g_string_new ("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\","
                                          "\"\\\\HOST\\Memory\\Committed Bytes\","
                                          "\"\\\\HOST\\Processor(_Total)\\% Processor Time\"\r\n");
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_tmp_dir (), "perfscope-step-XXXXXX.csv", NULL);
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  for (guint second = 0; second < 600; second++)
    {
      double committed = (second < 180 ? 100 : 138) * 1048576.0 + g_rand_double_range (rand, -1, 1) * 262144;

      g_string_append_printf (text, "\"12/01/2025 14:%02u:%02u.000\",\"%.0f\",\"%.3f\"\r\n", second / 60, second % 60,
                              committed, 20 + g_rand_double_range (rand, -2, 2));
    }
  g_assert_true (g_file_set_contents (path, text->str, text->len, &error));
  return path;
}

static gboolean
chart_has_changes (gpointer data)
{
  PsCounterChart *chart = data;

  for (guint i = 0; i < ps_counter_chart_get_n_series (chart); i++)
    if (ps_counter_chart_get_series_changes (chart, i) == NULL)
      return FALSE;
  return ps_counter_chart_get_n_series (chart) > 0;
}

/* The memory that steps up at 14:03 is marked at 14:03 on its chart, in
 * its colour, with a tooltip of its means, change and p-value; the
 * processor time, which does not change, has no mark */
static void
test_change_marks (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = write_step_log ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCountersView *view = ps_run_page_get_counters_view (page);
  PsCounterChart *memory = NULL, *processor = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *description = NULL;
  const PsCounterChange *change;
  GArray *changes;
  graphene_rect_t plot;
  gint64 x_begin, x_end;
  double y_low, y_high, x, top, expected_x;
  GdkRGBA color;
  int width;

  g_assert_true (iterate_until (view_has_tree, view));
  for (guint i = 0; i < 2; i++)
    ps_counter_node_set_checked (ps_counters_view_find_counter (view, i == 0 ? "\\\\HOST\\Memory\\Committed Bytes"
                                                                           : "\\\\HOST\\Processor(_Total)\\% Processor Time"),
                                 TRUE);
  ps_counters_view_update_now (view);
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      PsCounterChart *chart = ps_counters_view_get_chart (view, i);

      if (g_str_has_suffix (ps_counter_chart_get_title (chart), "Committed Bytes"))
        memory = chart;
      else
        processor = chart;
    }
  g_assert_nonnull (memory);
  g_assert_nonnull (processor);
  g_assert_true (iterate_until (chart_has_changes, memory));
  g_assert_true (iterate_until (chart_has_changes, processor));
  g_assert_true (iterate_until (widget_is_drawn, memory));
  iterate_for (50);

  /* One step, at 3 minutes (its first reading), by +38 % */
  changes = ps_counter_chart_get_series_changes (memory, 0);
  g_assert_cmpuint (changes->len, ==, 1);
  change = &g_array_index (changes, PsCounterChange, 0);
  g_test_message ("change at %.3f s, %+.2f %%, p = %g", change->time_ns / 1e9, 100 * change->relative_change,
                  change->point.p_value);
  g_assert_cmpint (change->time_ns, ==, 180 * SECOND);
  g_assert_cmpuint (change->n_steps, ==, 1);
  g_assert_cmpfloat_with_epsilon (change->relative_change, 0.38, 0.005);
  g_assert_cmpfloat (change->point.p_value, <, 0.001);
  /* Its line where the x axis has 3 minutes */
  g_assert_true (ps_counter_chart_get_change_x (memory, 0, 0, &x, &top));
  g_assert_true (ps_counter_chart_get_plot (memory, &plot));
  g_assert_true (ps_counter_chart_get_axes (memory, &x_begin, &x_end, &y_low, &y_high));
  expected_x = plot.origin.x + (double)(180 * SECOND - x_begin) / (double)(x_end - x_begin) * plot.size.width;
  g_assert_cmpfloat (fabs (x - expected_x), <, 1.5);
  g_assert_cmpfloat (top, <, plot.origin.y);

  /* The tooltip on the line, and nowhere else */
  tooltip = ps_counter_chart_describe_change_at (memory, x + 2);
  g_test_message ("tooltip: %s", tooltip);
  g_assert_cmpstr (tooltip, ==, "Memory changed at 180.0 s\n"
                                "Mean before: 99.99 MiB\n"
                                "Mean after: 138 MiB\n"
                                "Change: +38.0 % (p < 0.001)");
  g_assert_null (ps_counter_chart_describe_change_at (memory, x + 20));
  g_assert_null (ps_counter_chart_describe_change_at (memory, x - 20));
  description = ps_counter_chart_get_description (memory);
  g_assert_nonnull (strstr (description, "Memory changed by +38.0 % at 180.0 s (p < 0.001). "));

  /* The handle below the label in the series' colour */
  ps_counter_chart_get_color (memory, 0, &color);
  texture = render_widget (GTK_WIDGET (memory));
  width = gdk_texture_get_width (texture);
  pixels = g_malloc ((gsize)width * gdk_texture_get_height (texture) * 4);
  gdk_texture_download (texture, pixels, width * 4);
  {
    const guchar *p = pixels + ((gsize)(top + 1) * width + (gsize)x) * 4;

    g_assert_cmpfloat (fabs (p[2] / 255.0 - color.red), <, 0.15);
    g_assert_cmpfloat (fabs (p[1] / 255.0 - color.green), <, 0.15);
    g_assert_cmpfloat (fabs (p[0] / 255.0 - color.blue), <, 0.15);
  }

  /* The processor time: no change, no mark, no line of labels */
  g_assert_cmpuint (ps_counter_chart_get_series_changes (processor, 0)->len, ==, 0);
  g_assert_false (ps_counter_chart_get_change_x (processor, 0, 0, &x, &top));
  g_assert_true (ps_counter_chart_get_plot (processor, &plot));
  for (double at = plot.origin.x; at <= plot.origin.x + plot.size.width; at += 4)
    g_assert_null (ps_counter_chart_describe_change_at (processor, at));
  g_clear_pointer (&description, g_free);
  description = ps_counter_chart_get_description (processor);
  g_assert_null (strstr (description, "changed"));
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/counters-view/tree", test_tree);
  ADD_TEST ("/counters-view/check-more", test_check_more);
  ADD_TEST ("/counters-view/stacked", test_stacked);
  ADD_TEST ("/counters-view/stacked-total", test_stacked_total);
  ADD_TEST ("/counters-view/unit-chart-title", test_unit_chart_title);
  ADD_TEST ("/counters-view/readout", test_readout);
  ADD_TEST ("/counters-view/zone-and-zoom", test_zone_and_zoom);
  ADD_TEST ("/counters-view/zone-cut", test_zone_cut);
  ADD_TEST ("/counters-view/search", test_search);
  ADD_TEST ("/counters-view/defaults", test_defaults);
  ADD_TEST ("/counters-view/perflib-readout", test_perflib_readout);
  ADD_TEST ("/counters-view/legend", test_legend);
  ADD_TEST ("/counters-view/timeline-rows", test_timeline_rows);
  ADD_TEST ("/counters-view/number-format", test_number_format);
  ADD_TEST ("/counters-view/lone-reading", test_lone_reading);
  ADD_TEST ("/counters-view/change-marks", test_change_marks);

  return gui_test_run ();
}

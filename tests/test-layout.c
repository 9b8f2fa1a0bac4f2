/* test-layout.c — every kind of run page at laptop and desktop sizes (run
 * under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens a run of each kind (CE PerfLog, RTL, hwpmc, pmcstat -G, a Visual
 * Studio report, PDH CSV, PerfLib V2, a live recording and a comparison)
 * and checks, on allocations and pixels, that the page fits: the window
 * can be 1024 px wide, at 1024×700 every chart is at least as tall as it
 * asks and lies inside what its scrolled windows show, the RTL totals and
 * the CE markers keep eight rows above the charts of the one selected,
 * the splits keep their shares from one size to another and share new
 * room. Then that text does not collide: tab titles of files alike,
 * labels cut with their whole text in a tooltip, the timeline's selection
 * length and status line, tooltips that go with the pointer and give way
 * to menus.
 *
 * Also run in French and Korean (tests/meson.build), where the labels
 * are longer or shorter; a button is found by its label in the language
 * of the run.
 *
 * GTK has no public way to read whether a tooltip window is shown, nor to
 * move a pointer; the tooltip tests drive the views' motion controllers
 * and check what decides whether a tooltip can show (has-tooltip).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-ce-view-private.h"
#include "ps-collector.h"
#include "ps-compare-page-private.h"
#include "ps-counter-chart.h"
#include "ps-flame-graph.h"
#include "ps-histogram-view.h"
#include "ps-record-dialog.h"
#include "ps-record-page.h"
#include "ps-rtl-view-private.h"
#include "ps-call-tree-view-private.h"
#include "ps-run-page-private.h"
#include "ps-session.h"
#include "ps-timeline-render.h"
#include "ps-timeline-view.h"
#include "ps-view-util.h"
#include "ps-window-private.h"
#include "ps-wrap-box.h"

#define LAPTOP_WIDTH  1024
#define LAPTOP_HEIGHT 700
/* Larger, and within the 1400×900 screen the tests run on */
#define LARGE_WIDTH   1366
#define LARGE_HEIGHT  880

typedef struct
{
  const char *name;
  const char *folder;   /* "demo": data/demo; else under tests/data */
  const char *file;
} Run;

static const Run runs[] = {
  { "ce", "demo", "dbperf_CEPC_x86_6_0_3122.log" },
  { "ce-sessions", "demo", "regperf_CEPC_x86_6_0_3122.log" },
  { "rtl", "demo", "soffice_4711.log" },
  { "hwpmc", "demo", "pmcstat_freebsd14.pmclog" },
  { "pmcstat", "pmcstat-callgraph", "dd.txt" },
  { "vs-report", "vs-report-csv", "l4_cc.csv" },
  { "pdh", "demo", "perfmon_4cpu.csv" },
  { "plv2", "demo", "processor_4cpu.plv2" },
};

static GFile *
run_file (const char *folder,
          const char *file)
{
  g_autofree char *path = g_str_equal (folder, "demo")
                          ? g_test_build_filename (G_TEST_DIST, "..", "data", "demo", file, NULL)
                          : g_test_build_filename (G_TEST_DIST, "data", folder, file, NULL);

  return g_file_new_for_path (path);
}

static PsRunPage *
open_run (Fixture    *fixture,
          const Run  *run)
{
  g_autoptr(GFile) file = run_file (run->folder, run->file);
  PsRunPage *page = open_and_wait (fixture, file);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  return page;
}

/* The window at that size, laid out and drawn: however slow the machine,
 * the checks that follow see the new size */
static void
resize_window (Fixture *fixture,
               int      width,
               int      height)
{
  fixture_ask_window_size (fixture, width, height);
  iterate_for (300);
  g_test_message ("window %d×%d asked, %d×%d", width, height, gtk_widget_get_width (GTK_WIDGET (fixture->window)),
                  gtk_widget_get_height (GTK_WIDGET (fixture->window)));
}

/* With PERFSCOPE_TEST_SCREENSHOTS=DIR, pictures of the window at the
 * laptop size and at two desktop sizes (build-aux/update-screenshots),
 * then the laptop size again for the checks that follow */
static void
save_screenshots (Fixture    *fixture,
                  const char *name)
{
  static const int sizes[][2] = { { LAPTOP_WIDTH, LAPTOP_HEIGHT }, { 1600, 1000 }, { 1920, 1080 } };

  if (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS") == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *sized = g_strdup_printf ("%s-%dx%d", name, sizes[i][0], sizes[i][1]);

      resize_window (fixture, sizes[i][0], sizes[i][1]);
      maybe_save_screenshot (fixture, sized);
    }
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
}

/* Calls visit on widget and everything in it that is on screen */
static void
walk_mapped (GtkWidget *widget,
             void     (*visit) (GtkWidget *widget,
                                gpointer   data),
             gpointer   data)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  visit (widget, data);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    walk_mapped (child, visit, data);
}

/* Charts: views that draw their own axes */
static gboolean
is_chart (GtkWidget *widget)
{
  return PS_IS_TIMELINE_VIEW (widget) || PS_IS_HISTOGRAM_VIEW (widget) || PS_IS_COUNTER_CHART (widget)
         || PS_IS_FLAME_GRAPH (widget);
}

static void
collect_chart (GtkWidget *widget,
               gpointer   charts)
{
  if (is_chart (widget))
    g_ptr_array_add (charts, widget);
}

/* The part of widget that is on screen: what its scrolled windows and the
 * window show of it, in window coordinates */
static graphene_rect_t
shown_area (GtkWidget *widget,
            GtkWidget *window)
{
  graphene_rect_t shown;

  g_assert_true (gtk_widget_compute_bounds (widget, window, &shown));
  for (GtkWidget *ancestor = gtk_widget_get_parent (widget); ancestor != NULL;
       ancestor = gtk_widget_get_parent (ancestor))
    if (GTK_IS_SCROLLED_WINDOW (ancestor) || GTK_IS_VIEWPORT (ancestor) || ancestor == window)
      {
        graphene_rect_t clip;

        g_assert_true (gtk_widget_compute_bounds (ancestor, window, &clip));
        if (!graphene_rect_intersection (&shown, &clip, &shown))
          return GRAPHENE_RECT_INIT (0, 0, 0, 0);
      }
  return shown;
}

/* A chart is as tall as it asks, and shown whole: its axes are seen.
 * In a pane that scrolls up and down by design (the runs of a
 * comparison), whole from side to side. */
static void
assert_chart_fits (GtkWidget *chart,
                   GtkWidget *window,
                   gboolean   scrolls_vertically)
{
  int minimum;
  graphene_rect_t bounds, shown;

  GtkStyleContext *style = gtk_widget_get_style_context (chart);
  GtkBorder margin, border, padding;

  gtk_widget_measure (chart, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (chart), &minimum, NULL, NULL, NULL);
  /* Measured sizes include the margins, borders and padding (properties
   * and CSS), allocated ones are the content's */
  gtk_style_context_get_margin (style, &margin);
  gtk_style_context_get_border (style, &border);
  gtk_style_context_get_padding (style, &padding);
  minimum -= gtk_widget_get_margin_top (chart) + gtk_widget_get_margin_bottom (chart)
             + margin.top + margin.bottom + border.top + border.bottom + padding.top + padding.bottom;
  g_test_message ("%s: %d px tall, asks %d", G_OBJECT_TYPE_NAME (chart), gtk_widget_get_height (chart), minimum);
  g_assert_cmpint (gtk_widget_get_height (chart), >=, minimum);

  g_assert_true (gtk_widget_compute_bounds (chart, window, &bounds));
  shown = shown_area (chart, window);
  if (scrolls_vertically)
    {
      if (shown.size.height > 0)
        g_assert_cmpfloat (shown.size.width, >=, bounds.size.width - 0.5);
      return;
    }
  g_assert_cmpfloat (shown.size.height, >=, bounds.size.height - 0.5);
  g_assert_cmpfloat (shown.size.width, >=, bounds.size.width - 0.5);
}

/* The rows of a table shown whole, of those with the state flags needed
 * (0: all): below its header, inside the window, and for all rows above a
 * horizontal scroll bar drawn over them (GTK scrolls a row into view
 * under it: it shows only while the pointer moves) */
static guint
count_whole_rows_with (GtkColumnView *view,
                       GtkWidget     *window,
                       GtkStateFlags  needed)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t shown = shown_area (GTK_WIDGET (view), window);
  double top = shown.origin.y, bottom = shown.origin.y + shown.size.height;
  GtkWidget *list = NULL;
  guint n_whole = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      if (g_str_equal (gtk_widget_get_css_name (child), "header")
          && gtk_widget_compute_bounds (child, window, &bounds))
        top = MAX (top, bounds.origin.y + bounds.size.height);
      else if (g_str_equal (gtk_widget_get_css_name (child), "listview"))
        list = child;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (scrolled); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      if (needed == 0 && GTK_IS_SCROLLBAR (child) && gtk_widget_get_mapped (child)
          && gtk_orientable_get_orientation (GTK_ORIENTABLE (child)) == GTK_ORIENTATION_HORIZONTAL
          && gtk_widget_compute_bounds (child, window, &bounds))
        bottom = MIN (bottom, bounds.origin.y);
    }
  g_assert_nonnull (list);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      graphene_rect_t bounds;

      if (gtk_widget_get_mapped (row) && (gtk_widget_get_state_flags (row) & needed) == needed
          && gtk_widget_compute_bounds (row, window, &bounds) && bounds.size.height > 0 && bounds.origin.y >= top - 0.5
          && bounds.origin.y + bounds.size.height <= bottom + 0.5)
        n_whole++;
    }
  g_test_message ("table: %u rows whole between %g and %g", n_whole, top, bottom);
  return n_whole;
}

static guint
count_whole_rows (GtkColumnView *view,
                  GtkWidget     *window)
{
  return count_whole_rows_with (view, window, 0);
}

static gboolean
views_fit (gpointer data)
{
  GtkWidget *views = gtk_paned_get_end_child (ps_run_page_get_paned (data));
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (views));

  return gtk_adjustment_get_upper (adjustment) <= gtk_adjustment_get_page_size (adjustment) + 1;
}

/* The views under the timeline need no scrolling of their own, once their
 * content (a call tree computed in the background, say) is in place */
static void
assert_views_fit (PsRunPage *page)
{
  GtkWidget *views = gtk_paned_get_end_child (ps_run_page_get_paned (page));
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (views));

  iterate_until (views_fit, page);
  g_test_message ("views: %g px of content in %g px; split at %d of %d", gtk_adjustment_get_upper (adjustment),
                  gtk_adjustment_get_page_size (adjustment), gtk_paned_get_position (ps_run_page_get_paned (page)),
                  gtk_widget_get_height (GTK_WIDGET (ps_run_page_get_paned (page))));
  g_assert_true (views_fit (page));
}

/* Whether the labels are English: the runs in French and Korean check
 * that the pages fit, not where English labels put each split */
static gboolean
in_english (void)
{
  return g_strcmp0 (_("Side by Side"), "Side by Side") == 0;
}

static void
assert_window_fits_laptop (Fixture *fixture)
{
  int minimum, natural;

  gtk_widget_measure (GTK_WIDGET (fixture->window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_test_message ("window: at least %d px wide, naturally %d", minimum, natural);
  if (minimum > LAPTOP_WIDTH || natural > LAPTOP_WIDTH)
    report_wide_widgets (GTK_WIDGET (fixture->window), LAPTOP_WIDTH);
  g_assert_cmpint (minimum, <=, LAPTOP_WIDTH);
  /* In English, every toolbar fits on one line. Longer French labels make
   * the compare page's toolbars (wrap boxes) wrap onto a second: there
   * the natural width, all on one line, is wider than the window */
  if (in_english ())
    g_assert_cmpint (natural, <=, LAPTOP_WIDTH);
  /* And GTK did not make it wider or taller than asked, for its content */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fixture->window)), <=, LAPTOP_WIDTH);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (fixture->window)), <=, LAPTOP_HEIGHT);
}

static void
assert_charts_fit (Fixture   *fixture,
                   GtkWidget *page,
                   gboolean   scrolls_vertically)
{
  g_autoptr(GPtrArray) charts = g_ptr_array_new ();
  gboolean counter_chart_seen = FALSE;

  walk_mapped (page, collect_chart, charts);
  for (guint i = 0; i < charts->len; i++)
    {
      GtkWidget *chart = g_ptr_array_index (charts, i);

      /* Charts one under the other in a list scroll: the first is seen */
      if (PS_IS_COUNTER_CHART (chart))
        {
          if (counter_chart_seen)
            continue;
          counter_chart_seen = TRUE;
        }
      assert_chart_fits (chart, GTK_WIDGET (fixture->window), scrolls_vertically);
    }
}

/* Each kind of run at 1024×700: the window may be that narrow, the views
 * need no scrolling, every chart is whole */
static void
test_laptop (Fixture       *fixture,
             gconstpointer  data)
{
  const Run *run = data;
  PsRunPage *page = open_run (fixture, run);

  GtkWidget *call_tree;

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  assert_window_fits_laptop (fixture);
  assert_views_fit (page);
  assert_charts_fit (fixture, GTK_WIDGET (page), FALSE);
  save_screenshots (fixture, run->name);

  /* A call tree drawn as a flame graph (RTL: on its own page, and the
   * totals with their histogram) */
  if (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_rtl_view (page))))
    {
      GtkColumnView *totals = ps_rtl_view_get_totals_view (ps_run_page_get_rtl_view (page));

      ps_rtl_view_show_page (ps_run_page_get_rtl_view (page), "totals");
      iterate_for (300);
      gtk_selection_model_select_item (gtk_column_view_get_model (totals), 0, TRUE);
      iterate_for (600);
      assert_views_fit (page);
      g_assert_nonnull (find_widget_of_type (GTK_WIDGET (page), PS_TYPE_HISTOGRAM_VIEW, TRUE));
      assert_charts_fit (fixture, GTK_WIDGET (page), FALSE);
      /* The charts of the selected total leave the table rows enough to
       * choose from, none of them under its scroll bar */
      g_assert_cmpuint (count_whole_rows (totals, GTK_WIDGET (fixture->window)), >=, 8);
      ps_rtl_view_show_page (ps_run_page_get_rtl_view (page), "calltree");
      iterate_for (300);
    }
  /* CE: the markers with the histogram of the one selected */
  if (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_ce_view (page))))
    {
      GtkColumnView *markers = ps_ce_view_get_marker_view (ps_run_page_get_ce_view (page));

      ps_ce_view_show_page (ps_run_page_get_ce_view (page), "markers");
      iterate_for (300);
      gtk_selection_model_select_item (gtk_column_view_get_model (markers), 0, TRUE);
      iterate_for (600);
      assert_views_fit (page);
      g_assert_nonnull (find_widget_of_type (GTK_WIDGET (page), PS_TYPE_HISTOGRAM_VIEW, TRUE));
      assert_charts_fit (fixture, GTK_WIDGET (page), FALSE);
      /* The histogram leaves the table rows enough to choose from, none
       * of them under its scroll bar */
      g_assert_cmpuint (count_whole_rows (markers, GTK_WIDGET (fixture->window)), >=, 8);
      gtk_selection_model_unselect_all (gtk_column_view_get_model (markers));
      iterate_for (300);
    }
  call_tree = find_widget_of_type (GTK_WIDGET (page), PS_TYPE_CALL_TREE_VIEW, TRUE);
  if (call_tree != NULL)
    iterate_until (call_tree_is_idle, call_tree);
  /* The callers and callees take room only once a function is chosen:
   * their empty pane left the tree five rows here (RTL), four in a
   * person's window. Chosen low in the table, the function's row is
   * scrolled back into view above them, and nothing else moves. */
  if (call_tree != NULL && gtk_widget_get_mapped (call_tree))
    {
      PsCallTreeView *view = PS_CALL_TREE_VIEW (call_tree);
      GtkColumnView *tree = ps_call_tree_view_get_column_view (view);
      GtkSelectionModel *selection = gtk_column_view_get_model (tree);
      guint n_rows = count_whole_rows (tree, GTK_WIDGET (fixture->window));
      int split = gtk_paned_get_position (ps_run_page_get_paned (page));

      g_assert_false (gtk_widget_get_visible (view->relations_box));
      g_assert_cmpuint (n_rows, >=, MIN (8, g_list_model_get_n_items (G_LIST_MODEL (selection))));
      gtk_selection_model_select_item (selection, MIN (n_rows, g_list_model_get_n_items (G_LIST_MODEL (selection))) - 1,
                                       TRUE);
      iterate_for (600);
      g_assert_true (gtk_widget_get_visible (view->relations_box));
      g_assert_cmpuint (count_whole_rows_with (tree, GTK_WIDGET (fixture->window), GTK_STATE_FLAG_SELECTED), ==, 1);
      /* The pane took its room from the tree alone: the timeline above
       * the views kept its height */
      g_assert_cmpint (gtk_paned_get_position (ps_run_page_get_paned (page)), ==, split);
      assert_views_fit (page);
    }
  if (call_tree != NULL && ps_call_tree_view_is_mode_available (PS_CALL_TREE_VIEW (call_tree), "flame-graph"))
    {
      g_test_message ("flame graph");
      ps_call_tree_view_set_mode (PS_CALL_TREE_VIEW (call_tree), "flame-graph");
      iterate_for (600);
      {
        g_autofree char *name = g_strconcat (run->name, "-flame-graph", NULL);
        save_screenshots (fixture, name);
      }
      assert_views_fit (page);
      g_assert_nonnull (find_widget_of_type (call_tree, PS_TYPE_FLAME_GRAPH, TRUE));
      assert_charts_fit (fixture, GTK_WIDGET (page), FALSE);
    }
}

/* The CE view's histogram of the selected marker is whole, the views
 * need no scrolling, the timeline gave up room for them but not below
 * its own minimum, and the table above keeps eight rows */
static void
assert_ce_histogram_fits (Fixture   *fixture,
                          PsRunPage *page)
{
  PsCeView *view = ps_run_page_get_ce_view (page);
  GtkWidget *histogram = GTK_WIDGET (ps_run_view_get_histogram_view (PS_RUN_VIEW (view)));
  GtkWidget *timeline_window = gtk_paned_get_start_child (ps_run_page_get_paned (page));
  int timeline_minimum;

  g_assert_true (gtk_widget_get_mapped (histogram));
  assert_views_fit (page);
  assert_chart_fits (histogram, GTK_WIDGET (fixture->window), FALSE);
  gtk_widget_measure (timeline_window, GTK_ORIENTATION_VERTICAL, -1, &timeline_minimum, NULL, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_height (timeline_window), >=, timeline_minimum);
  g_assert_cmpuint (count_whole_rows (ps_ce_view_get_marker_view (view), GTK_WIDGET (fixture->window)), >=, 8);
}

/* The CE histogram of a marker, under the table: its x axis is seen at
 * 1024×700, where it ran off the window */
static void
test_ce_histogram (Fixture       *fixture,
                   gconstpointer  data)
{
  PsRunPage *page = open_run (fixture, &runs[0]);
  PsCeView *view = ps_run_page_get_ce_view (page);
  GtkColumnView *table = ps_ce_view_get_marker_view (view);
  GtkWidget *histogram = GTK_WIDGET (ps_run_view_get_histogram_view (PS_RUN_VIEW (view)));

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  gtk_selection_model_select_item (gtk_column_view_get_model (table), 0, TRUE);
  iterate_for (600);
  assert_ce_histogram_fits (fixture, page);
  save_screenshots (fixture, "ce-histogram");

  /* With a range chosen on the timeline too, whose notice takes a line
   * above the tables: still all of it, and the rows */
  ps_session_set_selection (ps_run_page_get_session (page), 100, 400);
  iterate_for (600);
  assert_ce_histogram_fits (fixture, page);
  /* The first marker has no measurement in it: its time, "%AVG%" in the
   * log, is shown as no value */
  {
    g_autofree char *texts = collect_label_text (GTK_WIDGET (table));

    g_assert_null (strstr (texts, "\n%AVG%\n"));
    g_assert_nonnull (strstr (texts, "\n–\n"));
  }
  save_screenshots (fixture, "ce-histogram-range");
  ps_session_clear_selection (ps_run_page_get_session (page));
  iterate_for (300);

  /* Larger, with a smaller timeline: the table keeps no empty rows, the
   * histogram gets the room */
  resize_window (fixture, LARGE_WIDTH, LARGE_HEIGHT);
  gtk_paned_set_position (ps_run_page_get_paned (page), gtk_widget_get_height (GTK_WIDGET (ps_run_page_get_paned (page))) / 5);
  iterate_for (600);
  {
    GtkWidget *table_window = gtk_widget_get_parent (GTK_WIDGET (table));
    int natural;

    gtk_widget_measure (GTK_WIDGET (table), GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (table_window),
                        NULL, &natural, NULL, NULL);
    g_test_message ("table %d px for %d px of rows, histogram %d px", gtk_widget_get_height (table_window),
                    natural, gtk_widget_get_height (histogram));
    g_assert_cmpint (gtk_widget_get_height (table_window), <=, natural + 1);
    g_assert_cmpint (gtk_widget_get_height (histogram), >, 200);
  }
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);

  /* Without a marker the timeline has its share back */
  gtk_selection_model_unselect_all (gtk_column_view_get_model (table));
  iterate_for (600);
  if (!gtk_widget_get_visible (gtk_widget_get_parent (histogram)))
    g_assert_cmpint (gtk_paned_get_position (ps_run_page_get_paned (page)), >=,
                     (int)(gtk_widget_get_height (GTK_WIDGET (ps_run_page_get_paned (page))) * 0.38) - 2);
}

/* The CE CPU & Memory page at 1024×700: the CPU chart is whole, the
 * memory chart a scroll away */
static void
test_ce_cpu_memory (Fixture       *fixture,
                    gconstpointer  data)
{
  PsRunPage *page = open_run (fixture, &runs[0]);
  PsCeView *view = ps_run_page_get_ce_view (page);

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  ps_ce_view_show_page (view, "cpu-memory");
  iterate_for (600);
  assert_views_fit (page);
  assert_chart_fits (GTK_WIDGET (ps_ce_view_get_cpu_chart (view)), GTK_WIDGET (fixture->window), FALSE);
}

/* Descriptions shown in the table (cells that read "Test=…"), each whole */
static void
assert_description_whole (GtkWidget *widget,
                          gpointer   data)
{
  guint *n_descriptions = data;

  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), "Test="))
    {
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))));
      (*n_descriptions)++;
    }
}

/* The CE Description column shows each description whole: cut to
 * "Test=CeWriteRecor…", two different rows looked the same */
static void
test_ce_descriptions (Fixture       *fixture,
                      gconstpointer  data)
{
  PsRunPage *page = open_run (fixture, &runs[0]);
  guint n_descriptions = 0;

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  walk_mapped (GTK_WIDGET (ps_ce_view_get_marker_view (ps_run_page_get_ce_view (page))),
               assert_description_whole, &n_descriptions);
  g_assert_cmpuint (n_descriptions, >=, 5);
}

static double
paned_share (GtkPaned *paned)
{
  int size = gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)) == GTK_ORIENTATION_VERTICAL
             ? gtk_widget_get_height (GTK_WIDGET (paned)) : gtk_widget_get_width (GTK_WIDGET (paned));

  return (double)gtk_paned_get_position (paned) / size;
}

/* A split the user moved keeps its share at another size, and in the
 * setting; at the default, the timeline and the tables share new room */
static void
test_split_shares (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GVariant) fractions = NULL;
  PsRunPage *page = open_run (fixture, &runs[2]);
  GtkPaned *paned = ps_run_page_get_paned (page);
  int small_height, large_height;
  double kept = 0;

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  small_height = gtk_widget_get_height (GTK_WIDGET (paned));
  /* The default: 38 % of the page */
  g_assert_cmpfloat_with_epsilon (paned_share (paned), 0.38, 2.0 / small_height);

  /* Bigger: the timeline grows with the page, not only the tables */
  resize_window (fixture, LARGE_WIDTH, LARGE_HEIGHT);
  large_height = gtk_widget_get_height (GTK_WIDGET (paned));
  g_assert_cmpint (large_height, >, small_height + 150);
  g_assert_cmpfloat_with_epsilon (paned_share (paned), 0.38, 2.0 / large_height);
  g_assert_cmpint (gtk_paned_get_position (paned), >, 280);

  /* Moved by hand to half: half at every size, and kept */
  gtk_paned_set_position (paned, large_height / 2);
  iterate_for (600);
  fractions = g_settings_get_value (settings, "pane-fractions");
  g_assert_true (g_variant_lookup (fractions, "run-page", "d", &kept));
  g_assert_cmpfloat_with_epsilon (kept, 0.5, 1.0 / large_height);
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (paned)), ==, small_height);
  g_assert_cmpfloat_with_epsilon (paned_share (paned), 0.5, 2.0 / small_height);
  resize_window (fixture, LARGE_WIDTH, LARGE_HEIGHT);
  g_assert_cmpfloat_with_epsilon (paned_share (paned), 0.5, 2.0 / large_height);
}

/* A report's call tree at 1366×880: its callers and callees, once a
 * function is chosen, get a fair share of the room (they kept 60 px while
 * the tree took the rest) */
static void
test_call_tree_shares (Fixture       *fixture,
                       gconstpointer  data)
{
  PsRunPage *page = open_run (fixture, &runs[5]);
  PsCallTreeView *view = PS_CALL_TREE_VIEW (find_widget_of_type (GTK_WIDGET (page), PS_TYPE_CALL_TREE_VIEW, TRUE));
  GtkPaned *paned;

  g_assert_nonnull (view);
  paned = GTK_PANED (find_widget_of_type (GTK_WIDGET (view), GTK_TYPE_PANED, TRUE));
  iterate_until (call_tree_is_idle, view);
  gtk_selection_model_select_item (gtk_column_view_get_model (ps_call_tree_view_get_column_view (view)), 0, TRUE);
  iterate_for (300);
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  resize_window (fixture, LARGE_WIDTH, LARGE_HEIGHT);
  g_test_message ("call tree split: %d of %d px", gtk_paned_get_position (paned), gtk_widget_get_height (GTK_WIDGET (paned)));
  g_assert_cmpfloat (paned_share (paned), <=, 0.63);
  g_assert_cmpint (gtk_widget_get_height (gtk_paned_get_end_child (paned)), >=, 150);
}

static void
count_calls (guint *n_calls)
{
  (*n_calls)++;
}

/* The call-tree toolbar goes on two lines rather than widening the
 * window (it made the window at least 1253 px wide) */
static void
test_wrap_box (void)
{
  GtkWidget *box = ps_wrap_box_new (12);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *buttons[3];
  int minimum, natural, one_line, two_lines;

  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    {
      buttons[i] = gtk_button_new_with_label ("A button of some width");
      ps_wrap_box_append (PS_WRAP_BOX (box), buttons[i]);
    }
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_widget_measure (buttons[0], GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);

  /* As narrow as one button, as wide as all side by side */
  gtk_widget_measure (box, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &one_line, NULL, NULL);
  g_assert_cmpint (minimum, ==, natural);
  g_assert_cmpint (one_line, ==, 3 * natural + 2 * 12);
  gtk_widget_measure (box, GTK_ORIENTATION_VERTICAL, one_line, &one_line, NULL, NULL, NULL);
  gtk_widget_measure (box, GTK_ORIENTATION_VERTICAL, 2 * natural + 12, &two_lines, NULL, NULL, NULL);
  g_assert_cmpint (two_lines, >, one_line);

  /* Allocated at two buttons' width: the third goes under the first */
  gtk_widget_allocate (box, 2 * natural + 12, two_lines, -1, NULL);
  g_assert_cmpuint (ps_wrap_box_get_n_lines (PS_WRAP_BOX (box)), ==, 2);
  {
    graphene_point_t first, third;

    g_assert_true (gtk_widget_compute_point (buttons[0], box, &GRAPHENE_POINT_INIT (0, 0), &first));
    g_assert_true (gtk_widget_compute_point (buttons[2], box, &GRAPHENE_POINT_INIT (0, 0), &third));
    g_assert_cmpfloat (third.x, ==, first.x);
    g_assert_cmpfloat (third.y, >, first.y);
  }

  /* Its spacings are properties: the same value again is no change, a
   * new one notifies and moves the second line down by the difference */
  {
    guint n_notified = 0;
    int spacing, row_spacing, taller;

    g_object_get (box, "spacing", &spacing, "row-spacing", &row_spacing, NULL);
    g_assert_cmpint (spacing, ==, 12);
    g_assert_cmpint (row_spacing, ==, 6);
    g_signal_connect_swapped (box, "notify::row-spacing", G_CALLBACK (count_calls), &n_notified);
    g_object_set (box, "row-spacing", 6, NULL);
    g_assert_cmpuint (n_notified, ==, 0);
    g_object_set (box, "row-spacing", 10, NULL);
    g_assert_cmpuint (n_notified, ==, 1);
    g_object_get (box, "row-spacing", &row_spacing, NULL);
    g_assert_cmpint (row_spacing, ==, 10);
    gtk_widget_measure (box, GTK_ORIENTATION_VERTICAL, 2 * natural + 12, &taller, NULL, NULL, NULL);
    g_assert_cmpint (taller, ==, two_lines + 4);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
compare_is_ready (gpointer data)
{
  return ps_compare_page_is_ready (PS_COMPARE_PAGE (data));
}

/* Two runs of each kind, compared: the page fits a laptop, its charts
 * fit their views, and the pictures of every kind go to the README */
typedef struct
{
  const char *name;
  const char *folder_a;
  const char *file_a;
  const char *folder_b;
  const char *file_b;
  gboolean    stacked_on_laptop;  /* its runs are wider than half of 1024 px */
  gboolean    stacked_at_1400;    /* … and of 1400 px */
} ComparePair;

static const ComparePair compare_pairs[] = {
  { "compare", "diff", "run-a.log", "diff", "run-b.log", FALSE, FALSE },
  { "compare-ce", "demo", "fsperf_CEPC_x86_6_0_3122.log", "demo", "fsperf_CEPC_x86_6_0_3150.log", FALSE, FALSE },
  { "compare-rtl", "demo", "soffice_4711.log", "rtl", "startup_4711.log", TRUE, FALSE },
  { "compare-vs-report", "vs-report-csv", "lr2_cc.csv", "vs-report-csv", "lr3_cc.csv", FALSE, FALSE },
  { "compare-pmcstat", "pmcstat-callgraph", "dd.txt", "pmcstat-callgraph", "iperf3.txt", FALSE, FALSE },
  { "compare-hwpmc", "demo", "pmcstat_freebsd14.pmclog", "demo", "pmcstat_freebsd14.pmclog", TRUE, TRUE },
  { "compare-plv2", "demo", "processor_4cpu.plv2", "perflib-plv2", "processor-2cpu.plv2", FALSE, FALSE },
};

typedef struct
{
  const char *title;
  GtkWidget  *label;
} TitleLookup;

/* The label that shows a title: a tab's in the tab bar, a column's in
 * a table's header */
static void
find_title (GtkWidget *widget,
                gpointer   data)
{
  TitleLookup *lookup = data;
  g_autofree char *text = NULL;

  if (lookup->label != NULL || g_object_class_find_property (G_OBJECT_GET_CLASS (widget), "label") == NULL)
    return;
  g_object_get (widget, "label", &text, NULL);
  if (g_strcmp0 (text, lookup->title) == 0 && !GTK_IS_BUTTON (widget))
    lookup->label = widget;
}

/* How much each row changed is in view beside its verdict: both means
 * and, unless the selected row's histogram takes room, their difference
 * come right after the Change column, within the table's visible width */
static void
assert_change_in_view (PsComparePage *page)
{
  static const char *titles[] = { N_("Mean A"), N_("Mean B"), N_("Δ Mean") };
  GtkWidget *table = GTK_WIDGET (ps_compare_page_get_column_view (page));
  GtkWidget *window = gtk_widget_get_ancestor (table, GTK_TYPE_SCROLLED_WINDOW);
  guint n_titles = ps_compare_page_get_histogram_visible (page) ? 2 : 3;

  g_assert_nonnull (window);
  for (guint i = 0; i < n_titles; i++)
    {
      TitleLookup lookup = { _(titles[i]), NULL };
      graphene_rect_t bounds;

      walk_mapped (table, find_title, &lookup);
      g_assert_nonnull (lookup.label);
      g_assert_true (gtk_widget_compute_bounds (lookup.label, window, &bounds));
      g_test_message ("%s: %.0f–%.0f of %d px", lookup.title, bounds.origin.x,
                      bounds.origin.x + bounds.size.width, gtk_widget_get_width (window));
      g_assert_cmpfloat (bounds.origin.x, >=, 0);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (window));
    }
}

/* B's run under A's, not beside it */
static gboolean
halves_stacked (PsComparePage *page)
{
  graphene_point_t b;

  g_assert_true (gtk_widget_compute_point (ps_compare_page_get_run_half (page, 1), ps_compare_page_get_run_half (page, 0),
                                           &GRAPHENE_POINT_INIT (0, 0), &b));
  return b.y > 0 && b.x == 0;
}

static GtkWidget *
side_by_side_button (PsComparePage *page)
{
  GtkWidget *button = find_button (GTK_WIDGET (page), _("Side by Side"));

  g_assert_nonnull (button);
  return button;
}

static void
test_compare_laptop (Fixture       *fixture,
                     gconstpointer  data)
{
  const ComparePair *pair = data;
  g_autoptr(GFile) file_a = run_file (pair->folder_a, pair->file_a);
  g_autoptr(GFile) file_b = run_file (pair->folder_b, pair->file_b);
  PsComparePage *page = ps_window_compare_files (fixture->window, file_a, file_b);

  g_assert_nonnull (page);
  g_assert_true (iterate_until (compare_is_ready, page));
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  assert_window_fits_laptop (fixture);
  /* The runs scroll up and down under the table */
  assert_charts_fit (fixture, GTK_WIDGET (page), TRUE);
  /* Runs wider than half the page are stacked, each the page's width,
   * and Side by Side waits for a wider window */
  /* (in French, the Visual Studio report's view buttons are wider than
   * half the window: its runs stack) */
  if (in_english ())
    g_assert_cmpint (halves_stacked (page), ==, pair->stacked_on_laptop);
  g_assert_cmpint (gtk_widget_get_sensitive (side_by_side_button (page)), ==, !halves_stacked (page));
  /* The screen of the tests is 1400 px wide: the hwpmc run pages need
   * more than 700 px each */
  resize_window (fixture, 1400, 900);
  if (in_english ())
    g_assert_cmpint (halves_stacked (page), ==, pair->stacked_at_1400);
  g_assert_cmpint (gtk_widget_get_sensitive (side_by_side_button (page)), ==, !halves_stacked (page));
  assert_charts_fit (fixture, GTK_WIDGET (page), TRUE);
  assert_change_in_view (page);
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  assert_change_in_view (page);
  save_screenshots (fixture, pair->name);
  /* A row selected: its histogram beside the table */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (ps_compare_page_get_rows (page)), 1);
  iterate_for (600);
  g_test_message ("with the histogram of row 1: %s", ps_compare_page_get_histogram_visible (page) ? "shown" : "none");
  assert_change_in_view (page);
}

static gboolean
label_is_cut (GtkLabel *label)
{
  return pango_layout_is_ellipsized (gtk_label_get_layout (label));
}

/* The names of the compared runs are whole in the header where it has
 * room, on a desktop's screen, and cut only where it has not, on a
 * laptop's, which the page fits */
static void
test_compare_title (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *names[2] = { "fsperf_CEPC_nightly_3122.log", "fsperf_CEPC_nightly_3150.log" };
  const char *sources[2] = { "run-a.log", "run-b.log" };
  GFile *files[2];
  PsComparePage *page;

  for (guint side = 0; side < 2; side++)
    {
      g_autoptr(GFile) source = run_file ("diff", sources[side]);
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (g_file_load_contents (source, NULL, &contents, &length, NULL, NULL));
      files[side] = write_temp_file (fixture, names[side], contents, length);
    }
  page = ps_window_compare_files (fixture->window, files[0], files[1]);
  g_assert_true (iterate_until (compare_is_ready, page));

  resize_window (fixture, 1400, 900);
  for (guint side = 0; side < 2; side++)
    {
      GtkLabel *label = ps_compare_page_get_title_label (page, side);

      g_test_message ("%s: %d px wide, %s", gtk_label_get_text (label), gtk_widget_get_width (GTK_WIDGET (label)),
                      label_is_cut (label) ? "cut" : "whole");
      g_assert_cmpstr (gtk_label_get_text (label), ==, names[side]);
      g_assert_false (label_is_cut (label));
    }

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  assert_window_fits_laptop (fixture);
  /* The names share what room there is, the arrow between them */
  {
    GtkWidget *a = GTK_WIDGET (ps_compare_page_get_title_label (page, 0));
    GtkWidget *b = GTK_WIDGET (ps_compare_page_get_title_label (page, 1));
    graphene_rect_t a_bounds, b_bounds;

    g_assert_true (gtk_widget_compute_bounds (a, GTK_WIDGET (page), &a_bounds));
    g_assert_true (gtk_widget_compute_bounds (b, GTK_WIDGET (page), &b_bounds));
    g_test_message ("at %d px: A %.0f px, B %.0f px wide", LAPTOP_WIDTH, a_bounds.size.width, b_bounds.size.width);
    g_assert_cmpfloat (b_bounds.origin.x, >, a_bounds.origin.x + a_bounds.size.width);
    g_assert_cmpfloat (b_bounds.origin.x + b_bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (page)));
  }
  for (guint side = 0; side < 2; side++)
    g_object_unref (files[side]);
}

static PsRecordPage *
current_record_page (PsWindow *window)
{
  GtkWidget *child = _ps_window_get_current_child (window);

  return PS_IS_RECORD_PAGE (child) ? PS_RECORD_PAGE (child) : NULL;
}

static gboolean
record_page_has_charts (gpointer data)
{
  PsRecordPage *page = current_record_page (data);

  return page != NULL && ps_record_page_get_charts (page)->len >= 2;
}

/* A live recording, then the run it becomes */
static void
test_recording_laptop (Fixture       *fixture,
                       gconstpointer  data)
{
  g_auto(GStrv) names = ps_collectors_list_names ();
  PsRecordDialog *dialog;
  PsRecordPage *record_page;

  if (!g_strv_contains ((const char * const *)names, "procfs"))
    {
      g_test_skip ("The procfs collector is not built");
      return;
    }
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_assert_true (ps_record_dialog_select_backend (dialog, "procfs"));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "50"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (record_page_has_charts, fixture->window));
  iterate_for (600);
  record_page = current_record_page (fixture->window);
  assert_window_fits_laptop (fixture);
  assert_charts_fit (fixture, GTK_WIDGET (record_page), FALSE);
  save_screenshots (fixture, "recording");

  ps_record_page_stop (record_page);
  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
  iterate_for (600);
  assert_window_fits_laptop (fixture);
  assert_views_fit (ps_window_get_current_page (fixture->window));
  assert_charts_fit (fixture, GTK_WIDGET (ps_window_get_current_page (fixture->window)), FALSE);
}

/* Three CE logs alike but for their starts, among other tabs, at a
 * laptop's width: each tab shows its start whole, and the whole name is
 * the tab's title (what assistive technologies read), its path the
 * tooltip */
static void
test_tab_titles (Fixture       *fixture,
                 gconstpointer  data)
{
  static const char *starts[] = { "dbperf", "fsperf", "regperf" };
  static const char *others[] = { "soffice_4711.log", "perfmon_4cpu.csv", "processor_4cpu.plv2", "pmcstat_freebsd14.pmclog" };

  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autoptr(GFile) file = run_file ("demo", others[i]);

      open_and_wait (fixture, file);
    }
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    {
      g_autofree char *name = g_strconcat (starts[i], "_CEPC_x86_6_0_3122.log", NULL);
      g_autofree char *shown = g_strconcat (starts[i], "_", NULL);
      g_autoptr(GFile) file = run_file ("demo", name);
      PsRunPage *page = open_and_wait (fixture, file);
      AdwTabPage *tab = adw_tab_view_get_page (fixture->window->tab_view, GTK_WIDGET (page));
      TitleLookup lookup = { name, NULL };
      g_autoptr(PangoLayout) layout = NULL;
      int width;

      g_assert_cmpstr (adw_tab_page_get_title (tab), ==, name);
      g_assert_true (g_str_has_suffix (adw_tab_page_get_tooltip (tab), name));
      iterate_for (300);
      walk_mapped (GTK_WIDGET (fixture->window->tab_bar), find_title, &lookup);
      g_assert_nonnull (lookup.label);
      layout = gtk_widget_create_pango_layout (lookup.label, shown);
      pango_layout_get_pixel_size (layout, &width, NULL);
      g_assert_cmpint (width, <=, gtk_widget_get_width (lookup.label));
    }
}

static gboolean
is_in_list_cell (GtkWidget *widget)
{
  for (GtkWidget *ancestor = widget; ancestor != NULL; ancestor = gtk_widget_get_parent (ancestor))
    if (GTK_IS_COLUMN_VIEW (ancestor) || GTK_IS_LIST_VIEW (ancestor))
      return TRUE;
  return FALSE;
}

/* GTK shows the tooltip of the widget under the pointer, else of the
 * nearest of its parents that has one */
static gboolean
shows_tooltip (GtkWidget *widget)
{
  for (GtkWidget *ancestor = widget; ancestor != NULL; ancestor = gtk_widget_get_parent (ancestor))
    if (gtk_widget_get_has_tooltip (ancestor))
      return TRUE;
  return FALSE;
}

static void
assert_cut_label_has_tooltip (GtkWidget *widget,
                              gpointer   data)
{
  guint *n_cut = data;

  if (GTK_IS_LABEL (widget) && *gtk_label_get_text (GTK_LABEL (widget)) != '\0'
      && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
    {
      g_test_message ("cut: %s", gtk_label_get_text (GTK_LABEL (widget)));
      (*n_cut)++;
      g_assert_true (shows_tooltip (widget));
      /* A label outside tables carries its whole text, unless its owner
       * says more */
      if (!is_in_list_cell (widget) && g_object_get_data (G_OBJECT (widget), "ps-text-tooltip") != NULL)
        g_assert_cmpstr (gtk_widget_get_tooltip_text (widget), ==, gtk_label_get_text (GTK_LABEL (widget)));
    }
}

/* At the narrowest the window goes, every label cut short has its whole
 * text in a tooltip */
static void
test_cut_labels (Fixture       *fixture,
                 gconstpointer  data)
{
  guint n_cut = 0;

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      PsRunPage *page = open_run (fixture, &runs[i]);
      int minimum;

      gtk_widget_measure (GTK_WIDGET (fixture->window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      resize_window (fixture, minimum, LAPTOP_HEIGHT);
      walk_mapped (GTK_WIDGET (page), assert_cut_label_has_tooltip, &n_cut);
      walk_mapped (GTK_WIDGET (fixture->window->tab_bar), assert_cut_label_has_tooltip, &n_cut);
      gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL);
      iterate_for (100);
    }
  /* The check saw labels cut */
  g_assert_cmpuint (n_cut, >, 0);
}

static void
emit_on_motion_controllers (GtkWidget  *widget,
                            const char *signal)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_EVENT_CONTROLLER_MOTION (controller))
        continue;
      if (g_str_equal (signal, "enter"))
        g_signal_emit_by_name (controller, signal, 20.0, 20.0);
      else
        g_signal_emit_by_name (controller, signal);
    }
}

static GtkWidget *
shown_popover (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child) && gtk_widget_get_visible (child))
      return child;
  return NULL;
}

/* A chart's read-out tooltip goes with the pointer, and none covers the
 * chart's menu */
static void
test_tooltips (Fixture       *fixture,
               gconstpointer  data)
{
  PsRunPage *page = open_run (fixture, &runs[6]);
  GtkWidget *chart = find_widget_of_type (GTK_WIDGET (page), PS_TYPE_COUNTER_CHART, TRUE);
  GtkWidget *timeline = GTK_WIDGET (ps_run_page_get_timeline_view (page));
  GtkWidget *menu;

  g_assert_nonnull (chart);
  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);

  for (GtkWidget *view = chart; view != NULL; view = view == chart ? timeline : NULL)
    {
      emit_on_motion_controllers (view, "enter");
      g_assert_true (gtk_widget_get_has_tooltip (view));
      emit_on_motion_controllers (view, "leave");
      g_assert_false (gtk_widget_get_has_tooltip (view));
      emit_on_motion_controllers (view, "enter");
      g_assert_true (gtk_widget_get_has_tooltip (view));
    }

  /* The picture menu: no tooltip of the chart while it is open */
  g_assert_true (gtk_widget_activate_action (chart, "picture.menu", "(dd)", 40.0, 40.0));
  iterate_for (200);
  menu = shown_popover (chart);
  g_assert_nonnull (menu);
  g_assert_false (gtk_widget_get_has_tooltip (chart));
  gtk_popover_popdown (GTK_POPOVER (menu));
  iterate_for (200);
  g_assert_true (gtk_widget_get_has_tooltip (chart));
}

/* The texture's pixels, B, G, R, A premultiplied, four bytes each */
static guchar *
texture_pixels (GdkTexture *texture)
{
  gsize stride = (gsize)gdk_texture_get_width (texture) * 4;
  guchar *data = g_malloc (stride * gdk_texture_get_height (texture));

  gdk_texture_download (texture, data, stride);
  return data;
}

static const guchar *
pixel_at (const guchar *data,
          int           width,
          int           x,
          int           y)
{
  return data + ((gsize)y * width + x) * 4;
}

static gboolean
same_color (const guchar *a,
            const guchar *b)
{
  return ABS (a[0] - b[0]) <= 8 && ABS (a[1] - b[1]) <= 8 && ABS (a[2] - b[2]) <= 8 && ABS (a[3] - b[3]) <= 8;
}

static double
saturation (const guchar *p)
{
  int high = MAX (MAX (p[0], p[1]), p[2]), low = MIN (MIN (p[0], p[1]), p[2]);

  return high > 0 ? (double)(high - low) / high : 0;
}

/* The selection's length, on the axis in the accent colour, and the
 * columns beside it: the tick labels give way ("800 295.000 ms s") */
static void
test_selection_length (Fixture       *fixture,
                       gconstpointer  data)
{
  PsRunPage *page = open_run (fixture, &runs[2]);
  PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
  PsSession *session = ps_run_page_get_session (page);
  gint64 begin, end;
  int text_top = (int)PS_TIMELINE_OVERVIEW_HEIGHT + 4, text_bottom = (int)PS_TIMELINE_HEADER_HEIGHT - 8;
  guint n_checked = 0;

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  g_assert_true (ps_event_store_get_time_range (ps_run_page_get_store (page), &begin, &end));

  /* Ranges a third of the run long, at many places: each length label
   * lands on some tick label */
  for (int step = 0; step < 12; step++)
    {
      gint64 from = begin + (end - begin) * step / 24;
      gint64 to = from + (end - begin) / 3;
      g_autoptr(GdkTexture) texture = NULL;
      g_autofree guchar *pixels = NULL;
      int width, box_left = -1, box_right = -1;
      const guchar *background;

      ps_session_set_selection (session, from, to);
      iterate_for (50);
      texture = render_widget (GTK_WIDGET (timeline));
      pixels = texture_pixels (texture);
      width = gdk_texture_get_width (texture);

      /* The box: the longest accent run across the axis (the range's
       * edges are accent lines a pixel wide, the text breaks the runs
       * of the rows it is on) */
      for (int y = text_top; y <= text_bottom; y++)
        for (int x = (int)PS_TIMELINE_LABEL_WIDTH, run = 0; x < width; x++)
          {
            run = saturation (pixel_at (pixels, width, x, y)) > 0.5 ? run + 1 : 0;
            if (run > box_right - box_left + 1)
              box_left = x - run + 1, box_right = x;
          }
      g_assert_cmpint (box_left, >, 0);
      background = pixel_at (pixels, width, box_left - 1, PS_TIMELINE_OVERVIEW_HEIGHT + 1);
      for (int y = text_top; y <= text_bottom; y++)
        for (int dx = 1; dx <= 6; dx++)
          {
            g_assert_true (same_color (pixel_at (pixels, width, box_left - dx, y), background));
            g_assert_true (same_color (pixel_at (pixels, width, box_right + dx, y), background));
            n_checked++;
          }
    }
  g_assert_cmpuint (n_checked, >, 0);
}

/* The status line of the cursor's span has a strip of its own: the spans
 * under it are not drawn there (it was drawn over the flame chart) */
static void
test_status_strip (Fixture       *fixture,
                   gconstpointer  data)
{
  PsRunPage *page = open_run (fixture, &runs[2]);
  PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
  PsEventStore *store = ps_run_page_get_store (page);
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  g_autofree guchar *without = NULL;
  g_autofree guchar *with = NULL;
  guint64 root = G_MAXUINT64;
  guint n_covered = 0;
  int width, height;

  resize_window (fixture, LAPTOP_WIDTH, LAPTOP_HEIGHT);
  for (guint64 s = 0; s < ps_event_store_get_n_spans (store) && root == G_MAXUINT64; s++)
    if (ps_event_store_get_span (store, s)->depth == 0)
      root = s;
  g_assert_cmpuint (root, !=, G_MAXUINT64);

  ps_session_clear_selection (ps_run_page_get_session (page));
  iterate_for (50);
  before = render_widget (GTK_WIDGET (timeline));
  without = texture_pixels (before);

  ps_timeline_view_set_cursor_span (timeline, root);
  ps_session_clear_selection (ps_run_page_get_session (page));
  iterate_for (50);
  g_assert_nonnull (ps_timeline_view_get_status (timeline));
  after = render_widget (GTK_WIDGET (timeline));
  with = texture_pixels (after);
  width = gdk_texture_get_width (after);
  height = gdk_texture_get_height (after);

  /* Where spans showed in the bottom strip, the strip is grey on white */
  for (int y = height - (int)PS_TIMELINE_STATUS_HEIGHT + 2; y < height - 2; y++)
    for (int x = (int)PS_TIMELINE_LABEL_WIDTH + 6; x < width; x++)
      if (saturation (pixel_at (without, width, x, y)) > 0.3)
        {
          g_assert_cmpfloat (saturation (pixel_at (with, width, x, y)), <, 0.05);
          n_covered++;
        }
  /* The check saw spans there */
  g_assert_cmpuint (n_covered, >, 100);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *path = g_strconcat ("/layout/laptop/", runs[i].name, NULL);

      g_test_add (path, Fixture, &runs[i], fixture_setup, test_laptop, fixture_teardown);
    }
  for (guint i = 0; i < G_N_ELEMENTS (compare_pairs); i++)
    {
      g_autofree char *path = g_strconcat ("/layout/laptop/", compare_pairs[i].name, NULL);

      g_test_add (path, Fixture, &compare_pairs[i], fixture_setup, test_compare_laptop, fixture_teardown);
    }
  ADD_TEST ("/layout/laptop/recording", test_recording_laptop);
  ADD_TEST ("/layout/compare-title", test_compare_title);
  ADD_TEST ("/layout/ce-histogram", test_ce_histogram);
  ADD_TEST ("/layout/ce-descriptions", test_ce_descriptions);
  ADD_TEST ("/layout/ce-cpu-memory", test_ce_cpu_memory);
  ADD_TEST ("/layout/split-shares", test_split_shares);
  ADD_TEST ("/layout/call-tree-shares", test_call_tree_shares);
  g_test_add_func ("/layout/wrap-box", test_wrap_box);
  ADD_TEST ("/text/tab-titles", test_tab_titles);
  ADD_TEST ("/text/cut-labels", test_cut_labels);
  ADD_TEST ("/text/tooltips", test_tooltips);
  ADD_TEST ("/text/selection-length", test_selection_length);
  ADD_TEST ("/text/status-strip", test_status_strip);

  return gui_test_run ();
}

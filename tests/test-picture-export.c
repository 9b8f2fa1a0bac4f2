/* test-picture-export.c — views exported as SVG and PNG pictures, under Xvfb
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: issue 10, point 3 ("Pictures"). The timeline, the histogram, the
 * flame graph (plain and differential) and the counter chart of real runs
 * are written at 800 × 500: the PNG has that size and many colours, the
 * SVG is XML with an <svg> root of that size, shapes and the glyphs of
 * its text. A zoom on the flame graph changes its picture.
 */
#include "config.h"

#include <cairo.h>
#include <glib/gi18n.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-call-tree-view-private.h"
#include "ps-counters-view-private.h"
#include "ps-flame-graph-private.h"
#include "ps-picture-export.h"
#include "ps-rtl-view-private.h"
#include "ps-run-page-private.h"

#define PICTURE_WIDTH  800
#define PICTURE_HEIGHT 500

/* --- Reading the pictures back --------------------------------------------- */

static guint
count_png_colors (const char *path,
                  int        *width,
                  int        *height)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);
  g_autoptr(GHashTable) colors = g_hash_table_new (NULL, NULL);
  const guchar *data;
  int stride;

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  *width = cairo_image_surface_get_width (surface);
  *height = cairo_image_surface_get_height (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < *height; y++)
    for (int x = 0; x < *width; x++)
      {
        guint32 pixel = *(const guint32 *) (data + y * stride + x * 4);

        g_hash_table_add (colors, GUINT_TO_POINTER (pixel));
      }
  cairo_surface_destroy (surface);
  return g_hash_table_size (colors);
}

typedef struct
{
  char  *root;
  char  *width;
  char  *height;
  guint  n_shapes;        /* path, rect, use of something else than a glyph */
  guint  n_glyphs;        /* glyph definitions */
  guint  n_glyph_uses;    /* <use> of a glyph */
} SvgSummary;

static void
svg_summary_clear (SvgSummary *summary)
{
  g_free (summary->root);
  g_free (summary->width);
  g_free (summary->height);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SvgSummary, svg_summary_clear)

static void
svg_start_element (GMarkupParseContext  *context,
                   const char           *element,
                   const char          **names,
                   const char          **values,
                   gpointer              user_data,
                   GError              **error)
{
  SvgSummary *summary = user_data;
  const char *id = NULL, *href = NULL;

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_str_equal (names[i], "id"))
        id = values[i];
      else if (g_str_equal (names[i], "xlink:href") || g_str_equal (names[i], "href"))
        href = values[i];
    }

  if (summary->root == NULL)
    {
      summary->root = g_strdup (element);
      for (guint i = 0; names[i] != NULL; i++)
        {
          if (g_str_equal (names[i], "width"))
            summary->width = g_strdup (values[i]);
          else if (g_str_equal (names[i], "height"))
            summary->height = g_strdup (values[i]);
        }
      return;
    }

  /* cairo draws text as glyph outlines: <symbol id="glyph0-1"> (1.16) or
   * <g id="glyph-0-1"> (1.18) in the defs, and <use> of them */
  if (id != NULL && g_str_has_prefix (id, "glyph"))
    summary->n_glyphs++;
  else if (g_str_equal (element, "use") && href != NULL && g_str_has_prefix (href, "#glyph"))
    summary->n_glyph_uses++;
  else if (g_str_equal (element, "path") || g_str_equal (element, "rect") || g_str_equal (element, "use"))
    summary->n_shapes++;
}

static void
read_svg (const char *path,
          SvgSummary *summary)
{
  static const GMarkupParser parser = { svg_start_element, NULL, NULL, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  char *body;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  /* GMarkup takes no prolog: the document starts at its root */
  body = strstr (contents, "<svg");
  g_assert_nonnull (body);

  memset (summary, 0, sizeof *summary);
  context = g_markup_parse_context_new (&parser, 0, summary, NULL);
  g_assert_true (g_markup_parse_context_parse (context, body, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
}

/* "800", "800px" or "800pt" */
static void
assert_svg_length (const char *text,
                   double      expected)
{
  char *end = NULL;
  double value;

  g_assert_nonnull (text);
  value = g_ascii_strtod (text, &end);
  g_assert_cmpfloat (value, ==, expected);
  g_assert_true (*end == '\0' || g_str_equal (end, "px") || g_str_equal (end, "pt"));
}

/* Exports a widget both ways at 800 × 500 and checks the files; returns
 * the PNG's path (in the fixture's directory) */
static char *
export_and_check (Fixture    *fixture,
                  GtkWidget  *widget,
                  const char *name)
{
  g_autofree char *png_name = g_strconcat (name, ".png", NULL);
  g_autofree char *svg_name = g_strconcat (name, ".svg", NULL);
  char *png_path = g_build_filename (fixture->tmpdir, png_name, NULL);
  g_autofree char *svg_path = g_build_filename (fixture->tmpdir, svg_name, NULL);
  g_autoptr(GFile) png_file = g_file_new_for_path (png_path);
  g_autoptr(GFile) svg_file = g_file_new_for_path (svg_path);
  g_autoptr(GError) error = NULL;
  g_auto(SvgSummary) summary = { 0 };
  int width, height;
  guint n_colors;

  g_assert_true (ps_picture_export_supports (widget));

  g_assert_true (ps_picture_export_to_file (widget, png_file, PS_PICTURE_FORMAT_PNG,
                                            PICTURE_WIDTH, PICTURE_HEIGHT, &error));
  g_assert_no_error (error);
  n_colors = count_png_colors (png_path, &width, &height);
  g_assert_cmpint (width, ==, PICTURE_WIDTH);
  g_assert_cmpint (height, ==, PICTURE_HEIGHT);
  /* Background, text with its anti-aliasing, axes, bars or frames */
  g_test_message ("%s: %u colours", name, n_colors);
  g_assert_cmpuint (n_colors, >=, 16);

  g_assert_true (ps_picture_export_to_file (widget, svg_file, PS_PICTURE_FORMAT_SVG,
                                            PICTURE_WIDTH, PICTURE_HEIGHT, &error));
  g_assert_no_error (error);
  read_svg (svg_path, &summary);
  g_assert_cmpstr (summary.root, ==, "svg");
  assert_svg_length (summary.width, PICTURE_WIDTH);
  assert_svg_length (summary.height, PICTURE_HEIGHT);
  g_test_message ("%s: %u shapes, %u glyphs, %u glyphs drawn", name,
                  summary.n_shapes, summary.n_glyphs, summary.n_glyph_uses);
  g_assert_cmpuint (summary.n_shapes, >=, 3);
  g_assert_cmpuint (summary.n_glyphs, >=, 5);
  g_assert_cmpuint (summary.n_glyph_uses, >=, 10);

  /* With PERFSCOPE_TEST_SCREENSHOTS=DIR, keeps the pictures to look at */
  if (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS") != NULL)
    {
      g_autofree char *kept_png = g_build_filename (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS"), png_name, NULL);
      g_autofree char *kept_svg = g_build_filename (g_getenv ("PERFSCOPE_TEST_SCREENSHOTS"), svg_name, NULL);
      g_autoptr(GFile) kept_png_file = g_file_new_for_path (kept_png);
      g_autoptr(GFile) kept_svg_file = g_file_new_for_path (kept_svg);

      g_assert_true (g_file_copy (png_file, kept_png_file, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL));
      g_assert_true (g_file_copy (svg_file, kept_svg_file, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL));
    }

  return png_path;
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

/* --- The runs --------------------------------------------------------------- */

static PsRunPage *
open_rtl_example (Fixture *fixture)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", "startup_4711.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_true (iterate_until (run_view_is_idle, ps_run_page_get_rtl_view (page)));
  return page;
}

static gboolean
timeline_has_model (gpointer data)
{
  return ps_timeline_view_get_model (data) != NULL;
}

/* The rows, the axis and the range shown; a zoom changes the picture */
static void
test_timeline (Fixture       *fixture,
               gconstpointer  data)
{
  PsRunPage *page = open_rtl_example (fixture);
  PsTimelineView *timeline = ps_run_page_get_timeline_view (page);
  g_autofree char *png = NULL;
  g_autofree char *png_zoomed = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;

  g_assert_true (iterate_until (timeline_has_model, timeline));
  g_assert_true (iterate_until (widget_is_drawn, timeline));
  iterate_for (50);
  g_assert_cmpuint (ps_timeline_view_get_model (timeline)->rows->len, >, 0);
  maybe_save_screenshot (fixture, "picture-export-timeline-screen");
  png = export_and_check (fixture, GTK_WIDGET (timeline), "timeline");
  before = read_bytes (png);

  ps_timeline_view_zoom (timeline, 4, gtk_widget_get_width (GTK_WIDGET (timeline)) / 2.0);
  iterate_for (50);
  png_zoomed = export_and_check (fixture, GTK_WIDGET (timeline), "timeline-zoomed");
  after = read_bytes (png_zoomed);
  g_assert_false (g_bytes_equal (before, after));
}

static void
test_histogram (Fixture       *fixture,
                gconstpointer  data)
{
  PsRunPage *page = open_rtl_example (fixture);
  PsRtlView *rtl_view = ps_run_page_get_rtl_view (page);
  PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (rtl_view));
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_rtl_view_get_totals_view (rtl_view));
  g_autofree char *png = NULL;

  ps_rtl_view_show_page (rtl_view, "totals");
  gtk_selection_model_select_item (selection, 0, TRUE);
  g_assert_nonnull (ps_histogram_view_get_histogram (histogram));
  g_assert_true (iterate_until (widget_is_drawn, histogram));
  png = export_and_check (fixture, GTK_WIDGET (histogram), "histogram");
}

static PsFlameGraph *
open_flame_graph (Fixture *fixture)
{
  PsRunPage *page = open_rtl_example (fixture);
  PsRtlView *rtl_view = ps_run_page_get_rtl_view (page);
  PsCallTreeView *view = ps_run_view_get_call_tree_view (PS_RUN_VIEW (rtl_view));
  PsFlameGraph *flame_graph = ps_call_tree_view_get_flame_graph (view);

  ps_rtl_view_show_page (rtl_view, "calltree");
  g_assert_true (iterate_until (widget_is_drawn, view));
  g_assert_true (iterate_until (call_tree_is_idle, view));
  ps_call_tree_view_set_mode (view, "flame-graph");
  g_assert_true (iterate_until (widget_is_drawn, flame_graph));
  return flame_graph;
}

/* What is on screen is what is drawn: a zoom changes the picture */
static void
test_flame_graph (Fixture       *fixture,
                  gconstpointer  data)
{
  PsFlameGraph *flame_graph = open_flame_graph (fixture);
  int width = gtk_widget_get_width (GTK_WIDGET (flame_graph));
  const char *root[] = { NULL };
  g_autofree char *zoom_before = _ps_flame_graph_get_zoom_path (flame_graph);
  g_autofree char *zoom_after = NULL;
  g_autofree char *png_before = NULL;
  g_autofree char *png_after = NULL;
  g_autofree char *svg_before = g_build_filename (fixture->tmpdir, "flame-graph.svg", NULL);
  g_autofree char *svg_after = g_build_filename (fixture->tmpdir, "flame-graph-zoomed.svg", NULL);
  g_autoptr(GBytes) svg_before_bytes = NULL;
  g_autoptr(GBytes) png_before_bytes = NULL;
  g_autoptr(GBytes) png_after_bytes = NULL;
  g_autoptr(GBytes) svg_after_bytes = NULL;
  double x, y, frame_width, frame_height;

  g_assert_cmpstr (zoom_before, ==, "");
  png_before = export_and_check (fixture, GTK_WIDGET (flame_graph), "flame-graph");
  png_before_bytes = read_bytes (png_before);
  svg_before_bytes = read_bytes (svg_before);

  /* A click on the first frame below the root zooms into it */
  g_assert_true (_ps_flame_graph_get_frame (flame_graph, width, root, &x, &y, &frame_width, &frame_height));
  g_assert_cmpuint (_ps_flame_graph_get_n_children (flame_graph, root), >, 0);
  _ps_flame_graph_click (flame_graph, width, x + 3, y + frame_height + frame_height / 2);
  iterate_for (50);
  zoom_after = _ps_flame_graph_get_zoom_path (flame_graph);
  g_assert_cmpstr (zoom_after, !=, "");

  png_after = export_and_check (fixture, GTK_WIDGET (flame_graph), "flame-graph-zoomed");
  png_after_bytes = read_bytes (png_after);
  svg_after_bytes = read_bytes (svg_after);
  g_assert_false (g_bytes_equal (png_before_bytes, png_after_bytes));
  g_assert_false (g_bytes_equal (svg_before_bytes, svg_after_bytes));

  /* Back to the whole tree, the same picture as before */
  ps_flame_graph_zoom_reset (flame_graph);
  iterate_for (50);
  g_free (png_after);
  png_after = export_and_check (fixture, GTK_WIDGET (flame_graph), "flame-graph-reset");
  g_clear_pointer (&png_after_bytes, g_bytes_unref);
  png_after_bytes = read_bytes (png_after);
  g_assert_true (g_bytes_equal (png_before_bytes, png_after_bytes));
}

/* The differential graph: its legend with the colour scale is drawn too */
static void
test_flame_graph_diff (Fixture       *fixture,
                       gconstpointer  data)
{
  PsFlameGraph *flame_graph = open_flame_graph (fixture);
  PsCallTree *tree = ps_flame_graph_get_tree (flame_graph);
  g_autofree char *plain_path = NULL;
  g_autofree char *diff_path = NULL;
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GBytes) diff = NULL;
  double x, y, bar_width, bar_height, scale;
  int width = gtk_widget_get_width (GTK_WIDGET (flame_graph));

  plain_path = export_and_check (fixture, GTK_WIDGET (flame_graph), "flame-plain");
  plain = read_bytes (plain_path);
  /* The run against itself: every frame grey, the legend above them */
  ps_flame_graph_set_baseline_tree (flame_graph, tree);
  g_assert_nonnull (ps_flame_graph_get_baseline (flame_graph));
  g_assert_true (_ps_flame_graph_get_legend_bar (flame_graph, width, &x, &y, &bar_width, &bar_height, &scale));
  iterate_for (50);
  maybe_save_screenshot (fixture, "picture-export-flame-diff-screen");
  diff_path = export_and_check (fixture, GTK_WIDGET (flame_graph), "flame-diff");
  diff = read_bytes (diff_path);
  g_assert_false (g_bytes_equal (plain, diff));
}

static gboolean
counters_view_has_tree (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (ps_counters_view_get_tree_selection (data))) > 0;
}

static PsCounterChart *
open_counter_chart (Fixture *fixture)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", "typeperf-stdout.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);
  PsCountersView *view = ps_run_page_get_counters_view (page);
  PsCounterChart *chart;

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  g_assert_true (iterate_until (counters_view_has_tree, view));
  ps_counters_view_update_now (view);
  iterate_for (50);
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), >, 0);
  chart = ps_counters_view_get_chart (view, 0);
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), >, 0);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  return chart;
}

static void
test_counter_chart (Fixture       *fixture,
                    gconstpointer  data)
{
  PsCounterChart *chart = open_counter_chart (fixture);
  g_autofree char *png = export_and_check (fixture, GTK_WIDGET (chart), "counters");
}

/* Errors: a folder that does not exist, a size out of range */
static void
test_errors (Fixture       *fixture,
             gconstpointer  data)
{
  PsCounterChart *chart = open_counter_chart (fixture);
  g_autofree char *missing = g_build_filename (fixture->tmpdir, "no-such-folder", "counters.png", NULL);
  g_autofree char *existing = g_build_filename (fixture->tmpdir, "kept.png", NULL);
  g_autoptr(GFile) missing_file = g_file_new_for_path (missing);
  g_autoptr(GFile) existing_file = g_file_new_for_path (existing);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  GtkWidget *label = gtk_label_new ("x");

  g_assert_false (ps_picture_export_to_file (GTK_WIDGET (chart), missing_file, PS_PICTURE_FORMAT_PNG, 800, 500, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* A picture that cannot be made leaves a file there as it was */
  g_assert_true (g_file_set_contents (existing, "kept", -1, NULL));
  g_assert_false (ps_picture_export_to_file (GTK_WIDGET (chart), existing_file, PS_PICTURE_FORMAT_SVG, 0, 500, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (existing, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "kept");

  g_object_ref_sink (label);
  g_assert_false (ps_picture_export_supports (label));
  g_assert_false (ps_picture_export_to_file (label, existing_file, PS_PICTURE_FORMAT_PNG, 800, 500, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_object_unref (label);
}

static gboolean
write_png (GFile    *file,
           gpointer  chart,
           GError  **error)
{
  return ps_picture_export_to_file (chart, file, PS_PICTURE_FORMAT_PNG, 800, 500, error);
}

/* A write that fails half-way (the file size limit of the process stands
 * in for a full disk) leaves the picture that was there and no other file */
static void
test_write_failure (Fixture       *fixture,
                    gconstpointer  data)
{
  PsCounterChart *chart = open_counter_chart (fixture);
  g_autofree char *path = g_build_filename (fixture->tmpdir, "kept.png", NULL);

  assert_failed_write_keeps (path, 4096, write_png, chart);
}

static GtkWidget *
find_export_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_WINDOW (window) && gtk_widget_get_visible (window)
          && g_strcmp0 (gtk_window_get_title (GTK_WINDOW (window)), _("Export Picture")) == 0)
        return window;
    }
  return NULL;
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type,
                 guint      nth)
{
  guint seen = 0;
  g_autoptr(GQueue) queue = g_queue_new ();

  g_queue_push_tail (queue, widget);
  while (!g_queue_is_empty (queue))
    {
      GtkWidget *current = g_queue_pop_head (queue);

      if (G_TYPE_CHECK_INSTANCE_TYPE (current, type) && seen++ == nth)
        return current;
      for (GtkWidget *child = gtk_widget_get_first_child (current); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        g_queue_push_tail (queue, child);
    }
  return NULL;
}

static gboolean
popover_is_shown (gpointer data)
{
  GtkWidget *popover = find_descendant (data, GTK_TYPE_POPOVER_MENU, 0);

  return popover != NULL && gtk_widget_get_mapped (popover);
}

static gboolean
export_dialog_is_shown (gpointer data)
{
  return find_export_dialog () != NULL;
}

/* The keyboard's way: Shift+F10's action opens the menu, whose item opens
 * the dialog with the view's size filled in */
static void
test_menu_and_dialog (Fixture       *fixture,
                      gconstpointer  data)
{
  PsCounterChart *chart = open_counter_chart (fixture);
  GtkWidget *widget = GTK_WIDGET (chart);
  GtkWidget *dialog, *width_spin, *height_spin, *size_dropdown;

  g_assert_true (gtk_widget_activate_action (widget, "picture.menu", "(dd)", -1.0, -1.0));
  g_assert_true (iterate_until (popover_is_shown, widget));
  g_assert_true (gtk_widget_activate_action (widget, "picture.export", NULL));
  g_assert_true (iterate_until (export_dialog_is_shown, NULL));
  dialog = find_export_dialog ();
  width_spin = find_descendant (dialog, GTK_TYPE_SPIN_BUTTON, 0);
  height_spin = find_descendant (dialog, GTK_TYPE_SPIN_BUTTON, 1);
  size_dropdown = find_descendant (dialog, GTK_TYPE_DROP_DOWN, 1);
  g_assert_nonnull (width_spin);
  g_assert_nonnull (height_spin);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (width_spin)), ==, gtk_widget_get_width (widget));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (height_spin)), ==, gtk_widget_get_height (widget));

  /* The 1920 × 1080 preset, and a size typed in that is one of them */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (size_dropdown), 2);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (width_spin)), ==, 1920);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (height_spin)), ==, 1080);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (width_spin), 1280);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (size_dropdown)), ==, 5);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (height_spin), 720);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (size_dropdown)), ==, 1);

  gtk_window_destroy (GTK_WINDOW (dialog));
  iterate_for (50);
  g_assert_null (find_export_dialog ());

  /* Every view offers it */
  {
    GType types[] = { PS_TYPE_TIMELINE_VIEW, PS_TYPE_HISTOGRAM_VIEW, PS_TYPE_FLAME_GRAPH, PS_TYPE_COUNTER_CHART };

    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      {
        GtkWidgetClass *widget_class = g_type_class_ref (types[i]);
        gboolean found = FALSE;
        const GVariantType *parameter_type;
        const char *name, *property_name;
        GType owner;

        /* GTK 4.8 fills every one of them */
        for (guint a = 0; gtk_widget_class_query_action (widget_class, a, &owner, &name, &parameter_type, &property_name); a++)
          found |= g_str_equal (name, "picture.export");
        g_assert_true (found);
        g_type_class_unref (widget_class);
      }
  }
}

int
main (int    argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/picture-export/timeline", test_timeline);
  ADD_TEST ("/picture-export/histogram", test_histogram);
  ADD_TEST ("/picture-export/flame-graph", test_flame_graph);
  ADD_TEST ("/picture-export/flame-graph-diff", test_flame_graph_diff);
  ADD_TEST ("/picture-export/counter-chart", test_counter_chart);
  ADD_TEST ("/picture-export/errors", test_errors);
  ADD_TEST ("/picture-export/write-failure", test_write_failure);
  ADD_TEST ("/picture-export/menu-and-dialog", test_menu_and_dialog);

  return gui_test_run ();
}

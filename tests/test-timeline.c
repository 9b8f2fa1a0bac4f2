/* test-timeline.c — the timeline and the views it links (run under Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens the call-tree example of the RTL tests (thread 1: main 0–140 ms,
 * A 10–85, B 30–60, B 65–80, C 95–135 with B 120–130; thread 2: worker
 * 141–151) and checks what the timeline draws, where, and in what colour;
 * zoom, pan and the keyboard cursor; tooltips; and that a time range
 * selected on it filters the histogram and the call tree, while the
 * histogram's buckets and the call tree's function light up spans on it.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-call-tree-view-private.h"
#include "ps-ce-view-private.h"
#include "ps-marker-row.h"
#include "ps-chart-util.h"
#include "ps-counter-chart.h"
#include "ps-counters-view-private.h"
#include "ps-histogram-view-private.h"
#include "ps-rtl-view-private.h"
#include "ps-run-page-private.h"
#include "ps-scope-total-row.h"
#include "ps-selection-util.h"
#include "ps-store-builder.h"
#include "ps-timeline-render.h"
#include "ps-timeline-view.h"

#define MS G_GINT64_CONSTANT (1000000)

typedef struct
{
  PsRunPage      *page;
  PsTimelineView *view;
  PsSession      *session;
  PsEventStore   *store;
} Run;

static gboolean
timeline_is_ready (gpointer data)
{
  PsTimelineView *view = data;

  return ps_timeline_view_get_model (view) != NULL && widget_is_drawn (view);
}

static Run
open_run (Fixture    *fixture,
          const char *directory,
          const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", directory, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Run run;

  run.page = open_and_wait (fixture, file);
  g_assert_cmpint (ps_run_page_get_state (run.page), ==, PS_RUN_PAGE_LOADED);
  run.view = ps_run_page_get_timeline_view (run.page);
  run.session = ps_run_page_get_session (run.page);
  run.store = ps_run_page_get_store (run.page);
  g_assert_nonnull (run.session);
  g_assert_true (ps_timeline_view_get_session (run.view) == run.session);
  g_assert_true (iterate_until (timeline_is_ready, run.view));
  return run;
}

static Run
open_calltree_example (Fixture *fixture)
{
  return open_run (fixture, "rtl", "calltree_4711.log");
}

typedef struct
{
  int     width;
  int     height;
  gsize   stride;
  guchar *data;  /* GDK_MEMORY_DEFAULT: B G R A, premultiplied */
} Pixels;

static Pixels
grab (PsTimelineView *view)
{
  g_autoptr(GdkTexture) texture = NULL;
  Pixels pixels;

  iterate_for (50);
  texture = render_widget (GTK_WIDGET (view));
  pixels.width = gdk_texture_get_width (texture);
  pixels.height = gdk_texture_get_height (texture);
  pixels.stride = (gsize)pixels.width * 4;
  pixels.data = g_malloc (pixels.stride * pixels.height);
  gdk_texture_download (texture, pixels.data, pixels.stride);
  return pixels;
}

static gboolean
pixel_near (const Pixels  *pixels,
            int            x,
            int            y,
            const GdkRGBA *color)
{
  const guchar *p;
  double alpha;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, pixels->width);
  g_assert_cmpint (y, <, pixels->height);
  p = pixels->data + y * pixels->stride + x * 4;
  alpha = p[3] / 255.0;
  if (alpha < 0.5)
    return FALSE;
  return fabs (p[2] / 255.0 / alpha - color->red) < 0.06
         && fabs (p[1] / 255.0 / alpha - color->green) < 0.06
         && fabs (p[0] / 255.0 / alpha - color->blue) < 0.06;
}

/* The share of the pixels of row y from x0 to x1 in the colour: names
 * written into spans cover some of them */
static double
share_near (const Pixels  *pixels,
            int            x0,
            int            x1,
            int            y,
            const GdkRGBA *color)
{
  guint n = 0;

  for (int x = x0; x <= x1; x++)
    n += pixel_near (pixels, x, y, color);
  return (double)n / (x1 - x0 + 1);
}

static gboolean
is_dark (PsTimelineView *view)
{
  GdkRGBA foreground;

  ps_chart_get_foreground (GTK_WIDGET (view), &foreground);
  return 0.299 * foreground.red + 0.587 * foreground.green + 0.114 * foreground.blue > 0.5;
}

/* Tests */

static void
test_model (Fixture       *fixture,
            gconstpointer  data)
{
  Run run = open_calltree_example (fixture);
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  const PsTimelineRow *row;
  gint64 begin, end;

  /* A group, then a row per thread with its depths */
  g_assert_false (model->sequence_axis);
  g_assert_cmpuint (model->rows->len, ==, 3);
  row = g_ptr_array_index (model->rows, 0);
  g_assert_cmpint (row->kind, ==, PS_TIMELINE_ROW_GROUP);
  row = g_ptr_array_index (model->rows, 1);
  g_assert_cmpint (row->kind, ==, PS_TIMELINE_ROW_SPANS);
  g_assert_cmpstr (row->label, ==, "Thread 1");
  g_assert_cmpuint (row->n_depths, ==, 3);
  row = g_ptr_array_index (model->rows, 2);
  g_assert_cmpstr (row->label, ==, "Thread 2");
  g_assert_cmpuint (row->n_depths, ==, 1);

  /* The whole run is shown: 0 to 151 ms, from the header's origin */
  g_assert_cmpint (model->extent_begin, ==, 0);
  g_assert_cmpint (model->extent_end, ==, 151 * MS);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 151 * MS);
  g_assert_cmpint (model->origin_unix_ns, ==, G_GINT64_CONSTANT (1246545872402817000));
  {
    g_autofree char *wall = ps_timeline_format_wall (model, 0);

    g_assert_cmpstr (wall, ==, "2009-07-02 14:44:32.402 UTC");
  }

  /* Collapsing the group hides the threads */
  row = g_ptr_array_index (model->rows, 0);
  gtk_widget_grab_focus (GTK_WIDGET (run.view));
  ((PsTimelineRow *)row)->collapsed = TRUE;
  ps_timeline_model_layout (model);
  g_assert_true (((PsTimelineRow *)g_ptr_array_index (model->rows, 1))->hidden);
  g_assert_cmpfloat (model->rows_height, ==, PS_TIMELINE_GROUP_HEIGHT);
  ((PsTimelineRow *)row)->collapsed = FALSE;
  ps_timeline_model_layout (model);
  g_assert_false (((PsTimelineRow *)g_ptr_array_index (model->rows, 1))->hidden);
}

/* A span is drawn where its time is, in its name's colour, at its depth */
static void
test_pixels (Fixture       *fixture,
             gconstpointer  data)
{
  Run run = open_calltree_example (fixture);
  guint64 span_a = find_span (run.store, "::A", 10 * MS);
  guint64 span_c = find_span (run.store, "::C", 95 * MS);
  const PsSpan *a = ps_event_store_get_span (run.store, span_a);
  const PsSpan *c = ps_event_store_get_span (run.store, span_c);
  GdkRGBA color_a, color_c;
  g_autofree guchar *data_1 = NULL;
  Pixels pixels;
  double a_left = ps_timeline_view_x_of (run.view, a->begin_ns);
  double a_right = ps_timeline_view_x_of (run.view, a->end_ns);
  double c_left = ps_timeline_view_x_of (run.view, c->begin_ns);
  double y = ps_timeline_view_span_y (run.view, span_a);
  const PsTimelineStats *stats;

  ps_timeline_span_color (a->name, is_dark (run.view), &color_a);
  ps_timeline_span_color (c->name, is_dark (run.view), &color_c);
  g_assert_cmpfloat (y, >, PS_TIMELINE_HEADER_HEIGHT);
  g_assert_cmpfloat (a_right - a_left, >, 50);
  pixels = grab (run.view);
  data_1 = pixels.data;

  /* A: its range in its colour (its name covers part of it), C after it
   * on the same depth; between them nothing of either */
  g_assert_cmpfloat (share_near (&pixels, (int)a_left + 2, (int)a_right - 3, (int)y, &color_a), >, 0.6);
  g_assert_cmpfloat (share_near (&pixels, (int)c_left + 2, (int)ps_timeline_view_x_of (run.view, c->end_ns) - 3,
                                 (int)y, &color_c), >, 0.6);
  g_assert_cmpfloat (share_near (&pixels, (int)a_right + 2, (int)c_left - 2, (int)y, &color_a), ==, 0);
  g_assert_cmpfloat (share_near (&pixels, (int)a_right + 2, (int)c_left - 2, (int)y, &color_c), ==, 0);
  /* Above depth 1 is main at depth 0, below A is B */
  g_assert_true (ps_timeline_view_span_y (run.view, find_span (run.store, "::main", 0)) < y);

  stats = ps_timeline_view_get_frame_stats (run.view);
  g_assert_cmpuint (stats->n_spans, ==, 7);
  g_assert_cmpuint (stats->n_merged, ==, 0);
  maybe_save_screenshot (fixture, "timeline-calltree");
}

static void
test_zoom_and_pan (Fixture       *fixture,
                   gconstpointer  data)
{
  Run run = open_calltree_example (fixture);
  gint64 begin, end, length;

  gtk_widget_grab_focus (GTK_WIDGET (run.view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run.view), "timeline.zoom-in", NULL));
  ps_session_get_visible_range (run.session, &begin, &end);
  length = end - begin;
  /* 1.5 × around the middle */
  g_assert_cmpint (llabs (length - (gint64)(151 * MS / 1.5)), <=, 1);
  g_assert_cmpint (llabs ((begin + end) / 2 - 151 * MS / 2), <=, 1);

  gtk_widget_activate_action (GTK_WIDGET (run.view), "timeline.pan-right", NULL);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (end - begin, ==, length);
  g_assert_cmpint (begin, >, 151 * MS / 2 - length / 2);

  /* Never past the run's end */
  for (guint i = 0; i < 20; i++)
    gtk_widget_activate_action (GTK_WIDGET (run.view), "timeline.pan-right", NULL);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (end, ==, 151 * MS);

  /* Zoom to a selection, then back to the whole run */
  ps_session_set_selection (run.session, 30 * MS, 60 * MS);
  gtk_widget_activate_action (GTK_WIDGET (run.view), "timeline.zoom-selection", NULL);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, <=, 30 * MS);
  g_assert_cmpint (end, >=, 60 * MS);
  g_assert_cmpint (end - begin, <=, 34 * MS);
  gtk_widget_activate_action (GTK_WIDGET (run.view), "timeline.reset", NULL);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 151 * MS);

  /* Zooming in all the way stops at a microsecond across */
  for (guint i = 0; i < 60; i++)
    ps_timeline_view_zoom (run.view, 10, 400);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (end - begin, ==, 1000);
}

static void
test_keyboard (Fixture       *fixture,
               gconstpointer  data)
{
  Run run = open_calltree_example (fixture);
  GtkWidget *widget = GTK_WIDGET (run.view);
  guint64 main_span = find_span (run.store, "::main", 0);
  guint64 span_a = find_span (run.store, "::A", 10 * MS);
  guint64 span_c = find_span (run.store, "::C", 95 * MS);
  guint64 span_b = find_span (run.store, "::B", 30 * MS);
  gint64 begin, end;

  gtk_widget_grab_focus (widget);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, PS_SPAN_LOD_NO_SPAN);

  /* Right puts the cursor on a span of the first thread: main */
  gtk_widget_activate_action (widget, "timeline.right", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, main_span);
  /* Down: its first child; right: the next one on that depth; up: the parent */
  gtk_widget_activate_action (widget, "timeline.down", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, span_a);
  gtk_widget_activate_action (widget, "timeline.right", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, span_c);
  gtk_widget_activate_action (widget, "timeline.right", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, span_c);
  gtk_widget_activate_action (widget, "timeline.left", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, span_a);
  gtk_widget_activate_action (widget, "timeline.down", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, span_b);
  gtk_widget_activate_action (widget, "timeline.up", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, span_a);
  /* Without a pointer for tooltips, a line at the bottom tells the same */
  g_assert_nonnull (strstr (ps_timeline_view_get_status (run.view), "::A · Duration: 75.000 ms · From 10.000 ms to 85.000 ms"));

  /* Enter selects the cursor's span and zooms to it */
  gtk_widget_activate_action (widget, "timeline.activate", NULL);
  g_assert_true (ps_session_get_selection (run.session, &begin, &end));
  g_assert_cmpint (begin, ==, 10 * MS);
  g_assert_cmpint (end, ==, 85 * MS);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, <=, 10 * MS);
  g_assert_cmpint (end, >=, 85 * MS);
  g_assert_cmpint (end - begin, <, 85 * MS);

  /* The keyboard tooltip and the accessible description read the span */
  {
    g_autofree char *text = ps_timeline_view_describe_at (run.view, ps_timeline_view_x_of (run.view, 50 * MS),
                                                          ps_timeline_view_span_y (run.view, span_a));

    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, "::A"));
    g_assert_nonnull (strstr (text, "Duration: 75.000 ms"));
  }

  /* Escape: first the selection, then the cursor */
  gtk_widget_activate_action (widget, "timeline.clear", NULL);
  g_assert_false (ps_session_get_selection (run.session, NULL, NULL));
  gtk_widget_activate_action (widget, "timeline.clear", NULL);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_null (ps_timeline_view_get_status (run.view));
}

static void
test_tooltips (Fixture       *fixture,
               gconstpointer  data)
{
  Run run = open_calltree_example (fixture);
  guint64 worker = find_span (run.store, "::worker", 141 * MS);
  g_autofree char *text = NULL;
  g_autofree char *nothing = NULL;
  g_autofree char *group = NULL;

  text = ps_timeline_view_describe_at (run.view, ps_timeline_view_x_of (run.view, 146 * MS),
                                       ps_timeline_view_span_y (run.view, worker));
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "demo (ab000001) ::worker"));
  g_assert_nonnull (strstr (text, "Duration: 10.000 ms"));
  g_assert_nonnull (strstr (text, "From 141.000 ms to 151.000 ms"));
  g_assert_nonnull (strstr (text, "2009-07-02 14:44:32.543 UTC"));

  /* Thread 2 has nothing before 141 ms */
  nothing = ps_timeline_view_describe_at (run.view, ps_timeline_view_x_of (run.view, 50 * MS),
                                          ps_timeline_view_span_y (run.view, worker));
  g_assert_null (nothing);
  group = ps_timeline_view_describe_at (run.view, 30, PS_TIMELINE_HEADER_HEIGHT + 5);
  g_assert_nonnull (strstr (group, "Threads"));
}

static PsScopeTotalRow *
select_total (PsRtlView  *view,
              const char *suffix)
{
  GListModel *model = ps_rtl_view_get_totals_model (view);
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_rtl_view_get_totals_view (view));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (model, i);

      if (g_str_has_suffix (ps_scope_total_row_get_name (row), suffix))
        {
          gtk_selection_model_select_item (selection, i, TRUE);
          return row;
        }
    }
  g_assert_not_reached ();
}

static gboolean
has_highlight (gpointer data)
{
  return ps_session_get_highlight (data) != NULL;
}

/* The highlight is the selected total's: the three calls of B */
static gboolean
highlights_all_of_total (gpointer data)
{
  Run *run = data;
  PsSpanLod *highlight = ps_session_get_highlight (run->session);
  const char *description = ps_session_get_highlight_description (run->session);

  return highlight != NULL && g_str_has_suffix (description, "::B")
         && ps_span_lod_get_n_spans (highlight, ps_event_store_get_span (run->store, 0)->track) == 3;
}

/* A time range selected on the timeline filters the histogram and the call
 * tree; the histogram's buckets and the call tree's function light up
 * their spans on it */
static void
test_linked_views (Fixture       *fixture,
                   gconstpointer  data)
{
  Run run = open_calltree_example (fixture);
  PsRtlView *rtl_view = ps_run_page_get_rtl_view (run.page);
  PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (rtl_view));
  PsCallTreeView *call_tree = ps_run_view_get_call_tree_view (PS_RUN_VIEW (rtl_view));
  guint64 span_b = find_span (run.store, "::B", 30 * MS);
  g_autofree guchar *before_data = NULL;
  g_autofree guchar *after_data = NULL;
  Pixels before, after;
  GdkRGBA color_b;
  PsSpanLod *highlight;
  double b_x, b_x2, b_y;

  ps_rtl_view_show_page (rtl_view, "totals");
  select_total (rtl_view, "::B");
  g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, 3);
  g_assert_false (ps_call_tree_view_has_span_selection (call_tree));

  /* 25–90 ms holds B 30–60 and B 65–80, not B 120–130 */
  ps_session_set_selection (run.session, 25 * MS, 90 * MS);
  g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, 2);
  g_assert_true (ps_call_tree_view_has_span_selection (call_tree));
  g_assert_true (iterate_until (call_tree_is_idle, call_tree));
  {
    PsCallTree *tree = ps_call_tree_view_get_tree (call_tree);
    guint32 b = ps_call_tree_lookup_function (tree, "::B");
    guint32 c = ps_call_tree_lookup_function (tree, "::C");

    g_assert_cmpuint (b, !=, PS_NONE);
    /* Only what lies wholly inside: A (10–85) does not, C is outside */
    g_assert_cmpuint (ps_call_tree_get_function_stats (tree, b)->calls, ==, 2);
    g_assert_cmpfloat_with_epsilon (ps_call_tree_get_function_stats (tree, b)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE],
                                    45 * MS, 1);
    g_assert_cmpuint (c, ==, PS_NONE);
  }

  /* The totals follow, computed again in a worker: B keeps its row and
   * counts its 2 calls in the range; C (95–135 ms) is gone */
  g_assert_true (iterate_until (run_view_is_idle, rtl_view));
  {
    GListModel *totals = ps_rtl_view_get_totals_model (rtl_view);
    GtkSelectionModel *selection = gtk_column_view_get_model (ps_rtl_view_get_totals_view (rtl_view));
    PsScopeTotalRow *selected = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
    gboolean has_c = FALSE;

    g_assert_nonnull (selected);
    g_assert_true (g_str_has_suffix (ps_scope_total_row_get_name (selected), "::B"));
    g_assert_cmpuint (ps_scope_total_row_get_series (selected)->stats.count, ==, 2);
    for (guint i = 0; i < g_list_model_get_n_items (totals); i++)
      {
        g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (totals, i);

        has_c |= g_str_has_suffix (ps_scope_total_row_get_name (row), "::C");
      }
    g_assert_false (has_c);
    g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, 2);
  }

  /* Cleared: everything again */
  ps_session_clear_selection (run.session);
  g_assert_true (iterate_until (run_view_is_idle, rtl_view));
  g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, 3);
  g_assert_false (ps_call_tree_view_has_span_selection (call_tree));

  /* A bucket range lights its calls up on the timeline: B 30–60 is the
   * longest, in the last bucket */
  before = grab (run.view);
  before_data = before.data;
  ps_histogram_view_select_bins (histogram, ps_histogram_view_get_histogram (histogram)->n_bins - 1,
                                 ps_histogram_view_get_histogram (histogram)->n_bins - 1);
  g_assert_true (iterate_until (has_highlight, run.session));
  highlight = ps_session_get_highlight (run.session);
  g_assert_cmpuint (ps_span_lod_get_n_spans (highlight, ps_event_store_get_span (run.store, span_b)->track), ==, 1);
  g_assert_cmpuint (ps_span_lod_find (highlight, ps_event_store_get_span (run.store, span_b)->track, 2, 45 * MS, 0),
                    ==, span_b);

  /* Drawn: B keeps its colour, its neighbour B 65–80 fades */
  after = grab (run.view);
  after_data = after.data;
  ps_timeline_span_color (ps_event_store_get_span (run.store, span_b)->name, is_dark (run.view), &color_b);
  b_y = ps_timeline_view_span_y (run.view, span_b);
  b_x = ps_timeline_view_x_of (run.view, 32 * MS);
  b_x2 = ps_timeline_view_x_of (run.view, 58 * MS);
  g_assert_cmpfloat (share_near (&after, (int)b_x, (int)b_x2, (int)b_y, &color_b), >, 0.6);
  b_x = ps_timeline_view_x_of (run.view, 67 * MS);
  b_x2 = ps_timeline_view_x_of (run.view, 78 * MS);
  g_assert_cmpfloat (share_near (&before, (int)b_x, (int)b_x2, (int)b_y, &color_b), >, 0.3);
  g_assert_cmpfloat (share_near (&after, (int)b_x, (int)b_x2, (int)b_y, &color_b), ==, 0);
  maybe_save_screenshot (fixture, "timeline-highlight");

  /* Unselected: the selected total's calls, all three of B (docs/selection.md) */
  ps_histogram_view_unselect (histogram);
  g_assert_true (iterate_until (highlights_all_of_total, &run));

  /* A function chosen in the call tree lights up all its calls */
  ps_rtl_view_show_page (rtl_view, "calltree");
  g_signal_emit_by_name (call_tree, "function-selected",
                         ps_call_tree_lookup_function (ps_call_tree_view_get_tree (call_tree), "::B"));
  g_assert_true (iterate_until (has_highlight, run.session));
  highlight = ps_session_get_highlight (run.session);
  g_assert_cmpuint (ps_span_lod_get_n_spans (highlight, ps_event_store_get_span (run.store, span_b)->track), ==, 3);
  g_assert_cmpstr (ps_session_get_highlight_description (run.session), ==, "Calls of ::B");
}

/* Dragging on the rows selects a time range */
static void
test_drag_select (Fixture       *fixture,
                  gconstpointer  data)
{
  Run run = open_calltree_example (fixture);
  gint64 begin, end;
  double x0 = ps_timeline_view_x_of (run.view, 20 * MS);
  double x1 = ps_timeline_view_x_of (run.view, 100 * MS);
  double y = PS_TIMELINE_HEADER_HEIGHT + 40;

  ps_timeline_view_drag (run.view, x0, y, x1, y);
  g_assert_true (ps_session_get_selection (run.session, &begin, &end));
  /* Within a pixel of where the pointer was */
  g_assert_cmpint (llabs (begin - 20 * MS), <, 151 * MS / 500);
  g_assert_cmpint (llabs (end - 100 * MS), <, 151 * MS / 500);
  maybe_save_screenshot (fixture, "timeline-selection");
}

/* CE measurements have no timestamps: charts over their sequence */
static void
test_ce_sequence (Fixture       *fixture,
                  gconstpointer  data)
{
  Run run = open_run (fixture, "ce", "fsperf_CEPC_x86_6_0_3122.log");
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  guint n_values = 0;
  const PsTimelineStats *stats;

  g_assert_true (model->sequence_axis);
  for (guint i = 0; i < model->rows->len; i++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, i);

      if (row->kind == PS_TIMELINE_ROW_VALUES)
        {
          n_values++;
          g_assert_cmpuint (ps_value_lod_get_n_points (row->values), >, 0);
        }
    }
  g_assert_cmpuint (n_values, >, 0);

  /* A duration chart's points are its measurements' ticks / the tick
   * rate, to the bit (kept as ticks in 32 bits and the rate) */
  {
    guint n_tracks = ps_event_store_get_n_tracks (run.store);
    g_autofree const PsTimelineRow **duration_rows = g_new0 (const PsTimelineRow *, n_tracks);
    g_autofree gsize *n_seen = g_new0 (gsize, n_tracks);
    gsize n_checked = 0, n_durations = 0;
    PsMeasurementIter iter;
    PsMeasurement m;

    for (guint i = 0; i < model->rows->len; i++)
      {
        const PsTimelineRow *row = g_ptr_array_index (model->rows, i);

        if (row->kind == PS_TIMELINE_ROW_VALUES && g_strcmp0 (row->unit, "ms") == 0)
          duration_rows[row->track] = row;
      }
    ps_measurement_iter_init (&iter, run.store);
    while (ps_measurement_iter_next (&iter, &m))
      {
        const PsTimelineRow *row = m.kind == PS_MEASURE_DURATION ? duration_rows[m.track] : NULL;
        guint32 session = ps_event_store_get_track (run.store, m.track)->session;
        double rate = ps_event_store_get_tick_rate (run.store, session, m.index);
        double expected = (double)m.value.ticks / rate;
        gint64 x;
        double value;

        n_durations += m.kind == PS_MEASURE_DURATION;
        if (row == NULL)
          continue;
        g_assert_cmpfloat (rate, >, 0);
        g_assert_true (ps_value_lod_get_point (row->values, n_seen[m.track]++, &x, &value));
        g_assert_cmpint (x, ==, (gint64)m.index);
        g_assert_cmpmem (&value, sizeof (double), &expected, sizeof (double));
        n_checked++;
      }
    for (guint t = 0; t < n_tracks; t++)
      if (duration_rows[t] != NULL)
        g_assert_cmpuint (n_seen[t], ==, ps_value_lod_get_n_points (duration_rows[t]->values));
    /* Every one, on the chart of its marker instance */
    g_assert_cmpuint (n_checked, >, 0);
    g_assert_cmpuint (n_checked, ==, n_durations);
  }
  {
    g_autofree char *tick = ps_timeline_format_x (model, 1204, 1);

    g_assert_cmpstr (tick, ==, "#1204");
  }
  g_free (grab (run.view).data);
  stats = ps_timeline_view_get_frame_stats (run.view);
  g_assert_cmpuint (stats->n_points, >, 0);
  g_assert_cmpuint (stats->n_items, ==, 0);
  maybe_save_screenshot (fixture, "timeline-ce");

  /* A range of the sequence limits the marker table to its measurements:
   * every row counts the durations of its markers with an index inside */
  {
    PsCeView *ce_view = ps_run_page_get_ce_view (run.page);
    GListModel *markers = ps_ce_view_get_marker_model (ce_view);
    guint64 n_measurements = ps_event_store_get_n_measurements (run.store);
    guint64 first = n_measurements / 4, last = n_measurements / 2;
    guint checked = 0;

    ps_session_set_selection (run.session, (gint64)first, (gint64)last);
    g_assert_true (iterate_until (run_view_is_idle, ce_view));
    for (guint i = 0; i < g_list_model_get_n_items (markers); i++)
      {
        g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (markers, i);
        PsMarkerRow *row = gtk_tree_list_row_get_item (tree_row);
        const PsSeries *series = ps_marker_row_get_series (row);
        guint64 expected = 0;
        PsMeasurementIter iter;
        PsMeasurement m;

        ps_measurement_iter_init (&iter, run.store);
        while (ps_measurement_iter_next (&iter, &m))
          for (guint t = 0; t < series->n_instances; t++)
            expected += m.kind == PS_MEASURE_DURATION && m.track == series->tracks[t]
                        && !(m.flags & PS_MEASURE_FLAG_NEGATIVE) && m.index >= first && m.index <= last;
        g_assert_cmpuint (ps_marker_row_get_count (row), ==, expected);
        checked += expected > 0;
        g_object_unref (row);
      }
    g_assert_cmpuint (checked, >, 0);

    /* The histogram of a selected marker has its durations in the range */
    {
      GtkSelectionModel *selection = gtk_column_view_get_model (ps_ce_view_get_marker_view (ce_view));
      PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (ce_view));
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (markers, 0);
      g_autoptr(PsMarkerRow) row = gtk_tree_list_row_get_item (tree_row);

      gtk_selection_model_select_item (selection, 0, TRUE);
      g_assert_true (iterate_until (run_view_is_idle, ce_view));
      g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, ps_marker_row_get_count (row));
      g_assert_cmpfloat_with_epsilon (ps_histogram_view_get_histogram (histogram)->sum, ps_marker_row_get_total (row), 1e-9);
    }

    /* Cleared: all of them again */
    ps_session_clear_selection (run.session);
    g_assert_true (iterate_until (run_view_is_idle, ce_view));
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (markers, 0);
      g_autoptr(PsMarkerRow) row = gtk_tree_list_row_get_item (tree_row);

      g_assert_cmpuint (ps_marker_row_get_count (row), ==, ps_marker_row_get_series (row)->stats.count);
      /* The histogram, of the same marker, has all its durations again */
      g_assert_cmpuint (ps_histogram_view_get_histogram (ps_run_view_get_histogram_view (PS_RUN_VIEW (ce_view)))->n_values, ==,
                        ps_marker_row_get_count (row));
    }
  }
}

/* The divider under the timeline stays where the user put it, and runs
 * opened later start with it there */
static void
test_split_remembered (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GVariant) fractions = NULL;
  Run first = open_calltree_example (fixture);
  Run second;
  double kept = 0;
  int height;

  gtk_paned_set_position (ps_run_page_get_paned (first.page), 180);
  /* The position is kept once the divider has settled for 300 ms */
  g_assert_true (wait_for_pane_fraction ("run-page"));
  fractions = g_settings_get_value (settings, "pane-fractions");
  g_assert_true (g_variant_lookup (fractions, "run-page", "d", &kept));
  second = open_run (fixture, "rtl", "startup_4711.log");
  g_assert_true (second.page != first.page);
  iterate_for (50);
  /* As the same share of the page, which the tab bar of two tabs makes
   * shorter */
  height = gtk_widget_get_height (GTK_WIDGET (ps_run_page_get_paned (second.page)));
  g_assert_cmpfloat (fabs (gtk_paned_get_position (ps_run_page_get_paned (second.page)) - kept * height), <=, 1.0);
}

/* Two counters on one chart: each line where its value is, in its colour,
 * and a read-out of both at the pointer */
static void
test_counter_chart (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *chart = ps_counter_chart_new ();
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  gint64 x[101];
  double busy[101], idle[101];
  g_autoptr(PsValueLod) busy_lod = NULL;
  g_autoptr(PsValueLod) idle_lod = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *data_1 = NULL;
  g_autofree char *readout = NULL;
  graphene_rect_t plot;
  Pixels pixels;
  GdkRGBA color;
  guint found = 0;

  /* Every 10 ms for a second: one CPU at 80 %, the other at 20 % with a
   * reading missing in the middle */
  for (guint i = 0; i <= 100; i++)
    {
      x[i] = i * 10 * MS;
      busy[i] = 80;
      idle[i] = i == 50 ? NAN : 20;
    }
  busy_lod = ps_value_lod_new (x, busy, 101);
  idle_lod = ps_value_lod_new (x, idle, 101);
  ps_counter_chart_set_title (PS_COUNTER_CHART (chart), "Processor time");
  ps_counter_chart_set_unit (PS_COUNTER_CHART (chart), "%", 1);
  g_assert_cmpuint (ps_counter_chart_add_series (PS_COUNTER_CHART (chart), "CPU 0", busy_lod), ==, 0);
  g_assert_cmpuint (ps_counter_chart_add_series (PS_COUNTER_CHART (chart), "CPU 1", idle_lod), ==, 1);

  gtk_window_set_application (window, GTK_APPLICATION (fixture->app));
  gtk_window_set_default_size (window, 640, 260);
  gtk_window_set_child (window, chart);
  gtk_window_present (window);
  g_assert_true (iterate_until (widget_is_drawn, chart));
  iterate_for (50);

  g_assert_true (ps_counter_chart_get_plot (PS_COUNTER_CHART (chart), &plot));
  texture = render_widget (chart);
  pixels.width = gdk_texture_get_width (texture);
  pixels.height = gdk_texture_get_height (texture);
  pixels.stride = (gsize)pixels.width * 4;
  pixels.data = data_1 = g_malloc (pixels.stride * pixels.height);
  gdk_texture_download (texture, pixels.data, pixels.stride);

  /* The y axis runs from 0 to 80: CPU 0 along the top of the plot, CPU 1
   * a quarter of the way up; look for each colour within two pixels */
  for (guint series = 0; series < 2; series++)
    {
      double value = series == 0 ? 80 : 20;
      double y = plot.origin.y + plot.size.height - value / 80 * plot.size.height;
      int column = (int)(plot.origin.x + plot.size.width * 0.25);
      gboolean seen = FALSE;

      ps_counter_chart_get_color (PS_COUNTER_CHART (chart), series, &color);
      for (int dy = -2; dy <= 2 && !seen; dy++)
        seen = pixel_near (&pixels, column, (int)round (y) + dy, &color);
      found += seen;
    }
  g_assert_cmpuint (found, ==, 2);

  readout = ps_counter_chart_describe_at (PS_COUNTER_CHART (chart), plot.origin.x + plot.size.width * 0.25);
  g_assert_nonnull (strstr (readout, "CPU 0: 80.00 %"));
  g_assert_nonnull (strstr (readout, "CPU 1: 20.00 %"));
  g_assert_null (ps_counter_chart_describe_at (PS_COUNTER_CHART (chart), 1));

  /* The keyboard moves the read-out from the plot's left edge on */
  gtk_widget_grab_focus (chart);
  g_assert_true (gtk_widget_activate_action (chart, "chart.move", "d", 1.0));
  g_assert_cmpfloat (ps_counter_chart_get_readout_x (PS_COUNTER_CHART (chart)), ==, plot.origin.x);
  gtk_widget_activate_action (chart, "chart.move", "d", 20.0);
  g_assert_cmpfloat (ps_counter_chart_get_readout_x (PS_COUNTER_CHART (chart)), ==, plot.origin.x + 20);
  gtk_widget_activate_action (chart, "chart.move", "d", 1e6);
  g_assert_cmpfloat (ps_counter_chart_get_readout_x (PS_COUNTER_CHART (chart)), ==, plot.origin.x + plot.size.width);
  gtk_widget_activate_action (chart, "chart.hide-readout", NULL);
  g_assert_cmpfloat (ps_counter_chart_get_readout_x (PS_COUNTER_CHART (chart)), <, 0);

  gtk_window_destroy (window);
}

/* A sampled run: the busiest threads first, as sample rates over time;
 * untimed samples and threads without samples have no row */
static void
test_sample_rows (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsTimelineModel) model = NULL;
  guint32 tracks[3];
  guint32 stack;
  const PsTimelineRow *busy, *burst;
  gsize n_points;
  double sum_busy = 0, sum_burst = 0;

  ps_event_store_add_session (store, 0, FALSE);
  for (guint t = 0; t < 3; t++)
    {
      PsTrack track = { 0 };
      g_autofree char *name = g_strdup_printf ("worker-%u", t);

      track.name = ps_event_store_intern (store, name, -1);
      track.parent = PS_NONE;
      track.number = 100 + t;
      track.kind = PS_TRACK_THREAD;
      tracks[t] = ps_event_store_add_track (store, &track);
    }
  stack = ps_event_store_intern_stack (store, 0, ps_event_store_intern_frame (store, ps_event_store_intern (store, "spin", -1), 0, 0));

  /* worker-0: every 5 ms for a second; worker-1: 40 samples in 100 ms
   * from 500 ms on; worker-2: only an untimed sample */
  for (guint i = 0; i < 200; i++)
    {
      PsSample sample = { i * 5 * MS, tracks[0], stack, 1, PS_SAMPLE_FLAG_NONE, 0 };
      ps_store_builder_add_sample (builder, &sample);
    }
  for (guint i = 0; i < 40; i++)
    {
      PsSample sample = { 500 * MS + i * 2500000, tracks[1], stack, 1, PS_SAMPLE_FLAG_NONE, 0 };
      ps_store_builder_add_sample (builder, &sample);
    }
  {
    PsSample sample = { 0, tracks[2], stack, 7, PS_SAMPLE_FLAG_UNTIMED, 0 };
    ps_store_builder_add_sample (builder, &sample);
  }
  ps_store_builder_flush (builder);

  model = ps_timeline_model_new (store, NULL);
  /* The rates (closed), then a lane of ticks per thread with timed
   * samples, the busiest first */
  g_assert_cmpuint (model->rows->len, ==, 6);
  g_assert_cmpint (((PsTimelineRow *)g_ptr_array_index (model->rows, 0))->kind, ==, PS_TIMELINE_ROW_GROUP);
  g_assert_cmpstr (((PsTimelineRow *)g_ptr_array_index (model->rows, 0))->label, ==, "Samples");
  g_assert_true (((PsTimelineRow *)g_ptr_array_index (model->rows, 0))->collapsed);
  g_assert_cmpint (((PsTimelineRow *)g_ptr_array_index (model->rows, 3))->kind, ==, PS_TIMELINE_ROW_GROUP);
  g_assert_cmpstr (((PsTimelineRow *)g_ptr_array_index (model->rows, 3))->label, ==, "Samples of 2 threads, a tick each");
  for (guint r = 4; r < 6; r++)
    {
      const PsTimelineRow *lane = g_ptr_array_index (model->rows, r);
      guint64 nearest = 0, n_here = 0;

      g_assert_cmpint (lane->kind, ==, PS_TIMELINE_ROW_SAMPLES);
      g_assert_cmpuint (lane->track, ==, tracks[r - 4]);
      g_assert_nonnull (strstr (lane->tooltip, r == 4 ? "200 samples" : "40 samples"));
      /* The sample nearest to a time, and how many lie within the slop */
      g_assert_true (ps_timeline_lane_find (lane, store, r == 4 ? 12 * MS : 501 * MS, 3 * MS, &nearest, &n_here));
      g_assert_cmpint (ps_event_store_get_sample (store, nearest)->time_ns, ==, r == 4 ? 10 * MS : 500 * MS);
      g_assert_cmpuint (n_here, ==, r == 4 ? 2 : 2);
      g_assert_false (ps_timeline_lane_find (lane, store, r == 4 ? 1200 * MS : 400 * MS, MS, NULL, NULL));
    }
  busy = g_ptr_array_index (model->rows, 1);
  burst = g_ptr_array_index (model->rows, 2);
  g_assert_cmpuint (busy->track, ==, tracks[0]);
  g_assert_cmpuint (burst->track, ==, tracks[1]);
  g_assert_cmpstr (busy->unit, ==, "samples/s");
  g_assert_nonnull (strstr (busy->tooltip, "200 samples"));

  /* 200 samples of the busiest thread: 25 bins of about 40 ms */
  n_points = ps_value_lod_get_n_points (busy->values);
  g_assert_cmpuint (n_points, ==, 25);
  for (gsize i = 0; i < n_points; i++)
    {
      gint64 x, x_burst;
      double rate, rate_burst;

      g_assert_true (ps_value_lod_get_point (busy->values, i, &x, &rate));
      g_assert_true (ps_value_lod_get_point (burst->values, i, &x_burst, &rate_burst));
      g_assert_cmpint (x, ==, x_burst);
      /* 200 samples a second, give or take a sample a bin */
      g_assert_cmpfloat (fabs (rate - 200), <, 30);
      if (x + 40 * MS < 500 * MS || x > 600 * MS)
        g_assert_cmpfloat (rate_burst, ==, 0);
      sum_busy += rate;
      sum_burst += rate_burst;
    }
  /* Rates × bin width give the counts back */
  {
    gint64 x0, x1;
    double ignored;

    ps_value_lod_get_point (busy->values, 0, &x0, &ignored);
    ps_value_lod_get_point (busy->values, 1, &x1, &ignored);
    g_assert_cmpfloat (fabs (sum_busy * (double)(x1 - x0) / 1e9 - 200), <, 1e-6);
    g_assert_cmpfloat (fabs (sum_burst * (double)(x1 - x0) / 1e9 - 40), <, 1e-6);
  }
  g_assert_cmpint (model->extent_begin, ==, 0);
  g_assert_cmpint (model->extent_end, ==, 995 * MS);
}

/* A chart row's read-out writes its value by the one rule for digits: no
 * more than two decimals and no exponent ("42.96 %", not "42.9612 %") */
static void
test_value_tooltip (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *path = demo_file_path ("perfmon_4cpu.csv");
  RunViews run = open_run_views (fixture, path);
  PsTimelineModel *model = ps_timeline_view_get_model (run.timeline);
  double scroll_y = gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (run.timeline)));
  const PsTimelineRow *row = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GRegex) number = g_regex_new ("^(\\d{1,3}(,\\d{3})*|\\d+)(\\.\\d{1,2})? ", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *digits = NULL;
  gint64 point_x;
  double value;

  for (guint r = 0; r < model->rows->len && row == NULL; r++)
    {
      const PsTimelineRow *candidate = g_ptr_array_index (model->rows, r);

      if (candidate->kind == PS_TIMELINE_ROW_VALUES && !candidate->hidden
          && timeline_row_in_view (run.timeline, candidate->track))
        row = candidate;
    }
  g_assert_nonnull (row);
  g_assert_true (ps_value_lod_get_point (row->values, ps_value_lod_get_n_points (row->values) / 2, &point_x, &value));

  text = ps_timeline_view_describe_at (run.timeline, ps_timeline_view_x_of (run.timeline, point_x),
                                       PS_TIMELINE_HEADER_HEIGHT - scroll_y + row->y + row->height / 2);
  g_assert_nonnull (text);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 2);
  g_test_message ("read-out: %s", lines[1]);
  g_assert_true (g_regex_match (number, lines[1], 0, &match));
  digits = g_match_info_fetch (match, 0);
  g_strdelimit (digits, ",", ' ');
  {
    g_autoptr(GString) plain = g_string_new (NULL);

    for (const char *c = digits; *c != '\0'; c++)
      if (*c != ' ')
        g_string_append_c (plain, *c);
    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (plain->str, NULL), value * row->unit_scale, 0.0051);
  }
  g_assert_nonnull (strstr (lines[1], row->unit));
  /* Its time to a thousandth of the visible range (30 min: a second),
   * not to the microsecond ("1800.000000 s") */
  {
    g_auto(GStrv) words = g_strsplit (lines[1], " ", -1);
    guint n_words = g_strv_length (words);

    g_assert_cmpuint (n_words, >=, 4);
    g_assert_cmpstr (words[n_words - 1], ==, "s");
    g_assert_null (strchr (words[n_words - 2], '.'));
  }
}

/* How many pixels in x0…x1 × y0…y1 differ from the pixel at (x, y), the
 * background there */
static guint
count_pixels_unlike (GdkTexture *texture,
                     int         x,
                     int         y,
                     int         x0,
                     int         y0,
                     int         x1,
                     int         y1)
{
  int width = gdk_texture_get_width (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize)width * gdk_texture_get_height (texture));
  GdkRGBA background;
  guint32 pixel;

  gdk_texture_download (texture, (guchar *)pixels, (gsize)width * 4);
  pixel = pixels[(gsize)y * width + x];
  background = (GdkRGBA){ ((pixel >> 16) & 0xff) / 255.0, ((pixel >> 8) & 0xff) / 255.0, (pixel & 0xff) / 255.0, 1 };
  return (guint)((x1 - x0 + 1) * (y1 - y0 + 1)) - count_pixels_near (texture, x0, y0, x1, y1, &background);
}

/* Whether two rows' labels are drawn as the same text though they differ */
static gboolean
labels_look_alike (PsTimelineModel *model,
                   PangoContext    *pango,
                   double           label_width,
                   guint            a,
                   guint            b)
{
  const PsTimelineRow *row_a = g_ptr_array_index (model->rows, a);
  const PsTimelineRow *row_b = g_ptr_array_index (model->rows, b);

  return strcmp (row_a->label, row_b->label) != 0
         && strcmp (ps_timeline_model_row_label (model, pango, label_width, a),
                    ps_timeline_model_row_label (model, pango, label_width, b)) == 0;
}

/* The CE demo logs at 1024×700: the label column is as wide as its
 * labels allow, no two marker rows read alike ("Test=CeWriteRecor…"
 * twice), a cut label has its whole text in the row's tooltip, and a
 * click right of the old 160 px column but left of the new edge chooses
 * the row, as drawing and the x axis agree on the edge */
static void
test_row_labels (Fixture       *fixture,
                 gconstpointer  data)
{
  static const char *files[] = {
    "fsperf_CEPC_x86_6_0_3122.log", "dbperf_CEPC_x86_6_0_3122.log", "regperf_CEPC_x86_6_0_3122.log",
  };

  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1024, 700);
  iterate_for (600);
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = demo_file_path (files[f]);
      RunViews run = open_run_views (fixture, path);
      PsTimelineView *view = run.timeline;
      PsTimelineModel *model = ps_timeline_view_get_model (view);
      PangoContext *pango = gtk_widget_get_pango_context (GTK_WIDGET (view));
      g_autoptr(PangoLayout) layout = pango_layout_new (pango);
      int width = gtk_widget_get_width (GTK_WIDGET (view));
      double label_width = ps_timeline_view_get_label_width (view);
      guint n_cut = 0, n_whole = 0;

      g_test_message ("%s: view %d px wide, label column %.0f px", files[f], width, label_width);
      /* Wider than the old fixed column, for these labels, but no more
       * than its share of the view */
      g_assert_cmpfloat (label_width, >, PS_TIMELINE_LABEL_WIDTH);
      g_assert_cmpfloat (label_width, <=, ceil (width * PS_TIMELINE_LABEL_MAX_SHARE));
      g_assert_cmpfloat_with_epsilon (ps_timeline_view_x_of (view, 0), label_width, 1e-6);

      for (guint r = 0; r < model->rows->len; r++)
        {
          const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
          /* Kept: the rows' texts are cut again for another width */
          g_autofree char *drawn = g_strdup (ps_timeline_view_get_row_label (view, r));
          int text_width;

          if (row->kind == PS_TIMELINE_ROW_GROUP)
            {
              g_assert_null (drawn);
              continue;
            }
          g_assert_nonnull (drawn);
          for (guint other = r + 1; other < model->rows->len; other++)
            if (((PsTimelineRow *)g_ptr_array_index (model->rows, other))->kind != PS_TIMELINE_ROW_GROUP)
              {
                if (labels_look_alike (model, pango, label_width, r, other))
                  g_error ("%s: rows %u and %u both drawn as “%s”", files[f], r, other, drawn);
                /* Nor at the old width, where the bug was; regperf's
                 * labels differ in two places ("Test=RegOpenKeyEx,Depth=4,…"
                 * and "Test=RegDeleteKey,Depth=4,…") that 140 px cannot
                 * both show */
                if (f < 2 && labels_look_alike (model, pango, PS_TIMELINE_LABEL_WIDTH, r, other))
                  g_error ("%s: rows %u and %u both drawn as “%s” in %.0f px", files[f], r, other,
                           ps_timeline_model_row_label (model, pango, PS_TIMELINE_LABEL_WIDTH, r),
                           PS_TIMELINE_LABEL_WIDTH);
              }
          /* What fits is whole, what does not is cut to fit */
          pango_layout_set_text (layout, row->label, -1);
          pango_layout_get_pixel_size (layout, &text_width, NULL);
          if (text_width <= label_width - 20)
            {
              g_assert_cmpstr (drawn, ==, row->label);
              n_whole++;
            }
          else
            {
              g_autofree char *tooltip = NULL;
              g_autoptr(GdkTexture) texture = NULL;
              int cut_width;
              double y;

              g_assert_nonnull (strstr (drawn, "…"));
              pango_layout_set_text (layout, drawn, -1);
              pango_layout_get_pixel_size (layout, &cut_width, NULL);
              g_assert_cmpint (cut_width, <=, label_width - 20);
              n_cut++;

              /* Scrolled into view, its label's tooltip has the whole label */
              gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view)), row->y);
              iterate_for (50);
              g_assert_true (timeline_row_in_view (view, row->track));
              y = ps_timeline_view_get_row_y (view, row->track) + 8;
              tooltip = ps_timeline_view_describe_at (view, label_width - 4, y);
              g_assert_nonnull (tooltip);
              g_assert_nonnull (strstr (tooltip, row->label));
              /* and a chart's, how many values it has (written when asked for) */
              if (row->kind == PS_TIMELINE_ROW_VALUES)
                {
                  gsize n_values = ps_value_lod_get_n_points (row->values);
                  g_autofree char *counted = g_strdup_printf ("%s: %zu %s", row->label, n_values,
                                                              n_values == 1 ? "value" : "values");

                  g_assert_cmpuint (n_values, >, 0);
                  /* then the changes marked on it, if any */
                  g_assert_true (g_str_has_prefix (tooltip, counted));
                  g_assert_true (tooltip[strlen (counted)] == '\0'
                                 || g_str_has_prefix (tooltip + strlen (counted), "\nChanged at #"));
                }
              /* Its text is drawn past the old column's edge */
              texture = render_widget (GTK_WIDGET (view));
              g_assert_cmpuint (count_pixels_unlike (texture, (int)label_width - 3, (int)y,
                                                     (int)PS_TIMELINE_LABEL_WIDTH + 4, (int)y - 6,
                                                     (int)label_width - 8, (int)y + 6), >, 20);
            }
        }
      g_test_message ("%s: %u labels whole, %u cut", files[f], n_whole, n_cut);
      g_assert_cmpuint (n_whole, >, 0);
      /* fsperf's longest labels (67 characters) do not fit at 1024 px */
      if (f == 0)
        g_assert_cmpuint (n_cut, >, 0);

      /* A click on a label, right of where the old column ended, chooses
       * its row: the first and the last row with a label in turn */
      for (guint pass = 0; pass < 2; pass++)
        {
          const PsTimelineRow *row = NULL;
          const guint32 *focus;
          guint n_focus = 0;
          double y;

          for (guint r = 0; r < model->rows->len; r++)
            {
              const PsTimelineRow *candidate = g_ptr_array_index (model->rows, pass == 0 ? r : model->rows->len - 1 - r);

              if (candidate->kind != PS_TIMELINE_ROW_GROUP)
                {
                  row = candidate;
                  break;
                }
            }
          g_assert_nonnull (row);
          ps_session_set_focus_track (run.session, row->track);
          iterate_for (100);
          ps_session_set_focus_tracks (run.session, NULL, 0);
          iterate_for (50);
          y = ps_timeline_view_get_row_y (view, row->track) + 8;
          g_assert_cmpfloat (y, >, PS_TIMELINE_HEADER_HEIGHT);
          ps_timeline_view_click (view, label_width - 4, y);
          focus = ps_session_get_focus_tracks (run.session, &n_focus);
          g_assert_cmpuint (n_focus, ==, 1);
          g_assert_cmpuint (focus[0], ==, row->track);
          g_assert_cmpuint (timeline_focus_bar_pixels (view, row->track), >, 30);
        }
      maybe_save_screenshot (fixture, files[f]);
    }
}

/* A CE log whose application starts again and again (a test harness):
 * each start registers its two markers anew, so each marker has as many
 * instances, all charted on the marker's one row */
static GFile *
write_restarting_log (Fixture *fixture,
                      guint    n_starts)
{
  g_autoptr(GString) log = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                         "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n");

  for (guint s = 0; s < n_starts; s++)
    {
      g_string_append_printf (log, "## PERF ## REGISTERED APP [harness] PROCCESSID [0x%x]\r\n", 0x1000 + s);
      g_string_append (log, "## PERF ## REGISTERED MARKER [Test=WriteFile,Bytes=4096,Buffered=Yes,time=%AVG%] "
                            "AS [0] BY APP [harness]\r\n"
                            "## PERF ## REGISTERED MARKER [Test=WriteFile,Bytes=65536,Buffered=Yes,time=%AVG%] "
                            "AS [1] BY APP [harness]\r\n");
      for (guint i = 0; i < 20; i++)
        g_string_append_printf (log, "## PERF ## APP [harness] EVT [%u] DUR [%u]\r\n", i % 2, 10 + i);
    }
  return write_temp_file (fixture, "harness.log", log->str, (gssize)log->len);
}

/* A marker's instances share its row, and two markers whose texts
 * differ near their ends are told apart by where they differ, however
 * narrow the column */
static void
test_row_labels_of_instances (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GFile) file = write_restarting_log (fixture, 12);
  PsRunPage *page = open_and_wait (fixture, file);
  PsTimelineView *view;
  PsTimelineModel *model;
  PangoContext *pango;
  static const double widths[] = { PS_TIMELINE_LABEL_WIDTH, 200 };

  view = ps_run_page_get_timeline_view (page);
  g_assert_true (iterate_until (timeline_is_ready, view));
  model = ps_timeline_view_get_model (view);
  pango = gtk_widget_get_pango_context (GTK_WIDGET (view));
  /* Found where the model was made: each text once, whatever its rows */
  g_assert_nonnull (model->row_text);
  g_assert_cmpuint (model->n_row_text, ==, model->rows->len);
  g_assert_cmpuint (model->label_texts->len, ==, 2);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr(GHashTable) drawn_of_text = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(GHashTable) text_of_drawn = g_hash_table_new (g_str_hash, g_str_equal);
      guint n_rows = 0;

      for (guint r = 0; r < model->rows->len; r++)
        {
          const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
          const char *drawn, *before;

          if (row->kind == PS_TIMELINE_ROW_GROUP)
            continue;
          n_rows++;
          drawn = ps_timeline_model_row_label (model, pango, widths[w], r);
          g_assert_nonnull (strstr (drawn, "…"));
          before = g_hash_table_lookup (drawn_of_text, row->label);
          if (before != NULL && strcmp (before, drawn) != 0)
            g_error ("“%s” drawn as “%s” and as “%s” in %.0f px", row->label, before, drawn, widths[w]);
          g_hash_table_insert (drawn_of_text, (gpointer)row->label, (gpointer)drawn);
          before = g_hash_table_lookup (text_of_drawn, drawn);
          if (before != NULL && strcmp (before, row->label) != 0)
            g_error ("“%s” and “%s” both drawn as “%s” in %.0f px", before, row->label, drawn, widths[w]);
          g_hash_table_insert (text_of_drawn, (gpointer)drawn, (gpointer)row->label);
        }
      /* Both markers, each started 12 times: a row each */
      g_assert_cmpuint (n_rows, ==, 2);
      g_assert_cmpuint (g_hash_table_size (drawn_of_text), ==, 2);
    }
}

/* A harness that restarted 2100 times: each marker's 2100 instances on
 * one row, their points in order, and each instance's own extent and
 * row (a row per instance made 4200 rows of 10 points, each a dot in a
 * row as wide as the run) */
static void
test_instances_on_one_row (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GFile) file = write_restarting_log (fixture, 2100);
  PsRunPage *page = open_and_wait (fixture, file);
  PsTimelineView *view = ps_run_page_get_timeline_view (page);
  PsEventStore *store;
  PsTimelineModel *model;
  guint n_groups = 0, n_values = 0;
  guint32 first_of_marker[2] = { PS_NONE, PS_NONE };

  g_assert_true (iterate_until (timeline_is_ready, view));
  model = ps_timeline_view_get_model (view);
  store = model->store;
  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      g_autofree guint32 *members = NULL;
      guint n_members;
      gint64 x, previous_x = -1;
      double value;

      if (row->kind == PS_TIMELINE_ROW_GROUP)
        {
          n_groups++;
          continue;
        }
      g_assert_cmpint (row->kind, ==, PS_TIMELINE_ROW_VALUES);
      g_assert_cmpuint (n_values, <, 2);
      first_of_marker[n_values++] = row->track;
      /* Ten durations of the marker in each start, in file order */
      g_assert_cmpuint (ps_value_lod_get_n_points (row->values), ==, 10 * 2100);
      for (gsize i = 0; i < ps_value_lod_get_n_points (row->values); i++)
        {
          g_assert_true (ps_value_lod_get_point (row->values, i, &x, &value));
          g_assert_cmpint (x, >, previous_x);
          previous_x = x;
        }
      members = ps_timeline_model_get_chart_members (model, row->track, &n_members);
      g_assert_cmpuint (n_members, ==, 2100);
      g_assert_cmpuint (members[0], ==, row->track);
    }
  g_assert_cmpuint (n_groups, ==, 1);
  g_assert_cmpuint (n_values, ==, 2);
  g_assert_cmpuint (model->label_texts->len, ==, 2);
  g_assert_cmpint (model->extent_begin, ==, 0);

  /* Every instance goes to its marker's row and keeps its own extent:
   * start s has the 20 measurements from 20 s on, its marker's every
   * other one */
  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 2 * 2100);
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      guint marker = t % 2;
      guint start = t / 2;
      gint64 first, last;

      g_assert_cmpuint (ps_timeline_model_chart_track (model, t), ==, first_of_marker[marker]);
      g_assert_true (ps_timeline_model_get_track_extent (model, t, &first, &last));
      g_assert_cmpint (first, ==, 20 * (gint64)start + marker);
      g_assert_cmpint (last, ==, 20 * (gint64)start + 18 + marker);
    }
}

/* Axis labels group their digits as the tables do ("25,000 MiB" on the
 * memory chart of a recording read "25000", "1,200 s" on a PDH log's
 * timeline "1200 s") and give the step's decimals */
static void
test_tick_labels (Fixture       *fixture,
                  gconstpointer  data)
{
  static const struct
  {
    double      value;
    double      step;
    const char *text;
  } ticks[] = {
    { 25000, 5000, "25,000" },
    { 1234567, 500000, "1,234,567" },
    { 0.05, 0.05, "0.05" },
    { 2.5, 0.5, "2.5" },
    { -1e-12, 1, "0" },
    { -3000, 1000, "-3,000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
    {
      g_autofree char *text = ps_chart_format_tick (ticks[i].value, ticks[i].step);

      g_assert_cmpstr (text, ==, ticks[i].text);
    }
  /* And the time axis of the timeline and the counter charts */
  {
    g_autofree char *seconds = ps_timeline_format_position (FALSE, 1200 * 1e9, 200 * 1e9);
    g_autofree char *milliseconds = ps_timeline_format_position (FALSE, 0.25 * 1e9, 0.05 * 1e9);
    g_autofree char *sequence = ps_timeline_format_position (TRUE, 1200, 100);

    g_assert_cmpstr (seconds, ==, "1,200 s");
    g_assert_cmpstr (milliseconds, ==, "250 ms");
    g_assert_cmpstr (sequence, ==, "#1200");
  }
}

/* The row of the view's model whose label is label, or -1 */
static int
find_row (PsTimelineView *view,
          const char     *label)
{
  PsTimelineModel *model = ps_timeline_view_get_model (view);

  for (guint i = 0; model != NULL && i < model->rows->len; i++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, i);

      if (row->kind == PS_TIMELINE_ROW_VALUES && g_strcmp0 (row->label, label) == 0)
        return (int)i;
    }
  return -1;
}

/* The overview of a CE log is counted with its model, off the main
 * thread, at PS_TIMELINE_OVERVIEW_FINE columns; what a frame draws is
 * summed from it. Each point counts from where it lies to its chart's
 * next point (spread_points ()): every point once, but for the share of a
 * chart's last point that lies past the end of the run. Against counting
 * at the frame's width: the same points, up to each column as many but
 * for what two columns hold (a point's spread is at least one column) */
static void
test_overview_counted_with_model (Fixture       *fixture,
                                  gconstpointer  data)
{
  Run run = open_run (fixture, "ce", "fsperf_CEPC_x86_6_0_3122.log");
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  g_autofree double *fine = NULL;
  g_autofree double *summed = NULL;
  guint64 n_points = 0, n_charts = 0;
  double fine_sum = 0, sum = 0, exact_sum = 0, most = 0;
  guint columns;

  g_assert_nonnull (model->overview_fine);
  g_assert_cmpint (model->overview_fine_begin, ==, model->extent_begin);
  g_assert_cmpint (model->overview_fine_end, ==, model->extent_end);
  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_VALUES)
        n_points += ps_value_lod_get_n_points (row->values), n_charts++;
    }
  for (guint i = 0; i < PS_TIMELINE_OVERVIEW_FINE; i++)
    fine_sum += model->overview_fine[i];
  g_assert_cmpfloat (fine_sum, <=, (double)n_points * (1 + 1e-9));
  g_assert_cmpfloat (fine_sum, >=, (double)(n_points - n_charts));

  g_free (grab (run.view).data);
  g_assert_nonnull (model->overview_busy);
  columns = model->overview_columns;
  g_assert_cmpuint (columns, >, 100);
  g_assert_cmpuint (columns, <, PS_TIMELINE_OVERVIEW_FINE);
  summed = g_memdup2 (model->overview_busy, columns * sizeof (double));

  /* Counted again at the width, as without the fine count */
  fine = g_steal_pointer (&model->overview_fine);
  g_clear_pointer (&model->overview_busy, g_free);
  g_free (grab (run.view).data);
  g_assert_nonnull (model->overview_busy);
  g_assert_cmpuint (model->overview_columns, ==, columns);
  for (guint c = 0; c < columns; c++)
    most = MAX (most, model->overview_busy[c]);
  for (guint c = 0; c < columns; c++)
    {
      sum += summed[c];
      exact_sum += model->overview_busy[c];
      g_assert_cmpfloat (fabs (sum - exact_sum), <=, 2 * most);
    }
  g_assert_cmpfloat_with_epsilon (sum, exact_sum, 1e-6 * exact_sum);
  g_assert_cmpfloat_with_epsilon (sum, fine_sum, 1e-6 * fine_sum);
  model->overview_fine = g_steal_pointer (&fine);
}

/* The y of a chart's line where it passes sequence number x, in a picture
 * of the whole view 900 pixels wide: the middle of the pixels of the
 * accent colour in that column of the row */
static double
line_y_at (PsTimelineView *view,
           int             row_index,
           gint64          x)
{
  PsTimelineModel *model = ps_timeline_view_get_model (view);
  const PsTimelineRow *row = g_ptr_array_index (model->rows, row_index);
  int width = 900, height = (int)(PS_TIMELINE_HEADER_HEIGHT + model->rows_height + PS_TIMELINE_STATUS_HEIGHT) + 10;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  PsTimelineFrame frame = { 0 };
  GdkRGBA accent;
  const guchar *data;
  int stride, column, top, bottom;
  double sum = 0;
  guint n = 0;

  g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view))), ==, 0);
  ps_timeline_view_draw_picture (view, cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  frame.width = width;
  frame.height = height;
  frame.label_width = ps_timeline_model_label_width (model, gtk_widget_get_pango_context (GTK_WIDGET (view)), width);
  ps_session_get_visible_range (ps_timeline_view_get_session (view), &frame.begin, &frame.end);
  column = (int)round (ps_timeline_frame_x_of (&frame, (double)x));
  top = (int)(PS_TIMELINE_HEADER_HEIGHT + row->y);
  bottom = top + (int)PS_TIMELINE_VALUES_HEIGHT;
  ps_selection_accent_color (is_dark (view), &accent);

  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = top; y < bottom && y < height; y++)
    {
      const guchar *p = data + y * stride + column * 4;
      double alpha = p[3] / 255.0;

      if (alpha > 0.5 && fabs (p[2] / 255.0 / alpha - accent.red) < 0.1
          && fabs (p[1] / 255.0 / alpha - accent.green) < 0.1 && fabs (p[0] / 255.0 / alpha - accent.blue) < 0.1)
        sum += y, n++;
    }
  cairo_surface_destroy (surface);
  g_assert_cmpuint (n, >, 0);
  return sum / n;
}

/* The scale of a chart row whose values end at the right of the run (the
 * last marker of a CE log, at the end of the sequence) goes to the left,
 * which has none: at the right it covered them */
static void
test_scale_clear_of_values (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *path = demo_file_path ("fsperf_CEPC_x86_6_0_3122.log");
  RunViews run = open_run_views (fixture, path);
  int row_index = find_row (run.timeline, "Test=DeleteFile,Files=100,time=%AVG%");
  const PsTimelineRow *row;
  gint64 x;
  double value;

  g_assert_cmpint (row_index, >=, 0);
  row = g_ptr_array_index (ps_timeline_view_get_model (run.timeline)->rows, row_index);
  g_assert_true (ps_value_lod_get_point (row->values, ps_value_lod_get_n_points (row->values) / 2, &x, &value));
  /* Its line is drawn in the accent colour at its middle value */
  line_y_at (run.timeline, row_index, x);
}

/* The share of the whole-run strip's columns, drawn width wide, that are
 * filled at the strip's middle height, in the accent colour */
static double
overview_filled_share (PsTimelineView *view,
                       int             width)
{
  PsTimelineModel *model = ps_timeline_view_get_model (view);
  int height = (int)PS_TIMELINE_HEADER_HEIGHT + 10;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  PsTimelineFrame frame = { 0 };
  const guchar *row;
  int first, last, filled = 0;

  ps_timeline_view_draw_picture (view, cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  frame.width = width;
  frame.height = height;
  frame.label_width = ps_timeline_model_label_width (model, gtk_widget_get_pango_context (GTK_WIDGET (view)), width);
  frame.begin = model->extent_begin;
  frame.end = model->extent_end;
  /* Inside the frame of the part shown, which is the whole run */
  first = (int)ceil (ps_timeline_frame_x_of (&frame, (double)model->extent_begin)) + 3;
  last = (int)floor (ps_timeline_frame_x_of (&frame, (double)model->extent_end)) - 3;
  g_assert_cmpint (last - first, >, width / 2);
  /* The strip runs from 2 px down, PS_TIMELINE_OVERVIEW_HEIGHT − 6 high */
  row = cairo_image_surface_get_data (surface)
        + (int)(2 + (PS_TIMELINE_OVERVIEW_HEIGHT - 6) / 2) * cairo_image_surface_get_stride (surface);
  for (int x = first; x <= last; x++)
    {
      const guchar *p = row + x * 4;
      double alpha = MAX (p[3] / 255.0, 1e-6);

      /* On no background: the strip's grey and the frame of the part
       * shown are nearly transparent, the accent is at 55 % */
      if (alpha > 0.5 && p[0] / 255.0 / alpha - p[2] / 255.0 / alpha > 0.2)
        filled++;
    }
  cairo_surface_destroy (surface);
  return (double)filled / (last - first + 1);
}

/* Counters read at a steady pace make an even strip at every width: each
 * reading counted in its own column drew a line every three or four
 * pixels, in a pattern that changed with the width */
static void
test_overview_even (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *path = demo_file_path ("perfmon_4cpu.csv");
  RunViews run = open_run_views (fixture, path);
  static const int widths[] = { 817, 900, 1003, 1500 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      double share = overview_filled_share (run.timeline, widths[i]);

      g_test_message ("%d px: %.1f %% of the strip filled at its middle", widths[i], 100 * share);
      g_assert_cmpfloat (share, >=, 0.98);
    }
}

/* dbperf's log with its first duration of a marker ten times longer and
 * its first memory reading twice as high, as another run of it */
static GFile *
write_changed_dbperf (Fixture *fixture)
{
  g_autofree char *path = demo_file_path ("dbperf_CEPC_x86_6_0_3122.log");
  g_autofree char *text = NULL;
  g_autoptr(GString) changed = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  changed = g_string_new (text);
  /* The first duration of the marker, 693 ticks; the first memory reading */
  g_assert_cmpuint (g_string_replace (changed, "EVT [1] DUR [693]", "EVT [1] DUR [6930]", 1), ==, 1);
  g_assert_cmpuint (g_string_replace (changed, "MEM [10739712]", "MEM [21479424]", 1), ==, 1);
  return write_temp_file (fixture, "dbperf_b.log", changed->str, (gssize)changed->len);
}

static gboolean
memory_charts_drawn (gpointer data)
{
  PsRunPage **pages = data;

  for (guint i = 0; i < 2; i++)
    {
      PsCounterChart *chart = ps_ce_view_get_memory_chart (ps_run_page_get_ce_view (pages[i]));
      gint64 x_begin, x_end;
      double y_min, y_max;

      if (!ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_min, &y_max))
        return FALSE;
    }
  return TRUE;
}

static double
memory_axis_top (PsRunPage *page)
{
  PsCounterChart *chart = ps_ce_view_get_memory_chart (ps_run_page_get_ce_view (page));
  gint64 x_begin, x_end;
  double y_min, y_max;

  iterate_for (100);
  g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_min, &y_max));
  return y_max;
}

/* Two runs side by side in a window of their own, as a comparison shows
 * them, loaded */
static GtkWidget *
open_side_by_side (Fixture    *fixture,
                   GFile      *file_a,
                   GFile      *file_b,
                   PsRunPage **pages)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_window_set_application (GTK_WINDOW (window), GTK_APPLICATION (fixture->app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 900);
  gtk_box_set_homogeneous (GTK_BOX (box), TRUE);
  gtk_window_set_child (GTK_WINDOW (window), box);
  pages[0] = PS_RUN_PAGE (ps_run_page_new (file_a));
  pages[1] = PS_RUN_PAGE (ps_run_page_new (file_b));
  for (guint i = 0; i < 2; i++)
    {
      gtk_widget_set_hexpand (GTK_WIDGET (pages[i]), TRUE);
      gtk_widget_set_vexpand (GTK_WIDGET (pages[i]), TRUE);
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (pages[i]));
    }
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 2; i++)
    {
      ps_run_page_load (pages[i]);
      wait_for_page (pages[i]);
      g_assert_cmpint (ps_run_page_get_state (pages[i]), ==, PS_RUN_PAGE_LOADED);
    }
  return window;
}

/* The top of the value axis of a counter run's first chart, as drawn */
static double
counter_axis_top (PsRunPage *page)
{
  PsCountersView *view = ps_run_page_get_counters_view (page);
  gint64 x_begin, x_end;
  double y_low, y_high;

  iterate_for (100);
  g_assert_cmpuint (ps_counters_view_get_n_charts (view), >, 0);
  g_assert_true (ps_counter_chart_get_axes (ps_counters_view_get_chart (view, 0), &x_begin, &x_end, &y_low, &y_high));
  return y_high;
}

static gboolean
counter_axes_agree (gpointer data)
{
  PsRunPage **pages = data;

  return counter_axis_top (pages[0]) == counter_axis_top (pages[1]);
}

/* Two counter logs side by side, the second with one reading of 150 %:
 * shared, the processor charts of both reach as high, and stay so when
 * one of them sums its series up */
static void
test_shared_counter_scale (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *path_a = demo_file_path ("perfmon_4cpu.csv");
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) changed = NULL;
  g_autoptr(GError) error = NULL;
  PsRunPage *pages[2];
  GtkWidget *window;
  double top_a, top_b;

  g_file_get_contents (path_a, &text, NULL, &error);
  g_assert_no_error (error);
  changed = g_string_new (text);
  g_assert_cmpuint (g_string_replace (changed, "\"29.8908741005081\"", "\"150\"", 1), ==, 1);
  file_b = write_temp_file (fixture, "perfmon_b.csv", changed->str, (gssize)changed->len);
  window = open_side_by_side (fixture, file_a, file_b, pages);

  top_a = counter_axis_top (pages[0]);
  top_b = counter_axis_top (pages[1]);
  g_assert_cmpfloat (top_b, >=, 150);
  g_assert_cmpfloat (top_a, <, 150);

  ps_run_page_set_shared_value_scale (pages[0], pages[1], TRUE);
  g_assert_cmpfloat (counter_axis_top (pages[0]), ==, top_b);
  g_assert_cmpfloat (counter_axis_top (pages[1]), ==, top_b);

  /* B's series summed reach higher still: A's axis follows */
  ps_counters_view_set_stacked (ps_run_page_get_counters_view (pages[1]), TRUE);
  g_assert_cmpfloat (counter_axis_top (pages[1]), >, top_b);
  /* A's charts are drawn again a frame or more later on a busy machine */
  g_assert_true (iterate_until (counter_axes_agree, pages));
  g_assert_cmpfloat (counter_axis_top (pages[0]), ==, counter_axis_top (pages[1]));

  ps_run_page_set_shared_value_scale (pages[0], pages[1], FALSE);
  g_assert_cmpfloat (counter_axis_top (pages[0]), ==, top_a);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The CPU & Memory charts of two CE runs side by side, as a comparison
 * shows them: the memory axes of both reach as high when their scales are
 * shared, each to its own readings when not */
static void
test_shared_chart_scale (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *path_a = demo_file_path ("dbperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = write_changed_dbperf (fixture);
  PsRunPage *pages[2];
  GtkWidget *window = open_side_by_side (fixture, file_a, file_b, pages);
  double top_a, top_b;

  for (guint i = 0; i < 2; i++)
    ps_ce_view_show_page (ps_run_page_get_ce_view (pages[i]), "cpu-memory");
  g_assert_true (iterate_until (memory_charts_drawn, pages));

  /* Each its own: B's first reading is twice A's highest */
  top_a = memory_axis_top (pages[0]);
  top_b = memory_axis_top (pages[1]);
  g_assert_cmpfloat (top_b, >, top_a * 1.5);

  /* Shared: both axes end where B's does */
  ps_run_page_set_shared_value_scale (pages[0], pages[1], TRUE);
  g_assert_cmpfloat (memory_axis_top (pages[0]), ==, top_b);
  g_assert_cmpfloat (memory_axis_top (pages[1]), ==, top_b);
  /* The CPU charts share theirs too, from 0 % */
  {
    gint64 x_begin, x_end;
    double y_min[2], y_max[2];

    for (guint i = 0; i < 2; i++)
      {
        g_assert_true (ps_counter_chart_get_axes (ps_ce_view_get_cpu_chart (ps_run_page_get_ce_view (pages[i])),
                                                  &x_begin, &x_end, &y_min[i], &y_max[i]));
        g_assert_cmpfloat (y_min[i], ==, 0);
        g_assert_cmpfloat (y_max[i], <=, 100);
      }
    g_assert_cmpfloat (y_max[0], ==, y_max[1]);
  }

  /* The charts made again (a range selected on the timeline) stay shared */
  ps_session_set_selection (ps_run_page_get_session (pages[1]), 0, 100);
  g_assert_true (iterate_until (run_view_is_idle, ps_run_page_get_ce_view (pages[1])));
  g_assert_cmpfloat (memory_axis_top (pages[0]), ==, memory_axis_top (pages[1]));
  ps_session_clear_selection (ps_run_page_get_session (pages[1]));
  g_assert_true (iterate_until (run_view_is_idle, ps_run_page_get_ce_view (pages[1])));

  /* Free again */
  ps_run_page_set_shared_value_scale (pages[0], pages[1], FALSE);
  g_assert_cmpfloat (memory_axis_top (pages[0]), ==, top_a);
  g_assert_cmpfloat (memory_axis_top (pages[1]), ==, top_b);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Two CE runs compared, the second with one duration ten times longer:
 * sharing their scale gives the same chart of both the same top, and a
 * value both have the same height; each its own scale again after */
static void
test_shared_value_scale (Fixture       *fixture,
                         gconstpointer  data)
{
  static const char *label = "Test=CeWriteRecordProps,Props=4,time=%AVG%";
  g_autofree char *path_a = demo_file_path ("dbperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GFile) file_b = write_changed_dbperf (fixture);
  g_autofree char *path_b = g_file_get_path (file_b);
  RunViews a, b;
  int row_a, row_b;
  double min_a, max_a, min_b, max_b;
  gint64 same_x = -1;
  double same_value = 0;

  a = open_run_views (fixture, path_a);
  b = open_run_views (fixture, path_b);
  row_a = find_row (a.timeline, label);
  row_b = find_row (b.timeline, label);
  g_assert_cmpint (row_a, >=, 0);
  g_assert_cmpint (row_b, >=, 0);

  /* A value both runs have, the highest of them */
  {
    const PsTimelineRow *ra = g_ptr_array_index (ps_timeline_view_get_model (a.timeline)->rows, row_a);
    const PsTimelineRow *rb = g_ptr_array_index (ps_timeline_view_get_model (b.timeline)->rows, row_b);

    g_assert_cmpuint (ps_value_lod_get_n_points (ra->values), ==, ps_value_lod_get_n_points (rb->values));
    for (gsize i = 0; i < ps_value_lod_get_n_points (ra->values); i++)
      {
        gint64 xa, xb;
        double va, vb;

        g_assert_true (ps_value_lod_get_point (ra->values, i, &xa, &va));
        g_assert_true (ps_value_lod_get_point (rb->values, i, &xb, &vb));
        g_assert_cmpint (xa, ==, xb);
        if (va == vb && va > same_value)
          same_x = xa, same_value = va;
      }
    g_assert_cmpint (same_x, >=, 0);
  }

  /* Each its own scale: B's top is ten times A's first duration */
  g_assert_true (ps_timeline_view_get_row_value_range (a.timeline, row_a, &min_a, &max_a));
  g_assert_true (ps_timeline_view_get_row_value_range (b.timeline, row_b, &min_b, &max_b));
  g_assert_cmpfloat (max_b, >, max_a * 5);
  g_assert_cmpfloat (fabs (line_y_at (a.timeline, row_a, same_x) - line_y_at (b.timeline, row_b, same_x)), >, 10);

  /* Shared: one top, the same value at the same height */
  ps_run_page_set_shared_value_scale (a.page, b.page, TRUE);
  g_assert_true (ps_run_page_get_shared_value_scale (a.page));
  g_assert_true (ps_run_page_get_shared_value_scale (b.page));
  g_assert_true (ps_timeline_view_get_row_value_range (a.timeline, row_a, &min_a, &max_a));
  g_assert_true (ps_timeline_view_get_row_value_range (b.timeline, row_b, &min_b, &max_b));
  g_assert_cmpfloat (max_a, ==, max_b);
  g_assert_cmpfloat (min_a, ==, min_b);
  g_assert_cmpfloat_with_epsilon (max_b, 6930 / 1193180.0, 1e-9);
  g_assert_cmpfloat (fabs (line_y_at (a.timeline, row_a, same_x) - line_y_at (b.timeline, row_b, same_x)), <=, 1);

  /* A run read again shares the scale of its new charts */
  ps_run_page_load (b.page);
  wait_for_page (b.page);
  g_assert_true (iterate_until (timeline_view_is_ready, b.timeline));
  row_b = find_row (b.timeline, label);
  g_assert_true (ps_timeline_view_get_row_value_range (a.timeline, row_a, &min_a, &max_a));
  g_assert_true (ps_timeline_view_get_row_value_range (b.timeline, row_b, &min_b, &max_b));
  g_assert_cmpfloat (max_a, ==, max_b);

  /* Free again */
  ps_run_page_set_shared_value_scale (a.page, b.page, FALSE);
  g_assert_false (ps_run_page_get_shared_value_scale (a.page));
  g_assert_true (ps_timeline_view_get_row_value_range (a.timeline, row_a, &min_a, &max_a));
  g_assert_true (ps_timeline_view_get_row_value_range (b.timeline, row_b, &min_b, &max_b));
  g_assert_cmpfloat (max_b, >, max_a * 5);
  g_assert_cmpfloat (fabs (line_y_at (a.timeline, row_a, same_x) - line_y_at (b.timeline, row_b, same_x)), >, 10);
}

/* A range of the other axis, as a comparison of a timed run with a CE run
 * passes on, shows the whole run: a sequence axis never reads
 * "#1000000000000", a time axis is not shown a few nanoseconds */
static void
test_range_of_other_axis (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *ce_path = demo_file_path ("dbperf_CEPC_x86_6_0_3122.log");
  RunViews ce = open_run_views (fixture, ce_path);
  Run timed = open_calltree_example (fixture);
  PsTimelineModel *ce_model = ps_timeline_view_get_model (ce.timeline);
  PsTimelineModel *timed_model = ps_timeline_view_get_model (timed.view);
  gint64 begin, end;

  g_assert_true (ce_model->sequence_axis);
  g_assert_false (timed_model->sequence_axis);
  /* What a comparison asks before it keeps two runs' ranges in step */
  g_assert_false (ps_run_page_has_time_axis (ce.page));
  g_assert_true (ps_run_page_has_time_axis (timed.page));

  /* An hour in nanoseconds on the sequence axis */
  ps_session_set_visible_range (ce.session, 0, G_GINT64_CONSTANT (3600000000000));
  ps_session_get_visible_range (ce.session, &begin, &end);
  g_assert_cmpint (begin, ==, ce_model->extent_begin);
  g_assert_cmpint (end, ==, ce_model->extent_end);
  /* A time range far past the measurements, zoomed in */
  ps_session_set_visible_range (ce.session, G_GINT64_CONSTANT (1000000000), G_GINT64_CONSTANT (1000001000));
  ps_session_get_visible_range (ce.session, &begin, &end);
  g_assert_cmpint (begin, ==, ce_model->extent_begin);
  g_assert_cmpint (end, ==, ce_model->extent_end);
  /* A longer CE run's sequence beside it stays */
  ps_session_set_visible_range (ce.session, 0, 14 * ce_model->extent_end);
  ps_session_get_visible_range (ce.session, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 14 * ce_model->extent_end);
  ps_session_set_visible_range (ce.session, 30, 60);
  ps_session_get_visible_range (ce.session, &begin, &end);
  g_assert_cmpint (begin, ==, 30);
  g_assert_cmpint (end, ==, 60);

  /* The CE run's 130 measurements as nanoseconds on the time axis */
  ps_session_set_visible_range (timed.session, 0, 130);
  ps_session_get_visible_range (timed.session, &begin, &end);
  g_assert_cmpint (begin, ==, timed_model->extent_begin);
  g_assert_cmpint (end, ==, timed_model->extent_end);
  /* A time range past the run's end (an offset in a comparison) stays */
  ps_session_set_visible_range (timed.session, timed_model->extent_end - 10 * MS, timed_model->extent_end + 10 * MS);
  ps_session_get_visible_range (timed.session, &begin, &end);
  g_assert_cmpint (begin, ==, timed_model->extent_end - 10 * MS);
  g_assert_cmpint (end, ==, timed_model->extent_end + 10 * MS);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/timeline/model", test_model);
  ADD_TEST ("/timeline/pixels", test_pixels);
  ADD_TEST ("/timeline/zoom-and-pan", test_zoom_and_pan);
  ADD_TEST ("/timeline/keyboard", test_keyboard);
  ADD_TEST ("/timeline/tooltips", test_tooltips);
  ADD_TEST ("/timeline/drag-select", test_drag_select);
  ADD_TEST ("/timeline/linked-views", test_linked_views);
  ADD_TEST ("/timeline/ce-sequence", test_ce_sequence);
  ADD_TEST ("/timeline/overview-counted-with-model", test_overview_counted_with_model);
  ADD_TEST ("/timeline/split-remembered", test_split_remembered);
  ADD_TEST ("/counter-chart/pixels", test_counter_chart);
  ADD_TEST ("/timeline/sample-rows", test_sample_rows);
  ADD_TEST ("/timeline/value-tooltip", test_value_tooltip);
  ADD_TEST ("/chart/tick-labels", test_tick_labels);
  ADD_TEST ("/timeline/row-labels", test_row_labels);
  ADD_TEST ("/timeline/row-labels-of-instances", test_row_labels_of_instances);
  ADD_TEST ("/timeline/instances-on-one-row", test_instances_on_one_row);
  ADD_TEST ("/timeline/shared-value-scale", test_shared_value_scale);
  ADD_TEST ("/timeline/scale-clear-of-values", test_scale_clear_of_values);
  ADD_TEST ("/timeline/overview-even", test_overview_even);
  ADD_TEST ("/timeline/shared-chart-scale", test_shared_chart_scale);
  ADD_TEST ("/timeline/shared-counter-scale", test_shared_counter_scale);
  ADD_TEST ("/timeline/range-of-other-axis", test_range_of_other_axis);

  return gui_test_run ();
}

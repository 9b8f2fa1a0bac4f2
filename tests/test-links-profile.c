/* test-links-profile.c — a profile's views follow one selection (Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/selection.md, hwpmc logs, pmcstat -G texts and VS reports: a
 * thread chosen in the process list is focused on the timeline and one
 * chosen on the timeline is selected in the list; a function chosen in
 * the call tree (a row or a frame of the flame graph) shows its samples
 * on the timeline, which brings them into view, and is outlined in the
 * flame graph; a frame chosen in the flame graph selects the function's
 * row; a time range limits the call tree and the list's counts; the
 * event chosen in the profile view is the one whose samples the
 * timeline's lanes and charts show.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-call-tree-view-private.h"
#include "ps-flame-graph-private.h"
#include "ps-profile-track-row.h"
#include "ps-profile-view-private.h"
#include "ps-report-view-private.h"
#include "ps-run-page-private.h"
#include "ps-selection-util.h"
#include "ps-timeline-view.h"

typedef struct
{
  PsRunPage      *page;
  PsProfileView  *profile_view;
  PsCallTreeView *call_tree;
  PsTimelineView *view;
  PsSession      *session;
  PsEventStore   *store;
} Run;

static gboolean
call_tree_has_tree (gpointer data)
{
  return !ps_call_tree_view_is_busy (data) && ps_call_tree_view_get_tree (data) != NULL;
}

static Run
open_pmclog (Fixture *fixture)
{
  g_autofree char *path = demo_file_path ("pmcstat_freebsd14.pmclog");
  RunViews views = open_run_views (fixture, path);
  PsProfileView *profile_view = ps_run_page_get_profile_view (views.page);
  Run run = { views.page, profile_view, ps_run_view_get_call_tree_view (PS_RUN_VIEW (profile_view)), views.timeline,
              views.session, views.store };

  g_assert_true (iterate_until (run_view_is_idle, run.profile_view));
  return run;
}

/* The timeline's lanes of samples (their threads), top to bottom */
static GArray *
sample_row_tracks (PsTimelineView *view)
{
  PsTimelineModel *model = ps_timeline_view_get_model (view);
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_SAMPLES && !row->hidden)
        g_array_append_val (tracks, row->track);
    }
  g_assert_cmpuint (tracks->len, >, 0);
  return tracks;
}

/* The widget y of a thread's lane */
static double
lane_y (PsTimelineView *view,
        guint32         track)
{
  PsTimelineModel *model = ps_timeline_view_get_model (view);
  double scroll_y = gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view)));

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_SAMPLES && row->track == track && !row->hidden)
        return PS_TIMELINE_HEADER_HEIGHT - scroll_y + row->y;
    }
  return -1;
}

/* Whether a thread's lane is in view */
static gboolean
lane_in_view (PsTimelineView *view,
              guint32         track)
{
  double y = lane_y (view, track);

  return y >= PS_TIMELINE_HEADER_HEIGHT && y + PS_TIMELINE_LANE_HEIGHT <= gtk_widget_get_height (GTK_WIDGET (view));
}

typedef struct
{
  PsTimelineView *view;
  guint32         track;
} LaneOf;

/* lane_in_view (), for iterate_until (): the timeline scrolls its lane
 * back into view after each frame in which the views under it grew */
static gboolean
lane_is_in_view (gpointer data)
{
  const LaneOf *lane = data;

  return lane_in_view (lane->view, lane->track);
}

/* The tracks of the list's selected rows */
static GArray *
selected_tracks (Run *run)
{
  GtkSelectionModel *selection = ps_profile_view_get_track_selection (run->profile_view);
  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (selection);
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkBitsetIter iter;
  guint position;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, set, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (G_LIST_MODEL (selection), position);
      g_autoptr(PsProfileTrackRow) row = gtk_tree_list_row_get_item (tree_row);
      guint32 track = ps_profile_track_row_get_track (row);

      g_array_append_val (tracks, track);
    }
  return tracks;
}

/* Selects the thread's row, opening its process, as a user would */
static void
select_thread_row (Run     *run,
                   guint32  track)
{
  GtkSelectionModel *selection = ps_profile_view_get_track_selection (run->profile_view);
  GListModel *rows = G_LIST_MODEL (selection);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (rows, i);
      g_autoptr(PsProfileTrackRow) row = gtk_tree_list_row_get_item (tree_row);

      if (ps_profile_track_row_get_track (row) == track)
        {
          gtk_selection_model_select_item (selection, i, TRUE);
          return;
        }
      if (ps_profile_track_row_get_threads (row) != NULL)
        gtk_tree_list_row_set_expanded (tree_row, TRUE);
    }
  g_assert_not_reached ();
}

/* How many timed samples of each track (of source, or of any with
 * PS_NONE) hold the function in their stack, named as the call tree
 * names a frame; or, for a module's row of addresses, any address of the
 * module */
static GHashTable *
count_samples_of (PsEventStore *store,
                  PsCallTree   *tree,
                  guint32       function_id,
                  guint32       source)
{
  const char *function = ps_call_tree_get_function_name (tree, function_id);
  const char *module = ps_call_tree_get_function_module (tree, function_id);
  gboolean addresses = ps_call_tree_get_n_function_addresses (tree, function_id) > 0;
  GHashTable *counts = g_hash_table_new (NULL, NULL);
  g_autoptr(GString) name = g_string_new (NULL);

  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      gboolean holds = FALSE;

      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || (source != PS_NONE && sample->source != source))
        continue;
      for (guint32 id = sample->stack; id != 0 && !holds;)
        {
          const PsStackNode *node = ps_event_store_get_stack_node (store, id);
          const PsFrame *frame = ps_event_store_get_frame (store, node->frame);

          const char *frame_module = frame->module != 0 ? ps_event_store_get_string (store, frame->module) : "";

          g_string_truncate (name, 0);
          if (frame->function == 0)
            ps_event_store_append_frame_name (store, node->frame, name);
          else
            g_string_append (name, ps_event_store_get_string (store, frame->function));
          holds = g_strcmp0 (frame_module, module != NULL ? module : "") == 0
                  && (addresses ? ps_call_tree_frame_is_address (store, node->frame) : g_str_equal (name->str, function));
          id = node->parent;
        }
      if (holds)
        g_hash_table_insert (counts, GUINT_TO_POINTER (sample->track),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts,
                                                                                      GUINT_TO_POINTER (sample->track))) + 1));
    }
  return counts;
}

typedef struct
{
  PsSession *session;
  guint32    track;
  gsize      n_points;
} LowestPoints;

/* The track has its expected number of highlighted points */
static gboolean
track_has_points (gpointer data)
{
  LowestPoints *wanted = data;
  PsValueLod *points = ps_session_get_highlight_points (wanted->session, wanted->track);

  return points != NULL && ps_value_lod_get_n_points (points) == wanted->n_points;
}

/* Tests */

/* A thread chosen in the process list is focused on the timeline: its
 * sample row scrolls into view and its label is marked */
static void
test_thread_row_focuses_timeline (Fixture       *fixture,
                                  gconstpointer  data)
{
  Run run = open_pmclog (fixture);
  g_autoptr(GArray) rows = sample_row_tracks (run.view);
  guint32 track = g_array_index (rows, guint32, rows->len - 1);

  g_assert_false (lane_in_view (run.view, track));
  select_thread_row (&run, track);
  /* The call tree counts that thread alone; the views under the timeline
   * then take their room, and the lane stays in view */
  g_assert_true (iterate_until (run_view_is_idle, run.profile_view));
  iterate_for (200);
  g_assert_true (ps_session_is_focus_track (run.session, track));
  {
    LaneOf lane = { run.view, track };

    g_assert_true (iterate_until (lane_is_in_view, &lane));
    /* Once the views under it have settled (a line may wrap once more) */
    iterate_for (300);
    g_assert_true (iterate_until (lane_is_in_view, &lane));
  }
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, track), >, 30);
  maybe_save_screenshot (fixture, "links-profile-thread");
}

/* A thread's row chosen on the timeline selects it in the list */
static void
test_timeline_row_selects_thread (Fixture       *fixture,
                                  gconstpointer  data)
{
  Run run = open_pmclog (fixture);
  g_autoptr(GArray) rows = sample_row_tracks (run.view);
  guint32 track = g_array_index (rows, guint32, MIN (1, rows->len - 1));
  g_autoptr(GArray) selected = NULL;

  g_assert_true (lane_in_view (run.view, track));
  ps_timeline_view_click (run.view, 20, lane_y (run.view, track) + PS_TIMELINE_LANE_HEIGHT / 2);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, track);
  selected = selected_tracks (&run);
  g_assert_cmpuint (selected->len, ==, 1);
  g_assert_cmpuint (g_array_index (selected, guint32, 0), ==, track);
  /* A click in the chart does the same */
  track = g_array_index (rows, guint32, 0);
  ps_timeline_view_click (run.view, gtk_widget_get_width (GTK_WIDGET (run.view)) / 2.0,
                          lane_y (run.view, track) + PS_TIMELINE_LANE_HEIGHT / 2);
  g_clear_pointer (&selected, g_array_unref);
  selected = selected_tracks (&run);
  g_assert_cmpuint (selected->len, ==, 1);
  g_assert_cmpuint (g_array_index (selected, guint32, 0), ==, track);
}

/* A function chosen in the call tree shows its samples on the timeline:
 * a point per sample, ticks drawn on the rows of its threads, which come
 * into view */
static void
test_function_shows_samples (Fixture       *fixture,
                             gconstpointer  data)
{
  Run run = open_pmclog (fixture);
  g_autoptr(GArray) rows = sample_row_tracks (run.view);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (run.view));
  PsCallTree *tree = ps_call_tree_view_get_tree (run.call_tree);
  g_autoptr(GHashTable) counts = NULL;
  guint32 function = PS_NONE;
  GHashTableIter iter;
  gpointer key, value;
  gboolean hidden = TRUE;
  GdkRGBA color;

  ps_selection_points_color (widget_is_dark (GTK_WIDGET (run.view)), &color);
  /* The function with the most samples of its own */
  for (guint32 f = 0; f < ps_call_tree_get_n_functions (tree); f++)
    if (function == PS_NONE
        || ps_call_tree_get_function_stats (tree, f)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE]
           > ps_call_tree_get_function_stats (tree, function)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE])
      function = f;
  /* The samples of the event the profile view shows */
  counts = count_samples_of (run.store, tree, function, ps_session_get_sample_source (run.session));
  g_assert_cmpuint (g_hash_table_size (counts), >, 0);

  /* The rows scrolled to the bottom: those of its threads out of sight,
   * when they are all higher up */
  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_upper (vadjustment));
  iterate_for (50);
  for (guint i = 0; i < rows->len; i++)
    if (g_hash_table_contains (counts, GUINT_TO_POINTER (g_array_index (rows, guint32, i))))
      hidden &= !lane_in_view (run.view, g_array_index (rows, guint32, i));
  g_assert_true (hidden);

  g_assert_true (ps_call_tree_view_select_function (run.call_tree, function));
  g_assert_true (iterate_until (session_has_highlight_points, run.session));
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      PsValueLod *points = ps_session_get_highlight_points (run.session, GPOINTER_TO_UINT (key));

      g_assert_nonnull (points);
      g_assert_cmpuint (ps_value_lod_get_n_points (points), ==, GPOINTER_TO_UINT (value));
    }
  iterate_for (50);
  /* A thread that has them is in view, with orange ticks */
  {
    g_autoptr(GdkTexture) texture = render_widget (GTK_WIDGET (run.view));
    guint ticks = 0, shown = 0;

    for (guint i = 0; i < rows->len; i++)
      {
        guint32 track = g_array_index (rows, guint32, i);
        double y = lane_y (run.view, track);

        if (!g_hash_table_contains (counts, GUINT_TO_POINTER (track)) || !lane_in_view (run.view, track))
          continue;
        shown++;
        ticks += count_pixels_near (texture, (int)PS_TIMELINE_LABEL_WIDTH, (int)y, 100000,
                                    (int)(y + PS_TIMELINE_LANE_HEIGHT), &color);
      }
    g_assert_cmpuint (shown, >, 0);
    /* A tick is 8 pixels high */
    g_assert_cmpuint (ticks, >=, 8 * shown);
  }
  maybe_save_screenshot (fixture, "links-profile-function");

  /* A focused thread that has some comes first: the lowest row that has
   * some, focused, then the view scrolled to the top */
  {
    LowestPoints wanted = { run.session, PS_NONE, 0 };
    g_autofree char *name = g_strdup (ps_call_tree_get_function_name (tree, function));

    for (guint i = 0; i < rows->len; i++)
      if (g_hash_table_contains (counts, GUINT_TO_POINTER (g_array_index (rows, guint32, i))))
        wanted.track = g_array_index (rows, guint32, i);
    wanted.n_points = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (wanted.track)));
    /* Another function meanwhile */
    g_assert_true (ps_call_tree_view_select_function (run.call_tree, function == 0 ? 1 : 0));
    /* The list follows the focus: the call tree counts that thread alone */
    ps_session_set_focus_track (run.session, wanted.track);
    g_assert_true (iterate_until (run_view_is_idle, run.profile_view));
    tree = ps_call_tree_view_get_tree (run.call_tree);
    function = ps_call_tree_lookup_function (tree, name);
    g_assert_cmpuint (function, !=, PS_NONE);
    gtk_adjustment_set_value (vadjustment, 0);
    iterate_for (50);
    g_assert_false (lane_in_view (run.view, wanted.track));

    g_assert_true (ps_call_tree_view_select_function (run.call_tree, function));
    g_assert_true (iterate_until (track_has_points, &wanted));
    /* Scrolled to once the points are drawn, later on a busy machine */
    {
      LaneOf lane = { run.view, wanted.track };

      g_assert_true (iterate_until (lane_is_in_view, &lane));
    }
  }
}

/* A frame of the flame graph: its function's samples on the timeline, its
 * frames outlined, its row in the Functions list */
static void
test_flame_frame_links (Fixture       *fixture,
                        gconstpointer  data)
{
  Run run = open_pmclog (fixture);
  PsFlameGraph *flame = ps_call_tree_view_get_flame_graph (run.call_tree);
  PsCallTree *tree = ps_call_tree_view_get_tree (run.call_tree);
  guint32 top = ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, 0);
  guint32 function = ps_call_tree_get_node_function (tree, top);
  const char *path[] = { ps_call_tree_get_function_name (tree, function), NULL };
  double x, y, width, height;
  int flame_width;
  GdkRGBA color;

  ps_selection_accent_color (widget_is_dark (GTK_WIDGET (flame)), &color);
  ps_call_tree_view_set_mode (run.call_tree, "flame-graph");
  g_assert_true (iterate_until (widget_is_drawn, flame));
  flame_width = gtk_widget_get_width (GTK_WIDGET (flame));
  g_assert_true (_ps_flame_graph_get_frame (flame, flame_width, path, &x, &y, &width, &height));
  _ps_flame_graph_click (flame, flame_width, x + width / 2, y + height / 2);
  g_assert_cmpuint (ps_call_tree_view_get_selected_function (run.call_tree), ==, function);
  g_assert_cmpuint (ps_flame_graph_get_marked_function (flame), ==, function);
  g_assert_true (iterate_until (session_has_highlight_points, run.session));

  /* Outlined in the accent colour */
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, flame_width, 400);
    cairo_t *cr = cairo_create (surface);
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GdkTexture) texture = NULL;

    _ps_flame_graph_draw (flame, cr, flame_width, 400);
    cairo_destroy (cr);
    cairo_surface_flush (surface);
    bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                         (gsize)cairo_image_surface_get_stride (surface) * 400);
    texture = gdk_memory_texture_new (flame_width, 400, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes,
                                      cairo_image_surface_get_stride (surface));
    cairo_surface_destroy (surface);
    g_assert_true (_ps_flame_graph_get_frame (flame, flame_width, path, &x, &y, &width, &height));
    g_assert_cmpuint (count_pixels_near (texture, (int)x, (int)y, (int)(x + width), (int)(y + height), &color),
                      >, 40);
  }

  /* Back to the Functions list: its row is selected */
  ps_call_tree_view_set_mode (run.call_tree, "functions");
  {
    GtkSelectionModel *selection = gtk_column_view_get_model (ps_call_tree_view_get_column_view (run.call_tree));
    GtkTreeListRow *tree_row = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
    g_autoptr(PsCallNodeRow) row = NULL;

    g_assert_nonnull (tree_row);
    row = gtk_tree_list_row_get_item (tree_row);
    g_assert_cmpuint (ps_call_node_row_get_function (row), ==, function);
  }
}

/* A time range dragged on the timeline limits the call tree and the
 * list's counts */
static void
test_range_limits_call_tree (Fixture       *fixture,
                             gconstpointer  data)
{
  Run run = open_pmclog (fixture);
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  double whole = ps_call_tree_get_elapsed_total (ps_call_tree_view_get_tree (run.call_tree));
  double range;
  double y = PS_TIMELINE_HEADER_HEIGHT + PS_TIMELINE_GROUP_HEIGHT + 20;
  gint64 quarter = model->extent_begin + (model->extent_end - model->extent_begin) / 4;

  ps_timeline_view_drag (run.view, ps_timeline_view_x_of (run.view, model->extent_begin) + 1, y,
                         ps_timeline_view_x_of (run.view, quarter), y);
  g_assert_true (ps_session_get_selection (run.session, NULL, NULL));
  g_assert_true (iterate_until (run_view_is_idle, run.profile_view));
  range = ps_call_tree_get_elapsed_total (ps_call_tree_view_get_tree (run.call_tree));
  g_assert_cmpfloat (range, >, 0);
  g_assert_cmpfloat (range, <, whole * 0.5);
  g_assert_nonnull (ps_run_view_get_header_value (PS_RUN_VIEW (run.profile_view), "range"));
}

/* pmcstat -G and VS reports have no timeline: the call tree's table and
 * its flame graph answer each other */
static void
test_report_table_marks_flame (Fixture       *fixture,
                               gconstpointer  data)
{
  const char *files[][2] = {
    { "pmcstat-callgraph", "simple.txt" },
    { "vs-report-csv", "l4_cc.csv" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", files[i][0], files[i][1], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      PsRunPage *page = open_and_wait (fixture, file);
      PsCallTreeView *call_tree = g_strcmp0 (files[i][0], "vs-report-csv") == 0
                                  ? ps_run_view_get_call_tree_view (PS_RUN_VIEW (ps_run_page_get_report_view (page)))
                                  : ps_run_view_get_call_tree_view (PS_RUN_VIEW (ps_run_page_get_profile_view (page)));
      PsFlameGraph *flame = ps_call_tree_view_get_flame_graph (call_tree);
      PsCallTree *tree;
      g_autoptr(PsCallNodeRow) callee = NULL;
      guint32 top, function;

      g_assert_true (iterate_until (call_tree_has_tree, call_tree));
      tree = ps_call_tree_view_get_tree (call_tree);
      /* A caller/callee report has no tree, nor a flame graph: its
       * functions, the first one that calls another */
      if (ps_call_tree_has_top_down (tree))
        {
          top = ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, 0);
          function = ps_call_tree_get_node_function (tree, top);
        }
      else
        for (function = 0; function + 1 < ps_call_tree_get_n_functions (tree); function++)
          {
            g_autoptr(GArray) callees = ps_call_tree_get_callees (tree, function);
            g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, function);

            if (callees->len > 0 && callers->len > 0)
              break;
          }
      g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ps_run_page_get_timeline_view (page)))
                      && gtk_widget_get_mapped (GTK_WIDGET (ps_run_page_get_timeline_view (page))));

      /* The Functions list's row: its frames are outlined, its callers
       * and callees listed */
      g_assert_true (ps_call_tree_view_select_function (call_tree, function));
      g_assert_cmpuint (ps_flame_graph_get_marked_function (flame), ==, function);
      g_assert_cmpuint (g_list_model_get_n_items (ps_call_tree_view_get_callers_model (call_tree)), >, 0);

      /* A callee activated: its row in the Functions list, its frames */
      g_assert_cmpuint (g_list_model_get_n_items (ps_call_tree_view_get_callees_model (call_tree)), >, 0);
      callee = g_list_model_get_item (ps_call_tree_view_get_callees_model (call_tree), 0);
      g_signal_emit_by_name (ps_call_tree_view_get_callees_view (call_tree), "activate", 0);
      g_assert_cmpuint (ps_call_tree_view_get_selected_function (call_tree), ==, ps_call_node_row_get_function (callee));
      g_assert_cmpuint (ps_flame_graph_get_marked_function (flame), ==, ps_call_node_row_get_function (callee));

      if (!ps_call_tree_has_top_down (tree))
        continue;
      /* A frame: its function's row when the list is shown again */
      ps_call_tree_view_set_mode (call_tree, "flame-graph");
      g_assert_true (iterate_until (widget_is_drawn, ps_call_tree_view_get_flame_graph (call_tree)));
      {
        const char *path[] = { ps_call_tree_get_function_name (tree, function), NULL };
        int width = gtk_widget_get_width (GTK_WIDGET (flame));
        double x, y, frame_width, frame_height;
        GtkSelectionModel *selection;
        GtkTreeListRow *tree_row;
        g_autoptr(PsCallNodeRow) row = NULL;

        g_assert_true (_ps_flame_graph_get_frame (flame, width, path, &x, &y, &frame_width, &frame_height));
        _ps_flame_graph_click (flame, width, x + frame_width / 2, y + frame_height / 2);
        g_assert_cmpuint (ps_call_tree_view_get_selected_function (call_tree), ==, function);
        ps_call_tree_view_set_mode (call_tree, "functions");
        selection = gtk_column_view_get_model (ps_call_tree_view_get_column_view (call_tree));
        tree_row = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
        g_assert_nonnull (tree_row);
        row = gtk_tree_list_row_get_item (tree_row);
        g_assert_cmpuint (ps_call_node_row_get_function (row), ==, function);
      }
    }
}

/* The event chooser */

/* Chooses the drop-down's item at position as a user would: the
 * drop-down opened, the item's row clicked (selected, then activated) */
static void
choose_event (Run   *run,
              guint  position)
{
  GtkDropDown *dropdown = ps_profile_view_get_source_dropdown (run->profile_view);
  GtkWidget *list;

  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (dropdown)));
  g_assert_true (gtk_widget_activate (GTK_WIDGET (dropdown)));
  list = find_widget_of_type (GTK_WIDGET (dropdown), GTK_TYPE_LIST_VIEW, FALSE);
  g_assert_nonnull (list);
  g_assert_true (iterate_until (widget_is_drawn, list));
  gtk_selection_model_select_item (gtk_list_view_get_model (GTK_LIST_VIEW (list)), position, TRUE);
  g_signal_emit_by_name (list, "activate", position);
  iterate_for (20);
  g_assert_false (gtk_widget_get_mapped (list));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, position);
}

/* The position of the drop-down's item that starts with text */
static guint
event_position (Run        *run,
                const char *text)
{
  GListModel *items = gtk_drop_down_get_model (ps_profile_view_get_source_dropdown (run->profile_view));

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (items, i);

      if (g_str_has_prefix (gtk_string_object_get_string (item), text))
        return i;
    }
  g_assert_not_reached ();
}

typedef struct
{
  PsTimelineView *view;
  guint32         source;
} WantedSource;

/* The timeline's sample rows are of the source */
static gboolean
timeline_shows_source (gpointer data)
{
  WantedSource *wanted = data;
  PsTimelineModel *model = ps_timeline_view_get_model (wanted->view);

  return model != NULL && model->sample_source == wanted->source;
}

/* Timed samples of source (PS_NONE: of any) per track, from the store;
 * each of them weighs 1 in an hwpmc log */
static GHashTable *
count_event_samples (PsEventStore *store,
                     guint32       source)
{
  GHashTable *counts = g_hash_table_new (NULL, NULL);

  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      gpointer key = GUINT_TO_POINTER (sample->track);

      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || (source != PS_NONE && sample->source != source))
        continue;
      g_assert_cmpuint (sample->weight, ==, 1);
      g_hash_table_insert (counts, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1));
    }
  return counts;
}

/* "Thread 100: 57 samples of CLOCK.HARD", as a row's tooltip starts */
static char *
count_text (const char *label,
            guint       n,
            const char *event)
{
  return g_strdup_printf ("%s: %u %s of %s", label, n, n == 1 ? "sample" : "samples", event);
}

/* Each lane of the timeline holds the samples of source (PS_NONE: every
 * one) of its thread, as many as the store has, and says so; so do the
 * samples-per-second charts */
static void
assert_rows_count (Run        *run,
                   guint32     source,
                   const char *event)
{
  PsTimelineModel *model = ps_timeline_view_get_model (run->view);
  g_autoptr(GHashTable) counts = count_event_samples (run->store, source);
  gint64 middle = model->extent_begin + (model->extent_end - model->extent_begin) / 2;
  gint64 half = (model->extent_end - model->extent_begin) / 2 + 1;
  guint n_lanes = 0, n_charts = 0;

  g_assert_cmpuint (model->sample_source, ==, source);
  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      guint expected = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (row->track)));
      g_autofree char *text = count_text (row->label, expected, event);

      if (row->kind == PS_TIMELINE_ROW_GROUP && r + 1 < model->rows->len && source != PS_NONE)
        {
          const PsTimelineRow *next = g_ptr_array_index (model->rows, r + 1);

          /* The groups of sample rows name the event */
          if (next->kind == PS_TIMELINE_ROW_SAMPLES || g_strcmp0 (next->unit, "samples/s") == 0)
            g_assert_nonnull (strstr (row->label, event));
        }
      else if (row->kind == PS_TIMELINE_ROW_SAMPLES)
        {
          guint64 n_found = 0;

          g_assert_cmpuint (expected, >, 0);
          g_assert_true (ps_timeline_lane_find (row, run->store, middle, half, NULL, &n_found));
          g_assert_cmpuint (n_found, ==, expected);
          g_assert_true (g_str_has_prefix (row->tooltip, text));
          n_lanes++;
        }
      else if (row->kind == PS_TIMELINE_ROW_VALUES && g_strcmp0 (row->unit, "samples/s") == 0)
        {
          gint64 x0, x1;
          double value, sum = 0;

          /* The rates times the bins' width: the samples */
          g_assert_true (ps_value_lod_get_point (row->values, 0, &x0, &value));
          g_assert_true (ps_value_lod_get_point (row->values, 1, &x1, &value));
          for (gsize i = 0; i < ps_value_lod_get_n_points (row->values); i++)
            {
              gint64 x;

              g_assert_true (ps_value_lod_get_point (row->values, i, &x, &value));
              sum += value * (double)(x1 - x0) / 1e9;
            }
          g_assert_cmpfloat (fabs (sum - expected), <, 0.01);
          g_assert_true (g_str_has_prefix (row->tooltip, text));
          n_charts++;
        }
    }
  /* A lane for every thread that has samples of the event, no other */
  g_assert_cmpuint (n_lanes, ==, g_hash_table_size (counts));
  g_assert_cmpuint (n_charts, >, 0);
}

/* Whether the timeline's picture has a tick in the lane at pixel column x:
 * its pixel above the lane's foot is opaque (the picture leaves the rest
 * clear) and not the view's background */
static gboolean
lane_ticked (cairo_surface_t *surface,
             int              x,
             int              foot,
             gboolean         dark)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *)(gconstpointer)(data + (gsize)(foot - 2) * cairo_image_surface_get_stride (surface)
                                                    + (gsize)x * 4);
  int ground = dark ? 30 : 255;

  if ((pixel >> 24) < 0xf0)
    return FALSE;
  for (int shift = 0; shift < 24; shift += 8)
    if (ABS ((int)((pixel >> shift) & 0xff) - ground) > 8)
      return TRUE;
  return FALSE;
}

/* The lanes in view, as drawn: a tick at every sample of source (every
 * one with PS_NONE), none where only another event's samples are (at
 * least 6 pixels from one of source), and there the tooltip names no
 * sample. Returns how many such pixel columns were looked at. */
static guint
assert_lanes_drawn (Run        *run,
                    guint32     source,
                    const char *event)
{
  PsTimelineModel *model = ps_timeline_view_get_model (run->view);
  int width = gtk_widget_get_width (GTK_WIDGET (run->view));
  int height = gtk_widget_get_height (GTK_WIDGET (run->view));
  gboolean dark = widget_is_dark (GTK_WIDGET (run->view));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  g_autofree guint8 *chosen = g_new0 (guint8, width);
  g_autofree guint8 *other = g_new0 (guint8, width);
  guint n_lanes = 0, n_lonely = 0;

  ps_timeline_view_draw_picture (run->view, cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      double y = lane_y (run->view, row->track);
      int foot = (int)(y + PS_TIMELINE_LANE_HEIGHT);

      if (row->kind != PS_TIMELINE_ROW_SAMPLES || !lane_in_view (run->view, row->track))
        continue;
      memset (chosen, 0, width);
      memset (other, 0, width);
      for (guint64 i = 0; i < ps_event_store_get_n_samples (run->store); i++)
        {
          const PsSample *sample = ps_event_store_get_sample (run->store, i);
          int x = (int)MIN (floor (ps_timeline_view_x_of (run->view, sample->time_ns)), width - 1);

          if (sample->track != row->track || (sample->flags & PS_SAMPLE_FLAG_UNTIMED)
              || x < (int)PS_TIMELINE_LABEL_WIDTH)
            continue;
          if (source == PS_NONE || sample->source == source)
            chosen[x] = 1;
          else
            other[x] = 1;
        }
      for (int x = (int)PS_TIMELINE_LABEL_WIDTH; x < width; x++)
        {
          gboolean near_chosen = FALSE;

          /* A sample's column, or a neighbour where rounding put it */
          if (chosen[x])
            g_assert_true (lane_ticked (surface, x, foot, dark) || lane_ticked (surface, MAX (x - 1, 0), foot, dark)
                           || lane_ticked (surface, MIN (x + 1, width - 1), foot, dark));
          if (chosen[x])
            {
              g_autofree char *tooltip = ps_timeline_view_describe_at (run->view, x + 0.5, y + PS_TIMELINE_LANE_HEIGHT / 2);
              g_autofree char *of_event = g_strdup_printf ("A sample of %s at", event);

              g_assert_nonnull (tooltip);
              if (source != PS_NONE)
                g_assert_nonnull (strstr (tooltip, of_event));
            }
          if (!other[x])
            continue;
          for (int near = MAX (x - 6, 0); near <= MIN (x + 6, width - 1); near++)
            near_chosen |= chosen[near];
          if (near_chosen)
            continue;
          g_assert_false (lane_ticked (surface, x, foot, dark));
          g_assert_null (ps_timeline_view_describe_at (run->view, x + 0.5, y + PS_TIMELINE_LANE_HEIGHT / 2));
          n_lonely++;
        }
      n_lanes++;
    }
  cairo_surface_destroy (surface);
  g_assert_cmpuint (n_lanes, >, 0);
  return n_lonely;
}

typedef struct
{
  PsSession  *session;
  GHashTable *counts;   /* track → samples of the function */
} WantedPoints;

/* Each track has as many highlighted points as samples of the function,
 * and no other track any */
static gboolean
points_match (gpointer data)
{
  WantedPoints *wanted = data;
  guint n_tracks = ps_event_store_get_n_tracks (ps_session_get_store (wanted->session));

  if (!ps_session_get_highlight_points_extent (wanted->session, NULL, NULL))
    return FALSE;
  for (guint32 t = 0; t < n_tracks; t++)
    {
      PsValueLod *points = ps_session_get_highlight_points (wanted->session, t);
      guint expected = GPOINTER_TO_UINT (g_hash_table_lookup (wanted->counts, GUINT_TO_POINTER (t)));

      if ((points != NULL ? ps_value_lod_get_n_points (points) : 0) != expected)
        return FALSE;
    }
  return TRUE;
}

/* The event chosen in the profile view is the one whose samples the
 * timeline's lanes and charts show, and the highlighted function's; "All
 * events" shows them all */
static void
test_event_chooser_filters_timeline (Fixture       *fixture,
                                     gconstpointer  data)
{
  Run run = open_pmclog (fixture);
  WantedSource wanted = { run.view, PS_NONE };
  guint32 clock = PS_NONE, other = PS_NONE;
  guint n_lonely;

  g_assert_cmpuint (ps_event_store_get_n_sample_sources (run.store), ==, 2);
  for (guint32 s = 0; s < 2; s++)
    if (g_strcmp0 (ps_event_store_get_string (run.store, ps_event_store_get_sample_source (run.store, s)->name),
                   "CLOCK.HARD") == 0)
      clock = s;
    else
      other = s;
  g_assert_cmpuint (clock, !=, PS_NONE);
  g_assert_cmpuint (other, !=, PS_NONE);
  ps_session_set_focus_tracks (run.session, NULL, 0);

  /* Opened: the event with the most samples, in the list and on the
   * timeline */
  g_assert_cmpuint (ps_session_get_sample_source (run.session), ==, clock);
  wanted.source = clock;
  g_assert_true (iterate_until (timeline_shows_source, &wanted));
  iterate_for (50);
  assert_rows_count (&run, clock, "CLOCK.HARD");
  n_lonely = assert_lanes_drawn (&run, clock, "CLOCK.HARD");

  /* The other event, chosen in the drop-down */
  choose_event (&run, event_position (&run, "event 0x3c"));
  g_assert_cmpuint (ps_session_get_sample_source (run.session), ==, other);
  wanted.source = other;
  g_assert_true (iterate_until (timeline_shows_source, &wanted));
  iterate_for (50);
  assert_rows_count (&run, other, "event 0x3c");
  n_lonely += assert_lanes_drawn (&run, other, "event 0x3c");
  /* Some pixel columns had the other event's samples alone: the test
   * saw a lane without them */
  g_assert_cmpuint (n_lonely, >, 0);
  maybe_save_screenshot (fixture, "links-profile-event");

  /* A function of that event's call tree: its samples of that event */
  g_assert_true (iterate_until (run_view_is_idle, run.profile_view));
  {
    PsCallTree *tree = ps_call_tree_view_get_tree (run.call_tree);
    guint32 function = PS_NONE;
    g_autoptr(GHashTable) of_event = NULL;
    g_autoptr(GHashTable) of_any = NULL;
    WantedPoints points = { run.session, NULL };
    guint64 n_of_event = 0, n_of_any = 0;
    GHashTableIter iter;
    gpointer value;

    for (guint32 f = 0; f < ps_call_tree_get_n_functions (tree); f++)
      if (function == PS_NONE
          || ps_call_tree_get_function_stats (tree, f)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE]
             > ps_call_tree_get_function_stats (tree, function)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE])
        function = f;
    of_event = count_samples_of (run.store, tree, function, other);
    of_any = count_samples_of (run.store, tree, function, PS_NONE);
    g_hash_table_iter_init (&iter, of_event);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      n_of_event += GPOINTER_TO_UINT (value);
    g_hash_table_iter_init (&iter, of_any);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      n_of_any += GPOINTER_TO_UINT (value);
    /* The function was sampled in both events: the choice tells */
    g_assert_cmpuint (n_of_event, >, 0);
    g_assert_cmpuint (n_of_any, >, n_of_event);

    g_assert_true (ps_call_tree_view_select_function (run.call_tree, function));
    points.counts = of_event;
    g_assert_true (iterate_until (points_match, &points));

    /* All events: the lanes and charts of every sample, the function's
     * samples of both */
    choose_event (&run, event_position (&run, "All events"));
    g_assert_cmpuint (ps_session_get_sample_source (run.session), ==, PS_NONE);
    points.counts = of_any;
    g_assert_true (iterate_until (points_match, &points));
  }
  wanted.source = PS_NONE;
  g_assert_true (iterate_until (timeline_shows_source, &wanted));
  ps_session_highlight_function (run.session, NULL, NULL, NULL);
  iterate_for (50);
  assert_rows_count (&run, PS_NONE, "any event");
  /* Every sample has its tick, those of both events */
  assert_lanes_drawn (&run, PS_NONE, NULL);

  /* The busiest thread chosen in the list: its lane is shown and marked,
   * its chart of samples per second stays in its closed group, which
   * another event leaves closed */
  {
    PsTimelineModel *model = ps_timeline_view_get_model (run.view);
    const PsTimelineRow *rates = g_ptr_array_index (model->rows, 0);
    g_autoptr(GArray) lanes = sample_row_tracks (run.view);
    guint32 busiest = g_array_index (lanes, guint32, 0);

    g_assert_cmpint (rates->kind, ==, PS_TIMELINE_ROW_GROUP);
    g_assert_cmpstr (((const PsTimelineRow *)g_ptr_array_index (model->rows, 1))->unit, ==, "samples/s");
    g_assert_cmpuint (((const PsTimelineRow *)g_ptr_array_index (model->rows, 1))->track, ==, busiest);
    gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (run.view)), 1e6);
    iterate_for (20);
    select_thread_row (&run, busiest);
    iterate_for (50);
    g_assert_true (rates->collapsed);
    g_assert_true (lane_in_view (run.view, busiest));
    g_assert_cmpuint (timeline_focus_bar_pixels (run.view, busiest), >, 30);

    choose_event (&run, event_position (&run, "CLOCK.HARD"));
    wanted.source = clock;
    g_assert_true (iterate_until (timeline_shows_source, &wanted));
    iterate_for (50);
    model = ps_timeline_view_get_model (run.view);
    g_assert_true (((const PsTimelineRow *)g_ptr_array_index (model->rows, 0))->collapsed);
    g_assert_true (ps_session_is_focus_track (run.session, busiest));
  }
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/links/profile/thread-row-focuses-timeline", test_thread_row_focuses_timeline);
  ADD_TEST ("/links/profile/timeline-row-selects-thread", test_timeline_row_selects_thread);
  ADD_TEST ("/links/profile/function-shows-samples", test_function_shows_samples);
  ADD_TEST ("/links/profile/flame-frame-links", test_flame_frame_links);
  ADD_TEST ("/links/profile/range-limits-call-tree", test_range_limits_call_tree);
  ADD_TEST ("/links/profile/event-chooser-filters-timeline", test_event_chooser_filters_timeline);
  ADD_TEST ("/links/profile/report-table-marks-flame", test_report_table_marks_flame);

  return gui_test_run ();
}

/* test-links-rtl.c — an RTL log's views follow one selection (Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/selection.md, RTL logs: a scope or message chosen in the scope
 * table is shown on the timeline (its thread scrolled to, the scope
 * outlined and wide enough to see; Enter zooms to it); a scope clicked on
 * the timeline selects its row, its total and its function; a total, the
 * bars of its histogram, a function of the call tree or a frame of the
 * flame graph light up their calls, which the timeline brings into view;
 * a time range limits the tables, the histogram and the call tree.
 *
 * The call-tree example (thread 1: main 0–140 ms, A 10–85, B 30–60,
 * B 65–80, C 95–135 with B 120–130; thread 2: worker 141–151) and the
 * demo log of four threads nested up to 50 deep.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>

#include "gui-fixture.h"
#include "ps-call-tree-view-private.h"
#include "ps-chart-util.h"
#include "ps-flame-graph-private.h"
#include "ps-histogram-view-private.h"
#include "ps-rtl-view-private.h"
#include "ps-run-page-private.h"
#include "ps-selection-util.h"
#include "ps-scope-total-row.h"
#include "ps-timeline-view.h"

#define MS G_GINT64_CONSTANT (1000000)

typedef struct
{
  PsRunPage      *page;
  PsRtlView      *rtl_view;
  PsTimelineView *view;
  PsSession      *session;
  PsEventStore   *store;
} Run;

static Run
open_run (Fixture    *fixture,
          const char *path)
{
  RunViews views = open_run_views (fixture, path);
  Run run = { views.page, ps_run_page_get_rtl_view (views.page), views.timeline, views.session, views.store };

  g_assert_true (iterate_until (run_view_is_idle, run.rtl_view));
  return run;
}

static Run
open_example (Fixture *fixture)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", "calltree_4711.log", NULL);

  return open_run (fixture, path);
}

static Run
open_demo (Fixture *fixture)
{
  g_autofree char *path = demo_file_path ("soffice_4711.log");

  return open_run (fixture, path);
}

/* Whether the span's bar is in the timeline's visible range and rows, at
 * least min_pixels wide */
static gboolean
span_in_view (Run     *run,
              guint64  span,
              double   min_pixels)
{
  const PsSpan *s = ps_event_store_get_span (run->store, span);
  double y = ps_timeline_view_span_y (run->view, span);
  double x0 = ps_timeline_view_x_of (run->view, s->begin_ns);
  double x1 = ps_timeline_view_x_of (run->view, s->end_ns);
  double width = gtk_widget_get_width (GTK_WIDGET (run->view));

  return y >= PS_TIMELINE_HEADER_HEIGHT && y < gtk_widget_get_height (GTK_WIDGET (run->view))
         && x1 > PS_TIMELINE_LABEL_WIDTH && x0 < width && x1 - x0 >= min_pixels;
}

/* The timeline's track whose row lies lowest, and a scope of it whose
 * name no other thread has, as short as can be */
static guint64
find_lonely_span (Run *run)
{
  PsTimelineModel *model = ps_timeline_view_get_model (run->view);
  g_autoptr(GHashTable) name_tracks = g_hash_table_new (NULL, NULL);   /* name → track + 1, or G_MAXUINT */
  guint32 last_track = PS_NONE;
  guint64 best = PS_SESSION_NO_SPAN;

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_SPANS && row->n_depths > 0)
        last_track = row->track;
    }
  g_assert_cmpuint (last_track, !=, PS_NONE);
  for (guint64 i = 0; i < ps_event_store_get_n_spans (run->store); i++)
    {
      const PsSpan *span = ps_event_store_get_span (run->store, i);
      guint known = GPOINTER_TO_UINT (g_hash_table_lookup (name_tracks, GUINT_TO_POINTER (span->name)));

      if (known == 0)
        g_hash_table_insert (name_tracks, GUINT_TO_POINTER (span->name), GUINT_TO_POINTER (span->track + 1));
      else if (known != span->track + 1)
        g_hash_table_insert (name_tracks, GUINT_TO_POINTER (span->name), GUINT_TO_POINTER (G_MAXUINT));
    }
  for (guint64 i = 0; i < ps_event_store_get_n_spans (run->store); i++)
    {
      const PsSpan *span = ps_event_store_get_span (run->store, i);

      if (span->track == last_track && span->end_ns > span->begin_ns
          && GPOINTER_TO_UINT (g_hash_table_lookup (name_tracks, GUINT_TO_POINTER (span->name))) == last_track + 1
          && (best == PS_SESSION_NO_SPAN
              || span->end_ns - span->begin_ns
                 < ps_event_store_get_span (run->store, best)->end_ns - ps_event_store_get_span (run->store, best)->begin_ns))
        best = i;
    }
  g_assert_cmpuint (best, !=, PS_SESSION_NO_SPAN);
  return best;
}

static PsScopeRow *
selected_scope (Run *run)
{
  return ps_selection_get_selected_row_item (ps_rtl_view_get_scope_view (run->rtl_view));
}

/* The position in the scope table of a scope, opening the rows above it
 * as a user would */
static guint
open_scope (Run     *run,
            guint64  span)
{
  GListModel *model = ps_rtl_view_get_scope_model (run->rtl_view);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint64 s = span; s != PS_NONE; s = ps_event_store_get_span (run->store, s)->parent)
    g_array_prepend_val (path, s);
  for (guint level = 0; level < path->len; level++)
    {
      guint64 wanted = g_array_index (path, guint64, level);
      gboolean found = FALSE;

      for (guint i = 0; i < g_list_model_get_n_items (model) && !found; i++)
        {
          g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);
          g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);

          if (ps_scope_row_get_kind (row) == PS_SCOPE_ROW_THREAD
              && ps_scope_row_get_index (row) == ps_event_store_get_span (run->store, span)->track)
            gtk_tree_list_row_set_expanded (tree_row, TRUE);
          if (ps_scope_row_get_kind (row) == PS_SCOPE_ROW_SPAN && ps_scope_row_get_index (row) == wanted)
            {
              if (level + 1 == path->len)
                return i;
              gtk_tree_list_row_set_expanded (tree_row, TRUE);
              found = TRUE;
            }
        }
      g_assert_true (found);
    }
  g_assert_not_reached ();
}

static void
select_scope_row (Run   *run,
                  guint  position)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_rtl_view_get_scope_view (run->rtl_view));

  gtk_selection_model_select_item (selection, position, TRUE);
  iterate_for (50);
}

/* The position of the total whose name ends with suffix, as shown */
static guint
find_total (PsRtlView  *view,
            const char *suffix)
{
  GListModel *model = ps_rtl_view_get_totals_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (model, i);

      if (g_str_has_suffix (ps_scope_total_row_get_name (row), suffix))
        return i;
    }
  g_assert_not_reached ();
}

static void
select_total (PsRtlView  *view,
              const char *suffix)
{
  gtk_selection_model_select_item (gtk_column_view_get_model (ps_rtl_view_get_totals_view (view)),
                                   find_total (view, suffix), TRUE);
}

static PsScopeTotalRow *
selected_total (Run *run)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_rtl_view_get_totals_view (run->rtl_view));

  return gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
}

typedef struct
{
  PsSession  *session;
  const char *description_suffix;
  guint32     track;
  guint64     n_spans;
} Highlight;

static gboolean
has_highlight (gpointer data)
{
  Highlight *wanted = data;
  PsSpanLod *highlight = ps_session_get_highlight (wanted->session);
  const char *description = ps_session_get_highlight_description (wanted->session);

  return highlight != NULL && g_str_has_suffix (description, wanted->description_suffix)
         && ps_span_lod_get_n_spans (highlight, wanted->track) == wanted->n_spans;
}

/* Whether some highlighted span of the track is in the visible range */
static gboolean
highlight_visible (Run     *run,
                   guint32  track)
{
  PsSpanLod *highlight = ps_session_get_highlight (run->session);
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (PsSpanLodItem));
  gint64 begin, end;
  guint n = 0;

  ps_session_get_visible_range (run->session, &begin, &end);
  for (guint depth = 0; depth < ps_span_lod_get_n_depths (highlight, track); depth++)
    n += ps_span_lod_query (highlight, track, depth, begin, end, (double)(end - begin), items);
  return n > 0;
}

/* Tests */

/* A scope row shows its scope on the timeline: its thread's row comes
 * into view, the scope gets the cursor's outline and is zoomed to when it
 * is too narrow to see */
static void
test_scope_row_shows_span (Fixture       *fixture,
                           gconstpointer  data)
{
  Run run = open_demo (fixture);
  guint64 span = find_lonely_span (&run);
  const PsSpan *s = ps_event_store_get_span (run.store, span);
  guint position;
  GdkRGBA color;

  ps_selection_accent_color (widget_is_dark (GTK_WIDGET (run.view)), &color);
  g_assert_false (span_in_view (&run, span, 4));
  position = open_scope (&run, span);
  select_scope_row (&run, position);

  g_assert_cmpuint (ps_session_get_selected_span (run.session), ==, span);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, s->track);
  g_assert_cmpuint (ps_timeline_view_get_cursor_span (run.view), ==, span);
  g_assert_true (span_in_view (&run, span, 4));
  /* Outlined in the accent colour (the timeline has the keyboard focus
   * or not: the outline is there either way, in one colour or another) */
  {
    g_autoptr(GdkTexture) texture = grab_timeline (run.view);
    GdkRGBA foreground;
    double y = ps_timeline_view_span_y (run.view, span);
    double x0 = MAX (ps_timeline_view_x_of (run.view, s->begin_ns), PS_TIMELINE_LABEL_WIDTH);
    double x1 = ps_timeline_view_x_of (run.view, s->end_ns);
    guint outline;

    ps_chart_get_foreground (GTK_WIDGET (run.view), &foreground);
    outline = count_pixels_near (texture, (int)x0, (int)y - 8, (int)x1, (int)y + 8, &color)
              + count_pixels_drawn_with (texture, (int)x0, (int)y - 8, (int)x1, (int)y + 8, &foreground);
    g_assert_cmpuint (outline, >, 10);
  }
  /* The thread's label is marked */
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, s->track), >, 30);
  maybe_save_screenshot (fixture, "links-rtl-scope-row");
}

/* Enter on a scope row zooms the timeline to it */
static void
test_scope_row_enter_zooms (Fixture       *fixture,
                            gconstpointer  data)
{
  Run run = open_example (fixture);
  guint64 span = find_span (run.store, "::B", 65 * MS);
  guint position = open_scope (&run, span);
  gint64 begin, end;

  g_signal_emit_by_name (ps_rtl_view_get_scope_view (run.rtl_view), "activate", position);
  iterate_for (50);
  g_assert_cmpuint (ps_session_get_selected_span (run.session), ==, span);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, <=, 65 * MS);
  g_assert_cmpint (begin, >=, 64 * MS);
  g_assert_cmpint (end, >=, 80 * MS);
  g_assert_cmpint (end, <=, 81 * MS);
}

/* A message row brings its time into view and focuses its thread; a
 * thread's row focuses the thread */
static void
test_message_row_reveals (Fixture       *fixture,
                          gconstpointer  data)
{
  Run run = open_demo (fixture);
  GListModel *model = ps_rtl_view_get_scope_model (run.rtl_view);
  const PsMark *mark = NULL;
  gint64 begin, end;

  /* Zoomed into the first millisecond, where no message is */
  ps_session_set_visible_range (run.session, 0, MS);
  for (guint i = 0; i < g_list_model_get_n_items (model) && mark == NULL; i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);
      g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);

      if (ps_scope_row_get_kind (row) == PS_SCOPE_ROW_MARK
          && ps_event_store_get_mark (run.store, ps_scope_row_get_index (row))->time_ns > 10 * MS)
        {
          mark = ps_event_store_get_mark (run.store, ps_scope_row_get_index (row));
          select_scope_row (&run, i);
        }
    }
  g_assert_nonnull (mark);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, mark->track);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, <=, mark->time_ns);
  g_assert_cmpint (end, >=, mark->time_ns);
  g_assert_cmpint (end - begin, ==, MS);
  /* Marked over the thread's strip of messages */
  {
    g_autoptr(GdkTexture) texture = grab_timeline (run.view);
    double x = ps_timeline_view_x_of (run.view, mark->time_ns);
    double y = ps_timeline_view_get_row_y (run.view, mark->track);
    GdkRGBA color;

    ps_selection_accent_color (widget_is_dark (GTK_WIDGET (run.view)), &color);
    g_assert_cmpuint (count_pixels_near (texture, (int)x - 2, (int)y, (int)x + 2, (int)y + PS_TIMELINE_MARK_HEIGHT - 1,
                                         &color), >=, 2 * (PS_TIMELINE_MARK_HEIGHT - 1));
  }

  /* A thread's row: the thread, its row on the timeline in view */
  for (guint i = g_list_model_get_n_items (model); i-- > 0;)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (model, i);
      g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);
      guint32 track;
      double y;

      if (ps_scope_row_get_kind (row) != PS_SCOPE_ROW_THREAD || ps_scope_row_get_index (row) == mark->track)
        continue;
      track = ps_scope_row_get_index (row);
      select_scope_row (&run, i);
      g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, track);
      g_assert_cmpuint (ps_session_get_selected_span (run.session), ==, PS_SESSION_NO_SPAN);
      y = ps_timeline_view_get_row_y (run.view, track);
      g_assert_cmpfloat (y, >=, PS_TIMELINE_HEADER_HEIGHT);
      g_assert_cmpfloat (y, <, gtk_widget_get_height (GTK_WIDGET (run.view)));
      return;
    }
  g_assert_not_reached ();
}

/* A scope clicked on the timeline selects its row in the scope table, its
 * total and its function in the call tree; a thread's label selects the
 * thread's row */
static void
test_timeline_span_selects_rows (Fixture       *fixture,
                                 gconstpointer  data)
{
  Run run = open_example (fixture);
  PsCallTreeView *call_tree = ps_run_view_get_call_tree_view (PS_RUN_VIEW (run.rtl_view));
  guint64 span = find_span (run.store, "::B", 65 * MS);
  g_autoptr(PsScopeRow) row = NULL;
  g_autoptr(PsScopeRow) thread_row = NULL;
  PsScopeTotalRow *total;
  guint32 worker_track = ps_event_store_get_span (run.store, find_span (run.store, "::worker", 141 * MS))->track;

  g_assert_null (selected_scope (&run));
  ps_timeline_view_click (run.view, ps_timeline_view_x_of (run.view, 72 * MS), ps_timeline_view_span_y (run.view, span));
  g_assert_cmpuint (ps_session_get_selected_span (run.session), ==, span);
  g_assert_true (iterate_until (run_view_is_idle, run.rtl_view));
  iterate_for (50);

  row = selected_scope (&run);
  g_assert_nonnull (row);
  g_assert_cmpint (ps_scope_row_get_kind (row), ==, PS_SCOPE_ROW_SPAN);
  g_assert_cmpuint (ps_scope_row_get_index (row), ==, span);
  total = selected_total (&run);
  g_assert_nonnull (total);
  g_assert_true (g_str_has_suffix (ps_scope_total_row_get_name (total), "::B"));
  g_assert_true (iterate_until (call_tree_is_idle, call_tree));
  g_assert_cmpuint (ps_call_tree_view_get_selected_function (call_tree), ==,
                    ps_call_tree_lookup_function (ps_call_tree_view_get_tree (call_tree), "::B"));
  /* Following the timeline lights nothing up by itself */
  g_assert_null (ps_session_get_highlight (run.session));

  /* The click selected B's time range too: the worker has nothing in it,
   * and no row in the table */
  ps_timeline_view_click (run.view, 20, ps_timeline_view_get_row_y (run.view, worker_track) + 8);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, worker_track);
  g_assert_null (selected_scope (&run));
  ps_session_clear_selection (run.session);
  g_assert_true (iterate_until (run_view_is_idle, run.rtl_view));
  iterate_for (50);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, worker_track);
  g_assert_cmpuint (ps_session_get_selected_span (run.session), ==, PS_SESSION_NO_SPAN);
  thread_row = selected_scope (&run);
  g_assert_nonnull (thread_row);
  g_assert_cmpint (ps_scope_row_get_kind (thread_row), ==, PS_SCOPE_ROW_THREAD);
  g_assert_cmpuint (ps_scope_row_get_index (thread_row), ==, worker_track);
}

/* A message clicked on the timeline selects its row in the scope table */
static void
test_timeline_message_selects_row (Fixture       *fixture,
                                   gconstpointer  data)
{
  Run run = open_demo (fixture);
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  guint32 track = PS_NONE;
  const PsMark *mark = NULL;
  g_autoptr(PsScopeRow) row = NULL;
  guint64 chosen;

  /* A message of the first thread, 40 ms into view */
  for (guint r = 0; r < model->rows->len && track == PS_NONE; r++)
    {
      const PsTimelineRow *timeline_row = g_ptr_array_index (model->rows, r);

      if (timeline_row->kind == PS_TIMELINE_ROW_SPANS && timeline_row->has_marks)
        track = timeline_row->track;
    }
  g_assert_cmpuint (track, !=, PS_NONE);
  for (guint64 i = 0; i < ps_event_store_get_n_marks (run.store) && mark == NULL; i++)
    if (ps_event_store_get_mark (run.store, i)->track == track && ps_event_store_get_mark (run.store, i)->time_ns > 50 * MS)
      mark = ps_event_store_get_mark (run.store, i);
  g_assert_nonnull (mark);
  ps_session_set_visible_range (run.session, mark->time_ns - 20 * MS, mark->time_ns + 20 * MS);
  iterate_for (50);
  ps_timeline_view_click (run.view, ps_timeline_view_x_of (run.view, mark->time_ns),
                          ps_timeline_view_get_row_y (run.view, track) + PS_TIMELINE_MARK_HEIGHT / 2);
  chosen = ps_session_get_selected_mark (run.session);
  g_assert_cmpuint (chosen, !=, PS_SESSION_NO_MARK);
  g_assert_cmpuint (ps_event_store_get_mark (run.store, chosen)->track, ==, track);
  g_assert_cmpint (llabs (ps_event_store_get_mark (run.store, chosen)->time_ns - mark->time_ns), <=, MS);
  g_assert_cmpuint (ps_session_get_selected_span (run.session), ==, PS_SESSION_NO_SPAN);

  row = selected_scope (&run);
  g_assert_nonnull (row);
  g_assert_cmpint (ps_scope_row_get_kind (row), ==, PS_SCOPE_ROW_MARK);
  g_assert_cmpuint (ps_scope_row_get_index (row), ==, chosen);
}

/* A total lights up its calls, which the timeline brings into view; the
 * bars of its histogram narrow them down */
static void
test_totals_highlight_calls (Fixture       *fixture,
                             gconstpointer  data)
{
  Run run = open_example (fixture);
  PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (run.rtl_view));
  guint32 track = ps_event_store_get_span (run.store, find_span (run.store, "::B", 30 * MS))->track;
  Highlight all = { run.session, "::B", track, 3 };
  Highlight longest = { run.session, "", track, 1 };

  /* Zoomed into main's first 5 ms, where no B is */
  ps_session_set_visible_range (run.session, 0, 5 * MS);
  ps_rtl_view_show_page (run.rtl_view, "totals");
  select_total (run.rtl_view, "::B");
  g_assert_true (iterate_until (has_highlight, &all));
  iterate_for (50);
  g_assert_true (highlight_visible (&run, track));
  g_assert_true (g_str_has_prefix (ps_timeline_view_get_status (run.view), "Highlighted: Calls of "));

  /* The longest bar: B 30–60 alone; zoomed elsewhere first */
  ps_session_set_visible_range (run.session, 140 * MS, 150 * MS);
  ps_histogram_view_select_bins (histogram, ps_histogram_view_get_histogram (histogram)->n_bins - 1,
                                 ps_histogram_view_get_histogram (histogram)->n_bins - 1);
  g_assert_true (iterate_until (has_highlight, &longest));
  g_assert_true (g_str_has_prefix (ps_session_get_highlight_description (run.session), "Selected: 1 call"));
  iterate_for (50);
  g_assert_true (highlight_visible (&run, track));
  g_assert_true (span_in_view (&run, find_span (run.store, "::B", 30 * MS), 1));
}

/* The rows of a table drawn in its visible area */
static guint
count_shown_rows (GtkColumnView *view)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  guint n_shown = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      for (GtkWidget *row = gtk_widget_get_first_child (child); row != NULL; row = gtk_widget_get_next_sibling (row))
        {
          graphene_rect_t bounds;

          if (gtk_widget_get_mapped (row) && gtk_widget_compute_bounds (row, scrolled, &bounds)
              && bounds.size.height > 0 && bounds.origin.y + bounds.size.height > 0
              && bounds.origin.y < gtk_widget_get_height (scrolled))
            n_shown++;
        }
  return n_shown;
}

/* A scope chosen on the Scopes page selects its total while the Totals
 * page is hidden; shown, that page has the row in view among its
 * neighbours (GTK 4.8 scrolled a hidden table to the row with no rows
 * drawn around it until the next scroll) */
static void
test_hidden_totals_follow (Fixture       *fixture,
                           gconstpointer  data)
{
  Run run = open_demo (fixture);
  GtkColumnView *totals = ps_rtl_view_get_totals_view (run.rtl_view);
  GListModel *shown = ps_rtl_view_get_totals_model (run.rtl_view);
  guint n_totals = g_list_model_get_n_items (shown);
  g_autoptr(PsScopeTotalRow) last = g_list_model_get_item (shown, n_totals - 1);
  const char *name = ps_scope_total_row_get_name (last);
  guint64 span = PS_NONE;
  GtkSelectionModel *selection;

  g_assert_cmpuint (n_totals, >, 40);
  for (guint64 i = 0; i < ps_event_store_get_n_spans (run.store) && span == PS_NONE; i++)
    if (g_strcmp0 (ps_event_store_get_string (run.store, ps_event_store_get_span (run.store, i)->name), name) == 0)
      span = i;
  g_assert_cmpuint (span, !=, PS_NONE);

  ps_rtl_view_show_page (run.rtl_view, "scopes");
  iterate_for (100);
  select_scope_row (&run, open_scope (&run, span));
  iterate_for (100);
  selection = gtk_column_view_get_model (totals);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (selection)), ==, n_totals - 1);

  ps_rtl_view_show_page (run.rtl_view, "totals");
  iterate_for (300);
  g_test_message ("%u of %u totals drawn", count_shown_rows (totals), n_totals);
  g_assert_cmpuint (count_shown_rows (totals), >=, 8);
  /* Scrolled to the last row */
  {
    GtkScrolledWindow *scrolled = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (totals),
                                                                                GTK_TYPE_SCROLLED_WINDOW));
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scrolled);

    g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment), >=,
                       gtk_adjustment_get_upper (adjustment) - 1);
  }
}

/* A total chosen in a window of a laptop's height, where the timeline
 * has little room: the first of its calls is shown above the status
 * strip that names it, not under it */
static void
test_highlight_above_status (Fixture       *fixture,
                             gconstpointer  data)
{
  Run run = open_demo (fixture);
  guint64 span = find_span (run.store, "register services", 0);
  guint32 track = ps_event_store_get_span (run.store, span)->track;
  Highlight highlight = { run.session, "register services", track, 1 };
  double y, height;

  fixture_resize_window (fixture, 1024, 700);
  ps_rtl_view_show_page (run.rtl_view, "totals");
  iterate_for (200);
  select_total (run.rtl_view, "register services");
  g_assert_true (iterate_until (has_highlight, &highlight));
  iterate_for (300);
  y = ps_timeline_view_span_y (run.view, span);
  height = gtk_widget_get_height (GTK_WIDGET (run.view));
  g_test_message ("the call at %.0f px, the timeline %.0f px high", y, height);
  g_assert_cmpfloat (y - PS_TIMELINE_SPAN_HEIGHT / 2, >=, PS_TIMELINE_HEADER_HEIGHT);
  g_assert_cmpfloat (y + PS_TIMELINE_SPAN_HEIGHT / 2, <=, height - PS_TIMELINE_STATUS_HEIGHT);
}

/* Enter on a total lists its calls in the scope table */
static void
test_total_enter_lists_calls (Fixture       *fixture,
                              gconstpointer  data)
{
  Run run = open_example (fixture);
  GtkColumnView *totals = ps_rtl_view_get_totals_view (run.rtl_view);
  GListModel *scopes;
  guint n_b = 0;

  ps_rtl_view_show_page (run.rtl_view, "totals");
  g_signal_emit_by_name (totals, "activate", find_total (run.rtl_view, "::B"));
  g_assert_true (iterate_until (run_view_is_idle, run.rtl_view));
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (run.rtl_view)), ==, "scopes");
  scopes = ps_rtl_view_get_scope_model (run.rtl_view);
  for (guint i = 0; i < g_list_model_get_n_items (scopes); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (scopes, i);
      g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);

      g_assert_true (g_str_has_suffix (ps_scope_row_get_name (row), "::B"));
      n_b++;
    }
  g_assert_cmpuint (n_b, ==, 3);
}

/* A function chosen in the call tree lights up its calls; when they are
 * on a thread scrolled out of sight, the timeline scrolls to it */
static void
test_function_highlight_scrolls (Fixture       *fixture,
                                 gconstpointer  data)
{
  Run run = open_demo (fixture);
  PsCallTreeView *call_tree = ps_run_view_get_call_tree_view (PS_RUN_VIEW (run.rtl_view));
  guint64 span = find_lonely_span (&run);
  const PsSpan *s = ps_event_store_get_span (run.store, span);
  const char *name = ps_event_store_get_string (run.store, s->name);
  gsize length;
  const char *function_part = ps_call_tree_function_of_name (name, &length);
  g_autofree char *function_name = g_strndup (function_part, length);
  guint32 function;
  double row_y;

  g_assert_true (iterate_until (call_tree_is_idle, call_tree));
  function = ps_call_tree_lookup_function (ps_call_tree_view_get_tree (call_tree), function_name);
  g_assert_cmpuint (function, !=, PS_NONE);
  row_y = ps_timeline_view_get_row_y (run.view, s->track);
  g_assert_cmpfloat (row_y, >, gtk_widget_get_height (GTK_WIDGET (run.view)));

  ps_rtl_view_show_page (run.rtl_view, "calltree");
  g_assert_true (ps_call_tree_view_select_function (call_tree, function));
  {
    Highlight wanted = { run.session, function_name, s->track, 0 };
    PsSpanLod *highlight;

    for (guint64 i = 0; i < ps_event_store_get_n_spans (run.store); i++)
      wanted.n_spans += ps_event_store_get_span (run.store, i)->name == s->name;
    g_assert_true (iterate_until (has_highlight, &wanted));
    highlight = ps_session_get_highlight (run.session);
    g_assert_nonnull (highlight);
  }
  iterate_for (50);
  g_assert_true (highlight_visible (&run, s->track));
  /* One of the calls, at least, lies in the rows shown */
  {
    gboolean seen = FALSE;

    for (guint64 i = 0; i < ps_event_store_get_n_spans (run.store) && !seen; i++)
      seen = ps_event_store_get_span (run.store, i)->name == s->name && span_in_view (&run, i, 0);
    g_assert_true (seen);
  }
  maybe_save_screenshot (fixture, "links-rtl-function");
}

/* The thread chosen for the call tree is focused on the timeline */
static void
test_call_tree_thread_focuses (Fixture       *fixture,
                               gconstpointer  data)
{
  Run run = open_demo (fixture);
  PsCallTreeView *call_tree = ps_run_view_get_call_tree_view (PS_RUN_VIEW (run.rtl_view));
  GListModel *threads;
  guint32 track;

  ps_rtl_view_show_page (run.rtl_view, "calltree");
  g_assert_true (iterate_until (call_tree_is_idle, call_tree));
  g_assert_true (ps_call_tree_view_has_thread_choice (call_tree));
  threads = ps_call_tree_view_get_threads (call_tree);
  /* The last thread: its row lies below the others */
  ps_call_tree_view_select_thread (call_tree, g_list_model_get_n_items (threads) - 1);
  track = ps_call_tree_view_get_thread (call_tree);
  g_assert_cmpuint (track, !=, PS_NONE);
  /* Focused: no longer where it was, below the rows shown */
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, track), >, 30);
  ps_session_set_focus_track (run.session, PS_NONE);
  gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (run.view)), 0);
  iterate_for (50);
  g_assert_false (timeline_row_in_view (run.view, track));
  ps_call_tree_view_select_thread (call_tree, 0);
  ps_call_tree_view_select_thread (call_tree, g_list_model_get_n_items (threads) - 1);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, track);
  g_assert_true (timeline_row_in_view (run.view, track));
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, track), >, 30);
}

/* A frame of the flame graph lights up its function's calls */
static void
test_flame_frame_highlights (Fixture       *fixture,
                             gconstpointer  data)
{
  Run run = open_example (fixture);
  PsCallTreeView *call_tree = ps_run_view_get_call_tree_view (PS_RUN_VIEW (run.rtl_view));
  PsFlameGraph *flame = ps_call_tree_view_get_flame_graph (call_tree);
  guint32 track = ps_event_store_get_span (run.store, 0)->track;
  Highlight wanted = { run.session, "::C", track, 1 };
  const char *path[] = { "::main", "::C", NULL };
  double x, y, width, height;
  int flame_width;

  ps_rtl_view_show_page (run.rtl_view, "calltree");
  ps_call_tree_view_set_mode (call_tree, "flame-graph");
  g_assert_true (iterate_until (widget_is_drawn, flame));
  flame_width = gtk_widget_get_width (GTK_WIDGET (flame));
  g_assert_true (_ps_flame_graph_get_frame (flame, flame_width, path, &x, &y, &width, &height));
  _ps_flame_graph_click (flame, flame_width, x + width / 2, y + height / 2);
  g_assert_true (iterate_until (has_highlight, &wanted));
  g_assert_cmpuint (ps_call_tree_view_get_selected_function (call_tree), ==,
                    ps_call_tree_lookup_function (ps_call_tree_view_get_tree (call_tree), "::C"));
}

/* A time range dragged on the timeline limits the scope table, the
 * totals' histogram and the call tree */
static void
test_range_limits_views (Fixture       *fixture,
                         gconstpointer  data)
{
  Run run = open_example (fixture);
  PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (run.rtl_view));
  PsCallTreeView *call_tree = ps_run_view_get_call_tree_view (PS_RUN_VIEW (run.rtl_view));
  double y = ps_timeline_view_get_row_y (run.view, ps_event_store_get_span (run.store, 0)->track) + 30;

  ps_rtl_view_show_page (run.rtl_view, "totals");
  select_total (run.rtl_view, "::B");
  g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, 3);

  ps_timeline_view_drag (run.view, ps_timeline_view_x_of (run.view, 25 * MS), y,
                         ps_timeline_view_x_of (run.view, 90 * MS), y);
  g_assert_true (ps_session_get_selection (run.session, NULL, NULL));
  g_assert_true (iterate_until (run_view_is_idle, run.rtl_view));
  g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, 2);
  g_assert_true (ps_call_tree_view_has_span_selection (call_tree));
  /* The scope table: main and A are not wholly inside; the B of 30–60 is
   * shown at the top of its thread */
  {
    GListModel *scopes = ps_rtl_view_get_scope_model (run.rtl_view);
    gboolean has_c = FALSE;
    guint n_b = 0;

    for (guint i = 0; i < g_list_model_get_n_items (scopes); i++)
      {
        g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (scopes, i);
        g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);

        gtk_tree_list_row_set_expanded (tree_row, TRUE);
        has_c |= g_str_has_suffix (ps_scope_row_get_name (row), "::C");
        n_b += g_str_has_suffix (ps_scope_row_get_name (row), "::B");
      }
    g_assert_false (has_c);
    g_assert_cmpuint (n_b, ==, 2);
  }
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/links/rtl/scope-row-shows-span", test_scope_row_shows_span);
  ADD_TEST ("/links/rtl/scope-row-enter-zooms", test_scope_row_enter_zooms);
  ADD_TEST ("/links/rtl/message-and-thread-rows", test_message_row_reveals);
  ADD_TEST ("/links/rtl/timeline-span-selects-rows", test_timeline_span_selects_rows);
  ADD_TEST ("/links/rtl/timeline-message-selects-row", test_timeline_message_selects_row);
  ADD_TEST ("/links/rtl/totals-highlight-calls", test_totals_highlight_calls);
  ADD_TEST ("/links/rtl/hidden-totals-follow", test_hidden_totals_follow);
  ADD_TEST ("/links/rtl/highlight-above-status", test_highlight_above_status);
  ADD_TEST ("/links/rtl/total-enter-lists-calls", test_total_enter_lists_calls);
  ADD_TEST ("/links/rtl/function-highlight-scrolls", test_function_highlight_scrolls);
  ADD_TEST ("/links/rtl/call-tree-thread-focuses", test_call_tree_thread_focuses);
  ADD_TEST ("/links/rtl/flame-frame-highlights", test_flame_frame_highlights);
  ADD_TEST ("/links/rtl/range-limits-views", test_range_limits_views);

  return gui_test_run ();
}

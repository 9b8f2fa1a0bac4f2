/* test-links-counters.c — a counter run's views follow one selection (Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/selection.md, PDH logs, PerfLib V2 captures and live recordings: a
 * counter chosen in the tree or in the statistics is focused on the
 * timeline (its chart's row scrolled to and marked) and drawn over the
 * others in its chart; a counter's row chosen on the timeline selects it
 * in the tree and the statistics; a counter checked after it was chosen
 * is marked as soon as it has a row; a range selected on the timeline is
 * shaded on the charts and its visible range is theirs, and the
 * statistics are of its readings only, which a line above them says,
 * until it is cleared; during a live
 * recording, a row chosen on the timeline is drawn over the others in
 * the recording's charts.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "gui-fixture.h"
#include "ps-counters-view-private.h"
#include "ps-record-dialog.h"
#include "ps-record-page.h"
#include "ps-run-page-private.h"
#include "ps-timeline-view.h"
#include "ps-view-util.h"
#include "ps-window.h"

typedef struct
{
  PsRunPage      *page;
  PsCountersView *counters_view;
  PsTimelineView *view;
  PsSession      *session;
  PsEventStore   *store;
} Run;

static const char *demo_files[] = { "perfmon_4cpu.csv", "processor_4cpu.plv2" };

static Run
open_demo (Fixture    *fixture,
           const char *name)
{
  g_autofree char *path = demo_file_path (name);
  RunViews views = open_run_views (fixture, path);
  Run run = { views.page, ps_run_page_get_counters_view (views.page), views.timeline, views.session, views.store };

  ps_counters_view_update_now (run.counters_view);
  iterate_for (50);
  return run;
}

static PsCounterNode *
last_checked (Run *run)
{
  g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (run->counters_view);

  g_assert_cmpuint (checked->len, >, 1);
  return g_ptr_array_index (checked, checked->len - 1);
}

static PsCounterNode *
tree_selected (Run *run)
{
  GtkSelectionModel *selection = ps_counters_view_get_tree_selection (run->counters_view);
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

static PsCounterNode *
stats_selected (Run *run)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_counters_view_get_stats_view (run->counters_view));

  gpointer item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));

  return item != NULL ? g_object_ref (item) : NULL;
}

/* Selects the node's row of the tree as a user would: its parents opened */
static void
select_tree_row (Run           *run,
                 PsCounterNode *node)
{
  GtkSelectionModel *selection = ps_counters_view_get_tree_selection (run->counters_view);
  GListModel *rows = G_LIST_MODEL (selection);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(PsCounterNode) item = gtk_tree_list_row_get_item (row);

      if (item == node)
        {
          gtk_selection_model_select_item (selection, i, TRUE);
          iterate_for (50);
          return;
        }
      gtk_tree_list_row_set_expanded (row, TRUE);
    }
  g_assert_not_reached ();
}

/* Whether the counter's series, and it alone, is drawn over the others */
static gboolean
emphasized_in_charts (Run     *run,
                      guint32  track)
{
  guint n_emphasized = 0;
  gboolean found = FALSE;

  for (guint c = 0; c < ps_counters_view_get_n_charts (run->counters_view); c++)
    {
      guint emphasized = ps_counter_chart_get_emphasized (ps_counters_view_get_chart (run->counters_view, c));

      if (emphasized == G_MAXUINT)
        continue;
      n_emphasized++;
      found |= ps_counters_view_get_series_track (run->counters_view, c, emphasized) == track;
    }
  return found && n_emphasized == 1;
}

/* Tests */

/* A counter chosen in the tree: its chart's row comes into view on the
 * timeline and is marked; its series is drawn over the others */
static void
test_tree_row_focuses_timeline (Fixture       *fixture,
                                gconstpointer  data)
{
  for (guint f = 0; f < G_N_ELEMENTS (demo_files); f++)
    {
      Run run = open_demo (fixture, demo_files[f]);
      PsCounterNode *node = last_checked (&run);
      guint32 track = ps_counter_node_get_track (node);

      g_assert_cmpuint (timeline_focus_bar_pixels (run.view, track), ==, 0);
      select_tree_row (&run, node);
      g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, track);
      g_assert_true (timeline_row_in_view (run.view, track));
      g_assert_cmpuint (timeline_focus_bar_pixels (run.view, track), >, 30);
      g_assert_true (emphasized_in_charts (&run, track));
      {
        g_autoptr(PsCounterNode) selected = stats_selected (&run);

        g_assert_true (selected == node);
      }
      maybe_save_screenshot (fixture, "links-counters-tree");
    }
}

/* A counter chosen in the statistics: the same, and its row in the tree */
static void
test_stats_row_focuses (Fixture       *fixture,
                        gconstpointer  data)
{
  Run run = open_demo (fixture, demo_files[0]);
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_counters_view_get_stats_view (run.counters_view));
  GListModel *stats = ps_counters_view_get_stats_model (run.counters_view);
  guint last = g_list_model_get_n_items (stats) - 1;
  g_autoptr(PsCounterNode) node = g_list_model_get_item (stats, last);
  g_autoptr(PsCounterNode) in_tree = NULL;
  guint32 track = ps_counter_node_get_track (node);

  gtk_selection_model_select_item (selection, last, TRUE);
  iterate_for (50);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, track);
  g_assert_true (timeline_row_in_view (run.view, track));
  in_tree = tree_selected (&run);
  g_assert_true (in_tree == node);
  g_assert_true (emphasized_in_charts (&run, track));
}

/* A counter's row chosen on the timeline selects it in the tree and the
 * statistics */
static void
test_timeline_row_selects_counter (Fixture       *fixture,
                                   gconstpointer  data)
{
  for (guint f = 0; f < G_N_ELEMENTS (demo_files); f++)
    {
      Run run = open_demo (fixture, demo_files[f]);
      g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (run.counters_view);
      PsCounterNode *node = g_ptr_array_index (checked, 0);
      guint32 track = ps_counter_node_get_track (node);
      g_autoptr(PsCounterNode) in_tree = NULL;
      g_autoptr(PsCounterNode) in_stats = NULL;

      g_assert_true (timeline_row_in_view (run.view, track));
      ps_timeline_view_click (run.view, gtk_widget_get_width (GTK_WIDGET (run.view)) / 2.0,
                              ps_timeline_view_get_row_y (run.view, track) + 30);
      g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, track);
      in_tree = tree_selected (&run);
      in_stats = stats_selected (&run);
      g_assert_true (in_tree == node);
      g_assert_true (in_stats == node);
      g_assert_true (emphasized_in_charts (&run, track));
    }
}

/* A counter chosen before it is checked has no chart on the timeline; its
 * row is marked once it is checked */
static void
test_unchecked_counter_marked_when_checked (Fixture       *fixture,
                                            gconstpointer  data)
{
  Run run = open_demo (fixture, demo_files[0]);
  GListModel *rows = G_LIST_MODEL (ps_counters_view_get_tree_selection (run.counters_view));
  PsCounterNode *unchecked = NULL;
  guint32 track;

  for (guint i = 0; i < g_list_model_get_n_items (rows) && unchecked == NULL; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(PsCounterNode) item = gtk_tree_list_row_get_item (row);

      if (ps_counter_node_get_kind (item) == PS_TRACK_COUNTER && !ps_counter_node_get_checked (item))
        unchecked = item;
    }
  g_assert_nonnull (unchecked);
  track = ps_counter_node_get_track (unchecked);
  select_tree_row (&run, unchecked);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, track);
  g_assert_cmpfloat (ps_timeline_view_get_row_y (run.view, track), ==, -1);

  ps_counter_node_set_checked (unchecked, TRUE);
  ps_counters_view_update_now (run.counters_view);
  iterate_for (100);
  g_assert_true (timeline_row_in_view (run.view, track));
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, track), >, 30);
  g_assert_true (emphasized_in_charts (&run, track));
}

/* A range dragged on the timeline is shaded on the charts; the timeline's
 * zoom is theirs */
static void
test_range_on_charts (Fixture       *fixture,
                      gconstpointer  data)
{
  Run run = open_demo (fixture, demo_files[0]);
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  PsCounterChart *chart = ps_counters_view_get_chart (run.counters_view, 0);
  gint64 length = model->extent_end - model->extent_begin;
  gint64 begin, end, chart_begin, chart_end, visible_begin, visible_end;
  double y = PS_TIMELINE_HEADER_HEIGHT + PS_TIMELINE_GROUP_HEIGHT + 30;
  double low, high;

  g_assert_false (ps_counter_chart_get_selection (chart, NULL, NULL));
  ps_timeline_view_drag (run.view, ps_timeline_view_x_of (run.view, model->extent_begin + length / 4), y,
                         ps_timeline_view_x_of (run.view, model->extent_begin + length / 2), y);
  g_assert_true (ps_session_get_selection (run.session, &begin, &end));
  g_assert_true (ps_counter_chart_get_selection (chart, &chart_begin, &chart_end));
  g_assert_cmpint (chart_begin, ==, begin);
  g_assert_cmpint (chart_end, ==, end);

  ps_timeline_view_zoom_to_selection (run.view);
  iterate_for (50);
  ps_session_get_visible_range (run.session, &visible_begin, &visible_end);
  g_assert_true (ps_counter_chart_get_axes (chart, &chart_begin, &chart_end, &low, &high));
  g_assert_cmpint (chart_begin, ==, visible_begin);
  g_assert_cmpint (chart_end, ==, visible_end);
  g_assert_cmpint (visible_end - visible_begin, <, length / 2);

  ps_session_clear_selection (run.session);
  g_assert_false (ps_counter_chart_get_selection (chart, NULL, NULL));
}

/* Statistics of a range */

/* What the test expects of a counter over a range, counted here from the
 * store's readings */
typedef struct
{
  guint64 n_values;
  guint64 n_missing;
  double  min;
  double  max;
  double  sum;
  double  last;
  gint64  last_ns;
} Expected;

static Expected
expected_in_range (PsEventStore *store,
                   guint32       track,
                   gint64        begin,
                   gint64        end)
{
  Expected expected = { 0, 0, INFINITY, -INFINITY, 0, NAN, G_MININT64 };

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track != track || value->time_ns < begin || value->time_ns > end)
        continue;
      if ((value->flags & PS_COUNTER_FLAG_MISSING) || !isfinite (value->value))
        {
          expected.n_missing++;
          continue;
        }
      expected.n_values++;
      expected.sum += value->value;
      if (value->value < expected.min)
        expected.min = value->value;
      if (value->value > expected.max)
        expected.max = value->value;
      if (value->time_ns >= expected.last_ns)
        expected.last = value->value, expected.last_ns = value->time_ns;
    }
  return expected;
}

/* A number as the table writes it, with the counter's unit */
static char *
expected_text (double      value,
               const char *unit)
{
  g_autofree char *number = NULL;

  if (g_strcmp0 (unit, "bytes") == 0)
    return ps_view_format_quantity (PS_VIEW_QUANTITY_BYTES, value);
  if (g_strcmp0 (unit, "s") == 0)
    return ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, value);
  number = ps_view_format_number (value);
  return *unit != '\0' ? g_strdup_printf ("%s %s", number, unit) : g_steal_pointer (&number);
}

static void
assert_cell (Run           *run,
             PsCounterNode *node,
             const char    *column,
             const char    *expected)
{
  g_autofree char *text = ps_counters_view_get_stats_cell_text (run->counters_view, node, column);

  g_assert_cmpstr (text, ==, expected);
}

/* Every row of the statistics shows what was counted here over the range */
static void
assert_stats_of_range (Run    *run,
                       gint64  begin,
                       gint64  end)
{
  GListModel *rows = ps_counters_view_get_stats_model (run->counters_view);

  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 1);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCounterNode) node = g_list_model_get_item (rows, i);
      const char *unit = ps_counter_node_get_unit (node);
      Expected expected = expected_in_range (run->store, ps_counter_node_get_track (node), begin, end);
      g_autofree char *count = ps_view_format_count (expected.n_values);
      g_autofree char *missing = ps_view_format_count (expected.n_missing);
      g_autofree char *min = NULL;
      g_autofree char *max = NULL;
      g_autofree char *mean = NULL;
      g_autofree char *last = NULL;

      g_assert_cmpuint (expected.n_values, >, 0);
      min = expected_text (expected.min, unit);
      max = expected_text (expected.max, unit);
      mean = expected_text (expected.sum / (double)expected.n_values, unit);
      last = expected_text (expected.last, unit);
      assert_cell (run, node, "Count", count);
      assert_cell (run, node, "Missing", missing);
      assert_cell (run, node, "Min", min);
      assert_cell (run, node, "Max", max);
      assert_cell (run, node, "Mean", mean);
      assert_cell (run, node, "Last", last);
    }
}

/* The text of every statistic of every row, as shown */
static GPtrArray *
stats_texts (Run *run)
{
  static const char *columns[] = { "Count", "Missing", "Min", "Max", "Mean", "Last" };
  GListModel *rows = ps_counters_view_get_stats_model (run->counters_view);
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PsCounterNode) node = g_list_model_get_item (rows, i);

      g_ptr_array_add (texts, g_strdup (ps_counter_node_get_label (node)));
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        g_ptr_array_add (texts, ps_counters_view_get_stats_cell_text (run->counters_view, node, columns[c]));
    }
  return texts;
}

static gboolean
same_texts (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (g_strcmp0 (g_ptr_array_index (a, i), g_ptr_array_index (b, i)) != 0)
      return FALSE;
  return TRUE;
}

static gboolean
stats_computed (gpointer data)
{
  return !ps_run_view_is_busy (PS_RUN_VIEW (data));
}

/* The notice names both ends of the range on the clock, in the file's
 * zone (named once, after the second), and from the start of the run as
 * the axis counts */
static void
assert_notice_names (Run    *run,
                     gint64  begin,
                     gint64  end)
{
  const char *notice = ps_counters_view_get_range_notice (run->counters_view);
  const PsSessionInfo *info = ps_event_store_get_session (run->store, 0);
  int offset_minutes;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *zone = NULL;
  g_autofree char *from_start = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, (double)begin / 1e9);
  g_autofree char *to_start = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, (double)end / 1e9);
  g_autofree char *clock_range = NULL;

  g_assert_nonnull (notice);
  g_assert_cmpint (info->origin_unix_ns, !=, 0);
  ps_view_run_utc_offset (run->store, 0, &offset_minutes);
  from = ps_view_format_wall_time (info->origin_unix_ns + begin, offset_minutes, "%H:%M:%S");
  to = ps_view_format_wall_time (info->origin_unix_ns + end, offset_minutes, "%H:%M:%S");
  zone = ps_view_format_zone (offset_minutes);
  /* "01:08:44.736 UTC−08:00": the zone after the second time only */
  g_assert_true (g_str_has_suffix (from, zone));
  from[strlen (from) - strlen (zone) - 1] = '\0';
  clock_range = g_strdup_printf ("%s to %s", from, to);
  g_assert_nonnull (strstr (notice, clock_range));
  g_assert_nonnull (strstr (notice, from_start));
  g_assert_nonnull (strstr (notice, to_start));
  g_assert_nonnull (strstr (notice, "selected on the timeline"));
}

/* A range dragged on the timeline: the statistics are of its readings,
 * as counted here from the store, and the line above them says which;
 * a second range before the first is computed replaces it; Escape on the
 * timeline and the notice's button bring back those of every reading */
static void
test_range_statistics (Fixture       *fixture,
                       gconstpointer  data)
{
  for (guint f = 0; f < G_N_ELEMENTS (demo_files); f++)
    {
      Run run = open_demo (fixture, demo_files[f]);
      PsTimelineModel *model = ps_timeline_view_get_model (run.view);
      gint64 length = model->extent_end - model->extent_begin;
      double y = PS_TIMELINE_HEADER_HEIGHT + PS_TIMELINE_GROUP_HEIGHT + 30;
      g_autoptr(GPtrArray) whole = stats_texts (&run);
      g_autoptr(GPtrArray) in_range = NULL;
      g_autoptr(GPtrArray) cleared = NULL;
      gint64 begin, end;

      g_assert_null (ps_counters_view_get_range_notice (run.counters_view));
      assert_stats_of_range (&run, G_MININT64, G_MAXINT64);

      ps_timeline_view_drag (run.view, ps_timeline_view_x_of (run.view, model->extent_begin + length / 5), y,
                             ps_timeline_view_x_of (run.view, model->extent_begin + length / 2), y);
      g_assert_true (ps_session_get_selection (run.session, &begin, &end));
      g_assert_true (iterate_until (stats_computed, run.counters_view));
      iterate_for (20);
      assert_stats_of_range (&run, begin, end);
      assert_notice_names (&run, begin, end);
      in_range = stats_texts (&run);
      g_assert_false (same_texts (in_range, whole));
      /* The line does not widen the page, even when the split leaves the
       * table and the line little more than the table's own 120 px (a
       * label that only wraps then asks for one line's width) */
      {
        GtkWidget *table_box = gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (ps_counters_view_get_stats_view (run.counters_view))));
        int min_width;

        gtk_widget_measure (table_box, GTK_ORIENTATION_HORIZONTAL, 150, &min_width, NULL, NULL, NULL);
        g_assert_cmpint (min_width, <, 400);
      }
      maybe_save_screenshot (fixture, "links-counters-range-statistics");

      /* Two ranges in a row: the second one's numbers, not the first's */
      ps_session_set_selection (run.session, model->extent_begin, model->extent_begin + length / 3);
      ps_session_set_selection (run.session, model->extent_begin + length / 2, model->extent_end);
      g_assert_true (iterate_until (stats_computed, run.counters_view));
      iterate_for (20);
      assert_stats_of_range (&run, model->extent_begin + length / 2, model->extent_end);
      assert_notice_names (&run, model->extent_begin + length / 2, model->extent_end);

      /* Escape on the timeline */
      gtk_widget_grab_focus (GTK_WIDGET (run.view));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (run.view), "timeline.clear", NULL));
      iterate_for (20);
      g_assert_false (ps_session_get_selection (run.session, NULL, NULL));
      g_assert_null (ps_counters_view_get_range_notice (run.counters_view));
      cleared = stats_texts (&run);
      g_assert_true (same_texts (cleared, whole));

      /* The notice's button */
      ps_session_set_selection (run.session, begin, end);
      g_assert_true (iterate_until (stats_computed, run.counters_view));
      iterate_for (20);
      g_assert_nonnull (ps_counters_view_get_range_notice (run.counters_view));
      g_assert_true (click_button (GTK_WIDGET (run.page), "Show _All Readings"));
      iterate_for (20);
      g_assert_false (ps_session_get_selection (run.session, NULL, NULL));
      g_assert_null (ps_counters_view_get_range_notice (run.counters_view));
      g_clear_pointer (&cleared, g_ptr_array_unref);
      cleared = stats_texts (&run);
      g_assert_true (same_texts (cleared, whole));
    }
}

/* Live recording */

/* The recording's page in the window, or NULL */
static PsRecordPage *
find_record_page (GtkWidget *widget)
{
  if (PS_IS_RECORD_PAGE (widget) && gtk_widget_get_mapped (widget))
    return PS_RECORD_PAGE (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      PsRecordPage *page = find_record_page (child);

      if (page != NULL)
        return page;
    }
  return NULL;
}

static gboolean
record_page_shown (gpointer data)
{
  return find_record_page (data) != NULL;
}

static gboolean
recorded_enough (gpointer data)
{
  return ps_record_page_get_n_refreshes (data) >= 5
         && ps_timeline_view_get_model (ps_record_page_get_timeline_view (data)) != NULL;
}

/* A row chosen on the timeline of a recording draws its series over the
 * others in the recording's charts */
static void
test_live_recording (Fixture       *fixture,
                     gconstpointer  data)
{
  PsRecordDialog *dialog;
  PsRecordPage *page;
  PsTimelineView *view;
  PsTimelineModel *model;
  const PsTimelineRow *row = NULL;
  g_autofree char *pid_text = g_strdup_printf ("%d", (int)getpid ());
  GPtrArray *charts;
  guint n_emphasized = 0;

  if (!g_file_test ("/proc/self/stat", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("No /proc");
      return;
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.record", NULL));
  dialog = PS_RECORD_DIALOG (find_toplevel (PS_TYPE_RECORD_DIALOG));
  g_assert_nonnull (dialog);
  if (!ps_record_dialog_select_backend (dialog, "procfs"))
    {
      gtk_window_destroy (GTK_WINDOW (dialog));
      g_test_skip ("No procfs collector");
      return;
    }
  g_assert_true (ps_record_dialog_set_option (dialog, "pid", pid_text));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "50"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (record_page_shown, fixture->window));
  page = find_record_page (GTK_WIDGET (fixture->window));
  g_assert_true (iterate_until (recorded_enough, page));
  iterate_for (200);

  view = ps_record_page_get_timeline_view (page);
  model = ps_timeline_view_get_model (view);
  for (guint r = 0; r < model->rows->len && row == NULL; r++)
    {
      const PsTimelineRow *candidate = g_ptr_array_index (model->rows, r);

      if (candidate->kind == PS_TIMELINE_ROW_VALUES && ps_timeline_view_get_row_y (view, candidate->track) >= 0
          && ps_timeline_view_get_row_y (view, candidate->track) + 20 < gtk_widget_get_height (GTK_WIDGET (view)))
        row = candidate;
    }
  g_assert_nonnull (row);
  ps_timeline_view_click (view, 20, ps_timeline_view_get_row_y (view, row->track) + 10);
  g_assert_cmpuint (ps_session_get_focus_track (ps_timeline_view_get_session (view)), ==, row->track);
  charts = ps_record_page_get_charts (page);
  for (guint c = 0; c < charts->len; c++)
    n_emphasized += ps_counter_chart_get_emphasized (g_ptr_array_index (charts, c)) != G_MAXUINT;
  g_assert_cmpuint (n_emphasized, ==, 1);
  /* It stays so as the charts are drawn again with new readings */
  iterate_for (300);
  n_emphasized = 0;
  for (guint c = 0; c < charts->len; c++)
    n_emphasized += ps_counter_chart_get_emphasized (g_ptr_array_index (charts, c)) != G_MAXUINT;
  g_assert_cmpuint (n_emphasized, ==, 1);
  maybe_save_screenshot (fixture, "links-counters-live");

  ps_record_page_stop (page);
  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/links/counters/tree-row-focuses-timeline", test_tree_row_focuses_timeline);
  ADD_TEST ("/links/counters/stats-row-focuses", test_stats_row_focuses);
  ADD_TEST ("/links/counters/timeline-row-selects-counter", test_timeline_row_selects_counter);
  ADD_TEST ("/links/counters/unchecked-counter-marked-when-checked", test_unchecked_counter_marked_when_checked);
  ADD_TEST ("/links/counters/range-on-charts", test_range_on_charts);
  ADD_TEST ("/links/counters/range-statistics", test_range_statistics);
  ADD_TEST ("/links/counters/live-recording", test_live_recording);

  return gui_test_run ();
}

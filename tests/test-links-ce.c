/* test-links-ce.c — a CE PerfLog run's views follow one selection (Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/selection.md, CE PerfLog: a marker row focuses its charts on the
 * timeline, a histogram's bars highlight their measurements there, a
 * chart or a point chosen on the timeline selects its marker, the bar of
 * its duration or the CPU & Memory page, a range of the sequence limits
 * the tables and the histogram, and a log session chosen in the header is
 * brought into view. Each test looks at the other view's state and at
 * the timeline's pixels.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-ce-view-private.h"
#include "ps-chart-util.h"
#include "ps-histogram-view-private.h"
#include "ps-marker-row.h"
#include "ps-run-page-private.h"
#include "ps-selection-util.h"
#include "ps-series.h"
#include "ps-timeline-view.h"

typedef struct
{
  PsRunPage      *page;
  PsCeView       *ce_view;
  PsTimelineView *view;
  PsSession      *session;
  PsEventStore   *store;
} Run;

static Run
open_demo (Fixture    *fixture,
           const char *name)
{
  g_autofree char *path = demo_file_path (name);
  RunViews views = open_run_views (fixture, path);
  Run run = { views.page, ps_run_page_get_ce_view (views.page), views.timeline, views.session, views.store };

  g_assert_true (iterate_until (run_view_is_idle, run.ce_view));
  return run;
}

static Run
open_fsperf (Fixture *fixture)
{
  return open_demo (fixture, "fsperf_CEPC_x86_6_0_3122.log");
}

/* Scrolls the timeline as its scroll bar would, the track's row at the top */
static void
scroll_to_row (PsTimelineView *view,
               guint32         track)
{
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));

  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_value (vadjustment)
                                         + ps_timeline_view_get_row_y (view, track) - PS_TIMELINE_HEADER_HEIGHT);
  iterate_for (50);
}

static PsMarkerRow *
marker_at (Run   *run,
           guint  position)
{
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (ps_ce_view_get_marker_model (run->ce_view), position);

  return gtk_tree_list_row_get_item (tree_row);
}

static PsMarkerRow *
selected_marker (Run *run)
{
  return ps_selection_get_selected_row_item (ps_ce_view_get_marker_view (run->ce_view));
}

static void
select_marker (Run   *run,
               guint  position)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (ps_ce_view_get_marker_view (run->ce_view));

  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), position);
  g_assert_true (iterate_until (run_view_is_idle, run->ce_view));
  iterate_for (50);
}

/* The last marker row with many durations: its chart is far down */
static guint
find_busy_marker (Run *run)
{
  GListModel *markers = ps_ce_view_get_marker_model (run->ce_view);
  guint found = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < g_list_model_get_n_items (markers); i++)
    {
      g_autoptr(PsMarkerRow) row = marker_at (run, i);

      if (ps_marker_row_get_count (row) >= 20)
        found = i;
    }
  g_assert_cmpuint (found, !=, GTK_INVALID_LIST_POSITION);
  return found;
}

/* The durations of a marker in the store, by index: what its histogram
 * counts */
static GArray *
marker_durations (Run            *run,
                  const PsSeries *series,
                  GArray        **values)
{
  GArray *indexes = g_array_new (FALSE, FALSE, sizeof (guint64));
  PsMeasurementIter iter;
  PsMeasurement m;

  *values = g_array_new (FALSE, FALSE, sizeof (double));
  ps_measurement_iter_init (&iter, run->store);
  while (ps_measurement_iter_next (&iter, &m))
    for (guint t = 0; t < series->n_instances; t++)
      if (m.kind == PS_MEASURE_DURATION && m.track == series->tracks[t] && !(m.flags & PS_MEASURE_FLAG_NEGATIVE))
        {
          double seconds = ps_series_measurement_value (run->store, &m);

          g_array_append_val (indexes, m.index);
          g_array_append_val (*values, seconds);
        }
  return indexes;
}

static gboolean
has_no_points (gpointer data)
{
  return !ps_session_get_highlight_points_extent (data, NULL, NULL);
}

/* The busy marker's position and its durations (indexes, values) */
static GArray *
busy_marker_durations (Run     *run,
                       guint   *position,
                       GArray **values)
{
  g_autoptr(PsMarkerRow) row = NULL;

  *position = find_busy_marker (run);
  row = marker_at (run, *position);
  return marker_durations (run, ps_marker_row_get_series (row), values);
}

/* Tests */

/* A marker row focuses its charts: they scroll into view and their labels
 * get the accent bar */
static void
test_marker_row_focuses_chart (Fixture       *fixture,
                               gconstpointer  data)
{
  Run run = open_fsperf (fixture);
  guint position = find_busy_marker (&run);
  g_autoptr(PsMarkerRow) row = marker_at (&run, position);
  const PsSeries *series = ps_marker_row_get_series (row);
  guint n_focus;
  const guint32 *focus;

  g_assert_false (timeline_row_in_view (run.view, series->tracks[0]));
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, series->tracks[0]), ==, 0);

  select_marker (&run, position);
  focus = ps_session_get_focus_tracks (run.session, &n_focus);
  g_assert_cmpuint (n_focus, ==, series->n_instances);
  for (guint i = 0; i < n_focus; i++)
    g_assert_cmpuint (focus[i], ==, series->tracks[i]);
  g_assert_true (timeline_row_in_view (run.view, series->tracks[0]));
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, series->tracks[0]), >, 30);
  maybe_save_screenshot (fixture, "links-ce-marker-row");

  /* Another row moves the focus: the first one's bar goes */
  select_marker (&run, 0);
  g_assert_false (ps_session_is_focus_track (run.session, series->tracks[0]));
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, series->tracks[0]), ==, 0);
}

/* A test harness's log: two markers registered again for each of 20
 * passes, 20 durations each, so that an instance is a twentieth of the
 * run and each marker's group spans all of it */
static Run
open_repeated_registrations (Fixture *fixture)
{
  g_autoptr(GString) log = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                         "## PERF ## PLATFORM=[CEPC] CPU=[x86]\r\n"
                                         "## PERF ## REGISTERED APP [harness] PROCCESSID [0x00000042]\r\n"
                                         "## PERF ## RESOLUTION [1000000] TICKS PER SECOND\r\n");
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  RunViews views;
  Run run;

  for (guint pass = 0; pass < 20; pass++)
    for (guint id = 0; id < 2; id++)
      {
        g_string_append_printf (log, "## PERF ## REGISTERED MARKER [Test=%s,time=%%AVG%%] AS [%u] BY APP [harness]\r\n",
                                id == 0 ? "Open" : "Close", id);
        for (guint i = 0; i < 10; i++)
          g_string_append_printf (log, "## PERF ## APP [harness] EVT [%u] DUR [%u]\r\n", id, 1000 + 10 * pass + i);
      }
  file = write_temp_file (fixture, "harness.log", log->str, (gssize)log->len);
  path = g_file_get_path (file);
  views = open_run_views (fixture, path);
  run = (Run) { views.page, ps_run_page_get_ce_view (views.page), views.timeline, views.session, views.store };
  g_assert_true (iterate_until (run_view_is_idle, run.ce_view));
  return run;
}

/* The first and last sequence numbers of a marker row's durations */
static void
marker_extent (Run         *run,
               PsMarkerRow *row,
               gint64      *first,
               gint64      *last)
{
  g_autoptr(GArray) values = NULL;
  g_autoptr(GArray) indexes = marker_durations (run, ps_marker_row_get_series (row), &values);

  g_assert_cmpuint (indexes->len, >, 0);
  *first = G_MAXINT64;
  *last = G_MININT64;
  for (guint i = 0; i < indexes->len; i++)
    {
      *first = MIN (*first, (gint64)g_array_index (indexes, guint64, i));
      *last = MAX (*last, (gint64)g_array_index (indexes, guint64, i));
    }
}

/* An instance of a marker, under its row, says which it is; chosen, its
 * points, a twentieth of the run, fill the timeline's plot (they were a
 * few pixels of its chart). Its group, whose points span the run, leaves
 * the visible range as it is. */
static void
test_instance_row_brings_points (Fixture       *fixture,
                                 gconstpointer  data)
{
  Run run = open_repeated_registrations (fixture);
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (ps_ce_view_get_marker_model (run.ce_view), 0);
  g_autoptr(PsMarkerRow) group = gtk_tree_list_row_get_item (tree_row);
  g_autoptr(PsMarkerRow) instance = NULL;
  g_autofree char *labels = NULL;
  gint64 run_begin, run_end, begin, end, first, last;

  g_assert_cmpuint (ps_marker_row_get_series (group)->n_instances, ==, 20);
  ps_session_get_visible_range (run.session, &run_begin, &run_end);
  gtk_tree_list_row_set_expanded (tree_row, TRUE);

  select_marker (&run, 0);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, ==, run_begin);
  g_assert_cmpint (end, ==, run_end);

  select_marker (&run, 3);
  instance = marker_at (&run, 3);
  g_assert_false (ps_marker_row_is_group (instance));
  marker_extent (&run, instance, &first, &last);
  ps_session_get_visible_range (run.session, &begin, &end);
  g_test_message ("the run: #%" G_GINT64_FORMAT "–#%" G_GINT64_FORMAT "; the instance's points: #%" G_GINT64_FORMAT
                  "–#%" G_GINT64_FORMAT "; in view: #%" G_GINT64_FORMAT "–#%" G_GINT64_FORMAT,
                  run_begin, run_end, first, last, begin, end);
  g_assert_cmpint (begin, <=, first);
  g_assert_cmpint (end, >=, last);
  g_assert_cmpfloat ((double)(last - first) / (double)(end - begin), >=, 0.8);
  g_assert_true (timeline_row_in_view (run.view, ps_marker_row_get_series (instance)->tracks[0]));
  maybe_save_screenshot (fixture, "links-ce-instance-row");

  /* By their registration ordinal, as in the Instance column */
  labels = collect_label_text (GTK_WIDGET (ps_ce_view_get_marker_view (run.ce_view)));
  for (guint i = 1; i <= 3; i++)
    {
      g_autoptr(PsMarkerRow) child = marker_at (&run, i);
      g_autofree char *expected = g_strdup_printf ("\nInstance %u\n", ps_marker_row_get_series (child)->instance);

      g_assert_nonnull (strstr (labels, expected));
    }
  g_assert_null (strstr (labels, "\nTest=Open,time=%AVG%\nTest=Open,time=%AVG%\n"));

  /* On the timeline, a row per marker holds all its instances' points */
  {
    PsTimelineModel *model = ps_timeline_view_get_model (run.view);
    const PsSeries *group_series = ps_marker_row_get_series (group);
    const PsSeries *instance_series = ps_marker_row_get_series (instance);
    guint32 marker_track = group_series->tracks[0];
    guint32 other_track = PS_NONE;
    guint n_charts = 0, n_points = 0;
    g_autoptr(PsMarkerRow) chosen = NULL;
    PsMeasurement m;
    double x, y;

    for (guint r = 0; r < model->rows->len; r++)
      {
        const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

        if (row->kind != PS_TIMELINE_ROW_VALUES)
          continue;
        n_charts++;
        if (row->track == marker_track)
          n_points = (guint)ps_value_lod_get_n_points (row->values);
        else
          other_track = row->track;
      }
    g_assert_cmpuint (n_charts, ==, 2);
    g_assert_cmpuint (n_points, ==, group_series->stats.count);
    g_assert_cmpfloat (ps_timeline_view_get_row_y (run.view, instance_series->tracks[0]), ==,
                       ps_timeline_view_get_row_y (run.view, marker_track));

    /* Its label chooses the marker: every instance, and the group's row */
    ps_timeline_view_click (run.view, 20, ps_timeline_view_get_row_y (run.view, marker_track) + 10);
    g_assert_cmpuint (ps_session_get_focus_tracks (run.session, &n_charts)[0], ==, marker_track);
    g_assert_cmpuint (n_charts, ==, 20);
    chosen = selected_marker (&run);
    g_assert_true (chosen == group);
    g_clear_object (&chosen);

    /* One of its points: the marker stays chosen, with the point's bar
     * on its histogram; with another marker chosen, the point's instance
     * is */
    ps_event_store_get_measurement (run.store, (guint64)first, &m);
    g_assert_cmpuint (m.track, ==, instance_series->tracks[0]);
    ps_session_set_visible_range (run.session, first - 20, last + 20);
    iterate_for (50);
    x = ps_timeline_view_x_of (run.view, first);
    y = ps_timeline_view_get_row_y (run.view, marker_track) + 30;
    /* Its tooltip says which registration it is, as the table's row */
    {
      g_autofree char *tooltip = ps_timeline_view_describe_at (run.view, x, y);
      g_autofree char *expected = g_strdup_printf ("\nInstance %u", instance_series->instance);

      g_assert_nonnull (tooltip);
      g_assert_true (g_str_has_suffix (tooltip, expected));
    }
    ps_timeline_view_click (run.view, x, y);
    g_assert_cmpuint (ps_session_get_selected_measurement (run.session), ==, (guint64)first);
    chosen = selected_marker (&run);
    g_assert_true (chosen == group);
    g_clear_object (&chosen);

    g_assert_cmpuint (other_track, !=, PS_NONE);
    ps_timeline_view_click (run.view, 20, ps_timeline_view_get_row_y (run.view, other_track) + 10);
    g_assert_false (ps_session_is_focus_track (run.session, m.track));
    ps_session_set_visible_range (run.session, first - 20, last + 20);
    iterate_for (50);
    ps_timeline_view_click (run.view, x, y);
    chosen = selected_marker (&run);
    g_assert_nonnull (chosen);
    g_assert_false (ps_marker_row_is_group (chosen));
    g_assert_cmpuint (ps_marker_row_get_series (chosen)->tracks[0], ==, m.track);
  }
}

/* A marker's row chosen at the bottom edge of the timeline, only its top
 * in view, is wholly in view once the histogram under the timeline has
 * taken its room */
static void
test_row_at_edge_kept (Fixture       *fixture,
                       gconstpointer  data)
{
  Run run = open_fsperf (fixture);
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (run.view));
  guint32 track = PS_NONE;
  int height_before;
  double y;

  for (guint r = 0; r < model->rows->len && track == PS_NONE; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      /* One below the first page, which the view can scroll to the edge */
      if (row->kind == PS_TIMELINE_ROW_VALUES && g_strcmp0 (row->unit, "ms") == 0
          && row->y > gtk_adjustment_get_page_size (vadjustment))
        track = row->track;
    }
  g_assert_cmpuint (track, !=, PS_NONE);
  g_assert_null (ps_histogram_view_get_histogram (ps_run_view_get_histogram_view (PS_RUN_VIEW (run.ce_view))));

  /* Its top 24 pixels in view */
  height_before = gtk_widget_get_height (GTK_WIDGET (run.view));
  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_value (vadjustment)
                                         + ps_timeline_view_get_row_y (run.view, track) - (height_before - 24));
  iterate_for (50);
  y = ps_timeline_view_get_row_y (run.view, track);
  g_assert_cmpfloat (y, <, height_before);
  g_assert_cmpfloat (y + PS_TIMELINE_VALUES_HEIGHT, >, height_before);

  ps_timeline_view_click (run.view, 20, y + 8);
  g_assert_true (iterate_until (run_view_is_idle, run.ce_view));
  iterate_for (300);
  g_assert_nonnull (ps_histogram_view_get_histogram (ps_run_view_get_histogram_view (PS_RUN_VIEW (run.ce_view))));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (run.view)), <, height_before);
  y = ps_timeline_view_get_row_y (run.view, track);
  g_test_message ("the row at %.0f of a timeline %d px tall, %d before", y, gtk_widget_get_height (GTK_WIDGET (run.view)),
                  height_before);
  g_assert_cmpfloat (y, >=, PS_TIMELINE_HEADER_HEIGHT);
  g_assert_cmpfloat (y + PS_TIMELINE_VALUES_HEIGHT, <=, gtk_widget_get_height (GTK_WIDGET (run.view)));
}

/* The bars selected on a marker's histogram light up their measurements
 * on its chart, which comes into view */
static void
test_histogram_bars_highlight (Fixture       *fixture,
                               gconstpointer  data)
{
  Run run = open_fsperf (fixture);
  guint position = find_busy_marker (&run);
  g_autoptr(PsMarkerRow) row = marker_at (&run, position);
  const PsSeries *series = ps_marker_row_get_series (row);
  PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (run.ce_view));
  const PsHistogram *bins;
  const guint64 *chosen;
  gsize n_chosen;
  guint64 expected = 0;
  gint64 begin, end;
  GdkRGBA color;
  double y, x;

  ps_selection_points_color (widget_is_dark (GTK_WIDGET (run.view)), &color);
  select_marker (&run, position);
  bins = ps_histogram_view_get_histogram (histogram);
  g_assert_nonnull (bins);
  {
    g_autoptr(GdkTexture) before = grab_timeline (run.view);

    g_assert_cmpuint (count_pixels_near (before, 0, 0, 10000, 10000, &color), ==, 0);
  }

  ps_histogram_view_select_bins (histogram, 0, 0);
  chosen = ps_session_get_highlight_measurements (run.session, &n_chosen);
  expected = bins->bins[0].count;
  g_assert_cmpuint (n_chosen, ==, expected);
  g_assert_cmpuint (n_chosen, >, 0);
  /* Each is a duration of the marker within the bar */
  for (gsize i = 0; i < n_chosen; i++)
    {
      PsMeasurement m;
      gboolean ours = FALSE;

      ps_event_store_get_measurement (run.store, chosen[i], &m);
      for (guint t = 0; t < series->n_instances; t++)
        ours |= m.track == series->tracks[t];
      g_assert_true (ours);
      g_assert_cmpint (m.kind, ==, PS_MEASURE_DURATION);
    }
  g_assert_nonnull (ps_session_get_highlight_measurements_description (run.session));

  /* Drawn in orange on the marker's chart, which is in view; the status
   * line says what they are */
  g_assert_true (iterate_until (session_has_highlight_points, run.session));
  iterate_for (50);
  g_assert_true (g_str_has_prefix (ps_timeline_view_get_status (run.view), "Highlighted: "));
  g_assert_nonnull (strstr (ps_timeline_view_get_status (run.view), ps_session_get_highlight_measurements_description (run.session)));
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint ((gint64)chosen[0], >=, begin);
  g_assert_cmpint ((gint64)chosen[0], <=, end);
  {
    g_autoptr(GdkTexture) after = grab_timeline (run.view);
    guint32 track;
    PsMeasurement m;

    ps_event_store_get_measurement (run.store, chosen[0], &m);
    track = m.track;
    g_assert_true (timeline_row_in_view (run.view, track));
    y = ps_timeline_view_get_row_y (run.view, track);
    x = ps_timeline_view_x_of (run.view, (gint64)chosen[0]);
    g_assert_cmpuint (count_pixels_near (after, (int)x - 4, (int)y, (int)x + 4, (int)y + PS_TIMELINE_VALUES_HEIGHT,
                                         &color), >, 4);
  }
  maybe_save_screenshot (fixture, "links-ce-histogram");

  /* Unselected: nothing is highlighted */
  ps_histogram_view_unselect (histogram);
  ps_session_get_highlight_measurements (run.session, &n_chosen);
  g_assert_cmpuint (n_chosen, ==, 0);
  g_assert_true (iterate_until (has_no_points, run.session));
  g_assert_null (ps_timeline_view_get_status (run.view));
  {
    g_autoptr(GdkTexture) cleared = grab_timeline (run.view);

    g_assert_cmpuint (count_pixels_near (cleared, 0, 0, 10000, 10000, &color), ==, 0);
  }
}

/* A chart's label chosen on the timeline selects its marker; a CPU chart
 * shows the CPU & Memory page */
static void
test_timeline_chart_selects_marker (Fixture       *fixture,
                                    gconstpointer  data)
{
  Run run = open_fsperf (fixture);
  PsTimelineModel *model = ps_timeline_view_get_model (run.view);
  guint32 duration_track = PS_NONE, cpu_track = PS_NONE;
  g_autoptr(PsMarkerRow) selected = NULL;
  const PsSeries *series;
  gboolean holds = FALSE;

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind != PS_TIMELINE_ROW_VALUES)
        continue;
      if (g_strcmp0 (row->unit, "%") == 0 && cpu_track == PS_NONE)
        cpu_track = row->track;
      else if (g_strcmp0 (row->unit, "ms") == 0 && duration_track == PS_NONE)
        duration_track = row->track;
    }
  g_assert_cmpuint (duration_track, !=, PS_NONE);
  g_assert_cmpuint (cpu_track, !=, PS_NONE);

  ps_ce_view_show_page (run.ce_view, "warnings");
  scroll_to_row (run.view, duration_track);
  g_assert_true (timeline_row_in_view (run.view, duration_track));
  ps_timeline_view_click (run.view, 20, ps_timeline_view_get_row_y (run.view, duration_track) + 10);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, duration_track);
  selected = selected_marker (&run);
  g_assert_nonnull (selected);
  series = ps_marker_row_get_series (selected);
  for (guint t = 0; t < series->n_instances; t++)
    holds |= series->tracks[t] == duration_track;
  g_assert_true (holds);
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (run.ce_view)), ==, "markers");
  g_assert_cmpuint (timeline_focus_bar_pixels (run.view, duration_track), >, 30);

  scroll_to_row (run.view, cpu_track);
  ps_timeline_view_click (run.view, 20, ps_timeline_view_get_row_y (run.view, cpu_track) + 10);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, cpu_track);
  g_assert_cmpstr (ps_run_view_get_visible_page (PS_RUN_VIEW (run.ce_view)), ==, "cpu-memory");
}

static gboolean
histogram_has_selection (gpointer data)
{
  return ps_histogram_view_get_selection (data, NULL, NULL);
}

/* A point clicked on a marker's chart selects that marker, the bar of its
 * duration, and is ringed */
static void
test_timeline_point_selects_bar (Fixture       *fixture,
                                 gconstpointer  data)
{
  Run run = open_fsperf (fixture);
  guint position;
  g_autoptr(GArray) values = NULL;
  g_autoptr(GArray) indexes = busy_marker_durations (&run, &position, &values);
  PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (run.ce_view));
  guint64 index = g_array_index (indexes, guint64, indexes->len / 2);
  double value = g_array_index (values, double, indexes->len / 2);
  g_autoptr(PsMarkerRow) row = marker_at (&run, position);
  const PsSeries *series = ps_marker_row_get_series (row);
  g_autoptr(PsMarkerRow) selected = NULL;
  guint first_bin, last_bin;
  const PsHistogram *bins;
  PsMeasurement m;
  GdkRGBA foreground;
  double x, y;
  guint ring_before;

  ps_event_store_get_measurement (run.store, index, &m);
  /* The chart into view, zoomed so that points stand apart */
  ps_session_set_focus_track (run.session, m.track);
  ps_session_set_visible_range (run.session, (gint64)index - 40, (gint64)index + 40);
  iterate_for (50);
  g_assert_true (timeline_row_in_view (run.view, m.track));
  x = ps_timeline_view_x_of (run.view, (gint64)index);
  y = ps_timeline_view_get_row_y (run.view, m.track) + 30;
  ps_chart_get_foreground (GTK_WIDGET (run.view), &foreground);
  {
    g_autoptr(GdkTexture) before = grab_timeline (run.view);

    ring_before = count_pixels_near (before, (int)x - 8, (int)y - 40, (int)x + 8, (int)y + 40, &foreground);
  }

  ps_timeline_view_click (run.view, x + 2, y);
  g_assert_cmpuint (ps_session_get_selected_measurement (run.session), ==, index);
  g_assert_cmpuint (ps_session_get_focus_track (run.session), ==, m.track);

  /* The marker, and the bar of its duration once its histogram is there */
  g_assert_true (iterate_until (run_view_is_idle, run.ce_view));
  selected = selected_marker (&run);
  g_assert_nonnull (selected);
  g_assert_true (ps_marker_row_get_series (selected)->tracks[0] == m.track
                 || ps_marker_row_get_series (selected) == series);
  g_assert_true (iterate_until (histogram_has_selection, histogram));
  g_assert_true (ps_histogram_view_get_selection (histogram, &first_bin, &last_bin));
  g_assert_cmpuint (first_bin, ==, last_bin);
  bins = ps_histogram_view_get_histogram (histogram);
  g_assert_cmpfloat (value, >=, bins->bins[first_bin].lower);
  g_assert_true (value < bins->bins[first_bin].upper || first_bin + 1 == bins->n_bins);
  g_assert_true (ps_histogram_view_selection_contains (histogram, value));

  /* Ringed in the foreground colour */
  {
    g_autoptr(GdkTexture) after = grab_timeline (run.view);

    g_assert_cmpuint (count_pixels_near (after, (int)x - 8, (int)y - 40, (int)x + 8, (int)y + 40, &foreground),
                      >, ring_before + 10);
  }
  maybe_save_screenshot (fixture, "links-ce-point");
}

/* A range dragged on the timeline limits the marker table and the
 * histogram to its measurements */
static void
test_range_limits_histogram (Fixture       *fixture,
                             gconstpointer  data)
{
  Run run = open_fsperf (fixture);
  guint position;
  g_autoptr(GArray) values = NULL;
  g_autoptr(GArray) indexes = busy_marker_durations (&run, &position, &values);
  PsHistogramView *histogram = ps_run_view_get_histogram_view (PS_RUN_VIEW (run.ce_view));
  guint64 mid = g_array_index (indexes, guint64, indexes->len / 2);
  gint64 begin, end;
  guint64 expected = 0;
  double x0, x1;

  select_marker (&run, position);
  g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, indexes->len);

  /* From just before the marker's first duration (chosen, its points
   * fill the plot) to the middle one */
  x0 = ps_timeline_view_x_of (run.view, (gint64)g_array_index (indexes, guint64, 0));
  x1 = ps_timeline_view_x_of (run.view, (gint64)mid);
  ps_timeline_view_drag (run.view, x0 - 2, PS_TIMELINE_HEADER_HEIGHT + 30, x1, PS_TIMELINE_HEADER_HEIGHT + 30);
  g_assert_true (ps_session_get_selection (run.session, &begin, &end));
  g_assert_true (iterate_until (run_view_is_idle, run.ce_view));
  for (guint i = 0; i < indexes->len; i++)
    {
      guint64 index = g_array_index (indexes, guint64, i);

      expected += (gint64)index >= begin && (gint64)index <= end;
    }
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (expected, <, indexes->len);
  g_assert_cmpuint (ps_histogram_view_get_histogram (histogram)->n_values, ==, expected);
  {
    g_autoptr(PsMarkerRow) shown = selected_marker (&run);

    g_assert_nonnull (shown);
    g_assert_cmpuint (ps_marker_row_get_count (shown), ==, expected);
  }
}

/* The timeline's groups of a log session: whether each is open, and
 * the row at the top of the rows area */
static void
assert_session_on_top (Run   *run,
                       guint  log_session)
{
  PsTimelineModel *model = ps_timeline_view_get_model (run->view);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (run->view));
  int top = ps_timeline_model_row_at (model, gtk_adjustment_get_value (vadjustment) + 1);
  const PsTimelineRow *top_row;
  guint n_groups = 0;

  for (guint r = 0; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      if (row->kind != PS_TIMELINE_ROW_GROUP)
        {
          /* Its rows are of its session */
          g_assert_cmpuint (ps_event_store_get_track (run->store, row->track)->session, ==,
                            ((const PsTimelineRow *)g_ptr_array_index (model->rows, row->group))->session);
          continue;
        }
      n_groups++;
      g_assert_cmpuint (row->session, <, ps_event_store_get_n_sessions (run->store));
      g_assert_true (row->collapsed == (row->session != log_session));
      g_assert_nonnull (strstr (row->label, row->session == 0 ? "(session 1)" : "(session 2)"));
    }
  g_assert_cmpuint (n_groups, >=, 2);
  g_assert_cmpint (top, >=, 0);
  top_row = g_ptr_array_index (model->rows, top);
  g_assert_cmpint (top_row->kind, ==, PS_TIMELINE_ROW_GROUP);
  g_assert_cmpuint (top_row->session, ==, log_session);
}

/* A log session chosen in the header is shown on the timeline: its
 * rows open at the top, the other session's closed, its measurements
 * from side to side */
static void
test_log_session_revealed (Fixture       *fixture,
                           gconstpointer  data)
{
  Run run = open_demo (fixture, "regperf_CEPC_x86_6_0_3122.log");
  guint64 first, end_measurement;
  gint64 begin, end;

  g_assert_cmpuint (ps_event_store_get_n_sessions (run.store), ==, 2);
  g_assert_true (iterate_until (timeline_view_is_ready, run.view));
  /* Zoomed into the start of the first */
  ps_session_set_visible_range (run.session, 0, 20);

  ps_ce_view_set_session (run.ce_view, 1);
  g_assert_cmpuint (ps_session_get_log_session (run.session), ==, 1);
  g_assert_true (ps_event_store_get_session_measurements (run.store, 1, &first, &end_measurement));
  g_assert_cmpuint (end_measurement, ==, ps_event_store_get_n_measurements (run.store));
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, ==, (gint64)first);
  g_assert_cmpint (end, ==, (gint64)end_measurement - 1);
  iterate_for (50);
  assert_session_on_top (&run, 1);

  /* And back */
  ps_ce_view_set_session (run.ce_view, 0);
  g_assert_true (ps_event_store_get_session_measurements (run.store, 0, &first, &end_measurement));
  ps_session_get_visible_range (run.session, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, (gint64)end_measurement - 1);
  iterate_for (50);
  assert_session_on_top (&run, 0);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/links/ce/marker-row-focuses-chart", test_marker_row_focuses_chart);
  ADD_TEST ("/links/ce/instance-row-brings-points", test_instance_row_brings_points);
  ADD_TEST ("/links/ce/row-at-edge-kept", test_row_at_edge_kept);
  ADD_TEST ("/links/ce/histogram-bars-highlight", test_histogram_bars_highlight);
  ADD_TEST ("/links/ce/timeline-chart-selects-marker", test_timeline_chart_selects_marker);
  ADD_TEST ("/links/ce/timeline-point-selects-bar", test_timeline_point_selects_bar);
  ADD_TEST ("/links/ce/range-limits-histogram", test_range_limits_histogram);
  ADD_TEST ("/links/ce/log-session-revealed", test_log_session_revealed);

  return gui_test_run ();
}

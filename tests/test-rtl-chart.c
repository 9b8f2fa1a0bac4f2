/* test-rtl-chart.c — the RTL view's chart of a total's durations along the
 * log (Xvfb)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §2.3 and §4.3. A log built here: two threads
 * that each call ::Job::Run every 20 ms, 10 ms apart, for six seconds;
 * the calls take 2–4 ms until 3 s into the log and 6–8 ms from there on,
 * and ::Job::Idle after each takes 3–5 ms all along. The Totals page's
 * chart of ::Job::Run has every call at its begin, in order, as long as
 * it lasted in milliseconds, and marks the step where the first longer
 * call began; that of ::Job::Idle, gathered in the background while the
 * chart says so, marks nothing. The time labels below the chart and the
 * duration labels below the histogram are centred on their ticks. A
 * second log has scopes whose every call was left out of the statistics:
 * the chart says how many and why, on lines within its width, and the
 * histogram beside it says the same.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-counter-chart-private.h"
/* Both charts name their layout Layout */
#define Layout HistogramLayout
#include "ps-histogram-view-private.h"
#undef Layout
#include "ps-rtl-view-private.h"
#include "ps-run-page-private.h"
#include "ps-scope-total-row.h"

#define MS G_GINT64_CONSTANT (1000000)
#define N_CYCLES 300          /* of each thread, 20 ms apart */
#define STEP_CYCLE 150        /* the first cycle of longer runs: at 3 s */

typedef struct
{
  guint  time_ms;
  guint  order;   /* ties keep the order they were written in */
  char  *line;
} Record;

static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  const Record *first = a;
  const Record *second = b;

  if (first->time_ms != second->time_ms)
    return first->time_ms < second->time_ms ? -1 : 1;
  return (first->order > second->order) - (first->order < second->order);
}

static void
add_call (GArray     *records,
          guint       thread,
          const char *name,
          guint       begin_ms,
          guint       duration_ms)
{
  Record open = { begin_ms, records->len, g_strdup_printf ("%06u %u { job (ab123456) %s\n", begin_ms, thread, name) };
  Record close = { begin_ms + duration_ms, records->len + 1,
                   g_strdup_printf ("%06u %u } job (ab123456) %s\n", begin_ms + duration_ms, thread, name) };

  g_array_append_val (records, open);
  g_array_append_val (records, close);
}

static void
clear_record (gpointer data)
{
  g_free (((Record *)data)->line);
}

/* The log, and the durations of ::Job::Run in the order the calls began
 * (every 10 ms from 0) */
static GFile *
write_stepping_log (Fixture *fixture,
                    guint   *run_ms)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (35);
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (Record));
  g_autoptr(GString) log = g_string_new ("opening log file 1350232464.306251 seconds past January 1st 1970\n"
                                         "corresponding to 0 ms after timer start\n"
                                         "Process id is 4711\n");
  guint last_ms = 0;

  g_array_set_clear_func (records, clear_record);
  for (guint cycle = 0; cycle < N_CYCLES; cycle++)
    for (guint thread = 1; thread <= 2; thread++)
      {
        guint begin_ms = cycle * 20 + (thread - 1) * 10;
        guint run = (guint)g_rand_int_range (rand, 2, 5) + (cycle >= STEP_CYCLE ? 4 : 0);
        guint idle = (guint)g_rand_int_range (rand, 3, 6);

        run_ms[cycle * 2 + thread - 1] = run;
        add_call (records, thread, "::Job::Run", begin_ms, run);
        /* After the run, before the other thread's */
        add_call (records, thread, "::Job::Idle", begin_ms + run, idle);
        last_ms = MAX (last_ms, begin_ms + run + idle);
      }
  g_array_sort (records, compare_records);
  for (guint i = 0; i < records->len; i++)
    g_string_append (log, g_array_index (records, Record, i).line);
  g_string_append_printf (log, "closing log file at %06u", last_ms);
  return write_temp_file (fixture, "stepping_4711.log", log->str, (gssize)log->len);
}

static void
select_total (PsRtlView  *view,
              const char *suffix)
{
  GListModel *model = ps_rtl_view_get_totals_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PsScopeTotalRow) row = g_list_model_get_item (model, i);

      if (g_str_has_suffix (ps_scope_total_row_get_name (row), suffix))
        {
          gtk_selection_model_select_item (gtk_column_view_get_model (ps_rtl_view_get_totals_view (view)), i, TRUE);
          return;
        }
    }
  g_assert_not_reached ();
}

static gboolean
chart_has_series (gpointer data)
{
  return ps_counter_chart_get_n_series (data) > 0 && widget_is_drawn (data);
}

/* Whether the chart lies whole in the window: the run page gives the
 * views below the timeline room for it a moment after it shows */
static gboolean
chart_in_window (gpointer data)
{
  GtkWidget *chart = data;
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (chart));
  graphene_rect_t bounds;

  return gtk_widget_compute_bounds (chart, window, &bounds) && bounds.origin.x >= 0 && bounds.origin.y >= 0
         && bounds.origin.x + bounds.size.width <= gtk_widget_get_width (window)
         && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (window);
}

/* The pixels in the series' colour in a column of the chart, from y0 to y1 */
static guint
count_series_pixels (PsCounterChart *chart,
                     double          x,
                     double          y0,
                     double          y1)
{
  g_autoptr(GdkTexture) texture = render_widget (GTK_WIDGET (chart));
  GdkRGBA color;

  ps_counter_chart_get_color (chart, 0, &color);
  return count_pixels_near (texture, (int)x - 1, (int)y0, (int)x + 1, (int)y1, &color);
}

/* Whether a pixel of a widget drawn on a clear background has ink */
static gboolean
has_ink (const guchar *pixels,
         gsize         stride,
         int           x,
         int           y)
{
  return pixels[(gsize)y * stride + (gsize)x * 4 + 3] > 60;
}

/* The x axis of a chart drawn below plot: each tick is a short line from
 * the plot's bottom edge, and each time label below it is centred on its
 * tick, but for the first and the last, which stay within the plot's
 * width. Labels are runs of columns with ink in the band from label_top
 * down label_height pixels, apart by more than a space. */
static void
assert_x_labels_centred (GtkWidget             *chart,
                         const graphene_rect_t *plot,
                         int                    label_top,
                         int                    label_height)
{
  g_autoptr(GdkTexture) texture = render_widget (chart);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize)width * 4;
  g_autofree guchar *pixels = g_malloc (stride * (gsize)height);
  int plot_left = (int)floor (plot->origin.x);
  int plot_right = (int)ceil (plot->origin.x + plot->size.width);
  int tick_y = (int)round (plot->origin.y + plot->size.height) + 2;
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (int));
  int run_start = -1, run_end = -1;
  guint n_labels = 0, n_centred = 0;

  gdk_texture_download (texture, pixels, stride);
  g_assert_cmpint (label_top + label_height, <=, height);
  for (int x = plot_left; x <= MIN (plot_right + 1, width - 1); x++)
    if (has_ink (pixels, stride, x, tick_y) && (ticks->len == 0 || g_array_index (ticks, int, ticks->len - 1) < x - 1))
      g_array_append_val (ticks, x);
  g_assert_cmpuint (ticks->len, >=, 2);

  /* One column past the width closes the last run */
  for (int x = 0; x <= width; x++)
    {
      gboolean ink = FALSE;

      for (int y = label_top; y < label_top + label_height && x < width && !ink; y++)
        ink = has_ink (pixels, stride, x, y);
      if (ink)
        {
          if (run_start < 0)
            run_start = x;
          run_end = x;
          continue;
        }
      if (run_start < 0 || x - run_end <= 8)
        continue;

      {
        double centre = (run_start + run_end + 1) / 2.0;
        int nearest = -1;

        g_test_message ("x label from %d to %d, plot from %d to %d", run_start, run_end, plot_left, plot_right);
        /* Inside the plot's width */
        g_assert_cmpint (run_start, >=, plot_left - 1);
        g_assert_cmpint (run_end, <=, plot_right + 1);
        for (guint i = 0; i < ticks->len; i++)
          if (nearest < 0 || fabs (g_array_index (ticks, int, i) - centre) < fabs (nearest - centre))
            nearest = g_array_index (ticks, int, i);
        /* Under it, give or take the glyphs' side bearings */
        g_assert_cmpint (nearest, >=, run_start - 2);
        g_assert_cmpint (nearest, <=, run_end + 2);
        /* Centred on it unless held at an end */
        if (run_start > plot_left + 1 && run_end < plot_right - 2)
          {
            g_assert_cmpfloat (fabs (centre - nearest), <=, 2.5);
            n_centred++;
          }
        n_labels++;
      }
      run_start = -1;
    }
  g_assert_cmpuint (n_labels, >=, 3);
  g_assert_cmpuint (n_centred, >=, 1);
}

static int
text_height (GtkWidget *widget)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, "0");
  int height;

  pango_layout_get_pixel_size (layout, NULL, &height);
  return height;
}

/* The height of what widget draws, from its highest ink to its lowest
 * (-1 when it draws none), checking that none lies in the 6 px at
 * either side */
static int
ink_height_within_sides (GtkWidget *widget)
{
  g_autoptr(GdkTexture) texture = render_widget (widget);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize)width * 4;
  g_autofree guchar *pixels = g_malloc (stride * (gsize)height);
  int top = height, bottom = -1;

  gdk_texture_download (texture, pixels, stride);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      if (has_ink (pixels, stride, x, y))
        {
          g_assert_cmpint (x, >=, 6);
          g_assert_cmpint (x, <, width - 6);
          top = MIN (top, y);
          bottom = MAX (bottom, y);
        }
  return bottom < 0 ? -1 : bottom - top;
}

/* The chart of ::Job::Run: each call at its begin with its duration in
 * ms, the step marked at the first longer call, drawn there, fitting a
 * window of 1024×700 and reachable by keyboard; ::Job::Idle has no mark */
static void
test_rtl_chart_changes (Fixture       *fixture,
                        gconstpointer  data)
{
  guint run_ms[N_CYCLES * 2];
  g_autoptr(GFile) file = write_stepping_log (fixture, run_ms);
  PsRunPage *page = open_and_wait (fixture, file);
  PsRtlView *view = ps_run_page_get_rtl_view (page);
  PsCounterChart *chart = ps_rtl_view_get_duration_chart (view);
  Series *series;
  g_autofree gint64 *x = NULL;
  g_autofree double *values = NULL;
  GArray *changes;
  const PsCounterChange *step;
  graphene_rect_t plot, bounds;
  gint64 x_begin, x_end;
  double y_low, y_high, mark_x, mark_top;
  g_autofree char *description = NULL;
  g_autofree char *tooltip = NULL;

  g_assert_true (iterate_until (run_view_is_idle, view));
  fixture_resize_window (fixture, 1024, 700);
  ps_rtl_view_show_page (view, "totals");
  select_total (view, "::Job::Run");
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_assert_true (iterate_until (chart_has_series, chart));
  g_assert_true (iterate_until (chart_in_window, chart));
  iterate_for (100);
  maybe_save_screenshot (fixture, "rtl-chart");

  /* Every call, in the order they began, with its duration */
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 1);
  series = g_ptr_array_index (chart->series, 0);
  g_assert_cmpuint (ps_value_lod_get_n_points (series->values), ==, N_CYCLES * 2);
  x = ps_value_lod_dup_x (series->values);
  values = ps_value_lod_dup_values (series->values);
  for (guint i = 0; i < N_CYCLES * 2; i++)
    {
      g_assert_cmpint (x[i], ==, (gint64)i * 10 * MS);
      g_assert_cmpfloat_with_epsilon (values[i], run_ms[i] / 1e3, 1e-9);
    }
  g_assert_nonnull (strstr (series->label, "::Job::Run"));

  /* In milliseconds, on the log's time */
  g_assert_true (ps_counter_chart_get_axes (chart, &x_begin, &x_end, &y_low, &y_high));
  g_assert_cmpint (x_begin, ==, 0);
  g_assert_cmpint (x_end, >=, (gint64)(N_CYCLES * 20 - 10) * MS);
  g_assert_cmpint (x_end, <=, (gint64)(N_CYCLES * 20 + 10) * MS);
  g_assert_cmpfloat (y_low, ==, 0);
  g_assert_cmpfloat (y_high, >=, 8);
  g_assert_cmpfloat (y_high, <=, 10);
  description = ps_counter_chart_get_description (chart);
  g_test_message ("%s", description);
  g_assert_nonnull (strstr (description, "600"));
  g_assert_nonnull (strstr (description, " ms. "));

  /* One step, where the first longer call began */
  changes = ps_counter_chart_get_series_changes (chart, 0);
  g_assert_nonnull (changes);
  g_assert_cmpuint (changes->len, ==, 1);
  step = &g_array_index (changes, PsCounterChange, 0);
  g_test_message ("from %" G_GINT64_FORMAT " ms, %+.1f %%", step->time_ns / MS, step->relative_change * 100);
  g_assert_cmpuint (step->n_steps, ==, 1);
  g_assert_cmpint (llabs (step->time_ns - STEP_CYCLE * 20 * MS), <=, 20 * MS);
  /* At a call's begin */
  g_assert_cmpint (step->time_ns % (10 * MS), ==, 0);
  g_assert_cmpfloat (step->relative_change, >, 1.0);
  g_assert_cmpfloat (step->relative_change, <, 1.8);

  /* Drawn there, above the plot where no series is */
  g_assert_true (ps_counter_chart_get_plot (chart, &plot));
  g_assert_true (ps_counter_chart_get_change_x (chart, 0, 0, &mark_x, &mark_top));
  g_assert_cmpfloat_with_epsilon (mark_x, plot.origin.x + (double)(step->time_ns - x_begin) / (double)(x_end - x_begin)
                                            * plot.size.width, 1.5);
  g_assert_cmpfloat (mark_top, <, plot.origin.y - 3);
  g_assert_cmpuint (count_series_pixels (chart, mark_x, mark_top, plot.origin.y - 1), >=, 3);
  g_assert_cmpuint (count_series_pixels (chart, plot.origin.x + plot.size.width / 4, mark_top, plot.origin.y - 1),
                    ==, 0);
  tooltip = ps_counter_chart_describe_change_at (chart, mark_x);
  g_assert_nonnull (tooltip);
  g_test_message ("%s", tooltip);
  g_assert_nonnull (strstr (tooltip, "ms"));

  /* Whole in the window, beside the histogram */
  g_assert_true (chart_in_window (chart));
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (chart), GTK_WIDGET (fixture->window), &bounds));
  g_test_message ("chart at %g, %g, %g × %g in %d × %d", bounds.origin.x, bounds.origin.y, bounds.size.width,
                  bounds.size.height, gtk_widget_get_width (GTK_WIDGET (fixture->window)),
                  gtk_widget_get_height (GTK_WIDGET (fixture->window)));
  g_assert_cmpfloat (bounds.size.width, >=, 240);
  g_assert_cmpfloat (bounds.size.height, >=, 140);

  /* The times below it and the durations below the histogram beside it,
   * each on its tick */
  assert_x_labels_centred (GTK_WIDGET (chart), &plot, (int)(plot.origin.y + plot.size.height + GAP) + 2,
                           text_height (GTK_WIDGET (chart)) - 4);
  {
    GtkWidget *histogram = find_widget_of_type (GTK_WIDGET (view), PS_TYPE_HISTOGRAM_VIEW, TRUE);
    graphene_rect_t area;

    g_assert_true (ps_histogram_view_get_plot_area (PS_HISTOGRAM_VIEW (histogram), gtk_widget_get_width (histogram),
                                                    gtk_widget_get_height (histogram), &area));
    /* Below its ticks (4 px) and their gap (4 px) */
    assert_x_labels_centred (histogram, &area, (int)(area.origin.y + area.size.height + 4) + 2,
                             text_height (histogram) - 4);
  }

  /* The keyboard moves its read-out */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (chart)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (chart), "chart.move", "d", 1.0));
  g_assert_cmpfloat (ps_counter_chart_get_readout_x (chart), >=, plot.origin.x);

  /* A steady scope: its calls gathered in the background, the chart
   * saying so meanwhile; then charted, nothing marked */
  select_total (view, "::Job::Idle");
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 0);
  g_assert_true (ps_run_view_is_busy (PS_RUN_VIEW (view)));
  g_assert_cmpstr (chart->empty_text, ==, "Gathering the calls…");
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_assert_true (iterate_until (chart_has_series, chart));
  series = g_ptr_array_index (chart->series, 0);
  g_assert_cmpuint (ps_value_lod_get_n_points (series->values), ==, N_CYCLES * 2);
  changes = ps_counter_chart_get_series_changes (chart, 0);
  g_assert_true (changes == NULL || changes->len == 0);

  /* No total, no chart */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (gtk_column_view_get_model (ps_rtl_view_get_totals_view (view))),
                                     GTK_INVALID_LIST_POSITION);
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 0);
}

/* A log whose ::Job::Main once spans a step back of the clock and once
 * never ends, and whose ::Job::Open never ends: neither has a call to
 * chart, and the chart says why, as the Scopes page marks those calls
 * (rtl-logfile.md §4.3); ::Job::Run, inside, is charted */
static void
test_rtl_chart_excluded (Fixture       *fixture,
                         gconstpointer  data)
{
  static const char log[] =
    "opening log file 1350232464.306251 seconds past January 1st 1970\n"
    "corresponding to 0 ms after timer start\n"
    "Process id is 4711\n"
    "000000 1 { job (ab123456) ::Job::Main\n"
    "000010 1 { job (ab123456) ::Job::Run\n"
    "000020 1 } job (ab123456) ::Job::Run\n"
    "000005 1 | job (ab123456) ::Job::Main : the clock went back\n"
    "000030 1 } job (ab123456) ::Job::Main\n"
    "000031 1 { job (ab123456) ::Job::Open\n"
    "000032 1 { job (ab123456) ::Job::Main\n"
    "000034 1 { job (ab123456) ::Job::Run\n"
    "000036 1 } job (ab123456) ::Job::Run\n"
    "closing log file at 000040";
  g_autoptr(GFile) file = write_temp_file (fixture, "excluded_4711.log", log, -1);
  PsRunPage *page = open_and_wait (fixture, file);
  PsRtlView *view = ps_run_page_get_rtl_view (page);
  PsCounterChart *chart = ps_rtl_view_get_duration_chart (view);
  PsHistogramView *histogram = view->histogram_view;
  graphene_rect_t bounds;

  g_assert_true (iterate_until (run_view_is_idle, view));
  fixture_resize_window (fixture, 1024, 700);
  ps_rtl_view_show_page (view, "totals");

  /* One reason: said of the one call */
  select_total (view, "::Job::Open");
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 0);
  g_assert_cmpstr (chart->empty_text, ==, "No complete calls: 1 excluded (it never ended)");
  /* The histogram beside it, as empty, says the same */
  g_assert_null (ps_histogram_view_get_histogram (histogram));
  g_assert_cmpstr (ps_histogram_view_get_empty_text (histogram), ==, chart->empty_text);

  /* Two: each with its number */
  select_total (view, "::Job::Main");
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_assert_true (iterate_until (widget_is_drawn, chart));
  maybe_save_screenshot (fixture, "rtl-chart-excluded");
  g_assert_cmpuint (ps_counter_chart_get_n_series (chart), ==, 0);
  g_assert_cmpstr (chart->empty_text, ==,
                   "No complete calls: 2 excluded (1 never ended, 1 with the clock going back inside)");
  g_assert_cmpstr (ps_histogram_view_get_empty_text (histogram), ==, chart->empty_text);
  /* No hint to drag over bars it does not have */
  g_assert_cmpstr (gtk_label_get_text (view->histogram_selection_label), ==, "");

  /* Drawn whole, on lines as wide as the chart beside the histogram: ink
   * on more than one line's height, none in the margins at the sides */
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (chart), GTK_WIDGET (fixture->window), &bounds));
  g_test_message ("chart %g px wide", bounds.size.width);
  g_assert_cmpfloat (bounds.size.width, <, 600);
  g_assert_cmpint (ink_height_within_sides (GTK_WIDGET (chart)), >, text_height (GTK_WIDGET (chart)));
  /* And the histogram's, wrapped within its width too */
  g_assert_cmpint (ink_height_within_sides (GTK_WIDGET (histogram)), >=, 0);

  /* A total with calls is charted */
  select_total (view, "::Job::Run");
  g_assert_true (iterate_until (run_view_is_idle, view));
  g_assert_true (iterate_until (chart_has_series, chart));
  g_assert_nonnull (ps_histogram_view_get_histogram (histogram));
  g_assert_cmpuint (ps_value_lod_get_n_points (((Series *)g_ptr_array_index (chart->series, 0))->values), ==, 2);
  g_assert_cmpstr (gtk_label_get_text (view->histogram_selection_label), ==, "Drag over the bars to select a range");
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/gui/rtl/chart-changes", test_rtl_chart_changes);
  ADD_TEST ("/gui/rtl/chart-excluded", test_rtl_chart_excluded);

  return gui_test_run ();
}

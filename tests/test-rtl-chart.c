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
 * chart says so, marks nothing.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-counter-chart-private.h"
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
  const gint64 *x;
  const double *values;
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
  ps_value_lod_get_points (series->values, &x, &values);
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

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/gui/rtl/chart-changes", test_rtl_chart_changes);

  return gui_test_run ();
}

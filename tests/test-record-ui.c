/* test-record-ui.c — New Recording, a live run drawn as it grows, Stop
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the procfs collector of this build (PERFSCOPE_COLLECTOR_DIR)
 * through the window: a busy process the test starts is recorded, its
 * charts must redraw at least ten times a second and show it near 100 %
 * of a CPU, and Stop turns the tab into the run.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-collector.h"
#include "ps-counters-view.h"
#include "ps-loader.h"
#include "ps-native-writer.h"
#include "ps-record-dialog.h"
#include "ps-record-page.h"
#include "ps-window-private.h"

/* This program, which is also the children some tests record */
static const char *self_path;

/* Skips the test when this build has no procfs collector */
static gboolean
skip_without_procfs (void)
{
  g_auto(GStrv) names = ps_collectors_list_names ();

  if (g_strv_contains ((const char * const *)names, "procfs"))
    return FALSE;
  g_test_skip ("The procfs collector is not built");
  return TRUE;
}

/* The Record dialog over window with the procfs collector chosen */
static PsRecordDialog *
show_procfs_dialog (PsWindow *window)
{
  PsRecordDialog *dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (window));

  g_assert_true (ps_record_dialog_select_backend (dialog, "procfs"));
  return dialog;
}

/* A child that spins on one CPU until killed, or for a minute at most
 * should the test die first; its output is not the test's, so that a
 * test that fails is not waited for */
static GPid
start_busy_process (void)
{
  const char *argv[] = {
    "/bin/sh", "-c",
    "end=$(($(date +%s) + 60)); "
    "while [ \"$(date +%s)\" -lt \"$end\" ]; do i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done; done",
    NULL
  };
  g_autoptr(GError) error = NULL;
  GPid pid = 0;

  g_spawn_async (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

static void
stop_process (GPid pid)
{
  kill (pid, SIGKILL);
  g_spawn_close_pid (pid);
}

static gboolean
refreshed_enough (gpointer data)
{
  return ps_record_page_get_n_refreshes (data) >= 12;
}

static gboolean
page_has_file (gpointer data)
{
  return ps_run_page_get_file (data) != NULL;
}

typedef struct
{
  gboolean      done;
  PsEventStore *store;
} LoadWait;

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  LoadWait *wait = user_data;
  g_autoptr(GError) error = NULL;

  wait->store = ps_loader_load_finish (PS_LOADER (object), result, &error);
  g_assert_no_error (error);
  wait->done = TRUE;
}

static gboolean
load_is_done (gpointer data)
{
  return ((LoadWait *)data)->done;
}

/* The highest reading of the first track of that name */
static double
highest_of (PsEventStore *store,
            guint32       parent,
            const char   *name)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == PS_TRACK_COUNTER && (parent == PS_NONE || track->parent == parent)
          && g_strcmp0 (ps_event_store_get_string (store, track->name), name) == 0)
        return ps_event_store_get_counter_stats (store, t)->max;
    }
  return NAN;
}

/* Some chart of the recording has the changes of its first series, as
 * last found in the worker */
static gboolean
changes_are_marked (gpointer data)
{
  GPtrArray *charts = data;

  for (guint i = 0; i < charts->len; i++)
    if (ps_counter_chart_get_n_series (g_ptr_array_index (charts, i)) > 0
        && ps_counter_chart_get_series_changes (g_ptr_array_index (charts, i), 0) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_record_process (Fixture       *fixture,
                     gconstpointer  data)
{
  PsRecordDialog *dialog;
  PsRecordPage *record_page;
  PsEventStore *store;
  PsRunPage *run_page;
  GPid pid;
  g_autofree char *pid_text = NULL;
  guint n_events_before;
  guint refreshes;
  GPtrArray *charts;
  gint64 started;
  double elapsed_s;

  if (skip_without_procfs ())
    return;

  pid = start_busy_process ();
  pid_text = g_strdup_printf ("%d", (int)pid);

  /* Ctrl+R's action opens the dialog over the window */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.record", NULL));
  dialog = PS_RECORD_DIALOG (find_toplevel (PS_TYPE_RECORD_DIALOG));
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (fixture->window));
  g_assert_true (ps_record_dialog_select_backend (dialog, "procfs"));
  /* Every option of the backend has its row; the process is in the list */
  g_assert_true (GTK_IS_DROP_DOWN (ps_record_dialog_get_option_widget (dialog, "pid")));
  g_assert_true (GTK_IS_SPIN_BUTTON (ps_record_dialog_get_option_widget (dialog, "interval-ms")));
  g_assert_true (GTK_IS_SWITCH (ps_record_dialog_get_option_widget (dialog, "system")));
  g_assert_true (ps_record_dialog_set_option (dialog, "pid", pid_text));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "50"));

  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (window_shows_record_page, fixture->window));
  g_assert_null (find_toplevel (PS_TYPE_RECORD_DIALOG));
  record_page = window_current_record_page (fixture->window);
  g_assert_true (ps_record_page_is_recording (record_page));
  /* The tab names the backend and the process */
  g_assert_nonnull (strstr (ps_record_page_get_title (record_page), pid_text));
  store = g_object_ref (ps_record_page_get_store (record_page));

  /* A redraw at every 100 ms tick while readings come in (every 50 ms):
   * ten a second on a free machine. A busy test machine delays the ticks,
   * not the redraws they make, so the rate itself is only logged. */
  started = g_get_monotonic_time ();
  g_assert_true (iterate_until (refreshed_enough, record_page));
  refreshes = ps_record_page_get_n_refreshes (record_page);
  elapsed_s = (g_get_monotonic_time () - started) / 1e6;
  g_test_message ("%u redraws in %u ticks, %.2f s", refreshes, ps_record_page_get_n_ticks (record_page), elapsed_s);
  g_assert_cmpuint (refreshes + 2, >=, ps_record_page_get_n_ticks (record_page));
  g_assert_nonnull (strstr (ps_record_page_get_status (record_page), "Recording for"));
  iterate_for (600);

  /* One chart per object and unit: the process's CPU and memory, the
   * system's CPU and memory */
  charts = ps_record_page_get_charts (record_page);
  g_assert_cmpuint (charts->len, >=, 4);
  for (guint i = 0; i < charts->len; i++)
    g_assert_cmpuint (ps_counter_chart_get_n_series (g_ptr_array_index (charts, i)), >=, 1);
  g_assert_nonnull (ps_timeline_view_get_model (ps_record_page_get_timeline_view (record_page)));
  /* Where the counters changed is looked for while they grow, and each
   * tick marks what was found */
  g_assert_true (iterate_until (changes_are_marked, charts));
  maybe_save_screenshot (fixture, "record-live");

  /* The busy loop spins: it shows, on a test machine that may be busy
   * with other tests (test-collector-procfs checks the figure itself) */
  g_assert_cmpfloat (highest_of (store, PS_NONE, "% Processor Time"), >, 2.0);
  n_events_before = (guint)ps_event_store_get_n_counter_readings (store);
  g_assert_cmpuint (n_events_before, >, 10);

  /* Stop: the tab becomes the run, in the same place, with every reading */
  ps_record_page_stop (record_page);
  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  run_page = ps_window_get_current_page (fixture->window);
  g_assert_true (ps_run_page_get_store (run_page) == store);
  g_assert_null (ps_run_page_get_file (run_page));
  g_assert_nonnull (strstr (ps_run_page_get_title (run_page), pid_text));
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), >=, n_events_before);
  iterate_for (300);
  maybe_save_screenshot (fixture, "record-stopped");

  /* Save As…: the recording becomes the saved file's run, which reads
   * back with every reading */
  {
    g_autofree char *saved_path = g_build_filename (fixture->tmpdir, "recording.perfscope", NULL);
    g_autoptr(GFile) saved = g_file_new_for_path (saved_path);
    g_autoptr(PsLoader) loader = ps_loader_new (saved);
    LoadWait wait = { 0 };

    _ps_window_save_page_to (fixture->window, run_page, saved);
    g_assert_true (iterate_until (page_has_file, run_page));
    g_assert_true (g_file_equal (ps_run_page_get_file (run_page), saved));
    g_assert_cmpstr (ps_run_page_get_title (run_page), ==, "recording.perfscope");
    g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "recording.perfscope");

    ps_loader_load_async (loader, NULL, load_done_cb, &wait);
    g_assert_true (iterate_until (load_is_done, &wait));
    g_assert_nonnull (wait.store);
    g_assert_cmpuint (ps_event_store_get_n_counter_readings (wait.store), ==,
                      ps_event_store_get_n_counter_readings (store));
    g_assert_cmpuint (ps_event_store_get_n_tracks (wait.store), ==, ps_event_store_get_n_tracks (store));
    g_clear_object (&wait.store);
  }

  /* Closing it is as for any run */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL);
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  iterate_for (300);

  g_object_unref (store);
  stop_process (pid);
}

static void
test_record_error (Fixture       *fixture,
                   gconstpointer  data)
{
  PsRecordDialog *dialog;

  if (skip_without_procfs ())
    return;

  dialog = show_procfs_dialog (fixture->window);
  g_assert_true (ps_record_dialog_set_option (dialog, "command", "/nonexistent/perfscope-no-such-program"));
  ps_record_dialog_record (dialog);
  iterate_until ((gboolean (*) (gpointer))ps_record_dialog_get_error, dialog);

  /* The dialog stays, says why, and no tab was added */
  g_assert_nonnull (ps_record_dialog_get_error (dialog));
  g_assert_nonnull (strstr (ps_record_dialog_get_error (dialog), "Cannot record"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A launched command that exits ends its recording: the tab becomes the
 * run without Stop */
static void
test_command_exits (Fixture       *fixture,
                    gconstpointer  data)
{
  PsRecordDialog *dialog;

  if (skip_without_procfs ())
    return;

  dialog = show_procfs_dialog (fixture->window);
  g_assert_true (ps_record_dialog_set_option (dialog, "command", "sleep 0.5"));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "50"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (window_shows_record_page, fixture->window));
  g_assert_nonnull (strstr (ps_record_page_get_title (window_current_record_page (fixture->window)), "sleep 0.5"));

  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (ps_run_page_get_store (ps_window_get_current_page (fixture->window))), >, 0);
}

static gboolean
has_readings (gpointer data)
{
  return ps_event_store_get_n_counter_readings (data) > 0;
}

/* A child that waits for a line on its standard input, then takes
 * 200 MiB and touches it (a step in its resident memory), and holds it
 * until killed, or for a minute at most */
static int
memory_step_child (void)
{
  char line[16];
  gsize size = 200 * 1024 * 1024;
  char *block;

  if (fgets (line, sizeof line, stdin) == NULL)
    return 1;
  block = g_malloc (size);
  for (gsize i = 0; i < size; i += 4096)
    block[i] = (char)i;
  g_usleep (60 * G_USEC_PER_SEC);
  g_free (block);
  return 0;
}

typedef struct
{
  PsEventStore *store;
  guint32       track;
  guint64       n_readings;
} TrackWait;

static guint64
count_readings (PsEventStore *store,
                guint32       track)
{
  guint64 n = 0;

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    n += ps_event_store_get_counter_value (store, i)->track == track;
  return n;
}

static gboolean
track_has_readings (gpointer data)
{
  TrackWait *wait = data;

  wait->track = PS_NONE;
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (wait->store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (wait->store, t);

      if (track->kind == PS_TRACK_COUNTER
          && g_strcmp0 (ps_event_store_get_string (wait->store, track->name), "Resident Set Size") == 0)
        wait->track = t;
    }
  return wait->track != PS_NONE && count_readings (wait->store, wait->track) >= wait->n_readings;
}

/* The chart of the record page titled title, or NULL */
static PsCounterChart *
find_chart_titled (PsRecordPage *page,
                   const char   *title)
{
  GPtrArray *charts = ps_record_page_get_charts (page);

  for (guint i = 0; i < charts->len; i++)
    if (g_strcmp0 (ps_counter_chart_get_title (g_ptr_array_index (charts, i)), title) == 0)
      return g_ptr_array_index (charts, i);
  return NULL;
}

static gboolean
chart_has_a_change (gpointer data)
{
  PsCounterChart *chart = find_chart_titled (data, "Process · Resident Set Size");
  GArray *changes = chart != NULL && ps_counter_chart_get_n_series (chart) > 0
                    ? ps_counter_chart_get_series_changes (chart, 0) : NULL;

  return changes != NULL && changes->len > 0;
}

/* A rise in a process's memory while it is recorded is marked on its
 * chart, during the recording, where the readings begin to rise: between
 * the last flat reading and the first higher one */
static void
test_live_change_mark (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *argv[] = { self_path, "--memory-step-child", NULL };
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  PsRecordDialog *dialog;
  PsRecordPage *page;
  TrackWait wait = { 0 };
  PsCounterChart *chart;
  const PsCounterChange *change;
  GArray *changes;
  gint64 rise_ns = -1, flat_ns = 0;
  double flat_bytes = -1;
  gboolean rising = FALSE;
  /* The two readings before the last flat one */
  gint64 before_flat_ns[2] = { 0, 0 };

  if (skip_without_procfs ())
    return;

  child = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_assert_no_error (error);
  dialog = show_procfs_dialog (fixture->window);
  g_assert_true (ps_record_dialog_set_option (dialog, "pid", g_subprocess_get_identifier (child)));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "50"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (window_shows_record_page, fixture->window));
  page = window_current_record_page (fixture->window);

  /* A second of flat readings, then the step */
  wait.store = ps_record_page_get_store (page);
  wait.n_readings = 20;
  g_assert_true (iterate_until (track_has_readings, &wait));
  g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (child), "go\n", 3, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_flush (g_subprocess_get_stdin_pipe (child), NULL, &error));
  g_assert_true (iterate_until (chart_has_a_change, page));
  g_assert_true (ps_record_page_is_recording (page));
  maybe_save_screenshot (fixture, "record-change-mark");

  /* Where the readings begin to rise: the child touches its memory at
   * once, or, on a busy machine, over seconds. The last flat reading is
   * the last within a few pages of the first: a rise spread over several
   * readings begins before the first reading a MiB higher. */
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (wait.store) && rise_ns < 0; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (wait.store, i);

      if (value->track != wait.track)
        continue;
      if (flat_bytes < 0)
        flat_bytes = value->value;
      if (value->value >= flat_bytes + 1024.0 * 1024)
        rise_ns = value->time_ns;
      else if (value->value < flat_bytes + 64.0 * 1024 && !rising)
        {
          before_flat_ns[0] = before_flat_ns[1];
          before_flat_ns[1] = flat_ns;
          flat_ns = value->time_ns;
        }
      else
        rising = TRUE;
    }
  g_assert_cmpint (rise_ns, >, 0);

  chart = find_chart_titled (page, "Process · Resident Set Size");
  changes = ps_counter_chart_get_series_changes (chart, 0);
  g_assert_cmpuint (changes->len, >=, 1);
  change = &g_array_index (changes, PsCounterChange, 0);
  g_test_message ("readings rise between %.3f s and %.3f s; marked at %.3f s to %.3f s in %u steps, %+.0f %%",
                  flat_ns / 1e9, rise_ns / 1e9, change->time_ns / 1e9, change->end_ns / 1e9, change->n_steps,
                  100 * change->relative_change);
  /* Within two readings of where they rose (readings come every 50 ms,
   * a few µs more or less each) */
  g_assert_cmpint (change->time_ns, >=, before_flat_ns[0]);
  g_assert_cmpint (change->time_ns, <=, rise_ns + 100 * 1000 * 1000);
  g_assert_cmpfloat (change->relative_change, >, 0.3);
  /* No chart tells a change from zero (the CPU of a process idle until
   * then) as a quotient by a rounding error: it has no relative size */
  for (guint i = 0; i < ps_record_page_get_charts (page)->len; i++)
    {
      PsCounterChart *other = g_ptr_array_index (ps_record_page_get_charts (page), i);

      for (guint s = 0; s < ps_counter_chart_get_n_series (other); s++)
        {
          GArray *found = ps_counter_chart_get_series_changes (other, s);

          for (guint c = 0; found != NULL && c < found->len; c++)
            {
              double relative = g_array_index (found, PsCounterChange, c).relative_change;

              g_assert_true (isinf (relative) || fabs (relative) < 1e4);
            }
        }
    }

  ps_record_page_stop (page);
  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
  g_subprocess_force_exit (child);
}

/* The question (or message) shown over the window, answered with the
 * button so labelled; returns the dialog's text */
static char *
answer_question (const char *message,
                 const char *button)
{
  GtkWidget *dialog;
  char *text;

  iterate_for (100);
  dialog = find_dialog_with_text (message);
  g_assert_nonnull (dialog);
  text = collect_label_text (dialog);
  g_assert_true (click_button (dialog, button));
  iterate_for (200);
  g_assert_null (find_dialog_with_text (message));
  return text;
}

/* A tab closed while it records stops the backend: readings came in
 * until then, none afterwards (at 20 ms, 25 would in half a second), the
 * ones recorded stay, and nothing crashes */
static void
test_close_while_recording (Fixture       *fixture,
                            gconstpointer  data)
{
  PsRecordDialog *dialog;
  PsRecordPage *record_page;
  PsEventStore *store;
  g_autofree char *title = NULL;
  g_autofree char *message = NULL;
  guint64 n_early, n_before_close, n_after_close;

  if (skip_without_procfs ())
    return;

  dialog = show_procfs_dialog (fixture->window);
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "20"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (window_shows_record_page, fixture->window));
  record_page = window_current_record_page (fixture->window);
  g_assert_true (ps_record_page_is_recording (record_page));
  store = g_object_ref (ps_record_page_get_store (record_page));

  /* It records, and goes on recording */
  g_assert_true (iterate_until (has_readings, store));
  n_early = ps_event_store_get_n_counter_readings (store);
  iterate_for (1000);
  n_before_close = ps_event_store_get_n_counter_readings (store);
  g_test_message ("%" G_GUINT64_FORMAT " readings, then %" G_GUINT64_FORMAT " a second later", n_early, n_before_close);
  g_assert_cmpuint (n_before_close, >, n_early);

  /* Closing asks first; Cancel keeps it recording */
  title = g_strdup (ps_record_page_get_title (record_page));
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL);
  message = g_strdup_printf ("Stop and Discard “%s”?", title);
  g_free (answer_question (message, "_Cancel"));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);
  g_assert_true (ps_record_page_is_recording (record_page));
  n_before_close = ps_event_store_get_n_counter_readings (store);
  iterate_for (300);
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), >, n_before_close);

  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL);
  g_free (answer_question (message, "Stop and _Discard"));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  n_before_close = ps_event_store_get_n_counter_readings (store);
  /* The batch the backend had when it stopped is committed */
  iterate_for (200);
  n_after_close = ps_event_store_get_n_counter_readings (store);
  g_assert_cmpuint (n_after_close, >=, n_before_close);
  iterate_for (500);
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), ==, n_after_close);
  g_object_unref (store);
}

static gboolean
save_error_shown (gpointer data)
{
  return find_dialog_with_text ("Could Not Save the Recording") != NULL;
}

/* A stopped recording that was not saved: its tab and the window close
 * only once the user says so, and a save that fails keeps the run in the
 * cache folder and says where */
static void
test_unsaved_recording (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *missing_path = g_build_filename (fixture->tmpdir, "gone", "run.perfscope", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (missing_path);
  g_autofree char *folder = ps_native_unsaved_folder ();
  g_autofree char *title = NULL;
  g_autofree char *message = NULL;
  g_autofree char *text = NULL;
  g_autofree char *kept_path = NULL;
  PsRecordDialog *dialog;
  PsRunPage *run_page;
  PsEventStore *store;

  if (skip_without_procfs ())
    return;

  dialog = show_procfs_dialog (fixture->window);
  g_assert_true (ps_record_dialog_set_option (dialog, "command", "sleep 0.3"));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "50"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (window_shows_record_page, fixture->window));
  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
  run_page = ps_window_get_current_page (fixture->window);
  store = ps_run_page_get_store (run_page);
  g_assert_null (ps_run_page_get_file (run_page));
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), >, 0);
  g_assert_cmpuint (ps_window_get_n_unsaved_recordings (fixture->window), ==, 1);
  title = g_strdup (ps_run_page_get_title (run_page));
  message = g_strdup_printf ("Save “%s” Before Closing?", title);

  /* Closing its tab asks; Cancel keeps it */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL);
  text = answer_question (message, "_Cancel");
  g_assert_nonnull (strstr (text, "The recording is only in this window. If you do not save it, it is lost."));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);

  /* So does closing the window */
  gtk_window_close (GTK_WINDOW (fixture->window));
  g_clear_pointer (&text, g_free);
  text = answer_question ("Close Without Saving the Recording?", "_Cancel");
  g_assert_nonnull (strstr (text, "A recording is only in this window."));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fixture->window)));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);

  /* And Quit (Ctrl+Q): the window and the application stay */
  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "quit", NULL);
  g_free (answer_question ("Close Without Saving the Recording?", "_Cancel"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fixture->window)));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 1);

  /* A save that fails: the run goes to the cache folder, as the message says */
  _ps_window_save_page_to (fixture->window, run_page, missing);
  g_assert_true (iterate_until (save_error_shown, NULL));
  g_clear_pointer (&text, g_free);
  text = answer_question ("Could Not Save the Recording", "_Close");
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "gone” does not exist"));
  {
    const char *start = strstr (text, "The recording was saved to “");
    const char *end;
    g_autoptr(GFile) kept = NULL;
    g_autoptr(PsLoader) loader = NULL;
    LoadWait wait = { 0 };

    g_assert_nonnull (start);
    start += strlen ("The recording was saved to “");
    end = strstr (start, "” instead.");
    g_assert_nonnull (end);
    kept_path = g_strndup (start, (gsize)(end - start));
    g_assert_true (g_str_has_prefix (kept_path, folder));
    kept = g_file_new_for_path (kept_path);
    loader = ps_loader_new (kept);
    ps_loader_load_async (loader, NULL, load_done_cb, &wait);
    g_assert_true (iterate_until (load_is_done, &wait));
    g_assert_nonnull (wait.store);
    g_assert_cmpuint (ps_event_store_get_n_counter_readings (wait.store), ==,
                      ps_event_store_get_n_counter_readings (store));
    g_clear_object (&wait.store);
    g_assert_cmpint (g_unlink (kept_path), ==, 0);
  }
  /* It is still the window's only copy */
  g_assert_null (ps_run_page_get_file (run_page));
  g_assert_cmpuint (ps_window_get_n_unsaved_recordings (fixture->window), ==, 1);

  /* Discard closes it */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL);
  g_free (answer_question (message, "_Discard"));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 0);
  g_assert_cmpuint (ps_window_get_n_unsaved_recordings (fixture->window), ==, 0);
}

/* The last tab closed: the window goes back to its empty state with no
 * warning from the tab strip, which has no tab left to measure (a counter
 * run's tab, as a stopped recording leaves) */
static void
test_close_last_tab (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "perfmon_4cpu.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);
  iterate_for (300);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL));
  iterate_for (300);
  g_assert_cmpstr (ps_window_get_visible_state (fixture->window), ==, "empty");
}


typedef struct
{
  PsWindow   *window;
  const char *title;
  guint       n_series;
} ChartWait;

static gboolean
chart_has_series (gpointer data)
{
  ChartWait *wait = data;
  PsRecordPage *page = window_current_record_page (wait->window);
  PsCounterChart *chart = page != NULL ? find_chart_titled (page, wait->title) : NULL;

  return chart != NULL && ps_counter_chart_get_n_series (chart) >= wait->n_series;
}

/* The dialog starts on the system's own backend; one that cannot record
 * here says why and cannot start; a command's processes each have a
 * series in one chart per counter; the backend and its options (not the
 * command) are there again the next time */
static void
test_dialog_defaults (Fixture       *fixture,
                      gconstpointer  data)
{
  PsRecordDialog *dialog;
  ChartWait wait = { fixture->window, "Process · % Processor Time", 3 };
  g_auto(GStrv) names = NULL;
  g_autofree char *data_dir = g_dir_make_tmp ("perfscope-test-record-XXXXXX", NULL);
  g_autofree char *info = NULL;

  ps_collectors_load (NULL);
  names = ps_collectors_list_names ();
  if (skip_without_procfs ())
    return;

  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_assert_cmpstr (ps_record_dialog_get_backend (dialog), ==, "procfs");
  g_assert_true (ps_record_dialog_can_record (dialog));
  g_assert_null (ps_record_dialog_get_error (dialog));
  g_assert_true (GTK_IS_SWITCH (ps_record_dialog_get_option_widget (dialog, "children")));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (ps_record_dialog_get_option_widget (dialog, "children"))));
  if (g_strv_contains ((const char * const *)names, "perflib"))
    {
      g_assert_true (ps_record_dialog_select_backend (dialog, "perflib"));
      g_assert_false (ps_record_dialog_can_record (dialog));
      g_assert_nonnull (strstr (ps_record_dialog_get_error (dialog), "not available"));
      g_assert_true (ps_record_dialog_select_backend (dialog, "procfs"));
      g_assert_true (ps_record_dialog_can_record (dialog));
      g_assert_null (ps_record_dialog_get_error (dialog));
    }
  g_assert_true (ps_record_dialog_set_option (dialog, "command", "sh -c 'sleep 1.5 & sleep 1.5 & wait'"));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "70"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (window_shows_record_page, fixture->window));

  /* The shell and its two sleeps in the CPU chart of the processes */
  g_assert_true (iterate_until (chart_has_series, &wait));
  g_assert_nonnull (find_chart_titled (window_current_record_page (fixture->window), "Process Tree"));
  ps_record_page_stop (window_current_record_page (fixture->window));
  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));

  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_assert_cmpstr (ps_record_dialog_get_backend (dialog), ==, "procfs");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (ps_record_dialog_get_option_widget (dialog, "interval-ms"))),
                   ==, 70);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (ps_record_dialog_get_option_widget (dialog, "command"))), ==, "");
  g_assert_null (strstr (ps_record_dialog_get_hint (dialog), "Flatpak"));
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* Inside a Flatpak sandbox the dialog says what procfs can see and
   * how to record a program of the system */
  info = g_build_filename (data_dir, "flatpak-info", NULL);
  g_assert_true (g_file_set_contents (info, "[Application]\n", -1, NULL));
  g_setenv (PS_FLATPAK_INFO_ENV, info, TRUE);
  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_setenv (PS_FLATPAK_INFO_ENV, "", TRUE);
  g_unlink (info);
  g_assert_cmpstr (ps_record_dialog_get_backend (dialog), ==, "procfs");
  g_assert_nonnull (strstr (ps_record_dialog_get_hint (dialog), "Flatpak sandbox"));
  g_assert_nonnull (strstr (ps_record_dialog_get_hint (dialog), "perfscope-cli record --pid PID"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_rmdir (data_dir);
}

int
main (int   argc,
      char *argv[])
{
  if (argc > 1 && strcmp (argv[1], "--memory-step-child") == 0)
    return memory_step_child ();
  self_path = argv[0];
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/record-ui/close-last-tab", test_close_last_tab);
  ADD_TEST ("/record-ui/process", test_record_process);
  ADD_TEST ("/record-ui/dialog-defaults", test_dialog_defaults);
  ADD_TEST ("/record-ui/live-change-mark", test_live_change_mark);
  ADD_TEST ("/record-ui/error", test_record_error);
  ADD_TEST ("/record-ui/command-exits", test_command_exits);
  ADD_TEST ("/record-ui/close-while-recording", test_close_while_recording);
  ADD_TEST ("/record-ui/unsaved-recording", test_unsaved_recording);

  return gui_test_run ();
}

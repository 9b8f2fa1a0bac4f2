/* test-record-host.c — recording a program of the system from inside Flatpak
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Flatpak cannot run in the tests: the sandbox is faked by a
 * $PERFSCOPE_FLATPAK_INFO file, and `flatpak-spawn --host` by
 * fake-flatpak-spawn, which runs the command here. The "host" has this
 * build's perfscope-cli on its PATH, or (test not-installed) none.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-collector.h"
#include "ps-host-collector.h"
#include "ps-record-dialog.h"
#include "ps-record-page.h"
#include "ps-window-private.h"

static char *host_path;     /* fake-flatpak-spawn and perfscope-cli */
static char *bare_path;     /* fake-flatpak-spawn alone */

/* The current tab is a run with an error: its banner says why */
static gboolean
current_run_page_failed (gpointer window)
{
  PsRunPage *page = ps_window_get_current_page (window);

  return page != NULL && (ps_run_page_get_state (page) == PS_RUN_PAGE_FAILED
                          || ps_run_page_get_state (page) == PS_RUN_PAGE_PARTIAL);
}

/* The first counter track of that name, or PS_NONE */
static guint32
find_counter (PsEventStore *store,
              const char   *name)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == PS_TRACK_COUNTER && g_strcmp0 (ps_event_store_get_string (store, track->name), name) == 0)
        return t;
    }
  return PS_NONE;
}

/* The files of the runs the host saved, left behind */
static guint
count_left_behind (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "perfscope", "host-recordings", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (listing != NULL && g_dir_read_name (listing) != NULL)
    n++;
  return n;
}

/* Inside the sandbox the system's processes come first, through
 * perfscope-cli on the host; procfs, which sees the sandbox only, says so */
static void
test_dialog (Fixture       *fixture,
             gconstpointer  data)
{
  PsRecordDialog *dialog;

  g_setenv ("PATH", host_path, TRUE);
  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_assert_cmpstr (ps_record_dialog_get_backend (dialog), ==, PS_HOST_COLLECTOR_NAME);
  g_assert_true (ps_record_dialog_can_record (dialog));
  g_assert_null (ps_record_dialog_get_error (dialog));
  g_assert_nonnull (strstr (ps_record_dialog_get_hint (dialog), "perfscope-cli"));
  /* The sandbox's process list would not be the system's */
  g_assert_true (GTK_IS_ENTRY (ps_record_dialog_get_option_widget (dialog, "pid")));

  g_assert_true (ps_record_dialog_select_backend (dialog, "procfs"));
  g_assert_nonnull (strstr (ps_record_dialog_get_hint (dialog), "Flatpak sandbox"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Without perfscope-cli on the host the backend is there, disabled, and
 * says how to record from a terminal; procfs is chosen */
static void
test_not_installed (Fixture       *fixture,
                    gconstpointer  data)
{
  PsRecordDialog *dialog;

  g_setenv ("PATH", bare_path, TRUE);
  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_setenv ("PATH", host_path, TRUE);
  g_assert_cmpstr (ps_record_dialog_get_backend (dialog), ==, "procfs");
  g_assert_true (ps_record_dialog_select_backend (dialog, PS_HOST_COLLECTOR_NAME));
  g_assert_false (ps_record_dialog_can_record (dialog));
  g_assert_nonnull (strstr (ps_record_dialog_get_error (dialog), "--talk-name=org.freedesktop.Flatpak"));
  g_assert_nonnull (strstr (ps_record_dialog_get_error (dialog), "perfscope-cli record --pid PID"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Records command on the host, every 50 ms, from the dialog, until
 * the recording's tab shows */
static void
record_on_host (Fixture    *fixture,
                const char *command)
{
  PsRecordDialog *dialog;

  g_setenv ("PATH", host_path, TRUE);
  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_assert_true (ps_record_dialog_set_option (dialog, "command", command));
  g_assert_true (ps_record_dialog_set_option (dialog, "interval-ms", "50"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (window_shows_record_page, fixture->window));
}

/* A command launched on the host: the page waits for it, and when it
 * ends the run saved there is the tab's, with the tree and its processes */
static void
test_command (Fixture       *fixture,
              gconstpointer  data)
{
  PsEventStore *store;

  record_on_host (fixture, "sh -c 'sleep 0.4; sleep 0.2'");
  g_assert_nonnull (strstr (ps_record_page_get_title (window_current_record_page (fixture->window)), "sleep 0.4"));

  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
  store = ps_run_page_get_store (ps_window_get_current_page (fixture->window));
  g_assert_null (ps_event_store_get_error (store));
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), >, 0);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "collector"), ==, "procfs");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "command"), ==, "sh -c 'sleep 0.4; sleep 0.2'");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "interval_ms"), ==, "50");
  g_assert_cmpuint (find_counter (store, "Process Count"), !=, PS_NONE);
  g_assert_cmpuint (count_left_behind (), ==, 0);
}

/* Stop ends the program on the host as Ctrl+C would: it saves what it
 * recorded, which the tab then shows */
static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  PsEventStore *store;

  record_on_host (fixture, "sleep 60");
  /* A few readings on the host first */
  iterate_for (600);
  g_assert_true (ps_record_page_is_recording (window_current_record_page (fixture->window)));
  ps_record_page_stop (window_current_record_page (fixture->window));

  g_assert_true (iterate_until (current_run_page_loaded, fixture->window));
  store = ps_run_page_get_store (ps_window_get_current_page (fixture->window));
  g_assert_null (ps_event_store_get_error (store));
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), >, 0);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "command"), ==, "sleep 60");
  g_assert_cmpuint (count_left_behind (), ==, 0);
}

/* A process the host does not have: the tab says what the host said */
static void
test_host_error (Fixture       *fixture,
                 gconstpointer  data)
{
  PsRecordDialog *dialog;
  PsEventStore *store;
  const GError *error;

  g_setenv ("PATH", host_path, TRUE);
  dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  g_assert_true (ps_record_dialog_set_option (dialog, "pid", "999999999"));
  ps_record_dialog_record (dialog);
  g_assert_true (iterate_until (current_run_page_failed, fixture->window));
  store = ps_run_page_get_store (ps_window_get_current_page (fixture->window));
  error = ps_event_store_get_error (store);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "recorded nothing"));
  g_assert_nonnull (strstr (error->message, "999999999"));
  g_assert_cmpuint (count_left_behind (), ==, 0);
}

/* A folder of links: flatpak-spawn to the fake, and perfscope-cli */
static char *
make_bin_dir (const char *root,
              const char *name,
              gboolean    with_cli)
{
  char *dir = g_build_filename (root, name, NULL);
  g_autofree char *spawn = g_build_filename (dir, "flatpak-spawn", NULL);
  g_autofree char *cli = g_build_filename (dir, "perfscope-cli", NULL);

  g_autoptr(GFile) spawn_link = g_file_new_for_path (spawn);
  g_autoptr(GFile) cli_link = g_file_new_for_path (cli);
  g_autofree char *fake_spawn = g_test_build_filename (G_TEST_DIST, "fake-flatpak-spawn", NULL);
  g_autofree char *built_cli = g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "perfscope-cli", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_make_symbolic_link (spawn_link, fake_spawn, NULL, &error);
  g_assert_no_error (error);
  if (with_cli)
    g_file_make_symbolic_link (cli_link, built_cli, NULL, &error);
  g_assert_no_error (error);
  return dir;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *root = g_dir_make_tmp ("perfscope-test-host-XXXXXX", NULL);
  g_autofree char *info = g_build_filename (root, "flatpak-info", NULL);
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  g_autofree char *host_bin = NULL;
  g_autofree char *bare_bin = NULL;
  int status;

  g_assert_nonnull (root);
  g_assert_true (g_file_set_contents (info, "[Application]\nname=io.github.perfscope.Perfscope\n", -1, NULL));
  g_setenv (PS_FLATPAK_INFO_ENV, info, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  if (!gui_test_init (&argc, &argv))
    return 0;

  host_bin = make_bin_dir (root, "host", TRUE);
  bare_bin = make_bin_dir (root, "bare", FALSE);
  host_path = g_strjoin (G_SEARCHPATH_SEPARATOR_S, host_bin, g_getenv ("PATH"), NULL);
  bare_path = g_strjoin (G_SEARCHPATH_SEPARATOR_S, bare_bin, "/usr/bin", "/bin", NULL);

  ADD_TEST ("/record-host/dialog", test_dialog);
  ADD_TEST ("/record-host/not-installed", test_not_installed);
  ADD_TEST ("/record-host/command", test_command);
  ADD_TEST ("/record-host/stop", test_stop);
  ADD_TEST ("/record-host/host-error", test_host_error);

  status = gui_test_run ();
  gui_test_remove_tree (root);
  g_free (host_path);
  g_free (bare_path);
  return status;
}

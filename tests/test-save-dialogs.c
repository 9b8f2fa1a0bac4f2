/* test-save-dialogs.c — every save and export dialog of the window starts
 * in the run's folder and offers a name made of the run's own name
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The dialogs are GTK's own here (gui_test_init () keeps the portal out),
 * so the test reads the folder and the name they show, as a person sees
 * them, and answers them as a person would.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "gui-fixture.h"
#include "ps-compare-page.h"
#include "ps-event-store.h"
#include "ps-picture-export.h"
#include "ps-run-page-private.h"
#include "ps-save-location.h"
#include "ps-table-export.h"
#include "ps-window-private.h"

/* The file chooser of a save dialog, once it is shown with its folder
 * (which it sets after a turn of the main loop) */
static gboolean
file_chooser_shown (gpointer data)
{
  GtkWidget **chooser = data;
  g_autoptr(GFile) folder = NULL;

  *chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (*chooser != NULL)
    folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (*chooser));
  G_GNUC_END_IGNORE_DEPRECATIONS
  return folder != NULL;
}

static gboolean
file_chooser_gone (gpointer data)
{
  return find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) == NULL;
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

/* Waits for the save dialog, checks the folder it shows and the name it
 * offers (expected_name NULL: any name without spaces or dashes), then
 * cancels it (accept_as NULL) or saves as accept_as in accept_folder.
 * Returns the name offered. The file chooser API is deprecated from GTK
 * 4.10 on, but it is what the dialog is made of in both versions. */
static char *
check_save_dialog (const char *expected_folder,
                   const char *expected_name,
                   const char *accept_folder,
                   const char *accept_as)
{
  GtkWidget *dialog = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *folder_path = NULL;
  char *name;

  g_assert_true (iterate_until (file_chooser_shown, &dialog));
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)), ==, GTK_FILE_CHOOSER_ACTION_SAVE);
  folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (dialog));
  folder_path = g_file_get_path (folder);
  g_assert_cmpstr (folder_path, ==, expected_folder);
  name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));
  if (expected_name != NULL)
    g_assert_cmpstr (name, ==, expected_name);
  g_assert_null (strchr (name, ' '));
  g_assert_null (strchr (name, '-'));

  if (accept_as != NULL)
    {
      g_autoptr(GFile) target_folder = g_file_new_for_path (accept_folder);

      g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), target_folder, NULL));
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), accept_as);
      gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
    }
  else
    gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_assert_true (iterate_until (file_chooser_gone, NULL));
  return name;
}

G_GNUC_END_IGNORE_DEPRECATIONS

/* A copy of a demo log under a name with spaces, dashes and brackets, in
 * a folder of its own */
static GFile *
copy_demo (Fixture    *fixture,
           const char *demo,
           const char *folder_name,
           const char *name)
{
  g_autofree char *source_path = demo_file_path (demo);
  g_autofree char *folder = g_build_filename (fixture->tmpdir, folder_name, NULL);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GFile) source = g_file_new_for_path (source_path);
  GFile *copy = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_copy (source, copy, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return copy;
}

static gboolean
table_export_ready (gpointer data)
{
  return ps_table_export_find (data) != NULL;
}

/* Save As, Export Report, Export Table and Export Picture of a run read
 * from a file: all in the file's folder, all named after it */
static void
test_run_from_file (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GFile) file = copy_demo (fixture, "soffice_4711.log", "logs of run 2", "office start - run 2 (cold).log");
  g_autoptr(GFile) folder = g_file_get_parent (file);
  g_autofree char *folder_path = g_file_get_path (folder);
  PsRunPage *page = open_and_wait (fixture, file);
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkColumnView *table;
  GtkWidget *timeline;
  GtkWidget *picture_dialog;
  g_autofree char *table_name = NULL;

  g_assert_true (gtk_widget_activate_action (window, "win.save-as", NULL));
  g_free (check_save_dialog (folder_path, "office_start_run_2_cold.perfscope", NULL, NULL));

  g_assert_true (gtk_widget_activate_action (window, "win.export-report", NULL));
  g_free (check_save_dialog (folder_path, "office_start_run_2_cold_report.md", NULL, NULL));

  /* A table of the run: named after the run and the table */
  g_assert_true (iterate_until (table_export_ready, window));
  table = ps_table_export_find (window);
  g_assert_nonnull (table);
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (table), GTK_WIDGET (page)));
  ps_table_export_run_dialog (table);
  table_name = check_save_dialog (folder_path, NULL, NULL, NULL);
  g_assert_true (g_str_has_prefix (table_name, "office_start_run_2_cold_"));
  g_assert_true (g_str_has_suffix (table_name, ".csv"));

  /* The timeline's picture, from the picture dialog's Export… button */
  timeline = GTK_WIDGET (ps_run_page_get_timeline_view (page));
  g_assert_true (iterate_until (timeline_view_is_ready, timeline));
  picture_dialog = ps_picture_export_dialog_new (timeline);
  gtk_window_present (GTK_WINDOW (picture_dialog));
  g_assert_true (click_button (picture_dialog, "_Export…"));
  g_free (check_save_dialog (folder_path, "office_start_run_2_cold_timeline.png", NULL, NULL));
  gtk_window_destroy (GTK_WINDOW (picture_dialog));
}

static gboolean
comparison_done (gpointer data)
{
  return ps_compare_page_get_diff (data) != NULL;
}

/* Export Comparison as CSV: in the first run's folder, "A_vs_B" */
static void
test_comparison (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GFile) file_a = copy_demo (fixture, "fsperf_CEPC_x86_6_0_3122.log", "before", "fs perf-3122.log");
  g_autoptr(GFile) file_b = copy_demo (fixture, "fsperf_CEPC_x86_6_0_3150.log", "after", "fs perf-3150.log");
  g_autoptr(GFile) folder_a = g_file_get_parent (file_a);
  g_autofree char *folder_path = g_file_get_path (folder_a);
  PsComparePage *compare = ps_window_compare_files (fixture->window, file_a, file_b);

  g_assert_nonnull (compare);
  g_assert_true (iterate_until (comparison_done, compare));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (compare), "compare.export-csv", NULL));
  g_free (check_save_dialog (folder_path, "fs_perf_3122_vs_fs_perf_3150.csv", NULL, NULL));
}

/* A recording has no file: its dialogs start in Documents, then where the
 * user last saved, also after a restart (the setting) */
static void
test_recording (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *config = g_build_filename (fixture->tmpdir, "config", NULL);
  g_autofree char *documents = g_build_filename (fixture->tmpdir, "My Documents", NULL);
  g_autofree char *user_dirs = g_build_filename (config, "user-dirs.dirs", NULL);
  g_autofree char *user_dirs_text = g_strdup_printf ("XDG_DOCUMENTS_DIR=\"%s\"\n", documents);
  g_autofree char *saved_folder = g_build_filename (fixture->tmpdir, "runs", NULL);
  g_autofree char *saved_path = g_build_filename (saved_folder, "first.perfscope", NULL);
  g_autofree char *saved_uri = NULL;
  g_autofree char *setting = NULL;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsEventStore) second_store = ps_event_store_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  GtkWidget *holder = gtk_window_new ();
  GtkWidget *second_holder = gtk_window_new ();
  PsRunPage *page;
  PsRunPage *second;

  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (documents, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (saved_folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (user_dirs, user_dirs_text, -1, NULL));
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_reload_user_special_dirs_cache ();
  g_settings_reset (settings, "save-folder");

  /* What a stopped recording becomes: a run of a store, without a file */
  page = PS_RUN_PAGE (ps_run_page_new_for_store ("procfs — sha256sum /dev/zero", store));
  gtk_window_set_child (GTK_WINDOW (holder), GTK_WIDGET (page));
  g_assert_null (ps_run_page_get_file (page));

  _ps_window_save_page_as (fixture->window, page, FALSE);
  g_free (check_save_dialog (documents, "procfs_sha256sum_dev_zero.perfscope", saved_folder, "first.perfscope"));
  g_assert_true (iterate_until (file_exists, saved_path));

  /* Where it was saved is kept */
  setting = g_settings_get_string (settings, "save-folder");
  saved_uri = g_filename_to_uri (saved_folder, NULL, NULL);
  g_assert_cmpstr (setting, ==, saved_uri);

  /* A second recording starts there */
  second = PS_RUN_PAGE (ps_run_page_new_for_store ("procfs — pid 4711", second_store));
  gtk_window_set_child (GTK_WINDOW (second_holder), GTK_WIDGET (second));
  _ps_window_save_page_as (fixture->window, second, FALSE);
  g_free (check_save_dialog (saved_folder, "procfs_pid_4711.perfscope", NULL, NULL));

  /* A remembered folder that is gone: Documents again */
  g_assert_cmpint (g_unlink (saved_path), ==, 0);
  g_assert_cmpint (g_rmdir (saved_folder), ==, 0);
  _ps_window_save_page_as (fixture->window, second, FALSE);
  g_free (check_save_dialog (documents, "procfs_pid_4711.perfscope", NULL, NULL));

  gtk_window_destroy (GTK_WINDOW (second_holder));
  gtk_window_destroy (GTK_WINDOW (holder));
  g_unsetenv ("XDG_CONFIG_HOME");
  g_reload_user_special_dirs_cache ();
  g_settings_reset (settings, "save-folder");
}

typedef struct
{
  PsWindow   *window;
  const char *title;
} ToastWait;

static gboolean
toast_shows (gpointer data)
{
  ToastWait *wait = data;
  AdwToast *toast = ps_window_get_toast (wait->window);

  return toast != NULL && g_strcmp0 (adw_toast_get_title (toast), wait->title) == 0;
}

static gboolean
open_folder_button_shown (gpointer window)
{
  GtkWidget *button = find_button (window, "Open Folder");

  return button != NULL && gtk_widget_get_mapped (button);
}

/* After a file is written: a toast over the window says "Saved as NAME",
 * drawn in it, with an Open Folder button whose action shows that file */
static void
assert_saved_toast (Fixture    *fixture,
                    const char *folder,
                    const char *name)
{
  g_autofree char *title = g_strdup_printf ("Saved as %s", name);
  /* The toast's title is markup */
  g_autofree char *escaped_name = g_markup_escape_text (name, -1);
  g_autofree char *markup = g_strdup_printf ("Saved as %s", escaped_name);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  ToastWait wait = { fixture->window, markup };
  AdwToast *toast;
  GVariant *target;
  GtkWidget *button;

  g_assert_true (iterate_until (file_exists, path));
  g_assert_true (iterate_until (toast_shows, &wait));
  toast = ps_window_get_toast (fixture->window);
  g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "Open Folder");
  g_assert_cmpstr (adw_toast_get_action_name (toast), ==, "win.open-folder");
  target = adw_toast_get_action_target_value (toast);
  g_assert_nonnull (target);
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, uri);
  /* A person sees it: the title and the button are in the window */
  g_assert_true (iterate_until (open_folder_button_shown, fixture->window));
  g_assert_true (find_dialog_with_text (title) == GTK_WIDGET (fixture->window));
  button = find_button (GTK_WIDGET (fixture->window), "Open Folder");
  g_assert_true (gtk_widget_is_sensitive (button));
  /* Dismissed once it has come in: libadwaita 1.2 frees a toast hidden
   * during its show animation before that animation ends, and crashes */
  iterate_for (1000);
  adw_toast_dismiss (toast);
  g_assert_null (ps_window_get_toast (fixture->window));
}

/* Every save and export, once written, says so in a toast */
static void
test_saved_toasts (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GFile) file = copy_demo (fixture, "soffice_4711.log", "toasts", "office & co.log");
  g_autoptr(GFile) folder = g_file_get_parent (file);
  g_autofree char *folder_path = g_file_get_path (folder);
  g_autoptr(GFile) file_b = copy_demo (fixture, "soffice_4711.log", "toasts b", "office b.log");
  PsRunPage *page = open_and_wait (fixture, file);
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkWidget *timeline;
  GtkWidget *picture_dialog;
  PsComparePage *compare;

  g_assert_null (ps_window_get_toast (fixture->window));

  g_assert_true (gtk_widget_activate_action (window, "win.save-as", NULL));
  g_free (check_save_dialog (folder_path, NULL, folder_path, "saved <run>.perfscope"));
  assert_saved_toast (fixture, folder_path, "saved <run>.perfscope");

  g_assert_true (gtk_widget_activate_action (window, "win.export-report", NULL));
  g_free (check_save_dialog (folder_path, NULL, folder_path, "report.md"));
  assert_saved_toast (fixture, folder_path, "report.md");

  g_assert_true (iterate_until (table_export_ready, window));
  ps_table_export_run_dialog (ps_table_export_find (window));
  g_free (check_save_dialog (folder_path, NULL, folder_path, "table.csv"));
  assert_saved_toast (fixture, folder_path, "table.csv");

  timeline = GTK_WIDGET (ps_run_page_get_timeline_view (page));
  g_assert_true (iterate_until (timeline_view_is_ready, timeline));
  picture_dialog = ps_picture_export_dialog_new (timeline);
  gtk_window_present (GTK_WINDOW (picture_dialog));
  g_assert_true (click_button (picture_dialog, "_Export…"));
  g_free (check_save_dialog (folder_path, NULL, folder_path, "timeline.png"));
  assert_saved_toast (fixture, folder_path, "timeline.png");

  compare = ps_window_compare_files (fixture->window, file, file_b);
  g_assert_true (iterate_until (comparison_done, compare));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (compare), "compare.export-csv", NULL));
  g_free (check_save_dialog (folder_path, NULL, folder_path, "comparison.csv"));
  assert_saved_toast (fixture, folder_path, "comparison.csv");

  /* A dialog cancelled writes nothing and says nothing */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (compare), "compare.export-csv", NULL));
  g_free (check_save_dialog (folder_path, NULL, NULL, NULL));
  iterate_for (200);
  g_assert_null (ps_window_get_toast (fixture->window));
}

/* The cleaning of names, on the edge cases a person's files have */
static void
test_clean_name (void)
{
  static const struct { const char *name; const char *clean; } cases[] = {
    { "procfs — sha256sum /dev/zero", "procfs_sha256sum_dev_zero" },
    { "soffice_4711", "soffice_4711" },
    { "  --run--  ", "run" },
    { "mesure été 2 (copie)", "mesure_été_2_copie" },
    { "측정 – 1", "측정_1" },
    { "a.b.c", "a_b_c" },
    { "-", "" },
    { "", "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *clean = ps_save_location_clean_name (cases[i].name);

      g_assert_cmpstr (clean, ==, cases[i].clean);
    }
  {
    /* A long command line: 80 characters, none of them a trailing "_" */
    g_autofree char *clean = ps_save_location_clean_name (
      "procfs — python3 bench.py --iterations 1000000 --warmup 100 --output /tmp/results-of-the-long-run.json");

    g_assert_cmpint (g_utf8_strlen (clean, -1), <=, 80);
    g_assert_true (g_str_has_prefix (clean, "procfs_python3_bench_py_iterations_1000000_warmup_100_output_tmp_results_of"));
    g_assert_false (g_str_has_suffix (clean, "_"));
  }
  {
    /* Not UTF-8: what comes before the first bad byte */
    g_autofree char *clean = ps_save_location_clean_name ("run 1\xff tail");

    g_assert_cmpstr (clean, ==, "run_1");
  }
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/save-dialogs/clean-name", test_clean_name);
  ADD_TEST ("/save-dialogs/run-from-file", test_run_from_file);
  ADD_TEST ("/save-dialogs/comparison", test_comparison);
  ADD_TEST ("/save-dialogs/recording", test_recording);
  ADD_TEST ("/save-dialogs/saved-toasts", test_saved_toasts);

  return gui_test_run ();
}

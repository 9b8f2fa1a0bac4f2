/* test-app-ui.c — the primary menu, About, Preferences, the shortcuts
 * window, the accelerators and the window's saved size
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#endif

#include "gui-fixture.h"
#include "ps-error.h"
#include "ps-preferences-window.h"
#include "ps-counters-view-private.h"
#include "ps-compare-page-private.h"
#include "ps-renderer-choice.h"
#include "ps-report-export.h"
#include "ps-run-page-private.h"
#include "ps-task-util.h"
#include "ps-view-util.h"
#include "ps-window-private.h"

/* label → action of every item of a menu model, submenus and sections
 * included */
static void
collect_items (GMenuModel *model,
               GHashTable *items)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *label = NULL;
      g_autofree char *action = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autoptr(GMenuModel) submenu = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU);

      g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action);
      if (label != NULL)
        g_hash_table_insert (items, g_steal_pointer (&label),
                             g_strdup (action != NULL ? action : ""));
      if (section != NULL)
        collect_items (section, items);
    }
}

static void
test_primary_menu (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *titlebar = find_widget_of_type (GTK_WIDGET (fixture->window), ADW_TYPE_HEADER_BAR, FALSE);
  GtkWidget *button = find_widget_of_type (titlebar, GTK_TYPE_MENU_BUTTON, FALSE);
  g_autoptr(GHashTable) items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GMenuModel *menu;

  g_assert_nonnull (button);
  g_assert_true (gtk_menu_button_get_primary (GTK_MENU_BUTTON (button)));
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button));
  g_assert_nonnull (menu);
  collect_items (menu, items);

  g_assert_cmpstr (g_hash_table_lookup (items, "_Open…"), ==, "win.open");
  g_assert_true (g_hash_table_contains (items, "Open _Recent"));
  g_assert_cmpstr (g_hash_table_lookup (items, "Compare _With…"), ==, "win.compare-with-file");
  g_assert_cmpstr (g_hash_table_lookup (items, "R_ecord…"), ==, "win.record");
  g_assert_cmpstr (g_hash_table_lookup (items, "_Keyboard Shortcuts"), ==, "win.show-help-overlay");
  g_assert_cmpstr (g_hash_table_lookup (items, "_Preferences"), ==, "app.preferences");
  g_assert_cmpstr (g_hash_table_lookup (items, "_About Perfscope"), ==, "app.about");

  /* Record… is the window's (it adds a tab); test-record-ui drives it */
  {
    gboolean found = FALSE;
    const GVariantType *parameter_type;
    const char *property;
    const char *name;
    GType owner;

    for (guint i = 0;
         gtk_widget_class_query_action (GTK_WIDGET_GET_CLASS (fixture->window), i, &owner, &name,
                                        &parameter_type, &property);
         i++)
      found = found || g_str_equal (name, "win.record");
    g_assert_true (found);
  }
  g_assert_nonnull (g_action_map_lookup_action (G_ACTION_MAP (fixture->app), "about"));
  g_assert_nonnull (g_action_map_lookup_action (G_ACTION_MAP (fixture->app), "preferences"));
}

typedef struct
{
  int choice;
  int n_destroyed;
} Answer;

static void
record_choice (int      choice,
               gpointer user_data)
{
  ((Answer *)user_data)->choice = choice;
}

static void
count_destroy (gpointer user_data)
{
  ((Answer *)user_data)->n_destroyed++;
}

static gboolean
no_dialog_reads (gpointer text)
{
  return find_dialog_with_text (text) == NULL;
}

/* Errors and questions are libadwaita's message dialogs over the window:
 * the message as heading, the detail as body, the buttons as responses,
 * the destructive one red; Escape answers with the first button */
static void
test_message_dialogs (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *buttons[] = { "_Cancel", "_Discard", "_Save As…", NULL };
  AdwMessageDialog *dialog;
  Answer answer = { -1, 0 };

  ps_view_show_error (GTK_WINDOW (fixture->window), "Could Not Frobnicate", "The disk is full.");
  dialog = ADW_MESSAGE_DIALOG (find_dialog_with_text ("Could Not Frobnicate"));
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Could Not Frobnicate");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, "The disk is full.");
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (fixture->window));
  g_assert_true (adw_message_dialog_has_response (dialog, "close"));
  g_assert_true (click_button (GTK_WIDGET (dialog), "_Close"));
  g_assert_true (iterate_until (no_dialog_reads, "Could Not Frobnicate"));

  ps_view_ask (GTK_WINDOW (fixture->window),
               &(PsViewQuestion) { "Save “run” Before Closing?", "It is only here.", buttons, 1 },
               record_choice, &answer, count_destroy);
  dialog = ADW_MESSAGE_DIALOG (find_dialog_with_text ("Save “run” Before Closing?"));
  g_assert_nonnull (dialog);
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "1"), ==, ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "2"), ==, ADW_RESPONSE_DEFAULT);
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "2");
  g_assert_cmpstr (adw_message_dialog_get_close_response (dialog), ==, "0");
  g_assert_true (click_button (GTK_WIDGET (dialog), "_Discard"));
  g_assert_cmpint (answer.choice, ==, 1);
  g_assert_cmpint (answer.n_destroyed, ==, 1);
  g_assert_true (iterate_until (no_dialog_reads, "Save “run” Before Closing?"));

  /* Closed without a button (Escape): the first one */
  ps_view_ask (GTK_WINDOW (fixture->window), &(PsViewQuestion) { "Stop?", "Really.", buttons, 1 },
               record_choice, &answer, count_destroy);
  dialog = ADW_MESSAGE_DIALOG (find_dialog_with_text ("Stop?"));
  g_assert_nonnull (dialog);
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (iterate_until (no_dialog_reads, "Stop?"));
  g_assert_cmpint (answer.choice, ==, 0);
  g_assert_cmpint (answer.n_destroyed, ==, 2);
}

static guint
count_rows (GtkListBox *list)
{
  guint n_rows = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (list)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child))
      n_rows++;
  return n_rows;
}

static gboolean
welcome_lists_two (gpointer data)
{
  PsWindow *window = data;

  return count_rows (window->recent_list) == 2 && gtk_widget_get_mapped (window->recent_group);
}

static gboolean
all_pages_read (gpointer data)
{
  PsWindow *window = data;

  for (guint i = 0; i < ps_window_get_n_pages (window); i++)
    {
      PsRunPage *page = ps_window_get_page (window, i);

      if (page == NULL || (ps_run_page_get_state (page) != PS_RUN_PAGE_LOADED
                           && ps_run_page_get_state (page) != PS_RUN_PAGE_PARTIAL))
        return FALSE;
    }
  return ps_window_get_n_pages (window) > 0;
}

/* The empty window welcomes: Open, Record, the demo logs and the recent
 * files, the newest first, each of which opens its file */
static void
test_welcome (Fixture       *fixture,
              gconstpointer  data)
{
  PsWindow *window = fixture->window;
  g_autofree char *demo_dir = _ps_window_get_demo_dir ();
  g_autofree char *text = NULL;
  g_autoptr(GFile) older = NULL;
  g_autoptr(GFile) newer = NULL;
  g_autofree char *newer_folder = NULL;
  g_autoptr(GDir) dir = NULL;
  GtkWidget *button;
  GtkListBoxRow *row;
  guint n_demo = 0;
  const char *name;

  g_assert_true (ADW_IS_STATUS_PAGE (window->empty_state));
  g_assert_true (gtk_widget_get_mapped (window->empty_state));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (window->empty_state)), ==, "Open a performance log");
  button = find_button (window->empty_state, "Open a _File…");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open");
  button = find_button (window->empty_state, "R_ecord…");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.record");
  button = find_button (window->empty_state, "Open the _Demo Logs");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open-demo");
  g_assert_true (gtk_widget_is_sensitive (button));
  /* No recent files yet: no list */
  g_assert_false (gtk_widget_get_visible (window->recent_group));

  /* Two files opened: both listed, the newest first, name then folder */
  older = write_temp_file (fixture, "older & first.log", "", 0);
  newer = write_temp_file (fixture, "newer.log", "", 0);
  _ps_window_add_recent (window, older);
  iterate_for (1100);
  _ps_window_add_recent (window, newer);
  g_assert_true (iterate_until (welcome_lists_two, window));
  text = collect_label_text (GTK_WIDGET (window->recent_list));
  newer_folder = g_path_get_dirname (g_file_peek_path (newer));
  g_assert_nonnull (strstr (text, "older & first.log"));
  g_assert_nonnull (strstr (text, newer_folder));
  g_assert_true (strstr (text, "newer.log") < strstr (text, "older & first.log"));
  row = gtk_list_box_get_row_at_index (window->recent_list, 0);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (row)), ==, g_file_peek_path (newer));

  /* A row activated opens its file */
  g_signal_emit_by_name (row, "activate");
  g_assert_cmpuint (ps_window_get_n_pages (window), ==, 1);
  g_assert_true (g_file_equal (ps_run_page_get_file (ps_window_get_page (window, 0)), newer));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL);
  g_assert_cmpstr (ps_window_get_visible_state (window), ==, "empty");

  /* Open the Demo Logs: every log of the demo folder, read */
  dir = g_dir_open (demo_dir, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (!g_str_has_suffix (name, ".md"))
      n_demo++;
  g_assert_cmpuint (n_demo, >=, 8);
  g_signal_emit_by_name (find_button (window->empty_state, "Open the _Demo Logs"), "clicked");
  g_assert_cmpuint (ps_window_get_n_pages (window), ==, n_demo);
  g_assert_true (iterate_until (all_pages_read, window));
  g_assert_cmpstr (ps_window_get_visible_state (window), ==, "runs");
}

static gboolean
about_is_shown (gpointer data)
{
  return find_toplevel (ADW_TYPE_ABOUT_WINDOW) != NULL;
}

static void
test_about (Fixture       *fixture,
            gconstpointer  data)
{
  AdwAboutWindow *about;

  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "about", NULL);
  g_assert_true (iterate_until (about_is_shown, NULL));
  about = ADW_ABOUT_WINDOW (find_toplevel (ADW_TYPE_ABOUT_WINDOW));

  g_assert_cmpstr (adw_about_window_get_application_name (about), ==, "Perfscope");
  g_assert_cmpstr (adw_about_window_get_version (about), ==, PACKAGE_VERSION);
  g_assert_cmpint (adw_about_window_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
  g_assert_cmpstr (adw_about_window_get_website (about), ==, "https://github.com/perfscope/perfscope");
  g_assert_cmpstr (adw_about_window_get_issue_url (about), ==, "https://github.com/perfscope/perfscope/issues");
  g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, APP_ID);
  g_assert_cmpstr (adw_about_window_get_developers (about)[0], ==, "The Perfscope authors");
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (about)) == GTK_WINDOW (fixture->window));
  /* What the window shows on its first page */
  g_assert_nonnull (find_dialog_with_text ("Open, explore and compare performance logs"));

  gtk_window_destroy (GTK_WINDOW (about));
}

static gboolean
preferences_are_shown (gpointer data)
{
  return find_toplevel (PS_TYPE_PREFERENCES_WINDOW) != NULL;
}

static void
test_preferences (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  PsPreferencesWindow *preferences;
  GtkSpinButton *spin;

  g_assert_cmpuint (g_settings_get_uint (settings, "recent-files-limit"), ==, 10);

  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "preferences", NULL);
  g_assert_true (iterate_until (preferences_are_shown, NULL));
  preferences = PS_PREFERENCES_WINDOW (find_toplevel (PS_TYPE_PREFERENCES_WINDOW));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (preferences)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (preferences)) == GTK_WINDOW (fixture->window));

  /* Each setting is a row that says under its title what it does; the
   * events kept, what 0 chooses on this computer */
  {
    GtkWidget *spin_row = gtk_widget_get_ancestor (GTK_WIDGET (ps_preferences_window_get_events_spin (preferences)),
                                                   ADW_TYPE_ACTION_ROW);
    g_autofree char *automatic = g_strdup_printf ("%.0f million events.",
                                                  (double) ps_application_get_automatic_max_events () / 1e6);
    const char *subtitle;

    g_assert_nonnull (spin_row);
    g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (spin_row)), ==, "_Event limit (millions)");
    subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (spin_row));
    g_assert_nonnull (strstr (subtitle, "0 keeps as many as half of this computer’s memory holds"));
    g_assert_true (g_str_has_suffix (subtitle, automatic));
    spin_row = gtk_widget_get_ancestor (GTK_WIDGET (ps_preferences_window_get_recent_spin (preferences)),
                                        ADW_TYPE_ACTION_ROW);
    g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (spin_row)), ==,
                     "How many files and comparisons Open Recent lists");
  }

  /* The spin shows the key, and changing it changes the key */
  spin = ps_preferences_window_get_recent_spin (preferences);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 10);
  gtk_spin_button_set_value (spin, 3);
  g_assert_cmpuint (g_settings_get_uint (settings, "recent-files-limit"), ==, 3);

  /* The events kept: 0 chooses half of the memory, a number millions */
  spin = ps_preferences_window_get_events_spin (preferences);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 0);
  g_assert_cmpuint (ps_application_get_max_events (fixture->app), ==, ps_application_get_automatic_max_events ());
  g_assert_cmpuint (ps_application_get_automatic_max_events (), >=, G_GUINT64_CONSTANT (1) << 20);
  gtk_spin_button_set_value (spin, 25);
  g_assert_cmpuint (g_settings_get_uint (settings, "max-million-events"), ==, 25);
  g_assert_cmpuint (ps_application_get_max_events (fixture->app), ==, 25000000);
  gtk_spin_button_set_value (spin, 0);

  /* The dropdowns follow the enum keys both ways */
  g_assert_cmpuint (gtk_drop_down_get_selected (ps_preferences_window_get_basis_dropdown (preferences)), ==, 0);
  gtk_drop_down_set_selected (ps_preferences_window_get_basis_dropdown (preferences), 1);
  g_assert_cmpstr (g_settings_get_string (settings, "percentage-basis"), ==, "view");
  g_settings_set_string (settings, "histogram-scale", "logarithmic");
  g_assert_cmpuint (gtk_drop_down_get_selected (ps_preferences_window_get_scale_dropdown (preferences)), ==, 1);

  /* A symbol folder chosen elsewhere is listed; activating a row chooses it */
  ps_application_set_symbol_folder (fixture->app, fixture->tmpdir);
  {
    g_auto(GStrv) folders = g_settings_get_strv (settings, "symbol-folders");
    GtkListBoxRow *row;

    g_assert_cmpstr (folders[0], ==, fixture->tmpdir);
    ps_application_set_symbol_folder (fixture->app, NULL);
    row = gtk_list_box_get_row_at_index (ps_preferences_window_get_folder_list (preferences), 0);
    g_assert_nonnull (row);
    g_signal_emit_by_name (ps_preferences_window_get_folder_list (preferences), "row-activated", row);
    g_assert_cmpstr (ps_application_get_symbol_folder (fixture->app), ==, fixture->tmpdir);
  }

  /* The same window comes back */
  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "preferences", NULL);
  g_assert_true (find_toplevel (PS_TYPE_PREFERENCES_WINDOW) == GTK_WIDGET (preferences));
  gtk_window_destroy (GTK_WINDOW (preferences));
}

static gboolean
shortcuts_are_shown (gpointer data)
{
  return find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW) != NULL;
}

static GtkWidget *
find_shortcut (GtkWidget  *widget,
               const char *title)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *shortcut_title = NULL;

      g_object_get (widget, "title", &shortcut_title, NULL);
      if (g_strcmp0 (shortcut_title, title) == 0)
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_shortcut (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_shortcuts_window (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *accelerator = NULL;
  GtkShortcutsWindow *overlay;
  GtkWidget *open_shortcut;
  GLogLevelFlags fatal_levels;

  /* GTK 4.8's GtkShortcutsWindow warns that one of its own labels
   * measures -4 px wide, even with a single shortcut in it: warnings are
   * not fatal while it is shown */
  fatal_levels = g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  g_assert_null (find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-help-overlay", NULL));
  g_assert_true (iterate_until (shortcuts_are_shown, NULL));
  overlay = GTK_SHORTCUTS_WINDOW (find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (overlay)) == GTK_WINDOW (fixture->window));

  open_shortcut = find_shortcut (GTK_WIDGET (overlay), "Open performance logs");
  g_assert_nonnull (open_shortcut);
  g_object_get (open_shortcut, "accelerator", &accelerator, NULL);
  g_assert_cmpstr (accelerator, ==, "<Control>o");
  g_assert_nonnull (find_shortcut (GTK_WIDGET (overlay), "Zoom to the selection"));

  gtk_window_destroy (GTK_WINDOW (overlay));
  iterate_for (50);
  g_log_set_always_fatal (fatal_levels);
}

static void
assert_accels (Fixture    *fixture,
               const char *action,
               const char *accel)
{
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (fixture->app), action);

  g_assert_true (g_strv_contains ((const char * const *)accels, accel));
}

/* A "win." action: installed by the class, or in the window's action map */
static gboolean
window_has_action (PsWindow   *window,
                   const char *name)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_GET_CLASS (window);
  const char *action_name;
  const GVariantType *parameter_type;
  const char *property_name;
  GType owner;

  if (g_str_has_prefix (name, "win.")
      && g_action_group_has_action (G_ACTION_GROUP (window), name + 4))
    return TRUE;
  for (guint i = 0; gtk_widget_class_query_action (widget_class, i, &owner, &action_name,
                                                     &parameter_type, &property_name); i++)
    if (g_str_equal (action_name, name))
      return TRUE;
  return FALSE;
}

static void
test_accelerators (Fixture       *fixture,
                   gconstpointer  data)
{
  assert_accels (fixture, "win.open", "<Control>o");
  assert_accels (fixture, "win.close-tab", "<Control>w");
  assert_accels (fixture, "app.quit", "<Control>q");
  assert_accels (fixture, "win.find", "<Control>f");
  assert_accels (fixture, "win.zoom-in", "<Control>plus");
  assert_accels (fixture, "win.zoom-out", "<Control>minus");
  assert_accels (fixture, "win.zoom-reset", "<Control>0");
  assert_accels (fixture, "win.show-help-overlay", "<Control>question");
  assert_accels (fixture, "app.preferences", "<Control>comma");

  /* Every accelerated action exists on the window or the application */
  {
    g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (fixture->app));

    for (guint i = 0; actions[i] != NULL; i++)
      {
        g_autofree char *name = NULL;
        g_autoptr(GVariant) target = NULL;

        g_assert_true (g_action_parse_detailed_name (actions[i], &name, &target, NULL));
        if (g_str_has_prefix (name, "app."))
          g_assert_true (g_action_group_has_action (G_ACTION_GROUP (fixture->app), name + 4));
        else
          g_assert_true (window_has_action (fixture->window, name));
      }
  }
}

static gboolean
window_is_gone (gpointer data)
{
  return *(gpointer *)data == NULL;
}

static void
test_window_size_kept (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  PsWindow *window;
  PsWindow *second;
  int width = 0, height = 0;
  int shown_width;

  /* The fixture's window starts at the default size */
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1360);
  gtk_window_get_default_size (GTK_WINDOW (fixture->window), &width, &height);
  g_assert_cmpint (width, ==, 1360);
  g_assert_cmpint (height, ==, 800);

  window = ps_window_new (GTK_APPLICATION (fixture->app));
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until (widget_is_drawn, window));
  shown_width = gtk_widget_get_width (GTK_WIDGET (window));
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (iterate_until (window_is_gone, &window));

  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 600);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  second = ps_window_new (GTK_APPLICATION (fixture->app));
  gtk_window_get_default_size (GTK_WINDOW (second), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 600);
  gtk_window_present (GTK_WINDOW (second));
  g_assert_true (iterate_until (widget_is_drawn, second));
  /* Drawn as wide as the first was */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (second)), ==, shown_width);
  gtk_window_destroy (GTK_WINDOW (second));
}

/* The item of menu (a section's, one level down) whose action is name */
static gboolean
find_menu_item (GMenuModel  *menu,
                const char  *name,
                GVariant   **target)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      for (int j = 0; section != NULL && j < g_menu_model_get_n_items (section); j++)
        {
          g_autofree char *action = NULL;

          if (g_menu_model_get_item_attribute (section, j, G_MENU_ATTRIBUTE_ACTION, "s", &action)
              && g_str_equal (action, name))
            {
              if (target != NULL)
                *target = g_menu_model_get_item_attribute_value (section, j, G_MENU_ATTRIBUTE_TARGET, NULL);
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* A tab's menu is about that tab: it becomes the current one, and offers
 * to save it, to compare it with each other run open and to close it */
static void
test_tab_menu (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *path_a = demo_file_path ("fsperf_CEPC_x86_6_0_3122.log");
  g_autofree char *path_b = demo_file_path ("dbperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = g_file_new_for_path (path_b);
  g_autofree char *uri_a = g_file_get_uri (file_a);
  g_autofree char *uri_b = g_file_get_uri (file_b);
  g_autoptr(GVariant) target = NULL;
  PsRunPage *page_a = open_and_wait (fixture, file_a);
  PsRunPage *page_b = open_and_wait (fixture, file_b);
  AdwTabView *tab_view = fixture->window->tab_view;
  GMenuModel *menu = adw_tab_view_get_menu_model (tab_view);
  const char *uri;
  const char *other;

  g_assert_true (ps_window_get_current_page (fixture->window) == page_b);
  /* Two tabs show the tab bar */
  iterate_for (100);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->window->tab_bar)));

  g_signal_emit_by_name (tab_view, "setup-menu", adw_tab_view_get_page (tab_view, GTK_WIDGET (page_a)));
  g_assert_true (ps_window_get_current_page (fixture->window) == page_a);
  g_assert_true (find_menu_item (menu, "win.save-as", NULL));
  g_assert_true (find_menu_item (menu, "win.compare-with-file", NULL));
  g_assert_true (find_menu_item (menu, "win.close-tab", NULL));
  g_assert_true (find_menu_item (menu, "win.compare-uris", &target));
  g_variant_get (target, "(&s&s)", &uri, &other);
  g_assert_cmpstr (uri, ==, uri_a);
  g_assert_cmpstr (other, ==, uri_b);
  g_signal_emit_by_name (tab_view, "setup-menu", NULL);

  /* Chosen, it compares A with B in a third tab */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (fixture->window), "win.compare-uris", target));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 3);
  g_assert_true (PS_IS_COMPARE_PAGE (_ps_window_get_current_child (fixture->window)));

  /* The menu of the comparison's tab closes it */
  g_signal_emit_by_name (tab_view, "setup-menu", adw_tab_view_get_selected_page (tab_view));
  g_assert_false (find_menu_item (menu, "win.save-as", NULL));
  g_assert_true (find_menu_item (menu, "win.close-tab", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL));
  g_assert_cmpuint (ps_window_get_n_pages (fixture->window), ==, 2);
}

/* A split moved by hand is where the next run's starts, as a share of
 * the page: the timeline of a run page, kept under "run-page" in
 * "pane-fractions" */
static void
test_split_positions_kept (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "perfmon_4cpu.csv", NULL);
  g_autofree char *other_path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "processor_4cpu.plv2", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) other = g_file_new_for_path (other_path);
  g_autoptr(GVariant) fractions = NULL;
  PsRunPage *page;
  GtkPaned *paned;
  double kept = 0;
  int first, height;

  page = open_and_wait (fixture, file);
  paned = ps_run_page_get_paned (page);
  iterate_for (200);
  /* Placed at its default: 38 % of the page, less when the counters
   * need the room, not less than the timeline's minimum */
  height = gtk_widget_get_height (GTK_WIDGET (paned));
  first = gtk_paned_get_position (paned);
  g_assert_cmpint (first, >=, 140);
  g_assert_cmpint (first, <=, (int)(height * 0.38) + 1);

  gtk_paned_set_position (paned, first + 57);
  g_assert_true (wait_for_pane_fraction ("run-page"));
  fractions = g_settings_get_value (settings, "pane-fractions");
  g_assert_true (g_variant_lookup (fractions, "run-page", "d", &kept));
  g_assert_cmpfloat_with_epsilon (kept, (double)(first + 57) / height, 1e-9);

  /* The same share of the second page, which is shorter by the tab bar
   * that two tabs show */
  page = open_and_wait (fixture, other);
  iterate_for (200);
  height = gtk_widget_get_height (GTK_WIDGET (ps_run_page_get_paned (page)));
  g_assert_cmpfloat (fabs (gtk_paned_get_position (ps_run_page_get_paned (page)) - kept * height), <=, 1.0);
  g_settings_reset (settings, "pane-fractions");
}

/* F9 hides and shows the side pane of a counter run: its counter tree */
static void
test_side_pane (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "perfmon_4cpu.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PsRunPage *page = open_and_wait (fixture, file);
  GtkWidget *paned = find_widget_of_type (GTK_WIDGET (ps_run_page_get_counters_view (page)), GTK_TYPE_PANED, FALSE);
  GtkWidget *side;
  g_auto(GStrv) set = gtk_application_get_accels_for_action (GTK_APPLICATION (fixture->app), "win.toggle-side-pane");

  g_assert_nonnull (paned);
  g_assert_true (g_strv_contains ((const char * const *)set, "F9"));
  side = gtk_paned_get_start_child (GTK_PANED (paned));
  g_assert_true (gtk_widget_get_visible (side));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.toggle-side-pane", NULL));
  g_assert_false (gtk_widget_get_visible (side));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.toggle-side-pane", NULL));
  g_assert_true (gtk_widget_get_visible (side));
}

static gboolean
timeline_has_model (gpointer data)
{
  return ps_timeline_view_get_model (data) != NULL;
}

typedef struct
{
  gboolean  done;
  char     *text;
  GError   *error;
} ClipboardRead;

static void
clipboard_text_read_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  ClipboardRead *read = user_data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &read->error);
  read->done = TRUE;
}

static gboolean
clipboard_read_is_done (gpointer data)
{
  ClipboardRead *read = data;

  return read->done;
}

/* Export Report: the run's summary beside a picture of its timeline,
 * Markdown or HTML by the file's name; Copy Report: the same Markdown */
static void
test_report (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "soffice_4711.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *md_path = g_build_filename (fixture->tmpdir, "run-report.md", NULL);
  g_autofree char *html_path = g_build_filename (fixture->tmpdir, "run-report.html", NULL);
  g_autofree char *png_path = g_build_filename (fixture->tmpdir, "run-report-timeline.png", NULL);
  g_autoptr(GFile) md = g_file_new_for_path (md_path);
  g_autoptr(GFile) html = g_file_new_for_path (html_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *md_text = NULL;
  g_autofree char *html_text = NULL;
  g_autofree char *copied = NULL;
  g_autoptr(GdkTexture) picture = NULL;
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (fixture->window));
  ClipboardRead read = { FALSE, NULL, NULL };
  PsRunPage *page = open_and_wait (fixture, file);

  g_assert_true (iterate_until (timeline_has_model, ps_run_page_get_timeline_view (page)));
  g_assert_true (ps_report_export_to_file (page, md, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (md_path, &md_text, NULL, NULL));
  /* Markdown escapes the name's underscore */
  g_assert_nonnull (strstr (md_text, "soffice\\_4711.log"));
  g_assert_nonnull (strstr (md_text, "](run-report-timeline.png)"));
  g_assert_nonnull (strstr (md_text, "| ---"));
  picture = gdk_texture_new_from_filename (png_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (picture), >=, 800);

  g_assert_true (ps_report_export_to_file (page, html, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (html_path, &html_text, NULL, NULL));
  g_assert_true (g_str_has_prefix (html_text, "<!DOCTYPE html>"));
  g_assert_nonnull (strstr (html_text, "<img"));
  g_assert_nonnull (strstr (html_text, "soffice_4711.log"));

  /* Copy Report puts the same report on the clipboard, without the picture */
  gdk_clipboard_set_text (clipboard, "before");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.copy-report", NULL));
  gdk_clipboard_read_text_async (clipboard, NULL, clipboard_text_read_cb, &read);
  g_assert_true (iterate_until (clipboard_read_is_done, &read));
  g_assert_no_error (read.error);
  copied = g_steal_pointer (&read.text);
  g_assert_nonnull (copied);
  g_assert_cmpstr (copied, !=, "before");
  g_assert_nonnull (strstr (copied, "soffice\\_4711.log"));
  g_assert_nonnull (strstr (copied, "| ---"));
  g_assert_null (strstr (copied, "timeline.png"));
  {
    g_autofree char *markdown = ps_report_export_markdown (page);

    g_assert_cmpstr (copied, ==, markdown);
  }
}

/* A file with more events than the setting keeps: the page shows what was
 * read and says where reading stopped */
static void
test_max_events (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GString) text = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                          "## PERF ## REGISTERED MARKER [Test=Big] AS [0] BY APP [app]\r\n");
  g_autoptr(GFile) file = NULL;
  PsEventStore *store;
  PsRunPage *page;

  for (guint i = 0; i < 1100000; i++)
    g_string_append_printf (text, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", i % 1000);
  file = write_temp_file (fixture, "big_CEPC.log", text->str, text->len);

  g_settings_set_uint (settings, "max-million-events", 1);
  page = open_and_wait (fixture, file);
  g_settings_set_uint (settings, "max-million-events", 0);

  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_PARTIAL);
  store = ps_run_page_get_store (page);
  g_assert_error (ps_event_store_get_error (store), PS_ERROR, PS_ERROR_LIMIT);
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), >=, 1000000);
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), <, 1100000);
  g_assert_true (ps_run_page_get_banner_revealed (page));
  g_assert_nonnull (strstr (ps_run_page_get_banner_text (page), "limit of 1000000 events"));
  g_assert_nonnull (strstr (ps_run_page_get_banner_text (page), "was not read"));
}

static gboolean
compare_page_is_ready (gpointer data)
{
  return ps_compare_page_is_ready (data);
}

/* The label of the item of the Open Recent menu that opens uri, or NULL */
static char *
find_recent_label (PsWindow   *window,
                   const char *uri)
{
  GMenuModel *menu = G_MENU_MODEL (window->recent_menu);

  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *label = NULL;
      g_autofree char *target = NULL;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_TARGET, "s", &target)
          && g_str_equal (target, uri)
          && g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        return g_steal_pointer (&label);
    }
  return NULL;
}

typedef struct
{
  PsWindow   *window;
  const char *uri;
} RecentLookup;

static gboolean
recent_item_is_listed (gpointer data)
{
  RecentLookup *lookup = data;
  g_autofree char *label = find_recent_label (lookup->window, lookup->uri);

  return label != NULL;
}

/* A file whose name is not UTF-8 (Latin-1 bytes on disk): every title,
 * label, tooltip and menu item shows its display name, the bytes that are
 * not UTF-8 as U+FFFD. Raw, the name would reach Pango, whose warning
 * ("Invalid UTF-8 string passed to pango_layout_set_text()") is fatal in
 * these tests, as warnings are (g_test_init), or a GVariant (a menu
 * item), whose critical is fatal too (G_DEBUG=fatal-criticals). */
static void
test_non_utf8_file_name (Fixture       *fixture,
                         gconstpointer  data)
{
  static const char name[] = "run-\xe9t\xe9.log";
  static const char shown[] = "run-\xef\xbf\xbdt\xef\xbf\xbd.log";
  g_autofree char *demo_path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "soffice_4711.log", NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *shown_path = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *report = NULL;
  g_autofree char *recent_label = NULL;
  RecentLookup lookup;
  GtkWidget *progress;
  AdwTabPage *tab;
  PsRunPage *page;

  g_assert_true (g_file_get_contents (demo_path, &contents, &length, NULL));
  file = write_temp_file (fixture, name, contents, length);
  path = g_file_get_path (file);
  g_assert_false (g_utf8_validate (path, -1, NULL));
  {
    g_autofree char *basename = g_filename_display_basename (path);

    g_assert_cmpstr (basename, ==, shown);
  }

  /* While it loads */
  ps_window_open_file (fixture->window, file);
  page = ps_window_get_current_page (fixture->window);
  g_assert_nonnull (page);
  progress = find_widget_of_type (GTK_WIDGET (page), GTK_TYPE_PROGRESS_BAR, FALSE);
  g_assert_nonnull (progress);
  g_assert_cmpstr (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (progress)), ==, "Opening run-\xef\xbf\xbdt\xef\xbf\xbd.log");
  wait_for_page (page);
  g_assert_cmpint (ps_run_page_get_state (page), ==, PS_RUN_PAGE_LOADED);

  /* The page, the window and the tab */
  g_assert_cmpstr (ps_run_page_get_title (page), ==, shown);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, shown);
  tab = adw_tab_view_get_page (fixture->window->tab_view, GTK_WIDGET (page));
  g_assert_cmpstr (adw_tab_page_get_title (tab), ==, shown);
  shown_path = g_filename_display_name (path);
  g_assert_true (g_str_has_suffix (shown_path, shown));
  g_assert_cmpstr (adw_tab_page_get_tooltip (tab), ==, shown_path);
  iterate_for (100);

  /* Open Recent */
  uri = g_file_get_uri (file);
  lookup.window = fixture->window;
  lookup.uri = uri;
  g_assert_true (iterate_until (recent_item_is_listed, &lookup));
  recent_label = find_recent_label (fixture->window, uri);
  g_assert_cmpstr (recent_label, ==, shown);

  /* The report names the run as the tab does */
  report = ps_report_export_markdown (page);
  g_assert_true (g_utf8_validate (report, -1, NULL));
  g_assert_nonnull (strstr (report, shown));

  /* A file that cannot be read says so with that name */
  {
    g_autoptr(GFile) empty = write_temp_file (fixture, "empty-\xe9.log", "", 0);
    PsRunPage *empty_page;

    ps_window_open_file (fixture->window, empty);
    empty_page = ps_window_get_current_page (fixture->window);
    wait_for_page (empty_page);
    g_assert_cmpint (ps_run_page_get_state (empty_page), ==, PS_RUN_PAGE_FAILED);
    g_assert_cmpstr (ps_run_page_get_error_message (empty_page), ==, "\xe2\x80\x9c" "empty-\xef\xbf\xbd.log\xe2\x80\x9d is empty");
    iterate_for (100);
  }

  /* Two such runs compared: the title and the header of the comparison */
  {
    g_autofree char *path_a = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-a.log", NULL);
    g_autofree char *path_b = g_test_build_filename (G_TEST_DIST, "data", "diff", "run-b.log", NULL);
    g_autofree char *contents_a = NULL;
    g_autofree char *contents_b = NULL;
    gsize length_a = 0, length_b = 0;
    g_autoptr(GFile) file_a = NULL;
    g_autoptr(GFile) file_b = NULL;
    PsComparePage *compare;

    g_assert_true (g_file_get_contents (path_a, &contents_a, &length_a, NULL));
    g_assert_true (g_file_get_contents (path_b, &contents_b, &length_b, NULL));
    file_a = write_temp_file (fixture, "a-\xe9.log", contents_a, length_a);
    file_b = write_temp_file (fixture, "b-\xe9.log", contents_b, length_b);
    /* In the window: the pair goes to Open Recent's comparisons too */
    compare = ps_window_compare_files (fixture->window, file_a, file_b);
    g_assert_true (iterate_until (compare_page_is_ready, compare));
    g_assert_cmpstr (ps_compare_page_get_title (compare), ==, "a-\xef\xbf\xbd.log \xe2\x86\x94 b-\xef\xbf\xbd.log");
    g_assert_true (g_str_has_prefix (ps_compare_page_get_header_text (compare), "A: a-\xef\xbf\xbd.log ("));
    g_assert_nonnull (strstr (ps_compare_page_get_header_text (compare), " B: b-\xef\xbf\xbd.log ("));
    iterate_for (100);
  }

  /* A symbol folder so named serves the session; the settings, which hold
   * UTF-8 strings only, keep the last folder they can */
  {
    g_autofree char *folder = g_build_filename (fixture->tmpdir, "sym-\xe9", NULL);
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);
    g_autofree char *saved = NULL;

    ps_application_set_symbol_folder (fixture->app, fixture->tmpdir);
    ps_application_set_symbol_folder (fixture->app, folder);
    g_assert_cmpstr (ps_application_get_symbol_folder (fixture->app), ==, folder);
    saved = g_settings_get_string (settings, "symbol-folder");
    g_assert_cmpstr (saved, ==, fixture->tmpdir);
    ps_application_set_symbol_folder (fixture->app, NULL);
  }
}

/* The platform data a second launch with these options sends to the
 * running instance: the launching process never starts up */
static GVariant *
launch_platform_data (GVariantDict *options)
{
  g_autoptr(PsApplication) launcher = ps_application_new ("io.github.perfscope.Perfscope.Launcher",
                                                          G_APPLICATION_HANDLES_OPEN);
  GVariantBuilder builder;

  g_assert_cmpint (G_APPLICATION_GET_CLASS (launcher)->handle_local_options (G_APPLICATION (launcher), options), ==, -1);
  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  G_APPLICATION_GET_CLASS (launcher)->add_platform_data (G_APPLICATION (launcher), &builder);
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

/* perfscope --sysroot DIR FILE with Perfscope running: the process started
 * sends the folder with the file (platform data), and the running one
 * reads symbols there from then on, as after Choose Symbol Folder… */
static void
test_remote_sysroot (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autoptr(GVariantDict) plain_options = g_variant_dict_new (NULL);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *saved = NULL;
  g_autoptr(GVariant) platform_data = NULL;
  g_autoptr(GVariant) plain = NULL;

  g_variant_dict_insert (options, "sysroot", "^ay", fixture->tmpdir);
  platform_data = launch_platform_data (options);

  /* The running side takes it, and keeps it for the next start */
  g_assert_null (ps_application_get_symbol_folder (fixture->app));
  G_APPLICATION_GET_CLASS (fixture->app)->before_emit (G_APPLICATION (fixture->app), platform_data);
  g_assert_cmpstr (ps_application_get_symbol_folder (fixture->app), ==, fixture->tmpdir);
  saved = g_settings_get_string (settings, "symbol-folder");
  g_assert_cmpstr (saved, ==, fixture->tmpdir);

  /* A launch without --sysroot leaves the folder as it is */
  plain = launch_platform_data (plain_options);
  g_assert_false (g_variant_lookup (plain, "perfscope-sysroot", "^&ay", NULL));
  G_APPLICATION_GET_CLASS (fixture->app)->before_emit (G_APPLICATION (fixture->app), plain);
  g_assert_cmpstr (ps_application_get_symbol_folder (fixture->app), ==, fixture->tmpdir);
}

static GString *printed;

static void
print_to_string (const char *text)
{
  g_string_append (printed, text);
}

/* perfscope --version says it and ends, as every program does, without
 * starting the application */
static void
test_version (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autoptr(PsApplication) launcher = ps_application_new ("io.github.perfscope.Perfscope.Version",
                                                          G_APPLICATION_HANDLES_OPEN);
  g_autofree char *expected = g_strdup_printf ("perfscope %s\n", PACKAGE_VERSION);
  GPrintFunc saved;

  g_variant_dict_insert (options, "version", "b", TRUE);
  printed = g_string_new (NULL);
  saved = g_set_print_handler (print_to_string);
  g_assert_cmpint (G_APPLICATION_GET_CLASS (launcher)->handle_local_options (G_APPLICATION (launcher), options), ==, 0);
  g_set_print_handler (saved);
  g_assert_cmpstr (printed->str, ==, expected);
  g_string_free (printed, TRUE);
}

/* A warning GTK 4.8 gives of its own doing (tests/gui-fixture.c lists
 * them) does not end a test run; any other warning still does. GTK logs
 * both through the structured API. */
static void
test_toolkit_warnings (void)
{
  if (g_test_subprocess ())
    {
      int widget = 0;

      g_log_structured ("Gtk", G_LOG_LEVEL_WARNING,
                        "MESSAGE", "Trying to snapshot GtkBox %p without a current allocation", (void *)&widget);
      g_print ("went on after the known warning\n");
      g_log_structured ("Gtk", G_LOG_LEVEL_WARNING, "MESSAGE", "Some other warning of GTK's");
      g_print ("went on after the other warning\n");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stdout ("*went on after the known warning*");
  g_test_trap_assert_stdout_unmatched ("*went on after the other warning*");
  g_test_trap_assert_stderr ("*without a current allocation (not fatal: a known toolkit warning)*Some other warning*");
}

#ifdef __linux__
static void
read_priority_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  g_task_return_int (task, getpriority (PRIO_PROCESS, 0));
}

static gpointer
read_priority (gpointer      data,
               GCancellable *cancellable)
{
  return GINT_TO_POINTER (getpriority (PRIO_PROCESS, 0) + 100);
}

static void
note_result (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return *(GAsyncResult **)data != NULL;
}
#endif

/* The window's work in the background runs at a lower priority than the
 * window's own thread (nice 10 against 0): on two busy cores the window
 * waited for one, tens of milliseconds at a time, while a log loaded */
static void
test_background_priority (void)
{
#ifdef __linux__
  static const PsComputation priority_computation = { .source_tag = test_background_priority, .compute = read_priority };
  g_autoptr(GAsyncResult) direct = NULL;
  g_autoptr(GAsyncResult) computed = NULL;
  g_autoptr(GTask) task = g_task_new (NULL, NULL, note_result, &direct);

  ps_task_run_in_background (task, read_priority_thread);
  g_assert_true (iterate_until (has_result, &direct));
  g_assert_cmpint (g_task_propagate_int (G_TASK (direct), NULL), ==, 10);

  ps_task_compute_in_thread (&priority_computation, NULL, NULL, note_result, &computed);
  g_assert_true (iterate_until (has_result, &computed));
  g_assert_cmpint (GPOINTER_TO_INT (g_task_propagate_pointer (G_TASK (computed), NULL)), ==, 110);

  g_assert_cmpint (getpriority (PRIO_PROCESS, 0), ==, 0);
#else
  g_test_skip ("Thread priorities are lowered on Linux only");
#endif
}

/* Where OpenGL runs on the CPU the window draws with GTK's cairo
 * renderer, unless GSK_RENDERER chose one; elsewhere GTK's choice stands */
static void
test_renderer (Fixture       *fixture,
               gconstpointer  data)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (fixture->window));
  g_autofree char *gl = ps_display_get_gl_renderer (display);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (fixture->window));
  const char *chosen = g_getenv ("GSK_RENDERER");

  g_assert_true (ps_gl_renderer_is_software ("llvmpipe (LLVM 15.0.6, 256 bits)"));
  g_assert_true (ps_gl_renderer_is_software ("softpipe"));
  g_assert_true (ps_gl_renderer_is_software ("Software Rasterizer"));
  g_assert_false (ps_gl_renderer_is_software ("AMD Radeon RX 580 Series (polaris10, LLVM 15.0.6, DRM 3.49)"));
  g_assert_false (ps_gl_renderer_is_software ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  g_assert_false (ps_gl_renderer_is_software (NULL));
  /* A renderer the person chose is left alone */
  g_assert_false (ps_display_choose_renderer (display, "ngl"));

  g_test_message ("OpenGL: %s; the window's renderer: %s", gl != NULL ? gl : "none", G_OBJECT_TYPE_NAME (renderer));
  if (chosen != NULL && chosen[0] != '\0')
    g_test_skip ("GSK_RENDERER chose the renderer");
  else if (gl == NULL || ps_gl_renderer_is_software (gl))
    {
      g_assert_true (GSK_IS_CAIRO_RENDERER (renderer));
      if (gl != NULL)
        g_assert_cmpstr (g_object_get_data (G_OBJECT (display), "gsk-renderer"), ==, "cairo");
    }
  else
    {
      g_assert_false (GSK_IS_CAIRO_RENDERER (renderer));
      g_assert_null (g_object_get_data (G_OBJECT (display), "gsk-renderer"));
    }
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app-ui/toolkit-warnings", test_toolkit_warnings);
  g_test_add_func ("/app-ui/background-priority", test_background_priority);
  ADD_TEST ("/app-ui/renderer", test_renderer);
  ADD_TEST ("/app-ui/primary-menu", test_primary_menu);
  ADD_TEST ("/app-ui/about", test_about);
  ADD_TEST ("/app-ui/welcome", test_welcome);
  ADD_TEST ("/app-ui/message-dialogs", test_message_dialogs);
  ADD_TEST ("/app-ui/preferences", test_preferences);
  ADD_TEST ("/app-ui/shortcuts-window", test_shortcuts_window);
  ADD_TEST ("/app-ui/accelerators", test_accelerators);
  ADD_TEST ("/app-ui/window-size-kept", test_window_size_kept);
  ADD_TEST ("/app-ui/split-positions-kept", test_split_positions_kept);
  ADD_TEST ("/app-ui/side-pane", test_side_pane);
  ADD_TEST ("/app-ui/report", test_report);
  ADD_TEST ("/app-ui/max-events", test_max_events);
  ADD_TEST ("/app-ui/remote-sysroot", test_remote_sysroot);
  ADD_TEST ("/app-ui/version", test_version);
  ADD_TEST ("/app-ui/non-utf8-file-name", test_non_utf8_file_name);
  ADD_TEST ("/app-ui/tab-menu", test_tab_menu);

  return gui_test_run ();
}

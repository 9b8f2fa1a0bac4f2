/* ps-window-actions.c — the window's actions: open, close tab, recent files
 * and recent comparisons
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "ps-call-tree-view.h"
#include "ps-collector.h"
#include "ps-counters-view.h"
#include "ps-format.h"
#include "ps-native-writer.h"
#include "ps-rtl-view.h"
#include "ps-run-page-private.h"
#include "ps-table-export.h"
#include "ps-report-export.h"
#include "ps-save-location.h"
#include "ps-view-util.h"
#include "ps-window-private.h"

static char *escape_mnemonics (const char *text);

static void
open_files (PsWindow   *self,
            GListModel *files)
{
  guint n_files = g_list_model_get_n_items (files);

  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);

      ps_window_open_file (self, file);
    }
}

/* One filter for every format we can sniff, then "All Files": the name is
 * only a hint, content decides (ps-format.h). */
static GListStore *
create_filters (void)
{
  GListStore *filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) logs = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  const PsFormat * const *formats;
  guint n_formats = 0;

  gtk_file_filter_set_name (logs, _("Performance Logs"));
  formats = ps_format_list (&n_formats);
  for (guint i = 0; i < n_formats; i++)
    {
      for (guint j = 0; formats[i]->extensions != NULL && formats[i]->extensions[j] != NULL; j++)
        gtk_file_filter_add_suffix (logs, formats[i]->extensions[j]);
      for (guint j = 0; formats[i]->mime_types != NULL && formats[i]->mime_types[j] != NULL; j++)
        gtk_file_filter_add_mime_type (logs, formats[i]->mime_types[j]);
    }

  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");

  g_list_store_append (filters, logs);
  g_list_store_append (filters, all);

  return filters;
}

/* Compare With File…: the current run is A, the chosen file B */
static void
compare_with (PsWindow *self,
              GFile    *file_b)
{
  PsRunPage *page = ps_window_get_current_page (self);

  if (page != NULL && ps_run_page_get_file (page) != NULL && file_b != NULL)
    ps_window_open_pair (self, ps_run_page_get_file (page), file_b);
}

#if GTK_CHECK_VERSION (4, 10, 0)

static void
compare_dialog_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(PsWindow) self = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, &error);
  if (file == NULL)
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
        g_warning ("Could not choose a file: %s", error->message);
      return;
    }

  compare_with (self, file);
}

static void
compare_with_file_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = create_filters ();

  gtk_file_dialog_set_title (dialog, _("Compare With"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_open (dialog, GTK_WINDOW (self), NULL, compare_dialog_cb, g_object_ref (self));
}

#else /* GTK < 4.10 */

static void
compare_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     PsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      compare_with (self, file);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
compare_with_file_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  g_autoptr(GListStore) filters = create_filters ();
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Compare With"),
                                        GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("C_ompare"),
                                        _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (filters)); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (G_LIST_MODEL (filters), i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    }

  g_signal_connect_object (dialog, "response", G_CALLBACK (compare_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

#endif

/* Compare With → another open run: the URIs of A and B */
static void
compare_uris_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  const char *uri_a, *uri_b;
  g_autoptr(GFile) file_a = NULL;
  g_autoptr(GFile) file_b = NULL;

  g_variant_get (parameter, "(&s&s)", &uri_a, &uri_b);
  file_a = g_file_new_for_uri (uri_a);
  file_b = g_file_new_for_uri (uri_b);
  ps_window_open_pair (PS_WINDOW (widget), file_a, file_b);
}

static void
compare_pair_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  _ps_window_compare_pair (PS_WINDOW (widget));
}

static void
dismiss_pair_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  _ps_window_dismiss_pair (PS_WINDOW (widget));
}

void
_ps_window_fill_tab_menu (PsWindow  *self,
                          GMenu     *menu,
                          GtkWidget *page)
{
  g_autoptr(GMenu) save_section = g_menu_new ();
  g_autoptr(GMenu) file_section = g_menu_new ();
  g_autoptr(GMenu) runs_section = g_menu_new ();
  g_autoptr(GMenu) close_section = g_menu_new ();
  g_autofree char *uri_a = NULL;
  guint n_pages;

  if (!PS_IS_RUN_PAGE (page))
    goto close;

  /* Any run, a recording too, can be saved */
  g_menu_append (save_section, _("Save _As…"), "win.save-as");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (save_section));

  /* Comparisons read files: a recording that was not saved has none */
  if (ps_run_page_get_file (PS_RUN_PAGE (page)) == NULL)
    goto close;
  uri_a = g_file_get_uri (ps_run_page_get_file (PS_RUN_PAGE (page)));

  g_menu_append (file_section, _("Compare With _File…"), "win.compare-with-file");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (file_section));

  n_pages = _ps_window_get_n_children (self);
  for (guint i = 0; i < n_pages; i++)
    {
      GtkWidget *other = _ps_window_get_nth_child (self, i);
      g_autofree char *uri_b = NULL;
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (other == page || !PS_IS_RUN_PAGE (other) || ps_run_page_get_file (PS_RUN_PAGE (other)) == NULL)
        continue;
      uri_b = g_file_get_uri (ps_run_page_get_file (PS_RUN_PAGE (other)));
      {
        g_autofree char *title = escape_mnemonics (ps_run_page_get_title (PS_RUN_PAGE (other)));

        /* Translators: a menu item; %s is the file name of another open run */
        label = g_strdup_printf (_("Compare With %s"), title);
      }
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.compare-uris", "(ss)", uri_a, uri_b);
      g_menu_append_item (runs_section, item);
    }
  if (g_menu_model_get_n_items (G_MENU_MODEL (runs_section)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (runs_section));

close:
  g_menu_append (close_section, _("_Close Tab"), "win.close-tab");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (close_section));
}

#if GTK_CHECK_VERSION (4, 10, 0)

static void
open_dialog_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PsWindow) self = user_data;
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GError) error = NULL;

  files = gtk_file_dialog_open_multiple_finish (GTK_FILE_DIALOG (object), result, &error);
  if (files == NULL)
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
        g_warning ("Could not choose files: %s", error->message);
      return;
    }

  open_files (self, files);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = create_filters ();

  gtk_file_dialog_set_title (dialog, _("Open Performance Logs"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_open_multiple (dialog, GTK_WINDOW (self), NULL,
                                 open_dialog_cb, g_object_ref (self));
}

#else /* GTK < 4.10 */

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  PsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));

      open_files (self, files);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  g_autoptr(GListStore) filters = create_filters ();
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Open Performance Logs"),
                                        GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Open"),
                                        _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (filters)); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (G_LIST_MODEL (filters), i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    }

  g_signal_connect_object (dialog, "response", G_CALLBACK (open_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

#endif

/* Open Trend › Runs… and Folder…: several runs chosen as files, or a
 * folder of them */
static void
open_trend_of (PsWindow   *self,
               GListModel *files)
{
  guint n_files = g_list_model_get_n_items (files);
  g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));
  if (array->len > 0)
    ps_window_open_trend (self, (GFile * const *)array->pdata, array->len);
}

#if GTK_CHECK_VERSION (4, 10, 0)

static void
trend_dialog_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(PsWindow) self = user_data;
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GError) error = NULL;

  if (g_object_get_data (object, "ps-folder") != NULL)
    {
      g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, &error);

      if (folder != NULL)
        {
          files = G_LIST_MODEL (g_list_store_new (G_TYPE_FILE));
          g_list_store_append (G_LIST_STORE (files), folder);
        }
    }
  else
    files = gtk_file_dialog_open_multiple_finish (GTK_FILE_DIALOG (object), result, &error);
  if (files == NULL)
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
        g_warning ("Could not choose the runs of a trend: %s", error->message);
      return;
    }
  open_trend_of (self, files);
}

static void
open_trend_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  gboolean folder = g_str_equal (action_name, "win.open-trend-folder");

  gtk_file_dialog_set_modal (dialog, TRUE);
  if (folder)
    {
      gtk_file_dialog_set_title (dialog, _("Open a Folder of Runs as a Trend"));
      g_object_set_data (G_OBJECT (dialog), "ps-folder", GINT_TO_POINTER (TRUE));
      gtk_file_dialog_select_folder (dialog, GTK_WINDOW (self), NULL, trend_dialog_cb, g_object_ref (self));
    }
  else
    {
      g_autoptr(GListStore) filters = create_filters ();

      gtk_file_dialog_set_title (dialog, _("Open Runs as a Trend"));
      gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
      gtk_file_dialog_open_multiple (dialog, GTK_WINDOW (self), NULL, trend_dialog_cb, g_object_ref (self));
    }
}

#else /* GTK < 4.10 */

static void
trend_response_cb (GtkNativeDialog *dialog,
                   int              response,
                   PsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));

      open_trend_of (self, files);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_trend_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  gboolean folder = g_str_equal (action_name, "win.open-trend-folder");
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (folder ? _("Open a Folder of Runs as a Trend") : _("Open Runs as a Trend"),
                                        GTK_WINDOW (self),
                                        folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Open"),
                                        _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  if (!folder)
    {
      g_autoptr(GListStore) filters = create_filters ();

      gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (filters)); i++)
        {
          g_autoptr(GtkFileFilter) filter = g_list_model_get_item (G_LIST_MODEL (filters), i);

          gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
        }
    }

  g_signal_connect_object (dialog, "response", G_CALLBACK (trend_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

#endif

char *
_ps_window_get_demo_dir (void)
{
  const char *dir = g_getenv (PS_DEMO_DIR_ENV);

  return g_strdup (dir != NULL && dir[0] != '\0' ? dir : DEMODIR);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char **)a, *(const char **)b);
}

/* Open the Demo Logs: every log of the demo folder, each in a tab, in the
 * order of their names */
static void
open_demo_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  g_autofree char *dir_path = _ps_window_get_demo_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    if (!g_str_has_suffix (name, ".md"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_path, g_ptr_array_index (names, i), NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);

      ps_window_open_file (self, file);
    }
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  ps_window_open_file (self, file);
}

/* The run of the current tab read again in another code page: the
 * names of a counter log from a machine in another language */
static void
reload_with_encoding_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  PsRunPage *page = ps_window_get_current_page (PS_WINDOW (widget));

  if (page != NULL && ps_run_page_get_file (page) != NULL)
    ps_run_page_reload_with_encoding (page, g_variant_get_string (parameter, NULL));
}

static void
close_tab_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  GtkWidget *child = _ps_window_get_current_child (self);

  if (child != NULL)
    _ps_window_close_child (self, child);
}

/* The first shown view below widget that has a search field, depth
 * first: the one the user looks at in the current tab */
static GtkWidget *
find_search_view (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (PS_IS_CALL_TREE_VIEW (widget) || PS_IS_RTL_VIEW (widget) || PS_IS_COUNTERS_VIEW (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *view = find_search_view (child);

      if (view != NULL)
        return view;
    }
  return NULL;
}

/* Ctrl+F: the search field of the current view, through the view's own
 * action, which also brings its page forward where it has several */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  GtkWidget *child = _ps_window_get_current_child (PS_WINDOW (widget));
  GtkWidget *view = child != NULL ? find_search_view (child) : NULL;

  if (PS_IS_CALL_TREE_VIEW (view))
    gtk_widget_activate_action (view, "calltree.focus-search", NULL);
  else if (PS_IS_RTL_VIEW (view))
    gtk_widget_activate_action (view, "rtl.focus-search", NULL);
  else if (PS_IS_COUNTERS_VIEW (view))
    gtk_widget_activate_action (view, "counters.focus-search", NULL);
}

/* Ctrl+Plus, Ctrl+Minus, Ctrl+0: the timeline of the current run, around
 * its middle, by the step of its own + and − keys, wherever the keyboard
 * focus is */
static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PsRunPage *page = ps_window_get_current_page (PS_WINDOW (widget));
  PsTimelineView *timeline = page != NULL ? ps_run_page_get_timeline_view (page) : NULL;
  double middle;

  if (timeline == NULL || ps_timeline_view_get_model (timeline) == NULL)
    return;

  middle = gtk_widget_get_width (GTK_WIDGET (timeline)) / 2.0;
  if (g_str_equal (action_name, "win.zoom-in"))
    ps_timeline_view_zoom (timeline, 1.5, middle);
  else if (g_str_equal (action_name, "win.zoom-out"))
    ps_timeline_view_zoom (timeline, 1 / 1.5, middle);
  else
    ps_timeline_view_reset_zoom (timeline);
}

/* Save As…: the current run in Perfscope's own format, written in a
 * worker thread so that the window stays responsive */
typedef struct
{
  PsWindow  *window;
  PsRunPage *page;
  GFile     *file;
  gboolean   close_after;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_object (&data->window);
  g_clear_object (&data->page);
  g_clear_object (&data->file);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SaveData, save_data_free)

/* A recording lives only in memory until it is saved: when it cannot be
 * saved where the user asked, it is saved in the cache folder, and the
 * message says where */
static void
show_save_error (PsWindow     *self,
                 PsRunPage    *page,
                 GFile        *file,
                 const GError *error)
{
  g_autofree char *name = ps_view_file_display_path (file);
  g_autofree char *detail = NULL;
  g_autoptr(GFile) unsaved = NULL;
  g_autoptr(GError) unsaved_error = NULL;

  if (ps_run_page_get_file (page) != NULL || ps_run_page_get_store (page) == NULL)
    {
      ps_view_show_write_error (GTK_WINDOW (self), _("Could Not Save the Run"), file, error);
      return;
    }

  unsaved = ps_native_save_unsaved (ps_run_page_get_store (page), ps_run_page_get_title (page), &unsaved_error);
  if (unsaved != NULL)
    {
      g_autofree char *unsaved_name = ps_view_file_display_path (unsaved);

      /* Translators: the first %s is a file name, the second why it could not be written, the third another file name */
      detail = g_strdup_printf (_("“%s” could not be written: %s\n\nThe recording was saved to “%s” instead."),
                                name, error->message, unsaved_name);
    }
  else
    /* Translators: the first %s is a file name, the second why it could not be written, the third why the recording could not be kept elsewhere */
    detail = g_strdup_printf (_("“%s” could not be written: %s\n\nThe recording could not be kept anywhere else either (%s): it is still open here; save it to another place."),
                              name, error->message, unsaved_error->message);
  ps_view_show_error (GTK_WINDOW (self), _("Could Not Save the Recording"), detail);
}

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SaveData) data = user_data;
  g_autoptr(GError) error = NULL;

  if (ps_native_save_finish (result, &error))
    {
      _ps_window_add_recent (data->window, data->file);
      ps_window_show_saved (data->window, data->file);
      /* A recording is now that file: it can be compared and reopened */
      if (ps_run_page_get_file (data->page) == NULL)
        ps_run_page_set_saved_file (data->page, data->file);
      if (data->close_after)
        _ps_window_remove_child (data->window, GTK_WIDGET (data->page));
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (gtk_widget_get_root (GTK_WIDGET (data->window)) != NULL)
    show_save_error (data->window, data->page, data->file, error);
}

static void
save_page_to (PsWindow  *self,
              PsRunPage *page,
              GFile     *file,
              gboolean   close_after)
{
  PsEventStore *store = ps_run_page_get_store (page);
  SaveData *data;

  if (store == NULL)
    return;

  data = g_new0 (SaveData, 1);
  data->window = g_object_ref (self);
  data->page = g_object_ref (page);
  data->file = g_object_ref (file);
  data->close_after = close_after;
  ps_native_save_async (store, file, NULL, save_done_cb, data);
}

void
_ps_window_save_page_to (PsWindow  *self,
                         PsRunPage *page,
                         GFile     *file)
{
  save_page_to (self, page, file, FALSE);
}

/* The current tab's run when it is loaded, or NULL */
static PsRunPage *
current_loaded_page (PsWindow *self)
{
  GtkWidget *child = _ps_window_get_current_child (self);

  if (!PS_IS_RUN_PAGE (child) || ps_run_page_get_store (PS_RUN_PAGE (child)) == NULL)
    return NULL;
  return PS_RUN_PAGE (child);
}

static GListStore *
create_save_filters (void)
{
  GListStore *filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) runs = gtk_file_filter_new ();

  gtk_file_filter_set_name (runs, _("Saved Perfscope Runs"));
  gtk_file_filter_add_suffix (runs, "perfscope");
  gtk_file_filter_add_mime_type (runs, "application/x-perfscope");
  g_list_store_append (filters, runs);
  return filters;
}

typedef struct
{
  PsWindow  *window;
  PsRunPage *page;
  gboolean   close_after;
} SaveTarget;

static void
save_target_free (gpointer data)
{
  SaveTarget *target = data;

  g_object_unref (target->window);
  g_object_unref (target->page);
  g_free (target);
}

static void
save_file_chosen_cb (GFile    *file,
                     gpointer  user_data)
{
  SaveTarget *target = user_data;

  save_page_to (target->window, target->page, file, target->close_after);
}

void
_ps_window_save_page_as (PsWindow  *self,
                         PsRunPage *page,
                         gboolean   close_after)
{
  g_autoptr(GListStore) filters = create_save_filters ();
  g_autoptr(GFile) folder = ps_save_location_folder (GTK_WIDGET (page));
  g_autofree char *name = ps_save_location_name (GTK_WIDGET (page), NULL, "perfscope");
  SaveTarget *target;

  /* The run to save, whatever the current tab is once a file is chosen */
  target = g_new0 (SaveTarget, 1);
  target->window = g_object_ref (self);
  target->page = g_object_ref (page);
  target->close_after = close_after;
  ps_save_location_choose_file (GTK_WINDOW (self),
                                &(PsSaveDialogOptions) {
                                  .title = _("Save Run As"),
                                  .initial_folder = folder,
                                  .initial_name = name,
                                  .filters = G_LIST_MODEL (filters),
                                },
                                save_file_chosen_cb, target, save_target_free);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PsWindow *self = PS_WINDOW (widget);
  PsRunPage *page = current_loaded_page (self);

  if (page != NULL)
    _ps_window_save_page_as (self, page, FALSE);
}

/* Export Report…: the current run's summary with its timeline, to a file */
static void
export_report_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PsRunPage *page = current_loaded_page (PS_WINDOW (widget));

  if (page != NULL)
    ps_report_export_run_dialog (page, GTK_WINDOW (widget));
}

/* Copy Report: the current run's summary as Markdown, for a bug report */
static void
copy_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PsRunPage *page = current_loaded_page (PS_WINDOW (widget));
  g_autofree char *markdown = NULL;

  if (page == NULL)
    return;
  markdown = ps_report_export_markdown (page);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), markdown);
}

/* F9: the current run's side pane */
static void
toggle_side_pane_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  PsRunPage *page = ps_window_get_current_page (PS_WINDOW (widget));

  if (page != NULL)
    ps_run_page_toggle_side_pane (page);
}

/* Ctrl+Shift+E: the table that has the focus, else the current page's
 * main table, as CSV */
static void
export_table_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  GtkColumnView *view = ps_table_export_find (widget);

  if (view != NULL)
    ps_table_export_run_dialog (view);
  else
    gtk_widget_error_bell (widget);
}

/* Record…: offered when at least one collector plugin is loaded */
static void
record_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  ps_window_show_record_dialog (PS_WINDOW (widget));
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
folder_opened_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!gtk_file_launcher_open_containing_folder_finish (GTK_FILE_LAUNCHER (object), result, &error)
      && !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
    g_warning ("Could not open the folder: %s", error->message);
}
#endif

/* Open Folder, the button of the toast after a save: the file manager
 * shows the saved file in its folder (GtkFileLauncher from GTK 4.10,
 * selecting it), or the folder itself below */
static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));
#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkFileLauncher) launcher = gtk_file_launcher_new (file);

  gtk_file_launcher_open_containing_folder (launcher, GTK_WINDOW (widget), NULL, folder_opened_cb, NULL);
#else
  g_autoptr(GFile) folder = g_file_get_parent (file);
  g_autofree char *uri = folder != NULL ? g_file_get_uri (folder) : NULL;

  if (uri != NULL)
    gtk_show_uri (GTK_WINDOW (widget), uri, GDK_CURRENT_TIME);
#endif
}

/* A view's export written: the toast (ps_view_announce_saved ()) */
static void
show_saved_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  ps_window_show_saved (PS_WINDOW (widget), file);
}

/* Keyboard Shortcuts: a new window each time, gone when closed */
static void
show_help_overlay_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/perfscope/Perfscope/ui/ps-shortcuts-window.ui");
  GtkWindow *shortcuts = GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"));

  gtk_window_set_transient_for (shortcuts, GTK_WINDOW (widget));
  gtk_window_present (shortcuts);
}

void
_ps_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, open_demo_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, close_tab_action);
  gtk_widget_class_install_action (widget_class, "win.reload-with-encoding", "s", reload_with_encoding_action);
  gtk_widget_class_install_action (widget_class, "win.compare-with-file", NULL, compare_with_file_action);
  gtk_widget_class_install_action (widget_class, "win.open-trend", NULL, open_trend_action);
  gtk_widget_class_install_action (widget_class, "win.open-trend-folder", NULL, open_trend_action);
  gtk_widget_class_install_action (widget_class, "win.compare-uris", "(ss)", compare_uris_action);
  gtk_widget_class_install_action (widget_class, "win.compare-pair", NULL, compare_pair_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-pair", NULL, dismiss_pair_action);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-side-pane", NULL, toggle_side_pane_action);
  gtk_widget_class_install_action (widget_class, "win.export-report", NULL, export_report_action);
  gtk_widget_class_install_action (widget_class, "win.copy-report", NULL, copy_report_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL, show_help_overlay_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.export-table", NULL, export_table_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.show-saved", "s", show_saved_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", "s", open_folder_action);

  /* Also when the window is used without the application's accelerators */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close-tab", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.export-table", NULL);
  /* A run is never edited: Save and Save As both ask where */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.save-as", NULL);
}

void
_ps_window_update_actions_for (PsWindow  *self,
                               GtkWidget *child)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-tab",
                                 ps_window_get_n_pages (self) > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as", PS_IS_RUN_PAGE (child));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reload-with-encoding",
                                 PS_IS_RUN_PAGE (child) && ps_run_page_get_file (PS_RUN_PAGE (child)) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-report", PS_IS_RUN_PAGE (child));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-report", PS_IS_RUN_PAGE (child));
  /* Compare With… compares the run of the current tab */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-with-file",
                                 PS_IS_RUN_PAGE (child) && ps_run_page_get_file (PS_RUN_PAGE (child)) != NULL);
}

void
_ps_window_update_actions (PsWindow *self)
{
  _ps_window_update_actions_for (self, _ps_window_get_current_child (self));
}

/* Recent files */

static int
compare_recent_by_modified (gconstpointer a,
                            gconstpointer b)
{
  GtkRecentInfo *info_a = *(GtkRecentInfo **)a;
  GtkRecentInfo *info_b = *(GtkRecentInfo **)b;

  /* Newest first */
  return g_date_time_compare (gtk_recent_info_get_modified (info_b),
                              gtk_recent_info_get_modified (info_a));
}

/* File names such as "fsperf_CEPC_x86.log" must not turn into mnemonics */
static char *
escape_mnemonics (const char *text)
{
  GString *escaped = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '_')
        g_string_append_c (escaped, '_');
      g_string_append_c (escaped, *p);
    }

  return g_string_free (escaped, FALSE);
}

/* How many files, and how many comparisons, Open Recent lists: the
 * setting, or PS_RECENT_MAX_ITEMS with an older schema or none */
static guint
recent_limit (PsWindow *self)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  if (self->settings == NULL)
    return PS_RECENT_MAX_ITEMS;
  g_object_get (self->settings, "settings-schema", &schema, NULL);
  if (!g_settings_schema_has_key (schema, "recent-files-limit"))
    return PS_RECENT_MAX_ITEMS;
  return g_settings_get_uint (self->settings, "recent-files-limit");
}

/* A row of the welcome page's recent files: the name, the folder under
 * it, the whole path in its tooltip; activated, it opens the file */
static GtkWidget *
create_recent_row (GtkRecentInfo *info)
{
  GtkWidget *row = adw_action_row_new ();
  g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
  g_autoptr(GFile) folder = g_file_get_parent (file);
  g_autofree char *path = ps_view_file_display_path (file);
  g_autofree char *folder_path = folder != NULL ? ps_view_file_display_path (folder) : g_strdup ("");
  /* The row's title and subtitle are Pango markup */
  g_autofree char *title = g_markup_escape_text (gtk_recent_info_get_display_name (info), -1);
  g_autofree char *subtitle = g_markup_escape_text (folder_path, -1);
  GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_tooltip_text (row, path);
  gtk_accessible_update_property (GTK_ACCESSIBLE (arrow), GTK_ACCESSIBLE_PROPERTY_LABEL, "", -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (arrow), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-recent");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", gtk_recent_info_get_uri (info));
  return row;
}

static void
update_welcome_recent (PsWindow  *self,
                       GPtrArray *ours)
{
  GtkWidget *child;
  guint n_rows = MIN (ours->len, PS_WELCOME_RECENT_ITEMS);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);
  for (guint i = 0; i < n_rows; i++)
    gtk_list_box_append (self->recent_list, create_recent_row (g_ptr_array_index (ours, i)));
  gtk_widget_set_visible (self->recent_group, n_rows > 0);
}

void
_ps_window_update_recent_menu (PsWindow *self)
{
  GList *items = gtk_recent_manager_get_items (self->recent_manager);
  g_autoptr(GPtrArray) ours = g_ptr_array_new ();
  guint n_items;
  guint limit;

  g_menu_remove_all (self->recent_menu);

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (gtk_recent_info_has_group (info, PS_RECENT_GROUP) && gtk_recent_info_exists (info))
        g_ptr_array_add (ours, info);
    }
  g_ptr_array_sort (ours, compare_recent_by_modified);

  limit = recent_limit (self);
  /* The welcome page lists a few, also when the menu lists none */
  update_welcome_recent (self, ours);
  n_items = MIN (ours->len, limit);
  for (guint i = 0; i < n_items; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      g_autofree char *label = escape_mnemonics (gtk_recent_info_get_display_name (info));
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
    }

  /* Comparisons: the pairs kept in the settings (a recent file is one
   * URI, a comparison two), reopened through win.compare-uris */
  if (self->settings != NULL)
    {
      g_autoptr(GVariant) pairs = g_settings_get_value (self->settings, "recent-comparisons");
      g_autoptr(GMenu) section = g_menu_new ();
      GVariantIter iter;
      const char *uri_a, *uri_b;

      g_variant_iter_init (&iter, pairs);
      while (g_variant_iter_next (&iter, "(&s&s)", &uri_a, &uri_b)
             && (guint)g_menu_model_get_n_items (G_MENU_MODEL (section)) < limit)
        {
          g_autoptr(GFile) file_a = g_file_new_for_uri (uri_a);
          g_autoptr(GFile) file_b = g_file_new_for_uri (uri_b);
          g_autofree char *basename_a = ps_view_file_display_name (file_a);
          g_autofree char *basename_b = ps_view_file_display_name (file_b);
          g_autofree char *name_a = NULL;
          g_autofree char *name_b = NULL;
          g_autofree char *label = NULL;
          g_autoptr(GMenuItem) item = NULL;

          if (!g_file_query_exists (file_a, NULL) || !g_file_query_exists (file_b, NULL))
            continue;
          name_a = escape_mnemonics (basename_a);
          name_b = escape_mnemonics (basename_b);
          label = g_strdup_printf ("%s ↔ %s", name_a, name_b);
          item = g_menu_item_new (label, NULL);
          g_menu_item_set_action_and_target (item, "win.compare-uris", "(ss)", uri_a, uri_b);
          g_menu_append_item (section, item);
        }
      if (g_menu_model_get_n_items (G_MENU_MODEL (section)) > 0)
        {
          g_menu_append_section (self->recent_menu, _("Comparisons"), G_MENU_MODEL (section));
          n_items++;
        }
    }

  if (n_items == 0)
    {
      /* An item without a usable action is shown insensitive */
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No Recent Files"), "win.no-recent-files");

      g_menu_append_item (self->recent_menu, item);
    }

  g_list_free_full (items, (GDestroyNotify)gtk_recent_info_unref);
}

void
_ps_window_add_recent (PsWindow *self,
                       GFile    *file)
{
  static const char *groups[] = { PS_RECENT_GROUP, NULL };
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *basename = g_file_get_basename (file);
  g_autofree char *content_type = g_content_type_guess (basename, NULL, 0, NULL);
  g_autofree char *mime_type = g_content_type_get_mime_type (content_type);
  const char *program = g_get_prgname () != NULL ? g_get_prgname () : "perfscope";
  g_autofree char *app_exec = g_strjoin (" ", program, "%u", NULL);
  GtkRecentData data = { 0 };

  data.mime_type = mime_type != NULL ? mime_type : (char *)"application/octet-stream";
  data.app_name = (char *)program;
  data.app_exec = app_exec;
  data.groups = (char **)groups;

  gtk_recent_manager_add_full (self->recent_manager, uri, &data);
}

void
_ps_window_add_recent_comparison (PsWindow *self,
                                  GFile    *file_a,
                                  GFile    *file_b)
{
  g_autofree char *uri_a = g_file_get_uri (file_a);
  g_autofree char *uri_b = g_file_get_uri (file_b);
  g_autoptr(GVariant) old_pairs = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *old_a, *old_b;
  guint n_pairs = 1;
  guint limit;

  if (self->settings == NULL)
    return;

  /* This pair first, then the others, without it, up to the limit */
  limit = MAX (recent_limit (self), 1);
  old_pairs = g_settings_get_value (self->settings, "recent-comparisons");
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ss)"));
  g_variant_builder_add (&builder, "(ss)", uri_a, uri_b);
  g_variant_iter_init (&iter, old_pairs);
  while (g_variant_iter_next (&iter, "(&s&s)", &old_a, &old_b) && n_pairs < limit)
    {
      if (g_str_equal (old_a, uri_a) && g_str_equal (old_b, uri_b))
        continue;
      g_variant_builder_add (&builder, "(ss)", old_a, old_b);
      n_pairs++;
    }
  g_settings_set_value (self->settings, "recent-comparisons", g_variant_builder_end (&builder));
}

static void
recent_changed_cb (PsWindow         *self,
                   GtkRecentManager *manager)
{
  _ps_window_update_recent_menu (self);
}

void
_ps_window_init_actions (PsWindow *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  self->recent_manager = gtk_recent_manager_get_default ();
  g_signal_connect_object (self->recent_manager, "changed",
                           G_CALLBACK (recent_changed_cb), self, G_CONNECT_SWAPPED);
  /* Without the schema (an uninstalled build run by hand) comparisons are
   * not remembered */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema != NULL && g_settings_schema_has_key (schema, "recent-comparisons"))
    {
      self->settings = g_settings_new_full (schema, NULL, NULL);
      g_signal_connect_object (self->settings, "changed::recent-comparisons",
                               G_CALLBACK (recent_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->settings, "changed::recent-files-limit",
                               G_CALLBACK (recent_changed_cb), self, G_CONNECT_SWAPPED);
    }
  _ps_window_update_recent_menu (self);

  {
    g_auto(GStrv) backends = ps_collectors_list_names ();
    g_autofree char *demo_dir = _ps_window_get_demo_dir ();

    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.record", backends[0] != NULL);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-demo",
                                   g_file_test (demo_dir, G_FILE_TEST_IS_DIR));
  }
}

/* ps-save-location.c — where a save dialog starts, and the name it offers
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-save-location.h"

#include <glib/gi18n.h>

#include "ps-view-util.h"

G_DEFINE_INTERFACE (PsSaveSource, ps_save_source, GTK_TYPE_WIDGET)

static void
ps_save_source_default_init (PsSaveSourceInterface *iface)
{
}

/* The last save folder of this process, for when the settings' schema is
 * not installed */
static GFile *last_folder;

/* A recorded command line can be long; a file name has 255 bytes at most */
#define MAX_NAME_CHARACTERS 80

char *
ps_save_location_clean_name (const char *name)
{
  GString *clean = g_string_new (NULL);
  gboolean gap = FALSE;
  guint n_characters = 0;

  for (const char *p = name != NULL ? name : ""; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      /* An invalid byte ends the name rather than being guessed at */
      if (c == (gunichar)-1 || c == (gunichar)-2)
        break;
      if (!g_unichar_isalnum (c))
        {
          gap = TRUE;
          continue;
        }
      gap = gap && clean->len > 0;
      if (n_characters + (gap ? 2 : 1) > MAX_NAME_CHARACTERS)
        break;
      if (gap)
        {
          g_string_append_c (clean, '_');
          n_characters++;
        }
      gap = FALSE;
      g_string_append_unichar (clean, c);
      n_characters++;
    }
  return g_string_free (clean, FALSE);
}

char *
ps_save_location_file_name (GFile *file)
{
  g_autofree char *display = ps_view_file_display_name (file);
  g_autofree char *stem = ps_view_file_name_stem (display);

  return ps_save_location_clean_name (stem);
}

/* The source widget is in, or NULL */
static PsSaveSource *
find_source (GtkWidget *widget)
{
  GtkWidget *source = gtk_widget_get_ancestor (widget, PS_TYPE_SAVE_SOURCE);

  return source != NULL ? PS_SAVE_SOURCE (source) : NULL;
}

char *
ps_save_location_name (GtkWidget  *widget,
                       const char *what,
                       const char *extension)
{
  PsSaveSource *source;
  g_autofree char *name = NULL;
  GString *result;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  g_return_val_if_fail (extension != NULL, NULL);

  if ((source = find_source (widget)) != NULL)
    name = PS_SAVE_SOURCE_GET_IFACE (source)->get_name (source);

  result = g_string_new (name != NULL && name[0] != '\0' ? name : "run");
  if (what != NULL)
    {
      g_autofree char *clean_what = ps_save_location_clean_name (what);

      if (clean_what[0] != '\0')
        g_string_append_printf (result, "_%s", clean_what);
    }
  g_string_append_printf (result, ".%s", extension);
  return g_string_free (result, FALSE);
}

static gboolean
is_usable_folder (GFile *folder)
{
  /* A remote folder is not asked about, which could take long; the
   * dialog says itself if it is gone */
  if (folder == NULL)
    return FALSE;
  return !g_file_is_native (folder)
         || g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY;
}

/* The settings, when their installed schema knows the save folder */
static GSettings *
save_folder_settings (void)
{
  g_autoptr(GSettings) settings = ps_view_settings_new_if_installed ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (settings == NULL)
    return NULL;
  g_object_get (settings, "settings-schema", &schema, NULL);
  return g_settings_schema_has_key (schema, "save-folder") ? g_steal_pointer (&settings) : NULL;
}

static GFile *
remembered_folder (void)
{
  g_autoptr(GSettings) settings = save_folder_settings ();
  g_autofree char *uri = settings != NULL ? g_settings_get_string (settings, "save-folder") : NULL;

  if (uri != NULL && uri[0] != '\0')
    return g_file_new_for_uri (uri);
  return last_folder != NULL ? g_object_ref (last_folder) : NULL;
}

GFile *
ps_save_location_folder (GtkWidget *widget)
{
  PsSaveSource *source;
  GFile *file = NULL;
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  GFile *candidates[3] = { NULL, NULL, NULL };
  GFile *chosen = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  if ((source = find_source (widget)) != NULL)
    file = PS_SAVE_SOURCE_GET_IFACE (source)->get_file (source);

  /* The run's folder, the one saved to last, Documents; else home */
  candidates[0] = file != NULL ? g_file_get_parent (file) : NULL;
  candidates[1] = remembered_folder ();
  candidates[2] = documents != NULL ? g_file_new_for_path (documents) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      if (chosen == NULL && is_usable_folder (candidates[i]))
        chosen = g_steal_pointer (&candidates[i]);
      g_clear_object (&candidates[i]);
    }
  return chosen != NULL ? chosen : g_file_new_for_path (g_get_home_dir ());
}

void
ps_save_location_remember (GFile *file)
{
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *uri = NULL;

  g_return_if_fail (G_IS_FILE (file));

  folder = g_file_get_parent (file);
  if (folder == NULL)
    return;
  g_set_object (&last_folder, folder);
  settings = save_folder_settings ();
  if (settings == NULL)
    return;
  uri = g_file_get_uri (folder);
  g_settings_set_string (settings, "save-folder", uri);
}

typedef struct
{
  PsSaveFileFunc func;
  gpointer       user_data;
  GDestroyNotify destroy;
} SaveChoice;

static void
save_choice_finish (SaveChoice *choice,
                    GFile      *file)
{
  if (file != NULL)
    {
      ps_save_location_remember (file);
      choice->func (file, choice->user_data);
    }
  if (choice->destroy != NULL)
    choice->destroy (choice->user_data);
  g_free (choice);
}

#if GTK_CHECK_VERSION (4, 10, 0)

static void
save_dialog_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, &error);
  if (file == NULL && !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
    g_warning ("Could not choose a file: %s", error->message);
  save_choice_finish (user_data, file);
}

#else /* GTK < 4.10 */

static void
save_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  save_choice_finish (user_data, file);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

#endif

void
ps_save_location_choose_file (GtkWindow                 *parent,
                              const PsSaveDialogOptions *options,
                              PsSaveFileFunc             func,
                              gpointer                   user_data,
                              GDestroyNotify             destroy)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
#else
  GtkFileChooserNative *dialog;
#endif
  SaveChoice *choice = g_new0 (SaveChoice, 1);

  choice->func = func;
  choice->user_data = user_data;
  choice->destroy = destroy;

#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_file_dialog_set_title (dialog, options->title);
  gtk_file_dialog_set_modal (dialog, TRUE);
  if (options->accept_label != NULL)
    gtk_file_dialog_set_accept_label (dialog, options->accept_label);
  if (options->filters != NULL)
    gtk_file_dialog_set_filters (dialog, options->filters);
  if (options->initial_folder != NULL)
    gtk_file_dialog_set_initial_folder (dialog, options->initial_folder);
  if (options->initial_name != NULL)
    gtk_file_dialog_set_initial_name (dialog, options->initial_name);
  gtk_file_dialog_save (dialog, parent, NULL, save_dialog_cb, choice);
#else
  dialog = gtk_file_chooser_native_new (options->title, parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                        options->accept_label != NULL ? options->accept_label : _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  if (options->initial_folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), options->initial_folder, NULL);
  if (options->initial_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), options->initial_name);
  for (guint i = 0; options->filters != NULL && i < g_list_model_get_n_items (options->filters); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (options->filters, i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (save_response_cb), choice);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
#endif
}

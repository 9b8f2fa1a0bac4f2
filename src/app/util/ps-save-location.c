/* ps-save-location.c — where a save dialog starts, and the name it offers
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-save-location.h"

#include "ps-compare-page.h"
#include "ps-run-page.h"
#include "ps-view-util.h"

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

/* A file's name without its extension, cleaned */
static char *
clean_file_stem (GFile *file)
{
  g_autofree char *display = ps_view_file_display_name (file);
  g_autofree char *stem = ps_view_file_name_stem (display);

  return ps_save_location_clean_name (stem);
}

/* The run's name: its file's, or the title of a run that has no file */
static char *
run_name (PsRunPage *page)
{
  GFile *file = ps_run_page_get_file (page);

  if (file != NULL)
    return clean_file_stem (file);
  return ps_save_location_clean_name (ps_run_page_get_title (page));
}

static char *
comparison_name (PsComparePage *page)
{
  GFile *file_a = ps_compare_page_get_file (page, 0);
  GFile *file_b = ps_compare_page_get_file (page, 1);
  g_autofree char *a = file_a != NULL ? clean_file_stem (file_a) : NULL;
  g_autofree char *b = file_b != NULL ? clean_file_stem (file_b) : NULL;

  if (a == NULL || b == NULL || a[0] == '\0' || b[0] == '\0')
    return ps_save_location_clean_name (ps_compare_page_get_title (page));
  return g_strconcat (a, "_vs_", b, NULL);
}

char *
ps_save_location_name (GtkWidget  *widget,
                       const char *what,
                       const char *extension)
{
  GtkWidget *page;
  g_autofree char *name = NULL;
  GString *result;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  g_return_val_if_fail (extension != NULL, NULL);

  if ((page = gtk_widget_get_ancestor (widget, PS_TYPE_RUN_PAGE)) != NULL)
    name = run_name (PS_RUN_PAGE (page));
  else if ((page = gtk_widget_get_ancestor (widget, PS_TYPE_COMPARE_PAGE)) != NULL)
    name = comparison_name (PS_COMPARE_PAGE (page));

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
  GtkWidget *page;
  GFile *file = NULL;
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  GFile *candidates[3] = { NULL, NULL, NULL };
  GFile *chosen = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  if ((page = gtk_widget_get_ancestor (widget, PS_TYPE_RUN_PAGE)) != NULL)
    file = ps_run_page_get_file (PS_RUN_PAGE (page));
  else if ((page = gtk_widget_get_ancestor (widget, PS_TYPE_COMPARE_PAGE)) != NULL)
    file = ps_compare_page_get_file (PS_COMPARE_PAGE (page), 0);

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

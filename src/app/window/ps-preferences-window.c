/* ps-preferences-window.c — the Preferences window
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every widget is bound to its key (g_settings_bind), so a change applies
 * at once: Open Recent follows recent-files-limit, new call trees and
 * histograms start with the default basis and scale, runs read from now
 * on keep at most max-million-events. The symbol folders
 * are the "symbol-folders" list; the chosen one is the application's
 * property "symbol-folder", which reloads the sampled runs that use it.
 * The window knows the application by its properties only: the
 * application makes it.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-preferences-window.h"

struct _PsPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GtkApplication *application;
  GSettings      *settings;

  /* Template widgets */
  GtkSpinButton *recent_spin;
  GtkSpinButton *events_spin;
  AdwActionRow  *events_row;
  GtkDropDown   *basis_dropdown;
  GtkDropDown   *scale_dropdown;
  GtkListBox    *folder_list;
  GtkWidget     *add_folder_button;
};

G_DEFINE_FINAL_TYPE (PsPreferencesWindow, ps_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The dropdowns list the nicks of an enum key in their order */
static const char *basis_nicks[] = { "s1", "view", NULL };
static const char *scale_nicks[] = { "linear", "logarithmic", NULL };

static gboolean
nick_to_selected (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char * const *nicks = user_data;
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nicks[i], nick))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
selected_to_nick (const GValue       *value,
                  const GVariantType *expected_type,
                  gpointer            user_data)
{
  const char * const *nicks = user_data;
  guint selected = g_value_get_uint (value);

  if (selected >= g_strv_length ((char **)nicks))
    return NULL;
  return g_variant_new_string (nicks[selected]);
}

/* Symbol folders */

/* The application's symbol folder, or NULL; g_free () */
static char *
chosen_folder (PsPreferencesWindow *self)
{
  char *folder = NULL;

  g_object_get (self->application, "symbol-folder", &folder, NULL);
  return folder;
}

static void
remove_folder_cb (GtkButton           *button,
                  PsPreferencesWindow *self)
{
  const char *folder = g_object_get_data (G_OBJECT (button), "ps-folder");
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "symbol-folders");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) kept = NULL;
  g_autofree char *chosen = NULL;

  for (guint i = 0; folders[i] != NULL; i++)
    if (!g_str_equal (folders[i], folder))
      g_strv_builder_add (builder, folders[i]);
  kept = g_strv_builder_end (builder);

  /* The chosen folder gone, sampled runs go without symbols */
  chosen = chosen_folder (self);
  if (g_strcmp0 (chosen, folder) == 0)
    g_object_set (self->application, "symbol-folder", NULL, NULL);
  g_settings_set_strv (self->settings, "symbol-folders", (const char * const *)kept);
}

static GtkWidget *
create_folder_row (PsPreferencesWindow *self,
                   const char          *folder,
                   gboolean             chosen)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
  GtkWidget *label = gtk_label_new (folder);
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_opacity (check, chosen ? 1 : 0);
  gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED, chosen, -1);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_tooltip_text (row, _("Read the symbols of sampled runs in this folder"));
  gtk_widget_set_tooltip_text (remove, _("Remove the folder from the list"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Remove"), -1);
  gtk_widget_add_css_class (remove, "flat");
  g_object_set_data_full (G_OBJECT (remove), "ps-folder", g_strdup (folder), g_free);
  g_object_set_data_full (G_OBJECT (row), "ps-folder", g_strdup (folder), g_free);
  g_signal_connect_object (remove, "clicked", G_CALLBACK (remove_folder_cb), self, 0);

  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), remove);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  return row;
}

static void
update_folder_list (PsPreferencesWindow *self)
{
  g_auto(GStrv) folders = NULL;
  g_autofree char *chosen = chosen_folder (self);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->folder_list))) != NULL)
    gtk_list_box_remove (self->folder_list, child);

  if (self->settings == NULL)
    return;

  folders = g_settings_get_strv (self->settings, "symbol-folders");
  for (guint i = 0; folders[i] != NULL; i++)
    gtk_list_box_append (self->folder_list,
                         create_folder_row (self, folders[i], g_strcmp0 (folders[i], chosen) == 0));
  if (folders[0] == NULL)
    {
      GtkWidget *empty = gtk_label_new (_("No Symbol Folders"));

      gtk_widget_add_css_class (empty, "dim-label");
      gtk_widget_set_margin_top (empty, 12);
      gtk_widget_set_margin_bottom (empty, 12);
      gtk_list_box_append (self->folder_list, empty);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (gtk_widget_get_parent (empty)), FALSE);
    }
}

static void
folder_row_activated_cb (PsPreferencesWindow *self,
                         GtkListBoxRow       *row)
{
  const char *folder = g_object_get_data (G_OBJECT (row), "ps-folder");

  if (folder != NULL)
    g_object_set (self->application, "symbol-folder", folder, NULL);
}

static void
add_folder (PsPreferencesWindow *self,
            GFile               *folder)
{
  g_autofree char *path = g_file_get_path (folder);

  /* Chosen at once, and listed first (ps_application_set_symbol_folder) */
  if (path != NULL)
    g_object_set (self->application, "symbol-folder", path, NULL);
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
folder_chosen_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PsPreferencesWindow) self = user_data;
  g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (folder != NULL)
    add_folder (self, folder);
}
#else
static void
folder_chooser_response_cb (PsPreferencesWindow  *self,
                            int                   response,
                            GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (folder != NULL)
        add_folder (self, folder);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_object_unref (chooser);
}
#endif

static void
add_folder_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PsPreferencesWindow *self = PS_PREFERENCES_WINDOW (widget);

#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, _("Add Symbol Folder"));
  gtk_file_dialog_set_accept_label (dialog, _("_Add"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_select_folder (dialog, GTK_WINDOW (self), NULL, folder_chosen_cb, g_object_ref (self));
#else
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Add Symbol Folder"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                         _("_Add"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response",
                           G_CALLBACK (folder_chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
#endif
}

/* GObject */

static void
ps_preferences_window_dispose (GObject *object)
{
  PsPreferencesWindow *self = PS_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PS_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->application);

  G_OBJECT_CLASS (ps_preferences_window_parent_class)->dispose (object);
}

static void
ps_preferences_window_class_init (PsPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PsPreferencesWindow, recent_spin);
  gtk_widget_class_bind_template_child (widget_class, PsPreferencesWindow, events_spin);
  gtk_widget_class_bind_template_child (widget_class, PsPreferencesWindow, events_row);
  gtk_widget_class_bind_template_child (widget_class, PsPreferencesWindow, basis_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsPreferencesWindow, scale_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsPreferencesWindow, folder_list);
  gtk_widget_class_bind_template_child (widget_class, PsPreferencesWindow, add_folder_button);
  gtk_widget_class_bind_template_callback (widget_class, folder_row_activated_cb);

  gtk_widget_class_install_action (widget_class, "prefs.add-folder", NULL, add_folder_action);
}

static void
ps_preferences_window_init (PsPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* What 0 events means, with the number the application computes */
static void
set_events_hint (PsPreferencesWindow *self)
{
  guint64 most = 0;
  g_autofree char *automatic = NULL;
  g_autofree char *hint = NULL;
  g_autofree char *escaped = NULL;

  g_object_get (self->application, "automatic-max-events", &most, NULL);
  automatic = g_strdup_printf ("%.0f", (double) most / 1e6);
  /* Translators: %s is a number of millions of events */
  hint = g_strdup_printf (_("Reading a larger file stops there, and what was read is shown. "
                            "0 keeps as many as half of this computer’s memory holds: %s million events."),
                          automatic);
  /* A row's subtitle is markup */
  escaped = g_markup_escape_text (hint, -1);
  adw_action_row_set_subtitle (self->events_row, escaped);
}

GtkWidget *
ps_preferences_window_new (GtkApplication *application,
                           GSettings      *settings)
{
  PsPreferencesWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);

  self = g_object_new (PS_TYPE_PREFERENCES_WINDOW,
                       "destroy-with-parent", TRUE,
                       "transient-for", gtk_application_get_active_window (application),
                       NULL);
  self->application = g_object_ref (application);
  set_events_hint (self);

  if (settings == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->recent_spin), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->events_spin), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->basis_dropdown), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->scale_dropdown), FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "prefs.add-folder", FALSE);
      update_folder_list (self);
      return GTK_WIDGET (self);
    }

  self->settings = g_object_ref (settings);
  g_settings_bind (settings, "recent-files-limit",
                   gtk_spin_button_get_adjustment (self->recent_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "max-million-events",
                   gtk_spin_button_get_adjustment (self->events_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (settings, "percentage-basis",
                                self->basis_dropdown, "selected", G_SETTINGS_BIND_DEFAULT,
                                nick_to_selected, selected_to_nick, (gpointer)basis_nicks, NULL);
  g_settings_bind_with_mapping (settings, "histogram-scale",
                                self->scale_dropdown, "selected", G_SETTINGS_BIND_DEFAULT,
                                nick_to_selected, selected_to_nick, (gpointer)scale_nicks, NULL);

  g_signal_connect_object (settings, "changed::symbol-folders",
                           G_CALLBACK (update_folder_list), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (application, "notify::symbol-folder",
                           G_CALLBACK (update_folder_list), self, G_CONNECT_SWAPPED);
  update_folder_list (self);

  return GTK_WIDGET (self);
}

GtkSpinButton *
ps_preferences_window_get_recent_spin (PsPreferencesWindow *self)
{
  g_return_val_if_fail (PS_IS_PREFERENCES_WINDOW (self), NULL);
  return self->recent_spin;
}

GtkSpinButton *
ps_preferences_window_get_events_spin (PsPreferencesWindow *self)
{
  g_return_val_if_fail (PS_IS_PREFERENCES_WINDOW (self), NULL);
  return self->events_spin;
}

GtkDropDown *
ps_preferences_window_get_basis_dropdown (PsPreferencesWindow *self)
{
  g_return_val_if_fail (PS_IS_PREFERENCES_WINDOW (self), NULL);
  return self->basis_dropdown;
}

GtkDropDown *
ps_preferences_window_get_scale_dropdown (PsPreferencesWindow *self)
{
  g_return_val_if_fail (PS_IS_PREFERENCES_WINDOW (self), NULL);
  return self->scale_dropdown;
}

GtkListBox *
ps_preferences_window_get_folder_list (PsPreferencesWindow *self)
{
  g_return_val_if_fail (PS_IS_PREFERENCES_WINDOW (self), NULL);
  return self->folder_list;
}

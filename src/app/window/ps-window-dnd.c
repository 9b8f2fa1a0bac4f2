/* ps-window-dnd.c — dropping files on the window opens them
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Like the other ways in, a drop ends in ps_window_open_file(); under
 * Flatpak the files arrive through the document portal. Exactly two files
 * dropped at once are a pair (ps_window_open_pair()): yesterday's and
 * today's log compared, the first as A, or two runs of different kinds
 * in two tabs.
 */
#include "config.h"

#include "ps-window-private.h"

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         PsWindow      *self)
{
  GdkFileList *file_list;
  g_autoptr(GSList) files = NULL;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  file_list = g_value_get_boxed (value);
  files = gdk_file_list_get_files (file_list);
  if (files == NULL)
    return FALSE;

  _ps_window_drop_files (self, files);
  return TRUE;
}

void
_ps_window_drop_files (PsWindow *self,
                       GSList   *files)
{
  /* A folder dropped, alone or with files: one trend of them all */
  for (GSList *l = files; l != NULL; l = l->next)
    if (_ps_window_is_local_folder (G_FILE (l->data)))
      {
        g_autoptr(GPtrArray) array = g_ptr_array_new ();

        for (GSList *f = files; f != NULL; f = f->next)
          g_ptr_array_add (array, f->data);
        ps_window_open_trend (self, (GFile * const *)array->pdata, array->len);
        return;
      }

  if (g_slist_length (files) == 2)
    {
      ps_window_open_pair (self, G_FILE (files->data), G_FILE (files->next->data));
      return;
    }

  for (GSList *l = files; l != NULL; l = l->next)
    ps_window_open_file (self, G_FILE (l->data));
}

void
_ps_window_init_dnd (PsWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (target, "drop", G_CALLBACK (drop_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}

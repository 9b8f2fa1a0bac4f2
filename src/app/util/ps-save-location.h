/* ps-save-location.h — where a save dialog starts, and the name it offers
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 32 ("Dialogs start where the run is"). Every save and export
 * dialog of the window opens in the folder of the run it saves from and
 * offers a file name made of that run's own name, with no spaces or
 * dashes in it, so that what the user keeps lands beside the log it came
 * from and can be typed in a shell without quotes.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A page that shows runs (a run page, a comparison) says which file a save
 * dialog opened inside it starts beside and which name it offers, so that
 * saving knows no page */
#define PS_TYPE_SAVE_SOURCE (ps_save_source_get_type ())
G_DECLARE_INTERFACE (PsSaveSource, ps_save_source, PS, SAVE_SOURCE, GtkWidget)

struct _PsSaveSourceInterface
{
  GTypeInterface parent_iface;

  /* The run's file (the first run's, for a comparison), or NULL for a
   * recording */
  GFile *(*get_file) (PsSaveSource *self);
  /* The run's name as ps_save_location_clean_name () gives it, or NULL */
  char  *(*get_name) (PsSaveSource *self);
};

/* The name of file without its extension, cleaned: a run's name when it
 * has a file */
char  *ps_save_location_file_name (GFile *file);

/* The folder a save dialog opened from widget (a PsSaveSource, or a widget
 * inside one) starts in: the folder of the run's file (of the
 * first run of a comparison); for a run without a file (a recording), the
 * folder of the last file saved, else Documents, else the home folder. A
 * local folder that no longer exists is passed over. */
GFile *ps_save_location_folder   (GtkWidget  *widget);

/* The name a save dialog opened from widget offers: the run's name (its
 * file's name without extension, its title for a recording, "A_vs_B" for
 * a comparison) cleaned by ps_save_location_clean_name (), then "_" and
 * what (cleaned too) unless what is NULL, then "." and extension.
 * "run" when the run has no name. */
char  *ps_save_location_name     (GtkWidget  *widget,
                                  const char *what,
                                  const char *extension);

/* Letters and digits of name kept (in any script), every run of other
 * characters (spaces, dashes, dots, slashes, punctuation) made one "_",
 * none at the ends, 80 characters at most: "procfs — sha256sum /dev/zero"
 * gives "procfs_sha256sum_dev_zero". May be empty. */
char  *ps_save_location_clean_name (const char *name);

/* A file was saved: the dialogs of runs without a file start in its
 * folder from now on, also after a restart (the "save-folder" setting) */
void   ps_save_location_remember (GFile      *file);

/* What the file dialog of a save shows: its title; its button ("_Save"
 * when accept_label is NULL); where it starts and the name it offers
 * (ps_save_location_folder () and ps_save_location_name (), each may be
 * NULL); its filters, of GtkFileFilter (may be NULL) */
typedef struct
{
  const char *title;
  const char *accept_label;
  GFile      *initial_folder;
  const char *initial_name;
  GListModel *filters;
} PsSaveDialogOptions;

/* The file dialog of a save: GtkFileChooserNative below GTK 4.10,
 * GtkFileDialog from 4.10. func runs with the chosen file (not when the
 * user cancels), after ps_save_location_remember () of it; destroy
 * (user_data) runs either way. */
typedef void (*PsSaveFileFunc) (GFile    *file,
                                gpointer  user_data);

void   ps_save_location_choose_file (GtkWindow                 *parent,
                                     const PsSaveDialogOptions *options,
                                     PsSaveFileFunc             func,
                                     gpointer                   user_data,
                                     GDestroyNotify             destroy);

G_END_DECLS

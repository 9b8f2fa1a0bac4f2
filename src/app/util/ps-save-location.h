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

/* The folder a save dialog opened from widget (a run page, a comparison,
 * or a widget inside one) starts in: the folder of the run's file (of the
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

G_END_DECLS

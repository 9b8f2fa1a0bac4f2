/* ps-file-window.h — a stretch of a file mapped for reading, that survives
 * the file being cut short while it is read
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PsFileWindow PsFileWindow;

/* Maps length bytes of the open file fd from offset, with up to slack
 * bytes after them when the file has them (readers may look a little
 * past the end). With populate, the pages are read in at once, else as
 * they are touched. NULL when the file cannot be mapped there: read it
 * instead. */
PsFileWindow *ps_file_window_map      (int           fd,
                                       guint64       offset,
                                       gsize         length,
                                       gsize         slack,
                                       gboolean      populate);
/* Reads the window's pages in on a thread of its own, ahead of their
 * use, where the system can (Linux), else does nothing; the window may
 * be used, or unmapped, meanwhile */
void          ps_file_window_populate_in_background (PsFileWindow *self);
const guint8 *ps_file_window_get_data (PsFileWindow *self);
/* TRUE when part of the window vanished while it was read (the file was
 * truncated): those bytes read as zeros instead of stopping the program */
gboolean      ps_file_window_was_cut  (PsFileWindow *self);
void          ps_file_window_unmap    (PsFileWindow *self);

G_END_DECLS

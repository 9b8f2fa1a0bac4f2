/* ps-file-output.h — writing a user's file so that no failure costs the old one
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file Perfscope writes for a user (exports, saved runs and
 * recordings, reports, pictures, tables) is written through a
 * PsFileOutput:
 *
 *   output = ps_file_output_open (file, cancellable, error);
 *   … write to ps_file_output_get_stream (output) …
 *   ok = ps_file_output_commit (output, cancellable, error);
 *   ps_file_output_free (output);
 *
 * The target is replaced only by ps_file_output_commit (), once the new
 * content is complete and on the disk. Freeing an output that was not
 * committed, after any failure of the caller's, leaves the target as it
 * was and no other file behind. A process killed while writing leaves no
 * file behind either, where the file system can create files without a
 * name (O_TMPFILE: ext4, XFS, Btrfs, tmpfs on Linux). A target that is not
 * a regular file (/dev/null, a FIFO, a terminal) is written in place.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _PsFileOutput PsFileOutput;

PsFileOutput  *ps_file_output_open              (GFile          *target,
                                                 GCancellable   *cancellable,
                                                 GError        **error);
/* Unbuffered; owned by the output */
GOutputStream *ps_file_output_get_stream        (PsFileOutput   *self);
/* Whether a file is there that the commit will replace (and a failure
 * keeps) */
gboolean       ps_file_output_replaces_existing (PsFileOutput   *self);
/* Syncs the new content and puts it in the target's place. On failure the
 * target is as it was. Call once; free the output after, either way. */
gboolean       ps_file_output_commit            (PsFileOutput   *self,
                                                 GCancellable   *cancellable,
                                                 GError        **error);
/* Abandons the new content unless committed */
void           ps_file_output_free              (PsFileOutput   *self);

/* Adds to an error of writing self's target that the file that was there
 * is unchanged, when there was one */
void           ps_file_output_note_kept         (PsFileOutput   *self,
                                                 GError        **error);

/* The whole content at once, through a PsFileOutput */
gboolean       ps_file_output_replace_contents  (GFile          *target,
                                                 const void     *data,
                                                 gsize           length,
                                                 GCancellable   *cancellable,
                                                 GError        **error);
/* The same in a worker thread */
void           ps_file_output_replace_contents_async  (GFile               *target,
                                                       GBytes              *contents,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean       ps_file_output_replace_contents_finish (GAsyncResult        *result,
                                                       GError             **error);

/* Whether new files may be made without a name (O_TMPFILE), TRUE by
 * default; the tests turn it off to write the hidden named files that
 * other file systems get */
void           ps_file_output_set_unnamed_allowed (gboolean allowed);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsFileOutput, ps_file_output_free)

G_END_DECLS

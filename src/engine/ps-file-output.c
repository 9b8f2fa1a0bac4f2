/* ps-file-output.c — writing a user's file so that no failure costs the old one
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The new content goes to a file of its own in the target's folder (the
 * same file system, so that a rename can put it in place), is synced, and
 * is renamed over the target in one step. Until then the old file is
 * untouched, whatever fails.
 *
 * The file is created without a name where the file system allows it
 * (O_TMPFILE), so a process killed while writing leaves nothing: a file
 * without a name goes with its last descriptor. It gets a name, hidden
 * beside the target, only once complete, through /proc/self/fd (linkat
 * with AT_EMPTY_PATH needs a privilege), and is renamed at once. Elsewhere
 * (FUSE such as Flatpak's document portal, NFS, older kernels) a hidden
 * named file is created instead and removed on every failure the process
 * lives through.
 *
 * GLib's g_file_replace () is not used for local files: when it cannot
 * create its temporary file (no free inode) it truncates the target and
 * writes in place, and closing its stream after a failed write renames
 * the partial file over the target unless the close is cancelled. Other
 * GFiles (remote ones, through GVfs) use it with a cancelled close on
 * every failure.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#ifdef G_OS_UNIX
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "ps-file-output.h"

/* A hidden temporary name leaves room for its prefix and suffix within
 * the 255 bytes of a file name */
#define MAX_TEMP_STEM 200

static gboolean unnamed_allowed = TRUE;

struct _PsFileOutput
{
  GFile         *target;
  GOutputStream *stream;
  gboolean       existed;
  gboolean       finished;
  gboolean       committed;

  /* Other GFiles, through GIO */
  GFileOutputStream *gio_stream;

#ifdef G_OS_UNIX
  int            fd;
  /* The file replaced (symbolic links followed) and its folder */
  char          *path;
  char          *folder;
  /* The hidden name of the new file, once it has one */
  char          *temp_path;
  /* Created without a name (O_TMPFILE) */
  gboolean       unnamed;
  /* Not a regular file: written in place */
  gboolean       in_place;
#endif
};

static void
set_error_from_errno (GError    **error,
                      int         saved_errno,
                      const char *path)
{
  g_autofree char *name = g_filename_display_name (path);

  if (saved_errno == ENOENT)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 /* Translators: %s is a folder */
                 _("The folder “%s” does not exist"), name);
  else
    g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
}

#ifdef G_OS_UNIX

/* The stream over the new file's descriptor, which stays the output's:
 * its errors are the system's own words ("No space left on device") */
#define PS_TYPE_FD_STREAM (ps_fd_stream_get_type ())
G_DECLARE_FINAL_TYPE (PsFdStream, ps_fd_stream, PS, FD_STREAM, GOutputStream)

struct _PsFdStream
{
  GOutputStream parent_instance;
  int           fd;
};

G_DEFINE_FINAL_TYPE (PsFdStream, ps_fd_stream, G_TYPE_OUTPUT_STREAM)

static gssize
ps_fd_stream_write (GOutputStream  *stream,
                    const void     *buffer,
                    gsize           count,
                    GCancellable   *cancellable,
                    GError        **error)
{
  PsFdStream *self = PS_FD_STREAM (stream);
  gssize written;

  do
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return -1;
      written = write (self->fd, buffer, MIN (count, (gsize)G_MAXSSIZE));
    }
  while (written < 0 && errno == EINTR);
  if (written < 0)
    {
      int saved_errno = errno;

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
    }
  return written;
}

static void
ps_fd_stream_class_init (PsFdStreamClass *klass)
{
  G_OUTPUT_STREAM_CLASS (klass)->write_fn = ps_fd_stream_write;
}

static void
ps_fd_stream_init (PsFdStream *self)
{
  self->fd = -1;
}

static GOutputStream *
ps_fd_stream_new (int fd)
{
  PsFdStream *self = g_object_new (PS_TYPE_FD_STREAM, NULL);

  self->fd = fd;
  return G_OUTPUT_STREAM (self);
}

static int
close_retrying (int fd)
{
  /* Linux closes the descriptor even when close () is interrupted */
  int status = close (fd);

  return status != 0 && errno == EINTR ? 0 : status;
}

static int
fsync_retrying (int fd)
{
  int status;

  do
    status = fsync (fd);
  while (status != 0 && errno == EINTR);
  return status;
}

/* A hidden name beside the target: ".run.perfscope.<suffix>" */
static char *
hidden_path (PsFileOutput *self,
             const char   *suffix)
{
  g_autofree char *base = g_path_get_basename (self->path);

  if (strlen (base) > MAX_TEMP_STEM)
    base[MAX_TEMP_STEM] = '\0';
  return g_strdup_printf ("%s%c.%s.%s", self->folder, G_DIR_SEPARATOR, base, suffix);
}

/* The new file in the folder: without a name where the file system can,
 * else under a hidden name of its own */
static gboolean
create_new_file (PsFileOutput  *self,
                 mode_t         mode,
                 GError       **error)
{
  g_autofree char *template = NULL;

#ifdef O_TMPFILE
  /* The unnamed file gets its name through /proc when it is complete */
  if (unnamed_allowed && g_file_test ("/proc/self/fd", G_FILE_TEST_IS_DIR))
    {
      self->fd = open (self->folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
      if (self->fd >= 0)
        {
          self->unnamed = TRUE;
          return TRUE;
        }
      /* EISDIR: a kernel that does not know O_TMPFILE; the others: a file
       * system that does not support it */
      if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOSYS)
        {
          set_error_from_errno (error, errno, self->folder);
          return FALSE;
        }
    }
#endif

  template = hidden_path (self, "XXXXXX");
  self->fd = g_mkstemp_full (template, O_WRONLY | O_CLOEXEC, (int)mode);
  if (self->fd < 0)
    {
      set_error_from_errno (error, errno, self->folder);
      return FALSE;
    }
  self->temp_path = g_steal_pointer (&template);
  return TRUE;
}

static gboolean
open_local (PsFileOutput  *self,
            const char    *path,
            GError       **error)
{
  struct stat info;
  mode_t mode = 0666;

  if (stat (path, &info) == 0)
    {
      if (S_ISDIR (info.st_mode))
        {
          g_autofree char *name = g_filename_display_name (path);

          /* Translators: %s is a file name */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("“%s” is a folder"), name);
          return FALSE;
        }
      if (!S_ISREG (info.st_mode))
        {
          /* A device, FIFO or socket holds no file to keep */
          self->fd = open (path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
          if (self->fd < 0)
            {
              set_error_from_errno (error, errno, path);
              return FALSE;
            }
          self->in_place = TRUE;
          self->path = g_strdup (path);
          return TRUE;
        }
      self->existed = TRUE;
      mode = info.st_mode & 07777;
      /* Through a symbolic link, the file it points to is replaced */
      self->path = realpath (path, NULL);
    }
  else if (errno != ENOENT)
    {
      set_error_from_errno (error, errno, path);
      return FALSE;
    }

  if (self->path == NULL)
    self->path = g_strdup (path);
  self->folder = g_path_get_dirname (self->path);

  if (!create_new_file (self, mode, error))
    return FALSE;
  if (self->existed)
    {
      /* As the old file was; failing that, as a new file would be */
      if (info.st_uid != geteuid () || info.st_gid != getegid ())
        (void) !fchown (self->fd, info.st_uid, info.st_gid);
      (void) !fchmod (self->fd, mode);
    }
  return TRUE;
}

/* Names the complete unnamed file in the folder, hidden, for the rename */
static gboolean
name_unnamed (PsFileOutput  *self,
              GError       **error)
{
  g_autofree char *proc_path = g_strdup_printf ("/proc/self/fd/%d", self->fd);

  for (guint attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *suffix = g_strdup_printf ("%08x", g_random_int ());
      g_autofree char *temp_path = hidden_path (self, suffix);

      if (linkat (AT_FDCWD, proc_path, AT_FDCWD, temp_path, AT_SYMLINK_FOLLOW) == 0)
        {
          self->temp_path = g_steal_pointer (&temp_path);
          return TRUE;
        }
      if (errno != EEXIST)
        {
          set_error_from_errno (error, errno, self->folder);
          return FALSE;
        }
    }
  set_error_from_errno (error, EEXIST, self->folder);
  return FALSE;
}

static gboolean
commit_local (PsFileOutput  *self,
              GError       **error)
{
  int folder_fd;
  int fd = self->fd;

  if (self->in_place)
    {
      self->fd = -1;
      if (close_retrying (fd) != 0)
        {
          set_error_from_errno (error, errno, self->path);
          return FALSE;
        }
      return TRUE;
    }

  if (fsync_retrying (fd) != 0)
    {
      set_error_from_errno (error, errno, self->path);
      return FALSE;
    }
  if (self->unnamed && !name_unnamed (self, error))
    return FALSE;
  /* Some file systems (NFS) report a failed write only here */
  self->fd = -1;
  if (close_retrying (fd) != 0)
    {
      set_error_from_errno (error, errno, self->path);
      return FALSE;
    }
  if (g_rename (self->temp_path, self->path) != 0)
    {
      set_error_from_errno (error, errno, self->path);
      return FALSE;
    }
  g_clear_pointer (&self->temp_path, g_free);

  /* The rename itself on the disk: best effort, as some file systems
   * cannot sync a folder */
  folder_fd = open (self->folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder_fd >= 0)
    {
      (void) fsync_retrying (folder_fd);
      close (folder_fd);
    }
  return TRUE;
}

static void
abandon_local (PsFileOutput *self)
{
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  if (self->temp_path != NULL)
    g_unlink (self->temp_path);
  g_clear_pointer (&self->temp_path, g_free);
}

#endif /* G_OS_UNIX */

PsFileOutput *
ps_file_output_open (GFile         *target,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(PsFileOutput) self = NULL;

  g_return_val_if_fail (G_IS_FILE (target), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  self = g_new0 (PsFileOutput, 1);
  self->target = g_object_ref (target);

#ifdef G_OS_UNIX
  self->fd = -1;
  if (g_file_peek_path (target) != NULL)
    {
      if (!open_local (self, g_file_peek_path (target), error))
        {
          ps_file_output_note_kept (self, error);
          return NULL;
        }
      self->stream = ps_fd_stream_new (self->fd);
      return g_steal_pointer (&self);
    }
#endif

  self->existed = g_file_query_exists (target, cancellable);
  self->gio_stream = g_file_replace (target, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
  if (self->gio_stream == NULL)
    return NULL;
  self->stream = g_object_ref (G_OUTPUT_STREAM (self->gio_stream));
  return g_steal_pointer (&self);
}

GOutputStream *
ps_file_output_get_stream (PsFileOutput *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->stream;
}

gboolean
ps_file_output_replaces_existing (PsFileOutput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->existed;
}

gboolean
ps_file_output_commit (PsFileOutput  *self,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->finished, FALSE);

  self->finished = TRUE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  if (self->gio_stream != NULL)
    self->committed = g_output_stream_close (G_OUTPUT_STREAM (self->gio_stream), cancellable, error);
#ifdef G_OS_UNIX
  else
    self->committed = commit_local (self, error);
#endif
  return self->committed;
}

void
ps_file_output_free (PsFileOutput *self)
{
  if (self == NULL)
    return;

  if (!self->committed && self->gio_stream != NULL && !g_output_stream_is_closed (G_OUTPUT_STREAM (self->gio_stream)))
    {
      g_autoptr(GCancellable) abandon = g_cancellable_new ();

      /* GIO removes its temporary file on a cancelled close */
      g_cancellable_cancel (abandon);
      g_output_stream_close (G_OUTPUT_STREAM (self->gio_stream), abandon, NULL);
    }
#ifdef G_OS_UNIX
  if (!self->committed)
    abandon_local (self);
  g_free (self->path);
  g_free (self->folder);
#endif
  g_clear_object (&self->stream);
  g_clear_object (&self->gio_stream);
  g_clear_object (&self->target);
  g_free (self);
}

void
ps_file_output_set_unnamed_allowed (gboolean allowed)
{
  unnamed_allowed = allowed;
}

void
ps_file_output_note_kept (PsFileOutput  *self,
                          GError       **error)
{
  char *message;

  g_return_if_fail (self != NULL);

  if (error == NULL || *error == NULL || !self->existed)
    return;
  /* Translators: %s is why a file could not be written */
  message = g_strdup_printf (_("%s; the file that was there is unchanged"), (*error)->message);
  g_free ((*error)->message);
  (*error)->message = message;
}

gboolean
ps_file_output_replace_contents (GFile         *target,
                                 const void    *data,
                                 gsize          length,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  g_autoptr(PsFileOutput) output = NULL;

  g_return_val_if_fail (G_IS_FILE (target), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  output = ps_file_output_open (target, cancellable, error);
  if (output == NULL)
    return FALSE;
  if (!g_output_stream_write_all (output->stream, data, length, NULL, cancellable, error)
      || !ps_file_output_commit (output, cancellable, error))
    {
      ps_file_output_note_kept (output, error);
      return FALSE;
    }
  return TRUE;
}

static void
replace_contents_thread (GTask        *task,
                         gpointer      source_object,
                         gpointer      task_data,
                         GCancellable *cancellable)
{
  GBytes *contents = task_data;
  GFile *target = g_object_get_data (G_OBJECT (task), "ps-file-output-target");
  gsize length;
  const void *data = g_bytes_get_data (contents, &length);
  GError *error = NULL;

  if (ps_file_output_replace_contents (target, data != NULL ? data : "", length, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
ps_file_output_replace_contents_async (GFile               *target,
                                       GBytes              *contents,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (target));
  g_return_if_fail (contents != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ps_file_output_replace_contents_async);
  g_task_set_task_data (task, g_bytes_ref (contents), (GDestroyNotify)g_bytes_unref);
  g_object_set_data_full (G_OBJECT (task), "ps-file-output-target", g_object_ref (target), g_object_unref);
  g_task_run_in_thread (task, replace_contents_thread);
}

gboolean
ps_file_output_replace_contents_finish (GAsyncResult  *result,
                                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

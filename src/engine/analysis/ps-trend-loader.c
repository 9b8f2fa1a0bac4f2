/* ps-trend-loader.c — the runs of many files, for a trend
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". See ps-trend-loader.h.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ps-loader.h"
#include "ps-trend-loader.h"

/* Enough of a file's start to tell a summary from a log */
#define SNIFF_BYTES 64

static void
problem_free (gpointer data)
{
  PsTrendProblem *problem = data;

  g_clear_object (&problem->file);
  g_free (problem->message);
  g_free (problem);
}

static void
add_problem (PsTrendInputs *inputs,
             GFile         *file,
             const char    *message,
             gboolean       partial)
{
  PsTrendProblem *problem = g_new0 (PsTrendProblem, 1);

  problem->file = g_object_ref (file);
  problem->message = g_strdup (message);
  problem->partial = partial;
  g_ptr_array_add (inputs->problems, problem);
}

void
ps_trend_inputs_free (PsTrendInputs *inputs)
{
  if (inputs == NULL)
    return;

  g_clear_pointer (&inputs->files, g_hash_table_unref);
  g_clear_pointer (&inputs->runs, g_ptr_array_unref);
  g_clear_pointer (&inputs->problems, g_ptr_array_unref);
  g_free (inputs);
}

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  g_autofree char *name_a = g_file_get_basename (*(GFile * const *)a);
  g_autofree char *name_b = g_file_get_basename (*(GFile * const *)b);

  return g_strcmp0 (name_a, name_b);
}

/* The regular files of a folder by name; FALSE with error set */
static gboolean
add_folder (GPtrArray     *paths,
            GFile         *folder,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  GFileInfo *info;
  GFile *child;

  enumerator = g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (enumerator == NULL)
    return FALSE;
  while (g_file_enumerator_iterate (enumerator, &info, &child, cancellable, error) && info != NULL)
    if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR && g_file_info_get_name (info)[0] != '.')
      g_ptr_array_add (found, g_object_ref (child));
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_ptr_array_foreach (found, (GFunc)(void (*) (void))g_object_unref, NULL);
      return FALSE;
    }
  g_ptr_array_sort (found, compare_files);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (paths, g_ptr_array_index (found, i));
  return TRUE;
}

/* Whether the file begins as a summary; FALSE for what cannot be opened,
 * which the loader then names */
static gboolean
is_summary_file (GFile        *file,
                 GCancellable *cancellable)
{
  g_autoptr(GFileInputStream) input = g_file_read (file, cancellable, NULL);
  char start[SNIFF_BYTES];
  gsize length = 0;

  if (input == NULL
      || !g_input_stream_read_all (G_INPUT_STREAM (input), start, sizeof start, &length, cancellable, NULL))
    return FALSE;
  return ps_run_summary_sniff (start, length);
}

void
ps_trend_set_file_time (GPtrArray *runs,
                        GFile     *file)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GDateTime) modified = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_TIME_MODIFIED "," G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info == NULL || (modified = g_file_info_get_modification_date_time (info)) == NULL)
    return;

  for (guint i = 0; i < runs->len; i++)
    {
      PsRunSummary *run = g_ptr_array_index (runs, i);

      if (run->has_time)
        continue;
      run->has_time = TRUE;
      run->time_from_file = TRUE;
      run->time_unix_ns = g_date_time_to_unix (modified) * G_GINT64_CONSTANT (1000000000)
                          + (gint64)g_date_time_get_microsecond (modified) * 1000;
    }
}

typedef struct
{
  PsTrendProgressFunc  func;
  gpointer             data;
  const char          *file_name;
  guint                index;       /* of the file being read */
  guint                n_files;
  guint64              total_size;  /* of the file being read, 0 unknown */
} Progress;

static void
report (Progress *progress,
        double    within_file)
{
  if (progress->func != NULL)
    progress->func ((progress->index + CLAMP (within_file, 0, 1)) / MAX (progress->n_files, 1),
                    progress->file_name, progress->data);
}

static void
bytes_read_cb (guint64  bytes,
               gpointer data)
{
  Progress *progress = data;

  if (progress->total_size > 0)
    report (progress, (double)bytes / (double)progress->total_size);
}

/* The runs of a log; NULL with error set */
static GPtrArray *
summarize_log (GFile         *file,
               Progress      *progress,
               char         **partial_message,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GFileInputStream) input = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(PsEventStore) store = NULL;
  const PsFormat *read_format;
  const char *format;
  GPtrArray *runs;

  input = g_file_read (file, cancellable, error);
  if (input == NULL)
    return NULL;
  info = g_file_input_stream_query_info (input, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);
  progress->total_size = info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE)
                         ? (guint64)MAX (g_file_info_get_size (info), 0) : 0;

  ps_format_options_set (&options, PS_FORMAT_OPTION_TOTALS_ONLY, "true");
  store = ps_load_stream (G_INPUT_STREAM (input), progress->file_name,
                          &(PsLoadParams) {
                            .options = options,
                            .total_size = progress->total_size,
                            .progress = bytes_read_cb,
                            .progress_data = progress,
                          },
                          cancellable, error);
  if (store == NULL)
    return NULL;
  ps_event_store_set_file (store, file);
  /* An incomplete store always has its error (ps-event-store.c) */
  if (!ps_event_store_is_complete (store))
    *partial_message = g_strdup (ps_event_store_get_error (store)->message);

  runs = ps_run_summary_collect (store, cancellable);
  if (runs == NULL)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }

  /* A saved run's store names the format of what was saved */
  read_format = ps_load_get_read_format (store);
  format = ps_event_store_get_format (store);
  for (guint i = 0; i < runs->len; i++)
    {
      PsRunSummary *run = g_ptr_array_index (runs, i);

      run->file = g_strdup (progress->file_name);
      run->format = g_strdup (read_format == &ps_format_native ? ps_format_native.name : format);
      run->origin = read_format == &ps_format_native && g_strcmp0 (format, ps_format_native.name) != 0
                    ? g_strdup (format) : NULL;
      run->complete = ps_event_store_is_complete (store);
    }
  ps_trend_set_file_time (runs, file);
  return runs;
}

static GPtrArray *
read_summary (GFile         *file,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autofree char *text = NULL;
  gsize length;

  if (!g_file_load_contents (file, cancellable, &text, &length, NULL, error))
    return NULL;
  return ps_run_summary_read (text, length, error);
}

PsTrendInputs *
ps_trend_inputs_read (GFile * const        *files,
                      guint                 n_files,
                      GCancellable         *cancellable,
                      PsTrendProgressFunc   progress_func,
                      gpointer              progress_data,
                      GError              **error)
{
  g_autoptr(PsTrendInputs) inputs = g_new0 (PsTrendInputs, 1);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_object_unref);
  Progress progress = { progress_func, progress_data, NULL, 0, 0, 0 };

  g_return_val_if_fail (files != NULL || n_files == 0, NULL);

  inputs->runs = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_free);
  inputs->files = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  inputs->problems = g_ptr_array_new_with_free_func (problem_free);

  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GError) folder_error = NULL;

      if (g_file_query_file_type (files[i], G_FILE_QUERY_INFO_NONE, cancellable) != G_FILE_TYPE_DIRECTORY)
        g_ptr_array_add (paths, g_object_ref (files[i]));
      else if (!add_folder (paths, files[i], cancellable, &folder_error))
        {
          if (g_error_matches (folder_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&folder_error));
              return NULL;
            }
          add_problem (inputs, files[i], folder_error->message, FALSE);
        }
    }

  progress.n_files = paths->len;
  for (guint i = 0; i < paths->len; i++)
    {
      GFile *file = g_ptr_array_index (paths, i);
      g_autofree char *base = g_file_get_basename (file);
      g_autofree char *file_name = g_filename_display_name (base);
      g_autoptr(GError) file_error = NULL;
      g_autoptr(GPtrArray) runs = NULL;
      g_autofree char *partial_message = NULL;

      progress.index = i;
      progress.file_name = file_name;
      report (&progress, 0);
      if (is_summary_file (file, cancellable))
        runs = read_summary (file, cancellable, &file_error);
      else
        runs = summarize_log (file, &progress, &partial_message, cancellable, &file_error);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (runs == NULL)
        {
          add_problem (inputs, file, file_error->message, FALSE);
          continue;
        }

      for (guint r = 0; r < runs->len; r++)
        {
          PsRunSummary *run = g_ptr_array_index (runs, r);

          if (!run->complete && r == 0)
            add_problem (inputs, file,
                         partial_message != NULL ? partial_message
                         /* Translators: a summary of a log that was read only in part */
                         : _("The log it sums up was read only in part."), TRUE);
          g_hash_table_insert (inputs->files, run, g_object_ref (file));
        }
      g_ptr_array_set_free_func (runs, NULL);
      g_ptr_array_extend_and_steal (inputs->runs, g_steal_pointer (&runs));
    }

  progress.index = paths->len;
  progress.file_name = NULL;
  report (&progress, 0);
  return g_steal_pointer (&inputs);
}

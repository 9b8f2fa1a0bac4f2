/* ps-cli-load.c — reading a file for perfscope-cli
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CLI has no main loop to serve, so it parses in the calling thread
 * with ps_load_stream(); the loader's progress callback then runs here too
 * and writes a progress line straight to stderr when that is a terminal.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <glib/gi18n.h>

#ifdef G_OS_UNIX
# include <gio/gunixinputstream.h>
# include <unistd.h>
#endif

#include "ps-cli.h"
#include "ps-loader.h"

/* Redraw the progress line at most this often */
#define PROGRESS_INTERVAL_USEC (100 * 1000)

/* Back to the start of the line and erase it */
#define CLEAR_LINE "\r\033[K"

typedef struct
{
  const char *name;
  guint64     total_size;
  gint64      last_update;
  gboolean    shown;
} Progress;

static gboolean
stderr_is_terminal (void)
{
#ifdef G_OS_UNIX
  return isatty (STDERR_FILENO);
#else
  return FALSE;
#endif
}

static void
progress_cb (guint64  bytes,
             gpointer data)
{
  Progress *progress = data;
  gint64 now = g_get_monotonic_time ();
  g_autofree char *done = NULL;

  if (progress->shown && now - progress->last_update < PROGRESS_INTERVAL_USEC)
    return;
  progress->last_update = now;
  progress->shown = TRUE;

  done = g_format_size (bytes);
  fputs (CLEAR_LINE, stderr);
  if (progress->total_size > 0)
    {
      g_autofree char *total = g_format_size (progress->total_size);
      int percent = (int)(100.0 * (double)bytes / (double)progress->total_size);

      /* Translators: progress line, "Reading run.log: 120.0 MB of 1.0 GB (12 %)" */
      fprintf (stderr, _("Reading %s: %s of %s (%d%%)"),
               progress->name, done, total, MIN (percent, 100));
    }
  else
    {
      /* Translators: progress line, "Reading run.log: 120.0 MB" */
      fprintf (stderr, _("Reading %s: %s"), progress->name, done);
    }
  fflush (stderr);
}

char *
ps_cli_display_basename (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  return g_filename_display_name (base);
}

static void G_GNUC_PRINTF (1, 0)
print_error_valist (const char *format,
                    va_list     args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  fprintf (stderr, "%s: %s\n", PS_CLI_PROGRAM, message);
}

void
ps_cli_print_error (const char *format,
                    ...)
{
  va_list args;

  va_start (args, format);
  print_error_valist (format, args);
  va_end (args);
}

void
ps_cli_print_usage_hint (void)
{
  /* Translators: %s is the program name */
  fprintf (stderr, _("Try “%s --help” for more information.\n"), PS_CLI_PROGRAM);
}

int
ps_cli_usage_error (const char *format,
                    ...)
{
  va_list args;

  va_start (args, format);
  print_error_valist (format, args);
  va_end (args);
  ps_cli_print_usage_hint ();
  return PS_CLI_EXIT_USAGE;
}

static PsEventStore *
load (const PsCliOptions  *options,
      const char          *path,
      gboolean             totals_only,
      GError             **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GHashTable) parser_options = NULL;
  Progress progress = { 0 };
  gboolean show_progress;

  name = ps_cli_display_basename (path);
  progress.name = name;
  /* "-" is the standard input, as for every Unix tool: a pipe, read once
   * from start to end, of a size not known beforehand */
#ifdef G_OS_UNIX
  if (strcmp (path, "-") == 0)
    input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  else
#endif
    {
      file = g_file_new_for_commandline_arg (path);
      input = G_INPUT_STREAM (g_file_read (file, NULL, error));
      if (input == NULL)
        return NULL;
      info = g_file_input_stream_query_info (G_FILE_INPUT_STREAM (input), G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
      if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
        progress.total_size = (guint64)MAX (g_file_info_get_size (info), 0);
    }

  /* Options for the formats that have them; the others ignore them */
  if (options->sysroot != NULL)
    ps_format_options_set (&parser_options, "sysroot", options->sysroot);
  if (options->address_width != NULL)
    ps_format_options_set (&parser_options, "address-width", options->address_width);
  if (options->max_events != NULL)
    ps_format_options_set (&parser_options, PS_LOADER_OPTION_MAX_EVENTS, options->max_events);
  if (options->encoding != NULL)
    ps_format_options_set (&parser_options, PS_FORMAT_OPTION_ENCODING, options->encoding);
  if (options->utc_offset != NULL)
    ps_format_options_set (&parser_options, PS_FORMAT_OPTION_UTC_OFFSET, options->utc_offset);
  if (totals_only)
    ps_format_options_set (&parser_options, PS_FORMAT_OPTION_TOTALS_ONLY, "true");

  show_progress = !options->quiet && stderr_is_terminal ();
  store = ps_load_stream (input, name,
                          &(PsLoadParams) {
                            .format = options->format,
                            .options = parser_options,
                            .total_size = progress.total_size,
                            .progress = show_progress ? progress_cb : NULL,
                            .progress_data = &progress,
                          },
                          NULL, error);

  if (progress.shown)
    {
      fputs (CLEAR_LINE, stderr);
      fflush (stderr);
    }

  if (store == NULL)
    return NULL;

  ps_event_store_set_file (store, file);
  return g_steal_pointer (&store);
}

static PsEventStore *
load_or_report (const PsCliOptions *options,
                const char         *path,
                gboolean            totals_only)
{
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  store = load (options, path, totals_only, &error);
  if (store == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);

      ps_cli_print_error (_("Cannot read “%s”: %s"), name, error->message);
    }

  return store;
}

PsEventStore *
ps_cli_load (const PsCliOptions *options,
             const char         *path)
{
  return load_or_report (options, path, FALSE);
}

PsEventStore *
ps_cli_load_totals (const PsCliOptions *options,
                    const char         *path)
{
  /* The event limit counts events, which are not kept then */
  return load_or_report (options, path, options->max_events == NULL);
}

gboolean
ps_cli_report_partial (PsEventStore *store,
                       const char   *path)
{
  g_autofree char *name = NULL;

  if (ps_event_store_is_complete (store))
    return FALSE;

  name = g_filename_display_name (path);
  ps_cli_print_error (_("“%s” was read only in part: %s"), name,
                      ps_event_store_get_error (store)->message);
  return TRUE;
}

const char *
ps_cli_run_format (PsEventStore  *store,
                   const char   **origin)
{
  const PsFormat *read_format = ps_load_get_read_format (store);
  const char *format = ps_event_store_get_format (store);

  *origin = NULL;
  /* A saved run's store names the format of what was saved */
  if (read_format == &ps_format_native)
    {
      if (g_strcmp0 (format, ps_format_native.name) != 0)
        *origin = format;
      return ps_format_native.name;
    }
  return format;
}

void
ps_cli_add_run_members (JsonBuilder  *builder,
                        PsEventStore *store,
                        const char   *path,
                        gboolean      with_path)
{
  g_autofree char *file_name = ps_cli_display_basename (path);
  gboolean complete = ps_event_store_is_complete (store);
  const char *origin;
  const char *format = ps_cli_run_format (store, &origin);

  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, file_name);
  if (with_path)
    {
      g_autofree char *display_path = g_filename_display_name (path);

      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, display_path);
    }
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, format);
  if (origin != NULL)
    {
      json_builder_set_member_name (builder, "origin");
      json_builder_add_string_value (builder, origin);
    }
  json_builder_set_member_name (builder, "complete");
  json_builder_add_boolean_value (builder, complete);
  if (!complete)
    {
      /* An incomplete store always has its error (ps-event-store.c) */
      json_builder_set_member_name (builder, "error");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, ps_event_store_get_error (store)->message);
      /* The loader stops at a byte offset; a line is not known there */
      ps_cli_json_add_int (builder, "offset", (gint64)ps_event_store_get_bytes_read (store));
      json_builder_end_object (builder);
    }
}

void
ps_cli_stream_run_members (PsCliJsonStream *stream,
                           PsEventStore    *store,
                           const char      *path,
                           gboolean         with_path)
{
  g_autofree char *file_name = ps_cli_display_basename (path);
  const char *origin;
  const char *format = ps_cli_run_format (store, &origin);

  ps_cli_json_stream_string (stream, "file", file_name);
  if (with_path)
    {
      g_autofree char *display_path = g_filename_display_name (path);

      ps_cli_json_stream_string (stream, "path", display_path);
    }
  ps_cli_json_stream_string (stream, "format", format);
  if (origin != NULL)
    ps_cli_json_stream_string (stream, "origin", origin);
  ps_cli_json_stream_boolean (stream, "complete", ps_event_store_is_complete (store));
  if (!ps_event_store_is_complete (store))
    {
      ps_cli_json_stream_begin_object (stream, "error");
      ps_cli_json_stream_string (stream, "message", ps_event_store_get_error (store)->message);
      ps_cli_json_stream_int (stream, "offset", (gint64)ps_event_store_get_bytes_read (store));
      ps_cli_json_stream_end (stream);
    }
}

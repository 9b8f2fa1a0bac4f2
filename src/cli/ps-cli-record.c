/* ps-cli-record.c — perfscope-cli record: a live run through a collector
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "record". Loads the collector plugins, records for
 * --duration seconds (or until SIGINT/SIGTERM) and prints the run's
 * counters as `counters` does; with -o OUT the run is also saved in
 * Perfscope's own format ("perfscope", docs/formats/native-format.md), which
 * every command and the application open again.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#ifdef G_OS_UNIX
#include <signal.h>
#include <glib-unix.h>
#endif

#include "ps-cli.h"
#include "ps-collector.h"
#include "ps-native-writer.h"

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

static gboolean
on_end (gpointer user_data)
{
  g_main_loop_quit (user_data);
  /* Removed by run_record () whichever ended the recording */
  return G_SOURCE_CONTINUE;
}

static void
on_lost (PsCollector *collector,
         guint64      n_lost,
         gpointer     user_data)
{
  gboolean *warned = user_data;

  if (!*warned)
    {
      /* Translators: the collector could not keep up with its interval */
      ps_cli_print_error (_("Some readings were lost: the system was too busy"));
      *warned = TRUE;
    }
}

/* Late and lost readings, with the interval achieved, once at the end */
static void
print_timing (PsCollector  *collector,
              PsEventStore *store)
{
  guint64 n_late = ps_collector_get_n_late (collector);
  guint64 n_lost = ps_collector_get_n_lost (collector);
  const char *asked = ps_event_store_get_n_sessions (store) > 0
                      ? ps_event_store_get_metadata (store, 0, "interval_ms") : NULL;
  const char *achieved = ps_event_store_get_n_sessions (store) > 0
                         ? ps_event_store_get_metadata (store, 0, "interval_achieved_ms") : NULL;
  g_autofree char *late_count = NULL;
  g_autofree char *lost_count = NULL;
  g_autofree char *counts = NULL;
  g_autofree char *achieved_shown = NULL;
  g_autofree char *asked_shown = NULL;

  if (n_late + n_lost == 0 || asked == NULL || achieved == NULL)
    return;
  /* The metadata's numbers are written with a point; shown in the
   * user's locale (a comma in French) */
  achieved_shown = g_strdup_printf ("%.1f", g_ascii_strtod (achieved, NULL));
  asked_shown = g_strdup_printf ("%g", g_ascii_strtod (asked, NULL));
  late_count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_late);
  lost_count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_lost);
  counts = ps_collector_describe_late_lost (n_late, late_count, n_lost, lost_count);
  /* Translators: the counts of late and lost readings ("3 readings late
   * and 1 reading lost"), then the mean interval achieved and the one
   * asked for, in milliseconds */
  ps_cli_print_error (_("%s; one every %s ms on average (asked: %s ms); each is a warning of the run"),
                      counts, achieved_shown, asked_shown);
}

static void
print_backends (void)
{
  g_auto(GStrv) names = ps_collectors_list_names ();
  g_autofree char *list = g_strjoinv (", ", names);

  /* Translators: %s is a list of names, or nothing */
  fprintf (stderr, _("Available backends: %s\n"), names[0] != NULL ? list : _("none"));
}

/* A command-line option goes to the backend's option of that key, if the
 * backend lists one (ps_collector_list_options ()) */
static gboolean
set_backend_option (PsCollector *collector,
                    GHashTable  *table,
                    const char  *key,
                    const char  *flag,
                    const char  *value)
{
  const PsCollectorOption *backend_options;
  guint n_options;

  if (value == NULL)
    return TRUE;
  backend_options = ps_collector_list_options (collector, &n_options);
  for (guint i = 0; i < n_options; i++)
    if (g_strcmp0 (backend_options[i].key, key) == 0)
      {
        g_hash_table_insert (table, g_strdup (key), g_strdup (value));
        return TRUE;
      }

  /* Translators: the first %s is a backend name, the second a command-line option */
  ps_cli_print_error (_("The %s backend takes no %s"), ps_collector_get_name (collector), flag);
  return FALSE;
}

static int
run_record (const PsCliOptions  *options,
            char               **files G_GNUC_UNUSED)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GHashTable) collector_options = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  const char *backend = options->backend != NULL ? options->backend : "procfs";
  Wait wait = { 0 };
  gboolean warned_lost = FALSE;
  guint end_source = 0;
#ifdef G_OS_UNIX
  guint interrupt_source, terminate_source;
#endif

  /* A recording that cannot be saved is better refused before it starts */
  if (options->export_output != NULL)
    {
      g_autoptr(GFile) output = g_file_new_for_commandline_arg (options->export_output);
      g_autoptr(GFile) folder = g_file_get_parent (output);
      g_autoptr(GFileInfo) info = NULL;

      if (folder != NULL)
        info = g_file_query_info (folder, G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                  G_FILE_QUERY_INFO_NONE, NULL, &error);
      if (folder != NULL
          && (info == NULL || g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY
              || !g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE)))
        {
          g_autofree char *output_name = g_filename_display_name (options->export_output);

          /* Translators: %s is a file name */
          ps_cli_print_error (_("Cannot save the recording to “%s”: its folder does not exist or cannot be written"),
                              output_name);
          return PS_CLI_EXIT_UNREADABLE;
        }
      g_clear_error (&error);
    }

  ps_collectors_load (NULL);
  collector = ps_collectors_create (backend, &error);
  if (collector == NULL)
    {
      ps_cli_print_error ("%s", error->message);
      print_backends ();
      ps_cli_print_usage_hint ();
      return PS_CLI_EXIT_USAGE;
    }

  collector_options = ps_collector_new_default_options (collector);
  if (!set_backend_option (collector, collector_options, "pid", "--pid", options->pid)
      || !set_backend_option (collector, collector_options, "command", "--command", options->command)
      || !set_backend_option (collector, collector_options, "children", "--no-children",
                              options->no_children ? "false" : NULL)
      || !set_backend_option (collector, collector_options, "interval-ms", "--interval-ms", options->interval_ms)
      || !set_backend_option (collector, collector_options, "sysroot", "--sysroot", options->sysroot))
    {
      ps_cli_print_usage_hint ();
      return PS_CLI_EXIT_USAGE;
    }

  store = ps_event_store_new ();
  loop = g_main_loop_new (NULL, FALSE);
  wait.loop = loop;
  g_signal_connect (collector, "lost", G_CALLBACK (on_lost), &warned_lost);
  /* A launched command (or the chosen process) that exits ends the recording */
  g_signal_connect_swapped (collector, "target-exited", G_CALLBACK (g_main_loop_quit), loop);

  ps_collector_start_async (collector, store, collector_options, NULL, on_done, &wait);
  g_main_loop_run (loop);
  if (!ps_collector_start_finish (collector, wait.result, &error))
    {
      g_clear_object (&wait.result);
      /* Translators: %s is why the recording could not start */
      ps_cli_print_error (_("Cannot record: %s"), error->message);
      return PS_CLI_EXIT_UNREADABLE;
    }
  g_clear_object (&wait.result);

  if (options->duration > 0)
    end_source = g_timeout_add ((guint)MIN (options->duration * 1000.0, (double)G_MAXUINT), on_end, loop);
#ifdef G_OS_UNIX
  interrupt_source = g_unix_signal_add (SIGINT, on_end, loop);
  terminate_source = g_unix_signal_add (SIGTERM, on_end, loop);
#endif
  g_main_loop_run (loop);
  g_clear_handle_id (&end_source, g_source_remove);
#ifdef G_OS_UNIX
  g_source_remove (interrupt_source);
  g_source_remove (terminate_source);
#endif

  ps_collector_stop_async (collector, NULL, on_done, &wait);
  g_main_loop_run (loop);
  if (!ps_collector_stop_finish (collector, wait.result, &error))
    {
      g_clear_object (&wait.result);
      ps_cli_print_error (_("Recording failed: %s"), error->message);
      return PS_CLI_EXIT_UNREADABLE;
    }
  g_clear_object (&wait.result);
  print_timing (collector, store);

  if (options->export_output != NULL)
    {
      g_autoptr(GFile) output = g_file_new_for_commandline_arg (options->export_output);

      if (!ps_native_save (store, output, NULL, &error))
        {
          g_autofree char *output_name = g_filename_display_name (options->export_output);
          g_autofree char *stem = ps_cli_display_basename (options->export_output);
          g_autoptr(GError) unsaved_error = NULL;
          g_autoptr(GFile) unsaved = NULL;
          char *dot = strrchr (stem, '.');

          /* Translators: the first %s is a file name, the second why it could not be written */
          ps_cli_print_error (_("Cannot save the recording to “%s”: %s"), output_name, error->message);
          /* The recording is not lost with the file it was to go to */
          if (dot != NULL && dot != stem)
            *dot = '\0';
          unsaved = ps_native_save_unsaved (store, stem, &unsaved_error);
          if (unsaved != NULL)
            {
              g_autofree char *unsaved_name = g_file_get_parse_name (unsaved);

              /* Translators: %s is a file name */
              ps_cli_print_error (_("The recording was saved to “%s” instead"), unsaved_name);
            }
          else
            /* Translators: %s is why the recording could not be saved */
            ps_cli_print_error (_("The recording could not be kept anywhere else either: %s"), unsaved_error->message);
          ps_cli_counters_print (options, store, backend, FALSE);
          return PS_CLI_EXIT_UNREADABLE;
        }
    }

  return ps_cli_counters_print (options, store, backend, FALSE);
}

static gboolean
parse_duration (PsCliOptions *options,
                const char   *value,
                GError      **error)
{
  if (!ps_cli_parse_positive (value, &options->duration))
    {
      ps_cli_set_usage_error (error, _("--duration needs a positive number of seconds, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

/* The backend checks the values it takes (set_backend_option ()) */
static const PsCliOption backend = {
  .long_name = "backend", .value_name = N_("NAME"), .offset = G_STRUCT_OFFSET (PsCliOptions, backend),
  .description = N_("record: the collector to record with (procfs; hwpmc on FreeBSD, perflib on Windows)"),
};

static const PsCliOption pid = {
  .long_name = "pid", .value_name = N_("PID"), .offset = G_STRUCT_OFFSET (PsCliOptions, pid),
  .description = N_("record: the process to watch, with the processes it starts"),
};

static const PsCliOption command = {
  .long_name = "command", .value_name = N_("COMMAND"), .offset = G_STRUCT_OFFSET (PsCliOptions, command),
  .description = N_("record: launch this command and watch it and the processes it starts; the recording ends when they have exited"),
};

static const PsCliOption no_children = {
  .long_name = "no-children", .offset = G_STRUCT_OFFSET (PsCliOptions, no_children),
  .description = N_("record: the process alone, not the processes it starts"),
};

static const PsCliOption interval_ms = {
  .long_name = "interval-ms", .value_name = N_("MS"), .offset = G_STRUCT_OFFSET (PsCliOptions, interval_ms),
  .description = N_("record: milliseconds between readings, kept on average (100)"),
};

static const PsCliOption duration = {
  .long_name = "duration", .value_name = N_("SECONDS"), .parse = parse_duration,
  .description = N_("record: seconds to record (default: until interrupted)"),
};

static const PsCliOption * const record_options[] = {
  PS_CLI_PRINT_OPTIONS,
  &backend,
  &pid,
  &command,
  &no_children,
  &interval_ms,
  &duration,
  &ps_cli_option_output,
  &ps_cli_option_sysroot,
  NULL,
};

const PsCliCommand ps_cli_record_command = {
  .name = "record",
  .summary = N_("record a live run (--pid N or --command CMD and the processes it "
                "starts, --no-children, --interval-ms MS, --duration S) and print its "
                "counters; -o OUT saves it"),
  .files_error = N_("record takes no FILE"),
  .min_files = 0,
  .max_files = 0,
  .options = record_options,
  .run = run_record,
};

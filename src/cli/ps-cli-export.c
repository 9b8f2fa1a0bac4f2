/* ps-cli-export.c — perfscope-cli export: a run in another tool's format
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export FILE --to … [-o OUT]) and exit codes.
 *
 * `--to collapsed` writes folded stacks (ps-folded.h) of the sampled call
 * stacks, for flame-graph tools; `--to pmcstat-callgraph` the callgraph
 * text of pmcstat -G (ps-pmcstat-text.h, --depth frames, 16 by default);
 * `--to csv` the run's main table (ps-export-csv.h): the statistics of
 * `stats`, the function summary of `calltree` (--tree: its top-down tree,
 * --depth levels) or the counters' statistics (--points: every reading);
 * `--to speedscope` and `--to chrome-trace` the spans, stacks, marks and
 * counters those viewers show (ps-export-speedscope.h,
 * ps-export-chrome-trace.h); `--to markdown` and `--to html` a summary
 * of the run for a bug report (ps-export-report.h). The exporters stream
 * to the output. A run with nothing the target holds, for every target
 * but the reports, writes nothing (a file that was there stays as it
 * was), says why and exits with status 1, as `calltree` does for a run
 * without call stacks.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>

#ifdef G_OS_UNIX
#include <gio/gunixoutputstream.h>
#endif

#include "ps-cli.h"
#include "ps-error.h"
#include "ps-export-chrome-trace.h"
#include "ps-export-csv.h"
#include "ps-export-report.h"
#include "ps-export-speedscope.h"
#include "ps-file-output.h"
#include "ps-folded.h"
#include "ps-pmcstat-text.h"
#include "ps-series.h"

/* The targets this build writes, in the order of the help text */
static const char * const supported_targets[] = {
  "csv", "collapsed", "pmcstat-callgraph", "speedscope", "chrome-trace", "markdown", "html", NULL,
};

static char *
supported_list (void)
{
  return g_strjoinv (", ", (char **)supported_targets);
}

/* The sample source of that name, G_MAXUINT if none */
static guint
find_source (PsEventStore *store,
             const char   *name)
{
  guint n = ps_event_store_get_n_sample_sources (store);

  for (guint i = 0; i < n; i++)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (store, (guint16)i);

      if (g_strcmp0 (ps_event_store_get_string (store, source->name), name) == 0)
        return i;
    }

  return G_MAXUINT;
}

static char *
source_names (PsEventStore *store)
{
  g_autoptr(GString) names = g_string_new (NULL);
  guint n = ps_event_store_get_n_sample_sources (store);

  for (guint i = 0; i < n; i++)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (store, (guint16)i);

      if (i > 0)
        g_string_append (names, ", ");
      g_string_append (names, ps_event_store_get_string (store, source->name));
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static gboolean
writes_to_stdout (const PsCliOptions *options)
{
  return options->export_output == NULL || strcmp (options->export_output, "-") == 0;
}

static gboolean
write_stdout (GString *text)
{
  if (fwrite (text->str, 1, text->len, stdout) != text->len || fflush (stdout) != 0)
    {
      ps_cli_print_error (_("Cannot write the standard output"));
      return FALSE;
    }
  return TRUE;
}

typedef gboolean (*WriteFunc) (GOutputStream *stream,
                               gpointer       user_data,
                               GError       **error);

/* Writes -o OUT through a PsFileOutput: OUT is replaced only once
 * complete, and on any failure is left as it was, which the error says */
static gboolean
write_output (const char  *output_path,
              WriteFunc    write,
              gpointer     user_data,
              GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (output_path);
  g_autoptr(PsFileOutput) output = ps_file_output_open (file, NULL, error);

  if (output == NULL)
    return FALSE;
  if (!write (ps_file_output_get_stream (output), user_data, error)
      || !ps_file_output_commit (output, NULL, error))
    {
      if (!g_error_matches (*error, PS_ERROR, PS_ERROR_NO_DATA))
        ps_file_output_note_kept (output, error);
      return FALSE;
    }
  return TRUE;
}

static void
print_write_error (const char   *output_path,
                   const GError *error)
{
  g_autofree char *output_name = g_filename_display_name (output_path);

  /* Translators: the first %s is a file name, the second why it could not be written */
  ps_cli_print_error (_("Cannot write “%s”: %s"), output_name, error->message);
}

static GOutputStream *
open_stdout (void)
{
#ifdef G_OS_UNIX
  fflush (stdout);
  return g_unix_output_stream_new (fileno (stdout), FALSE);
#else
  return g_memory_output_stream_new_resizable ();
#endif
}

/* Streams to -o OUT (write_output ()) or to the standard output, so
 * that the output is never held whole; without -o a failure to write
 * is said here, with -o it is left to the caller, whose message names
 * the file */
static gboolean
write_to_output (const PsCliOptions *options,
                 WriteFunc           write,
                 gpointer            user_data,
                 GError            **error)
{
  g_autoptr(GOutputStream) stream = NULL;
  gboolean ok;

  if (!writes_to_stdout (options))
    return write_output (options->export_output, write, user_data, error);

  stream = open_stdout ();
  ok = write (stream, user_data, error);
#ifndef G_OS_UNIX
  if (ok)
    {
      GMemoryOutputStream *memory = G_MEMORY_OUTPUT_STREAM (stream);
      gsize size = g_memory_output_stream_get_data_size (memory);

      ok = fwrite (g_memory_output_stream_get_data (memory), 1, size, stdout) == size && fflush (stdout) == 0;
      if (!ok)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, g_strerror (errno));
    }
#endif
  return ok;
}

/* Says why writing failed, to the standard output or to -o OUT */
static void
print_output_error (const PsCliOptions *options,
                    const GError       *error)
{
  if (writes_to_stdout (options))
    ps_cli_print_error ("%s: %s", _("Cannot write the standard output"), error->message);
  else
    print_write_error (options->export_output, error);
}

typedef struct
{
  PsEventStore *store;
  guint         source;
  guint64       n_lines;
} FoldedTarget;

static gboolean
write_folded (GOutputStream  *stream,
              gpointer        user_data,
              GError        **error)
{
  FoldedTarget *target = user_data;

  if (!ps_folded_write (target->store, target->source, PS_NONE, stream, &target->n_lines, NULL, error))
    return FALSE;
  /* Every folded line holds a stack and its weight: no line, no text,
   * and a file that was there stays as it was */
  if (target->n_lines == 0)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA, _("The run has no sampled call stacks"));
      return FALSE;
    }
  return TRUE;
}

/* A target the run has nothing for (PS_ERROR_NO_DATA) or a failed write */
static int
report_export_error (const PsCliOptions *options,
                     const char         *file,
                     const GError       *error)
{
  g_autofree char *name = g_filename_display_name (file);

  if (g_error_matches (error, PS_ERROR, PS_ERROR_NO_DATA))
    /* Translators: the first %s is a file name, the second an export target, the third why */
    ps_cli_print_error (_("“%s” has nothing to export as %s: %s"), name, options->export_target, error->message);
  else
    print_output_error (options, error);
  return PS_CLI_EXIT_UNREADABLE;
}

static int
export_collapsed (const PsCliOptions *options,
                  PsEventStore       *store,
                  const char         *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_filename_display_name (file);
  FoldedTarget target = { store, PS_FOLDED_ALL_SOURCES, 0 };

  if (options->export_source != NULL)
    {
      target.source = find_source (store, options->export_source);
      if (target.source == G_MAXUINT)
        {
          g_autofree char *known = source_names (store);

          if (known[0] != '\0')
            /* Translators: the last %s is a list of names */
            return ps_cli_usage_error (_("“%s” has no sample source “%s”; its sources: %s"),
                                       name, options->export_source, known);
          return ps_cli_usage_error (_("“%s” has no sample source “%s”; it has no samples"),
                                     name, options->export_source);
        }
    }

  if (!write_to_output (options, write_folded, &target, &error))
    return report_export_error (options, file, error);
  return PS_CLI_EXIT_OK;
}

static gboolean
write_string (GOutputStream  *stream,
              gpointer        user_data,
              GError        **error)
{
  GString *text = user_data;

  return g_output_stream_write_all (stream, text->str, text->len, NULL, NULL, error);
}

gboolean
ps_cli_write_text (const PsCliOptions *options,
                   GString            *text)
{
  g_autoptr(GError) error = NULL;

  if (writes_to_stdout (options))
    return write_stdout (text);
  if (!write_output (options->export_output, write_string, text, &error))
    {
      print_write_error (options->export_output, error);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  PsEventStore *store;
  guint         depth;
  gboolean      wrote_any;
} CallgraphTarget;

static gboolean
write_callgraph (GOutputStream  *stream,
                 gpointer        user_data,
                 GError        **error)
{
  CallgraphTarget *target = user_data;

  if (!ps_pmcstat_text_write (target->store, target->depth, stream, &target->wrote_any, NULL, error))
    return FALSE;
  if (!target->wrote_any)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA, _("The run has no sampled call stacks"));
      return FALSE;
    }
  return TRUE;
}

static int
export_pmcstat_callgraph (const PsCliOptions *options,
                          PsEventStore       *store,
                          const char         *file)
{
  g_autoptr(GError) error = NULL;
  CallgraphTarget target = { store, options->depth, FALSE };

  if (options->export_source != NULL)
    return ps_cli_usage_error (_("--source does not apply to --to pmcstat-callgraph: it writes every sample source"));
  if (!write_to_output (options, write_callgraph, &target, &error))
    return report_export_error (options, file, error);
  return PS_CLI_EXIT_OK;
}

/* markdown, html: a report has a header and notes even for a run
 * without numbers, so it is always written */
static int
export_report (const PsCliOptions *options,
               PsEventStore       *store,
               const char         *file)
{
  PsExportReportOptions report_options = { PS_EXPORT_REPORT_MARKDOWN, NULL, 0, 0, NULL, 0 };
  g_autofree char *basename = ps_cli_display_basename (file);
  g_autoptr(GString) text = NULL;

  ps_export_report_format_from_string (options->export_target, &report_options.format);
  report_options.file_name = basename;
  report_options.tick_rate_override = options->tick_rate;
  text = ps_export_report_build (store, &report_options);
  if (!ps_cli_write_text (options, text))
    return PS_CLI_EXIT_UNREADABLE;
  return PS_CLI_EXIT_OK;
}

static gboolean
write_csv (const PsCliOptions *options,
           PsEventStore       *store,
           GOutputStream      *stream,
           GError            **error)
{
  PsExportCsvTable table = ps_export_csv_main_table (store);

  if (options->export_tree)
    table = PS_EXPORT_CSV_TREE;
  else if (options->export_points)
    table = PS_EXPORT_CSV_COUNTER_POINTS;

  switch (table)
    {
    case PS_EXPORT_CSV_STATS:
      {
        PsSeriesOptions series_options = { 0 };

        series_options.tick_rate_override = options->tick_rate;
        /* CE PerfLog as PerfToCsv gives it: a row per description */
        if (options->group_by_name)
          return ps_export_csv_ce_descriptions (store, &series_options, stream, NULL, error);
        return ps_export_csv_stats (store, &series_options, stream, NULL, error);
      }

    case PS_EXPORT_CSV_FUNCTIONS:
    case PS_EXPORT_CSV_TREE:
      {
        PsCallTreeOptions tree_options = { PS_NONE, NULL, 0 };
        g_autoptr(PsCallTree) tree = NULL;

        tree_options.ticks_per_second = options->tick_rate;
        tree = ps_call_tree_new_for_store (store, &tree_options, error);
        if (tree == NULL)
          return FALSE;
        if (table == PS_EXPORT_CSV_TREE && !ps_call_tree_has_top_down (tree))
          {
            g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA,
                                 _("The report has no call tree, only a function summary"));
            return FALSE;
          }
        return ps_export_csv_call_tree (tree, options->basis, table == PS_EXPORT_CSV_TREE,
                                        options->depth, stream, NULL, error);
      }

    case PS_EXPORT_CSV_COUNTERS:
    case PS_EXPORT_CSV_COUNTER_POINTS:
      if (ps_export_csv_main_table (store) != PS_EXPORT_CSV_COUNTERS)
        {
          g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA, _("The run has no performance counters"));
          return FALSE;
        }
      return ps_export_csv_counters (store, table == PS_EXPORT_CSV_COUNTER_POINTS, stream, NULL, error);

    case PS_EXPORT_CSV_NONE:
    default:
      g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA,
                           _("The run has neither measurements, spans, call stacks nor counters"));
      return FALSE;
    }
}

/* Whether the run has what the target holds, so that an empty run writes
 * no file at all */
static gboolean
check_data (const PsCliOptions *options,
            PsEventStore       *store,
            GError            **error)
{
  if (strcmp (options->export_target, "speedscope") == 0 && !ps_export_speedscope_can_export (store))
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA,
                           ps_event_store_get_n_report_rows (store) > 0
                           ? _("The report has no call tree, only a function summary")
                           : _("The run has neither spans, sampled call stacks nor a call-tree report"));
      return FALSE;
    }
  if (strcmp (options->export_target, "chrome-trace") == 0)
    {
      PsChromeTraceCounts counts;

      if (!ps_export_chrome_trace_count (store, &counts))
        {
          g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA,
                               counts.untimed_samples > 0
                               ? _("The run’s samples have no times: a trace has no place for them")
                               : _("The run has neither spans, marks, counter readings nor timed samples"));
          return FALSE;
        }
    }
  if (strcmp (options->export_target, "csv") == 0 && ps_export_csv_main_table (store) == PS_EXPORT_CSV_NONE)
    {
      g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA,
                           _("The run has neither measurements, spans, call stacks nor counters"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_target (const PsCliOptions *options,
              PsEventStore       *store,
              const char         *file,
              GOutputStream      *stream,
              GError            **error)
{
  g_autofree char *basename = ps_cli_display_basename (file);

  if (strcmp (options->export_target, "csv") == 0)
    return write_csv (options, store, stream, error);
  if (strcmp (options->export_target, "speedscope") == 0)
    return ps_export_speedscope (store, basename, stream, NULL, error);
  return ps_export_chrome_trace (store, basename, stream, NULL, error);
}

typedef struct
{
  const PsCliOptions *options;
  PsEventStore       *store;
  const char         *file;
} StreamedTarget;

static gboolean
write_streamed (GOutputStream  *stream,
                gpointer        user_data,
                GError        **error)
{
  StreamedTarget *target = user_data;

  return write_target (target->options, target->store, target->file, stream, error);
}

/* csv, speedscope, chrome-trace: streamed to the output */
static int
export_streamed (const PsCliOptions *options,
                 PsEventStore       *store,
                 const char         *file)
{
  g_autoptr(GError) error = NULL;
  StreamedTarget target = { options, store, file };

  if (!check_data (options, store, &error))
    return report_export_error (options, file, error);

  /* Nothing was written on an error: a file that was there is as it was */
  if (!write_to_output (options, write_streamed, &target, &error))
    return report_export_error (options, file, error);

  return PS_CLI_EXIT_OK;
}

static int
run_export (const PsCliOptions  *options,
            char               **files)
{
  const char *file = files[0];
  g_autoptr(PsEventStore) store = NULL;
  g_autofree char *supported = supported_list ();
  gboolean partial;
  int status;

  g_return_val_if_fail (options != NULL, PS_CLI_EXIT_USAGE);

  if (options->export_target == NULL)
    /* Translators: %s is a list of export targets */
    return ps_cli_usage_error (_("export needs --to TARGET; this version writes: %s"), supported);

  if (!g_strv_contains (supported_targets, options->export_target))
    /* Translators: the first %s is an export target, the second a list of them */
    return ps_cli_usage_error (_("Unknown export target “%s”; this version writes: %s"),
                               options->export_target, supported);
  if ((options->export_tree || options->export_points) && strcmp (options->export_target, "csv") != 0)
    return ps_cli_usage_error (_("--tree and --points apply to --to csv only"));
  if (options->export_tree && options->export_points)
    return ps_cli_usage_error (_("--tree and --points do not go together: a run has a call tree or counters"));
  if (options->export_source != NULL && strcmp (options->export_target, "collapsed") != 0
      && strcmp (options->export_target, "pmcstat-callgraph") != 0)
    return ps_cli_usage_error (_("--source applies to --to collapsed only"));

  store = ps_cli_load (options, file);
  if (store == NULL)
    return PS_CLI_EXIT_UNREADABLE;
  partial = ps_cli_report_partial (store, file);

  if (strcmp (options->export_target, "pmcstat-callgraph") == 0)
    status = export_pmcstat_callgraph (options, store, file);
  else if (strcmp (options->export_target, "collapsed") == 0)
    status = export_collapsed (options, store, file);
  else if (strcmp (options->export_target, "markdown") == 0 || strcmp (options->export_target, "html") == 0)
    status = export_report (options, store, file);
  else
    status = export_streamed (options, store, file);
  if (status == PS_CLI_EXIT_OK && partial)
    return PS_CLI_EXIT_PARTIAL;
  return status;
}

static const PsCliOption tree = {
  .long_name = "tree", .offset = G_STRUCT_OFFSET (PsCliOptions, export_tree),
  .description = N_("export --to csv: the top-down call tree instead of the function summary"),
};

static const PsCliOption points = {
  .long_name = "points", .offset = G_STRUCT_OFFSET (PsCliOptions, export_points),
  .description = N_("export --to csv: every counter reading instead of one row of statistics per counter"),
};

static const PsCliOption source = {
  .long_name = "source", .value_name = N_("NAME"), .offset = G_STRUCT_OFFSET (PsCliOptions, export_source),
  .description = N_("export: only the samples of this sample source (a PMC event)"),
};

static const PsCliOption * const export_options[] = {
  PS_CLI_READ_OPTIONS,
  &ps_cli_option_to,
  &ps_cli_option_output,
  &tree,
  &points,
  &source,
  &ps_cli_option_group_by_name,
  &ps_cli_option_basis,
  &ps_cli_option_depth,
  NULL,
};

const PsCliCommand ps_cli_export_command = {
  .name = "export",
  .files = "FILE",
  .summary = N_("the run in another tool’s format (--to): its main table as CSV, folded call stacks, "
                "speedscope, Chrome trace, or a summary for a bug report in Markdown or HTML"),
  .files_error = N_("export needs exactly one FILE"),
  .min_files = 1,
  .max_files = 1,
  .options = export_options,
  .run = run_export,
};

/* ps-cli-export.c — perfscope-cli export: a run in another tool's format
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export FILE --to … [-o OUT]) and exit codes.
 *
 * `--to collapsed` writes folded stacks (ps-folded.h) of the sampled call
 * stacks, for flame-graph tools; `--to pmcstat-callgraph` the callgraph
 * text of pmcstat -G (ps-pmcstat-text.h, --depth frames, 16 by default).
 * The other targets of the contract (csv, speedscope, chrome-trace) are
 * not in this version and are refused as bad usage, before the file is
 * read.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-folded.h"
#include "ps-pmcstat-text.h"

/* The targets this build writes, in the order of the help text */
static const char * const supported_targets[] = { "collapsed", "pmcstat-callgraph", NULL };

/* Targets of the contract (cli.md) that are later work */
static const char * const later_targets[] = { "csv", "speedscope", "chrome-trace", NULL };

static int
usage_error (const char *message)
{
  ps_cli_print_error ("%s", message);
  /* Translators: %s is the program name */
  fprintf (stderr, _("Try “%s --help” for more information.\n"), PS_CLI_PROGRAM);
  return PS_CLI_EXIT_USAGE;
}

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

static int
export_collapsed (const PsCliOptions *options,
                  PsEventStore       *store,
                  const char         *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_filename_display_name (file);
  guint source = PS_FOLDED_ALL_SOURCES;
  gboolean wrote_nothing;

  if (options->export_source != NULL)
    {
      source = find_source (store, options->export_source);
      if (source == G_MAXUINT)
        {
          g_autofree char *known = source_names (store);
          g_autofree char *message = NULL;

          if (known[0] != '\0')
            /* Translators: the last %s is a list of names */
            message = g_strdup_printf (_("“%s” has no sample source “%s”; its sources: %s"),
                                       name, options->export_source, known);
          else
            message = g_strdup_printf (_("“%s” has no sample source “%s”; it has no samples"),
                                       name, options->export_source);
          return usage_error (message);
        }
    }

  if (writes_to_stdout (options))
    {
      g_autoptr(GString) text = ps_folded_build (store, source, PS_NONE);

      if (!write_stdout (text))
        return PS_CLI_EXIT_UNREADABLE;
      /* Every folded line holds a stack and its weight: no line, no text */
      wrote_nothing = text->len == 0;
    }
  else
    {
      g_autoptr(GFile) output = g_file_new_for_commandline_arg (options->export_output);
      g_autoptr(GFileOutputStream) stream = g_file_replace (output, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
      guint64 n_lines = 0;

      if (stream == NULL
          || !ps_folded_write (store, source, PS_NONE, G_OUTPUT_STREAM (stream), &n_lines, NULL, &error)
          || !g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, &error))
        {
          g_autofree char *output_name = g_filename_display_name (options->export_output);

          ps_cli_print_error (_("Cannot write “%s”: %s"), output_name, error->message);
          return PS_CLI_EXIT_UNREADABLE;
        }
      wrote_nothing = n_lines == 0;
    }

  if (wrote_nothing)
    ps_cli_print_error (_("“%s” has no sampled call stacks; nothing was written"), name);

  return PS_CLI_EXIT_OK;
}

static gboolean
write_text (const PsCliOptions *options,
            GString            *text)
{
  g_autoptr(GError) error = NULL;

  if (writes_to_stdout (options))
    return write_stdout (text);
  if (!g_file_set_contents (options->export_output, text->str, text->len, &error))
    {
      ps_cli_print_error (_("Cannot write “%s”: %s"), options->export_output, error->message);
      return FALSE;
    }
  return TRUE;
}

static int
export_pmcstat_callgraph (const PsCliOptions *options,
                          PsEventStore       *store,
                          const char         *file)
{
  g_autoptr(GString) text = ps_pmcstat_text_build (store, options->depth);
  g_autofree char *name = g_filename_display_name (file);

  if (options->export_source != NULL)
    return usage_error (_("--source does not apply to --to pmcstat-callgraph: it writes every sample source"));
  if (!write_text (options, text))
    return PS_CLI_EXIT_UNREADABLE;
  if (text->len == 0)
    ps_cli_print_error (_("“%s” has no sampled call stacks; nothing was written"), name);
  return PS_CLI_EXIT_OK;
}

int
ps_cli_export (const PsCliOptions *options,
               const char         *file)
{
  g_autoptr(PsEventStore) store = NULL;
  g_autofree char *supported = supported_list ();
  gboolean partial;
  int status;

  g_return_val_if_fail (options != NULL, PS_CLI_EXIT_USAGE);

  if (options->export_target == NULL)
    {
      /* Translators: %s is a list of export targets */
      g_autofree char *message = g_strdup_printf (_("export needs --to TARGET; this version writes: %s"), supported);

      return usage_error (message);
    }

  if (!g_strv_contains (supported_targets, options->export_target))
    {
      g_autofree char *message = NULL;

      if (g_strv_contains (later_targets, options->export_target))
        /* Translators: the first %s is an export target, the second a list of them */
        message = g_strdup_printf (_("--to %s is not available yet in this version; it writes: %s"),
                                   options->export_target, supported);
      else
        message = g_strdup_printf (_("Unknown export target “%s”; this version writes: %s"),
                                   options->export_target, supported);
      return usage_error (message);
    }

  store = ps_cli_load (options, file);
  if (store == NULL)
    return PS_CLI_EXIT_UNREADABLE;
  partial = ps_cli_report_partial (store, file);

  if (strcmp (options->export_target, "pmcstat-callgraph") == 0)
    status = export_pmcstat_callgraph (options, store, file);
  else
    status = export_collapsed (options, store, file);
  if (status == PS_CLI_EXIT_OK && partial)
    return PS_CLI_EXIT_PARTIAL;
  return status;
}

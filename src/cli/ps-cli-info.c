/* ps-cli-info.c — perfscope-cli info: what was loaded
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "info"
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-util.h"

static const char *
severity_to_string (PsSeverity severity)
{
  switch (severity)
    {
    case PS_SEVERITY_INFO:    return "info";
    case PS_SEVERITY_WARNING: return "warning";
    case PS_SEVERITY_ERROR:   return "error";
    default:                  return "unknown";
    }
}

static guint64
get_n_report_rows (PsEventStore *store)
{
  return ps_event_store_get_n_report_rows (store);
}

/* The readings with a value: a blank cell of a PDH log or the first
 * reading of a rate is a reading without one, which `counters` leaves out */
static guint64
get_n_counter_readings (PsEventStore *store)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n = 0;

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsCounterStats *stats;

      if (ps_event_store_get_track (store, t)->kind != PS_TRACK_COUNTER)
        continue;
      stats = ps_event_store_get_counter_stats (store, t);
      if (stats != NULL)
        n += stats->n_values;
    }
  return n;
}

/* The same among the readings kept one by one */
static guint64
get_n_counter_values (PsEventStore *store)
{
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  guint64 n = 0;

  for (guint64 i = 0; i < n_values; i++)
    n += (ps_event_store_get_counter_value (store, i)->flags & PS_COUNTER_FLAG_MISSING) == 0;
  return n;
}

/* The event counts: the JSON "counts" object and the text "Events:" table */
static const struct
{
  const char *member;
  const char *label;
  guint64   (*get) (PsEventStore *store);
} event_counts[] = {
  { "spans",          N_("Spans"),          ps_event_store_get_n_spans },
  { "samples",        N_("Samples"),        ps_event_store_get_n_samples },
  { "counter_readings", N_("Counter readings"), get_n_counter_readings },
  { "counter_values", N_("Counter readings kept"), get_n_counter_values },
  { "marks",          N_("Marks"),          ps_event_store_get_n_marks },
  { "measurements",   N_("Measurements"),   ps_event_store_get_n_measurements },
  { "report_rows",    N_("Report rows"),    get_n_report_rows },
};

/* The rate in effect at the session's first measurement, 0 if none */
static double
session_tick_rate (PsEventStore        *store,
                   guint32              session,
                   const PsSessionInfo *info)
{
  if (ps_event_store_get_n_tick_rates (store, session) == 0)
    return 0;
  return ps_event_store_get_tick_rate (store, session, info->first_measurement);
}

/* An empty object for a session that does not exist (a file without any) */
static void
write_metadata_object (PsCliJsonStream *stream,
                       PsEventStore    *store,
                       guint32          session)
{
  g_autoptr(GArray) entries = ps_event_store_list_metadata (store, session);

  ps_cli_json_stream_begin_object (stream, "metadata");
  for (guint i = 0; i < entries->len; i++)
    {
      const PsMetadataEntry *entry = &g_array_index (entries, PsMetadataEntry, i);

      ps_cli_json_stream_string (stream, entry->key, entry->value);
    }
  ps_cli_json_stream_end (stream);
}

/* Written out in pieces of about this size, so that a file of many
 * sessions or warnings never waits as text */
#define WRITE_OUT_BYTES (1 << 20)

/* The info object, written as it is made: a log of 50 000 short sessions
 * would take its JSON many times over as json-glib nodes */
static void
write_info (PsCliJsonStream    *stream,
            const PsCliOptions *options,
            PsEventStore       *store,
            const char         *path)
{
  guint n_sessions = ps_event_store_get_n_sessions (store);
  guint n_warnings = ps_event_store_get_n_warnings (store);
  gint64 begin_ns, end_ns;

  ps_cli_json_stream_begin_object (stream, NULL);

  ps_cli_stream_run_members (stream, store, path, TRUE);

  /* The first session's header, the common case of one run per file */
  write_metadata_object (stream, store, 0);

  ps_cli_json_stream_begin_array (stream, "sessions");
  for (guint s = 0; s < n_sessions; s++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, s);
      double rate = session_tick_rate (store, s, info);

      ps_cli_json_stream_begin_object (stream, NULL);
      ps_cli_json_stream_int (stream, "index", s);
      write_metadata_object (stream, store, s);
      ps_cli_json_stream_int (stream, "first_line", (gint64)info->first_line);
      ps_cli_json_stream_int (stream, "last_line", (gint64)info->last_line);
      ps_cli_json_stream_boolean (stream, "implicit", info->implicit);
      if (rate > 0)
        ps_cli_json_stream_double (stream, "tick_rate", rate);
      else
        ps_cli_json_stream_null (stream, "tick_rate");
      ps_cli_json_stream_end (stream);
      ps_cli_json_write_out (stream->out, WRITE_OUT_BYTES);
    }
  ps_cli_json_stream_end (stream);

  if (options->tick_rate > 0)
    ps_cli_json_stream_double (stream, "tick_rate_override", options->tick_rate);

  ps_cli_json_stream_begin_object (stream, "counts");
  for (guint i = 0; i < G_N_ELEMENTS (event_counts); i++)
    ps_cli_json_stream_int (stream, event_counts[i].member, (gint64)event_counts[i].get (store));
  ps_cli_json_stream_end (stream);

  ps_cli_json_stream_int (stream, "tracks", ps_event_store_get_n_tracks (store));

  /* Only runs with samples have it, so the other formats' output stays as it was */
  if (ps_event_store_get_n_sample_sources (store) > 0)
    {
      ps_cli_json_stream_begin_array (stream, "sample_sources");
      for (guint i = 0; i < ps_event_store_get_n_sample_sources (store); i++)
        {
          const PsSampleSource *source = ps_event_store_get_sample_source (store, (guint16)i);

          ps_cli_json_stream_begin_object (stream, NULL);
          ps_cli_json_stream_string (stream, "name", ps_event_store_get_string (store, source->name));
          ps_cli_json_stream_int (stream, "samples", (gint64)source->n_samples);
          if (source->rate > 0)
            ps_cli_json_stream_int (stream, "rate", (gint64)source->rate);
          else
            ps_cli_json_stream_null (stream, "rate");
          ps_cli_json_stream_end (stream);
        }
      ps_cli_json_stream_end (stream);
    }

  if (ps_event_store_get_time_range (store, &begin_ns, &end_ns))
    {
      ps_cli_json_stream_begin_object (stream, "time_range_ns");
      ps_cli_json_stream_int (stream, "begin", begin_ns);
      ps_cli_json_stream_int (stream, "end", end_ns);
      ps_cli_json_stream_end (stream);
    }
  else
    ps_cli_json_stream_null (stream, "time_range_ns");

  ps_cli_json_stream_begin_array (stream, "warnings");
  for (guint i = 0; i < n_warnings; i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      ps_cli_json_stream_begin_object (stream, NULL);
      /* Text formats give a line, binary ones a byte offset (cli.md) */
      if (warning.line > 0)
        ps_cli_json_stream_int (stream, "line", (gint64)warning.line);
      if (warning.offset != PS_NO_POSITION)
        ps_cli_json_stream_int (stream, "offset", (gint64)warning.offset);
      ps_cli_json_stream_string (stream, "code", warning.code);
      ps_cli_json_stream_string (stream, "message", warning.message);
      ps_cli_json_stream_string (stream, "severity", severity_to_string (warning.severity));
      if (warning.session != PS_NONE)
        ps_cli_json_stream_int (stream, "session", warning.session);
      ps_cli_json_stream_end (stream);
      ps_cli_json_write_out (stream->out, WRITE_OUT_BYTES);
    }
  ps_cli_json_stream_end (stream);
  ps_cli_json_stream_int (stream, "warnings_total", (gint64)ps_event_store_get_n_warnings_raised (store));

  ps_cli_json_stream_int (stream, "bytes", (gint64)ps_event_store_get_bytes_read (store));
  ps_cli_json_stream_int (stream, "memory_bytes", (gint64)ps_event_store_get_memory_size (store));

  ps_cli_json_stream_end (stream);
}

static char *
count_text (guint64 count)
{
  return g_strdup_printf ("%" PRIu64, count);
}

static void
print_metadata_table (PsEventStore *store,
                      guint32       session)
{
  g_autoptr(GArray) entries = ps_event_store_list_metadata (store, session);
  g_autoptr(PsCliTable) table = ps_cli_table_new (2);

  for (guint i = 0; i < entries->len; i++)
    {
      const PsMetadataEntry *entry = &g_array_index (entries, PsMetadataEntry, i);

      ps_cli_table_add_row (table, entry->key, entry->value, NULL);
    }
  ps_cli_table_print (table, stdout, "    ");
}

static void
print_info_text (const PsCliOptions *options,
                 PsEventStore       *store,
                 const char         *path)
{
  g_autoptr(PsCliTable) summary = ps_cli_table_new (2);
  g_autoptr(PsCliTable) counts = ps_cli_table_new (2);
  g_autofree char *file_name = ps_cli_display_basename (path);
  guint n_sessions = ps_event_store_get_n_sessions (store);
  guint n_warnings = ps_event_store_get_n_warnings (store);
  guint64 bytes = ps_event_store_get_bytes_read (store);
  g_autofree char *size = g_format_size (bytes);
  gint64 begin_ns, end_ns;
  const GError *error = ps_event_store_get_error (store);
  const char *origin;
  const char *format = ps_cli_run_format (store, &origin);

  ps_cli_table_add_row (summary, _("File:"), file_name, NULL);
  ps_cli_table_add_row (summary, _("Format:"), format, NULL);
  if (origin != NULL)
    ps_cli_table_add_row (summary, _("Origin:"), origin, NULL);
  ps_cli_table_add_row (summary, _("Complete:"),
                        ps_event_store_is_complete (store) ? _("yes") : _("no"), NULL);
  if (error != NULL)
    ps_cli_table_add_row (summary, _("Error:"), error->message, NULL);
  /* Translators: "1.9 kB (1934 bytes)" */
  ps_cli_table_add_row_take (summary, g_strdup (_("Size:")),
                             g_strdup_printf (_("%s (%llu bytes)"), size, (unsigned long long) bytes),
                             NULL);
  ps_cli_table_add_row_take (summary, g_strdup (_("Memory:")),
                             ps_util_format_bytes ((double)ps_event_store_get_memory_size (store)),
                             NULL);
  ps_cli_table_add_row_take (summary, g_strdup (_("Tracks:")),
                             count_text (ps_event_store_get_n_tracks (store)), NULL);
  if (ps_event_store_get_time_range (store, &begin_ns, &end_ns))
    ps_cli_table_add_row_take (summary, g_strdup (_("Time range (ns):")),
                               g_strdup_printf ("%" PRId64 " – %" PRId64, begin_ns, end_ns),
                               NULL);
  else
    ps_cli_table_add_row (summary, _("Time range (ns):"), _("none"), NULL);
  if (options->tick_rate > 0)
    {
      g_autoptr(GString) rate = g_string_new (NULL);

      ps_export_append_json_number (rate, options->tick_rate);
      ps_cli_table_add_row (summary, _("Tick rate override (Hz):"), rate->str, NULL);
    }
  ps_cli_table_print (summary, stdout, "");

  for (guint s = 0; s < n_sessions; s++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, s);

      printf ("\n");
      /* Translators: "Session 0 (lines 1–29)" */
      printf (_("Session %u (lines %llu–%llu)%s\n"),
              s, (unsigned long long) info->first_line, (unsigned long long) info->last_line,
              info->implicit ? _(", without a header") : "");
      print_metadata_table (store, s);
    }

  printf ("\n%s\n", _("Events:"));
  ps_cli_table_set_alignment (counts, "lr");
  for (guint i = 0; i < G_N_ELEMENTS (event_counts); i++)
    ps_cli_table_add_row_take (counts, g_strdup (_(event_counts[i].label)),
                               count_text (event_counts[i].get (store)), NULL);
  ps_cli_table_print (counts, stdout, "    ");

  if (ps_event_store_get_n_sample_sources (store) > 0)
    {
      g_autoptr(PsCliTable) sources = ps_cli_table_new (3);

      printf ("\n%s\n", _("Sample sources:"));
      ps_cli_table_set_alignment (sources, "lrr");
      ps_cli_table_add_row (sources, _("Name"), _("Samples"), _("Rate"), NULL);
      for (guint i = 0; i < ps_event_store_get_n_sample_sources (store); i++)
        {
          const PsSampleSource *source = ps_event_store_get_sample_source (store, (guint16)i);

          ps_cli_table_add_row_take (sources, g_strdup (ps_event_store_get_string (store, source->name)),
                                     count_text (source->n_samples),
                                     source->rate > 0 ? count_text (source->rate) : g_strdup ("–"),
                                     NULL);
        }
      ps_cli_table_print (sources, stdout, "    ");
    }

  printf ("\n");
  printf (_("Warnings: %llu raised, %u shown\n"),
          (unsigned long long) ps_event_store_get_n_warnings_raised (store), n_warnings);
  if (n_warnings > 0)
    {
      g_autoptr(PsCliTable) warnings = ps_cli_table_new (4);

      ps_cli_table_set_alignment (warnings, "rlll");
      ps_cli_table_add_row (warnings, _("Line"), _("Severity"), _("Code"), _("Message"), NULL);
      for (guint i = 0; i < n_warnings; i++)
        {
          PsWarning warning;

          ps_event_store_get_warning (store, i, &warning);
          ps_cli_table_add_row_take (warnings,
                                     warning.line > 0 ? count_text (warning.line) : g_strdup ("–"),
                                     g_strdup (severity_to_string (warning.severity)),
                                     g_strdup (warning.code),
                                     g_strdup (warning.message),
                                     NULL);
        }
      ps_cli_table_print (warnings, stdout, "    ");
    }
}

static int
run_info (const PsCliOptions  *options,
          char               **files)
{
  g_autoptr(GString) out = g_string_new (NULL);
  guint n_files = g_strv_length (files);
  guint n_read = 0;
  gboolean any_unreadable = FALSE;
  gboolean any_partial = FALSE;
  PsCliJsonStream stream;

  /* One file is one object, several an array of those read */
  ps_cli_json_stream_init (&stream, out, 0);
  if (!options->text && n_files > 1)
    ps_cli_json_stream_begin_array (&stream, NULL);

  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(PsEventStore) store = ps_cli_load (options, files[i]);

      if (store == NULL)
        {
          any_unreadable = TRUE;
          continue;
        }

      if (ps_cli_report_partial (store, files[i]))
        any_partial = TRUE;

      if (options->text)
        {
          if (n_read > 0)
            printf ("\n");
          print_info_text (options, store, files[i]);
        }
      else
        {
          write_info (&stream, options, store, files[i]);
          ps_cli_json_write_out (out, WRITE_OUT_BYTES);
        }
      n_read++;
    }

  if (!options->text && n_files > 1)
    ps_cli_json_stream_end (&stream);
  if (!options->text && (n_files > 1 || n_read == 1))
    {
      g_string_append_c (out, '\n');
      ps_cli_json_write_out (out, 0);
      fflush (stdout);
    }

  if (any_unreadable)
    return PS_CLI_EXIT_UNREADABLE;
  if (any_partial)
    return PS_CLI_EXIT_PARTIAL;
  return PS_CLI_EXIT_OK;
}

static const PsCliOption * const info_options[] = {
  PS_CLI_READ_OPTIONS,
  PS_CLI_PRINT_OPTIONS,
  NULL,
};

const PsCliCommand ps_cli_info_command = {
  .name = "info",
  .files = "FILE…",
  .summary = N_("what was loaded"),
  .files_error = N_("info needs at least one FILE"),
  .min_files = 1,
  .max_files = G_MAXUINT,
  .options = info_options,
  .run = run_info,
};

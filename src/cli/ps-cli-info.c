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

/* The event counts: the JSON "counts" object and the text "Events:" table */
static const struct
{
  const char *member;
  const char *label;
  guint64   (*get) (PsEventStore *store);
} event_counts[] = {
  { "spans",          N_("Spans"),          ps_event_store_get_n_spans },
  { "samples",        N_("Samples"),        ps_event_store_get_n_samples },
  { "counter_readings", N_("Counter readings"), ps_event_store_get_n_counter_readings },
  { "counter_values", N_("Counter readings kept"), ps_event_store_get_n_counter_values },
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
add_metadata_object (JsonBuilder  *builder,
                     PsEventStore *store,
                     guint32       session)
{
  g_autoptr(GArray) entries = ps_event_store_list_metadata (store, session);

  json_builder_begin_object (builder);
  for (guint i = 0; i < entries->len; i++)
    {
      const PsMetadataEntry *entry = &g_array_index (entries, PsMetadataEntry, i);

      json_builder_set_member_name (builder, entry->key);
      json_builder_add_string_value (builder, entry->value);
    }
  json_builder_end_object (builder);
}

static JsonNode *
info_to_json (const PsCliOptions *options,
              PsEventStore       *store,
              const char         *path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n_sessions = ps_event_store_get_n_sessions (store);
  guint n_warnings = ps_event_store_get_n_warnings (store);
  gint64 begin_ns, end_ns;

  json_builder_begin_object (builder);

  ps_cli_add_run_members (builder, store, path, TRUE);

  /* The first session's header, the common case of one run per file */
  json_builder_set_member_name (builder, "metadata");
  add_metadata_object (builder, store, 0);

  json_builder_set_member_name (builder, "sessions");
  json_builder_begin_array (builder);
  for (guint s = 0; s < n_sessions; s++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, s);
      double rate = session_tick_rate (store, s, info);

      json_builder_begin_object (builder);
      ps_cli_json_add_int (builder, "index", s);
      json_builder_set_member_name (builder, "metadata");
      add_metadata_object (builder, store, s);
      ps_cli_json_add_int (builder, "first_line", (gint64)info->first_line);
      ps_cli_json_add_int (builder, "last_line", (gint64)info->last_line);
      json_builder_set_member_name (builder, "implicit");
      json_builder_add_boolean_value (builder, info->implicit);
      json_builder_set_member_name (builder, "tick_rate");
      if (rate > 0)
        json_builder_add_double_value (builder, rate);
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  if (options->tick_rate > 0)
    {
      json_builder_set_member_name (builder, "tick_rate_override");
      json_builder_add_double_value (builder, options->tick_rate);
    }

  json_builder_set_member_name (builder, "counts");
  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (event_counts); i++)
    ps_cli_json_add_int (builder, event_counts[i].member, (gint64)event_counts[i].get (store));
  json_builder_end_object (builder);

  ps_cli_json_add_int (builder, "tracks", ps_event_store_get_n_tracks (store));

  /* Only runs with samples have it, so the other formats' output stays as it was */
  if (ps_event_store_get_n_sample_sources (store) > 0)
    {
      json_builder_set_member_name (builder, "sample_sources");
      json_builder_begin_array (builder);
      for (guint i = 0; i < ps_event_store_get_n_sample_sources (store); i++)
        {
          const PsSampleSource *source = ps_event_store_get_sample_source (store, (guint16)i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, ps_event_store_get_string (store, source->name));
          ps_cli_json_add_int (builder, "samples", (gint64)source->n_samples);
          json_builder_set_member_name (builder, "rate");
          if (source->rate > 0)
            json_builder_add_int_value (builder, (gint64)source->rate);
          else
            json_builder_add_null_value (builder);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  json_builder_set_member_name (builder, "time_range_ns");
  if (ps_event_store_get_time_range (store, &begin_ns, &end_ns))
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "begin");
      json_builder_add_int_value (builder, begin_ns);
      json_builder_set_member_name (builder, "end");
      json_builder_add_int_value (builder, end_ns);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_warnings; i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      json_builder_begin_object (builder);
      /* Text formats give a line, binary ones a byte offset (cli.md) */
      if (warning.line > 0)
        ps_cli_json_add_int (builder, "line", (gint64)warning.line);
      if (warning.offset != PS_NO_POSITION)
        ps_cli_json_add_int (builder, "offset", (gint64)warning.offset);
      json_builder_set_member_name (builder, "code");
      json_builder_add_string_value (builder, warning.code);
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, warning.message);
      json_builder_set_member_name (builder, "severity");
      json_builder_add_string_value (builder, severity_to_string (warning.severity));
      if (warning.session != PS_NONE)
        ps_cli_json_add_int (builder, "session", warning.session);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  ps_cli_json_add_int (builder, "warnings_total", (gint64)ps_event_store_get_n_warnings_raised (store));

  ps_cli_json_add_int (builder, "bytes", (gint64)ps_event_store_get_bytes_read (store));
  ps_cli_json_add_int (builder, "memory_bytes", (gint64)ps_event_store_get_memory_size (store));

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
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

  ps_cli_table_add_row (summary, _("File:"), file_name, NULL);
  ps_cli_table_add_row (summary, _("Format:"), ps_event_store_get_format (store), NULL);
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

int
ps_cli_info (const PsCliOptions  *options,
             char               **files)
{
  g_autoptr(JsonArray) results = json_array_new ();
  guint n_files = g_strv_length (files);
  guint n_read = 0;
  gboolean any_unreadable = FALSE;
  gboolean any_partial = FALSE;

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
        json_array_add_element (results, info_to_json (options, store, files[i]));
      n_read++;
    }

  if (!options->text)
    {
      if (n_files == 1)
        {
          if (n_read == 1)
            ps_cli_json_print (json_array_get_element (results, 0));
        }
      else
        {
          g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);

          json_node_set_array (root, results);
          ps_cli_json_print (root);
        }
    }

  if (any_unreadable)
    return PS_CLI_EXIT_UNREADABLE;
  if (any_partial)
    return PS_CLI_EXIT_PARTIAL;
  return PS_CLI_EXIT_OK;
}

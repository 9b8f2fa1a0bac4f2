/* ps-cli-stats.c — perfscope-cli stats: per-series statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "stats", ce-perflog.md §4.5. The numbers are those of
 * ps_series_collect(), which the GUI shows too; nothing is computed here.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-number.h"
#include "ps-series.h"
#include "ps-ce-description.h"
#include "ps-util.h"

/* Most series of a big log have one value or a few, so that neighbouring
 * statistics are often the same number: its text is made once */
static void
write_stats_members (PsCliJsonStream *stream,
                     const PsStats   *stats)
{
  static const char * const names[] = { "sum", "min", "max", "mean", "median", "p90", "p95", "p99", "stddev" };
  const double values[] = {
    stats->sum, stats->min, stats->max, stats->mean, stats->median,
    stats->p90, stats->p95, stats->p99, stats->stddev,
  };
  char text[PS_NUMBER_BUF];
  int length = 0;

  ps_cli_json_stream_int (stream, "count", (gint64)stats->count);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      /* 0 and -0 have the same text */
      if (i == 0 || !(values[i] == values[i - 1]))
        length = ps_export_format_json_number (values[i], text);
      ps_cli_json_stream_literal (stream, names[i], text, (gsize)length);
    }
}

/* Durations in seconds also have their statistics in ticks; these are
 * the durations with unit "s" (ps-series.c) */
static gboolean
has_tick_stats (const PsSeries *series)
{
  return series->kind == PS_SERIES_DURATION && series->has_seconds;
}

/* Appends the description with %AVG%, %MIN%, %MAX% and %key%
 * substituted (ce-perflog.md §4.5); placeholders stay when there are no
 * seconds. The text is as raw as the description. */
static void
append_expanded_description (GString        *out,
                             const PsSeries *series)
{
  PsCeDescriptionStats stats = { 0 };

  if (has_tick_stats (series) && series->stats.count > 0)
    {
      stats.have_seconds = TRUE;
      stats.mean_s = series->stats.mean;
      stats.min_s = series->stats.min;
      stats.max_s = series->stats.max;
    }

  ps_ce_description_append_expanded (out, series->name, &stats);
}

/* The same, as text to show */
static char *
expand_description (const PsSeries *series)
{
  g_autoptr(GString) expanded = g_string_new (NULL);

  append_expanded_description (expanded, series);
  return ps_util_display_text (expanded->str, expanded->len);
}

/* The members every series begins and ends with */
static void
write_series_begin (PsCliJsonStream *stream,
                    const PsSeries  *series)
{
  ps_cli_json_stream_begin_object (stream, NULL);
  ps_cli_json_stream_string (stream, "name", series->name);
  ps_cli_json_stream_string (stream, "kind", ps_series_kind_to_string (series->kind));
  ps_cli_json_stream_string (stream, "unit", series->unit);
}

static void
write_series_end (PsCliJsonStream *stream,
                  const PsSeries  *series)
{
  ps_cli_json_stream_int (stream, "excluded", (gint64)series->n_excluded);
  ps_cli_json_stream_int (stream, "flagged", (gint64)series->n_flagged);
  ps_cli_json_stream_end (stream);
}

/* Spans: scope name, context of a logical scope, the threads it ran on,
 * statistics and self time (docs/cli.md "stats", rtl-logfile.md §4.3) */
static void
write_span_series (PsCliJsonStream *stream,
                   PsEventStore    *store,
                   const PsSeries  *series)
{
  write_series_begin (stream, series);
  ps_cli_json_stream_int (stream, "session", series->session);
  ps_cli_json_stream_boolean (stream, "logical", series->logical);
  if (series->context != NULL)
    ps_cli_json_stream_cut_string (stream, "context", series->context);
  else
    ps_cli_json_stream_null (stream, "context");
  ps_cli_json_stream_begin_array (stream, "threads");
  for (guint i = 0; i < series->n_instances; i++)
    ps_cli_json_stream_int (stream, NULL, ps_event_store_get_track (store, series->tracks[i])->number);
  ps_cli_json_stream_end (stream);

  write_stats_members (stream, &series->stats);
  ps_cli_json_stream_double (stream, "self_sum", series->self_sum);
  write_series_end (stream, series);
}

/* Raw name and app: ps-cli-json.c shows bytes that are not UTF-8 as
 * Latin-1. The app is cut (ps-util.h), as each of its series repeats it,
 * and so is a span's context; a series' own name is written whole. */
static void
write_series (PsCliJsonStream *stream,
              const PsSeries  *series,
              gboolean         is_ce,
              GString         *scratch)
{
  write_series_begin (stream, series);
  ps_cli_json_stream_int (stream, "id", series->id);
  ps_cli_json_stream_int (stream, "instance", series->instance);
  ps_cli_json_stream_int (stream, "session", series->session);
  ps_cli_json_stream_cut_string (stream, "app", series->app);
  ps_cli_json_stream_int (stream, "instances", series->n_instances);
  ps_cli_json_stream_int (stream, "line", (gint64)series->first_line);

  write_stats_members (stream, &series->stats);

  if (has_tick_stats (series))
    {
      ps_cli_json_stream_begin_object (stream, "ticks");
      write_stats_members (stream, &series->ticks_stats);
      ps_cli_json_stream_end (stream);
    }

  /* Bytes that are not UTF-8 are shown as Latin-1 by the stream, as in the name */
  if (is_ce)
    {
      g_string_truncate (scratch, 0);
      append_expanded_description (scratch, series);
      ps_cli_json_stream_string (stream, "expanded", scratch->str);
    }

  write_series_end (stream, series);
}

typedef struct
{
  PsEventStore *store;
  GPtrArray    *series;
  gboolean      is_ce;
  GString      *scratch;  /* for the expanded description of each series */
} SeriesWriter;

static void
write_one_series (PsCliJsonStream *stream,
                  gpointer         item,
                  gpointer         user_data)
{
  SeriesWriter *writer = user_data;
  const PsSeries *one = item;

  if (one->kind == PS_SERIES_SPAN)
    write_span_series (stream, writer->store, one);
  else if (one->kind == PS_SERIES_COUNTER)
    ps_cli_counter_series_write (stream, writer->store, one);
  else
    write_series (stream, one, writer->is_ce, writer->scratch);
}

/* The series are written as they are turned into text, on two threads:
 * a log may have hundreds of thousands, with two dozen values each */
static void
write_member (GString    *out,
              const char *member,
              guint       level,
              gpointer    user_data)
{
  SeriesWriter *writer = user_data;
  g_autoptr(GString) worker_scratch = g_string_new (NULL);
  SeriesWriter worker = *writer;

  g_assert (g_str_equal (member, "series"));
  worker.scratch = worker_scratch;
  ps_cli_json_stream_array_parallel (out, level, writer->series, write_one_series, writer, &worker);
}

/* Everything but the series, which write_member() writes in place of
 * the null member */
static JsonNode *
stats_to_json (const PsCliOptions *options,
               PsEventStore       *store,
               const char         *path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  ps_cli_add_run_members (builder, store, path, FALSE);
  json_builder_set_member_name (builder, "group_by_name");
  json_builder_add_boolean_value (builder, options->group_by_name);
  if (ps_event_store_get_n_spans (store) > 0 || ps_event_store_get_spans_summarized (store))
    {
      json_builder_set_member_name (builder, "per_thread");
      json_builder_add_boolean_value (builder, options->per_thread);
      json_builder_set_member_name (builder, "filtered");
      json_builder_add_boolean_value (builder, !ps_scope_filter_is_empty (options->scope_filter));
    }

  json_builder_set_member_name (builder, "series");
  json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* Text: one table per kind and unit, so that every header names its unit */

static char *
format_value (double      value,
              const char *unit)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  const char *format;

  if (g_strcmp0 (unit, "s") == 0)
    format = "%.6f";            /* microseconds, as ce-perflog.md §6 */
  else if (g_strcmp0 (unit, "percent") == 0)
    format = "%.3f";
  else if (g_strcmp0 (unit, "ticks-mean") == 0)
    format = "%.2f";            /* a mean of ticks: keep the column aligned */
  else if (value == (double)(gint64)value)
    format = "%.0f";
  else
    format = "%.2f";

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, format, value));
}

static char *
header (const char *label,
        const char *unit)
{
  /* Translators: a column header with its unit, "Mean (s)" */
  return g_strdup_printf (_("%s (%s)"), label, unit);
}

static const char *
kind_title (PsSeriesKind kind)
{
  switch (kind)
    {
    case PS_SERIES_DURATION: return _("Durations");
    case PS_SERIES_CPU:      return _("CPU");
    case PS_SERIES_MEMORY:   return _("Memory");
    case PS_SERIES_COUNTER:  return _("Counters");
    case PS_SERIES_SPAN:     return _("Spans");
    default:                 return _("Other");
    }
}

/* One row of print_group_text()'s table, in the order of its header */
static void
add_series_row (PsCliTable         *table,
                const PsCliOptions *options,
                const PsSeries     *series,
                gboolean            with_ticks,
                gboolean            is_ce)
{
  const PsStats *stats = &series->stats;
  const double values[] = {
    stats->sum, stats->min, stats->max, stats->mean, stats->median,
    stats->p90, stats->p95, stats->p99, stats->stddev,
  };
  GPtrArray *row = g_ptr_array_new ();

  g_ptr_array_add (row, g_strdup_printf ("%u", series->session));
  g_ptr_array_add (row, ps_cli_table_format_cut_text (series->app));
  g_ptr_array_add (row, g_strdup_printf ("%" PRId64, series->id));
  g_ptr_array_add (row, g_strdup_printf ("%u", options->group_by_name ? series->n_instances : series->instance));
  g_ptr_array_add (row, g_strdup_printf ("%" PRIu64, stats->count));
  for (guint v = 0; v < G_N_ELEMENTS (values); v++)
    g_ptr_array_add (row, format_value (values[v], series->unit));
  if (with_ticks)
    {
      g_ptr_array_add (row, format_value (series->ticks_stats.sum, "ticks"));
      g_ptr_array_add (row, format_value (series->ticks_stats.mean, "ticks-mean"));
    }
  g_ptr_array_add (row, g_strdup_printf ("%" PRIu64, series->n_excluded));
  g_ptr_array_add (row, g_strdup_printf ("%" PRIu64, series->n_flagged));
  g_ptr_array_add (row, ps_util_display_text (series->name, -1));
  if (is_ce)
    g_ptr_array_add (row, expand_description (series));
  g_ptr_array_add (row, NULL);
  /* Checks the number of cells */
  ps_cli_table_add_row_strv_take (table, (char **)g_ptr_array_free (row, FALSE));
}

/* The table of the series of first's kind and unit */
static void
print_group_text (const PsCliOptions *options,
                  GPtrArray          *all_series,
                  const PsSeries     *first,
                  gboolean            is_ce)
{
  PsSeriesKind kind = first->kind;
  const char *unit = first->unit;
  /* Session, App, Id, Instance; Count, Sum … Stddev (10); [Sum, Mean in ticks], Excluded, Flagged, Name, [Expanded] */
  gboolean with_ticks = has_tick_stats (first);
  guint n_columns = 4 + 10 + (with_ticks ? 2 : 0) + 2 + 1 + (is_ce ? 1 : 0);
  g_autoptr(PsCliTable) table = ps_cli_table_new (n_columns);
  g_autoptr(GPtrArray) cells = g_ptr_array_new ();
  g_autoptr(GString) alignment = g_string_new (NULL);
  static const char * const stat_labels[] = {
    N_("Sum"), N_("Min"), N_("Max"), N_("Mean"), N_("Median"),
    N_("P90"), N_("P95"), N_("P99"), N_("Stddev"),
  };

  /* The header row */
  g_ptr_array_add (cells, g_strdup (_("Session")));
  g_ptr_array_add (cells, g_strdup (_("App")));
  g_ptr_array_add (cells, g_strdup (_("Id")));
  g_ptr_array_add (cells, g_strdup (options->group_by_name ? _("Instances") : _("Instance")));
  g_ptr_array_add (cells, g_strdup (_("Count")));
  for (guint i = 0; i < G_N_ELEMENTS (stat_labels); i++)
    g_ptr_array_add (cells, header (_(stat_labels[i]), unit));
  if (with_ticks)
    {
      g_ptr_array_add (cells, header (_("Sum"), "ticks"));
      g_ptr_array_add (cells, header (_("Mean"), "ticks"));
    }
  g_ptr_array_add (cells, g_strdup (_("Excluded")));
  g_ptr_array_add (cells, g_strdup (_("Flagged")));
  g_ptr_array_add (cells, g_strdup (_("Name")));
  if (is_ce)
    g_ptr_array_add (cells, g_strdup (_("Expanded")));
  g_assert (cells->len == n_columns);

  g_string_append (alignment, "rlrr");
  for (guint i = 4; i < n_columns - 1 - (is_ce ? 1 : 0); i++)
    g_string_append_c (alignment, 'r');
  g_string_append (alignment, is_ce ? "ll" : "l");
  ps_cli_table_set_alignment (table, alignment->str);

  g_ptr_array_add (cells, NULL);
  ps_cli_table_add_row_strv_take (table, (char **)g_ptr_array_free (g_steal_pointer (&cells), FALSE));

  for (guint i = 0; i < all_series->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all_series, i);

      if (series->kind == kind && g_strcmp0 (series->unit, unit) == 0)
        add_series_row (table, options, series, with_ticks, is_ce);
    }

  printf ("%s (%s)\n", kind_title (kind), unit);
  ps_cli_table_print (table, stdout, "  ");
}

static char *
thread_list (PsEventStore   *store,
             const PsSeries *series)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < series->n_instances; i++)
    g_string_append_printf (text, "%s%" PRId64, i > 0 ? "," : "",
                            ps_event_store_get_track (store, series->tracks[i])->number);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Scopes: Session, Thread(s), Count, Sum … Stddev, Self, Excluded, Flagged, Name, Context */
static void
print_span_table (PsEventStore *store,
                  GPtrArray    *all_series)
{
  static const char * const stat_labels[] = {
    N_("Sum"), N_("Min"), N_("Max"), N_("Mean"), N_("Median"),
    N_("P90"), N_("P95"), N_("P99"), N_("Stddev"), N_("Self"),
  };
  guint n_columns = 3 + G_N_ELEMENTS (stat_labels) + 4;
  g_autoptr(PsCliTable) table = ps_cli_table_new (n_columns);
  GPtrArray *cells = g_ptr_array_new ();
  g_autoptr(GString) alignment = g_string_new ("rrr");

  g_ptr_array_add (cells, g_strdup (_("Session")));
  g_ptr_array_add (cells, g_strdup (_("Threads")));
  g_ptr_array_add (cells, g_strdup (_("Count")));
  for (guint i = 0; i < G_N_ELEMENTS (stat_labels); i++)
    {
      g_ptr_array_add (cells, header (_(stat_labels[i]), "s"));
      g_string_append_c (alignment, 'r');
    }
  g_ptr_array_add (cells, g_strdup (_("Excluded")));
  g_ptr_array_add (cells, g_strdup (_("Flagged")));
  g_ptr_array_add (cells, g_strdup (_("Name")));
  g_ptr_array_add (cells, g_strdup (_("Context")));
  g_string_append (alignment, "rrll");
  g_ptr_array_add (cells, NULL);
  ps_cli_table_set_alignment (table, alignment->str);
  ps_cli_table_add_row_strv_take (table, (char **)g_ptr_array_free (cells, FALSE));

  for (guint i = 0; i < all_series->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all_series, i);
      const PsStats *stats = &series->stats;
      const double values[] = {
        stats->sum, stats->min, stats->max, stats->mean, stats->median,
        stats->p90, stats->p95, stats->p99, stats->stddev, series->self_sum,
      };

      if (series->kind != PS_SERIES_SPAN)
        continue;

      cells = g_ptr_array_new ();
      g_ptr_array_add (cells, g_strdup_printf ("%u", series->session));
      g_ptr_array_add (cells, thread_list (store, series));
      g_ptr_array_add (cells, g_strdup_printf ("%" PRIu64, stats->count));
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        g_ptr_array_add (cells, format_value (values[v], "s"));
      g_ptr_array_add (cells, g_strdup_printf ("%" PRIu64, series->n_excluded));
      g_ptr_array_add (cells, g_strdup_printf ("%" PRIu64, series->n_flagged));
      g_ptr_array_add (cells, ps_util_display_text (series->name, -1));
      g_ptr_array_add (cells, series->context != NULL ? ps_cli_table_format_cut_text (series->context) : g_strdup (""));
      g_ptr_array_add (cells, NULL);
      ps_cli_table_add_row_strv_take (table, (char **)g_ptr_array_free (cells, FALSE));
    }

  printf ("%s (%s)\n", _("Scopes"), "s");
  ps_cli_table_print (table, stdout, "  ");
}

static void
print_stats_text (const PsCliOptions *options,
                  PsEventStore       *store,
                  GPtrArray          *series,
                  gboolean            is_ce)
{
  gboolean has_spans = FALSE;

  g_autoptr(GHashTable) done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (series->len == 0)
    {
      printf ("%s\n", _("No measured series"));
      return;
    }

  /* Groups in order of their first series */
  for (guint i = 0; i < series->len; i++)
    {
      const PsSeries *s = g_ptr_array_index (series, i);
      g_autofree char *key = g_strdup_printf ("%d:%s", s->kind, s->unit);

      if (s->kind == PS_SERIES_SPAN || s->kind == PS_SERIES_COUNTER)
        {
          has_spans |= s->kind == PS_SERIES_SPAN;
          continue;
        }
      if (g_hash_table_contains (done, key))
        continue;
      if (g_hash_table_size (done) > 0)
        printf ("\n");
      print_group_text (options, series, s, is_ce);
      g_hash_table_add (done, g_steal_pointer (&key));
    }

  if (has_spans)
    {
      if (g_hash_table_size (done) > 0)
        printf ("\n");
      print_span_table (store, series);
    }
  ps_cli_counter_series_print (series);
}

static int
run_stats (const PsCliOptions  *options,
           char               **files)
{
  const char *file = files[0];
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GPtrArray) series = NULL;
  PsSeriesOptions series_options = { 0 };
  gboolean is_ce;

  /* The totals per scope name, across threads and without filters, are
   * all the spans are needed for: a format that sums them up as it reads
   * need not keep them */
  if (!options->per_thread && ps_scope_filter_is_empty (options->scope_filter))
    store = ps_cli_load_totals (options, file);
  else
    store = ps_cli_load (options, file);
  if (store == NULL)
    return PS_CLI_EXIT_UNREADABLE;

  series_options.group_by_name = options->group_by_name;
  series_options.include_negative = options->include_negative;
  series_options.tick_rate_override = options->tick_rate;
  series_options.spans_per_thread = options->per_thread;
  /* Only the statistics are printed */
  series_options.durations_summary_only = TRUE;
  series_options.span_filter = options->scope_filter;
  series = ps_series_collect (store, &series_options);
  ps_cli_counter_series_append (store, series);
  /* CE PerfLog descriptions have an expansion */
  is_ce = g_strcmp0 (ps_event_store_get_format (store), ps_format_ce_perflog.name) == 0;

  if (options->text)
    print_stats_text (options, store, series, is_ce);
  else
    {
      g_autoptr(JsonNode) root = stats_to_json (options, store, file);
      g_autoptr(GString) scratch = g_string_new (NULL);
      SeriesWriter writer = { store, series, is_ce, scratch };

      static const char * const streamed[] = { "series", NULL };

      ps_cli_json_print_spliced (root, streamed, write_member, &writer);
    }

  if (ps_cli_report_partial (store, file))
    return PS_CLI_EXIT_PARTIAL;

  return PS_CLI_EXIT_OK;
}

static const PsCliOption include_negative = {
  .long_name = "include-negative", .offset = G_STRUCT_OFFSET (PsCliOptions, include_negative),
  .description = N_("stats: count negative durations (left out by default)"),
};

static const PsCliOption per_thread = {
  .long_name = "per-thread", .offset = G_STRUCT_OFFSET (PsCliOptions, per_thread),
  .description = N_("stats: scopes of each thread apart (RTL logs)"),
};

static const PsCliOption * const stats_options[] = {
  PS_CLI_READ_OPTIONS,
  PS_CLI_PRINT_OPTIONS,
  &ps_cli_option_group_by_name,
  &include_negative,
  &per_thread,
  PS_CLI_SCOPE_FILTER_OPTIONS,
  NULL,
};

const PsCliCommand ps_cli_stats_command = {
  .name = "stats",
  .files = "FILE",
  .summary = N_("per-series statistics"),
  .files_error = N_("stats needs exactly one FILE"),
  .min_files = 1,
  .max_files = 1,
  .options = stats_options,
  .run = run_stats,
};

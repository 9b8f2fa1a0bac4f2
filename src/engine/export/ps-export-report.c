/* ps-export-report.c — a summary of a run for a bug report
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export --to markdown|html), "stats",
 * "calltree", "counters": the same numbers as those commands' JSON.
 *
 * The report is written through a few block writers (heading, paragraph,
 * list, table) that either format knows, so that Markdown and HTML carry
 * the same text.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ps-call-tree.h"
#include "ps-counter-name.h"
#include "ps-export-csv.h"
#include "ps-export-report.h"
#include "ps-series.h"
#include "ps-util.h"

/* Warnings of one code listed with their position */
#define FIRST_WARNINGS_SHOWN 3

typedef struct
{
  GString *out;
  gboolean html;
  gboolean in_list;
} Report;

/* Text -------------------------------------------------------------------- */

/* Valid UTF-8 on one line: raw bytes read as Latin-1, control characters
 * (line breaks included) as spaces */
static char *
clean_text (const char *text)
{
  g_autofree char *valid = ps_util_display_text (text != NULL ? text : "", -1);

  for (char *p = valid; *p != '\0'; p++)
    if ((guchar)*p < 0x20 || *p == 0x7f)
      *p = ' ';
  return g_steal_pointer (&valid);
}

/* Backslash escapes (CommonMark §2.4) for every character that could start
 * emphasis, a link, an HTML tag or entity, a code span or strikethrough,
 * or end a table cell (GFM §4.10) */
static void
append_markdown_text (GString    *out,
                      const char *text)
{
  g_autofree char *clean = clean_text (text);

  for (const char *p = clean; *p != '\0'; p++)
    {
      if (strchr ("\\`*_{}[]<>#|&~$!", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

static void
append_html_text (GString    *out,
                  const char *text)
{
  g_autofree char *clean = clean_text (text);

  for (const char *p = clean; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '&':  g_string_append (out, "&amp;"); break;
        case '<':  g_string_append (out, "&lt;"); break;
        case '>':  g_string_append (out, "&gt;"); break;
        case '"':  g_string_append (out, "&quot;"); break;
        case '\'': g_string_append (out, "&#39;"); break;
        default:   g_string_append_c (out, *p); break;
        }
    }
}

static void
append_text (Report     *report,
             const char *text)
{
  if (report->html)
    append_html_text (report->out, text);
  else
    append_markdown_text (report->out, text);
}

/* Numbers ----------------------------------------------------------------- */

/* printf-style formatting of one double, with a '.' whatever the locale */
static char *
ascii_number (const char *format,
              double      value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, format, value));
}

static char *
with_unit (const char *format,
           double      value,
           const char *unit)
{
  g_autofree char *number = ascii_number (format, value);

  return g_strconcat (number, " ", unit, NULL);
}

/* "12.300 ms": three decimals in a fitting unit, as the CLI's text tables */
static char *
format_seconds (double seconds)
{
  double magnitude = fabs (seconds);

  if (!isfinite (seconds))
    return g_strdup ("–");
  if (magnitude == 0)
    return g_strdup ("0 s");
  if (magnitude < 1e-6)
    return with_unit ("%.3f", seconds * 1e9, "ns");
  if (magnitude < 1e-3)
    return with_unit ("%.3f", seconds * 1e6, "µs");
  if (magnitude < 1)
    return with_unit ("%.3f", seconds * 1e3, "ms");
  return with_unit ("%.3f", seconds, "s");
}

static char *
format_bytes (double bytes)
{
  static const char * const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  double value = bytes;
  guint unit = 0;

  while (fabs (value) >= 1024 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024;
      unit++;
    }
  return with_unit (unit == 0 ? "%.0f" : "%.2f", value, units[unit]);
}

/* A plain number: whole numbers as they are, others to four significant
 * digits (one decimal from 1000 on) */
static char *
format_plain (double value)
{
  if (value == rint (value) && fabs (value) < 1e15)
    return ascii_number ("%.0f", value);
  if (fabs (value) >= 1000)
    return ascii_number ("%.1f", value);
  return ascii_number ("%.4g", value);
}

static char *
format_count (guint64 count)
{
  return g_strdup_printf ("%" PRIu64, count);
}

static char *
format_percent (double percent)
{
  if (!isfinite (percent))
    return g_strdup ("–");
  return with_unit ("%.2f", percent, "%");
}

/* A value in its unit ("s", "ticks", "percent", "bytes"); a series' share
 * in percent gets a percent sign, a counter's "percent" stays a number
 * followed by the word, as the counter names it */
static char *
format_value_in_unit (double      value,
                      const char *unit,
                      gboolean    percent_sign)
{
  g_autofree char *plain = NULL;

  if (!isfinite (value))
    return g_strdup ("–");
  if (g_strcmp0 (unit, "s") == 0)
    return format_seconds (value);
  if (percent_sign && g_strcmp0 (unit, "percent") == 0)
    return format_percent (value);
  if (g_strcmp0 (unit, "bytes") == 0)
    return format_bytes (value);
  plain = format_plain (value);
  if (unit == NULL || *unit == '\0')
    return g_steal_pointer (&plain);
  return g_strconcat (plain, " ", unit, NULL);
}

static char *
format_call_value (double     value,
                   PsCallUnit unit)
{
  g_autofree char *plain = NULL;

  if (!isfinite (value))
    return g_strdup ("–");
  switch (unit)
    {
    case PS_CALL_UNIT_NS:
      return format_seconds (value / 1e9);
    case PS_CALL_UNIT_MS:
      return format_seconds (value / 1e3);
    case PS_CALL_UNIT_SAMPLES:
      plain = format_plain (value);
      return g_strconcat (plain, value == 1 ? " sample" : " samples", NULL);
    case PS_CALL_UNIT_TICKS:
    default:
      plain = format_plain (value);
      return g_strconcat (plain, " ticks", NULL);
    }
}

/* Blocks ------------------------------------------------------------------ */

static void
end_list (Report *report)
{
  if (!report->in_list)
    return;
  report->in_list = FALSE;
  g_string_append (report->out, report->html ? "</ul>\n" : "\n");
}

static void
add_heading (Report     *report,
             guint       level,
             const char *text)
{
  end_list (report);
  if (report->html)
    {
      g_string_append_printf (report->out, "<h%u>", level);
      append_text (report, text);
      g_string_append_printf (report->out, "</h%u>\n", level);
    }
  else
    {
      for (guint i = 0; i < level; i++)
        g_string_append_c (report->out, '#');
      g_string_append_c (report->out, ' ');
      append_text (report, text);
      g_string_append (report->out, "\n\n");
    }
}

static void
add_paragraph (Report     *report,
               const char *text)
{
  end_list (report);
  g_string_append (report->out, report->html ? "<p>" : "");
  append_text (report, text);
  g_string_append (report->out, report->html ? "</p>\n" : "\n\n");
}

/* A list item "label: value" with the label in bold */
static void
add_item (Report     *report,
          const char *label,
          const char *value)
{
  if (!report->in_list)
    {
      report->in_list = TRUE;
      if (report->html)
        g_string_append (report->out, "<ul>\n");
    }
  g_string_append (report->out, report->html ? "<li><strong>" : "- **");
  append_text (report, label);
  g_string_append (report->out, report->html ? ":</strong> " : ":** ");
  append_text (report, value);
  g_string_append (report->out, report->html ? "</li>\n" : "\n");
}

static void
add_item_take (Report     *report,
               const char *label,
               char       *value)
{
  add_item (report, label, value);
  g_free (value);
}

typedef struct
{
  guint      n_columns;
  char      *alignment;  /* 'l' or 'r' per column */
  GPtrArray *rows;       /* GStrv of raw cells, the header first */
} Table;

static Table *
table_new (const char *alignment,
           ...)
{
  Table *table = g_new0 (Table, 1);
  g_autoptr(GPtrArray) header = g_ptr_array_new ();
  va_list args;

  table->n_columns = strlen (alignment);
  table->alignment = g_strdup (alignment);
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  va_start (args, alignment);
  for (guint c = 0; c < table->n_columns; c++)
    g_ptr_array_add (header, g_strdup (va_arg (args, const char *)));
  va_end (args);
  g_ptr_array_add (header, NULL);
  g_ptr_array_add (table->rows, g_ptr_array_free (g_steal_pointer (&header), FALSE));
  return table;
}

static void
table_free (Table *table)
{
  g_ptr_array_unref (table->rows);
  g_free (table->alignment);
  g_free (table);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Table, table_free)

/* Takes n_columns strings */
static void
table_add_row_take (Table *table,
                    ...)
{
  char **cells = g_new0 (char *, table->n_columns + 1);
  va_list args;

  va_start (args, table);
  for (guint c = 0; c < table->n_columns; c++)
    cells[c] = va_arg (args, char *);
  va_end (args);
  g_ptr_array_add (table->rows, cells);
}

static void
add_table (Report *report,
           Table  *table)
{
  GString *out = report->out;

  end_list (report);
  if (report->html)
    {
      g_string_append (out, "<table>\n");
      for (guint r = 0; r < table->rows->len; r++)
        {
          char **cells = g_ptr_array_index (table->rows, r);
          const char *tag = r == 0 ? "th" : "td";

          if (r == 0)
            g_string_append (out, "<thead>\n");
          else if (r == 1)
            g_string_append (out, "<tbody>\n");
          g_string_append (out, "<tr>");
          for (guint c = 0; c < table->n_columns; c++)
            {
              g_string_append_printf (out, "<%s%s>", tag, table->alignment[c] == 'r' ? " class=\"num\"" : "");
              append_text (report, cells[c]);
              g_string_append_printf (out, "</%s>", tag);
            }
          g_string_append (out, "</tr>\n");
          if (r == 0)
            g_string_append (out, "</thead>\n");
        }
      if (table->rows->len > 1)
        g_string_append (out, "</tbody>\n");
      g_string_append (out, "</table>\n");
    }
  else
    {
      g_autofree guint *widths = g_new0 (guint, table->n_columns);
      g_autoptr(GPtrArray) escaped = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);

      /* Padded so that the text lines up as well as the rendered table */
      for (guint r = 0; r < table->rows->len; r++)
        {
          char **cells = g_ptr_array_index (table->rows, r);
          char **row = g_new0 (char *, table->n_columns + 1);

          for (guint c = 0; c < table->n_columns; c++)
            {
              g_autoptr(GString) cell = g_string_new (NULL);

              append_markdown_text (cell, cells[c]);
              widths[c] = MAX (widths[c], MAX (3, (guint)g_utf8_strlen (cell->str, -1)));
              row[c] = g_string_free (g_steal_pointer (&cell), FALSE);
            }
          g_ptr_array_add (escaped, row);
        }

      for (guint r = 0; r < escaped->len; r++)
        {
          char **row = g_ptr_array_index (escaped, r);

          g_string_append_c (out, '|');
          for (guint c = 0; c < table->n_columns; c++)
            {
              guint pad = widths[c] - (guint)g_utf8_strlen (row[c], -1);

              g_string_append_c (out, ' ');
              if (table->alignment[c] == 'r')
                g_string_append_printf (out, "%*s%s", (int)pad, "", row[c]);
              else
                g_string_append_printf (out, "%s%*s", row[c], (int)pad, "");
              g_string_append (out, " |");
            }
          g_string_append_c (out, '\n');

          if (r == 0)
            {
              g_string_append_c (out, '|');
              for (guint c = 0; c < table->n_columns; c++)
                {
                  g_string_append_c (out, ' ');
                  for (guint i = 0; i + 1 < widths[c]; i++)
                    g_string_append_c (out, '-');
                  g_string_append_c (out, table->alignment[c] == 'r' ? ':' : '-');
                  g_string_append (out, " |");
                }
              g_string_append_c (out, '\n');
            }
        }
      g_string_append_c (out, '\n');
    }
}

/* The run ----------------------------------------------------------------- */

/* "2009-07-02 14:44:32.402817 UTC" */
static char *
format_unix_ns (gint64 unix_ns)
{
  gint64 seconds = unix_ns / G_GINT64_CONSTANT (1000000000);
  gint64 fraction = unix_ns % G_GINT64_CONSTANT (1000000000);
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *text = NULL;

  if (fraction < 0)
    {
      fraction += G_GINT64_CONSTANT (1000000000);
      seconds--;
    }
  time = g_date_time_new_from_unix_utc (seconds);
  if (time == NULL)
    return NULL;
  text = g_date_time_format (time, "%Y-%m-%d %H:%M:%S");
  if (fraction % 1000 == 0)
    return g_strdup_printf ("%s.%06" PRId64 " UTC", text, fraction / 1000);
  return g_strdup_printf ("%s.%09" PRId64 " UTC", text, fraction);
}

static const struct
{
  const char *label;
  guint64   (*get) (PsEventStore *store);
} event_counts[] = {
  { "Measurements",     ps_event_store_get_n_measurements },
  { "Spans",            ps_event_store_get_n_spans },
  { "Marks",            ps_event_store_get_n_marks },
  { "Samples",          ps_event_store_get_n_samples },
  { "Counter readings", ps_event_store_get_n_counter_readings },
};

static void
add_run (Report       *report,
         PsEventStore *store)
{
  guint n_sessions = ps_event_store_get_n_sessions (store);
  guint n_sources = ps_event_store_get_n_sample_sources (store);
  gint64 begin_ns, end_ns;

  add_heading (report, 2, "Run");
  add_item (report, "Format", ps_event_store_get_format (store));
  add_item (report, "Read", ps_event_store_is_complete (store) ? "completely" : "in part");
  add_item_take (report, "Size", format_bytes ((double)ps_event_store_get_bytes_read (store)));
  if (n_sessions > 0 && ps_event_store_get_session (store, 0)->origin_unix_ns != 0)
    {
      char *start = format_unix_ns (ps_event_store_get_session (store, 0)->origin_unix_ns);

      if (start != NULL)
        add_item_take (report, "Started", start);
    }
  if (ps_event_store_get_time_range (store, &begin_ns, &end_ns) && end_ns > begin_ns)
    add_item_take (report, "Duration", format_seconds ((double)(end_ns - begin_ns) / 1e9));
  if (n_sessions > 1)
    add_item_take (report, "Sessions", format_count (n_sessions));
  for (guint i = 0; i < G_N_ELEMENTS (event_counts); i++)
    {
      guint64 count = event_counts[i].get (store);

      if (count > 0)
        add_item_take (report, event_counts[i].label, format_count (count));
    }
  if (ps_event_store_get_n_report_rows (store) > 0)
    add_item_take (report, "Report rows", format_count (ps_event_store_get_n_report_rows (store)));
  for (guint i = 0; i < n_sources; i++)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (store, (guint16)i);
      g_autofree char *label = g_strdup_printf ("Samples of %s",
                                                ps_event_store_get_string (store, source->name));

      add_item_take (report, label, format_count (source->n_samples));
    }
  add_item_take (report, "Tracks", format_count (ps_event_store_get_n_tracks (store)));
  end_list (report);

  if (n_sessions > 0)
    {
      g_autoptr(GArray) entries = ps_event_store_list_metadata (store, 0);
      g_autoptr(Table) table = table_new ("ll", "Key", "Value");

      if (entries->len == 0)
        return;
      add_heading (report, 3, n_sessions > 1 ? "Metadata of the first session" : "Metadata");
      for (guint i = 0; i < entries->len; i++)
        {
          const PsMetadataEntry *entry = &g_array_index (entries, PsMetadataEntry, i);

          table_add_row_take (table, g_strdup (entry->key), g_strdup (entry->value));
        }
      add_table (report, table);
    }
}

/* Statistics -------------------------------------------------------------- */

static gboolean
is_time_series (const PsSeries *series)
{
  return series->kind == PS_SERIES_DURATION || series->kind == PS_SERIES_SPAN;
}

static gint
compare_series_by_sum (gconstpointer a,
                       gconstpointer b)
{
  const PsSeries *series_a = *(const PsSeries * const *)a;
  const PsSeries *series_b = *(const PsSeries * const *)b;

  /* Seconds before ticks: the sums of different units do not compare */
  if (g_strcmp0 (series_a->unit, series_b->unit) != 0)
    return g_strcmp0 (series_a->unit, "s") == 0 ? -1 : 1;
  if (series_a->stats.sum != series_b->stats.sum)
    return series_a->stats.sum > series_b->stats.sum ? -1 : 1;
  return 0;
}

static char *
series_source (const PsSeries *series)
{
  if (series->kind == PS_SERIES_SPAN)
    return g_strdup (series->context != NULL ? series->context : "–");
  return g_strdup (series->app != NULL && *series->app != '\0' ? series->app : "–");
}

static void
add_shown_note (Report     *report,
                guint       shown,
                guint       total,
                const char *what)
{
  g_autofree char *text = NULL;

  if (shown == total)
    return;
  text = g_strdup_printf ("The first %u of %u %s.", shown, total, what);
  add_paragraph (report, text);
}


/* A table of series: count, then the total (with_sum) or the minimum, mean,
 * median, p95 and maximum; the first top of them */
static void
add_series_table (Report     *report,
                  GPtrArray  *list,
                  guint       top,
                  const char *heading,
                  gboolean    with_sum,
                  const char *note)
{
  g_autoptr(Table) table = NULL;
  guint shown = MIN (list->len, top);

  if (list->len == 0)
    return;

  table = table_new ("llrrrrrr", "Series", "Source", "Count", with_sum ? "Total" : "Min",
                     "Mean", "Median", "p95", "Max");
  add_heading (report, 2, heading);
  for (guint i = 0; i < shown; i++)
    {
      const PsSeries *series = g_ptr_array_index (list, i);
      const PsStats *stats = &series->stats;

      table_add_row_take (table, g_strdup (series->name), series_source (series),
                          format_count (stats->count),
                          format_value_in_unit (with_sum ? stats->sum : stats->min, series->unit, TRUE),
                          format_value_in_unit (stats->mean, series->unit, TRUE),
                          format_value_in_unit (stats->median, series->unit, TRUE),
                          format_value_in_unit (stats->p95, series->unit, TRUE),
                          format_value_in_unit (stats->max, series->unit, TRUE));
    }
  add_table (report, table);
  add_shown_note (report, shown, list->len, note);
}

static void
add_stats (Report                      *report,
           PsEventStore                *store,
           const PsExportReportOptions *options,
           guint                        top)
{
  PsSeriesOptions series_options = { 0 };
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) times = g_ptr_array_new ();
  g_autoptr(GPtrArray) others = g_ptr_array_new ();

  series_options.durations_summary_only = TRUE;
  series_options.tick_rate_override = options->tick_rate_override;
  all = ps_series_collect (store, &series_options);
  for (guint i = 0; i < all->len; i++)
    {
      PsSeries *series = g_ptr_array_index (all, i);

      if (series->stats.count == 0)
        continue;
      g_ptr_array_add (is_time_series (series) ? times : others, series);
    }
  /* Stable: equal sums stay in the order of `stats` */
  g_ptr_array_sort (times, compare_series_by_sum);

  add_series_table (report, times, top, "Top series by total time", TRUE, "series with times, by total time");
  add_series_table (report, others, top, "Other measurements", FALSE, "other series, in the order of the file");
}

/* Functions --------------------------------------------------------------- */

typedef struct
{
  PsCallTree *tree;
  PsCallValue value;
} FunctionOrder;

static gint
compare_functions (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const FunctionOrder *order = user_data;
  guint32 function_a = *(const guint32 *)a;
  guint32 function_b = *(const guint32 *)b;
  double value_a = ps_call_tree_get_function_stats (order->tree, function_a)->total[order->value];
  double value_b = ps_call_tree_get_function_stats (order->tree, function_b)->total[order->value];

  if (value_a != value_b)
    return value_a > value_b ? -1 : 1;
  return function_a < function_b ? -1 : function_a > function_b;
}

static char *
function_label (PsCallTree *tree,
                guint32     function)
{
  const char *module = ps_call_tree_get_function_module (tree, function);

  return g_strdup (module != NULL && *module != '\0' ? module : "–");
}

static void
add_function_table (Report     *report,
                    PsCallTree *tree,
                    PsCallValue by,
                    guint       top)
{
  guint n = ps_call_tree_get_n_functions (tree);
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));
  FunctionOrder sort = { tree, by };
  PsCallUnit unit = ps_call_tree_get_unit (tree);
  gboolean with_calls = FALSE;
  g_autoptr(Table) table = NULL;
  guint shown;

  for (guint i = 0; i < n; i++)
    {
      order[i] = i;
      with_calls |= ps_call_tree_get_function_stats (tree, i)->calls > 0;
    }
  g_qsort_with_data (order, n, sizeof (guint32), compare_functions, &sort);
  shown = MIN (n, top);

  /* Sampled runs count no calls: no column of dashes */
  if (with_calls)
    table = table_new ("llrrrrr", "Function", "Module", "Calls", "Inclusive", "Inclusive %",
                       "Exclusive", "Exclusive %");
  else
    table = table_new ("llrrrr", "Function", "Module", "Inclusive", "Inclusive %",
                       "Exclusive", "Exclusive %");
  for (guint i = 0; i < shown; i++)
    {
      const PsCallStats *stats = ps_call_tree_get_function_stats (tree, order[i]);
      char *name = g_strdup (ps_call_tree_get_function_name (tree, order[i]));
      char *module = function_label (tree, order[i]);
      char *inclusive = format_call_value (stats->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], unit);
      char *inclusive_percent = format_percent (ps_call_tree_get_percent (tree, stats, PS_CALL_VALUE_ELAPSED_INCLUSIVE,
                                                                          PS_CALL_BASIS_S1));
      char *exclusive = format_call_value (stats->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], unit);
      char *exclusive_percent = format_percent (ps_call_tree_get_percent (tree, stats, PS_CALL_VALUE_ELAPSED_EXCLUSIVE,
                                                                          PS_CALL_BASIS_S1));

      if (with_calls)
        table_add_row_take (table, name, module, format_count (stats->calls), inclusive, inclusive_percent,
                            exclusive, exclusive_percent);
      else
        table_add_row_take (table, name, module, inclusive, inclusive_percent, exclusive, exclusive_percent);
    }
  add_table (report, table);
  add_shown_note (report, shown, n, "functions");
}

static void
add_functions (Report                      *report,
               PsEventStore                *store,
               const PsExportReportOptions *options,
               guint                        top)
{
  PsCallTreeOptions tree_options = { PS_NONE, NULL, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(PsCallTree) tree = NULL;

  tree_options.ticks_per_second = options->tick_rate_override;
  tree = ps_call_tree_new_for_store (store, &tree_options, &error);
  if (tree == NULL)
    {
      add_heading (report, 2, "Functions");
      add_paragraph (report, error->message);
      return;
    }

  add_heading (report, 2, "Functions");
  add_item_take (report, "Total", format_call_value (ps_call_tree_get_elapsed_total (tree),
                                                      ps_call_tree_get_unit (tree)));
  add_item_take (report, "Functions", format_count (ps_call_tree_get_n_functions (tree)));
  if (ps_call_tree_is_report (tree))
    add_item (report, "Values", "as the profiler's report gave them");
  end_list (report);

  add_heading (report, 3, "Top functions by inclusive value");
  add_function_table (report, tree, PS_CALL_VALUE_ELAPSED_INCLUSIVE, top);
  add_heading (report, 3, "Top functions by exclusive value");
  add_function_table (report, tree, PS_CALL_VALUE_ELAPSED_EXCLUSIVE, top);
}

/* Counters ---------------------------------------------------------------- */

typedef struct
{
  guint32 track;
  double  variation;  /* (max − min) / |mean|, 0 when the mean is 0 */
} CounterOrder;

static gint
compare_counters (gconstpointer a,
                  gconstpointer b)
{
  const CounterOrder *counter_a = a;
  const CounterOrder *counter_b = b;

  if (counter_a->variation != counter_b->variation)
    return counter_a->variation > counter_b->variation ? -1 : 1;
  return counter_a->track < counter_b->track ? -1 : counter_a->track > counter_b->track;
}

static char *
counter_label (const PsCounterName *name)
{
  g_autoptr(GString) label = g_string_new (NULL);

  if (name->object != NULL)
    g_string_append_printf (label, "%s\\", name->object);
  g_string_append (label, name->counter);
  if (name->instance != NULL)
    g_string_append_printf (label, " (%s)", name->instance);
  return g_string_free (g_steal_pointer (&label), FALSE);
}

static void
add_counters (Report       *report,
              PsEventStore *store,
              guint         top)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  g_autoptr(GArray) counters = g_array_new (FALSE, FALSE, sizeof (CounterOrder));
  g_autoptr(Table) table = NULL;
  guint shown;

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsCounterStats *stats;
      CounterOrder counter = { t, 0 };
      double mean;

      if (ps_event_store_get_track (store, t)->kind != PS_TRACK_COUNTER)
        continue;
      stats = ps_event_store_get_counter_stats (store, t);
      if (stats != NULL && stats->n_values > 0)
        {
          mean = stats->sum / (double)stats->n_values;
          if (mean != 0 && isfinite (mean))
            counter.variation = (stats->max - stats->min) / fabs (mean);
        }
      g_array_append_val (counters, counter);
    }
  /* The counters that moved most tell most about a run */
  g_array_sort (counters, compare_counters);
  shown = MIN (counters->len, top);

  table = table_new ("llrrrrr", "Counter", "Machine", "Readings", "Min", "Mean", "Max", "Last");
  for (guint i = 0; i < shown; i++)
    {
      guint32 track = g_array_index (counters, CounterOrder, i).track;
      const PsCounterStats *stats = ps_event_store_get_counter_stats (store, track);
      PsCounterName name;

      ps_counter_name_init (&name, store, track, FALSE);
      if (stats != NULL && stats->n_values > 0)
        table_add_row_take (table, counter_label (&name),
                            g_strdup (name.machine != NULL ? name.machine : "–"),
                            format_count (stats->n_values),
                            format_value_in_unit (stats->min, name.unit, FALSE),
                            format_value_in_unit (stats->sum / (double)stats->n_values, name.unit, FALSE),
                            format_value_in_unit (stats->max, name.unit, FALSE),
                            format_value_in_unit (stats->last, name.unit, FALSE));
      else
        table_add_row_take (table, counter_label (&name),
                            g_strdup (name.machine != NULL ? name.machine : "–"),
                            g_strdup ("0"), g_strdup ("–"), g_strdup ("–"), g_strdup ("–"), g_strdup ("–"));
      ps_counter_name_clear (&name);
    }

  add_heading (report, 2, "Counters");
  add_paragraph (report, "By variation over the run: (max − min) / |mean|, largest first.");
  add_table (report, table);
  add_shown_note (report, shown, counters->len, "counters");
}

/* Data quality ------------------------------------------------------------ */

typedef struct
{
  const char *code;
  guint       count;
  guint       first[FIRST_WARNINGS_SHOWN];
} WarningGroup;

static char *
warning_position (const PsWarning *warning)
{
  if (warning->line > 0)
    return g_strdup_printf ("line %" PRIu64, warning->line);
  if (warning->offset != PS_NO_POSITION)
    return g_strdup_printf ("byte offset 0x%" PRIx64, warning->offset);
  return g_strdup ("–");
}

static void
add_quality (Report       *report,
             PsEventStore *store)
{
  const GError *error = ps_event_store_get_error (store);
  guint n_warnings = ps_event_store_get_n_warnings (store);
  guint64 n_raised = ps_event_store_get_n_warnings_raised (store);
  g_autoptr(GArray) groups = g_array_new (FALSE, TRUE, sizeof (WarningGroup));
  g_autoptr(Table) table = NULL;

  add_heading (report, 2, "Data quality");
  if (error != NULL || !ps_event_store_is_complete (store))
    {
      g_autofree char *text = g_strconcat ("The file was read only in part: ",
                                           error != NULL ? error->message : "the reading stopped early",
                                           NULL);

      add_paragraph (report, text);
    }
  if (n_raised == 0)
    {
      add_paragraph (report, "No warnings.");
      return;
    }

  /* By code, in the order each code first came */
  for (guint i = 0; i < n_warnings; i++)
    {
      PsWarning warning;
      WarningGroup *group = NULL;

      ps_event_store_get_warning (store, i, &warning);
      for (guint g = 0; g < groups->len && group == NULL; g++)
        if (g_strcmp0 (g_array_index (groups, WarningGroup, g).code, warning.code) == 0)
          group = &g_array_index (groups, WarningGroup, g);
      if (group == NULL)
        {
          g_array_set_size (groups, groups->len + 1);
          group = &g_array_index (groups, WarningGroup, groups->len - 1);
          group->code = warning.code;
        }
      if (group->count < FIRST_WARNINGS_SHOWN)
        group->first[group->count] = i;
      group->count++;
    }

  {
    g_autofree char *text = g_strdup_printf ("%" PRIu64 " %s raised.", n_raised,
                                             n_raised == 1 ? "warning was" : "warnings were");
    add_paragraph (report, text);
  }

  table = table_new ("lrll", "Code", "Count", "Where", "First messages");
  for (guint g = 0; g < groups->len; g++)
    {
      const WarningGroup *group = &g_array_index (groups, WarningGroup, g);

      for (guint k = 0; k < MIN (group->count, FIRST_WARNINGS_SHOWN); k++)
        {
          PsWarning warning;

          ps_event_store_get_warning (store, group->first[k], &warning);
          table_add_row_take (table,
                              g_strdup (k == 0 ? group->code : ""),
                              k == 0 ? format_count (group->count) : g_strdup (""),
                              warning_position (&warning),
                              g_strdup (warning.message));
        }
    }
  add_table (report, table);
  if (n_raised > n_warnings)
    {
      g_autofree char *text = g_strdup_printf ("The counts are of the first %u warnings, "
                                               "which were kept.", n_warnings);
      add_paragraph (report, text);
    }
}

/* Pictures ---------------------------------------------------------------- */

static void
add_pictures (Report                      *report,
              const PsExportReportOptions *options)
{
  if (options->n_pictures == 0 || options->pictures == NULL)
    return;

  add_heading (report, 2, "Pictures");
  for (guint i = 0; i < options->n_pictures; i++)
    {
      const PsExportReportPicture *picture = &options->pictures[i];
      const char *caption = picture->caption != NULL ? picture->caption : "";

      /* A file name that is not UTF-8 is a link to the bytes on the disk */
      g_autofree char *escaped_file = g_uri_escape_string (picture->file, "/:._-~", TRUE);

      if (report->html)
        {
          g_string_append (report->out, "<figure><img src=\"");
          append_html_text (report->out, escaped_file);
          g_string_append (report->out, "\" alt=\"");
          append_html_text (report->out, caption);
          g_string_append (report->out, "\"/><figcaption>");
          append_html_text (report->out, caption);
          g_string_append (report->out, "</figcaption></figure>\n");
        }
      else
        {
          g_string_append (report->out, "![");
          append_markdown_text (report->out, caption);
          g_string_append_printf (report->out, "](%s)\n\n", escaped_file);
        }
    }
}

/* The document ------------------------------------------------------------ */

static const char html_style[] =
  "body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }\n"
  "table { border-collapse: collapse; margin: 0.5em 0 1em; }\n"
  "th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }\n"
  "th { background: #f0f0f0; }\n"
  ".num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }\n"
  "figure img { max-width: 100%; }\n";

GString *
ps_export_report_build (PsEventStore                *store,
                        const PsExportReportOptions *options)
{
  PsExportReportOptions defaults = { PS_EXPORT_REPORT_MARKDOWN, NULL, 0, 0, NULL, 0 };
  Report report = { NULL, FALSE, FALSE };
  g_autofree char *title = NULL;
  guint top;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  if (options == NULL)
    options = &defaults;
  top = options->top > 0 ? options->top : PS_EXPORT_REPORT_DEFAULT_TOP;
  report.out = g_string_new (NULL);
  report.html = options->format == PS_EXPORT_REPORT_HTML;
  title = g_strconcat ("Perfscope report: ",
                       options->file_name != NULL ? options->file_name : ps_event_store_get_format (store),
                       NULL);

  if (report.html)
    {
      g_string_append (report.out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>");
      append_html_text (report.out, title);
      g_string_append_printf (report.out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", html_style);
    }
  add_heading (&report, 1, title);
  add_run (&report, store);

  switch (ps_export_csv_main_table (store))
    {
    case PS_EXPORT_CSV_STATS:
      add_stats (&report, store, options, top);
      break;
    case PS_EXPORT_CSV_FUNCTIONS:
      add_functions (&report, store, options, top);
      break;
    case PS_EXPORT_CSV_COUNTERS:
      add_counters (&report, store, top);
      break;
    case PS_EXPORT_CSV_NONE:
    case PS_EXPORT_CSV_TREE:
    case PS_EXPORT_CSV_COUNTER_POINTS:
    default:
      add_paragraph (&report, "The run has neither measurements, spans, call stacks nor counters.");
      break;
    }

  add_quality (&report, store);
  add_pictures (&report, options);
  end_list (&report);

  if (report.html)
    g_string_append (report.out, "</body>\n</html>\n");
  else
    {
      /* One line break at the end, not a blank line */
      while (report.out->len > 1 && report.out->str[report.out->len - 1] == '\n'
             && report.out->str[report.out->len - 2] == '\n')
        g_string_truncate (report.out, report.out->len - 1);
    }
  return report.out;
}

const char *
ps_export_report_format_to_string (PsExportReportFormat format)
{
  return format == PS_EXPORT_REPORT_HTML ? "html" : "markdown";
}

gboolean
ps_export_report_format_from_string (const char           *name,
                                     PsExportReportFormat *format)
{
  if (g_strcmp0 (name, "markdown") == 0)
    *format = PS_EXPORT_REPORT_MARKDOWN;
  else if (g_strcmp0 (name, "html") == 0)
    *format = PS_EXPORT_REPORT_HTML;
  else
    return FALSE;
  return TRUE;
}

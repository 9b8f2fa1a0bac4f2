/* ps-run-summary.c — the few numbers per row that a trend of runs needs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "summarize". The rows are described in ps-run-summary.h.
 * The JSON is read here by a small reader of its own: a trend reads
 * thousands of summaries, and a tree of json-glib nodes costs ten times
 * the time of reading the text.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "ps-run-summary.h"
#include "ps-call-tree.h"
#include "ps-call-tree-diff.h"
#include "ps-error.h"
#include "ps-export-writer.h"
#include "ps-number.h"
#include "ps-run-diff.h"
#include "ps-series.h"
#include "ps-stats.h"

/* Nesting deeper than this is no summary */
#define MAX_DEPTH 32
/* Longer than the longest member name the reader knows */
#define MAX_MEMBER_NAME 32

void
ps_run_summary_row_free (PsRunSummaryRow *row)
{
  if (row == NULL)
    return;

  g_free (row->name);
  g_free (row->context);
  g_free (row);
}

static PsRunSummary *
summary_new (gint64 session)
{
  PsRunSummary *summary = g_new0 (PsRunSummary, 1);

  summary->session = session;
  summary->complete = TRUE;
  summary->rows = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_row_free);
  return summary;
}

void
ps_run_summary_free (PsRunSummary *summary)
{
  if (summary == NULL)
    return;

  g_free (summary->file);
  g_free (summary->format);
  g_free (summary->origin);
  g_free (summary->version);
  g_free (summary->build);
  g_clear_pointer (&summary->rows, g_ptr_array_unref);
  g_free (summary);
}

gboolean
ps_run_summary_kind_lower_is_better (const char *kind)
{
  return g_strcmp0 (kind, "counter") != 0;
}

/* Collecting */

typedef struct
{
  PsRunSummary *summary;
  GHashTable   *by_key;   /* kind, unit, context, name → PsRunSummaryRow* */
  GHashTable   *values;   /* counters: PsRunSummaryRow* → GArray of double */
} Run;

static void
run_free (gpointer data)
{
  Run *run = data;

  ps_run_summary_free (run->summary);
  g_hash_table_unref (run->by_key);
  g_hash_table_unref (run->values);
  g_free (run);
}

static Run *
run_new (gint64 session)
{
  Run *run = g_new0 (Run, 1);

  run->summary = summary_new (session);
  run->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run->values = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
  return run;
}

/* The row of that key, created empty (count 0, values NaN) if new */
static PsRunSummaryRow *
run_lookup (Run        *run,
            const char *kind,
            const char *unit,
            const char *context,
            const char *name,
            gboolean   *created)
{
  g_autofree char *key = g_strconcat (kind, "\x1f", unit, "\x1f", context != NULL ? context : "", "\x1f", name, NULL);
  PsRunSummaryRow *row = g_hash_table_lookup (run->by_key, key);

  *created = row == NULL;
  if (row == NULL)
    {
      row = g_new0 (PsRunSummaryRow, 1);
      row->kind = g_intern_string (kind);
      row->name = g_strdup (name);
      row->context = g_strdup (context);
      row->unit = g_intern_string (unit);
      row->median = row->p95 = row->mean = row->total = NAN;
      g_ptr_array_add (run->summary->rows, row);
      g_hash_table_insert (run->by_key, g_steal_pointer (&key), row);
    }
  return row;
}

/* The runs of a store, by session (-1: the whole store) */
typedef struct
{
  gboolean    by_session;
  GHashTable *runs;       /* session + 2 → Run* */
  GPtrArray  *order;      /* Run*, in order of first use (owned) */
} Runs;

static Run *
runs_get (Runs   *runs,
          guint32 session)
{
  gint64 key = runs->by_session ? (gint64)session : -1;
  Run *run = g_hash_table_lookup (runs->runs, GINT_TO_POINTER ((gint)(key + 2)));

  if (run == NULL)
    {
      run = run_new (key);
      g_hash_table_insert (runs->runs, GINT_TO_POINTER ((gint)(key + 2)), run);
      g_ptr_array_add (runs->order, run);
    }
  return run;
}

static void
add_series (Runs      *runs,
            GPtrArray *all_series)
{
  for (guint i = 0; i < all_series->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all_series, i);
      Run *run;
      PsRunSummaryRow *row;
      gboolean created;

      /* Spans that never ended measured nothing */
      if (series->stats.count == 0)
        continue;

      run = runs_get (runs, series->session);
      row = run_lookup (run, ps_series_kind_to_string (series->kind), series->unit,
                        series->context, series->name, &created);
      if (created)
        {
          row->count = series->stats.count;
          row->median = series->stats.median;
          row->p95 = series->stats.p95;
          row->mean = series->stats.mean;
          row->total = series->stats.sum;
        }
      else
        {
          row->count += series->stats.count;
          row->total += series->stats.sum;
          row->mean = row->total / (double)row->count;
          row->median = row->p95 = NAN;
        }
    }
}

/* Functions of the run's call tree, pooled by name over modules */
static void
add_functions (Run        *run,
               PsCallTree *tree)
{
  PsRunDiffFunctionIter functions;
  const char *unit;

  ps_run_diff_function_iter_init (&functions, tree);
  unit = functions.sampled ? "percent" : ps_call_unit_to_string (ps_call_tree_get_unit (tree));
  while (ps_run_diff_function_iter_next (&functions))
    {
      gboolean created;
      PsRunSummaryRow *row = run_lookup (run, "function", unit, NULL, functions.name, &created);

      if (created)
        row->total = 0;
      if (!isfinite (functions.inclusive))
        continue;
      /* Sampled: the samples first, shares once they are all counted */
      row->count += functions.sampled ? (guint64)llround (functions.inclusive) : functions.calls;
      row->total += functions.inclusive;
    }

  for (guint i = 0; i < run->summary->rows->len; i++)
    {
      PsRunSummaryRow *row = g_ptr_array_index (run->summary->rows, i);

      if (row->kind != g_intern_static_string ("function"))
        continue;
      if (functions.sampled)
        row->total = row->mean = functions.elapsed_total > 0 ? 100.0 * row->total / functions.elapsed_total : NAN;
      else
        row->mean = row->count > 0 ? row->total / (double)row->count : NAN;
    }
}

static void
add_counters (Runs         *runs,
              PsEventStore *store)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  g_autofree GArray **by_track = g_new0 (GArray *, MAX (n_tracks, 1));
  g_autoptr(GPtrArray) counted = g_ptr_array_new ();

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      g_autofree char *path = NULL;
      Run *run;
      PsRunSummaryRow *row;
      GArray *values;
      gboolean created;

      if (track->kind != PS_TRACK_COUNTER)
        continue;

      run = runs_get (runs, track->session);
      path = ps_run_diff_dup_counter_path (store, track);
      row = run_lookup (run, "counter", track->unit != 0 ? ps_event_store_get_string (store, track->unit) : "",
                        NULL, path, &created);
      values = g_hash_table_lookup (run->values, row);
      if (values == NULL)
        {
          values = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (run->values, row, values);
          g_ptr_array_add (counted, row);
          g_ptr_array_add (counted, run);
        }
      by_track[t] = values;
    }

  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *reading = ps_event_store_get_counter_value (store, i);

      if (reading->track < n_tracks && by_track[reading->track] != NULL
          && !(reading->flags & PS_COUNTER_FLAG_MISSING) && isfinite (reading->value))
        g_array_append_val (by_track[reading->track], reading->value);
    }

  for (guint i = 0; i < counted->len; i += 2)
    {
      PsRunSummaryRow *row = g_ptr_array_index (counted, i);
      Run *run = g_ptr_array_index (counted, i + 1);
      GArray *values = g_hash_table_lookup (run->values, row);
      PsStats stats;

      if (values->len == 0)
        continue;
      ps_stats_compute ((double *)(gpointer)values->data, values->len, &stats);
      row->count = stats.count;
      row->median = stats.median;
      row->p95 = stats.p95;
      row->mean = stats.mean;
      row->total = stats.sum;
    }
}

static const char *
session_metadata (PsEventStore        *store,
                  guint32              session,
                  const char * const  *keys)
{
  for (guint k = 0; keys[k] != NULL; k++)
    {
      const char *value = ps_event_store_get_metadata (store, session, keys[k]);

      if (value != NULL && *value != '\0')
        return value;
    }
  return NULL;
}

/* Time, version and build of a session, or of the first session that has
 * them for the whole store */
static void
set_run_metadata (PsRunSummary *summary,
                  PsEventStore *store)
{
  static const char * const version_keys[] = { "OSVERSION", "os_release", "version", NULL };
  static const char * const build_keys[] = { "BUILD", "kernel_build_id", "build", NULL };
  guint n_sessions = ps_event_store_get_n_sessions (store);
  guint first = summary->session >= 0 ? (guint)summary->session : 0;
  guint last = summary->session >= 0 ? (guint)summary->session + 1 : n_sessions;

  for (guint s = first; s < last && s < n_sessions; s++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, s);

      if (!summary->has_time && info->origin_unix_ns != 0)
        {
          summary->has_time = TRUE;
          summary->time_unix_ns = info->origin_unix_ns;
        }
      if (summary->version == NULL)
        summary->version = g_strdup (session_metadata (store, s, version_keys));
      if (summary->build == NULL)
        summary->build = g_strdup (session_metadata (store, s, build_keys));
    }
}

/* Whether the store has series with values in more than one session */
static gboolean
series_in_sessions (GPtrArray *all_series)
{
  gint64 session = -1;

  for (guint i = 0; i < all_series->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all_series, i);

      if (series->stats.count == 0)
        continue;
      if (session >= 0 && series->session != session)
        return TRUE;
      session = series->session;
    }
  return FALSE;
}

static gboolean
has_series (GPtrArray *all_series)
{
  for (guint i = 0; i < all_series->len; i++)
    if (((const PsSeries *)g_ptr_array_index (all_series, i))->stats.count > 0)
      return TRUE;
  return FALSE;
}

GPtrArray *
ps_run_summary_collect (PsEventStore *store,
                        GCancellable *cancellable)
{
  PsSeriesOptions series_options = { 0 };
  g_autoptr(GPtrArray) all_series = NULL;
  g_autoptr(GHashTable) by_session = NULL;
  g_autoptr(GPtrArray) order = NULL;
  GPtrArray *result;
  Runs runs;
  gboolean profile;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  /* Only the statistics are summed up */
  series_options.group_by_name = TRUE;
  series_options.durations_summary_only = TRUE;
  series_options.cancellable = cancellable;
  all_series = ps_series_collect (store, &series_options);
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  by_session = g_hash_table_new (NULL, NULL);
  order = g_ptr_array_new_with_free_func (run_free);
  runs.by_session = series_in_sessions (all_series);
  runs.runs = by_session;
  runs.order = order;

  add_series (&runs, all_series);

  /* Profiles are their functions, whatever else they have (as diff) */
  profile = ps_event_store_get_n_samples (store) > 0 || ps_event_store_get_n_report_rows (store) > 0;
  if (!runs.by_session && (profile || !has_series (all_series)))
    {
      g_autoptr(PsCallTree) tree = ps_call_tree_diff_tree_for_store (store, cancellable, NULL);

      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (tree != NULL)
        add_functions (runs_get (&runs, 0), tree);
    }

  add_counters (&runs, store);

  /* A store without rows is still a run */
  if (order->len == 0)
    runs_get (&runs, 0);

  result = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_free);
  for (guint i = 0; i < order->len; i++)
    {
      Run *run = g_ptr_array_index (order, i);

      set_run_metadata (run->summary, store);
      g_ptr_array_add (result, g_steal_pointer (&run->summary));
    }
  return result;
}

/* Writing */

static void
append_member (GString    *out,
               guint       indent,
               const char *name)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < indent; i++)
    g_string_append (out, "  ");
  ps_export_append_json_string (out, name);
  g_string_append (out, ": ");
}

static void
append_string_or_null (GString    *out,
                       const char *value)
{
  if (value != NULL)
    ps_export_append_json_string (out, value);
  else
    g_string_append (out, "null");
}

/* A row on one line: a summary has hundreds */
static void
append_row (GString               *out,
            const PsRunSummaryRow *row)
{
  g_string_append (out, "{\"kind\": ");
  ps_export_append_json_string (out, row->kind);
  g_string_append (out, ", \"name\": ");
  ps_export_append_json_string (out, row->name);
  g_string_append (out, ", \"context\": ");
  append_string_or_null (out, row->context);
  g_string_append (out, ", \"unit\": ");
  ps_export_append_json_string (out, row->unit);
  g_string_append (out, ", \"count\": ");
  ps_export_append_integer (out, (gint64)MIN (row->count, (guint64)G_MAXINT64));
  g_string_append (out, ", \"median\": ");
  ps_export_append_json_number (out, row->median);
  g_string_append (out, ", \"p95\": ");
  ps_export_append_json_number (out, row->p95);
  g_string_append (out, ", \"mean\": ");
  ps_export_append_json_number (out, row->mean);
  g_string_append (out, ", \"total\": ");
  ps_export_append_json_number (out, row->total);
  g_string_append_c (out, '}');
}

static char *
format_time (gint64 unix_ns)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (unix_ns / G_GINT64_CONSTANT (1000000000)
                                                                 - (unix_ns % G_GINT64_CONSTANT (1000000000) < 0));
  gint64 rest_ns = unix_ns % G_GINT64_CONSTANT (1000000000);
  g_autoptr(GDateTime) time = NULL;

  if (seconds == NULL)
    return NULL;
  if (rest_ns < 0)
    rest_ns += G_GINT64_CONSTANT (1000000000);
  time = g_date_time_add (seconds, rest_ns / 1000);
  return time != NULL ? g_date_time_format_iso8601 (time) : NULL;
}

void
ps_run_summary_write (GPtrArray *runs,
                      GString   *out)
{
  const PsRunSummary *first;

  g_return_if_fail (runs != NULL && runs->len > 0 && out != NULL);

  first = g_ptr_array_index (runs, 0);
  g_string_append_c (out, '{');
  append_member (out, 1, "perfscope_summary");
  ps_export_append_integer (out, PS_RUN_SUMMARY_VERSION);
  g_string_append_c (out, ',');
  append_member (out, 1, "file");
  append_string_or_null (out, first->file);
  g_string_append_c (out, ',');
  append_member (out, 1, "format");
  append_string_or_null (out, first->format);
  g_string_append_c (out, ',');
  if (first->origin != NULL)
    {
      append_member (out, 1, "origin");
      ps_export_append_json_string (out, first->origin);
      g_string_append_c (out, ',');
    }
  append_member (out, 1, "complete");
  g_string_append (out, first->complete ? "true," : "false,");
  append_member (out, 1, "runs");
  g_string_append_c (out, '[');

  for (guint r = 0; r < runs->len; r++)
    {
      const PsRunSummary *run = g_ptr_array_index (runs, r);
      g_autofree char *time = run->has_time ? format_time (run->time_unix_ns) : NULL;

      g_string_append (out, r > 0 ? ",\n    {" : "\n    {");
      append_member (out, 3, "session");
      if (run->session >= 0)
        ps_export_append_integer (out, run->session);
      else
        g_string_append (out, "null");
      g_string_append_c (out, ',');
      append_member (out, 3, "time");
      append_string_or_null (out, time);
      g_string_append_c (out, ',');
      append_member (out, 3, "time_source");
      append_string_or_null (out, time == NULL ? NULL : run->time_from_file ? "file" : "log");
      g_string_append_c (out, ',');
      append_member (out, 3, "version");
      append_string_or_null (out, run->version);
      g_string_append_c (out, ',');
      append_member (out, 3, "build");
      append_string_or_null (out, run->build);
      g_string_append_c (out, ',');
      append_member (out, 3, "rows");
      g_string_append_c (out, '[');
      for (guint i = 0; i < run->rows->len; i++)
        {
          g_string_append (out, i > 0 ? ",\n        " : "\n        ");
          append_row (out, g_ptr_array_index (run->rows, i));
        }
      g_string_append (out, run->rows->len > 0 ? "\n      ]\n    }" : "]\n    }");
    }
  g_string_append (out, runs->len > 0 ? "\n  ]\n}\n" : "]\n}\n");
}

/* Reading: a JSON reader of the values a summary holds, which skips any
 * member it does not know */

typedef struct
{
  const char *start;
  const char *p;
  const char *end;
  GError    **error;
  guint       depth;
  guint       values;   /* PsRunSummaryValue flags: the row values converted */
} Reader;

static gboolean G_GNUC_PRINTF (2, 3)
reader_fail (Reader     *reader,
             const char *format,
             ...)
{
  g_autofree char *what = NULL;
  g_autofree char *offset = NULL;
  va_list args;

  if (*reader->error != NULL)
    return FALSE;
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  /* A macro inside the message would hide it from xgettext */
  offset = g_strdup_printf ("%" G_GSIZE_FORMAT, (gsize)(reader->p - reader->start));
  g_set_error (reader->error, PS_ERROR, PS_ERROR_PARSE,
               /* Translators: "Not a Perfscope summary: byte offset 53: expected “"”" */
               _("Not a Perfscope summary: byte offset %s: %s"), offset, what);
  return FALSE;
}

static void
skip_space (Reader *reader)
{
  while (reader->p < reader->end
         && (*reader->p == ' ' || *reader->p == '\n' || *reader->p == '\r' || *reader->p == '\t'))
    reader->p++;
}

/* The next character after white space, or 0 at the end */
static char
peek (Reader *reader)
{
  skip_space (reader);
  return reader->p < reader->end ? *reader->p : '\0';
}

static gboolean
expect (Reader *reader,
        char    c)
{
  if (peek (reader) != c)
    return reader_fail (reader, _("expected “%c”"), c);
  reader->p++;
  return TRUE;
}

static gboolean
read_hex4 (Reader  *reader,
           guint32 *out)
{
  guint32 value = 0;

  if (reader->end - reader->p < 4)
    return reader_fail (reader, _("a \\u escape cut short"));
  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (reader->p[i]);

      if (digit < 0)
        return reader_fail (reader, _("a \\u escape with a character that is not hexadecimal"));
      value = value * 16 + (guint32)digit;
    }
  reader->p += 4;
  *out = value;
  return TRUE;
}

/* A string, as UTF-8; NULL after an error */
static char *
read_string (Reader *reader)
{
  g_autoptr(GString) text = NULL;
  const char *text_start;

  if (!expect (reader, '"'))
    return NULL;

  /* Most strings have no escape: copied at once */
  {
    const char *end = reader->p;

    while (end < reader->end && *end != '"' && *end != '\\' && (guchar)*end >= 0x20)
      end++;
    if (end < reader->end && *end == '"')
      {
        if (!g_utf8_validate_len (reader->p, end - reader->p, NULL))
          {
            reader_fail (reader, _("a string that is not UTF-8"));
            return NULL;
          }
        text_start = reader->p;
        reader->p = end + 1;
        return g_strndup (text_start, end - text_start);
      }
  }

  text = g_string_new (NULL);
  for (;;)
    {
      const char *run = reader->p;

      while (reader->p < reader->end && *reader->p != '"' && *reader->p != '\\' && (guchar)*reader->p >= 0x20)
        reader->p++;
      g_string_append_len (text, run, reader->p - run);
      if (reader->p >= reader->end)
        {
          reader_fail (reader, _("a string without its closing quote"));
          return NULL;
        }
      if (*reader->p == '"')
        {
          reader->p++;
          break;
        }
      if ((guchar)*reader->p < 0x20)
        {
          reader_fail (reader, _("a control character in a string"));
          return NULL;
        }

      /* An escape */
      reader->p++;
      if (reader->p >= reader->end)
        {
          reader_fail (reader, _("a string without its closing quote"));
          return NULL;
        }
      switch (*reader->p++)
        {
        case '"':  g_string_append_c (text, '"'); break;
        case '\\': g_string_append_c (text, '\\'); break;
        case '/':  g_string_append_c (text, '/'); break;
        case 'b':  g_string_append_c (text, '\b'); break;
        case 'f':  g_string_append_c (text, '\f'); break;
        case 'n':  g_string_append_c (text, '\n'); break;
        case 'r':  g_string_append_c (text, '\r'); break;
        case 't':  g_string_append_c (text, '\t'); break;
        case 'u':
          {
            guint32 code, low;

            if (!read_hex4 (reader, &code))
              return NULL;
            /* A surrogate pair is one character; a lone surrogate is none */
            if (code >= 0xD800 && code < 0xDC00 && reader->end - reader->p >= 6
                && reader->p[0] == '\\' && reader->p[1] == 'u')
              {
                reader->p += 2;
                if (!read_hex4 (reader, &low))
                  return NULL;
                if (low >= 0xDC00 && low < 0xE000)
                  code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                else
                  code = 0xFFFD;
              }
            if (code >= 0xD800 && code < 0xE000)
              code = 0xFFFD;
            g_string_append_unichar (text, code);
          }
          break;
        default:
          reader->p--;
          reader_fail (reader, _("an unknown escape “\\%c”"), *reader->p);
          return NULL;
        }
    }

  if (!g_utf8_validate_len (text->str, text->len, NULL))
    {
      reader_fail (reader, _("a string that is not UTF-8"));
      return NULL;
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?;
 * moves past it, FALSE after an error */
static gboolean
scan_number (Reader *reader)
{
  const char *p, *end;

  skip_space (reader);
  p = reader->p;
  end = reader->end;
  if (p < end && *p == '-')
    p++;
  if (p >= end || !g_ascii_isdigit (*p))
    return reader_fail (reader, _("expected a number"));
  if (*p == '0')
    p++;
  else
    while (p < end && g_ascii_isdigit (*p))
      p++;
  if (p < end && *p == '.')
    {
      p++;
      if (p >= end || !g_ascii_isdigit (*p))
        return reader_fail (reader, _("expected a number"));
      while (p < end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (p >= end || !g_ascii_isdigit (*p))
        return reader_fail (reader, _("expected a number"));
      while (p < end && g_ascii_isdigit (*p))
        p++;
    }
  reader->p = p;
  return TRUE;
}

/* A number; FALSE after an error */
static gboolean
read_number (Reader *reader,
             double *out)
{
  const char *start;

  skip_space (reader);
  start = reader->p;
  if (!scan_number (reader))
    return FALSE;
  /* JSON's numbers are a subset of what it reads */
  if (!ps_number_parse_double (start, reader->p - start, out))
    {
      reader->p = start;
      return reader_fail (reader, _("expected a number"));
    }
  return TRUE;
}

static gboolean
read_literal (Reader     *reader,
              const char *word)
{
  gsize length = strlen (word);

  skip_space (reader);
  if ((gsize)(reader->end - reader->p) < length || memcmp (reader->p, word, length) != 0)
    return reader_fail (reader, _("expected “%s”"), word);
  reader->p += length;
  return TRUE;
}

static gboolean skip_value (Reader *reader);

/* A member's name; one longer than any this reader knows is read as "" */
static gboolean
read_member_name (Reader *reader,
                  char    name[MAX_MEMBER_NAME])
{
  g_autofree char *text = read_string (reader);

  if (text == NULL)
    return FALSE;
  if (g_strlcpy (name, text, MAX_MEMBER_NAME) >= MAX_MEMBER_NAME)
    name[0] = '\0';
  return TRUE;
}

/* Calls member for each member of an object, which reads its value */
typedef gboolean (*MemberFunc) (Reader     *reader,
                                const char *name,
                                gpointer    user_data);

/* Calls item for each value of an array, which reads it */
typedef gboolean (*ItemFunc) (Reader  *reader,
                              gpointer user_data);

/* An object (member set) or an array (item set): its values read one by
 * one between `open` and `close` */
static gboolean
read_container (Reader     *reader,
                char        open,
                char        close,
                MemberFunc  member,
                ItemFunc    item,
                gpointer    user_data)
{
  if (++reader->depth > MAX_DEPTH)
    return reader_fail (reader, _("nested too deeply"));
  if (!expect (reader, open))
    return FALSE;
  if (peek (reader) == close)
    {
      reader->p++;
      reader->depth--;
      return TRUE;
    }
  for (;;)
    {
      char name[MAX_MEMBER_NAME];

      if (member != NULL
          && (!read_member_name (reader, name) || !expect (reader, ':') || !member (reader, name, user_data)))
        return FALSE;
      if (item != NULL && !item (reader, user_data))
        return FALSE;
      if (peek (reader) == ',')
        {
          reader->p++;
          continue;
        }
      if (!expect (reader, close))
        return FALSE;
      reader->depth--;
      return TRUE;
    }
}

static gboolean
read_object (Reader     *reader,
             MemberFunc  member,
             gpointer    user_data)
{
  return read_container (reader, '{', '}', member, NULL, user_data);
}

static gboolean
read_array (Reader   *reader,
            ItemFunc  item,
            gpointer  user_data)
{
  return read_container (reader, '[', ']', NULL, item, user_data);
}

static gboolean
skip_member (Reader     *reader,
             const char *name,
             gpointer    user_data)
{
  return skip_value (reader);
}

static gboolean
skip_item (Reader  *reader,
           gpointer user_data)
{
  return skip_value (reader);
}

static gboolean
skip_value (Reader *reader)
{
  switch (peek (reader))
    {
    case '{': return read_object (reader, skip_member, NULL);
    case '[': return read_array (reader, skip_item, NULL);
    case '"': g_free (read_string (reader)); return *reader->error == NULL;
    case 't': return read_literal (reader, "true");
    case 'f': return read_literal (reader, "false");
    case 'n': return read_literal (reader, "null");
    default:  return scan_number (reader);
    }
}

/* A string or null (*out NULL) */
static gboolean
read_optional_string (Reader  *reader,
                      char   **out)
{
  g_clear_pointer (out, g_free);
  if (peek (reader) == 'n')
    return read_literal (reader, "null");
  *out = read_string (reader);
  return *out != NULL;
}

/* A number or null (NaN) */
static gboolean
read_optional_number (Reader *reader,
                      double *out)
{
  if (peek (reader) == 'n')
    {
      *out = NAN;
      return read_literal (reader, "null");
    }
  return read_number (reader, out);
}

/* A value of a row, converted when the caller wants it, else only checked
 * and left NaN: converting decimals is most of the cost of reading */
static gboolean
read_row_value (Reader            *reader,
                PsRunSummaryValue  which,
                double            *out)
{
  if (reader->values & which)
    return read_optional_number (reader, out);
  *out = NAN;
  return skip_value (reader);
}

static gboolean
read_boolean (Reader   *reader,
              gboolean *out)
{
  *out = peek (reader) == 't';
  return read_literal (reader, *out ? "true" : "false");
}

static gboolean
read_row_member (Reader     *reader,
                 const char *name,
                 gpointer    user_data)
{
  PsRunSummaryRow *row = user_data;

  /* A summary has many rows: most names are told by their first letter */
  switch (name[0])
    {
    case 'c': case 'k': case 'm': case 'n': case 'p': case 't': case 'u':
      break;
    default:
      return skip_value (reader);
    }

  if (strcmp (name, "kind") == 0)
    {
      g_autofree char *kind = read_string (reader);

      row->kind = kind != NULL ? g_intern_string (kind) : NULL;
      return kind != NULL;
    }
  if (strcmp (name, "name") == 0)
    return read_optional_string (reader, &row->name);
  if (strcmp (name, "context") == 0)
    return read_optional_string (reader, &row->context);
  if (strcmp (name, "unit") == 0)
    {
      g_autofree char *unit = NULL;

      if (!read_optional_string (reader, &unit))
        return FALSE;
      row->unit = unit != NULL ? g_intern_string (unit) : NULL;
      return TRUE;
    }
  if (strcmp (name, "count") == 0)
    {
      double count;

      if (!read_optional_number (reader, &count))
        return FALSE;
      row->count = count >= 0 && count < 1.8e19 ? (guint64)count : 0;
      return TRUE;
    }
  if (strcmp (name, "median") == 0)
    return read_row_value (reader, PS_RUN_SUMMARY_VALUE_MEDIAN, &row->median);
  if (strcmp (name, "p95") == 0)
    return read_row_value (reader, PS_RUN_SUMMARY_VALUE_P95, &row->p95);
  if (strcmp (name, "mean") == 0)
    return read_row_value (reader, PS_RUN_SUMMARY_VALUE_MEAN, &row->mean);
  if (strcmp (name, "total") == 0)
    return read_row_value (reader, PS_RUN_SUMMARY_VALUE_TOTAL, &row->total);
  return skip_value (reader);
}

static gboolean
read_row (Reader  *reader,
          gpointer user_data)
{
  PsRunSummary *run = user_data;
  PsRunSummaryRow *row = g_new0 (PsRunSummaryRow, 1);

  row->median = row->p95 = row->mean = row->total = NAN;
  g_ptr_array_add (run->rows, row);
  if (!read_object (reader, read_row_member, row))
    return FALSE;
  if (row->kind == NULL || row->name == NULL)
    return reader_fail (reader, _("a row without its kind or name"));
  if (row->unit == NULL)
    row->unit = g_intern_static_string ("");
  return TRUE;
}

typedef struct
{
  GPtrArray    *runs;
  PsRunSummary *file;   /* the file's members */
} Summary;

static gboolean
read_run_member (Reader     *reader,
                 const char *name,
                 gpointer    user_data)
{
  PsRunSummary *run = user_data;

  if (strcmp (name, "session") == 0)
    {
      double session;

      if (!read_optional_number (reader, &session))
        return FALSE;
      run->session = session >= 0 && session < G_MAXINT32 ? (gint64)session : -1;
      return TRUE;
    }
  if (strcmp (name, "time") == 0)
    {
      g_autofree char *text = NULL;
      g_autoptr(GDateTime) time = NULL;

      if (!read_optional_string (reader, &text))
        return FALSE;
      time = text != NULL ? g_date_time_new_from_iso8601 (text, NULL) : NULL;
      if (text != NULL && time == NULL)
        return reader_fail (reader, _("a time that is not in ISO 8601 form"));
      run->has_time = time != NULL;
      if (time != NULL)
        run->time_unix_ns = g_date_time_to_unix (time) * G_GINT64_CONSTANT (1000000000)
                            + (gint64)g_date_time_get_microsecond (time) * 1000;
      return TRUE;
    }
  if (strcmp (name, "time_source") == 0)
    {
      g_autofree char *source = NULL;

      if (!read_optional_string (reader, &source))
        return FALSE;
      run->time_from_file = g_strcmp0 (source, "file") == 0;
      return TRUE;
    }
  if (strcmp (name, "version") == 0)
    return read_optional_string (reader, &run->version);
  if (strcmp (name, "build") == 0)
    return read_optional_string (reader, &run->build);
  if (strcmp (name, "rows") == 0)
    return read_array (reader, read_row, run);
  return skip_value (reader);
}

static gboolean
read_run (Reader  *reader,
          gpointer user_data)
{
  Summary *summary = user_data;
  PsRunSummary *run = summary_new (-1);

  g_ptr_array_add (summary->runs, run);
  return read_object (reader, read_run_member, run);
}

static gboolean
read_file_member (Reader     *reader,
                  const char *name,
                  gpointer    user_data)
{
  Summary *summary = user_data;

  if (strcmp (name, "perfscope_summary") == 0)
    {
      double version;

      if (!read_number (reader, &version))
        return FALSE;
      if (version != PS_RUN_SUMMARY_VERSION)
        {
          g_set_error (reader->error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                       _("A Perfscope summary of version %g, which this version does not read"), version);
          return FALSE;
        }
      summary->file->session = 0;  /* marks the version as seen */
      return TRUE;
    }
  if (strcmp (name, "file") == 0)
    return read_optional_string (reader, &summary->file->file);
  if (strcmp (name, "format") == 0)
    return read_optional_string (reader, &summary->file->format);
  if (strcmp (name, "origin") == 0)
    return read_optional_string (reader, &summary->file->origin);
  if (strcmp (name, "complete") == 0)
    return read_boolean (reader, &summary->file->complete);
  if (strcmp (name, "runs") == 0)
    return read_array (reader, read_run, summary);
  return skip_value (reader);
}

gboolean
ps_run_summary_sniff (const char *text,
                      gsize       length)
{
  gsize i = 0;

  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    i = 3;
  while (i < length && g_ascii_isspace (text[i]))
    i++;
  if (i >= length || text[i] != '{')
    return FALSE;
  i++;
  while (i < length && g_ascii_isspace (text[i]))
    i++;
  return length - i >= 19 && memcmp (text + i, "\"perfscope_summary\"", 19) == 0;
}

GPtrArray *
ps_run_summary_read (const char  *text,
                     gsize        length,
                     GError     **error)
{
  return ps_run_summary_read_values (text, length, PS_RUN_SUMMARY_VALUE_ALL, error);
}

GPtrArray *
ps_run_summary_read_values (const char  *text,
                            gsize        length,
                            guint        values,
                            GError     **error)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_run_summary_free);
  g_autoptr(PsRunSummary) file = summary_new (-1);
  Summary summary = { runs, file };
  Reader reader = { text, text, text + length, error, 0, values };

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* The reader needs somewhere to put its error */
  {
    g_autoptr(GError) local_error = NULL;

    reader.error = &local_error;
    if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
      reader.p += 3;
    if (read_object (&reader, read_file_member, &summary) && peek (&reader) != '\0')
      reader_fail (&reader, _("more after the summary’s object"));
    if (local_error == NULL && file->session != 0)
      reader_fail (&reader, _("no “perfscope_summary” member"));
    if (local_error != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local_error));
        return NULL;
      }
  }

  for (guint i = 0; i < runs->len; i++)
    {
      PsRunSummary *run = g_ptr_array_index (runs, i);

      run->file = g_strdup (file->file);
      run->format = g_strdup (file->format);
      run->origin = g_strdup (file->origin);
      run->complete = file->complete;
    }
  return g_steal_pointer (&runs);
}

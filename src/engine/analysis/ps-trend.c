/* ps-trend.c — many runs in order, and where each row changed
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". See ps-trend.h.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-trend.h"

void
ps_trend_options_init (PsTrendOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->order = PS_TREND_BY_TIME;
  options->value = PS_TREND_VALUE_MEDIAN;
  ps_change_point_options_init (&options->detection);
}

/* Text with the numbers in it compared as numbers: "build 9" before
 * "build 10", "6.0.1234" before "6.0.12345" */
static int
compare_natural (const char *a,
                 const char *b)
{
  while (*a != '\0' && *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *end_a, *end_b;
          gsize length_a, length_b;
          int order;

          while (*a == '0' && g_ascii_isdigit (a[1]))
            a++;
          while (*b == '0' && g_ascii_isdigit (b[1]))
            b++;
          for (end_a = a; g_ascii_isdigit (*end_a); end_a++)
            ;
          for (end_b = b; g_ascii_isdigit (*end_b); end_b++)
            ;
          length_a = end_a - a;
          length_b = end_b - b;
          if (length_a != length_b)
            return length_a < length_b ? -1 : 1;
          order = memcmp (a, b, length_a);
          if (order != 0)
            return order;
          a = end_a;
          b = end_b;
          continue;
        }
      if (*a != *b)
        return (guchar)*a < (guchar)*b ? -1 : 1;
      a++;
      b++;
    }
  return (*a != '\0') - (*b != '\0');
}

static int
compare_names (const PsRunSummary *a,
               const PsRunSummary *b)
{
  int order = compare_natural (a->file != NULL ? a->file : "", b->file != NULL ? b->file : "");

  if (order != 0)
    return order;
  return a->session < b->session ? -1 : a->session > b->session;
}

static int
compare_times (const PsRunSummary *a,
               const PsRunSummary *b)
{
  if (a->has_time != b->has_time)
    return a->has_time ? -1 : 1;
  if (a->has_time && a->time_unix_ns != b->time_unix_ns)
    return a->time_unix_ns < b->time_unix_ns ? -1 : 1;
  return compare_names (a, b);
}

static int
compare_versions (const PsRunSummary *a,
                  const PsRunSummary *b)
{
  gboolean known_a = a->version != NULL || a->build != NULL;
  gboolean known_b = b->version != NULL || b->build != NULL;
  int order;

  if (known_a != known_b)
    return known_a ? -1 : 1;
  if (!known_a)
    return compare_names (a, b);
  order = compare_natural (a->version != NULL ? a->version : "", b->version != NULL ? b->version : "");
  if (order == 0)
    order = compare_natural (a->build != NULL ? a->build : "", b->build != NULL ? b->build : "");
  return order != 0 ? order : compare_times (a, b);
}

static int
compare_runs (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const PsRunSummary *run_a = *(PsRunSummary * const *)a;
  const PsRunSummary *run_b = *(PsRunSummary * const *)b;

  switch (*(const PsTrendOrder *)user_data)
    {
    case PS_TREND_BY_VERSION: return compare_versions (run_a, run_b);
    case PS_TREND_BY_NAME:    return compare_names (run_a, run_b);
    case PS_TREND_BY_TIME:
    default:                  return compare_times (run_a, run_b);
    }
}

double
ps_trend_row_value (const PsRunSummaryRow *row,
                    PsTrendValue           value)
{
  double chosen;

  switch (value)
    {
    case PS_TREND_VALUE_P95:   chosen = row->p95; break;
    case PS_TREND_VALUE_TOTAL: chosen = row->total; break;
    case PS_TREND_VALUE_MEDIAN:
    default:                   chosen = row->median; break;
    }
  /* Functions and pooled series have no per-event values */
  return isnan (chosen) ? row->total : chosen;
}

guint
ps_trend_value_flags (PsTrendValue value)
{
  switch (value)
    {
    case PS_TREND_VALUE_P95:   return PS_RUN_SUMMARY_VALUE_P95 | PS_RUN_SUMMARY_VALUE_TOTAL;
    case PS_TREND_VALUE_TOTAL: return PS_RUN_SUMMARY_VALUE_TOTAL;
    case PS_TREND_VALUE_MEDIAN:
    default:                   return PS_RUN_SUMMARY_VALUE_MEDIAN | PS_RUN_SUMMARY_VALUE_TOTAL;
    }
}

static void
trend_row_free (gpointer data)
{
  PsTrendRow *row = data;

  g_free (row->name);
  g_free (row->context);
  g_free (row->runs);
  g_free (row->values);
  g_clear_pointer (&row->change_points, g_array_unref);
  g_free (row);
}

/* A row while the runs are read: its values as they come */
typedef struct
{
  PsTrendRow *row;
  GArray     *runs;     /* guint */
  GArray     *values;   /* double */
} Building;

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const PsTrendRow *row_a = *(PsTrendRow * const *)a;
  const PsTrendRow *row_b = *(PsTrendRow * const *)b;

  if (row_a->largest_change != row_b->largest_change)
    return row_a->largest_change > row_b->largest_change ? -1 : 1;
  return 0;
}

/* Indexes into the row's values as indexes of runs */
static void
map_to_runs (PsTrendRow *row,
             guint       n_runs)
{
  for (guint i = 0; i < row->change_points->len; i++)
    {
      PsChangePoint *point = &g_array_index (row->change_points, PsChangePoint, i);

      point->index = row->runs[point->index];
      point->before_start = row->runs[point->before_start];
      point->after_end = point->after_end < row->n_values ? row->runs[point->after_end] : n_runs;
      row->largest_change = MAX (row->largest_change, fabs (point->relative_change));
    }
}

PsTrend *
ps_trend_new (GPtrArray            *runs,
              const PsTrendOptions *options)
{
  PsTrendOptions defaults;
  g_autoptr(GHashTable) by_key = NULL;
  g_autoptr(GArray) building = NULL;
  g_autoptr(GString) key = g_string_new (NULL);
  PsTrend *trend;

  g_return_val_if_fail (runs != NULL, NULL);

  if (options == NULL)
    {
      ps_trend_options_init (&defaults);
      options = &defaults;
    }

  trend = g_new0 (PsTrend, 1);
  trend->runs = runs;
  trend->rows = g_ptr_array_new_with_free_func (trend_row_free);
  /* Stable: runs of equal keys keep the order they were given in */
  g_ptr_array_sort_with_data (runs, compare_runs, (gpointer)&options->order);

  by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  building = g_array_new (FALSE, FALSE, sizeof (Building));
  for (guint r = 0; r < runs->len; r++)
    {
      const PsRunSummary *run = g_ptr_array_index (runs, r);

      for (guint i = 0; i < run->rows->len; i++)
        {
          const PsRunSummaryRow *summary_row = g_ptr_array_index (run->rows, i);
          double value = ps_trend_row_value (summary_row, options->value);
          gpointer found;
          Building *row;

          g_string_assign (key, summary_row->kind);
          g_string_append_c (key, '\x1f');
          g_string_append (key, summary_row->unit);
          g_string_append_c (key, '\x1f');
          if (summary_row->context != NULL)
            g_string_append (key, summary_row->context);
          g_string_append_c (key, '\x1f');
          g_string_append (key, summary_row->name);
          found = g_hash_table_lookup (by_key, key->str);

          if (found == NULL)
            {
              Building fresh = { 0 };

              fresh.row = g_new0 (PsTrendRow, 1);
              fresh.row->kind = summary_row->kind;
              fresh.row->name = g_strdup (summary_row->name);
              fresh.row->context = g_strdup (summary_row->context);
              fresh.row->unit = summary_row->unit;
              fresh.row->lower_is_better = ps_run_summary_kind_lower_is_better (summary_row->kind);
              fresh.runs = g_array_new (FALSE, FALSE, sizeof (guint));
              fresh.values = g_array_new (FALSE, FALSE, sizeof (double));
              g_array_append_val (building, fresh);
              found = GUINT_TO_POINTER (building->len);
              g_hash_table_insert (by_key, g_strndup (key->str, key->len), found);
            }
          row = &g_array_index (building, Building, GPOINTER_TO_UINT (found) - 1);

          /* A row twice in one run counts once; a run without a value
           * for it is as a run without it */
          if (!isfinite (value) || (row->runs->len > 0 && g_array_index (row->runs, guint, row->runs->len - 1) == r))
            continue;
          g_array_append_val (row->runs, r);
          g_array_append_val (row->values, value);
        }
    }

  for (guint i = 0; i < building->len; i++)
    {
      Building *row = &g_array_index (building, Building, i);

      row->row->n_values = row->values->len;
      row->row->runs = (guint *)(gpointer)g_array_free (row->runs, FALSE);
      row->row->values = (double *)(gpointer)g_array_free (row->values, FALSE);
      row->row->change_points = ps_change_points_find (row->row->values, row->row->n_values, &options->detection);
      map_to_runs (row->row, runs->len);
      g_ptr_array_add (trend->rows, row->row);
    }

  /* Stable: rows without a change keep the order they first came in */
  g_ptr_array_sort (trend->rows, compare_rows);
  return trend;
}

void
ps_trend_free (PsTrend *trend)
{
  if (trend == NULL)
    return;

  g_clear_pointer (&trend->rows, g_ptr_array_unref);
  g_clear_pointer (&trend->runs, g_ptr_array_unref);
  g_free (trend);
}

const PsChangePoint *
ps_trend_row_get_newest_regression (const PsTrend    *trend,
                                    const PsTrendRow *row,
                                    double            min_change)
{
  const PsChangePoint *last;

  g_return_val_if_fail (trend != NULL && row != NULL, NULL);

  if (row->change_points->len == 0 || !row->lower_is_better || row->n_values == 0
      || row->runs[row->n_values - 1] + 1 != trend->runs->len)
    return NULL;

  last = &g_array_index (row->change_points, PsChangePoint, row->change_points->len - 1);
  return last->relative_change >= min_change && last->relative_change > 0 ? last : NULL;
}

guint
ps_trend_count_changed (const PsTrend *trend)
{
  guint n = 0;

  g_return_val_if_fail (trend != NULL, 0);

  /* Rows with change points come first */
  while (n < trend->rows->len && ((PsTrendRow *)g_ptr_array_index (trend->rows, n))->change_points->len > 0)
    n++;
  return n;
}

guint
ps_trend_row_get_run_before (const PsTrendRow    *row,
                             const PsChangePoint *point)
{
  g_return_val_if_fail (row != NULL && point != NULL, 0);

  for (guint i = 1; i < row->n_values; i++)
    if (row->runs[i] == point->index)
      return row->runs[i - 1];
  return point->before_start;
}

gboolean
ps_trend_order_from_string (const char   *text,
                            PsTrendOrder *out)
{
  for (PsTrendOrder order = PS_TREND_BY_TIME; order <= PS_TREND_BY_NAME; order++)
    if (g_strcmp0 (text, ps_trend_order_to_string (order)) == 0)
      {
        *out = order;
        return TRUE;
      }
  return FALSE;
}

gboolean
ps_trend_value_from_string (const char   *text,
                            PsTrendValue *out)
{
  for (PsTrendValue value = PS_TREND_VALUE_MEDIAN; value <= PS_TREND_VALUE_TOTAL; value++)
    if (g_strcmp0 (text, ps_trend_value_to_string (value)) == 0)
      {
        *out = value;
        return TRUE;
      }
  return FALSE;
}

const char *
ps_trend_order_to_string (PsTrendOrder order)
{
  switch (order)
    {
    case PS_TREND_BY_VERSION: return "version";
    case PS_TREND_BY_NAME:    return "name";
    case PS_TREND_BY_TIME:
    default:                  return "time";
    }
}

const char *
ps_trend_value_to_string (PsTrendValue value)
{
  switch (value)
    {
    case PS_TREND_VALUE_P95:   return "p95";
    case PS_TREND_VALUE_TOTAL: return "total";
    case PS_TREND_VALUE_MEDIAN:
    default:                   return "median";
    }
}

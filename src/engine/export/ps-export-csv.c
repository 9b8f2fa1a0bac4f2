/* ps-export-csv.c — tables as comma-separated values (RFC 4180)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export --to csv), "stats", "calltree",
 * "counters": the same numbers as those commands' JSON.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ps-ce-description.h"
#include "ps-counter-name.h"
#include "ps-export-csv.h"
#include "ps-export-writer.h"
#include "ps-util.h"

struct _PsCsvWriter
{
  PsExportWriter *writer;
  gboolean        row_started;
  GString        *cut;          /* a cell being cut */
};

PsCsvWriter *
ps_csv_writer_new (GOutputStream *stream,
                   GCancellable  *cancellable)
{
  PsCsvWriter *self = g_new0 (PsCsvWriter, 1);

  self->writer = ps_export_writer_new (stream, cancellable);
  self->cut = g_string_new (NULL);
  return self;
}

void
ps_csv_writer_free (PsCsvWriter *self)
{
  if (self == NULL)
    return;
  ps_export_writer_free (self->writer);
  g_string_free (self->cut, TRUE);
  g_free (self);
}

void
ps_csv_append_field (GString    *out,
                     const char *text)
{
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static GString *
next_field (PsCsvWriter *self)
{
  GString *out = ps_export_writer_get_buffer (self->writer);

  if (self->row_started)
    g_string_append_c (out, ',');
  self->row_started = TRUE;
  return out;
}

void
ps_csv_writer_add_column (PsCsvWriter *self,
                          const char  *name,
                          const char  *unit)
{
  g_autofree char *cell = NULL;

  if (unit != NULL && *unit != '\0')
    cell = g_strdup_printf ("%s (%s)", name, unit);
  ps_csv_append_field (next_field (self), cell != NULL ? cell : name);
}

void
ps_csv_writer_add_text (PsCsvWriter *self,
                        const char  *text)
{
  g_autofree char *valid = NULL;

  /* Raw bytes from a log are read as Latin-1, as in the JSON output */
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    text = valid = ps_util_display_text (text, -1);
  ps_csv_append_field (next_field (self), text);
}

void
ps_csv_writer_add_cut_text (PsCsvWriter *self,
                            const char  *text)
{
  /* Most names are short: written as they are, without a copy */
  if (text == NULL || memchr (text, '\0', PS_UTIL_NAME_MAX_BYTES + 1) != NULL)
    {
      ps_csv_writer_add_text (self, text);
      return;
    }
  g_string_truncate (self->cut, 0);
  ps_util_append_cut_name (self->cut, text);
  ps_csv_writer_add_text (self, self->cut->str);
}

void
ps_csv_writer_add_number (PsCsvWriter *self,
                          double       value)
{
  GString *out = next_field (self);

  if (isfinite (value))
    ps_export_append_json_number (out, value);
}

void
ps_csv_writer_add_int (PsCsvWriter *self,
                       gint64       value)
{
  ps_export_append_integer (next_field (self), value);
}

void
ps_csv_writer_end_row (PsCsvWriter *self)
{
  g_string_append (ps_export_writer_get_buffer (self->writer), "\r\n");
  self->row_started = FALSE;
  ps_export_writer_flush_some (self->writer);
}

gboolean
ps_csv_writer_finish (PsCsvWriter *self,
                      GError     **error)
{
  return ps_export_writer_finish (self->writer, error);
}

/* Which table ------------------------------------------------------------ */

static gboolean
has_counter_tracks (PsEventStore *store)
{
  guint n = ps_event_store_get_n_tracks (store);

  for (guint t = 0; t < n; t++)
    if (ps_event_store_get_track (store, t)->kind == PS_TRACK_COUNTER)
      return TRUE;
  return FALSE;
}

PsExportCsvTable
ps_export_csv_main_table (PsEventStore *store)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), PS_EXPORT_CSV_NONE);

  if (ps_event_store_get_n_report_rows (store) > 0 || ps_event_store_get_n_samples (store) > 0)
    return PS_EXPORT_CSV_FUNCTIONS;
  if (ps_event_store_get_n_measurements (store) > 0 || ps_event_store_get_n_spans (store) > 0)
    return PS_EXPORT_CSV_STATS;
  if (has_counter_tracks (store))
    return PS_EXPORT_CSV_COUNTERS;
  return PS_EXPORT_CSV_NONE;
}

/* Statistics ------------------------------------------------------------- */

static const char * const stat_columns[] = {
  "sum", "min", "max", "mean", "median", "p90", "p95", "p99", "stddev",
};

gboolean
ps_export_csv_stats (PsEventStore          *store,
                     const PsSeriesOptions *options,
                     GOutputStream         *stream,
                     GCancellable          *cancellable,
                     GError               **error)
{
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(PsCsvWriter) csv = NULL;
  PsSeriesOptions summary = { 0 };
  const char *common_unit = NULL;
  gboolean any_span = FALSE;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  if (options != NULL)
    summary = *options;
  /* Only the statistics are written */
  summary.durations_summary_only = TRUE;
  all = ps_series_collect (store, &summary);

  for (guint i = 0; i < all->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all, i);

      if (i == 0)
        common_unit = series->unit;
      else if (g_strcmp0 (common_unit, series->unit) != 0)
        common_unit = NULL;
      any_span |= series->kind == PS_SERIES_SPAN;
    }

  csv = ps_csv_writer_new (stream, cancellable);
  ps_csv_writer_add_column (csv, "session", NULL);
  ps_csv_writer_add_column (csv, "kind", NULL);
  ps_csv_writer_add_column (csv, "name", NULL);
  ps_csv_writer_add_column (csv, "app", NULL);
  ps_csv_writer_add_column (csv, "id", NULL);
  ps_csv_writer_add_column (csv, "instance", NULL);
  ps_csv_writer_add_column (csv, "context", NULL);
  ps_csv_writer_add_column (csv, "threads", NULL);
  ps_csv_writer_add_column (csv, "unit", NULL);
  ps_csv_writer_add_column (csv, "count", NULL);
  for (guint c = 0; c < G_N_ELEMENTS (stat_columns); c++)
    ps_csv_writer_add_column (csv, stat_columns[c], common_unit);
  ps_csv_writer_add_column (csv, "self_sum", any_span ? common_unit : NULL);
  ps_csv_writer_add_column (csv, "excluded", NULL);
  ps_csv_writer_add_column (csv, "flagged", NULL);
  ps_csv_writer_end_row (csv);

  for (guint i = 0; i < all->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all, i);
      const PsStats *stats = &series->stats;
      const double values[] = {
        stats->sum, stats->min, stats->max, stats->mean, stats->median,
        stats->p90, stats->p95, stats->p99, stats->stddev,
      };
      gboolean span = series->kind == PS_SERIES_SPAN;

      ps_csv_writer_add_int (csv, series->session);
      ps_csv_writer_add_text (csv, ps_series_kind_to_string (series->kind));
      ps_csv_writer_add_text (csv, series->name);
      /* Repeated on each series of theirs, apps and contexts are cut */
      ps_csv_writer_add_cut_text (csv, span ? NULL : series->app);
      if (span)
        {
          g_autoptr(GString) threads = g_string_new (NULL);

          ps_csv_writer_add_text (csv, NULL);
          ps_csv_writer_add_text (csv, NULL);
          ps_csv_writer_add_cut_text (csv, series->context);
          /* The thread ids, space-separated */
          for (guint t = 0; t < series->n_instances; t++)
            g_string_append_printf (threads, "%s%" PRId64, t > 0 ? " " : "",
                                    ps_event_store_get_track (store, series->tracks[t])->number);
          ps_csv_writer_add_text (csv, threads->str);
        }
      else
        {
          ps_csv_writer_add_int (csv, series->id);
          ps_csv_writer_add_int (csv, series->instance);
          ps_csv_writer_add_text (csv, NULL);
          ps_csv_writer_add_text (csv, NULL);
        }
      ps_csv_writer_add_text (csv, series->unit);
      ps_csv_writer_add_int (csv, (gint64)stats->count);
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        ps_csv_writer_add_number (csv, values[v]);
      if (span)
        ps_csv_writer_add_number (csv, series->self_sum);
      else
        ps_csv_writer_add_text (csv, NULL);
      ps_csv_writer_add_int (csv, (gint64)series->n_excluded);
      ps_csv_writer_add_int (csv, (gint64)series->n_flagged);
      ps_csv_writer_end_row (csv);
    }

  return ps_csv_writer_finish (csv, error);
}

/* Call trees ------------------------------------------------------------- */

static gint
compare_functions (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  PsCallTree *tree = user_data;
  guint32 function_a = *(const guint32 *)a;
  guint32 function_b = *(const guint32 *)b;
  double value_a = ps_call_tree_get_function_stats (tree, function_a)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE];
  double value_b = ps_call_tree_get_function_stats (tree, function_b)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE];

  if (value_a != value_b)
    return value_a > value_b ? -1 : 1;
  return function_a < function_b ? -1 : function_a > function_b;
}

static void
add_call_columns (PsCsvWriter *csv,
                  PsCallTree  *tree)
{
  const char *unit = ps_call_unit_to_string (ps_call_tree_get_unit (tree));

  ps_csv_writer_add_column (csv, "name", NULL);
  ps_csv_writer_add_column (csv, "module", NULL);
  ps_csv_writer_add_column (csv, "calls", NULL);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    ps_csv_writer_add_column (csv, ps_call_value_to_string (v), unit);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      g_autofree char *name = g_strconcat (ps_call_value_to_string (v), "_pct", NULL);

      ps_csv_writer_add_column (csv, name, "%");
    }
}

/* A row of a function (is_node FALSE) or of a call path: a path's name
 * is cut, being written once per path, where a function's is written
 * once; the module is cut in both, as every function of a module
 * repeats it */
static void
add_call_cells (PsCsvWriter       *csv,
                PsCallTree        *tree,
                guint32            function,
                gboolean           is_node,
                const PsCallStats *stats,
                PsCallBasis        basis)
{
  if (is_node)
    ps_csv_writer_add_cut_text (csv, ps_call_tree_get_function_name (tree, function));
  else
    ps_csv_writer_add_text (csv, ps_call_tree_get_function_name (tree, function));
  ps_csv_writer_add_cut_text (csv, ps_call_tree_get_function_module (tree, function));
  ps_csv_writer_add_int (csv, (gint64)stats->calls);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    ps_csv_writer_add_number (csv, stats->total[v]);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    ps_csv_writer_add_number (csv, ps_call_tree_get_percent (tree, stats, v, basis));
  ps_csv_writer_end_row (csv);
}

typedef struct
{
  guint32 node;
  guint64 row;         /* its row id, 0 for the root */
  guint   next_child;
} TreeFrame;

gboolean
ps_export_csv_call_tree (PsCallTree    *tree,
                         PsCallBasis    basis,
                         gboolean       with_tree,
                         guint          max_depth,
                         GOutputStream *stream,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(PsCsvWriter) csv = NULL;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  csv = ps_csv_writer_new (stream, cancellable);

  if (!with_tree)
    {
      guint n = ps_call_tree_get_n_functions (tree);
      g_autofree guint32 *order = g_new (guint32, n + 1);

      for (guint i = 0; i < n; i++)
        order[i] = i;
      g_qsort_with_data (order, n, sizeof (guint32), compare_functions, tree);

      add_call_columns (csv, tree);
      ps_csv_writer_end_row (csv);
      for (guint i = 0; i < n && !ps_export_writer_failed (csv->writer); i++)
        add_call_cells (csv, tree, order[i], FALSE, ps_call_tree_get_function_stats (tree, order[i]), basis);
    }
  else
    {
      g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (TreeFrame));
      TreeFrame root = { PS_CALL_NODE_ROOT, 0, 0 };
      guint64 next_row = 1;

      ps_csv_writer_add_column (csv, "id", NULL);
      ps_csv_writer_add_column (csv, "parent", NULL);
      ps_csv_writer_add_column (csv, "depth", NULL);
      add_call_columns (csv, tree);
      ps_csv_writer_end_row (csv);

      if (ps_call_tree_has_top_down (tree))
        g_array_append_val (stack, root);
      /* Depth-first, iterative: any depth fits */
      while (stack->len > 0 && !ps_export_writer_failed (csv->writer))
        {
          TreeFrame *top = &g_array_index (stack, TreeFrame, stack->len - 1);
          guint depth = stack->len;  /* of top's children */
          TreeFrame child;

          if (top->next_child >= ps_call_tree_get_n_children (tree, top->node)
              || (max_depth > 0 && depth > max_depth))
            {
              g_array_set_size (stack, stack->len - 1);
              continue;
            }
          child.node = ps_call_tree_get_child (tree, top->node, top->next_child++);
          child.row = next_row++;
          child.next_child = 0;

          ps_csv_writer_add_int (csv, (gint64)child.row);
          ps_csv_writer_add_int (csv, (gint64)top->row);
          ps_csv_writer_add_int (csv, depth);
          add_call_cells (csv, tree, ps_call_tree_get_node_function (tree, child.node), TRUE,
                          ps_call_tree_get_node_stats (tree, child.node), basis);
          g_array_append_val (stack, child);
        }
    }

  return ps_csv_writer_finish (csv, error);
}

/* Counters --------------------------------------------------------------- */

/* A counter's row of statistics names it whole; its readings, each on a
 * row of its own, name it cut */
static void
add_name_cells (PsCsvWriter         *csv,
                const PsCounterName *name,
                gboolean             per_reading)
{
  void (*add) (PsCsvWriter *, const char *) = per_reading ? ps_csv_writer_add_cut_text : ps_csv_writer_add_text;

  add (csv, name->machine);
  add (csv, name->object);
  add (csv, name->instance);
  add (csv, name->counter);
  if (!per_reading)
    add (csv, name->type);
  add (csv, name->unit);
}

gboolean
ps_export_csv_counters (PsEventStore  *store,
                        gboolean       points,
                        GOutputStream *stream,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(PsCsvWriter) csv = NULL;
  guint n_tracks;
  gboolean absolute;
  const char *time_unit;
  g_autofree PsCounterName *names = NULL;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  n_tracks = ps_event_store_get_n_tracks (store);
  absolute = ps_counter_name_origins_known (store);
  time_unit = absolute ? "ns since 1970" : "ns";
  names = g_new0 (PsCounterName, MAX (n_tracks, 1));
  for (guint32 t = 0; t < n_tracks; t++)
    if (ps_event_store_get_track (store, t)->kind == PS_TRACK_COUNTER)
      ps_counter_name_init (&names[t], store, t, absolute);

  csv = ps_csv_writer_new (stream, cancellable);
  ps_csv_writer_add_column (csv, "machine", NULL);
  ps_csv_writer_add_column (csv, "object", NULL);
  ps_csv_writer_add_column (csv, "instance", NULL);
  ps_csv_writer_add_column (csv, "counter", NULL);

  if (points)
    {
      guint64 n_values = ps_event_store_get_n_counter_values (store);

      ps_csv_writer_add_column (csv, "unit", NULL);
      ps_csv_writer_add_column (csv, "time", time_unit);
      ps_csv_writer_add_column (csv, "value", NULL);
      ps_csv_writer_end_row (csv);

      /* In the order the readings were added: one pass, whatever the
       * number of counters */
      for (guint64 i = 0; i < n_values && !ps_export_writer_failed (csv->writer); i++)
        {
          const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

          if (value->track >= n_tracks || names[value->track].counter == NULL
              || (value->flags & PS_COUNTER_FLAG_MISSING))
            continue;
          add_name_cells (csv, &names[value->track], TRUE);
          ps_csv_writer_add_int (csv, value->time_ns + names[value->track].origin_ns);
          ps_csv_writer_add_number (csv, value->value);
          ps_csv_writer_end_row (csv);
        }
    }
  else
    {
      static const char * const value_columns[] = { "min", "max", "mean", "first", "last" };

      ps_csv_writer_add_column (csv, "type", NULL);
      ps_csv_writer_add_column (csv, "unit", NULL);
      ps_csv_writer_add_column (csv, "count", NULL);
      ps_csv_writer_add_column (csv, "missing", NULL);
      for (guint c = 0; c < G_N_ELEMENTS (value_columns); c++)
        ps_csv_writer_add_column (csv, value_columns[c], NULL);
      ps_csv_writer_add_column (csv, "first_time", time_unit);
      ps_csv_writer_add_column (csv, "last_time", time_unit);
      ps_csv_writer_end_row (csv);

      for (guint32 t = 0; t < n_tracks; t++)
        {
          const PsCounterStats *stats;

          if (names[t].counter == NULL)
            continue;
          stats = ps_event_store_get_counter_stats (store, t);
          add_name_cells (csv, &names[t], FALSE);
          if (stats != NULL && stats->n_values > 0)
            {
              ps_csv_writer_add_int (csv, (gint64)stats->n_values);
              ps_csv_writer_add_int (csv, (gint64)stats->n_missing);
              ps_csv_writer_add_number (csv, stats->min);
              ps_csv_writer_add_number (csv, stats->max);
              ps_csv_writer_add_number (csv, stats->sum / (double)stats->n_values);
              ps_csv_writer_add_number (csv, stats->first);
              ps_csv_writer_add_number (csv, stats->last);
              ps_csv_writer_add_int (csv, stats->first_ns + names[t].origin_ns);
              ps_csv_writer_add_int (csv, stats->last_ns + names[t].origin_ns);
            }
          else
            {
              ps_csv_writer_add_int (csv, 0);
              ps_csv_writer_add_int (csv, stats != NULL ? (gint64)stats->n_missing : 0);
              for (guint c = 0; c < G_N_ELEMENTS (value_columns) + 2; c++)
                ps_csv_writer_add_text (csv, NULL);
            }
          ps_csv_writer_end_row (csv);
        }
    }

  for (guint32 t = 0; t < n_tracks; t++)
    ps_counter_name_clear (&names[t]);
  return ps_csv_writer_finish (csv, error);
}

/* A column per description key, as PerfToCsv has, up to this many: every
 * row has a cell in each, so descriptions with keys of their own each
 * would make the table grow with the square of their number. The keys
 * past them go, as "key=value,key=value", into one last column. */
#define MAX_KEY_COLUMNS 256

gboolean
ps_export_csv_ce_descriptions (PsEventStore          *store,
                               const PsSeriesOptions *options,
                               GOutputStream         *stream,
                               GCancellable          *cancellable,
                               GError               **error)
{
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) durations = g_ptr_array_new ();
  g_autoptr(GPtrArray) expanded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GHashTable) key_columns = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(PsCsvWriter) csv = NULL;
  PsSeriesOptions grouped = { 0 };
  const char *common_unit = NULL;
  gboolean more_keys = FALSE;
  g_autoptr(GString) more = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  if (options != NULL)
    grouped = *options;
  grouped.group_by_name = TRUE;
  grouped.durations_summary_only = TRUE;
  all = ps_series_collect (store, &grouped);

  /* The descriptions expanded with their statistics, and the union of
   * their keys in order of appearance */
  for (guint i = 0; i < all->len; i++)
    {
      PsSeries *series = g_ptr_array_index (all, i);
      PsCeDescriptionStats stats = { 0 };
      GArray *items;

      if (series->kind != PS_SERIES_DURATION)
        continue;
      if (durations->len == 0)
        common_unit = series->unit;
      else if (g_strcmp0 (common_unit, series->unit) != 0)
        common_unit = NULL;
      stats.have_seconds = series->has_seconds && series->stats.count > 0;
      stats.mean_s = series->stats.mean;
      stats.min_s = series->stats.min;
      stats.max_s = series->stats.max;
      items = ps_ce_description_expand (series->name, &stats);
      for (guint k = 0; k < items->len; k++)
        {
          PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, k);

          if (*item->key == '\0' || g_hash_table_contains (key_columns, item->key))
            continue;
          if (keys->len == MAX_KEY_COLUMNS)
            {
              more_keys = TRUE;
              continue;
            }
          g_hash_table_insert (key_columns, item->key, GUINT_TO_POINTER (keys->len));
          g_ptr_array_add (keys, item->key);
        }
      g_ptr_array_add (durations, series);
      g_ptr_array_add (expanded, items);
    }

  csv = ps_csv_writer_new (stream, cancellable);
  ps_csv_writer_add_column (csv, "session", NULL);
  ps_csv_writer_add_column (csv, "app", NULL);
  ps_csv_writer_add_column (csv, "description", NULL);
  for (guint k = 0; k < keys->len; k++)
    ps_csv_writer_add_column (csv, g_ptr_array_index (keys, k), NULL);
  if (more_keys)
    ps_csv_writer_add_column (csv, "more_keys", NULL);
  ps_csv_writer_add_column (csv, "count", NULL);
  ps_csv_writer_add_column (csv, "mean", common_unit);
  ps_csv_writer_add_column (csv, "min", common_unit);
  ps_csv_writer_add_column (csv, "max", common_unit);
  ps_csv_writer_add_column (csv, "sum", common_unit);
  if (common_unit == NULL)
    ps_csv_writer_add_column (csv, "unit", NULL);
  ps_csv_writer_end_row (csv);

  for (guint i = 0; i < durations->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (durations, i);
      GArray *items = g_ptr_array_index (expanded, i);
      g_autofree const char **values = g_new0 (const char *, keys->len + 1);

      g_string_truncate (more, 0);
      for (guint k = 0; k < items->len; k++)
        {
          PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, k);
          gpointer column;

          if (*item->key == '\0')
            continue;
          if (g_hash_table_lookup_extended (key_columns, item->key, NULL, &column))
            values[GPOINTER_TO_UINT (column)] = item->value;
          else
            g_string_append_printf (more, "%s%s=%s", more->len > 0 ? "," : "", item->key, item->value);
        }

      ps_csv_writer_add_int (csv, series->session);
      /* Repeated on each of its descriptions */
      ps_csv_writer_add_cut_text (csv, series->app);
      ps_csv_writer_add_text (csv, series->name);
      for (guint k = 0; k < keys->len; k++)
        ps_csv_writer_add_text (csv, values[k]);
      if (more_keys)
        ps_csv_writer_add_text (csv, more->str);
      ps_csv_writer_add_int (csv, (gint64) series->stats.count);
      ps_csv_writer_add_number (csv, series->stats.mean);
      ps_csv_writer_add_number (csv, series->stats.min);
      ps_csv_writer_add_number (csv, series->stats.max);
      ps_csv_writer_add_number (csv, series->stats.sum);
      if (common_unit == NULL)
        ps_csv_writer_add_text (csv, series->unit);
      ps_csv_writer_end_row (csv);
    }

  return ps_csv_writer_finish (csv, error);
}

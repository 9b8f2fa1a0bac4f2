/* ps-run-diff.c — the comparison of two runs, row by row
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff". The rows and how they are matched are described
 * in ps-run-diff.h; the names are those of ps_series_collect () (what
 * perfscope-cli stats prints) and of ps_call_tree_new_for_store ().
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include "ps-run-diff.h"
#include "ps-call-tree.h"
#include "ps-change-points.h"
#include "ps-call-tree-diff.h"
#include "ps-mann-whitney.h"
#include "ps-proportion-test.h"
#include "ps-series.h"

#define DEFAULT_ALPHA     0.05
#define DEFAULT_THRESHOLD 0.05
#define DEFAULT_MIN_CHANGE 0.10
#define DEFAULT_NOISE_FRACTION 0.01

/* What one run has under one name, before matching */
typedef struct
{
  char       *name;
  char       *context;
  const char *kind;
  const char *unit;          /* static, or a string of the store */
  gboolean    lower_is_better;
  GArray     *values;        /* double; NULL for functions */
  /* Functions: as the tree gives them; series and counters: of values,
   * once they are all collected */
  PsStats     stats;
  /* Sampled functions: the samples with the function on their stack, and
   * all the run's samples; NaN for anything else */
  double      samples;
  double      run_samples;
  gboolean    used;          /* B: matched by a row of A */
} Entry;

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->name);
  g_free (entry->context);
  g_clear_pointer (&entry->values, g_array_unref);
  g_free (entry);
}

/* Kind, unit, context and name: what must agree for two entries to match,
 * so that values of different units are never pooled or compared */
static char *
entry_key (const char *kind,
           const char *unit,
           const char *context,
           const char *name)
{
  return g_strconcat (kind, "\x1f", unit, "\x1f", context != NULL ? context : "", "\x1f", name, NULL);
}

typedef struct
{
  GPtrArray  *entries;   /* Entry*, in order of first appearance */
  GHashTable *by_key;    /* key → Entry* (not owned) */
  gboolean    has_series;
} Side;

static void
side_init (Side *side)
{
  side->entries = g_ptr_array_new_with_free_func (entry_free);
  side->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->by_key, g_hash_table_unref);
  g_clear_pointer (&side->entries, g_ptr_array_unref);
}

/* The entry of that key, created empty if new */
static Entry *
side_lookup (Side       *side,
             const char *kind,
             const char *unit,
             const char *context,
             const char *name,
             gboolean   *created)
{
  g_autofree char *key = entry_key (kind, unit, context, name);
  Entry *entry = g_hash_table_lookup (side->by_key, key);

  *created = entry == NULL;
  if (entry == NULL)
    {
      entry = g_new0 (Entry, 1);
      entry->name = g_strdup (name);
      entry->context = g_strdup (context);
      entry->kind = kind;
      entry->unit = unit;
      entry->samples = entry->run_samples = NAN;
      g_ptr_array_add (side->entries, entry);
      g_hash_table_insert (side->by_key, g_steal_pointer (&key), entry);
    }
  return entry;
}

/* Measured and span series that have values; FALSE when the run has none */
static gboolean
collect_series (Side                   *side,
                PsEventStore           *store,
                gint64                  session,
                const PsRunDiffOptions *options)
{
  PsSeriesOptions series_options = { 0 };
  g_autoptr(GPtrArray) all_series = NULL;
  gboolean any = FALSE;

  series_options.group_by_name = TRUE;
  series_options.tick_rate_override = options->tick_rate_override;
  series_options.cancellable = options->cancellable;
  all_series = ps_series_collect (store, &series_options);
  if (g_cancellable_is_cancelled (options->cancellable))
    return FALSE;

  for (guint i = 0; i < all_series->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all_series, i);
      const char *kind = ps_series_kind_to_string (series->kind);
      gboolean created;
      Entry *entry;

      /* Spans that never ended (an hwpmc log's processes) measured nothing */
      if (series->values->len == 0 || (session >= 0 && series->session != session))
        continue;

      any = TRUE;
      entry = side_lookup (side, kind, series->unit, series->context, series->name, &created);
      /* The first series of a row lends its values, the others add theirs */
      if (created)
        {
          entry->lower_is_better = series->kind != PS_SERIES_COUNTER;
          entry->values = g_array_ref (series->values);
        }
      else
        g_array_append_vals (entry->values, series->values->data, series->values->len);
    }

  return any;
}

/* Whether the run is a profile: sampled stacks or a profiler's report,
 * whose call tree is what it measured */
static gboolean
is_profile (PsEventStore *store)
{
  return ps_event_store_get_n_samples (store) > 0 || ps_event_store_get_n_report_rows (store) > 0;
}

void
ps_run_diff_function_iter_init (PsRunDiffFunctionIter *iter,
                                PsCallTree            *tree)
{
  *iter = (PsRunDiffFunctionIter) {
    .tree = tree,
    .n_functions = ps_call_tree_get_n_functions (tree),
    .sampled = ps_call_tree_get_unit (tree) == PS_CALL_UNIT_SAMPLES,
    .elapsed_total = ps_call_tree_get_elapsed_total (tree),
  };
}

gboolean
ps_run_diff_function_iter_next (PsRunDiffFunctionIter *iter)
{
  const PsCallStats *call_stats;

  if (iter->next >= iter->n_functions)
    return FALSE;
  call_stats = ps_call_tree_get_function_stats (iter->tree, iter->next);
  iter->name = ps_call_tree_get_function_name (iter->tree, iter->next);
  iter->calls = call_stats->calls;
  iter->inclusive = call_stats->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE];
  iter->next++;
  return TRUE;
}

/* Functions of the run's call tree, pooled by name over modules. Sampled
 * trees give their samples and shares; as_percent turns the totals of a
 * timed tree into shares of its elapsed total. */
static void
collect_functions (Side       *side,
                   PsCallTree *tree,
                   gboolean    as_percent)
{
  PsRunDiffFunctionIter functions;
  gboolean sampled;
  double elapsed_total;
  const char *unit;

  ps_run_diff_function_iter_init (&functions, tree);
  sampled = functions.sampled;
  elapsed_total = functions.elapsed_total;
  unit = sampled || as_percent ? "percent" : ps_call_unit_to_string (ps_call_tree_get_unit (tree));
  while (ps_run_diff_function_iter_next (&functions))
    {
      gboolean created;
      Entry *entry = side_lookup (side, "function", unit, NULL, functions.name, &created);

      if (created)
        {
          entry->lower_is_better = TRUE;
          if (sampled)
            {
              entry->samples = 0;
              entry->run_samples = elapsed_total;
            }
        }
      if (sampled)
        entry->samples += isfinite (functions.inclusive) ? functions.inclusive : 0;
      else
        entry->stats.count += functions.calls;
      entry->stats.sum += functions.inclusive;
    }

  /* Trees give totals and calls only: the mean per call, the rest unknown */
  for (guint i = 0; i < side->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (side->entries, i);
      PsStats *stats = &entry->stats;

      if (strcmp (entry->kind, "function") != 0)
        continue;

      if (sampled)
        {
          stats->count = (guint64)llround (entry->samples);
          stats->sum = stats->mean = elapsed_total > 0 ? 100.0 * entry->samples / elapsed_total : NAN;
        }
      else if (as_percent)
        {
          stats->sum = elapsed_total > 0 ? 100.0 * stats->sum / elapsed_total : NAN;
          stats->mean = NAN;
        }
      else
        stats->mean = stats->count > 0 ? stats->sum / (double)stats->count : NAN;
      stats->min = stats->max = stats->median = NAN;
      stats->p90 = stats->p95 = stats->p99 = stats->stddev = NAN;
    }
}

/* The counter path the log wrote, else one made of the track's ancestors
 * as PDH writes paths: \\machine\object(parent/instance#n)\counter */
char *
ps_run_diff_dup_counter_path (PsEventStore  *store,
                              const PsTrack *track)
{
  const char *machine = NULL;
  const char *object = NULL;
  g_autofree char *instance = NULL;
  guint32 ancestor = track->parent;
  guint n_tracks = ps_event_store_get_n_tracks (store);

  if (track->category != 0 && *ps_event_store_get_string (store, track->category) != '\0')
    return g_strdup (ps_event_store_get_string (store, track->category));

  /* A chain longer than the tracks is a broken store */
  for (guint depth = 0; ancestor != PS_NONE && ancestor < n_tracks && depth < n_tracks; depth++)
    {
      const PsTrack *up = ps_event_store_get_track (store, ancestor);

      if (up->kind == PS_TRACK_INSTANCE && instance == NULL)
        {
          const char *parent = up->category != 0 ? ps_event_store_get_string (store, up->category) : "";

          instance = g_strdup_printf ("%s%s%s", parent, *parent != '\0' ? "/" : "",
                                      ps_event_store_get_string (store, up->name));
          if (up->number > 0)
            {
              char *numbered = g_strdup_printf ("%s#%" PRId64, instance, up->number);

              g_free (instance);
              instance = numbered;
            }
        }
      else if (up->kind == PS_TRACK_OBJECT && object == NULL)
        object = ps_event_store_get_string (store, up->name);
      else if (up->kind == PS_TRACK_MACHINE && machine == NULL)
        machine = ps_event_store_get_string (store, up->name);
      ancestor = up->parent;
    }

  return g_strdup_printf ("%s%s\\%s%s%s%s\\%s",
                          machine != NULL ? "\\\\" : "", machine != NULL ? machine : "",
                          object != NULL ? object : "",
                          instance != NULL ? "(" : "", instance != NULL ? instance : "",
                          instance != NULL ? ")" : "",
                          ps_event_store_get_string (store, track->name));
}

/* Counter tracks (of that session when ≥ 0) and their kept readings with
 * a value; FALSE without any counter track */
static gboolean
collect_counters (Side         *side,
                  PsEventStore *store,
                  gint64        session)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  g_autofree Entry **by_track = g_new0 (Entry *, MAX (n_tracks, 1));
  gboolean any = FALSE;

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      g_autofree char *path = NULL;
      gboolean created;
      Entry *entry;

      if (track->kind != PS_TRACK_COUNTER || (session >= 0 && track->session != session))
        continue;

      any = TRUE;
      path = ps_run_diff_dup_counter_path (store, track);
      entry = side_lookup (side, "counter", track->unit != 0 ? ps_event_store_get_string (store, track->unit) : "",
                           NULL, path, &created);
      if (created)
        {
          entry->lower_is_better = FALSE;
          entry->values = g_array_new (FALSE, FALSE, sizeof (double));
        }
      by_track[t] = entry;
    }

  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *reading = ps_event_store_get_counter_value (store, i);

      if (reading->track < n_tracks && by_track[reading->track] != NULL
          && !(reading->flags & PS_COUNTER_FLAG_MISSING) && !isnan (reading->value))
        g_array_append_val (by_track[reading->track]->values, reading->value);
    }

  return any;
}

static void
row_free (gpointer data)
{
  PsRunDiffRow *row = data;

  g_free (row->name);
  g_free (row->a_name);
  g_free (row->context);
  g_free (row);
}

/* Whether an entry makes a row: those of the ways rows were matched; when
 * the runs share nothing, all a run has (its series, or its functions when
 * it has no series, and its counters) */
static gboolean
entry_is_compared (const Side     *side,
                   const Entry    *entry,
                   PsRunDiffMatch  matched)
{
  gboolean is_counter = strcmp (entry->kind, "counter") == 0;
  gboolean is_function = strcmp (entry->kind, "function") == 0;

  if (matched == PS_RUN_DIFF_MATCH_NONE)
    return !is_function || !side->has_series;
  if (is_counter)
    return (matched & PS_RUN_DIFF_MATCH_COUNTERS) != 0;
  if (is_function)
    return (matched & PS_RUN_DIFF_MATCH_FUNCTIONS) != 0;
  return (matched & PS_RUN_DIFF_MATCH_SERIES) != 0;
}

/* The statistics of the values of the entries that make rows. Sorts the
 * values, which only the test of significance reads afterwards, in any
 * order. */
static void
compute_stats (Side           *side,
               PsRunDiffMatch  matched,
               GCancellable   *cancellable)
{
  for (guint i = 0; i < side->entries->len && !g_cancellable_is_cancelled (cancellable); i++)
    {
      Entry *entry = g_ptr_array_index (side->entries, i);

      if (entry->values != NULL && entry_is_compared (side, entry, matched))
        ps_stats_compute_cancellable ((double *)(gpointer)entry->values->data, entry->values->len,
                                      &entry->stats, cancellable);
    }
}

/* What a SIZE verdict compares: a function's total (a per-call mean may
 * fall while the total grows), the mean of other values; NaN without one */
static double
size_value (const Entry *entry)
{
  if (entry->values == NULL)
    return entry->stats.sum;
  return entry->values->len > 0 ? entry->stats.mean : NAN;
}

/* The largest |compared value| of each kind and unit in either run, by
 * entry_key (kind, unit, NULL, "") */
static void
find_largest (GHashTable     *largest,
              const Side     *side,
              PsRunDiffMatch  matched)
{
  for (guint i = 0; i < side->entries->len; i++)
    {
      const Entry *entry = g_ptr_array_index (side->entries, i);
      double magnitude = fabs (size_value (entry));
      g_autofree char *key = NULL;
      double *value;

      if (!isfinite (magnitude) || !entry_is_compared (side, entry, matched))
        continue;

      key = entry_key (entry->kind, entry->unit, NULL, "");
      value = g_hash_table_lookup (largest, key);
      if (value == NULL)
        {
          value = g_new0 (double, 1);
          g_hash_table_insert (largest, g_steal_pointer (&key), value);
        }
      *value = MAX (*value, magnitude);
    }
}

static void
set_change (PsRunDiffRow *row,
            gboolean      higher_in_b)
{
  if (!row->lower_is_better)
    row->change = PS_RUN_DIFF_CHANGED;
  else
    row->change = higher_in_b ? PS_RUN_DIFF_REGRESSION : PS_RUN_DIFF_IMPROVEMENT;
}

/* TEST and PROPORTION: significant and large enough */
static void
judge_significance (PsRunDiffRow           *row,
                    double                  a_value,
                    double                  b_value,
                    const PsRunDiffOptions *options)
{
  double change = ps_change_points_relative_change (a_value, b_value);

  if (isnan (row->p_value) || isnan (change))
    row->reason = PS_RUN_DIFF_REASON_NO_VALUE;
  else if (!(row->p_value < options->alpha))
    row->reason = PS_RUN_DIFF_REASON_NOT_SIGNIFICANT;
  else if (fabs (change) < options->threshold)
    row->reason = PS_RUN_DIFF_REASON_SMALL;
  else
    {
      row->reason = PS_RUN_DIFF_REASON_SIGNIFICANT;
      set_change (row, b_value > a_value);
    }
}

/* SIZE: one value per run, no test */
static void
judge_size (PsRunDiffRow           *row,
            const Entry            *a,
            const Entry            *b,
            const PsRunDiffOptions *options,
            GHashTable             *largest)
{
  g_autofree char *key = entry_key (a->kind, a->unit, NULL, "");
  const double *largest_value = g_hash_table_lookup (largest, key);
  double a_value = size_value (a);
  double b_value = size_value (b);
  double change = ps_change_points_relative_change (a_value, b_value);

  row->basis = PS_RUN_DIFF_BASIS_SIZE;
  /* Rows of a kind and unit without any value have no floor */
  row->noise_floor = largest_value != NULL ? options->noise_fraction * *largest_value : NAN;
  if (!isfinite (a_value) || !isfinite (b_value))
    row->reason = PS_RUN_DIFF_REASON_NO_VALUE;
  else if (fabs (change) < options->min_change)
    row->reason = PS_RUN_DIFF_REASON_SMALL;
  else if (fabs (b_value - a_value) < row->noise_floor)
    row->reason = PS_RUN_DIFF_REASON_NOISE;
  else
    {
      row->reason = PS_RUN_DIFF_REASON_LARGE;
      set_change (row, b_value > a_value);
    }
}

static void
judge_row (PsRunDiffRow           *row,
           const Entry            *a,
           const Entry            *b,
           const PsRunDiffOptions *options,
           GHashTable             *largest)
{
  if (!isnan (a->samples) && !isnan (b->samples))
    {
      row->basis = PS_RUN_DIFF_BASIS_PROPORTION;
      row->p_value = ps_proportion_test (a->samples, a->run_samples, b->samples, b->run_samples, NULL);
      judge_significance (row, row->a.mean, row->b.mean, options);
    }
  else if (a->values != NULL && b->values != NULL && a->values->len >= 2 && b->values->len >= 2)
    {
      PsMannWhitneyResult test;

      row->basis = PS_RUN_DIFF_BASIS_TEST;
      row->p_value = ps_mann_whitney_test_cancellable ((const double *)a->values->data, a->values->len,
                                                       (const double *)b->values->data, b->values->len,
                                                       PS_MANN_WHITNEY_AUTO, &test, options->cancellable);
      judge_significance (row, row->a.mean, row->b.mean, options);
    }
  else
    judge_size (row, a, b, options, largest);
}

static PsRunDiffRow *
row_new (const Entry            *a,
         const Entry            *b,
         const char             *name,
         const PsRunDiffOptions *options,
         GHashTable             *largest)
{
  PsRunDiffRow *row = g_new0 (PsRunDiffRow, 1);
  const Entry *some = a != NULL ? a : b;

  row->name = g_strdup (name);
  row->context = g_strdup (some->context);
  row->kind = some->kind;
  row->unit = some->unit;
  row->lower_is_better = some->lower_is_better;
  row->has_a = a != NULL;
  row->has_b = b != NULL;
  if (a != NULL)
    row->a = a->stats;
  if (b != NULL)
    row->b = b->stats;

  row->delta_mean = row->ratio_mean = NAN;
  row->delta_total = row->ratio_total = NAN;
  row->p_value = NAN;
  row->noise_floor = NAN;
  row->basis = PS_RUN_DIFF_BASIS_NONE;
  row->reason = PS_RUN_DIFF_REASON_ONE_SIDE;
  row->change = PS_RUN_DIFF_UNCHANGED;

  if (a != NULL && b != NULL)
    {
      row->delta_mean = row->b.mean - row->a.mean;
      row->ratio_mean = row->a.mean != 0 ? row->b.mean / row->a.mean : NAN;
      row->delta_total = row->b.sum - row->a.sum;
      row->ratio_total = row->a.sum != 0 ? row->b.sum / row->a.sum : NAN;
      judge_row (row, a, b, options, largest);
    }

  return row;
}

void
ps_run_diff_options_init (PsRunDiffOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->alpha = DEFAULT_ALPHA;
  options->threshold = DEFAULT_THRESHOLD;
  options->min_change = DEFAULT_MIN_CHANGE;
  options->noise_fraction = DEFAULT_NOISE_FRACTION;
  options->session_a = options->session_b = -1;
}

PsRunDiff *
ps_run_diff_new (PsEventStore           *store_a,
                 PsEventStore           *store_b,
                 const PsRunDiffOptions *options)
{
  PsRunDiffOptions defaults;
  Side side_a, side_b;
  gboolean series_a, series_b, counters_a, counters_b;
  g_autoptr(GHashTable) largest = NULL;
  PsRunDiff *diff;

  g_return_val_if_fail (store_a != NULL && store_b != NULL, NULL);

  if (options == NULL)
    {
      ps_run_diff_options_init (&defaults);
      options = &defaults;
    }

  diff = g_new0 (PsRunDiff, 1);
  diff->rows = g_ptr_array_new_with_free_func (row_free);

  side_init (&side_a);
  side_init (&side_b);

  series_a = side_a.has_series = collect_series (&side_a, store_a, options->session_a, options);
  series_b = side_b.has_series = collect_series (&side_b, store_b, options->session_b, options);
  if (series_a && series_b)
    diff->matched |= PS_RUN_DIFF_MATCH_SERIES;

  /* Profiles compare their functions whatever else they have; different
   * kinds of runs (an RTL log and a profiler report, …) share at most the
   * names of their functions. A session's calls are not told apart in a
   * run's call tree. */
  if ((!(series_a && series_b) || (is_profile (store_a) && is_profile (store_b)))
      && options->session_a < 0 && options->session_b < 0)
    {
      /* As the run pages show them: a module without symbols is one
       * function, not one per address */
      g_autoptr(PsCallTree) tree_a = ps_call_tree_diff_tree_for_store (store_a, options->cancellable, NULL);
      g_autoptr(PsCallTree) tree_b = ps_call_tree_diff_tree_for_store (store_b, options->cancellable, NULL);
      gboolean as_percent = FALSE;

      if (tree_a != NULL && tree_b != NULL)
        {
          diff->matched |= PS_RUN_DIFF_MATCH_FUNCTIONS;
          as_percent = ps_call_tree_get_unit (tree_a) != ps_call_tree_get_unit (tree_b);
        }
      if (tree_a != NULL)
        collect_functions (&side_a, tree_a, as_percent);
      if (tree_b != NULL)
        collect_functions (&side_b, tree_b, as_percent);
    }

  counters_a = collect_counters (&side_a, store_a, options->session_a);
  counters_b = collect_counters (&side_b, store_b, options->session_b);
  if (counters_a && counters_b)
    diff->matched |= PS_RUN_DIFF_MATCH_COUNTERS;

  compute_stats (&side_a, diff->matched, options->cancellable);
  compute_stats (&side_b, diff->matched, options->cancellable);
  largest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  find_largest (largest, &side_a, diff->matched);
  find_largest (largest, &side_b, diff->matched);

  /* Rows of A, matched in B under the key with B's name */
  for (guint i = 0; i < side_a.entries->len; i++)
    {
      Entry *a = g_ptr_array_index (side_a.entries, i);
      const char *renamed = options->renames != NULL ? g_hash_table_lookup (options->renames, a->name) : NULL;
      const char *name = renamed != NULL ? renamed : a->name;
      g_autofree char *key = NULL;
      Entry *b;
      PsRunDiffRow *row;

      /* The test of significance of a row reads both its sides */
      if (g_cancellable_is_cancelled (options->cancellable))
        break;
      if (!entry_is_compared (&side_a, a, diff->matched))
        continue;

      key = entry_key (a->kind, a->unit, a->context, name);
      b = g_hash_table_lookup (side_b.by_key, key);
      if (b != NULL && (b->used || !entry_is_compared (&side_b, b, diff->matched)))
        b = NULL;
      if (b != NULL)
        b->used = TRUE;

      row = row_new (a, b, name, options, largest);
      if (renamed != NULL && strcmp (renamed, a->name) != 0)
        row->a_name = g_strdup (a->name);
      g_ptr_array_add (diff->rows, row);
    }

  for (guint i = 0; i < side_b.entries->len; i++)
    {
      Entry *b = g_ptr_array_index (side_b.entries, i);

      if (g_cancellable_is_cancelled (options->cancellable))
        break;
      if (!b->used && entry_is_compared (&side_b, b, diff->matched))
        g_ptr_array_add (diff->rows, row_new (NULL, b, b->name, options, largest));
    }

  side_clear (&side_a);
  side_clear (&side_b);

  if (g_cancellable_is_cancelled (options->cancellable))
    {
      ps_run_diff_free (diff);
      return NULL;
    }
  return diff;
}

void
ps_run_diff_free (PsRunDiff *diff)
{
  if (diff == NULL)
    return;

  g_clear_pointer (&diff->rows, g_ptr_array_unref);
  g_free (diff);
}

gboolean
ps_run_diff_row_compares_totals (const PsRunDiffRow *row)
{
  g_return_val_if_fail (row != NULL, FALSE);

  return row->basis == PS_RUN_DIFF_BASIS_SIZE && strcmp (row->kind, "function") == 0;
}

double
ps_run_diff_row_get_compared_ratio (const PsRunDiffRow *row)
{
  g_return_val_if_fail (row != NULL, NAN);

  return ps_run_diff_row_compares_totals (row) ? row->ratio_total : row->ratio_mean;
}

const PsRunDiffRow *
ps_run_diff_find_row (const PsRunDiff *diff,
                      const char      *name,
                      const char      *kind)
{
  g_return_val_if_fail (diff != NULL && name != NULL, NULL);

  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      if (strcmp (row->name, name) == 0 && (kind == NULL || strcmp (row->kind, kind) == 0))
        return row;
    }
  return NULL;
}

const char *
ps_run_diff_change_to_string (PsRunDiffChange change)
{
  switch (change)
    {
    case PS_RUN_DIFF_REGRESSION:  return "regression";
    case PS_RUN_DIFF_IMPROVEMENT: return "improvement";
    case PS_RUN_DIFF_CHANGED:     return "changed";
    case PS_RUN_DIFF_UNCHANGED:
    default:                      return "unchanged";
    }
}

const char *
ps_run_diff_basis_to_string (PsRunDiffBasis basis)
{
  switch (basis)
    {
    case PS_RUN_DIFF_BASIS_TEST:       return "mann-whitney";
    case PS_RUN_DIFF_BASIS_PROPORTION: return "two-proportion";
    case PS_RUN_DIFF_BASIS_SIZE:       return "size";
    case PS_RUN_DIFF_BASIS_NONE:
    default:                           return "none";
    }
}

const char *
ps_run_diff_reason_to_string (PsRunDiffReason reason)
{
  switch (reason)
    {
    case PS_RUN_DIFF_REASON_SIGNIFICANT:     return "significant";
    case PS_RUN_DIFF_REASON_NOT_SIGNIFICANT: return "not-significant";
    case PS_RUN_DIFF_REASON_SMALL:           return "small";
    case PS_RUN_DIFF_REASON_LARGE:           return "large";
    case PS_RUN_DIFF_REASON_NOISE:           return "noise";
    case PS_RUN_DIFF_REASON_NO_VALUE:        return "no-value";
    case PS_RUN_DIFF_REASON_ONE_SIDE:
    default:                                 return "one-side";
    }
}

char *
ps_run_diff_match_to_string (PsRunDiffMatch matched)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (matched & PS_RUN_DIFF_MATCH_SERIES)
    g_string_append (text, "series");
  if (matched & PS_RUN_DIFF_MATCH_FUNCTIONS)
    g_string_append (text, text->len > 0 ? ",functions" : "functions");
  if (matched & PS_RUN_DIFF_MATCH_COUNTERS)
    g_string_append (text, text->len > 0 ? ",counters" : "counters");
  if (text->len == 0)
    g_string_append (text, "none");
  return g_string_free (g_steal_pointer (&text), FALSE);
}

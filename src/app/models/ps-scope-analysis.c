/* ps-scope-analysis.c — what the RTL view shows, computed off the main thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ps-scope-analysis.h"
#include "ps-scopes.h"
#include "ps-task-util.h"
#include "ps-util.h"

G_DEFINE_BOXED_TYPE (PsScopeAnalysis, ps_scope_analysis, ps_scope_analysis_ref, ps_scope_analysis_unref)

static void
ps_scope_analysis_clear (gpointer data)
{
  PsScopeAnalysis *self = data;

  g_clear_object (&self->store);
  g_clear_pointer (&self->tree, ps_scope_tree_unref);
  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->thread_series, g_ptr_array_unref);
  g_clear_pointer (&self->self_times, g_free);
}

/* The span series only: an RTL store has no measurements, but keep the
 * view to what it shows */
static GPtrArray *
collect_span_series (PsEventStore  *store,
                     PsScopeFilter *filter,
                     gboolean       per_thread,
                     gint64        *self_times,
                     GCancellable  *cancellable)
{
  PsSeriesOptions options = { 0 };
  GPtrArray *all;
  GPtrArray *spans = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_series_free);

  options.durations_summary_only = TRUE;
  options.spans_per_thread = per_thread;
  options.span_filter = filter;
  options.span_self_times = self_times;
  options.cancellable = cancellable;
  all = ps_series_collect (store, &options);

  for (guint i = 0; i < all->len; i++)
    {
      PsSeries *series = g_ptr_array_index (all, i);

      if (series->kind == PS_SERIES_SPAN)
        g_ptr_array_add (spans, g_steal_pointer (&all->pdata[i]));
    }

  /* The rest (none for RTL logs) goes with the array */
  g_ptr_array_unref (all);
  return spans;
}

PsScopeAnalysis *
ps_scope_analysis_new (PsEventStore  *store,
                       PsScopeFilter *filter)
{
  return ps_scope_analysis_new_cancellable (store, filter, NULL);
}

PsScopeAnalysis *
ps_scope_analysis_new_cancellable (PsEventStore  *store,
                                   PsScopeFilter *filter,
                                   GCancellable  *cancellable)
{
  g_autoptr(PsScopeAnalysis) self = NULL;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = g_atomic_rc_box_new0 (PsScopeAnalysis);
  self->store = g_object_ref (store);
  self->tree = ps_scope_tree_new_cancellable (store, filter, cancellable);
  if (self->tree == NULL)
    return NULL;
  /* The self times come with the first pass over the spans */
  self->self_times = g_new0 (gint64, ps_event_store_get_n_spans (store) + 1);
  self->series = collect_span_series (store, filter, FALSE, self->self_times, cancellable);
  self->thread_series = collect_span_series (store, filter, TRUE, NULL, cancellable);
  /* Series cut short are no answer */
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  for (guint r = 0; r < ps_scope_tree_get_n_roots (self->tree); r++)
    {
      self->n_shown_spans += ps_scope_tree_get_root (self->tree, r)->n_spans;
      self->n_shown_marks += ps_scope_tree_get_root (self->tree, r)->n_marks;
    }

  return g_steal_pointer (&self);
}

PsScopeAnalysis *
ps_scope_analysis_ref (PsScopeAnalysis *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
ps_scope_analysis_unref (PsScopeAnalysis *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, ps_scope_analysis_clear);
}

/* Computing under a filter */

typedef struct
{
  PsEventStore  *store;
  PsScopeFilter *filter;
} ComputeData;

static void
compute_data_free (gpointer data)
{
  ComputeData *compute = data;

  g_clear_object (&compute->store);
  g_clear_pointer (&compute->filter, ps_scope_filter_free);
  g_free (compute);
}

static gpointer
compute_analysis (gpointer      data,
                  GCancellable *cancellable)
{
  ComputeData *compute = data;

  return ps_scope_analysis_new_cancellable (compute->store, compute->filter, cancellable);
}

static const PsComputation analysis_computation = {
  .source_tag = ps_scope_analysis_compute_async,
  .compute = compute_analysis,
  .data_free = compute_data_free,
  .result_free = (GDestroyNotify)ps_scope_analysis_unref,
};

void
ps_scope_analysis_compute_async (PsEventStore        *store,
                                 PsScopeFilter       *filter,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  ComputeData *compute;

  g_return_if_fail (PS_IS_EVENT_STORE (store));

  compute = g_new0 (ComputeData, 1);
  compute->store = g_object_ref (store);
  compute->filter = filter;

  ps_task_compute_in_thread (&analysis_computation, compute, cancellable, callback, user_data);
}

PsScopeAnalysis *
ps_scope_analysis_compute_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Search */

typedef struct
{
  PsEventStore *store;
  char         *needle;    /* casefolded */
  GHashTable   *verdicts;  /* string id → 1 + matches */
} Matcher;

static gboolean
matcher_match (Matcher *matcher,
               guint32  string_id)
{
  gpointer verdict = g_hash_table_lookup (matcher->verdicts, GUINT_TO_POINTER (string_id));
  g_autofree char *text = NULL;
  g_autofree char *folded = NULL;
  gboolean matches;

  if (verdict != NULL)
    return GPOINTER_TO_UINT (verdict) - 1;

  /* Log text is bytes; search what the table shows */
  text = ps_util_display_text (ps_event_store_get_string (matcher->store, string_id), -1);
  folded = g_utf8_casefold (text, -1);
  matches = strstr (folded, matcher->needle) != NULL;
  g_hash_table_insert (matcher->verdicts, GUINT_TO_POINTER (string_id), GUINT_TO_POINTER (matches + 1));

  return matches;
}

static void
add_match (PsScopeSearch *search,
           guint          max_results,
           guint32        kind,
           guint32        index)
{
  PsScopeNode node = { kind, index };

  search->n_matches++;
  if (search->nodes->len < max_results)
    g_array_append_val (search->nodes, node);
}

PsScopeSearch *
ps_scope_analysis_search (PsScopeAnalysis *self,
                          const char      *text,
                          guint            max_results,
                          GCancellable    *cancellable)
{
  PsScopeSearch *search;
  Matcher matcher;
  guint64 n_spans, n_marks, m = 0;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  search = g_new0 (PsScopeSearch, 1);
  search->nodes = g_array_new (FALSE, FALSE, sizeof (PsScopeNode));

  matcher.store = self->store;
  matcher.needle = g_utf8_casefold (text, -1);
  matcher.verdicts = g_hash_table_new (NULL, NULL);

  n_spans = ps_event_store_get_n_spans (self->store);
  n_marks = ps_event_store_get_n_marks (self->store);

  /* File order: a message comes before span j iff its position <= j */
  for (guint64 j = 0; j <= n_spans; j++)
    {
      for (; m < n_marks && (j == n_spans || ps_event_store_get_mark (self->store, m)->position <= j); m++)
        if (ps_scope_tree_shows_mark (self->tree, m)
            && matcher_match (&matcher, ps_event_store_get_mark (self->store, m)->text))
          add_match (search, max_results, PS_SCOPE_NODE_MARK, (guint32)m);

      if (j == n_spans)
        break;
      if (ps_scope_tree_shows_span (self->tree, j)
          && matcher_match (&matcher, ps_event_store_get_span (self->store, j)->name))
        add_match (search, max_results, PS_SCOPE_NODE_SPAN, (guint32)j);

      if ((j & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
    }

  g_free (matcher.needle);
  g_hash_table_unref (matcher.verdicts);

  return search;
}

void
ps_scope_search_free (PsScopeSearch *search)
{
  if (search == NULL)
    return;

  g_array_unref (search->nodes);
  g_free (search);
}

typedef struct
{
  PsScopeAnalysis *analysis;
  char            *text;
  guint            max_results;
} SearchData;

static void
search_data_free (gpointer data)
{
  SearchData *search = data;

  ps_scope_analysis_unref (search->analysis);
  g_free (search->text);
  g_free (search);
}

static gpointer
compute_search (gpointer      data,
                GCancellable *cancellable)
{
  SearchData *request = data;

  return ps_scope_analysis_search (request->analysis, request->text, request->max_results, cancellable);
}

static const PsComputation search_computation = {
  .source_tag = ps_scope_analysis_search_async,
  .compute = compute_search,
  .data_free = search_data_free,
  .result_free = (GDestroyNotify)ps_scope_search_free,
};

void
ps_scope_analysis_search_async (PsScopeAnalysis     *self,
                                const char          *text,
                                guint                max_results,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  SearchData *data;

  g_return_if_fail (self != NULL);
  g_return_if_fail (text != NULL);

  data = g_new0 (SearchData, 1);
  data->analysis = ps_scope_analysis_ref (self);
  data->text = g_strdup (text);
  data->max_results = max_results;

  ps_task_compute_in_thread (&search_computation, data, cancellable, callback, user_data);
}

PsScopeSearch *
ps_scope_analysis_search_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Whether a span belongs to a series: the key of ps_series_collect() —
 * name, context of a logical scope, and thread (or session, through the
 * threads the series occurred on). A filter keeps or drops every span of
 * a name and context alike, so it need not be asked again. */
static gboolean
span_in_series (PsEventStore   *store,
                guint64         index,
                const PsSpan   *span,
                const PsSeries *series,
                GHashTable     *names)
{
  guint32 context = (span->flags & PS_SPAN_FLAG_LOGICAL) ? ps_event_store_get_span_context (store, index) : 0;
  guint64 key = ((guint64)span->name << 32) | context;
  gpointer known;
  gboolean on_track = FALSE;

  for (guint i = 0; i < series->n_instances && !on_track; i++)
    on_track = series->tracks[i] == span->track;
  if (!on_track)
    return FALSE;

  /* The strings are compared once per name and context */
  known = g_hash_table_lookup (names, &key);
  if (known == NULL)
    {
      const char *series_context = series->context != NULL ? series->context : "";
      const char *span_context = context != 0 ? ps_event_store_get_string (store, context) : "";
      gboolean match = g_strcmp0 (ps_event_store_get_string (store, span->name), series->name) == 0
                       && g_strcmp0 (span_context, series_context) == 0;

      known = GINT_TO_POINTER (match ? 1 : 2);
      g_hash_table_insert (names, g_memdup2 (&key, sizeof key), known);
    }
  return GPOINTER_TO_INT (known) == 1;
}

GArray *
ps_scope_analysis_get_durations (PsScopeAnalysis  *self,
                                 const PsSeries   *series,
                                 GArray          **span_indexes)
{
  g_autoptr(GHashTable) names = NULL;
  GArray *durations;
  guint64 n_spans;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (series != NULL && series->kind == PS_SERIES_SPAN, NULL);

  durations = g_array_sized_new (FALSE, FALSE, sizeof (double), series->stats.count);
  if (span_indexes == NULL && series->values != NULL && series->values->len == series->stats.count)
    {
      g_array_append_vals (durations, series->values->data, series->values->len);
      return durations;
    }

  if (span_indexes != NULL)
    *span_indexes = g_array_sized_new (FALSE, FALSE, sizeof (guint64), series->stats.count);
  names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  n_spans = ps_event_store_get_n_spans (self->store);
  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (self->store, i);
      double seconds;

      if (!ps_span_is_measured (span) || !span_in_series (self->store, i, span, series, names))
        continue;
      /* As ps_series_collect() computes it */
      seconds = (double)(span->end_ns - span->begin_ns) / 1e9;
      g_array_append_val (durations, seconds);
      if (span_indexes != NULL)
        g_array_append_val (*span_indexes, i);
    }
  return durations;
}

void
ps_scope_analysis_count_exclusions (PsScopeAnalysis   *self,
                                    const PsSeries    *series,
                                    PsScopeExclusions *exclusions)
{
  g_autoptr(GHashTable) names = NULL;
  guint64 n_spans;

  g_return_if_fail (self != NULL);
  g_return_if_fail (series != NULL && series->kind == PS_SERIES_SPAN);
  g_return_if_fail (exclusions != NULL);

  memset (exclusions, 0, sizeof *exclusions);
  names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  n_spans = ps_event_store_get_n_spans (self->store);
  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (self->store, i);

      if (ps_span_is_measured (span) || !span_in_series (self->store, i, span, series, names))
        continue;
      /* In the order ps_span_is_measured() looks at them */
      if (span->flags & PS_SPAN_FLAG_UNTERMINATED)
        exclusions->unterminated++;
      else if (span->flags & PS_SPAN_FLAG_CLOSED_BY_PARENT)
        exclusions->closed_by_parent++;
      else if (span->flags & PS_SPAN_FLAG_CLOCK_BACK)
        exclusions->clock_back++;
      else
        exclusions->negative++;
    }
}

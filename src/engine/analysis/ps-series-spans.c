/* ps-series-spans.c — the series of a run's spans (scopes, calls)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "stats". One series per session and scope name (and
 * context, for logical scopes; and thread, on request), summed from the
 * totals the store keeps when loading, or by a walk over the spans that
 * finds their self times on one thread and sums them on another.
 */
#include "config.h"

#include "ps-series-private.h"
#include "ps-event-store-private.h"
#include "ps-span-totals.h"
#include "ps-util.h"

typedef struct
{
  PsEventStore          *store;
  const PsSeriesOptions *options;
  PsSpanTotals          *totals;
  guint32               *sessions;    /* per track */
  guint                  n_tracks;
  gboolean               filtered;
} SpanCollector;

/* Everything about one span, in one pass: the spans come as they end.
 * The walk gave what the span holds; its session and context are looked
 * up here, on the collecting side. */
static void
collect_span (SpanCollector *self,
              PsEndedSpan   *span)
{
  if (self->options->span_self_times != NULL)
    self->options->span_self_times[span->index] = span->self_ns;

  if (self->filtered && !ps_scope_filter_match_span (self->options->span_filter, self->store, span->index))
    return;

  span->session = span->track < self->n_tracks ? self->sessions[span->track] : 0;
  span->context = (span->flags & PS_SPAN_FLAG_LOGICAL) ? ps_event_store_get_span_context (self->store, span->index) : 0;
  ps_span_totals_add (self->totals, span);
}

static inline void
ended_span_init (PsEndedSpan  *ended,
                 guint64       index,
                 const PsSpan *span,
                 gint64        self_ns)
{
  ended->index = index;
  ended->duration_ns = span->end_ns - span->begin_ns;
  ended->self_ns = self_ns;
  ended->track = span->track;
  ended->name = span->name;
  ended->flags = span->flags;
}

static void
add_span (guint64       index,
          const PsSpan *span,
          gint64        self_ns,
          gpointer      user_data)
{
  PsEndedSpan ended;

  ended_span_init (&ended, index, span, self_ns);
  collect_span (user_data, &ended);
}

/* With many spans, the walk that finds their self times and the
 * collection into series run on two threads: the walk hands the spans
 * over in blocks, in its order, which the sums of the statistics keep. */
#define HANDOFF_MIN_SPANS  65536
#define HANDOFF_BLOCK      8192
#define N_HANDOFF_BLOCKS   8

typedef struct
{
  SpanCollector *collector;
  GThread       *thread;
  GMutex         lock;
  GCond          cond;
  PsEndedSpan   *blocks;            /* N_HANDOFF_BLOCKS × HANDOFF_BLOCK */
  guint          lengths[N_HANDOFF_BLOCKS];
  guint          n_filled;          /* the walk's position, in the block being filled */
  guint          n_produced;
  guint          n_consumed;
  gboolean       done;              /* no more blocks */
  gboolean       producer_waiting;
  gboolean       consumer_waiting;
} Handoff;

static gpointer
handoff_thread (gpointer data)
{
  Handoff *handoff = data;

  g_mutex_lock (&handoff->lock);
  for (;;)
    {
      PsEndedSpan *block;
      guint length;

      while (handoff->n_consumed == handoff->n_produced && !handoff->done)
        {
          handoff->consumer_waiting = TRUE;
          g_cond_wait (&handoff->cond, &handoff->lock);
          handoff->consumer_waiting = FALSE;
        }
      if (handoff->n_consumed == handoff->n_produced)
        break;
      block = &handoff->blocks[(handoff->n_consumed % N_HANDOFF_BLOCKS) * HANDOFF_BLOCK];
      length = handoff->lengths[handoff->n_consumed % N_HANDOFF_BLOCKS];
      g_mutex_unlock (&handoff->lock);

      for (guint i = 0; i < length; i++)
        collect_span (handoff->collector, &block[i]);

      g_mutex_lock (&handoff->lock);
      handoff->n_consumed++;
      /* A full ring wakes the walk only once half of it is free */
      if (handoff->producer_waiting && handoff->n_produced - handoff->n_consumed <= N_HANDOFF_BLOCKS / 2)
        g_cond_broadcast (&handoff->cond);
    }
  g_mutex_unlock (&handoff->lock);

  return NULL;
}

/* Hands the block being filled over, and waits for a free one */
static void
handoff_publish (Handoff *handoff)
{
  g_mutex_lock (&handoff->lock);
  handoff->lengths[handoff->n_produced % N_HANDOFF_BLOCKS] = handoff->n_filled;
  handoff->n_produced++;
  handoff->n_filled = 0;
  if (handoff->consumer_waiting)
    g_cond_broadcast (&handoff->cond);
  if (handoff->n_produced - handoff->n_consumed == N_HANDOFF_BLOCKS)
    {
      handoff->producer_waiting = TRUE;
      while (handoff->n_produced - handoff->n_consumed > N_HANDOFF_BLOCKS / 2)
        g_cond_wait (&handoff->cond, &handoff->lock);
      handoff->producer_waiting = FALSE;
    }
  g_mutex_unlock (&handoff->lock);
}

static void
handoff_span (guint64       index,
              const PsSpan *span,
              gint64        self_ns,
              gpointer      user_data)
{
  Handoff *handoff = user_data;

  ended_span_init (&handoff->blocks[(handoff->n_produced % N_HANDOFF_BLOCKS) * HANDOFF_BLOCK + handoff->n_filled],
                   index, span, self_ns);
  if (++handoff->n_filled == HANDOFF_BLOCK)
    handoff_publish (handoff);
}

static void
walk_spans (PsEventStore  *store,
            SpanCollector *collector)
{
  Handoff handoff = { 0 };

  if (ps_event_store_get_n_spans (store) < HANDOFF_MIN_SPANS)
    {
      ps_scopes_foreach_self_time_cancellable (store, add_span, collector, collector->options->cancellable);
      return;
    }

  handoff.collector = collector;
  handoff.blocks = g_new (PsEndedSpan, N_HANDOFF_BLOCKS * HANDOFF_BLOCK);
  g_mutex_init (&handoff.lock);
  g_cond_init (&handoff.cond);
  handoff.thread = g_thread_new ("perfscope-series", handoff_thread, &handoff);

  ps_scopes_foreach_self_time_cancellable (store, handoff_span, &handoff, collector->options->cancellable);
  if (handoff.n_filled > 0)
    handoff_publish (&handoff);

  g_mutex_lock (&handoff.lock);
  handoff.done = TRUE;
  g_cond_broadcast (&handoff.cond);
  g_mutex_unlock (&handoff.lock);
  g_thread_join (handoff.thread);

  g_mutex_clear (&handoff.lock);
  g_cond_clear (&handoff.cond);
  g_free (handoff.blocks);
}

/* The totals of the store's spans, by a walk over them */
static PsSpanTotals *
walk_totals (PsEventStore          *store,
             const PsSeriesOptions *options)
{
  SpanCollector collector = { 0 };
  PsSpanTotalsFlags flags = 0;

  if (options->spans_per_thread)
    flags |= PS_SPAN_TOTALS_PER_THREAD;
  if (!options->durations_summary_only)
    flags |= PS_SPAN_TOTALS_KEEP_VALUES;

  collector.store = store;
  collector.options = options;
  collector.totals = ps_span_totals_new (flags);
  collector.n_tracks = ps_event_store_get_n_tracks (store);
  collector.sessions = g_new (guint32, collector.n_tracks + 1);
  collector.filtered = !ps_scope_filter_is_empty (options->span_filter);
  for (guint t = 0; t < collector.n_tracks; t++)
    collector.sessions[t] = ps_event_store_get_track (store, t)->session;

  walk_spans (store, &collector);
  g_free (collector.sessions);
  ps_span_totals_finish (collector.totals, options->cancellable);
  return collector.totals;
}

static PsSeries *
span_series_new (PsEventStore      *store,
                 const PsSpanGroup *group,
                 gboolean           keep_values)
{
  PsSeries *series = g_new0 (PsSeries, 1);

  series->name = g_strdup (ps_event_store_get_string (store, group->name));
  series->app = g_strdup ("");
  if (group->context != 0 || group->logical)
    series->context = g_strdup (ps_event_store_get_string (store, group->context));
  series->logical = group->logical;
  series->kind = PS_SERIES_SPAN;
  series->unit = "s";
  series->has_seconds = TRUE;
  series->id = -1;
  series->session = group->session;
  for (guint i = 0; i < group->n_tracks; i++)
    _ps_series_add_track (series, group->tracks[i]);
  series->n_excluded = group->n_excluded;
  series->n_flagged = group->n_flagged;
  series->self_sum = (double)group->self_ns / 1e9;
  series->stats = group->stats;
  if (keep_values)
    {
      series->values = g_array_ref (group->values);
      series->indexes = g_array_ref (group->indexes);
    }
  else
    {
      series->values = g_array_new (FALSE, FALSE, sizeof (double));
      series->indexes = g_array_new (FALSE, FALSE, sizeof (guint64));
    }
  return series;
}

static gint
compare_first_span (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  guint64 first_a = ps_span_totals_get_group (user_data, *(const guint *)a)->first_span;
  guint64 first_b = ps_span_totals_get_group (user_data, *(const guint *)b)->first_span;

  return first_a < first_b ? -1 : first_a > first_b;
}

void
_ps_series_collect_spans (PsEventStore          *store,
                          const PsSeriesOptions *options,
                          GPtrArray             *result)
{
  g_autoptr(PsSpanTotals) walked = NULL;
  g_autofree guint *order = NULL;
  PsSpanTotals *totals = NULL;
  guint n;

  /* Spans summed up while loading instead of kept: the totals are all
   * there is (ps_event_store_get_spans_summarized ()) */
  if (options->durations_summary_only && !options->spans_per_thread && options->span_self_times == NULL
      && ps_scope_filter_is_empty (options->span_filter))
    totals = _ps_event_store_get_span_totals (store);
  if (totals == NULL)
    totals = walked = walk_totals (store, options);

  /* In the order the scopes first began */
  n = ps_span_totals_get_n_groups (totals);
  order = g_new (guint, n + 1);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_first_span, totals);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (result, span_series_new (store, ps_span_totals_get_group (totals, order[i]),
                                              !options->durations_summary_only));
}

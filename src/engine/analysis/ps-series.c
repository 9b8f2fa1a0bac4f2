/* ps-series.c — the measured series of a run and their statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.5 (derived values), cli.md "stats"
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include "ps-series.h"
#include "ps-util.h"

#define N_SERIES_KINDS 3  /* duration, cpu, memory: the measured kinds */

const char *
ps_series_kind_to_string (PsSeriesKind kind)
{
  switch (kind)
    {
    case PS_SERIES_DURATION: return "duration";
    case PS_SERIES_CPU:      return "cpu";
    case PS_SERIES_MEMORY:   return "memory";
    case PS_SERIES_COUNTER:  return "counter";
    case PS_SERIES_SPAN:     return "span";
    default:                 return "unknown";
    }
}

void
ps_series_free (PsSeries *series)
{
  if (series == NULL)
    return;

  g_free (series->name);
  g_free (series->app);
  g_free (series->context);
  if (series->tracks != &series->first_track)
    g_free (series->tracks);
  g_clear_pointer (&series->values, g_array_unref);
  g_clear_pointer (&series->ticks, g_array_unref);
  g_clear_pointer (&series->indexes, g_array_unref);
  g_free (series);
}

static PsSeriesKind
series_kind_for (PsMeasureKind kind)
{
  switch (kind)
    {
    case PS_MEASURE_CPU:    return PS_SERIES_CPU;
    case PS_MEASURE_MEMORY: return PS_SERIES_MEMORY;
    case PS_MEASURE_DURATION:
    case PS_MEASURE_OTHER:
    default:                return PS_SERIES_DURATION;
    }
}

/* summary_of: for durations of which only statistics are kept, empty
 * arrays of doubles and of indexes that all such series share; else NULL */
static PsSeries *
series_new (PsEventStore  *store,
            const PsTrack *track,
            guint32        track_index,
            PsSeriesKind   kind,
            gboolean       has_seconds,
            GArray        *summary_of[2])
{
  PsSeries *series = g_new0 (PsSeries, 1);
  gboolean summary = summary_of != NULL && kind == PS_SERIES_DURATION;

  series->name = g_strdup (ps_event_store_get_string (store, track->name));
  series->app = g_strdup (ps_event_store_get_string (store, track->category));
  series->kind = kind;
  series->id = track->number;
  series->instance = track->ordinal;
  series->session = track->session;
  series->first_line = track->line;
  series->n_instances = 1;
  series->tracks = &series->first_track;
  series->first_track = track_index;
  series->values = summary ? g_array_ref (summary_of[0]) : g_array_new (FALSE, FALSE, sizeof (double));
  series->indexes = summary ? g_array_ref (summary_of[1]) : g_array_new (FALSE, FALSE, sizeof (guint64));

  switch (kind)
    {
    case PS_SERIES_DURATION:
      series->has_seconds = has_seconds;
      series->unit = has_seconds ? "s" : "ticks";
      series->ticks = summary ? g_array_ref (summary_of[0]) : g_array_new (FALSE, FALSE, sizeof (double));
      break;
    case PS_SERIES_CPU:
      series->unit = "percent";
      break;
    case PS_SERIES_MEMORY:
      series->unit = "bytes";
      break;
    case PS_SERIES_COUNTER:
    case PS_SERIES_SPAN:
    default:
      series->unit = "";
      break;
    }

  return series;
}

static void
series_add_track (PsSeries *series,
                  guint32   track_index)
{
  if (series->n_instances == 0)
    series->tracks = &series->first_track;
  else if (series->tracks == &series->first_track)
    {
      series->tracks = g_new (guint32, 2);
      series->tracks[0] = series->first_track;
    }
  else
    series->tracks = g_renew (guint32, series->tracks, series->n_instances + 1);
  series->tracks[series->n_instances++] = track_index;
}

static char *
group_key (PsEventStore  *store,
           const PsTrack *track,
           PsSeriesKind   kind)
{
  const char *app = ps_event_store_get_string (store, track->category);
  const char *name = ps_event_store_get_string (store, track->name);

  /* The application's length keeps the key unambiguous */
  return g_strdup_printf ("%u:%d:%zu:%s%s", track->session, kind, strlen (app), app, name);
}

/* Statistics of values; in_place reorders the array itself (for values
 * that are dropped afterwards), else a copy is used */
static void
compute_stats (GArray       *values,
               PsStats      *out,
               gboolean      in_place,
               GCancellable *cancellable)
{
  g_autofree double *copy = NULL;

  if (values == NULL || values->len == 0)
    {
      memset (out, 0, sizeof *out);
      return;
    }

  if (in_place)
    {
      ps_stats_compute_cancellable ((double *)(gpointer)values->data, values->len, out, cancellable);
      return;
    }

  copy = g_memdup2 (values->data, values->len * sizeof (double));
  ps_stats_compute_cancellable (copy, values->len, out, cancellable);
}

/* Replaces an array with an empty one of the same kind, freeing its memory */
static void
drop_values (GArray **array)
{
  guint element_size = g_array_get_element_size (*array);

  if ((*array)->len == 0)
    return;
  g_array_unref (*array);
  *array = g_array_new (FALSE, FALSE, element_size);
}

/* Spans ----------------------------------------------------------------- */

typedef struct
{
  guint32 session;
  guint32 track;    /* PS_NONE across threads */
  guint32 name;
  guint32 context;
} SpanKey;

static inline gboolean
span_key_equal (const SpanKey *a,
                const SpanKey *b)
{
  return a->name == b->name && a->context == b->context && a->track == b->track && a->session == b->session;
}

static inline guint64
span_key_hash (const SpanKey *key)
{
  guint64 h = ((guint64)key->name << 32 | key->context) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h ^= ((guint64)key->track << 32 | key->session) * G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F);
  return h ^ (h >> 29);
}

/* Open addressing: a span looks up its series once, and millions of
 * spans come by, so a GHashTable's indirections would dominate. */
typedef struct
{
  SpanKey key;
  guint   series;   /* index among the span series; PS_NONE for a free slot */
} SeriesSlot;

/* What a span series gathers while its spans come by, kept together and
 * apart from the PsSeries (which gets it at the end) so that a span
 * touches one small struct */
typedef struct
{
  PsSeries *series;
  guint64   first_span;   /* the first span it counts, by index */
  guint64   track_bits;   /* tracks below 64 it has, as bits */
  double    self_sum;     /* seconds, summed in the order of the spans */
  guint64   n_excluded;
  guint64   n_flagged;
  /* Summary only: the durations while all are whole milliseconds, else
   * NULL (they are doubles in the series' values then) */
  guint32  *whole_ms;
  guint     n_whole_ms;
  guint     whole_ms_size;
} SeriesState;

/* A span as the walk hands it over: what its series and statistics need */
typedef struct
{
  guint64 index;
  gint64  duration_ns;
  gint64  self_ns;
  guint32 track;
  guint32 name;
  guint16 flags;
} FinishedSpan;

typedef struct
{
  PsEventStore          *store;
  const PsSeriesOptions *options;
  GPtrArray             *result;
  SeriesSlot            *slots;
  guint                  mask;
  SpanKey                last_key;
  guint                  last_index;  /* PS_NONE if none */
  guint                  first;       /* the first span series in result */
  GArray                *states;      /* SeriesState, per span series */
  guint32               *sessions;    /* per track */
  guint                  n_tracks;
  gboolean               filtered;
} SpanCollector;

/* Durations kept as whole milliseconds take 4 bytes instead of 8 until the
 * statistics are computed, one series at a time. RTL times have a
 * resolution of 1 ms, so a whole log fits; the first duration of a series
 * that does not moves its values to doubles. */
#define WHOLE_MS_NS G_GINT64_CONSTANT (1000000)

static void
add_duration (SeriesState *state,
              gint64       duration_ns)
{
  double value;

  if (state->whole_ms != NULL)
    {
      if (G_LIKELY (duration_ns % WHOLE_MS_NS == 0 && duration_ns / WHOLE_MS_NS <= G_MAXUINT32))
        {
          if (G_UNLIKELY (state->n_whole_ms == state->whole_ms_size))
            {
              state->whole_ms_size *= 2;
              state->whole_ms = g_renew (guint32, state->whole_ms, state->whole_ms_size);
            }
          state->whole_ms[state->n_whole_ms++] = (guint32)(duration_ns / WHOLE_MS_NS);
          return;
        }
      for (guint i = 0; i < state->n_whole_ms; i++)
        {
          value = (double)((gint64)state->whole_ms[i] * WHOLE_MS_NS) / 1e9;
          g_array_append_val (state->series->values, value);
        }
      g_clear_pointer (&state->whole_ms, g_free);
      state->n_whole_ms = 0;
    }

  value = (double)duration_ns / 1e9;
  g_array_append_val (state->series->values, value);
}

static void
series_slots_grow (SpanCollector *self)
{
  guint n_slots = self->slots != NULL ? (self->mask + 1) * 2 : 256;
  SeriesSlot *slots = g_new (SeriesSlot, n_slots);

  for (guint i = 0; i < n_slots; i++)
    slots[i].series = PS_NONE;
  for (guint i = 0; self->slots != NULL && i <= self->mask; i++)
    {
      guint j;

      if (self->slots[i].series == PS_NONE)
        continue;
      for (j = span_key_hash (&self->slots[i].key) & (n_slots - 1); slots[j].series != PS_NONE; j = (j + 1) & (n_slots - 1))
        ;
      slots[j] = self->slots[i];
    }

  g_free (self->slots);
  self->slots = slots;
  self->mask = n_slots - 1;
}

/* The series of a span, made on first sight; returns its index among the
 * span series */
static guint
span_series (SpanCollector      *self,
             const FinishedSpan *span)
{
  SpanKey key;
  PsSeries *series;
  SeriesState state = { 0 };
  guint i;

  key.session = span->track < self->n_tracks ? self->sessions[span->track] : 0;
  key.track = self->options->spans_per_thread ? span->track : PS_NONE;
  key.name = span->name;
  key.context = (span->flags & PS_SPAN_FLAG_LOGICAL) ? ps_event_store_get_span_context (self->store, span->index) : 0;

  if (self->last_index != PS_NONE && span_key_equal (&key, &self->last_key))
    return self->last_index;

  for (i = span_key_hash (&key) & self->mask; self->slots[i].series != PS_NONE; i = (i + 1) & self->mask)
    {
      if (span_key_equal (&self->slots[i].key, &key))
        {
          self->last_key = key;
          self->last_index = self->slots[i].series;
          return self->last_index;
        }
    }

  series = g_new0 (PsSeries, 1);
  series->name = g_strdup (ps_event_store_get_string (self->store, span->name));
  series->app = g_strdup ("");
  if (key.context != 0 || (span->flags & PS_SPAN_FLAG_LOGICAL))
    series->context = g_strdup (ps_event_store_get_string (self->store, key.context));
  series->logical = (span->flags & PS_SPAN_FLAG_LOGICAL) != 0;
  series->kind = PS_SERIES_SPAN;
  series->unit = "s";
  series->has_seconds = TRUE;
  series->id = -1;
  series->session = key.session;
  series->values = g_array_new (FALSE, FALSE, sizeof (double));
  series->indexes = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_ptr_array_add (self->result, series);

  state.series = series;
  state.first_span = span->index;
  if (self->options->durations_summary_only)
    {
      state.whole_ms_size = 16;
      state.whole_ms = g_new (guint32, state.whole_ms_size);
    }
  g_array_append_val (self->states, state);

  self->slots[i].key = key;
  self->slots[i].series = self->states->len - 1;
  if (self->states->len * 2 > self->mask)
    series_slots_grow (self);

  self->last_key = key;
  self->last_index = self->states->len - 1;
  return self->last_index;
}

static void
series_add_span_track (PsSeries *series,
                       guint32   track)
{
  for (guint i = 0; i < series->n_instances; i++)
    if (series->tracks[i] == track)
      return;
  series_add_track (series, track);
}

/* Everything about one span, in one pass: the spans come as they end */
static void
collect_span (SpanCollector      *self,
              const FinishedSpan *span)
{
  SeriesState *state;
  guint series_index;

  if (self->options->span_self_times != NULL)
    self->options->span_self_times[span->index] = span->self_ns;

  if (self->filtered && !ps_scope_filter_match_span (self->options->span_filter, self->store, span->index))
    return;

  /* Before taking the address: a new series moves the states */
  series_index = span_series (self, span);
  state = &g_array_index (self->states, SeriesState, series_index);
  if (span->track >= 64)
    series_add_span_track (state->series, span->track);
  else if (!(state->track_bits & (G_GUINT64_CONSTANT (1) << span->track)))
    {
      state->track_bits |= G_GUINT64_CONSTANT (1) << span->track;
      series_add_span_track (state->series, span->track);
    }
  state->first_span = MIN (state->first_span, span->index);

  /* ps_span_is_measured() */
  if ((span->flags & PS_SPAN_FLAGS_NOT_MEASURED) != 0 || span->duration_ns < 0)
    {
      state->n_excluded++;
      return;
    }
  if (span->flags & (PS_SPAN_FLAG_NAME_MISMATCH | PS_SPAN_FLAG_TRUNCATED))
    state->n_flagged++;

  add_duration (state, span->duration_ns);
  if (!self->options->durations_summary_only)
    g_array_append_val (state->series->indexes, span->index);
  state->self_sum += (double)span->self_ns / 1e9;
}

static inline void
finished_span_init (FinishedSpan *finished,
                    guint64       index,
                    const PsSpan *span,
                    gint64        self_ns)
{
  finished->index = index;
  finished->duration_ns = span->end_ns - span->begin_ns;
  finished->self_ns = self_ns;
  finished->track = span->track;
  finished->name = span->name;
  finished->flags = span->flags;
}

static void
add_span (guint64       index,
          const PsSpan *span,
          gint64        self_ns,
          gpointer      user_data)
{
  FinishedSpan finished;

  finished_span_init (&finished, index, span, self_ns);
  collect_span (user_data, &finished);
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
  FinishedSpan  *blocks;            /* N_HANDOFF_BLOCKS × HANDOFF_BLOCK */
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
      const FinishedSpan *block;
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

  finished_span_init (&handoff->blocks[(handoff->n_produced % N_HANDOFF_BLOCKS) * HANDOFF_BLOCK + handoff->n_filled],
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
  handoff.blocks = g_new (FinishedSpan, N_HANDOFF_BLOCKS * HANDOFF_BLOCK);
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

static gint
compare_track (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  guint32 track_a = *(const guint32 *)a;
  guint32 track_b = *(const guint32 *)b;

  return track_a < track_b ? -1 : track_a > track_b;
}

static gint
compare_first_span (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const SeriesState *states = user_data;
  guint64 first_a = states[*(const guint *)a].first_span;
  guint64 first_b = states[*(const guint *)b].first_span;

  return first_a < first_b ? -1 : first_a > first_b;
}

static void
collect_spans (PsEventStore          *store,
               const PsSeriesOptions *options,
               GPtrArray             *result)
{
  SpanCollector collector = { 0 };
  g_autofree guint *order = NULL;
  g_autofree gpointer *sorted = NULL;
  guint n;

  collector.store = store;
  collector.options = options;
  collector.result = result;
  collector.last_index = PS_NONE;
  collector.first = result->len;
  collector.states = g_array_new (FALSE, FALSE, sizeof (SeriesState));
  collector.n_tracks = ps_event_store_get_n_tracks (store);
  collector.sessions = g_new (guint32, collector.n_tracks + 1);
  collector.filtered = !ps_scope_filter_is_empty (options->span_filter);
  for (guint t = 0; t < collector.n_tracks; t++)
    collector.sessions[t] = ps_event_store_get_track (store, t)->session;
  series_slots_grow (&collector);

  walk_spans (store, &collector);
  g_clear_pointer (&collector.slots, g_free);
  g_clear_pointer (&collector.sessions, g_free);

  for (guint i = 0; i < collector.states->len; i++)
    {
      SeriesState *state = &g_array_index (collector.states, SeriesState, i);
      PsSeries *series = state->series;

      series->self_sum = state->self_sum;
      series->n_excluded = state->n_excluded;
      series->n_flagged = state->n_flagged;
      /* Threads in the order they appeared in the log */
      g_qsort_with_data (series->tracks, series->n_instances, sizeof (guint32), compare_track, NULL);
      if (state->whole_ms != NULL)
        ps_stats_compute_ms (state->whole_ms, state->n_whole_ms, &series->stats);
      else
        compute_stats (series->values, &series->stats, options->durations_summary_only, options->cancellable);
      g_clear_pointer (&state->whole_ms, g_free);
      if (options->durations_summary_only)
        {
          drop_values (&series->values);
          drop_values (&series->indexes);
        }
    }

  /* In the order the scopes first began */
  n = collector.states->len;
  order = g_new (guint, n + 1);
  sorted = g_new (gpointer, n + 1);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_first_span, collector.states->data);
  for (guint i = 0; i < n; i++)
    sorted[i] = g_array_index (collector.states, SeriesState, order[i]).series;
  memcpy (result->pdata + collector.first, sorted, n * sizeof (gpointer));
  g_array_unref (collector.states);
}

/* The series a measurement goes into, or PS_NONE */
static guint32
measurement_series (const PsMeasurement   *m,
                    const PsSeriesOptions *options,
                    const guint32         *series_of,
                    guint                  n_tracks)
{
  if (m->kind == PS_MEASURE_OTHER || m->track >= n_tracks)
    return PS_NONE;
  if (options->has_index_range && (m->index < options->index_first || m->index > options->index_last))
    return PS_NONE;
  return series_of[m->track * N_SERIES_KINDS + series_kind_for (m->kind)];
}

/* Durations of which only the statistics are kept. They are counted per
 * series first, then written into two buffers, series after series, in
 * file order within each: a log of a hundred thousand markers needs no
 * array of its own for each, and its values go in one piece. */
typedef struct
{
  gsize  *start;   /* series → its first slot; start[n_series] = all of them */
  gsize  *next;    /* series → its next free slot */
  double *values;  /* in the series' unit */
  double *ticks;
} Summaries;

static void
summaries_clear (Summaries *self)
{
  g_clear_pointer (&self->start, g_free);
  g_clear_pointer (&self->next, g_free);
  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->ticks, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Summaries, summaries_clear)

/* FALSE when cancelled */
static gboolean
summaries_init (Summaries             *self,
                PsEventStore          *store,
                const PsSeriesOptions *options,
                const guint32         *series_of,
                guint                  n_tracks,
                guint                  n_series)
{
  PsMeasurementIter iter;
  PsMeasurement m;

  self->start = g_new0 (gsize, n_series + 1);
  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      guint32 index;

      if (ps_util_stop_at (m.index, options->cancellable))
        return FALSE;
      if (m.kind != PS_MEASURE_DURATION
          || ((m.flags & PS_MEASURE_FLAG_NEGATIVE) && !options->include_negative))
        continue;
      index = measurement_series (&m, options, series_of, n_tracks);
      if (index != PS_NONE)
        self->start[index + 1]++;
    }

  for (guint i = 0; i < n_series; i++)
    self->start[i + 1] += self->start[i];
  self->next = g_memdup2 (self->start, (n_series + 1) * sizeof (gsize));
  self->values = g_new (double, self->start[n_series] + 1);
  self->ticks = g_new (double, self->start[n_series] + 1);
  return TRUE;
}

GPtrArray *
ps_series_collect (PsEventStore          *store,
                   const PsSeriesOptions *options)
{
  static const PsSeriesOptions default_options = { 0 };
  static const guint16 kind_flags[N_SERIES_KINDS] = {
    PS_TRACK_FLAG_HAS_DURATION, PS_TRACK_FLAG_HAS_CPU, PS_TRACK_FLAG_HAS_MEMORY,
  };
  static const PsSeriesKind kinds[N_SERIES_KINDS] = {
    PS_SERIES_DURATION, PS_SERIES_CPU, PS_SERIES_MEMORY,
  };
  g_autoptr(GPtrArray) result = NULL;
  g_autoptr(GHashTable) groups = NULL;
  g_autofree guint32 *series_of = NULL;  /* track × kind → series index, or PS_NONE */
  g_auto(Summaries) summaries = { 0 };
  g_autoptr(GArray) no_values = NULL;
  g_autoptr(GArray) no_indexes = NULL;
  PsMeasurementIter iter;
  PsMeasurement m;
  guint n_tracks;
  double rate = 0;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  if (options == NULL)
    options = &default_options;

  result = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_series_free);
  groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  n_tracks = ps_event_store_get_n_tracks (store);
  series_of = g_new (guint32, (gsize)n_tracks * N_SERIES_KINDS + 1);
  if (options->durations_summary_only)
    {
      no_values = g_array_new (FALSE, FALSE, sizeof (double));
      no_indexes = g_array_new (FALSE, FALSE, sizeof (guint64));
    }

  for (guint t = 0; t < n_tracks; t++)
    {
      const PsTrack *track;
      gboolean has_seconds;

      /* A log may declare hundreds of thousands of markers: a look at the
       * cancellable every 4096 of them */
      if ((t & 0xFFF) == 0 && g_cancellable_is_cancelled (options->cancellable))
        return g_steal_pointer (&result);

      track = ps_event_store_get_track (store, t);
      has_seconds = options->tick_rate_override > 0 || ps_event_store_get_n_tick_rates (store, track->session) > 0;

      for (guint k = 0; k < N_SERIES_KINDS; k++)
        {
          series_of[t * N_SERIES_KINDS + k] = PS_NONE;

          if ((track->flags & kind_flags[k]) == 0)
            continue;

          if (options->group_by_name)
            {
              g_autofree char *key = group_key (store, track, kinds[k]);
              gpointer found = g_hash_table_lookup (groups, key);

              if (found != NULL)
                {
                  guint index = GPOINTER_TO_UINT (found) - 1;

                  series_add_track (g_ptr_array_index (result, index), t);
                  series_of[t * N_SERIES_KINDS + k] = index;
                  continue;
                }
              g_hash_table_insert (groups, g_steal_pointer (&key), GUINT_TO_POINTER (result->len + 1));
            }

          series_of[t * N_SERIES_KINDS + k] = result->len;
          g_ptr_array_add (result, series_new (store, track, t, kinds[k], has_seconds,
                                               options->durations_summary_only ? (GArray *[2]) { no_values, no_indexes } : NULL));
        }
    }

  if (options->durations_summary_only
      && !summaries_init (&summaries, store, options, series_of, n_tracks, result->len))
    return g_steal_pointer (&result);

  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      PsSeries *series;
      guint32 index;
      double value;

      if (ps_util_stop_at (m.index, options->cancellable))
        break;

      index = measurement_series (&m, options, series_of, n_tracks);
      if (index == PS_NONE)
        continue;
      series = g_ptr_array_index (result, index);

      switch ((PsMeasureKind)m.kind)
        {
        case PS_MEASURE_DURATION:
          {
            double ticks = (double)m.value.ticks;

            if ((m.flags & PS_MEASURE_FLAG_NEGATIVE) && !options->include_negative)
              {
                series->n_excluded++;
                continue;
              }

            /* The rate in effect at this event (ce-perflog.md §7 #8) */
            if (options->tick_rate_override > 0)
              rate = options->tick_rate_override;
            else
              rate = ps_event_store_get_tick_rate (store, series->session, m.index);

            value = series->has_seconds && rate > 0 ? ticks / rate : ticks;
            if (summaries.values != NULL)
              {
                gsize at = summaries.next[index]++;

                summaries.values[at] = value;
                summaries.ticks[at] = ticks;
                continue;
              }
            g_array_append_val (series->ticks, ticks);
          }
          break;

        case PS_MEASURE_CPU:
          value = m.value.number;
          if (m.flags & PS_MEASURE_FLAG_OUT_OF_RANGE)
            series->n_flagged++;
          break;

        case PS_MEASURE_MEMORY:
          if (m.flags & PS_MEASURE_FLAG_FRACTIONAL)
            {
              value = m.value.number;
              series->n_flagged++;
            }
          else
            value = (double)m.value.bytes;
          break;

        case PS_MEASURE_OTHER:
        default:
          continue;
        }

      g_array_append_val (series->values, value);
      g_array_append_val (series->indexes, m.index);
    }

  for (guint i = 0; i < result->len; i++)
    {
      PsSeries *series = g_ptr_array_index (result, i);
      gboolean summary = summaries.values != NULL && series->kind == PS_SERIES_DURATION;
      gsize first = summary ? summaries.start[i] : 0;
      gsize count = summary ? summaries.start[i + 1] - first : series->values->len;

      /* Selecting the percentiles takes most of the time: a look every
       * 256 series and before a big one, whose statistics look too */
      if (((i & 0xFF) == 0 || count > 65536) && g_cancellable_is_cancelled (options->cancellable))
        return g_steal_pointer (&result);
      if (summary)
        {
          ps_stats_compute_cancellable (summaries.values + first, count, &series->stats, options->cancellable);
          ps_stats_compute_cancellable (summaries.ticks + first, count, &series->ticks_stats, options->cancellable);
          continue;
        }
      compute_stats (series->values, &series->stats, FALSE, options->cancellable);
      if (series->ticks != NULL)
        compute_stats (series->ticks, &series->ticks_stats, FALSE, options->cancellable);
    }
  summaries_clear (&summaries);

  if (ps_event_store_get_n_spans (store) > 0)
    collect_spans (store, options, result);

  return g_steal_pointer (&result);
}

double
ps_series_measurement_value (PsEventStore        *store,
                             const PsMeasurement *measurement)
{
  const PsTrack *track;
  double rate;

  switch ((PsMeasureKind)measurement->kind)
    {
    case PS_MEASURE_DURATION:
      track = ps_event_store_get_track (store, measurement->track);
      rate = track != NULL ? ps_event_store_get_tick_rate (store, track->session, measurement->index) : 0;
      return rate > 0 ? (double)measurement->value.ticks / rate : (double)measurement->value.ticks;
    case PS_MEASURE_CPU:
      return measurement->value.number;
    case PS_MEASURE_MEMORY:
      return (measurement->flags & PS_MEASURE_FLAG_FRACTIONAL) ? measurement->value.number
                                                                : (double)measurement->value.bytes;
    case PS_MEASURE_OTHER:
    default:
      return NAN;
    }
}

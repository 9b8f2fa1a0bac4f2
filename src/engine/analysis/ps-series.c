/* ps-series.c — the measured series of a run and their statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.5 (derived values), cli.md "stats"
 */
#include "config.h"

#include <string.h>

#include "ps-series.h"

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

static PsSeries *
series_new (PsEventStore  *store,
            const PsTrack *track,
            guint32        track_index,
            PsSeriesKind   kind,
            gboolean       has_seconds)
{
  PsSeries *series = g_new0 (PsSeries, 1);

  series->name = g_strdup (ps_event_store_get_string (store, track->name));
  series->app = g_strdup (ps_event_store_get_string (store, track->category));
  series->kind = kind;
  series->id = track->number;
  series->instance = track->ordinal;
  series->session = track->session;
  series->first_line = track->line;
  series->n_instances = 1;
  series->tracks = g_new (guint32, 1);
  series->tracks[0] = track_index;
  series->values = g_array_new (FALSE, FALSE, sizeof (double));
  series->indexes = g_array_new (FALSE, FALSE, sizeof (guint64));

  switch (kind)
    {
    case PS_SERIES_DURATION:
      series->has_seconds = has_seconds;
      series->unit = has_seconds ? "s" : "ticks";
      series->ticks = g_array_new (FALSE, FALSE, sizeof (double));
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
  return g_strdup_printf ("%u:%d:%" G_GSIZE_FORMAT ":%s%s", track->session, kind, strlen (app), app, name);
}

/* Statistics of values; in_place reorders the array itself (for values
 * that are dropped afterwards), else a copy is used */
static void
compute_stats (GArray   *values,
               PsStats  *out,
               gboolean  in_place)
{
  g_autofree double *copy = NULL;

  if (values == NULL || values->len == 0)
    {
      memset (out, 0, sizeof *out);
      return;
    }

  if (in_place)
    {
      ps_stats_compute ((double *)(gpointer)values->data, values->len, out);
      return;
    }

  copy = g_memdup2 (values->data, values->len * sizeof (double));
  ps_stats_compute (copy, values->len, out);
}

/* Replaces an array with an empty one of the same kind, freeing its memory */
static void
drop_values (GArray **array)
{
  guint element_size = g_array_get_element_size (*array);

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

static guint
span_key_hash (gconstpointer data)
{
  const SpanKey *key = data;

  return (key->name * 2654435761u) ^ (key->context * 40503u) ^ (key->track * 97u) ^ key->session;
}

static gboolean
span_key_equal (gconstpointer a,
                gconstpointer b)
{
  return memcmp (a, b, sizeof (SpanKey)) == 0;
}

typedef struct
{
  PsEventStore          *store;
  const PsSeriesOptions *options;
  GPtrArray             *result;
  GHashTable            *series_of;   /* SpanKey → 1 + index in result */
  SpanKey                last_key;
  guint                  last_index;  /* PS_NONE if none */
  guint                  first;       /* the first span series in result */
  GArray                *first_span;  /* per span series: its first span (guint64) */
  GPtrArray             *whole_ms;    /* summary only, per span series: its
                                       * durations while all are whole
                                       * milliseconds (GArray of guint32),
                                       * else NULL */
} SpanCollector;

/* Durations kept as whole milliseconds take 4 bytes instead of 8 until the
 * statistics are computed, one series at a time. RTL times have a
 * resolution of 1 ms, so a whole log fits; the first duration of a series
 * that does not moves its values to doubles. */
#define WHOLE_MS_NS G_GINT64_CONSTANT (1000000)

static void
add_duration (SpanCollector *self,
              guint          series_index,
              PsSeries      *series,
              gint64         duration_ns)
{
  double value;

  if (self->whole_ms != NULL)
    {
      GArray **whole_ms;

      while (self->whole_ms->len <= series_index - self->first)
        g_ptr_array_add (self->whole_ms, g_array_new (FALSE, FALSE, sizeof (guint32)));
      whole_ms = (GArray **)&g_ptr_array_index (self->whole_ms, series_index - self->first);
      if (*whole_ms != NULL)
        {
          if (duration_ns % WHOLE_MS_NS == 0 && duration_ns / WHOLE_MS_NS <= G_MAXUINT32)
            {
              guint32 ms = (guint32)(duration_ns / WHOLE_MS_NS);

              g_array_append_val (*whole_ms, ms);
              return;
            }
          for (guint i = 0; i < (*whole_ms)->len; i++)
            {
              value = (double)((gint64)g_array_index (*whole_ms, guint32, i) * WHOLE_MS_NS) / 1e9;
              g_array_append_val (series->values, value);
            }
          g_clear_pointer (whole_ms, g_array_unref);
        }
    }

  value = (double)duration_ns / 1e9;
  g_array_append_val (series->values, value);
}

static void
free_whole_ms (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

/* Moves the whole-millisecond durations of a series to its values */
static void
take_whole_ms (SpanCollector *self,
               guint          series_index,
               PsSeries      *series)
{
  GArray *whole_ms;

  if (self->whole_ms == NULL || series_index - self->first >= self->whole_ms->len)
    return;
  whole_ms = g_ptr_array_index (self->whole_ms, series_index - self->first);
  if (whole_ms == NULL)
    return;
  g_array_set_size (series->values, whole_ms->len);
  for (guint i = 0; i < whole_ms->len; i++)
    g_array_index (series->values, double, i) =
      (double)((gint64)g_array_index (whole_ms, guint32, i) * WHOLE_MS_NS) / 1e9;
  g_ptr_array_index (self->whole_ms, series_index - self->first) = NULL;
  g_array_unref (whole_ms);
}

static void
span_key_of (SpanCollector *self,
             guint64        index,
             const PsSpan  *span,
             SpanKey       *key)
{
  const PsTrack *track = ps_event_store_get_track (self->store, span->track);

  key->session = track->session;
  key->track = self->options->spans_per_thread ? span->track : PS_NONE;
  key->name = span->name;
  key->context = (span->flags & PS_SPAN_FLAG_LOGICAL) ? ps_event_store_get_span_context (self->store, index) : 0;
}

/* The series of a span, made on first sight */
static guint
span_series (SpanCollector *self,
             guint64        index,
             const PsSpan  *span)
{
  SpanKey key;
  gpointer found;
  PsSeries *series;

  span_key_of (self, index, span, &key);
  if (self->last_index != PS_NONE && span_key_equal (&key, &self->last_key))
    return self->last_index;

  found = g_hash_table_lookup (self->series_of, &key);
  if (found != NULL)
    {
      self->last_key = key;
      self->last_index = GPOINTER_TO_UINT (found) - 1;
      return self->last_index;
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

  g_hash_table_insert (self->series_of, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->result->len + 1));
  g_ptr_array_add (self->result, series);
  self->last_key = key;
  self->last_index = self->result->len - 1;
  return self->last_index;
}

static void
span_series_add_track (PsSeries *series,
                       guint32   track)
{
  if (series->n_instances > 0 && series->tracks[series->n_instances - 1] == track)
    return;
  for (guint i = 0; i < series->n_instances; i++)
    if (series->tracks[i] == track)
      return;
  series_add_track (series, track);
}

/* Everything about one span, in one pass: the spans come as they end */
static void
add_span (guint64       index,
          const PsSpan *span,
          gint64        self_ns,
          gpointer      user_data)
{
  SpanCollector *self = user_data;
  guint series_index;
  PsSeries *series;

  if (self->options->span_self_times != NULL)
    self->options->span_self_times[index] = self_ns;

  if (!ps_scope_filter_match_span (self->options->span_filter, self->store, index))
    return;

  series_index = span_series (self, index, span);
  series = g_ptr_array_index (self->result, series_index);
  span_series_add_track (series, span->track);
  if (series_index - self->first >= self->first_span->len)
    g_array_append_val (self->first_span, index);
  else
    {
      guint64 *first = &g_array_index (self->first_span, guint64, series_index - self->first);
      *first = MIN (*first, index);
    }

  if (!ps_span_is_measured (span))
    {
      series->n_excluded++;
      return;
    }
  if (span->flags & (PS_SPAN_FLAG_NAME_MISMATCH | PS_SPAN_FLAG_TRUNCATED))
    series->n_flagged++;

  add_duration (self, series_index, series, span->end_ns - span->begin_ns);
  if (!self->options->durations_summary_only)
    g_array_append_val (series->indexes, index);
  series->self_sum += (double)self_ns / 1e9;
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
  const guint64 *first = user_data;
  guint64 first_a = first[*(const guint *)a];
  guint64 first_b = first[*(const guint *)b];

  return first_a < first_b ? -1 : first_a > first_b;
}

static void
collect_spans (PsEventStore          *store,
               const PsSeriesOptions *options,
               GPtrArray             *result)
{
  SpanCollector collector = { store, options, result, NULL, { 0 }, PS_NONE, result->len, NULL, NULL };
  g_autofree guint *order = NULL;
  g_autofree gpointer *sorted = NULL;
  guint n;

  collector.series_of = g_hash_table_new_full (span_key_hash, span_key_equal, g_free, NULL);
  collector.first_span = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (options->durations_summary_only)
    collector.whole_ms = g_ptr_array_new_with_free_func (free_whole_ms);

  ps_scopes_foreach_self_time (store, add_span, &collector);
  g_hash_table_unref (collector.series_of);

  /* One series at a time, so that only one is ever held as doubles */
  for (guint i = collector.first; i < result->len; i++)
    {
      PsSeries *series = g_ptr_array_index (result, i);

      /* Threads in the order they appeared in the log */
      g_qsort_with_data (series->tracks, series->n_instances, sizeof (guint32), compare_track, NULL);
      take_whole_ms (&collector, i, series);
      compute_stats (series->values, &series->stats, options->durations_summary_only);
      if (options->durations_summary_only)
        {
          drop_values (&series->values);
          drop_values (&series->indexes);
        }
    }
  g_clear_pointer (&collector.whole_ms, g_ptr_array_unref);

  /* In the order the scopes first began */
  n = result->len - collector.first;
  order = g_new (guint, n + 1);
  sorted = g_new (gpointer, n + 1);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_first_span, collector.first_span->data);
  for (guint i = 0; i < n; i++)
    sorted[i] = g_ptr_array_index (result, collector.first + order[i]);
  memcpy (result->pdata + collector.first, sorted, n * sizeof (gpointer));
  g_array_unref (collector.first_span);
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

  for (guint t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      gboolean has_seconds = options->tick_rate_override > 0 ||
                             ps_event_store_get_n_tick_rates (store, track->session) > 0;

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
          g_ptr_array_add (result, series_new (store, track, t, kinds[k], has_seconds));
        }
    }

  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      PsSeries *series;
      guint32 index;
      double value;

      if (m.kind == PS_MEASURE_OTHER || m.track >= n_tracks)
        continue;

      index = series_of[m.track * N_SERIES_KINDS + series_kind_for (m.kind)];
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

            g_array_append_val (series->ticks, ticks);
            value = series->has_seconds && rate > 0 ? ticks / rate : ticks;
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
      gboolean summary_only = options->durations_summary_only && series->kind == PS_SERIES_DURATION;

      compute_stats (series->values, &series->stats, summary_only);
      if (series->ticks != NULL)
        compute_stats (series->ticks, &series->ticks_stats, summary_only);
      if (summary_only)
        {
          drop_values (&series->values);
          drop_values (&series->ticks);
          drop_values (&series->indexes);
        }
    }

  if (ps_event_store_get_n_spans (store) > 0)
    collect_spans (store, options, result);

  return g_steal_pointer (&result);
}

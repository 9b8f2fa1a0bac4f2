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

  return g_steal_pointer (&result);
}

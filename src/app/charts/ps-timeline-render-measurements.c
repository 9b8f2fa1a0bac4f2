/* ps-timeline-render-measurements.c — the timeline of a CE run: a chart per
 * marker and kind, its instances' points together
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-series.h"
#include "ps-timeline-render-private.h"
#include "ps-util.h"
#include "ps-view-util.h"

/* The points of every chart of a CE run in one block, chart after chart:
 * a log has hundreds of thousands of marker instances, and an array of
 * its own for each chart took longer to allocate than to fill. Each
 * chart's series holds a reference. */
typedef struct
{
  /* The measurements' sequence numbers (their global event index): in
   * 32 bits while the last one fits, which spares 4 bytes a point; else
   * in full */
  guint32 *x_narrow;
  gint64  *x;
  /* The values: a duration chart's as its ticks in 32 bits when its
   * session has one tick rate (or none) and all its tick counts fit,
   * value i being ticks_narrow[i] / the rate (4 bytes a point less);
   * the other charts' as doubles */
  guint32 *ticks_narrow;
  double  *values;
} PointsBlock;

static void
points_block_clear (gpointer data)
{
  PointsBlock *block = data;

  g_free (block->x_narrow);
  g_free (block->x);
  g_free (block->ticks_narrow);
  g_free (block->values);
}

static void
points_block_release (gpointer block)
{
  g_atomic_rc_box_release_full (block, points_block_clear);
}

/* Series handed to the model at a time */
#define SERIES_PART 4096

/* A measurement's value as ps_series_measurement_value () gives it, with
 * the rate of each session looked up once when it does not change
 * (session_rates ≥ 0) */
static inline double
measurement_value (PsEventStore        *store,
                   const PsMeasurement *m,
                   const guint32       *sessions,
                   const double        *session_rates)
{
  double rate;

  if (m->kind != PS_MEASURE_DURATION)
    return ps_series_measurement_value (store, m);
  rate = session_rates[sessions[m->track]];
  if (rate < 0)
    return ps_series_measurement_value (store, m);
  return rate > 0 ? (double)m->value.ticks / rate : (double)m->value.ticks;
}

/* What a session's durations are divided by: its tick rate, or 1 where it
 * has none (the ticks themselves, as measurement_value () gives them) */
static inline double
session_divisor (double rate)
{
  return rate > 0 ? rate : 1;
}

/* Hands the series made so far to the model, with their labels */
static void
hand_over_series (PsTimelineModel      *model,
                  PsTimelineSeriesRows *rows,
                  GArray               *series,
                  GPtrArray            *labels)
{
  if (series->len > 0)
    ps_timeline_model_add_series_rows (model, rows, (const PsTimelineSeries *)(gpointer)series->data, series->len);
  g_array_set_size (series, 0);
  g_ptr_array_set_size (labels, 0);
}

/* CE runs: a chart per marker and kind, over the measurements' sequence
 * numbers (they have no timestamps). A marker is the CE view's group of
 * instances (ps_series_group_leaders ()): a test harness registers its
 * markers again on every pass, and a row per instance made a timeline of
 * hundreds of thousands of rows, each a few pixels of points in a row as
 * wide as the run. In the order the CE view lists its markers: by first
 * instance, then duration, CPU, memory. Made from the store alone, so
 * that it can be made while the run's statistics are: the points are
 * counted first, and each chart gets its part of one block, which the
 * model keeps. */
PsTimelineModel *
ps_timeline_model_new_measurements (PsEventStore *store,
                                    PsSpanLod    *lod,
                                    GCancellable *cancellable)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint n_sessions = ps_event_store_get_n_sessions (store);
  /* track → the first instance of its marker, whose charts it joins */
  g_autofree guint32 *leaders = ps_series_group_leaders (store);
  /* track → its marker's number, in the order of their first instances */
  g_autofree guint32 *markers = g_new (guint32, (gsize)n_tracks + 1);
  guint n_markers = 0;
  gsize n_charts;
  /* chart (marker × kind) → its first point in the block; starts[n_charts]:
   * all of them */
  g_autofree gsize *starts = NULL;
  /* track → its first and last sequence number */
  g_autofree gint64 *extents = g_new (gint64, 2 * (gsize)n_tracks + 1);
  /* marker (its first track) → whether it has other instances */
  g_autofree guint8 *several_instances = NULL;
  g_autofree gsize *next = NULL;
  /* chart → where its next value goes, in ticks_narrow or in values */
  g_autofree gsize *value_next = NULL;
  /* marker → whether its durations are kept as ticks in 32 bits: its
   * session has one tick rate (or none), and every tick count of its
   * instances fits */
  g_autofree gboolean *ticks_fit = NULL;
  g_autofree guint32 *sessions = g_new (guint32, n_tracks + 1);
  g_autofree double *session_rates = g_new (double, n_sessions + 1);
  g_autoptr(GArray) series = NULL;
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  PointsBlock *block = NULL;
  PsTimelineModel *model;
  PsTimelineSeriesRows rows;
  gsize n_points, n_ticks_narrow = 0, n_values = 0;
  PsMeasurementIter iter;
  PsMeasurement m;
  guint64 count = 0, last_index = 0;
  gboolean cancelled = FALSE;

  for (guint32 t = 0; t < n_tracks; t++)
    sessions[t] = ps_event_store_get_track (store, t)->session;
  for (guint session = 0; session < n_sessions; session++)
    session_rates[session] = ps_event_store_get_n_tick_rates (store, session) <= 1
                             ? ps_event_store_get_tick_rate (store, session, 0) : -1;
  for (guint32 t = 0; t < n_tracks; t++)
    markers[t] = leaders[t] == t ? n_markers++ : markers[leaders[t]];
  n_charts = (gsize)n_markers * 3;
  starts = g_new0 (gsize, n_charts + 1);
  value_next = g_new (gsize, n_charts + 1);
  ticks_fit = g_new (gboolean, n_markers + 1);
  for (guint32 t = 0; t < n_tracks; t++)
    {
      if (leaders[t] == t)
        ticks_fit[markers[t]] = session_rates[sessions[t]] >= 0;
      extents[2 * (gsize)t] = G_MAXINT64;
      extents[2 * (gsize)t + 1] = G_MININT64;
    }

  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      if ((++count & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        {
          cancelled = TRUE;
          break;
        }
      if (m.track < n_tracks && m.kind <= PS_MEASURE_MEMORY)
        {
          guint32 marker = markers[m.track];
          gint64 *extent = &extents[2 * (gsize)m.track];

          starts[(gsize)marker * 3 + m.kind + 1]++;
          last_index = MAX (last_index, m.index);
          extent[0] = MIN (extent[0], (gint64)m.index);
          extent[1] = MAX (extent[1], (gint64)m.index);
          if (m.kind == PS_MEASURE_DURATION && (m.value.ticks < 0 || m.value.ticks > G_MAXUINT32))
            ticks_fit[marker] = FALSE;
        }
    }
  if (cancelled)
    return NULL;

  /* Each chart's part of the block */
  for (gsize i = 0; i < n_charts; i++)
    {
      gsize n_chart_points = starts[i + 1];
      gboolean narrow = i % 3 == PS_MEASURE_DURATION && ticks_fit[i / 3];

      value_next[i] = narrow ? n_ticks_narrow : n_values;
      if (narrow)
        n_ticks_narrow += n_chart_points;
      else
        n_values += n_chart_points;
      starts[i + 1] += starts[i];
    }
  n_points = starts[n_charts];
  next = g_memdup2 (starts, (n_charts + 1) * sizeof (gsize));
  block = g_atomic_rc_box_new0 (PointsBlock);
  if (last_index <= G_MAXUINT32)
    block->x_narrow = ps_util_alloc_filled ((n_points + 1) * sizeof (guint32), FALSE);
  else
    block->x = ps_util_alloc_filled ((n_points + 1) * sizeof (gint64), FALSE);
  block->ticks_narrow = ps_util_alloc_filled ((n_ticks_narrow + 1) * sizeof (guint32), FALSE);
  block->values = ps_util_alloc_filled ((n_values + 1) * sizeof (double), FALSE);

  ps_measurement_iter_init (&iter, store);
  while (!cancelled && ps_measurement_iter_next (&iter, &m))
    {
      gsize chart, at, value_at;

      if (m.track >= n_tracks || m.kind > PS_MEASURE_MEMORY)
        continue;
      if ((++count & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        cancelled = TRUE;
      chart = (gsize)markers[m.track] * 3 + m.kind;
      at = next[chart]++;
      value_at = value_next[chart]++;
      if (block->x_narrow != NULL)
        block->x_narrow[at] = (guint32)m.index;
      else
        block->x[at] = (gint64)m.index;
      if (m.kind == PS_MEASURE_DURATION && ticks_fit[markers[m.track]])
        block->ticks_narrow[value_at] = (guint32)m.value.ticks;
      else
        block->values[value_at] = measurement_value (store, &m, sessions, session_rates);
    }
  if (cancelled)
    {
      points_block_release (block);
      return NULL;
    }

  /* A series per marker and kind, handed to the model a part at a time */
  model = ps_timeline_model_alloc (store, lod, TRUE, PS_NONE);
  model->n_chart_tracks = n_tracks;
  several_instances = g_new0 (guint8, (gsize)n_tracks + 1);
  for (guint32 t = 0; t < n_tracks; t++)
    if (leaders[t] != t)
      several_instances[leaders[t]] = 1;
  model->chart_tracks = g_steal_pointer (&leaders);
  model->track_extents = g_steal_pointer (&extents);
  ps_timeline_series_rows_init (&rows);
  series = g_array_sized_new (FALSE, FALSE, sizeof (PsTimelineSeries), SERIES_PART);
  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track;
      const char *name;
      /* A monitor's "CPU: fsperf" in the user's language */
      g_autofree char *shown = NULL;
      gboolean has_seconds;

      /* A later instance's points are on its marker's first's charts */
      if (model->chart_tracks[t] != t)
        continue;
      track = ps_event_store_get_track (store, t);
      name = ps_event_store_get_string (store, track->name);
      has_seconds = ps_event_store_get_n_tick_rates (store, track->session) > 0;
      for (guint kind = PS_MEASURE_DURATION; kind <= PS_MEASURE_MEMORY; kind++)
        {
          gsize chart = (gsize)markers[t] * 3 + kind;
          PsTimelineSeries one = { 0 };

          /* An instance of a marker may measure what its first did not */
          if (starts[chart + 1] == starts[chart])
            continue;
          one.track = t;
          if (block->x_narrow != NULL)
            one.x_narrow = block->x_narrow + starts[chart];
          else
            one.x = block->x + starts[chart];
          one.n_points = starts[chart + 1] - starts[chart];
          /* value_next: past the chart's last value now */
          if (kind == PS_MEASURE_DURATION && ticks_fit[markers[t]])
            {
              one.values_narrow = block->ticks_narrow + value_next[chart] - one.n_points;
              one.divisor = session_divisor (session_rates[track->session]);
            }
          else
            one.values = block->values + value_next[chart] - one.n_points;
          one.points_owner = g_atomic_rc_box_acquire (block);
          one.points_release = points_block_release;
          one.unit_scale = 1;
          switch (kind)
            {
            case PS_MEASURE_DURATION:
              one.label = name;
              one.unit = has_seconds ? "ms" : _("ticks");
              one.unit_scale = has_seconds ? 1e3 : 1;
              break;
            case PS_MEASURE_CPU:
              if (shown == NULL)
                shown = ps_view_series_name (name);
              g_ptr_array_add (labels, g_strdup_printf (_("%s (CPU)"), shown));
              one.label = g_ptr_array_index (labels, labels->len - 1);
              one.unit = "%";
              break;
            default:
              if (shown == NULL)
                shown = ps_view_series_name (name);
              g_ptr_array_add (labels, g_strdup_printf (_("%s (memory)"), shown));
              one.label = g_ptr_array_index (labels, labels->len - 1);
              one.unit = C_("byte unit", "MiB");
              one.unit_scale = 1.0 / (1024 * 1024);
              break;
            }
          g_array_append_val (series, one);
        }
      if (series->len >= SERIES_PART)
        hand_over_series (model, &rows, series, labels);
    }
  hand_over_series (model, &rows, series, labels);
  ps_timeline_series_rows_clear (&rows);
  /* A chart of several instances says which one a point is */
  for (guint r = 0; r < model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (model->rows, r);

      row->several_instances = row->kind == PS_TIMELINE_ROW_VALUES && row->track < n_tracks
                               && several_instances[row->track];
    }
  /* The series hold it now */
  points_block_release (block);

  ps_timeline_model_finish (model);
  return model;
}

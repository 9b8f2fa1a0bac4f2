/* ps-timeline-render-measurements.c — the timeline of a CE run: a chart per
 * marker and kind, its instances' points together
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-series-points.h"
#include "ps-series.h"
#include "ps-timeline-render-private.h"
#include "ps-util.h"
#include "ps-view-util.h"

/* Series handed to the model at a time */
#define SERIES_PART 4096

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
 * instance, then duration, CPU, memory. The charts' points are the
 * store's PsSeriesPoints, which the run's statistics are taken from too:
 * whichever of the two comes first makes them, and the model keeps them. */
PsTimelineModel *
ps_timeline_model_new_measurements (PsEventStore *store,
                                    PsSpanLod    *lod,
                                    GCancellable *cancellable)
{
  /* Made once for the timeline and the run's statistics */
  g_autoptr(PsSeriesPoints) points = ps_series_points_get_shared (store, cancellable);
  const guint32 *leaders, *markers;
  guint n_tracks;
  /* marker (its first track) → whether it has other instances */
  g_autofree guint8 *several_instances = NULL;
  g_autoptr(GArray) series = NULL;
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  PsTimelineModel *model;
  PsTimelineSeriesRows rows;

  if (points == NULL)
    return NULL;
  n_tracks = ps_series_points_get_n_tracks (points);
  leaders = ps_series_points_get_leaders (points);
  markers = ps_series_points_get_markers (points);

  /* A series per marker and kind, handed to the model a part at a time */
  model = ps_timeline_model_alloc (store, lod, TRUE, PS_NONE);
  model->n_chart_tracks = n_tracks;
  several_instances = g_new0 (guint8, (gsize)n_tracks + 1);
  for (guint32 t = 0; t < n_tracks; t++)
    if (leaders[t] != t)
      several_instances[leaders[t]] = 1;
  /* The points hold them; the model holds the points */
  model->chart_tracks = leaders;
  model->track_extents = ps_series_points_get_extents (points);
  model->points = ps_series_points_ref (points);
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
      if (leaders[t] != t)
        continue;
      track = ps_event_store_get_track (store, t);
      name = ps_event_store_get_string (store, track->name);
      has_seconds = ps_event_store_get_n_tick_rates (store, track->session) > 0;
      for (guint kind = PS_MEASURE_DURATION; kind <= PS_MEASURE_MEMORY; kind++)
        {
          PsSeriesChart chart;
          PsTimelineSeries one = { 0 };

          ps_series_points_get_chart (points, markers[t], kind, &chart);
          /* An instance of a marker may measure what its first did not */
          if (chart.n_points == 0)
            continue;
          one.track = t;
          one.x_narrow = chart.x_narrow;
          one.x = chart.x;
          one.n_points = chart.n_points;
          one.value_pages = chart.ticks_pages;
          one.divisor = chart.ticks_pages != NULL ? chart.divisor : 0;
          one.values = chart.values;
          /* The store holds its shared points, and the pages the ticks
           * are read from */
          one.points_owner = g_object_ref (store);
          one.points_release = g_object_unref;
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

  ps_timeline_model_finish (model);
  return model;
}

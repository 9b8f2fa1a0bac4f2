/* ps-series-points.h — the points of a CE run's series, once for the
 * timeline and the statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every measurement of a CE run, by marker (a group of
 * ps_series_collect () with group_by_name: ps_series_group_leaders ())
 * and kind, in file order: its sequence number and its value. The
 * timeline draws them, and ps_series_collect () takes the statistics of
 * durations from them (PsSeriesOptions.points) instead of a copy of its
 * own: in a log of 1 GiB the two copies were 87 MiB each.
 *
 * A duration's tick count is not copied where the store keeps it as it
 * is (0 to G_MAXINT32 ticks): it is read from the store's value pages
 * by its sequence number, which is the measurement's index. The points
 * of that log take 87 MiB less so, and do not outlive their store.
 */
#pragma once

#include "ps-event-store.h"

G_BEGIN_DECLS

typedef struct _PsSeriesPoints PsSeriesPoints;

/* The points of one marker and kind (a chart) */
typedef struct
{
  gsize          n_points;
  /* Sequence numbers: in 32 bits (x_narrow) when the run's last one
   * fits, else in full (x) */
  const guint32 *x_narrow;
  const gint64  *x;
  /* Values: a duration chart's as its tick counts in the store's value
   * pages (ticks_pages) when its session has at most one tick rate and
   * every count of the marker lies in [0, G_MAXINT32], value i being
   * ps_series_chart_ticks () / divisor; else as
   * ps_series_measurement_value () gives them (values) */
  const guint32 *const *ticks_pages;
  const double  *values;
  double         divisor;
  guint64        n_negative;  /* durations flagged NEGATIVE */
  guint64        n_flagged;   /* CPU out of range, fractional memory */
} PsSeriesChart;

/* Whether a store's measurements are charted over their sequence, and
 * its statistics taken from the same points: a CE run (measurements
 * without timestamps, no spans) */
gboolean        ps_series_points_suit        (PsEventStore   *store);
/* NULL when cancelled. Any thread; the store must be loaded, and the
 * charts' ticks_pages are read while it lives. */
PsSeriesPoints *ps_series_points_new        (PsEventStore   *store,
                                             GCancellable   *cancellable);
/* The points of the store made once for whoever asks first and kept with
 * the store: a caller that comes while they are made waits for them
 * (the CE timeline and the run's statistics are made at the same time,
 * on two threads). NULL when cancelled. */
PsSeriesPoints *ps_series_points_get_shared (PsEventStore   *store,
                                             GCancellable   *cancellable);
PsSeriesPoints *ps_series_points_ref        (PsSeriesPoints *self);
void            ps_series_points_unref      (PsSeriesPoints *self);

guint           ps_series_points_get_n_tracks  (const PsSeriesPoints *self);
guint           ps_series_points_get_n_markers (const PsSeriesPoints *self);
/* track → the first track of its marker (ps_series_group_leaders ()) */
const guint32  *ps_series_points_get_leaders   (const PsSeriesPoints *self);
/* track → its marker, numbered in the order of their first tracks */
const guint32  *ps_series_points_get_markers   (const PsSeriesPoints *self);
/* track → its first and last sequence number (2 per track; first
 * G_MAXINT64, last G_MININT64: no measurement) */
const gint64   *ps_series_points_get_extents   (const PsSeriesPoints *self);
/* The points of a marker's measurements of kind (PS_MEASURE_DURATION,
 * _CPU or _MEMORY) */
void            ps_series_points_get_chart     (const PsSeriesPoints *self,
                                                guint32               marker,
                                                PsMeasureKind         kind,
                                                PsSeriesChart        *out);

/* The sequence number of point i */
static inline guint64
ps_series_chart_x (const PsSeriesChart *chart,
                   gsize                i)
{
  return chart->x_narrow != NULL ? chart->x_narrow[i] : (guint64)chart->x[i];
}

/* The tick count of point i of a chart with ticks_pages */
static inline guint32
ps_series_chart_ticks (const PsSeriesChart *chart,
                       gsize                i)
{
  return ps_event_store_value_in_pages (chart->ticks_pages, ps_series_chart_x (chart, i));
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsSeriesPoints, ps_series_points_unref)

G_END_DECLS

/* ps-counter-changes.c — where a counter's level changed along its time
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 and §8. What it finds and why among bucket
 * means is in ps-counter-changes.h.
 */
#include "config.h"

#include <math.h>

#include "ps-counter-changes.h"

static gint64
bucket_begin_ns (const PsCounterOverview *overview,
                 gsize                    bucket)
{
  if (bucket < overview->n_buckets)
    return overview->begin_ns + (gint64)overview->buckets[bucket].index * overview->bucket_ns;
  /* Past the last bucket: where it ends */
  return overview->begin_ns + ((gint64)overview->buckets[overview->n_buckets - 1].index + 1) * overview->bucket_ns;
}

/* Where a line flat until k, then straight, fits values[lo, hi) best:
 * y = a + b·max (0, i − k), by least squares for each k in (lo, hi − 2).
 * The sums over x = i − k of the values from k on are kept from one k to
 * the one before it, so that all of them cost O(hi − lo): going from k + 1
 * to k adds 1 to every x of the values after k, which adds their sum to
 * Σ x·y, and values[k] comes in at x = 0. Σ x and Σ x² of 0 … L − 1 are
 * exact integers. The ks are tried from the last down, and a k as good as
 * a later one wins, as the first best does going up. */
static gsize
hinge_start (const double *values,
             gsize         lo,
             gsize         hi)
{
  double sum_y = 0, sum_yy = 0, tail_y = 0, sum_xy = 0;
  double best_error = INFINITY;
  gsize best = lo;
  gsize n = hi - lo;

  for (gsize i = lo; i < hi; i++)
    {
      sum_y += values[i];
      sum_yy += values[i] * values[i];
    }
  if (hi < lo + 4)
    return best;
  /* Σ x·y and Σ y over [k, hi) for k = hi − 2 */
  for (gsize i = hi - 2; i < hi; i++)
    {
      sum_xy += (double)(i - (hi - 2)) * values[i];
      tail_y += values[i];
    }
  for (gsize k = hi - 2; k-- > lo + 1;)
    {
      double length, sum_x, sum_xx, denominator, a, b, error;

      /* From [k + 1, hi) to [k, hi) */
      sum_xy += tail_y;
      tail_y += values[k];
      length = (double)(hi - k);
      sum_x = length * (length - 1) / 2;
      sum_xx = (length - 1) * length * (2 * length - 1) / 6;
      denominator = n * sum_xx - sum_x * sum_x;
      if (denominator <= 0)
        continue;
      b = (n * sum_xy - sum_x * sum_y) / denominator;
      a = (sum_y - b * sum_x) / n;
      error = sum_yy - a * sum_y - b * sum_xy;
      if (error <= best_error)
        {
          best_error = error;
          best = k;
        }
    }
  return best;
}

GArray *
ps_counter_changes_find (const PsCounterOverview    *overview,
                         const PsChangePointOptions *options)
{
  g_autofree double *means = NULL;
  g_autoptr(GArray) points = NULL;
  GArray *changes;

  g_return_val_if_fail (overview != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  changes = g_array_new (FALSE, FALSE, sizeof (PsCounterChange));
  if (overview->n_buckets < 2)
    return changes;

  means = g_new (double, overview->n_buckets);
  for (guint i = 0; i < overview->n_buckets; i++)
    means[i] = overview->buckets[i].mean;
  points = ps_change_points_find (means, overview->n_buckets, options);

  for (guint i = 0; i < points->len;)
    {
      const PsChangePoint *first = &g_array_index (points, PsChangePoint, i);
      const PsChangePoint *last = first;
      PsCounterChange change = { .point = *first, .n_steps = 1 };
      gsize start = first->index;

      /* Steps of one direction, each beginning where the one before
       * ended, are one climb or fall */
      for (i++; i < points->len; i++)
        {
          const PsChangePoint *next = &g_array_index (points, PsChangePoint, i);

          if ((next->relative_change > 0) != (first->relative_change > 0) || next->before_start > last->index)
            break;
          last = next;
          change.n_steps++;
        }
      if (change.n_steps > 1)
        start = hinge_start (means, first->before_start, last->index);
      change.time_ns = bucket_begin_ns (overview, start);
      change.end_ns = bucket_begin_ns (overview, last->index);
      change.before_begin_ns = bucket_begin_ns (overview, first->before_start);
      change.after_end_ns = bucket_begin_ns (overview, last->after_end);
      change.mean_before = first->mean_before;
      change.mean_after = last->mean_after;
      change.relative_change = ps_change_points_relative_change (first->mean_before, last->mean_after);
      g_array_append_val (changes, change);
    }
  return changes;
}

/* An overview's first buckets are 1024 units of time wide: points a
 * unit or so apart (sequence numbers) are spread that much, so that each
 * has its own bucket until there are too many */
#define POINTS_SPREAD 1024

static gint64
from_spread (gint64 time,
             gint64 origin,
             gint64 spread)
{
  return origin + time / spread;
}

/* The points changes are found in: arrays, or a chart's points read in
 * place (in 32 bits there, so that copies would be made only to be read
 * once) */
typedef struct
{
  const gint64 *x;
  const double *values;
  PsValueLod   *lod;
  gsize         n_points;
} Points;

static inline void
point_at (const Points *points,
          gsize         i,
          gint64       *x,
          double       *value)
{
  if (points->lod != NULL)
    ps_value_lod_get_point (points->lod, i, x, value);
  else
    {
      *x = points->x[i];
      *value = points->values[i];
    }
}

/* A step's levels as the means of its points, before and after it:
 * buckets hold different numbers of points (a scope called more often
 * in some stretches), and the mean of their means is not the mean a
 * person computes from the values. A climb keeps its buckets' levels. */
static void
means_of_points (PsCounterChange *change,
                 const Points    *points)
{
  double sum_before = 0, sum_after = 0;
  gsize n_before = 0, n_after = 0;

  for (gsize i = 0; i < points->n_points; i++)
    {
      gint64 x;
      double value;

      point_at (points, i, &x, &value);
      if (!isfinite (value))
        continue;
      if (x >= change->before_begin_ns && x < change->time_ns)
        sum_before += value, n_before++;
      else if (x >= change->time_ns && x < change->after_end_ns)
        sum_after += value, n_after++;
    }
  if (n_before == 0 || n_after == 0)
    return;
  change->mean_before = sum_before / (double)n_before;
  change->mean_after = sum_after / (double)n_after;
  change->relative_change = ps_change_points_relative_change (change->mean_before, change->mean_after);
}

static GArray *
find_in_points (const Points               *points,
                const PsChangePointOptions *options)
{
  PsCounterSeries series;
  PsCounterOverview overview;
  gint64 origin, last, spread;
  double value;
  GArray *changes;

  if (points->n_points == 0)
    return g_array_new (FALSE, FALSE, sizeof (PsCounterChange));
  point_at (points, 0, &origin, &value);
  point_at (points, points->n_points - 1, &last, &value);
  spread = last - origin < G_MAXINT64 / POINTS_SPREAD ? POINTS_SPREAD : 1;

  /* Its overview, as the store keeps one of each counter track */
  ps_counter_series_init (&series);
  for (gsize i = 0; i < points->n_points; i++)
    {
      gint64 x;

      point_at (points, i, &x, &value);
      ps_counter_series_add (&series, (x - origin) * spread, value, !isfinite (value));
    }
  ps_counter_series_get_overview (&series, &overview);
  changes = ps_counter_changes_find (&overview, options);
  ps_counter_series_clear (&series);

  for (guint i = 0; i < changes->len; i++)
    {
      PsCounterChange *change = &g_array_index (changes, PsCounterChange, i);

      change->time_ns = from_spread (change->time_ns, origin, spread);
      change->end_ns = from_spread (change->end_ns, origin, spread);
      change->before_begin_ns = from_spread (change->before_begin_ns, origin, spread);
      change->after_end_ns = from_spread (change->after_end_ns, origin, spread);
      if (change->n_steps == 1)
        means_of_points (change, points);
    }
  return changes;
}

GArray *
ps_counter_changes_find_in_points (const gint64               *x,
                                   const double               *values,
                                   gsize                       n_points,
                                   const PsChangePointOptions *options)
{
  Points points = { x, values, NULL, n_points };

  g_return_val_if_fail (x != NULL || n_points == 0, NULL);
  g_return_val_if_fail (values != NULL || n_points == 0, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  return find_in_points (&points, options);
}

GArray *
ps_counter_changes_find_in_lod (PsValueLod                 *values,
                                const PsChangePointOptions *options)
{
  Points points = { NULL, NULL, values, 0 };

  g_return_val_if_fail (values != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  points.n_points = ps_value_lod_get_n_points (values);
  return find_in_points (&points, options);
}

/* The time of the first reading of the series at or after time_ns and
 * before limit_ns, else time_ns: a change found among the overview's
 * buckets begins with its bucket, which has a reading, and the first is
 * where the series shows the change (the bucket's own point when the
 * series is drawn from the overview) */
static gint64
first_reading (PsValueLod *values,
               gint64      time_ns,
               gint64      limit_ns)
{
  gsize index = ps_value_lod_find (values, time_ns);
  gint64 x;

  if (index == G_MAXSIZE || !ps_value_lod_get_point (values, index, &x, NULL))
    return time_ns;
  if (x < time_ns && !ps_value_lod_get_point (values, index + 1, &x, NULL))
    return time_ns;
  return x >= time_ns && x < limit_ns ? x : time_ns;
}

void
ps_counter_changes_snap_to_readings (GArray     *changes,
                                     PsValueLod *values)
{
  g_return_if_fail (changes != NULL);
  g_return_if_fail (values != NULL);

  for (guint c = 0; c < changes->len; c++)
    {
      PsCounterChange *change = &g_array_index (changes, PsCounterChange, c);

      change->time_ns = first_reading (values, change->time_ns, change->after_end_ns);
      change->end_ns = first_reading (values, change->end_ns, change->after_end_ns);
    }
}

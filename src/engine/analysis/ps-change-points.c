/* ps-change-points.c — persistent shifts in a series of values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". The method and its sources are in
 * ps-change-points.h.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-change-points.h"
#include "ps-stats.h"

#define DEFAULT_MAX_P_VALUE 0.01
#define DEFAULT_WINDOW      50
#define MIN_WINDOW          4
/* Weak change points pass a test ten times as lenient as the final one,
 * so that a window does not stop splitting at a change that the values
 * beyond it make clear */
#define WEAK_FACTOR         10.0
/* Each side of a split in a window holds at least this many values: one
 * value is an outlier, not a level */
#define MIN_SIDE            2

void
ps_change_point_options_init (PsChangePointOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->max_p_value = DEFAULT_MAX_P_VALUE;
  options->min_magnitude = 0;
  options->window = DEFAULT_WINDOW;
}

/* The continued fraction of the incomplete beta function, evaluated by
 * the modified Lentz method; converges quickly for x < (a+1)/(a+b+2) */
static double
beta_continued_fraction (double a,
                         double b,
                         double x)
{
  const double tiny = 1e-300;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  double result;

  if (fabs (d) < tiny)
    d = tiny;
  d = 1 / d;
  result = d;

  for (int m = 1; m <= 300; m++)
    {
      double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
      double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      double delta;

      d = 1 + even * d;
      d = fabs (d) < tiny ? 1 / tiny : 1 / d;
      c = 1 + even / c;
      if (fabs (c) < tiny)
        c = tiny;
      result *= d * c;

      d = 1 + odd * d;
      d = fabs (d) < tiny ? 1 / tiny : 1 / d;
      c = 1 + odd / c;
      if (fabs (c) < tiny)
        c = tiny;
      delta = d * c;
      result *= delta;
      if (fabs (delta - 1) < 1e-15)
        break;
    }

  return result;
}

/* The regularised incomplete beta function I_x(a, b) */
static double
regularized_beta (double x,
                  double a,
                  double b)
{
  double front;

  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;

  front = exp (lgamma (a + b) - lgamma (a) - lgamma (b) + a * log (x) + b * log1p (-x));
  if (x < (a + 1) / (a + b + 2))
    return front * beta_continued_fraction (a, b, x) / a;
  return 1 - front * beta_continued_fraction (b, a, 1 - x) / b;
}

double
ps_change_points_t_test (gsize  n_a,
                         double mean_a,
                         double variance_a,
                         gsize  n_b,
                         double mean_b,
                         double variance_b)
{
  double degrees, pooled, t;

  if (n_a == 0 || n_b == 0 || n_a + n_b < 3)
    return 1;
  if (!isfinite (mean_a) || !isfinite (mean_b))
    return 1;

  degrees = (double)(n_a + n_b - 2);
  pooled = ((double)(n_a - 1) * variance_a + (double)(n_b - 1) * variance_b) / degrees;
  if (!(pooled > 0))
    return mean_a == mean_b ? 1 : 0;

  t = (mean_b - mean_a) / sqrt (pooled * (1.0 / (double)n_a + 1.0 / (double)n_b));
  /* P(|T| ≥ |t|) of Student's t with `degrees` degrees of freedom */
  return regularized_beta (degrees / (degrees + t * t), degrees / 2, 0.5);
}

double
ps_change_points_relative_change (double a,
                                  double b)
{
  if (a != 0)
    return (b - a) / fabs (a);
  if (b == 0)
    return 0;
  return b > 0 ? INFINITY : -INFINITY;
}

/* The finite values, with running sums that give the mean and variance
 * of any stretch at once. The sums are of the values less their overall
 * mean, so that large values with a small spread keep their digits. */
typedef struct
{
  double *values;
  gsize  *indexes;   /* the caller's index of each value */
  gsize   n;
  double  shift;
  double *sums;      /* n + 1: sums[i] = Σ_{j<i} (values[j] − shift) */
  double *squares;   /* n + 1: of the squares */
} Series;

typedef struct
{
  gsize  n;
  double mean;
  double variance;   /* sample variance; 0 with one value */
} Stretch;

static Stretch
series_stretch (const Series *series,
                gsize         start,
                gsize         end)
{
  Stretch stretch = { end - start, NAN, 0 };
  double n = (double)(end - start);
  double sum, mean;

  if (end <= start)
    return stretch;

  sum = series->sums[end] - series->sums[start];
  mean = sum / n;
  stretch.mean = mean + series->shift;
  /* Within the rounding of the sums (n ε of the shift), a mean is zero:
   * a stretch of zeros reads 0, not −8e-14 */
  if (fabs (stretch.mean) <= 1e-9 * fabs (series->shift))
    stretch.mean = 0;
  if (end - start > 1)
    stretch.variance = MAX (0.0, (series->squares[end] - series->squares[start] - n * mean * mean) / (n - 1));
  return stretch;
}

/* The t-test of [start, split) against [split, end), times the places the
 * split could have taken in the stretch (Bonferroni), at most 1: the
 * split is the place where the two sides differ most, and the plain
 * t-test of that place finds a change in one of five series of 1000
 * values of pure noise */
static double
series_p_value (const Series *series,
                gsize         start,
                gsize         split,
                gsize         end,
                double       *change)
{
  Stretch before = series_stretch (series, start, split);
  Stretch after = series_stretch (series, split, end);
  double places = end - start > 2 * MIN_SIDE ? (double)(end - start - 2 * MIN_SIDE + 1) : 1;
  double p = ps_change_points_t_test (before.n, before.mean, before.variance,
                                      after.n, after.mean, after.variance);

  if (change != NULL)
    *change = ps_change_points_relative_change (before.mean, after.mean);
  return MIN (1.0, p * places);
}

/* A stretch of a window between two splits, and the split in it that
 * maximises Q̂ (tau 0 when it has none) */
typedef struct
{
  gsize  start;
  gsize  end;
  gsize  tau;
  double q;
} Interval;

/* The window's pairwise distances summed over every stretch: within[a·(L+1)
 * + b] = Σ_{a ≤ i < j < b} |z_i − z_j|, filled in O(L²) */
static void
fill_within (const double *z,
             gsize         length,
             double       *within)
{
  gsize stride = length + 1;

  for (gsize a = 0; a < length; a++)
    {
      within[a * stride + a] = 0;
      within[a * stride + a + 1] = 0;
    }
  within[length * stride + length] = 0;

  for (gsize b = 2; b <= length; b++)
    {
      double last = z[b - 1];
      double to_last = 0;   /* Σ_{a ≤ i < b−1} |z_i − z_{b−1}| */

      for (gsize a = b - 1; a-- > 0;)
        {
          to_last += fabs (z[a] - last);
          within[a * stride + b] = within[a * stride + b - 1] + to_last;
        }
    }
}

static void
interval_find_split (Interval     *interval,
                     const double *within,
                     gsize         length)
{
  gsize stride = length + 1;
  gsize s = interval->start;

  interval->tau = 0;
  interval->q = 0;

  for (gsize tau = s + MIN_SIDE; tau + MIN_SIDE <= interval->end; tau++)
    {
      double m = (double)(tau - s);
      double within_x = within[s * stride + tau] / (m * (m - 1) / 2);

      for (gsize kappa = tau + MIN_SIDE; kappa <= interval->end; kappa++)
        {
          double k = (double)(kappa - tau);
          double within_y_sum = within[tau * stride + kappa];
          double cross = within[s * stride + kappa] - within[s * stride + tau] - within_y_sum;
          double energy = 2 * cross / (m * k) - within_x - within_y_sum / (k * (k - 1) / 2);
          double q = m * k / (m + k) * energy;

          if (q > interval->q)
            {
              interval->q = q;
              interval->tau = tau;
            }
        }
    }
}

/* E-divisive in the window [offset, offset + length) of the series: its
 * weak change points, as indexes into the series, appended to weak */
static void
find_weak_in_window (const Series *series,
                     gsize         offset,
                     gsize         length,
                     double        weak_p_value,
                     double       *within,
                     GArray       *weak)
{
  const double *z = series->values + offset;
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (Interval));
  Interval whole = { 0, length, 0, 0 };

  fill_within (z, length, within);
  interval_find_split (&whole, within, length);
  g_array_append_val (intervals, whole);

  for (;;)
    {
      Interval *best = NULL;
      guint best_index = 0;
      Interval left, right;
      gsize split;

      for (guint i = 0; i < intervals->len; i++)
        {
          Interval *interval = &g_array_index (intervals, Interval, i);

          if (interval->tau != 0 && (best == NULL || interval->q > best->q))
            {
              best = interval;
              best_index = i;
            }
        }
      if (best == NULL)
        break;

      if (!(series_p_value (series, offset + best->start, offset + best->tau, offset + best->end, NULL) <= weak_p_value))
        break;

      split = offset + best->tau;
      g_array_append_val (weak, split);

      left = (Interval) { best->start, best->tau, 0, 0 };
      right = (Interval) { best->tau, best->end, 0, 0 };
      interval_find_split (&left, within, length);
      interval_find_split (&right, within, length);
      g_array_index (intervals, Interval, best_index) = left;
      g_array_append_val (intervals, right);
    }
}

static int
compare_gsize (gconstpointer a,
               gconstpointer b)
{
  gsize x = *(const gsize *)a;
  gsize y = *(const gsize *)b;

  return x < y ? -1 : x > y;
}

/* The weak change points of every window, sorted, each once */
static GArray *
find_weak (const Series *series,
           guint         window,
           double        weak_p_value)
{
  GArray *weak = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize length = MIN ((gsize)window, series->n);
  gsize step = MAX (window / 2, 1);
  g_autofree double *within = g_new (double, (length + 1) * (length + 1));
  guint kept = 0;

  for (gsize offset = 0;; offset += step)
    {
      gsize window_length = MIN (length, series->n - offset);

      find_weak_in_window (series, offset, window_length, weak_p_value, within, weak);
      if (offset + window_length >= series->n)
        break;
    }

  g_array_sort (weak, compare_gsize);
  for (guint i = 0; i < weak->len; i++)
    if (kept == 0 || g_array_index (weak, gsize, i) != g_array_index (weak, gsize, kept - 1))
      g_array_index (weak, gsize, kept++) = g_array_index (weak, gsize, i);
  g_array_set_size (weak, kept);

  return weak;
}

/* Removes, one at a time, the weakest change point that fails the test
 * against its neighbours, until all pass */
static void
keep_significant (const Series               *series,
                  GArray                     *points,
                  const PsChangePointOptions *options)
{
  while (points->len > 0)
    {
      gint worst = -1;
      double worst_p = 0, worst_change = 0;

      for (guint i = 0; i < points->len; i++)
        {
          gsize previous = i > 0 ? g_array_index (points, gsize, i - 1) : 0;
          gsize split = g_array_index (points, gsize, i);
          gsize next = i + 1 < points->len ? g_array_index (points, gsize, i + 1) : series->n;
          double change;
          double p = series_p_value (series, previous, split, next, &change);

          change = fabs (change);

          if (p <= options->max_p_value && change >= options->min_magnitude)
            continue;
          if (worst < 0 || p > worst_p || (p == worst_p && change < worst_change))
            {
              worst = (gint)i;
              worst_p = p;
              worst_change = change;
            }
        }

      if (worst < 0)
        break;
      g_array_remove_index (points, (guint)worst);
    }
}

static double
stretch_median (const Series *series,
                gsize         start,
                gsize         end,
                double       *scratch)
{
  memcpy (scratch, series->values + start, (end - start) * sizeof (double));
  return ps_stats_select_percentile (scratch, end - start, 50);
}

GArray *
ps_change_points_find (const double               *values,
                       gsize                       n_values,
                       const PsChangePointOptions *options)
{
  PsChangePointOptions defaults;
  GArray *result = g_array_new (FALSE, FALSE, sizeof (PsChangePoint));
  g_autoptr(GArray) points = NULL;
  g_autofree double *scratch = NULL;
  Series series = { 0 };
  double total = 0;
  guint window;

  g_return_val_if_fail (values != NULL || n_values == 0, result);

  if (options == NULL)
    {
      ps_change_point_options_init (&defaults);
      options = &defaults;
    }
  window = CLAMP (options->window, MIN_WINDOW, PS_CHANGE_POINTS_MAX_WINDOW);

  series.values = g_new (double, MAX (n_values, 1));
  series.indexes = g_new (gsize, MAX (n_values, 1));
  for (gsize i = 0; i < n_values; i++)
    if (isfinite (values[i]))
      {
        series.values[series.n] = values[i];
        series.indexes[series.n] = i;
        series.n++;
        total += values[i];
      }

  if (series.n < 2 * MIN_SIDE)
    goto out;

  series.shift = total / (double)series.n;
  if (!isfinite (series.shift))
    series.shift = 0;
  series.sums = g_new (double, series.n + 1);
  series.squares = g_new (double, series.n + 1);
  series.sums[0] = series.squares[0] = 0;
  for (gsize i = 0; i < series.n; i++)
    {
      double centred = series.values[i] - series.shift;

      series.sums[i + 1] = series.sums[i] + centred;
      series.squares[i + 1] = series.squares[i] + centred * centred;
    }

  points = find_weak (&series, window, MIN (1.0, WEAK_FACTOR * options->max_p_value));
  keep_significant (&series, points, options);

  scratch = g_new (double, series.n);
  for (guint i = 0; i < points->len; i++)
    {
      gsize previous = i > 0 ? g_array_index (points, gsize, i - 1) : 0;
      gsize split = g_array_index (points, gsize, i);
      gsize next = i + 1 < points->len ? g_array_index (points, gsize, i + 1) : series.n;
      Stretch before = series_stretch (&series, previous, split);
      Stretch after = series_stretch (&series, split, next);
      PsChangePoint point = { 0 };

      point.index = series.indexes[split];
      point.before_start = series.indexes[previous];
      point.after_end = next < series.n ? series.indexes[next] : n_values;
      point.n_before = before.n;
      point.n_after = after.n;
      point.mean_before = before.mean;
      point.mean_after = after.mean;
      point.median_before = stretch_median (&series, previous, split, scratch);
      point.median_after = stretch_median (&series, split, next, scratch);
      point.p_value = series_p_value (&series, previous, split, next, &point.relative_change);
      g_array_append_val (result, point);
    }

out:
  g_free (series.values);
  g_free (series.indexes);
  g_free (series.sums);
  g_free (series.squares);
  return result;
}

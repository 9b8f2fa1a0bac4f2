/* ps-histogram.c — the distribution of a series of values in bins
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps-histogram.h"
#include "ps-stats.h"

static gboolean
has_bin (PsHistogramScale scale,
         double           value)
{
  return isfinite (value) && (scale == PS_HISTOGRAM_LINEAR || value > 0);
}

/* Where bins are laid out: the value itself, or its logarithm */
static double
to_axis (PsHistogramScale scale,
         double           value)
{
  return scale == PS_HISTOGRAM_LOG ? log (value) : value;
}

static double
from_axis (PsHistogramScale scale,
           double           position)
{
  return scale == PS_HISTOGRAM_LOG ? exp (position) : position;
}

/* Freedman–Diaconis: 2 IQR / n^(1/3); with no spread in the middle half
 * (many equal values), Sturges' rule. Positions on the axis. */
static guint
auto_bins (double low,
           double high,
           double q1,
           double q3,
           gsize  count)
{
  double width = 2 * (q3 - q1) / cbrt ((double)count);
  double n_bins;

  if (width > 0 && high > low)
    n_bins = ceil ((high - low) / width);
  else
    n_bins = ceil (log2 ((double)count)) + 1;

  return (guint)CLAMP (n_bins, PS_HISTOGRAM_MIN_AUTO_BINS, PS_HISTOGRAM_MAX_AUTO_BINS);
}

guint
ps_histogram_auto_bins (const double     *sorted,
                        gsize             count,
                        PsHistogramScale  scale)
{
  if (count < 2)
    return PS_HISTOGRAM_MIN_AUTO_BINS;

  return auto_bins (to_axis (scale, sorted[0]), to_axis (scale, sorted[count - 1]),
                    to_axis (scale, ps_stats_percentile (sorted, count, 25)),
                    to_axis (scale, ps_stats_percentile (sorted, count, 75)), count);
}

/* The same of values in any order (reordered) whose least and greatest
 * are known: no sort */
static guint
auto_bins_unsorted (double           *values,
                    gsize             count,
                    PsHistogramScale  scale,
                    double            min,
                    double            max)
{
  double q1, q3;

  if (count < 2)
    return PS_HISTOGRAM_MIN_AUTO_BINS;

  q1 = ps_stats_select_percentile (values, count, 25);
  q3 = ps_stats_select_percentile (values, count, 75);
  return auto_bins (to_axis (scale, min), to_axis (scale, max), to_axis (scale, q1), to_axis (scale, q3), count);
}

int
ps_histogram_bin_of (const PsHistogram *self,
                     double             value)
{
  double low, high;
  gint64 index;

  g_return_val_if_fail (self != NULL, -1);

  if (self->n_bins == 0 || !has_bin (self->scale, value))
    return -1;
  if (value < self->bins[0].lower || value > self->bins[self->n_bins - 1].upper)
    return -1;

  low = to_axis (self->scale, self->bins[0].lower);
  high = to_axis (self->scale, self->bins[self->n_bins - 1].upper);
  index = (gint64)floor ((to_axis (self->scale, value) - low) / (high - low) * self->n_bins);
  index = CLAMP (index, 0, (gint64)self->n_bins - 1);

  /* The edges decide, not the rounding of the division above */
  while (index > 0 && value < self->bins[index].lower)
    index--;
  while (index < (gint64)self->n_bins - 1 && value >= self->bins[index].upper)
    index++;
  return (int)index;
}

gboolean
ps_histogram_range_contains (const PsHistogram *self,
                             guint              first,
                             guint              last,
                             double             value)
{
  int bin;

  g_return_val_if_fail (self != NULL, FALSE);

  if (first > last || first >= self->n_bins)
    return FALSE;
  bin = ps_histogram_bin_of (self, value);
  return bin >= 0 && (guint)bin >= first && (guint)bin <= last;
}

/* Lays out n_bins bins over [min, max]; a single value gets a range
 * around it, so that it has a bar to show */
static void
make_edges (PsHistogram *self,
            double       min,
            double       max)
{
  double low, high;

  if (min == max)
    {
      if (self->scale == PS_HISTOGRAM_LOG)
        {
          min /= 1.5;
          max *= 1.5;
        }
      else
        {
          double margin = min != 0 ? fabs (min) * 0.5 : 1;

          min -= margin;
          max += margin;
        }
    }

  low = to_axis (self->scale, min);
  high = to_axis (self->scale, max);
  for (guint i = 0; i < self->n_bins; i++)
    {
      self->bins[i].lower = i == 0 ? min
                            : self->bins[i - 1].upper;
      self->bins[i].upper = i == self->n_bins - 1 ? max
                            : from_axis (self->scale, low + (high - low) * (i + 1) / self->n_bins);
    }
}

PsHistogram *
ps_histogram_new (const double     *values,
                  const double     *weights,
                  gsize             count,
                  PsHistogramScale  scale,
                  guint             n_bins)
{
  g_autofree double *copy = NULL;
  g_autoptr(PsHistogram) self = NULL;
  gsize n_binned = 0;

  g_return_val_if_fail (values != NULL || count == 0, NULL);

  self = g_new0 (PsHistogram, 1);
  self->scale = scale;
  self->n_values = count;
  if (count == 0)
    return g_steal_pointer (&self);

  /* A copy, the binned values first: the bin count and the percentiles
   * reorder it */
  copy = g_new (double, count);
  for (gsize i = 0; i < count; i++)
    {
      double weight = weights != NULL ? weights[i] : 1;

      self->sum += values[i] * weight;
      if (has_bin (scale, values[i]))
        {
          self->min = n_binned == 0 ? values[i] : MIN (self->min, values[i]);
          self->max = n_binned == 0 ? values[i] : MAX (self->max, values[i]);
          copy[n_binned++] = values[i];
        }
      else
        {
          self->underflow++;
          self->underflow_total += values[i] * weight;
        }
    }

  if (n_binned > 0)
    {
      self->n_bins = n_bins > 0 ? n_bins : auto_bins_unsorted (copy, n_binned, scale, self->min, self->max);
      /* One value, however often: an odd count puts it in the middle of
       * the middle bin rather than on an edge */
      if (n_bins == 0 && self->min == self->max)
        self->n_bins |= 1;
      self->bins = g_new0 (PsHistogramBin, self->n_bins);
      make_edges (self, self->min, self->max);

      for (gsize i = 0; i < count; i++)
        {
          double weight = weights != NULL ? weights[i] : 1;
          int bin = ps_histogram_bin_of (self, values[i]);

          if (bin < 0)
            continue;
          self->bins[bin].count++;
          self->bins[bin].weight += weight;
          self->bins[bin].total += values[i] * weight;
        }
    }

  /* Median and p95 over every value, as ps_stats_compute() gives them */
  {
    gsize n = 0;

    for (gsize i = 0; i < count; i++)
      if (!has_bin (scale, values[i]))
        copy[n_binned + n++] = values[i];
    self->median = ps_stats_select_percentile (copy, count, 50);
    self->p95 = ps_stats_select_percentile (copy, count, 95);
  }

  return g_steal_pointer (&self);
}

void
ps_histogram_free (PsHistogram *self)
{
  if (self == NULL)
    return;
  g_free (self->bins);
  g_free (self);
}

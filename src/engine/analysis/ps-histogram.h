/* ps-histogram.h — the distribution of a series of values in bins
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linear or logarithmic bins over [min, max] of the values, as many as
 * asked or chosen by the Freedman–Diaconis rule. Each bin holds how many
 * values fell in it and their sum (for durations: the "total time"), so
 * the same histogram can be drawn by count or by total. Median and p95
 * use the nearest-rank method of ps-stats.h.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PS_HISTOGRAM_LINEAR,
  PS_HISTOGRAM_LOG,
} PsHistogramScale;

/* Automatic bin count bounds */
#define PS_HISTOGRAM_MIN_AUTO_BINS 10
#define PS_HISTOGRAM_MAX_AUTO_BINS 200

typedef struct
{
  double  lower;   /* inclusive */
  double  upper;   /* exclusive, except for the last bin */
  guint64 count;   /* values in the bin */
  double  weight;  /* sum of their weights (1 each without weights) */
  double  total;   /* sum of their values, each times its weight */
} PsHistogramBin;

typedef struct
{
  PsHistogramScale scale;
  guint            n_bins;
  PsHistogramBin  *bins;
  guint64          n_values;      /* all values given, underflow included */
  /* Values with no bin: <= 0 on the log scale, and NaN or infinite ones
   * on either. Counted, never dropped. */
  guint64          underflow;
  double           underflow_total;
  double           min;           /* over the binned values */
  double           max;
  double           sum;           /* of all values times their weights,
                                   * underflow included */
  double           median;        /* nearest rank over all values, unweighted */
  double           p95;
} PsHistogram;

/* values: count doubles, not modified. weights: NULL, or count weights
 * (e.g. to merge equal values). n_bins: 0 for automatic. With count 0
 * the histogram has no bins. */
PsHistogram *ps_histogram_new          (const double     *values,
                                        const double     *weights,
                                        gsize             count,
                                        PsHistogramScale  scale,
                                        guint             n_bins);
void         ps_histogram_free         (PsHistogram      *self);
/* The bin a value falls in, or -1 (outside, or underflow) */
int          ps_histogram_bin_of       (const PsHistogram *self,
                                        double             value);
/* Whether value falls in the bins first..last (brushing); first > last is
 * an empty range */
gboolean     ps_histogram_range_contains (const PsHistogram *self,
                                          guint              first,
                                          guint              last,
                                          double             value);
/* The Freedman–Diaconis bin count for sorted values, in [10, 200] */
guint        ps_histogram_auto_bins    (const double     *sorted,
                                        gsize             count,
                                        PsHistogramScale  scale);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsHistogram, ps_histogram_free)

G_END_DECLS

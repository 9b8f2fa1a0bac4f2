/* ps-stats.h — descriptive statistics of a series of numbers
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Median and percentiles use the nearest-rank method on the sorted values;
 * stddev is the population standard deviation (docs/cli.md, "stats").
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 count;
  double  sum;
  double  min;
  double  max;
  double  mean;
  double  median;
  double  p90;
  double  p95;
  double  p99;
  double  stddev;
} PsStats;

/* values is reordered in place. With count 0 every field is 0. */
void   ps_stats_compute       (double        *values,
                               gsize          count,
                               PsStats       *out);
/* The same, looking at cancellable (may be NULL) every 65 536 values and
 * between the percentiles; FALSE, out incomplete, once it is cancelled */
gboolean ps_stats_compute_cancellable (double       *values,
                                       gsize         count,
                                       PsStats      *out,
                                       GCancellable *cancellable);
/* The statistics of ticks (into ticks_out) and of each divided by rate
 * (into out), exactly as ps_stats_compute () gives them of the two arrays,
 * from the ticks alone: one selection serves both, since dividing by a
 * positive rate keeps the order. With rate 0 out is ticks_out. ticks is
 * reordered in place; FALSE when cancelled, as above. */
gboolean ps_stats_compute_scaled (double       *ticks,
                                  gsize         count,
                                  double        rate,
                                  PsStats      *out,
                                  PsStats      *ticks_out,
                                  GCancellable *cancellable);
/* Tick counts in 32 bits: in an array (ticks), or read by the
 * measurements' indexes (index, or index_narrow in 32 bits) from a
 * store's value pages (ps_event_store_get_value_page ()) */
typedef struct
{
  const guint32        *ticks;
  const guint32 *const *pages;
  const guint32        *index_narrow;
  const gint64         *index;
} PsStatsTicks;

/* The same, of tick counts that fit in 32 bits (half the memory, or
 * none where a store keeps them), which it leaves in their order (a CE
 * timeline draws them) */
gboolean ps_stats_compute_scaled_u32 (const PsStatsTicks *ticks,
                                      gsize               count,
                                      double              rate,
                                      PsStats            *out,
                                      PsStats            *ticks_out,
                                      GCancellable       *cancellable);
/* The same statistics, in seconds, of durations given in whole
 * milliseconds. Sums are taken exactly on the integers, so the result does
 * not depend on the order of the values: sum, min, max and the percentiles
 * are the doubles nearest their exact values, mean is that sum over the
 * count, and stddev the root of the exact variance, rounded once. Half
 * the memory of doubles, and selection on integers is quicker. values is
 * reordered in place. */
void   ps_stats_compute_ms    (guint32       *values,
                               gsize          count,
                               PsStats       *out);
/* Nearest-rank percentile (0 < percent <= 100) of sorted values */
double ps_stats_percentile    (const double  *sorted,
                               gsize          count,
                               double         percent);
/* The same of values in any order, which it reorders: linear time on
 * average instead of a sort */
double ps_stats_select_percentile (double    *values,
                                   gsize      count,
                                   double     percent);

G_END_DECLS

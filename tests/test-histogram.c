/* test-histogram.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-histogram.h"
#include "ps-stats.h"

/* What every histogram must satisfy, whatever the data */
static void
assert_invariants (const PsHistogram *histogram,
                   const double      *values,
                   gsize              count)
{
  guint64 n = histogram->underflow;
  double total = histogram->underflow_total;
  double sum = 0;
  double scale = 0;

  for (gsize i = 0; i < count; i++)
    {
      sum += values[i];
      scale = MAX (scale, fabs (values[i]));
    }

  g_assert_cmpuint (histogram->n_values, ==, count);
  for (guint i = 0; i < histogram->n_bins; i++)
    {
      const PsHistogramBin *bin = &histogram->bins[i];

      n += bin->count;
      total += bin->total;
      g_assert_cmpfloat (bin->lower, <, bin->upper);
      if (i > 0)
        g_assert_cmpfloat (bin->lower, ==, histogram->bins[i - 1].upper);
    }
  g_assert_cmpuint (n, ==, count);
  g_assert_cmpfloat_with_epsilon (total, sum, 1e-9 * MAX (scale, 1) * MAX (count, 1));

  /* Every value is in the bin bin_of names, and in no other */
  for (gsize i = 0; i < count; i++)
    {
      int bin = ps_histogram_bin_of (histogram, values[i]);

      if (bin < 0)
        continue;
      g_assert_cmpfloat (values[i], >=, histogram->bins[bin].lower);
      if ((guint)bin < histogram->n_bins - 1)
        g_assert_cmpfloat (values[i], <, histogram->bins[bin].upper);
      else
        g_assert_cmpfloat (values[i], <=, histogram->bins[bin].upper);
    }
}

/* 0..10 in ten bins of width 1: 10 is the maximum and goes in the last */
static void
test_known_linear (void)
{
  double values[] = { 0, 0.5, 1, 2.5, 2.7, 2.9, 5, 9.99, 10, 10 };
  static const guint64 expected[] = { 2, 1, 3, 0, 0, 1, 0, 0, 0, 3 };
  g_autoptr(PsHistogram) histogram = ps_histogram_new (values, NULL, G_N_ELEMENTS (values),
                                                       PS_HISTOGRAM_LINEAR, 10);

  g_assert_cmpuint (histogram->n_bins, ==, 10);
  g_assert_cmpuint (histogram->underflow, ==, 0);
  for (guint i = 0; i < 10; i++)
    {
      g_assert_cmpfloat_with_epsilon (histogram->bins[i].lower, i, 1e-12);
      g_assert_cmpfloat_with_epsilon (histogram->bins[i].upper, i + 1, 1e-12);
      g_assert_cmpuint (histogram->bins[i].count, ==, expected[i]);
    }
  g_assert_cmpfloat_with_epsilon (histogram->bins[2].total, 2.5 + 2.7 + 2.9, 1e-12);
  g_assert_cmpfloat (histogram->bins[9].total, ==, 9.99 + 10 + 10);
  g_assert_cmpfloat (histogram->bins[9].upper, ==, 10);
  g_assert_cmpint (ps_histogram_bin_of (histogram, 10), ==, 9);
  g_assert_cmpint (ps_histogram_bin_of (histogram, 10.01), ==, -1);
  g_assert_cmpint (ps_histogram_bin_of (histogram, -0.01), ==, -1);
  g_assert_cmpfloat (histogram->min, ==, 0);
  g_assert_cmpfloat (histogram->max, ==, 10);
  assert_invariants (histogram, values, G_N_ELEMENTS (values));
}

/* Decades: 1, 10, 100, 1000 over three bins; zero and negative values are
 * counted apart */
static void
test_known_log (void)
{
  double values[] = { 1, 2, 9, 10, 50, 99, 100, 500, 1000, 0, -3 };
  static const guint64 expected[] = { 3, 3, 3 };
  g_autoptr(PsHistogram) histogram = ps_histogram_new (values, NULL, G_N_ELEMENTS (values),
                                                       PS_HISTOGRAM_LOG, 3);

  g_assert_cmpuint (histogram->n_bins, ==, 3);
  g_assert_cmpuint (histogram->underflow, ==, 2);
  g_assert_cmpfloat (histogram->underflow_total, ==, -3);
  g_assert_cmpfloat (histogram->bins[0].lower, ==, 1);
  g_assert_cmpfloat_with_epsilon (histogram->bins[0].upper, 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (histogram->bins[1].upper, 100, 1e-9);
  g_assert_cmpfloat (histogram->bins[2].upper, ==, 1000);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (histogram->bins[i].count, ==, expected[i]);
  g_assert_cmpint (ps_histogram_bin_of (histogram, 0), ==, -1);
  g_assert_cmpint (ps_histogram_bin_of (histogram, 1000), ==, 2);
  assert_invariants (histogram, values, G_N_ELEMENTS (values));
}

/* Same nearest-rank median and p95 as ps_stats_compute() */
static void
test_percentiles (void)
{
  double values[237];
  double copy[G_N_ELEMENTS (values)];
  PsStats stats;
  g_autoptr(PsHistogram) histogram = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = fmod (i * 7919.0, 1009.0) / 1000.0;
  memcpy (copy, values, sizeof values);
  ps_stats_compute (copy, G_N_ELEMENTS (copy), &stats);

  histogram = ps_histogram_new (values, NULL, G_N_ELEMENTS (values), PS_HISTOGRAM_LOG, 0);
  g_assert_cmpfloat (histogram->median, ==, stats.median);
  g_assert_cmpfloat (histogram->p95, ==, stats.p95);
  /* The input is left as it was */
  g_assert_cmpfloat (values[1], ==, fmod (7919.0, 1009.0) / 1000.0);
  assert_invariants (histogram, values, G_N_ELEMENTS (values));
}

/* Automatic bins stay in [10, 200] and follow the spread of the data */
static void
test_auto_bins (void)
{
  g_autofree double *values = g_new (double, 100000);
  double few[] = { 3, 1, 2 };
  g_autoptr(PsHistogram) many = NULL;
  g_autoptr(PsHistogram) small = NULL;
  g_autoptr(PsHistogram) skewed = NULL;

  for (guint i = 0; i < 100000; i++)
    values[i] = (double)((i * 2654435761u) % 100000) / 1000.0;  /* uniform in [0, 100) */

  many = ps_histogram_new (values, NULL, 100000, PS_HISTOGRAM_LINEAR, 0);
  /* FD on a uniform [0, 100): width 2 * 50 / 100000^(1/3) = 2.15, so 47 bins */
  g_assert_cmpuint (many->n_bins, ==, 47);
  assert_invariants (many, values, 100000);

  small = ps_histogram_new (few, NULL, G_N_ELEMENTS (few), PS_HISTOGRAM_LINEAR, 0);
  g_assert_cmpuint (small->n_bins, ==, PS_HISTOGRAM_MIN_AUTO_BINS);
  assert_invariants (small, few, G_N_ELEMENTS (few));

  /* One outlier far away: FD asks for thousands, capped */
  values[0] = 1e6;
  skewed = ps_histogram_new (values, NULL, 100000, PS_HISTOGRAM_LINEAR, 0);
  g_assert_cmpuint (skewed->n_bins, ==, PS_HISTOGRAM_MAX_AUTO_BINS);
  g_assert_cmpuint (skewed->bins[skewed->n_bins - 1].count, ==, 1);
  assert_invariants (skewed, values, 100000);
}

/* All values equal: one bar in the middle of a range around them */
static void
test_single_value (void)
{
  double values[] = { 0.004, 0.004, 0.004 };

  for (PsHistogramScale scale = PS_HISTOGRAM_LINEAR; scale <= PS_HISTOGRAM_LOG; scale++)
    {
      g_autoptr(PsHistogram) histogram = ps_histogram_new (values, NULL, G_N_ELEMENTS (values), scale, 0);
      guint n_nonempty = 0;

      g_assert_cmpuint (histogram->n_bins, ==, PS_HISTOGRAM_MIN_AUTO_BINS + 1);
      for (guint i = 0; i < histogram->n_bins; i++)
        n_nonempty += histogram->bins[i].count > 0;
      g_assert_cmpuint (n_nonempty, ==, 1);
      g_assert_cmpuint (histogram->bins[histogram->n_bins / 2].count, ==, 3);
      g_assert_cmpfloat (histogram->bins[histogram->n_bins / 2].lower, <, 0.004);
      g_assert_cmpfloat (histogram->bins[histogram->n_bins / 2].upper, >, 0.004);
      g_assert_cmpfloat (histogram->median, ==, 0.004);
      assert_invariants (histogram, values, G_N_ELEMENTS (values));
    }
}

/* Nothing to bin: no bins, the values are still counted */
static void
test_empty (void)
{
  double zeros[] = { 0, 0, -1 };
  g_autoptr(PsHistogram) none = ps_histogram_new (NULL, NULL, 0, PS_HISTOGRAM_LINEAR, 0);
  g_autoptr(PsHistogram) all_under = ps_histogram_new (zeros, NULL, 3, PS_HISTOGRAM_LOG, 0);

  g_assert_cmpuint (none->n_bins, ==, 0);
  g_assert_cmpuint (none->n_values, ==, 0);
  g_assert_cmpint (ps_histogram_bin_of (none, 1), ==, -1);
  g_assert_false (ps_histogram_range_contains (none, 0, 0, 1));

  g_assert_cmpuint (all_under->n_bins, ==, 0);
  g_assert_cmpuint (all_under->underflow, ==, 3);
  g_assert_cmpfloat (all_under->median, ==, 0);
  assert_invariants (all_under, zeros, 3);
}

/* Weights: counts stay counts, the total is value × weight */
static void
test_weights (void)
{
  double values[] = { 1, 2, 3, 4 };
  double weights[] = { 1, 2, 3, 4 };
  g_autoptr(PsHistogram) histogram = ps_histogram_new (values, weights, 4, PS_HISTOGRAM_LINEAR, 3);

  g_assert_cmpuint (histogram->bins[0].count, ==, 1);
  g_assert_cmpfloat (histogram->bins[0].weight, ==, 1);
  g_assert_cmpuint (histogram->bins[2].count, ==, 2);
  g_assert_cmpfloat (histogram->bins[2].weight, ==, 7);
  g_assert_cmpfloat (histogram->bins[2].total, ==, 9 + 16);
  g_assert_cmpfloat (histogram->sum, ==, 1 + 4 + 9 + 16);
}

/* Brushing: which values a range of bins holds */
static void
test_range_contains (void)
{
  double values[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  g_autoptr(PsHistogram) histogram = ps_histogram_new (values, NULL, G_N_ELEMENTS (values),
                                                       PS_HISTOGRAM_LINEAR, 5);

  /* Bins of width 2: [0,2) [2,4) [4,6) [6,8) [8,10] */
  g_assert_false (ps_histogram_range_contains (histogram, 1, 2, 1.999));
  g_assert_true (ps_histogram_range_contains (histogram, 1, 2, 2));
  g_assert_true (ps_histogram_range_contains (histogram, 1, 2, 5.9));
  g_assert_false (ps_histogram_range_contains (histogram, 1, 2, 6));
  g_assert_true (ps_histogram_range_contains (histogram, 4, 4, 10));
  g_assert_false (ps_histogram_range_contains (histogram, 4, 4, 10.5));
  g_assert_false (ps_histogram_range_contains (histogram, 3, 2, 5));
  g_assert_false (ps_histogram_range_contains (histogram, 7, 9, 5));
  g_assert_true (ps_histogram_range_contains (histogram, 0, 4, 0));
}

static int
compare_doubles (gconstpointer a,
                  gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* The range, bin count, median and p95 come from selection, not sorting:
 * the same as the sorted values give, on random samples with repeats,
 * and on a log scale with values that have no bin */
static void
test_matches_sorted (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261124);

  for (guint round = 0; round < 40; round++)
    {
      gsize count = 1 + g_rand_int_range (rand, 0, 5000);
      PsHistogramScale scale = round % 2 ? PS_HISTOGRAM_LOG : PS_HISTOGRAM_LINEAR;
      g_autofree double *values = g_new (double, count);
      g_autofree double *sorted = g_new (double, count);
      g_autofree double *binned = g_new (double, count);
      g_autoptr(PsHistogram) histogram = NULL;
      gsize n_binned = 0;

      for (gsize i = 0; i < count; i++)
        {
          /* A few distinct values in some rounds, zeros and negatives in others */
          values[i] = round % 4 < 2 ? g_rand_double_range (rand, -1, 1000)
                                    : (double)g_rand_int_range (rand, -1, 6);
          if (round % 8 == 7)
            values[i] = fabs (values[i]) + 0.5;
          sorted[i] = values[i];
          if (scale == PS_HISTOGRAM_LINEAR || values[i] > 0)
            binned[n_binned++] = values[i];
        }
      qsort (sorted, count, sizeof (double), compare_doubles);
      qsort (binned, n_binned, sizeof (double), compare_doubles);

      histogram = ps_histogram_new (values, NULL, count, scale, 0);
      g_assert_cmpfloat (histogram->median, ==, ps_stats_percentile (sorted, count, 50));
      g_assert_cmpfloat (histogram->p95, ==, ps_stats_percentile (sorted, count, 95));
      g_assert_cmpuint (histogram->underflow, ==, count - n_binned);
      if (n_binned == 0)
        continue;
      g_assert_cmpfloat (histogram->min, ==, binned[0]);
      g_assert_cmpfloat (histogram->max, ==, binned[n_binned - 1]);
      g_assert_cmpuint (histogram->n_bins | (binned[0] == binned[n_binned - 1]), ==,
                        ps_histogram_auto_bins (binned, n_binned, scale) | (binned[0] == binned[n_binned - 1]));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/histogram/known-linear", test_known_linear);
  g_test_add_func ("/histogram/known-log", test_known_log);
  g_test_add_func ("/histogram/percentiles", test_percentiles);
  g_test_add_func ("/histogram/auto-bins", test_auto_bins);
  g_test_add_func ("/histogram/single-value", test_single_value);
  g_test_add_func ("/histogram/empty", test_empty);
  g_test_add_func ("/histogram/weights", test_weights);
  g_test_add_func ("/histogram/range-contains", test_range_contains);
  g_test_add_func ("/histogram/matches-sorted", test_matches_sorted);

  return g_test_run ();
}

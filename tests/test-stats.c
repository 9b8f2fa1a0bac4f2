/* test-stats.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "ps-event-store.h"
#include "ps-stats.h"

static void
test_basic (void)
{
  double values[] = { 5, 1, 4, 2, 3 };
  PsStats stats;

  ps_stats_compute (values, G_N_ELEMENTS (values), &stats);
  g_assert_cmpuint (stats.count, ==, 5);
  g_assert_cmpfloat (stats.sum, ==, 15);
  g_assert_cmpfloat (stats.min, ==, 1);
  g_assert_cmpfloat (stats.max, ==, 5);
  g_assert_cmpfloat (stats.mean, ==, 3);
  g_assert_cmpfloat (stats.median, ==, 3);
  g_assert_cmpfloat (stats.p90, ==, 5);
  g_assert_cmpfloat_with_epsilon (stats.stddev, sqrt (2.0), 1e-12);
}

static void
test_nearest_rank (void)
{
  double values[100];
  double two[] = { 12410, 11931 };
  PsStats stats;

  for (guint i = 0; i < 100; i++)
    values[i] = 100 - i;  /* 100 … 1 */

  ps_stats_compute (values, 100, &stats);
  g_assert_cmpfloat (stats.median, ==, 50);
  g_assert_cmpfloat (stats.p90, ==, 90);
  g_assert_cmpfloat (stats.p95, ==, 95);
  g_assert_cmpfloat (stats.p99, ==, 99);

  /* Nearest rank of two values: the median is the lower one, p90 the upper */
  ps_stats_compute (two, 2, &stats);
  g_assert_cmpfloat (stats.median, ==, 11931);
  g_assert_cmpfloat (stats.p90, ==, 12410);
  g_assert_cmpfloat (stats.mean, ==, 12170.5);
  g_assert_cmpfloat (stats.stddev, ==, 239.5);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return (x > y) - (x < y);
}

/* Percentiles by selection equal those read off a sorted copy, for every
 * size up to 300 and some larger ones, for runs of equal values, values
 * all equal, in descending order and rising then falling */
static void
test_against_sorting (void)
{
  static const gsize large[] = { 1000, 4097, 65536, 100003 };
  GRand *rand = g_rand_new_with_seed (7);

  for (gsize c = 1; c <= 300 + G_N_ELEMENTS (large); c++)
    for (guint variant = 0; variant < 5; variant++)
      {
        gsize count = c <= 300 ? c : large[c - 301];
        g_autofree double *values = g_new (double, count);
        g_autofree double *sorted = g_new (double, count);
        PsStats stats;

        for (gsize i = 0; i < count; i++)
          values[i] = variant == 0 ? g_rand_double_range (rand, -1000, 1000)
                    : variant == 1 ? (double)g_rand_int_range (rand, 0, 4)
                    : variant == 2 ? (double)(count - i)
                    : variant == 3 ? 42.0
                    : (double)MIN (i, count - i);
        memcpy (sorted, values, count * sizeof (double));
        qsort (sorted, count, sizeof (double), compare_doubles);

        ps_stats_compute (values, count, &stats);
        g_assert_cmpfloat (stats.min, ==, sorted[0]);
        g_assert_cmpfloat (stats.max, ==, sorted[count - 1]);
        g_assert_cmpfloat (stats.median, ==, ps_stats_percentile (sorted, count, 50));
        g_assert_cmpfloat (stats.p90, ==, ps_stats_percentile (sorted, count, 90));
        g_assert_cmpfloat (stats.p95, ==, ps_stats_percentile (sorted, count, 95));
        g_assert_cmpfloat (stats.p99, ==, ps_stats_percentile (sorted, count, 99));
      }

  g_rand_free (rand);
}

static void
test_empty_and_single (void)
{
  double one[] = { -3 };
  PsStats stats;

  ps_stats_compute (NULL, 0, &stats);
  g_assert_cmpuint (stats.count, ==, 0);
  g_assert_cmpfloat (stats.mean, ==, 0);

  ps_stats_compute (one, 1, &stats);
  g_assert_cmpfloat (stats.min, ==, -3);
  g_assert_cmpfloat (stats.p99, ==, -3);
  g_assert_cmpfloat (stats.stddev, ==, 0);
}

/* Whole milliseconds: min, max and the percentiles are exactly those of
 * their doubles, whether counted (many values in a narrow range) or
 * selected (few values, or a range wider than their number); the sum is
 * the double nearest the exact total, the mean that sum over the count,
 * and the standard deviation agrees with the doubles' to rounding */
static void
test_whole_ms (void)
{
  static const struct { gsize count; guint32 range; } cases[] = {
    { 1, 10 }, { 2, 3 }, { 255, 1000 }, { 256, 1000 }, { 257, 1 }, { 1000, 70000 },
    { 5000, 100 }, { 5000, 65536 }, { 5000, 65537 }, { 100000, 2000 }, { 3000, G_MAXUINT32 },
  };
  GRand *rand = g_rand_new_with_seed (11);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      gsize count = cases[c].count;
      g_autofree guint32 *ms = g_new (guint32, count);
      g_autofree double *values = g_new (double, count);
      guint32 base = g_rand_int_range (rand, 0, 1000);
      guint64 total_ms = 0;
      PsStats from_ms;
      PsStats from_doubles;

      for (gsize i = 0; i < count; i++)
        {
          guint32 offset = cases[c].range == G_MAXUINT32 ? g_rand_int (rand)
                                                         : (guint32)g_rand_int_range (rand, 0, cases[c].range);

          ms[i] = cases[c].range == G_MAXUINT32 ? offset : base + offset;
          values[i] = (double)((gint64)ms[i] * 1000000) / 1e9;
          total_ms += ms[i];
        }

      ps_stats_compute_ms (ms, count, &from_ms);
      ps_stats_compute (values, count, &from_doubles);
      g_assert_cmpuint (from_ms.count, ==, count);
      g_assert_cmpfloat (from_ms.min, ==, from_doubles.min);
      g_assert_cmpfloat (from_ms.max, ==, from_doubles.max);
      g_assert_cmpfloat (from_ms.median, ==, from_doubles.median);
      g_assert_cmpfloat (from_ms.p90, ==, from_doubles.p90);
      g_assert_cmpfloat (from_ms.p95, ==, from_doubles.p95);
      g_assert_cmpfloat (from_ms.p99, ==, from_doubles.p99);
      g_assert_cmpfloat (from_ms.sum, ==, (double)total_ms / 1000.0);
      g_assert_cmpfloat (from_ms.mean, ==, from_ms.sum / (double)count);
      g_assert_cmpfloat_with_epsilon (from_ms.sum, from_doubles.sum, fabs (from_doubles.sum) * 1e-13);
      g_assert_cmpfloat_with_epsilon (from_ms.stddev, from_doubles.stddev, from_doubles.stddev * 1e-9 + 1e-12);
    }

  {
    PsStats stats;

    ps_stats_compute_ms (NULL, 0, &stats);
    g_assert_cmpuint (stats.count, ==, 0);
    g_assert_cmpfloat (stats.max, ==, 0);
  }

  g_rand_free (rand);
}

/* Whole milliseconds in any order give the very same statistics, and the
 * sums are exact where doubles summed in order are not: 0.1 s and 0.2 s
 * make 0.3 s */
static void
test_whole_ms_any_order (void)
{
  guint32 tenths[] = { 100, 200 };
  guint32 values[4000];
  g_autofree guint32 *shuffled = NULL;
  GRand *rand = g_rand_new_with_seed (5);
  PsStats in_order;
  PsStats reordered;

  ps_stats_compute_ms (tenths, G_N_ELEMENTS (tenths), &in_order);
  g_assert_cmpfloat (in_order.sum, ==, 0.3);
  g_assert_cmpfloat (in_order.mean, ==, 0.15);
  g_assert_cmpfloat (in_order.stddev, ==, 0.05);

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = (guint32)g_rand_int_range (rand, 1, 5000) * (i % 7 == 0 ? 1000 : 1);
  shuffled = g_memdup2 (values, sizeof values);
  for (guint i = G_N_ELEMENTS (values) - 1; i > 0; i--)
    {
      guint j = g_rand_int_range (rand, 0, i + 1);
      guint32 t = shuffled[i];

      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }

  ps_stats_compute_ms (values, G_N_ELEMENTS (values), &in_order);
  ps_stats_compute_ms (shuffled, G_N_ELEMENTS (values), &reordered);
  g_assert_cmpmem (&in_order, sizeof in_order, &reordered, sizeof reordered);
  g_assert_cmpfloat (in_order.stddev, >, 0);

  g_rand_free (rand);
}

/* The same counts read from a store's value pages by index, among other
 * values, by indexes in 32 and in 64 bits */
static void
check_ticks_in_pages (const guint32 *ticks,
                      gsize          count,
                      double         rate,
                      const PsStats *expected,
                      const PsStats *expected_ticks)
{
  const gsize page_size = (gsize)1 << PS_EVENT_STORE_VALUE_PAGE_SHIFT;
  gsize n_pages = (3 * count + 2) / page_size + 1;
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint32 *index_narrow = g_new (guint32, count + 1);
  g_autofree gint64 *index = g_new (gint64, count + 1);

  for (gsize p = 0; p < n_pages; p++)
    {
      guint32 *page = g_new (guint32, page_size);

      /* What is not a count of the series would change its statistics */
      for (gsize v = 0; v < page_size; v++)
        page[v] = G_MAXUINT32 - (guint32)v;
      g_ptr_array_add (pages, page);
    }
  for (gsize i = 0; i < count; i++)
    {
      gsize at = 3 * i + 1;

      ((guint32 *)g_ptr_array_index (pages, at / page_size))[at % page_size] = ticks[i];
      index_narrow[i] = (guint32)at;
      index[i] = (gint64)at;
    }
  for (guint wide = 0; wide < 2; wide++)
    {
      PsStatsTicks in_pages = {
        .pages = (const guint32 *const *)pages->pdata,
        .index_narrow = wide ? NULL : index_narrow,
        .index = wide ? index : NULL,
      };
      PsStats stats, ticks_stats;

      g_assert_true (ps_stats_compute_scaled_u32 (&in_pages, count, rate, &stats, &ticks_stats, NULL));
      g_assert_cmpmem (&ticks_stats, sizeof ticks_stats, expected_ticks, sizeof *expected_ticks);
      g_assert_cmpmem (&stats, sizeof stats, expected, sizeof *expected);
    }
}

/* Tick counts: the statistics of ps_stats_compute_scaled () are those
 * ps_stats_compute () gives of the ticks and of each divided by the rate,
 * bit for bit, with rate 0 both the ticks'; its twin on counts in 32
 * bits gives the very same from the same counts, runs of equal counts
 * and counts past 2³¹ among them */
static void
test_scaled_ticks (void)
{
  static const gsize counts[] = { 0, 1, 2, 17, 1000, 65535, 70000, 200001 };
  static const double rates[] = { 0, 1193180, 3.579545e6, 1000 };
  GRand *rand = g_rand_new_with_seed (17);

  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    for (guint r = 0; r < G_N_ELEMENTS (rates); r++)
      {
        gsize count = counts[c];
        double rate = rates[r];
        g_autofree guint32 *ticks32 = g_new (guint32, count + 1);
        g_autofree double *ticks = g_new (double, count + 1);
        g_autofree double *plain_ticks = g_new (double, count + 1);
        g_autofree double *plain_values = g_new (double, count + 1);
        g_autofree guint32 *ticks32_before = NULL;
        PsStats stats, ticks_stats, stats32, ticks_stats32, expected, expected_ticks;

        for (gsize i = 0; i < count; i++)
          {
            guint32 tick = i % 5 == 0 ? 4242 : i % 11 == 0 ? G_MAXUINT32 - (guint32)i : g_rand_int (rand) >> (i % 20);

            ticks32[i] = tick;
            ticks[i] = plain_ticks[i] = tick;
            plain_values[i] = rate > 0 ? tick / rate : tick;
          }
        g_assert_true (ps_stats_compute_scaled (ticks, count, rate, &stats, &ticks_stats, NULL));
        ticks32_before = g_memdup2 (ticks32, (count + 1) * sizeof (guint32));
        g_assert_true (ps_stats_compute_scaled_u32 (&(PsStatsTicks){ .ticks = ticks32 }, count, rate, &stats32,
                                                    &ticks_stats32, NULL));
        /* Left in their order: a timeline draws them */
        g_assert_cmpmem (ticks32, count * sizeof (guint32), ticks32_before, count * sizeof (guint32));
        ps_stats_compute (plain_ticks, count, &expected_ticks);
        ps_stats_compute (plain_values, count, &expected);
        g_assert_cmpmem (&ticks_stats, sizeof ticks_stats, &expected_ticks, sizeof expected_ticks);
        g_assert_cmpmem (&stats, sizeof stats, &expected, sizeof expected);
        g_assert_cmpmem (&ticks_stats32, sizeof ticks_stats32, &expected_ticks, sizeof expected_ticks);
        g_assert_cmpmem (&stats32, sizeof stats32, &expected, sizeof expected);
        check_ticks_in_pages (ticks32, count, rate, &expected, &expected_ticks);
        g_assert_cmpuint (stats32.count, ==, count);
        if (count >= 1000)
          g_assert_cmpfloat (ticks_stats32.max, >, (double)G_MAXINT32);
      }

  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stats/basic", test_basic);
  g_test_add_func ("/stats/nearest-rank", test_nearest_rank);
  g_test_add_func ("/stats/empty-and-single", test_empty_and_single);
  g_test_add_func ("/stats/against-sorting", test_against_sorting);
  g_test_add_func ("/stats/whole-ms", test_whole_ms);
  g_test_add_func ("/stats/whole-ms-any-order", test_whole_ms_any_order);
  g_test_add_func ("/stats/scaled-ticks", test_scaled_ticks);

  return g_test_run ();
}

/* test-stats.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stats/basic", test_basic);
  g_test_add_func ("/stats/nearest-rank", test_nearest_rank);
  g_test_add_func ("/stats/empty-and-single", test_empty_and_single);

  return g_test_run ();
}

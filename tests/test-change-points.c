/* test-change-points.c — E-divisive means with the t-test of Hunter
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". Series with known changes, built from a seeded
 * generator so that every run sees the same values.
 */
#include "config.h"

#include <math.h>

#include "ps-change-points.h"
#include "seeded-noise.h"

static GArray *
find (const double *values,
      gsize         n,
      double        min_magnitude)
{
  PsChangePointOptions options;

  ps_change_point_options_init (&options);
  options.min_magnitude = min_magnitude;
  return ps_change_points_find (values, n, &options);
}

#define POINT(points, i) (&g_array_index ((points), PsChangePoint, (i)))

/* Student's t with 10 degrees of freedom: P(|T| ≥ 2.228138852) = 0.05
 * (the two-sided 5 % critical value of every t table). Two samples of 6
 * with variance 1 have a standard error of √(1/3). */
static void
test_t_test (void)
{
  double t = 2.228138852;
  double difference = t * sqrt (1.0 / 3);

  g_assert_cmpfloat_with_epsilon (ps_change_points_t_test (6, 0, 1, 6, difference, 1), 0.05, 1e-8);
  g_assert_cmpfloat_with_epsilon (ps_change_points_t_test (6, 5, 1, 6, 5 - difference, 1), 0.05, 1e-8);
  /* t = 0 */
  g_assert_cmpfloat (ps_change_points_t_test (6, 3, 2, 9, 3, 0.5), ==, 1);
  /* 1 degree of freedom is Cauchy: P(|T| ≥ 1) = 1/2. With 1 + 2 values
   * the pooled variance is variance_b, 1, and the standard error √(1 + ½). */
  g_assert_cmpfloat_with_epsilon (ps_change_points_t_test (1, 0, 0, 2, sqrt (1.5), 1), 0.5, 1e-10);
  /* Neither side varies */
  g_assert_cmpfloat (ps_change_points_t_test (3, 1, 0, 3, 2, 0), ==, 0);
  g_assert_cmpfloat (ps_change_points_t_test (3, 1, 0, 3, 1, 0), ==, 1);
  /* Too few values to tell */
  g_assert_cmpfloat (ps_change_points_t_test (1, 1, 0, 1, 5, 0), ==, 1);
  g_assert_cmpfloat (ps_change_points_t_test (0, NAN, 0, 5, 5, 1), ==, 1);
}

static void
test_one_step (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  double values[80];
  g_autoptr(GArray) points = NULL;
  const PsChangePoint *point;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = seeded_noise_normal (rand, i < 40 ? 100 : 120, 1);

  points = find (values, G_N_ELEMENTS (values), 0);
  g_assert_cmpuint (points->len, ==, 1);
  point = POINT (points, 0);
  g_assert_cmpuint (point->index, ==, 40);
  g_assert_cmpuint (point->before_start, ==, 0);
  g_assert_cmpuint (point->after_end, ==, 80);
  g_assert_cmpuint (point->n_before, ==, 40);
  g_assert_cmpuint (point->n_after, ==, 40);
  g_assert_cmpfloat_with_epsilon (point->mean_before, 100, 0.5);
  g_assert_cmpfloat_with_epsilon (point->mean_after, 120, 0.5);
  g_assert_cmpfloat_with_epsilon (point->median_before, 100, 0.5);
  g_assert_cmpfloat_with_epsilon (point->median_after, 120, 0.5);
  g_assert_cmpfloat_with_epsilon (point->relative_change, 0.2, 0.01);
  g_assert_cmpfloat (point->p_value, <, 1e-20);

  /* A step smaller than the least magnitude asked for is no change */
  g_clear_pointer (&points, g_array_unref);
  points = find (values, G_N_ELEMENTS (values), 0.25);
  g_assert_cmpuint (points->len, ==, 0);

  /* Downwards, the same place */
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = 220 - values[i];
  g_clear_pointer (&points, g_array_unref);
  points = find (values, G_N_ELEMENTS (values), 0.1);
  g_assert_cmpuint (points->len, ==, 1);
  g_assert_cmpuint (POINT (points, 0)->index, ==, 40);
  g_assert_cmpfloat (POINT (points, 0)->relative_change, <, -0.15);
}

/* Two steps four runs apart: a split of the whole series would take the
 * middle four with one side or the other */
static void
test_two_close_steps (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (2);
  double values[70];
  g_autoptr(GArray) points = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = seeded_noise_normal (rand, i < 30 ? 100 : i < 34 ? 110 : 120, 1);

  points = find (values, G_N_ELEMENTS (values), 0);
  g_assert_cmpuint (points->len, ==, 2);
  g_assert_cmpuint (POINT (points, 0)->index, ==, 30);
  g_assert_cmpuint (POINT (points, 1)->index, ==, 34);
  g_assert_cmpuint (POINT (points, 0)->after_end, ==, 34);
  g_assert_cmpuint (POINT (points, 1)->before_start, ==, 30);
  g_assert_cmpuint (POINT (points, 1)->n_before, ==, 4);
  g_assert_cmpfloat_with_epsilon (POINT (points, 0)->relative_change, 0.10, 0.02);
  g_assert_cmpfloat_with_epsilon (POINT (points, 1)->relative_change, 120.0 / 110 - 1, 0.02);
}

/* One run three times as slow, in the middle or at either end, is not a
 * change of level */
static void
test_single_outlier (void)
{
  const gsize where[] = { 0, 1, 30, 58, 59 };

  for (guint w = 0; w < G_N_ELEMENTS (where); w++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (3 + w);
      double values[60];
      g_autoptr(GArray) points = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        values[i] = seeded_noise_normal (rand, 100, 1);
      values[where[w]] = 300;

      points = find (values, G_N_ELEMENTS (values), 0);
      g_assert_cmpuint (points->len, ==, 0);
    }
}

/* A slow climb of 10 % over 100 runs with 1 % noise: what is found marks
 * it going up, never down; with a least magnitude larger than any step of
 * it, nothing is */
static void
test_slow_drift (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4);
  double values[100];
  g_autoptr(GArray) points = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = seeded_noise_normal (rand, 100 + 0.1 * i, 1);

  points = find (values, G_N_ELEMENTS (values), 0);
  g_assert_cmpuint (points->len, >=, 1);
  for (guint i = 0; i < points->len; i++)
    {
      const PsChangePoint *point = POINT (points, i);

      g_assert_cmpfloat (point->relative_change, >, 0);
      g_assert_cmpfloat (point->relative_change, <, 0.1);
      g_assert_cmpfloat (point->p_value, <=, 0.01);
      g_assert_cmpuint (point->index, >, 0);
      g_assert_cmpuint (point->index, <, 100);
    }

  g_clear_pointer (&points, g_array_unref);
  points = find (values, G_N_ELEMENTS (values), 0.1);
  g_assert_cmpuint (points->len, ==, 0);
}

/* Pure noise, 300 runs each, for twenty seeds: no change */
static void
test_pure_noise (void)
{
  for (guint seed = 100; seed < 120; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      double values[300];
      g_autoptr(GArray) points = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        values[i] = seeded_noise_normal (rand, 50, 2);

      points = find (values, G_N_ELEMENTS (values), 0);
      if (points->len > 0)
        g_test_message ("seed %u: a change at %" G_GSIZE_FORMAT " (p = %g)",
                        seed, POINT (points, 0)->index, POINT (points, 0)->p_value);
      g_assert_cmpuint (points->len, ==, 0);
    }
}

/* The example of Hunter's documentation (apache/otava, docs/BASICS.md,
 * "Finding Change Points"): `hunter analyze local.sample` on ten daily
 * runs reports one change point, between 2021-01-06 and 2021-01-07, of
 * −12.9 % in metric2, and none in metric1. The means either side are
 * 62.89 / 6 = 10.4817 and 36.5 / 4 = 9.125. */
static void
test_published_example (void)
{
  const double metric1[] = {
    154023, 138455, 143112, 149190, 132098, 151344, 155145, 148889, 149466, 148209,
  };
  const double metric2[] = {
    10.43, 10.23, 10.29, 10.91, 10.34, 10.69, 9.23, 9.11, 9.13, 9.03,
  };
  g_autoptr(GArray) points1 = find (metric1, G_N_ELEMENTS (metric1), 0);
  g_autoptr(GArray) points2 = find (metric2, G_N_ELEMENTS (metric2), 0);
  const PsChangePoint *point;

  g_assert_cmpuint (points1->len, ==, 0);

  g_assert_cmpuint (points2->len, ==, 1);
  point = POINT (points2, 0);
  g_assert_cmpuint (point->index, ==, 6);
  g_assert_cmpfloat_with_epsilon (point->mean_before, 62.89 / 6, 1e-9);
  g_assert_cmpfloat_with_epsilon (point->mean_after, 36.5 / 4, 1e-9);
  /* Printed rounded to −12.9 % */
  g_assert_cmpfloat_with_epsilon (point->relative_change, -0.129, 0.0005);
}

/* 20 000 runs, window 50: steps far apart are found where they are, and
 * the cost stays that of the windows */
static void
test_long_series (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  gsize n = 20000;
  g_autofree double *values = g_new (double, n);
  g_autoptr(GArray) points = NULL;

  for (gsize i = 0; i < n; i++)
    values[i] = seeded_noise_normal (rand, i < 5000 ? 10 : i < 12345 ? 12 : 9, 0.2);

  points = find (values, n, 0);
  g_assert_cmpuint (points->len, ==, 2);
  g_assert_cmpuint (POINT (points, 0)->index, ==, 5000);
  g_assert_cmpuint (POINT (points, 1)->index, ==, 12345);
  g_assert_cmpuint (POINT (points, 1)->n_after, ==, n - 12345);
  g_assert_cmpfloat_with_epsilon (POINT (points, 1)->relative_change, -0.25, 0.01);
}

/* Runs without a value are skipped; indexes stay the caller's */
static void
test_missing_values (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (6);
  double values[60];
  g_autoptr(GArray) points = NULL;
  const PsChangePoint *point;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = seeded_noise_normal (rand, i < 25 ? 5 : 6, 0.1);
  values[0] = NAN;
  values[24] = NAN;
  values[23] = INFINITY;
  values[40] = NAN;

  points = find (values, G_N_ELEMENTS (values), 0);
  g_assert_cmpuint (points->len, ==, 1);
  point = POINT (points, 0);
  g_assert_cmpuint (point->index, ==, 25);
  g_assert_cmpuint (point->before_start, ==, 1);
  g_assert_cmpuint (point->n_before, ==, 22);
  g_assert_cmpuint (point->n_after, ==, 34);
  g_assert_cmpfloat_with_epsilon (point->relative_change, 0.2, 0.02);
}

static void
test_degenerate (void)
{
  double constant[30];
  double steps[12] = { 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2 };
  const double few[] = { 1, 100, 1 };
  g_autoptr(GArray) points = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (constant); i++)
    constant[i] = 7;
  points = find (constant, G_N_ELEMENTS (constant), 0);
  g_assert_cmpuint (points->len, ==, 0);
  g_clear_pointer (&points, g_array_unref);

  points = find (few, G_N_ELEMENTS (few), 0);
  g_assert_cmpuint (points->len, ==, 0);
  g_clear_pointer (&points, g_array_unref);

  points = find (NULL, 0, 0);
  g_assert_cmpuint (points->len, ==, 0);
  g_clear_pointer (&points, g_array_unref);

  /* Whole counts that do not vary but on one step */
  points = find (steps, G_N_ELEMENTS (steps), 0);
  g_assert_cmpuint (points->len, ==, 1);
  g_assert_cmpuint (POINT (points, 0)->index, ==, 6);
  g_assert_cmpfloat (POINT (points, 0)->p_value, ==, 0);
  g_assert_cmpfloat (POINT (points, 0)->relative_change, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/change-points/t-test", test_t_test);
  g_test_add_func ("/change-points/one-step", test_one_step);
  g_test_add_func ("/change-points/two-close-steps", test_two_close_steps);
  g_test_add_func ("/change-points/single-outlier", test_single_outlier);
  g_test_add_func ("/change-points/slow-drift", test_slow_drift);
  g_test_add_func ("/change-points/pure-noise", test_pure_noise);
  g_test_add_func ("/change-points/published-example", test_published_example);
  g_test_add_func ("/change-points/long-series", test_long_series);
  g_test_add_func ("/change-points/missing-values", test_missing_values);
  g_test_add_func ("/change-points/degenerate", test_degenerate);

  return g_test_run ();
}

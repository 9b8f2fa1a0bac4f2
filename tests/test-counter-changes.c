/* test-counter-changes.c — change points along one counter's time
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 and §8. Counters read once a second from
 * 14:00, built from a seeded generator so that every run sees the same
 * values.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-counter-changes.h"
#include "seeded-noise.h"

#define SECOND G_GINT64_CONSTANT (1000000000)
#define AT_1400 (G_GINT64_CONSTANT (1764597600) * SECOND)  /* 2025-12-01 14:00 UTC */
#define MINUTES(n) ((gint64)(n) * 60 * SECOND)

typedef double (*Shape) (GRand *rand, guint second);

static GArray *
changes_of (Shape  shape,
            guint  seconds,
            double min_magnitude,
            gint64 *bucket_ns)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  PsCounterSeries series;
  PsCounterOverview overview;
  PsChangePointOptions options;
  GArray *changes;

  ps_counter_series_init (&series);
  for (guint second = 0; second < seconds; second++)
    ps_counter_series_add (&series, AT_1400 + second * SECOND, shape (rand, second), FALSE);
  ps_counter_series_get_overview (&series, &overview);
  ps_change_point_options_init (&options);
  options.min_magnitude = min_magnitude;
  changes = ps_counter_changes_find (&overview, &options);
  *bucket_ns = overview.bucket_ns;
  ps_counter_series_clear (&series);
  return changes;
}

#define CHANGE(changes, i) (&g_array_index ((changes), PsCounterChange, (i)))

/* 100 MiB of memory until 14:03, then a leak of 1 MiB every 10 s */
static double
leak_from_1403 (GRand *rand,
                guint  second)
{
  double level = 100 + (second >= 180 ? (second - 180) / 10.0 : 0);

  return seeded_noise_normal (rand, level, 0.5) * 1048576;
}

/* The memory that starts to climb at 14:03 is marked at 14:03: one
 * climb, from there (to a bucket or two) to near the end, upwards by
 * about the 42 MiB it gained */
static void
test_leak (void)
{
  gint64 bucket_ns;
  g_autoptr(GArray) changes = changes_of (leak_from_1403, 600, 0, &bucket_ns);
  const PsCounterChange *climb;

  g_assert_cmpuint (changes->len, ==, 1);
  climb = CHANGE (changes, 0);
  g_test_message ("climb from %.1f s to %.1f s in %u steps, %+.1f %%, buckets of %" G_GINT64_FORMAT " ms",
                  (climb->time_ns - AT_1400) / 1e9, (climb->end_ns - AT_1400) / 1e9, climb->n_steps,
                  climb->relative_change * 100, bucket_ns / 1000000);
  g_assert_cmpint (llabs (climb->time_ns - (AT_1400 + MINUTES (3))), <=, 2 * bucket_ns);
  g_assert_cmpuint (climb->n_steps, >, 1);
  g_assert_cmpint (climb->end_ns, >, AT_1400 + MINUTES (8));
  g_assert_cmpfloat (climb->relative_change, >, 0.3);
  g_assert_cmpfloat (climb->relative_change, <, 0.45);
  g_assert_cmpint (climb->before_begin_ns, <, climb->time_ns);
  g_assert_cmpint (climb->after_end_ns, >, climb->end_ns);
}

/* 20 % processor time, then 60 % from 14:05:30 */
static double
step_at_140530 (GRand *rand,
                guint  second)
{
  return seeded_noise_normal (rand, second >= 330 ? 60 : 20, 3);
}

static void
test_step (void)
{
  gint64 bucket_ns;
  g_autoptr(GArray) changes = changes_of (step_at_140530, 900, 0, &bucket_ns);
  const PsCounterChange *change;

  g_assert_cmpuint (changes->len, ==, 1);
  change = CHANGE (changes, 0);
  g_assert_cmpuint (change->n_steps, ==, 1);
  g_assert_cmpint (change->end_ns, ==, change->time_ns);
  g_assert_cmpint (llabs (change->time_ns - (AT_1400 + 330 * SECOND)), <=, bucket_ns);
  g_assert_cmpfloat_with_epsilon (change->relative_change, 2.0, 0.1);
  g_assert_cmpfloat (change->point.p_value, <=, 0.01);

  /* A least magnitude above the step's: nothing */
  g_clear_pointer (&changes, g_array_unref);
  changes = changes_of (step_at_140530, 900, 2.5, &bucket_ns);
  g_assert_cmpuint (changes->len, ==, 0);
}

static void
release_nothing (gpointer data)
{
  (void)data;
}

/* The changes among the points of x and values (default options). They
 * must be the same, field for field, when read from a chart's points in
 * place (ps_counter_changes_find_in_lod ()): x in full, and x in 32 bits
 * where it fits. */
static GArray *
find_in_points (GArray *x,
                GArray *values)
{
  PsChangePointOptions options;
  GArray *changes;
  g_autofree guint32 *x_narrow = NULL;
  gboolean fits = TRUE;

  ps_change_point_options_init (&options);
  changes = ps_counter_changes_find_in_points ((const gint64 *)(gpointer)x->data,
                                               (const double *)(gpointer)values->data, x->len, &options);

  x_narrow = g_new (guint32, MAX (x->len, 1));
  for (guint i = 0; i < x->len; i++)
    {
      gint64 v = g_array_index (x, gint64, i);

      fits = fits && v >= 0 && v <= G_MAXUINT32;
      x_narrow[i] = (guint32)v;
    }
  for (guint narrow = 0; narrow < 2; narrow++)
    {
      PsValueLodPoints points = { 0 };
      g_autoptr(PsValueLod) lod = NULL;
      g_autoptr(GArray) in_lod = NULL;

      if (narrow && !fits)
        continue;
      if (narrow)
        points.x_narrow = x_narrow;
      else
        points.x = (const gint64 *)(gpointer)x->data;
      points.values = (const double *)(gpointer)values->data;
      lod = ps_value_lod_new_in_block (&points, x->len, NULL, release_nothing);
      in_lod = ps_counter_changes_find_in_lod (lod, &options);
      g_assert_cmpuint (in_lod->len, ==, changes->len);
      for (guint i = 0; i < changes->len; i++)
        {
          const PsCounterChange *a = &g_array_index (in_lod, PsCounterChange, i);
          const PsCounterChange *b = &g_array_index (changes, PsCounterChange, i);

          g_assert_true (memcmp (&a->point, &b->point, sizeof a->point) == 0);
          g_assert_cmpint (a->time_ns, ==, b->time_ns);
          g_assert_cmpint (a->end_ns, ==, b->end_ns);
          g_assert_cmpint (a->before_begin_ns, ==, b->before_begin_ns);
          g_assert_cmpint (a->after_end_ns, ==, b->after_end_ns);
          g_assert_cmpuint (a->n_steps, ==, b->n_steps);
          g_assert_true (memcmp (&a->mean_before, &b->mean_before, sizeof (double)) == 0);
          g_assert_true (memcmp (&a->mean_after, &b->mean_after, sizeof (double)) == 0);
          g_assert_true (memcmp (&a->relative_change, &b->relative_change, sizeof (double)) == 0);
        }
    }
  return changes;
}

/* The same step in a series of points a sequence number apart, as a CE
 * application's CPU over the measurements of its session (#5000 on):
 * marked at the measurement where it begins, and its means are those of
 * the readings */
static void
test_points (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GArray) x = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) changes = NULL;
  g_autoptr(GArray) long_changes = NULL;
  PsChangePointOptions options;
  const PsCounterChange *change;

  for (guint i = 0; i < 900; i++)
    {
      gint64 index = 5000 + i;
      double value = step_at_140530 (rand, i);

      g_array_append_val (x, index);
      g_array_append_val (values, value);
    }
  ps_change_point_options_init (&options);
  changes = find_in_points (x, values);
  g_assert_cmpuint (changes->len, ==, 1);
  change = CHANGE (changes, 0);
  g_assert_cmpuint (change->n_steps, ==, 1);
  /* Each point its own bucket: the very measurement */
  g_assert_cmpint (change->time_ns, ==, 5000 + 330);
  g_assert_cmpint (change->before_begin_ns, >=, 5000);
  g_assert_cmpint (change->after_end_ns, <=, 5000 + 900);
  g_assert_cmpfloat_with_epsilon (change->mean_before, 20, 1);
  g_assert_cmpfloat_with_epsilon (change->mean_after, 60, 1);

  /* 100 000 measurements: buckets of many, the change still found
   * within one bucket of where it is */
  g_array_set_size (x, 0);
  g_array_set_size (values, 0);
  for (guint i = 0; i < 100000; i++)
    {
      gint64 index = i;
      double value = seeded_noise_normal (rand, i >= 61000 ? 60 : 20, 3);

      g_array_append_val (x, index);
      g_array_append_val (values, value);
    }
  long_changes = find_in_points (x, values);
  g_assert_cmpuint (long_changes->len, ==, 1);
  g_assert_cmpint (llabs (CHANGE (long_changes, 0)->time_ns - 61000), <=, 128);

  g_clear_pointer (&changes, g_array_unref);
  changes = ps_counter_changes_find_in_points (NULL, NULL, 0, &options);
  g_assert_cmpuint (changes->len, ==, 0);
}

/* A scope's calls along a log, few and long at first (two of them a
 * millisecond apart, in one stretch of the overview), then many and
 * short: the levels of the step are the means of the calls before and
 * after it, as a person computes them from the values, where the means
 * of the stretches' means gave 53.75 ms for 60, 55 and 50 ms (found on
 * the demo RTL log's addInputStream: 43.75 ms for 60, 55 and 30) */
static void
test_points_means (void)
{
  g_autoptr(GArray) x = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) changes = NULL;
  static const double first[] = { 60e-3, 55e-3, 50e-3 };
  static const gint64 first_at[] = { 188, 189, 235 };
  const PsCounterChange *change;

  for (guint i = 0; i < G_N_ELEMENTS (first); i++)
    {
      gint64 at = first_at[i] * 1000000;

      g_array_append_val (x, at);
      g_array_append_val (values, first[i]);
    }
  /* 5 ms and 7 ms by turns, a 7 ms call followed by a long pause */
  for (guint i = 0; i < 48; i++)
    {
      gint64 at = (268 + 50 * (gint64)(i / 2) + (i % 2) * 5) * 1000000;
      double value = (i % 2 ? 7 : 5) * 1e-3;

      g_array_append_val (x, at);
      g_array_append_val (values, value);
    }
  changes = find_in_points (x, values);
  g_assert_cmpuint (changes->len, ==, 1);
  change = CHANGE (changes, 0);
  g_assert_cmpuint (change->n_steps, ==, 1);
  g_assert_cmpint (change->time_ns, >, 235 * 1000000);
  g_assert_cmpint (change->time_ns, <=, 268 * 1000000);
  g_assert_cmpint (change->before_begin_ns, <=, 188 * 1000000);
  g_assert_cmpfloat_with_epsilon (change->mean_before, (60e-3 + 55e-3 + 50e-3) / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (change->mean_after, 6e-3, 1e-12);
  g_assert_cmpfloat_with_epsilon (change->relative_change, 6e-3 / ((60e-3 + 55e-3 + 50e-3) / 3) - 1, 1e-9);
}

/* 20 % with one reading of 95 %: an outlier, not a level */
static double
one_spike (GRand *rand,
           guint  second)
{
  return second == 400 ? 95 : seeded_noise_normal (rand, 20, 3);
}

static double
noise (GRand *rand,
       guint  second)
{
  return seeded_noise_normal (rand, 50, 5);
}

/* An idle process (0 %, exactly) that gets busy at 14:05 */
static double
busy_from_1405 (GRand *rand,
                guint  second)
{
  return second >= 300 ? seeded_noise_normal (rand, 40, 5) : 0;
}

/* A change from a level of zero has no relative size: it is infinite,
 * not the quotient by the rounding left of a mean of zeros */
static void
test_from_zero (void)
{
  gint64 bucket_ns;
  g_autoptr(GArray) changes = changes_of (busy_from_1405, 900, 0, &bucket_ns);
  const PsCounterChange *change;

  g_assert_cmpuint (changes->len, ==, 1);
  change = CHANGE (changes, 0);
  g_test_message ("from %g to %g: %g", change->mean_before, change->mean_after, change->relative_change);
  g_assert_cmpint (llabs (change->time_ns - (AT_1400 + MINUTES (5))), <=, bucket_ns);
  g_assert_cmpfloat (change->mean_before, ==, 0);
  g_assert_cmpfloat_with_epsilon (change->mean_after, 40, 1);
  g_assert_true (isinf (change->relative_change) && change->relative_change > 0);
}

static void
test_no_change (void)
{
  gint64 bucket_ns;
  g_autoptr(GArray) spike = changes_of (one_spike, 900, 0, &bucket_ns);
  g_autoptr(GArray) flat = changes_of (noise, 7200, 0, &bucket_ns);

  g_assert_cmpuint (spike->len, ==, 0);
  g_assert_cmpuint (flat->len, ==, 0);
}

/* A counter with one reading, or none, has no change */
static double
constant (GRand *rand,
          guint  second)
{
  return 1;
}

static void
test_too_short (void)
{
  gint64 bucket_ns;
  g_autoptr(GArray) none = changes_of (constant, 0, 0, &bucket_ns);
  g_autoptr(GArray) one = changes_of (constant, 1, 0, &bucket_ns);

  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (one->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/counter-changes/leak", test_leak);
  g_test_add_func ("/counter-changes/step", test_step);
  g_test_add_func ("/counter-changes/points", test_points);
  g_test_add_func ("/counter-changes/points-means", test_points_means);
  g_test_add_func ("/counter-changes/from-zero", test_from_zero);
  g_test_add_func ("/counter-changes/no-change", test_no_change);
  g_test_add_func ("/counter-changes/too-short", test_too_short);

  return g_test_run ();
}

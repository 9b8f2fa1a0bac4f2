/* test-mann-whitney.c — the two-sided Mann–Whitney U test
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff" (p_value). Expected values are worked out by hand
 * in the comments (the exact distribution by counting rank arrangements,
 * the normal approximation with its formula), and agree with R's
 * wilcox.test () and with scipy.stats.mannwhitneyu ()'s documented
 * example.
 */
#include "config.h"

#include <math.h>

#include "ps-mann-whitney.h"

#define TOLERANCE 1e-12

static void
assert_test (const double        *a,
             gsize                n_a,
             const double        *b,
             gsize                n_b,
             PsMannWhitneyMethod  method,
             double               expected_u,
             double               expected_p,
             PsMannWhitneyMethod  expected_method)
{
  PsMannWhitneyResult result;
  double p = ps_mann_whitney_test (a, n_a, b, n_b, method, &result);

  g_assert_cmpfloat (p, ==, result.p_value);
  g_assert_cmpfloat_with_epsilon (result.u, expected_u, 1e-12);
  g_assert_cmpfloat_with_epsilon (result.p_value, expected_p, MAX (TOLERANCE, expected_p * 1e-9));
  g_assert_cmpint (result.method, ==, expected_method);
}

/* {1,2,3} below {4,5,6}: U₁ = 0, the one arrangement of C(6,3) = 20 at
 * the lower end; two-sided 2/20 (R: W = 0, p-value = 0.1). Swapped, U₁ = 9. */
static void
test_exact_separated (void)
{
  const double low[] = { 1, 2, 3 };
  const double high[] = { 4, 5, 6 };
  const double low5[] = { 1, 2, 3, 4, 5 };
  const double high5[] = { 10, 9, 8, 7, 6 };

  assert_test (low, 3, high, 3, PS_MANN_WHITNEY_AUTO, 0, 0.1, PS_MANN_WHITNEY_EXACT);
  assert_test (high, 3, low, 3, PS_MANN_WHITNEY_AUTO, 9, 0.1, PS_MANN_WHITNEY_EXACT);
  /* 2 / C(10,5) = 2/252 (R: p-value = 0.007937); order does not matter */
  assert_test (low5, 5, high5, 5, PS_MANN_WHITNEY_AUTO, 0, 2.0 / 252.0, PS_MANN_WHITNEY_EXACT);
}

/* {1,3,5} against {2,4,6}: U₁ = 0 + 1 + 2 = 3. The counts of U = 0…9 for
 * samples of 3 and 3 are 1,1,2,3,3,3,3,2,1,1 (of 20): P(U ≤ 3) = 7/20,
 * P(U ≥ 3) = 16/20, p = 2 · 7/20 = 0.7 (R: W = 3, p-value = 0.7).
 * Interleaved evenly, {1,4,5} against {2,3,6}: U₁ = 0+2+2 = 4, P(U ≤ 4) =
 * 10/20, p = 1. */
static void
test_exact_middle (void)
{
  const double odd[] = { 1, 3, 5 };
  const double even[] = { 2, 4, 6 };
  const double a[] = { 1, 4, 5 };
  const double b[] = { 2, 3, 6 };

  assert_test (odd, 3, even, 3, PS_MANN_WHITNEY_AUTO, 3, 0.7, PS_MANN_WHITNEY_EXACT);
  assert_test (a, 3, b, 3, PS_MANN_WHITNEY_AUTO, 4, 1.0, PS_MANN_WHITNEY_EXACT);
}

/* scipy.stats.mannwhitneyu's documented example (males, females):
 * U₁ = 17; method="exact" p = 0.1111111111111111 (= 14/126 of the
 * C(9,4) = 126 arrangements), method="asymptotic" p = 0.11134688653314041:
 * σ = √(5·4·10/12), z = (17 − 10 − ½)/σ = 1.5922. */
static void
test_scipy_example (void)
{
  const double males[] = { 19, 22, 16, 29, 24 };
  const double females[] = { 20, 11, 17, 12 };

  assert_test (males, 5, females, 4, PS_MANN_WHITNEY_AUTO, 17, 1.0 / 9.0, PS_MANN_WHITNEY_EXACT);
  assert_test (males, 5, females, 4, PS_MANN_WHITNEY_NORMAL, 17, 0.11134688653314041, PS_MANN_WHITNEY_NORMAL);
  /* U₂ = n₁n₂ − U₁, same p */
  assert_test (females, 4, males, 5, PS_MANN_WHITNEY_AUTO, 3, 1.0 / 9.0, PS_MANN_WHITNEY_EXACT);
}

/* Ties: {1,2,2,3} against {2,3,4,5}. Pooled ranks: 1 → 1; the three 2s
 * share (2+3+4)/3 = 3; the two 3s share 5.5; 4 → 7; 5 → 8. R₁ = 1 + 3 + 3
 * + 5.5 = 12.5, U₁ = 12.5 − 10 = 2.5. Ties present: the normal
 * approximation, Σ(t³−t) = 24 + 6 = 30, σ² = 16/12 · (9 − 30/56),
 * z = (2.5 − 8 + ½)/σ = −1.48835, p = 0.136658 (R: W = 2.5,
 * p-value = 0.1367, "cannot compute exact p-value with ties"). */
static void
test_ties (void)
{
  const double a[] = { 1, 2, 2, 3 };
  const double b[] = { 2, 3, 4, 5 };
  PsMannWhitneyResult result;

  assert_test (a, 4, b, 4, PS_MANN_WHITNEY_AUTO, 2.5, 0.13665824773814753, PS_MANN_WHITNEY_NORMAL);
  ps_mann_whitney_test (a, 4, b, 4, PS_MANN_WHITNEY_AUTO, &result);
  g_assert_true (result.has_ties);
  g_assert_cmpfloat_with_epsilon (result.z, -1.4883513944689681, 1e-12);
}

/* Every value the same: U = n₁n₂/2, σ = 0, no evidence of a difference */
static void
test_all_equal (void)
{
  const double a[] = { 7, 7, 7 };
  const double b[] = { 7, 7 };

  assert_test (a, 3, b, 2, PS_MANN_WHITNEY_AUTO, 3, 1.0, PS_MANN_WHITNEY_NORMAL);
}

/* 25 against 25 (beyond the exact limit): σ = √(625 · 51/12) = 51.539.
 * Odds 1…49 against evens 2…50: U₁ = Σ (k−1) = 300, z = (300 − 312.5 + ½)/σ
 * = −0.232834, p = 0.815890. 1…25 against 26…50: U₁ = 0,
 * z = −312/σ = −6.05369, p = 1.41566e−9. */
static void
test_large (void)
{
  double odds[25], evens[25], low[25], high[25];

  for (guint k = 0; k < 25; k++)
    {
      odds[k] = 2 * k + 1;
      evens[k] = 2 * k + 2;
      low[k] = k + 1;
      high[k] = k + 26;
    }

  assert_test (odds, 25, evens, 25, PS_MANN_WHITNEY_AUTO, 300, 0.8158901548607471, PS_MANN_WHITNEY_NORMAL);
  assert_test (low, 25, high, 25, PS_MANN_WHITNEY_AUTO, 0, 1.4156562248495634e-09, PS_MANN_WHITNEY_NORMAL);
}

/* At the limit of PS_MANN_WHITNEY_EXACT_MAX the exact p is used:
 * separated samples of 20 have p = 2 / C(40,20) */
static void
test_exact_limit (void)
{
  double low[21], high[21];
  PsMannWhitneyResult result;

  for (guint k = 0; k < 21; k++)
    {
      low[k] = k;
      high[k] = 100 + k;
    }

  assert_test (low, 20, high, 20, PS_MANN_WHITNEY_AUTO, 0, 2.0 / 137846528820.0, PS_MANN_WHITNEY_EXACT);
  ps_mann_whitney_test (low, 21, high, 21, PS_MANN_WHITNEY_AUTO, &result);
  g_assert_cmpint (result.method, ==, PS_MANN_WHITNEY_NORMAL);
  g_assert_cmpfloat (result.u, ==, 0);
}

/* Fewer than 2 values on a side, or a NaN: no test */
static void
test_too_few (void)
{
  const double a[] = { 1, 2, 3 };
  const double one[] = { 4 };
  const double with_nan[] = { 4, NAN };
  PsMannWhitneyResult result;

  g_assert_true (isnan (ps_mann_whitney_test (a, 3, one, 1, PS_MANN_WHITNEY_AUTO, &result)));
  g_assert_cmpint (result.method, ==, PS_MANN_WHITNEY_NONE);
  g_assert_true (isnan (result.u));
  g_assert_true (isnan (ps_mann_whitney_test (one, 1, a, 3, PS_MANN_WHITNEY_AUTO, &result)));
  g_assert_true (isnan (ps_mann_whitney_test (a, 3, NULL, 0, PS_MANN_WHITNEY_AUTO, &result)));
  g_assert_true (isnan (ps_mann_whitney_test (a, 3, with_nan, 2, PS_MANN_WHITNEY_AUTO, &result)));
}

/* U against its definition, Σ over pairs of [a > b] + ½ [a = b], on random
 * samples with many ties, negative values and both zeros; and a cancelled
 * test gives no p-value */
static void
test_against_pairs (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (24112026);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  PsMannWhitneyResult result;

  for (guint round = 0; round < 60; round++)
    {
      gsize n_a = 2 + g_rand_int_range (rand, 0, 300);
      gsize n_b = 2 + g_rand_int_range (rand, 0, 300);
      g_autofree double *a = g_new (double, n_a);
      g_autofree double *b = g_new (double, n_b);
      double u = 0;
      gboolean ties = FALSE;

      for (gsize i = 0; i < n_a + n_b; i++)
        {
          double value = round % 3 == 0 ? g_rand_double_range (rand, -1e6, 1e6)
                         : round % 3 == 1 ? (double)g_rand_int_range (rand, -5, 5) * 0.25
                         : (g_rand_boolean (rand) ? -0.0 : 0.0) + (double)g_rand_int_range (rand, 0, 3) * 1e-300;

          if (i < n_a)
            a[i] = value;
          else
            b[i - n_a] = value;
        }
      for (gsize i = 0; i < n_a; i++)
        for (gsize j = 0; j < n_b; j++)
          u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
      for (gsize i = 0; i < n_a + n_b && !ties; i++)
        for (gsize j = i + 1; j < n_a + n_b && !ties; j++)
          ties = (i < n_a ? a[i] : b[i - n_a]) == (j < n_a ? a[j] : b[j - n_a]);

      ps_mann_whitney_test (a, n_a, b, n_b, PS_MANN_WHITNEY_NORMAL, &result);
      g_assert_cmpfloat (result.u, ==, u);
      g_assert_cmpint (result.has_ties, ==, ties);
      g_assert_true (result.p_value >= 0 && result.p_value <= 1);
    }

  {
    const double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7 };

    g_assert_false (isnan (ps_mann_whitney_test_cancellable (a, 4, b, 3, PS_MANN_WHITNEY_AUTO, &result, cancellable)));
    g_cancellable_cancel (cancellable);
    g_assert_true (isnan (ps_mann_whitney_test_cancellable (a, 4, b, 3, PS_MANN_WHITNEY_AUTO, &result, cancellable)));
    g_assert_cmpint (result.method, ==, PS_MANN_WHITNEY_NONE);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mann-whitney/exact/separated", test_exact_separated);
  g_test_add_func ("/mann-whitney/exact/middle", test_exact_middle);
  g_test_add_func ("/mann-whitney/exact/limit", test_exact_limit);
  g_test_add_func ("/mann-whitney/scipy-example", test_scipy_example);
  g_test_add_func ("/mann-whitney/ties", test_ties);
  g_test_add_func ("/mann-whitney/all-equal", test_all_equal);
  g_test_add_func ("/mann-whitney/large", test_large);
  g_test_add_func ("/mann-whitney/too-few", test_too_few);
  g_test_add_func ("/mann-whitney/against-pairs", test_against_pairs);

  return g_test_run ();
}

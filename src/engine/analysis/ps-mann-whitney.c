/* ps-mann-whitney.c — the two-sided Mann–Whitney U test of two samples
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff". See ps-mann-whitney.h for when each p-value is used.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "ps-mann-whitney.h"

typedef struct
{
  double value;
  guint  from_a : 1;
} Pooled;

static int
compare_pooled (const void *a,
                const void *b)
{
  double x = ((const Pooled *)a)->value;
  double y = ((const Pooled *)b)->value;

  return (x > y) - (x < y);
}

/* P(U ≤ u) under the null hypothesis for samples of n_a and n_b values
 * without ties. counts[i][u] is the number of arrangements of i values of
 * A and j of B with U = u; adding the largest value either to A (it beats
 * all j values of B: U grows by j) or to B (U unchanged) gives
 * f(i, j, u) = f(i−1, j, u−j) + f(i, j−1, u). Rows are kept for one j at a
 * time. Doubles hold the counts exactly up to 2⁵³ > C(40, 20). */
static double
exact_cdf (gsize  n_a,
           gsize  n_b,
           double u)
{
  gsize max_u = n_a * n_b;
  /* row[i] is the distribution of U for i values of A and the current j */
  g_autofree double *counts = g_new0 (double, (n_a + 1) * (max_u + 1));
  double total = 0;
  double below = 0;

#define COUNT(i, v) counts[(i) * (max_u + 1) + (v)]

  /* j = 0: one arrangement, U = 0 */
  for (gsize i = 0; i <= n_a; i++)
    COUNT (i, 0) = 1;

  for (gsize j = 1; j <= n_b; j++)
    {
      /* i = 0 stays 1 at U = 0; larger i in increasing order use the new
       * row i−1 (with j values of B) and the old row i (with j−1) */
      for (gsize i = 1; i <= n_a; i++)
        for (gsize v = i * j + 1; v-- > 0;)
          {
            double from_b = COUNT (i, v);                       /* f(i, j−1, v) */
            double from_a = v >= j ? COUNT (i - 1, v - j) : 0;  /* f(i−1, j, v−j) */

            COUNT (i, v) = from_b + from_a;
          }
    }

  for (gsize v = 0; v <= max_u; v++)
    {
      total += COUNT (n_a, v);
      if ((double)v <= u + 1e-9)
        below += COUNT (n_a, v);
    }

#undef COUNT

  return below / total;
}

double
ps_mann_whitney_test (const double        *sample_a,
                      gsize                n_a,
                      const double        *sample_b,
                      gsize                n_b,
                      PsMannWhitneyMethod  method,
                      PsMannWhitneyResult *out)
{
  g_autofree Pooled *pooled = NULL;
  gsize n = n_a + n_b;
  double rank_sum_a = 0;
  double tie_sum = 0;   /* Σ (t³ − t) over groups of t tied values */
  double mean_u, sigma;

  g_return_val_if_fail (out != NULL, NAN);

  out->u = NAN;
  out->z = NAN;
  out->p_value = NAN;
  out->method = PS_MANN_WHITNEY_NONE;
  out->has_ties = FALSE;

  if (n_a < 2 || n_b < 2)
    return NAN;

  pooled = g_new (Pooled, n);
  for (gsize i = 0; i < n_a; i++)
    {
      if (isnan (sample_a[i]))
        return NAN;
      pooled[i].value = sample_a[i];
      pooled[i].from_a = TRUE;
    }
  for (gsize i = 0; i < n_b; i++)
    {
      if (isnan (sample_b[i]))
        return NAN;
      pooled[n_a + i].value = sample_b[i];
      pooled[n_a + i].from_a = FALSE;
    }
  qsort (pooled, n, sizeof *pooled, compare_pooled);

  /* Mid-ranks: a group of tied values at 1-based ranks first … last all
   * get (first + last) / 2 */
  for (gsize first = 0; first < n;)
    {
      gsize end = first + 1;
      double mid_rank;

      while (end < n && pooled[end].value == pooled[first].value)
        end++;
      mid_rank = (double)(first + 1 + end) / 2.0;
      for (gsize k = first; k < end; k++)
        if (pooled[k].from_a)
          rank_sum_a += mid_rank;
      if (end - first > 1)
        {
          double t = (double)(end - first);

          out->has_ties = TRUE;
          tie_sum += t * t * t - t;
        }
      first = end;
    }

  out->u = rank_sum_a - (double)n_a * (double)(n_a + 1) / 2.0;
  mean_u = (double)n_a * (double)n_b / 2.0;

  if (method == PS_MANN_WHITNEY_AUTO)
    method = !out->has_ties && n_a <= PS_MANN_WHITNEY_EXACT_MAX && n_b <= PS_MANN_WHITNEY_EXACT_MAX
             ? PS_MANN_WHITNEY_EXACT : PS_MANN_WHITNEY_NORMAL;

  if (method == PS_MANN_WHITNEY_EXACT)
    {
      /* The distribution is symmetric about its mean: P(U ≥ u) = P(U ≤ n_a n_b − u) */
      double lower = exact_cdf (n_a, n_b, out->u);
      double upper = exact_cdf (n_a, n_b, 2 * mean_u - out->u);

      out->method = PS_MANN_WHITNEY_EXACT;
      out->p_value = MIN (1.0, 2.0 * MIN (lower, upper));
      return out->p_value;
    }

  out->method = PS_MANN_WHITNEY_NORMAL;
  sigma = sqrt ((double)n_a * (double)n_b / 12.0
                * (((double)n + 1) - tie_sum / ((double)n * (double)(n - 1))));
  if (!(sigma > 0))
    {
      /* Every value is the same */
      out->z = 0;
      out->p_value = 1.0;
      return out->p_value;
    }

  {
    double difference = out->u - mean_u;
    double correction = difference > 0 ? 0.5 : difference < 0 ? -0.5 : 0;

    out->z = (difference - correction) / sigma;
  }
  /* Two-sided: 2 (1 − Φ(|z|)) = erfc (|z| / √2) */
  out->p_value = MIN (1.0, erfc (fabs (out->z) / G_SQRT2));
  return out->p_value;
}

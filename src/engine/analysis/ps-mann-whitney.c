/* ps-mann-whitney.c — the two-sided Mann–Whitney U test of two samples
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff". See ps-mann-whitney.h for when each p-value is used.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-mann-whitney.h"
#include "ps-util.h"

/* Doubles as unsigned keys in the same order: the sign bit set for
 * positive values, every bit flipped for negative ones */
#define SIGN_BIT (G_GUINT64_CONSTANT (1) << 63)

static inline guint64
key_of (double value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  return (bits & SIGN_BIT) ? ~bits : bits | SIGN_BIT;
}

static inline double
value_of (guint64 key)
{
  guint64 bits = (key & SIGN_BIT) ? key & ~SIGN_BIT : ~key;
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

#define RADIX_BITS    11
#define RADIX_BUCKETS (1u << RADIX_BITS)
#define RADIX_PASSES  6   /* 6 × 11 ≥ 64 */
#define SMALL_SORT    64

/* Sorts keys (tmp is as long) by least significant digit first, skipping
 * the digits all keys share: a few linear passes, where a sort by
 * comparisons of millions of values takes a second. Looks at cancellable
 * every 65 536 keys of a pass; FALSE when it was cancelled. */
static gboolean
sort_keys (guint64      *keys,
           guint64      *tmp,
           gsize         n,
           GCancellable *cancellable)
{
  g_autofree gsize *counts = NULL;
  guint64 *from = keys, *to = tmp;

  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  /* A few keys: not worth the counts of six passes */
  if (n <= SMALL_SORT)
    {
      for (gsize i = 1; i < n; i++)
        {
          guint64 key = keys[i];
          gsize j = i;

          for (; j > 0 && keys[j - 1] > key; j--)
            keys[j] = keys[j - 1];
          keys[j] = key;
        }
      return TRUE;
    }

  counts = g_new0 (gsize, (gsize)RADIX_PASSES * RADIX_BUCKETS);

  for (gsize i = 0; i < n; i++)
    {
      if (ps_util_stop_at (i, cancellable))
        return FALSE;
      for (guint pass = 0; pass < RADIX_PASSES; pass++)
        counts[pass * RADIX_BUCKETS + ((keys[i] >> (pass * RADIX_BITS)) & (RADIX_BUCKETS - 1))]++;
    }

  for (guint pass = 0; pass < RADIX_PASSES; pass++)
    {
      gsize *count = counts + pass * RADIX_BUCKETS;
      guint shift = pass * RADIX_BITS;
      gsize position = 0;
      gboolean one_bucket = FALSE;

      for (guint b = 0; b < RADIX_BUCKETS; b++)
        {
          gsize c = count[b];

          one_bucket |= c == n;
          count[b] = position;
          position += c;
        }
      if (one_bucket)
        continue;
      for (gsize i = 0; i < n; i++)
        {
          if (ps_util_stop_at (i, cancellable))
            return FALSE;
          to[count[(from[i] >> shift) & (RADIX_BUCKETS - 1)]++] = from[i];
        }
      {
        guint64 *swap = from;

        from = to;
        to = swap;
      }
    }
  if (from != keys)
    memcpy (keys, from, n * sizeof *keys);
  return TRUE;
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
  return ps_mann_whitney_test_cancellable (sample_a, n_a, sample_b, n_b, method, out, NULL);
}

double
ps_mann_whitney_test_cancellable (const double        *sample_a,
                                  gsize                n_a,
                                  const double        *sample_b,
                                  gsize                n_b,
                                  PsMannWhitneyMethod  method,
                                  PsMannWhitneyResult *out,
                                  GCancellable        *cancellable)
{
  g_autofree guint64 *keys = NULL;
  g_autofree guint64 *tmp = NULL;
  const guint64 *a, *b;
  gsize n = n_a + n_b;
  gsize i = 0, j = 0, ranked = 0, groups = 0;
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

  /* Each sample sorted on its own, as keys */
  keys = g_new (guint64, n);
  for (gsize k = 0; k < n_a; k++)
    {
      if (isnan (sample_a[k]))
        return NAN;
      keys[k] = key_of (sample_a[k]);
    }
  for (gsize k = 0; k < n_b; k++)
    {
      if (isnan (sample_b[k]))
        return NAN;
      keys[n_a + k] = key_of (sample_b[k]);
    }
  tmp = g_new (guint64, MAX (n_a, n_b));
  if (!sort_keys (keys, tmp, n_a, cancellable) || !sort_keys (keys + n_a, tmp, n_b, cancellable))
    return NAN;
  a = keys;
  b = keys + n_a;

  /* Mid-ranks, walking both in order: a group of tied values at 1-based
   * ranks first … last all get (first + last) / 2 */
  while (i < n_a || j < n_b)
    {
      double value = value_of (j >= n_b || (i < n_a && a[i] < b[j]) ? a[i] : b[j]);
      gsize in_a = 0, in_b = 0, tied;
      double mid_rank;

      if (ps_util_stop_at (++groups, cancellable))
        return NAN;

      while (i < n_a && value_of (a[i]) == value)
        i++, in_a++;
      while (j < n_b && value_of (b[j]) == value)
        j++, in_b++;
      tied = in_a + in_b;
      mid_rank = (double)(ranked + 1 + ranked + tied) / 2.0;
      for (gsize k = 0; k < in_a; k++)
        rank_sum_a += mid_rank;
      if (tied > 1)
        {
          double t = (double)tied;

          out->has_ties = TRUE;
          tie_sum += t * t * t - t;
        }
      ranked += tied;
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

/* ps-mann-whitney.h — the two-sided Mann–Whitney U test of two samples
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff" (p_value). U is the statistic of the first sample,
 * U₁ = R₁ − n₁(n₁+1)/2 with R₁ the sum of its ranks in the pooled sample,
 * tied values sharing their mid-rank (R's wilcox.test calls it W, scipy's
 * mannwhitneyu returns it as `statistic`).
 *
 * Which p-value (PS_MANN_WHITNEY_AUTO):
 *  - exact, when there are no ties and both samples have at most
 *    PS_MANN_WHITNEY_EXACT_MAX values: the null distribution of U counted
 *    by dynamic programming over all C(n₁+n₂, n₁) rank arrangements;
 *    p = min (1, 2 · min (P(U ≤ u), P(U ≥ u)));
 *  - otherwise the normal approximation with the tie correction of the
 *    variance, σ² = n₁n₂/12 · ((n+1) − Σ(t³−t)/(n(n−1))), and a continuity
 *    correction of ½ towards the mean (R's `correct = TRUE`, scipy's
 *    `use_continuity=True`).
 * When every value of both samples is the same there is no evidence of a
 * difference: p = 1 (σ = 0; as scipy). With fewer than 2 values on either
 * side, or a NaN among the values, U and p are NaN.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The largest sample size of the exact p-value under PS_MANN_WHITNEY_AUTO */
#define PS_MANN_WHITNEY_EXACT_MAX 20

typedef enum
{
  PS_MANN_WHITNEY_AUTO,    /* as described above */
  PS_MANN_WHITNEY_EXACT,   /* exact even with ties (then with the mid-rank U
                            * against the tie-free distribution, as R warns
                            * it does not) — for tests and small samples */
  PS_MANN_WHITNEY_NORMAL,  /* the normal approximation */
  PS_MANN_WHITNEY_NONE,    /* result: no test (fewer than 2 values a side) */
} PsMannWhitneyMethod;

typedef struct
{
  double              u;        /* U₁, of the first sample; NaN without a test */
  double              z;        /* normal approximation: the corrected z
                                 * (NaN for the exact method) */
  double              p_value;  /* two-sided; NaN without a test */
  PsMannWhitneyMethod method;   /* EXACT, NORMAL or NONE */
  gboolean            has_ties; /* some value occurs more than once */
} PsMannWhitneyResult;

/* Neither sample is modified. Returns out->p_value. */
double ps_mann_whitney_test (const double        *sample_a,
                             gsize                n_a,
                             const double        *sample_b,
                             gsize                n_b,
                             PsMannWhitneyMethod  method,
                             PsMannWhitneyResult *out);
/* The same; when cancellable (may be NULL) is cancelled, it stops within a
 * pass over the samples and returns NaN, with out->method
 * PS_MANN_WHITNEY_NONE. */
double ps_mann_whitney_test_cancellable (const double        *sample_a,
                                         gsize                n_a,
                                         const double        *sample_b,
                                         gsize                n_b,
                                         PsMannWhitneyMethod  method,
                                         PsMannWhitneyResult *out,
                                         GCancellable        *cancellable);

G_END_DECLS

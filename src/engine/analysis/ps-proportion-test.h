/* ps-proportion-test.h — the two-sided test of two proportions
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff" (p_value of sampled functions). A sampled profile
 * gives each function a count of samples out of the run's samples; two
 * runs rarely have the same number of samples, so their functions compare
 * as shares. The z-test with the pooled proportion
 *
 *   p̂ = (x₁ + x₂) / (n₁ + n₂),  z = (x₂/n₂ − x₁/n₁) / √(p̂(1 − p̂)(1/n₁ + 1/n₂))
 *
 * and the two-sided p = erfc (|z| / √2) is R's prop.test (x, n,
 * correct = FALSE) and statsmodels' proportions_ztest.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double z;        /* B's share above A's in standard errors; NaN without a test */
  double p_value;  /* two-sided; NaN without a test */
} PsProportionTestResult;

/* x_a of n_a against x_b of n_b. With no samples on a side (n ≤ 0), a
 * count that is negative or above its n, or a value that is not finite,
 * there is no test: z and p are NaN. When both shares are 0 or both 1
 * (p̂ is 0 or 1) nothing varies and nothing differs: z = 0, p = 1.
 * out may be NULL. Returns the p-value. */
double ps_proportion_test (double                  x_a,
                           double                  n_a,
                           double                  x_b,
                           double                  n_b,
                           PsProportionTestResult *out);

G_END_DECLS

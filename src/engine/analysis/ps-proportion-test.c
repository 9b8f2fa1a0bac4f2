/* ps-proportion-test.c — the two-sided test of two proportions
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff". The formula is in ps-proportion-test.h.
 */
#include "config.h"

#include <math.h>

#include "ps-proportion-test.h"

static gboolean
is_count_of (double x,
             double n)
{
  return isfinite (x) && isfinite (n) && n > 0 && x >= 0 && x <= n;
}

double
ps_proportion_test (double                  x_a,
                    double                  n_a,
                    double                  x_b,
                    double                  n_b,
                    PsProportionTestResult *out)
{
  PsProportionTestResult result = { NAN, NAN };

  if (is_count_of (x_a, n_a) && is_count_of (x_b, n_b))
    {
      double pooled = (x_a + x_b) / (n_a + n_b);
      double variance = pooled * (1.0 - pooled) * (1.0 / n_a + 1.0 / n_b);

      if (variance <= 0)
        {
          result.z = 0;
          result.p_value = 1;
        }
      else
        {
          result.z = (x_b / n_b - x_a / n_a) / sqrt (variance);
          result.p_value = MIN (1.0, erfc (fabs (result.z) / G_SQRT2));
        }
    }

  if (out != NULL)
    *out = result;
  return result.p_value;
}

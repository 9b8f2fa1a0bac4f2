/* seeded-noise.h — normal noise from a seeded generator, for tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The same seed gives the same values on every machine (GRand is a
 * Mersenne Twister), so a test of noisy series always sees one series.
 */
#pragma once

#include <math.h>
#include <glib.h>

/* Box–Muller */
static inline double
seeded_noise_normal (GRand  *rand,
                     double  mean,
                     double  deviation)
{
  double u = g_rand_double_range (rand, 1e-12, 1.0);
  double v = g_rand_double (rand);

  return mean + deviation * sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

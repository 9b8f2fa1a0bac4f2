/* ps-change-points.h — persistent shifts in a series of values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". E-divisive means (Matteson and James, "A
 * Nonparametric Approach for Multiple Change Point Analysis of
 * Multivariate Data", JASA 2014) with the deterministic significance test
 * of Hunter (Fleming et al., "Hunter: Using Change Point Detection to Hunt
 * for Performance Regressions", ICPE 2023; now Apache Otava):
 *
 *  1. Weak change points. The series is cut into windows of `window`
 *     values that overlap by half. In each window, E-divisive splits
 *     recursively: of the stretches between the splits found so far, the
 *     split (τ, κ) that maximises the energy statistic
 *       Q̂ = m·k/(m+k) · (2/(m·k) Σ|x−y| − C(m,2)⁻¹ Σ|x−x'| − C(k,2)⁻¹ Σ|y−y'|)
 *     of X = [s, τ) and Y = [τ, κ) (m, k ≥ 2 values, α = 1) is taken
 *     when the test of [s, τ) against the rest of its stretch [τ, e)
 *     gives p ≤ 10 × max_p_value; the first split that does not ends the
 *     window. No random permutation: the same series always gives the
 *     same change points.
 *  2. Change points. Over the whole series, each weak change point is
 *     tested again against its neighbours: the values since the previous
 *     change point against those up to the next, and the relative change
 *     of their means. The weakest that fails (p > max_p_value, or |change|
 *     < min_magnitude) is removed and its neighbours are tested again,
 *     until every one passes.
 *
 * The test is Student's two-sample t-test (pooled variance), as Hunter's,
 * with its p-value multiplied by the number of places the split could
 * have taken in the stretch tested (Bonferroni; at most 1). The split is
 * the place where the two sides differ most, and the plain p-value of
 * that place is far too small: with it, one series of 1000 values of pure
 * noise in five has a change below p = 0.001; with the correction, fewer
 * than one in a hundred below p = 0.01, whatever the length.
 *
 * Windows keep the cost linear in the length of the series (each window
 * costs O(window²)) and find changes close to each other that a split of
 * the whole series would pass over. Values that are not finite (a run
 * without this row) are left out; indexes still refer to the caller's
 * array.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The largest window: its table of pairwise distances has window² doubles */
#define PS_CHANGE_POINTS_MAX_WINDOW 1024

typedef struct
{
  double max_p_value;    /* significance: the largest p-value of a change point (0.01) */
  double min_magnitude;  /* the least |relative change| of the means (0: any) */
  guint  window;         /* values per window, 4 to PS_CHANGE_POINTS_MAX_WINDOW (50) */
} PsChangePointOptions;

typedef struct
{
  gsize  index;            /* the first value after the change (caller's index) */
  gsize  before_start;     /* the values compared: [before_start, index) … */
  gsize  after_end;        /* … against [index, after_end), caller's indexes */
  gsize  n_before;         /* finite values in each */
  gsize  n_after;
  double mean_before;
  double mean_after;
  double median_before;    /* nearest rank */
  double median_after;
  double relative_change;  /* (mean_after − mean_before) / |mean_before|; ±∞ from 0 */
  double p_value;          /* of the t-test of the two, corrected as above */
} PsChangePoint;

void    ps_change_point_options_init (PsChangePointOptions       *options);
/* The change points of values[0 … n_values), in order of index: a GArray
 * of PsChangePoint, empty when there is none. options may be NULL (the
 * defaults). */
GArray *ps_change_points_find        (const double               *values,
                                      gsize                       n_values,
                                      const PsChangePointOptions *options);
/* (b − a) / |a|, which is ratio − 1 for positive values; 0 from 0 to 0,
 * ±∞ from 0 to anything else (the relative change of a change point and
 * of a row of ps-run-diff.h) */
double  ps_change_points_relative_change (double                  a,
                                          double                  b);
/* The two-sided p-value of Student's t-test (pooled variance) of two
 * samples given by their sizes, means and sample variances: 1 when it
 * cannot tell (fewer than 3 values in all, or none on a side), 0 when
 * neither varies and the means differ. */
double  ps_change_points_t_test      (gsize                       n_a,
                                      double                      mean_a,
                                      double                      variance_a,
                                      gsize                       n_b,
                                      double                      mean_b,
                                      double                      variance_b);

G_END_DECLS

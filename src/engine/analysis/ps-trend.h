/* ps-trend.h — many runs in order, and where each row changed
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend". The runs (ps-run-summary.h) are put in order —
 * by the time they began, by the version and build they measured, or by
 * file name — and their rows are matched by kind, unit, context and name.
 * Each row's value per run (median, p95 or total) is a series in which
 * ps_change_points_find () looks for persistent shifts.
 */
#pragma once

#include "ps-change-points.h"
#include "ps-run-summary.h"

G_BEGIN_DECLS

typedef enum
{
  PS_TREND_BY_TIME,     /* runs with a time by it, then the others by name */
  PS_TREND_BY_VERSION,  /* by version, then build (numbers in them as numbers),
                         * then time; runs without either last, by name */
  PS_TREND_BY_NAME,     /* by file name, numbers in it as numbers, then session */
} PsTrendOrder;

typedef enum
{
  PS_TREND_VALUE_MEDIAN,  /* rows without one (functions, pooled series): total */
  PS_TREND_VALUE_P95,     /* the same */
  PS_TREND_VALUE_TOTAL,
} PsTrendValue;

typedef struct
{
  PsTrendOrder         order;
  PsTrendValue         value;
  PsChangePointOptions detection;
} PsTrendOptions;

typedef struct
{
  const char *kind;             /* as the runs' rows */
  char       *name;
  char       *context;
  const char *unit;             /* interned */
  gboolean    lower_is_better;
  guint       n_values;         /* the runs with a value of this row */
  guint      *runs;             /* n_values: index of each run in the trend */
  double     *values;           /* n_values: its value there */
  /* PsChangePoint, in order, with index, before_start and after_end as
   * indexes of runs in the trend (after_end may be the number of runs) */
  GArray     *change_points;
  double      largest_change;   /* the largest |relative_change|, 0 without any */
} PsTrendRow;

typedef struct
{
  GPtrArray *runs;   /* PsRunSummary*, in order */
  /* PsTrendRow*: those with change points by their largest change, largest
   * first, then the others in order of first appearance */
  GPtrArray *rows;
} PsTrend;

void         ps_trend_options_init   (PsTrendOptions       *options);
/* Takes runs (PsRunSummary*, whose free function must stay) */
PsTrend     *ps_trend_new            (GPtrArray            *runs,
                                      const PsTrendOptions *options);
void         ps_trend_free           (PsTrend              *trend);
/* The run's value for the trend: see PsTrendValue */
double       ps_trend_row_value      (const PsRunSummaryRow *row,
                                      PsTrendValue          value);
/* The PsRunSummaryValue flags of what ps_trend_row_value () reads */
guint        ps_trend_value_flags    (PsTrendValue          value);
/* The row's last change point when the newest run is after it, the row
 * is better lower and it rose by at least min_change (a fraction); else
 * NULL */
const PsChangePoint *ps_trend_row_get_newest_regression (const PsTrend    *trend,
                                                         const PsTrendRow *row,
                                                         double            min_change);
/* How many rows have change points: the first ones of trend->rows */
guint        ps_trend_count_changed  (const PsTrend        *trend);
/* The run just before the change point that has a value of the row (an
 * index of trend->runs): the run a comparison across the change takes as
 * A, the change point's own run (point->index) being B */
guint        ps_trend_row_get_run_before (const PsTrendRow    *row,
                                          const PsChangePoint *point);
gboolean     ps_trend_order_from_string (const char        *text,
                                         PsTrendOrder      *out);
gboolean     ps_trend_value_from_string (const char        *text,
                                         PsTrendValue      *out);
const char  *ps_trend_order_to_string    (PsTrendOrder      order);  /* "time", "version", "name" */
const char  *ps_trend_value_to_string    (PsTrendValue      value);  /* "median", "p95", "total" */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsTrend, ps_trend_free)

G_END_DECLS

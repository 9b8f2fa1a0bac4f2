/* ps-run-diff.h — the comparison of two runs, row by row
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff"; issue 8 ("Diff table").
 *
 * Rows are matched by name, in one of these ways (PsRunDiffMatch):
 *  - SERIES: when both runs have measured series (CE PerfLog markers) or
 *    span series (RTL scopes) with values: the series of
 *    ps_series_collect () with group_by_name (the names perfscope-cli
 *    stats prints), matched by (kind, unit, name, context). Series of one
 *    name in several sessions or applications are pooled into one row
 *    when they share a unit. A series without a value (spans that never
 *    ended, such as the lifetimes of processes in an hwpmc log) makes no
 *    row.
 *  - FUNCTIONS: when both runs are profiles (samples or profiler report
 *    rows), and otherwise when the runs do not both have series and both
 *    have a call tree (ps_call_tree_diff_tree_for_store (): the addresses
 *    of a module without symbols grouped into one function, as the run
 *    page shows them): one row per function name, pooled over modules.
 *    Timed trees (ns, ticks, ms): the calls as count, the elapsed
 *    inclusive time per call as mean and the elapsed inclusive total as
 *    total, in the tree's unit. Sampled trees have no calls: the count is
 *    the samples with the function on their stack, and mean and total are
 *    that count as a share of the run's samples (unit "percent"). When
 *    the two trees have different units (ns and samples, …) the totals
 *    are compared as percentages of each tree's elapsed total (unit
 *    "percent") and the means of timed trees are left out (NaN). Trees
 *    hold no per-call values, so function rows have no median or p95.
 *  - COUNTERS: in addition, when both runs have counter tracks: one row
 *    per counter path and unit (the path the log wrote, else
 *    "\\machine\object(instance)\counter"), over the readings the store
 *    kept that have a value.
 * When the runs share none of these, every series, function or counter of
 * either run is a row present on its side only (match NONE).
 *
 * A side may be one session of its run (session_a, session_b: the
 * sessions of an appended CE log, each a run of its own): its series and
 * counters are those of that session only, so that the verdicts rest on
 * that session's values. Call trees are of whole runs: a side of one
 * session has no functions to compare. Values of
 * different units are never pooled, matched or compared.
 *
 * Every row present on both sides gets a verdict, with what it rests on
 * (basis) and why (reason):
 *  - TEST: both sides have at least 2 values (series, counters): the
 *    Mann–Whitney p-value of the two samples (ps-mann-whitney.h);
 *  - PROPORTION: functions of sampled trees on both sides: the
 *    two-proportion z-test of the function's samples as a share of each
 *    run's samples (ps-proportion-test.h); the ratio is that of the shares;
 *  - SIZE: one value per run (functions of a timed tree or of trees in
 *    different units, a series with one value on a side): no test. The
 *    compared value is a function's total (what a run spent in it: a
 *    per-call mean may fall while the total grows) and a series' or a
 *    counter's mean (the value itself when it has one). A change is at
 *    least min_change of A's value and at least the noise floor:
 *    noise_fraction of the largest compared value of the row's kind and
 *    unit in either run.
 * TEST and PROPORTION rows change when p < alpha and the relative change
 * is at least threshold. For times, CPU, memory and functions lower is
 * better (REGRESSION when B's value is higher, IMPROVEMENT when lower);
 * counters only CHANGED.
 */
#pragma once

#include "ps-call-tree.h"
#include "ps-event-store.h"
#include "ps-stats.h"

G_BEGIN_DECLS

typedef enum
{
  PS_RUN_DIFF_MATCH_NONE      = 0,
  PS_RUN_DIFF_MATCH_SERIES    = 1 << 0,
  PS_RUN_DIFF_MATCH_FUNCTIONS = 1 << 1,
  PS_RUN_DIFF_MATCH_COUNTERS  = 1 << 2,
} PsRunDiffMatch;

typedef enum
{
  PS_RUN_DIFF_UNCHANGED,     /* no change the basis can tell, or on one side only */
  PS_RUN_DIFF_REGRESSION,    /* worse in B: significantly (TEST, PROPORTION) or
                              * by a large change (SIZE) */
  PS_RUN_DIFF_IMPROVEMENT,   /* better in B, in the same way */
  PS_RUN_DIFF_CHANGED,       /* changed, no better or worse (counters) */
} PsRunDiffChange;

/* What a row's verdict rests on */
typedef enum
{
  PS_RUN_DIFF_BASIS_NONE,        /* on one side only: no verdict */
  PS_RUN_DIFF_BASIS_TEST,        /* Mann–Whitney U test of the values of both runs */
  PS_RUN_DIFF_BASIS_PROPORTION,  /* sampled profiles: two-proportion z-test of
                                  * the function's share of each run's samples */
  PS_RUN_DIFF_BASIS_SIZE,        /* one value per run: no test; the size of the
                                  * change against min_change and the noise floor */
} PsRunDiffBasis;

/* Why a row has its verdict */
typedef enum
{
  PS_RUN_DIFF_REASON_ONE_SIDE,        /* present in one run only */
  PS_RUN_DIFF_REASON_SIGNIFICANT,     /* TEST/PROPORTION: p < alpha and the change ≥ threshold */
  PS_RUN_DIFF_REASON_NOT_SIGNIFICANT, /* TEST/PROPORTION: p ≥ alpha */
  PS_RUN_DIFF_REASON_SMALL,           /* the relative change is under the threshold (TEST,
                                       * PROPORTION) or under min_change (SIZE) */
  PS_RUN_DIFF_REASON_LARGE,           /* SIZE: the change is ≥ min_change and ≥ the noise floor */
  PS_RUN_DIFF_REASON_NOISE,           /* SIZE: the change is under the noise floor */
  PS_RUN_DIFF_REASON_NO_VALUE,        /* both runs have the row but not a value to
                                       * compare on both sides (a counter without
                                       * readings, a NaN) */
} PsRunDiffReason;

typedef struct
{
  char           *name;        /* B's name when renamed (else the common name) */
  char           *a_name;      /* A's name when the rename map changed it, else NULL */
  char           *context;     /* spans: the context of a logical scope, else NULL */
  const char     *kind;        /* "duration", "cpu", "memory", "span", "counter", "function" */
  const char     *unit;        /* "s", "ticks", "percent", "bytes", "ns", "ms", a counter's unit, "";
                                * the same on both sides */
  gboolean        lower_is_better;
  gboolean        has_a;       /* present in A */
  gboolean        has_b;
  PsStats         a;           /* all 0 when absent; NaN where not known (functions);
                                * sampled functions: count = samples, mean = sum = share */
  PsStats         b;
  double          delta_mean;  /* b.mean − a.mean; NaN unless on both sides */
  double          ratio_mean;  /* b.mean / a.mean; NaN unless both sides, a.mean ≠ 0 */
  double          delta_total; /* b.sum − a.sum; NaN unless on both sides */
  double          ratio_total; /* b.sum / a.sum; NaN unless both sides, a.sum ≠ 0 */
  double          p_value;     /* NaN unless basis is TEST or PROPORTION */
  double          noise_floor; /* SIZE: the least |change| in the row's unit that is
                                * not noise (noise_fraction of the largest compared
                                * value of its kind and unit); else NaN */
  PsRunDiffBasis  basis;
  PsRunDiffReason reason;
  PsRunDiffChange change;
} PsRunDiffRow;

typedef struct
{
  double      alpha;       /* significance level; default 0.05 */
  double      threshold;   /* TEST/PROPORTION: least |ratio − 1| of a change; default 0.05 */
  double      min_change;  /* SIZE: least |ratio − 1| of a change; default 0.10 */
  /* SIZE: a change smaller than this share of the largest compared value
   * of the row's kind and unit in either run is noise; default 0.01 */
  double      noise_fraction;
  /* A name → B name (char * → char *), or NULL: A's rows take B's names
   * before matching. Not owned. */
  GHashTable *renames;
  double      tick_rate_override; /* > 0: instead of both logs' RESOLUTION */
  /* ≥ 0: only that session (0-based) of run A, of run B; −1, as
   * ps_run_diff_options_init () sets them: the whole run. A session the
   * run does not have has no rows. */
  gint64      session_a;
  gint64      session_b;
  /* May be NULL; once it is cancelled, ps_run_diff_new () stops soon and
   * returns NULL */
  GCancellable *cancellable;
} PsRunDiffOptions;

typedef struct
{
  PsRunDiffMatch matched;  /* how rows were matched */
  GPtrArray     *rows;     /* PsRunDiffRow*: A's rows in A's order, then
                            * those of B only, in B's order */
} PsRunDiff;

void             ps_run_diff_options_init (PsRunDiffOptions       *options);
/* options may be NULL (the defaults). NULL only when options->cancellable
 * was cancelled. */
PsRunDiff       *ps_run_diff_new          (PsEventStore           *store_a,
                                           PsEventStore           *store_b,
                                           const PsRunDiffOptions *options);
void             ps_run_diff_free         (PsRunDiff              *diff);
/* Whether the row's verdict compares totals (delta_total, ratio_total):
 * SIZE rows of functions. Otherwise it compares means (delta_mean,
 * ratio_mean; the shares of sampled functions, whose mean is their
 * total). */
gboolean         ps_run_diff_row_compares_totals (const PsRunDiffRow *row);
/* The ratio the verdict rests on: ratio_total or ratio_mean, as above */
double           ps_run_diff_row_get_compared_ratio (const PsRunDiffRow *row);
/* The first row with that name (B's name for renamed rows) and kind (NULL:
 * any), or NULL */
const PsRunDiffRow *ps_run_diff_find_row  (const PsRunDiff        *diff,
                                           const char             *name,
                                           const char             *kind);
const char      *ps_run_diff_change_to_string (PsRunDiffChange     change); /* "unchanged", "regression", … */
const char      *ps_run_diff_basis_to_string  (PsRunDiffBasis      basis);  /* "none", "mann-whitney", "two-proportion", "size" */
const char      *ps_run_diff_reason_to_string (PsRunDiffReason     reason); /* "one-side", "significant", … */
/* Comma-separated names of the matching ways: "series", "functions",
 * "counters", or "none"; g_free () */
char            *ps_run_diff_match_to_string  (PsRunDiffMatch      matched);
/* The name of a counter track's row: the path the log wrote, else
 * "\\machine\object(instance)\counter"; g_free () */
char            *ps_run_diff_dup_counter_path (PsEventStore       *store,
                                               const PsTrack      *track);

/* The functions of a call tree one by one, as the rows of a diff and of a
 * summary (ps-run-summary.h) take them to pool them by name over modules:
 *
 *   ps_run_diff_function_iter_init (&functions, tree);
 *   while (ps_run_diff_function_iter_next (&functions))
 *     add (functions.name, functions.calls, functions.inclusive);
 */
typedef struct
{
  PsCallTree *tree;
  guint32     n_functions;
  guint32     next;
  gboolean    sampled;        /* a tree of samples: no calls, inclusive counts samples */
  double      elapsed_total;  /* of the whole tree */
  /* The function the last call of next () went to */
  const char *name;
  guint64     calls;
  double      inclusive;      /* its elapsed inclusive total, NaN where unknown */
} PsRunDiffFunctionIter;

void             ps_run_diff_function_iter_init (PsRunDiffFunctionIter *iter,
                                                 PsCallTree            *tree);
/* FALSE past the last function */
gboolean         ps_run_diff_function_iter_next (PsRunDiffFunctionIter *iter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsRunDiff, ps_run_diff_free)

G_END_DECLS

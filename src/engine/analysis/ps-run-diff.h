/* ps-run-diff.h — the comparison of two runs, row by row
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff"; issue 8 ("Diff table").
 *
 * Rows are matched by name, in one of these ways (PsRunDiffMatch):
 *  - SERIES: when both runs have measured series (CE PerfLog markers) or
 *    span series (RTL scopes): the series of ps_series_collect () with
 *    group_by_name (the names perfscope-cli stats prints), matched by
 *    (kind, name, context). Series of one name in several sessions or
 *    applications are pooled into one row.
 *  - FUNCTIONS: otherwise, when both runs have a call tree
 *    (ps_call_tree_new_for_store ()): one row per function name, with the
 *    calls as count, the elapsed inclusive time per call as mean (NaN for
 *    sampled trees, which have no calls) and the elapsed inclusive total as
 *    total. When the two trees have different units (ns and samples, …)
 *    the totals are compared as percentages of each tree's elapsed total
 *    (unit "percent") and the means are left out (NaN). Trees hold no
 *    per-call values, so function rows have no median, p95 or p-value.
 *  - COUNTERS: in addition, when both runs have counter tracks: one row
 *    per counter path (the path the log wrote, else
 *    "\\machine\object(instance)\counter"), over the readings the store
 *    kept that have a value.
 * When the runs share none of these, every series, function or counter of
 * either run is a row present on its side only (match NONE).
 *
 * A row present on both sides gets the Mann–Whitney p-value of the two
 * samples (ps-mann-whitney.h) and, when p < alpha and
 * |ratio_mean − 1| ≥ threshold, a change: for times, CPU and memory lower
 * is better (REGRESSION when B's mean is higher, IMPROVEMENT when lower);
 * counters only CHANGED.
 */
#pragma once

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
  PS_RUN_DIFF_UNCHANGED,     /* not significant, or on one side only */
  PS_RUN_DIFF_REGRESSION,    /* significantly worse in B */
  PS_RUN_DIFF_IMPROVEMENT,   /* significantly better in B */
  PS_RUN_DIFF_CHANGED,       /* significant, no better or worse (counters) */
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
  PS_RUN_DIFF_REASON_LARGE,           /* SIZE: the change is ≥ min_change and above the noise floor */
  PS_RUN_DIFF_REASON_NOISE,           /* SIZE: the change is under the noise floor */
  PS_RUN_DIFF_REASON_NO_VALUE,        /* both runs have the row but no comparable value
                                       * (a mean of 0, NaN) */
} PsRunDiffReason;

typedef struct
{
  char           *name;        /* B's name when renamed (else the common name) */
  char           *a_name;      /* A's name when the rename map changed it, else NULL */
  char           *context;     /* spans: the context of a logical scope, else NULL */
  const char     *kind;        /* "duration", "cpu", "memory", "span", "counter", "function" */
  const char     *unit;        /* "s", "ticks", "percent", "bytes", "ns", "samples", a counter's unit, "" */
  gboolean        lower_is_better;
  gboolean        has_a;       /* present in A */
  gboolean        has_b;
  PsStats         a;           /* all 0 when absent; NaN where not known (functions) */
  PsStats         b;
  double          delta_mean;  /* b.mean − a.mean; NaN unless on both sides */
  double          ratio_mean;  /* b.mean / a.mean; NaN unless both sides, a.mean ≠ 0 */
  double          delta_total; /* b.sum − a.sum; NaN unless on both sides */
  double          ratio_total; /* b.sum / a.sum; NaN unless both sides, a.sum ≠ 0 */
  double          p_value;     /* NaN unless basis is TEST or PROPORTION */
  double          noise_floor; /* SIZE: the least |change| in the row's unit that is
                                * not noise (see PsRunDiff); else NaN */
  PsRunDiffBasis  basis;
  PsRunDiffReason reason;
  PsRunDiffChange change;
} PsRunDiffRow;

typedef struct
{
  double      alpha;       /* significance level; default 0.05 */
  double      threshold;   /* TEST/PROPORTION: least |ratio − 1| of a change; default 0.05 */
  double      min_change;  /* SIZE: least |ratio − 1| of a change; default 0.10 */
  /* SIZE: a change smaller than this share of the largest value of the
   * row's kind and unit in either run is noise; default 0.01 */
  double      noise_fraction;
  /* A name → B name (char * → char *), or NULL: A's rows take B's names
   * before matching. Not owned. */
  GHashTable *renames;
  double      tick_rate_override; /* > 0: instead of both logs' RESOLUTION */
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsRunDiff, ps_run_diff_free)

G_END_DECLS

/* test-run-diff.c — comparing two runs row by row
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff". CE PerfLog logs made here with a RESOLUTION of
 * 1000 ticks per second, so that DUR [n] is n ms and every expected
 * number can be worked out by hand; an RTL log against a pmcstat -G
 * profile for runs of different formats; then every kind of run on the
 * real and demo files: VS reports (lr2 → lr3), pmcstat text, an hwpmc
 * log, CE, RTL, PDH and PLV2 logs, and saved runs.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "parse-fixture.h"
#include "ps-call-tree.h"
#include "ps-format.h"
#include "ps-native-writer.h"
#include "ps-proportion-test.h"
#include "ps-run-diff.h"

#define EPSILON 1e-12

static PsEventStore *
parse (const PsFormat *format,
       const char     *text)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (format, builder);
  g_autoptr(GError) error = NULL;

  g_assert_true (ps_parser_feed (parser, (const guint8 *)text, strlen (text), &error));
  g_assert_no_error (error);
  g_assert_true (ps_parser_finish (parser, &error));
  g_assert_no_error (error);
  ps_store_builder_flush (builder);

  return g_steal_pointer (&store);
}

#define CE_HEADER \
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n" \
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n" \
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"

/* Open gets slower (10…13 ms → 20…23 ms), Save stays, Load gets faster
 * (50…54 → 40…44), OldName is called NewName in B, OnlyA and OnlyB are on
 * one side each. */
static const char run_a[] =
  CE_HEADER
  "## PERF ## REGISTERED MARKER [Open] AS [0] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Save] AS [1] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Load] AS [2] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [OldName] AS [3] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [OnlyA] AS [4] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [10]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [13]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [11]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [12]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [10]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [20]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [30]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [50]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [51]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [52]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [53]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [54]\r\n"
  "## PERF ## APP [app] EVT [3] DUR [5]\r\n"
  "## PERF ## APP [app] EVT [3] DUR [6]\r\n"
  "## PERF ## APP [app] EVT [4] DUR [7]\r\n";

static const char run_b[] =
  CE_HEADER
  "## PERF ## REGISTERED MARKER [Open] AS [0] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Save] AS [1] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Load] AS [2] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [NewName] AS [3] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [OnlyB] AS [5] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [23]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [22]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [21]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [20]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [30]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [20]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [10]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [40]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [41]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [42]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [43]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [44]\r\n"
  "## PERF ## APP [app] EVT [3] DUR [7]\r\n"
  "## PERF ## APP [app] EVT [3] DUR [8]\r\n"
  "## PERF ## APP [app] EVT [5] DUR [8]\r\n"
  "## PERF ## APP [app] EVT [5] DUR [9]\r\n";

static const PsRunDiffRow *
row_at (PsRunDiff  *diff,
        guint       index,
        const char *name)
{
  const PsRunDiffRow *row;

  g_assert_cmpuint (index, <, diff->rows->len);
  row = g_ptr_array_index (diff->rows, index);
  g_assert_cmpstr (row->name, ==, name);
  return row;
}

static void
assert_side (const PsStats *stats,
             guint64        count,
             double         mean,
             double         median,
             double         p95,
             double         total)
{
  g_assert_cmpuint (stats->count, ==, count);
  g_assert_cmpfloat_with_epsilon (stats->mean, mean, EPSILON);
  g_assert_cmpfloat_with_epsilon (stats->median, median, EPSILON);
  g_assert_cmpfloat_with_epsilon (stats->p95, p95, EPSILON);
  g_assert_cmpfloat_with_epsilon (stats->sum, total, EPSILON);
}

static void
test_ce_rows (void)
{
  g_autoptr(PsEventStore) a = parse (&ps_format_ce_perflog, run_a);
  g_autoptr(PsEventStore) b = parse (&ps_format_ce_perflog, run_b);
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  const PsRunDiffRow *row;

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_SERIES);
  /* A's rows in A's order, then B's own */
  g_assert_cmpuint (diff->rows->len, ==, 7);

  /* Open: means 11.5 and 21.5 ms; nearest-rank median of 4 is the 2nd
   * value, p95 the 4th. The samples do not overlap: exact U = 0 of 4 × 4,
   * p = 2 / C(8,4) = 2/70. Slower by 87 %: a regression. */
  row = row_at (diff, 0, "Open");
  g_assert_cmpstr (row->kind, ==, "duration");
  g_assert_cmpstr (row->unit, ==, "s");
  g_assert_true (row->has_a && row->has_b);
  g_assert_null (row->a_name);
  assert_side (&row->a, 4, 0.0115, 0.011, 0.013, 0.046);
  assert_side (&row->b, 4, 0.0215, 0.021, 0.023, 0.086);
  g_assert_cmpfloat_with_epsilon (row->delta_mean, 0.010, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 0.0215 / 0.0115, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->delta_total, 0.040, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->p_value, 2.0 / 70.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_REGRESSION);
  g_assert_cmpint (row->basis, ==, PS_RUN_DIFF_BASIS_TEST);
  g_assert_cmpint (row->reason, ==, PS_RUN_DIFF_REASON_SIGNIFICANT);
  g_assert_true (isnan (row->noise_floor));
  g_assert_false (ps_run_diff_row_compares_totals (row));

  /* Save: the same values in another order: U = n₁n₂/2, p = 1 */
  row = row_at (diff, 1, "Save");
  assert_side (&row->a, 3, 0.020, 0.020, 0.030, 0.060);
  assert_side (&row->b, 3, 0.020, 0.020, 0.030, 0.060);
  g_assert_cmpfloat_with_epsilon (row->delta_mean, 0, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 1, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->p_value, 1.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpint (row->basis, ==, PS_RUN_DIFF_BASIS_TEST);
  g_assert_cmpint (row->reason, ==, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT);

  /* Load: 52 → 42 ms, 5 against 5 apart: p = 2/252, an improvement */
  row = row_at (diff, 2, "Load");
  assert_side (&row->a, 5, 0.052, 0.052, 0.054, 0.260);
  assert_side (&row->b, 5, 0.042, 0.042, 0.044, 0.210);
  g_assert_cmpfloat_with_epsilon (row->delta_mean, -0.010, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 42.0 / 52.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->p_value, 2.0 / 252.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_IMPROVEMENT);
  g_assert_cmpint (row->reason, ==, PS_RUN_DIFF_REASON_SIGNIFICANT);

  /* Names on one side only: the other side absent, no delta, no p */
  row = row_at (diff, 3, "OldName");
  g_assert_true (row->has_a);
  g_assert_false (row->has_b);
  g_assert_cmpuint (row->b.count, ==, 0);
  g_assert_true (isnan (row->delta_mean));
  g_assert_true (isnan (row->ratio_mean));
  g_assert_true (isnan (row->p_value));
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpint (row->basis, ==, PS_RUN_DIFF_BASIS_NONE);
  g_assert_cmpint (row->reason, ==, PS_RUN_DIFF_REASON_ONE_SIDE);

  /* One value in A: no p-value */
  row = row_at (diff, 4, "OnlyA");
  assert_side (&row->a, 1, 0.007, 0.007, 0.007, 0.007);
  g_assert_false (row->has_b);

  row = row_at (diff, 5, "NewName");
  g_assert_false (row->has_a);
  g_assert_true (row->has_b);
  assert_side (&row->b, 2, 0.0075, 0.007, 0.008, 0.015);

  row = row_at (diff, 6, "OnlyB");
  g_assert_false (row->has_a);
  assert_side (&row->b, 2, 0.0085, 0.008, 0.009, 0.017);

  g_assert_true (ps_run_diff_find_row (diff, "Load", "duration") == g_ptr_array_index (diff->rows, 2));
  g_assert_null (ps_run_diff_find_row (diff, "Load", "cpu"));
}

/* Sessions of one appended log: run A, run B and run A again are its
 * sessions 0, 1 and 2. Each side of one session has that session's
 * values only: session 0 against 1 is A against B, to the same numbers;
 * session 1 against 2 is B against A; the whole log pools every session. */
static void
test_sessions (void)
{
  g_autofree char *text = g_strconcat (run_a, run_b, run_a, NULL);
  g_autoptr(PsEventStore) store = parse (&ps_format_ce_perflog, text);
  g_autoptr(PsRunDiff) forward = NULL;
  g_autoptr(PsRunDiff) back = NULL;
  g_autoptr(PsRunDiff) same = NULL;
  g_autoptr(PsRunDiff) whole = NULL;
  g_autoptr(PsRunDiff) missing = NULL;
  PsRunDiffOptions options;
  const PsRunDiffRow *row;

  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 3);
  ps_run_diff_options_init (&options);
  g_assert_cmpint (options.session_a, ==, -1);
  g_assert_cmpint (options.session_b, ==, -1);

  options.session_a = 0;
  options.session_b = 1;
  forward = ps_run_diff_new (store, store, &options);
  g_assert_cmpint (forward->matched, ==, PS_RUN_DIFF_MATCH_SERIES);
  g_assert_cmpuint (forward->rows->len, ==, 7);
  row = row_at (forward, 0, "Open");
  assert_side (&row->a, 4, 0.0115, 0.011, 0.013, 0.046);
  assert_side (&row->b, 4, 0.0215, 0.021, 0.023, 0.086);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 0.0215 / 0.0115, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->p_value, 2.0 / 70.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_REGRESSION);
  g_assert_cmpint (row->reason, ==, PS_RUN_DIFF_REASON_SIGNIFICANT);
  row = row_at (forward, 2, "Load");
  assert_side (&row->a, 5, 0.052, 0.052, 0.054, 0.260);
  assert_side (&row->b, 5, 0.042, 0.042, 0.044, 0.210);
  g_assert_cmpfloat_with_epsilon (row->p_value, 2.0 / 252.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_IMPROVEMENT);
  row = row_at (forward, 4, "OnlyA");
  g_assert_true (row->has_a && !row->has_b);
  row = row_at (forward, 6, "OnlyB");
  g_assert_true (!row->has_a && row->has_b);

  options.session_a = 1;
  options.session_b = 2;
  back = ps_run_diff_new (store, store, &options);
  row = row_at (back, 0, "Open");
  assert_side (&row->a, 4, 0.0215, 0.021, 0.023, 0.086);
  assert_side (&row->b, 4, 0.0115, 0.011, 0.013, 0.046);
  g_assert_cmpfloat_with_epsilon (row->p_value, 2.0 / 70.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_IMPROVEMENT);

  /* The same run twice: nothing changed */
  options.session_a = 0;
  options.session_b = 2;
  same = ps_run_diff_new (store, store, &options);
  row = row_at (same, 0, "Open");
  g_assert_cmpfloat_with_epsilon (row->p_value, 1.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_UNCHANGED);
  for (guint i = 0; i < same->rows->len; i++)
    g_assert_true (((PsRunDiffRow *)g_ptr_array_index (same->rows, i))->has_b);

  /* The whole log against its first session: Open pools 12 values */
  options.session_a = -1;
  options.session_b = 0;
  whole = ps_run_diff_new (store, store, &options);
  row = row_at (whole, 0, "Open");
  g_assert_cmpuint (row->a.count, ==, 12);
  g_assert_cmpfloat_with_epsilon (row->a.sum, 0.046 + 0.086 + 0.046, EPSILON);
  g_assert_cmpuint (row->b.count, ==, 4);

  /* A session the log does not have: every row is B's alone */
  options.session_a = 3;
  options.session_b = 1;
  missing = ps_run_diff_new (store, store, &options);
  g_assert_cmpint (missing->matched, ==, PS_RUN_DIFF_MATCH_NONE);
  g_assert_cmpuint (missing->rows->len, ==, 5);
  for (guint i = 0; i < missing->rows->len; i++)
    g_assert_false (((PsRunDiffRow *)g_ptr_array_index (missing->rows, i))->has_a);
}

/* The rename map: A's OldName is B's NewName */
static void
test_rename (void)
{
  g_autoptr(PsEventStore) a = parse (&ps_format_ce_perflog, run_a);
  g_autoptr(PsEventStore) b = parse (&ps_format_ce_perflog, run_b);
  g_autoptr(GHashTable) renames = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(PsRunDiff) diff = NULL;
  PsRunDiffOptions options;
  const PsRunDiffRow *row;

  g_hash_table_insert (renames, (char *)"OldName", (char *)"NewName");
  ps_run_diff_options_init (&options);
  options.renames = renames;
  diff = ps_run_diff_new (a, b, &options);

  /* OldName and NewName are one row now */
  g_assert_cmpuint (diff->rows->len, ==, 6);
  row = row_at (diff, 3, "NewName");
  g_assert_cmpstr (row->a_name, ==, "OldName");
  g_assert_true (row->has_a && row->has_b);
  assert_side (&row->a, 2, 0.0055, 0.005, 0.006, 0.011);
  assert_side (&row->b, 2, 0.0075, 0.007, 0.008, 0.015);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 7.5 / 5.5, EPSILON);
  /* 2 against 2 apart: p = 2 / C(4,2) = 1/3; 36 % slower but not beyond noise */
  g_assert_cmpfloat_with_epsilon (row->p_value, 1.0 / 3.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpint (row->reason, ==, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT);
  row_at (diff, 4, "OnlyA");
  row_at (diff, 5, "OnlyB");
}

/* The thresholds: Open's 87 % is no change when 100 % is asked for, and
 * nothing is significant at alpha 0.001 */
static void
test_thresholds (void)
{
  g_autoptr(PsEventStore) a = parse (&ps_format_ce_perflog, run_a);
  g_autoptr(PsEventStore) b = parse (&ps_format_ce_perflog, run_b);
  g_autoptr(PsRunDiff) wide = NULL;
  g_autoptr(PsRunDiff) strict = NULL;
  PsRunDiffOptions options;

  ps_run_diff_options_init (&options);
  g_assert_cmpfloat (options.alpha, ==, 0.05);
  options.threshold = 1.0;
  wide = ps_run_diff_new (a, b, &options);
  g_assert_cmpint (row_at (wide, 0, "Open")->change, ==, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpint (row_at (wide, 0, "Open")->reason, ==, PS_RUN_DIFF_REASON_SMALL);

  ps_run_diff_options_init (&options);
  options.alpha = 0.001;
  strict = ps_run_diff_new (a, b, &options);
  g_assert_cmpint (row_at (strict, 0, "Open")->change, ==, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpint (row_at (strict, 2, "Load")->change, ==, PS_RUN_DIFF_UNCHANGED);
}

/* A ratio exactly at the threshold is a change (ps-run-diff.h: |ratio −
 * 1| ≥ threshold). At 1024 ticks a second, 4, 5 and 3 ticks are exact
 * in seconds, so Slower's ratio is exactly 1.25 and Faster's 0.75, both
 * 0.25 from 1; A's values all lie on one side of B's (p ≈ 0.001). */
static void
test_threshold_boundary (void)
{
  static const char edge_a[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
    "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
    "## PERF ## RESOLUTION [1024] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [Slower] AS [0] BY APP [app]\r\n"
    "## PERF ## REGISTERED MARKER [Faster] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [0] DUR [4]\r\n## PERF ## APP [app] EVT [0] DUR [4]\r\n"
    "## PERF ## APP [app] EVT [0] DUR [4]\r\n## PERF ## APP [app] EVT [0] DUR [4]\r\n"
    "## PERF ## APP [app] EVT [0] DUR [4]\r\n## PERF ## APP [app] EVT [0] DUR [4]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [4]\r\n## PERF ## APP [app] EVT [1] DUR [4]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [4]\r\n## PERF ## APP [app] EVT [1] DUR [4]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [4]\r\n## PERF ## APP [app] EVT [1] DUR [4]\r\n";
  static const char edge_b[] =
    "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
    "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
    "## PERF ## RESOLUTION [1024] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [Slower] AS [0] BY APP [app]\r\n"
    "## PERF ## REGISTERED MARKER [Faster] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [0] DUR [5]\r\n## PERF ## APP [app] EVT [0] DUR [5]\r\n"
    "## PERF ## APP [app] EVT [0] DUR [5]\r\n## PERF ## APP [app] EVT [0] DUR [5]\r\n"
    "## PERF ## APP [app] EVT [0] DUR [5]\r\n## PERF ## APP [app] EVT [0] DUR [5]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [3]\r\n## PERF ## APP [app] EVT [1] DUR [3]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [3]\r\n## PERF ## APP [app] EVT [1] DUR [3]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [3]\r\n## PERF ## APP [app] EVT [1] DUR [3]\r\n";
  g_autoptr(PsEventStore) a = parse (&ps_format_ce_perflog, edge_a);
  g_autoptr(PsEventStore) b = parse (&ps_format_ce_perflog, edge_b);
  g_autoptr(PsRunDiff) at_threshold = NULL;
  g_autoptr(PsRunDiff) above_threshold = NULL;
  PsRunDiffOptions options;
  const PsRunDiffRow *slower, *faster;

  ps_run_diff_options_init (&options);
  options.threshold = 0.25;
  at_threshold = ps_run_diff_new (a, b, &options);
  slower = row_at (at_threshold, 0, "Slower");
  faster = row_at (at_threshold, 1, "Faster");
  g_assert_cmpfloat (slower->ratio_mean, ==, 1.25);
  g_assert_cmpfloat (faster->ratio_mean, ==, 0.75);
  g_assert_cmpfloat (slower->p_value, <, 0.05);
  g_assert_cmpfloat (faster->p_value, <, 0.05);
  g_assert_cmpint (slower->change, ==, PS_RUN_DIFF_REGRESSION);
  g_assert_cmpint (faster->change, ==, PS_RUN_DIFF_IMPROVEMENT);

  /* Just past it, neither is */
  options.threshold = 0.2500001;
  above_threshold = ps_run_diff_new (a, b, &options);
  g_assert_cmpint (row_at (above_threshold, 0, "Slower")->change, ==, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpint (row_at (above_threshold, 1, "Faster")->change, ==, PS_RUN_DIFF_UNCHANGED);
}

/* An RTL log against a pmcstat -G profile: no series in common, both have
 * call trees, so functions are matched by name. The units differ (ns,
 * samples): totals become percentages of each tree's elapsed total.
 * RTL (ms): main 0–140 on thread 1, A 10–85, B 30–60, 65–80 and 120–130,
 * C 95–135, worker 141–151 on thread 2; T_E = 140 + 10 = 150 ms.
 * pmcstat: 100 samples, 60 in B (called by A by main), 40 in C (by main). */
static const char rtl_log[] =
  "opening log file 1246545872.402817 seconds past January 1st 1970\n"
  "corresponding to 0 ms after timer start\n"
  "Process id is 4711\n"
  "000000 1 { demo (ab000001) ::main\n"
  "000010 1 { demo (ab000001) ::A\n"
  "000030 1 { demo (ab000001) ::B\n"
  "000060 1 } demo (ab000001) ::B\n"
  "000065 1 { demo (ab000001) ::B\n"
  "000080 1 } demo (ab000001) ::B\n"
  "000085 1 } demo (ab000001) ::A\n"
  "000095 1 { demo (ab000001) ::C\n"
  "000120 1 { demo (ab000001) ::B\n"
  "000130 1 } demo (ab000001) ::B\n"
  "000135 1 } demo (ab000001) ::C\n"
  "000140 1 } demo (ab000001) ::main\n"
  "000141 2 { demo (ab000001) ::worker\n"
  "000151 2 } demo (ab000001) ::worker\n"
  "closing log file at 000152\n";

static const char pmcstat_profile[] =
  "@ CLOCK.HARD [100 samples]\n"
  "\n"
  "60.00%  [60]   ::B @ /usr/bin/demo\n"
  " 100.0%  [60]    ::A\n"
  "  100.0%  [60]     ::main\n"
  "\n"
  "40.00%  [40]   ::C @ /usr/bin/demo\n"
  " 100.0%  [40]    ::main\n";

static void
test_different_formats (void)
{
  g_autoptr(PsEventStore) a = parse (&ps_format_rtl_logfile, rtl_log);
  g_autoptr(PsEventStore) b = parse (&ps_format_pmcstat_callgraph, pmcstat_profile);
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  g_autofree char *matched = ps_run_diff_match_to_string (diff->matched);
  /* main: 93.3 % → 100 % is 7 % more, under the 10 % of a change; A,
   * B and C take larger shares of the profile */
  const struct {
    const char     *name;
    guint64         calls;
    guint64         samples;
    double          percent_a;
    double          percent_b;
    PsRunDiffReason reason;
    PsRunDiffChange change;
  } expected[] = {
    { "::main", 1, 100, 100.0 * 140 / 150, 100, PS_RUN_DIFF_REASON_SMALL, PS_RUN_DIFF_UNCHANGED },
    { "::A",    1, 60,  100.0 * 75 / 150,  60,  PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION },
    { "::B",    3, 60,  100.0 * 55 / 150,  60,  PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION },
    { "::C",    1, 40,  100.0 * 40 / 150,  40,  PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION },
  };
  const PsRunDiffRow *row;

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_FUNCTIONS);
  g_assert_cmpstr (matched, ==, "functions");
  /* The four shared functions, and worker of the RTL log alone; no span
   * rows (the profile has none to match them) */
  g_assert_cmpuint (diff->rows->len, ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      row = row_at (diff, i, expected[i].name);
      g_assert_cmpstr (row->kind, ==, "function");
      g_assert_cmpstr (row->unit, ==, "percent");
      g_assert_true (row->has_a && row->has_b);
      g_assert_cmpuint (row->a.count, ==, expected[i].calls);
      /* Sampled: the samples that have the function, never a count of 0
       * beside them */
      g_assert_cmpuint (row->b.count, ==, expected[i].samples);
      g_assert_cmpfloat_with_epsilon (row->a.sum, expected[i].percent_a, 1e-9);
      g_assert_cmpfloat_with_epsilon (row->b.sum, expected[i].percent_b, 1e-9);
      g_assert_cmpfloat_with_epsilon (row->b.mean, expected[i].percent_b, 1e-9);
      g_assert_cmpfloat_with_epsilon (row->delta_total, expected[i].percent_b - expected[i].percent_a, 1e-9);
      /* No per-call values of the timed side: no mean, median or
       * p-value; one share a run, compared by its size against 1 % of
       * the largest share (100 %) */
      g_assert_true (isnan (row->a.mean));
      g_assert_true (isnan (row->a.median));
      g_assert_true (isnan (row->p_value));
      g_assert_cmpint (row->basis, ==, PS_RUN_DIFF_BASIS_SIZE);
      g_assert_true (ps_run_diff_row_compares_totals (row));
      g_assert_cmpfloat_with_epsilon (row->noise_floor, 1.0, 1e-9);
      g_assert_cmpint (row->reason, ==, expected[i].reason);
      g_assert_cmpint (row->change, ==, expected[i].change);
    }
  row = row_at (diff, 4, "::worker");
  g_assert_true (row->has_a);
  g_assert_false (row->has_b);
  g_assert_cmpfloat_with_epsilon (row->a.sum, 100.0 * 10 / 150, 1e-9);
}

/* Two RTL logs: span series by scope name, in seconds. The second log's
 * B scopes take twice as long. */
static void
test_rtl_spans (void)
{
  g_autoptr(GString) slower = g_string_new (NULL);
  g_autoptr(PsEventStore) a = parse (&ps_format_rtl_logfile, rtl_log);
  g_autoptr(PsEventStore) b = NULL;
  g_autoptr(PsRunDiff) diff = NULL;
  const PsRunDiffRow *row;

  g_string_append (slower, rtl_log);
  /* B: 30–60 → 30–90 would overlap; shift the end of the first B only:
   * 30 ms becomes 50 ms (000060 → 000080, the second B starts later) */
  g_string_replace (slower, "000060 1 } demo (ab000001) ::B\n000065 1 { demo (ab000001) ::B\n",
                    "000080 1 } demo (ab000001) ::B\n000081 1 { demo (ab000001) ::B\n", 1);
  g_string_replace (slower, "000080 1 } demo (ab000001) ::B\n000085",
                    "000084 1 } demo (ab000001) ::B\n000085", 1);
  b = parse (&ps_format_rtl_logfile, slower->str);
  diff = ps_run_diff_new (a, b, NULL);

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_SERIES);
  row = ps_run_diff_find_row (diff, "demo (ab000001) ::B", "span");
  g_assert_nonnull (row);
  g_assert_cmpstr (row->unit, ==, "s");
  /* A: 0.030, 0.015, 0.010; B: 0.050, 0.003, 0.010 */
  assert_side (&row->a, 3, 0.055 / 3, 0.015, 0.030, 0.055);
  assert_side (&row->b, 3, 0.063 / 3, 0.010, 0.050, 0.063);
  g_assert_cmpfloat_with_epsilon (row->delta_mean, 0.008 / 3, EPSILON);
  /* Pooled 0.003 0.010 0.010 0.015 0.030 0.050: A's ranks 2.5, 4, 5 →
   * U₁ = 11.5 − 6 = 5.5 of 9; ties: normal approximation */
  g_assert_true (row->p_value > 0.5);
  row = ps_run_diff_find_row (diff, "demo (ab000001) ::main", "span");
  g_assert_nonnull (row);
  assert_side (&row->a, 1, 0.140, 0.140, 0.140, 0.140);
  g_assert_true (isnan (row->p_value));
}

/* A CE log and an RTL log share nothing: every row is on one side */
static void
test_nothing_shared (void)
{
  g_autoptr(PsEventStore) a = parse (&ps_format_ce_perflog, run_a);
  g_autoptr(PsEventStore) b = parse (&ps_format_rtl_logfile, rtl_log);
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  g_autofree char *matched = ps_run_diff_match_to_string (diff->matched);
  guint n_a = 0, n_b = 0;

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_SERIES);
  g_assert_cmpstr (matched, ==, "series");
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      g_assert_true (row->has_a != row->has_b);
      n_a += row->has_a;
      n_b += row->has_b;
    }
  /* Five markers; five scope names */
  g_assert_cmpuint (n_a, ==, 5);
  g_assert_cmpuint (n_b, ==, 5);
}

/* One value per run: no test, the size of the change. At 1024 ticks a
 * second every value is exact in seconds. Big 256 → 512 ticks (0.25 →
 * 0.5 s) doubles; Tiny 4 → 6 ticks grows by half, but by 2 ticks (1/512
 * s), under the noise floor of 1 % of the largest value (0.5 s: 0.005
 * s); Steady 256 → 264 (+3 %) is under the 10 % of a change; Faster
 * 256 → 128 halves; Edge 256 → 320 is +25 %; Few has one value in A and
 * three in B, whose mean (not their total) is compared: 256 → 256, 256,
 * 256. */
static const char size_a[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
  "## PERF ## RESOLUTION [1024] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [Big] AS [0] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Tiny] AS [1] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Steady] AS [2] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Faster] AS [3] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Edge] AS [4] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Few] AS [5] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [256]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [4]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [256]\r\n"
  "## PERF ## APP [app] EVT [3] DUR [256]\r\n"
  "## PERF ## APP [app] EVT [4] DUR [256]\r\n"
  "## PERF ## APP [app] EVT [5] DUR [256]\r\n";

static const char size_b[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
  "## PERF ## RESOLUTION [1024] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [Big] AS [0] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Tiny] AS [1] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Steady] AS [2] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Faster] AS [3] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Edge] AS [4] BY APP [app]\r\n"
  "## PERF ## REGISTERED MARKER [Few] AS [5] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [512]\r\n"
  "## PERF ## APP [app] EVT [1] DUR [6]\r\n"
  "## PERF ## APP [app] EVT [2] DUR [264]\r\n"
  "## PERF ## APP [app] EVT [3] DUR [128]\r\n"
  "## PERF ## APP [app] EVT [4] DUR [320]\r\n"
  "## PERF ## APP [app] EVT [5] DUR [256]\r\n"
  "## PERF ## APP [app] EVT [5] DUR [256]\r\n"
  "## PERF ## APP [app] EVT [5] DUR [256]\r\n";

static void
assert_verdict (const PsRunDiffRow *row,
                PsRunDiffBasis      basis,
                PsRunDiffReason     reason,
                PsRunDiffChange     change)
{
  g_assert_true (row->has_a && row->has_b);
  g_assert_cmpint (row->basis, ==, basis);
  g_assert_cmpint (row->reason, ==, reason);
  g_assert_cmpint (row->change, ==, change);
}

static void
test_size (void)
{
  g_autoptr(PsEventStore) a = parse (&ps_format_ce_perflog, size_a);
  g_autoptr(PsEventStore) b = parse (&ps_format_ce_perflog, size_b);
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  g_autoptr(PsRunDiff) strict = NULL;
  g_autoptr(PsRunDiff) loose = NULL;
  PsRunDiffOptions options;
  const PsRunDiffRow *row;

  row = row_at (diff, 0, "Big");
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);
  g_assert_true (isnan (row->p_value));
  g_assert_cmpfloat (row->noise_floor, ==, 0.005);
  g_assert_cmpfloat (row->ratio_total, ==, 2.0);
  g_assert_false (ps_run_diff_row_compares_totals (row));

  row = row_at (diff, 1, "Tiny");
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_NOISE, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpfloat (row->ratio_mean, ==, 1.5);
  assert_verdict (row_at (diff, 2, "Steady"), PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_SMALL, PS_RUN_DIFF_UNCHANGED);
  assert_verdict (row_at (diff, 3, "Faster"), PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_IMPROVEMENT);
  assert_verdict (row_at (diff, 4, "Edge"), PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);

  row = row_at (diff, 5, "Few");
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_SMALL, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpfloat (row->ratio_total, ==, 3.0);

  /* A change of exactly min_change is one; a noise floor above Big's
   * change makes it noise, one of 0 makes Tiny a change */
  ps_run_diff_options_init (&options);
  g_assert_cmpfloat (options.min_change, ==, 0.10);
  g_assert_cmpfloat (options.noise_fraction, ==, 0.01);
  options.min_change = 0.25;
  options.noise_fraction = 0.6;
  strict = ps_run_diff_new (a, b, &options);
  assert_verdict (row_at (strict, 0, "Big"), PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_NOISE, PS_RUN_DIFF_UNCHANGED);
  g_assert_cmpfloat (row_at (strict, 0, "Big")->noise_floor, ==, 0.3);
  options.noise_fraction = 0;
  g_clear_pointer (&strict, ps_run_diff_free);
  strict = ps_run_diff_new (a, b, &options);
  assert_verdict (row_at (strict, 1, "Tiny"), PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);
  assert_verdict (row_at (strict, 4, "Edge"), PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);
  options.min_change = 0.2500001;
  loose = ps_run_diff_new (a, b, &options);
  assert_verdict (row_at (loose, 4, "Edge"), PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_SMALL, PS_RUN_DIFF_UNCHANGED);
}

/* A log whose first session has a RESOLUTION (durations in s) and whose
 * second has none (in ticks): the two Open series are never pooled, and
 * each compares with its own unit */
static const char two_units[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [Open] AS [0] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [10]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [12]\r\n"
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x2]\r\n"
  "## PERF ## REGISTERED MARKER [Open] AS [0] BY APP [app]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [20]\r\n"
  "## PERF ## APP [app] EVT [0] DUR [22]\r\n";

static void
test_units_apart (void)
{
  g_autoptr(PsEventStore) both = parse (&ps_format_ce_perflog, two_units);
  g_autoptr(PsEventStore) seconds = parse (&ps_format_ce_perflog, run_a);
  g_autoptr(PsRunDiff) same = ps_run_diff_new (both, both, NULL);
  g_autoptr(PsRunDiff) against = ps_run_diff_new (both, seconds, NULL);
  const PsRunDiffRow *row;

  g_assert_cmpuint (same->rows->len, ==, 2);
  row = row_at (same, 0, "Open");
  g_assert_cmpstr (row->unit, ==, "s");
  assert_side (&row->a, 2, 0.011, 0.010, 0.012, 0.022);
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT, PS_RUN_DIFF_UNCHANGED);
  row = row_at (same, 1, "Open");
  g_assert_cmpstr (row->unit, ==, "ticks");
  assert_side (&row->a, 2, 21, 20, 22, 42);

  /* run_a's Open is in seconds: it matches the first, the ticks stay in A */
  row = ps_run_diff_find_row (against, "Open", "duration");
  g_assert_cmpstr (row->unit, ==, "s");
  g_assert_true (row->has_a && row->has_b);
  assert_side (&row->b, 4, 0.0115, 0.011, 0.013, 0.046);
  row = row_at (against, 1, "Open");
  g_assert_cmpstr (row->unit, ==, "ticks");
  g_assert_true (row->has_a && !row->has_b);
}

/* The two-proportion test against R's prop.test (c(30, 45), c(100, 100),
 * correct = FALSE): X-squared = 4.8 = z², p = 0.02846 */
static void
test_proportion_test (void)
{
  PsProportionTestResult result;

  g_assert_cmpfloat_with_epsilon (ps_proportion_test (30, 100, 45, 100, &result), 0.028459736916310568, 1e-12);
  g_assert_cmpfloat_with_epsilon (result.z * result.z, 4.8, 1e-12);
  g_assert_cmpfloat (result.z, >, 0);
  ps_proportion_test (45, 100, 30, 100, &result);
  g_assert_cmpfloat (result.z, <, 0);
  /* Nothing varies: both 0, both all */
  g_assert_cmpfloat (ps_proportion_test (0, 10, 0, 20, &result), ==, 1.0);
  g_assert_cmpfloat (result.z, ==, 0);
  g_assert_cmpfloat (ps_proportion_test (10, 10, 20, 20, NULL), ==, 1.0);
  /* No test */
  g_assert_true (isnan (ps_proportion_test (1, 0, 1, 10, &result)));
  g_assert_true (isnan (result.z));
  g_assert_true (isnan (ps_proportion_test (11, 10, 1, 10, NULL)));
  g_assert_true (isnan (ps_proportion_test (-1, 10, 1, 10, NULL)));
  g_assert_true (isnan (ps_proportion_test (NAN, 10, 1, 10, NULL)));
}

/* Files ---------------------------------------------------------------- */

static PsEventStore *
load_test_data (const char *folder,
                const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", folder, name, NULL);

  return parse_fixture_load_file (path, 0);
}

static char *
demo_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);
}

static PsEventStore *
load_demo (const char *name)
{
  g_autofree char *path = demo_path (name);

  return parse_fixture_load_file (path, 0);
}

static void
count_changes (PsRunDiff *diff,
               guint     *n_regressions,
               guint     *n_improvements,
               guint     *n_changed)
{
  *n_regressions = *n_improvements = *n_changed = 0;
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      *n_regressions += row->change == PS_RUN_DIFF_REGRESSION;
      *n_improvements += row->change == PS_RUN_DIFF_IMPROVEMENT;
      *n_changed += row->change == PS_RUN_DIFF_CHANGED;
    }
}

static void
assert_no_change (PsRunDiff *diff)
{
  guint n_regressions, n_improvements, n_changed;

  count_changes (diff, &n_regressions, &n_improvements, &n_changed);
  g_assert_cmpuint (n_regressions + n_improvements + n_changed, ==, 0);
}

/* Every row of a run against itself: on both sides, the basis given,
 * unchanged for the reason given */
static void
assert_all_unchanged (PsRunDiff       *diff,
                      PsRunDiffBasis   basis,
                      PsRunDiffReason  reason)
{
  g_assert_cmpuint (diff->rows->len, >, 0);
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      assert_verdict (row, basis, reason, PS_RUN_DIFF_UNCHANGED);
      if (basis == PS_RUN_DIFF_BASIS_SIZE)
        g_assert_true (isnan (row->p_value));
      else
        g_assert_cmpfloat (row->p_value, ==, 1.0);
    }
}

/* The real Visual Studio reports lr2 and lr3: one value per function, in
 * ticks. The noise floor is 1 % of the largest total, _wmainCRTStartup's
 * 3354029 ticks in lr3. */
static void
test_vs_reports (void)
{
  g_autoptr(PsEventStore) a = load_test_data ("vs-report-csv", "lr2_cc.csv");
  g_autoptr(PsEventStore) b = load_test_data ("vs-report-csv", "lr3_cc.csv");
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  g_autoptr(PsRunDiff) same = ps_run_diff_new (a, a, NULL);
  const PsRunDiffRow *row;
  guint n_regressions, n_improvements, n_changed;

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_FUNCTIONS);

  /* 6.96 times the time: a regression, though no test can tell */
  row = ps_run_diff_find_row (diff, "_wmainCRTStartup", "function");
  g_assert_nonnull (row);
  g_assert_cmpstr (row->unit, ==, "ticks");
  g_assert_cmpfloat (row->a.sum, ==, 481558);
  g_assert_cmpfloat (row->b.sum, ==, 3354029);
  g_assert_cmpuint (row->a.count, ==, 1);
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);
  g_assert_true (isnan (row->p_value));
  g_assert_cmpfloat_with_epsilon (row->noise_floor, 33540.29, 1e-6);
  g_assert_true (ps_run_diff_row_compares_totals (row));

  /* 243 → 294 ticks is 21 % more, but 51 ticks: noise */
  row = ps_run_diff_find_row (diff, "GetTickCount", "function");
  g_assert_cmpfloat (row->a.sum, ==, 243);
  g_assert_cmpfloat (row->b.sum, ==, 294);
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_NOISE, PS_RUN_DIFF_UNCHANGED);

  /* Its calls got 30 times cheaper, its total 162 times larger */
  row = ps_run_diff_find_row (diff, "__CIsin", "function");
  g_assert_cmpuint (row->a.count, ==, 2);
  g_assert_cmpuint (row->b.count, ==, 10000);
  g_assert_cmpfloat (row->ratio_mean, <, 0.05);
  g_assert_cmpfloat (row->ratio_total, >, 160);
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);

  /* 963 → 963 */
  assert_verdict (ps_run_diff_find_row (diff, "__controlfp_s", "function"),
                  PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_SMALL, PS_RUN_DIFF_UNCHANGED);
  /* +12.8 %, 34641 ticks: just above the floor */
  assert_verdict (ps_run_diff_find_row (diff, "_printf", "function"),
                  PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);
  row = ps_run_diff_find_row (diff, "Fib(int)", "function");
  g_assert_true (row->has_a && !row->has_b);
  g_assert_cmpint (row->reason, ==, PS_RUN_DIFF_REASON_ONE_SIDE);

  /* _wmainCRTStartup, __tmainCRTStartup, _wmain, __CIsin, its thunk and
   * _printf */
  count_changes (diff, &n_regressions, &n_improvements, &n_changed);
  g_assert_cmpuint (n_regressions, ==, 6);
  g_assert_cmpuint (n_improvements, ==, 0);
  g_assert_cmpuint (n_changed, ==, 0);

  assert_all_unchanged (same, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_SMALL);
}

/* pmcstat -G text: functions by their share of the samples. shared.txt
 * has 232 samples, 173 with randomdev_encrypt on the stack;
 * diff/shared-changed.txt has 260, 100 with it, and 160 with
 * acpi_timer_get_timecount (59 before). The p-values are R's
 * prop.test (correct = FALSE). */
static void
test_pmcstat (void)
{
  g_autoptr(PsEventStore) a = load_test_data ("pmcstat-callgraph", "shared.txt");
  g_autoptr(PsEventStore) b = load_test_data ("diff", "shared-changed.txt");
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  g_autoptr(PsRunDiff) same = ps_run_diff_new (a, a, NULL);
  const PsRunDiffRow *row;

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_FUNCTIONS);
  g_assert_cmpuint (diff->rows->len, ==, 25);

  row = ps_run_diff_find_row (diff, "randomdev_encrypt", "function");
  g_assert_cmpstr (row->unit, ==, "percent");
  g_assert_cmpuint (row->a.count, ==, 173);
  g_assert_cmpuint (row->b.count, ==, 100);
  g_assert_cmpfloat_with_epsilon (row->a.mean, 100.0 * 173 / 232, 1e-12);
  g_assert_cmpfloat_with_epsilon (row->a.sum, 100.0 * 173 / 232, 1e-12);
  g_assert_cmpfloat_with_epsilon (row->b.mean, 100.0 * 100 / 260, 1e-12);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, (100.0 / 260) / (173.0 / 232), 1e-12);
  g_assert_cmpfloat_with_epsilon (row->p_value, 8.6502392866382305e-16, 1e-25);
  g_assert_true (isnan (row->noise_floor));
  assert_verdict (row, PS_RUN_DIFF_BASIS_PROPORTION, PS_RUN_DIFF_REASON_SIGNIFICANT, PS_RUN_DIFF_IMPROVEMENT);
  g_assert_false (ps_run_diff_row_compares_totals (row));

  row = ps_run_diff_find_row (diff, "acpi_timer_get_timecount", "function");
  g_assert_cmpuint (row->a.count, ==, 59);
  g_assert_cmpuint (row->b.count, ==, 160);
  assert_verdict (row, PS_RUN_DIFF_BASIS_PROPORTION, PS_RUN_DIFF_REASON_SIGNIFICANT, PS_RUN_DIFF_REGRESSION);

  /* 17 of 232 and 17 of 260: a share 11 % smaller, by chance */
  row = ps_run_diff_find_row (diff, "cpu_idleclock", "function");
  g_assert_cmpfloat_with_epsilon (row->p_value, 0.73047183850312591, 1e-12);
  assert_verdict (row, PS_RUN_DIFF_BASIS_PROPORTION, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT, PS_RUN_DIFF_UNCHANGED);
  row = ps_run_diff_find_row (diff, "amd64_syscall", "function");
  g_assert_cmpuint (row->a.count, ==, 214);
  g_assert_cmpfloat_with_epsilon (row->p_value, 0.72239332478360507, 1e-12);

  assert_all_unchanged (same, PS_RUN_DIFF_BASIS_PROPORTION, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT);
}

/* The demo hwpmc log against itself: its functions, not the lifetimes of
 * its processes (spans that never end); the addresses of a module
 * without symbols are one function named after the module, with the
 * samples and share its call tree gives */
static void
test_hwpmc (void)
{
  g_autoptr(PsEventStore) store = load_demo ("pmcstat_freebsd14.pmclog");
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (store, store, NULL);
  PsCallTreeOptions options = { PS_NONE, NULL, 0 };
  g_autoptr(PsCallTree) tree = NULL;
  double total;

  options.group_addresses = TRUE;
  tree = ps_call_tree_new_for_store (store, &options, NULL);
  total = ps_call_tree_get_elapsed_total (tree);
  g_assert_cmpfloat (total, >, 0);

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_FUNCTIONS);
  g_assert_cmpuint (diff->rows->len, ==, ps_call_tree_get_n_functions (tree));
  assert_all_unchanged (diff, PS_RUN_DIFF_BASIS_PROPORTION, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT);
  for (guint32 f = 0; f < ps_call_tree_get_n_functions (tree); f++)
    {
      const char *name = ps_call_tree_get_function_name (tree, f);
      double samples = ps_call_tree_get_function_stats (tree, f)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE];
      const PsRunDiffRow *row = ps_run_diff_find_row (diff, name, "function");

      g_assert_nonnull (row);
      g_assert_null (strstr (name, "+0x"));
      g_assert_cmpuint (row->a.count, ==, (guint64)samples);
      g_assert_cmpuint (row->a.count, >, 0);
      g_assert_cmpfloat_with_epsilon (row->a.mean, 100.0 * samples / total, 1e-9);
    }
  g_assert_nonnull (ps_run_diff_find_row (diff, "libc.so.7", "function"));
}

/* The demo CE log against diff/dbperf-changed.log: CeSeekDatabaseEx with
 * 1000 records 1.5 times slower, CeDeleteRecord twice as fast, the one
 * event of the unregistered marker 42 three times longer (3581 → 10743
 * ticks at 1193180 a second), the rest the same */
static void
test_ce_demo (void)
{
  g_autoptr(PsEventStore) a = load_demo ("dbperf_CEPC_x86_6_0_3122.log");
  g_autoptr(PsEventStore) b = load_test_data ("diff", "dbperf-changed.log");
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  g_autoptr(PsRunDiff) same = ps_run_diff_new (a, a, NULL);
  const PsRunDiffRow *row;
  guint n_regressions, n_improvements, n_changed;

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_SERIES);
  row = ps_run_diff_find_row (diff, "Test=CeSeekDatabaseEx,Records=1000,time=%AVG%", "duration");
  g_assert_cmpuint (row->a.count, ==, 15);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 1.5, 0.001);
  g_assert_cmpfloat (row->p_value, <, 1e-6);
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_SIGNIFICANT, PS_RUN_DIFF_REGRESSION);
  row = ps_run_diff_find_row (diff, "Test=CeDeleteRecord,time=%AVG%", "duration");
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_SIGNIFICANT, PS_RUN_DIFF_IMPROVEMENT);
  row = ps_run_diff_find_row (diff, "Test=CeCreateDatabaseEx2,time=%AVG%", "duration");
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT, PS_RUN_DIFF_UNCHANGED);
  /* Two readings a run: no difference a rank test could show */
  row = ps_run_diff_find_row (diff, "CPU: dbperf", "cpu");
  g_assert_cmpstr (row->unit, ==, "percent");
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT, PS_RUN_DIFF_UNCHANGED);

  /* One event a run: its size, against 1 % of the largest mean duration,
   * its own in B */
  row = ps_run_diff_find_row (diff, "", "duration");
  g_assert_cmpuint (row->a.count, ==, 1);
  g_assert_cmpfloat_with_epsilon (row->a.mean, 3581.0 / 1193180, 1e-12);
  g_assert_cmpfloat_with_epsilon (row->b.mean, 10743.0 / 1193180, 1e-12);
  g_assert_cmpfloat_with_epsilon (row->noise_floor, 0.01 * 10743.0 / 1193180, 1e-12);
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);

  count_changes (diff, &n_regressions, &n_improvements, &n_changed);
  g_assert_cmpuint (n_regressions, ==, 2);
  g_assert_cmpuint (n_improvements, ==, 1);
  g_assert_cmpuint (n_changed, ==, 0);

  assert_no_change (same);
}

/* The demo RTL log against a copy with every time doubled: every scope
 * that took any time takes twice as long, and none is called faster */
static void
test_rtl_demo (void)
{
  g_autofree char *path = demo_path ("soffice_4711.log");
  g_autofree char *text = NULL;
  g_autoptr(GString) doubled = g_string_new (NULL);
  g_autoptr(GRegex) time = g_regex_new ("^([0-9]{6}) ", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(PsEventStore) a = load_demo ("soffice_4711.log");
  g_autoptr(PsEventStore) b = NULL;
  g_autoptr(PsRunDiff) diff = NULL;
  g_autoptr(PsRunDiff) same = ps_run_diff_new (a, a, NULL);
  gsize length;
  gint end = 0;
  const PsRunDiffRow *row;
  guint n_regressions, n_improvements, n_changed, n_large = 0, n_significant = 0;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  /* The log has a NUL byte: walk it by length */
  for (g_regex_match_full (time, text, length, 0, 0, &match, NULL); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      gint start, stop;
      g_autofree char *number = g_match_info_fetch (match, 1);

      g_match_info_fetch_pos (match, 1, &start, &stop);
      g_string_append_len (doubled, text + end, start - end);
      g_string_append_printf (doubled, "%06u", 2 * (guint)atoi (number));
      end = stop;
    }
  g_string_append_len (doubled, text + end, length - end);
  b = parse_fixture_pieces (&ps_format_rtl_logfile, (const guint8 *)doubled->str, doubled->len, 0, 0, NULL);
  diff = ps_run_diff_new (a, b, NULL);

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_SERIES);
  /* One value per run, 116 → 232 ms, against 1 % of the largest mean span */
  row = ps_run_diff_find_row (diff, "register services", "span");
  g_assert_cmpfloat_with_epsilon (row->a.mean, 0.116, 1e-12);
  g_assert_cmpfloat_with_epsilon (row->b.mean, 0.232, 1e-12);
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_LARGE, PS_RUN_DIFF_REGRESSION);
  g_assert_cmpfloat (row->noise_floor, >, 0.004);
  /* 4 → 8 ms is less */
  row = ps_run_diff_find_row (diff, "import content", "span");
  g_assert_cmpfloat_with_epsilon (row->b.mean, 0.008, 1e-12);
  assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_NOISE, PS_RUN_DIFF_UNCHANGED);

  for (guint i = 0; i < diff->rows->len; i++)
    {
      row = g_ptr_array_index (diff->rows, i);
      n_large += row->reason == PS_RUN_DIFF_REASON_LARGE;
      n_significant += row->reason == PS_RUN_DIFF_REASON_SIGNIFICANT;
      if (row->has_a && row->has_b)
        g_assert_cmpfloat (row->delta_mean, >=, 0);
    }
  count_changes (diff, &n_regressions, &n_improvements, &n_changed);
  g_assert_cmpuint (n_improvements, ==, 0);
  g_assert_cmpuint (n_changed, ==, 0);
  g_assert_cmpuint (n_large, >, 10);
  g_assert_cmpuint (n_significant, >, 10);
  g_assert_cmpuint (n_regressions, ==, n_large + n_significant);

  assert_no_change (same);
}

/* The demo PDH log against a copy whose first counter, CPU 0's
 * % Processor Time, reads 1.5 times as much */
static void
test_pdh (void)
{
  g_autofree char *path = demo_path ("perfmon_4cpu.csv");
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) scaled = g_string_new (NULL);
  g_autoptr(PsEventStore) a = load_demo ("perfmon_4cpu.csv");
  g_autoptr(PsEventStore) b = NULL;
  g_autoptr(PsRunDiff) diff = NULL;
  g_autoptr(PsRunDiff) same = ps_run_diff_new (a, a, NULL);
  const PsRunDiffRow *row;
  guint n_regressions, n_improvements, n_changed;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], "\",\"", 3);
      char *end = NULL;
      double value = cells[0] != NULL && cells[1] != NULL ? g_ascii_strtod (cells[1], &end) : 0;

      /* The header and the first sample (" ", no reading) stay */
      if (end != NULL && end != cells[1] && *end == '\0' && g_strv_length (cells) == 3)
        g_string_append_printf (scaled, "%s\",\"%.6f\",\"%s", cells[0], 1.5 * value, cells[2]);
      else
        g_string_append (scaled, lines[i]);
      if (lines[i + 1] != NULL)
        g_string_append_c (scaled, '\n');
    }
  b = parse_fixture_pieces (&ps_format_pdh_csv, (const guint8 *)scaled->str, scaled->len, 0, 0, NULL);
  diff = ps_run_diff_new (a, b, NULL);

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_COUNTERS);
  row = ps_run_diff_find_row (diff, "\\\\PERF-HOST\\Processor(0)\\% Processor Time", "counter");
  g_assert_nonnull (row);
  g_assert_cmpstr (row->unit, ==, "%");
  g_assert_cmpuint (row->a.count, ==, 239);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 1.5, 1e-6);
  g_assert_cmpfloat (row->p_value, <, 1e-6);
  /* Counters are neither better nor worse */
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_SIGNIFICANT, PS_RUN_DIFF_CHANGED);
  count_changes (diff, &n_regressions, &n_improvements, &n_changed);
  g_assert_cmpuint (n_regressions + n_improvements, ==, 0);
  g_assert_cmpuint (n_changed, ==, 1);

  assert_all_unchanged (same, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT);

  /* A log of counters that never read anything: nothing to compare */
  {
    static const char header_only[] = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\HOST\\Memory\\Available MBytes\"\r\n";
    g_autoptr(PsEventStore) empty = parse (&ps_format_pdh_csv, header_only);
    g_autoptr(PsRunDiff) nothing = ps_run_diff_new (empty, empty, NULL);

    g_assert_cmpuint (nothing->rows->len, ==, 1);
    row = row_at (nothing, 0, "\\\\HOST\\Memory\\Available MBytes");
    g_assert_cmpuint (row->a.count, ==, 0);
    assert_verdict (row, PS_RUN_DIFF_BASIS_SIZE, PS_RUN_DIFF_REASON_NO_VALUE, PS_RUN_DIFF_UNCHANGED);
    g_assert_true (isnan (row->noise_floor));
  }
}

/* Two PLV2 captures of bench/gen-plv2 with different seeds: CPU 0,0 was
 * busier in the second (p = 0.0008); the total's 21 % more is within what
 * its 29 readings vary */
static void
test_plv2 (void)
{
  g_autoptr(PsEventStore) a = load_test_data ("diff", "processor-2cpu-seed7.plv2");
  g_autoptr(PsEventStore) b = load_test_data ("diff", "processor-2cpu-seed8.plv2");
  g_autoptr(PsEventStore) demo = load_demo ("processor_4cpu.plv2");
  g_autoptr(PsRunDiff) diff = ps_run_diff_new (a, b, NULL);
  g_autoptr(PsRunDiff) same = ps_run_diff_new (demo, demo, NULL);
  const PsRunDiffRow *row;

  g_assert_cmpint (diff->matched, ==, PS_RUN_DIFF_MATCH_COUNTERS);
  g_assert_cmpuint (diff->rows->len, ==, 12);
  row = ps_run_diff_find_row (diff, "\\\\GEN-PLV2\\Processor Information(0,0)\\% Processor Time", "counter");
  g_assert_nonnull (row);
  g_assert_cmpuint (row->a.count, ==, 29);
  g_assert_cmpfloat (row->p_value, <, 0.001);
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_SIGNIFICANT, PS_RUN_DIFF_CHANGED);
  row = ps_run_diff_find_row (diff, "\\\\GEN-PLV2\\Processor Information(_Total)\\% Processor Time", "counter");
  g_assert_cmpfloat (row->ratio_mean, >, 1.2);
  g_assert_cmpfloat (row->p_value, >, 0.1);
  assert_verdict (row, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT, PS_RUN_DIFF_UNCHANGED);

  assert_all_unchanged (same, PS_RUN_DIFF_BASIS_TEST, PS_RUN_DIFF_REASON_NOT_SIGNIFICANT);
}

/* A run saved in Perfscope's own format and opened again compares as the
 * file it was read from */
static PsEventStore *
save_and_load (PsEventStore *store,
               const char   *dir,
               const char   *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (ps_native_save (store, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, PS_NATIVE_MAGIC_LENGTH);
  g_assert_cmpmem (contents, PS_NATIVE_MAGIC_LENGTH, PS_NATIVE_MAGIC, PS_NATIVE_MAGIC_LENGTH);
  return parse_fixture_load_file (path, 0);
}

static void
assert_same_diff (PsRunDiff *expected,
                  PsRunDiff *diff)
{
  g_assert_cmpint (diff->matched, ==, expected->matched);
  g_assert_cmpuint (diff->rows->len, ==, expected->rows->len);
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const PsRunDiffRow *want = g_ptr_array_index (expected->rows, i);
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      g_assert_cmpstr (row->name, ==, want->name);
      g_assert_cmpstr (row->unit, ==, want->unit);
      g_assert_cmpint (row->basis, ==, want->basis);
      g_assert_cmpint (row->reason, ==, want->reason);
      g_assert_cmpint (row->change, ==, want->change);
      g_assert_cmpuint (row->a.count, ==, want->a.count);
      g_assert_cmpuint (row->b.count, ==, want->b.count);
      g_assert_true (row->a.sum == want->a.sum || (isnan (row->a.sum) && isnan (want->a.sum)));
      g_assert_true (row->b.sum == want->b.sum || (isnan (row->b.sum) && isnan (want->b.sum)));
      g_assert_true (row->p_value == want->p_value || (isnan (row->p_value) && isnan (want->p_value)));
    }
}

static void
test_saved_runs (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("perfscope-run-diff-XXXXXX", &error);
  const char *pairs[][4] = {
    { "vs-report-csv", "lr2_cc.csv", "vs-report-csv", "lr3_cc.csv" },
    { "pmcstat-callgraph", "shared.txt", "diff", "shared-changed.txt" },
    { "diff", "processor-2cpu-seed7.plv2", "diff", "processor-2cpu-seed8.plv2" },
    { "diff", "run-a.log", "diff", "run-b.log" },
  };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr(PsEventStore) a = load_test_data (pairs[i][0], pairs[i][1]);
      g_autoptr(PsEventStore) b = load_test_data (pairs[i][2], pairs[i][3]);
      g_autoptr(PsEventStore) saved_a = save_and_load (a, dir, "a.perfscope");
      g_autoptr(PsEventStore) saved_b = save_and_load (b, dir, "b.perfscope");
      g_autoptr(PsRunDiff) expected = ps_run_diff_new (a, b, NULL);
      g_autoptr(PsRunDiff) diff = ps_run_diff_new (saved_a, saved_b, NULL);
      g_autoptr(PsRunDiff) mixed = ps_run_diff_new (a, saved_b, NULL);

      assert_same_diff (expected, diff);
      assert_same_diff (expected, mixed);
    }

  {
    g_autofree char *a_path = g_build_filename (dir, "a.perfscope", NULL);
    g_autofree char *b_path = g_build_filename (dir, "b.perfscope", NULL);

    g_unlink (a_path);
    g_unlink (b_path);
    g_rmdir (dir);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-diff/ce/rows", test_ce_rows);
  g_test_add_func ("/run-diff/ce/rename", test_rename);
  g_test_add_func ("/run-diff/ce/sessions", test_sessions);
  g_test_add_func ("/run-diff/ce/thresholds", test_thresholds);
  g_test_add_func ("/run-diff/ce/threshold-boundary", test_threshold_boundary);
  g_test_add_func ("/run-diff/rtl/spans", test_rtl_spans);
  g_test_add_func ("/run-diff/different-formats", test_different_formats);
  g_test_add_func ("/run-diff/nothing-shared", test_nothing_shared);
  g_test_add_func ("/run-diff/size", test_size);
  g_test_add_func ("/run-diff/units-apart", test_units_apart);
  g_test_add_func ("/run-diff/proportion-test", test_proportion_test);
  g_test_add_func ("/run-diff/vs-reports", test_vs_reports);
  g_test_add_func ("/run-diff/pmcstat", test_pmcstat);
  g_test_add_func ("/run-diff/hwpmc", test_hwpmc);
  g_test_add_func ("/run-diff/ce-demo", test_ce_demo);
  g_test_add_func ("/run-diff/rtl-demo", test_rtl_demo);
  g_test_add_func ("/run-diff/pdh", test_pdh);
  g_test_add_func ("/run-diff/plv2", test_plv2);
  g_test_add_func ("/run-diff/saved-runs", test_saved_runs);

  return g_test_run ();
}

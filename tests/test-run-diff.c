/* test-run-diff.c — comparing two runs row by row
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff". CE PerfLog logs made here with a RESOLUTION of
 * 1000 ticks per second, so that DUR [n] is n ms and every expected
 * number can be worked out by hand; an RTL log against a pmcstat -G
 * profile for runs of different formats.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-format.h"
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

  /* Save: the same values in another order: U = n₁n₂/2, p = 1 */
  row = row_at (diff, 1, "Save");
  assert_side (&row->a, 3, 0.020, 0.020, 0.030, 0.060);
  assert_side (&row->b, 3, 0.020, 0.020, 0.030, 0.060);
  g_assert_cmpfloat_with_epsilon (row->delta_mean, 0, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 1, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->p_value, 1.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_UNCHANGED);

  /* Load: 52 → 42 ms, 5 against 5 apart: p = 2/252, an improvement */
  row = row_at (diff, 2, "Load");
  assert_side (&row->a, 5, 0.052, 0.052, 0.054, 0.260);
  assert_side (&row->b, 5, 0.042, 0.042, 0.044, 0.210);
  g_assert_cmpfloat_with_epsilon (row->delta_mean, -0.010, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->ratio_mean, 42.0 / 52.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (row->p_value, 2.0 / 252.0, EPSILON);
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_IMPROVEMENT);

  /* Names on one side only: the other side absent, no delta, no p */
  row = row_at (diff, 3, "OldName");
  g_assert_true (row->has_a);
  g_assert_false (row->has_b);
  g_assert_cmpuint (row->b.count, ==, 0);
  g_assert_true (isnan (row->delta_mean));
  g_assert_true (isnan (row->ratio_mean));
  g_assert_true (isnan (row->p_value));
  g_assert_cmpint (row->change, ==, PS_RUN_DIFF_UNCHANGED);

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
  const struct {
    const char *name;
    guint64     calls;
    double      percent_a;
    double      percent_b;
  } expected[] = {
    { "::main", 1, 100.0 * 140 / 150, 100 },
    { "::A",    1, 100.0 * 75 / 150,  60 },
    { "::B",    3, 100.0 * 55 / 150,  60 },
    { "::C",    1, 100.0 * 40 / 150,  40 },
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
      /* Sampled: no calls */
      g_assert_cmpuint (row->b.count, ==, 0);
      g_assert_cmpfloat_with_epsilon (row->a.sum, expected[i].percent_a, 1e-9);
      g_assert_cmpfloat_with_epsilon (row->b.sum, expected[i].percent_b, 1e-9);
      g_assert_cmpfloat_with_epsilon (row->delta_total, expected[i].percent_b - expected[i].percent_a, 1e-9);
      /* No per-call values: no mean, median or p-value */
      g_assert_true (isnan (row->a.mean));
      g_assert_true (isnan (row->a.median));
      g_assert_true (isnan (row->p_value));
      g_assert_cmpint (row->change, ==, PS_RUN_DIFF_UNCHANGED);
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-diff/ce/rows", test_ce_rows);
  g_test_add_func ("/run-diff/ce/rename", test_rename);
  g_test_add_func ("/run-diff/ce/thresholds", test_thresholds);
  g_test_add_func ("/run-diff/ce/threshold-boundary", test_threshold_boundary);
  g_test_add_func ("/run-diff/rtl/spans", test_rtl_spans);
  g_test_add_func ("/run-diff/different-formats", test_different_formats);
  g_test_add_func ("/run-diff/nothing-shared", test_nothing_shared);

  return g_test_run ();
}

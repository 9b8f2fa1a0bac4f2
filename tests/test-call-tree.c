/* test-call-tree.c — call trees with the four instrumentation values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §5 (the worked example, as probes and as
 * intervals: every table, both percentage bases), §8 items 1, 2, 7 and 12
 * (recursion, an OS event with an empty stack, two threads, 10 000 levels);
 * rtl-logfile.md §6 (the example log's spans as a call tree).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-call-tree.h"
#include "ps-error.h"
#include "ps-folded.h"
#include "ps-loader.h"
#include "ps-store-builder.h"

#define MS (G_GINT64_CONSTANT (1000000))

#define EI PS_CALL_VALUE_ELAPSED_INCLUSIVE
#define EE PS_CALL_VALUE_ELAPSED_EXCLUSIVE
#define AI PS_CALL_VALUE_APPLICATION_INCLUSIVE
#define AE PS_CALL_VALUE_APPLICATION_EXCLUSIVE

static gboolean
value_is_inclusive_for_test (guint value)
{
  return value == EI || value == AI;
}

/* The spec's tables have two decimals */
static double
round2 (double value)
{
  return round (value * 100) / 100;
}

static void
assert_stats (const PsCallStats *stats,
              guint64            calls,
              double             elapsed_inclusive,
              double             elapsed_exclusive,
              double             application_inclusive,
              double             application_exclusive,
              double             unit)
{
  g_assert_nonnull (stats);
  g_assert_cmpuint (stats->calls, ==, calls);
  g_assert_cmpfloat (stats->total[EI], ==, elapsed_inclusive * unit);
  g_assert_cmpfloat (stats->total[EE], ==, elapsed_exclusive * unit);
  g_assert_cmpfloat (stats->total[AI], ==, application_inclusive * unit);
  g_assert_cmpfloat (stats->total[AE], ==, application_exclusive * unit);
}

/* EI %, EE %, AI %, AE % of stats in a basis, to two decimals */
static void
assert_percents (PsCallTree        *tree,
                 const PsCallStats *stats,
                 PsCallBasis        basis,
                 double             elapsed_inclusive,
                 double             elapsed_exclusive,
                 double             application_inclusive,
                 double             application_exclusive)
{
  g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, EI, basis)), ==, elapsed_inclusive);
  g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, EE, basis)), ==, elapsed_exclusive);
  g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, AI, basis)), ==, application_inclusive);
  g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, AE, basis)), ==, application_exclusive);
}

/* The child of a top-down node with the function named name */
static guint32
find_child (PsCallTree *tree,
            guint32     node,
            const char *name)
{
  for (guint i = 0; i < ps_call_tree_get_n_children (tree, node); i++)
    {
      guint32 child = ps_call_tree_get_child (tree, node, i);

      g_assert_cmpuint (ps_call_tree_get_parent (tree, child), ==, node);
      g_assert_cmpuint (ps_call_tree_get_node_depth (tree, child), ==, ps_call_tree_get_node_depth (tree, node) + 1);
      if (g_str_equal (ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, child)), name))
        return child;
    }

  g_error ("no child “%s”", name);
  return PS_NONE;
}

static guint32
find_callers_child (PsCallTree *tree,
                    guint32     node,
                    const char *name)
{
  for (guint i = 0; i < ps_call_tree_get_n_callers_children (tree, node); i++)
    {
      guint32 child = ps_call_tree_get_callers_child (tree, node, i);

      if (g_str_equal (ps_call_tree_get_function_name (tree, ps_call_tree_get_callers_node_function (tree, child)), name))
        return child;
    }

  g_error ("no caller “%s”", name);
  return PS_NONE;
}

static guint32
function_id (PsCallTree *tree,
             const char *name)
{
  guint32 function = ps_call_tree_lookup_function (tree, name);

  g_assert_cmpuint (function, !=, PS_NONE);
  return function;
}

/* Every function's and node's values obey vs-instrumentation.md §3's
 * invariants, and the exclusive values add up to the totals */
static void
assert_invariants (PsCallTree *tree)
{
  double elapsed = 0, application = 0;
  double node_elapsed = 0, node_application = 0;

  for (guint32 f = 0; f < ps_call_tree_get_n_functions (tree); f++)
    {
      const PsCallStats *stats = ps_call_tree_get_function_stats (tree, f);

      g_assert_cmpfloat (stats->total[EE], <=, stats->total[EI]);
      g_assert_cmpfloat (stats->total[AE], <=, stats->total[AI]);
      g_assert_cmpfloat (stats->total[AI], <=, stats->total[EI]);
      g_assert_cmpfloat (stats->total[AE], <=, stats->total[EE]);
      g_assert_cmpfloat (stats->total[EI], <=, ps_call_tree_get_elapsed_total (tree));
      elapsed += stats->total[EE];
      application += stats->total[AE];
    }
  for (guint32 n = 1; n < ps_call_tree_get_n_nodes (tree); n++)
    {
      const PsCallStats *stats = ps_call_tree_get_node_stats (tree, n);

      g_assert_cmpfloat (stats->total[EE], <=, stats->total[EI]);
      g_assert_cmpfloat (stats->total[AI], <=, stats->total[EI]);
      node_elapsed += stats->total[EE];
      node_application += stats->total[AE];
    }

  g_assert_cmpfloat (elapsed, ==, ps_call_tree_get_elapsed_total (tree));
  g_assert_cmpfloat (application, ==, ps_call_tree_get_application_total (tree));
  g_assert_cmpfloat (node_elapsed, ==, ps_call_tree_get_elapsed_total (tree));
  g_assert_cmpfloat (node_application, ==, ps_call_tree_get_application_total (tree));
}

/* ------------------------------------------------------------------------ */
/* The worked example (vs-instrumentation.md §5)                            */

typedef struct
{
  guint32 main_function;
  guint32 a;
  guint32 b;
  guint32 c;
} ExampleFunctions;

static void
intern_example (PsCallTreeBuilder *builder,
                ExampleFunctions  *functions)
{
  functions->main_function = ps_call_tree_builder_intern_function (builder, "main", "demo.exe");
  functions->a = ps_call_tree_builder_intern_function (builder, "A", "demo.exe");
  functions->b = ps_call_tree_builder_intern_function (builder, "B", "demo.exe");
  functions->c = ps_call_tree_builder_intern_function (builder, "C", "demo.exe");
  g_assert_cmpuint (ps_call_tree_builder_intern_function (builder, "B", "demo.exe"), ==, functions->b);
}

/* vs-instrumentation.md §5.1, with the OS events of §5.2 (i3, i7, i10)
 * inside their intervals */
static PsCallTree *
example_from_probes (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  ExampleFunctions f;

  intern_example (builder, &f);
  ps_call_tree_builder_enter (builder, 1, f.main_function, 0 * MS);
  ps_call_tree_builder_enter (builder, 1, f.a, 10 * MS);
  ps_call_tree_builder_enter (builder, 1, f.b, 30 * MS);
  ps_call_tree_builder_os_event (builder, 1);                 /* #3: disk read in B */
  ps_call_tree_builder_leave (builder, 1, 60 * MS);
  ps_call_tree_builder_enter (builder, 1, f.b, 65 * MS);
  ps_call_tree_builder_leave (builder, 1, 80 * MS);
  ps_call_tree_builder_leave (builder, 1, 85 * MS);
  ps_call_tree_builder_os_event (builder, 1);                 /* #7: context switch in main */
  ps_call_tree_builder_enter (builder, 1, f.c, 95 * MS);
  ps_call_tree_builder_enter (builder, 1, f.b, 120 * MS);
  ps_call_tree_builder_leave (builder, 1, 130 * MS);
  ps_call_tree_builder_os_event (builder, 1);                 /* #10: page fault in C */
  ps_call_tree_builder_leave (builder, 1, 135 * MS);
  ps_call_tree_builder_leave (builder, 1, 140 * MS);

  return ps_call_tree_builder_end (builder);
}

/* vs-instrumentation.md §5.2 */
static PsCallTree *
example_from_intervals (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  ExampleFunctions f;
  const guint32 *stacks[11];
  const guint depths[11] = { 1, 2, 3, 2, 3, 2, 1, 2, 3, 2, 1 };
  const gint64 durations[11] = { 10, 20, 30, 5, 15, 5, 10, 25, 10, 5, 5 };
  const gboolean os_events[11] = { FALSE, FALSE, TRUE, FALSE, FALSE, FALSE, TRUE, FALSE, FALSE, TRUE, FALSE };
  guint32 main_a_b[3], main_c_b[3];

  intern_example (builder, &f);
  main_a_b[0] = main_c_b[0] = f.main_function;
  main_a_b[1] = f.a;
  main_c_b[1] = f.c;
  main_a_b[2] = main_c_b[2] = f.b;
  for (guint i = 0; i < 11; i++)
    stacks[i] = i >= 7 && i <= 9 ? main_c_b : main_a_b;

  for (guint i = 0; i < 11; i++)
    ps_call_tree_builder_add_interval (builder, 7, stacks[i], depths[i], durations[i] * MS, os_events[i]);

  return ps_call_tree_builder_end (builder);
}

static void
check_example (PsCallTree *tree)
{
  guint32 main_function = function_id (tree, "main");
  guint32 a = function_id (tree, "A");
  guint32 b = function_id (tree, "B");
  guint32 c = function_id (tree, "C");
  const PsCallStats *stats;
  guint32 main_node, a_node, a_b_node, c_node, c_b_node;

  g_assert_false (ps_call_tree_is_report (tree));
  g_assert_true (ps_call_tree_has_os_events (tree));
  g_assert_true (ps_call_tree_has_top_down (tree));
  g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_NS);
  g_assert_cmpuint (ps_call_tree_get_n_functions (tree), ==, 4);
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, b), ==, "demo.exe");

  /* T_E = 140 ms, T_A = 95 ms */
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 140 * MS);
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 95 * MS);

  /* vs-instrumentation.md §5.3 function summary */
  assert_stats (ps_call_tree_get_function_stats (tree, main_function), 1, 140, 25, 95, 15, MS);
  assert_stats (ps_call_tree_get_function_stats (tree, a), 1, 75, 30, 45, 30, MS);
  assert_stats (ps_call_tree_get_function_stats (tree, b), 3, 55, 55, 25, 25, MS);
  assert_stats (ps_call_tree_get_function_stats (tree, c), 1, 40, 30, 35, 25, MS);

  /* Percentages, view basis (all over T_E) */
  assert_percents (tree, ps_call_tree_get_function_stats (tree, main_function), PS_CALL_BASIS_VIEW, 100.00, 17.86, 67.86, 10.71);
  assert_percents (tree, ps_call_tree_get_function_stats (tree, a), PS_CALL_BASIS_VIEW, 53.57, 21.43, 32.14, 21.43);
  assert_percents (tree, ps_call_tree_get_function_stats (tree, b), PS_CALL_BASIS_VIEW, 39.29, 39.29, 17.86, 17.86);
  assert_percents (tree, ps_call_tree_get_function_stats (tree, c), PS_CALL_BASIS_VIEW, 28.57, 21.43, 25.00, 17.86);

  /* S1 basis: application over T_A, elapsed unchanged */
  assert_percents (tree, ps_call_tree_get_function_stats (tree, main_function), PS_CALL_BASIS_S1, 100.00, 17.86, 100.00, 15.79);
  assert_percents (tree, ps_call_tree_get_function_stats (tree, a), PS_CALL_BASIS_S1, 53.57, 21.43, 47.37, 31.58);
  assert_percents (tree, ps_call_tree_get_function_stats (tree, b), PS_CALL_BASIS_S1, 39.29, 39.29, 26.32, 26.32);
  assert_percents (tree, ps_call_tree_get_function_stats (tree, c), PS_CALL_BASIS_S1, 28.57, 21.43, 36.84, 26.32);

  /* Per-call statistics of B: EI per call 30, 15, 10; AI 0, 15, 10 */
  stats = ps_call_tree_get_function_stats (tree, b);
  g_assert_cmpfloat (round2 (stats->avg[EI] / MS), ==, 18.33);
  g_assert_cmpfloat (stats->min[EI], ==, 10 * MS);
  g_assert_cmpfloat (stats->max[EI], ==, 30 * MS);
  g_assert_cmpfloat (round2 (stats->avg[EE] / MS), ==, 18.33);
  g_assert_cmpfloat (stats->min[EE], ==, 10 * MS);
  g_assert_cmpfloat (stats->max[EE], ==, 30 * MS);
  g_assert_cmpfloat (round2 (stats->avg[AI] / MS), ==, 8.33);
  g_assert_cmpfloat (stats->min[AI], ==, 0);
  g_assert_cmpfloat (stats->max[AI], ==, 15 * MS);
  g_assert_cmpfloat (round2 (stats->avg[AE] / MS), ==, 8.33);
  g_assert_cmpfloat (stats->min[AE], ==, 0);
  g_assert_cmpfloat (stats->max[AE], ==, 15 * MS);
  g_assert_true (isnan (stats->given_percent[EI]));
  /* One call: Avg = Min = Max = total */
  stats = ps_call_tree_get_function_stats (tree, c);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      g_assert_cmpfloat (stats->min[v], ==, stats->total[v]);
      g_assert_cmpfloat (stats->avg[v], ==, stats->total[v]);
      g_assert_cmpfloat (stats->max[v], ==, stats->total[v]);
    }

  /* vs-instrumentation.md §5.4 call tree: the root, then every path */
  stats = ps_call_tree_get_node_stats (tree, PS_CALL_NODE_ROOT);
  assert_stats (stats, 0, 140, 0, 95, 0, MS);
  g_assert_cmpuint (ps_call_tree_get_parent (tree, PS_CALL_NODE_ROOT), ==, PS_NONE);
  g_assert_cmpuint (ps_call_tree_get_node_function (tree, PS_CALL_NODE_ROOT), ==, PS_NONE);
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, PS_CALL_NODE_ROOT), ==, 1);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (tree), ==, 6);

  main_node = find_child (tree, PS_CALL_NODE_ROOT, "main");
  a_node = find_child (tree, main_node, "A");
  a_b_node = find_child (tree, a_node, "B");
  c_node = find_child (tree, main_node, "C");
  c_b_node = find_child (tree, c_node, "B");
  /* Children in the order first seen */
  g_assert_cmpuint (ps_call_tree_get_child (tree, main_node, 0), ==, a_node);
  g_assert_cmpuint (ps_call_tree_get_child (tree, main_node, 1), ==, c_node);
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, a_b_node), ==, 0);
  g_assert_cmpuint (ps_call_tree_get_node_depth (tree, c_b_node), ==, 3);

  assert_stats (ps_call_tree_get_node_stats (tree, main_node), 1, 140, 25, 95, 15, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, a_node), 1, 75, 30, 45, 30, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, a_b_node), 2, 45, 45, 15, 15, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, c_node), 1, 40, 30, 35, 25, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, c_b_node), 1, 10, 10, 10, 10, MS);

  /* EI %, EE %, AI % (T_E), AI % (T_A) of vs-instrumentation.md §5.4 */
  {
    const struct { guint32 node; double ei, ee, ai_te, ai_ta; } rows[] = {
      { main_node, 100.00, 17.86, 67.86, 100.00 },
      { a_node,     53.57, 21.43, 32.14,  47.37 },
      { a_b_node,   32.14, 32.14, 10.71,  15.79 },
      { c_node,     28.57, 21.43, 25.00,  36.84 },
      { c_b_node,    7.14,  7.14,  7.14,  10.53 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      {
        stats = ps_call_tree_get_node_stats (tree, rows[i].node);
        for (PsCallBasis basis = PS_CALL_BASIS_S1; basis <= PS_CALL_BASIS_VIEW; basis++)
          {
            g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, EI, basis)), ==, rows[i].ei);
            g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, EE, basis)), ==, rows[i].ee);
          }
        g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, AI, PS_CALL_BASIS_VIEW)), ==, rows[i].ai_te);
        g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, stats, AI, PS_CALL_BASIS_S1)), ==, rows[i].ai_ta);
      }
  }

  /* Avg EI of main › A › B = 22.50, per call 30 and 15 */
  stats = ps_call_tree_get_node_stats (tree, a_b_node);
  g_assert_cmpfloat (stats->avg[EI], ==, 22.5 * MS);
  g_assert_cmpfloat (stats->min[EI], ==, 15 * MS);
  g_assert_cmpfloat (stats->max[EI], ==, 30 * MS);

  /* Callers of B: A (2 calls, 45) and C (1 call, 10), summing to B */
  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, b);
    const PsCallRelation *first, *second;

    g_assert_cmpuint (callers->len, ==, 2);
    first = &g_array_index (callers, PsCallRelation, 0);
    second = &g_array_index (callers, PsCallRelation, 1);
    g_assert_cmpuint (first->function, ==, a);
    assert_stats (&first->stats, 2, 45, 45, 15, 15, MS);
    g_assert_cmpfloat (first->stats.avg[EI], ==, 22.5 * MS);
    g_assert_cmpuint (second->function, ==, c);
    assert_stats (&second->stats, 1, 10, 10, 10, 10, MS);
    g_assert_cmpuint (first->stats.calls + second->stats.calls, ==, ps_call_tree_get_function_stats (tree, b)->calls);
    g_assert_cmpfloat (first->stats.total[EI] + second->stats.total[EI], ==, 55 * MS);
  }

  /* main is an entry point */
  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, main_function);

    g_assert_cmpuint (callers->len, ==, 1);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, PS_NONE);
    assert_stats (&g_array_index (callers, PsCallRelation, 0).stats, 1, 140, 25, 95, 15, MS);
  }

  /* Callees of A: B twice; of main: A, then C (largest first); B has none */
  {
    g_autoptr(GArray) callees = ps_call_tree_get_callees (tree, a);
    g_autoptr(GArray) main_callees = ps_call_tree_get_callees (tree, main_function);
    g_autoptr(GArray) b_callees = ps_call_tree_get_callees (tree, b);

    g_assert_cmpuint (callees->len, ==, 1);
    g_assert_cmpuint (g_array_index (callees, PsCallRelation, 0).function, ==, b);
    assert_stats (&g_array_index (callees, PsCallRelation, 0).stats, 2, 45, 45, 15, 15, MS);

    g_assert_cmpuint (main_callees->len, ==, 2);
    g_assert_cmpuint (g_array_index (main_callees, PsCallRelation, 0).function, ==, a);
    assert_stats (&g_array_index (main_callees, PsCallRelation, 0).stats, 1, 75, 30, 45, 30, MS);
    g_assert_cmpuint (g_array_index (main_callees, PsCallRelation, 1).function, ==, c);
    assert_stats (&g_array_index (main_callees, PsCallRelation, 1).stats, 1, 40, 30, 35, 25, MS);

    g_assert_cmpuint (b_callees->len, ==, 0);
  }

  /* Bottom-up: the functions under the root, B's callers below B */
  {
    guint32 b_root, via_a, via_c, main_via_a, main_via_c;

    g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, PS_CALL_NODE_ROOT), ==, 4);
    g_assert_cmpuint (ps_call_tree_get_callers_node_function (tree, PS_CALL_NODE_ROOT), ==, PS_NONE);
    assert_stats (ps_call_tree_get_callers_node_stats (tree, PS_CALL_NODE_ROOT), 0, 140, 0, 95, 0, MS);

    b_root = find_callers_child (tree, PS_CALL_NODE_ROOT, "B");
    g_assert_cmpuint (ps_call_tree_get_callers_node_function (tree, b_root), ==, b);
    assert_stats (ps_call_tree_get_callers_node_stats (tree, b_root), 3, 55, 55, 25, 25, MS);
    g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, b_root), ==, 2);

    via_a = find_callers_child (tree, b_root, "A");
    via_c = find_callers_child (tree, b_root, "C");
    assert_stats (ps_call_tree_get_callers_node_stats (tree, via_a), 2, 45, 45, 15, 15, MS);
    assert_stats (ps_call_tree_get_callers_node_stats (tree, via_c), 1, 10, 10, 10, 10, MS);

    g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, via_a), ==, 1);
    main_via_a = find_callers_child (tree, via_a, "main");
    assert_stats (ps_call_tree_get_callers_node_stats (tree, main_via_a), 2, 45, 45, 15, 15, MS);
    g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, main_via_a), ==, 0);
    main_via_c = find_callers_child (tree, via_c, "main");
    assert_stats (ps_call_tree_get_callers_node_stats (tree, main_via_c), 1, 10, 10, 10, 10, MS);

    /* main is only ever called from the top */
    g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, find_callers_child (tree, PS_CALL_NODE_ROOT, "main")), ==, 0);
  }

  assert_invariants (tree);
}

static void
test_example_probes (void)
{
  g_autoptr(PsCallTree) tree = example_from_probes ();

  check_example (tree);
}

/* Stats copied node by node are those the tree keeps, read before and
 * after the tree made its own */
static void
test_copy_node_stats (void)
{
  g_autoptr(PsCallTree) tree = example_from_probes ();
  guint n = ps_call_tree_get_n_nodes (tree);

  g_assert_cmpuint (n, >, 2);
  for (guint pass = 0; pass < 2; pass++)
    for (guint32 node = 0; node < n; node++)
      {
        PsCallStats copy;
        const PsCallStats *kept;

        ps_call_tree_copy_node_stats (tree, node, &copy);
        kept = ps_call_tree_get_node_stats (tree, node);
        g_assert_cmpuint (copy.calls, ==, kept->calls);
        for (guint v = 0; v < PS_N_CALL_VALUES; v++)
          {
            g_assert_cmpfloat (copy.total[v], ==, kept->total[v]);
            g_assert_cmpfloat (copy.min[v], ==, kept->min[v]);
            g_assert_cmpfloat (copy.avg[v], ==, kept->avg[v]);
            g_assert_cmpfloat (copy.max[v], ==, kept->max[v]);
            g_assert_true (isnan (copy.given_percent[v]) && isnan (kept->given_percent[v]));
          }
      }
}

static void
test_example_intervals (void)
{
  g_autoptr(PsCallTree) tree = example_from_intervals ();

  check_example (tree);
}

/* Several threads reading a shared tree: the lazily made parts (node stats,
 * the bottom-up tree, the function index) come out the same */
typedef struct
{
  PsCallTree *tree;
  double      sum;
} ReaderData;

static gpointer
read_everything (gpointer data)
{
  ReaderData *reader = data;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 root = PS_CALL_NODE_ROOT;

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint32 node = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      reader->sum += ps_call_tree_get_callers_node_stats (reader->tree, node)->total[EI];
      for (guint i = 0; i < ps_call_tree_get_n_callers_children (reader->tree, node); i++)
        {
          guint32 child = ps_call_tree_get_callers_child (reader->tree, node, i);

          g_array_append_val (stack, child);
        }
    }
  for (guint32 n = 0; n < ps_call_tree_get_n_nodes (reader->tree); n++)
    reader->sum += ps_call_tree_get_node_stats (reader->tree, n)->total[EE];
  for (guint32 f = 0; f < ps_call_tree_get_n_functions (reader->tree); f++)
    {
      g_autoptr(GArray) callers = ps_call_tree_get_callers (reader->tree, f);

      reader->sum += callers->len;
    }

  return NULL;
}

static void
test_threads_reading (void)
{
  g_autoptr(PsCallTree) tree = example_from_probes ();
  ReaderData readers[4] = { { 0 } };
  GThread *threads[4];

  for (guint i = 0; i < 4; i++)
    {
      readers[i].tree = tree;
      threads[i] = g_thread_new ("reader", read_everything, &readers[i]);
    }
  for (guint i = 0; i < 4; i++)
    g_thread_join (threads[i]);

  /* Bottom-up EI: root 140, functions 140 + 75 + 55 + 40, B's callers 45 + 10
   * and theirs 45 + 10, A's caller 75, C's 40; node EE 140; 5 caller rows */
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (readers[i].sum, ==, (140 + 310 + 55 + 55 + 75 + 40) * MS + 140 * MS + 5);
}

/* ------------------------------------------------------------------------ */
/* Recursion, OS events, threads (vs-instrumentation.md §8 item 12)         */

/* A calls A: the summary counts each interval once */
static void
test_recursion (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", NULL);
  g_autoptr(PsCallTree) tree = NULL;
  const PsCallStats *stats;
  guint32 outer, inner;

  ps_call_tree_builder_enter (builder, 0, a, 0);
  ps_call_tree_builder_enter (builder, 0, a, 10);
  ps_call_tree_builder_leave (builder, 0, 30);
  ps_call_tree_builder_leave (builder, 0, 40);
  tree = ps_call_tree_builder_end (builder);

  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 40);
  g_assert_false (ps_call_tree_has_os_events (tree));
  stats = ps_call_tree_get_function_stats (tree, a);
  assert_stats (stats, 2, 40, 40, 40, 40, 1);
  g_assert_cmpfloat (ps_call_tree_get_percent (tree, stats, EI, PS_CALL_BASIS_S1), <=, 100);
  g_assert_cmpfloat (ps_call_tree_get_percent (tree, stats, EI, PS_CALL_BASIS_S1), ==, 100);
  g_assert_cmpfloat (ps_call_tree_get_percent (tree, stats, AI, PS_CALL_BASIS_VIEW), ==, 100);
  /* Per call: the outer call 40, the inner one 20; avg = total / calls */
  g_assert_cmpfloat (stats->min[EI], ==, 20);
  g_assert_cmpfloat (stats->max[EI], ==, 40);
  g_assert_cmpfloat (stats->avg[EI], ==, 20);
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, a), ==, "");

  /* The top-down tree has a node per path */
  outer = find_child (tree, PS_CALL_NODE_ROOT, "A");
  inner = find_child (tree, outer, "A");
  assert_stats (ps_call_tree_get_node_stats (tree, outer), 1, 40, 20, 40, 20, 1);
  assert_stats (ps_call_tree_get_node_stats (tree, inner), 1, 20, 20, 20, 20, 1);

  /* Callers count the outermost call only; A is its own callee */
  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, a);
    g_autoptr(GArray) callees = ps_call_tree_get_callees (tree, a);

    g_assert_cmpuint (callers->len, ==, 1);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, PS_NONE);
    assert_stats (&g_array_index (callers, PsCallRelation, 0).stats, 1, 40, 20, 40, 20, 1);
    g_assert_cmpuint (callees->len, ==, 1);
    g_assert_cmpuint (g_array_index (callees, PsCallRelation, 0).function, ==, a);
    g_assert_cmpfloat (g_array_index (callees, PsCallRelation, 0).stats.total[EI], ==, 20);
  }

  /* Bottom-up: A once, with the summary's values and no callers */
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, PS_CALL_NODE_ROOT), ==, 1);
  assert_stats (ps_call_tree_get_callers_node_stats (tree, ps_call_tree_get_callers_child (tree, PS_CALL_NODE_ROOT, 0)),
                2, 40, 40, 40, 40, 1);
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, ps_call_tree_get_callers_child (tree, PS_CALL_NODE_ROOT, 0)), ==, 0);

  assert_invariants (tree);
}

/* A calls B calls A: A's inclusive time counts once, its exclusive time in
 * both calls; B sees A as caller and callee */
static void
test_indirect_recursion (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", NULL);
  guint32 b = ps_call_tree_builder_intern_function (builder, "B", NULL);
  g_autoptr(PsCallTree) tree = NULL;
  guint32 b_root, a_under_b;

  ps_call_tree_builder_enter (builder, 0, a, 0);
  ps_call_tree_builder_enter (builder, 0, b, 10);
  ps_call_tree_builder_enter (builder, 0, a, 20);
  ps_call_tree_builder_leave (builder, 0, 80);
  ps_call_tree_builder_leave (builder, 0, 90);
  ps_call_tree_builder_leave (builder, 0, 100);
  tree = ps_call_tree_builder_end (builder);

  assert_stats (ps_call_tree_get_function_stats (tree, a), 2, 100, 80, 100, 80, 1);
  assert_stats (ps_call_tree_get_function_stats (tree, b), 1, 80, 20, 80, 20, 1);

  {
    g_autoptr(GArray) b_callers = ps_call_tree_get_callers (tree, b);
    g_autoptr(GArray) b_callees = ps_call_tree_get_callees (tree, b);
    g_autoptr(GArray) a_callers = ps_call_tree_get_callers (tree, a);

    g_assert_cmpuint (b_callers->len, ==, 1);
    g_assert_cmpuint (g_array_index (b_callers, PsCallRelation, 0).function, ==, a);
    assert_stats (&g_array_index (b_callers, PsCallRelation, 0).stats, 1, 80, 20, 80, 20, 1);
    g_assert_cmpuint (b_callees->len, ==, 1);
    g_assert_cmpuint (g_array_index (b_callees, PsCallRelation, 0).function, ==, a);
    assert_stats (&g_array_index (b_callees, PsCallRelation, 0).stats, 1, 60, 60, 60, 60, 1);
    /* Only the outermost A: called from the top */
    g_assert_cmpuint (a_callers->len, ==, 1);
    g_assert_cmpuint (g_array_index (a_callers, PsCallRelation, 0).function, ==, PS_NONE);
  }

  b_root = find_callers_child (tree, PS_CALL_NODE_ROOT, "B");
  a_under_b = find_callers_child (tree, b_root, "A");
  assert_stats (ps_call_tree_get_callers_node_stats (tree, a_under_b), 1, 80, 20, 80, 20, 1);
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, a_under_b), ==, 0);

  assert_invariants (tree);
}

/* An interval with an empty stack counts nowhere, OS event or not */
static void
test_os_event_empty_stack (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", NULL);
  g_autoptr(PsCallTree) tree = NULL;

  ps_call_tree_builder_os_event (builder, 3);        /* before any probe: no interval */
  ps_call_tree_builder_enter (builder, 3, a, 0);
  ps_call_tree_builder_leave (builder, 3, 10);
  ps_call_tree_builder_os_event (builder, 3);        /* 10–20, nothing on the stack */
  ps_call_tree_builder_enter (builder, 3, a, 20);
  ps_call_tree_builder_leave (builder, 3, 30);
  ps_call_tree_builder_leave (builder, 3, 35);       /* nothing to leave */
  tree = ps_call_tree_builder_end (builder);

  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 20);
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 20);
  g_assert_false (ps_call_tree_has_os_events (tree));
  assert_stats (ps_call_tree_get_function_stats (tree, a), 2, 20, 20, 20, 20, 1);
  assert_invariants (tree);

  /* The same as intervals */
  {
    PsCallTreeBuilder *intervals = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
    guint32 stack[1];
    g_autoptr(PsCallTree) interval_tree = NULL;

    stack[0] = ps_call_tree_builder_intern_function (intervals, "A", NULL);
    ps_call_tree_builder_add_interval (intervals, 0, stack, 1, 10, FALSE);
    ps_call_tree_builder_add_interval (intervals, 0, NULL, 0, 10, TRUE);
    ps_call_tree_builder_add_interval (intervals, 0, stack, 1, 10, FALSE);
    interval_tree = ps_call_tree_builder_end (intervals);

    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (interval_tree), ==, 20);
    g_assert_cmpfloat (ps_call_tree_get_application_total (interval_tree), ==, 20);
    g_assert_false (ps_call_tree_has_os_events (interval_tree));
    /* The empty stack ended the first call */
    assert_stats (ps_call_tree_get_function_stats (interval_tree, 0), 2, 20, 20, 20, 20, 1);
    g_assert_cmpfloat (ps_call_tree_get_function_stats (interval_tree, 0)->max[EI], ==, 10);
  }
}

/* Two threads with interleaved probes: separate stacks, totals add up */
static void
test_two_threads (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", NULL);
  guint32 b = ps_call_tree_builder_intern_function (builder, "B", NULL);
  g_autoptr(PsCallTree) tree = NULL;
  guint32 a_node;

  ps_call_tree_builder_enter (builder, 100, a, 0);
  ps_call_tree_builder_enter (builder, 200, a, 5);
  ps_call_tree_builder_os_event (builder, 200);       /* thread 200: 5–25 */
  ps_call_tree_builder_enter (builder, 100, b, 20);
  ps_call_tree_builder_enter (builder, 200, b, 25);
  ps_call_tree_builder_leave (builder, 200, 35);
  ps_call_tree_builder_leave (builder, 200, 45);
  ps_call_tree_builder_leave (builder, 100, 50);
  ps_call_tree_builder_leave (builder, 100, 100);
  tree = ps_call_tree_builder_end (builder);

  /* Thread 100: 100 elapsed; thread 200: 40, of which 20 with an OS event */
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 140);
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 120);
  g_assert_true (ps_call_tree_has_os_events (tree));
  /* A was open on both threads at once: both calls are outermost */
  assert_stats (ps_call_tree_get_function_stats (tree, a), 2, 140, 100, 120, 80, 1);
  assert_stats (ps_call_tree_get_function_stats (tree, b), 2, 40, 40, 40, 40, 1);
  a_node = find_child (tree, PS_CALL_NODE_ROOT, "A");
  assert_stats (ps_call_tree_get_node_stats (tree, a_node), 2, 140, 100, 120, 80, 1);
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, a_node, "B")), 2, 40, 40, 40, 40, 1);
  g_assert_cmpfloat (ps_call_tree_get_node_stats (tree, a_node)->min[EI], ==, 40);
  g_assert_cmpfloat (ps_call_tree_get_node_stats (tree, a_node)->max[EI], ==, 100);
  assert_invariants (tree);
}

/* Calls still open at the end close at their thread's last probe */
static void
test_open_at_end (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", NULL);
  guint32 b = ps_call_tree_builder_intern_function (builder, "B", NULL);
  g_autoptr(PsCallTree) tree = NULL;

  ps_call_tree_builder_enter (builder, 0, a, 0);
  ps_call_tree_builder_enter (builder, 0, b, 10);
  ps_call_tree_builder_enter (builder, 0, a, 15);
  /* The clock going back gives an empty interval */
  ps_call_tree_builder_enter (builder, 0, b, 12);
  tree = ps_call_tree_builder_end (builder);

  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 15);
  assert_stats (ps_call_tree_get_function_stats (tree, a), 2, 15, 10, 15, 10, 1);
  assert_stats (ps_call_tree_get_function_stats (tree, b), 2, 5, 5, 5, 5, 1);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (tree), ==, 5);
  assert_invariants (tree);
}

/* ------------------------------------------------------------------------ */
/* Samples                                                                  */

static void
test_samples (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_SAMPLES);
  guint32 main_function = ps_call_tree_builder_intern_function (builder, "main", "app");
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", "app");
  guint32 b = ps_call_tree_builder_intern_function (builder, "B", "libb.so");
  g_autoptr(PsCallTree) tree = NULL;
  guint32 main_node, a_node, b_node;

  ps_call_tree_builder_add_sample (builder, (guint32[]) { main_function, a, b }, 3, 3, FALSE);
  ps_call_tree_builder_add_sample (builder, (guint32[]) { main_function, a }, 2, 2, TRUE);
  ps_call_tree_builder_add_sample (builder, (guint32[]) { main_function, b, b }, 3, 1, FALSE);
  ps_call_tree_builder_add_sample (builder, (guint32[]) { main_function }, 1, 4, FALSE);
  ps_call_tree_builder_add_sample (builder, NULL, 0, 5, TRUE);   /* counts nowhere */
  tree = ps_call_tree_builder_end (builder);

  g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_SAMPLES);
  g_assert_true (ps_call_tree_has_os_events (tree));
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 10);
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 8);

  assert_stats (ps_call_tree_get_function_stats (tree, main_function), 0, 10, 4, 8, 4, 1);
  assert_stats (ps_call_tree_get_function_stats (tree, a), 0, 5, 2, 3, 0, 1);
  /* B,B counts once */
  assert_stats (ps_call_tree_get_function_stats (tree, b), 0, 4, 4, 4, 4, 1);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, b)->min[v], ==, 0);
      g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, b)->avg[v], ==, 0);
      g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, b)->max[v], ==, 0);
    }

  main_node = find_child (tree, PS_CALL_NODE_ROOT, "main");
  a_node = find_child (tree, main_node, "A");
  b_node = find_child (tree, main_node, "B");
  assert_stats (ps_call_tree_get_node_stats (tree, main_node), 0, 10, 4, 8, 4, 1);
  assert_stats (ps_call_tree_get_node_stats (tree, a_node), 0, 5, 2, 3, 0, 1);
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, a_node, "B")), 0, 3, 3, 3, 3, 1);
  assert_stats (ps_call_tree_get_node_stats (tree, b_node), 0, 1, 0, 1, 0, 1);
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, b_node, "B")), 0, 1, 1, 1, 1, 1);

  /* Kernel samples are the OS-event case of the S1 basis */
  g_assert_cmpfloat (ps_call_tree_get_percent (tree, ps_call_tree_get_node_stats (tree, a_node), AI, PS_CALL_BASIS_S1), ==, 37.5);
  g_assert_cmpfloat (ps_call_tree_get_percent (tree, ps_call_tree_get_node_stats (tree, a_node), AI, PS_CALL_BASIS_VIEW), ==, 30);

  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, b);

    g_assert_cmpuint (callers->len, ==, 2);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, a);
    g_assert_cmpfloat (g_array_index (callers, PsCallRelation, 0).stats.total[EI], ==, 3);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 1).function, ==, main_function);
    g_assert_cmpfloat (g_array_index (callers, PsCallRelation, 1).stats.total[EI], ==, 1);
  }

  assert_invariants (tree);
}

/* ------------------------------------------------------------------------ */
/* Reports                                                                  */

static PsCallStats
given_row (guint64 calls,
           double  elapsed_inclusive_percent,
           double  elapsed_exclusive_percent,
           double  average_elapsed_inclusive,
           double  average_elapsed_exclusive)
{
  PsCallStats stats;

  stats.calls = calls;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    stats.total[v] = stats.min[v] = stats.avg[v] = stats.max[v] = stats.given_percent[v] = NAN;
  stats.given_percent[EI] = elapsed_inclusive_percent;
  stats.given_percent[EE] = elapsed_exclusive_percent;
  stats.avg[EI] = average_elapsed_inclusive;
  stats.avg[EE] = average_elapsed_exclusive;
  return stats;
}

/* The illustrative CSV of vs-instrumentation.md §5.4 (the IDE's column
 * subset, a level-0 process row) */
static void
test_report_tree (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_MS);
  guint32 process = ps_call_tree_builder_intern_function (builder, "demo.exe", "");
  guint32 main_function = ps_call_tree_builder_intern_function (builder, "main", "demo.exe");
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", "demo.exe");
  guint32 b = ps_call_tree_builder_intern_function (builder, "B", "demo.exe");
  guint32 c = ps_call_tree_builder_intern_function (builder, "C", "demo.exe");
  g_autoptr(PsCallTree) tree = NULL;
  guint32 level0, main_node, a_node, a_b_node, c_node, c_b_node;
  PsCallStats row;
  const PsCallStats *stats;

  row = given_row (0, 100.00, 0.00, 0.00, 0.00);
  level0 = ps_call_tree_builder_add_node (builder, PS_CALL_NODE_ROOT, process, &row);
  row = given_row (1, 100.00, 17.86, 140.00, 25.00);
  main_node = ps_call_tree_builder_add_node (builder, level0, main_function, &row);
  row = given_row (1, 53.57, 21.43, 75.00, 30.00);
  a_node = ps_call_tree_builder_add_node (builder, main_node, a, &row);
  row = given_row (2, 32.14, 32.14, 22.50, 22.50);
  a_b_node = ps_call_tree_builder_add_node (builder, a_node, b, &row);
  row = given_row (1, 28.57, 21.43, 40.00, 30.00);
  c_node = ps_call_tree_builder_add_node (builder, main_node, c, &row);
  row = given_row (1, 7.14, 7.14, 10.00, 10.00);
  c_b_node = ps_call_tree_builder_add_node (builder, c_node, b, &row);
  tree = ps_call_tree_builder_end (builder);

  g_assert_true (ps_call_tree_is_report (tree));
  g_assert_true (ps_call_tree_has_top_down (tree));
  g_assert_false (ps_call_tree_has_os_events (tree));
  g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_MS);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (tree), ==, 7);

  /* The same tree and averages, percentages as given in either basis */
  g_assert_cmpuint (find_child (tree, PS_CALL_NODE_ROOT, "demo.exe"), ==, level0);
  g_assert_cmpuint (find_child (tree, level0, "main"), ==, main_node);
  g_assert_cmpuint (find_child (tree, main_node, "A"), ==, a_node);
  g_assert_cmpuint (find_child (tree, a_node, "B"), ==, a_b_node);
  g_assert_cmpuint (find_child (tree, main_node, "C"), ==, c_node);
  g_assert_cmpuint (find_child (tree, c_node, "B"), ==, c_b_node);
  g_assert_cmpuint (ps_call_tree_get_node_depth (tree, c_b_node), ==, 4);

  stats = ps_call_tree_get_node_stats (tree, a_b_node);
  g_assert_cmpuint (stats->calls, ==, 2);
  g_assert_cmpfloat (stats->avg[EI], ==, 22.5);
  g_assert_true (isnan (stats->total[EI]));
  g_assert_true (isnan (stats->min[EI]));
  for (PsCallBasis basis = PS_CALL_BASIS_S1; basis <= PS_CALL_BASIS_VIEW; basis++)
    {
      g_assert_cmpfloat (ps_call_tree_get_percent (tree, stats, EI, basis), ==, 32.14);
      g_assert_cmpfloat (ps_call_tree_get_percent (tree, stats, EE, basis), ==, 32.14);
      /* A column the report did not have */
      g_assert_true (isnan (ps_call_tree_get_percent (tree, stats, AI, basis)));
      g_assert_cmpfloat (ps_call_tree_get_percent (tree, ps_call_tree_get_node_stats (tree, main_node), EE, basis), ==, 17.86);
      g_assert_cmpfloat (ps_call_tree_get_percent (tree, ps_call_tree_get_node_stats (tree, c_b_node), EI, basis), ==, 7.14);
    }
  g_assert_cmpfloat (ps_call_tree_get_node_stats (tree, c_node)->avg[EE], ==, 30);

  /* Functions: the sum of their nodes, totals from avg × calls */
  stats = ps_call_tree_get_function_stats (tree, b);
  g_assert_cmpuint (stats->calls, ==, 3);
  g_assert_cmpfloat (stats->total[EI], ==, 55);
  g_assert_cmpfloat (stats->total[EE], ==, 55);
  g_assert_cmpfloat (round2 (stats->avg[EI]), ==, 18.33);
  g_assert_cmpfloat (round2 (stats->given_percent[EI]), ==, 39.28);  /* 32.14 + 7.14 */
  g_assert_true (isnan (stats->total[AI]));
  g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, main_function)->total[EI], ==, 140);

  /* T_E: the sum of the exclusive values */
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 140);
  g_assert_true (isnan (ps_call_tree_get_application_total (tree)));
  g_assert_cmpfloat (ps_call_tree_get_node_stats (tree, PS_CALL_NODE_ROOT)->total[EI], ==, 140);

  /* Callers and callees derived from the tree */
  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, b);
    g_autoptr(GArray) callees = ps_call_tree_get_callees (tree, main_function);
    g_autoptr(GArray) main_callers = ps_call_tree_get_callers (tree, main_function);

    g_assert_cmpuint (callers->len, ==, 2);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, a);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).stats.calls, ==, 2);
    g_assert_cmpfloat (g_array_index (callers, PsCallRelation, 0).stats.total[EI], ==, 45);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 1).function, ==, c);
    g_assert_cmpfloat (g_array_index (callers, PsCallRelation, 1).stats.total[EI], ==, 10);

    g_assert_cmpuint (callees->len, ==, 2);
    g_assert_cmpuint (g_array_index (callees, PsCallRelation, 0).function, ==, a);
    g_assert_cmpuint (g_array_index (callees, PsCallRelation, 1).function, ==, c);
    g_assert_cmpfloat (g_array_index (callees, PsCallRelation, 1).stats.given_percent[EI], ==, 28.57);

    g_assert_cmpuint (main_callers->len, ==, 1);
    g_assert_cmpuint (g_array_index (main_callers, PsCallRelation, 0).function, ==, process);
  }

  /* Bottom-up B ← A ← main ← demo.exe */
  {
    guint32 b_root = find_callers_child (tree, PS_CALL_NODE_ROOT, "B");
    guint32 via_a = find_callers_child (tree, b_root, "A");
    guint32 via_main = find_callers_child (tree, via_a, "main");
    guint32 via_process = find_callers_child (tree, via_main, "demo.exe");

    g_assert_cmpfloat (ps_call_tree_get_callers_node_stats (tree, b_root)->total[EI], ==, 55);
    g_assert_cmpfloat (ps_call_tree_get_callers_node_stats (tree, via_process)->total[EI], ==, 45);
    g_assert_cmpfloat (ps_call_tree_get_callers_node_stats (tree, via_process)->given_percent[EI], ==, 32.14);
    g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, via_process), ==, 0);
  }
}

/* A caller/callee report: function rows, callers and callees as given,
 * and its totals */
static void
test_report_caller_callee (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_TICKS);
  guint32 main_function = ps_call_tree_builder_intern_function (builder, "main", "x.exe");
  guint32 a = ps_call_tree_builder_intern_function (builder, "A", "x.exe");
  guint32 b = ps_call_tree_builder_intern_function (builder, "B", "x.exe");
  guint32 c = ps_call_tree_builder_intern_function (builder, "C", "x.exe");
  g_autoptr(PsCallTree) tree = NULL;
  PsCallStats row;

  memset (&row, 0, sizeof row);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    row.given_percent[v] = NAN;

  row.calls = 3;
  row.total[EI] = row.total[EE] = 55;
  row.total[AI] = row.total[AE] = 25;
  row.given_percent[EI] = 39.29;
  ps_call_tree_builder_set_function (builder, b, &row);
  row.calls = 2;
  row.total[EI] = row.total[EE] = 45;
  row.total[AI] = row.total[AE] = 15;
  row.given_percent[EI] = 32.14;
  ps_call_tree_builder_add_caller (builder, b, a, &row);
  row.calls = 1;
  row.total[EI] = row.total[EE] = 10;
  row.total[AI] = row.total[AE] = 10;
  row.given_percent[EI] = 7.14;
  ps_call_tree_builder_add_caller (builder, b, c, &row);

  row.calls = 1;
  row.total[EI] = 75;
  row.total[EE] = 30;
  row.total[AI] = 45;
  row.total[AE] = 30;
  row.given_percent[EI] = 53.57;
  ps_call_tree_builder_set_function (builder, a, &row);
  row.total[EI] = 140;
  row.total[AI] = 95;
  ps_call_tree_builder_add_caller (builder, a, main_function, &row);
  row.calls = 2;
  row.total[EI] = row.total[EE] = 45;
  row.total[AI] = row.total[AE] = 15;
  ps_call_tree_builder_add_callee (builder, a, b, &row);
  ps_call_tree_builder_set_totals (builder, 140, 95);
  tree = ps_call_tree_builder_end (builder);

  g_assert_true (ps_call_tree_is_report (tree));
  g_assert_false (ps_call_tree_has_top_down (tree));
  g_assert_true (ps_call_tree_has_os_events (tree));
  g_assert_cmpuint (ps_call_tree_get_n_nodes (tree), ==, 1);
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, PS_CALL_NODE_ROOT), ==, 0);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 140);
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 95);

  /* As given; percentages computed where none were given */
  assert_stats (ps_call_tree_get_function_stats (tree, b), 3, 55, 55, 25, 25, 1);
  g_assert_cmpfloat (ps_call_tree_get_percent (tree, ps_call_tree_get_function_stats (tree, b), EI, PS_CALL_BASIS_S1), ==, 39.29);
  g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, ps_call_tree_get_function_stats (tree, b), AI, PS_CALL_BASIS_S1)), ==, 26.32);
  g_assert_cmpfloat (round2 (ps_call_tree_get_percent (tree, ps_call_tree_get_function_stats (tree, b), AI, PS_CALL_BASIS_VIEW)), ==, 17.86);

  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, b);
    g_autoptr(GArray) callees = ps_call_tree_get_callees (tree, a);
    g_autoptr(GArray) none = ps_call_tree_get_callees (tree, b);
    g_autoptr(GArray) main_callers = ps_call_tree_get_callers (tree, main_function);

    g_assert_cmpuint (callers->len, ==, 2);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, a);
    g_assert_cmpfloat (g_array_index (callers, PsCallRelation, 0).stats.given_percent[EI], ==, 32.14);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 1).function, ==, c);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).stats.calls + g_array_index (callers, PsCallRelation, 1).stats.calls, ==, 3);
    g_assert_cmpuint (callees->len, ==, 1);
    g_assert_cmpuint (g_array_index (callees, PsCallRelation, 0).function, ==, b);
    g_assert_cmpuint (none->len, ==, 0);
    g_assert_cmpuint (main_callers->len, ==, 0);
  }

  /* main and C only appear as callers: no values */
  g_assert_true (isnan (ps_call_tree_get_function_stats (tree, main_function)->total[EI]));

  /* Bottom-up: the functions with rows, without callers (no tree) */
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, PS_CALL_NODE_ROOT), ==, 2);
  g_assert_cmpuint (ps_call_tree_get_callers_node_function (tree, ps_call_tree_get_callers_child (tree, PS_CALL_NODE_ROOT, 0)), ==, a);
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, ps_call_tree_get_callers_child (tree, PS_CALL_NODE_ROOT, 1)), ==, 0);
}

/* ------------------------------------------------------------------------ */
/* Stores: report rows, spans, samples                                      */

static guint32
add_report_row (PsEventStore   *store,
                PsReportRowKind kind,
                guint32         parent,
                const char     *name,
                guint64         calls,
                double          elapsed_inclusive,
                double          elapsed_exclusive,
                double          percent)
{
  PsReportRow row;

  memset (&row, 0, sizeof row);
  row.frame = ps_event_store_intern_frame (store, ps_event_store_intern (store, name, -1),
                                           ps_event_store_intern (store, "x.exe", -1), 0);
  row.parent = parent;
  row.track = PS_NONE;
  row.kind = kind;
  row.calls = calls;
  row.has_calls = TRUE;
  for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
    row.total[v] = row.min[v] = row.avg[v] = row.max[v] = row.percent[v] = NAN;
  row.total[PS_REPORT_ELAPSED_INCLUSIVE] = row.total[PS_REPORT_APPLICATION_INCLUSIVE] = elapsed_inclusive;
  row.total[PS_REPORT_ELAPSED_EXCLUSIVE] = row.total[PS_REPORT_APPLICATION_EXCLUSIVE] = elapsed_exclusive;
  row.avg[PS_REPORT_ELAPSED_INCLUSIVE] = elapsed_inclusive / MAX (calls, 1);
  row.percent[PS_REPORT_ELAPSED_INCLUSIVE] = percent;
  return ps_event_store_add_report_row (store, &row);
}

static void
test_store_report (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  PsCallTreeOptions options = { PS_NONE, NULL, 0 };
  g_autoptr(GError) error = NULL;
  guint32 main_row, a_row, b_function;

  ps_event_store_add_session (store, 1, FALSE);
  ps_event_store_set_metadata (store, 0, "time_unit", "ticks");
  main_row = add_report_row (store, PS_REPORT_ROW_TREE, PS_NONE, "main", 1, 140, 25, 100);
  a_row = add_report_row (store, PS_REPORT_ROW_TREE, main_row, "A", 1, 75, 30, 53.57);
  add_report_row (store, PS_REPORT_ROW_TREE, a_row, "B", 2, 45, 45, 32.14);
  add_report_row (store, PS_REPORT_ROW_TREE, main_row, "C", 1, 40, 40, 28.57);
  b_function = add_report_row (store, PS_REPORT_ROW_FUNCTION, PS_NONE, "B", 2, 45, 45, 32.14);
  add_report_row (store, PS_REPORT_ROW_CALLER, b_function, "A", 2, 45, 45, 32.14);

  /* In ticks of unknown frequency */
  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (ps_call_tree_is_report (tree));
    g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_TICKS);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 140);
    assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, find_child (tree, PS_CALL_NODE_ROOT, "main"), "A")),
                  1, 75, 30, 75, 30, 1);
    g_assert_cmpstr (ps_call_tree_get_function_module (tree, function_id (tree, "A")), ==, "x.exe");
    assert_stats (ps_call_tree_get_function_stats (tree, function_id (tree, "B")), 2, 45, 45, 45, 45, 1);
    g_assert_cmpfloat (ps_call_tree_get_percent (tree, ps_call_tree_get_function_stats (tree, function_id (tree, "B")),
                                                 EI, PS_CALL_BASIS_S1), ==, 32.14);
    /* Derived from the tree: C has no function row */
    assert_stats (ps_call_tree_get_function_stats (tree, function_id (tree, "C")), 1, 40, 40, 40, 40, 1);
    {
      g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, function_id (tree, "B"));

      g_assert_cmpuint (callers->len, ==, 1);
      g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, function_id (tree, "A"));
    }
  }

  /* 1000 ticks a second: values in ns, percentages unchanged */
  options.ticks_per_second = 1000;
  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, &options, &error);
    const PsCallStats *stats;

    g_assert_no_error (error);
    g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_NS);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 140 * MS);
    stats = ps_call_tree_get_node_stats (tree, find_child (tree, PS_CALL_NODE_ROOT, "main"));
    assert_stats (stats, 1, 140, 25, 140, 25, MS);
    g_assert_cmpfloat (stats->avg[EI], ==, 140 * MS);
    g_assert_cmpfloat (stats->given_percent[EI], ==, 100);
  }

  /* Milliseconds stay milliseconds */
  ps_event_store_set_metadata (store, 0, "time_unit", "ms");
  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, &options, &error);

    g_assert_no_error (error);
    g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_MS);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 140);
  }
}

static void
test_store_empty (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, NULL, &error);

  g_assert_null (tree);
  g_assert_error (error, PS_ERROR, PS_ERROR_NO_DATA);

  /* Spans: an empty tree all the same */
  {
    g_autoptr(PsCallTree) spans = ps_call_tree_new_for_spans (store, PS_NONE, NULL);

    g_assert_cmpuint (ps_call_tree_get_n_nodes (spans), ==, 1);
    g_assert_cmpuint (ps_call_tree_get_n_functions (spans), ==, 0);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (spans), ==, 0);
    g_assert_cmpuint (ps_call_tree_get_n_callers_children (spans, PS_CALL_NODE_ROOT), ==, 0);
  }
}

static PsEventStore *
load_rtl_example (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", "startup_4711.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  store = ps_load_stream (G_INPUT_STREAM (stream), "startup_4711.log", NULL, NULL, &error);
  g_assert_no_error (error);
  return store;
}

/* A selection of spans (e.g. a histogram's buckets): only those calls and
 * what ran inside them; the worked example as an RTL log, where B ran
 * 30 ms and 15 ms under A and 10 ms under C */
static void
test_span_selection (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "rtl", "calltree_4711.log", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(PsCallTree) slow_b = NULL;
  g_autoptr(PsCallTree) a_only = NULL;
  g_autoptr(PsCallTree) none = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *selection = NULL;
  PsCallTreeOptions options = { PS_NONE, NULL, 0, NULL };
  guint64 n_spans;
  guint32 b, a, a_b;

  g_assert_nonnull (stream);
  store = ps_load_stream (G_INPUT_STREAM (stream), "calltree_4711.log", NULL, NULL, &error);
  g_assert_no_error (error);
  n_spans = ps_event_store_get_n_spans (store);
  selection = g_new0 (guint8, n_spans);
  options.span_selection = selection;

  /* The calls of B that took 15 ms or more */
  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      selection[i] = g_str_equal (ps_event_store_get_string (store, span->name), "demo (ab000001) ::B")
                     && span->end_ns - span->begin_ns >= 15 * MS;
    }
  slow_b = ps_call_tree_new_for_store (store, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ps_call_tree_get_n_children (slow_b, PS_CALL_NODE_ROOT), ==, 1);
  b = find_child (slow_b, PS_CALL_NODE_ROOT, "::B");
  g_assert_cmpuint (ps_call_tree_get_node_stats (slow_b, b)->calls, ==, 2);
  g_assert_cmpfloat (ps_call_tree_get_node_stats (slow_b, b)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], ==, 45 * MS);
  g_assert_cmpfloat (ps_call_tree_get_node_stats (slow_b, b)->min[PS_CALL_VALUE_ELAPSED_INCLUSIVE], ==, 15 * MS);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (slow_b), ==, 45 * MS);

  /* A, and B inside it */
  for (guint64 i = 0; i < n_spans; i++)
    selection[i] = g_str_equal (ps_event_store_get_string (store, ps_event_store_get_span (store, i)->name),
                                "demo (ab000001) ::A");
  a_only = ps_call_tree_new_for_store (store, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ps_call_tree_get_n_children (a_only, PS_CALL_NODE_ROOT), ==, 1);
  a = find_child (a_only, PS_CALL_NODE_ROOT, "::A");
  a_b = find_child (a_only, a, "::B");
  g_assert_cmpfloat (ps_call_tree_get_node_stats (a_only, a)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], ==, 75 * MS);
  g_assert_cmpfloat (ps_call_tree_get_node_stats (a_only, a)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], ==, 30 * MS);
  g_assert_cmpuint (ps_call_tree_get_node_stats (a_only, a_b)->calls, ==, 2);
  g_assert_cmpuint (ps_call_tree_get_n_functions (a_only), ==, 2);
  assert_invariants (a_only);

  /* Nothing selected: an empty tree */
  memset (selection, 0, n_spans);
  none = ps_call_tree_new_for_store (store, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ps_call_tree_get_n_children (none, PS_CALL_NODE_ROOT), ==, 0);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (none), ==, 0);
}

static guint32
track_of_thread (PsEventStore *store,
                 gint64        thread)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    if (ps_event_store_get_track (store, t)->kind == PS_TRACK_THREAD
        && ps_event_store_get_track (store, t)->number == thread)
      return t;

  g_error ("no thread %" G_GINT64_FORMAT, thread);
  return PS_NONE;
}

/* rtl-logfile.md §6: durations and self times of the oracle table */
static void
test_rtl_spans (void)
{
  g_autoptr(PsEventStore) store = load_rtl_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, NULL, &error);
  guint32 main_node, open_documents, do_load, sw_load;

  g_assert_no_error (error);
  g_assert_false (ps_call_tree_is_report (tree));
  g_assert_false (ps_call_tree_has_os_events (tree));
  g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_NS);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, (2007 + 58 + 633) * MS);
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, (2007 + 58 + 633) * MS);

  /* The threads' outermost scopes, in the order they began */
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, PS_CALL_NODE_ROOT), ==, 3);
  main_node = ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, 0);
  g_assert_cmpstr (ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, main_node)), ==, "::desktop::Desktop::Main");
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, ps_call_tree_get_node_function (tree, main_node)), ==, "desktop");
  assert_stats (ps_call_tree_get_node_stats (tree, main_node), 1, 2007, 1037, 2007, 1037, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, 1)), 1, 58, 58, 58, 58, MS);
  g_assert_cmpstr (ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, 2))),
                   ==, "::svt::ThumbnailRenderer::run");
  assert_stats (ps_call_tree_get_node_stats (tree, ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, 2)), 1, 633, 633, 633, 633, MS);

  /* A logical scope is a child of the scope that opened it */
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, main_node), ==, 3);
  g_assert_cmpuint (ps_call_tree_get_child (tree, main_node, 0), ==, find_child (tree, main_node, "register services"));
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, main_node, "register services")), 1, 126, 126, 126, 126, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, main_node, "::configmgr::Provider::create")), 1, 39, 39, 39, 39, MS);
  open_documents = find_child (tree, main_node, "PERFORMANCE - open documents");
  assert_stats (ps_call_tree_get_node_stats (tree, open_documents), 1, 805, 251, 805, 251, MS);
  do_load = find_child (tree, open_documents, "PERFORMANCE SfxObjectShell::DoLoad");
  assert_stats (ps_call_tree_get_node_stats (tree, do_load), 1, 554, 49, 554, 49, MS);
  sw_load = find_child (tree, do_load, "::SwDocShell::Load");
  assert_stats (ps_call_tree_get_node_stats (tree, sw_load), 1, 505, 449, 505, 449, MS);
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, ps_call_tree_get_node_function (tree, sw_load)), ==, "sw");
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, sw_load, "::SvXMLImport::startDocument")), 1, 56, 56, 56, 56, MS);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (tree), ==, 10);
  assert_invariants (tree);

  /* One thread */
  {
    g_autoptr(PsCallTree) thread2 = ps_call_tree_new_for_spans (store, track_of_thread (store, 2), NULL);

    g_assert_cmpuint (ps_call_tree_get_n_nodes (thread2), ==, 2);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (thread2), ==, 58 * MS);
    assert_stats (ps_call_tree_get_function_stats (thread2, function_id (thread2, "::ucb::Broker::init")), 1, 58, 58, 58, 58, MS);
  }

  /* Dropped scopes hand their children to the nearest kept ancestor */
  {
    g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
    g_autoptr(PsCallTree) filtered = NULL;
    PsCallTreeOptions options = { PS_NONE, NULL, 0 };
    guint32 filtered_main;

    ps_scope_filter_add (filter, FALSE, "^PERFORMANCE", &error);
    g_assert_no_error (error);
    options.filter = filter;
    filtered = ps_call_tree_new_for_store (store, &options, &error);
    g_assert_no_error (error);

    filtered_main = find_child (filtered, PS_CALL_NODE_ROOT, "::desktop::Desktop::Main");
    g_assert_cmpuint (ps_call_tree_get_n_children (filtered, filtered_main), ==, 3);
    assert_stats (ps_call_tree_get_node_stats (filtered, filtered_main), 1, 2007, 1037 + 251 + 49, 2007, 1037 + 251 + 49, MS);
    assert_stats (ps_call_tree_get_node_stats (filtered, find_child (filtered, filtered_main, "::SwDocShell::Load")), 1, 505, 449, 505, 449, MS);
    g_assert_cmpuint (ps_call_tree_lookup_function (filtered, "PERFORMANCE - open documents"), ==, PS_NONE);
    assert_invariants (filtered);
  }
}

static guint32
add_thread (PsEventStore *store,
            gint64        id)
{
  PsTrack track = { 0 };

  track.kind = PS_TRACK_THREAD;
  track.parent = PS_NONE;
  track.number = id;
  return ps_event_store_add_track (store, &track);
}

static guint32
add_span (PsStoreBuilder *builder,
          guint32         track,
          guint32         parent,
          const char     *name,
          gint64          begin_ms,
          gint64          end_ms,
          guint16         flags)
{
  PsEventStore *store = ps_store_builder_get_store (builder);
  PsSpan span = { 0 };

  span.begin_ns = begin_ms * MS;
  span.end_ns = end_ms * MS;
  span.track = track;
  span.name = ps_event_store_intern (store, name, -1);
  span.parent = parent;
  span.depth = parent == PS_NONE ? 0 : ps_store_builder_edit_span (builder, parent)->depth + 1;
  span.flags = flags;
  return (guint32)ps_store_builder_add_span (builder, &span);
}

/* Two threads merged by path, a child that ends after its parent, spans
 * nested in a span of the same name, an unterminated span */
static void
test_constructed_spans (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 a, b, outer, recursive;
  g_autoptr(PsCallTree) tree = NULL;
  guint32 outer_node, outer_function, inner_m, inner_n;
  const PsCallStats *stats;

  ps_event_store_add_session (store, 1, FALSE);
  a = add_thread (store, 1);
  b = add_thread (store, 2);
  outer = add_span (builder, a, PS_NONE, "m (x) ::outer", 0, 100, 0);
  add_span (builder, b, PS_NONE, "m (x) ::outer", 0, 50, 0);
  add_span (builder, a, outer, "m (x) ::inner", 10, 150, 0);        /* ends at 100 */
  add_span (builder, b, 1, "n (y) ::inner", 10, 20, 0);
  recursive = add_span (builder, a, PS_NONE, "m (x) ::outer", 200, 260, 0);
  add_span (builder, a, recursive, "m (x) ::outer", 210, 250, 0);
  add_span (builder, b, PS_NONE, "open", 300, 310, PS_SPAN_FLAG_UNTERMINATED);
  ps_store_builder_flush (builder);

  tree = ps_call_tree_new_for_spans (store, PS_NONE, NULL);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, (100 + 50 + 60 + 10) * MS);

  outer_node = find_child (tree, PS_CALL_NODE_ROOT, "::outer");
  outer_function = ps_call_tree_get_node_function (tree, outer_node);
  assert_stats (ps_call_tree_get_node_stats (tree, outer_node), 3, 210, 70, 210, 70, MS);
  g_assert_cmpfloat (ps_call_tree_get_node_stats (tree, outer_node)->min[EI], ==, 50 * MS);
  g_assert_cmpfloat (ps_call_tree_get_node_stats (tree, outer_node)->max[EI], ==, 100 * MS);

  /* Same function name, different modules: two functions */
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, outer_node), ==, 3);
  inner_m = ps_call_tree_get_child (tree, outer_node, 0);
  inner_n = ps_call_tree_get_child (tree, outer_node, 1);
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, ps_call_tree_get_node_function (tree, inner_m)), ==, "m");
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, ps_call_tree_get_node_function (tree, inner_n)), ==, "n");
  g_assert_cmpuint (ps_call_tree_lookup_function (tree, "::inner"), ==, ps_call_tree_get_node_function (tree, inner_m));
  assert_stats (ps_call_tree_get_node_stats (tree, inner_m), 1, 90, 90, 90, 90, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, inner_n), 1, 10, 10, 10, 10, MS);
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, outer_node, "::outer")), 1, 40, 40, 40, 40, MS);

  /* The recursive call adds its exclusive time, not its inclusive time */
  stats = ps_call_tree_get_function_stats (tree, outer_function);
  assert_stats (stats, 4, 210, 110, 210, 110, MS);
  g_assert_cmpfloat (stats->min[EI], ==, 40 * MS);
  assert_stats (ps_call_tree_get_function_stats (tree, function_id (tree, "open")), 1, 10, 10, 10, 10, MS);
  assert_invariants (tree);
}

static void
test_function_of_name (void)
{
  const struct { const char *name; const char *function; const char *module; } cases[] = {
    { "desktop (ab123456) ::desktop::Desktop::Main", "::desktop::Desktop::Main", "desktop" },
    { "sw (ef112233) ::SwDocShell::Load", "::SwDocShell::Load", "sw" },
    { "m (a b) f g", "f g", "m" },
    { "LogBridge () method return : 5", "method return : 5", "LogBridge" },
    { "PERFORMANCE SfxObjectShell::DoLoad", "PERFORMANCE SfxObjectShell::DoLoad", NULL },
    { "PERFORMANCE - open documents", "PERFORMANCE - open documents", NULL },
    { "sw (ef112233)", "sw (ef112233)", NULL },
    { "sw (ef112233) ", "sw (ef112233) ", NULL },
    { "sw (ef112233)::f", "sw (ef112233)::f", NULL },
    { "sw  (ef112233) f", "sw  (ef112233) f", NULL },
    { "a(b) f", "a(b) f", NULL },
    { " sw (a) f", " sw (a) f", NULL },
    { "sw (a f", "sw (a f", NULL },
    { "register services", "register services", NULL },
    { "", "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize length = 99, module_length = 99;
      const char *function = ps_call_tree_function_of_name (cases[i].name, &length);
      const char *module = ps_call_tree_module_of_name (cases[i].name, &module_length);
      g_autofree char *function_text = g_strndup (function, length);

      g_assert_cmpstr (function_text, ==, cases[i].function);
      /* A pointer into the name */
      g_assert_true (function >= cases[i].name && function + length == cases[i].name + strlen (cases[i].name));
      if (cases[i].module == NULL)
        {
          g_assert_null (module);
          g_assert_cmpuint (module_length, ==, 0);
        }
      else
        {
          g_autofree char *module_text = g_strndup (module, module_length);

          g_assert_cmpstr (module_text, ==, cases[i].module);
        }
    }
}

/* Samples of a store: stacks from the leaf up, kernel flags */
static void
test_store_samples (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 thread, main_frame, a_frame, main_stack, a_stack;
  PsSample sample = { 0 };
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  ps_event_store_add_session (store, 1, FALSE);
  thread = add_thread (store, 1);
  main_frame = ps_event_store_intern_frame (store, ps_event_store_intern (store, "main", -1), ps_event_store_intern (store, "app", -1), 0x10);
  a_frame = ps_event_store_intern_frame (store, ps_event_store_intern (store, "A", -1), ps_event_store_intern (store, "app", -1), 0x20);
  main_stack = ps_event_store_intern_stack (store, 0, main_frame);
  a_stack = ps_event_store_intern_stack (store, main_stack, a_frame);

  sample.track = thread;
  sample.stack = a_stack;
  sample.weight = 3;
  ps_store_builder_add_sample (builder, &sample);
  sample.stack = main_stack;
  sample.weight = 1;
  sample.flags = PS_SAMPLE_FLAG_KERNEL;
  ps_store_builder_add_sample (builder, &sample);
  ps_store_builder_flush (builder);

  tree = ps_call_tree_new_for_store (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_SAMPLES);
  g_assert_true (ps_call_tree_has_os_events (tree));
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, PS_CALL_NODE_ROOT, "main")), 0, 4, 1, 3, 0, 1);
  assert_stats (ps_call_tree_get_function_stats (tree, function_id (tree, "A")), 0, 3, 3, 3, 3, 1);
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, function_id (tree, "A")), ==, "app");
}

typedef struct
{
  guint64 key;     /* stack × modes + kernel */
  guint64 weight;
} OracleEntry;

static int
compare_oracle_entries (gconstpointer a,
                        gconstpointer b)
{
  const OracleEntry *x = a;
  const OracleEntry *y = b;

  return x->key < y->key ? -1 : x->key > y->key;
}

static gboolean
sample_of_source_one (const PsSample *sample,
                      gpointer        user_data)
{
  (void)user_data;
  return sample->source == 1;
}

/* The distinct stacks of samples, summed by stack and mode, against an
 * oracle that adds them up in a hash table and sorts them: the same
 * entries in the same order from ps_folded_sum_stacks () and from the
 * compact weights' walk, with a filter and without, split by mode and
 * not. Stacks of samples that all weigh 0 are entries; stack ids beyond
 * the store's are not. */
static void
test_stack_weights (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261205);
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  guint32 thread;
  guint32 n_nodes;

  ps_event_store_add_session (store, 1, FALSE);
  thread = add_thread (store, 1);
  for (guint i = 0; i < 3000; i++)
    {
      guint32 parent = stacks->len == 0 || g_rand_int_range (rand, 0, 8) == 0
                       ? 0 : g_array_index (stacks, guint32, g_rand_int_range (rand, 0, (gint32)stacks->len));
      guint32 frame = ps_event_store_intern_frame (store, 0, 0, (guint64)g_rand_int_range (rand, 1, 400));
      guint32 stack = ps_event_store_intern_stack (store, parent, frame);

      g_array_append_val (stacks, stack);
    }
  n_nodes = ps_event_store_get_n_stack_nodes (store);
  for (guint i = 0; i < 60000; i++)
    {
      PsSample sample = { 0 };

      sample.time_ns = i;
      sample.track = thread;
      /* Every 97th sample has a stack id the store does not have */
      sample.stack = i % 97 == 0 ? n_nodes + (guint32)(i % 5)
                                 : g_array_index (stacks, guint32, g_rand_int_range (rand, 0, 600));
      sample.weight = (guint32)g_rand_int_range (rand, 0, 4);
      sample.flags = g_rand_boolean (rand) ? PS_SAMPLE_FLAG_KERNEL : PS_SAMPLE_FLAG_NONE;
      sample.source = (guint16)g_rand_int_range (rand, 0, 2);
      ps_store_builder_add_sample (builder, &sample);
    }
  /* Stacks whose only samples weigh 0 */
  for (guint i = 2000; i < 2010; i++)
    {
      PsSample sample = { 0 };

      sample.time_ns = 60000 + i;
      sample.track = thread;
      sample.stack = g_array_index (stacks, guint32, i);
      sample.weight = 0;
      sample.source = 1;
      ps_store_builder_add_sample (builder, &sample);
    }
  ps_store_builder_flush (builder);

  for (guint split = 0; split < 2; split++)
    for (guint filtered = 0; filtered < 2; filtered++)
      {
        PsSampleFilterFunc filter = filtered ? sample_of_source_one : NULL;
        guint modes = split ? 2 : 1;
        g_autoptr(GHashTable) sums = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
        g_autoptr(GArray) oracle = g_array_new (FALSE, FALSE, sizeof (OracleEntry));
        g_autoptr(GArray) summed = NULL;
        g_autoptr(PsStackWeights) weights = NULL;
        PsStackWeightsIter iter;
        PsStackWeight entry;
        GHashTableIter walk;
        gpointer key, value;
        guint n_zero = 0;
        guint i = 0;

        for (guint64 s = 0; s < ps_event_store_get_n_samples (store); s++)
          {
            const PsSample *sample = ps_event_store_get_sample (store, s);
            gint64 k;
            guint64 *sum;

            if (sample->stack >= n_nodes || (filter != NULL && !filter (sample, NULL)))
              continue;
            k = (gint64)sample->stack * modes + (split && (sample->flags & PS_SAMPLE_FLAG_KERNEL) != 0);
            sum = g_hash_table_lookup (sums, &k);
            if (sum == NULL)
              {
                sum = g_new0 (guint64, 1);
                g_hash_table_insert (sums, g_memdup2 (&k, sizeof k), sum);
              }
            *sum += sample->weight;
          }
        g_hash_table_iter_init (&walk, sums);
        while (g_hash_table_iter_next (&walk, &key, &value))
          {
            OracleEntry e = { (guint64)*(gint64 *)key, *(guint64 *)value };

            g_array_append_val (oracle, e);
            n_zero += e.weight == 0;
          }
        g_array_sort (oracle, compare_oracle_entries);
        /* The data has entries of weight 0 to keep */
        g_assert_cmpuint (n_zero, >, 0);

        summed = ps_folded_sum_stacks (store, split, filter, NULL, NULL);
        g_assert_nonnull (summed);
        g_assert_cmpuint (summed->len, ==, oracle->len);
        weights = ps_stack_weights_new (store, split, filter, NULL, NULL);
        g_assert_nonnull (weights);
        g_assert_cmpuint (weights->n_entries, ==, oracle->len);
        ps_stack_weights_iter_init (&iter, weights);
        while (ps_stack_weights_iter_next (&iter, &entry))
          {
            const OracleEntry *expected = &g_array_index (oracle, OracleEntry, i);
            const PsStackWeight *in_array = &g_array_index (summed, PsStackWeight, i);

            g_assert_cmpuint (i, <, oracle->len);
            g_assert_cmpuint (entry.stack, ==, expected->key / modes);
            g_assert_cmpuint (entry.kernel, ==, expected->key % modes);
            g_assert_cmpuint (entry.weight, ==, expected->weight);
            g_assert_cmpuint (in_array->stack, ==, entry.stack);
            g_assert_cmpuint (in_array->kernel, ==, entry.kernel);
            g_assert_cmpuint (in_array->weight, ==, entry.weight);
            i++;
          }
        g_assert_cmpuint (i, ==, oracle->len);
      }

  g_cancellable_cancel (cancelled);
  g_assert_null (ps_folded_sum_stacks (store, TRUE, NULL, NULL, cancelled));
}

/* A stack of frames, outermost first */
static guint32
stack_of (PsEventStore  *store,
          const guint32 *frames,
          guint          n)
{
  guint32 stack = 0;

  for (guint i = 0; i < n; i++)
    stack = ps_event_store_intern_stack (store, stack, frames[i]);
  return stack;
}

/* The index of an address of a function by its name */
static guint
address_index (PsCallTree *tree,
               guint32     function,
               const char *name)
{
  for (guint i = 0; i < ps_call_tree_get_n_function_addresses (tree, function); i++)
    if (g_str_equal (ps_call_tree_get_function_address_name (tree, function, i), name))
      return i;
  g_error ("no address “%s”", name);
  return 0;
}

/* Frames without a function name: offsets in a module (hwpmc without
 * symbols), a hexadecimal name (pmcstat -G), an address in no module;
 * grouped by module, and not */
static void
test_store_sample_addresses (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 app = ps_event_store_intern (store, "/bin/app", -1);
  guint32 libc = ps_event_store_intern (store, "/lib/libc.so.7", -1);
  guint32 thread, main_frame, work, a1, a2, a3, hex, bare;
  PsCallTreeOptions options = { PS_NONE, NULL, 0 };
  g_autoptr(PsCallTree) plain = NULL;
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  guint32 libc_function, libm_function, unknown_function, main_node, libc_node, work_node;
  PsCallStats stats;
  double address_exclusive = 0;

  ps_event_store_add_session (store, 1, FALSE);
  thread = add_thread (store, 1);
  main_frame = ps_event_store_intern_frame (store, ps_event_store_intern (store, "main", -1), app, 0x10);
  work = ps_event_store_intern_frame (store, ps_event_store_intern (store, "work", -1), app, 0x20);
  a1 = ps_event_store_intern_frame (store, 0, libc, 0x100);
  a2 = ps_event_store_intern_frame (store, 0, libc, 0x200);
  a3 = ps_event_store_intern_frame (store, 0, libc, 0x300);
  hex = ps_event_store_intern_frame (store, ps_event_store_intern (store, "0xbeef", -1),
                                     ps_event_store_intern (store, "/lib/libm.so.5", -1), 0xbeef);
  bare = ps_event_store_intern_frame (store, 0, 0, 0x42);

  {
    struct { guint32 frames[4]; guint n; guint32 weight; guint16 flags; } samples[] = {
      { { main_frame, a1, a2 }, 3, 2, PS_SAMPLE_FLAG_NONE },
      { { main_frame, a1, work, a3 }, 4, 1, PS_SAMPLE_FLAG_KERNEL },
      { { main_frame, hex }, 2, 3, PS_SAMPLE_FLAG_NONE },
      { { bare }, 1, 1, PS_SAMPLE_FLAG_NONE },
      { { main_frame, a1, work, a1 }, 4, 1, PS_SAMPLE_FLAG_NONE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
      {
        PsSample sample = { 0 };

        sample.time_ns = i;
        sample.track = thread;
        sample.stack = stack_of (store, samples[i].frames, samples[i].n);
        sample.weight = samples[i].weight;
        sample.flags = samples[i].flags;
        ps_store_builder_add_sample (builder, &sample);
      }
  }
  ps_store_builder_flush (builder);

  /* Each address a function of its own */
  plain = ps_call_tree_new_for_store (store, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ps_call_tree_get_n_functions (plain), ==, 7);
  for (guint32 f = 0; f < ps_call_tree_get_n_functions (plain); f++)
    g_assert_cmpuint (ps_call_tree_get_n_function_addresses (plain, f), ==, 0);
  assert_stats (ps_call_tree_get_function_stats (plain, function_id (plain, "libc.so.7+0x100")), 0, 4, 1, 3, 1, 1);
  g_assert_cmpuint (function_id (plain, "0xbeef"), !=, PS_NONE);
  g_assert_cmpuint (function_id (plain, "0x42"), !=, PS_NONE);

  /* One function per module */
  options.group_addresses = TRUE;
  tree = ps_call_tree_new_for_store (store, &options, &error);
  g_assert_no_error (error);
  assert_invariants (tree);
  g_assert_cmpuint (ps_call_tree_get_n_functions (tree), ==, 5);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 8);
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 7);
  g_assert_cmpuint (ps_call_tree_lookup_function (tree, "libc.so.7+0x100"), ==, PS_NONE);
  g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, function_id (tree, "main")), ==, 0);
  g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, function_id (tree, "work")), ==, 0);

  libc_function = function_id (tree, "libc.so.7");
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, libc_function), ==, "/lib/libc.so.7");
  g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, libc_function), ==, 3);
  /* Once per sample however often it is on the stack; the sampled one's own */
  assert_stats (ps_call_tree_get_function_stats (tree, libc_function), 0, 4, 4, 3, 3, 1);

  ps_call_tree_get_function_address_stats (tree, libc_function,
                                           address_index (tree, libc_function, "libc.so.7+0x100"), &stats);
  assert_stats (&stats, 0, 4, 1, 3, 1, 1);
  ps_call_tree_get_function_address_stats (tree, libc_function,
                                           address_index (tree, libc_function, "libc.so.7+0x200"), &stats);
  assert_stats (&stats, 0, 2, 2, 2, 2, 1);
  ps_call_tree_get_function_address_stats (tree, libc_function,
                                           address_index (tree, libc_function, "libc.so.7+0x300"), &stats);
  assert_stats (&stats, 0, 1, 1, 0, 0, 1);
  for (guint i = 0; i < 3; i++)
    {
      ps_call_tree_get_function_address_stats (tree, libc_function, i, &stats);
      address_exclusive += stats.total[EE];
    }
  g_assert_cmpfloat (address_exclusive, ==, ps_call_tree_get_function_stats (tree, libc_function)->total[EE]);

  /* pmcstat's hexadecimal names keep their text */
  libm_function = function_id (tree, "libm.so.5");
  g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, libm_function), ==, 1);
  g_assert_cmpstr (ps_call_tree_get_function_address_name (tree, libm_function, 0), ==, "0xbeef");
  assert_stats (ps_call_tree_get_function_stats (tree, libm_function), 0, 3, 3, 3, 3, 1);
  unknown_function = function_id (tree, "[unknown]");
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, unknown_function), ==, "");
  g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, unknown_function), ==, 1);
  g_assert_cmpstr (ps_call_tree_get_function_address_name (tree, unknown_function, 0), ==, "0x42");

  /* main → libc (a1 → a2 is one call) → work → libc */
  main_node = find_child (tree, PS_CALL_NODE_ROOT, "main");
  libc_node = find_child (tree, main_node, "libc.so.7");
  assert_stats (ps_call_tree_get_node_stats (tree, libc_node), 0, 4, 2, 3, 2, 1);
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, libc_node), ==, 1);
  work_node = find_child (tree, libc_node, "work");
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, work_node, "libc.so.7")), 0, 2, 2, 1, 1, 1);
  assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, main_node, "libm.so.5")), 0, 3, 3, 3, 3, 1);

  /* Callers of the module: main, for all its samples */
  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, libc_function);

    g_assert_cmpuint (callers->len, ==, 1);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, function_id (tree, "main"));
    g_assert_cmpfloat (g_array_index (callers, PsCallRelation, 0).stats.total[EI], ==, 4);
  }
}

/* Samples limited by source, tracks and time; a run with samples and
 * spans (thread lifetimes) takes its tree from the samples */
static void
test_store_sample_filters (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 t1, t2, f_main, f_work, f_idle, s_main, s_work, s_idle;
  guint16 clock, cycles;
  guint8 sources[2] = { 0, 0 };
  guint8 tracks[2] = { 0, 0 };
  PsCallTreeOptions options = { PS_NONE, NULL, 0, NULL };
  PsSpan lifetime = { 0, 1000, 0, 0, PS_NONE, 0, 0 };

  ps_event_store_add_session (store, 1, FALSE);
  t1 = add_thread (store, 1);
  t2 = add_thread (store, 2);
  lifetime.track = t1;
  lifetime.name = ps_event_store_intern (store, "thread 1", -1);
  ps_store_builder_add_span (builder, &lifetime);
  clock = ps_event_store_add_sample_source (store, ps_event_store_intern (store, "CLOCK.HARD", -1), 0);
  cycles = ps_event_store_add_sample_source (store, ps_event_store_intern (store, "cycles", -1), 65536);
  f_main = ps_event_store_intern_frame (store, ps_event_store_intern (store, "main", -1), 0, 0x10);
  f_work = ps_event_store_intern_frame (store, ps_event_store_intern (store, "work", -1), 0, 0x20);
  f_idle = ps_event_store_intern_frame (store, ps_event_store_intern (store, "idle", -1), 0, 0x30);
  s_main = ps_event_store_intern_stack (store, 0, f_main);
  s_work = ps_event_store_intern_stack (store, s_main, f_work);
  s_idle = ps_event_store_intern_stack (store, 0, f_idle);

  /* t1: 10 work samples at 0..90 (clock), t2: 5 idle kernel samples at
   * 100..140 (clock) and 7 work samples at 200..260 (cycles) */
  for (guint i = 0; i < 10; i++)
    {
      PsSample sample = { i * 10, t1, s_work, 1, PS_SAMPLE_FLAG_NONE, clock };
      ps_store_builder_add_sample (builder, &sample);
    }
  for (guint i = 0; i < 5; i++)
    {
      PsSample sample = { 100 + i * 10, t2, s_idle, 1, PS_SAMPLE_FLAG_KERNEL, clock };
      ps_store_builder_add_sample (builder, &sample);
    }
  for (guint i = 0; i < 7; i++)
    {
      PsSample sample = { 200 + i * 10, t2, s_work, 1, PS_SAMPLE_FLAG_NONE, cycles };
      ps_store_builder_add_sample (builder, &sample);
    }
  ps_store_builder_flush (builder);

  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, NULL, NULL);

    /* From the samples, not the lifetime span */
    g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_SAMPLES);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 22);
    g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 17);
    assert_stats (ps_call_tree_get_function_stats (tree, function_id (tree, "work")), 0, 17, 17, 17, 17, 1);
  }

  sources[clock] = 1;
  options.sources = sources;
  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, &options, NULL);

    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 15);
    g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 10);
    assert_stats (ps_call_tree_get_function_stats (tree, function_id (tree, "idle")), 0, 5, 5, 0, 0, 1);
  }

  tracks[t2] = 1;
  options.tracks = tracks;
  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, &options, NULL);

    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 5);
    g_assert_cmpuint (ps_call_tree_lookup_function (tree, "work") == PS_NONE
                      || ps_call_tree_get_function_stats (tree, ps_call_tree_lookup_function (tree, "work"))->total[EI] == 0, ==, TRUE);
  }

  options.sources = NULL;
  options.time_range = TRUE;
  options.begin_ns = 120;
  options.end_ns = 230;
  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, &options, NULL);

    /* idle at 120, 130, 140; work at 200, 210, 220 */
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 6);
    assert_stats (ps_call_tree_get_function_stats (tree, function_id (tree, "work")), 0, 3, 3, 3, 3, 1);
    assert_stats (ps_call_tree_get_node_stats (tree, find_child (tree, PS_CALL_NODE_ROOT, "main")), 0, 3, 0, 3, 0, 1);
  }
}

/* ------------------------------------------------------------------------ */
/* 10 000 levels (vs-instrumentation.md §8 item 7): no recursion in         */
/* building or walking                                                      */

#define DEEP 10000

static void
test_deep (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  g_autoptr(PsCallTree) tree = NULL;
  g_autofree guint32 *functions = g_new (guint32, DEEP);
  guint32 node = PS_CALL_NODE_ROOT;
  guint32 callers_node;
  double exclusive = 0;

  for (guint i = 0; i < DEEP; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      functions[i] = ps_call_tree_builder_intern_function (builder, name, NULL);
    }
  /* f_i enters at i, and leaves at 20000 - (i + 1) */
  for (guint i = 0; i < DEEP; i++)
    ps_call_tree_builder_enter (builder, 0, functions[i], i);
  for (guint i = 0; i < DEEP; i++)
    ps_call_tree_builder_leave (builder, 0, DEEP + i);
  tree = ps_call_tree_builder_end (builder);

  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 2 * DEEP - 1);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (tree), ==, DEEP + 1);
  for (guint d = 1; d <= DEEP; d++)
    {
      const PsCallStats *stats;

      g_assert_cmpuint (ps_call_tree_get_n_children (tree, node), ==, 1);
      node = ps_call_tree_get_child (tree, node, 0);
      g_assert_cmpuint (ps_call_tree_get_node_depth (tree, node), ==, d);
      stats = ps_call_tree_get_node_stats (tree, node);
      g_assert_cmpfloat (stats->total[EI], ==, 2 * DEEP + 1 - 2 * d);
      g_assert_cmpfloat (stats->total[EE], ==, d == DEEP ? 1 : 2);
      exclusive += stats->total[EE];
    }
  g_assert_cmpfloat (exclusive, ==, 2 * DEEP - 1);
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, node), ==, 0);

  {
    g_autoptr(GArray) callers = ps_call_tree_get_callers (tree, functions[DEEP - 1]);

    g_assert_cmpuint (callers->len, ==, 1);
    g_assert_cmpuint (g_array_index (callers, PsCallRelation, 0).function, ==, functions[DEEP - 2]);
  }

  /* The deepest function's bottom-up path goes all the way up */
  callers_node = find_callers_child (tree, PS_CALL_NODE_ROOT, "f9999");
  for (guint d = DEEP - 1; d-- > 0;)
    {
      g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, callers_node), ==, 1);
      callers_node = ps_call_tree_get_callers_child (tree, callers_node, 0);
      g_assert_cmpuint (ps_call_tree_get_callers_node_function (tree, callers_node), ==, functions[d]);
      g_assert_cmpfloat (ps_call_tree_get_callers_node_stats (tree, callers_node)->total[EI], ==, 1);
    }
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, callers_node), ==, 0);
  assert_invariants (tree);
}

/* One function 10 000 deep, as one interval: the summary counts it once */
static void
test_deep_recursion (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  g_autoptr(PsCallTree) tree = NULL;
  g_autofree guint32 *stack = g_new (guint32, DEEP);
  guint32 f = ps_call_tree_builder_intern_function (builder, "f", NULL);

  for (guint i = 0; i < DEEP; i++)
    stack[i] = f;
  ps_call_tree_builder_add_interval (builder, 0, stack, DEEP, 7, FALSE);
  ps_call_tree_builder_add_interval (builder, 0, stack, DEEP / 2, 3, TRUE);
  tree = ps_call_tree_builder_end (builder);

  assert_stats (ps_call_tree_get_function_stats (tree, f), DEEP, 10, 10, 7, 7, 1);
  g_assert_cmpfloat (ps_call_tree_get_percent (tree, ps_call_tree_get_function_stats (tree, f), EI, PS_CALL_BASIS_S1), ==, 100);
  g_assert_cmpuint (ps_call_tree_get_n_nodes (tree), ==, DEEP + 1);
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, PS_CALL_NODE_ROOT), ==, 1);
  g_assert_cmpuint (ps_call_tree_get_n_callers_children (tree, ps_call_tree_get_callers_child (tree, PS_CALL_NODE_ROOT, 0)), ==, 0);
  assert_invariants (tree);
}

/* A report tree 10 000 deep alternating two functions: the outermost
 * nodes are found without recursion */
static void
test_deep_report (void)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_MS);
  g_autoptr(PsCallTree) tree = NULL;
  guint32 f[2];
  guint32 node = PS_CALL_NODE_ROOT;

  f[0] = ps_call_tree_builder_intern_function (builder, "even", NULL);
  f[1] = ps_call_tree_builder_intern_function (builder, "odd", NULL);
  for (guint d = 0; d < DEEP; d++)
    {
      PsCallStats row;

      memset (&row, 0, sizeof row);
      row.calls = 1;
      for (guint v = 0; v < PS_N_CALL_VALUES; v++)
        {
          row.total[v] = value_is_inclusive_for_test (v) ? DEEP - d : 1;
          row.min[v] = row.avg[v] = row.max[v] = row.total[v];
          row.given_percent[v] = NAN;
        }
      node = ps_call_tree_builder_add_node (builder, node, f[d % 2], &row);
    }
  tree = ps_call_tree_builder_end (builder);

  assert_stats (ps_call_tree_get_function_stats (tree, f[0]), DEEP / 2, DEEP, DEEP / 2, DEEP, DEEP / 2, 1);
  assert_stats (ps_call_tree_get_function_stats (tree, f[1]), DEEP / 2, DEEP - 1, DEEP / 2, DEEP - 1, DEEP / 2, 1);
  g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, f[1])->min[EI], ==, 1);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, DEEP);
  g_assert_cmpuint (ps_call_tree_get_node_depth (tree, node), ==, DEEP);
  assert_invariants (tree);
}

/* ------------------------------------------------------------------------ */

static void
test_names (void)
{
  PsCallBasis basis = PS_CALL_BASIS_S1;

  g_assert_cmpstr (ps_call_unit_to_string (PS_CALL_UNIT_NS), ==, "ns");
  g_assert_cmpstr (ps_call_unit_to_string (PS_CALL_UNIT_SAMPLES), ==, "samples");
  g_assert_cmpstr (ps_call_unit_to_string (PS_CALL_UNIT_TICKS), ==, "ticks");
  g_assert_cmpstr (ps_call_unit_to_string (PS_CALL_UNIT_MS), ==, "ms");
  g_assert_cmpstr (ps_call_basis_to_string (PS_CALL_BASIS_S1), ==, "s1");
  g_assert_cmpstr (ps_call_basis_to_string (PS_CALL_BASIS_VIEW), ==, "view");
  g_assert_true (ps_call_basis_from_string ("view", &basis));
  g_assert_cmpint (basis, ==, PS_CALL_BASIS_VIEW);
  g_assert_true (ps_call_basis_from_string ("s1", &basis));
  g_assert_cmpint (basis, ==, PS_CALL_BASIS_S1);
  g_assert_false (ps_call_basis_from_string ("t_e", &basis));
  g_assert_cmpstr (ps_call_value_to_string (EI), ==, "elapsed_inclusive");
  g_assert_cmpstr (ps_call_value_to_string (EE), ==, "elapsed_exclusive");
  g_assert_cmpstr (ps_call_value_to_string (AI), ==, "application_inclusive");
  g_assert_cmpstr (ps_call_value_to_string (AE), ==, "application_exclusive");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/call-tree/example/probes", test_example_probes);
  g_test_add_func ("/call-tree/example/intervals", test_example_intervals);
  g_test_add_func ("/call-tree/copy-node-stats", test_copy_node_stats);
  g_test_add_func ("/call-tree/example/threads-reading", test_threads_reading);
  g_test_add_func ("/call-tree/recursion", test_recursion);
  g_test_add_func ("/call-tree/recursion/indirect", test_indirect_recursion);
  g_test_add_func ("/call-tree/os-event-empty-stack", test_os_event_empty_stack);
  g_test_add_func ("/call-tree/two-threads", test_two_threads);
  g_test_add_func ("/call-tree/open-at-end", test_open_at_end);
  g_test_add_func ("/call-tree/samples", test_samples);
  g_test_add_func ("/call-tree/report/tree", test_report_tree);
  g_test_add_func ("/call-tree/report/caller-callee", test_report_caller_callee);
  g_test_add_func ("/call-tree/store/report", test_store_report);
  g_test_add_func ("/call-tree/store/empty", test_store_empty);
  g_test_add_func ("/call-tree/store/rtl-spans", test_rtl_spans);
  g_test_add_func ("/call-tree/store/constructed-spans", test_constructed_spans);
  g_test_add_func ("/call-tree/store/samples", test_store_samples);
  g_test_add_func ("/call-tree/function-of-name", test_function_of_name);
  g_test_add_func ("/call-tree/store/sample-filters", test_store_sample_filters);
  g_test_add_func ("/call-tree/store/sample-addresses", test_store_sample_addresses);
  g_test_add_func ("/call-tree/deep", test_deep);
  g_test_add_func ("/call-tree/deep/recursion", test_deep_recursion);
  g_test_add_func ("/call-tree/deep/report", test_deep_report);
  g_test_add_func ("/call-tree/names", test_names);
  g_test_add_func ("/call-tree/store/stack-weights", test_stack_weights);
  g_test_add_func ("/call-tree/store/span-selection", test_span_selection);

  return g_test_run ();
}

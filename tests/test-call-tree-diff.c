/* test-call-tree-diff.c — one call tree against another's
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: issue 8 ("Differential views"). Trees are built from weighted
 * samples, so every value and share below can be worked out by hand: a
 * sample adds its weight to the inclusive value of every node on its path
 * and to the exclusive value of the last one.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "parse-fixture.h"
#include "ps-call-tree-diff.h"

#define ELAPSED     PS_CALL_DIFF_ELAPSED
#define APPLICATION PS_CALL_DIFF_APPLICATION

typedef struct
{
  const char *stack;   /* "main/f/g", functions may be "module!name" */
  guint64     weight;
  gboolean    kernel;
} Sample;

static PsCallTree *
tree_of_samples (const Sample *samples,
                 guint         n_samples)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_SAMPLES);

  for (guint i = 0; i < n_samples; i++)
    {
      g_auto(GStrv) frames = g_strsplit (samples[i].stack, "/", -1);
      guint depth = g_strv_length (frames);
      g_autofree guint32 *stack = g_new (guint32, depth);

      for (guint k = 0; k < depth; k++)
        {
          const char *bang = strchr (frames[k], '!');
          g_autofree char *module = bang != NULL ? g_strndup (frames[k], bang - frames[k]) : NULL;

          stack[k] = ps_call_tree_builder_intern_function (builder, bang != NULL ? bang + 1 : frames[k], module);
        }
      ps_call_tree_builder_add_sample (builder, stack, depth, samples[i].weight, samples[i].kernel);
    }
  return ps_call_tree_builder_end (builder);
}

/* The node of a tree at a path of "name" or "module!name" steps ("" for
 * the root), or PS_NONE */
static guint32
node_at_path (PsCallTree *tree,
              const char *path)
{
  g_auto(GStrv) steps = g_strsplit (path, "/", -1);
  guint32 node = PS_CALL_NODE_ROOT;

  for (guint i = 0; steps[i] != NULL && *path != '\0'; i++)
    {
      const char *bang = strchr (steps[i], '!');
      const char *name = bang != NULL ? bang + 1 : steps[i];
      g_autofree char *module = bang != NULL ? g_strndup (steps[i], bang - steps[i]) : g_strdup ("");
      guint32 found = PS_NONE;

      for (guint k = 0; k < ps_call_tree_get_n_children (tree, node) && found == PS_NONE; k++)
        {
          guint32 child = ps_call_tree_get_child (tree, node, k);
          guint32 function = ps_call_tree_get_node_function (tree, child);

          if (g_str_equal (ps_call_tree_get_function_name (tree, function), name)
              && g_str_equal (ps_call_tree_get_function_module (tree, function), module))
            found = child;
        }
      if (found == PS_NONE)
        return PS_NONE;
      node = found;
    }
  return node;
}

static PsCallDiffNode
diff_at (PsCallTreeDiff  *diff,
         const char      *path,
         PsCallDiffClock  clock)
{
  PsCallDiffNode node;
  guint32 b_node = node_at_path (ps_call_tree_diff_get_b (diff), path);

  g_assert_cmpuint (b_node, !=, PS_NONE);
  g_assert_true (ps_call_tree_diff_get_node (diff, b_node, clock, &node));
  return node;
}

/* A: 100 samples, B: 200; main keeps its share, f grows, g shrinks, h
 * (with a callee) vanished, k is new */
static const Sample run_a[] = {
  { "main", 10, FALSE },
  { "main/f", 30, FALSE },
  { "main/g", 20, FALSE },
  { "main/h", 10, FALSE },
  { "main/h/x", 30, FALSE },
};
static const Sample run_b[] = {
  { "main", 20, FALSE },
  { "main/f", 100, FALSE },
  { "main/g", 20, FALSE },
  { "main/k", 60, FALSE },
};

static void
test_shares_and_changes (void)
{
  g_autoptr(PsCallTree) a = tree_of_samples (run_a, G_N_ELEMENTS (run_a));
  g_autoptr(PsCallTree) b = tree_of_samples (run_b, G_N_ELEMENTS (run_b));
  g_autoptr(PsCallTreeDiff) diff = ps_call_tree_diff_new (a, b);
  PsCallDiffNode node;

  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (a), ==, 100);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (b), ==, 200);
  g_assert_true (ps_call_tree_diff_get_a (diff) == a);
  g_assert_true (ps_call_tree_diff_get_b (diff) == b);

  /* The root: all of each run */
  node = diff_at (diff, "", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, PS_CALL_NODE_ROOT);
  g_assert_cmpfloat (node.a_total_share, ==, 100);
  g_assert_cmpfloat (node.b_total_share, ==, 100);
  g_assert_cmpfloat (node.total_change, ==, 0);

  /* main: 10 of 100 and 20 of 200 on its own, same share */
  node = diff_at (diff, "main", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, node_at_path (a, "main"));
  g_assert_cmpfloat (node.a_self, ==, 10);
  g_assert_cmpfloat (node.b_self, ==, 20);
  g_assert_cmpfloat (node.a_total, ==, 100);
  g_assert_cmpfloat (node.b_total, ==, 200);
  g_assert_cmpfloat (node.a_self_share, ==, 10);
  g_assert_cmpfloat (node.b_self_share, ==, 10);
  g_assert_cmpfloat (node.self_change, ==, 0);
  g_assert_cmpfloat (node.self_ratio, ==, 1);
  g_assert_cmpfloat (node.total_ratio, ==, 1);
  /* h (10 own + 30 in x) is gone */
  g_assert_cmpuint (node.n_only_in_a, ==, 1);
  g_assert_cmpfloat (node.only_in_a_self_share, ==, 40);
  g_assert_cmpfloat (node.only_in_a_total_share, ==, 40);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_a (diff, node_at_path (b, "main")), ==, 1);
  g_assert_cmpuint (ps_call_tree_diff_get_only_in_a (diff, node_at_path (b, "main"), 0), ==, node_at_path (a, "main/h"));

  /* f: 30 % → 50 % */
  node = diff_at (diff, "main/f", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, node_at_path (a, "main/f"));
  g_assert_cmpfloat (node.a_self, ==, 30);
  g_assert_cmpfloat (node.b_self, ==, 100);
  g_assert_cmpfloat (node.a_self_share, ==, 30);
  g_assert_cmpfloat (node.b_self_share, ==, 50);
  g_assert_cmpfloat (node.self_change, ==, 20);
  g_assert_cmpfloat (node.total_change, ==, 20);
  g_assert_cmpfloat_with_epsilon (node.self_ratio, 5.0 / 3.0, 1e-12);
  g_assert_cmpuint (node.n_only_in_a, ==, 0);

  /* g: the same 20 samples, 20 % → 10 % */
  node = diff_at (diff, "main/g", ELAPSED);
  g_assert_cmpfloat (node.a_self, ==, 20);
  g_assert_cmpfloat (node.b_self, ==, 20);
  g_assert_cmpfloat (node.self_change, ==, -10);
  g_assert_cmpfloat (node.total_ratio, ==, 0.5);

  /* k: only in B */
  node = diff_at (diff, "main/k", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, PS_NONE);
  g_assert_cmpfloat (node.a_self, ==, 0);
  g_assert_cmpfloat (node.a_total_share, ==, 0);
  g_assert_cmpfloat (node.b_total_share, ==, 30);
  g_assert_cmpfloat (node.total_change, ==, 30);
  g_assert_true (isinf (node.total_ratio) && node.total_ratio > 0);
  g_assert_cmpuint (node.n_only_in_a, ==, 0);

  /* Both ways, and the map back from A */
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_b_nodes (diff), ==, 1);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_a_nodes (diff), ==, 2);   /* h and x */
  g_assert_cmpuint (ps_call_tree_diff_get_b_node (diff, node_at_path (a, "main/f")), ==, node_at_path (b, "main/f"));
  g_assert_cmpuint (ps_call_tree_diff_get_b_node (diff, node_at_path (a, "main/h")), ==, PS_NONE);
  g_assert_cmpuint (ps_call_tree_diff_get_b_node (diff, node_at_path (a, "main/h/x")), ==, PS_NONE);
  g_assert_cmpuint (ps_call_tree_diff_get_a_node (diff, node_at_path (b, "main/k")), ==, PS_NONE);

  /* A node that does not exist */
  g_assert_false (ps_call_tree_diff_get_node (diff, ps_call_tree_get_n_nodes (b), ELAPSED, &node));
}

/* The same tree against itself: nothing changed */
static void
test_identical (void)
{
  g_autoptr(PsCallTree) a = tree_of_samples (run_a, G_N_ELEMENTS (run_a));
  g_autoptr(PsCallTreeDiff) diff = ps_call_tree_diff_new (a, a);

  for (guint32 node = 0; node < ps_call_tree_get_n_nodes (a); node++)
    {
      PsCallDiffNode entry;

      g_assert_true (ps_call_tree_diff_get_node (diff, node, ELAPSED, &entry));
      g_assert_cmpuint (entry.a_node, ==, node);
      g_assert_cmpfloat (entry.self_change, ==, 0);
      g_assert_cmpfloat (entry.total_change, ==, 0);
      g_assert_cmpuint (entry.n_only_in_a, ==, 0);
    }
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_a_nodes (diff), ==, 0);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_b_nodes (diff), ==, 0);
}

/* Every level of a recursion is a path of its own: r at depth 2 in B is
 * matched to r at depth 2 in A, not to the outermost r */
static void
test_recursion (void)
{
  static const Sample samples_a[] = {
    { "main/r/r/r", 10, FALSE },
    { "main/r", 10, FALSE },
  };
  static const Sample samples_b[] = {
    { "main/r/r", 30, FALSE },
    { "main/r/r/r", 10, FALSE },
  };
  g_autoptr(PsCallTree) a = tree_of_samples (samples_a, G_N_ELEMENTS (samples_a));
  g_autoptr(PsCallTree) b = tree_of_samples (samples_b, G_N_ELEMENTS (samples_b));
  g_autoptr(PsCallTreeDiff) diff = ps_call_tree_diff_new (a, b);
  PsCallDiffNode node;

  /* A: 20 samples; B: 40 */
  node = diff_at (diff, "main/r", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, node_at_path (a, "main/r"));
  g_assert_cmpfloat (node.a_self_share, ==, 50);
  g_assert_cmpfloat (node.b_self_share, ==, 0);
  g_assert_cmpfloat (node.self_change, ==, -50);
  g_assert_cmpfloat (node.self_ratio, ==, 0);
  g_assert_cmpfloat (node.total_change, ==, 0);

  node = diff_at (diff, "main/r/r", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, node_at_path (a, "main/r/r"));
  g_assert_cmpfloat (node.a_self_share, ==, 0);
  g_assert_cmpfloat (node.b_self_share, ==, 75);
  g_assert_cmpfloat (node.self_change, ==, 75);
  g_assert_true (isinf (node.self_ratio));
  g_assert_cmpfloat (node.a_total_share, ==, 50);
  g_assert_cmpfloat (node.b_total_share, ==, 100);
  g_assert_cmpfloat (node.total_change, ==, 50);
  g_assert_cmpfloat (node.total_ratio, ==, 2);

  node = diff_at (diff, "main/r/r/r", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, node_at_path (a, "main/r/r/r"));
  g_assert_cmpfloat (node.a_self_share, ==, 50);
  g_assert_cmpfloat (node.b_self_share, ==, 25);
  g_assert_cmpfloat (node.self_change, ==, -25);
  g_assert_cmpfloat (node.self_ratio, ==, 0.5);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_a_nodes (diff), ==, 0);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_b_nodes (diff), ==, 0);
}

/* Modules: equal ones first, then a side without one; two different
 * modules never match */
static void
test_modules (void)
{
  static const Sample samples_a[] = {
    { "main/libx.so!f", 10, FALSE },
    { "main/f", 20, FALSE },
    { "main/libz.so!g", 10, FALSE },
  };
  static const Sample samples_b[] = {
    { "main/f", 5, FALSE },
    { "main/liby.so!f", 5, FALSE },
    { "main/g", 10, FALSE },
  };
  g_autoptr(PsCallTree) a = tree_of_samples (samples_a, G_N_ELEMENTS (samples_a));
  g_autoptr(PsCallTree) b = tree_of_samples (samples_b, G_N_ELEMENTS (samples_b));
  g_autoptr(PsCallTreeDiff) diff = ps_call_tree_diff_new (a, b);
  PsCallDiffNode node;

  /* f without a module takes A's f without one, not the first f */
  node = diff_at (diff, "main/f", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, node_at_path (a, "main/f"));
  g_assert_cmpfloat (node.a_total_share, ==, 50);
  g_assert_cmpfloat (node.b_total_share, ==, 25);

  /* liby.so's f has no counterpart: libx.so's is another function */
  node = diff_at (diff, "main/liby.so!f", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, PS_NONE);

  /* g without a module matches libz.so's */
  node = diff_at (diff, "main/g", ELAPSED);
  g_assert_cmpuint (node.a_node, ==, node_at_path (a, "main/libz.so!g"));
  g_assert_cmpfloat (node.total_change, ==, 25);

  node = diff_at (diff, "main", ELAPSED);
  g_assert_cmpuint (node.n_only_in_a, ==, 1);
  g_assert_cmpuint (ps_call_tree_diff_get_only_in_a (diff, node_at_path (b, "main"), 0), ==, node_at_path (a, "main/libx.so!f"));
  g_assert_cmpfloat (node.only_in_a_total_share, ==, 25);
}

/* Shares of the application clock use T_A: kernel samples count there
 * for no function */
static void
test_application_clock (void)
{
  static const Sample samples_a[] = {
    { "main/f", 10, FALSE },
    { "main/g", 10, TRUE },
  };
  static const Sample samples_b[] = {
    { "main/f", 10, FALSE },
    { "main/g", 30, FALSE },
  };
  g_autoptr(PsCallTree) a = tree_of_samples (samples_a, G_N_ELEMENTS (samples_a));
  g_autoptr(PsCallTree) b = tree_of_samples (samples_b, G_N_ELEMENTS (samples_b));
  g_autoptr(PsCallTreeDiff) diff = ps_call_tree_diff_new (a, b);
  PsCallDiffNode node;

  g_assert_cmpfloat (ps_call_tree_get_application_total (a), ==, 10);

  node = diff_at (diff, "main/f", ELAPSED);
  g_assert_cmpfloat (node.a_self_share, ==, 50);
  g_assert_cmpfloat (node.b_self_share, ==, 25);
  g_assert_cmpfloat (node.self_change, ==, -25);

  node = diff_at (diff, "main/f", APPLICATION);
  g_assert_cmpfloat (node.a_self_share, ==, 100);
  g_assert_cmpfloat (node.b_self_share, ==, 25);
  g_assert_cmpfloat (node.self_change, ==, -75);

  node = diff_at (diff, "main/g", APPLICATION);
  g_assert_cmpfloat (node.a_self, ==, 0);
  g_assert_cmpfloat (node.b_self_share, ==, 75);
  g_assert_true (isinf (node.self_ratio));
}

/* Trees without a common function: everything is on one side */
static void
test_disjoint (void)
{
  static const Sample samples_a[] = { { "a/b", 4, FALSE } };
  static const Sample samples_b[] = { { "c", 1, FALSE }, { "d", 3, FALSE } };
  g_autoptr(PsCallTree) a = tree_of_samples (samples_a, G_N_ELEMENTS (samples_a));
  g_autoptr(PsCallTree) b = tree_of_samples (samples_b, G_N_ELEMENTS (samples_b));
  g_autoptr(PsCallTreeDiff) diff = ps_call_tree_diff_new (a, b);
  PsCallDiffNode node;

  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_b_nodes (diff), ==, 2);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_a_nodes (diff), ==, 2);
  node = diff_at (diff, "", ELAPSED);
  g_assert_cmpuint (node.n_only_in_a, ==, 1);
  g_assert_cmpfloat (node.only_in_a_total_share, ==, 100);
  g_assert_cmpfloat (node.only_in_a_self_share, ==, 100);
  node = diff_at (diff, "d", ELAPSED);
  g_assert_cmpfloat (node.b_self_share, ==, 75);
  g_assert_cmpfloat (node.self_change, ==, 75);
}

/* The pmcstat texts shared.txt and shared2.txt (real, with addresses
 * and no function names in shared2): compared as the run pages show them,
 * B's frames are the modules its addresses ran in, each with its module,
 * and match A's by name and module */
static PsEventStore *
load_pmcstat (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph", name, NULL);

  return parse_fixture_load_file (path, 0);
}

static void
assert_node (PsCallTree *tree,
             guint32     node,
             const char *name,
             const char *module)
{
  guint32 function = ps_call_tree_get_node_function (tree, node);

  g_assert_cmpuint (function, !=, PS_NONE);
  g_assert_cmpstr (ps_call_tree_get_function_name (tree, function), ==, name);
  g_assert_cmpstr (ps_call_tree_get_function_module (tree, function), ==, module);
}

static void
test_modules_of_stores (void)
{
  g_autoptr(PsEventStore) shared = load_pmcstat ("shared.txt");
  g_autoptr(PsEventStore) shared2 = load_pmcstat ("shared2.txt");
  g_autoptr(PsCallTreeDiff) diff = ps_call_tree_diff_new_for_stores (shared, shared2, NULL);
  g_autoptr(PsCallTreeDiff) same = ps_call_tree_diff_new_for_stores (shared2, shared2, NULL);
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  PsCallTree *b;
  guint32 libssh, clang;
  PsCallDiffNode entry;

  g_assert_nonnull (diff);
  b = ps_call_tree_diff_get_b (diff);
  /* 0x53c2f @ libprivatessh.so.5 called 0xf4ae3 @ libc.so.7; 24 frames of
   * clang-cpp called it too */
  g_assert_cmpuint (ps_call_tree_get_n_children (b, PS_CALL_NODE_ROOT), ==, 2);
  libssh = ps_call_tree_get_child (b, PS_CALL_NODE_ROOT, 0);
  clang = ps_call_tree_get_child (b, PS_CALL_NODE_ROOT, 1);
  assert_node (b, libssh, "libprivatessh.so.5", "/usr/lib/libprivatessh.so.5");
  assert_node (b, clang, "clang-cpp", "/usr/bin/clang-cpp");
  g_assert_cmpuint (ps_call_tree_get_n_children (b, clang), ==, 1);
  assert_node (b, ps_call_tree_get_child (b, clang, 0), "libc.so.7", "/lib/libc.so.7");
  assert_node (b, ps_call_tree_get_child (b, libssh, 0), "libc.so.7", "/lib/libc.so.7");
  /* Nothing of the kernel's functions in A ran in B */
  g_assert_cmpuint (ps_call_tree_diff_get_a_node (diff, clang), ==, PS_NONE);
  g_assert_true (ps_call_tree_diff_get_node (diff, clang, ELAPSED, &entry));
  g_assert_cmpfloat (entry.b_total_share, ==, 50);
  g_assert_cmpfloat (entry.a_total_share, ==, 0);
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_b_nodes (diff), ==, 4);

  /* A run against itself: every frame matched, module and all */
  b = ps_call_tree_diff_get_b (same);
  for (guint32 node = 0; node < ps_call_tree_get_n_nodes (b); node++)
    {
      guint32 a_node = ps_call_tree_diff_get_a_node (same, node);
      PsCallTree *a = ps_call_tree_diff_get_a (same);

      g_assert_cmpuint (a_node, !=, PS_NONE);
      if (node != PS_CALL_NODE_ROOT)
        assert_node (a, a_node,
                     ps_call_tree_get_function_name (b, ps_call_tree_get_node_function (b, node)),
                     ps_call_tree_get_function_module (b, ps_call_tree_get_node_function (b, node)));
    }
  g_assert_cmpuint (ps_call_tree_diff_get_n_only_in_a_nodes (same), ==, 0);

  g_cancellable_cancel (cancelled);
  g_assert_null (ps_call_tree_diff_new_for_stores (shared, shared2, cancelled));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/call-tree-diff/shares-and-changes", test_shares_and_changes);
  g_test_add_func ("/call-tree-diff/identical", test_identical);
  g_test_add_func ("/call-tree-diff/recursion", test_recursion);
  g_test_add_func ("/call-tree-diff/modules", test_modules);
  g_test_add_func ("/call-tree-diff/application-clock", test_application_clock);
  g_test_add_func ("/call-tree-diff/disjoint", test_disjoint);
  g_test_add_func ("/call-tree-diff/modules-of-stores", test_modules_of_stores);

  return g_test_run ();
}

/* ps-call-tree-diff.c — the top-down tree of one run against another's
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: issue 8 ("Differential views"); vs-instrumentation.md §3, §4.
 *
 * Both trees are walked together from their roots with an explicit stack
 * (trees may be 10 000 levels deep): the children of a matched pair are
 * matched by function name through a table of A's children, first those
 * whose modules are equal, then those where one side has no module. Each
 * node of A is matched at most once.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-call-tree-diff.h"

struct _PsCallTreeDiff
{
  GObject     parent_instance;

  PsCallTree *a;
  PsCallTree *b;
  guint32    *b_to_a;            /* per node of B: its node of A, or PS_NONE */
  guint32    *a_to_b;            /* per node of A */
  /* Per node of A, elapsed then application: the exclusive values of its
   * whole subtree */
  double     *a_subtree_self;
  /* Per node of B: the unmatched children of its node of A */
  guint32    *only_in_a_start;
  guint32    *only_in_a_count;
  GArray     *only_in_a;         /* guint32 nodes of A */
  guint       n_only_in_b_nodes;
  guint       n_only_in_a_nodes;
};

G_DEFINE_FINAL_TYPE (PsCallTreeDiff, ps_call_tree_diff, G_TYPE_OBJECT)

static void
ps_call_tree_diff_finalize (GObject *object)
{
  PsCallTreeDiff *self = PS_CALL_TREE_DIFF (object);

  g_clear_object (&self->a);
  g_clear_object (&self->b);
  g_clear_pointer (&self->b_to_a, g_free);
  g_clear_pointer (&self->a_to_b, g_free);
  g_clear_pointer (&self->a_subtree_self, g_free);
  g_clear_pointer (&self->only_in_a_start, g_free);
  g_clear_pointer (&self->only_in_a_count, g_free);
  g_clear_pointer (&self->only_in_a, g_array_unref);

  G_OBJECT_CLASS (ps_call_tree_diff_parent_class)->finalize (object);
}

static void
ps_call_tree_diff_class_init (PsCallTreeDiffClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ps_call_tree_diff_finalize;
}

static void
ps_call_tree_diff_init (PsCallTreeDiff *self)
{
}

/* --- Values ---------------------------------------------------------------- */

static inline PsCallValue
self_value (PsCallDiffClock clock)
{
  return clock == PS_CALL_DIFF_APPLICATION ? PS_CALL_VALUE_APPLICATION_EXCLUSIVE : PS_CALL_VALUE_ELAPSED_EXCLUSIVE;
}

static inline PsCallValue
total_value (PsCallDiffClock clock)
{
  return clock == PS_CALL_DIFF_APPLICATION ? PS_CALL_VALUE_APPLICATION_INCLUSIVE : PS_CALL_VALUE_ELAPSED_INCLUSIVE;
}

/* A node's value; a report that gave only the average has avg × calls, a
 * column it did not have counts 0 */
static double
node_value (PsCallTree  *tree,
            guint32      node,
            PsCallValue  value)
{
  const PsCallStats *stats = ps_call_tree_get_node_stats (tree, node);
  double total = stats->total[value];

  if (isnan (total) && !isnan (stats->avg[value]))
    total = stats->avg[value] * (double) stats->calls;
  return isfinite (total) ? total : 0;
}

double
ps_call_tree_diff_share (PsCallTree      *tree,
                         PsCallDiffClock  clock,
                         double           value)
{
  double tree_total;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), 0);

  tree_total = clock == PS_CALL_DIFF_APPLICATION ? ps_call_tree_get_application_total (tree)
                                                 : ps_call_tree_get_elapsed_total (tree);
  if (!isfinite (value) || !isfinite (tree_total) || tree_total <= 0)
    return 0;
  return 100.0 * value / tree_total;
}

static double
share_ratio (double b_share,
             double a_share)
{
  if (a_share > 0)
    return b_share / a_share;
  return b_share > 0 ? INFINITY : NAN;
}

/* --- Matching -------------------------------------------------------------- */

/* Nodes of a tree with every parent before its children */
static GArray *
preorder (PsCallTree *tree)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint32), ps_call_tree_get_n_nodes (tree));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 root = PS_CALL_NODE_ROOT;

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint32 node = g_array_index (stack, guint32, stack->len - 1);
      guint n_children = ps_call_tree_get_n_children (tree, node);

      g_array_set_size (stack, stack->len - 1);
      g_array_append_val (order, node);
      for (guint i = n_children; i-- > 0;)
        {
          guint32 child = ps_call_tree_get_child (tree, node, i);

          g_array_append_val (stack, child);
        }
    }
  return order;
}

static void
compute_subtree_self (PsCallTreeDiff *self)
{
  guint n_nodes = ps_call_tree_get_n_nodes (self->a);
  g_autoptr(GArray) order = preorder (self->a);

  self->a_subtree_self = g_new0 (double, 2 * (gsize) n_nodes);
  for (guint i = order->len; i-- > 0;)
    {
      guint32 node = g_array_index (order, guint32, i);
      guint32 parent = ps_call_tree_get_parent (self->a, node);

      self->a_subtree_self[2 * node] += node_value (self->a, node, PS_CALL_VALUE_ELAPSED_EXCLUSIVE);
      self->a_subtree_self[2 * node + 1] += node_value (self->a, node, PS_CALL_VALUE_APPLICATION_EXCLUSIVE);
      if (parent != PS_NONE)
        {
          self->a_subtree_self[2 * parent] += self->a_subtree_self[2 * node];
          self->a_subtree_self[2 * parent + 1] += self->a_subtree_self[2 * node + 1];
        }
    }
}

static gboolean
modules_match (const char *a_module,
               const char *b_module,
               gboolean    exact)
{
  if (exact)
    return strcmp (a_module, b_module) == 0;
  return *a_module == '\0' || *b_module == '\0';
}

/* Matches the children of b_parent to those of a_parent */
static void
match_children (PsCallTreeDiff *self,
                guint32         b_parent,
                guint32         a_parent,
                GHashTable     *first_by_name,
                GArray         *next_same_name,
                GArray         *stack)
{
  guint n_a_children = ps_call_tree_get_n_children (self->a, a_parent);
  guint n_b_children = ps_call_tree_get_n_children (self->b, b_parent);

  /* A's children by name: the first one in the table, the others chained */
  g_hash_table_remove_all (first_by_name);
  g_array_set_size (next_same_name, n_a_children);
  for (guint i = n_a_children; i-- > 0;)
    {
      guint32 child = ps_call_tree_get_child (self->a, a_parent, i);
      const char *name = ps_call_tree_get_function_name (self->a, ps_call_tree_get_node_function (self->a, child));
      gpointer first = g_hash_table_lookup (first_by_name, name);

      g_array_index (next_same_name, guint, i) = GPOINTER_TO_UINT (first);
      g_hash_table_insert (first_by_name, (gpointer) name, GUINT_TO_POINTER (i + 1));
    }

  for (guint pass = 0; pass < 2; pass++)
    {
      gboolean exact = pass == 0;

      for (guint i = 0; i < n_b_children; i++)
        {
          guint32 b_child = ps_call_tree_get_child (self->b, b_parent, i);
          guint32 function = ps_call_tree_get_node_function (self->b, b_child);
          const char *b_module = ps_call_tree_get_function_module (self->b, function);

          if (self->b_to_a[b_child] != PS_NONE)
            continue;

          for (guint k = GPOINTER_TO_UINT (g_hash_table_lookup (first_by_name, ps_call_tree_get_function_name (self->b, function)));
               k != 0; k = g_array_index (next_same_name, guint, k - 1))
            {
              guint32 a_child = ps_call_tree_get_child (self->a, a_parent, k - 1);
              const char *a_module = ps_call_tree_get_function_module (self->a, ps_call_tree_get_node_function (self->a, a_child));

              if (self->a_to_b[a_child] == PS_NONE && modules_match (a_module, b_module, exact))
                {
                  self->b_to_a[b_child] = a_child;
                  self->a_to_b[a_child] = b_child;
                  g_array_append_val (stack, b_child);
                  break;
                }
            }
        }
    }

  self->only_in_a_start[b_parent] = self->only_in_a->len;
  for (guint i = 0; i < n_a_children; i++)
    {
      guint32 a_child = ps_call_tree_get_child (self->a, a_parent, i);

      if (self->a_to_b[a_child] == PS_NONE)
        g_array_append_val (self->only_in_a, a_child);
    }
  self->only_in_a_count[b_parent] = self->only_in_a->len - self->only_in_a_start[b_parent];
}

PsCallTreeDiff *
ps_call_tree_diff_new (PsCallTree *a,
                       PsCallTree *b)
{
  PsCallTreeDiff *self;
  guint n_a, n_b;
  g_autoptr(GHashTable) first_by_name = NULL;
  g_autoptr(GArray) next_same_name = NULL;
  g_autoptr(GArray) stack = NULL;

  g_return_val_if_fail (PS_IS_CALL_TREE (a), NULL);
  g_return_val_if_fail (PS_IS_CALL_TREE (b), NULL);

  self = g_object_new (PS_TYPE_CALL_TREE_DIFF, NULL);
  self->a = g_object_ref (a);
  self->b = g_object_ref (b);
  n_a = ps_call_tree_get_n_nodes (a);
  n_b = ps_call_tree_get_n_nodes (b);
  self->b_to_a = g_new (guint32, MAX (n_b, 1));
  self->a_to_b = g_new (guint32, MAX (n_a, 1));
  memset (self->b_to_a, 0xff, sizeof (guint32) * MAX (n_b, 1));
  memset (self->a_to_b, 0xff, sizeof (guint32) * MAX (n_a, 1));
  self->only_in_a_start = g_new0 (guint32, MAX (n_b, 1));
  self->only_in_a_count = g_new0 (guint32, MAX (n_b, 1));
  self->only_in_a = g_array_new (FALSE, FALSE, sizeof (guint32));
  compute_subtree_self (self);

  /* The roots always match, even of trees without a top-down tree */
  self->b_to_a[PS_CALL_NODE_ROOT] = PS_CALL_NODE_ROOT;
  self->a_to_b[PS_CALL_NODE_ROOT] = PS_CALL_NODE_ROOT;

  if (ps_call_tree_has_top_down (a) && ps_call_tree_has_top_down (b))
    {
      first_by_name = g_hash_table_new (g_str_hash, g_str_equal);
      next_same_name = g_array_new (FALSE, FALSE, sizeof (guint));
      stack = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_array_append_val (stack, (guint32) { PS_CALL_NODE_ROOT });
      while (stack->len > 0)
        {
          guint32 b_node = g_array_index (stack, guint32, stack->len - 1);

          g_array_set_size (stack, stack->len - 1);
          match_children (self, b_node, self->b_to_a[b_node], first_by_name, next_same_name, stack);
        }
    }

  for (guint32 node = 0; node < n_b; node++)
    if (self->b_to_a[node] == PS_NONE)
      self->n_only_in_b_nodes++;
  for (guint32 node = 0; node < n_a; node++)
    if (self->a_to_b[node] == PS_NONE)
      self->n_only_in_a_nodes++;

  return self;
}

PsCallTree *
ps_call_tree_diff_tree_for_store (PsEventStore  *store,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  PsCallTreeOptions options = { PS_NONE, NULL, 0 };

  g_return_val_if_fail (store != NULL, NULL);

  options.cancellable = cancellable;
  options.group_addresses = TRUE;
  return ps_call_tree_new_for_store (store, &options, error);
}

PsCallTreeDiff *
ps_call_tree_diff_new_for_stores (PsEventStore *a,
                                  PsEventStore *b,
                                  GCancellable *cancellable)
{
  g_autoptr(PsCallTree) tree_a = NULL;
  g_autoptr(PsCallTree) tree_b = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  tree_a = ps_call_tree_diff_tree_for_store (a, cancellable, NULL);
  if (tree_a == NULL || !ps_call_tree_has_top_down (tree_a))
    return NULL;
  tree_b = ps_call_tree_diff_tree_for_store (b, cancellable, NULL);
  if (tree_b == NULL || !ps_call_tree_has_top_down (tree_b))
    return NULL;
  return ps_call_tree_diff_new (tree_a, tree_b);
}

/* --- Reading --------------------------------------------------------------- */

PsCallTree *
ps_call_tree_diff_get_a (PsCallTreeDiff *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), NULL);
  return self->a;
}

PsCallTree *
ps_call_tree_diff_get_b (PsCallTreeDiff *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), NULL);
  return self->b;
}

guint32
ps_call_tree_diff_get_a_node (PsCallTreeDiff *self,
                              guint32         b_node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), PS_NONE);
  g_return_val_if_fail (b_node < ps_call_tree_get_n_nodes (self->b), PS_NONE);
  return self->b_to_a[b_node];
}

guint32
ps_call_tree_diff_get_b_node (PsCallTreeDiff *self,
                              guint32         a_node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), PS_NONE);
  g_return_val_if_fail (a_node < ps_call_tree_get_n_nodes (self->a), PS_NONE);
  return self->a_to_b[a_node];
}

gboolean
ps_call_tree_diff_get_node (PsCallTreeDiff  *self,
                            guint32          b_node,
                            PsCallDiffClock  clock,
                            PsCallDiffNode  *out)
{
  guint32 a_node;
  double only_self = 0, only_total = 0;

  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (b_node >= ps_call_tree_get_n_nodes (self->b))
    return FALSE;

  memset (out, 0, sizeof *out);
  a_node = self->b_to_a[b_node];
  out->a_node = a_node;
  out->b_self = node_value (self->b, b_node, self_value (clock));
  out->b_total = node_value (self->b, b_node, total_value (clock));
  if (a_node != PS_NONE)
    {
      out->a_self = node_value (self->a, a_node, self_value (clock));
      out->a_total = node_value (self->a, a_node, total_value (clock));
    }
  out->a_self_share = ps_call_tree_diff_share (self->a, clock, out->a_self);
  out->a_total_share = ps_call_tree_diff_share (self->a, clock, out->a_total);
  out->b_self_share = ps_call_tree_diff_share (self->b, clock, out->b_self);
  out->b_total_share = ps_call_tree_diff_share (self->b, clock, out->b_total);
  out->self_change = out->b_self_share - out->a_self_share;
  out->total_change = out->b_total_share - out->a_total_share;
  out->self_ratio = share_ratio (out->b_self_share, out->a_self_share);
  out->total_ratio = share_ratio (out->b_total_share, out->a_total_share);

  out->n_only_in_a = self->only_in_a_count[b_node];
  for (guint i = 0; i < out->n_only_in_a; i++)
    {
      guint32 a_child = g_array_index (self->only_in_a, guint32, self->only_in_a_start[b_node] + i);

      only_self += self->a_subtree_self[2 * a_child + (clock == PS_CALL_DIFF_APPLICATION)];
      only_total += node_value (self->a, a_child, total_value (clock));
    }
  out->only_in_a_self_share = ps_call_tree_diff_share (self->a, clock, only_self);
  out->only_in_a_total_share = ps_call_tree_diff_share (self->a, clock, only_total);
  return TRUE;
}

guint
ps_call_tree_diff_get_n_only_in_a (PsCallTreeDiff *self,
                                   guint32         b_node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), 0);
  g_return_val_if_fail (b_node < ps_call_tree_get_n_nodes (self->b), 0);
  return self->only_in_a_count[b_node];
}

guint32
ps_call_tree_diff_get_only_in_a (PsCallTreeDiff *self,
                                 guint32         b_node,
                                 guint           index)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), PS_NONE);
  g_return_val_if_fail (b_node < ps_call_tree_get_n_nodes (self->b), PS_NONE);
  g_return_val_if_fail (index < self->only_in_a_count[b_node], PS_NONE);
  return g_array_index (self->only_in_a, guint32, self->only_in_a_start[b_node] + index);
}

guint
ps_call_tree_diff_get_n_only_in_b_nodes (PsCallTreeDiff *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), 0);
  return self->n_only_in_b_nodes;
}

guint
ps_call_tree_diff_get_n_only_in_a_nodes (PsCallTreeDiff *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_DIFF (self), 0);
  return self->n_only_in_a_nodes;
}

/* ps-flame-graph-tree.c — the flame graph's own copy of the top-down
 * tree, and the transforms that derive a simpler tree from it
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (the four values, the call tree).
 *
 * Apart from the widget because none of it touches GTK: node arrays in,
 * node arrays out, parents before their children, so that the copy of a
 * big tree can run in a worker (ps-flame-graph.c) and every transform is
 * a plain loop over indexes.
 */
#include "config.h"

#include <math.h>

#include "ps-flame-graph-private.h"

GArray *
ps_flame_graph_nodes_new (gboolean with_baseline,
                          guint    reserve)
{
  gsize size = sizeof (FlameNode) + (with_baseline ? sizeof (FlameBaseline) : 0);

  /* Cleared as it grows: a node's baseline starts at 0 */
  return g_array_sized_new (FALSE, TRUE, (guint)size, reserve);
}

static guint32
append_node (GArray  *nodes,
             guint32  parent,
             guint32  function)
{
  guint32 index = nodes->len;
  FlameNode *node;

  g_array_set_size (nodes, index + 1);
  node = node_at (nodes, index);
  node->function = function;
  node->parent = parent;
  node->first_child = node->last_child = node->next_sibling = node->prev_sibling = NO_NODE;
  node->depth = parent != NO_NODE ? node_at (nodes, parent)->depth + 1 : 0;

  if (parent != NO_NODE)
    {
      FlameNode *parent_node = node_at (nodes, parent);

      if (parent_node->last_child != NO_NODE)
        {
          node_at (nodes, parent_node->last_child)->next_sibling = index;
          node->prev_sibling = parent_node->last_child;
        }
      else
        parent_node->first_child = index;
      parent_node->last_child = index;
    }
  return index;
}

/* The child of parent for function, created on first use: nodes of one
 * function under one parent are merged */
static guint32
child_for_function (GArray     *nodes,
                    GHashTable *children,
                    guint32     parent,
                    guint32     function)
{
  gint64 key = ((gint64) parent << 32) | function;
  gpointer found = g_hash_table_lookup (children, &key);
  gint64 *stored_key;
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  index = append_node (nodes, parent, function);
  stored_key = g_new (gint64, 1);
  *stored_key = key;
  g_hash_table_insert (children, stored_key, GUINT_TO_POINTER (index + 1));
  return index;
}

/* Children come after their parent, so one backward pass sums subtrees */
static void
compute_widths (GArray *nodes)
{
  static const PsCallValue exclusive[2] = {
    PS_CALL_VALUE_ELAPSED_EXCLUSIVE, PS_CALL_VALUE_APPLICATION_EXCLUSIVE,
  };

  /* A report may lack a column (NAN): such frames have no width */
  for (guint32 i = 0; i < nodes->len; i++)
    {
      FlameNode *node = node_at (nodes, i);

      for (guint e = 0; e < 2; e++)
        node->exclusive_width[e] = isfinite (node->total[exclusive[e]]) ? MAX (node->total[exclusive[e]], 0) : 0;
    }

  for (guint32 i = nodes->len; i-- > 1;)
    {
      FlameNode *node = node_at (nodes, i);
      FlameNode *parent = node_at (nodes, node->parent);

      for (guint e = 0; e < 2; e++)
        parent->exclusive_width[e] += node->exclusive_width[e];
    }
}

static void
add_values (FlameNode         *node,
            const double      *total,
            guint64            calls,
            gboolean           inclusive_too)
{
  node->calls += calls;
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    if (inclusive_too || is_exclusive (v))
      node->total[v] += total[v];
}

/* Node from of one array merged into node to of another: its values, and
 * A's */
static void
merge_values (GArray  *to_nodes,
              guint32  to,
              GArray  *from_nodes,
              guint32  from,
              guint64  calls,
              gboolean inclusive_too)
{
  FlameNode *node = node_at (to_nodes, to);
  const FlameNode *from_node = node_at (from_nodes, from);
  FlameBaseline *baseline = baseline_at (to_nodes, to);
  const FlameBaseline *from_baseline = baseline_at (from_nodes, from);

  add_values (node, from_node->total, calls, inclusive_too);
  if (inclusive_too)
    node->in_baseline |= from_node->in_baseline;
  if (baseline == NULL || from_baseline == NULL)
    return;
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    if (inclusive_too || is_exclusive (v))
      baseline->baseline[v] += from_baseline->baseline[v];
  if (inclusive_too)
    {
      baseline->only_in_a_share[0] += from_baseline->only_in_a_share[0];
      baseline->only_in_a_share[1] += from_baseline->only_in_a_share[1];
    }
}

/* A's values of a node of B */
static void
set_baseline_values (GArray         *nodes,
                     guint32         index,
                     PsCallTreeDiff *diff,
                     guint32         tree_node)
{
  PsCallTree *a = ps_call_tree_diff_get_a (diff);
  guint32 a_node = ps_call_tree_diff_get_a_node (diff, tree_node);
  FlameBaseline *baseline = baseline_at (nodes, index);
  PsCallDiffNode entry;

  if (a_node != PS_NONE)
    {
      PsCallStats stats;

      ps_call_tree_copy_node_stats (a, a_node, &stats);
      for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
        baseline->baseline[v] = isfinite (stats.total[v]) ? stats.total[v] : 0;
      node_at (nodes, index)->in_baseline = TRUE;
    }
  if (ps_call_tree_diff_get_n_only_in_a (diff, tree_node) > 0)
    {
      ps_call_tree_diff_get_node (diff, tree_node, PS_CALL_DIFF_ELAPSED, &entry);
      baseline->only_in_a_share[0] = entry.only_in_a_total_share;
      ps_call_tree_diff_get_node (diff, tree_node, PS_CALL_DIFF_APPLICATION, &entry);
      baseline->only_in_a_share[1] = entry.only_in_a_total_share;
    }
}

/* The tree's top-down tree, depth first with an explicit stack; with a
 * diff (whose B is tree), A's values too */
GArray *
ps_flame_graph_build_base (PsCallTree     *tree,
                           PsCallTreeDiff *diff)
{
  GArray *nodes = ps_flame_graph_nodes_new (diff != NULL, ps_call_tree_get_n_nodes (tree));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  guint32 root = append_node (nodes, NO_NODE, PS_NONE);
  const PsCallStats *root_stats = ps_call_tree_get_node_stats (tree, PS_CALL_NODE_ROOT);
  guint32 pair[2] = { PS_CALL_NODE_ROOT, root };

  add_values (node_at (nodes, root), root_stats->total, 0, TRUE);
  if (diff != NULL)
    set_baseline_values (nodes, root, diff, PS_CALL_NODE_ROOT);
  g_array_append_val (stack, pair);

  while (stack->len > 0)
    {
      guint32 *top = &g_array_index (stack, guint32, (stack->len - 1) * 2);
      guint32 tree_node = top[0];
      guint32 out = top[1];
      guint n_children = ps_call_tree_get_n_children (tree, tree_node);

      g_array_set_size (stack, stack->len - 1);
      for (guint i = 0; i < n_children; i++)
        {
          guint32 child = ps_call_tree_get_child (tree, tree_node, i);
          guint32 out_child = append_node (nodes, out, ps_call_tree_get_node_function (tree, child));
          guint32 child_pair[2] = { child, out_child };
          PsCallStats stats;

          /* Copied, where reading them would make the stats of every node
           * of the tree and keep them (168 bytes a node) */
          ps_call_tree_copy_node_stats (tree, child, &stats);
          add_values (node_at (nodes, out_child), stats.total, stats.calls, TRUE);
          if (diff != NULL)
            set_baseline_values (nodes, out_child, diff, child);
          g_array_append_val (stack, child_pair);
        }
    }

  compute_widths (nodes);
  return nodes;
}

/* One transform: in is read in index order (parents first), each node is
 * mapped to a node of the new array, or to none (focus: outside the
 * function's calls) */
GArray *
ps_flame_graph_apply_transform (GArray          *in,
                                const Transform *transform)
{
  GArray *out = ps_flame_graph_nodes_new (baseline_at (in, 0) != NULL, 0);
  g_autoptr(GHashTable) children = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autofree guint32 *map = g_new (guint32, in->len);
  g_autofree gboolean *inside = g_new0 (gboolean, in->len);
  guint32 root = append_node (out, NO_NODE, PS_NONE);

  map[0] = root;
  if (transform->kind != PS_FLAME_TRANSFORM_FOCUS)
    merge_values (out, root, in, 0, 0, TRUE);

  for (guint32 i = 1; i < in->len; i++)
    {
      const FlameNode *node = node_at (in, i);
      guint32 parent_out = map[node->parent];
      gboolean is_function = node->function == transform->function;

      map[i] = NO_NODE;
      switch (transform->kind)
        {
        case PS_FLAME_TRANSFORM_FOCUS:
          inside[i] = inside[node->parent] || is_function;
          if (!inside[i])
            continue;
          if (is_function && !inside[node->parent])
            parent_out = root;
          break;

        case PS_FLAME_TRANSFORM_MERGE:
          /* Its own time goes to its caller, whose inclusive values hold
           * it already */
          if (is_function)
            {
              map[i] = parent_out;
              merge_values (out, parent_out, in, i, 0, FALSE);
              continue;
            }
          break;

        case PS_FLAME_TRANSFORM_COLLAPSE_RECURSION:
          if (is_function && node_at (in, node->parent)->function == transform->function)
            {
              map[i] = parent_out;
              merge_values (out, parent_out, in, i, node->calls, FALSE);
              continue;
            }
          break;

        default:
          g_assert_not_reached ();
        }

      if (parent_out == NO_NODE)
        continue;
      map[i] = child_for_function (out, children, parent_out, node->function);
      merge_values (out, map[i], in, i, node->calls, TRUE);
    }

  /* Focus: the root holds the calls of the function */
  if (transform->kind == PS_FLAME_TRANSFORM_FOCUS)
    for (guint32 child = node_at (out, root)->first_child; child != NO_NODE; child = node_at (out, child)->next_sibling)
      for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
        if (!is_exclusive (v))
          {
            node_at (out, root)->total[v] += node_at (out, child)->total[v];
            if (baseline_at (out, root) != NULL)
              baseline_at (out, root)->baseline[v] += baseline_at (out, child)->baseline[v];
          }
  node_at (out, root)->in_baseline = node_at (in, 0)->in_baseline;

  compute_widths (out);
  return out;
}

gboolean
ps_flame_graph_is_below (GArray  *nodes,
                         guint32  node,
                         guint32  ancestor)
{
  for (; node != NO_NODE; node = node_at (nodes, node)->parent)
    if (node == ancestor)
      return TRUE;
  return FALSE;
}

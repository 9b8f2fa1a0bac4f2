/* ps-call-tree-diff.h — the top-down tree of one run against another's
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: issue 8 ("Differential views"); vs-instrumentation.md §3 (the
 * values of a top-down node) and §4 (percentages).
 *
 * A diff compares tree B (the run looked at) with tree A (the baseline).
 * Each top-down node of B is matched to the node of A at the same path of
 * function names from the root; a step of the path also compares modules
 * when both trees name one, so "f" from a log without modules still
 * matches "libfoo.so f". Recursion needs no rule: every level of a
 * recursive call is a path of its own.
 *
 * Values are compared as shares of each tree's own total (T_E or T_A), in
 * percent, so runs of different lengths or sample counts compare: a
 * function that took 10 % of A and 15 % of B changed by +5 percentage
 * points (pp), a ratio of 1.5. "Self" is a node's exclusive value, "total"
 * its inclusive one.
 *
 * Nodes of A that have no counterpart in B do not appear in B's tree: each
 * matched node of B carries the summed weight of its A counterpart's
 * children that vanished ("only in A"), and lists them.
 *
 * A diff holds references to both trees and is immutable once made.
 */
#pragma once

#include "ps-call-tree.h"

G_BEGIN_DECLS

/* Which of the tree's clocks a comparison reads */
typedef enum
{
  PS_CALL_DIFF_ELAPSED,       /* elapsed values over T_E */
  PS_CALL_DIFF_APPLICATION,   /* application values over T_A */
} PsCallDiffClock;

/* One node of B against A. Values are in each tree's own unit, shares in
 * percent of that tree's total, changes in percentage points (B − A). */
typedef struct
{
  guint32 a_node;              /* the node of A at the same path, PS_NONE if absent */
  double  a_self;              /* 0 when absent in A */
  double  a_total;
  double  b_self;
  double  b_total;
  double  a_self_share;
  double  a_total_share;
  double  b_self_share;
  double  b_total_share;
  double  self_change;         /* b_self_share − a_self_share */
  double  total_change;
  /* b share / a share: +INFINITY when only B has a share, NAN when
   * neither has one */
  double  self_ratio;
  double  total_ratio;
  /* The children of a_node that B does not have (0 when a_node is absent):
   * their number, and their summed values as shares of A's total (self:
   * the exclusive values of their whole subtrees; total: their inclusive
   * values) */
  guint   n_only_in_a;
  double  only_in_a_self_share;
  double  only_in_a_total_share;
} PsCallDiffNode;

#define PS_TYPE_CALL_TREE_DIFF (ps_call_tree_diff_get_type ())
G_DECLARE_FINAL_TYPE (PsCallTreeDiff, ps_call_tree_diff, PS, CALL_TREE_DIFF, GObject)

/* Matches every top-down node of b to a; both trees need a top-down tree
 * (ps_call_tree_has_top_down ()), a tree without one matches nothing */
PsCallTreeDiff *ps_call_tree_diff_new            (PsCallTree      *a,
                                                  PsCallTree      *b);
PsCallTree     *ps_call_tree_diff_get_a          (PsCallTreeDiff  *self);
PsCallTree     *ps_call_tree_diff_get_b          (PsCallTreeDiff  *self);

/* The call tree of a run as a comparison reads it, and as the run's page
 * shows it: the addresses of a module without symbols are one function
 * named after the module (PsCallTreeOptions.group_addresses), so that the
 * frames of a profile without symbols read "libc.so.7" in that module, not
 * "0xf4ae3" alone. NULL, with error set, when the run has no call tree or
 * cancellable (may be NULL) was cancelled (ps_call_tree_new_for_store ()). */
PsCallTree     *ps_call_tree_diff_tree_for_store (PsEventStore    *store,
                                                  GCancellable    *cancellable,
                                                  GError         **error);
/* The diff of the trees ps_call_tree_diff_tree_for_store () makes of two
 * runs; NULL when either has no call tree with a top-down tree, or when
 * cancellable was cancelled */
PsCallTreeDiff *ps_call_tree_diff_new_for_stores (PsEventStore    *a,
                                                  PsEventStore    *b,
                                                  GCancellable    *cancellable);

/* The node of A at the path of b_node, or PS_NONE */
guint32         ps_call_tree_diff_get_a_node     (PsCallTreeDiff  *self,
                                                  guint32          b_node);
/* The node of B at the path of a_node, or PS_NONE */
guint32         ps_call_tree_diff_get_b_node     (PsCallTreeDiff  *self,
                                                  guint32          a_node);
/* b_node (a node of B) against A; FALSE when there is no such node */
gboolean        ps_call_tree_diff_get_node       (PsCallTreeDiff  *self,
                                                  guint32          b_node,
                                                  PsCallDiffClock  clock,
                                                  PsCallDiffNode  *out);
/* The children of b_node's counterpart in A that B does not have, as nodes
 * of A, in A's order */
guint           ps_call_tree_diff_get_n_only_in_a (PsCallTreeDiff *self,
                                                  guint32          b_node);
guint32         ps_call_tree_diff_get_only_in_a  (PsCallTreeDiff  *self,
                                                  guint32          b_node,
                                                  guint            index);
/* The nodes of B without a counterpart, of A without one (at any depth) */
guint           ps_call_tree_diff_get_n_only_in_b_nodes (PsCallTreeDiff *self);
guint           ps_call_tree_diff_get_n_only_in_a_nodes (PsCallTreeDiff *self);

/* A share: 100 × value / the tree's total of the clock, 0 when the total
 * is 0 or the value is not finite (a column a report did not have) */
double          ps_call_tree_diff_share          (PsCallTree      *tree,
                                                  PsCallDiffClock  clock,
                                                  double           value);

G_END_DECLS

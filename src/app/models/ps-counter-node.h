/* ps-counter-node.h — a machine, object, instance or counter of a run's
 * performance counters, as the counters view lists them
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One node per track of the counter tree (there are as many counters as
 * the log has columns, not readings). A counter is checked to be drawn;
 * a machine, object or instance is checked when all of its counters are,
 * inconsistent when some are, and checking it checks them all.
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

#define PS_TYPE_COUNTER_NODE (ps_counter_node_get_type ())
G_DECLARE_FINAL_TYPE (PsCounterNode, ps_counter_node, PS, COUNTER_NODE, GObject)

PsCounterNode *ps_counter_node_new              (PsEventStore  *store,
                                                 guint32        track,
                                                 PsCounterNode *parent);
PsEventStore  *ps_counter_node_get_store        (PsCounterNode *self);
guint32        ps_counter_node_get_track        (PsCounterNode *self);
PsTrackKind    ps_counter_node_get_kind         (PsCounterNode *self);
/* The name as listed: an instance with its parent and index
 * ("explorer/0", "svchost#3") */
const char    *ps_counter_node_get_label        (PsCounterNode *self);
/* The counter's unit, "" if none or not a counter */
const char    *ps_counter_node_get_unit         (PsCounterNode *self);
/* The labels from the top down to this node ("Processor, 0, % Processor
 * Time"), what a screen reader says for it */
char          *ps_counter_node_dup_path         (PsCounterNode *self);
/* Borrowed; NULL at the top */
PsCounterNode *ps_counter_node_get_parent       (PsCounterNode *self);
/* The nearest node of that kind from this one up, or NULL */
PsCounterNode *ps_counter_node_get_ancestor     (PsCounterNode *self,
                                                 PsTrackKind    kind);
/* Whether the node is or is below the instance that totals the others
 * of its object, `_Total` (PERF_AGGREGATE_INSTANCE, perflib-v2.md §3.10),
 * or Processor Information's total of a NUMA node, `0,_Total` */
gboolean       ps_counter_node_is_aggregate     (PsCounterNode *self);
/* PsCounterNode items; NULL for a counter */
GListStore    *ps_counter_node_get_children     (PsCounterNode *self);
gboolean       ps_counter_node_get_checked      (PsCounterNode *self);
gboolean       ps_counter_node_get_inconsistent (PsCounterNode *self);
/* Of a counter: itself; of another node: every counter below it */
void           ps_counter_node_set_checked      (PsCounterNode *self,
                                                 gboolean       checked);
/* Whether the label of the node or of a node below it contains text,
 * ignoring case */
gboolean       ps_counter_node_matches          (PsCounterNode *self,
                                                 const char    *casefolded_text);

G_END_DECLS

/* ps-call-tree-view.h — the call-tree page: the four instrumentation values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (elapsed/application × inclusive/
 * exclusive, per call, call tree, caller/callee) and §4 (percentages and
 * their basis). Shows a PsCallTree as a top-down tree, a bottom-up tree
 * a flat list of functions or a flame graph, with the callers and callees of the
 * selected function below. With the store the tree was built from, it can
 * build the tree of one thread, or convert a report's timer ticks, in a
 * worker thread.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-call-tree.h"
#include "ps-event-store.h"

G_BEGIN_DECLS

#define PS_TYPE_CALL_TREE_VIEW (ps_call_tree_view_get_type ())
G_DECLARE_FINAL_TYPE (PsCallTreeView, ps_call_tree_view, PS, CALL_TREE_VIEW, GtkWidget)

GtkWidget    *ps_call_tree_view_new       (void);
/* The tree shown (that of one thread when one is chosen), or NULL */
PsCallTree   *ps_call_tree_view_get_tree  (PsCallTreeView *self);
/* The tree of the whole run; the thread and the tick rate start over */
void          ps_call_tree_view_set_tree  (PsCallTreeView *self,
                                           PsCallTree     *tree);
/* Whether the tree to show is being computed (by the view that gives it):
 * without a tree, the view says so rather than that the run has no calls */
void          ps_call_tree_view_set_tree_coming (PsCallTreeView *self,
                                           gboolean        coming);
/* The run the tree was built from, or NULL: offers one tree per thread
 * and a tick rate for reports in ticks */
PsEventStore *ps_call_tree_view_get_store (PsCallTreeView *self);
void          ps_call_tree_view_set_store (PsCallTreeView *self,
                                           PsEventStore   *store);
/* "top-down", "bottom-up", "functions" or "flame-graph" */
const char   *ps_call_tree_view_get_mode  (PsCallTreeView *self);
void          ps_call_tree_view_set_mode  (PsCallTreeView *self,
                                           const char     *mode);
/* The track of the thread whose tree is shown, PS_NONE for all threads
 * (property "thread") */
guint32       ps_call_tree_view_get_thread (PsCallTreeView *self);
/* Of the computed percentages (reports give their own) */
PsCallBasis   ps_call_tree_view_get_basis (PsCallTreeView *self);
void          ps_call_tree_view_set_basis (PsCallTreeView *self,
                                           PsCallBasis     basis);

/* Shows a function another view chose: its row in the Functions list
 * when that is shown, and its callers and callees in every mode; emits
 * "function-selected" when it is another one */
void            ps_call_tree_view_show_function (PsCallTreeView *self,
                                                 guint32         function);

void            ps_call_tree_view_set_span_selection (PsCallTreeView *self,
                                                      GBytes         *selection,
                                                      const char     *description);
gboolean        ps_call_tree_view_has_span_selection (PsCallTreeView *self);

G_END_DECLS

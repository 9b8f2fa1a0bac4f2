/* ps-scope-list.h — rows of the scope tree as a GListModel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Either the children of one node of a PsScopeTree, or a given list of
 * nodes (the sessions or threads at the top, the results of a search).
 * Items (PsScopeRow) are made in get_item only.
 */
#pragma once

#include <gio/gio.h>

#include "ps-scope-analysis.h"
#include "ps-scope-row.h"

G_BEGIN_DECLS

#define PS_TYPE_SCOPE_LIST (ps_scope_list_get_type ())
G_DECLARE_FINAL_TYPE (PsScopeList, ps_scope_list, PS, SCOPE_LIST, GObject)

/* The children of node in the analysis' tree */
PsScopeList *ps_scope_list_new_children (PsScopeAnalysis *analysis,
                                         PsScopeNode      node);
/* nodes: PsScopeNode whose kind is a PsScopeRowKind; the array is referenced */
PsScopeList *ps_scope_list_new_nodes    (PsScopeAnalysis *analysis,
                                         GArray          *nodes);
/* The top of the tree: one row per session when there are several, else
 * one per thread; threads with nothing to show are left out */
PsScopeList *ps_scope_list_new_top      (PsScopeAnalysis *analysis);
/* The threads of one session */
PsScopeList *ps_scope_list_new_session  (PsScopeAnalysis *analysis,
                                         guint32          session);

/* The rows below row, or NULL (for GtkTreeListModel); here rather than
 * with the row so that a row does not know its list */
GListModel      *ps_scope_row_create_children (PsScopeRow *row);

G_END_DECLS

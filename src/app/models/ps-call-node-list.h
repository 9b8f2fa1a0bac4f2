/* ps-call-node-list.h — rows of the call-tree page as a GListModel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The children of one node of the top-down or bottom-up tree, the
 * functions, the addresses of one function that stands for a module's
 * unnamed code, or the callers or callees of one function. Under a search,
 * tree lists keep the children that match or have a match below, and the
 * function list keeps the functions that match. Items (PsCallNodeRow) are
 * made in get_item only.
 */
#pragma once

#include <gio/gio.h>

#include "ps-call-node-row.h"
#include "ps-call-search.h"

G_BEGIN_DECLS

#define PS_TYPE_CALL_NODE_LIST (ps_call_node_list_get_type ())
G_DECLARE_FINAL_TYPE (PsCallNodeList, ps_call_node_list, PS, CALL_NODE_LIST, GObject)

/* kind: PS_CALL_NODE_ROW_TOP_DOWN or _BOTTOM_UP; parent: a node of that
 * tree (PS_CALL_NODE_ROOT for the top rows); search may be NULL, and is
 * ignored when parent_in_match */
PsCallNodeList *ps_call_node_list_new_children  (PsCallTree        *tree,
                                                 PsCallNodeRowKind  kind,
                                                 guint32            parent,
                                                 PsCallSearch      *search,
                                                 gboolean           parent_in_match);
PsCallNodeList *ps_call_node_list_new_functions (PsCallTree        *tree,
                                                 PsCallSearch      *search);
/* The addresses a function stands for (PS_CALL_NODE_ROW_ADDRESS rows) */
PsCallNodeList *ps_call_node_list_new_addresses (PsCallTree        *tree,
                                                 guint32            function);
/* kind: PS_CALL_NODE_ROW_CALLER or _CALLEE; relations: GArray of
 * PsCallRelation, referenced */
PsCallNodeList *ps_call_node_list_new_relations (PsCallTree        *tree,
                                                 PsCallNodeRowKind  kind,
                                                 GArray            *relations);

/* The rows below row, or NULL (for GtkTreeListModel); here rather than
 * with the row so that a row does not know its list */
GListModel     *ps_call_node_row_create_children (PsCallNodeRow *row);

G_END_DECLS

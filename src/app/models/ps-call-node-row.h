/* ps-call-node-row.h — one row of the call-tree page
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A node of the top-down or bottom-up tree, a function of the flat list,
 * or a caller or callee of a function. Made by PsCallNodeList in get_item
 * only, i.e. for the rows of expanded nodes; the values stay in the
 * PsCallTree (relations keep their own copy, as ps_call_tree_get_callers ()
 * returns them).
 */
#pragma once

#include <gio/gio.h>

#include "ps-call-search.h"
#include "ps-call-tree.h"

G_BEGIN_DECLS

typedef enum
{
  PS_CALL_NODE_ROW_TOP_DOWN,   /* index: a top-down node */
  PS_CALL_NODE_ROW_BOTTOM_UP,  /* index: a bottom-up node */
  PS_CALL_NODE_ROW_FUNCTION,   /* index: a function */
  PS_CALL_NODE_ROW_CALLER,     /* a caller of a function (PS_NONE: none) */
  PS_CALL_NODE_ROW_CALLEE,     /* a callee of a function */
  PS_CALL_NODE_ROW_ADDRESS,    /* index: an address of a function that
                                * stands for a module's unnamed code */
} PsCallNodeRowKind;

#define PS_TYPE_CALL_NODE_ROW (ps_call_node_row_get_type ())
G_DECLARE_FINAL_TYPE (PsCallNodeRow, ps_call_node_row, PS, CALL_NODE_ROW, GObject)

/* search: the search the row's children are filtered by, or NULL;
 * in_match: the row or a row above it matched, so its children are not
 * filtered */
PsCallNodeRow     *ps_call_node_row_new          (PsCallTree           *tree,
                                                  PsCallNodeRowKind     kind,
                                                  guint32               index,
                                                  PsCallSearch         *search,
                                                  gboolean              in_match);
PsCallNodeRow     *ps_call_node_row_new_relation (PsCallTree           *tree,
                                                  PsCallNodeRowKind     kind,
                                                  const PsCallRelation *relation);
/* The address index of function (ps_call_tree_get_function_address_name ()) */
PsCallNodeRow     *ps_call_node_row_new_address  (PsCallTree           *tree,
                                                  guint32               function,
                                                  guint                 index);
PsCallTree        *ps_call_node_row_get_tree     (PsCallNodeRow        *self);
PsCallNodeRowKind  ps_call_node_row_get_kind     (PsCallNodeRow        *self);
guint32            ps_call_node_row_get_index    (PsCallNodeRow        *self);
/* The function of the row, PS_NONE for a root or the caller of an entry
 * point; an address row's is the function of its module */
guint32            ps_call_node_row_get_function (PsCallNodeRow        *self);
/* Valid UTF-8; in the function list, a module's unnamed code says how
 * many addresses it stands for */
const char        *ps_call_node_row_get_name     (PsCallNodeRow        *self);
/* The addresses the row's function stands for, 0 for a named function */
guint              ps_call_node_row_get_n_addresses (PsCallNodeRow     *self);
/* "" when unknown */
const char        *ps_call_node_row_get_module   (PsCallNodeRow        *self);
const PsCallStats *ps_call_node_row_get_stats    (PsCallNodeRow        *self);
/* Whether the search matched this row's function */
gboolean           ps_call_node_row_is_match     (PsCallNodeRow        *self);
/* The search the row's children are filtered by, or NULL; whether the row
 * or a row above it matched (ps_call_node_row_new ()) */
PsCallSearch      *ps_call_node_row_get_search   (PsCallNodeRow        *self);
gboolean           ps_call_node_row_get_in_match (PsCallNodeRow        *self);

G_END_DECLS

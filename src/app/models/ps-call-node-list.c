/* ps-call-node-list.c — rows of the call-tree page as a GListModel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-call-node-list.h"

struct _PsCallNodeList
{
  GObject            parent_instance;

  PsCallTree        *tree;
  PsCallNodeRowKind  kind;
  PsCallSearch      *search;      /* passed on to the rows, or NULL */
  guint32            parent;      /* tree lists */
  gboolean           in_match;    /* tree lists: the parent or a row above it matched */
  GArray            *ids;         /* the ids shown (filtered), or NULL: all */
  GArray            *relations;   /* PsCallRelation: caller and callee lists */
  guint32            function;    /* address lists */
};

static GType
ps_call_node_list_get_item_type (GListModel *model)
{
  return PS_TYPE_CALL_NODE_ROW;
}

static guint
ps_call_node_list_get_n_items (GListModel *model)
{
  PsCallNodeList *self = PS_CALL_NODE_LIST (model);

  if (self->relations != NULL)
    return self->relations->len;
  if (self->ids != NULL)
    return self->ids->len;

  switch (self->kind)
    {
    case PS_CALL_NODE_ROW_TOP_DOWN:
      return ps_call_tree_get_n_children (self->tree, self->parent);
    case PS_CALL_NODE_ROW_BOTTOM_UP:
      return ps_call_tree_get_n_callers_children (self->tree, self->parent);
    case PS_CALL_NODE_ROW_FUNCTION:
      return ps_call_tree_get_n_functions (self->tree);
    case PS_CALL_NODE_ROW_ADDRESS:
      return ps_call_tree_get_n_function_addresses (self->tree, self->function);
    case PS_CALL_NODE_ROW_CALLER:
    case PS_CALL_NODE_ROW_CALLEE:
    default:
      return 0;
    }
}

static guint32
child_id (PsCallTree        *tree,
          PsCallNodeRowKind  kind,
          guint32            parent,
          guint              position)
{
  switch (kind)
    {
    case PS_CALL_NODE_ROW_TOP_DOWN:
      return ps_call_tree_get_child (tree, parent, position);
    case PS_CALL_NODE_ROW_BOTTOM_UP:
      return ps_call_tree_get_callers_child (tree, parent, position);
    case PS_CALL_NODE_ROW_FUNCTION:
    case PS_CALL_NODE_ROW_CALLER:
    case PS_CALL_NODE_ROW_CALLEE:
    default:
      return position;
    }
}

static gpointer
ps_call_node_list_get_item (GListModel *model,
                            guint       position)
{
  PsCallNodeList *self = PS_CALL_NODE_LIST (model);
  guint32 id;
  gboolean in_match;

  if (position >= ps_call_node_list_get_n_items (model))
    return NULL;

  if (self->relations != NULL)
    return ps_call_node_row_new_relation (self->tree, self->kind,
                                          &g_array_index (self->relations, PsCallRelation, position));
  if (self->kind == PS_CALL_NODE_ROW_ADDRESS)
    return ps_call_node_row_new_address (self->tree, self->function, position);

  if (self->ids != NULL)
    id = g_array_index (self->ids, guint32, position);
  else
    id = child_id (self->tree, self->kind, self->parent, position);

  /* Below a match, everything is shown */
  in_match = self->search == NULL || self->in_match
             || (ps_call_search_get_flags (self->search, id) & PS_CALL_SEARCH_FLAG_MATCH) != 0;
  return ps_call_node_row_new (self->tree, self->kind, id, self->search, in_match);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = ps_call_node_list_get_item_type;
  iface->get_n_items = ps_call_node_list_get_n_items;
  iface->get_item = ps_call_node_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (PsCallNodeList, ps_call_node_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
ps_call_node_list_finalize (GObject *object)
{
  PsCallNodeList *self = PS_CALL_NODE_LIST (object);

  g_clear_object (&self->tree);
  g_clear_pointer (&self->search, ps_call_search_unref);
  g_clear_pointer (&self->ids, g_array_unref);
  g_clear_pointer (&self->relations, g_array_unref);

  G_OBJECT_CLASS (ps_call_node_list_parent_class)->finalize (object);
}

static void
ps_call_node_list_class_init (PsCallNodeListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_call_node_list_finalize;
}

static void
ps_call_node_list_init (PsCallNodeList *self)
{
}

static PsCallNodeList *
list_new (PsCallTree        *tree,
          PsCallNodeRowKind  kind,
          PsCallSearch      *search)
{
  PsCallNodeList *self = g_object_new (PS_TYPE_CALL_NODE_LIST, NULL);

  self->tree = g_object_ref (tree);
  self->kind = kind;
  self->search = search != NULL ? ps_call_search_ref (search) : NULL;
  return self;
}

/* The ids of the unfiltered list that the search keeps */
static GArray *
filter_ids (PsCallNodeList *self,
            guint           n_all)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < n_all; i++)
    {
      guint32 id = child_id (self->tree, self->kind, self->parent, i);

      if (ps_call_search_get_flags (self->search, id) != 0)
        g_array_append_val (ids, id);
    }

  return ids;
}

PsCallNodeList *
ps_call_node_list_new_children (PsCallTree        *tree,
                                PsCallNodeRowKind  kind,
                                guint32            parent,
                                PsCallSearch      *search,
                                gboolean           parent_in_match)
{
  PsCallNodeList *self;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (kind == PS_CALL_NODE_ROW_TOP_DOWN || kind == PS_CALL_NODE_ROW_BOTTOM_UP, NULL);

  self = list_new (tree, kind, search);
  self->parent = parent;
  self->in_match = parent_in_match;

  if (search != NULL && !parent_in_match)
    self->ids = filter_ids (self, ps_call_node_list_get_n_items (G_LIST_MODEL (self)));

  return self;
}

PsCallNodeList *
ps_call_node_list_new_functions (PsCallTree   *tree,
                                 PsCallSearch *search)
{
  PsCallNodeList *self;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);

  self = list_new (tree, PS_CALL_NODE_ROW_FUNCTION, search);
  if (search != NULL)
    {
      self->ids = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint32 f = 0; f < ps_call_tree_get_n_functions (tree); f++)
        if (ps_call_search_function_matches (search, f))
          g_array_append_val (self->ids, f);
    }

  return self;
}

PsCallNodeList *
ps_call_node_list_new_addresses (PsCallTree *tree,
                                 guint32     function)
{
  PsCallNodeList *self;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);

  self = list_new (tree, PS_CALL_NODE_ROW_ADDRESS, NULL);
  self->function = function;
  return self;
}

PsCallNodeList *
ps_call_node_list_new_relations (PsCallTree        *tree,
                                 PsCallNodeRowKind  kind,
                                 GArray            *relations)
{
  PsCallNodeList *self;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (kind == PS_CALL_NODE_ROW_CALLER || kind == PS_CALL_NODE_ROW_CALLEE, NULL);
  g_return_val_if_fail (relations != NULL, NULL);

  self = list_new (tree, kind, NULL);
  self->relations = g_array_ref (relations);
  return self;
}

GListModel *
ps_call_node_row_create_children (PsCallNodeRow *self)
{
  g_autoptr(PsCallNodeList) children = NULL;
  PsCallTree *tree;
  PsCallNodeRowKind kind;
  guint32 index;

  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), NULL);

  tree = ps_call_node_row_get_tree (self);
  kind = ps_call_node_row_get_kind (self);
  index = ps_call_node_row_get_index (self);

  /* A module's unnamed code opens to its addresses */
  if (kind == PS_CALL_NODE_ROW_FUNCTION && ps_call_node_row_get_n_addresses (self) > 0)
    return G_LIST_MODEL (ps_call_node_list_new_addresses (tree, index));
  if (kind != PS_CALL_NODE_ROW_TOP_DOWN && kind != PS_CALL_NODE_ROW_BOTTOM_UP)
    return NULL;

  children = ps_call_node_list_new_children (tree, kind, index, ps_call_node_row_get_search (self),
                                             ps_call_node_row_get_in_match (self));
  if (g_list_model_get_n_items (G_LIST_MODEL (children)) == 0)
    return NULL;
  return G_LIST_MODEL (g_steal_pointer (&children));
}

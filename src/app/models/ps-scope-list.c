/* ps-scope-list.c — rows of the scope tree as a GListModel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-scope-list.h"

struct _PsScopeList
{
  GObject          parent_instance;

  PsScopeAnalysis *analysis;
  PsScopeNode      parent;  /* children mode */
  GArray          *nodes;   /* PsScopeNode, or NULL in children mode */
};

static GType
ps_scope_list_get_item_type (GListModel *model)
{
  return PS_TYPE_SCOPE_ROW;
}

static guint
ps_scope_list_get_n_items (GListModel *model)
{
  PsScopeList *self = PS_SCOPE_LIST (model);

  if (self->nodes != NULL)
    return self->nodes->len;
  return ps_scope_tree_get_n_children (self->analysis->tree, self->parent);
}

static gpointer
ps_scope_list_get_item (GListModel *model,
                        guint       position)
{
  PsScopeList *self = PS_SCOPE_LIST (model);
  PsScopeNode node;

  if (position >= ps_scope_list_get_n_items (model))
    return NULL;

  if (self->nodes != NULL)
    node = g_array_index (self->nodes, PsScopeNode, position);
  else
    node = ps_scope_tree_get_child (self->analysis->tree, self->parent, position);

  return ps_scope_row_new (self->analysis, node.kind, node.index);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = ps_scope_list_get_item_type;
  iface->get_n_items = ps_scope_list_get_n_items;
  iface->get_item = ps_scope_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (PsScopeList, ps_scope_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
ps_scope_list_finalize (GObject *object)
{
  PsScopeList *self = PS_SCOPE_LIST (object);

  g_clear_pointer (&self->analysis, ps_scope_analysis_unref);
  g_clear_pointer (&self->nodes, g_array_unref);

  G_OBJECT_CLASS (ps_scope_list_parent_class)->finalize (object);
}

static void
ps_scope_list_class_init (PsScopeListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_scope_list_finalize;
}

static void
ps_scope_list_init (PsScopeList *self)
{
}

PsScopeList *
ps_scope_list_new_children (PsScopeAnalysis *analysis,
                            PsScopeNode      node)
{
  PsScopeList *self;

  g_return_val_if_fail (analysis != NULL, NULL);

  self = g_object_new (PS_TYPE_SCOPE_LIST, NULL);
  self->analysis = ps_scope_analysis_ref (analysis);
  self->parent = node;

  return self;
}

PsScopeList *
ps_scope_list_new_nodes (PsScopeAnalysis *analysis,
                         GArray          *nodes)
{
  PsScopeList *self;

  g_return_val_if_fail (analysis != NULL, NULL);
  g_return_val_if_fail (nodes != NULL, NULL);

  self = g_object_new (PS_TYPE_SCOPE_LIST, NULL);
  self->analysis = ps_scope_analysis_ref (analysis);
  self->nodes = g_array_ref (nodes);

  return self;
}

static void
append_node (GArray  *nodes,
             guint32  kind,
             guint32  index)
{
  PsScopeNode node = { kind, index };

  g_array_append_val (nodes, node);
}

/* Threads the filters left empty are not shown */
static gboolean
root_is_shown (const PsScopeRoot *root)
{
  return root->n_spans > 0 || root->n_marks > 0;
}

PsScopeList *
ps_scope_list_new_top (PsScopeAnalysis *analysis)
{
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (PsScopeNode));
  PsScopeTree *tree;
  guint n_sessions;

  g_return_val_if_fail (analysis != NULL, NULL);

  tree = analysis->tree;
  n_sessions = ps_event_store_get_n_sessions (analysis->store);

  if (n_sessions > 1)
    {
      /* Only the sessions that have threads */
      for (guint s = 0; s < n_sessions; s++)
        for (guint r = 0; r < ps_scope_tree_get_n_roots (tree); r++)
          if (ps_scope_tree_get_root (tree, r)->session == s && root_is_shown (ps_scope_tree_get_root (tree, r)))
            {
              append_node (nodes, PS_SCOPE_ROW_SESSION, s);
              break;
            }
    }
  else
    {
      for (guint r = 0; r < ps_scope_tree_get_n_roots (tree); r++)
        if (root_is_shown (ps_scope_tree_get_root (tree, r)))
          append_node (nodes, PS_SCOPE_ROW_THREAD, ps_scope_tree_get_root (tree, r)->track);
    }

  return ps_scope_list_new_nodes (analysis, nodes);
}

PsScopeList *
ps_scope_list_new_session (PsScopeAnalysis *analysis,
                           guint32          session)
{
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (PsScopeNode));
  PsScopeTree *tree;

  g_return_val_if_fail (analysis != NULL, NULL);

  tree = analysis->tree;
  for (guint r = 0; r < ps_scope_tree_get_n_roots (tree); r++)
    if (ps_scope_tree_get_root (tree, r)->session == session && root_is_shown (ps_scope_tree_get_root (tree, r)))
      append_node (nodes, PS_SCOPE_ROW_THREAD, ps_scope_tree_get_root (tree, r)->track);

  return ps_scope_list_new_nodes (analysis, nodes);
}

GListModel *
ps_scope_row_create_children (PsScopeRow *self)
{
  PsScopeAnalysis *analysis;
  PsScopeNode node;

  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), NULL);

  analysis = ps_scope_row_get_analysis (self);
  node = (PsScopeNode) { ps_scope_row_get_kind (self), ps_scope_row_get_index (self) };

  if (node.kind == PS_SCOPE_ROW_SESSION)
    return G_LIST_MODEL (ps_scope_list_new_session (analysis, node.index));
  if (node.kind == PS_SCOPE_ROW_MARK || ps_scope_tree_get_n_children (analysis->tree, node) == 0)
    return NULL;

  return G_LIST_MODEL (ps_scope_list_new_children (analysis, node));
}

/* ps-call-node-row.c — one row of the call-tree page
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-call-node-row.h"
#include "ps-util.h"
#include "ps-view-util.h"

struct _PsCallNodeRow
{
  GObject            parent_instance;

  PsCallTree        *tree;
  PsCallSearch      *search;
  PsCallNodeRowKind  kind;
  guint32            index;
  gboolean           in_match;
  PsCallStats        relation_stats;  /* callers, callees and addresses */
  guint32            address_function; /* addresses: the module's function */
  char              *name;            /* made on first use */
};

G_DEFINE_FINAL_TYPE (PsCallNodeRow, ps_call_node_row, G_TYPE_OBJECT)

static void
ps_call_node_row_finalize (GObject *object)
{
  PsCallNodeRow *self = PS_CALL_NODE_ROW (object);

  g_clear_object (&self->tree);
  g_clear_pointer (&self->search, ps_call_search_unref);
  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (ps_call_node_row_parent_class)->finalize (object);
}

static void
ps_call_node_row_class_init (PsCallNodeRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_call_node_row_finalize;
}

static void
ps_call_node_row_init (PsCallNodeRow *self)
{
}

PsCallNodeRow *
ps_call_node_row_new (PsCallTree        *tree,
                      PsCallNodeRowKind  kind,
                      guint32            index,
                      PsCallSearch      *search,
                      gboolean           in_match)
{
  PsCallNodeRow *self;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (kind <= PS_CALL_NODE_ROW_FUNCTION, NULL);

  self = g_object_new (PS_TYPE_CALL_NODE_ROW, NULL);
  self->tree = g_object_ref (tree);
  self->kind = kind;
  self->index = index;
  self->search = search != NULL ? ps_call_search_ref (search) : NULL;
  self->in_match = in_match;

  return self;
}

PsCallNodeRow *
ps_call_node_row_new_relation (PsCallTree           *tree,
                               PsCallNodeRowKind     kind,
                               const PsCallRelation *relation)
{
  PsCallNodeRow *self;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (kind == PS_CALL_NODE_ROW_CALLER || kind == PS_CALL_NODE_ROW_CALLEE, NULL);
  g_return_val_if_fail (relation != NULL, NULL);

  self = g_object_new (PS_TYPE_CALL_NODE_ROW, NULL);
  self->tree = g_object_ref (tree);
  self->kind = kind;
  self->index = relation->function;
  self->relation_stats = relation->stats;

  return self;
}

PsCallNodeRow *
ps_call_node_row_new_address (PsCallTree *tree,
                              guint32     function,
                              guint       index)
{
  PsCallNodeRow *self;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (index < ps_call_tree_get_n_function_addresses (tree, function), NULL);

  self = g_object_new (PS_TYPE_CALL_NODE_ROW, NULL);
  self->tree = g_object_ref (tree);
  self->kind = PS_CALL_NODE_ROW_ADDRESS;
  self->index = index;
  self->address_function = function;
  ps_call_tree_get_function_address_stats (tree, function, index, &self->relation_stats);

  return self;
}

PsCallTree *
ps_call_node_row_get_tree (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), NULL);
  return self->tree;
}

PsCallNodeRowKind
ps_call_node_row_get_kind (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), 0);
  return self->kind;
}

guint32
ps_call_node_row_get_index (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), PS_NONE);
  return self->index;
}

guint32
ps_call_node_row_get_function (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), PS_NONE);

  switch (self->kind)
    {
    case PS_CALL_NODE_ROW_TOP_DOWN:
      return ps_call_tree_get_node_function (self->tree, self->index);
    case PS_CALL_NODE_ROW_BOTTOM_UP:
      return ps_call_tree_get_callers_node_function (self->tree, self->index);
    case PS_CALL_NODE_ROW_ADDRESS:
      return self->address_function;
    case PS_CALL_NODE_ROW_FUNCTION:
    case PS_CALL_NODE_ROW_CALLER:
    case PS_CALL_NODE_ROW_CALLEE:
    default:
      return self->index;
    }
}

const char *
ps_call_node_row_get_name (PsCallNodeRow *self)
{
  guint32 function;

  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), NULL);

  if (self->name != NULL)
    return self->name;

  function = ps_call_node_row_get_function (self);
  if (self->kind == PS_CALL_NODE_ROW_ADDRESS)
    self->name = ps_util_display_text (ps_call_tree_get_function_address_name (self->tree, function, self->index), -1);
  else if (self->kind == PS_CALL_NODE_ROW_FUNCTION && ps_call_node_row_get_n_addresses (self) > 0)
    {
      g_autofree char *module = ps_util_display_text (ps_call_tree_get_function_name (self->tree, function), -1);
      g_autofree char *count = ps_view_format_count (ps_call_node_row_get_n_addresses (self));

      /* Translators: a module standing for its code without function
       * names, "libc.so.7 (3,507 addresses)" */
      self->name = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%s address)", "%s (%s addresses)",
                                                 ps_call_node_row_get_n_addresses (self)),
                                    module, count);
    }
  else if (function != PS_NONE)
    self->name = ps_util_display_text (ps_call_tree_get_function_name (self->tree, function), -1);
  else if (self->kind == PS_CALL_NODE_ROW_CALLER)
    /* Translators: the caller of a function called from the top of a stack */
    self->name = g_strdup (_("(entry point)"));
  else
    /* Translators: the root of a call tree */
    self->name = g_strdup (_("(all calls)"));

  return self->name;
}

const char *
ps_call_node_row_get_module (PsCallNodeRow *self)
{
  guint32 function;
  const char *module;

  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), NULL);

  function = ps_call_node_row_get_function (self);
  if (function == PS_NONE)
    return "";
  module = ps_call_tree_get_function_module (self->tree, function);
  return module != NULL ? module : "";
}

guint
ps_call_node_row_get_n_addresses (PsCallNodeRow *self)
{
  guint32 function;

  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), 0);

  function = ps_call_node_row_get_function (self);
  if (self->kind == PS_CALL_NODE_ROW_ADDRESS || function == PS_NONE)
    return 0;
  return ps_call_tree_get_n_function_addresses (self->tree, function);
}

const PsCallStats *
ps_call_node_row_get_stats (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), NULL);

  switch (self->kind)
    {
    case PS_CALL_NODE_ROW_TOP_DOWN:
      return ps_call_tree_get_node_stats (self->tree, self->index);
    case PS_CALL_NODE_ROW_BOTTOM_UP:
      return ps_call_tree_get_callers_node_stats (self->tree, self->index);
    case PS_CALL_NODE_ROW_FUNCTION:
      return ps_call_tree_get_function_stats (self->tree, self->index);
    case PS_CALL_NODE_ROW_CALLER:
    case PS_CALL_NODE_ROW_CALLEE:
    default:
      return &self->relation_stats;
    }
}

gboolean
ps_call_node_row_is_match (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), FALSE);

  return self->search != NULL
         && ps_call_search_function_matches (self->search, ps_call_node_row_get_function (self));
}

PsCallSearch *
ps_call_node_row_get_search (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), NULL);
  return self->search;
}

gboolean
ps_call_node_row_get_in_match (PsCallNodeRow *self)
{
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (self), FALSE);
  return self->in_match;
}

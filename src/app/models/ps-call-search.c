/* ps-call-search.c — which rows of a call tree a name search keeps
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ps-call-search.h"
#include "ps-task-util.h"
#include "ps-util.h"

/* How often the walk looks at its cancellable */
#define CHECK_INTERVAL 4096

struct _PsCallSearch
{
  PsCallTree        *tree;
  PsCallSearchScope  scope;
  char              *text;
  guint8            *function_matches;  /* one per function */
  guint              n_functions;
  guint              n_matching_functions;
  guint8            *node_flags;        /* top-down: one per node */
  guint              n_nodes;
};

G_DEFINE_BOXED_TYPE (PsCallSearch, ps_call_search, ps_call_search_ref, ps_call_search_unref)

static void
ps_call_search_clear (gpointer data)
{
  PsCallSearch *self = data;

  g_clear_object (&self->tree);
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->function_matches, g_free);
  g_clear_pointer (&self->node_flags, g_free);
}

PsCallSearch *
ps_call_search_ref (PsCallSearch *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
ps_call_search_unref (PsCallSearch *self)
{
  g_atomic_rc_box_release_full (self, ps_call_search_clear);
}

static gboolean
name_matches (const char *name,
              const char *needle)
{
  g_autofree char *display = NULL;
  g_autofree char *folded = NULL;

  if (name == NULL)
    return FALSE;
  display = ps_util_display_text (name, -1);
  folded = g_utf8_casefold (display, -1);
  return strstr (folded, needle) != NULL;
}

/* A module's unnamed code matches when one of its addresses does */
static gboolean
address_matches (PsCallTree *tree,
                 guint32     function,
                 const char *needle)
{
  for (guint i = 0; i < ps_call_tree_get_n_function_addresses (tree, function); i++)
    if (name_matches (ps_call_tree_get_function_address_name (tree, function, i), needle))
      return TRUE;
  return FALSE;
}

typedef struct
{
  guint32 node;
  guint   next_child;
} Frame;

/* A node's flags are known once all its children are done, and then tell
 * its parent (the frame below it) whether a match is below */
static gboolean
mark_top_down (PsCallSearch *self,
               GCancellable *cancellable)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  Frame root = { PS_CALL_NODE_ROOT, 0 };
  guint64 steps = 0;

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      Frame *top = &g_array_index (stack, Frame, stack->len - 1);
      guint32 node = top->node;

      if (++steps % CHECK_INTERVAL == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;

      if (top->next_child < ps_call_tree_get_n_children (self->tree, node))
        {
          Frame child;

          child.node = ps_call_tree_get_child (self->tree, node, top->next_child);
          child.next_child = 0;
          top->next_child++;
          g_array_append_val (stack, child);
          continue;
        }

      /* All children done */
      if (node != PS_CALL_NODE_ROOT
          && ps_call_search_function_matches (self, ps_call_tree_get_node_function (self->tree, node)))
        self->node_flags[node] |= PS_CALL_SEARCH_FLAG_MATCH;

      g_array_set_size (stack, stack->len - 1);
      if (stack->len > 0 && self->node_flags[node] != 0)
        self->node_flags[g_array_index (stack, Frame, stack->len - 1).node] |= PS_CALL_SEARCH_FLAG_BELOW;
    }

  return TRUE;
}

PsCallSearch *
ps_call_search_new (PsCallTree        *tree,
                    PsCallSearchScope  scope,
                    const char        *text,
                    GCancellable      *cancellable)
{
  g_autoptr(PsCallSearch) self = NULL;
  g_autofree char *needle = NULL;

  g_return_val_if_fail (PS_IS_CALL_TREE (tree), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  self = g_atomic_rc_box_new0 (PsCallSearch);
  self->tree = g_object_ref (tree);
  self->scope = scope;
  self->text = g_strdup (text);

  needle = g_utf8_casefold (text, -1);
  self->n_functions = ps_call_tree_get_n_functions (tree);
  self->function_matches = g_new0 (guint8, self->n_functions + 1);
  for (guint f = 0; f < self->n_functions; f++)
    {
      if (f % CHECK_INTERVAL == 0 && g_cancellable_is_cancelled (cancellable))
        return NULL;
      self->function_matches[f] = name_matches (ps_call_tree_get_function_name (tree, f), needle)
                                  || address_matches (tree, f, needle);
      self->n_matching_functions += self->function_matches[f];
    }

  switch (scope)
    {
    case PS_CALL_SEARCH_TOP_DOWN:
      self->n_nodes = ps_call_tree_get_n_nodes (tree);
      self->node_flags = g_new0 (guint8, self->n_nodes + 1);
      if (!mark_top_down (self, cancellable))
        return NULL;
      break;

    case PS_CALL_SEARCH_BOTTOM_UP:
    case PS_CALL_SEARCH_FUNCTIONS:
    default:
      break;
    }

  return g_steal_pointer (&self);
}

typedef struct
{
  PsCallTree        *tree;
  PsCallSearchScope  scope;
  char              *text;
} ComputeData;

static void
compute_data_free (gpointer data)
{
  ComputeData *compute = data;

  g_clear_object (&compute->tree);
  g_free (compute->text);
  g_free (compute);
}

static gpointer
compute_search (gpointer      data,
                GCancellable *cancellable)
{
  ComputeData *compute = data;

  return ps_call_search_new (compute->tree, compute->scope, compute->text, cancellable);
}

static const PsComputation search_computation = {
  .source_tag = ps_call_search_compute_async,
  .compute = compute_search,
  .data_free = compute_data_free,
  .result_free = (GDestroyNotify)ps_call_search_unref,
};

void
ps_call_search_compute_async (PsCallTree          *tree,
                              PsCallSearchScope    scope,
                              const char          *text,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  ComputeData *compute;

  g_return_if_fail (PS_IS_CALL_TREE (tree));
  g_return_if_fail (text != NULL);

  compute = g_new0 (ComputeData, 1);
  compute->tree = g_object_ref (tree);
  compute->scope = scope;
  compute->text = g_strdup (text);

  ps_task_compute_in_thread (&search_computation, compute, cancellable, callback, user_data);
}

PsCallSearch *
ps_call_search_compute_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

PsCallTree *
ps_call_search_get_tree (PsCallSearch *self)
{
  return self->tree;
}

PsCallSearchScope
ps_call_search_get_scope (PsCallSearch *self)
{
  return self->scope;
}

const char *
ps_call_search_get_text (PsCallSearch *self)
{
  return self->text;
}

gboolean
ps_call_search_function_matches (PsCallSearch *self,
                                 guint32       function)
{
  return function < self->n_functions && self->function_matches[function];
}

PsCallSearchFlags
ps_call_search_get_flags (PsCallSearch *self,
                          guint32       id)
{
  switch (self->scope)
    {
    case PS_CALL_SEARCH_TOP_DOWN:
      return id < self->n_nodes ? self->node_flags[id] : 0;
    case PS_CALL_SEARCH_BOTTOM_UP:
      return ps_call_search_function_matches (self, ps_call_tree_get_callers_node_function (self->tree, id))
             ? PS_CALL_SEARCH_FLAG_MATCH : 0;
    case PS_CALL_SEARCH_FUNCTIONS:
    default:
      return ps_call_search_function_matches (self, id) ? PS_CALL_SEARCH_FLAG_MATCH : 0;
    }
}

guint
ps_call_search_get_n_functions (PsCallSearch *self)
{
  return self->n_matching_functions;
}

/* ps-call-search.h — which rows of a call tree a name search keeps
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A search looks for a text in the function names of a PsCallTree
 * (case-insensitive substring); a function that stands for a module's
 * unnamed code matches when one of its addresses does. In the top-down tree it marks the nodes
 * whose function matches and the nodes that have a match below them, so
 * that the call-tree page can keep the paths to the matches; computed in
 * one iterative pass (any depth), in a worker thread; immutable after.
 *
 * The bottom-up tree has every function at its top, so a search keeps the
 * functions that match there, with all their callers below. Looking for
 * matches further down would make the engine build the whole bottom-up
 * tree, which it otherwise builds only as far as it is opened (a 100 MB
 * RTL log: 1.5 million nodes and 340 MB more).
 */
#pragma once

#include <gio/gio.h>

#include "ps-call-tree.h"

G_BEGIN_DECLS

/* The tree a search marks */
typedef enum
{
  PS_CALL_SEARCH_FUNCTIONS,   /* the flat function list: ids are functions */
  PS_CALL_SEARCH_TOP_DOWN,    /* ids are top-down nodes */
  PS_CALL_SEARCH_BOTTOM_UP,   /* ids are bottom-up (callers) nodes; only
                               * the functions at the top are marked */
} PsCallSearchScope;

typedef enum
{
  PS_CALL_SEARCH_FLAG_NONE  = 0,
  PS_CALL_SEARCH_FLAG_MATCH = 1 << 0,  /* its function's name matches */
  PS_CALL_SEARCH_FLAG_BELOW = 1 << 1,  /* a node below it matches */
} PsCallSearchFlags;

typedef struct _PsCallSearch PsCallSearch;

#define PS_TYPE_CALL_SEARCH (ps_call_search_get_type ())

GType              ps_call_search_get_type       (void) G_GNUC_CONST;
/* Runs in any thread; NULL when cancelled */
PsCallSearch      *ps_call_search_new            (PsCallTree          *tree,
                                                  PsCallSearchScope    scope,
                                                  const char          *text,
                                                  GCancellable        *cancellable);
PsCallSearch      *ps_call_search_ref            (PsCallSearch        *self);
void               ps_call_search_unref          (PsCallSearch        *self);
void               ps_call_search_compute_async  (PsCallTree          *tree,
                                                  PsCallSearchScope    scope,
                                                  const char          *text,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
PsCallSearch      *ps_call_search_compute_finish (GAsyncResult        *result,
                                                  GError             **error);

PsCallTree        *ps_call_search_get_tree       (PsCallSearch        *self);
PsCallSearchScope  ps_call_search_get_scope      (PsCallSearch        *self);
/* The text as typed */
const char        *ps_call_search_get_text       (PsCallSearch        *self);
gboolean           ps_call_search_function_matches (PsCallSearch      *self,
                                                  guint32              function);
/* Of a node (or a function) of the search's scope */
PsCallSearchFlags  ps_call_search_get_flags      (PsCallSearch        *self,
                                                  guint32              id);
/* How many functions match */
guint              ps_call_search_get_n_functions (PsCallSearch       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsCallSearch, ps_call_search_unref)

G_END_DECLS

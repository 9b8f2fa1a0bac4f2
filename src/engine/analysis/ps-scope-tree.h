/* ps-scope-tree.h — the per-thread tree of scopes and messages
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3 ("per-thread tree") and §5 (the pretty-printed
 * list of the original tools, with include/exclude filters).
 *
 * A thread is a root; the children of a node are its child scopes (spans)
 * and the messages (marks) attached to it, merged in file order. With a
 * filter, the scopes it drops are left out and their children move up to
 * the nearest kept ancestor, so a begin and its end are never separated.
 * A message stays when it was written in a kept scope or when the filter
 * keeps its own record, "name : text" (the original tool filtered every
 * stamp that way).
 *
 * The tree is built in a few passes over the store, O(spans + marks), and
 * holds two guint32 per kept scope and one per message. It is immutable and can
 * be shared between threads once built.
 */
#pragma once

#include "ps-event-store.h"
#include "ps-scopes.h"

G_BEGIN_DECLS

typedef enum
{
  PS_SCOPE_NODE_THREAD,  /* index: a track of the store */
  PS_SCOPE_NODE_SPAN,    /* index: a span of the store */
  PS_SCOPE_NODE_MARK,    /* index: a mark of the store */
} PsScopeNodeKind;

typedef struct
{
  guint32 kind;   /* PsScopeNodeKind */
  guint32 index;
} PsScopeNode;

/* A thread at the top of the tree */
typedef struct
{
  guint32 track;
  guint32 session;
  guint64 n_spans;     /* scopes shown on the thread, at every depth */
  guint64 n_marks;     /* messages shown on the thread */
  gint64  begin_ns;    /* first begin or message, 0 if the thread is empty */
  gint64  end_ns;      /* last end or message */
  gint64  scoped_ns;   /* sum of the measured durations of its top-level scopes */
  guint64 n_unmeasured; /* top-level scopes left out of scoped_ns
                         * (PS_SPAN_FLAGS_NOT_MEASURED or negative) */
} PsScopeRoot;

typedef struct _PsScopeTree PsScopeTree;

/* filter may be NULL; it is only used while building. The store is
 * referenced. */
PsScopeTree       *ps_scope_tree_new           (PsEventStore  *store,
                                                PsScopeFilter *filter);
/* The same, NULL when cancellable (may be NULL) is cancelled meanwhile */
PsScopeTree       *ps_scope_tree_new_cancellable (PsEventStore *store,
                                                PsScopeFilter *filter,
                                                GCancellable  *cancellable);
PsScopeTree       *ps_scope_tree_ref           (PsScopeTree   *self);
void               ps_scope_tree_unref         (PsScopeTree   *self);
PsEventStore      *ps_scope_tree_get_store     (PsScopeTree   *self);
/* Whether it was built with a filter that drops something */
gboolean           ps_scope_tree_is_filtered   (PsScopeTree   *self);

/* Threads in track order (tracks are made per session, in the order the
 * threads first wrote) */
guint              ps_scope_tree_get_n_roots   (PsScopeTree   *self);
const PsScopeRoot *ps_scope_tree_get_root      (PsScopeTree   *self,
                                                guint          root);
/* The root of a track, or NULL */
const PsScopeRoot *ps_scope_tree_find_root     (PsScopeTree   *self,
                                                guint32        track);
/* The node of the root's thread */
PsScopeNode        ps_scope_tree_get_root_node (PsScopeTree   *self,
                                                guint          root);

/* Children in file order. Messages have none, nor do dropped scopes. */
guint              ps_scope_tree_get_n_children (PsScopeTree  *self,
                                                 PsScopeNode   node);
PsScopeNode        ps_scope_tree_get_child      (PsScopeTree  *self,
                                                 PsScopeNode   node,
                                                 guint         child);
/* Whether the filter kept the span, or the mark (always TRUE without a
 * filter) */
gboolean           ps_scope_tree_shows_span     (PsScopeTree  *self,
                                                 guint64       span);
gboolean           ps_scope_tree_shows_mark     (PsScopeTree  *self,
                                                 guint64       mark);
/* The node a message or a shown span hangs under: a kept scope or a thread */
PsScopeNode        ps_scope_tree_get_parent     (PsScopeTree  *self,
                                                 PsScopeNode   node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsScopeTree, ps_scope_tree_unref)

G_END_DECLS

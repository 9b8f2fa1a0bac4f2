/* ps-scope-tree.c — the per-thread tree of scopes and messages
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3, §5
 *
 * The children of all nodes sit in one array, grouped by parent (a
 * compressed adjacency list): a list model can then ask for child i of a
 * node in constant time, which a first-child/next-sibling chain could not
 * give a thread with a hundred thousand top-level scopes.
 */
#include "config.h"

#include "ps-scope-tree.h"
#include "ps-util.h"

struct _PsScopeTree
{
  PsEventStore *store;
  guint32       n_spans;
  guint32       n_marks;
  guint32       n_tracks;
  GArray       *roots;          /* PsScopeRoot */
  guint32      *root_of_track;  /* root index per track, or PS_NONE */
  /* Slots: span i is slot i, root r is slot n_spans + r. The children of
   * slot k are children[offsets[k]] … children[offsets[k + 1] - 1]. */
  guint32      *offsets;
  /* A span index, or n_spans + a mark index */
  guint32      *children;
  guint8       *hidden;         /* bit per span dropped by the filter, or NULL */
  guint8       *hidden_marks;   /* bit per mark dropped by the filter, or NULL */
};

static inline gboolean
is_hidden (const PsScopeTree *self,
           guint32            span)
{
  return self->hidden != NULL && (self->hidden[span / 8] & (1u << (span % 8))) != 0;
}

static inline gboolean
is_mark_hidden (const PsScopeTree *self,
                guint32            mark)
{
  return self->hidden_marks != NULL && (self->hidden_marks[mark / 8] & (1u << (mark % 8))) != 0;
}

static inline guint32
root_slot (const PsScopeTree *self,
           guint32            track)
{
  return self->n_spans + self->root_of_track[track];
}

/* Where the children of a span go: itself, or for a dropped span the
 * place of its own children (up[]) */
static inline guint32
slot_for_span (const PsScopeTree *self,
               const guint32     *up,
               guint32            span)
{
  return is_hidden (self, span) ? up[span] : span;
}

static guint32
slot_for_mark (const PsScopeTree *self,
               const guint32     *up,
               const PsMark      *mark)
{
  if (mark->span == PS_NONE || mark->span >= self->n_spans)
    return root_slot (self, mark->track);
  return slot_for_span (self, up, mark->span);
}

/* Threads are the roots, in track order; a track of another kind that
 * holds events gets a root too, so nothing is lost. */
static void
make_roots (PsScopeTree *self)
{
  PsEventStore *store = self->store;
  g_autofree guint8 *used = g_new0 (guint8, self->n_tracks + 1);

  for (guint32 i = 0; i < self->n_spans; i++)
    {
      guint32 track = ps_event_store_get_span (store, i)->track;

      if (track < self->n_tracks)
        used[track] = 1;
    }
  for (guint32 i = 0; i < self->n_marks; i++)
    {
      guint32 track = ps_event_store_get_mark (store, i)->track;

      if (track < self->n_tracks)
        used[track] = 1;
    }

  self->root_of_track = g_new (guint32, self->n_tracks + 1);
  for (guint32 t = 0; t < self->n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      PsScopeRoot root = { 0 };

      self->root_of_track[t] = PS_NONE;
      if (track->kind != PS_TRACK_THREAD && !used[t])
        continue;

      root.track = t;
      root.session = track->session;
      root.begin_ns = G_MAXINT64;
      root.end_ns = G_MININT64;
      self->root_of_track[t] = self->roots->len;
      g_array_append_val (self->roots, root);
    }
}

/* A message stays when the filter keeps its record ("name : text", as the
 * original tool matched every stamp) or the scope it was written in.
 * Verdicts are remembered per (name, text). */
static gboolean
keeps_mark (PsScopeTree   *self,
            PsScopeFilter *filter,
            GHashTable    *verdicts,
            const PsMark  *mark)
{
  gint64 key;
  gpointer verdict;
  gboolean kept;

  if (mark->span < self->n_spans && !is_hidden (self, mark->span))
    return TRUE;
  if (!ps_scope_filter_match_time (filter, mark->time_ns))
    return FALSE;

  key = ((gint64)mark->name << 32) | mark->text;
  verdict = g_hash_table_lookup (verdicts, &key);
  if (verdict != NULL)
    return GPOINTER_TO_UINT (verdict) - 1;

  if (mark->name != 0)
    {
      g_autofree char *record = g_strconcat (ps_event_store_get_string (self->store, mark->name), " : ",
                                             ps_event_store_get_string (self->store, mark->text), NULL);

      kept = ps_scope_filter_match_text (filter, record, -1);
    }
  else
    kept = ps_scope_filter_match_text (filter, ps_event_store_get_string (self->store, mark->text), -1);

  g_hash_table_insert (verdicts, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (kept + 1));
  return kept;
}

static inline void
extend_root (PsScopeRoot *root,
             gint64       begin_ns,
             gint64       end_ns)
{
  root->begin_ns = MIN (root->begin_ns, begin_ns);
  root->end_ns = MAX (root->end_ns, end_ns);
}

PsScopeTree *
ps_scope_tree_new (PsEventStore  *store,
                   PsScopeFilter *filter)
{
  return ps_scope_tree_new_cancellable (store, filter, NULL);
}

PsScopeTree *
ps_scope_tree_new_cancellable (PsEventStore  *store,
                               PsScopeFilter *filter,
                               GCancellable  *cancellable)
{
  g_autoptr(PsScopeTree) self = NULL;
  guint64 n_spans, n_marks;
  guint32 n_slots, n_children = 0;
  g_autofree guint32 *up = NULL;
  guint32 m;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  n_spans = ps_event_store_get_n_spans (store);
  n_marks = ps_event_store_get_n_marks (store);
  /* Node numbers are guint32, like the store's span references */
  g_return_val_if_fail (n_spans + n_marks < G_MAXUINT32 / 2, NULL);

  self = g_atomic_rc_box_new0 (PsScopeTree);
  self->store = g_object_ref (store);
  self->n_spans = (guint32)n_spans;
  self->n_marks = (guint32)n_marks;
  self->n_tracks = ps_event_store_get_n_tracks (store);
  self->roots = g_array_new (FALSE, FALSE, sizeof (PsScopeRoot));

  make_roots (self);
  n_slots = self->n_spans + self->roots->len;

  if (!ps_scope_filter_is_empty (filter))
    {
      self->hidden = g_new0 (guint8, self->n_spans / 8 + 1);
      self->hidden_marks = g_new0 (guint8, self->n_marks / 8 + 1);
    }

  /* Pass 1: the slot every span hangs under, and which spans are dropped.
   * A parent always comes before its children. */
  up = g_new (guint32, self->n_spans + 1);
  for (guint32 i = 0; i < self->n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (ps_util_stop_at (i, cancellable))
        return NULL;
      if (span->parent == PS_NONE || span->parent >= i)
        up[i] = root_slot (self, span->track);
      else
        up[i] = slot_for_span (self, up, span->parent);

      if (self->hidden != NULL && !ps_scope_filter_match_span (filter, store, i))
        self->hidden[i / 8] |= 1u << (i % 8);
    }

  /* Pass 2: count the children of every slot, and sum up the roots */
  self->offsets = g_new0 (guint32, n_slots + 1);
  for (guint32 i = 0; i < self->n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      PsScopeRoot *root;

      if (ps_util_stop_at (i, cancellable))
        return NULL;
      if (is_hidden (self, i))
        continue;

      self->offsets[up[i]]++;
      n_children++;

      root = &g_array_index (self->roots, PsScopeRoot, self->root_of_track[span->track]);
      root->n_spans++;
      extend_root (root, span->begin_ns, MAX (span->begin_ns, span->end_ns));
      if (up[i] >= self->n_spans)
        {
          if (ps_span_is_measured (span))
            root->scoped_ns += span->end_ns - span->begin_ns;
          else
            root->n_unmeasured++;
        }
    }
  if (self->hidden_marks != NULL)
    {
      g_autoptr(GHashTable) verdicts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

      for (guint32 i = 0; i < self->n_marks; i++)
        if (!keeps_mark (self, filter, verdicts, ps_event_store_get_mark (store, i)))
          self->hidden_marks[i / 8] |= 1u << (i % 8);
    }
  for (guint32 i = 0; i < self->n_marks; i++)
    {
      const PsMark *mark = ps_event_store_get_mark (store, i);
      PsScopeRoot *root = &g_array_index (self->roots, PsScopeRoot, self->root_of_track[mark->track]);

      if (is_mark_hidden (self, i))
        continue;

      self->offsets[slot_for_mark (self, up, mark)]++;
      n_children++;
      root->n_marks++;
      extend_root (root, mark->time_ns, mark->time_ns);
    }

  for (guint r = 0; r < self->roots->len; r++)
    {
      PsScopeRoot *root = &g_array_index (self->roots, PsScopeRoot, r);

      if (root->n_spans == 0 && root->n_marks == 0)
        root->begin_ns = root->end_ns = 0;
    }

  /* offsets[k] becomes the end of slot k's children … */
  for (guint32 k = 1; k < n_slots; k++)
    self->offsets[k] += self->offsets[k - 1];
  self->offsets[n_slots] = n_children;

  /* Pass 3: … and, filling backwards in reverse file order, their start.
   * A message comes before span j in the file iff its position <= j. */
  self->children = g_new (guint32, n_children + 1);
  m = self->n_marks;
  for (guint32 j = self->n_spans; j-- > 0;)
    {
      if (ps_util_stop_at (j, cancellable))
        return NULL;
      for (; m > 0 && ps_event_store_get_mark (store, m - 1)->position > j; m--)
        {
          const PsMark *mark = ps_event_store_get_mark (store, m - 1);

          if (!is_mark_hidden (self, m - 1))
            self->children[--self->offsets[slot_for_mark (self, up, mark)]] = self->n_spans + (m - 1);
        }

      if (!is_hidden (self, j))
        self->children[--self->offsets[up[j]]] = j;
    }
  for (; m > 0; m--)
    {
      const PsMark *mark = ps_event_store_get_mark (store, m - 1);

      if (!is_mark_hidden (self, m - 1))
        self->children[--self->offsets[slot_for_mark (self, up, mark)]] = self->n_spans + (m - 1);
    }

  return g_steal_pointer (&self);
}

static void
ps_scope_tree_clear (gpointer data)
{
  PsScopeTree *self = data;

  g_clear_object (&self->store);
  g_clear_pointer (&self->roots, g_array_unref);
  g_clear_pointer (&self->root_of_track, g_free);
  g_clear_pointer (&self->offsets, g_free);
  g_clear_pointer (&self->children, g_free);
  g_clear_pointer (&self->hidden, g_free);
  g_clear_pointer (&self->hidden_marks, g_free);
}

PsScopeTree *
ps_scope_tree_ref (PsScopeTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
ps_scope_tree_unref (PsScopeTree *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, ps_scope_tree_clear);
}

PsEventStore *
ps_scope_tree_get_store (PsScopeTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->store;
}

gboolean
ps_scope_tree_is_filtered (PsScopeTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->hidden != NULL;
}

guint
ps_scope_tree_get_n_roots (PsScopeTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->roots->len;
}

const PsScopeRoot *
ps_scope_tree_get_root (PsScopeTree *self,
                        guint        root)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (root < self->roots->len, NULL);
  return &g_array_index (self->roots, PsScopeRoot, root);
}

const PsScopeRoot *
ps_scope_tree_find_root (PsScopeTree *self,
                         guint32      track)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (track >= self->n_tracks || self->root_of_track[track] == PS_NONE)
    return NULL;
  return &g_array_index (self->roots, PsScopeRoot, self->root_of_track[track]);
}

PsScopeNode
ps_scope_tree_get_root_node (PsScopeTree *self,
                             guint        root)
{
  PsScopeNode node = { PS_SCOPE_NODE_THREAD, PS_NONE };

  g_return_val_if_fail (self != NULL, node);
  g_return_val_if_fail (root < self->roots->len, node);

  node.index = g_array_index (self->roots, PsScopeRoot, root).track;
  return node;
}

/* The slot of a node that can have children, or PS_NONE */
static guint32
slot_of (PsScopeTree *self,
         PsScopeNode  node)
{
  switch (node.kind)
    {
    case PS_SCOPE_NODE_THREAD:
      if (node.index < self->n_tracks && self->root_of_track[node.index] != PS_NONE)
        return root_slot (self, node.index);
      return PS_NONE;
    case PS_SCOPE_NODE_SPAN:
      if (node.index < self->n_spans && !is_hidden (self, node.index))
        return node.index;
      return PS_NONE;
    case PS_SCOPE_NODE_MARK:
    default:
      return PS_NONE;
    }
}

guint
ps_scope_tree_get_n_children (PsScopeTree *self,
                              PsScopeNode  node)
{
  guint32 slot;

  g_return_val_if_fail (self != NULL, 0);

  slot = slot_of (self, node);
  if (slot == PS_NONE)
    return 0;
  return self->offsets[slot + 1] - self->offsets[slot];
}

PsScopeNode
ps_scope_tree_get_child (PsScopeTree *self,
                         PsScopeNode  node,
                         guint        child)
{
  PsScopeNode result = { PS_SCOPE_NODE_SPAN, PS_NONE };
  guint32 slot;
  guint32 entry;

  g_return_val_if_fail (self != NULL, result);

  slot = slot_of (self, node);
  g_return_val_if_fail (slot != PS_NONE, result);
  g_return_val_if_fail (child < self->offsets[slot + 1] - self->offsets[slot], result);

  entry = self->children[self->offsets[slot] + child];
  if (entry < self->n_spans)
    {
      result.kind = PS_SCOPE_NODE_SPAN;
      result.index = entry;
    }
  else
    {
      result.kind = PS_SCOPE_NODE_MARK;
      result.index = entry - self->n_spans;
    }

  return result;
}

gboolean
ps_scope_tree_shows_span (PsScopeTree *self,
                          guint64      span)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return span < self->n_spans && !is_hidden (self, (guint32)span);
}

gboolean
ps_scope_tree_shows_mark (PsScopeTree *self,
                          guint64      mark)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return mark < self->n_marks && !is_mark_hidden (self, (guint32)mark);
}

PsScopeNode
ps_scope_tree_get_parent (PsScopeTree *self,
                          PsScopeNode  node)
{
  PsScopeNode parent = { PS_SCOPE_NODE_THREAD, PS_NONE };
  guint32 span = PS_NONE;
  guint32 track = PS_NONE;

  g_return_val_if_fail (self != NULL, parent);

  if (node.kind == PS_SCOPE_NODE_SPAN && node.index < self->n_spans)
    {
      const PsSpan *s = ps_event_store_get_span (self->store, node.index);

      span = s->parent < node.index ? s->parent : PS_NONE;
      track = s->track;
    }
  else if (node.kind == PS_SCOPE_NODE_MARK && node.index < self->n_marks)
    {
      const PsMark *mark = ps_event_store_get_mark (self->store, node.index);

      span = mark->span < self->n_spans ? mark->span : PS_NONE;
      track = mark->track;
    }
  else
    return parent;

  /* Up to the nearest scope the filter kept */
  while (span != PS_NONE && is_hidden (self, span))
    {
      const PsSpan *s = ps_event_store_get_span (self->store, span);

      span = s->parent < span ? s->parent : PS_NONE;
    }

  if (span != PS_NONE)
    {
      parent.kind = PS_SCOPE_NODE_SPAN;
      parent.index = span;
    }
  else
    parent.index = track;

  return parent;
}

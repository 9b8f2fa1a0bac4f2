/* ps-call-tree-builder.c — building a call tree from calls, samples and
 * report rows
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §2 (collection model), §3 (the four values,
 * recursion).
 *
 * Each thread keeps running totals of its elapsed and application time; a
 * call records them when it enters, so its inclusive values when it leaves
 * are the totals now minus those at entry. Top-down nodes are found by
 * (parent node, function) in an open addressing table.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-call-tree-private.h"
#include "ps-error.h"
#include "ps-folded.h"
#include "ps-util.h"

/* ------------------------------------------------------------------------ */
/* Builder                                                                  */

static void
thread_state_free (gpointer data)
{
  ThreadState *thread = data;

  g_free (thread->frames);
  g_free (thread->functions);
  g_free (thread->on_stack);
  g_free (thread);
}

static void
builder_add_root (PsCallTreeBuilder *self)
{
  NodeLink root = { PS_NONE, PS_NONE, 0, 0 };

  g_array_append_val (self->links, root);
}

PsCallTreeBuilder *
ps_call_tree_builder_new (PsCallUnit unit)
{
  PsCallTreeBuilder *self = g_new0 (PsCallTreeBuilder, 1);

  self->unit = unit;
  self->strings = g_string_chunk_new (4096);
  self->function_ids = g_hash_table_new (call_tree_function_key_hash, call_tree_function_key_equal);
  self->function_keys = g_ptr_array_new_with_free_func (g_free);
  self->function_accs = g_array_new (FALSE, FALSE, sizeof (FunctionAcc));
  self->function_present = g_byte_array_new ();
  self->links = g_array_new (FALSE, FALSE, sizeof (NodeLink));
  self->threads = g_hash_table_new_full (NULL, NULL, NULL, thread_state_free);
  self->thread_list = g_ptr_array_new ();
  builder_add_root (self);

  return self;
}

static void
builder_clear_threads (PsCallTreeBuilder *self)
{
  self->last_thread = NULL;
  memset (self->thread_cache, 0, sizeof self->thread_cache);
  g_clear_pointer (&self->thread_list, g_ptr_array_unref);
  g_clear_pointer (&self->threads, g_hash_table_unref);
}

void
ps_call_tree_builder_free (PsCallTreeBuilder *self)
{
  if (self == NULL)
    return;

  builder_clear_threads (self);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->function_ids, g_hash_table_unref);
  g_clear_pointer (&self->function_keys, g_ptr_array_unref);
  g_clear_pointer (&self->function_accs, g_array_unref);
  g_clear_pointer (&self->function_present, g_byte_array_unref);
  g_clear_pointer (&self->links, g_array_unref);
  g_clear_pointer (&self->node_accs, g_array_unref);
  g_clear_pointer (&self->node_extremes, g_array_unref);
  g_clear_pointer (&self->node_given, g_array_unref);
  g_clear_pointer (&self->child_offsets, g_free);
  g_clear_pointer (&self->children, g_free);
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->sample_marks, g_free);
  g_clear_pointer (&self->function_given, g_array_unref);
  g_clear_pointer (&self->function_is_given, g_byte_array_unref);
  g_clear_pointer (&self->relations, g_array_unref);
  g_clear_pointer (&self->addresses, g_array_unref);
  g_free (self);
}

guint32
ps_call_tree_builder_intern_function (PsCallTreeBuilder *self,
                                      const char        *name,
                                      const char        *module)
{
  FunctionKey lookup = { name, module != NULL ? module : "" };
  FunctionKey *key;
  gpointer id;
  guint32 function;
  FunctionAcc acc;
  guint8 absent = 0;

  g_return_val_if_fail (self != NULL, PS_NONE);
  g_return_val_if_fail (name != NULL, PS_NONE);

  id = g_hash_table_lookup (self->function_ids, &lookup);
  if (id != NULL)
    return GPOINTER_TO_UINT (id) - 1;

  g_return_val_if_fail (self->function_keys->len < G_MAXUINT32 - 1, PS_NONE);

  key = g_new (FunctionKey, 1);
  key->name = g_string_chunk_insert_const (self->strings, lookup.name);
  key->module = g_string_chunk_insert_const (self->strings, lookup.module);
  function = self->function_keys->len;
  g_ptr_array_add (self->function_keys, key);
  g_hash_table_insert (self->function_ids, key, GUINT_TO_POINTER (function + 1));

  function_acc_init (&acc);
  g_array_append_val (self->function_accs, acc);
  g_byte_array_append (self->function_present, &absent, 1);

  return function;
}

gboolean
call_tree_builder_set_mode (PsCallTreeBuilder *self,
                            BuilderMode        mode)
{
  if (self->mode == mode)
    return TRUE;
  if (self->mode != MODE_NONE)
    {
      g_critical ("A PsCallTreeBuilder holds either a report or computed values, not both");
      return FALSE;
    }

  self->mode = mode;
  if (mode == MODE_COMPUTED)
    {
      CallAcc root;

      acc_init (&root);
      self->node_accs = g_array_new (FALSE, FALSE, sizeof (CallAcc));
      g_array_append_val (self->node_accs, root);
      self->node_extremes = g_array_new (FALSE, FALSE, sizeof (CallExtremes));
      self->slots_mask = TABLE_MIN_SIZE - 1;
      self->slots = g_new0 (NodeSlot, TABLE_MIN_SIZE);
    }
  else
    {
      PsCallStats root;

      call_tree_stats_clear (&root);
      self->node_given = g_array_new (FALSE, FALSE, sizeof (PsCallStats));
      g_array_append_val (self->node_given, root);
      self->function_given = g_array_new (FALSE, TRUE, sizeof (PsCallStats));
      self->function_is_given = g_byte_array_new ();
      self->relations = g_array_new (FALSE, FALSE, sizeof (GivenRelation));
    }
  return TRUE;
}

/* Nodes faulted in at a time in reserved room */
#define POPULATE_NODES 16384u

/* The most nodes room is reserved for: 1 GiB of address space for their
 * values. Beyond, the arrays double as they fill, so that a bound far
 * above what a log makes never asks for more than a machine has. */
#define RESERVE_MAX_NODES (1u << 24)

/* Room for n_nodes nodes in all, made before the nodes are: a tree of a
 * million scopes doubled its node arrays twenty times, copying them to
 * their new places, with both copies in memory at the last doubling.
 * Pages of the room that no node takes are never touched, and the tree
 * gives them back (steal_exact ()). */
void
call_tree_builder_reserve_nodes (PsCallTreeBuilder *self,
                                 guint32            n_nodes)
{
  GArray *arrays[] = { self->links, self->node_accs };

  g_return_if_fail (self->mode == MODE_COMPUTED);

  n_nodes = MIN (n_nodes, RESERVE_MAX_NODES);

  for (guint a = 0; a < G_N_ELEMENTS (arrays); a++)
    {
      guint len = arrays[a]->len;

      /* Neither array clears its new elements: this only moves what
       * they hold to a place of the size asked */
      if (n_nodes > len)
        {
          g_array_set_size (arrays[a], n_nodes);
          g_array_set_size (arrays[a], len);
        }
    }
  self->reserved_nodes = MAX (self->reserved_nodes, n_nodes);
}

static inline guint32
node_hash (guint32 parent,
           guint32 function)
{
  guint64 key = ((guint64)parent << 32) | function;

  key *= G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return (guint32)(key >> 32);
}

static void
builder_grow_table (PsCallTreeBuilder *self)
{
  guint32 old_size = self->slots_mask + 1;
  guint32 new_mask;
  NodeSlot *old = self->slots;
  NodeSlot *slots;

  g_return_if_fail (old_size <= G_MAXUINT32 / 2);

  new_mask = old_size * 2 - 1;
  /* Every page of a table is written: faulted in at once */
  slots = ps_util_alloc_filled (((gsize)new_mask + 1) * sizeof (NodeSlot), TRUE);
  for (guint32 i = 0; i < old_size; i++)
    {
      guint32 k;

      if (old[i].node_plus_one == 0)
        continue;
      k = node_hash (old[i].parent, old[i].function) & new_mask;
      while (slots[k].node_plus_one != 0)
        k = (k + 1) & new_mask;
      slots[k] = old[i];
    }

  g_free (old);
  self->slots = slots;
  self->slots_mask = new_mask;
}

/* A new node of function below parent, not yet in the table */
guint32
call_tree_builder_append_child (PsCallTreeBuilder *self,
                                guint32            parent,
                                guint32            function,
                                gboolean           outermost)
{
  guint32 node = self->links->len;
  NodeLink link;
  CallAcc acc;

  if (G_UNLIKELY (node == G_MAXUINT32 - 1))
    {
      g_critical ("Call tree too large");
      return parent;
    }

  /* The reserved room is faulted in a piece at a time: a page fault for
   * every page the nodes reach cost a sixth of a large tree's making */
  if (G_UNLIKELY (node % POPULATE_NODES == 0) && (guint64)node + POPULATE_NODES <= self->reserved_nodes)
    {
      ps_util_populate (&g_array_index (self->links, NodeLink, node), POPULATE_NODES * sizeof (NodeLink));
      ps_util_populate (&g_array_index (self->node_accs, CallAcc, node), POPULATE_NODES * sizeof (CallAcc));
    }

  link.parent = parent;
  link.function = function;
  link.depth = g_array_index (self->links, NodeLink, parent).depth + 1;
  link.flags = outermost ? NODE_FLAG_OUTERMOST : 0;
  g_array_append_val (self->links, link);
  acc_init (&acc);
  g_array_append_val (self->node_accs, acc);
  return node;
}

/* Puts a node into the table at its free slot */
static void
builder_index_node (PsCallTreeBuilder *self,
                    NodeSlot          *slot,
                    guint32            node)
{
  const NodeLink *link = &g_array_index (self->links, NodeLink, node);

  slot->parent = link->parent;
  slot->function = link->function;
  slot->node_plus_one = node + 1;
  self->slots_used++;
  /* Linear probing stays short below 70 % */
  if ((guint64)self->slots_used * 10 > (guint64)self->slots_mask * 7)
    builder_grow_table (self);
}

/* The node of function below parent, made if new */
guint32
call_tree_builder_child (PsCallTreeBuilder *self,
                         guint32            parent,
                         guint32            function,
                         gboolean           outermost)
{
  guint32 k = node_hash (parent, function) & self->slots_mask;
  NodeSlot *slot;
  guint32 node;

  for (;;)
    {
      slot = &self->slots[k];
      if (slot->node_plus_one == 0)
        break;
      if (slot->parent == parent && slot->function == function)
        return slot->node_plus_one - 1;
      k = (k + 1) & self->slots_mask;
    }

  node = call_tree_builder_append_child (self, parent, function, outermost);
  if (node != parent)
    builder_index_node (self, slot, node);
  return node;
}

/* Puts the nodes made by call_tree_builder_append_child () into the table */
void
call_tree_builder_index_nodes (PsCallTreeBuilder *self,
                               guint32            first)
{
  for (guint32 node = first; node < self->links->len; node++)
    {
      const NodeLink *link = &g_array_index (self->links, NodeLink, node);
      guint32 k = node_hash (link->parent, link->function) & self->slots_mask;

      while (self->slots[k].node_plus_one != 0)
        k = (k + 1) & self->slots_mask;
      builder_index_node (self, &self->slots[k], node);
    }
}

static ThreadState *
builder_get_thread (PsCallTreeBuilder *self,
                    guint32            key)
{
  ThreadState *thread;
  ThreadState **cached;

  if (G_LIKELY (self->last_thread != NULL && self->last_thread->key == key))
    return self->last_thread;

  /* Probes of a few threads interleave: most switches hit the cache */
  cached = &self->thread_cache[key % THREAD_CACHE_SIZE];
  if (*cached != NULL && (*cached)->key == key)
    thread = *cached;
  else
    {
      thread = g_hash_table_lookup (self->threads, GUINT_TO_POINTER (key));
      if (thread == NULL)
        {
          thread = g_new0 (ThreadState, 1);
          thread->key = key;
          g_hash_table_insert (self->threads, GUINT_TO_POINTER (key), thread);
          g_ptr_array_add (self->thread_list, thread);
        }
      *cached = thread;
    }

  self->last_thread = thread;
  return thread;
}

/* One interval of the thread with its current stack */
static inline void
thread_account (PsCallTreeBuilder *self,
                ThreadState       *thread,
                gint64             duration,
                gboolean           os_event)
{
  Frame *top;

  if (thread->n_frames == 0 || duration <= 0)
    return;

  top = &thread->frames[thread->n_frames - 1];
  thread->elapsed += duration;
  top->elapsed_exclusive += duration;
  if (os_event)
    self->has_os_events = TRUE;
  else
    {
      thread->application += duration;
      top->application_exclusive += duration;
    }
}

/* A probe at time: ends the interval running since the previous probe */
static inline void
thread_probe (PsCallTreeBuilder *self,
              ThreadState       *thread,
              gint64             time)
{
  if (G_LIKELY (thread->has_time))
    {
      /* A clock that went back gives an empty interval */
      if (time > thread->last_time)
        {
          thread_account (self, thread, time - thread->last_time, thread->os_pending);
          thread->last_time = time;
        }
    }
  else
    {
      thread->has_time = TRUE;
      thread->last_time = time;
    }
  thread->os_pending = FALSE;
}

static void
thread_grow_on_stack (PsCallTreeBuilder *self,
                      ThreadState       *thread)
{
  guint size = self->function_keys->len;

  thread->on_stack = g_renew (guint32, thread->on_stack, size);
  memset (thread->on_stack + thread->on_stack_size, 0, (size - thread->on_stack_size) * sizeof (guint32));
  thread->on_stack_size = size;
}

static inline void
thread_push (PsCallTreeBuilder *self,
             ThreadState       *thread,
             guint32            function)
{
  guint32 parent;
  gboolean outermost;
  Frame *frame;

  if (G_UNLIKELY (function >= thread->on_stack_size))
    thread_grow_on_stack (self, thread);
  if (G_UNLIKELY (thread->n_frames == thread->frames_size))
    {
      thread->frames_size = MAX (4, thread->frames_size * 2);
      thread->frames = g_renew (Frame, thread->frames, thread->frames_size);
      thread->functions = g_renew (guint32, thread->functions, thread->frames_size);
    }

  parent = thread->n_frames > 0 ? thread->frames[thread->n_frames - 1].node : PS_CALL_NODE_ROOT;
  outermost = thread->on_stack[function]++ == 0;

  thread->functions[thread->n_frames] = function;
  frame = &thread->frames[thread->n_frames++];
  frame->node = call_tree_builder_child (self, parent, function, outermost);
  /* Its call's values are added to these when it leaves: a big tree's
   * node is far in memory, fetched meanwhile */
  __builtin_prefetch (&g_array_index (self->node_accs, CallAcc, frame->node), 1);
  __builtin_prefetch (&g_array_index (self->function_accs, FunctionAcc, function), 1);
  frame->function = function;
  frame->elapsed_at_entry = thread->elapsed;
  frame->application_at_entry = thread->application;
  frame->elapsed_exclusive = 0;
  frame->application_exclusive = 0;
}

static inline void
thread_pop (PsCallTreeBuilder *self,
            ThreadState       *thread)
{
  Frame *frame = &thread->frames[--thread->n_frames];
  CallAcc *node = &g_array_index (self->node_accs, CallAcc, frame->node);
  FunctionAcc *function = &g_array_index (self->function_accs, FunctionAcc, frame->function);
  gint64 values[PS_N_CALL_VALUES];

  values[ELAPSED_INCLUSIVE] = thread->elapsed - frame->elapsed_at_entry;
  values[ELAPSED_EXCLUSIVE] = frame->elapsed_exclusive;
  values[APPLICATION_INCLUSIVE] = thread->application - frame->application_at_entry;
  values[APPLICATION_EXCLUSIVE] = frame->application_exclusive;

  if (node->calls > 0)
    {
      CallExtremes *extremes;

      if (node->extremes == PS_NONE)
        {
          /* The second call: the first one's values are the totals */
          CallExtremes first;

          memcpy (first.min, node->total, sizeof first.min);
          memcpy (first.max, node->total, sizeof first.max);
          node->extremes = self->node_extremes->len;
          g_array_append_val (self->node_extremes, first);
        }
      extremes = &g_array_index (self->node_extremes, CallExtremes, node->extremes);
      for (guint v = 0; v < PS_N_CALL_VALUES; v++)
        {
          extremes->min[v] = MIN (extremes->min[v], values[v]);
          extremes->max[v] = MAX (extremes->max[v], values[v]);
        }
    }

  node->calls++;
  function->calls++;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      node->total[v] += values[v];
      function->min[v] = MIN (function->min[v], values[v]);
      function->max[v] = MAX (function->max[v], values[v]);
    }

  /* Exclusive time belongs to this call alone; inclusive time only counts
   * for the outermost call of the function on the stack */
  function->total[ELAPSED_EXCLUSIVE] += values[ELAPSED_EXCLUSIVE];
  function->total[APPLICATION_EXCLUSIVE] += values[APPLICATION_EXCLUSIVE];
  if (--thread->on_stack[frame->function] == 0)
    {
      function->total[ELAPSED_INCLUSIVE] += values[ELAPSED_INCLUSIVE];
      function->total[APPLICATION_INCLUSIVE] += values[APPLICATION_INCLUSIVE];
    }
  self->function_present->data[frame->function] = 1;
}

void
ps_call_tree_builder_enter (PsCallTreeBuilder *self,
                            guint32            thread,
                            guint32            function,
                            gint64             time)
{
  ThreadState *state;

  g_return_if_fail (self != NULL);
  g_return_if_fail (function < self->function_keys->len);
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !call_tree_builder_set_mode (self, MODE_COMPUTED))
    return;

  state = builder_get_thread (self, thread);
  thread_probe (self, state, time);
  thread_push (self, state, function);
}

void
ps_call_tree_builder_leave (PsCallTreeBuilder *self,
                            guint32            thread,
                            gint64             time)
{
  ThreadState *state;

  g_return_if_fail (self != NULL);
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !call_tree_builder_set_mode (self, MODE_COMPUTED))
    return;

  state = builder_get_thread (self, thread);
  thread_probe (self, state, time);
  /* A leave without an enter (the trace began inside a call) ends nothing */
  if (state->n_frames > 0)
    thread_pop (self, state);
}

void
ps_call_tree_builder_os_event (PsCallTreeBuilder *self,
                               guint32            thread)
{
  g_return_if_fail (self != NULL);
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !call_tree_builder_set_mode (self, MODE_COMPUTED))
    return;

  builder_get_thread (self, thread)->os_pending = TRUE;
}

void
ps_call_tree_builder_add_interval (PsCallTreeBuilder *self,
                                   guint32            thread,
                                   const guint32     *stack,
                                   guint              depth,
                                   gint64             duration,
                                   gboolean           os_event)
{
  ThreadState *state;
  guint common = 0;
  guint shorter;

  g_return_if_fail (self != NULL);
  g_return_if_fail (stack != NULL || depth == 0);
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !call_tree_builder_set_mode (self, MODE_COMPUTED))
    return;

  state = builder_get_thread (self, thread);

  /* The common prefix stays open, the rest of the old stack has returned.
   * The prefix matched known functions; only the rest needs checking. */
  shorter = MIN (state->n_frames, depth);
  while (common < shorter && state->functions[common] == stack[common])
    common++;
  for (guint i = common; i < depth; i++)
    g_return_if_fail (stack[i] < self->function_keys->len);

  while (state->n_frames > common)
    thread_pop (self, state);
  for (guint i = common; i < depth; i++)
    thread_push (self, state, stack[i]);

  thread_account (self, state, duration, os_event);
}

/* A sample's weight as exclusive to its node and to that node's function */
static inline void
builder_add_sampled_exclusive (PsCallTreeBuilder *self,
                               CallAcc           *acc,
                               guint32            function_id,
                               gint64             amount,
                               gboolean           kernel)
{
  FunctionAcc *function = &g_array_index (self->function_accs, FunctionAcc, function_id);

  acc->total[ELAPSED_EXCLUSIVE] += amount;
  function->total[ELAPSED_EXCLUSIVE] += amount;
  self->sampled_elapsed += amount;
  if (kernel)
    self->has_os_events = TRUE;
  else
    {
      acc->total[APPLICATION_EXCLUSIVE] += amount;
      function->total[APPLICATION_EXCLUSIVE] += amount;
      self->sampled_application += amount;
    }
}

void
ps_call_tree_builder_add_sample (PsCallTreeBuilder *self,
                                 const guint32     *stack,
                                 guint              depth,
                                 guint64            weight,
                                 gboolean           kernel)
{
  guint32 node = PS_CALL_NODE_ROOT;
  gint64 amount = (gint64)MIN (weight, (guint64)G_MAXINT64);
  CallAcc *acc = NULL;
  FunctionAcc *function;

  g_return_if_fail (self != NULL);
  g_return_if_fail (stack != NULL || depth == 0);
  for (guint i = 0; i < depth; i++)
    g_return_if_fail (stack[i] < self->function_keys->len);
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !call_tree_builder_set_mode (self, MODE_COMPUTED))
    return;
  if (depth == 0)
    return;

  if (self->sample_marks_size < self->function_keys->len)
    {
      guint size = self->function_keys->len;

      self->sample_marks = g_renew (guint32, self->sample_marks, size);
      memset (self->sample_marks + self->sample_marks_size, 0, (size - self->sample_marks_size) * sizeof (guint32));
      self->sample_marks_size = size;
    }
  if (++self->sample_serial == 0)
    {
      memset (self->sample_marks, 0, self->sample_marks_size * sizeof (guint32));
      self->sample_serial = 1;
    }

  for (guint i = 0; i < depth; i++)
    {
      guint32 f = stack[i];
      gboolean outermost = self->sample_marks[f] != self->sample_serial;

      node = call_tree_builder_child (self, node, f, outermost);
      acc = &g_array_index (self->node_accs, CallAcc, node);
      acc->total[ELAPSED_INCLUSIVE] += amount;
      if (!kernel)
        acc->total[APPLICATION_INCLUSIVE] += amount;

      if (outermost)
        {
          self->sample_marks[f] = self->sample_serial;
          function = &g_array_index (self->function_accs, FunctionAcc, f);
          function->total[ELAPSED_INCLUSIVE] += amount;
          if (!kernel)
            function->total[APPLICATION_INCLUSIVE] += amount;
          self->function_present->data[f] = 1;
        }
    }

  builder_add_sampled_exclusive (self, acc, stack[depth - 1], amount, kernel);
}

/* Samples of `weight` whose stack is the path of node: their exclusive
 * values. The inclusive ones are summed up the tree once, by
 * call_tree_builder_sum_sampled_nodes (), so a stack costs one step instead of one
 * per frame. */
void
call_tree_builder_add_sample_at_node (PsCallTreeBuilder *self,
                                      guint32            node,
                                      guint64            weight,
                                      gboolean           kernel)
{
  gint64 amount = (gint64)MIN (weight, (guint64)G_MAXINT64);
  CallAcc *acc = &g_array_index (self->node_accs, CallAcc, node);

  acc->total[ELAPSED_INCLUSIVE] += amount;
  if (!kernel)
    acc->total[APPLICATION_INCLUSIVE] += amount;
  builder_add_sampled_exclusive (self, acc, g_array_index (self->links, NodeLink, node).function, amount, kernel);
}

/* Every node's inclusive values become those of its samples and all
 * below it (children come after their parents), and each function's
 * those of its outermost nodes: the values ps_call_tree_builder_add_sample ()
 * gives, frame by frame. Every node is on the path of a sample. */
void
call_tree_builder_sum_sampled_nodes (PsCallTreeBuilder *self)
{
  NodeLink *links = (NodeLink *)(gpointer)self->links->data;
  CallAcc *accs = (CallAcc *)(gpointer)self->node_accs->data;

  for (guint32 n = self->links->len; n-- > 1;)
    {
      CallAcc *parent = &accs[links[n].parent];

      parent->total[ELAPSED_INCLUSIVE] += accs[n].total[ELAPSED_INCLUSIVE];
      parent->total[APPLICATION_INCLUSIVE] += accs[n].total[APPLICATION_INCLUSIVE];
    }
  /* The root's values are the totals, kept apart */
  accs[PS_CALL_NODE_ROOT].total[ELAPSED_INCLUSIVE] = 0;
  accs[PS_CALL_NODE_ROOT].total[APPLICATION_INCLUSIVE] = 0;
  for (guint32 n = 1; n < self->links->len; n++)
    if (links[n].flags & NODE_FLAG_OUTERMOST)
      {
        FunctionAcc *function = &g_array_index (self->function_accs, FunctionAcc, links[n].function);

        function->total[ELAPSED_INCLUSIVE] += accs[n].total[ELAPSED_INCLUSIVE];
        function->total[APPLICATION_INCLUSIVE] += accs[n].total[APPLICATION_INCLUSIVE];
        self->function_present->data[links[n].function] = 1;
      }
}

/* --- Reports ------------------------------------------------------------ */

static void
builder_grow_given_functions (PsCallTreeBuilder *self)
{
  guint n = self->function_keys->len;

  if (self->function_given->len < n)
    {
      guint old = self->function_given->len;
      guint8 zero = 0;

      g_array_set_size (self->function_given, n);
      for (guint i = old; i < n; i++)
        {
          call_tree_stats_clear (&g_array_index (self->function_given, PsCallStats, i));
          g_byte_array_append (self->function_is_given, &zero, 1);
        }
    }
}

guint32
ps_call_tree_builder_add_node (PsCallTreeBuilder *self,
                               guint32            parent,
                               guint32            function,
                               const PsCallStats *given)
{
  NodeLink link;

  g_return_val_if_fail (self != NULL, PS_NONE);
  g_return_val_if_fail (parent < self->links->len, PS_NONE);
  g_return_val_if_fail (function < self->function_keys->len, PS_NONE);
  g_return_val_if_fail (given != NULL, PS_NONE);
  g_return_val_if_fail (self->links->len < G_MAXUINT32 - 1, PS_NONE);
  if (!call_tree_builder_set_mode (self, MODE_REPORT))
    return PS_NONE;

  link.parent = parent;
  link.function = function;
  link.depth = g_array_index (self->links, NodeLink, parent).depth + 1;
  link.flags = 0;
  g_array_append_val (self->links, link);
  g_array_append_val (self->node_given, *given);

  return self->links->len - 1;
}

void
ps_call_tree_builder_set_function (PsCallTreeBuilder *self,
                                   guint32            function,
                                   const PsCallStats *given)
{
  PsCallStats *stats;

  g_return_if_fail (self != NULL);
  g_return_if_fail (function < self->function_keys->len);
  g_return_if_fail (given != NULL);
  if (!call_tree_builder_set_mode (self, MODE_REPORT))
    return;

  builder_grow_given_functions (self);
  stats = &g_array_index (self->function_given, PsCallStats, function);
  if (self->function_is_given->data[function])
    {
      StatsSum sum;

      call_tree_stats_sum_init (&sum);
      call_tree_stats_sum_add (&sum, stats, TRUE);
      call_tree_stats_sum_add (&sum, given, TRUE);
      call_tree_stats_sum_finish (&sum, stats);
    }
  else
    *stats = *given;
  self->function_is_given->data[function] = 1;
}

void
call_tree_builder_add_relation (PsCallTreeBuilder *self,
                                guint32            function,
                                guint32            other,
                                gboolean           is_caller,
                                const PsCallStats *given)
{
  GivenRelation relation;

  g_return_if_fail (self != NULL);
  g_return_if_fail (function < self->function_keys->len);
  g_return_if_fail (other < self->function_keys->len || other == PS_NONE);
  g_return_if_fail (given != NULL);
  if (!call_tree_builder_set_mode (self, MODE_REPORT))
    return;

  relation.function = function;
  relation.other = other;
  relation.is_caller = is_caller;
  relation.stats = *given;
  g_array_append_val (self->relations, relation);
}

void
ps_call_tree_builder_add_caller (PsCallTreeBuilder *self,
                                 guint32            function,
                                 guint32            caller,
                                 const PsCallStats *given)
{
  call_tree_builder_add_relation (self, function, caller, TRUE, given);
}

void
ps_call_tree_builder_add_callee (PsCallTreeBuilder *self,
                                 guint32            function,
                                 guint32            callee,
                                 const PsCallStats *given)
{
  call_tree_builder_add_relation (self, function, callee, FALSE, given);
}

void
ps_call_tree_builder_set_totals (PsCallTreeBuilder *self,
                                 double             elapsed,
                                 double             application)
{
  g_return_if_fail (self != NULL);
  if (!call_tree_builder_set_mode (self, MODE_REPORT))
    return;

  self->has_given_totals = TRUE;
  self->given_elapsed_total = elapsed;
  self->given_application_total = application;
}

/* --- The end ------------------------------------------------------------ */

/* Children grouped by parent; ids grow from parent to child, so the
 * children of a node stay in the order they were made */
void
call_tree_links_make_children (const NodeLink *links,
                               guint32         n,
                               guint32       **child_offsets,
                               guint32       **children)
{
  guint32 *offsets = g_new0 (guint32, (gsize)n + 1);
  guint32 *made = g_new (guint32, MAX (n, 1));

  for (guint32 i = 1; i < n; i++)
    offsets[links[i].parent + 1]++;
  for (guint32 i = 0; i < n; i++)
    offsets[i + 1] += offsets[i];
  /* Fill using the offsets as cursors, then shift them back */
  for (guint32 i = 1; i < n; i++)
    made[offsets[links[i].parent]++] = i;
  for (guint32 i = n; i > 0; i--)
    offsets[i] = offsets[i - 1];
  offsets[0] = 0;
  *child_offsets = offsets;
  *children = made;
}

static void
tree_make_children (PsCallTree        *self,
                    PsCallTreeBuilder *builder)
{
  if (builder->children != NULL)
    {
      self->child_offsets = g_steal_pointer (&builder->child_offsets);
      self->children = g_steal_pointer (&builder->children);
      return;
    }
  call_tree_links_make_children (self->links, self->n_nodes, &self->child_offsets, &self->children);
}

/* Which nodes are the outermost of their function on their path, by a
 * depth-first walk with an explicit stack: each node is looked at once */
void
call_tree_links_mark_outermost (NodeLink       *links,
                                guint           n_functions,
                                const guint32  *child_offsets,
                                const guint32  *children)
{
  g_autofree guint32 *on_path = g_new0 (guint32, MAX (n_functions, 1));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) cursor = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 root = PS_CALL_NODE_ROOT;

  g_array_append_val (stack, root);
  g_array_append_val (cursor, child_offsets[PS_CALL_NODE_ROOT]);
  while (stack->len > 0)
    {
      guint32 top = stack->len - 1;
      guint32 node = g_array_index (stack, guint32, top);
      guint32 *next = &g_array_index (cursor, guint32, top);

      if (*next < child_offsets[node + 1])
        {
          guint32 child = children[(*next)++];
          guint32 function = links[child].function;

          if (on_path[function]++ == 0)
            links[child].flags |= NODE_FLAG_OUTERMOST;
          g_array_append_val (stack, child);
          g_array_append_val (cursor, child_offsets[child]);
        }
      else
        {
          if (top > 0)
            on_path[links[node].function]--;
          g_array_set_size (stack, top);
          g_array_set_size (cursor, top);
        }
    }
}

/* Reports: which nodes are the outermost of their function on their path */
static void
tree_mark_outermost (PsCallTree *self)
{
  call_tree_links_mark_outermost (self->links, self->n_functions, self->child_offsets, self->children);
}

static void
tree_finish_report (PsCallTree        *self,
                    PsCallTreeBuilder *builder)
{
  g_autofree StatsSum *sums = NULL;
  double elapsed = 0, application = 0;

  builder_grow_given_functions (builder);
  tree_mark_outermost (self);

  /* Functions without a row of their own: the sum of their nodes */
  sums = g_new (StatsSum, MAX (self->n_functions, 1));
  for (guint f = 0; f < self->n_functions; f++)
    call_tree_stats_sum_init (&sums[f]);
  for (guint32 n = 1; n < self->n_nodes; n++)
    {
      const NodeLink *link = &self->links[n];

      if (!builder->function_is_given->data[link->function])
        call_tree_stats_sum_add (&sums[link->function], &self->node_given[n], (link->flags & NODE_FLAG_OUTERMOST) != 0);
    }

  self->function_stats = g_new (PsCallStats, MAX (self->n_functions, 1));
  self->function_present = g_new0 (guint8, MAX (self->n_functions, 1));
  for (guint f = 0; f < self->n_functions; f++)
    {
      PsCallStats *stats = &self->function_stats[f];

      if (builder->function_is_given->data[f])
        {
          *stats = g_array_index (builder->function_given, PsCallStats, f);
          self->function_present[f] = 1;
        }
      else if (!sums[f].empty)
        {
          call_tree_stats_sum_finish (&sums[f], stats);
          self->function_present[f] = 1;
        }
      else
        {
          /* Only named as a caller or callee: the report has no values */
          call_tree_stats_clear (stats);
          for (guint v = 0; v < PS_N_CALL_VALUES; v++)
            stats->total[v] = stats->min[v] = stats->avg[v] = stats->max[v] = NAN;
          continue;
        }

      elapsed += effective_total (stats, ELAPSED_EXCLUSIVE);
      application += effective_total (stats, APPLICATION_EXCLUSIVE);
      for (guint v = ELAPSED_INCLUSIVE; v <= ELAPSED_EXCLUSIVE; v++)
        if (!isnan (stats->total[v]) && !isnan (stats->total[v + 2]) && stats->total[v] != stats->total[v + 2])
          self->has_os_events = TRUE;
    }

  if (builder->has_given_totals)
    {
      self->elapsed_total = builder->given_elapsed_total;
      self->application_total = builder->given_application_total;
    }
  else
    {
      self->elapsed_total = elapsed;
      self->application_total = application;
    }

  /* Given callers and callees, grouped by function in the order given */
  self->has_given_relations = builder->relations->len > 0;
  self->relation_offsets = g_new0 (guint32, (gsize)self->n_functions + 1);
  self->relations = g_new (GivenRelation, MAX (builder->relations->len, 1));
  for (guint i = 0; i < builder->relations->len; i++)
    self->relation_offsets[g_array_index (builder->relations, GivenRelation, i).function + 1]++;
  for (guint f = 0; f < self->n_functions; f++)
    self->relation_offsets[f + 1] += self->relation_offsets[f];
  {
    g_autofree guint32 *cursor = g_memdup2 (self->relation_offsets, sizeof (guint32) * (self->n_functions + 1));

    for (guint i = 0; i < builder->relations->len; i++)
      {
        const GivenRelation *relation = &g_array_index (builder->relations, GivenRelation, i);

        self->relations[cursor[relation->function]++] = *relation;
        if (!isnan (relation->stats.total[ELAPSED_INCLUSIVE])
            && !isnan (relation->stats.total[APPLICATION_INCLUSIVE])
            && relation->stats.total[ELAPSED_INCLUSIVE] != relation->stats.total[APPLICATION_INCLUSIVE])
          self->has_os_events = TRUE;
      }
  }
}

/* The addresses grouped by function, each group in the order first seen */
static void
tree_finish_addresses (PsCallTree        *self,
                       PsCallTreeBuilder *builder)
{
  guint n_addresses = builder->addresses != NULL ? builder->addresses->len : 0;
  g_autofree guint32 *cursor = NULL;

  if (n_addresses == 0)
    return;

  self->addresses = (AddressAcc *)(gpointer)g_array_free (g_steal_pointer (&builder->addresses), FALSE);
  self->address_offsets = g_new0 (guint32, (gsize)self->n_functions + 1);
  self->address_order = g_new (guint32, n_addresses);
  for (guint a = 0; a < n_addresses; a++)
    self->address_offsets[self->addresses[a].function + 1]++;
  for (guint f = 0; f < self->n_functions; f++)
    self->address_offsets[f + 1] += self->address_offsets[f];
  cursor = g_memdup2 (self->address_offsets, sizeof (guint32) * self->n_functions);
  for (guint a = 0; a < n_addresses; a++)
    self->address_order[cursor[self->addresses[a].function]++] = a;
}

/* An array's elements, in a block of their size: the room reserved or
 * doubled beyond them is given back (in place, or by moving the pages
 * of a large block without copying them) */
static gpointer
steal_exact (GArray **array)
{
  gsize size = (gsize)(*array)->len * g_array_get_element_size (*array);

  return g_realloc (g_array_free (g_steal_pointer (array), FALSE), MAX (size, 1));
}

static void
tree_finish_computed (PsCallTree        *self,
                      PsCallTreeBuilder *builder)
{
  gint64 elapsed = builder->sampled_elapsed;
  gint64 application = builder->sampled_application;

  /* Close what is still open, where each thread's last probe left it */
  for (guint t = 0; t < builder->thread_list->len; t++)
    {
      ThreadState *thread = g_ptr_array_index (builder->thread_list, t);

      while (thread->n_frames > 0)
        thread_pop (builder, thread);
      elapsed += thread->elapsed;
      application += thread->application;
    }

  self->elapsed_total = (double)elapsed;
  self->application_total = (double)application;
  self->has_os_events = builder->has_os_events;

  self->function_stats = g_new (PsCallStats, MAX (self->n_functions, 1));
  self->function_present = g_new0 (guint8, MAX (self->n_functions, 1));
  for (guint f = 0; f < self->n_functions; f++)
    {
      call_tree_stats_from_function_acc (&self->function_stats[f], &g_array_index (builder->function_accs, FunctionAcc, f));
      self->function_present[f] = builder->function_present->data[f];
    }
  tree_finish_addresses (self, builder);

  self->node_accs = steal_exact (&builder->node_accs);
  self->node_extremes = steal_exact (&builder->node_extremes);
  self->n_node_chunks = (self->n_nodes + STATS_CHUNK_SIZE - 1) / STATS_CHUNK_SIZE;
  self->node_chunks = g_new0 (PsCallStats *, MAX (self->n_node_chunks, 1));
}

PsCallTree *
ps_call_tree_builder_end (PsCallTreeBuilder *self)
{
  PsCallTree *tree;
  CallersNode *root;
  PsCallStats *root_stats;

  g_return_val_if_fail (self != NULL, NULL);

  tree = g_object_new (PS_TYPE_CALL_TREE, NULL);
  tree->unit = self->unit;
  tree->is_report = self->mode == MODE_REPORT;

  tree->strings = g_steal_pointer (&self->strings);
  tree->n_functions = self->function_keys->len;
  tree->functions = g_new (FunctionKey, MAX (tree->n_functions, 1));
  tree->function_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint f = 0; f < tree->n_functions; f++)
    {
      tree->functions[f] = *(FunctionKey *)g_ptr_array_index (self->function_keys, f);
      if (!g_hash_table_contains (tree->function_by_name, tree->functions[f].name))
        g_hash_table_insert (tree->function_by_name, (gpointer)tree->functions[f].name, GUINT_TO_POINTER (f + 1));
    }

  if (self->mode == MODE_NONE)
    call_tree_builder_set_mode (self, MODE_COMPUTED);

  tree->n_nodes = self->links->len;
  tree->links = steal_exact (&self->links);
  g_clear_pointer (&self->slots, g_free);
  tree_make_children (tree, self);

  if (self->mode == MODE_REPORT)
    {
      tree->node_given = (PsCallStats *)(gpointer)g_array_free (g_steal_pointer (&self->node_given), FALSE);
      tree->has_top_down = tree->n_nodes > 1;
      tree_finish_report (tree, self);
    }
  else
    {
      tree->has_top_down = TRUE;
      tree_finish_computed (tree, self);
    }

  call_tree_stats_clear (&tree->root_stats);
  tree->root_stats.total[ELAPSED_INCLUSIVE] = tree->elapsed_total;
  tree->root_stats.total[APPLICATION_INCLUSIVE] = tree->application_total;

  /* The root of the bottom-up tree */
  root = g_new0 (CallersNode, CALLERS_CHUNK_SIZE);
  root_stats = g_new (PsCallStats, CALLERS_CHUNK_SIZE);
  root->function = PS_NONE;
  root_stats[0] = tree->root_stats;
  g_ptr_array_add (tree->callers_chunks, root);
  g_ptr_array_add (tree->callers_stats_chunks, root_stats);
  tree->n_callers_nodes = 1;

  ps_call_tree_builder_free (self);
  return tree;
}

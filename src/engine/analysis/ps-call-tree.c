/* ps-call-tree.c — call trees with the four instrumentation values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §2 (collection model), §3 (the four values,
 * recursion), §4 (percentages); rtl-logfile.md §3 (scope names).
 *
 * Building is O(1) amortised per probe. Each thread keeps running totals of
 * its elapsed and application time; a call records them when it enters, so
 * its inclusive values when it leaves are the totals now minus those at
 * entry, and an interval only touches the top of the stack (its exclusive
 * values). Top-down nodes are found by (parent node, function) in an open
 * addressing table. Nothing here recurses: trees are walked with explicit
 * stacks, and a node's parent always has a smaller id than the node.
 *
 * Computed trees keep compact integer accumulators per node (calls, and
 * total, min and max of the four values) and turn them into PsCallStats a
 * chunk of nodes at a time when they are first read; the bottom-up tree is
 * grown one node's children at a time under a mutex.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-call-tree.h"
#include "ps-folded.h"
#include "ps-error.h"
#include "ps-util.h"

#define ELAPSED_INCLUSIVE     PS_CALL_VALUE_ELAPSED_INCLUSIVE
#define ELAPSED_EXCLUSIVE     PS_CALL_VALUE_ELAPSED_EXCLUSIVE
#define APPLICATION_INCLUSIVE PS_CALL_VALUE_APPLICATION_INCLUSIVE
#define APPLICATION_EXCLUSIVE PS_CALL_VALUE_APPLICATION_EXCLUSIVE

#define NODE_FLAG_OUTERMOST   (1u << 0)  /* no ancestor has the node's function */

#define STATS_CHUNK_SIZE      1024u      /* node stats made at once on first read */
#define CALLERS_CHUNK_SIZE    1024u
#define TABLE_MIN_SIZE        1024u
#define THREAD_CACHE_SIZE     64u        /* direct-mapped, by thread key */

/* One top-down node's place in the tree: 16 bytes */
typedef struct
{
  guint32 parent;    /* PS_NONE for the root */
  guint32 function;  /* PS_NONE for the root */
  guint32 depth;
  guint32 flags;
} NodeLink;

/* Calls and the four values of a computed node, in the tree's unit. Most
 * nodes of a large tree have one call, whose values are its totals: the
 * per-call extremes only get a place once a node has a second call.
 * 48 bytes. */
typedef struct
{
  guint64 calls;
  gint64  total[PS_N_CALL_VALUES];
  guint32 extremes;  /* index in the extremes, or PS_NONE */
  guint32 reserved;
} CallAcc;

typedef struct
{
  gint64 min[PS_N_CALL_VALUES];
  gint64 max[PS_N_CALL_VALUES];
} CallExtremes;

/* A computed function: its totals follow the recursion rule, so they are
 * not the values of a single call; min and max are always kept */
typedef struct
{
  guint64 calls;
  gint64  total[PS_N_CALL_VALUES];
  gint64  min[PS_N_CALL_VALUES];
  gint64  max[PS_N_CALL_VALUES];
} FunctionAcc;

/* An address of a function that stands for a module's unnamed code, with
 * the values it has as a function of its own */
typedef struct
{
  guint32     function;
  guint32     mark;       /* the last sample it was counted in */
  const char *name;       /* in the strings */
  gint64      total[PS_N_CALL_VALUES];
} AddressAcc;

/* An open addressing slot: the node with (parent, function), or empty when
 * node_plus_one is 0 */
typedef struct
{
  guint32 parent;
  guint32 function;
  guint32 node_plus_one;
} NodeSlot;

typedef struct
{
  guint32 node;
  guint32 function;
  gint64  elapsed_at_entry;      /* the thread's running totals at entry */
  gint64  application_at_entry;
  gint64  elapsed_exclusive;     /* while it was the top of the stack */
  gint64  application_exclusive;
} Frame;

typedef struct
{
  guint32  key;
  gboolean has_time;
  gboolean os_pending;           /* an OS event in the interval now running */
  gint64   last_time;
  gint64   elapsed;              /* running totals: time with a non-empty stack */
  gint64   application;
  Frame   *frames;
  guint32 *functions;            /* the frames' functions, packed: the
                                  * interval model compares stacks */
  guint    n_frames;
  guint    frames_size;
  guint32 *on_stack;             /* per function: its calls open on the stack */
  guint    on_stack_size;
} ThreadState;

typedef enum
{
  MODE_NONE,
  MODE_COMPUTED,
  MODE_REPORT,
} BuilderMode;

typedef struct
{
  const char *name;
  const char *module;
} FunctionKey;

/* A caller or callee row of a report */
typedef struct
{
  guint32     function;
  guint32     other;       /* the caller or callee, PS_NONE for none */
  gboolean    is_caller;
  PsCallStats stats;
} GivenRelation;

struct _PsCallTreeBuilder
{
  PsCallUnit    unit;
  BuilderMode   mode;

  /* Functions */
  GStringChunk *strings;
  GHashTable   *function_ids;        /* FunctionKey → id + 1 */
  GPtrArray    *function_keys;       /* FunctionKey, owned */
  GArray       *function_accs;       /* FunctionAcc (computed) */
  GByteArray   *function_present;    /* 1 when the function has values */

  /* Top-down nodes */
  GArray       *links;               /* NodeLink */
  GArray       *node_accs;           /* CallAcc (computed) */
  GArray       *node_extremes;       /* CallExtremes (computed) */
  GArray       *node_given;          /* PsCallStats (reports) */
  NodeSlot     *slots;
  guint32       slots_mask;
  guint32       slots_used;

  /* Probes and intervals */
  GHashTable   *threads;             /* key → ThreadState */
  GPtrArray    *thread_list;
  ThreadState  *last_thread;
  ThreadState  *thread_cache[THREAD_CACHE_SIZE];

  /* Samples */
  guint32      *sample_marks;        /* per function: the last sample it was in */
  guint         sample_marks_size;
  guint32       sample_serial;
  gint64        sampled_elapsed;
  gint64        sampled_application;

  /* Children of the top-down nodes when they were grouped before the
   * end (to mark the outermost nodes of sampled trees), else NULL */
  guint32      *child_offsets;
  guint32      *children;

  /* Addresses grouped into functions (PsCallTreeOptions.group_addresses) */
  GArray       *addresses;           /* AddressAcc */
  guint32       address_serial;

  gboolean      has_os_events;

  /* Reports */
  GArray       *function_given;      /* PsCallStats per function */
  GByteArray   *function_is_given;
  GArray       *relations;           /* GivenRelation */
  gboolean      has_given_totals;
  double        given_elapsed_total;
  double        given_application_total;
};

/* A bottom-up node. Its children are made when first asked for, from the
 * pairs (top-down node of the function at the bottom of the path, its
 * ancestor at this node's level). */
typedef struct
{
  guint32  function;
  guint32  first_child;
  guint32  n_children;
  guint32  n_pairs;
  guint32 *pairs;
  gboolean expanded;
} CallersNode;

struct _PsCallTree
{
  GObject       parent_instance;

  PsCallUnit    unit;
  gboolean      is_report;
  gboolean      has_os_events;
  gboolean      has_top_down;
  gboolean      has_given_relations;
  double        elapsed_total;
  double        application_total;

  /* Functions */
  GStringChunk *strings;
  guint         n_functions;
  FunctionKey  *functions;
  GHashTable   *function_by_name;    /* name → first id + 1 */
  PsCallStats  *function_stats;
  guint8       *function_present;

  /* Top-down tree */
  guint32       n_nodes;
  NodeLink     *links;
  CallAcc      *node_accs;           /* computed trees */
  CallExtremes *node_extremes;
  PsCallStats  *node_given;          /* reports */
  PsCallStats **node_chunks;         /* computed trees: made on first read */
  guint         n_node_chunks;
  PsCallStats   root_stats;
  guint32      *child_offsets;       /* children of n: child_offsets[n] … [n + 1] - 1 */
  guint32      *children;

  /* The outermost top-down nodes of each function, made on first use */
  gsize         outermost_once;
  guint32      *outermost_offsets;
  guint32      *outermost_nodes;

  /* Reports: given callers and callees, grouped by function */
  GivenRelation *relations;
  guint32      *relation_offsets;

  /* Addresses of the functions that stand for them: those of function f
   * are addresses[address_order[address_offsets[f] … address_offsets[f + 1] - 1]] */
  AddressAcc   *addresses;
  guint32      *address_offsets;
  guint32      *address_order;

  /* Bottom-up tree */
  GMutex        callers_mutex;
  GPtrArray    *callers_chunks;      /* CallersNode[CALLERS_CHUNK_SIZE] */
  GPtrArray    *callers_stats_chunks; /* PsCallStats[CALLERS_CHUNK_SIZE] */
  guint32       n_callers_nodes;
  guint32      *callers_group_of;    /* per function, scratch while expanding */
};

G_DEFINE_FINAL_TYPE (PsCallTree, ps_call_tree, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------ */
/* Sums of stats                                                            */

typedef struct
{
  PsCallStats stats;
  gboolean    empty;
} StatsSum;

static void
stats_clear (PsCallStats *stats)
{
  memset (stats, 0, sizeof *stats);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    stats->given_percent[v] = NAN;
}

static void
stats_sum_init (StatsSum *sum)
{
  memset (sum, 0, sizeof *sum);
  sum->empty = TRUE;
}

static inline gboolean
value_is_inclusive (guint value)
{
  return value == ELAPSED_INCLUSIVE || value == APPLICATION_INCLUSIVE;
}

/* A row's total, or avg × calls when the report only gave the average */
static inline double
effective_total (const PsCallStats *stats,
                 guint              value)
{
  if (isnan (stats->total[value]) && !isnan (stats->avg[value]))
    return stats->avg[value] * (double)stats->calls;
  return stats->total[value];
}

/* Adds calls, exclusive values and per-call extremes of part, and its
 * inclusive values when with_inclusive (the outermost call of a function) */
static void
stats_sum_add (StatsSum          *sum,
               const PsCallStats *part,
               gboolean           with_inclusive)
{
  sum->stats.calls += part->calls;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      if (with_inclusive || !value_is_inclusive (v))
        {
          sum->stats.total[v] += effective_total (part, v);
          sum->stats.given_percent[v] += part->given_percent[v];
        }

      if (sum->empty)
        {
          sum->stats.min[v] = part->min[v];
          sum->stats.max[v] = part->max[v];
        }
      else
        {
          /* A column a report did not have stays absent */
          sum->stats.min[v] = isnan (part->min[v]) ? NAN : MIN (sum->stats.min[v], part->min[v]);
          sum->stats.max[v] = isnan (part->max[v]) ? NAN : MAX (sum->stats.max[v], part->max[v]);
        }
    }
  sum->empty = FALSE;
}

static void
stats_sum_finish (StatsSum    *sum,
                  PsCallStats *out)
{
  *out = sum->stats;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      if (out->calls > 0)
        out->avg[v] = out->total[v] / (double)out->calls;
      else
        out->avg[v] = isnan (out->total[v]) ? NAN : 0;
      if (sum->empty)
        out->given_percent[v] = NAN;
    }
}

static void
stats_from_acc (PsCallStats        *stats,
                const CallAcc      *acc,
                const CallExtremes *all_extremes)
{
  const CallExtremes *extremes = acc->extremes != PS_NONE ? &all_extremes[acc->extremes] : NULL;

  stats->calls = acc->calls;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      stats->total[v] = (double)acc->total[v];
      if (extremes != NULL)
        {
          stats->min[v] = (double)extremes->min[v];
          stats->max[v] = (double)extremes->max[v];
        }
      else if (acc->calls == 1)
        stats->min[v] = stats->max[v] = stats->total[v];
      else
        stats->min[v] = stats->max[v] = 0;
      stats->avg[v] = acc->calls > 0 ? stats->total[v] / (double)acc->calls : 0;
      stats->given_percent[v] = NAN;
    }
}

static void
stats_from_function_acc (PsCallStats       *stats,
                         const FunctionAcc *acc)
{
  stats->calls = acc->calls;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      stats->total[v] = (double)acc->total[v];
      if (acc->calls > 0)
        {
          stats->min[v] = (double)acc->min[v];
          stats->max[v] = (double)acc->max[v];
          stats->avg[v] = stats->total[v] / (double)acc->calls;
        }
      else
        stats->min[v] = stats->max[v] = stats->avg[v] = 0;
      stats->given_percent[v] = NAN;
    }
}

static inline void
acc_init (CallAcc *acc)
{
  memset (acc, 0, sizeof *acc);
  acc->extremes = PS_NONE;
}

static inline void
function_acc_init (FunctionAcc *acc)
{
  memset (acc, 0, sizeof *acc);
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    acc->min[v] = G_MAXINT64;
}

/* ------------------------------------------------------------------------ */
/* Names                                                                    */

/* "module (author) function" (rtl-logfile.md §3: the optional refinement
 * ^(\S+) \(([^)]*)\)(?: (.*))?$). Returns whether name follows it with a
 * non-empty function part. */
static gboolean
split_name (const char  *name,
            gsize       *module_length,
            const char **function)
{
  const char *p = name;
  const char *close;

  while (*p != '\0' && !g_ascii_isspace (*p))
    p++;
  if (p == name || p[0] != ' ' || p[1] != '(')
    return FALSE;

  close = strchr (p + 2, ')');
  if (close == NULL || close[1] != ' ' || close[2] == '\0')
    return FALSE;

  *module_length = p - name;
  *function = close + 2;
  return TRUE;
}

const char *
ps_call_tree_function_of_name (const char *name,
                               gsize      *length)
{
  gsize module_length;
  const char *function;

  g_return_val_if_fail (name != NULL, NULL);

  if (!split_name (name, &module_length, &function))
    function = name;
  if (length != NULL)
    *length = strlen (function);
  return function;
}

const char *
ps_call_tree_module_of_name (const char *name,
                             gsize      *length)
{
  gsize module_length = 0;
  const char *function;

  g_return_val_if_fail (name != NULL, NULL);

  if (!split_name (name, &module_length, &function))
    {
      if (length != NULL)
        *length = 0;
      return NULL;
    }
  if (length != NULL)
    *length = module_length;
  return name;
}

static guint
function_key_hash (gconstpointer data)
{
  const FunctionKey *key = data;

  return g_str_hash (key->name) * 31 + g_str_hash (key->module);
}

static gboolean
function_key_equal (gconstpointer a,
                    gconstpointer b)
{
  const FunctionKey *key_a = a;
  const FunctionKey *key_b = b;

  return strcmp (key_a->name, key_b->name) == 0 && strcmp (key_a->module, key_b->module) == 0;
}

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
  self->function_ids = g_hash_table_new (function_key_hash, function_key_equal);
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

static gboolean
builder_set_mode (PsCallTreeBuilder *self,
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

      stats_clear (&root);
      self->node_given = g_array_new (FALSE, FALSE, sizeof (PsCallStats));
      g_array_append_val (self->node_given, root);
      self->function_given = g_array_new (FALSE, TRUE, sizeof (PsCallStats));
      self->function_is_given = g_byte_array_new ();
      self->relations = g_array_new (FALSE, FALSE, sizeof (GivenRelation));
    }
  return TRUE;
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
  slots = g_new0 (NodeSlot, (gsize)new_mask + 1);
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
static guint32
builder_append_child (PsCallTreeBuilder *self,
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
static guint32
builder_child (PsCallTreeBuilder *self,
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

  node = builder_append_child (self, parent, function, outermost);
  if (node != parent)
    builder_index_node (self, slot, node);
  return node;
}

/* Puts the nodes made by builder_append_child () into the table */
static void
builder_index_nodes (PsCallTreeBuilder *self,
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
  frame->node = builder_child (self, parent, function, outermost);
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
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !builder_set_mode (self, MODE_COMPUTED))
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
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !builder_set_mode (self, MODE_COMPUTED))
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
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !builder_set_mode (self, MODE_COMPUTED))
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
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !builder_set_mode (self, MODE_COMPUTED))
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
  if (G_UNLIKELY (self->mode != MODE_COMPUTED) && !builder_set_mode (self, MODE_COMPUTED))
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

      node = builder_child (self, node, f, outermost);
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
 * builder_sum_sampled_nodes (), so a stack costs one step instead of one
 * per frame. */
static void
builder_add_sample_at_node (PsCallTreeBuilder *self,
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
static void
builder_sum_sampled_nodes (PsCallTreeBuilder *self)
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
          stats_clear (&g_array_index (self->function_given, PsCallStats, i));
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
  if (!builder_set_mode (self, MODE_REPORT))
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
  if (!builder_set_mode (self, MODE_REPORT))
    return;

  builder_grow_given_functions (self);
  stats = &g_array_index (self->function_given, PsCallStats, function);
  if (self->function_is_given->data[function])
    {
      StatsSum sum;

      stats_sum_init (&sum);
      stats_sum_add (&sum, stats, TRUE);
      stats_sum_add (&sum, given, TRUE);
      stats_sum_finish (&sum, stats);
    }
  else
    *stats = *given;
  self->function_is_given->data[function] = 1;
}

static void
builder_add_relation (PsCallTreeBuilder *self,
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
  if (!builder_set_mode (self, MODE_REPORT))
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
  builder_add_relation (self, function, caller, TRUE, given);
}

void
ps_call_tree_builder_add_callee (PsCallTreeBuilder *self,
                                 guint32            function,
                                 guint32            callee,
                                 const PsCallStats *given)
{
  builder_add_relation (self, function, callee, FALSE, given);
}

void
ps_call_tree_builder_set_totals (PsCallTreeBuilder *self,
                                 double             elapsed,
                                 double             application)
{
  g_return_if_fail (self != NULL);
  if (!builder_set_mode (self, MODE_REPORT))
    return;

  self->has_given_totals = TRUE;
  self->given_elapsed_total = elapsed;
  self->given_application_total = application;
}

/* --- The end ------------------------------------------------------------ */

/* Children grouped by parent; ids grow from parent to child, so the
 * children of a node stay in the order they were made */
static void
links_make_children (const NodeLink *links,
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
  links_make_children (self->links, self->n_nodes, &self->child_offsets, &self->children);
}

/* Which nodes are the outermost of their function on their path, by a
 * depth-first walk with an explicit stack: each node is looked at once */
static void
links_mark_outermost (NodeLink       *links,
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
  links_mark_outermost (self->links, self->n_functions, self->child_offsets, self->children);
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
    stats_sum_init (&sums[f]);
  for (guint32 n = 1; n < self->n_nodes; n++)
    {
      const NodeLink *link = &self->links[n];

      if (!builder->function_is_given->data[link->function])
        stats_sum_add (&sums[link->function], &self->node_given[n], (link->flags & NODE_FLAG_OUTERMOST) != 0);
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
          stats_sum_finish (&sums[f], stats);
          self->function_present[f] = 1;
        }
      else
        {
          /* Only named as a caller or callee: the report has no values */
          stats_clear (stats);
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
      stats_from_function_acc (&self->function_stats[f], &g_array_index (builder->function_accs, FunctionAcc, f));
      self->function_present[f] = builder->function_present->data[f];
    }
  tree_finish_addresses (self, builder);

  self->node_accs = (CallAcc *)(gpointer)g_array_free (g_steal_pointer (&builder->node_accs), FALSE);
  self->node_extremes = (CallExtremes *)(gpointer)g_array_free (g_steal_pointer (&builder->node_extremes), FALSE);
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
    builder_set_mode (self, MODE_COMPUTED);

  tree->n_nodes = self->links->len;
  tree->links = (NodeLink *)(gpointer)g_array_free (g_steal_pointer (&self->links), FALSE);
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

  stats_clear (&tree->root_stats);
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

/* --- Spans, reports and samples of a store ------------------------------- */

typedef struct
{
  guint32 span;
  gint64  end_ns;    /* clamped into its parent */
} OpenSpan;

/* The function of a span name, interned once per name */
static guint32
span_function (PsCallTreeBuilder *builder,
               PsEventStore      *store,
               GHashTable        *functions,
               guint32            name)
{
  gpointer known = g_hash_table_lookup (functions, GUINT_TO_POINTER (name));
  const char *text;
  const char *module;
  const char *function_name;
  gsize module_length, function_length;
  g_autofree char *module_copy = NULL;
  g_autofree char *function_copy = NULL;
  guint32 function;

  if (known != NULL)
    return GPOINTER_TO_UINT (known) - 1;

  text = ps_event_store_get_string (store, name);
  function_name = ps_call_tree_function_of_name (text, &function_length);
  module = ps_call_tree_module_of_name (text, &module_length);
  function_copy = g_strndup (function_name, function_length);
  if (module != NULL)
    module_copy = g_strndup (module, module_length);

  function = ps_call_tree_builder_intern_function (builder, function_copy, module_copy);
  g_hash_table_insert (functions, GUINT_TO_POINTER (name), GUINT_TO_POINTER (function + 1));
  return function;
}

static PsCallTree *new_for_spans (PsEventStore  *store,
                                  guint32        track,
                                  PsScopeFilter *filter,
                                  const guint8  *selection,
                                  GCancellable  *cancellable);

PsCallTree *
ps_call_tree_new_for_spans (PsEventStore  *store,
                            guint32        track,
                            PsScopeFilter *filter)
{
  return new_for_spans (store, track, filter, NULL, NULL);
}

/* selection: NULL, or one byte per span of the store; then only the
 * selected spans and what ran inside them count, the selected spans as
 * the top calls. NULL when cancelled. */
static PsCallTree *
new_for_spans (PsEventStore  *store,
               guint32        track,
               PsScopeFilter *filter,
               const guint8  *selection,
               GCancellable  *cancellable)
{
  g_autoptr(PsCallTreeBuilder) builder = NULL;
  g_autofree guint8 *inside = NULL;    /* with a selection: in a selected span */
  g_autoptr(GHashTable) functions = NULL;
  g_autoptr(GPtrArray) stacks = NULL;  /* per track: GArray of OpenSpan */
  g_autofree guint32 *up = NULL;       /* nearest kept ancestor, or PS_NONE */
  g_autofree guint8 *kept = NULL;
  g_autofree gint64 *last_time = NULL;
  guint64 n_spans;
  guint n_tracks;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  n_spans = ps_event_store_get_n_spans (store);
  n_tracks = ps_event_store_get_n_tracks (store);
  g_return_val_if_fail (n_spans < G_MAXUINT32, NULL);

  builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  builder_set_mode (builder, MODE_COMPUTED);
  functions = g_hash_table_new (NULL, NULL);
  stacks = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  for (guint t = 0; t < n_tracks; t++)
    g_ptr_array_add (stacks, g_array_new (FALSE, FALSE, sizeof (OpenSpan)));
  up = g_new (guint32, n_spans + 1);
  kept = g_new0 (guint8, n_spans + 1);
  if (selection != NULL)
    inside = g_new0 (guint8, n_spans + 1);
  last_time = g_new (gint64, n_tracks + 1);
  for (guint t = 0; t < n_tracks; t++)
    last_time[t] = G_MININT64;

  /* Spans come in the order they began, each after its parent: a span
   * ends every open span of its track above its nearest kept ancestor. */
  for (guint32 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      GArray *stack;
      gint64 begin, end, parent_end;
      OpenSpan open;

      if (ps_util_stop_at (i, cancellable))
        return NULL;

      if (span->parent == PS_NONE || span->parent >= i)
        up[i] = PS_NONE;
      else
        up[i] = kept[span->parent] ? span->parent : up[span->parent];

      if (inside != NULL)
        {
          inside[i] = selection[i] != 0 ||
                      (span->parent != PS_NONE && span->parent < i && inside[span->parent]);
          if (!inside[i])
            continue;
        }
      if (span->track >= n_tracks || (track != PS_NONE && span->track != track))
        continue;
      if (!ps_scope_filter_match_span (filter, store, i))
        continue;
      kept[i] = 1;

      stack = g_ptr_array_index (stacks, span->track);
      while (stack->len > 0 && g_array_index (stack, OpenSpan, stack->len - 1).span != up[i])
        {
          OpenSpan *top = &g_array_index (stack, OpenSpan, stack->len - 1);

          last_time[span->track] = MAX (last_time[span->track], top->end_ns);
          ps_call_tree_builder_leave (builder, span->track, last_time[span->track]);
          g_array_set_size (stack, stack->len - 1);
        }

      /* Times of a thread never go back; a child stays inside its parent */
      parent_end = stack->len > 0 ? g_array_index (stack, OpenSpan, stack->len - 1).end_ns : G_MAXINT64;
      begin = MIN (MAX (span->begin_ns, last_time[span->track]), parent_end);
      end = CLAMP (span->end_ns, begin, parent_end);

      ps_call_tree_builder_enter (builder, span->track, span_function (builder, store, functions, span->name), begin);
      last_time[span->track] = begin;
      open.span = i;
      open.end_ns = end;
      g_array_append_val (stack, open);
    }

  for (guint t = 0; t < n_tracks; t++)
    {
      GArray *stack = g_ptr_array_index (stacks, t);

      for (guint k = stack->len; k-- > 0;)
        {
          last_time[t] = MAX (last_time[t], g_array_index (stack, OpenSpan, k).end_ns);
          ps_call_tree_builder_leave (builder, t, last_time[t]);
        }
    }

  return ps_call_tree_builder_end (g_steal_pointer (&builder));
}

static void
stats_from_report_row (PsCallStats       *stats,
                       const PsReportRow *row,
                       double             factor)
{
  stats->calls = row->has_calls ? row->calls : 0;
  for (guint v = 0; v < PS_N_CALL_VALUES; v++)
    {
      stats->total[v] = row->total[v] * factor;
      stats->min[v] = row->min[v] * factor;
      stats->avg[v] = row->avg[v] * factor;
      stats->max[v] = row->max[v] * factor;
      stats->given_percent[v] = row->percent[v];
    }
}

static guint32
report_function (PsCallTreeBuilder *builder,
                 PsEventStore      *store,
                 guint32            frame_id)
{
  const PsFrame *frame;

  /* A row without a frame (PS_NONE): a function without a name */
  if (frame_id >= ps_event_store_get_n_frames (store))
    return ps_call_tree_builder_intern_function (builder, "", NULL);
  frame = ps_event_store_get_frame (store, frame_id);
  if (frame->function == 0 && frame->module != 0)
    {
      g_autoptr(GString) name = g_string_new (NULL);

      /* An unnamed frame: "module+0xoffset" */
      ps_event_store_append_frame_name (store, frame_id, name);
      return ps_call_tree_builder_intern_function (builder, name->str,
                                                   ps_event_store_get_string (store, frame->module));
    }
  return ps_call_tree_builder_intern_function (builder,
                                               ps_event_store_get_string (store, frame->function),
                                               ps_event_store_get_string (store, frame->module));
}

static PsCallTree *
new_for_report (PsEventStore            *store,
                const PsCallTreeOptions *options)
{
  g_autoptr(PsCallTreeBuilder) builder = NULL;
  g_autofree guint32 *node_of_row = NULL;
  g_autofree guint32 *function_of_row = NULL;
  const char *unit_name = ps_event_store_get_metadata (store, 0, "time_unit");
  PsCallUnit unit = PS_CALL_UNIT_TICKS;
  double factor = 1;
  guint n_rows = ps_event_store_get_n_report_rows (store);

  if (g_strcmp0 (unit_name, "ms") == 0)
    unit = PS_CALL_UNIT_MS;
  else if (g_strcmp0 (unit_name, "samples") == 0)
    unit = PS_CALL_UNIT_SAMPLES;
  else if (g_strcmp0 (unit_name, "ns") == 0)
    unit = PS_CALL_UNIT_NS;

  if (unit == PS_CALL_UNIT_TICKS && options != NULL && options->ticks_per_second > 0)
    {
      factor = 1e9 / options->ticks_per_second;
      unit = PS_CALL_UNIT_NS;
    }

  builder = ps_call_tree_builder_new (unit);
  builder_set_mode (builder, MODE_REPORT);
  node_of_row = g_new (guint32, n_rows);
  function_of_row = g_new (guint32, n_rows);

  for (guint32 i = 0; i < n_rows; i++)
    {
      const PsReportRow *row = ps_event_store_get_report_row (store, i);
      guint32 function = report_function (builder, store, row->frame);
      PsCallStats stats;
      guint32 parent;

      node_of_row[i] = PS_NONE;
      function_of_row[i] = PS_NONE;
      stats_from_report_row (&stats, row, factor);

      switch (row->kind)
        {
        case PS_REPORT_ROW_TREE:
          parent = row->parent < i && node_of_row[row->parent] != PS_NONE ? node_of_row[row->parent] : PS_CALL_NODE_ROOT;
          node_of_row[i] = ps_call_tree_builder_add_node (builder, parent, function, &stats);
          break;
        case PS_REPORT_ROW_FUNCTION:
          ps_call_tree_builder_set_function (builder, function, &stats);
          function_of_row[i] = function;
          break;
        case PS_REPORT_ROW_CALLER:
        case PS_REPORT_ROW_CALLEE:
          if (row->parent < i && function_of_row[row->parent] != PS_NONE)
            builder_add_relation (builder, function_of_row[row->parent], function,
                                  row->kind == PS_REPORT_ROW_CALLER, &stats);
          break;
        default:
          break;
        }
    }

  return ps_call_tree_builder_end (g_steal_pointer (&builder));
}

static gboolean
sample_counts (const PsSample          *sample,
               guint32                  track,
               const PsCallTreeOptions *options)
{
  if (options == NULL)
    return track == PS_NONE || sample->track == track;
  if (options->tracks != NULL)
    {
      if (sample->track == PS_NONE || !options->tracks[sample->track])
        return FALSE;
    }
  else if (track != PS_NONE && sample->track != track)
    return FALSE;
  if (options->sources != NULL && !options->sources[sample->source])
    return FALSE;
  if (options->time_range && (sample->time_ns < options->begin_ns || sample->time_ns >= options->end_ns))
    return FALSE;
  return TRUE;
}

typedef struct
{
  guint32                  track;
  const PsCallTreeOptions *options;
} SampleSelection;

static gboolean
sample_selected (const PsSample *sample,
                 gpointer        user_data)
{
  const SampleSelection *selection = user_data;

  return sample_counts (sample, selection->track, selection->options);
}

/* Whether a frame has no function name: an offset in a module, or in
 * pmcstat -G text a name that is a hexadecimal address */
static gboolean
frame_is_address (PsEventStore  *store,
                  const PsFrame *frame)
{
  const char *name;

  if (frame->function == 0)
    return TRUE;
  name = ps_event_store_get_string (store, frame->function);
  if (name == NULL || name[0] != '0' || (name[1] != 'x' && name[1] != 'X') || name[2] == '\0')
    return FALSE;
  for (const char *p = name + 2; *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

gboolean
ps_call_tree_frame_is_address (PsEventStore *store,
                               guint32       frame)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);

  if (frame >= ps_event_store_get_n_frames (store))
    return FALSE;
  return frame_is_address (store, ps_event_store_get_frame (store, frame));
}

/* The function of a sampled frame; with group_addresses, an address is
 * one of the addresses of its module's function, and *address_plus_one
 * is set to its index + 1 */
static guint32
sample_function (PsCallTreeBuilder *builder,
                 PsEventStore      *store,
                 guint32            frame_id,
                 gboolean           group_addresses,
                 guint32           *address_plus_one)
{
  const PsFrame *frame = ps_event_store_get_frame (store, frame_id);
  const char *module;
  const char *base;
  g_autoptr(GString) name = NULL;
  AddressAcc address = { 0 };
  guint32 function;

  if (!group_addresses || !frame_is_address (store, frame))
    {
      /* An address in no module is named by its value */
      if (frame->function == 0 && frame->module == 0)
        {
          name = g_string_new (NULL);
          ps_event_store_append_frame_name (store, frame_id, name);
          return ps_call_tree_builder_intern_function (builder, name->str, NULL);
        }
      return report_function (builder, store, frame_id);
    }

  module = frame->module != 0 ? ps_event_store_get_string (store, frame->module) : "";
  base = strrchr (module, '/');
  base = base != NULL && base[1] != '\0' ? base + 1 : module;
  /* Addresses in no module are those of the pcs no mapping had */
  function = ps_call_tree_builder_intern_function (builder, base[0] != '\0' ? base : "[unknown]", module);

  name = g_string_new (NULL);
  ps_event_store_append_frame_name (store, frame_id, name);
  if (builder->addresses == NULL)
    builder->addresses = g_array_new (FALSE, FALSE, sizeof (AddressAcc));
  address.function = function;
  address.name = g_string_chunk_insert_const (builder->strings, name->str);
  g_array_append_val (builder->addresses, address);
  *address_plus_one = builder->addresses->len;
  return function;
}

/* Adds a sample's weight to the addresses on its stack (leaf first; 0 for
 * a frame that is no address): inclusive once per sample, exclusive to
 * the sampled one */
static void
add_sample_addresses (PsCallTreeBuilder *builder,
                      const guint32     *addresses,
                      guint              depth,
                      guint64            weight,
                      gboolean           kernel)
{
  gint64 amount = (gint64)MIN (weight, (guint64)G_MAXINT64);

  if (++builder->address_serial == 0)
    {
      for (guint a = 0; a < builder->addresses->len; a++)
        g_array_index (builder->addresses, AddressAcc, a).mark = 0;
      builder->address_serial = 1;
    }

  for (guint i = 0; i < depth; i++)
    {
      AddressAcc *address;

      if (addresses[i] == 0)
        continue;
      address = &g_array_index (builder->addresses, AddressAcc, addresses[i] - 1);
      if (i == 0)
        {
          address->total[ELAPSED_EXCLUSIVE] += amount;
          if (!kernel)
            address->total[APPLICATION_EXCLUSIVE] += amount;
        }
      if (address->mark == builder->address_serial)
        continue;
      address->mark = builder->address_serial;
      address->total[ELAPSED_INCLUSIVE] += amount;
      if (!kernel)
        address->total[APPLICATION_INCLUSIVE] += amount;
    }
}

/* How the tree nodes of sampled stacks are made. While every function
 * has one frame, tree nodes and stack nodes correspond one to one: a
 * stack node without a tree node needs a new one, and the builder's
 * table is made only when that stops. Which nodes are the outermost of
 * their function is told once all are made (links_mark_outermost ()). */
typedef struct
{
  gboolean indexed;
  guint8  *function_has_frame;
  guint    function_has_frame_size;
} PathFunctions;

/* A frame got its function */
static void
path_functions_frame (PathFunctions     *path,
                      PsCallTreeBuilder *builder,
                      guint32            function)
{
  if (path->indexed)
    return;
  if (function >= path->function_has_frame_size)
    {
      guint size = MAX (function + 1, path->function_has_frame_size * 2);

      path->function_has_frame = g_renew (guint8, path->function_has_frame, size);
      memset (path->function_has_frame + path->function_has_frame_size, 0, size - path->function_has_frame_size);
      path->function_has_frame_size = size;
    }
  if (path->function_has_frame[function])
    {
      /* Two frames of one function: their nodes below one parent are one */
      builder_index_nodes (builder, 1);
      path->indexed = TRUE;
      g_clear_pointer (&path->function_has_frame, g_free);
      return;
    }
  path->function_has_frame[function] = 1;
}

/* The child of node for function, made if new */
static inline guint32
path_functions_child (PathFunctions     *path,
                      PsCallTreeBuilder *builder,
                      guint32            node,
                      guint32            function)
{
  if (path->indexed)
    return builder_child (builder, node, function, FALSE);
  return builder_append_child (builder, node, function, FALSE);
}

/* The call tree of samples without grouped addresses. Stack nodes of the
 * store map to tree nodes (a stack node's tree node is the child of its
 * parent's for its frame's function), so each stack node is looked at
 * once, and a distinct stack adds its weight to one node. */
static PsCallTree *
new_for_samples_by_node (PsEventStore *store,
                         GArray       *weights,
                         GCancellable *cancellable)
{
  g_autoptr(PsCallTreeBuilder) builder = ps_call_tree_builder_new (PS_CALL_UNIT_SAMPLES);
  guint n_frames = ps_event_store_get_n_frames (store);
  guint n_stacks = ps_event_store_get_n_stack_nodes (store);
  /* frame → function + 1, 0 until seen */
  g_autofree guint32 *function_of_frame = g_new0 (guint32, MAX (n_frames, 1));
  /* stack node → tree node + 1, 0 until made */
  g_autofree guint32 *node_of_stack = g_new0 (guint32, MAX (n_stacks, 1));
  g_autoptr(GArray) path_up = g_array_new (FALSE, FALSE, sizeof (guint32));
  PathFunctions path = { FALSE, NULL, 0 };
  PsCallTree *tree = NULL;

  builder_set_mode (builder, MODE_COMPUTED);

  for (guint w = 0; w < weights->len; w++)
    {
      const PsStackWeight *entry = &g_array_index (weights, PsStackWeight, w);
      guint32 id = entry->stack;
      guint32 node = PS_CALL_NODE_ROOT;

      if (ps_util_stop_at (w + 1, cancellable))
        goto out;

      /* Up to the nearest stack node that has its tree node; functions
       * are made leaf first, as a walk from the sampled frame meets them */
      g_array_set_size (path_up, 0);
      while (id != 0 && id < n_stacks && node_of_stack[id] == 0)
        {
          const PsStackNode *stack_node = ps_event_store_get_stack_node (store, id);

          if (stack_node->frame >= n_frames)
            break;
          if (function_of_frame[stack_node->frame] == 0)
            {
              guint32 function = sample_function (builder, store, stack_node->frame, FALSE, NULL);

              function_of_frame[stack_node->frame] = function + 1;
              path_functions_frame (&path, builder, function);
            }
          g_array_append_val (path_up, id);
          /* Parents have smaller ids; anything else would loop */
          if (stack_node->parent >= id)
            {
              id = 0;
              break;
            }
          id = stack_node->parent;
        }
      /* A broken chain of stack nodes starts at the root where it broke */
      if (id != 0 && id < n_stacks && node_of_stack[id] != 0)
        node = node_of_stack[id] - 1;

      for (guint i = path_up->len; i > 0; i--)
        {
          guint32 up = g_array_index (path_up, guint32, i - 1);
          guint32 frame = ps_event_store_get_stack_node (store, up)->frame;

          node = path_functions_child (&path, builder, node, function_of_frame[frame] - 1);
          node_of_stack[up] = node + 1;
        }

      if (node != PS_CALL_NODE_ROOT)
        builder_add_sample_at_node (builder, node, entry->weight, entry->kernel != 0);
    }

  links_make_children ((const NodeLink *)(gpointer)builder->links->data, builder->links->len,
                       &builder->child_offsets, &builder->children);
  links_mark_outermost ((NodeLink *)(gpointer)builder->links->data, builder->function_keys->len,
                        builder->child_offsets, builder->children);
  builder_sum_sampled_nodes (builder);
  tree = ps_call_tree_builder_end (g_steal_pointer (&builder));

out:
  g_free (path.function_has_frame);
  return tree;
}

/* Samples with the same stack and mode add up first: a profile has far
 * fewer distinct stacks than samples, and each stack is walked once. */
static PsCallTree *
new_for_samples (PsEventStore            *store,
                 guint32                  track,
                 const PsCallTreeOptions *options)
{
  g_autoptr(PsCallTreeBuilder) builder = ps_call_tree_builder_new (PS_CALL_UNIT_SAMPLES);
  guint n_frames = ps_event_store_get_n_frames (store);
  gboolean group_addresses = options != NULL && options->group_addresses;
  /* frame → function + 1, 0 until seen */
  g_autofree guint32 *function_of_frame = g_new0 (guint32, MAX (n_frames, 1));
  /* frame → address + 1, 0 for a named frame */
  g_autofree guint32 *address_of_frame = group_addresses ? g_new0 (guint32, MAX (n_frames, 1)) : NULL;
  GCancellable *cancellable = options != NULL ? options->cancellable : NULL;
  SampleSelection selection = { track, options };
  g_autoptr(GArray) weights = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) addresses = g_array_new (FALSE, FALSE, sizeof (guint32));

  builder_set_mode (builder, MODE_COMPUTED);

  /* In stack order: the same result whatever the sample order */
  weights = ps_folded_sum_stacks (store, TRUE, sample_selected, &selection, cancellable);
  if (weights == NULL)
    return NULL;
  if (!group_addresses)
    return new_for_samples_by_node (store, weights, cancellable);
  for (guint w = 0; w < weights->len; w++)
    {
      const PsStackWeight *entry = &g_array_index (weights, PsStackWeight, w);
      guint32 id = entry->stack;
      gboolean has_address = FALSE;
      guint kept;

      if (ps_util_stop_at (w + 1, cancellable))
        return NULL;

      /* Stack nodes go from the leaf up: collect, then reverse */
      g_array_set_size (stack, 0);
      g_array_set_size (addresses, 0);
      while (id != 0)
        {
          const PsStackNode *node = ps_event_store_get_stack_node (store, id);
          guint32 function;

          if (node == NULL || node->frame >= n_frames)
            break;
          if (function_of_frame[node->frame] == 0)
            function_of_frame[node->frame] = sample_function (builder, store, node->frame, group_addresses,
                                                              group_addresses ? &address_of_frame[node->frame] : NULL) + 1;
          function = function_of_frame[node->frame] - 1;
          g_array_append_val (stack, function);
          if (group_addresses)
            {
              g_array_append_val (addresses, address_of_frame[node->frame]);
              has_address |= address_of_frame[node->frame] != 0;
            }
          /* Parents have smaller ids; anything else would loop */
          if (node->parent >= id)
            break;
          id = node->parent;
        }
      if (has_address)
        add_sample_addresses (builder, (const guint32 *)(gpointer)addresses->data, addresses->len,
                              entry->weight, entry->kernel != 0);

      for (guint a = 0, b = stack->len; a + 1 < b; a++, b--)
        {
          guint32 swap = g_array_index (stack, guint32, a);

          g_array_index (stack, guint32, a) = g_array_index (stack, guint32, b - 1);
          g_array_index (stack, guint32, b - 1) = swap;
        }

      /* Consecutive addresses of one module are one call of it; the
       * addresses were collected leaf first, so the stack's frame i had
       * address stack->len - 1 - i */
      kept = stack->len;
      if (has_address)
        {
          guint32 *functions = (guint32 *)(gpointer)stack->data;
          const guint32 *of_frame = (const guint32 *)(gpointer)addresses->data;

          kept = 0;
          for (guint i = 0; i < stack->len; i++)
            {
              gboolean address = of_frame[stack->len - 1 - i] != 0;
              gboolean previous_address = i > 0 && of_frame[stack->len - i] != 0;

              if (address && previous_address && functions[i] == functions[kept - 1])
                continue;
              functions[kept++] = functions[i];
            }
        }

      ps_call_tree_builder_add_sample (builder, (const guint32 *)(gpointer)stack->data, kept,
                                       entry->weight, entry->kernel != 0);
    }

  return ps_call_tree_builder_end (g_steal_pointer (&builder));
}

PsCallTree *
ps_call_tree_new_for_store (PsEventStore            *store,
                            const PsCallTreeOptions *options,
                            GError                 **error)
{
  guint32 track = options != NULL ? options->track : PS_NONE;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (ps_event_store_get_n_report_rows (store) > 0)
    return new_for_report (store, options);
  if (ps_event_store_get_n_samples (store) > 0)
    {
      PsCallTree *tree = new_for_samples (store, track, options);

      if (tree == NULL)
        g_cancellable_set_error_if_cancelled (options != NULL ? options->cancellable : NULL, error);
      return tree;
    }
  if (ps_event_store_get_n_spans (store) > 0)
    {
      GCancellable *cancellable = options != NULL ? options->cancellable : NULL;
      PsCallTree *tree = new_for_spans (store, track, options != NULL ? options->filter : NULL,
                                        options != NULL ? options->span_selection : NULL, cancellable);

      if (tree == NULL)
        g_cancellable_set_error_if_cancelled (cancellable, error);
      return tree;
    }

  g_set_error_literal (error, PS_ERROR, PS_ERROR_NO_DATA,
                       _("The run has no call stacks: no profiler report, scopes or samples"));
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The tree object                                                          */

static void
ps_call_tree_finalize (GObject *object)
{
  PsCallTree *self = PS_CALL_TREE (object);

  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->functions, g_free);
  g_clear_pointer (&self->function_by_name, g_hash_table_unref);
  g_clear_pointer (&self->function_stats, g_free);
  g_clear_pointer (&self->function_present, g_free);
  g_clear_pointer (&self->links, g_free);
  g_clear_pointer (&self->node_accs, g_free);
  g_clear_pointer (&self->node_extremes, g_free);
  g_clear_pointer (&self->node_given, g_free);
  if (self->node_chunks != NULL)
    for (guint c = 0; c < self->n_node_chunks; c++)
      g_free (self->node_chunks[c]);
  g_clear_pointer (&self->node_chunks, g_free);
  g_clear_pointer (&self->child_offsets, g_free);
  g_clear_pointer (&self->children, g_free);
  g_clear_pointer (&self->outermost_offsets, g_free);
  g_clear_pointer (&self->outermost_nodes, g_free);
  g_clear_pointer (&self->relations, g_free);
  g_clear_pointer (&self->relation_offsets, g_free);
  g_clear_pointer (&self->addresses, g_free);
  g_clear_pointer (&self->address_offsets, g_free);
  g_clear_pointer (&self->address_order, g_free);
  for (guint32 i = 0; i < self->n_callers_nodes; i++)
    g_free (((CallersNode *)g_ptr_array_index (self->callers_chunks, i / CALLERS_CHUNK_SIZE))[i % CALLERS_CHUNK_SIZE].pairs);
  g_clear_pointer (&self->callers_chunks, g_ptr_array_unref);
  g_clear_pointer (&self->callers_stats_chunks, g_ptr_array_unref);
  g_clear_pointer (&self->callers_group_of, g_free);
  g_mutex_clear (&self->callers_mutex);

  G_OBJECT_CLASS (ps_call_tree_parent_class)->finalize (object);
}

static void
ps_call_tree_class_init (PsCallTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_call_tree_finalize;
}

static void
ps_call_tree_init (PsCallTree *self)
{
  g_mutex_init (&self->callers_mutex);
  self->callers_chunks = g_ptr_array_new_with_free_func (g_free);
  self->callers_stats_chunks = g_ptr_array_new_with_free_func (g_free);
}

/* --- Units, bases, values ----------------------------------------------- */

PsCallUnit
ps_call_tree_get_unit (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_CALL_UNIT_NS);
  return self->unit;
}

const char *
ps_call_unit_to_string (PsCallUnit unit)
{
  switch (unit)
    {
    case PS_CALL_UNIT_NS:
      return "ns";
    case PS_CALL_UNIT_SAMPLES:
      return "samples";
    case PS_CALL_UNIT_TICKS:
      return "ticks";
    case PS_CALL_UNIT_MS:
      return "ms";
    default:
      g_return_val_if_reached (NULL);
    }
}

const char *
ps_call_basis_to_string (PsCallBasis basis)
{
  switch (basis)
    {
    case PS_CALL_BASIS_S1:
      return "s1";
    case PS_CALL_BASIS_VIEW:
      return "view";
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
ps_call_basis_from_string (const char  *text,
                           PsCallBasis *basis)
{
  g_return_val_if_fail (text != NULL, FALSE);

  if (g_ascii_strcasecmp (text, "s1") == 0)
    *basis = PS_CALL_BASIS_S1;
  else if (g_ascii_strcasecmp (text, "view") == 0)
    *basis = PS_CALL_BASIS_VIEW;
  else
    return FALSE;
  return TRUE;
}

const char *
ps_call_value_to_string (PsCallValue value)
{
  switch (value)
    {
    case PS_CALL_VALUE_ELAPSED_INCLUSIVE:
      return "elapsed_inclusive";
    case PS_CALL_VALUE_ELAPSED_EXCLUSIVE:
      return "elapsed_exclusive";
    case PS_CALL_VALUE_APPLICATION_INCLUSIVE:
      return "application_inclusive";
    case PS_CALL_VALUE_APPLICATION_EXCLUSIVE:
      return "application_exclusive";
    case PS_N_CALL_VALUES:
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
ps_call_tree_is_report (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), FALSE);
  return self->is_report;
}

gboolean
ps_call_tree_has_os_events (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), FALSE);
  return self->has_os_events;
}

gboolean
ps_call_tree_has_top_down (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), FALSE);
  return self->has_top_down;
}

double
ps_call_tree_get_elapsed_total (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->elapsed_total;
}

double
ps_call_tree_get_application_total (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->application_total;
}

double
ps_call_tree_get_percent (PsCallTree        *self,
                          const PsCallStats *stats,
                          PsCallValue        value,
                          PsCallBasis        basis)
{
  double total;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NAN);
  g_return_val_if_fail (stats != NULL, NAN);
  g_return_val_if_fail (value < PS_N_CALL_VALUES, NAN);

  if (!isnan (stats->given_percent[value]))
    return stats->given_percent[value];

  if (basis == PS_CALL_BASIS_S1
      && (value == APPLICATION_INCLUSIVE || value == APPLICATION_EXCLUSIVE))
    total = self->application_total;
  else
    total = self->elapsed_total;

  if (isnan (stats->total[value]) || isnan (total))
    return NAN;
  if (total == 0)
    return 0;
  return 100.0 * stats->total[value] / total;
}

/* --- Functions ---------------------------------------------------------- */

guint
ps_call_tree_get_n_functions (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->n_functions;
}

const char *
ps_call_tree_get_function_name (PsCallTree *self,
                                guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);
  return self->functions[function].name;
}

const char *
ps_call_tree_get_function_module (PsCallTree *self,
                                  guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);
  return self->functions[function].module;
}

const PsCallStats *
ps_call_tree_get_function_stats (PsCallTree *self,
                                 guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);
  return &self->function_stats[function];
}

guint32
ps_call_tree_lookup_function (PsCallTree *self,
                              const char *name)
{
  gpointer id;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (name != NULL, PS_NONE);

  id = g_hash_table_lookup (self->function_by_name, name);
  return id != NULL ? GPOINTER_TO_UINT (id) - 1 : PS_NONE;
}

/* --- Addresses ---------------------------------------------------------- */

guint
ps_call_tree_get_n_function_addresses (PsCallTree *self,
                                       guint32     function)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);

  if (self->address_offsets == NULL || function >= self->n_functions)
    return 0;
  return self->address_offsets[function + 1] - self->address_offsets[function];
}

static const AddressAcc *
function_address (PsCallTree *self,
                  guint32     function,
                  guint       index)
{
  if (index >= ps_call_tree_get_n_function_addresses (self, function))
    return NULL;
  return &self->addresses[self->address_order[self->address_offsets[function] + index]];
}

const char *
ps_call_tree_get_function_address_name (PsCallTree *self,
                                        guint32     function,
                                        guint       index)
{
  const AddressAcc *address;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);

  address = function_address (self, function, index);
  g_return_val_if_fail (address != NULL, NULL);
  return address->name;
}

void
ps_call_tree_get_function_address_stats (PsCallTree  *self,
                                         guint32      function,
                                         guint        index,
                                         PsCallStats *stats)
{
  const AddressAcc *address;
  FunctionAcc acc;

  g_return_if_fail (PS_IS_CALL_TREE (self));
  g_return_if_fail (stats != NULL);

  address = function_address (self, function, index);
  stats_clear (stats);
  g_return_if_fail (address != NULL);

  /* Sampled: no calls, so no per-call values */
  function_acc_init (&acc);
  memcpy (acc.total, address->total, sizeof acc.total);
  stats_from_function_acc (stats, &acc);
}

/* --- Top-down tree ------------------------------------------------------- */

guint
ps_call_tree_get_n_nodes (PsCallTree *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  return self->n_nodes;
}

guint
ps_call_tree_get_n_children (PsCallTree *self,
                             guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->child_offsets[node + 1] - self->child_offsets[node];
}

guint32
ps_call_tree_get_child (PsCallTree *self,
                        guint32     node,
                        guint       index)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (node < self->n_nodes, PS_NONE);
  g_return_val_if_fail (index < self->child_offsets[node + 1] - self->child_offsets[node], PS_NONE);
  return self->children[self->child_offsets[node] + index];
}

guint32
ps_call_tree_get_parent (PsCallTree *self,
                         guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (node < self->n_nodes, PS_NONE);
  return self->links[node].parent;
}

guint32
ps_call_tree_get_node_function (PsCallTree *self,
                                guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);
  g_return_val_if_fail (node < self->n_nodes, PS_NONE);
  return self->links[node].function;
}

guint
ps_call_tree_get_node_depth (PsCallTree *self,
                             guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->links[node].depth;
}

/* Computed trees make the stats of a chunk of nodes when one of them is
 * first read; two threads may race to make it, the first one wins. */
static const PsCallStats *
tree_node_stats (PsCallTree *self,
                 guint32     node)
{
  guint c;
  PsCallStats *chunk;

  if (node == PS_CALL_NODE_ROOT)
    return &self->root_stats;
  if (self->node_given != NULL)
    return &self->node_given[node];

  c = node / STATS_CHUNK_SIZE;
  chunk = g_atomic_pointer_get (&self->node_chunks[c]);
  if (chunk == NULL)
    {
      guint32 first = c * STATS_CHUNK_SIZE;
      guint32 n = MIN (STATS_CHUNK_SIZE, self->n_nodes - first);
      PsCallStats *made = g_new (PsCallStats, n);

      for (guint32 i = 0; i < n; i++)
        stats_from_acc (&made[i], &self->node_accs[first + i], self->node_extremes);

      if (g_atomic_pointer_compare_and_exchange (&self->node_chunks[c], NULL, made))
        chunk = made;
      else
        {
          g_free (made);
          chunk = g_atomic_pointer_get (&self->node_chunks[c]);
        }
    }

  return &chunk[node % STATS_CHUNK_SIZE];
}

const PsCallStats *
ps_call_tree_get_node_stats (PsCallTree *self,
                             guint32     node)
{
  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);
  return tree_node_stats (self, node);
}

void
ps_call_tree_copy_node_stats (PsCallTree  *self,
                              guint32      node,
                              PsCallStats *stats)
{
  const PsCallStats *chunk;

  g_return_if_fail (PS_IS_CALL_TREE (self));
  g_return_if_fail (node < self->n_nodes);
  g_return_if_fail (stats != NULL);

  if (node == PS_CALL_NODE_ROOT || self->node_given != NULL)
    {
      *stats = *tree_node_stats (self, node);
      return;
    }
  /* Made already: the same values */
  chunk = g_atomic_pointer_get (&self->node_chunks[node / STATS_CHUNK_SIZE]);
  if (chunk != NULL)
    *stats = chunk[node % STATS_CHUNK_SIZE];
  else
    stats_from_acc (stats, &self->node_accs[node], self->node_extremes);
}

/* The outermost top-down nodes of every function, in node order */
static void
tree_ensure_outermost_index (PsCallTree *self)
{
  if (g_once_init_enter (&self->outermost_once))
    {
      guint32 *offsets = g_new0 (guint32, (gsize)self->n_functions + 1);
      guint32 *nodes;
      guint32 n_outermost = 0;
      g_autofree guint32 *cursor = NULL;

      for (guint32 n = 1; n < self->n_nodes; n++)
        if (self->links[n].flags & NODE_FLAG_OUTERMOST)
          {
            offsets[self->links[n].function + 1]++;
            n_outermost++;
          }
      for (guint f = 0; f < self->n_functions; f++)
        offsets[f + 1] += offsets[f];

      nodes = g_new (guint32, MAX (n_outermost, 1));
      cursor = g_memdup2 (offsets, sizeof (guint32) * (self->n_functions + 1));
      for (guint32 n = 1; n < self->n_nodes; n++)
        if (self->links[n].flags & NODE_FLAG_OUTERMOST)
          nodes[cursor[self->links[n].function]++] = n;

      self->outermost_offsets = offsets;
      self->outermost_nodes = nodes;
      g_once_init_leave (&self->outermost_once, 1);
    }
}

/* --- Callers and callees ------------------------------------------------ */

static int
compare_relations (gconstpointer a,
                   gconstpointer b)
{
  double value_a = effective_total (&((const PsCallRelation *)a)->stats, ELAPSED_INCLUSIVE);
  double value_b = effective_total (&((const PsCallRelation *)b)->stats, ELAPSED_INCLUSIVE);

  /* Largest first, absent values last */
  if (isnan (value_a) || isnan (value_b))
    return !!isnan (value_a) - !!isnan (value_b);
  return (value_a < value_b) - (value_a > value_b);
}

/* Groups the stats of top-down nodes by a function */
typedef struct
{
  GHashTable *index;   /* function → position + 1 */
  GArray     *keys;    /* guint32 */
  GArray     *sums;    /* StatsSum */
} RelationGroups;

static void
relation_groups_init (RelationGroups *groups)
{
  groups->index = g_hash_table_new (NULL, NULL);
  groups->keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  groups->sums = g_array_new (FALSE, FALSE, sizeof (StatsSum));
}

static void
relation_groups_add (RelationGroups    *groups,
                     guint32            function,
                     const PsCallStats *stats)
{
  gpointer found = g_hash_table_lookup (groups->index, GUINT_TO_POINTER (function));
  guint position;

  if (found == NULL)
    {
      StatsSum sum;

      stats_sum_init (&sum);
      position = groups->keys->len;
      g_array_append_val (groups->keys, function);
      g_array_append_val (groups->sums, sum);
      g_hash_table_insert (groups->index, GUINT_TO_POINTER (function), GUINT_TO_POINTER (position + 1));
    }
  else
    position = GPOINTER_TO_UINT (found) - 1;

  stats_sum_add (&g_array_index (groups->sums, StatsSum, position), stats, TRUE);
}

static GArray *
relation_groups_finish (RelationGroups *groups)
{
  GArray *result = g_array_sized_new (FALSE, FALSE, sizeof (PsCallRelation), groups->keys->len);

  for (guint i = 0; i < groups->keys->len; i++)
    {
      PsCallRelation relation;

      relation.function = g_array_index (groups->keys, guint32, i);
      stats_sum_finish (&g_array_index (groups->sums, StatsSum, i), &relation.stats);
      g_array_append_val (result, relation);
    }

  g_hash_table_unref (groups->index);
  g_array_unref (groups->keys);
  g_array_unref (groups->sums);
  g_array_sort (result, compare_relations);
  return result;
}

static GArray *
given_relations (PsCallTree *self,
                 guint32     function,
                 gboolean    callers)
{
  GArray *result = g_array_new (FALSE, FALSE, sizeof (PsCallRelation));

  for (guint32 i = self->relation_offsets[function]; i < self->relation_offsets[function + 1]; i++)
    {
      const GivenRelation *given = &self->relations[i];
      PsCallRelation relation;

      if (given->is_caller != callers)
        continue;
      relation.function = given->other;
      relation.stats = given->stats;
      g_array_append_val (result, relation);
    }

  g_array_sort (result, compare_relations);
  return result;
}

GArray *
ps_call_tree_get_callers (PsCallTree *self,
                          guint32     function)
{
  RelationGroups groups;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  if (self->has_given_relations)
    return given_relations (self, function, TRUE);

  tree_ensure_outermost_index (self);
  relation_groups_init (&groups);
  if (self->has_top_down)
    for (guint32 i = self->outermost_offsets[function]; i < self->outermost_offsets[function + 1]; i++)
      {
        guint32 node = self->outermost_nodes[i];
        guint32 parent = self->links[node].parent;

        relation_groups_add (&groups,
                             parent == PS_CALL_NODE_ROOT ? PS_NONE : self->links[parent].function,
                             tree_node_stats (self, node));
      }

  return relation_groups_finish (&groups);
}

GArray *
ps_call_tree_get_callees (PsCallTree *self,
                          guint32     function)
{
  RelationGroups groups;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  if (self->has_given_relations)
    return given_relations (self, function, FALSE);

  tree_ensure_outermost_index (self);
  relation_groups_init (&groups);
  if (self->has_top_down)
    for (guint32 i = self->outermost_offsets[function]; i < self->outermost_offsets[function + 1]; i++)
      {
        guint32 node = self->outermost_nodes[i];

        for (guint32 k = self->child_offsets[node]; k < self->child_offsets[node + 1]; k++)
          {
            guint32 child = self->children[k];

            relation_groups_add (&groups, self->links[child].function, tree_node_stats (self, child));
          }
      }

  return relation_groups_finish (&groups);
}

/* --- Bottom-up tree ----------------------------------------------------- */

static inline CallersNode *
callers_node (PsCallTree *self,
              guint32     id)
{
  return &((CallersNode *)g_ptr_array_index (self->callers_chunks, id / CALLERS_CHUNK_SIZE))[id % CALLERS_CHUNK_SIZE];
}

static inline PsCallStats *
callers_stats (PsCallTree *self,
               guint32     id)
{
  return &((PsCallStats *)g_ptr_array_index (self->callers_stats_chunks, id / CALLERS_CHUNK_SIZE))[id % CALLERS_CHUNK_SIZE];
}

/* A new node with consecutive ids for siblings; chunks never move, so
 * pointers to nodes and stats stay valid */
static guint32
callers_node_new (PsCallTree *self,
                  guint32     function)
{
  guint32 id = self->n_callers_nodes;
  CallersNode *node;

  if (id / CALLERS_CHUNK_SIZE >= self->callers_chunks->len)
    {
      g_ptr_array_add (self->callers_chunks, g_new0 (CallersNode, CALLERS_CHUNK_SIZE));
      g_ptr_array_add (self->callers_stats_chunks, g_new0 (PsCallStats, CALLERS_CHUNK_SIZE));
    }
  self->n_callers_nodes++;

  node = callers_node (self, id);
  node->function = function;
  return id;
}

static void
callers_expand_root (PsCallTree  *self,
                     CallersNode *root)
{
  tree_ensure_outermost_index (self);

  root->first_child = self->n_callers_nodes;
  for (guint32 f = 0; f < self->n_functions; f++)
    {
      guint32 id;
      CallersNode *node;
      guint32 first, n;

      if (!self->function_present[f])
        continue;

      id = callers_node_new (self, f);
      node = callers_node (self, id);
      *callers_stats (self, id) = self->function_stats[f];

      first = self->outermost_offsets[f];
      n = self->outermost_offsets[f + 1] - first;
      node->n_pairs = n;
      node->pairs = g_new (guint32, 2 * (gsize)MAX (n, 1));
      for (guint32 i = 0; i < n; i++)
        node->pairs[2 * i] = node->pairs[2 * i + 1] = self->outermost_nodes[first + i];
      root->n_children++;
    }
}

/* The children of a bottom-up node: its pairs grouped by the function of
 * the ancestor's parent, each with the sum of the source nodes' stats */
static void
callers_expand (PsCallTree *self,
                guint32     id)
{
  CallersNode *node = callers_node (self, id);
  g_autoptr(GArray) groups = NULL;   /* guint32 functions, in order first seen */
  g_autoptr(GArray) counts = NULL;   /* guint32 */
  g_autoptr(GArray) sums = NULL;     /* StatsSum */

  if (node->expanded)
    return;
  node->expanded = TRUE;

  if (id == PS_CALL_NODE_ROOT)
    {
      callers_expand_root (self, node);
      return;
    }

  if (self->callers_group_of == NULL)
    {
      self->callers_group_of = g_new (guint32, MAX (self->n_functions, 1));
      memset (self->callers_group_of, 0xff, sizeof (guint32) * MAX (self->n_functions, 1));
    }

  groups = g_array_new (FALSE, FALSE, sizeof (guint32));
  counts = g_array_new (FALSE, FALSE, sizeof (guint32));
  sums = g_array_new (FALSE, FALSE, sizeof (StatsSum));
  for (guint32 i = 0; i < node->n_pairs; i++)
    {
      guint32 ancestor = node->pairs[2 * i + 1];
      guint32 parent = self->links[ancestor].parent;
      guint32 function;
      guint32 group;

      if (parent == PS_CALL_NODE_ROOT || parent == PS_NONE)
        continue;
      function = self->links[parent].function;
      group = self->callers_group_of[function];
      if (group == PS_NONE)
        {
          StatsSum sum;
          guint32 zero = 0;

          stats_sum_init (&sum);
          group = self->callers_group_of[function] = groups->len;
          g_array_append_val (groups, function);
          g_array_append_val (counts, zero);
          g_array_append_val (sums, sum);
        }
      g_array_index (counts, guint32, group)++;
      stats_sum_add (&g_array_index (sums, StatsSum, group), tree_node_stats (self, node->pairs[2 * i]), TRUE);
    }

  node->first_child = self->n_callers_nodes;
  node->n_children = groups->len;
  for (guint g = 0; g < groups->len; g++)
    {
      guint32 child_id = callers_node_new (self, g_array_index (groups, guint32, g));
      CallersNode *child = callers_node (self, child_id);

      stats_sum_finish (&g_array_index (sums, StatsSum, g), callers_stats (self, child_id));
      child->pairs = g_new (guint32, 2 * (gsize)g_array_index (counts, guint32, g));
    }

  for (guint32 i = 0; i < node->n_pairs; i++)
    {
      guint32 ancestor = node->pairs[2 * i + 1];
      guint32 parent = self->links[ancestor].parent;
      CallersNode *child;

      if (parent == PS_CALL_NODE_ROOT || parent == PS_NONE)
        continue;
      child = callers_node (self, node->first_child + self->callers_group_of[self->links[parent].function]);
      child->pairs[2 * child->n_pairs] = node->pairs[2 * i];
      child->pairs[2 * child->n_pairs + 1] = parent;
      child->n_pairs++;
    }

  for (guint g = 0; g < groups->len; g++)
    self->callers_group_of[g_array_index (groups, guint32, g)] = PS_NONE;
  g_clear_pointer (&node->pairs, g_free);
}

guint
ps_call_tree_get_n_callers_children (PsCallTree *self,
                                     guint32     node)
{
  guint n;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), 0);

  g_mutex_lock (&self->callers_mutex);
  if (node >= self->n_callers_nodes)
    {
      g_mutex_unlock (&self->callers_mutex);
      g_return_val_if_reached (0);
    }
  callers_expand (self, node);
  n = callers_node (self, node)->n_children;
  g_mutex_unlock (&self->callers_mutex);

  return n;
}

guint32
ps_call_tree_get_callers_child (PsCallTree *self,
                                guint32     node,
                                guint       index)
{
  CallersNode *parent;
  guint32 child = PS_NONE;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);

  g_mutex_lock (&self->callers_mutex);
  if (node < self->n_callers_nodes)
    {
      callers_expand (self, node);
      parent = callers_node (self, node);
      if (index < parent->n_children)
        child = parent->first_child + index;
    }
  g_mutex_unlock (&self->callers_mutex);

  g_return_val_if_fail (child != PS_NONE, PS_NONE);
  return child;
}

guint32
ps_call_tree_get_callers_node_function (PsCallTree *self,
                                        guint32     node)
{
  guint32 function = PS_NONE;
  gboolean valid;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), PS_NONE);

  g_mutex_lock (&self->callers_mutex);
  valid = node < self->n_callers_nodes;
  if (valid)
    function = callers_node (self, node)->function;
  g_mutex_unlock (&self->callers_mutex);

  g_return_val_if_fail (valid, PS_NONE);
  return function;
}

const PsCallStats *
ps_call_tree_get_callers_node_stats (PsCallTree *self,
                                     guint32     node)
{
  const PsCallStats *stats = NULL;

  g_return_val_if_fail (PS_IS_CALL_TREE (self), NULL);

  g_mutex_lock (&self->callers_mutex);
  if (node < self->n_callers_nodes)
    stats = callers_stats (self, node);
  g_mutex_unlock (&self->callers_mutex);

  g_return_val_if_fail (stats != NULL, NULL);
  return stats;
}

/* ps-call-tree-private.h — what the call tree, its builder and its
 * reading of a store share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (the four values, recursion).
 */
#pragma once

#include <glib.h>

#include "ps-call-tree.h"
#include "ps-util.h"

G_BEGIN_DECLS

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
  guint32       reserved_nodes;      /* room made by call_tree_builder_reserve_nodes () */

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

typedef struct
{
  PsCallStats stats;
  gboolean    empty;
} StatsSum;

/* Defined in one file, used in the other */

void
call_tree_stats_clear (PsCallStats *stats);

void
call_tree_stats_sum_init (StatsSum *sum);

void
call_tree_stats_sum_add (StatsSum          *sum,
                         const PsCallStats *part,
                         gboolean           with_inclusive);

void
call_tree_stats_sum_finish (StatsSum    *sum,
                            PsCallStats *out);

void
call_tree_stats_from_function_acc (PsCallStats       *stats,
                                   const FunctionAcc *acc);

guint
call_tree_function_key_hash (gconstpointer data);

gboolean
call_tree_function_key_equal (gconstpointer a,
                              gconstpointer b);

gboolean
call_tree_builder_set_mode (PsCallTreeBuilder *self,
                            BuilderMode        mode);

void
call_tree_builder_reserve_nodes (PsCallTreeBuilder *self,
                                 guint32            n_nodes);

guint32
call_tree_builder_append_child (PsCallTreeBuilder *self,
                                guint32            parent,
                                guint32            function,
                                gboolean           outermost);

guint32
call_tree_builder_child (PsCallTreeBuilder *self,
                         guint32            parent,
                         guint32            function,
                         gboolean           outermost);

void
call_tree_builder_index_nodes (PsCallTreeBuilder *self,
                               guint32            first);

void
call_tree_builder_add_sample_at_node (PsCallTreeBuilder *self,
                                      guint32            node,
                                      guint64            weight,
                                      gboolean           kernel);

void
call_tree_builder_sum_sampled_nodes (PsCallTreeBuilder *self);

void
call_tree_builder_add_relation (PsCallTreeBuilder *self,
                                guint32            function,
                                guint32            other,
                                gboolean           is_caller,
                                const PsCallStats *given);

void
call_tree_links_make_children (const NodeLink *links,
                               guint32         n,
                               guint32       **child_offsets,
                               guint32       **children);

void
call_tree_links_mark_outermost (NodeLink       *links,
                                guint           n_functions,
                                const guint32  *child_offsets,
                                const guint32  *children);

/* Inline for the hot paths of both files */

/* A row's total, or avg × calls when the report only gave the average */
static inline double
effective_total (const PsCallStats *stats,
                 guint              value)
{
  if (isnan (stats->total[value]) && !isnan (stats->avg[value]))
    return stats->avg[value] * (double)stats->calls;
  return stats->total[value];
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

G_END_DECLS

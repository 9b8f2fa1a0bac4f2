/* ps-format-hwpmc-pmclog-private.h — what the hwpmc log reader and its
 * model of the machine share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.1 (processes and images) and §8.2 (what each
 * record does).
 */
#pragma once

#include <glib.h>

#include "ps-event-store-private.h"
#include "ps-format.h"
#include "ps-pmclog.h"
#include "ps-symbols.h"
#include "ps-util.h"

G_BEGIN_DECLS

/* Direct-mapped cache of resolved pcs by image and address in it: most
 * samples repeat a few thousand pcs, and the processes that map one
 * library share its entries */
#define FRAME_CACHE_BITS 18
#define FRAME_CACHE_SIZE (1u << FRAME_CACHE_BITS)

/* The chain trie: every distinct callchain prefix (outermost pc first, in
 * the context each pc is resolved in) is a node that knows its stack
 * node in the store, so only the pcs of a new prefix are resolved and
 * interned. Chains share their outer frames, and a node remembers the
 * child it led to last: the chains of a hot path are walked node after
 * node, mostly through those hints and through nodes made one after the
 * other, and the hash index (keys exact: parent node, pc, context) is
 * asked only where a chain turns off. */
#define CHAIN_INDEX_MIN_SIZE 4096u

/* The trie starts over from this many nodes (the stack nodes they led to
 * stay in the store), or from the parser option "chain-trie-nodes". A
 * sample adds fewer nodes than its record has bytes (at most
 * G_MAXUINT16), so the trie never has more than 3 Mi nodes (28 bytes
 * each, their arrays grown up to that and no further) and its index 4 Mi
 * slots of 8 bytes: 116 MiB however many prefixes a log has, where they
 * took 370 MiB of a generated log of 1 GiB. Starting over costs a walk
 * of each chain's new prefixes again. */
#define CHAIN_MAX_NODES ((3u << 20) - G_MAXUINT16 - 1)

/* Whole caller chains: a sample's chain without its sampled pc (which
 * varies within the function), seen before, is found with one lookup and
 * one comparison of its pcs, kept in a row, instead of a walk through the
 * trie, pc after pc, that misses the cache at nearly every node. Only
 * chains seen twice are kept (a filter of fingerprints tells), so a log
 * whose chains never repeat costs no more than the filter, and their pcs
 * are kept up to a budget. */
#define CALLER_SEEN_BITS   20
#define CALLER_MAX_PCS     1024u
#define CALLER_MAX_IMAGES  4
#define CALLER_ARENA_MAX   (G_GUINT64_CONSTANT (8) << 20)  /* pcs: 64 MiB */

/* Call chains wait in a batch of this many; a walk through the trie
 * reads one node after another, each a likely cache miss, so before the
 * batch is taken in order, the walks of all its chains go on side by
 * side, each step asking for the next node ahead of time (prefetch) and
 * passing to another chain while it comes. The walks in order then find
 * their nodes in the cache. */
#define BATCH_SIZE 16

/* How many nodes of a run of consecutive ones (a tail made at once) the
 * walk ahead asks for before it reads them: 384 bytes, more than a node
 * compared takes while a line comes */
#define PROBE_RUN_AHEAD 16u

enum
{
  CHAIN_UNMAPPED   = 1 << 0,
  CHAIN_UNRESOLVED = 1 << 1,
};

/* ChainNode.info: the image without names of the pc (index + 1) in the
 * low bits, then whether nothing mapped the pc, then the context (the
 * kernel's or the process's), which is part of the key */
#define CHAIN_INFO_IMAGE_MASK  0x1fffffffu
#define CHAIN_INFO_FOUND       0x20000000u  /* a sample found it again since the trie last started over */
#define CHAIN_INFO_UNMAPPED    0x40000000u
#define CHAIN_INFO_KERNEL      0x80000000u

/* What a node's whole path (root to node) passes, so that a sample
 * learns it from its last node instead of from every node of its chain:
 * the images without names among the first CHAIN_PATH_N_IMAGES (bit
 * index), whether a later one is passed too (then the path is walked),
 * whether a pc mapped nowhere */
#define CHAIN_PATH_N_IMAGES    30u
#define CHAIN_PATH_MORE_IMAGES 0x40000000u
#define CHAIN_PATH_UNMAPPED    0x80000000u

#define UNKNOWN_END G_MAXUINT64

typedef struct
{
  char        *path;           /* as recorded */
  guint32      index;          /* in image_list */
  guint32      path_id;        /* string id of the path: the frames' module */
  PsElfImage  *elf;            /* owned by the resolver, NULL if not found */
  char        *missing;        /* why there are no symbols, or NULL */
  guint64      samples_affected;
  guint64      last_sample;     /* the last sample counted in samples_affected, + 1 */
} Image;

typedef struct
{
  guint64  start;
  guint64  end;                /* exclusive, UNKNOWN_END until the next mapping */
  guint64  bias;               /* pc − bias = link-time address */
  guint64  load;               /* load address: offsets are shown from it */
  Image   *image;
} Map;

/* When a process or thread was first and last seen, and whether it ended */
typedef struct
{
  gint64   first_ns;
  gint64   last_ns;
  gboolean seen;
  gboolean exited;
  gint64   exit_ns;
} Lifespan;

typedef struct
{
  guint32  pid;
  guint32  slot;               /* index in processes, for the pc cache */
  guint32  generation;         /* bumped when the maps change */
  guint32  track;              /* PS_NONE until needed */
  /* The chain trie's root for this process's chains while neither its
   * maps nor the kernel's change; 0 until needed */
  guint32  chain_root;
  guint32  chain_root_generation;
  guint32  chain_root_kernel_generation;
  GArray  *maps;               /* Map, sorted by start, not overlapping */
  char    *name;
  Lifespan life;
} Process;

typedef struct
{
  guint32  tid;
  guint32  pid;
  guint32  track;
  char    *name;
  Lifespan life;
} Thread;

/* A pc's frame depends only on its image and its address in it (pc −
 * bias): a name looked up at that address, or the address from the
 * image's load address, which lies a fixed distance (its vaddr, or 0
 * without the file) from the bias. So an entry holds for every process
 * and mapping of the image. 16 bytes. */
typedef struct
{
  guint64 address;             /* pc − bias */
  guint32 image;               /* (index + 1) << 1 in images, | 1 if the frame has no name; 0: free */
  guint32 frame;
} CacheEntry;

/* A node of the chain trie (a root: pc, parent and stack 0). 24 bytes. */
typedef struct
{
  guint64 pc;
  guint32 parent;              /* the node of the chain's outer part */
  guint32 stack;               /* its stack node in the store */
  guint32 info;                /* CHAIN_INFO_* */
  guint32 hint;                /* the child walked to last, 0 if none */
} ChainNode;

/* A slot of an index: node 0 marks a free one; tag holds bits of the
 * key's hash, so most slots of other keys are passed over without
 * reading their node. In the chain index the tag is the hash's low 32
 * bits (chain_tag ()), the key's home slot at every size of the index:
 * the index grows by reading its slots in order, not its nodes. */
typedef struct
{
  guint32 node;
  guint32 tag;
} ChainSlot;

/* A caller chain kept whole: its key (trie root, where kernel pcs end,
 * the pcs) and the trie node it leads to. 32 bytes. */
typedef struct
{
  guint64 hash;
  guint64 arena;               /* its first pc in caller_arena */
  guint32 root;
  guint32 node;
  guint16 n_pcs;
  guint16 first_user;          /* of the whole chain, as callchain_stack () has it */
} CallerChain;

/* A pc of a new prefix, resolved innermost first as pmcstat would */
typedef struct
{
  guint32 frame;
  guint32 info;
} ChainPc;

typedef struct
{
  gint64  time_ns;
  guint64 offset;
  guint32 track;
  guint32 text;
} PendingMark;

typedef enum
{
  PROBE_DONE,
  PROBE_CALLER,      /* the caller chain's index slot is on its way */
  PROBE_CALLER_NODE, /* the node a caller chain that may match leads to */
  PROBE_NODE,        /* parent is on its way */
  PROBE_HINT,        /* parent's hint is on its way */
  PROBE_SLOT,        /* an index slot is on its way */
  PROBE_CANDIDATE,   /* the node of a slot is on its way */
} ProbePhase;

/* A CALLCHAIN record waiting in the batch, with what its walk ahead
 * found out */
typedef struct
{
  PsPmclogRecord record;        /* pcs point into batch_pcs until the batch is taken */
  gsize          pcs_offset;
  Process       *process;       /* NULL: not walked ahead (a process not met yet) */
  guint          first_user;
  guint32        root;          /* the trie root the walk ahead started from */
  guint64        caller_hash;
  /* The walk ahead */
  ProbePhase     phase;
  guint32        parent;
  guint          level;         /* pcs left: the next one is pcs[level - 1] */
  guint32        slot;
  guint32        candidate;
  guint32        run_end;       /* the nodes before it are asked for */
  gboolean       slot_asked;    /* slot is asked for with the hint */
  /* The deepest node the walk ahead found for certain (pcs[found_level]
   * outwards), while it followed no guess of a caller chain; nodes are
   * never taken away nor moved but by chain_start_over (), which counts in
   * trie_epoch */
  guint32        found;
  guint          found_level;
  gboolean       guessed;
  guint32        epoch;
} PendingChain;

typedef struct
{
  PsParser          parent;
  PsEventStore     *store;
  PsPmclogReader   *reader;
  PsSymbolResolver *resolver;
  char             *sysroot;
  gboolean          failed;

  guint32           session;
  gboolean          initialized;
  guint64           tsc_init;
  guint64           tsc_freq;
  gboolean          legacy;
  guint32           legacy_seconds0;
  guint32           legacy_nanoseconds0;

  GHashTable       *images;      /* path → Image */
  GPtrArray        *image_list;  /* Image, in order of appearance */
  GHashTable       *processes;   /* pid → Process */
  GPtrArray        *process_list;
  Process          *kernel;
  GHashTable       *threads;     /* tid → Thread */
  GPtrArray        *thread_list;
  GHashTable       *pmcs;        /* pmcid → source index + 1 */
  GHashTable       *unknown_pmcs;

  CacheEntry       *cache;
  ChainNode        *chain_nodes; /* node 0 is never used */
  guint32          *chain_paths; /* per node: CHAIN_PATH_* of its whole path */
  guint32           trie_epoch;
  guint32           chain_n_nodes;
  guint32           chain_max_nodes; /* CHAIN_MAX_NODES, or fewer as asked */
  guint32           chain_nodes_size;
  ChainSlot        *chain_index;
  guint32           chain_mask;
  GArray           *chain_pcs;   /* ChainPc scratch: one sample's new pcs */
  GArray           *callers;     /* CallerChain */
  ChainSlot        *caller_index; /* node: caller + 1 */
  guint32           caller_mask;
  GArray           *caller_arena; /* guint64: the pcs of the callers */
  guint32          *caller_seen; /* fingerprints of the caller chains seen once */
  PendingChain      batch[BATCH_SIZE];
  guint             batch_length;
  GArray           *batch_pcs;   /* guint64: the pcs of the batch */
  guint32           kernel_frame;
  guint32           unknown_frame;

  GArray           *marks;       /* PendingMark */
  guint64           n_samples;
  guint64           n_samples_unmapped;
  guint64           n_samples_unresolved; /* with a frame in a module without symbols */
  guint64           n_drop_notices;
  guint64           n_after_close;
  guint64           n_closelogs;
} PmclogParser;

/* Defined in one file, used in the other */

gint64
hwpmc_record_time_ns (PmclogParser         *self,
                      const PsPmclogRecord *record);

void
hwpmc_image_free (gpointer data);

void
hwpmc_process_free (gpointer data);

Process *
hwpmc_get_process (PmclogParser *self,
                   guint32       pid);

void
hwpmc_lifespan_saw (Lifespan *life,
                    gint64    time_ns);

void
hwpmc_lifespan_end (Lifespan *life,
                    gint64    time_ns);

guint32
hwpmc_process_track (PmclogParser *self,
                     Process      *process);

void
hwpmc_thread_free (gpointer data);

Thread *
hwpmc_get_thread (PmclogParser *self,
                  guint32       tid,
                  guint32       pid);

guint32
hwpmc_thread_track (PmclogParser *self,
                    Thread       *thread);

void
hwpmc_unmap_range (Process *process,
                   guint64  start,
                   guint64  end);

void
hwpmc_link_image (PmclogParser *self,
                  Process      *process,
                  const char   *path,
                  guint64       load,
                  gboolean      load_is_bias);

void
hwpmc_exec_image (PmclogParser         *self,
                  Process              *process,
                  const PsPmclogRecord *record);

guint32
hwpmc_chain_root (PmclogParser *self,
                  Process      *process);

void
hwpmc_prefetch_frame (PmclogParser *self,
                      Process      *process,
                      guint64       pc);

guint
hwpmc_chain_first_user (PmclogParser         *self,
                        const PsPmclogRecord *record,
                        Process              *process);

void
hwpmc_add_callchain (PmclogParser         *self,
                     const PsPmclogRecord *record,
                     const PendingChain   *pending);

/* Inline for the hot paths of both files */

static inline guint32
cache_slot (guint64 address,
            guint32 image_index)
{
  guint64 key = (address ^ ((guint64)image_index << 40)) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return (guint32)(key >> (64 - FRAME_CACHE_BITS));
}

static inline guint64
chain_hash (guint32 parent,
            guint64 pc,
            guint32 context)
{
  return ps_util_mix64 (pc ^ ((guint64)parent << 32) ^ context);
}

/* The chain index's tag of a key: the key's home slot is tag & mask */
static inline guint32
chain_tag (guint64 hash)
{
  return (guint32)hash;
}

static inline gboolean
chain_node_is (const ChainNode *node,
               guint32          parent,
               guint64          pc,
               guint32          context)
{
  return node->pc == pc && node->parent == parent && (node->info & CHAIN_INFO_KERNEL) == context;
}

/* The key of a caller chain: the pcs outside the sampled one, with the
 * trie root (process and maps) and where the kernel's pcs end */
static inline guint64
caller_hash (guint32        root,
             guint          first_user,
             const guint64 *pcs,
             guint          n_pcs)
{
  guint64 hash = ((guint64)root << 32 | first_user) ^ ((guint64)n_pcs << 48);

  for (guint i = 0; i < n_pcs; i++)
    {
      hash = (hash ^ pcs[i]) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
      hash ^= hash >> 31;
    }
  return ps_util_mix64 (hash);
}

G_END_DECLS

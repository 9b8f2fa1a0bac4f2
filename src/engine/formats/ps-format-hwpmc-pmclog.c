/* ps-format-hwpmc-pmclog.c — FreeBSD hwpmc(4) event logs into a run
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §5 (timestamps), §6 (PMC ids, callchain flags),
 * §8.1–§8.2 (the process and image model of pmcstat, what each record
 * does), §9.4 (what a reader must tolerate).
 *
 * ps-pmclog.c cuts the bytes into records; this file keeps the model
 * pmcstat keeps — processes with their executable mappings, the kernel as
 * a pseudo-process, PMCs — and turns every CALLCHAIN into a sample whose
 * stack is made of resolved frames:
 *  - a pc inside a mapping whose image was found under the sysroot
 *    (parser option "sysroot") and has a symbol there becomes the frame
 *    of that function (address = the function's link-time start), so all
 *    pcs of one function share one frame;
 *  - a pc inside a mapping without symbols becomes "image+0xoffset";
 *  - a pc inside no mapping becomes "[kernel]" or "[unknown]".
 * Kernel-mode samples carry PS_SAMPLE_FLAG_KERNEL, so the call tree
 * counts them as operating-system events (application time = user time).
 *
 * Samples are merged per event name into sample sources (a system-wide
 * PMC exists once per CPU). Processes and threads become tracks; their
 * lifetimes become spans and context switches, execs and forks marks,
 * added in time order when the log ends (records are ordered per CPU
 * buffer only, §5.1).
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-event-store-private.h"
#include "ps-format.h"
#include "ps-pmclog.h"
#include "ps-symbols.h"
#include "ps-util.h"

/* Direct-mapped cache of resolved pcs: most samples repeat a few
 * thousand pcs */
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

enum
{
  CHAIN_UNMAPPED   = 1 << 0,
  CHAIN_UNRESOLVED = 1 << 1,
};

/* ChainNode.info: the image without names of the pc (index + 1) in the
 * low bits, then whether nothing mapped the pc, then the context (the
 * kernel's or the process's), which is part of the key */
#define CHAIN_INFO_IMAGE_MASK  0x3fffffffu
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

typedef struct
{
  guint64 pc;
  guint32 process_slot;
  guint32 generation;
  guint32 frame;
  guint32 image;               /* index + 1 in images of an image without symbols, else 0 */
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

/* A slot of the index: node 0 marks a free one; tag holds other bits of
 * the key's hash, so most slots of other keys are passed over without
 * reading their node */
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
  /* The deepest node the walk ahead found for certain (pcs[found_level]
   * outwards), while it followed no guess of a caller chain; nodes are
   * never taken away but by chain_clear (), which counts in trie_epoch */
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

/* --- Time ------------------------------------------------------------------ */

/* ns since INITIALIZE; the product would overflow 64 bits after a few
 * seconds at GHz rates, so quotient and remainder go separately (§5.1) */
static gint64
record_time_ns (PmclogParser         *self,
                const PsPmclogRecord *record)
{
  if (!self->initialized)
    return 0;

  if (self->legacy || !record->has_tsc)
    {
      gint64 seconds = (gint64)record->seconds - self->legacy_seconds0;
      gint64 nanoseconds = (gint64)record->nanoseconds - self->legacy_nanoseconds0;
      return seconds * G_GINT64_CONSTANT (1000000000) + nanoseconds;
    }
  else
    {
      gboolean negative = record->tsc < self->tsc_init;
      guint64 ticks = negative ? self->tsc_init - record->tsc : record->tsc - self->tsc_init;
      guint64 ns;

      if (self->tsc_freq == 0)
        ns = ticks;  /* raw ticks: the frequency is not in the log */
      else
        {
          guint64 quotient = ticks / self->tsc_freq;
          guint64 remainder = ticks % self->tsc_freq;

          ns = quotient * G_GUINT64_CONSTANT (1000000000);
          if (remainder < G_MAXUINT64 / G_GUINT64_CONSTANT (1000000000))
            ns += remainder * G_GUINT64_CONSTANT (1000000000) / self->tsc_freq;
          else
            ns += (guint64)((double)remainder * 1e9 / (double)self->tsc_freq);
        }
      if (ns > (guint64)G_MAXINT64)
        ns = G_MAXINT64;
      return negative ? -(gint64)ns : (gint64)ns;
    }
}

/* --- Images, processes, threads ------------------------------------------- */

static void
image_free (gpointer data)
{
  Image *image = data;

  g_free (image->path);
  g_free (image->missing);
  g_free (image);
}

static const char *
path_basename (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

static Image *
get_image (PmclogParser *self,
           const char   *path)
{
  Image *image = g_hash_table_lookup (self->images, path);
  g_autoptr(GError) error = NULL;

  if (image != NULL)
    return image;

  image = g_new0 (Image, 1);
  image->path = g_strdup (path);
  image->index = self->image_list->len;
  image->path_id = ps_event_store_intern (self->store, path, -1);

  if (self->resolver != NULL)
    image->elf = ps_symbol_resolver_get_image (self->resolver, path, &error);
  if (image->elf == NULL)
    image->missing = self->resolver != NULL && error != NULL
      ? g_strdup (error->message)
      /* Translators: why a module's functions have no names */
      : g_strdup (_("no symbol folder was chosen"));
  else if (!ps_elf_image_has_symbols (image->elf))
    /* Translators: %s is a file name */
    image->missing = g_strdup_printf (_("“%s” has no symbol table and no debug file was found"), path);

  g_hash_table_insert (self->images, image->path, image);
  g_ptr_array_add (self->image_list, image);
  return image;
}

static void
process_free (gpointer data)
{
  Process *process = data;

  g_array_unref (process->maps);
  g_free (process->name);
  g_free (process);
}

static Process *
get_process (PmclogParser *self,
             guint32       pid)
{
  Process *process;

  if (pid == PS_PMCLOG_KERNEL_PID)
    return self->kernel;

  process = g_hash_table_lookup (self->processes, GUINT_TO_POINTER (pid));
  if (process != NULL)
    return process;

  process = g_new0 (Process, 1);
  process->pid = pid;
  process->slot = self->process_list->len;
  process->track = PS_NONE;
  process->maps = g_array_new (FALSE, FALSE, sizeof (Map));
  g_hash_table_insert (self->processes, GUINT_TO_POINTER (pid), process);
  g_ptr_array_add (self->process_list, process);
  return process;
}

static void
lifespan_saw (Lifespan *life,
              gint64    time_ns)
{
  if (!life->seen || time_ns < life->first_ns)
    life->first_ns = time_ns;
  if (!life->seen || time_ns > life->last_ns)
    life->last_ns = time_ns;
  life->seen = TRUE;
}

static void
lifespan_end (Lifespan *life,
              gint64    time_ns)
{
  life->exited = TRUE;
  life->exit_ns = time_ns;
  lifespan_saw (life, time_ns);
}

static guint32
process_track (PmclogParser *self,
               Process      *process)
{
  if (process->track == PS_NONE)
    {
      PsTrack track = { 0 };
      g_autofree char *name = g_strdup_printf ("%u", process->pid);

      track.name = ps_event_store_intern (self->store, name, -1);
      track.parent = PS_NONE;
      track.session = self->session;
      track.number = process->pid;
      track.unit = 0;
      track.kind = PS_TRACK_PROCESS;
      process->track = ps_event_store_add_track (self->store, &track);
    }
  return process->track;
}

static void
thread_free (gpointer data)
{
  Thread *thread = data;

  g_free (thread->name);
  g_free (thread);
}

static Thread *
get_thread (PmclogParser *self,
            guint32       tid,
            guint32       pid)
{
  Thread *thread = g_hash_table_lookup (self->threads, GUINT_TO_POINTER (tid));

  if (thread != NULL)
    {
      /* A thread id reused by another process after an exit */
      if (pid == thread->pid || pid == PS_PMCLOG_KERNEL_PID)
        return thread;
      g_hash_table_steal (self->threads, GUINT_TO_POINTER (tid));
    }

  thread = g_new0 (Thread, 1);
  thread->tid = tid;
  thread->pid = pid;
  thread->track = PS_NONE;
  g_hash_table_insert (self->threads, GUINT_TO_POINTER (tid), thread);
  g_ptr_array_add (self->thread_list, thread);
  return thread;
}

static guint32
thread_track (PmclogParser *self,
              Thread       *thread)
{
  if (thread->track == PS_NONE)
    {
      PsTrack track = { 0 };
      Process *process = get_process (self, thread->pid);
      g_autofree char *name = g_strdup_printf ("%u", thread->tid);

      track.name = ps_event_store_intern (self->store, name, -1);
      track.parent = process_track (self, process);
      track.session = self->session;
      track.number = thread->tid;
      track.kind = PS_TRACK_THREAD;
      thread->track = ps_event_store_add_track (self->store, &track);
    }
  return thread->track;
}

/* --- Maps (§8.1, §8.2) -------------------------------------------------------- */

/* The mapping that contains pc, or NULL */
static const Map *
find_map (Process *process,
          guint64  pc)
{
  const Map *maps = (const Map *)(gpointer)process->maps->data;
  guint lo = 0;
  guint hi = process->maps->len;

  /* The last map that starts at or below pc */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (maps[mid].start <= pc)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  if (pc >= maps[lo - 1].end)
    return NULL;
  return &maps[lo - 1];
}

/* Removes [start, end) from the maps, splitting those it cuts */
static void
unmap_range (Process *process,
             guint64  start,
             guint64  end)
{
  GArray *kept = g_array_sized_new (FALSE, FALSE, sizeof (Map), process->maps->len + 1);

  for (guint i = 0; i < process->maps->len; i++)
    {
      Map map = g_array_index (process->maps, Map, i);

      if (map.end <= start || map.start >= end)
        {
          g_array_append_val (kept, map);
          continue;
        }
      if (map.start < start)
        {
          Map before = map;
          before.end = start;
          g_array_append_val (kept, before);
        }
      if (map.end > end)
        {
          Map after = map;
          after.start = end;
          g_array_append_val (kept, after);
        }
    }

  g_array_unref (process->maps);
  process->maps = kept;
  process->generation++;
}

/* Links an image at its load address: with the ELF file, the mapping is
 * its executable sections moved by the load bias; without, it runs from
 * the load address to the next mapping. */
static void
link_image (PmclogParser *self,
            Process      *process,
            const char   *path,
            guint64       load,
            gboolean      load_is_bias)
{
  Image *image = get_image (self, path);
  Map map = { 0 };
  guint position;

  map.image = image;
  if (image->elf != NULL)
    {
      guint64 vaddr = ps_elf_image_get_vaddr (image->elf);

      map.bias = load_is_bias ? load : load - vaddr;
      map.load = load_is_bias ? vaddr + load : load;
      map.start = ps_elf_image_get_start (image->elf) + map.bias;
      map.end = ps_elf_image_get_end (image->elf) + map.bias;
      if (map.end <= map.start)
        return;
    }
  else
    {
      map.bias = load;
      map.load = load;
      map.start = load;
      map.end = UNKNOWN_END;
    }

  /* A new mapping replaces what it overlaps (only when its extent is known) */
  if (map.end != UNKNOWN_END)
    unmap_range (process, map.start, map.end);

  for (position = 0; position < process->maps->len; position++)
    if (g_array_index (process->maps, Map, position).start >= map.start)
      break;
  if (position < process->maps->len && g_array_index (process->maps, Map, position).start == map.start)
    g_array_index (process->maps, Map, position) = map;
  else
    g_array_insert_val (process->maps, position, map);

  /* Mappings of unknown extent end where the next one begins */
  for (guint i = 0; i + 1 < process->maps->len; i++)
    {
      Map *current = &g_array_index (process->maps, Map, i);
      const Map *next = &g_array_index (process->maps, Map, i + 1);

      if (current->end == UNKNOWN_END || current->end > next->start)
        current->end = next->start;
    }
  process->generation++;
}

/* PROCEXEC: the new image replaces every mapping (§8.2) */
static void
exec_image (PmclogParser         *self,
            Process              *process,
            const PsPmclogRecord *record)
{
  const char *path = record->u.procexec.path;
  Image *image;
  const char *interpreter = NULL;

  g_array_set_size (process->maps, 0);
  process->generation++;
  g_free (process->name);
  process->name = g_strdup (path_basename (path));

  if (path[0] == '\0')
    return;

  image = get_image (self, path);
  if (image->elf != NULL)
    interpreter = ps_elf_image_get_interpreter (image->elf);

  if (record->u.procexec.has_dyn)
    {
      /* 14.x and later: the executable at its link address moved by the
       * PIE bias, the run-time linker at AT_BASE */
      link_image (self, process, path, record->u.procexec.dyn, TRUE);
      if (record->u.procexec.base != 0)
        link_image (self, process, interpreter != NULL ? interpreter : "/libexec/ld-elf.so.1",
                    record->u.procexec.base, FALSE);
    }
  else
    {
      /* Before: the executable at its own link address; the run-time
       * linker where the entry address says */
      link_image (self, process, path, 0, TRUE);
      if (interpreter != NULL)
        {
          Image *rtld = get_image (self, interpreter);

          if (rtld->elf != NULL && record->u.procexec.base >= ps_elf_image_get_entry (rtld->elf))
            link_image (self, process, interpreter,
                        record->u.procexec.base - ps_elf_image_get_entry (rtld->elf)
                        + ps_elf_image_get_vaddr (rtld->elf), FALSE);
        }
    }
}

/* --- Frames ------------------------------------------------------------------- */

static inline guint32
cache_slot (guint64 pc,
            guint32 process_slot)
{
  guint64 key = (pc ^ ((guint64)process_slot << 40)) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return (guint32)(key >> (64 - FRAME_CACHE_BITS));
}

/* The frame of a pc in a process; FALSE when no mapping has it */
static gboolean
resolve_pc (PmclogParser *self,
            Process      *process,
            guint64       pc,
            guint32      *frame,
            Image       **unresolved)
{
  CacheEntry *entry = &self->cache[cache_slot (pc, process->slot)];
  const Map *map;
  guint64 address;
  guint64 symbol_start = 0;
  const char *name = NULL;

  if (entry->pc == pc && entry->process_slot == process->slot && entry->generation == process->generation
      && entry->frame != 0)
    {
      *frame = entry->frame - 1;
      *unresolved = entry->image != 0 ? g_ptr_array_index (self->image_list, entry->image - 1) : NULL;
      return TRUE;
    }

  map = find_map (process, pc);
  if (map == NULL)
    return FALSE;

  address = pc - map->bias;
  if (map->image->elf != NULL)
    name = ps_elf_image_lookup (map->image->elf, address, &symbol_start);

  if (name != NULL)
    {
      *frame = ps_event_store_intern_frame (self->store, ps_event_store_intern (self->store, name, -1),
                                            map->image->path_id, symbol_start);
      *unresolved = NULL;
    }
  else
    {
      /* Unnamed: shown as "module+0xoffset" from the load address */
      *frame = ps_event_store_intern_frame (self->store, 0, map->image->path_id, pc - map->load);
      *unresolved = map->image;
    }

  entry->pc = pc;
  entry->process_slot = process->slot;
  entry->generation = process->generation;
  entry->frame = *frame + 1;
  entry->image = *unresolved != NULL ? (*unresolved)->index + 1 : 0;
  return TRUE;
}

/* --- Records ------------------------------------------------------------------ */

static guint16
source_for_pmc (PmclogParser *self,
                guint32       pmcid)
{
  gpointer found = g_hash_table_lookup (self->pmcs, GUINT_TO_POINTER (pmcid));
  g_autofree char *name = NULL;
  guint16 source;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  /* pmcstat gives up here; a sample is worth more than the rule */
  name = g_strdup_printf ("PMC 0x%08x", pmcid);
  source = ps_event_store_add_sample_source (self->store, ps_event_store_intern (self->store, name, -1), 0);
  g_hash_table_insert (self->pmcs, GUINT_TO_POINTER (pmcid), GUINT_TO_POINTER ((guint)source + 1));
  return source;
}

static inline guint64
chain_hash (guint32 parent,
            guint64 pc,
            guint32 context)
{
  return ps_util_mix64 (pc ^ ((guint64)parent << 32) ^ context);
}

static inline gboolean
chain_node_is (const ChainNode *node,
               guint32          parent,
               guint64          pc,
               guint32          context)
{
  return node->pc == pc && node->parent == parent && (node->info & CHAIN_INFO_KERNEL) == context;
}

/* The index slot of the child of parent for a pc in a context, or the
 * free slot where it goes */
static inline ChainSlot *
chain_index_slot (PmclogParser *self,
                  guint32       parent,
                  guint64       pc,
                  guint32       context)
{
  guint64 hash = chain_hash (parent, pc, context);
  guint32 tag = (guint32)(hash >> 32);

  for (guint32 k = (guint32)hash & self->chain_mask;; k = (k + 1) & self->chain_mask)
    {
      ChainSlot *slot = &self->chain_index[k];

      if (slot->node == 0
          || (slot->tag == tag && chain_node_is (&self->chain_nodes[slot->node], parent, pc, context)))
        return slot;
    }
}

/* Places every node again, in the order of the nodes: they are read one
 * after the other, and only the writes land anywhere */
/* The free slot where a child of parent that is known to be new goes */
static inline ChainSlot *
chain_index_free_slot (PmclogParser *self,
                       guint32       parent,
                       guint64       pc,
                       guint32       context)
{
  guint32 k = (guint32)chain_hash (parent, pc, context) & self->chain_mask;

  while (self->chain_index[k].node != 0)
    k = (k + 1) & self->chain_mask;
  return &self->chain_index[k];
}

static void
chain_index_grow (PmclogParser *self)
{
  guint32 size = (self->chain_mask + 1) * 2;

  g_free (self->chain_index);
  self->chain_index = g_new0 (ChainSlot, (gsize)size);
  self->chain_mask = size - 1;
  for (guint32 id = 1; id < self->chain_n_nodes; id++)
    {
      const ChainNode *node = &self->chain_nodes[id];
      guint64 hash;
      guint32 k;

      /* Roots are not in the index */
      if (node->parent == 0)
        continue;
      hash = chain_hash (node->parent, node->pc, node->info & CHAIN_INFO_KERNEL);
      for (k = (guint32)hash & self->chain_mask; self->chain_index[k].node != 0; k = (k + 1) & self->chain_mask)
        ;
      self->chain_index[k].node = id;
      self->chain_index[k].tag = (guint32)(hash >> 32);
    }
}

/* Forgets every node */
static void
chain_clear (PmclogParser *self)
{
  memset (self->chain_index, 0, ((gsize)self->chain_mask + 1) * sizeof (ChainSlot));
  self->chain_n_nodes = 1;
  self->trie_epoch++;
  for (guint i = 0; i < self->process_list->len; i++)
    ((Process *)g_ptr_array_index (self->process_list, i))->chain_root = 0;
  /* They lead to nodes that are gone */
  memset (self->caller_index, 0, ((gsize)self->caller_mask + 1) * sizeof (ChainSlot));
  g_array_set_size (self->callers, 0);
  g_array_set_size (self->caller_arena, 0);
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

/* The index slot of a caller chain, or the free slot where it goes */
static inline ChainSlot *
caller_index_slot (PmclogParser  *self,
                   guint64        hash,
                   guint32        root,
                   guint          first_user,
                   const guint64 *pcs,
                   guint          n_pcs)
{
  guint32 tag = (guint32)(hash >> 32);
  const guint64 *arena = (const guint64 *)(gpointer)self->caller_arena->data;

  for (guint32 k = (guint32)hash & self->caller_mask;; k = (k + 1) & self->caller_mask)
    {
      ChainSlot *slot = &self->caller_index[k];
      const CallerChain *caller;

      if (slot->node == 0)
        return slot;
      if (slot->tag != tag)
        continue;
      caller = &g_array_index (self->callers, CallerChain, slot->node - 1);
      if (caller->hash == hash && caller->root == root && caller->first_user == first_user
          && caller->n_pcs == n_pcs && memcmp (arena + caller->arena, pcs, n_pcs * sizeof (guint64)) == 0)
        return slot;
    }
}

static void
caller_index_grow (PmclogParser *self)
{
  guint32 size = (self->caller_mask + 1) * 2;

  g_free (self->caller_index);
  self->caller_index = g_new0 (ChainSlot, size);
  self->caller_mask = size - 1;
  for (guint32 i = 0; i < self->callers->len; i++)
    {
      const CallerChain *caller = &g_array_index (self->callers, CallerChain, i);
      guint32 k = (guint32)caller->hash & self->caller_mask;

      while (self->caller_index[k].node != 0)
        k = (k + 1) & self->caller_mask;
      self->caller_index[k].node = i + 1;
      self->caller_index[k].tag = (guint32)(caller->hash >> 32);
    }
}

/* Whether a caller chain not found is worth keeping: the second time its
 * fingerprint is met (a fingerprint that another chain shares only makes
 * a chain kept sooner or later), while its pcs fit in the budget */
static gboolean
caller_admit (PmclogParser *self,
              guint64       hash,
              guint         n_pcs)
{
  guint32 *seen = &self->caller_seen[hash & ((1u << CALLER_SEEN_BITS) - 1)];
  guint32 fingerprint = (guint32)(hash >> 32) | 1;

  if (*seen != fingerprint)
    {
      *seen = fingerprint;
      return FALSE;
    }
  return self->caller_arena->len + n_pcs <= CALLER_ARENA_MAX;
}

/* What one node adds to the summary of its path */
static inline guint32
chain_path_bits (guint32 info)
{
  guint32 image = info & CHAIN_INFO_IMAGE_MASK;
  guint32 bits = info & CHAIN_INFO_UNMAPPED ? CHAIN_PATH_UNMAPPED : 0;

  if (image != 0)
    bits |= image <= CHAIN_PATH_N_IMAGES ? 1u << (image - 1) : CHAIN_PATH_MORE_IMAGES;
  return bits;
}

/* A new node, not yet in the index; its id */
static inline guint32
chain_add_node (PmclogParser *self,
                guint32       parent,
                guint64       pc,
                guint32       stack,
                guint32       info)
{
  ChainNode *node;

  if (G_UNLIKELY (self->chain_n_nodes == self->chain_nodes_size))
    {
      self->chain_nodes_size *= 2;
      self->chain_nodes = g_renew (ChainNode, self->chain_nodes, self->chain_nodes_size);
      self->chain_paths = g_renew (guint32, self->chain_paths, self->chain_nodes_size);
    }
  node = &self->chain_nodes[self->chain_n_nodes];
  node->pc = pc;
  node->parent = parent;
  node->stack = stack;
  node->info = info;
  node->hint = 0;
  self->chain_paths[self->chain_n_nodes] = parent != 0 ? self->chain_paths[parent] | chain_path_bits (info) : 0;
  return self->chain_n_nodes++;
}

/* The trie's root for the chains of a process, new when its maps or the
 * kernel's changed: a pc's frame depends on them. The trie starts over
 * before node ids run out (billions of prefixes; its nodes' stack nodes
 * stay in the store). */
static guint32
chain_root (PmclogParser *self,
            Process      *process)
{
  if (G_UNLIKELY (self->chain_n_nodes >= G_MAXINT32 - G_MAXUINT16))
    chain_clear (self);
  if (process->chain_root == 0 || process->chain_root_generation != process->generation
      || process->chain_root_kernel_generation != self->kernel->generation)
    {
      process->chain_root = chain_add_node (self, 0, 0, 0, 0);
      process->chain_root_generation = process->generation;
      process->chain_root_kernel_generation = self->kernel->generation;
    }
  return process->chain_root;
}

/* Resolves one pc in its context (CHAIN_INFO_KERNEL or 0) */
static ChainPc
chain_resolve (PmclogParser *self,
               Process      *process,
               guint64       pc,
               guint32       context)
{
  Process *in = context != 0 ? self->kernel : process;
  ChainPc resolved = { 0, context };
  Image *image = NULL;

  if (resolve_pc (self, in, pc, &resolved.frame, &image))
    {
      if (image != NULL)
        resolved.info |= image->index + 1;
    }
  else
    {
      resolved.frame = in == self->kernel ? self->kernel_frame : self->unknown_frame;
      resolved.info |= CHAIN_INFO_UNMAPPED;
    }
  return resolved;
}

/* Where the pcs of a chain that are resolved in the kernel end. A
 * kernel-mode chain is resolved in the kernel up to the first pc that
 * the kernel does not map and the thread's process does; that pc and all
 * its callers belong to the process (§6.2). */
static guint
chain_first_user (PmclogParser         *self,
                  const PsPmclogRecord *record,
                  Process              *process)
{
  gboolean user = (record->u.callchain.cpuflags & PS_PMCLOG_CC_USER) != 0;
  guint n_pcs = record->u.callchain.n_pcs;
  const guint64 *pcs = record->u.callchain.pcs;

  if (user && process != self->kernel)
    return 0;
  if (process != self->kernel)
    for (guint i = 0; i < n_pcs; i++)
      if (find_map (self->kernel, pcs[i]) == NULL && find_map (process, pcs[i]) != NULL)
        return i;
  return n_pcs;
}

/* Counts the sample once for an image without names that its stack
 * passes; flags gets CHAIN_UNRESOLVED when the image's symbols are
 * missing */
static inline void
count_lacking_image (PmclogParser *self,
                     guint32       image_plus_one,
                     guint64       sample,
                     guint32      *flags)
{
  Image *lacking = g_ptr_array_index (self->image_list, image_plus_one - 1);

  if (lacking->last_sample != sample)
    {
      lacking->last_sample = sample;
      lacking->samples_affected++;
      if (lacking->missing != NULL)
        *flags |= CHAIN_UNRESOLVED;
    }
}

/* The new tail of a chain, pcs[level - 1] inwards, becomes nodes and
 * stack nodes one after the other, whose ids are known now: the index
 * slots they go to are asked for at once, so that their cache misses
 * overlap instead of coming one per pc. A guess where a stack turns out
 * to exist (two pcs of one frame) only asks for a slot in vain. */
static void
chain_prefetch_tail (PmclogParser  *self,
                     guint32        parent,
                     guint32        stack,
                     guint          level,
                     const guint64 *pcs,
                     guint          first_user,
                     const ChainPc *resolved)
{
  guint32 node = self->chain_n_nodes;
  guint32 next_stack = ps_event_store_get_n_stack_nodes (self->store);

  for (guint i = level; i > 0; i--)
    {
      /* The first node's slot is the one just found free */
      if (i < level)
        __builtin_prefetch (&self->chain_index[(guint32)chain_hash (parent, pcs[i - 1],
                                                                    i - 1 < first_user ? CHAIN_INFO_KERNEL : 0)
                                               & self->chain_mask], 1);
      _ps_event_store_prefetch_stack (self->store, stack, resolved[i - 1].frame);
      parent = node++;
      stack = next_stack++;
    }
}

/* Counts the sample for what the path of a node passes, each image once;
 * the path is walked only for images beyond the summary's */
static void
count_path (PmclogParser *self,
            guint32       node,
            guint64       sample,
            guint32      *flags)
{
  guint32 path = self->chain_paths[node];
  guint32 images = path & ((1u << CHAIN_PATH_N_IMAGES) - 1);

  if (path & CHAIN_PATH_UNMAPPED)
    *flags |= CHAIN_UNMAPPED;
  while (images != 0)
    {
      count_lacking_image (self, (guint32)__builtin_ctz (images) + 1, sample, flags);
      images &= images - 1;
    }
  if (path & CHAIN_PATH_MORE_IMAGES)
    for (guint32 id = node; self->chain_nodes[id].parent != 0; id = self->chain_nodes[id].parent)
      {
        guint32 image = self->chain_nodes[id].info & CHAIN_INFO_IMAGE_MASK;

        if (image > CHAIN_PATH_N_IMAGES)
          count_lacking_image (self, image, sample, flags);
      }
}

/* The stack of a CALLCHAIN; pending, if not NULL, is what a walk ahead
 * found out about it */
static guint32
callchain_stack (PmclogParser         *self,
                 const PsPmclogRecord *record,
                 Process              *process,
                 const PendingChain   *pending)
{
  guint n_pcs = record->u.callchain.n_pcs;
  const guint64 *pcs = record->u.callchain.pcs;
  guint first_user;       /* pcs below it are resolved in the kernel */
  guint32 root;
  guint32 parent;
  guint32 stack;
  guint32 flags = 0;
  guint64 sample = ++self->n_samples;
  const ChainPc *resolved = NULL;
  guint walk_from = n_pcs;
  ChainSlot *caller_slot = NULL;
  guint64 hash = 0;
  gboolean keep_caller = FALSE;
  gboolean walked_ahead;

  if (n_pcs == 0)
    return 0;

  /* Known from the walk ahead while the process's maps stayed */
  walked_ahead = pending != NULL && pending->process == process;
  if (walked_ahead)
    first_user = pending->first_user;
  else
    first_user = chain_first_user (self, record, process);

  root = parent = chain_root (self, process);
  walked_ahead = walked_ahead && pending->root == root && pending->epoch == self->trie_epoch;

  if (n_pcs > 1 && n_pcs - 1 <= CALLER_MAX_PCS)
    {
      if (walked_ahead && pending->caller_hash != 0)
        hash = pending->caller_hash;
      else
        hash = caller_hash (root, first_user, pcs + 1, n_pcs - 1);
      caller_slot = caller_index_slot (self, hash, root, first_user, pcs + 1, n_pcs - 1);
      if (caller_slot->node != 0)
        {
          parent = g_array_index (self->callers, CallerChain, caller_slot->node - 1).node;
          walk_from = 1;
        }
      else
        keep_caller = caller_admit (self, hash, n_pcs - 1);
    }
  /* Nodes are only ever added: what the walk ahead found is there */
  if (walk_from > 1 && walked_ahead && !pending->guessed)
    {
      parent = pending->found;
      walk_from = pending->found_level;
    }
  stack = self->chain_nodes[parent].stack;

  for (guint i = walk_from; i > 0; i--)
    {
      guint64 pc = pcs[i - 1];
      guint32 context = i - 1 < first_user ? CHAIN_INFO_KERNEL : 0;
      guint32 hint = self->chain_nodes[parent].hint;
      guint32 child;

      if (hint != 0 && chain_node_is (&self->chain_nodes[hint], parent, pc, context))
        child = hint;
      else
        {
          /* The node made last has no children yet: its child is placed,
           * not looked for, and what follows does not wait for the probe */
          ChainSlot *slot = parent == self->chain_n_nodes - 1 ? chain_index_free_slot (self, parent, pc, context)
                                                              : chain_index_slot (self, parent, pc, context);

          if (slot->node != 0)
            child = slot->node;
          else
            {
              /* Every pc inside this one is new too. They are resolved
               * innermost first, so frames are made in the order a walk
               * from the sampled pc outwards meets them. */
              if (resolved == NULL)
                {
                  g_array_set_size (self->chain_pcs, i);
                  for (guint j = 0; j < i; j++)
                    g_array_index (self->chain_pcs, ChainPc, j)
                      = chain_resolve (self, process, pcs[j], j < first_user ? CHAIN_INFO_KERNEL : 0);
                  resolved = (const ChainPc *)(gpointer)self->chain_pcs->data;
                  chain_prefetch_tail (self, parent, stack, i, pcs, first_user, resolved);
                }
              stack = ps_event_store_intern_stack (self->store, stack, resolved[i - 1].frame);
              child = chain_add_node (self, parent, pc, stack, resolved[i - 1].info);
              slot->node = child;
              slot->tag = (guint32)(chain_hash (parent, pc, context) >> 32);
              /* Roots are not in the index: the nodes outnumber its entries */
              if ((guint64)self->chain_n_nodes * 4 > (guint64)self->chain_mask * 3)
                chain_index_grow (self);
            }
          /* The sampled pc varies within its function, the callers
           * stay: a hint to a sampled pc would be taken once at most */
          if (i > 1)
            self->chain_nodes[parent].hint = child;
        }

      parent = child;
      stack = self->chain_nodes[child].stack;
    }

  /* The caller part is known: keep it whole while its path passes at
   * most CALLER_MAX_IMAGES images without names, all in the summary
   * (callers through more, kept as well, filled the budget of pcs in the
   * generated benchmark log for no time gained) */
  if (keep_caller)
    {
      /* The sampled pc's node hangs from the caller's */
      guint32 caller_node = self->chain_nodes[parent].parent;
      guint32 path = self->chain_paths[caller_node];

      if ((path & CHAIN_PATH_MORE_IMAGES) == 0
          && __builtin_popcount (path & ((1u << CHAIN_PATH_N_IMAGES) - 1)) <= CALLER_MAX_IMAGES)
        {
          CallerChain caller = { hash, self->caller_arena->len, root, caller_node, n_pcs - 1, first_user };

          g_array_append_vals (self->caller_arena, pcs + 1, n_pcs - 1);
          g_array_append_val (self->callers, caller);
          /* The walk did not move the index of callers */
          caller_slot->node = self->callers->len;
          caller_slot->tag = (guint32)(hash >> 32);
          if ((guint64)self->callers->len * 4 > (guint64)self->caller_mask * 3)
            caller_index_grow (self);
        }
    }

  /* What the sample lacks, each image once */
  count_path (self, parent, sample, &flags);
  if (flags & CHAIN_UNMAPPED)
    self->n_samples_unmapped++;
  if (flags & CHAIN_UNRESOLVED)
    self->n_samples_unresolved++;

  return stack;
}

static void
add_callchain (PmclogParser         *self,
               const PsPmclogRecord *record,
               const PendingChain   *pending)
{
  gint64 time_ns = record_time_ns (self, record);
  guint32 pid = record->u.callchain.pid;
  guint32 tid = record->u.callchain.tid;
  gboolean user = (record->u.callchain.cpuflags & PS_PMCLOG_CC_USER) != 0;
  Process *process = get_process (self, pid);
  PsSample sample = { 0 };
  guint32 parent;

  if (!g_hash_table_contains (self->pmcs, GUINT_TO_POINTER (record->u.callchain.pmcid))
      && !g_hash_table_contains (self->unknown_pmcs, GUINT_TO_POINTER (record->u.callchain.pmcid)))
    {
      g_hash_table_add (self->unknown_pmcs, GUINT_TO_POINTER (record->u.callchain.pmcid));
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PMCLOG-UNKNOWN-PMC", 0,
                             record->offset, self->session,
                             /* Translators: a PMC is a performance-monitoring counter */
                             _("A sample names PMC 0x%08x, which the log never allocated; its samples are shown under that number"),
                             record->u.callchain.pmcid);
    }

  parent = callchain_stack (self, record, process, pending);

  lifespan_saw (&process->life, time_ns);
  if (tid != PS_PMCLOG_NO_TID && pid != PS_PMCLOG_KERNEL_PID)
    {
      Thread *thread = get_thread (self, tid, pid);

      lifespan_saw (&thread->life, time_ns);
      sample.track = thread_track (self, thread);
    }
  else
    sample.track = process_track (self, process);

  sample.time_ns = time_ns;
  sample.stack = parent;
  sample.weight = 1;
  sample.flags = user ? PS_SAMPLE_FLAG_NONE : PS_SAMPLE_FLAG_KERNEL;
  sample.source = source_for_pmc (self, record->u.callchain.pmcid);
  ps_store_builder_add_sample (self->parent.builder, &sample);
}

/* One step of a chain's walk ahead, up to the next prefetch; FALSE when
 * the walk is over. The walk only reads: it finds the nodes the walk in
 * order will read, whatever it finds. */
static gboolean
probe_step (PmclogParser *self,
            PendingChain *chain)
{
  const guint64 *pcs = chain->record.u.callchain.pcs;

  for (;;)
    {
      guint64 pc;
      guint32 context;

      switch (chain->phase)
        {
        case PROBE_DONE:
          return FALSE;

        case PROBE_CALLER:
          {
            const ChainSlot *slot = &self->caller_index[(guint32)chain->caller_hash & self->caller_mask];

            /* The first slot only: a guess is enough here */
            if (slot->node != 0 && slot->tag == (guint32)(chain->caller_hash >> 32))
              {
                const CallerChain *caller = &g_array_index (self->callers, CallerChain, slot->node - 1);

                __builtin_prefetch (caller);
                chain->candidate = slot->node - 1;
                chain->phase = PROBE_CALLER_NODE;
                return TRUE;
              }
            chain->phase = PROBE_NODE;
            __builtin_prefetch (&self->chain_nodes[chain->parent]);
            return TRUE;
          }

        case PROBE_CALLER_NODE:
          {
            const CallerChain *caller = &g_array_index (self->callers, CallerChain, chain->candidate);

            __builtin_prefetch ((const guint64 *)(gpointer)self->caller_arena->data + caller->arena);
            if (caller->node < self->chain_n_nodes)
              {
                chain->parent = caller->node;
                chain->level = 1;
                chain->guessed = TRUE;
              }
            chain->phase = PROBE_NODE;
            __builtin_prefetch (&self->chain_nodes[chain->parent]);
            return TRUE;
          }

        case PROBE_NODE:
          if (chain->level == 0)
            {
              chain->phase = PROBE_DONE;
              return FALSE;
            }
          chain->candidate = self->chain_nodes[chain->parent].hint;
          if (chain->candidate != 0)
            {
              chain->phase = PROBE_HINT;
              __builtin_prefetch (&self->chain_nodes[chain->candidate]);
              return TRUE;
            }
          pc = pcs[chain->level - 1];
          context = chain->level - 1 < chain->first_user ? CHAIN_INFO_KERNEL : 0;
          chain->slot = (guint32)chain_hash (chain->parent, pc, context) & self->chain_mask;
          chain->phase = PROBE_SLOT;
          __builtin_prefetch (&self->chain_index[chain->slot]);
          return TRUE;

        case PROBE_HINT:
        case PROBE_CANDIDATE:
          pc = pcs[chain->level - 1];
          context = chain->level - 1 < chain->first_user ? CHAIN_INFO_KERNEL : 0;
          if (chain_node_is (&self->chain_nodes[chain->candidate], chain->parent, pc, context))
            {
              /* The hint the walk in order would leave (none to a
               * sampled pc): it may not walk here again */
              if (chain->phase == PROBE_CANDIDATE && chain->level > 1)
                self->chain_nodes[chain->parent].hint = chain->candidate;
              chain->parent = chain->candidate;
              chain->level--;
              chain->phase = PROBE_NODE;
              if (!chain->guessed)
                {
                  chain->found = chain->parent;
                  chain->found_level = chain->level;
                }
              continue;
            }
          /* A wrong hint sends to the index, a slot of another key to
           * the next slot */
          if (chain->phase == PROBE_HINT)
            {
              chain->slot = (guint32)chain_hash (chain->parent, pc, context) & self->chain_mask;
              chain->phase = PROBE_SLOT;
              __builtin_prefetch (&self->chain_index[chain->slot]);
              return TRUE;
            }
          chain->slot = (chain->slot + 1) & self->chain_mask;
          chain->phase = PROBE_SLOT;
          continue;

        case PROBE_SLOT:
          {
            const ChainSlot *slot = &self->chain_index[chain->slot];

            if (slot->node == 0)
              {
                /* A new prefix: the rest of the chain is new too, and
                 * its pcs are resolved (most from the cache) */
                for (guint j = 0; j < chain->level; j++)
                  __builtin_prefetch (&self->cache[cache_slot (pcs[j], j < chain->first_user ? self->kernel->slot
                                                                                           : chain->process->slot)]);
                chain->phase = PROBE_DONE;
                return FALSE;
              }
            pc = pcs[chain->level - 1];
            context = chain->level - 1 < chain->first_user ? CHAIN_INFO_KERNEL : 0;
            if (slot->tag == (guint32)(chain_hash (chain->parent, pc, context) >> 32))
              {
                chain->candidate = slot->node;
                chain->phase = PROBE_CANDIDATE;
                __builtin_prefetch (&self->chain_nodes[slot->node]);
                return TRUE;
              }
            chain->slot = (chain->slot + 1) & self->chain_mask;
            continue;
          }
        }
    }
}

/* Takes the chains of the batch in order, after walking them ahead side
 * by side */
static void
batch_flush (PmclogParser *self)
{
  guint active = 0;

  if (self->batch_length == 0)
    return;

  for (guint b = 0; b < self->batch_length; b++)
    {
      PendingChain *chain = &self->batch[b];
      PsPmclogRecord *record = &chain->record;
      guint32 pid = record->u.callchain.pid;
      guint n_pcs = record->u.callchain.n_pcs;
      Process *process = pid == PS_PMCLOG_KERNEL_PID
                           ? self->kernel : g_hash_table_lookup (self->processes, GUINT_TO_POINTER (pid));

      record->u.callchain.pcs = (const guint64 *)(gpointer)self->batch_pcs->data + chain->pcs_offset;
      chain->process = NULL;
      chain->phase = PROBE_DONE;
      chain->parent = 0;
      chain->caller_hash = 0;
      /* Only what stays until the chain's turn: the root of a process
       * whose maps are as they were */
      if (process == NULL || process->chain_root == 0 || process->chain_root_generation != process->generation
          || process->chain_root_kernel_generation != self->kernel->generation || n_pcs == 0)
        continue;

      chain->process = process;
      chain->first_user = chain_first_user (self, record, process);
      chain->root = chain->parent = process->chain_root;
      chain->level = n_pcs;
      chain->found = chain->root;
      chain->found_level = n_pcs;
      chain->guessed = FALSE;
      chain->epoch = self->trie_epoch;
      if (n_pcs > 1 && n_pcs - 1 <= CALLER_MAX_PCS)
        {
          chain->caller_hash = caller_hash (chain->parent, chain->first_user, record->u.callchain.pcs + 1, n_pcs - 1);
          chain->phase = PROBE_CALLER;
          __builtin_prefetch (&self->caller_index[(guint32)chain->caller_hash & self->caller_mask]);
          __builtin_prefetch (&self->caller_seen[chain->caller_hash & ((1u << CALLER_SEEN_BITS) - 1)]);
        }
      else
        {
          chain->phase = PROBE_NODE;
          __builtin_prefetch (&self->chain_nodes[chain->parent]);
        }
      active++;
    }

  while (active > 0)
    for (guint b = 0; b < self->batch_length; b++)
      if (self->batch[b].phase != PROBE_DONE && !probe_step (self, &self->batch[b]))
        active--;

  for (guint b = 0; b < self->batch_length; b++)
    add_callchain (self, &self->batch[b].record, &self->batch[b]);
  self->batch_length = 0;
  g_array_set_size (self->batch_pcs, 0);
}

/* Puts a CALLCHAIN record in the batch; its strings and pcs are copied */
static void
batch_add (PmclogParser         *self,
           const PsPmclogRecord *record)
{
  PendingChain *chain = &self->batch[self->batch_length++];

  chain->record = *record;
  chain->record.u.callchain.n_parts = 0;
  chain->record.u.callchain.parts = NULL;
  chain->pcs_offset = self->batch_pcs->len;
  g_array_append_vals (self->batch_pcs, record->u.callchain.pcs, record->u.callchain.n_pcs);
  if (self->batch_length == BATCH_SIZE)
    batch_flush (self);
}

static void
add_mark (PmclogParser         *self,
          const PsPmclogRecord *record,
          guint32               track,
          const char           *text)
{
  PendingMark mark = { record_time_ns (self, record), record->offset, track,
                       ps_event_store_add_text (self->store, text, -1) };

  g_array_append_val (self->marks, mark);
}

static void
set_metadata_u64 (PmclogParser *self,
                  const char   *key,
                  gboolean      hex,
                  guint64       value)
{
  g_autofree char *text = hex ? g_strdup_printf ("0x%" PRIx64 "", value)
                              : g_strdup_printf ("%" PRIu64 "", value);
  ps_event_store_set_metadata (self->store, self->session, key, text);
}

static void
initialize (PmclogParser         *self,
            const PsPmclogRecord *record)
{
  guint32 version = record->u.initialize.version;
  PsPmclogReader *reader = self->reader;

  if (self->initialized)
    {
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PMCLOG-REINIT", 0, record->offset,
                             self->session, _("A second INITIALIZE record; times stay relative to the first"));
      return;
    }

  self->initialized = TRUE;
  self->legacy = ps_pmclog_reader_get_generation (reader) == PS_PMCLOG_GENERATION_LEGACY;
  self->tsc_init = record->tsc;
  self->tsc_freq = record->u.initialize.tsc_freq;
  self->legacy_seconds0 = record->seconds;
  self->legacy_nanoseconds0 = record->nanoseconds;

  set_metadata_u64 (self, "pmc_version", TRUE, version);
  ps_event_store_set_metadata (self->store, self->session, "generation",
                               self->legacy ? "legacy (FreeBSD 6–11)" : "modern (FreeBSD 12 and later)");
  ps_event_store_set_metadata (self->store, self->session, "byte_order",
                               ps_pmclog_reader_is_big_endian (reader) ? "big-endian" : "little-endian");
  set_metadata_u64 (self, "cpu_type", TRUE, record->u.initialize.cputype);
  if (record->u.initialize.cpuid != NULL && record->u.initialize.cpuid[0] != '\0')
    ps_event_store_set_metadata (self->store, self->session, "cpuid", record->u.initialize.cpuid);
  if (!self->legacy)
    {
      set_metadata_u64 (self, "tsc_frequency_hz", FALSE, self->tsc_freq);
      if (self->tsc_freq == 0)
        {
          ps_event_store_set_metadata (self->store, self->session, "time_unit", "ticks");
          ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-PMCLOG-NO-FREQUENCY", 0, record->offset,
                                 self->session,
                                 _("The log does not give its clock frequency (not an x86 machine): times are in raw clock ticks"));
        }
      else
        ps_event_store_set_metadata (self->store, self->session, "time_unit", "ns");
    }
  else
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-PMCLOG-COARSE-TIME", 0, record->offset,
                           self->session,
                           _("Logs of FreeBSD 11 and older have coarse timestamps (one clock tick, 1–10 ms), and their fractions of a second above 0.27 s are scrambled by the kernel"));

  if (record->u.initialize.has_wallclock)
    {
      gint64 origin_ns;

      if (ps_util_unix_ns (record->u.initialize.wall_seconds, record->u.initialize.wall_nanoseconds, &origin_ns))
        ps_event_store_set_session_origin (self->store, self->session, origin_ns);
      else
        ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PMCLOG-BAD-WALLCLOCK", 0, record->offset,
                               self->session,
                               _("The log’s wall-clock start (%lld seconds since 1970) is not a time Perfscope can show; times are shown from the start of the run"),
                               (long long) record->u.initialize.wall_seconds);
    }
  else if (self->legacy)
    ps_event_store_set_session_origin (self->store, self->session,
                                       (gint64)record->seconds * G_GINT64_CONSTANT (1000000000)
                                       + (record->nanoseconds & 0x0FFFFFFF));
}

static void
allocate_pmc (PmclogParser         *self,
              const PsPmclogRecord *record)
{
  g_autofree char *name = NULL;
  guint16 source;

  if (record->u.allocate.name != NULL && record->u.allocate.name[0] != '\0')
    name = g_strdup (record->u.allocate.name);
  else
    /* Hardware events are numbers whose names depend on the FreeBSD
     * release and the CPU (§6.5) */
    name = g_strdup_printf ("event 0x%x", record->u.allocate.event);

  source = ps_event_store_add_sample_source (self->store, ps_event_store_intern (self->store, name, -1),
                                             record->u.allocate.rate);
  g_hash_table_insert (self->pmcs, GUINT_TO_POINTER (record->u.allocate.pmcid), GUINT_TO_POINTER ((guint)source + 1));
}

static gboolean
record_cb (const PsPmclogRecord *record,
           gpointer              user_data,
           GError              **error)
{
  PmclogParser *self = user_data;
  char text[1200];

  if (record->flags & PS_PMCLOG_RECORD_FLAG_AFTER_CLOSE)
    self->n_after_close++;

  if (record->type == PS_PMCLOG_CALLCHAIN || record->type == PS_PMCLOG_PCSAMPLE)
    {
      batch_add (self, record);
      return TRUE;
    }
  /* Every other record may change what the chains before it mean */
  batch_flush (self);

  switch (record->type)
    {
    case PS_PMCLOG_INITIALIZE:
      initialize (self, record);
      break;

    case PS_PMCLOG_CALLCHAIN:
    case PS_PMCLOG_PCSAMPLE:
      break;

    case PS_PMCLOG_MAP_IN:
      link_image (self, get_process (self, record->u.map_in.pid), record->u.map_in.path,
                  record->u.map_in.start, FALSE);
      break;

    case PS_PMCLOG_MAP_OUT:
      if (record->u.map_out.start < record->u.map_out.end)
        unmap_range (get_process (self, record->u.map_out.pid), record->u.map_out.start, record->u.map_out.end);
      break;

    case PS_PMCLOG_PMCALLOCATE:
    case PS_PMCLOG_PMCALLOCATEDYN:
      allocate_pmc (self, record);
      break;

    case PS_PMCLOG_PROCEXEC:
      {
        Process *process = get_process (self, record->u.procexec.pid);

        exec_image (self, process, record);
        lifespan_saw (&process->life, record_time_ns (self, record));
        /* Translators: a process ran a new program; %s is its path */
        g_snprintf (text, sizeof text, _("exec %s"), record->u.procexec.path);
        add_mark (self, record, process_track (self, process), text);
      }
      break;

    case PS_PMCLOG_PROCFORK:
      {
        Process *parent = get_process (self, record->u.procfork.old_pid);
        Process *child = get_process (self, record->u.procfork.new_pid);
        gint64 time_ns = record_time_ns (self, record);

        if (child != parent)
          {
            g_array_set_size (child->maps, 0);
            g_array_append_vals (child->maps, parent->maps->data, parent->maps->len);
            child->generation++;
            if (child->name == NULL && parent->name != NULL)
              child->name = g_strdup (parent->name);
          }
        lifespan_saw (&parent->life, time_ns);
        lifespan_saw (&child->life, time_ns);
        /* Translators: %u is a process id */
        g_snprintf (text, sizeof text, _("fork: new process %u"), record->u.procfork.new_pid);
        add_mark (self, record, process_track (self, parent), text);
      }
      break;

    case PS_PMCLOG_PROCEXIT:
    case PS_PMCLOG_SYSEXIT:
      {
        guint32 pid = record->type == PS_PMCLOG_SYSEXIT ? record->u.sysexit.pid : record->u.procexit.pid;
        Process *process = get_process (self, pid);

        lifespan_end (&process->life, record_time_ns (self, record));
      }
      break;

    case PS_PMCLOG_PROC_CREATE:
      {
        Process *process = get_process (self, record->u.thread.pid);

        if (record->u.thread.name != NULL && record->u.thread.name[0] != '\0')
          {
            g_free (process->name);
            process->name = g_strdup (record->u.thread.name);
          }
        lifespan_saw (&process->life, record_time_ns (self, record));
      }
      break;

    case PS_PMCLOG_THR_CREATE:
      {
        Thread *thread = get_thread (self, record->u.thread.tid, record->u.thread.pid);

        if (record->u.thread.name != NULL && record->u.thread.name[0] != '\0')
          {
            g_free (thread->name);
            thread->name = g_strdup (record->u.thread.name);
          }
        lifespan_saw (&thread->life, record_time_ns (self, record));
      }
      break;

    case PS_PMCLOG_THR_EXIT:
      {
        Thread *thread = g_hash_table_lookup (self->threads, GUINT_TO_POINTER (record->u.thread.tid));

        if (thread != NULL)
          {
            lifespan_end (&thread->life, record_time_ns (self, record));
          }
      }
      break;

    case PS_PMCLOG_PROCCSW:
      {
        Process *process = get_process (self, record->u.proccsw.pid);
        guint32 track;

        if (record->u.proccsw.tid != PS_PMCLOG_NO_TID)
          {
            Thread *thread = get_thread (self, record->u.proccsw.tid, record->u.proccsw.pid);

            lifespan_saw (&thread->life, record_time_ns (self, record));
            track = thread_track (self, thread);
          }
        else
          track = process_track (self, process);
        lifespan_saw (&process->life, record_time_ns (self, record));
        /* Translators: a context switch; %s is the count of the PMC's events during the time slice */
        g_snprintf (text, sizeof text, _("switched out after %" PRIu64 " events"), record->u.proccsw.value);
        add_mark (self, record, track, text);
      }
      break;

    case PS_PMCLOG_USERDATA:
      /* Translators: a marker the profiled program wrote into the log */
      g_snprintf (text, sizeof text, _("user data 0x%08x"), record->u.userdata.value);
      add_mark (self, record, process_track (self, self->kernel), text);
      break;

    case PS_PMCLOG_DROPNOTIFY:
      self->n_drop_notices++;
      break;

    case PS_PMCLOG_CLOSELOG:
      self->n_closelogs++;
      break;

    case PS_PMCLOG_CONTAINER_INFO:
      if (record->u.container.cpu_model != NULL)
        ps_event_store_set_metadata (self->store, self->session, "cpu_model", record->u.container.cpu_model);
      if (record->u.container.os_release != NULL)
        ps_event_store_set_metadata (self->store, self->session, "os_release", record->u.container.os_release);
      if (record->u.container.build_id != NULL)
        ps_event_store_set_metadata (self->store, self->session, "kernel_build_id", record->u.container.build_id);
      break;

    case PS_PMCLOG_PMCATTACH:
    case PS_PMCLOG_PMCDETACH:
    case PS_PMCLOG_N_TYPES:
    default:
      break;
    }

  return TRUE;
}

static void
warning_cb (const char *code,
            guint64     offset,
            const char *message,
            gpointer    user_data)
{
  PmclogParser *self = user_data;

  /* In the order of the records */
  batch_flush (self);
  ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, code, 0, offset, self->session, "%s", message);
}

/* --- The end of the log: names, lifetimes, marks, data quality ------------ */

static int
compare_marks (gconstpointer a,
               gconstpointer b)
{
  const PendingMark *ma = a;
  const PendingMark *mb = b;

  if (ma->time_ns != mb->time_ns)
    return ma->time_ns < mb->time_ns ? -1 : 1;
  return ma->offset < mb->offset ? -1 : ma->offset > mb->offset;
}

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const PsSpan *sa = a;
  const PsSpan *sb = b;

  if (sa->begin_ns != sb->begin_ns)
    return sa->begin_ns < sb->begin_ns ? -1 : 1;
  return sa->track < sb->track ? -1 : sa->track > sb->track;
}

/* A process's or thread's lifespan as a span of its track; open ones end
 * at their last event */
static void
add_lifespan (GArray         *spans,
              const Lifespan *life,
              guint32         track,
              guint32         name)
{
  PsSpan span = { 0 };

  if (!life->seen)
    return;
  span.begin_ns = life->first_ns;
  span.end_ns = MAX (life->first_ns, life->exited ? life->exit_ns : life->last_ns);
  span.track = track;
  span.name = name;
  span.parent = PS_NONE;
  span.flags = life->exited ? PS_SPAN_FLAG_NONE : PS_SPAN_FLAG_UNTERMINATED;
  g_array_append_val (spans, span);
}

static void
finish_model (PmclogParser *self)
{
  g_autoptr(GArray) lifespans = g_array_new (FALSE, FALSE, sizeof (PsSpan));

  /* Names learned after the tracks were made */
  for (guint i = 0; i < self->process_list->len; i++)
    {
      Process *process = g_ptr_array_index (self->process_list, i);
      g_autofree char *name = NULL;
      guint32 name_id;

      if (process->track == PS_NONE)
        continue;
      if (process == self->kernel)
        name = g_strdup (_("Kernel"));
      else if (process->name != NULL)
        /* Translators: a process: its name and its id */
        name = g_strdup_printf (_("%s (pid %u)"), process->name, process->pid);
      else
        name = g_strdup_printf (_("pid %u"), process->pid);
      name_id = ps_event_store_intern (self->store, name, -1);
      _ps_event_store_set_track_name (self->store, process->track, name_id, 0);
      if (process != self->kernel)
        add_lifespan (lifespans, &process->life, process->track, name_id);
    }

  for (guint i = 0; i < self->thread_list->len; i++)
    {
      Thread *thread = g_ptr_array_index (self->thread_list, i);
      Process *process = get_process (self, thread->pid);
      g_autofree char *name = NULL;
      guint32 name_id;

      if (thread->track == PS_NONE)
        continue;
      if (thread->name != NULL && thread->name[0] != '\0')
        /* Translators: a thread: its name and its id */
        name = g_strdup_printf (_("%s (tid %u)"), thread->name, thread->tid);
      else
        name = g_strdup_printf (_("tid %u"), thread->tid);
      name_id = ps_event_store_intern (self->store, name, -1);
      _ps_event_store_set_track_name (self->store, thread->track, name_id,
                                      process->name != NULL ? ps_event_store_intern (self->store, process->name, -1) : 0);
      add_lifespan (lifespans, &thread->life, thread->track, name_id);
    }

  /* Spans are kept in the order they began */
  g_array_sort (lifespans, compare_spans);
  for (guint i = 0; i < lifespans->len; i++)
    ps_store_builder_add_span (self->parent.builder, &g_array_index (lifespans, PsSpan, i));

  g_array_sort (self->marks, compare_marks);
  for (guint i = 0; i < self->marks->len; i++)
    {
      const PendingMark *pending = &g_array_index (self->marks, PendingMark, i);
      PsMark mark = { 0 };

      mark.time_ns = pending->time_ns;
      mark.track = pending->track;
      mark.text = pending->text;
      mark.span = PS_NONE;
      ps_store_builder_add_mark (self->parent.builder, &mark);
    }

  /* Data quality: what was lost and what has no names */
  set_metadata_u64 (self, "samples", FALSE, self->n_samples);
  if (self->sysroot != NULL)
    ps_event_store_set_metadata (self->store, self->session, "sysroot", self->sysroot);

  if (self->n_drop_notices > 0)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PMCLOG-DROPPED", 0, PS_NO_POSITION,
                           self->session,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "The kernel dropped samples %" PRIu64 " time: its buffers were full, so at least that many samples are missing",
                                        "The kernel dropped samples %" PRIu64 " times: its buffers were full, so at least that many samples are missing",
                                        self->n_drop_notices),
                           self->n_drop_notices);
  if (self->n_after_close > 0)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-PMCLOG-AFTER-CLOSE", 0, PS_NO_POSITION,
                           self->session,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "%" PRIu64 " record came after the log was closed (another CPU’s buffer); it is kept",
                                        "%" PRIu64 " records came after the log was closed (other CPUs’ buffers); they are kept",
                                        self->n_after_close),
                           self->n_after_close);

  for (guint i = 0; i < self->image_list->len; i++)
    {
      Image *image = g_ptr_array_index (self->image_list, i);

      if (image->samples_affected == 0 || image->missing == NULL)
        continue;
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PMCLOG-NO-SYMBOLS", 0, PS_NO_POSITION,
                             self->session,
                             /* Translators: %s is a file, then the reason, then a count and a percentage */
                             g_dngettext (GETTEXT_PACKAGE,
                                          "No function names for %s (%s): %" PRIu64 " sample (%.1f %%) has frames in it",
                                          "No function names for %s (%s): %" PRIu64 " samples (%.1f %%) have frames in it",
                                          image->samples_affected),
                             image->path, image->missing, image->samples_affected,
                             100.0 * image->samples_affected / MAX (self->n_samples, 1));
    }
  set_metadata_u64 (self, "samples_with_unresolved_frames", FALSE, self->n_samples_unresolved);

  if (self->n_samples_unmapped > 0)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PMCLOG-UNMAPPED", 0, PS_NO_POSITION,
                           self->session,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "%" PRIu64 " sample (%.1f %%) has addresses outside every mapping the log announced; they show as [kernel] or [unknown]",
                                        "%" PRIu64 " samples (%.1f %%) have addresses outside every mapping the log announced; they show as [kernel] or [unknown]",
                                        self->n_samples_unmapped),
                           self->n_samples_unmapped, 100.0 * self->n_samples_unmapped / MAX (self->n_samples, 1));
}

/* --- The parser -------------------------------------------------------------- */

static gboolean
pmclog_start (PmclogParser *self)
{
  PsPmclogOptions options = { 0 };
  PsPmclogCallbacks callbacks = { record_cb, warning_cb };
  const char *width = ps_parser_get_option (&self->parent, "address-width");
  const char *sysroot = ps_parser_get_option (&self->parent, "sysroot");

  if (width != NULL)
    options.address_width = (guint)g_ascii_strtoull (width, NULL, 10);
  if (options.address_width != 4 && options.address_width != 8)
    options.address_width = 0;
  options.resync = g_strcmp0 (ps_parser_get_option (&self->parent, "resync"), "true") == 0;

  if (sysroot != NULL && sysroot[0] != '\0')
    {
      self->sysroot = g_strdup (sysroot);
      self->resolver = ps_symbol_resolver_new (sysroot);
    }

  self->session = ps_event_store_add_session (self->store, 0, FALSE);
  self->kernel_frame = ps_event_store_intern_frame (self->store, ps_event_store_intern (self->store, "[kernel]", -1), 0, 0);
  self->unknown_frame = ps_event_store_intern_frame (self->store, ps_event_store_intern (self->store, "[unknown]", -1), 0, 0);
  self->reader = ps_pmclog_reader_new (&options, &callbacks, self);
  return TRUE;
}

static gboolean
pmclog_feed (PsParser      *parser,
             const guint8  *data,
             gsize          length,
             GError       **error)
{
  PmclogParser *self = (PmclogParser *)parser;

  if (self->reader == NULL)
    pmclog_start (self);
  if (self->failed)
    return FALSE;
  if (!ps_pmclog_reader_feed (self->reader, data, length, error))
    {
      self->failed = TRUE;
      batch_flush (self);
      finish_model (self);
      return FALSE;
    }
  /* What was fed is in the store when the feed returns (a live log is
   * fed as it comes) */
  batch_flush (self);
  return TRUE;
}

static gboolean
pmclog_finish (PsParser  *parser,
               GError   **error)
{
  PmclogParser *self = (PmclogParser *)parser;
  gboolean ok;

  if (self->reader == NULL)
    pmclog_start (self);
  if (self->failed)
    return FALSE;

  ok = ps_pmclog_reader_finish (self->reader, error);
  batch_flush (self);
  finish_model (self);
  ps_event_store_set_session_end (self->store, self->session, 0);
  return ok;
}

static void
pmclog_free (PsParser *parser)
{
  PmclogParser *self = (PmclogParser *)parser;

  g_clear_pointer (&self->reader, ps_pmclog_reader_free);
  g_clear_pointer (&self->images, g_hash_table_unref);
  g_clear_pointer (&self->image_list, g_ptr_array_unref);
  g_clear_pointer (&self->processes, g_hash_table_unref);
  g_clear_pointer (&self->process_list, g_ptr_array_unref);
  g_clear_pointer (&self->threads, g_hash_table_unref);
  g_clear_pointer (&self->thread_list, g_ptr_array_unref);
  g_clear_pointer (&self->pmcs, g_hash_table_unref);
  g_clear_pointer (&self->unknown_pmcs, g_hash_table_unref);
  g_clear_pointer (&self->resolver, ps_symbol_resolver_free);
  g_clear_pointer (&self->cache, g_free);
  g_clear_pointer (&self->chain_nodes, g_free);
  g_clear_pointer (&self->chain_paths, g_free);
  g_clear_pointer (&self->chain_index, g_free);
  g_clear_pointer (&self->chain_pcs, g_array_unref);
  g_clear_pointer (&self->callers, g_array_unref);
  g_clear_pointer (&self->caller_index, g_free);
  g_clear_pointer (&self->caller_arena, g_array_unref);
  g_clear_pointer (&self->caller_seen, g_free);
  g_clear_pointer (&self->batch_pcs, g_array_unref);
  g_clear_pointer (&self->marks, g_array_unref);
  g_clear_pointer (&self->sysroot, g_free);
  g_free (self);
}

static const PsParserClass pmclog_parser_class = {
  pmclog_feed,
  pmclog_finish,
  pmclog_free,
};

static PsParser *
pmclog_parser_new (PsStoreBuilder *builder)
{
  PmclogParser *self = g_new0 (PmclogParser, 1);

  self->parent.klass = &pmclog_parser_class;
  self->parent.builder = builder;
  self->store = ps_store_builder_get_store (builder);
  self->images = g_hash_table_new (g_str_hash, g_str_equal);
  self->image_list = g_ptr_array_new_with_free_func (image_free);
  self->processes = g_hash_table_new (NULL, NULL);
  /* The owner of every list entry; the tables only point into it */
  self->process_list = g_ptr_array_new_with_free_func (process_free);
  self->threads = g_hash_table_new (NULL, NULL);
  self->thread_list = g_ptr_array_new_with_free_func (thread_free);
  self->pmcs = g_hash_table_new (NULL, NULL);
  self->unknown_pmcs = g_hash_table_new (NULL, NULL);
  self->cache = g_new0 (CacheEntry, FRAME_CACHE_SIZE);
  self->chain_index = g_new0 (ChainSlot, CHAIN_INDEX_MIN_SIZE);
  self->chain_mask = CHAIN_INDEX_MIN_SIZE - 1;
  self->chain_nodes_size = CHAIN_INDEX_MIN_SIZE;
  self->chain_nodes = g_new (ChainNode, self->chain_nodes_size);
  self->chain_paths = g_new (guint32, self->chain_nodes_size);
  self->chain_paths[0] = 0;
  self->chain_n_nodes = 1;
  self->chain_pcs = g_array_new (FALSE, FALSE, sizeof (ChainPc));
  self->callers = g_array_new (FALSE, FALSE, sizeof (CallerChain));
  self->caller_index = g_new0 (ChainSlot, CHAIN_INDEX_MIN_SIZE);
  self->caller_mask = CHAIN_INDEX_MIN_SIZE - 1;
  self->caller_arena = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->caller_seen = g_new0 (guint32, 1u << CALLER_SEEN_BITS);
  self->batch_pcs = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->marks = g_array_new (FALSE, FALSE, sizeof (PendingMark));

  /* The kernel: every pid −1 mapping (§8.1) */
  self->kernel = g_new0 (Process, 1);
  self->kernel->pid = PS_PMCLOG_KERNEL_PID;
  self->kernel->slot = 0;
  self->kernel->track = PS_NONE;
  self->kernel->maps = g_array_new (FALSE, FALSE, sizeof (Map));
  g_ptr_array_add (self->process_list, self->kernel);

  return &self->parent;
}

static guint
pmclog_sniff (const guint8 *data,
              gsize         length,
              const char   *file_name)
{
  return ps_pmclog_sniff (data, length);
}

static const char * const pmclog_extensions[] = { "pmclog", "pmc", "out", NULL };
static const char * const pmclog_mime_types[] = { "application/x-hwpmc-log", NULL };

const PsFormat ps_format_hwpmc_pmclog = {
  "hwpmc-pmclog",
  N_("FreeBSD hwpmc log"),
  N_("Binary event logs of FreeBSD’s hwpmc(4) (pmcstat -O, pmc record): samples with call chains, "
     "processes, threads and mappings, from FreeBSD 6 to 16, on any host"),
  pmclog_extensions,
  pmclog_mime_types,
  pmclog_sniff,
  pmclog_parser_new,
};

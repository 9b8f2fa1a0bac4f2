/* ps-format-hwpmc-model.c — the machine an hwpmc log describes: images,
 * processes, threads, maps, frames and call chains
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.1 (processes and images) and §8.2 (what each
 * record does to them).
 *
 * The records that ps-format-hwpmc-pmclog.c reads keep this model up to
 * date; a call chain's pcs are resolved against it, innermost first, and
 * stored once per distinct chain in a trie whose nodes are found again by
 * (parent, pc).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format-hwpmc-pmclog-private.h"
#include "ps-util.h"

/* --- Images, processes, threads ------------------------------------------- */

void
hwpmc_image_free (gpointer data)
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

void
hwpmc_process_free (gpointer data)
{
  Process *process = data;

  g_array_unref (process->maps);
  g_free (process->name);
  g_free (process);
}

Process *
hwpmc_get_process (PmclogParser *self,
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

void
hwpmc_lifespan_saw (Lifespan *life,
                    gint64    time_ns)
{
  if (!life->seen || time_ns < life->first_ns)
    life->first_ns = time_ns;
  if (!life->seen || time_ns > life->last_ns)
    life->last_ns = time_ns;
  life->seen = TRUE;
}

void
hwpmc_lifespan_end (Lifespan *life,
                    gint64    time_ns)
{
  life->exited = TRUE;
  life->exit_ns = time_ns;
  hwpmc_lifespan_saw (life, time_ns);
}

guint32
hwpmc_process_track (PmclogParser *self,
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

void
hwpmc_thread_free (gpointer data)
{
  Thread *thread = data;

  g_free (thread->name);
  g_free (thread);
}

Thread *
hwpmc_get_thread (PmclogParser *self,
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

guint32
hwpmc_thread_track (PmclogParser *self,
                    Thread       *thread)
{
  if (thread->track == PS_NONE)
    {
      PsTrack track = { 0 };
      Process *process = hwpmc_get_process (self, thread->pid);
      g_autofree char *name = g_strdup_printf ("%u", thread->tid);

      track.name = ps_event_store_intern (self->store, name, -1);
      track.parent = hwpmc_process_track (self, process);
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
void
hwpmc_unmap_range (Process *process,
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
void
hwpmc_link_image (PmclogParser *self,
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
    hwpmc_unmap_range (process, map.start, map.end);

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
void
hwpmc_exec_image (PmclogParser         *self,
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
      hwpmc_link_image (self, process, path, record->u.procexec.dyn, TRUE);
      if (record->u.procexec.base != 0)
        hwpmc_link_image (self, process, interpreter != NULL ? interpreter : "/libexec/ld-elf.so.1",
                          record->u.procexec.base, FALSE);
    }
  else
    {
      /* Before: the executable at its own link address; the run-time
       * linker where the entry address says */
      hwpmc_link_image (self, process, path, 0, TRUE);
      if (interpreter != NULL)
        {
          Image *rtld = get_image (self, interpreter);

          if (rtld->elf != NULL && record->u.procexec.base >= ps_elf_image_get_entry (rtld->elf))
            hwpmc_link_image (self, process, interpreter,
                              record->u.procexec.base - ps_elf_image_get_entry (rtld->elf)
                              + ps_elf_image_get_vaddr (rtld->elf), FALSE);
        }
    }
}

/* --- Frames ------------------------------------------------------------------- */

/* The frame of a pc in a process; FALSE when no mapping has it */
static gboolean
resolve_pc (PmclogParser *self,
            Process      *process,
            guint64       pc,
            guint32      *frame,
            Image       **unresolved)
{
  const Map *map = find_map (process, pc);
  CacheEntry *entry;
  guint64 address;
  guint64 symbol_start = 0;
  const char *name = NULL;

  if (map == NULL)
    return FALSE;

  address = pc - map->bias;
  entry = &self->cache[cache_slot (address, map->image->index)];
  if (entry->address == address && entry->image >> 1 == map->image->index + 1)
    {
      *frame = entry->frame;
      *unresolved = entry->image & 1 ? map->image : NULL;
      return TRUE;
    }

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

  entry->address = address;
  entry->image = (map->image->index + 1) << 1 | (*unresolved != NULL);
  entry->frame = *frame;
  return TRUE;
}

/* Asks for the cache entry of a pc ahead of its resolve_pc () */
void
hwpmc_prefetch_frame (PmclogParser *self,
                      Process      *process,
                      guint64       pc)
{
  const Map *map = find_map (process, pc);

  if (map != NULL)
    __builtin_prefetch (&self->cache[cache_slot (pc - map->bias, map->image->index)]);
}

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

/* The index slot of the child of parent for a pc in a context, or the
 * free slot where it goes */
static inline ChainSlot *
chain_index_slot (PmclogParser *self,
                  guint32       parent,
                  guint64       pc,
                  guint32       context)
{
  guint32 tag = chain_tag (chain_hash (parent, pc, context));

  for (guint32 k = tag & self->chain_mask;; k = (k + 1) & self->chain_mask)
    {
      ChainSlot *slot = &self->chain_index[k];

      if (slot->node == 0
          || (slot->tag == tag && chain_node_is (&self->chain_nodes[slot->node], parent, pc, context)))
        return slot;
    }
}

/* The free slot where a child of parent that is known to be new goes */
static inline ChainSlot *
chain_index_free_slot (PmclogParser *self,
                       guint32       parent,
                       guint64       pc,
                       guint32       context)
{
  guint32 k = chain_tag (chain_hash (parent, pc, context)) & self->chain_mask;

  while (self->chain_index[k].node != 0)
    k = (k + 1) & self->chain_mask;
  return &self->chain_index[k];
}

/* Doubles the index: its slots are read in order, and each key goes to
 * its home slot in the new one (from its tag) or just after, so the
 * writes too go forward, in two streams, and no node is read */
static void
chain_index_grow (PmclogParser *self)
{
  const ChainSlot *old = self->chain_index;
  guint32 old_size = self->chain_mask + 1;
  guint32 size = old_size * 2;

  /* Every page is written: faulted in at once */
  self->chain_index = ps_util_alloc_filled ((gsize)size * sizeof (ChainSlot), TRUE);
  self->chain_mask = size - 1;
  for (guint32 i = 0; i < old_size; i++)
    {
      guint32 k;

      if (old[i].node == 0)
        continue;
      for (k = old[i].tag & self->chain_mask; self->chain_index[k].node != 0; k = (k + 1) & self->chain_mask)
        ;
      self->chain_index[k] = old[i];
    }
  g_free ((gpointer)old);
}

/* Empties the index, and forgets the caller chains: they lead to nodes
 * that are gone or renumbered */
static void
chain_forget (PmclogParser *self)
{
  memset (self->chain_index, 0, ((gsize)self->chain_mask + 1) * sizeof (ChainSlot));
  self->trie_epoch++;
  memset (self->caller_index, 0, ((gsize)self->caller_mask + 1) * sizeof (ChainSlot));
  g_array_set_size (self->callers, 0);
  g_array_set_size (self->caller_arena, 0);
}

/* Forgets every node */
static void
chain_clear (PmclogParser *self)
{
  chain_forget (self);
  self->chain_n_nodes = 1;
  for (guint i = 0; i < self->process_list->len; i++)
    ((Process *)g_ptr_array_index (self->process_list, i))->chain_root = 0;
}

/* Starts the trie over, keeping the paths to the nodes that samples
 * found again since it last started over (the hot prefixes of a
 * profile), renumbered in their order, so that their chains are not
 * walked, resolved and interned again; what the other nodes led to stays
 * in the store. Forgets every node when those paths are more than half
 * of the trie. */
static void
chain_start_over (PmclogParser *self)
{
  ChainNode *nodes = self->chain_nodes;
  guint32 n_nodes = self->chain_n_nodes;
  /* The index is made again: meanwhile it holds the nodes' new ids (it
   * has more than twice the bytes they take) */
  guint32 *new_id = (guint32 *)(gpointer)self->chain_index;
  guint32 n_kept = 1;

  /* A node kept keeps its parent, which comes before it */
  for (guint32 id = n_nodes - 1; id > 0; id--)
    if ((nodes[id].info & CHAIN_INFO_FOUND) && nodes[id].parent != 0)
      nodes[nodes[id].parent].info |= CHAIN_INFO_FOUND;
  new_id[0] = 0;
  for (guint32 id = 1; id < n_nodes; id++)
    new_id[id] = nodes[id].info & CHAIN_INFO_FOUND ? n_kept++ : 0;
  if (n_kept > self->chain_max_nodes / 2)
    {
      chain_clear (self);
      return;
    }

  for (guint i = 0; i < self->process_list->len; i++)
    {
      Process *process = g_ptr_array_index (self->process_list, i);

      process->chain_root = process->chain_root < n_nodes ? new_id[process->chain_root] : 0;
    }
  /* Forward: a node moves down or stays, and its hint (a child, after
   * it) has its new id already */
  for (guint32 id = 1; id < n_nodes; id++)
    {
      ChainNode node = nodes[id];
      guint32 to = new_id[id];

      if (to == 0)
        continue;
      node.parent = new_id[node.parent];
      node.hint = new_id[node.hint];
      node.info &= ~CHAIN_INFO_FOUND;
      nodes[to] = node;
      self->chain_paths[to] = self->chain_paths[id];
    }

  chain_forget (self);
  self->chain_n_nodes = n_kept;
  for (guint32 id = 1; id < n_kept; id++)
    if (nodes[id].parent != 0)
      *chain_index_free_slot (self, nodes[id].parent, nodes[id].pc, nodes[id].info & CHAIN_INFO_KERNEL)
        = (ChainSlot) { id, chain_tag (chain_hash (nodes[id].parent, nodes[id].pc, nodes[id].info & CHAIN_INFO_KERNEL)) };
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
      /* Up to the most nodes the trie holds and what one sample adds
       * to them, not to the next power of two (hwpmc_chain_root ()) */
      guint32 size = MIN (self->chain_nodes_size * 2, self->chain_max_nodes + G_MAXUINT16 + 1);

      self->chain_nodes_size = size > self->chain_n_nodes ? size : self->chain_nodes_size * 2;
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
 * at its most nodes (CHAIN_MAX_NODES), keeping what samples found again. */
guint32
hwpmc_chain_root (PmclogParser *self,
                  Process      *process)
{
  if (G_UNLIKELY (self->chain_n_nodes >= self->chain_max_nodes))
    chain_start_over (self);
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
guint
hwpmc_chain_first_user (PmclogParser         *self,
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
        __builtin_prefetch (&self->chain_index[chain_tag (chain_hash (parent, pcs[i - 1],
                                                                      i - 1 < first_user ? CHAIN_INFO_KERNEL : 0))
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
    first_user = hwpmc_chain_first_user (self, record, process);

  root = parent = hwpmc_chain_root (self, process);
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
                  /* Where the chain leaves the trie: its path is kept
                   * when the trie starts over */
                  self->chain_nodes[parent].info |= CHAIN_INFO_FOUND;
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
              slot->tag = chain_tag (chain_hash (parent, pc, context));
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

  /* The whole chain was there */
  if (resolved == NULL)
    self->chain_nodes[parent].info |= CHAIN_INFO_FOUND;

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

void
hwpmc_add_callchain (PmclogParser         *self,
                     const PsPmclogRecord *record,
                     const PendingChain   *pending)
{
  gint64 time_ns = hwpmc_record_time_ns (self, record);
  guint32 pid = record->u.callchain.pid;
  guint32 tid = record->u.callchain.tid;
  gboolean user = (record->u.callchain.cpuflags & PS_PMCLOG_CC_USER) != 0;
  Process *process = hwpmc_get_process (self, pid);
  PsSample sample = { 0 };
  guint32 parent;

  if (!g_hash_table_contains (self->pmcs, GUINT_TO_POINTER (record->u.callchain.pmcid))
      && !g_hash_table_contains (self->unknown_pmcs, GUINT_TO_POINTER (record->u.callchain.pmcid)))
    {
      g_hash_table_add (self->unknown_pmcs, GUINT_TO_POINTER (record->u.callchain.pmcid));
      ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMCLOG-UNKNOWN-PMC", record->offset,
                               /* Translators: a PMC is a performance-monitoring counter */
                               _("A sample names PMC 0x%08x, which the log never allocated; its samples are shown under that number"),
                               record->u.callchain.pmcid);
    }

  parent = callchain_stack (self, record, process, pending);

  hwpmc_lifespan_saw (&process->life, time_ns);
  if (tid != PS_PMCLOG_NO_TID && pid != PS_PMCLOG_KERNEL_PID)
    {
      Thread *thread = hwpmc_get_thread (self, tid, pid);

      hwpmc_lifespan_saw (&thread->life, time_ns);
      sample.track = hwpmc_thread_track (self, thread);
    }
  else
    sample.track = hwpmc_process_track (self, process);

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

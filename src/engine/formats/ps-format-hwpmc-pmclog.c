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
 *
 * This file reads the records, batches the call chains and ends the log;
 * the model of the machine they describe (images, processes, threads,
 * maps, frames and the trie of call chains) is ps-format-hwpmc-model.c.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format-hwpmc-pmclog-private.h"
#include "ps-util.h"

/* --- Time ------------------------------------------------------------------ */

/* ns since INITIALIZE; the product would overflow 64 bits after a few
 * seconds at GHz rates, so quotient and remainder go separately (§5.1) */
gint64
hwpmc_record_time_ns (PmclogParser         *self,
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

/* --- Records ------------------------------------------------------------------ */

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
          if (chain->candidate != 0 && chain->candidate == chain->parent + 1 && chain->candidate < chain->run_end)
            {
              /* Within a run of consecutive nodes (below) */
              chain->run_end = chain->candidate + MIN (chain->level, PROBE_RUN_AHEAD);
              __builtin_prefetch (&self->chain_nodes[chain->run_end]);
              chain->slot_asked = FALSE;
              chain->phase = PROBE_HINT;
              continue;
            }
          pc = pcs[chain->level - 1];
          context = chain->level - 1 < chain->first_user ? CHAIN_INFO_KERNEL : 0;
          chain->slot = chain_tag (chain_hash (chain->parent, pc, context)) & self->chain_mask;
          /* The index slot is asked for with the hint: where the hint is
           * wrong (a branch the last walk did not take), the slot is
           * there when the hint is read */
          __builtin_prefetch (&self->chain_index[chain->slot]);
          if (chain->candidate != 0)
            {
              chain->slot_asked = TRUE;
              chain->phase = PROBE_HINT;
              if (chain->candidate == chain->parent + 1)
                {
                  /* A tail is made node after node, so a hint mostly
                   * leads to the next node: a run of them is read in
                   * place, its nodes asked for PROBE_RUN_AHEAD ahead,
                   * and the walk passes to another chain only where the
                   * run begins */
                  const char *first = (const char *)&self->chain_nodes[chain->candidate];
                  const char *last;

                  chain->run_end = chain->candidate + MIN (chain->level, PROBE_RUN_AHEAD);
                  last = (const char *)&self->chain_nodes[chain->run_end];
                  for (const char *line = first; line < last; line += 64)
                    __builtin_prefetch (line);
                  __builtin_prefetch (last);
                  return TRUE;
                }
              __builtin_prefetch (&self->chain_nodes[chain->candidate]);
              return TRUE;
            }
          chain->phase = PROBE_SLOT;
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
              chain->phase = PROBE_SLOT;
              if (chain->slot_asked)
                continue;
              chain->slot = chain_tag (chain_hash (chain->parent, pc, context)) & self->chain_mask;
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
                  hwpmc_prefetch_frame (self, j < chain->first_user ? self->kernel : chain->process, pcs[j]);
                /* What the path to the new tail passes */
                __builtin_prefetch (&self->chain_paths[chain->parent]);
                chain->phase = PROBE_DONE;
                return FALSE;
              }
            pc = pcs[chain->level - 1];
            context = chain->level - 1 < chain->first_user ? CHAIN_INFO_KERNEL : 0;
            if (slot->tag == chain_tag (chain_hash (chain->parent, pc, context)))
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
      chain->first_user = hwpmc_chain_first_user (self, record, process);
      chain->root = chain->parent = process->chain_root;
      chain->level = n_pcs;
      chain->found = chain->root;
      chain->found_level = n_pcs;
      chain->run_end = 0;
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
    hwpmc_add_callchain (self, &self->batch[b].record, &self->batch[b]);
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
  PendingMark mark = { hwpmc_record_time_ns (self, record), record->offset, track,
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
      ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMCLOG-REINIT", record->offset,
                               _("A second INITIALIZE record; times stay relative to the first"));
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
          ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_INFO, "I-PMCLOG-NO-FREQUENCY", record->offset,
                                   _("The log does not give its clock frequency (not an x86 machine): times are in raw clock ticks"));
        }
      else
        ps_event_store_set_metadata (self->store, self->session, "time_unit", "ns");
    }
  else
    ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_INFO, "I-PMCLOG-COARSE-TIME", record->offset,
                             _("Logs of FreeBSD 11 and older have coarse timestamps (one clock tick, 1–10 ms), and their fractions of a second above 0.27 s are scrambled by the kernel"));

  if (record->u.initialize.has_wallclock)
    {
      gint64 origin_ns;

      if (ps_util_unix_ns (record->u.initialize.wall_seconds, record->u.initialize.wall_nanoseconds, &origin_ns))
        ps_event_store_set_session_origin (self->store, self->session, origin_ns);
      else
        ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMCLOG-BAD-WALLCLOCK", record->offset,
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
      hwpmc_link_image (self, hwpmc_get_process (self, record->u.map_in.pid), record->u.map_in.path,
                        record->u.map_in.start, FALSE);
      break;

    case PS_PMCLOG_MAP_OUT:
      if (record->u.map_out.start < record->u.map_out.end)
        hwpmc_unmap_range (hwpmc_get_process (self, record->u.map_out.pid), record->u.map_out.start, record->u.map_out.end);
      break;

    case PS_PMCLOG_PMCALLOCATE:
    case PS_PMCLOG_PMCALLOCATEDYN:
      allocate_pmc (self, record);
      break;

    case PS_PMCLOG_PROCEXEC:
      {
        Process *process = hwpmc_get_process (self, record->u.procexec.pid);

        hwpmc_exec_image (self, process, record);
        hwpmc_lifespan_saw (&process->life, hwpmc_record_time_ns (self, record));
        /* Translators: a process ran a new program; %s is its path */
        g_snprintf (text, sizeof text, _("exec %s"), record->u.procexec.path);
        add_mark (self, record, hwpmc_process_track (self, process), text);
      }
      break;

    case PS_PMCLOG_PROCFORK:
      {
        Process *parent = hwpmc_get_process (self, record->u.procfork.old_pid);
        Process *child = hwpmc_get_process (self, record->u.procfork.new_pid);
        gint64 time_ns = hwpmc_record_time_ns (self, record);

        if (child != parent)
          {
            g_array_set_size (child->maps, 0);
            g_array_append_vals (child->maps, parent->maps->data, parent->maps->len);
            child->generation++;
            if (child->name == NULL && parent->name != NULL)
              child->name = g_strdup (parent->name);
          }
        hwpmc_lifespan_saw (&parent->life, time_ns);
        hwpmc_lifespan_saw (&child->life, time_ns);
        /* Translators: %u is a process id */
        g_snprintf (text, sizeof text, _("fork: new process %u"), record->u.procfork.new_pid);
        add_mark (self, record, hwpmc_process_track (self, parent), text);
      }
      break;

    case PS_PMCLOG_PROCEXIT:
    case PS_PMCLOG_SYSEXIT:
      {
        guint32 pid = record->type == PS_PMCLOG_SYSEXIT ? record->u.sysexit.pid : record->u.procexit.pid;
        Process *process = hwpmc_get_process (self, pid);

        hwpmc_lifespan_end (&process->life, hwpmc_record_time_ns (self, record));
      }
      break;

    case PS_PMCLOG_PROC_CREATE:
      {
        Process *process = hwpmc_get_process (self, record->u.thread.pid);

        if (record->u.thread.name != NULL && record->u.thread.name[0] != '\0')
          {
            g_free (process->name);
            process->name = g_strdup (record->u.thread.name);
          }
        hwpmc_lifespan_saw (&process->life, hwpmc_record_time_ns (self, record));
      }
      break;

    case PS_PMCLOG_THR_CREATE:
      {
        Thread *thread = hwpmc_get_thread (self, record->u.thread.tid, record->u.thread.pid);

        if (record->u.thread.name != NULL && record->u.thread.name[0] != '\0')
          {
            g_free (thread->name);
            thread->name = g_strdup (record->u.thread.name);
          }
        hwpmc_lifespan_saw (&thread->life, hwpmc_record_time_ns (self, record));
      }
      break;

    case PS_PMCLOG_THR_EXIT:
      {
        Thread *thread = g_hash_table_lookup (self->threads, GUINT_TO_POINTER (record->u.thread.tid));

        if (thread != NULL)
          {
            hwpmc_lifespan_end (&thread->life, hwpmc_record_time_ns (self, record));
          }
      }
      break;

    case PS_PMCLOG_PROCCSW:
      {
        Process *process = hwpmc_get_process (self, record->u.proccsw.pid);
        guint32 track;

        if (record->u.proccsw.tid != PS_PMCLOG_NO_TID)
          {
            Thread *thread = hwpmc_get_thread (self, record->u.proccsw.tid, record->u.proccsw.pid);

            hwpmc_lifespan_saw (&thread->life, hwpmc_record_time_ns (self, record));
            track = hwpmc_thread_track (self, thread);
          }
        else
          track = hwpmc_process_track (self, process);
        hwpmc_lifespan_saw (&process->life, hwpmc_record_time_ns (self, record));
        /* Translators: a context switch; %s is the count of the PMC's events during the time slice */
        g_snprintf (text, sizeof text, _("switched out after %" PRIu64 " events"), record->u.proccsw.value);
        add_mark (self, record, track, text);
      }
      break;

    case PS_PMCLOG_USERDATA:
      /* Translators: a marker the profiled program wrote into the log */
      g_snprintf (text, sizeof text, _("user data 0x%08x"), record->u.userdata.value);
      add_mark (self, record, hwpmc_process_track (self, self->kernel), text);
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
  ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_WARNING, code, offset, "%s", message);
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
      Process *process = hwpmc_get_process (self, thread->pid);
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
    ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMCLOG-DROPPED", PS_NO_POSITION,
                             g_dngettext (GETTEXT_PACKAGE,
                                          "The kernel dropped samples %" PRIu64 " time: its buffers were full, so at least that many samples are missing",
                                          "The kernel dropped samples %" PRIu64 " times: its buffers were full, so at least that many samples are missing",
                                          self->n_drop_notices),
                             self->n_drop_notices);
  if (self->n_after_close > 0)
    ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_INFO, "I-PMCLOG-AFTER-CLOSE", PS_NO_POSITION,
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
      ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMCLOG-NO-SYMBOLS", PS_NO_POSITION,
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
    ps_parse_warn_at_offset (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PMCLOG-UNMAPPED", PS_NO_POSITION,
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
  const char *trie_nodes = ps_parser_get_option (&self->parent, "chain-trie-nodes");

  if (width != NULL)
    options.address_width = (guint)g_ascii_strtoull (width, NULL, 10);
  if (options.address_width != 4 && options.address_width != 8)
    options.address_width = 0;
  options.resync = g_strcmp0 (ps_parser_get_option (&self->parent, "resync"), "true") == 0;
  if (trie_nodes != NULL)
    self->chain_max_nodes = (guint32)CLAMP (g_ascii_strtoull (trie_nodes, NULL, 10), 2, CHAIN_MAX_NODES);

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
  self->image_list = g_ptr_array_new_with_free_func (hwpmc_image_free);
  self->processes = g_hash_table_new (NULL, NULL);
  /* The owner of every list entry; the tables only point into it */
  self->process_list = g_ptr_array_new_with_free_func (hwpmc_process_free);
  self->threads = g_hash_table_new (NULL, NULL);
  self->thread_list = g_ptr_array_new_with_free_func (hwpmc_thread_free);
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
  self->chain_max_nodes = CHAIN_MAX_NODES;
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

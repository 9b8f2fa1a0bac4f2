/* gen-hwpmc-pmclog.c — writes constructed FreeBSD hwpmc logs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §4 (modern amd64 records), §9.4 (what a
 * system-wide sampling session writes).
 *
 * The output imitates `pmcstat -S CLOCK.HARD -S cycles -O file` with
 * callchains on an 8-CPU amd64 machine running FreeBSD 14: INITIALIZE,
 * the PMCs of every CPU, the kernel and its modules mapped, a few dozen
 * processes with threads, their programs and libraries, then CALLCHAIN
 * records of depth 1–64 (uniform), a fifth of them in kernel mode with
 * the thread's user frames after the kernel ones, and now and then a
 * short-lived process (fork, exec, exit) and a context switch. Each
 * program has a few hundred hot paths, walks 64 calls deep down a fixed
 * synthetic call graph; a sample takes one of them (the first ones far
 * more often) cut at its depth, so stacks repeat the way real profiles do,
 * and the sampled pc varies within its function. Records go through the tests' pmclog writer
 * (tests/pmclog-writer.c), in batches.
 *
 * Used by bench/run-pmclog-bench. The output depends only on the options.
 */
#include "gen-common.h"

#include "pmclog-writer.h"

#define N_CPUS          8
#define N_PROCESSES     48
#define N_MODULES       6      /* per process: the program and five libraries */
#define N_FUNCTIONS     1500   /* per module */
#define N_CALLEES       4
#define MAX_DEPTH       64
#define KERNEL_FUNCTIONS 4000
#define BATCH_BYTES     (8u * 1024u * 1024u)
#define N_HOT_PATHS     400    /* per process */

#define TSC_FREQ        G_GUINT64_CONSTANT (3000000000)
#define KERNEL_BASE     G_GUINT64_CONSTANT (0xffffffff80200000)
#define PMC_CLOCK(cpu)  (((guint32)(cpu) << 20) | 0x00000400u)
#define PMC_CYCLES(cpu) (((guint32)(cpu) << 20) | 0x00000200u)

static const char * const library_paths[N_MODULES - 1] = {
  "/lib/libc.so.7", "/lib/libthr.so.3", "/lib/libm.so.5",
  "/usr/lib/libc++.so.1", "/usr/local/lib/libglib-2.0.so.0",
};

static const char * const program_names[] = {
  "nginx", "postgres", "clang", "make", "sh", "python3.11", "rustc", "sshd",
};

typedef struct
{
  guint32 pid;
  guint32 first_tid;
  guint   n_threads;
  guint64 module_base[N_MODULES];
  guint32 (*hot_paths)[MAX_DEPTH]; /* N_HOT_PATHS walks: (module, function) packed */
} Process;

typedef struct
{
  Rng             rng;
  FILE           *out;
  PsPmclogWriter *writer;
  guint64         written;
  guint64         tsc;
  guint64         samples;
  Process         processes[N_PROCESSES];
  /* The call graph: function f of module m calls callees[m][f][0..3],
   * each a (module, function) pair packed as module * N_FUNCTIONS + f */
  guint32         callees[N_MODULES][N_FUNCTIONS][N_CALLEES];
  guint32         kernel_callees[KERNEL_FUNCTIONS][N_CALLEES];
  guint32         next_pid;
} Generator;

static void
flush_batch (Generator *gen,
             gboolean   force)
{
  gsize length;
  const guint8 *data = ps_pmclog_writer_peek (gen->writer, &length);

  if (!force && length < BATCH_BYTES)
    return;
  if (length > 0 && fwrite (data, 1, length, gen->out) != length)
    writer_fail ();
  gen->written += length;
  ps_pmclog_writer_free (gen->writer);
  gen->writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000);
}

/* Callee choices lean to the first: the usual paths dominate */
static inline guint
pick_callee (Generator *gen)
{
  guint64 r = rng_next (&gen->rng);

  if ((r & 1) == 0)
    return 0;
  if ((r & 6) != 6)
    return 1;
  return 2 + ((r >> 3) & 1);
}

/* Functions are 256 bytes apart; return addresses sit inside the caller at
 * a place fixed by which callee it calls */
static inline guint64
function_address (guint64 base,
                  guint32 function)
{
  return base + 0x1000 + (guint64)function * 256;
}

static void
start_process (Generator *gen,
               Process   *process,
               guint32    pid,
               guint      n_threads)
{
  const char *name = program_names[pid % G_N_ELEMENTS (program_names)];
  char path[64];

  process->pid = pid;
  if (process->hot_paths == NULL)
    {
      process->hot_paths = g_malloc (sizeof (guint32) * N_HOT_PATHS * MAX_DEPTH);
      for (guint p = 0; p < N_HOT_PATHS; p++)
        {
          guint32 node = 0;  /* main */

          for (guint d = 0; d < MAX_DEPTH; d++)
            {
              process->hot_paths[p][d] = node;
              node = gen->callees[node / N_FUNCTIONS][node % N_FUNCTIONS][pick_callee (gen)];
            }
        }
    }
  process->first_tid = 100000 + pid * 100;
  process->n_threads = n_threads;
  g_snprintf (path, sizeof path, "/usr/local/bin/%s", name);

  ps_pmclog_writer_proc_create (gen->writer, gen->tsc, pid, 0, name);
  for (guint t = 0; t < n_threads; t++)
    ps_pmclog_writer_thr_create (gen->writer, gen->tsc, process->first_tid + t, pid, 0, name);
  /* A PIE program, the run-time linker at AT_BASE */
  process->module_base[0] = G_GUINT64_CONSTANT (0x200000) + ((guint64)pid << 24);
  ps_pmclog_writer_procexec (gen->writer, gen->tsc, pid, 0xFFFFFFFF, G_GUINT64_CONSTANT (0x800200000),
                             process->module_base[0], path);
  for (guint m = 1; m < N_MODULES; m++)
    {
      process->module_base[m] = G_GUINT64_CONSTANT (0x800400000) + (guint64)m * 0x1000000;
      ps_pmclog_writer_map_in (gen->writer, gen->tsc, pid, process->module_base[m] + 0x1000, library_paths[m - 1]);
    }
}

static void
write_prologue (Generator *gen)
{
  ps_pmclog_writer_initialize (gen->writer, gen->tsc, 0x99, TSC_FREQ, 1763900000, 123456789, "GenuineIntel-6-85-7");
  for (guint cpu = 0; cpu < N_CPUS; cpu++)
    {
      ps_pmclog_writer_pmcallocatedyn (gen->writer, gen->tsc, PMC_CLOCK (cpu), 0x1000, 0x80, 0, "CLOCK.HARD");
      ps_pmclog_writer_pmcallocate (gen->writer, gen->tsc, PMC_CYCLES (cpu), 0x0003c, 0x80 | 0x100, 65536);
    }
  ps_pmclog_writer_map_in (gen->writer, gen->tsc, G_MAXUINT32, KERNEL_BASE, "/boot/kernel/kernel");
  for (guint k = 0; k < 10; k++)
    {
      static const char * const modules[] = { "zfs.ko", "if_em.ko", "nvme.ko", "linux64.ko", "tmpfs.ko",
                                              "pf.ko", "vmm.ko", "acpi_video.ko", "snd_hda.ko", "cryptodev.ko" };
      char path[64];

      g_snprintf (path, sizeof path, "/boot/kernel/%s", modules[k]);
      ps_pmclog_writer_map_in (gen->writer, gen->tsc, G_MAXUINT32, KERNEL_BASE + 0x4000000 + (guint64)k * 0x400000, path);
    }
  gen->next_pid = 1000;
  for (guint p = 0; p < N_PROCESSES; p++)
    start_process (gen, &gen->processes[p], gen->next_pid++, rng_range (&gen->rng, 1, 8));
}

static void
write_sample (Generator *gen)
{
  guint64 pcs[MAX_DEPTH + 16];
  guint64 frames[MAX_DEPTH + 16];
  guint depth = rng_range (&gen->rng, 1, MAX_DEPTH);
  Process *process = &gen->processes[rng_range (&gen->rng, 0, N_PROCESSES - 1)];
  guint32 tid = process->first_tid + rng_range (&gen->rng, 0, process->n_threads - 1);
  guint cpu = rng_range (&gen->rng, 0, N_CPUS - 1);
  gboolean kernel = rng_uniform (&gen->rng) < 0.2;
  guint32 pmc = rng_uniform (&gen->rng) < 0.75 ? PMC_CLOCK (cpu) : PMC_CYCLES (cpu);
  /* Hot paths by a rough power law: the first ones dominate */
  guint path = (guint)(N_HOT_PATHS * pow (rng_uniform (&gen->rng), 3.0));
  const guint32 *walk = process->hot_paths[MIN (path, N_HOT_PATHS - 1)];
  guint n = 0;

  /* User frames, outermost first: return addresses inside each caller */
  for (guint d = 0; d < depth; d++)
    {
      guint32 module = walk[d] / N_FUNCTIONS;
      guint32 function = walk[d] % N_FUNCTIONS;

      frames[d] = function_address (process->module_base[module], function) + 0x10 + (d % N_CALLEES) * 0x18;
    }
  /* The sampled pc: somewhere in the innermost function */
  frames[depth - 1] = function_address (process->module_base[walk[depth - 1] / N_FUNCTIONS], walk[depth - 1] % N_FUNCTIONS)
                      + 4 * rng_range (&gen->rng, 0, 7);

  if (kernel)
    {
      guint kernel_depth = rng_range (&gen->rng, 1, 16);
      guint32 k = rng_range (&gen->rng, 0, 63);
      guint64 kernel_frames[16];

      for (guint d = 0; d < kernel_depth; d++)
        {
          kernel_frames[d] = function_address (KERNEL_BASE, k) + 0x20;
          k = gen->kernel_callees[k][pick_callee (gen)];
        }
      for (guint d = kernel_depth; d > 0; d--)
        pcs[n++] = kernel_frames[d - 1];
      /* Half of them with the user frames after the kernel ones */
      if (rng_next (&gen->rng) & 1)
        depth = MIN (depth, MAX_DEPTH - kernel_depth);
      else
        depth = 0;
    }
  for (guint d = depth; d > 0 && n < MAX_DEPTH; d--)
    pcs[n++] = frames[d - 1];

  gen->tsc += 3000000 / N_CPUS + rng_range (&gen->rng, 0, 1000);
  ps_pmclog_writer_callchain (gen->writer, gen->tsc, process->pid, tid, pmc,
                              ((guint32)cpu << 16) | (kernel ? 0 : PS_PMCLOG_CC_USER), pcs, n);
  gen->samples++;
}

/* A short-lived process: fork from a shell, exec, exit */
static void
write_churn (Generator *gen)
{
  Process *parent = &gen->processes[rng_range (&gen->rng, 0, N_PROCESSES - 1)];
  Process child = { 0 };
  guint32 pid = gen->next_pid++;

  ps_pmclog_writer_procfork (gen->writer, gen->tsc, parent->pid, pid);
  start_process (gen, &child, pid, 1);
  ps_pmclog_writer_proccsw (gen->writer, gen->tsc, PMC_CYCLES (0), parent->pid, parent->first_tid, 1234567);
  ps_pmclog_writer_thr_exit (gen->writer, gen->tsc + 1000, child.first_tid);
  ps_pmclog_writer_sysexit (gen->writer, gen->tsc + 1000, pid);
  g_free (child.hot_paths);
}

int
main (int    argc,
      char **argv)
{
  Generator *gen = g_new0 (Generator, 1);
  uint64_t size = G_GUINT64_CONSTANT (1) << 30;
  uint64_t seed = 1;
  const char *output = NULL;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--size") && i + 1 < argc)
        {
          if (!parse_size (argv[++i], &size))
            return usage_error ("bad --size", argv[i]);
        }
      else if (g_str_equal (argv[i], "--seed") && i + 1 < argc)
        {
          if (!parse_uint (argv[++i], G_MAXUINT64, &seed))
            return usage_error ("bad --seed", argv[i]);
        }
      else if (g_str_equal (argv[i], "-o") && i + 1 < argc)
        output = argv[++i];
      else
        return usage_error ("unknown option", argv[i]);
    }
  if (output == NULL)
    return usage_error ("usage: gen-hwpmc-pmclog [--size SIZE] [--seed N] -o FILE", NULL);

  gen->out = fopen (output, "wb");
  if (gen->out == NULL)
    {
      perror (output);
      return 1;
    }
  rng_init (&gen->rng, seed);
  gen->writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000);
  gen->tsc = G_GUINT64_CONSTANT (1000000000000);

  for (guint m = 0; m < N_MODULES; m++)
    for (guint f = 0; f < N_FUNCTIONS; f++)
      for (guint c = 0; c < N_CALLEES; c++)
        gen->callees[m][f][c] = rng_range (&gen->rng, 0, N_MODULES * N_FUNCTIONS - 1);
  for (guint k = 0; k < KERNEL_FUNCTIONS; k++)
    for (guint c = 0; c < N_CALLEES; c++)
      gen->kernel_callees[k][c] = rng_range (&gen->rng, 0, KERNEL_FUNCTIONS - 1);

  write_prologue (gen);
  while (gen->written + ps_pmclog_writer_get_length (gen->writer) < size)
    {
      write_sample (gen);
      if (gen->samples % 50000 == 0)
        write_churn (gen);
      flush_batch (gen, FALSE);
    }
  ps_pmclog_writer_closelog (gen->writer, gen->tsc);
  flush_batch (gen, TRUE);
  ps_pmclog_writer_free (gen->writer);
  for (guint p = 0; p < N_PROCESSES; p++)
    g_free (gen->processes[p].hot_paths);

  if (fclose (gen->out) != 0)
    writer_fail ();
  fprintf (stderr, "%s: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " samples\n",
           output, gen->written, gen->samples);
  g_free (gen);
  return 0;
}

/* gen-pmcstat-callgraph.c — writes constructed `pmcstat -G` callgraph text
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.4 (the callgraph text format).
 *
 * The output imitates `pmcstat -R file -z16 -G out` on a busy FreeBSD
 * machine: one block per PMC (`@ NAME [N samples]`), each a forest whose
 * roots are the functions that held the sampled pc, largest first, and
 * whose children are their callers, each line indented by its depth with
 * its share of the line above it, as pmcstat prints them. The kernel (with
 * its modules) and five user images have a fixed synthetic call graph:
 * every function has one to four callers, system-call and trap entries at
 * the top. A sampled function's count is split among its callers down to
 * the depth limit, so a block lists a few thousand distinct call paths.
 * Blocks follow until the size is reached, cycling through --profiles
 * profiles (default 8; the callgraphs of several runs and PMCs put one
 * after the other), so the file grows while its distinct stacks do not.
 *
 * Used by bench/run-pmcstat-bench. The output depends only on the options.
 */
#include "gen-common.h"

#define N_IMAGES        6      /* the kernel, then five user images */
#define N_FUNCTIONS     1200   /* per image */
#define MAX_CALLERS     4
#define ROOTS_PER_BLOCK 400
#define MAX_LEVELS      64

static const char * const image_paths[N_IMAGES] = {
  "/boot/kernel/kernel", "/lib/libc.so.7", "/lib/libthr.so.3", "/usr/lib/libc++.so.1",
  "/usr/local/lib/libglib-2.0.so.0", "/usr/local/bin/postgres",
};

static const char * const stems[] = {
  "vm_fault", "pmap_enter", "uma_zalloc", "sched_switch", "tcp_output", "soreceive",
  "vn_read", "ufs_lookup", "bufwrite", "malloc", "memcpy", "strlen", "pthread_mutex_lock",
  "g_hash_table_lookup", "ExecScan", "heap_getnext", "hash_search", "btgettuple",
  "std::__1::basic_string", "operator_new", "qsort", "printf", "read", "write",
};

static const char * const pmc_names[] = {
  "CLOCK.HARD", "cpu_clk_unhalted.thread_p", "inst_retired.any_p", "longest_lat_cache.miss",
};

typedef struct
{
  guint   image;
  guint   n_callers;
  guint32 callers[MAX_CALLERS];   /* image * N_FUNCTIONS + function */
  char    name[64];
} Function;

/* A line of the tree being written: a function, its count, and the
 * callers not yet written, largest first */
typedef struct
{
  guint32 function;
  guint64 count;
  guint   n_children;
  guint   next_child;
  guint32 children[MAX_CALLERS];
  guint64 child_counts[MAX_CALLERS];
} Level;

typedef struct
{
  Rng       rng;
  Writer    writer;
  guint     depth;
  guint     profiles;
  uint64_t  seed;
  Function *functions;
} Generator;

static void
make_functions (Generator *gen)
{
  gen->functions = g_new0 (Function, N_IMAGES * N_FUNCTIONS);
  for (guint image = 0; image < N_IMAGES; image++)
    for (guint f = 0; f < N_FUNCTIONS; f++)
      {
        Function *function = &gen->functions[image * N_FUNCTIONS + f];

        function->image = image;
        g_snprintf (function->name, sizeof function->name, "%s_%u",
                    stems[rng_range (&gen->rng, 0, G_N_ELEMENTS (stems) - 1)], image * N_FUNCTIONS + f);
        /* The first functions of each image are entries: nobody calls them */
        if (f < 8)
          continue;
        function->n_callers = rng_range (&gen->rng, 1, MAX_CALLERS);
        for (guint c = 0; c < function->n_callers; c++)
          {
            gboolean repeated = FALSE;

            /* Callers sit earlier in the image, or in a user image for a
             * kernel function reached by a system call */
            guint caller_image = image;

            if (image == 0 && rng_uniform (&gen->rng) < 0.05)
              caller_image = rng_range (&gen->rng, 1, N_IMAGES - 1);
            else if (image > 0 && rng_uniform (&gen->rng) < 0.2)
              caller_image = rng_range (&gen->rng, 1, N_IMAGES - 1);
            function->callers[c] = caller_image * N_FUNCTIONS
                                   + rng_range (&gen->rng, 0, caller_image == image ? f - 1 : N_FUNCTIONS - 1);
            /* pmcstat merges a caller's paths: each caller once */
            for (guint d = 0; d < c; d++)
              repeated |= function->callers[d] == function->callers[c];
            if (repeated)
              {
                function->n_callers = c;
                break;
              }
          }
      }
}

static int
compare_counts_desc (gconstpointer a,
                     gconstpointer b)
{
  guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

  return x < y ? 1 : x > y ? -1 : 0;
}

/* Splits a level's count among its callers, largest first; some of it
 * stays with the level (chains the kernel cut short) */
static void
split_count (Generator *gen,
             Level     *level,
             guint      depth)
{
  const Function *function = &gen->functions[level->function];
  guint64 left = level->count;
  guint n_callers;

  level->n_children = 0;
  level->next_child = 0;
  if (depth + 1 >= gen->depth || function->n_callers == 0)
    return;
  if (rng_uniform (&gen->rng) < 0.1)
    left -= left / 4;
  /* Most functions are reached from one place */
  n_callers = rng_uniform (&gen->rng) < 0.75 ? 1 : function->n_callers;
  for (guint c = 0; c < n_callers && left > 0; c++)
    {
      guint64 share = c + 1 == n_callers ? left : (guint64)(left * rng_uniform (&gen->rng));

      if (share == 0)
        continue;
      level->children[level->n_children] = function->callers[c];
      level->child_counts[level->n_children] = share;
      level->n_children++;
      left -= share;
    }
  /* pmcstat prints callers largest first: sort the pairs by count */
  for (guint i = 1; i < level->n_children; i++)
    for (guint j = i; j > 0 && level->child_counts[j] > level->child_counts[j - 1]; j--)
      {
        guint64 count = level->child_counts[j];
        guint32 child = level->children[j];

        level->child_counts[j] = level->child_counts[j - 1];
        level->children[j] = level->children[j - 1];
        level->child_counts[j - 1] = count;
        level->children[j - 1] = child;
      }
}

static void
write_line (Generator *gen,
            guint      depth,
            guint64    count,
            guint64    parent_count,
            guint32    function,
            guint     *previous_image)
{
  Writer *writer = &gen->writer;
  const Function *f = &gen->functions[function];
  char field[64];
  int length;

  writer_reserve (writer, 256 + 2 * depth);
  for (guint i = 0; i < depth; i++)
    writer_append_char (writer, ' ');
  if (count == parent_count)
    writer_append (writer, "100.0%", 6);
  else
    {
      length = g_snprintf (field, sizeof field, "%05.2f%%", 100.0 * (double)count / (double)parent_count);
      writer_append (writer, field, length);
    }
  length = g_snprintf (field, sizeof field, "  [%" G_GUINT64_FORMAT "] ", count);
  writer_append (writer, field, length);
  for (int i = length; i < 13; i++)
    writer_append_char (writer, ' ');
  for (guint i = 0; i < depth; i++)
    writer_append_char (writer, ' ');
  writer_append (writer, f->name, strlen (f->name));
  if (f->image != *previous_image)
    {
      writer_append (writer, " @ ", 3);
      writer_append (writer, image_paths[f->image], strlen (image_paths[f->image]));
      *previous_image = f->image;
    }
  writer_end_line (writer);
}

/* One sampled function with its callers, depth first */
static void
write_tree (Generator *gen,
            guint32    root,
            guint64    count,
            guint64    total)
{
  Level levels[MAX_LEVELS];
  guint n_levels = 1;
  guint previous_image = G_MAXUINT;

  levels[0].function = root;
  levels[0].count = count;
  write_line (gen, 0, count, total, root, &previous_image);
  split_count (gen, &levels[0], 0);

  while (n_levels > 0)
    {
      Level *level = &levels[n_levels - 1];
      Level *child;

      if (level->next_child == level->n_children)
        {
          n_levels--;
          continue;
        }
      child = &levels[n_levels];
      child->function = level->children[level->next_child];
      child->count = level->child_counts[level->next_child];
      level->next_child++;
      write_line (gen, n_levels, child->count, level->count, child->function, &previous_image);
      split_count (gen, child, n_levels);
      n_levels++;
    }
  writer_end_line (&gen->writer);
}

static void
write_block (Generator *gen,
             guint      block)
{
  guint64 counts[ROOTS_PER_BLOCK];
  guint32 roots[ROOTS_PER_BLOCK];
  guint64 total = 0;

  /* The block's profile: the same block index modulo --profiles, the
   * same trees */
  rng_init (&gen->rng, gen->seed * 1000003 + block % gen->profiles + 1);

  /* Sampled functions: mostly the kernel's and the program's, counts by
   * a rough power law */
  for (guint r = 0; r < ROOTS_PER_BLOCK; r++)
    {
      counts[r] = 1 + (guint64)(200000.0 * pow (rng_uniform (&gen->rng), 6.0));
      total += counts[r];
    }
  qsort (counts, ROOTS_PER_BLOCK, sizeof (guint64), compare_counts_desc);
  for (guint r = 0; r < ROOTS_PER_BLOCK; r++)
    roots[r] = (r % 3 == 0 ? 0 : rng_range (&gen->rng, 1, N_IMAGES - 1)) * N_FUNCTIONS
               + rng_range (&gen->rng, 8, N_FUNCTIONS - 1);

  writer_reserve (&gen->writer, 128);
  writer_line (&gen->writer, "@ %s [%" G_GUINT64_FORMAT " samples]", pmc_names[block % G_N_ELEMENTS (pmc_names)], total);
  writer_end_line (&gen->writer);
  for (guint r = 0; r < ROOTS_PER_BLOCK; r++)
    write_tree (gen, roots[r], counts[r], total);
}

int
main (int    argc,
      char **argv)
{
  Generator gen = { 0 };
  uint64_t size = G_GUINT64_CONSTANT (1) << 30;
  uint64_t seed = 1;
  uint64_t depth = 16;
  uint64_t profiles = 8;
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
      else if (g_str_equal (argv[i], "--depth") && i + 1 < argc)
        {
          if (!parse_uint (argv[++i], MAX_LEVELS, &depth) || depth == 0)
            return usage_error ("bad --depth (1–64)", argv[i]);
        }
      else if (g_str_equal (argv[i], "--profiles") && i + 1 < argc)
        {
          if (!parse_uint (argv[++i], G_MAXUINT, &profiles) || profiles == 0)
            return usage_error ("bad --profiles", argv[i]);
        }
      else if (g_str_equal (argv[i], "-o") && i + 1 < argc)
        output = argv[++i];
      else
        return usage_error ("unknown option", argv[i]);
    }
  if (output == NULL)
    return usage_error ("usage: gen-pmcstat-callgraph [--size SIZE] [--depth N] [--profiles N] [--seed N] -o FILE", NULL);

  rng_init (&gen.rng, seed);
  gen.depth = (guint)depth;
  gen.profiles = (guint)profiles;
  gen.seed = seed;
  make_functions (&gen);
  if (!writer_open (&gen.writer, output, "\n"))
    return 1;

  /* Whole blocks, the next one only while it surely fits: a block is
   * well under a mebibyte */
  for (guint block = 0; block == 0 || gen.writer.written + 4 * 1024 * 1024 < size; block++)
    write_block (&gen, block);

  if (!writer_close (&gen.writer))
    return 1;
  fprintf (stderr, "%s: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " lines\n",
           output, gen.writer.written, gen.writer.lines);
  g_free (gen.functions);
  return 0;
}

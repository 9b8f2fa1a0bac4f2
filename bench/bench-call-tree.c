/* bench-call-tree.c — how fast a call tree is built from probes
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §2 (probes and intervals).
 *
 * Generates N probes (each probe ends one interval) from a random walk of
 * enter and leave over a few thousand functions, up to a stack depth of 64,
 * with an OS event in some intervals, and feeds them to a
 * PsCallTreeBuilder. Each function calls a fixed set of --fanout callees
 * (a call graph, as in a real program); --fanout 0 lets any function call
 * any other, which makes almost every call a new path (the worst case for
 * the node count).
 *
 * The baseline is measured in the same run: the same walk, with the same
 * seed, folded into a checksum instead of a tree. The table gives both
 * times, the difference (the cost of the tree), the peak RSS after each
 * phase (getrusage ru_maxrss) and the node count. Rounds of both are run
 * --runs times (default 3) and the best times kept.
 *
 *   ninja -C _build-bench && _build-bench/bench/bench-call-tree
 *   _build-bench/bench/bench-call-tree --intervals 1000000 --fanout 0
 */
#include "gen-common.h"

#include <stdlib.h>
#include <sys/resource.h>

#include "ps-call-tree.h"

#define MAX_THREADS 64
#define MAX_DEPTH   1024

typedef struct
{
  uint64_t intervals;
  unsigned functions;
  unsigned max_depth;
  unsigned fanout;
  unsigned threads;
  unsigned os_percent;
  uint64_t seed;
  gboolean intervals_mode;
  gboolean read;
  unsigned runs;
} Options;

typedef struct
{
  guint32 stack[MAX_DEPTH];
  unsigned depth;
  gint64   time;
} WalkThread;

typedef enum
{
  PROBE_ENTER,
  PROBE_LEAVE,
} ProbeKind;

/* One step of the walk: which thread, what it did, when, and whether the
 * interval it ends had an OS event */
typedef struct
{
  Rng        rng;
  WalkThread threads[MAX_THREADS];
  const Options *options;
} Walk;

static inline guint32
callee_of (const Options *options,
           guint32        caller,
           unsigned       choice)
{
  uint64_t x = ((uint64_t)caller << 32) | choice;

  x = splitmix64 (&x);
  return (guint32)(x % options->functions);
}

static void
walk_init (Walk          *walk,
           const Options *options)
{
  memset (walk, 0, sizeof *walk);
  walk->options = options;
  rng_init (&walk->rng, options->seed);
}

/* Advances the walk by one probe; returns the thread */
static inline unsigned
walk_step (Walk      *walk,
           ProbeKind *kind,
           guint32   *function,
           gboolean  *os_event)
{
  const Options *options = walk->options;
  uint64_t r = rng_next (&walk->rng);
  unsigned t = options->threads > 1 ? (unsigned)((r & 0xffff) % options->threads) : 0;
  WalkThread *thread = &walk->threads[t];
  gboolean enter;

  thread->time += 1 + (gint64)((r >> 16) & 0x3ff);  /* 1 … 1024 ns */
  *os_event = ((r >> 26) & 0x7f) < options->os_percent * 128 / 100;

  if (thread->depth == 0)
    enter = TRUE;
  else if (thread->depth >= options->max_depth)
    enter = FALSE;
  else
    enter = (r >> 33) & 1;

  if (enter)
    {
      guint32 callee;

      if (thread->depth == 0 || options->fanout == 0)
        callee = (guint32)((r >> 34) % options->functions);
      else
        callee = callee_of (options, thread->stack[thread->depth - 1], (unsigned)((r >> 34) % options->fanout));
      thread->stack[thread->depth++] = callee;
      *kind = PROBE_ENTER;
      *function = callee;
    }
  else
    {
      thread->depth--;
      *kind = PROBE_LEAVE;
      *function = G_MAXUINT32;
    }

  return t;
}

static double
peak_rss_mib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  /* KiB on Linux */
}

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e6;
}

/* The same walk, folded into a checksum */
static uint64_t
run_baseline (const Options *options)
{
  Walk walk;
  uint64_t checksum = 0;

  walk_init (&walk, options);
  for (uint64_t i = 0; i < options->intervals; i++)
    {
      ProbeKind kind;
      guint32 function;
      gboolean os_event;
      unsigned t = walk_step (&walk, &kind, &function, &os_event);

      checksum = checksum * 31 + function + kind + os_event + (uint64_t)walk.threads[t].time;
      if (options->intervals_mode)
        checksum += walk.threads[t].stack[walk.threads[t].depth > 0 ? walk.threads[t].depth - 1 : 0];
    }

  return checksum;
}

static PsCallTree *
run_build (const Options *options,
           double        *end_seconds)
{
  PsCallTreeBuilder *builder = ps_call_tree_builder_new (PS_CALL_UNIT_NS);
  Walk walk;
  gint64 start;

  for (unsigned f = 0; f < options->functions; f++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "function_%u", f);
      ps_call_tree_builder_intern_function (builder, name, "bench");
    }

  walk_init (&walk, options);
  for (uint64_t i = 0; i < options->intervals; i++)
    {
      ProbeKind kind;
      guint32 function;
      gboolean os_event;
      WalkThread *thread;
      unsigned t = walk_step (&walk, &kind, &function, &os_event);

      thread = &walk.threads[t];
      if (options->intervals_mode)
        {
          /* The interval that this step ends, with the stack as it is now */
          ps_call_tree_builder_add_interval (builder, t, thread->stack, thread->depth,
                                             1 + (gint64)(i & 0x3ff), os_event);
          continue;
        }

      if (os_event)
        ps_call_tree_builder_os_event (builder, t);
      if (kind == PROBE_ENTER)
        ps_call_tree_builder_enter (builder, t, function, thread->time);
      else
        ps_call_tree_builder_leave (builder, t, thread->time);
    }

  start = g_get_monotonic_time ();
  {
    PsCallTree *tree = ps_call_tree_builder_end (builder);

    *end_seconds = seconds_since (start);
    return tree;
  }
}

static int
usage (void)
{
  fprintf (stderr,
           "Usage: bench-call-tree [--intervals N] [--functions N] [--max-depth N] [--fanout N]\n"
           "                       [--threads N] [--os-percent N] [--seed N] [--runs N]\n"
           "                       [--intervals-mode] [--read]\n");
  return 2;
}

int
main (int   argc,
      char *argv[])
{
  Options options = { 10000000, 4000, 64, 8, 1, 5, 42, FALSE, FALSE, 3 };
  g_autoptr(PsCallTree) tree = NULL;
  gint64 start;
  double baseline_seconds, build_seconds, end_seconds, baseline_rss, build_rss;
  uint64_t checksum = 0;
  char fanout_text[32];

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      uint64_t number;

      if (g_str_equal (arg, "--intervals-mode"))
        {
          options.intervals_mode = TRUE;
          continue;
        }
      if (g_str_equal (arg, "--read"))
        {
          options.read = TRUE;
          continue;
        }
      if (value == NULL || !parse_uint (value, G_MAXUINT64, &number))
        return usage ();
      i++;

      if (g_str_equal (arg, "--intervals"))
        options.intervals = number;
      else if (g_str_equal (arg, "--functions") && number >= 1 && number <= G_MAXUINT32 / 2)
        options.functions = (unsigned)number;
      else if (g_str_equal (arg, "--max-depth") && number >= 1 && number <= MAX_DEPTH)
        options.max_depth = (unsigned)number;
      else if (g_str_equal (arg, "--fanout") && number <= 1000)
        options.fanout = (unsigned)number;
      else if (g_str_equal (arg, "--threads") && number >= 1 && number <= MAX_THREADS)
        options.threads = (unsigned)number;
      else if (g_str_equal (arg, "--os-percent") && number <= 100)
        options.os_percent = (unsigned)number;
      else if (g_str_equal (arg, "--runs") && number >= 1 && number <= 100)
        options.runs = (unsigned)number;
      else if (g_str_equal (arg, "--seed"))
        options.seed = number;
      else
        return usage ();
    }

  if (options.fanout == 0)
    g_strlcpy (fanout_text, "any", sizeof fanout_text);
  else
    g_snprintf (fanout_text, sizeof fanout_text, "%u", options.fanout);

  printf ("call tree from %" G_GUINT64_FORMAT " %s: %u functions, fan-out %s, depth <= %u, %u thread(s), ~%u %% OS events, seed %" G_GUINT64_FORMAT "\n",
          options.intervals, options.intervals_mode ? "intervals (add_interval)" : "probes (enter/leave)",
          options.functions, fanout_text,
          options.max_depth, options.threads, options.os_percent, options.seed);

  /* In rounds, so that a slow moment of the machine hits both alike; the
   * best time of each counts. The baseline's RSS is taken before the
   * first tree exists. */
  baseline_seconds = build_seconds = end_seconds = G_MAXDOUBLE;
  baseline_rss = 0;
  for (unsigned run = 0; run < options.runs; run++)
    {
      double seconds, end;

      start = g_get_monotonic_time ();
      checksum = run_baseline (&options);
      baseline_seconds = MIN (baseline_seconds, seconds_since (start));
      if (run == 0)
        baseline_rss = peak_rss_mib ();

      g_clear_object (&tree);
      start = g_get_monotonic_time ();
      tree = run_build (&options, &end);
      seconds = seconds_since (start);
      if (seconds < build_seconds)
        {
          build_seconds = seconds;
          end_seconds = end;
        }
    }
  build_rss = peak_rss_mib ();

  printf ("\nbest of %u runs\n", options.runs);
  printf ("\n| phase | seconds | ns / interval | peak RSS |\n");
  printf ("| --- | ---: | ---: | ---: |\n");
  printf ("| baseline: the walk only (checksum %016" G_GINT64_MODIFIER "x) | %.3f | %.1f | %.1f MiB |\n",
          checksum, baseline_seconds, baseline_seconds * 1e9 / MAX (options.intervals, 1), baseline_rss);
  printf ("| the walk + building the tree | %.3f | %.1f | %.1f MiB |\n",
          build_seconds, build_seconds * 1e9 / MAX (options.intervals, 1), build_rss);
  printf ("| the tree alone (difference) | %.3f | %.1f | +%.1f MiB |\n",
          build_seconds - baseline_seconds,
          (build_seconds - baseline_seconds) * 1e9 / MAX (options.intervals, 1), build_rss - baseline_rss);
  printf ("| of which ps_call_tree_builder_end () | %.3f | | |\n", end_seconds);

  printf ("\nnodes: %u (%.1f %% of the intervals), functions: %u, T_E = %.0f ns, T_A = %.0f ns\n",
          ps_call_tree_get_n_nodes (tree),
          100.0 * ps_call_tree_get_n_nodes (tree) / MAX (options.intervals, 1),
          ps_call_tree_get_n_functions (tree),
          ps_call_tree_get_elapsed_total (tree), ps_call_tree_get_application_total (tree));

  if (options.read)
    {
      double exclusive = 0;
      guint32 n_nodes = ps_call_tree_get_n_nodes (tree);

      start = g_get_monotonic_time ();
      for (guint32 n = 0; n < n_nodes; n++)
        exclusive += ps_call_tree_get_node_stats (tree, n)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE];
      printf ("reading every node's stats: %.3f s, peak RSS %.1f MiB (sum of EE %s T_E)\n",
              seconds_since (start), peak_rss_mib (),
              exclusive == ps_call_tree_get_elapsed_total (tree) ? "=" : "!=");
    }

  printf ("\ntargets (per 10 M intervals): walk + build < 2 s: %s; peak RSS < 1 GiB: %s\n",
          build_seconds < 2.0 * options.intervals / 1e7 ? "PASS" : "FAIL",
          build_rss < 1024 ? "PASS" : "FAIL");

  return 0;
}

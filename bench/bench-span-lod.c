/* bench-span-lod.c — how fast a timeline finds what to draw
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Generates a store of N spans (default 10 million) on a few threads from a
 * random walk of begins and ends, nesting up to --max-depth, mostly short
 * spans with a few long gaps that make long ones, and indexes it with
 * PsSpanLod. Then it queries a --width pixel window the way the timeline
 * does, every depth of every thread, at full zoom-out and at --levels zoom
 * levels each ten times narrower, centred on the middle of the run.
 *
 * The baseline is measured in the same run, on the same windows: reading
 * the begin and end of every span in the window from the store once
 * (binary search of the window in each thread's spans, then a sequential
 * walk), the least work that still looks at every visible span. Each time
 * is the median of --runs rounds.
 *
 *   ninja -C _build-lod-rel && _build-lod-rel/bench/bench-span-lod
 *   _build-lod-rel/bench/bench-span-lod --spans 1000000 --threads 4
 */
#include "gen-common.h"

#include <stdlib.h>
#include <sys/resource.h>

#include "ps-span-lod.h"
#include "ps-store-builder.h"

#define MAX_THREADS 256
#define MAX_DEPTH   256

typedef struct
{
  uint64_t spans;
  unsigned threads;
  unsigned max_depth;
  unsigned width;
  unsigned levels;
  unsigned runs;
  uint64_t seed;
} Options;

/* The spans of one thread: a contiguous range of the store in begin order */
typedef struct
{
  guint64 first;
  guint64 end;
} ThreadRange;

/* One frame of the timeline: the items of every (track, depth), which the
 * renderer draws */
typedef struct
{
  guint    n_lanes;
  guint32 *tracks;
  guint   *depths;
  GArray **items;    /* PsSpanLodItem, one array per lane */
} Frame;

static double
peak_rss_mib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  /* KiB on Linux */
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof *values, compare_double);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static double
ms_since (gint64 start_us)
{
  return (g_get_monotonic_time () - start_us) / 1e3;
}

/* Each thread walks: mostly a step of 1 … 1024 ns, one step in 2048 a gap
 * of up to 16 ms; it enters a new span with probability 0.45 (so depths
 * are roughly geometric, mean ≈ 4.5) and leaves one otherwise */
static PsEventStore *
generate (const Options *options,
          ThreadRange   *ranges)
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 session = ps_event_store_add_session (store, 1, FALSE);
  guint32 names[64];
  Rng rng;

  rng_init (&rng, options->seed);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "function_%u", i);
      names[i] = ps_event_store_intern (store, name, -1);
    }

  for (unsigned t = 0; t < options->threads; t++)
    {
      PsTrack track = { 0 };
      guint32 track_index;
      guint64 stack[MAX_DEPTH];
      unsigned depth = 0;
      guint64 begun = 0;
      guint64 quota = options->spans / options->threads + (t < options->spans % options->threads);
      gint64 time = 0;

      track.kind = PS_TRACK_THREAD;
      track.parent = PS_NONE;
      track.session = session;
      track.number = 1000 + t;
      track_index = ps_event_store_add_track (store, &track);
      ranges[t].first = ps_store_builder_get_n_spans (builder);

      while (begun < quota || depth > 0)
        {
          uint64_t r = rng_next (&rng);
          gboolean enter;

          if (((r >> 20) & 0x7ff) == 0)
            time += 1 + (gint64)((r >> 32) & 0xffffff);  /* up to 16 ms */
          else
            time += 1 + (gint64)(r & 0x3ff);

          if (depth == 0)
            enter = TRUE;
          else if (depth >= options->max_depth || begun >= quota)
            enter = FALSE;
          else
            enter = ((r >> 10) & 0x3ff) < 461;  /* 0.45 */

          if (enter)
            {
              PsSpan span = { 0 };

              span.begin_ns = time;
              span.end_ns = time;
              span.track = track_index;
              span.name = names[(r >> 40) % G_N_ELEMENTS (names)];
              span.parent = depth > 0 ? (guint32)stack[depth - 1] : PS_NONE;
              span.depth = (guint16)depth;
              stack[depth++] = ps_store_builder_add_span (builder, &span);
              begun++;
            }
          else
            {
              ps_store_builder_edit_span (builder, stack[--depth])->end_ns = time;
            }
        }
      ranges[t].end = ps_store_builder_get_n_spans (builder);
    }

  ps_store_builder_flush (builder);
  return store;
}

static void
frame_init (Frame     *frame,
            PsSpanLod *lod,
            guint      n_tracks)
{
  guint lane = 0;

  frame->n_lanes = 0;
  for (guint32 t = 0; t < n_tracks; t++)
    frame->n_lanes += ps_span_lod_get_n_depths (lod, t);
  frame->tracks = g_new (guint32, frame->n_lanes);
  frame->depths = g_new (guint, frame->n_lanes);
  frame->items = g_new (GArray *, frame->n_lanes);
  for (guint32 t = 0; t < n_tracks; t++)
    for (guint d = 0; d < ps_span_lod_get_n_depths (lod, t); d++, lane++)
      {
        frame->tracks[lane] = t;
        frame->depths[lane] = d;
        frame->items[lane] = g_array_sized_new (FALSE, FALSE, sizeof (PsSpanLodItem), 2 * 4096);
      }
}

static void
frame_clear (Frame *frame)
{
  for (guint l = 0; l < frame->n_lanes; l++)
    g_array_unref (frame->items[l]);
  g_clear_pointer (&frame->tracks, g_free);
  g_clear_pointer (&frame->depths, g_free);
  g_clear_pointer (&frame->items, g_free);
}

/* What the timeline does for one frame: the items of every lane for the
 * window. Returns how many items there are in all. */
static guint64
query_frame (PsSpanLod *lod,
             Frame     *frame,
             gint64     from_ns,
             gint64     to_ns,
             unsigned   width)
{
  double ns_per_pixel = MAX ((double)(to_ns - from_ns) / width, 1e-3);
  guint64 n_items = 0;

  for (guint l = 0; l < frame->n_lanes; l++)
    {
      g_array_set_size (frame->items[l], 0);
      n_items += ps_span_lod_query (lod, frame->tracks[l], frame->depths[l],
                                    from_ns, to_ns, ns_per_pixel, frame->items[l]);
    }
  return n_items;
}

static guint64
frame_n_spans (const Frame *frame)
{
  guint64 n = 0;

  for (guint l = 0; l < frame->n_lanes; l++)
    for (guint i = 0; i < frame->items[l]->len; i++)
      n += g_array_index (frame->items[l], PsSpanLodItem, i).n_spans;
  return n;
}

/* First span of the range that begins at or after time */
static guint64
store_lower_bound (PsEventStore      *store,
                   const ThreadRange *range,
                   gint64             time)
{
  guint64 lo = range->first, hi = range->end;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (ps_event_store_get_span (store, mid)->begin_ns < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The baseline: every span that begins in the window, read once from the
 * store. The ancestors that began before the window (at most max-depth a
 * thread) are left out. */
static guint64
iterate_visible (PsEventStore      *store,
                 const ThreadRange *ranges,
                 unsigned           n_threads,
                 gint64             from_ns,
                 gint64             to_ns,
                 guint64           *checksum)
{
  guint64 n = 0;

  for (unsigned t = 0; t < n_threads; t++)
    {
      guint64 i = store_lower_bound (store, &ranges[t], from_ns);

      for (; i < ranges[t].end; i++)
        {
          const PsSpan *span = ps_event_store_get_span (store, i);

          if (span->begin_ns > to_ns)
            break;
          *checksum += (guint64)span->end_ns - (guint64)span->begin_ns;
          n++;
        }
    }
  return n;
}

static int
usage (void)
{
  fprintf (stderr,
           "Usage: bench-span-lod [--spans N] [--threads N] [--max-depth N] [--width PIXELS]\n"
           "                      [--levels N] [--runs N] [--seed N]\n");
  return 2;
}

int
main (int   argc,
      char *argv[])
{
  Options options = { 10000000, 8, 20, 1920, 5, 20, 42 };
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(PsSpanLod) lod = NULL;
  ThreadRange ranges[MAX_THREADS];
  Frame frame;
  double build_ms[3];
  double build_median;
  double store_rss, lod_rss;
  gint64 extent_begin, extent_end, start;
  gsize lod_bytes;
  guint64 n_spans;
  unsigned n_depths = 0;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *value = i + 1 < argc ? argv[i + 1] : NULL;
      uint64_t number;

      if (value == NULL || !parse_uint (value, G_MAXUINT64, &number))
        return usage ();
      i++;

      if (g_str_equal (arg, "--spans") && number >= 1 && number <= G_MAXUINT32)
        options.spans = number;
      else if (g_str_equal (arg, "--threads") && number >= 1 && number <= MAX_THREADS)
        options.threads = (unsigned)number;
      else if (g_str_equal (arg, "--max-depth") && number >= 1 && number < MAX_DEPTH)
        options.max_depth = (unsigned)number;
      else if (g_str_equal (arg, "--width") && number >= 1 && number <= 100000)
        options.width = (unsigned)number;
      else if (g_str_equal (arg, "--levels") && number <= 12)
        options.levels = (unsigned)number;
      else if (g_str_equal (arg, "--runs") && number >= 1 && number <= 1000)
        options.runs = (unsigned)number;
      else if (g_str_equal (arg, "--seed"))
        options.seed = number;
      else
        return usage ();
    }

  start = g_get_monotonic_time ();
  store = generate (&options, ranges);
  n_spans = ps_event_store_get_n_spans (store);
  store_rss = peak_rss_mib ();
  printf ("span LOD: %" G_GUINT64_FORMAT " spans on %u threads, depth < %u, seed %" G_GUINT64_FORMAT
          ", %u px, median of %u runs (store generated in %.1f s)\n",
          n_spans, options.threads, options.max_depth, options.seed, options.width, options.runs,
          ms_since (start) / 1e3);

  /* Building: the best and the median of three */
  for (guint round = 0; round < G_N_ELEMENTS (build_ms); round++)
    {
      g_clear_pointer (&lod, ps_span_lod_unref);
      start = g_get_monotonic_time ();
      lod = ps_span_lod_new (store, NULL);
      build_ms[round] = ms_since (start);
    }
  lod_rss = peak_rss_mib ();
  lod_bytes = ps_span_lod_get_memory_size (lod);
  ps_span_lod_get_extent (lod, &extent_begin, &extent_end);
  for (unsigned t = 0; t < options.threads; t++)
    n_depths = MAX (n_depths, ps_span_lod_get_n_depths (lod, t));

  frame_init (&frame, lod, ps_event_store_get_n_tracks (store));

  printf ("\n| | |\n| --- | ---: |\n");
  build_median = median (build_ms, G_N_ELEMENTS (build_ms));  /* sorts them */
  printf ("| building the index (median of 3, best) | %.0f ms, %.0f ms |\n",
          build_median, build_ms[0]);
  printf ("| index memory | %.1f MiB, %.1f bytes / span |\n",
          lod_bytes / 1048576.0, (double)lod_bytes / MAX (n_spans, 1));
  printf ("| store memory (estimate) | %.1f MiB |\n",
          ps_event_store_get_memory_size (store) / 1048576.0);
  printf ("| peak RSS after the store, after the index | %.0f MiB, %.0f MiB |\n", store_rss, lod_rss);
  printf ("| lanes (thread × depth), deepest | %u, %u |\n", frame.n_lanes, n_depths);

  printf ("\n| zoom | window | ns / px | spans in window | items | query (ms) | iterate baseline (ms) | query / baseline |\n");
  printf ("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (unsigned level = 0; level <= options.levels; level++)
    {
      gint64 width_ns = (gint64)((extent_end - extent_begin) / pow (10, level));
      gint64 middle = extent_begin + (extent_end - extent_begin) / 2;
      gint64 from = level == 0 ? extent_begin : middle - width_ns / 2;
      gint64 to = level == 0 ? extent_end : from + width_ns;
      g_autofree double *query_ms = g_new (double, options.runs);
      g_autofree double *iterate_ms = g_new (double, options.runs);
      guint64 n_items = 0, n_visible = 0, checksum = 0;
      double query_median, iterate_median;

      /* Alternating, so that a slow moment of the machine hits both */
      for (unsigned run = 0; run < options.runs; run++)
        {
          start = g_get_monotonic_time ();
          n_items = query_frame (lod, &frame, from, to, options.width);
          query_ms[run] = ms_since (start);

          start = g_get_monotonic_time ();
          n_visible = iterate_visible (store, ranges, options.threads, from, to, &checksum);
          iterate_ms[run] = ms_since (start);
        }
      query_median = median (query_ms, options.runs);
      iterate_median = median (iterate_ms, options.runs);

      printf ("| 1/%.0f | %.3f ms | %.1f | %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " in items) | %"
              G_GUINT64_FORMAT " | %.3f | %.3f | %.3f |\n",
              pow (10, level), (to - from) / 1e6, (double)(to - from) / options.width,
              n_visible, frame_n_spans (&frame), n_items, query_median, iterate_median,
              query_median / MAX (iterate_median, 1e-6));
      if (checksum == 42)
        printf ("(checksum)\n");
    }

  printf ("\n\"spans in window\": those that begin in it (the baseline's walk); \"in items\" adds\n"
          "the ancestors that began before it, which the index includes.\n");

  frame_clear (&frame);
  return 0;
}

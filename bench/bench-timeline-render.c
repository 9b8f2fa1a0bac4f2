/* bench-timeline-render.c — frames of a timeline of ten million spans
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds a run of --spans spans (default 10 million) on --threads threads
 * in memory, indexes it (PsSpanLod), and draws the timeline with
 * ps_timeline_render() — the code PsTimelineView draws with — into a
 * 1920×1080 image surface: the whole run, then 5 zoom levels, each 10×
 * narrower around the middle. Each level is drawn --frames times, each
 * frame panned 7 pixels further than the one before (so no frame can reuse
 * the last one's work); the table gives the median and the slowest frame,
 * beside the baseline of the
 * same run: one pass over the spans that merely reads their begin and end
 * and counts those in the window, which is the least a renderer without an
 * index would do before drawing anything.
 *
 *   ninja -C _build-bench && _build-bench/bench/bench-timeline-render
 */
#include "gen-common.h"

#include <locale.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "ps-store-builder.h"
#include "ps-timeline-render.h"

#define MAX_DEPTH 20
#define N_NAMES   2000
#define N_LEVELS  6

typedef struct
{
  guint64  spans;
  unsigned threads;
  unsigned frames;
  unsigned width;
  unsigned height;
  uint64_t seed;
} Options;

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static double
peak_rss_mib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

/* A random walk of calls per thread: deeper calls are rarer, gaps and
 * leaf calls take microseconds, so the outer calls last from milliseconds
 * to seconds */
static PsEventStore *
generate (const Options *options)
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 names[N_NAMES];
  guint64 per_thread = options->spans / options->threads;
  Rng rng;

  rng_init (&rng, options->seed);
  for (guint i = 0; i < N_NAMES; i++)
    {
      char name[64];

      g_snprintf (name, sizeof name, "module (author) ::Function%u", i);
      names[i] = ps_event_store_intern (store, name, -1);
    }

  for (guint t = 0; t < options->threads; t++)
    {
      PsTrack track = { 0 };
      guint64 stack[MAX_DEPTH];
      guint depth = 0;
      gint64 time = 0;
      guint64 made = 0;
      guint32 track_index;
      char name[16];

      g_snprintf (name, sizeof name, "%u", t + 1);
      track.name = ps_event_store_intern (store, name, -1);
      track.parent = PS_NONE;
      track.number = t + 1;
      track.kind = PS_TRACK_THREAD;
      track_index = ps_event_store_add_track (store, &track);

      while (made < per_thread || depth > 0)
        {
          double open = 0.56 - depth * 0.02;

          time += (gint64)rng_lognormal (&rng, 2000, 1.0) + 1;
          if (made < per_thread && depth < MAX_DEPTH && (depth == 0 || rng_uniform (&rng) < open))
            {
              PsSpan span = { 0 };

              span.begin_ns = time;
              span.end_ns = time;
              span.track = track_index;
              span.name = names[rng_range (&rng, 0, N_NAMES - 1)];
              span.parent = depth > 0 ? (guint32)stack[depth - 1] : PS_NONE;
              span.depth = depth;
              stack[depth++] = ps_store_builder_add_span (builder, &span);
              made++;
            }
          else
            {
              PsSpan *span = ps_store_builder_edit_span (builder, stack[--depth]);

              span->end_ns = time;
            }
        }
    }
  ps_store_builder_flush (builder);
  return store;
}

/* The baseline: one pass reading every span's times */
static guint64
iterate_window (PsEventStore *store,
                gint64        begin,
                gint64        end)
{
  guint64 n = ps_event_store_get_n_spans (store);
  guint64 visible = 0;

  for (guint64 i = 0; i < n; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      visible += span->end_ns >= begin && span->begin_ns <= end;
    }
  return visible;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

int
main (int   argc,
      char *argv[])
{
  Options options = { 10000000, 8, 15, 1920, 1080, 1 };
  GOptionEntry entries[] = {
    { "spans", 0, 0, G_OPTION_ARG_INT64, &options.spans, "Spans in the run (default 10000000)", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &options.threads, "Threads (default 8)", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &options.frames, "Frames per zoom level (default 15)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &options.seed, "Random seed (default 1)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— time frames of the timeline");
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(PsTimelineModel) model = NULL;
  PangoContext *pango = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  PsTimelineFrame frame = { 0 };
  double start, generated, indexed, slowest_median = 0;
  gint64 extent = 0;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  options.threads = CLAMP (options.threads, 1, 256);
  options.frames = MAX (options.frames, 1);

  start = now ();
  store = generate (&options);
  generated = now () - start;
  start = now ();
  lod = ps_span_lod_new (store, NULL);
  indexed = now () - start;
  model = ps_timeline_model_new (store, lod);
  extent = model->extent_end - model->extent_begin;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, options.width, options.height);
  cr = cairo_create (surface);
  pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  frame.width = options.width;
  frame.height = options.height;
  frame.cursor_span = PS_SPAN_LOD_NO_SPAN;
  frame.cursor_row = -1;
  frame.pango = pango;
  frame.foreground = (GdkRGBA){ 0.1, 0.1, 0.1, 1 };
  frame.background = (GdkRGBA){ 1, 1, 1, 1 };
  frame.accent = (GdkRGBA){ 0.208, 0.518, 0.894, 1 };

  g_print ("# Timeline frames: %" G_GUINT64_FORMAT " spans on %u threads, %u×%u pixels\n\n",
           ps_event_store_get_n_spans (store), options.threads, options.width, options.height);
  g_print ("Generating the run: %.2f s; indexing it (PsSpanLod): %.2f s; peak RSS %.0f MiB\n\n",
           generated, indexed, peak_rss_mib ());
  g_print ("| zoom | window | spans in window | drawn items | of them merged | frame median | slowest frame | baseline: one pass over the spans |\n");
  g_print ("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");

  for (guint level = 0; level < N_LEVELS; level++)
    {
      double zoom = pow (10, level);
      gint64 length = (gint64)(extent / zoom);
      gint64 middle = model->extent_begin + extent / 2;
      g_autofree double *times = g_new (double, options.frames);
      g_autofree char *window = NULL;
      PsTimelineStats stats;
      double baseline;
      guint64 visible;

      frame.begin = level == 0 ? model->extent_begin : middle - length / 2;
      frame.end = level == 0 ? model->extent_end : frame.begin + MAX (length, 1);

      for (guint f = 0; f < options.frames; f++)
        {
          /* Every frame a little further on, as when the user pans, so that
           * nothing of the previous frame can be reused */
          gint64 shift = (gint64)((frame.end - frame.begin) / (double)options.width * 7 * (f + 1));

          frame.begin += shift;
          frame.end += shift;
          start = now ();
          ps_timeline_render (model, &frame, cr, &stats);
          cairo_surface_flush (surface);
          times[f] = now () - start;
          frame.begin -= shift;
          frame.end -= shift;
        }
      qsort (times, options.frames, sizeof (double), compare_doubles);

      start = now ();
      visible = iterate_window (store, frame.begin, frame.end);
      baseline = now () - start;

      window = ps_timeline_format_position (FALSE, (double)(frame.end - frame.begin), (double)(frame.end - frame.begin) / 100);
      g_print ("| %.0f× | %s | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT
               " | %.2f ms | %.2f ms | %.2f ms |\n",
               zoom, window, visible, stats.n_items, stats.n_merged,
               times[options.frames / 2] * 1e3, times[options.frames - 1] * 1e3, baseline * 1e3);
      slowest_median = MAX (slowest_median, times[options.frames / 2]);
    }

  g_print ("\nTarget: under 16 ms per frame at every zoom level. Slowest median: %.2f ms (%s)\n",
           slowest_median * 1e3, slowest_median < 0.016 ? "met" : "not met");
  if (g_getenv ("BENCH_TIMELINE_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("BENCH_TIMELINE_PNG"));

  g_object_unref (pango);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}

/* test-series.c — series and statistics from a store built by hand
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <string.h>

#include "ps-series.h"
#include "ps-store-builder.h"

static guint32
add_instance (PsEventStore *store,
              guint32       session,
              const char   *app,
              const char   *description,
              gint64        id,
              guint32       ordinal)
{
  PsTrack track = { 0 };

  track.kind = PS_TRACK_MARKER_INSTANCE;
  track.name = ps_event_store_intern (store, description, -1);
  track.category = ps_event_store_intern (store, app, -1);
  track.parent = PS_NONE;
  track.session = session;
  track.number = id;
  track.ordinal = ordinal;
  return ps_event_store_add_track (store, &track);
}

static PsSeries *
find_series (GPtrArray    *series,
             const char   *name,
             PsSeriesKind  kind,
             guint         instance)
{
  for (guint i = 0; i < series->len; i++)
    {
      PsSeries *s = g_ptr_array_index (series, i);

      if (g_str_equal (s->name, name) && s->kind == kind && s->instance == instance)
        return s;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
test_instances_and_groups (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(GPtrArray) series = NULL;
  guint32 session = ps_event_store_add_session (store, 1, FALSE);
  guint32 write1 = add_instance (store, session, "fsperf", "Test=Write", 1, 1);
  guint32 write2 = add_instance (store, session, "fsperf", "Test=Write", 1, 2);
  guint32 cpu = add_instance (store, session, "fsperf", "CPU: fsperf", 103, 1);
  PsSeriesOptions grouped = { .group_by_name = TRUE };
  PsSeries *s;

  ps_event_store_add_tick_rate (store, session, 0, 1000);
  ps_store_builder_add_duration (builder, write1, 10, 100, 0);
  ps_store_builder_add_duration (builder, write1, 11, 300, 0);
  ps_store_builder_add_duration (builder, write1, 12, -5, PS_MEASURE_FLAG_NEGATIVE);
  ps_store_builder_add_cpu (builder, cpu, 13, 61.25, 0);
  ps_store_builder_add_cpu (builder, cpu, 14, 130.5, PS_MEASURE_FLAG_OUT_OF_RANGE);
  ps_store_builder_add_duration (builder, write2, 16, 200, 0);
  ps_store_builder_flush (builder);

  series = ps_series_collect (store, NULL);
  g_assert_cmpuint (series->len, ==, 3);

  s = find_series (series, "Test=Write", PS_SERIES_DURATION, 1);
  g_assert_cmpstr (s->unit, ==, "s");
  g_assert_cmpstr (s->app, ==, "fsperf");
  g_assert_cmpint (s->id, ==, 1);
  g_assert_cmpuint (s->stats.count, ==, 2);
  g_assert_cmpuint (s->n_excluded, ==, 1);
  g_assert_cmpfloat_with_epsilon (s->stats.mean, 0.2, 1e-12);
  g_assert_cmpfloat (s->ticks_stats.min, ==, 100);
  g_assert_cmpfloat (s->ticks_stats.sum, ==, 400);

  s = find_series (series, "CPU: fsperf", PS_SERIES_CPU, 1);
  g_assert_cmpstr (s->unit, ==, "percent");
  g_assert_cmpuint (s->stats.count, ==, 2);
  g_assert_cmpuint (s->n_flagged, ==, 1);
  g_assert_cmpfloat (s->stats.max, ==, 130.5);
  g_assert_cmpuint (g_array_index (s->indexes, guint64, 1), ==, 4);

  g_clear_pointer (&series, g_ptr_array_unref);
  series = ps_series_collect (store, &grouped);
  g_assert_cmpuint (series->len, ==, 2);
  s = find_series (series, "Test=Write", PS_SERIES_DURATION, 1);
  g_assert_cmpuint (s->n_instances, ==, 2);
  g_assert_cmpuint (s->stats.count, ==, 3);
  g_assert_cmpfloat_with_epsilon (s->stats.sum, 0.6, 1e-12);

  /* Negative durations on request */
  {
    PsSeriesOptions with_negative = { .include_negative = TRUE };

    g_clear_pointer (&series, g_ptr_array_unref);
    series = ps_series_collect (store, &with_negative);
    s = find_series (series, "Test=Write", PS_SERIES_DURATION, 1);
    g_assert_cmpuint (s->stats.count, ==, 3);
    g_assert_cmpfloat_with_epsilon (s->stats.min, -0.005, 1e-12);
  }

  /* Statistics only: the same numbers, no values kept for durations */
  {
    PsSeriesOptions summary = { .group_by_name = TRUE, .durations_summary_only = TRUE };

    g_clear_pointer (&series, g_ptr_array_unref);
    series = ps_series_collect (store, &summary);
    s = find_series (series, "Test=Write", PS_SERIES_DURATION, 1);
    g_assert_cmpuint (s->stats.count, ==, 3);
    g_assert_cmpfloat_with_epsilon (s->stats.sum, 0.6, 1e-12);
    g_assert_cmpfloat_with_epsilon (s->stats.median, 0.2, 1e-12);
    g_assert_cmpfloat (s->ticks_stats.max, ==, 300);
    g_assert_cmpuint (s->values->len, ==, 0);
    g_assert_cmpuint (s->ticks->len, ==, 0);
    g_assert_cmpuint (s->indexes->len, ==, 0);
    s = find_series (series, "CPU: fsperf", PS_SERIES_CPU, 1);
    g_assert_cmpuint (s->values->len, ==, 2);
  }

  /* A range of the sequence (a timeline selection): events 1…4 hold the
   * 300-tick write, the excluded negative one and both CPU samples */
  {
    PsSeriesOptions range = { .group_by_name = TRUE, .has_index_range = TRUE, .index_first = 1, .index_last = 4 };

    g_clear_pointer (&series, g_ptr_array_unref);
    series = ps_series_collect (store, &range);
    s = find_series (series, "Test=Write", PS_SERIES_DURATION, 1);
    g_assert_cmpuint (s->stats.count, ==, 1);
    g_assert_cmpuint (s->n_excluded, ==, 1);
    g_assert_cmpfloat_with_epsilon (s->stats.sum, 0.3, 1e-12);
    s = find_series (series, "CPU: fsperf", PS_SERIES_CPU, 1);
    g_assert_cmpuint (s->stats.count, ==, 2);

    range.index_first = 5;
    range.index_last = 5;
    g_clear_pointer (&series, g_ptr_array_unref);
    series = ps_series_collect (store, &range);
    s = find_series (series, "Test=Write", PS_SERIES_DURATION, 1);
    g_assert_cmpuint (s->stats.count, ==, 1);
    g_assert_cmpfloat_with_epsilon (s->stats.sum, 0.2, 1e-12);
    s = find_series (series, "CPU: fsperf", PS_SERIES_CPU, 1);
    g_assert_cmpuint (s->stats.count, ==, 0);
  }
}

static void
test_rates (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(GPtrArray) series = NULL;
  guint32 s0 = ps_event_store_add_session (store, 1, FALSE);
  guint32 s1 = ps_event_store_add_session (store, 20, FALSE);
  guint32 a = add_instance (store, s0, "app", "A", 0, 1);
  guint32 b = add_instance (store, s1, "app", "A", 0, 1);
  PsSeriesOptions override = { .tick_rate_override = 10 };
  PsSeries *s;

  /* Session 0: 1000 ticks/s for the first two events, then 100 */
  ps_event_store_add_tick_rate (store, s0, 0, 1000);
  ps_store_builder_add_duration (builder, a, 2, 1000, 0);
  ps_store_builder_add_duration (builder, a, 3, 2000, 0);
  ps_event_store_add_tick_rate (store, s0, 2, 100);
  ps_store_builder_add_duration (builder, a, 5, 100, 0);
  /* Session 1 has no rate: ticks only */
  ps_store_builder_add_duration (builder, b, 21, 70, 0);
  ps_store_builder_flush (builder);

  series = ps_series_collect (store, NULL);
  g_assert_cmpuint (series->len, ==, 2);
  s = g_ptr_array_index (series, 0);
  g_assert_true (s->has_seconds);
  g_assert_cmpfloat (g_array_index (s->values, double, 0), ==, 1.0);
  g_assert_cmpfloat (g_array_index (s->values, double, 1), ==, 2.0);
  g_assert_cmpfloat (g_array_index (s->values, double, 2), ==, 1.0);

  s = g_ptr_array_index (series, 1);
  g_assert_false (s->has_seconds);
  g_assert_cmpstr (s->unit, ==, "ticks");
  g_assert_cmpuint (s->session, ==, 1);
  g_assert_cmpfloat (s->stats.mean, ==, 70);

  g_clear_pointer (&series, g_ptr_array_unref);
  series = ps_series_collect (store, &override);
  s = g_ptr_array_index (series, 1);
  g_assert_cmpstr (s->unit, ==, "s");
  g_assert_cmpfloat (s->stats.mean, ==, 7);
}

/* No padding in PsStats: its bytes compare the numbers, NaN or not */
static void
assert_stats_equal (const PsStats *a,
                    const PsStats *b)
{
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpmem (a, sizeof *a, b, sizeof *b);
}

/* A log of many measurements is put into series in two halves on two
 * threads when only the statistics of durations are kept: the series
 * are those of the whole log in file order all the same — with one rate
 * per session (ps_stats_compute_scaled ()) and with a rate that changes
 * on the way */
static void
test_summary_halves (void)
{
  enum { N_STEPS = 7 };
  const guint64 n = 400000;

  for (guint changes = 0; changes < 2; changes++)
    {
      g_autoptr(PsEventStore) store = ps_event_store_new ();
      g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
      g_autoptr(GPtrArray) series = NULL;
      g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) memory = g_array_new (FALSE, FALSE, sizeof (double));
      GArray *ticks[N_STEPS], *seconds[N_STEPS];
      guint64 excluded[N_STEPS] = { 0 };
      guint64 cpu_flagged = 0;
      guint32 session = ps_event_store_add_session (store, 1, FALSE);
      guint32 steps[N_STEPS];
      guint32 cpu_track = add_instance (store, session, "app", "CPU: app", 103, 1);
      guint32 memory_track = add_instance (store, session, "app", "MEM: app", 102, 1);
      PsSeriesOptions options = { .durations_summary_only = TRUE };
      guint n_checked = 0;

      for (guint t = 0; t < N_STEPS; t++)
        {
          g_autofree char *name = g_strdup_printf ("Step=%u", t);

          steps[t] = add_instance (store, session, "app", name, t, 1);
          ticks[t] = g_array_new (FALSE, FALSE, sizeof (double));
          seconds[t] = g_array_new (FALSE, FALSE, sizeof (double));
        }
      ps_event_store_add_tick_rate (store, session, 0, 1000);
      if (changes)
        ps_event_store_add_tick_rate (store, session, n / 2 + 1, 250);

      for (guint64 i = 0; i < n; i++)
        {
          guint t = (guint)(i % N_STEPS);
          double rate = changes && i > n / 2 ? 250 : 1000;
          gint64 value = (gint64)((i * 2654435761u) % 100000);
          double number;

          switch (i % 11)
            {
            case 0:
              number = (double)(i % 97) + 0.5;
              ps_store_builder_add_cpu (builder, cpu_track, i + 1, number, i % 3 == 0 ? PS_MEASURE_FLAG_OUT_OF_RANGE : 0);
              cpu_flagged += i % 3 == 0;
              g_array_append_val (cpu, number);
              break;
            case 1:
              number = (double)(i * 8);
              ps_store_builder_add_memory (builder, memory_track, i + 1, i * 8, 0);
              g_array_append_val (memory, number);
              break;
            case 2:
              ps_store_builder_add_duration (builder, steps[t], i + 1, -value - 1, PS_MEASURE_FLAG_NEGATIVE);
              excluded[t]++;
              break;
            default:
              ps_store_builder_add_duration (builder, steps[t], i + 1, value, 0);
              number = (double)value;
              g_array_append_val (ticks[t], number);
              number /= rate;
              g_array_append_val (seconds[t], number);
              break;
            }
        }
      ps_store_builder_flush (builder);

      series = ps_series_collect (store, &options);
      g_assert_cmpuint (series->len, ==, N_STEPS + 2);
      for (guint i = 0; i < series->len; i++)
        {
          const PsSeries *one = g_ptr_array_index (series, i);
          PsStats stats, ticks_stats;

          if (one->kind == PS_SERIES_DURATION)
            {
              guint t = (guint)one->id;

              if (changes)
                {
                  ps_stats_compute ((double *)(gpointer)seconds[t]->data, seconds[t]->len, &stats);
                  ps_stats_compute ((double *)(gpointer)ticks[t]->data, ticks[t]->len, &ticks_stats);
                }
              else
                ps_stats_compute_scaled ((double *)(gpointer)ticks[t]->data, ticks[t]->len, 1000,
                                         &stats, &ticks_stats, NULL);
              assert_stats_equal (&one->stats, &stats);
              assert_stats_equal (&one->ticks_stats, &ticks_stats);
              g_assert_cmpuint (one->n_excluded, ==, excluded[t]);
              n_checked++;
            }
          else
            {
              GArray *expected = one->kind == PS_SERIES_CPU ? cpu : memory;

              g_assert_cmpuint (one->values->len, ==, expected->len);
              g_assert_cmpmem (one->values->data, one->values->len * sizeof (double),
                               expected->data, expected->len * sizeof (double));
              g_assert_cmpuint (one->n_flagged, ==, one->kind == PS_SERIES_CPU ? cpu_flagged : 0);
              n_checked++;
            }
        }
      g_assert_cmpuint (n_checked, ==, N_STEPS + 2);

      for (guint t = 0; t < N_STEPS; t++)
        {
          g_array_unref (ticks[t]);
          g_array_unref (seconds[t]);
        }
    }
}

static void
add_top_span (PsStoreBuilder *builder,
              guint32         track,
              guint32         name,
              gint64          begin_ns,
              gint64          end_ns)
{
  PsSpan span = { 0 };

  span.track = track;
  span.name = name;
  span.parent = PS_NONE;
  span.begin_ns = begin_ns;
  span.end_ns = end_ns;
  ps_store_builder_add_span (builder, &span);
}

/* Span durations, kept whole or as statistics only, give the same numbers;
 * a series whose durations stop being whole milliseconds keeps them all */
static void
test_span_summary (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(GPtrArray) full = NULL;
  g_autoptr(GPtrArray) summary = NULL;
  PsSeriesOptions summary_only = { .durations_summary_only = TRUE };
  guint32 session = ps_event_store_add_session (store, 1, FALSE);
  PsTrack thread = { 0 };
  guint32 track, whole, mixed;
  const gint64 ms = 1000000;

  thread.kind = PS_TRACK_THREAD;
  thread.parent = PS_NONE;
  thread.session = session;
  track = ps_event_store_add_track (store, &thread);
  whole = ps_event_store_intern (store, "whole", -1);
  mixed = ps_event_store_intern (store, "mixed", -1);

  add_top_span (builder, track, whole, 0, 3 * ms);
  add_top_span (builder, track, mixed, 3 * ms, 5 * ms);
  add_top_span (builder, track, whole, 5 * ms, 6 * ms);
  add_top_span (builder, track, mixed, 6 * ms, 6 * ms + 1500);
  add_top_span (builder, track, mixed, 7 * ms, 17 * ms);
  add_top_span (builder, track, whole, 20 * ms, 20 * ms + G_GINT64_CONSTANT (5000000000000));
  ps_store_builder_flush (builder);

  full = ps_series_collect (store, NULL);
  summary = ps_series_collect (store, &summary_only);
  g_assert_cmpuint (full->len, ==, 2);
  g_assert_cmpuint (summary->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      PsSeries *a = g_ptr_array_index (full, i);
      PsSeries *b = g_ptr_array_index (summary, i);

      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpuint (a->stats.count, ==, 3);
      g_assert_cmpuint (b->stats.count, ==, 3);
      g_assert_cmpfloat (a->stats.sum, ==, b->stats.sum);
      g_assert_cmpfloat (a->stats.min, ==, b->stats.min);
      g_assert_cmpfloat (a->stats.max, ==, b->stats.max);
      g_assert_cmpfloat (a->stats.median, ==, b->stats.median);
      g_assert_cmpfloat (a->stats.p90, ==, b->stats.p90);
      g_assert_cmpfloat (a->stats.stddev, ==, b->stats.stddev);
      g_assert_cmpuint (a->values->len, ==, 3);
      g_assert_cmpuint (b->values->len, ==, 0);
    }

  /* "whole": 3 ms, 1 ms and 5000 s (more milliseconds than 32 bits hold) */
  {
    PsSeries *s = g_ptr_array_index (summary, 0);

    g_assert_cmpstr (s->name, ==, "whole");
    g_assert_cmpfloat (s->stats.min, ==, 0.001);
    g_assert_cmpfloat (s->stats.median, ==, 0.003);
    g_assert_cmpfloat (s->stats.max, ==, 5000.0);
  }
  /* "mixed": 2 ms, 1.5 µs, 10 ms */
  {
    PsSeries *s = g_ptr_array_index (summary, 1);

    g_assert_cmpstr (s->name, ==, "mixed");
    g_assert_cmpfloat (s->stats.min, ==, 1500 / 1e9);
    g_assert_cmpfloat (s->stats.median, ==, 0.002);
    g_assert_cmpfloat (s->stats.max, ==, 0.010);
  }
}

/* The index of the first span of that name */
static guint64
find_first_span (PsEventStore *store,
                 const char   *name)
{
  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    if (strcmp (ps_event_store_get_string (store, ps_event_store_get_span (store, i)->name), name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

#define MANY_TRACKS 100
#define MANY_NAMES  20

typedef struct
{
  PsStoreBuilder *builder;
  GRand          *rand;
  guint32         tracks[MANY_TRACKS];
  guint32         names[MANY_NAMES];
  guint64         n_spans;
} ManySpans;

/* A span and its children, nested, in the order they begin; returns its end */
static gint64
add_span_tree (ManySpans *many,
               guint32    track,
               guint32    parent,
               guint      depth,
               gint64     begin_ns)
{
  const gint64 ms = 1000000;
  PsSpan span = { 0 };
  guint64 index;
  gint64 end_ns = begin_ns + g_rand_int_range (many->rand, 0, 5) * ms;
  guint n_children = depth < 6 ? g_rand_int_range (many->rand, 0, 4) : 0;
  guint name = g_rand_int_range (many->rand, 0, MANY_NAMES);
  guint32 chance = g_rand_int_range (many->rand, 0, 100);
  PsSpan *added;

  span.track = many->tracks[track];
  span.name = many->names[name];
  span.parent = parent;
  /* Odd threads' depths say nothing: the walk may not rely on them */
  span.depth = track % 2 == 0 ? depth : (depth * 7) % 5;
  span.begin_ns = begin_ns;
  index = ps_store_builder_add_span (many->builder, &span);
  many->n_spans++;

  for (guint i = 0; i < n_children; i++)
    end_ns = add_span_tree (many, track, (guint32)index, depth + 1, end_ns) + g_rand_int_range (many->rand, 0, 3) * ms;

  added = ps_store_builder_edit_span (many->builder, index);
  added->end_ns = end_ns;
  /* Name 0 is not always whole milliseconds; some spans do not count */
  if (name == 0 && chance < 10)
    added->end_ns += 1500;
  if (chance == 1)
    added->flags |= PS_SPAN_FLAG_UNTERMINATED;
  else if (chance == 2)
    added->flags |= PS_SPAN_FLAG_NAME_MISMATCH;
  else if (chance == 3)
    added->end_ns = begin_ns - ms;

  return end_ns;
}

/* Enough spans for the walk and the collection into series to run on two
 * threads, on more tracks than 64: the summary gives the statistics of
 * the values the full collection keeps, in their order, and every span
 * counts once, in the series of its name (and thread) */
static void
test_span_many (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(GPtrArray) full = NULL;
  g_autoptr(GPtrArray) summary = NULL;
  g_autoptr(GPtrArray) per_thread = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  PsSeriesOptions summary_only = { .durations_summary_only = TRUE };
  PsSeriesOptions per_thread_summary = { .durations_summary_only = TRUE, .spans_per_thread = TRUE };
  ManySpans many = { builder, rand, { 0 }, { 0 }, 0 };
  guint32 session = ps_event_store_add_session (store, 1, FALSE);
  gint64 ends[MANY_TRACKS] = { 0 };
  guint64 n_counted = 0;
  guint64 previous_first = 0;

  for (guint t = 0; t < MANY_TRACKS; t++)
    {
      PsTrack thread = { 0 };

      thread.kind = PS_TRACK_THREAD;
      thread.parent = PS_NONE;
      thread.session = session;
      thread.number = t + 1;
      many.tracks[t] = ps_event_store_add_track (store, &thread);
    }
  for (guint n = 0; n < MANY_NAMES; n++)
    {
      g_autofree char *name = g_strdup_printf ("scope %u", n);

      many.names[n] = ps_event_store_intern (store, name, -1);
    }

  /* The threads' trees interleave, each thread's in the order they begin */
  while (many.n_spans < 100000)
    {
      guint t = g_rand_int_range (rand, 0, MANY_TRACKS);

      ends[t] = add_span_tree (&many, t, PS_NONE, 0, ends[t]);
    }
  ps_store_builder_flush (builder);

  full = ps_series_collect (store, NULL);
  summary = ps_series_collect (store, &summary_only);
  g_assert_cmpuint (full->len, ==, MANY_NAMES);
  g_assert_cmpuint (summary->len, ==, MANY_NAMES);
  for (guint i = 0; i < MANY_NAMES; i++)
    {
      PsSeries *a = g_ptr_array_index (full, i);
      PsSeries *b = g_ptr_array_index (summary, i);
      g_autofree double *copy = g_memdup2 (a->values->data, a->values->len * sizeof (double));
      g_autofree guint32 *ms = g_new (guint32, a->values->len + 1);
      gboolean whole = TRUE;
      PsStats expected;

      /* Whole milliseconds are summed exactly, other durations in order */
      for (guint k = 0; k < a->values->len; k++)
        {
          double value = g_array_index (a->values, double, k);

          ms[k] = (guint32)llround (value * 1000);
          whole = whole && (double)ms[k] / 1000 == value;
        }
      if (whole)
        ps_stats_compute_ms (ms, a->values->len, &expected);
      else
        ps_stats_compute (copy, a->values->len, &expected);
      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpuint (a->values->len, ==, a->stats.count);
      g_assert_cmpuint (a->indexes->len, ==, a->stats.count);
      g_assert_cmpmem (&a->stats, sizeof (PsStats), &expected, sizeof (PsStats));
      g_assert_cmpmem (&b->stats, sizeof (PsStats), &expected, sizeof (PsStats));
      g_assert_cmpfloat (a->self_sum, ==, b->self_sum);
      g_assert_cmpuint (a->n_excluded, ==, b->n_excluded);
      g_assert_cmpuint (a->n_flagged, ==, b->n_flagged);
      g_assert_cmpuint (a->n_instances, ==, b->n_instances);
      g_assert_cmpmem (a->tracks, a->n_instances * sizeof (guint32), b->tracks, b->n_instances * sizeof (guint32));
      g_assert_cmpuint (b->values->len, ==, 0);

      /* Threads in order; each span counted in the series of its name */
      for (guint k = 1; k < a->n_instances; k++)
        g_assert_cmpuint (a->tracks[k - 1], <, a->tracks[k]);
      for (guint k = 0; k < a->indexes->len; k++)
        {
          const PsSpan *span = ps_event_store_get_span (store, g_array_index (a->indexes, guint64, k));

          g_assert_cmpstr (ps_event_store_get_string (store, span->name), ==, a->name);
          g_assert_cmpfloat (g_array_index (a->values, double, k), ==, (double)(span->end_ns - span->begin_ns) / 1e9);
        }
      n_counted += a->stats.count + a->n_excluded;

      /* Series in the order their first span began */
      g_assert_cmpuint (find_first_span (store, a->name), >=, previous_first);
      previous_first = find_first_span (store, a->name);
    }
  g_assert_cmpuint (n_counted, ==, many.n_spans);
  /* Name 0 has durations in fractions of a millisecond */
  g_assert_cmpuint (find_series (summary, "scope 0", PS_SERIES_SPAN, 0)->stats.count, >, 0);

  /* Every span's self time: its duration less its measured children's,
   * found through their parents; for the GUI as well */
  {
    g_autofree gint64 *expected_self = g_new0 (gint64, many.n_spans);
    g_autofree gint64 *walked_self = ps_scopes_get_self_times (store);
    g_autofree gint64 *self_times = g_new0 (gint64, many.n_spans);
    PsSeriesOptions with_self_times = { .durations_summary_only = TRUE, .span_self_times = self_times };
    g_autoptr(GPtrArray) again = NULL;

    for (guint64 i = 0; i < many.n_spans; i++)
      {
        const PsSpan *span = ps_event_store_get_span (store, i);

        expected_self[i] += span->end_ns - span->begin_ns;
        if (span->parent != PS_NONE && ps_span_is_measured (span))
          expected_self[span->parent] -= span->end_ns - span->begin_ns;
      }
    g_assert_cmpmem (walked_self, many.n_spans * sizeof (gint64), expected_self, many.n_spans * sizeof (gint64));

    again = ps_series_collect (store, &with_self_times);
    g_assert_cmpmem (self_times, many.n_spans * sizeof (gint64), expected_self, many.n_spans * sizeof (gint64));
  }

  /* Per thread, beyond the 64 tracks kept as bits */
  per_thread = ps_series_collect (store, &per_thread_summary);
  n_counted = 0;
  for (guint i = 0; i < per_thread->len; i++)
    {
      PsSeries *s = g_ptr_array_index (per_thread, i);

      g_assert_cmpuint (s->n_instances, ==, 1);
      n_counted += s->stats.count + s->n_excluded;
    }
  g_assert_cmpuint (n_counted, ==, many.n_spans);
  g_assert_cmpuint (per_thread->len, >, MANY_NAMES * 64);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/series/instances-and-groups", test_instances_and_groups);
  g_test_add_func ("/series/rates", test_rates);
  g_test_add_func ("/series/summary-halves", test_summary_halves);
  g_test_add_func ("/series/span-summary", test_span_summary);
  g_test_add_func ("/series/span-many", test_span_many);

  return g_test_run ();
}

/* test-series.c — series and statistics from a store built by hand
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <string.h>

#include "parse-fixture.h"
#include "ps-series.h"
#include "ps-store-builder.h"

static guint32
add_instance_named (PsEventStore *store,
                    guint32       session,
                    const char   *app,
                    guint32       description,
                    gint64        id,
                    guint32       ordinal)
{
  PsTrack track = { 0 };

  track.kind = PS_TRACK_MARKER_INSTANCE;
  track.name = description;
  track.category = ps_event_store_intern (store, app, -1);
  track.parent = PS_NONE;
  track.session = session;
  track.number = id;
  track.ordinal = ordinal;
  return ps_event_store_add_track (store, &track);
}

static guint32
add_instance (PsEventStore *store,
              guint32       session,
              const char   *app,
              const char   *description,
              gint64        id,
              guint32       ordinal)
{
  return add_instance_named (store, session, app, ps_event_store_intern (store, description, -1), id, ordinal);
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

/* Both groupings at once --------------------------------------------- */

/* a and b are the same number, NaN or not, or within a relative 1e-12 of
 * scale: a sum taken in another order */
static void
assert_close (double a,
              double b,
              double scale)
{
  if (a == b || (isnan (a) && isnan (b)))
    return;
  g_assert_cmpfloat (fabs (a - b), <=, 1e-12 * MAX (MAX (fabs (a), fabs (b)), fabs (scale)));
}

static void
assert_same (double a,
             double b)
{
  if (isnan (a) && isnan (b))
    return;
  g_assert_cmpfloat (a, ==, b);
}

/* The statistics of a group: those of the same multiset, summed in
 * another order (exactly, for integers: ticks) */
static void
assert_group_stats (const PsStats *got,
                    const PsStats *expected,
                    gboolean       integers)
{
  g_assert_cmpuint (got->count, ==, expected->count);
  assert_same (got->min, expected->min);
  assert_same (got->max, expected->max);
  assert_same (got->median, expected->median);
  assert_same (got->p90, expected->p90);
  assert_same (got->p95, expected->p95);
  assert_same (got->p99, expected->p99);
  if (integers)
    {
      assert_same (got->sum, expected->sum);
      assert_same (got->mean, expected->mean);
    }
  else
    {
      assert_close (got->sum, expected->sum, 0);
      assert_close (got->mean, expected->mean, 0);
    }
  /* The deviations from a mean that may differ in its last bit */
  assert_close (got->stddev, expected->stddev, expected->mean);
}

static void
assert_same_array (GArray *got,
                   GArray *expected)
{
  if (expected == NULL)
    {
      g_assert_null (got);
      return;
    }
  g_assert_nonnull (got);
  g_assert_cmpuint (got->len, ==, expected->len);
  g_assert_cmpmem (got->data, got->len * g_array_get_element_size (got),
                   expected->data, expected->len * g_array_get_element_size (expected));
}

static void
assert_same_series (const PsSeries *got,
                    const PsSeries *expected)
{
  g_assert_cmpstr (got->name, ==, expected->name);
  g_assert_cmpstr (got->app, ==, expected->app);
  g_assert_cmpstr (got->context, ==, expected->context);
  g_assert_cmpint (got->logical, ==, expected->logical);
  g_assert_cmpint (got->kind, ==, expected->kind);
  g_assert_cmpstr (got->unit, ==, expected->unit);
  g_assert_cmpint (got->id, ==, expected->id);
  g_assert_cmpuint (got->instance, ==, expected->instance);
  g_assert_cmpuint (got->session, ==, expected->session);
  g_assert_cmpuint (got->n_instances, ==, expected->n_instances);
  g_assert_cmpmem (got->tracks, got->n_instances * sizeof (guint32),
                   expected->tracks, expected->n_instances * sizeof (guint32));
  g_assert_cmpuint (got->first_line, ==, expected->first_line);
  g_assert_cmpint (got->has_seconds, ==, expected->has_seconds);
  g_assert_cmpuint (got->n_excluded, ==, expected->n_excluded);
  g_assert_cmpuint (got->n_flagged, ==, expected->n_flagged);
  assert_same_array (got->values, expected->values);
  assert_same_array (got->ticks, expected->ticks);
  assert_same_array (got->indexes, expected->indexes);
  g_assert_cmpfloat (got->self_sum, ==, expected->self_sum);
  assert_stats_equal (&got->stats, &expected->stats);
  assert_stats_equal (&got->ticks_stats, &expected->ticks_stats);
}

/* A group's statistics from its members' values, gathered another way */
static void
assert_group_of_members (PsEventStore          *store,
                         const PsSeriesOptions *options,
                         const PsSeries        *group)
{
  PsSeriesOptions whole = *options;
  g_autoptr(GPtrArray) members = NULL;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 n_excluded = 0, n_flagged = 0;
  PsStats stats;

  whole.durations_summary_only = FALSE;
  members = ps_series_collect_members (store, &whole, group);
  for (guint j = 0; j < members->len; j++)
    {
      const PsSeries *member = g_ptr_array_index (members, j);

      g_array_append_vals (values, member->values->data, member->values->len);
      if (member->ticks != NULL)
        g_array_append_vals (ticks, member->ticks->data, member->ticks->len);
      n_excluded += member->n_excluded;
      n_flagged += member->n_flagged;
    }
  g_assert_cmpuint (group->n_excluded, ==, n_excluded);
  g_assert_cmpuint (group->n_flagged, ==, n_flagged);
  ps_stats_compute ((double *)(gpointer)values->data, values->len, &stats);
  assert_group_stats (&group->stats, &stats, group->kind == PS_SERIES_DURATION && !group->has_seconds);
  if (group->kind == PS_SERIES_DURATION)
    {
      ps_stats_compute ((double *)(gpointer)ticks->data, ticks->len, &stats);
      assert_group_stats (&group->ticks_stats, &stats, TRUE);
    }
}

/* Groups by name, and ps_series_collect_members (): each group of
 * ps_series_collect () with group_by_name has the instances of
 * ps_series_collect () without it whose session, kind, application and
 * description texts are its own, in track order, made in the order of
 * their keys' first instances; its members are those instances' series,
 * the same in every field, and its statistics are theirs together.
 * Returns the number of groups with several instances. */
static guint
assert_grouped_collects (PsEventStore          *store,
                         const PsSeriesOptions *options)
{
  PsSeriesOptions by_instance = *options;
  PsSeriesOptions by_name = *options;
  g_autoptr(GPtrArray) instances = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  g_autoptr(GHashTable) group_of_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) expected_tracks = g_array_new (FALSE, FALSE, sizeof (GArray *));
  guint n_merged = 0;
  guint n_members = 0;
  guint n_instances = 0;

  by_instance.group_by_name = FALSE;
  by_name.group_by_name = TRUE;
  instances = ps_series_collect (store, &by_instance);
  groups = ps_series_collect (store, &by_name);

  /* The groups the instances' keys give, as text */
  for (guint i = 0; i < instances->len; i++)
    {
      const PsSeries *instance = g_ptr_array_index (instances, i);
      char *key;
      gpointer found;
      GArray *tracks;

      if (instance->kind == PS_SERIES_SPAN)
        continue;
      n_instances++;
      key = g_strdup_printf ("%u:%d:%zu:%s%s", instance->session, instance->kind, strlen (instance->app),
                             instance->app, instance->name);
      found = g_hash_table_lookup (group_of_key, key);
      if (found == NULL)
        {
          tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_array_append_val (expected_tracks, tracks);
          found = GUINT_TO_POINTER (expected_tracks->len);
          g_hash_table_insert (group_of_key, key, found);
        }
      else
        g_free (key);
      tracks = g_array_index (expected_tracks, GArray *, GPOINTER_TO_UINT (found) - 1);
      g_array_append_val (tracks, instance->tracks[0]);
    }

  for (guint g = 0; g < groups->len; g++)
    {
      const PsSeries *group = g_ptr_array_index (groups, g);
      g_autoptr(GPtrArray) members = ps_series_collect_members (store, options, group);
      GArray *tracks;

      if (group->kind == PS_SERIES_SPAN)
        {
          g_assert_cmpuint (members->len, ==, 0);
          continue;
        }
      g_assert_cmpuint (g, <, expected_tracks->len);
      tracks = g_array_index (expected_tracks, GArray *, g);
      g_assert_cmpmem (group->tracks, group->n_instances * sizeof (guint32), tracks->data,
                       tracks->len * sizeof (guint32));
      g_assert_cmpuint (members->len, ==, group->n_instances);
      for (guint j = 0; j < members->len; j++)
        {
          const PsSeries *member = g_ptr_array_index (members, j);
          const PsSeries *expected = NULL;

          for (guint i = 0; i < instances->len && expected == NULL; i++)
            {
              const PsSeries *instance = g_ptr_array_index (instances, i);

              if (instance->tracks[0] == group->tracks[j] && instance->kind == group->kind)
                expected = instance;
            }
          g_assert_nonnull (expected);
          assert_same_series (member, expected);
        }
      assert_group_of_members (store, options, group);
      n_members += members->len;
      n_merged += group->n_instances > 1;
    }
  g_assert_cmpuint (n_members, ==, n_instances);
  for (guint g = 0; g < expected_tracks->len; g++)
    g_array_unref (g_array_index (expected_tracks, GArray *, g));
  return n_merged;
}

/* A CE-like store: three sessions (the first with a tick rate that may
 * change half-way through it, the second without one, the third at
 * another rate), two applications that register the same descriptions
 * several times each, and CPU and memory monitors registered twice;
 * among n measurements negative durations, flagged CPU and fractional
 * memory figures, and events that are no measurement. One description
 * is stored as a unique text, which only its text says is the same. */
static PsEventStore *
grouped_store_new (guint64  n,
                   gboolean rate_changes,
                   gboolean with_span)
{
  enum { N_SESSIONS = 3, N_APPS = 2, N_STEPS = 5, N_REGISTRATIONS = 3, N_MONITORS = 2 };
  static const char *const apps[N_APPS] = { "alpha", "beta" };
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 steps[N_SESSIONS][N_REGISTRATIONS * N_APPS * N_STEPS];
  guint32 cpu[N_SESSIONS][N_MONITORS];
  guint32 memory[N_SESSIONS][N_MONITORS];
  guint32 sessions[N_SESSIONS];

  for (guint s = 0; s < N_SESSIONS; s++)
    {
      guint n_steps = 0;

      sessions[s] = ps_event_store_add_session (store, 1 + s * 1000, FALSE);
      for (guint m = 0; m < N_MONITORS; m++)
        {
          cpu[s][m] = add_instance (store, sessions[s], "alpha", "CPU: alpha", 103, m + 1);
          memory[s][m] = add_instance (store, sessions[s], "alpha", "MEM: alpha", 102, m + 1);
        }
      for (guint r = 0; r < N_REGISTRATIONS; r++)
        for (guint a = 0; a < N_APPS; a++)
          for (guint t = 0; t < N_STEPS; t++)
            {
              g_autofree char *name = g_strdup_printf ("Test=Write Size=%u", t);
              guint32 description = r == 1 && a == 0 && t == 0 ? ps_event_store_add_text (store, name, -1)
                                                                : ps_event_store_intern (store, name, -1);

              steps[s][n_steps++] = add_instance_named (store, sessions[s], apps[a], description, t + 1, r + 1);
            }
    }
  ps_event_store_add_tick_rate (store, sessions[0], 0, 1000);
  if (rate_changes)
    ps_event_store_add_tick_rate (store, sessions[0], n / 6, 250);
  ps_event_store_add_tick_rate (store, sessions[2], 0, 3579545);

  for (guint64 i = 0; i < n; i++)
    {
      guint s = (guint)MIN (i * N_SESSIONS / n, N_SESSIONS - 1);
      guint64 mix = i * G_GUINT64_CONSTANT (2654435761);
      guint32 step = steps[s][(mix >> 7) % G_N_ELEMENTS (steps[s])];
      gint64 ticks = (gint64)((mix >> 13) % 100000);

      switch (i % 17)
        {
        case 0:
          ps_store_builder_add_cpu (builder, cpu[s][(mix >> 5) % N_MONITORS], i + 1, (double)(mix % 1200) / 10,
                                    mix % 1200 > 1000 ? PS_MEASURE_FLAG_OUT_OF_RANGE : 0);
          break;
        case 1:
          ps_store_builder_add_memory (builder, memory[s][(mix >> 5) % N_MONITORS], i + 1, mix % 100000000, 0);
          break;
        case 2:
          ps_store_builder_add_memory_number (builder, memory[s][(mix >> 5) % N_MONITORS], i + 1,
                                              (double)(mix % 1000) + 0.5, 0);
          break;
        case 3:
          ps_store_builder_add_duration (builder, step, i + 1, -ticks - 1, PS_MEASURE_FLAG_NEGATIVE);
          break;
        case 4:
          ps_store_builder_add_other (builder, step, i + 1, "XYZ", -1, "1", -1);
          break;
        default:
          ps_store_builder_add_duration (builder, step, i + 1, ticks, 0);
          break;
        }
    }
  if (with_span)
    {
      PsTrack thread = { 0 };

      thread.kind = PS_TRACK_THREAD;
      thread.parent = PS_NONE;
      thread.session = sessions[0];
      add_top_span (builder, ps_event_store_add_track (store, &thread), ps_event_store_intern (store, "Scope", -1),
                    10, 30);
    }
  ps_store_builder_flush (builder);

  return g_steal_pointer (&store);
}

/* A CE PerfLog of two appended runs in which two applications register
 * the same descriptions pass after pass, with a negative duration now
 * and then, CPU and memory monitors registered again every few passes,
 * and in the second run a resolution that changes half-way
 * (ce-perflog.md §7 #8) */
static char *
ce_log_new (guint n_passes)
{
  static const char *const apps[] = { "fsperf", "dbperf" };
  GString *text = g_string_new (NULL);
  guint64 mix = 1;

  for (guint run = 0; run < 2; run++)
    {
      g_string_append (text, "## PERF ## OSVERSION=[6.0] BUILD=[3122]\n"
                             "## PERF ## PLATFORM=[CEPC] CPU=[x86]\n"
                             "## PERF ## REGISTERED APP [fsperf] PROCCESSID [0x0a5f0012]\n"
                             "## PERF ## REGISTERED APP [dbperf] PROCCESSID [0x0a5f0013]\n"
                             "## PERF ## RESOLUTION [1193180] TICKS PER SECOND\n");
      for (guint pass = 0; pass < n_passes; pass++)
        {
          if (run == 1 && pass == n_passes / 2)
            g_string_append (text, "## PERF ## RESOLUTION [3579545] TICKS PER SECOND\n");
          if (pass % 4 == 0)
            g_string_append (text, "## PERF ## REGISTERED MARKER [CPU: fsperf] AS [103] BY APP [fsperf]\n"
                                   "## PERF ## REGISTERED MARKER [MEM: fsperf] AS [102] BY APP [fsperf]\n");
          for (guint a = 0; a < G_N_ELEMENTS (apps); a++)
            for (guint size = 0; size < 3; size++)
              {
                g_string_append_printf (text, "## PERF ## REGISTERED MARKER [Test=WriteFile,Bytes=%u,time=%%AVG%%] "
                                              "AS [%u] BY APP [%s]\n", 4096u << (4 * size), size, apps[a]);
                for (guint e = 0; e < 5; e++)
                  {
                    mix = mix * G_GUINT64_CONSTANT (6364136223846793005) + 1442695040888963407;
                    g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] DUR [%" G_GINT64_FORMAT "]\n",
                                            apps[a], size,
                                            (gint64)((mix >> 33) % 200000) - ((mix >> 60) == 0 ? 250000 : 0));
                  }
                g_string_append_printf (text, "## PERF ## APP [fsperf] EVT [103] CPU [%u.%03u000]\n"
                                              "## PERF ## APP [fsperf] EVT [102] MEM [%" G_GUINT64_FORMAT "]\n",
                                        (guint)((mix >> 20) % 120), (guint)((mix >> 40) % 1000),
                                        (mix >> 24) % 100000000);
              }
        }
    }
  return g_string_free (text, FALSE);
}

static void
assert_grouped_options (PsEventStore *store,
                        guint64       n,
                        gboolean      keep_values)
{
  PsSeriesOptions summary = { .durations_summary_only = TRUE };
  PsSeriesOptions options;

  assert_grouped_collects (store, &summary);

  options = summary;
  options.include_negative = TRUE;
  assert_grouped_collects (store, &options);

  options = summary;
  options.tick_rate_override = 500;
  assert_grouped_collects (store, &options);

  options = summary;
  options.has_index_range = TRUE;
  options.index_first = n / 5;
  options.index_last = n * 3 / 5;
  assert_grouped_collects (store, &options);

  /* group_by_name is not looked at */
  options = summary;
  options.group_by_name = TRUE;
  assert_grouped_collects (store, &options);

  if (keep_values)
    {
      PsSeriesOptions all = { 0 };

      assert_grouped_collects (store, &all);
    }
}

static void
test_grouped (void)
{
  /* Small, and over 2^18 measurements: in two parts */
  static const guint64 sizes[] = { 5000, 300000 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (guint rate_changes = 0; rate_changes < 2; rate_changes++)
      {
        g_autoptr(PsEventStore) store = grouped_store_new (sizes[k], rate_changes, FALSE);

        PsSeriesOptions summary = { .durations_summary_only = TRUE };

        g_test_message ("%" G_GUINT64_FORMAT " measurements, %s", sizes[k],
                        rate_changes ? "a rate that changes" : "one rate a session");
        g_assert_cmpuint (assert_grouped_collects (store, &summary), >, 0);
        assert_grouped_options (store, sizes[k], k == 0);
      }

  /* Parsed from a CE PerfLog */
  {
    g_autofree char *text = ce_log_new (40);
    g_autoptr(PsEventStore) store = parse_fixture_pieces (&ps_format_ce_perflog, (const guint8 *)text,
                                                          strlen (text), 1 << 16, 0, NULL);
    PsSeriesOptions summary = { .durations_summary_only = TRUE };
    g_autoptr(GPtrArray) groups = NULL;
    guint64 n_excluded = 0;

    g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 2);
    g_assert_cmpuint (ps_event_store_get_n_tick_rates (store, 1), ==, 2);
    g_assert_cmpuint (assert_grouped_collects (store, &summary), >=, 2 * 2 * 3 + 2 * 2);
    assert_grouped_options (store, ps_event_store_get_n_measurements (store), TRUE);

    summary.group_by_name = TRUE;
    groups = ps_series_collect (store, &summary);
    for (guint i = 0; i < groups->len; i++)
      n_excluded += ((PsSeries *)g_ptr_array_index (groups, i))->n_excluded;
    g_assert_cmpuint (n_excluded, >, 0);
  }

  /* A log of CETK's, and one with a span besides its measurements */
  {
    g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "ce", "fsperf_CEPC_x86_6_0_3122.log", NULL);
    g_autoptr(PsEventStore) fixture = parse_fixture_load_file (path, 0);
    g_autoptr(PsEventStore) with_span = grouped_store_new (2000, TRUE, TRUE);
    PsSeriesOptions summary = { .durations_summary_only = TRUE, .group_by_name = TRUE };
    g_autoptr(GPtrArray) groups = NULL;
    g_autoptr(GPtrArray) members = NULL;

    assert_grouped_options (fixture, ps_event_store_get_n_measurements (fixture), TRUE);
    assert_grouped_options (with_span, 2000, TRUE);
    groups = ps_series_collect (with_span, &summary);
    g_assert_cmpint (((PsSeries *)g_ptr_array_index (groups, groups->len - 1))->kind, ==, PS_SERIES_SPAN);
    members = ps_series_collect_members (with_span, &summary, g_ptr_array_index (groups, groups->len - 1));
    g_assert_cmpuint (members->len, ==, 0);
  }

  /* Cancelled: an array all the same */
  {
    g_autoptr(PsEventStore) store = grouped_store_new (1000, FALSE, FALSE);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    PsSeriesOptions by_name = { .durations_summary_only = TRUE, .group_by_name = TRUE };
    PsSeriesOptions cancelled = { .durations_summary_only = TRUE, .cancellable = cancellable };
    g_autoptr(GPtrArray) groups = ps_series_collect (store, &by_name);
    g_autoptr(GPtrArray) members = NULL;

    g_cancellable_cancel (cancellable);
    members = ps_series_collect_members (store, &cancelled, g_ptr_array_index (groups, 0));
    g_assert_nonnull (members);
  }
}

/* The store's points (ps-series-points.h) ------------------------------ */

/* A CE-like store the points apply to: two sessions each with one rate
 * (or none), markers registered again and again, CPU and memory monitors
 * with flagged readings, events that are no measurement, and two markers
 * with over 65 536 durations each, whose percentiles are counted. Now and
 * then a duration is up to longest ticks: G_MAXINT32, the most the
 * points read from the store's pages, or more, which they hold as
 * values and the statistics take from the store. */
static PsEventStore *
points_store_new (guint64 n,
                  gint64  longest)
{
  enum { N_SESSIONS = 2, N_MARKERS = 4, N_REGISTRATIONS = 3 };
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 markers[N_SESSIONS][N_MARKERS * N_REGISTRATIONS];
  guint32 cpu[N_SESSIONS], memory[N_SESSIONS];

  for (guint s = 0; s < N_SESSIONS; s++)
    {
      guint32 session = ps_event_store_add_session (store, 1 + s * 1000, FALSE);

      cpu[s] = add_instance (store, session, "alpha", "CPU: alpha", 103, 1);
      memory[s] = add_instance (store, session, "alpha", "MEM: alpha", 102, 1);
      for (guint r = 0; r < N_REGISTRATIONS; r++)
        for (guint m = 0; m < N_MARKERS; m++)
          {
            g_autofree char *name = g_strdup_printf ("Test=Read Size=%u", m);

            markers[s][r * N_MARKERS + m] = add_instance (store, session, "alpha", name, m, r + 1);
          }
      if (s == 0)
        ps_event_store_add_tick_rate (store, session, 0, 1193180);
    }

  for (guint64 i = 0; i < n; i++)
    {
      guint s = i < n / 2 ? 0 : 1;
      guint64 mix = i * G_GUINT64_CONSTANT (2654435761);
      /* Runs of the same marker, most of them the first two's */
      guint m = (i / 1000) % 8 < 6 ? (guint)((i / 1000) % 2) : 2 + (guint)((i / 1000) % 2);
      guint32 marker = markers[s][((i / 5000) % N_REGISTRATIONS) * N_MARKERS + m];

      switch (i % 23)
        {
        case 0:
          ps_store_builder_add_cpu (builder, cpu[s], i + 1, (double)(mix % 1200) / 10,
                                    mix % 1200 > 1000 ? PS_MEASURE_FLAG_OUT_OF_RANGE : 0);
          break;
        case 1:
          ps_store_builder_add_memory (builder, memory[s], i + 1, mix % 100000000, 0);
          break;
        case 2:
          ps_store_builder_add_memory_number (builder, memory[s], i + 1, (double)(mix % 1000) + 0.5,
                                              PS_MEASURE_FLAG_FRACTIONAL);
          break;
        case 3:
          ps_store_builder_add_other (builder, marker, i + 1, "XYZ", -1, "1", -1);
          break;
        default:
          /* Crowded durations, now and then a long one */
          ps_store_builder_add_duration (builder, marker, i + 1,
                                         i % 997 == 0 ? longest - (gint64)(mix % 1000)
                                                      : 4000 + (gint64)((mix >> 13) % 3000), 0);
          break;
        }
    }
  ps_store_builder_flush (builder);

  return g_steal_pointer (&store);
}

/* Each chart holds its marker's measurements of its kind in file order,
 * with the values ps_series_measurement_value () gives them; returns how
 * many duration charts read their ticks from the store's pages, and how
 * many hold values (*n_held) */
static guint
assert_points_of_store (PsEventStore         *store,
                        const PsSeriesPoints *points,
                        guint                *n_held)
{
  const guint32 *markers = ps_series_points_get_markers (points);
  const gint64 *extents = ps_series_points_get_extents (points);
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint n_charts = ps_series_points_get_n_markers (points) * 3;
  g_autofree gsize *next = g_new0 (gsize, n_charts + 1);
  g_autofree gint64 *first = g_new (gint64, n_tracks + 1);
  g_autofree gint64 *last = g_new (gint64, n_tracks + 1);
  PsMeasurementIter iter;
  PsMeasurement m;
  guint n_paged = 0;

  g_assert_cmpuint (ps_series_points_get_n_tracks (points), ==, n_tracks);
  for (guint t = 0; t < n_tracks; t++)
    {
      first[t] = G_MAXINT64;
      last[t] = G_MININT64;
    }
  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      PsSeriesChart chart;
      gsize at;
      double value;

      if (m.kind > PS_MEASURE_MEMORY)
        continue;
      first[m.track] = MIN (first[m.track], (gint64)m.index);
      last[m.track] = MAX (last[m.track], (gint64)m.index);
      ps_series_points_get_chart (points, markers[m.track], m.kind, &chart);
      at = next[markers[m.track] * 3 + m.kind]++;
      g_assert_cmpuint (at, <, chart.n_points);
      g_assert_cmpint (chart.x_narrow != NULL ? (gint64)chart.x_narrow[at] : chart.x[at], ==, (gint64)m.index);
      value = chart.ticks_pages != NULL ? ps_series_chart_ticks (&chart, at) / chart.divisor : chart.values[at];
      g_assert_cmpfloat (value, ==, ps_series_measurement_value (store, &m));
    }
  /* Each track's first and last measurement charted */
  for (guint t = 0; t < n_tracks; t++)
    {
      g_assert_cmpint (extents[2 * t], ==, first[t]);
      g_assert_cmpint (extents[2 * t + 1], ==, last[t]);
    }
  *n_held = 0;
  for (guint32 marker = 0; marker < n_charts / 3; marker++)
    for (guint kind = PS_MEASURE_DURATION; kind <= PS_MEASURE_MEMORY; kind++)
      {
        PsSeriesChart chart;

        ps_series_points_get_chart (points, marker, kind, &chart);
        g_assert_cmpuint (next[marker * 3 + kind], ==, chart.n_points);
        if (kind == PS_MEASURE_DURATION && chart.n_points > 0)
          {
            n_paged += chart.ticks_pages != NULL;
            *n_held += chart.ticks_pages == NULL;
          }
      }
  return n_paged;
}

/* The series of a store from its points are those from the store, in
 * every field and bit for bit, whether the points apply or not; returns
 * how many of its duration charts are read from the store's pages, and
 * how many are held as values (*n_held) */
static guint
assert_series_from_points (PsEventStore *store,
                           guint        *n_held)
{
  g_autoptr(PsSeriesPoints) points = ps_series_points_new (store, NULL);
  g_autoptr(PsSeriesPoints) shared = ps_series_points_get_shared (store, NULL);
  g_autoptr(PsSeriesPoints) shared_again = ps_series_points_get_shared (store, NULL);
  PsSeriesOptions options = { .durations_summary_only = TRUE, .group_by_name = TRUE };
  g_autoptr(GPtrArray) expected = ps_series_collect (store, &options);
  g_autoptr(GPtrArray) got = NULL;
  guint n_paged;

  g_assert_nonnull (points);
  g_assert_true (shared == shared_again);
  n_paged = assert_points_of_store (store, points, n_held);
  options.points = points;
  got = ps_series_collect (store, &options);
  g_assert_cmpuint (got->len, ==, expected->len);
  for (guint i = 0; i < got->len; i++)
    assert_same_series (g_ptr_array_index (got, i), g_ptr_array_index (expected, i));
  return n_paged;
}

static void
test_points (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "ce", "fsperf_CEPC_x86_6_0_3122.log", NULL);
  g_autoptr(PsEventStore) fixture = parse_fixture_load_file (path, 0);
  /* Over more than 8 pages, the points are made by two threads, each
   * over half of them */
  g_autoptr(PsEventStore) big = points_store_new (600000, G_MAXINT32);
  g_autoptr(PsEventStore) held = points_store_new (530000, G_MAXUINT32);
  g_autoptr(PsEventStore) small = points_store_new (3000, G_MAXUINT32);
  /* Negative durations and a rate that changes: from the store */
  g_autoptr(PsEventStore) grouped = grouped_store_new (5000, TRUE, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint n_held;

  g_assert_cmpuint (assert_series_from_points (fixture, &n_held), >, 0);
  g_assert_cmpuint (n_held, ==, 0);
  /* Over several pages, every duration chart read from them: 4 markers
   * in each of 2 sessions */
  g_assert_cmpuint (ps_event_store_get_n_measurements (big) >> PS_EVENT_STORE_VALUE_PAGE_SHIFT, >=, 8);
  g_assert_cmpuint (assert_series_from_points (big, &n_held), ==, 8);
  g_assert_cmpuint (n_held, ==, 0);
  /* Durations past 2³¹ held as values, in one page and over more than 8 */
  assert_series_from_points (small, &n_held);
  g_assert_cmpuint (n_held, >, 0);
  g_assert_cmpuint (ps_event_store_get_n_measurements (held) >> PS_EVENT_STORE_VALUE_PAGE_SHIFT, >=, 8);
  assert_series_from_points (held, &n_held);
  g_assert_cmpuint (n_held, >, 0);
  assert_series_from_points (grouped, &n_held);

  g_cancellable_cancel (cancellable);
  g_assert_null (ps_series_points_new (big, cancellable));
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
  g_test_add_func ("/series/grouped", test_grouped);
  g_test_add_func ("/series/points", test_points);

  return g_test_run ();
}

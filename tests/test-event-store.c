/* test-event-store.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-event-store.h"
#include "ps-store-builder.h"

static guint32
add_marker_track (PsEventStore *store,
                  const char   *name)
{
  PsTrack track = { 0 };

  track.kind = PS_TRACK_MARKER_INSTANCE;
  track.name = ps_event_store_intern (store, name, -1);
  track.category = ps_event_store_intern (store, "app", -1);
  track.parent = PS_NONE;
  track.ordinal = 1;
  return ps_event_store_add_track (store, &track);
}

static void
test_strings (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  guint32 a = ps_event_store_intern (store, "alpha", -1);
  guint32 b = ps_event_store_intern (store, "alphabet", 5);
  guint32 c = ps_event_store_intern (store, "beta", 4);
  g_autofree char *long_text = g_strnfill (1000, 'x');
  guint32 d = ps_event_store_intern (store, long_text, -1);

  g_assert_cmpuint (ps_event_store_intern (store, "", 0), ==, 0);
  g_assert_cmpstr (ps_event_store_get_string (store, 0), ==, "");
  g_assert_cmpuint (a, ==, b);
  g_assert_cmpuint (a, !=, c);
  g_assert_cmpstr (ps_event_store_get_string (store, c), ==, "beta");
  g_assert_cmpstr (ps_event_store_get_string (store, d), ==, long_text);
  g_assert_cmpuint (ps_event_store_intern (store, long_text, -1), ==, d);
  /* out of range ids read as empty, never crash */
  g_assert_cmpstr (ps_event_store_get_string (store, 99999), ==, "");
}

static void
test_measurements_round_trip (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_marker_track (store, "Test=Write");
  guint32 other_track = add_marker_track (store, "CPU: app");
  const guint64 n = 200000;
  PsMeasurementIter iter;
  PsMeasurement m;
  guint64 i = 0;

  /* Values narrow and wide, lines close and far apart */
  for (i = 0; i < n; i++)
    {
      guint64 line = 10 + i * 3 + (i % 1000 == 0 ? 100000 * i : 0);

      switch (i % 5)
        {
        case 0:
          ps_store_builder_add_duration (builder, track, line, (gint64)i * 7, 0);
          break;
        case 1:
          ps_store_builder_add_duration (builder, track, line, G_GINT64_CONSTANT (9000000000000) + (gint64)i,
                                         0);
          break;
        case 2:
          ps_store_builder_add_cpu (builder, other_track, line, 57.843834 + (double)i, 0);
          break;
        case 3:
          ps_store_builder_add_memory (builder, other_track, line, G_GUINT64_CONSTANT (10059776) * (i % 1000),
                                       0);
          break;
        case 4:
          ps_store_builder_add_duration (builder, track, line, -(gint64)i, PS_MEASURE_FLAG_NEGATIVE);
          break;
        }
    }
  ps_store_builder_flush (builder);

  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, n);
  g_assert_true (ps_event_store_get_track (store, track)->flags & PS_TRACK_FLAG_HAS_DURATION);
  g_assert_true (ps_event_store_get_track (store, other_track)->flags & PS_TRACK_FLAG_HAS_CPU);
  g_assert_true (ps_event_store_get_track (store, other_track)->flags & PS_TRACK_FLAG_HAS_MEMORY);
  g_assert_false (ps_event_store_get_track (store, track)->flags & PS_TRACK_FLAG_HAS_CPU);

  ps_measurement_iter_init (&iter, store);
  i = 0;
  while (ps_measurement_iter_next (&iter, &m))
    {
      guint64 line = 10 + i * 3 + (i % 1000 == 0 ? 100000 * i : 0);
      PsMeasurement random_access;

      g_assert_cmpuint (m.index, ==, i);
      g_assert_cmpuint (m.line, ==, line);
      switch (i % 5)
        {
        case 0:
          g_assert_cmpint (m.kind, ==, PS_MEASURE_DURATION);
          g_assert_cmpint (m.value.ticks, ==, (gint64)i * 7);
          break;
        case 1:
          g_assert_cmpint (m.value.ticks, ==, G_GINT64_CONSTANT (9000000000000) + (gint64)i);
          break;
        case 2:
          g_assert_cmpint (m.kind, ==, PS_MEASURE_CPU);
          g_assert_cmpfloat (m.value.number, ==, 57.843834 + (double)i);
          break;
        case 3:
          g_assert_cmpint (m.kind, ==, PS_MEASURE_MEMORY);
          g_assert_cmpuint (m.value.bytes, ==, G_GUINT64_CONSTANT (10059776) * (i % 1000));
          break;
        case 4:
          g_assert_cmpint (m.value.ticks, ==, -(gint64)i);
          g_assert_cmpint (m.flags, ==, PS_MEASURE_FLAG_NEGATIVE);
          break;
        }

      ps_event_store_get_measurement (store, i, &random_access);
      g_assert_cmpuint (random_access.index, ==, m.index);
      g_assert_cmpuint (random_access.line, ==, m.line);
      g_assert_cmpuint (random_access.track, ==, m.track);
      g_assert_cmpuint (random_access.kind, ==, m.kind);
      g_assert_cmpuint (random_access.flags, ==, m.flags);
      g_assert_cmpuint (random_access.value.bytes, ==, m.value.bytes);
      i++;
    }
  g_assert_cmpuint (i, ==, n);
}

/* Typical CE data: small tick counts on nearby lines take 10 bytes an event */
static void
test_measurements_compact (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_marker_track (store, "Test=Write");
  const guint64 n = 1000000;

  for (guint64 i = 0; i < n; i++)
    ps_store_builder_add_duration (builder, track, 20 + i + i / 100, 45000 + (gint64)(i % 1000), 0);
  ps_store_builder_flush (builder);

  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, n);
  g_assert_cmpuint (ps_event_store_get_memory_size (store), <=, n * 9);
}

/* Many tracks: every event on another one, and tracks that collide in the
 * store's cache; each event must come back with its own track */
static void
test_measurements_many_tracks (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  const guint n_tracks = 150000;
  const guint64 n = 400000;
  PsMeasurementIter iter;
  PsMeasurement m;
  guint64 i = 0;

  for (guint t = 0; t < n_tracks; t++)
    add_marker_track (store, "t");
  for (i = 0; i < n; i++)
    {
      /* runs of one track, jumps, and strides that share cache slots */
      guint32 track = i < 100000 ? (guint32)(i % n_tracks)
                    : i < 200000 ? (guint32)((i / 7) % 5)
                    : (guint32)((i * 1024) % n_tracks);

      ps_store_builder_add_duration (builder, track, i + 1, (gint64)i, 0);
    }
  ps_store_builder_flush (builder);

  ps_measurement_iter_init (&iter, store);
  i = 0;
  while (ps_measurement_iter_next (&iter, &m))
    {
      guint32 track = i < 100000 ? (guint32)(i % n_tracks)
                    : i < 200000 ? (guint32)((i / 7) % 5)
                    : (guint32)((i * 1024) % n_tracks);
      PsMeasurement random_access;

      g_assert_cmpuint (m.track, ==, track);
      g_assert_cmpint (m.value.ticks, ==, (gint64)i);
      ps_event_store_get_measurement (store, i, &random_access);
      g_assert_cmpuint (random_access.track, ==, track);
      i++;
    }
  g_assert_cmpuint (i, ==, n);
}

static void
test_other_values (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_marker_track (store, "x");
  const char *kind = NULL;
  const char *raw = NULL;
  PsMeasurement m;

  ps_store_builder_add_other (builder, track, 3, "ERR", -1, "1", -1);
  ps_store_builder_add_memory_number (builder, track, 4, 1024.5, 0);
  ps_store_builder_flush (builder);

  ps_event_store_get_measurement (store, 0, &m);
  g_assert_cmpint (m.kind, ==, PS_MEASURE_OTHER);
  ps_event_store_get_other (store, m.value.other, &kind, &raw);
  g_assert_cmpstr (kind, ==, "ERR");
  g_assert_cmpstr (raw, ==, "1");
  g_assert_true (ps_event_store_get_track (store, track)->flags & PS_TRACK_FLAG_HAS_OTHER);

  ps_event_store_get_measurement (store, 1, &m);
  g_assert_cmpint (m.kind, ==, PS_MEASURE_MEMORY);
  g_assert_cmpint (m.flags, ==, PS_MEASURE_FLAG_FRACTIONAL);
  g_assert_cmpfloat (m.value.number, ==, 1024.5);
  g_assert_cmpuint (m.line, ==, 4);
}

static void
test_sessions_metadata_rates (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GArray) entries = NULL;
  guint32 s0 = ps_event_store_add_session (store, 1, FALSE);
  guint32 s1 = ps_event_store_add_session (store, 40, TRUE);

  ps_event_store_set_metadata (store, s0, "OSVERSION", "6.0");
  ps_event_store_set_metadata (store, s0, "BUILD", "3122");
  ps_event_store_set_metadata (store, s0, "OSVERSION", "7.0");
  ps_event_store_set_metadata (store, s1, "OSVERSION", "6.0");

  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 2);
  g_assert_true (ps_event_store_get_session (store, s1)->implicit);
  g_assert_cmpstr (ps_event_store_get_metadata (store, s0, "OSVERSION"), ==, "7.0");
  g_assert_cmpstr (ps_event_store_get_metadata (store, s1, "OSVERSION"), ==, "6.0");
  g_assert_null (ps_event_store_get_metadata (store, s1, "BUILD"));

  entries = ps_event_store_list_metadata (store, s0);
  g_assert_cmpuint (entries->len, ==, 2);
  g_assert_cmpstr (g_array_index (entries, PsMetadataEntry, 0).key, ==, "OSVERSION");
  g_assert_cmpstr (g_array_index (entries, PsMetadataEntry, 1).value, ==, "3122");

  /* No rate known */
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s0, 5), ==, 0);
  /* First rate applies from the start, the second from its index on */
  ps_event_store_add_tick_rate (store, s0, 10, 1000);
  ps_event_store_add_tick_rate (store, s0, 20, 1193180);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s0, 0), ==, 1000);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s0, 19), ==, 1000);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s0, 20), ==, 1193180);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s1, 20), ==, 0);

  /* Many rates (a log of many appended runs, found by fuzzing: each
   * lookup once walked them all), one added out of order, equal
   * from_index (the later one counts) */
  for (guint i = 0; i < 1000; i++)
    ps_event_store_add_tick_rate (store, s1, 100 + i * 10, 2000 + i);
  ps_event_store_add_tick_rate (store, s1, 55, 7);
  ps_event_store_add_tick_rate (store, s1, 100, 8);
  g_assert_cmpuint (ps_event_store_get_n_tick_rates (store, s1), ==, 1002);
  /* Before every rate: the first added */
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s1, 20), ==, 2000);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s1, 55), ==, 7);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s1, 99), ==, 7);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s1, 100), ==, 8);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s1, 115), ==, 2001);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s1, 100 + 999 * 10 + 5), ==, 2999);
  g_assert_cmpuint (ps_event_store_get_n_tick_rates (store, s0), ==, 2);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, s0, 20), ==, 1193180);
  g_assert_cmpuint (ps_event_store_get_n_tick_rates (store, s0), ==, 2);
}

static void
test_warnings_capped (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  PsWarning warning;

  for (guint i = 0; i < PS_EVENT_STORE_MAX_WARNINGS + 500; i++)
    ps_store_builder_warn (builder, PS_SEVERITY_WARNING, "W-BADVALUE", i + 1, 100 * i, 0,
                           "line %u: expected a number", i + 1);

  g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, PS_EVENT_STORE_MAX_WARNINGS);
  g_assert_cmpuint (ps_event_store_get_n_warnings_raised (store), ==, PS_EVENT_STORE_MAX_WARNINGS + 500);
  ps_event_store_get_warning (store, 41, &warning);
  g_assert_cmpstr (warning.code, ==, "W-BADVALUE");
  g_assert_cmpstr (warning.message, ==, "line 42: expected a number");
  g_assert_cmpuint (warning.line, ==, 42);
  g_assert_cmpuint (warning.offset, ==, 4100);
  g_assert_cmpint (warning.severity, ==, PS_SEVERITY_WARNING);
}

static void
test_other_kinds (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 f_main = ps_event_store_intern_frame (store, ps_event_store_intern (store, "main", -1), 0, 0x1000);
  guint32 f_a = ps_event_store_intern_frame (store, ps_event_store_intern (store, "A", -1), 0, 0x2000);
  guint32 s_main = ps_event_store_intern_stack (store, 0, f_main);
  guint32 s_a = ps_event_store_intern_stack (store, s_main, f_a);
  guint16 clock, cycles;
  gint64 begin = 0;
  gint64 end = 0;

  g_assert_cmpuint (sizeof (PsSpan), <=, 32);
  g_assert_cmpuint (sizeof (PsSample), <=, 32);
  g_assert_cmpuint (sizeof (PsMark), <=, 40);
  g_assert_cmpuint (sizeof (PsCounterValue), <=, 40);

  g_assert_cmpuint (ps_event_store_intern_frame (store, ps_event_store_intern (store, "main", -1), 0, 0x1000), ==,
                    f_main);
  g_assert_cmpuint (ps_event_store_intern_stack (store, s_main, f_a), ==, s_a);
  g_assert_cmpuint (ps_event_store_get_stack_node (store, s_a)->parent, ==, s_main);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_frame (store, f_a)->function), ==, "A");

  g_assert_false (ps_event_store_get_time_range (store, &begin, &end));

  /* Many frames and stacks: the index grows and keeps every id */
  {
    guint32 parent = s_a;
    g_autofree guint32 *ids = g_new (guint32, 100000);

    for (guint i = 0; i < 100000; i++)
      {
        guint32 frame = ps_event_store_intern_frame (store, 0, i % 7, 0x400000 + i);

        parent = ids[i] = ps_event_store_intern_stack (store, i % 3 == 0 ? s_a : parent, frame);
      }
    g_assert_cmpuint (ps_event_store_intern_frame (store, 0, 99998 % 7, 0x400000 + 99998), ==, ps_event_store_get_stack_node (store, ids[99998])->frame);
    parent = s_a;
    for (guint i = 0; i < 100000; i++)
      {
        guint32 frame = ps_event_store_intern_frame (store, 0, i % 7, 0x400000 + i);

        parent = ps_event_store_intern_stack (store, i % 3 == 0 ? s_a : parent, frame);
        g_assert_cmpuint (parent, ==, ids[i]);
      }
    g_assert_cmpuint (ps_event_store_get_stack_node (store, ids[5])->parent, ==, ids[4]);
    g_assert_cmpuint (ps_event_store_get_stack_node (store, ids[6])->parent, ==, s_a);
    g_assert_cmpuint (ps_event_store_get_frame (store, ps_event_store_get_stack_node (store, ids[6])->frame)->address, ==, 0x400006);
  }

  clock = ps_event_store_add_sample_source (store, ps_event_store_intern (store, "CLOCK.HARD", -1), 0);
  cycles = ps_event_store_add_sample_source (store, ps_event_store_intern (store, "cpu_clk_unhalted.thread", -1), 65536);
  g_assert_cmpuint (ps_event_store_add_sample_source (store, ps_event_store_intern (store, "CLOCK.HARD", -1), 0), ==, clock);
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (store), ==, 2);

  for (guint i = 0; i < 40000; i++)
    {
      PsSpan span = { (gint64)i * 10, (gint64)i * 10 + 5, 0, 0, PS_NONE, 0, 0 };
      PsSample sample = { (gint64)i * 10 + 1, 0, s_a, 1 + i % 2, 0, i % 4 == 0 ? cycles : clock };

      ps_store_builder_add_span (builder, &span);
      ps_store_builder_add_sample (builder, &sample);
    }
  ps_store_builder_flush (builder);

  g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, 40000);
  g_assert_cmpint (ps_event_store_get_span (store, 39999)->begin_ns, ==, 399990);
  g_assert_cmpuint (ps_event_store_get_sample (store, 20000)->stack, ==, s_a);
  /* Weights 1 and 2 alternate; every fourth sample (weight 1) is a cycle count */
  g_assert_cmpuint (ps_event_store_get_sample_source (store, cycles)->n_samples, ==, 10000);
  g_assert_cmpuint (ps_event_store_get_sample_source (store, clock)->n_samples, ==, 50000);
  g_assert_cmpuint (ps_event_store_get_sample_source (store, cycles)->rate, ==, 65536);
  g_assert_true (ps_event_store_get_time_range (store, &begin, &end));
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 399995);
}

/* Every reading counts in the statistics and the overview; past the
 * limit, every second (fourth, …) reading of each track is kept */
static void
test_counter_readings (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  const PsCounterStats *stats;
  PsCounterOverview overview;
  guint64 n_kept[2] = { 0, 0 };
  guint64 in_buckets = 0;
  double max_of_buckets = -1;

  ps_event_store_set_max_counter_values (store, 1000);
  g_assert_null (ps_event_store_get_counter_stats (store, 0));
  /* Track 0: i % 100 each second for 3000 s, every 10th missing; track 1: 5 */
  for (guint i = 0; i < 3000; i++)
    for (guint32 track = 0; track < 2; track++)
      {
        PsCounterValue value = { 0 };

        value.time_ns = (gint64)i * 1000000000;
        value.track = track;
        value.value = track == 0 ? i % 100 : 5;
        if (track == 0 && i % 10 == 9)
          {
            value.flags = PS_COUNTER_FLAG_MISSING;
            value.value = NAN;
          }
        ps_store_builder_add_counter_value (builder, &value);
      }
  ps_store_builder_flush (builder);

  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), ==, 6000);
  stats = ps_event_store_get_counter_stats (store, 0);
  g_assert_nonnull (stats);
  g_assert_cmpuint (stats->n_values, ==, 2700);
  g_assert_cmpuint (stats->n_missing, ==, 300);
  g_assert_cmpfloat (stats->min, ==, 0);
  g_assert_cmpfloat (stats->max, ==, 98);
  g_assert_cmpfloat (stats->first, ==, 0);
  g_assert_cmpfloat (stats->last, ==, 98);
  /* 30 × (0 + … + 98 without 9, 19, …, 99) */
  g_assert_cmpfloat (stats->sum, ==, 30.0 * (4950 - (9 + 19 + 29 + 39 + 49 + 59 + 69 + 79 + 89 + 99)));
  g_assert_cmpint (stats->first_ns, ==, 0);
  g_assert_cmpint (stats->last_ns, ==, 2998 * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpfloat (ps_event_store_get_counter_stats (store, 1)->sum, ==, 15000);

  /* 6000 readings, at most 1000 kept: one in 8 */
  g_assert_cmpuint (ps_event_store_get_counter_stride (store), ==, 8);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 750);
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      /* The kept ones are readings 0, 8, 16, … of their track */
      g_assert_cmpint (value->time_ns, ==, (gint64)n_kept[value->track] * 8 * 1000000000);
      n_kept[value->track]++;
    }
  g_assert_cmpuint (n_kept[0], ==, 375);
  g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 1);

  /* The overview: 3000 s in at most 1024 buckets of a power of two ns */
  g_assert_true (ps_event_store_get_counter_overview (store, 0, &overview));
  g_assert_cmpint (overview.begin_ns, ==, 0);
  g_assert_cmpint (overview.bucket_ns * PS_COUNTER_OVERVIEW_BUCKETS, >, 2998 * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpint (overview.bucket_ns * PS_COUNTER_OVERVIEW_BUCKETS / 2, <=, 2998 * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpuint (overview.n_buckets, <=, PS_COUNTER_OVERVIEW_BUCKETS);
  for (guint b = 0; b < overview.n_buckets; b++)
    {
      in_buckets += overview.buckets[b].count;
      max_of_buckets = MAX (max_of_buckets, overview.buckets[b].max);
      if (overview.buckets[b].count > 0)
        {
          g_assert_cmpfloat (overview.buckets[b].min, <=, overview.buckets[b].mean);
          g_assert_cmpfloat (overview.buckets[b].mean, <=, overview.buckets[b].max);
        }
    }
  g_assert_cmpuint (in_buckets, ==, 2700);
  g_assert_cmpfloat (max_of_buckets, ==, 98);
  g_assert_true (ps_event_store_get_counter_overview (store, 1, &overview));
  g_assert_cmpfloat (overview.buckets[overview.n_buckets - 1].mean, ==, 5);
  g_assert_false (ps_event_store_get_counter_overview (store, 2, &overview));
}

/* The inline ps_counter_series_add_value () gives exactly the statistics
 * and overview of ps_counter_series_add (): through new buckets, widenings,
 * readings before the first, infinite values and missing readings */
static void
test_counter_series_inline (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  PsCounterSeries general, inline_;
  PsCounterOverview a, b;
  gint64 time_ns = 5000;

  ps_counter_series_init (&general);
  ps_counter_series_init (&inline_);
  for (guint i = 0; i < 200000; i++)
    {
      double value = g_rand_double_range (rand, -1e6, 1e6);
      guint kind = g_rand_int_range (rand, 0, 1000);

      /* Mostly forward by about a second, sometimes back or far ahead */
      if (kind < 5)
        time_ns -= g_rand_int_range (rand, 0, 1000000);
      else if (kind < 7)
        time_ns += (gint64)g_rand_int_range (rand, 0, 1000) * 1000000000;
      else
        time_ns += g_rand_int_range (rand, 1, 2000000000);
      if (kind >= 10 && kind < 12)
        value = kind == 10 ? INFINITY : NAN;

      if (kind == 12)
        {
          ps_counter_series_add (&general, time_ns, NAN, TRUE);
          ps_counter_series_add (&inline_, time_ns, NAN, TRUE);
          continue;
        }
      ps_counter_series_add (&general, time_ns, value, FALSE);
      ps_counter_series_add_value (&inline_, time_ns, value);
      /* An overview taken in the middle flushes the bucket being filled */
      if (i % 50000 == 49999)
        {
          ps_counter_series_get_overview (&general, &a);
          ps_counter_series_get_overview (&inline_, &b);
        }
    }

  g_assert_cmpuint (general.n_readings, ==, inline_.n_readings);
  g_assert_cmpuint (general.stats.n_missing, >, 0);
  g_assert_true (memcmp (&general.stats, &inline_.stats, sizeof general.stats) == 0);
  ps_counter_series_get_overview (&general, &a);
  ps_counter_series_get_overview (&inline_, &b);
  g_assert_cmpint (a.bucket_ns, >, 1000000000);
  g_assert_cmpint (a.begin_ns, ==, b.begin_ns);
  g_assert_cmpint (a.bucket_ns, ==, b.bucket_ns);
  g_assert_cmpuint (a.n_buckets, ==, b.n_buckets);
  g_assert_cmpuint (a.n_buckets, >, PS_COUNTER_OVERVIEW_BUCKETS / 2);
  g_assert_true (memcmp (a.buckets, b.buckets, a.n_buckets * sizeof (PsCounterBucket)) == 0);
  ps_counter_series_clear (&general);
  ps_counter_series_clear (&inline_);
}

/* Readings years apart widen the overview's buckets by more than 32
 * doublings at once (found by fuzzing a PDH log) */
static void
test_counter_series_far_apart (void)
{
  PsCounterSeries series;
  PsCounterOverview overview;
  const gint64 year_ns = G_GINT64_CONSTANT (365) * 86400 * 1000000000;

  ps_counter_series_init (&series);
  ps_counter_series_add (&series, 0, 1, FALSE);
  ps_counter_series_add (&series, 500000000, 3, FALSE);
  ps_counter_series_add (&series, year_ns, 5, FALSE);
  ps_counter_series_add (&series, 200 * year_ns, 9, FALSE);
  ps_counter_series_get_overview (&series, &overview);

  g_assert_cmpint (overview.begin_ns, ==, 0);
  g_assert_cmpint (overview.bucket_ns, >, 200 * year_ns / PS_COUNTER_OVERVIEW_BUCKETS);
  g_assert_cmpuint (overview.n_buckets, <=, PS_COUNTER_OVERVIEW_BUCKETS);
  /* The first two readings share the first bucket; the last is last */
  g_assert_cmpuint (overview.buckets[0].count, ==, 2);
  g_assert_cmpfloat (overview.buckets[0].min, ==, 1);
  g_assert_cmpfloat (overview.buckets[0].max, ==, 3);
  g_assert_cmpuint (overview.buckets[overview.n_buckets - 1].count, ==, 1);
  g_assert_cmpfloat (overview.buckets[overview.n_buckets - 1].max, ==, 9);
  ps_counter_series_clear (&series);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/event-store/strings", test_strings);
  g_test_add_func ("/event-store/measurements/round-trip", test_measurements_round_trip);
  g_test_add_func ("/event-store/measurements/compact", test_measurements_compact);
  g_test_add_func ("/event-store/measurements/many-tracks", test_measurements_many_tracks);
  g_test_add_func ("/event-store/measurements/other", test_other_values);
  g_test_add_func ("/event-store/sessions", test_sessions_metadata_rates);
  g_test_add_func ("/event-store/warnings", test_warnings_capped);
  g_test_add_func ("/event-store/other-kinds", test_other_kinds);
  g_test_add_func ("/event-store/counter-readings", test_counter_readings);
  g_test_add_func ("/event-store/counter-series-inline", test_counter_series_inline);
  g_test_add_func ("/event-store/counter-series-far-apart", test_counter_series_far_apart);

  return g_test_run ();
}

/* test-event-store.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ps-counter-range.h"
#include "ps-event-store-private.h"
#include "ps-loader.h"
#include "ps-native-writer.h"
#include "ps-store-builder.h"
#include "ps-util.h"

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
assert_same_measurement (const PsMeasurement *got,
                         const PsMeasurement *expected)
{
  g_assert_cmpuint (got->index, ==, expected->index);
  g_assert_cmpuint (got->line, ==, expected->line);
  g_assert_cmpuint (got->track, ==, expected->track);
  g_assert_cmpuint (got->kind, ==, expected->kind);
  g_assert_cmpuint (got->flags, ==, expected->flags);
  g_assert_cmpuint (got->value.bytes, ==, expected->value.bytes);
}

/* ps_measurement_iter_next_of () from start gives, field for field, the
 * measurements of the wanted tracks that ps_measurement_iter_next ()
 * gives; returns how many */
static guint64
assert_next_of (PsEventStore *store,
                const guint8 *wanted,
                guint         n_wanted,
                guint64       start)
{
  PsMeasurementIter all;
  PsMeasurementIter some;
  PsMeasurement expected;
  PsMeasurement m;
  guint64 n_found = 0;

  ps_measurement_iter_init_at (&all, store, start);
  ps_measurement_iter_init_at (&some, store, start);
  while (ps_measurement_iter_next (&all, &expected))
    {
      if (expected.track >= n_wanted || !wanted[expected.track])
        continue;
      g_assert_true (ps_measurement_iter_next_of (&some, wanted, n_wanted, &m));
      assert_same_measurement (&m, &expected);
      n_found++;
    }
  g_assert_false (ps_measurement_iter_next_of (&some, wanted, n_wanted, &m));
  return n_found;
}

/* A measurement as its page shows it: its track, kind and flags, and a
 * value kept in 32 bits (a duration of 0 to G_MAXINT32 ticks as it is)
 * unless marked as kept in full */
static void
assert_in_page (PsEventStore        *store,
                const PsMeasurement *m)
{
  guint64 page_index = m->index >> PS_EVENT_STORE_VALUE_PAGE_SHIFT;
  guint i = (guint)(m->index & ((1u << PS_EVENT_STORE_VALUE_PAGE_SHIFT) - 1));
  PsMeasurementPage page;
  gboolean wide;

  ps_event_store_get_measurement_page (store, page_index, &page);
  g_assert_cmpuint (page.first + i, ==, m->index);
  g_assert_cmpuint (i, <, page.n_measurements);
  g_assert_cmpuint (page.track_index[i], <, page.n_tracks);
  g_assert_cmpuint (page.tracks[page.track_index[i]], ==, m->track);
  g_assert_cmpint (ps_measurement_meta_kind (page.meta[i]), ==, m->kind);
  g_assert_cmpuint (ps_measurement_meta_flags (page.meta[i]), ==, m->flags);
  g_assert_true (page.values == ps_event_store_get_value_page (store, page_index));
  wide = (page.meta[i] & PS_MEASUREMENT_META_WIDE) != 0;
  if (m->kind == PS_MEASURE_DURATION)
    {
      g_assert_cmpint (wide, ==, m->value.ticks < G_MININT32 || m->value.ticks > G_MAXINT32);
      if (m->value.ticks >= 0 && m->value.ticks <= G_MAXINT32)
        g_assert_cmpint (page.values[i], ==, m->value.ticks);
    }
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
      assert_same_measurement (&random_access, &m);
      /* The same but for the line, which it does not read */
      ps_event_store_get_measurement_value (store, i, &random_access);
      g_assert_cmpuint (random_access.line, ==, 0);
      random_access.line = m.line;
      assert_same_measurement (&random_access, &m);
      assert_in_page (store, &m);
      i++;
    }
  g_assert_cmpuint (i, ==, n);
  g_assert_cmpuint (n >> PS_EVENT_STORE_VALUE_PAGE_SHIFT, >=, 3);

  /* An iterator started anywhere reads on as one from the start: at
   * checkpoints, across blocks, after far lines and wide values */
  for (guint64 start = 0; start <= n + 1; start += start % 3 == 0 ? 4093 : 1)
    {
      ps_measurement_iter_init_at (&iter, store, start);
      for (i = start; i < MIN (start + 300, n); i++)
        {
          PsMeasurement random_access;

          g_assert_true (ps_measurement_iter_next (&iter, &m));
          ps_event_store_get_measurement (store, i, &random_access);
          g_assert_cmpuint (m.index, ==, i);
          g_assert_cmpuint (m.line, ==, random_access.line);
          g_assert_cmpuint (m.track, ==, random_access.track);
          g_assert_cmpuint (m.kind, ==, random_access.kind);
          g_assert_cmpuint (m.value.bytes, ==, random_access.value.bytes);
        }
      if (start + 300 >= n)
        g_assert_false (ps_measurement_iter_next (&iter, &m));
    }

  /* The measurements of one track, the others passed over: their lines
   * too, across checkpoints, far lines and wide values */
  {
    guint8 durations[2] = { 0 };
    guint8 monitor[2] = { 0 };
    guint8 none[2] = { 0 };

    durations[track] = 1;
    monitor[other_track] = 1;
    g_assert_cmpuint (assert_next_of (store, durations, 2, 0), ==, n / 5 * 3);
    g_assert_cmpuint (assert_next_of (store, monitor, 2, 0), ==, n / 5 * 2);
    g_assert_cmpuint (assert_next_of (store, monitor, 1, 0), ==, 0);
    g_assert_cmpuint (assert_next_of (store, none, 2, 0), ==, 0);
    for (guint64 start = 1; start < n; start += 65537)
      assert_next_of (store, monitor, 2, start);
  }
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

  /* A few tracks among many: a twentieth of them, and one */
  {
    g_autofree guint8 *wanted = g_new0 (guint8, n_tracks);

    for (guint t = 0; t < n_tracks; t += 20)
      wanted[t] = 1;
    g_assert_cmpuint (assert_next_of (store, wanted, n_tracks, 0), >, n / 40);
    memset (wanted, 0, n_tracks);
    wanted[3] = 1;
    g_assert_cmpuint (assert_next_of (store, wanted, n_tracks, 0), >, 100000 / 5 / 7);
  }
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
    ps_store_builder_warn (builder, PS_SEVERITY_WARNING, "W-BADVALUE", &(PsWarningPlace) { i + 1, 100 * i, 0 },
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
  g_assert_cmpuint (sizeof (PsCounterValue), <=, 24);

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

    /* Loaded, the store lets its index of stacks go; a stack interned
     * after that is found again, or made */
    {
      gsize before = ps_event_store_get_memory_size (store);
      guint32 n_stacks = ps_event_store_get_n_stack_nodes (store);

      ps_event_store_loaded (store);
      g_assert_cmpuint (ps_event_store_get_memory_size (store), <=, before - 131072 * sizeof (guint64));
      parent = s_a;
      for (guint i = 0; i < 100000; i++)
        {
          guint32 frame = ps_event_store_intern_frame (store, 0, i % 7, 0x400000 + i);

          parent = ps_event_store_intern_stack (store, i % 3 == 0 ? s_a : parent, frame);
          g_assert_cmpuint (parent, ==, ids[i]);
        }
      g_assert_cmpuint (ps_event_store_get_n_stack_nodes (store), ==, n_stacks);
      g_assert_cmpuint (ps_event_store_intern_stack (store, ids[99999], f_main), ==, n_stacks);
      g_assert_cmpuint (ps_event_store_intern_stack (store, s_main, f_a), ==, s_a);
    }
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
 * limit, every second (fourth, …) reading of each track is kept, with its
 * raws */
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
  /* Track 0: i % 100 each second for 3000 s, every 10th missing; track 1:
   * 5, with raws (i, 2 i) from the 1001st second on */
  for (guint i = 0; i < 3000; i++)
    {
      if (i == 1000)
        {
          ps_store_builder_flush (builder);
          g_assert_null (ps_event_store_get_counter_raw (store, 0));
        }
      for (guint32 track = 0; track < 2; track++)
        {
          PsCounterValue value = { 0 };
          PsCounterRaw raw = { i, 2 * (gint64)i };

          value.time_ns = (gint64)i * 1000000000;
          value.track = track;
          value.value = track == 0 ? i % 100 : 5;
          if (track == 0 && i % 10 == 9)
            {
              value.flags = PS_COUNTER_FLAG_MISSING;
              value.value = NAN;
            }
          if (track == 1 && i >= 1000)
            value.flags = PS_COUNTER_FLAG_RAW;
          ps_store_builder_add_raw_counter_value (builder, &value, value.flags & PS_COUNTER_FLAG_RAW ? &raw : NULL);
        }
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
      const PsCounterRaw *raw = ps_event_store_get_counter_raw (store, i);
      gint64 second = (gint64)n_kept[value->track] * 8;

      /* The kept ones are readings 0, 8, 16, … of their track */
      g_assert_cmpint (value->time_ns, ==, second * 1000000000);
      g_assert_nonnull (raw);
      g_assert_cmpint (raw->raw, ==, value->track == 1 && second >= 1000 ? second : 0);
      g_assert_cmpint (raw->base, ==, value->track == 1 && second >= 1000 ? 2 * second : 0);
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

/* The statistics of a range: the kept readings whose time is in it, both
 * ends included, whatever the order they came in; those of the whole run
 * are the store's own */
static void
test_counter_range_stats (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree PsCounterStats *range = NULL;
  g_autofree PsCounterStats *whole = NULL;
  g_autofree PsCounterStats *none = NULL;
  const gint64 second = G_GINT64_CONSTANT (1000000000);
  guint32 marker = add_marker_track (store, "marker");
  guint32 tracks[2];
  const PsCounterValue late[] = {
    /* A clock step back: before the range, then in it */
    { .time_ns = 5 * G_GINT64_CONSTANT (1000000000), .track = 0, .value = 1000 },
    { .time_ns = 25 * G_GINT64_CONSTANT (1000000000), .track = 0, .value = -7 },
  };

  for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
    {
      PsTrack track = { 0 };

      track.kind = PS_TRACK_COUNTER;
      track.name = ps_event_store_intern (store, t == 0 ? "a" : "b", -1);
      track.parent = PS_NONE;
      tracks[t] = ps_event_store_add_track (store, &track);
    }
  /* a: i at i s, every tenth missing; b: 2 i */
  for (guint i = 0; i < 100; i++)
    for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
      {
        PsCounterValue value = { 0 };

        value.time_ns = i * second;
        value.track = tracks[t];
        value.value = t == 0 ? i : 2.0 * i;
        if (t == 0 && i % 10 == 9)
          {
            value.flags = PS_COUNTER_FLAG_MISSING;
            value.value = NAN;
          }
        ps_store_builder_add_counter_value (builder, &value);
      }
  for (guint i = 0; i < G_N_ELEMENTS (late); i++)
    {
      PsCounterValue value = late[i];

      value.track = tracks[0];
      ps_store_builder_add_counter_value (builder, &value);
    }
  ps_store_builder_flush (builder);

  range = ps_counter_range_stats (store, 20 * second, 40 * second, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (range);
  /* a: 20 … 40 without 29 and 39, and the late −7 */
  g_assert_cmpuint (range[tracks[0]].n_values, ==, 20);
  g_assert_cmpuint (range[tracks[0]].n_missing, ==, 2);
  g_assert_cmpfloat (range[tracks[0]].min, ==, -7);
  g_assert_cmpfloat (range[tracks[0]].max, ==, 40);
  g_assert_cmpfloat (range[tracks[0]].sum, ==, 630 - 29 - 39 - 7);
  g_assert_cmpfloat (range[tracks[0]].first, ==, 20);
  g_assert_cmpint (range[tracks[0]].first_ns, ==, 20 * second);
  /* The last one added */
  g_assert_cmpfloat (range[tracks[0]].last, ==, -7);
  g_assert_cmpint (range[tracks[0]].last_ns, ==, 25 * second);
  /* b: 40 … 80 */
  g_assert_cmpuint (range[tracks[1]].n_values, ==, 21);
  g_assert_cmpuint (range[tracks[1]].n_missing, ==, 0);
  g_assert_cmpfloat (range[tracks[1]].min, ==, 40);
  g_assert_cmpfloat (range[tracks[1]].max, ==, 80);
  g_assert_cmpfloat (range[tracks[1]].sum, ==, 2 * 630);
  g_assert_cmpuint (range[marker].n_values + range[marker].n_missing, ==, 0);
  g_assert_true (isnan (range[marker].min));

  /* The whole run: what the store counted as the readings came */
  whole = ps_counter_range_stats (store, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
    {
      const PsCounterStats *kept = ps_event_store_get_counter_stats (store, tracks[t]);

      g_assert_cmpuint (whole[tracks[t]].n_values, ==, kept->n_values);
      g_assert_cmpuint (whole[tracks[t]].n_missing, ==, kept->n_missing);
      g_assert_cmpfloat (whole[tracks[t]].min, ==, kept->min);
      g_assert_cmpfloat (whole[tracks[t]].max, ==, kept->max);
      g_assert_cmpfloat (whole[tracks[t]].sum, ==, kept->sum);
      g_assert_cmpfloat (whole[tracks[t]].first, ==, kept->first);
      g_assert_cmpfloat (whole[tracks[t]].last, ==, kept->last);
      g_assert_cmpint (whole[tracks[t]].first_ns, ==, kept->first_ns);
      g_assert_cmpint (whole[tracks[t]].last_ns, ==, kept->last_ns);
    }

  /* A range between two readings has none */
  none = ps_counter_range_stats (store, 20 * second + 1, 21 * second - 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none[tracks[1]].n_values, ==, 0);
  g_assert_true (isnan (none[tracks[1]].max));

  g_cancellable_cancel (cancellable);
  g_assert_null (ps_counter_range_stats (store, 0, 40 * second, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
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


/* The overview as it was kept before only the buckets with readings had
 * room: all 1024 in place, widened by moving each bucket to its new
 * place. The sparse overview must give exactly its buckets. */
typedef struct
{
  PsCounterBucket buckets[PS_COUNTER_OVERVIEW_BUCKETS];
  gboolean        started;
  gint64          begin_ns;
  guint           shift;
  guint           n_used;
  float           current_min;
  float           current_max;
  double          current_sum;
  guint32         current_count;
  guint           current_index;
  gboolean        current_fresh;
} DenseOverview;

static void
dense_init (DenseOverview *dense)
{
  memset (dense, 0, sizeof *dense);
  dense->shift = 10;
}

static void
dense_merge (PsCounterBucket       *into,
             const PsCounterBucket *from)
{
  guint32 count;

  if (from->count == 0)
    return;
  if (into->count == 0)
    {
      *into = *from;
      return;
    }
  count = into->count + from->count;
  into->mean = (float)(((double)into->mean * into->count + (double)from->mean * from->count) / count);
  into->min = MIN (into->min, from->min);
  into->max = MAX (into->max, from->max);
  into->count = count;
}

static void
dense_flush (DenseOverview *dense)
{
  PsCounterBucket current = { 0 };

  if (dense->current_count == 0)
    return;
  current.min = dense->current_min;
  current.max = dense->current_max;
  current.count = dense->current_count;
  current.mean = (float)(dense->current_sum / dense->current_count);
  if (dense->current_fresh)
    dense->buckets[dense->current_index] = current;
  else
    dense_merge (&dense->buckets[dense->current_index], &current);
  dense->current_count = 0;
}

static void
dense_add (DenseOverview *dense,
           gint64         time_ns,
           double         value)
{
  float v = (float)value;
  guint64 index;

  if (!isfinite (value))
    return;
  if (!dense->started)
    {
      dense->started = TRUE;
      dense->begin_ns = time_ns;
    }
  index = time_ns > dense->begin_ns ? (guint64)time_ns - (guint64)dense->begin_ns : 0;
  if ((index >> dense->shift) >= PS_COUNTER_OVERVIEW_BUCKETS)
    {
      guint shift = dense->shift;
      guint by;

      dense_flush (dense);
      while ((index >> shift) >= PS_COUNTER_OVERVIEW_BUCKETS)
        shift++;
      by = shift - dense->shift;
      for (guint i = 1; i < dense->n_used; i++)
        {
          guint to = (guint)((guint64)i >> by);

          if (to == (guint)((guint64)(i - 1) >> by))
            dense_merge (&dense->buckets[to], &dense->buckets[i]);
          else
            dense->buckets[to] = dense->buckets[i];
          dense->buckets[i].count = 0;
        }
      dense->n_used = dense->n_used > 0 ? (guint)((guint64)(dense->n_used - 1) >> by) + 1 : 0;
      dense->shift = shift;
    }
  index >>= dense->shift;
  if (index != dense->current_index || dense->current_count == 0)
    {
      dense_flush (dense);
      dense->current_index = (guint)index;
      dense->current_fresh = index >= dense->n_used;
    }
  if (dense->current_count == 0)
    {
      dense->current_min = dense->current_max = v;
      dense->current_sum = v;
    }
  else
    {
      dense->current_min = MIN (dense->current_min, v);
      dense->current_max = MAX (dense->current_max, v);
      dense->current_sum += v;
    }
  dense->current_count++;
  dense->n_used = MAX (dense->n_used, (guint)index + 1);
}

/* The overview of series is that of dense, bucket for bucket, bit for bit */
static void
assert_overview_dense (PsCounterSeries *series,
                       DenseOverview   *dense)
{
  PsCounterOverview overview;
  guint next = 0;

  ps_counter_series_get_overview (series, &overview);
  dense_flush (dense);
  g_assert_cmpint (overview.begin_ns, ==, dense->begin_ns);
  g_assert_cmpint (overview.bucket_ns, ==, (gint64)1 << dense->shift);
  for (guint b = 0; b < dense->n_used; b++)
    {
      const PsCounterBucket *expected = &dense->buckets[b];
      const PsCounterBucket *bucket;

      if (expected->count == 0)
        continue;
      g_assert_cmpuint (next, <, overview.n_buckets);
      bucket = &overview.buckets[next++];
      g_assert_cmpuint (bucket->index, ==, b);
      g_assert_cmpuint (bucket->count, ==, expected->count);
      g_assert_cmpmem (&bucket->min, sizeof bucket->min, &expected->min, sizeof expected->min);
      g_assert_cmpmem (&bucket->max, sizeof bucket->max, &expected->max, sizeof expected->max);
      g_assert_cmpmem (&bucket->mean, sizeof bucket->mean, &expected->mean, sizeof expected->mean);
    }
  g_assert_cmpuint (overview.n_buckets, ==, next);
  /* Its last bucket is the last the dense one used */
  if (next > 0)
    g_assert_cmpuint (overview.buckets[next - 1].index, ==, dense->n_used - 1);
  /* Room that grew with the readings, never with the place of their
   * buckets: no more than twice the readings with a value */
  g_assert_cmpuint (ps_counter_series_get_room (series), <=, 2 * MAX (series->stats.n_values, 1u));
}

typedef enum
{
  PATTERN_ONE,         /* one reading */
  PATTERN_TWO_FAR,     /* two readings, far apart */
  PATTERN_STEADY,      /* one a second, some missing */
  PATTERN_GAPS,        /* steady, with gaps of hours */
  PATTERN_BURSTS,      /* hundreds in a millisecond, then a long pause */
  PATTERN_SPREAD,      /* a few in each of many buckets, widening often */
  PATTERN_BACK,        /* forward mostly, back in time often */
  N_PATTERNS
} ReadingPattern;

/* Random readings of each pattern, added to the series as a parser adds
 * them (the inline path and the general one, with missing and infinite
 * values) and to the dense reference, the overview read at random
 * points in between */
static void
test_counter_overview_dense (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);

  for (guint round = 0; round < 40; round++)
    {
      ReadingPattern pattern = round % N_PATTERNS;
      g_autofree DenseOverview *dense = g_new (DenseOverview, 1);
      PsCounterSeries series;
      gint64 time_ns = g_rand_int_range (rand, -1000000, 1000000) * G_GINT64_CONSTANT (1000000);
      guint n_readings;

      switch (pattern)
        {
        case PATTERN_ONE: n_readings = 1; break;
        case PATTERN_TWO_FAR: n_readings = 2; break;
        case PATTERN_SPREAD: n_readings = g_rand_int_range (rand, 1000, 20000); break;
        default: n_readings = g_rand_int_range (rand, 2, 50000); break;
        }
      ps_counter_series_init (&series);
      dense_init (dense);
      for (guint i = 0; i < n_readings; i++)
        {
          double value = g_rand_double_range (rand, -1e9, 1e9);
          guint kind = g_rand_int_range (rand, 0, 1000);

          if (i > 0)
            switch (pattern)
              {
              case PATTERN_TWO_FAR:
                time_ns += (gint64)g_rand_int_range (rand, 1, 1000000) * 1000000000;
                break;
              case PATTERN_GAPS:
                time_ns += kind < 3 ? (gint64)g_rand_int_range (rand, 1, 48) * 3600 * 1000000000 : 1000000000;
                break;
              case PATTERN_BURSTS:
                time_ns += kind < 5 ? (gint64)g_rand_int_range (rand, 1, 100000) * 1000000000
                                    : g_rand_int_range (rand, 0, 3000);
                break;
              case PATTERN_SPREAD:
                time_ns += (gint64)g_rand_int_range (rand, 1, 1 << 20) << (i / 1000);
                break;
              case PATTERN_BACK:
                time_ns += kind < 100 ? -(gint64)g_rand_int_range (rand, 0, 3600) * 1000000000
                                      : (gint64)g_rand_int_range (rand, 0, 2000) * 1000000;
                break;
              case PATTERN_ONE:
              case PATTERN_STEADY:
              default:
                time_ns += 1000000000;
                break;
              }

          if (kind < 10)
            {
              ps_counter_series_add (&series, time_ns, NAN, TRUE);
              continue;
            }
          if (kind < 12)
            value = kind == 10 ? -INFINITY : NAN;
          if (kind % 2 == 0)
            ps_counter_series_add_value (&series, time_ns, value);
          else
            ps_counter_series_add (&series, time_ns, value, FALSE);
          dense_add (dense, time_ns, value);
          if (kind >= 990)
            assert_overview_dense (&series, dense);
        }
      g_test_message ("pattern %u: %u readings", pattern, n_readings);
      assert_overview_dense (&series, dense);
      ps_counter_series_clear (&series);
    }
}

/* A counter read twice, far apart, has room for two buckets, not for
 * the 1024 the second reading's place would need in an array */
static void
test_counter_overview_two_readings (void)
{
  PsCounterSeries series;
  PsCounterOverview overview;

  ps_counter_series_init (&series);
  ps_counter_series_add_value (&series, 0, 1);
  ps_counter_series_add_value (&series, G_GINT64_CONSTANT (1000000000), 2);
  ps_counter_series_get_overview (&series, &overview);

  g_assert_cmpuint (overview.n_buckets, ==, 2);
  g_assert_cmpuint (overview.buckets[0].index, ==, 0);
  g_assert_cmpuint (overview.buckets[1].index, >, PS_COUNTER_OVERVIEW_BUCKETS / 2);
  g_assert_cmpuint (overview.buckets[1].index, <, PS_COUNTER_OVERVIEW_BUCKETS);
  g_assert_cmpfloat (overview.buckets[1].mean, ==, 2);
  g_assert_cmpuint (ps_counter_series_get_room (&series), ==, 2);
  ps_counter_series_clear (&series);
}

/* Counters of every shape an overview takes, read one second apart for
 * 3000 s, thinned to 64 kept readings: one read every second, one read
 * twice an hour apart, one read in bursts with its last reading back in
 * time, one with only missing readings and one read once. Saved without
 * reading an overview first, so that the buckets being filled are saved
 * as they are. */
static PsEventStore *
make_overview_store (void)
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  const gint64 second_ns = 1000000000;
  guint32 session, tracks[5];
  guint32 state = 12345;

  ps_event_store_set_format (store, "pdh-csv");
  ps_event_store_set_max_counter_values (store, 64);
  session = ps_event_store_add_session (store, 1, FALSE);
  for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
    {
      PsTrack track = { 0 };
      char name[8];

      g_snprintf (name, sizeof name, "c%u", t);
      track.kind = PS_TRACK_COUNTER;
      track.name = ps_event_store_intern (store, name, -1);
      track.parent = PS_NONE;
      track.session = session;
      tracks[t] = ps_event_store_add_track (store, &track);
    }

  for (guint i = 0; i < 3000; i++)
    for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
      {
        PsCounterValue value = { 0 };
        guint n = 1;

        /* A small generator of its own, the same everywhere */
        state = state * 1103515245u + 12345u;
        value.track = tracks[t];
        value.time_ns = second_ns + (gint64)i * second_ns;
        value.value = (double)(state >> 8) / 4096.0 - 1000.0;
        switch (t)
          {
          case 1:
            if (i != 0 && i != 2999)
              continue;
            break;
          case 2:
            if (i % 200 >= 3)
              continue;
            n = 50;
            break;
          case 3:
            value.flags = PS_COUNTER_FLAG_MISSING;
            value.value = NAN;
            break;
          case 4:
            if (i != 7)
              continue;
            break;
          default:
            break;
          }
        for (guint k = 0; k < n; k++)
          {
            ps_store_builder_add_counter_value (builder, &value);
            value.time_ns += 1000000;
            if (t != 3)
              value.value += 0.25;
          }
      }
  /* Back into a bucket filled before */
  {
    PsCounterValue value = { 0 };

    value.track = tracks[2];
    value.time_ns = 1500 * second_ns;
    value.value = 12.5;
    ps_store_builder_add_counter_value (builder, &value);
  }
  ps_store_builder_flush (builder);
  return store;
}

static void
assert_series_same (const PsCounterSeries *a,
                    const PsCounterSeries *b)
{
  PsCounterBucket current_a, current_b;

  g_assert_cmpuint (a->n_readings, ==, b->n_readings);
  g_assert_true (memcmp (&a->stats, &b->stats, sizeof a->stats) == 0);
  g_assert_cmpint (a->buckets != NULL, ==, b->buckets != NULL);
  g_assert_cmpint (a->begin_ns, ==, b->begin_ns);
  g_assert_cmpuint (a->shift, ==, b->shift);
  ps_counter_series_get_current (a, &current_a);
  ps_counter_series_get_current (b, &current_b);
  g_assert_cmpmem (&current_a, sizeof current_a, &current_b, sizeof current_b);
  g_assert_cmpint (a->current_fresh, ==, b->current_fresh);
  g_assert_cmpuint (a->n_used, ==, b->n_used);
  if (a->n_used > 0)
    g_assert_cmpmem (a->buckets, a->n_used * sizeof (PsCounterBucket), b->buckets, b->n_used * sizeof (PsCounterBucket));
}

static void
assert_overviews_same (PsEventStore *a,
                       PsEventStore *b)
{
  g_assert_cmpuint (_ps_event_store_get_n_counter_series (b), >=, 5);
  for (guint32 track = 0; track < 5; track++)
    {
      PsCounterOverview overview_a, overview_b;
      gboolean has_a, has_b;

      assert_series_same (_ps_event_store_get_counter_series (a, track), _ps_event_store_get_counter_series (b, track));
      /* And once the buckets being filled are stored */
      has_a = ps_event_store_get_counter_overview (a, track, &overview_a);
      has_b = ps_event_store_get_counter_overview (b, track, &overview_b);
      g_assert_cmpint (has_a, ==, has_b);
      g_assert_cmpint (has_a, ==, track != 3);
      assert_series_same (_ps_event_store_get_counter_series (a, track), _ps_event_store_get_counter_series (b, track));
    }
}

static PsEventStore *
load_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, &error);
  PsEventStore *store;

  g_assert_no_error (error);
  store = ps_load_stream (G_INPUT_STREAM (stream), path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ps_event_store_is_complete (store));
  return store;
}

/* A run saved when the overview kept every bucket up to the last (in
 * CSER, docs/formats/native-format.md) reads back as the same run made now, and
 * one saved now (COVW) too, in a file as small as the buckets with
 * readings make it */
static void
test_counter_overview_saved (void)
{
  g_autofree char *old_path = g_test_build_filename (G_TEST_DIST, "data", "native", "counters-1.0.perfscope", NULL);
  g_autofree char *dir = g_dir_make_tmp ("perfscope-overview-XXXXXX", NULL);
  g_autofree char *new_path = g_build_filename (dir, "counters.perfscope", NULL);
  g_autoptr(GFile) new_file = g_file_new_for_path (new_path);
  g_autoptr(PsEventStore) made = make_overview_store ();
  g_autoptr(PsEventStore) old_saved = load_file (old_path);
  g_autoptr(PsEventStore) new_saved = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf old_info, new_info;

  /* Saved before any overview was read: buckets still being filled */
  g_assert_true (ps_native_save (made, new_file, NULL, &error));
  g_assert_no_error (error);
  new_saved = load_file (new_path);
  g_assert_cmpuint (_ps_event_store_get_counter_series (made, 0)->current_count, >, 0);
  g_assert_false (_ps_event_store_get_counter_series (made, 2)->current_fresh);

  g_assert_cmpint (g_stat (old_path, &old_info), ==, 0);
  g_assert_cmpint (g_stat (new_path, &new_info), ==, 0);
  g_test_message ("saved with every bucket: %" G_GINT64_FORMAT " bytes, with those with readings: %" G_GINT64_FORMAT,
                  (gint64)old_info.st_size, (gint64)new_info.st_size);
  g_assert_cmpint (new_info.st_size, <, old_info.st_size);

  assert_overviews_same (made, new_saved);
  g_clear_object (&made);
  made = make_overview_store ();
  assert_overviews_same (made, old_saved);

  g_remove (new_path);
  g_rmdir (dir);
}

static void
store_le32 (guint8  *at,
            guint32  value)
{
  for (guint b = 0; b < 4; b++)
    at[b] = (guint8)(value >> (8 * b));
}

/* The payload of the first section of type in a saved run: its offset
 * in data and its length */
static gsize
find_section_payload (const guint8 *data,
                      gsize         length,
                      const char   *type,
                      gsize        *payload_length)
{
  gsize at = PS_NATIVE_HEADER_SIZE;

  while (at + PS_NATIVE_SECTION_HEADER_SIZE <= length)
    {
      guint64 section_length = ps_util_load_le64 (data + at + 8);

      if (memcmp (data + at, type, 4) == 0)
        {
          *payload_length = (gsize)section_length;
          return at + PS_NATIVE_SECTION_HEADER_SIZE;
        }
      at += PS_NATIVE_SECTION_HEADER_SIZE + (gsize)section_length;
    }
  g_assert_not_reached ();
}

/* A COVW section whose records do not match what CSER said, or whose
 * buckets are out of order, empty or out of range, stops reading with
 * an error, whatever its checksum */
static void
test_counter_overview_saved_malformed (void)
{
  g_autoptr(PsEventStore) made = make_overview_store ();
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize length, payload, payload_length;
  /* Byte offsets in the first record: its count of buckets, and the
   * index and count of its first and second bucket (18 bytes each) */
  enum { N = 4, INDEX_0 = 8, INDEX_1 = 8 + 18, COUNT_0 = 8 + 14 };
  struct
  {
    const char *what;
    gsize       at;
    guint32     value;
    guint       width;
  } cases[] = {
    { "a count of buckets that is not CSER's", N, 5, 4 },
    { "more buckets than an overview has", N, PS_COUNTER_OVERVIEW_BUCKETS + 1, 4 },
    { "buckets out of order", INDEX_0, 5, 2 },
    { "one bucket twice", INDEX_1, 0, 2 },
    { "a bucket past the last", INDEX_1, PS_COUNTER_OVERVIEW_BUCKETS, 2 },
    { "an empty bucket", COUNT_0, 0, 4 },
    /* Its last: at the place of the bucket being filled, which comes after */
    { "a bucket where the one being filled goes", 0, 0, 2 },
  };

  g_assert_true (ps_native_write_stream (made, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, &error));
  saved = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  data = g_bytes_get_data (saved, &length);
  payload = find_section_payload (data, length, "COVW", &payload_length);
  /* The first record is the first counter's, with buckets 0 and 1 */
  g_assert_cmpuint (ps_util_load_le32 (data + payload), ==, 0);
  g_assert_cmpuint (ps_util_load_le16 (data + payload + INDEX_0), ==, 0);
  g_assert_cmpuint (ps_util_load_le16 (data + payload + INDEX_1), ==, 1);
  cases[G_N_ELEMENTS (cases) - 1].at = 8 + 18 * (ps_util_load_le32 (data + payload + N) - 1);
  cases[G_N_ELEMENTS (cases) - 1].value = _ps_event_store_get_counter_series (made, 0)->current_index;
  g_assert_true (_ps_event_store_get_counter_series (made, 0)->current_fresh);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, length);
      guint8 *header = copy + payload - PS_NATIVE_SECTION_HEADER_SIZE;
      g_autoptr(GInputStream) stream = NULL;
      g_autoptr(PsEventStore) store = NULL;
      g_autoptr(GError) load_error = NULL;
      const GError *run_error;

      if (cases[c].width == 4)
        store_le32 (copy + payload + cases[c].at, cases[c].value);
      else
        {
          copy[payload + cases[c].at] = (guint8)cases[c].value;
          copy[payload + cases[c].at + 1] = (guint8)(cases[c].value >> 8);
        }
      /* Checksums that match, as a hostile file has them */
      store_le32 (header + 24, ps_native_crc32 (copy + payload, payload_length));
      store_le32 (header + 28, ps_native_crc32 (header, 28));

      stream = g_memory_input_stream_new_from_data (copy, (gssize)length, NULL);
      store = ps_load_stream (stream, "malformed.perfscope", &(PsLoadParams) { .total_size = length }, NULL,
                              &load_error);
      g_assert_no_error (load_error);
      run_error = ps_event_store_get_error (store);
      g_test_message ("%s: %s", cases[c].what, run_error != NULL ? run_error->message : "read");
      g_assert_false (ps_event_store_is_complete (store));
      g_assert_nonnull (run_error);
      g_assert_nonnull (strstr (run_error->message, "COVW"));
    }
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
  g_test_add_func ("/event-store/counter-range-stats", test_counter_range_stats);
  g_test_add_func ("/event-store/counter-series-inline", test_counter_series_inline);
  g_test_add_func ("/event-store/counter-series-far-apart", test_counter_series_far_apart);
  g_test_add_func ("/event-store/counter-overview/dense-reference", test_counter_overview_dense);
  g_test_add_func ("/event-store/counter-overview/two-readings", test_counter_overview_two_readings);
  g_test_add_func ("/event-store/counter-overview/saved", test_counter_overview_saved);
  g_test_add_func ("/event-store/counter-overview/saved-malformed", test_counter_overview_saved_malformed);

  return g_test_run ();
}

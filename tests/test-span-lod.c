/* test-span-lod.c — level of detail for spans, marks and values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Constructed stores with known answers, then random ones (seeded) checked
 * against a brute-force walk over every span: whatever the zoom, merged
 * items must account for every span of the window and its duration.
 */
#include "config.h"

#include <math.h>

#include "ps-event-store.h"
#include "ps-span-lod.h"
#include "ps-store-builder.h"

static guint32
add_thread (PsEventStore *store,
            gint64        id)
{
  PsTrack track = { 0 };

  track.kind = PS_TRACK_THREAD;
  track.parent = PS_NONE;
  track.number = id;
  return ps_event_store_add_track (store, &track);
}

static guint64
add_span (PsStoreBuilder *builder,
          guint32         track,
          guint16         depth,
          gint64          begin_ns,
          gint64          end_ns,
          const char     *name)
{
  PsSpan span = { 0 };

  span.begin_ns = begin_ns;
  span.end_ns = end_ns;
  span.track = track;
  span.name = ps_event_store_intern (ps_store_builder_get_store (builder), name, -1);
  span.parent = PS_NONE;
  span.depth = depth;
  return ps_store_builder_add_span (builder, &span);
}

static void
add_mark (PsStoreBuilder *builder,
          guint32         track,
          gint64          time_ns)
{
  PsMark mark = { 0 };

  mark.time_ns = time_ns;
  mark.track = track;
  mark.span = PS_NONE;
  ps_store_builder_add_mark (builder, &mark);
}

static GArray *
new_items (void)
{
  return g_array_new (FALSE, FALSE, sizeof (PsSpanLodItem));
}

static gint64
effective_end (const PsSpan *span)
{
  return MAX (span->begin_ns, span->end_ns);
}

static gint64
column_of (gint64 time,
           gint64 from_ns,
           double ns_per_pixel)
{
  return time <= from_ns ? 0 : (gint64)((double)(time - from_ns) / ns_per_pixel);
}

static void
assert_single (const PsSpanLodItem *item,
               PsEventStore        *store,
               guint64              span_index)
{
  const PsSpan *span = ps_event_store_get_span (store, span_index);

  g_assert_cmpuint (item->span, ==, span_index);
  g_assert_cmpint (item->begin_ns, ==, span->begin_ns);
  g_assert_cmpint (item->end_ns, ==, effective_end (span));
  g_assert_cmpuint (item->n_spans, ==, 1);
  g_assert_cmpint (item->total_ns, ==, effective_end (span) - span->begin_ns);
  g_assert_cmpuint (item->name, ==, span->name);
  g_assert_cmpuint (item->depth, ==, span->depth);
  g_assert_cmpuint (item->flags, ==, 0);
}

/* Set by tests whose spans nest properly: then every span of a pixel or
 * more must be an item of its own, unless one began in its pixel column
 * already (a span that began before the window and ends in its first
 * column; one long item per column keeps the item count bounded) */
static gboolean long_spans_alone;

/* Queries one lane and checks the result against every span of the
 * store: selected (a bit per span) limits it to a subset */
static void
check_lane (PsSpanLod    *lod,
            PsEventStore *store,
            const guint8 *selected,
            guint32       track,
            guint         depth,
            gint64        from_ns,
            gint64        to_ns,
            double        ns_per_pixel)
{
  g_autoptr(GArray) items = new_items ();
  g_autoptr(GHashTable) visible = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) alone = g_hash_table_new (NULL, NULL);
  g_autofree gint64 *columns = g_new (gint64, 1);
  guint n_columns = 0;
  guint64 expected_n = 0, n = 0;
  gint64 expected_total = 0, total = 0;
  gint64 last_begin = G_MININT64, last_merged_column = -1;
  guint n_items;

  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (selected != NULL && !selected[i])
        continue;
      if (span->track != track || span->depth != depth)
        continue;
      if (span->begin_ns > to_ns || effective_end (span) < from_ns)
        continue;
      expected_n++;
      expected_total += effective_end (span) - span->begin_ns;
      g_hash_table_add (visible, GSIZE_TO_POINTER (i));
    }

  g_array_set_size (items, 3);  /* appended after what is there */
  n_items = ps_span_lod_query (lod, track, depth, from_ns, to_ns, ns_per_pixel, items);
  g_assert_cmpuint (items->len, ==, n_items + 3);
  g_assert_cmpfloat (n_items, <=, 2 * ((to_ns - from_ns) / ns_per_pixel) + 2);

  for (guint i = 3; i < items->len; i++)
    {
      const PsSpanLodItem *item = &g_array_index (items, PsSpanLodItem, i);

      n += item->n_spans;
      total += item->total_ns;
      g_assert_cmpuint (item->depth, ==, depth);
      g_assert_cmpint (item->begin_ns, >=, last_begin);
      g_assert_cmpint (item->end_ns, >=, item->begin_ns);
      last_begin = item->begin_ns;
      /* The representative is a visible span of the lane */
      g_assert_true (g_hash_table_contains (visible, GSIZE_TO_POINTER (item->span)));
      g_assert_cmpuint (item->name, ==, ps_event_store_get_span (store, item->span)->name);
      if (item->flags & PS_SPAN_LOD_ITEM_MERGED)
        {
          gint64 column = column_of (item->begin_ns, from_ns, ns_per_pixel);

          g_assert_cmpuint (item->n_spans, >, 1);
          g_assert_cmpint (column, >, last_merged_column);
          last_merged_column = column;
        }
      else
        {
          assert_single (item, store, item->span);
          g_hash_table_add (alone, GSIZE_TO_POINTER (item->span));
          if (item->total_ns >= ns_per_pixel)
            {
              columns = g_renew (gint64, columns, n_columns + 1);
              columns[n_columns++] = column_of (item->begin_ns, from_ns, ns_per_pixel);
            }
        }
    }

  g_assert_cmpuint (n, ==, expected_n);
  g_assert_cmpint (total, ==, expected_total);

  if (long_spans_alone)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, visible);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          const PsSpan *span = ps_event_store_get_span (store, GPOINTER_TO_SIZE (key));

          if (effective_end (span) - span->begin_ns >= ns_per_pixel
              && !g_hash_table_contains (alone, key))
            {
              gint64 column = column_of (span->begin_ns, from_ns, ns_per_pixel);
              gboolean shared = FALSE;

              for (guint c = 0; c < n_columns; c++)
                shared |= columns[c] == column;
              g_assert_true (shared);
            }
        }
    }
}

static void
check_all_lanes (PsSpanLod    *lod,
                 PsEventStore *store,
                 const guint8 *selected,
                 gint64        from_ns,
                 gint64        to_ns,
                 double        ns_per_pixel)
{
  for (guint32 track = 0; track < ps_event_store_get_n_tracks (store); track++)
    for (guint depth = 0; depth <= ps_span_lod_get_n_depths (lod, track); depth++)
      check_lane (lod, store, selected, track, depth, from_ns, to_ns, ns_per_pixel);
}

/* Depth 0: [0, 100] a, [200, 300] b, [300, 300] c (zero length),
 * [400, 1000] d; depth 1: [10, 20] e, [30, 90] f */
static PsEventStore *
make_small_store (guint64 indexes[6])
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_thread (store, 1);

  indexes[0] = add_span (builder, track, 0, 0, 100, "a");
  indexes[4] = add_span (builder, track, 1, 10, 20, "e");
  indexes[5] = add_span (builder, track, 1, 30, 90, "f");
  indexes[1] = add_span (builder, track, 0, 200, 300, "b");
  indexes[2] = add_span (builder, track, 0, 300, 300, "c");
  indexes[3] = add_span (builder, track, 0, 400, 1000, "d");
  ps_store_builder_flush (builder);
  return store;
}

static void
test_high_zoom (void)
{
  guint64 s[6];
  g_autoptr(PsEventStore) store = make_small_store (s);
  g_autoptr(PsSpanLod) lod = ps_span_lod_new (store, NULL);
  g_autoptr(GArray) items = new_items ();
  gint64 begin, end;

  g_assert_nonnull (lod);
  g_assert_true (ps_span_lod_get_extent (lod, &begin, &end));
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 1000);
  g_assert_cmpuint (ps_span_lod_get_n_depths (lod, 0), ==, 2);
  g_assert_cmpuint (ps_span_lod_get_n_depths (lod, 1), ==, 0);
  g_assert_cmpuint (ps_span_lod_get_n_spans (lod, 0), ==, 6);
  g_assert_cmpuint (ps_span_lod_get_n_marks (lod, 0), ==, 0);
  g_assert_cmpuint (ps_span_lod_get_memory_size (lod), >, 6 * 20);

  /* One nanosecond per pixel: every span is its own item, the zero-length
   * one too */
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, 0, 1000, 1, items), ==, 4);
  for (guint i = 0; i < 4; i++)
    assert_single (&g_array_index (items, PsSpanLodItem, i), store, s[i]);

  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 1, 0, 1000, 1, items), ==, 2);
  assert_single (&g_array_index (items, PsSpanLodItem, 0), store, s[4]);
  assert_single (&g_array_index (items, PsSpanLodItem, 1), store, s[5]);

  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, 250, 450, 0.5, items), ==, 3);
  assert_single (&g_array_index (items, PsSpanLodItem, 0), store, s[1]);
  assert_single (&g_array_index (items, PsSpanLodItem, 1), store, s[2]);
  assert_single (&g_array_index (items, PsSpanLodItem, 2), store, s[3]);

  /* The window is closed: a span ending at from_ns is in it */
  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, 100, 100, 1, items), ==, 1);
  assert_single (&g_array_index (items, PsSpanLodItem, 0), store, s[0]);

  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, 301, 399, 1, items), ==, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, 1001, 2000, 1, items), ==, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, -50, -1, 1, items), ==, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 2, 0, 1000, 1, items), ==, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 5, 0, 0, 1000, 1, items), ==, 0);
  g_assert_cmpuint (items->len, ==, 0);

  /* Only the zero-length span, at the window's left edge */
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, 300, 300, 1, items), ==, 2);
  assert_single (&g_array_index (items, PsSpanLodItem, 1), store, s[2]);

  check_all_lanes (lod, store, NULL, 0, 1000, 1);
  check_all_lanes (lod, store, NULL, 0, 1000, 400);
}

/* 100 spans of 10 ns back to back, at 100 ns per pixel: each merged item
 * takes the spans beginning in two columns, or up to the end of a block of
 * 32 spans when that block lies within the column after them (spans 40 to
 * 63: the block ends at 640, before column 7) */
static void
test_zoom_out_known (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_thread (store, 1);
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(GArray) items = new_items ();
  static const guint first_spans[] = { 0, 20, 40, 64, 80, 100 };

  for (guint i = 0; i < 100; i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "s%u", i);
      add_span (builder, track, 0, i * 10, i * 10 + 10, name);
    }
  ps_store_builder_flush (builder);
  lod = ps_span_lod_new (store, NULL);

  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 0, 999, 100, items), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      const PsSpanLodItem *item = &g_array_index (items, PsSpanLodItem, i);
      guint first = first_spans[i], n = first_spans[i + 1] - first;

      g_assert_cmpint (item->begin_ns, ==, first * 10);
      g_assert_cmpint (item->end_ns, ==, (first + n) * 10);
      g_assert_cmpuint (item->n_spans, ==, n);
      g_assert_cmpint (item->total_ns, ==, n * 10);
      g_assert_cmpuint (item->flags, ==, PS_SPAN_LOD_ITEM_MERGED);
      /* All equally long: the first stands for them */
      g_assert_cmpuint (item->span, ==, first);
      g_assert_cmpstr (ps_event_store_get_string (store, item->name), ==,
                       ps_event_store_get_string (store, ps_event_store_get_span (store, first)->name));
    }

  /* One long span among them is drawn alone and splits the run */
  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 0, 999, 5, items), ==, 100);
  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 0, 999, 10, items), ==, 100);
  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 0, 999, 1000, items), ==, 1);
  g_assert_cmpuint (g_array_index (items, PsSpanLodItem, 0).n_spans, ==, 100);
  g_assert_cmpint (g_array_index (items, PsSpanLodItem, 0).total_ns, ==, 1000);
}

/* A long span in a run of short ones is its own item and is the one the
 * merged items do not contain */
static void
test_long_among_short (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_thread (store, 1);
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(GArray) items = new_items ();
  guint64 long_span = 0;
  gint64 time = 0;
  const PsSpanLodItem *item;

  for (guint i = 0; i < 200; i++)
    {
      if (i == 100)
        {
          long_span = add_span (builder, track, 0, time, time + 5000, "long");
          time += 5000;
        }
      else
        {
          add_span (builder, track, 0, time, time + 3, i == 37 ? "longest short" : "short");
          time += i == 37 ? 8 : 3;
          if (i == 37)
            ps_store_builder_edit_span (builder, ps_store_builder_get_n_spans (builder) - 1)->end_ns += 5;
        }
    }
  ps_store_builder_flush (builder);
  lod = ps_span_lod_new (store, NULL);

  /* 1000 ns per pixel: the short spans before the long one (300 ns + 5)
   * are one item, the long one alone, the 99 after it (297 ns) one item */
  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 0, time, 1000, items), ==, 3);
  item = &g_array_index (items, PsSpanLodItem, 0);
  g_assert_cmpuint (item->n_spans, ==, 100);
  g_assert_cmpint (item->total_ns, ==, 99 * 3 + 8);
  g_assert_cmpstr (ps_event_store_get_string (store, item->name), ==, "longest short");
  assert_single (&g_array_index (items, PsSpanLodItem, 1), store, long_span);
  item = &g_array_index (items, PsSpanLodItem, 2);
  g_assert_cmpuint (item->n_spans, ==, 99);
  g_assert_cmpint (item->begin_ns, ==, 305 + 5000);
  g_assert_cmpint (item->end_ns, ==, time);
  long_spans_alone = TRUE;
  check_all_lanes (lod, store, NULL, 0, time, 1000);
  long_spans_alone = FALSE;
}

/* Runs of more than 1024 narrow spans are crossed by blocks of 1024: a
 * long span that is the first of such a block must still be found, and the
 * longest narrow span of a run named */
static void
test_long_runs (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_thread (store, 1);
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(GArray) items = new_items ();
  guint64 long_span, longest_short = 0;
  gint64 time = 0;
  const PsSpanLodItem *item;

  for (guint i = 0; i < 1024; i++)
    {
      guint64 index = add_span (builder, track, 0, time, time + (i == 500 ? 2 : 1), "short");

      if (i == 500)
        longest_short = index;
      time += i == 500 ? 2 : 1;
    }
  long_span = add_span (builder, track, 0, time, time + 3000, "long");
  time += 3000;
  for (guint i = 0; i < 2000; i++, time++)
    add_span (builder, track, 0, time, time + 1, "short");
  ps_store_builder_flush (builder);
  lod = ps_span_lod_new (store, NULL);

  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 0, time, 3000, items), ==, 3);
  item = &g_array_index (items, PsSpanLodItem, 0);
  g_assert_cmpuint (item->n_spans, ==, 1024);
  g_assert_cmpint (item->total_ns, ==, 1025);
  g_assert_cmpuint (item->span, ==, longest_short);
  assert_single (&g_array_index (items, PsSpanLodItem, 1), store, long_span);
  item = &g_array_index (items, PsSpanLodItem, 2);
  g_assert_cmpuint (item->n_spans, ==, 2000);
  g_assert_cmpint (item->total_ns, ==, 2000);

  long_spans_alone = TRUE;
  check_all_lanes (lod, store, NULL, 0, time, 3000);
  check_all_lanes (lod, store, NULL, 100, 4000, 7);
  long_spans_alone = FALSE;
}

/* 4096 spans of 1 ns every 2 ns: the lane has tiles of 2^k ns for k = 3,
 * 5, 7, 9, 11 and 13. At 1100 ns per pixel the tiles of 512 ns are merged
 * whole: an item takes the tiles that begin in its first two columns,
 * even where their spans go on into the third. */
static void
test_tiles_known (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_thread (store, 1);
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(GArray) items = new_items ();
  static const guint first_spans[] = { 0, 1280, 2304, 3328, 4096 };

  for (guint i = 0; i < 4096; i++)
    add_span (builder, track, 0, 2 * i, 2 * i + 1, i % 2 ? "odd" : "even");
  ps_store_builder_flush (builder);
  lod = ps_span_lod_new (store, NULL);

  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 0, 8191, 1100, items), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      const PsSpanLodItem *item = &g_array_index (items, PsSpanLodItem, i);
      guint first = first_spans[i], n = first_spans[i + 1] - first;

      g_assert_cmpint (item->begin_ns, ==, 2 * first);
      g_assert_cmpint (item->end_ns, ==, 2 * (first + n) - 1);
      g_assert_cmpuint (item->n_spans, ==, n);
      g_assert_cmpint (item->total_ns, ==, n);
      g_assert_cmpuint (item->flags, ==, PS_SPAN_LOD_ITEM_MERGED);
      /* All equally long: the first stands for them */
      g_assert_cmpuint (item->span, ==, first);
      g_assert_cmpuint (item->name, ==, ps_event_store_get_span (store, first)->name);
    }

  /* The left edge cuts the tile [512, 1024) of 512 ns: its spans from 1000
   * on are taken one by one, then the tiles that begin before 3200 whole,
   * up to the span at 3582 */
  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 1000, 8191, 1100, items), ==, 4);
  g_assert_cmpint (g_array_index (items, PsSpanLodItem, 0).begin_ns, ==, 1000);
  g_assert_cmpint (g_array_index (items, PsSpanLodItem, 0).end_ns, ==, 3583);
  g_assert_cmpuint (g_array_index (items, PsSpanLodItem, 0).n_spans, ==, 1792 - 500);

  check_all_lanes (lod, store, NULL, 0, 8191, 1100);
  for (guint shift = 0; shift < 15; shift++)
    {
      double bucket = (double)(1u << shift);

      check_all_lanes (lod, store, NULL, 0, 8191, bucket);
      check_all_lanes (lod, store, NULL, 0, 8191, bucket - 0.25);
      check_all_lanes (lod, store, NULL, 511, 7681, bucket * 1.5);
      check_all_lanes (lod, store, NULL, 513, 4097, bucket * 0.75);
    }
}

/* Nested spans on a few threads from a random walk of begins and ends;
 * some of zero length, some long */
static PsEventStore *
make_random_store (GRand   *rand,
                   guint    n_tracks,
                   guint    n_spans_per_track,
                   guint    max_depth,
                   guint64 *n_spans)
{
  PsEventStore *store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  static const char * const names[] = { "alpha", "beta", "gamma", "delta", "epsilon" };

  for (guint t = 0; t < n_tracks; t++)
    {
      guint32 track = add_thread (store, 100 + t);
      guint64 stack[64];
      guint depth = 0;
      guint begun = 0;
      gint64 time = g_rand_int_range (rand, 0, 1000);

      while (begun < n_spans_per_track || depth > 0)
        {
          gboolean enter = depth == 0 || (depth < max_depth && begun < n_spans_per_track
                                          && g_rand_boolean (rand));

          /* Mostly short steps, a few zero and a few long ones */
          switch (g_rand_int_range (rand, 0, 10))
            {
            case 0:
              break;
            case 1:
              time += g_rand_int_range (rand, 1000, 100000);
              break;
            default:
              time += g_rand_int_range (rand, 1, 50);
              break;
            }

          if (enter)
            {
              guint64 index = add_span (builder, track, (guint16)depth, time, time,
                                        names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))]);

              stack[depth++] = index;
              begun++;
            }
          else
            {
              ps_store_builder_edit_span (builder, stack[--depth])->end_ns = time;
            }
        }
    }
  ps_store_builder_flush (builder);
  *n_spans = ps_event_store_get_n_spans (store);
  return store;
}

static void
random_windows (GRand        *rand,
                PsSpanLod    *lod,
                PsEventStore *store,
                const guint8 *selected,
                guint         n_windows)
{
  gint64 begin, end;

  g_assert_true (ps_span_lod_get_extent (lod, &begin, &end));

  /* The whole run at a few widths, then random windows at random zooms */
  check_all_lanes (lod, store, selected, begin, end, MAX ((end - begin) / 1920.0, 0.5));
  check_all_lanes (lod, store, selected, begin, end, MAX ((end - begin) / 100.0, 0.5));
  check_all_lanes (lod, store, selected, begin - 10, end + 10, (end - begin) * 2.0);
  for (guint w = 0; w < n_windows; w++)
    {
      gint64 a = begin + (gint64)(g_rand_double (rand) * (end - begin));
      gint64 b = begin + (gint64)(g_rand_double (rand) * (end - begin));
      gint64 from = MIN (a, b), to = MAX (a, b);
      double ns_per_pixel = pow (10, g_rand_double_range (rand, -1, log10 (MAX (to - from, 10))));

      check_all_lanes (lod, store, selected, from, to, ns_per_pixel);
    }
}

static void
test_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260501);

  for (guint round = 0; round < 4; round++)
    {
      guint64 n_spans;
      g_autoptr(PsEventStore) store = make_random_store (rand, 3, 1000 + round * 1500, 2 + round * 3, &n_spans);
      g_autoptr(PsSpanLod) lod = ps_span_lod_new (store, NULL);
      guint64 n = 0;

      for (guint32 track = 0; track < 3; track++)
        n += ps_span_lod_get_n_spans (lod, track);
      g_assert_cmpuint (n, ==, n_spans);
      long_spans_alone = TRUE;
      random_windows (rand, lod, store, NULL, 40);
      long_spans_alone = FALSE;
    }
}

/* Windows at and around every power of two (where a tile level may begin
 * to be used) whose edges cut through tiles, on lanes long enough to have
 * tiles, checked against every span */
static void
test_tiles_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260502);

  for (guint round = 0; round < 3; round++)
    {
      guint64 n_spans;
      g_autoptr(PsEventStore) store = make_random_store (rand, 2, 4000 + round * 3000, 1 + round * 2, &n_spans);
      g_autoptr(PsSpanLod) lod = ps_span_lod_new (store, NULL);
      gint64 begin, end;

      g_assert_true (ps_span_lod_get_extent (lod, &begin, &end));
      long_spans_alone = TRUE;
      check_all_lanes (lod, store, NULL, begin, end, (end - begin) / 1920.0);
      check_all_lanes (lod, store, NULL, begin, end, (end - begin) / 7.0);
      for (guint shift = 0; shift < 26; shift++)
        {
          static const double around[] = { 1.0, 0.999, 1.001, 1.5, 3.99 };

          for (guint a = 0; a < G_N_ELEMENTS (around); a++)
            {
              double ns_per_pixel = (double)(1u << shift) * around[a];
              double columns = g_rand_double_range (rand, 1, 2500);
              gint64 from = begin + (gint64)(g_rand_double_range (rand, -0.05, 1) * (end - begin));
              gint64 to = from + (gint64)(columns * ns_per_pixel);

              check_all_lanes (lod, store, NULL, from, to, ns_per_pixel);
            }
        }
      long_spans_alone = FALSE;
    }
}

/* Spans of one lane that overlap at random, many of them, some ending
 * before they begin: tiles merge spans whose ends are not in order */
static void
test_tiles_overlap (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_thread (store, 1);
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (41);

  for (guint i = 0; i < 5000; i++)
    {
      gint64 begin = g_rand_int_range (rand, 0, 1000000);
      gint64 duration;

      switch (g_rand_int_range (rand, 0, 10))
        {
        case 0:
          duration = g_rand_int_range (rand, 1000, 200000);
          break;
        case 1:
          duration = -g_rand_int_range (rand, 1, 100);
          break;
        default:
          duration = g_rand_int_range (rand, 0, 200);
          break;
        }
      add_span (builder, track, 0, begin, begin + duration, i % 3 ? "short" : "other");
    }
  ps_store_builder_flush (builder);
  lod = ps_span_lod_new (store, NULL);

  for (guint shift = 0; shift < 22; shift++)
    {
      double ns_per_pixel = (double)(1u << shift) * g_rand_double_range (rand, 1, 2);
      gint64 from = g_rand_int_range (rand, -1000, 1000000);
      gint64 to = from + (gint64)(g_rand_double_range (rand, 1, 3000) * ns_per_pixel);

      check_all_lanes (lod, store, NULL, from, to, ns_per_pixel);
      check_all_lanes (lod, store, NULL, 0, 1200000, ns_per_pixel);
    }
}

/* The clock went back: spans at one depth overlap, the store has them out
 * of begin order, and one ends before it begins */
static void
test_overlap (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 track = add_thread (store, 1);
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(GArray) items = new_items ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint64 total_n = 0, long_span, backwards, small_500 = 0;
  gint64 total_ns = 0;

  long_span = add_span (builder, track, 0, 0, 1000, "long");
  for (gint64 t = 10; t < 1000; t += 10)
    {
      guint64 index = add_span (builder, track, 0, t, t + 1, "small");

      if (t == 500)
        small_500 = index;
    }
  backwards = add_span (builder, track, 0, 700, 650, "backwards");
  ps_store_builder_flush (builder);
  lod = ps_span_lod_new (store, NULL);

  /* Of the small spans only those that begin in the window are in it, with
   * the long one that covers it */
  g_assert_cmpuint (ps_span_lod_query (lod, track, 0, 500, 600, 1000, items), >=, 1);
  for (guint i = 0; i < items->len; i++)
    {
      total_n += g_array_index (items, PsSpanLodItem, i).n_spans;
      total_ns += g_array_index (items, PsSpanLodItem, i).total_ns;
    }
  g_assert_cmpuint (total_n, ==, 1 + 11);
  g_assert_cmpint (total_ns, ==, 1000 + 11);
  check_all_lanes (lod, store, NULL, 500, 600, 1000);
  check_all_lanes (lod, store, NULL, 500, 600, 0.1);
  check_all_lanes (lod, store, NULL, 0, 1000, 1);
  check_all_lanes (lod, store, NULL, 650, 700, 3);

  /* The span that ends before it begins is a zero-length span at 700,
   * after the small span that begins there too (store order breaks the tie) */
  g_array_set_size (items, 0);
  ps_span_lod_query (lod, track, 0, 699, 701, 0.01, items);
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_cmpuint (g_array_index (items, PsSpanLodItem, 0).span, ==, long_span);
  g_assert_cmpint (g_array_index (items, PsSpanLodItem, 1).begin_ns, ==, 700);
  g_assert_cmpint (g_array_index (items, PsSpanLodItem, 1).end_ns, ==, 701);
  g_assert_cmpuint (g_array_index (items, PsSpanLodItem, 2).span, ==, backwards);
  g_assert_cmpint (g_array_index (items, PsSpanLodItem, 2).end_ns, ==, 700);
  g_assert_cmpint (g_array_index (items, PsSpanLodItem, 2).total_ns, ==, 0);

  /* The covering span that began last wins; the long one covers the gaps */
  g_assert_cmpuint (ps_span_lod_find (lod, track, 0, 500, 0), ==, small_500);
  g_assert_cmpuint (ps_span_lod_find (lod, track, 0, 505, 0), ==, long_span);
  g_assert_cmpuint (ps_span_lod_find (lod, track, 0, 1001, 0), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find (lod, track, 0, 1001, 1), ==, long_span);

  /* Random overlapping intervals in random order, on two depths */
  {
    g_autoptr(PsEventStore) random_store = ps_event_store_new ();
    g_autoptr(PsStoreBuilder) random_builder = ps_store_builder_new (random_store);
    g_autoptr(PsSpanLod) random_lod = NULL;
    guint32 random_track = add_thread (random_store, 2);

    for (guint i = 0; i < 3000; i++)
      {
        gint64 begin = g_rand_int_range (rand, 0, 100000);
        gint64 length = g_rand_int_range (rand, 0, 10) == 0 ? g_rand_int_range (rand, -50, 20000)
                                                              : g_rand_int_range (rand, 0, 40);

        add_span (random_builder, random_track, (guint16)g_rand_int_range (rand, 0, 2),
                  begin, begin + length, "r");
      }
    ps_store_builder_flush (random_builder);
    random_lod = ps_span_lod_new (random_store, NULL);
    random_windows (rand, random_lod, random_store, NULL, 100);
  }
}

static void
test_find (void)
{
  guint64 s[6];
  g_autoptr(PsEventStore) store = make_small_store (s);
  g_autoptr(PsSpanLod) lod = ps_span_lod_new (store, NULL);

  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 50, 0), ==, s[0]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 0, 0), ==, s[0]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 100, 0), ==, s[0]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 1, 50, 0), ==, s[5]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 1, 25, 0), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 1, 25, 5), ==, s[4]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 1, 26, 5), ==, s[5]);
  /* Between a and b: nothing covers 150 */
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 150, 0), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 150, 49), ==, PS_SPAN_LOD_NO_SPAN);
  /* As far from both: the earlier one */
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 150, 50), ==, s[0]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 160, 40), ==, s[1]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 160, 39), ==, PS_SPAN_LOD_NO_SPAN);
  /* b ends where the zero-length c is: the one that began last */
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 300, 0), ==, s[2]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 350, 50), ==, s[2]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 360, 45), ==, s[3]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 340, 60), ==, s[2]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, -5, 10), ==, s[0]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, -5, 4), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 1005, 5), ==, s[3]);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 1006, 5), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 2, 50, 100), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find (lod, 3, 0, 50, 100), ==, PS_SPAN_LOD_NO_SPAN);
}

static void
test_subset (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  guint64 n_spans;
  g_autoptr(PsEventStore) store = make_random_store (rand, 2, 3000, 6, &n_spans);
  g_autofree guint8 *selected = g_new0 (guint8, n_spans);
  g_autoptr(GArray) chosen = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(PsSpanLod) lod = NULL;
  guint64 n_selected[2] = { 0, 0 };

  /* Every third span or so, in reverse order, some twice */
  for (guint64 i = n_spans; i-- > 0;)
    {
      if (g_rand_int_range (rand, 0, 3) != 0)
        continue;
      g_array_append_val (chosen, i);
      if (g_rand_int_range (rand, 0, 4) == 0)
        g_array_append_val (chosen, i);
      if (!selected[i])
        n_selected[ps_event_store_get_span (store, i)->track]++;
      selected[i] = 1;
    }

  lod = ps_span_lod_new_for_spans (store, (const guint64 *)chosen->data, chosen->len, NULL);
  g_assert_nonnull (lod);
  g_assert_cmpuint (ps_span_lod_get_n_spans (lod, 0), ==, n_selected[0]);
  g_assert_cmpuint (ps_span_lod_get_n_spans (lod, 1), ==, n_selected[1]);
  g_assert_cmpuint (ps_span_lod_get_n_marks (lod, 0), ==, 0);
  random_windows (rand, lod, store, selected, 40);

  /* Nothing selected */
  {
    g_autoptr(PsSpanLod) none = ps_span_lod_new_for_spans (store, NULL, 0, NULL);
    g_autoptr(GArray) items = new_items ();

    g_assert_false (ps_span_lod_get_extent (none, NULL, NULL));
    g_assert_cmpuint (ps_span_lod_get_n_depths (none, 0), ==, 0);
    g_assert_cmpuint (ps_span_lod_query (none, 0, 0, G_MININT64 / 2, G_MAXINT64 / 2, 1e9, items), ==, 0);
  }
}

static void
test_marks (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  guint32 a = add_thread (store, 1);
  guint32 b = add_thread (store, 2);
  g_autoptr(PsSpanLod) lod = NULL;
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (PsMarkLodItem));
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  static const gint64 times_a[] = { 10, 10, 15, 30, 31, 95, 5 };  /* the last one out of order */
  const PsMarkLodItem *item;

  for (guint i = 0; i < G_N_ELEMENTS (times_a); i++)
    add_mark (builder, a, times_a[i]);
  for (guint i = 0; i < 5000; i++)
    add_mark (builder, b, g_rand_int_range (rand, 0, 1000000));
  ps_store_builder_flush (builder);
  lod = ps_span_lod_new (store, NULL);

  g_assert_cmpuint (ps_span_lod_get_n_marks (lod, a), ==, 7);
  g_assert_cmpuint (ps_span_lod_get_n_marks (lod, b), ==, 5000);
  g_assert_false (ps_span_lod_get_extent (lod, NULL, NULL));

  /* Columns of 10 ns from 0: [5], [10 10 15], [30 31], [95] */
  g_assert_cmpuint (ps_span_lod_query_marks (lod, a, 0, 100, 10, items), ==, 4);
  item = &g_array_index (items, PsMarkLodItem, 0);
  g_assert_cmpint (item->time_ns, ==, 5);
  g_assert_cmpuint (item->mark, ==, 6);
  g_assert_cmpuint (item->n_marks, ==, 1);
  item = &g_array_index (items, PsMarkLodItem, 1);
  g_assert_cmpint (item->time_ns, ==, 10);
  g_assert_cmpuint (item->mark, ==, 0);
  g_assert_cmpuint (item->n_marks, ==, 3);
  item = &g_array_index (items, PsMarkLodItem, 2);
  g_assert_cmpuint (item->mark, ==, 3);
  g_assert_cmpuint (item->n_marks, ==, 2);
  item = &g_array_index (items, PsMarkLodItem, 3);
  g_assert_cmpuint (item->mark, ==, 5);
  g_assert_cmpuint (item->n_marks, ==, 1);

  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query_marks (lod, a, 10, 30, 1, items), ==, 3);
  g_assert_cmpuint (g_array_index (items, PsMarkLodItem, 0).n_marks, ==, 2);
  g_assert_cmpuint (g_array_index (items, PsMarkLodItem, 2).mark, ==, 3);
  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_span_lod_query_marks (lod, a, 32, 94, 1, items), ==, 0);

  /* Of two marks at 10, the later in the track's order */
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 12, 2), ==, 1);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 13, 2), ==, 2);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 60, 28), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 60, 29), ==, 4);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 70, 24), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 70, 25), ==, 5);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 0, 5), ==, 6);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, a, 31, 0), ==, 4);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, 7, 31, 100), ==, PS_SPAN_LOD_NO_SPAN);

  /* Random windows: bounded, every mark counted once */
  for (guint w = 0; w < 200; w++)
    {
      gint64 x = g_rand_int_range (rand, -1000, 1001000);
      gint64 y = g_rand_int_range (rand, -1000, 1001000);
      gint64 from = MIN (x, y), to = MAX (x, y);
      double ns_per_pixel = pow (10, g_rand_double_range (rand, -1, 6));
      guint64 expected = 0, counted = 0;
      gint64 last_column = -1;

      for (guint64 i = 0; i < ps_event_store_get_n_marks (store); i++)
        {
          const PsMark *mark = ps_event_store_get_mark (store, i);

          expected += mark->track == b && mark->time_ns >= from && mark->time_ns <= to;
        }
      g_array_set_size (items, 0);
      ps_span_lod_query_marks (lod, b, from, to, ns_per_pixel, items);
      g_assert_cmpfloat (items->len, <=, (to - from) / ns_per_pixel + 2);
      for (guint i = 0; i < items->len; i++)
        {
          item = &g_array_index (items, PsMarkLodItem, i);
          counted += item->n_marks;
          g_assert_cmpint (ps_event_store_get_mark (store, item->mark)->time_ns, ==, item->time_ns);
          g_assert_cmpint (column_of (item->time_ns, from, ns_per_pixel), >, last_column);
          last_column = column_of (item->time_ns, from, ns_per_pixel);
        }
      g_assert_cmpuint (counted, ==, expected);
    }
}

/* Brute force: the points of each column, as the header describes them */
static void
check_values (PsValueLod   *lod,
              const gint64 *x,
              const double *values,
              gsize         n,
              gint64        from,
              gint64        to,
              double        x_per_pixel)
{
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  gsize i = 0;

  ps_value_lod_query (lod, from, to, x_per_pixel, items);
  g_assert_cmpfloat (items->len, <=, (to - from) / x_per_pixel + 4);

  while (i < n && x[i] < from)
    i++;
  if (i > 0)
    {
      PsValueLodItem item = { x[i - 1], x[i - 1], values[i - 1], values[i - 1],
                              values[i - 1], values[i - 1], 1, i - 1 };

      g_array_append_val (expected, item);
    }
  while (i < n && x[i] <= to)
    {
      gint64 column = column_of (x[i], from, x_per_pixel);
      PsValueLodItem item = { x[i], x[i], NAN, NAN, values[i], values[i], 0, i };

      for (; i < n && x[i] <= to && column_of (x[i], from, x_per_pixel) == column; i++)
        {
          item.x_end = x[i];
          item.last = values[i];
          item.n_points++;
          if (!isnan (values[i]))
            {
              item.min = isnan (item.min) ? values[i] : MIN (item.min, values[i]);
              item.max = isnan (item.max) ? values[i] : MAX (item.max, values[i]);
            }
        }
      g_array_append_val (expected, item);
    }
  if (i < n)
    {
      PsValueLodItem item = { x[i], x[i], values[i], values[i], values[i], values[i], 1, i };

      g_array_append_val (expected, item);
    }

  g_assert_cmpuint (items->len, ==, expected->len);
  for (guint k = 0; k < items->len; k++)
    {
      const PsValueLodItem *got = &g_array_index (items, PsValueLodItem, k);
      const PsValueLodItem *want = &g_array_index (expected, PsValueLodItem, k);

      g_assert_cmpint (got->x_begin, ==, want->x_begin);
      g_assert_cmpint (got->x_end, ==, want->x_end);
      g_assert_cmpuint (got->n_points, ==, want->n_points);
      g_assert_cmpuint (got->index, ==, want->index);
      g_assert_true (got->min == want->min || (isnan (got->min) && isnan (want->min)));
      g_assert_true (got->max == want->max || (isnan (got->max) && isnan (want->max)));
      g_assert_true (got->first == want->first || (isnan (got->first) && isnan (want->first)));
      g_assert_true (got->last == want->last || (isnan (got->last) && isnan (want->last)));
    }
}

static void
test_values (void)
{
  static const gint64 x[] = { 0, 1, 1, 5, 9, 10, 20 };
  static const double v[] = { 3, NAN, -1, 7, NAN, 2, 4 };
  g_autoptr(PsValueLod) lod = ps_value_lod_new (x, v, G_N_ELEMENTS (x));
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  const PsValueLodItem *item;
  gint64 x_min, x_max;
  double value_min, value_max;

  g_assert_cmpuint (ps_value_lod_get_n_points (lod), ==, 7);
  g_assert_true (ps_value_lod_get_range (lod, &x_min, &x_max, &value_min, &value_max));
  g_assert_cmpint (x_min, ==, 0);
  g_assert_cmpint (x_max, ==, 20);
  g_assert_cmpfloat (value_min, ==, -1);
  g_assert_cmpfloat (value_max, ==, 7);

  /* [2, 9] in columns of 4: the neighbour x = 1, then [5], [9] (NaN only),
   * then the neighbour x = 10 */
  g_assert_cmpuint (ps_value_lod_query (lod, 2, 9, 4, items), ==, 4);
  item = &g_array_index (items, PsValueLodItem, 0);
  g_assert_cmpuint (item->index, ==, 2);
  g_assert_cmpfloat (item->first, ==, -1);
  item = &g_array_index (items, PsValueLodItem, 1);
  g_assert_cmpint (item->x_begin, ==, 5);
  g_assert_cmpfloat (item->min, ==, 7);
  item = &g_array_index (items, PsValueLodItem, 2);
  g_assert_cmpint (item->x_begin, ==, 9);
  g_assert_true (isnan (item->min) && isnan (item->max));
  item = &g_array_index (items, PsValueLodItem, 3);
  g_assert_cmpuint (item->index, ==, 5);

  /* All of it in one column: NaNs left out of min and max */
  g_array_set_size (items, 0);
  g_assert_cmpuint (ps_value_lod_query (lod, 0, 20, 100, items), ==, 1);
  item = &g_array_index (items, PsValueLodItem, 0);
  g_assert_cmpuint (item->n_points, ==, 7);
  g_assert_cmpfloat (item->min, ==, -1);
  g_assert_cmpfloat (item->max, ==, 7);
  g_assert_cmpfloat (item->first, ==, 3);
  g_assert_cmpfloat (item->last, ==, 4);

  g_assert_cmpuint (ps_value_lod_find (lod, -100), ==, 0);
  g_assert_cmpuint (ps_value_lod_find (lod, 1), ==, 1);
  g_assert_cmpuint (ps_value_lod_find (lod, 3), ==, 1);
  g_assert_cmpuint (ps_value_lod_find (lod, 4), ==, 3);
  g_assert_cmpuint (ps_value_lod_find (lod, 15), ==, 5);
  g_assert_cmpuint (ps_value_lod_find (lod, 16), ==, 6);
  g_assert_cmpuint (ps_value_lod_find (lod, 1000), ==, 6);

  check_values (lod, x, v, G_N_ELEMENTS (x), -5, 30, 1);
  check_values (lod, x, v, G_N_ELEMENTS (x), 1, 1, 1);
  check_values (lod, x, v, G_N_ELEMENTS (x), 11, 19, 0.5);

  /* Many points, runs of NaN, at zooms where columns take thousands of
   * points and where they take one */
  {
    gsize n = 200000;
    g_autofree gint64 *many_x = g_new (gint64, n);
    g_autofree double *many_v = g_new (double, n);
    g_autoptr(PsValueLod) many = NULL;
    gint64 position = 0;

    for (gsize i = 0; i < n; i++)
      {
        position += g_rand_int_range (rand, 0, 3);
        many_x[i] = position;
        many_v[i] = (i / 5000) % 7 == 3 || g_rand_int_range (rand, 0, 50) == 0
                    ? NAN : g_rand_double_range (rand, -1000, 1000);
      }
    many = ps_value_lod_new (many_x, many_v, n);
    check_values (many, many_x, many_v, n, 0, position, position / 1920.0);
    check_values (many, many_x, many_v, n, 0, position, position / 3.0);
    for (guint w = 0; w < 100; w++)
      {
        gint64 a = g_rand_int_range (rand, -100, (gint32)position + 100);
        gint64 b = g_rand_int_range (rand, -100, (gint32)position + 100);

        check_values (many, many_x, many_v, n, MIN (a, b), MAX (a, b),
                      pow (10, g_rand_double_range (rand, -1, 5)));
      }
  }

  /* Only NaNs; no points */
  {
    static const gint64 nan_x[] = { 1, 2 };
    static const double nan_v[] = { NAN, NAN };
    g_autoptr(PsValueLod) nans = ps_value_lod_new (nan_x, nan_v, 2);
    g_autoptr(PsValueLod) empty = ps_value_lod_new (NULL, NULL, 0);

    g_assert_true (ps_value_lod_get_range (nans, NULL, NULL, &value_min, &value_max));
    g_assert_true (isnan (value_min) && isnan (value_max));
    g_assert_false (ps_value_lod_get_range (empty, NULL, NULL, NULL, NULL));
    g_array_set_size (items, 0);
    g_assert_cmpuint (ps_value_lod_query (empty, 0, 10, 1, items), ==, 0);
    g_assert_cmpuint (ps_value_lod_find (empty, 0), ==, G_MAXSIZE);
  }
}

/* Series in one shared block read as the same series copied, and each
 * gives its reference to the block back when freed */
static void
block_released (gpointer data)
{
  (*(guint *)data)++;
}

static void
test_values_in_block (void)
{
  /* Two series, one short of a block and one of several blocks, in one block */
  gsize n_short = 5, n_long = 3 * 4096 + 77, n = n_short + n_long;
  g_autofree gint64 *x = g_new (gint64, n);
  g_autofree double *v = g_new (double, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  guint released = 0;
  PsValueLod *first, *second;

  for (gsize i = 0; i < n; i++)
    {
      x[i] = i < n_short ? (gint64)i * 3 : (gint64)(i - n_short) * 2 + 1;
      v[i] = g_rand_int_range (rand, 0, 8) == 0 ? NAN : g_rand_double_range (rand, -50, 50);
    }
  first = ps_value_lod_new_in_block (&(PsValueLodPoints){ .x = x, .values = v }, n_short, &released, block_released);
  second = ps_value_lod_new_in_block (&(PsValueLodPoints){ .x = x + n_short, .values = v + n_short }, n_long, &released,
                                      block_released);

  check_values (first, x, v, n_short, -5, 30, 1);
  check_values (first, x, v, n_short, 2, 7, 0.5);
  check_values (second, x + n_short, v + n_short, n_long, -5, 30000, 1);
  check_values (second, x + n_short, v + n_short, n_long, 0, 30000, 300);
  check_values (second, x + n_short, v + n_short, n_long, 1000, 9000, 5000);

  /* Counted without the values: the same columns */
  {
    g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
    g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));

    g_assert_cmpuint (ps_value_lod_query (second, 100, 20000, 37.5, items), >, 100);
    g_assert_cmpuint (ps_value_lod_query_counts (second, 100, 20000, 37.5, counts), ==, items->len);
    for (guint i = 0; i < items->len; i++)
      {
        const PsValueLodItem *item = &g_array_index (items, PsValueLodItem, i);
        const PsValueLodItem *count = &g_array_index (counts, PsValueLodItem, i);

        g_assert_cmpint (count->x_begin, ==, item->x_begin);
        g_assert_cmpint (count->x_end, ==, item->x_end);
        g_assert_cmpuint (count->n_points, ==, item->n_points);
        g_assert_cmpuint (count->index, ==, item->index);
        g_assert_true (isnan (count->min) && isnan (count->first));
      }
  }

  ps_value_lod_unref (first);
  g_assert_cmpuint (released, ==, 1);
  ps_value_lod_unref (second);
  g_assert_cmpuint (released, ==, 2);
}

/* x kept in 32 bits (a CE log's sequence numbers) answers every query
 * as in full, up to the largest x that fits */
static void
test_values_narrow (void)
{
  gsize n = 20000;
  g_autofree guint32 *narrow = g_new (guint32, n);
  g_autofree gint64 *x = g_new (gint64, n);
  g_autofree double *v = g_new (double, n);
  g_autofree gint64 *copied = NULL;
  g_autofree double *copied_values = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint released = 0;
  PsValueLod *lod;
  gint64 x_min, x_max, at;
  double value;

  /* Steps of about 200 000, and the last points at the very top of 32
   * bits */
  for (gsize i = 0; i < n; i++)
    {
      x[i] = i + 3 >= n ? (gint64)G_MAXUINT32 - (gint64)(n - 1 - i)
                        : (gint64)i * 200000 + g_rand_int_range (rand, 0, 3);
      narrow[i] = (guint32)x[i];
      v[i] = g_rand_int_range (rand, 0, 9) == 0 ? NAN : g_rand_double_range (rand, -50, 50);
    }
  lod = ps_value_lod_new_in_block (&(PsValueLodPoints){ .x_narrow = narrow, .values = v }, n, &released, block_released);

  g_assert_true (ps_value_lod_get_range (lod, &x_min, &x_max, NULL, NULL));
  g_assert_cmpint (x_min, ==, x[0]);
  g_assert_cmpint (x_max, ==, (gint64)G_MAXUINT32);
  g_assert_true (ps_value_lod_get_point (lod, n - 1, &at, &value));
  g_assert_cmpint (at, ==, (gint64)G_MAXUINT32);
  g_assert_cmpuint (ps_value_lod_find (lod, (gint64)G_MAXUINT32 + 5), ==, n - 1);
  g_assert_cmpuint (ps_value_lod_find (lod, x[1234] + 1), ==, 1234);
  copied = ps_value_lod_dup_x (lod);
  g_assert_cmpmem (copied, n * sizeof (gint64), x, n * sizeof (gint64));
  copied_values = ps_value_lod_dup_values (lod);
  g_assert_cmpmem (copied_values, n * sizeof (double), v, n * sizeof (double));

  check_values (lod, x, v, n, 0, x[n - 1], (double)x[n - 1] / 1920);
  check_values (lod, x, v, n, x[100], x[300], 50000);
  check_values (lod, x, v, n, x[n - 10], (gint64)G_MAXUINT32 + 10, 1);
  for (guint w = 0; w < 50; w++)
    {
      gint64 a = (gint64)g_rand_double_range (rand, -1e6, (double)G_MAXUINT32 + 1e6);
      gint64 b = (gint64)g_rand_double_range (rand, -1e6, (double)G_MAXUINT32 + 1e6);

      check_values (lod, x, v, n, MIN (a, b), MAX (a, b), pow (10, g_rand_double_range (rand, 0, 8)));
    }

  ps_value_lod_unref (lod);
  g_assert_cmpuint (released, ==, 1);

  /* x that goes back is refused, and what holds it released */
  narrow[5] = narrow[3];
  g_test_expect_message (NULL, G_LOG_LEVEL_CRITICAL, "*should not be reached*");
  g_assert_null (ps_value_lod_new_in_block (&(PsValueLodPoints){ .x_narrow = narrow, .values = v }, n, &released,
                                            block_released));
  g_test_assert_expected_messages ();
  g_assert_cmpuint (released, ==, 2);
}

/* Queries of two series give the same items, to the bit */
static void
assert_same_items (PsValueLod *got,
                   PsValueLod *want,
                   gint64      from,
                   gint64      to,
                   double      x_per_pixel)
{
  g_autoptr(GArray) got_items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  g_autoptr(GArray) want_items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));

  ps_value_lod_query (got, from, to, x_per_pixel, got_items);
  ps_value_lod_query (want, from, to, x_per_pixel, want_items);
  g_assert_cmpmem (got_items->data, got_items->len * sizeof (PsValueLodItem), want_items->data,
                   want_items->len * sizeof (PsValueLodItem));
  g_array_set_size (got_items, 0);
  g_array_set_size (want_items, 0);
  ps_value_lod_query_counts (got, from, to, x_per_pixel, got_items);
  ps_value_lod_query_counts (want, from, to, x_per_pixel, want_items);
  g_assert_cmpmem (got_items->data, got_items->len * sizeof (PsValueLodItem), want_items->data,
                   want_items->len * sizeof (PsValueLodItem));
}

/* Values kept as whole numbers in 32 bits and a divisor (a CE log's
 * durations: ticks and the session's tick rate), read from a store's
 * value pages at x among other numbers, answer every query as the same
 * values kept as doubles, to the bit, up to the largest whole number
 * that fits */
static void
test_values_narrow_ticks (void)
{
  /* A QPC rate, a rate of whole milliseconds, and no rate (ticks) */
  static const double divisors[] = { 3579545, 1000, 1 };
  gsize n = 3 * 4096 + 321;
  g_autofree gint64 *x = g_new (gint64, n);
  g_autofree guint32 *x_narrow = g_new (guint32, n);
  g_autofree guint32 *ticks = g_new (guint32, n);
  g_autofree double *v = g_new (double, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  const gsize page_size = (gsize)1 << PS_EVENT_STORE_VALUE_PAGE_SHIFT;
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func (g_free);

  for (gsize p = 0; p <= (gsize)n * 37 / page_size; p++)
    {
      guint32 *page = g_new (guint32, page_size);

      /* Numbers of no point: read in a point's place, they would show */
      for (gsize k = 0; k < page_size; k++)
        page[k] = (guint32)(p * page_size + k) * 2654435761u;
      g_ptr_array_add (pages, page);
    }
  for (gsize i = 0; i < n; i++)
    {
      x[i] = (gint64)i * 37 + g_rand_int_range (rand, 0, 30);
      x_narrow[i] = (guint32)x[i];
      /* Short ones, any in 32 bits, and the ends of the range */
      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          ticks[i] = g_rand_int_range (rand, 0, 5000);
          break;
        case 1:
          ticks[i] = G_MAXUINT32 - g_rand_int_range (rand, 0, 3);
          break;
        default:
          ticks[i] = g_rand_int (rand);
          break;
        }
    }
  ticks[0] = 0;
  ticks[n - 1] = G_MAXUINT32;
  ticks[n / 2] = G_MAXUINT32;
  for (gsize i = 0; i < n; i++)
    ((guint32 *)g_ptr_array_index (pages, x[i] >> PS_EVENT_STORE_VALUE_PAGE_SHIFT))[x[i] % page_size] = ticks[i];
  g_assert_cmpuint (pages->len, >=, 5);

  for (guint d = 0; d < G_N_ELEMENTS (divisors); d++)
    {
      double divisor = divisors[d];
      guint released = 0;
      PsValueLod *narrow, *narrow_x, *wide;
      g_autofree double *copied = NULL;
      gint64 got_min, got_max, want_min, want_max;
      double got_low, got_high, want_low, want_high;

      g_test_message ("divisor %g", divisor);
      /* What a duration's value is today, computed once */
      for (gsize i = 0; i < n; i++)
        v[i] = (double)ticks[i] / divisor;
      wide = ps_value_lod_new (x, v, n);
      narrow = ps_value_lod_new_in_block (&(PsValueLodPoints){ .x = x, .value_pages = (gpointer)pages->pdata,
                                                               .divisor = divisor },
                                          n, &released, block_released);
      narrow_x = ps_value_lod_new_in_block (&(PsValueLodPoints){ .x_narrow = x_narrow, .value_pages = (gpointer)pages->pdata,
                                                                 .divisor = divisor },
                                            n, &released, block_released);
      g_assert_nonnull (narrow);
      g_assert_nonnull (narrow_x);

      g_assert_true (ps_value_lod_get_range (narrow, &got_min, &got_max, &got_low, &got_high));
      g_assert_true (ps_value_lod_get_range (wide, &want_min, &want_max, &want_low, &want_high));
      g_assert_cmpint (got_min, ==, want_min);
      g_assert_cmpint (got_max, ==, want_max);
      g_assert_cmpmem (&got_low, sizeof (double), &want_low, sizeof (double));
      g_assert_cmpmem (&got_high, sizeof (double), &want_high, sizeof (double));
      g_assert_cmpfloat (got_high, ==, (double)G_MAXUINT32 / divisor);

      copied = ps_value_lod_dup_values (narrow);
      g_assert_cmpmem (copied, n * sizeof (double), v, n * sizeof (double));
      for (gsize i = 0; i < n; i++)
        {
          gint64 at;
          double value;

          g_assert_true (ps_value_lod_get_point (narrow, i, &at, &value));
          g_assert_cmpint (at, ==, x[i]);
          g_assert_cmpmem (&value, sizeof (double), &v[i], sizeof (double));
          g_assert_cmpuint (ps_value_lod_find (narrow, x[i] + 1), ==, ps_value_lod_find (wide, x[i] + 1));
        }
      g_assert_false (ps_value_lod_get_point (narrow, n, NULL, NULL));

      check_values (narrow, x, v, n, -5, x[n - 1] + 5, 1);
      check_values (narrow_x, x, v, n, 0, x[n - 1], 300);
      for (guint w = 0; w < 40; w++)
        {
          gint64 a = g_rand_int_range (rand, -100, x[n - 1] + 100);
          gint64 b = g_rand_int_range (rand, -100, x[n - 1] + 100);
          double x_per_pixel = pow (10, g_rand_double_range (rand, -1, 5));

          assert_same_items (narrow, wide, MIN (a, b), MAX (a, b), x_per_pixel);
          assert_same_items (narrow_x, wide, MIN (a, b), MAX (a, b), x_per_pixel);
        }

      ps_value_lod_unref (narrow);
      ps_value_lod_unref (narrow_x);
      ps_value_lod_unref (wide);
      g_assert_cmpuint (released, ==, 2);
    }
}

static void
test_empty_store (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsSpanLod) lod = ps_span_lod_new (store, NULL);
  g_autoptr(GArray) items = new_items ();
  g_autoptr(GArray) mark_items = g_array_new (FALSE, FALSE, sizeof (PsMarkLodItem));
  gint64 begin = -1, end = -1;

  g_assert_nonnull (lod);
  g_assert_false (ps_span_lod_get_extent (lod, &begin, &end));
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 0);
  g_assert_cmpuint (ps_span_lod_get_n_depths (lod, 0), ==, 0);
  g_assert_cmpuint (ps_span_lod_get_n_spans (lod, 0), ==, 0);
  g_assert_cmpuint (ps_span_lod_query (lod, 0, 0, 0, 100, 1, items), ==, 0);
  g_assert_cmpuint (ps_span_lod_query_marks (lod, 0, 0, 100, 1, mark_items), ==, 0);
  g_assert_cmpuint (ps_span_lod_find (lod, 0, 0, 0, 100), ==, PS_SPAN_LOD_NO_SPAN);
  g_assert_cmpuint (ps_span_lod_find_mark (lod, 0, 0, 100), ==, PS_SPAN_LOD_NO_SPAN);

  /* Shared between owners */
  ps_span_lod_unref (ps_span_lod_ref (lod));
  g_assert_cmpuint (ps_span_lod_get_n_depths (lod, 0), ==, 0);
}

static void
test_cancel (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  guint64 n_spans;
  g_autoptr(PsEventStore) store = make_random_store (rand, 1, 100, 4, &n_spans);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint64 subset[] = { 1, 2 };
  g_autoptr(PsSpanLod) lod = ps_span_lod_new (store, cancellable);

  g_assert_nonnull (lod);
  g_cancellable_cancel (cancellable);
  g_assert_null (ps_span_lod_new (store, cancellable));
  g_assert_null (ps_span_lod_new_for_spans (store, subset, G_N_ELEMENTS (subset), cancellable));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/span-lod/high-zoom", test_high_zoom);
  g_test_add_func ("/span-lod/zoom-out-known", test_zoom_out_known);
  g_test_add_func ("/span-lod/long-among-short", test_long_among_short);
  g_test_add_func ("/span-lod/long-runs", test_long_runs);
  g_test_add_func ("/span-lod/random", test_random);
  g_test_add_func ("/span-lod/tiles-known", test_tiles_known);
  g_test_add_func ("/span-lod/tiles-random", test_tiles_random);
  g_test_add_func ("/span-lod/tiles-overlap", test_tiles_overlap);
  g_test_add_func ("/span-lod/overlap", test_overlap);
  g_test_add_func ("/span-lod/find", test_find);
  g_test_add_func ("/span-lod/subset", test_subset);
  g_test_add_func ("/span-lod/marks", test_marks);
  g_test_add_func ("/span-lod/values", test_values);
  g_test_add_func ("/span-lod/values-in-block", test_values_in_block);
  g_test_add_func ("/span-lod/values-narrow", test_values_narrow);
  g_test_add_func ("/span-lod/values-narrow-ticks", test_values_narrow_ticks);
  g_test_add_func ("/span-lod/empty-store", test_empty_store);
  g_test_add_func ("/span-lod/cancel", test_cancel);

  return g_test_run ();
}

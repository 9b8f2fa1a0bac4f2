/* ps-span-lod.c — level of detail for drawing spans, marks and values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Spans are grouped in lanes, one per (track, depth). A lane's spans sit
 * next to each other in a few parallel arrays, sorted by begin: their
 * begins, their store indexes, their names, and the running sum of their
 * durations (one more entry than spans), from which both a span's end and
 * the total duration of any run of spans follow without reading the run.
 * That is 24 bytes a span. Per block of 32 spans a lane also keeps the
 * latest end so far (a lower bound search that does not assume the ends
 * are sorted), its first begin and running sum, and its longest span with
 * that span's store index and name; per block of 1024 the longest again.
 * At full zoom-out a pixel column holds many spans, and reading only these
 * compact arrays (under 1 byte a span) instead of the per-span ones is what
 * keeps a query of every lane within a frame: merged items then end on a
 * block boundary when that block lies within the next column.
 *
 * Further out even those are too many for a frame of every lane, so each
 * lane with enough spans also has tiles: its spans merged ahead of time
 * per aligned bucket of 2^k ns, a span as long as the bucket being a tile
 * of its own. Only the levels k that have at most a quarter of the tiles
 * of the level below are kept, which bounds them to a third of the spans
 * (at 40 bytes a tile, under 14 bytes a span). A query at ns_per_pixel
 * takes the widest tiles no wider than a column for the spans that begin
 * inside the window, a few per column, and the spans at the window's
 * edges, in tiles the edges cut through, one by one: the counts and sums
 * stay exact, and every span of a pixel or more still comes alone.
 *
 * Spans at one depth of a track do not overlap when the log is sound, so
 * their ends are sorted too. A lane where they are not (the clock went
 * back) is marked, and the spans that began before a window are then
 * checked one by one instead of being counted from the sums.
 *
 * This file builds the lanes, blocks and tiles; ps-span-lod-query.c
 * answers the queries over them, and ps-value-lod.c is the same for value
 * series.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps-span-lod-private.h"
#include "ps-util.h"

static int
compare_sort_entry (const void *a,
                    const void *b)
{
  const SortEntry *x = a;
  const SortEntry *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->span < y->span ? -1 : x->span > y->span;
}

static int
compare_mark_entry (const void *a,
                    const void *b)
{
  const MarkEntry *x = a;
  const MarkEntry *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->mark < y->mark ? -1 : x->mark > y->mark;
}

static gboolean
is_cancelled (GCancellable *cancellable,
              guint64       done)
{
  return (done & (CANCEL_INTERVAL - 1)) == 0 && g_cancellable_is_cancelled (cancellable);
}

static void
ps_span_lod_clear (gpointer data)
{
  PsSpanLod *self = data;

  g_clear_pointer (&self->track_lanes, g_free);
  g_clear_pointer (&self->lanes, g_free);
  g_clear_pointer (&self->begins, g_free);
  g_clear_pointer (&self->duration_sums, g_free);
  g_clear_pointer (&self->spans, g_free);
  g_clear_pointer (&self->names, g_free);
  g_clear_pointer (&self->block_max_end, g_free);
  g_clear_pointer (&self->block_first_begin, g_free);
  g_clear_pointer (&self->block_sum, g_free);
  g_clear_pointer (&self->block_longest_span, g_free);
  g_clear_pointer (&self->block_longest_name, g_free);
  g_clear_pointer (&self->block_max_duration, g_free);
  g_clear_pointer (&self->block_longest, g_free);
  g_clear_pointer (&self->super_max_duration, g_free);
  g_clear_pointer (&self->super_longest, g_free);
  g_clear_pointer (&self->levels, g_free);
  g_clear_pointer (&self->tiles, g_free);
  g_clear_pointer (&self->track_marks, g_free);
  g_clear_pointer (&self->mark_times, g_free);
  g_clear_pointer (&self->marks, g_free);
}

static inline guint32
selected_span (const guint32 *selection,
               guint64        i)
{
  return selection != NULL ? selection[i] : (guint32)i;
}

/* Sorts the lanes the store did not give in begin order, turns durations
 * into running sums and fills the block summaries */
static gboolean
finish_lanes (PsSpanLod    *self,
              GCancellable *cancellable)
{
  guint64 done = 0;

  for (guint l = 0; l < self->n_lanes; l++)
    {
      Lane *lane = &self->lanes[l];
      gint64 *begins = self->begins + lane->first;
      guint64 *sums = self->duration_sums + lane->prefix_first;
      gboolean sorted = TRUE;
      gint64 max_end = G_MININT64;
      guint64 sum = 0;

      for (guint64 k = 1; k < lane->n && sorted; k++)
        sorted = begins[k - 1] <= begins[k];

      if (!sorted)
        {
          g_autofree SortEntry *entries = g_new (SortEntry, lane->n);

          for (guint64 k = 0; k < lane->n; k++)
            {
              entries[k].begin = begins[k];
              entries[k].duration = sums[k + 1];
              entries[k].span = self->spans[lane->first + k];
              entries[k].name = self->names[lane->first + k];
            }
          qsort (entries, lane->n, sizeof *entries, compare_sort_entry);
          for (guint64 k = 0; k < lane->n; k++)
            {
              begins[k] = entries[k].begin;
              sums[k + 1] = entries[k].duration;
              self->spans[lane->first + k] = entries[k].span;
              self->names[lane->first + k] = entries[k].name;
            }
        }

      lane->ends_sorted = TRUE;
      sums[0] = 0;
      for (guint64 k = 0; k < lane->n; k++)
        {
          guint64 duration = sums[k + 1];
          gint64 end = begins[k] + (gint64)duration;
          guint64 block = lane->first_block + (k >> BLOCK_SHIFT);
          guint64 super = lane->first_super + (k >> SUPER_SHIFT);

          if (is_cancelled (cancellable, ++done))
            return FALSE;

          if (end < max_end)
            lane->ends_sorted = FALSE;
          max_end = MAX (max_end, end);
          sum += duration;
          sums[k + 1] = sum;

          if ((k & (BLOCK_SIZE - 1)) == 0)
            {
              self->block_first_begin[block] = begins[k];
              self->block_sum[block] = sum - duration;
            }
          if ((k & (BLOCK_SIZE - 1)) == 0 || (gint64)duration > self->block_max_duration[block])
            {
              self->block_max_duration[block] = (gint64)duration;
              self->block_longest[block] = (guint32)k;
              self->block_longest_span[block] = self->spans[lane->first + k];
              self->block_longest_name[block] = self->names[lane->first + k];
            }
          self->block_max_end[block] = max_end;
          if ((k & (SUPER_SIZE - 1)) == 0 || (gint64)duration > self->super_max_duration[super])
            {
              self->super_max_duration[super] = (gint64)duration;
              self->super_longest[super] = (guint32)k;
            }
        }

      if (lane->n > 0)
        {
          self->has_extent = TRUE;
          self->extent_begin = MIN (self->extent_begin, begins[0]);
          self->extent_end = MAX (self->extent_end, max_end);
        }
    }

  return TRUE;
}

static inline int
floor_log2 (guint64 x)
{
  return x != 0 ? 63 - __builtin_clzll (x) : -1;
}

/* Picks the tile levels of a lane and how many tiles each has, from one
 * pass over the spans: two neighbours are in different tiles at every
 * shift up to the highest bit in which their begins differ, or up to the
 * binary logarithm of the longer of the two */
static guint
choose_tile_levels (const PsSpanLod *self,
                    const Lane      *lane,
                    guint            shifts[TILE_MAX_SHIFT + 1],
                    guint64          counts[TILE_MAX_SHIFT + 1])
{
  const gint64 *begins = self->begins + lane->first;
  const guint64 *sums = self->duration_sums + lane->prefix_first;
  guint64 apart_up_to[65] = { 0 };  /* by that highest shift, + 1 */
  guint64 by_shift[TILE_MAX_SHIFT + 1];
  guint64 base = (guint64)begins[0];
  guint64 previous_begin = 0;
  int previous_log = floor_log2 (sums[1] - sums[0]);
  guint64 n_tiles = 1, previous_count = lane->n;
  guint n_levels = 0;

  for (guint64 k = 1; k < lane->n; k++)
    {
      guint64 begin = (guint64)begins[k] - base;
      int duration_log = floor_log2 (sums[k + 1] - sums[k]);
      int apart = MAX (floor_log2 (begin ^ previous_begin), MAX (duration_log, previous_log));

      apart_up_to[apart + 1]++;
      previous_begin = begin;
      previous_log = duration_log;
    }

  for (int shift = 63; shift > TILE_MAX_SHIFT; shift--)
    n_tiles += apart_up_to[shift + 1];
  for (int shift = TILE_MAX_SHIFT; shift >= 0; shift--)
    {
      n_tiles += apart_up_to[shift + 1];
      by_shift[shift] = n_tiles;
    }

  for (guint shift = 0; shift <= TILE_MAX_SHIFT; shift++)
    {
      if (by_shift[shift] * TILE_REDUCTION <= previous_count)
        {
          shifts[n_levels] = shift;
          counts[n_levels++] = by_shift[shift];
          previous_count = by_shift[shift];
        }
    }
  return n_levels;
}

/* Fills the tiles of one level from spans or from the tiles of a finer
 * level, which are unions of whole finer tiles: a finer tile's spans lie
 * in one bucket of the coarser level too, and are shorter than it */
typedef struct
{
  Tile     *tiles;
  guint64   n_tiles;
  guint     shift;
  guint64   base;          /* the lane's first begin: buckets count from it */
  gboolean  open;
  gboolean  open_alone;    /* the open tile is a span as long as a bucket */
  guint64   open_bucket;
  gint64    end_ns;
  guint64   longest_ns;
} TileWriter;

static void
tile_writer_close (TileWriter *writer)
{
  Tile *tile = &writer->tiles[writer->n_tiles];

  if (!writer->open)
    return;
  writer->open = FALSE;
  /* Both are in range for a merged tile, and unused for a single span */
  tile->end_offset = (guint32)MIN ((guint64)(writer->end_ns - tile->begin_ns), G_MAXUINT32);
  tile->longest_ns = (guint32)MIN (writer->longest_ns, G_MAXUINT32);
  writer->n_tiles++;
}

/* Adds n_spans spans from lane position first on, a span or a finer tile */
static void
tile_writer_add (TileWriter *writer,
                 gint64      begin_ns,
                 gint64      end_ns,
                 guint64     total_ns,
                 guint32     n_spans,
                 guint32     first,
                 guint64     longest_ns,
                 guint32     span,
                 guint32     name)
{
  guint64 bucket = ((guint64)begin_ns - writer->base) >> writer->shift;
  gboolean alone = n_spans == 1 && (total_ns >> writer->shift) != 0;
  Tile *tile = &writer->tiles[writer->n_tiles];

  if (writer->open && !alone && !writer->open_alone && bucket == writer->open_bucket)
    {
      tile->n_spans += n_spans;
      tile->total_ns += (gint64)total_ns;
      writer->end_ns = MAX (writer->end_ns, end_ns);
      if (longest_ns > writer->longest_ns)
        {
          writer->longest_ns = longest_ns;
          tile->span = span;
          tile->name = name;
        }
      return;
    }

  tile_writer_close (writer);
  tile = &writer->tiles[writer->n_tiles];
  tile->begin_ns = begin_ns;
  tile->total_ns = (gint64)total_ns;
  tile->n_spans = n_spans;
  tile->first = first;
  tile->span = span;
  tile->name = name;
  writer->open = TRUE;
  writer->open_alone = alone;
  writer->open_bucket = bucket;
  writer->end_ns = end_ns;
  writer->longest_ns = longest_ns;
}

/* Merges runs of narrow spans ahead of time, at a few bucket widths per
 * lane, for queries at a zoom where a pixel column holds many spans */
static gboolean
build_tiles (PsSpanLod    *self,
             GCancellable *cancellable)
{
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (TileLevel));
  guint64 n_tiles = 0;

  for (guint l = 0; l < self->n_lanes; l++)
    {
      Lane *lane = &self->lanes[l];
      guint shifts[TILE_MAX_SHIFT + 1];
      guint64 counts[TILE_MAX_SHIFT + 1];

      lane->first_level = levels->len;
      lane->n_levels = 0;
      if (lane->n < TILE_MIN_SPANS)
        continue;
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      lane->n_levels = choose_tile_levels (self, lane, shifts, counts);
      for (guint i = 0; i < lane->n_levels; i++)
        {
          TileLevel level = { n_tiles, counts[i], shifts[i] };

          g_array_append_val (levels, level);
          n_tiles += counts[i];
        }
    }

  self->levels = g_memdup2 (levels->data, MAX (levels->len, 1) * sizeof (TileLevel));
  self->tiles = ps_util_alloc_filled (MAX (n_tiles, 1) * sizeof (Tile), FALSE);

  for (guint l = 0; l < self->n_lanes; l++)
    {
      const Lane *lane = &self->lanes[l];
      const gint64 *begins = self->begins + lane->first;
      const guint64 *sums = self->duration_sums + lane->prefix_first;

      for (guint i = 0; i < lane->n_levels; i++)
        {
          const TileLevel *level = &self->levels[lane->first_level + i];
          TileWriter writer = { 0 };

          if (g_cancellable_is_cancelled (cancellable))
            return FALSE;
          writer.tiles = self->tiles + level->first;
          writer.shift = level->shift;
          writer.base = (guint64)begins[0];

          if (i == 0)
            {
              for (guint64 k = 0; k < lane->n; k++)
                {
                  guint64 duration = sums[k + 1] - sums[k];

                  tile_writer_add (&writer, begins[k], begins[k] + (gint64)duration, duration, 1,
                                   (guint32)k, duration, self->spans[lane->first + k],
                                   self->names[lane->first + k]);
                }
            }
          else
            {
              const TileLevel *finer = level - 1;

              for (guint64 t = 0; t < finer->n; t++)
                {
                  const Tile *tile = &self->tiles[finer->first + t];

                  tile_writer_add (&writer, tile->begin_ns, tile_end (tile), (guint64)tile->total_ns,
                                   tile->n_spans, tile->first, tile_longest (tile),
                                   tile->span, tile->name);
                }
            }
          tile_writer_close (&writer);
          /* The counts the space was sized by */
          g_assert (writer.n_tiles == level->n);
        }
    }

  self->memory_size += levels->len * sizeof (TileLevel) + n_tiles * sizeof (Tile);
  return TRUE;
}

static gboolean
index_marks (PsSpanLod    *self,
             PsEventStore *store,
             GCancellable *cancellable)
{
  guint64 n_marks = ps_event_store_get_n_marks (store);
  g_autofree guint64 *cursor = NULL;
  guint64 n_indexed = 0;

  self->track_marks = g_new0 (guint32, self->n_tracks + 1);
  for (guint64 i = 0; i < n_marks; i++)
    {
      const PsMark *mark = ps_event_store_get_mark (store, i);

      if (is_cancelled (cancellable, i + 1))
        return FALSE;
      if (mark->track < self->n_tracks)
        self->track_marks[mark->track + 1]++;
    }
  for (guint t = 0; t < self->n_tracks; t++)
    self->track_marks[t + 1] += self->track_marks[t];
  n_indexed = self->track_marks[self->n_tracks];

  self->mark_times = g_new (gint64, MAX (n_indexed, 1));
  self->marks = g_new (guint32, MAX (n_indexed, 1));
  cursor = g_new (guint64, self->n_tracks + 1);
  for (guint t = 0; t <= self->n_tracks; t++)
    cursor[t] = self->track_marks[t];

  for (guint64 i = 0; i < n_marks; i++)
    {
      const PsMark *mark = ps_event_store_get_mark (store, i);
      guint64 position;

      if (is_cancelled (cancellable, i + 1))
        return FALSE;
      if (mark->track >= self->n_tracks)
        continue;
      position = cursor[mark->track]++;
      self->mark_times[position] = mark->time_ns;
      self->marks[position] = (guint32)i;
    }

  /* Untimed marks take the previous record's time, so a track's marks are
   * nearly always in order already */
  for (guint t = 0; t < self->n_tracks; t++)
    {
      guint64 first = self->track_marks[t];
      guint64 n = self->track_marks[t + 1] - first;
      gboolean sorted = TRUE;

      for (guint64 k = 1; k < n && sorted; k++)
        sorted = self->mark_times[first + k - 1] <= self->mark_times[first + k];
      if (!sorted)
        {
          g_autofree MarkEntry *entries = g_new (MarkEntry, n);

          for (guint64 k = 0; k < n; k++)
            {
              entries[k].time = self->mark_times[first + k];
              entries[k].mark = self->marks[first + k];
            }
          qsort (entries, n, sizeof *entries, compare_mark_entry);
          for (guint64 k = 0; k < n; k++)
            {
              self->mark_times[first + k] = entries[k].time;
              self->marks[first + k] = entries[k].mark;
            }
        }
    }

  self->memory_size += (self->n_tracks + 1) * sizeof (guint32)
                       + n_indexed * (sizeof (gint64) + sizeof (guint32));
  return TRUE;
}

/* selection: sorted store indexes without duplicates, or NULL for all */
static PsSpanLod *
build (PsEventStore  *store,
       const guint32 *selection,
       guint64        n_selected,
       gboolean       with_marks,
       GCancellable  *cancellable)
{
  g_autoptr(PsSpanLod) self = NULL;
  g_autofree guint32 *track_depths = NULL;
  g_autofree guint64 *cursor = NULL;
  guint64 n_blocks = 0, n_supers = 0;

  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  self = g_atomic_rc_box_new0 (PsSpanLod);
  self->extent_begin = G_MAXINT64;
  self->extent_end = G_MININT64;
  self->n_spans = n_selected;

  /* Pass 1: the tracks and how deep each goes. A span on a track the store
   * does not list still gets its lane. */
  self->n_tracks = ps_event_store_get_n_tracks (store);
  for (guint64 i = 0; i < n_selected; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, selected_span (selection, i));

      if (is_cancelled (cancellable, i + 1))
        return NULL;
      self->n_tracks = MAX (self->n_tracks, span->track + 1);
    }
  track_depths = g_new0 (guint32, self->n_tracks);
  for (guint64 i = 0; i < n_selected; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, selected_span (selection, i));

      if (is_cancelled (cancellable, i + 1))
        return NULL;
      track_depths[span->track] = MAX (track_depths[span->track], (guint32)span->depth + 1);
    }

  self->track_lanes = g_new (guint32, self->n_tracks + 1);
  self->track_lanes[0] = 0;
  for (guint t = 0; t < self->n_tracks; t++)
    self->track_lanes[t + 1] = self->track_lanes[t] + track_depths[t];
  self->n_lanes = self->track_lanes[self->n_tracks];
  self->lanes = g_new0 (Lane, MAX (self->n_lanes, 1));

  /* Pass 2: spans per lane */
  for (guint64 i = 0; i < n_selected; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, selected_span (selection, i));

      if (is_cancelled (cancellable, i + 1))
        return NULL;
      self->lanes[self->track_lanes[span->track] + span->depth].n++;
    }

  cursor = g_new (guint64, MAX (self->n_lanes, 1));
  {
    guint64 position = 0;

    for (guint l = 0; l < self->n_lanes; l++)
      {
        Lane *lane = &self->lanes[l];

        lane->first = position;
        lane->prefix_first = position + l;
        lane->first_block = n_blocks;
        lane->first_super = n_supers;
        cursor[l] = position;
        position += lane->n;
        n_blocks += n_blocks_of (lane->n, BLOCK_SHIFT);
        n_supers += n_blocks_of (lane->n, SUPER_SHIFT);
      }
  }

  /* Filled whole, each in lane order: faulted in at once */
  self->begins = ps_util_alloc_filled (MAX (n_selected, 1) * sizeof (gint64), FALSE);
  self->duration_sums = ps_util_alloc_filled ((n_selected + self->n_lanes + 1) * sizeof (guint64), FALSE);
  self->spans = ps_util_alloc_filled (MAX (n_selected, 1) * sizeof (guint32), FALSE);
  self->names = ps_util_alloc_filled (MAX (n_selected, 1) * sizeof (guint32), FALSE);
  self->block_max_end = g_new (gint64, MAX (n_blocks, 1));
  self->block_first_begin = g_new (gint64, MAX (n_blocks, 1));
  self->block_sum = g_new (guint64, MAX (n_blocks, 1));
  self->block_longest_span = g_new (guint32, MAX (n_blocks, 1));
  self->block_longest_name = g_new (guint32, MAX (n_blocks, 1));
  self->block_max_duration = g_new (gint64, MAX (n_blocks, 1));
  self->block_longest = g_new (guint32, MAX (n_blocks, 1));
  self->super_max_duration = g_new (gint64, MAX (n_supers, 1));
  self->super_longest = g_new (guint32, MAX (n_supers, 1));

  /* Pass 3: a counting sort into the lanes, keeping store order, which is
   * begin order on each track. The durations wait in the slot of their
   * running sum. */
  for (guint64 i = 0; i < n_selected; i++)
    {
      guint32 index = selected_span (selection, i);
      const PsSpan *span = ps_event_store_get_span (store, index);
      guint lane_index = self->track_lanes[span->track] + span->depth;
      Lane *lane = &self->lanes[lane_index];
      guint64 position = cursor[lane_index]++;

      if (is_cancelled (cancellable, i + 1))
        return NULL;
      self->begins[position] = span->begin_ns;
      self->duration_sums[lane->prefix_first + (position - lane->first) + 1] =
        span->end_ns > span->begin_ns ? (guint64)span->end_ns - (guint64)span->begin_ns : 0;
      self->spans[position] = index;
      self->names[position] = span->name;
    }

  if (!finish_lanes (self, cancellable))
    return NULL;

  self->memory_size = sizeof *self
                      + (self->n_tracks + 1) * sizeof (guint32)
                      + self->n_lanes * sizeof (Lane)
                      + n_selected * (sizeof (gint64) + 2 * sizeof (guint32))
                      + (n_selected + self->n_lanes + 1) * sizeof (guint64)
                      + n_blocks * (4 * sizeof (gint64) + 3 * sizeof (guint32))
                      + n_supers * (sizeof (gint64) + sizeof (guint32));
  if (!build_tiles (self, cancellable))
    return NULL;

  if (with_marks)
    {
      if (!index_marks (self, store, cancellable))
        return NULL;
    }
  else
    {
      self->track_marks = g_new0 (guint32, self->n_tracks + 1);
    }

  return g_steal_pointer (&self);
}

PsSpanLod *
ps_span_lod_new (PsEventStore *store,
                 GCancellable *cancellable)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  /* Spans are referred to by guint32, as their parents are in the store */
  g_return_val_if_fail (ps_event_store_get_n_spans (store) <= G_MAXUINT32, NULL);
  g_return_val_if_fail (ps_event_store_get_n_marks (store) <= G_MAXUINT32, NULL);

  return build (store, NULL, ps_event_store_get_n_spans (store), TRUE, cancellable);
}

PsSpanLod *
ps_span_lod_new_for_spans (PsEventStore  *store,
                           const guint64 *spans,
                           gsize          n_spans,
                           GCancellable  *cancellable)
{
  g_autofree guint64 *bits = NULL;
  g_autofree guint32 *selection = NULL;
  guint64 n_store, n_words;
  guint64 n_selected = 0;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  g_return_val_if_fail (spans != NULL || n_spans == 0, NULL);
  n_store = ps_event_store_get_n_spans (store);
  g_return_val_if_fail (n_store <= G_MAXUINT32, NULL);
  n_words = (n_store + 63) / 64;

  /* A bitmap drops duplicates and gives the selection back in store order,
   * in which each track's spans are in begin order, without sorting */
  bits = g_new0 (guint64, MAX (n_words, 1));
  for (gsize i = 0; i < n_spans; i++)
    {
      g_return_val_if_fail (spans[i] < n_store, NULL);
      bits[spans[i] / 64] |= G_GUINT64_CONSTANT (1) << (spans[i] % 64);
    }
  for (guint64 w = 0; w < n_words; w++)
    n_selected += __builtin_popcountll (bits[w]);

  selection = g_new (guint32, MAX (n_selected, 1));
  n_selected = 0;
  for (guint64 w = 0; w < n_words; w++)
    {
      guint64 word = bits[w];

      while (word != 0)
        {
          selection[n_selected++] = (guint32)(w * 64 + __builtin_ctzll (word));
          word &= word - 1;
        }
    }
  g_clear_pointer (&bits, g_free);

  return build (store, selection, n_selected, FALSE, cancellable);
}

PsSpanLod *
ps_span_lod_ref (PsSpanLod *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
ps_span_lod_unref (PsSpanLod *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, ps_span_lod_clear);
}

gsize
ps_span_lod_get_memory_size (PsSpanLod *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->memory_size;
}

gboolean
ps_span_lod_get_extent (PsSpanLod *self,
                        gint64    *begin_ns,
                        gint64    *end_ns)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (begin_ns != NULL)
    *begin_ns = self->has_extent ? self->extent_begin : 0;
  if (end_ns != NULL)
    *end_ns = self->has_extent ? self->extent_end : 0;
  return self->has_extent;
}

guint
ps_span_lod_get_n_depths (PsSpanLod *self,
                          guint32    track)
{
  g_return_val_if_fail (self != NULL, 0);

  if (track >= self->n_tracks)
    return 0;
  return self->track_lanes[track + 1] - self->track_lanes[track];
}

guint64
ps_span_lod_get_n_spans (PsSpanLod *self,
                         guint32    track)
{
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);

  if (track >= self->n_tracks)
    return 0;
  for (guint32 l = self->track_lanes[track]; l < self->track_lanes[track + 1]; l++)
    n += self->lanes[l].n;
  return n;
}

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
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps-span-lod.h"

#define BLOCK_SHIFT       5
#define BLOCK_SIZE        (1u << BLOCK_SHIFT)
#define SUPER_SHIFT       10
#define SUPER_SIZE        (1u << SUPER_SHIFT)
#define CANCEL_INTERVAL   (1u << 16)
/* Runs shorter than this are cheaper to walk than to skip */
#define MIN_SKIP          8
/* Lanes shorter than this are queried from their spans alone */
#define TILE_MIN_SPANS    256
/* Tiles of 2^31 ns (2 s) keep a merged tile's end within 32 bits of its
 * begin: a window of an hour on a screen still has several per column */
#define TILE_MAX_SHIFT    31
/* A level is kept when it has at most a quarter of the tiles of the finer
 * level below it (of the spans for the first), which bounds all levels of
 * a lane to a third of its spans */
#define TILE_REDUCTION    4

#define VALUE_BLOCK_SHIFT 6
#define VALUE_BLOCK_SIZE  (1u << VALUE_BLOCK_SHIFT)
#define VALUE_SUPER_SHIFT 12
#define VALUE_SUPER_SIZE  (1u << VALUE_SUPER_SHIFT)

typedef struct
{
  guint64  first;        /* position of its first span in begins, spans, names */
  guint64  n;
  guint64  prefix_first; /* its n + 1 running sums start here */
  guint64  first_block;
  guint64  first_super;
  guint32  first_level;
  guint32  n_levels;     /* tile levels, finest first */
  gboolean ends_sorted;
} Lane;

/* Consecutive spans of a lane merged ahead of time: those that begin in
 * the same aligned bucket of 2^shift ns (counted from the lane's first
 * begin) and are shorter than the bucket, or a single span. A span at
 * least as long as the bucket is always a tile of its own, so a query at
 * ns_per_pixel >= 2^shift finds every span of a pixel or more alone. */
typedef struct
{
  gint64  begin_ns;
  gint64  total_ns;
  guint32 n_spans;
  guint32 first;         /* lane position of its first span */
  guint32 span;          /* store index of its longest span (the first of equals) */
  guint32 name;
  guint32 end_offset;    /* end_ns - begin_ns, < 2^(shift + 1) */
  guint32 longest_ns;    /* < 2^shift when merged */
} Tile;

typedef struct
{
  guint64 first;         /* its first tile */
  guint64 n;
  guint   shift;
} TileLevel;

struct _PsSpanLod
{
  guint     n_tracks;
  guint32  *track_lanes;        /* first lane of each track; n_tracks + 1 */
  guint     n_lanes;
  Lane     *lanes;

  guint64   n_spans;
  gint64   *begins;
  guint64  *duration_sums;      /* wraps around harmlessly: only differences are used */
  guint32  *spans;
  guint32  *names;

  gint64   *block_max_end;      /* latest end of the lane up to this block */
  gint64   *block_first_begin;
  guint64  *block_sum;          /* the running sum before the block */
  gint64   *block_max_duration;
  guint32  *block_longest;      /* lane position of the block's longest span */
  guint32  *block_longest_span;
  guint32  *block_longest_name;
  gint64   *super_max_duration;
  guint32  *super_longest;

  TileLevel *levels;
  Tile      *tiles;

  guint32  *track_marks;        /* first mark of each track; n_tracks + 1 */
  gint64   *mark_times;
  guint32  *marks;

  gboolean  has_extent;
  gint64    extent_begin;
  gint64    extent_end;
  gsize     memory_size;
};

/* Spans of a lane being sorted when the store did not have them in begin
 * order */
typedef struct
{
  gint64  begin;
  guint64 duration;
  guint32 span;
  guint32 name;
} SortEntry;

typedef struct
{
  gint64  time;
  guint32 mark;
} MarkEntry;

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

static inline guint64
n_blocks_of (guint64 n,
             guint   shift)
{
  return (n + (G_GUINT64_CONSTANT (1) << shift) - 1) >> shift;
}

static inline gint64
lane_duration (const PsSpanLod *self,
               const Lane      *lane,
               guint64          k)
{
  const guint64 *sums = self->duration_sums + lane->prefix_first;

  return (gint64)(sums[k + 1] - sums[k]);
}

static inline gint64
lane_begin (const PsSpanLod *self,
            const Lane      *lane,
            guint64          k)
{
  return self->begins[lane->first + k];
}

static inline gint64
lane_end (const PsSpanLod *self,
          const Lane      *lane,
          guint64          k)
{
  return lane_begin (self, lane, k) + lane_duration (self, lane, k);
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

static inline gint64
tile_end (const Tile *tile)
{
  return tile->n_spans == 1 ? tile->begin_ns + tile->total_ns : tile->begin_ns + (gint64)tile->end_offset;
}

static inline guint64
tile_longest (const Tile *tile)
{
  return tile->n_spans == 1 ? (guint64)tile->total_ns : tile->longest_ns;
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
  self->tiles = g_new (Tile, MAX (n_tiles, 1));

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

  self->begins = g_new (gint64, MAX (n_selected, 1));
  self->duration_sums = g_new (guint64, n_selected + self->n_lanes + 1);
  self->spans = g_new (guint32, MAX (n_selected, 1));
  self->names = g_new (guint32, MAX (n_selected, 1));
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

static const Lane *
get_lane (PsSpanLod *self,
          guint32    track,
          guint      depth)
{
  if (track >= self->n_tracks || depth >= ps_span_lod_get_n_depths (self, track))
    return NULL;
  return &self->lanes[self->track_lanes[track] + depth];
}

/* First position whose begin is > time */
static guint64
upper_bound_begin (const PsSpanLod *self,
                   const Lane      *lane,
                   gint64           time)
{
  const gint64 *begins = self->begins + lane->first;
  guint64 lo = 0, hi = lane->n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (begins[mid] <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* First position in [lo, hi) whose begin is >= time */
static guint64
lower_bound_begin (const PsSpanLod *self,
                   const Lane      *lane,
                   guint64          lo,
                   guint64          hi,
                   gint64           time)
{
  const gint64 *begins = self->begins + lane->first;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (begins[mid] < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* First position whose end is >= time: every span before it ends earlier.
 * Searches the blocks' latest ends, which never decrease even when the
 * ends do. */
static guint64
first_reaching (const PsSpanLod *self,
                const Lane      *lane,
                gint64           time)
{
  const gint64 *max_ends = self->block_max_end + lane->first_block;
  guint64 lo = 0, hi = n_blocks_of (lane->n, BLOCK_SHIFT);
  guint64 k, last;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (max_ends[mid] < time)
        lo = mid + 1;
      else
        hi = mid;
    }

  k = lo << BLOCK_SHIFT;
  last = MIN (lane->n, k + BLOCK_SIZE);
  while (k < last && lane_end (self, lane, k) < time)
    k++;
  return MIN (k, lane->n);
}

static inline gint64
column_of (gint64 time,
           gint64 from_ns,
           double ns_per_pixel)
{
  double column;

  if (time <= from_ns)
    return 0;
  column = (double)(time - from_ns) / ns_per_pixel;
  /* A window far wider than any screen: keep the cast defined */
  return column < 4e18 ? (gint64)column : G_GINT64_CONSTANT (4000000000000000000);
}

/* The first time that lies in a column after column. Searches compare
 * times with it instead of dividing every time they look at. */
static gint64
column_limit (gint64 from_ns,
              double ns_per_pixel,
              gint64 column)
{
  double offset = (double)(column + 1) * ns_per_pixel;
  gint64 limit;

  if (offset >= (double)G_MAXINT64 - (double)MAX (from_ns, 0) - 4.0)
    return G_MAXINT64;
  limit = from_ns + (gint64)offset;
  /* The product rounds; column_of () is the reference */
  while (limit > from_ns && column_of (limit - 1, from_ns, ns_per_pixel) > column)
    limit--;
  while (limit < G_MAXINT64 && column_of (limit, from_ns, ns_per_pixel) <= column)
    limit++;
  return limit;
}

/* First position in [lo, hi) whose time is >= limit. Galloping from lo: a
 * run that ends soon is found in few steps. */
static guint64
gallop_to (const gint64 *times,
           guint64       lo,
           guint64       hi,
           gint64        limit)
{
  guint64 step = 1;

  while (lo < hi)
    {
      guint64 probe = lo + step - 1;

      if (probe >= hi)
        break;
      if (times[probe] < limit)
        {
          lo = probe + 1;
          step *= 2;
        }
      else
        {
          hi = probe;
          break;
        }
    }

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (times[mid] < limit)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* First position in [k, hi) of a span at least min_ns long, skipping the
 * blocks whose longest span is shorter */
static guint64
first_long (const PsSpanLod *self,
            const Lane      *lane,
            guint64          k,
            guint64          hi,
            double           min_ns)
{
  while (k < hi)
    {
      guint64 block = k >> BLOCK_SHIFT;
      guint64 block_end;

      if ((k & (SUPER_SIZE - 1)) == 0 && k + SUPER_SIZE <= hi
          && (double)self->super_max_duration[lane->first_super + (k >> SUPER_SHIFT)] < min_ns)
        {
          k += SUPER_SIZE;
          continue;
        }
      block_end = (block + 1) << BLOCK_SHIFT;
      if ((double)self->block_max_duration[lane->first_block + block] < min_ns)
        {
          k = block_end;
          continue;
        }
      for (block_end = MIN (block_end, hi); k < block_end; k++)
        {
          if ((double)lane_duration (self, lane, k) >= min_ns)
            return k;
        }
    }
  return hi;
}

/* The longest span of [lo, hi), exactly for short runs; for longer ones
 * the longest of the first span and the block champions inside the run
 * (see the header) */
static guint64
longest_in (const PsSpanLod *self,
            const Lane      *lane,
            guint64          lo,
            guint64          hi,
            gint64          *longest_ns)
{
  guint64 best = lo;
  gint64 best_ns = lane_duration (self, lane, lo);
  guint64 k;

  if (hi - lo <= 8)
    {
      for (k = lo + 1; k < hi; k++)
        {
          gint64 duration = lane_duration (self, lane, k);

          if (duration > best_ns)
            {
              best = k;
              best_ns = duration;
            }
        }
      *longest_ns = best_ns;
      return best;
    }

  k = lo & ~(guint64)(BLOCK_SIZE - 1);
  while (k < hi)
    {
      guint64 candidate;
      gint64 duration;

      if ((k & (SUPER_SIZE - 1)) == 0 && k >= lo && k + SUPER_SIZE <= hi)
        {
          guint64 super = lane->first_super + (k >> SUPER_SHIFT);

          candidate = self->super_longest[super];
          duration = self->super_max_duration[super];
          k += SUPER_SIZE;
        }
      else
        {
          guint64 block = lane->first_block + (k >> BLOCK_SHIFT);

          candidate = self->block_longest[block];
          duration = self->block_max_duration[block];
          k += BLOCK_SIZE;
        }
      if (candidate >= lo && candidate < hi && duration > best_ns)
        {
          best = candidate;
          best_ns = duration;
        }
    }
  *longest_ns = best_ns;
  return best;
}

/* What a query has emitted so far and the merged item it is filling */
typedef struct
{
  const PsSpanLod *lod;
  const Lane      *lane;
  GArray          *items;
  gint64           from_ns;
  double           ns_per_pixel;
  guint16          depth;

  gint64           last_long_limit; /* a long span before this shares the last one's column */
  gint64           last_group_column;
  guint            last_group_item;
  gint64           last_group_longest_ns;

  gboolean         pending;
  gint64           column;        /* where the pending item's first span begins */
  gint64           limit_ns;      /* spans beginning before this join it */
  gint64           snap_limit_ns; /* a block beginning before this may join whole;
                                   * G_MININT64 until needed */
  PsSpanLodItem    item;
  guint64          longest;       /* lane position, or LONGEST_IN_ITEM */
  gint64           longest_ns;
} Reducer;

/* The pending item's span and name already are its longest span's */
#define LONGEST_IN_ITEM G_MAXUINT64

static void
reducer_append_span (Reducer *reducer,
                     guint64  k)
{
  const PsSpanLod *lod = reducer->lod;
  const Lane *lane = reducer->lane;
  PsSpanLodItem item;

  item.begin_ns = lane_begin (lod, lane, k);
  item.end_ns = lane_end (lod, lane, k);
  item.span = lod->spans[lane->first + k];
  item.n_spans = 1;
  item.total_ns = lane_duration (lod, lane, k);
  item.name = lod->names[lane->first + k];
  item.depth = reducer->depth;
  item.flags = 0;
  g_array_append_val (reducer->items, item);
}

static void
reducer_flush (Reducer *reducer)
{
  const PsSpanLod *lod = reducer->lod;
  const Lane *lane = reducer->lane;
  PsSpanLodItem *item = &reducer->item;

  if (!reducer->pending)
    return;
  reducer->pending = FALSE;

  if (reducer->longest != LONGEST_IN_ITEM)
    {
      guint64 block = lane->first_block + (reducer->longest >> BLOCK_SHIFT);

      /* Usually a block's longest: no need to reach into the per-span arrays */
      if (lod->block_longest[block] == reducer->longest)
        {
          item->span = lod->block_longest_span[block];
          item->name = lod->block_longest_name[block];
        }
      else
        {
          item->span = lod->spans[lane->first + reducer->longest];
          item->name = lod->names[lane->first + reducer->longest];
        }
    }
  item->flags = item->n_spans > 1 ? PS_SPAN_LOD_ITEM_MERGED : 0;

  /* Only where spans overlap (the clock went back) can a long span cut
   * two merged items out of one column; the second joins the first, which
   * keeps a single merged item per column */
  if (reducer->last_group_column >= 0 && reducer->column <= reducer->last_group_column)
    {
      PsSpanLodItem *previous = &g_array_index (reducer->items, PsSpanLodItem, reducer->last_group_item);

      previous->n_spans += item->n_spans;
      previous->total_ns += item->total_ns;
      previous->end_ns = MAX (previous->end_ns, item->end_ns);
      previous->flags |= PS_SPAN_LOD_ITEM_MERGED;
      if (reducer->longest_ns > reducer->last_group_longest_ns)
        {
          previous->span = item->span;
          previous->name = item->name;
          reducer->last_group_longest_ns = reducer->longest_ns;
        }
      return;
    }

  g_array_append_val (reducer->items, *item);
  reducer->last_group_item = reducer->items->len - 1;
  reducer->last_group_column = reducer->column;
  reducer->last_group_longest_ns = reducer->longest_ns;
}

/* Opens a merged item whose first span begins at begin */
static void
reducer_start (Reducer *reducer,
               gint64   begin)
{
  gint64 column = column_of (begin, reducer->from_ns, reducer->ns_per_pixel);

  reducer->pending = TRUE;
  reducer->column = column;
  reducer->limit_ns = column_limit (reducer->from_ns, reducer->ns_per_pixel, column + 1);
  /* Only runs of spans need it; see run_end_of () */
  reducer->snap_limit_ns = G_MININT64;
  reducer->item.begin_ns = begin;
  reducer->item.depth = reducer->depth;
}

static void
reducer_add_span (Reducer *reducer,
                  guint64  k)
{
  const PsSpanLod *lod = reducer->lod;
  const Lane *lane = reducer->lane;
  gint64 begin = lane_begin (lod, lane, k);
  gint64 duration = lane_duration (lod, lane, k);

  /* A span of a pixel or more is drawn alone, unless another one already
   * begins in its column (one that began before the window and ends in its
   * first column, or overlapping spans): merging it keeps the item count
   * bounded */
  if ((double)duration >= reducer->ns_per_pixel && begin >= reducer->last_long_limit)
    {
      reducer_flush (reducer);
      reducer_append_span (reducer, k);
      reducer->last_long_limit = column_limit (reducer->from_ns, reducer->ns_per_pixel,
                                               column_of (begin, reducer->from_ns, reducer->ns_per_pixel));
      return;
    }

  if (reducer->pending && begin < reducer->limit_ns)
    {
      PsSpanLodItem *item = &reducer->item;

      item->end_ns = MAX (item->end_ns, begin + duration);
      item->n_spans++;
      item->total_ns += duration;
      if (duration > reducer->longest_ns)
        {
          reducer->longest = k;
          reducer->longest_ns = duration;
        }
      return;
    }

  reducer_flush (reducer);
  reducer_start (reducer, begin);
  reducer->item.end_ns = begin + duration;
  reducer->item.n_spans = 1;
  reducer->item.total_ns = duration;
  reducer->longest = k;
  reducer->longest_ns = duration;
}

/* Adds a tile: a span of its own as reducer_add_span() does; a merged one,
 * whose spans are all narrower than a pixel, like a narrow span */
static inline void
reducer_add_tile (Reducer    *reducer,
                  const Tile *tile)
{
  gint64 begin = tile->begin_ns;
  gint64 longest_ns = (gint64)tile_longest (tile);
  PsSpanLodItem *item = &reducer->item;

  if (tile->n_spans == 1 && (double)tile->total_ns >= reducer->ns_per_pixel
      && begin >= reducer->last_long_limit)
    {
      PsSpanLodItem single;

      reducer_flush (reducer);
      single.begin_ns = begin;
      single.end_ns = begin + tile->total_ns;
      single.span = tile->span;
      single.n_spans = 1;
      single.total_ns = tile->total_ns;
      single.name = tile->name;
      single.depth = reducer->depth;
      single.flags = 0;
      g_array_append_val (reducer->items, single);
      reducer->last_long_limit = column_limit (reducer->from_ns, reducer->ns_per_pixel,
                                               column_of (begin, reducer->from_ns, reducer->ns_per_pixel));
      return;
    }

  if (reducer->pending && begin < reducer->limit_ns)
    {
      item->end_ns = MAX (item->end_ns, tile_end (tile));
      item->n_spans += tile->n_spans;
      item->total_ns += tile->total_ns;
      if (longest_ns > reducer->longest_ns)
        {
          reducer->longest = LONGEST_IN_ITEM;
          reducer->longest_ns = longest_ns;
          item->span = tile->span;
          item->name = tile->name;
        }
      return;
    }

  reducer_flush (reducer);
  reducer_start (reducer, begin);
  item->end_ns = tile_end (tile);
  item->n_spans = tile->n_spans;
  item->total_ns = tile->total_ns;
  item->span = tile->span;
  item->name = tile->name;
  reducer->longest = LONGEST_IN_ITEM;
  reducer->longest_ns = longest_ns;
}

/* Adds [lo, hi), narrow spans that begin in the pending item's columns,
 * without reading them one by one */
static void
reducer_add_run (Reducer *reducer,
                 guint64  lo,
                 guint64  hi)
{
  const PsSpanLod *lod = reducer->lod;
  const Lane *lane = reducer->lane;
  const guint64 *sums = lod->duration_sums + lane->prefix_first;
  gint64 longest_ns;
  guint64 longest = longest_in (lod, lane, lo, hi, &longest_ns);
  guint64 hi_block = hi >> BLOCK_SHIFT;
  gboolean hi_on_block = (hi & (BLOCK_SIZE - 1)) == 0 && hi_block < n_blocks_of (lane->n, BLOCK_SHIFT);
  PsSpanLodItem *item = &reducer->item;
  guint64 sum_hi = hi_on_block ? lod->block_sum[lane->first_block + hi_block] : sums[hi];

  item->n_spans += hi - lo;
  item->total_ns += (gint64)(sum_hi - sums[lo]);
  /* With sorted ends the latest end so far is the last span's */
  if (lane->ends_sorted && (hi & (BLOCK_SIZE - 1)) == 0)
    item->end_ns = MAX (item->end_ns, lod->block_max_end[lane->first_block + hi_block - 1]);
  else
    item->end_ns = MAX (item->end_ns, lane_end (lod, lane, hi - 1));
  if (longest_ns > reducer->longest_ns)
    {
      reducer->longest = longest;
      reducer->longest_ns = longest_ns;
    }
}

/* Where the run of spans that join the pending item ends, from k: the
 * first span in a later column than the item's two, or the end of a block
 * that lies within the column after them. Searches the blocks' first
 * begins and reads the spans of one block at most. */
static guint64
run_end_of (const PsSpanLod *self,
            const Lane      *lane,
            Reducer         *reducer,
            guint64          k,
            guint64          hi)
{
  const gint64 *block_begins = self->block_first_begin + lane->first_block;
  const gint64 *begins = self->begins + lane->first;
  guint64 first_block = (k >> BLOCK_SHIFT) + 1;
  guint64 end_block = n_blocks_of (hi, BLOCK_SHIFT);
  guint64 block, lo;

  if (first_block >= end_block)
    return gallop_to (begins, k, hi, reducer->limit_ns);

  /* The run ends in the block before the first one to begin too late */
  block = gallop_to (block_begins, first_block, end_block, reducer->limit_ns);
  lo = MAX ((block - 1) << BLOCK_SHIFT, k);
  if (block < end_block && reducer->snap_limit_ns == G_MININT64)
    reducer->snap_limit_ns = column_limit (reducer->from_ns, reducer->ns_per_pixel, reducer->column + 2);
  if (block < end_block && block_begins[block] < reducer->snap_limit_ns)
    return block << BLOCK_SHIFT;
  return gallop_to (begins, lo, MIN (block << BLOCK_SHIFT, hi), reducer->limit_ns);
}

/* Adds the spans of [k, hi), skipping over runs that join the pending
 * item */
static void
reducer_add_spans (Reducer *reducer,
                   guint64  k,
                   guint64  hi)
{
  const PsSpanLod *lod = reducer->lod;
  const Lane *lane = reducer->lane;

  while (k < hi)
    {
      guint64 run_end, long_span;

      reducer_add_span (reducer, k++);
      if (!reducer->pending || k >= hi)
        continue;

      /* The spans that begin in the pending item's two columns join it,
       * up to the first one long enough to be drawn alone */
      run_end = run_end_of (lod, lane, reducer, k, hi);
      if (run_end - k < MIN_SKIP)
        continue;
      long_span = first_long (lod, lane, k, run_end, reducer->ns_per_pixel);
      if (long_span > k)
        {
          reducer_add_run (reducer, k, long_span);
          k = long_span;
        }
    }
}

/* The coarsest tile level of the lane whose buckets are no wider than a
 * column, or NULL */
static const TileLevel *
tile_level_for (const PsSpanLod *self,
                const Lane      *lane,
                double           ns_per_pixel)
{
  for (guint i = lane->n_levels; i-- > 0;)
    {
      const TileLevel *level = &self->levels[lane->first_level + i];

      if ((double)(G_GUINT64_CONSTANT (1) << level->shift) <= ns_per_pixel)
        return level;
    }
  return NULL;
}

/* The tiles of level all of whose spans begin in the window, [*first,
 * *end): from the first to begin at or after from_ns to the last to end
 * before position hi, the first span after the window. FALSE if none. */
static gboolean
tiles_inside (const PsSpanLod *self,
              const TileLevel *level,
              gint64           from_ns,
              guint64          hi,
              guint64         *first,
              guint64         *end)
{
  const Tile *tiles = self->tiles + level->first;
  guint64 lo = 0, up = level->n;

  while (lo < up)
    {
      guint64 mid = lo + (up - lo) / 2;

      if (tiles[mid].begin_ns < from_ns)
        lo = mid + 1;
      else
        up = mid;
    }
  *first = lo;

  up = level->n;
  while (lo < up)
    {
      guint64 mid = lo + (up - lo) / 2;

      if (tiles[mid].first < hi)
        lo = mid + 1;
      else
        up = mid;
    }
  if (lo > *first && (guint64)tiles[lo - 1].first + tiles[lo - 1].n_spans > hi)
    lo--;
  *end = lo;
  return *end > *first;
}

guint
ps_span_lod_query (PsSpanLod *self,
                   guint32    track,
                   guint      depth,
                   gint64     from_ns,
                   gint64     to_ns,
                   double     ns_per_pixel,
                   GArray    *items)
{
  const Lane *lane;
  const TileLevel *level;
  guint start_len;
  Reducer reducer = { 0 };
  guint64 lo, hi, inside, k, first_tile, end_tile;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (items != NULL, 0);
  g_return_val_if_fail (g_array_get_element_size (items) == sizeof (PsSpanLodItem), 0);
  g_return_val_if_fail (ns_per_pixel > 0, 0);

  lane = get_lane (self, track, depth);
  if (lane == NULL || lane->n == 0 || to_ns < from_ns)
    return 0;

  hi = upper_bound_begin (self, lane, to_ns);
  lo = first_reaching (self, lane, from_ns);
  if (lo >= hi)
    return 0;

  start_len = items->len;
  reducer.lod = self;
  reducer.lane = lane;
  reducer.items = items;
  reducer.from_ns = from_ns;
  reducer.ns_per_pixel = ns_per_pixel;
  reducer.depth = (guint16)depth;
  reducer.last_long_limit = G_MININT64;
  reducer.last_group_column = -1;

  /* Spans that began before the window: with sorted ends all of them reach
   * into it; otherwise some may not, and each is checked */
  k = lo;
  if (!lane->ends_sorted)
    {
      inside = lower_bound_begin (self, lane, lo, hi, from_ns);
      for (; k < inside; k++)
        {
          if (lane_end (self, lane, k) >= from_ns)
            reducer_add_span (&reducer, k);
        }
    }

  /* Tiles no wider than a column stand for the spans that begin in the
   * window, but for those of the tiles its edges cut through */
  level = tile_level_for (self, lane, ns_per_pixel);
  if (level != NULL && tiles_inside (self, level, from_ns, hi, &first_tile, &end_tile))
    {
      const Tile *tiles = self->tiles + level->first;

      reducer_add_spans (&reducer, k, tiles[first_tile].first);
      for (guint64 t = first_tile; t < end_tile; t++)
        reducer_add_tile (&reducer, &tiles[t]);
      k = (guint64)tiles[end_tile - 1].first + tiles[end_tile - 1].n_spans;
    }
  reducer_add_spans (&reducer, k, hi);
  reducer_flush (&reducer);

  return items->len - start_len;
}

guint64
ps_span_lod_find (PsSpanLod *self,
                  guint32    track,
                  guint      depth,
                  gint64     time_ns,
                  gint64     slop_ns)
{
  const Lane *lane;
  guint64 after, before = PS_SPAN_LOD_NO_SPAN;
  gint64 before_distance = G_MAXINT64, after_distance = G_MAXINT64;

  g_return_val_if_fail (self != NULL, PS_SPAN_LOD_NO_SPAN);

  lane = get_lane (self, track, depth);
  if (lane == NULL || lane->n == 0)
    return PS_SPAN_LOD_NO_SPAN;
  slop_ns = MAX (slop_ns, 0);

  /* Spans at or after "after" begin later than time_ns */
  after = upper_bound_begin (self, lane, time_ns);
  if (after > 0)
    {
      if (lane->ends_sorted)
        {
          /* The last span to begin also ends last: no other can be nearer */
          before = after - 1;
          before_distance = MAX (time_ns - lane_end (self, lane, before), 0);
        }
      else
        {
          /* Overlapping spans: look back over those that end late enough
           * to matter, the covering one that began last first */
          gint64 reach = time_ns >= G_MININT64 + slop_ns ? time_ns - slop_ns : G_MININT64;
          guint64 lo = first_reaching (self, lane, reach);

          for (guint64 k = after; k > lo; k--)
            {
              gint64 distance = MAX (time_ns - lane_end (self, lane, k - 1), 0);

              if (distance < before_distance)
                {
                  before = k - 1;
                  before_distance = distance;
                  if (distance == 0)
                    break;
                }
            }
        }
    }
  if (before_distance == 0)
    return self->spans[lane->first + before];

  if (after < lane->n)
    after_distance = lane_begin (self, lane, after) - time_ns;

  if (before != PS_SPAN_LOD_NO_SPAN && before_distance <= slop_ns && before_distance <= after_distance)
    return self->spans[lane->first + before];
  if (after < lane->n && after_distance <= slop_ns)
    return self->spans[lane->first + after];
  return PS_SPAN_LOD_NO_SPAN;
}

guint64
ps_span_lod_step (PsSpanLod *self,
                  guint32    track,
                  guint      depth,
                  guint64    span,
                  gint64     begin_ns,
                  int        direction)
{
  const Lane *lane;
  guint64 position;

  g_return_val_if_fail (self != NULL, PS_SPAN_LOD_NO_SPAN);

  lane = get_lane (self, track, depth);
  if (lane == NULL || lane->n == 0 || direction == 0)
    return PS_SPAN_LOD_NO_SPAN;

  /* The span among those that begin at begin_ns: they sit just before
   * the first that begins later */
  position = upper_bound_begin (self, lane, begin_ns);
  while (position > 0 && lane_begin (self, lane, position - 1) == begin_ns
         && self->spans[lane->first + position - 1] != span)
    position--;
  if (position == 0 || self->spans[lane->first + position - 1] != span)
    return PS_SPAN_LOD_NO_SPAN;
  position--;

  if (direction < 0)
    return position > 0 ? self->spans[lane->first + position - 1] : PS_SPAN_LOD_NO_SPAN;
  return position + 1 < lane->n ? self->spans[lane->first + position + 1] : PS_SPAN_LOD_NO_SPAN;
}

guint64
ps_span_lod_get_n_marks (PsSpanLod *self,
                         guint32    track)
{
  g_return_val_if_fail (self != NULL, 0);

  if (track >= self->n_tracks)
    return 0;
  return self->track_marks[track + 1] - self->track_marks[track];
}

/* First mark position in [lo, hi) at or after time, or strictly after it */
static guint64
mark_bound (const PsSpanLod *self,
            guint64          lo,
            guint64          hi,
            gint64           time,
            gboolean         strictly_after)
{
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      gint64 t = self->mark_times[mid];

      if (t < time || (strictly_after && t == time))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
ps_span_lod_query_marks (PsSpanLod *self,
                         guint32    track,
                         gint64     from_ns,
                         gint64     to_ns,
                         double     ns_per_pixel,
                         GArray    *items)
{
  guint64 first, last, k, hi;
  guint n_appended = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (items != NULL, 0);
  g_return_val_if_fail (g_array_get_element_size (items) == sizeof (PsMarkLodItem), 0);
  g_return_val_if_fail (ns_per_pixel > 0, 0);

  if (track >= self->n_tracks || to_ns < from_ns)
    return 0;
  first = self->track_marks[track];
  last = self->track_marks[track + 1];

  k = mark_bound (self, first, last, from_ns, FALSE);
  hi = mark_bound (self, k, last, to_ns, TRUE);
  while (k < hi)
    {
      gint64 limit = column_limit (from_ns, ns_per_pixel, column_of (self->mark_times[k], from_ns, ns_per_pixel));
      guint64 column_end = gallop_to (self->mark_times, k + 1, hi, limit);
      PsMarkLodItem item;

      item.time_ns = self->mark_times[k];
      item.mark = self->marks[k];
      item.n_marks = column_end - k;
      g_array_append_val (items, item);
      n_appended++;
      k = column_end;
    }

  return n_appended;
}

guint64
ps_span_lod_find_mark (PsSpanLod *self,
                       guint32    track,
                       gint64     time_ns,
                       gint64     slop_ns)
{
  guint64 first, last, after;
  guint64 best = PS_SPAN_LOD_NO_SPAN;
  guint64 best_distance = G_MAXUINT64;

  g_return_val_if_fail (self != NULL, PS_SPAN_LOD_NO_SPAN);

  if (track >= self->n_tracks || slop_ns < 0)
    return PS_SPAN_LOD_NO_SPAN;
  first = self->track_marks[track];
  last = self->track_marks[track + 1];

  after = mark_bound (self, first, last, time_ns, FALSE);
  /* The one before wins a tie: it is the one drawn under the pointer first */
  if (after > first)
    {
      best = after - 1;
      best_distance = (guint64)time_ns - (guint64)self->mark_times[best];
    }
  if (after < last && (guint64)self->mark_times[after] - (guint64)time_ns < best_distance)
    {
      best = after;
      best_distance = (guint64)self->mark_times[after] - (guint64)time_ns;
    }

  if (best == PS_SPAN_LOD_NO_SPAN || best_distance > (guint64)slop_ns)
    return PS_SPAN_LOD_NO_SPAN;
  return self->marks[best];
}

/* Value series ------------------------------------------------------------ */

struct _PsValueLod
{
  gsize    n_points;
  gint64  *x;
  double  *values;
  /* Minimum and maximum per block of 64 and of 4096 points, NaNs left out */
  double  *block_min;
  double  *block_max;
  double  *super_min;
  double  *super_max;
  double   value_min;
  double   value_max;
};

/* Like fmin () and fmax (): NaN only when both are */
static inline double
min_skipping_nan (double a,
                  double b)
{
  return b < a || isnan (a) ? b : a;
}

static inline double
max_skipping_nan (double a,
                  double b)
{
  return b > a || isnan (a) ? b : a;
}

static void
ps_value_lod_clear (gpointer data)
{
  PsValueLod *self = data;

  g_clear_pointer (&self->x, g_free);
  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->block_min, g_free);
  g_clear_pointer (&self->block_max, g_free);
  g_clear_pointer (&self->super_min, g_free);
  g_clear_pointer (&self->super_max, g_free);
}

PsValueLod *
ps_value_lod_new (const gint64 *x,
                  const double *values,
                  gsize         n_points)
{
  g_return_val_if_fail (n_points == 0 || (x != NULL && values != NULL), NULL);

  /* ps_value_lod_new_take () checks the order */
  return ps_value_lod_new_take (g_memdup2 (x, n_points * sizeof (gint64)),
                                g_memdup2 (values, n_points * sizeof (double)), n_points);
}

PsValueLod *
ps_value_lod_new_take (gint64 *x,
                       double *values,
                       gsize   n_points)
{
  PsValueLod *self;
  gsize n_blocks = n_blocks_of (n_points, VALUE_BLOCK_SHIFT);
  gsize n_supers = n_blocks_of (n_points, VALUE_SUPER_SHIFT);

  g_return_val_if_fail (n_points == 0 || (x != NULL && values != NULL), NULL);
  for (gsize i = 1; i < n_points; i++)
    if (G_UNLIKELY (x[i - 1] > x[i]))
      {
        g_free (x);
        g_free (values);
        g_return_val_if_reached (NULL);
      }

  self = g_atomic_rc_box_new0 (PsValueLod);
  self->n_points = n_points;
  self->x = x;
  self->values = values;
  self->block_min = g_new (double, MAX (n_blocks, 1));
  self->block_max = g_new (double, MAX (n_blocks, 1));
  self->super_min = g_new (double, MAX (n_supers, 1));
  self->super_max = g_new (double, MAX (n_supers, 1));
  for (gsize b = 0; b < n_blocks; b++)
    self->block_min[b] = self->block_max[b] = NAN;
  for (gsize s = 0; s < n_supers; s++)
    self->super_min[s] = self->super_max[s] = NAN;
  self->value_min = self->value_max = NAN;

  for (gsize i = 0; i < n_points; i++)
    {
      gsize b = i >> VALUE_BLOCK_SHIFT;
      gsize s = i >> VALUE_SUPER_SHIFT;

      self->block_min[b] = min_skipping_nan (self->block_min[b], values[i]);
      self->block_max[b] = max_skipping_nan (self->block_max[b], values[i]);
      self->super_min[s] = min_skipping_nan (self->super_min[s], values[i]);
      self->super_max[s] = max_skipping_nan (self->super_max[s], values[i]);
      self->value_min = min_skipping_nan (self->value_min, values[i]);
      self->value_max = max_skipping_nan (self->value_max, values[i]);
    }

  return self;
}

PsValueLod *
ps_value_lod_ref (PsValueLod *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
ps_value_lod_unref (PsValueLod *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, ps_value_lod_clear);
}

gsize
ps_value_lod_get_n_points (PsValueLod *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_points;
}

gboolean
ps_value_lod_get_range (PsValueLod *self,
                        gint64     *x_min,
                        gint64     *x_max,
                        double     *value_min,
                        double     *value_max)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (x_min != NULL)
    *x_min = self->n_points > 0 ? self->x[0] : 0;
  if (x_max != NULL)
    *x_max = self->n_points > 0 ? self->x[self->n_points - 1] : 0;
  if (value_min != NULL)
    *value_min = self->value_min;
  if (value_max != NULL)
    *value_max = self->value_max;
  return self->n_points > 0;
}

/* First point in [lo, hi) with x >= value (strictly_after: x > value) */
static gsize
value_bound (const PsValueLod *self,
             gsize             lo,
             gsize             hi,
             gint64            value,
             gboolean          strictly_after)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      gint64 x = self->x[mid];

      if (x < value || (strictly_after && x == value))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Minimum and maximum of [lo, hi) from the largest aligned blocks that fit */
static void
value_min_max (const PsValueLod *self,
               gsize             lo,
               gsize             hi,
               double           *min,
               double           *max)
{
  double low = NAN, high = NAN;
  gsize k = lo;

  while (k < hi)
    {
      if ((k & (VALUE_SUPER_SIZE - 1)) == 0 && k + VALUE_SUPER_SIZE <= hi)
        {
          low = min_skipping_nan (low, self->super_min[k >> VALUE_SUPER_SHIFT]);
          high = max_skipping_nan (high, self->super_max[k >> VALUE_SUPER_SHIFT]);
          k += VALUE_SUPER_SIZE;
        }
      else if ((k & (VALUE_BLOCK_SIZE - 1)) == 0 && k + VALUE_BLOCK_SIZE <= hi)
        {
          low = min_skipping_nan (low, self->block_min[k >> VALUE_BLOCK_SHIFT]);
          high = max_skipping_nan (high, self->block_max[k >> VALUE_BLOCK_SHIFT]);
          k += VALUE_BLOCK_SIZE;
        }
      else
        {
          low = min_skipping_nan (low, self->values[k]);
          high = max_skipping_nan (high, self->values[k]);
          k++;
        }
    }

  *min = low;
  *max = high;
}

static void
append_value_item (const PsValueLod *self,
                   gsize             lo,
                   gsize             hi,
                   GArray           *items)
{
  PsValueLodItem item;

  item.x_begin = self->x[lo];
  item.x_end = self->x[hi - 1];
  value_min_max (self, lo, hi, &item.min, &item.max);
  item.first = self->values[lo];
  item.last = self->values[hi - 1];
  item.n_points = hi - lo;
  item.index = lo;
  g_array_append_val (items, item);
}

guint
ps_value_lod_query (PsValueLod *self,
                    gint64      from,
                    gint64      to,
                    double      x_per_pixel,
                    GArray     *items)
{
  guint start_len;
  gsize k, hi;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (items != NULL, 0);
  g_return_val_if_fail (g_array_get_element_size (items) == sizeof (PsValueLodItem), 0);
  g_return_val_if_fail (x_per_pixel > 0, 0);

  if (self->n_points == 0 || to < from)
    return 0;

  start_len = items->len;
  k = value_bound (self, 0, self->n_points, from, FALSE);
  hi = value_bound (self, k, self->n_points, to, TRUE);

  if (k > 0)
    append_value_item (self, k - 1, k, items);
  while (k < hi)
    {
      gint64 limit = column_limit (from, x_per_pixel, column_of (self->x[k], from, x_per_pixel));
      gsize column_end = gallop_to (self->x, k + 1, hi, limit);

      append_value_item (self, k, column_end, items);
      k = column_end;
    }
  if (hi < self->n_points)
    append_value_item (self, hi, hi + 1, items);

  return items->len - start_len;
}

gboolean
ps_value_lod_get_point (PsValueLod *self,
                        gsize       index,
                        gint64     *x,
                        double     *value)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (index >= self->n_points)
    return FALSE;
  if (x != NULL)
    *x = self->x[index];
  if (value != NULL)
    *value = self->values[index];
  return TRUE;
}

gsize
ps_value_lod_find (PsValueLod *self,
                   gint64      x)
{
  gsize after;

  g_return_val_if_fail (self != NULL, G_MAXSIZE);

  if (self->n_points == 0)
    return G_MAXSIZE;

  after = value_bound (self, 0, self->n_points, x, FALSE);
  if (after == self->n_points)
    return value_bound (self, 0, self->n_points, self->x[self->n_points - 1], FALSE);
  if (after > 0 && (guint64)x - (guint64)self->x[after - 1] <= (guint64)self->x[after] - (guint64)x)
    return value_bound (self, 0, after, self->x[after - 1], FALSE);
  return after;
}

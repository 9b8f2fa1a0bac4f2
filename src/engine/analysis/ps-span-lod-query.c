/* ps-span-lod-query.c — the queries of a span level of detail
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A query at ns_per_pixel walks each lane of the window: the widest tiles
 * no wider than a column for the spans that begin inside it, the blocks'
 * longest spans where a block lies within the next column, and the spans
 * at the window's edges one by one, merged into items per column (see
 * ps-span-lod.c for the layout).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps-span-lod-private.h"

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


/* The first time that lies in a column after column. Searches compare
 * times with it instead of dividing every time they look at. */
gint64
span_lod_column_limit (gint64 from_ns,
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
guint64
span_lod_gallop_to (const gint64 *times,
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
  reducer->limit_ns = span_lod_column_limit (reducer->from_ns, reducer->ns_per_pixel, column + 1);
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
      reducer->last_long_limit = span_lod_column_limit (reducer->from_ns, reducer->ns_per_pixel,
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
      reducer->last_long_limit = span_lod_column_limit (reducer->from_ns, reducer->ns_per_pixel,
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
    return span_lod_gallop_to (begins, k, hi, reducer->limit_ns);

  /* The run ends in the block before the first one to begin too late */
  block = span_lod_gallop_to (block_begins, first_block, end_block, reducer->limit_ns);
  lo = MAX ((block - 1) << BLOCK_SHIFT, k);
  if (block < end_block && reducer->snap_limit_ns == G_MININT64)
    reducer->snap_limit_ns = span_lod_column_limit (reducer->from_ns, reducer->ns_per_pixel, reducer->column + 2);
  if (block < end_block && block_begins[block] < reducer->snap_limit_ns)
    return block << BLOCK_SHIFT;
  return span_lod_gallop_to (begins, lo, MIN (block << BLOCK_SHIFT, hi), reducer->limit_ns);
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
      gint64 limit = span_lod_column_limit (from_ns, ns_per_pixel, column_of (self->mark_times[k], from_ns, ns_per_pixel));
      guint64 column_end = span_lod_gallop_to (self->mark_times, k + 1, hi, limit);
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

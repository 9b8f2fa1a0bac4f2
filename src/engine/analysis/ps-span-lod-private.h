/* ps-span-lod-private.h — what building and querying a span level of
 * detail share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ps-span-lod.h"

G_BEGIN_DECLS

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


/* Defined in one file, used in the other */

gint64
span_lod_column_limit (gint64 from_ns,
                       double ns_per_pixel,
                       gint64 column);

guint64
span_lod_gallop_to (const gint64 *times,
                    guint64       lo,
                    guint64       hi,
                    gint64        limit);

/* Inline for the hot paths of both files */

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

G_END_DECLS

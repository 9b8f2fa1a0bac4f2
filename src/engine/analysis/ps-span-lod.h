/* ps-span-lod.h — level of detail for drawing spans, marks and values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A timeline must draw a run of ten million spans at any zoom in a frame.
 * PsSpanLod indexes the spans of a store once (per track and depth, in
 * begin order) so that a window query finds the visible spans by binary
 * search and merges those narrower than a pixel into at most one item per
 * pixel column. Merged items still account for every span they stand for:
 * their span counts and total durations add up to the spans in the window.
 *
 * A span that ends before it begins (the clock went back inside it) is
 * indexed as a span of zero duration at its begin, here and in the sums.
 *
 * The index is read-only once built and may be queried from any thread.
 * It does not touch the store after ps_span_lod_new() returns.
 *
 * PsValueLod does the same for a series of (x, value) points, e.g. counter
 * readings over time or CE measurement durations over their sequence
 * number: a query returns a min/max envelope with at most one item per
 * pixel column.
 */
#pragma once

#include <glib.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

#define PS_SPAN_LOD_NO_SPAN G_MAXUINT64

typedef enum
{
  PS_SPAN_LOD_ITEM_MERGED = 1 << 0, /* stands for more than one span */
} PsSpanLodItemFlags;

/* One thing to draw on a track at one depth. A single span is drawn from
 * begin_ns to end_ns; a merged item covers the pixel columns its spans
 * touch, from the first begin to the end of the last one (its spans are
 * narrower than a pixel, so an earlier one ends less than a pixel later). */
typedef struct
{
  gint64  begin_ns;
  gint64  end_ns;
  guint64 span;      /* the span; for a merged item the longest one, or a
                      * long one: see ps_span_lod_query() */
  guint64 n_spans;   /* how many spans it stands for */
  gint64  total_ns;  /* the sum of their durations */
  guint32 name;      /* the span's name string id; for a merged item, the
                      * name of the longest span */
  guint16 depth;
  guint16 flags;     /* PsSpanLodItemFlags */
} PsSpanLodItem;

typedef struct _PsSpanLod PsSpanLod;

/* Indexes every span of the store. Returns NULL only when cancelled. */
PsSpanLod  *ps_span_lod_new            (PsEventStore  *store,
                                        GCancellable  *cancellable);
/* Indexes only the given spans (indexes into the store, any order,
 * duplicates ignored), e.g. the calls of a function or the spans of a
 * histogram selection, to draw them highlighted over the others. Marks are
 * not indexed. */
PsSpanLod  *ps_span_lod_new_for_spans  (PsEventStore  *store,
                                        const guint64 *spans,
                                        gsize          n_spans,
                                        GCancellable  *cancellable);
PsSpanLod  *ps_span_lod_ref            (PsSpanLod     *self);
void        ps_span_lod_unref          (PsSpanLod     *self);

/* Approximate heap bytes held by the index */
gsize       ps_span_lod_get_memory_size (PsSpanLod    *self);

/* The run's first begin and last end over all spans; FALSE if none */
gboolean    ps_span_lod_get_extent     (PsSpanLod     *self,
                                        gint64        *begin_ns,
                                        gint64        *end_ns);
/* Depths used on a track: 0 for a track without spans, else max depth + 1 */
guint       ps_span_lod_get_n_depths   (PsSpanLod     *self,
                                        guint32        track);
guint64     ps_span_lod_get_n_spans    (PsSpanLod     *self,
                                        guint32        track);

/* Appends to items (an array of PsSpanLodItem) what to draw of the spans on
 * track at depth that intersect [from_ns, to_ns], in begin order, at
 * ns_per_pixel (> 0) nanoseconds per pixel column: at most
 * 2 * ((to_ns - from_ns) / ns_per_pixel) + 2 items. Returns how many were
 * appended. Spans of zero duration count as intersecting when begin_ns lies
 * in the window.
 *
 * A span of at least ns_per_pixel is an item of its own (unless another
 * one already began in its pixel column). Spans narrower than that which
 * begin in the same or the next pixel column are merged; a merged item may
 * go on to the end of its block of 32 spans when that block lies within the
 * column after those two. Zoomed out, the spans are merged ahead of time
 * into tiles: those of a lane that begin in one aligned bucket of 2^k ns
 * (k ≤ 31, a few per lane) and are shorter than it. A query uses the
 * widest tiles no wider than ns_per_pixel for the spans inside the window
 * and takes a tile whole: a merged item may go on to the end of a tile
 * that begins in its two columns.
 * The representative span of a merged item is exact for up to 8 spans;
 * for more it is the longest of the first span and the spans that are the
 * longest of their aligned block of 32 (or 1024) or of their tile inside
 * the item, so that a query never reads every span of a dense window. */
guint       ps_span_lod_query          (PsSpanLod     *self,
                                        guint32        track,
                                        guint          depth,
                                        gint64         from_ns,
                                        gint64         to_ns,
                                        double         ns_per_pixel,
                                        GArray        *items);

/* The span on track at depth that covers time_ns (the innermost is the one
 * at the greatest depth; callers go from the deepest up). slop_ns widens a
 * span that is too narrow to hit: the nearest span within slop_ns of
 * time_ns is returned when none covers it. PS_SPAN_LOD_NO_SPAN if none. */
guint64     ps_span_lod_find           (PsSpanLod     *self,
                                        guint32        track,
                                        guint          depth,
                                        gint64         time_ns,
                                        gint64         slop_ns);

/* The span before (direction < 0) or after (> 0) span on its track and
 * depth, in begin order; span begins at begin_ns. PS_SPAN_LOD_NO_SPAN at
 * either end, or when span is not indexed there. */
guint64     ps_span_lod_step           (PsSpanLod     *self,
                                        guint32        track,
                                        guint          depth,
                                        guint64        span,
                                        gint64         begin_ns,
                                        int            direction);

/* Marks: per track, in time order */
typedef struct
{
  gint64  time_ns;
  guint64 mark;      /* the mark (the first one for a merged item) */
  guint64 n_marks;   /* how many marks fall in this pixel column */
} PsMarkLodItem;

guint64     ps_span_lod_get_n_marks    (PsSpanLod     *self,
                                        guint32        track);
/* Appends PsMarkLodItems for the marks on track in [from_ns, to_ns]: at most
 * one per pixel column, at most (to_ns - from_ns) / ns_per_pixel + 2. */
guint       ps_span_lod_query_marks    (PsSpanLod     *self,
                                        guint32        track,
                                        gint64         from_ns,
                                        gint64         to_ns,
                                        double         ns_per_pixel,
                                        GArray        *items);
/* The mark nearest to time_ns within slop_ns on the track, or
 * PS_SPAN_LOD_NO_SPAN */
guint64     ps_span_lod_find_mark      (PsSpanLod     *self,
                                        guint32        track,
                                        gint64         time_ns,
                                        gint64         slop_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsSpanLod, ps_span_lod_unref)

/* Value series */

typedef struct
{
  gint64  x_begin;   /* first and last x of the points in the column */
  gint64  x_end;
  double  min;
  double  max;
  double  first;     /* the value at x_begin and at x_end, to draw lines */
  double  last;
  guint64 n_points;
  guint64 index;     /* index of the first point (in the series' order) */
} PsValueLodItem;

typedef struct _PsValueLod PsValueLod;

/* x must not decrease; the arrays are copied. NaN values are skipped in
 * min/max (a column of only NaNs has min = max = NaN). */
PsValueLod *ps_value_lod_new           (const gint64  *x,
                                        const double  *values,
                                        gsize          n_points);
/* The same, keeping x and values (g_malloc ()ed), which it frees */
PsValueLod *ps_value_lod_new_take      (gint64        *x,
                                        double        *values,
                                        gsize          n_points);
/* Where a series' points lie in a block shared with other series (a
 * chart per CE marker instance, all in one block). Of each pair, one is
 * given and the other NULL: x in full, or in 32 bits (x_narrow:
 * sequence numbers below 2³²); the values, or whole numbers in 32 bits
 * in a store's value pages (ps_event_store_get_value_page ()), x being
 * the measurement's index there: value i is that number / divisor
 * (divisor > 0: a duration's ticks and its session's tick rate, or 1). */
typedef struct
{
  const gint64         *x;
  const guint32        *x_narrow;
  const double         *values;
  const guint32 *const *value_pages;
  double                divisor;
} PsValueLodPoints;

/* A series of points in a block, which are neither copied nor freed:
 * the series holds owner, which it gives to owner_release when freed */
PsValueLod *ps_value_lod_new_in_block  (const PsValueLodPoints *points,
                                        gsize                   n_points,
                                        gpointer                owner,
                                        GDestroyNotify          owner_release);
PsValueLod *ps_value_lod_ref           (PsValueLod    *self);
void        ps_value_lod_unref         (PsValueLod    *self);
gsize       ps_value_lod_get_n_points  (PsValueLod    *self);
/* A copy of its values, in x order, as doubles (g_free ()) */
double     *ps_value_lod_dup_values    (PsValueLod    *self);
/* A copy of its x, in full (g_free ()) */
gint64     *ps_value_lod_dup_x         (PsValueLod    *self);
/* Over all points, NaNs skipped (both values NaN when every value is NaN);
 * FALSE if there are no points */
gboolean    ps_value_lod_get_range     (PsValueLod    *self,
                                        gint64        *x_min,
                                        gint64        *x_max,
                                        double        *value_min,
                                        double        *value_max);
/* Appends PsValueLodItems for the points with x in [from, to], plus the
 * last point before from and the first after to (so a line can be drawn to
 * the window's edges): at most (to - from) / x_per_pixel + 4 items. */
guint       ps_value_lod_query         (PsValueLod    *self,
                                        gint64         from,
                                        gint64         to,
                                        double         x_per_pixel,
                                        GArray        *items);
/* The same items without their values (min, max, first and last are NaN):
 * where the points are and how many, for what only counts them */
guint       ps_value_lod_query_counts  (PsValueLod    *self,
                                        gint64         from,
                                        gint64         to,
                                        double         x_per_pixel,
                                        GArray        *items);
/* The point at index (in the series' order); FALSE past the end */
gboolean    ps_value_lod_get_point     (PsValueLod    *self,
                                        gsize          index,
                                        gint64        *x,
                                        double        *value);
/* The index of the point nearest to x, or G_MAXSIZE if empty */
gsize       ps_value_lod_find          (PsValueLod    *self,
                                        gint64         x);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsValueLod, ps_value_lod_unref)

G_END_DECLS

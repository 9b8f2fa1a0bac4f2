/* ps-value-lod.c — level of detail for drawing value series
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A series of points sorted by x, with the minimum and maximum of every
 * aligned block of points kept ahead of time, so that a query gives each
 * pixel column its range from the largest blocks that fit. Declared in
 * ps-span-lod.h beside the spans' level of detail, which it shares the
 * column arithmetic with.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps-event-store.h"
#include "ps-span-lod-private.h"

struct _PsValueLod
{
  gsize    n_points;
  /* x in full, or in 32 bits where it fits (x_narrow: a CE log's
   * sequence numbers, 4 bytes a point less over millions of points) */
  gint64        *x;
  const guint32 *x_narrow;
  /* The values, or whole numbers in 32 bits that are the values times
   * divisor, at x in a store's value pages (value_pages: a CE log's
   * durations as their ticks, and the session's tick rate, read where
   * the store keeps them) */
  double               *values;
  const guint32 *const *value_pages;
  double                divisor;
  /* Minimum and maximum per block of 64 and of 4096 points, NaNs left
   * out, in one array: the block minima, then maxima, then the same of
   * the super blocks. NULL for a series shorter than a block, as most of
   * a CE log's hundreds of thousands are. */
  double  *extremes;
  double   value_min;
  double   value_max;
  /* What holds x and values when they are not the series' own */
  gpointer       owner;
  GDestroyNotify owner_release;
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

/* The x of point i, whichever width it is kept in */
static inline gint64
x_at (const PsValueLod *self,
      gsize             i)
{
  return self->x != NULL ? self->x[i] : (gint64)self->x_narrow[i];
}

/* The value of point i, whichever way it is kept: a whole number is
 * divided as the value it stands for was made (ticks / rate), which
 * gives the same double */
static inline double
value_at (const PsValueLod *self,
          gsize             i)
{
  if (self->values != NULL)
    return self->values[i];
  return (double)ps_event_store_value_in_pages (self->value_pages, (guint64)x_at (self, i)) / self->divisor;
}

/* Where in extremes each kind of block has its minima and maxima (NULL
 * where the series has no whole block of that size) */
typedef struct
{
  double *block_min;
  double *block_max;
  double *super_min;
  double *super_max;
} Extremes;

static Extremes
extremes_of (const PsValueLod *self)
{
  gsize n_blocks = n_blocks_of (self->n_points, VALUE_BLOCK_SHIFT);
  Extremes blocks = { NULL, NULL, NULL, NULL };

  if (self->extremes == NULL)
    return blocks;
  blocks.block_min = self->extremes;
  blocks.block_max = blocks.block_min + n_blocks;
  if (self->n_points >= VALUE_SUPER_SIZE)
    {
      blocks.super_min = blocks.block_max + n_blocks;
      blocks.super_max = blocks.super_min + n_blocks_of (self->n_points, VALUE_SUPER_SHIFT);
    }
  return blocks;
}

static void
ps_value_lod_clear (gpointer data)
{
  PsValueLod *self = data;

  if (self->owner_release != NULL)
    self->owner_release (self->owner);
  else
    {
      g_free (self->x);
      g_free (self->values);
    }
  g_clear_pointer (&self->extremes, g_free);
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

/* The series of the points, whose extremes it computes */
static PsValueLod *
value_lod_new (const PsValueLodPoints *points,
               gsize                   n_points,
               gpointer                owner,
               GDestroyNotify          owner_release)
{
  PsValueLod *self;
  gsize n_blocks = n_blocks_of (n_points, VALUE_BLOCK_SHIFT);
  gsize n_supers = n_blocks_of (n_points, VALUE_SUPER_SHIFT);
  Extremes blocks;

  self = g_atomic_rc_box_new0 (PsValueLod);
  self->n_points = n_points;
  self->x = (gint64 *)points->x;
  self->x_narrow = points->x_narrow;
  self->values = (double *)points->values;
  self->value_pages = points->value_pages;
  self->divisor = points->divisor;
  self->owner = owner;
  self->owner_release = owner_release;
  self->value_min = self->value_max = NAN;
  /* value_min_max () takes a block only when all of it lies in the
   * range: a series shorter than a block needs none. The timeline of a
   * CE log has a series per marker instance, hundreds of thousands of
   * them, most with a few dozen points. */
  if (n_points >= VALUE_BLOCK_SIZE)
    {
      gsize n_extremes = 2 * n_blocks + (n_points >= VALUE_SUPER_SIZE ? 2 * n_supers : 0);

      self->extremes = g_new (double, n_extremes);
      for (gsize e = 0; e < n_extremes; e++)
        self->extremes[e] = NAN;
    }
  blocks = extremes_of (self);

  /* A block at a time, its extremes in locals: a store into the arrays
   * at every point would have the compiler read self's fields again for
   * the next (they might be what was stored to) */
  for (gsize start = 0; start < n_points; start += VALUE_BLOCK_SIZE)
    {
      gsize end = MIN (start + VALUE_BLOCK_SIZE, n_points);
      double low = NAN, high = NAN;

      for (gsize i = start; i < end; i++)
        {
          double value = value_at (self, i);

          low = min_skipping_nan (low, value);
          high = max_skipping_nan (high, value);
        }
      self->value_min = min_skipping_nan (self->value_min, low);
      self->value_max = max_skipping_nan (self->value_max, high);
      if (blocks.block_min != NULL)
        {
          blocks.block_min[start >> VALUE_BLOCK_SHIFT] = low;
          blocks.block_max[start >> VALUE_BLOCK_SHIFT] = high;
        }
      if (blocks.super_min != NULL)
        {
          gsize s = start >> VALUE_SUPER_SHIFT;

          blocks.super_min[s] = min_skipping_nan (blocks.super_min[s], low);
          blocks.super_max[s] = max_skipping_nan (blocks.super_max[s], high);
        }
    }

  return self;
}

/* The series of value_lod_new (), or NULL (and what it was given
 * released) when x decreases somewhere */
static PsValueLod *
value_lod_new_checked (const PsValueLodPoints *points,
                       gsize                   n_points,
                       gpointer                owner,
                       GDestroyNotify          owner_release)
{
  PsValueLod *self = value_lod_new (points, n_points, owner, owner_release);

  for (gsize i = 1; i < n_points; i++)
    if (G_UNLIKELY (x_at (self, i - 1) > x_at (self, i)))
      {
        ps_value_lod_unref (self);
        g_return_val_if_reached (NULL);
      }
  return self;
}

PsValueLod *
ps_value_lod_new_take (gint64 *x,
                       double *values,
                       gsize   n_points)
{
  PsValueLodPoints points = { .x = x, .values = values };

  g_return_val_if_fail (n_points == 0 || (x != NULL && values != NULL), NULL);
  return value_lod_new_checked (&points, n_points, NULL, NULL);
}

PsValueLod *
ps_value_lod_new_in_block (const PsValueLodPoints *points,
                           gsize                   n_points,
                           gpointer                owner,
                           GDestroyNotify          owner_release)
{
  g_return_val_if_fail (points != NULL, NULL);
  g_return_val_if_fail (n_points == 0 || (points->x == NULL) != (points->x_narrow == NULL), NULL);
  g_return_val_if_fail (n_points == 0 || (points->values == NULL) != (points->value_pages == NULL), NULL);
  g_return_val_if_fail (points->value_pages == NULL || points->divisor > 0, NULL);
  g_return_val_if_fail (owner_release != NULL, NULL);
  return value_lod_new_checked (points, n_points, owner, owner_release);
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

double *
ps_value_lod_dup_values (PsValueLod *self)
{
  double *values;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->values != NULL)
    return g_memdup2 (self->values, self->n_points * sizeof (double));
  values = g_new (double, self->n_points);
  for (gsize i = 0; i < self->n_points; i++)
    values[i] = value_at (self, i);
  return values;
}

gint64 *
ps_value_lod_dup_x (PsValueLod *self)
{
  gint64 *x;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->x != NULL)
    return g_memdup2 (self->x, self->n_points * sizeof (gint64));
  x = g_new (gint64, self->n_points);
  for (gsize i = 0; i < self->n_points; i++)
    x[i] = self->x_narrow[i];
  return x;
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
    *x_min = self->n_points > 0 ? x_at (self, 0) : 0;
  if (x_max != NULL)
    *x_max = self->n_points > 0 ? x_at (self, self->n_points - 1) : 0;
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
      gint64 x = x_at (self, mid);

      if (x < value || (strictly_after && x == value))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* First point in [lo, hi) with x >= limit, looking near lo first: a
 * pixel column holds few of a series' points */
static gsize
gallop_to (const PsValueLod *self,
           gsize             lo,
           gsize             hi,
           gint64            limit)
{
  gsize step = 1;

  while (lo < hi)
    {
      gsize probe = lo + step - 1;

      if (probe >= hi)
        break;
      if (x_at (self, probe) >= limit)
        return value_bound (self, lo, probe, limit, FALSE);
      lo = probe + 1;
      step *= 2;
    }
  return value_bound (self, lo, hi, limit, FALSE);
}

/* Minimum and maximum of [lo, hi) from the largest aligned blocks that fit */
static void
value_min_max (const PsValueLod *self,
               gsize             lo,
               gsize             hi,
               double           *min,
               double           *max)
{
  Extremes blocks = extremes_of (self);
  double low = NAN, high = NAN;
  gsize k = lo;

  while (k < hi)
    {
      if ((k & (VALUE_SUPER_SIZE - 1)) == 0 && k + VALUE_SUPER_SIZE <= hi)
        {
          low = min_skipping_nan (low, blocks.super_min[k >> VALUE_SUPER_SHIFT]);
          high = max_skipping_nan (high, blocks.super_max[k >> VALUE_SUPER_SHIFT]);
          k += VALUE_SUPER_SIZE;
        }
      else if ((k & (VALUE_BLOCK_SIZE - 1)) == 0 && k + VALUE_BLOCK_SIZE <= hi)
        {
          low = min_skipping_nan (low, blocks.block_min[k >> VALUE_BLOCK_SHIFT]);
          high = max_skipping_nan (high, blocks.block_max[k >> VALUE_BLOCK_SHIFT]);
          k += VALUE_BLOCK_SIZE;
        }
      else
        {
          double value = value_at (self, k);

          low = min_skipping_nan (low, value);
          high = max_skipping_nan (high, value);
          k++;
        }
    }

  *min = low;
  *max = high;
}

/* with_values: the item's min, max, first and last too, else NaN */
static void
append_value_item (const PsValueLod *self,
                   gsize             lo,
                   gsize             hi,
                   gboolean          with_values,
                   GArray           *items)
{
  PsValueLodItem item;

  item.x_begin = x_at (self, lo);
  item.x_end = x_at (self, hi - 1);
  if (with_values)
    {
      value_min_max (self, lo, hi, &item.min, &item.max);
      item.first = value_at (self, lo);
      item.last = value_at (self, hi - 1);
    }
  else
    item.min = item.max = item.first = item.last = NAN;
  item.n_points = hi - lo;
  item.index = lo;
  g_array_append_val (items, item);
}

static guint
query_items (PsValueLod *self,
             gint64      from,
             gint64      to,
             double      x_per_pixel,
             gboolean    with_values,
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
    append_value_item (self, k - 1, k, with_values, items);
  while (k < hi)
    {
      gint64 limit = span_lod_column_limit (from, x_per_pixel, column_of (x_at (self, k), from, x_per_pixel));
      gsize column_end = gallop_to (self, k + 1, hi, limit);

      append_value_item (self, k, column_end, with_values, items);
      k = column_end;
    }
  if (hi < self->n_points)
    append_value_item (self, hi, hi + 1, with_values, items);

  return items->len - start_len;
}

guint
ps_value_lod_query (PsValueLod *self,
                    gint64      from,
                    gint64      to,
                    double      x_per_pixel,
                    GArray     *items)
{
  return query_items (self, from, to, x_per_pixel, TRUE, items);
}

guint
ps_value_lod_query_counts (PsValueLod *self,
                           gint64      from,
                           gint64      to,
                           double      x_per_pixel,
                           GArray     *items)
{
  return query_items (self, from, to, x_per_pixel, FALSE, items);
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
    *x = x_at (self, index);
  if (value != NULL)
    *value = value_at (self, index);
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
    return value_bound (self, 0, self->n_points, x_at (self, self->n_points - 1), FALSE);
  if (after > 0 && (guint64)x - (guint64)x_at (self, after - 1) <= (guint64)x_at (self, after) - (guint64)x)
    return value_bound (self, 0, after, x_at (self, after - 1), FALSE);
  return after;
}

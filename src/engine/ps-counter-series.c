/* ps-counter-series.c — statistics and overview of a counter track
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A day of one reading a second for thousands of counters is hundreds of
 * millions of readings: more than memory holds one by one. What a chart of
 * the whole run and a table of statistics need is kept here for every
 * reading as it arrives: minimum, maximum, sum, first and last, and
 * minimum, maximum and mean per stretch of time. The stretches are powers
 * of two nanoseconds wide, so a reading finds its bucket with a shift;
 * when a reading falls past the last bucket, neighbours merge pairwise and
 * the width doubles. Only stretches with readings take room, so that a
 * counter read twice costs two buckets, not the room of a thousand.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-counter-series.h"

/* Two cache lines on 64-bit systems */
G_STATIC_ASSERT (sizeof (PsCounterSeries) <= 128);

/* 1 µs: the first width, doubled as often as the run needs */
#define FIRST_SHIFT 10

/* Room for 2 buckets at first, doubled as they fill */
#define FIRST_ROOM_LOG2 1
G_STATIC_ASSERT (PS_COUNTER_OVERVIEW_BUCKETS == 1 << 10);
#define MAX_ROOM_LOG2 10

void
ps_counter_stats_init (PsCounterStats *self)
{
  memset (self, 0, sizeof *self);
  self->min = NAN;
  self->max = NAN;
  self->first = NAN;
  self->last = NAN;
}

void
ps_counter_stats_add (PsCounterStats *self,
                      gint64          time_ns,
                      double          value,
                      gboolean        missing)
{
  if (missing || !isfinite (value))
    {
      self->n_missing++;
      return;
    }

  if (self->n_values == 0)
    {
      self->min = self->max = self->first = value;
      self->first_ns = time_ns;
    }
  else
    {
      self->min = MIN (self->min, value);
      self->max = MAX (self->max, value);
    }
  self->n_values++;
  self->sum += value;
  self->last = value;
  self->last_ns = time_ns;
}

void
ps_counter_series_init (PsCounterSeries *self)
{
  memset (self, 0, sizeof *self);
  ps_counter_stats_init (&self->stats);
  self->shift = FIRST_SHIFT;
}

void
ps_counter_series_clear (PsCounterSeries *self)
{
  g_clear_pointer (&self->buckets, g_free);
  self->room_log2 = 0;
}

guint
ps_counter_series_get_room (const PsCounterSeries *self)
{
  return self->buckets != NULL ? 1u << self->room_log2 : 0;
}

PsCounterBucket *
ps_counter_series_reserve (PsCounterSeries *self,
                           guint            n)
{
  guint room_log2 = self->buckets != NULL ? self->room_log2 : FIRST_ROOM_LOG2;

  g_return_val_if_fail (n <= PS_COUNTER_OVERVIEW_BUCKETS, self->buckets);

  if (self->buckets != NULL && n <= ps_counter_series_get_room (self))
    return self->buckets;
  while ((1u << room_log2) < n)
    room_log2++;
  g_assert (room_log2 <= MAX_ROOM_LOG2);
  self->buckets = g_renew (PsCounterBucket, self->buckets, (gsize)1 << room_log2);
  self->room_log2 = (guint8)room_log2;
  return self->buckets;
}

static void
merge_bucket (PsCounterBucket       *into,
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

void
ps_counter_series_get_current (const PsCounterSeries *self,
                               PsCounterBucket       *bucket)
{
  bucket->min = self->current_min;
  bucket->max = self->current_max;
  bucket->count = self->current_count;
  bucket->mean = self->current_count > 0 ? (float)(self->current_sum / self->current_count) : 0;
  bucket->index = self->current_index;
}

void
ps_counter_series_set_current (PsCounterSeries       *self,
                               const PsCounterBucket *bucket)
{
  self->current_min = bucket->min;
  self->current_max = bucket->max;
  self->current_count = bucket->count;
  /* Exact below 2²⁹ readings, so that the mean comes back unchanged */
  self->current_sum = (double)bucket->mean * bucket->count;
}

/* Where the bucket of index is in buckets, or would be put */
static guint
find_bucket (const PsCounterSeries *self,
             guint                  index)
{
  guint low = 0;
  guint high = self->n_used;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (self->buckets[middle].index < index)
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

/* The bucket being filled, when it does not go last into room there is:
 * it joins the bucket of its stretch, or is put in its place */
static void
flush_elsewhere (PsCounterSeries *self)
{
  PsCounterBucket current;
  guint at = self->n_used;

  ps_counter_series_get_current (self, &current);
  self->current_count = 0;
  if (!self->current_fresh)
    {
      at = find_bucket (self, current.index);
      if (at < self->n_used && self->buckets[at].index == current.index)
        {
          merge_bucket (&self->buckets[at], &current);
          return;
        }
    }
  /* Its index is not among those stored, so there are fewer than
   * PS_COUNTER_OVERVIEW_BUCKETS and room can be made */
  if (self->n_used >= ps_counter_series_get_room (self))
    ps_counter_series_reserve (self, self->n_used + 1u);
  memmove (&self->buckets[at + 1], &self->buckets[at], (self->n_used - at) * sizeof (PsCounterBucket));
  self->buckets[at] = current;
  self->n_used++;
}

/* The bucket being filled into the array. Time moves forward, so it
 * almost always goes last, into room there is: stored in place then,
 * which does not wait for that memory the way reading it first would. */
static inline void
flush_current (PsCounterSeries *self)
{
  if (self->current_count == 0)
    return;
  if G_LIKELY (self->current_fresh && self->n_used < ps_counter_series_get_room (self))
    {
      ps_counter_series_get_current (self, &self->buckets[self->n_used++]);
      self->current_count = 0;
      return;
    }
  flush_elsewhere (self);
}

/* Wide enough that index falls in the last bucket or before: each bucket
 * i joins bucket i >> (new shift − old shift), in one pass however many
 * doublings that takes (the second reading of a series is often the
 * first of many). Buckets that join are merged in time order. */
static void
widen (PsCounterSeries *self,
       guint64          index)
{
  guint shift = self->shift;
  guint by;
  guint n = 0;

  flush_current (self);
  while ((index >> shift) >= PS_COUNTER_OVERVIEW_BUCKETS)
    shift++;
  by = shift - self->shift;

  /* by can reach 63: shifts in 64 bits */
  for (guint i = 0; i < self->n_used; i++)
    {
      guint to = (guint) ((guint64) self->buckets[i].index >> by);

      if (n > 0 && self->buckets[n - 1].index == to)
        merge_bucket (&self->buckets[n - 1], &self->buckets[i]);
      else
        {
          self->buckets[n] = self->buckets[i];
          self->buckets[n].index = to;
          n++;
        }
    }
  self->n_used = n;
  self->shift = shift;
}

static void
add_to_overview (PsCounterSeries *self,
                 gint64           time_ns,
                 double           value)
{
  guint64 index;
  float v = (float)value;

  if (self->buckets == NULL)
    {
      ps_counter_series_reserve (self, 1);
      self->begin_ns = time_ns;
      /* A saved run cut off before its buckets said how many there were */
      self->n_used = 0;
    }
  /* A reading earlier than the first joins the first bucket */
  index = time_ns > self->begin_ns ? (guint64)time_ns - (guint64)self->begin_ns : 0;
  if ((index >> self->shift) >= PS_COUNTER_OVERVIEW_BUCKETS)
    widen (self, index);
  index >>= self->shift;

  if (index != self->current_index || self->current_count == 0)
    {
      /* After a bucket that went last, the last is known without
       * reading it */
      gboolean after_last = self->current_count > 0 && self->current_fresh && index > self->current_index;

      flush_current (self);
      self->current_index = (guint16)index;
      self->current_fresh = after_last || self->n_used == 0 || self->buckets[self->n_used - 1].index < index;
    }
  if (self->current_count == 0)
    {
      self->current_min = self->current_max = v;
      self->current_sum = v;
      self->current_count = 1;
    }
  else
    {
      self->current_count++;
      self->current_min = MIN (self->current_min, v);
      self->current_max = MAX (self->current_max, v);
      self->current_sum += v;
    }
}

void
ps_counter_series_add (PsCounterSeries *self,
                       gint64           time_ns,
                       double           value,
                       gboolean         missing)
{
  self->n_readings++;
  ps_counter_stats_add (&self->stats, time_ns, value, missing);
  if (!missing && isfinite (value))
    add_to_overview (self, time_ns, value);
}

void
ps_counter_series_get_overview (PsCounterSeries   *self,
                                PsCounterOverview *overview)
{
  if (self->buckets != NULL)
    flush_current (self);
  overview->begin_ns = self->begin_ns;
  overview->bucket_ns = (gint64)1 << self->shift;
  overview->n_buckets = self->n_used;
  overview->buckets = self->buckets;
}

/* ps-counter-series.h — what the event store keeps of each counter track
 * besides its readings: statistics and an overview over every reading,
 * whether the reading itself is kept or not
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include <glib.h>

G_BEGIN_DECLS

/* Statistics of a counter track over all its readings */
typedef struct
{
  guint64 n_values;   /* readings with a display value */
  guint64 n_missing;  /* readings without one (blank, first of a rate, invalid) */
  double  min;        /* NaN while n_values is 0 */
  double  max;
  double  sum;
  double  first;
  double  last;
  gint64  first_ns;   /* time of the first and last reading with a value */
  gint64  last_ns;
} PsCounterStats;

/* Statistics without a reading */
void ps_counter_stats_init (PsCounterStats *self);
/* A reading into statistics, as a track's own take each of its readings:
 * missing, or not finite, it counts as missing */
void ps_counter_stats_add  (PsCounterStats *self,
                            gint64          time_ns,
                            double          value,
                            gboolean        missing);

/* A bucket of the overview: the readings with a value in one stretch of
 * time, and which stretch that is */
typedef struct
{
  float   min;
  float   max;
  float   mean;
  guint32 count;      /* 0: none (only the bucket being filled can be empty) */
  guint32 index;      /* it begins at begin_ns + index × bucket_ns */
} PsCounterBucket;

/* The overview of a counter track: stretches of bucket_ns each from
 * begin_ns; their width doubles as the track grows longer, so that there
 * are never more than PS_COUNTER_OVERVIEW_BUCKETS. Only the stretches with
 * readings have a bucket, in time order: a counter read twice, however
 * far apart, takes the room of two. */
#define PS_COUNTER_OVERVIEW_BUCKETS 1024

typedef struct
{
  gint64                 begin_ns;
  gint64                 bucket_ns;
  guint                  n_buckets;  /* the buckets with readings */
  const PsCounterBucket *buckets;    /* by increasing index */
} PsCounterOverview;

/* Internal to the store */
typedef struct
{
  PsCounterStats   stats;
  guint64          n_readings;  /* all readings, kept or not */
  PsCounterBucket *buckets;     /* those with readings, by index */
  gint64           begin_ns;
  guint            shift;       /* bucket_ns = 1 << shift */
  guint            n_used;      /* how many buckets holds */
  /* The bucket being filled, kept here rather than in buckets: with
   * thousands of series, each reading would otherwise touch memory of
   * its own far from the others'. Its mean is a sum until it is stored:
   * no division for each reading, and no rounding of the mean at each
   * step. 128 bytes in all. */
  float            current_min;
  float            current_max;
  guint32          current_count;   /* 0: none */
  guint16          current_index;   /* < PS_COUNTER_OVERVIEW_BUCKETS */
  guint8           current_fresh;   /* it comes after every bucket in buckets */
  guint8           room_log2;       /* buckets has room for 1 << room_log2 */
  double           current_sum;
} PsCounterSeries;

void ps_counter_series_init  (PsCounterSeries *self);
/* The bucket being filled, as it will be stored, and the reverse (for
 * the native format) */
void ps_counter_series_get_current (const PsCounterSeries *self,
                                    PsCounterBucket       *bucket);
void ps_counter_series_set_current (PsCounterSeries       *self,
                                    const PsCounterBucket *bucket);
void ps_counter_series_clear (PsCounterSeries *self);
/* How many buckets the overview has room for (0 without buckets) */
guint ps_counter_series_get_room (const PsCounterSeries *self);
/* Room for n buckets with readings (at most PS_COUNTER_OVERVIEW_BUCKETS),
 * for an overview read back from a file; returns the buckets */
PsCounterBucket *ps_counter_series_reserve (PsCounterSeries *self,
                                            guint            n);
void ps_counter_series_add   (PsCounterSeries *self,
                              gint64           time_ns,
                              double           value,
                              gboolean         missing);
/* ps_counter_series_add () of a reading with a value, inline for the
 * usual case: a finite value in the bucket being filled. Everything else
 * (the first reading, a new bucket, a widening) takes the function, so
 * that both give exactly the same statistics and overview. */
static inline void
ps_counter_series_add_value (PsCounterSeries *self,
                             gint64           time_ns,
                             double           value)
{
  PsCounterStats *stats = &self->stats;
  float v = (float)value;

  if G_UNLIKELY (stats->n_values == 0 || self->current_count == 0 || !isfinite (value)
                 || time_ns < self->begin_ns
                 || (((guint64)time_ns - (guint64)self->begin_ns) >> self->shift) != self->current_index)
    {
      ps_counter_series_add (self, time_ns, value, FALSE);
      return;
    }

  self->n_readings++;
  stats->min = MIN (stats->min, value);
  stats->max = MAX (stats->max, value);
  stats->n_values++;
  stats->sum += value;
  stats->last = value;
  stats->last_ns = time_ns;
  self->current_count++;
  self->current_min = MIN (self->current_min, v);
  self->current_max = MAX (self->current_max, v);
  self->current_sum += v;
}

/* Valid until the next ps_counter_series_add () */
void ps_counter_series_get_overview (PsCounterSeries       *self,
                                     PsCounterOverview     *overview);

G_END_DECLS

/* ps-stats.c — descriptive statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps-stats.h"
#include "ps-event-store.h"
#include "ps-util.h"

/* Ranges of at most this many values are sorted by insertion */
#define SELECT_SMALL 16

/* Puts the k-th smallest of values[0..count) at values[k], smaller ones
 * before it and larger ones after: linear on average, where sorting
 * would be n log n. Each round moves the values below a median-of-three
 * pivot to the front without a branch on their order (Lomuto's scheme
 * with the swap done unconditionally), since the branches of a Hoare
 * partition go wrong half the time on such data; when no value is below
 * the pivot, a second pass gathers the values equal to it, so that runs
 * of equal values end the search. A range that does not shrink as fast
 * as it should is sorted instead, which bounds the time on any input.
 * One body for doubles and for whole milliseconds (guint32). */
#define DEFINE_SELECT_KTH(name, type)                                   \
  static int                                                            \
  name##_compare (const void *a,                                        \
                  const void *b)                                        \
  {                                                                     \
    type x = *(const type *)a;                                          \
    type y = *(const type *)b;                                          \
                                                                        \
    return (x > y) - (x < y);                                           \
  }                                                                     \
                                                                        \
  static inline gsize                                                   \
  name##_partition (type       *values,                                 \
                    gsize       left,                                   \
                    gsize       right,                                  \
                    type        pivot,                                  \
                    gboolean    or_equal)                               \
  {                                                                     \
    gsize store = left;                                                 \
                                                                        \
    for (gsize i = left; i < right; i++)                                \
      {                                                                 \
        type value = values[i];                                         \
        gsize below = or_equal ? value <= pivot : value < pivot;        \
                                                                        \
        values[i] = values[store];                                      \
        values[store] = value;                                          \
        store += below;                                                 \
      }                                                                 \
    return store;                                                       \
  }                                                                     \
                                                                        \
  static void                                                           \
  name##_insertion_sort (type  *values,                                 \
                         gsize  left,                                   \
                         gsize  right)                                  \
  {                                                                     \
    for (gsize i = left + 1; i < right; i++)                            \
      {                                                                 \
        type value = values[i];                                         \
        gsize j = i;                                                    \
                                                                        \
        for (; j > left && values[j - 1] > value; j--)                  \
          values[j] = values[j - 1];                                    \
        values[j] = value;                                              \
      }                                                                 \
  }                                                                     \
                                                                        \
  static inline type                                                    \
  name##_median_of_three (type a,                                       \
                          type b,                                       \
                          type c)                                       \
  {                                                                     \
    if (a > b)                                                          \
      {                                                                 \
        type t = a;                                                     \
                                                                        \
        a = b;                                                          \
        b = t;                                                          \
      }                                                                 \
    return c <= a ? a : c >= b ? b : c;                                 \
  }                                                                     \
                                                                        \
  static void                                                           \
  name (type  *values,                                                  \
        gsize  count,                                                   \
        gsize  k)                                                       \
  {                                                                     \
    gsize left = 0;                                                     \
    gsize right = count;                                                \
    guint rounds_left = 2 * g_bit_storage (count) + 4;                  \
                                                                        \
    while (right - left > SELECT_SMALL)                                 \
      {                                                                 \
        type pivot;                                                     \
        gsize split;                                                    \
                                                                        \
        if (rounds_left-- == 0)                                         \
          {                                                             \
            qsort (values + left, right - left, sizeof (type), name##_compare); \
            return;                                                     \
          }                                                             \
        pivot = name##_median_of_three (values[left],                   \
                                        values[left + (right - left) / 2], \
                                        values[right - 1]);             \
        split = name##_partition (values, left, right, pivot, FALSE);   \
        if (k < split)                                                  \
          {                                                             \
            right = split;                                              \
            continue;                                                   \
          }                                                             \
        if (split == left)                                              \
          {                                                             \
            /* All at or above the pivot, which is among them */        \
            split = name##_partition (values, left, right, pivot, TRUE); \
            if (k < split)                                              \
              return;                                                   \
          }                                                             \
        left = split;                                                   \
      }                                                                 \
    name##_insertion_sort (values, left, right);                        \
  }

DEFINE_SELECT_KTH (select_kth, double)
DEFINE_SELECT_KTH (select_kth_u32, guint32)

static gsize
nearest_rank_index (gsize  count,
                    double percent)
{
  double rank = ceil (percent / 100.0 * (double)count);
  gsize index = rank < 1 ? 0 : (gsize)rank - 1;

  return MIN (index, count - 1);
}

/* The percentiles every PsStats has, in increasing order */
static const double percents[] = { 50, 90, 95, 99 };
#define N_PERCENTS G_N_ELEMENTS (percents)

static inline void
percent_results (PsStats *out,
                 double  *results[N_PERCENTS])
{
  results[0] = &out->median;
  results[1] = &out->p90;
  results[2] = &out->p95;
  results[3] = &out->p99;
}

/* Where each of ranks[0 … n_ranks − 1] (sorted positions, increasing)
 * falls among counts of values by increasing value, below of them
 * counted before counts[0]: the value at sorted position k is the first
 * with more than k at or below it. positions[i] gets its index in counts,
 * before[i] (if not NULL) how many values come before that index. A rank
 * past the counts is left at the last index. */
static void
find_ranks (const guint32 *counts,
            gsize          n_counts,
            gsize          below,
            const gsize   *ranks,
            guint          n_ranks,
            gsize         *positions,
            gsize         *before)
{
  gsize at_or_below = below;
  guint next = 0;

  for (guint i = 0; i < n_ranks; i++)
    positions[i] = n_counts - 1;
  for (gsize v = 0; v < n_counts && next < n_ranks; v++)
    {
      gsize under = at_or_below;

      at_or_below += counts[v];
      while (next < n_ranks && at_or_below > ranks[next])
        {
          positions[next] = v;
          if (before != NULL)
            before[next] = under;
          next++;
        }
    }
}

/* Percentiles of values, which it reorders, by nearest rank; in
 * increasing order, each selection leaves everything above its rank to the
 * right, so the next one searches only there. FALSE when cancelled. For
 * doubles and for tick counts in 32 bits, whose k-th smallest is that of
 * the same values as doubles. */
#define DEFINE_SELECT_PERCENTILES(name, type, select)                   \
  static gboolean                                                       \
  name (type         *values,                                           \
        gsize         count,                                            \
        PsStats      *out,                                              \
        GCancellable *cancellable)                                      \
  {                                                                     \
    double *results[N_PERCENTS];                                        \
    gsize from = 0;                                                     \
                                                                        \
    percent_results (out, results);                                     \
    for (guint i = 0; i < N_PERCENTS; i++)                              \
      {                                                                 \
        gsize k = nearest_rank_index (count, percents[i]);              \
                                                                        \
        if (g_cancellable_is_cancelled (cancellable))                   \
          return FALSE;                                                 \
        select (values + from, count - from, k - from);                 \
        *results[i] = (double)values[k];                                \
        from = k;                                                       \
      }                                                                 \
    return TRUE;                                                        \
  }

DEFINE_SELECT_PERCENTILES (select_percentiles, double, select_kth)
DEFINE_SELECT_PERCENTILES (select_percentiles_u32, guint32, select_kth_u32)

/* From this many tick counts on, their percentiles are counted rather
 * than selected from a copy */
#define COUNT_PERCENTILES_MIN 65536

/* Tick count i, wherever the counts are */
static inline guint32
ticks_at (const PsStatsTicks *ticks,
          gsize               i)
{
  if (ticks->ticks != NULL)
    return ticks->ticks[i];
  return ps_event_store_value_in_pages (ticks->pages, ticks->index_narrow != NULL
                                                      ? ticks->index_narrow[i] : (guint64)ticks->index[i]);
}

static inline double
double_at (const double *values,
           gsize         i)
{
  return values[i];
}

/* The percentiles of tick counts in 32 bits by nearest rank, as
 * select_percentiles_u32 () finds them, without reordering the counts,
 * which may be shared (a CE timeline's points) or read from a store's
 * value pages; fed by the two passes of ps_stats_compute_scaled_u32 ()
 * so that the counts are read twice in all. A small series is copied in
 * the first pass and selected from; a big one is counted by its high 16
 * bits in the first pass, then by the low 16 bits of the counts in the
 * buckets that hold the ranks in the second, which finds each rank's
 * count exactly without a copy. */
typedef struct
{
  gsize    count;
  guint32 *copy;     /* a small series */
  guint32 *high;     /* a big one: counts by high 16 bits, */
  guint8  *slot_of;  /* high bucket → 1 + its slot in low, or 0, */
  guint32 *low;      /* and by low 16 bits in the ranks' buckets */
  gsize    ranks[N_PERCENTS];
  gsize    buckets[N_PERCENTS];
  gsize    below[N_PERCENTS];  /* counts under each rank's bucket */
} TickRanks;

static void
tick_ranks_init (TickRanks          *self,
                 const PsStatsTicks *ticks,
                 gsize               count)
{
  (void)ticks;
  memset (self, 0, sizeof *self);
  self->count = count;
  if (count < COUNT_PERCENTILES_MIN || count > G_MAXUINT32)
    self->copy = g_new (guint32, MAX (count, 1));
  else
    self->high = g_new0 (guint32, 65536);
}

/* tick: a count as a double, which holds it exactly */
static inline void
tick_ranks_first (TickRanks *self,
                  gsize      i,
                  double     tick)
{
  guint32 count = (guint32)tick;

  if (self->copy != NULL)
    self->copy[i] = count;
  else
    self->high[count >> 16]++;
}

/* Between the passes: the buckets that hold the ranks */
static void
tick_ranks_between (TickRanks *self)
{
  guint n_slots = 0;

  if (self->copy != NULL)
    return;
  for (guint i = 0; i < N_PERCENTS; i++)
    self->ranks[i] = nearest_rank_index (self->count, percents[i]);
  find_ranks (self->high, 65536, 0, self->ranks, N_PERCENTS, self->buckets, self->below);
  self->slot_of = g_new0 (guint8, 65536);
  for (guint i = 0; i < N_PERCENTS; i++)
    if (self->slot_of[self->buckets[i]] == 0)
      self->slot_of[self->buckets[i]] = (guint8)++n_slots;
  self->low = g_new0 (guint32, (gsize)n_slots * 65536);
}

static inline void
tick_ranks_second (TickRanks *self,
                   double     tick)
{
  guint32 count = (guint32)tick;
  guint slot;

  if (self->copy != NULL)
    return;
  slot = self->slot_of[count >> 16];
  if (slot != 0)
    self->low[(gsize)(slot - 1) * 65536 + (count & 0xFFFF)]++;
}

/* FALSE when cancelled */
static gboolean
tick_ranks_results (TickRanks    *self,
                    PsStats      *out,
                    GCancellable *cancellable)
{
  double *results[N_PERCENTS];

  if (self->copy != NULL)
    return select_percentiles_u32 (self->copy, self->count, out, cancellable);
  percent_results (out, results);
  for (guint i = 0; i < N_PERCENTS; i++)
    {
      gsize v;

      find_ranks (self->low + (gsize)(self->slot_of[self->buckets[i]] - 1) * 65536, 65536, self->below[i],
                  &self->ranks[i], 1, &v, NULL);
      *results[i] = (double)((self->buckets[i] << 16) | v);
    }
  return TRUE;
}

static void
tick_ranks_clear (TickRanks *self)
{
  g_free (self->copy);
  g_free (self->high);
  g_free (self->slot_of);
  g_free (self->low);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TickRanks, tick_ranks_clear)

/* The same for doubles, which are selected from in place */
typedef struct
{
  double *values;
  gsize   count;
} DoubleRanks;

static void
double_ranks_init (DoubleRanks *self,
                   double      *values,
                   gsize        count)
{
  self->values = values;
  self->count = count;
}

static inline void
double_ranks_first (DoubleRanks *self,
                    gsize        i,
                    double       value)
{
  (void)self, (void)i, (void)value;
}

static void
double_ranks_between (DoubleRanks *self)
{
  (void)self;
}

static inline void
double_ranks_second (DoubleRanks *self,
                     double       value)
{
  (void)self, (void)value;
}

static gboolean
double_ranks_results (DoubleRanks  *self,
                      PsStats      *out,
                      GCancellable *cancellable)
{
  return select_percentiles (self->values, self->count, out, cancellable);
}

static void
double_ranks_clear (DoubleRanks *self)
{
  (void)self;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DoubleRanks, double_ranks_clear)

double
ps_stats_percentile (const double *sorted,
                     gsize         count,
                     double        percent)
{
  if (count == 0)
    return 0;

  /* Nearest rank: the smallest value with at least percent% at or below it */
  return sorted[nearest_rank_index (count, percent)];
}

double
ps_stats_select_percentile (double *values,
                            gsize   count,
                            double  percent)
{
  gsize k;

  if (count == 0)
    return 0;
  k = nearest_rank_index (count, percent);
  select_kth (values, count, k);
  return values[k];
}

void
ps_stats_compute (double  *values,
                  gsize    count,
                  PsStats *out)
{
  ps_stats_compute_cancellable (values, count, out, NULL);
}

gboolean
ps_stats_compute_cancellable (double       *values,
                              gsize         count,
                              PsStats      *out,
                              GCancellable *cancellable)
{
  double sum = 0;
  double mean;
  double squares = 0;

  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (count == 0)
    return !g_cancellable_is_cancelled (cancellable);

  out->min = values[0];
  out->max = values[0];
  for (gsize i = 0; i < count; i++)
    {
      if (ps_util_stop_at (i, cancellable))
        return FALSE;
      sum += values[i];
      out->min = MIN (out->min, values[i]);
      out->max = MAX (out->max, values[i]);
    }
  mean = sum / (double)count;
  for (gsize i = 0; i < count; i++)
    {
      if (ps_util_stop_at (i, cancellable))
        return FALSE;
      squares += (values[i] - mean) * (values[i] - mean);
    }

  out->count = count;
  out->sum = sum;
  out->mean = mean;

  if (!select_percentiles (values, count, out, cancellable))
    return FALSE;
  out->stddev = sqrt (squares / (double)count);
  return TRUE;
}

/* The body of ps_stats_compute_scaled () and of its twin on tick counts
 * in 32 bits, count i being at (ticks, i), with the percentiles found
 * by ranks (DoubleRanks, TickRanks) in the same two passes: each tick
 * count is taken as a double, in the same order, so both give the same
 * statistics of the same counts. With rate 0 only the sums of the ticks
 * are taken, which are those of ps_stats_compute_cancellable (). */
#define DEFINE_COMPUTE_SCALED(name, type, at, Ranks, ranks_)            \
  gboolean                                                              \
  name (type         *ticks,                                            \
        gsize         count,                                            \
        double        rate,                                             \
        PsStats      *out,                                              \
        PsStats      *ticks_out,                                        \
        GCancellable *cancellable)                                      \
  {                                                                     \
    g_auto(Ranks) ranks = { 0 };                                        \
    double sum = 0, ticks_sum = 0;                                      \
    double squares = 0, ticks_squares = 0;                              \
    double mean, ticks_mean;                                            \
    gboolean scaled = rate > 0;                                         \
                                                                        \
    g_return_val_if_fail (out != NULL && ticks_out != NULL, FALSE);     \
                                                                        \
    memset (out, 0, sizeof *out);                                       \
    memset (ticks_out, 0, sizeof *ticks_out);                           \
    if (count == 0)                                                     \
      return !g_cancellable_is_cancelled (cancellable);                 \
                                                                        \
    /* The same sums, in the same order, as of the two arrays */        \
    ranks_##init (&ranks, ticks, count);                                \
    ticks_out->min = ticks_out->max = (double)at (ticks, 0);            \
    for (gsize i = 0; i < count; i++)                                   \
      {                                                                 \
        double tick = (double)at (ticks, i);                            \
                                                                        \
        if (ps_util_stop_at (i, cancellable))                           \
          return FALSE;                                                 \
        ticks_sum += tick;                                              \
        if (scaled)                                                     \
          sum += tick / rate;                                           \
        ticks_out->min = MIN (ticks_out->min, tick);                    \
        ticks_out->max = MAX (ticks_out->max, tick);                    \
        ranks_##first (&ranks, i, tick);                                \
      }                                                                 \
    ticks_mean = ticks_sum / (double)count;                             \
    mean = sum / (double)count;                                         \
    ranks_##between (&ranks);                                           \
    for (gsize i = 0; i < count; i++)                                   \
      {                                                                 \
        double tick = (double)at (ticks, i);                            \
                                                                        \
        if (ps_util_stop_at (i, cancellable))                           \
          return FALSE;                                                 \
        ticks_squares += (tick - ticks_mean) * (tick - ticks_mean);     \
        if (scaled)                                                     \
          squares += (tick / rate - mean) * (tick / rate - mean);       \
        ranks_##second (&ranks, tick);                                  \
      }                                                                 \
                                                                        \
    ticks_out->count = count;                                           \
    ticks_out->sum = ticks_sum;                                         \
    ticks_out->mean = ticks_mean;                                       \
    if (!ranks_##results (&ranks, ticks_out, cancellable))              \
      return FALSE;                                                     \
    ticks_out->stddev = sqrt (ticks_squares / (double)count);           \
    if (!scaled)                                                        \
      {                                                                 \
        *out = *ticks_out;                                              \
        return TRUE;                                                    \
      }                                                                 \
                                                                        \
    /* Dividing by a positive rate keeps the order: the quotient of the \
     * k-th smallest tick count is the k-th smallest quotient */        \
    out->count = count;                                                 \
    out->sum = sum;                                                     \
    out->mean = mean;                                                   \
    out->stddev = sqrt (squares / (double)count);                       \
    out->min = ticks_out->min / rate;                                   \
    out->max = ticks_out->max / rate;                                   \
    out->median = ticks_out->median / rate;                             \
    out->p90 = ticks_out->p90 / rate;                                   \
    out->p95 = ticks_out->p95 / rate;                                   \
    out->p99 = ticks_out->p99 / rate;                                   \
    return TRUE;                                                        \
  }

DEFINE_COMPUTE_SCALED (ps_stats_compute_scaled, double, double_at, DoubleRanks, double_ranks_)
DEFINE_COMPUTE_SCALED (ps_stats_compute_scaled_u32, const PsStatsTicks, ticks_at, TickRanks, tick_ranks_)

/* ps_stats_compute_ms() counts instead of selecting from this many values
 * on, when their range is below the larger of their number and
 * COUNTING_MIN_RANGE */
#define COUNTING_MIN_VALUES 256
#define COUNTING_MIN_RANGE  65536

/* Exact to the last millisecond: the seconds nearest the milliseconds'
 * decimal value, as (double)(ms × 10⁶) / 10⁹ has always given */
static inline double
ms_to_seconds (guint64 ms)
{
  return (double)ms / 1000.0;
}

/* Sums of squared milliseconds need up to 96 bits for 2³² values */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 WideSum;
#else
typedef long double WideSum;
#endif

void
ps_stats_compute_ms (guint32 *values,
                     gsize    count,
                     PsStats *out)
{
  double *results[N_PERCENTS];
  guint64 deviations = 0;  /* Σ (v − min) */
  WideSum squares = 0;     /* Σ (v − min)² */
  WideSum spread;          /* n Σ (v − min)² − (Σ (v − min))²: n² times the variance */
  guint32 min, max;
  double sum;

  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  percent_results (out, results);
  if (count == 0)
    return;

  min = max = values[0];
  for (gsize i = 0; i < count; i++)
    {
      min = MIN (min, values[i]);
      max = MAX (max, values[i]);
    }

  /* Integer sums: exact, so the statistics do not depend on the order of
   * the values, nor on the order in which spans ended */
  for (gsize i = 0; i < count; i++)
    {
      guint64 deviation = values[i] - min;

      deviations += deviation;
      squares += (WideSum)(deviation * deviation);
    }
  sum = ms_to_seconds (deviations + (guint64)count * min);
  spread = (WideSum)count * squares - (WideSum)deviations * deviations;

  out->count = count;
  out->sum = sum;
  out->min = ms_to_seconds (min);
  out->max = ms_to_seconds (max);
  out->mean = sum / (double)count;

  /* Durations crowd into a narrow range: counting them is one pass
   * without the unpredictable branches of partitioning. The table is no
   * larger than the values. */
  if (count >= COUNTING_MIN_VALUES && max - min < MAX (count, COUNTING_MIN_RANGE))
    {
      gsize range = (gsize)(max - min) + 1;
      g_autofree guint32 *counts = g_new0 (guint32, range);
      gsize ranks[N_PERCENTS];
      gsize positions[N_PERCENTS];

      for (gsize i = 0; i < count; i++)
        counts[values[i] - min]++;
      for (guint i = 0; i < N_PERCENTS; i++)
        ranks[i] = nearest_rank_index (count, percents[i]);
      find_ranks (counts, range, 0, ranks, N_PERCENTS, positions, NULL);
      for (guint i = 0; i < N_PERCENTS; i++)
        *results[i] = ms_to_seconds (min + (guint32)positions[i]);
    }
  else
    {
      /* The milliseconds selected, then in seconds */
      select_percentiles_u32 (values, count, out, NULL);
      for (guint i = 0; i < N_PERCENTS; i++)
        *results[i] = ms_to_seconds ((guint64)*results[i]);
    }
  out->stddev = sqrt ((double)spread) / (double)count / 1000.0;
}

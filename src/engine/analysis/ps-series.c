/* ps-series.c — the measured series of a run and their statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.5 (derived values), cli.md "stats"
 */
#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include "ps-series-private.h"
#include "ps-event-store-private.h"
#include "ps-util.h"

#define N_SERIES_KINDS 3  /* duration, cpu, memory: the measured kinds */

const char *
ps_series_kind_to_string (PsSeriesKind kind)
{
  switch (kind)
    {
    case PS_SERIES_DURATION: return "duration";
    case PS_SERIES_CPU:      return "cpu";
    case PS_SERIES_MEMORY:   return "memory";
    case PS_SERIES_COUNTER:  return "counter";
    case PS_SERIES_SPAN:     return "span";
    default:                 return "unknown";
    }
}

/* The measured series of one collection lie in one block, followed by
 * the text of their names and applications: a log may declare hundreds
 * of thousands of markers, and as many allocations of a few hundred
 * bytes each took longer than their statistics. The block goes with the
 * last of its series. */
typedef struct
{
  gint     n_alive;     /* atomic: series not freed yet */
  PsSeries series[];
} SeriesSlab;

void
ps_series_free (PsSeries *series)
{
  SeriesSlab *slab;

  if (series == NULL)
    return;

  slab = series->slab;
  if (slab == NULL)
    {
      g_free (series->name);
      g_free (series->app);
    }
  g_free (series->context);
  if (series->tracks != &series->first_track)
    g_free (series->tracks);
  g_clear_pointer (&series->values, g_array_unref);
  g_clear_pointer (&series->ticks, g_array_unref);
  g_clear_pointer (&series->indexes, g_array_unref);
  if (slab == NULL)
    g_free (series);
  else if (g_atomic_int_dec_and_test (&slab->n_alive))
    g_free (slab);
}

static PsSeriesKind
series_kind_for (PsMeasureKind kind)
{
  switch (kind)
    {
    case PS_MEASURE_CPU:    return PS_SERIES_CPU;
    case PS_MEASURE_MEMORY: return PS_SERIES_MEMORY;
    case PS_MEASURE_DURATION:
    case PS_MEASURE_OTHER:
    default:                return PS_SERIES_DURATION;
    }
}

/* A copy of text at *at, which moves past it */
static char *
slab_copy (char       **at,
           const char  *text)
{
  char *copy = *at;
  gsize size = strlen (text) + 1;

  memcpy (copy, text, size);
  *at += size;
  return copy;
}

/* Fills series in its slab, with its name and app copied to *text, which
 * moves past them. summary_of: for durations of which only statistics
 * are kept, empty arrays of doubles and of indexes that all such series
 * share; else NULL */
static void
series_init (PsSeries      *series,
             SeriesSlab    *slab,
             char         **text,
             PsEventStore  *store,
             const PsTrack *track,
             guint32        track_index,
             PsSeriesKind   kind,
             gboolean       has_seconds,
             GArray        *summary_of[2])
{
  gboolean summary = summary_of != NULL && kind == PS_SERIES_DURATION;

  series->slab = slab;
  series->name = slab_copy (text, ps_event_store_get_string (store, track->name));
  series->app = slab_copy (text, ps_event_store_get_string (store, track->category));
  series->kind = kind;
  series->id = track->number;
  series->instance = track->ordinal;
  series->session = track->session;
  series->first_line = track->line;
  series->n_instances = 1;
  series->tracks = &series->first_track;
  series->first_track = track_index;
  series->values = summary ? g_array_ref (summary_of[0]) : g_array_new (FALSE, FALSE, sizeof (double));
  series->indexes = summary ? g_array_ref (summary_of[1]) : g_array_new (FALSE, FALSE, sizeof (guint64));

  switch (kind)
    {
    case PS_SERIES_DURATION:
      series->has_seconds = has_seconds;
      series->unit = has_seconds ? "s" : "ticks";
      series->ticks = summary ? g_array_ref (summary_of[0]) : g_array_new (FALSE, FALSE, sizeof (double));
      break;
    case PS_SERIES_CPU:
      series->unit = "percent";
      break;
    case PS_SERIES_MEMORY:
      series->unit = "bytes";
      break;
    case PS_SERIES_COUNTER:
    case PS_SERIES_SPAN:
    default:
      series->unit = "";
      break;
    }
}

void
_ps_series_add_track (PsSeries *series,
                      guint32   track_index)
{
  if (series->n_instances == 0)
    series->tracks = &series->first_track;
  else if (series->tracks == &series->first_track)
    {
      series->tracks = g_new (guint32, 2);
      series->tracks[0] = series->first_track;
    }
  /* Grown by doubling: a group of a CE log can have hundreds of
   * thousands of instances, and a large block grown by one moves or
   * remaps at every step */
  else if ((series->n_instances & (series->n_instances - 1)) == 0)
    series->tracks = g_renew (guint32, series->tracks, 2 * (gsize)series->n_instances);
  series->tracks[series->n_instances++] = track_index;
}

/* Statistics of values; in_place reorders the array itself (for values
 * that are dropped afterwards), else a copy is used */
static void
compute_stats (GArray       *values,
               PsStats      *out,
               gboolean      in_place,
               GCancellable *cancellable)
{
  g_autofree double *copy = NULL;

  if (values == NULL || values->len == 0)
    {
      memset (out, 0, sizeof *out);
      return;
    }

  if (in_place)
    {
      ps_stats_compute_cancellable ((double *)(gpointer)values->data, values->len, out, cancellable);
      return;
    }

  copy = g_memdup2 (values->data, values->len * sizeof (double));
  ps_stats_compute_cancellable (copy, values->len, out, cancellable);
}

/* The series a measurement goes into, or PS_NONE */
static guint32
measurement_series (const PsMeasurement   *m,
                    const PsSeriesOptions *options,
                    const guint32         *series_of,
                    guint                  n_tracks)
{
  if (m->kind == PS_MEASURE_OTHER || m->track >= n_tracks)
    return PS_NONE;
  if (options->has_index_range && (m->index < options->index_first || m->index > options->index_last))
    return PS_NONE;
  return series_of[m->track * N_SERIES_KINDS + series_kind_for (m->kind)];
}

/* Durations of which only the statistics are kept. They are counted per
 * series first, then written into two buffers, series after series, in
 * file order within each: a log of a hundred thousand markers needs no
 * array of its own for each, and its values go in one piece. */
typedef struct
{
  gsize  *start;   /* series → its first slot */
  gsize  *end;     /* series → past its last slot */
  gsize  *next;    /* series → its next free slot */
  double *values;  /* in the series' unit; NULL when each series has one rate */
  double *ticks;
  /* In place of ticks, when each series has one rate and every tick
   * count fits: 4 bytes a duration less */
  guint32 *ticks32;
  double *rates;   /* series → the rate its values are divided by (0: none),
                    * when values is NULL */
} Summaries;

static void
summaries_clear (Summaries *self)
{
  g_clear_pointer (&self->start, g_free);
  g_clear_pointer (&self->end, g_free);
  g_clear_pointer (&self->next, g_free);
  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->ticks, g_free);
  g_clear_pointer (&self->ticks32, g_free);
  g_clear_pointer (&self->rates, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Summaries, summaries_clear)

/* Whether durations are kept in the summaries, not in their series */
static inline gboolean
summaries_kept (const Summaries *self)
{
  return self->ticks != NULL || self->ticks32 != NULL;
}

/* Whether a session's tick rate changes on the way */
static gboolean
has_rate_changes (PsEventStore *store)
{
  for (guint session = 0; session < ps_event_store_get_n_sessions (store); session++)
    if (ps_event_store_get_n_tick_rates (store, session) > 1)
      return TRUE;
  return FALSE;
}

/* The measurements are put into the series in parts, [first, end) of
 * their indexes, on two threads when there are many and only the
 * statistics of durations are kept: a duration has its slot in the
 * summaries, counted per part beforehand, so that each part writes its
 * own; what goes into a series' own arrays, in file order, a later part
 * leaves to the first, which takes it once done with its own. */
#define MAX_PARTS       2
#define PARTS_MIN_COUNT (1u << 18)

typedef struct
{
  PsEventStore          *store;
  const PsSeriesOptions *options;
  const guint32         *series_of;
  guint                  n_tracks;
  GPtrArray             *series;
  Summaries             *summaries;
  guint64                first;
  guint64                end;
  gsize                 *counts;    /* series → its durations kept in this part;
                                     * the first part counts in summaries->end */
  gsize                 *next;      /* series → its next slot in the summaries */
  GArray                *deferred;  /* PsMeasurement: left to the first part;
                                     * NULL in the first part */
  gboolean               wide;      /* counted a tick count outside 32 bits */
  const guint8          *wanted;    /* tracks → 1 for those collected, or NULL
                                     * for every track */
  gboolean               stopped;   /* cancelled */
} Part;

static void
part_clear (Part *self)
{
  /* A later part's next is its counts, over again */
  if (self->deferred != NULL)
    {
      g_clear_pointer (&self->counts, g_free);
      self->next = NULL;
    }
  g_clear_pointer (&self->deferred, g_array_unref);
}

typedef Part Parts[MAX_PARTS];

static void
parts_clear (Parts *parts)
{
  for (guint p = 0; p < MAX_PARTS; p++)
    part_clear (&(*parts)[p]);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parts, parts_clear)

static void
run_parts (Part        *parts,
           guint        n_parts,
           GThreadFunc  func)
{
  GThread *thread = n_parts > 1 ? g_thread_new ("perfscope-series", func, &parts[1]) : NULL;

  g_assert (n_parts <= MAX_PARTS);
  func (&parts[0]);
  if (thread != NULL)
    g_thread_join (thread);
}

static gboolean
parts_stopped (const Part *parts,
               guint       n_parts)
{
  for (guint p = 0; p < n_parts; p++)
    if (parts[p].stopped)
      return TRUE;
  return FALSE;
}

/* Calls func with each measurement of the part, in order, until the
 * options' cancellable is cancelled */
static inline void
part_walk (Part  *self,
           void (*func) (Part *, const PsMeasurement *))
{
  PsMeasurementIter iter;
  PsMeasurement m;

  ps_measurement_iter_init_at (&iter, self->store, self->first);
  while ((self->wanted != NULL ? ps_measurement_iter_next_of (&iter, self->wanted, self->n_tracks, &m)
                               : ps_measurement_iter_next (&iter, &m))
         && m.index < self->end)
    {
      if (ps_util_stop_at (m.index, self->options->cancellable))
        {
          self->stopped = TRUE;
          return;
        }
      func (self, &m);
    }
}

/* Counts a duration that goes into the statistics of its series */
static void
count_duration (Part                *self,
                const PsMeasurement *m)
{
  guint32 index;

  if (m->kind != PS_MEASURE_DURATION
      || ((m->flags & PS_MEASURE_FLAG_NEGATIVE) && !self->options->include_negative))
    return;
  index = measurement_series (m, self->options, self->series_of, self->n_tracks);
  if (index == PS_NONE)
    return;
  self->counts[index]++;
  if (m->value.ticks < 0 || m->value.ticks > G_MAXUINT32)
    self->wide = TRUE;
}

static gpointer
part_count (gpointer data)
{
  part_walk (data, count_duration);
  return NULL;
}

/* Lays the series' slots out, series after series; FALSE when cancelled */
static gboolean
summaries_init (Summaries             *self,
                PsEventStore          *store,
                const PsSeriesOptions *options,
                Part                  *parts,
                guint                  n_parts,
                guint                  n_series)
{
  gsize at = 0;
  gboolean wide = FALSE;

  self->start = ps_util_alloc_filled ((n_series + 1) * sizeof (gsize), FALSE);
  self->end = ps_util_alloc_filled ((n_series + 1) * sizeof (gsize), TRUE);
  self->next = ps_util_alloc_filled ((n_series + 1) * sizeof (gsize), FALSE);
  parts[0].counts = self->end;
  parts[0].next = self->next;
  for (guint p = 1; p < n_parts; p++)
    parts[p].next = parts[p].counts = ps_util_alloc_filled ((n_series + 1) * sizeof (gsize), TRUE);
  run_parts (parts, n_parts, part_count);
  if (parts_stopped (parts, n_parts))
    return FALSE;

  /* Each series' slots, and those of each part in them */
  for (guint i = 0; i < n_series; i++)
    {
      gsize counted[MAX_PARTS];

      for (guint p = 0; p < n_parts; p++)
        counted[p] = parts[p].counts[i];
      self->start[i] = at;
      for (guint p = 0; p < n_parts; p++)
        {
          parts[p].next[i] = at;
          at += counted[p];
        }
      self->end[i] = at;
    }
  for (guint p = 0; p < n_parts; p++)
    wide |= parts[p].wide;
  /* A series lies in one session: with at most one rate in each, its
   * values are its ticks over one rate, and their statistics follow from
   * those of the ticks (ps_stats_compute_scaled ()) */
  if (options->tick_rate_override > 0 || !has_rate_changes (store))
    {
      self->rates = g_new0 (double, n_series + 1);
      if (!wide)
        {
          self->ticks32 = ps_util_alloc_filled ((at + 1) * sizeof (guint32), FALSE);
          return TRUE;
        }
    }
  else
    self->values = ps_util_alloc_filled ((at + 1) * sizeof (double), FALSE);
  self->ticks = ps_util_alloc_filled ((at + 1) * sizeof (double), FALSE);
  return TRUE;
}

/* The rate each series' ticks are divided by (0: none), when no
 * session's rate changes on the way or the options give one: the rate of
 * its session, the same at every event (ce-perflog.md §7 #8) */
static void
summaries_set_rates (Summaries             *self,
                     PsEventStore          *store,
                     const PsSeriesOptions *options,
                     GPtrArray             *series)
{
  guint n_sessions = ps_event_store_get_n_sessions (store);
  g_autofree double *session_rates = g_new (double, n_sessions + 1);

  for (guint session = 0; session < n_sessions; session++)
    session_rates[session] = options->tick_rate_override > 0 ? options->tick_rate_override
                                                             : ps_event_store_get_tick_rate (store, session, 0);
  for (guint i = 0; i < series->len; i++)
    {
      const PsSeries *one = g_ptr_array_index (series, i);
      double rate = one->session < n_sessions ? session_rates[one->session] : options->tick_rate_override;

      self->rates[i] = one->kind == PS_SERIES_DURATION && one->has_seconds && rate > 0 ? rate : 0;
    }
}

/* Puts a measurement into its series */
static void
part_add (Part                *self,
          const PsMeasurement *m)
{
  const PsSeriesOptions *options = self->options;
  Summaries *summaries = self->summaries;
  guint32 index = measurement_series (m, options, self->series_of, self->n_tracks);
  gboolean excluded = (m->flags & PS_MEASURE_FLAG_NEGATIVE) && !options->include_negative;
  PsSeries *series;
  double value;

  if (index == PS_NONE)
    return;
  /* A later part writes only the slots of durations */
  if (self->deferred != NULL && (m->kind != PS_MEASURE_DURATION || excluded || !summaries_kept (summaries)))
    {
      g_array_append_val (self->deferred, *m);
      return;
    }
  series = g_ptr_array_index (self->series, index);

  switch ((PsMeasureKind)m->kind)
    {
    case PS_MEASURE_DURATION:
      {
        double ticks = (double)m->value.ticks;
        double rate;

        if (excluded)
          {
            series->n_excluded++;
            return;
          }
        /* One rate per series: summaries_set_rates () gives it */
        if (summaries->ticks32 != NULL)
          {
            summaries->ticks32[self->next[index]++] = (guint32)m->value.ticks;
            return;
          }
        if (summaries->rates != NULL)
          {
            summaries->ticks[self->next[index]++] = ticks;
            return;
          }

        /* The rate in effect at this event (ce-perflog.md §7 #8) */
        if (options->tick_rate_override > 0)
          rate = options->tick_rate_override;
        else
          rate = ps_event_store_get_tick_rate (self->store, series->session, m->index);

        value = series->has_seconds && rate > 0 ? ticks / rate : ticks;
        if (summaries->values != NULL)
          {
            gsize at = self->next[index]++;

            summaries->values[at] = value;
            summaries->ticks[at] = ticks;
            return;
          }
        g_array_append_val (series->ticks, ticks);
      }
      break;

    case PS_MEASURE_CPU:
      value = m->value.number;
      if (m->flags & PS_MEASURE_FLAG_OUT_OF_RANGE)
        series->n_flagged++;
      break;

    case PS_MEASURE_MEMORY:
      if (m->flags & PS_MEASURE_FLAG_FRACTIONAL)
        {
          value = m->value.number;
          series->n_flagged++;
        }
      else
        value = (double)m->value.bytes;
      break;

    case PS_MEASURE_OTHER:
    default:
      return;
    }

  g_array_append_val (series->values, value);
  g_array_append_val (series->indexes, m->index);
}

static gpointer
part_add_all (gpointer data)
{
  part_walk (data, part_add);
  return NULL;
}

/* The statistics of one series, from the summaries when they hold its values */
static void
series_compute_stats (PsSeries        *series,
                      guint            i,
                      const Summaries *summaries,
                      GCancellable    *cancellable)
{
  gboolean summary = summaries_kept (summaries) && series->kind == PS_SERIES_DURATION;
  gsize first = summary ? summaries->start[i] : 0;
  gsize count = summary ? summaries->end[i] - first : series->values->len;

  if (summary && summaries->ticks32 != NULL)
    {
      ps_stats_compute_scaled_u32 (&(PsStatsTicks){ .ticks = summaries->ticks32 + first }, count, summaries->rates[i],
                                   &series->stats, &series->ticks_stats, cancellable);
      return;
    }
  if (summary && summaries->rates != NULL)
    {
      ps_stats_compute_scaled (summaries->ticks + first, count, summaries->rates[i], &series->stats,
                               &series->ticks_stats, cancellable);
      return;
    }
  if (summary)
    {
      ps_stats_compute_cancellable (summaries->values + first, count, &series->stats, cancellable);
      ps_stats_compute_cancellable (summaries->ticks + first, count, &series->ticks_stats, cancellable);
      return;
    }
  compute_stats (series->values, &series->stats, FALSE, cancellable);
  if (series->ticks != NULL)
    compute_stats (series->ticks, &series->ticks_stats, FALSE, cancellable);
}

/* The series' statistics are computed on two threads when there are
 * many: blocks of this many, each taken by whichever thread is free */
#define STATS_BLOCK 256

typedef struct
{
  GPtrArray       *series;
  const Summaries *summaries;
  GCancellable    *cancellable;
  gint             next_block;  /* atomic */
  gint             cancelled;   /* atomic */
} StatsJob;

static gpointer
stats_job_run (gpointer data)
{
  StatsJob *job = data;

  for (;;)
    {
      guint first = (guint)g_atomic_int_add (&job->next_block, 1) * STATS_BLOCK;

      /* Selecting the percentiles takes most of the time: a look at the
       * cancellable every block and before a big series, whose
       * statistics look too */
      if (first >= job->series->len || g_atomic_int_get (&job->cancelled))
        return NULL;
      if (g_cancellable_is_cancelled (job->cancellable))
        {
          g_atomic_int_set (&job->cancelled, TRUE);
          return NULL;
        }
      for (guint i = first; i < MIN (first + STATS_BLOCK, job->series->len); i++)
        {
          PsSeries *series = g_ptr_array_index (job->series, i);
          gsize count = summaries_kept (job->summaries) && series->kind == PS_SERIES_DURATION
                        ? job->summaries->end[i] - job->summaries->start[i] : series->values->len;

          if (count > 65536 && g_cancellable_is_cancelled (job->cancellable))
            {
              g_atomic_int_set (&job->cancelled, TRUE);
              return NULL;
            }
          series_compute_stats (series, i, job->summaries, job->cancellable);
        }
    }
}

/* FALSE when cancelled */
static gboolean
compute_all_stats (GPtrArray       *series,
                   const Summaries *summaries,
                   GCancellable    *cancellable)
{
  StatsJob job = { series, summaries, cancellable, 0, FALSE };
  GThread *thread = NULL;

  if (series->len >= 2 * STATS_BLOCK)
    thread = g_thread_new ("perfscope-stats", stats_job_run, &job);
  stats_job_run (&job);
  if (thread != NULL)
    g_thread_join (thread);
  return !job.cancelled && !g_cancellable_is_cancelled (cancellable);
}

static const guint16 kind_flags[N_SERIES_KINDS] = {
  PS_TRACK_FLAG_HAS_DURATION, PS_TRACK_FLAG_HAS_CPU, PS_TRACK_FLAG_HAS_MEMORY,
};
static const PsSeriesKind kinds[N_SERIES_KINDS] = {
  PS_SERIES_DURATION, PS_SERIES_CPU, PS_SERIES_MEMORY,
};

typedef struct
{
  guint32  track;
  guint    kind;         /* in kinds[] */
  gboolean has_seconds;
} PlannedSeries;

typedef struct
{
  guint32 series;
  guint32 track;
} MergedTrack;

/* The series to make, and the tracks merged into them by name */
typedef struct
{
  GArray *planned;     /* PlannedSeries */
  GArray *merged;      /* MergedTrack */
  gsize   text_size;   /* of their names and applications */
} SeriesPlan;

static void
series_plan_init (SeriesPlan *self)
{
  self->planned = g_array_new (FALSE, FALSE, sizeof (PlannedSeries));
  self->merged = g_array_new (FALSE, FALSE, sizeof (MergedTrack));
  self->text_size = 0;
}

static void
series_plan_clear (SeriesPlan *self)
{
  g_clear_pointer (&self->planned, g_array_unref);
  g_clear_pointer (&self->merged, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SeriesPlan, series_plan_clear)

/* Plans a new series of the track's kind k; returns its index */
static guint32
series_plan_add (SeriesPlan    *self,
                 PsEventStore  *store,
                 const PsTrack *track,
                 guint32        track_index,
                 guint          k,
                 gboolean       has_seconds)
{
  PlannedSeries planned_one = { track_index, k, has_seconds };

  g_array_append_val (self->planned, planned_one);
  self->text_size += strlen (ps_event_store_get_string (store, track->name)) + 1
                     + strlen (ps_event_store_get_string (store, track->category)) + 1;
  return self->planned->len - 1;
}

static void
series_plan_merge (SeriesPlan *self,
                   guint32     series,
                   guint32     track_index)
{
  MergedTrack more = { series, track_index };

  g_array_append_val (self->merged, more);
}

/* Makes the planned series, in one slab, into result (empty before) */
static void
series_plan_make (const SeriesPlan      *self,
                  PsEventStore          *store,
                  const PsSeriesOptions *options,
                  GArray                *summary_of[2],
                  GPtrArray             *result)
{
  SeriesSlab *slab;
  char *text;

  if (self->planned->len == 0)
    return;

  slab = ps_util_alloc_filled (sizeof (SeriesSlab) + self->planned->len * sizeof (PsSeries) + self->text_size, TRUE);
  text = (char *)&slab->series[self->planned->len];
  slab->n_alive = (gint)self->planned->len;
  for (guint i = 0; i < self->planned->len; i++)
    {
      const PlannedSeries *one = &g_array_index (self->planned, PlannedSeries, i);

      series_init (&slab->series[i], slab, &text, store, ps_event_store_get_track (store, one->track),
                   one->track, kinds[one->kind], one->has_seconds,
                   options->durations_summary_only ? summary_of : NULL);
      g_ptr_array_add (result, &slab->series[i]);
    }
  for (guint i = 0; i < self->merged->len; i++)
    {
      const MergedTrack *more = &g_array_index (self->merged, MergedTrack, i);

      _ps_series_add_track (g_ptr_array_index (result, more->series), more->track);
    }
}

static gboolean
has_seconds_in (PsEventStore          *store,
                const PsSeriesOptions *options,
                const PsTrack         *track)
{
  return options->tick_rate_override > 0 || ps_event_store_get_n_tick_rates (store, track->session) > 0;
}

/* How many parts the measurements are put into series in */
static guint
n_parts_for (PsEventStore          *store,
             const PsSeriesOptions *options)
{
  return options->durations_summary_only && ps_event_store_get_n_measurements (store) >= PARTS_MIN_COUNT
         ? MAX_PARTS : 1;
}

static void
parts_init (Part                  *parts,
            guint                  n_parts,
            PsEventStore          *store,
            const PsSeriesOptions *options,
            const guint32         *series_of,
            GPtrArray             *series,
            Summaries             *summaries)
{
  guint64 n_measurements = ps_event_store_get_n_measurements (store);

  for (guint p = 0; p < n_parts; p++)
    {
      parts[p] = (Part) {
        .store = store,
        .options = options,
        .series_of = series_of,
        .n_tracks = ps_event_store_get_n_tracks (store),
        .series = series,
        .summaries = summaries,
        .first = n_measurements * p / n_parts,
        .end = n_measurements * (p + 1) / n_parts,
      };
      if (p > 0)
        parts[p].deferred = g_array_new (FALSE, FALSE, sizeof (PsMeasurement));
    }
}

/* Puts every measurement into its series, on the parts' threads; the
 * parts and the summaries' next slots are let go of at once, before the
 * statistics, which take most of the memory of a big log */
static void
parts_add_all (Part      *parts,
               guint      n_parts,
               Summaries *summaries)
{
  run_parts (parts, n_parts, part_add_all);
  /* The first part takes what the others left, in their order */
  for (guint p = 1; p < n_parts; p++)
    for (guint i = 0; i < parts[p].deferred->len; i++)
      part_add (&parts[0], &g_array_index (parts[p].deferred, PsMeasurement, i));
  for (guint p = 0; p < n_parts; p++)
    part_clear (&parts[p]);
  g_clear_pointer (&summaries->next, g_free);
}

static gboolean
has_spans (PsEventStore *store)
{
  return ps_event_store_get_n_spans (store) > 0 || ps_event_store_get_spans_summarized (store);
}

/* Grouping by name ---------------------------------------------------- */

/* The texts of a store's strings as numbers, equal for equal texts: the
 * store interns most strings, but one stored as likely unique
 * (ps_event_store_add_text ()) has an id of its own, so the ids
 * themselves do not tell. Each id's text is looked up once. */
typedef struct
{
  PsEventStore *store;
  guint32      *numbers;     /* string id → 1 + the number of its text; 0: not looked up */
  guint         n_strings;
  GHashTable   *texts;       /* text → 1 + its number */
} TextNumbers;

static void
text_numbers_init (TextNumbers  *self,
                   PsEventStore *store)
{
  self->store = store;
  self->n_strings = _ps_event_store_get_n_strings (store);
  /* Zeroed pages that only the ids of tracks touch: a log of messages
   * has millions of strings */
  self->numbers = g_new0 (guint32, (gsize)self->n_strings + 1);
  self->texts = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
text_numbers_clear (TextNumbers *self)
{
  g_clear_pointer (&self->numbers, g_free);
  g_clear_pointer (&self->texts, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TextNumbers, text_numbers_clear)

static guint32
text_numbers_get (TextNumbers *self,
                  guint32      id)
{
  const char *text;
  gpointer found;

  if (id < self->n_strings && self->numbers[id] != 0)
    return self->numbers[id] - 1;

  /* Ids past the strings read as "" (ps_event_store_get_string ()) */
  text = ps_event_store_get_string (self->store, id);
  found = g_hash_table_lookup (self->texts, text);
  if (found == NULL)
    {
      found = GUINT_TO_POINTER (g_hash_table_size (self->texts) + 1);
      g_hash_table_insert (self->texts, (gpointer)text, found);
    }
  if (id < self->n_strings)
    self->numbers[id] = GPOINTER_TO_UINT (found);
  return GPOINTER_TO_UINT (found) - 1;
}

/* What a group of ps_series_collect () with group_by_name is the series
 * of: its session and kind, and its application's and description's
 * texts, in numbers */
typedef struct
{
  guint32 session;
  guint32 kind;
  guint32 app;
  guint32 name;
} GroupKey;

static inline GroupKey
group_key_of (TextNumbers   *texts,
              const PsTrack *track,
              guint32        kind)
{
  GroupKey key = { track->session, kind, text_numbers_get (texts, track->category),
                   text_numbers_get (texts, track->name) };

  return key;
}

/* Groups by key: open addressing over the keys, which lie by group */
typedef struct
{
  GArray  *keys;    /* GroupKey, by group */
  guint32 *slots;   /* 1 + group, or 0: free */
  guint32  mask;
} GroupTable;

static void
group_table_init (GroupTable *self)
{
  self->keys = g_array_new (FALSE, FALSE, sizeof (GroupKey));
  self->mask = 1023;
  self->slots = g_new0 (guint32, self->mask + 1);
}

static void
group_table_clear (GroupTable *self)
{
  g_clear_pointer (&self->keys, g_array_unref);
  g_clear_pointer (&self->slots, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GroupTable, group_table_clear)

static guint32
group_key_hash (const GroupKey *key)
{
  guint64 hash = ((guint64)key->session << 32 | key->kind) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  hash ^= ((guint64)key->app << 32 | key->name) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  hash ^= hash >> 29;
  hash *= G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return (guint32)(hash >> 32);
}

static void
group_table_grow (GroupTable *self)
{
  self->mask = self->mask * 2 + 1;
  g_free (self->slots);
  self->slots = g_new0 (guint32, (gsize)self->mask + 1);
  for (guint g = 0; g < self->keys->len; g++)
    {
      guint32 slot = group_key_hash (&g_array_index (self->keys, GroupKey, g)) & self->mask;

      while (self->slots[slot] != 0)
        slot = (slot + 1) & self->mask;
      self->slots[slot] = g + 1;
    }
}

/* The group of key, a new one (*added) when there is none yet */
static guint32
group_table_find_or_add (GroupTable     *self,
                         const GroupKey *key,
                         gboolean       *added)
{
  guint32 slot = group_key_hash (key) & self->mask;

  for (; self->slots[slot] != 0; slot = (slot + 1) & self->mask)
    {
      const GroupKey *found = &g_array_index (self->keys, GroupKey, self->slots[slot] - 1);

      if (memcmp (found, key, sizeof *key) == 0)
        {
          *added = FALSE;
          return self->slots[slot] - 1;
        }
    }

  g_array_append_val (self->keys, *key);
  self->slots[slot] = self->keys->len;
  /* At most half full */
  if ((gsize)self->keys->len * 2 > self->mask)
    group_table_grow (self);
  *added = TRUE;
  return self->keys->len - 1;
}

/* Plans the series of the tracks given (NULL: every track, in order) and
 * of only_kind among them (-1: every kind), grouped by name when the
 * options say so: a group is made at the first track of its key, and a
 * track of the same key later joins it. FALSE when cancelled. */
static gboolean
plan_series (PsEventStore          *store,
             const PsSeriesOptions *options,
             const guint32         *tracks,
             guint                  n_given,
             gint                   only_kind,
             guint32               *series_of,
             SeriesPlan            *plan)
{
  g_auto(TextNumbers) texts = { 0 };
  g_auto(GroupTable) table = { 0 };
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint n = tracks != NULL ? n_given : n_tracks;

  for (gsize i = 0; i < (gsize)n_tracks * N_SERIES_KINDS; i++)
    series_of[i] = PS_NONE;
  if (options->group_by_name)
    {
      text_numbers_init (&texts, store);
      group_table_init (&table);
    }
  for (guint j = 0; j < n; j++)
    {
      guint32 t = tracks != NULL ? tracks[j] : j;
      const PsTrack *track;
      gboolean has_seconds;
      GroupKey key = { 0 };

      /* A log may declare hundreds of thousands of markers: a look at the
       * cancellable every 4096 of them */
      if ((j & 0xFFF) == 0 && g_cancellable_is_cancelled (options->cancellable))
        return FALSE;
      if (t >= n_tracks)
        continue;

      track = ps_event_store_get_track (store, t);
      has_seconds = has_seconds_in (store, options, track);
      if (options->group_by_name)
        key = group_key_of (&texts, track, 0);

      for (guint k = 0; k < N_SERIES_KINDS; k++)
        {
          if ((track->flags & kind_flags[k]) == 0 || (only_kind >= 0 && (gint)kinds[k] != only_kind))
            continue;

          if (options->group_by_name)
            {
              gboolean added;
              guint32 group;

              /* Groups are planned in the order of their keys' first tracks */
              key.kind = kinds[k];
              group = group_table_find_or_add (&table, &key, &added);
              if (!added)
                {
                  series_of[t * N_SERIES_KINDS + k] = group;
                  series_plan_merge (plan, group, t);
                  continue;
                }
            }
          series_of[t * N_SERIES_KINDS + k] = series_plan_add (plan, store, track, t, k, has_seconds);
        }
    }
  return TRUE;
}

/* Whether the series of a collection are those of the store's points
 * (options->points): grouped by name over the whole run with the
 * statistics of durations alone, at the log's rates, without negative
 * durations, each session with one rate, and every duration of 0 to
 * G_MAXINT32 ticks, read from the store's value pages */
static gboolean
points_apply (PsEventStore          *store,
              const PsSeriesOptions *options,
              const guint32         *tracks,
              GPtrArray             *series)
{
  const PsSeriesPoints *points = options->points;
  const guint32 *markers;

  if (points == NULL || tracks != NULL || !options->group_by_name || !options->durations_summary_only
      || options->has_index_range || options->tick_rate_override > 0 || options->include_negative
      || ps_series_points_get_n_tracks (points) != ps_event_store_get_n_tracks (store)
      || has_rate_changes (store))
    return FALSE;

  markers = ps_series_points_get_markers (points);
  for (guint i = 0; i < series->len; i++)
    {
      const PsSeries *one = g_ptr_array_index (series, i);
      PsSeriesChart chart;

      if (one->kind != PS_SERIES_DURATION)
        continue;
      ps_series_points_get_chart (points, markers[one->first_track], PS_MEASURE_DURATION, &chart);
      if (chart.ticks_pages == NULL || chart.n_negative > 0)
        return FALSE;
    }
  return TRUE;
}

/* The series' values and statistics from the store's points
 * (points_apply ()): a duration's statistics from its ticks there, in
 * the file order the summaries would hold them in; CPU and memory with
 * their values and indexes. FALSE when cancelled. */
static gboolean
series_from_points (PsEventStore          *store,
                    const PsSeriesOptions *options,
                    GPtrArray             *series)
{
  const PsSeriesPoints *points = options->points;
  const guint32 *markers = ps_series_points_get_markers (points);
  guint n_sessions = ps_event_store_get_n_sessions (store);

  for (guint i = 0; i < series->len; i++)
    {
      PsSeries *one = g_ptr_array_index (series, i);
      PsSeriesChart chart;

      if (g_cancellable_is_cancelled (options->cancellable))
        return FALSE;
      /* Series kinds and measure kinds go in the same order */
      ps_series_points_get_chart (points, markers[one->first_track], (PsMeasureKind)one->kind, &chart);
      if (one->kind == PS_SERIES_DURATION)
        {
          /* The rate of summaries_set_rates () */
          double rate = one->session < n_sessions ? ps_event_store_get_tick_rate (store, one->session, 0) : 0;
          PsStatsTicks ticks = { .pages = chart.ticks_pages, .index_narrow = chart.x_narrow, .index = chart.x };

          if (!one->has_seconds || rate <= 0)
            rate = 0;
          if (!ps_stats_compute_scaled_u32 (&ticks, chart.n_points, rate, &one->stats,
                                            &one->ticks_stats, options->cancellable))
            return FALSE;
          continue;
        }

      g_array_set_size (one->values, chart.n_points);
      memcpy (one->values->data, chart.values, chart.n_points * sizeof (double));
      g_array_set_size (one->indexes, chart.n_points);
      for (gsize p = 0; p < chart.n_points; p++)
        g_array_index (one->indexes, guint64, p) = ps_series_chart_x (&chart, p);
      one->n_flagged = chart.n_flagged;
      compute_stats (one->values, &one->stats, FALSE, options->cancellable);
    }
  return !g_cancellable_is_cancelled (options->cancellable);
}

/* The series of ps_series_collect (), or of the tracks given and
 * only_kind among them without their spans */
static GPtrArray *
collect (PsEventStore          *store,
         const PsSeriesOptions *options,
         const guint32         *tracks,
         guint                  n_given,
         gint                   only_kind)
{
  g_autoptr(GPtrArray) result = g_ptr_array_new_with_free_func ((GDestroyNotify)ps_series_free);
  g_autofree guint32 *series_of = NULL;  /* track × kind → series index, or PS_NONE */
  g_auto(Summaries) summaries = { 0 };
  g_autoptr(GArray) no_values = NULL;
  g_autoptr(GArray) no_indexes = NULL;
  g_auto(SeriesPlan) plan = { 0 };
  g_auto(Parts) parts = { 0 };
  /* The tracks given: the walks pass over the others' measurements */
  g_autofree guint8 *wanted = NULL;
  guint n_parts;

  series_of = ps_util_alloc_filled (((gsize)ps_event_store_get_n_tracks (store) * N_SERIES_KINDS + 1) * sizeof (guint32),
                            FALSE);
  if (options->durations_summary_only)
    {
      no_values = g_array_new (FALSE, FALSE, sizeof (double));
      no_indexes = g_array_new (FALSE, FALSE, sizeof (guint64));
    }
  series_plan_init (&plan);
  if (!plan_series (store, options, tracks, n_given, only_kind, series_of, &plan))
    return g_steal_pointer (&result);
  series_plan_make (&plan, store, options, (GArray *[2]) { no_values, no_indexes }, result);
  series_plan_clear (&plan);

  if (points_apply (store, options, tracks, result))
    {
      g_clear_pointer (&series_of, g_free);
      if (!series_from_points (store, options, result))
        return g_steal_pointer (&result);
      if (has_spans (store))
        _ps_series_collect_spans (store, options, result);
      return g_steal_pointer (&result);
    }

  n_parts = n_parts_for (store, options);
  parts_init (parts, n_parts, store, options, series_of, result, &summaries);
  if (tracks != NULL)
    {
      guint n_tracks = ps_event_store_get_n_tracks (store);

      wanted = g_malloc0 ((gsize)n_tracks + 1);
      for (guint j = 0; j < n_given; j++)
        if (tracks[j] < n_tracks)
          wanted[tracks[j]] = 1;
      for (guint p = 0; p < n_parts; p++)
        parts[p].wanted = wanted;
    }

  if (options->durations_summary_only
      && !summaries_init (&summaries, store, options, parts, n_parts, result->len))
    return g_steal_pointer (&result);
  if (summaries.rates != NULL)
    summaries_set_rates (&summaries, store, options, result);

  parts_add_all (parts, n_parts, &summaries);

  if (!compute_all_stats (result, &summaries, options->cancellable))
    return g_steal_pointer (&result);
  summaries_clear (&summaries);

  if (tracks == NULL && has_spans (store))
    _ps_series_collect_spans (store, options, result);

  return g_steal_pointer (&result);
}

GPtrArray *
ps_series_collect (PsEventStore          *store,
                   const PsSeriesOptions *options)
{
  static const PsSeriesOptions default_options = { 0 };

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  return collect (store, options != NULL ? options : &default_options, NULL, 0, -1);
}

GPtrArray *
ps_series_collect_members (PsEventStore          *store,
                           const PsSeriesOptions *options,
                           const PsSeries        *group)
{
  PsSeriesOptions by_instance = { 0 };

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  g_return_val_if_fail (group != NULL, NULL);

  if (options != NULL)
    by_instance = *options;
  by_instance.group_by_name = FALSE;
  if (group->kind > PS_SERIES_MEMORY)
    return g_ptr_array_new_with_free_func ((GDestroyNotify)ps_series_free);
  return collect (store, &by_instance, group->tracks, group->n_instances, group->kind);
}

guint32 *
ps_series_group_leaders (PsEventStore *store)
{
  g_auto(TextNumbers) texts = { 0 };
  g_auto(GroupTable) table = { 0 };
  g_autoptr(GArray) leaders = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_tracks;
  guint32 *leader_of;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  n_tracks = ps_event_store_get_n_tracks (store);
  leader_of = g_new (guint32, (gsize)n_tracks + 1);
  text_numbers_init (&texts, store);
  group_table_init (&table);
  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      /* Kind 0: a track's kinds are one group's kinds */
      GroupKey key = group_key_of (&texts, track, 0);
      gboolean added;
      guint32 group = group_table_find_or_add (&table, &key, &added);

      if (added)
        g_array_append_val (leaders, t);
      leader_of[t] = g_array_index (leaders, guint32, group);
    }
  return leader_of;
}

double
ps_series_measurement_value (PsEventStore        *store,
                             const PsMeasurement *measurement)
{
  const PsTrack *track;
  double rate;

  switch ((PsMeasureKind)measurement->kind)
    {
    case PS_MEASURE_DURATION:
      track = ps_event_store_get_track (store, measurement->track);
      rate = track != NULL ? ps_event_store_get_tick_rate (store, track->session, measurement->index) : 0;
      return rate > 0 ? (double)measurement->value.ticks / rate : (double)measurement->value.ticks;
    case PS_MEASURE_CPU:
      return measurement->value.number;
    case PS_MEASURE_MEMORY:
      return (measurement->flags & PS_MEASURE_FLAG_FRACTIONAL) ? measurement->value.number
                                                                : (double)measurement->value.bytes;
    case PS_MEASURE_OTHER:
    default:
      return NAN;
    }
}

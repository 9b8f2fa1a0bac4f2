/* ps-series-points.c — the points of a CE run's series, once for the
 * timeline and the statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.5 (derived values)
 */
#include "config.h"

#include "ps-series-points.h"
#include "ps-series.h"
#include "ps-util.h"

#define N_CHART_KINDS 3  /* duration, CPU, memory */
#define VALUE_PAGE_SIZE (1u << PS_EVENT_STORE_VALUE_PAGE_SHIFT)

struct _PsSeriesPoints
{
  guint     n_tracks;
  guint     n_markers;
  guint32  *leaders;
  guint32  *markers;
  gint64   *extents;
  /* chart (marker × kind) → its first point; starts[n_charts]: all */
  gsize    *starts;
  /* chart → its first value, in ticks_narrow or in values */
  gsize    *value_starts;
  guint64  *n_negative;  /* per chart */
  guint64  *n_flagged;   /* per chart */
  /* marker → whether its durations are read from the store's pages */
  guint8   *ticks_fit;
  double   *divisors;    /* per marker: its session's rate, or 1 */
  /* The points of every chart in one block, chart after chart: a log
   * has hundreds of thousands of markers, and an array of its own for
   * each took longer to allocate than to fill */
  guint32  *x_narrow;
  gint64   *x;
  double   *values;
  /* The store's value pages, where the durations that fit are read */
  const guint32 **pages;
};

static void
series_points_clear (gpointer data)
{
  PsSeriesPoints *self = data;

  g_free (self->leaders);
  g_free (self->markers);
  g_free (self->extents);
  g_free (self->starts);
  g_free (self->value_starts);
  g_free (self->n_negative);
  g_free (self->n_flagged);
  g_free (self->ticks_fit);
  g_free (self->divisors);
  g_free (self->x_narrow);
  g_free (self->x);
  g_free (self->values);
  g_free (self->pages);
}

PsSeriesPoints *
ps_series_points_ref (PsSeriesPoints *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
ps_series_points_unref (PsSeriesPoints *self)
{
  g_atomic_rc_box_release_full (self, series_points_clear);
}

/* A measurement's value as ps_series_measurement_value () gives it, with
 * the rate of each session looked up once when it does not change
 * (session_rates ≥ 0) */
static inline double
measurement_value (PsEventStore        *store,
                   const PsMeasurement *m,
                   const guint32       *sessions,
                   const double        *session_rates)
{
  double rate;

  if (m->kind != PS_MEASURE_DURATION)
    return ps_series_measurement_value (store, m);
  rate = session_rates[sessions[m->track]];
  if (rate < 0)
    return ps_series_measurement_value (store, m);
  return rate > 0 ? (double)m->value.ticks / rate : (double)m->value.ticks;
}

static inline gboolean
is_flagged (PsMeasureKind kind,
            guint8        flags)
{
  return (kind == PS_MEASURE_CPU && (flags & PS_MEASURE_FLAG_OUT_OF_RANGE))
         || (kind == PS_MEASURE_MEMORY && (flags & PS_MEASURE_FLAG_FRACTIONAL));
}

/* Reads page p of the store (PsMeasurementPage) with its tracks as the
 * points need them: local track → its marker, or PS_NONE for a track
 * past the points' own. A page holds a few thousand of a log's hundreds
 * of thousands of tracks: looked up once a page, not once a
 * measurement, their markers and extents are not a cache miss each.
 * FALSE when the work is cancelled. */
static gboolean
read_page (const PsSeriesPoints *self,
           PsEventStore         *store,
           guint64               p,
           GCancellable         *cancellable,
           PsMeasurementPage    *page,
           guint32              *local_marker)
{
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  ps_event_store_get_measurement_page (store, p, page);
  for (guint l = 0; l < page->n_tracks; l++)
    local_marker[l] = page->tracks[l] < self->n_tracks ? self->markers[page->tracks[l]] : PS_NONE;
  return TRUE;
}

gboolean
ps_series_points_suit (PsEventStore *store)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);

  return ps_event_store_get_n_measurements (store) > 0 && ps_event_store_get_n_spans (store) == 0;
}

/* Each of two threads walks half of the pages, twice: first to count
 * each chart's points (and the rest pass 1 finds), then to place them,
 * the second half's after the first half's in each chart */
#define N_SHARES 2
/* Fewer pages are walked by one thread */
#define SHARE_MIN_PAGES 8

/* What one thread walks, and what it finds: a share's counts are per
 * chart, its ticks_fit per marker and its extents per track, as in
 * PsSeriesPoints */
typedef struct
{
  const PsSeriesPoints *points;
  PsEventStore         *store;
  GCancellable         *cancellable;
  guint64               first_page;
  guint64               end_page;
  /* Pass 1 */
  gsize                *counts;
  guint64              *n_negative;
  guint64              *n_flagged;
  guint8               *ticks_fit;
  gint64               *extents;      /* the points' own in the first share */
  gboolean              own_extents;
  guint64               last_index;
  /* Pass 2: per chart, where its next point and value go */
  gsize                *next;
  gsize                *value_next;
  const guint32        *sessions;
  const double         *session_rates;
  /* Per track of a page: its marker, and where in the page it is
   * measured first and last */
  guint32              *local_marker;
  guint32              *local_first;
  guint32              *local_last;
  gboolean              cancelled;
} Share;

static void
extents_init (gint64 *extents,
              gsize   n_tracks)
{
  for (gsize t = 0; t < n_tracks; t++)
    {
      extents[2 * t] = G_MAXINT64;
      extents[2 * t + 1] = G_MININT64;
    }
}

static void
share_init (Share          *share,
            PsSeriesPoints *points,
            PsEventStore   *store,
            GCancellable   *cancellable,
            guint64         first_page,
            guint64         end_page)
{
  gsize n_charts = (gsize)points->n_markers * N_CHART_KINDS;

  *share = (Share) {
    .points = points,
    .store = store,
    .cancellable = cancellable,
    .first_page = first_page,
    .end_page = end_page,
    .counts = g_new0 (gsize, n_charts + 1),
    .n_negative = g_new0 (guint64, n_charts + 1),
    .n_flagged = g_new0 (guint64, n_charts + 1),
    .ticks_fit = g_memdup2 (points->ticks_fit, (gsize)points->n_markers + 1),
    .extents = first_page == 0 ? points->extents
                               : ps_util_alloc_filled ((2 * (gsize)points->n_tracks + 1) * sizeof (gint64), FALSE),
    .own_extents = first_page != 0,
    .next = g_new (gsize, n_charts + 1),
    .value_next = g_new (gsize, n_charts + 1),
    .local_marker = g_new (guint32, VALUE_PAGE_SIZE),
    .local_first = g_new (guint32, VALUE_PAGE_SIZE),
    .local_last = g_new (guint32, VALUE_PAGE_SIZE),
  };
  extents_init (share->extents, points->n_tracks);
}

static void
share_clear (Share *share)
{
  g_free (share->counts);
  g_free (share->n_negative);
  g_free (share->n_flagged);
  g_free (share->ticks_fit);
  if (share->own_extents)
    g_free (share->extents);
  g_free (share->next);
  g_free (share->value_next);
  g_free (share->local_marker);
  g_free (share->local_first);
  g_free (share->local_last);
}

/* Pass 1: how many points each chart has in the share's pages */
static gpointer
share_count (gpointer data)
{
  Share *share = data;
  const PsSeriesPoints *self = share->points;
  guint32 *local_first = share->local_first;
  guint32 *local_last = share->local_last;
  PsMeasurementPage page;

  for (guint64 p = share->first_page; p < share->end_page; p++)
    {
      if (!read_page (self, share->store, p, share->cancellable, &page, share->local_marker))
        {
          share->cancelled = TRUE;
          return NULL;
        }
      for (guint l = 0; l < page.n_tracks; l++)
        local_first[l] = G_MAXUINT32;
      for (guint i = 0; i < page.n_measurements; i++)
        {
          guint8 meta = page.meta[i];
          PsMeasureKind kind = ps_measurement_meta_kind (meta);
          guint8 flags = ps_measurement_meta_flags (meta);
          guint local = page.track_index[i];
          guint32 marker = share->local_marker[local];
          gsize chart = (gsize)marker * N_CHART_KINDS + kind;

          if (kind > PS_MEASURE_MEMORY || marker == PS_NONE)
            continue;
          share->counts[chart]++;
          share->last_index = page.first + i;
          if (local_first[local] == G_MAXUINT32)
            local_first[local] = i;
          local_last[local] = i;
          /* Ticks outside 0 … G_MAXINT32: kept in full, or negative */
          if (kind == PS_MEASURE_DURATION && ((meta & PS_MEASUREMENT_META_WIDE) || (gint32)page.values[i] < 0))
            share->ticks_fit[marker] = FALSE;
          if (kind == PS_MEASURE_DURATION && (flags & PS_MEASURE_FLAG_NEGATIVE))
            share->n_negative[chart]++;
          if (is_flagged (kind, flags))
            share->n_flagged[chart]++;
        }
      for (guint l = 0; l < page.n_tracks; l++)
        if (local_first[l] != G_MAXUINT32)
          {
            gint64 *extent = &share->extents[2 * (gsize)page.tracks[l]];

            extent[0] = MIN (extent[0], (gint64)(page.first + local_first[l]));
            extent[1] = MAX (extent[1], (gint64)(page.first + local_last[l]));
          }
    }
  return NULL;
}

/* Pass 2: each point's sequence number, and its value where it is not
 * read from the store's pages */
static gpointer
share_place (gpointer data)
{
  Share *share = data;
  PsSeriesPoints *self = (PsSeriesPoints *)share->points;
  PsMeasurementPage page;

  for (guint64 p = share->first_page; p < share->end_page; p++)
    {
      if (!read_page (self, share->store, p, share->cancellable, &page, share->local_marker))
        {
          share->cancelled = TRUE;
          return NULL;
        }
      for (guint i = 0; i < page.n_measurements; i++)
        {
          PsMeasureKind kind = ps_measurement_meta_kind (page.meta[i]);
          guint32 marker = share->local_marker[page.track_index[i]];
          gsize chart = (gsize)marker * N_CHART_KINDS + kind;
          gsize at;

          if (kind > PS_MEASURE_MEMORY || marker == PS_NONE)
            continue;
          at = share->next[chart]++;
          if (self->x_narrow != NULL)
            self->x_narrow[at] = (guint32)(page.first + i);
          else
            self->x[at] = (gint64)(page.first + i);
          if (kind != PS_MEASURE_DURATION || !self->ticks_fit[marker])
            {
              PsMeasurement m;

              ps_event_store_get_measurement_value (share->store, page.first + i, &m);
              self->values[share->value_next[chart]++] = measurement_value (share->store, &m, share->sessions,
                                                                            share->session_rates);
            }
        }
    }
  return NULL;
}

/* Runs func on each share, the first in this thread */
static gboolean
run_shares (Share       *shares,
            guint        n_shares,
            GThreadFunc  func)
{
  GThread *thread = n_shares > 1 ? g_thread_new ("perfscope-points", func, &shares[1]) : NULL;
  gboolean cancelled = FALSE;

  func (&shares[0]);
  if (thread != NULL)
    g_thread_join (thread);
  for (guint s = 0; s < n_shares; s++)
    cancelled |= shares[s].cancelled;
  return !cancelled;
}

PsSeriesPoints *
ps_series_points_new (PsEventStore *store,
                      GCancellable *cancellable)
{
  g_autoptr(PsSeriesPoints) self = NULL;
  guint n_tracks, n_sessions, n_markers = 0, n_shares;
  gsize n_charts, n_points, n_values = 0;
  guint64 n_pages;
  Share shares[N_SHARES];
  g_autofree guint32 *sessions = NULL;
  /* per session: its rate when it has at most one (0: none), else -1 */
  g_autofree double *session_rates = NULL;
  guint64 last_index = 0;
  gboolean done;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  n_tracks = ps_event_store_get_n_tracks (store);
  n_sessions = ps_event_store_get_n_sessions (store);
  self = g_atomic_rc_box_new0 (PsSeriesPoints);
  self->n_tracks = n_tracks;
  self->leaders = ps_series_group_leaders (store);
  self->markers = g_new (guint32, (gsize)n_tracks + 1);
  self->extents = ps_util_alloc_filled ((2 * (gsize)n_tracks + 1) * sizeof (gint64), FALSE);
  sessions = g_new (guint32, (gsize)n_tracks + 1);
  session_rates = g_new (double, n_sessions + 1);

  for (guint32 t = 0; t < n_tracks; t++)
    sessions[t] = ps_event_store_get_track (store, t)->session;
  for (guint session = 0; session < n_sessions; session++)
    session_rates[session] = ps_event_store_get_n_tick_rates (store, session) <= 1
                             ? ps_event_store_get_tick_rate (store, session, 0) : -1;
  for (guint32 t = 0; t < n_tracks; t++)
    self->markers[t] = self->leaders[t] == t ? n_markers++ : self->markers[self->leaders[t]];
  self->n_markers = n_markers;
  n_charts = (gsize)n_markers * N_CHART_KINDS;
  self->starts = g_new0 (gsize, n_charts + 1);
  self->value_starts = g_new (gsize, n_charts + 1);
  self->n_negative = g_new0 (guint64, n_charts + 1);
  self->n_flagged = g_new0 (guint64, n_charts + 1);
  self->ticks_fit = g_new (guint8, (gsize)n_markers + 1);
  self->divisors = g_new (double, (gsize)n_markers + 1);
  for (guint32 t = 0; t < n_tracks; t++)
    if (self->leaders[t] == t)
      {
        double rate = session_rates[sessions[t]];

        self->ticks_fit[self->markers[t]] = rate >= 0;
        self->divisors[self->markers[t]] = rate > 0 ? rate : 1;
      }

  n_pages = (ps_event_store_get_n_measurements (store) + VALUE_PAGE_SIZE - 1) >> PS_EVENT_STORE_VALUE_PAGE_SHIFT;
  n_shares = n_pages >= SHARE_MIN_PAGES && g_get_num_processors () > 1 ? N_SHARES : 1;
  for (guint s = 0; s < n_shares; s++)
    share_init (&shares[s], self, store, cancellable, n_pages * s / n_shares, n_pages * (s + 1) / n_shares);

  done = run_shares (shares, n_shares, share_count);

  /* The shares' findings together (the first share's extents are the
   * points' own) */
  for (guint s = 0; done && s < n_shares; s++)
    {
      for (gsize c = 0; c < n_charts; c++)
        {
          self->starts[c + 1] += shares[s].counts[c];
          self->n_negative[c] += shares[s].n_negative[c];
          self->n_flagged[c] += shares[s].n_flagged[c];
        }
      for (guint m = 0; m < n_markers; m++)
        self->ticks_fit[m] &= shares[s].ticks_fit[m];
      last_index = MAX (last_index, shares[s].last_index);
    }
  for (guint s = 1; done && s < n_shares; s++)
    for (gsize t = 0; t < n_tracks; t++)
      {
        self->extents[2 * t] = MIN (self->extents[2 * t], shares[s].extents[2 * t]);
        self->extents[2 * t + 1] = MAX (self->extents[2 * t + 1], shares[s].extents[2 * t + 1]);
      }

  if (done)
    {
      /* Each chart's part of the block */
      for (gsize i = 0; i < n_charts; i++)
        {
          gsize n_chart_points = self->starts[i + 1];
          gboolean narrow = i % N_CHART_KINDS == PS_MEASURE_DURATION && self->ticks_fit[i / N_CHART_KINDS];

          self->value_starts[i] = n_values;
          if (!narrow)
            n_values += n_chart_points;
          self->starts[i + 1] += self->starts[i];
        }
      n_points = self->starts[n_charts];
      if (last_index <= G_MAXUINT32)
        self->x_narrow = ps_util_alloc_filled ((n_points + 1) * sizeof (guint32), FALSE);
      else
        self->x = ps_util_alloc_filled ((n_points + 1) * sizeof (gint64), FALSE);
      self->values = ps_util_alloc_filled ((n_values + 1) * sizeof (double), FALSE);
      self->pages = g_new (const guint32 *, n_pages + 1);
      for (guint64 p = 0; p < n_pages; p++)
        self->pages[p] = ps_event_store_get_value_page (store, p);

      /* Each share's points of a chart after those of the shares before */
      for (gsize c = 0; c < n_charts; c++)
        {
          gboolean narrow = c % N_CHART_KINDS == PS_MEASURE_DURATION && self->ticks_fit[c / N_CHART_KINDS];
          gsize next = self->starts[c];
          gsize value_next = self->value_starts[c];

          for (guint s = 0; s < n_shares; s++)
            {
              shares[s].next[c] = next;
              shares[s].value_next[c] = value_next;
              next += shares[s].counts[c];
              if (!narrow)
                value_next += shares[s].counts[c];
            }
        }
      for (guint s = 0; s < n_shares; s++)
        {
          shares[s].sessions = sessions;
          shares[s].session_rates = session_rates;
        }
      done = run_shares (shares, n_shares, share_place);
    }

  for (guint s = 0; s < n_shares; s++)
    share_clear (&shares[s]);
  return done ? g_steal_pointer (&self) : NULL;
}

guint
ps_series_points_get_n_tracks (const PsSeriesPoints *self)
{
  return self->n_tracks;
}

guint
ps_series_points_get_n_markers (const PsSeriesPoints *self)
{
  return self->n_markers;
}

const guint32 *
ps_series_points_get_leaders (const PsSeriesPoints *self)
{
  return self->leaders;
}

const guint32 *
ps_series_points_get_markers (const PsSeriesPoints *self)
{
  return self->markers;
}

const gint64 *
ps_series_points_get_extents (const PsSeriesPoints *self)
{
  return self->extents;
}

void
ps_series_points_get_chart (const PsSeriesPoints *self,
                            guint32               marker,
                            PsMeasureKind         kind,
                            PsSeriesChart        *out)
{
  gsize chart = (gsize)marker * N_CHART_KINDS + kind;
  gboolean narrow;

  g_return_if_fail (marker < self->n_markers && kind <= PS_MEASURE_MEMORY);

  narrow = kind == PS_MEASURE_DURATION && self->ticks_fit[marker];
  *out = (PsSeriesChart) {
    .n_points = self->starts[chart + 1] - self->starts[chart],
    .x_narrow = self->x_narrow != NULL ? self->x_narrow + self->starts[chart] : NULL,
    .x = self->x != NULL ? self->x + self->starts[chart] : NULL,
    .ticks_pages = narrow ? self->pages : NULL,
    .values = narrow ? NULL : self->values + self->value_starts[chart],
    .divisor = narrow ? self->divisors[marker] : 1,
    .n_negative = self->n_negative[chart],
    .n_flagged = self->n_flagged[chart],
  };
}

/* Sharing: the points of a store, made by the first caller */

typedef enum
{
  SHARED_MAKING,
  SHARED_MADE,
} SharedState;

typedef struct
{
  SharedState     state;
  PsSeriesPoints *points;
} Shared;

#define SHARED_KEY "ps-series-points-shared"

static GMutex shared_lock;
static GCond  shared_changed;

static void
shared_free (Shared *shared)
{
  g_clear_pointer (&shared->points, ps_series_points_unref);
  g_free (shared);
}

PsSeriesPoints *
ps_series_points_get_shared (PsEventStore *store,
                             GCancellable *cancellable)
{
  PsSeriesPoints *points;
  Shared *shared;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  g_mutex_lock (&shared_lock);
  for (;;)
    {
      shared = g_object_get_data (G_OBJECT (store), SHARED_KEY);
      if (shared == NULL || shared->state == SHARED_MADE)
        break;
      /* Made on another thread: wait, looking at the cancellable now
       * and then */
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_mutex_unlock (&shared_lock);
          return NULL;
        }
      g_cond_wait_until (&shared_changed, &shared_lock, g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
    }
  if (shared != NULL)
    {
      points = ps_series_points_ref (shared->points);
      g_mutex_unlock (&shared_lock);
      return points;
    }
  shared = g_new0 (Shared, 1);
  shared->state = SHARED_MAKING;
  g_object_set_data_full (G_OBJECT (store), SHARED_KEY, shared, (GDestroyNotify)shared_free);
  g_mutex_unlock (&shared_lock);

  points = ps_series_points_new (store, cancellable);

  g_mutex_lock (&shared_lock);
  if (points != NULL)
    {
      shared->points = ps_series_points_ref (points);
      shared->state = SHARED_MADE;
    }
  else
    /* Cancelled: whoever waits makes them */
    g_object_set_data (G_OBJECT (store), SHARED_KEY, NULL);
  g_cond_broadcast (&shared_changed);
  g_mutex_unlock (&shared_lock);
  return points;
}

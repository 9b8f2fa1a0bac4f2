/* ps-series.h — the measured series of a run and their statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One series per (marker instance, measurement kind) — or, grouped by name,
 * per (session, application, description, kind) (specs: ce-perflog.md §4.5,
 * cli.md "stats"). The GUI and perfscope-cli both show these numbers.
 */
#pragma once

#include "ps-event-store.h"
#include "ps-scopes.h"
#include "ps-series-points.h"
#include "ps-stats.h"

G_BEGIN_DECLS

typedef enum
{
  PS_SERIES_DURATION,
  PS_SERIES_CPU,
  PS_SERIES_MEMORY,
  PS_SERIES_COUNTER,
  PS_SERIES_SPAN,
} PsSeriesKind;

typedef struct
{
  char        *name;          /* CE: the marker description */
  char        *app;           /* CE: the application that registered it */
  char        *context;       /* spans: the context of a logical scope, else NULL */
  gboolean     logical;       /* spans: a logical scope (opened by a message) */
  PsSeriesKind kind;
  const char  *unit;          /* "s", "ticks", "percent", "bytes" */
  gint64       id;            /* CE: marker id */
  guint        instance;      /* CE: 1-based registration ordinal of the first instance */
  guint        session;       /* 0-based */
  guint        n_instances;   /* tracks merged into this series (1 unless grouped;
                               * spans: the threads it occurred on) */
  guint32     *tracks;        /* n_instances track indexes */
  guint64      first_line;    /* declaration line of the first instance */
  gboolean     has_seconds;   /* durations: every value had a tick rate */
  guint64      n_excluded;    /* values left out of stats (negative durations) */
  guint64      n_flagged;     /* values flagged (out of range, fractional) */
  /* Values in `unit`, without the excluded ones: in file order (spans: in
   * the order they ended on each thread) */
  GArray      *values;        /* double */
  /* Durations only: the same values in ticks */
  GArray      *ticks;         /* double */
  GArray      *indexes;       /* guint64 global event index of each value */
  PsStats      stats;         /* over values, in `unit` */
  PsStats      ticks_stats;   /* durations only: over ticks */
  double       self_sum;      /* spans: total self time of the measured ones, in `unit` */
  guint32      first_track;   /* where tracks points while there is one */
  /*< private >*/
  gpointer     slab;          /* the block the series was allocated in with
                               * others of its collection, and its name and
                               * app with it; NULL when on its own */
} PsSeries;

typedef struct
{
  gboolean group_by_name;       /* merge instances with the same description */
  gboolean include_negative;    /* put negative durations into statistics */
  double   tick_rate_override;  /* > 0: use instead of the log's RESOLUTION */
  gboolean durations_summary_only; /* keep only the statistics of durations
                                    * and spans: their values, ticks and indexes
                                    * come back empty, which saves 24 bytes an
                                    * event */
  gboolean spans_per_thread;    /* spans: one series per scope name and thread */
  PsScopeFilter *span_filter;   /* spans: only the scopes it keeps; may be NULL */
  gboolean has_index_range;     /* measurements: only those whose global
                                 * index lies in [index_first, index_last] */
  guint64  index_first;
  guint64  index_last;
  gint64  *span_self_times;     /* spans: if set, receives the self time of
                                 * every span of the store (filtered or not),
                                 * indexed like the store's spans */
  GCancellable *cancellable;    /* may be NULL; when it is cancelled the
                                 * collection stops early and its series
                                 * are incomplete */
  PsSeriesPoints *points;       /* the store's points (ps-series-points.h),
                                 * or NULL: with group_by_name and
                                 * durations_summary_only over the whole
                                 * run, the measured series are taken from
                                 * them rather than from the store, where
                                 * they give the same numbers */
} PsSeriesOptions;

const char *ps_series_kind_to_string (PsSeriesKind kind);

/* Returns a GPtrArray of PsSeries* (freed with the array): measurements in
 * the order of the instances' declaration, then spans — one series per
 * session and scope name (and context, for logical scopes; and thread,
 * with spans_per_thread), in the order they first began, with durations
 * in seconds (docs/cli.md "stats"). */
GPtrArray  *ps_series_collect        (PsEventStore          *store,
                                      const PsSeriesOptions *options);
/* The instance series of a group of ps_series_collect () with
 * group_by_name (options' group_by_name is not looked at): what
 * ps_series_collect () without it gives of the group's tracks and kind,
 * in the order of group->tracks, with the same numbers. A marker table
 * asks for them when a group is opened, rather than holding every
 * instance of a log that registers its markers hundreds of thousands of
 * times. Empty for a group of spans. */
GPtrArray  *ps_series_collect_members (PsEventStore          *store,
                                       const PsSeriesOptions *options,
                                       const PsSeries        *group);
void        ps_series_free           (PsSeries              *series);
/* The group of ps_series_collect () with group_by_name that each of the
 * store's tracks joins (its session, application and description), as
 * the group's first track: an array of one per track, freed with
 * g_free (). A CE log whose harness registers its markers again on
 * every pass has thousands of tracks per group. */
guint32    *ps_series_group_leaders  (PsEventStore          *store);
/* A measurement's value in the unit of its series without options:
 * durations in seconds at the rate in effect (in ticks when the session
 * has none), CPU in percent, memory in bytes; NaN for other kinds */
double      ps_series_measurement_value (PsEventStore        *store,
                                         const PsMeasurement *measurement);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsSeries, ps_series_free)

G_END_DECLS

/* ps-counter-changes.h — where a counter's level changed along its time
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 and §8 (counter logs). The change points of
 * ps-change-points.h, looked for along one counter's time rather than
 * across runs: among the means of its overview's buckets
 * (ps-counter-series.h), so that a capture of days costs at most
 * PS_COUNTER_OVERVIEW_BUCKETS values, and each change is placed at the
 * time its bucket begins.
 *
 * A level that moves gradually (memory that leaks) is found as steps of
 * one direction, each beginning where the one before ended. They are one
 * change, a climb or a fall, from the first step to the last; it begins
 * where a line flat and then straight fits the values best, which is
 * where the climb starts rather than where a step first stood out of the
 * noise.
 */
#pragma once

#include "ps-change-points.h"
#include "ps-counter-series.h"
#include "ps-span-lod.h"

G_BEGIN_DECLS

typedef struct
{
  /* The first step; its indexes are of the overview's buckets (those
   * with readings) */
  PsChangePoint point;
  gint64        time_ns;          /* where the change begins */
  gint64        end_ns;           /* where its last step is: time_ns for a step */
  gint64        before_begin_ns;  /* the time compared: [before_begin_ns, time_ns) … */
  gint64        after_end_ns;     /* … against [end_ns, after_end_ns) */
  guint         n_steps;          /* 1 for a step, more for a climb or a fall */
  double        mean_before;      /* of [before_begin_ns, time_ns); of the
                                   * points themselves for a step found by
                                   * ps_counter_changes_find_in_points () */
  double        mean_after;       /* of the last step's after */
  double        relative_change;  /* of the two means, as PsChangePoint's */
} PsCounterChange;

/* PsCounterChange, in time order; empty for fewer than two buckets */
GArray *ps_counter_changes_find (const PsCounterOverview  *overview,
                                 const PsChangePointOptions *options);

/* The same of a series of points that is not a counter track of a store
 * (a CE application's CPU or memory over the sequence of measurements):
 * x ascending, in the unit the changes' times are given in; a value that
 * is not finite is missing */
GArray *ps_counter_changes_find_in_points (const gint64               *x,
                                           const double               *values,
                                           gsize                       n_points,
                                           const PsChangePointOptions *options);
/* The same of the points of a chart, read where they are */
GArray *ps_counter_changes_find_in_lod    (PsValueLod                 *values,
                                           const PsChangePointOptions *options);

/* Has each change begin at the first reading of values (the series the
 * changes were found in) at or after its time, and its last step
 * likewise, as the charts mark it */
void    ps_counter_changes_snap_to_readings (GArray     *changes,
                                             PsValueLod *values);

G_END_DECLS

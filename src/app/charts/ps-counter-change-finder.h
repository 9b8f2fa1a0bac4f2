/* ps-counter-change-finder.h — the change points of counters, found in a
 * worker for the charts
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ps-counter-chart.h"
#include "ps-event-store.h"

G_BEGIN_DECLS

/* The changes of each of tracks (ps_counter_changes_find () with the
 * default options), from their overviews copied now: a store still being
 * recorded may grow meanwhile */
void       ps_counter_changes_find_async  (PsEventStore       *store,
                                           const guint32      *tracks,
                                           guint               n_tracks,
                                           GCancellable       *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer            user_data);
/* A GArray of PsCounterChange for each track, in the order of tracks
 * (NULL for a track without readings); NULL when cancelled */
GPtrArray *ps_counter_changes_find_finish (GAsyncResult       *result,
                                           GError            **error);

/* Marks on chart the changes of its series, the counters tracks of store
 * in the order of the series, once they are found; a chart asked again
 * forgets the question before */
void       ps_counter_chart_find_changes  (PsCounterChart     *chart,
                                           PsEventStore       *store,
                                           const guint32      *tracks,
                                           guint               n_tracks);

G_END_DECLS

/* ps-counter-range.h — statistics of counter tracks over a range of time
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

/* The statistics of every track over its kept readings from begin_ns to
 * end_ns, both included, taken as the store takes those of the whole
 * run: an array of ps_event_store_get_n_tracks () entries, indexed by
 * track (g_free ()). The store keeps one reading in
 * ps_event_store_get_counter_stride (): past 1, these are the statistics
 * of the readings kept. NULL with an error when cancelled. */
PsCounterStats *ps_counter_range_stats (PsEventStore  *store,
                                        gint64         begin_ns,
                                        gint64         end_ns,
                                        GCancellable  *cancellable,
                                        GError       **error);

G_END_DECLS

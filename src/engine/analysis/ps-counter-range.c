/* ps-counter-range.c — statistics of counter tracks over a range of time
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The statistics of the whole run are kept by the store as readings
 * arrive (ps-counter-series.c); those of a range selected afterwards are
 * made from the kept readings, in one pass for every track, with the
 * same ps_counter_stats_add (). The readings are in the order they were
 * added, which a clock step can take out of time order: the pass reads
 * them all rather than searching for the range's first.
 */
#include "config.h"

#include "ps-counter-range.h"

/* How many readings between two looks at the cancellable */
#define CANCEL_CHECK_INTERVAL (1u << 16)

PsCounterStats *
ps_counter_range_stats (PsEventStore  *store,
                        gint64         begin_ns,
                        gint64         end_ns,
                        GCancellable  *cancellable,
                        GError       **error)
{
  guint n_tracks;
  guint64 n_values;
  g_autofree PsCounterStats *stats = NULL;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  n_tracks = ps_event_store_get_n_tracks (store);
  n_values = ps_event_store_get_n_counter_values (store);
  stats = g_new (PsCounterStats, MAX (n_tracks, 1u));
  for (guint t = 0; t < n_tracks; t++)
    ps_counter_stats_init (&stats[t]);

  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if ((i % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (value->time_ns < begin_ns || value->time_ns > end_ns || value->track >= n_tracks)
        continue;
      ps_counter_stats_add (&stats[value->track], value->time_ns, value->value,
                            (value->flags & PS_COUNTER_FLAG_MISSING) != 0);
    }
  return g_steal_pointer (&stats);
}

/* ps-series-private.h — what the collection of a run's series shares
 * between its measurements (ps-series.c) and its spans
 * (ps-series-spans.c)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-series.h"

G_BEGIN_DECLS

/* Adds a track to the ones merged into series */
void _ps_series_add_track      (PsSeries              *series,
                                guint32                track_index);
/* Appends the series of the store's spans to result, in the order their
 * scopes first began */
void _ps_series_collect_spans  (PsEventStore          *store,
                                const PsSeriesOptions *options,
                                GPtrArray             *result);

G_END_DECLS

/* ps-marker-row.h — one row of the marker table: a group or an instance
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small item object made by the table's models on demand; it points at
 * a PsSeries of a PsRunAnalysis and exposes its statistics as properties
 * for sorters.
 */
#pragma once

#include <glib-object.h>

#include "ps-run-analysis.h"

G_BEGIN_DECLS

#define PS_TYPE_MARKER_ROW (ps_marker_row_get_type ())
G_DECLARE_FINAL_TYPE (PsMarkerRow, ps_marker_row, PS, MARKER_ROW, GObject)

PsMarkerRow    *ps_marker_row_new                  (PsRunAnalysis *analysis,
                                                    PsSeries      *series,
                                                    gboolean       is_group);
const PsSeries *ps_marker_row_get_series           (PsMarkerRow   *self);
PsRunAnalysis  *ps_marker_row_get_analysis         (PsMarkerRow   *self);
gboolean        ps_marker_row_is_group             (PsMarkerRow   *self);
/* The description as valid UTF-8 (Latin-1 fallback) */
const char     *ps_marker_row_get_name             (PsMarkerRow   *self);
/* The description with %AVG%, %MIN%, %MAX% and %key% expanded */
const char     *ps_marker_row_get_expanded_name    (PsMarkerRow   *self);
/* The expanded value of one description key, or NULL */
const char     *ps_marker_row_get_description_value (PsMarkerRow  *self,
                                                     const char   *key);
const char     *ps_marker_row_get_app              (PsMarkerRow   *self);
guint64         ps_marker_row_get_count            (PsMarkerRow   *self);
gboolean        ps_marker_row_has_seconds          (PsMarkerRow   *self);
/* Statistics in seconds (or ticks without a tick rate) */
double          ps_marker_row_get_min              (PsMarkerRow   *self);
double          ps_marker_row_get_max              (PsMarkerRow   *self);
double          ps_marker_row_get_mean             (PsMarkerRow   *self);
double          ps_marker_row_get_median           (PsMarkerRow   *self);
double          ps_marker_row_get_p95              (PsMarkerRow   *self);
double          ps_marker_row_get_stddev           (PsMarkerRow   *self);
double          ps_marker_row_get_total            (PsMarkerRow   *self);
double          ps_marker_row_get_mean_ticks       (PsMarkerRow   *self);
double          ps_marker_row_get_total_ticks      (PsMarkerRow   *self);

G_END_DECLS

/* ps-scope-total-row.h — one row of the totals table: a scope name's statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §5 (the "Totals" sheet: total, minimal, maximal,
 * average time and number of calls per function). Points at a PsSeries of
 * kind PS_SERIES_SPAN of a PsScopeAnalysis and exposes its statistics as
 * properties for sorters.
 */
#pragma once

#include <glib-object.h>

#include "ps-scope-analysis.h"

G_BEGIN_DECLS

#define PS_TYPE_SCOPE_TOTAL_ROW (ps_scope_total_row_get_type ())
G_DECLARE_FINAL_TYPE (PsScopeTotalRow, ps_scope_total_row, PS, SCOPE_TOTAL_ROW, GObject)

PsScopeTotalRow *ps_scope_total_row_new          (PsScopeAnalysis *analysis,
                                                  PsSeries        *series);
const PsSeries  *ps_scope_total_row_get_series   (PsScopeTotalRow *self);
/* Valid UTF-8 */
const char      *ps_scope_total_row_get_name     (PsScopeTotalRow *self);
/* The context of a logical scope, "" for a physical one */
const char      *ps_scope_total_row_get_context  (PsScopeTotalRow *self);
/* The thread ids in numeric order, "1, 3" */
const char      *ps_scope_total_row_get_threads  (PsScopeTotalRow *self);
guint64          ps_scope_total_row_get_calls    (PsScopeTotalRow *self);
/* Seconds */
double           ps_scope_total_row_get_total    (PsScopeTotalRow *self);
double           ps_scope_total_row_get_min      (PsScopeTotalRow *self);
double           ps_scope_total_row_get_max      (PsScopeTotalRow *self);
double           ps_scope_total_row_get_mean     (PsScopeTotalRow *self);
double           ps_scope_total_row_get_median   (PsScopeTotalRow *self);
double           ps_scope_total_row_get_self     (PsScopeTotalRow *self);
guint64          ps_scope_total_row_get_excluded (PsScopeTotalRow *self);

G_END_DECLS

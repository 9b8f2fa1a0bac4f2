/* ps-trend-row.h — a row of a trend, as an item of the Trend page's list
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "ps-trend.h"

G_BEGIN_DECLS

#define PS_TYPE_TREND_ROW (ps_trend_row_get_type ())
G_DECLARE_FINAL_TYPE (PsTrendRowItem, ps_trend_row, PS, TREND_ROW, GObject)

/* row belongs to a trend the caller keeps while the item is in a list */
PsTrendRowItem   *ps_trend_row_new     (const PsTrendRow *row);
const PsTrendRow *ps_trend_row_get_row (PsTrendRowItem   *self);
/* The change point of the largest |relative change|, or NULL */
const PsChangePoint *ps_trend_row_get_largest (PsTrendRowItem *self);

G_END_DECLS

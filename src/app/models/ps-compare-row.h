/* ps-compare-row.h — one row of a comparison, as an item of a list model
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "ps-run-diff.h"

G_BEGIN_DECLS

#define PS_TYPE_COMPARE_ROW (ps_compare_row_get_type ())

G_DECLARE_FINAL_TYPE (PsCompareRow, ps_compare_row, PS, COMPARE_ROW, GObject)

/* Keeps its own copy of row */
PsCompareRow       *ps_compare_row_new        (const PsRunDiffRow *row);
const PsRunDiffRow *ps_compare_row_get_row    (PsCompareRow       *self);
/* Present in A and in B */
gboolean            ps_compare_row_is_matched (PsCompareRow       *self);

G_END_DECLS

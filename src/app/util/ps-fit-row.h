/* ps-fit-row.h — a row of widgets that asks for little and uses the
 * room it is given
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PS_TYPE_FIT_ROW (ps_fit_row_get_type ())

/* Built from templates (ps-compare-page.ui): "spacing" between the
 * children, "natural-chars" the most each asks for */
G_DECLARE_FINAL_TYPE (PsFitRow, ps_fit_row, PS, FIT_ROW, GtkWidget)

G_END_DECLS

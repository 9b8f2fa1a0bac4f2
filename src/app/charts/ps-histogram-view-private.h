/* ps-histogram-view-private.h — for the tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-histogram-view.h"

G_BEGIN_DECLS

/* Draws the view as its snapshot does, at the given size */
void     ps_histogram_view_draw          (PsHistogramView *self,
                                          cairo_t         *cr,
                                          int              width,
                                          int              height);
/* Where the bars go at that size: the bins span its width, and a bar of
 * the highest tick reaches its top; FALSE with nothing to draw */
gboolean ps_histogram_view_get_plot_area (PsHistogramView *self,
                                          int              width,
                                          int              height,
                                          graphene_rect_t *area);
/* The title of the x (horizontal) or y axis, with its unit, as drawn;
 * NULL with nothing to draw */
char    *ps_histogram_view_dup_axis_title (PsHistogramView *self,
                                           GtkOrientation   orientation);
/* The top of the value axis (count, or total in seconds) */
double   ps_histogram_view_get_y_top     (PsHistogramView *self);
/* The colour of a bar */
void     ps_histogram_view_get_bar_color (gboolean         selected,
                                          GdkRGBA         *color);

G_END_DECLS

/* ps-histogram-view.h — the distribution of durations as a bar chart
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Bars of a PsHistogram of durations in seconds, by count or by total
 * time, on a linear or logarithmic axis, with the median and the 95th
 * percentile marked. A range of bins can be selected with the mouse
 * (drag) or the keyboard (arrows, Shift+arrows, Escape) to pick out the
 * values in it (brushing).
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-histogram.h"

G_BEGIN_DECLS

/* A selected range of bins and the values it covers, in seconds: lower is
 * inclusive; upper is exclusive unless last_bin is the last bin */
typedef struct
{
  guint  first_bin;
  guint  last_bin;
  double lower;
  double upper;
} PsHistogramSelection;

#define PS_TYPE_HISTOGRAM_SELECTION (ps_histogram_selection_get_type ())
GType                 ps_histogram_selection_get_type  (void) G_GNUC_CONST;
PsHistogramSelection *ps_histogram_selection_copy      (const PsHistogramSelection *self);
void                  ps_histogram_selection_free      (PsHistogramSelection       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsHistogramSelection, ps_histogram_selection_free)

#define PS_TYPE_HISTOGRAM_VIEW (ps_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (PsHistogramView, ps_histogram_view, PS, HISTOGRAM_VIEW, GtkWidget)

GtkWidget         *ps_histogram_view_new             (void);
/* Durations in seconds, copied. Clears the selection. */
void               ps_histogram_view_set_values      (PsHistogramView *self,
                                                      const double    *values,
                                                      gsize            count);
void               ps_histogram_view_clear           (PsHistogramView *self);
/* A second sample (values in seconds, or NULL) drawn as an outline over
 * the bars, both on the bins of their union, with a legend naming the
 * bars and the outline; set the bars' values first */
void               ps_histogram_view_set_overlay     (PsHistogramView *self,
                                                      const double    *values,
                                                      gsize            count,
                                                      const char      *bars_label,
                                                      const char      *overlay_label);
/* The outline's histogram, NULL without one */
const PsHistogram *ps_histogram_view_get_overlay     (PsHistogramView *self);
/* NULL when there are no values */
const PsHistogram *ps_histogram_view_get_histogram   (PsHistogramView *self);
gboolean           ps_histogram_view_get_log_scale   (PsHistogramView *self);
/* Lays out the bins again: clears the selection */
void               ps_histogram_view_set_log_scale   (PsHistogramView *self,
                                                      gboolean         log_scale);
gboolean           ps_histogram_view_get_by_total    (PsHistogramView *self);
void               ps_histogram_view_set_by_total    (PsHistogramView *self,
                                                      gboolean         by_total);
const char        *ps_histogram_view_get_title       (PsHistogramView *self);
/* The values' unit: NULL or "s" for durations in seconds (the default),
 * "bytes", "percent", or another unit printed as it is ("" for none) */
const char        *ps_histogram_view_get_unit        (PsHistogramView *self);
void               ps_histogram_view_set_unit        (PsHistogramView *self,
                                                      const char      *unit);
void               ps_histogram_view_set_title       (PsHistogramView *self,
                                                      const char      *title);
/* What the view says when it has no values, in place of "No durations"
 * (NULL for that): why there are none */
void               ps_histogram_view_set_empty_text  (PsHistogramView *self,
                                                      const char      *text);
/* What the view says when it has no values */
const char        *ps_histogram_view_get_empty_text  (PsHistogramView *self);
/* FALSE when nothing is selected; first and last may be NULL */
gboolean           ps_histogram_view_get_selection   (PsHistogramView *self,
                                                      guint           *first_bin,
                                                      guint           *last_bin);
/* Selects the bins first..last (clamped; first > last swaps them) */
void               ps_histogram_view_select_bins     (PsHistogramView *self,
                                                      guint            first_bin,
                                                      guint            last_bin);
void               ps_histogram_view_unselect        (PsHistogramView *self);
/* Whether a duration falls in the selection (FALSE without one) */
gboolean           ps_histogram_view_selection_contains (PsHistogramView *self,
                                                         double           seconds);
/* Draws the view as it is shown (bins, selection, overlay, axes with their
 * units, legend) into a width × height area at cr's origin, for a picture */
void               ps_histogram_view_draw_picture    (PsHistogramView *self,
                                                      cairo_t         *cr,
                                                      int              width,
                                                      int              height);

G_END_DECLS

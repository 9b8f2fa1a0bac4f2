/* ps-timeline-view.h — what happened when: threads, spans, marks, values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-run-analysis.h"
#include "ps-session.h"
#include "ps-timeline-render.h"

G_BEGIN_DECLS

#define PS_TYPE_TIMELINE_VIEW (ps_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (PsTimelineView, ps_timeline_view, PS, TIMELINE_VIEW, GtkWidget)

GtkWidget       *ps_timeline_view_new            (void);
/* The view follows the session's visible range, selection and highlight,
 * and sets them. analysis gives CE runs their marker charts. */
void             ps_timeline_view_set_session    (PsTimelineView *self,
                                                  PsSession      *session,
                                                  PsRunAnalysis  *analysis);
PsSession       *ps_timeline_view_get_session    (PsTimelineView *self);
/* NULL until the run's index is built */
PsTimelineModel *ps_timeline_view_get_model      (PsTimelineView *self);

/* The stored values each chart of the run spans (from zero), by the
 * charts' value_key (PsTimelineRow): a new table of
 * PsTimelineValueRange; "value-ranges-changed" tells when they change */
GHashTable      *ps_timeline_view_get_value_ranges (PsTimelineView *self);
/* The charts whose value_key is in ranges span that range at least (the
 * union of two runs' ranges: one scale for the same chart of both runs
 * compared); NULL: each chart spans its own values. The view keeps a
 * reference to ranges, which is not to be changed afterwards. */
void             ps_timeline_view_set_shared_value_ranges (PsTimelineView *self,
                                                           GHashTable     *ranges);
/* The stored values from the bottom to the top of a chart (an index of
 * the model's rows) as drawn; FALSE for other rows */
gboolean         ps_timeline_view_get_row_value_range (PsTimelineView *self,
                                                       guint           row,
                                                       double         *v_min,
                                                       double         *v_max);

void             ps_timeline_view_zoom           (PsTimelineView *self,
                                                  double          factor,
                                                  double          anchor_x);
void             ps_timeline_view_reset_zoom     (PsTimelineView *self);
void             ps_timeline_view_zoom_to_selection (PsTimelineView *self);

/* The keyboard's span, PS_SPAN_LOD_NO_SPAN if none */
guint64          ps_timeline_view_get_cursor_span (PsTimelineView *self);
void             ps_timeline_view_set_cursor_span (PsTimelineView *self,
                                                   guint64         span);
/* The line shown at the bottom: about the cursor's span, else what is
 * highlighted, or NULL */
const char      *ps_timeline_view_get_status     (PsTimelineView *self);
/* What a tooltip at (x, y) would say, or NULL (tests) */
char            *ps_timeline_view_describe_at    (PsTimelineView *self,
                                                  double          x,
                                                  double          y);
/* What a drag of the primary button from one point to another does */
void             ps_timeline_view_drag           (PsTimelineView *self,
                                                  double          from_x,
                                                  double          from_y,
                                                  double          to_x,
                                                  double          to_y);
/* What a click of the primary button at (x, y) does, released where it
 * was pressed */
void             ps_timeline_view_click          (PsTimelineView *self,
                                                  double          x,
                                                  double          y);
/* The widget y of the top of a track's first row shown, -1 when it has
 * none or their groups are collapsed (it may lie outside the widget) */
double           ps_timeline_view_get_row_y      (PsTimelineView *self,
                                                  guint32         track);
/* Statistics of the last frame drawn */
const PsTimelineStats *ps_timeline_view_get_frame_stats (PsTimelineView *self);
/* The width of the label column left of the rows, which follows its
 * labels (ps_timeline_model_label_width ()) */
double           ps_timeline_view_get_label_width (PsTimelineView *self);
/* The text drawn as the label of row (an index of the model's rows): the
 * label, or the label cut to the column; NULL for a group */
const char      *ps_timeline_view_get_row_label  (PsTimelineView *self,
                                                  guint           row);
/* The widget x of a time (or sequence number) */
double           ps_timeline_view_x_of           (PsTimelineView *self,
                                                  gint64          value);
/* The widget y of the middle of a span's bar, or -1 when not shown */
double           ps_timeline_view_span_y         (PsTimelineView *self,
                                                  guint64         span);
/* Whether a frame was painted since the view got its current rows */
gboolean         ps_timeline_view_has_drawn_model (PsTimelineView *self);
/* Draws the view as it is shown (visible range, scroll position, selection,
 * highlight, axis and row labels) into a width × height area at cr's
 * origin, for a picture */
void             ps_timeline_view_draw_picture   (PsTimelineView *self,
                                                  cairo_t        *cr,
                                                  int             width,
                                                  int             height);

G_END_DECLS

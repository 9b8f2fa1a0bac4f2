/* ps-timeline-view-private.h — what the timeline's widget
 * (ps-timeline-view.c), its drawing and tooltips (ps-timeline-view-draw.c),
 * what it follows of the session (ps-timeline-view-follow.c) and its
 * pointer and keyboard (ps-timeline-view-input.c) share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-picture-source.h"
#include "ps-timeline-view.h"

G_BEGIN_DECLS

/* How far a pan moves the view, as a share of the visible range: the
 * keys' step and the horizontal scrollbar's */
#define PAN_FRACTION      0.1
/* The pixels that what another view chose takes at least once brought
 * into view: a chosen span of fewer than a few is zoomed into until it
 * takes this many, the points of focused charts that take fewer until
 * they fill the plot */
#define MIN_REVEAL_PIXELS 40.0

typedef enum
{
  DRAG_NONE,
  DRAG_SELECT,
  DRAG_PAN,
  DRAG_OVERVIEW,
} DragMode;

struct _PsTimelineView
{
  GtkWidget        parent_instance;

  PsSession       *session;
  PsRunAnalysis   *analysis;
  PsTimelineModel *model;
  /* Counts the models installed; the last frame drew model number
   * drawn_serial */
  guint            model_serial;
  guint            drawn_serial;
  GCancellable    *cancellable;
  GCancellable    *samples_cancellable;  /* sample rows of another source */
  gulong           visible_handler;
  gulong           selection_handler;
  gulong           lod_handler;
  gulong           highlight_handler;
  gulong           counter_tracks_handler;
  gulong           sample_source_handler;
  gulong           focus_handler;
  gulong           points_handler;
  gulong           log_session_handler;
  /* What of the session's choice the view has followed (another view
   * chose it, or this one) */
  GArray          *followed_focus;   /* guint32 */
  /* The rows of the session's focused tracks, as the tracks of their
   * rows (ps_timeline_model_chart_track ()): a CE marker's instances
   * share a row. Found again by ps_timeline_view_find_focus_charts (),
   * which ps_timeline_view_row_is_focused () goes by. */
  GArray          *focus_charts;     /* guint32 */
  guint64          followed_span;
  guint64          followed_mark;
  guint64          followed_measurement;

  GtkAdjustment   *hadjustment;
  GtkAdjustment   *vadjustment;
  guint            hscroll_policy : 1;
  guint            vscroll_policy : 1;
  gboolean         updating_adjustments;

  DragMode         drag_mode;
  double           drag_start_x;
  double           drag_start_y;
  gint64           drag_begin;    /* the visible range when the drag began */
  gint64           drag_end;
  gint64           drag_anchor;   /* where a selection began */
  double           zoom_scale;    /* pinch: the scale handled so far */
  double           pointer_x;     /* where Ctrl+scroll zooms around */

  guint64          cursor_span;
  int              cursor_row;
  char            *status;        /* about the cursor's span, one line */
  char            *highlight_status; /* what is highlighted, else */
  PsTimelineStats  stats;
  GtkWidget       *picture_menu;  /* the context menu, once shown */
  guint            keep_cursor_id; /* brings the cursor's row back into view */
  guint            keep_highlight_id; /* and the highlighted calls' first row */
  int              allocated_height;
  GHashTable      *shared_ranges;  /* value key → PsTimelineValueRange, or NULL */
};

/* Ranges, zoom, rows and spans, scrolling (ps-timeline-view.c) */
void           ps_timeline_view_set_visible        (PsTimelineView *self,
                                                    double          begin,
                                                    double          end);
void           ps_timeline_view_get_visible        (PsTimelineView *self,
                                                    gint64         *begin,
                                                    gint64         *end);
double         ps_timeline_view_label_width_at     (PsTimelineView *self,
                                                    int             width);
double         ps_timeline_view_label_width        (PsTimelineView *self);
void           ps_timeline_view_find_focus_charts  (PsTimelineView *self);
gboolean       ps_timeline_view_row_is_focused     (PsTimelineView      *self,
                                                    const PsTimelineRow *row);
void           ps_timeline_view_focus_row          (PsTimelineView      *self,
                                                    const PsTimelineRow *row);
void           ps_timeline_view_fill_frame         (PsTimelineView  *self,
                                                    PsTimelineFrame *frame);
double         ps_timeline_view_value_at           (PsTimelineView *self,
                                                    double          x);
void           ps_timeline_view_zoom_to            (PsTimelineView *self,
                                                    gint64          begin,
                                                    gint64          end);
double         ps_timeline_view_cursor_anchor_x    (PsTimelineView *self);
void           ps_timeline_view_pan                (PsTimelineView *self,
                                                    double          fraction);
PsTimelineRow *ps_timeline_view_get_row            (PsTimelineView *self,
                                                    int             index);
int            ps_timeline_view_row_of_track       (PsTimelineView *self,
                                                    guint32         track);
int            ps_timeline_view_row_at             (PsTimelineView *self,
                                                    double          y);
double         ps_timeline_view_rows_y             (PsTimelineView *self,
                                                    double          y);
double         ps_timeline_view_slop               (PsTimelineView *self);
guint64        ps_timeline_view_span_at            (PsTimelineView *self,
                                                    double          x,
                                                    double          y);
void           ps_timeline_view_show_row           (PsTimelineView *self,
                                                    int             index,
                                                    gboolean        whole);
void           ps_timeline_view_reveal_range       (PsTimelineView *self,
                                                    gint64          from,
                                                    gint64          to,
                                                    gboolean        legible);
void           ps_timeline_view_reveal_span        (PsTimelineView *self,
                                                    guint64         span,
                                                    gboolean        legible);
void           ps_timeline_view_select_span        (PsTimelineView *self,
                                                    guint64         span);
void           ps_timeline_view_update_adjustments (PsTimelineView *self);

/* Tooltips, accessibility, drawing (ps-timeline-view-draw.c) */
gboolean ps_timeline_view_query_tooltip_cb    (PsTimelineView *self,
                                               int             x,
                                               int             y,
                                               gboolean        keyboard,
                                               GtkTooltip     *tooltip);
void     ps_timeline_view_update_accessible   (PsTimelineView *self);
void     ps_timeline_view_snapshot            (GtkWidget   *widget,
                                               GtkSnapshot *snapshot);
void     ps_timeline_view_picture_source_init (PsPictureSourceInterface *iface);

/* What the view follows of the session (ps-timeline-view-follow.c) */
void ps_timeline_view_highlight_changed_cb (PsTimelineView *self);
/* The highlighted spans' first row back into view, the visible range
 * as it is (the timeline got shorter) */
void ps_timeline_view_keep_highlight_in_view (PsTimelineView *self);
void ps_timeline_view_points_changed_cb    (PsTimelineView *self);
void ps_timeline_view_follow_session       (PsTimelineView *self);
void ps_timeline_view_show_log_session     (PsTimelineView *self);
void ps_timeline_view_forget_followed      (PsTimelineView *self);

/* Pointer and keyboard (ps-timeline-view-input.c) */
void     ps_timeline_view_toggle_group          (PsTimelineView *self,
                                                 int             index);
void     ps_timeline_view_click_pressed_cb      (PsTimelineView  *self,
                                                 int              n_press,
                                                 double           x,
                                                 double           y,
                                                 GtkGestureClick *gesture);
void     ps_timeline_view_click_released_cb     (PsTimelineView  *self,
                                                 int              n_press,
                                                 double           x,
                                                 double           y,
                                                 GtkGestureClick *gesture);
void     ps_timeline_view_drag_begin_cb         (PsTimelineView *self,
                                                 double          x,
                                                 double          y,
                                                 GtkGestureDrag *gesture);
void     ps_timeline_view_drag_update_cb        (PsTimelineView *self,
                                                 double          offset_x,
                                                 double          offset_y,
                                                 GtkGestureDrag *gesture);
void     ps_timeline_view_drag_end_cb           (PsTimelineView *self,
                                                 double          offset_x,
                                                 double          offset_y,
                                                 GtkGestureDrag *gesture);
void     ps_timeline_view_motion_cb             (PsTimelineView           *self,
                                                 double                    x,
                                                 double                    y,
                                                 GtkEventControllerMotion *controller);
gboolean ps_timeline_view_scroll_cb             (PsTimelineView           *self,
                                                 double                    dx,
                                                 double                    dy,
                                                 GtkEventControllerScroll *controller);
void     ps_timeline_view_zoom_begin_cb         (PsTimelineView *self,
                                                 GdkEventSequence *sequence,
                                                 GtkGestureZoom   *gesture);
void     ps_timeline_view_zoom_scale_changed_cb (PsTimelineView *self,
                                                 double          scale,
                                                 GtkGestureZoom *gesture);
void     ps_timeline_view_action                (GtkWidget  *widget,
                                                 const char *action_name,
                                                 GVariant   *parameter);
gboolean ps_timeline_view_key_binding           (GtkWidget *widget,
                                                 GVariant  *args,
                                                 gpointer   user_data);
gboolean ps_timeline_view_focus_changed_cb      (PsTimelineView *self);

G_END_DECLS

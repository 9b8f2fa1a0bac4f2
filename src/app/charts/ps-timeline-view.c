/* ps-timeline-view.c — what happened when: threads, spans, marks, values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws with ps_timeline_render() and handles the pointer and the keyboard:
 * Ctrl+scroll, pinch, +/− zoom around the pointer or the cursor; drag in
 * the rows selects a time range, drag on the axis or with the middle
 * button pans, drag in the overview moves the view; a click on a span
 * selects its time range, a double click zooms to it. The arrow keys move
 * a cursor from span to span (left/right on one depth, up to the parent
 * and down to a child), Enter selects the cursor's span and zooms to it,
 * Escape clears the selection and the highlight.
 *
 * The view is a GtkScrollable: the vertical adjustment scrolls the rows
 * (the overview and the axis stay), the horizontal one is the visible
 * range over the whole run, so a GtkScrolledWindow gives it both
 * scrollbars.
 *
 * The model is built in a worker thread once the session's index is ready;
 * CE runs collect their measurements into charts there.
 *
 * What a frame shows and says is in ps-timeline-view-draw.c, what the view
 * follows of the other views' choices in ps-timeline-view-follow.c, and
 * the pointer and the keyboard in ps-timeline-view-input.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-chart-util.h"
#include "ps-picture-export.h"
#include "ps-selection-util.h"
#include "ps-task-util.h"
#include "ps-timeline-view-private.h"

#define MIN_VISIBLE_NS    1000          /* 1 µs across the plot */
#define MIN_VISIBLE_STEPS 10            /* on a sequence axis */
#define MAX_SEQUENCE_SPAN 100.0         /* times the run's sequence shown */
#define HIT_SLOP_PIXELS   3.0

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS,

  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

enum {
  VALUE_RANGES_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (PsTimelineView, ps_timeline_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL)
                               G_IMPLEMENT_INTERFACE (PS_TYPE_PICTURE_SOURCE, ps_timeline_view_picture_source_init))

/* Ranges */

static gint64
min_visible (PsTimelineView *self)
{
  return self->model != NULL && self->model->sequence_axis ? MIN_VISIBLE_STEPS : MIN_VISIBLE_NS;
}

/* Sets the visible range, kept inside the run and at least the minimum */
void
ps_timeline_view_set_visible (PsTimelineView *self,
                              double          begin,
                              double          end)
{
  double extent_begin, extent_end, length;

  if (self->session == NULL || self->model == NULL)
    return;

  extent_begin = (double)self->model->extent_begin;
  extent_end = (double)self->model->extent_end;
  length = CLAMP (end - begin, (double)min_visible (self), extent_end - extent_begin);
  if (length <= 0)
    length = 1;
  begin = CLAMP (begin, extent_begin, MAX (extent_end - length, extent_begin));
  ps_session_set_visible_range (self->session, (gint64)floor (begin), (gint64)floor (begin + length));
}

void
ps_timeline_view_get_visible (PsTimelineView *self,
                              gint64         *begin,
                              gint64         *end)
{
  *begin = 0;
  *end = 1;
  if (self->session != NULL)
    ps_session_get_visible_range (self->session, begin, end);
}

static PsValueLod *
points_of_track (gpointer data,
                 guint32  track)
{
  return ps_session_get_highlight_points (data, track);
}

/* The session's focused tracks as the tracks of their rows, each once
 * where they follow one another (a CE marker's instances, in order) */
void
ps_timeline_view_find_focus_charts (PsTimelineView *self)
{
  guint n_focus = 0;
  const guint32 *focus = self->session != NULL ? ps_session_get_focus_tracks (self->session, &n_focus) : NULL;

  g_array_set_size (self->focus_charts, 0);
  for (guint i = 0; i < n_focus; i++)
    {
      guint32 chart = self->model != NULL ? ps_timeline_model_chart_track (self->model, focus[i]) : focus[i];

      if (self->focus_charts->len == 0
          || g_array_index (self->focus_charts, guint32, self->focus_charts->len - 1) != chart)
        g_array_append_val (self->focus_charts, chart);
    }
}

gboolean
ps_timeline_view_row_is_focused (PsTimelineView      *self,
                                 const PsTimelineRow *row)
{
  const guint32 *charts = (const guint32 *)(gpointer)self->focus_charts->data;

  for (guint i = 0; i < self->focus_charts->len; i++)
    if (charts[i] == row->track)
      return TRUE;
  return FALSE;
}

/* A row chosen here focuses what it charts: its thread or counter, or
 * every instance of its CE marker */
void
ps_timeline_view_focus_row (PsTimelineView      *self,
                            const PsTimelineRow *row)
{
  guint n_members = 0;
  g_autofree guint32 *members = row->track != PS_NONE
                                ? ps_timeline_model_get_chart_members (self->model, row->track, &n_members) : NULL;

  g_array_set_size (self->followed_focus, 0);
  g_array_append_vals (self->followed_focus, members, n_members);
  ps_session_set_focus_tracks (self->session, members, n_members);
}

/* The width of the label column at the view's width, or at another one
 * (a picture's) */
double
ps_timeline_view_label_width_at (PsTimelineView *self,
                                 int             width)
{
  if (self->model == NULL)
    return PS_TIMELINE_LABEL_WIDTH;
  return ps_timeline_model_label_width (self->model, gtk_widget_get_pango_context (GTK_WIDGET (self)), width);
}

double
ps_timeline_view_label_width (PsTimelineView *self)
{
  return ps_timeline_view_label_width_at (self, gtk_widget_get_width (GTK_WIDGET (self)));
}

void
ps_timeline_view_fill_frame (PsTimelineView  *self,
                             PsTimelineFrame *frame)
{
  GtkWidget *widget = GTK_WIDGET (self);

  memset (frame, 0, sizeof *frame);
  frame->width = gtk_widget_get_width (widget);
  frame->height = gtk_widget_get_height (widget);
  frame->label_width = ps_timeline_view_label_width (self);
  frame->scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  ps_timeline_view_get_visible (self, &frame->begin, &frame->end);
  if (self->session != NULL)
    {
      frame->has_selection = ps_session_get_selection (self->session, &frame->selection_begin,
                                                       &frame->selection_end);
      frame->highlight = ps_session_get_highlight (self->session);
    }
  if (self->session != NULL)
    {
      guint64 measurement = ps_session_get_selected_measurement (self->session);
      guint64 mark = ps_session_get_selected_mark (self->session);

      ps_timeline_view_find_focus_charts (self);
      frame->focus_tracks = (const guint32 *)(gpointer)self->focus_charts->data;
      frame->n_focus_tracks = self->focus_charts->len;
      frame->points_of_track = points_of_track;
      frame->points_data = self->session;
      frame->has_highlight_points = ps_session_get_highlight_points_extent (self->session, NULL, NULL);
      if (mark != PS_SESSION_NO_MARK && self->model != NULL)
        {
          const PsMark *m = ps_event_store_get_mark (self->model->store, mark);

          frame->has_chosen_mark = TRUE;
          frame->chosen_mark_track = m->track;
          frame->chosen_mark_time = m->time_ns;
        }
      if (measurement != PS_SESSION_NO_MEASUREMENT && self->model != NULL && self->model->sequence_axis)
        {
          PsMeasurement m;

          ps_event_store_get_measurement (self->model->store, measurement, &m);
          frame->has_chosen_point = TRUE;
          frame->chosen_point_track = ps_timeline_model_chart_track (self->model, m.track);
          frame->chosen_point_x = (gint64)m.index;
        }
    }
  frame->cursor_span = self->cursor_span;
  frame->cursor_row = self->cursor_row;
  frame->status = self->status != NULL ? self->status : self->highlight_status;
  frame->shared_ranges = self->shared_ranges;
  frame->focused = gtk_widget_has_focus (widget);
  frame->pango = gtk_widget_get_pango_context (widget);
  ps_chart_get_foreground (widget, &frame->foreground);
  frame->dark = 0.299 * frame->foreground.red + 0.587 * frame->foreground.green
                + 0.114 * frame->foreground.blue > 0.5;
  /* The "view" background of the light and dark styles */
  frame->background = frame->dark ? (GdkRGBA){ 0.118, 0.118, 0.118, 1 } : (GdkRGBA){ 1, 1, 1, 1 };
  ps_selection_accent_color (frame->dark, &frame->accent);
}

double
ps_timeline_view_x_of (PsTimelineView *self,
                       gint64          value)
{
  PsTimelineFrame frame;

  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), 0);

  ps_timeline_view_fill_frame (self, &frame);
  return ps_timeline_frame_x_of (&frame, (double)value);
}

double
ps_timeline_view_value_at (PsTimelineView *self,
                           double          x)
{
  PsTimelineFrame frame;

  ps_timeline_view_fill_frame (self, &frame);
  return ps_timeline_frame_value_at (&frame, x);
}

/* Zoom */

void
ps_timeline_view_zoom (PsTimelineView *self,
                       double          factor,
                       double          anchor_x)
{
  gint64 begin, end;
  double anchor, length;

  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  if (self->model == NULL || factor <= 0)
    return;
  ps_timeline_view_get_visible (self, &begin, &end);
  anchor = ps_timeline_view_value_at (self, CLAMP (anchor_x, ps_timeline_view_label_width (self), gtk_widget_get_width (GTK_WIDGET (self))));
  length = (double)(end - begin) / factor;
  length = MAX (length, (double)min_visible (self));
  /* The point under the anchor stays where it is */
  ps_timeline_view_set_visible (self,
                                anchor - (anchor - (double)begin) / (double)(end - begin) * length,
                                anchor - (anchor - (double)begin) / (double)(end - begin) * length + length);
}

void
ps_timeline_view_reset_zoom (PsTimelineView *self)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  if (self->model != NULL)
    ps_timeline_view_set_visible (self, (double)self->model->extent_begin, (double)self->model->extent_end);
}

void
ps_timeline_view_zoom_to (PsTimelineView *self,
                          gint64          begin,
                          gint64          end)
{
  double margin = (double)(end - begin) * 0.05;

  ps_timeline_view_set_visible (self, (double)begin - margin, (double)end + margin);
}

void
ps_timeline_view_zoom_to_selection (PsTimelineView *self)
{
  gint64 begin, end;

  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  if (self->session != NULL && ps_session_get_selection (self->session, &begin, &end))
    ps_timeline_view_zoom_to (self, begin, end);
}

double
ps_timeline_view_cursor_anchor_x (PsTimelineView *self)
{
  const PsSpan *span;

  if (self->cursor_span != PS_SPAN_LOD_NO_SPAN && self->model != NULL
      && (span = ps_event_store_get_span (self->model->store, self->cursor_span)) != NULL)
    return ps_timeline_view_x_of (self, span->begin_ns + (span->end_ns - span->begin_ns) / 2);
  return ps_timeline_view_label_width (self) + (gtk_widget_get_width (GTK_WIDGET (self)) - ps_timeline_view_label_width (self)) / 2.0;
}

void
ps_timeline_view_pan (PsTimelineView *self,
                      double          fraction)
{
  gint64 begin, end;
  double shift;

  ps_timeline_view_get_visible (self, &begin, &end);
  shift = (double)(end - begin) * fraction;
  ps_timeline_view_set_visible (self, (double)begin + shift, (double)end + shift);
}

/* Rows and spans */

PsTimelineRow *
ps_timeline_view_get_row (PsTimelineView *self,
                          int             index)
{
  if (self->model == NULL || index < 0 || (guint)index >= self->model->rows->len)
    return NULL;
  return g_ptr_array_index (self->model->rows, index);
}

int
ps_timeline_view_row_of_track (PsTimelineView *self,
                               guint32         track)
{
  for (guint r = 0; self->model != NULL && r < self->model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);

      if (row->kind == PS_TIMELINE_ROW_SPANS && row->track == track)
        return (int)r;
    }
  return -1;
}

/* The row under widget y, or -1 (the header, or below the rows) */
int
ps_timeline_view_row_at (PsTimelineView *self,
                         double          y)
{
  double scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;

  if (self->model == NULL || y < PS_TIMELINE_HEADER_HEIGHT)
    return -1;
  return ps_timeline_model_row_at (self->model, y - PS_TIMELINE_HEADER_HEIGHT + scroll_y);
}

double
ps_timeline_view_rows_y (PsTimelineView *self,
                         double          y)
{
  double scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;

  return y - PS_TIMELINE_HEADER_HEIGHT + scroll_y;
}

double
ps_timeline_view_slop (PsTimelineView *self)
{
  gint64 begin, end;

  ps_timeline_view_get_visible (self, &begin, &end);
  return (double)(end - begin) / MAX (gtk_widget_get_width (GTK_WIDGET (self)) - ps_timeline_view_label_width (self), 1)
         * HIT_SLOP_PIXELS;
}

/* The span at widget (x, y), or PS_SPAN_LOD_NO_SPAN */
guint64
ps_timeline_view_span_at (PsTimelineView *self,
                          double          x,
                          double          y)
{
  PsTimelineRow *row = ps_timeline_view_get_row (self, ps_timeline_view_row_at (self, y));
  int depth;

  if (row == NULL || row->kind != PS_TIMELINE_ROW_SPANS || x < ps_timeline_view_label_width (self))
    return PS_SPAN_LOD_NO_SPAN;
  depth = ps_timeline_row_depth_at (row, ps_timeline_view_rows_y (self, y));
  if (depth < 0)
    return PS_SPAN_LOD_NO_SPAN;
  return ps_span_lod_find (self->model->lod, row->track, depth, (gint64)ps_timeline_view_value_at (self, x), (gint64)ps_timeline_view_slop (self));
}

double
ps_timeline_view_span_y (PsTimelineView *self,
                         guint64         span)
{
  const PsSpan *s;
  PsTimelineRow *row;
  double scroll_y;

  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), -1);

  if (self->model == NULL || (s = ps_event_store_get_span (self->model->store, span)) == NULL)
    return -1;
  row = ps_timeline_view_get_row (self, ps_timeline_view_row_of_track (self, s->track));
  if (row == NULL || row->hidden)
    return -1;
  scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  return PS_TIMELINE_HEADER_HEIGHT - scroll_y + ps_timeline_row_depth_y (row, s->depth)
         + PS_TIMELINE_SPAN_HEIGHT / 2;
}

/* Opens the row's group if it is collapsed and scrolls the row into the
 * vertical view: its top, and as much of it as fits (whole, with whole) */
void
ps_timeline_view_show_row (PsTimelineView *self,
                           int             index,
                           gboolean        whole)
{
  PsTimelineRow *row = ps_timeline_view_get_row (self, index);
  PsTimelineRow *group;
  double value, page, height;

  if (row == NULL)
    return;
  group = row->group != G_MAXUINT ? ps_timeline_view_get_row (self, (int)row->group) : NULL;
  if (group != NULL && group->collapsed)
    ps_timeline_view_toggle_group (self, (int)row->group);
  if (self->vadjustment == NULL)
    return;
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  height = whole ? MIN (row->height, page) : MIN (row->height, PS_TIMELINE_GROUP_HEIGHT);
  if (row->y < value)
    gtk_adjustment_set_value (self->vadjustment, row->y);
  else if (row->y + height > value + page)
    gtk_adjustment_set_value (self->vadjustment, row->y + height - page);
}

/* Brings the cursor's row into the vertical view */
static void
scroll_to_span (PsTimelineView *self,
                guint64         span)
{
  double y, height, value;

  if (self->vadjustment == NULL)
    return;
  y = ps_timeline_view_span_y (self, span);
  if (y < 0)
    return;
  value = gtk_adjustment_get_value (self->vadjustment);
  height = gtk_widget_get_height (GTK_WIDGET (self)) - PS_TIMELINE_STATUS_HEIGHT;
  if (y - PS_TIMELINE_SPAN_HEIGHT < PS_TIMELINE_HEADER_HEIGHT)
    gtk_adjustment_set_value (self->vadjustment, value - (PS_TIMELINE_HEADER_HEIGHT - y + PS_TIMELINE_SPAN_HEIGHT));
  else if (y + PS_TIMELINE_SPAN_HEIGHT > height)
    gtk_adjustment_set_value (self->vadjustment, value + (y + PS_TIMELINE_SPAN_HEIGHT - height));
}

/* Brings from…to into the visible range: zooms out when it is longer,
 * pans when it lies outside. With legible, a range narrower than a few
 * pixels is zoomed into until it is MIN_REVEAL_PIXELS wide, so that what
 * another view chose can be seen. */
void
ps_timeline_view_reveal_range (PsTimelineView *self,
                               gint64          from,
                               gint64          to,
                               gboolean        legible)
{
  double plot_width = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - ps_timeline_view_label_width (self), 1);
  gint64 begin, end, length, middle = from + (to - from) / 2;

  ps_timeline_view_get_visible (self, &begin, &end);
  length = end - begin;
  if (to - from > length)
    ps_timeline_view_zoom_to (self, from, to);
  else if (legible && to > from && (double)(to - from) / (double)length * plot_width < 4)
    {
      double wanted = (double)(to - from) * plot_width / MIN_REVEAL_PIXELS;

      ps_timeline_view_set_visible (self, (double)middle - wanted / 2, (double)middle + wanted / 2);
    }
  else if (from < begin || to > end)
    ps_timeline_view_set_visible (self, (double)(middle - length / 2), (double)(middle + length / 2));
}

/* Keeps the cursor's span in the visible range, panning if needed */
void
ps_timeline_view_reveal_span (PsTimelineView *self,
                              guint64         span,
                              gboolean        legible)
{
  const PsSpan *s = ps_event_store_get_span (self->model->store, span);

  ps_timeline_view_show_row (self, ps_timeline_view_row_of_track (self, s->track), FALSE);
  ps_timeline_view_reveal_range (self, s->begin_ns, MAX (s->end_ns, s->begin_ns), legible);
  scroll_to_span (self, span);
}

guint64
ps_timeline_view_get_cursor_span (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), PS_SPAN_LOD_NO_SPAN);

  return self->cursor_span;
}

void
ps_timeline_view_set_cursor_span (PsTimelineView *self,
                                  guint64         span)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  if (self->model == NULL || span >= ps_event_store_get_n_spans (self->model->store))
    span = PS_SPAN_LOD_NO_SPAN;
  self->cursor_span = span;
  if (span != PS_SPAN_LOD_NO_SPAN)
    {
      self->cursor_row = ps_timeline_view_row_of_track (self, ps_event_store_get_span (self->model->store, span)->track);
      ps_timeline_view_reveal_span (self, span, FALSE);
    }
  ps_timeline_view_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_timeline_view_select_span (PsTimelineView *self,
                              guint64         span)
{
  const PsSpan *s = ps_event_store_get_span (self->model->store, span);

  if (s != NULL)
    ps_session_set_selection (self->session, s->begin_ns, MAX (s->end_ns, s->begin_ns));
}

/* Scrolling: GtkScrollable */

void
ps_timeline_view_update_adjustments (PsTimelineView *self)
{
  gint64 begin, end;
  double page;

  if (self->model == NULL)
    return;
  self->updating_adjustments = TRUE;
  if (self->vadjustment != NULL)
    {
      /* The last row can scroll above the status strip */
      double rows_height = self->model->rows_height + PS_TIMELINE_STATUS_HEIGHT;

      page = MAX (gtk_widget_get_height (GTK_WIDGET (self)) - PS_TIMELINE_HEADER_HEIGHT, 0);
      gtk_adjustment_configure (self->vadjustment,
                                CLAMP (gtk_adjustment_get_value (self->vadjustment), 0,
                                       MAX (rows_height - page, 0)),
                                0, MAX (rows_height, page),
                                PS_TIMELINE_SPAN_HEIGHT * 2, page * 0.9, page);
    }
  if (self->hadjustment != NULL)
    {
      ps_timeline_view_get_visible (self, &begin, &end);
      gtk_adjustment_configure (self->hadjustment, (double)begin,
                                (double)self->model->extent_begin,
                                (double)MAX (self->model->extent_end, end),
                                (double)(end - begin) * PAN_FRACTION,
                                (double)(end - begin) * 0.9, (double)(end - begin));
    }
  self->updating_adjustments = FALSE;
}

static void
vadjustment_changed_cb (PsTimelineView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
hadjustment_changed_cb (PsTimelineView *self)
{
  gint64 begin, end;
  double value;

  if (self->updating_adjustments)
    return;
  ps_timeline_view_get_visible (self, &begin, &end);
  value = gtk_adjustment_get_value (self->hadjustment);
  ps_timeline_view_set_visible (self, value, value + (double)(end - begin));
}

static void
set_adjustment (PsTimelineView  *self,
                GtkAdjustment  **slot,
                GtkAdjustment   *adjustment,
                GCallback        callback)
{
  if (*slot == adjustment && adjustment != NULL)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, callback, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", callback, self);
  ps_timeline_view_update_adjustments (self);
}

/* Session */

/* Whether a range another view or a comparison set belongs to the run's
 * axis. A range of sequence numbers read as nanoseconds is shorter than a
 * time axis zooms to; a time range in nanoseconds read as sequence numbers
 * (which labelled the axis "#1000000000000") lies past the run or spans
 * it many times over. Either axis may show some way past the run's ends:
 * a comparison's offset, or a longer run beside it, puts it there. */
static gboolean
is_of_axis (PsTimelineView *self,
            gint64          begin,
            gint64          end)
{
  gint64 extent_begin, extent_end, least;

  if (self->model == NULL || self->model->extent_end <= self->model->extent_begin)
    return TRUE;
  extent_begin = self->model->extent_begin;
  extent_end = self->model->extent_end;
  least = MIN (min_visible (self), extent_end - extent_begin);
  if (end - begin < least)
    return FALSE;
  if (!self->model->sequence_axis)
    return TRUE;
  return end > extent_begin && begin < extent_end
         && (double)(end - begin) <= MAX_SEQUENCE_SPAN * (double)MAX (extent_end - extent_begin, min_visible (self));
}

static void
visible_range_changed_cb (PsTimelineView *self)
{
  gint64 begin, end;

  ps_timeline_view_get_visible (self, &begin, &end);
  /* The whole run rather than a range of another axis */
  if (!is_of_axis (self, begin, end))
    {
      ps_timeline_view_reset_zoom (self);
      return;
    }
  ps_timeline_view_update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
model_built_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (object);
  PsTimelineModel *model = g_task_propagate_pointer (G_TASK (result), NULL);

  if (model == NULL)
    return;
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->model, ps_timeline_model_free);
  self->model = model;
  self->model_serial++;

  /* A new session shows the whole run, as far as the model found it, or
   * the session of the log chosen, and what was chosen meanwhile */
  if (self->session != NULL)
    ps_session_set_whole_range (self->session, model->extent_begin, model->extent_end);
  ps_timeline_view_reset_zoom (self);
  ps_timeline_view_update_adjustments (self);
  ps_timeline_view_show_log_session (self);
  ps_timeline_view_forget_followed (self);
  ps_timeline_view_follow_session (self);
  if (ps_session_get_highlight (self->session) != NULL)
    ps_timeline_view_highlight_changed_cb (self);
  if (ps_session_get_highlight_points_extent (self->session, NULL, NULL))
    ps_timeline_view_points_changed_cb (self);
  ps_timeline_view_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[VALUE_RANGES_CHANGED], 0);
}

typedef struct
{
  PsEventStore  *store;
  PsSpanLod     *lod;
  PsRunAnalysis *analysis;
  GArray        *counter_tracks;  /* guint32, or NULL for every one */
  guint32        sample_source;   /* or PS_NONE for every one */
  gboolean       samples_only;    /* the sample rows alone */
} ModelData;

static void
model_data_free (ModelData *data)
{
  g_clear_object (&data->store);
  g_clear_pointer (&data->lod, ps_span_lod_unref);
  g_clear_pointer (&data->analysis, ps_run_analysis_unref);
  g_clear_pointer (&data->counter_tracks, g_array_unref);
  g_free (data);
}

static void
build_model_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  ModelData *data = task_data;
  PsTimelineModel *model;

  if (data->samples_only)
    model = ps_timeline_model_new_samples (data->store, data->sample_source, cancellable);
  else if (ps_timeline_store_has_sequence_axis (data->store))
    model = ps_timeline_model_new_measurements (data->store, data->lod, cancellable);
  else
    model = ps_timeline_model_new_full (data->store, data->lod, data->counter_tracks, data->sample_source,
                                        cancellable);
  /* The overview goes over every row: here rather than at the first frame */
  if (model != NULL)
    {
      ps_timeline_model_count_overview (model, cancellable);
      ps_timeline_model_index_labels (model);
    }

  if (g_cancellable_is_cancelled (cancellable))
    {
      ps_timeline_model_free (model);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
      return;
    }
  g_task_return_pointer (task, model, (GDestroyNotify)ps_timeline_model_free);
}

static void
lod_ready_cb (PsTimelineView *self)
{
  g_autoptr(GTask) task = NULL;
  ModelData *data;
  PsSpanLod *lod = ps_session_get_lod (self->session);

  if (lod == NULL)
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  data = g_new0 (ModelData, 1);
  data->store = g_object_ref (ps_session_get_store (self->session));
  data->lod = ps_span_lod_ref (lod);
  data->analysis = self->analysis != NULL ? ps_run_analysis_ref (self->analysis) : NULL;
  if (ps_session_get_counter_tracks (self->session) != NULL)
    data->counter_tracks = g_array_copy (ps_session_get_counter_tracks (self->session));
  data->sample_source = ps_session_get_sample_source (self->session);
  /* The model to come has the session's sample rows */
  if (self->samples_cancellable != NULL)
    g_cancellable_cancel (self->samples_cancellable);
  g_clear_object (&self->samples_cancellable);
  task = g_task_new (self, self->cancellable, model_built_cb, NULL);
  g_task_set_source_tag (task, lod_ready_cb);
  g_task_set_task_data (task, data, (GDestroyNotify)model_data_free);
  ps_task_run_in_background (task, build_model_thread);
}

/* The counters checked in a counter run's view: their rows alone are
 * made again, or the model being built starts over with them */
static void
counter_tracks_changed_cb (PsTimelineView *self)
{
  if (self->cancellable != NULL)
    {
      lod_ready_cb (self);
      return;
    }
  if (self->model == NULL)
    return;
  ps_timeline_model_set_counter_tracks (self->model, ps_session_get_counter_tracks (self->session));
  if (self->cursor_row >= (int)self->model->rows->len)
    self->cursor_row = -1;
  ps_timeline_view_update_adjustments (self);
  /* A focused counter that was just checked has its row now */
  g_array_set_size (self->followed_focus, 0);
  ps_timeline_view_follow_session (self);
  ps_timeline_view_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[VALUE_RANGES_CHANGED], 0);
}

/* The sample rows of another source, made in a worker, take the place of
 * the model's: the view keeps its range, the other rows and their groups */
static void
sample_rows_built_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (object);
  PsTimelineModel *samples = g_task_propagate_pointer (G_TASK (result), NULL);
  guint old_end;

  if (samples == NULL)
    return;
  if (g_task_get_cancellable (G_TASK (result)) != self->samples_cancellable || self->model == NULL)
    {
      ps_timeline_model_free (samples);
      return;
    }
  g_clear_object (&self->samples_cancellable);
  old_end = self->model->sample_rows_end;
  /* The keyboard's row among the samples' is gone; after them it moves */
  if (self->cursor_row >= (int)old_end)
    self->cursor_row = self->cursor_row - (int)old_end + (int)samples->sample_rows_end;
  else
    self->cursor_row = -1;
  ps_timeline_model_take_sample_rows (self->model, samples);
  ps_timeline_view_update_adjustments (self);
  ps_timeline_view_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[VALUE_RANGES_CHANGED], 0);
}

/* The event chosen for a sampled run: the lanes and the samples-per-second
 * charts show its samples alone; a model being built starts over */
static void
sample_source_changed_cb (PsTimelineView *self)
{
  g_autoptr(GTask) task = NULL;
  ModelData *data;

  if (self->cancellable != NULL)
    {
      lod_ready_cb (self);
      return;
    }
  if (self->samples_cancellable != NULL)
    g_cancellable_cancel (self->samples_cancellable);
  g_clear_object (&self->samples_cancellable);
  if (self->model == NULL || self->model->sequence_axis
      || self->model->sample_source == ps_session_get_sample_source (self->session))
    return;

  self->samples_cancellable = g_cancellable_new ();
  data = g_new0 (ModelData, 1);
  data->store = g_object_ref (self->model->store);
  data->sample_source = ps_session_get_sample_source (self->session);
  data->samples_only = TRUE;
  task = g_task_new (self, self->samples_cancellable, sample_rows_built_cb, NULL);
  g_task_set_source_tag (task, sample_source_changed_cb);
  g_task_set_task_data (task, data, (GDestroyNotify)model_data_free);
  ps_task_run_in_background (task, build_model_thread);
}

static void
queue_draw_cb (PsTimelineView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drop_session (PsTimelineView *self)
{
  if (self->session != NULL)
    {
      g_clear_signal_handler (&self->visible_handler, self->session);
      g_clear_signal_handler (&self->selection_handler, self->session);
      g_clear_signal_handler (&self->lod_handler, self->session);
      g_clear_signal_handler (&self->highlight_handler, self->session);
      g_clear_signal_handler (&self->counter_tracks_handler, self->session);
      g_clear_signal_handler (&self->sample_source_handler, self->session);
      g_clear_signal_handler (&self->focus_handler, self->session);
      g_clear_signal_handler (&self->points_handler, self->session);
      g_clear_signal_handler (&self->log_session_handler, self->session);
    }
  ps_timeline_view_forget_followed (self);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->samples_cancellable != NULL)
    g_cancellable_cancel (self->samples_cancellable);
  g_clear_object (&self->samples_cancellable);
  g_clear_object (&self->session);
  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_pointer (&self->model, ps_timeline_model_free);
  self->cursor_span = PS_SPAN_LOD_NO_SPAN;
  self->cursor_row = -1;
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->highlight_status, g_free);
}

void
ps_timeline_view_set_session (PsTimelineView *self,
                              PsSession      *session,
                              PsRunAnalysis  *analysis)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));
  g_return_if_fail (session == NULL || PS_IS_SESSION (session));

  if (session == self->session)
    return;
  drop_session (self);
  /* The charts of the run shown before are gone */
  g_signal_emit (self, signals[VALUE_RANGES_CHANGED], 0);
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      self->analysis = analysis != NULL ? ps_run_analysis_ref (analysis) : NULL;
      self->visible_handler = g_signal_connect_swapped (session, "visible-range-changed",
                                                        G_CALLBACK (visible_range_changed_cb), self);
      self->selection_handler = g_signal_connect_swapped (session, "selection-changed",
                                                          G_CALLBACK (queue_draw_cb), self);
      self->lod_handler = g_signal_connect_swapped (session, "notify::lod",
                                                    G_CALLBACK (lod_ready_cb), self);
      self->highlight_handler = g_signal_connect_swapped (session, "notify::highlight",
                                                          G_CALLBACK (ps_timeline_view_highlight_changed_cb), self);
      self->counter_tracks_handler = g_signal_connect_swapped (session, "counter-tracks-changed",
                                                               G_CALLBACK (counter_tracks_changed_cb), self);
      self->sample_source_handler = g_signal_connect_swapped (session, "sample-source-changed",
                                                              G_CALLBACK (sample_source_changed_cb), self);
      self->focus_handler = g_signal_connect_swapped (session, "focus-changed",
                                                      G_CALLBACK (ps_timeline_view_follow_session), self);
      self->points_handler = g_signal_connect_swapped (session, "notify::highlight-points",
                                                       G_CALLBACK (ps_timeline_view_points_changed_cb), self);
      self->log_session_handler = g_signal_connect_swapped (session, "log-session-changed",
                                                            G_CALLBACK (ps_timeline_view_show_log_session), self);
      ps_session_ensure_lod (session);
      lod_ready_cb (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GHashTable *
ps_timeline_view_get_value_ranges (PsTimelineView *self)
{
  GHashTable *ranges;

  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  ranges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; self->model != NULL && i < self->model->rows->len; i++)
    {
      const PsTimelineRow *row = g_ptr_array_index (self->model->rows, i);
      PsTimelineValueRange range;

      if (row->value_key == NULL || !ps_timeline_row_value_range (row, NULL, &range.min, &range.max))
        continue;
      /* Two charts of one key (not expected) span both */
      {
        PsTimelineValueRange *known = g_hash_table_lookup (ranges, row->value_key);

        if (known != NULL)
          {
            known->min = MIN (known->min, range.min);
            known->max = MAX (known->max, range.max);
            continue;
          }
      }
      g_hash_table_insert (ranges, g_strdup (row->value_key), g_memdup2 (&range, sizeof range));
    }
  return ranges;
}

void
ps_timeline_view_set_shared_value_ranges (PsTimelineView *self,
                                          GHashTable     *ranges)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  if (ranges == self->shared_ranges)
    return;
  g_clear_pointer (&self->shared_ranges, g_hash_table_unref);
  if (ranges != NULL)
    self->shared_ranges = g_hash_table_ref (ranges);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
ps_timeline_view_get_row_value_range (PsTimelineView *self,
                                      guint           row,
                                      double         *v_min,
                                      double         *v_max)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->model == NULL || row >= self->model->rows->len)
    return FALSE;
  return ps_timeline_row_value_range (g_ptr_array_index (self->model->rows, row), self->shared_ranges,
                                      v_min, v_max);
}

PsSession *
ps_timeline_view_get_session (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  return self->session;
}

PsTimelineModel *
ps_timeline_view_get_model (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  return self->model;
}

/* GObject */

/* Whether the whole row of the cursor (as much as fits) is in view */
static gboolean
cursor_row_in_view (PsTimelineView *self)
{
  PsTimelineRow *cursor = ps_timeline_view_get_row (self, self->cursor_row);
  double value, page;

  if (cursor == NULL || self->vadjustment == NULL)
    return FALSE;
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  return cursor->y >= value && cursor->y + MIN (cursor->height, page) <= value + page;
}

/* Whether the top of the cursor's row is in the vertical view: a row
 * chosen at the bottom edge shows only its top (a thread's tall row
 * scrolled into is not, and stays as it was) */
static gboolean
cursor_row_top_shown (PsTimelineView *self)
{
  PsTimelineRow *cursor = ps_timeline_view_get_row (self, self->cursor_row);
  double value, page;

  if (cursor == NULL || cursor->hidden || self->vadjustment == NULL)
    return FALSE;
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  return cursor->y >= value && cursor->y < value + page;
}

static gboolean
keep_cursor_cb (gpointer user_data)
{
  PsTimelineView *self = user_data;

  self->keep_cursor_id = 0;
  if (!cursor_row_in_view (self))
    ps_timeline_view_show_row (self, self->cursor_row, TRUE);
  return G_SOURCE_REMOVE;
}

static gboolean
keep_highlight_cb (gpointer user_data)
{
  PsTimelineView *self = user_data;

  self->keep_highlight_id = 0;
  ps_timeline_view_keep_highlight_in_view (self);
  return G_SOURCE_REMOVE;
}

static void
ps_timeline_view_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (widget);
  gboolean shorter = height < self->allocated_height;

  self->allocated_height = height;
  /* The row of the cursor, in view before (if only in part: chosen at the
   * bottom edge), is wholly in view when the timeline gets shorter (the
   * views under it taking more room): scrolled to once the window is laid
   * out, since scrolling while GTK allocates leaves widgets elsewhere in
   * the window without their allocation */
  if (cursor_row_top_shown (self) && self->keep_cursor_id == 0)
    self->keep_cursor_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, keep_cursor_cb, self, NULL);
  /* So do the highlighted calls, shown as they were chosen (a total whose
   * histogram then takes the timeline's room) */
  if (shorter && self->session != NULL && ps_session_get_highlight (self->session) != NULL
      && self->keep_highlight_id == 0)
    self->keep_highlight_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, keep_highlight_cb, self, NULL);
  ps_timeline_view_update_adjustments (self);
  if (self->picture_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->picture_menu));
}

static void
picture_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (widget);

  ps_picture_export_popup_menu (widget, &self->picture_menu, parameter);
}

static void
ps_timeline_view_dispose (GObject *object)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (object);

  drop_session (self);
  g_clear_handle_id (&self->keep_cursor_id, g_source_remove);
  g_clear_handle_id (&self->keep_highlight_id, g_source_remove);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, hadjustment_changed_cb, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, vadjustment_changed_cb, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->highlight_status, g_free);
  g_clear_pointer (&self->picture_menu, gtk_widget_unparent);

  G_OBJECT_CLASS (ps_timeline_view_parent_class)->dispose (object);
}

static void
ps_timeline_view_finalize (GObject *object)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (object);

  g_clear_pointer (&self->followed_focus, g_array_unref);
  g_clear_pointer (&self->focus_charts, g_array_unref);
  g_clear_pointer (&self->shared_ranges, g_hash_table_unref);

  G_OBJECT_CLASS (ps_timeline_view_parent_class)->finalize (object);
}

static void
ps_timeline_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_timeline_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value), G_CALLBACK (hadjustment_changed_cb));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value), G_CALLBACK (vadjustment_changed_cb));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_key (GtkWidgetClass  *widget_class,
         guint            keyval,
         GdkModifierType  modifiers,
         const char      *action)
{
  gtk_widget_class_add_binding (widget_class, keyval, modifiers, ps_timeline_view_key_binding, "s", action);
}

static void
ps_timeline_view_class_init (PsTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_timeline_view_dispose;
  object_class->finalize = ps_timeline_view_finalize;
  object_class->get_property = ps_timeline_view_get_property;
  object_class->set_property = ps_timeline_view_set_property;

  widget_class->snapshot = ps_timeline_view_snapshot;
  ps_chart_class_set_size (widget_class, (int)PS_TIMELINE_LABEL_WIDTH + 200, 900, (int)PS_TIMELINE_HEADER_HEIGHT + 60, 360);
  widget_class->size_allocate = ps_timeline_view_size_allocate;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         PS_TYPE_SESSION,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /**
   * PsTimelineView::value-ranges-changed:
   *
   * The view charts other values (ps_timeline_view_get_value_ranges ()):
   * it has another run, its counters or its sample rows were made again.
   */
  signals[VALUE_RANGES_CHANGED] =
    g_signal_new ("value-ranges-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  {
    static const char *actions[] = {
      "zoom-in", "zoom-out", "reset", "zoom-selection", "pan-left", "pan-right",
      "left", "right", "up", "down", "activate", "clear",
    };

    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
      {
        g_autofree char *name = g_strconcat ("timeline.", actions[i], NULL);

        gtk_widget_class_install_action (widget_class, name, NULL, ps_timeline_view_action);
      }
  }
  add_key (widget_class, GDK_KEY_plus, 0, "zoom-in");
  add_key (widget_class, GDK_KEY_equal, 0, "zoom-in");
  add_key (widget_class, GDK_KEY_KP_Add, 0, "zoom-in");
  add_key (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "zoom-in");
  add_key (widget_class, GDK_KEY_minus, 0, "zoom-out");
  add_key (widget_class, GDK_KEY_KP_Subtract, 0, "zoom-out");
  add_key (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "zoom-out");
  add_key (widget_class, GDK_KEY_0, 0, "reset");
  add_key (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "reset");
  add_key (widget_class, GDK_KEY_Home, 0, "reset");
  add_key (widget_class, GDK_KEY_z, 0, "zoom-selection");
  add_key (widget_class, GDK_KEY_Left, GDK_SHIFT_MASK, "pan-left");
  add_key (widget_class, GDK_KEY_Right, GDK_SHIFT_MASK, "pan-right");
  add_key (widget_class, GDK_KEY_Left, 0, "left");
  add_key (widget_class, GDK_KEY_Right, 0, "right");
  add_key (widget_class, GDK_KEY_Up, 0, "up");
  add_key (widget_class, GDK_KEY_Down, 0, "down");
  add_key (widget_class, GDK_KEY_Return, 0, "activate");
  add_key (widget_class, GDK_KEY_KP_Enter, 0, "activate");
  add_key (widget_class, GDK_KEY_space, 0, "activate");
  add_key (widget_class, GDK_KEY_Escape, 0, "clear");
  /* Shift+F10 and the Menu key: "Export Picture…" */
  ps_picture_export_install_action (widget_class);
  ps_picture_export_install_menu (widget_class, picture_menu_action);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ps_timeline_view_init (PsTimelineView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *click, *drag, *zoom;
  GtkEventController *scroll, *focus, *motion;

  self->cursor_span = PS_SPAN_LOD_NO_SPAN;
  self->cursor_row = -1;
  self->followed_focus = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->focus_charts = g_array_new (FALSE, FALSE, sizeof (guint32));
  ps_timeline_view_forget_followed (self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  ps_picture_export_add_context_click (widget);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_add_css_class (widget, "view");
  g_signal_connect (self, "query-tooltip", G_CALLBACK (ps_timeline_view_query_tooltip_cb), NULL);

  click = gtk_gesture_click_new ();
  g_signal_connect_swapped (click, "pressed", G_CALLBACK (ps_timeline_view_click_pressed_cb), self);
  g_signal_connect_swapped (click, "released", G_CALLBACK (ps_timeline_view_click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (ps_timeline_view_drag_begin_cb), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (ps_timeline_view_drag_update_cb), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (ps_timeline_view_drag_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  zoom = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (zoom, "begin", G_CALLBACK (ps_timeline_view_zoom_begin_cb), self);
  g_signal_connect_swapped (zoom, "scale-changed", G_CALLBACK (ps_timeline_view_zoom_scale_changed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (zoom));

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (ps_timeline_view_scroll_cb), self);
  gtk_widget_add_controller (widget, scroll);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (motion, "enter", G_CALLBACK (ps_timeline_view_motion_cb), self);
  g_signal_connect_swapped (motion, "motion", G_CALLBACK (ps_timeline_view_motion_cb), self);
  gtk_widget_add_controller (widget, motion);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (ps_timeline_view_focus_changed_cb), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (ps_timeline_view_focus_changed_cb), self);
  gtk_widget_add_controller (widget, focus);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  -1);
}

GtkWidget *
ps_timeline_view_new (void)
{
  return g_object_new (PS_TYPE_TIMELINE_VIEW, NULL);
}

/* ps-timeline-view-input.c — the timeline's pointer and keyboard
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the widget (ps-timeline-view.c) because each of these only
 * turns an event into a change of the visible range, the selection or the
 * cursor: clicks on groups, spans and the overview, the drags that select,
 * pan or move the view, Ctrl+scroll and pinch zoom, and the widget's
 * actions that the keys are bound to.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ps-timeline-view-private.h"

#define ZOOM_STEP         1.5
#define DRAG_THRESHOLD    4.0
#define POINT_SLOP_PIXELS 8.0

/* Pointer */

void
ps_timeline_view_toggle_group (PsTimelineView *self,
                               int             index)
{
  PsTimelineRow *row = ps_timeline_view_get_row (self, index);

  if (row == NULL || row->kind != PS_TIMELINE_ROW_GROUP)
    return;
  row->collapsed = !row->collapsed;
  ps_timeline_model_layout (self->model);
  ps_timeline_view_update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
center_overview_at (PsTimelineView *self,
                    double          x)
{
  gint64 begin, end;
  double fraction, center;

  ps_timeline_view_get_visible (self, &begin, &end);
  fraction = (x - ps_timeline_view_label_width (self)) / MAX (gtk_widget_get_width (GTK_WIDGET (self)) - ps_timeline_view_label_width (self), 1);
  center = (double)self->model->extent_begin + fraction * (double)(self->model->extent_end - self->model->extent_begin);
  ps_timeline_view_set_visible (self, center - (double)(end - begin) / 2, center + (double)(end - begin) / 2);
}

/* The span the user chose here becomes the session's choice, which the
 * view does not need to follow: the cursor is on it already */
static void
choose_span (PsTimelineView *self,
             guint64         span)
{
  self->followed_span = span;
  ps_session_set_selected_span (self->session, span);
}

void
ps_timeline_view_click_pressed_cb (PsTimelineView  *self,
                                   int              n_press,
                                   double           x,
                                   double           y,
                                   GtkGestureClick *gesture)
{
  int index;
  PsTimelineRow *row;
  guint64 span;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->model == NULL || y < PS_TIMELINE_HEADER_HEIGHT)
    return;
  index = ps_timeline_view_row_at (self, y);
  row = ps_timeline_view_get_row (self, index);
  if (row == NULL)
    return;
  self->cursor_row = index;
  if (row->kind == PS_TIMELINE_ROW_GROUP)
    {
      ps_timeline_view_toggle_group (self, index);
      return;
    }
  /* A row's label chooses its thread, marker or counter */
  if (x < ps_timeline_view_label_width (self))
    {
      ps_timeline_view_focus_row (self, row);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  /* A message in the strip above the scopes */
  if (row->kind == PS_TIMELINE_ROW_SPANS && row->has_marks && ps_timeline_view_rows_y (self, y) < row->y + PS_TIMELINE_MARK_HEIGHT)
    {
      guint64 mark = ps_span_lod_find_mark (self->model->lod, row->track, (gint64)ps_timeline_view_value_at (self, x),
                                            (gint64)ps_timeline_view_slop (self));

      if (mark != PS_SPAN_LOD_NO_SPAN)
        {
          self->followed_mark = mark;
          ps_session_set_selected_mark (self->session, mark);
        }
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  span = ps_timeline_view_span_at (self, x, y);
  if (span == PS_SPAN_LOD_NO_SPAN)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->cursor_span = span;
  ps_timeline_view_update_accessible (self);
  choose_span (self, span);
  ps_timeline_view_select_span (self, span);
  if (n_press == 2)
    {
      const PsSpan *s = ps_event_store_get_span (self->model->store, span);

      ps_timeline_view_zoom_to (self, s->begin_ns, s->end_ns);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A click on a chart (released without a drag, which would have claimed
 * the pointer for a selection): on a CE marker's chart the nearest
 * measurement within a few pixels, else the track of the chart or of
 * the lane of samples */
void
ps_timeline_view_click_released_cb (PsTimelineView  *self,
                                    int              n_press,
                                    double           x,
                                    double           y,
                                    GtkGestureClick *gesture)
{
  PsTimelineRow *row;
  gint64 point_x;
  double value;

  if (self->model == NULL || y < PS_TIMELINE_HEADER_HEIGHT || x < ps_timeline_view_label_width (self))
    return;
  row = ps_timeline_view_get_row (self, ps_timeline_view_row_at (self, y));
  if (row == NULL || (row->kind != PS_TIMELINE_ROW_VALUES && row->kind != PS_TIMELINE_ROW_SAMPLES))
    return;
  if (self->model->sequence_axis && row->kind == PS_TIMELINE_ROW_VALUES
      && ps_value_lod_get_point (row->values, ps_value_lod_find (row->values, (gint64)llround (ps_timeline_view_value_at (self, x))),
                                 &point_x, &value)
      && fabs (ps_timeline_view_x_of (self, point_x) - x) <= POINT_SLOP_PIXELS
      && point_x >= 0 && (guint64)point_x < ps_event_store_get_n_measurements (self->model->store))
    {
      PsMeasurement m;
      guint n_focus;
      const guint32 *focus = ps_session_get_focus_tracks (self->session, &n_focus);

      /* The focus it leaves: the point's instance, unless that is
       * focused already (one of the marker's instances focused here) */
      ps_event_store_get_measurement (self->model->store, (guint64)point_x, &m);
      if (!ps_session_is_focus_track (self->session, m.track))
        focus = &m.track, n_focus = 1;
      g_array_set_size (self->followed_focus, 0);
      g_array_append_vals (self->followed_focus, focus, n_focus);
      self->followed_measurement = (guint64)point_x;
      ps_session_set_selected_measurement (self->session, (guint64)point_x);
    }
  else
    ps_timeline_view_focus_row (self, row);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_timeline_view_click (PsTimelineView *self,
                        double          x,
                        double          y)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  ps_timeline_view_click_pressed_cb (self, 1, x, y, NULL);
  ps_timeline_view_click_released_cb (self, 1, x, y, NULL);
}

double
ps_timeline_view_get_row_y (PsTimelineView *self,
                            guint32         track)
{
  double scroll_y;

  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), -1);

  scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  for (guint r = 0; self->model != NULL && r < self->model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);

      if (row->track == ps_timeline_model_chart_track (self->model, track) && row->kind != PS_TIMELINE_ROW_GROUP
          && !row->hidden)
        return PS_TIMELINE_HEADER_HEIGHT - scroll_y + row->y;
    }
  return -1;
}

static void
begin_drag (PsTimelineView *self,
            guint           button,
            double          x,
            double          y)
{
  self->drag_mode = DRAG_NONE;
  if (self->model == NULL || x < ps_timeline_view_label_width (self))
    return;
  self->drag_start_x = x;
  self->drag_start_y = y;
  ps_timeline_view_get_visible (self, &self->drag_begin, &self->drag_end);
  if (y < PS_TIMELINE_OVERVIEW_HEIGHT)
    {
      self->drag_mode = DRAG_OVERVIEW;
      center_overview_at (self, x);
    }
  else if (button == GDK_BUTTON_MIDDLE || y < PS_TIMELINE_HEADER_HEIGHT)
    self->drag_mode = DRAG_PAN;
  else
    {
      self->drag_mode = DRAG_SELECT;
      self->drag_anchor = (gint64)ps_timeline_view_value_at (self, x);
    }
}

/* Returns whether the drag became a selection */
static gboolean
update_drag (PsTimelineView *self,
             double          offset_x,
             double          offset_y)
{
  double width = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - ps_timeline_view_label_width (self), 1);

  switch (self->drag_mode)
    {
    case DRAG_OVERVIEW:
      center_overview_at (self, self->drag_start_x + offset_x);
      break;
    case DRAG_PAN:
      {
        double shift = -offset_x / width * (double)(self->drag_end - self->drag_begin);

        ps_timeline_view_set_visible (self, (double)self->drag_begin + shift, (double)self->drag_end + shift);
        if (self->vadjustment != NULL && offset_y != 0)
          gtk_adjustment_set_value (self->vadjustment,
                                    gtk_adjustment_get_value (self->vadjustment) - (offset_y - self->drag_start_y));
        self->drag_start_y = offset_y;
      }
      break;
    case DRAG_SELECT:
      if (fabs (offset_x) >= DRAG_THRESHOLD)
        {
          gint64 here = (gint64)ps_timeline_view_value_at (self, self->drag_start_x + offset_x);

          here = CLAMP (here, self->model->extent_begin, self->model->extent_end);
          ps_session_set_selection (self->session, MIN (here, self->drag_anchor), MAX (here, self->drag_anchor));
          return TRUE;
        }
      break;
    case DRAG_NONE:
    default:
      break;
    }
  return FALSE;
}

void
ps_timeline_view_drag_begin_cb (PsTimelineView *self,
                                double          x,
                                double          y,
                                GtkGestureDrag *gesture)
{
  begin_drag (self, gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)), x, y);
  /* Vertical panning works on offsets from the last update */
  if (self->drag_mode == DRAG_PAN)
    self->drag_start_y = 0;
}

void
ps_timeline_view_drag_update_cb (PsTimelineView *self,
                                 double          offset_x,
                                 double          offset_y,
                                 GtkGestureDrag *gesture)
{
  if (update_drag (self, offset_x, offset_y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

void
ps_timeline_view_drag_end_cb (PsTimelineView *self,
                              double          offset_x,
                              double          offset_y,
                              GtkGestureDrag *gesture)
{
  self->drag_mode = DRAG_NONE;
}

void
ps_timeline_view_drag (PsTimelineView *self,
                       double          from_x,
                       double          from_y,
                       double          to_x,
                       double          to_y)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  begin_drag (self, GDK_BUTTON_PRIMARY, from_x, from_y);
  if (self->drag_mode == DRAG_PAN)
    self->drag_start_y = 0;
  update_drag (self, (to_x - from_x) / 2, (to_y - from_y) / 2);
  update_drag (self, to_x - from_x, to_y - from_y);
  self->drag_mode = DRAG_NONE;
}

void
ps_timeline_view_motion_cb (PsTimelineView           *self,
                            double                    x,
                            double                    y,
                            GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
}

gboolean
ps_timeline_view_scroll_cb (PsTimelineView           *self,
                            double                    dx,
                            double                    dy,
                            GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double x = self->pointer_x;

  if (!(state & GDK_CONTROL_MASK))
    return FALSE;
  ps_timeline_view_zoom (self, pow (ZOOM_STEP, -dy), x);
  return TRUE;
}

void
ps_timeline_view_zoom_begin_cb (PsTimelineView *self,
                                GdkEventSequence *sequence,
                                GtkGestureZoom   *gesture)
{
  self->zoom_scale = 1;
}

void
ps_timeline_view_zoom_scale_changed_cb (PsTimelineView *self,
                                        double          scale,
                                        GtkGestureZoom *gesture)
{
  double x, y;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    x = ps_timeline_view_cursor_anchor_x (self);
  if (self->zoom_scale > 0 && scale > 0)
    ps_timeline_view_zoom (self, scale / self->zoom_scale, x);
  self->zoom_scale = scale;
}

/* Keyboard */

/* The next span after (direction > 0) or before the cursor on its depth */
static guint64
neighbour_span (PsTimelineView *self,
                int             direction)
{
  const PsSpan *s = ps_event_store_get_span (self->model->store, self->cursor_span);

  return ps_span_lod_step (self->model->lod, s->track, s->depth, self->cursor_span, s->begin_ns, direction);
}

static guint64
first_visible_span (PsTimelineView *self)
{
  gint64 begin, end;

  ps_timeline_view_get_visible (self, &begin, &end);
  for (guint r = MAX (self->cursor_row, 0); self->model != NULL && r < self->model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);
      if (row->kind == PS_TIMELINE_ROW_SPANS && row->n_depths > 0 && !row->hidden)
        {
          guint64 span = ps_span_lod_find (self->model->lod, row->track, 0, begin + (end - begin) / 2,
                                           (end - begin) / 2);

          if (span != PS_SPAN_LOD_NO_SPAN)
            return span;
        }
    }
  return PS_SPAN_LOD_NO_SPAN;
}

static void
move_cursor_row (PsTimelineView *self,
                 int             direction)
{
  int index = self->cursor_row;

  if (self->model == NULL)
    return;
  for (index += direction; index >= 0 && (guint)index < self->model->rows->len; index += direction)
    if (!ps_timeline_view_get_row (self, index)->hidden)
      break;
  if (index < 0 || (guint)index >= self->model->rows->len)
    return;
  self->cursor_row = index;
  self->cursor_span = PS_SPAN_LOD_NO_SPAN;
  {
    PsTimelineRow *row = ps_timeline_view_get_row (self, index);
    double top = row->y, value = gtk_adjustment_get_value (self->vadjustment);
    double page = gtk_adjustment_get_page_size (self->vadjustment);

    if (top < value)
      gtk_adjustment_set_value (self->vadjustment, top);
    else if (top + MIN (row->height, 60) > value + page)
      gtk_adjustment_set_value (self->vadjustment, top + MIN (row->height, 60) - page);
  }
  ps_timeline_view_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* timeline.ACTION: what the keys do (see the bindings in class_init).
 * Returns FALSE when the action had nothing to do, so that the key goes on
 * to the window (Escape, the arrows). */
static gboolean
run_action (PsTimelineView *self,
            const char     *action)
{
  guint64 next = PS_SPAN_LOD_NO_SPAN;

  if (self->model == NULL)
    return FALSE;

  if (g_str_equal (action, "zoom-in"))
    ps_timeline_view_zoom (self, ZOOM_STEP, ps_timeline_view_cursor_anchor_x (self));
  else if (g_str_equal (action, "zoom-out"))
    ps_timeline_view_zoom (self, 1 / ZOOM_STEP, ps_timeline_view_cursor_anchor_x (self));
  else if (g_str_equal (action, "reset"))
    ps_timeline_view_reset_zoom (self);
  else if (g_str_equal (action, "zoom-selection"))
    ps_timeline_view_zoom_to_selection (self);
  else if (g_str_equal (action, "pan-left"))
    ps_timeline_view_pan (self, -PAN_FRACTION);
  else if (g_str_equal (action, "pan-right"))
    ps_timeline_view_pan (self, PAN_FRACTION);
  else if (g_str_equal (action, "clear"))
    {
      if (ps_session_get_selection (self->session, NULL, NULL))
        ps_session_clear_selection (self->session);
      else if (ps_session_get_highlight (self->session) != NULL)
        ps_session_clear_highlight (self->session);
      else if (ps_session_get_highlight_points_extent (self->session, NULL, NULL))
        {
          ps_session_set_highlight_measurements (self->session, NULL, 0, NULL);
          ps_session_highlight_function (self->session, NULL, NULL, NULL);
        }
      else if (self->cursor_span != PS_SPAN_LOD_NO_SPAN)
        ps_timeline_view_set_cursor_span (self, PS_SPAN_LOD_NO_SPAN);
      else
        return FALSE;
    }
  else if (g_str_equal (action, "activate"))
    {
      PsTimelineRow *row = ps_timeline_view_get_row (self, self->cursor_row);

      if (self->cursor_span != PS_SPAN_LOD_NO_SPAN)
        {
          const PsSpan *s = ps_event_store_get_span (self->model->store, self->cursor_span);

          choose_span (self, self->cursor_span);
          ps_timeline_view_select_span (self, self->cursor_span);
          ps_timeline_view_zoom_to (self, s->begin_ns, s->end_ns);
        }
      else if (row != NULL && row->kind == PS_TIMELINE_ROW_GROUP)
        ps_timeline_view_toggle_group (self, self->cursor_row);
      else
        return FALSE;
    }
  else if (self->cursor_span == PS_SPAN_LOD_NO_SPAN)
    {
      /* Arrows without a cursor: left and right put it on a span, up and
       * down go from row to row */
      if (g_str_equal (action, "left") || g_str_equal (action, "right"))
        next = first_visible_span (self);
      else if (g_str_equal (action, "up"))
        move_cursor_row (self, -1);
      else if (g_str_equal (action, "down"))
        move_cursor_row (self, 1);
      else
        return FALSE;
    }
  else
    {
      const PsSpan *s = ps_event_store_get_span (self->model->store, self->cursor_span);

      if (g_str_equal (action, "left"))
        next = neighbour_span (self, -1);
      else if (g_str_equal (action, "right"))
        next = neighbour_span (self, 1);
      else if (g_str_equal (action, "up"))
        {
          if (s->parent != PS_NONE)
            next = s->parent;
          else
            move_cursor_row (self, -1);
        }
      else if (g_str_equal (action, "down"))
        {
          next = ps_span_lod_find (self->model->lod, s->track, s->depth + 1u, s->begin_ns,
                                   MAX (s->end_ns - s->begin_ns, 0));
          if (next != PS_SPAN_LOD_NO_SPAN && ps_event_store_get_span (self->model->store, next)->parent
                                             != self->cursor_span)
            next = PS_SPAN_LOD_NO_SPAN;
          if (next == PS_SPAN_LOD_NO_SPAN)
            move_cursor_row (self, 1);
        }
    }

  if (next != PS_SPAN_LOD_NO_SPAN)
    ps_timeline_view_set_cursor_span (self, next);
  return TRUE;
}

void
ps_timeline_view_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  run_action (PS_TIMELINE_VIEW (widget), action_name + strlen ("timeline."));
}

gboolean
ps_timeline_view_key_binding (GtkWidget *widget,
                              GVariant  *args,
                              gpointer   user_data)
{
  return run_action (PS_TIMELINE_VIEW (widget), g_variant_get_string (args, NULL));
}

gboolean
ps_timeline_view_focus_changed_cb (PsTimelineView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return FALSE;
}

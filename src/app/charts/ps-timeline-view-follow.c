/* ps-timeline-view-follow.c — what the timeline follows of the other
 * views' choices: the highlighted function, its points, the focused
 * tracks, the chosen span, message or measurement and the log session
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the widget (ps-timeline-view.c) because each of these comes
 * from the session (PsSession) and only moves the view to it: rows are
 * opened and scrolled to, the visible range is panned or zoomed to show
 * what was chosen, and what the view has followed is remembered so that
 * a new model follows the same choice again.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-timeline-view-private.h"

/* The status line says what is highlighted (and why the rest is faded)
 * while the cursor is on no span */
static void
update_highlight_status (PsTimelineView *self)
{
  const char *what = NULL;

  g_clear_pointer (&self->highlight_status, g_free);
  if (self->session != NULL)
    what = ps_session_get_highlight_description (self->session);
  if (what == NULL && self->session != NULL)
    what = ps_session_get_highlight_points_description (self->session);
  if (what != NULL)
    /* Translators: the timeline's status line; %s says what is
     * highlighted: "Calls of ::Load", "12 measurements of …" */
    self->highlight_status = g_strdup_printf (_("Highlighted: %s (Escape clears)"), what);
}

/* The rows that may come into view to show what is highlighted, in turn:
 * a focused row shown, any row shown, then a row in a closed group (which
 * opens). The view moves to the highlight's extent after the second pass
 * when none shown has some in view. */
#define N_ROW_PASSES 4
#define REVEAL_PASS  1

static gboolean
row_in_pass (PsTimelineView *self,
             PsTimelineRow  *row,
             int             pass)
{
  switch (pass)
    {
    case 0:
      return !row->hidden && ps_timeline_view_row_is_focused (self, row);
    case 1:
    case 2:
      return !row->hidden;
    default:
      return TRUE;
    }
}

/* Whether a row has something highlighted in begin…end, for
 * find_row_in_view () */
typedef gboolean (*RowHighlightedFunc) (PsTimelineView *self,
                                        PsTimelineRow  *row,
                                        gint64          begin,
                                        gint64          end,
                                        gpointer        data);

/* The first row, pass after pass, that has something highlighted in the
 * visible range, or -1. With reveal, the view moves to first…last when
 * none has by REVEAL_PASS. */
static int
find_row_in_view (PsTimelineView     *self,
                  RowHighlightedFunc  highlighted,
                  gpointer            data,
                  gboolean            reveal,
                  gint64              first,
                  gint64              last)
{
  int found = -1;

  ps_timeline_view_find_focus_charts (self);
  for (int pass = 0; pass < N_ROW_PASSES && found < 0; pass++)
    {
      gint64 begin, end;

      ps_timeline_view_get_visible (self, &begin, &end);
      for (guint r = 0; r < self->model->rows->len && found < 0; r++)
        {
          PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);

          if (row_in_pass (self, row, pass) && highlighted (self, row, begin, end, data))
            found = (int)r;
        }
      if (found < 0 && reveal && pass == REVEAL_PASS)
        ps_timeline_view_reveal_range (self, first, last, FALSE);
    }
  return found;
}

/* The highlighted spans sought, and the depth of the first found */
typedef struct
{
  PsSpanLod *highlight;
  guint      depth;
} HighlightedSpans;

/* Whether a row of spans has highlighted ones in begin…end; the first
 * depth that has is noted */
static gboolean
row_has_highlighted_spans (PsTimelineView *self,
                           PsTimelineRow  *row,
                           gint64          begin,
                           gint64          end,
                           gpointer        data)
{
  HighlightedSpans *spans = data;
  g_autoptr(GArray) items = NULL;
  guint n_depths;

  if (row->kind != PS_TIMELINE_ROW_SPANS)
    return FALSE;
  items = g_array_new (FALSE, FALSE, sizeof (PsSpanLodItem));
  n_depths = ps_span_lod_get_n_depths (spans->highlight, row->track);
  for (guint d = 0; d < n_depths; d++)
    if (ps_span_lod_query (spans->highlight, row->track, d, begin, end, (double)(end - begin) + 1, items) > 0)
      {
        spans->depth = d;
        return TRUE;
      }
  return FALSE;
}

/* Highlighted spans out of sight: the view zooms out or pans to them when
 * none is in the visible range, and the first row that has some there
 * comes into view */
/* The first row with highlighted spans in the visible range into view,
 * above the status strip that names them; with may_reveal, the view
 * zooms out or pans to them first when none is in that range */
static void
show_highlight (PsTimelineView *self,
                gboolean        may_reveal)
{
  HighlightedSpans spans = { NULL, 0 };
  gint64 first = 0, last = 0;
  gboolean reveal;
  int found;

  if (self->session != NULL)
    spans.highlight = ps_session_get_highlight (self->session);
  if (spans.highlight == NULL || self->model == NULL || self->model->lod == NULL)
    return;
  reveal = may_reveal && ps_span_lod_get_extent (spans.highlight, &first, &last);
  found = find_row_in_view (self, row_has_highlighted_spans, &spans, reveal, first, MAX (last, first));
  if (found < 0)
    return;
  ps_timeline_view_show_row (self, found, FALSE);
  if (self->vadjustment != NULL)
    {
      PsTimelineRow *row = ps_timeline_view_get_row (self, found);
      double y = ps_timeline_row_depth_y (row, spans.depth);
      double top = gtk_adjustment_get_value (self->vadjustment);
      /* Above the status strip, which says what is highlighted */
      double shown = gtk_adjustment_get_page_size (self->vadjustment) - PS_TIMELINE_STATUS_HEIGHT;
      /* A span's height of the row above it, where there is room */
      double above = CLAMP (shown - 2 * PS_TIMELINE_SPAN_HEIGHT, 0, PS_TIMELINE_SPAN_HEIGHT);

      if (y < top || y + PS_TIMELINE_SPAN_HEIGHT > top + shown)
        gtk_adjustment_set_value (self->vadjustment, MAX (y - above, 0));
    }
}

void
ps_timeline_view_highlight_changed_cb (PsTimelineView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_highlight_status (self);
  show_highlight (self, TRUE);
}

void
ps_timeline_view_keep_highlight_in_view (PsTimelineView *self)
{
  show_highlight (self, FALSE);
}

/* Whether a chart's highlighted points have one in begin…end */
static gboolean
row_has_highlighted_points (PsTimelineView *self,
                            PsTimelineRow  *row,
                            gint64          begin,
                            gint64          end,
                            gpointer        data)
{
  PsValueLod *points;
  gsize index;

  if (row->kind != PS_TIMELINE_ROW_VALUES && row->kind != PS_TIMELINE_ROW_SAMPLES)
    return FALSE;
  points = ps_session_get_highlight_points (self->session, row->track);
  if (points == NULL)
    return FALSE;
  index = ps_value_lod_find (points, begin);
  /* The nearest point may lie before begin, the next one in the range */
  for (gsize i = index; i != G_MAXSIZE && i <= index + 1; i++)
    {
      gint64 x;
      double value;

      if (ps_value_lod_get_point (points, i, &x, &value) && x >= begin && x <= end)
        return TRUE;
    }
  return FALSE;
}

/* Highlighted points (CE measurements of a histogram's bars, samples of a
 * function): brought into view as highlighted spans are */
void
ps_timeline_view_points_changed_cb (PsTimelineView *self)
{
  gint64 first, last;
  int found;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_highlight_status (self);
  if (self->model == NULL || !ps_session_get_highlight_points_extent (self->session, &first, &last))
    return;
  found = find_row_in_view (self, row_has_highlighted_points, NULL, TRUE, first, last);
  ps_timeline_view_show_row (self, found, TRUE);
}

/* The row of a track's chart that has a point at x (a CE marker's
 * durations, not its CPU), else its first row, or -1 */
static int
row_with_point (PsTimelineView *self,
                guint32         track,
                gint64          x)
{
  int first = -1;

  for (guint r = 0; self->model != NULL && r < self->model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);
      gint64 point_x;
      double value;

      if (row->track != ps_timeline_model_chart_track (self->model, track) || row->kind == PS_TIMELINE_ROW_GROUP)
        continue;
      if (first < 0)
        first = (int)r;
      if (row->kind == PS_TIMELINE_ROW_VALUES
          && ps_value_lod_get_point (row->values, ps_value_lod_find (row->values, x), &point_x, &value)
          && point_x == x)
        return (int)r;
    }
  return first;
}

/* The extent of the focused tracks' points: on a CE run the focused
 * instances' own (their marker's row holds its other instances' too),
 * else their charts'; FALSE when they have none */
static gboolean
focus_points_extent (PsTimelineView *self,
                     gint64         *first,
                     gint64         *last)
{
  guint n_tracks = ps_event_store_get_n_tracks (self->model->store);
  guint n_focus;
  const guint32 *focus = ps_session_get_focus_tracks (self->session, &n_focus);
  /* Looked up once per row, not row by row in the focus */
  g_autofree guint8 *focused = NULL;
  gboolean found = FALSE;
  gint64 track_first, track_last;

  if (self->model->track_extents != NULL)
    {
      for (guint i = 0; i < n_focus; i++)
        if (ps_timeline_model_get_track_extent (self->model, focus[i], &track_first, &track_last))
          {
            *first = found ? MIN (*first, track_first) : track_first;
            *last = found ? MAX (*last, track_last) : track_last;
            found = TRUE;
          }
      return found;
    }
  focused = g_new0 (guint8, n_tracks + 1);
  for (guint i = 0; i < n_focus; i++)
    if (focus[i] < n_tracks)
      focused[focus[i]] = 1;
  for (guint r = 0; r < self->model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);
      gint64 x_min, x_max;
      double v_min, v_max;

      if (row->kind != PS_TIMELINE_ROW_VALUES || row->values == NULL || row->track >= n_tracks
          || !focused[row->track] || !ps_value_lod_get_range (row->values, &x_min, &x_max, &v_min, &v_max))
        continue;
      *first = found ? MIN (*first, x_min) : x_min;
      *last = found ? MAX (*last, x_max) : x_max;
      found = TRUE;
    }
  return found;
}

/* The points of the charts focused in another view come into view as a
 * chosen span does: panned to when none is in view, and zoomed into when
 * all of them lie within a few pixels — a CE marker's instance among a
 * log's hundreds of others was a dot at the edge of its chart */
static void
reveal_focus_points (PsTimelineView *self)
{
  double plot_width = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - ps_timeline_view_label_width (self), 1);
  gint64 first, last, begin, end;

  if (!focus_points_extent (self, &first, &last))
    return;
  ps_timeline_view_get_visible (self, &begin, &end);
  if (last > first && (double)(last - first) / (double)MAX (end - begin, 1) * plot_width < MIN_REVEAL_PIXELS)
    {
      gint64 margin = MAX ((last - first) / 20, 1);

      ps_timeline_view_set_visible (self, (double)(first - margin), (double)(last + margin));
    }
  else if (last < begin || first > end)
    ps_timeline_view_reveal_range (self, first, last, FALSE);
}

static gboolean
same_tracks (GArray        *followed,
             const guint32 *tracks,
             guint          n_tracks)
{
  return followed->len == n_tracks && memcmp (followed->data, tracks, n_tracks * sizeof (guint32)) == 0;
}

/* What another view chose: its rows come into view and are marked (the
 * renderer marks the focused tracks), a chosen span gets the cursor and
 * is zoomed to if it is too narrow to see, a chosen measurement is
 * panned to */
void
ps_timeline_view_follow_session (PsTimelineView *self)
{
  guint n_tracks;
  const guint32 *tracks;
  guint64 span, mark, measurement;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->session == NULL || self->model == NULL)
    return;

  tracks = ps_session_get_focus_tracks (self->session, &n_tracks);
  if (!same_tracks (self->followed_focus, tracks, n_tracks))
    {
      int first = -1;

      g_array_set_size (self->followed_focus, 0);
      g_array_append_vals (self->followed_focus, tracks, n_tracks);
      ps_timeline_view_find_focus_charts (self);
      /* A thread of a sampled run has a lane shown and a chart of its
       * rate in a closed group: the lane, rather than opening the group */
      for (guint r = 0; n_tracks > 0 && r < self->model->rows->len; r++)
        {
          PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);

          if (row->kind != PS_TIMELINE_ROW_GROUP && ps_timeline_view_row_is_focused (self, row))
            {
              if (first < 0)
                first = (int)r;
              if (!row->hidden)
                {
                  first = (int)r;
                  break;
                }
            }
        }
      if (first >= 0)
        {
          self->cursor_row = first;
          ps_timeline_view_show_row (self, first, TRUE);
        }
      if (n_tracks > 0)
        reveal_focus_points (self);
    }

  span = ps_session_get_selected_span (self->session);
  if (span != self->followed_span)
    {
      self->followed_span = span;
      if (span != PS_SESSION_NO_SPAN && span != self->cursor_span && self->model->lod != NULL)
        {
          self->cursor_span = span;
          self->cursor_row = ps_timeline_view_row_of_track (self, ps_event_store_get_span (self->model->store, span)->track);
          ps_timeline_view_reveal_span (self, span, TRUE);
          ps_timeline_view_update_accessible (self);
        }
    }

  mark = ps_session_get_selected_mark (self->session);
  if (mark != self->followed_mark)
    {
      self->followed_mark = mark;
      if (mark != PS_SESSION_NO_MARK)
        {
          const PsMark *m = ps_event_store_get_mark (self->model->store, mark);

          ps_timeline_view_show_row (self, ps_timeline_view_row_of_track (self, m->track), FALSE);
          ps_timeline_view_reveal_range (self, m->time_ns, m->time_ns, FALSE);
        }
    }

  measurement = ps_session_get_selected_measurement (self->session);
  if (measurement != self->followed_measurement)
    {
      self->followed_measurement = measurement;
      if (measurement != PS_SESSION_NO_MEASUREMENT && self->model->sequence_axis)
        {
          PsMeasurement m;
          int index;

          ps_event_store_get_measurement (self->model->store, measurement, &m);
          index = row_with_point (self, m.track, (gint64)m.index);
          ps_timeline_view_show_row (self, index, TRUE);
          if (index >= 0)
            self->cursor_row = index;
          ps_timeline_view_reveal_range (self, (gint64)m.index, (gint64)m.index, FALSE);
        }
    }
}

/* The session of an appended log chosen in another view
 * (ps_session_get_log_session ()): its groups open, the first at the top,
 * the other sessions' groups closed, and its part of the run in view */
void
ps_timeline_view_show_log_session (PsTimelineView *self)
{
  guint chosen = self->session != NULL ? ps_session_get_log_session (self->session) : G_MAXUINT;
  const PsTimelineRow *first = NULL;
  gboolean changed = FALSE;
  guint64 first_measurement, end_measurement;

  if (self->model == NULL || chosen == G_MAXUINT)
    return;
  for (guint r = 0; r < self->model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);
      gboolean collapsed = row->session != chosen;

      if (row->kind != PS_TIMELINE_ROW_GROUP || row->session == G_MAXUINT)
        continue;
      changed |= collapsed != row->collapsed;
      row->collapsed = collapsed;
      if (!collapsed && first == NULL)
        first = row;
    }
  if (first == NULL)
    return;
  if (changed)
    {
      ps_timeline_model_layout (self->model);
      ps_timeline_view_update_adjustments (self);
    }
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, first->y);
  /* Over the sequence of measurements (a CE log's), its first to its last */
  if (self->model->sequence_axis
      && ps_event_store_get_session_measurements (self->model->store, chosen, &first_measurement, &end_measurement))
    ps_timeline_view_set_visible (self, (double)first_measurement, (double)(end_measurement - 1));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A new model follows the session's choice from the start */
void
ps_timeline_view_forget_followed (PsTimelineView *self)
{
  g_array_set_size (self->followed_focus, 0);
  self->followed_span = PS_SESSION_NO_SPAN;
  self->followed_mark = PS_SESSION_NO_MARK;
  self->followed_measurement = PS_SESSION_NO_MEASUREMENT;
}

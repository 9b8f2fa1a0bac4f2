/* ps-timeline-view-draw.c — what the timeline shows and says: its frames,
 * its picture, its tooltips and its description for a screen reader
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the widget (ps-timeline-view.c) because it only reads its
 * state: the frame is filled from the visible range, the rows and the
 * session's choices and drawn with ps_timeline_render (), and a tooltip
 * or the accessible description tells in words what is under the pointer
 * or the cursor.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>

#include "ps-chart-util.h"
#include "ps-timeline-view-private.h"
#include "ps-util.h"
#include "ps-view-util.h"

/* Tooltips */

static char *
describe_span (PsTimelineView *self,
               guint64         span)
{
  PsEventStore *store = self->model->store;
  const PsSpan *s = ps_event_store_get_span (store, span);
  const PsTrack *track = ps_event_store_get_track (store, s->track);
  g_autofree char *duration = ps_util_format_seconds ((s->end_ns - s->begin_ns) / 1e9);
  g_autofree char *begin = ps_timeline_format_x (self->model, (double)s->begin_ns, 1000);
  g_autofree char *end = ps_timeline_format_x (self->model, (double)s->end_ns, 1000);
  g_autofree char *wall = ps_timeline_format_wall (self->model, s->begin_ns);
  g_autofree char *name = ps_util_display_text (ps_event_store_get_string (store, s->name), -1);
  g_autofree char *thread = track != NULL ? ps_util_display_text (ps_event_store_get_string (store, track->name), -1)
                                          : g_strdup ("?");
  GString *text = g_string_new (name);

  g_string_append_c (text, '\n');
  /* Translators: a span's tooltip; %s is a duration with its unit */
  g_string_append_printf (text, _("Duration: %s"), duration);
  if (s->flags & PS_SPAN_FLAG_UNTERMINATED)
    g_string_append_printf (text, " %s", _("(no end in the log: at least this long)"));
  else if (s->flags & PS_SPAN_FLAG_CLOCK_BACK)
    g_string_append_printf (text, " %s", _("(the clock went back: unreliable)"));
  g_string_append_c (text, '\n');
  /* Translators: a span's tooltip; the %s are times from the run's start */
  g_string_append_printf (text, _("From %s to %s"), begin, end);
  if (wall != NULL)
    g_string_append_printf (text, "\n%s", wall);
  g_string_append_c (text, '\n');
  /* Translators: a span's tooltip; %s is a thread's id, %u a nesting depth */
  g_string_append_printf (text, _("Thread %s, depth %u"), thread, s->depth);
  return g_string_free (text, FALSE);
}

char *
ps_timeline_view_describe_at (PsTimelineView *self,
                              double          x,
                              double          y)
{
  PsTimelineRow *row;
  double row_y;
  guint64 span;

  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  if (self->model == NULL)
    return NULL;
  if (y < PS_TIMELINE_OVERVIEW_HEIGHT)
    return g_strdup (_("The whole run: drag to move the view, click to centre it"));
  row = ps_timeline_view_get_row (self, ps_timeline_view_row_at (self, y));
  if (row == NULL)
    return NULL;
  if (x < ps_timeline_view_label_width (self) || row->kind == PS_TIMELINE_ROW_GROUP)
    {
      g_autofree char *tooltip = NULL;

      if (row->kind == PS_TIMELINE_ROW_GROUP)
        return g_strdup_printf ("%s — %s", row->label,
                                row->collapsed ? _("click to show its rows") : _("click to hide its rows"));
      tooltip = ps_timeline_row_tooltip (row);
      /* The whole label, which the column may show cut */
      if (tooltip == NULL || strstr (tooltip, row->label) != NULL)
        return g_strdup (tooltip != NULL ? tooltip : row->label);
      return g_strdup_printf ("%s\n%s", row->label, tooltip);
    }

  row_y = ps_timeline_view_rows_y (self, y);
  if (row->kind == PS_TIMELINE_ROW_SPANS)
    {
      if (row->has_marks && row_y < row->y + PS_TIMELINE_MARK_HEIGHT)
        {
          guint64 mark = ps_span_lod_find_mark (self->model->lod, row->track, (gint64)ps_timeline_view_value_at (self, x),
                                                (gint64)ps_timeline_view_slop (self));
          const PsMark *m;
          g_autofree char *time = NULL;
          g_autofree char *text = NULL;

          if (mark == PS_SPAN_LOD_NO_SPAN)
            return NULL;
          m = ps_event_store_get_mark (self->model->store, mark);
          time = ps_timeline_format_x (self->model, (double)m->time_ns, 1000);
          text = ps_util_display_text (ps_event_store_get_string (self->model->store, m->text), -1);
          /* Translators: a message's tooltip: its text, its time and its line */
          return g_strdup_printf (_("%s\nat %s, line %" PRIu64), text, time, m->line);
        }
      span = ps_timeline_view_span_at (self, x, y);
      return span != PS_SPAN_LOD_NO_SPAN ? describe_span (self, span) : NULL;
    }

  if (row->kind == PS_TIMELINE_ROW_SAMPLES)
    return ps_timeline_describe_samples (self->model, row, (gint64)ps_timeline_view_value_at (self, x), (gint64)ps_timeline_view_slop (self));

  if (row->kind == PS_TIMELINE_ROW_VALUES)
    {
      gsize index = ps_value_lod_find (row->values, (gint64)ps_timeline_view_value_at (self, x));
      g_autofree char *where = NULL;
      g_autofree char *number = NULL;
      gint64 point_x, begin, end;
      double value;

      if (!ps_value_lod_get_point (row->values, index, &point_x, &value))
        return NULL;
      /* To a thousandth of the visible range, as the counter charts say it */
      ps_timeline_view_get_visible (self, &begin, &end);
      where = ps_timeline_format_x (self->model, (double)point_x,
                                    self->model->sequence_axis ? 1 : MAX ((double)(end - begin) / 1000, 1));
      number = ps_view_format_number (value * row->unit_scale);
      /* Which registration of a marker registered again and again, as
       * its row in the marker table reads */
      if (row->several_instances && point_x >= 0
          && (guint64)point_x < ps_event_store_get_n_measurements (self->model->store))
        {
          PsMeasurement m;

          ps_event_store_get_measurement (self->model->store, (guint64)point_x, &m);
          if (m.track < ps_event_store_get_n_tracks (self->model->store))
            {
              g_autofree char *ordinal = ps_view_format_count (ps_event_store_get_track (self->model->store, m.track)->ordinal);
              /* Translators: which registration of a marker a point on its
               * chart is; %s is its ordinal, "Instance 2" */
              g_autofree char *instance = g_strdup_printf (_("Instance %s"), ordinal);

              return g_strdup_printf ("%s\n%s %s %s\n%s", row->label, number, row->unit, where, instance);
            }
        }
      return g_strdup_printf ("%s\n%s %s %s", row->label, number, row->unit, where);
    }
  return NULL;
}

gboolean
ps_timeline_view_query_tooltip_cb (PsTimelineView *self,
                                   int             x,
                                   int             y,
                                   gboolean        keyboard,
                                   GtkTooltip     *tooltip)
{
  g_autofree char *text = NULL;

  if (keyboard && self->cursor_span != PS_SPAN_LOD_NO_SPAN && self->model != NULL)
    text = describe_span (self, self->cursor_span);
  else
    text = ps_timeline_view_describe_at (self, x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Accessibility: the widget's description follows the cursor */

void
ps_timeline_view_update_accessible (PsTimelineView *self)
{
  g_autofree char *description = NULL;

  g_clear_pointer (&self->status, g_free);
  if (self->model != NULL && self->cursor_span != PS_SPAN_LOD_NO_SPAN)
    {
      g_auto(GStrv) lines = NULL;

      description = describe_span (self, self->cursor_span);
      /* The same on one line, at the bottom of the view */
      lines = g_strsplit (description, "\n", -1);
      self->status = g_strjoinv (" · ", lines);
    }
  else if (self->model != NULL)
    /* Translators: the timeline's accessible description */
    description = g_strdup_printf (ngettext ("%u row. Arrow keys move between spans, plus and minus zoom.",
                                             "%u rows. Arrow keys move between spans, plus and minus zoom.",
                                             self->model->rows->len),
                                   self->model->rows->len);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description != NULL ? description : "",
                                  -1);
}

/* Drawing */

static void
draw_frame (PsTimelineView  *self,
            cairo_t         *cr,
            PsTimelineFrame *frame,
            PsTimelineStats *stats)
{
  if (self->model == NULL)
    {
      GdkRGBA foreground;

      ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
      ps_chart_set_source (cr, &foreground, 0.6);
      ps_chart_draw_text (GTK_WIDGET (self), cr, _("Indexing the run…"), frame->width / 2.0, frame->height / 2.0, 0.5, 0.5);
    }
  else
    ps_timeline_render (self->model, frame, cr, stats);
}

void
ps_timeline_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (widget);
  PsTimelineFrame frame;
  cairo_t *cr;

  ps_timeline_view_fill_frame (self, &frame);
  if (frame.width <= frame.label_width || frame.height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, frame.width, frame.height));
  draw_frame (self, cr, &frame, &self->stats);
  cairo_destroy (cr);
  self->drawn_serial = self->model_serial;
}

gboolean
ps_timeline_view_has_drawn_model (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), FALSE);
  return self->model != NULL && self->drawn_serial == self->model_serial;
}

void
ps_timeline_view_draw_picture (PsTimelineView *self,
                               cairo_t        *cr,
                               int             width,
                               int             height)
{
  PsTimelineFrame frame;
  PsTimelineStats stats = { 0 };

  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));
  g_return_if_fail (cr != NULL);

  /* The same range, rows, selection and highlight at another size; the
   * widget's frame statistics stay those of the screen */
  ps_timeline_view_fill_frame (self, &frame);
  frame.width = width;
  frame.height = height;
  frame.label_width = ps_timeline_view_label_width_at (self, width);
  if (frame.width <= frame.label_width || frame.height <= 0)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  draw_frame (self, cr, &frame, &stats);
  cairo_restore (cr);
}

static void
ps_timeline_view_picture_source_draw (PsPictureSource *source,
                                      cairo_t         *cr,
                                      int              width,
                                      int              height)
{
  ps_timeline_view_draw_picture (PS_TIMELINE_VIEW (source), cr, width, height);
}

static const char *
ps_timeline_view_picture_source_name (PsPictureSource *source)
{
  return "timeline";
}

void
ps_timeline_view_picture_source_init (PsPictureSourceInterface *iface)
{
  iface->draw_picture = ps_timeline_view_picture_source_draw;
  iface->get_picture_name = ps_timeline_view_picture_source_name;
}

double
ps_timeline_view_get_label_width (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), PS_TIMELINE_LABEL_WIDTH);

  return ps_timeline_view_label_width (self);
}

const char *
ps_timeline_view_get_row_label (PsTimelineView *self,
                                guint           row)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  if (self->model == NULL || row >= self->model->rows->len)
    return NULL;
  return ps_timeline_model_row_label (self->model, gtk_widget_get_pango_context (GTK_WIDGET (self)),
                                      ps_timeline_view_label_width (self), row);
}

const char *
ps_timeline_view_get_status (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  return self->status != NULL ? self->status : self->highlight_status;
}

const PsTimelineStats *
ps_timeline_view_get_frame_stats (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  return &self->stats;
}

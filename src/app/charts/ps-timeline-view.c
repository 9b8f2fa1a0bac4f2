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
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-chart-util.h"
#include "ps-picture-export.h"
#include "ps-picture-source.h"
#include "ps-selection-util.h"
#include "ps-timeline-view.h"
#include "ps-util.h"
#include "ps-view-util.h"

#define MIN_VISIBLE_NS    1000          /* 1 µs across the plot */
#define MIN_VISIBLE_STEPS 10            /* on a sequence axis */
#define MAX_SEQUENCE_SPAN 100.0         /* times the run's sequence shown */
#define ZOOM_STEP         1.5
#define PAN_FRACTION      0.1
#define DRAG_THRESHOLD    4.0
#define HIT_SLOP_PIXELS   3.0
#define POINT_SLOP_PIXELS 8.0
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
  gulong           reveal_handler;
  gulong           log_session_handler;
  /* What of the session's choice the view has followed (another view
   * chose it, or this one) */
  GArray          *followed_focus;   /* guint32 */
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
  GHashTable      *shared_ranges;  /* value key → PsTimelineValueRange, or NULL */
};

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

static void ps_timeline_view_picture_source_init (PsPictureSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsTimelineView, ps_timeline_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL)
                               G_IMPLEMENT_INTERFACE (PS_TYPE_PICTURE_SOURCE, ps_timeline_view_picture_source_init))

static void update_adjustments (PsTimelineView *self);
static void update_accessible (PsTimelineView *self);
static void toggle_group (PsTimelineView *self,
                          int             index);
static void follow_session (PsTimelineView *self);
static void forget_followed (PsTimelineView *self);
static void highlight_changed_cb (PsTimelineView *self);
static void points_changed_cb (PsTimelineView *self);
static void show_log_session (PsTimelineView *self);

/* Ranges */

static gint64
min_visible (PsTimelineView *self)
{
  return self->model != NULL && self->model->sequence_axis ? MIN_VISIBLE_STEPS : MIN_VISIBLE_NS;
}

/* Sets the visible range, kept inside the run and at least the minimum */
static void
set_visible (PsTimelineView *self,
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

static void
get_visible (PsTimelineView *self,
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

/* The width of the label column at the view's width, or at another one
 * (a picture's) */
static double
label_width_at (PsTimelineView *self,
                int             width)
{
  if (self->model == NULL)
    return PS_TIMELINE_LABEL_WIDTH;
  return ps_timeline_model_label_width (self->model, gtk_widget_get_pango_context (GTK_WIDGET (self)), width);
}

static double
label_width (PsTimelineView *self)
{
  return label_width_at (self, gtk_widget_get_width (GTK_WIDGET (self)));
}

static void
fill_frame (PsTimelineView  *self,
            PsTimelineFrame *frame)
{
  GtkWidget *widget = GTK_WIDGET (self);

  memset (frame, 0, sizeof *frame);
  frame->width = gtk_widget_get_width (widget);
  frame->height = gtk_widget_get_height (widget);
  frame->label_width = label_width (self);
  frame->scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  get_visible (self, &frame->begin, &frame->end);
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

      frame->focus_tracks = ps_session_get_focus_tracks (self->session, &frame->n_focus_tracks);
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
          frame->chosen_point_track = m.track;
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

  fill_frame (self, &frame);
  return ps_timeline_frame_x_of (&frame, (double)value);
}

static double
value_at (PsTimelineView *self,
          double          x)
{
  PsTimelineFrame frame;

  fill_frame (self, &frame);
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
  get_visible (self, &begin, &end);
  anchor = value_at (self, CLAMP (anchor_x, label_width (self), gtk_widget_get_width (GTK_WIDGET (self))));
  length = (double)(end - begin) / factor;
  length = MAX (length, (double)min_visible (self));
  /* The point under the anchor stays where it is */
  set_visible (self,
               anchor - (anchor - (double)begin) / (double)(end - begin) * length,
               anchor - (anchor - (double)begin) / (double)(end - begin) * length + length);
}

void
ps_timeline_view_reset_zoom (PsTimelineView *self)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  if (self->model != NULL)
    set_visible (self, (double)self->model->extent_begin, (double)self->model->extent_end);
}

static void
zoom_to (PsTimelineView *self,
         gint64          begin,
         gint64          end)
{
  double margin = (double)(end - begin) * 0.05;

  set_visible (self, (double)begin - margin, (double)end + margin);
}

void
ps_timeline_view_zoom_to_selection (PsTimelineView *self)
{
  gint64 begin, end;

  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  if (self->session != NULL && ps_session_get_selection (self->session, &begin, &end))
    zoom_to (self, begin, end);
}

static double
cursor_anchor_x (PsTimelineView *self)
{
  const PsSpan *span;

  if (self->cursor_span != PS_SPAN_LOD_NO_SPAN && self->model != NULL
      && (span = ps_event_store_get_span (self->model->store, self->cursor_span)) != NULL)
    return ps_timeline_view_x_of (self, span->begin_ns + (span->end_ns - span->begin_ns) / 2);
  return label_width (self) + (gtk_widget_get_width (GTK_WIDGET (self)) - label_width (self)) / 2.0;
}

static void
pan (PsTimelineView *self,
     double          fraction)
{
  gint64 begin, end;
  double shift;

  get_visible (self, &begin, &end);
  shift = (double)(end - begin) * fraction;
  set_visible (self, (double)begin + shift, (double)end + shift);
}

/* Rows and spans */

static PsTimelineRow *
get_row (PsTimelineView *self,
         int             index)
{
  if (self->model == NULL || index < 0 || (guint)index >= self->model->rows->len)
    return NULL;
  return g_ptr_array_index (self->model->rows, index);
}

static int
row_of_track (PsTimelineView *self,
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
static int
row_at (PsTimelineView *self,
        double          y)
{
  double scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;

  if (self->model == NULL || y < PS_TIMELINE_HEADER_HEIGHT)
    return -1;
  return ps_timeline_model_row_at (self->model, y - PS_TIMELINE_HEADER_HEIGHT + scroll_y);
}

static double
rows_y (PsTimelineView *self,
        double          y)
{
  double scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;

  return y - PS_TIMELINE_HEADER_HEIGHT + scroll_y;
}

static double
slop (PsTimelineView *self)
{
  gint64 begin, end;

  get_visible (self, &begin, &end);
  return (double)(end - begin) / MAX (gtk_widget_get_width (GTK_WIDGET (self)) - label_width (self), 1)
         * HIT_SLOP_PIXELS;
}

/* The span at widget (x, y), or PS_SPAN_LOD_NO_SPAN */
static guint64
span_at (PsTimelineView *self,
         double          x,
         double          y)
{
  PsTimelineRow *row = get_row (self, row_at (self, y));
  int depth;

  if (row == NULL || row->kind != PS_TIMELINE_ROW_SPANS || x < label_width (self))
    return PS_SPAN_LOD_NO_SPAN;
  depth = ps_timeline_row_depth_at (row, rows_y (self, y));
  if (depth < 0)
    return PS_SPAN_LOD_NO_SPAN;
  return ps_span_lod_find (self->model->lod, row->track, depth, (gint64)value_at (self, x), (gint64)slop (self));
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
  row = get_row (self, row_of_track (self, s->track));
  if (row == NULL || row->hidden)
    return -1;
  scroll_y = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  return PS_TIMELINE_HEADER_HEIGHT - scroll_y + ps_timeline_row_depth_y (row, s->depth)
         + PS_TIMELINE_SPAN_HEIGHT / 2;
}

/* Opens the row's group if it is collapsed and scrolls the row into the
 * vertical view: its top, and as much of it as fits (whole, with whole) */
static void
show_row (PsTimelineView *self,
          int             index,
          gboolean        whole)
{
  PsTimelineRow *row = get_row (self, index);
  PsTimelineRow *group;
  double value, page, height;

  if (row == NULL)
    return;
  group = row->group != G_MAXUINT ? get_row (self, (int)row->group) : NULL;
  if (group != NULL && group->collapsed)
    toggle_group (self, (int)row->group);
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
static void
reveal_range (PsTimelineView *self,
              gint64          from,
              gint64          to,
              gboolean        legible)
{
  double plot_width = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - label_width (self), 1);
  gint64 begin, end, length, middle = from + (to - from) / 2;

  get_visible (self, &begin, &end);
  length = end - begin;
  if (to - from > length)
    zoom_to (self, from, to);
  else if (legible && to > from && (double)(to - from) / (double)length * plot_width < 4)
    {
      double wanted = (double)(to - from) * plot_width / MIN_REVEAL_PIXELS;

      set_visible (self, (double)middle - wanted / 2, (double)middle + wanted / 2);
    }
  else if (from < begin || to > end)
    set_visible (self, (double)(middle - length / 2), (double)(middle + length / 2));
}

/* Keeps the cursor's span in the visible range, panning if needed */
static void
reveal_span (PsTimelineView *self,
             guint64         span,
             gboolean        legible)
{
  const PsSpan *s = ps_event_store_get_span (self->model->store, span);

  show_row (self, row_of_track (self, s->track), FALSE);
  reveal_range (self, s->begin_ns, MAX (s->end_ns, s->begin_ns), legible);
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
      self->cursor_row = row_of_track (self, ps_event_store_get_span (self->model->store, span)->track);
      reveal_span (self, span, FALSE);
    }
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
select_span (PsTimelineView *self,
             guint64         span)
{
  const PsSpan *s = ps_event_store_get_span (self->model->store, span);

  if (s != NULL)
    ps_session_set_selection (self->session, s->begin_ns, MAX (s->end_ns, s->begin_ns));
}

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
  row = get_row (self, row_at (self, y));
  if (row == NULL)
    return NULL;
  if (x < label_width (self) || row->kind == PS_TIMELINE_ROW_GROUP)
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

  row_y = rows_y (self, y);
  if (row->kind == PS_TIMELINE_ROW_SPANS)
    {
      if (row->has_marks && row_y < row->y + PS_TIMELINE_MARK_HEIGHT)
        {
          guint64 mark = ps_span_lod_find_mark (self->model->lod, row->track, (gint64)value_at (self, x),
                                                (gint64)slop (self));
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
      span = span_at (self, x, y);
      return span != PS_SPAN_LOD_NO_SPAN ? describe_span (self, span) : NULL;
    }

  if (row->kind == PS_TIMELINE_ROW_SAMPLES)
    return ps_timeline_describe_samples (self->model, row, (gint64)value_at (self, x), (gint64)slop (self));

  if (row->kind == PS_TIMELINE_ROW_VALUES)
    {
      gsize index = ps_value_lod_find (row->values, (gint64)value_at (self, x));
      g_autofree char *where = NULL;
      g_autofree char *number = NULL;
      gint64 point_x, begin, end;
      double value;

      if (!ps_value_lod_get_point (row->values, index, &point_x, &value))
        return NULL;
      /* To a thousandth of the visible range, as the counter charts say it */
      get_visible (self, &begin, &end);
      where = ps_timeline_format_x (self->model, (double)point_x,
                                    self->model->sequence_axis ? 1 : MAX ((double)(end - begin) / 1000, 1));
      number = ps_view_format_number (value * row->unit_scale);
      return g_strdup_printf ("%s\n%s %s %s", row->label, number, row->unit, where);
    }
  return NULL;
}

static gboolean
query_tooltip_cb (PsTimelineView *self,
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

static void
update_accessible (PsTimelineView *self)
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

static void
ps_timeline_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (widget);
  PsTimelineFrame frame;
  cairo_t *cr;

  fill_frame (self, &frame);
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
  fill_frame (self, &frame);
  frame.width = width;
  frame.height = height;
  frame.label_width = label_width_at (self, width);
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

static void
ps_timeline_view_picture_source_init (PsPictureSourceInterface *iface)
{
  iface->draw_picture = ps_timeline_view_picture_source_draw;
  iface->get_picture_name = ps_timeline_view_picture_source_name;
}

double
ps_timeline_view_get_label_width (PsTimelineView *self)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), PS_TIMELINE_LABEL_WIDTH);

  return label_width (self);
}

const char *
ps_timeline_view_get_row_label (PsTimelineView *self,
                                guint           row)
{
  g_return_val_if_fail (PS_IS_TIMELINE_VIEW (self), NULL);

  if (self->model == NULL || row >= self->model->rows->len)
    return NULL;
  return ps_timeline_model_row_label (self->model, gtk_widget_get_pango_context (GTK_WIDGET (self)),
                                      label_width (self), row);
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

/* Scrolling: GtkScrollable */

static void
update_adjustments (PsTimelineView *self)
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
      get_visible (self, &begin, &end);
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
  get_visible (self, &begin, &end);
  value = gtk_adjustment_get_value (self->hadjustment);
  set_visible (self, value, value + (double)(end - begin));
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
  update_adjustments (self);
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

  get_visible (self, &begin, &end);
  /* The whole run rather than a range of another axis */
  if (!is_of_axis (self, begin, end))
    {
      ps_timeline_view_reset_zoom (self);
      return;
    }
  update_adjustments (self);
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
  ps_timeline_view_reset_zoom (self);
  update_adjustments (self);
  show_log_session (self);
  forget_followed (self);
  follow_session (self);
  if (ps_session_get_highlight (self->session) != NULL)
    highlight_changed_cb (self);
  if (ps_session_get_highlight_points_extent (self->session, NULL, NULL))
    points_changed_cb (self);
  update_accessible (self);
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
    model = ps_timeline_model_new_full (data->store, data->lod, NULL, 0, FALSE, data->counter_tracks,
                                        data->sample_source, cancellable);

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
  g_task_run_in_thread (task, build_model_thread);
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
  update_adjustments (self);
  /* A focused counter that was just checked has its row now */
  g_array_set_size (self->followed_focus, 0);
  follow_session (self);
  update_accessible (self);
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
  update_adjustments (self);
  update_accessible (self);
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
  g_task_run_in_thread (task, build_model_thread);
}

static void
queue_draw_cb (PsTimelineView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

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
      return !row->hidden && ps_session_is_focus_track (self->session, row->track);
    case 1:
    case 2:
      return !row->hidden;
    default:
      return TRUE;
    }
}

/* Whether the track has highlighted spans in from…to; *depth: the first
 * depth that has */
static gboolean
highlight_in (PsSpanLod *highlight,
              guint32    track,
              gint64     from,
              gint64     to,
              guint     *depth)
{
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (PsSpanLodItem));
  guint n_depths = ps_span_lod_get_n_depths (highlight, track);

  for (guint d = 0; d < n_depths; d++)
    if (ps_span_lod_query (highlight, track, d, from, to, (double)(to - from) + 1, items) > 0)
      {
        *depth = d;
        return TRUE;
      }
  return FALSE;
}

/* Highlighted spans out of sight: the view zooms out or pans to them when
 * none is in the visible range, and the first row that has some there
 * comes into view */
static void
highlight_changed_cb (PsTimelineView *self)
{
  PsSpanLod *highlight = self->session != NULL ? ps_session_get_highlight (self->session) : NULL;
  gint64 begin, end, first, last;
  int found = -1;
  guint depth = 0;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_highlight_status (self);
  if (highlight == NULL || self->model == NULL || self->model->lod == NULL)
    return;

  for (int pass = 0; pass < N_ROW_PASSES && found < 0; pass++)
    {
      get_visible (self, &begin, &end);
      for (guint r = 0; r < self->model->rows->len && found < 0; r++)
        {
          PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);

          if (row->kind == PS_TIMELINE_ROW_SPANS && row_in_pass (self, row, pass)
              && highlight_in (highlight, row->track, begin, end, &depth))
            found = (int)r;
        }
      if (found < 0 && pass == REVEAL_PASS && ps_span_lod_get_extent (highlight, &first, &last))
        reveal_range (self, first, MAX (last, first), FALSE);
    }
  if (found < 0)
    return;
  show_row (self, found, FALSE);
  if (self->vadjustment != NULL)
    {
      PsTimelineRow *row = get_row (self, found);
      double y = ps_timeline_row_depth_y (row, depth);
      double top = gtk_adjustment_get_value (self->vadjustment);
      double page = gtk_adjustment_get_page_size (self->vadjustment);

      if (y < top || y + PS_TIMELINE_SPAN_HEIGHT > top + page)
        gtk_adjustment_set_value (self->vadjustment, MAX (y - PS_TIMELINE_SPAN_HEIGHT, 0));
    }
}

/* Whether the track's highlighted points have one in from…to */
static gboolean
points_in (PsValueLod *points,
           gint64      from,
           gint64      to)
{
  gsize index = ps_value_lod_find (points, from);

  /* The nearest point may lie before from, the next one in the range */
  for (gsize i = index; i != G_MAXSIZE && i <= index + 1; i++)
    {
      gint64 x;
      double value;

      if (ps_value_lod_get_point (points, i, &x, &value) && x >= from && x <= to)
        return TRUE;
    }
  return FALSE;
}

/* Highlighted points (CE measurements of a histogram's bars, samples of a
 * function): brought into view as highlighted spans are */
static void
points_changed_cb (PsTimelineView *self)
{
  gint64 begin, end, first, last;
  int found = -1;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_highlight_status (self);
  if (self->model == NULL || !ps_session_get_highlight_points_extent (self->session, &first, &last))
    return;
  for (int pass = 0; pass < N_ROW_PASSES && found < 0; pass++)
    {
      get_visible (self, &begin, &end);
      for (guint r = 0; r < self->model->rows->len && found < 0; r++)
        {
          PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);
          PsValueLod *points = row->kind == PS_TIMELINE_ROW_VALUES || row->kind == PS_TIMELINE_ROW_SAMPLES
                               ? ps_session_get_highlight_points (self->session, row->track) : NULL;

          if (points != NULL && row_in_pass (self, row, pass) && points_in (points, begin, end))
            found = (int)r;
        }
      if (found < 0 && pass == REVEAL_PASS)
        reveal_range (self, first, last, FALSE);
    }
  show_row (self, found, TRUE);
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

      if (row->track != track || row->kind == PS_TIMELINE_ROW_GROUP)
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
static void
follow_session (PsTimelineView *self)
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
      /* A thread of a sampled run has a lane shown and a chart of its
       * rate in a closed group: the lane, rather than opening the group */
      for (guint r = 0; n_tracks > 0 && r < self->model->rows->len; r++)
        {
          PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);

          if (row->kind != PS_TIMELINE_ROW_GROUP && ps_session_is_focus_track (self->session, row->track))
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
          show_row (self, first, TRUE);
        }
    }

  span = ps_session_get_selected_span (self->session);
  if (span != self->followed_span)
    {
      self->followed_span = span;
      if (span != PS_SESSION_NO_SPAN && span != self->cursor_span && self->model->lod != NULL)
        {
          self->cursor_span = span;
          self->cursor_row = row_of_track (self, ps_event_store_get_span (self->model->store, span)->track);
          reveal_span (self, span, TRUE);
          update_accessible (self);
        }
    }

  mark = ps_session_get_selected_mark (self->session);
  if (mark != self->followed_mark)
    {
      self->followed_mark = mark;
      if (mark != PS_SESSION_NO_MARK)
        {
          const PsMark *m = ps_event_store_get_mark (self->model->store, mark);

          show_row (self, row_of_track (self, m->track), FALSE);
          reveal_range (self, m->time_ns, m->time_ns, FALSE);
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
          show_row (self, index, TRUE);
          if (index >= 0)
            self->cursor_row = index;
          reveal_range (self, (gint64)m.index, (gint64)m.index, FALSE);
        }
    }
}

static void
reveal_cb (PsTimelineView *self,
           gint64          begin,
           gint64          end)
{
  if (self->model != NULL)
    reveal_range (self, begin, end, TRUE);
}

/* The session of an appended log chosen in another view
 * (ps_session_get_log_session ()): its groups open, the first at the top,
 * the other sessions' groups closed, and its part of the run in view */
static void
show_log_session (PsTimelineView *self)
{
  guint chosen = self->session != NULL ? ps_session_get_log_session (self->session) : G_MAXUINT;
  const PsTimelineRow *first = NULL;
  gint64 begin = G_MAXINT64, end = G_MININT64;
  gboolean changed = FALSE;

  if (self->model == NULL || chosen == G_MAXUINT)
    return;
  for (guint r = 0; r < self->model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->model->rows, r);
      const PsTimelineRow *group = row->group < r ? g_ptr_array_index (self->model->rows, row->group) : NULL;
      gint64 x_min, x_max;
      double v_min, v_max;

      if (row->kind == PS_TIMELINE_ROW_GROUP && row->session != G_MAXUINT)
        {
          gboolean collapsed = row->session != chosen;

          changed |= collapsed != row->collapsed;
          row->collapsed = collapsed;
          if (!collapsed && first == NULL)
            first = row;
        }
      else if (group != NULL && group->session == chosen && row->values != NULL
               && ps_value_lod_get_range (row->values, &x_min, &x_max, &v_min, &v_max))
        {
          begin = MIN (begin, x_min);
          end = MAX (end, x_max);
        }
    }
  if (first == NULL)
    return;
  if (changed)
    {
      ps_timeline_model_layout (self->model);
      update_adjustments (self);
    }
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, first->y);
  /* Over the sequence of measurements, its first to its last */
  if (self->model->sequence_axis)
    {
      guint64 first_measurement, end_measurement;

      if (ps_event_store_get_session_measurements (self->model->store, chosen, &first_measurement, &end_measurement))
        begin = (gint64)first_measurement, end = (gint64)end_measurement - 1;
    }
  if (begin <= end)
    set_visible (self, (double)begin, (double)end);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A new model follows the session's choice from the start */
static void
forget_followed (PsTimelineView *self)
{
  g_array_set_size (self->followed_focus, 0);
  self->followed_span = PS_SESSION_NO_SPAN;
  self->followed_mark = PS_SESSION_NO_MARK;
  self->followed_measurement = PS_SESSION_NO_MEASUREMENT;
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
      g_clear_signal_handler (&self->reveal_handler, self->session);
      g_clear_signal_handler (&self->log_session_handler, self->session);
    }
  forget_followed (self);
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
                                                          G_CALLBACK (highlight_changed_cb), self);
      self->counter_tracks_handler = g_signal_connect_swapped (session, "counter-tracks-changed",
                                                               G_CALLBACK (counter_tracks_changed_cb), self);
      self->sample_source_handler = g_signal_connect_swapped (session, "sample-source-changed",
                                                              G_CALLBACK (sample_source_changed_cb), self);
      self->focus_handler = g_signal_connect_swapped (session, "focus-changed",
                                                      G_CALLBACK (follow_session), self);
      self->points_handler = g_signal_connect_swapped (session, "notify::highlight-points",
                                                       G_CALLBACK (points_changed_cb), self);
      self->reveal_handler = g_signal_connect_swapped (session, "reveal",
                                                       G_CALLBACK (reveal_cb), self);
      self->log_session_handler = g_signal_connect_swapped (session, "log-session-changed",
                                                            G_CALLBACK (show_log_session), self);
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

/* Pointer */

static void
toggle_group (PsTimelineView *self,
              int             index)
{
  PsTimelineRow *row = get_row (self, index);

  if (row == NULL || row->kind != PS_TIMELINE_ROW_GROUP)
    return;
  row->collapsed = !row->collapsed;
  ps_timeline_model_layout (self->model);
  update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
center_overview_at (PsTimelineView *self,
                    double          x)
{
  gint64 begin, end;
  double fraction, center;

  get_visible (self, &begin, &end);
  fraction = (x - label_width (self)) / MAX (gtk_widget_get_width (GTK_WIDGET (self)) - label_width (self), 1);
  center = (double)self->model->extent_begin + fraction * (double)(self->model->extent_end - self->model->extent_begin);
  set_visible (self, center - (double)(end - begin) / 2, center + (double)(end - begin) / 2);
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

static void
click_pressed_cb (PsTimelineView  *self,
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
  index = row_at (self, y);
  row = get_row (self, index);
  if (row == NULL)
    return;
  self->cursor_row = index;
  if (row->kind == PS_TIMELINE_ROW_GROUP)
    {
      toggle_group (self, index);
      return;
    }
  /* A row's label chooses its thread, marker or counter */
  if (x < label_width (self))
    {
      g_array_set_size (self->followed_focus, 0);
      g_array_append_val (self->followed_focus, row->track);
      ps_session_set_focus_track (self->session, row->track);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  /* A message in the strip above the scopes */
  if (row->kind == PS_TIMELINE_ROW_SPANS && row->has_marks && rows_y (self, y) < row->y + PS_TIMELINE_MARK_HEIGHT)
    {
      guint64 mark = ps_span_lod_find_mark (self->model->lod, row->track, (gint64)value_at (self, x),
                                            (gint64)slop (self));

      if (mark != PS_SPAN_LOD_NO_SPAN)
        {
          self->followed_mark = mark;
          ps_session_set_selected_mark (self->session, mark);
        }
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  span = span_at (self, x, y);
  if (span == PS_SPAN_LOD_NO_SPAN)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->cursor_span = span;
  update_accessible (self);
  choose_span (self, span);
  select_span (self, span);
  if (n_press == 2)
    {
      const PsSpan *s = ps_event_store_get_span (self->model->store, span);

      zoom_to (self, s->begin_ns, s->end_ns);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A click on a chart (released without a drag, which would have claimed
 * the pointer for a selection): on a CE marker's chart the nearest
 * measurement within a few pixels, else the track of the chart or of
 * the lane of samples */
static void
click_released_cb (PsTimelineView  *self,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkGestureClick *gesture)
{
  PsTimelineRow *row;
  gint64 point_x;
  double value;

  if (self->model == NULL || y < PS_TIMELINE_HEADER_HEIGHT || x < label_width (self))
    return;
  row = get_row (self, row_at (self, y));
  if (row == NULL || (row->kind != PS_TIMELINE_ROW_VALUES && row->kind != PS_TIMELINE_ROW_SAMPLES))
    return;
  g_array_set_size (self->followed_focus, 0);
  g_array_append_val (self->followed_focus, row->track);
  if (self->model->sequence_axis && row->kind == PS_TIMELINE_ROW_VALUES
      && ps_value_lod_get_point (row->values, ps_value_lod_find (row->values, (gint64)llround (value_at (self, x))),
                                 &point_x, &value)
      && fabs (ps_timeline_view_x_of (self, point_x) - x) <= POINT_SLOP_PIXELS
      && point_x >= 0 && (guint64)point_x < ps_event_store_get_n_measurements (self->model->store))
    {
      self->followed_measurement = (guint64)point_x;
      ps_session_set_selected_measurement (self->session, (guint64)point_x);
    }
  else
    ps_session_set_focus_track (self->session, row->track);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_timeline_view_click (PsTimelineView *self,
                        double          x,
                        double          y)
{
  g_return_if_fail (PS_IS_TIMELINE_VIEW (self));

  click_pressed_cb (self, 1, x, y, NULL);
  click_released_cb (self, 1, x, y, NULL);
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

      if (row->track == track && row->kind != PS_TIMELINE_ROW_GROUP && !row->hidden)
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
  if (self->model == NULL || x < label_width (self))
    return;
  self->drag_start_x = x;
  self->drag_start_y = y;
  get_visible (self, &self->drag_begin, &self->drag_end);
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
      self->drag_anchor = (gint64)value_at (self, x);
    }
}

/* Returns whether the drag became a selection */
static gboolean
update_drag (PsTimelineView *self,
             double          offset_x,
             double          offset_y)
{
  double width = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - label_width (self), 1);

  switch (self->drag_mode)
    {
    case DRAG_OVERVIEW:
      center_overview_at (self, self->drag_start_x + offset_x);
      break;
    case DRAG_PAN:
      {
        double shift = -offset_x / width * (double)(self->drag_end - self->drag_begin);

        set_visible (self, (double)self->drag_begin + shift, (double)self->drag_end + shift);
        if (self->vadjustment != NULL && offset_y != 0)
          gtk_adjustment_set_value (self->vadjustment,
                                    gtk_adjustment_get_value (self->vadjustment) - (offset_y - self->drag_start_y));
        self->drag_start_y = offset_y;
      }
      break;
    case DRAG_SELECT:
      if (fabs (offset_x) >= DRAG_THRESHOLD)
        {
          gint64 here = (gint64)value_at (self, self->drag_start_x + offset_x);

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

static void
drag_begin_cb (PsTimelineView *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  begin_drag (self, gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)), x, y);
  /* Vertical panning works on offsets from the last update */
  if (self->drag_mode == DRAG_PAN)
    self->drag_start_y = 0;
}

static void
drag_update_cb (PsTimelineView *self,
                double          offset_x,
                double          offset_y,
                GtkGestureDrag *gesture)
{
  if (update_drag (self, offset_x, offset_y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
drag_end_cb (PsTimelineView *self,
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

static void
motion_cb (PsTimelineView           *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
}

static gboolean
scroll_cb (PsTimelineView           *self,
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

static void
zoom_begin_cb (PsTimelineView *self,
               GdkEventSequence *sequence,
               GtkGestureZoom   *gesture)
{
  self->zoom_scale = 1;
}

static void
zoom_scale_changed_cb (PsTimelineView *self,
                       double          scale,
                       GtkGestureZoom *gesture)
{
  double x, y;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    x = cursor_anchor_x (self);
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

  get_visible (self, &begin, &end);
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
    if (!get_row (self, index)->hidden)
      break;
  if (index < 0 || (guint)index >= self->model->rows->len)
    return;
  self->cursor_row = index;
  self->cursor_span = PS_SPAN_LOD_NO_SPAN;
  {
    PsTimelineRow *row = get_row (self, index);
    double top = row->y, value = gtk_adjustment_get_value (self->vadjustment);
    double page = gtk_adjustment_get_page_size (self->vadjustment);

    if (top < value)
      gtk_adjustment_set_value (self->vadjustment, top);
    else if (top + MIN (row->height, 60) > value + page)
      gtk_adjustment_set_value (self->vadjustment, top + MIN (row->height, 60) - page);
  }
  update_accessible (self);
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
    ps_timeline_view_zoom (self, ZOOM_STEP, cursor_anchor_x (self));
  else if (g_str_equal (action, "zoom-out"))
    ps_timeline_view_zoom (self, 1 / ZOOM_STEP, cursor_anchor_x (self));
  else if (g_str_equal (action, "reset"))
    ps_timeline_view_reset_zoom (self);
  else if (g_str_equal (action, "zoom-selection"))
    ps_timeline_view_zoom_to_selection (self);
  else if (g_str_equal (action, "pan-left"))
    pan (self, -PAN_FRACTION);
  else if (g_str_equal (action, "pan-right"))
    pan (self, PAN_FRACTION);
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
      PsTimelineRow *row = get_row (self, self->cursor_row);

      if (self->cursor_span != PS_SPAN_LOD_NO_SPAN)
        {
          const PsSpan *s = ps_event_store_get_span (self->model->store, self->cursor_span);

          choose_span (self, self->cursor_span);
          select_span (self, self->cursor_span);
          zoom_to (self, s->begin_ns, s->end_ns);
        }
      else if (row != NULL && row->kind == PS_TIMELINE_ROW_GROUP)
        toggle_group (self, self->cursor_row);
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

static void
timeline_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  run_action (PS_TIMELINE_VIEW (widget), action_name + strlen ("timeline."));
}

static gboolean
key_binding (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  return run_action (PS_TIMELINE_VIEW (widget), g_variant_get_string (args, NULL));
}

static gboolean
focus_changed_cb (PsTimelineView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return FALSE;
}

/* GObject */

/* Whether the whole row of the cursor (as much as fits) is in view */
static gboolean
cursor_row_in_view (PsTimelineView *self)
{
  PsTimelineRow *cursor = get_row (self, self->cursor_row);
  double value, page;

  if (cursor == NULL || self->vadjustment == NULL)
    return FALSE;
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  return cursor->y >= value && cursor->y + MIN (cursor->height, page) <= value + page;
}

static gboolean
keep_cursor_cb (gpointer user_data)
{
  PsTimelineView *self = user_data;

  self->keep_cursor_id = 0;
  if (!cursor_row_in_view (self))
    show_row (self, self->cursor_row, TRUE);
  return G_SOURCE_REMOVE;
}

static void
ps_timeline_view_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (widget);

  /* The row of the cursor, in view before, stays in view when the
   * timeline gets shorter (the views under it taking more room): scrolled
   * to once the window is laid out, since scrolling while GTK allocates
   * leaves widgets elsewhere in the window without their allocation */
  if (cursor_row_in_view (self) && self->keep_cursor_id == 0)
    self->keep_cursor_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, keep_cursor_cb, self, NULL);
  update_adjustments (self);
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
ps_timeline_view_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  ps_chart_measure (orientation, (int)PS_TIMELINE_LABEL_WIDTH + 200, 900, (int)PS_TIMELINE_HEADER_HEIGHT + 60, 360,
                    minimum, natural);
}

static void
ps_timeline_view_dispose (GObject *object)
{
  PsTimelineView *self = PS_TIMELINE_VIEW (object);

  drop_session (self);
  g_clear_handle_id (&self->keep_cursor_id, g_source_remove);
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
  gtk_widget_class_add_binding (widget_class, keyval, modifiers, key_binding, "s", action);
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
  widget_class->measure = ps_timeline_view_measure;
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

        gtk_widget_class_install_action (widget_class, name, NULL, timeline_action);
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
  forget_followed (self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  ps_picture_export_add_context_click (widget);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_add_css_class (widget, "view");
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  click = gtk_gesture_click_new ();
  g_signal_connect_swapped (click, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect_swapped (click, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  zoom = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect_swapped (zoom, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (zoom));

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, scroll);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (motion, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (widget, motion);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (focus_changed_cb), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (focus_changed_cb), self);
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

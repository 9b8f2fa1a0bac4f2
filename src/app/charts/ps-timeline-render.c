/* ps-timeline-render.c — how the rows of a timeline are drawn
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A frame asks the level-of-detail index for each visible row and depth and
 * draws what comes back: at most a few items per pixel column, whatever the
 * number of events. Rectangles of one colour are filled together, and a
 * name is written only into spans wide enough to hold some of it.
 *
 * The rows themselves are made in ps-timeline-render-model.c, the sample
 * lanes, drawn their own way, in ps-timeline-render-samples.c, and the
 * whole-run strip's counts in ps-timeline-render-overview.c.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ps-chart-util.h"
#include "ps-counter-changes.h"
#include "ps-selection-util.h"
#include "ps-timeline-render-private.h"
#include "ps-trend-chart.h"
#include "ps-view-util.h"
#include "ps-util.h"

#define MIN_LABEL_WIDTH 36.0

/* Coordinates */

static double
frame_label_width (const PsTimelineFrame *frame)
{
  return frame->label_width > 0 ? frame->label_width : PS_TIMELINE_LABEL_WIDTH;
}

double
ps_timeline_frame_plot_width (const PsTimelineFrame *frame)
{
  return MAX (frame->width - frame_label_width (frame), 1);
}

double
ps_timeline_frame_x_of (const PsTimelineFrame *frame,
                        double                 x_value)
{
  return frame_label_width (frame)
         + (x_value - (double)frame->begin) / (double)(frame->end - frame->begin) * ps_timeline_frame_plot_width (frame);
}

double
ps_timeline_frame_value_at (const PsTimelineFrame *frame,
                            double                 x_pixel)
{
  return (double)frame->begin
         + (x_pixel - frame_label_width (frame)) / ps_timeline_frame_plot_width (frame) * (double)(frame->end - frame->begin);
}

/* Colours */

/* GNOME palette hues, lighter ones for the light style and darker ones for
 * the dark style, so black or white text stays readable on them */
static const GdkRGBA light_colors[N_FILL_COLORS] = {
  { 0.600, 0.757, 0.945, 1 }, /* blue 1 */
  { 0.561, 0.941, 0.643, 1 }, /* green 1 */
  { 0.976, 0.941, 0.420, 1 }, /* yellow 1 */
  { 1.000, 0.745, 0.435, 1 }, /* orange 1 */
  { 0.965, 0.380, 0.318, 1 }, /* red 1 */
  { 0.863, 0.541, 0.867, 1 }, /* purple 1 */
  { 0.804, 0.671, 0.561, 1 }, /* brown 1 */
  { 0.475, 0.851, 0.925, 1 }, /* teal-ish */
  { 0.780, 0.860, 0.500, 1 }, /* lime */
  { 0.960, 0.640, 0.780, 1 }, /* pink */
  { 0.690, 0.710, 0.750, 1 }, /* many short spans */
};

static const GdkRGBA dark_colors[N_FILL_COLORS] = {
  { 0.102, 0.373, 0.706, 1 }, /* blue 5 */
  { 0.149, 0.635, 0.412, 1 }, /* green 5 */
  { 0.612, 0.541, 0.000, 1 },
  { 0.776, 0.275, 0.000, 1 }, /* orange 5 */
  { 0.647, 0.114, 0.176, 1 }, /* red 5 */
  { 0.380, 0.208, 0.514, 1 }, /* purple 5 */
  { 0.388, 0.271, 0.024, 1 }, /* brown 5 */
  { 0.000, 0.447, 0.522, 1 },
  { 0.345, 0.459, 0.110, 1 },
  { 0.612, 0.208, 0.420, 1 },
  { 0.380, 0.400, 0.440, 1 }, /* many short spans */
};

const GdkRGBA *
ps_timeline_fill_colors (gboolean dark)
{
  return dark ? dark_colors : light_colors;
}

static guint
color_index (guint32 name)
{
  /* Names are small consecutive ids: mix them so neighbours differ */
  return (name * 2654435761u >> 16) % N_SPAN_COLORS;
}

void
ps_timeline_span_color (guint32   name,
                        gboolean  dark,
                        GdkRGBA  *color)
{
  *color = (dark ? dark_colors : light_colors)[color_index (name)];
}

/* Text */

char *
ps_timeline_format_position (gboolean sequence_axis,
                             double   value,
                             double   step)
{
  g_autofree char *number = NULL;
  double seconds, unit_seconds, magnitude;
  const char *unit;
  int decimals;

  if (sequence_axis)
    return g_strdup_printf ("#%.0f", value);

  seconds = value / 1e9;
  magnitude = MAX (fabs (seconds), step / 1e9);
  if (magnitude >= 1)
    unit_seconds = 1, unit = "s";
  else if (magnitude >= 1e-3)
    unit_seconds = 1e-3, unit = "ms";
  else if (magnitude >= 1e-6)
    unit_seconds = 1e-6, unit = "µs";
  else
    unit_seconds = 1e-9, unit = "ns";

  decimals = step <= 0 ? 3 : (int)ceil (-log10 (step / 1e9 / unit_seconds) - 1e-9);
  decimals = CLAMP (decimals, 0, 9);
  if (fabs (seconds) < step / 1e9 * 1e-6)
    seconds = 0;
  /* Digits grouped as in the tables: "1,200 s" */
  number = ps_view_format_fixed (seconds / unit_seconds, decimals);
  return g_strdup_printf ("%s %s", number, unit);
}

char *
ps_timeline_format_x (const PsTimelineModel *model,
                      double                 value,
                      double                 step)
{
  return ps_timeline_format_position (model->sequence_axis, value, step);
}

char *
ps_timeline_format_wall (const PsTimelineModel *model,
                         gint64                 value)
{
  int offset_minutes;

  if (model->origin_unix_ns == 0 || model->sequence_axis)
    return NULL;
  /* In the zone the file gives (a PDH log's), else UTC, named either way */
  ps_view_run_utc_offset (model->store, 0, &offset_minutes);
  return ps_view_format_wall_time (model->origin_unix_ns + value, offset_minutes, "%Y-%m-%d %H:%M:%S");
}

static PangoLayout *
new_layout (const PsTimelineFrame *frame)
{
  PangoLayout *layout = pango_layout_new (frame->pango);

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

static void
draw_layout_text (cairo_t     *cr,
                  PangoLayout *layout,
                  const char  *text,
                  double       x,
                  double       y,
                  double       max_width,
                  double       x_align,
                  double       y_align)
{
  int width, height;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, max_width > 0 ? (int)(max_width * PANGO_SCALE) : -1);
  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, round (x - width * x_align), round (y - height * y_align));
  pango_cairo_show_layout (cr, layout);
}

void
ps_timeline_set_color (cairo_t       *cr,
                       const GdkRGBA *color,
                       double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

/* Spans */


static void
batch_init (RectBatch *batch)
{
  for (guint i = 0; i < N_FILL_COLORS; i++)
    batch->rects[i] = g_array_new (FALSE, FALSE, sizeof (double) * 4);
}

static void
batch_clear (RectBatch *batch)
{
  for (guint i = 0; i < N_FILL_COLORS; i++)
    g_array_unref (batch->rects[i]);
}

static void
batch_add (RectBatch *batch,
           guint      color,
           double     x,
           double     y,
           double     width,
           double     height)
{
  /* Whole pixels: cairo fills pixel-aligned boxes without rasterizing */
  double left = floor (x), right = MAX (ceil (x + width), left + 1);
  double rect[4] = { left, round (y), right - left, round (height) };
  GArray *rects = batch->rects[color];

  /* A box of the same colour that this one touches on the same row grows
   * instead: zoomed out, runs of merged spans become one box */
  if (rects->len > 0)
    {
      double *last = &g_array_index (rects, double, (rects->len - 1) * 4);

      if (last[1] == rect[1] && last[3] == rect[3] && rect[0] >= last[0] && rect[0] <= last[0] + last[2])
        {
          last[2] = MAX (last[0] + last[2], rect[0] + rect[2]) - last[0];
          return;
        }
    }
  g_array_append_vals (rects, rect, 1);
}

static void
batch_fill (RectBatch *batch,
            cairo_t   *cr,
            gboolean   dark,
            double     alpha)
{
  const GdkRGBA *colors = dark ? dark_colors : light_colors;

  for (guint c = 0; c < N_FILL_COLORS; c++)
    {
      GArray *rects = batch->rects[c];

      if (rects->len == 0)
        continue;
      for (guint i = 0; i < rects->len; i++)
        {
          const double *rect = &g_array_index (rects, double, i * 4);

          cairo_rectangle (cr, rect[0], rect[1], rect[2], rect[3]);
        }
      ps_timeline_set_color (cr, &colors[c], alpha);
      cairo_fill (cr);
      g_array_set_size (rects, 0);
    }
}


/* The visible pixels of [begin, end]: at least one pixel wide */
static gboolean
span_pixels (Render *render,
             gint64  begin,
             gint64  end,
             double *x0,
             double *x1)
{
  double left = ps_timeline_frame_x_of (render->frame, (double)begin);
  double right = ps_timeline_frame_x_of (render->frame, (double)end);

  left = MAX (left, render->plot_left - 1);
  right = MIN (right, render->plot_right + 1);
  if (right < left)
    return FALSE;
  if (right - left < 1)
    right = left + 1;
  *x0 = left;
  *x1 = right;
  return TRUE;
}

/* The layout of a span's name ellipsized to width, made once per name and
 * width (in steps of 8 pixels): shaping text is the costliest part of a
 * frame, and most names come back frame after frame */
static PangoLayout *
span_label (Render  *render,
            guint32  name,
            double   width)
{
  PsTimelineModel *model = render->model;
  int steps = (int)floor (width / 8);
  guint64 key = ((guint64)name << 20) | (guint64)MIN (steps, 0xfffff);
  PangoLayout *layout;
  const char *text;

  if (model->labels == NULL || model->labels_context != render->frame->pango)
    {
      g_clear_pointer (&model->labels, g_hash_table_unref);
      g_set_object (&model->labels_context, render->frame->pango);
      model->labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
    }
  /* Scrolling through a long run meets many names: start over now and then */
  if (g_hash_table_size (model->labels) > 20000)
    g_hash_table_remove_all (model->labels);

  layout = g_hash_table_lookup (model->labels, &key);
  if (layout != NULL)
    return layout;

  text = ps_event_store_get_string (model->store, name);
  if (text == NULL)
    return NULL;
  layout = new_layout (render->frame);
  if (g_utf8_validate (text, -1, NULL))
    pango_layout_set_text (layout, text, -1);
  else
    {
      g_autofree char *converted = ps_util_display_text (text, -1);

      pango_layout_set_text (layout, converted, -1);
    }
  pango_layout_set_width (layout, steps * 8 * PANGO_SCALE);
  g_hash_table_insert (model->labels, g_memdup2 (&key, sizeof key), layout);
  return layout;
}

static void
draw_span_depth (Render              *render,
                 PsSpanLod           *lod,
                 const PsTimelineRow *row,
                 guint                depth,
                 double               y,
                 gboolean             labels,
                 double               alpha)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  guint n;

  g_array_set_size (render->items, 0);
  n = ps_span_lod_query (lod, row->track, depth, frame->begin, frame->end,
                         render->ns_per_pixel, render->items);
  if (n == 0)
    return;

  for (guint i = 0; i < n; i++)
    {
      const PsSpanLodItem *item = &g_array_index (render->items, PsSpanLodItem, i);
      double x0, x1;

      if (!span_pixels (render, item->begin_ns, item->end_ns, &x0, &x1))
        continue;
      /* A gap of a pixel between neighbours shows where one span ends */
      batch_add (&render->batch, (item->flags & PS_SPAN_LOD_ITEM_MERGED) ? DENSE_COLOR : color_index (item->name), x0, y,
                 x1 - x0 > 3 ? x1 - x0 - 1 : x1 - x0, PS_TIMELINE_SPAN_HEIGHT - 1);
      if (render->stats != NULL)
        {
          render->stats->n_items++;
          render->stats->n_spans += item->n_spans;
          if (item->flags & PS_SPAN_LOD_ITEM_MERGED)
            render->stats->n_merged++;
        }
    }
  batch_fill (&render->batch, cr, frame->dark, alpha);

  if (!labels)
    return;

  /* Names in the spans that have room for some of them */
  ps_timeline_set_color (cr, frame->dark ? &(GdkRGBA){ 1, 1, 1, 1 } : &(GdkRGBA){ 0, 0, 0, 1 }, alpha < 1 ? 0.6 : 0.9);
  for (guint i = 0; i < n; i++)
    {
      const PsSpanLodItem *item = &g_array_index (render->items, PsSpanLodItem, i);
      PangoLayout *layout;
      double x0, x1;
      int height;

      if (item->flags & PS_SPAN_LOD_ITEM_MERGED)
        continue;
      if (!span_pixels (render, item->begin_ns, item->end_ns, &x0, &x1) || x1 - x0 < MIN_LABEL_WIDTH)
        continue;
      x0 = floor (MAX (x0, render->plot_left));
      x1 = ceil (MIN (x1, render->plot_right));
      if (x1 - x0 < MIN_LABEL_WIDTH)
        continue;
      layout = span_label (render, item->name, x1 - x0 - 6);
      if (layout == NULL)
        continue;
      /* Whole-pixel clips keep glyphs on cairo's fast path */
      pango_layout_get_pixel_size (layout, NULL, &height);
      cairo_save (cr);
      cairo_rectangle (cr, x0, y, x1 - x0, PS_TIMELINE_SPAN_HEIGHT);
      cairo_clip (cr);
      cairo_move_to (cr, x0 + 3, round (y + (PS_TIMELINE_SPAN_HEIGHT - 1 - height) / 2));
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);
      if (render->stats != NULL)
        render->stats->n_labels++;
    }
}

static void
draw_marks (Render              *render,
            const PsTimelineRow *row,
            double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  guint n;

  g_array_set_size (render->mark_items, 0);
  n = ps_span_lod_query_marks (render->model->lod, row->track, frame->begin, frame->end,
                               render->ns_per_pixel, render->mark_items);
  for (guint i = 0; i < n; i++)
    {
      const PsMarkLodItem *item = &g_array_index (render->mark_items, PsMarkLodItem, i);
      double x = ps_timeline_frame_x_of (frame, (double)item->time_ns);

      if (x < render->plot_left - 1 || x > render->plot_right + 1)
        continue;
      cairo_rectangle (cr, floor (x), y + 1, 1, PS_TIMELINE_MARK_HEIGHT - 2);
    }
  ps_timeline_set_color (cr, &frame->foreground, 0.7);
  cairo_fill (cr);
  if (render->stats != NULL)
    render->stats->n_marks += n;
}

static void
draw_span_row (Render              *render,
               const PsTimelineRow *row,
               double               y)
{
  const PsTimelineFrame *frame = render->frame;
  double alpha = frame->highlight != NULL ? 0.35 : 1.0;

  if (row->has_marks)
    draw_marks (render, row, y);

  for (guint depth = 0; depth < row->n_depths; depth++)
    {
      double depth_y = y + ps_timeline_row_depth_y (row, depth) - row->y;

      if (depth_y + PS_TIMELINE_SPAN_HEIGHT < PS_TIMELINE_HEADER_HEIGHT || depth_y > frame->height)
        continue;
      draw_span_depth (render, render->model->lod, row, depth, depth_y, frame->highlight == NULL, alpha);
      if (frame->highlight != NULL && depth < ps_span_lod_get_n_depths (frame->highlight, row->track))
        draw_span_depth (render, frame->highlight, row, depth, depth_y, TRUE, 1.0);
    }
}

/* Values */

GArray *
ps_timeline_row_get_changes (PsTimelineRow *row)
{
  g_return_val_if_fail (row != NULL, NULL);

  if (row->changes == NULL)
    {
      PsChangePointOptions options;

      ps_change_point_options_init (&options);
      /* Only a CE chart's rows count their values: their x is a
       * measurement's sequence number, read where the chart keeps it */
      if (row->kind == PS_TIMELINE_ROW_VALUES && row->counts_values && row->values != NULL)
        {
          row->changes = ps_counter_changes_find_in_lod (row->values, &options);
          ps_counter_changes_snap_to_readings (row->changes, row->values);
        }
      else
        row->changes = ps_counter_changes_find_in_points (NULL, NULL, 0, &options);
    }
  return row->changes;
}

/* How much a change is, as the counter charts say it */
static char *
format_row_change (const PsTimelineRow   *row,
                   const PsCounterChange *change)
{
  return ps_trend_format_change_size (change->relative_change, change->mean_before * row->unit_scale,
                                      change->mean_after * row->unit_scale, row->unit);
}

char *
ps_timeline_row_tooltip (const PsTimelineRow *row)
{
  GString *text;
  gsize n_points;

  g_return_val_if_fail (row != NULL, NULL);

  if (!row->counts_values || row->values == NULL)
    return g_strdup (row->tooltip);
  n_points = ps_value_lod_get_n_points (row->values);
  text = g_string_new (NULL);
  g_string_append_printf (text, ngettext ("%s: %zu value", "%s: %zu values", n_points), row->label, n_points);
  /* The changes marked on it, once it was drawn */
  for (guint i = 0; row->changes != NULL && i < row->changes->len; i++)
    {
      const PsCounterChange *change = &g_array_index (row->changes, PsCounterChange, i);
      g_autofree char *size = format_row_change (row, change);

      g_string_append_c (text, '\n');
      /* Translators: a change of a chart's level marked on the timeline:
       * where it begins (a measurement's sequence number) and how much */
      g_string_append_printf (text, _("Changed at #%" PRId64 ": %s"), change->time_ns, size);
    }
  return g_string_free (text, FALSE);
}

gboolean
ps_timeline_row_value_range (const PsTimelineRow *row,
                             GHashTable          *shared_ranges,
                             double              *v_min,
                             double              *v_max)
{
  gint64 x_min, x_max;
  const PsTimelineValueRange *shared;

  g_return_val_if_fail (row != NULL, FALSE);

  if (row->kind != PS_TIMELINE_ROW_VALUES || row->values == NULL
      || !ps_value_lod_get_range (row->values, &x_min, &x_max, v_min, v_max) || isnan (*v_min))
    return FALSE;
  *v_min = MIN (*v_min, 0);
  shared = shared_ranges != NULL && row->value_key != NULL ? g_hash_table_lookup (shared_ranges, row->value_key) : NULL;
  if (shared != NULL)
    {
      *v_min = MIN (*v_min, shared->min);
      *v_max = MAX (*v_max, shared->max);
    }
  if (*v_max <= *v_min)
    *v_max = *v_min + 1;
  return TRUE;
}

/* The values a chart's height spans in this frame */
static gboolean
row_value_range (const Render        *render,
                 const PsTimelineRow *row,
                 double              *v_min,
                 double              *v_max)
{
  return ps_timeline_row_value_range (row, render->frame->shared_ranges, v_min, v_max);
}

/* Returns where its scale's text begins, at the top right */
static double
draw_values_row (Render              *render,
                 const PsTimelineRow *row,
                 double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double v_min, v_max, top, bottom;
  double data_left = INFINITY, data_right = -INFINITY;
  gboolean first = TRUE;
  int width;
  guint n;

  if (!row_value_range (render, row, &v_min, &v_max))
    return render->plot_right;
  top = y + 4;
  bottom = y + PS_TIMELINE_VALUES_HEIGHT - 1;

#define VALUE_Y(v) (bottom - ((v) - v_min) / (v_max - v_min) * (bottom - top))

  g_array_set_size (render->value_items, 0);
  n = ps_value_lod_query (row->values, frame->begin, frame->end, render->ns_per_pixel, render->value_items);

  /* Envelope: the min…max of each column, filled */
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
      double x0 = ps_timeline_frame_x_of (frame, (double)item->x_begin);
      double x1 = ps_timeline_frame_x_of (frame, (double)item->x_end);

      if (isnan (item->min) || item->n_points < 2)
        continue;
      cairo_rectangle (cr, floor (x0), VALUE_Y (item->max), MAX (x1 - x0, 1), MAX (VALUE_Y (item->min) - VALUE_Y (item->max), 1));
    }
  cairo_save (cr);
  cairo_rectangle (cr, render->plot_left, y, render->plot_right - render->plot_left, PS_TIMELINE_VALUES_HEIGHT);
  cairo_clip (cr);
  ps_timeline_set_color (cr, &frame->accent, 0.35);
  cairo_fill (cr);

  /* The line through first and last values */
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
      double x0 = ps_timeline_frame_x_of (frame, (double)item->x_begin);
      double x1 = ps_timeline_frame_x_of (frame, (double)item->x_end);

      if (isnan (item->first) || isnan (item->last))
        {
          first = TRUE;
          continue;
        }
      data_left = MIN (data_left, x0);
      data_right = MAX (data_right, x1);
      if (first)
        cairo_move_to (cr, x0, VALUE_Y (item->first));
      else
        cairo_line_to (cr, x0, VALUE_Y (item->first));
      cairo_line_to (cr, x1, VALUE_Y (item->last));
      first = FALSE;
    }
  ps_timeline_set_color (cr, &frame->accent, 1);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
  cairo_restore (cr);
  if (render->stats != NULL)
    render->stats->n_points += n;

  /* The scale: the top value with its unit */
  {
    double top_value = v_max * row->unit_scale;
    g_autofree char *text = NULL;
    int height;

    /* Memory in KiB, MiB, GiB rather than a long number of bytes */
    if (g_strcmp0 (row->unit, "bytes") == 0 && top_value >= 1024 && top_value < (double)G_MAXUINT64)
      text = g_format_size_full ((guint64)top_value, G_FORMAT_SIZE_IEC_UNITS);
    else
      text = ps_trend_format_number_with_unit (top_value, row->unit);

    pango_layout_set_text (render->layout, text, -1);
    pango_layout_set_width (render->layout, -1);
    pango_layout_get_pixel_size (render->layout, &width, &height);
    /* At the right, unless it would cover the values there while the left
     * has none under it (a CE marker's last instances, at the end of the
     * sequence) */
    if (data_right > render->plot_right - 4 - width - 2
        && data_left > render->plot_left + 4 + width + 2)
      {
        cairo_rectangle (cr, render->plot_left + 2, top, width + 4, height);
        ps_timeline_set_color (cr, &frame->background, 0.85);
        cairo_fill (cr);
        ps_timeline_set_color (cr, &frame->foreground, 0.7);
        draw_layout_text (cr, render->layout, text, render->plot_left + 4, top, -1, 0, 0);
        return render->plot_right;
      }
    /* On the view's background, to be read over the chart's line */
    cairo_rectangle (cr, render->plot_right - 4 - width - 2, top, width + 4, height);
    ps_timeline_set_color (cr, &frame->background, 0.85);
    cairo_fill (cr);
    ps_timeline_set_color (cr, &frame->foreground, 0.7);
    draw_layout_text (cr, render->layout, text, render->plot_right - 4, top, -1, 1, 0);
  }
  return render->plot_right - 4 - width;
#undef VALUE_Y
}

/* The changes of a chart's level, marked as the counter charts mark
 * theirs: a line in its colour from where each begins, and above it how
 * much it is. A label that would run into the one before, or into the
 * chart's scale (from scale_left on), is left out. */
static void
draw_values_changes (Render        *render,
                     PsTimelineRow *row,
                     double         y,
                     double         scale_left)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  GArray *changes = ps_timeline_row_get_changes (row);
  double label_end = -G_MAXDOUBLE;

  for (guint i = 0; i < changes->len; i++)
    {
      const PsCounterChange *change = &g_array_index (changes, PsCounterChange, i);
      double x = round (ps_timeline_frame_x_of (frame, (double)change->time_ns)) + 0.5;
      g_autofree char *text = NULL;
      int width, height;

      if (x < render->plot_left || x > render->plot_right)
        continue;
      cairo_move_to (cr, x, y + 2);
      cairo_line_to (cr, x, y + PS_TIMELINE_VALUES_HEIGHT - 1);
      ps_timeline_set_color (cr, &frame->accent, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);

      text = format_row_change (row, change);
      pango_layout_set_text (render->layout, text, -1);
      pango_layout_get_pixel_size (render->layout, &width, &height);
      if (x + 3 <= label_end || x + 3 + width + 4 > scale_left - 4)
        continue;
      /* On the view's background, to be read over the chart's line */
      cairo_rectangle (cr, x + 1, y + 2, width + 4, height);
      ps_timeline_set_color (cr, &frame->background, 0.85);
      cairo_fill (cr);
      ps_timeline_set_color (cr, &frame->accent, 1);
      draw_layout_text (cr, render->layout, text, x + 3, y + 2, -1, 0, 0);
      label_end = x + 3 + width + 6;
    }
}

/* What another view chose */

static gboolean
is_focus_track (const PsTimelineFrame *frame,
                guint32                track)
{
  for (guint i = 0; i < frame->n_focus_tracks; i++)
    if (frame->focus_tracks[i] == track)
      return TRUE;
  return FALSE;
}

/* The y of a value on a chart whose row is at row_y, as draw_values_row ()
 * places it */
static double
chart_y (double row_y,
         double value,
         double v_min,
         double v_max)
{
  double top = row_y + 4, bottom = row_y + PS_TIMELINE_VALUES_HEIGHT - 1;

  return bottom - (value - v_min) / (v_max - v_min) * (bottom - top);
}

/* A chart's highlighted points: on a sequence axis (CE) a dot on the line
 * for each measurement, at most one per pixel column and value; on a time
 * axis (samples of a function) a tick in a strip along the bottom */
static void
draw_row_points (Render              *render,
                 const PsTimelineRow *row,
                 double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  PsValueLod *points;
  double v_min, v_max, bottom = y + PS_TIMELINE_VALUES_HEIGHT - 1;
  GdkRGBA color;
  guint n;

  if (frame->points_of_track == NULL || row->track == PS_NONE
      || (points = frame->points_of_track (frame->points_data, row->track)) == NULL
      || !row_value_range (render, row, &v_min, &v_max))
    return;
  ps_selection_points_color (frame->dark, &color);

  g_array_set_size (render->value_items, 0);
  n = ps_value_lod_query (points, frame->begin, frame->end, render->ns_per_pixel, render->value_items);
  cairo_save (cr);
  cairo_rectangle (cr, render->plot_left, y, render->plot_right - render->plot_left, PS_TIMELINE_VALUES_HEIGHT);
  cairo_clip (cr);
  for (guint i = 0; i < n; i++)
    {
      const PsValueLodItem *item = &g_array_index (render->value_items, PsValueLodItem, i);
      double x = floor (ps_timeline_frame_x_of (frame, (double)item->x_begin)) + 0.5;

      if (!render->model->sequence_axis)
        cairo_rectangle (cr, x - 0.5, bottom - 8, MAX (1, ps_timeline_frame_x_of (frame, (double)item->x_end) - x + 0.5), 8);
      else if (!isnan (item->min))
        {
          /* The lowest and the highest value of the column */
          double y_low = chart_y (y, item->min, v_min, v_max);
          double y_high = chart_y (y, item->max, v_min, v_max);

          cairo_new_sub_path (cr);
          cairo_arc (cr, x, y_low, 3, 0, 2 * G_PI);
          if (y_low - y_high >= 3)
            {
              cairo_new_sub_path (cr);
              cairo_arc (cr, x, y_high, 3, 0, 2 * G_PI);
            }
        }
    }
  ps_timeline_set_color (cr, &color, 1);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* A ring around the chosen point of a chart */
static void
draw_chosen_point (Render              *render,
                   const PsTimelineRow *row,
                   double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double v_min, v_max, value, x, point_y;
  gint64 point_x;
  gsize index;

  if (!frame->has_chosen_point || frame->chosen_point_track != row->track || row->kind != PS_TIMELINE_ROW_VALUES
      || !row_value_range (render, row, &v_min, &v_max))
    return;
  index = ps_value_lod_find (row->values, frame->chosen_point_x);
  if (!ps_value_lod_get_point (row->values, index, &point_x, &value) || point_x != frame->chosen_point_x
      || isnan (value))
    return;
  x = ps_timeline_frame_x_of (frame, (double)point_x);
  if (x < render->plot_left - 6 || x > render->plot_right + 6)
    return;
  point_y = chart_y (y, value, v_min, v_max);
  ps_timeline_set_color (cr, &frame->foreground, 1);
  cairo_set_line_width (cr, 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, point_y, 6, 0, 2 * G_PI);
  cairo_stroke (cr);
}

/* The chosen message: a bar of the accent colour over the thread's strip
 * of messages, and a line down through its scopes */
static void
draw_chosen_mark (Render              *render,
                  const PsTimelineRow *row,
                  double               y)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double x;

  if (!frame->has_chosen_mark || frame->chosen_mark_track != row->track || !row->has_marks)
    return;
  x = floor (ps_timeline_frame_x_of (frame, (double)frame->chosen_mark_time));
  if (x < render->plot_left - 2 || x > render->plot_right + 2)
    return;
  ps_timeline_set_color (cr, &frame->accent, 0.6);
  cairo_rectangle (cr, x, y, 1, row->height - PS_TIMELINE_ROW_GAP);
  cairo_fill (cr);
  ps_timeline_set_color (cr, &frame->accent, 1);
  cairo_rectangle (cr, x - 1, y, 3, PS_TIMELINE_MARK_HEIGHT);
  cairo_fill (cr);
}

/* A focused row: tinted across, with a bar of the accent colour at the
 * left of its label */
static void
draw_focus_band (Render              *render,
                 const PsTimelineRow *row,
                 double               y)
{
  const PsTimelineFrame *frame = render->frame;

  if (row->kind == PS_TIMELINE_ROW_GROUP || !is_focus_track (frame, row->track))
    return;
  ps_timeline_set_color (render->cr, &frame->accent, 0.10);
  cairo_rectangle (render->cr, render->plot_left, y, render->plot_right - render->plot_left,
                   row->height - PS_TIMELINE_ROW_GAP);
  cairo_fill (render->cr);
}

/* Axis, overview, labels */

static gboolean
has_status (const PsTimelineFrame *frame)
{
  return frame->status != NULL && *frame->status != '\0';
}

/* The length of the selected range, written on the axis over its middle:
 * its text (g_free) and where its box goes, or NULL without a selection */
static char *
selection_label (Render *render,
                 double *box_x,
                 double *box_width)
{
  const PsTimelineFrame *frame = render->frame;
  char *length;
  double x0, x1;
  int width;

  if (!frame->has_selection)
    return NULL;
  x0 = CLAMP (ps_timeline_frame_x_of (frame, (double)frame->selection_begin), render->plot_left, render->plot_right);
  x1 = CLAMP (ps_timeline_frame_x_of (frame, (double)frame->selection_end), render->plot_left, render->plot_right);
  if (render->model->sequence_axis)
    length = g_strdup_printf (ngettext ("%" PRId64 " measurement", "%" PRId64 " measurements",
                                        frame->selection_end - frame->selection_begin),
                              frame->selection_end - frame->selection_begin);
  else
    length = ps_util_format_seconds ((frame->selection_end - frame->selection_begin) / 1e9);
  pango_layout_set_text (render->layout, length, -1);
  pango_layout_set_width (render->layout, -1);
  pango_layout_get_pixel_size (render->layout, &width, NULL);
  *box_x = CLAMP ((x0 + x1) / 2 - width / 2.0 - 4, render->plot_left, render->plot_right - width - 8);
  *box_width = width + 8;
  return length;
}

static void
draw_axis (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  double top = PS_TIMELINE_OVERVIEW_HEIGHT;
  double range = (double)(frame->end - frame->begin);
  double step = ps_chart_time_axis_step (range, render->plot_right - render->plot_left, model->sequence_axis);
  double last_end = -G_MAXDOUBLE;
  double labels_end = render->plot_right;
  double selection_x = 0, selection_width = 0;
  g_autofree char *selection = selection_label (render, &selection_x, &selection_width);

  ps_timeline_set_color (cr, &frame->foreground, 0.25);
  cairo_rectangle (cr, 0, top + PS_TIMELINE_AXIS_HEIGHT - 1, frame->width, 1);
  cairo_fill (cr);

  /* The wall-clock time of the left edge takes the axis' right end */
  {
    g_autofree char *wall = ps_timeline_format_wall (model, frame->begin);

    if (wall != NULL)
      {
        int width;

        pango_layout_set_text (render->layout, wall, -1);
        pango_layout_set_width (render->layout, -1);
        pango_layout_get_pixel_size (render->layout, &width, NULL);
        labels_end = render->plot_right - width - 12;
        /* Not under the selection's length */
        if (selection == NULL || selection_x + selection_width < labels_end + 8)
          {
            ps_timeline_set_color (cr, &frame->foreground, 0.6);
            draw_layout_text (cr, render->layout, wall, render->plot_right - 4, top + 3, -1, 1, 0);
          }
      }
  }

  for (double tick = ceil ((double)frame->begin / step) * step; tick <= (double)frame->end; tick += step)
    {
      double x = round (ps_timeline_frame_x_of (frame, tick)) + 0.5;
      g_autofree char *text = ps_timeline_format_x (model, tick, step);

      /* A box a pixel wide: cheaper than a stroke */
      ps_timeline_set_color (cr, &frame->foreground, 0.12);
      cairo_rectangle (cr, x - 0.5, top + PS_TIMELINE_AXIS_HEIGHT - 6, 1, frame->height - top - PS_TIMELINE_AXIS_HEIGHT + 6);
      cairo_fill (cr);
      if (x + 3 > last_end)
        {
          int width;

          pango_layout_set_text (render->layout, text, -1);
          pango_layout_set_width (render->layout, -1);
          pango_layout_get_pixel_size (render->layout, &width, NULL);
          if (x + 3 + width > labels_end)
            continue;
          /* The selection's length is written there: no label runs into it */
          if (selection != NULL && x + 3 < selection_x + selection_width + 8 && x + 3 + width > selection_x - 8)
            continue;
          ps_timeline_set_color (cr, &frame->foreground, 0.8);
          draw_layout_text (cr, render->layout, text, x + 3, top + 3, -1, 0, 0);
          last_end = x + 3 + width + 8;
        }
    }

  /* What the axis measures, in the label column */
  ps_timeline_set_color (cr, &frame->foreground, 0.7);
  draw_layout_text (cr, render->layout, ps_timeline_model_axis_name (model), HEADER_LABEL_START, top + 3,
                    render->plot_left - HEADER_LABEL_START - HEADER_LABEL_END, 0, 0);
}

/* The whole run in the top strip: where the time went, and which part is
 * shown below */
static void
draw_overview (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  PsTimelineFrame whole = *frame;
  double width = render->plot_right - render->plot_left;
  guint columns = (guint)MAX (width, 1);
  const double *busy = ps_timeline_model_overview_busy (render->model, columns, render->items, render->value_items);
  double max_busy = 0;
  double top = 2, height = PS_TIMELINE_OVERVIEW_HEIGHT - 6;

  whole.begin = model->extent_begin;
  whole.end = model->extent_end;

  for (guint c = 0; c < columns; c++)
    max_busy = MAX (max_busy, busy[c]);

  ps_timeline_set_color (cr, &frame->foreground, 0.05);
  cairo_rectangle (cr, render->plot_left, top, width, height);
  cairo_fill (cr);
  if (max_busy > 0)
    {
      for (guint c = 0; c < columns; c++)
        if (busy[c] > 0)
          {
            double h = MAX (round (busy[c] / max_busy * height), 1);

            cairo_rectangle (cr, render->plot_left + c, top + height - h, 1, h);
          }
      ps_timeline_set_color (cr, &frame->accent, 0.55);
      cairo_fill (cr);
    }

  /* The visible part */
  {
    double x0 = ps_timeline_frame_x_of (&whole, (double)frame->begin);
    double x1 = ps_timeline_frame_x_of (&whole, (double)frame->end);

    x0 = CLAMP (x0, render->plot_left, render->plot_right);
    x1 = CLAMP (x1, render->plot_left, render->plot_right);
    if (x1 - x0 < 3)
      x0 = (x0 + x1) / 2 - 1.5, x1 = x0 + 3;
    ps_timeline_set_color (cr, &frame->accent, 0.10);
    cairo_rectangle (cr, x0, top, x1 - x0, height);
    cairo_fill (cr);
    ps_timeline_set_color (cr, &frame->accent, 1);
    cairo_set_line_width (cr, 1.5);
    cairo_rectangle (cr, x0 + 0.75, top + 0.75, x1 - x0 - 1.5, height - 1.5);
    cairo_stroke (cr);
  }

  ps_timeline_set_color (cr, &frame->foreground, 0.7);
  draw_layout_text (cr, render->layout, ps_timeline_overview_name (), HEADER_LABEL_START, top + height / 2,
                    render->plot_left - HEADER_LABEL_START - HEADER_LABEL_END, 0, 0.5);
}

static void
draw_selection (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double x0, x1, top = PS_TIMELINE_OVERVIEW_HEIGHT;
  /* The status strip stays readable */
  double bottom = frame->height - (has_status (frame) ? PS_TIMELINE_STATUS_HEIGHT : 0);

  if (!frame->has_selection)
    return;
  x0 = ps_timeline_frame_x_of (frame, (double)frame->selection_begin);
  x1 = ps_timeline_frame_x_of (frame, (double)frame->selection_end);
  x0 = CLAMP (x0, render->plot_left, render->plot_right);
  x1 = CLAMP (x1, render->plot_left, render->plot_right);

  /* Dim what is outside */
  ps_timeline_set_color (cr, &frame->background, 0.55);
  cairo_rectangle (cr, render->plot_left, top, x0 - render->plot_left, bottom - top);
  cairo_rectangle (cr, x1, top, render->plot_right - x1, bottom - top);
  cairo_fill (cr);

  ps_timeline_set_color (cr, &frame->accent, 1);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, round (x0) + 0.5, top);
  cairo_line_to (cr, round (x0) + 0.5, bottom);
  cairo_move_to (cr, round (x1) - 0.5, top);
  cairo_line_to (cr, round (x1) - 0.5, bottom);
  cairo_stroke (cr);

  /* Its length on the axis, where draw_axis () left room */
  {
    double box_x, box_width;
    g_autofree char *length = selection_label (render, &box_x, &box_width);

    ps_timeline_set_color (cr, &frame->accent, 1);
    cairo_rectangle (cr, box_x, top + PS_TIMELINE_AXIS_HEIGHT - render->text_height - 6, box_width, render->text_height + 4);
    cairo_fill (cr);
    cairo_set_source_rgb (cr, 1, 1, 1);
    draw_layout_text (cr, render->layout, length, box_x + 4, top + PS_TIMELINE_AXIS_HEIGHT - render->text_height - 4, -1, 0, 0);
  }
}

static void
draw_cursor (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  const PsSpan *span;
  const PsTimelineRow *row = NULL;
  double x0, x1, y;

  if (frame->cursor_span == PS_SPAN_LOD_NO_SPAN || model->lod == NULL)
    return;
  span = ps_event_store_get_span (model->store, frame->cursor_span);
  if (span == NULL)
    return;
  for (guint r = 0; r < model->rows->len && row == NULL; r++)
    {
      const PsTimelineRow *candidate = g_ptr_array_index (model->rows, r);

      if (candidate->kind == PS_TIMELINE_ROW_SPANS && candidate->track == span->track && !candidate->hidden)
        row = candidate;
    }
  if (row == NULL)
    return;
  y = render->rows_top + ps_timeline_row_depth_y (row, span->depth);
  if (!span_pixels (render, span->begin_ns, MAX (span->end_ns, span->begin_ns), &x0, &x1))
    return;
  ps_timeline_set_color (cr, frame->focused ? &frame->accent : &frame->foreground, 1);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, x0 + 1, y + 1, MAX (x1 - x0 - 2, 1), PS_TIMELINE_SPAN_HEIGHT - 3);
  cairo_stroke (cr);
}

/* What the cursor is on, readable without a pointer (tooltips need one) */
static void
draw_status (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  cairo_t *cr = render->cr;
  double height = PS_TIMELINE_STATUS_HEIGHT;
  double top = frame->height - height;

  if (!has_status (frame))
    return;
  /* A strip of its own, under the rows */
  ps_timeline_set_color (cr, &frame->background, 1);
  cairo_rectangle (cr, render->plot_left, top, render->plot_right - render->plot_left, height);
  cairo_fill (cr);
  ps_timeline_set_color (cr, &frame->foreground, 0.15);
  cairo_rectangle (cr, render->plot_left, top, render->plot_right - render->plot_left, 1);
  cairo_fill (cr);
  ps_timeline_set_color (cr, &frame->accent, 1);
  cairo_rectangle (cr, render->plot_left, top, 3, height);
  cairo_fill (cr);
  ps_timeline_set_color (cr, &frame->foreground, 1);
  draw_layout_text (cr, render->layout, frame->status, render->plot_left + 8, top + height / 2,
                    render->plot_right - render->plot_left - 12, 0, 0.5);
}

static void
draw_labels (Render *render)
{
  const PsTimelineFrame *frame = render->frame;
  PsTimelineModel *model = render->model;
  cairo_t *cr = render->cr;
  double label_width = render->plot_left;

  /* The label column covers what scrolled under it */
  ps_timeline_set_color (cr, &frame->background, 1);
  cairo_rectangle (cr, 0, PS_TIMELINE_HEADER_HEIGHT, label_width, frame->height);
  cairo_fill (cr);
  ps_timeline_set_color (cr, &frame->foreground, 0.15);
  cairo_rectangle (cr, label_width - 1, PS_TIMELINE_OVERVIEW_HEIGHT, 1, frame->height);
  cairo_fill (cr);

  for (guint r = render->first_row; r < model->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      double y = render->rows_top + row->y;

      if (y > frame->height)
        break;
      if (row->hidden || y + row->height < PS_TIMELINE_HEADER_HEIGHT || y > frame->height)
        continue;
      if ((int)r == frame->cursor_row && frame->focused)
        {
          ps_timeline_set_color (cr, &frame->accent, 0.2);
          cairo_rectangle (cr, 0, y, label_width - 1, MIN (row->height, PS_TIMELINE_GROUP_HEIGHT));
          cairo_fill (cr);
        }
      if (row->kind == PS_TIMELINE_ROW_GROUP)
        {
          g_autofree char *text = g_strdup_printf ("%s %s", row->collapsed ? "▸" : "▾", row->label);

          ps_timeline_set_color (cr, &frame->foreground, 0.06);
          cairo_rectangle (cr, 0, y, frame->width, row->height);
          cairo_fill (cr);
          ps_timeline_set_color (cr, &frame->foreground, 1);
          pango_layout_set_attributes (render->layout, NULL);
          draw_layout_text (cr, render->layout, text, 6, y + row->height / 2, frame->width - 12, 0, 0.5);
        }
      else
        {
          if (is_focus_track (frame, row->track))
            {
              ps_timeline_set_color (cr, &frame->accent, 0.18);
              cairo_rectangle (cr, 0, y, label_width - 1, row->height - PS_TIMELINE_ROW_GAP);
              cairo_fill (cr);
              ps_timeline_set_color (cr, &frame->accent, 1);
              cairo_rectangle (cr, 0, y, 4, row->height - PS_TIMELINE_ROW_GAP);
              cairo_fill (cr);
            }
          ps_timeline_set_color (cr, &frame->foreground, 0.85);
          draw_layout_text (cr, render->layout, ps_timeline_model_row_label (model, frame->pango, label_width, r),
                            ROW_LABEL_START, y + 2, label_width - ROW_LABEL_START - ROW_LABEL_END, 0, 0);
        }
    }
}

/* The first row whose bottom may reach below the header (a pixel early,
 * for the loops that round): rows lie top to bottom, each from where the
 * one above ends, and a CE log has hundreds of thousands of them, of
 * which a frame draws a few */
static guint
first_row_in_view (const PsTimelineModel *model,
                   double                 rows_top)
{
  guint low = 0, high = model->rows->len;

  while (low < high)
    {
      guint mid = low + (high - low) / 2;
      const PsTimelineRow *row = g_ptr_array_index (model->rows, mid);

      if (rows_top + row->y + row->height < PS_TIMELINE_HEADER_HEIGHT - 1)
        low = mid + 1;
      else
        high = mid;
    }
  return low;
}

void
ps_timeline_render (PsTimelineModel       *model,
                    const PsTimelineFrame *frame,
                    cairo_t               *cr,
                    PsTimelineStats       *stats)
{
  Render render = { 0 };
  int text_height;

  g_return_if_fail (model != NULL);
  g_return_if_fail (frame->end > frame->begin);

  render.model = model;
  render.frame = frame;
  render.cr = cr;
  render.stats = stats;
  render.items = g_array_new (FALSE, FALSE, sizeof (PsSpanLodItem));
  render.mark_items = g_array_new (FALSE, FALSE, sizeof (PsMarkLodItem));
  render.value_items = g_array_new (FALSE, FALSE, sizeof (PsValueLodItem));
  render.layout = new_layout (frame);
  render.plot_left = frame_label_width (frame);
  render.plot_right = frame->width;
  render.rows_top = PS_TIMELINE_HEADER_HEIGHT - frame->scroll_y;
  render.first_row = first_row_in_view (model, render.rows_top);
  render.ns_per_pixel = (double)(frame->end - frame->begin) / ps_timeline_frame_plot_width (frame);
  pango_layout_set_text (render.layout, "0", -1);
  pango_layout_get_pixel_size (render.layout, NULL, &text_height);
  render.text_height = text_height;
  batch_init (&render.batch);
  if (stats != NULL)
    memset (stats, 0, sizeof *stats);

  /* Rows, clipped below the header and above the status */
  cairo_save (cr);
  cairo_rectangle (cr, 0, PS_TIMELINE_HEADER_HEIGHT, frame->width, frame->height - PS_TIMELINE_HEADER_HEIGHT);
  cairo_clip (cr);
  cairo_save (cr);
  if (has_status (frame))
    {
      cairo_rectangle (cr, 0, 0, frame->width, frame->height - PS_TIMELINE_STATUS_HEIGHT);
      cairo_clip (cr);
    }
  for (guint r = render.first_row; r < model->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (model->rows, r);
      double y = render.rows_top + row->y;

      if (y > frame->height)
        break;
      if (row->hidden || y + row->height < PS_TIMELINE_HEADER_HEIGHT || y > frame->height)
        continue;
      draw_focus_band (&render, row, y);
      if (row->kind == PS_TIMELINE_ROW_SPANS)
        {
          draw_span_row (&render, row, y);
          draw_chosen_mark (&render, row, y);
        }
      else if (row->kind == PS_TIMELINE_ROW_VALUES)
        {
          draw_values_changes (&render, row, y, draw_values_row (&render, row, y));
          draw_row_points (&render, row, y);
          draw_chosen_point (&render, row, y);
        }
    }
  ps_timeline_draw_sample_lanes (&render);
  ps_timeline_draw_lane_points (&render);
  draw_cursor (&render);
  cairo_restore (cr);
  draw_labels (&render);
  draw_status (&render);
  cairo_restore (cr);

  draw_overview (&render);
  draw_axis (&render);
  draw_selection (&render);

  batch_clear (&render.batch);
  g_object_unref (render.layout);
  g_array_unref (render.items);
  g_array_unref (render.mark_items);
  g_array_unref (render.value_items);
}

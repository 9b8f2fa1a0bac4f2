/* ps-chart-util.c — what the cairo-drawn views share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-accessible-util.h"
#include "ps-chart-util.h"
#include "ps-view-util.h"

static const GdkRGBA palette[PS_CHART_N_COLORS] = {
  { 0.208, 0.518, 0.894, 1 },  /* blue */
  { 0.902, 0.380, 0.000, 1 },  /* orange */
  { 0.180, 0.761, 0.494, 1 },  /* green */
  { 0.569, 0.255, 0.675, 1 },  /* purple */
  { 0.878, 0.106, 0.141, 1 },  /* red */
  { 0.647, 0.525, 0.420, 1 },  /* brown */
};

const GdkRGBA *
ps_chart_palette_color (guint index)
{
  return &palette[index % PS_CHART_N_COLORS];
}

void
ps_chart_module_color (const char *module,
                       gboolean    dark,
                       GdkRGBA    *color)
{
  guint hash = g_str_hash (module != NULL ? module : "");
  float hue, saturation, brightness, red, green, blue;

  /* Hue, saturation and brightness from different digits of the hash, so
   * that modules whose hues are close still differ */
  hue = (float) (hash % 1000) / 1000.0f * 0.14f;
  saturation = 0.45f + (float) ((hash / 1000) % 100) / 100.0f * 0.2f;
  saturation += dark ? 0.1f : 0.0f;
  brightness = dark ? 0.62f + (float) ((hash / 100000) % 100) / 100.0f * 0.1f
                    : 0.92f + (float) ((hash / 100000) % 100) / 100.0f * 0.08f;

  gtk_hsv_to_rgb (hue, saturation, brightness, &red, &green, &blue);
  *color = (GdkRGBA) { red, green, blue, 1.0 };
}

typedef struct
{
  int minimum_width;
  int natural_width;
  int minimum_height;
  int natural_height;
} ChartSize;

static GQuark
chart_size_quark (void)
{
  static GQuark quark;

  if (quark == 0)
    quark = g_quark_from_static_string ("ps-chart-size");
  return quark;
}

static void
measure_chart (GtkWidget      *widget,
               GtkOrientation  orientation,
               int             for_size,
               int            *minimum,
               int            *natural)
{
  const ChartSize *size = g_type_get_qdata (G_OBJECT_TYPE (widget), chart_size_quark ());

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = size->minimum_width, *natural = size->natural_width;
  else
    *minimum = size->minimum_height, *natural = size->natural_height;
}

void
ps_chart_class_set_size (GtkWidgetClass *widget_class,
                         int             minimum_width,
                         int             natural_width,
                         int             minimum_height,
                         int             natural_height)
{
  ChartSize *size = g_new (ChartSize, 1);

  *size = (ChartSize) { minimum_width, natural_width, minimum_height, natural_height };
  /* Kept for the life of the class, that is of the process */
  g_type_set_qdata (G_TYPE_FROM_CLASS (widget_class), chart_size_quark (), size);
  ps_view_class_set_measure (widget_class, measure_chart);
}

cairo_t *
ps_chart_append_cairo (GtkWidget   *widget,
                       GtkSnapshot *snapshot,
                       int         *width,
                       int         *height)
{
  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  if (*width <= 0 || *height <= 0)
    return NULL;
  return gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, *width, *height));
}

void
ps_chart_get_foreground (GtkWidget *widget,
                         GdkRGBA   *color)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_widget_get_color (widget, color);
#else
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
#endif
}

void
ps_chart_set_source (cairo_t       *cr,
                     const GdkRGBA *color,
                     double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

PangoLayout *
ps_chart_text_layout (GtkWidget  *widget,
                      const char *text,
                      int        *width,
                      int        *height)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);

  pango_layout_get_pixel_size (layout, width, height);
  return layout;
}

int
ps_chart_draw_text (GtkWidget  *widget,
                    cairo_t    *cr,
                    const char *text,
                    double      x,
                    double      y,
                    double      x_align,
                    double      y_align)
{
  g_autoptr(PangoLayout) layout = NULL;
  int width, height;

  layout = ps_chart_text_layout (widget, text, &width, &height);
  cairo_move_to (cr, round (x - width * x_align), round (y - height * y_align));
  pango_cairo_show_layout (cr, layout);
  return width;
}

void
ps_chart_draw_message (GtkWidget  *widget,
                       cairo_t    *cr,
                       const char *text,
                       int         width,
                       int         height)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int margin = 12, text_width, text_height;

  /* A reason why a chart is empty can be a sentence longer than a chart
   * beside another is wide */
  pango_layout_set_width (layout, MAX (width - 2 * margin, 1) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  cairo_move_to (cr, margin, round ((height - text_height) / 2.0));
  pango_cairo_show_layout (cr, layout);
}

double
ps_chart_nice_step (double range,
                    double target_count)
{
  double raw, magnitude, fraction;

  if (range <= 0 || target_count < 1)
    return 1;

  raw = range / target_count;
  magnitude = pow (10, floor (log10 (raw)));
  fraction = raw / magnitude;

  if (fraction < 1.5)
    return magnitude;
  if (fraction < 3)
    return 2 * magnitude;
  if (fraction < 7)
    return 5 * magnitude;
  return 10 * magnitude;
}

double
ps_chart_axis_step (double range,
                    double length,
                    double min_spacing)
{
  return ps_chart_nice_step (range, MAX (length / min_spacing, 1));
}

double
ps_chart_time_axis_step (double   range,
                         double   length,
                         gboolean sequence_axis)
{
  double step = ps_chart_axis_step (range, length, 110.0);

  return sequence_axis ? MAX (step, 1) : step;
}

char *
ps_chart_format_tick (double value,
                      double step)
{
  int decimals = step >= 1 ? 0 : (int)ceil (-log10 (step) - 1e-9);

  if (fabs (value) < step * 1e-6)
    value = 0;
  /* Digits grouped and the locale's decimal point, as in the tables */
  return ps_view_format_fixed (value, decimals);
}

GtkWidget *
ps_chart_zoom_button_new (GtkWidget *chart)
{
  GtkWidget *button = gtk_toggle_button_new_with_mnemonic (_("_Zoom to Data"));

  gtk_widget_set_tooltip_text (button, _("The value axis starts at 0, so that the heights compare; "
                                         "zoomed, it spans only the range of the values, and says so"));
  gtk_widget_add_css_class (button, "chart-zoom");
  gtk_widget_set_focus_on_click (button, FALSE);
  ps_accessible_name_as_shown (button);
  gtk_widget_set_parent (button, chart);
  return button;
}

const char *
ps_chart_zoomed_note (void)
{
  /* Translators: added to a chart's title when its value axis spans only
   * the data's range */
  return _("axis zoomed, not from 0");
}

void
ps_chart_draw_axis_break (cairo_t *cr,
                          double   x,
                          double   y)
{
  cairo_save (cr);
  cairo_set_line_width (cr, 1.5);
  for (int i = 0; i < 2; i++)
    {
      cairo_move_to (cr, x - 5, y + 2 + 4 * i);
      cairo_line_to (cr, x + 5, y - 2 + 4 * i);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

gboolean
ps_chart_shared_range_set (PsChartSharedRange *range,
                           gboolean            shared,
                           double              min,
                           double              max)
{
  shared = !!shared;
  if (range->shared == shared && (!shared || (range->min == min && range->max == max)))
    return FALSE;
  range->shared = shared;
  range->min = min;
  range->max = max;
  return TRUE;
}

void
ps_chart_shared_range_widen (const PsChartSharedRange *range,
                             double                   *min,
                             double                   *max)
{
  if (!range->shared)
    return;
  *min = MIN (*min, range->min);
  *max = MAX (*max, range->max);
}


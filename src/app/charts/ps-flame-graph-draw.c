/* ps-flame-graph-draw.c — what a frame of the flame graph says, its
 * colour, where it goes, and the drawing of the frames, the legend and
 * the picture
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §4 (percentages of the tooltips).
 *
 * Apart from the widget (ps-flame-graph.c) because it only reads the
 * derived tree and the settings: the layout of the frames is made again
 * when the width, the zoom or the tree changes, and frames narrower than
 * a pixel are left out with their whole subtree. The tests' look at the
 * frames, the tooltips and the legend is here too.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ps-flame-graph-private.h"
#include "ps-chart-util.h"
#include "ps-selection-util.h"
#include "ps-util.h"
#include "ps-view-util.h"

#define MIN_FRAME_WIDTH  1.0   /* narrower frames are not drawn */
#define MIN_LABEL_WIDTH  40.0  /* narrower frames have no label: "::…" tells nothing */
#define LEGEND_BAR_WIDTH 240.0

static PsCallDiffClock diff_clock  (PsFlameGraph       *self);
static void            node_shares (PsFlameGraph       *self,
                                    guint32             node,
                                    PsFlameGraphDiffBy  diff_by,
                                    double             *a_share,
                                    double             *b_share);

/* --- Text ------------------------------------------------------------------ */

/* Free with g_free () */
char *
ps_flame_graph_node_name (PsFlameGraph *self,
                          guint32       node)
{
  guint32 function = node_at (self->nodes, node)->function;

  if (function == PS_NONE)
    {
      /* After a focus, the root holds the calls of that function */
      for (guint i = self->transforms->len; i-- > 0;)
        {
          const Transform *transform = &g_array_index (self->transforms, Transform, i);

          if (transform->kind == PS_FLAME_TRANSFORM_FOCUS)
            {
              g_autofree char *name = ps_util_display_text (ps_call_tree_get_function_name (self->tree, transform->function), -1);

              /* Translators: the root of the flame graph after "Focus on Function" */
              return g_strdup_printf (_("All calls of %s"), name);
            }
        }
      return g_strdup (_("All calls"));
    }
  return ps_util_display_text (ps_call_tree_get_function_name (self->tree, function), -1);
}

char *
ps_flame_graph_format_value (PsFlameGraph *self,
                             double        value)
{
  PsCallUnit unit = ps_call_tree_get_unit (self->tree);

  if (!isfinite (value))
    return g_strdup ("–");
  if (unit == PS_CALL_UNIT_NS)
    {
      double ms = value / 1e6;
      /* The call tree's digits: whole, or to the microsecond */
      g_autofree char *number = ps_view_format_fixed (ms, fmod (ms, 1.0) == 0 ? 0 : 3);

      /* Translators: a time in milliseconds, "1,064.922 ms" */
      return g_strdup_printf (_("%s ms"), number);
    }
  else
    {
      g_autofree char *number = ps_view_format_number_whole (value);

      return g_strdup_printf (C_("value with unit", "%s %s"), number, ps_call_unit_to_string (unit));
    }
}

const char *
ps_flame_graph_value_title (PsCallValue value)
{
  switch (value)
    {
    case PS_CALL_VALUE_ELAPSED_INCLUSIVE:
      return _("Elapsed inclusive");
    case PS_CALL_VALUE_ELAPSED_EXCLUSIVE:
      return _("Elapsed exclusive");
    case PS_CALL_VALUE_APPLICATION_INCLUSIVE:
      return _("Application inclusive");
    case PS_CALL_VALUE_APPLICATION_EXCLUSIVE:
    case PS_N_CALL_VALUES:
    default:
      return _("Application exclusive");
    }
}

/* "+2.50 pp"; free with g_free () */
static char *
format_change (double change)
{
  if (change <= -0.005)
    /* Translators: a fall of a share in percentage points, with a minus sign */
    return g_strdup_printf (_("−%.2f pp"), -change);
  /* Translators: a change of a share in percentage points */
  return g_strdup_printf (_("+%.2f pp"), fabs (change) < 0.005 ? 0.0 : change);
}

static char *
format_ratio (double a_share,
              double b_share)
{
  if (a_share > 0)
    /* Translators: the ratio of the shares of B and A ("×1.50") */
    return g_strdup_printf (_("×%.2f"), b_share / a_share);
  if (b_share > 0)
    return g_strdup (_("new in B"));
  return g_strdup ("–");
}

static void
append_diff_tooltip (PsFlameGraph *self,
                     guint32       node,
                     GString      *text)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  const FlameBaseline *baseline = baseline_at (self->nodes, node);
  const PsFlameGraphDiffBy measures[] = { PS_FLAME_GRAPH_DIFF_BY_SELF, PS_FLAME_GRAPH_DIFF_BY_TOTAL };
  double only_in_a = baseline != NULL ? baseline->only_in_a_share[diff_clock (self) == PS_CALL_DIFF_APPLICATION] : 0;

  g_string_append_printf (text, "\n\n<b>%s</b>", _("Baseline A → this run B (share of each run)"));
  for (guint i = 0; i < G_N_ELEMENTS (measures); i++)
    {
      double a_share, b_share;
      g_autofree char *change = NULL;
      g_autofree char *ratio = NULL;

      node_shares (self, node, measures[i], &a_share, &b_share);
      change = format_change (b_share - a_share);
      ratio = format_ratio (a_share, b_share);
      g_string_append (text, "\n");
      if (measures[i] == self->diff_by)
        g_string_append (text, "<b>");
      g_string_append_printf (text,
                              measures[i] == PS_FLAME_GRAPH_DIFF_BY_SELF
                              /* Translators: "Exclusive: A 30.00 % → B 50.00 %, +20.00 pp (×1.67)" */
                              ? _("Exclusive: A %.2f %% → B %.2f %%, %s (%s)")
                              : _("Inclusive: A %.2f %% → B %.2f %%, %s (%s)"),
                              a_share, b_share, change, ratio);
      if (measures[i] == self->diff_by)
        g_string_append (text, "</b>");
    }
  if (!flame_node->in_baseline)
    g_string_append_printf (text, "\n%s", _("Not in the baseline: new in B"));
  if (only_in_a > 0)
    g_string_append_printf (text, _("\nCallees only in the baseline: %.2f %% of A"), only_in_a);
}

char *
ps_flame_graph_node_tooltip_markup (PsFlameGraph *self,
                                    guint32       node)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *name = ps_flame_graph_node_name (self, node);
  g_autofree char *escaped_name = g_markup_escape_text (name, -1);
  PsCallStats stats = { 0 };

  g_string_append_printf (text, "<b>%s</b>", escaped_name);
  if (flame_node->function != PS_NONE)
    {
      const char *module = ps_call_tree_get_function_module (self->tree, flame_node->function);
      g_autofree char *escaped_module = g_markup_escape_text (module, -1);

      if (*module != '\0')
        /* Translators: the module of a function */
        g_string_append_printf (text, "\n%s %s", _("Module:"), escaped_module);
      if (ps_call_tree_get_n_function_addresses (self->tree, flame_node->function) > 0)
        {
          guint n_addresses = ps_call_tree_get_n_function_addresses (self->tree, flame_node->function);
          g_autofree char *count = ps_view_format_count (n_addresses);

          g_string_append_c (text, '\n');
          /* Translators: %s is a number of code addresses */
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                                     "The module’s code without function names: %s address in the run",
                                                     "The module’s code without function names: %s addresses in the run",
                                                     n_addresses),
                                  count);
        }
      /* Samples count no calls */
      if (ps_call_tree_get_unit (self->tree) != PS_CALL_UNIT_SAMPLES)
        g_string_append_printf (text, "\n%s %" PRIu64, _("Calls:"), flame_node->calls);
    }

  memcpy (stats.total, flame_node->total, sizeof stats.total);
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    stats.given_percent[v] = NAN;
  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    {
      g_autofree char *value = ps_flame_graph_format_value (self, flame_node->total[v]);
      double percent = ps_call_tree_get_percent (self->tree, &stats, v, self->basis);

      /* Translators: "Elapsed inclusive: 75.000 ms (50.00 %)" */
      g_string_append_printf (text, _("\n%s: %s (%.2f %%)"), ps_flame_graph_value_title (v), value, percent);
    }
  if (self->diff != NULL)
    append_diff_tooltip (self, node, text);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* --- Colours --------------------------------------------------------------- */

/* A light text colour means a dark style: darker frames under it */
static gboolean
is_dark (const GdkRGBA *foreground)
{
  return 0.299 * foreground->red + 0.587 * foreground->green + 0.114 * foreground->blue > 0.5;
}

/* --- Differential colours ------------------------------------------------ */

/* The clock of the value shown */
static PsCallDiffClock
diff_clock (PsFlameGraph *self)
{
  return self->value == PS_CALL_VALUE_APPLICATION_INCLUSIVE || self->value == PS_CALL_VALUE_APPLICATION_EXCLUSIVE
         ? PS_CALL_DIFF_APPLICATION : PS_CALL_DIFF_ELAPSED;
}

static PsCallValue
diff_value (PsFlameGraph       *self,
            PsFlameGraphDiffBy  diff_by)
{
  gboolean application = diff_clock (self) == PS_CALL_DIFF_APPLICATION;

  if (diff_by == PS_FLAME_GRAPH_DIFF_BY_SELF)
    return application ? PS_CALL_VALUE_APPLICATION_EXCLUSIVE : PS_CALL_VALUE_ELAPSED_EXCLUSIVE;
  return application ? PS_CALL_VALUE_APPLICATION_INCLUSIVE : PS_CALL_VALUE_ELAPSED_INCLUSIVE;
}

/* A node's share of A and of B, in percent of each run's total */
static void
node_shares (PsFlameGraph       *self,
             guint32             node,
             PsFlameGraphDiffBy  diff_by,
             double             *a_share,
             double             *b_share)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  const FlameBaseline *baseline = baseline_at (self->nodes, node);
  PsCallValue value = diff_value (self, diff_by);

  *a_share = ps_call_tree_diff_share (ps_call_tree_diff_get_a (self->diff), diff_clock (self),
                                      baseline != NULL ? baseline->baseline[value] : 0);
  *b_share = ps_call_tree_diff_share (self->tree, diff_clock (self), flame_node->total[value]);
}

/* In percentage points, B − A */
static double
node_change (PsFlameGraph *self,
             guint32       node)
{
  double a_share, b_share;

  node_shares (self, node, self->diff_by, &a_share, &b_share);
  return b_share - a_share;
}

/* 1, 2 or 5 × 10^k at or above value */
static double
nice_ceiling (double value)
{
  double magnitude = pow (10, floor (log10 (value)));

  if (value <= magnitude * 1.0000001)
    return magnitude;
  if (value <= 2 * magnitude)
    return 2 * magnitude;
  if (value <= 5 * magnitude)
    return 5 * magnitude;
  return 10 * magnitude;
}

/* The change at the ends of the colour scale: the largest one of the
 * tree, rounded up, and at least twice the threshold so that the scale
 * has colours beyond the grey */
static double
get_diff_scale (PsFlameGraph *self)
{
  if (self->diff_scale <= 0)
    {
      double largest = 0;

      for (guint32 i = 0; self->nodes != NULL && i < self->nodes->len; i++)
        largest = MAX (largest, fabs (node_change (self, i)));
      self->diff_scale = MIN (nice_ceiling (MAX (largest, MAX (2 * self->diff_threshold, 1.0))), 100.0);
    }
  return self->diff_scale;
}

void
ps_flame_graph_invalidate_diff_scale (PsFlameGraph *self)
{
  self->diff_scale = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Grey within the threshold, then from pale to deep red (more in B) or
 * blue (less in B) as the change reaches the end of the scale */
static void
change_color (PsFlameGraph *self,
              double        change,
              gboolean      dark,
              GdkRGBA      *color)
{
  double magnitude = fabs (change);
  double scale = get_diff_scale (self);
  float t, hue, saturation, brightness, red, green, blue;

  if (magnitude == 0 || magnitude < self->diff_threshold)
    {
      *color = dark ? (GdkRGBA) { 0.40, 0.40, 0.41, 1.0 } : (GdkRGBA) { 0.82, 0.82, 0.83, 1.0 };
      return;
    }

  t = scale > self->diff_threshold ? (float) CLAMP ((magnitude - self->diff_threshold) / (scale - self->diff_threshold), 0.0, 1.0) : 1.0f;
  hue = change > 0 ? 0.0f : 0.6f;
  /* Deep but light enough for the labels' dark text */
  saturation = 0.22f + 0.5f * t;
  brightness = dark ? 0.50f + 0.2f * t : 0.98f - 0.06f * t;
  gtk_hsv_to_rgb (hue, saturation, brightness, &red, &green, &blue);
  *color = (GdkRGBA) { red, green, blue, 1.0 };
}

static void
node_color (PsFlameGraph  *self,
            guint32        node,
            gboolean       dark,
            GdkRGBA       *color)
{
  const FlameNode *flame_node = node_at (self->nodes, node);
  float hue, saturation, brightness, red, green, blue;

  if (self->diff != NULL)
    {
      change_color (self, node_change (self, node), dark, color);
      return;
    }

  if (flame_node->function == PS_NONE)
    {
      *color = dark ? (GdkRGBA) { 0.32, 0.30, 0.29, 1.0 } : (GdkRGBA) { 0.85, 0.83, 0.81, 1.0 };
      return;
    }

  if (self->color_by == PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE)
    {
      PsCallValue inclusive = is_exclusive (self->value) ? self->value - 1 : self->value;
      double share = flame_node->total[inclusive] > 0
                     ? CLAMP (flame_node->total[inclusive + 1] / flame_node->total[inclusive], 0.0, 1.0) : 0.0;

      /* Pale yellow (calls others) to red (all its own time) */
      hue = 0.15f - 0.15f * (float) share;
      saturation = 0.15f + 0.7f * (float) share;
      brightness = dark ? 0.62f : 0.98f - 0.08f * (float) share;
    }
  else
    {
      /* The module's colour, as the timeline's sample lanes have it */
      ps_chart_module_color (ps_call_tree_get_function_module (self->tree, flame_node->function), dark, color);
      return;
    }

  gtk_hsv_to_rgb (hue, saturation, brightness, &red, &green, &blue);
  *color = (GdkRGBA) { red, green, blue, 1.0 };
}

static gboolean
node_matches (PsFlameGraph *self,
              guint32       node)
{
  guint32 function = node_at (self->nodes, node)->function;

  return self->matches == NULL || (function != PS_NONE && self->matches[function]);
}

/* --- Layout ---------------------------------------------------------------- */

void
ps_flame_graph_count_rows (PsFlameGraph *self)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 deepest = 0;

  self->n_rows = 0;
  if (self->nodes == NULL)
    return;

  g_array_append_val (stack, self->zoom_node);
  while (stack->len > 0)
    {
      guint32 node = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      deepest = MAX (deepest, node_at (self->nodes, node)->depth);
      for (guint32 child = node_at (self->nodes, node)->first_child; child != NO_NODE;
           child = node_at (self->nodes, child)->next_sibling)
        g_array_append_val (stack, child);
    }
  self->n_rows = deepest + 1;
}

static void
ensure_layout (PsFlameGraph *self,
               int           width)
{
  g_autoptr(GArray) stack = NULL;
  double units_per_px, zoom_width;

  if (self->layout_width == width)
    return;
  self->layout_width = width;
  g_array_set_size (self->frames, 0);
  if (self->nodes == NULL || width <= 0)
    return;

  /* The callers of the zoomed frame stay above it, full width */
  for (guint32 node = self->zoom_node; node != NO_NODE; node = node_at (self->nodes, node)->parent)
    {
      FlameFrame frame = { node, node_at (self->nodes, node)->depth, 0, width };

      if (node != self->zoom_node)
        g_array_append_val (self->frames, frame);
    }

  zoom_width = node_width (node_at (self->nodes, self->zoom_node), self->value);
  units_per_px = zoom_width > 0 ? zoom_width / width : 0;

  stack = g_array_new (FALSE, FALSE, sizeof (FlameFrame));
  g_array_append_val (stack, ((FlameFrame) { self->zoom_node, node_at (self->nodes, self->zoom_node)->depth, 0, width }));
  while (stack->len > 0)
    {
      FlameFrame frame = g_array_index (stack, FlameFrame, stack->len - 1);
      double x = frame.x;
      double end = frame.x + frame.width;

      g_array_set_size (stack, stack->len - 1);
      g_array_append_val (self->frames, frame);
      if (units_per_px <= 0)
        continue;

      for (guint32 child = node_at (self->nodes, frame.node)->first_child; child != NO_NODE && x < end;
           child = node_at (self->nodes, child)->next_sibling)
        {
          /* Reports may give children more than their parent: clip */
          double child_width = MIN (node_width (node_at (self->nodes, child), self->value) / units_per_px, end - x);

          if (child_width >= MIN_FRAME_WIDTH)
            g_array_append_val (stack, ((FlameFrame) { child, frame.depth + 1, x, child_width }));
          x += MAX (child_width, 0);
        }
    }
}

void
ps_flame_graph_invalidate_layout (PsFlameGraph *self)
{
  self->layout_width = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const FlameFrame *
ps_flame_graph_frame_at (PsFlameGraph *self,
                         int           width,
                         double        x,
                         double        y)
{
  guint depth;

  y -= frames_top (self);
  if (x < 0 || y < 0 || x >= width)
    return NULL;

  ensure_layout (self, width);
  depth = (guint) (y / FRAME_HEIGHT);
  for (guint i = 0; i < self->frames->len; i++)
    {
      const FlameFrame *frame = &g_array_index (self->frames, FlameFrame, i);

      if (frame->depth == depth && x >= frame->x && x < frame->x + frame->width)
        return frame;
    }
  return NULL;
}

const FlameFrame *
ps_flame_graph_frame_of_node (PsFlameGraph *self,
                              int           width,
                              guint32       node)
{
  ensure_layout (self, width);
  for (guint i = 0; i < self->frames->len; i++)
    if (g_array_index (self->frames, FlameFrame, i).node == node)
      return &g_array_index (self->frames, FlameFrame, i);
  return NULL;
}

/* --- Drawing --------------------------------------------------------------- */

/* The legend of a differential graph, one line above the frames:
 *   title   less in B [blue ··· grey ··· red] more in B   note
 *                      −20 pp      0      +20 pp                     */
typedef struct
{
  double bar_x;
  double bar_width;
} LegendGeometry;

#define LEGEND_BAR_Y      7.0
#define LEGEND_BAR_HEIGHT 12.0
#define LEGEND_GAP        10.0

static char *
legend_title (PsFlameGraph *self)
{
  return g_strdup (self->diff_by == PS_FLAME_GRAPH_DIFF_BY_SELF
                   ? _("Change in exclusive time, A → B")
                   : _("Change in inclusive time, A → B"));
}

static int
text_width (PangoLayout *layout,
            const char  *markup)
{
  int width;

  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
legend_geometry (PsFlameGraph   *self,
                 PangoLayout    *layout,
                 int             width,
                 LegendGeometry *geometry)
{
  g_autofree char *title = legend_title (self);
  g_autofree char *title_markup = g_markup_printf_escaped ("<b>%s</b>", title);
  double x = 8;

  pango_layout_set_width (layout, -1);
  x += text_width (layout, title_markup) + 2 * LEGEND_GAP;
  x += text_width (layout, _("less in B")) + LEGEND_GAP;
  geometry->bar_x = x;
  geometry->bar_width = CLAMP (width - x - 120, 80, LEGEND_BAR_WIDTH);
}

static void
show_text_at (cairo_t     *cr,
              PangoLayout *layout,
              const char  *markup,
              double       x,
              double       center_y,
              double       align)  /* 0: x is the left, 0.5 the middle, 1 the right */
{
  int text_width, text_height;

  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  cairo_move_to (cr, round (x - align * text_width), round (center_y - text_height / 2.0));
  pango_cairo_show_layout (cr, layout);
}

static void
draw_legend (PsFlameGraph  *self,
             cairo_t       *cr,
             int            width,
             const GdkRGBA *foreground,
             gboolean       dark)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoLayout) small = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autoptr(PangoAttrList) small_attrs = pango_attr_list_new ();
  g_autofree char *title = legend_title (self);
  g_autofree char *title_markup = g_markup_printf_escaped ("<b>%s</b>", title);
  g_autofree char *low = NULL, *high = NULL, *threshold = NULL, *note = NULL, *note_markup = NULL;
  double scale = get_diff_scale (self);
  double bar_center = LEGEND_BAR_Y + LEGEND_BAR_HEIGHT / 2;
  double x, end;
  LegendGeometry geometry;

  pango_attr_list_insert (small_attrs, pango_attr_scale_new (0.82));
  pango_layout_set_attributes (small, small_attrs);
  legend_geometry (self, layout, width, &geometry);
  end = geometry.bar_x + geometry.bar_width;

  /* A band of its own, set off from the frames */
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.04);
  cairo_rectangle (cr, 0, 0, width, LEGEND_HEIGHT - 4);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.15);
  cairo_rectangle (cr, 0, LEGEND_HEIGHT - 5, width, 1);
  cairo_fill (cr);

  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha);
  show_text_at (cr, layout, title_markup, 8, bar_center, 0);
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha * 0.75);
  show_text_at (cr, layout, _("less in B"), geometry.bar_x - LEGEND_GAP, bar_center, 1);
  show_text_at (cr, layout, _("more in B"), end + LEGEND_GAP, bar_center, 0);

  /* The scale, a pixel column at a time, in the frames' own colours */
  for (x = 0; x < geometry.bar_width; x++)
    {
      double change = -scale + 2 * scale * (x + 0.5) / geometry.bar_width;
      GdkRGBA color;

      change_color (self, change, dark, &color);
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_rectangle (cr, geometry.bar_x + x, LEGEND_BAR_Y, 1, LEGEND_BAR_HEIGHT);
      cairo_fill (cr);
    }
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.35);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, geometry.bar_x - 0.5, LEGEND_BAR_Y - 0.5, geometry.bar_width + 1, LEGEND_BAR_HEIGHT + 1);
  cairo_stroke (cr);

  /* Ticks at the ends, at zero and at the threshold */
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.6);
  for (int tick = -2; tick <= 2; tick++)
    {
      double change = tick == 0 ? 0 : (abs (tick) == 1 ? self->diff_threshold : scale) * (tick < 0 ? -1 : 1);
      double tick_x = round (geometry.bar_x + geometry.bar_width * (change + scale) / (2 * scale)) + 0.5;

      if (abs (tick) == 1 && (self->diff_threshold <= 0 || self->diff_threshold >= scale))
        continue;
      cairo_move_to (cr, tick_x, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT);
      cairo_line_to (cr, tick_x, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 3);
      cairo_stroke (cr);
    }

  /* Translators: the ends of the colour scale of a differential flame
   * graph, in percentage points */
  low = g_strdup_printf (_("−%g pp"), scale);
  high = g_strdup_printf (_("+%g pp"), scale);
  cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha * 0.75);
  show_text_at (cr, small, low, geometry.bar_x, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 10, 0);
  show_text_at (cr, small, "0", geometry.bar_x + geometry.bar_width / 2, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 10, 0.5);
  show_text_at (cr, small, high, end, LEGEND_BAR_Y + LEGEND_BAR_HEIGHT + 10, 1);

  /* Translators: after the colour scale: its unit and the grey band */
  threshold = g_strdup_printf ("%g", self->diff_threshold);
  note = g_strdup_printf (_("pp of total · grey within ±%s pp"), threshold);
  note_markup = g_markup_escape_text (note, -1);
  x = end + LEGEND_GAP + text_width (layout, _("more in B")) + 2 * LEGEND_GAP;
  if (x < width)
    {
      pango_layout_set_width (layout, (int) ((width - x - 8) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, foreground->alpha * 0.6);
      show_text_at (cr, layout, note_markup, x, bar_center, 0);
    }
}

void
_ps_flame_graph_draw (PsFlameGraph *self,
                      cairo_t      *cr,
                      int           width,
                      int           height)
{
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA foreground;
  gboolean dark, focused;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->nodes == NULL)
    return;

  ensure_layout (self, width);
  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  dark = is_dark (&foreground);
  focused = gtk_widget_has_focus (GTK_WIDGET (self));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);

  for (guint i = 0; i < self->frames->len; i++)
    {
      const FlameFrame *frame = &g_array_index (self->frames, FlameFrame, i);
      double y = frames_top (self) + frame->depth * FRAME_HEIGHT;
      gboolean matches = node_matches (self, frame->node);
      double alpha = matches ? 1.0 : 0.25;
      GdkRGBA fill;

      if (y > height)
        continue;

      node_color (self, frame->node, dark, &fill);
      cairo_set_source_rgba (cr, fill.red, fill.green, fill.blue, alpha);
      /* A pixel of gap to the right and below separates the frames */
      cairo_rectangle (cr, frame->x, y, MAX (frame->width - 1, 1), FRAME_HEIGHT - 1);
      cairo_fill (cr);

      if (frame->width >= MIN_LABEL_WIDTH)
        {
          g_autofree char *name = ps_flame_graph_node_name (self, frame->node);
          int text_height;

          pango_layout_set_text (layout, name, -1);
          pango_layout_set_width (layout, (int) ((frame->width - 8) * PANGO_SCALE));
          pango_layout_get_pixel_size (layout, NULL, &text_height);
          cairo_save (cr);
          cairo_rectangle (cr, frame->x, y, frame->width - 1, FRAME_HEIGHT - 1);
          cairo_clip (cr);
          cairo_move_to (cr, frame->x + 4, y + (FRAME_HEIGHT - 1 - text_height) / 2.0);
          cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue,
                                 foreground.alpha * (matches ? 1.0 : 0.45));
          pango_cairo_show_layout (cr, layout);
          cairo_restore (cr);
        }

      /* Every frame of the function chosen in the table or another view,
       * on screen */
      if (!self->drawing_picture && self->marked_function != PS_NONE && node_at (self->nodes, frame->node)->function == self->marked_function)
        {
          GdkRGBA accent;

          ps_selection_accent_color (dark, &accent);
          gdk_cairo_set_source_rgba (cr, &accent);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, frame->x + 1, y + 1, MAX (frame->width - 3, 1), FRAME_HEIGHT - 3);
          cairo_stroke (cr);
        }

      if (focused && frame->node == self->focus_node)
        {
          cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, foreground.alpha);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, frame->x + 1, y + 1, MAX (frame->width - 3, 1), FRAME_HEIGHT - 3);
          cairo_stroke (cr);
        }
    }

  if (self->diff != NULL)
    draw_legend (self, cr, width, &foreground, dark);
}

void
ps_flame_graph_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget) - self->crumbs_height;

  gtk_widget_snapshot_child (widget, self->crumbs, snapshot);

  if (self->nodes != NULL && width > 0 && height > 0)
    {
      cairo_t *cr;

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, self->crumbs_height));
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      _ps_flame_graph_draw (self, cr, width, height);
      cairo_destroy (cr);
      gtk_snapshot_restore (snapshot);
    }
  else if (self->base_cancellable != NULL && width > 0 && height > 0)
    {
      GdkRGBA foreground;
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, self->crumbs_height, width, height));

      ps_chart_get_foreground (widget, &foreground);
      ps_chart_set_source (cr, &foreground, 0.6);
      ps_chart_draw_text (widget, cr, _("Laying out the calls…"), width / 2.0, self->crumbs_height + height / 2.0, 0.5, 0.5);
      cairo_destroy (cr);
    }

  if (self->menu != NULL)
    gtk_widget_snapshot_child (widget, self->menu, snapshot);
}

/* The breadcrumb bar of a picture: the path to the frame zoomed into on
 * the left, the last transform and what the widths and colours show on
 * the right, as the bar's buttons and drop-downs say */
static char *
picture_crumbs_text (PsFlameGraph *self)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  GString *text = g_string_new (NULL);

  if (self->nodes != NULL)
    for (guint32 node = self->zoom_node; node != NO_NODE; node = node_at (self->nodes, node)->parent)
      g_array_prepend_val (path, node);
  for (guint i = 0; i < path->len; i++)
    {
      g_autofree char *name = ps_flame_graph_node_name (self, g_array_index (path, guint32, i));

      if (i > 0)
        g_string_append (text, " › ");
      g_string_append (text, name);
    }
  return g_string_free (text, FALSE);
}

static char *
picture_settings_text (PsFlameGraph *self)
{
  GtkWidget *dropdowns[] = { self->value_dropdown, self->diff != NULL ? self->diff_dropdown : self->color_dropdown };
  GString *text = g_string_new (NULL);

  if (gtk_widget_get_visible (self->transform_label))
    g_string_append (text, gtk_label_get_text (GTK_LABEL (self->transform_label)));
  for (guint i = 0; i < G_N_ELEMENTS (dropdowns); i++)
    {
      GtkStringObject *item = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (dropdowns[i]));

      if (item == NULL)
        continue;
      if (text->len > 0)
        g_string_append (text, " · ");
      g_string_append (text, gtk_string_object_get_string (item));
    }
  return g_string_free (text, FALSE);
}

void
ps_flame_graph_draw_picture (PsFlameGraph *self,
                             cairo_t      *cr,
                             int           width,
                             int           height)
{
  g_autofree char *crumbs = NULL;
  g_autofree char *settings = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA foreground;
  int text_height, settings_width = 0, header_height;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (cr != NULL);

  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  crumbs = picture_crumbs_text (self);
  settings = picture_settings_text (self);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), settings);
  pango_layout_get_pixel_size (layout, &settings_width, &text_height);
  header_height = text_height + 12;

  cairo_save (cr);
  cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, foreground.alpha * 0.6);
  cairo_move_to (cr, MAX (width - 8 - settings_width, width / 2), 6);
  pango_layout_set_width (layout, (int) (MIN (settings_width, width / 2 - 8) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_text (layout, crumbs, -1);
  pango_layout_set_width (layout, (int) (MAX (width - 24 - MIN (settings_width, width / 2), 1) * PANGO_SCALE));
  cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, foreground.alpha);
  cairo_move_to (cr, 8, 6);
  pango_cairo_show_layout (cr, layout);

  if (height > header_height)
    {
      cairo_translate (cr, 0, header_height);
      cairo_rectangle (cr, 0, 0, width, height - header_height);
      cairo_clip (cr);
      /* The picture is of the graph: the outlines of what is chosen on
       * screen are left out */
      self->drawing_picture = TRUE;
      _ps_flame_graph_draw (self, cr, width, height - header_height);
      self->drawing_picture = FALSE;
    }
  cairo_restore (cr);
}

static void
ps_flame_graph_picture_source_draw (PsPictureSource *source,
                                    cairo_t         *cr,
                                    int              width,
                                    int              height)
{
  ps_flame_graph_draw_picture (PS_FLAME_GRAPH (source), cr, width, height);
}

static const char *
ps_flame_graph_picture_source_name (PsPictureSource *source)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (source);

  return self->diff != NULL ? "differential-flame-graph" : "flame-graph";
}

void
ps_flame_graph_picture_source_init (PsPictureSourceInterface *iface)
{
  iface->draw_picture = ps_flame_graph_picture_source_draw;
  iface->get_picture_name = ps_flame_graph_picture_source_name;
}

/* --- Tests (ps-flame-graph-private.h) ------------------------------------- */

static guint32
node_by_path (PsFlameGraph  *self,
              const char   **path)
{
  guint32 node = 0;

  if (self->nodes == NULL)
    return NO_NODE;

  for (guint i = 0; path != NULL && path[i] != NULL; i++)
    {
      guint32 child;

      for (child = node_at (self->nodes, node)->first_child; child != NO_NODE;
           child = node_at (self->nodes, child)->next_sibling)
        if (g_strcmp0 (ps_call_tree_get_function_name (self->tree, node_at (self->nodes, child)->function), path[i]) == 0)
          break;
      if (child == NO_NODE)
        return NO_NODE;
      node = child;
    }
  return node;
}

gboolean
_ps_flame_graph_get_frame (PsFlameGraph  *self,
                           int            width,
                           const char   **path,
                           double        *x,
                           double        *y,
                           double        *frame_width,
                           double        *frame_height)
{
  guint32 node = node_by_path (self, path);
  const FlameFrame *frame;

  if (node == NO_NODE || (frame = ps_flame_graph_frame_of_node (self, width, node)) == NULL)
    return FALSE;

  *x = frame->x;
  *y = frames_top (self) + frame->depth * FRAME_HEIGHT;
  *frame_width = frame->width;
  *frame_height = FRAME_HEIGHT;
  return TRUE;
}

char *
_ps_flame_graph_get_tooltip (PsFlameGraph  *self,
                             const char   **path)
{
  guint32 node = node_by_path (self, path);

  return node == NO_NODE ? NULL : ps_flame_graph_node_tooltip_markup (self, node);
}

void
_ps_flame_graph_get_function_color (PsFlameGraph *self,
                                    guint32       function,
                                    GdkRGBA      *color)
{
  GdkRGBA foreground;

  ps_chart_get_foreground (GTK_WIDGET (self), &foreground);
  for (guint32 i = 0; self->nodes != NULL && i < self->nodes->len; i++)
    if (node_at (self->nodes, i)->function == function)
      {
        node_color (self, i, is_dark (&foreground), color);
        return;
      }
  *color = (GdkRGBA) { 0, 0, 0, 0 };
}

void
_ps_flame_graph_click (PsFlameGraph *self,
                       int           width,
                       double        x,
                       double        y)
{
  const FlameFrame *frame = ps_flame_graph_frame_at (self, width, x, y);

  if (frame != NULL)
    ps_flame_graph_activate_node (self, frame->node);
}

static char *
node_path (PsFlameGraph *self,
           guint32       start)
{
  g_autoptr(GString) path = g_string_new (NULL);

  for (guint32 node = start; self->nodes != NULL && node != 0; node = node_at (self->nodes, node)->parent)
    {
      g_string_prepend (path, ps_call_tree_get_function_name (self->tree, node_at (self->nodes, node)->function));
      if (node_at (self->nodes, node)->parent != 0)
        g_string_prepend (path, "/");
    }
  return g_string_free (g_steal_pointer (&path), FALSE);
}

char *
_ps_flame_graph_get_zoom_path (PsFlameGraph *self)
{
  return node_path (self, self->zoom_node);
}

char *
_ps_flame_graph_get_focus_path (PsFlameGraph *self)
{
  return self->focus_node != NO_NODE ? node_path (self, self->focus_node) : NULL;
}

double
_ps_flame_graph_get_node_value (PsFlameGraph  *self,
                                const char   **path,
                                PsCallValue    value)
{
  guint32 node = node_by_path (self, path);

  return node != NO_NODE ? node_width (node_at (self->nodes, node), value) : NAN;
}

double
_ps_flame_graph_get_top_sum (PsFlameGraph *self,
                             PsCallValue   value)
{
  double sum = 0;

  if (self->nodes == NULL)
    return NAN;
  for (guint32 child = node_at (self->nodes, 0)->first_child; child != NO_NODE;
       child = node_at (self->nodes, child)->next_sibling)
    sum += node_width (node_at (self->nodes, child), value);
  return sum;
}

guint
_ps_flame_graph_get_n_children (PsFlameGraph  *self,
                                const char   **path)
{
  guint32 node = node_by_path (self, path);
  guint n = 0;

  if (node == NO_NODE)
    return 0;
  for (guint32 child = node_at (self->nodes, node)->first_child; child != NO_NODE;
       child = node_at (self->nodes, child)->next_sibling)
    n++;
  return n;
}

int
_ps_flame_graph_get_draw_top (PsFlameGraph *self)
{
  return self->crumbs_height;
}

gboolean
_ps_flame_graph_get_legend_bar (PsFlameGraph *self,
                                int           width,
                                double       *x,
                                double       *y,
                                double       *bar_width,
                                double       *bar_height,
                                double       *scale)
{
  g_autoptr(PangoLayout) layout = NULL;
  LegendGeometry geometry;

  if (self->diff == NULL || self->nodes == NULL)
    return FALSE;

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  legend_geometry (self, layout, width, &geometry);
  *x = geometry.bar_x;
  *y = LEGEND_BAR_Y;
  *bar_width = geometry.bar_width;
  *bar_height = LEGEND_BAR_HEIGHT;
  *scale = get_diff_scale (self);
  return TRUE;
}

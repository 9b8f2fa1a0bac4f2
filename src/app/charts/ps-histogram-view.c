/* ps-histogram-view.c — the distribution of durations (or other values)
 * as a bar chart
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawn with cairo in one pass over at most PS_HISTOGRAM_MAX_AUTO_BINS
 * bars; GTK keeps the render node until something changes, so there is no
 * cache of our own. The x axis shows durations in one unit chosen by the
 * range (ns, µs, ms or s) and names it, or, logarithmic, which can span
 * several units, has each label name its own; values of another unit
 * (percent, bytes, a counter's unit) are shown in it, bytes scaled to KiB,
 * MiB or GiB. The y axis shows counts or totals, also named. The units, the
 * geometry and the drawing are in ps-histogram-view-draw.c; this file is
 * the widget: its accessible description, selection, input and properties.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-histogram-view-private.h"
#include "ps-chart-util.h"
#include "ps-picture-export.h"
#include "ps-view-util.h"

enum {
  PROP_0,
  PROP_LOG_SCALE,
  PROP_BY_TOTAL,
  PROP_TITLE,
  PROP_UNIT,
  PROP_SELECTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_BOXED_TYPE (PsHistogramSelection, ps_histogram_selection,
                     ps_histogram_selection_copy, ps_histogram_selection_free)

G_DEFINE_FINAL_TYPE_WITH_CODE (PsHistogramView, ps_histogram_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_PICTURE_SOURCE, ps_histogram_view_picture_source_init))

PsHistogramSelection *
ps_histogram_selection_copy (const PsHistogramSelection *self)
{
  return g_memdup2 (self, sizeof *self);
}

void
ps_histogram_selection_free (PsHistogramSelection *self)
{
  g_free (self);
}

/* Accessibility */

static void
update_accessible (PsHistogramView *self)
{
  g_autofree char *description = NULL;
  const PsHistogram *histogram = self->histogram;

  if (histogram == NULL || histogram->n_bins == 0)
    description = g_strdup (ps_histogram_view_get_empty_text (self));
  else
    {
      g_autofree char *median = ps_histogram_view_format_value (self, histogram->median);
      g_autofree char *p95 = ps_histogram_view_format_value (self, histogram->p95);
      g_autofree char *n_values = ps_view_format_count (histogram->n_values);
      g_autofree char *n_bins = ps_view_format_count (histogram->n_bins);
      g_autofree char *selected = NULL;

      if (self->has_selection)
        {
          g_autofree char *lower = ps_histogram_view_format_value (self, histogram->bins[self->selection_first].lower);
          g_autofree char *upper = ps_histogram_view_format_value (self, histogram->bins[self->selection_last].upper);

          /* Translators: the selected range of a histogram, after its description */
          selected = g_strdup_printf (_("; selected from %s to %s"), lower, upper);
        }
      /* Translators: accessible description of a histogram: two counts
       * ("1,200"), two values; the last %s is the selection, or nothing */
      description = g_strdup_printf (ps_histogram_view_is_time (self)
                                     ? _("%s durations in %s bins, median %s, 95th percentile %s%s")
                                     /* Translators: as the description of a histogram of
                                      * durations, for other values */
                                     : _("%s values in %s bins, median %s, 95th percentile %s%s"),
                                     n_values, n_bins, median, p95, selected != NULL ? selected : "");
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->title != NULL ? self->title : _("Histogram of durations"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

/* Selection */

static void
set_selection (PsHistogramView *self,
               gboolean         has_selection,
               guint            first,
               guint            last)
{
  if (self->has_selection == has_selection
      && (!has_selection || (self->selection_first == first && self->selection_last == last)))
    return;

  self->has_selection = has_selection;
  self->selection_first = has_selection ? first : 0;
  self->selection_last = has_selection ? last : 0;
  /* Escape goes on to the window when there is nothing to clear */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.unselect", has_selection);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

/* Selects from the anchor to the cursor */
static void
select_to_cursor (PsHistogramView *self)
{
  int anchor = self->anchor_bin >= 0 ? self->anchor_bin : self->cursor_bin;

  set_selection (self, TRUE, MIN (anchor, self->cursor_bin), MAX (anchor, self->cursor_bin));
}

static void
rebuild (PsHistogramView *self)
{
  PsHistogramScale scale = self->log_scale ? PS_HISTOGRAM_LOG : PS_HISTOGRAM_LINEAR;

  g_clear_pointer (&self->histogram, ps_histogram_free);
  g_clear_pointer (&self->overlay, ps_histogram_free);
  if (self->overlay_values != NULL && self->overlay_values->len > 0)
    {
      /* Both samples on the bins of their union, so that bars compare */
      g_autoptr(GArray) both = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(PsHistogram) shape = NULL;

      if (self->values != NULL)
        g_array_append_vals (both, self->values->data, self->values->len);
      g_array_append_vals (both, self->overlay_values->data, self->overlay_values->len);
      shape = ps_histogram_new ((const double *)both->data, NULL, both->len, scale, 0);
      if (shape->n_bins > 0)
        {
          self->overlay = ps_histogram_view_histogram_on_bins (shape, (const double *)self->overlay_values->data,
                                                               self->overlay_values->len);
          self->histogram = ps_histogram_view_histogram_on_bins (shape,
                                                                 self->values != NULL ? (const double *)self->values->data : NULL,
                                                                 self->values != NULL ? self->values->len : 0);
        }
    }
  else if (self->values != NULL && self->values->len > 0)
    self->histogram = ps_histogram_new ((const double *)self->values->data, NULL, self->values->len,
                                        scale, 0);

  /* Bins of another layout are other ranges */
  self->anchor_bin = -1;
  self->cursor_bin = -1;
  self->hover_bin = -1;
  set_selection (self, FALSE, 0, 0);
  /* Arrows move the focus on when there are no bins */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.move-cursor",
                                 self->histogram != NULL && self->histogram->n_bins > 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
}

/* Input */

/* "histogram.move-cursor" (delta, extend): moves the cursor by delta bins
 * and selects its bin, or with extend the bins from the anchor to it */
static void
move_cursor_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);
  int delta;
  gboolean extend;
  int n_bins;

  if (self->histogram == NULL || self->histogram->n_bins == 0)
    return;
  n_bins = (int)self->histogram->n_bins;

  g_variant_get (parameter, "(ib)", &delta, &extend);
  if (self->cursor_bin < 0)
    self->cursor_bin = delta > 0 ? 0 : n_bins - 1;
  else
    self->cursor_bin = (int)CLAMP ((gint64)self->cursor_bin + delta, 0, n_bins - 1);

  if (!extend || self->anchor_bin < 0)
    self->anchor_bin = extend && self->has_selection ? (int)self->selection_first : self->cursor_bin;
  select_to_cursor (self);
  gtk_widget_queue_draw (widget);
}

static void
unselect_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);

  self->anchor_bin = -1;
  ps_histogram_view_unselect (self);
}

static void
drag_begin_cb (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               PsHistogramView *self)
{
  int bin = ps_histogram_view_bin_at_x (self, x);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (bin < 0)
    return;
  self->anchor_bin = bin;
  self->cursor_bin = bin;
  select_to_cursor (self);
}

static void
drag_update_cb (GtkGestureDrag  *gesture,
                double           offset_x,
                double           offset_y,
                PsHistogramView *self)
{
  double start_x, start_y;
  int bin;

  if (!gtk_gesture_drag_get_start_point (gesture, &start_x, &start_y))
    return;
  bin = ps_histogram_view_bin_at_x (self, start_x + offset_x);
  if (bin < 0 || bin == self->cursor_bin)
    return;
  self->cursor_bin = bin;
  select_to_cursor (self);
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           PsHistogramView          *self)
{
  Layout layout;
  int bin = -1;

  if (ps_histogram_view_compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)),
                                        gtk_widget_get_height (GTK_WIDGET (self)), &layout)
      && graphene_rect_contains_point (&layout.plot, &GRAPHENE_POINT_INIT (x, y)))
    bin = ps_histogram_view_bin_at_x (self, x);

  if (bin != self->hover_bin)
    {
      self->hover_bin = bin;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *controller,
          PsHistogramView          *self)
{
  if (self->hover_bin != -1)
    {
      self->hover_bin = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);
  const PsHistogram *histogram = self->histogram;
  const PsHistogramBin *bin;
  Layout layout;
  int index;
  g_autofree char *lower = NULL;
  g_autofree char *upper = NULL;
  g_autofree char *total = NULL;
  g_autofree char *text = NULL;

  if (!ps_histogram_view_compute_layout (self, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &layout))
    return FALSE;
  if (keyboard_mode)
    index = self->cursor_bin;
  else if (graphene_rect_contains_point (&layout.plot, &GRAPHENE_POINT_INIT (x, y)))
    index = ps_histogram_view_bin_at_x (self, x);
  else
    index = -1;
  if (index < 0)
    return FALSE;

  bin = &histogram->bins[index];
  lower = ps_histogram_view_format_value (self, bin->lower);
  upper = ps_histogram_view_format_value (self, bin->upper);
  total = ps_histogram_view_format_value (self, bin->total);
  text = g_strdup_printf (ps_histogram_view_is_time (self)
                          ? g_dngettext (GETTEXT_PACKAGE,
                                         /* Translators: a bar of a histogram: its range, how
                                          * many durations fell in it, of all, and their sum */
                                         "%s to %s%s\n%llu duration (%.2f %%)\nTotal time %s",
                                         "%s to %s%s\n%llu durations (%.2f %%)\nTotal time %s",
                                         bin->count)
                          : g_dngettext (GETTEXT_PACKAGE,
                                         /* Translators: a bar of a histogram of values other
                                          * than durations: its range, how many values fell in
                                          * it, of all, and their sum */
                                         "%s to %s%s\n%llu value (%.2f %%)\nTotal %s",
                                         "%s to %s%s\n%llu values (%.2f %%)\nTotal %s",
                                         bin->count),
                          lower, upper,
                          (guint)index == histogram->n_bins - 1 ? _(" (inclusive)") : "",
                          (unsigned long long) bin->count,
                          histogram->n_values > 0 ? 100.0 * (double)bin->count / (double)histogram->n_values : 0.0,
                          total);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ps_histogram_view_state_flags_changed (GtkWidget     *widget,
                                       GtkStateFlags  previous_state)
{
  /* The cursor shows with the focus */
  if ((gtk_widget_get_state_flags (widget) ^ previous_state) & (GTK_STATE_FLAG_FOCUSED | GTK_STATE_FLAG_FOCUS_VISIBLE))
    gtk_widget_queue_draw (widget);

  GTK_WIDGET_CLASS (ps_histogram_view_parent_class)->state_flags_changed (widget, previous_state);
}

static void
ps_histogram_view_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ps_histogram_view_parent_class)->css_changed (widget, change);
  /* Text colour and font */
  gtk_widget_queue_draw (widget);
}

/* GObject */

static void
picture_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);

  ps_picture_export_popup_menu (widget, &self->picture_menu, parameter);
}

static void
ps_histogram_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (widget);

  if (self->picture_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->picture_menu));
}

static void
ps_histogram_view_dispose (GObject *object)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  g_clear_pointer (&self->picture_menu, gtk_widget_unparent);

  G_OBJECT_CLASS (ps_histogram_view_parent_class)->dispose (object);
}

static void
ps_histogram_view_finalize (GObject *object)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  g_clear_pointer (&self->values, g_array_unref);
  g_clear_pointer (&self->histogram, ps_histogram_free);
  g_clear_pointer (&self->overlay_values, g_array_unref);
  g_clear_pointer (&self->overlay, ps_histogram_free);
  g_clear_pointer (&self->bars_label, g_free);
  g_clear_pointer (&self->overlay_label, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->unit, g_free);
  g_clear_pointer (&self->empty_text, g_free);

  G_OBJECT_CLASS (ps_histogram_view_parent_class)->finalize (object);
}

static void
ps_histogram_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOG_SCALE:
      g_value_set_boolean (value, self->log_scale);
      break;
    case PROP_BY_TOTAL:
      g_value_set_boolean (value, self->by_total);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_UNIT:
      g_value_set_string (value, self->unit);
      break;
    case PROP_SELECTION:
      if (self->has_selection)
        {
          PsHistogramSelection selection = {
            .first_bin = self->selection_first,
            .last_bin = self->selection_last,
            .lower = self->histogram->bins[self->selection_first].lower,
            .upper = self->histogram->bins[self->selection_last].upper,
          };

          g_value_set_boxed (value, &selection);
        }
      else
        g_value_set_boxed (value, NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_histogram_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  PsHistogramView *self = PS_HISTOGRAM_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOG_SCALE:
      ps_histogram_view_set_log_scale (self, g_value_get_boolean (value));
      break;
    case PROP_BY_TOTAL:
      ps_histogram_view_set_by_total (self, g_value_get_boolean (value));
      break;
    case PROP_TITLE:
      ps_histogram_view_set_title (self, g_value_get_string (value));
      break;
    case PROP_UNIT:
      ps_histogram_view_set_unit (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_move_binding (GtkWidgetClass *widget_class,
                  guint           keyval,
                  guint           keypad_keyval,
                  int             delta)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, 0, "histogram.move-cursor", "(ib)", delta, FALSE);
  gtk_widget_class_add_binding_action (widget_class, keyval, GDK_SHIFT_MASK, "histogram.move-cursor", "(ib)", delta, TRUE);
  gtk_widget_class_add_binding_action (widget_class, keypad_keyval, 0, "histogram.move-cursor", "(ib)", delta, FALSE);
  gtk_widget_class_add_binding_action (widget_class, keypad_keyval, GDK_SHIFT_MASK, "histogram.move-cursor", "(ib)", delta, TRUE);
}

static void
ps_histogram_view_class_init (PsHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_histogram_view_dispose;
  object_class->finalize = ps_histogram_view_finalize;
  object_class->get_property = ps_histogram_view_get_property;
  object_class->set_property = ps_histogram_view_set_property;

  widget_class->snapshot = ps_histogram_view_snapshot;
  /* Its height has room for the marks' labels, four bars and both axes */
  ps_chart_class_set_size (widget_class, 240, 480, 140, 280);
  widget_class->size_allocate = ps_histogram_view_size_allocate;
  widget_class->state_flags_changed = ps_histogram_view_state_flags_changed;
  widget_class->css_changed = ps_histogram_view_css_changed;

  properties[PROP_LOG_SCALE] =
    g_param_spec_boolean ("log-scale", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BY_TOTAL] =
    g_param_spec_boolean ("by-total", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Of the values: NULL or "s" for durations in seconds, "bytes",
   * "percent", or any other unit, printed as it is ("" for none) */
  properties[PROP_UNIT] =
    g_param_spec_string ("unit", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* NULL when nothing is selected */
  properties[PROP_SELECTION] =
    g_param_spec_boxed ("selection", NULL, NULL, PS_TYPE_HISTOGRAM_SELECTION,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "histogram.move-cursor", "(ib)", move_cursor_action);
  gtk_widget_class_install_action (widget_class, "histogram.unselect", NULL, unselect_action);
  add_move_binding (widget_class, GDK_KEY_Left, GDK_KEY_KP_Left, -1);
  add_move_binding (widget_class, GDK_KEY_Right, GDK_KEY_KP_Right, 1);
  add_move_binding (widget_class, GDK_KEY_Home, GDK_KEY_KP_Home, -PS_HISTOGRAM_MAX_AUTO_BINS);
  add_move_binding (widget_class, GDK_KEY_End, GDK_KEY_KP_End, PS_HISTOGRAM_MAX_AUTO_BINS);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "histogram.unselect", NULL);
  ps_picture_export_install_action (widget_class);
  ps_picture_export_install_menu (widget_class, picture_menu_action);

  gtk_widget_class_set_css_name (widget_class, "histogramview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ps_histogram_view_init (PsHistogramView *self)
{
  GtkGesture *drag;
  GtkEventController *motion;

  self->anchor_bin = -1;
  self->cursor_bin = -1;
  self->hover_bin = -1;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  ps_picture_export_add_context_click (GTK_WIDGET (self));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.move-cursor", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "histogram.unselect", FALSE);

  update_accessible (self);
}

GtkWidget *
ps_histogram_view_new (void)
{
  return g_object_new (PS_TYPE_HISTOGRAM_VIEW, NULL);
}

void
ps_histogram_view_set_values (PsHistogramView *self,
                              const double    *values,
                              gsize            count)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (values != NULL || count == 0);

  g_clear_pointer (&self->values, g_array_unref);
  self->values = g_array_sized_new (FALSE, FALSE, sizeof (double), count);
  g_array_append_vals (self->values, values, count);
  rebuild (self);
}

void
ps_histogram_view_clear (PsHistogramView *self)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  g_clear_pointer (&self->values, g_array_unref);
  g_clear_pointer (&self->overlay_values, g_array_unref);
  rebuild (self);
}

void
ps_histogram_view_set_overlay (PsHistogramView *self,
                               const double    *values,
                               gsize            count,
                               const char      *bars_label,
                               const char      *overlay_label)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (values != NULL || count == 0);

  g_clear_pointer (&self->overlay_values, g_array_unref);
  if (values != NULL)
    {
      self->overlay_values = g_array_sized_new (FALSE, FALSE, sizeof (double), count);
      g_array_append_vals (self->overlay_values, values, count);
    }
  g_free (self->bars_label);
  self->bars_label = g_strdup (bars_label);
  g_free (self->overlay_label);
  self->overlay_label = g_strdup (overlay_label);
  rebuild (self);
}

const PsHistogram *
ps_histogram_view_get_overlay (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->overlay;
}

const PsHistogram *
ps_histogram_view_get_histogram (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->histogram;
}

gboolean
ps_histogram_view_get_log_scale (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);
  return self->log_scale;
}

void
ps_histogram_view_set_log_scale (PsHistogramView *self,
                                 gboolean         log_scale)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  log_scale = !!log_scale;
  if (self->log_scale == log_scale)
    return;
  self->log_scale = log_scale;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOG_SCALE]);
}

gboolean
ps_histogram_view_get_by_total (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);
  return self->by_total;
}

void
ps_histogram_view_set_by_total (PsHistogramView *self,
                                gboolean         by_total)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  by_total = !!by_total;
  if (self->by_total == by_total)
    return;
  self->by_total = by_total;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_TOTAL]);
}

void
ps_histogram_view_set_empty_text (PsHistogramView *self,
                                  const char      *text)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  if (g_strcmp0 (self->empty_text, text) == 0)
    return;
  g_free (self->empty_text);
  self->empty_text = g_strdup (text);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
ps_histogram_view_get_empty_text (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);

  if (self->empty_text != NULL)
    return self->empty_text;
  return ps_histogram_view_is_time (self) ? _("No durations") : _("No values");
}

const char *
ps_histogram_view_get_title (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->title;
}

void
ps_histogram_view_set_title (PsHistogramView *self,
                             const char      *title)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
ps_histogram_view_get_unit (PsHistogramView *self)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), NULL);
  return self->unit;
}

void
ps_histogram_view_set_unit (PsHistogramView *self,
                            const char      *unit)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  if (g_strcmp0 (self->unit, unit) == 0)
    return;
  g_free (self->unit);
  self->unit = g_strdup (unit);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

gboolean
ps_histogram_view_get_selection (PsHistogramView *self,
                                 guint           *first_bin,
                                 guint           *last_bin)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);

  if (first_bin != NULL)
    *first_bin = self->selection_first;
  if (last_bin != NULL)
    *last_bin = self->selection_last;
  return self->has_selection;
}

void
ps_histogram_view_select_bins (PsHistogramView *self,
                               guint            first_bin,
                               guint            last_bin)
{
  guint n_bins;

  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));

  if (self->histogram == NULL || self->histogram->n_bins == 0)
    return;
  n_bins = self->histogram->n_bins;
  if (first_bin > last_bin)
    {
      guint swap = first_bin;

      first_bin = last_bin;
      last_bin = swap;
    }
  first_bin = MIN (first_bin, n_bins - 1);
  last_bin = MIN (last_bin, n_bins - 1);

  self->anchor_bin = (int)first_bin;
  self->cursor_bin = (int)last_bin;
  set_selection (self, TRUE, first_bin, last_bin);
}

void
ps_histogram_view_unselect (PsHistogramView *self)
{
  g_return_if_fail (PS_IS_HISTOGRAM_VIEW (self));
  set_selection (self, FALSE, 0, 0);
}

gboolean
ps_histogram_view_selection_contains (PsHistogramView *self,
                                      double           seconds)
{
  g_return_val_if_fail (PS_IS_HISTOGRAM_VIEW (self), FALSE);

  return self->has_selection
         && ps_histogram_range_contains (self->histogram, self->selection_first,
                                         self->selection_last, seconds);
}

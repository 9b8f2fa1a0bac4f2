/* ps-fit-row.c — a row of widgets that asks for little and uses the
 * room it is given
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two long names side by side (the runs of a comparison) would make a
 * window as wide as both. A label's max-width-chars keeps its natural
 * width short, but a GtkBox then gives it no more than that, so the name
 * is cut on the widest screen too. Here each child asks for at most
 * natural-chars characters, and is given its whole natural width where
 * the row has room: the children go side by side from the start, and
 * only when they do not fit does each give up room down to its minimum,
 * the one that needs least keeping all it needs first (as in a GtkBox).
 */
#include "config.h"

#include "ps-fit-row.h"
#include "ps-view-util.h"

struct _PsFitRow
{
  GtkWidget parent_instance;

  int       spacing;
  int       natural_chars;   /* −1: a child's whole natural width */
};

enum {
  PROP_0,
  PROP_SPACING,
  PROP_NATURAL_CHARS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static const gsize property_fields[N_PROPS] = {
  [PROP_SPACING] = G_STRUCT_OFFSET (PsFitRow, spacing),
  [PROP_NATURAL_CHARS] = G_STRUCT_OFFSET (PsFitRow, natural_chars),
};

G_DEFINE_FINAL_TYPE (PsFitRow, ps_fit_row, GTK_TYPE_WIDGET)

/* What natural_chars characters of the row's font take, as GtkLabel
 * counts its max-width-chars */
static int
natural_cap (PsFitRow *self)
{
  PangoFontMetrics *metrics;
  int char_width;

  if (self->natural_chars < 0)
    return G_MAXINT;
  metrics = pango_context_get_metrics (gtk_widget_get_pango_context (GTK_WIDGET (self)), NULL, NULL);
  char_width = MAX (pango_font_metrics_get_approximate_char_width (metrics),
                    pango_font_metrics_get_approximate_digit_width (metrics));
  pango_font_metrics_unref (metrics);
  return PANGO_PIXELS_CEIL (char_width * self->natural_chars);
}

static void
ps_fit_row_measure (GtkWidget      *widget,
                    GtkOrientation  orientation,
                    int             for_size,
                    int            *minimum,
                    int            *natural)
{
  PsFitRow *self = PS_FIT_ROW (widget);
  int cap = orientation == GTK_ORIENTATION_HORIZONTAL ? natural_cap (self) : 0;
  guint n_children = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_minimum, child_natural;

      if (!gtk_widget_should_layout (child))
        continue;
      n_children++;
      if (orientation == GTK_ORIENTATION_VERTICAL)
        {
          gtk_widget_measure (child, orientation, -1, &child_minimum, &child_natural, NULL, NULL);
          *minimum = MAX (*minimum, child_minimum);
          *natural = MAX (*natural, child_natural);
          continue;
        }
      gtk_widget_measure (child, orientation, -1, &child_minimum, &child_natural, NULL, NULL);
      *minimum += child_minimum;
      *natural += MAX (child_minimum, MIN (child_natural, cap));
    }
  if (orientation == GTK_ORIENTATION_HORIZONTAL && n_children > 1)
    {
      *minimum += (int)(n_children - 1) * self->spacing;
      *natural += (int)(n_children - 1) * self->spacing;
    }
}

static void
ps_fit_row_size_allocate (GtkWidget *widget,
                          int        width,
                          int        height,
                          int        baseline)
{
  PsFitRow *self = PS_FIT_ROW (widget);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (GtkRequestedSize));
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  int available = width, sum_minimum = 0, sum_natural = 0, x = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkRequestedSize size = { child, 0, 0 };

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, height, &size.minimum_size, &size.natural_size, NULL, NULL);
      sum_minimum += size.minimum_size;
      sum_natural += size.natural_size;
      if (sizes->len > 0)
        available -= self->spacing;
      g_array_append_val (sizes, size);
    }

  /* Whole where they fit; else each down towards its minimum */
  if (available >= sum_natural)
    for (guint i = 0; i < sizes->len; i++)
      g_array_index (sizes, GtkRequestedSize, i).minimum_size = g_array_index (sizes, GtkRequestedSize, i).natural_size;
  else
    gtk_distribute_natural_allocation (MAX (available - sum_minimum, 0), sizes->len, (GtkRequestedSize *)sizes->data);

  for (guint i = 0; i < sizes->len; i++)
    {
      const GtkRequestedSize *size = &g_array_index (sizes, GtkRequestedSize, i);
      int child_width = size->minimum_size;

      gtk_widget_size_allocate (size->data,
                                &(GtkAllocation) { rtl ? width - x - child_width : x, 0, child_width, height },
                                -1);
      x += child_width + self->spacing;
    }
}

static void
ps_fit_row_dispose (GObject *object)
{
  ps_view_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (ps_fit_row_parent_class)->dispose (object);
}

static void
ps_fit_row_class_init (PsFitRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_fit_row_dispose;

  ps_view_class_set_measure (widget_class, ps_fit_row_measure);
  widget_class->size_allocate = ps_fit_row_size_allocate;

  properties[PROP_SPACING] =
    g_param_spec_int ("spacing", NULL, NULL, 0, G_MAXINT, 0,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The most characters of the row's font a child asks for naturally;
   * −1: its whole natural width */
  properties[PROP_NATURAL_CHARS] =
    g_param_spec_int ("natural-chars", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  ps_view_class_install_layout_ints (object_class, N_PROPS, properties, property_fields);

  gtk_widget_class_set_css_name (widget_class, "fitrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_fit_row_init (PsFitRow *self)
{
  self->natural_chars = -1;
}

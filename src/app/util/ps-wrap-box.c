/* ps-wrap-box.c — a row of widgets that wraps onto more lines when narrow
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A toolbar of buttons, drop-downs and a search entry is as wide as all of
 * them side by side; in a GtkBox that width is the window's minimum. Here
 * the children go on one line while their natural widths fit and start a
 * new line when they do not, so the toolbar is never wider than its widest
 * child. On each line, as in a GtkBox, the room left over goes to the
 * children that expand horizontally, and each child is aligned (halign,
 * valign) within what it gets.
 */
#include "config.h"

#include "ps-wrap-box.h"
#include "ps-view-util.h"

struct _PsWrapBox
{
  GtkWidget parent_instance;

  int       spacing;
  int       row_spacing;
  guint     n_lines;
};

enum {
  PROP_0,
  PROP_SPACING,
  PROP_ROW_SPACING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static const gsize property_fields[N_PROPS] = {
  [PROP_SPACING] = G_STRUCT_OFFSET (PsWrapBox, spacing),
  [PROP_ROW_SPACING] = G_STRUCT_OFFSET (PsWrapBox, row_spacing),
};
static GtkBuildableIface *parent_buildable_iface;

static void ps_wrap_box_buildable_init (GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsWrapBox, ps_wrap_box, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDABLE, ps_wrap_box_buildable_init))

typedef struct
{
  GtkWidget *child;
  int        minimum;
  int        natural;
  int        width;    /* on its line */
  gboolean   expand;
} Item;

typedef struct
{
  guint first;
  guint n_items;
  int   height;
} Line;

static GArray *
collect_items (PsWrapBox *self)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (Item));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      Item item = { child, 0, 0, 0, FALSE };

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &item.minimum, &item.natural, NULL, NULL);
      item.expand = gtk_widget_compute_expand (child, GTK_ORIENTATION_HORIZONTAL);
      g_array_append_val (items, item);
    }
  return items;
}

/* The children on lines of width (-1: all on one line), each child's
 * width on its line and each line's height */
static GArray *
break_lines (PsWrapBox *self,
             GArray    *items,
             int        width)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Line));
  guint i = 0;

  while (i < items->len)
    {
      Line line = { i, 0, 0 };
      int used = 0, extra, n_expand = 0;

      /* As many as fit at their natural widths, at least one */
      for (; i < items->len; i++)
        {
          Item *item = &g_array_index (items, Item, i);
          int needed = used + (line.n_items > 0 ? self->spacing : 0) + item->natural;

          if (line.n_items > 0 && width >= 0 && needed > width)
            break;
          used = needed;
          line.n_items++;
          n_expand += item->expand;
        }

      /* The room left over goes to the expanding children; a lone child
       * wider than the line gets the line, down to its minimum */
      extra = width >= 0 ? width - used : 0;
      for (guint k = line.first; k < line.first + line.n_items; k++)
        {
          Item *item = &g_array_index (items, Item, k);

          item->width = item->natural;
          if (extra < 0)
            item->width = MAX (item->minimum, item->natural + extra);
          else if (item->expand && n_expand > 0)
            {
              int share = extra / n_expand;

              item->width += share;
              extra -= share;
              n_expand--;
            }
        }
      for (guint k = line.first; k < line.first + line.n_items; k++)
        {
          Item *item = &g_array_index (items, Item, k);
          int natural_height;

          gtk_widget_measure (item->child, GTK_ORIENTATION_VERTICAL, item->width, NULL, &natural_height, NULL, NULL);
          line.height = MAX (line.height, natural_height);
        }
      g_array_append_val (lines, line);
    }
  return lines;
}

static int
lines_height (PsWrapBox *self,
              GArray    *lines)
{
  int height = 0;

  for (guint l = 0; l < lines->len; l++)
    height += g_array_index (lines, Line, l).height + (l > 0 ? self->row_spacing : 0);
  return height;
}

static void
ps_wrap_box_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural)
{
  PsWrapBox *self = PS_WRAP_BOX (widget);
  g_autoptr(GArray) items = collect_items (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* At least the widest child; naturally all of them on one line */
      *minimum = *natural = 0;
      for (guint i = 0; i < items->len; i++)
        {
          const Item *item = &g_array_index (items, Item, i);

          *minimum = MAX (*minimum, item->minimum);
          *natural += item->natural + (i > 0 ? self->spacing : 0);
        }
    }
  else
    {
      g_autoptr(GArray) lines = break_lines (self, items, for_size);

      *minimum = *natural = lines_height (self, lines);
    }
}

static void
ps_wrap_box_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  PsWrapBox *self = PS_WRAP_BOX (widget);
  g_autoptr(GArray) items = collect_items (self);
  g_autoptr(GArray) lines = break_lines (self, items, width);
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  int y = 0;

  for (guint l = 0; l < lines->len; l++)
    {
      const Line *line = &g_array_index (lines, Line, l);
      int x = 0;

      for (guint k = line->first; k < line->first + line->n_items; k++)
        {
          const Item *item = &g_array_index (items, Item, k);
          GtkAllocation allocation = { rtl ? width - x - item->width : x, y, item->width, line->height };

          gtk_widget_size_allocate (item->child, &allocation, -1);
          x += item->width + self->spacing;
        }
      y += line->height + self->row_spacing;
    }
  self->n_lines = lines->len;
}

static GtkSizeRequestMode
ps_wrap_box_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* Expands as its children do, as a GtkBox */
static void
ps_wrap_box_compute_expand (GtkWidget *widget,
                            gboolean  *hexpand,
                            gboolean  *vexpand)
{
  *hexpand = *vexpand = FALSE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      *hexpand |= gtk_widget_compute_expand (child, GTK_ORIENTATION_HORIZONTAL);
      *vexpand |= gtk_widget_compute_expand (child, GTK_ORIENTATION_VERTICAL);
    }
}

static void
ps_wrap_box_buildable_add_child (GtkBuildable *buildable,
                                 GtkBuilder   *builder,
                                 GObject      *child,
                                 const char   *type)
{
  if (GTK_IS_WIDGET (child))
    ps_wrap_box_append (PS_WRAP_BOX (buildable), GTK_WIDGET (child));
  else
    parent_buildable_iface->add_child (buildable, builder, child, type);
}

static void
ps_wrap_box_buildable_init (GtkBuildableIface *iface)
{
  parent_buildable_iface = g_type_interface_peek_parent (iface);
  iface->add_child = ps_wrap_box_buildable_add_child;
}

static void
ps_wrap_box_dispose (GObject *object)
{
  ps_view_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (ps_wrap_box_parent_class)->dispose (object);
}

static void
ps_wrap_box_class_init (PsWrapBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_wrap_box_dispose;

  ps_view_class_set_measure (widget_class, ps_wrap_box_measure);
  widget_class->size_allocate = ps_wrap_box_size_allocate;
  widget_class->get_request_mode = ps_wrap_box_get_request_mode;
  widget_class->compute_expand = ps_wrap_box_compute_expand;

  properties[PROP_SPACING] =
    g_param_spec_int ("spacing", NULL, NULL, 0, G_MAXINT, 0,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ROW_SPACING] =
    g_param_spec_int ("row-spacing", NULL, NULL, 0, G_MAXINT, 6,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  ps_view_class_install_layout_ints (object_class, N_PROPS, properties, property_fields);

  gtk_widget_class_set_css_name (widget_class, "wrapbox");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_wrap_box_init (PsWrapBox *self)
{
  self->row_spacing = 6;
}

GtkWidget *
ps_wrap_box_new (int spacing)
{
  return g_object_new (PS_TYPE_WRAP_BOX, "spacing", spacing, NULL);
}

void
ps_wrap_box_append (PsWrapBox *self,
                    GtkWidget *child)
{
  g_return_if_fail (PS_IS_WRAP_BOX (self));
  g_return_if_fail (GTK_IS_WIDGET (child));

  gtk_widget_insert_before (child, GTK_WIDGET (self), NULL);
}

guint
ps_wrap_box_get_n_lines (PsWrapBox *self)
{
  g_return_val_if_fail (PS_IS_WRAP_BOX (self), 0);
  return self->n_lines;
}

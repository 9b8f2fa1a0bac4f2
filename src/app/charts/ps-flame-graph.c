/* ps-flame-graph.c — an icicle graph of a call tree's top-down tree
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (the four values, the call tree) and §4
 * (percentages of the tooltips).
 *
 * The widget keeps its own compact copy of the top-down tree (one small
 * struct per node, children as linked lists), so that transforms can derive
 * a simplified tree from it: each transform reads a node array and writes a
 * new one, parents always before their children, so every pass is a plain
 * loop over indexes and nothing recurses. The frames of the zoomed subtree
 * are laid out again only when the width, the zoom or the tree changes, and
 * frames narrower than a pixel are left out with their whole subtree, so a
 * layout has at most width × depth frames whatever the size of the tree.
 * The node arrays and their transforms are in ps-flame-graph-tree.c, what
 * a frame says and looks like and where it goes in ps-flame-graph-draw.c;
 * this file is the widget: its breadcrumbs, input, actions and properties.
 *
 * A differential graph (a baseline) carries A's values in each node next to
 * B's, taken from the diff when the base is built; transforms merge them
 * like B's, so a focused or merged graph still compares like with like
 * (A's nodes that B lacks are not in the base: a focus leaves them out).
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ps-flame-graph-private.h"
#include "ps-accessible-util.h"
#include "ps-chart-util.h"
#include "ps-picture-export.h"
#include "ps-picture-source.h"
#include "ps-selection-util.h"
#include "ps-task-util.h"
#include "ps-util.h"
#include "ps-view-util.h"

#define MAX_CRUMBS       6     /* the root, "…" and the last ones */
/* A tree of more nodes is copied in a worker: a big run's copy would hold
 * the window still for seconds */
#define SYNC_BASE_NODES  50000

enum {
  PROP_0,
  PROP_TREE,
  PROP_VALUE,
  PROP_COLOR_BY,
  PROP_BASELINE,
  PROP_DIFF_BY,
  PROP_DIFF_THRESHOLD,
  N_PROPS
};

enum {
  FRAME_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_ENUM_TYPE (PsFlameGraphColorBy, ps_flame_graph_color_by,
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_COLOR_BY_MODULE, "module"),
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE, "self-share"))

G_DEFINE_ENUM_TYPE (PsFlameGraphDiffBy, ps_flame_graph_diff_by,
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_DIFF_BY_SELF, "self"),
                    G_DEFINE_ENUM_VALUE (PS_FLAME_GRAPH_DIFF_BY_TOTAL, "total"))

G_DEFINE_FINAL_TYPE_WITH_CODE (PsFlameGraph, ps_flame_graph, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_PICTURE_SOURCE, ps_flame_graph_picture_source_init))

/* --- Breadcrumbs, zoom and focus ------------------------------------------ */

#define N_HOTTEST 3

/* What the graph shows, for a screen reader: the root's total and the
 * frames with the most time of their own, with their shares of it */
static char *
summary (PsFlameGraph *self)
{
  guint32 hottest[N_HOTTEST];
  double hottest_own[N_HOTTEST];
  guint n_hottest = 0;
  double root_width;
  g_autofree char *total = NULL;
  GString *text;

  if (self->nodes == NULL || self->nodes->len == 0)
    return g_strdup (_("No calls"));

  root_width = node_width (node_at (self->nodes, 0), self->value);
  for (guint32 i = 1; i < self->nodes->len; i++)
    {
      const FlameNode *node = node_at (self->nodes, i);
      double own = node_width (node, self->value);
      guint slot;

      for (guint32 child = node->first_child; child != NO_NODE; child = node_at (self->nodes, child)->next_sibling)
        own -= node_width (node_at (self->nodes, child), self->value);
      if (!(own > 0))
        continue;
      for (slot = n_hottest; slot > 0 && hottest_own[slot - 1] < own; slot--)
        if (slot < N_HOTTEST)
          {
            hottest[slot] = hottest[slot - 1];
            hottest_own[slot] = hottest_own[slot - 1];
          }
      if (slot < N_HOTTEST)
        {
          hottest[slot] = i;
          hottest_own[slot] = own;
          n_hottest = MIN (n_hottest + 1, N_HOTTEST);
        }
    }

  total = ps_flame_graph_format_value (self, root_width);
  text = g_string_new (NULL);
  /* Translators: the start of the flame graph's summary for a screen reader */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s in %u frame.", "%s in %u frames.",
                                             self->nodes->len - 1),
                          total, self->nodes->len - 1);
  for (guint i = 0; i < n_hottest; i++)
    {
      g_autofree char *name = ps_flame_graph_node_name (self, hottest[i]);
      g_autofree char *share = ps_view_format_fixed (root_width > 0 ? 100 * hottest_own[i] / root_width : 0, 1);

      g_string_append_c (text, ' ');
      if (i == 0)
        /* Translators: the frame with the most time of its own and its
         * share of the whole graph, in the flame graph's summary */
        g_string_append_printf (text, _("Most of its own: %s, %s %%"), name, share);
      else
        /* Translators: the next frames of the flame graph's summary */
        g_string_append_printf (text, _("then %s, %s %%"), name, share);
      g_string_append_c (text, i + 1 < n_hottest ? ';' : '.');
    }
  return g_string_free (text, FALSE);
}

static void
update_accessible (PsFlameGraph *self)
{
  g_autofree char *description = NULL;
  g_autofree char *focus = NULL;

  if (self->summary == NULL)
    self->summary = summary (self);
  if (self->nodes != NULL && self->focus_node != NO_NODE)
    {
      g_autofree char *name = ps_flame_graph_node_name (self, self->focus_node);
      g_autofree char *value = ps_flame_graph_format_value (self, node_width (node_at (self->nodes, self->focus_node), self->value));

      /* Translators: the frame the keyboard is on: "::main, 140.000 ms" */
      focus = g_strdup_printf (_("%s, %s"), name, value);
    }
  /* Translators: the flame graph's description for a screen reader: its
   * summary, the frame the keyboard is on, and how to use it */
  description = g_strdup_printf (_("%s Selected: %s. Enter zooms into a frame, Escape zooms out, the menu key opens the transforms."),
                                 self->summary, focus != NULL ? focus : _("none"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

static void zoom_to (PsFlameGraph *self,
                     guint32       node);

static void
crumb_clicked_cb (GtkButton    *button,
                  PsFlameGraph *self)
{
  guint32 node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "flame-node"));

  if (self->nodes != NULL && node < self->nodes->len)
    zoom_to (self, node);
}

static void
add_crumb (PsFlameGraph *self,
           guint32       node,
           gboolean      current)
{
  g_autofree char *name = ps_flame_graph_node_name (self, node);
  GtkWidget *label = gtk_label_new (name);
  GtkWidget *button = gtk_button_new ();

  if (gtk_widget_get_first_child (self->crumb_buttons) != NULL)
    {
      GtkWidget *separator = gtk_label_new ("›");

      gtk_widget_add_css_class (separator, "dim-label");
      gtk_box_append (GTK_BOX (self->crumb_buttons), separator);
    }

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 32);
  gtk_button_set_child (GTK_BUTTON (button), label);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, current ? _("The frame zoomed into") : _("Zoom out to this frame"));
  if (current)
    gtk_widget_add_css_class (label, "heading");
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_object_set_data (G_OBJECT (button), "flame-node", GUINT_TO_POINTER (node));
  g_signal_connect (button, "clicked", G_CALLBACK (crumb_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->crumb_buttons), button);
}

static void
update_crumbs (PsFlameGraph *self)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkWidget *child;
  guint n_transforms = self->transforms->len;

  while ((child = gtk_widget_get_first_child (self->crumb_buttons)) != NULL)
    gtk_box_remove (GTK_BOX (self->crumb_buttons), child);

  if (self->nodes != NULL)
    {
      for (guint32 node = self->zoom_node; node != NO_NODE; node = node_at (self->nodes, node)->parent)
        g_array_prepend_val (path, node);

      for (guint i = 0; i < path->len; i++)
        {
          /* Deep zooms show the root, "…" and the last frames */
          if (path->len > MAX_CRUMBS && i > 0 && i < path->len - (MAX_CRUMBS - 2))
            {
              if (i == 1)
                {
                  GtkWidget *more = gtk_label_new ("› …");

                  gtk_widget_add_css_class (more, "dim-label");
                  gtk_box_append (GTK_BOX (self->crumb_buttons), more);
                }
              continue;
            }
          add_crumb (self, g_array_index (path, guint32, i), i == path->len - 1);
        }
    }

  if (n_transforms > 0)
    {
      const Transform *last = &g_array_index (self->transforms, Transform, n_transforms - 1);
      g_autofree char *name = ps_util_display_text (ps_call_tree_get_function_name (self->tree, last->function), -1);
      g_autofree char *text = NULL;

      switch (last->kind)
        {
        case PS_FLAME_TRANSFORM_FOCUS:
          /* Translators: the last transform of the flame graph */
          text = g_strdup_printf (_("Focused on %s"), name);
          break;
        case PS_FLAME_TRANSFORM_MERGE:
          text = g_strdup_printf (_("Merged %s"), name);
          break;
        case PS_FLAME_TRANSFORM_COLLAPSE_RECURSION:
        default:
          text = g_strdup_printf (_("Collapsed recursion of %s"), name);
          break;
        }
      if (n_transforms > 1)
        {
          g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (and %u more transform)",
                                                                 "%s (and %u more transforms)", n_transforms - 1),
                                                    text, n_transforms - 1);
          g_free (text);
          text = g_steal_pointer (&count);
        }
      gtk_label_set_text (GTK_LABEL (self->transform_label), text);
    }
  gtk_widget_set_visible (self->transform_label, n_transforms > 0);
  gtk_widget_set_visible (self->undo_button, n_transforms > 0);
  gtk_widget_set_visible (self->reset_button, n_transforms > 0);
}

static void
update_actions (PsFlameGraph *self)
{
  gboolean has_function = self->nodes != NULL && self->focus_node != NO_NODE
                          && node_at (self->nodes, self->focus_node)->function != PS_NONE;
  gboolean has_transforms = self->transforms->len > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-in", self->nodes != NULL && self->focus_node != NO_NODE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-out", self->nodes != NULL && self->zoom_node != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-reset", self->nodes != NULL && self->zoom_node != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.focus-function", has_function);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.merge-function", has_function);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.collapse-recursion", has_function);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.undo-transform", has_transforms);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.reset-transforms", has_transforms);
}

static void
set_focus_node (PsFlameGraph *self,
                guint32       node)
{
  if (self->focus_node == node)
    return;
  self->focus_node = node;
  update_accessible (self);
  update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_to (PsFlameGraph *self,
         guint32       node)
{
  if (self->zoom_node == node)
    return;

  self->zoom_node = node;
  ps_flame_graph_count_rows (self);
  update_crumbs (self);
  update_actions (self);
  ps_flame_graph_invalidate_layout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ps_flame_graph_activate_node (PsFlameGraph *self,
                              guint32       node)
{
  guint32 function = node_at (self->nodes, node)->function;

  set_focus_node (self, node);
  zoom_to (self, node);
  if (function != PS_NONE)
    g_signal_emit (self, signals[FRAME_ACTIVATED], 0, function);
}

/* --- Input ----------------------------------------------------------------- */

static void
popup_menu_at (PsFlameGraph *self,
               double        x,
               double        y)
{
  if (self->menu == NULL)
    {
      g_autoptr(GMenu) menu = g_menu_new ();
      g_autoptr(GMenu) zoom_section = g_menu_new ();
      g_autoptr(GMenu) transform_section = g_menu_new ();
      g_autoptr(GMenu) undo_section = g_menu_new ();
      g_autoptr(GMenu) export_section = g_menu_new ();

      g_menu_append (zoom_section, _("_Zoom In"), "flame.zoom-in");
      g_menu_append (zoom_section, _("Zoom _Out"), "flame.zoom-out");
      g_menu_append (zoom_section, _("Show _All"), "flame.zoom-reset");
      g_menu_append (transform_section, _("_Focus on Function"), "flame.focus-function");
      g_menu_append (transform_section, _("_Merge Function"), "flame.merge-function");
      g_menu_append (transform_section, _("_Collapse Recursion"), "flame.collapse-recursion");
      g_menu_append (undo_section, _("_Undo Transform"), "flame.undo-transform");
      g_menu_append (undo_section, _("_Reset Transforms"), "flame.reset-transforms");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (zoom_section));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (transform_section));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (undo_section));
      g_menu_append (export_section, _("Export _Picture…"), "picture.export");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (export_section));

      self->menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      ps_view_menu_quiets_tooltips (GTK_POPOVER (self->menu));
    }

  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            PsFlameGraph    *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  const FlameFrame *frame = ps_flame_graph_frame_at (self, width, x, y - self->crumbs_height);

  if (y < self->crumbs_height || self->nodes == NULL)
    return;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (frame == NULL)
    {
      /* Below the frames the menu still offers the picture */
      if (button == GDK_BUTTON_SECONDARY)
        popup_menu_at (self, x, y);
      return;
    }

  if (button == GDK_BUTTON_SECONDARY)
    {
      set_focus_node (self, frame->node);
      popup_menu_at (self, x, y);
    }
  else if (button == GDK_BUTTON_PRIMARY)
    ps_flame_graph_activate_node (self, frame->node);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

typedef enum
{
  MOVE_UP,
  MOVE_DOWN,
  MOVE_LEFT,
  MOVE_RIGHT,
} Move;

/* The arrow keys: up to the caller, down to the first callee drawn,
 * left and right to the siblings drawn */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  const FlameNode *node;
  guint32 target = NO_NODE;
  gboolean inside_zoom;

  if (self->nodes == NULL)
    return;
  if (self->focus_node == NO_NODE)
    {
      set_focus_node (self, self->zoom_node);
      return;
    }

  node = node_at (self->nodes, self->focus_node);
  /* Siblings only inside the zoomed frame: outside it they are not drawn */
  inside_zoom = self->focus_node != self->zoom_node && ps_flame_graph_is_below (self->nodes, self->focus_node, self->zoom_node);
  switch ((Move) g_variant_get_int32 (parameter))
    {
    case MOVE_UP:
      target = node->parent;
      break;
    case MOVE_DOWN:
      /* The first child wide enough to be drawn */
      for (guint32 child = node->first_child; child != NO_NODE; child = node_at (self->nodes, child)->next_sibling)
        if (ps_flame_graph_frame_of_node (self, gtk_widget_get_width (widget), child) != NULL)
          {
            target = child;
            break;
          }
      break;
    case MOVE_LEFT:
      for (guint32 sibling = inside_zoom ? node->prev_sibling : NO_NODE; sibling != NO_NODE;
           sibling = node_at (self->nodes, sibling)->prev_sibling)
        if (ps_flame_graph_frame_of_node (self, gtk_widget_get_width (widget), sibling) != NULL)
          {
            target = sibling;
            break;
          }
      break;
    case MOVE_RIGHT:
    default:
      for (guint32 sibling = inside_zoom ? node->next_sibling : NO_NODE; sibling != NO_NODE;
           sibling = node_at (self->nodes, sibling)->next_sibling)
        if (ps_flame_graph_frame_of_node (self, gtk_widget_get_width (widget), sibling) != NULL)
          {
            target = sibling;
            break;
          }
      break;
    }

  if (target != NO_NODE)
    set_focus_node (self, target);
  else
    gtk_widget_error_bell (widget);
}

static gboolean
ps_flame_graph_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  const FlameFrame *frame;
  g_autofree char *markup = NULL;

  /* Not over the frames' menu */
  if (self->nodes == NULL || (self->menu != NULL && gtk_widget_get_visible (self->menu)))
    return FALSE;

  if (keyboard_mode)
    frame = self->focus_node != NO_NODE ? ps_flame_graph_frame_of_node (self, width, self->focus_node) : NULL;
  else
    frame = ps_flame_graph_frame_at (self, width, x, y - self->crumbs_height);
  if (frame == NULL)
    return FALSE;

  markup = ps_flame_graph_node_tooltip_markup (self, frame->node);
  gtk_tooltip_set_markup (tooltip, markup);
  /* No tip area: on GTK 4.8 a tip area in a scrolled viewport kept the
   * tooltip from showing at all; motion queries again anyway */
  return TRUE;
}

/* --- Actions --------------------------------------------------------------- */

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);

  if (self->nodes != NULL && self->focus_node != NO_NODE)
    ps_flame_graph_activate_node (self, self->focus_node);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  ps_flame_graph_zoom_out (PS_FLAME_GRAPH (widget));
}

static void
zoom_reset_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  ps_flame_graph_zoom_reset (PS_FLAME_GRAPH (widget));
}

static void
transform_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  PsFlameTransform kind;
  guint32 function;

  if (self->nodes == NULL || self->focus_node == NO_NODE)
    return;
  function = node_at (self->nodes, self->focus_node)->function;
  if (function == PS_NONE)
    return;

  if (g_str_equal (action_name, "flame.focus-function"))
    kind = PS_FLAME_TRANSFORM_FOCUS;
  else if (g_str_equal (action_name, "flame.merge-function"))
    kind = PS_FLAME_TRANSFORM_MERGE;
  else
    kind = PS_FLAME_TRANSFORM_COLLAPSE_RECURSION;
  ps_flame_graph_add_transform (self, kind, function);
}

static void
undo_transform_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  ps_flame_graph_undo_transform (PS_FLAME_GRAPH (widget));
}

static void
reset_transforms_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  ps_flame_graph_reset_transforms (PS_FLAME_GRAPH (widget));
}

static void
menu_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  const FlameFrame *frame;

  if (self->nodes == NULL)
    return;
  if (self->focus_node == NO_NODE)
    set_focus_node (self, self->zoom_node);
  frame = ps_flame_graph_frame_of_node (self, gtk_widget_get_width (widget), self->focus_node);
  if (frame != NULL)
    popup_menu_at (self, frame->x + MIN (frame->width / 2, 40), frames_top (self) + frame->depth * FRAME_HEIGHT + self->crumbs_height + FRAME_HEIGHT);
}

/* --- Layout of the widget -------------------------------------------------- */

static void
ps_flame_graph_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int crumbs_minimum, crumbs_natural;

  gtk_widget_measure (self->crumbs, orientation, -1, &crumbs_minimum, &crumbs_natural, NULL, NULL);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = crumbs_minimum;
      *natural = MAX (crumbs_natural, 400);
    }
  else
    {
      *minimum = crumbs_natural + frames_top (self) + 4 * FRAME_HEIGHT;
      *natural = crumbs_natural + frames_top (self) + MAX (self->n_rows, 4) * FRAME_HEIGHT;
    }
}

static void
ps_flame_graph_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);
  int crumbs_height;

  gtk_widget_measure (self->crumbs, GTK_ORIENTATION_VERTICAL, width, NULL, &crumbs_height, NULL, NULL);
  gtk_widget_allocate (self->crumbs, width, crumbs_height, -1, NULL);
  if (self->crumbs_height != crumbs_height)
    {
      self->crumbs_height = crumbs_height;
      gtk_widget_queue_draw (widget);
    }
  if (self->layout_width != width)
    self->layout_width = -1;

  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));
}

static void
focus_changed_cb (PsFlameGraph *self)
{
  if (gtk_widget_has_focus (GTK_WIDGET (self)) && self->nodes != NULL && self->focus_node == NO_NODE)
    set_focus_node (self, self->zoom_node);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* --- GObject --------------------------------------------------------------- */

static void start_base_job (PsFlameGraph *self);

/* A big tree set while the graph was not shown is copied now */
static void
ps_flame_graph_map (GtkWidget *widget)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (ps_flame_graph_parent_class)->map (widget);
  if (self->base_deferred)
    start_base_job (self);
}

static void
ps_flame_graph_dispose (GObject *object)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  g_clear_pointer (&self->crumbs, gtk_widget_unparent);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_cancellable_cancel (self->base_cancellable);
  g_clear_object (&self->base_cancellable);
  g_clear_object (&self->tree);
  g_clear_object (&self->diff);

  G_OBJECT_CLASS (ps_flame_graph_parent_class)->dispose (object);
}

static void
ps_flame_graph_finalize (GObject *object)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  g_clear_pointer (&self->base, g_array_unref);
  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->transforms, g_array_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->matches, g_free);

  G_OBJECT_CLASS (ps_flame_graph_parent_class)->finalize (object);
}

static void
ps_flame_graph_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_TREE:
      g_value_set_object (value, self->tree);
      break;
    case PROP_VALUE:
      g_value_set_uint (value, self->value);
      break;
    case PROP_COLOR_BY:
      g_value_set_enum (value, self->color_by);
      break;
    case PROP_BASELINE:
      g_value_set_object (value, self->diff);
      break;
    case PROP_DIFF_BY:
      g_value_set_enum (value, self->diff_by);
      break;
    case PROP_DIFF_THRESHOLD:
      g_value_set_double (value, self->diff_threshold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_flame_graph_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_TREE:
      ps_flame_graph_set_tree (self, g_value_get_object (value));
      break;
    case PROP_VALUE:
      ps_flame_graph_set_value (self, g_value_get_uint (value));
      break;
    case PROP_COLOR_BY:
      ps_flame_graph_set_color_by (self, g_value_get_enum (value));
      break;
    case PROP_BASELINE:
      ps_flame_graph_set_baseline (self, g_value_get_object (value));
      break;
    case PROP_DIFF_BY:
      ps_flame_graph_set_diff_by (self, g_value_get_enum (value));
      break;
    case PROP_DIFF_THRESHOLD:
      ps_flame_graph_set_diff_threshold (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_flame_graph_class_init (PsFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_flame_graph_dispose;
  object_class->finalize = ps_flame_graph_finalize;
  object_class->get_property = ps_flame_graph_get_property;
  object_class->set_property = ps_flame_graph_set_property;

  widget_class->map = ps_flame_graph_map;
  widget_class->snapshot = ps_flame_graph_snapshot;
  ps_view_class_set_measure (widget_class, ps_flame_graph_measure);
  widget_class->size_allocate = ps_flame_graph_size_allocate;
  widget_class->query_tooltip = ps_flame_graph_query_tooltip;

  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL,
                         PS_TYPE_CALL_TREE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* A PsCallValue */
  properties[PROP_VALUE] =
    g_param_spec_uint ("value", NULL, NULL,
                       0, PS_N_CALL_VALUES - 1, PS_CALL_VALUE_ELAPSED_INCLUSIVE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_BY] =
    g_param_spec_enum ("color-by", NULL, NULL,
                       PS_TYPE_FLAME_GRAPH_COLOR_BY, PS_FLAME_GRAPH_COLOR_BY_MODULE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASELINE] =
    g_param_spec_object ("baseline", NULL, NULL,
                         PS_TYPE_CALL_TREE_DIFF,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DIFF_BY] =
    g_param_spec_enum ("diff-by", NULL, NULL,
                       PS_TYPE_FLAME_GRAPH_DIFF_BY, PS_FLAME_GRAPH_DIFF_BY_SELF,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* In percentage points */
  properties[PROP_DIFF_THRESHOLD] =
    g_param_spec_double ("diff-threshold", NULL, NULL,
                         0, 100, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The function of a frame clicked or entered (not for the root) */
  signals[FRAME_ACTIVATED] =
    g_signal_new ("frame-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "flame.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "flame.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "flame.zoom-reset", NULL, zoom_reset_action);
  gtk_widget_class_install_action (widget_class, "flame.focus-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "flame.merge-function", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "flame.collapse-recursion", NULL, transform_action);
  gtk_widget_class_install_action (widget_class, "flame.undo-transform", NULL, undo_transform_action);
  gtk_widget_class_install_action (widget_class, "flame.reset-transforms", NULL, reset_transforms_action);
  gtk_widget_class_install_action (widget_class, "flame.menu", NULL, menu_action);
  gtk_widget_class_install_action (widget_class, "flame.move", "i", move_action);
  ps_picture_export_install_action (widget_class);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "flame.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "flame.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "flame.undo-transform", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "flame.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "flame.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "flame.move", "i", MOVE_UP);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "flame.move", "i", MOVE_DOWN);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "flame.move", "i", MOVE_LEFT);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "flame.move", "i", MOVE_RIGHT);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  /* A group: the breadcrumbs and the drop-downs are inside it */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
value_selected_cb (PsFlameGraph *self,
                   GParamSpec   *pspec,
                   GtkDropDown  *dropdown)
{
  ps_flame_graph_set_value (self, gtk_drop_down_get_selected (dropdown));
}

static void
color_selected_cb (PsFlameGraph *self,
                   GParamSpec   *pspec,
                   GtkDropDown  *dropdown)
{
  ps_flame_graph_set_color_by (self, gtk_drop_down_get_selected (dropdown));
}

static void
diff_by_selected_cb (PsFlameGraph *self,
                     GParamSpec   *pspec,
                     GtkDropDown  *dropdown)
{
  ps_flame_graph_set_diff_by (self, gtk_drop_down_get_selected (dropdown));
}

static void
ps_flame_graph_init (PsFlameGraph *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();
  const char *value_names[PS_N_CALL_VALUES + 1] = { NULL };
  const char *color_names[] = { _("Colour by module"), _("Colour by exclusive time"), NULL };
  const char *diff_names[] = { _("Change in exclusive time"), _("Change in inclusive time"), NULL };
  GtkWidget *spacer;

  for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
    value_names[v] = ps_flame_graph_value_title (v);
  self->value = PS_CALL_VALUE_ELAPSED_INCLUSIVE;
  self->color_by = PS_FLAME_GRAPH_COLOR_BY_MODULE;
  self->sync_base_nodes = SYNC_BASE_NODES;
  self->diff_by = PS_FLAME_GRAPH_DIFF_BY_SELF;
  self->diff_threshold = 1.0;
  self->transforms = g_array_new (FALSE, FALSE, sizeof (Transform));
  self->frames = g_array_new (FALSE, FALSE, sizeof (FlameFrame));
  self->layout_width = -1;
  self->zoom_node = 0;
  self->focus_node = NO_NODE;
  self->marked_function = PS_NONE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  ps_view_tooltip_follows_pointer (GTK_WIDGET (self));
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (focus_changed_cb), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (focus_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);

  /* The breadcrumb bar: the frames above the one zoomed into, and the
   * transforms */
  self->crumbs = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (self->crumbs, "flame-breadcrumbs");
  gtk_widget_set_margin_start (self->crumbs, 6);
  gtk_widget_set_margin_end (self->crumbs, 6);
  gtk_widget_set_margin_top (self->crumbs, 3);
  gtk_widget_set_margin_bottom (self->crumbs, 3);
  self->crumb_buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_box_append (GTK_BOX (self->crumbs), self->crumb_buttons);
  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (self->crumbs), spacer);
  self->transform_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->transform_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->transform_label, "dim-label");
  gtk_box_append (GTK_BOX (self->crumbs), self->transform_label);
  self->undo_button = gtk_button_new_with_label (_("Undo Transform"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->undo_button), "flame.undo-transform");
  gtk_widget_set_tooltip_text (self->undo_button, _("Undo the last transform (Ctrl+Z)"));
  gtk_box_append (GTK_BOX (self->crumbs), self->undo_button);
  self->reset_button = gtk_button_new_with_label (_("Reset Transforms"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->reset_button), "flame.reset-transforms");
  gtk_widget_set_tooltip_text (self->reset_button, _("Show the call tree as recorded"));
  gtk_box_append (GTK_BOX (self->crumbs), self->reset_button);
  self->value_dropdown = gtk_drop_down_new_from_strings (value_names);
  gtk_widget_set_tooltip_text (self->value_dropdown, _("What the width of a frame shows; an exclusive value also counts the callees’ exclusive values, so that they fit inside"));
  ps_accessible_name_drop_down (GTK_DROP_DOWN (self->value_dropdown), _("Frame width"));
  g_signal_connect_swapped (self->value_dropdown, "notify::selected", G_CALLBACK (value_selected_cb), self);
  gtk_box_append (GTK_BOX (self->crumbs), self->value_dropdown);
  self->color_dropdown = gtk_drop_down_new_from_strings (color_names);
  gtk_widget_set_tooltip_text (self->color_dropdown, _("A warm colour per module, or from pale (calls others) to red (all its time exclusive)"));
  ps_accessible_name_drop_down (GTK_DROP_DOWN (self->color_dropdown), _("Frame colour"));
  g_signal_connect_swapped (self->color_dropdown, "notify::selected", G_CALLBACK (color_selected_cb), self);
  gtk_box_append (GTK_BOX (self->crumbs), self->color_dropdown);
  self->diff_dropdown = gtk_drop_down_new_from_strings (diff_names);
  gtk_widget_set_tooltip_text (self->diff_dropdown, _("Colour each frame by the change of its own or of its total share of the run, from the baseline (A) to this run (B): red for more, blue for less"));
  ps_accessible_name_drop_down (GTK_DROP_DOWN (self->diff_dropdown), _("Compare by"));
  g_signal_connect_swapped (self->diff_dropdown, "notify::selected", G_CALLBACK (diff_by_selected_cb), self);
  gtk_box_append (GTK_BOX (self->crumbs), self->diff_dropdown);
  gtk_widget_set_visible (self->diff_dropdown, FALSE);
  gtk_widget_set_parent (self->crumbs, GTK_WIDGET (self));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flame graph of the calls"),
                                  -1);
  update_crumbs (self);
  update_actions (self);
}

/* --- Public API ------------------------------------------------------------ */

GtkWidget *
ps_flame_graph_new (void)
{
  return g_object_new (PS_TYPE_FLAME_GRAPH, NULL);
}

PsCallTree *
ps_flame_graph_get_tree (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), NULL);
  return self->tree;
}

static void
update_matches (PsFlameGraph *self)
{
  g_clear_pointer (&self->matches, g_free);
  if (self->tree == NULL || self->search_text == NULL)
    return;

  self->matches = g_new0 (guint8, ps_call_tree_get_n_functions (self->tree));
  for (guint32 f = 0; f < ps_call_tree_get_n_functions (self->tree); f++)
    {
      g_autofree char *name = g_utf8_casefold (ps_call_tree_get_function_name (self->tree, f), -1);

      self->matches[f] = strstr (name, self->search_text) != NULL;
    }
}

static void tree_changed (PsFlameGraph *self);

typedef struct
{
  PsCallTree     *tree;
  PsCallTreeDiff *diff;
} BaseJob;

static void
base_job_free (gpointer data)
{
  BaseJob *job = data;

  g_object_unref (job->tree);
  g_clear_object (&job->diff);
  g_free (job);
}

/* The tree and the diff are not changed once made, and their lazily made
 * parts are made thread-safely, so a worker may read them */
static void
build_base_thread (GTask        *task,
                   gpointer      source,
                   gpointer      data,
                   GCancellable *cancellable)
{
  BaseJob *job = data;

  g_task_return_pointer (task, ps_flame_graph_build_base (job->tree, job->diff), (GDestroyNotify)g_array_unref);
}

static void
base_built_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  PsFlameGraph *self = PS_FLAME_GRAPH (source);
  GArray *base = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Cancelled: the tree changed meanwhile, or the widget went away */
  if (g_task_get_cancellable (G_TASK (result)) != self->base_cancellable)
    {
      g_clear_pointer (&base, g_array_unref);
      return;
    }
  g_clear_object (&self->base_cancellable);
  self->base = base;
  tree_changed (self);
}

static void
start_base_job (PsFlameGraph *self)
{
  BaseJob *job = g_new0 (BaseJob, 1);
  g_autoptr(GTask) task = NULL;

  self->base_deferred = FALSE;
  job->tree = g_object_ref (self->tree);
  job->diff = self->diff != NULL ? g_object_ref (self->diff) : NULL;
  self->base_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->base_cancellable, base_built_cb, NULL);
  g_task_set_source_tag (task, start_base_job);
  g_task_set_task_data (task, job, base_job_free);
  ps_task_run_in_background (task, build_base_thread);
}

/* The tree or the baseline changed: copy the tree again, keeping the
 * transforms; a big tree in a worker, drawn when its copy is done. A
 * big tree's copy takes as much memory as the tree itself (a million
 * calls of a 256 MiB RTL log: about 150 MiB), so a graph not shown, as
 * behind the call tree's other modes, copies it only when it is first
 * shown. */
static void
rebuild_base (PsFlameGraph *self)
{
  g_cancellable_cancel (self->base_cancellable);
  g_clear_object (&self->base_cancellable);
  g_clear_pointer (&self->base, g_array_unref);
  self->base_deferred = FALSE;
  if (self->tree != NULL && ps_call_tree_has_top_down (self->tree))
    {
      if (ps_call_tree_get_n_nodes (self->tree) <= self->sync_base_nodes)
        self->base = ps_flame_graph_build_base (self->tree, self->diff);
      else if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
        self->base_deferred = TRUE;
      else
        start_base_job (self);
    }
  tree_changed (self);
}

gboolean
_ps_flame_graph_is_laying_out (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), FALSE);
  return self->base_cancellable != NULL || self->base_deferred;
}

void
_ps_flame_graph_set_sync_limit (PsFlameGraph *self,
                                guint32       n_nodes)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  self->sync_base_nodes = n_nodes;
}

/* A differential graph offers self or total instead of the normal colours */
static void
update_diff_controls (PsFlameGraph *self)
{
  gtk_widget_set_visible (self->color_dropdown, self->diff == NULL);
  gtk_widget_set_visible (self->diff_dropdown, self->diff != NULL);
}

/* The transforms changed: derive the tree again from the base */
static void
tree_changed (PsFlameGraph *self)
{
  self->diff_scale = 0;
  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->summary, g_free);
  if (self->base != NULL)
    {
      self->nodes = g_array_ref (self->base);
      for (guint i = 0; i < self->transforms->len; i++)
        {
          GArray *derived = ps_flame_graph_apply_transform (self->nodes, &g_array_index (self->transforms, Transform, i));

          g_array_unref (self->nodes);
          self->nodes = derived;
        }
    }

  self->zoom_node = 0;
  self->focus_node = NO_NODE;
  if (self->nodes != NULL && gtk_widget_has_focus (GTK_WIDGET (self)))
    self->focus_node = 0;
  ps_flame_graph_count_rows (self);
  update_crumbs (self);
  update_actions (self);
  update_accessible (self);
  ps_flame_graph_invalidate_layout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ps_flame_graph_set_tree (PsFlameGraph *self,
                         PsCallTree   *tree)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (tree == NULL || PS_IS_CALL_TREE (tree));

  if (!g_set_object (&self->tree, tree))
    return;

  if (self->diff != NULL && ps_call_tree_diff_get_b (self->diff) != tree)
    {
      g_clear_object (&self->diff);
      update_diff_controls (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
    }
  g_array_set_size (self->transforms, 0);
  update_matches (self);
  rebuild_base (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

void
ps_flame_graph_set_baseline (PsFlameGraph   *self,
                             PsCallTreeDiff *diff)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (diff == NULL || PS_IS_CALL_TREE_DIFF (diff));

  if (!g_set_object (&self->diff, diff))
    return;

  if (diff != NULL && ps_call_tree_diff_get_b (diff) != self->tree)
    {
      g_set_object (&self->tree, ps_call_tree_diff_get_b (diff));
      g_array_set_size (self->transforms, 0);
      update_matches (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
    }
  update_diff_controls (self);
  rebuild_base (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
}

PsCallTreeDiff *
ps_flame_graph_get_baseline (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), NULL);
  return self->diff;
}

void
ps_flame_graph_set_baseline_tree (PsFlameGraph *self,
                                  PsCallTree   *baseline)
{
  g_autoptr(PsCallTreeDiff) diff = NULL;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (baseline == NULL || PS_IS_CALL_TREE (baseline));
  g_return_if_fail (baseline == NULL || self->tree != NULL);

  if (baseline != NULL)
    diff = ps_call_tree_diff_new (baseline, self->tree);
  ps_flame_graph_set_baseline (self, diff);
}

PsFlameGraphDiffBy
ps_flame_graph_get_diff_by (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_FLAME_GRAPH_DIFF_BY_SELF);
  return self->diff_by;
}

void
ps_flame_graph_set_diff_by (PsFlameGraph       *self,
                            PsFlameGraphDiffBy  diff_by)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (diff_by <= PS_FLAME_GRAPH_DIFF_BY_TOTAL);

  if (self->diff_by == diff_by)
    return;
  self->diff_by = diff_by;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->diff_dropdown)) != diff_by)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->diff_dropdown), diff_by);
  ps_flame_graph_invalidate_diff_scale (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_BY]);
}

double
ps_flame_graph_get_diff_threshold (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), 1.0);
  return self->diff_threshold;
}

void
ps_flame_graph_set_diff_threshold (PsFlameGraph *self,
                                   double        threshold)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (threshold >= 0 && threshold <= 100);

  if (self->diff_threshold == threshold)
    return;
  self->diff_threshold = threshold;
  ps_flame_graph_invalidate_diff_scale (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_THRESHOLD]);
}

PsCallValue
ps_flame_graph_get_value (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_CALL_VALUE_ELAPSED_INCLUSIVE);
  return self->value;
}

void
ps_flame_graph_set_value (PsFlameGraph *self,
                          PsCallValue   value)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (value < PS_N_CALL_VALUES);

  if (self->value == value)
    return;
  self->value = value;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->value_dropdown)) != value)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->value_dropdown), value);
  /* The clock of the comparison may have changed */
  self->diff_scale = 0;
  g_clear_pointer (&self->summary, g_free);
  update_accessible (self);
  ps_flame_graph_invalidate_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE]);
}

PsFlameGraphColorBy
ps_flame_graph_get_color_by (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_FLAME_GRAPH_COLOR_BY_MODULE);
  return self->color_by;
}

void
ps_flame_graph_set_color_by (PsFlameGraph        *self,
                             PsFlameGraphColorBy  color_by)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (color_by <= PS_FLAME_GRAPH_COLOR_BY_SELF_SHARE);

  if (self->color_by == color_by)
    return;
  self->color_by = color_by;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->color_dropdown)) != color_by)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->color_dropdown), color_by);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_BY]);
}

/* The basis of the percentages in the tooltips (the call-tree view's) */
void
ps_flame_graph_set_basis (PsFlameGraph *self,
                          PsCallBasis   basis)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  self->basis = basis;
}

void
ps_flame_graph_set_search (PsFlameGraph *self,
                           const char   *text)
{
  g_autofree char *stripped = NULL;

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_clear_pointer (&self->search_text, g_free);
  if (*stripped != '\0')
    self->search_text = g_utf8_casefold (stripped, -1);
  update_matches (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ps_flame_graph_add_transform (PsFlameGraph     *self,
                              PsFlameTransform  transform,
                              guint32           function)
{
  Transform added = { transform, function };

  g_return_if_fail (PS_IS_FLAME_GRAPH (self));
  g_return_if_fail (transform <= PS_FLAME_TRANSFORM_COLLAPSE_RECURSION);
  g_return_if_fail (self->tree != NULL && function < ps_call_tree_get_n_functions (self->tree));

  g_array_append_val (self->transforms, added);
  tree_changed (self);
}

guint
ps_flame_graph_get_n_transforms (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), 0);
  return self->transforms->len;
}

void
ps_flame_graph_undo_transform (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->transforms->len == 0)
    return;
  g_array_set_size (self->transforms, self->transforms->len - 1);
  tree_changed (self);
}

void
ps_flame_graph_reset_transforms (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->transforms->len == 0)
    return;
  g_array_set_size (self->transforms, 0);
  tree_changed (self);
}

void
ps_flame_graph_zoom_out (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->nodes == NULL || self->zoom_node == 0)
    return;
  set_focus_node (self, self->zoom_node);
  zoom_to (self, node_at (self->nodes, self->zoom_node)->parent);
}

void
ps_flame_graph_zoom_reset (PsFlameGraph *self)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->nodes == NULL)
    return;
  zoom_to (self, 0);
}

void
ps_flame_graph_set_marked_function (PsFlameGraph *self,
                                    guint32       function)
{
  g_return_if_fail (PS_IS_FLAME_GRAPH (self));

  if (self->marked_function == function)
    return;
  self->marked_function = function;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint32
ps_flame_graph_get_marked_function (PsFlameGraph *self)
{
  g_return_val_if_fail (PS_IS_FLAME_GRAPH (self), PS_NONE);

  return self->marked_function;
}

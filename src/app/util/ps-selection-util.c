/* ps-selection-util.c — what the views of a run share to follow one selection
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-selection-util.h"

#define PENDING_SCROLL "ps-pending-scroll"

static void
scroll_to_row (GtkColumnView *view,
               guint          position)
{
#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_column_view_scroll_to (view, position, NULL, GTK_LIST_SCROLL_FOCUS, NULL);
#else
  /* The action lives on the column view's inner list */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
        break;
      }
#endif
}

/* Shown: the scroll asked for while hidden, at the first frame at which
 * the table has been laid out with a height (scrolled before, the rows
 * around the one scrolled to were not made) */
static gboolean
scroll_when_shown_cb (GtkWidget     *widget,
                      GdkFrameClock *clock,
                      gpointer       user_data)
{
  guint pending;

  if (gtk_widget_get_height (widget) == 0)
    return G_SOURCE_CONTINUE;
  pending = GPOINTER_TO_UINT (g_object_steal_data (G_OBJECT (widget), PENDING_SCROLL));
  if (pending != 0)
    scroll_to_row (GTK_COLUMN_VIEW (widget), pending - 1);
  return G_SOURCE_REMOVE;
}

static void
map_cb (GtkWidget *widget,
        gpointer   user_data)
{
  g_signal_handlers_disconnect_by_func (widget, map_cb, user_data);
  gtk_widget_add_tick_callback (widget, scroll_when_shown_cb, NULL, NULL);
}

void
ps_selection_scroll_to_row (GtkColumnView *view,
                            guint          position)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  /* A table on a hidden page scrolled now would show the row alone, the
   * rows around it drawn only at the next scroll (GTK 4.8): the last
   * scroll asked for waits until the table is shown */
  if (!gtk_widget_get_mapped (GTK_WIDGET (view)))
    {
      g_signal_handlers_disconnect_by_func (view, map_cb, NULL);
      g_signal_connect (view, "map", G_CALLBACK (map_cb), NULL);
      g_object_set_data (G_OBJECT (view), PENDING_SCROLL, GUINT_TO_POINTER (position + 1));
      return;
    }
  g_object_set_data (G_OBJECT (view), PENDING_SCROLL, NULL);
  scroll_to_row (view, position);
}

/* GtkStack gives the keyboard focus to the first widget of the page it
 * shows when the focus was in the page it hides: a selectable summary
 * above a table got it, and with it all its text selected */
static void
visible_child_cb (GtkStack   *stack,
                  GParamSpec *pspec,
                  gpointer    user_data)
{
  GtkWidget *page = gtk_stack_get_visible_child (stack);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (stack));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (page == NULL || !GTK_IS_LABEL (focus) || !gtk_label_get_selectable (GTK_LABEL (focus))
      || !gtk_widget_is_ancestor (focus, page))
    return;
  gtk_label_select_region (GTK_LABEL (focus), 0, 0);
  gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

void
ps_selection_stack_focus_past_labels (GtkStack *stack)
{
  g_return_if_fail (GTK_IS_STACK (stack));

  g_signal_connect (stack, "notify::visible-child", G_CALLBACK (visible_child_cb), NULL);
}

guint
ps_selection_find_item (GListModel *list,
                        gpointer    item)
{
  guint n_items;

  g_return_val_if_fail (G_IS_LIST_MODEL (list), GTK_INVALID_LIST_POSITION);

  n_items = g_list_model_get_n_items (list);
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) candidate = g_list_model_get_item (list, i);

      if (candidate == item)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

gpointer
ps_selection_get_selected_row_item (GtkColumnView *view)
{
  GtkSelectionModel *selection;
  GtkTreeListRow *row;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);

  selection = gtk_column_view_get_model (view);
  row = GTK_IS_SINGLE_SELECTION (selection) ? gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection))
                                            : NULL;
  return GTK_IS_TREE_LIST_ROW (row) ? gtk_tree_list_row_get_item (row) : NULL;
}

void
ps_selection_accent_color (gboolean  dark,
                           GdkRGBA  *color)
{
  *color = dark ? (GdkRGBA){ 0.471, 0.682, 0.929, 1 } : (GdkRGBA){ 0.208, 0.518, 0.894, 1 };
}

void
ps_selection_points_color (gboolean  dark,
                           GdkRGBA  *color)
{
  *color = dark ? (GdkRGBA){ 1.000, 0.639, 0.282, 1 } : (GdkRGBA){ 0.902, 0.380, 0.000, 1 };
}

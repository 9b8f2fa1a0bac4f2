/* ps-selection-util.h — what the views of a run share to follow one selection
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The views of a run answer what the user chose in another through
 * PsSession (docs/selection.md); these helpers bring a table's row into
 * sight when it is chosen that way.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Scrolls the column view to the row at position (of its model as shown)
 * and gives the row the keyboard focus, without changing the selection */
void     ps_selection_scroll_to_row  (GtkColumnView *view,
                                      guint          position);
/* A page @stack shows while the keyboard focus was in the one it hides
 * gives the focus to its first widget past its selectable labels (the
 * table under a summary), rather than to a label, all its text selected */
void     ps_selection_stack_focus_past_labels (GtkStack *stack);
/* The position of item in the list (a linear search by identity), or
 * GTK_INVALID_LIST_POSITION */
guint    ps_selection_find_item      (GListModel    *list,
                                      gpointer       item);

/* The item of the selected GtkTreeListRow of a column view whose model is
 * a GtkSingleSelection (transfer full), or NULL */
gpointer ps_selection_get_selected_row_item (GtkColumnView *view);

/* What is chosen is drawn in the accent blue of the light and dark
 * styles; highlighted points of charts in orange, apart from the blue of
 * the charts themselves */
void     ps_selection_accent_color   (gboolean       dark,
                                      GdkRGBA       *color);
void     ps_selection_points_color   (gboolean       dark,
                                      GdkRGBA       *color);

G_END_DECLS

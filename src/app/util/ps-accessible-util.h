/* ps-accessible-util.h — names for screen readers where GTK gives none
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4.8 names an element without a label after its type
 * ("GtkColumnViewCell", "GtkToggleButton"), which is what Orca reads.
 * These helpers give the parts GTK makes on the application's behalf
 * (table cells, rows and column headers, a drop-down's button) the names
 * of what they show.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Every cell of @view, now and as its columns change, is named by its
 * text and described by its column's title; a row by its first cell; a
 * column header by its title. Empty labels in cells are not presented. */
void ps_accessible_name_table     (GtkColumnView *view);
/* The row widget showing @list_item in a GtkListView: named @name */
void ps_accessible_name_list_row  (GtkListItem   *list_item,
                                   const char    *name);
/* @drop_down and the button inside it, which GTK leaves unnamed; the
 * chosen item's parts read as its text, the arrow is left out */
void ps_accessible_name_drop_down (GtkDropDown   *drop_down,
                                   const char    *name);
/* The page of @stack named @page_name, which GTK names after its type
 * when it has no title */
void ps_accessible_name_stack_page (GtkStack     *stack,
                                    const char   *page_name,
                                    const char   *label);
/* @paned, and its handle left out (F8 on the paned moves it) */
void ps_accessible_name_paned     (GtkPaned      *paned,
                                   const char    *label);
/* Every scrolled window below @root: named by what it scrolls, its
 * scroll bars by their direction */
void ps_accessible_name_scrolling (GtkWidget     *root);
/* Below @root: the tabs of a view, spinners, dividers not named yet,
 * drop-downs (their buttons named by a mnemonic label), menu buttons
 * with a text, the untitled pages of stacks ("table", "empty", "charts",
 * "flame"); labels without text and GTK's drawn indicators (arrows,
 * check marks) are not presented */
void ps_accessible_name_parts     (GtkWidget     *root);
/* @label is not presented while it has no text */
void ps_accessible_hide_empty     (GtkLabel      *label);
/* Names a control by the text its label shows, not the label as written
 * with its access key ("Per t_hread"), as GTK 4.8 does */
void ps_accessible_name_as_shown  (GtkWidget     *widget);

G_END_DECLS

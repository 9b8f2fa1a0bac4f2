/* ps-picture-export.h — a view as an SVG or PNG picture
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The charts that implement PsPictureSource (ps-chart-util.h: the
 * timeline, the histogram, the flame graph, plain or differential, and the
 * counter chart) draw what they show (range, zoom, selection, axes,
 * legend, units) into a cairo context at any size; this module puts that
 * on the view's background into an SVG or PNG file, and offers it on each
 * view: a context menu (secondary click, Shift+F10, the Menu key) with
 * "Export Picture…", which asks for the format, the size and the file.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  PS_PICTURE_FORMAT_PNG,
  PS_PICTURE_FORMAT_SVG,
} PsPictureFormat;

/* TRUE for the widgets that can draw a picture of themselves: those
 * that implement PsPictureSource */
gboolean   ps_picture_export_supports          (GtkWidget                    *widget);
/* Draws the widget's picture with its background into a width × height
 * area at cr's origin */
void       ps_picture_export_draw              (GtkWidget                    *widget,
                                                cairo_t                      *cr,
                                                int                           width,
                                                int                           height);
/* Writes the picture; a file that was there is kept when it fails */
gboolean   ps_picture_export_to_file           (GtkWidget                    *widget,
                                                GFile                        *file,
                                                PsPictureFormat               format,
                                                int                           width,
                                                int                           height,
                                                GError                      **error);
/* The dialog asking for the format and the size (the view's own, presets,
 * or typed in), then for the file */
GtkWidget *ps_picture_export_dialog_new        (GtkWidget                    *widget);

/* For the views' classes: installs "picture.export" (the dialog) */
void       ps_picture_export_install_action    (GtkWidgetClass               *widget_class);
/* And, for views without a context menu of their own, "picture.menu"
 * ("(dd)": where it points, negative for the middle of the view), bound to
 * Shift+F10 and the Menu key and to a secondary click by
 * ps_picture_export_add_context_click (), which also closes the widget's
 * tooltip when the pointer leaves it */
void       ps_picture_export_install_menu      (GtkWidgetClass               *widget_class,
                                                GtkWidgetActionActivateFunc   activate);
void       ps_picture_export_add_context_click (GtkWidget                    *widget);
/* What a "picture.menu" activation does: pops up *menu (made on first
 * use, a child of widget: its size_allocate presents it, its dispose
 * unparents it) */
void       ps_picture_export_popup_menu        (GtkWidget                    *widget,
                                                GtkWidget                   **menu,
                                                GVariant                     *parameter);

G_END_DECLS

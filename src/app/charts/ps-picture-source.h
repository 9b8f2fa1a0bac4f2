/* ps-picture-source.h — a chart that can draw a picture of itself
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Picture export (ps-picture-export.h) takes any widget that implements
 * this interface, so that it knows no chart, and the charts, which offer
 * the export in their menus, can include it without a circle.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A widget that can draw a picture of itself (range, zoom, selection,
 * axes, legend, units) into a cairo context at any size; picture export
 * takes any widget that implements it */
#define PS_TYPE_PICTURE_SOURCE (ps_picture_source_get_type ())
G_DECLARE_INTERFACE (PsPictureSource, ps_picture_source, PS, PICTURE_SOURCE, GtkWidget)

struct _PsPictureSourceInterface
{
  GTypeInterface g_iface;

  /* Draws into a width × height area at cr's origin, without background */
  void         (*draw_picture)     (PsPictureSource *self,
                                    cairo_t         *cr,
                                    int              width,
                                    int              height);
  /* A file name for the picture, without its extension */
  const char * (*get_picture_name) (PsPictureSource *self);
};

void         ps_picture_source_draw_picture     (PsPictureSource *self,
                                                 cairo_t         *cr,
                                                 int              width,
                                                 int              height);
const char  *ps_picture_source_get_picture_name (PsPictureSource *self);

G_END_DECLS

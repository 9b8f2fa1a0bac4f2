/* ps-picture-source.c — a chart that can draw a picture of itself
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-picture-source.h"

G_DEFINE_INTERFACE (PsPictureSource, ps_picture_source, GTK_TYPE_WIDGET)

static void
ps_picture_source_default_init (PsPictureSourceInterface *iface)
{
}

void
ps_picture_source_draw_picture (PsPictureSource *self,
                                cairo_t         *cr,
                                int              width,
                                int              height)
{
  g_return_if_fail (PS_IS_PICTURE_SOURCE (self));
  g_return_if_fail (cr != NULL);

  PS_PICTURE_SOURCE_GET_IFACE (self)->draw_picture (self, cr, width, height);
}

const char *
ps_picture_source_get_picture_name (PsPictureSource *self)
{
  g_return_val_if_fail (PS_IS_PICTURE_SOURCE (self), NULL);

  return PS_PICTURE_SOURCE_GET_IFACE (self)->get_picture_name (self);
}

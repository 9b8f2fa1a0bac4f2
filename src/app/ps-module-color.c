/* ps-module-color.c — the colour of a module in the views of call stacks
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "ps-module-color.h"

void
ps_module_color (const char *module,
                 gboolean    dark,
                 GdkRGBA    *color)
{
  guint hash = g_str_hash (module != NULL ? module : "");
  float hue, saturation, brightness, red, green, blue;

  /* Hue, saturation and brightness from different digits of the hash, so
   * that modules whose hues are close still differ */
  hue = (float) (hash % 1000) / 1000.0f * 0.14f;
  saturation = 0.45f + (float) ((hash / 1000) % 100) / 100.0f * 0.2f;
  saturation += dark ? 0.1f : 0.0f;
  brightness = dark ? 0.62f + (float) ((hash / 100000) % 100) / 100.0f * 0.1f
                    : 0.92f + (float) ((hash / 100000) % 100) / 100.0f * 0.08f;

  gtk_hsv_to_rgb (hue, saturation, brightness, &red, &green, &blue);
  *color = (GdkRGBA) { red, green, blue, 1.0 };
}

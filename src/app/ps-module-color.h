/* ps-module-color.h — the colour of a module in the views of call stacks
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The flame graph colours a frame by its function's module, and the
 * timeline's sample lanes colour a sample by the module of the function it
 * was taken in: the same module has the same colour in both.
 */
#pragma once

#include <gdk/gdk.h>

G_BEGIN_DECLS

/* A warm colour (reds, oranges, yellows) from a stable hash of the
 * module's path ("" for none); darker under the dark style */
void ps_module_color (const char *module,
                      gboolean    dark,
                      GdkRGBA    *color);

G_END_DECLS

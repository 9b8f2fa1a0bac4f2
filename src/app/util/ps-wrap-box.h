/* ps-wrap-box.h — a row of widgets that wraps onto more lines when narrow
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PS_TYPE_WRAP_BOX (ps_wrap_box_get_type ())

G_DECLARE_FINAL_TYPE (PsWrapBox, ps_wrap_box, PS, WRAP_BOX, GtkWidget)

GtkWidget *ps_wrap_box_new          (int        spacing);
void       ps_wrap_box_append       (PsWrapBox *self,
                                     GtkWidget *child);
/* How many lines the children took at the last allocation */
guint      ps_wrap_box_get_n_lines  (PsWrapBox *self);

G_END_DECLS

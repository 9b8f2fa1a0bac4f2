/* ps-application.h — the Perfscope GtkApplication
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PS_TYPE_APPLICATION (ps_application_get_type ())
G_DECLARE_FINAL_TYPE (PsApplication, ps_application, PS, APPLICATION, GtkApplication)

PsApplication *ps_application_new (const char        *application_id,
                                   GApplicationFlags  flags);

G_END_DECLS

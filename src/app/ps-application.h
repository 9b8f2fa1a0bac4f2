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
/* Where sampled runs find the binaries of the traced machine (the loader
 * option "sysroot"), or NULL; set by --sysroot and "Choose Symbol Folder…".
 * Kept in memory for now. */
const char    *ps_application_get_symbol_folder (PsApplication *self);
void           ps_application_set_symbol_folder (PsApplication *self,
                                                 const char    *folder);

G_END_DECLS

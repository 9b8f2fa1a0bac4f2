/* ps-application.h — the Perfscope AdwApplication
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PS_TYPE_APPLICATION (ps_application_get_type ())
G_DECLARE_FINAL_TYPE (PsApplication, ps_application, PS, APPLICATION, AdwApplication)

PsApplication *ps_application_new (const char        *application_id,
                                   GApplicationFlags  flags);
/* Where sampled runs find the binaries of the traced machine (the loader
 * option "sysroot"), or NULL; set by --sysroot and "Choose Symbol Folder…".
 * Kept in memory for now. */
const char    *ps_application_get_symbol_folder (PsApplication *self);
void           ps_application_set_symbol_folder (PsApplication *self,
                                                 const char    *folder);

/* The most events a run keeps (the loader option "max-events"): the
 * setting max-million-events, or when it is 0 (or there are no settings)
 * as many as half of the physical memory holds at 32 bytes an event */
guint64        ps_application_get_max_events    (PsApplication *self);
/* What 0 chooses on this computer */
guint64        ps_application_get_automatic_max_events (void);

G_END_DECLS

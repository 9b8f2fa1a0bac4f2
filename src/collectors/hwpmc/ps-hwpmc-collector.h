/* ps-hwpmc-collector.h — live sampling with FreeBSD's hwpmc(4)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ps-hwpmc-backend.h"

G_BEGIN_DECLS

#define PS_TYPE_HWPMC_COLLECTOR (ps_hwpmc_collector_get_type ())
G_DECLARE_FINAL_TYPE (PsHwpmcCollector, ps_hwpmc_collector, PS, HWPMC_COLLECTOR, GObject)

/* Registers the type in module (the GIO module, or a test's) */
void ps_hwpmc_collector_register       (GTypeModule          *module);
/* The calls into the kernel: ps_hwpmc_backend_get_system () unless set
 * (tests); NULL means hwpmc is not available. Not while recording. */
void ps_hwpmc_collector_set_backend    (PsHwpmcCollector     *self,
                                        const PsHwpmcBackend *backend);
/* The backend of the collectors made from now on, instead of the
 * system's: for a test that has the collector made by others (the
 * Record dialog); NULL goes back to the system's */
void ps_hwpmc_collector_set_default_backend (const PsHwpmcBackend *backend);

G_END_DECLS

/* ps-perflib-collector.h — Windows performance counters through PerfLib V2
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ps-perflib-backend.h"

G_BEGIN_DECLS

#define PS_TYPE_PERFLIB_COLLECTOR (ps_perflib_collector_get_type ())
G_DECLARE_FINAL_TYPE (PsPerflibCollector, ps_perflib_collector, PS, PERFLIB_COLLECTOR, GObject)

/* Registers the type in module (the GIO module, or a test's) */
void ps_perflib_collector_register    (GTypeModule            *module);
/* The calls into Windows: ps_perflib_backend_get_system () unless set
 * (tests); NULL means PerfLib is not available. Not while recording. */
void ps_perflib_collector_set_backend (PsPerflibCollector     *self,
                                       const PsPerflibBackend *backend);

G_END_DECLS

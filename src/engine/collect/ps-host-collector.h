/* ps-host-collector.h — recording a program of the system from inside Flatpak
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ps-collector.h"

G_BEGIN_DECLS

/* The backend's name on the "perfscope-collector" extension point */
#define PS_HOST_COLLECTOR_NAME "host"

#define PS_TYPE_HOST_COLLECTOR (ps_host_collector_get_type ())
G_DECLARE_FINAL_TYPE (PsHostCollector, ps_host_collector, PS, HOST_COLLECTOR, GObject)

G_END_DECLS

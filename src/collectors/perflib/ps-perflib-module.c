/* ps-perflib-module.c — the PerfLib collector as a GIO module
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "ps-collector.h"
#include "ps-perflib-collector.h"

PS_COLLECTOR_DEFINE_MODULE (ps_perflib_collector_register, PS_TYPE_PERFLIB_COLLECTOR, "perflib")

/* ps-hwpmc-module.c — the hwpmc collector as a GIO module
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "ps-collector.h"
#include "ps-hwpmc-collector.h"

PS_COLLECTOR_DEFINE_MODULE (ps_hwpmc_collector_register, PS_TYPE_HWPMC_COLLECTOR, "hwpmc")

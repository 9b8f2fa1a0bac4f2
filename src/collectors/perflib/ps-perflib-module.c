/* ps-perflib-module.c — the PerfLib collector as a GIO module
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "ps-collector.h"
#include "ps-perflib-collector.h"

void
g_io_module_load (GIOModule *module)
{
  ps_perflib_collector_register (G_TYPE_MODULE (module));
  g_io_extension_point_implement (PS_COLLECTOR_EXTENSION_POINT_NAME, PS_TYPE_PERFLIB_COLLECTOR, "perflib", 10);
}

void
g_io_module_unload (GIOModule *module)
{
}

char **
g_io_module_query (void)
{
  char *extension_points[] = { (char *)PS_COLLECTOR_EXTENSION_POINT_NAME, NULL };

  return g_strdupv (extension_points);
}

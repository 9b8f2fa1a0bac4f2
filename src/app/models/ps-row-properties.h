/* ps-row-properties.h — the read-only properties of a table's row items
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows of the marker and scope tables show their statistics as
 * read-only properties for the columns to bind; their specs are made
 * here once, so that every row declares a figure the same way.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* A statistic of any sign, read by the columns */
static inline GParamSpec *
ps_row_double_property (const char *name)
{
  return g_param_spec_double (name, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

G_END_DECLS

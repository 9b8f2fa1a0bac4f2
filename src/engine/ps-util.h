/* ps-util.h — small helpers shared by the engine, the CLI and the app
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Valid UTF-8 for display: the text itself if it is valid UTF-8, else each
 * byte read as Latin-1 (specs: ce-perflog.md §7 #28). */
char *ps_util_display_text     (const char *raw,
                                gssize      length);
/* "12.300 ms", "1.204 s", "850.000 ns": a duration in seconds with a fitting unit, three decimals */
char *ps_util_format_seconds   (double      seconds);
/* "9.6 MiB" with the exact unit chosen by size */
char *ps_util_format_bytes     (double      bytes);
/* A count with the locale's digit grouping ("1,234,567") */
char *ps_util_format_count     (guint64     count);
/* Locale-independent shortest round-trip text of a double ("0.0102") */
char *ps_util_format_double    (double      value);

G_END_DECLS

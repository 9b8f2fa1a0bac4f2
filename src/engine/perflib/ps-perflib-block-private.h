/* ps-perflib-block-private.h — what the decoders of PerfLib V2 counter
 * data (ps-perflib-block.c) and of its registration information
 * (ps-perflib-counterset.c) share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §3 (layouts), §6 (validation rules).
 */
#pragma once

#include "ps-perflib-block.h"

G_BEGIN_DECLS

/* specs: perflib-v2.md §3 — fixed sizes of the structures */
#define DATA_HEADER_SIZE        48
#define COUNTER_HEADER_SIZE     16
#define COUNTER_DATA_SIZE       8
#define MULTI_COUNTERS_SIZE     8
#define MULTI_INSTANCES_SIZE    8
#define INSTANCE_HEADER_SIZE    8
#define IDENTIFIER_SIZE         40
#define COUNTERSET_REG_SIZE     32
#define COUNTER_REG_SIZE        48
#define STRING_BUFFER_SIZE      8
#define STRING_ENTRY_SIZE       8

/* specs: perflib-v2.md §6 rule 15 — the PCQ protocol's maximum buffer */
#define MAX_BUFFER_SIZE         G_GUINT64_CONSTANT (1073741824)
/* specs: perflib-v2.md §6 rule 10 */
#define MAX_REG_COUNTERS        64000

/* 100 ns intervals between 1601-01-01 and 1970-01-01 (§2) */
#define FILETIME_UNIX_EPOCH     G_GINT64_CONSTANT (116444736000000000)

static inline gboolean
is_aligned8 (guint64 value)
{
  return (value & 7) == 0;
}

/* Shared helpers: warnings, strings (ps-perflib-block.c) */

/* An array of PsPerflibWarning that frees their messages */
GArray *ps_perflib_warnings_new (void);
G_GNUC_PRINTF (4, 5)
void ps_perflib_add_warning (GArray              *warnings,
                             PsPerflibWarningCode code,
                             gsize                offset,
                             const char          *format,
                             ...);
/* Index of the first NUL code unit among the @max_units UTF-16 code units
 * at @p, or -1. Works at any alignment. */
gssize ps_perflib_find_utf16_nul (const guint8 *p,
                                  gsize         max_units);
/* UTF-16LE → UTF-8; ill-formed surrogates become U+FFFD (§6 rule 7).
 * Returns whether any replacement was made. */
gboolean ps_perflib_utf16le_to_utf8 (GString      *out,
                                     const guint8 *p,
                                     gsize         n_units);

G_END_DECLS

/* ps-perflib-backend.h — the PerfLib V2 consumer calls the PerfLib collector makes
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §2–§3 (the consumer API and what it returns),
 * §8.5 (what a recorder calls and keeps).
 *
 * The collector (ps-perflib-collector.c) is portable; it reaches Windows
 * only through this table. ps-perflib-backend-win32.c fills it with the
 * functions of <perflib.h>; the tests fill it with recorded buffers.
 * Every call returns a Win32 status, 0 (ERROR_SUCCESS) on success, and
 * outputs exactly the bytes the API reported (the table grows its
 * buffers and retries on ERROR_NOT_ENOUGH_MEMORY itself).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PsPerflibBackend PsPerflibBackend;

struct _PsPerflibBackend
{
  /* PerfEnumerateCounterSet: the counter set GUIDs, 16 bytes each, appended */
  guint32 (*enumerate_countersets)   (const PsPerflibBackend *backend,
                                      GByteArray             *guids);
  /* PerfQueryCounterSetRegistrationInfo (request codes of §3.9) */
  guint32 (*query_registration_info) (const PsPerflibBackend *backend,
                                      const guint8            guid[16],
                                      guint32                 request_code,
                                      guint32                 lang_id,
                                      GByteArray             *output);
  /* PerfOpenQueryHandle */
  guint32 (*open_query)              (const PsPerflibBackend *backend,
                                      gpointer               *query);
  /* PerfAddCounters: identifiers is a sequence of PERF_COUNTER_IDENTIFIER
   * blocks (§3.8); their Status fields are filled in */
  guint32 (*add_counters)            (const PsPerflibBackend *backend,
                                      gpointer                query,
                                      guint8                 *identifiers,
                                      gsize                   size);
  /* PerfQueryCounterInfo: the query's identifiers with their Index */
  guint32 (*query_counter_info)      (const PsPerflibBackend *backend,
                                      gpointer                query,
                                      GByteArray             *output);
  /* PerfQueryCounterData: a PERF_DATA_HEADER and its blocks (§3.1) */
  guint32 (*query_counter_data)      (const PsPerflibBackend *backend,
                                      gpointer                query,
                                      GByteArray             *output);
  /* PerfCloseQueryHandle */
  void    (*close_query)             (const PsPerflibBackend *backend,
                                      gpointer                query);

  gpointer user_data;
};

/* Windows' PerfLib, or NULL where Perfscope was built without it */
const PsPerflibBackend *ps_perflib_backend_get_system (void);

G_END_DECLS

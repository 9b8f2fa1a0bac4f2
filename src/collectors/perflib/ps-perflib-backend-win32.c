/* ps-perflib-backend-win32.c — the PerfLib collector's calls into Windows
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §2–§3. Built only on Windows (advapi32).
 */
#include "config.h"

#include <string.h>

#include <windows.h>
#include <perflib.h>

#include "ps-perflib-backend.h"

#define FIRST_SIZE 65536

/* Calls an API that reports the size it needs with ERROR_NOT_ENOUGH_MEMORY
 * until output holds the whole result */
#define GROW_AND_CALL(output, call)                                      \
  G_STMT_START {                                                         \
    DWORD needed = 0;                                                    \
    ULONG status;                                                        \
    g_byte_array_set_size ((output), MAX ((output)->len, FIRST_SIZE));   \
    for (;;)                                                             \
      {                                                                  \
        status = (call);                                                 \
        if (status != ERROR_NOT_ENOUGH_MEMORY || needed <= (output)->len) \
          break;                                                         \
        g_byte_array_set_size ((output), needed);                        \
      }                                                                  \
    g_byte_array_set_size ((output), status == ERROR_SUCCESS ? needed : 0); \
    return status;                                                       \
  } G_STMT_END

static guint32
win32_enumerate_countersets (const PsPerflibBackend *backend,
                             GByteArray             *guids)
{
  DWORD needed = 0;
  ULONG status;
  g_autofree GUID *ids = NULL;

  status = PerfEnumerateCounterSet (NULL, NULL, 0, &needed);
  if (status != ERROR_SUCCESS && status != ERROR_NOT_ENOUGH_MEMORY)
    return status;
  ids = g_new0 (GUID, MAX (needed, 1));
  status = PerfEnumerateCounterSet (NULL, ids, needed, &needed);
  if (status != ERROR_SUCCESS)
    return status;
  for (DWORD i = 0; i < needed; i++)
    {
      guint8 bytes[16];

      /* The little-endian layout of a GUID on disk (§2) */
      for (guint b = 0; b < 4; b++)
        bytes[b] = (guint8)(ids[i].Data1 >> (8 * b));
      bytes[4] = (guint8)ids[i].Data2;
      bytes[5] = (guint8)(ids[i].Data2 >> 8);
      bytes[6] = (guint8)ids[i].Data3;
      bytes[7] = (guint8)(ids[i].Data3 >> 8);
      memcpy (bytes + 8, ids[i].Data4, 8);
      g_byte_array_append (guids, bytes, 16);
    }
  return ERROR_SUCCESS;
}

static void
guid_from_bytes (GUID         *guid,
                 const guint8  bytes[16])
{
  guid->Data1 = bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | ((guint32)bytes[3] << 24);
  guid->Data2 = (guint16)(bytes[4] | (bytes[5] << 8));
  guid->Data3 = (guint16)(bytes[6] | (bytes[7] << 8));
  memcpy (guid->Data4, bytes + 8, 8);
}

static guint32
win32_query_registration_info (const PsPerflibBackend *backend,
                               const guint8            guid_bytes[16],
                               guint32                 request_code,
                               guint32                 lang_id,
                               GByteArray             *output)
{
  GUID guid;

  guid_from_bytes (&guid, guid_bytes);
  GROW_AND_CALL (output, PerfQueryCounterSetRegistrationInfo (NULL, &guid, (PerfRegInfoType)request_code, lang_id,
                                                              output->data, output->len, &needed));
}

static guint32
win32_open_query (const PsPerflibBackend *backend,
                  gpointer               *query)
{
  HANDLE handle = NULL;
  ULONG status = PerfOpenQueryHandle (NULL, &handle);

  *query = handle;
  return status;
}

static guint32
win32_add_counters (const PsPerflibBackend *backend,
                    gpointer                query,
                    guint8                 *identifiers,
                    gsize                   size)
{
  return PerfAddCounters (query, (PPERF_COUNTER_IDENTIFIER)identifiers, (DWORD)size);
}

static guint32
win32_query_counter_info (const PsPerflibBackend *backend,
                          gpointer                query,
                          GByteArray             *output)
{
  GROW_AND_CALL (output, PerfQueryCounterInfo (query, (PPERF_COUNTER_IDENTIFIER)output->data, output->len, &needed));
}

static guint32
win32_query_counter_data (const PsPerflibBackend *backend,
                          gpointer                query,
                          GByteArray             *output)
{
  GROW_AND_CALL (output, PerfQueryCounterData (query, (PPERF_DATA_HEADER)output->data, output->len, &needed));
}

static void
win32_close_query (const PsPerflibBackend *backend,
                   gpointer                query)
{
  PerfCloseQueryHandle (query);
}

static const PsPerflibBackend win32_backend = {
  .enumerate_countersets = win32_enumerate_countersets,
  .query_registration_info = win32_query_registration_info,
  .open_query = win32_open_query,
  .add_counters = win32_add_counters,
  .query_counter_info = win32_query_counter_info,
  .query_counter_data = win32_query_counter_data,
  .close_query = win32_close_query,
};

const PsPerflibBackend *
ps_perflib_backend_get_system (void)
{
  return &win32_backend;
}

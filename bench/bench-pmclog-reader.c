/* bench-pmclog-reader.c — how fast the pmclog reader alone goes
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads a file in 1 MiB chunks through PsPmclogReader with a callback
 * that only counts records and pcs (the work every consumer does at
 * least), then prints the throughput. The model, the symbols and the
 * store are left out: perfscope-cli measures those (bench/run-pmclog-bench).
 */
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "ps-pmclog.h"

typedef struct
{
  guint64 records;
  guint64 pcs;
} Counts;

static gboolean
count_record (const PsPmclogRecord *record,
              gpointer              user_data,
              GError              **error)
{
  Counts *counts = user_data;

  counts->records++;
  if (record->type == PS_PMCLOG_CALLCHAIN)
    counts->pcs += record->u.callchain.n_pcs;
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  PsPmclogCallbacks callbacks = { count_record, NULL };
  Counts counts = { 0, 0 };
  g_autoptr(PsPmclogReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *buffer = g_malloc (1024 * 1024);
  guint64 bytes = 0;
  gint64 start;
  double seconds;
  FILE *file;
  size_t n;

  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-pmclog-reader FILE\n");
      return 2;
    }
  file = fopen (argv[1], "rb");
  if (file == NULL)
    {
      perror (argv[1]);
      return 1;
    }

  reader = ps_pmclog_reader_new (NULL, &callbacks, &counts);
  start = g_get_monotonic_time ();
  while ((n = fread (buffer, 1, 1024 * 1024, file)) > 0)
    {
      bytes += n;
      if (!ps_pmclog_reader_feed (reader, buffer, n, &error))
        break;
    }
  if (error == NULL)
    ps_pmclog_reader_finish (reader, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  fclose (file);

  if (error != NULL)
    {
      fprintf (stderr, "%s: %s\n", argv[1], error->message);
      return 1;
    }
  printf ("%" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT " pcs in %.3f s: %.0f MB/s\n",
          bytes, counts.records, counts.pcs, seconds, bytes / seconds / 1e6);
  return 0;
}

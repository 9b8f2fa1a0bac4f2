/* gen-pdh-csv.c — writes a Performance Monitor (PDH-CSV 4.0) counter log
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 (header cell, counter paths, quoting, the
 * blank first-row values of two-sample counters)
 *
 *   gen-pdh-csv [--counters N] [--instances N] [--samples N]
 *               [--interval-ms MS] [--tsv] [--seed N] [-o FILE]
 *
 * Columns: N processor counters (% Processor Time first) for each of the
 * CPUs "0".."n−1" and "_Total", then a few machine-wide counters. Values
 * are cooked, as logman writes them; every field is quoted, lines end in
 * CRLF.
 */
#include "gen-common.h"

#include <glib.h>

#define HOST "\\\\PERF-HOST"

typedef enum
{
  KIND_BUSY_PERCENT,   /* busy · scale, in % */
  KIND_IDLE_PERCENT,   /* (1 − busy) · 100 */
  KIND_RATE,           /* scale · (0.3 + busy), per second */
  KIND_GAUGE,          /* scale · (0.5 + busy / 2) */
} Kind;

typedef struct
{
  const char *name;
  Kind        kind;
  double      scale;
  gboolean    two_samples;  /* blank in the first row */
} CounterDef;

static const CounterDef processor_counters[] = {
  { "% Processor Time",   KIND_BUSY_PERCENT, 100, TRUE },
  { "% User Time",        KIND_BUSY_PERCENT, 70,  TRUE },
  { "% Privileged Time",  KIND_BUSY_PERCENT, 30,  TRUE },
  { "Interrupts/sec",     KIND_RATE,         2000, TRUE },
  { "% Idle Time",        KIND_IDLE_PERCENT, 100, TRUE },
  { "% DPC Time",         KIND_BUSY_PERCENT, 2,   TRUE },
  { "% Interrupt Time",   KIND_BUSY_PERCENT, 1,   TRUE },
  { "DPCs Queued/sec",    KIND_RATE,         150, TRUE },
  { "% C1 Time",          KIND_IDLE_PERCENT, 50,  TRUE },
  { "C1 Transitions/sec", KIND_RATE,         1500, TRUE },
};

/* Machine-wide counters after the processor columns, with the names
 * that make path parsing hard (§7.2) */
static const struct
{
  const char *path;
  CounterDef  def;
} system_counters[] = {
  { "\\Memory\\Available MBytes",                          { NULL, KIND_GAUGE, 8192, FALSE } },
  { "\\Memory\\Pages/sec",                                 { NULL, KIND_RATE,  40,   TRUE } },
  { "\\PhysicalDisk(0 C:)\\% Disk Time",                   { NULL, KIND_BUSY_PERCENT, 20, TRUE } },
  { "\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read",            { NULL, KIND_GAUGE, 0.004, TRUE } },
  { "\\System\\Processor Queue Length",                    { NULL, KIND_GAUGE, 2,    FALSE } },
  { "\\Network Interface(Intel[R] Ethernet Connection [7] I219-LM)\\Bytes Total/sec", { NULL, KIND_RATE, 250000, TRUE } },
};

typedef struct
{
  CounterDef def;
  guint      instance;   /* into busy[] */
  char      *path;
} Column;

static void
append_field (Writer     *writer,
              const char *text,
              gboolean    first,
              char        separator)
{
  size_t length = strlen (text);

  writer_reserve (writer, 2 * length + 4);
  if (!first)
    writer_append_char (writer, separator);
  writer_append_char (writer, '"');
  /* Quotes inside a field are doubled */
  for (size_t i = 0; i < length; i++)
    {
      if (text[i] == '"')
        writer_append_char (writer, '"');
      writer_append_char (writer, text[i]);
    }
  writer_append_char (writer, '"');
}

int
main (int    argc,
      char **argv)
{
  unsigned n_counters = 4;
  unsigned n_cpus = 8;
  uint64_t n_samples = 3600;
  unsigned interval_ms = 1000;
  uint64_t seed = 1;
  gboolean tsv = FALSE;
  const char *output = "-";
  char separator;
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();
  g_autofree double *busy = NULL;
  Writer writer;
  Rng rng;
  /* 2024-03-04 01:00:00 Pacific Standard Time */
  g_autoptr(GDateTime) start = g_date_time_new_utc (2024, 3, 4, 1, 0, 0);

  g_set_prgname ("gen-pdh-csv");
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--counters") && i + 1 < argc)
        {
          if (!parse_count (argv[++i], 10000, &n_counters))
            return usage_error ("bad --counters", argv[i]);
        }
      else if (g_str_equal (argv[i], "--instances") && i + 1 < argc)
        {
          if (!parse_count (argv[++i], 10000, &n_cpus))
            return usage_error ("bad --instances", argv[i]);
        }
      else if (g_str_equal (argv[i], "--samples") && i + 1 < argc)
        {
          if (!parse_uint (argv[++i], G_MAXUINT32, &n_samples))
            return usage_error ("bad --samples", argv[i]);
        }
      else if (g_str_equal (argv[i], "--interval-ms") && i + 1 < argc)
        {
          if (!parse_count (argv[++i], 86400000, &interval_ms))
            return usage_error ("bad --interval-ms", argv[i]);
        }
      else if (g_str_equal (argv[i], "--seed") && i + 1 < argc)
        {
          if (!parse_uint (argv[++i], G_MAXUINT64, &seed))
            return usage_error ("bad --seed", argv[i]);
        }
      else if (g_str_equal (argv[i], "--tsv"))
        tsv = TRUE;
      else if (g_str_equal (argv[i], "-o") && i + 1 < argc)
        output = argv[++i];
      else if (g_str_equal (argv[i], "--help"))
        {
          printf ("usage: gen-pdh-csv [--counters N] [--instances N] [--samples N] [--interval-ms MS] [--tsv] [--seed N] [-o FILE]\n");
          return 0;
        }
      else
        return usage_error ("unknown option", argv[i]);
    }
  separator = tsv ? '\t' : ',';
  rng_init (&rng, seed);

  /* Processor columns, instance by instance as Perfmon lists them */
  busy = g_new0 (double, n_cpus + 1);
  for (unsigned i = 0; i <= n_cpus; i++)
    {
      g_autofree char *instance = i == n_cpus ? g_strdup ("_Total") : g_strdup_printf ("%u", i);

      busy[i] = 0.15 + 0.5 * (double) (i % 7) / 7.0;
      for (unsigned c = 0; c < n_counters; c++)
        {
          Column *column = g_new0 (Column, 1);
          g_autofree char *synthetic = NULL;

          if (c < G_N_ELEMENTS (processor_counters))
            column->def = processor_counters[c];
          else
            {
              column->def = processor_counters[c % G_N_ELEMENTS (processor_counters)];
              synthetic = g_strdup_printf ("Synthetic Counter %u", c);
            }
          column->instance = i;
          column->path = g_strdup_printf (HOST "\\Processor(%s)\\%s", instance,
                                          synthetic != NULL ? synthetic : column->def.name);
          g_ptr_array_add (columns, column);
        }
    }
  for (unsigned s = 0; s < G_N_ELEMENTS (system_counters); s++)
    {
      Column *column = g_new0 (Column, 1);

      column->def = system_counters[s].def;
      column->instance = n_cpus;
      column->path = g_strconcat (HOST, system_counters[s].path, NULL);
      g_ptr_array_add (columns, column);
    }

  if (!writer_open (&writer, output, "\r\n"))
    return 1;
  append_field (&writer, tsv ? "(PDH-TSV 4.0) (Pacific Standard Time)(480)"
                             : "(PDH-CSV 4.0) (Pacific Standard Time)(480)", TRUE, separator);
  for (guint c = 0; c < columns->len; c++)
    append_field (&writer, ((Column *) columns->pdata[c])->path, FALSE, separator);
  writer_reserve (&writer, 2);
  writer_end_line (&writer);

  for (uint64_t s = 0; s < n_samples; s++)
    {
      g_autoptr(GDateTime) at = g_date_time_add_seconds (start, (double) s * interval_ms / 1000.0);
      g_autofree char *date = g_date_time_format (at, "%m/%d/%Y %H:%M:%S");
      char stamp[64];
      double total = 0;

      for (unsigned i = 0; i < n_cpus; i++)
        {
          double level = 0.15 + 0.5 * (double) (i % 7) / 7.0;
          double b = busy[i] + 0.2 * (level - busy[i]) + 0.06 * rng_normal (&rng);

          busy[i] = CLAMP (b, 0.01, 0.99);
          total += busy[i];
        }
      busy[n_cpus] = total / n_cpus;

      g_snprintf (stamp, sizeof stamp, "%s.%03u", date,
                  (unsigned) ((s * interval_ms) % 1000));
      append_field (&writer, stamp, TRUE, separator);
      for (guint c = 0; c < columns->len; c++)
        {
          const Column *column = columns->pdata[c];
          char number[G_ASCII_DTOSTR_BUF_SIZE];
          double b = busy[column->instance];
          double value = 0;

          switch (column->def.kind)
            {
            case KIND_BUSY_PERCENT: value = b * column->def.scale; break;
            case KIND_IDLE_PERCENT: value = (1.0 - b) * column->def.scale; break;
            case KIND_RATE:
              value = column->def.scale * (0.3 + b) * (0.9 + 0.2 * rng_uniform (&rng));
              if (column->instance == n_cpus && column->def.name != NULL)
                value *= n_cpus;
              break;
            case KIND_GAUGE: value = column->def.scale * (0.5 + b / 2); break;
            }
          /* PDH writes a blank for counters that need two samples */
          if (s == 0 && column->def.two_samples)
            append_field (&writer, " ", FALSE, separator);
          else
            append_field (&writer, g_ascii_formatd (number, sizeof number, "%.15g", value),
                          FALSE, separator);
        }
      writer_reserve (&writer, 2);
      writer_end_line (&writer);
    }

  for (guint c = 0; c < columns->len; c++)
    {
      g_free (((Column *) columns->pdata[c])->path);
      g_free (columns->pdata[c]);
    }
  return writer_close (&writer) ? 0 : 1;
}

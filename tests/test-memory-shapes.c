/* test-memory-shapes.c — peak memory bounded by the file, whatever its shape
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md (info, stats, calltree, counters). Issue 30: "peak memory
 * is at most a fixed multiple of the file size plus a constant, whatever
 * the shape". Each shape of each format is written here, deterministically,
 * at 1–20 MB: many sessions, short sessions, repeated registrations of
 * applications and markers, many distinct names, many columns, deep
 * stacks, long lines, many threads, processes and samples. perfscope-cli
 * reads it as a user would, as a child of this test, and the child's own
 * peak resident memory (wait4's ru_maxrss) must stay within
 * MEMORY_PER_FILE_BYTE times the file plus MEMORY_BASE_BYTES, for `info`
 * and for the command the shape aims at. Saved runs (.perfscope) of some
 * shapes are made here through the engine and read the same way.
 *
 * Run with --verbose (or read the test log) for the table of size, peak,
 * multiple and time of every case.
 */
/* wait4 () */
#define _DEFAULT_SOURCE
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cli-test-util.h"
#include "gen-plv2.h"
#include "pmclog-writer.h"
#include "ps-format.h"
#include "ps-loader.h"
#include "ps-native-writer.h"

/* Peak memory allowed: MEMORY_BASE_BYTES, what perfscope-cli takes on
 * any run (its code and GLib's, about 7 MiB; the loader's chunks in
 * flight and what a parser made of them, up to 24 MiB for a chunk of
 * short lines; the pieces of the store made ready ahead, about 8 MiB),
 * plus MEMORY_PER_FILE_BYTE per byte of the file: the store of a dense
 * log (a CE event of 40 bytes becomes a measurement of 32, an RTL scope
 * of two lines of 14 bytes a span of 48) and what a command computes from
 * it besides. Runs of the same file differ by a few MiB, with the order
 * in which the loader's two threads free memory. */
#define MEMORY_BASE_BYTES (40 * 1024 * 1024)
#define MEMORY_PER_FILE_BYTE 8

/* A run that takes longer than this has gone out of proportion */
#define RUN_TIMEOUT_MS (30 * 1000)

/* The address space a run may reserve, a few times what it may use: a
 * run out of proportion stops at it, failing, instead of taking the
 * machine's memory (threads reserve room for their own heaps, 64 MiB
 * each, that they do not use) */
#define ADDRESS_SPACE_FACTOR 4
#define ADDRESS_SPACE_BASE_BYTES (G_GUINT64_CONSTANT (1024) * 1024 * 1024)

#define MIB (1024.0 * 1024.0)

/* Where memory is not measured, what the shapes are run for is what the
 * sanitizers find, at a quarter of the size, since they slow everything */
#define SIZE_DIVISOR (MEASURES_MEMORY ? 1 : 4)

/* Writing the shapes ------------------------------------------------------- */

/* Lines until the text holds `bytes` */
#define UNTIL(text, bytes) for (guint i = 0; (text)->len < (bytes); i++)

/* A CE PerfLog session header, as PerfLog.dll writes it (ce-perflog.md §3) */
static void
ce_header (GString *text)
{
  g_string_append (text,
                   "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                   "## PERF ## PLATFORM=[CEPC] CPU=[x86]\r\n"
                   "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n");
}

/* Sessions of a registration, two markers and a few events each */
static void
write_ce_sessions (GString *text,
                   gsize    bytes)
{
  UNTIL (text, bytes)
    {
      ce_header (text);
      g_string_append_printf (text,
                              "## PERF ## REGISTERED APP [dbperf] PROCCESSID [0x%08x]\r\n"
                              "## PERF ## REGISTERED MARKER [Test=Insert,Rows=%u,time=%%AVG%%] AS [0] BY APP [dbperf]\r\n"
                              "## PERF ## REGISTERED MARKER [CPU: dbperf] AS [103] BY APP [dbperf]\r\n"
                              "## PERF ## APP [dbperf] EVT [0] DUR [%u]\r\n"
                              "## PERF ## APP [dbperf] EVT [0] DUR [%u]\r\n"
                              "## PERF ## APP [dbperf] EVT [103] CPU [%u.500000]\r\n",
                              0x0a5f0000 + i, i % 1000, 4000 + i % 97, 4100 + i % 89, i % 100);
    }
}

/* Sessions of their header line alone */
static void
write_ce_short_sessions (GString *text,
                         gsize    bytes)
{
  UNTIL (text, bytes)
    g_string_append (text, "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n");
}

/* One application registering itself again and again, as a harness that
 * restarts it does, with an event now and then */
static void
write_ce_app_registrations (GString *text,
                            gsize    bytes)
{
  ce_header (text);
  g_string_append (text, "## PERF ## REGISTERED MARKER [Test=Restart,time=%AVG%] AS [0] BY APP [harness]\r\n");
  UNTIL (text, bytes)
    {
      g_string_append_printf (text, "## PERF ## REGISTERED APP [harness] PROCCESSID [0x%08x]\r\n", 0x0a5f0000 + i);
      if (i % 16 == 0)
        g_string_append_printf (text, "## PERF ## APP [harness] EVT [0] DUR [%u]\r\n", 1000 + i % 977);
    }
}

/* One marker registered again before every event, as tests that measure
 * each iteration on their own do */
static void
write_ce_marker_registrations (GString *text,
                               gsize    bytes)
{
  ce_header (text);
  g_string_append (text, "## PERF ## REGISTERED APP [regperf] PROCCESSID [0x0a5f0012]\r\n");
  UNTIL (text, bytes)
    g_string_append_printf (text,
                            "## PERF ## REGISTERED MARKER [Test=RegSetValue,Keys=100,time=%%AVG%%] AS [%u] BY APP [regperf]\r\n"
                            "## PERF ## APP [regperf] EVT [%u] DUR [%u]\r\n",
                            i % 4, i % 4, 2000 + i % 1009);
}

/* A description of its own for every registration */
static void
write_ce_marker_names (GString *text,
                       gsize    bytes)
{
  ce_header (text);
  g_string_append (text, "## PERF ## REGISTERED APP [fsperf] PROCCESSID [0x0a5f0012]\r\n");
  UNTIL (text, bytes)
    g_string_append_printf (text,
                            "## PERF ## REGISTERED MARKER [Test=CreateFile,Files=%u,time=%%AVG%%] AS [%u] BY APP [fsperf]\r\n"
                            "## PERF ## APP [fsperf] EVT [%u] DUR [%u]\r\n",
                            i, i % 104, i % 104, 3000 + i % 1013);
}

/* Applications of their own names, each registered with a marker and an
 * event, in one session */
static void
write_ce_apps (GString *text,
               gsize    bytes)
{
  ce_header (text);
  UNTIL (text, bytes)
    g_string_append_printf (text,
                            "## PERF ## REGISTERED APP [app%u] PROCCESSID [0x%08x]\r\n"
                            "## PERF ## REGISTERED MARKER [Test=Open] AS [0] BY APP [app%u]\r\n"
                            "## PERF ## APP [app%u] EVT [0] DUR [%u]\r\n",
                            i, 0x0a5f0000 + i, i, i, 100 + i % 31);
}

/* Events of applications and markers never registered: each pair gets an
 * instance without description, each application a warning */
static void
write_ce_unregistered (GString *text,
                       gsize    bytes)
{
  ce_header (text);
  UNTIL (text, bytes)
    g_string_append_printf (text, "## PERF ## APP [ghost%u] EVT [%u] DUR [%u]\r\n", i / 4, i % 4, 50 + i % 7);
}

/* Lines that are no PerfLog statement: a warning each */
static void
write_ce_bad_lines (GString *text,
                    gsize    bytes)
{
  ce_header (text);
  g_string_append (text, "## PERF ## REGISTERED APP [app] PROCCESSID [0x10]\r\n");
  UNTIL (text, bytes)
    g_string_append_printf (text, "## PERF ## APP [app] EVT [0] DUR [x%u]\r\n", i);
}

/* Descriptions of a mebibyte */
static void
write_ce_long_lines (GString *text,
                     gsize    bytes)
{
  ce_header (text);
  g_string_append (text, "## PERF ## REGISTERED APP [app] PROCCESSID [0x10]\r\n");
  UNTIL (text, bytes)
    {
      g_string_append (text, "## PERF ## REGISTERED MARKER [Test=");
      for (guint k = 0; k < 1024 * 1024; k++)
        g_string_append_c (text, 'a' + (char) ((i + k) % 26));
      g_string_append_printf (text, "] AS [%u] BY APP [app]\r\n## PERF ## APP [app] EVT [%u] DUR [7]\r\n", i, i);
    }
}

/* The three header lines of an RTL log (rtl-logfile.md §2.2) */
static void
rtl_header (GString *text)
{
  g_string_append (text,
                   "opening log file 1350232464.306251 seconds past January 1st 1970\n"
                   "corresponding to 0 ms after timer start\n"
                   "Process id is 4711\n");
}

/* Scopes inside scopes, all of one name, all opened and then all closed,
 * as bench/run-deep-bench writes them */
static void
write_rtl_deep (GString *text,
                gsize    bytes)
{
  /* Each level writes two lines of 13 bytes */
  guint depth = (guint) (bytes / 26);

  for (guint i = 0; i < depth; i++)
    g_string_append_printf (text, "%06u 1 { f\n", i);
  for (guint i = depth; i > 0; i--)
    g_string_append_printf (text, "%06u 1 } f\n", 2 * depth - i + 1);
}

/* A thread of its own for every scope */
static void
write_rtl_threads (GString *text,
                   gsize    bytes)
{
  rtl_header (text);
  UNTIL (text, bytes)
    g_string_append_printf (text,
                            "%06u %u { vcl (th301448) ::Timer::ImplTimerCallbackProc\n"
                            "%06u %u } vcl (th301448) ::Timer::ImplTimerCallbackProc\n",
                            i / 16, i + 1, i / 16 + 1, i + 1);
}

/* A name of its own for every scope, and a message in it */
static void
write_rtl_names (GString *text,
                 gsize    bytes)
{
  rtl_header (text);
  UNTIL (text, bytes)
    g_string_append_printf (text,
                            "%06u 1 { sfx2 (mb217390) ::SfxViewFrame::Show%u\n"
                            "%06u 1 | sfx2 (mb217390) ::SfxViewFrame::Show%u : filter %u\n"
                            "%06u 1 } sfx2 (mb217390) ::SfxViewFrame::Show%u\n",
                            i / 4, i, i / 4, i, i, i / 4 + 1, i);
}

/* Messages outside any scope, each of its own text */
static void
write_rtl_marks (GString *text,
                 gsize    bytes)
{
  rtl_header (text);
  UNTIL (text, bytes)
    g_string_append_printf (text, "%06u %u | : PERFORMANCE - step %u\n", i / 8, 1 + i % 4, i);
}

/* Scope names of a mebibyte */
static void
write_rtl_long_lines (GString *text,
                      gsize    bytes)
{
  rtl_header (text);
  UNTIL (text, bytes)
    {
      g_autoptr(GString) name = g_string_new ("sw (mb000001) ::");

      for (guint k = 0; k < 1024 * 1024; k++)
        g_string_append_c (name, 'a' + (char) ((i + k) % 26));
      g_string_append_printf (text, "%06u 1 { %s\n%06u 1 } %s\n", i, name->str, i + 1, name->str);
    }
}

/* Closing lines of scopes never opened: a warning each */
static void
write_rtl_unmatched (GString *text,
                     gsize    bytes)
{
  rtl_header (text);
  UNTIL (text, bytes)
    g_string_append_printf (text, "%06u %u } sw (mb000001) ::SwView::Paint\n", i / 8, 1 + i % 8);
}

/* The log restarted again and again: its three header lines and a scope */
static void
write_rtl_sessions (GString *text,
                    gsize    bytes)
{
  UNTIL (text, bytes)
    {
      rtl_header (text);
      g_string_append_printf (text, "%06u 1 { desktop ::Main\n%06u 1 } desktop ::Main\n", i, i + 1);
    }
}

/* A PDH CSV or TSV header of the given counter paths and rows of a
 * reading each second (perflib-v2.md §7.2) */
static void
pdh_row_start (GString *text,
               guint    row,
               char     separator)
{
  g_string_append_printf (text, "\"01/01/2024 %02u:%02u:%02u.%03u\"", row / 3600 % 24, row / 60 % 60, row % 60,
                          row / 86400 % 1000);
  (void) separator;
}

/* Counters of their own instance: a wide header over few rows */
static void
write_pdh_counters (GString *text,
                    gsize    bytes,
                    char     separator)
{
  /* A path of about 48 bytes and a reading of about 8 per row, 4 rows */
  guint n_counters = (guint) (bytes / (48 + 4 * 8));

  g_string_append_printf (text, "\"(PDH-%s 4.0) (UTC)(0)\"", separator == ',' ? "CSV" : "TSV");
  for (guint c = 0; c < n_counters; c++)
    g_string_append_printf (text, "%c\"\\\\SRV\\Process(worker#%u)\\%% Processor Time\"", separator, c);
  g_string_append (text, "\r\n");
  for (guint row = 0; row < 4; row++)
    {
      pdh_row_start (text, row, separator);
      for (guint c = 0; c < n_counters; c++)
        g_string_append_printf (text, "%c\"%u.%03u\"", separator, (c + row) % 100, (c * 7 + row) % 1000);
      g_string_append (text, "\r\n");
    }
}

static void
write_pdh_counters_csv (GString *text,
                        gsize    bytes)
{
  write_pdh_counters (text, bytes, ',');
}

/* A TSV header of n_counters counters, each named by the path that
 * with_machine chooses, and one row of a reading each */
static void
write_pdh_one_row_tsv (GString  *text,
                       guint     n_counters,
                       gboolean  with_machine)
{
  g_string_append (text, "\"(PDH-TSV 4.0) (UTC)(0)\"");
  for (guint c = 0; c < n_counters; c++)
    if (with_machine)
      g_string_append_printf (text, "\t\\\\M%u\\O%u(I%u)\\C%u", c, c, c, c);
    else
      g_string_append_printf (text, "\tx%u", c);
  g_string_append (text, "\r\n");
  pdh_row_start (text, 0, '\t');
  for (guint c = 0; c < n_counters; c++)
    g_string_append (text, "\t1");
  g_string_append (text, "\r\n");
}

/* Counters of the shortest names, and one reading each: the store's
 * part of a counter (its track and series, about 200 bytes) against ten
 * bytes of the file */
static void
write_pdh_short_names_tsv (GString *text,
                           gsize    bytes)
{
  write_pdh_one_row_tsv (text, (guint) (bytes / 10), FALSE);
}

/* Every column naming a machine, object and instance of its own, as in
 * the TSV of issue 30 (620 000 columns): four tracks a counter, one
 * reading each */
static void
write_pdh_own_machines_tsv (GString *text,
                            gsize    bytes)
{
  write_pdh_one_row_tsv (text, (guint) (bytes / 36), TRUE);
}

/* Eight counters, a reading each second for days */
static void
write_pdh_rows (GString *text,
                gsize    bytes)
{
  static const char *paths[] = {
    "\\\\SRV\\Processor(_Total)\\% Processor Time", "\\\\SRV\\Memory\\Available MBytes",
    "\\\\SRV\\PhysicalDisk(_Total)\\Disk Bytes/sec", "\\\\SRV\\Network Interface(eth0)\\Bytes Total/sec",
    "\\\\SRV\\System\\Processor Queue Length", "\\\\SRV\\Memory\\Pages/sec",
    "\\\\SRV\\Process(_Total)\\Handle Count", "\\\\SRV\\System\\Context Switches/sec",
  };

  g_string_append (text, "\"(PDH-CSV 4.0) (UTC)(0)\"");
  for (guint c = 0; c < G_N_ELEMENTS (paths); c++)
    g_string_append_printf (text, ",\"%s\"", paths[c]);
  g_string_append (text, "\r\n");
  UNTIL (text, bytes)
    {
      pdh_row_start (text, i, ',');
      for (guint c = 0; c < G_N_ELEMENTS (paths); c++)
        g_string_append_printf (text, ",\"%u.%u\"", (i * (c + 3)) % 1000, (i + c) % 10);
      g_string_append (text, "\r\n");
    }
}

/* A TSV whose rows do not keep to the header: unquoted and empty cells,
 * rows of fewer and of more columns than the header, blank columns */
static void
write_pdh_odd_columns_tsv (GString *text,
                           gsize    bytes)
{
  const guint n_counters = 64;

  g_string_append (text, "\"(PDH-TSV 4.0) (UTC)(0)\"");
  for (guint c = 0; c < n_counters; c++)
    if (c % 8 == 7)
      g_string_append (text, "\t");
    else
      g_string_append_printf (text, "\t\\\\SRV\\Thread(app/%u)\\Context Switches/sec", c);
  g_string_append (text, "\r\n");
  UNTIL (text, bytes)
    {
      guint n_cells = i % 3 == 0 ? n_counters / 2 : i % 3 == 1 ? n_counters : 2 * n_counters;

      pdh_row_start (text, i, '\t');
      for (guint c = 0; c < n_cells; c++)
        if ((c + i) % 5 == 0)
          g_string_append (text, "\t");
        else if ((c + i) % 5 == 1)
          g_string_append (text, "\t\" \"");
        else
          g_string_append_printf (text, "\t%u", (c * 13 + i) % 100000);
      g_string_append (text, "\r\n");
    }
}

/* Counter paths of a mebibyte */
static void
write_pdh_long_lines (GString *text,
                      gsize    bytes)
{
  guint n_counters = MAX (1, (guint) (bytes / (1024 * 1024)));

  g_string_append (text, "\"(PDH-CSV 4.0) (UTC)(0)\"");
  for (guint c = 0; c < n_counters; c++)
    {
      g_string_append (text, ",\"\\\\SRV\\Process(");
      for (guint k = 0; k < 1024 * 1024; k++)
        g_string_append_c (text, 'a' + (char) ((c + k) % 26));
      g_string_append (text, ")\\% Processor Time\"");
    }
  g_string_append (text, "\r\n");
  for (guint row = 0; row < 100; row++)
    {
      pdh_row_start (text, row, ',');
      for (guint c = 0; c < n_counters; c++)
        g_string_append_printf (text, ",\"%u\"", row + c);
      g_string_append (text, "\r\n");
    }
}

/* PLV2 captures (perflib-v2.md §8) through bench/gen-plv2 */
static gboolean
append_bytes (const guint8 *bytes,
              gsize         length,
              gpointer      user_data)
{
  g_string_append_len (user_data, (const char *) bytes, (gssize) length);
  return TRUE;
}

/* A capture of `counters` counters of `instances` instances, with as many
 * samples as make `bytes` */
static void
write_plv2 (GString *text,
            gsize    bytes,
            guint    counters,
            guint    instances)
{
  GenPlv2Options options;
  g_autoptr(GString) one = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  gen_plv2_options_init (&options);
  options.n_counters = counters;
  options.n_instances = instances;
  options.seed = 30;
  /* The size of a sample, from a capture of one */
  options.n_samples = 1;
  g_assert_true (gen_plv2_write (&options, append_bytes, one, &error));
  g_assert_no_error (error);
  options.n_samples = MAX (1, bytes / one->len);
  g_assert_true (gen_plv2_write (&options, append_bytes, text, &error));
  g_assert_no_error (error);
}

static void
write_plv2_samples (GString *text,
                    gsize    bytes)
{
  write_plv2 (text, bytes, 0, 4);
}

static void
write_plv2_counters (GString *text,
                     gsize    bytes)
{
  write_plv2 (text, bytes, 4000, 1);
}

static void
write_plv2_instances (GString *text,
                      gsize    bytes)
{
  write_plv2 (text, bytes, 0, 2000);
}

/* pmcstat -G text (hwpmc-pmclog.md §8.4): a node at depth d is d spaces,
 * its share, " [count] " in twelve characters, and d spaces again */
static void
pmcstat_node (GString    *text,
              guint       depth,
              guint       count,
              const char *name)
{
  for (guint s = 0; s < depth; s++)
    g_string_append_c (text, ' ');
  g_string_append_printf (text, "%s  [%u]", depth == 0 ? "01.00%" : "100.0%", count);
  for (guint s = 0; s < depth + 4; s++)
    g_string_append_c (text, ' ');
  g_string_append (text, name);
  g_string_append_c (text, '\n');
}

/* One sampled function called through a chain of callers as deep as the
 * file allows */
static void
write_pmcstat_deep (GString *text,
                    gsize    bytes)
{
  /* A caller at depth d takes about 2 d + 24 bytes */
  guint depth = 1;

  while ((gsize) depth * (depth + 24) < bytes)
    depth++;
  g_string_append (text, "@ CLOCK.HARD [1 samples]\n\n");
  for (guint d = 0; d < depth; d++)
    {
      char name[32];

      g_snprintf (name, sizeof name, d == 0 ? "f%u @ /bin/deep" : "f%u", d);
      pmcstat_node (text, d, 1, name);
    }
  g_string_append_c (text, '\n');
}

/* Sampled functions of their own names, each called by two others */
static void
write_pmcstat_functions (GString *text,
                         gsize    bytes)
{
  g_string_append (text, "@ CLOCK.HARD [1000000 samples]\n\n");
  UNTIL (text, bytes)
    {
      char name[64];

      g_snprintf (name, sizeof name, "function_%u @ /usr/lib/libshape.so.1", i);
      pmcstat_node (text, 0, 1 + i % 50, name);
      g_snprintf (name, sizeof name, "caller_%u", i % 1000);
      pmcstat_node (text, 1, 1 + i % 50, name);
      g_snprintf (name, sizeof name, "main");
      pmcstat_node (text, 2, 1 + i % 50, name);
      g_string_append_c (text, '\n');
    }
}

/* Events of their own names, one sampled function each */
static void
write_pmcstat_events (GString *text,
                      gsize    bytes)
{
  UNTIL (text, bytes)
    {
      g_string_append_printf (text, "@ EVENT_%u [10 samples]\n\n", i);
      pmcstat_node (text, 0, 10, "memcpy @ /lib/libc.so.7");
      pmcstat_node (text, 1, 10, "main");
      g_string_append_c (text, '\n');
    }
}

/* Function names of a mebibyte */
static void
write_pmcstat_long_lines (GString *text,
                          gsize    bytes)
{
  g_string_append (text, "@ CLOCK.HARD [1000 samples]\n\n");
  UNTIL (text, bytes)
    {
      g_autoptr(GString) name = g_string_new (NULL);

      for (guint k = 0; k < 1024 * 1024; k++)
        g_string_append_c (name, 'a' + (char) ((i + k) % 26));
      g_string_append (name, " @ /bin/long");
      pmcstat_node (text, 0, 10, name->str);
      pmcstat_node (text, 1, 10, "main");
      g_string_append_c (text, '\n');
    }
}

/* hwpmc logs (hwpmc-pmclog.md §4) through tests/pmclog-writer */
static PsPmclogWriter *
pmclog_begin (void)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000);

  ps_pmclog_writer_initialize (writer, 1000, 0x80, 1000000000, 1700000000, 0, "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, 1000, 0x100, 0x1000, 0x80, 0, "CLOCK.HARD");
  ps_pmclog_writer_proc_create (writer, 1001, 700, 0, "shape");
  ps_pmclog_writer_map_in (writer, 1002, 700, 0x400000, "/usr/bin/shape");
  return writer;
}

static void
pmclog_end (PsPmclogWriter *writer,
            GString        *text)
{
  g_autoptr(GBytes) log = ps_pmclog_writer_free_to_bytes (writer);

  g_string_append_len (text, g_bytes_get_data (log, NULL), (gssize) g_bytes_get_size (log));
}

/* Call chains of the deepest the kernel writes (hwpmc's
 * kern.hwpmc.callchaindepth at most 512), each of its own addresses */
static void
write_hwpmc_callchains (GString *text,
                        gsize    bytes)
{
  PsPmclogWriter *writer = pmclog_begin ();
  guint64 pcs[512];

  for (guint i = 0; ps_pmclog_writer_get_length (writer) < bytes; i++)
    {
      for (guint f = 0; f < G_N_ELEMENTS (pcs); f++)
        pcs[f] = 0x400000 + 16 * (guint64) ((i * 7 + f) % 65536);
      ps_pmclog_writer_callchain (writer, 2000 + i, 700, 100000, 0x100, 1, pcs, G_N_ELEMENTS (pcs));
    }
  pmclog_end (writer, text);
}

/* A thread of its own for every sample */
static void
write_hwpmc_threads (GString *text,
                     gsize    bytes)
{
  PsPmclogWriter *writer = pmclog_begin ();

  for (guint i = 0; ps_pmclog_writer_get_length (writer) < bytes; i++)
    {
      guint64 pcs[4] = { 0x401000 + 16 * (i % 64), 0x402000, 0x403000, 0x404000 };
      char name[32];

      g_snprintf (name, sizeof name, "worker %u", i);
      ps_pmclog_writer_thr_create (writer, 2000 + 2 * (guint64) i, 100000 + i, 700, 0, name);
      ps_pmclog_writer_callchain (writer, 2001 + 2 * (guint64) i, 700, 100000 + i, 0x100, 1, pcs, G_N_ELEMENTS (pcs));
    }
  pmclog_end (writer, text);
}

/* A process of its own, with its program mapped, for every sample */
static void
write_hwpmc_processes (GString *text,
                       gsize    bytes)
{
  PsPmclogWriter *writer = pmclog_begin ();

  for (guint i = 0; ps_pmclog_writer_get_length (writer) < bytes; i++)
    {
      guint64 pcs[3] = { 0x401000 + 16 * (i % 64), 0x402000, 0x403000 };
      char name[32], path[64];
      guint32 pid = 1000 + i;

      g_snprintf (name, sizeof name, "job%u", i);
      g_snprintf (path, sizeof path, "/usr/local/bin/job%u", i);
      ps_pmclog_writer_proc_create (writer, 2000 + 4 * (guint64) i, pid, 0, name);
      ps_pmclog_writer_map_in (writer, 2001 + 4 * (guint64) i, pid, 0x400000, path);
      ps_pmclog_writer_callchain (writer, 2002 + 4 * (guint64) i, pid, 200000 + i, 0x100, 1, pcs, G_N_ELEMENTS (pcs));
      ps_pmclog_writer_procexit (writer, 2003 + 4 * (guint64) i, 0x100, pid, 0);
    }
  pmclog_end (writer, text);
}

/* Short call chains whose addresses never repeat */
static void
write_hwpmc_addresses (GString *text,
                       gsize    bytes)
{
  PsPmclogWriter *writer = pmclog_begin ();

  for (guint i = 0; ps_pmclog_writer_get_length (writer) < bytes; i++)
    {
      guint64 pcs[2] = { 0x400000 + 4 * (guint64) i, 0x500000 + 4 * (guint64) (i / 8) };

      ps_pmclog_writer_callchain (writer, 2000 + i, 700, 100000, 0x100, 1, pcs, G_N_ELEMENTS (pcs));
    }
  pmclog_end (writer, text);
}

/* Visual Studio report CSVs (vs-instrumentation.md) */

/* A call-tree report of levels as deep as the file allows */
static void
write_vs_deep (GString *text,
               gsize    bytes)
{
  guint depth;

  g_string_append (text, "Level,Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,\n");
  depth = (guint) (bytes / 40);
  for (guint level = 0; level < depth; level++)
    g_string_append_printf (text, "%u,\"Shape::Recurse\",1,%u,1,\n", level, depth - level);
}

/* A caller/callee report of functions of their own names */
static void
write_vs_functions (GString *text,
                    gsize    bytes)
{
  g_string_append (text, "Type,Function Name,Elapsed Inclusive Time,Elapsed Exclusive Time,Application Inclusive Time,"
                         "Application Exclusive Time,Number of Calls,Module Name,Process Name,Process ID,\n");
  UNTIL (text, bytes)
    g_string_append_printf (text,
                            "\"Root\",\"Shape::Function%u\",%u,%u,%u,%u,%u,\"shape.exe\",\"shape.exe\",1512,\n"
                            "\"Caller\",\"Shape::Caller%u\",%u,%u,%u,%u,1,\"shape.exe\",\"shape.exe\",1512,\n"
                            "\"Callee\",\"Shape::Callee%u\",%u,%u,%u,%u,1,\"shape.exe\",\"shape.exe\",1512,\n",
                            i, 1000 + i % 77, 100 + i % 13, 900 + i % 77, 90 + i % 13, 1 + i % 5,
                            i % 1000, 1000 + i % 77, 100 + i % 13, 900 + i % 77, 90 + i % 13,
                            i % 997, 500 + i % 31, 500 + i % 31, 450 + i % 31, 450 + i % 31);
}

/* A function report of names of a mebibyte */
static void
write_vs_long_lines (GString *text,
                     gsize    bytes)
{
  g_string_append (text, "Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,Module Name,\n");
  UNTIL (text, bytes)
    {
      g_string_append (text, "\"Shape::");
      for (guint k = 0; k < 1024 * 1024; k++)
        g_string_append_c (text, 'a' + (char) ((i + k) % 26));
      g_string_append_printf (text, "\",%u,%u,%u,\"shape.exe\",\n", 1 + i, 100 + i, 10 + i);
    }
}

/* The shapes ---------------------------------------------------------------- */

typedef struct
{
  const char *format;
  const char *name;
  const char *file_name;  /* what the file is called, for sniffing as a user's would be */
  void      (*write) (GString *text,
                      gsize    bytes);
  gsize       bytes;      /* about the file's size */
  const char *commands;   /* run besides info, space-separated */
  gboolean    saved;      /* also read as a saved run made from it */
  const char *left_out;   /* commands (info too) not run unless
                           * PERFSCOPE_TEST_ALL_SHAPES is set: those still
                           * out of proportion, each with its reason */
} Shape;

#define MB (1000 * 1000)

static const Shape shapes[] = {
  { "ce-perflog", "sessions", "sessions_CEPC_x86_6_0_3122.log", write_ce_sessions, 4 * MB, "stats", TRUE },
  /* `info` writes a JSON object of 200 bytes for a session of a 41-byte
   * line: written as it is made (src/cli/ps-cli-info.c), 17.5 MiB for
   * 2 MB, not built as a json-glib tree first, which took 114 MiB (issue 30) */
  { "ce-perflog", "short-sessions", "short_CEPC_x86_6_0_3122.log", write_ce_short_sessions, 2 * MB, "stats", FALSE },
  /* Issue 30: 1.2 MB took `info` 13 s and 4.6 GB */
  { "ce-perflog", "app-registrations", "harness_CEPC_x86_6_0_3122.log", write_ce_app_registrations, 1200 * 1000,
    "stats", TRUE },
  { "ce-perflog", "marker-registrations", "regperf_CEPC_x86_6_0_3122.log", write_ce_marker_registrations, 4 * MB,
    "stats", TRUE },
  { "ce-perflog", "marker-names", "fsperf_CEPC_x86_6_0_3122.log", write_ce_marker_names, 4 * MB, "stats", FALSE },
  { "ce-perflog", "apps", "apps_CEPC_x86_6_0_3122.log", write_ce_apps, 4 * MB, "stats", FALSE },
  { "ce-perflog", "unregistered", "ghost_CEPC_x86_6_0_3122.log", write_ce_unregistered, 4 * MB, "stats", FALSE },
  { "ce-perflog", "bad-lines", "bad_CEPC_x86_6_0_3122.log", write_ce_bad_lines, 4 * MB, "stats", FALSE },
  { "ce-perflog", "long-lines", "long_CEPC_x86_6_0_3122.log", write_ce_long_lines, 4 * MB, "stats", FALSE },

  /* Issue 30: 5.8 MB of nested scopes took `calltree` 420 MB, then
   * 69–83 MiB, the stats of every node of the tree it writes made and
   * kept; 57 MiB (10 times the file) since it copies them one by one
   * (ps_call_tree_copy_node_stats) */
  { "rtl-logfile", "deep", "deep_4711.log", write_rtl_deep, 5800 * 1000, "stats calltree", FALSE },
  /* The call tree kept room for 64 frames of every thread from its
   * first: 113 MiB for 4 MB of 36 000 threads; 30 MiB since it starts
   * with room for 4 */
  { "rtl-logfile", "threads", "threads_4711.log", write_rtl_threads, 4 * MB, "stats calltree", TRUE },
  { "rtl-logfile", "names", "names_4711.log", write_rtl_names, 4 * MB, "stats calltree", FALSE },
  { "rtl-logfile", "marks", "marks_4711.log", write_rtl_marks, 4 * MB, "stats", FALSE },
  { "rtl-logfile", "unmatched", "unmatched_4711.log", write_rtl_unmatched, 4 * MB, "stats", FALSE },
  /* `info` built a JSON object for each session as a json-glib tree: 82
   * MiB for 4 MB; written as it is made, 23 MiB */
  { "rtl-logfile", "sessions", "sessions_4711.log", write_rtl_sessions, 4 * MB, "stats", FALSE },
  { "rtl-logfile", "long-lines", "long_4711.log", write_rtl_long_lines, 4 * MB, "stats calltree", FALSE },

  { "pdh-csv", "counters", "counters.csv", write_pdh_counters_csv, 4 * MB, "counters", TRUE },
  /* A counter takes about 390 bytes against 10 of the file: in the
   * store its series (128), track (48), overview (40) and name, and the
   * PDH parser's column (src/engine/formats/ps-format-pdh-csv.c):
   * 111 MiB for 2.9 MB, 40 times the file (issue 30); without the
   * series and overviews, 75 MiB against the 62 MiB allowed */
  { "pdh-csv", "short-names", "short.tsv", write_pdh_short_names_tsv, 3 * MB, "counters", FALSE, "info counters" },
  /* 7.8 MB of 222 000 counters take 254 MiB, 34 times the file: the
   * store's PsCounterSeries (128 bytes) for every track index up to the
   * last counter's, three of four not a counter's (src/engine/
   * ps-event-store.c, counter_series_of), 108 MiB; without any series
   * it would still take 146 MiB (four tracks, their names, the parser's
   * columns) against the 99 MiB allowed (issue 30) */
  { "pdh-csv", "own-machines", "own.tsv", write_pdh_own_machines_tsv, 8 * MB, "counters", FALSE,
    "info counters" },
  { "pdh-csv", "rows", "rows.csv", write_pdh_rows, 4 * MB, "counters", FALSE },
  /* Issue 30: 17 MB of odd columns took `info` 1.37 GB */
  { "pdh-csv", "odd-columns", "odd.tsv", write_pdh_odd_columns_tsv, 4 * MB, "counters", FALSE },
  { "pdh-csv", "long-lines", "long.csv", write_pdh_long_lines, 4 * MB, "counters", FALSE },

  { "perflib-plv2", "samples", "samples.plv2", write_plv2_samples, 4 * MB, "counters", TRUE },
  { "perflib-plv2", "counters", "counters.plv2", write_plv2_counters, 4 * MB, "counters", FALSE },
  { "perflib-plv2", "instances", "instances.plv2", write_plv2_instances, 4 * MB, "counters", FALSE },

  { "pmcstat-callgraph", "deep", "deep.txt", write_pmcstat_deep, 4 * MB, "calltree", FALSE },
  { "pmcstat-callgraph", "functions", "functions.txt", write_pmcstat_functions, 2 * MB, "calltree", TRUE },
  { "pmcstat-callgraph", "events", "events.txt", write_pmcstat_events, 2 * MB, "calltree", FALSE },
  { "pmcstat-callgraph", "long-lines", "long.txt", write_pmcstat_long_lines, 4 * MB, "calltree", FALSE },

  /* The call tree of call chains of 512 frames took 136 MiB for 4 MB,
   * 34 times the file, most of it the stats of its 512 000 nodes made
   * while they were written; 63 MiB (16 times) since they are copied
   * one by one (issue 30) */
  { "hwpmc-pmclog", "callchains", "callchains.pmclog", write_hwpmc_callchains, 4 * MB, "calltree", FALSE },
  { "hwpmc-pmclog", "threads", "threads.pmclog", write_hwpmc_threads, 4 * MB, "calltree", TRUE },
  { "hwpmc-pmclog", "processes", "processes.pmclog", write_hwpmc_processes, 2 * MB, "calltree", FALSE },
  { "hwpmc-pmclog", "addresses", "addresses.pmclog", write_hwpmc_addresses, 2 * MB, "calltree", FALSE },

  { "vs-report-csv", "deep", "deep_cc.csv", write_vs_deep, 4 * MB, "calltree", TRUE },
  { "vs-report-csv", "functions", "functions_cc.csv", write_vs_functions, 4 * MB, "calltree stats", TRUE },
  { "vs-report-csv", "long-lines", "long_cc.csv", write_vs_long_lines, 4 * MB, "calltree", FALSE },
};

/* Running the CLI --------------------------------------------------------- */

typedef struct
{
  int      status;        /* exit status, or -1 when ended by a signal */
  guint64  peak_bytes;
  double   seconds;
  char    *err;           /* the start of the standard error */
} Run;

static void
run_free (Run *run)
{
  g_free (run->err);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

static void
limit_address_space (gpointer data)
{
  const guint64 *limit = data;
  struct rlimit rl;

  rl.rlim_cur = rl.rlim_max = (rlim_t) *limit;
  setrlimit (RLIMIT_AS, &rl);
}

/* Runs perfscope-cli with args (NULL-terminated), its output thrown away,
 * and measures its peak resident memory. The child's peak (ru_maxrss) is
 * at least this process's own when it started it (Linux keeps the
 * larger of the two at exec), so this process keeps small: the inputs
 * are made in children of their own. */
static Run *
run_cli (const char * const *args,
         guint64             address_space)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GString) err = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("PERFSCOPE_CLI");
  gint64 start = g_get_monotonic_time ();
  Run *run = g_new0 (Run, 1);
  struct rusage usage;
  struct pollfd fd;
  int err_fd, wait_status;
  GPid pid;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_async_with_pipes (NULL, (char **) argv->pdata, NULL,
                            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                            MEASURES_MEMORY ? limit_address_space : NULL, &address_space,
                            &pid, NULL, NULL, &err_fd, &error);
  g_assert_no_error (error);

  /* The standard error until it closes, or until the run has taken too long */
  fd.fd = err_fd;
  fd.events = POLLIN;
  for (;;)
    {
      char buffer[4096];
      gssize n;
      int ready = poll (&fd, 1, 250);

      if (ready < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (ready, >=, 0);
      if (g_get_monotonic_time () - start > RUN_TIMEOUT_MS * G_GINT64_CONSTANT (1000))
        {
          kill (pid, SIGKILL);
          g_string_append_printf (err, "[killed after %d s]", RUN_TIMEOUT_MS / 1000);
          break;
        }
      if (ready == 0)
        continue;
      n = read (err_fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      if (err->len < 4096)
        g_string_append_len (err, buffer, MIN (n, (gssize) (4096 - err->len)));
    }
  close (err_fd);

  while (wait4 (pid, &wait_status, 0, &usage) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  g_spawn_close_pid (pid);
  run->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  if (WIFSIGNALED (wait_status))
    g_string_append_printf (err, "[ended by signal %d]", WTERMSIG (wait_status));
  /* Kilobytes on Linux */
  run->peak_bytes = (guint64) usage.ru_maxrss * 1024;
  run->seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  run->err = g_string_free (g_steal_pointer (&err), FALSE);
  return run;
}

/* Runs `command` on path and checks it ended well within the memory
 * allowed for a file of that size */
static void
check_command (const Shape *shape,
               const char  *kind,
               const char  *path,
               guint64      file_bytes,
               const char  *command)
{
  const char *args[] = { "--quiet", command, path, NULL };
  g_auto(GStrv) left_out = g_strsplit (shape->left_out != NULL ? shape->left_out : "", " ", -1);
  guint64 limit = MEMORY_BASE_BYTES + MEMORY_PER_FILE_BYTE * file_bytes;
  g_autoptr(Run) run = NULL;

  if (g_strv_contains ((const char * const *) left_out, command) && g_getenv ("PERFSCOPE_TEST_ALL_SHAPES") == NULL)
    {
      g_test_message ("| %s | %s%s | %s | left out |", shape->format, shape->name, kind, command);
      return;
    }
  run = run_cli (args, ADDRESS_SPACE_FACTOR * limit + ADDRESS_SPACE_BASE_BYTES);

  /* One line of the table the issue asks for: shape, size, peak, multiple, time */
  g_test_message ("| %s | %s%s | %s | %.2f MB | %.1f MiB | %.2f | %.2f s |",
                  shape->format, shape->name, kind, command, file_bytes / 1e6, run->peak_bytes / MIB,
                  (double) run->peak_bytes / (double) file_bytes, run->seconds);
  if (run->status != 0)
    g_test_message ("%s: exit %d: %s", command, run->status, run->err);
  /* Read whole, with warnings (0), or in part (3): never killed */
  g_assert_cmpint (run->status, >=, 0);
  g_assert_true (run->status == 0 || run->status == 3);
  g_assert_null (strstr (run->err, "Sanitizer"));
  g_assert_null (strstr (run->err, "runtime error"));
  if (MEASURES_MEMORY)
    g_assert_cmpuint (run->peak_bytes, <=, limit);
}

/* This test's program, run again to make inputs in a process of their own */
static char *self_path;

static const Shape *
find_shape (const char *format,
            const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (strcmp (shapes[i].format, format) == 0 && strcmp (shapes[i].name, name) == 0)
      return &shapes[i];
  return NULL;
}

/* In the child: writes the shape's file to path */
static int
write_shape (const char *format,
             const char *name,
             const char *path)
{
  const Shape *shape = find_shape (format, name);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  if (shape == NULL)
    return 2;
  shape->write (text, shape->bytes / SIZE_DIVISOR);
  if (!g_file_set_contents (path, text->str, (gssize) text->len, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  return 0;
}

/* In the child: the file at path, as the engine reads it, saved as a run */
static int
save_run (const char *path,
          const char *saved_path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) saved = g_file_new_for_path (saved_path);
  g_autofree char *base = g_path_get_basename (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;

  stream = g_file_read (file, NULL, &error);
  if (stream != NULL)
    store = ps_load_stream (G_INPUT_STREAM (stream), base, NULL, NULL, &error);
  if (store == NULL || !ps_native_save (store, saved, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  return 0;
}

/* Runs this program with args in a child, which must succeed */
static void
run_self (const char *first,
          ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  const char *arg;
  int wait_status;
  va_list args;

  g_ptr_array_add (argv, self_path);
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                NULL, &err, &wait_status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (wait_status, &error))
    g_test_message ("%s %s: %s", self_path, first, err);
  g_assert_no_error (error);
}

static void
test_shape (gconstpointer data)
{
  const Shape *shape = data;
  g_autofree char *dir = g_dir_make_tmp ("perfscope-shapes-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, shape->file_name, NULL);
  g_auto(GStrv) commands = g_strsplit (shape->commands, " ", -1);
  GStatBuf info;

  run_self ("--write-shape", shape->format, shape->name, path, NULL);
  g_assert_cmpint (g_stat (path, &info), ==, 0);
  /* The shape is what it says at the size it says */
  g_assert_cmpint (info.st_size, >=, 1 * MB / SIZE_DIVISOR);
  g_assert_cmpint (info.st_size, <=, 20 * MB);

  check_command (shape, "", path, (guint64) info.st_size, "info");
  for (guint c = 0; commands[c] != NULL; c++)
    check_command (shape, "", path, (guint64) info.st_size, commands[c]);

  if (shape->saved)
    {
      g_autofree char *saved = g_strconcat (path, ".perfscope", NULL);

      run_self ("--save-run", path, saved, NULL);
      g_assert_cmpint (g_stat (saved, &info), ==, 0);
      check_command (shape, " (saved)", saved, (guint64) info.st_size, "info");
      for (guint c = 0; commands[c] != NULL; c++)
        check_command (shape, " (saved)", saved, (guint64) info.st_size, commands[c]);
      g_remove (saved);
    }

  g_remove (path);
  g_rmdir (dir);
}

/* The measurement itself: an empty run peaks well below the constant,
 * and one that holds 64 MiB is seen to */
static void
test_measure (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-shapes-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "empty_CEPC_x86_6_0_3122.log", NULL);
  const char *args[] = { "--quiet", "info", path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(Run) empty = NULL;
  g_autoptr(Run) held = NULL;

  g_file_set_contents (path, "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n", -1, &error);
  g_assert_no_error (error);
  empty = run_cli (args, G_MAXUINT64);
  g_test_message ("an empty run: %.1f MiB", empty->peak_bytes / MIB);
  g_assert_cmpint (empty->status, ==, 0);
  g_assert_cmpuint (empty->peak_bytes, >, 0);
  if (MEASURES_MEMORY)
    g_assert_cmpuint (empty->peak_bytes, <, MEMORY_BASE_BYTES / 2);

  /* This program, touching 64 MiB in a child */
  {
    const char *hold_args[] = { "--hold", NULL };
    const char *cli = g_getenv ("PERFSCOPE_CLI");

    g_setenv ("PERFSCOPE_CLI", self_path, TRUE);
    held = run_cli (hold_args, G_MAXUINT64);
    g_setenv ("PERFSCOPE_CLI", cli, TRUE);
  }
  g_test_message ("a run holding 64 MiB: %.1f MiB", held->peak_bytes / MIB);
  g_assert_cmpint (held->status, ==, 0);
  g_assert_cmpuint (held->peak_bytes, >=, 64 * 1024 * 1024);

  g_remove (path);
  g_rmdir (dir);
}

/* In the child: 64 MiB, written to */
static int
hold_memory (void)
{
  gsize size = 64 * 1024 * 1024;
  volatile char *block = g_malloc (size);

  for (gsize i = 0; i < size; i += 4096)
    block[i] = (char) i;
  g_free ((char *) block);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  /* The children this test runs */
  if (argc == 5 && strcmp (argv[1], "--write-shape") == 0)
    return write_shape (argv[2], argv[3], argv[4]);
  if (argc == 4 && strcmp (argv[1], "--save-run") == 0)
    return save_run (argv[2], argv[3]);
  if (argc == 2 && strcmp (argv[1], "--hold") == 0)
    return hold_memory ();

  self_path = strchr (argv[0], G_DIR_SEPARATOR) != NULL ? g_canonicalize_filename (argv[0], NULL)
                                                       : g_find_program_in_path (argv[0]);
  g_test_init (&argc, &argv, NULL);
  /* Every command of a shape is measured, and shown, after one fails */
  g_test_set_nonfatal_assertions ();
  signal (SIGPIPE, SIG_IGN);

  g_test_add_func ("/memory-shapes/measure", test_measure);
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *name = g_strdup_printf ("/memory-shapes/%s/%s", shapes[i].format, shapes[i].name);

      g_test_add_data_func (name, &shapes[i], test_shape);
    }

  return g_test_run ();
}

/* test-pdh-csv.c — the PDH CSV/TSV reader against its specification
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 (PDH text logs) and §9.5 (the cases a reader
 * must survive, named in each test). The files in data/pdh-csv/ are
 * constructed after the spec: a logman log with a time zone, typeperf's
 * stdout, a relog TSV with the hard counter paths, UTF-16LE, UTF-8 with a
 * BOM and Windows-1252.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "parse-fixture.h"
#include "ps-error.h"
#include "ps-format.h"
#include "ps-loader.h"

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define NS_PER_S  G_GINT64_CONSTANT (1000000000)

/* Loading */

/* Feeds data in pieces of `piece` bytes, or in two pieces split at `split`
 * when piece is 0 */
static PsEventStore *
parse_pieces (const char *data,
              gsize       length,
              gsize       piece,
              gsize       split)
{
  return parse_fixture_pieces (&ps_format_pdh_csv, (const guint8 *)data, length, piece, split, NULL);
}

static PsEventStore *
parse_bytes (const char *data,
             gsize       length)
{
  return parse_pieces (data, length, MAX (length, 1), 0);
}

static PsEventStore *
parse (const char *text)
{
  return parse_bytes (text, strlen (text));
}

/* The fatal error of a text that is no PDH log; fails if there is none */
static GError *
parse_failing (const char *text)
{
  return parse_fixture_fatal_error (&ps_format_pdh_csv, text);
}

static char *
read_data (const char *name,
           gsize      *length)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

/* Loads a file as the application does: sniffed, in small chunks */
static PsEventStore *
load_file (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", name, NULL);
  PsEventStore *store = parse_fixture_load_file (path, 64);

  g_assert_cmpstr (ps_event_store_get_format (store), ==, "pdh-csv");
  return store;
}

/* Looking at the result */

static const char *
str (PsEventStore *store,
     guint32       id)
{
  return ps_event_store_get_string (store, id);
}

/* The counter track of a path (the original path is the track's category) */
static guint32
counter_track (PsEventStore *store,
               const char   *path)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == PS_TRACK_COUNTER && g_strcmp0 (str (store, track->category), path) == 0)
        return t;
    }
  g_test_message ("no counter track for %s", path);
  g_assert_not_reached ();
  return PS_NONE;
}

static gboolean
has_counter (PsEventStore *store,
             const char   *path)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == PS_TRACK_COUNTER && g_strcmp0 (str (store, track->category), path) == 0)
        return TRUE;
    }
  return FALSE;
}

static guint
count_tracks (PsEventStore *store,
              PsTrackKind   kind)
{
  guint n = 0;

  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    if (ps_event_store_get_track (store, t)->kind == kind)
      n++;
  return n;
}

typedef struct
{
  const char *path;
  const char *machine;   /* NULL: the object has no parent */
  const char *object;
  const char *instance;  /* NULL: single instance */
  const char *parent;    /* the parent instance, "" if none */
  gint64      index;
  const char *counter;
  const char *unit;      /* "" if none */
} ExpectedCounter;

static void
assert_counter (PsEventStore          *store,
                const ExpectedCounter *expected)
{
  guint32 index = counter_track (store, expected->path);
  const PsTrack *counter = ps_event_store_get_track (store, index);
  const PsTrack *object;

  g_test_message ("path %s", expected->path);
  g_assert_cmpstr (str (store, counter->name), ==, expected->counter);
  g_assert_cmpstr (str (store, counter->unit), ==, expected->unit);
  g_assert_cmpuint (counter->parent, !=, PS_NONE);

  object = ps_event_store_get_track (store, counter->parent);
  if (expected->instance != NULL)
    {
      const PsTrack *instance = object;

      g_assert_cmpint (instance->kind, ==, PS_TRACK_INSTANCE);
      g_assert_cmpstr (str (store, instance->name), ==, expected->instance);
      g_assert_cmpstr (str (store, instance->category), ==, expected->parent);
      g_assert_cmpint (instance->number, ==, expected->index);
      object = ps_event_store_get_track (store, instance->parent);
    }
  g_assert_cmpint (object->kind, ==, PS_TRACK_OBJECT);
  g_assert_cmpstr (str (store, object->name), ==, expected->object);
  if (expected->machine == NULL)
    g_assert_cmpuint (object->parent, ==, PS_NONE);
  else
    {
      const PsTrack *machine = ps_event_store_get_track (store, object->parent);

      g_assert_cmpint (machine->kind, ==, PS_TRACK_MACHINE);
      g_assert_cmpstr (str (store, machine->name), ==, expected->machine);
      g_assert_cmpuint (machine->parent, ==, PS_NONE);
    }
}

/* The n-th value (0-based) of a counter track */
static const PsCounterValue *
value_of (PsEventStore *store,
          guint32       track,
          guint         n)
{
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track == track && n-- == 0)
        return value;
    }
  g_assert_not_reached ();
  return NULL;
}

static guint
n_values_of (PsEventStore *store,
             guint32       track)
{
  guint n = 0;

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    if (ps_event_store_get_counter_value (store, i)->track == track)
      n++;
  return n;
}

static void
assert_value (PsEventStore *store,
              const char   *path,
              guint         n,
              gint64        time_ns,
              double        expected)
{
  const PsCounterValue *value = value_of (store, counter_track (store, path), n);

  g_assert_cmpint (value->time_ns, ==, time_ns);
  g_assert_cmpuint (value->flags, ==, PS_COUNTER_FLAG_NONE);
  g_assert_cmpfloat (value->value, ==, expected);
}

static void
assert_missing (PsEventStore *store,
                const char   *path,
                guint         n,
                gint64        time_ns)
{
  const PsCounterValue *value = value_of (store, counter_track (store, path), n);

  g_assert_cmpint (value->time_ns, ==, time_ns);
  g_assert_cmpuint (value->flags, ==, PS_COUNTER_FLAG_MISSING);
  g_assert_true (isnan (value->value));
}

/* The first warning with that code; fails if there is none */
static PsWarning
find_warning (PsEventStore *store,
              const char   *code)
{
  PsWarning warning = { 0 };

  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      ps_event_store_get_warning (store, i, &warning);
      if (g_strcmp0 (warning.code, code) == 0)
        return warning;
    }
  g_test_message ("no warning %s", code);
  g_assert_not_reached ();
  return warning;
}

static guint
count_warnings (PsEventStore *store,
                const char   *code)
{
  guint n = 0;

  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      if (code == NULL || g_strcmp0 (warning.code, code) == 0)
        n++;
    }
  return n;
}

static const char *
metadata (PsEventStore *store,
          const char   *key)
{
  return ps_event_store_get_metadata (store, 0, key);
}

static gint64
origin (PsEventStore *store)
{
  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 1);
  return ps_event_store_get_session (store, 0)->origin_unix_ns;
}

/* Everything a parse produced, as text, to compare parses */
static char *
describe_store (PsEventStore *store)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GArray) entries = NULL;

  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      g_string_append_printf (out, "track %u kind %u name %s cat %s parent %u num %" G_GINT64_FORMAT
                              " unit %s line %" G_GUINT64_FORMAT "\n",
                              t, track->kind, str (store, track->name), str (store, track->category),
                              track->parent, track->number, str (store, track->unit), track->line);
    }
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      g_string_append_printf (out, "value %u %" G_GINT64_FORMAT " %u %.17g\n",
                              value->track, value->time_ns, value->flags, value->value);
    }
  for (guint s = 0; s < ps_event_store_get_n_sessions (store); s++)
    {
      const PsSessionInfo *session = ps_event_store_get_session (store, s);

      g_string_append_printf (out, "session %u %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " origin %" G_GINT64_FORMAT "\n",
                              s, session->first_line, session->last_line, session->origin_unix_ns);
      entries = ps_event_store_list_metadata (store, s);
      for (guint i = 0; i < entries->len; i++)
        {
          const PsMetadataEntry *entry = &g_array_index (entries, PsMetadataEntry, i);

          g_string_append_printf (out, "meta %s=%s\n", entry->key, entry->value);
        }
      g_clear_pointer (&entries, g_array_unref);
    }
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_string_append_printf (out, "warning %s %" G_GUINT64_FORMAT " %s\n", warning.code, warning.line, warning.message);
    }

  return g_string_free (out, FALSE);
}

/* §7.2: logman with a time zone and bias; blanks, a short row, bad text */

static const char PROCESSOR[] = "\\\\WS01\\Processor(_Total)\\% Processor Time";
static const char MEMORY[] = "\\\\WS01\\Memory\\Available MBytes";
static const char DISK[] = "\\\\WS01\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read";
static const char SVCHOST3[] = "\\\\WS01\\Process(svchost#3)\\Working Set";
static const char THREAD[] = "\\\\WS01\\Thread(explorer/0)\\Context Switches/sec";
static const char SVCHOST[] = "\\\\WS01\\Process(svchost)\\Working Set";

static void
test_logman (void)
{
  g_autoptr(PsEventStore) store = load_file ("logman-pdt.csv");
  static const ExpectedCounter expected[] = {
    { PROCESSOR, "WS01", "Processor", "_Total", "", 0, "% Processor Time", "%" },
    { MEMORY, "WS01", "Memory", NULL, NULL, 0, "Available MBytes", "MB" },
    { DISK, "WS01", "PhysicalDisk", "0 C:", "", 0, "Avg. Disk sec/Read", "s" },
    { SVCHOST3, "WS01", "Process", "svchost", "", 3, "Working Set", "bytes" },
    { THREAD, "WS01", "Thread", "0", "explorer", 0, "Context Switches/sec", "/sec" },
    { SVCHOST, "WS01", "Process", "svchost", "", 0, "Working Set", "bytes" },
  };
  PsWarning warning;

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    assert_counter (store, &expected[i]);

  /* One machine, four objects, four instances (svchost and svchost#3 apart) */
  g_assert_cmpuint (count_tracks (store, PS_TRACK_MACHINE), ==, 1);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_OBJECT), ==, 5);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_INSTANCE), ==, 5);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_COUNTER), ==, 6);
  g_assert_cmpuint (ps_event_store_get_track (store, counter_track (store, SVCHOST3))->parent, !=,
                    ps_event_store_get_track (store, counter_track (store, SVCHOST))->parent);
  /* The counter's column */
  g_assert_cmpint (ps_event_store_get_track (store, counter_track (store, THREAD))->number, ==, 5);

  /* Bias 420: UTC = local + 7 h. 06/15/2024 10:00 PDT is 17:00 UTC */
  g_assert_cmpint (origin (store), ==, G_GINT64_CONSTANT (1718470800000) * NS_PER_MS);
  g_assert_cmpstr (metadata (store, "time_zone"), ==, "Pacific Daylight Time");
  g_assert_cmpstr (metadata (store, "time_zone_bias_minutes"), ==, "420");
  g_assert_cmpstr (metadata (store, "pdh_format"), ==, "PDH-CSV");
  g_assert_cmpstr (metadata (store, "pdh_version"), ==, "4.0");
  g_assert_cmpstr (metadata (store, "encoding"), ==, "UTF-8");

  /* Three rows kept (line 4 has too few fields); six values each */
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 18);
  assert_missing (store, PROCESSOR, 0, 0);
  assert_value (store, PROCESSOR, 1, 1 * NS_PER_S, 11.296813511113458);
  assert_value (store, PROCESSOR, 2, 2500 * NS_PER_MS, -1);
  assert_value (store, MEMORY, 0, 0, 8123);
  assert_value (store, MEMORY, 2, 2500 * NS_PER_MS, 1.5e10);
  assert_missing (store, DISK, 0, 0);
  assert_value (store, DISK, 1, 1 * NS_PER_S, 0.00052);
  assert_missing (store, DISK, 2, 2500 * NS_PER_MS);   /* "n/a" */
  assert_value (store, SVCHOST3, 2, 2500 * NS_PER_MS, 10498048);
  assert_value (store, THREAD, 1, 1 * NS_PER_S, 152.98765);
  assert_value (store, THREAD, 2, 2500 * NS_PER_MS, 0);

  warning = find_warning (store, "W-PDH-FIELDS");
  g_assert_cmpuint (warning.line, ==, 4);
  g_assert_nonnull (strstr (warning.message, "5"));
  g_assert_nonnull (strstr (warning.message, "7"));
  warning = find_warning (store, "W-PDH-VALUE");
  g_assert_cmpuint (warning.line, ==, 5);
  g_assert_nonnull (strstr (warning.message, "n/a"));
  g_assert_cmpuint (count_warnings (store, NULL), ==, 2);
  g_assert_cmpuint (ps_event_store_get_session (store, 0)->last_line, ==, 5);
}

/* §7.2 "typeperf to stdout": blank line before, messages after, no time zone */
static void
test_typeperf (void)
{
  g_autoptr(PsEventStore) store = load_file ("typeperf-stdout.csv");
  const char *processor = "\\\\HOST\\Processor(_Total)\\% Processor Time";
  const char *pages = "\\\\HOST\\Memory\\Pages/sec";
  PsWarning warning;

  g_assert_cmpuint (count_tracks (store, PS_TRACK_COUNTER), ==, 2);
  g_assert_cmpstr (str (store, ps_event_store_get_track (store, counter_track (store, pages))->unit), ==, "/sec");
  /* No bias: the wall-clock start is unknown, the local time is kept */
  g_assert_cmpint (origin (store), ==, 0);
  g_assert_null (metadata (store, "time_zone"));
  g_assert_cmpstr (metadata (store, "first_sample_local"), ==, "01/02/2024 08:00:00.123");
  g_assert_cmpuint (ps_event_store_get_session (store, 0)->first_line, ==, 2);

  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 4);
  assert_value (store, processor, 0, 0, 12.5);
  assert_value (store, processor, 1, 1002 * NS_PER_MS, 9.75);
  assert_value (store, pages, 1, 1002 * NS_PER_MS, 3);

  find_warning (store, "I-PDH-NO-TIME-ZONE");
  warning = find_warning (store, "I-PDH-SKIPPED");
  g_assert_cmpuint (warning.line, ==, 5);
  g_assert_nonnull (strstr (warning.message, "2 lines"));
  g_assert_cmpuint (count_warnings (store, NULL), ==, 2);
}

/* §7.2 hard names, §9.5 #5, #6: TSV, LF, no final newline */
static void
test_tsv_hard_names (void)
{
  g_autoptr(PsEventStore) store = load_file ("relog-ist.tsv");
  static const ExpectedCounter expected[] = {
    { "\\\\SRV\\MSSQL$INST:Buffer Manager\\Page life expectancy",
      "SRV", "MSSQL$INST:Buffer Manager", NULL, NULL, 0, "Page life expectancy", "" },
    { "\\\\SRV\\SQLServer:Wait Statistics(Average wait time (ms))\\Lock waits",
      "SRV", "SQLServer:Wait Statistics", "Average wait time (ms)", "", 0, "Lock waits", "" },
    { "\\\\SRV\\Network Interface(Realtek Gaming 2.5GbE, PCIe)\\Bytes Total/sec",
      "SRV", "Network Interface", "Realtek Gaming 2.5GbE, PCIe", "", 0, "Bytes Total/sec", "bytes/sec" },
    { "\\\\SRV\\Thermal Zone Information(\\_TZ.TZ00)\\Temperature",
      "SRV", "Thermal Zone Information", "\\_TZ.TZ00", "", 0, "Temperature", "" },
    { "\\\\SRV\\SMB Server Shares(\\\\server\\share)\\Avg. sec/Read",
      "SRV", "SMB Server Shares", "\\\\server\\share", "", 0, "Avg. sec/Read", "s" },
    { "\\Memory\\Pages/sec",
      NULL, "Memory", NULL, NULL, 0, "Pages/sec", "/sec" },
    { "\\\\SRV\\Network Adapter(Intel[R] Ethernet Connection [7] I219-LM)\\Packets/sec",
      "SRV", "Network Adapter", "Intel[R] Ethernet Connection [7] I219-LM", "", 0, "Packets/sec", "/sec" },
    { "\\\\SRV\\SQLServer:Databases(_Total)\\Log Flush Wait Time (ms)",
      "SRV", "SQLServer:Databases", "_Total", "", 0, "Log Flush Wait Time (ms)", "ms" },
    /* Not an object with parents: the '/' stays; only the final #digits split */
    { "\\\\SRV\\Process(C#/x#12)\\% Processor Time",
      "SRV", "Process", "C#/x", "", 12, "% Processor Time", "%" },
    { "\\\\SRV\\Widget(say \"hi\")\\Count",
      "SRV", "Widget", "say \"hi\"", "", 0, "Count", "" },
    { "\\\\SRV\\Thread(svchost/3#2)\\Priority Current",
      "SRV", "Thread", "3", "svchost", 2, "Priority Current", "" },
    { "\\\\SRV\\Memory\\Available MBytes",
      "SRV", "Memory", NULL, NULL, 0, "Available MBytes", "MB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    assert_counter (store, &expected[i]);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_COUNTER), ==, G_N_ELEMENTS (expected));
  /* \Memory (no machine) and \\SRV\Memory are different objects */
  g_assert_cmpuint (count_tracks (store, PS_TRACK_OBJECT), ==, 12);

  g_assert_cmpstr (metadata (store, "pdh_format"), ==, "PDH-TSV");
  g_assert_cmpstr (metadata (store, "time_zone"), ==, "India Standard Time");
  /* Bias −330: 03/10/2024 00:00 IST is 03/09/2024 18:30 UTC */
  g_assert_cmpint (origin (store), ==, G_GINT64_CONSTANT (1710009000000) * NS_PER_MS);

  /* An entire first row of blanks, then the values of the row without a final newline */
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 2 * G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      assert_missing (store, expected[i].path, 0, 0);
      assert_value (store, expected[i].path, 1, 15 * NS_PER_S, i + 0.5);
    }
  g_assert_cmpuint (count_warnings (store, NULL), ==, 0);
}

/* §9.5 #1, #2: UTF-16LE BOM, a time-zone name with commas and nested
 * parentheses, Cyrillic and Japanese names */
static void
test_utf16le (void)
{
  g_autoptr(PsEventStore) store = load_file ("utf16le.csv");
  static const ExpectedCounter expected[] = {
    { "\\\\СЕРВЕР\\Процессор(_Total)\\% загруженности процессора",
      "СЕРВЕР", "Процессор", "_Total", "", 0, "% загруженности процессора", "%" },
    { "\\\\СЕРВЕР\\メモリ\\使用可能メモリ (MB)",
      "СЕРВЕР", "メモリ", NULL, NULL, 0, "使用可能メモリ (MB)", "MB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    assert_counter (store, &expected[i]);
  g_assert_cmpstr (metadata (store, "time_zone"), ==, "Paris, Madrid (heure d’été)");
  g_assert_cmpstr (metadata (store, "time_zone_bias_minutes"), ==, "-120");
  g_assert_cmpstr (metadata (store, "encoding"), ==, "UTF-16LE");
  /* 07/01/2024 12:00 at bias −120 is 10:00 UTC */
  g_assert_cmpint (origin (store), ==, G_GINT64_CONSTANT (1719828000000) * NS_PER_MS);
  assert_value (store, expected[0].path, 0, 0, 42.5);
  assert_value (store, expected[0].path, 1, NS_PER_S, 43);
  assert_value (store, expected[1].path, 0, 0, 1024);
  assert_missing (store, expected[1].path, 1, NS_PER_S);
}

/* §9.5 #2, #9: Windows-1252 without BOM; a file over midnight and the year end */
static void
test_cp1252 (void)
{
  g_autoptr(PsEventStore) store = load_file ("cp1252.csv");
  const char *memory = "\\\\PC\\Mémoire\\Octets disponibles";
  PsWarning warning;

  assert_counter (store, &(ExpectedCounter) { memory, "PC", "Mémoire", NULL, NULL, 0, "Octets disponibles", "" });
  g_assert_cmpstr (metadata (store, "encoding"), ==, "Windows-1252");
  warning = find_warning (store, "I-CP1252");
  g_assert_cmpuint (warning.line, ==, 1);
  /* Bias 0 */
  g_assert_cmpint (origin (store), ==, G_GINT64_CONSTANT (1704067199500) * NS_PER_MS);
  assert_value (store, memory, 0, 0, 1000);
  assert_value (store, memory, 1, NS_PER_S, 2000);
}

static void
test_utf8_bom (void)
{
  g_autoptr(PsEventStore) store = load_file ("utf8-bom.csv");
  const char *memory = "\\\\ПК\\Память\\Доступно МБ";

  assert_counter (store, &(ExpectedCounter) { memory, "ПК", "Память", NULL, NULL, 0, "Доступно МБ", "" });
  g_assert_cmpstr (metadata (store, "encoding"), ==, "UTF-8");
  g_assert_cmpuint (count_warnings (store, NULL), ==, 0);
  /* Bias −300 (Yekaterinburg): 02/29/2024 05:00 is 00:00 UTC */
  g_assert_cmpint (origin (store), ==, G_GINT64_CONSTANT (1709164800000) * NS_PER_MS);
  assert_value (store, memory, 0, 0, 512);
}

/* Loads a file of tests/data/pdh-csv through the loader with parser options
 * (NULL-terminated key, value pairs) */
static PsEventStore *
load_file_with (const char *name,
                ...)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(GError) error = NULL;
  PsEventStore *store;
  const char *key;
  va_list args;

  va_start (args, name);
  while ((key = va_arg (args, const char *)) != NULL)
    ps_format_options_set (&options, key, va_arg (args, const char *));
  va_end (args);

  g_assert_nonnull (stream);
  store = ps_load_stream (G_INPUT_STREAM (stream), name, &(PsLoadParams) { .options = options, .chunk_size = 64 },
                          NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ps_event_store_is_complete (store));
  return store;
}

/* A Russian Performance Monitor log: Windows-1251, guessed from its words
 * in Cyrillic letters; the zone cut off after "(RTZ 2 (" */
static void
test_cp1251_guessed (void)
{
  g_autoptr(PsEventStore) store = load_file ("cp1251-cut-zone.csv");
  const char *cpu = "\\\\SRV01\\Процессор(_Total)\\% загруженности процессора";
  PsWarning warning;

  assert_counter (store, &(ExpectedCounter) { cpu, "SRV01", "Процессор", "_Total", "", 0,
                                              "% загруженности процессора", "%" });
  g_assert_cmpstr (metadata (store, "encoding"), ==, "Windows-1251");
  warning = find_warning (store, "I-CP1251");
  g_assert_cmpuint (warning.line, ==, 1);
  g_assert_cmpuint (count_warnings (store, "I-CP1252"), ==, 0);

  g_assert_cmpstr (metadata (store, "time_zone"), ==, "RTZ 2 (");
  g_assert_cmpstr (metadata (store, "time_zone_cut"), ==, "true");
  g_assert_null (metadata (store, "time_zone_bias_minutes"));
  warning = find_warning (store, "I-PDH-ZONE-CUT");
  g_assert_nonnull (strstr (warning.message, "(RTZ 2 ("));
  g_assert_cmpuint (count_warnings (store, "I-PDH-NO-TIME-ZONE"), ==, 0);
  g_assert_cmpint (origin (store), ==, 0);
  /* A blank cell is a missing value */
  assert_value (store, cpu, 1, NS_PER_S, 12.5);
}

/* Western European text stays Windows-1252; letters in runs of two
 * ("Größe") do not make it Cyrillic, but do not make it plain either */
static void
test_cp1252_guessed (void)
{
  g_autoptr(PsEventStore) spanish = load_file ("cp1252-spanish.csv");
  g_autofree char *german = NULL;
  g_autoptr(PsEventStore) ambiguous = NULL;

  g_assert_cmpstr (metadata (spanish, "encoding"), ==, "Windows-1252");
  g_assert_cmpuint (count_warnings (spanish, "I-CP1252"), ==, 1);
  g_assert_cmpuint (count_warnings (spanish, "W-ENCODING-GUESS"), ==, 0);
  g_assert_cmpstr (metadata (spanish, "time_zone"), ==, "Hora estándar romance");
  assert_counter (spanish, &(ExpectedCounter) { "\\\\PC\\Sistema\\Número de subprocesos", "PC", "Sistema", NULL,
                                                NULL, 0, "Número de subprocesos", "" });

  german = g_strdup ("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\PC\\Speicher\\Gr\xf6\xdf" "e\"\r\n"
                     "\"01/01/2024 00:00:00.000\",\"1\"\r\n");
  ambiguous = parse (german);
  g_assert_cmpstr (metadata (ambiguous, "encoding"), ==, "Windows-1252");
  g_assert_cmpuint (count_warnings (ambiguous, "W-ENCODING-GUESS"), ==, 1);
  g_assert_true (has_counter (ambiguous, "\\\\PC\\Speicher\\Größe"));
}

/* The "encoding" option names the code page; the "utc-offset" option
 * places local times that name no zone */
static void
test_encoding_and_offset_options (void)
{
  g_autoptr(PsEventStore) koi8 = load_file_with ("cp1251-cut-zone.csv", PS_FORMAT_OPTION_ENCODING, "KOI8-R", NULL);
  g_autoptr(PsEventStore) cp1251 = load_file_with ("cp1251-cut-zone.csv", PS_FORMAT_OPTION_ENCODING, "WINDOWS-1251",
                                                   PS_FORMAT_OPTION_UTC_OFFSET, "180", NULL);
  g_autoptr(PsEventStore) chinese = load_file_with ("utf8-cut-zone.csv", PS_FORMAT_OPTION_UTC_OFFSET, "480", NULL);
  const char *cpu = "\\\\SRV01\\Процессор(_Total)\\% загруженности процессора";

  /* What the user asked, even when it is not the log's */
  g_assert_cmpstr (metadata (koi8, "encoding"), ==, "KOI8-R");
  g_assert_cmpuint (count_warnings (koi8, "I-ENCODING"), ==, 1);
  g_assert_false (has_counter (koi8, cpu));

  g_assert_cmpstr (metadata (cp1251, "encoding"), ==, "WINDOWS-1251");
  g_assert_true (has_counter (cp1251, cpu));
  /* 12/02/2026 10:00 at UTC+3 is 07:00 UTC */
  g_assert_cmpstr (metadata (cp1251, "time_zone_bias_minutes"), ==, "-180");
  g_assert_cmpint (origin (cp1251), ==, G_GINT64_CONSTANT (1796194800) * NS_PER_S);
  g_assert_cmpuint (count_warnings (cp1251, "I-PDH-UTC-OFFSET"), ==, 1);
  g_assert_cmpuint (count_warnings (cp1251, "I-PDH-ZONE-CUT"), ==, 0);

  /* UTF-8, and the zone cut off to nothing */
  g_assert_cmpstr (metadata (chinese, "encoding"), ==, "UTF-8");
  g_assert_null (metadata (chinese, "time_zone"));
  g_assert_cmpstr (metadata (chinese, "time_zone_cut"), ==, "true");
  g_assert_cmpint (origin (chinese), ==, G_GINT64_CONSTANT (1796176800) * NS_PER_S);
  g_assert_true (has_counter (chinese, "\\\\PC\\处理器(_Total)\\% 处理器时间"));
}

/* Every chunk size and every split point gives the same store */
static void
assert_same_at_every_split (const char *data,
                            gsize       length)
{
  g_autoptr(PsEventStore) whole = parse_bytes (data, length);
  g_autofree char *expected = describe_store (whole);

  for (gsize piece = 1; piece <= length; piece++)
    {
      g_autoptr(PsEventStore) store = parse_pieces (data, length, piece, 0);
      g_autofree char *actual = describe_store (store);

      g_assert_cmpstr (actual, ==, expected);
    }
  for (gsize split = 0; split <= length; split++)
    {
      g_autoptr(PsEventStore) store = parse_pieces (data, length, 0, split);
      g_autofree char *actual = describe_store (store);

      g_assert_cmpstr (actual, ==, expected);
    }
}

static void
test_chunks (void)
{
  static const char * const files[] = {
    "logman-pdt.csv", "typeperf-stdout.csv", "relog-ist.tsv", "utf16le.csv", "cp1252.csv", "utf8-bom.csv",
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      gsize length;
      g_autofree char *data = read_data (files[i], &length);
      g_autoptr(PsEventStore) loaded = load_file (files[i]);
      g_autoptr(PsEventStore) parsed = parse_bytes (data, length);
      g_autofree char *from_loader = describe_store (loaded);
      g_autofree char *from_parser = describe_store (parsed);

      g_test_message ("%s", files[i]);
      g_assert_cmpstr (from_loader, ==, from_parser);
      assert_same_at_every_split (data, length);
    }
}

/* §7.2: CR LF and LF give the same result */
static void
test_line_ends (void)
{
  gsize length;
  g_autofree char *crlf = read_data ("logman-pdt.csv", &length);
  g_autoptr(GString) lf = g_string_new (NULL);
  g_autoptr(PsEventStore) a = NULL;
  g_autoptr(PsEventStore) b = NULL;
  g_autofree char *with_crlf = NULL;
  g_autofree char *with_lf = NULL;

  g_assert_nonnull (strstr (crlf, "\r\n"));
  for (gsize i = 0; i < length; i++)
    if (crlf[i] != '\r')
      g_string_append_c (lf, crlf[i]);

  a = parse_bytes (crlf, length);
  b = parse_bytes (lf->str, lf->len);
  with_crlf = describe_store (a);
  with_lf = describe_store (b);
  g_assert_cmpstr (with_crlf, ==, with_lf);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (b), ==, 18);
}

/* §9.5 #11: a plain CSV is rejected as "not a PDH log"; so is an empty file */
static void
test_not_pdh (void)
{
  g_autoptr(GError) plain = parse_failing ("\"Time\",\"Value\"\r\n\"1\",\"2\"\r\n");
  g_autoptr(GError) empty = parse_failing ("");
  g_autoptr(GError) blank = parse_failing ("\r\n\r\n");
  g_autoptr(GError) typeperf_error = parse_failing ("\r\nError: No valid counters.\r\n");
  guint score = 0;

  g_assert_error (plain, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (plain->message, "not a PDH log"));
  g_assert_nonnull (strstr (plain->message, "Line 1"));
  g_assert_error (empty, PS_ERROR, PS_ERROR_PARSE);
  g_assert_error (blank, PS_ERROR, PS_ERROR_PARSE);
  g_assert_error (typeperf_error, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (typeperf_error->message, "Line 2"));

  /* Sniffing */
  g_assert_cmpuint (ps_format_pdh_csv.sniff ((const guint8 *)"\"Time\",\"Value\"\r\n", 16, "a.csv"), ==, 0);
  g_assert_true (ps_format_sniff ((const guint8 *)"\"(PDH-CSV 4.0)\",\"\\\\H\\M\\C\"\r\n", 27, "x.txt", &score)
                 == &ps_format_pdh_csv);
  g_assert_cmpuint (score, ==, 100);
  {
    static const char * const files[] = {
      "logman-pdt.csv", "typeperf-stdout.csv", "relog-ist.tsv", "utf16le.csv", "cp1252.csv", "utf8-bom.csv",
    };

    for (guint i = 0; i < G_N_ELEMENTS (files); i++)
      {
        gsize length;
        g_autofree char *data = read_data (files[i], &length);

        g_assert_true (ps_format_sniff ((const guint8 *)data, length, NULL, NULL) == &ps_format_pdh_csv);
      }
  }
}

/* §7.2 header cell 1, §9.5 #1 */
static void
test_header_variants (void)
{
  static const struct
  {
    const char *cell;
    const char *zone;      /* NULL: none */
    const char *bias;      /* NULL: none */
    gint64      origin_s;  /* of 01/01/2024 00:00:00 local, 0 if unknown */
  } cases[] = {
    { "(PDH-CSV 4.0) (Pacific Daylight Time)(420)", "Pacific Daylight Time", "420", 1704067200 + 7 * 3600 },
    { "(PDH-CSV 4.0) (India Standard Time)(-330)", "India Standard Time", "-330", 1704067200 - 330 * 60 },
    { "(PDH-CSV 4.0) (GMT Standard Time)(0)", "GMT Standard Time", "0", 1704067200 },
    { "(PDH-CSV 4.0) (Paris, Madrid (heure d'été))(-60)", "Paris, Madrid (heure d'été)", "-60", 1704067200 - 3600 },
    { "(PDH-CSV 4.0)", NULL, NULL, 0 },
    { "(PDH-CSV 4.0) (Somewhere)(soon)", NULL, NULL, 0 },
    /* A zone named in letters other than English ones, cut off by
     * Performance Monitor (Chinese, Russian machines): what is there stays */
    { "(PDH-CSV 4.0) (", NULL, NULL, 0 },
    { "(PDH-CSV 4.0) (RTZ 2 (", "RTZ 2 (", NULL, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(PsEventStore) store = NULL;
      g_autoptr(GString) quoted = g_string_new (NULL);

      for (const char *p = cases[i].cell; *p != '\0'; p++)
        {
          if (*p == '"')
            g_string_append_c (quoted, '"');
          g_string_append_c (quoted, *p);
        }
      text = g_strdup_printf ("\"%s\",\"\\\\H\\Memory\\Pages/sec\"\r\n\"01/01/2024 00:00:00.000\",\"1\"\r\n", quoted->str);
      store = parse (text);

      g_test_message ("%s", cases[i].cell);
      g_assert_cmpstr (metadata (store, "time_zone"), ==, cases[i].zone);
      g_assert_cmpstr (metadata (store, "time_zone_bias_minutes"), ==, cases[i].bias);
      g_assert_cmpint (origin (store), ==, cases[i].origin_s * NS_PER_S);
      g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 1);
    }
}

/* §9.5 #4, #8: numbers and missing values */
static void
test_numbers (void)
{
  static const struct
  {
    const char *text;
    gboolean    missing;
    double      value;
    gboolean    warned;
  } cases[] = {
    { "0", FALSE, 0, FALSE },
    { "12.500000", FALSE, 12.5, FALSE },
    { "11.296813511113458", FALSE, 11.296813511113458, FALSE },
    { "-1", FALSE, -1, FALSE },
    { "+2", FALSE, 2, FALSE },
    { "1.5e+10", FALSE, 1.5e10, FALSE },
    { "2E-3", FALSE, 0.002, FALSE },
    { ".5", FALSE, 0.5, FALSE },
    { " ", TRUE, 0, FALSE },
    { "", TRUE, 0, FALSE },
    { "NaN", TRUE, 0, TRUE },
    { "-nan(ind)", TRUE, 0, TRUE },
    { "inf", TRUE, 0, TRUE },
    { "1e999", TRUE, 0, TRUE },
    { "0x10", TRUE, 0, TRUE },
    { "1,5", TRUE, 0, TRUE },
    { "12 %", TRUE, 0, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\H\\Memory\\Pages/sec\"\r\n"
                                               "\"01/01/2024 00:00:00.000\",\"%s\"\r\n", cases[i].text);
      g_autoptr(PsEventStore) store = parse (text);
      const PsCounterValue *value;

      g_test_message ("value “%s”", cases[i].text);
      g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 1);
      value = ps_event_store_get_counter_value (store, 0);
      if (cases[i].missing)
        {
          g_assert_cmpuint (value->flags, ==, PS_COUNTER_FLAG_MISSING);
          g_assert_true (isnan (value->value));
        }
      else
        {
          g_assert_cmpuint (value->flags, ==, PS_COUNTER_FLAG_NONE);
          g_assert_cmpfloat (value->value, ==, cases[i].value);
        }
      g_assert_cmpuint (count_warnings (store, "W-PDH-VALUE"), ==, cases[i].warned ? 1 : 0);
    }
}

/* §9.5 #3, #5, #7, #9, #10: odd rows, repeated times, duplicate columns, header only */
static void
test_rows (void)
{
  const char *text =
    "\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\",\"\\\\H\\Memory\\Pages/sec\",\"\\\\H\\Memory\\Pages/sec\"\n"
    "\"11/03/2024 01:59:59.000\",\"1\",\"2\"\n"
    "\"11/03/2024 01:00:00.000\",\"3\",\"4\"\n"          /* DST fall-back: an hour back */
    "\"11/03/2024 01:00:00.000\",\"5\",\"6\"\n"          /* repeated */
    "\"yesterday\",\"7\",\"8\"\n"                        /* no time */
    "\"11/03/2024 01:00:01.000\",\"9\",\"10\",\"11\"\n"  /* too many fields */
    "\"02/30/2024 01:00:01.000\",\"9\",\"10\"\n"         /* no such day */
    "\"11/03/3024 01:00:01.000\",\"9\",\"10\"\n"         /* past 2262 (found by fuzzing) */
    "\"11/03/2024 01:00:02.000\",\"12\",\"13\"\n"
    "\n\n";
  g_autoptr(PsEventStore) store = parse (text);
  g_autoptr(PsEventStore) header_only = parse ("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\H\\Memory\\Pages/sec\"");
  PsWarning warning;
  guint32 first, second;

  g_assert_cmpuint (count_tracks (store, PS_TRACK_COUNTER), ==, 2);
  first = counter_track (store, "\\\\H\\Memory\\Pages/sec");
  second = first + 1;
  g_assert_cmpint (ps_event_store_get_track (store, second)->kind, ==, PS_TRACK_COUNTER);
  g_assert_cmpint (ps_event_store_get_track (store, second)->number, ==, 2);
  /* Shared machine and object */
  g_assert_cmpuint (ps_event_store_get_track (store, first)->parent, ==, ps_event_store_get_track (store, second)->parent);
  warning = find_warning (store, "W-PDH-DUPLICATE");
  g_assert_cmpuint (warning.line, ==, 1);

  /* Kept in file order: 0, −3599 s, −3599 s, −3597 s */
  g_assert_cmpuint (n_values_of (store, first), ==, 4);
  g_assert_cmpint (value_of (store, first, 0)->time_ns, ==, 0);
  g_assert_cmpint (value_of (store, first, 1)->time_ns, ==, -3599 * NS_PER_S);
  g_assert_cmpint (value_of (store, first, 2)->time_ns, ==, -3599 * NS_PER_S);
  g_assert_cmpfloat (value_of (store, second, 2)->value, ==, 6);
  g_assert_cmpint (value_of (store, first, 3)->time_ns, ==, -3597 * NS_PER_S);
  g_assert_cmpfloat (value_of (store, first, 3)->value, ==, 12);

  warning = find_warning (store, "W-PDH-TIME-BACK");
  g_assert_cmpuint (warning.line, ==, 3);
  g_assert_cmpuint (count_warnings (store, "W-PDH-TIME-BACK"), ==, 1);
  warning = find_warning (store, "W-PDH-TIME");
  g_assert_cmpuint (warning.line, ==, 5);
  g_assert_cmpuint (count_warnings (store, "W-PDH-TIME"), ==, 3);
  warning = find_warning (store, "W-PDH-FIELDS");
  g_assert_cmpuint (warning.line, ==, 6);
  g_assert_cmpuint (ps_event_store_get_session (store, 0)->last_line, ==, 9);

  /* Header only, without a final newline */
  g_assert_cmpuint (count_tracks (header_only, PS_TRACK_COUNTER), ==, 1);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (header_only), ==, 0);
  g_assert_cmpint (origin (header_only), ==, 0);
}

/* §9.5 #10: many columns */
static void
test_many_columns (void)
{
  g_autoptr(GString) text = g_string_new ("\"(PDH-CSV 4.0) (UTC)(0)\"");
  g_autoptr(PsEventStore) store = NULL;
  const guint n_columns = 5000;

  for (guint i = 0; i < n_columns; i++)
    g_string_append_printf (text, ",\"\\\\H\\Process(p%u)\\%% Processor Time\"", i);
  g_string_append (text, "\r\n\"01/01/2024 00:00:00.000\"");
  for (guint i = 0; i < n_columns; i++)
    g_string_append_printf (text, ",\"%u\"", i);
  g_string_append (text, "\r\n");

  store = parse_pieces (text->str, text->len, 4096, 0);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_COUNTER), ==, n_columns);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_INSTANCE), ==, n_columns);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_OBJECT), ==, 1);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, n_columns);
  g_assert_cmpfloat (ps_event_store_get_counter_value (store, n_columns - 1)->value, ==, n_columns - 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pdh-csv/logman", test_logman);
  g_test_add_func ("/pdh-csv/typeperf", test_typeperf);
  g_test_add_func ("/pdh-csv/tsv-hard-names", test_tsv_hard_names);
  g_test_add_func ("/pdh-csv/utf16le", test_utf16le);
  g_test_add_func ("/pdh-csv/cp1252", test_cp1252);
  g_test_add_func ("/pdh-csv/utf8-bom", test_utf8_bom);
  g_test_add_func ("/pdh-csv/cp1251-guessed", test_cp1251_guessed);
  g_test_add_func ("/pdh-csv/cp1252-guessed", test_cp1252_guessed);
  g_test_add_func ("/pdh-csv/encoding-and-offset-options", test_encoding_and_offset_options);
  g_test_add_func ("/pdh-csv/chunks", test_chunks);
  g_test_add_func ("/pdh-csv/line-ends", test_line_ends);
  g_test_add_func ("/pdh-csv/not-pdh", test_not_pdh);
  g_test_add_func ("/pdh-csv/header-variants", test_header_variants);
  g_test_add_func ("/pdh-csv/numbers", test_numbers);
  g_test_add_func ("/pdh-csv/rows", test_rows);
  g_test_add_func ("/pdh-csv/many-columns", test_many_columns);

  return g_test_run ();
}

/* test-ce-perflog.c — the CE PerfLog parser against its specification
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §6 (the example file and its expected results) and
 * §7 (every malformed case, numbered as in the table).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "parse-fixture.h"
#include "ps-ce-description.h"
#include "ps-format.h"
#include "ps-loader.h"
#include "ps-series.h"
#include "ps-util.h"

/* Loading */

static PsEventStore *
parse_bytes_split (const char *data,
                   gsize       length,
                   gsize       piece)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (&ps_format_ce_perflog, builder);
  g_autoptr(GError) error = NULL;

  for (gsize offset = 0; offset < length; offset += piece)
    g_assert_true (ps_parser_feed (parser, (const guint8 *) data + offset,
                                   MIN (piece, length - offset), &error));
  g_assert_true (ps_parser_finish (parser, &error));
  g_assert_no_error (error);
  ps_store_builder_flush (builder);

  return g_steal_pointer (&store);
}

static PsEventStore *
parse_bytes (const char *data,
             gsize       length)
{
  return parse_bytes_split (data, length, MAX (length, 1));
}

static PsEventStore *
parse (const char *text)
{
  return parse_bytes (text, strlen (text));
}

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "ce", name, NULL);
}

static PsEventStore *
load_file (const char *name)
{
  g_autofree char *path = data_path (name);

  return parse_fixture_load_file (path, 0);
}

/* Looking at the result */

static guint32
find_track (PsEventStore *store,
            guint         session,
            const char   *app,
            gint64        id,
            guint         ordinal)
{
  for (guint i = 0; i < ps_event_store_get_n_tracks (store); i++)
    {
      const PsTrack *track = ps_event_store_get_track (store, i);

      if (track->session == session && track->number == id && track->ordinal == ordinal
          && g_str_equal (ps_event_store_get_string (store, track->category), app))
        return i;
    }

  g_error ("no instance %s/%" G_GINT64_FORMAT "/#%u in session %u", app, id, ordinal, session);
  return PS_NONE;
}

static const char *
track_name (PsEventStore *store,
            guint32       track)
{
  return ps_event_store_get_string (store, ps_event_store_get_track (store, track)->name);
}

static void
append_double (GString *text,
               double   value)
{
  g_autofree char *number = ps_util_format_double (value);

  g_string_append (text, number);
}

/* The values of one track as text: "45210 44987 46002" (ticks, percent, bytes) */
static char *
track_values (PsEventStore *store,
              guint32       track)
{
  GString *text = g_string_new (NULL);
  PsMeasurementIter iter;
  PsMeasurement m;

  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      const char *kind_name, *raw;

      if (m.track != track)
        continue;
      if (text->len > 0)
        g_string_append_c (text, ' ');
      switch (m.kind)
        {
        case PS_MEASURE_DURATION:
          g_string_append_printf (text, "%" G_GINT64_FORMAT, m.value.ticks);
          break;
        case PS_MEASURE_CPU:
          append_double (text, m.value.number);
          break;
        case PS_MEASURE_MEMORY:
          if (m.flags & PS_MEASURE_FLAG_FRACTIONAL)
            append_double (text, m.value.number);
          else
            g_string_append_printf (text, "%" G_GUINT64_FORMAT, m.value.bytes);
          break;
        case PS_MEASURE_OTHER:
          ps_event_store_get_other (store, m.value.other, &kind_name, &raw);
          g_string_append_printf (text, "%s:%s", kind_name, raw);
          break;
        default:
          g_assert_not_reached ();
        }
      if (m.flags & PS_MEASURE_FLAG_NEGATIVE)
        g_string_append (text, "!neg");
      if (m.flags & PS_MEASURE_FLAG_OUT_OF_RANGE)
        g_string_append (text, "!range");
    }

  return g_string_free (text, FALSE);
}

/* The warnings as text: "W-UNREGISTERED@9 W-BADVALUE@12" */
static char *
warnings (PsEventStore *store)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning w;

      ps_event_store_get_warning (store, i, &w);
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append_printf (text, "%s@%" G_GUINT64_FORMAT, w.code, w.line);
    }

  return g_string_free (text, FALSE);
}

#define assert_values(store, track, expected) \
  G_STMT_START { \
    g_autofree char *_v = track_values ((store), (track)); \
    g_assert_cmpstr (_v, ==, (expected)); \
  } G_STMT_END

#define assert_warnings(store, expected) \
  G_STMT_START { \
    g_autofree char *_w = warnings (store); \
    g_assert_cmpstr (_w, ==, (expected)); \
  } G_STMT_END

static const PsWarning *
find_warning (PsEventStore *store,
              const char   *code,
              PsWarning    *out)
{
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      ps_event_store_get_warning (store, i, out);
      if (g_str_equal (out->code, code))
        return out;
    }
  return NULL;
}

static PsSeries *
find_series (GPtrArray    *all,
             const char   *name,
             PsSeriesKind  kind,
             guint         instance)
{
  for (guint i = 0; i < all->len; i++)
    {
      PsSeries *s = g_ptr_array_index (all, i);

      if (g_str_equal (s->name, name) && s->kind == kind && s->instance == instance)
        return s;
    }
  g_error ("no series %s #%u", name, instance);
  return NULL;
}

/* A digest of everything in a store, to compare two parses */
static char *
digest (PsEventStore *store)
{
  GString *text = g_string_new (NULL);

  for (guint s = 0; s < ps_event_store_get_n_sessions (store); s++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, s);
      g_autoptr(GArray) metadata = ps_event_store_list_metadata (store, s);

      g_string_append_printf (text, "session %u %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " %d\n",
                              s, info->first_line, info->last_line, info->implicit);
      for (guint i = 0; i < metadata->len; i++)
        {
          const PsMetadataEntry *e = &g_array_index (metadata, PsMetadataEntry, i);
          g_string_append_printf (text, "  %s=%s\n", e->key, e->value);
        }
    }
  for (guint i = 0; i < ps_event_store_get_n_tracks (store); i++)
    {
      const PsTrack *t = ps_event_store_get_track (store, i);
      g_autofree char *values = track_values (store, i);

      g_string_append_printf (text, "track %s/%" G_GINT64_FORMAT "#%u s%u l%" G_GUINT64_FORMAT " f%u [%s]: %s\n",
                              ps_event_store_get_string (store, t->category), t->number,
                              t->ordinal, t->session, t->line, t->flags,
                              ps_event_store_get_string (store, t->name), values);
    }
  {
    g_autofree char *w = warnings (store);
    g_string_append_printf (text, "warnings %s\n", w);
  }
  {
    PsMeasurementIter iter;
    PsMeasurement m;

    ps_measurement_iter_init (&iter, store);
    while (ps_measurement_iter_next (&iter, &m))
      g_string_append_printf (text, "%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%u ",
                              m.index, m.line, m.track);
  }

  return g_string_free (text, FALSE);
}

/* §6: the example file and its expected results */

static void
test_example_file (void)
{
  g_autoptr(PsEventStore) store = load_file ("fsperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GPtrArray) series = NULL;
  PsSeriesOptions options = { 0 };
  struct {
    const char *name;
    gint64 id;
    guint instance;
    guint count;
    double min, max, mean, total, mean_s;
  } expected[] = {
    { "Test=CreateFile,Files=100,time=%AVG%", 0, 1, 3, 44987, 46002, 45399.67, 136199, 0.038049 },
    { "Test=WriteFile,Bytes=4096,time=%AVG%", 1, 1, 2, 11931, 12410, 12170.5, 24341, 0.010200 },
    { "Test=WriteFile,Bytes=65536,time=%AVG%", 1, 2, 2, 119318, 121004, 120161.0, 240322, 0.100707 },
    { "Test=ReadFile,Bytes=65536,time=%AVG%", 0, 2, 2, 59659, 60102, 59880.5, 119761, 0.050186 },
  };
  PsSeries *s;

  g_assert_cmpstr (ps_event_store_get_format (store), ==, "ce-perflog");
  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 1);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "OSVERSION"), ==, "6.0");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "BUILD"), ==, "3122");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "PLATFORM"), ==, "CEPC");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "CPU"), ==, "x86");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "DEVNAME"), ==, "CEPC");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "APP"), ==, "fsperf");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "PROCESSID"), ==, "0x0a5f0012");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "RESOLUTION"), ==, "1193180");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "CPU_MON_FREQ"), ==, "1000");
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, 0, 0), ==, 1193180.0);
  g_assert_cmpuint (ps_event_store_get_session (store, 0)->first_line, ==, 1);
  g_assert_cmpuint (ps_event_store_get_session (store, 0)->last_line, ==, 29);

  /* Calibration lines are skipped without a warning; "by APP" is accepted */
  assert_warnings (store, "");
  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 6);
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 13);

  /* Data after a re-registration belongs to the new instance */
  assert_values (store, find_track (store, 0, "fsperf", 0, 1), "45210 44987 46002");
  assert_values (store, find_track (store, 0, "fsperf", 1, 1), "11931 12410");
  assert_values (store, find_track (store, 0, "fsperf", 1, 2), "119318 121004");
  assert_values (store, find_track (store, 0, "fsperf", 0, 2), "59659 60102");
  assert_values (store, find_track (store, 0, "fsperf", 103, 1), "61.25 88.125");
  assert_values (store, find_track (store, 0, "fsperf", 102, 1), "10059776 10158080");
  g_assert_cmpstr (track_name (store, find_track (store, 0, "fsperf", 1, 2)), ==,
                   "Test=WriteFile,Bytes=65536,time=%AVG%");
  g_assert_cmpuint (ps_event_store_get_track (store, find_track (store, 0, "fsperf", 1, 2))->line, ==, 22);

  series = ps_series_collect (store, &options);
  g_assert_cmpuint (series->len, ==, 6);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      s = find_series (series, expected[i].name, PS_SERIES_DURATION, expected[i].instance);
      g_assert_cmpint (s->id, ==, expected[i].id);
      g_assert_cmpstr (s->app, ==, "fsperf");
      g_assert_cmpstr (s->unit, ==, "s");
      g_assert_true (s->has_seconds);
      g_assert_cmpuint (s->ticks_stats.count, ==, expected[i].count);
      g_assert_cmpfloat (s->ticks_stats.min, ==, expected[i].min);
      g_assert_cmpfloat (s->ticks_stats.max, ==, expected[i].max);
      g_assert_cmpfloat_with_epsilon (s->ticks_stats.mean, expected[i].mean, 0.005);
      g_assert_cmpfloat (s->ticks_stats.sum, ==, expected[i].total);
      g_assert_cmpfloat_with_epsilon (round (s->stats.mean * 1e6) / 1e6, expected[i].mean_s, 1e-12);
      g_assert_cmpfloat_with_epsilon (s->stats.sum, expected[i].total / 1193180.0, 1e-12);
    }

  s = find_series (series, "CPU: fsperf", PS_SERIES_CPU, 1);
  g_assert_cmpint (s->id, ==, 103);
  g_assert_cmpstr (s->unit, ==, "percent");
  g_assert_cmpuint (s->stats.count, ==, 2);
  g_assert_cmpfloat (s->stats.min, ==, 61.25);
  g_assert_cmpfloat (s->stats.max, ==, 88.125);
  g_assert_cmpfloat (s->stats.mean, ==, 74.6875);

  s = find_series (series, "MEM: fsperf", PS_SERIES_MEMORY, 1);
  g_assert_cmpint (s->id, ==, 102);
  g_assert_cmpstr (s->unit, ==, "bytes");
  g_assert_cmpuint (s->stats.count, ==, 2);
  g_assert_cmpfloat (s->stats.min, ==, 10059776);
  g_assert_cmpfloat (s->stats.max, ==, 10158080);
  g_assert_cmpfloat (s->stats.mean, ==, 10108928);

  /* Placeholder expansion for the first write instance */
  s = find_series (series, "Test=WriteFile,Bytes=4096,time=%AVG%", PS_SERIES_DURATION, 1);
  {
    PsCeDescriptionStats stats = { TRUE, s->stats.mean, s->stats.min, s->stats.max };
    g_autofree char *expanded = ps_ce_description_expand_to_string (s->name, &stats);

    g_assert_cmpstr (expanded, ==, "Test=WriteFile,Bytes=4096,time=0.010200");
  }
}

/* The result must not depend on where the input is split */
static void
test_example_any_split (void)
{
  g_autofree char *path = data_path ("fsperf_CEPC_x86_6_0_3122.log");
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(PsEventStore) whole = NULL;
  g_autofree char *expected = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  whole = parse_bytes (contents, length);
  expected = digest (whole);

  for (gsize piece = 1; piece <= 64; piece++)
    {
      g_autoptr(PsEventStore) store = parse_bytes_split (contents, length, piece);
      g_autofree char *got = digest (store);

      g_assert_cmpstr (got, ==, expected);
    }
}

/* The fast path and the general path give the same store */
static void
test_fast_path_agrees (void)
{
  const char *fast =
    "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
    "## PERF ## REGISTERED APP [a] PROCCESSID [0x1]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [m] AS [7] BY APP [a]\r\n"
    "## PERF ## APP [a] EVT [7] DUR [1]\r\n"
    "## PERF ## APP [a] EVT [7] DUR [2]\n"
    "## PERF ## APP [a] EVT [7] DUR [-3]\r\n"
    "## PERF ## APP [a] EVT [7] DUR [4]\r"
    "## PERF ## APP [a] EVT [7] DUR [5]\r\n"
    "## PERF ## APP [a] EVT [8] DUR [6]\r\n"
    "## PERF ## APP [a] EVT [7] DUR [7]\r\n";
  /* The same lines, spelled so that only the general path takes them */
  const char *slow =
    "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n"
    "## PERF ## REGISTERED APP [a] PROCCESSID [0x1]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [m] AS [7] BY APP [a]\r\n"
    "## PERF ##  APP [a] EVT [7] DUR [1]\r\n"
    "## PERF ## app [a] EVT [7] DUR [2]\n"
    "## PERF ## APP [a]  EVT [7] DUR [-3]\r\n"
    "## PERF ## APP [a] evt [7] DUR [4]\r"
    "## PERF ## APP [a] EVT [7] dur [5] \r\n"
    "## PERF ##\tAPP [a] EVT [8] DUR [6]\r\n"
    "## PERF ## APP [a] EVT  [7] DUR [7]\r\n";
  g_autoptr(PsEventStore) a = parse (fast);
  g_autoptr(PsEventStore) b = parse (slow);
  g_autofree char *da = digest (a);
  g_autofree char *db = digest (b);

  g_assert_cmpstr (da, ==, db);
  assert_values (a, find_track (a, 0, "a", 7, 1), "1 2 -3!neg 4 5 7");
  for (gsize piece = 1; piece < 50; piece += 3)
    {
      g_autoptr(PsEventStore) c = parse_bytes_split (fast, strlen (fast), piece);
      g_autofree char *dc = digest (c);

      g_assert_cmpstr (dc, ==, da);
    }
}

#define HEADER_FAST \
  "## PERF ## OSVERSION=[6.0] BUILD=[1]\r\n" \
  "## PERF ## REGISTERED APP [a] PROCCESSID [0x1]\r\n" \
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n" \
  "## PERF ## REGISTERED MARKER [cpu] AS [7] BY APP [a]\r\n" \
  "## PERF ## REGISTERED MARKER [mem] AS [8] BY APP [a]\r\n"

/* CPU and MEM lines through the fast path give the values, flags and
 * warnings the general path gives: CPU decimals exactly as strtod reads
 * them, whatever their digits */
static void
test_fast_path_cpu_mem (void)
{
  g_autoptr(GString) fast = g_string_new (HEADER_FAST);
  g_autoptr(GString) slow = g_string_new (HEADER_FAST);
  g_autoptr(PsEventStore) a = NULL;
  g_autoptr(PsEventStore) b = NULL;
  g_autofree char *da = NULL;
  g_autofree char *db = NULL;
  static const char * const fixed[] = {
    "0.1", "57.843834", "100", "100.0000001", "-0.5", "0", "-0", "99.999999999999",
    "0.000000000000001", "123456789012345", "1234567890123456", "3.14159265358979",
    "1.7976931348623157", "007.250", "5.", ".5", "1,5", "12345678901234567890",
  };
  GRand *rand = g_rand_new_with_seed (7);
  PsMeasurementIter iter_a, iter_b;
  PsMeasurement ma, mb;
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (fixed) + 3000; i++)
    {
      g_autofree char *value = NULL;

      if (i < G_N_ELEMENTS (fixed))
        value = g_strdup (fixed[i]);
      else
        {
          /* 1 to 16 significant digits, the point anywhere */
          guint n_digits = g_rand_int_range (rand, 1, 17);
          guint point = g_rand_int_range (rand, 0, n_digits + 1);
          GString *digits = g_string_new (NULL);

          for (guint d = 0; d < n_digits; d++)
            {
              if (d == point && d > 0)
                g_string_append_c (digits, '.');
              g_string_append_c (digits, '0' + g_rand_int_range (rand, 0, 10));
            }
          value = g_string_free (digits, FALSE);
        }
      g_string_append_printf (fast, "## PERF ## APP [a] EVT [7] CPU [%s]\r\n", value);
      g_string_append_printf (slow, "## PERF ## APP [a] EVT [7] cpu [%s]\r\n", value);
      g_string_append_printf (fast, "## PERF ## APP [a] EVT [8] MEM [%s]\n", value);
      g_string_append_printf (slow, "## PERF ## APP [a] EVT [8] mem [%s]\n", value);
    }
  /* A DUR on a CPU marker is "mixed" either way */
  g_string_append (fast, "## PERF ## APP [a] EVT [7] DUR [5]\r\n## PERF ## APP [a] EVT [8] CPU [5.5]\r\n");
  g_string_append (slow, "## PERF ## APP [a] EVT [7] dur [5]\r\n## PERF ## APP [a] EVT [8] cpu [5.5]\r\n");
  g_rand_free (rand);

  a = parse_bytes_split (fast->str, fast->len, 777);
  b = parse (slow->str);
  da = digest (a);
  db = digest (b);
  g_assert_cmpstr (da, ==, db);

  ps_measurement_iter_init (&iter_a, a);
  ps_measurement_iter_init (&iter_b, b);
  while (ps_measurement_iter_next (&iter_a, &ma))
    {
      g_assert_true (ps_measurement_iter_next (&iter_b, &mb));
      g_assert_cmpuint (ma.kind, ==, mb.kind);
      g_assert_cmpuint (ma.flags, ==, mb.flags);
      g_assert_cmpuint (ma.line, ==, mb.line);
      g_assert_cmpmem (&ma.value, sizeof ma.value, &mb.value, sizeof mb.value);
      n++;
    }
  g_assert_false (ps_measurement_iter_next (&iter_b, &mb));
  g_assert_cmpuint (n, >, 6000);
}

#define HEADER \
  "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n" \
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x10]\r\n" \
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"

/* §7 #1 */
static void
test_empty (void)
{
  g_autoptr(PsEventStore) empty = parse ("");
  g_autoptr(PsEventStore) blank = parse ("\r\n  \r\n\t\n\n");

  g_assert_cmpuint (ps_event_store_get_n_sessions (empty), ==, 0);
  g_assert_cmpuint (ps_event_store_get_n_sessions (blank), ==, 0);
  assert_warnings (empty, "");
  assert_warnings (blank, "");
}

/* §7 #2, #3, #4 */
static void
test_foreign_unknown_prefix (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "debug: starting test\r\n"                                         /* 4 */
    "## PERF ## SOMETHING [new]\r\n"                                    /* 5 */
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r\n"          /* 6 */
    "[00:00:01.234] ## PERF ## APP [app] EVT [1] DUR [10]\r\n"          /* 7 */
    "[00:00:01.240] ## PERF ## APP [app] EVT [1] DUR [20]\r\n"          /* 8 */
    "another debug line\r\n");                                          /* 9 */
  PsWarning w;

  assert_warnings (store, "W-UNKNOWN@5 W-PREFIX@7 I-FOREIGN@4");
  assert_values (store, find_track (store, 0, "app", 1, 1), "10 20");
  g_assert_nonnull (find_warning (store, "I-FOREIGN", &w));
  g_assert_nonnull (strstr (w.message, "2 lines"));
  g_assert_cmpint (w.severity, ==, PS_SEVERITY_INFO);
  g_assert_nonnull (find_warning (store, "W-UNKNOWN", &w));
  g_assert_nonnull (strstr (w.message, "SOMETHING [new]"));
}

/* §7 #5, #6 */
static void
test_missing_resolution (void)
{
  g_autoptr(PsEventStore) store = parse (
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [10]\r\n"
    "## PERF ## OSVERSION=[6.0] BUILD=[3123]\r\n"
    "## PERF ## RESOLUTION [0] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [10]\r\n"
    "## PERF ## OSVERSION=[6.0] BUILD=[3124]\r\n"
    "## PERF ## RESOLUTION [fast] TICKS PER SECOND\r\n");
  g_autoptr(GPtrArray) series = NULL;
  PsSeriesOptions options = { 0 };
  PsSeries *s;

  assert_warnings (store,
                   "W-UNKNOWNAPP@3 W-NORES@1 W-BADRES@5 W-UNKNOWNAPP@7 W-NORES@4 W-BADRES@9");
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, 0, 0), ==, 0);
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, 1, 1), ==, 0);
  g_assert_null (ps_event_store_get_metadata (store, 1, "RESOLUTION"));

  series = ps_series_collect (store, &options);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpstr (s->unit, ==, "ticks");
  g_assert_false (s->has_seconds);
  g_clear_pointer (&series, g_ptr_array_unref);

  /* The user may supply the rate */
  options.tick_rate_override = 1000;
  series = ps_series_collect (store, &options);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpstr (s->unit, ==, "s");
  g_assert_cmpfloat (s->stats.mean, ==, 0.01);
}

/* §7 #7, #8 */
static void
test_resolution_position (void)
{
  g_autoptr(PsEventStore) late = parse (
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
    "## PERF ## REGISTERED APP [app] PROCCESSID [0x10]\r\n"
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [100]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## APP [app] EVT [1] DUR [300]\r\n");
  g_autoptr(PsEventStore) changed = parse (
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
    "## PERF ## REGISTERED APP [app] PROCCESSID [0x10]\r\n"
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [100]\r\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## APP [app] EVT [1] DUR [100]\r\n"
    "## PERF ## RESOLUTION [100] TICKS PER SECOND\r\n"
    "## PERF ## APP [app] EVT [1] DUR [100]\r\n");
  g_autoptr(GPtrArray) series = NULL;
  PsSeriesOptions options = { 0 };
  PsSeries *s;

  assert_warnings (late, "I-LATERES@5");
  series = ps_series_collect (late, &options);
  s = g_ptr_array_index (series, 0);
  g_assert_true (s->has_seconds);
  g_assert_cmpfloat (s->stats.sum, ==, 0.4);
  g_clear_pointer (&series, g_ptr_array_unref);

  assert_warnings (changed, "I-LATERES@5 W-RESCHANGE@7");
  g_assert_cmpstr (ps_event_store_get_metadata (changed, 0, "RESOLUTION"), ==, "1000");
  series = ps_series_collect (changed, &options);
  s = g_ptr_array_index (series, 0);
  /* 100 ticks at 1000/s, 100 ticks at 1000/s, 100 ticks at 100/s */
  g_assert_cmpfloat_with_epsilon (s->stats.sum, 0.1 + 0.1 + 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (s->stats.max, 1.0, 1e-12);
}

/* §7 #9, #10, #11, #12 */
static void
test_registry (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "## PERF ## APP [app] EVT [5] DUR [1]\r\n"                           /* 4: unregistered */
    "## PERF ## REGISTERED MARKER [x] AS [1] BY APP [app]\r\n"           /* 5 */
    "## PERF ## REGISTERED MARKER [y] AS [1] BY APP [other]\r\n"         /* 6 */
    "## PERF ## APP [app] EVT [1] DUR [10]\r\n"
    "## PERF ## APP [other] EVT [1] DUR [20]\r\n"                        /* 8: unknown app */
    "## PERF ## APP [other] EVT [1] DUR [21]\r\n"                        /* warned once */
    "## PERF ## REGISTERED MARKER [x] AS [1] BY APP [app]\r\n"           /* 10: same description */
    "## PERF ## APP [app] EVT [1] DUR [11]\r\n"
    "## PERF ## APP [app] EVT [5] DUR [2]\r\n");
  guint32 implicit = find_track (store, 0, "app", 5, 1);

  assert_warnings (store, "W-UNREGISTERED@4 W-UNKNOWNAPP@8");
  g_assert_cmpstr (track_name (store, implicit), ==, "");
  g_assert_true (ps_event_store_get_track (store, implicit)->flags & PS_TRACK_FLAG_IMPLICIT);
  assert_values (store, implicit, "1 2");
  assert_values (store, find_track (store, 0, "app", 1, 1), "10");
  assert_values (store, find_track (store, 0, "app", 1, 2), "11");
  assert_values (store, find_track (store, 0, "other", 1, 1), "20 21");
  g_assert_cmpstr (track_name (store, find_track (store, 0, "other", 1, 1)), ==, "y");

  /* Grouping by description merges the two registrations of "x" */
  {
    PsSeriesOptions options = { .group_by_name = TRUE };
    g_autoptr(GPtrArray) series = ps_series_collect (store, &options);
    PsSeries *s = find_series (series, "x", PS_SERIES_DURATION, 1);

    g_assert_cmpuint (s->n_instances, ==, 2);
    g_assert_cmpuint (s->ticks_stats.count, ==, 2);
    g_assert_cmpfloat (s->ticks_stats.sum, ==, 21);
  }
}

/* §7 #13, #14, #15, #16 */
static void
test_duration_values (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [12a4]\r\n"                         /* 5 */
    "## PERF ## APP [app] EVT [1] DUR []\r\n"                             /* 6 */
    "## PERF ## APP [app] EVT [1] DUR [0x10]\r\n"                         /* 7 */
    "## PERF ## APP [app] EVT [1] DUR [-3]\r\n"                           /* 8: kept, flagged */
    "## PERF ## APP [app] EVT [1] DUR [9223372036854775808]\r\n"          /* 9: > int64 */
    "## PERF ## APP [app] EVT [1] DUR [9223372036854775807]\r\n"          /* 10: max */
    "## PERF ## APP [app] EVT [1] DUR [123.5]\r\n"                        /* 11 */
    "## PERF ## APP [app] EVT [1] DUR [100]\r\n");
  g_autoptr(GPtrArray) series = NULL;
  PsSeriesOptions options = { 0 };
  PsSeries *s;
  PsWarning w;

  assert_warnings (store, "W-BADVALUE@5 W-BADVALUE@6 W-BADVALUE@7 W-BADVALUE@9 W-BADVALUE@11");
  assert_values (store, find_track (store, 0, "app", 1, 1), "-3!neg 9223372036854775807 100");
  g_assert_nonnull (find_warning (store, "W-BADVALUE", &w));
  g_assert_nonnull (strstr (w.message, "12a4"));

  /* Negative durations stay out of the statistics unless asked for */
  series = ps_series_collect (store, &options);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpuint (s->ticks_stats.count, ==, 2);
  g_assert_cmpuint (s->n_excluded, ==, 1);
  g_clear_pointer (&series, g_ptr_array_unref);
  options.include_negative = TRUE;
  series = ps_series_collect (store, &options);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpuint (s->ticks_stats.count, ==, 3);
  g_assert_cmpfloat (s->ticks_stats.min, ==, -3);
}

/* §7 #17, #18 */
static void
test_marker_ids (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "## PERF ## APP [app] EVT [x] DUR [1]\r\n"                            /* 4 */
    "## PERF ## REGISTERED MARKER [m] AS [one] BY APP [app]\r\n"          /* 5 */
    "## PERF ## REGISTERED MARKER [m] AS [4000] BY APP [app]\r\n"         /* 6 */
    "## PERF ## APP [app] EVT [4000] DUR [7]\r\n");

  assert_warnings (store, "W-UNKNOWN@4 W-UNKNOWN@5 I-HIGHID@6");
  assert_values (store, find_track (store, 0, "app", 4000, 1), "7");
}

/* §7 #19, #20, #21, #22 */
static void
test_tolerated_spellings (void)
{
  g_autoptr(PsEventStore) store = parse (
    "## PERF ## OSVERSION =[6.0]   BUILD= [3122]  \r\n"
    "## PERF ##   Platform=[CEPC]\tcpu=[ARMV4I]\r\n"
    "## PERF ## Registered App [app] ProcessId [1234]\r\n"
    "## PERF ## resolution [1193180] ticks per second\r\n"
    "## PERF ## Registered Marker [m] as [1] by APP [app]\t\r\n"
    "## PERF ## REGISTERED MARKER [n] AS [2] BY APP app]\r\n"             /* 6: no "[" */
    "## PERF ## app [app] evt [1] dur [5]   \r\n"
    "## PERF ## APP [app] EVT [2] DUR [6]\r\n");

  assert_warnings (store, "I-BRACKET@6");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "OSVERSION"), ==, "6.0");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "BUILD"), ==, "3122");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "CPU"), ==, "ARMV4I");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "PROCESSID"), ==, "1234");
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, 0, 0), ==, 1193180);
  assert_values (store, find_track (store, 0, "app", 1, 1), "5");
  assert_values (store, find_track (store, 0, "app", 2, 1), "6");
}

/* §7 #23, #24 */
static void
test_descriptions (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "## PERF ## REGISTERED MARKER [a]b [c], 50% x=y AS [9] BY APP [q]] AS [1] BY APP [app]\r\n"
    "## PERF ## REGISTERED MARKER [] AS [2] BY APP [app]\r\n"
    "## PERF ## REGISTERED APP [] PROCCESSID [0x1]\r\n"
    "## PERF ## REGISTERED MARKER [e] AS [3] BY APP []\r\n"
    "## PERF ## APP [app] EVT [1] DUR [1]\r\n"
    "## PERF ## APP [app] EVT [2] DUR [2]\r\n"
    "## PERF ## APP [] EVT [3] DUR [3]\r\n");

  assert_warnings (store, "");
  g_assert_cmpstr (track_name (store, find_track (store, 0, "app", 1, 1)), ==,
                   "a]b [c], 50% x=y AS [9] BY APP [q]");
  g_assert_cmpstr (track_name (store, find_track (store, 0, "app", 2, 1)), ==, "");
  assert_values (store, find_track (store, 0, "app", 1, 1), "1");
  assert_values (store, find_track (store, 0, "app", 2, 1), "2");
  assert_values (store, find_track (store, 0, "", 3, 1), "3");
}

/* §7 #25, #30, #31 */
static void
test_line_ends_and_last_line (void)
{
  const char *mixed =
    "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r"
    "## PERF ## REGISTERED APP [app] PROCCESSID [0x10]\n"
    "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n"
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r"
    "## PERF ## APP [app] EVT [1] DUR [10]\n"
    "## PERF ## APP [app] EVT [1] DUR [20]";
  g_autoptr(PsEventStore) complete = parse (mixed);
  g_autofree char *cut_text = g_strconcat (mixed, "\r\n## PERF ## APP [app] EVT [1] DUR [4521", NULL);
  g_autoptr(PsEventStore) cut = parse (cut_text);

  assert_warnings (complete, "");
  assert_values (complete, find_track (complete, 0, "app", 1, 1), "10 20");
  g_assert_cmpstr (ps_event_store_get_metadata (complete, 0, "PROCESSID"), ==, "0x10");

  assert_warnings (cut, "W-TRUNCATED@7");
  assert_values (cut, find_track (cut, 0, "app", 1, 1), "10 20");
}

/* §7 #26, #27 */
static void
test_encodings (void)
{
  g_autofree char *path = data_path ("fsperf_CEPC_x86_6_0_3122.log");
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(PsEventStore) plain = NULL;
  g_autofree char *expected = NULL;
  const char *encodings[] = { "UTF-16LE", "UTF-16BE" };

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  plain = parse_bytes (contents, length);
  expected = digest (plain);

  for (guint e = 0; e < G_N_ELEMENTS (encodings); e++)
    for (guint bom = 0; bom < 2; bom++)
      {
        g_autofree char *wide = NULL;
        g_autoptr(GString) data = g_string_new (NULL);
        gsize wide_length;
        g_autoptr(PsEventStore) store = NULL;
        g_autofree char *got = NULL;
        PsWarning w;

        wide = g_convert (contents, length, encodings[e], "UTF-8", NULL, &wide_length, NULL);
        g_assert_nonnull (wide);
        if (bom)
          g_string_append_len (data, e == 0 ? "\xff\xfe" : "\xfe\xff", 2);
        g_string_append_len (data, wide, wide_length);

        g_assert_true (ps_format_sniff ((const guint8 *) data->str, data->len, NULL, NULL)
                       == &ps_format_ce_perflog);
        /* Odd piece sizes split the two-byte units */
        store = parse_bytes_split (data->str, data->len, 13);
        g_assert_nonnull (find_warning (store, "I-UTF16", &w));
        g_assert_cmpint (w.severity, ==, PS_SEVERITY_INFO);
        got = digest (store);
        /* The same content, with one more (info) warning */
        g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 1);
        g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 13);
        assert_values (store, find_track (store, 0, "fsperf", 1, 2), "119318 121004");
      }

  {
    g_autofree char *with_bom = g_strconcat ("\xef\xbb\xbf", contents, NULL);
    g_autoptr(PsEventStore) store = parse_bytes (with_bom, length + 3);
    g_autofree char *got = digest (store);

    g_assert_cmpstr (got, ==, expected);
  }
}

/* §7 #28, #29 */
static void
test_raw_bytes_and_nul (void)
{
  const char text[] =
    HEADER
    "## PERF ## REGISTERED MARKER [Test=\xe9\xe8] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [5]\0garbage\r\n"                   /* 5: NUL */
    "## PERF ## APP [app] EVT [1] DUR [6]\r\n";
  g_autoptr(PsEventStore) store = parse_bytes (text, sizeof text - 1);
  guint32 track = find_track (store, 0, "app", 1, 1);
  g_autofree char *shown = NULL;
  PsWarning w;

  assert_warnings (store, "W-NUL@5");
  g_assert_nonnull (find_warning (store, "W-NUL", &w));
  g_assert_cmpuint (w.offset, ==, (guint64) (strstr (text, "[5]") + 3 - text));
  assert_values (store, track, "5 6");
  /* Raw bytes kept; shown with the Latin-1 fallback */
  g_assert_cmpmem (track_name (store, track), 7, "Test=\xe9\xe8", 7);
  shown = ps_util_display_text (track_name (store, track), -1);
  g_assert_cmpstr (shown, ==, "Test=éè");
}

/* An application name whose "]" is on the next line: the line is not an
 * event, and the next line is a line of its own (found by fuzzing) */
static void
test_app_bracket_on_next_line (void)
{
  const char text[] =
    HEADER
    "## PERF ## REGISTERED MARKER [Test=a] AS [0] BY APP [app]\r\n"
    "## PERF ## APP [app\n"                                          /* 5 */
    "] EVT [0] DUR [4672]\r\n"                                      /* 6: foreign */
    "## PERF ## APP [app] EVT [0] DUR [7]\r\n";                     /* 7 */
  g_autoptr(PsEventStore) store = parse_bytes (text, sizeof text - 1);
  guint32 track = find_track (store, 0, "app", 0, 1);

  assert_warnings (store, "W-UNKNOWN@5 I-FOREIGN@6");
  assert_values (store, track, "7");
}

/* §7 #32, #33, #34 */
static void
test_sessions (void)
{
  g_autoptr(PsEventStore) store = parse (
    "## PERF ## REGISTERED MARKER [early] AS [1] BY APP [app]\r\n"        /* 1: before header */
    "## PERF ## APP [app] EVT [1] DUR [1]\r\n"
    HEADER                                                                /* 3-5 */
    "## PERF ## APP [app] EVT [1] DUR [2]\r\n"                           /* 6: registry reset */
    "## PERF ## DEVNAME=[dev]\r\n"
    "## PERF ## OSVERSION=[6.0] BUILD=[3123]\r\n"                        /* 8: header only */
    "## PERF ## OSVERSION=[6.0] BUILD=[3124]\r\n"                        /* 9 */
    "## PERF ## REGISTERED MARKER [m] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [3]\r\n");

  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 4);
  g_assert_true (ps_event_store_get_session (store, 0)->implicit);
  g_assert_false (ps_event_store_get_session (store, 1)->implicit);
  g_assert_cmpuint (ps_event_store_get_session (store, 1)->first_line, ==, 3);
  g_assert_cmpuint (ps_event_store_get_session (store, 1)->last_line, ==, 7);
  g_assert_cmpuint (ps_event_store_get_session (store, 2)->first_line, ==, 8);
  g_assert_cmpuint (ps_event_store_get_session (store, 2)->last_line, ==, 8);
  g_assert_cmpuint (ps_event_store_get_session (store, 3)->first_measurement, ==, 2);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 1, "DEVNAME"), ==, "dev");
  g_assert_null (ps_event_store_get_metadata (store, 3, "PLATFORM"));
  g_assert_cmpstr (ps_event_store_get_metadata (store, 3, "BUILD"), ==, "3124");

  assert_values (store, find_track (store, 0, "app", 1, 1), "1");
  assert_values (store, find_track (store, 1, "app", 1, 1), "2");
  g_assert_true (ps_event_store_get_track (store, find_track (store, 1, "app", 1, 1))->flags
                 & PS_TRACK_FLAG_IMPLICIT);
  assert_values (store, find_track (store, 3, "app", 1, 1), "3");
  assert_warnings (store,
                   "W-NOHEADER@1 W-UNKNOWNAPP@2 W-NORES@1 W-UNREGISTERED@6 W-UNKNOWNAPP@11 W-NORES@9");
}

/* §7 #35 */
static void
test_calibration (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "## PERF ## APP [app] CAL [14]\r\n"
    "## PERF ## APP [app] CAL [-2.5]\r\n"
    "## PERF ## APP [app] CAL [abc]\r\n"                                  /* 6 */
    "## PERF ## APP [app] CPU CAL [2386]\r\n"
    "## PERF ## APP [app] CPU CAL []\r\n"                                 /* 8 */
    "## PERF ## APP [app] CPU MON [app] FREQ [x]\r\n"                     /* 9 */
    "## PERF ## APP [app] CPU MON [app] FREQ [500]\r\n");

  assert_warnings (store, "W-BADCAL@6 W-BADCAL@8 W-BADCAL@9");
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 0);
  g_assert_cmpuint (ps_event_store_get_n_tracks (store), ==, 0);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "CPU_MON_FREQ"), ==, "500");
}

/* §7 #36, #37, #38 and MEM values */
static void
test_cpu_mem_other (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "## PERF ## REGISTERED MARKER [CPU: app] AS [103] BY APP [app]\r\n"
    "## PERF ## REGISTERED MARKER [MEM: app] AS [102] BY APP [app]\r\n"
    "## PERF ## REGISTERED MARKER [Test=X] AS [3] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [103] CPU [123.4]\r\n"
    "## PERF ## APP [app] EVT [103] CPU [-1]\r\n"
    "## PERF ## APP [app] EVT [103] CPU [57,5]\r\n"                       /* 9: comma */
    "## PERF ## APP [app] EVT [103] CPU [high]\r\n"                       /* 10 */
    "## PERF ## APP [app] EVT [102] MEM [10059776]\r\n"
    "## PERF ## APP [app] EVT [102] MEM [1024.5]\r\n"                     /* 12: fraction */
    "## PERF ## APP [app] EVT [102] MEM [-5]\r\n"                         /* 13 */
    "## PERF ## APP [app] EVT [3] DUR [100]\r\n"
    "## PERF ## APP [app] EVT [3] CPU [50]\r\n"                           /* 15: mixed */
    "## PERF ## APP [app] EVT [3] ERR [1]\r\n"                            /* 16: other kind */
    "## PERF ## APP [app] EVT [3] err [2]\r\n");

  assert_warnings (store, "W-COMMA@9 W-BADVALUE@10 W-FRACTION@12 W-BADVALUE@13 W-MIXED@15 I-OTHERKIND@16");
  assert_values (store, find_track (store, 0, "app", 103, 1), "123.4!range -1!range 57.5");
  assert_values (store, find_track (store, 0, "app", 102, 1), "10059776 1024.5");
  assert_values (store, find_track (store, 0, "app", 3, 1), "100 50 ERR:1 ERR:2");
}

/* A DUR right after a registration takes the fast path; the checks must
 * still hold (§7 #37, #10) */
static void
test_registration_then_fast_dur (void)
{
  g_autoptr(PsEventStore) store = parse (
    HEADER
    "## PERF ## REGISTERED MARKER [a] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [10]\r\n"
    "## PERF ## REGISTERED MARKER [b] AS [2] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [2] CPU [5]\r\n"
    "## PERF ## APP [app] EVT [2] DUR [20]\r\n"                         /* 8: mixed */
    "## PERF ## REGISTERED MARKER [c] AS [3] BY APP [zzz]\r\n"
    "## PERF ## APP [zzz] EVT [3] DUR [30]\r\n"                         /* 10: unknown app */
    "## PERF ## REGISTERED MARKER [a] AS [1] BY APP [app]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [11]\r\n"
    "## PERF ## APP [app] EVT [1] DUR [12]\r\n");

  assert_warnings (store, "W-MIXED@8 W-UNKNOWNAPP@10");
  assert_values (store, find_track (store, 0, "app", 1, 1), "10");
  assert_values (store, find_track (store, 0, "app", 2, 1), "5 20");
  assert_values (store, find_track (store, 0, "zzz", 3, 1), "30");
  assert_values (store, find_track (store, 0, "app", 1, 2), "11 12");
}

/* §7 #39 */
static void
test_long_line (void)
{
  g_autoptr(GString) text = g_string_new (HEADER "## PERF ## REGISTERED MARKER [");
  g_autoptr(PsEventStore) store = NULL;
  guint32 track;

  for (guint i = 0; i < 100000; i++)
    g_string_append (text, "Key=Value,");
  g_string_append (text, "end] AS [1] BY APP [app]\r\n## PERF ## APP [app] EVT [1] DUR [1]\r\n");
  store = parse_bytes_split (text->str, text->len, 4096);

  assert_warnings (store, "");
  track = find_track (store, 0, "app", 1, 1);
  g_assert_cmpuint (strlen (track_name (store, track)), ==, 100000 * 10 + 3);
  assert_values (store, track, "1");
}

/* §7 #40 */
static void
test_sibling_dialect (void)
{
  g_autoptr(PsEventStore) store = parse (
    "### PERF TEST [ Registry ] ###\r\n"
    "## PERF ## Frequency is [1000] ticks per second\r\n"
    "## PERF ## [RegQueryValueEx] took [250] ticks\r\n"
    "## PERF ## [RegQueryValueEx] took [350] ticks\r\n");
  g_autoptr(GPtrArray) series = NULL;
  PsSeriesOptions options = { .group_by_name = TRUE };
  PsSeries *s;

  assert_warnings (store, "W-NOHEADER@1 W-DIALECT@1");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "TEST"), ==, "Registry");
  g_assert_cmpfloat (ps_event_store_get_tick_rate (store, 0, 0), ==, 1000);
  series = ps_series_collect (store, &options);
  s = find_series (series, "RegQueryValueEx", PS_SERIES_DURATION, 1);
  g_assert_cmpuint (s->stats.count, ==, 2);
  g_assert_cmpfloat (s->stats.mean, ==, 0.3);
}

/* Two stages (PsParserStages): the scan stage runs ahead of the apply
 * stage, chunk after chunk, as in the loader's pipeline */

/* Everything digest () has, and the warnings' offsets, sessions and
 * messages and the measurements' kinds, flags and values */
static char *
full_digest (PsEventStore *store)
{
  g_autofree char *base = digest (store);
  GString *text = g_string_new (base);
  PsMeasurementIter iter;
  PsMeasurement m;

  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning w;

      ps_event_store_get_warning (store, i, &w);
      g_string_append_printf (text, "\n%s line %" G_GUINT64_FORMAT " offset %" G_GUINT64_FORMAT " session %u: %s",
                              w.code, w.line, w.offset, w.session, w.message);
    }
  g_string_append_printf (text, "\nraised %" G_GUINT64_FORMAT "\n",
                          ps_event_store_get_n_warnings_raised (store));
  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    g_string_append_printf (text, "%u/%u/%" G_GINT64_MODIFIER "x ", m.kind, m.flags, m.value.bytes);

  return g_string_free (text, FALSE);
}

/* A log with what crosses chunk boundaries: events before the first
 * header, three sessions, registrations and re-registrations (also of ids
 * the fast path does not keep), events of two applications and of 300
 * more (more than the scan stage numbers), and a fault of every kind, with
 * CR LF, LF and lone CR line ends; the last line is incomplete */
static char *
staged_sample (gsize *length)
{
  static const char * const ends[] = { "\r\n", "\r\n", "\n", "\r\n", "\r" };
  static const guint ids[] = { 0, 1, 2, 5, 99, 102, 103, 127, 128, 200 };
  GString *text = g_string_new ("## PERF ## APP [app] EVT [0] DUR [1]\r\n");

  for (guint session = 0; session < 3; session++)
    {
      g_string_append (text,
                       "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                       "## PERF ## REGISTERED APP [app] PROCCESSID [0x1]\r\n"
                       "## PERF ## REGISTERED APP [b] PROCESSID [2]\r\n");
      if (session != 1)
        g_string_append (text, "## PERF ## RESOLUTION [1193180] TICKS PER SECOND\r\n");

      for (guint i = 0; i < 1500; i++)
        {
          const char *app = (i % 7 == 3) ? "b" : (i % 13 == 5) ? "averyveryverylongapplicationname" : "app";
          guint id = ids[(i * 7 + session) % G_N_ELEMENTS (ids)];
          const char *end = ends[(i * 3) % G_N_ELEMENTS (ends)];

          switch (i % 23)
            {
            case 0:
              g_string_append_printf (text, "## PERF ## REGISTERED MARKER [Test=T%u,Bytes=%u,time=%%AVG%%] AS [%u] BY APP [%s]%s",
                                      i % 4, 4096 << (i % 3), id, app, end);
              break;
            case 1:
              g_string_append_printf (text, "## PERF ## REGISTERED MARKER [x] AS [9] BY APP [y]] AS [%u] by APP %s]  %s",
                                      id, app, end);
              break;
            case 2:
              g_string_append_printf (text, "## PERF ## Registered Marker [R%u] AS [%u] BY APP [%s]%s", i, id, app, end);
              break;
            case 3:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] CPU [%u.%06u]%s", app, id, i % 130, i, end);
              break;
            case 4:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] MEM [%u]%s", app, id, 10000000 + i, end);
              break;
            case 5:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] DUR [%s]%s", app, id,
                                      (const char *[]) { "12a4", "", "-3", "99999999999999999999", "123.5", "0x10" }[i % 6], end);
              break;
            case 6:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] MEM [%s]%s", app, id,
                                      (const char *[]) { "1.5", "-4", "x" }[i % 3], end);
              break;
            case 7:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] CPU [%s]%s", app, id,
                                      (const char *[]) { "1,5", "101.5", "-1", "12345678901234567", "1." }[i % 5], end);
              break;
            case 8:
              for (guint k = 0; k < 5; k++)
                g_string_append_printf (text, "## PERF ## APP [app%u] EVT [1] DUR [%u]%s", session * 1000 + i * 5 + k, i, end);
              break;
            case 9:
              g_string_append_printf (text, "12:00:%02u ## PERF ## APP [%s] EVT [%u] DUR [5]%s", i % 60, app, id, end);
              break;
            case 10:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] DUR [7]", app, id);
              g_string_append_c (text, '\0');
              g_string_append_printf (text, "rest%s", end);
              break;
            case 11:
              g_string_append_printf (text, "## PERF ##  APP [%s] EVT [%u] DUR [5]  %s", app, id, end);
              break;
            case 12:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] ERR [1]%s", app, id, end);
              break;
            case 13:
              g_string_append_printf (text, "debug output %u%s%s", i, end, end);
              break;
            case 14:
              if (i % 3 == 0)
                g_string_append_printf (text, "## PERF ## APP [%s] EVT [x] DUR [1]%s", app, end);
              else
                g_string_append_printf (text, "## PERF ## APP [%s] CAL [%s]%s", app, i % 2 ? "14" : "x", end);
              break;
            case 15:
              if (i % 5 == 0)
                g_string_append_printf (text, "## PERF ## RESOLUTION [1000] TICKS PER SECOND%s", end);
              else
                g_string_append_printf (text, "## PERF ## [foo] took [%u] ticks%s", i, end);
              break;
            case 16:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [000%u] DUR [%u]%s", app, id, i, end);
              break;
            default:
              g_string_append_printf (text, "## PERF ## APP [%s] EVT [%u] DUR [%u]%s", app, id, (i * 7919) % 100000000, end);
              break;
            }
        }
    }
  g_string_append (text, "## PERF ## APP [app] EVT [0] DUR [45");

  *length = text->len;
  return g_string_free (text, FALSE);
}

/* Scans up to `ahead` chunks before applying the first of them */
static PsEventStore *
parse_staged (const char *data,
              gsize       length,
              gsize       chunk,
              guint       ahead)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(PsParser) parser = ps_format_new_parser (&ps_format_ce_perflog, builder);
  g_autoptr(GQueue) scanned = g_queue_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (ps_parser_has_stages (parser));
  for (gsize offset = 0; offset < length || !g_queue_is_empty (scanned); offset += chunk)
    {
      if (offset < length)
        g_queue_push_tail (scanned, ps_parser_scan (parser, (const guint8 *) data + offset,
                                                    MIN (chunk, length - offset)));
      if (g_queue_get_length (scanned) > ahead || offset >= length)
        g_assert_true (ps_parser_apply (parser, g_queue_pop_head (scanned), &error));
    }
  g_assert_true (ps_parser_finish (parser, &error));
  g_assert_no_error (error);
  ps_store_builder_flush (builder);

  return g_steal_pointer (&store);
}

/* Whatever the chunks and however far the scan runs ahead, the store is
 * the one that byte-by-byte feeding gives, where no line lies inside one
 * chunk and every line goes the general way */
static void
test_staged_any_chunks (void)
{
  gsize length;
  g_autofree char *data = staged_sample (&length);
  g_autoptr(PsEventStore) reference = parse_bytes_split (data, length, 1);
  g_autofree char *expected = full_digest (reference);
  static const gsize chunks[] = { 2, 7, 64, 333, 4096, 65536 };

  /* The sample reaches every path */
  g_assert_cmpuint (length, >, 100000);
  g_assert_cmpuint (ps_event_store_get_n_sessions (reference), ==, 4);
  g_assert_cmpuint (ps_event_store_get_n_measurements (reference), >, 2500);
  for (const char * const *code = (const char *[]) { "W-NOHEADER", "W-UNREGISTERED", "W-UNKNOWNAPP",
                                                      "W-BADVALUE", "W-FRACTION", "W-COMMA", "W-MIXED",
                                                      "W-NUL", "W-PREFIX", "W-UNKNOWN", "W-BADCAL",
                                                      "W-RESCHANGE", "W-DIALECT", "W-NORES", "W-TRUNCATED",
                                                      "I-HIGHID", "I-BRACKET", "I-OTHERKIND", "I-FOREIGN",
                                                      NULL };
       *code != NULL; code++)
    {
      PsWarning w;

      if (find_warning (reference, *code, &w) == NULL)
        g_error ("the sample gives no %s", *code);
    }

  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    for (guint ahead = 0; ahead <= 3; ahead += 3)
      {
        g_autoptr(PsEventStore) store = parse_staged (data, length, chunks[i], ahead);
        g_autofree char *got = full_digest (store);

        g_assert_cmpstr (got, ==, expected);
      }
  {
    g_autoptr(PsEventStore) store = parse_bytes (data, length);
    g_autofree char *got = full_digest (store);

    g_assert_cmpstr (got, ==, expected);
  }
}

/* The loader scans in its read-ahead thread: the same store again */
static void
test_staged_loader (void)
{
  gsize length;
  g_autofree char *data = staged_sample (&length);
  g_autoptr(PsEventStore) reference = parse_bytes_split (data, length, 1);
  g_autofree char *expected = full_digest (reference);
  static const gsize chunks[] = { 1000, 4096, 65537 };

  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (data, length, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = ps_load_stream (stream, "sample.log",
                                                      &(PsLoadParams) {
                                                        .chunk_size = chunks[i],
                                                        .total_size = length,
                                                      },
                                                      NULL, &error);
      g_autofree char *got = NULL;

      g_assert_no_error (error);
      g_assert_true (ps_event_store_is_complete (store));
      g_assert_cmpuint (ps_event_store_get_bytes_read (store), ==, length);
      got = full_digest (store);
      g_assert_cmpstr (got, ==, expected);
    }
}

/* Lines, byte offsets and instances where a chunk ends inside a
 * registration, an event and a line with a NUL byte */
static void
test_staged_boundaries (void)
{
  const char *text =
    HEADER                                                          /* lines 1-3 */
    "## PERF ## REGISTERED MARKER [a] AS [1] BY APP [app]\r\n"     /* 4 */
    "## PERF ## APP [app] EVT [1] DUR [10]\r\n"                    /* 5 */
    "## PERF ## REGISTERED MARKER [b] AS [1] BY APP [app]\r\n"     /* 6 */
    "## PERF ## APP [app] EVT [1] DUR [20]\r\n"                    /* 7 */
    "## PERF ## APP [app] EVT [1] DUR [2";
  const char *tail = "1]\n## PERF ## APP [app] EVT [1] DUR [22]\r\n";  /* 8, 9 */
  g_autoptr(GString) data = g_string_new (text);
  gsize nul_line_start;
  g_autoptr(PsEventStore) store = NULL;
  PsWarning w;
  PsMeasurement m;

  g_string_append (data, tail);
  nul_line_start = data->len;
  g_string_append_len (data, "## PERF ## APP [app] EVT [1] DUR [23]\0x\r\n", 41);  /* 10 */

  /* The first chunk ends inside line 6, the second registration; the
   * later ones elsewhere, line 8 among them */
  for (gsize chunk = strchr (strstr (data->str, "[b]"), '\n') - data->str - 52;
       chunk < (gsize) (strchr (strstr (data->str, "[b]"), '\n') - data->str); chunk++)
    {
      g_clear_object (&store);
      store = parse_staged (data->str, data->len, chunk, 2);

      assert_values (store, find_track (store, 0, "app", 1, 1), "10");
      assert_values (store, find_track (store, 0, "app", 1, 2), "20 21 22 23");
      g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 5);
      ps_event_store_get_measurement (store, 2, &m);
      g_assert_cmpuint (m.line, ==, 8);
      ps_event_store_get_measurement (store, 4, &m);
      g_assert_cmpuint (m.line, ==, 10);
      assert_warnings (store, "W-NUL@10");
      g_assert_nonnull (find_warning (store, "W-NUL", &w));
      g_assert_cmpuint (w.offset, ==, nul_line_start + 37);
    }
}

static void
test_sniff (void)
{
  const char *log = "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n";
  const char *other = "Some,CSV,File\r\n1,2,3\r\n";

  g_assert_true (ps_format_sniff ((const guint8 *) log, strlen (log), "x.txt", NULL) == &ps_format_ce_perflog);
  g_assert_null (ps_format_sniff ((const guint8 *) other, strlen (other), "perf.log", NULL));
}

/* The applications of a session are one value each for names and ids,
 * joined with ", " in the order of their lines, however often one comes
 * again; the keys keep the order of the first lines, and every session
 * has its own list */
static void
test_repeated_app_registrations (void)
{
  g_autoptr(GString) text = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                          "## PERF ## REGISTERED APP [harness] PROCCESSID [0x0]\r\n"
                                          "## PERF ## PLATFORM=[CEPC] CPU=[x86]\r\n");
  g_autoptr(GString) apps = g_string_new ("harness");
  g_autoptr(GString) pids = g_string_new ("0x0");
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GArray) entries = NULL;
  static const char * const keys[] = { "OSVERSION", "BUILD", "APP", "PROCESSID", "PLATFORM", "CPU" };

  for (guint i = 1; i < 5000; i++)
    {
      const char *name = i % 1000 == 0 ? "other" : "harness";

      g_string_append_printf (text, "## PERF ## REGISTERED APP [%s] PROCCESSID [0x%x]\r\n", name, i);
      g_string_append_printf (apps, ", %s", name);
      g_string_append_printf (pids, ", 0x%x", i);
    }
  g_string_append (text, "## PERF ## APP [other] EVT [0] DUR [1]\r\n"
                         "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                         "## PERF ## REGISTERED APP [second] PROCCESSID [0x1]\r\n");
  store = parse_bytes (text->str, text->len);

  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 2);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "APP"), ==, apps->str);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "PROCESSID"), ==, pids->str);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 1, "APP"), ==, "second");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 1, "PROCESSID"), ==, "0x1");
  /* The lists once, not every longer one (50 MB of them before) */
  g_assert_cmpuint (ps_event_store_get_memory_size (store), <, 4 * text->len);
  /* "other" was registered: its event is not of an unknown application */
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_assert_cmpstr (warning.code, !=, "W-UNKNOWNAPP");
    }

  entries = ps_event_store_list_metadata (store, 0);
  g_assert_cmpuint (entries->len, ==, G_N_ELEMENTS (keys));
  for (guint i = 0; i < entries->len; i++)
    g_assert_cmpstr (g_array_index (entries, PsMetadataEntry, i).key, ==, keys[i]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ce-perflog/example/file", test_example_file);
  g_test_add_func ("/ce-perflog/example/any-split", test_example_any_split);
  g_test_add_func ("/ce-perflog/fast-path", test_fast_path_agrees);
  g_test_add_func ("/ce-perflog/fast-path-cpu-mem", test_fast_path_cpu_mem);
  g_test_add_func ("/ce-perflog/sniff", test_sniff);
  g_test_add_func ("/ce-perflog/registration-then-fast-dur", test_registration_then_fast_dur);
  g_test_add_func ("/ce-perflog/repeated-app-registrations", test_repeated_app_registrations);
  g_test_add_func ("/ce-perflog/stages/any-chunks", test_staged_any_chunks);
  g_test_add_func ("/ce-perflog/stages/loader", test_staged_loader);
  g_test_add_func ("/ce-perflog/stages/boundaries", test_staged_boundaries);
  g_test_add_func ("/ce-perflog/malformed/01-empty", test_empty);
  g_test_add_func ("/ce-perflog/malformed/02-04-foreign-unknown-prefix", test_foreign_unknown_prefix);
  g_test_add_func ("/ce-perflog/malformed/05-06-missing-resolution", test_missing_resolution);
  g_test_add_func ("/ce-perflog/malformed/07-08-resolution-position", test_resolution_position);
  g_test_add_func ("/ce-perflog/malformed/09-12-registry", test_registry);
  g_test_add_func ("/ce-perflog/malformed/13-16-duration-values", test_duration_values);
  g_test_add_func ("/ce-perflog/malformed/17-18-marker-ids", test_marker_ids);
  g_test_add_func ("/ce-perflog/malformed/19-22-spellings", test_tolerated_spellings);
  g_test_add_func ("/ce-perflog/malformed/23-24-descriptions", test_descriptions);
  g_test_add_func ("/ce-perflog/malformed/25-30-31-line-ends", test_line_ends_and_last_line);
  g_test_add_func ("/ce-perflog/malformed/26-27-encodings", test_encodings);
  g_test_add_func ("/ce-perflog/malformed/28-29-raw-bytes-nul", test_raw_bytes_and_nul);
  g_test_add_func ("/ce-perflog/malformed/app-bracket-on-next-line", test_app_bracket_on_next_line);
  g_test_add_func ("/ce-perflog/malformed/32-34-sessions", test_sessions);
  g_test_add_func ("/ce-perflog/malformed/35-calibration", test_calibration);
  g_test_add_func ("/ce-perflog/malformed/36-38-cpu-mem-other", test_cpu_mem_other);
  g_test_add_func ("/ce-perflog/malformed/39-long-line", test_long_line);
  g_test_add_func ("/ce-perflog/malformed/40-sibling-dialect", test_sibling_dialect);

  return g_test_run ();
}

/* test-native-format.c — saved runs: round trips, damage, interrupted saves
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every fixture of every format is loaded, saved in the native format,
 * loaded again, and the two stores are compared field by field; with
 * PERFSCOPE_CLI set, the JSON of info, stats, calltree and counters too.
 * A saved run cut at every length, or with any one bit flipped, must give
 * an error with a byte offset and never crash. A save killed at random
 * points must leave the file that was there.
 */
#include "config.h"

#include <string.h>
#include <signal.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <zlib.h>

#include "pmclog-writer.h"
#include "ps-error.h"
#include "ps-event-store-private.h"
#include "ps-format.h"
#include "ps-loader.h"
#include "ps-native-writer.h"

static const char * const fixtures[] = {
  "ce/fsperf_CEPC_x86_6_0_3122.log",
  "rtl/startup_4711.log",
  "rtl/calltree_4711.log",
  "diff/run-a.log",
  "diff/run-b.log",
  "perflib-plv2/processor-2cpu.plv2",
  "pdh-csv/logman-pdt.csv",
  "pdh-csv/cp1252.csv",
  "pdh-csv/utf16le.csv",
  "pdh-csv/typeperf-stdout.csv",
  "pdh-csv/utf8-bom.csv",
  "pdh-csv/relog-ist.tsv",
  "vs-report-csv/ld5_cc.csv",
  "vs-report-csv/l4_cc.csv",
  "vs-report-csv/lr_cc.csv",
  "vs-report-csv/lr2_cc.csv",
  "vs-report-csv/lr3_cc.csv",
  "vs-report-csv/pigLatin.csv",
  "pmcstat-callgraph/dd.txt",
  "pmcstat-callgraph/iperf3.txt",
  "pmcstat-callgraph/shared.txt",
  "pmcstat-callgraph/shared2.txt",
  "pmcstat-callgraph/simple.txt",
  "pmcstat-callgraph/weird-stack-line-bad-count.txt",
  "pmcstat-callgraph/weird-stack-line-bad-percent.txt",
  "pmcstat-callgraph/weird-stack-line-no-function-name.txt",
};

/* A small hwpmc log: two PMCs, a process and a thread, call chains */
static GBytes *
make_pmclog (void)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000u);
  const guint64 tsc = 1000000;
  const guint32 clock_pmc = 0x00010100u;
  const guint32 cycles_pmc = 0x00020200u;
  guint64 pcs[3];
  GBytes *bytes;

  ps_pmclog_writer_initialize (writer, tsc, 0x80, 2000000000, 1700000000, 250000000, "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, tsc, clock_pmc, 0x1000, 0x80, 0, "CLOCK.HARD");
  ps_pmclog_writer_pmcallocate (writer, tsc, cycles_pmc, 0x1234, 0x80, 65536);
  ps_pmclog_writer_map_in (writer, tsc, PS_PMCLOG_KERNEL_PID, 0xffffffff80200000u, "/boot/kernel/kernel");
  ps_pmclog_writer_proc_create (writer, tsc, 42, 0, "app");
  ps_pmclog_writer_thr_create (writer, tsc, 100101, 42, 0, "worker");
  ps_pmclog_writer_procexec (writer, tsc + 2000, 42, 0xFFFFFFFF, 0, 0x555500000000u, "/usr/bin/app");
  for (guint i = 0; i < 50; i++)
    {
      pcs[0] = 0x555500001000u + 16 * (i % 7);
      pcs[1] = 0x555500002000u + 32 * (i % 3);
      pcs[2] = 0x555500003000u;
      ps_pmclog_writer_callchain (writer, tsc + 4000 + 1000 * i, 42, 100101, i % 2 ? clock_pmc : cycles_pmc,
                                  (guint32)(i % 4) << 16 | PS_PMCLOG_CC_USER, pcs, 1 + i % 3);
    }
  pcs[0] = 0xffffffff80300010u;
  ps_pmclog_writer_callchain (writer, tsc + 90000, 42, 100101, clock_pmc, 1u << 16, pcs, 1);
  ps_pmclog_writer_closelog (writer, tsc + 100000);

  bytes = g_bytes_new (ps_pmclog_writer_peek (writer, NULL), ps_pmclog_writer_get_length (writer));
  ps_pmclog_writer_free (writer);
  return bytes;
}

static PsEventStore *
load_bytes (const guint8   *data,
            gsize           length,
            const char     *file_name,
            const PsFormat *format,
            gsize           chunk_size,
            GError        **error)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (data, length, NULL);

  return ps_load_stream (stream, file_name,
                         &(PsLoadParams) { .format = format, .chunk_size = chunk_size, .total_size = length }, NULL,
                         error);
}

static GBytes *
save_to_bytes (PsEventStore *store)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (ps_native_write_stream (store, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, &error));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

static void
assert_doubles_same (double a,
                     double b)
{
  g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
}

static void
assert_series_equal (const PsCounterSeries *a,
                     const PsCounterSeries *b)
{
  PsCounterBucket current_a, current_b;

  g_assert_cmpuint (a->n_readings, ==, b->n_readings);
  g_assert_cmpuint (a->stats.n_values, ==, b->stats.n_values);
  g_assert_cmpuint (a->stats.n_missing, ==, b->stats.n_missing);
  assert_doubles_same (a->stats.min, b->stats.min);
  assert_doubles_same (a->stats.max, b->stats.max);
  assert_doubles_same (a->stats.sum, b->stats.sum);
  assert_doubles_same (a->stats.first, b->stats.first);
  assert_doubles_same (a->stats.last, b->stats.last);
  g_assert_cmpint (a->stats.first_ns, ==, b->stats.first_ns);
  g_assert_cmpint (a->stats.last_ns, ==, b->stats.last_ns);
  g_assert_cmpint (a->begin_ns, ==, b->begin_ns);
  g_assert_cmpuint (a->shift, ==, b->shift);
  g_assert_cmpuint (a->n_used, ==, b->n_used);
  ps_counter_series_get_current (a, &current_a);
  ps_counter_series_get_current (b, &current_b);
  g_assert_cmpmem (&current_a, sizeof current_a, &current_b, sizeof current_b);
  g_assert_cmpuint (a->current_index, ==, b->current_index);
  g_assert_cmpint (a->current_fresh, ==, b->current_fresh);
  g_assert_cmpint (a->buckets != NULL, ==, b->buckets != NULL);
  if (a->buckets != NULL)
    g_assert_cmpmem (a->buckets, a->n_used * sizeof (PsCounterBucket), b->buckets, b->n_used * sizeof (PsCounterBucket));
}

/* Everything the store holds, apart from the file it came from and the
 * bytes read */
static void
assert_stores_equal (PsEventStore *a,
                     PsEventStore *b)
{
  PsMeasurementIter iter_a, iter_b;
  PsMeasurement ma, mb;
  gint64 begin_a = 0, end_a = 0, begin_b = 0, end_b = 0;
  guint n_series;

  g_assert_cmpstr (ps_event_store_get_format (a), ==, ps_event_store_get_format (b));
  g_assert_cmpint (ps_event_store_is_complete (a), ==, ps_event_store_is_complete (b));
  if (!ps_event_store_is_complete (a))
    g_assert_cmpstr (ps_event_store_get_error (a)->message, ==, ps_event_store_get_error (b)->message);

  g_assert_cmpuint (_ps_event_store_get_n_strings (a), ==, _ps_event_store_get_n_strings (b));
  for (guint i = 0; i < _ps_event_store_get_n_strings (a); i++)
    {
      g_assert_cmpstr (ps_event_store_get_string (a, i), ==, ps_event_store_get_string (b, i));
      g_assert_cmpint (_ps_event_store_string_is_interned (a, i), ==, _ps_event_store_string_is_interned (b, i));
    }

  g_assert_cmpuint (ps_event_store_get_n_sessions (a), ==, ps_event_store_get_n_sessions (b));
  for (guint s = 0; s < ps_event_store_get_n_sessions (a); s++)
    {
      const PsSessionInfo *sa = ps_event_store_get_session (a, s);
      const PsSessionInfo *sb = ps_event_store_get_session (b, s);
      g_autoptr(GArray) meta_a = ps_event_store_list_metadata (a, s);
      g_autoptr(GArray) meta_b = ps_event_store_list_metadata (b, s);

      g_assert_cmpuint (sa->first_line, ==, sb->first_line);
      g_assert_cmpuint (sa->last_line, ==, sb->last_line);
      g_assert_cmpuint (sa->first_measurement, ==, sb->first_measurement);
      g_assert_cmpint (sa->origin_unix_ns, ==, sb->origin_unix_ns);
      g_assert_cmpint (sa->implicit, ==, sb->implicit);
      g_assert_cmpuint (meta_a->len, ==, meta_b->len);
      for (guint i = 0; i < meta_a->len; i++)
        {
          g_assert_cmpstr (g_array_index (meta_a, PsMetadataEntry, i).key, ==, g_array_index (meta_b, PsMetadataEntry, i).key);
          g_assert_cmpstr (g_array_index (meta_a, PsMetadataEntry, i).value, ==, g_array_index (meta_b, PsMetadataEntry, i).value);
        }
    }

  g_assert_cmpuint (_ps_event_store_get_n_all_tick_rates (a), ==, _ps_event_store_get_n_all_tick_rates (b));
  for (guint i = 0; i < _ps_event_store_get_n_all_tick_rates (a); i++)
    {
      guint32 session_a, session_b;
      guint64 from_a, from_b;
      double rate_a, rate_b;

      _ps_event_store_get_tick_rate_entry (a, i, &session_a, &from_a, &rate_a);
      _ps_event_store_get_tick_rate_entry (b, i, &session_b, &from_b, &rate_b);
      g_assert_cmpuint (session_a, ==, session_b);
      g_assert_cmpuint (from_a, ==, from_b);
      assert_doubles_same (rate_a, rate_b);
    }

  g_assert_cmpuint (ps_event_store_get_n_tracks (a), ==, ps_event_store_get_n_tracks (b));
  for (guint i = 0; i < ps_event_store_get_n_tracks (a); i++)
    {
      const PsTrack *ta = ps_event_store_get_track (a, i);
      const PsTrack *tb = ps_event_store_get_track (b, i);

      g_assert_cmpuint (ta->name, ==, tb->name);
      g_assert_cmpuint (ta->category, ==, tb->category);
      g_assert_cmpuint (ta->parent, ==, tb->parent);
      g_assert_cmpuint (ta->session, ==, tb->session);
      g_assert_cmpint (ta->number, ==, tb->number);
      g_assert_cmpuint (ta->ordinal, ==, tb->ordinal);
      g_assert_cmpuint (ta->unit, ==, tb->unit);
      g_assert_cmpuint (ta->line, ==, tb->line);
      g_assert_cmpuint (ta->kind, ==, tb->kind);
      g_assert_cmpuint (ta->flags, ==, tb->flags);
    }

  g_assert_cmpuint (_ps_event_store_get_n_others (a), ==, _ps_event_store_get_n_others (b));
  for (guint i = 0; i < _ps_event_store_get_n_others (a); i++)
    {
      guint32 kind_a, raw_a, kind_b, raw_b;

      _ps_event_store_get_other_ids (a, i, &kind_a, &raw_a);
      _ps_event_store_get_other_ids (b, i, &kind_b, &raw_b);
      g_assert_cmpuint (kind_a, ==, kind_b);
      g_assert_cmpuint (raw_a, ==, raw_b);
    }

  g_assert_cmpuint (ps_event_store_get_n_measurements (a), ==, ps_event_store_get_n_measurements (b));
  ps_measurement_iter_init (&iter_a, a);
  ps_measurement_iter_init (&iter_b, b);
  while (ps_measurement_iter_next (&iter_a, &ma))
    {
      g_assert_true (ps_measurement_iter_next (&iter_b, &mb));
      g_assert_cmpuint (ma.index, ==, mb.index);
      g_assert_cmpuint (ma.line, ==, mb.line);
      g_assert_cmpuint (ma.track, ==, mb.track);
      g_assert_cmpuint (ma.kind, ==, mb.kind);
      g_assert_cmpuint (ma.flags, ==, mb.flags);
      if (ma.kind == PS_MEASURE_OTHER)
        g_assert_cmpuint (ma.value.other, ==, mb.value.other);
      else
        g_assert_cmpmem (&ma.value, sizeof ma.value, &mb.value, sizeof mb.value);
    }

  g_assert_cmpuint (ps_event_store_get_n_spans (a), ==, ps_event_store_get_n_spans (b));
  for (guint64 i = 0; i < ps_event_store_get_n_spans (a); i++)
    g_assert_cmpmem (ps_event_store_get_span (a, i), sizeof (PsSpan), ps_event_store_get_span (b, i), sizeof (PsSpan));
  g_assert_cmpuint (_ps_event_store_get_n_span_contexts (a), ==, _ps_event_store_get_n_span_contexts (b));
  for (guint64 i = 0; i < ps_event_store_get_n_spans (a); i++)
    g_assert_cmpuint (ps_event_store_get_span_context (a, i), ==, ps_event_store_get_span_context (b, i));
  g_assert_cmpuint (ps_event_store_get_n_marks (a), ==, ps_event_store_get_n_marks (b));
  for (guint64 i = 0; i < ps_event_store_get_n_marks (a); i++)
    g_assert_cmpmem (ps_event_store_get_mark (a, i), sizeof (PsMark), ps_event_store_get_mark (b, i), sizeof (PsMark));
  g_assert_cmpuint (ps_event_store_get_n_samples (a), ==, ps_event_store_get_n_samples (b));
  for (guint64 i = 0; i < ps_event_store_get_n_samples (a); i++)
    g_assert_cmpmem (ps_event_store_get_sample (a, i), sizeof (PsSample), ps_event_store_get_sample (b, i), sizeof (PsSample));

  g_assert_cmpuint (ps_event_store_get_n_sample_sources (a), ==, ps_event_store_get_n_sample_sources (b));
  for (guint i = 0; i < ps_event_store_get_n_sample_sources (a); i++)
    g_assert_cmpmem (ps_event_store_get_sample_source (a, i), sizeof (PsSampleSource),
                     ps_event_store_get_sample_source (b, i), sizeof (PsSampleSource));

  g_assert_cmpuint (ps_event_store_get_n_counter_values (a), ==, ps_event_store_get_n_counter_values (b));
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (a); i++)
    {
      const PsCounterRaw *raw_a = ps_event_store_get_counter_raw (a, i);
      const PsCounterRaw *raw_b = ps_event_store_get_counter_raw (b, i);

      g_assert_cmpmem (ps_event_store_get_counter_value (a, i), sizeof (PsCounterValue),
                       ps_event_store_get_counter_value (b, i), sizeof (PsCounterValue));
      g_assert_true ((raw_a == NULL) == (raw_b == NULL));
      if (raw_a != NULL)
        g_assert_cmpmem (raw_a, sizeof *raw_a, raw_b, sizeof *raw_b);
    }
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (a), ==, ps_event_store_get_n_counter_readings (b));
  g_assert_cmpuint (ps_event_store_get_counter_stride (a), ==, ps_event_store_get_counter_stride (b));
  g_assert_cmpuint (ps_event_store_get_max_counter_values (a), ==, ps_event_store_get_max_counter_values (b));
  n_series = MAX (_ps_event_store_get_n_counter_series (a), _ps_event_store_get_n_counter_series (b));
  for (guint track = 0; track < n_series; track++)
    {
      const PsCounterSeries *sa = _ps_event_store_get_counter_series (a, track);
      const PsCounterSeries *sb = _ps_event_store_get_counter_series (b, track);
      gboolean used_a = sa != NULL && (sa->n_readings > 0 || sa->buckets != NULL);
      gboolean used_b = sb != NULL && (sb->n_readings > 0 || sb->buckets != NULL);

      g_assert_cmpint (used_a, ==, used_b);
      if (used_a)
        assert_series_equal (sa, sb);
    }

  g_assert_cmpuint (ps_event_store_get_n_frames (a), ==, ps_event_store_get_n_frames (b));
  for (guint i = 0; i < ps_event_store_get_n_frames (a); i++)
    g_assert_cmpmem (ps_event_store_get_frame (a, i), sizeof (PsFrame), ps_event_store_get_frame (b, i), sizeof (PsFrame));
  g_assert_cmpuint (ps_event_store_get_n_stack_nodes (a), ==, ps_event_store_get_n_stack_nodes (b));
  for (guint i = 0; i < ps_event_store_get_n_stack_nodes (a); i++)
    g_assert_cmpmem (ps_event_store_get_stack_node (a, i), sizeof (PsStackNode),
                     ps_event_store_get_stack_node (b, i), sizeof (PsStackNode));

  g_assert_cmpuint (ps_event_store_get_n_report_rows (a), ==, ps_event_store_get_n_report_rows (b));
  for (guint i = 0; i < ps_event_store_get_n_report_rows (a); i++)
    {
      const PsReportRow *ra = ps_event_store_get_report_row (a, i);
      const PsReportRow *rb = ps_event_store_get_report_row (b, i);

      g_assert_cmpuint (ra->line, ==, rb->line);
      g_assert_cmpuint (ra->frame, ==, rb->frame);
      g_assert_cmpuint (ra->parent, ==, rb->parent);
      g_assert_cmpuint (ra->track, ==, rb->track);
      g_assert_cmpuint (ra->kind, ==, rb->kind);
      g_assert_cmpuint (ra->level, ==, rb->level);
      g_assert_cmpuint (ra->calls, ==, rb->calls);
      g_assert_cmpint (ra->has_calls, ==, rb->has_calls);
      g_assert_cmpmem (ra->total, sizeof ra->total, rb->total, sizeof rb->total);
      g_assert_cmpmem (ra->min, sizeof ra->min, rb->min, sizeof rb->min);
      g_assert_cmpmem (ra->avg, sizeof ra->avg, rb->avg, sizeof rb->avg);
      g_assert_cmpmem (ra->max, sizeof ra->max, rb->max, sizeof rb->max);
      g_assert_cmpmem (ra->percent, sizeof ra->percent, rb->percent, sizeof rb->percent);
    }

  g_assert_cmpuint (ps_event_store_get_n_warnings (a), ==, ps_event_store_get_n_warnings (b));
  g_assert_cmpuint (ps_event_store_get_n_warnings_raised (a), ==, ps_event_store_get_n_warnings_raised (b));
  for (guint i = 0; i < ps_event_store_get_n_warnings (a); i++)
    {
      PsWarning wa, wb;

      ps_event_store_get_warning (a, i, &wa);
      ps_event_store_get_warning (b, i, &wb);
      g_assert_cmpstr (wa.code, ==, wb.code);
      g_assert_cmpstr (wa.message, ==, wb.message);
      g_assert_cmpuint (wa.line, ==, wb.line);
      g_assert_cmpuint (wa.offset, ==, wb.offset);
      g_assert_cmpuint (wa.session, ==, wb.session);
      g_assert_cmpint (wa.severity, ==, wb.severity);
    }

  g_assert_cmpint (ps_event_store_get_time_range (a, &begin_a, &end_a), ==,
                   ps_event_store_get_time_range (b, &begin_b, &end_b));
  g_assert_cmpint (begin_a, ==, begin_b);
  g_assert_cmpint (end_a, ==, end_b);
}

static GBytes *
fixture_bytes (const char *fixture)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", fixture, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

static PsEventStore *
load_original (GBytes     *bytes,
               const char *file_name)
{
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  store = load_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), file_name, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

/* Saved, sniffed and loaded again, whole and in small pieces */
static void
check_round_trip (PsEventStore *original)
{
  g_autoptr(GBytes) saved = save_to_bytes (original);
  gsize length;
  const guint8 *data = g_bytes_get_data (saved, &length);
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) whole = NULL;
  g_autoptr(PsEventStore) pieces = NULL;
  guint score = 0;

  g_assert_true (ps_format_sniff (data, length, "run", &score) == &ps_format_native);
  g_assert_cmpuint (score, ==, 100);

  whole = load_bytes (data, length, "run.perfscope", NULL, 0, &error);
  g_assert_no_error (error);
  assert_stores_equal (original, whole);

  pieces = load_bytes (data, length, "run.perfscope", &ps_format_native, 13, &error);
  g_assert_no_error (error);
  assert_stores_equal (original, pieces);
}

static void
test_round_trip_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(GBytes) bytes = fixture_bytes (fixtures[i]);
      g_autofree char *base = g_path_get_basename (fixtures[i]);
      g_autoptr(PsEventStore) original = load_original (bytes, base);

      g_test_message ("%s: %s", fixtures[i], ps_event_store_get_format (original));
      check_round_trip (original);
    }
}

static void
test_round_trip_pmclog (void)
{
  g_autoptr(GBytes) bytes = make_pmclog ();
  g_autoptr(PsEventStore) original = load_original (bytes, "run.pmclog");

  g_assert_cmpstr (ps_event_store_get_format (original), ==, "hwpmc-pmclog");
  g_assert_cmpuint (ps_event_store_get_n_samples (original), >, 0);
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (original), >=, 2);
  check_round_trip (original);
}

/* A store made by hand with what no fixture has: a fatal error, thinned
 * counter readings, wide measurement values and line jumps, span
 * contexts, warnings beyond those kept */
static void
test_round_trip_constructed (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) run_error = g_error_new_literal (PS_ERROR, PS_ERROR_TRUNCATED, "cut at byte offset 77");
  PsTrack track = { 0 };
  PsMeasurement measurements[5] = { 0 };
  PsSpan spans[2] = { { 10, 20, 0, 0, PS_NONE, 0, 0 }, { 12, 15, 0, 0, 0, 1, PS_SPAN_FLAG_LOGICAL } };
  guint32 session;
  guint32 counter;

  ps_event_store_set_format (store, "rtl-logfile");
  session = ps_event_store_add_session (store, 3, TRUE);
  ps_event_store_set_metadata (store, session, "key", "value");
  ps_event_store_add_tick_rate (store, session, 0, 1e7);
  ps_event_store_add_tick_rate (store, session, 2, 3.5e6);
  track.name = ps_event_store_intern (store, "thread", -1);
  track.parent = PS_NONE;
  ps_event_store_add_track (store, &track);
  track.kind = PS_TRACK_COUNTER;
  track.parent = 0;
  counter = ps_event_store_add_track (store, &track);
  /* Two strings of the same text, one interned, one not */
  ps_event_store_add_text (store, "same", -1);
  ps_event_store_intern (store, "same", -1);
  spans[0].name = ps_event_store_intern (store, "outer", -1);
  spans[1].name = ps_event_store_add_text (store, "inner", -1);

  measurements[0] = (PsMeasurement) { 0, 5, 0, PS_MEASURE_DURATION, 0, { .ticks = G_MAXINT64 } };
  measurements[1] = (PsMeasurement) { 0, 1000000, 0, PS_MEASURE_CPU, PS_MEASURE_FLAG_OUT_OF_RANGE, { .number = 101.25 } };
  measurements[2] = (PsMeasurement) { 0, 2, 0, PS_MEASURE_MEMORY, 0, { .bytes = G_MAXUINT64 } };
  measurements[3] = (PsMeasurement) { 0, 3, 0, PS_MEASURE_MEMORY, PS_MEASURE_FLAG_FRACTIONAL, { .number = 0.1 } };
  measurements[4] = (PsMeasurement) { 0, 4, 0, PS_MEASURE_OTHER, 0,
                                      { .other = _ps_event_store_add_other (store, spans[0].name, track.name) } };
  _ps_event_store_append_measurements (store, measurements, G_N_ELEMENTS (measurements));
  _ps_event_store_append_spans (store, spans, G_N_ELEMENTS (spans));
  _ps_event_store_set_span_context (store, 1, spans[0].name);

  ps_event_store_set_max_counter_values (store, 8);
  for (guint i = 0; i < 40; i++)
    {
      /* Raws from the 11th reading on, so that the ones before get zeros */
      PsCounterValue value = { i * 1000000, counter,
                               (i % 5 == 0 ? PS_COUNTER_FLAG_MISSING : 0) | (i > 10 ? PS_COUNTER_FLAG_RAW : 0), 0,
                               i % 5 == 0 ? NAN : i * 1.5 };
      PsCounterRaw raw = { i, 7 };

      _ps_event_store_append_counter_values (store, &value, i > 10 ? &raw : NULL, 1);
    }
  g_assert_cmpuint (ps_event_store_get_counter_stride (store), >, 1);

  for (guint i = 0; i < PS_EVENT_STORE_MAX_WARNINGS + 5; i++)
    ps_event_store_add_warning (store, i % 3, "W-TEST", i, PS_NO_POSITION, 0, "a warning");
  ps_event_store_set_error (store, run_error);

  check_round_trip (store);
}

/* Runs the CLI; its JSON output, or NULL when it printed nothing */
static JsonNode *
cli_json (const char  *command,
          const char  *path,
          int         *status)
{
  const char *cli = g_getenv ("PERFSCOPE_CLI");
  const char *argv[] = { cli, command, path, NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (process);
  if (out == NULL || out[0] == '\0')
    return NULL;

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* Runs the CLI and returns its output without the members that describe
 * the file rather than the run */
static char *
cli_output (const char  *command,
            const char  *path,
            int         *status)
{
  g_autoptr(JsonNode) root = cli_json (command, path, status);

  if (root == NULL)
    return g_strdup ("");
  if (JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonObject *object = json_node_get_object (root);

      /* A saved run is of format "perfscope", that of its origin apart */
      if (json_object_has_member (object, "origin"))
        {
          g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "perfscope");
          json_object_set_string_member (object, "format", json_object_get_string_member (object, "origin"));
          json_object_remove_member (object, "origin");
        }
      json_object_remove_member (json_node_get_object (root), "file");
      json_object_remove_member (json_node_get_object (root), "path");
      json_object_remove_member (json_node_get_object (root), "format");
      /* The size of the file read */
      json_object_remove_member (json_node_get_object (root), "bytes");
    }
  return json_to_string (root, TRUE);
}

static void
test_cli_identical (void)
{
  static const char * const commands[] = { "info", "stats", "calltree", "counters" };
  g_autofree char *dir = NULL;

  if (g_getenv ("PERFSCOPE_CLI") == NULL)
    {
      g_test_skip ("PERFSCOPE_CLI is not set");
      return;
    }

  dir = g_dir_make_tmp ("perfscope-native-XXXXXX", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *original_path = g_test_build_filename (G_TEST_DIST, "data", fixtures[i], NULL);
      g_autofree char *base = g_path_get_basename (fixtures[i]);
      g_autofree char *saved_name = g_strconcat (base, ".perfscope", NULL);
      g_autofree char *saved_path = g_build_filename (dir, saved_name, NULL);
      g_autoptr(GBytes) bytes = fixture_bytes (fixtures[i]);
      g_autoptr(PsEventStore) original = load_original (bytes, base);
      g_autoptr(GFile) saved = g_file_new_for_path (saved_path);
      g_autoptr(GError) error = NULL;

      g_assert_true (ps_native_save (original, saved, NULL, &error));
      g_assert_no_error (error);

      for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
        {
          int status_original = -1, status_saved = -1;
          g_autofree char *from_original = cli_output (commands[c], original_path, &status_original);
          g_autofree char *from_saved = cli_output (commands[c], saved_path, &status_saved);

          g_test_message ("%s %s: exit %d", commands[c], fixtures[i], status_original);
          g_assert_cmpint (status_original, ==, status_saved);
          g_assert_cmpstr (from_original, ==, from_saved);
        }
      g_unlink (saved_path);
    }
  g_rmdir (dir);
}

static GBytes *
saved_fixture (const char *fixture)
{
  g_autoptr(GBytes) bytes = fixture_bytes (fixture);
  g_autofree char *base = g_path_get_basename (fixture);
  g_autoptr(PsEventStore) original = load_original (bytes, base);

  return save_to_bytes (original);
}

/* A saved run cut at every length: an error that names a byte offset,
 * what came before kept, never everything */
static void
test_truncated (void)
{
  g_autoptr(GBytes) saved = saved_fixture ("rtl/startup_4711.log");
  gsize length;
  const guint8 *data = g_bytes_get_data (saved, &length);
  g_autoptr(PsEventStore) full = load_bytes (data, length, NULL, &ps_format_native, 0, NULL);
  guint64 last_spans = 0;
  guint step = length > 40000 ? length / 20000 : 1;

  g_assert_cmpuint (ps_event_store_get_n_spans (full), >, 0);

  for (gsize cut = 0; cut < length; cut += step)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = load_bytes (data, cut, NULL, &ps_format_native, 0, &error);
      const GError *run_error;

      if (store == NULL)
        {
          /* Nothing at all: an empty input, or one too short to show the
           * signature, which is no saved run (docs/cli.md, status 1) */
          g_assert_cmpuint (cut, <, PS_NATIVE_HEADER_SIZE);
          g_assert_true (cut == 0 || g_error_matches (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT));
          continue;
        }
      g_assert_no_error (error);
      g_assert_false (ps_event_store_is_complete (store));
      run_error = ps_event_store_get_error (store);
      g_assert_true (g_error_matches (run_error, PS_ERROR, PS_ERROR_TRUNCATED));
      g_assert_nonnull (strstr (run_error->message, "byte offset"));
      /* Sections come whole and in order */
      g_assert_cmpuint (ps_event_store_get_n_spans (store), >=, last_spans);
      g_assert_cmpuint (ps_event_store_get_n_spans (store), <=, ps_event_store_get_n_spans (full));
      g_assert_cmpuint (ps_event_store_get_n_tracks (store), <=, ps_event_store_get_n_tracks (full));
      last_spans = ps_event_store_get_n_spans (store);
    }
  g_assert_cmpuint (last_spans, ==, ps_event_store_get_n_spans (full));
}

/* Any one bit flipped: the checksums catch it, with the offset of the
 * damaged section */
static void
test_bit_flips (void)
{
  const char *inputs[] = { "rtl/calltree_4711.log", "pmcstat-callgraph/simple.txt", "pdh-csv/logman-pdt.csv" };

  for (guint f = 0; f < G_N_ELEMENTS (inputs); f++)
    {
      g_autoptr(GBytes) saved = saved_fixture (inputs[f]);
      gsize length;
      const guint8 *data = g_bytes_get_data (saved, &length);
      g_autofree guint8 *copy = g_memdup2 (data, length);
      guint step = length > 8000 ? length / 4000 : 1;

      for (gsize at = 0; at < length; at += step)
        {
          guint bit = at % 8;
          g_autoptr(GError) error = NULL;
          g_autoptr(PsEventStore) store = NULL;
          const GError *run_error;

          copy[at] ^= 1u << bit;
          store = load_bytes (copy, length, NULL, &ps_format_native, at % 3 == 0 ? 0 : 4096, &error);
          copy[at] ^= 1u << bit;

          /* A flip in the signature: no saved run, forced or not
           * (docs/cli.md, status 1) */
          if (store == NULL)
            {
              g_assert_cmpuint (at, <, PS_NATIVE_HEADER_SIZE);
              g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
              continue;
            }
          g_assert_no_error (error);
          g_assert_nonnull (store);
          g_assert_false (ps_event_store_is_complete (store));
          run_error = ps_event_store_get_error (store);
          if (at >= PS_NATIVE_HEADER_SIZE)
            g_assert_nonnull (strstr (run_error->message, "byte offset"));
        }
    }
}

/* A section that claims more than a section may hold, with good
 * checksums: refused before anything is allocated */
static void
test_oversized_section (void)
{
  g_autoptr(PsEventStore) empty = ps_event_store_new ();
  g_autoptr(GBytes) saved = save_to_bytes (empty);
  gsize length;
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (saved, &length), g_bytes_get_size (saved));
  guint8 *section = data + PS_NATIVE_HEADER_SIZE;
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = NULL;
  guint32 crc;

  /* The first section's length: 1 TiB, and its header's checksum again */
  memset (section + 8, 0, 8);
  section[13] = 1;
  crc = (guint32)crc32 (crc32 (0, Z_NULL, 0), section, 28);
  for (guint i = 0; i < 4; i++)
    section[28 + i] = (guint8)(crc >> (8 * i));

  store = load_bytes (data, length, NULL, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_true (g_error_matches (ps_event_store_get_error (store), PS_ERROR, PS_ERROR_TOO_LARGE));
  g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, "byte offset 32"));
}

/* A section of a saved run, found by walking the section headers as
 * docs/formats/native-format.md §3 lays them out, not by the reader under test */
typedef struct
{
  gsize   offset;       /* of its header */
  guint64 length;       /* of its payload */
  char    type[5];
} SavedSection;

static GArray *
saved_sections (const guint8 *data,
                gsize         length)
{
  GArray *sections = g_array_new (FALSE, TRUE, sizeof (SavedSection));
  gsize at = 32;        /* the file header */

  while (at + 32 <= length)
    {
      SavedSection section = { at, 0, "" };

      memcpy (section.type, data + at, 4);
      g_strchomp (section.type);
      for (guint i = 0; i < 8; i++)
        section.length |= (guint64)data[at + 8 + i] << (8 * i);
      g_array_append_val (sections, section);
      at += 32 + section.length;
    }
  g_assert_cmpuint (at, ==, length);
  return sections;
}

/* Its index, which is also how many sections come before it */
static guint
find_section (GArray     *sections,
              const char *type)
{
  for (guint i = 0; i < sections->len; i++)
    if (g_str_equal (g_array_index (sections, SavedSection, i).type, type))
      return i;
  g_assert_not_reached ();
}

/* The damaged run loaded whole, in the loader's chunks of 4 KiB after
 * the first 64 KiB, and through perfscope-cli info: the error names
 * expected_offset, and the offset reported with it is the same */
static void
check_damage_reported (const guint8 *data,
                       gsize         length,
                       const char   *expected_message,
                       guint64       expected_offset)
{
  static const gsize chunk_sizes[] = { 0, 4096, 13 };

  g_test_message ("%s", expected_message);
  for (guint c = 0; c < G_N_ELEMENTS (chunk_sizes); c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = load_bytes (data, length, "damaged.perfscope", NULL, chunk_sizes[c], &error);

      g_assert_no_error (error);
      g_assert_false (ps_event_store_is_complete (store));
      g_assert_cmpstr (ps_event_store_get_error (store)->message, ==, expected_message);
      g_assert_cmpuint (ps_event_store_get_bytes_read (store), ==, expected_offset);
    }

  if (g_getenv ("PERFSCOPE_CLI") != NULL)
    {
      g_autofree char *dir = g_dir_make_tmp ("perfscope-damaged-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "damaged.perfscope", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = NULL;
      JsonObject *run_error;
      int status = -1;

      g_assert_true (g_file_set_contents (path, (const char *)data, (gssize)length, &error));
      g_assert_no_error (error);
      root = cli_json ("info", path, &status);
      g_assert_nonnull (root);
      /* Read in part */
      g_assert_cmpint (status, ==, 3);
      g_assert_false (json_object_get_boolean_member (json_node_get_object (root), "complete"));
      run_error = json_object_get_object_member (json_node_get_object (root), "error");
      g_assert_cmpstr (json_object_get_string_member (run_error, "message"), ==, expected_message);
      g_assert_cmpint (json_object_get_int_member (run_error, "offset"), ==, (gint64)expected_offset);
      g_unlink (path);
      g_rmdir (dir);
    }
}

/* A run of counters saved with 96 KiB of warnings between its tracks
 * and its readings, so that the readings begin past the loader's first
 * 64 KiB */
static GBytes *
saved_counters_past_first_block (void)
{
  g_autoptr(GBytes) bytes = fixture_bytes ("perflib-plv2/processor-2cpu.plv2");
  g_autoptr(PsEventStore) original = load_original (bytes, "processor-2cpu.plv2");
  g_autofree char *message = g_strnfill (1024, 'w');

  for (guint i = 0; i < 96; i++)
    ps_event_store_add_warning (original, PS_SEVERITY_INFO, "W-TEST", i, PS_NO_POSITION, 0, message);
  return save_to_bytes (original);
}

/* A saved run damaged at known places, before and beyond the loader's
 * first 64 KiB: the error's offset is the byte offset its message names,
 * that of the damaged section, not where the chunk it was found in began */
static void
test_damage_offset (void)
{
  /* A payload byte of a section in the first block read, one of a
   * section past it, and a byte of a section's header (its record count) */
  static const struct {
    const char *type;
    gboolean    in_header;
  } flips[] = { { "TRAK", FALSE }, { "CVAL", FALSE }, { "CSER", TRUE } };
  g_autoptr(GBytes) saved = saved_counters_past_first_block ();
  gsize length;
  const guint8 *data = g_bytes_get_data (saved, &length);
  g_autofree guint8 *copy = g_memdup2 (data, length);
  g_autoptr(GArray) sections = saved_sections (data, length);
  guint values = find_section (sections, "CVAL");
  const SavedSection *value_section = &g_array_index (sections, SavedSection, values);

  /* The cases below need these places */
  g_assert_cmpuint (g_array_index (sections, SavedSection, find_section (sections, "TRAK")).offset, <, 65536);
  g_assert_cmpuint (value_section->offset, >, 65536);
  g_assert_cmpuint (value_section->length, >, 100);

  for (guint i = 0; i < G_N_ELEMENTS (flips); i++)
    {
      guint index = find_section (sections, flips[i].type);
      const SavedSection *section = &g_array_index (sections, SavedSection, index);
      gsize at = flips[i].in_header ? section->offset + 16 : section->offset + 32 + section->length / 2;
      g_autofree char *message = NULL;

      if (flips[i].in_header)
        message = g_strdup_printf ("The section header at byte offset %zu is damaged (its checksum "
                                   "does not match); the %u sections before it are kept", section->offset, index);
      else
        message = g_strdup_printf ("The %s section at byte offset %zu is damaged (its checksum "
                                   "does not match); the %u sections before it are kept",
                                   flips[i].type, section->offset, index);
      g_assert_cmpuint (section->length, >, 0);
      copy[at] ^= 0x10;
      check_damage_reported (copy, length, message, section->offset);
      copy[at] ^= 0x10;
    }

  /* Cut inside a section's payload */
  {
    g_autofree char *message = g_strdup_printf ("The file was cut off inside the section that begins at byte "
                                                "offset %zu; the %u sections before it are kept",
                                                value_section->offset, values);

    check_damage_reported (copy, value_section->offset + 32 + value_section->length / 2, message,
                           value_section->offset);
  }

  /* Whole again: complete, every byte read */
  {
    g_autoptr(PsEventStore) store = load_bytes (copy, length, NULL, NULL, 4096, NULL);

    g_assert_true (ps_event_store_is_complete (store));
    g_assert_cmpuint (ps_event_store_get_bytes_read (store), ==, length);
  }
}

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* What the application does: saved by a worker thread, the caller's main
 * context free meanwhile */
static void
test_save_async (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-async-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "counters.perfscope", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = fixture_bytes ("pdh-csv/logman-pdt.csv");
  g_autoptr(PsEventStore) original = load_original (bytes, "logman-pdt.csv");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) reloaded = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_cmpuint (ps_event_store_get_n_counter_values (original), >, 0);
  ps_native_save_async (original, file, NULL, save_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (ps_native_save_finish (result, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  reloaded = load_bytes ((const guint8 *)contents, length, "counters.perfscope", NULL, 0, &error);
  g_assert_no_error (error);
  assert_stores_equal (original, reloaded);

  /* A folder that does not exist: an error, nothing written */
  {
    g_autofree char *missing = g_build_filename (dir, "gone", "run.perfscope", NULL);
    g_autoptr(GFile) nowhere = g_file_new_for_path (missing);
    g_autoptr(GAsyncResult) failed = NULL;
    g_autoptr(GError) save_error = NULL;

    ps_native_save_async (original, nowhere, NULL, save_done_cb, &failed);
    while (failed == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_false (ps_native_save_finish (failed, &save_error));
    g_assert_error (save_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  }

  g_unlink (path);
  g_rmdir (dir);
}

/* The child of test_interrupted_save: a big run saved over path */
static int
save_big_run (const char *path)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree PsSample *samples = g_new0 (PsSample, 65536);
  PsTrack track = { 0 };

  ps_event_store_set_format (store, "hwpmc-pmclog");
  track.parent = PS_NONE;
  ps_event_store_add_track (store, &track);
  for (guint batch = 0; batch < 48; batch++)
    {
      for (guint i = 0; i < 65536; i++)
        samples[i] = (PsSample) { (gint64)batch * 65536 + i, 0, 0, 1, 0, 0 };
      _ps_event_store_append_samples (store, samples, 65536);
    }

  fputs ("ready\n", stdout);
  fflush (stdout);
  if (!ps_native_save (store, file, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  return 0;
}

/* A save killed at random points leaves the file that was there, whole,
 * and nothing else */
static void
test_interrupted_save (void)
{
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = g_dir_make_tmp ("perfscope-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "run.perfscope", NULL);
  g_autoptr(GBytes) bytes = fixture_bytes ("rtl/startup_4711.log");
  g_autoptr(PsEventStore) original = load_original (bytes, "startup_4711.log");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *old_contents = NULL;
  gsize old_length = 0;
  guint interrupted = 0;
  GDir *listing;
  const char *name;

  if (self_path == NULL)
    {
      g_test_skip ("/proc/self/exe is not available");
      return;
    }

  g_assert_true (ps_native_save (original, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &old_contents, &old_length, NULL));

  for (guint round = 0; round < 8; round++)
    {
      const char *argv[] = { self_path, "--save-big-run", path, NULL };
      g_autoptr(GSubprocess) child = NULL;
      g_autoptr(GDataInputStream) lines = NULL;
      g_autofree char *line = NULL;
      g_autofree char *contents = NULL;
      g_autoptr(PsEventStore) reloaded = NULL;
      gsize length = 0;

      child = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
      g_assert_no_error (error);
      lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));
      line = g_data_input_stream_read_line (lines, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (line, ==, "ready");

      g_usleep (g_test_rand_int_range (0, 60000));
      g_subprocess_send_signal (child, SIGKILL);
      g_subprocess_wait (child, NULL, &error);
      g_assert_no_error (error);
      if (g_subprocess_get_if_signaled (child))
        interrupted++;
      else
        {
          /* The save ended before the kill: that run is the file now */
          g_assert_true (g_subprocess_get_if_exited (child));
          g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 0);
          g_assert_true (ps_native_save (original, file, NULL, &error));
          continue;
        }

      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_assert_cmpmem (contents, length, old_contents, old_length);
      reloaded = load_bytes ((const guint8 *)contents, length, "run.perfscope", NULL, 0, &error);
      g_assert_no_error (error);
      assert_stores_equal (original, reloaded);
    }
  g_test_message ("%u of 8 saves interrupted", interrupted);
  g_assert_cmpuint (interrupted, >, 0);

  /* A save that runs to its end replaces the file */
  {
    const char *argv[] = { self_path, "--save-big-run", path, NULL };
    g_autoptr(GSubprocess) child = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
    g_autoptr(PsEventStore) big = NULL;
    g_autoptr(GFileInputStream) input = NULL;

    g_assert_no_error (error);
    g_assert_true (g_subprocess_wait_check (child, NULL, &error));
    g_assert_no_error (error);
    input = g_file_read (file, NULL, &error);
    g_assert_no_error (error);
    big = ps_load_stream (G_INPUT_STREAM (input), "run.perfscope", NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (ps_event_store_is_complete (big));
    g_assert_cmpuint (ps_event_store_get_n_samples (big), ==, 48 * 65536);
    g_assert_cmpint (ps_event_store_get_sample (big, 48 * 65536 - 1)->time_ns, ==, 48 * 65536 - 1);
  }

  /* Killed saves leave nothing beside the file (ps-file-output.h) */
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *other = g_build_filename (dir, name, NULL);

      g_assert_cmpstr (name, ==, "run.perfscope");
      g_unlink (other);
    }
  g_dir_close (listing);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && strcmp (argv[1], "--save-big-run") == 0)
    return save_big_run (argv[2]);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/native/round-trip/fixtures", test_round_trip_fixtures);
  g_test_add_func ("/native/round-trip/pmclog", test_round_trip_pmclog);
  g_test_add_func ("/native/round-trip/constructed", test_round_trip_constructed);
  g_test_add_func ("/native/cli-identical", test_cli_identical);
  g_test_add_func ("/native/damage/truncated", test_truncated);
  g_test_add_func ("/native/damage/bit-flips", test_bit_flips);
  g_test_add_func ("/native/damage/oversized-section", test_oversized_section);
  g_test_add_func ("/native/damage/offset", test_damage_offset);
  g_test_add_func ("/native/save-async", test_save_async);
  g_test_add_func ("/native/interrupted-save", test_interrupted_save);

  return g_test_run ();
}

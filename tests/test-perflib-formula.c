/* test-perflib-formula.c — PerfLib counter formulas
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §5.7 (every test vector), §5.1 (% Processor Time),
 * §5.3, §5.4, §5.6, §9.3.
 */
#include "config.h"

#include <glib.h>

#include "ps-perflib-formula.h"

#define EPSILON 1e-9

/* A sample with the header's clocks: PerfTimeStamp, PerfFreq,
 * PerfTime100NSec */
static PsPerflibRaw
raw_sample (guint   value_size,
            guint64 value,
            gint64  perf_time,
            gint64  perf_freq,
            gint64  perf_time_100ns)
{
  PsPerflibRaw raw = { 0 };

  raw.fields = PS_PERFLIB_RAW_VALUE | PS_PERFLIB_RAW_SYSTEM_TIME | PS_PERFLIB_RAW_TIME_100NS;
  raw.value_size = value_size;
  raw.value = value;
  raw.perf_time = perf_time;
  raw.perf_freq = perf_freq;
  raw.perf_time_100ns = perf_time_100ns;
  return raw;
}

static PsPerflibRaw
with_base (PsPerflibRaw raw,
           guint64      base)
{
  raw.fields |= PS_PERFLIB_RAW_BASE;
  raw.base = base;
  return raw;
}

static PsPerflibRaw
with_multi (PsPerflibRaw raw,
            guint64      multi)
{
  raw.fields |= PS_PERFLIB_RAW_MULTI;
  raw.multi = multi;
  return raw;
}

static PsPerflibRaw
with_object_clock (PsPerflibRaw raw,
                   guint64      object_time,
                   guint64      object_freq)
{
  raw.fields |= PS_PERFLIB_RAW_OBJECT_TIME | PS_PERFLIB_RAW_OBJECT_FREQ;
  raw.object_time = object_time;
  raw.object_freq = object_freq;
  return raw;
}

static double
expect_value (guint32             type,
              const PsPerflibRaw *previous,
              const PsPerflibRaw *current,
              PsPerflibOptions    options,
              guint32             expected_flags)
{
  PsPerflibStatus status = { 0 };
  double value = -1;

  g_assert_true (ps_perflib_compute (type, previous, current, options, &value, &status));
  g_assert_cmpint (status.result, ==, PS_PERFLIB_RESULT_OK);
  g_assert_cmphex (status.flags, ==, expected_flags);
  return value;
}

static void
expect_no_value (guint32             type,
                 const PsPerflibRaw *previous,
                 const PsPerflibRaw *current,
                 PsPerflibOptions    options,
                 PsPerflibResult     expected)
{
  PsPerflibStatus status = { 0 };
  double value = -1;

  g_assert_false (ps_perflib_compute (type, previous, current, options, &value, &status));
  g_assert_cmpint (status.result, ==, expected);
  g_assert_cmpfloat (value, ==, 0);
  g_assert_cmpstr (ps_perflib_result_to_string (expected), !=, "");
}

/* §5.7, row by row. The absolute clock values are arbitrary: only the
 * differences are given. */

static void
test_vector_100nsec_timer_inv (void)
{
  PsPerflibRaw s0 = raw_sample (8, 1000000, 5, 10000000, G_GINT64_CONSTANT (133000000000000000));
  PsPerflibRaw s1 = raw_sample (8, 1000000 + 750000, 6, 10000000, G_GINT64_CONSTANT (133000000000000000) + 10000000);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_TIMER_INV, &s0, &s1, 0, 0), 92.5, EPSILON);
}

static void
test_vector_100nsec_timer (void)
{
  PsPerflibRaw s0 = raw_sample (8, 0, 0, 10000000, 1000);
  PsPerflibRaw s1 = raw_sample (8, 2500000, 0, 10000000, 1000 + 10000000);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_TIMER, &s0, &s1, 0, 0), 25.0, EPSILON);
}

static void
test_vector_counter_counter (void)
{
  PsPerflibRaw s0 = raw_sample (4, 1000, 1000000000, 10000000, 0);
  PsPerflibRaw s1 = raw_sample (4, 1500, 1000000000 + 20000000, 10000000, 0);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_COUNTER, &s0, &s1, 0, 0), 250.0, EPSILON);
}

static void
test_vector_bulk_count (void)
{
  PsPerflibRaw s0 = raw_sample (8, G_GUINT64_CONSTANT (10000000000), 77, 10000000, 0);
  PsPerflibRaw s1 = raw_sample (8, G_GUINT64_CONSTANT (13000000000), 77 + 30000000, 10000000, 0);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_BULK_COUNT, &s0, &s1, 0, 0), 1e9, 1e9 * EPSILON);
}

static void
test_vector_average_timer (void)
{
  PsPerflibRaw s0 = with_base (raw_sample (4, 100000, 0, 10000000, 0), 10);
  PsPerflibRaw s1 = with_base (raw_sample (4, 130000, 0, 10000000, 0), 16);

  /* ΔD is 0 here on purpose: the formula does not use it */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_AVERAGE_TIMER, &s0, &s1, 0, 0), 0.0005, 1e-15);
}

static void
test_vector_average_bulk (void)
{
  PsPerflibRaw s0 = with_base (raw_sample (8, 1000, 0, 0, 0), 4);
  PsPerflibRaw s1 = with_base (raw_sample (8, 1000 + 65536, 0, 0, 0), 20);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_AVERAGE_BULK, &s0, &s1, 0, 0), 4096.0, EPSILON);
}

static void
test_vector_sample_fraction (void)
{
  PsPerflibRaw s0 = with_base (raw_sample (4, 10, 0, 0, 0), 60);
  PsPerflibRaw s1 = with_base (raw_sample (4, 40, 0, 0, 0), 100);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_SAMPLE_FRACTION, &s0, &s1, 0, 0), 75.0, EPSILON);
}

static void
test_vector_raw_fraction (void)
{
  PsPerflibRaw s1 = with_base (raw_sample (4, 25, 0, 0, 0), 200);

  /* One sample: no previous needed */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_RAW_FRACTION, NULL, &s1, 0, 0), 12.5, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_RAW_FRACTION, &s1, &s1, 0, 0), 12.5, EPSILON);
}

static void
test_vector_precision_100ns_timer (void)
{
  PsPerflibRaw s0 = with_base (raw_sample (8, 500, 0, 0, 0), 1000);
  PsPerflibRaw s1 = with_base (raw_sample (8, 500 + 2500000, 0, 0, 0), 1000 + 10000000);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_PRECISION_100NS_TIMER, &s0, &s1, 0, 0), 25.0, EPSILON);
}

static void
test_vector_100ns_queuelen (void)
{
  PsPerflibRaw s0 = raw_sample (8, 0, 0, 0, 100);
  PsPerflibRaw s1 = raw_sample (8, 35000000, 0, 0, 100 + 10000000);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_100NS_QUEUELEN_TYPE, &s0, &s1, 0, 0), 3.5, EPSILON);
}

static void
test_vector_100nsec_multi_timer (void)
{
  PsPerflibRaw s0 = with_multi (raw_sample (8, 0, 0, 0, 0), 4);
  PsPerflibRaw s1 = with_multi (raw_sample (8, 30000000, 0, 0, 10000000), 4);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_MULTI_TIMER, &s0, &s1, 0, 0), 75.0, EPSILON);
}

static void
test_vector_100nsec_multi_timer_inv (void)
{
  PsPerflibRaw s0 = with_multi (raw_sample (8, 5, 0, 0, 3), 4);
  PsPerflibRaw s1 = with_multi (raw_sample (8, 5 + 10000000, 0, 0, 3 + 10000000), 4);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_MULTI_TIMER_INV, &s0, &s1, 0, 0), 300.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_MULTI_TIMER_INV, &s0, &s1,
                                                PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE, 0),
                                  75.0, EPSILON);
  /* The unit says which one it is (§5.6) */
  g_assert_cmpstr (ps_perflib_type_get_unit_id (PS_PERF_100NSEC_MULTI_TIMER_INV, 0), ==, "percent_of_component");
  g_assert_cmpstr (ps_perflib_type_get_unit_id (PS_PERF_100NSEC_MULTI_TIMER_INV,
                                                PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE), ==, "percent");
}

static void
test_vector_elapsed_time (void)
{
  PsPerflibRaw s1 = with_object_clock (raw_sample (8, 1000000000, 0, 0, 0), 1360000000, 10000000);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_ELAPSED_TIME, NULL, &s1, 0, 0), 36.0, EPSILON);
}

static void
test_vector_counter_delta (void)
{
  PsPerflibRaw s0 = raw_sample (4, 7, 0, 0, 0);
  PsPerflibRaw s1 = raw_sample (4, 19, 0, 0, 0);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_DELTA, &s0, &s1, 0, 0), 12.0, EPSILON);
}

static void
test_vector_counter_counter_reset (void)
{
  PsPerflibRaw s0 = raw_sample (4, 900, 1000, 10000000, 0);
  PsPerflibRaw s1 = raw_sample (4, 100, 1000 + 10000000, 10000000, 0);

  expect_no_value (PS_PERF_COUNTER_COUNTER, &s0, &s1, 0, PS_PERFLIB_RESULT_NEGATIVE_DELTA);
  /* Not a plausible wrap either: still a reset with the option */
  expect_no_value (PS_PERF_COUNTER_COUNTER, &s0, &s1, PS_PERFLIB_OPTIONS_WRAP_32, PS_PERFLIB_RESULT_NEGATIVE_DELTA);
}

/* §5.1, S2: % Processor Time = 100 × (1 − ΔProcessorTime / ΔPerfTime100NSec) */
static void
test_processor_time (void)
{
  const gint64 t0 = G_GINT64_CONSTANT (133000000000000000);
  const gint64 interval = 10000000;       /* one second */
  const guint64 idle0 = G_GUINT64_CONSTANT (987654321000);
  const guint64 idle_delta = 8123456;     /* 81.23456 % idle */
  PsPerflibRaw s0 = raw_sample (8, idle0, 1, 1, t0);
  PsPerflibRaw s1 = raw_sample (8, idle0 + idle_delta, 1, 1, t0 + interval);
  double expected = 100.0 * (1.0 - (double) idle_delta / (double) interval);

  /* The tick clock did not move and is 1 Hz: the 100 ns type ignores it */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_TIMER_INV, &s0, &s1, 0, 0), expected, EPSILON);
  g_assert_cmpfloat_with_epsilon (expected, 18.76544, 1e-9);
}

/* Every other type of §4.3 that the vectors do not cover */
static void
test_other_types (void)
{
  PsPerflibRaw s0 = raw_sample (4, 100, 1000, 1000, 500);
  PsPerflibRaw s1 = raw_sample (4, 600, 3000, 1000, 500 + 4000);
  PsPerflibRaw l0 = raw_sample (8, G_GUINT64_CONSTANT (0x100000000), 1000, 1000, 500);
  PsPerflibRaw l1 = raw_sample (8, G_GUINT64_CONSTANT (0x100000000) + 1000, 3000, 1000, 500 + 4000);
  PsPerflibRaw o0 = with_object_clock (l0, 10000, 100);
  PsPerflibRaw o1 = with_object_clock (l1, 12000, 100);
  PsPerflibRaw m0 = with_multi (l0, 2);
  PsPerflibRaw m1 = with_multi (l1, 2);
  PsPerflibRaw b0 = with_base (l0, 1000);
  PsPerflibRaw b1 = with_base (l1, 5000);

  /* Raw counts: N, no previous needed */
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_RAWCOUNT, NULL, &s1, 0, 0), ==, 600);
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_RAWCOUNT_HEX, NULL, &s1, 0, 0), ==, 600);
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_LARGE_RAWCOUNT, NULL, &l1, 0, 0), ==, 4294968296.0);
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_LARGE_RAWCOUNT_HEX, NULL, &l1, 0, 0), ==, 4294968296.0);
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_LARGE_DELTA, &l0, &l1, 0, 0), ==, 1000);
  /* ΔN / (ΔD / F): 500 / 2 s */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_SAMPLE_COUNTER, &s0, &s1, 0, 0), 250.0, EPSILON);
  /* Queue lengths: ΔN / ΔD in ticks, and in object time */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_QUEUELEN_TYPE, &s0, &s1, 0, 0), 0.25, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_LARGE_QUEUELEN_TYPE, &l0, &l1, 0, 0), 0.5, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, &o0, &o1, 0, 0), 0.5, EPSILON);
  /* Timers: 100 × ΔN / ΔD on each clock */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_TIMER, &l0, &l1, 0, 0), 50.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_TIMER_INV, &l0, &l1, 0, 0), 50.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_OBJ_TIME_TIMER, &o0, &o1, 0, 0), 50.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_PRECISION_OBJECT_TIMER, &o0, &o1, 0, 0), 50.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_PRECISION_SYSTEM_TIMER, &b0, &b1, 0, 0), 25.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_LARGE_RAW_FRACTION, NULL, &b1, 0, 0),
                                  100.0 * 4294968296.0 / 5000.0, 1e-6);
  /* Tick multi-timers: ΔN and ΔD both in ticks, flagged (§5.6) */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_MULTI_TIMER, &m0, &m1, 0, PS_PERFLIB_FLAG_UNCONFIRMED),
                                  25.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_MULTI_TIMER_INV, &m0, &m1, 0, PS_PERFLIB_FLAG_UNCONFIRMED),
                                  150.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_MULTI_TIMER_INV, &m0, &m1,
                                                PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE, PS_PERFLIB_FLAG_UNCONFIRMED),
                                  75.0, EPSILON);

  /* Text and companions have no display value */
  expect_no_value (PS_PERF_COUNTER_TEXT, NULL, &s1, 0, PS_PERFLIB_RESULT_NOT_NUMERIC);
  expect_no_value (PS_PERF_COUNTER_NODATA, NULL, &s1, 0, PS_PERFLIB_RESULT_NOT_DISPLAYED);
  expect_no_value (PS_PERF_SAMPLE_BASE, &s0, &s1, 0, PS_PERFLIB_RESULT_NOT_DISPLAYED);
  expect_no_value (PS_PERF_AVERAGE_BASE, &s0, &s1, 0, PS_PERFLIB_RESULT_NOT_DISPLAYED);
  expect_no_value (PS_PERF_RAW_BASE, &s0, &s1, 0, PS_PERFLIB_RESULT_NOT_DISPLAYED);
  expect_no_value (PS_PERF_LARGE_RAW_BASE, &l0, &l1, 0, PS_PERFLIB_RESULT_NOT_DISPLAYED);
  expect_no_value (PS_PERF_COUNTER_MULTI_BASE, &l0, &l1, 0, PS_PERFLIB_RESULT_NOT_DISPLAYED);
  expect_no_value (PS_PERF_COUNTER_HISTOGRAM_TYPE, &l0, &l1, 0, PS_PERFLIB_RESULT_NOT_DISPLAYED);
}

static void
test_type_properties (void)
{
  static const struct {
    guint32          type;
    const char      *unit_id;
    gboolean         two_samples;
    PsPerflibDisplay display;
  } cases[] = {
    { PS_PERF_COUNTER_RAWCOUNT_HEX, "count", FALSE, PS_PERFLIB_DISPLAY_HEX },
    { PS_PERF_COUNTER_LARGE_RAWCOUNT, "count", FALSE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_COUNTER_TEXT, "text", FALSE, PS_PERFLIB_DISPLAY_TEXT },
    { PS_PERF_COUNTER_DELTA, "count", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_SAMPLE_COUNTER, "per_second", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_COUNTER_COUNTER, "per_second", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_COUNTER_BULK_COUNT, "per_second", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_COUNTER_QUEUELEN_TYPE, "number", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_RAW_FRACTION, "percent", FALSE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_100NSEC_TIMER_INV, "percent", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_COUNTER_MULTI_TIMER_INV, "percent_of_component", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    /* §4.1: two samples without a DELTA bit, displayed despite NOSHOW */
    { PS_PERF_AVERAGE_TIMER, "seconds", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_AVERAGE_BULK, "number", TRUE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_ELAPSED_TIME, "seconds", FALSE, PS_PERFLIB_DISPLAY_DECIMAL },
    { PS_PERF_COUNTER_NODATA, "none", FALSE, PS_PERFLIB_DISPLAY_HIDDEN },
    { PS_PERF_SAMPLE_BASE, "none", FALSE, PS_PERFLIB_DISPLAY_HIDDEN },
    { PS_PERF_PRECISION_TIMESTAMP, "none", FALSE, PS_PERFLIB_DISPLAY_HIDDEN },
    { PS_PERF_COUNTER_MULTI_BASE, "none", FALSE, PS_PERFLIB_DISPLAY_HIDDEN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (ps_perflib_type_is_known (cases[i].type));
      g_assert_nonnull (ps_perflib_type_get_name (cases[i].type));
      g_assert_cmpstr (ps_perflib_type_get_unit_id (cases[i].type, 0), ==, cases[i].unit_id);
      g_assert_nonnull (ps_perflib_type_get_unit_label (cases[i].type, 0));
      g_assert_cmpint (ps_perflib_type_needs_two_samples (cases[i].type), ==, cases[i].two_samples);
      g_assert_cmpint (ps_perflib_type_get_display (cases[i].type), ==, cases[i].display);
      g_assert_cmpint (ps_perflib_type_is_base (cases[i].type), ==, cases[i].display == PS_PERFLIB_DISPLAY_HIDDEN);
    }

  g_assert_cmpstr (ps_perflib_type_get_name (PS_PERF_100NSEC_TIMER_INV), ==, "PERF_100NSEC_TIMER_INV");
  g_assert_cmpstr (ps_perflib_type_get_unit_label (PS_PERF_RAW_FRACTION, 0), ==, "%");
  g_assert_cmpstr (ps_perflib_type_get_unit_label (PS_PERF_COUNTER_COUNTER, 0), ==, "/s");
  g_assert_cmpstr (ps_perflib_type_get_unit_label (PS_PERF_AVERAGE_TIMER, 0), ==, "s");
  g_assert_cmphex (ps_perflib_type_get_needed_fields (PS_PERF_AVERAGE_TIMER), ==,
                   PS_PERFLIB_RAW_VALUE | PS_PERFLIB_RAW_BASE | PS_PERFLIB_RAW_SYSTEM_TIME);
  g_assert_cmphex (ps_perflib_type_get_needed_fields (PS_PERF_100NSEC_MULTI_TIMER), ==,
                   PS_PERFLIB_RAW_VALUE | PS_PERFLIB_RAW_TIME_100NS | PS_PERFLIB_RAW_MULTI);
  g_assert_cmphex (ps_perflib_type_get_needed_fields (PS_PERF_OBJ_TIME_TIMER), ==,
                   PS_PERFLIB_RAW_VALUE | PS_PERFLIB_RAW_OBJECT_TIME);

  /* Unknown types: the bits, as a fallback only (§4.1) */
  g_assert_false (ps_perflib_type_is_known (0x00030400));
  g_assert_null (ps_perflib_type_get_name (0x00030400));
  g_assert_true (ps_perflib_type_is_base (0x40030404));
  g_assert_cmpint (ps_perflib_type_get_display (0x00010800), ==, PS_PERFLIB_DISPLAY_TEXT);
  g_assert_cmpstr (ps_perflib_type_get_unit_id (0x00610500, 0), ==, "count");
}

/* §9.3.2: first sample of a two-sample type; single-sample types computed */
static void
test_first_sample (void)
{
  static const guint32 two_sample_types[] = {
    PS_PERF_COUNTER_DELTA, PS_PERF_COUNTER_LARGE_DELTA, PS_PERF_SAMPLE_COUNTER,
    PS_PERF_COUNTER_QUEUELEN_TYPE, PS_PERF_COUNTER_LARGE_QUEUELEN_TYPE,
    PS_PERF_COUNTER_100NS_QUEUELEN_TYPE, PS_PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE,
    PS_PERF_COUNTER_COUNTER, PS_PERF_COUNTER_BULK_COUNT, PS_PERF_COUNTER_TIMER,
    PS_PERF_PRECISION_SYSTEM_TIMER, PS_PERF_100NSEC_TIMER, PS_PERF_PRECISION_100NS_TIMER,
    PS_PERF_OBJ_TIME_TIMER, PS_PERF_PRECISION_OBJECT_TIMER, PS_PERF_SAMPLE_FRACTION,
    PS_PERF_COUNTER_TIMER_INV, PS_PERF_100NSEC_TIMER_INV, PS_PERF_COUNTER_MULTI_TIMER,
    PS_PERF_100NSEC_MULTI_TIMER, PS_PERF_COUNTER_MULTI_TIMER_INV,
    PS_PERF_100NSEC_MULTI_TIMER_INV, PS_PERF_AVERAGE_TIMER, PS_PERF_AVERAGE_BULK,
  };
  PsPerflibRaw s1 = with_multi (with_base (with_object_clock (raw_sample (8, 5, 100, 10, 100), 100, 10), 7), 2);

  for (guint i = 0; i < G_N_ELEMENTS (two_sample_types); i++)
    {
      g_assert_true (ps_perflib_type_needs_two_samples (two_sample_types[i]));
      expect_no_value (two_sample_types[i], NULL, &s1, 0, PS_PERFLIB_RESULT_FIRST_SAMPLE);
    }

  /* §9.3.4 is the caller's part (no delta across a new instance ID): it
   * passes no previous sample, which is this case. Single-sample types
   * have a value at once. */
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_LARGE_RAWCOUNT, NULL, &s1, 0, 0), ==, 5);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_LARGE_RAW_FRACTION, NULL, &s1, 0, 0), 500.0 / 7.0, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_ELAPSED_TIME, NULL, &s1, 0, 0), 9.5, EPSILON);
}

/* §5.4, §9.3.3: reset, equal timestamps, PerfFreq 0, B = 0, and the rest */
static void
test_invalid_cases (void)
{
  PsPerflibRaw s0 = raw_sample (8, 1000, 5000, 1000, 5000);
  PsPerflibRaw s1 = raw_sample (8, 2000, 7000, 1000, 7000);
  PsPerflibRaw reset = raw_sample (8, 10, 7000, 1000, 7000);
  PsPerflibRaw same_time = raw_sample (8, 2000, 5000, 1000, 5000);
  PsPerflibRaw back_time = raw_sample (8, 2000, 4000, 1000, 4000);
  PsPerflibRaw zero_freq0 = raw_sample (8, 1000, 5000, 0, 5000);
  PsPerflibRaw zero_freq1 = raw_sample (8, 2000, 7000, 0, 7000);
  PsPerflibRaw negative_freq = raw_sample (8, 2000, 7000, -5, 7000);
  PsPerflibRaw other_freq = raw_sample (8, 2000, 7000, 2000, 7000);
  PsPerflibRaw zero_base = with_base (s1, 0);
  PsPerflibRaw b0 = with_base (s0, 50);
  PsPerflibRaw b_same = with_base (s1, 50);
  PsPerflibRaw b_back = with_base (s1, 40);
  PsPerflibRaw m0 = with_multi (s0, 4);
  PsPerflibRaw m_zero = with_multi (s1, 0);
  PsPerflibRaw o0 = with_object_clock (s0, 100, 10);
  PsPerflibRaw o_same = with_object_clock (s1, 100, 10);
  PsPerflibRaw o_freq0 = with_object_clock (s1, 200, 0);
  PsPerflibRaw o_freq = with_object_clock (s1, 200, 20);
  PsPerflibRaw zero_freq_b = with_base (zero_freq1, 60);
  PsPerflibRaw other_freq_b = with_base (other_freq, 60);
  PsPerflibRaw s1_b = with_base (s1, 10);
  PsPerflibRaw no_value = s1;
  PsPerflibRaw bad_size = s1;
  PsPerflibRaw no_time = s1;

  no_value.fields &= ~(guint32) PS_PERFLIB_RAW_VALUE;
  bad_size.value_size = 3;
  no_time.fields &= ~(guint32) (PS_PERFLIB_RAW_SYSTEM_TIME | PS_PERFLIB_RAW_TIME_100NS);

  /* Counter reset: ΔN < 0, for every delta formula */
  expect_no_value (PS_PERF_COUNTER_BULK_COUNT, &s0, &reset, 0, PS_PERFLIB_RESULT_NEGATIVE_DELTA);
  expect_no_value (PS_PERF_100NSEC_TIMER_INV, &s0, &reset, 0, PS_PERFLIB_RESULT_NEGATIVE_DELTA);
  expect_no_value (PS_PERF_COUNTER_LARGE_DELTA, &s0, &reset, 0, PS_PERFLIB_RESULT_NEGATIVE_DELTA);
  expect_no_value (PS_PERF_SAMPLE_FRACTION, &b0, &b_same, 0, PS_PERFLIB_RESULT_BAD_BASE_DELTA);

  /* Equal and backwards timestamps: ΔD ≤ 0 */
  expect_no_value (PS_PERF_COUNTER_BULK_COUNT, &s0, &same_time, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);
  expect_no_value (PS_PERF_100NSEC_TIMER, &s0, &same_time, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);
  expect_no_value (PS_PERF_COUNTER_TIMER_INV, &s0, &back_time, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);
  expect_no_value (PS_PERF_COUNTER_100NS_QUEUELEN_TYPE, &s0, &back_time, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);
  expect_no_value (PS_PERF_OBJ_TIME_TIMER, &o0, &o_same, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);
  /* The precision timers' timestamp is the base */
  expect_no_value (PS_PERF_PRECISION_100NS_TIMER, &b0, &b_same, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);
  expect_no_value (PS_PERF_PRECISION_SYSTEM_TIMER, &b0, &b_back, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);

  /* PerfFreq = 0, negative, or changing: no tick-based value */
  expect_no_value (PS_PERF_COUNTER_COUNTER, &zero_freq0, &zero_freq1, 0, PS_PERFLIB_RESULT_ZERO_FREQUENCY);
  expect_no_value (PS_PERF_COUNTER_COUNTER, &s0, &zero_freq1, 0, PS_PERFLIB_RESULT_ZERO_FREQUENCY);
  expect_no_value (PS_PERF_COUNTER_COUNTER, &s0, &negative_freq, 0, PS_PERFLIB_RESULT_ZERO_FREQUENCY);
  expect_no_value (PS_PERF_COUNTER_TIMER, &s0, &other_freq, 0, PS_PERFLIB_RESULT_FREQUENCY_CHANGED);
  expect_no_value (PS_PERF_COUNTER_QUEUELEN_TYPE, &s0, &other_freq, 0, PS_PERFLIB_RESULT_FREQUENCY_CHANGED);
  expect_no_value (PS_PERF_AVERAGE_TIMER, &b0, &zero_freq_b, 0, PS_PERFLIB_RESULT_ZERO_FREQUENCY);
  expect_no_value (PS_PERF_AVERAGE_TIMER, &b0, &other_freq_b, 0, PS_PERFLIB_RESULT_FREQUENCY_CHANGED);
  expect_no_value (PS_PERF_OBJ_TIME_TIMER, &o0, &o_freq0, 0, PS_PERFLIB_RESULT_ZERO_FREQUENCY);
  expect_no_value (PS_PERF_OBJ_TIME_TIMER, &o0, &o_freq, 0, PS_PERFLIB_RESULT_FREQUENCY_CHANGED);
  /* A 100 ns type does not care about PerfFreq */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_TIMER, &zero_freq0, &zero_freq1, 0, 0),
                                  50.0, EPSILON);

  /* B = 0 for a single-sample fraction; ΔB ≤ 0 for averages */
  expect_no_value (PS_PERF_RAW_FRACTION, NULL, &zero_base, 0, PS_PERFLIB_RESULT_ZERO_BASE);
  expect_no_value (PS_PERF_LARGE_RAW_FRACTION, NULL, &zero_base, 0, PS_PERFLIB_RESULT_ZERO_BASE);
  expect_no_value (PS_PERF_AVERAGE_BULK, &b0, &b_same, 0, PS_PERFLIB_RESULT_BAD_BASE_DELTA);
  expect_no_value (PS_PERF_AVERAGE_TIMER, &b0, &b_back, 0, PS_PERFLIB_RESULT_BAD_BASE_DELTA);

  /* M = 0 */
  expect_no_value (PS_PERF_100NSEC_MULTI_TIMER, &m0, &m_zero, 0, PS_PERFLIB_RESULT_ZERO_MULTI);
  expect_no_value (PS_PERF_100NSEC_MULTI_TIMER_INV, &m0, &m_zero, 0, PS_PERFLIB_RESULT_ZERO_MULTI);

  /* Missing inputs: the value, a base, a clock, M */
  expect_no_value (PS_PERF_COUNTER_RAWCOUNT, NULL, &no_value, 0, PS_PERFLIB_RESULT_MISSING_INPUT);
  expect_no_value (PS_PERF_RAW_FRACTION, NULL, &s1, 0, PS_PERFLIB_RESULT_MISSING_INPUT);
  expect_no_value (PS_PERF_SAMPLE_FRACTION, &s0, &s1_b, 0, PS_PERFLIB_RESULT_MISSING_INPUT);
  expect_no_value (PS_PERF_COUNTER_COUNTER, &s0, &no_time, 0, PS_PERFLIB_RESULT_MISSING_INPUT);
  expect_no_value (PS_PERF_100NSEC_MULTI_TIMER, &s0, &s1, 0, PS_PERFLIB_RESULT_MISSING_INPUT);
  expect_no_value (PS_PERF_OBJ_TIME_TIMER, &s0, &s1, 0, PS_PERFLIB_RESULT_MISSING_INPUT);

  /* A raw value that is neither 4 nor 8 bytes */
  expect_no_value (PS_PERF_COUNTER_RAWCOUNT, NULL, &bad_size, 0, PS_PERFLIB_RESULT_BAD_VALUE_SIZE);
  expect_no_value (PS_PERF_COUNTER_BULK_COUNT, &s0, &bad_size, 0, PS_PERFLIB_RESULT_BAD_VALUE_SIZE);
  expect_no_value (PS_PERF_COUNTER_BULK_COUNT, &bad_size, &s1, 0, PS_PERFLIB_RESULT_BAD_VALUE_SIZE);
}

/* §5.4: a difference of 0 is "no value" only where it divides. An
 * unchanged counter (ΔN = 0) has a value in every family: 0 for rates,
 * deltas, fractions, averages and timers, 100 % for an inverse timer
 * (nothing busy), 100 × M for an inverse multi-timer. ΔD = 0 leaves
 * every type that divides by the clock without a value, and no other;
 * ΔB = 0 every type that divides by the base (for the precision timers B
 * is the timestamp), and no other. Expected values are worked out by
 * hand from the §4.3 formulas. */
typedef struct
{
  guint32     type;
  guint       size;           /* §4.3 "Raw": 4 or 8 bytes */
  guint32     flags;          /* expected status flags */
  double      unchanged;      /* ΔN = 0 */
  gboolean    divides_by_time;
  double      time_still;     /* ΔD = 0, if it does not divide by it */
  gboolean    divides_by_base;
  double      base_still;     /* ΔB = 0, if it does not divide by it */
} ZeroDeltaCase;

static void
test_zero_deltas (void)
{
  /* The older sample: N = 1000, D = 5000 ticks at F = 1000 Hz, D = 5000
   * in 100 ns, B = 50, M = 4, object time 100 at 10 Hz. The newer
   * one moves each of N, D, B by its own step (ΔN = 500, ΔD = 2000 on
   * both clocks and 100 on the object clock, ΔB = 10) unless a case
   * holds it still. */
  enum { N0 = 1000, D0 = 5000, F = 1000, B0 = 50, M = 4, OT0 = 100, OF = 10 };
  enum { DN = 500, DD = 2000, DB = 10, DOT = 100 };
  static const ZeroDeltaCase cases[] = {
    /* type                                  size flags                    ΔN=0   ΔD  ΔD=0      ΔB  ΔB=0 */
    { PS_PERF_COUNTER_DELTA,                   4, 0,                         0.0, FALSE, 500.0, FALSE, 500.0 },
    { PS_PERF_COUNTER_LARGE_DELTA,             8, 0,                         0.0, FALSE, 500.0, FALSE, 500.0 },
    /* ΔN / (ΔD / F) = 500 / 2 s */
    { PS_PERF_SAMPLE_COUNTER,                  4, 0,                         0.0, TRUE,  0,     FALSE, 250.0 },
    { PS_PERF_COUNTER_COUNTER,                 4, 0,                         0.0, TRUE,  0,     FALSE, 250.0 },
    { PS_PERF_COUNTER_BULK_COUNT,              8, 0,                         0.0, TRUE,  0,     FALSE, 250.0 },
    /* ΔN / ΔD = 500 / 2000; object time: 500 / 100 */
    { PS_PERF_COUNTER_QUEUELEN_TYPE,           4, 0,                         0.0, TRUE,  0,     FALSE, 0.25 },
    { PS_PERF_COUNTER_LARGE_QUEUELEN_TYPE,     8, 0,                         0.0, TRUE,  0,     FALSE, 0.25 },
    { PS_PERF_COUNTER_100NS_QUEUELEN_TYPE,     8, 0,                         0.0, TRUE,  0,     FALSE, 0.25 },
    { PS_PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE,  8, 0,                         0.0, TRUE,  0,     FALSE, 5.0 },
    /* 100 × ΔN / ΔD = 25 %; object time: 500 % */
    { PS_PERF_COUNTER_TIMER,                   8, 0,                         0.0, TRUE,  0,     FALSE, 25.0 },
    { PS_PERF_100NSEC_TIMER,                   8, 0,                         0.0, TRUE,  0,     FALSE, 25.0 },
    { PS_PERF_OBJ_TIME_TIMER,                  8, 0,                         0.0, TRUE,  0,     FALSE, 500.0 },
    { PS_PERF_PRECISION_OBJECT_TIMER,          8, 0,                         0.0, TRUE,  0,     FALSE, 500.0 },
    /* 100 × (1 − ΔN / ΔD) */
    { PS_PERF_COUNTER_TIMER_INV,               8, 0,                       100.0, TRUE,  0,     FALSE, 75.0 },
    { PS_PERF_100NSEC_TIMER_INV,               8, 0,                       100.0, TRUE,  0,     FALSE, 75.0 },
    /* 100 × ΔN / ΔB = 5000 %, the header's clocks unused */
    { PS_PERF_PRECISION_SYSTEM_TIMER,          8, 0,                         0.0, FALSE, 5000.0, TRUE, 0 },
    { PS_PERF_PRECISION_100NS_TIMER,           8, 0,                         0.0, FALSE, 5000.0, TRUE, 0 },
    { PS_PERF_SAMPLE_FRACTION,                 4, 0,                         0.0, FALSE, 5000.0, TRUE, 0 },
    /* 100 × (ΔN / ΔD) / M = 6.25 %; inverse: 100 × (M − ΔN / ΔD) = 375 */
    { PS_PERF_COUNTER_MULTI_TIMER,             8, PS_PERFLIB_FLAG_UNCONFIRMED, 0.0, TRUE, 0, FALSE, 6.25 },
    { PS_PERF_100NSEC_MULTI_TIMER,             8, 0,                         0.0, TRUE,  0,     FALSE, 6.25 },
    { PS_PERF_COUNTER_MULTI_TIMER_INV,         8, PS_PERFLIB_FLAG_UNCONFIRMED, 400.0, TRUE, 0, FALSE, 375.0 },
    { PS_PERF_100NSEC_MULTI_TIMER_INV,         8, 0,                       400.0, TRUE,  0,     FALSE, 375.0 },
    /* (ΔN / F) / ΔB = 0.05 s; ΔN / ΔB = 50; no clock's Δ used */
    { PS_PERF_AVERAGE_TIMER,                   4, 0,                         0.0, FALSE, 0.05,  TRUE,  0 },
    { PS_PERF_AVERAGE_BULK,                    8, 0,                         0.0, FALSE, 50.0,  TRUE,  0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const ZeroDeltaCase *c = &cases[i];
      PsPerflibRaw older = with_multi (with_base (with_object_clock (raw_sample (c->size, N0, D0, F, D0),
                                                                     OT0, OF), B0), M);
      PsPerflibRaw unchanged = with_multi (with_base (with_object_clock (raw_sample (c->size, N0, D0 + DD, F, D0 + DD),
                                                                         OT0 + DOT, OF), B0 + DB), M);
      PsPerflibRaw time_still = with_multi (with_base (with_object_clock (raw_sample (c->size, N0 + DN, D0, F, D0),
                                                                          OT0, OF), B0 + DB), M);
      PsPerflibRaw base_still = with_multi (with_base (with_object_clock (raw_sample (c->size, N0 + DN, D0 + DD, F,
                                                                                     D0 + DD),
                                                                          OT0 + DOT, OF), B0), M);
      PsPerflibRaw all_still = older;

      g_test_message ("%s", ps_perflib_type_get_name (c->type));
      g_assert_true (ps_perflib_type_needs_two_samples (c->type));

      /* ΔN = 0: a value, never "no value" */
      g_assert_cmpfloat_with_epsilon (expect_value (c->type, &older, &unchanged, 0, c->flags),
                                      c->unchanged, EPSILON);

      /* ΔD = 0 */
      if (c->divides_by_time)
        expect_no_value (c->type, &older, &time_still, 0, PS_PERFLIB_RESULT_BAD_TIME_DELTA);
      else
        g_assert_cmpfloat_with_epsilon (expect_value (c->type, &older, &time_still, 0, c->flags),
                                        c->time_still, EPSILON);

      /* ΔB = 0; the precision timers' B is their clock */
      if (c->divides_by_base)
        expect_no_value (c->type, &older, &base_still, 0,
                         c->type == PS_PERF_PRECISION_SYSTEM_TIMER || c->type == PS_PERF_PRECISION_100NS_TIMER
                         ? PS_PERFLIB_RESULT_BAD_TIME_DELTA : PS_PERFLIB_RESULT_BAD_BASE_DELTA);
      else
        g_assert_cmpfloat_with_epsilon (expect_value (c->type, &older, &base_still, 0, c->flags),
                                        c->base_still, EPSILON);

      /* Nothing moved at all: 0 / 0 where something divides, else 0 */
      if (c->divides_by_time || c->divides_by_base)
        {
          PsPerflibStatus status = { 0 };
          double value = -1;

          g_assert_false (ps_perflib_compute (c->type, &older, &all_still, 0, &value, &status));
          g_assert_cmpfloat (value, ==, 0);
        }
      else
        g_assert_cmpfloat (expect_value (c->type, &older, &all_still, 0, c->flags), ==, 0.0);
    }

  /* The normalized inverse multi-timer of an idle counter: 100 % */
  {
    PsPerflibRaw older = with_multi (raw_sample (8, N0, D0, F, D0), M);
    PsPerflibRaw unchanged = with_multi (raw_sample (8, N0, D0 + DD, F, D0 + DD), M);

    g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_MULTI_TIMER_INV, &older, &unchanged,
                                                  PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE, 0),
                                    100.0, EPSILON);
  }

  /* The single-sample families: N = 0 is 0, B = 0 is no value (§5.4) */
  {
    PsPerflibRaw zero = with_base (raw_sample (4, 0, 0, 0, 0), 200);
    PsPerflibRaw zero_large = with_base (raw_sample (8, 0, 0, 0, 0), 200);
    PsPerflibRaw zero_base = with_base (raw_sample (4, 25, 0, 0, 0), 0);

    g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_RAWCOUNT, NULL, &zero, 0, 0), ==, 0.0);
    g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_LARGE_RAWCOUNT, NULL, &zero_large, 0, 0), ==, 0.0);
    g_assert_cmpfloat (expect_value (PS_PERF_RAW_FRACTION, NULL, &zero, 0, 0), ==, 0.0);
    g_assert_cmpfloat (expect_value (PS_PERF_LARGE_RAW_FRACTION, NULL, &zero_large, 0, 0), ==, 0.0);
    expect_no_value (PS_PERF_RAW_FRACTION, NULL, &zero_base, 0, PS_PERFLIB_RESULT_ZERO_BASE);
  }
}

/* §5.4, optional: one 32-bit wrap of a 4-byte counter */
static void
test_wrap_32 (void)
{
  PsPerflibRaw s0 = raw_sample (4, G_MAXUINT32 - 99, 0, 10, 0);
  PsPerflibRaw s1 = raw_sample (4, 400, 10, 10, 0);
  PsPerflibRaw l0 = raw_sample (8, G_MAXUINT32 - 99, 0, 10, 0);
  PsPerflibRaw l1 = raw_sample (8, 400, 10, 10, 0);

  expect_no_value (PS_PERF_COUNTER_COUNTER, &s0, &s1, 0, PS_PERFLIB_RESULT_NEGATIVE_DELTA);
  /* 100 up to the wrap, 400 after it: 500 in one second */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_COUNTER, &s0, &s1, PS_PERFLIB_OPTIONS_WRAP_32,
                                                PS_PERFLIB_FLAG_WRAPPED),
                                  500.0, EPSILON);
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_DELTA, &s0, &s1, PS_PERFLIB_OPTIONS_WRAP_32,
                                   PS_PERFLIB_FLAG_WRAPPED), ==, 500.0);
  /* Only for 4-byte data */
  expect_no_value (PS_PERF_COUNTER_BULK_COUNT, &l0, &l1, PS_PERFLIB_OPTIONS_WRAP_32,
                   PS_PERFLIB_RESULT_NEGATIVE_DELTA);
}

/* §5.5, §9.3.5: values outside 0–100 % are kept as computed */
static void
test_unclamped (void)
{
  PsPerflibRaw s0 = raw_sample (8, 0, 0, 0, 0);
  PsPerflibRaw over = raw_sample (8, 10030000, 0, 0, 10000000);
  PsPerflibRaw busy = raw_sample (8, 10020000, 0, 0, 10000000);
  PsPerflibRaw f0 = with_base (raw_sample (4, 300, 0, 0, 0), 200);

  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_TIMER_INV, &s0, &over, 0, 0), -0.3, EPSILON);
  /* PERF_100NSEC_TIMER_INV cannot give 100.2 without ΔN < 0 (no value,
   * §5.4); the non-inverse timer shows the over-100 case */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_100NSEC_TIMER, &s0, &busy, 0, 0), 100.2, EPSILON);
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_RAW_FRACTION, NULL, &f0, 0, 0), 150.0, EPSILON);
}

/* §5.3: PERF_ELAPSED_TIME without the object clock, and its edge cases */
static void
test_elapsed_time (void)
{
  const gint64 now_100ns = G_GINT64_CONSTANT (133000000000000000);
  PsPerflibRaw filetime = raw_sample (8, (guint64) now_100ns - 36000000, 500000, 1000, now_100ns);
  PsPerflibRaw ticks = raw_sample (8, 200000, 500000, 1000, now_100ns);
  PsPerflibRaw no_clock = raw_sample (8, 200000, 0, 0, 0);
  PsPerflibRaw not_started = with_object_clock (raw_sample (8, 0, 0, 0, 0), 5000, 10);
  PsPerflibRaw future = with_object_clock (raw_sample (8, 6000, 0, 0, 0), 5000, 10);
  PsPerflibRaw zero_freq = with_object_clock (raw_sample (8, 1000, 0, 0, 0), 5000, 0);
  PsPerflibRaw same = with_object_clock (raw_sample (8, 5000, 0, 0, 0), 5000, 10);

  no_clock.fields = PS_PERFLIB_RAW_VALUE;

  /* A 1601-based start time: PerfTime100NSec at 10^7 Hz, estimated */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_ELAPSED_TIME, NULL, &filetime, 0, PS_PERFLIB_FLAG_ESTIMATED),
                                  3.6, EPSILON);
  /* Otherwise PerfTimeStamp / PerfFreq */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_ELAPSED_TIME, NULL, &ticks, 0, PS_PERFLIB_FLAG_ESTIMATED),
                                  300.0, EPSILON);
  expect_no_value (PS_PERF_ELAPSED_TIME, NULL, &no_clock, 0, PS_PERFLIB_RESULT_MISSING_INPUT);
  expect_no_value (PS_PERF_ELAPSED_TIME, NULL, &not_started, 0, PS_PERFLIB_RESULT_NOT_STARTED);
  expect_no_value (PS_PERF_ELAPSED_TIME, NULL, &future, 0, PS_PERFLIB_RESULT_NEGATIVE_ELAPSED);
  expect_no_value (PS_PERF_ELAPSED_TIME, NULL, &zero_freq, 0, PS_PERFLIB_RESULT_ZERO_FREQUENCY);
  g_assert_cmpfloat (expect_value (PS_PERF_ELAPSED_TIME, NULL, &same, 0, 0), ==, 0.0);
}

/* §9.3.6: the data size disagrees with the type's size field */
static void
test_size_mismatch (void)
{
  PsPerflibRaw small0 = raw_sample (4, 1000, 0, 10, 0);
  PsPerflibRaw small1 = raw_sample (4, 3000, 10, 10, 0);
  PsPerflibRaw large0 = raw_sample (8, 1000, 0, 10, 0);
  PsPerflibRaw large1 = raw_sample (8, G_GUINT64_CONSTANT (0x100000000) + 3000, 10, 10, 0);

  /* LARGE type, 4-byte data: zero-extended, computed, flagged */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_BULK_COUNT, &small0, &small1, 0,
                                                PS_PERFLIB_FLAG_SIZE_MISMATCH),
                                  2000.0, EPSILON);
  /* DWORD type, 8-byte data: the whole 64-bit value, flagged */
  g_assert_cmpfloat_with_epsilon (expect_value (PS_PERF_COUNTER_COUNTER, &large0, &large1, 0,
                                                PS_PERFLIB_FLAG_SIZE_MISMATCH),
                                  4294969296.0, EPSILON);
  g_assert_cmpfloat (expect_value (PS_PERF_COUNTER_RAWCOUNT, NULL, &large1, 0, PS_PERFLIB_FLAG_SIZE_MISMATCH),
                     ==, 4294970296.0);
}

/* §9.3.7: an unknown type shows its raw value, no formula */
static void
test_unknown_type (void)
{
  PsPerflibRaw s0 = raw_sample (8, 10, 0, 10, 0);
  PsPerflibRaw s1 = raw_sample (8, 12345, 10, 10, 0);

  g_assert_cmpfloat (expect_value (0x00030400, &s0, &s1, 0, PS_PERFLIB_FLAG_UNKNOWN_TYPE), ==, 12345.0);
  g_assert_cmpfloat (expect_value (0x10410600, NULL, &s1, 0, PS_PERFLIB_FLAG_UNKNOWN_TYPE), ==, 12345.0);
  expect_no_value (0x00010800, NULL, &s1, 0, PS_PERFLIB_RESULT_NOT_NUMERIC);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/perflib-formula/vector/100nsec-timer-inv", test_vector_100nsec_timer_inv);
  g_test_add_func ("/perflib-formula/vector/100nsec-timer", test_vector_100nsec_timer);
  g_test_add_func ("/perflib-formula/vector/counter-counter", test_vector_counter_counter);
  g_test_add_func ("/perflib-formula/vector/bulk-count", test_vector_bulk_count);
  g_test_add_func ("/perflib-formula/vector/average-timer", test_vector_average_timer);
  g_test_add_func ("/perflib-formula/vector/average-bulk", test_vector_average_bulk);
  g_test_add_func ("/perflib-formula/vector/sample-fraction", test_vector_sample_fraction);
  g_test_add_func ("/perflib-formula/vector/raw-fraction", test_vector_raw_fraction);
  g_test_add_func ("/perflib-formula/vector/precision-100ns-timer", test_vector_precision_100ns_timer);
  g_test_add_func ("/perflib-formula/vector/100ns-queuelen", test_vector_100ns_queuelen);
  g_test_add_func ("/perflib-formula/vector/100nsec-multi-timer", test_vector_100nsec_multi_timer);
  g_test_add_func ("/perflib-formula/vector/100nsec-multi-timer-inv", test_vector_100nsec_multi_timer_inv);
  g_test_add_func ("/perflib-formula/vector/elapsed-time", test_vector_elapsed_time);
  g_test_add_func ("/perflib-formula/vector/counter-delta", test_vector_counter_delta);
  g_test_add_func ("/perflib-formula/vector/counter-counter-reset", test_vector_counter_counter_reset);
  g_test_add_func ("/perflib-formula/processor-time", test_processor_time);
  g_test_add_func ("/perflib-formula/other-types", test_other_types);
  g_test_add_func ("/perflib-formula/type-properties", test_type_properties);
  g_test_add_func ("/perflib-formula/first-sample", test_first_sample);
  g_test_add_func ("/perflib-formula/invalid", test_invalid_cases);
  g_test_add_func ("/perflib-formula/zero-deltas", test_zero_deltas);
  g_test_add_func ("/perflib-formula/wrap-32", test_wrap_32);
  g_test_add_func ("/perflib-formula/unclamped", test_unclamped);
  g_test_add_func ("/perflib-formula/elapsed-time", test_elapsed_time);
  g_test_add_func ("/perflib-formula/size-mismatch", test_size_mismatch);
  g_test_add_func ("/perflib-formula/unknown-type", test_unknown_type);

  return g_test_run ();
}

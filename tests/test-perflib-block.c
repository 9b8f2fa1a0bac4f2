/* test-perflib-block.c — PerfLib V2 buffers, registration info and types
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §3 (layouts, written here by a small writer of
 * our own, independent of the decoder), §4.3, §6, §9.1, §9.2.
 *
 * §9.1.13 (big-endian hosts) is covered by construction: the decoder
 * reads every field with byte loads, and these tests build their buffers
 * byte by byte as well, so they check the same bytes on any host.
 */
#include "config.h"

#include <string.h>

#include "ps-error.h"
#include "ps-perflib-block.h"

#include "gen-plv2.h"
#include "perflib-writer.h"
#include "ps-plv2.h"

/* specs: perflib-v2.md §3.1 and the §3.7 example's timestamps */
#define EX_PERF_TIME    G_GINT64_CONSTANT (1000000000)
#define EX_TIME_100NS   G_GINT64_CONSTANT (133000000000000000)
#define EX_FREQ         G_GINT64_CONSTANT (10000000)
#define EX_UNIX_NS      G_GINT64_CONSTANT (1655526400000000000)

/* The §3.7 example's timestamps */
static void
w_data_header (PsPerflibWriter *w, guint32 n_counters)
{
  /* 2022-06-18 (Saturday) 04:26:40.000 */
  static const PsPerflibSystemTime system_time = { 2022, 6, 6, 18, 4, 26, 40, 0 };

  ps_perflib_writer_data_header (w, n_counters, EX_PERF_TIME, EX_TIME_100NS, EX_FREQ, &system_time);
}

static PsPerflibBuffer *
decode_ok (PsPerflibWriter *w)
{
  g_autoptr(GError) error = NULL;
  PsPerflibBuffer *buffer = NULL;
  gboolean ok;

  ok = ps_perflib_buffer_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &buffer, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_nonnull (buffer);
  g_assert_true (buffer->complete);
  return buffer;
}

static gboolean
has_warning (const PsPerflibWarning *warnings, guint n, PsPerflibWarningCode code, gsize offset)
{
  for (guint i = 0; i < n; i++)
    if (warnings[i].code == code && (offset == G_MAXSIZE || warnings[i].offset == offset))
      return TRUE;
  return FALSE;
}

/* The offset named in an error message, or G_MAXSIZE */
static gsize
error_offset (const GError *error)
{
  const char *at = strstr (error->message, "byte offset ");

  if (at == NULL)
    return G_MAXSIZE;
  return (gsize) g_ascii_strtoull (at + strlen ("byte offset "), NULL, 10);
}

/* ------------------------------------------------------------------ */
/* Counter types                                                      */
/* ------------------------------------------------------------------ */

static void
test_types (void)
{
  const PsPerflibTypeInfo *info;

  /* Decimal values of §4.3 */
  g_assert_cmpuint (PS_PERF_100NSEC_TIMER_INV, ==, 558957824);
  g_assert_cmpuint (PS_PERF_COUNTER_COUNTER, ==, 272696320);
  g_assert_cmpuint (PS_PERF_AVERAGE_TIMER, ==, 805438464);
  g_assert_cmpuint (PS_PERF_AVERAGE_BASE, ==, 1073939458);
  g_assert_cmpuint (PS_PERF_COUNTER_MULTI_BASE, ==, 1107494144);
  g_assert_cmpuint (PS_PERF_ELAPSED_TIME, ==, 807666944);
  g_assert_cmpuint (PS_PERF_PRECISION_TIMESTAMP, ==, PS_PERF_LARGE_RAW_BASE);

  /* Types rebuilt from their fields, as winperf.h defines them */
  g_assert_cmpuint (PS_PERF_100NSEC_TIMER_INV, ==,
                    PS_PERF_SIZE_LARGE | PS_PERF_TYPE_COUNTER | PS_PERF_COUNTER_RATE |
                    PS_PERF_TIMER_100NS | PS_PERF_DELTA_COUNTER | PS_PERF_INVERSE_COUNTER |
                    PS_PERF_DISPLAY_PERCENT);
  g_assert_cmpuint (PS_PERF_COUNTER_COUNTER, ==,
                    PS_PERF_SIZE_DWORD | PS_PERF_TYPE_COUNTER | PS_PERF_COUNTER_RATE |
                    PS_PERF_TIMER_TICK | PS_PERF_DELTA_COUNTER | PS_PERF_DISPLAY_PER_SEC);

  g_assert_cmpstr (ps_perflib_type_to_string (PS_PERF_100NSEC_TIMER_INV), ==, "PERF_100NSEC_TIMER_INV");
  g_assert_cmpstr (ps_perflib_type_to_string (PS_PERF_COUNTER_RAWCOUNT_HEX), ==, "PERF_COUNTER_RAWCOUNT_HEX");
  g_assert_cmpstr (ps_perflib_type_to_string (PS_PERF_LARGE_RAW_BASE), ==, "PERF_LARGE_RAW_BASE");
  g_assert_cmpstr (ps_perflib_type_to_string (PS_PERF_COUNTER_HISTOGRAM_TYPE), ==, "PERF_COUNTER_HISTOGRAM_TYPE");
  g_assert_null (ps_perflib_type_to_string (0x12345678));

  /* Field accessors */
  g_assert_cmpuint (ps_perflib_type_get_size_field (PS_PERF_COUNTER_BULK_COUNT), ==, PS_PERF_SIZE_LARGE);
  g_assert_cmpuint (ps_perflib_type_get_value_size (PS_PERF_COUNTER_BULK_COUNT), ==, 8);
  g_assert_cmpuint (ps_perflib_type_get_value_size (PS_PERF_COUNTER_COUNTER), ==, 4);
  g_assert_cmpuint (ps_perflib_type_get_value_size (PS_PERF_COUNTER_NODATA), ==, 0);
  g_assert_cmpuint (ps_perflib_type_get_kind (PS_PERF_COUNTER_TEXT), ==, PS_PERF_TYPE_TEXT);
  g_assert_cmpuint (ps_perflib_type_get_subtype (PS_PERF_AVERAGE_BASE), ==, PS_PERF_COUNTER_BASE);
  g_assert_cmpuint (ps_perflib_type_get_time_base (PS_PERF_OBJ_TIME_TIMER), ==, PS_PERF_OBJECT_TIMER);
  g_assert_cmpuint (ps_perflib_type_get_modifiers (PS_PERF_100NSEC_MULTI_TIMER_INV), ==,
                    PS_PERF_DELTA_COUNTER | PS_PERF_INVERSE_COUNTER | PS_PERF_MULTI_COUNTER);
  g_assert_cmpuint (ps_perflib_type_get_modifiers (PS_PERF_SAMPLE_FRACTION), ==,
                    PS_PERF_DELTA_COUNTER | PS_PERF_DELTA_BASE);
  g_assert_cmpuint (ps_perflib_type_get_display_suffix (PS_PERF_AVERAGE_TIMER), ==, PS_PERF_DISPLAY_SECONDS);

  /* The explicit table beats the bits (§4.1): AVERAGE_TIMER and
   * AVERAGE_BULK need two samples without a DELTA flag */
  info = ps_perflib_type_get_info (PS_PERF_AVERAGE_TIMER);
  g_assert_nonnull (info);
  g_assert_cmpuint (info->n_samples, ==, 2);
  g_assert_cmpuint (info->base_type, ==, PS_PERF_AVERAGE_BASE);
  g_assert_cmpint (info->unit, ==, PS_PERFLIB_UNIT_SECONDS);
  g_assert_true (ps_perflib_type_needs_base (PS_PERF_AVERAGE_TIMER));
  g_assert_true (ps_perflib_type_needs_time_base (PS_PERF_AVERAGE_TIMER));
  info = ps_perflib_type_get_info (PS_PERF_AVERAGE_BULK);
  g_assert_cmpuint (info->n_samples, ==, 2);
  g_assert_cmpint (info->unit, ==, PS_PERFLIB_UNIT_COUNT);
  g_assert_false (ps_perflib_type_needs_time_base (PS_PERF_AVERAGE_BULK));

  info = ps_perflib_type_get_info (PS_PERF_100NSEC_TIMER_INV);
  g_assert_cmpuint (info->raw_size, ==, 8);
  g_assert_cmpint (info->time_source, ==, PS_PERFLIB_TIME_100NS);
  g_assert_false (ps_perflib_type_needs_base (PS_PERF_100NSEC_TIMER_INV));
  g_assert_cmpstr (ps_perflib_unit_to_string (ps_perflib_type_get_unit (PS_PERF_100NSEC_TIMER_INV)), ==, "percent");
  g_assert_cmpstr (ps_perflib_unit_to_string (ps_perflib_type_get_unit (PS_PERF_COUNTER_COUNTER)), ==, "per second");
  g_assert_cmpstr (ps_perflib_unit_to_string (ps_perflib_type_get_unit (PS_PERF_SAMPLE_COUNTER)), ==, "per second");
  g_assert_cmpstr (ps_perflib_unit_to_string (ps_perflib_type_get_unit (PS_PERF_ELAPSED_TIME)), ==, "seconds");
  g_assert_cmpstr (ps_perflib_unit_to_string (ps_perflib_type_get_unit (PS_PERF_COUNTER_RAWCOUNT)), ==, "count");
  g_assert_cmpstr (ps_perflib_unit_to_string (ps_perflib_type_get_unit (PS_PERF_RAW_BASE)), ==, "none");
  g_assert_cmpstr (ps_perflib_unit_to_string (ps_perflib_type_get_unit (PS_PERF_COUNTER_TEXT)), ==, "text");
  g_assert_true (ps_perflib_type_get_info (PS_PERF_COUNTER_RAWCOUNT_HEX)->display_hex);

  info = ps_perflib_type_get_info (PS_PERF_PRECISION_100NS_TIMER);
  g_assert_cmpuint (info->base_type, ==, PS_PERF_PRECISION_TIMESTAMP);
  g_assert_cmpint (info->time_source, ==, PS_PERFLIB_TIME_BASE_COUNTER);
  info = ps_perflib_type_get_info (PS_PERF_COUNTER_MULTI_TIMER_INV);
  g_assert_true (info->needs_multi);
  g_assert_cmpuint (info->base_type, ==, PS_PERF_COUNTER_MULTI_BASE);
  info = ps_perflib_type_get_info (PS_PERF_OBJ_TIME_TIMER);
  g_assert_cmpint (info->time_source, ==, PS_PERFLIB_TIME_OBJECT);
  info = ps_perflib_type_get_info (PS_PERF_RAW_FRACTION);
  g_assert_cmpuint (info->n_samples, ==, 1);
  g_assert_cmpuint (info->base_type, ==, PS_PERF_RAW_BASE);
  g_assert_true (ps_perflib_type_get_info (PS_PERF_SAMPLE_BASE)->is_base);

  /* Unknown types: bits as fallback */
  g_assert_null (ps_perflib_type_get_info (0x20410501));
  g_assert_true (ps_perflib_type_needs_time_base (0x20410501));
  g_assert_cmpint (ps_perflib_type_get_unit (0x20410501), ==, PS_PERFLIB_UNIT_PERCENT);
}

/* ------------------------------------------------------------------ */
/* Counter data buffers                                               */
/* ------------------------------------------------------------------ */

/* specs: perflib-v2.md §3.7 example, §9.1.1 */
static const guint8 spec_example[80] = {
  0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x80, 0x20, 0x9b, 0xcb, 0x82, 0xd8, 0x01,
  0x80, 0x96, 0x98, 0x00, 0x00, 0x00, 0x00, 0x00,
  0xe6, 0x07, 0x06, 0x00, 0x06, 0x00, 0x12, 0x00, 0x04, 0x00, 0x1a, 0x00, 0x28, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
  0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void
test_minimal (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  const PsPerflibBlock *block;

  w_data_header (w, 1);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, 42, 4);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_data_end (w);

  /* The writer reproduces the spec's bytes */
  g_assert_cmpmem (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), spec_example, sizeof spec_example);

  buffer = decode_ok (w);
  g_assert_cmpuint (buffer->total_size, ==, 80);
  g_assert_cmpuint (buffer->num_counters, ==, 1);
  g_assert_cmpint (buffer->perf_time_stamp, ==, EX_PERF_TIME);
  g_assert_cmpint (buffer->perf_time_100nsec, ==, EX_TIME_100NS);
  g_assert_cmpint (buffer->perf_freq, ==, EX_FREQ);
  g_assert_true (buffer->perf_time_100nsec_valid);
  g_assert_cmpint (buffer->perf_time_100nsec_unix_ns, ==, EX_UNIX_NS);
  g_assert_true (buffer->system_time_valid);
  g_assert_cmpint (buffer->system_time_unix_ns, ==, EX_UNIX_NS);
  g_assert_cmpuint (buffer->system_time.year, ==, 2022);
  g_assert_cmpuint (buffer->system_time.day_of_week, ==, 6);
  g_assert_cmpuint (buffer->system_time.second, ==, 40);
  g_assert_cmpuint (buffer->n_warnings, ==, 0);

  g_assert_cmpuint (buffer->n_blocks, ==, 1);
  block = &buffer->blocks[0];
  g_assert_cmpuint (block->offset, ==, 48);
  g_assert_cmpuint (block->type, ==, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  g_assert_cmpuint (block->size, ==, 32);
  g_assert_cmpuint (block->status, ==, 0);
  g_assert_true (block->complete);
  g_assert_cmpuint (block->n_values, ==, 1);
  g_assert_cmpuint (block->n_instances, ==, 0);
  g_assert_cmpuint (buffer->values[block->first_value].value, ==, 42);
  g_assert_cmpuint (buffer->values[block->first_value].data_size, ==, 4);
  g_assert_cmpuint (buffer->values[block->first_value].data_offset, ==, 72);
  g_assert_cmpuint (buffer->values[block->first_value].counter_id, ==, PS_PERF_NO_COUNTER);
  g_assert_cmpuint (buffer->values[block->first_value].instance, ==, PS_PERFLIB_NO_INSTANCE);
  g_assert_true (buffer->values[block->first_value].has_value);

  /* The decoder also works with a NULL out_buffer */
  g_assert_true (ps_perflib_buffer_decode (spec_example, sizeof spec_example, NULL, NULL));
}

/* A SystemTime past what 64-bit nanoseconds since 1970 hold (2262-04-11)
 * is not a time: a warning, no overflow (found by fuzzing) */
static void
test_system_time_range (void)
{
  static const struct { guint16 year, month; gboolean valid; } cases[] = {
    { 2262, 1, TRUE }, { 2262, 12, FALSE }, { 9999, 12, FALSE }, { 1601, 1, FALSE }, { 1678, 1, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(PsPerflibBuffer) buffer = NULL;
      g_autoptr(GError) error = NULL;
      guint8 bytes[sizeof spec_example];

      memcpy (bytes, spec_example, sizeof bytes);
      bytes[32] = cases[i].year & 0xff;
      bytes[33] = cases[i].year >> 8;
      bytes[34] = (guint8) cases[i].month;
      g_assert_true (ps_perflib_buffer_decode (bytes, sizeof bytes, &buffer, &error));
      g_assert_no_error (error);
      g_assert_cmpint (buffer->system_time_valid, ==, cases[i].valid);
      g_assert_cmpuint (buffer->n_warnings, ==, cases[i].valid ? 0 : 1);
      if (cases[i].valid)
        {
          const PsPerflibSystemTime *st = &buffer->system_time;
          g_autoptr(GDateTime) expected = g_date_time_new_utc (st->year, st->month, st->day,
                                                               st->hour, st->minute, st->second);

          g_assert_cmpint (buffer->system_time_unix_ns, ==,
                           g_date_time_to_unix (expected) * G_GINT64_CONSTANT (1000000000)
                           + (gint64) st->milliseconds * 1000000);
        }
      else
        g_assert_cmpint (buffer->warnings[0].code, ==, PS_PERFLIB_WARNING_BAD_SYSTEM_TIME);
    }
}

/* One buffer with every dwType: 1 (u64), 0 (error), 2, 4, 6 */
static void
build_every_type (PsPerflibWriter *w)
{
  static const guint32 ids3[] = { 10, 20, 30 };
  static const guint32 ids2[] = { 7, 8 };

  w_data_header (w, 5);

  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, G_GUINT64_CONSTANT (0x123456789ABCDEF0), 8);
  ps_perflib_writer_block_end (w);

  ps_perflib_writer_block_begin (w, 0x000006BA, PS_PERFLIB_BLOCK_ERROR_RETURN);
  ps_perflib_writer_block_end (w);

  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_MULTIPLE_COUNTERS);
  ps_perflib_writer_multi_counters (w, ids3, 3);
  ps_perflib_writer_counter_data (w, 1000, 4);
  ps_perflib_writer_counter_data (w, G_GUINT64_CONSTANT (5000000000), 8);
  ps_perflib_writer_counter_data (w, 3, 4);
  ps_perflib_writer_block_end (w);

  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_MULTIPLE_INSTANCES);
  ps_perflib_writer_multi_instances_begin (w, 3);
  ps_perflib_writer_instance (w, 0, "0");
  ps_perflib_writer_counter_data (w, 11, 8);
  ps_perflib_writer_instance (w, 1, "_Total");
  ps_perflib_writer_counter_data (w, 22, 8);
  ps_perflib_writer_instance (w, 2, "Ünïcödé 😀");
  ps_perflib_writer_counter_data (w, 33, 8);
  ps_perflib_writer_multi_instances_end (w);
  ps_perflib_writer_block_end (w);

  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_COUNTERSET);
  ps_perflib_writer_multi_counters (w, ids2, 2);
  ps_perflib_writer_multi_instances_begin (w, 2);
  ps_perflib_writer_instance (w, 100, "svchost");
  ps_perflib_writer_counter_data (w, 101, 4);
  ps_perflib_writer_counter_data (w, 102, 8);
  ps_perflib_writer_instance (w, 200, "explorer");
  ps_perflib_writer_counter_data (w, 201, 4);
  ps_perflib_writer_counter_data (w, 202, 8);
  ps_perflib_writer_multi_instances_end (w);
  ps_perflib_writer_block_end (w);

  ps_perflib_writer_data_end (w);
}

static void
check_every_type (const PsPerflibBuffer *buffer, guint n_blocks)
{
  const PsPerflibBlock *b;
  const PsPerflibValue *v;

  g_assert_cmpuint (buffer->n_blocks, >=, n_blocks);
  if (n_blocks >= 1)
    {
      b = &buffer->blocks[0];
      g_assert_cmpuint (b->position, ==, 0);
      g_assert_cmpuint (b->n_values, ==, 1);
      g_assert_cmpuint (buffer->values[b->first_value].value, ==, G_GUINT64_CONSTANT (0x123456789ABCDEF0));
      g_assert_cmpuint (buffer->values[b->first_value].data_size, ==, 8);
    }
  if (n_blocks >= 2)
    {
      b = &buffer->blocks[1];
      g_assert_cmpuint (b->type, ==, PS_PERFLIB_BLOCK_ERROR_RETURN);
      g_assert_cmpuint (b->status, ==, 0x6BA);
      g_assert_cmpuint (b->n_values, ==, 0);
      g_assert_true (b->complete);
    }
  if (n_blocks >= 3)
    {
      b = &buffer->blocks[2];
      g_assert_cmpuint (b->type, ==, PS_PERFLIB_BLOCK_MULTIPLE_COUNTERS);
      g_assert_cmpuint (b->n_counter_ids, ==, 3);
      g_assert_cmpuint (buffer->counter_ids[b->first_counter_id + 2], ==, 30);
      g_assert_cmpuint (b->n_values, ==, 3);
      v = &buffer->values[b->first_value];
      g_assert_cmpuint (v[0].counter_id, ==, 10);
      g_assert_cmpuint (v[0].value, ==, 1000);
      g_assert_cmpuint (v[1].counter_id, ==, 20);
      g_assert_cmpuint (v[1].value, ==, G_GUINT64_CONSTANT (5000000000));
      g_assert_cmpuint (v[2].counter_id, ==, 30);
      g_assert_cmpuint (v[2].value, ==, 3);
      /* Data read at header + 16 + 20: not 8-aligned (§9.1.3) */
      g_assert_cmpuint (v[0].offset, ==, b->offset + 16 + 20);
    }
  if (n_blocks >= 4)
    {
      b = &buffer->blocks[3];
      g_assert_cmpuint (b->type, ==, PS_PERFLIB_BLOCK_MULTIPLE_INSTANCES);
      g_assert_cmpuint (b->n_instances, ==, 3);
      g_assert_cmpuint (b->n_values, ==, 3);
      g_assert_cmpstr (buffer->instances[b->first_instance].name, ==, "0");
      g_assert_cmpstr (buffer->instances[b->first_instance + 1].name, ==, "_Total");
      g_assert_cmpstr (buffer->instances[b->first_instance + 2].name, ==, "Ünïcödé 😀");
      g_assert_cmpuint (buffer->instances[b->first_instance + 2].instance_id, ==, 2);
      v = &buffer->values[b->first_value];
      g_assert_cmpuint (v[1].value, ==, 22);
      g_assert_cmpuint (v[1].instance, ==, b->first_instance + 1);
      g_assert_cmpuint (v[2].value, ==, 33);
      g_assert_cmpuint (v[2].counter_id, ==, PS_PERF_NO_COUNTER);
    }
  if (n_blocks >= 5)
    {
      b = &buffer->blocks[4];
      g_assert_cmpuint (b->type, ==, PS_PERFLIB_BLOCK_COUNTERSET);
      g_assert_cmpuint (b->n_instances, ==, 2);
      g_assert_cmpuint (b->n_values, ==, 4);
      v = &buffer->values[b->first_value];
      g_assert_cmpstr (buffer->instances[v[2].instance].name, ==, "explorer");
      g_assert_cmpuint (buffer->instances[v[2].instance].instance_id, ==, 200);
      g_assert_cmpuint (v[2].counter_id, ==, 7);
      g_assert_cmpuint (v[2].value, ==, 201);
      g_assert_cmpuint (v[3].counter_id, ==, 8);
      g_assert_cmpuint (v[3].value, ==, 202);
      g_assert_cmpuint (v[0].value, ==, 101);
      g_assert_cmpstr (buffer->instances[v[0].instance].name, ==, "svchost");
    }
}

static void
test_every_type (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;

  build_every_type (w);
  buffer = decode_ok (w);
  g_assert_cmpuint (buffer->n_blocks, ==, 5);
  check_every_type (buffer, 5);
  for (guint i = 0; i < buffer->n_blocks; i++)
    g_assert_true (buffer->blocks[i].complete);
  /* Multi-counters with 3 ids leave the blocks after it 4-aligned: the
   * decoder notices (§6 rule 9) but reads on */
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE,
                              buffer->blocks[2].offset));
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_UNALIGNED_BLOCK,
                              buffer->blocks[3].offset));
}

/* §9.1.2 */
static void
test_error_return_between (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;

  w_data_header (w, 3);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, 7, 4);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_block_begin (w, 5, PS_PERFLIB_BLOCK_ERROR_RETURN);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, 9, 8);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_data_end (w);

  buffer = decode_ok (w);
  g_assert_cmpuint (buffer->n_blocks, ==, 3);
  g_assert_cmpuint (buffer->blocks[1].size, ==, 16);
  g_assert_cmpuint (buffer->blocks[1].status, ==, 5);
  g_assert_cmpuint (buffer->values[buffer->blocks[0].first_value].value, ==, 7);
  g_assert_cmpuint (buffer->values[buffer->blocks[2].first_value].value, ==, 9);
  g_assert_cmpuint (buffer->blocks[2].position, ==, 2);
  g_assert_cmpuint (buffer->n_warnings, ==, 0);
}

/* §9.1.4 */
static void
test_counterset_instances (void)
{
  static const guint32 ids[] = { 1, 2, 3 };

  for (guint n_instances = 0; n_instances <= 500; n_instances += 500)
    {
      g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
      g_autoptr(PsPerflibBuffer) buffer = NULL;
      const PsPerflibBlock *b;

      w_data_header (w, 1);
      ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_COUNTERSET);
      ps_perflib_writer_multi_counters (w, ids, 3);
      ps_perflib_writer_multi_instances_begin (w, n_instances);
      for (guint i = 0; i < n_instances; i++)
        {
          g_autofree char *name = g_strdup_printf ("instance %u", i);

          ps_perflib_writer_instance (w, 1000 + i, name);
          ps_perflib_writer_counter_data (w, i, 4);
          ps_perflib_writer_counter_data (w, G_GUINT64_CONSTANT (1) << 40 | i, 8);
          ps_perflib_writer_counter_data (w, 2 * i, 4);
        }
      ps_perflib_writer_multi_instances_end (w);
      ps_perflib_writer_block_end (w);
      ps_perflib_writer_data_end (w);

      buffer = decode_ok (w);
      b = &buffer->blocks[0];
      g_assert_cmpuint (b->n_instances, ==, n_instances);
      g_assert_cmpuint (b->n_values, ==, 3 * n_instances);
      if (n_instances == 0)
        {
          /* dwTotalSize 8 */
          g_assert_cmpuint (buffer->n_values, ==, 0);
          continue;
        }
      for (guint i = 0; i < n_instances; i += 37)
        {
          const PsPerflibValue *v = &buffer->values[b->first_value + 3 * i];
          g_autofree char *name = g_strdup_printf ("instance %u", i);

          g_assert_cmpstr (buffer->instances[v[0].instance].name, ==, name);
          g_assert_cmpuint (buffer->instances[v[0].instance].instance_id, ==, 1000 + i);
          g_assert_cmpuint (v[0].value, ==, i);
          g_assert_cmpuint (v[1].value, ==, G_GUINT64_CONSTANT (1) << 40 | i);
          g_assert_cmpuint (v[1].counter_id, ==, 2);
          g_assert_cmpuint (v[2].value, ==, 2 * i);
          g_assert_cmpuint (v[2].instance, ==, v[0].instance);
        }
    }
}

/* §9.1.5 */
static void
test_instance_names (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  const PsPerflibBlock *b;
  gsize bad_name_at;

  w_data_header (w, 1);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_MULTIPLE_INSTANCES);
  ps_perflib_writer_multi_instances_begin (w, 5);
  ps_perflib_writer_instance (w, 0, "");
  ps_perflib_writer_counter_data (w, 1, 4);
  ps_perflib_writer_instance (w, 4, "dup");
  ps_perflib_writer_counter_data (w, 2, 4);
  ps_perflib_writer_instance (w, 4, "dup");
  ps_perflib_writer_counter_data (w, 3, 4);
  /* 7 code units + NUL = 16 bytes: no padding needed */
  ps_perflib_writer_instance (w, 5, "seven77");
  ps_perflib_writer_counter_data (w, 4, 4);
  /* A lone high surrogate then "x" */
  bad_name_at = ps_perflib_writer_get_length (w);
  ps_perflib_writer_field (w, PS_PERFLIB_FIELD_OTHER_SIZE, 16);
  ps_perflib_writer_u32 (w, 6);
  ps_perflib_writer_u16 (w, 0xD800); ps_perflib_writer_u16 (w, 'x'); ps_perflib_writer_u16 (w, 0); ps_perflib_writer_u16 (w, 0);
  ps_perflib_writer_counter_data (w, 5, 4);
  ps_perflib_writer_multi_instances_end (w);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_data_end (w);

  buffer = decode_ok (w);
  b = &buffer->blocks[0];
  g_assert_cmpuint (b->n_instances, ==, 5);
  g_assert_cmpstr (buffer->instances[0].name, ==, "");
  g_assert_cmpstr (buffer->instances[1].name, ==, "dup");
  g_assert_cmpstr (buffer->instances[2].name, ==, "dup");
  g_assert_cmpuint (buffer->instances[1].instance_id, ==, buffer->instances[2].instance_id);
  g_assert_cmpuint (buffer->values[1].instance, ==, 1);
  g_assert_cmpuint (buffer->values[2].instance, ==, 2);
  g_assert_cmpuint (buffer->values[2].value, ==, 3);
  g_assert_cmpstr (buffer->instances[3].name, ==, "seven77");
  g_assert_cmpstr (buffer->instances[4].name, ==, "\xEF\xBF\xBDx");
  g_assert_cmpuint (buffer->values[4].value, ==, 5);
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_BAD_UTF16, bad_name_at + 8));
}

/* §9.1.6 */
static void
test_name_without_nul (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  gsize rejected_at;

  w_data_header (w, 1);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_MULTIPLE_INSTANCES);
  ps_perflib_writer_multi_instances_begin (w, 3);
  ps_perflib_writer_instance (w, 1, "first");
  ps_perflib_writer_counter_data (w, 10, 4);
  rejected_at = ps_perflib_writer_get_length (w);
  /* Size 16: 4 code units, none NUL; the next struct starts right after */
  ps_perflib_writer_field (w, PS_PERFLIB_FIELD_OTHER_SIZE, 16);
  ps_perflib_writer_u32 (w, 2);
  ps_perflib_writer_u16 (w, 'a'); ps_perflib_writer_u16 (w, 'b'); ps_perflib_writer_u16 (w, 'c'); ps_perflib_writer_u16 (w, 'd');
  ps_perflib_writer_counter_data (w, 20, 4);
  ps_perflib_writer_instance (w, 3, "third");
  ps_perflib_writer_counter_data (w, 30, 4);
  ps_perflib_writer_multi_instances_end (w);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_data_end (w);

  buffer = decode_ok (w);
  g_assert_cmpuint (buffer->blocks[0].n_instances, ==, 2);
  g_assert_cmpuint (buffer->n_values, ==, 2);
  g_assert_cmpstr (buffer->instances[0].name, ==, "first");
  g_assert_cmpstr (buffer->instances[1].name, ==, "third");
  g_assert_cmpuint (buffer->values[1].value, ==, 30);
  g_assert_cmpuint (buffer->values[1].instance, ==, 1);
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_INSTANCE_REJECTED, rejected_at));
}

/* Decodes an exact-length heap copy (so that ASan sees any read past it)
 * and expects failure. */
static PsPerflibBuffer *
decode_fail (const guint8 *data, gsize length, GError **out_error)
{
  g_autofree guint8 *copy = g_memdup2 (data, length);
  g_autoptr(GError) error = NULL;
  PsPerflibBuffer *buffer = NULL;
  gboolean ok;

  ok = ps_perflib_buffer_decode (copy, length, &buffer, &error);
  g_assert_false (ok);
  g_assert_nonnull (error);
  g_assert_true (error->domain == PS_ERROR);
  g_assert_nonnull (strstr (error->message, "byte offset "));
  if (buffer != NULL)
    g_assert_false (buffer->complete);
  if (out_error != NULL)
    *out_error = g_steal_pointer (&error);
  return buffer;
}

static gsize
good_last_offset (const guint8 *data, gsize len)
{
  g_autoptr(PsPerflibBuffer) buffer = NULL;

  g_assert_true (ps_perflib_buffer_decode (data, len, &buffer, NULL));
  return buffer->blocks[buffer->n_blocks - 1].offset;
}

/* §9.1.7 */
static void
test_header_errors (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autofree guint8 *data = NULL;
  gsize len;

  build_every_type (w);
  len = ps_perflib_writer_get_length (w);
  data = g_memdup2 (ps_perflib_writer_peek (w, NULL), len);

  /* Shorter than the header */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PsPerflibBuffer) buffer = decode_fail (data, 47, &error);

    g_assert_null (buffer);
    g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
    g_assert_cmpuint (error_offset (error), ==, 0);
  }
  /* dwTotalSize > length: the cut buffer keeps the whole blocks */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PsPerflibBuffer) buffer = decode_fail (data, len - 8, &error);

    g_assert_nonnull (buffer);
    g_assert_cmpuint (buffer->n_blocks, ==, 4);
    check_every_type (buffer, 4);
    g_assert_cmpuint (error_offset (error), ==, good_last_offset (data, len));
  }
  /* dwTotalSize > length, but every block is there */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PsPerflibBuffer) buffer = NULL;

    ps_perflib_writer_patch_u32 (w, 0, len + 8);
    buffer = decode_fail (ps_perflib_writer_peek (w, NULL), len, &error);
    check_every_type (buffer, 5);
    g_assert_cmpuint (error_offset (error), ==, 0);
    ps_perflib_writer_patch_u32 (w, 0, len);
  }
  /* dwTotalSize < 48 */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PsPerflibBuffer) buffer = NULL;

    ps_perflib_writer_patch_u32 (w, 0, 47);
    buffer = decode_fail (ps_perflib_writer_peek (w, NULL), len, &error);
    g_assert_cmpuint (buffer->n_blocks, ==, 0);
    g_assert_cmpint (buffer->perf_freq, ==, EX_FREQ);
    g_assert_cmpuint (error_offset (error), ==, 0);
    ps_perflib_writer_patch_u32 (w, 0, len);
  }
  /* dwNumCounters = 0xFFFFFFFF */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PsPerflibBuffer) buffer = NULL;

    ps_perflib_writer_patch_u32 (w, 4, 0xFFFFFFFFu);
    buffer = decode_fail (ps_perflib_writer_peek (w, NULL), len, &error);
    g_assert_cmpuint (buffer->n_blocks, ==, 0);
    g_assert_cmpuint (error_offset (error), ==, 4);
    ps_perflib_writer_patch_u32 (w, 4, 5);
  }
  /* dwSize = 0, 15, beyond the end, in the third block */
  {
    static const guint32 bad_sizes[] = { 0, 15, 0x7FFFFFFF };
    g_autoptr(PsPerflibBuffer) good = decode_ok (w);
    gsize third = good->blocks[2].offset;
    guint32 orig = good->blocks[2].size;

    for (gsize i = 0; i < G_N_ELEMENTS (bad_sizes); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(PsPerflibBuffer) buffer = NULL;

        ps_perflib_writer_patch_u32 (w, third + 8, bad_sizes[i]);
        buffer = decode_fail (ps_perflib_writer_peek (w, NULL), len, &error);
        g_assert_cmpuint (error_offset (error), ==, third);
        g_assert_cmpuint (buffer->n_blocks, ==, 2);
        check_every_type (buffer, 2);
      }
    ps_perflib_writer_patch_u32 (w, third + 8, orig);
  }
  /* Empty input */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ps_perflib_buffer_decode ((const guint8 *) "", 0, NULL, &error));
    g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  }
}

/* §9.1.8 */
static void
test_multi_counters_overflow (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  gsize mc_at;

  w_data_header (w, 2);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, 5, 4);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_MULTIPLE_COUNTERS);
  mc_at = ps_perflib_writer_get_length (w);
  ps_perflib_writer_u32 (w, 16);
  ps_perflib_writer_u32 (w, 0x40000000u);
  ps_perflib_writer_u32 (w, 1); ps_perflib_writer_u32 (w, 2);
  ps_perflib_writer_counter_data (w, 1, 4);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_data_end (w);

  buffer = decode_fail (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &error);
  g_assert_cmpuint (error_offset (error), ==, mc_at);
  g_assert_nonnull (strstr (error->message, "dwCounters"));
  g_assert_cmpuint (buffer->n_blocks, ==, 2);
  g_assert_cmpuint (buffer->values[0].value, ==, 5);
  g_assert_false (buffer->blocks[1].complete);
  g_assert_cmpuint (buffer->n_counter_ids, ==, 0);
}

/* §9.1.9 */
static void
test_data_sizes (void)
{
  static const guint32 sizes[] = { 0, 3, 4, 8, 16 };
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;

  w_data_header (w, G_N_ELEMENTS (sizes));
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
      ps_perflib_writer_counter_data (w, G_GUINT64_CONSTANT (0x0102030405060708), sizes[i]);
      ps_perflib_writer_block_end (w);
    }
  ps_perflib_writer_data_end (w);

  buffer = decode_ok (w);
  g_assert_cmpuint (buffer->n_values, ==, 5);
  g_assert_false (buffer->values[0].has_value);
  g_assert_cmpuint (buffer->values[0].data_size, ==, 0);
  g_assert_false (buffer->values[1].has_value);
  g_assert_cmpuint (buffer->values[1].data_size, ==, 3);
  /* Opaque bytes stay reachable through data_offset */
  g_assert_cmpuint (ps_perflib_writer_peek (w, NULL)[buffer->values[1].data_offset], ==, 0x08);
  g_assert_true (buffer->values[2].has_value);
  g_assert_cmpuint (buffer->values[2].value, ==, 0x05060708);
  g_assert_cmpuint (buffer->values[3].value, ==, G_GUINT64_CONSTANT (0x0102030405060708));
  g_assert_false (buffer->values[4].has_value);
  g_assert_cmpuint (buffer->values[4].data_size, ==, 16);
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_OPAQUE_VALUE, buffer->values[0].offset));
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_OPAQUE_VALUE, buffer->values[4].offset));

  /* dwDataSize > dwSize − 8 */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PsPerflibBuffer) bad = NULL;
    gsize at = buffer->values[3].offset;

    ps_perflib_writer_patch_u32 (w, at, 9);
    bad = decode_fail (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &error);
    g_assert_cmpuint (error_offset (error), ==, at);
    g_assert_nonnull (strstr (error->message, "dwDataSize"));
    g_assert_cmpuint (bad->n_blocks, ==, 4);
    g_assert_cmpuint (bad->n_values, ==, 3);
    g_assert_false (bad->blocks[3].complete);
  }
}

/* §9.1.10 */
static void
test_unknown_types (void)
{
  static const guint32 types[] = { 3, 5, 7 };
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;

  w_data_header (w, 4);
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    {
      ps_perflib_writer_block_begin (w, 0, types[i]);
      /* A payload that would not parse as anything */
      ps_perflib_writer_u32 (w, 0xFFFFFFFFu); ps_perflib_writer_u32 (w, 0xFFFFFFFFu);
      ps_perflib_writer_block_end (w);
    }
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, 77, 4);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_data_end (w);

  buffer = decode_ok (w);
  g_assert_cmpuint (buffer->n_blocks, ==, 4);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (buffer->blocks[i].type, ==, types[i]);
      g_assert_cmpuint (buffer->blocks[i].n_values, ==, 0);
      g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_UNKNOWN_BLOCK_TYPE,
                                  buffer->blocks[i].offset));
    }
  g_assert_cmpuint (buffer->values[buffer->blocks[3].first_value].value, ==, 77);
}

/* §9.1.11, §9.1.12 */
static void
test_trailing_and_unaligned (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  gsize total;

  w_data_header (w, 2);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, 1, 4);
  ps_perflib_writer_u32 (w, 0);            /* block dwSize 36: not a multiple of 8 */
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_block_begin (w, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
  ps_perflib_writer_counter_data (w, 2, 4);
  ps_perflib_writer_block_end (w);
  ps_perflib_writer_data_end (w);
  total = ps_perflib_writer_get_length (w);
  for (guint i = 0; i < 13; i++)
    ps_perflib_writer_u8 (w, 0xEE);

  buffer = decode_ok (w);
  g_assert_cmpuint (buffer->n_blocks, ==, 2);
  g_assert_cmpuint (buffer->blocks[0].size, ==, 36);
  g_assert_cmpuint (buffer->values[1].value, ==, 2);
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_TRAILING_BYTES, total));
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE, 48));
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE, 0));
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_UNALIGNED_BLOCK, 84));
  g_assert_true (has_warning (buffer->warnings, buffer->n_warnings, PS_PERFLIB_WARNING_UNUSED_BYTES, G_MAXSIZE));

  /* Bytes inside dwTotalSize after the last block */
  {
    g_autoptr(PsPerflibWriter) w2 = ps_perflib_writer_new ();
    g_autoptr(PsPerflibBuffer) b2 = NULL;

    w_data_header (w2, 1);
    ps_perflib_writer_block_begin (w2, 0, PS_PERFLIB_BLOCK_SINGLE_COUNTER);
    ps_perflib_writer_counter_data (w2, 3, 8);
    ps_perflib_writer_block_end (w2);
    ps_perflib_writer_u64 (w2, 0);
    ps_perflib_writer_data_end (w2);
    b2 = decode_ok (w2);
    g_assert_cmpuint (b2->values[0].value, ==, 3);
    g_assert_true (has_warning (b2->warnings, b2->n_warnings, PS_PERFLIB_WARNING_TRAILING_BYTES, 80));
  }
}

/* The corruptions of one size or count field */
static guint
corruptions (guint32 orig, guint32 limit, guint32 *out)
{
  guint n = 0;

  out[n++] = 0;
  out[n++] = 1;
  out[n++] = limit + 1;               /* just too large for its container */
  out[n++] = 0xFFFFFFFFu;
  out[n++] = orig | 1;                /* odd */
  out[n++] = (orig | 1) == orig ? orig + 2 : orig + 1;
  out[n++] = 0x40000000u;
  return n;
}

static guint32
load_le32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

/* Every size and count field of a buffer with every block type, each set
 * to bad values: no out-of-bounds read (run under ASan/valgrind), an
 * error naming an offset inside the buffer or a clean decode, and every
 * block that ends before the damaged field decoded as before. */
static void
test_fuzz_sizes (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) good = NULL;
  gsize len;

  build_every_type (w);
  good = decode_ok (w);
  len = ps_perflib_writer_get_length (w);
  g_assert_cmpuint (ps_perflib_writer_get_n_fields (w), >, 25);

  for (guint f = 0; f < ps_perflib_writer_get_n_fields (w); f++)
    {
      const PsPerflibField *field = ps_perflib_writer_get_field (w, f);
      guint32 orig = load_le32 (ps_perflib_writer_peek (w, NULL) + field->offset);
      guint32 values[8];
      guint n_values;
      guint n_before = 0;

      /* A size field's container: at most the rest of the buffer */
      n_values = corruptions (orig, (guint32) (len - field->offset), values);
      for (guint b = 0; b < good->n_blocks; b++)
        if (good->blocks[b].offset + good->blocks[b].size <= field->offset)
          n_before = b + 1;

      for (guint v = 0; v < n_values; v++)
        {
          g_autofree guint8 *copy = g_memdup2 (ps_perflib_writer_peek (w, NULL), len);
          g_autoptr(GError) error = NULL;
          g_autoptr(PsPerflibBuffer) buffer = NULL;
          gboolean ok;

          if (values[v] == orig)
            continue;
          copy[field->offset] = values[v] & 0xff;
          copy[field->offset + 1] = (values[v] >> 8) & 0xff;
          copy[field->offset + 2] = (values[v] >> 16) & 0xff;
          copy[field->offset + 3] = (values[v] >> 24) & 0xff;

          ok = ps_perflib_buffer_decode (copy, len, &buffer, &error);
          if (!ok)
            {
              gsize at;

              g_assert_nonnull (error);
              at = error_offset (error);
              g_assert_cmpuint (at, !=, G_MAXSIZE);
              g_assert_cmpuint (at, <=, len);
              g_assert_nonnull (buffer);
              g_assert_false (buffer->complete);
            }
          else
            g_assert_no_error (error);

          if (buffer == NULL)
            continue;
          /* The header was read, whatever the damage */
          g_assert_cmpint (buffer->perf_time_100nsec, ==, EX_TIME_100NS);
          /* Blocks before the damage (header fields aside) are intact */
          if (field->offset >= 48)
            {
              g_assert_cmpuint (buffer->n_blocks, >=, n_before);
              check_every_type (buffer, n_before);
            }
          for (guint i = 0; i < buffer->n_values; i++)
            {
              g_assert_cmpuint (buffer->values[i].data_offset + buffer->values[i].data_size, <=, len);
              if (buffer->values[i].instance != PS_PERFLIB_NO_INSTANCE)
                g_assert_cmpuint (buffer->values[i].instance, <, buffer->n_instances);
            }
          for (guint i = 0; i < buffer->n_blocks; i++)
            {
              const PsPerflibBlock *b = &buffer->blocks[i];

              g_assert_cmpuint (b->first_value + b->n_values, <=, buffer->n_values);
              g_assert_cmpuint (b->first_instance + b->n_instances, <=, buffer->n_instances);
              g_assert_cmpuint (b->first_counter_id + b->n_counter_ids, <=, buffer->n_counter_ids);
            }
        }
    }
}

/* The hostile values of one field whose original value is size */
static guint
hostile_values (guint32 size, guint32 *out)
{
  guint n = 0;

  out[n++] = 0;
  out[n++] = 1;
  out[n++] = 7;
  out[n++] = size - 1;
  out[n++] = size + 1;
  out[n++] = size + 8;
  out[n++] = 0x7fffffffu;
  out[n++] = 0xffffffffu;
  return n;
}

/* Every size and count field of every block (and every instance name) of
 * a buffer with every dwType, set to each hostile value: the decoder
 * reads nothing outside the buffer (ASan in CI), decodes every block
 * before the damaged one exactly as before, and either reports an error
 * at a byte offset inside the damaged block or after it, or reads past
 * the damage with a warning or a changed value in that block. */
static void
test_fuzz_hostile (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) good = NULL;
  const guint8 *original;
  gsize len;
  guint n_checked = 0;

  build_every_type (w);
  good = decode_ok (w);
  original = ps_perflib_writer_peek (w, &len);

  for (guint f = 0; f < ps_perflib_writer_get_n_fields (w); f++)
    {
      const PsPerflibField *field = ps_perflib_writer_get_field (w, f);
      gsize block_start = field->block_offset == PS_PERFLIB_WRITER_NO_BLOCK ? 0 : field->block_offset;
      guint damaged = 0;
      guint32 values[8];
      guint n_values = 1;

      /* The damaged block: the one holding the field */
      while (damaged < good->n_blocks && good->blocks[damaged].offset < block_start)
        damaged++;
      if (field->kind != PS_PERFLIB_FIELD_INSTANCE_NAME)
        n_values = hostile_values (load_le32 (original + field->offset), values);

      for (guint v = 0; v < n_values; v++)
        {
          g_autofree guint8 *copy = g_memdup2 (original, len);
          g_autoptr(GError) error = NULL;
          g_autoptr(PsPerflibBuffer) buffer = NULL;
          gboolean ok;

          if (field->kind == PS_PERFLIB_FIELD_INSTANCE_NAME)
            memset (copy + field->offset, 'A', field->length);   /* no NUL left */
          else
            {
              if (values[v] == load_le32 (original + field->offset))
                continue;
              copy[field->offset] = values[v] & 0xff;
              copy[field->offset + 1] = (values[v] >> 8) & 0xff;
              copy[field->offset + 2] = (values[v] >> 16) & 0xff;
              copy[field->offset + 3] = (values[v] >> 24) & 0xff;
            }
          n_checked++;

          ok = ps_perflib_buffer_decode (copy, len, &buffer, &error);
          g_assert_nonnull (buffer);
          g_assert_cmpint (buffer->perf_time_stamp, ==, EX_PERF_TIME);
          g_assert_cmpint (buffer->perf_freq, ==, EX_FREQ);

          if (field->block_offset == PS_PERFLIB_WRITER_NO_BLOCK)
            {
              /* dwTotalSize, dwNumCounters: the header itself is named */
              if (!ok)
                {
                  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
                  g_assert_cmpuint (error_offset (error), <=, len);
                }
              continue;
            }

          /* The blocks before the damaged one, exactly as before */
          g_assert_cmpuint (buffer->n_blocks, >=, damaged);
          check_every_type (buffer, damaged);
          for (guint b = 0; b < damaged; b++)
            {
              g_assert_true (buffer->blocks[b].complete);
              g_assert_cmpuint (buffer->blocks[b].offset, ==, good->blocks[b].offset);
            }

          if (!ok)
            {
              gsize at = error_offset (error);

              g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
              g_assert_false (buffer->complete);
              /* The bad block, or a later one it misframed */
              g_assert_cmpuint (at, >=, field->block_offset);
              g_assert_cmpuint (at, <=, len);
              /* A dwSize that does not frame its block stops before it */
              if (buffer->n_blocks == damaged)
                g_assert_cmpuint (at, ==, field->block_offset);
              if (field->kind == PS_PERFLIB_FIELD_BLOCK_SIZE && values[v] < 16)
                g_assert_cmpuint (at, ==, field->block_offset);
            }
          else if (field->kind == PS_PERFLIB_FIELD_INSTANCE_NAME)
            {
              const PsPerflibBlock *b = &buffer->blocks[damaged];

              g_assert_true (has_warning (buffer->warnings, buffer->n_warnings,
                                          PS_PERFLIB_WARNING_INSTANCE_REJECTED, field->struct_offset));
              g_assert_cmpuint (b->n_instances, ==, good->blocks[damaged].n_instances - 1);
              for (guint i = 0; i < b->n_instances; i++)
                g_assert_cmpuint (buffer->instances[b->first_instance + i].offset, !=, field->struct_offset);
              /* The blocks after it are untouched */
              g_assert_cmpuint (buffer->n_blocks, ==, good->n_blocks);
            }
          else
            {
              /* Read past: the damage shows in the damaged block, as a
               * warning at or after its start, or a changed value */
              gboolean seen = FALSE;

              for (guint i = 0; i < buffer->n_warnings; i++)
                if (buffer->warnings[i].offset >= field->block_offset)
                  seen = TRUE;
              for (guint i = 0; i < MIN (buffer->n_values, good->n_values); i++)
                if (buffer->values[i].value != good->values[i].value ||
                    buffer->values[i].data_size != good->values[i].data_size)
                  seen = TRUE;
              g_assert_true (seen || buffer->n_values != good->n_values ||
                             buffer->n_instances != good->n_instances);
            }
        }
    }
  /* Every kind of field of §3.1–§3.6 was corrupted */
  g_assert_cmpuint (n_checked, >, 8 * 25);
}

/* Every prefix of a valid buffer, with dwTotalSize left as written */
static void
test_truncation (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibBuffer) good = NULL;
  gsize len;

  build_every_type (w);
  good = decode_ok (w);
  len = ps_perflib_writer_get_length (w);

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PsPerflibBuffer) buffer = decode_fail (ps_perflib_writer_peek (w, NULL), cut, &error);
      guint n_whole = 0;

      if (cut < 48)
        {
          g_assert_null (buffer);
          continue;
        }
      for (guint b = 0; b < good->n_blocks; b++)
        if (good->blocks[b].offset + good->blocks[b].size <= cut)
          n_whole = b + 1;
      g_assert_cmpuint (buffer->n_blocks, >=, n_whole);
      check_every_type (buffer, n_whole);
      for (guint b = 0; b < n_whole; b++)
        g_assert_true (buffer->blocks[b].complete);
    }
}

/* ------------------------------------------------------------------ */
/* Registration information and identifiers                           */
/* ------------------------------------------------------------------ */

static const guint8 set_guid[16] = {
  0x78, 0x56, 0x34, 0x12, 0xbc, 0x9a, 0xf0, 0xde,
  0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
};

static void
w_counterset_header (PsPerflibWriter *w, guint32 n_counters, guint32 instance_type)
{
  ps_perflib_writer_counterset_reg (w, set_guid, 100, n_counters, instance_type);
}

static void
w_counter_reg (PsPerflibWriter *w, guint32 id, guint32 type, guint32 base, guint32 time, guint32 freq, guint32 multi)
{
  PsPerflibWriterCounter counter;

  ps_perflib_writer_counter_init (&counter, id, type);
  counter.attrib = PS_PERFLIB_ATTRIB_DISPLAY_AS_REAL;
  counter.detail_level = 200;
  counter.default_scale = -3;
  counter.base_counter_id = base;
  counter.perf_time_id = time;
  counter.perf_freq_id = freq;
  counter.multi_id = multi;
  counter.aggregate_func = 2;
  ps_perflib_writer_counter_reg (w, &counter);
}

#define NONE PS_PERF_NO_COUNTER

static PsPerflibCounterSet *
decode_set_ok (PsPerflibWriter *w)
{
  g_autoptr(GError) error = NULL;
  PsPerflibCounterSet *set = NULL;

  g_assert_true (ps_perflib_counterset_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &set, &error));
  g_assert_no_error (error);
  return set;
}

static void
test_registration (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibWriter) names = ps_perflib_writer_new ();
  g_autoptr(PsPerflibWriter) text = ps_perflib_writer_new ();
  g_autoptr(PsPerflibCounterSet) set = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *guid_text = NULL;
  const PsPerflibCounterInfo *info;
  gsize str0, str1;

  w_counterset_header (w, 3, PS_PERFLIB_INSTANCE_MULTIPLE);
  w_counter_reg (w, 0, PS_PERF_AVERAGE_TIMER, 1, NONE, NONE, NONE);
  w_counter_reg (w, 1, PS_PERF_AVERAGE_BASE, NONE, NONE, NONE, NONE);
  w_counter_reg (w, 2, PS_PERF_100NSEC_TIMER_INV, NONE, NONE, NONE, NONE);
  set = decode_set_ok (w);

  guid_text = ps_perflib_guid_to_string (&set->guid);
  g_assert_cmpstr (guid_text, ==, "{12345678-9abc-def0-0123-456789abcdef}");
  g_assert_cmpuint (set->detail_level, ==, 100);
  g_assert_cmpuint (set->instance_type, ==, 2);
  g_assert_cmpuint (set->n_counters, ==, 3);
  g_assert_cmpuint (set->n_warnings, ==, 0);
  info = ps_perflib_counterset_lookup (set, 0);
  g_assert_nonnull (info);
  g_assert_cmpuint (info->type, ==, PS_PERF_AVERAGE_TIMER);
  g_assert_cmpuint (info->base_counter_id, ==, 1);
  g_assert_cmpuint (info->perf_time_id, ==, NONE);
  g_assert_cmpint (info->default_scale, ==, -3);
  g_assert_cmpuint (info->detail_level, ==, 200);
  g_assert_cmpuint (info->attrib, ==, PS_PERFLIB_ATTRIB_DISPLAY_AS_REAL);
  g_assert_cmpuint (info->aggregate_func, ==, 2);
  g_assert_cmpuint (info->offset, ==, 32);
  g_assert_cmpuint (set->counters[2].offset, ==, 32 + 2 * 48);
  g_assert_null (ps_perflib_counterset_lookup (set, 3));

  /* Code 5: names, one entry without a string, an odd offset */
  ps_perflib_writer_open (names);
  ps_perflib_writer_u32 (names, 0);
  ps_perflib_writer_u32 (names, 3);
  ps_perflib_writer_u32 (names, 0); str0 = ps_perflib_writer_get_length (names); ps_perflib_writer_u32 (names, 0);
  ps_perflib_writer_u32 (names, 1); ps_perflib_writer_u32 (names, 0xFFFFFFFFu);
  ps_perflib_writer_u32 (names, 2); str1 = ps_perflib_writer_get_length (names); ps_perflib_writer_u32 (names, 0);
  ps_perflib_writer_patch_u32 (names, str0, (guint32) ps_perflib_writer_get_length (names));
  ps_perflib_writer_utf16 (names, "Avg. Disk sec/Transfer");
  ps_perflib_writer_u8 (names, 0);
  ps_perflib_writer_patch_u32 (names, str1, (guint32) ps_perflib_writer_get_length (names));
  ps_perflib_writer_utf16 (names, "% Idle Time");
  ps_perflib_writer_close (names, 0);
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTER_NAME_STRINGS,
                                              ps_perflib_writer_peek (names, NULL), ps_perflib_writer_get_length (names), &error));
  g_assert_no_error (error);
  g_assert_cmpstr (ps_perflib_counterset_lookup (set, 0)->name, ==, "Avg. Disk sec/Transfer");
  g_assert_null (ps_perflib_counterset_lookup (set, 1)->name);
  g_assert_cmpstr (ps_perflib_counterset_lookup (set, 2)->name, ==, "% Idle Time");
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTER_HELP_STRINGS,
                                              ps_perflib_writer_peek (names, NULL), ps_perflib_writer_get_length (names), &error));
  g_assert_cmpstr (ps_perflib_counterset_lookup (set, 2)->help, ==, "% Idle Time");
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTER_ENGLISH_NAMES,
                                              ps_perflib_writer_peek (names, NULL), ps_perflib_writer_get_length (names), &error));
  g_assert_cmpstr (ps_perflib_counterset_lookup (set, 0)->english_name, ==, "Avg. Disk sec/Transfer");

  /* Codes 3, 4, 7, 9: single strings */
  ps_perflib_writer_utf16 (text, "PhysicalDisk");
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTERSET_NAME_STRING,
                                              ps_perflib_writer_peek (text, NULL), ps_perflib_writer_get_length (text), &error));
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME,
                                              ps_perflib_writer_peek (text, NULL), ps_perflib_writer_get_length (text), &error));
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTERSET_HELP_STRING,
                                              ps_perflib_writer_peek (text, NULL), ps_perflib_writer_get_length (text), &error));
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_PROVIDER_NAME,
                                              ps_perflib_writer_peek (text, NULL), ps_perflib_writer_get_length (text), &error));
  g_assert_no_error (error);
  g_assert_cmpstr (set->name, ==, "PhysicalDisk");
  g_assert_cmpstr (set->english_name, ==, "PhysicalDisk");
  g_assert_cmpstr (set->help, ==, "PhysicalDisk");
  g_assert_cmpstr (set->provider_name, ==, "PhysicalDisk");
  /* §6 rule 12: without NUL */
  g_assert_false (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTERSET_NAME_STRING,
                                               ps_perflib_writer_peek (text, NULL), ps_perflib_writer_get_length (text) - 2, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_clear_error (&error);
  g_assert_cmpstr (set->name, ==, "PhysicalDisk");

  /* Code 8 */
  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_PROVIDER_GUID, set_guid, 16, &error));
  g_assert_true (set->has_provider_guid);
  g_assert_true (ps_perflib_guid_equal (&set->guid, &set->provider_guid));
  g_assert_false (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_PROVIDER_GUID, set_guid, 15, &error));
  g_clear_error (&error);

  /* Code 2 replaces one counter, keeping its names */
  {
    g_autoptr(PsPerflibWriter) one = ps_perflib_writer_new ();

    w_counter_reg (one, 2, PS_PERF_100NSEC_TIMER, NONE, NONE, NONE, NONE);
    g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTER_STRUCT,
                                                ps_perflib_writer_peek (one, NULL), ps_perflib_writer_get_length (one), &error));
    g_assert_cmpuint (ps_perflib_counterset_lookup (set, 2)->type, ==, PS_PERF_100NSEC_TIMER);
    g_assert_cmpstr (ps_perflib_counterset_lookup (set, 2)->name, ==, "% Idle Time");
    g_assert_cmpuint (set->n_counters, ==, 3);
  }
}

/* §9.2.1 */
static void
test_registration_too_many (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PsPerflibCounterSet) set = NULL;

  w_counterset_header (w, 5, 0);
  w_counter_reg (w, 0, PS_PERF_COUNTER_RAWCOUNT, NONE, NONE, NONE, NONE);
  w_counter_reg (w, 1, PS_PERF_COUNTER_RAWCOUNT, NONE, NONE, NONE, NONE);
  g_assert_false (ps_perflib_counterset_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &set, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_assert_cmpuint (error_offset (error), ==, 24);
  g_assert_cmpuint (set->n_counters, ==, 2);
  g_clear_pointer (&set, ps_perflib_counterset_free);
  g_clear_error (&error);

  ps_perflib_writer_patch_u32 (w, 24, 0xFFFFFFFFu);
  g_assert_false (ps_perflib_counterset_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &set, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_clear_pointer (&set, ps_perflib_counterset_free);
  g_clear_error (&error);

  /* Every truncation */
  ps_perflib_writer_patch_u32 (w, 24, 2);
  for (gsize cut = 0; cut < ps_perflib_writer_get_length (w); cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (ps_perflib_writer_peek (w, NULL), cut);

      g_assert_false (ps_perflib_counterset_decode (copy, cut, &set, &error));
      g_assert_nonnull (strstr (error->message, "byte offset"));
      if (cut >= 32)
        g_assert_cmpuint (set->n_counters, ==, (cut - 32) / 48);
      g_clear_pointer (&set, ps_perflib_counterset_free);
      g_clear_error (&error);
    }
}

/* §9.2.2, §9.2.3 */
static void
test_registration_companions (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibCounterSet) set = NULL;
  guint n_cycle = 0;

  w_counterset_header (w, 7, 0);
  w_counter_reg (w, 0, PS_PERF_AVERAGE_TIMER, 99, NONE, NONE, NONE);      /* missing */
  w_counter_reg (w, 1, PS_PERF_AVERAGE_TIMER, 1, NONE, NONE, NONE);       /* itself */
  w_counter_reg (w, 2, PS_PERF_AVERAGE_TIMER, 3, NONE, NONE, NONE);       /* 2 → 3 → 2 */
  w_counter_reg (w, 3, PS_PERF_AVERAGE_BASE, 2, NONE, NONE, NONE);
  w_counter_reg (w, 4, PS_PERF_OBJ_TIME_TIMER, NONE, 5, 6, NONE);         /* fine */
  w_counter_reg (w, 5, PS_PERF_COUNTER_LARGE_RAWCOUNT, NONE, NONE, NONE, NONE);
  w_counter_reg (w, 5, PS_PERF_COUNTER_RAWCOUNT, NONE, NONE, NONE, NONE); /* duplicate */
  set = decode_set_ok (w);

  g_assert_cmpuint (set->n_counters, ==, 6);
  g_assert_cmpuint (ps_perflib_counterset_lookup (set, 5)->type, ==, PS_PERF_COUNTER_LARGE_RAWCOUNT);
  g_assert_true (has_warning (set->warnings, set->n_warnings, PS_PERFLIB_WARNING_DUPLICATE_COUNTER, 32 + 6 * 48));
  g_assert_cmpuint (ps_perflib_counterset_lookup (set, 0)->base_counter_id, ==, NONE);
  g_assert_true (has_warning (set->warnings, set->n_warnings, PS_PERFLIB_WARNING_BAD_COMPANION, 32));
  g_assert_cmpuint (ps_perflib_counterset_lookup (set, 1)->base_counter_id, ==, NONE);
  g_assert_true (has_warning (set->warnings, set->n_warnings, PS_PERFLIB_WARNING_BAD_COMPANION, 32 + 48));
  /* The link that closes the cycle is cleared, the other kept */
  g_assert_cmpuint (ps_perflib_counterset_lookup (set, 2)->base_counter_id, ==, 3);
  g_assert_cmpuint (ps_perflib_counterset_lookup (set, 3)->base_counter_id, ==, NONE);
  for (guint i = 0; i < set->n_warnings; i++)
    n_cycle += set->warnings[i].code == PS_PERFLIB_WARNING_COMPANION_CYCLE;
  g_assert_cmpuint (n_cycle, ==, 1);
  /* PerfFreqId 6 names a counter that is not registered */
  g_assert_cmpuint (ps_perflib_counterset_lookup (set, 4)->perf_time_id, ==, 5);
  g_assert_cmpuint (ps_perflib_counterset_lookup (set, 4)->perf_freq_id, ==, NONE);
}

/* §9.2.4 */
static void
test_string_buffer_errors (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibWriter) names = ps_perflib_writer_new ();
  g_autoptr(PsPerflibCounterSet) set = NULL;
  g_autoptr(GError) error = NULL;
  gsize str_at, no_nul_at;

  w_counterset_header (w, 5, 0);
  for (guint32 i = 0; i < 5; i++)
    w_counter_reg (w, i, PS_PERF_COUNTER_RAWCOUNT, NONE, NONE, NONE, NONE);
  set = decode_set_ok (w);

  ps_perflib_writer_open (names);
  ps_perflib_writer_u32 (names, 0);
  ps_perflib_writer_u32 (names, 6);
  ps_perflib_writer_u32 (names, 0); ps_perflib_writer_u32 (names, 0xFFFFFFFFu);      /* no string */
  ps_perflib_writer_u32 (names, 1); ps_perflib_writer_u32 (names, 0x10000);          /* past dwSize */
  ps_perflib_writer_u32 (names, 2); str_at = ps_perflib_writer_get_length (names); ps_perflib_writer_u32 (names, 0); /* odd, valid */
  ps_perflib_writer_u32 (names, 3); ps_perflib_writer_u32 (names, 4);                /* inside the entries */
  ps_perflib_writer_u32 (names, 42); ps_perflib_writer_u32 (names, 0);               /* unknown counter, patched below */
  ps_perflib_writer_u32 (names, 4); no_nul_at = ps_perflib_writer_get_length (names); ps_perflib_writer_u32 (names, 0); /* no NUL */
  ps_perflib_writer_u8 (names, 0);
  ps_perflib_writer_patch_u32 (names, str_at, (guint32) ps_perflib_writer_get_length (names));
  ps_perflib_writer_patch_u32 (names, str_at + 16, (guint32) ps_perflib_writer_get_length (names));
  ps_perflib_writer_utf16 (names, "odd");
  ps_perflib_writer_patch_u32 (names, no_nul_at, (guint32) ps_perflib_writer_get_length (names));
  ps_perflib_writer_u16 (names, 'z'); ps_perflib_writer_u16 (names, 'z');
  ps_perflib_writer_close (names, 0);

  g_assert_true (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTER_NAME_STRINGS,
                                              ps_perflib_writer_peek (names, NULL), ps_perflib_writer_get_length (names), &error));
  g_assert_no_error (error);
  g_assert_null (ps_perflib_counterset_lookup (set, 0)->name);
  g_assert_null (ps_perflib_counterset_lookup (set, 1)->name);
  g_assert_cmpstr (ps_perflib_counterset_lookup (set, 2)->name, ==, "odd");
  g_assert_null (ps_perflib_counterset_lookup (set, 3)->name);
  g_assert_null (ps_perflib_counterset_lookup (set, 4)->name);
  g_assert_true (has_warning (set->warnings, set->n_warnings, PS_PERFLIB_WARNING_BAD_STRING, 16));
  g_assert_true (has_warning (set->warnings, set->n_warnings, PS_PERFLIB_WARNING_BAD_STRING, 32));
  g_assert_true (has_warning (set->warnings, set->n_warnings, PS_PERFLIB_WARNING_UNKNOWN_STRING_ID, 40));
  g_assert_true (has_warning (set->warnings, set->n_warnings, PS_PERFLIB_WARNING_BAD_STRING,
                              load_le32 (ps_perflib_writer_peek (names, NULL) + no_nul_at)));

  /* Header lies */
  ps_perflib_writer_patch_u32 (names, 0, (guint32) ps_perflib_writer_get_length (names) + 1);
  g_assert_false (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTER_NAME_STRINGS,
                                               ps_perflib_writer_peek (names, NULL), ps_perflib_writer_get_length (names), &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_clear_error (&error);
  ps_perflib_writer_patch_u32 (names, 0, (guint32) ps_perflib_writer_get_length (names));
  ps_perflib_writer_patch_u32 (names, 4, 0x20000000u);
  g_assert_false (ps_perflib_counterset_apply (set, PS_PERFLIB_REG_COUNTER_NAME_STRINGS,
                                               ps_perflib_writer_peek (names, NULL), ps_perflib_writer_get_length (names), &error));
  g_assert_nonnull (strstr (error->message, "byte offset 4"));
  g_clear_error (&error);
}

static void
w_identifier (PsPerflibWriter *w, guint32 counter_id, guint32 index, const char *name)
{
  ps_perflib_writer_identifier (w, set_guid, 0, counter_id, 0xFFFFFFFFu, index, name);
}

/* §9.2.5 */
static void
test_identifiers (void)
{
  g_autoptr(PsPerflibWriter) w = ps_perflib_writer_new ();
  g_autoptr(PsPerflibQuery) query = NULL;
  g_autoptr(GError) error = NULL;

  w_identifier (w, 6, 2, "*");
  w_identifier (w, PS_PERF_WILDCARD_COUNTER, 0, NULL);
  w_identifier (w, 9, 1, "_Total");
  g_assert_true (ps_perflib_query_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &query, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (query->n_identifiers, ==, 3);
  g_assert_true (query->index_valid);
  g_assert_cmpstr (query->identifiers[0].instance_name, ==, "*");
  g_assert_null (query->identifiers[1].instance_name);
  g_assert_cmpuint (query->identifiers[1].counter_id, ==, PS_PERF_WILDCARD_COUNTER);
  g_assert_cmpuint (query->identifiers[2].offset, ==, 48 + 40);
  g_assert_cmpuint (ps_perflib_query_get_for_block (query, 0)->offset, ==, 48);
  g_assert_cmpuint (ps_perflib_query_get_for_block (query, 2)->counter_id, ==, 6);
  g_assert_cmpstr (ps_perflib_query_get_for_block (query, 1)->instance_name, ==, "_Total");
  g_assert_null (ps_perflib_query_get_for_block (query, 3));
  g_clear_pointer (&query, ps_perflib_query_free);

  /* Index not a permutation: storage order */
  ps_perflib_writer_patch_u32 (w, 48 + 32, 2);
  g_assert_true (ps_perflib_query_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &query, &error));
  g_assert_false (query->index_valid);
  g_assert_true (has_warning (query->warnings, query->n_warnings, PS_PERFLIB_WARNING_BAD_INDEX, G_MAXSIZE));
  g_assert_cmpuint (ps_perflib_query_get_for_block (query, 0)->counter_id, ==, 6);
  g_clear_pointer (&query, ps_perflib_query_free);

  /* A name, but Size = 40: the name is not read, and its bytes do not
   * make a valid identifier */
  ps_perflib_writer_patch_u32 (w, 20, 40);
  g_assert_false (ps_perflib_query_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &query, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (query);
  g_assert_null (query->identifiers[0].instance_name);
  g_clear_error (&error);
  g_clear_pointer (&query, ps_perflib_query_free);
  ps_perflib_writer_patch_u32 (w, 20, 48);

  /* Name without NUL inside Size */
  ps_perflib_writer_patch_u32 (w, 40, 0x002A002A);
  ps_perflib_writer_patch_u32 (w, 44, 0x002A002A);
  g_assert_false (ps_perflib_query_decode (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w), &query, &error));
  g_assert_cmpuint (error_offset (error), ==, 0);
  g_clear_error (&error);
  g_clear_pointer (&query, ps_perflib_query_free);
  ps_perflib_writer_patch_u32 (w, 40, 0x0000002A);
  ps_perflib_writer_patch_u32 (w, 44, 0);

  /* Every truncation and every size field corrupted */
  for (gsize cut = 0; cut < ps_perflib_writer_get_length (w); cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (ps_perflib_writer_peek (w, NULL), cut);

      ps_perflib_query_decode (copy, cut, &query, &error);
      g_clear_error (&error);
      g_clear_pointer (&query, ps_perflib_query_free);
    }
  for (guint f = 0; f < ps_perflib_writer_get_n_fields (w); f++)
    {
      const PsPerflibField *field = ps_perflib_writer_get_field (w, f);
      guint32 values[8];
      guint n = corruptions (load_le32 (ps_perflib_writer_peek (w, NULL) + field->offset),
                             (guint32) (ps_perflib_writer_get_length (w) - field->offset), values);

      for (guint v = 0; v < n; v++)
        {
          g_autofree guint8 *copy = g_memdup2 (ps_perflib_writer_peek (w, NULL), ps_perflib_writer_get_length (w));

          copy[field->offset] = values[v] & 0xff;
          copy[field->offset + 1] = (values[v] >> 8) & 0xff;
          copy[field->offset + 2] = (values[v] >> 16) & 0xff;
          copy[field->offset + 3] = (values[v] >> 24) & 0xff;
          if (!ps_perflib_query_decode (copy, ps_perflib_writer_get_length (w), &query, &error))
            g_assert_cmpuint (error_offset (error), <=, ps_perflib_writer_get_length (w));
          g_assert_cmpuint (query->n_identifiers, >=, field->offset / 48);
          g_clear_error (&error);
          g_clear_pointer (&query, ps_perflib_query_free);
        }
    }
}

/* ------------------------------------------------------------------ */
/* bench/gen-plv2 read back                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  PsPerflibCounterSet *set;
  guint                n_queries;
  guint                n_samples;
  guint64              end_count;
  gint64               last_time_100nsec;
  guint64              first_idle;       /* % Processor Time raw, CPU 0 */
  guint64              last_idle;
} ReadBack;

static gboolean
collect_bytes (const guint8 *bytes, gsize length, gpointer user_data)
{
  g_byte_array_append (user_data, bytes, length);
  return TRUE;
}

static gboolean
read_back_record (const PsPlv2Record *record, gpointer user_data, GError **error)
{
  ReadBack *rb = user_data;

  if (record->type == PS_PLV2_RECORD_COUNTERSET_REG)
    {
      PsPlv2RegIter iter;
      PsPlv2RegEntry entry;

      ps_plv2_reg_iter_init (&iter, record);
      while (ps_plv2_reg_iter_next (&iter, &entry, error))
        {
          if (entry.request_code == PS_PERFLIB_REG_COUNTERSET_STRUCT)
            {
              ps_perflib_counterset_decode (entry.data, entry.data_size, &rb->set, error);
              g_assert_no_error (*error);
            }
          else
            g_assert_true (ps_perflib_counterset_apply (rb->set, entry.request_code,
                                                        entry.data, entry.data_size, error));
        }
      g_assert_no_error (*error);
    }
  else if (record->type == PS_PLV2_RECORD_QUERY)
    {
      g_autoptr(PsPerflibQuery) query = NULL;

      g_assert_true (ps_perflib_query_decode (record->body, record->body_size, &query, error));
      g_assert_cmpuint (query->n_identifiers, ==, 1);
      g_assert_cmpuint (query->identifiers[0].counter_id, ==, PS_PERF_WILDCARD_COUNTER);
      g_assert_cmpstr (query->identifiers[0].instance_name, ==, "*");
      rb->n_queries++;
    }
  else if (record->type == PS_PLV2_RECORD_SAMPLE)
    {
      g_autoptr(PsPerflibBuffer) buffer = NULL;
      const PsPerflibBlock *block;

      g_assert_true (ps_perflib_buffer_decode (record->body, record->body_size, &buffer, error));
      g_assert_cmpuint (buffer->n_blocks, ==, 1);
      /* 3 counter IDs leave the buffer 4-aligned (§9.1.3): size warnings only */
      for (guint i = 0; i < buffer->n_warnings; i++)
        g_assert_cmpint (buffer->warnings[i].code, ==, PS_PERFLIB_WARNING_UNALIGNED_SIZE);
      block = &buffer->blocks[0];
      g_assert_cmpuint (block->type, ==, PS_PERFLIB_BLOCK_COUNTERSET);
      g_assert_cmpuint (block->n_counter_ids, ==, 3);
      g_assert_cmpuint (block->n_instances, ==, 3);
      g_assert_cmpuint (block->n_values, ==, 9);
      g_assert_cmpstr (buffer->instances[block->first_instance].name, ==, "0,0");
      g_assert_cmpstr (buffer->instances[block->first_instance + 1].name, ==, "0,1");
      g_assert_cmpstr (buffer->instances[block->first_instance + 2].name, ==, "_Total");
      g_assert_cmpint (buffer->perf_freq, ==, 10000000);
      /* Time advances by the interval, 250 ms */
      if (rb->n_samples > 0)
        g_assert_cmpint (buffer->perf_time_100nsec - rb->last_time_100nsec, ==, 2500000);
      rb->last_time_100nsec = buffer->perf_time_100nsec;
      /* % Processor Time (idle time, TIMER_INV): grows, by at most the interval */
      if (rb->n_samples == 0)
        rb->first_idle = buffer->values[block->first_value].value;
      else
        {
          guint64 idle = buffer->values[block->first_value].value;

          g_assert_cmpuint (idle, >, rb->last_idle);
          g_assert_cmpuint (idle - rb->last_idle, <=, 2500000);
        }
      g_assert_cmpuint (buffer->values[block->first_value].counter_id, ==, 0);
      g_assert_cmpuint (buffer->values[block->first_value].data_size, ==, 8);
      rb->last_idle = buffer->values[block->first_value].value;
      rb->n_samples++;
    }
  else if (record->type == PS_PLV2_RECORD_END)
    rb->end_count = record->sample_count;
  return TRUE;
}

/* A small capture of bench/gen-plv2: 3 counters × 2 CPUs (+ _Total) × 5 samples */
static void
test_gen_plv2 (void)
{
  static const PsPlv2Callbacks callbacks = { NULL, read_back_record, NULL };
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PsPlv2Reader) reader = NULL;
  GenPlv2Options options;
  ReadBack rb = { 0 };

  gen_plv2_options_init (&options);
  options.n_counters = 3;
  options.n_instances = 2;
  options.n_samples = 5;
  options.interval_ms = 250;
  g_assert_true (gen_plv2_write (&options, collect_bytes, bytes, &error));
  g_assert_no_error (error);

  reader = ps_plv2_reader_new (&callbacks, &rb);
  g_assert_true (ps_plv2_reader_feed (reader, bytes->data, bytes->len, &error));
  g_assert_true (ps_plv2_reader_finish (reader, &error));
  g_assert_no_error (error);
  g_assert_true (ps_plv2_reader_has_end (reader));
  g_assert_cmpuint (ps_plv2_reader_get_n_samples (reader), ==, 5);
  g_assert_cmpuint (rb.n_queries, ==, 1);
  g_assert_cmpuint (rb.n_samples, ==, 5);
  g_assert_cmpuint (rb.end_count, ==, 5);

  g_assert_nonnull (rb.set);
  g_assert_cmpuint (rb.set->n_counters, ==, 3);
  g_assert_cmpstr (rb.set->english_name, ==, "Processor Information");
  g_assert_cmpstr (rb.set->counters[0].english_name, ==, "% Processor Time");
  g_assert_cmpuint (rb.set->counters[0].type, ==, PS_PERF_100NSEC_TIMER_INV);
  g_assert_cmpstr (rb.set->counters[2].english_name, ==, "% Privileged Time");
  g_assert_cmpuint (rb.set->counters[2].type, ==, PS_PERF_100NSEC_TIMER);
  g_assert_cmpuint (rb.set->n_warnings, ==, 0);
  ps_perflib_counterset_free (rb.set);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/perflib-block/types", test_types);
  g_test_add_func ("/perflib-block/data/minimal", test_minimal);
  g_test_add_func ("/perflib-block/data/system-time-range", test_system_time_range);
  g_test_add_func ("/perflib-block/data/every-type", test_every_type);
  g_test_add_func ("/perflib-block/data/error-return-between", test_error_return_between);
  g_test_add_func ("/perflib-block/data/counterset-instances", test_counterset_instances);
  g_test_add_func ("/perflib-block/data/instance-names", test_instance_names);
  g_test_add_func ("/perflib-block/data/name-without-nul", test_name_without_nul);
  g_test_add_func ("/perflib-block/data/header-errors", test_header_errors);
  g_test_add_func ("/perflib-block/data/multi-counters-overflow", test_multi_counters_overflow);
  g_test_add_func ("/perflib-block/data/data-sizes", test_data_sizes);
  g_test_add_func ("/perflib-block/data/unknown-types", test_unknown_types);
  g_test_add_func ("/perflib-block/data/trailing-and-unaligned", test_trailing_and_unaligned);
  g_test_add_func ("/perflib-block/data/fuzz-sizes", test_fuzz_sizes);
  g_test_add_func ("/perflib-block/data/fuzz-hostile", test_fuzz_hostile);
  g_test_add_func ("/perflib-block/data/truncation", test_truncation);
  g_test_add_func ("/perflib-block/registration/basic", test_registration);
  g_test_add_func ("/perflib-block/registration/too-many", test_registration_too_many);
  g_test_add_func ("/perflib-block/registration/companions", test_registration_companions);
  g_test_add_func ("/perflib-block/registration/string-buffer", test_string_buffer_errors);
  g_test_add_func ("/perflib-block/identifiers", test_identifiers);
  g_test_add_func ("/perflib-block/gen-plv2", test_gen_plv2);

  return g_test_run ();
}

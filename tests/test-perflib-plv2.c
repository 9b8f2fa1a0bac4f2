/* test-perflib-plv2.c — PLV2 captures into the event store
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §4.3 and §5 (display values), §8 (the PLV2
 * container, ordering rules §8.4) and §9 (the cases a reader survives).
 *
 * Every capture is built in memory with tests/perflib-writer (buffers,
 * registrations, identifiers) and ps_plv2_writer (the container), read
 * by the "perflib-plv2" format, and the readings are checked against
 * values computed by hand in the comments.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <zlib.h>

#include "gen-plv2.h"
#include "parse-fixture.h"
#include "perflib-writer.h"
#include "ps-format.h"
#include "ps-error.h"
#include "ps-loader.h"
#include "ps-perflib-block.h"
#include "ps-perflib-formula.h"
#include "ps-plv2.h"

/* PerfFreq: ticks per second; sample s is at PerfTimeStamp BOOT_TICKS + s·F */
#define PERF_FREQ          G_GINT64_CONSTANT (3000000)
#define BOOT_TICKS         G_GINT64_CONSTANT (900000000000)
/* 2024-03-04 09:00:00 UTC in 100 ns since 1601; sample s is 1 s later each */
#define START_UNIX_SECONDS G_GINT64_CONSTANT (1709542800)
#define FILETIME_UNIX_EPOCH G_GINT64_CONSTANT (116444736000000000)
#define START_100NS        (START_UNIX_SECONDS * 10000000 + FILETIME_UNIX_EPOCH)
#define NS_PER_S           G_GINT64_CONSTANT (1000000000)

/* ------------------------------------------------------------------------ */
/* Building captures                                                         */

typedef struct
{
  guint32     id;
  guint32     type;
  guint32     base;   /* BaseCounterId, PS_PERF_NO_COUNTER for none */
  const char *name;
} CounterDef;

typedef struct
{
  const guint8     *guid;
  const char       *name;
  const CounterDef *counters;
  guint             n_counters;
} SetDef;

/* One block of a sample; no instances: a PERF_MULTIPLE_COUNTERS block */
typedef struct
{
  const SetDef       *set;
  guint               n_instances;
  const guint32      *instance_ids;
  const char * const *instance_names;
  const guint64      *values;   /* instance × counter, in registration order */
} BlockDef;

typedef struct
{
  GByteArray   *bytes;
  PsPlv2Writer *writer;
} Capture;

static const guint8 processor_guid[16] = {
  0x1a, 0x72, 0xfc, 0xb4, 0x78, 0x03, 0x6f, 0x47, 0x89, 0xba, 0xa5, 0xa7, 0x9f, 0x81, 0x0b, 0x36,
};
static const guint8 memory_guid[16] = {
  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x48, 0x89, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};
static const guint8 unregistered_guid[16] = {
  0xee, 0xee, 0xee, 0xee, 0x05, 0x06, 0x07, 0x48, 0x89, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};

static guint
value_size_of (guint32 type)
{
  return ps_perflib_type_get_value_size (type) == 8 ? 8 : 4;
}

static void
capture_init (Capture *capture)
{
  PsPlv2Header header;
  const char *session[] = { "machine", "WS01", "writer", "test-perflib-plv2", NULL };

  ps_plv2_header_init (&header);
  header.created_utc = START_100NS;
  header.qpc_frequency = PERF_FREQ;
  capture->bytes = g_byte_array_new ();
  capture->writer = ps_plv2_writer_new_for_byte_array (capture->bytes, &header);
  g_assert_true (ps_plv2_writer_add_session (capture->writer, session, NULL));
}

/* Codes 1 (structure), 9 (the set's name) and 10 (counter names) */
static void
capture_add_registration (Capture      *capture,
                          const SetDef *set)
{
  g_autoptr(PsPerflibWriter) structure = ps_perflib_writer_new ();
  g_autoptr(PsPerflibWriter) set_name = ps_perflib_writer_new ();
  g_autoptr(PsPerflibWriter) names = ps_perflib_writer_new ();
  g_autofree guint32 *ids = g_new (guint32, set->n_counters);
  g_autofree const char **strings = g_new (const char *, set->n_counters);
  PsPlv2RegEntry entries[3] = { { 0 } };

  ps_perflib_writer_counterset_reg (structure, set->guid, 100, set->n_counters,
                                    PS_PERFLIB_INSTANCE_MULTIPLE | PS_PERFLIB_INSTANCE_AGGREGATE);
  for (guint c = 0; c < set->n_counters; c++)
    {
      PsPerflibWriterCounter counter;

      ps_perflib_writer_counter_init (&counter, set->counters[c].id, set->counters[c].type);
      counter.base_counter_id = set->counters[c].base;
      ps_perflib_writer_counter_reg (structure, &counter);
      ids[c] = set->counters[c].id;
      strings[c] = set->counters[c].name;
    }
  ps_perflib_writer_utf16 (set_name, set->name);
  ps_perflib_writer_string_buffer (names, ids, strings, set->n_counters);

  entries[0].request_code = PS_PERFLIB_REG_COUNTERSET_STRUCT;
  entries[0].data = ps_perflib_writer_peek (structure, &entries[0].data_size);
  entries[1].request_code = PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME;
  entries[1].data = ps_perflib_writer_peek (set_name, &entries[1].data_size);
  entries[2].request_code = PS_PERFLIB_REG_COUNTER_ENGLISH_NAMES;
  entries[2].data = ps_perflib_writer_peek (names, &entries[2].data_size);
  g_assert_true (ps_plv2_writer_add_counterset_reg (capture->writer, set->guid, entries, 3, NULL));
}

/* Block k of the samples of this generation is the result of guids[k]:
 * every counter of every instance */
static void
capture_add_query (Capture             *capture,
                   guint32              generation,
                   const guint8 * const *guids,
                   guint                n_guids)
{
  g_autoptr(PsPerflibWriter) query = ps_perflib_writer_new ();

  for (guint k = 0; k < n_guids; k++)
    ps_perflib_writer_identifier (query, guids[k], 0, PS_PERF_WILDCARD_COUNTER, 0xFFFFFFFFu, k, "*");
  g_assert_true (ps_plv2_writer_add_query (capture->writer, generation, ps_perflib_writer_peek (query, NULL),
                                           ps_perflib_writer_get_length (query), NULL));
}

/* The PerfQueryCounterData buffer of the sample at time index `second` */
static PsPerflibWriter *
build_buffer (guint           second,
              const BlockDef *blocks,
              guint           n_blocks)
{
  PsPerflibWriter *writer = ps_perflib_writer_new ();
  PsPerflibSystemTime st = { 2024, 3, 1, 4, 9, 0, 0, 0 };

  st.second = second;
  ps_perflib_writer_data_header (writer, n_blocks, BOOT_TICKS + second * PERF_FREQ,
                                 START_100NS + (gint64) second * 10000000, PERF_FREQ, &st);
  for (guint b = 0; b < n_blocks; b++)
    {
      const BlockDef *block = &blocks[b];
      const SetDef *set = block->set;
      g_autofree guint32 *ids = g_new (guint32, set->n_counters);

      for (guint c = 0; c < set->n_counters; c++)
        ids[c] = set->counters[c].id;
      if (block->n_instances == 0)
        {
          ps_perflib_writer_block_begin (writer, 0, PS_PERFLIB_BLOCK_MULTIPLE_COUNTERS);
          ps_perflib_writer_multi_counters (writer, ids, set->n_counters);
          for (guint c = 0; c < set->n_counters; c++)
            ps_perflib_writer_counter_data (writer, block->values[c], value_size_of (set->counters[c].type));
        }
      else
        {
          ps_perflib_writer_block_begin (writer, 0, PS_PERFLIB_BLOCK_COUNTERSET);
          ps_perflib_writer_multi_counters (writer, ids, set->n_counters);
          ps_perflib_writer_multi_instances_begin (writer, block->n_instances);
          for (guint i = 0; i < block->n_instances; i++)
            {
              ps_perflib_writer_instance (writer, block->instance_ids[i], block->instance_names[i]);
              for (guint c = 0; c < set->n_counters; c++)
                ps_perflib_writer_counter_data (writer, block->values[i * set->n_counters + c],
                                                value_size_of (set->counters[c].type));
            }
          ps_perflib_writer_multi_instances_end (writer);
        }
      ps_perflib_writer_block_end (writer);
    }
  ps_perflib_writer_data_end (writer);
  return writer;
}

/* Returns the byte offset of the SAMPLE record */
static gsize
capture_add_buffer (Capture         *capture,
                    guint32          generation,
                    guint            second,
                    PsPerflibWriter *buffer)
{
  gsize offset = capture->bytes->len;
  gsize size = 0;
  const guint8 *data = ps_perflib_writer_peek (buffer, &size);

  g_assert_true (ps_plv2_writer_add_sample (capture->writer, generation, 0,
                                            START_100NS + (gint64) second * 10000000 + 2500,
                                            data, size, NULL));
  return offset;
}

static gsize
capture_add_sample (Capture        *capture,
                    guint32         generation,
                    guint           second,
                    const BlockDef *blocks,
                    guint           n_blocks)
{
  g_autoptr(PsPerflibWriter) buffer = build_buffer (second, blocks, n_blocks);

  return capture_add_buffer (capture, generation, second, buffer);
}

static GBytes *
capture_end (Capture *capture)
{
  g_assert_true (ps_plv2_writer_add_end (capture->writer, START_100NS, NULL));
  g_clear_pointer (&capture->writer, ps_plv2_writer_free);
  return g_byte_array_free_to_bytes (g_steal_pointer (&capture->bytes));
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */

/* Feeds the capture in pieces of `piece` bytes (0: at once) */
static PsEventStore *
load_with_option (GBytes     *capture,
                  gsize       piece,
                  const char *option)
{
  gsize length = 0;
  const guint8 *data = g_bytes_get_data (capture, &length);

  return parse_fixture_pieces (ps_format_lookup ("perflib-plv2"), data, length,
                               piece == 0 ? MAX (length, 1) : piece, 0, option);
}

static PsEventStore *
load (GBytes *capture,
      gsize   piece)
{
  return load_with_option (capture, piece, NULL);
}

static const char *
str (PsEventStore *store,
     guint32       id)
{
  return id != 0 ? ps_event_store_get_string (store, id) : NULL;
}

/* The only track of that kind, parent, name and number; fails otherwise */
static guint32
find_track (PsEventStore *store,
            PsTrackKind   kind,
            guint32       parent,
            const char   *name,
            gint64        number)
{
  guint32 found = PS_NONE;

  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == kind && track->parent == parent && g_strcmp0 (str (store, track->name), name) == 0
          && (number < 0 || track->number == number))
        {
          g_assert_cmpuint (found, ==, PS_NONE);
          found = t;
        }
    }
  if (found == PS_NONE)
    g_test_message ("no track %s", name);
  g_assert_cmpuint (found, !=, PS_NONE);
  return found;
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

static guint32
object_of (PsEventStore *store,
           const char   *name)
{
  guint32 machine = find_track (store, PS_TRACK_MACHINE, PS_NONE, "WS01", -1);

  return find_track (store, PS_TRACK_OBJECT, machine, name, -1);
}

/* The COUNTER track of object(instance#number)\counter; instance NULL: none */
static guint32
counter_of (PsEventStore *store,
            const char   *object,
            const char   *instance,
            gint64        number,
            const char   *counter)
{
  guint32 parent = object_of (store, object);

  if (instance != NULL)
    parent = find_track (store, PS_TRACK_INSTANCE, parent, instance, number);
  return find_track (store, PS_TRACK_COUNTER, parent, counter, -1);
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

/* The index of the n-th reading (0-based) of a track */
static guint64
index_of (PsEventStore *store,
          guint32       track,
          guint         n)
{
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track == track && n-- == 0)
        return i;
    }
  g_assert_not_reached ();
  return 0;
}

/* The raw value and base of a reading kept at index, which has them */
static const PsCounterRaw *
raw_at (PsEventStore *store,
        guint64       index)
{
  const PsCounterRaw *raw = ps_event_store_get_counter_raw (store, index);

  g_assert_nonnull (raw);
  return raw;
}

static void
assert_reading (PsEventStore *store,
                guint32       track,
                guint         n,
                gint64        time_ns,
                double        expected,
                gint64        raw,
                gint64        base)
{
  guint64 index = index_of (store, track, n);
  const PsCounterValue *value = ps_event_store_get_counter_value (store, index);

  g_assert_cmpint (value->time_ns, ==, time_ns);
  g_assert_cmpuint (value->flags, ==, PS_COUNTER_FLAG_RAW);
  g_assert_cmpuint (value->status, ==, PS_PERFLIB_RESULT_OK);
  g_assert_cmpfloat (value->value, ==, expected);
  g_assert_cmpint (raw_at (store, index)->raw, ==, raw);
  g_assert_cmpint (raw_at (store, index)->base, ==, base);
}

static void
assert_missing (PsEventStore     *store,
                guint32           track,
                guint             n,
                gint64            time_ns,
                PsPerflibResult   status,
                gint64            raw)
{
  guint64 index = index_of (store, track, n);
  const PsCounterValue *value = ps_event_store_get_counter_value (store, index);

  g_assert_cmpint (value->time_ns, ==, time_ns);
  g_assert_cmpuint (value->flags, ==, PS_COUNTER_FLAG_RAW | PS_COUNTER_FLAG_MISSING);
  g_assert_cmpuint (value->status, ==, status);
  g_assert_true (isnan (value->value));
  g_assert_cmpint (raw_at (store, index)->raw, ==, raw);
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
      if (g_strcmp0 (warning.code, code) == 0)
        n++;
    }
  return n;
}

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

/* Tracks and readings as text, to compare two loads */
static char *
describe_store (PsEventStore *store)
{
  GString *out = g_string_new (NULL);

  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      g_string_append_printf (out, "track %u kind %u name %s cat %s parent %u num %" G_GINT64_FORMAT
                              " ord %u unit %s flags %u\n",
                              t, track->kind, str (store, track->name), str (store, track->category),
                              track->parent, track->number, track->ordinal, str (store, track->unit), track->flags);
    }
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      const PsCounterRaw *raw = raw_at (store, i);

      g_string_append_printf (out, "value %u %" G_GINT64_FORMAT " %u %u %.17g %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n",
                              value->track, value->time_ns, value->flags, value->status, value->value,
                              raw->raw, raw->base);
    }
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_string_append_printf (out, "warning %s %" G_GUINT64_FORMAT " %s\n", warning.code, warning.offset, warning.message);
    }
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Processor Information: the capture of tests 1 and 8                       */

/* The fraction names its base explicitly, and the base is not the next
 * counter: the V1 rule would find the rawcount, not a base */
static const CounterDef processor_counters[] = {
  { 0, PS_PERF_100NSEC_TIMER_INV, PS_PERF_NO_COUNTER, "% Processor Time" },
  { 1, PS_PERF_COUNTER_COUNTER,   PS_PERF_NO_COUNTER, "Interrupts/sec" },
  { 2, PS_PERF_RAW_FRACTION,      4,                  "% Parking Index" },
  { 3, PS_PERF_COUNTER_RAWCOUNT,  PS_PERF_NO_COUNTER, "DPC Rate" },
  { 4, PS_PERF_RAW_BASE,          PS_PERF_NO_COUNTER, "% Parking Index Base" },
};
static const SetDef processor_set = { processor_guid, "Processor Information", processor_counters, 5 };

static const guint32 processor_ids[] = { 0, 1, 2 };
static const char * const processor_names[] = { "0,0", "0,1", "_Total" };

/* [sample][instance][counter]:
 *   % Processor Time (idle 100 ns): ΔD = 10,000,000 per sample
 *     0,0:    ΔN 2,500,000 → 100 × (1 − 0.25)  = 75;  ΔN 7,500,000  → 25
 *     0,1:    ΔN 5,000,000 → 50;                     ΔN 10,000,000 → 0
 *     _Total: ΔN 3,750,000 → 62.5;                   ΔN 8,750,000  → 12.5
 *   Interrupts/sec: ΔT = PerfFreq ticks = 1 s
 *     0,0: 500, 250   0,1: 10, 10   _Total: 510, 260
 *   % Parking Index = 100 × N / B (B: counter 4)
 *     0,0: 25/200 → 12.5, 50/200 → 25, 100/400 → 25
 *     0,1: 1/4 → 25, 2/8 → 25, 3/12 → 25
 *     _Total: 51/204 → 25, 104/208 → 50, 103/412 → 25
 *   DPC Rate = N */
static const guint64 processor_values[3][3 * 5] = {
  { 1000000000, 1000, 25,  7, 200,
    2000000000,   10,  1,  3,   4,
    1500000000, 1010, 51, 10, 204 },
  { 1002500000, 1500, 50,  9, 200,
    2005000000,   20,  2,  4,   8,
    1503750000, 1520, 104, 13, 208 },
  { 1010000000, 1750, 100, 11, 400,
    2015000000,   30,   3,  5,  12,
    1512500000, 1780, 103, 16, 412 },
};

static GBytes *
make_processor_capture (void)
{
  const guint8 *guids[] = { processor_guid };
  Capture capture;

  capture_init (&capture);
  capture_add_registration (&capture, &processor_set);
  capture_add_query (&capture, 1, guids, 1);
  for (guint s = 0; s < 3; s++)
    {
      BlockDef block = { &processor_set, 3, processor_ids, processor_names, processor_values[s] };

      capture_add_sample (&capture, 1, s, &block, 1);
    }
  return capture_end (&capture);
}

/* 1. Tree, units, types, values, times and statistics */
static void
test_processor_information (void)
{
  g_autoptr(GBytes) capture = make_processor_capture ();
  g_autoptr(PsEventStore) store = load (capture, 0);
  guint32 object = object_of (store, "Processor Information");
  struct { const char *name; const char *unit; guint32 type; } expected_counters[] = {
    { "% Processor Time", "%", PS_PERF_100NSEC_TIMER_INV },
    { "Interrupts/sec", "/sec", PS_PERF_COUNTER_COUNTER },
    { "% Parking Index", "%", PS_PERF_RAW_FRACTION },
    { "DPC Rate", NULL, PS_PERF_COUNTER_RAWCOUNT },
  };
  const PsCounterStats *stats;
  guint32 track;

  /* The origin is the first sample's PerfTime100NSec */
  g_assert_cmpuint (ps_event_store_get_n_sessions (store), ==, 1);
  g_assert_cmpint (ps_event_store_get_session (store, 0)->origin_unix_ns, ==, START_UNIX_SECONDS * NS_PER_S);

  /* MACHINE ← OBJECT ← INSTANCE ← COUNTER; the base is not displayed */
  g_assert_cmpuint (count_tracks (store, PS_TRACK_MACHINE), ==, 1);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_OBJECT), ==, 1);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_INSTANCE), ==, 3);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_COUNTER), ==, 3 * 4);
  for (guint i = 0; i < 3; i++)
    {
      guint32 instance = find_track (store, PS_TRACK_INSTANCE, object, processor_names[i], 0);

      for (guint c = 0; c < G_N_ELEMENTS (expected_counters); c++)
        {
          const PsTrack *counter = ps_event_store_get_track (store, find_track (store, PS_TRACK_COUNTER, instance,
                                                                                expected_counters[c].name, -1));
          g_autofree char *path = g_strdup_printf ("\\\\WS01\\Processor Information(%s)\\%s",
                                                   processor_names[i], expected_counters[c].name);

          g_assert_cmpstr (str (store, counter->unit), ==, expected_counters[c].unit);
          g_assert_cmpuint (counter->ordinal, ==, expected_counters[c].type);
          g_assert_true (counter->flags & PS_TRACK_FLAG_COUNTER_TYPE);
          g_assert_cmpstr (str (store, counter->category), ==, path);
          g_assert_cmpint (counter->number, ==, processor_counters[c < 3 ? c : 3].id);
          g_assert_cmpuint (n_values_of (store, find_track (store, PS_TRACK_COUNTER, instance,
                                                            expected_counters[c].name, -1)), ==, 3);
        }
    }
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 3 * 3 * 4);

  /* % Processor Time: the first sample has no value */
  track = counter_of (store, "Processor Information", "0,0", 0, "% Processor Time");
  assert_missing (store, track, 0, 0, PS_PERFLIB_RESULT_FIRST_SAMPLE, 1000000000);
  assert_reading (store, track, 1, NS_PER_S, 75.0, 1002500000, 0);
  assert_reading (store, track, 2, 2 * NS_PER_S, 25.0, 1010000000, 0);
  stats = ps_event_store_get_counter_stats (store, track);
  g_assert_nonnull (stats);
  g_assert_cmpuint (stats->n_values, ==, 2);
  g_assert_cmpuint (stats->n_missing, ==, 1);
  g_assert_cmpfloat (stats->min, ==, 25.0);
  g_assert_cmpfloat (stats->max, ==, 75.0);
  g_assert_cmpfloat (stats->sum / stats->n_values, ==, 50.0);

  track = counter_of (store, "Processor Information", "0,1", 0, "% Processor Time");
  assert_missing (store, track, 0, 0, PS_PERFLIB_RESULT_FIRST_SAMPLE, 2000000000);
  assert_reading (store, track, 1, NS_PER_S, 50.0, 2005000000, 0);
  assert_reading (store, track, 2, 2 * NS_PER_S, 0.0, 2015000000, 0);

  track = counter_of (store, "Processor Information", "_Total", 0, "% Processor Time");
  assert_reading (store, track, 1, NS_PER_S, 62.5, 1503750000, 0);
  assert_reading (store, track, 2, 2 * NS_PER_S, 12.5, 1512500000, 0);
  stats = ps_event_store_get_counter_stats (store, track);
  g_assert_cmpfloat (stats->min, ==, 12.5);
  g_assert_cmpfloat (stats->max, ==, 62.5);
  g_assert_cmpfloat (stats->sum / stats->n_values, ==, 37.5);

  /* Interrupts/sec = ΔN / (ΔT / F) */
  track = counter_of (store, "Processor Information", "0,0", 0, "Interrupts/sec");
  assert_missing (store, track, 0, 0, PS_PERFLIB_RESULT_FIRST_SAMPLE, 1000);
  assert_reading (store, track, 1, NS_PER_S, 500.0, 1500, 0);
  assert_reading (store, track, 2, 2 * NS_PER_S, 250.0, 1750, 0);
  track = counter_of (store, "Processor Information", "_Total", 0, "Interrupts/sec");
  assert_reading (store, track, 1, NS_PER_S, 510.0, 1520, 0);
  assert_reading (store, track, 2, 2 * NS_PER_S, 260.0, 1780, 0);
  stats = ps_event_store_get_counter_stats (store, track);
  g_assert_cmpfloat (stats->min, ==, 260.0);
  g_assert_cmpfloat (stats->max, ==, 510.0);
  g_assert_cmpfloat (stats->sum / stats->n_values, ==, 385.0);
  g_assert_cmpint (stats->first_ns, ==, NS_PER_S);
  g_assert_cmpint (stats->last_ns, ==, 2 * NS_PER_S);

  /* % Parking Index = 100 × N / B, from the first sample on */
  track = counter_of (store, "Processor Information", "0,0", 0, "% Parking Index");
  assert_reading (store, track, 0, 0, 12.5, 25, 200);
  assert_reading (store, track, 1, NS_PER_S, 25.0, 50, 200);
  assert_reading (store, track, 2, 2 * NS_PER_S, 25.0, 100, 400);
  stats = ps_event_store_get_counter_stats (store, track);
  g_assert_cmpuint (stats->n_values, ==, 3);
  g_assert_cmpuint (stats->n_missing, ==, 0);
  g_assert_cmpfloat (stats->min, ==, 12.5);
  g_assert_cmpfloat (stats->max, ==, 25.0);
  g_assert_cmpfloat (stats->sum / stats->n_values, ==, 62.5 / 3);
  track = counter_of (store, "Processor Information", "_Total", 0, "% Parking Index");
  assert_reading (store, track, 0, 0, 25.0, 51, 204);
  assert_reading (store, track, 1, NS_PER_S, 50.0, 104, 208);
  assert_reading (store, track, 2, 2 * NS_PER_S, 25.0, 103, 412);

  /* DPC Rate = N */
  track = counter_of (store, "Processor Information", "0,1", 0, "DPC Rate");
  assert_reading (store, track, 0, 0, 3.0, 3, 0);
  assert_reading (store, track, 1, NS_PER_S, 4.0, 4, 0);
  assert_reading (store, track, 2, 2 * NS_PER_S, 5.0, 5, 0);
  stats = ps_event_store_get_counter_stats (store, track);
  g_assert_cmpfloat (stats->min, ==, 3.0);
  g_assert_cmpfloat (stats->max, ==, 5.0);
  g_assert_cmpfloat (stats->sum / stats->n_values, ==, 4.0);

  g_assert_cmpuint (count_warnings (store, "E-PLV2-BLOCK"), ==, 0);
  g_assert_cmpuint (count_warnings (store, "W-PLV2-UNREGISTERED"), ==, 0);
}

/* 2. §5.2: BaseCounterId 0xFFFFFFFF takes the next counter if it is a base */
static void
test_v1_base_rule (void)
{
  static const CounterDef counters[] = {
    { 10, PS_PERF_RAW_FRACTION,     PS_PERF_NO_COUNTER, "% Free" },
    { 11, PS_PERF_RAW_BASE,         PS_PERF_NO_COUNTER, "% Free Base" },
    { 12, PS_PERF_RAW_FRACTION,     PS_PERF_NO_COUNTER, "% Orphan" },
    { 13, PS_PERF_COUNTER_RAWCOUNT, PS_PERF_NO_COUNTER, "Items" },
  };
  static const SetDef set = { memory_guid, "Memory", counters, 4 };
  /* % Free = 100 × 30 / 120 = 25; % Orphan has no base (the next counter
   * is a rawcount): no value */
  static const guint64 values[] = { 30, 120, 5, 40 };
  const guint8 *guids[] = { memory_guid };
  BlockDef block = { &set, 0, NULL, NULL, values };
  Capture capture;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  guint32 track;

  capture_init (&capture);
  capture_add_registration (&capture, &set);
  capture_add_query (&capture, 1, guids, 1);
  capture_add_sample (&capture, 1, 0, &block, 1);
  bytes = capture_end (&capture);
  store = load (bytes, 0);

  /* No instances: counters hang from the object */
  g_assert_cmpuint (count_tracks (store, PS_TRACK_INSTANCE), ==, 0);
  track = counter_of (store, "Memory", NULL, 0, "% Free");
  g_assert_cmpstr (str (store, ps_event_store_get_track (store, track)->category), ==, "\\\\WS01\\Memory\\% Free");
  assert_reading (store, track, 0, 0, 25.0, 30, 120);
  track = counter_of (store, "Memory", NULL, 0, "% Orphan");
  assert_missing (store, track, 0, 0, PS_PERFLIB_RESULT_MISSING_INPUT, 5);
  track = counter_of (store, "Memory", NULL, 0, "Items");
  assert_reading (store, track, 0, 0, 40.0, 40, 0);
}

/* Two sets for tests 3–7: Processor Information (two CPUs) and Memory
 * (no instances) */
static const CounterDef small_processor_counters[] = {
  { 0, PS_PERF_100NSEC_TIMER_INV, PS_PERF_NO_COUNTER, "% Processor Time" },
  { 3, PS_PERF_COUNTER_RAWCOUNT,  PS_PERF_NO_COUNTER, "DPC Rate" },
};
static const SetDef small_processor_set = { processor_guid, "Processor Information", small_processor_counters, 2 };
static const CounterDef memory_counters[] = {
  { 1, PS_PERF_COUNTER_COUNTER,   PS_PERF_NO_COUNTER, "Pages/sec" },
  { 2, PS_PERF_COUNTER_RAWCOUNT,  PS_PERF_NO_COUNTER, "Commit Limit" },
};
static const SetDef memory_set = { memory_guid, "Memory", memory_counters, 2 };
static const char * const cpu_names[] = { "0,0", "0,1" };

/* The raw values of sample s (at s seconds):
 *  - 0,0's idle time grows by 625,000 × s² (of 10,000,000), so its
 *    % Processor Time at s is 100 × (1 − 0.0625 s²): 93.75, 75, 43.75, 0
 *    for s = 1 … 4; idle(s) = 1e9 + 625,000 × (1 + 4 + … + s²);
 *  - 0,1 is idle all the time (ΔN = ΔD: 0 %);
 *  - DPC Rate 10 + s and 20 + s;
 *  - Pages/sec: pages(s) = 50 s (s + 1), Δ to s is 100 s in 1 s;
 *  - Commit Limit 1000 + s. */
static void
block_values (guint    s,
              guint64  processor[4],
              guint64  memory[2])
{
  guint64 idle = 1000000000;

  for (guint k = 1; k <= s; k++)
    idle += (guint64) 625000 * k * k;
  processor[0] = idle;
  processor[1] = 10 + s;
  processor[2] = 5000000000 + (guint64) s * 10000000;
  processor[3] = 20 + s;
  memory[0] = 50 * (guint64) s * (s + 1);
  memory[1] = 1000 + s;
}

static void
add_two_set_sample (Capture *capture,
                    guint32  generation,
                    guint    s)
{
  static const guint32 cpu_ids[] = { 0, 1 };
  guint64 processor[4], memory[2];
  BlockDef blocks[2] = {
    { &small_processor_set, 2, cpu_ids, cpu_names, processor },
    { &memory_set, 0, NULL, NULL, memory },
  };

  block_values (s, processor, memory);
  capture_add_sample (capture, generation, s, blocks, 2);
}

static void
two_set_capture_init (Capture *capture)
{
  const guint8 *guids[] = { processor_guid, memory_guid };

  capture_init (capture);
  capture_add_registration (capture, &small_processor_set);
  capture_add_registration (capture, &memory_set);
  capture_add_query (capture, 1, guids, 2);
}

/* 3. A PERF_COUNTER_HEADER whose dwSize lies in sample 2 */
static void
test_damaged_block (void)
{
  static const guint32 cpu_ids[] = { 0, 1 };
  g_autoptr(PsPerflibWriter) damaged = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autofree char *where = NULL;
  guint64 processor[4], memory[2];
  BlockDef blocks[2] = {
    { &small_processor_set, 2, cpu_ids, cpu_names, processor },
    { &memory_set, 0, NULL, NULL, memory },
  };
  Capture capture;
  gsize sample_offset;
  guint n_block_sizes = 0;
  PsWarning warning;
  guint32 track;

  two_set_capture_init (&capture);
  add_two_set_sample (&capture, 1, 0);
  add_two_set_sample (&capture, 1, 1);

  /* Sample 2 (index 2): the Memory block (the second) claims 4 GiB − 8 */
  block_values (2, processor, memory);
  damaged = build_buffer (2, blocks, 2);
  for (guint i = 0; i < ps_perflib_writer_get_n_fields (damaged); i++)
    {
      const PsPerflibField *field = ps_perflib_writer_get_field (damaged, i);

      if (field->kind == PS_PERFLIB_FIELD_BLOCK_SIZE && n_block_sizes++ == 1)
        ps_perflib_writer_patch_u32 (damaged, field->offset, 0xFFFFFFF8u);
    }
  g_assert_cmpuint (n_block_sizes, ==, 2);
  sample_offset = capture_add_buffer (&capture, 1, 2, damaged);
  add_two_set_sample (&capture, 1, 3);
  bytes = capture_end (&capture);
  store = load (bytes, 0);

  /* The warning says where the sample's data begins: after the 16-byte
   * record header and the 16 fixed bytes of SAMPLE */
  g_assert_cmpuint (count_warnings (store, "E-PLV2-BLOCK"), ==, 1);
  warning = find_warning (store, "E-PLV2-BLOCK");
  g_assert_cmpuint (warning.offset, ==, sample_offset + 32);
  where = g_strdup_printf ("byte offset %" G_GSIZE_FORMAT, sample_offset + 32);
  g_test_message ("%s", warning.message);
  g_assert_nonnull (strstr (warning.message, where));

  /* The processor block before the damage is kept: sample 3 has its rate
   * from sample 2 (100 × (1 − 0.5625) = 43.75) */
  track = counter_of (store, "Processor Information", "0,0", 0, "% Processor Time");
  g_assert_cmpuint (n_values_of (store, track), ==, 4);
  assert_missing (store, track, 0, 0, PS_PERFLIB_RESULT_FIRST_SAMPLE, 1000000000);
  assert_reading (store, track, 1, NS_PER_S, 93.75, 1000625000, 0);
  assert_reading (store, track, 2, 2 * NS_PER_S, 75.0, 1003125000, 0);
  assert_reading (store, track, 3, 3 * NS_PER_S, 43.75, 1008750000, 0);

  /* Memory has no reading at 2 s; at 3 s its rate is not computed over
   * the two seconds from sample 1: deltas only between consecutive samples */
  track = counter_of (store, "Memory", NULL, 0, "Pages/sec");
  g_assert_cmpuint (n_values_of (store, track), ==, 3);
  assert_missing (store, track, 0, 0, PS_PERFLIB_RESULT_FIRST_SAMPLE, 0);
  assert_reading (store, track, 1, NS_PER_S, 100.0, 100, 0);
  assert_missing (store, track, 2, 3 * NS_PER_S, PS_PERFLIB_RESULT_FIRST_SAMPLE, 600);
  track = counter_of (store, "Memory", NULL, 0, "Commit Limit");
  g_assert_cmpuint (n_values_of (store, track), ==, 3);
  assert_reading (store, track, 0, 0, 1000.0, 1000, 0);
  assert_reading (store, track, 1, NS_PER_S, 1001.0, 1001, 0);
  assert_reading (store, track, 2, 3 * NS_PER_S, 1003.0, 1003, 0);
}

/* 4. A SAMPLE with a non-zero status breaks delta chains (§8.4 rule 5) */
static void
test_failed_sample (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  Capture capture;
  guint32 track;

  two_set_capture_init (&capture);
  add_two_set_sample (&capture, 1, 0);
  add_two_set_sample (&capture, 1, 1);
  /* At 2 s: PDH_NO_DATA-like status 0x800007D5, no buffer */
  g_assert_true (ps_plv2_writer_add_sample (capture.writer, 1, 0x800007D5u, START_100NS + 20000000, NULL, 0, NULL));
  add_two_set_sample (&capture, 1, 3);
  add_two_set_sample (&capture, 1, 4);
  bytes = capture_end (&capture);
  store = load (bytes, 0);

  track = counter_of (store, "Processor Information", "0,0", 0, "% Processor Time");
  g_assert_cmpuint (n_values_of (store, track), ==, 4);
  assert_reading (store, track, 1, NS_PER_S, 93.75, 1000625000, 0);
  /* 3 s: no value (not over 2 s from sample 1); 4 s: from 3 s, 100 × (1 − 1) */
  assert_missing (store, track, 2, 3 * NS_PER_S, PS_PERFLIB_RESULT_FIRST_SAMPLE, 1008750000);
  assert_reading (store, track, 3, 4 * NS_PER_S, 0.0, 1018750000, 0);

  track = counter_of (store, "Memory", NULL, 0, "Pages/sec");
  assert_missing (store, track, 2, 3 * NS_PER_S, PS_PERFLIB_RESULT_FIRST_SAMPLE, 600);
  assert_reading (store, track, 3, 4 * NS_PER_S, 400.0, 1000, 0);
  /* Single-sample types go on */
  track = counter_of (store, "Processor Information", "0,1", 0, "DPC Rate");
  assert_reading (store, track, 2, 3 * NS_PER_S, 23.0, 23, 0);

  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples"), ==, "5");
}

/* 5. A new QUERY generation, and a SAMPLE of a generation without one */
static void
test_generations (void)
{
  const guint8 *reversed[] = { memory_guid, processor_guid };
  static const guint32 cpu_ids[] = { 0, 1 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  guint64 processor[4], memory[2];
  Capture capture;
  gsize orphan_offset;
  PsWarning warning;
  guint32 track;

  two_set_capture_init (&capture);
  add_two_set_sample (&capture, 1, 0);
  add_two_set_sample (&capture, 1, 1);
  /* Generation 2 asks for the sets the other way round */
  capture_add_query (&capture, 2, reversed, 2);
  for (guint s = 2; s <= 3; s++)
    {
      BlockDef blocks[2] = {
        { &memory_set, 0, NULL, NULL, memory },
        { &small_processor_set, 2, cpu_ids, cpu_names, processor },
      };

      block_values (s, processor, memory);
      capture_add_sample (&capture, 2, s, blocks, 2);
    }
  /* Generation 7 has no QUERY */
  orphan_offset = capture.bytes->len;
  add_two_set_sample (&capture, 7, 4);
  /* A QUERY of generation 1 again, after 2: out of order (W-PLV2-GENERATION),
   * skipped; a SAMPLE of generation 1 keeps the first mapping */
  capture_add_query (&capture, 1, reversed, 2);
  add_two_set_sample (&capture, 1, 5);
  bytes = capture_end (&capture);
  store = load (bytes, 0);

  /* Same tracks for both generations */
  g_assert_cmpuint (count_tracks (store, PS_TRACK_OBJECT), ==, 2);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_COUNTER), ==, 2 * 2 + 2);

  track = counter_of (store, "Processor Information", "0,0", 0, "% Processor Time");
  g_assert_cmpuint (n_values_of (store, track), ==, 5);
  assert_reading (store, track, 1, NS_PER_S, 93.75, 1000625000, 0);
  /* The first sample of generation 2 starts a new chain (§8.4 rule 3) */
  assert_missing (store, track, 2, 2 * NS_PER_S, PS_PERFLIB_RESULT_FIRST_SAMPLE, 1003125000);
  assert_reading (store, track, 3, 3 * NS_PER_S, 43.75, 1008750000, 0);
  track = counter_of (store, "Memory", NULL, 0, "Pages/sec");
  assert_missing (store, track, 2, 2 * NS_PER_S, PS_PERFLIB_RESULT_FIRST_SAMPLE, 300);
  assert_reading (store, track, 3, 3 * NS_PER_S, 300.0, 600, 0);
  track = counter_of (store, "Memory", NULL, 0, "Commit Limit");
  assert_reading (store, track, 2, 2 * NS_PER_S, 1002.0, 1002, 0);
  g_assert_cmpuint (n_values_of (store, track), ==, 5);

  /* The orphan sample: one warning at its offset, no readings */
  g_assert_cmpuint (count_warnings (store, "W-PLV2-NO-QUERY"), ==, 1);
  warning = find_warning (store, "W-PLV2-NO-QUERY");
  g_assert_cmpuint (warning.offset, ==, orphan_offset);
  g_assert_cmpuint (count_warnings (store, "W-PLV2-GENERATION"), ==, 1);
  track = counter_of (store, "Memory", NULL, 0, "Commit Limit");
  assert_reading (store, track, 4, 5 * NS_PER_S, 1005.0, 1005, 0);
  track = counter_of (store, "Processor Information", "0,1", 0, "DPC Rate");
  assert_reading (store, track, 4, 5 * NS_PER_S, 25.0, 25, 0);
  /* …with no delta over the samples of other generations before it */
  track = counter_of (store, "Processor Information", "0,0", 0, "% Processor Time");
  assert_missing (store, track, 4, 5 * NS_PER_S, PS_PERFLIB_RESULT_FIRST_SAMPLE, 1034375000);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 5 * (2 * 2 + 2));
}

/* 6. A set of the query without registration: skipped, the others load */
static void
test_unregistered (void)
{
  static const guint32 cpu_ids[] = { 0, 1 };
  static const CounterDef stranger_counters[] = {
    { 0, PS_PERF_COUNTER_RAWCOUNT, PS_PERF_NO_COUNTER, "Stranger" },
  };
  static const SetDef stranger_set = { unregistered_guid, "Stranger", stranger_counters, 1 };
  static const guint32 stranger_ids[] = { 9 };
  static const char * const stranger_names[] = { "x" };
  const guint8 *guids[] = { unregistered_guid, processor_guid };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  guint64 processor[4], memory[2];
  Capture capture;
  guint32 track;

  capture_init (&capture);
  capture_add_registration (&capture, &small_processor_set);
  capture_add_query (&capture, 1, guids, 2);
  for (guint s = 0; s < 3; s++)
    {
      guint64 stranger[] = { 77 + s };
      BlockDef blocks[2] = {
        { &stranger_set, 1, stranger_ids, stranger_names, stranger },
        { &small_processor_set, 2, cpu_ids, cpu_names, processor },
      };

      block_values (s, processor, memory);
      capture_add_sample (&capture, 1, s, blocks, 2);
    }
  bytes = capture_end (&capture);
  store = load (bytes, 0);

  g_assert_cmpuint (count_warnings (store, "W-PLV2-UNREGISTERED"), ==, 1);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_OBJECT), ==, 1);
  g_assert_cmpuint (count_tracks (store, PS_TRACK_INSTANCE), ==, 2);
  track = counter_of (store, "Processor Information", "0,0", 0, "% Processor Time");
  assert_reading (store, track, 2, 2 * NS_PER_S, 75.0, 1003125000, 0);
  track = counter_of (store, "Processor Information", "0,1", 0, "DPC Rate");
  assert_reading (store, track, 0, 0, 20.0, 20, 0);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 3 * 2 * 2);
}

/* 7. A record with a bad CRC: everything before it is kept */
static void
test_crc_damage (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) damaged = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autofree char *where = NULL;
  g_autofree guint8 *data = NULL;
  gsize length = 0;
  Capture capture;
  gsize third;
  PsWarning warning;
  guint32 track;

  two_set_capture_init (&capture);
  add_two_set_sample (&capture, 1, 0);
  add_two_set_sample (&capture, 1, 1);
  third = capture.bytes->len;
  add_two_set_sample (&capture, 1, 2);
  add_two_set_sample (&capture, 1, 3);
  bytes = capture_end (&capture);

  /* One bit of the third sample's buffer */
  g_bytes_get_data (bytes, &length);
  data = g_memdup2 (g_bytes_get_data (bytes, NULL), length);
  data[third + 32 + 60] ^= 0x10;
  damaged = g_bytes_new_take (g_steal_pointer (&data), length);
  /* Through the loader: the damage ends the reading with an error */
  {
    g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (damaged);
    g_autoptr(GError) error = NULL;

    store = ps_load_stream (stream, "damaged.plv2",
                            &(PsLoadParams) { .format = ps_format_lookup ("perflib-plv2"), .total_size = length },
                            NULL, &error);
    g_assert_no_error (error);
  }

  g_assert_cmpuint (count_warnings (store, "W-PLV2-CRC"), ==, 1);
  warning = find_warning (store, "W-PLV2-CRC");
  g_assert_cmpuint (warning.offset, ==, third);
  where = g_strdup_printf ("byte offset %" G_GSIZE_FORMAT, third);
  g_assert_nonnull (strstr (warning.message, where));

  track = counter_of (store, "Processor Information", "0,0", 0, "% Processor Time");
  g_assert_cmpuint (n_values_of (store, track), ==, 2);
  assert_reading (store, track, 1, NS_PER_S, 93.75, 1000625000, 0);
  track = counter_of (store, "Memory", NULL, 0, "Pages/sec");
  g_assert_cmpuint (n_values_of (store, track), ==, 2);
  assert_reading (store, track, 1, NS_PER_S, 100.0, 100, 0);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, 2 * (2 * 2 + 2));

  /* Read in part, as a cut capture is: up to the damaged record */
  g_assert_false (ps_event_store_is_complete (store));
  g_assert_error (ps_event_store_get_error (store), PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, where));
  g_assert_cmpuint (ps_event_store_get_bytes_read (store), ==, third);
}

/* 8. Any chunk size gives the same store */
static void
test_chunks (void)
{
  g_autoptr(GBytes) capture = make_processor_capture ();
  g_autoptr(PsEventStore) whole = load (capture, 0);
  g_autoptr(PsEventStore) bytewise = load (capture, 1);
  g_autoptr(PsEventStore) sevens = load (capture, 7);
  g_autofree char *expected = describe_store (whole);
  g_autofree char *by_one = describe_store (bytewise);
  g_autofree char *by_seven = describe_store (sevens);

  g_assert_cmpuint (ps_event_store_get_n_counter_values (whole), ==, 36);
  g_assert_cmpstr (by_one, ==, expected);
  g_assert_cmpstr (by_seven, ==, expected);
}

/* 9. Instances of the same name with different ids: #0 and #1 */
static void
test_duplicate_instances (void)
{
  static const CounterDef counters[] = {
    { 0, PS_PERF_COUNTER_RAWCOUNT, PS_PERF_NO_COUNTER, "Thread Count" },
  };
  static const SetDef set = { memory_guid, "Process", counters, 1 };
  static const guint32 ids[] = { 100, 200, 5 };
  static const char * const names[] = { "svchost", "svchost", "other" };
  const guint8 *guids[] = { memory_guid };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  Capture capture;
  guint32 object, first, second, other;

  capture_init (&capture);
  capture_add_registration (&capture, &set);
  capture_add_query (&capture, 1, guids, 1);
  for (guint s = 0; s < 2; s++)
    {
      guint64 values[] = { 11 + s, 22 + s, 33 + s };
      BlockDef block = { &set, 3, ids, names, values };

      capture_add_sample (&capture, 1, s, &block, 1);
    }
  bytes = capture_end (&capture);
  store = load (bytes, 0);

  object = object_of (store, "Process");
  g_assert_cmpuint (count_tracks (store, PS_TRACK_INSTANCE), ==, 3);
  first = find_track (store, PS_TRACK_INSTANCE, object, "svchost", 0);
  second = find_track (store, PS_TRACK_INSTANCE, object, "svchost", 1);
  other = find_track (store, PS_TRACK_INSTANCE, object, "other", 0);
  g_assert_cmpuint (ps_event_store_get_track (store, first)->ordinal, ==, 100);
  g_assert_cmpuint (ps_event_store_get_track (store, second)->ordinal, ==, 200);
  g_assert_cmpuint (ps_event_store_get_track (store, other)->ordinal, ==, 5);

  g_assert_cmpstr (str (store, ps_event_store_get_track (store, counter_of (store, "Process", "svchost", 1,
                                                                             "Thread Count"))->category),
                   ==, "\\\\WS01\\Process(svchost#1)\\Thread Count");
  assert_reading (store, counter_of (store, "Process", "svchost", 0, "Thread Count"), 1, NS_PER_S, 12.0, 12, 0);
  assert_reading (store, counter_of (store, "Process", "svchost", 1, "Thread Count"), 1, NS_PER_S, 23.0, 23, 0);
  assert_reading (store, counter_of (store, "Process", "other", 0, "Thread Count"), 1, NS_PER_S, 34.0, 34, 0);
}

static gboolean
append_bytes (const guint8 *bytes,
              gsize         length,
              gpointer      user_data)
{
  g_byte_array_append (user_data, bytes, length);
  return TRUE;
}

/* A realistic capture (bench/gen-plv2): the Processor Information
 * counters of 3 CPUs and _Total, n_samples samples */
static GBytes *
generate_capture (guint n_samples)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  GenPlv2Options options;

  gen_plv2_options_init (&options);
  options.n_instances = 3;
  options.n_samples = n_samples;
  g_assert_true (gen_plv2_write (&options, append_bytes, array, NULL));
  return g_byte_array_free_to_bytes (g_steal_pointer (&array));
}

static void assert_same_readings (PsEventStore *fast,
                                  PsEventStore *decoded);

/* Samples of the same shape as the one before are read at its offsets
 * without decoding: the readings are exactly those of decoding every
 * sample, on a realistic capture of 200 samples cut into pieces that
 * split records */
static void
test_shapes_same_as_decoding (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) fast = NULL;
  g_autoptr(PsEventStore) decoded = NULL;

  bytes = generate_capture (200);

  fast = load_with_option (bytes, 4093, NULL);
  decoded = load_with_option (bytes, 0, "decode-every-sample");
  assert_same_readings (fast, decoded);

  /* Through the loader: the container read in its reading thread, in
   * pieces that split records, applied on this one */
  {
    g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (bytes);
    g_autoptr(GError) error = NULL;
    g_autoptr(PsEventStore) loaded = ps_load_stream (stream, "capture.plv2",
                                                     &(PsLoadParams) {
                                                       .chunk_size = 8192,
                                                       .total_size = g_bytes_get_size (bytes),
                                                     },
                                                     NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (ps_event_store_get_format (loaded), ==, "perflib-plv2");
    assert_same_readings (loaded, decoded);
  }
}

/* Statistics and overviews of every track, readings kept or not */
static void
assert_same_series (PsEventStore *fast,
                    PsEventStore *decoded)
{
  guint n_series = 0;

  g_assert_cmpuint (ps_event_store_get_n_counter_readings (fast), ==,
                    ps_event_store_get_n_counter_readings (decoded));
  g_assert_cmpuint (ps_event_store_get_counter_stride (fast), ==, ps_event_store_get_counter_stride (decoded));
  for (guint32 track = 0; track < ps_event_store_get_n_tracks (decoded); track++)
    {
      const PsCounterStats *a = ps_event_store_get_counter_stats (fast, track);
      const PsCounterStats *b = ps_event_store_get_counter_stats (decoded, track);
      PsCounterOverview overview_a, overview_b;

      if (b == NULL)
        {
          g_assert_null (a);
          continue;
        }
      n_series++;
      g_assert_nonnull (a);
      g_assert_cmpuint (a->n_values, ==, b->n_values);
      g_assert_cmpuint (a->n_missing, ==, b->n_missing);
      g_assert_cmpint (a->first_ns, ==, b->first_ns);
      g_assert_cmpint (a->last_ns, ==, b->last_ns);
      g_assert_true (memcmp (&a->min, &b->min, sizeof a->min) == 0);
      g_assert_true (memcmp (&a->max, &b->max, sizeof a->max) == 0);
      g_assert_true (memcmp (&a->sum, &b->sum, sizeof a->sum) == 0);
      g_assert_true (memcmp (&a->first, &b->first, sizeof a->first) == 0);
      g_assert_true (memcmp (&a->last, &b->last, sizeof a->last) == 0);

      g_assert_true (ps_event_store_get_counter_overview (fast, track, &overview_a));
      g_assert_true (ps_event_store_get_counter_overview (decoded, track, &overview_b));
      g_assert_cmpint (overview_a.begin_ns, ==, overview_b.begin_ns);
      g_assert_cmpint (overview_a.bucket_ns, ==, overview_b.bucket_ns);
      g_assert_cmpuint (overview_a.n_buckets, ==, overview_b.n_buckets);
      for (guint i = 0; i < overview_b.n_buckets; i++)
        {
          g_assert_cmpuint (overview_a.buckets[i].count, ==, overview_b.buckets[i].count);
          if (overview_b.buckets[i].count == 0)
            continue;
          g_assert_true (overview_a.buckets[i].min == overview_b.buckets[i].min);
          g_assert_true (overview_a.buckets[i].max == overview_b.buckets[i].max);
          g_assert_true (overview_a.buckets[i].mean == overview_b.buckets[i].mean);
        }
    }
  g_assert_cmpuint (n_series, >, 0);
}

/* The same kept readings, warnings, statistics and overviews */
static void
assert_same_values (PsEventStore *fast,
                    PsEventStore *decoded)
{
  guint64 n = ps_event_store_get_n_counter_values (decoded);

  g_assert_cmpuint (ps_event_store_get_n_counter_values (fast), ==, n);
  for (guint64 i = 0; i < n; i++)
    {
      const PsCounterValue *a = ps_event_store_get_counter_value (fast, i);
      const PsCounterValue *b = ps_event_store_get_counter_value (decoded, i);

      g_assert_cmpint (a->time_ns, ==, b->time_ns);
      g_assert_cmpuint (a->track, ==, b->track);
      g_assert_cmpuint (a->flags, ==, b->flags);
      g_assert_cmpuint (a->status, ==, b->status);
      g_assert_cmpint (raw_at (fast, i)->raw, ==, raw_at (decoded, i)->raw);
      g_assert_cmpint (raw_at (fast, i)->base, ==, raw_at (decoded, i)->base);
      g_assert_true ((isnan (a->value) && isnan (b->value)) || a->value == b->value);
    }
  g_assert_cmpuint (ps_event_store_get_n_warnings (fast), ==, ps_event_store_get_n_warnings (decoded));
  assert_same_series (fast, decoded);
}

static void
assert_same_readings (PsEventStore *fast,
                      PsEventStore *decoded)
{
  guint64 n;

  n = ps_event_store_get_n_counter_values (decoded);
  /* 4 instances × the displayed counters × 200 samples */
  g_assert_cmpuint (n, ==, 4 * 200 * (n / (4 * 200)));
  g_assert_cmpuint (n, >=, 4 * 200 * 20);
  g_assert_cmpuint (ps_event_store_get_n_tracks (fast), ==, ps_event_store_get_n_tracks (decoded));
  assert_same_values (fast, decoded);
}

/* A store that keeps at most max_values readings one by one */
static PsEventStore *
load_thinned (GBytes     *capture,
              gsize       piece,
              guint64     max_values,
              const char *option)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  gsize length = 0;
  const guint8 *data = g_bytes_get_data (capture, &length);

  ps_event_store_set_max_counter_values (store, max_values);
  parse_fixture_pieces_into (store, ps_format_lookup ("perflib-plv2"), data, length, piece, 0, option);
  return g_steal_pointer (&store);
}

/* Past the store's limit, samples of the same shape still give the same
 * kept readings, statistics and overviews as decoding every sample: the
 * store thins several times, in the middle of samples too */
static void
test_shapes_thinned (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) fast = NULL;
  g_autoptr(PsEventStore) decoded = NULL;
  guint64 n_readings;

  bytes = generate_capture (300);

  /* Not a multiple of the readings of a sample */
  fast = load_thinned (bytes, 65521, 1001, NULL);
  decoded = load_thinned (bytes, 65521, 1001, "decode-every-sample");

  n_readings = ps_event_store_get_n_counter_readings (decoded);
  g_assert_cmpuint (n_readings, >=, 4 * 300 * 20);
  g_assert_cmpuint (ps_event_store_get_counter_stride (decoded), >=, 16);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (decoded), <=, 1001);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (decoded), >, 1001 / 2);
  assert_same_values (fast, decoded);
}

/* The container's CRC-32 (by carry-less multiplication, in 16- or 64-byte
 * registers, where the processor has it) is zlib's, whatever the length,
 * alignment and start: every length to 600 covers the ends of both widths
 * and the change from one to the other at 256 bytes */
static void
test_crc32_same_as_zlib (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  gsize size = 70000;
  g_autofree guint8 *data = g_malloc (size);

  for (gsize i = 0; i < size; i++)
    data[i] = (guint8)g_rand_int (rand);
  for (guint round = 0; round < 800; round++)
    {
      gsize offset = g_rand_int_range (rand, 0, 64);
      gsize length = round < 600 ? round : (gsize)g_rand_int_range (rand, 0, (gint32)(size - offset));
      guint32 start = round % 3 == 0 ? 0 : g_rand_int (rand);
      guint32 expected = (guint32)crc32 (start, data + offset, (uInt)length);

      g_assert_cmphex (ps_plv2_crc32 (start, data + offset, length), ==, expected);
    }
  memset (data, 0xff, size);
  g_assert_cmphex (ps_plv2_crc32 (0, data, size), ==, (guint32)crc32 (0, data, (uInt)size));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/perflib-plv2/processor-information", test_processor_information);
  g_test_add_func ("/perflib-plv2/v1-base-rule", test_v1_base_rule);
  g_test_add_func ("/perflib-plv2/damaged-block", test_damaged_block);
  g_test_add_func ("/perflib-plv2/failed-sample", test_failed_sample);
  g_test_add_func ("/perflib-plv2/generations", test_generations);
  g_test_add_func ("/perflib-plv2/unregistered", test_unregistered);
  g_test_add_func ("/perflib-plv2/crc-damage", test_crc_damage);
  g_test_add_func ("/perflib-plv2/chunks", test_chunks);
  g_test_add_func ("/perflib-plv2/duplicate-instances", test_duplicate_instances);
  g_test_add_func ("/perflib-plv2/shapes-same-as-decoding", test_shapes_same_as_decoding);
  g_test_add_func ("/perflib-plv2/shapes-thinned", test_shapes_thinned);
  g_test_add_func ("/perflib-plv2/crc32-same-as-zlib", test_crc32_same_as_zlib);

  return g_test_run ();
}

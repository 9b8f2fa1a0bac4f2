/* test-collector-perflib.c — the PerfLib collector, with recorded buffers
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collector's code is linked in and given a PsPerflibBackend that
 * answers from buffers built with tests/perflib-writer (perflib-v2.md
 * §3): two counter sets, the registration of each, and one
 * PerfQueryCounterData buffer per interval of a set with two instances
 * and three counters (a raw count, a rate and a large raw count). The
 * live run must equal the PLV2 capture the collector wrote, opened as a
 * file, and its values those of the counter formulas (§4.3). The module
 * of the build (PERFSCOPE_COLLECTOR_DIR) is loaded in a subprocess: on
 * this system it has no PerfLib and must say so.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "collector-test-util.h"
#include "perflib-writer.h"
#include "ps-collector.h"
#include "ps-error.h"
#include "ps-loader.h"
#include "ps-perflib-block.h"
#include "ps-perflib-collector.h"
#include "ps-plv2.h"

#define N_SAMPLES      6
#define N_INSTANCES    2
#define PERF_FREQ      G_GINT64_CONSTANT (10000000)
#define PERF_TIME0     G_GINT64_CONSTANT (5000000000)
#define TIME_100NS0    G_GINT64_CONSTANT (133000000000000000)
#define ERROR_NO_DATA  232u
#define ERROR_ACCESS   5u

enum
{
  ITEMS,
  ITEMS_PER_SEC,
  BYTES,
  N_COUNTERS
};

static const char * const counter_names[N_COUNTERS] = { "Items", "Items/sec", "Bytes" };
static const guint32 counter_types[N_COUNTERS] = {
  PS_PERF_COUNTER_RAWCOUNT, PS_PERF_COUNTER_COUNTER, PS_PERF_COUNTER_LARGE_RAWCOUNT,
};
static const char * const instance_names[N_INSTANCES] = { "pool-a", "pool-b" };

/* {5e1b7a10-2c3d-4e5f-8a9b-0c1d2e3f4a5b} and another set */
static const guint8 memory_guid[16] = {
  0x10, 0x7a, 0x1b, 0x5e, 0x3d, 0x2c, 0x5f, 0x4e, 0x8a, 0x9b, 0x0c, 0x1d, 0x2e, 0x3f, 0x4a, 0x5b,
};
static const guint8 other_guid[16] = {
  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x48, 0x89, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};

/* The raw values of sample s (§4.3: a rate's raw value only grows) */
static guint64
raw_value (guint counter,
           guint instance,
           guint sample)
{
  switch (counter)
    {
    case ITEMS:
      return 100 * instance + 10 * sample;
    case ITEMS_PER_SEC:
      return 1000 * instance + 500 * sample * sample;
    default:
      return ((guint64)(instance + 1) << 32) + sample;
    }
}

/* --- The recorded buffers ---------------------------------------------------- */

static GBytes *
build_registration (const guint8 guid[16],
                    const char  *set_name,
                    guint32      request_code)
{
  g_autoptr(PsPerflibWriter) writer = ps_perflib_writer_new ();
  guint32 ids[N_COUNTERS] = { 0, 1, 2 };

  if (request_code == PS_PERFLIB_REG_COUNTERSET_STRUCT)
    {
      ps_perflib_writer_counterset_reg (writer, guid, 100, N_COUNTERS, PS_PERFLIB_INSTANCE_MULTIPLE);
      for (guint c = 0; c < N_COUNTERS; c++)
        {
          PsPerflibWriterCounter reg;

          ps_perflib_writer_counter_init (&reg, c, counter_types[c]);
          ps_perflib_writer_counter_reg (writer, &reg);
        }
    }
  else if (request_code == PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME)
    ps_perflib_writer_utf16 (writer, set_name);
  else
    ps_perflib_writer_string_buffer (writer, ids, counter_names, N_COUNTERS);
  return ps_perflib_writer_free_to_bytes (g_steal_pointer (&writer));
}

static GBytes *
build_sample (guint sample)
{
  g_autoptr(PsPerflibWriter) writer = ps_perflib_writer_new ();
  guint32 ids[N_COUNTERS] = { 0, 1, 2 };
  PsPerflibSystemTime st = { 2026, 11, 1, 23, 20, 0, (guint16)sample, 0 };

  ps_perflib_writer_data_header (writer, 1, PERF_TIME0 + sample * PERF_FREQ,
                                 TIME_100NS0 + sample * G_GINT64_CONSTANT (10000000), PERF_FREQ, &st);
  ps_perflib_writer_block_begin (writer, 0, PS_PERFLIB_BLOCK_COUNTERSET);
  ps_perflib_writer_multi_counters (writer, ids, N_COUNTERS);
  ps_perflib_writer_multi_instances_begin (writer, N_INSTANCES);
  for (guint i = 0; i < N_INSTANCES; i++)
    {
      ps_perflib_writer_instance (writer, i, instance_names[i]);
      for (guint c = 0; c < N_COUNTERS; c++)
        ps_perflib_writer_counter_data (writer, raw_value (c, i, sample),
                                        ps_perflib_type_get_value_size (counter_types[c]) == 8 ? 8 : 4);
    }
  ps_perflib_writer_multi_instances_end (writer);
  ps_perflib_writer_block_end (writer);
  ps_perflib_writer_data_end (writer);
  return ps_perflib_writer_free_to_bytes (g_steal_pointer (&writer));
}

/* --- The fake PerfLib ------------------------------------------------------------ */

typedef struct
{
  PsPerflibBackend backend;
  GPtrArray       *samples;        /* GBytes, served in order */
  guint            n_served;
  guint            n_failed;
  guint32          add_status;     /* the Status PerfAddCounters gives each identifier */
  GBytes          *added;          /* what PerfAddCounters was given */
  gboolean         query_open;
} FakePerflib;

static FakePerflib *
fake (const PsPerflibBackend *backend)
{
  return backend->user_data;
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
      n += g_strcmp0 (warning.code, code) == 0;
    }
  return n;
}

static guint32
fake_enumerate_countersets (const PsPerflibBackend *backend,
                            GByteArray             *guids)
{
  g_byte_array_append (guids, other_guid, 16);
  g_byte_array_append (guids, memory_guid, 16);
  return 0;
}

static guint32
fake_query_registration_info (const PsPerflibBackend *backend,
                              const guint8            guid[16],
                              guint32                 request_code,
                              guint32                 lang_id,
                              GByteArray             *output)
{
  g_autoptr(GBytes) bytes = NULL;
  const char *name = memcmp (guid, memory_guid, 16) == 0 ? "Memory Test" : "Other Set";

  if (memcmp (guid, memory_guid, 16) != 0 && memcmp (guid, other_guid, 16) != 0)
    return 2; /* ERROR_FILE_NOT_FOUND */
  if (request_code != PS_PERFLIB_REG_COUNTERSET_STRUCT && request_code != PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME
      && request_code != PS_PERFLIB_REG_COUNTER_ENGLISH_NAMES)
    return 87; /* ERROR_INVALID_PARAMETER */
  bytes = build_registration (guid, name, request_code);
  g_byte_array_append (output, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  return 0;
}

static guint32
fake_open_query (const PsPerflibBackend *backend,
                 gpointer               *query)
{
  fake (backend)->query_open = TRUE;
  *query = fake (backend);
  return 0;
}

static guint32
fake_add_counters (const PsPerflibBackend *backend,
                   gpointer                query,
                   guint8                 *identifiers,
                   gsize                   size)
{
  FakePerflib *self = fake (backend);

  g_assert_true (query == self);
  g_clear_pointer (&self->added, g_bytes_unref);
  self->added = g_bytes_new (identifiers, size);
  for (guint b = 0; b < 4; b++)
    identifiers[16 + b] = (guint8)(self->add_status >> (8 * b));
  return 0;
}

/* What was added, each identifier with its block's Index */
static guint32
fake_query_counter_info (const PsPerflibBackend *backend,
                         gpointer                query,
                         GByteArray             *output)
{
  g_autoptr(PsPerflibWriter) writer = ps_perflib_writer_new ();
  gsize size;
  const guint8 *data;

  ps_perflib_writer_identifier (writer, memory_guid, 0, PS_PERF_WILDCARD_COUNTER, 0xFFFFFFFFu, 0, "*");
  data = ps_perflib_writer_peek (writer, &size);
  g_byte_array_append (output, data, size);
  return 0;
}

static guint32
fake_query_counter_data (const PsPerflibBackend *backend,
                         gpointer                query,
                         GByteArray             *output)
{
  FakePerflib *self = fake (backend);
  GBytes *bytes;

  g_byte_array_set_size (output, 0);
  if (self->n_served == self->samples->len)
    {
      self->n_failed++;
      return ERROR_NO_DATA;
    }
  bytes = g_ptr_array_index (self->samples, self->n_served++);
  g_byte_array_append (output, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  return 0;
}

static void
fake_close_query (const PsPerflibBackend *backend,
                  gpointer                query)
{
  g_assert_true (fake (backend)->query_open);
  fake (backend)->query_open = FALSE;
}

static FakePerflib *
fake_perflib_new (void)
{
  FakePerflib *self = g_new0 (FakePerflib, 1);

  self->backend = (PsPerflibBackend) {
    .enumerate_countersets = fake_enumerate_countersets,
    .query_registration_info = fake_query_registration_info,
    .open_query = fake_open_query,
    .add_counters = fake_add_counters,
    .query_counter_info = fake_query_counter_info,
    .query_counter_data = fake_query_counter_data,
    .close_query = fake_close_query,
    .user_data = self,
  };
  self->samples = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  for (guint s = 0; s < N_SAMPLES; s++)
    g_ptr_array_add (self->samples, build_sample (s));
  return self;
}

static void
fake_perflib_free (FakePerflib *self)
{
  g_assert_false (self->query_open);
  g_ptr_array_unref (self->samples);
  g_clear_pointer (&self->added, g_bytes_unref);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FakePerflib, fake_perflib_free)

static PsCollector *
new_collector (FakePerflib *fake_perflib)
{
  PsCollector *collector;

  collector_test_ensure_module (ps_perflib_collector_register);
  collector = g_object_new (PS_TYPE_PERFLIB_COLLECTOR, NULL);
  ps_perflib_collector_set_backend (PS_PERFLIB_COLLECTOR (collector), &fake_perflib->backend);
  return collector;
}

/* --- Recording --------------------------------------------------------------------- */

static gboolean
is_all_served (gpointer user_data)
{
  FakePerflib *fake_perflib = user_data;

  return fake_perflib->n_served >= N_SAMPLES;
}

/* Records until every buffer has been served */
static PsEventStore *
record (FakePerflib *fake_perflib,
        GHashTable  *options,
        guint64     *n_live_values)
{
  g_autoptr(PsCollector) collector = new_collector (fake_perflib);

  return collector_test_record (collector, options, is_all_served, fake_perflib,
                                ps_event_store_get_n_counter_values, n_live_values);
}

/* --- Comparing runs ------------------------------------------------------------------ */

static void
append_track_path (GString      *out,
                   PsEventStore *store,
                   guint32       index)
{
  const PsTrack *track = ps_event_store_get_track (store, index);

  if (track->parent != PS_NONE)
    {
      append_track_path (out, store, track->parent);
      g_string_append_c (out, '/');
    }
  g_string_append (out, ps_event_store_get_string (store, track->name));
}

/* The counters of a run: tracks with their units, every reading */
static char *
describe_store (PsEventStore *store)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "format %s\n", ps_event_store_get_format (store));
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      g_string_append_printf (out, "track %u kind %u ", t, track->kind);
      append_track_path (out, store, t);
      g_string_append_printf (out, " unit %s\n", track->unit != 0 ? ps_event_store_get_string (store, track->unit) : "-");
    }
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      static const PsCounterRaw none = { 0 };
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      const PsCounterRaw *raw = ps_event_store_get_counter_raw (store, i);

      if (raw == NULL)
        raw = &none;
      g_string_append_printf (out, "value %" G_GINT64_FORMAT " track %u flags %u status %u %.9g raw %" G_GINT64_FORMAT
                              " base %" G_GINT64_FORMAT "\n", value->time_ns, value->track, value->flags,
                              value->status, value->value, raw->raw, raw->base);
    }
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      /* The recorder's timing is not part of a capture: test_record
       * checks it apart */
      if (g_str_has_prefix (warning.code, "W-READING-"))
        continue;
      g_string_append_printf (out, "warning %s %s\n", warning.code, warning.message);
    }
  if (ps_event_store_get_error (store) != NULL)
    g_string_append_printf (out, "error %s\n", ps_event_store_get_error (store)->message);
  return g_string_free (out, FALSE);
}

static guint32
find_counter (PsEventStore *store,
              const char   *path)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      g_autoptr(GString) track_path = g_string_new (NULL);

      append_track_path (track_path, store, t);
      if (g_str_has_suffix (track_path->str, path) && ps_event_store_get_track (store, t)->kind == PS_TRACK_COUNTER)
        return t;
    }
  return PS_NONE;
}

/* The displayed values of a counter, in time order */
static GArray *
counter_values (PsEventStore *store,
                guint32       track)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track == track && !(value->flags & PS_COUNTER_FLAG_MISSING))
        g_array_append_val (values, value->value);
    }
  return values;
}

typedef struct
{
  guint n_samples;
  guint n_failed;
  guint n_records;
  gboolean end;
} CaptureCount;

static gboolean
count_record (const PsPlv2Record *record,
              gpointer            user_data,
              GError            **error)
{
  CaptureCount *count = user_data;

  count->n_records++;
  if (record->type == PS_PLV2_RECORD_SAMPLE && record->win32_status == 0)
    count->n_samples++;
  else if (record->type == PS_PLV2_RECORD_SAMPLE)
    count->n_failed++;
  else if (record->type == PS_PLV2_RECORD_END)
    count->end = TRUE;
  return TRUE;
}

/* --- Tests ------------------------------------------------------------------------------- */

static void
test_record (void)
{
  g_autoptr(FakePerflib) fake_perflib = fake_perflib_new ();
  g_autofree char *dir = g_dir_make_tmp ("perfscope-perflib-XXXXXX", NULL);
  g_autofree char *capture = g_build_filename (dir, "run.plv2", NULL);
  g_autoptr(GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(PsEventStore) live = NULL;
  g_autoptr(PsEventStore) file = NULL;
  g_autoptr(GFile) capture_file = NULL;
  g_autoptr(PsLoader) loader = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *live_text = NULL;
  g_autofree char *file_text = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(PsPlv2Reader) reader = NULL;
  PsPlv2Callbacks callbacks = { NULL, count_record, NULL };
  CaptureCount count = { 0 };
  const guint8 *added;
  gsize added_size;
  gsize length;
  guint64 n_live_values;

  g_hash_table_insert (options, (gpointer)"countersets", (gpointer)" memory TEST ");
  g_hash_table_insert (options, (gpointer)"interval-ms", (gpointer)"10");
  g_hash_table_insert (options, (gpointer)"capture", capture);
  live = record (fake_perflib, options, &n_live_values);

  /* The query: one identifier, every counter and instance of the set (§3.8) */
  added = g_bytes_get_data (fake_perflib->added, &added_size);
  g_assert_cmpuint (added_size, ==, 48);
  g_assert_cmpmem (added, 16, memory_guid, 16);
  g_assert_cmpuint (added[20], ==, 48);
  g_assert_cmpuint (added[24] & added[25] & added[26] & added[27], ==, 0xFF);
  g_assert_cmpuint (added[40], ==, '*');

  /* Values reached the store while recording */
  g_assert_cmpuint (n_live_values, >, 0);
  g_assert_null (ps_event_store_get_error (live));
  g_assert_cmpstr (ps_event_store_get_format (live), ==, "perflib-plv2");
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "collector"), ==, "perflib");
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "capture"), ==, capture);
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "interval_ms"), ==, "10");

  /* The capture: SESSION, COUNTERSET_REG, QUERY, the samples (those the
   * fake refused after its buffers ran out without a buffer), END */
  g_assert_true (g_file_get_contents (capture, &contents, &length, &error));
  g_assert_no_error (error);
  reader = ps_plv2_reader_new (&callbacks, &count);
  g_assert_true (ps_plv2_reader_feed (reader, (const guint8 *)contents, length, &error));
  g_assert_true (ps_plv2_reader_finish (reader, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count.n_samples, ==, N_SAMPLES);
  g_assert_cmpuint (count.n_failed, ==, fake_perflib->n_failed);
  g_assert_cmpuint (count.n_records, ==, 3 + N_SAMPLES + fake_perflib->n_failed + 1);
  g_assert_true (count.end);

  /* The live run is the capture opened as a file */
  capture_file = g_file_new_for_path (capture);
  stream = G_INPUT_STREAM (g_file_read (capture_file, NULL, &error));
  g_assert_no_error (error);
  file = ps_load_stream (stream, "run.plv2", &(PsLoadParams) { .total_size = length }, NULL, &error);
  g_assert_no_error (error);
  live_text = describe_store (live);
  file_text = describe_store (file);
  g_assert_cmpstr (live_text, ==, file_text);

  /* The samples came on the clock, which said what it achieved and made
   * a warning of each late or lost reading */
  g_assert_cmpuint (count_warnings (live, "W-READING-LATE"), ==,
                    g_ascii_strtoull (ps_event_store_get_metadata (live, 0, "readings_late"), NULL, 10));
  g_assert_cmpuint (count_warnings (live, "W-READING-LOST"), <=,
                    g_ascii_strtoull (ps_event_store_get_metadata (live, 0, "readings_lost"), NULL, 10));
  g_assert_cmpuint (g_ascii_strtoull (ps_event_store_get_metadata (live, 0, "readings"), NULL, 10), ==,
                    count.n_samples + count.n_failed);
  g_assert_cmpfloat (g_ascii_strtod (ps_event_store_get_metadata (live, 0, "interval_achieved_ms"), NULL), >=, 5);

  /* The formulas (§4.3): raw counts as they are; the rate the raw
   * difference over the PerfTime difference in seconds, from the second
   * sample on */
  for (guint i = 0; i < N_INSTANCES; i++)
    {
      g_autofree char *items_path = g_strdup_printf ("%s/Items", instance_names[i]);
      g_autofree char *rate_path = g_strdup_printf ("%s/Items/sec", instance_names[i]);
      g_autofree char *bytes_path = g_strdup_printf ("%s/Bytes", instance_names[i]);
      guint32 items = find_counter (live, items_path);
      guint32 rate = find_counter (live, rate_path);
      guint32 bytes = find_counter (live, bytes_path);
      g_autoptr(GArray) items_values = NULL;
      g_autoptr(GArray) rate_values = NULL;
      g_autoptr(GArray) bytes_values = NULL;

      g_assert_cmpuint (items, !=, PS_NONE);
      g_assert_cmpuint (rate, !=, PS_NONE);
      g_assert_cmpuint (bytes, !=, PS_NONE);
      items_values = counter_values (live, items);
      rate_values = counter_values (live, rate);
      bytes_values = counter_values (live, bytes);
      g_assert_cmpuint (items_values->len, ==, N_SAMPLES);
      g_assert_cmpuint (rate_values->len, ==, N_SAMPLES - 1);
      g_assert_cmpuint (bytes_values->len, ==, N_SAMPLES);
      for (guint s = 0; s < N_SAMPLES; s++)
        {
          g_assert_cmpfloat (g_array_index (items_values, double, s), ==, (double)raw_value (ITEMS, i, s));
          g_assert_cmpfloat (g_array_index (bytes_values, double, s), ==, (double)raw_value (BYTES, i, s));
          if (s > 0)
            g_assert_cmpfloat_with_epsilon (g_array_index (rate_values, double, s - 1), 500.0 * (2 * s - 1), 1e-9);
        }
    }

  g_unlink (capture);
  g_rmdir (dir);
}

static void
assert_start_fails (FakePerflib *fake_perflib,
                    GHashTable  *options,
                    const char  *message)
{
  g_autoptr(PsCollector) collector = new_collector (fake_perflib);

  collector_test_assert_start_fails (collector, options, message);
}

static void
test_errors (void)
{
  g_autoptr(FakePerflib) fake_perflib = fake_perflib_new ();
  g_autofree char *dir = g_dir_make_tmp ("perfscope-perflib-XXXXXX", NULL);
  g_autofree char *capture = g_build_filename (dir, "run.plv2", NULL);
  g_autoptr(GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (options, (gpointer)"capture", capture);
  g_hash_table_insert (options, (gpointer)"countersets", (gpointer)"Memory Test, Nothing Such");
  assert_start_fails (fake_perflib, options, "This system has no counter set named “Nothing Such”");

  g_hash_table_insert (options, (gpointer)"countersets", (gpointer)" , ");
  assert_start_fails (fake_perflib, options, "No counter set to record");

  g_hash_table_insert (options, (gpointer)"countersets", (gpointer)"{5e1b7a10-2c3d-4e5f-8a9b-0c1d2e3f4a5b}");
  g_hash_table_insert (options, (gpointer)"interval-ms", (gpointer)"0");
  assert_start_fails (fake_perflib, options, "The interval must be a number of milliseconds from 1 to 3600000, not “0”");

  g_hash_table_insert (options, (gpointer)"interval-ms", (gpointer)"100");
  fake_perflib->add_status = ERROR_ACCESS;
  assert_start_fails (fake_perflib, options, "Cannot add the counters of “*” to the query (Win32 error 5)");
  /* The query is closed again, no capture was begun */
  g_assert_false (fake_perflib->query_open);
  g_assert_false (g_file_test (capture, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* The module of this build: a collector without PerfLib */
static void
test_module_not_available (void)
{
  if (g_test_subprocess ())
    {
      collector_test_assert_not_available ("perflib", 4, "PerfLib is not available on this system: it is part of Windows");
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/collector-perflib/record", test_record);
  g_test_add_func ("/collector-perflib/errors", test_errors);
#ifndef G_OS_WIN32
  g_test_add_func ("/collector-perflib/module", test_module_not_available);
#endif

  return g_test_run ();
}

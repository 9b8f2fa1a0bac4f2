/* test-plv2.c — the PLV2 capture container: writer, streaming reader
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §8 (the container), §9.4 (the cases a reader must
 * survive). A capture with every record type is written, then read back
 * in one piece and at every chunk size, with every byte of every record
 * flipped, and cut at every byte.
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "ps-error.h"
#include "ps-plv2.h"

/* What a read delivered, kept beyond the callbacks */
typedef struct
{
  guint32  type;
  guint32  seq;
  guint32  flags;
  guint64  offset;
  GBytes  *payload;
  guint32  generation;
  guint32  win32_status;
  gboolean has_utc;
  gint64   utc;
  guint8   guid[16];
  guint32  entry_count;
  guint64  sample_count;
  gsize    body_start;
  gsize    body_size;
  guint    n_entries;     /* COUNTERSET_REG entries the iterator gave */
} Rec;

typedef struct
{
  char    *code;
  guint64  offset;
} Warning;

typedef struct
{
  GArray       *records;   /* Rec */
  GArray       *warnings;  /* Warning */
  gboolean      have_header;
  PsPlv2Header  header;
  GError       *error;
  gboolean      damaged;
  guint64       damaged_offset;
  guint64       n_samples;
  gboolean      has_end;
} Result;

static void
rec_clear (gpointer data)
{
  Rec *rec = data;

  g_clear_pointer (&rec->payload, g_bytes_unref);
}

static void
warning_clear (gpointer data)
{
  Warning *warning = data;

  g_clear_pointer (&warning->code, g_free);
}

static void
result_free (Result *result)
{
  g_array_unref (result->records);
  g_array_unref (result->warnings);
  g_clear_error (&result->error);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Result, result_free)

static gboolean
on_header (const PsPlv2Header *header,
           gpointer            user_data,
           GError            **error)
{
  Result *result = user_data;

  result->have_header = TRUE;
  result->header = *header;
  return TRUE;
}

static gboolean
on_record (const PsPlv2Record *record,
           gpointer            user_data,
           GError            **error)
{
  Result *result = user_data;
  Rec rec = { 0 };

  rec.type = record->type;
  rec.seq = record->seq;
  rec.flags = record->flags;
  rec.offset = record->offset;
  rec.payload = g_bytes_new (record->payload, record->payload_size);
  rec.generation = record->generation;
  rec.win32_status = record->win32_status;
  rec.has_utc = record->has_utc;
  rec.utc = record->utc;
  memcpy (rec.guid, record->guid, 16);
  rec.entry_count = record->entry_count;
  rec.sample_count = record->sample_count;
  g_assert_true (record->body >= record->payload);
  g_assert_true (record->body + record->body_size == record->payload + record->payload_size);
  rec.body_start = record->body - record->payload;
  rec.body_size = record->body_size;

  if (record->type == PS_PLV2_RECORD_COUNTERSET_REG)
    {
      PsPlv2RegIter iter;
      PsPlv2RegEntry entry;

      ps_plv2_reg_iter_init (&iter, record);
      while (ps_plv2_reg_iter_next (&iter, &entry, NULL))
        rec.n_entries++;
    }

  g_array_append_val (result->records, rec);
  return TRUE;
}

static void
on_warning (const char *code,
            guint64     offset,
            const char *message,
            gpointer    user_data)
{
  Result *result = user_data;
  Warning warning = { g_strdup (code), offset };

  g_assert_nonnull (message);
  g_assert_cmpstr (message, !=, "");
  g_array_append_val (result->warnings, warning);
}

static const PsPlv2Callbacks callbacks = { on_header, on_record, on_warning };

/* chunk 0: in one piece */
static Result *
read_capture (const guint8 *data,
              gsize         length,
              gsize         chunk)
{
  g_autoptr(PsPlv2Reader) reader = NULL;
  Result *result = g_new0 (Result, 1);
  gboolean ok = TRUE;

  result->records = g_array_new (FALSE, TRUE, sizeof (Rec));
  g_array_set_clear_func (result->records, rec_clear);
  result->warnings = g_array_new (FALSE, TRUE, sizeof (Warning));
  g_array_set_clear_func (result->warnings, warning_clear);

  reader = ps_plv2_reader_new (&callbacks, result);
  if (chunk == 0)
    chunk = MAX (length, 1);
  for (gsize position = 0; ok && position < length; position += chunk)
    ok = ps_plv2_reader_feed (reader, data + position, MIN (chunk, length - position), &result->error);
  if (ok)
    ok = ps_plv2_reader_feed (reader, NULL, 0, &result->error);
  if (ok)
    ok = ps_plv2_reader_finish (reader, &result->error);
  g_assert_true (ok == (result->error == NULL));

  result->damaged = ps_plv2_reader_is_damaged (reader, &result->damaged_offset);
  result->n_samples = ps_plv2_reader_get_n_samples (reader);
  result->has_end = ps_plv2_reader_has_end (reader);
  g_assert_cmpuint (ps_plv2_reader_get_n_records (reader), ==, result->records->len);
  g_assert_true ((ps_plv2_reader_get_header (reader) != NULL) == result->have_header);
  return result;
}

static gboolean
rec_equal (const Rec *a,
           const Rec *b,
           gboolean   with_flags)
{
  return a->type == b->type
      && a->seq == b->seq
      && (!with_flags || a->flags == b->flags)
      && a->offset == b->offset
      && g_bytes_equal (a->payload, b->payload)
      && a->generation == b->generation
      && a->win32_status == b->win32_status
      && a->has_utc == b->has_utc
      && a->utc == b->utc
      && memcmp (a->guid, b->guid, 16) == 0
      && a->entry_count == b->entry_count
      && a->sample_count == b->sample_count
      && a->body_start == b->body_start
      && a->body_size == b->body_size
      && a->n_entries == b->n_entries;
}

static void
assert_same_result (const Result *a,
                    const Result *b)
{
  g_assert_cmpuint (a->records->len, ==, b->records->len);
  for (guint i = 0; i < a->records->len; i++)
    g_assert_true (rec_equal (&g_array_index (a->records, Rec, i), &g_array_index (b->records, Rec, i), TRUE));
  g_assert_cmpuint (a->warnings->len, ==, b->warnings->len);
  for (guint i = 0; i < a->warnings->len; i++)
    {
      g_assert_cmpstr (g_array_index (a->warnings, Warning, i).code, ==, g_array_index (b->warnings, Warning, i).code);
      g_assert_cmpuint (g_array_index (a->warnings, Warning, i).offset, ==, g_array_index (b->warnings, Warning, i).offset);
    }
  g_assert_true ((a->error == NULL) == (b->error == NULL));
  if (a->error != NULL)
    {
      g_assert_cmpint (a->error->code, ==, b->error->code);
      g_assert_cmpstr (a->error->message, ==, b->error->message);
    }
  g_assert_cmpint (a->damaged, ==, b->damaged);
  g_assert_cmpuint (a->damaged_offset, ==, b->damaged_offset);
}

static gboolean
has_warning (const Result *result,
             const char   *code,
             guint64       offset)
{
  for (guint i = 0; i < result->warnings->len; i++)
    {
      const Warning *warning = &g_array_index (result->warnings, Warning, i);

      if (g_str_equal (warning->code, code) && warning->offset == offset)
        return TRUE;
    }
  return FALSE;
}

/* The first "byte offset N" of an error message */
static guint64
error_offset (const GError *error)
{
  const char *at = strstr (error->message, "byte offset ");

  g_assert_nonnull (at);
  return g_ascii_strtoull (at + strlen ("byte offset "), NULL, 10);
}

/* Test data */

static const guint8 counterset_guid[16] = {
  0x5d, 0x87, 0xd0, 0xb6, 0xa4, 0x6f, 0x4b, 0x4b, 0x8b, 0xbc, 0x3c, 0x1c, 0x6e, 0x44, 0x7b, 0x95,
};

/* specs: perflib-v2.md §3.7 — the smallest useful data buffer */
static const guint8 sample_buffer[80] = {
  0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x80, 0x20, 0x9b, 0xcb, 0x82, 0xd8, 0x01,
  0x80, 0x96, 0x98, 0x00, 0x00, 0x00, 0x00, 0x00,
  0xe6, 0x07, 0x06, 0x00, 0x06, 0x00, 0x12, 0x00, 0x04, 0x00, 0x1a, 0x00, 0x28, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
  0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

#define UTC0 G_GINT64_CONSTANT (133000000000000000)

static void
fill (guint8 *data,
      gsize   length,
      guint8  seed)
{
  for (gsize i = 0; i < length; i++)
    data[i] = (guint8) (seed + 31 * i);
}

/* Every record type of §8.3, two generations, a failed sample. Record
 * numbers: 0 SESSION, 1 COUNTERSET_REG, 2 QUERY g1, 3 SAMPLE g1,
 * 4 SAMPLE g1, 5 SAMPLE g1 failed, 6 INSTANCES, 7 ANNOTATION, 8 QUERY g2,
 * 9 SAMPLE g2, 10 END. */
static GByteArray *
make_capture (void)
{
  static const char * const session[] = {
    "machine", "WINBOX", "os_version", "10.0", "os_build", "19045",
    "writer", "perfscope-test", "interval_ms", "1000", NULL,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(PsPlv2Writer) writer = NULL;
  GByteArray *array = g_byte_array_new ();
  PsPlv2Header header;
  guint8 reg_struct[32 + 48];
  guint8 english_name[13];
  guint8 identifiers[48];
  guint8 instances[24];
  PsPlv2RegEntry entries[3] = {
    { 1, 0, 0, reg_struct, sizeof reg_struct },
    { 9, 0, 0, english_name, sizeof english_name },
    { 10, 0, 0x57, NULL, 0 },
  };

  fill (reg_struct, sizeof reg_struct, 1);
  fill (english_name, sizeof english_name, 2);
  fill (identifiers, sizeof identifiers, 3);
  fill (instances, sizeof instances, 4);

  ps_plv2_header_init (&header);
  header.created_utc = UTC0;
  header.qpc_frequency = 10000000;
  header.tz_bias_minutes = -330;
  fill (header.session_id, 16, 5);

  writer = ps_plv2_writer_new_for_byte_array (array, &header);
  g_assert_true (ps_plv2_writer_add_session (writer, session, &error));
  g_assert_true (ps_plv2_writer_add_counterset_reg (writer, counterset_guid, entries, G_N_ELEMENTS (entries), &error));
  g_assert_true (ps_plv2_writer_add_query (writer, 1, identifiers, 40, &error));
  g_assert_true (ps_plv2_writer_add_sample (writer, 1, 0, UTC0 + 10000000, sample_buffer, sizeof sample_buffer, &error));
  g_assert_true (ps_plv2_writer_add_sample (writer, 1, 0, UTC0 + 20000000, sample_buffer, sizeof sample_buffer, &error));
  g_assert_true (ps_plv2_writer_add_sample (writer, 1, 0x800007D0, UTC0 + 30000000, sample_buffer, sizeof sample_buffer, &error));
  g_assert_true (ps_plv2_writer_add_instances (writer, counterset_guid, UTC0 + 31000000, instances, sizeof instances, &error));
  g_assert_true (ps_plv2_writer_add_annotation (writer, UTC0 + 32000000, "mark: löad started", &error));
  g_assert_true (ps_plv2_writer_add_query (writer, 2, identifiers, 48, &error));
  g_assert_true (ps_plv2_writer_add_sample (writer, 2, 0, UTC0 + 40000000, sample_buffer, 72, &error));
  g_assert_true (ps_plv2_writer_add_end (writer, UTC0 + 40000000, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ps_plv2_writer_get_n_records (writer), ==, 11);
  return array;
}

#define N_RECORDS 11

/* Byte ranges of the records, from a clean read */
static void
record_ranges (const Result *reference,
               gsize         file_size,
               guint64      *starts,
               guint64      *ends)
{
  for (guint i = 0; i < reference->records->len; i++)
    {
      starts[i] = g_array_index (reference->records, Rec, i).offset;
      ends[i] = i + 1 < reference->records->len
        ? g_array_index (reference->records, Rec, i + 1).offset
        : file_size;
    }
}

static void
test_crc32 (void)
{
  const guint8 *check = (const guint8 *) "123456789";

  /* The CRC-32 check value of IEEE 802.3 / zlib */
  g_assert_cmphex (ps_plv2_crc32 (0, check, 9), ==, 0xCBF43926);
  g_assert_cmphex (ps_plv2_crc32 (ps_plv2_crc32 (0, check, 4), check + 4, 5), ==, 0xCBF43926);
  g_assert_cmphex (ps_plv2_crc32 (0, NULL, 0), ==, 0);
}

/* The capture read in one piece: every field as written */
static void
test_round_trip (void)
{
  g_autoptr(GByteArray) capture = make_capture ();
  g_autoptr(Result) result = read_capture (capture->data, capture->len, 0);
  static const guint32 types[N_RECORDS] = {
    PS_PLV2_RECORD_SESSION, PS_PLV2_RECORD_COUNTERSET_REG, PS_PLV2_RECORD_QUERY,
    PS_PLV2_RECORD_SAMPLE, PS_PLV2_RECORD_SAMPLE, PS_PLV2_RECORD_SAMPLE,
    PS_PLV2_RECORD_INSTANCES, PS_PLV2_RECORD_ANNOTATION, PS_PLV2_RECORD_QUERY,
    PS_PLV2_RECORD_SAMPLE, PS_PLV2_RECORD_END,
  };
  const Rec *rec;
  gsize size;
  const guint8 *payload;

  g_assert_no_error (result->error);
  g_assert_cmpuint (result->warnings->len, ==, 0);
  g_assert_false (result->damaged);
  g_assert_true (result->has_end);
  g_assert_cmpuint (result->n_samples, ==, 4);

  g_assert_true (result->have_header);
  g_assert_cmpuint (result->header.version_major, ==, 1);
  g_assert_cmpuint (result->header.version_minor, ==, 0);
  g_assert_cmpuint (result->header.header_size, ==, 64);
  g_assert_cmphex (result->header.flags, ==, PS_PLV2_FLAG_CRC);
  g_assert_cmpint (result->header.created_utc, ==, UTC0);
  g_assert_cmpint (result->header.qpc_frequency, ==, 10000000);
  g_assert_cmpint (result->header.tz_bias_minutes, ==, -330);
  g_assert_cmpuint (result->header.session_id[1], ==, 5 + 31);
  g_assert_cmpmem (capture->data, 8, "PLV2CAP\0", 8);

  g_assert_cmpuint (result->records->len, ==, N_RECORDS);
  for (guint i = 0; i < N_RECORDS; i++)
    {
      rec = &g_array_index (result->records, Rec, i);
      g_assert_cmpuint (rec->type, ==, types[i]);
      g_assert_cmpstr (ps_plv2_record_type_to_string (rec->type), !=, "UNKNOWN");
      g_assert_cmpuint (rec->seq, ==, i);
      g_assert_cmpuint (rec->flags, ==, 0);
      /* 8-aligned, one after the other (§8.2) */
      g_assert_cmpuint (rec->offset % 8, ==, 0);
      if (i == 0)
        g_assert_cmpuint (rec->offset, ==, 64);
      else
        {
          const Rec *before = &g_array_index (result->records, Rec, i - 1);

          g_assert_cmpuint (rec->offset, ==, before->offset + 16 + ((g_bytes_get_size (before->payload) + 7) & ~(gsize) 7));
        }
    }
  rec = &g_array_index (result->records, Rec, N_RECORDS - 1);
  g_assert_cmpuint (capture->len, ==, rec->offset + 32);

  /* SESSION: key=value lines */
  rec = &g_array_index (result->records, Rec, 0);
  payload = g_bytes_get_data (rec->payload, &size);
  g_assert_cmpmem (payload, size, "machine=WINBOX\nos_version=10.0\nos_build=19045\nwriter=perfscope-test\ninterval_ms=1000\n",
                   strlen ("machine=WINBOX\nos_version=10.0\nos_build=19045\nwriter=perfscope-test\ninterval_ms=1000\n"));
  g_assert_false (rec->has_utc);

  /* COUNTERSET_REG: GUID, three entries, each padded */
  rec = &g_array_index (result->records, Rec, 1);
  g_assert_cmpmem (rec->guid, 16, counterset_guid, 16);
  g_assert_cmpuint (rec->entry_count, ==, 3);
  g_assert_cmpuint (rec->n_entries, ==, 3);
  g_assert_cmpuint (rec->body_size, ==, (16 + 80) + (16 + 16) + 16);

  /* QUERY: generation, verbatim identifiers */
  rec = &g_array_index (result->records, Rec, 2);
  g_assert_cmpuint (rec->generation, ==, 1);
  g_assert_cmpuint (rec->body_size, ==, 40);

  /* SAMPLE: generation, status, time, the verbatim buffer */
  rec = &g_array_index (result->records, Rec, 3);
  payload = g_bytes_get_data (rec->payload, &size);
  g_assert_cmpuint (rec->generation, ==, 1);
  g_assert_cmpuint (rec->win32_status, ==, 0);
  g_assert_true (rec->has_utc);
  g_assert_cmpint (rec->utc, ==, UTC0 + 10000000);
  g_assert_cmpmem (payload + rec->body_start, rec->body_size, sample_buffer, sizeof sample_buffer);

  /* A failed SAMPLE carries no buffer (§8.4 rule 5) */
  rec = &g_array_index (result->records, Rec, 5);
  g_assert_cmphex (rec->win32_status, ==, 0x800007D0);
  g_assert_cmpuint (g_bytes_get_size (rec->payload), ==, 16);
  g_assert_cmpuint (rec->body_size, ==, 0);

  rec = &g_array_index (result->records, Rec, 6);
  g_assert_cmpmem (rec->guid, 16, counterset_guid, 16);
  g_assert_cmpint (rec->utc, ==, UTC0 + 31000000);
  g_assert_cmpuint (rec->body_size, ==, 24);

  rec = &g_array_index (result->records, Rec, 7);
  payload = g_bytes_get_data (rec->payload, &size);
  g_assert_cmpint (rec->utc, ==, UTC0 + 32000000);
  g_assert_cmpmem (payload + rec->body_start, rec->body_size, "mark: löad started", strlen ("mark: löad started"));

  /* §9.4.6: two generations, each sample names its own */
  g_assert_cmpuint (g_array_index (result->records, Rec, 8).generation, ==, 2);
  g_assert_cmpuint (g_array_index (result->records, Rec, 9).generation, ==, 2);
  g_assert_cmpuint (g_array_index (result->records, Rec, 9).body_size, ==, 72);
  g_assert_cmpuint (g_array_index (result->records, Rec, 4).generation, ==, 1);

  rec = &g_array_index (result->records, Rec, 10);
  g_assert_cmpuint (rec->sample_count, ==, 4);
  g_assert_cmpint (rec->utc, ==, UTC0 + 40000000);
}

/* Split at any byte: the same records and warnings */
static void
test_every_chunk_size (void)
{
  g_autoptr(GByteArray) capture = make_capture ();
  g_autoptr(Result) reference = read_capture (capture->data, capture->len, 0);

  for (gsize chunk = 1; chunk <= capture->len; chunk++)
    {
      g_autoptr(Result) result = read_capture (capture->data, capture->len, chunk);

      assert_same_result (reference, result);
    }
}

/* The stream writer writes the same bytes and flushes each record */
static void
test_stream_writer (void)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(PsPlv2Writer) array_writer = ps_plv2_writer_new_for_byte_array (array, NULL);
  g_autoptr(PsPlv2Writer) stream_writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Result) result = NULL;

  stream_writer = ps_plv2_writer_new_for_stream (stream, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stream_writer);

  for (guint i = 0; i < 2; i++)
    {
      PsPlv2Writer *writer = i == 0 ? array_writer : stream_writer;

      g_assert_true (ps_plv2_writer_add_query (writer, 7, NULL, 0, &error));
      g_assert_true (ps_plv2_writer_add_sample (writer, 7, 0, UTC0, sample_buffer, 21, &error));
      g_assert_true (ps_plv2_writer_add_end (writer, UTC0, &error));
      g_assert_no_error (error);
    }

  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (stream)),
                   g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)),
                   array->data, array->len);
  /* 21 bytes of buffer + 16 fixed: padded to 40 */
  g_assert_cmpuint (array->len, ==, 64 + (16 + 8) + (16 + 40) + (16 + 16));

  result = read_capture (array->data, array->len, 0);
  g_assert_no_error (result->error);
  g_assert_cmpuint (result->records->len, ==, 3);
  g_assert_cmpuint (g_array_index (result->records, Rec, 1).body_size, ==, 21);
  g_assert_cmpuint (g_array_index (result->records, Rec, 2).sample_count, ==, 1);

  /* A closed stream: the writer reports the failure and stays failed */
  g_assert_true (g_output_stream_close (stream, NULL, &error));
  g_assert_false (ps_plv2_writer_add_end (stream_writer, UTC0, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (ps_plv2_writer_add_end (stream_writer, UTC0, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_FAILED);
}

/* Every byte of every record flipped: that record is reported at its
 * offset; the records before it are kept, and those after it too where
 * §8.2 lets the reader go on (a skipped unknown type, bad padding). */
static void
test_flip_each_byte (void)
{
  g_autoptr(GByteArray) capture = make_capture ();
  g_autoptr(Result) reference = read_capture (capture->data, capture->len, 0);
  guint64 starts[N_RECORDS];
  guint64 ends[N_RECORDS];
  g_autofree guint8 *copy = g_memdup2 (capture->data, capture->len);
  guint n_continued = 0;
  guint n_stopped = 0;

  record_ranges (reference, capture->len, starts, ends);

  for (guint k = 0; k < N_RECORDS; k++)
    for (guint64 position = starts[k]; position < ends[k]; position++)
      for (guint pass = 0; pass < 2; pass++)
        {
          g_autoptr(Result) result = NULL;
          guint64 first_report = G_MAXUINT64;
          gboolean continued = FALSE;

          copy[position] ^= 0xFF;
          /* In one piece, then in 7-byte chunks */
          result = read_capture (copy, capture->len, pass == 0 ? 0 : 7);
          copy[position] ^= 0xFF;

          for (guint i = 0; i < result->warnings->len; i++)
            {
              const Warning *warning = &g_array_index (result->warnings, Warning, i);

              if (g_str_equal (warning->code, "W-PLV2-NO-END"))
                continue;
              first_report = MIN (first_report, warning->offset);
              if (warning->offset == starts[k]
                  && (g_str_equal (warning->code, "W-PLV2-UNKNOWN-TYPE")
                      || g_str_equal (warning->code, "W-PLV2-PADDING")))
                continued = TRUE;
            }
          if (result->error != NULL)
            first_report = MIN (first_report, error_offset (result->error));

          if (first_report != starts[k])
            g_error ("flipped byte %" G_GUINT64_FORMAT " of record %u (at %" G_GUINT64_FORMAT "): first report at %" G_GUINT64_FORMAT,
                     position, k, starts[k], first_report);

          /* The records before it, exactly */
          g_assert_cmpuint (result->records->len, >=, k);
          for (guint i = 0; i < k; i++)
            g_assert_true (rec_equal (&g_array_index (result->records, Rec, i),
                                      &g_array_index (reference->records, Rec, i), TRUE));

          if (continued)
            {
              /* Only the flipped record may be missing; the rest are kept
               * (their §8.4 flags may change when a QUERY was skipped) */
              guint skipped = result->records->len == N_RECORDS ? 0 : 1;

              g_assert_cmpuint (result->records->len, ==, N_RECORDS - skipped);
              for (guint i = k + skipped; i < N_RECORDS; i++)
                g_assert_true (rec_equal (&g_array_index (result->records, Rec, i - skipped),
                                          &g_array_index (reference->records, Rec, i), FALSE));
              n_continued++;
            }
          else
            {
              /* §8.2: the reading stopped at the damaged record */
              g_assert_cmpuint (result->records->len, ==, k);
              if (result->error == NULL)
                {
                  g_assert_true (result->damaged);
                  g_assert_cmpuint (result->damaged_offset, ==, starts[k]);
                }
              n_stopped++;
            }
        }

  g_test_message ("%u flips read past, %u stopped the reading", n_continued, n_stopped);
  /* Both behaviours were seen */
  g_assert_cmpuint (n_continued, >, 0);
  g_assert_cmpuint (n_stopped, >, 0);
}

/* Cut at every byte: what is complete is delivered; a partial record is
 * an error at its offset (§8.2, §9.4.1) */
static void
test_truncate_at_every_byte (void)
{
  g_autoptr(GByteArray) capture = make_capture ();
  g_autoptr(Result) reference = read_capture (capture->data, capture->len, 0);
  guint64 starts[N_RECORDS];
  guint64 ends[N_RECORDS];

  record_ranges (reference, capture->len, starts, ends);

  for (gsize length = 0; length <= capture->len; length++)
    {
      g_autoptr(Result) result = read_capture (capture->data, length, 0);
      g_autoptr(Result) chunked = read_capture (capture->data, length, 5);
      guint complete = 0;
      gboolean at_boundary = length == 64;
      guint64 samples = 0;

      assert_same_result (result, chunked);

      for (guint k = 0; k < N_RECORDS; k++)
        {
          if (ends[k] <= length)
            {
              complete++;
              if (g_array_index (reference->records, Rec, k).type == PS_PLV2_RECORD_SAMPLE)
                samples++;
            }
          if (ends[k] == length)
            at_boundary = TRUE;
        }

      g_assert_cmpuint (result->records->len, ==, complete);
      for (guint i = 0; i < complete; i++)
        g_assert_true (rec_equal (&g_array_index (result->records, Rec, i),
                                  &g_array_index (reference->records, Rec, i), TRUE));

      if (length < 64)
        {
          g_assert_error (result->error, PS_ERROR, PS_ERROR_TRUNCATED);
          g_assert_false (result->have_header);
        }
      else if (at_boundary)
        {
          g_assert_no_error (result->error);
          /* Only the complete file has its END */
          g_assert_cmpint (has_warning (result, "W-PLV2-NO-END", length), ==, length != capture->len);
        }
      else
        {
          g_autofree char *expected = g_strdup_printf ("truncated after %" G_GUINT64_FORMAT " samples", samples);

          g_assert_error (result->error, PS_ERROR, PS_ERROR_TRUNCATED);
          g_assert_cmpuint (error_offset (result->error), ==, starts[complete]);
          g_assert_nonnull (strstr (result->error->message, expected));
        }
    }
}

static void
set_bytes32 (guint8  *p,
             guint32  value)
{
  p[0] = value & 0xff;
  p[1] = (value >> 8) & 0xff;
  p[2] = (value >> 16) & 0xff;
  p[3] = value >> 24;
}

/* §9.4.1: a file cut in the middle of a SAMPLE */
static void
test_cut_in_sample (void)
{
  g_autoptr(GByteArray) capture = make_capture ();
  g_autoptr(Result) reference = read_capture (capture->data, capture->len, 0);
  const Rec *sample = &g_array_index (reference->records, Rec, 4);
  g_autoptr(Result) result = read_capture (capture->data, sample->offset + 16 + 40, 3);
  g_autofree char *expected = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, sample->offset);

  g_assert_error (result->error, PS_ERROR, PS_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (result->error->message, expected));
  g_assert_nonnull (strstr (result->error->message, "truncated after 1 samples"));
  g_assert_cmpuint (result->records->len, ==, 4);
  g_assert_cmpuint (result->n_samples, ==, 1);
}

/* §9.4.2: a CRC error in record 5 — records 0–4 usable */
static void
test_crc_error_in_record_5 (void)
{
  g_autoptr(GByteArray) capture = make_capture ();
  g_autoptr(Result) reference = read_capture (capture->data, capture->len, 0);
  guint64 offset = g_array_index (reference->records, Rec, 5).offset;
  g_autoptr(Result) result = NULL;

  /* The stored CRC of record 5 */
  capture->data[offset + 8] ^= 0x01;
  result = read_capture (capture->data, capture->len, 0);

  g_assert_no_error (result->error);
  g_assert_true (result->damaged);
  g_assert_cmpuint (result->damaged_offset, ==, offset);
  g_assert_true (has_warning (result, "W-PLV2-CRC", offset));
  g_assert_cmpuint (result->records->len, ==, 5);
  for (guint i = 0; i < 5; i++)
    g_assert_true (rec_equal (&g_array_index (result->records, Rec, i), &g_array_index (reference->records, Rec, i), TRUE));
  /* Nothing after it is read, not even for NO-END */
  g_assert_false (has_warning (result, "W-PLV2-NO-END", capture->len));
}

/* §8.2: a sequence gap and an impossible length also stop the reading */
static void
test_sequence_and_length (void)
{
  g_autoptr(GByteArray) capture = make_capture ();
  g_autoptr(Result) reference = read_capture (capture->data, capture->len, 0);
  guint64 offset = g_array_index (reference->records, Rec, 3).offset;
  g_autofree guint8 *copy = g_memdup2 (capture->data, capture->len);
  g_autoptr(Result) gap = NULL;
  g_autoptr(Result) length = NULL;

  set_bytes32 (copy + offset + 12, 4);
  gap = read_capture (copy, capture->len, 0);
  g_assert_no_error (gap->error);
  g_assert_true (has_warning (gap, "W-PLV2-SEQUENCE", offset));
  g_assert_cmpuint (gap->records->len, ==, 3);

  memcpy (copy, capture->data, capture->len);
  set_bytes32 (copy + offset + 4, PS_PLV2_MAX_PAYLOAD + 1);
  length = read_capture (copy, capture->len, 0);
  g_assert_no_error (length->error);
  g_assert_true (has_warning (length, "W-PLV2-LENGTH", offset));
  g_assert_cmpuint (length->records->len, ==, 3);
}

/* §9.4.3: unknown type 99 is skipped, 0x80000063 refused */
static void
test_unknown_types (void)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autoptr(PsPlv2Writer) writer = ps_plv2_writer_new_for_byte_array (array, NULL);
  g_autoptr(Result) result = NULL;
  g_autoptr(Result) refused = NULL;
  g_autoptr(GError) error = NULL;
  guint64 offset_99;
  guint64 offset_refused;
  const guint8 payload[5] = { 1, 2, 3, 4, 5 };

  g_assert_true (ps_plv2_writer_add_query (writer, 1, NULL, 0, &error));
  offset_99 = array->len;
  g_assert_true (ps_plv2_writer_add_record (writer, 99, payload, sizeof payload, &error));
  g_assert_true (ps_plv2_writer_add_sample (writer, 1, 0, UTC0, sample_buffer, sizeof sample_buffer, &error));
  offset_refused = array->len;
  g_assert_true (ps_plv2_writer_add_record (writer, 0x80000063, payload, sizeof payload, &error));
  g_assert_true (ps_plv2_writer_add_end (writer, UTC0, &error));
  g_assert_no_error (error);

  /* Up to the refused one: 99 skipped, the sample after it delivered
   * with its own sequence number */
  result = read_capture (array->data, offset_refused, 0);
  g_assert_no_error (result->error);
  g_assert_true (has_warning (result, "W-PLV2-UNKNOWN-TYPE", offset_99));
  g_assert_cmpuint (result->records->len, ==, 2);
  g_assert_cmpuint (g_array_index (result->records, Rec, 1).type, ==, PS_PLV2_RECORD_SAMPLE);
  g_assert_cmpuint (g_array_index (result->records, Rec, 1).seq, ==, 2);

  /* The whole file: refused at 0x80000063, what came before kept */
  refused = read_capture (array->data, array->len, 0);
  g_assert_error (refused->error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION);
  g_assert_cmpuint (error_offset (refused->error), ==, offset_refused);
  g_assert_nonnull (strstr (refused->error->message, "Unsupported feature"));
  g_assert_cmpuint (refused->records->len, ==, 2);

  /* The must-understand bit on a known type is fine */
  {
    g_autoptr(GByteArray) known = g_byte_array_new ();
    g_autoptr(PsPlv2Writer) known_writer = ps_plv2_writer_new_for_byte_array (known, NULL);
    g_autoptr(Result) known_result = NULL;
    guint8 annotation[8 + 2] = { 0 };

    annotation[8] = 'h';
    annotation[9] = 'i';
    g_assert_true (ps_plv2_writer_add_record (known_writer, PS_PLV2_MUST_UNDERSTAND | PS_PLV2_RECORD_ANNOTATION,
                                              annotation, sizeof annotation, &error));
    known_result = read_capture (known->data, known->len, 0);
    g_assert_no_error (known_result->error);
    g_assert_cmpuint (known_result->records->len, ==, 1);
    g_assert_cmpuint (g_array_index (known_result->records, Rec, 0).body_size, ==, 2);
  }
}

/* §9.4.4: version_major 2 refused; minor 7 with a 96-byte header read */
static void
test_versions (void)
{
  PsPlv2Header header;
  g_autoptr(GByteArray) major = g_byte_array_new ();
  g_autoptr(GByteArray) minor = g_byte_array_new ();
  g_autoptr(PsPlv2Writer) major_writer = NULL;
  g_autoptr(PsPlv2Writer) minor_writer = NULL;
  g_autoptr(Result) major_result = NULL;
  g_autoptr(Result) minor_result = NULL;
  g_autoptr(GError) error = NULL;

  ps_plv2_header_init (&header);
  header.version_major = 2;
  major_writer = ps_plv2_writer_new_for_byte_array (major, &header);
  g_assert_true (ps_plv2_writer_add_end (major_writer, UTC0, &error));
  major_result = read_capture (major->data, major->len, 0);
  g_assert_error (major_result->error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION);
  g_assert_cmpuint (major_result->records->len, ==, 0);

  ps_plv2_header_init (&header);
  header.version_minor = 7;
  header.header_size = 96;
  minor_writer = ps_plv2_writer_new_for_byte_array (minor, &header);
  /* Bytes a 1.7 header might carry: not read */
  g_assert_cmpuint (minor->len, ==, 96);
  memset (minor->data + 64, 0xAB, 32);
  g_assert_true (ps_plv2_writer_add_query (minor_writer, 1, NULL, 0, &error));
  /* A minor version may append fields to a payload: END with 8 more bytes */
  {
    guint8 end[24] = { 0 };

    g_assert_true (ps_plv2_writer_add_record (minor_writer, PS_PLV2_RECORD_END, end, sizeof end, &error));
  }
  g_assert_no_error (error);

  for (gsize chunk = 0; chunk < 100; chunk += 9)
    {
      minor_result = read_capture (minor->data, minor->len, chunk);
      g_assert_no_error (minor_result->error);
      g_assert_cmpuint (minor_result->header.version_minor, ==, 7);
      g_assert_cmpuint (minor_result->header.header_size, ==, 96);
      g_assert_cmpuint (minor_result->records->len, ==, 2);
      g_assert_cmpuint (g_array_index (minor_result->records, Rec, 0).offset, ==, 96);
      g_assert_cmpuint (g_array_index (minor_result->records, Rec, 1).body_size, ==, 8);
      g_assert_cmpuint (minor_result->warnings->len, ==, 0);
      g_clear_pointer (&minor_result, result_free);
    }

  /* Cut inside the longer header */
  minor_result = read_capture (minor->data, 80, 0);
  g_assert_error (minor_result->error, PS_ERROR, PS_ERROR_TRUNCATED);
  g_clear_pointer (&minor_result, result_free);

  /* A header_size below 64 is impossible */
  minor->data[12] = 32;
  minor_result = read_capture (minor->data, minor->len, 0);
  g_assert_error (minor_result->error, PS_ERROR, PS_ERROR_PARSE);
  g_clear_pointer (&minor_result, result_free);

  /* Flags: no CRC (damage undetectable, said once), unknown bits */
  minor->data[12] = 96;
  minor->data[16] = 0x02;
  minor_result = read_capture (minor->data, minor->len, 0);
  g_assert_no_error (minor_result->error);
  g_assert_true (has_warning (minor_result, "W-PLV2-FLAGS", 16));
  g_assert_cmpuint (minor_result->warnings->len, ==, 2);
  g_assert_cmpuint (minor_result->records->len, ==, 2);
  g_clear_pointer (&minor_result, result_free);

  /* A header_size that is not a multiple of 8: read, with a warning */
  {
    g_autoptr(GByteArray) odd = g_byte_array_new ();
    g_autoptr(PsPlv2Writer) odd_writer = NULL;

    ps_plv2_header_init (&header);
    header.header_size = 100;
    odd_writer = ps_plv2_writer_new_for_byte_array (odd, &header);
    g_assert_true (ps_plv2_writer_add_end (odd_writer, UTC0, &error));
    minor_result = read_capture (odd->data, odd->len, 3);
    g_assert_no_error (minor_result->error);
    g_assert_true (has_warning (minor_result, "W-PLV2-HEADER", 12));
    g_assert_cmpuint (minor_result->records->len, ==, 1);
    g_assert_cmpuint (g_array_index (minor_result->records, Rec, 0).offset, ==, 100);
  }
}

/* §9.4.5, §8.4: a SAMPLE before its QUERY, generations going back. The
 * container flags them; that a COUNTERSET_REG came first is the PerfLib
 * decoder's check (it needs the GUIDs inside the QUERY). */
static void
test_order (void)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autoptr(PsPlv2Writer) writer = ps_plv2_writer_new_for_byte_array (array, NULL);
  g_autoptr(Result) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (ps_plv2_writer_add_sample (writer, 1, 0, UTC0, sample_buffer, sizeof sample_buffer, &error));
  g_assert_true (ps_plv2_writer_add_query (writer, 1, NULL, 0, &error));
  g_assert_true (ps_plv2_writer_add_sample (writer, 1, 0, UTC0, sample_buffer, sizeof sample_buffer, &error));
  g_assert_true (ps_plv2_writer_add_query (writer, 1, NULL, 0, &error));
  g_assert_true (ps_plv2_writer_add_sample (writer, 3, 0, UTC0, sample_buffer, sizeof sample_buffer, &error));
  g_assert_true (ps_plv2_writer_add_end (writer, UTC0, &error));
  g_assert_true (ps_plv2_writer_add_annotation (writer, UTC0, "late", &error));
  g_assert_no_error (error);

  result = read_capture (array->data, array->len, 0);
  g_assert_no_error (result->error);
  g_assert_cmpuint (result->records->len, ==, 7);
  g_assert_cmpuint (g_array_index (result->records, Rec, 0).flags, ==, PS_PLV2_RECORD_FLAG_NO_QUERY);
  g_assert_true (has_warning (result, "W-PLV2-NO-QUERY", g_array_index (result->records, Rec, 0).offset));
  g_assert_cmpuint (g_array_index (result->records, Rec, 2).flags, ==, 0);
  g_assert_cmpuint (g_array_index (result->records, Rec, 3).flags, ==, PS_PLV2_RECORD_FLAG_OUT_OF_ORDER);
  g_assert_true (has_warning (result, "W-PLV2-GENERATION", g_array_index (result->records, Rec, 3).offset));
  g_assert_cmpuint (g_array_index (result->records, Rec, 4).flags, ==, PS_PLV2_RECORD_FLAG_NO_QUERY);
  g_assert_true (has_warning (result, "W-PLV2-AFTER-END", g_array_index (result->records, Rec, 6).offset));
  g_assert_cmpuint (result->warnings->len, ==, 4);
}

/* §9.4.7: empty file, only the header, wrong magic */
static void
test_empty_header_only_magic (void)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autoptr(PsPlv2Writer) writer = ps_plv2_writer_new_for_byte_array (array, NULL);
  g_autoptr(Result) empty = read_capture (NULL, 0, 0);
  g_autoptr(Result) header_only = NULL;
  g_autoptr(Result) magic = NULL;
  g_autoptr(Result) short_magic = NULL;
  g_autoptr(Result) short_header = NULL;

  g_assert_error (empty->error, PS_ERROR, PS_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (empty->error->message, "byte offset 0"));

  header_only = read_capture (array->data, array->len, 1);
  g_assert_no_error (header_only->error);
  g_assert_true (header_only->have_header);
  g_assert_cmpuint (header_only->records->len, ==, 0);
  g_assert_true (has_warning (header_only, "W-PLV2-NO-END", 64));
  g_assert_cmpuint (ps_plv2_sniff (array->data, array->len), ==, 100);

  short_header = read_capture (array->data, 20, 0);
  g_assert_error (short_header->error, PS_ERROR, PS_ERROR_TRUNCATED);

  array->data[3] = '3';
  g_assert_cmpuint (ps_plv2_sniff (array->data, array->len), ==, 0);
  magic = read_capture (array->data, array->len, 0);
  g_assert_error (magic->error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
  g_assert_false (magic->have_header);
  short_magic = read_capture (array->data, 6, 0);
  g_assert_error (short_magic->error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
}

/* COUNTERSET_REG entries that do not fit */
static void
test_reg_entries (void)
{
  guint8 payload[24 + 16 + 8] = { 0 };
  PsPlv2Record record = { 0 };
  PsPlv2RegIter iter;
  PsPlv2RegEntry entry;
  g_autoptr(GError) error = NULL;

  record.type = PS_PLV2_RECORD_COUNTERSET_REG;
  record.offset = 64;
  record.payload = payload;
  record.payload_size = sizeof payload;
  record.entry_count = 2;
  record.body = payload + 24;
  record.body_size = sizeof payload - 24;
  set_bytes32 (payload + 24, 1);
  set_bytes32 (payload + 24 + 12, 5);

  ps_plv2_reg_iter_init (&iter, &record);
  g_assert_true (ps_plv2_reg_iter_next (&iter, &entry, &error));
  g_assert_cmpuint (entry.request_code, ==, 1);
  g_assert_cmpuint (entry.data_size, ==, 5);
  g_assert_true (entry.data == payload + 40);
  /* The second announced entry is not there */
  g_assert_false (ps_plv2_reg_iter_next (&iter, &entry, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_clear_error (&error);
  g_assert_false (ps_plv2_reg_iter_next (&iter, &entry, &error));
  g_assert_no_error (error);

  /* data_size past the end */
  set_bytes32 (payload + 24 + 12, 9);
  ps_plv2_reg_iter_init (&iter, &record);
  g_assert_false (ps_plv2_reg_iter_next (&iter, &entry, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "byte offset 104"));
  g_clear_error (&error);

  /* Another record type has no entries */
  record.type = PS_PLV2_RECORD_QUERY;
  ps_plv2_reg_iter_init (&iter, &record);
  g_assert_false (ps_plv2_reg_iter_next (&iter, &entry, &error));
  g_assert_no_error (error);
}

/* A known type whose payload is shorter than its fixed fields; bad padding */
static void
test_short_payload_and_padding (void)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autoptr(PsPlv2Writer) writer = ps_plv2_writer_new_for_byte_array (array, NULL);
  g_autoptr(Result) result = NULL;
  g_autoptr(GError) error = NULL;
  guint64 short_offset = array->len;
  guint64 padding_offset;
  const guint8 three[3] = { 1, 2, 3 };

  g_assert_true (ps_plv2_writer_add_record (writer, PS_PLV2_RECORD_SAMPLE, three, sizeof three, &error));
  padding_offset = array->len;
  g_assert_true (ps_plv2_writer_add_annotation (writer, UTC0, "abc", &error));
  g_assert_true (ps_plv2_writer_add_end (writer, UTC0, &error));
  g_assert_no_error (error);
  /* The last padding byte of the annotation (8 + 3 payload bytes) */
  array->data[padding_offset + 16 + 15] = 0x20;

  result = read_capture (array->data, array->len, 0);
  g_assert_no_error (result->error);
  g_assert_true (has_warning (result, "W-PLV2-SHORT-PAYLOAD", short_offset));
  g_assert_true (has_warning (result, "W-PLV2-PADDING", padding_offset));
  g_assert_cmpuint (result->records->len, ==, 2);
  g_assert_cmpuint (g_array_index (result->records, Rec, 0).type, ==, PS_PLV2_RECORD_ANNOTATION);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plv2/crc32", test_crc32);
  g_test_add_func ("/plv2/round-trip", test_round_trip);
  g_test_add_func ("/plv2/every-chunk-size", test_every_chunk_size);
  g_test_add_func ("/plv2/stream-writer", test_stream_writer);
  g_test_add_func ("/plv2/flip-each-byte", test_flip_each_byte);
  g_test_add_func ("/plv2/truncate-at-every-byte", test_truncate_at_every_byte);
  g_test_add_func ("/plv2/9.4/cut-in-sample", test_cut_in_sample);
  g_test_add_func ("/plv2/9.4/crc-error-in-record-5", test_crc_error_in_record_5);
  g_test_add_func ("/plv2/sequence-and-length", test_sequence_and_length);
  g_test_add_func ("/plv2/9.4/unknown-types", test_unknown_types);
  g_test_add_func ("/plv2/9.4/versions", test_versions);
  g_test_add_func ("/plv2/9.4/order", test_order);
  g_test_add_func ("/plv2/9.4/empty-header-only-magic", test_empty_header_only_magic);
  g_test_add_func ("/plv2/reg-entries", test_reg_entries);
  g_test_add_func ("/plv2/short-payload-and-padding", test_short_payload_and_padding);

  return g_test_run ();
}

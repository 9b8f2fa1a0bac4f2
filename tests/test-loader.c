/* test-loader.c — streaming, progress, cancellation and read errors
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#ifdef __linux__
#include <sys/resource.h>
#endif
#include <unistd.h>

#include <string.h>

#include <glib/gstdio.h>

#include "ps-error.h"
#include "ps-loader.h"
#include "ps-util.h"

static const char example[] =
  "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
  "## PERF ## REGISTERED APP [fsperf] PROCCESSID [0x0a5f0012]\r\n"
  "## PERF ## RESOLUTION [1193180] TICKS PER SECOND\r\n"
  "## PERF ## REGISTERED MARKER [Test=CreateFile] AS [0] BY APP [fsperf]\r\n"
  "## PERF ## APP [fsperf] EVT [0] DUR [45210]\r\n"
  "## PERF ## APP [fsperf] EVT [0] DUR [44987]\r\n"
  "## PERF ## APP [fsperf] EVT [0] DUR [46002]\r\n";

/* A stream that hands out its data and then fails, like a disk going away */
#define TEST_TYPE_FAILING_STREAM (test_failing_stream_get_type ())
G_DECLARE_FINAL_TYPE (TestFailingStream, test_failing_stream, TEST, FAILING_STREAM, GInputStream)

struct _TestFailingStream
{
  GInputStream parent_instance;
  GBytes      *data;
  gsize        fail_after;
  gsize        position;
};

G_DEFINE_FINAL_TYPE (TestFailingStream, test_failing_stream, G_TYPE_INPUT_STREAM)

static gssize
test_failing_stream_read (GInputStream  *stream,
                          void          *buffer,
                          gsize          count,
                          GCancellable  *cancellable,
                          GError       **error)
{
  TestFailingStream *self = TEST_FAILING_STREAM (stream);
  gsize available;

  if (self->position >= self->fail_after)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Input/output error");
      return -1;
    }

  available = MIN (self->fail_after, g_bytes_get_size (self->data)) - self->position;
  count = MIN (count, MIN (available, 7));
  memcpy (buffer, (const guint8 *)g_bytes_get_data (self->data, NULL) + self->position, count);
  self->position += count;
  return count;
}

static void
test_failing_stream_finalize (GObject *object)
{
  g_bytes_unref (TEST_FAILING_STREAM (object)->data);
  G_OBJECT_CLASS (test_failing_stream_parent_class)->finalize (object);
}

static void
test_failing_stream_class_init (TestFailingStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_failing_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = test_failing_stream_read;
}

static void
test_failing_stream_init (TestFailingStream *self)
{
}

static GInputStream *
memory_stream (const char *text,
               gsize       length)
{
  return g_memory_input_stream_new_from_data (g_memdup2 (text, length), length, g_free);
}

static char *
write_temp_file (const char *contents,
                 gsize       length)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("perfscope-test-XXXXXX.log", &path, &error);

  g_assert_no_error (error);
  g_close (fd, NULL);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  return path;
}

/* A summary of a store that does not depend on how it was read */
static char *
describe_store (PsEventStore *store)
{
  GString *out = g_string_new (NULL);
  PsMeasurementIter iter;
  PsMeasurement m;

  g_string_append_printf (out, "format=%s sessions=%u tracks=%u\n",
                          ps_event_store_get_format (store),
                          ps_event_store_get_n_sessions (store),
                          ps_event_store_get_n_tracks (store));
  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    g_string_append_printf (out, "%" G_GUINT64_FORMAT " line %" G_GUINT64_FORMAT " track %u kind %u ticks %" G_GINT64_FORMAT "\n",
                            m.index, m.line, m.track, m.kind, m.value.ticks);
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_string_append_printf (out, "warning %s line %" G_GUINT64_FORMAT "\n", warning.code, warning.line);
    }

  return g_string_free (out, FALSE);
}

static void
test_chunk_boundaries (void)
{
  g_autoptr(GInputStream) whole_stream = memory_stream (example, strlen (example));
  g_autoptr(PsEventStore) whole = ps_load_stream (whole_stream, "example.log", NULL, NULL, NULL);
  g_autofree char *expected = NULL;

  g_assert_nonnull (whole);
  g_assert_cmpuint (ps_event_store_get_n_measurements (whole), ==, 3);
  expected = describe_store (whole);

  for (gsize chunk = 1; chunk <= strlen (example); chunk++)
    {
      g_autoptr(GInputStream) stream = memory_stream (example, strlen (example));
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = ps_load_stream (stream, "example.log", &(PsLoadParams) { .chunk_size = chunk },
                                                      NULL, &error);
      g_autofree char *got = NULL;

      g_assert_no_error (error);
      g_assert_true (ps_event_store_is_complete (store));
      got = describe_store (store);
      g_assert_cmpstr (got, ==, expected);
    }
}

static void
test_unknown_format (void)
{
  const guint8 blob[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0xff, 0xfe, 0x00, 0x01 };
  g_autoptr(GInputStream) stream = memory_stream ((const char *)blob, sizeof blob);
  g_autoptr(GInputStream) empty = memory_stream ("", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = ps_load_stream (stream, "a.out", NULL, NULL, &error);

  g_assert_null (store);
  g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "a.out"));
  g_clear_error (&error);

  store = ps_load_stream (empty, "empty.log", NULL, NULL, &error);
  g_assert_null (store);
  g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "empty"));
}

/* Sniffing looks at the first PS_FORMAT_SNIFF_SIZE bytes, as the error
 * says, however much was read at first */
static void
test_sniff_window (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autofree char *size = g_strdup_printf ("%d bytes", PS_FORMAT_SNIFF_SIZE);

  while (text->len <= PS_FORMAT_SNIFF_SIZE)
    g_string_append_printf (text, "note %zu: nothing of any format\n", text->len);
  g_string_append (text, example);

  stream = memory_stream (text->str, text->len);
  store = ps_load_stream (stream, "late.log", NULL, NULL, &error);
  g_assert_null (store);
  g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, size));
}

static void
test_forced_format_on_empty_input (void)
{
  g_autoptr(GInputStream) empty = memory_stream ("", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = ps_load_stream (empty, "empty.log",
                                                  &(PsLoadParams) { .format = ps_format_lookup ("ce-perflog") }, NULL,
                                                  &error);

  /* An empty input is no file of any format, forced or not (cli.md, exit 1) */
  g_assert_null (store);
  g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "empty.log"));
  g_assert_nonnull (strstr (error->message, "is empty"));
}

/* A format forced on a file of which it reads nothing is an error that
 * says why, whether the parser failed or only ignored every line */
static void
test_forced_format_reads_nothing (void)
{
  static const char pdh[] = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\H\\Memory\\Available MBytes\"\r\n"
                            "\"01/01/2024 00:00:00.000\",\"1\"\r\n";
  static const char * const formats[] = { "ce-perflog", "rtl-logfile", "vs-report-csv", "pmcstat-callgraph",
                                          "hwpmc-pmclog", "perflib-plv2", "perfscope" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GInputStream) stream = memory_stream (pdh, sizeof pdh - 1);
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = ps_load_stream (stream, "counters.csv",
                                                      &(PsLoadParams) { .format = ps_format_lookup (formats[i]) },
                                                      NULL, &error);
      g_autofree char *expected = g_strdup_printf ("Not a “%s” file: ", formats[i]);

      g_test_message ("%s: %s", formats[i], error != NULL ? error->message : "(no error)");
      g_assert_null (store);
      g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
      g_assert_true (g_str_has_prefix (error->message, expected));
      /* … and why */
      g_assert_cmpuint (strlen (error->message), >, strlen (expected) + 10);
    }
}

static void
test_read_error_keeps_data (void)
{
  TestFailingStream *failing = g_object_new (TEST_TYPE_FAILING_STREAM, NULL);
  g_autoptr(GInputStream) stream = G_INPUT_STREAM (failing);
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = NULL;
  /* Fail in the middle of the third DUR line: two events are complete */
  const char *third = strstr (example, "DUR [46002]");

  failing->data = g_bytes_new_static (example, strlen (example));
  failing->fail_after = third - example;

  store = ps_load_stream (stream, "disk.log", &(PsLoadParams) { .chunk_size = 16 }, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_false (ps_event_store_is_complete (store));
  g_assert_nonnull (ps_event_store_get_error (store));
  g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, "byte offset"));
  g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, "Input/output error"));
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 2);
}

/* A CE log of n events whose durations are their numbers */
static GBytes *
numbered_log (guint n)
{
  GString *text = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                "## PERF ## REGISTERED MARKER [Test=Big] AS [0] BY APP [app]\r\n");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", i);
  return g_string_free_to_bytes (text);
}

static PsEventStore *
load_limited (GBytes     *bytes,
              const char *max_events,
              gsize       chunk_size)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr(GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  g_hash_table_insert (options, (gpointer) PS_LOADER_OPTION_MAX_EVENTS, (gpointer) max_events);
  store = ps_load_stream (stream, "big.log",
                          &(PsLoadParams) {
                            .options = options,
                            .chunk_size = chunk_size,
                            .total_size = g_bytes_get_size (bytes),
                          },
                          NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

/* The measurements are the first of the file, in order, and the input
 * stopped at a line end */
static void
assert_limited (PsEventStore *store,
                GBytes       *bytes,
                guint64       max_events,
                guint64       at_most)
{
  const GError *error = ps_event_store_get_error (store);
  guint64 n = ps_event_store_get_n_measurements (store);
  guint64 read = ps_event_store_get_bytes_read (store);
  g_autofree char *kept = g_strdup_printf ("%" G_GUINT64_FORMAT " events were kept", n);
  g_autofree char *offset = g_strdup_printf ("from byte offset %" G_GUINT64_FORMAT " ", read);
  const char *data = g_bytes_get_data (bytes, NULL);

  g_assert_false (ps_event_store_is_complete (store));
  g_assert_error (error, PS_ERROR, PS_ERROR_LIMIT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, kept));
  g_assert_nonnull (strstr (error->message, offset));
  g_assert_cmpuint (n, >=, max_events);
  g_assert_cmpuint (n, <=, at_most);
  g_assert_cmpuint (read, <, g_bytes_get_size (bytes));
  g_assert_cmpint (data[read - 1], ==, '\n');
  for (guint64 i = 0; i < n; i++)
    {
      PsMeasurement m;

      ps_event_store_get_measurement (store, i, &m);
      g_assert_cmpint (m.value.ticks, ==, (gint64) i);
    }
  /* Nothing was cut: no line is reported incomplete */
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_assert_false (g_str_has_prefix (warning.code, "W-TRUNCATED"));
    }
}

/* The limit of events kept: reading stops at the end of the line it was
 * reached in, keeps what it read and says what was not read */
static void
test_max_events (void)
{
  /* About 45 bytes an event: 64 KiB hold about 1 500 */
  g_autoptr(GBytes) small = numbered_log (10000);
  g_autoptr(GBytes) large = numbered_log (60000);
  g_autoptr(PsEventStore) fed = load_limited (small, "1000", 0);
  g_autoptr(PsEventStore) staged = load_limited (large, "40000", 64 * 1024);
  g_autoptr(PsEventStore) unlimited = load_limited (small, "0", 0);
  g_autoptr(PsEventStore) above = load_limited (small, "10002", 0);

  /* One event a line: exactly the limit, in the first block and after it,
   * where the read-ahead thread stops scanning near the limit */
  assert_limited (fed, small, 1000, 1000);
  assert_limited (staged, large, 40000, 40000);

  g_assert_true (ps_event_store_is_complete (unlimited));
  g_assert_cmpuint (ps_event_store_get_n_measurements (unlimited), ==, 10000);
  g_assert_true (ps_event_store_is_complete (above));
  g_assert_cmpuint (ps_event_store_get_n_measurements (above), ==, 10000);
}

/* A PLV2 capture (a parser in two stages too) stops between records:
 * no record reported cut, no END reported missing */
static void
test_max_events_plv2 (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", "processor_4cpu.plv2", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  g_autoptr(GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (stream);
  g_hash_table_insert (options, (gpointer) PS_LOADER_OPTION_MAX_EVENTS, (gpointer) "40000");
  store = ps_load_stream (G_INPUT_STREAM (stream), "processor_4cpu.plv2",
                          &(PsLoadParams) { .options = options, .chunk_size = 64 * 1024 }, NULL, &error);
  g_assert_no_error (error);
  g_assert_error (ps_event_store_get_error (store), PS_ERROR, PS_ERROR_LIMIT);
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), >=, 40000);
  /* Near the limit the input is fed, not scanned ahead: the reading stops
   * within the sample that reached it (140 readings each) */
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), <, 40000 + 140);
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_test_message ("%s %s", warning.code, warning.message);
      g_assert_cmpstr (warning.code, !=, "I-PLV2-NO-END");
      g_assert_null (strstr (warning.message, "ends inside"));
    }
}

/* The same after the read-ahead has started, which scans ahead for the
 * CE parser: what was read before the error is kept, in order */
static void
test_read_error_after_read_ahead (void)
{
  TestFailingStream *failing = g_object_new (TEST_TYPE_FAILING_STREAM, NULL);
  g_autoptr(GInputStream) stream = G_INPUT_STREAM (failing);
  g_autoptr(GString) text = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                          "## PERF ## REGISTERED MARKER [Test=Big] AS [0] BY APP [app]\r\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = NULL;
  PsMeasurement last;
  guint n_before = 0;

  for (guint i = 0; i < 20000; i++)
    {
      /* Fail after 15000 events, in the middle of the next line */
      if (i == 15000)
        failing->fail_after = text->len + 20;
      g_string_append_printf (text, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", 40000 + i);
      n_before += i < 15000;
    }
  g_assert_cmpuint (failing->fail_after, >, 4 * PS_FORMAT_SNIFF_SIZE);
  failing->data = g_bytes_new (text->str, text->len);

  store = ps_load_stream (stream, "disk.log", &(PsLoadParams) { .chunk_size = 4096 }, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_false (ps_event_store_is_complete (store));
  g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, "Input/output error"));
  g_assert_cmpuint (ps_event_store_get_bytes_read (store), ==, failing->fail_after);
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, n_before);
  ps_event_store_get_measurement (store, n_before - 1, &last);
  g_assert_cmpint (last.value.ticks, ==, 40000 + 14999);
  g_assert_cmpuint (last.line, ==, 2 + 15000);
}

/* A regular file is mapped a chunk at a time: the same events as read
 * from a stream, whatever the chunk size */
static void
test_mapped_file (void)
{
  g_autoptr(GString) text = g_string_new ("## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                                          "## PERF ## REGISTERED MARKER [Test=Big] AS [0] BY APP [app]\r\n");
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GInputStream) memory = NULL;
  g_autoptr(PsEventStore) expected_store = NULL;
  g_autofree char *expected = NULL;
  int fd;

  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (text, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", 40000 + i);
  fd = g_file_open_tmp ("perfscope-mapped-XXXXXX.log", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  file = g_file_new_for_path (path);

  memory = memory_stream (text->str, text->len);
  expected_store = ps_load_stream (memory, "disk.log", &(PsLoadParams) { .chunk_size = 4096 }, NULL, NULL);
  g_assert_cmpuint (ps_event_store_get_n_measurements (expected_store), ==, 20000);
  expected = describe_store (expected_store);

  for (guint i = 0; i < 3; i++)
    {
      gsize chunk = i == 0 ? 4096 : i == 1 ? 4096 * 3 + 5 : PS_LOADER_CHUNK_SIZE;
      g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = ps_load_stream (G_INPUT_STREAM (stream), "disk.log",
                                                      &(PsLoadParams) { .chunk_size = chunk }, NULL, &error);
      g_autofree char *got = NULL;

      g_assert_no_error (error);
      g_assert_true (ps_event_store_is_complete (store));
      got = describe_store (store);
      g_assert_cmpstr (got, ==, expected);
    }
  g_unlink (path);
}

typedef struct
{
  const char *path;
  gboolean    cut;
} CutAfterFirst;

/* After the first block: the reading thread has mapped the chunks after
 * it by now; the file is cut at 64 KiB, under them */
static void
cut_after_first_block (guint64  bytes,
                       gpointer data)
{
  CutAfterFirst *cut = data;

  if (cut->cut)
    return;
  cut->cut = TRUE;
  g_usleep (200 * 1000);
  {
    int fd = g_open (cut->path, O_WRONLY, 0);

    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (ftruncate (fd, PS_FORMAT_SNIFF_SIZE), ==, 0);
    close (fd);
  }
}

/* A file truncated by another program while it is mapped: no crash, a
 * clear error, and the events read before it kept */
static void
test_file_cut_while_mapped (void)
{
  g_autoptr(GString) text = g_string_new ("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\PC\\Memory\\Pages/sec\"\n");
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PsEventStore) store = NULL;
  CutAfterFirst cut = { NULL, FALSE };
  guint n_rows_before = 0;
  int fd;

  for (guint i = 0; i < 20000; i++)
    {
      g_string_append_printf (text, "\"01/01/2024 00:%02u:%02u.000\",\"%u\"\n", (i / 60) % 60, i % 60, i);
      n_rows_before += text->len <= PS_FORMAT_SNIFF_SIZE;
    }
  fd = g_file_open_tmp ("perfscope-cut-XXXXXX.csv", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  file = g_file_new_for_path (path);
  stream = g_file_read (file, NULL, NULL);
  cut.path = path;

  store = ps_load_stream (G_INPUT_STREAM (stream), "cut.csv",
                          &(PsLoadParams) {
                            .format = ps_format_lookup ("pdh-csv"),
                            .chunk_size = 4096,
                            .progress = cut_after_first_block,
                            .progress_data = &cut,
                          },
                          NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_true (cut.cut);
  g_assert_false (ps_event_store_is_complete (store));
  g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, "became shorter"));
  g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, "byte offset 65536"));
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), >=, n_rows_before);
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (store), <, 20000);
  g_unlink (path);
}

typedef struct
{
  GMainLoop    *loop;
  PsEventStore *store;
  GError       *error;
  guint         n_fraction_notifies;
  double        last_fraction;
  gboolean      fraction_went_down;
  GCancellable *cancel_on_progress;
  int           main_nice;          /* the calling thread's, during the load */
  int           nicest_other;       /* the highest of the other threads' */
} AsyncState;

/* The nice of thread tid of this process (field 19 of its stat), or
 * G_MININT when it cannot be read (it ended) */
static int
thread_nice (const char *tid)
{
  g_autofree char *path = g_strdup_printf ("/proc/self/task/%s/stat", tid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  if (!g_file_get_contents (path, &contents, NULL, NULL) || (after_name = strrchr (contents, ')')) == NULL)
    return G_MININT;
  /* After the name: field 3 (the state) on */
  fields = g_strsplit (after_name + 2, " ", -1);
  return g_strv_length (fields) > 16 ? atoi (fields[16]) : G_MININT;
}

/* Notes the nice of the calling thread and the highest of the others */
static void
note_thread_nices (AsyncState *state)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  g_autofree char *own = g_strdup_printf ("%d", (int)getpid ());
  const char *tid;

  if (dir == NULL)
    return;
  state->main_nice = thread_nice (own);
  while ((tid = g_dir_read_name (dir)) != NULL)
    if (strcmp (tid, own) != 0)
      state->nicest_other = MAX (state->nicest_other, thread_nice (tid));
}

static void
on_loaded (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  AsyncState *state = user_data;

  state->store = ps_loader_load_finish (PS_LOADER (object), result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
on_fraction (PsLoader   *loader,
             GParamSpec *pspec,
             AsyncState *state)
{
  double fraction = ps_loader_get_fraction (loader);

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  if (fraction < state->last_fraction)
    state->fraction_went_down = TRUE;
  state->last_fraction = fraction;
  state->n_fraction_notifies++;
  if (fraction > 0 && fraction < 1)
    note_thread_nices (state);
  if (state->cancel_on_progress && fraction > 0 && fraction < 1)
    g_cancellable_cancel (state->cancel_on_progress);
}

static char *
write_big_file (gsize  target_size,
                guint *n_events)
{
  GString *text = g_string_sized_new (target_size + 256);
  char *path;

  g_string_append (text, "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n"
                         "## PERF ## RESOLUTION [1193180] TICKS PER SECOND\r\n"
                         "## PERF ## REGISTERED MARKER [Test=Big] AS [0] BY APP [app]\r\n");
  *n_events = 0;
  for (guint i = 0; text->len < target_size; i++, (*n_events)++)
    g_string_append_printf (text, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", 40000 + i % 5000);

  path = write_temp_file (text->str, text->len);
  g_string_free (text, TRUE);
  return path;
}

static void
test_async_progress (void)
{
  guint n_events;
  g_autofree char *path = write_big_file (8 * 1024 * 1024, &n_events);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PsLoader) loader = ps_loader_new (file);
  AsyncState state = { g_main_loop_new (NULL, FALSE), .nicest_other = G_MININT };
  gint64 start_us = g_get_monotonic_time ();
  gint64 elapsed_us;

  g_signal_connect (loader, "notify::fraction", G_CALLBACK (on_fraction), &state);
  ps_loader_load_async (loader, NULL, on_loaded, &state);
  g_main_loop_run (state.loop);
  elapsed_us = g_get_monotonic_time () - start_us;

  g_assert_no_error (state.error);
  g_assert_nonnull (state.store);
  g_assert_true (ps_event_store_is_complete (state.store));
  g_assert_true (g_file_equal (ps_event_store_get_file (state.store), file));
  g_assert_cmpstr (ps_event_store_get_format (state.store), ==, "ce-perflog");
  {
    GStatBuf st;

    g_assert_cmpint (g_stat (path, &st), ==, 0);
    g_assert_cmpuint (ps_event_store_get_bytes_read (state.store), ==, (guint64)st.st_size);
  }
  g_assert_cmpuint (ps_event_store_get_n_measurements (state.store), ==, n_events);
  g_assert_cmpuint (n_events, >, 100000);
  g_assert_cmpfloat (ps_loader_get_fraction (loader), ==, 1.0);
  g_assert_cmpuint (state.n_fraction_notifies, >=, 2);
  /* The progress is published at once, then at most four times a second
   * (each redraws the window), and at the end */
  g_assert_cmpuint (state.n_fraction_notifies, <=, 2 + elapsed_us / (250 * G_TIME_SPAN_MILLISECOND));
  g_assert_false (state.fraction_went_down);
#ifdef __linux__
  /* The load's threads leave the window's thread a core first */
  g_test_message ("nice during the load: %d for the main thread, up to %d for the others", state.main_nice,
                  state.nicest_other);
  g_assert_cmpint (state.main_nice, ==, 0);
  g_assert_cmpint (state.nicest_other, ==, 10);
#endif

  g_signal_handlers_disconnect_by_data (loader, &state);
  g_unlink (path);
  g_clear_object (&state.store);
  g_main_loop_unref (state.loop);
}

#ifdef __linux__
static gpointer
lower_and_read (gpointer data)
{
  int *before = data;

  if (*before != 0)
    g_assert_cmpint (setpriority (PRIO_PROCESS, 0, *before), ==, 0);
  ps_util_lower_thread_priority ();
  return GINT_TO_POINTER (getpriority (PRIO_PROCESS, 0));
}
#endif

/* A thread lowered for background work gets nice 10, and a thread
 * already lower keeps its own; the calling thread's is not touched */
static void
test_lower_thread_priority (void)
{
#ifdef __linux__
  int before[] = { 0, 15 };
  int expected[] = { 10, 15 };

  for (guint i = 0; i < G_N_ELEMENTS (before); i++)
    {
      GThread *thread = g_thread_new ("lowered", lower_and_read, &before[i]);

      g_assert_cmpint (GPOINTER_TO_INT (g_thread_join (thread)), ==, expected[i]);
    }
  g_assert_cmpint (getpriority (PRIO_PROCESS, 0), ==, 0);
#else
  g_test_skip ("Thread priorities are lowered on Linux only");
#endif
}

static void
test_async_cancel (void)
{
  guint n_events;
  g_autofree char *path = write_big_file (32 * 1024 * 1024, &n_events);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PsLoader) loader = ps_loader_new (file);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncState state = { g_main_loop_new (NULL, FALSE) };

  state.cancel_on_progress = cancellable;
  g_signal_connect (loader, "notify::fraction", G_CALLBACK (on_fraction), &state);
  ps_loader_load_async (loader, cancellable, on_loaded, &state);
  g_main_loop_run (state.loop);

  g_assert_null (state.store);
  g_assert_error (state.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat (state.last_fraction, <, 1.0);

  g_clear_error (&state.error);
  g_signal_handlers_disconnect_by_data (loader, &state);
  g_unlink (path);
  g_main_loop_unref (state.loop);
}

static void
test_async_missing_file (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/perfscope/run.log");
  g_autoptr(PsLoader) loader = ps_loader_new (file);
  AsyncState state = { g_main_loop_new (NULL, FALSE) };

  ps_loader_load_async (loader, NULL, on_loaded, &state);
  g_main_loop_run (state.loop);

  g_assert_null (state.store);
  g_assert_error (state.error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&state.error);
  g_main_loop_unref (state.loop);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/loader/chunk-boundaries", test_chunk_boundaries);
  g_test_add_func ("/loader/forced-format-reads-nothing", test_forced_format_reads_nothing);
  g_test_add_func ("/loader/max-events", test_max_events);
  g_test_add_func ("/loader/max-events-plv2", test_max_events_plv2);
  g_test_add_func ("/loader/unknown-format", test_unknown_format);
  g_test_add_func ("/loader/sniff-window", test_sniff_window);
  g_test_add_func ("/loader/forced-format-empty", test_forced_format_on_empty_input);
  g_test_add_func ("/loader/read-error-keeps-data", test_read_error_keeps_data);
  g_test_add_func ("/loader/read-error-after-read-ahead", test_read_error_after_read_ahead);
  g_test_add_func ("/loader/mapped-file", test_mapped_file);
  g_test_add_func ("/loader/file-cut-while-mapped", test_file_cut_while_mapped);
  g_test_add_func ("/loader/async/progress", test_async_progress);
  g_test_add_func ("/loader/lower-thread-priority", test_lower_thread_priority);
  g_test_add_func ("/loader/async/cancel", test_async_cancel);
  g_test_add_func ("/loader/async/missing-file", test_async_missing_file);

  return g_test_run ();
}

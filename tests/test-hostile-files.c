/* test-hostile-files.c — inputs that try to break the loader: past 4 GiB,
 * a line of 100 MB, a program named like a log, a file that grows, a file
 * deleted while it is read
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 12 ("Huge and hostile files"); docs/reliability.md has the table
 * of what each one gives. Failing streams and files cut while mapped are
 * in test-loader.c.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "ps-error.h"
#include "ps-loader.h"

#define CE_HEADER \
  "## PERF ## OSVERSION=[6.0] BUILD=[3122]\r\n" \
  "## PERF ## REGISTERED APP [app] PROCCESSID [0x10]\r\n" \
  "## PERF ## RESOLUTION [1000] TICKS PER SECOND\r\n" \
  "## PERF ## REGISTERED MARKER [Test=A] AS [0] BY APP [app]\r\n"

/* A stream of three parts without the memory of the middle one: a head,
 * gap_size zero bytes (the hole of a sparse file), a tail */
#define TEST_TYPE_GAP_STREAM (test_gap_stream_get_type ())
G_DECLARE_FINAL_TYPE (TestGapStream, test_gap_stream, TEST, GAP_STREAM, GInputStream)

struct _TestGapStream
{
  GInputStream parent_instance;
  const char  *head;
  gsize        head_size;
  guint64      gap_size;
  const char  *tail;
  gsize        tail_size;
  guint64      position;
};

G_DEFINE_FINAL_TYPE (TestGapStream, test_gap_stream, G_TYPE_INPUT_STREAM)

static gssize
test_gap_stream_read (GInputStream  *stream,
                      void          *buffer,
                      gsize          count,
                      GCancellable  *cancellable,
                      GError       **error)
{
  TestGapStream *self = TEST_GAP_STREAM (stream);
  guint64 gap_end = self->head_size + self->gap_size;
  guint8 *out = buffer;
  gsize done = 0;

  while (done < count)
    {
      guint64 pos = self->position;
      gsize n;

      if (pos < self->head_size)
        {
          n = MIN (count - done, self->head_size - pos);
          memcpy (out + done, self->head + pos, n);
        }
      else if (pos < gap_end)
        {
          n = (gsize) MIN ((guint64) (count - done), gap_end - pos);
          memset (out + done, 0, n);
        }
      else if (pos < gap_end + self->tail_size)
        {
          n = MIN (count - done, (gsize) (gap_end + self->tail_size - pos));
          memcpy (out + done, self->tail + (pos - gap_end), n);
        }
      else
        break;
      done += n;
      self->position += n;
    }

  return done;
}

static gboolean
test_gap_stream_close (GInputStream  *stream,
                       GCancellable  *cancellable,
                       GError       **error)
{
  return TRUE;
}

static void
test_gap_stream_class_init (TestGapStreamClass *klass)
{
  GInputStreamClass *stream_class = G_INPUT_STREAM_CLASS (klass);

  stream_class->read_fn = test_gap_stream_read;
  stream_class->close_fn = test_gap_stream_close;
}

static void
test_gap_stream_init (TestGapStream *self)
{
}

/* The warning with that code after skip others with it */
static const PsWarning *
find_warning (PsEventStore *store,
              const char   *code,
              guint         skip,
              PsWarning    *out)
{
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      ps_event_store_get_warning (store, i, out);
      if (strcmp (out->code, code) == 0 && skip-- == 0)
        return out;
    }
  return NULL;
}

static gint64
duration (PsEventStore *store,
          guint64       index)
{
  PsMeasurement m;

  ps_event_store_get_measurement (store, index, &m);
  return m.value.ticks;
}

/* Byte offsets past 4 GiB: events after a hole of 4 GiB of zeros are kept,
 * and a warning about one of them names its 64-bit offset */
static void
test_over_4_gib (void)
{
  static const char head[] = CE_HEADER "## PERF ## APP [app] EVT [0] DUR [5]\r\n";
  static const char tail[] = "\r\n"
                             "## PERF ## APP [app] EVT [0] DUR [6]\r\n"
                             "## PERF ## APP [app] EVT [7] DUR [8]\r\n"
                             "## PERF ## APP [app] EVT [0] DUR [9]\0 junk\r\n";
  TestGapStream *gap = g_object_new (TEST_TYPE_GAP_STREAM, NULL);
  g_autoptr(GInputStream) stream = G_INPUT_STREAM (gap);
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint64 total;
  guint64 nul_offset;
  PsWarning warning;

  gap->head = head;
  gap->head_size = sizeof head - 1;
  gap->gap_size = (G_GUINT64_CONSTANT (1) << 32) + 100;
  gap->tail = tail;
  gap->tail_size = sizeof tail - 1;
  total = gap->head_size + gap->gap_size + gap->tail_size;
  nul_offset = total - strlen (" junk\r\n") - 1;

  store = ps_load_stream (stream, "sparse_CEPC.log",
                          &(PsLoadParams) { .format = ps_format_lookup ("ce-perflog"), .total_size = total }, NULL,
                          &error);
  g_assert_no_error (error);
  g_assert_true (ps_event_store_is_complete (store));
  g_assert_cmpuint (ps_event_store_get_bytes_read (store), ==, total);

  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 4);
  g_assert_cmpint (duration (store, 0), ==, 5);
  g_assert_cmpint (duration (store, 1), ==, 6);
  g_assert_cmpint (duration (store, 2), ==, 8);
  g_assert_cmpint (duration (store, 3), ==, 9);

  /* The hole is one line of zeros, read in part */
  g_assert_nonnull (find_warning (store, "W-NUL", 0, &warning));
  g_assert_cmpuint (warning.offset, ==, sizeof head - 1);
  g_assert_cmpuint (warning.line, ==, 6);
  g_assert_nonnull (find_warning (store, "W-LONGLINE", 0, &warning));
  g_assert_nonnull (find_warning (store, "W-UNREGISTERED", 0, &warning));
  g_assert_cmpuint (warning.line, ==, 8);
  /* The NUL after the hole, by its 64-bit offset */
  g_assert_nonnull (find_warning (store, "W-NUL", 1, &warning));
  g_assert_cmpuint (warning.line, ==, 9);
  g_assert_cmpuint (warning.offset, ==, nul_offset);
  g_assert_cmpuint (warning.offset, >, G_MAXUINT32);
}

static char *
write_temp (const char *name,
            const char *contents,
            gsize       length)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-hostile-XXXXXX", NULL);
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  return path;
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_remove (path);
  g_rmdir (dir);
}

/* A file read through the loader as the application and the CLI read it
 * (mapped a chunk at a time) */
typedef struct
{
  void  (*at_first_chunk) (const char *path);
  const char *path;
  gboolean    done;
} Reading;

static void
reading_progress (guint64  bytes,
                  gpointer data)
{
  Reading *reading = data;

  if (!reading->done && reading->at_first_chunk != NULL)
    reading->at_first_chunk (reading->path);
  reading->done = TRUE;
}

static PsEventStore *
load_path (const char *path,
           void      (*at_first_chunk) (const char *path))
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_path_get_basename (path);
  Reading reading = { at_first_chunk, path, FALSE };
  PsEventStore *store;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, &error);
  g_assert_no_error (error);
  store = ps_load_stream (G_INPUT_STREAM (stream), name,
                          &(PsLoadParams) {
                            .total_size = (guint64) g_file_info_get_size (info),
                            .progress = reading_progress,
                            .progress_data = &reading,
                          },
                          NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

/* One line of 100 MB in the middle of a CE log and of an RTL log: cut to
 * the formats' longest line with a warning; the lines around it read */
static void
test_long_line (void)
{
  const gsize long_length = 100 * 1000 * 1000;
  static const char *const logs[][4] = {
    /* name, before, long line start, after */
    { "long_CEPC.log", CE_HEADER "## PERF ## APP [app] EVT [0] DUR [5]\r\n",
      "## PERF ## APP [app] EVT [0] DUR [", "\r\n## PERF ## APP [app] EVT [0] DUR [6]\r\n" },
    { "long_4711.log", "000001 1 { a\n000002 1 } a\n",
      "000003 1 | a : ", "\n000004 1 { b\n000005 1 } b\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (logs); i++)
    {
      g_autoptr(GString) text = g_string_sized_new (long_length + 1000);
      g_autofree char *path = NULL;
      g_autoptr(PsEventStore) store = NULL;
      PsWarning warning;

      g_string_append (text, logs[i][1]);
      g_string_append (text, logs[i][2]);
      while (text->len < long_length)
        g_string_append (text, "1234567890");
      g_string_append (text, logs[i][3]);
      path = write_temp (logs[i][0], text->str, text->len);

      store = load_path (path, NULL);
      remove_temp (path);
      g_assert_true (ps_event_store_is_complete (store));
      g_assert_nonnull (find_warning (store, "W-LONGLINE", 0, &warning));
      if (i == 0)
        {
          g_assert_cmpuint (warning.line, ==, 6);
          g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 2);
          g_assert_cmpint (duration (store, 0), ==, 5);
          g_assert_cmpint (duration (store, 1), ==, 6);
        }
      else
        {
          g_assert_cmpuint (warning.line, ==, 3);
          g_assert_cmpuint (ps_event_store_get_n_spans (store), ==, 2);
        }
      /* The store keeps the events, not the line */
      g_assert_cmpuint (ps_event_store_get_memory_size (store), <, 32 * 1024 * 1024);
    }
}

/* Binary data named like a log: not read as one, with a message that
 * names it; forced into each format it is read as damaged input, never
 * more */
static void
test_binary_named_as_text (void)
{
  g_autoptr(GRand) rand = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  const PsFormat * const *formats;
  gsize length;
  guint n_formats;

  /* 4 MiB of noise, the same at every run */
  rand = g_rand_new_with_seed (12);
  length = 4 << 20;
  contents = g_malloc (length);
  for (gsize i = 0; i < length; i += 4)
    {
      guint32 word = g_rand_int (rand);

      memcpy (contents + i, &word, 4);
    }
  path = write_temp ("soffice_4711.log", contents, length);

  stream = G_INPUT_STREAM (g_file_read (g_file_new_for_path (path), NULL, NULL));
  store = ps_load_stream (stream, "soffice_4711.log", &(PsLoadParams) { .total_size = length }, NULL, &error);
  g_assert_null (store);
  g_assert_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "soffice_4711.log"));
  g_assert_nonnull (strstr (error->message, "not in any format"));
  remove_temp (path);

  formats = ps_format_list (&n_formats);
  for (guint i = 0; i < n_formats; i++)
    {
      g_autoptr(GInputStream) bytes = g_memory_input_stream_new_from_data (contents, length, NULL);
      g_autoptr(PsEventStore) forced = NULL;
      g_autoptr(GError) forced_error = NULL;

      forced = ps_load_stream (bytes, "soffice_4711.log",
                               &(PsLoadParams) { .format = formats[i], .total_size = length }, NULL, &forced_error);
      g_test_message ("%s: %s", formats[i]->name,
                      forced_error != NULL ? forced_error->message
                      : ps_event_store_get_error (forced) != NULL ? ps_event_store_get_error (forced)->message
                      : "read as damaged input");
      /* A store that says what was wrong, or an error */
      g_assert_true (forced != NULL || forced_error != NULL);
      if (forced != NULL)
        g_assert_true (!ps_event_store_is_complete (forced) || ps_event_store_get_n_warnings (forced) > 0);
    }
}

static GString *
numbered_log (guint first,
              guint n)
{
  GString *text = g_string_new (first == 0 ? CE_HEADER : "");

  for (guint i = first; i < first + n; i++)
    g_string_append_printf (text, "## PERF ## APP [app] EVT [0] DUR [%u]\r\n", i);
  return text;
}

static void
append_lines (const char *path)
{
  g_autoptr(GString) more = numbered_log (100000, 1000);
  FILE *file = fopen (path, "ab");

  g_assert_nonnull (file);
  g_assert_cmpuint (fwrite (more->str, 1, more->len, file), ==, more->len);
  fclose (file);
}

/* A file that grows while it is read (a log still being written): read
 * to where it ended when reading began, or on into the lines added since,
 * but never a line in part. The lines are added through stdio, 4 KiB at
 * a time, while the loader's read-ahead thread reads on: it may find the
 * file's end anywhere among them. */
static void
test_grows_while_read (void)
{
  g_autoptr(GString) text = numbered_log (0, 100000);
  g_autofree char *path = write_temp ("growing_CEPC.log", text->str, text->len);
  g_autoptr(PsEventStore) store = load_path (path, append_lines);
  guint64 n = ps_event_store_get_n_measurements (store);

  remove_temp (path);
  g_test_message ("%" G_GUINT64_FORMAT " events of 100000 + 1000, %" G_GUINT64_FORMAT " bytes of %zu",
                  n, ps_event_store_get_bytes_read (store), text->len);
  g_assert_true (ps_event_store_is_complete (store));
  g_assert_cmpuint (n, >=, 100000);
  g_assert_cmpuint (n, <=, 101000);
  for (guint64 i = 0; i < n; i++)
    g_assert_cmpint (duration (store, i), ==, (gint64) i);
  g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 0);
}

static void
delete_file (const char *path)
{
  g_assert_cmpint (g_remove (path), ==, 0);
}

/* A file deleted while it is read: what was opened is read to its end */
static void
test_deleted_while_read (void)
{
  g_autoptr(GString) text = numbered_log (0, 100000);
  g_autofree char *path = write_temp ("deleted_CEPC.log", text->str, text->len);
  g_autoptr(PsEventStore) store = load_path (path, delete_file);

  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  remove_temp (path);
  g_assert_true (ps_event_store_is_complete (store));
  g_assert_cmpuint (ps_event_store_get_n_measurements (store), ==, 100000);
  g_assert_cmpint (duration (store, 99999), ==, 99999);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hostile/over-4-gib", test_over_4_gib);
  g_test_add_func ("/hostile/long-line", test_long_line);
  g_test_add_func ("/hostile/binary-named-as-text", test_binary_named_as_text);
  g_test_add_func ("/hostile/grows-while-read", test_grows_while_read);
  g_test_add_func ("/hostile/deleted-while-read", test_deleted_while_read);

  return g_test_run ();
}

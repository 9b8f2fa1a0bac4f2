/* test-pmcstat-callgraph.c — the pmcstat -G reader and the folded export
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §8.4 (the callgraph text). The real files of
 * tests/data/pmcstat-callgraph/ come with the folded stacks another tool
 * expects from them (compared as sets of lines); exact values are checked
 * on the small ones, and the malformed cases are constructed here.
 */
#include "config.h"

#include <string.h>

#include "parse-fixture.h"
#include "ps-call-tree.h"
#include "ps-error.h"
#include "ps-folded.h"
#include "ps-pmcstat-text.h"
#include "ps-format.h"
#include "ps-loader.h"

/* Loading */

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "pmcstat-callgraph", name, NULL);
}

static char *
read_data (const char *name,
           gsize      *length)
{
  g_autofree char *path = data_path (name);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, length, &error);
  g_assert_no_error (error);
  return text;
}

/* Feeds data in pieces of `piece` bytes */
static PsEventStore *
parse_pieces (const char *data,
              gsize       length,
              gsize       piece)
{
  return parse_fixture_pieces (&ps_format_pmcstat_callgraph, (const guint8 *)data, length, piece, 0, NULL);
}

static PsEventStore *
parse (const char *text)
{
  gsize length = strlen (text);

  return parse_pieces (text, length, MAX (length, 1));
}

/* The fatal error of a text that is no callgraph; fails if there is none */
static GError *
parse_failing (const char *text)
{
  return parse_fixture_fatal_error (&ps_format_pmcstat_callgraph, text);
}

/* Loads a file as the application does: sniffed, in chunks */
static PsEventStore *
load_stream (GInputStream *stream,
             const char   *name)
{
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  store = ps_load_stream (stream, name, &(PsLoadParams) { .chunk_size = 4096 }, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_cmpstr (ps_event_store_get_format (store), ==, "pmcstat-callgraph");
  g_assert_true (ps_event_store_is_complete (store));
  g_assert_null (ps_event_store_get_error (store));

  return store;
}

static PsEventStore *
load_file (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  stream = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  return load_stream (G_INPUT_STREAM (stream), name);
}

/* Looking at the result */

/* The folded text of one sample's stack, outermost first */
static char *
sample_stack (PsEventStore   *store,
              const PsSample *sample)
{
  g_autoptr(GPtrArray) frames = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint32 id = sample->stack; id != 0; id = ps_event_store_get_stack_node (store, id)->parent)
    {
      g_autoptr(GString) frame = g_string_new (NULL);

      ps_folded_append_frame (store, ps_event_store_get_stack_node (store, id)->frame, frame);
      g_ptr_array_add (frames, g_string_free (g_steal_pointer (&frame), FALSE));
    }
  for (guint i = frames->len; i > 0; i--)
    {
      if (i < frames->len)
        g_string_append_c (text, ';');
      g_string_append (text, g_ptr_array_index (frames, i - 1));
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The sample whose stack prints as `stack`, or NULL */
static const PsSample *
find_sample (PsEventStore *store,
             const char   *stack)
{
  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      g_autofree char *text = sample_stack (store, sample);

      if (g_strcmp0 (text, stack) == 0)
        return sample;
    }
  return NULL;
}

/* The frame of a sample `levels` callers above the sampled function */
static const PsFrame *
sample_frame (PsEventStore   *store,
              const PsSample *sample,
              guint           levels)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 id = sample->stack; id != 0; id = ps_event_store_get_stack_node (store, id)->parent)
    g_array_append_val (ids, ps_event_store_get_stack_node (store, id)->frame);
  /* ids run from the sampled function (the stack's innermost node) out */
  g_assert_cmpuint (levels, <, ids->len);
  return ps_event_store_get_frame (store, g_array_index (ids, guint32, levels));
}

static const char *
frame_module (PsEventStore  *store,
              const PsFrame *frame)
{
  return ps_event_store_get_string (store, frame->module);
}

static const char *
frame_function (PsEventStore  *store,
                const PsFrame *frame)
{
  return ps_event_store_get_string (store, frame->function);
}

static guint64
total_weight (PsEventStore *store)
{
  guint64 total = 0;

  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    total += ps_event_store_get_sample (store, i)->weight;
  return total;
}

/* Everything a parse gave, as text, to compare two parses */
static char *
fingerprint (PsEventStore *store)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GArray) metadata = NULL;

  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);
      g_autofree char *stack = sample_stack (store, sample);

      g_string_append_printf (out, "sample %" G_GINT64_FORMAT " %u %s %u %u %u\n", sample->time_ns, sample->track,
                              stack, sample->weight, sample->flags, sample->source);
      for (guint32 id = sample->stack; id != 0; id = ps_event_store_get_stack_node (store, id)->parent)
        {
          const PsFrame *frame = ps_event_store_get_frame (store, ps_event_store_get_stack_node (store, id)->frame);

          g_string_append_printf (out, "  %s @ %s 0x%" G_GINT64_MODIFIER "x\n", frame_function (store, frame),
                                  frame_module (store, frame), frame->address);
        }
    }
  for (guint i = 0; i < ps_event_store_get_n_sample_sources (store); i++)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (store, i);

      g_string_append_printf (out, "source %s %" G_GUINT64_FORMAT "\n",
                              ps_event_store_get_string (store, source->name), source->n_samples);
    }
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_string_append_printf (out, "warning %" G_GUINT64_FORMAT " %s %s\n", warning.line, warning.code, warning.message);
    }
  if (ps_event_store_get_n_sessions (store) > 0)
    {
      const PsSessionInfo *session = ps_event_store_get_session (store, 0);

      g_string_append_printf (out, "session %" G_GUINT64_FORMAT "–%" G_GUINT64_FORMAT "\n",
                              session->first_line, session->last_line);
      metadata = ps_event_store_list_metadata (store, 0);
      for (guint i = 0; i < metadata->len; i++)
        g_string_append_printf (out, "meta %s=%s\n", g_array_index (metadata, PsMetadataEntry, i).key,
                                g_array_index (metadata, PsMetadataEntry, i).value);
    }

  return g_string_free (out, FALSE);
}

/* The lines of a text as a set (line → count of that line) */
static GHashTable *
line_set (const char *text)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (lines[i][0] == '\0')
        continue;
      g_hash_table_insert (set, g_strdup (lines[i]),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (set, lines[i])) + 1));
    }

  return set;
}

static void
assert_same_lines (const char *expected,
                   const char *actual)
{
  g_autoptr(GHashTable) expected_set = line_set (expected);
  g_autoptr(GHashTable) actual_set = line_set (actual);
  GHashTableIter iter;
  gpointer line;

  g_hash_table_iter_init (&iter, expected_set);
  while (g_hash_table_iter_next (&iter, &line, NULL))
    if (!g_hash_table_contains (actual_set, line))
      g_error ("expected line missing from the folded stacks: %s\nactual:\n%s", (const char *)line, actual);
  g_hash_table_iter_init (&iter, actual_set);
  while (g_hash_table_iter_next (&iter, &line, NULL))
    if (!g_hash_table_contains (expected_set, line))
      g_error ("unexpected line in the folded stacks: %s", (const char *)line);
  g_assert_cmpuint (g_hash_table_size (expected_set), ==, g_hash_table_size (actual_set));
}

/* Real files ------------------------------------------------------------- */

static const char * const real_files[] = { "simple", "shared", "shared2", "dd", "iperf3" };

static void
test_real_folded (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (real_files); i++)
    {
      g_autofree char *name = g_strconcat (real_files[i], ".txt", NULL);
      g_autofree char *expected_name = g_strconcat ("expected-collapsed/", real_files[i], "-collapsed.txt", NULL);
      g_autofree char *expected = read_data (expected_name, NULL);
      g_autoptr(PsEventStore) store = load_file (name);
      g_autoptr(GString) folded = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, PS_NONE);
      g_autoptr(GString) again = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, PS_NONE);
      g_auto(GStrv) lines = g_strsplit (folded->str, "\n", -1);

      g_test_message ("%s", name);
      assert_same_lines (expected, folded->str);
      g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 0);
      /* Sorted, and the same every time */
      g_assert_cmpstr (folded->str, ==, again->str);
      for (guint l = 1; lines[l] != NULL && lines[l][0] != '\0'; l++)
        g_assert_cmpint (strcmp (lines[l - 1], lines[l]), <, 0);
    }
}

static void
test_real_large (void)
{
  g_autofree char *path = data_path ("large.txt.gz");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) compressed = NULL;
  g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  const PsSampleSource *source;

  compressed = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  stream = g_converter_input_stream_new (G_INPUT_STREAM (compressed), G_CONVERTER (decompressor));
  store = load_stream (stream, "large.txt");

  g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 0);
  /* Four blocks of CLOCK.HARD, every sample listed: 644 + 636 + 640 + 645 */
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (store), ==, 1);
  source = ps_event_store_get_sample_source (store, 0);
  g_assert_cmpstr (ps_event_store_get_string (store, source->name), ==, "CLOCK.HARD");
  g_assert_cmpuint (source->n_samples, ==, 2565);
  g_assert_cmpuint (total_weight (store), ==, 2565);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples"), ==, "2565");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples_listed"), ==, "2565");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "blocks"), ==, "4");
}

static void
test_simple_values (void)
{
  g_autoptr(PsEventStore) store = load_file ("simple.txt");
  const PsSampleSource *source;
  const PsSample *idle, *read;
  const PsFrame *frame;
  gint64 begin, end;

  /* Counts of a whole run: no time range */
  g_assert_false (ps_event_store_get_time_range (store, &begin, &end));
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (store), ==, 1);
  source = ps_event_store_get_sample_source (store, 0);
  g_assert_cmpstr (ps_event_store_get_string (store, source->name), ==, "CLOCK.HARD");
  /* The header announces 302186; the excerpt lists 260401 + 1676 */
  g_assert_cmpuint (source->n_samples, ==, 262077);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "pmcs"), ==, "CLOCK.HARD");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples"), ==, "302186");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples_listed"), ==, "262077");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "time_unit"), ==, "samples");

  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 2);
  idle = find_sample (store, "fork_exit;sched_idletd;cpu_idle;cpu_idle_acpi;acpi_cpu_idle;acpi_cpu_c1");
  g_assert_nonnull (idle);
  g_assert_cmpuint (idle->weight, ==, 260401);
  g_assert_cmpuint (idle->flags, ==, PS_SAMPLE_FLAG_UNTIMED | PS_SAMPLE_FLAG_KERNEL);
  g_assert_cmpuint (idle->track, ==, PS_NONE);
  g_assert_cmpint (idle->time_ns, ==, 0);
  g_assert_cmpuint (idle->source, ==, 0);

  /* The sampled function names its image; its callers inherit it */
  frame = sample_frame (store, idle, 0);
  g_assert_cmpstr (frame_function (store, frame), ==, "acpi_cpu_c1");
  g_assert_cmpstr (frame_module (store, frame), ==, "/boot/kernel/kernel");
  frame = sample_frame (store, idle, 5);
  g_assert_cmpstr (frame_function (store, frame), ==, "fork_exit");
  g_assert_cmpstr (frame_module (store, frame), ==, "/boot/kernel/kernel");
  g_assert_cmpuint (frame->address, ==, 0);

  read = find_sample (store, "amd64_syscall;sys_read;kern_readv;devfs_read_f;read_random_uio;"
                             "random_fortuna_read;rijndael_blockEncrypt;aes_ecb_encrypt");
  g_assert_nonnull (read);
  g_assert_cmpuint (read->weight, ==, 1676);
  g_assert_cmpuint (read->flags, ==, PS_SAMPLE_FLAG_UNTIMED | PS_SAMPLE_FLAG_KERNEL);
}

static void
test_shared_values (void)
{
  g_autoptr(PsEventStore) store = load_file ("shared.txt");
  g_autoptr(PsEventStore) store2 = load_file ("shared2.txt");
  g_autoptr(PsEventStore) dd = load_file ("dd.txt");
  const PsSample *sample;
  const PsFrame *frame;

  /* randomdev_encrypt [173]: 166 through random_fortuna_read, 7 straight
   * from read_random_uio */
  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 8);
  g_assert_cmpuint (total_weight (store), ==, 232);
  sample = find_sample (store, "amd64_syscall;sys_read;kern_readv;devfs_read_f;read_random_uio;randomdev_encrypt");
  g_assert_nonnull (sample);
  g_assert_cmpuint (sample->weight, ==, 7);
  sample = find_sample (store, "amd64_syscall;sys_read;kern_readv;devfs_read_f;read_random_uio;random_fortuna_read;randomdev_encrypt");
  g_assert_cmpuint (sample->weight, ==, 166);
  sample = find_sample (store, "fork_exit;md_kthread;g_io_deliver;binuptime;acpi_timer_get_timecount");
  g_assert_cmpuint (sample->weight, ==, 1);
  g_assert_cmpuint (sample->flags, ==, PS_SAMPLE_FLAG_UNTIMED | PS_SAMPLE_FLAG_KERNEL);

  /* Raw addresses: the image of the line before, a user sample */
  g_assert_cmpuint (ps_event_store_get_n_samples (store2), ==, 2);
  sample = find_sample (store2, "0x53c2f;0xf4ae3");
  g_assert_nonnull (sample);
  g_assert_cmpuint (sample->weight, ==, 1);
  g_assert_cmpuint (sample->flags, ==, PS_SAMPLE_FLAG_UNTIMED);
  frame = sample_frame (store2, sample, 0);
  g_assert_cmpstr (frame_module (store2, frame), ==, "/lib/libc.so.7");
  g_assert_cmpuint (frame->address, ==, 0xf4ae3);
  frame = sample_frame (store2, sample, 1);
  g_assert_cmpstr (frame_module (store2, frame), ==, "/usr/lib/libprivatessh.so.5");
  sample = find_sample (store2, "0x18a70a0;0x18b40bb;0x1fb0b7c;0x1f9da7c;0x1f9d548;0x1fc843e;0x3ac91aa;0x1fc8c57;"
                                "0x18b457c;0x18a79e4;0x21e869f;0x20cbe89;0x2152576;0x250c163;0x21f4d45;0x1c0cc27;"
                                "0x3854a2a;0x35c1b3e;0x385448a;0x48c73c8;0x48c282e;0x3b25deb;0xf4ae3");
  g_assert_nonnull (sample);
  frame = sample_frame (store2, sample, 3);
  g_assert_cmpstr (frame_function (store2, frame), ==, "0x48c73c8");
  g_assert_cmpstr (frame_module (store2, frame), ==, "/usr/bin/clang-cpp");
  frame = sample_frame (store2, sample, 22);
  g_assert_cmpstr (frame_module (store2, frame), ==, "/usr/bin/clang-cpp");

  /* dd.txt: a module of its own in the middle of a kernel stack, and the
   * sibling below takes the image of the line printed just before it */
  sample = find_sample (dd, "fork_exit;pmclog_loop;_sleep;sleepq_timedwait;spinlock_exit");
  g_assert_nonnull (sample);
  g_assert_cmpstr (frame_module (dd, sample_frame (dd, sample, 3)), ==, "/boot/kernel/hwpmc.ko");
  g_assert_cmpstr (frame_module (dd, sample_frame (dd, sample, 4)), ==, "/boot/kernel/kernel");
  g_assert_cmpstr (frame_module (dd, sample_frame (dd, sample, 2)), ==, "/boot/kernel/kernel");
  sample = find_sample (dd, "0x2042e0;0xb768a");
  g_assert_cmpuint (sample->weight, ==, 2);
  g_assert_cmpuint (sample->flags, ==, PS_SAMPLE_FLAG_UNTIMED);
  g_assert_cmpstr (frame_module (dd, sample_frame (dd, sample, 1)), ==, "/bin/dd");
  /* Two PMC names: CLOCK.HARD (three blocks) and one that is not UTF-8 */
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (dd), ==, 2);
  g_assert_cmpuint (ps_event_store_get_sample_source (dd, 0)->n_samples, ==, 2 + 1 + 251);
  g_assert_cmpuint (ps_event_store_get_sample_source (dd, 1)->n_samples, ==, 66);
  g_assert_true (g_utf8_validate (ps_event_store_get_string (dd, ps_event_store_get_sample_source (dd, 1)->name), -1, NULL));
  g_assert_cmpstr (ps_event_store_get_metadata (dd, 0, "blocks"), ==, "4");
  g_assert_cmpstr (ps_event_store_get_metadata (dd, 0, "samples.CLOCK.HARD"), ==, "254");
}

static void
test_source_filter (void)
{
  g_autoptr(PsEventStore) dd = load_file ("dd.txt");
  g_autoptr(GString) first = ps_folded_build (dd, 0, PS_NONE);
  g_autoptr(GString) second = ps_folded_build (dd, 1, PS_NONE);
  g_autoptr(GString) none = ps_folded_build (dd, 2, PS_NONE);

  /* Block 1 and 2 of CLOCK.HARD give spinlock_exit under cpu_activeclock
   * twice; the fourth block (the other PMC) once more */
  g_assert_nonnull (strstr (first->str, "fork_exit;sched_idletd;cpu_idle;cpu_activeclock;spinlock_exit 2\n"));
  g_assert_nonnull (strstr (second->str, "fork_exit;sched_idletd;cpu_idle;cpu_activeclock;spinlock_exit 1\n"));
  g_assert_nonnull (strstr (second->str, "amd64_syscall;sys_read;dofileread;devfs_read_f;read_random_uio;"
                                         "random_fortuna_read;random_fortuna_genbytes;randomdev_keystream 58\n"));
  g_assert_null (strstr (second->str, "0x2042e0"));
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_weird_lines (void)
{
  const char * const names[] = {
    "weird-stack-line-bad-count.txt",
    "weird-stack-line-bad-percent.txt",
    "weird-stack-line-no-function-name.txt",
  };
  const char * const problems[] = { "count", "percentage", "function" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(PsEventStore) store = load_file (names[i]);
      const PsSample *sample;
      PsWarning warning;

      g_test_message ("%s", names[i]);
      g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 1);
      ps_event_store_get_warning (store, 0, &warning);
      g_assert_cmpuint (warning.line, ==, 4);
      g_assert_cmpstr (warning.code, ==, "W-PMC-LINE");
      g_assert_cmpint (warning.severity, ==, PS_SEVERITY_WARNING);
      g_assert_nonnull (strstr (warning.message, problems[i]));

      /* The valid root stays, with all its samples */
      g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 1);
      sample = find_sample (store, "acpi_cpu_c1");
      g_assert_nonnull (sample);
      g_assert_cmpuint (sample->weight, ==, 260401);
      g_assert_cmpuint (sample->flags, ==, PS_SAMPLE_FLAG_UNTIMED | PS_SAMPLE_FLAG_KERNEL);
    }
}

static void
test_chunks (void)
{
  const char * const names[] = { "shared.txt", "shared2.txt", "dd.txt", "weird-stack-line-bad-count.txt" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      gsize length;
      g_autofree char *data = read_data (names[n], &length);
      g_autoptr(PsEventStore) whole = parse_pieces (data, length, length);
      g_autofree char *expected = fingerprint (whole);

      g_assert_cmpuint (ps_event_store_get_n_samples (whole), >, 0);
      for (gsize piece = 1; piece <= length; piece++)
        {
          g_autoptr(PsEventStore) store = parse_pieces (data, length, piece);
          g_autofree char *actual = fingerprint (store);

          if (g_strcmp0 (expected, actual) != 0)
            g_error ("%s in pieces of %zu bytes:\n%s\nexpected:\n%s", names[n], piece, actual, expected);
        }
    }
}

static void
test_call_tree (void)
{
  g_autoptr(PsEventStore) simple = load_file ("simple.txt");
  g_autoptr(PsEventStore) dd = load_file ("dd.txt");
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(PsCallTree) dd_tree = NULL;
  g_autoptr(GError) error = NULL;
  const PsCallStats *stats;
  guint32 function;

  tree = ps_call_tree_new_for_store (simple, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_SAMPLES);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 262077);
  /* Every sample is a kernel one: no application time */
  g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 0);
  g_assert_true (ps_call_tree_has_os_events (tree));
  g_assert_cmpuint (ps_call_tree_get_n_children (tree, PS_CALL_NODE_ROOT), ==, 2);

  function = ps_call_tree_lookup_function (tree, "acpi_cpu_c1");
  g_assert_cmpuint (function, !=, PS_NONE);
  stats = ps_call_tree_get_function_stats (tree, function);
  g_assert_cmpfloat (stats->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], ==, 260401);
  g_assert_cmpfloat (stats->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], ==, 260401);
  function = ps_call_tree_lookup_function (tree, "amd64_syscall");
  stats = ps_call_tree_get_function_stats (tree, function);
  g_assert_cmpfloat (stats->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], ==, 1676);
  g_assert_cmpfloat (stats->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], ==, 0);

  /* dd.txt: 320 samples, of which the two in libc and dd are user ones */
  dd_tree = ps_call_tree_new_for_store (dd, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (ps_call_tree_get_elapsed_total (dd_tree), ==, 320);
  g_assert_cmpfloat (ps_call_tree_get_application_total (dd_tree), ==, 2);
}

/* Constructed cases ------------------------------------------------------- */

static void
test_self_count (void)
{
  /* A node whose callers do not account for all its samples (pmcstat
   * leaves callers below its print threshold out) keeps the rest itself */
  g_autoptr(PsEventStore) store = parse ("@ INSTRUCTIONS [10 samples]\n"
                                         "\n"
                                         "100.0%  [10]       leaf @ /usr/bin/app\n"
                                         " 60.00%  [6]         middle\n"
                                         "  50.00%  [3]          main\n"
                                         "\n");
  g_autoptr(GString) folded = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, PS_NONE);

  g_assert_cmpstr (folded->str, ==, "leaf 4\nmain;middle;leaf 3\nmiddle;leaf 3\n");
  g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 0);
  g_assert_cmpuint (find_sample (store, "leaf")->flags, ==, PS_SAMPLE_FLAG_UNTIMED);
  g_assert_cmpstr (frame_module (store, sample_frame (store, find_sample (store, "main;middle;leaf"), 2)), ==, "/usr/bin/app");
}

/* A count beyond any run (found by fuzzing: 80 bytes made six million
 * samples of the largest weight) counts as 2^36 samples, with a warning */
static void
test_huge_count (void)
{
  g_autoptr(PsEventStore) store = parse ("@ INSTRUCTIONS [10 samples]\n"
                                         "\n"
                                         "100.0%  [26088888888880401]  leaf @ /usr/bin/app\n"
                                         " 00.01%  [3]         main\n"
                                         "\n");
  const guint64 max_count = G_GUINT64_CONSTANT (1) << 36;
  guint64 total = 0;
  PsWarning warning;

  /* 2^36 − 3 in pieces of 2^32 − 1, and main */
  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 18);
  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    total += ps_event_store_get_sample (store, i)->weight;
  g_assert_cmpuint (total, ==, max_count);
  g_assert_cmpuint (find_sample (store, "main;leaf")->weight, ==, 3);
  g_assert_cmpuint (ps_event_store_get_n_warnings (store), >=, 1);
  ps_event_store_get_warning (store, 0, &warning);
  g_assert_cmpstr (warning.code, ==, "W-PMC-COUNT");
  g_assert_cmpuint (warning.line, ==, 3);
  g_assert_nonnull (strstr (warning.message, "26088888888880401"));
  g_assert_nonnull (strstr (warning.message, "68719476736"));
}

static void
test_malformed (void)
{
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GString) folded = NULL;
  PsWarning warning;

  /* Line 4 is two levels deeper than its callee; line 5 goes with it.
   * Line 6 has more samples than its callee leaves. The second header
   * gives no count. CR LF line ends. */
  store = parse ("@ CLOCK.HARD [5 samples]\r\n"
                 "\r\n"
                 "100.0%  [4]        f @ /boot/kernel/kernel\r\n"
                 "   100.0%  [4]           g\r\n"
                 "    100.0%  [4]            h\r\n"
                 " 100.0%  [9]         k\r\n"
                 "\r\n"
                 "@ OTHER\r\n"
                 "\r\n"
                 "100.0%  [3]        x @ /lib/libc.so.7\r\n"
                 "@ THIRD [1 samples]\n"
                 "100.0%  [2]        y @ /lib/libc.so.7\n");
  g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, 4);
  ps_event_store_get_warning (store, 0, &warning);
  g_assert_cmpuint (warning.line, ==, 4);
  g_assert_cmpstr (warning.code, ==, "W-PMC-DEPTH");
  ps_event_store_get_warning (store, 1, &warning);
  g_assert_cmpuint (warning.line, ==, 6);
  g_assert_cmpstr (warning.code, ==, "W-PMC-COUNT");
  ps_event_store_get_warning (store, 2, &warning);
  g_assert_cmpuint (warning.line, ==, 8);
  g_assert_cmpstr (warning.code, ==, "W-PMC-HEADER");
  ps_event_store_get_warning (store, 3, &warning);
  g_assert_cmpuint (warning.line, ==, 11);
  g_assert_cmpstr (warning.code, ==, "W-PMC-TOTAL");

  folded = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, PS_NONE);
  g_assert_cmpstr (folded->str, ==, "k;f 9\nx 3\ny 2\n");
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (store), ==, 3);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_sample_source (store, 1)->name), ==, "OTHER");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "pmcs"), ==, "CLOCK.HARD, OTHER, THIRD");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples"), ==, "6");
}

static void
test_fatal (void)
{
  g_autoptr(GError) empty = parse_failing ("");
  g_autoptr(GError) blank = parse_failing ("\n\n  \n");
  g_autoptr(GError) other = parse_failing ("\n86.17%  [260401]   acpi_cpu_c1 @ /boot/kernel/kernel\n");

  g_assert_error (empty, PS_ERROR, PS_ERROR_PARSE);
  g_assert_error (blank, PS_ERROR, PS_ERROR_PARSE);
  g_assert_error (other, PS_ERROR, PS_ERROR_PARSE);
  g_assert_nonnull (strstr (other->message, "Line 2"));
}

static void
test_sniff (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (real_files); i++)
    {
      g_autofree char *name = g_strconcat (real_files[i], ".txt", NULL);
      gsize length;
      g_autofree char *data = read_data (name, &length);

      g_assert_true (ps_format_sniff ((const guint8 *)data, MIN (length, PS_FORMAT_SNIFF_SIZE), name, NULL)
                     == &ps_format_pmcstat_callgraph);
      /* A header alone (the rest beyond the sniff window) still counts */
      g_assert_cmpuint (ps_format_pmcstat_callgraph.sniff ((const guint8 *)data, strchr (data, '\n') - data + 1, name), >=, 10);
    }

  g_assert_cmpuint (ps_format_pmcstat_callgraph.sniff ((const guint8 *)"@ not a header\n", 15, NULL), ==, 0);
  g_assert_cmpuint (ps_format_pmcstat_callgraph.sniff ((const guint8 *)"Function Name,Inclusive Samples\n", 32, NULL), ==, 0);
  g_assert_cmpuint (ps_format_pmcstat_callgraph.sniff ((const guint8 *)"", 0, NULL), ==, 0);
}

static void
test_folded_frames (void)
{
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsStoreBuilder) builder = ps_store_builder_new (store);
  g_autoptr(GString) folded = NULL;
  guint32 module = ps_event_store_intern (store, "/usr/lib/libfoo.so", -1);
  guint32 with_module = ps_event_store_intern_frame (store, 0, module, 0x1a2b);
  guint32 bare = ps_event_store_intern_frame (store, 0, 0, 0xdead);
  guint32 named = ps_event_store_intern_frame (store, ps_event_store_intern (store, "a;b", -1), module, 0);
  guint32 stack = ps_event_store_intern_stack (store, ps_event_store_intern_stack (store, 0, bare), with_module);
  guint32 stack2 = ps_event_store_intern_stack (store, 0, named);
  PsSample sample = { 0, PS_NONE, stack, 3, 0, 0 };

  ps_store_builder_add_sample (builder, &sample);
  sample.weight = 4;
  ps_store_builder_add_sample (builder, &sample);
  sample.stack = stack2;
  sample.track = 7;
  ps_store_builder_add_sample (builder, &sample);
  sample.stack = 0;
  ps_store_builder_add_sample (builder, &sample);
  ps_store_builder_flush (builder);

  folded = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, PS_NONE);
  g_assert_cmpstr (folded->str, ==, "0xdead;libfoo.so+0x1a2b 7\na_b 4\n");
  g_string_free (g_steal_pointer (&folded), TRUE);
  folded = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, 7);
  g_assert_cmpstr (folded->str, ==, "a_b 4\n");
}

/* The lines of a callgraph text, sorted (pmcstat orders equal counts in
 * no fixed way), without the blank lines, the header's count and the
 * roots' percentages: the real files are excerpts, whose headers count
 * samples they do not list */
static int
compare_line_pointers (gconstpointer a,
                       gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static char **
comparable_lines (const char *text,
                  GRegex     *root_percent)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *kept = g_ptr_array_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0')
        continue;
      if (g_str_has_prefix (lines[i], "@ "))
        g_ptr_array_add (kept, g_strndup (lines[i], strstr (lines[i], " [") - lines[i]));
      else if (g_regex_match (root_percent, lines[i], 0, NULL))
        g_ptr_array_add (kept, g_strdup (strchr (lines[i], '[')));
      else
        g_ptr_array_add (kept, g_strdup (lines[i]));
    }
  g_ptr_array_sort (kept, compare_line_pointers);
  g_ptr_array_add (kept, NULL);
  return (char **)g_ptr_array_free (kept, FALSE);
}

/* Written back as pmcstat -G writes (hwpmc-pmclog.md §8.4): the lines of
 * the real files, and a fixed point when read again */
static void
test_text_export (void)
{
  static const char * const names[] = { "simple.txt", "shared.txt", "shared2.txt", "iperf3.txt" };
  GRegex *root_percent = g_regex_new ("^([0-9][0-9]\\.[0-9][0-9]|100\\.0)%", 0, 0, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(PsEventStore) store = load_file (names[i]);
      /* The files were written with more than the default 16 frames */
      g_autoptr(GString) text = ps_pmcstat_text_build (store, 1000);
      g_autoptr(PsEventStore) again = NULL;
      g_autoptr(GString) text_again = NULL;
      g_autoptr(GString) folded = NULL;
      g_autoptr(GString) folded_again = NULL;
      g_autofree char *path = data_path (names[i]);
      g_autofree char *original = NULL;
      g_auto(GStrv) original_lines = NULL;
      g_auto(GStrv) lines = NULL;

      g_test_message ("export of %s", names[i]);
      g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
      original_lines = comparable_lines (original, root_percent);
      lines = comparable_lines (text->str, root_percent);
      g_assert_cmpuint (g_strv_length (lines), ==, g_strv_length (original_lines));
      for (guint l = 0; original_lines[l] != NULL; l++)
        g_assert_cmpstr (lines[l], ==, original_lines[l]);

      /* Read back: the same stacks, the same text */
      again = parse (text->str);
      text_again = ps_pmcstat_text_build (again, 1000);
      g_assert_cmpstr (text_again->str, ==, text->str);
      folded = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, PS_NONE);
      folded_again = ps_folded_build (again, PS_FOLDED_ALL_SOURCES, PS_NONE);
      g_assert_cmpstr (folded_again->str, ==, folded->str);
    }
  g_regex_unref (root_percent);
}

/* Roots sum to the header; a caller's percentage is of its callee; the
 * depth limit cuts the callers */
static void
test_text_export_values (void)
{
  g_autoptr(PsEventStore) store = parse ("@ INSTR [10 samples]\n"
                                         "\n"
                                         "70.00%  [7]        leaf @ /lib/libc.so.7\n"
                                         " 57.14%  [4]        middle @ /bin/app\n"
                                         "  100.0%  [4]         main\n"
                                         " 42.86%  [3]        other\n"
                                         "\n"
                                         "30.00%  [3]        spin @ /bin/app\n"
                                         "\n");
  g_autoptr(GString) text = ps_pmcstat_text_build (store, 0);
  g_autoptr(GString) shallow = ps_pmcstat_text_build (store, 2);

  g_assert_cmpstr (text->str, ==,
                   "@ INSTR [10 samples]\n"
                   "\n"
                   "70.00%  [7]        leaf @ /lib/libc.so.7\n"
                   " 57.14%  [4]         middle @ /bin/app\n"
                   "  100.0%  [4]          main\n"
                   " 42.86%  [3]         other\n"
                   "\n"
                   "30.00%  [3]        spin @ /bin/app\n"
                   "\n");
  g_assert_cmpstr (shallow->str, ==,
                   "@ INSTR [10 samples]\n"
                   "\n"
                   "70.00%  [7]        leaf @ /lib/libc.so.7\n"
                   " 57.14%  [4]         middle @ /bin/app\n"
                   " 42.86%  [3]         other\n"
                   "\n"
                   "30.00%  [3]        spin @ /bin/app\n"
                   "\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pmcstat-callgraph/real/folded", test_real_folded);
  g_test_add_func ("/pmcstat-callgraph/real/large", test_real_large);
  g_test_add_func ("/pmcstat-callgraph/real/simple", test_simple_values);
  g_test_add_func ("/pmcstat-callgraph/real/shared", test_shared_values);
  g_test_add_func ("/pmcstat-callgraph/real/source-filter", test_source_filter);
  g_test_add_func ("/pmcstat-callgraph/real/weird-lines", test_weird_lines);
  g_test_add_func ("/pmcstat-callgraph/real/chunks", test_chunks);
  g_test_add_func ("/pmcstat-callgraph/real/call-tree", test_call_tree);
  g_test_add_func ("/pmcstat-callgraph/self-count", test_self_count);
  g_test_add_func ("/pmcstat-callgraph/malformed", test_malformed);
  g_test_add_func ("/pmcstat-callgraph/huge-count", test_huge_count);
  g_test_add_func ("/pmcstat-callgraph/fatal", test_fatal);
  g_test_add_func ("/pmcstat-callgraph/sniff", test_sniff);
  g_test_add_func ("/pmcstat-callgraph/folded-frames", test_folded_frames);
  g_test_add_func ("/pmcstat-callgraph/text-export/real", test_text_export);
  g_test_add_func ("/pmcstat-callgraph/text-export/values", test_text_export_values);

  return g_test_run ();
}

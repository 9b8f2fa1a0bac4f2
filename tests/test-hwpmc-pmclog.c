/* test-hwpmc-pmclog.c — hwpmc logs into runs: processes, maps, symbols, samples
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §5 (time), §6.2 (kernel and merged user frames),
 * §8.1–§8.2 (processes, images, load addresses, pc → function), §9.4.
 *
 * The logs come from the tests' pmclog writer; the ELF files are the real
 * ones test-symbols uses (tests/symbols/fixture.c, built by meson), placed
 * in a sysroot made for each test, and the function addresses the tests
 * expect are what nm said about them.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "ps-call-tree.h"
#include "ps-error.h"
#include "ps-folded.h"
#include "ps-format.h"
#include "ps-loader.h"
#include "ps-pmclog.h"
#include "ps-pmcstat-text.h"
#include "pmclog-writer.h"
/* cache_slot (): the tests make keys that share a slot of the frame cache */
#include "ps-format-hwpmc-pmclog-private.h"

#define VERSION_14 0x0A000000u
#define TSC_FREQ   G_GUINT64_CONSTANT (2000000000)  /* 2 GHz: 2 ticks a ns */
#define TSC0       G_GUINT64_CONSTANT (1000000)
#define WALL       G_GINT64_CONSTANT (1700000000)

#define LIB_BASE   G_GUINT64_CONSTANT (0x800400000)
#define APP_BIAS   G_GUINT64_CONSTANT (0x555500000000)
#define KERNEL_AT  G_GUINT64_CONSTANT (0xffffffff80200000)

#define CLOCK_PMC  0x00010100u
#define CYCLES_PMC 0x00020200u

#define APP_PID    42
#define WORKER_TID 100101

/* --- Fixtures ------------------------------------------------------------ */

/* Function start addresses of an ELF fixture, from nm; "NAME:size" keys
 * hold the sizes nm gave */
static GHashTable *
read_nm (const char *fixture)
{
  g_autofree char *name = g_strconcat (fixture, ".nm", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *symbols;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;

  symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit_set (lines[i], " \t", -1);
      guint n = g_strv_length (fields);
      guint64 *address;

      if (n < 3)
        continue;
      address = g_new (guint64, 1);
      *address = g_ascii_strtoull (fields[0], NULL, 16);
      g_hash_table_replace (symbols, g_strdup (fields[n - 1]), address);
      if (n >= 4)
        {
          guint64 *size = g_new (guint64, 1);

          *size = g_ascii_strtoull (fields[1], NULL, 16);
          g_hash_table_replace (symbols, g_strconcat (fields[n - 1], ":size", NULL), size);
        }
    }
  return symbols;
}

static guint64
symbol (GHashTable *symbols,
        const char *name)
{
  guint64 *address = g_hash_table_lookup (symbols, name);

  g_assert_nonnull (address);
  return *address;
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = NULL;
  g_autofree char *dir = g_path_get_dirname (to);
  gsize length;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (from, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (to, contents, length, &error));
  g_assert_no_error (error);
}

typedef struct
{
  char       *sysroot;
  GHashTable *lib;      /* nm of libfixture.so */
  GHashTable *program;  /* nm of fixture-program */
  guint64     lib_vaddr;
  guint64     program_vaddr;
} Fixture;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
    }
  g_remove (path);
}

static void
fixture_clear (Fixture *fixture)
{
  if (fixture->sysroot != NULL)
    remove_tree (fixture->sysroot);
  g_clear_pointer (&fixture->sysroot, g_free);
  g_clear_pointer (&fixture->lib, g_hash_table_unref);
  g_clear_pointer (&fixture->program, g_hash_table_unref);
}

/* The first executable PT_LOAD rounded down to its alignment: 0x1000 for
 * the fixtures the toolchain here makes (checked by test-symbols) */
#define FIXTURE_VADDR G_GUINT64_CONSTANT (0x1000)

/* A sysroot with /lib/libfixture.so.1 and /usr/bin/app; FALSE (test
 * skipped) when the build could not make the fixtures */
static gboolean
fixture_init (Fixture *fixture)
{
  g_autofree char *lib = g_test_build_filename (G_TEST_BUILT, "libfixture.so", NULL);
  g_autofree char *program = g_test_build_filename (G_TEST_BUILT, "fixture-program", NULL);
  g_autofree char *lib_to = NULL;
  g_autofree char *program_to = NULL;
  g_autoptr(GError) error = NULL;

  memset (fixture, 0, sizeof *fixture);
  fixture->lib = read_nm ("libfixture.so");
  fixture->program = read_nm ("fixture-program");
  if (fixture->lib == NULL || fixture->program == NULL
      || !g_file_test (lib, G_FILE_TEST_EXISTS) || !g_file_test (program, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the ELF fixtures were not built (no nm/objcopy/readelf)");
      return FALSE;
    }

  fixture->sysroot = g_dir_make_tmp ("perfscope-sysroot-XXXXXX", &error);
  g_assert_no_error (error);
  lib_to = g_build_filename (fixture->sysroot, "lib", "libfixture.so.1", NULL);
  program_to = g_build_filename (fixture->sysroot, "usr", "bin", "app", NULL);
  copy_file (lib, lib_to);
  copy_file (program, program_to);
  fixture->lib_vaddr = FIXTURE_VADDR;
  fixture->program_vaddr = FIXTURE_VADDR;
  return TRUE;
}

/* With a parser option name = value besides the sysroot (none when value
 * is NULL) */
static PsEventStore *
load_bytes_with (GBytes     *bytes,
                 const char *sysroot,
                 gsize       chunk_size,
                 const char *name,
                 const char *value,
                 GError    **error)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr(GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);

  if (sysroot != NULL)
    g_hash_table_insert (options, (gpointer)"sysroot", (gpointer)sysroot);
  if (value != NULL)
    g_hash_table_insert (options, (gpointer)name, (gpointer)value);
  return ps_load_stream (stream, "pmcstat.out",
                         &(PsLoadParams) {
                           .options = options,
                           .chunk_size = chunk_size,
                           .total_size = g_bytes_get_size (bytes),
                         },
                         NULL, error);
}

static PsEventStore *
load_bytes (GBytes     *bytes,
            const char *sysroot,
            gsize       chunk_size,
            GError    **error)
{
  return load_bytes_with (bytes, sysroot, chunk_size, NULL, NULL, error);
}

/* A log of a machine whose CLOCK.HARD samples, begun at TSC0 */
static PsPmclogWriter *
clock_writer_new (void)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, VERSION_14);

  ps_pmclog_writer_initialize (writer, TSC0, 0x80, TSC_FREQ, WALL, 0, "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, TSC0, CLOCK_PMC, 0x1000, 0x80, 0, "CLOCK.HARD");
  return writer;
}

/* The log of the main scenario: one process with a worker thread, the
 * library and the program mapped, the kernel mapped but not in the
 * sysroot, samples of two PMCs in user and kernel mode, and the events a
 * system-wide session has around them */
static GBytes *
make_log (Fixture *fixture)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, VERSION_14);
  guint64 lib_load = LIB_BASE + fixture->lib_vaddr;
  guint64 pcs[4];
  guint64 tsc = TSC0;

  ps_pmclog_writer_initialize (writer, tsc, 0x80, TSC_FREQ, WALL, 250000000, "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, tsc, CLOCK_PMC, 0x1000, 0x80, 0, "CLOCK.HARD");
  ps_pmclog_writer_pmcallocate (writer, tsc, CYCLES_PMC, 0x1234, 0x80, 65536);
  ps_pmclog_writer_map_in (writer, tsc, PS_PMCLOG_KERNEL_PID, KERNEL_AT, "/boot/kernel/kernel");
  ps_pmclog_writer_proc_create (writer, tsc, APP_PID, 0, "app");
  ps_pmclog_writer_thr_create (writer, tsc, WORKER_TID, APP_PID, 0, "worker");
  /* 14.x exec: the PIE program at its bias, no run-time linker */
  ps_pmclog_writer_procexec (writer, tsc + 2000, APP_PID, 0xFFFFFFFF, 0, APP_BIAS, "/usr/bin/app");
  ps_pmclog_writer_map_in (writer, tsc + 2000, APP_PID, lib_load, "/lib/libfixture.so.1");

  /* 1: user, fixture_global_one ← fixture_global_two ← main, at +1 µs */
  pcs[0] = LIB_BASE + symbol (fixture->lib, "fixture_global_one") + 4;
  pcs[1] = LIB_BASE + symbol (fixture->lib, "fixture_global_two") + 8;
  pcs[2] = APP_BIAS + symbol (fixture->program, "main") + 3;
  ps_pmclog_writer_callchain (writer, TSC0 + 2000, APP_PID, WORKER_TID, CLOCK_PMC, (3u << 16) | PS_PMCLOG_CC_USER, pcs, 3);
  /* 2: the same pcs but one: another pc of the same function shares its frame */
  pcs[0] = LIB_BASE + symbol (fixture->lib, "fixture_global_one") + 9;
  ps_pmclog_writer_callchain (writer, TSC0 + 4000, APP_PID, WORKER_TID, CLOCK_PMC, (3u << 16) | PS_PMCLOG_CC_USER, pcs, 3);
  /* 3: kernel mode, a kernel frame, then the thread's user frames (§6.2) */
  pcs[0] = KERNEL_AT + 0x100010;
  pcs[1] = LIB_BASE + symbol (fixture->lib, "_ZN6Widget4drawEv") + 2;
  pcs[2] = APP_BIAS + symbol (fixture->program, "main") + 3;
  ps_pmclog_writer_callchain (writer, TSC0 + 6000, APP_PID, WORKER_TID, CLOCK_PMC, 1u << 16, pcs, 3);
  /* 4: a pc in the 64 bytes between two functions of the library */
  pcs[0] = LIB_BASE + symbol (fixture->lib, "fixture_global_one") + symbol (fixture->lib, "fixture_global_one:size") + 16;
  pcs[1] = APP_BIAS + symbol (fixture->program, "main") + 3;
  ps_pmclog_writer_callchain (writer, TSC0 + 8000, APP_PID, WORKER_TID, CYCLES_PMC, PS_PMCLOG_CC_USER, pcs, 2);
  /* 5: a process never announced, at an address nothing maps */
  pcs[0] = 0x1234;
  ps_pmclog_writer_callchain (writer, TSC0 + 10000, 77, 100777, CYCLES_PMC, PS_PMCLOG_CC_USER, pcs, 1);
  /* 6: a PMC the log never allocated */
  pcs[0] = KERNEL_AT + 0x200;
  ps_pmclog_writer_callchain (writer, TSC0 + 12000, APP_PID, WORKER_TID, 0x00990900, 0, pcs, 1);

  ps_pmclog_writer_proccsw (writer, TSC0 + 14000, CYCLES_PMC, APP_PID, WORKER_TID, 123456);
  ps_pmclog_writer_dropnotify (writer, TSC0 + 15000);
  ps_pmclog_writer_userdata (writer, TSC0 + 15500, 0xC0FFEE);
  ps_pmclog_writer_thr_exit (writer, TSC0 + 16000, WORKER_TID);
  ps_pmclog_writer_sysexit (writer, TSC0 + 18000, APP_PID);
  ps_pmclog_writer_closelog (writer, TSC0 + 20000);
  /* Another CPU's buffer, after the close (§9.4) */
  ps_pmclog_writer_procfork (writer, TSC0 + 19000, APP_PID, 43);

  return ps_pmclog_writer_free_to_bytes (writer);
}

/* --- Helpers ------------------------------------------------------------- */

/* "outer;…;leaf" of a sample */
static char *
stack_text (PsEventStore   *store,
            const PsSample *sample)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint32 id = sample->stack; id != 0; id = ps_event_store_get_stack_node (store, id)->parent)
    {
      GString *name = g_string_new (NULL);

      ps_event_store_append_frame_name (store, ps_event_store_get_stack_node (store, id)->frame, name);
      g_ptr_array_add (names, g_string_free (name, FALSE));
    }
  for (guint i = names->len; i > 0; i--)
    {
      if (text->len > 0)
        g_string_append_c (text, ';');
      g_string_append (text, g_ptr_array_index (names, i - 1));
    }
  g_ptr_array_unref (names);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const PsFrame *
leaf_frame (PsEventStore   *store,
            const PsSample *sample)
{
  return ps_event_store_get_frame (store, ps_event_store_get_stack_node (store, sample->stack)->frame);
}

static gboolean
has_warning (PsEventStore *store,
             const char   *code,
             const char   *text)
{
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      if (g_strcmp0 (warning.code, code) == 0 && (text == NULL || strstr (warning.message, text) != NULL))
        return TRUE;
    }
  return FALSE;
}

static guint32
find_track (PsEventStore *store,
            PsTrackKind   kind,
            gint64        number)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == kind && track->number == number)
        return t;
    }
  return PS_NONE;
}

/* --- Tests --------------------------------------------------------------- */

static void
test_sniff (void)
{
  g_autoptr(GBytes) bytes = NULL;
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, VERSION_14);
  const PsFormat *format;
  guint score = 0;

  ps_pmclog_writer_initialize (writer, TSC0, 1, TSC_FREQ, WALL, 0, "AuthenticAMD-23-1-2");
  ps_pmclog_writer_closelog (writer, TSC0);
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  /* By content: the name says nothing */
  format = ps_format_sniff (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "capture.bin", &score);
  g_assert_nonnull (format);
  g_assert_cmpstr (format->name, ==, "hwpmc-pmclog");
  g_assert_cmpuint (score, >=, 90);
  g_assert_true (ps_format_lookup ("hwpmc-pmclog") == format);
}

/* A wall-clock start past 2262 (or before 1677) is no origin: a warning,
 * not an overflow (found by fuzzing) */
static void
test_wallclock_out_of_range (void)
{
  static const gint64 cases[][2] = {
    { G_GINT64_CONSTANT (9300000000), 0 },     /* 2264 */
    { G_MININT64 / 2, 0 },
    { 1700000000, G_GINT64_CONSTANT (3000000000) },  /* nanoseconds not below 1 s */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, VERSION_14);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(PsEventStore) store = NULL;
      g_autoptr(GError) error = NULL;

      ps_pmclog_writer_initialize (writer, TSC0, 1, TSC_FREQ, cases[i][0], cases[i][1], "AuthenticAMD-23-1-2");
      ps_pmclog_writer_closelog (writer, TSC0);
      bytes = ps_pmclog_writer_free_to_bytes (writer);
      store = load_bytes (bytes, NULL, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpint (ps_event_store_get_session (store, 0)->origin_unix_ns, ==, 0);
      g_assert_true (has_warning (store, "W-PMCLOG-BAD-WALLCLOCK", "is not a time Perfscope can show"));
    }
}

static void
test_model (void)
{
  Fixture fixture;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint32 process, thread, stranger;
  const PsSampleSource *clock, *cycles;
  const PsSample *sample;
  const PsFrame *frame;
  const PsTrack *track;
  gint64 begin, end;

  if (!fixture_init (&fixture))
    return;

  bytes = make_log (&fixture);
  store = load_bytes (bytes, fixture.sysroot, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_null (ps_event_store_get_error (store));
  g_assert_cmpstr (ps_event_store_get_format (store), ==, "hwpmc-pmclog");

  /* Metadata and the wall-clock origin (§5.1) */
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "pmc_version"), ==, "0xa000000");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "cpuid"), ==, "GenuineIntel-6-55-4");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "tsc_frequency_hz"), ==, "2000000000");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "time_unit"), ==, "ns");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples"), ==, "6");
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "sysroot"), ==, fixture.sysroot);
  g_assert_cmpint (ps_event_store_get_session (store, 0)->origin_unix_ns, ==, WALL * 1000000000 + 250000000);

  /* Sample sources: the PMCs by event name, and the one never allocated */
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (store), ==, 3);
  clock = ps_event_store_get_sample_source (store, 0);
  cycles = ps_event_store_get_sample_source (store, 1);
  g_assert_cmpstr (ps_event_store_get_string (store, clock->name), ==, "CLOCK.HARD");
  g_assert_cmpuint (clock->n_samples, ==, 3);
  g_assert_cmpstr (ps_event_store_get_string (store, cycles->name), ==, "event 0x1234");
  g_assert_cmpuint (cycles->rate, ==, 65536);
  g_assert_cmpuint (cycles->n_samples, ==, 2);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_sample_source (store, 2)->name), ==, "PMC 0x00990900");
  g_assert_true (has_warning (store, "W-PMCLOG-UNKNOWN-PMC", "0x00990900"));

  /* Tracks: the process by its PROC_CREATE name, its thread under it,
   * and the process that only its sample announced */
  process = find_track (store, PS_TRACK_PROCESS, APP_PID);
  thread = find_track (store, PS_TRACK_THREAD, WORKER_TID);
  stranger = find_track (store, PS_TRACK_THREAD, 100777);
  g_assert_cmpuint (process, !=, PS_NONE);
  g_assert_cmpuint (thread, !=, PS_NONE);
  g_assert_cmpuint (stranger, !=, PS_NONE);
  track = ps_event_store_get_track (store, process);
  /* exec named the program after PROC_CREATE */
  g_assert_cmpstr (ps_event_store_get_string (store, track->name), ==, "app (pid 42)");
  track = ps_event_store_get_track (store, thread);
  g_assert_cmpstr (ps_event_store_get_string (store, track->name), ==, "worker (tid 100101)");
  g_assert_cmpuint (track->parent, ==, process);
  g_assert_cmpuint (ps_event_store_get_track (store, ps_event_store_get_track (store, stranger)->parent)->number, ==, 77);

  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 6);

  /* 1: named by the library's and the program's symbols; times in ns
   * from INITIALIZE at 2 ticks a ns */
  sample = ps_event_store_get_sample (store, 0);
  g_assert_cmpint (sample->time_ns, ==, 1000);
  g_assert_cmpuint (sample->track, ==, thread);
  g_assert_cmpuint (sample->flags, ==, PS_SAMPLE_FLAG_NONE);
  {
    g_autofree char *text = stack_text (store, sample);
    g_assert_cmpstr (text, ==, "main;fixture_global_two;fixture_global_one");
  }
  frame = leaf_frame (store, sample);
  g_assert_cmpstr (ps_event_store_get_string (store, frame->module), ==, "/lib/libfixture.so.1");
  g_assert_cmpuint (frame->address, ==, symbol (fixture.lib, "fixture_global_one"));

  /* 2: another pc of the same function, the same stack */
  g_assert_cmpuint (ps_event_store_get_sample (store, 1)->stack, ==, sample->stack);

  /* 3: kernel mode; the kernel is not in the sysroot */
  sample = ps_event_store_get_sample (store, 2);
  g_assert_cmpuint (sample->flags, ==, PS_SAMPLE_FLAG_KERNEL);
  g_assert_cmpint (sample->time_ns, ==, 3000);
  {
    g_autofree char *text = stack_text (store, sample);
    g_assert_cmpstr (text, ==, "main;Widget::draw();kernel+0x100010");
  }

  /* 4: between two functions: the library and the offset from its text */
  sample = ps_event_store_get_sample (store, 3);
  g_assert_cmpuint (sample->source, ==, 1);
  {
    g_autofree char *text = stack_text (store, sample);
    g_autofree char *expected = g_strdup_printf ("main;libfixture.so.1+0x%" G_GINT64_MODIFIER "x",
                                                 symbol (fixture.lib, "fixture_global_one")
                                                 + symbol (fixture.lib, "fixture_global_one:size") + 16 - fixture.lib_vaddr);
    g_assert_cmpstr (text, ==, expected);
  }

  /* 5 and 6: outside every mapping */
  {
    g_autofree char *five = stack_text (store, ps_event_store_get_sample (store, 4));
    g_autofree char *six = stack_text (store, ps_event_store_get_sample (store, 5));

    g_assert_cmpstr (five, ==, "[unknown]");
    g_assert_cmpstr (six, ==, "kernel+0x200");
  }
  g_assert_true (has_warning (store, "W-PMCLOG-UNMAPPED", "1 sample (16.7 %) has"));

  /* What has no names, and how many samples it touches */
  g_assert_true (has_warning (store, "W-PMCLOG-NO-SYMBOLS", "/boot/kernel/kernel"));
  g_assert_true (has_warning (store, "W-PMCLOG-NO-SYMBOLS", "2 samples (33.3 %)"));
  g_assert_true (has_warning (store, "W-PMCLOG-DROPPED", NULL));
  g_assert_true (has_warning (store, "I-PMCLOG-AFTER-CLOSE", NULL));
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples_with_unresolved_frames"), ==, "2");

  /* Lifetimes as spans: the worker from THR_CREATE (time 0) to THR_EXIT */
  g_assert_cmpuint (ps_event_store_get_n_spans (store), >=, 2);
  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (i > 0)
        g_assert_cmpint (span->begin_ns, >=, ps_event_store_get_span (store, i - 1)->begin_ns);
      if (span->track == thread)
        {
          g_assert_cmpint (span->begin_ns, ==, 0);
          g_assert_cmpint (span->end_ns, ==, 8000);
          g_assert_cmpuint (span->flags, ==, PS_SPAN_FLAG_NONE);
        }
      if (span->track == process)
        {
          g_assert_cmpint (span->end_ns, ==, 9000);
          g_assert_cmpuint (span->flags, ==, PS_SPAN_FLAG_NONE);
        }
    }

  /* Marks in time order: exec, the context switch, user data, the fork */
  g_assert_cmpuint (ps_event_store_get_n_marks (store), ==, 4);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_mark (store, 0)->text), ==, "exec /usr/bin/app");
  g_assert_cmpint (ps_event_store_get_mark (store, 0)->time_ns, ==, 1000);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_mark (store, 1)->text), ==, "switched out after 123456 events");
  g_assert_cmpuint (ps_event_store_get_mark (store, 1)->track, ==, thread);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_mark (store, 2)->text), ==, "user data 0x00c0ffee");
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_mark (store, 3)->text), ==, "fork: new process 43");
  g_assert_cmpint (ps_event_store_get_mark (store, 3)->time_ns, ==, 9500);

  g_assert_true (ps_event_store_get_time_range (store, &begin, &end));
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 9500);

  /* As pmcstat -G would print it: the unmapped sample is left out */
  {
    g_autoptr(GString) text = ps_pmcstat_text_build (store, 0);
    g_autofree char *expected =
      g_strdup_printf ("@ CLOCK.HARD [3 samples]\n"
                       "\n"
                       "66.67%%  [2]        fixture_global_one @ /lib/libfixture.so.1\n"
                       " 100.0%%  [2]         fixture_global_two\n"
                       "  100.0%%  [2]          main @ /usr/bin/app\n"
                       "\n"
                       "33.33%%  [1]        0x100010 @ /boot/kernel/kernel\n"
                       " 100.0%%  [1]         Widget::draw() @ /lib/libfixture.so.1\n"
                       "  100.0%%  [1]          main @ /usr/bin/app\n"
                       "\n"
                       "@ event 0x1234 [1 samples]\n"
                       "\n"
                       "100.0%%  [1]        0x%" G_GINT64_MODIFIER "x @ /lib/libfixture.so.1\n"
                       " 100.0%%  [1]         main @ /usr/bin/app\n"
                       "\n"
                       "@ PMC 0x00990900 [1 samples]\n"
                       "\n"
                       "100.0%%  [1]        0x200 @ /boot/kernel/kernel\n"
                       "\n",
                       symbol (fixture.lib, "fixture_global_one") + symbol (fixture.lib, "fixture_global_one:size")
                       + 16 - fixture.lib_vaddr);

    g_assert_cmpstr (text->str, ==, expected);
  }

  /* The call tree: kernel samples are the OS part */
  {
    g_autoptr(PsCallTree) tree = ps_call_tree_new_for_store (store, NULL, &error);
    guint32 main_function;

    g_assert_no_error (error);
    g_assert_cmpint (ps_call_tree_get_unit (tree), ==, PS_CALL_UNIT_SAMPLES);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 6);
    g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 4);
    main_function = ps_call_tree_lookup_function (tree, "main");
    g_assert_cmpuint (main_function, !=, PS_NONE);
    g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, main_function)->total[PS_CALL_VALUE_ELAPSED_INCLUSIVE], ==, 4);
    g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, main_function)->total[PS_CALL_VALUE_APPLICATION_INCLUSIVE], ==, 3);
    g_assert_cmpstr (ps_call_tree_get_function_module (tree, main_function), ==, "/usr/bin/app");
  }

  /* Grouped by module: the named functions stay, the kernel's addresses
   * (not in the sysroot) and the library's pc between two functions are
   * one function each */
  {
    PsCallTreeOptions options = { PS_NONE, NULL, 0 };
    g_autoptr(PsCallTree) tree = NULL;
    guint32 kernel, library;
    g_autofree char *between = NULL;

    options.group_addresses = TRUE;
    tree = ps_call_tree_new_for_store (store, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 6);
    g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, ps_call_tree_lookup_function (tree, "main")), ==, 0);
    g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, ps_call_tree_lookup_function (tree, "[unknown]")), ==, 0);
    kernel = ps_call_tree_lookup_function (tree, "kernel");
    g_assert_cmpuint (kernel, !=, PS_NONE);
    g_assert_cmpstr (ps_call_tree_get_function_module (tree, kernel), ==, "/boot/kernel/kernel");
    g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, kernel), ==, 2);
    g_assert_cmpfloat (ps_call_tree_get_function_stats (tree, kernel)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE], ==, 2);
    library = ps_call_tree_lookup_function (tree, "libfixture.so.1");
    g_assert_cmpuint (library, !=, PS_NONE);
    g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, library), ==, 1);
    between = g_strdup_printf ("libfixture.so.1+0x%" G_GINT64_MODIFIER "x",
                               symbol (fixture.lib, "fixture_global_one") + symbol (fixture.lib, "fixture_global_one:size")
                               + 16 - fixture.lib_vaddr);
    g_assert_cmpstr (ps_call_tree_get_function_address_name (tree, library, 0), ==, between);
    g_assert_cmpuint (ps_call_tree_lookup_function (tree, "fixture_global_one"), !=, PS_NONE);
  }

  fixture_clear (&fixture);
}

/* Without a sysroot every frame is "module+0xoffset" and every module is
 * named in the data-quality notes */
static void
test_no_sysroot (void)
{
  Fixture fixture;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;

  if (!fixture_init (&fixture))
    return;

  bytes = make_log (&fixture);
  store = load_bytes (bytes, NULL, 0, &error);
  g_assert_no_error (error);

  {
    g_autofree char *text = stack_text (store, ps_event_store_get_sample (store, 0));
    g_autofree char *expected = g_strdup_printf ("app+0x%" G_GINT64_MODIFIER "x;libfixture.so.1+0x%" G_GINT64_MODIFIER "x;libfixture.so.1+0x%" G_GINT64_MODIFIER "x",
                                                 symbol (fixture.program, "main") + 3,
                                                 symbol (fixture.lib, "fixture_global_two") + 8 - fixture.lib_vaddr,
                                                 symbol (fixture.lib, "fixture_global_one") + 4 - fixture.lib_vaddr);
    g_assert_cmpstr (text, ==, expected);
  }
  g_assert_true (has_warning (store, "W-PMCLOG-NO-SYMBOLS", "/lib/libfixture.so.1 (no symbol folder was chosen)"));
  g_assert_true (has_warning (store, "W-PMCLOG-NO-SYMBOLS", "/usr/bin/app"));
  g_assert_null (ps_event_store_get_metadata (store, 0, "sysroot"));

  /* One function per address, or one per module: the program's one pc,
   * the library's five, the kernel's two */
  {
    PsCallTreeOptions options = { PS_NONE, NULL, 0 };
    g_autoptr(PsCallTree) plain = ps_call_tree_new_for_store (store, &options, &error);
    g_autoptr(PsCallTree) tree = NULL;
    const char *modules[] = { "app", "libfixture.so.1", "kernel" };
    const guint addresses[] = { 1, 5, 2 };
    /* inclusive, exclusive, application inclusive, application exclusive */
    const double values[][4] = { { 4, 0, 3, 0 }, { 4, 3, 3, 3 }, { 2, 2, 0, 0 } };
    double exclusive = 0;

    g_assert_no_error (error);
    g_assert_cmpuint (ps_call_tree_get_n_functions (plain), ==, 1 + 5 + 2 + 1);

    options.group_addresses = TRUE;
    tree = ps_call_tree_new_for_store (store, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (ps_call_tree_get_n_functions (tree), ==, 4);
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, ps_call_tree_get_elapsed_total (plain));
    g_assert_cmpfloat (ps_call_tree_get_elapsed_total (tree), ==, 6);
    g_assert_cmpfloat (ps_call_tree_get_application_total (tree), ==, 4);
    for (guint i = 0; i < G_N_ELEMENTS (modules); i++)
      {
        guint32 function = ps_call_tree_lookup_function (tree, modules[i]);
        const PsCallStats *stats;
        double address_exclusive = 0;

        g_assert_cmpuint (function, !=, PS_NONE);
        stats = ps_call_tree_get_function_stats (tree, function);
        g_assert_cmpuint (ps_call_tree_get_n_function_addresses (tree, function), ==, addresses[i]);
        for (PsCallValue v = 0; v < PS_N_CALL_VALUES; v++)
          g_assert_cmpfloat (stats->total[v], ==, values[i][v]);
        for (guint a = 0; a < addresses[i]; a++)
          {
            PsCallStats address;

            g_assert_true (g_str_has_prefix (ps_call_tree_get_function_address_name (tree, function, a), modules[i]));
            ps_call_tree_get_function_address_stats (tree, function, a, &address);
            address_exclusive += address.total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE];
          }
        g_assert_cmpfloat (address_exclusive, ==, values[i][1]);
      }
    for (guint32 f = 0; f < ps_call_tree_get_n_functions (tree); f++)
      exclusive += ps_call_tree_get_function_stats (tree, f)->total[PS_CALL_VALUE_ELAPSED_EXCLUSIVE];
    g_assert_cmpfloat (exclusive, ==, 6);
    /* The program calls the library: its two frames in a sample are one call */
    {
      guint32 app_node = PS_NONE;

      for (guint i = 0; i < ps_call_tree_get_n_children (tree, PS_CALL_NODE_ROOT); i++)
        {
          guint32 child = ps_call_tree_get_child (tree, PS_CALL_NODE_ROOT, i);

          if (g_str_equal (ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, child)), "app"))
            app_node = child;
        }
      g_assert_cmpuint (app_node, !=, PS_NONE);
      g_assert_cmpuint (ps_call_tree_get_n_children (tree, app_node), ==, 1);
      g_assert_cmpuint (ps_call_tree_get_n_children (tree, ps_call_tree_get_child (tree, app_node, 0)), ==, 1);
      g_assert_cmpstr (ps_call_tree_get_function_name (tree, ps_call_tree_get_node_function (tree, ps_call_tree_get_child (tree, ps_call_tree_get_child (tree, app_node, 0), 0))), ==, "kernel");
    }
  }

  fixture_clear (&fixture);
}

/* Fed in chunks of every size up to a record and beyond: the same run */
static void
test_chunks (void)
{
  Fixture fixture;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) whole = NULL;
  g_autoptr(GString) expected = NULL;

  if (!fixture_init (&fixture))
    return;

  bytes = make_log (&fixture);
  whole = load_bytes (bytes, fixture.sysroot, 0, NULL);
  expected = ps_folded_build (whole, PS_FOLDED_ALL_SOURCES, PS_NONE);
  g_assert_cmpuint (expected->len, >, 0);

  for (gsize chunk = 1; chunk <= 130; chunk += (chunk < 20 ? 1 : 7))
    {
      g_autoptr(PsEventStore) store = load_bytes (bytes, fixture.sysroot, chunk, NULL);
      g_autoptr(GString) folded = ps_folded_build (store, PS_FOLDED_ALL_SOURCES, PS_NONE);

      g_assert_cmpstr (folded->str, ==, expected->str);
      g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 6);
      g_assert_cmpuint (ps_event_store_get_n_marks (store), ==, ps_event_store_get_n_marks (whole));
      g_assert_cmpuint (ps_event_store_get_n_warnings (store), ==, ps_event_store_get_n_warnings (whole));
    }

  fixture_clear (&fixture);
}

/* Cut inside the last sample: the error names the offset, the rest stays */
static void
test_truncated (void)
{
  Fixture fixture;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) cut = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  PsPmclogWriter *writer;
  guint64 pcs[2] = { 0x1000, 0x2000 };
  gsize last;
  const GError *read_error;

  if (!fixture_init (&fixture))
    return;

  writer = clock_writer_new ();
  for (guint i = 0; i < 10; i++)
    ps_pmclog_writer_callchain (writer, TSC0 + i * 100, 5, 500, CLOCK_PMC, PS_PMCLOG_CC_USER, pcs, 2);
  last = ps_pmclog_writer_callchain (writer, TSC0 + 1000, 5, 500, CLOCK_PMC, PS_PMCLOG_CC_USER, pcs, 2);
  bytes = ps_pmclog_writer_free_to_bytes (writer);
  cut = g_bytes_new_from_bytes (bytes, 0, last + 20);

  store = load_bytes (cut, fixture.sysroot, 7, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  read_error = ps_event_store_get_error (store);
  g_assert_nonnull (read_error);
  {
    g_autofree char *offset = g_strdup_printf ("%" G_GSIZE_FORMAT, last);
    g_assert_nonnull (strstr (read_error->message, offset));
  }
  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 10);
  g_assert_cmpuint (ps_event_store_get_sample_source (store, 0)->n_samples, ==, 10);

  fixture_clear (&fixture);
}

/* fork copies the maps, MAP_OUT removes a range, exec starts over */
static void
test_maps (void)
{
  Fixture fixture;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  PsPmclogWriter *writer;
  guint64 lib_load;
  guint64 pc;

  if (!fixture_init (&fixture))
    return;

  lib_load = LIB_BASE + fixture.lib_vaddr;
  pc = LIB_BASE + symbol (fixture.lib, "fixture_after_zero_sized") + 1;
  writer = clock_writer_new ();
  ps_pmclog_writer_map_in (writer, TSC0, 10, lib_load, "/lib/libfixture.so.1");
  ps_pmclog_writer_procfork (writer, TSC0, 10, 11);
  /* 10 unmaps the library; 11 keeps its copy */
  ps_pmclog_writer_map_out (writer, TSC0, 10, LIB_BASE, LIB_BASE + 0x100000);
  ps_pmclog_writer_callchain (writer, TSC0 + 10, 10, 1000, CLOCK_PMC, PS_PMCLOG_CC_USER, &pc, 1);
  ps_pmclog_writer_callchain (writer, TSC0 + 20, 11, 1100, CLOCK_PMC, PS_PMCLOG_CC_USER, &pc, 1);
  /* 11 runs another program: the library is gone */
  ps_pmclog_writer_procexec (writer, TSC0 + 30, 11, 0xFFFFFFFF, 0, APP_BIAS, "/usr/bin/app");
  ps_pmclog_writer_callchain (writer, TSC0 + 40, 11, 1100, CLOCK_PMC, PS_PMCLOG_CC_USER, &pc, 1);
  /* A 13.x-style run-time linker: not in the sysroot, so no mapping for it */
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  store = load_bytes (bytes, fixture.sysroot, 0, NULL);
  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 3);
  {
    g_autofree char *unmapped = stack_text (store, ps_event_store_get_sample (store, 0));
    g_autofree char *inherited = stack_text (store, ps_event_store_get_sample (store, 1));
    g_autofree char *after_exec = stack_text (store, ps_event_store_get_sample (store, 2));

    g_assert_cmpstr (unmapped, ==, "[unknown]");
    g_assert_cmpstr (inherited, ==, "fixture_after_zero_sized");
    g_assert_cmpstr (after_exec, ==, "[unknown]");
  }
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_track (store, find_track (store, PS_TRACK_PROCESS, 11))->name),
                   ==, "app (pid 11)");

  fixture_clear (&fixture);
}

/* Chains that repeat whole or but for their sampled pc, many more than
 * the parser takes in one batch, in user and kernel mode, with a library
 * mapped half way: every sample's stack is what its own pcs say,
 * whether the parser walked the chain or found it whole */
static void
test_repeated_chains (void)
{
  PsPmclogWriter *writer = clock_writer_new ();
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint64 tsc = TSC0;

  ps_pmclog_writer_map_in (writer, tsc, PS_PMCLOG_KERNEL_PID, KERNEL_AT, "/boot/kernel/kernel");
  ps_pmclog_writer_proc_create (writer, tsc, APP_PID, 0, "app");
  ps_pmclog_writer_map_in (writer, tsc, APP_PID, 0x400000, "/usr/bin/shape");

  for (guint round = 0; round < 60; round++)
    {
      /* innermost first: the sampled pc varies among four */
      guint64 user[4] = { 0x401000 + 4 * (round % 4), 0x402010, 0x403020, 0x404030 };
      guint64 kernel[4] = { KERNEL_AT + 0x500, 0x402010, 0x403020, 0x404030 };
      guint64 library[3] = { 0x200010, 0x403020, 0x404030 };

      if (round == 30)
        ps_pmclog_writer_map_in (writer, tsc, APP_PID, 0x200000, "/lib/libx.so.1");

      ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, PS_PMCLOG_CC_USER, user, 4);
      g_ptr_array_add (expected, g_strdup_printf ("shape+0x4030;shape+0x3020;shape+0x2010;shape+0x%x",
                                                  0x1000 + 4 * (round % 4)));
      ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, 0, kernel, 4);
      g_ptr_array_add (expected, g_strdup ("shape+0x4030;shape+0x3020;shape+0x2010;kernel+0x500"));
      ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, PS_PMCLOG_CC_USER, library, 3);
      g_ptr_array_add (expected, g_strdup (round < 30 ? "shape+0x4030;shape+0x3020;[unknown]"
                                                      : "shape+0x4030;shape+0x3020;libx.so.1+0x10"));
    }
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  /* Whole, and fed in pieces of 100 bytes; with the trie of chains as
   * large as it may be, and starting over every few nodes or after every
   * sample */
  for (guint run = 0; run < 6; run++)
    {
      const char *trie_nodes[] = { NULL, "7", "2" };

      store = load_bytes_with (bytes, NULL, run % 2 ? 100 : 0, "chain-trie-nodes", trie_nodes[run / 2], &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, expected->len);
      for (guint i = 0; i < expected->len; i++)
        {
          g_autofree char *text = stack_text (store, ps_event_store_get_sample (store, i));

          g_assert_cmpstr (text, ==, g_ptr_array_index (expected, i));
        }
      g_clear_object (&store);
    }
}

/* The log read with a trie of chains that never starts over (whole),
 * and with one that starts over from trie_nodes nodes (bounded) */
static void
load_whole_and_bounded (GBytes        *bytes,
                        const char    *trie_nodes,
                        PsEventStore **whole,
                        PsEventStore **bounded)
{
  g_autoptr(GError) error = NULL;

  *whole = load_bytes (bytes, NULL, 0, &error);
  g_assert_no_error (error);
  *bounded = load_bytes_with (bytes, NULL, 0, "chain-trie-nodes", trie_nodes, &error);
  g_assert_no_error (error);
}

/* Chains of pcs that never repeat, 150,000 prefixes in all: with the trie
 * of chains starting over from 140,000 nodes, its arrays stop short of
 * the next power of two, and every sample's stack is still the one read
 * with a trie that never starts over */
static void
test_trie_bounds (void)
{
  PsPmclogWriter *writer = clock_writer_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) whole = NULL;
  g_autoptr(PsEventStore) bounded = NULL;
  guint64 tsc = TSC0;

  ps_pmclog_writer_proc_create (writer, tsc, APP_PID, 0, "app");
  ps_pmclog_writer_map_in (writer, tsc, APP_PID, 0x400000, "/usr/bin/shape");
  for (guint i = 0; i < 5000; i++)
    {
      guint64 pcs[30];

      for (guint j = 0; j < G_N_ELEMENTS (pcs); j++)
        pcs[j] = 0x400000 + (guint64)(i * G_N_ELEMENTS (pcs) + j) * 4;
      ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, PS_PMCLOG_CC_USER, pcs, G_N_ELEMENTS (pcs));
    }
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  load_whole_and_bounded (bytes, "140000", &whole, &bounded);
  g_assert_cmpuint (ps_event_store_get_n_samples (whole), ==, 5000);
  g_assert_cmpuint (ps_event_store_get_n_stack_nodes (whole), >, 150000);
  g_assert_cmpuint (ps_event_store_get_n_samples (bounded), ==, 5000);
  g_assert_cmpuint (ps_event_store_get_n_stack_nodes (bounded), ==, ps_event_store_get_n_stack_nodes (whole));
  for (guint i = 0; i < 5000; i += 7)
    {
      g_autofree char *expected = stack_text (whole, ps_event_store_get_sample (whole, i));
      g_autofree char *text = stack_text (bounded, ps_event_store_get_sample (bounded, i));

      g_assert_cmpstr (text, ==, expected);
    }
}

/* Chains of two processes with a hot part (the outer 20 pcs of each
 * process's chains) and a new inner part, some repeated whole: when the
 * trie of chains starts over (every 600 nodes), it keeps the paths that
 * samples found again, renumbered, and every sample's stack is still the
 * one read with a trie that never starts over, the stack nodes and
 * frames the same ones in the same order */
static void
test_trie_keeps_found (void)
{
  PsPmclogWriter *writer = clock_writer_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) whole = NULL;
  g_autoptr(PsEventStore) bounded = NULL;
  guint64 tsc = TSC0;

  ps_pmclog_writer_map_in (writer, tsc, PS_PMCLOG_KERNEL_PID, KERNEL_AT, "/boot/kernel/kernel");
  for (guint p = 0; p < 2; p++)
    {
      ps_pmclog_writer_proc_create (writer, tsc, APP_PID + p, 0, "app");
      ps_pmclog_writer_map_in (writer, tsc, APP_PID + p, 0x400000, "/usr/bin/shape");
    }
  for (guint i = 0; i < 3000; i++)
    {
      /* A sample in three repeats the chain of seven samples before */
      guint chain = i % 3 == 2 && i >= 7 ? i - 7 : i;
      guint32 pid = APP_PID + chain % 2;
      gboolean kernel = chain % 5 == 0;
      guint64 pcs[32];
      guint n = 0;

      if (kernel)
        pcs[n++] = KERNEL_AT + 0x100 + (chain % 13) * 4;
      for (guint j = 0; j < 8; j++)
        pcs[n++] = 0x500000 + (guint64)(chain * 8 + j) * 4;
      for (guint j = 0; j < 20; j++)
        pcs[n++] = 0x400000 + (guint64)(19 - j) * 0x40 + (chain % 2) * 0x1000;
      ps_pmclog_writer_callchain (writer, ++tsc, pid, WORKER_TID + chain % 2, CLOCK_PMC,
                                  kernel ? 0 : PS_PMCLOG_CC_USER, pcs, n);
    }
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  load_whole_and_bounded (bytes, "600", &whole, &bounded);
  g_assert_cmpuint (ps_event_store_get_n_samples (bounded), ==, 3000);
  g_assert_cmpuint (ps_event_store_get_n_samples (whole), ==, 3000);
  g_assert_cmpuint (ps_event_store_get_n_stack_nodes (bounded), ==, ps_event_store_get_n_stack_nodes (whole));
  g_assert_cmpuint (ps_event_store_get_n_frames (bounded), ==, ps_event_store_get_n_frames (whole));
  for (guint32 id = 0; id < ps_event_store_get_n_stack_nodes (whole); id++)
    {
      g_assert_cmpuint (ps_event_store_get_stack_node (bounded, id)->parent, ==, ps_event_store_get_stack_node (whole, id)->parent);
      g_assert_cmpuint (ps_event_store_get_stack_node (bounded, id)->frame, ==, ps_event_store_get_stack_node (whole, id)->frame);
    }
  for (guint i = 0; i < 3000; i++)
    {
      g_autofree char *expected = stack_text (whole, ps_event_store_get_sample (whole, i));
      g_autofree char *text = stack_text (bounded, ps_event_store_get_sample (bounded, i));

      g_assert_cmpuint (ps_event_store_get_sample (bounded, i)->stack, ==, ps_event_store_get_sample (whole, i)->stack);
      g_assert_cmpstr (text, ==, expected);
    }
  g_assert_cmpstr (ps_event_store_get_metadata (bounded, 0, "samples_with_unresolved_frames"), ==,
                   ps_event_store_get_metadata (whole, 0, "samples_with_unresolved_frames"));
}

/* An address in an image whose key shares the frame cache's slot of
 * (address, image) with the key (other_address, other_image) */
static guint64
colliding_address (guint64 address,
                   guint32 image,
                   guint32 other_image,
                   guint64 other_address)
{
  guint32 slot = cache_slot (other_address, other_image);

  for (guint64 candidate = address;; candidate += 4)
    if (cache_slot (candidate, image) == slot && (candidate != other_address || image != other_image))
      return candidate;
}

/* The frame cache keys a pc by its image and its address in it. Keys
 * that share a slot (another address of the image, an address in
 * another image), the same address in two images, and one library at
 * two load addresses in two processes, sampled in turns with the trie of
 * chains starting over after each sample (so that every pc is resolved
 * again), each keep their own frame, and a frame without a name found in
 * the cache still counts its sample as unresolved */
static void
test_frame_cache (void)
{
  const guint64 a_at = G_GUINT64_CONSTANT (0x800000000);
  const guint64 b_at = G_GUINT64_CONSTANT (0x900000000);
  const guint64 a_elsewhere = G_GUINT64_CONSTANT (0xa00000000);
  PsPmclogWriter *writer = clock_writer_new ();
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) bytes = NULL;
  guint64 tsc = TSC0;
  guint64 shared;
  guint64 a_other;
  guint64 b_other;
  guint unmapped = 0;

  /* liba is image 0 and libb image 1, in the order they are mapped. The
   * same address in two images never shares a slot (the images' keys
   * differ by a multiple of the multiplier that moves the slot's bits),
   * so two other keys share the slot of one address in both */
  shared = 0x1000;
  g_assert_cmpuint (cache_slot (shared, 0), !=, cache_slot (shared, 1));
  a_other = colliding_address (0x1000, 0, 0, shared);
  b_other = colliding_address (0x1000, 1, 0, shared);
  g_assert_cmpuint (cache_slot (a_other, 0), ==, cache_slot (shared, 0));
  g_assert_cmpuint (cache_slot (b_other, 1), ==, cache_slot (shared, 0));
  g_assert_cmpuint (a_other, !=, shared);
  g_assert_cmpuint (b_other, !=, shared);

  ps_pmclog_writer_proc_create (writer, tsc, APP_PID, 0, "app");
  ps_pmclog_writer_proc_create (writer, tsc, APP_PID + 1, 0, "other");
  ps_pmclog_writer_map_in (writer, tsc, APP_PID, a_at, "/lib/liba.so.1");
  ps_pmclog_writer_map_in (writer, tsc, APP_PID, b_at, "/lib/libb.so.1");
  ps_pmclog_writer_map_in (writer, tsc, APP_PID + 1, a_elsewhere, "/lib/liba.so.1");
  for (guint round = 0; round < 40; round++)
    {
      const struct
      {
        guint32     pid;
        guint64     pc;
        const char *module;
        guint64     address;
      } turns[] = {
        { APP_PID, a_at + shared, "liba.so.1", shared },
        { APP_PID, b_at + shared, "libb.so.1", shared },
        { APP_PID, a_at + a_other, "liba.so.1", a_other },
        { APP_PID, b_at + b_other, "libb.so.1", b_other },
        { APP_PID + 1, a_elsewhere + shared, "liba.so.1", shared },
        { APP_PID + 1, a_elsewhere + a_other, "liba.so.1", a_other },
        /* Where the other process maps nothing */
        { APP_PID + 1, b_at + shared, NULL, 0 },
      };
      guint turn = round % G_N_ELEMENTS (turns);

      /* Every turn, starting at a different one each round */
      for (guint i = 0; i < G_N_ELEMENTS (turns); i++, turn = (turn + 1) % G_N_ELEMENTS (turns))
        {
          ps_pmclog_writer_callchain (writer, ++tsc, turns[turn].pid, PS_PMCLOG_NO_TID, CLOCK_PMC, PS_PMCLOG_CC_USER,
                                      &turns[turn].pc, 1);
          if (turns[turn].module != NULL)
            g_ptr_array_add (expected, g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", turns[turn].module,
                                                        turns[turn].address));
          else
            {
              g_ptr_array_add (expected, g_strdup ("[unknown]"));
              unmapped++;
            }
        }
    }
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  for (guint run = 0; run < 2; run++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PsEventStore) store = load_bytes_with (bytes, NULL, 0, "chain-trie-nodes", run == 0 ? "2" : NULL, &error);
      g_autofree char *unresolved = g_strdup_printf ("%u", expected->len - unmapped);

      g_assert_no_error (error);
      g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, expected->len);
      for (guint i = 0; i < expected->len; i++)
        {
          g_autofree char *text = stack_text (store, ps_event_store_get_sample (store, i));

          g_assert_cmpstr (text, ==, g_ptr_array_index (expected, i));
        }
      /* Two addresses of liba, two of libb, [unknown] and [kernel] */
      g_assert_cmpuint (ps_event_store_get_n_frames (store), ==, 2 + 2 + 2);
      g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples_with_unresolved_frames"), ==, unresolved);
    }
}

/* Samples whose chains pass more images without names than a trie
 * node's summary of its path holds, some repeated so that their caller
 * chains are kept: each image counts each sample that passes it once */
static void
test_many_images (void)
{
  PsPmclogWriter *writer = clock_writer_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  guint64 tsc = TSC0;
  guint64 all[41];
  /* Innermost first, the program outermost */
  guint64 high[4] = { 0x10000010 + 39 * 0x100000, 0x10000010 + 35 * 0x100000, 0x10000010 + 5 * 0x100000, 0x400010 };
  guint64 repeated[3] = { 0x10000030 + 2 * 0x100000, 0x10000040 + 2 * 0x100000, 0x400030 };
  guint64 unmapped[2] = { 0x7000, 0x400050 };
  /* Samples per library: every one is on the chain of all 41 pcs, twice */
  guint expected[40];

  ps_pmclog_writer_proc_create (writer, tsc, APP_PID, 0, "app");
  ps_pmclog_writer_map_in (writer, tsc, APP_PID, 0x400000, "/usr/bin/app");
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *path = g_strdup_printf ("/lib/lib%u.so.1", i);

      ps_pmclog_writer_map_in (writer, tsc, APP_PID, 0x10000000 + (guint64)i * 0x100000, path);
      all[i] = 0x10000020 + (guint64)i * 0x100000;
      expected[i] = 2;
    }
  all[40] = 0x400020;
  expected[39] += 3;
  expected[35] += 3;
  expected[5] += 3;
  expected[2] += 4;

  for (guint round = 0; round < 4; round++)
    {
      if (round < 3)
        ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, PS_PMCLOG_CC_USER, high, 4);
      if (round < 2)
        {
          ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, PS_PMCLOG_CC_USER, all, 41);
          ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, PS_PMCLOG_CC_USER, unmapped, 2);
        }
      ps_pmclog_writer_callchain (writer, ++tsc, APP_PID, WORKER_TID, CLOCK_PMC, PS_PMCLOG_CC_USER, repeated, 3);
    }
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  for (guint chunked = 0; chunked < 2; chunked++)
    {
      g_autoptr(PsEventStore) store = load_bytes (bytes, NULL, chunked ? 100 : 0, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 11);
      g_assert_true (has_warning (store, "W-PMCLOG-NO-SYMBOLS", "/usr/bin/app (no symbol folder was chosen): 11 samples ("));
      for (guint i = 0; i < 40; i++)
        {
          g_autofree char *text = g_strdup_printf ("/lib/lib%u.so.1 (no symbol folder was chosen): %u samples (",
                                                   i, expected[i]);

          g_assert_true (has_warning (store, "W-PMCLOG-NO-SYMBOLS", text));
        }
      g_assert_true (has_warning (store, "W-PMCLOG-UNMAPPED", "2 samples ("));
      g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "samples_with_unresolved_frames"), ==, "11");
    }
}

/* A big-endian legacy log (FreeBSD 10): coarse times, no threads */
static void
test_legacy (void)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_LEGACY, 8, TRUE, 0x03010000);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint64 pcs[2] = { 0x400123, 0x400456 };
  const PsSample *sample;

  ps_pmclog_writer_initialize (writer, PS_PMCLOG_WRITER_LEGACY_TIME (1500000000, 1000), 0x90, 0, 0, 0, NULL);
  ps_pmclog_writer_pmcallocatedyn (writer, PS_PMCLOG_WRITER_LEGACY_TIME (1500000000, 1000), 0x1000000, 0x1000, 0x80, 0, "PAGE_FAULT.ALL");
  ps_pmclog_writer_map_in (writer, PS_PMCLOG_WRITER_LEGACY_TIME (1500000000, 1000), 9, 0x400000, "/bin/dd");
  ps_pmclog_writer_callchain (writer, PS_PMCLOG_WRITER_LEGACY_TIME (1500000002, 5000), 9, 0, 0x1000000, PS_PMCLOG_CC_USER, pcs, 2);
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  store = load_bytes (bytes, NULL, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "byte_order"), ==, "big-endian");
  g_assert_true (has_warning (store, "I-PMCLOG-COARSE-TIME", NULL));
  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 1);
  sample = ps_event_store_get_sample (store, 0);
  g_assert_cmpint (sample->time_ns, ==, G_GINT64_CONSTANT (2000004000));
  /* No thread ids before FreeBSD 12: the sample is the process's */
  g_assert_cmpuint (ps_event_store_get_track (store, sample->track)->kind, ==, PS_TRACK_PROCESS);
  {
    g_autofree char *text = stack_text (store, sample);
    g_assert_cmpstr (text, ==, "dd+0x456;dd+0x123");
  }
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_sample_source (store, 0)->name), ==, "PAGE_FAULT.ALL");
}

/* A stream that is not a kernel log at all never gets this format, and a
 * corrupt header after good records keeps them */
static void
test_corrupt (void)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, VERSION_14);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PsEventStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint64 pc = 0x1000;
  gsize bad;
  const guint8 junk[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

  ps_pmclog_writer_initialize (writer, TSC0, 0x80, TSC_FREQ, WALL, 0, "GenuineIntel-6-55-4");
  ps_pmclog_writer_callchain (writer, TSC0 + 10, 5, 50, CLOCK_PMC, PS_PMCLOG_CC_USER, &pc, 1);
  bad = ps_pmclog_writer_raw (writer, 0x12100030, junk, sizeof junk);
  ps_pmclog_writer_callchain (writer, TSC0 + 20, 5, 50, CLOCK_PMC, PS_PMCLOG_CC_USER, &pc, 1);
  bytes = ps_pmclog_writer_free_to_bytes (writer);

  store = load_bytes (bytes, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ps_event_store_get_error (store));
  {
    g_autofree char *offset = g_strdup_printf ("%" G_GSIZE_FORMAT, bad);
    g_assert_nonnull (strstr (ps_event_store_get_error (store)->message, offset));
  }
  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hwpmc-pmclog/sniff", test_sniff);
  g_test_add_func ("/hwpmc-pmclog/wallclock-out-of-range", test_wallclock_out_of_range);
  g_test_add_func ("/hwpmc-pmclog/model", test_model);
  g_test_add_func ("/hwpmc-pmclog/no-sysroot", test_no_sysroot);
  g_test_add_func ("/hwpmc-pmclog/chunks", test_chunks);
  g_test_add_func ("/hwpmc-pmclog/truncated", test_truncated);
  g_test_add_func ("/hwpmc-pmclog/maps", test_maps);
  g_test_add_func ("/hwpmc-pmclog/repeated-chains", test_repeated_chains);
  g_test_add_func ("/hwpmc-pmclog/trie-bounds", test_trie_bounds);
  g_test_add_func ("/hwpmc-pmclog/trie-keeps-found", test_trie_keeps_found);
  g_test_add_func ("/hwpmc-pmclog/frame-cache", test_frame_cache);
  g_test_add_func ("/hwpmc-pmclog/many-images", test_many_images);
  g_test_add_func ("/hwpmc-pmclog/legacy", test_legacy);
  g_test_add_func ("/hwpmc-pmclog/corrupt", test_corrupt);

  return g_test_run ();
}

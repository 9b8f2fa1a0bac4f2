/* test-collector-hwpmc.c — the hwpmc collector, with a fake kernel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collector's code is linked in and given tests/fake-libpmc.c, which
 * writes a log made by tests/pmclog-writer into the collector's pipe
 * from a thread of its own. A live run must give the store that opening
 * the same log as a file gives. The module of the build
 * (PERFSCOPE_COLLECTOR_DIR) is loaded in a subprocess: on this system it
 * has no libpmc and must say so.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "collector-test-util.h"
#include "fake-libpmc.h"
#include "pmclog-writer.h"
#include "ps-collector.h"
#include "ps-error.h"
#include "ps-hwpmc-collector.h"
#include "ps-loader.h"

#define VERSION_14 0x0A000000u
#define TSC_FREQ   G_GUINT64_CONSTANT (2000000000)
#define TSC0       G_GUINT64_CONSTANT (1000000)
#define WALL       G_GINT64_CONSTANT (1700000000)
#define LIB_AT     G_GUINT64_CONSTANT (0x800400000)
#define APP_AT     G_GUINT64_CONSTANT (0x555500000000)
#define KERNEL_AT  G_GUINT64_CONSTANT (0xffffffff80200000)
#define CLOCK_PMC  0x00010100u
#define INSTR_PMC  0x00020200u
#define APP_PID    42
#define MAIN_TID   100100
#define WORKER_TID 100101
#define N_SAMPLES  3000

static PsCollector *
new_collector (FakeLibpmc *fake)
{
  PsCollector *collector;

  collector_test_ensure_module (ps_hwpmc_collector_register);
  collector = g_object_new (PS_TYPE_HWPMC_COLLECTOR, NULL);
  ps_hwpmc_collector_set_backend (PS_HWPMC_COLLECTOR (collector),
                                  fake != NULL ? fake_libpmc_get_backend (fake) : NULL);
  return collector;
}

/* --- The log ---------------------------------------------------------------- */

/* A system-wide session: the kernel, a process with two threads that
 * execs, maps a library and forks, samples of two PMCs in user and kernel
 * mode, a user mark, a context switch and the exits. middle_record (may
 * be NULL) receives the offset of the record in the middle of the
 * samples. */
static GBytes *
make_log (gsize *middle_record)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, VERSION_14);
  guint64 tsc = TSC0;
  guint64 pcs[5];

  ps_pmclog_writer_initialize (writer, tsc, 0x80, TSC_FREQ, WALL, 250000000, "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, tsc, CLOCK_PMC, 0x1000, 0x80, 0, "CLOCK.HARD");
  ps_pmclog_writer_pmcallocatedyn (writer, tsc, INSTR_PMC, 0x2000, 0x80, 1000, "instructions");
  ps_pmclog_writer_map_in (writer, tsc, PS_PMCLOG_KERNEL_PID, KERNEL_AT, "/boot/kernel/kernel");
  ps_pmclog_writer_proc_create (writer, tsc, APP_PID, 0, "app");
  ps_pmclog_writer_thr_create (writer, tsc, MAIN_TID, APP_PID, 0, "app");
  ps_pmclog_writer_thr_create (writer, tsc, WORKER_TID, APP_PID, 0, "worker");
  ps_pmclog_writer_procexec (writer, tsc + 2000, APP_PID, 0xFFFFFFFF, 0, APP_AT, "/usr/bin/app");
  ps_pmclog_writer_map_in (writer, tsc + 2000, APP_PID, LIB_AT, "/lib/libapp.so.1");

  for (guint i = 0; i < N_SAMPLES; i++)
    {
      gboolean kernel = i % 7 == 3;
      guint n = 0;

      tsc = TSC0 + 4000 + 2000 * (guint64)i;
      if (middle_record != NULL && i == N_SAMPLES / 2)
        *middle_record = ps_pmclog_writer_get_length (writer);
      if (kernel)
        pcs[n++] = KERNEL_AT + 0x1000 + 16 * (i % 5);
      pcs[n++] = LIB_AT + 0x2000 + 32 * (i % 11);
      pcs[n++] = LIB_AT + 0x4000 + 64 * (i % 3);
      pcs[n++] = APP_AT + 0x1100;
      ps_pmclog_writer_callchain (writer, tsc, APP_PID, i % 2 == 0 ? MAIN_TID : WORKER_TID,
                                  i % 4 == 0 ? CLOCK_PMC : INSTR_PMC,
                                  ((i % 4) << 16) | (kernel ? 0 : PS_PMCLOG_CC_USER), pcs, n);
      if (i == N_SAMPLES / 3)
        ps_pmclog_writer_userdata (writer, tsc + 1, 0xC0FFEE);
      if (i == N_SAMPLES / 4)
        ps_pmclog_writer_procfork (writer, tsc + 1, APP_PID, 43);
    }

  tsc += 2000;
  ps_pmclog_writer_proccsw (writer, tsc, INSTR_PMC, APP_PID, WORKER_TID, 123456);
  ps_pmclog_writer_thr_exit (writer, tsc + 100, WORKER_TID);
  ps_pmclog_writer_sysexit (writer, tsc + 200, APP_PID);
  ps_pmclog_writer_closelog (writer, tsc + 300);

  return ps_pmclog_writer_free_to_bytes (writer);
}

/* --- Comparing runs ---------------------------------------------------------- */

static void
append_stack (GString        *out,
              PsEventStore   *store,
              guint32         stack)
{
  for (guint32 id = stack; id != 0; id = ps_event_store_get_stack_node (store, id)->parent)
    {
      g_string_append_c (out, ' ');
      ps_event_store_append_frame_name (store, ps_event_store_get_stack_node (store, id)->frame, out);
    }
}

/* What a run holds, as text: tracks, sample sources, samples with their
 * stacks, spans, marks, warnings, the origin and the log's metadata */
static char *
describe_store (PsEventStore *store)
{
  GString *out = g_string_new (NULL);
  static const char * const keys[] = { "pmc_version", "cpuid", "tsc_frequency_hz", "samples", "sysroot" };

  g_string_append_printf (out, "format %s\n", ps_event_store_get_format (store));
  g_string_append_printf (out, "origin %" G_GINT64_FORMAT "\n", ps_event_store_get_session (store, 0)->origin_unix_ns);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_string_append_printf (out, "%s=%s\n", keys[i], ps_event_store_get_metadata (store, 0, keys[i]));

  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      g_string_append_printf (out, "track %u kind %u \"%s\" number %" G_GINT64_FORMAT " parent %d\n", t, track->kind,
                              ps_event_store_get_string (store, track->name), track->number, (int)track->parent);
    }
  for (guint s = 0; s < ps_event_store_get_n_sample_sources (store); s++)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (store, s);

      g_string_append_printf (out, "source \"%s\" rate %" G_GUINT64_FORMAT " samples %" G_GUINT64_FORMAT "\n",
                              ps_event_store_get_string (store, source->name), source->rate, source->n_samples);
    }
  for (guint64 i = 0; i < ps_event_store_get_n_samples (store); i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);

      g_string_append_printf (out, "sample %" G_GINT64_FORMAT " track %d weight %u flags %u source %u:",
                              sample->time_ns, (int)sample->track, sample->weight, sample->flags, sample->source);
      append_stack (out, store, sample->stack);
      g_string_append_c (out, '\n');
    }
  for (guint64 i = 0; i < ps_event_store_get_n_spans (store); i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      g_string_append_printf (out, "span %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " track %d \"%s\" flags %u\n",
                              span->begin_ns, span->end_ns, (int)span->track,
                              ps_event_store_get_string (store, span->name), span->flags);
    }
  for (guint64 i = 0; i < ps_event_store_get_n_marks (store); i++)
    {
      const PsMark *mark = ps_event_store_get_mark (store, i);

      g_string_append_printf (out, "mark %" G_GINT64_FORMAT " track %d \"%s\"\n", mark->time_ns, (int)mark->track,
                              ps_event_store_get_string (store, mark->text));
    }
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      g_string_append_printf (out, "warning %s %s\n", warning.code, warning.message);
    }
  if (ps_event_store_get_error (store) != NULL)
    g_string_append_printf (out, "error %s\n", ps_event_store_get_error (store)->message);
  return g_string_free (out, FALSE);
}

static PsEventStore *
load_log (GBytes     *log,
          const char *sysroot)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (log);
  g_autoptr(GHashTable) options = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  g_hash_table_insert (options, (gpointer)"sysroot", (gpointer)sysroot);
  store = ps_load_stream (stream, "live.pmclog",
                          &(PsLoadParams) { .options = options, .total_size = g_bytes_get_size (log) }, NULL, &error);
  g_assert_no_error (error);
  return store;
}

/* --- Recording ---------------------------------------------------------------- */

static gboolean
is_written (gpointer user_data)
{
  return fake_libpmc_is_written (user_data);
}

/* Records until the fake kernel has written its log, then stops; the
 * number of samples the store had before stop in *n_live_samples */
static PsEventStore *
record (FakeLibpmc *fake,
        GHashTable *options,
        guint64    *n_live_samples)
{
  g_autoptr(PsCollector) collector = new_collector (fake);

  return collector_test_record (collector, options, is_written, fake, ps_event_store_get_n_samples, n_live_samples);
}

static GHashTable *
new_options (const char *sysroot,
             ...)
{
  GHashTable *options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  va_list args;

  g_hash_table_insert (options, g_strdup ("sysroot"), g_strdup (sysroot));
  va_start (args, sysroot);
  for (const char *key = va_arg (args, const char *); key != NULL; key = va_arg (args, const char *))
    g_hash_table_insert (options, g_strdup (key), g_strdup (va_arg (args, const char *)));
  va_end (args);
  return options;
}

static char *
make_sysroot (void)
{
  g_autoptr(GError) error = NULL;
  char *sysroot = g_dir_make_tmp ("perfscope-hwpmc-XXXXXX", &error);

  g_assert_no_error (error);
  return sysroot;
}

/* --- Tests ---------------------------------------------------------------------- */

/* System mode on two CPUs: the calls of hwpmc-pmclog.md §9.2 in the
 * order of §9.3, and the live run equals the log opened as a file */
static void
test_system (void)
{
  g_autofree char *sysroot = make_sysroot ();
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autofree char *saved_log = g_build_filename (sysroot, "live.pmclog", NULL);
  g_autoptr(GHashTable) options = new_options (sysroot, "events", "instructions, CLOCK.HARD", "rate", "1000",
                                               "log", saved_log, NULL);
  g_autoptr(PsEventStore) live = NULL;
  g_autoptr(PsEventStore) file = NULL;
  g_autofree char *saved_contents = NULL;
  gsize saved_size = 0;
  g_autofree char *live_text = NULL;
  g_autofree char *file_text = NULL;
  g_autofree char *calls = NULL;
  guint64 n_live_samples;

  live = record (fake, options, &n_live_samples);
  calls = fake_libpmc_get_calls (fake);
  g_assert_cmpstr (calls, ==,
                   "init\n"
                   "configure_logfile pipe\n"
                   "allocate instructions system cpu 0 rate 1000 callchains\n"
                   "allocate instructions system cpu 1 rate 1000 callchains\n"
                   "allocate CLOCK.HARD system cpu 0 rate 1000 callchains\n"
                   "allocate CLOCK.HARD system cpu 1 rate 1000 callchains\n"
                   "start 0x100\nstart 0x101\nstart 0x102\nstart 0x103\n"
                   "stop 0x100\nstop 0x101\nstop 0x102\nstop 0x103\n"
                   "close_logfile\n"
                   "release 0x100\nrelease 0x101\nrelease 0x102\nrelease 0x103\n"
                   "configure_logfile -1\n");

  /* Samples reached the store while recording */
  g_assert_cmpuint (n_live_samples, >, 0);
  g_assert_cmpuint (ps_event_store_get_n_samples (live), ==, N_SAMPLES);
  g_assert_null (ps_event_store_get_error (live));
  g_assert_cmpuint (ps_event_store_get_bytes_read (live), ==, g_bytes_get_size (log));
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "collector"), ==, "hwpmc");
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "events"), ==, "instructions,CLOCK.HARD");
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "mode"), ==, "system");
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "rate"), ==, "1000");
  g_assert_cmpuint (ps_event_store_get_n_marks (live), >, 0);
  g_assert_cmpuint (ps_event_store_get_n_sample_sources (live), ==, 2);

  file = load_log (log, sysroot);
  live_text = describe_store (live);
  file_text = describe_store (file);
  g_assert_cmpstr (live_text, ==, file_text);
  g_assert_nonnull (strstr (live_text, "usr/bin/app"));

  /* The raw log was saved as the kernel wrote it: pmcstat reads it */
  g_assert_true (g_file_get_contents (saved_log, &saved_contents, &saved_size, NULL));
  g_assert_cmpmem (saved_contents, saved_size, g_bytes_get_data (log, NULL), g_bytes_get_size (log));
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "log"), ==, saved_log);
  g_unlink (saved_log);

  g_rmdir (sysroot);
}

/* A log that cannot be saved where asked is refused before any call to
 * the kernel */
static void
test_log_not_writable (void)
{
  g_autofree char *sysroot = make_sysroot ();
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(PsCollector) collector = new_collector (fake);
  g_autoptr(GHashTable) options = new_options (sysroot, "log", "/nonexistent-folder/live.pmclog", NULL);
  g_autofree char *calls = NULL;

  collector_test_assert_start_fails (collector, options, "Cannot save the hwpmc log");
  calls = fake_libpmc_get_calls (fake);
  g_assert_cmpstr (calls, ==, "");
  g_rmdir (sysroot);
}

/* A launched command: held until its PMC is attached, sampled with its
 * descendants, stopped with the recording */
static void
test_command (void)
{
  g_autofree char *sysroot = make_sysroot ();
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(GHashTable) options = new_options (sysroot, "command", "sleep 30", "callchains", "false", NULL);
  g_autoptr(PsEventStore) live = NULL;
  g_autoptr(PsEventStore) file = NULL;
  g_autofree char *live_text = NULL;
  g_autofree char *file_text = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *proc_path = NULL;
  guint64 n_live_samples;
  int pid;

  live = record (fake, options, &n_live_samples);
  calls = fake_libpmc_get_calls (fake);
  g_assert_cmpstr (calls, ==,
                   "init\n"
                   "configure_logfile pipe\n"
                   "allocate instructions process cpu -1 rate 65536 descendants\n"
                   "attach 0x100\n"
                   "start 0x100\n"
                   "stop 0x100\n"
                   "close_logfile\n"
                   "release 0x100\n"
                   "configure_logfile -1\n");
  pid = fake_libpmc_get_attached_pid (fake);
  g_assert_cmpint (pid, >, 0);
  g_assert_cmpint (pid, !=, getpid ());
  /* The command was stopped and reaped with the recording */
  proc_path = g_strdup_printf ("/proc/%d", pid);
  if (g_file_test ("/proc/self", G_FILE_TEST_EXISTS))
    g_assert_false (g_file_test (proc_path, G_FILE_TEST_EXISTS));

  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "mode"), ==, "process");
  g_assert_cmpstr (ps_event_store_get_metadata (live, 0, "command"), ==, "sleep 30");
  file = load_log (log, sysroot);
  live_text = describe_store (live);
  file_text = describe_store (file);
  g_assert_cmpstr (live_text, ==, file_text);

  g_rmdir (sysroot);
}

/* The held command runs once its PMCs are started */
static void
test_command_runs (void)
{
  g_autofree char *sysroot = make_sysroot ();
  g_autofree char *marker = g_build_filename (sysroot, "ran", NULL);
  /* The temporary folder's name has no quote or space */
  g_autofree char *command = g_strdup_printf ("sh -c 'touch %s; exec sleep 30'", marker);
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(GHashTable) options = new_options (sysroot, "command", command, NULL);
  g_autoptr(PsCollector) collector = new_collector (fake);
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_assert_true (collector_test_start (collector, store, options, &error));
  g_assert_no_error (error);
  while (!g_file_test (marker, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));

  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ps_event_store_get_n_samples (store), ==, N_SAMPLES);

  g_unlink (marker);
  g_rmdir (sysroot);
}

/* A process ID: process mode without being asked */
static void
test_pid (void)
{
  g_autofree char *sysroot = make_sysroot ();
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autofree char *pid = g_strdup_printf ("%d", (int)getpid ());
  g_autoptr(GHashTable) options = new_options (sysroot, "pid", pid, NULL);
  g_autoptr(PsEventStore) live = NULL;
  guint64 n_live_samples;

  live = record (fake, options, &n_live_samples);
  g_assert_cmpint (fake_libpmc_get_attached_pid (fake), ==, getpid ());
  g_assert_cmpuint (ps_event_store_get_n_samples (live), ==, N_SAMPLES);
  g_rmdir (sysroot);
}

/* The kernel drops the file in the middle of a record: the samples
 * before it stay, and the run says where the log was cut, as the same
 * bytes opened as a file do */
static void
test_cut (void)
{
  g_autofree char *sysroot = make_sysroot ();
  gsize middle = 0;
  g_autoptr(GBytes) log = make_log (&middle);
  g_autoptr(GBytes) cut_log = g_bytes_new_from_bytes (log, 0, middle + 20);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(GHashTable) options = new_options (sysroot, NULL);
  g_autoptr(PsEventStore) live = NULL;
  g_autoptr(PsEventStore) file = NULL;
  g_autofree char *live_text = NULL;
  g_autofree char *file_text = NULL;
  guint64 n_live_samples;

  fake_libpmc_set_cut (fake, middle + 20);
  live = record (fake, options, &n_live_samples);

  g_assert_cmpuint (ps_event_store_get_n_samples (live), ==, N_SAMPLES / 2);
  g_assert_nonnull (ps_event_store_get_error (live));
  g_assert_true (g_error_matches (ps_event_store_get_error (live), PS_ERROR, PS_ERROR_TRUNCATED));
  g_assert_cmpuint (ps_event_store_get_bytes_read (live), ==, middle + 20);

  file = load_log (cut_log, sysroot);
  g_assert_nonnull (ps_event_store_get_error (file));
  live_text = describe_store (live);
  file_text = describe_store (file);
  g_assert_cmpstr (live_text, ==, file_text);

  g_rmdir (sysroot);
}

static void
assert_start_fails (FakeLibpmc *fake,
                    GHashTable *options,
                    const char *message)
{
  g_autoptr(PsCollector) collector = new_collector (fake);

  collector_test_assert_start_fails (collector, options, message);
}

static void
test_init_error (void)
{
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(FakeLibpmc) denied = fake_libpmc_new (log);
  g_autofree char *calls = NULL;
  g_autofree char *expected = NULL;

  fake_libpmc_set_init_error (fake, ENXIO);
  expected = g_strdup_printf ("hwpmc is not available: %s (load the hwpmc module with “kldload hwpmc”)",
                              g_strerror (ENXIO));
  assert_start_fails (fake, NULL, expected);
  calls = fake_libpmc_get_calls (fake);
  g_assert_cmpstr (calls, ==, "init\n");

  g_clear_pointer (&expected, g_free);
  fake_libpmc_set_init_error (denied, EPERM);
  expected = g_strdup_printf ("hwpmc is not available: %s", g_strerror (EPERM));
  assert_start_fails (denied, NULL, expected);
}

/* The second event cannot be allocated: what was allocated is released
 * and the log unconfigured */
static void
test_allocate_error (void)
{
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(GHashTable) options = new_options ("/", "events", "instructions,no-such-event", NULL);
  g_autofree char *calls = NULL;
  g_autofree char *expected = NULL;

  fake_libpmc_set_failing_event (fake, "no-such-event", EINVAL);
  expected = g_strdup_printf ("Cannot allocate a PMC for event “no-such-event”: %s", g_strerror (EINVAL));
  assert_start_fails (fake, options, expected);
  calls = fake_libpmc_get_calls (fake);
  g_assert_cmpstr (calls, ==,
                   "init\n"
                   "configure_logfile pipe\n"
                   "allocate instructions system cpu 0 rate 65536 callchains\n"
                   "allocate instructions system cpu 1 rate 65536 callchains\n"
                   "allocate no-such-event system cpu 0 rate 65536 callchains\n"
                   "close_logfile\n"
                   "release 0x100\nrelease 0x101\n"
                   "configure_logfile -1\n");
}

static void
test_option_errors (void)
{
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(GHashTable) bad_mode = new_options ("/", "mode", "everything", NULL);
  g_autoptr(GHashTable) system_pid = new_options ("/", "mode", "system", "pid", "1", NULL);
  g_autoptr(GHashTable) lonely = new_options ("/", "mode", "process", NULL);
  g_autoptr(GHashTable) no_events = new_options ("/", "events", " , ", NULL);
  g_autoptr(GHashTable) bad_rate = new_options ("/", "rate", "0", NULL);
  g_autofree char *calls = NULL;

  assert_start_fails (fake, bad_mode, "The mode must be “system” or “process”, not “everything”");
  assert_start_fails (fake, system_pid, "System mode samples every process");
  assert_start_fails (fake, lonely, "Process mode needs a process ID or a command");
  assert_start_fails (fake, no_events, "No event to sample");
  assert_start_fails (fake, bad_rate, "The sampling rate must be a number of events above 0, not “0”");
  /* Options are checked before the kernel is asked anything */
  calls = fake_libpmc_get_calls (fake);
  g_assert_cmpstr (calls, ==, "");
}

/* The module of this build: a collector without libpmc */
static void
test_module_not_available (void)
{
  if (g_test_subprocess ())
    {
      collector_test_assert_not_available ("hwpmc", 9,
                                           "hwpmc is not available on this system: "
                                           "Perfscope was built without libpmc (FreeBSD)");
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The values of a choice option, joined by "|" */
static char *
choice_values (PsCollector *collector,
               const char  *key)
{
  g_autoptr(GPtrArray) choices = ps_collector_list_choices (collector, key);
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;

  for (guint i = 0; i < choices->len; i++)
    {
      PsCollectorChoice *choice = g_ptr_array_index (choices, i);

      g_assert_cmpstr (choice->label, !=, "");
      g_strv_builder_add (values, choice->value);
    }
  list = g_strv_builder_end (values);
  return g_strjoinv ("|", list);
}

/* Modes and events come from lists: the modes, the default first; the
 * events pmc(3) names on every CPU, then those of the CPU's PMC classes,
 * each once; without hwpmc, or with its module not loaded, the aliases */
static void
test_choices (void)
{
  g_autoptr(GBytes) log = make_log (NULL);
  g_autoptr(FakeLibpmc) fake = fake_libpmc_new (log);
  g_autoptr(FakeLibpmc) unloaded = fake_libpmc_new (log);
  g_autoptr(PsCollector) with_kernel = new_collector (fake);
  g_autoptr(PsCollector) without = new_collector (NULL);
  g_autoptr(PsCollector) not_loaded = NULL;
  g_autoptr(GPtrArray) none = NULL;
  const PsCollectorOption *options;
  g_autofree char *modes = NULL;
  g_autofree char *events = NULL;
  g_autofree char *aliases = NULL;
  g_autofree char *aliases_only = NULL;
  guint n_options;

  options = ps_collector_list_options (with_kernel, &n_options);
  for (guint i = 0; i < n_options; i++)
    {
      if (strcmp (options[i].key, "mode") == 0)
        g_assert_cmpint (options[i].type, ==, PS_COLLECTOR_OPTION_CHOICE);
      if (strcmp (options[i].key, "events") == 0)
        g_assert_cmpint (options[i].type, ==, PS_COLLECTOR_OPTION_OPEN_CHOICE);
    }

  modes = choice_values (with_kernel, "mode");
  g_assert_cmpstr (modes, ==, "|system|process");
  events = choice_values (with_kernel, "events");
  g_assert_cmpstr (events, ==, "instructions|cycles|unhalted-cycles|branches|branch-mispredicts|dc-misses|ic-misses|"
                               "interrupts|inst_retired.any|cpu_clk_unhalted.thread_p|br_misp_retired.all_branches");
  aliases = choice_values (without, "events");
  g_assert_cmpstr (aliases, ==, "instructions|cycles|unhalted-cycles|branches|branch-mispredicts|dc-misses|ic-misses|"
                                "interrupts");

  fake_libpmc_set_init_error (unloaded, ENXIO);
  not_loaded = new_collector (unloaded);
  aliases_only = choice_values (not_loaded, "events");
  g_assert_cmpstr (aliases_only, ==, aliases);

  none = ps_collector_list_choices (with_kernel, "rate");
  g_assert_cmpuint (none->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/collector-hwpmc/system", test_system);
  g_test_add_func ("/collector-hwpmc/command", test_command);
  g_test_add_func ("/collector-hwpmc/command-runs", test_command_runs);
  g_test_add_func ("/collector-hwpmc/pid", test_pid);
  g_test_add_func ("/collector-hwpmc/cut", test_cut);
  g_test_add_func ("/collector-hwpmc/log-not-writable", test_log_not_writable);
  g_test_add_func ("/collector-hwpmc/init-error", test_init_error);
  g_test_add_func ("/collector-hwpmc/allocate-error", test_allocate_error);
  g_test_add_func ("/collector-hwpmc/option-errors", test_option_errors);
  g_test_add_func ("/collector-hwpmc/choices", test_choices);
#ifndef PS_HAVE_LIBPMC
  g_test_add_func ("/collector-hwpmc/module", test_module_not_available);
#endif

  return g_test_run ();
}

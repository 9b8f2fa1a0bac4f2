/* test-collector-procfs.c — collector plugins and the procfs collector
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PERFSCOPE_COLLECTOR_DIR (tests/meson.build) names the build's module
 * folder. Processes are started by the test: a busy loop, a sleeper and
 * this program with --allocate-child, which touches 200 MiB.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "collector-test-util.h"
#include "ps-collector.h"
#include "ps-error.h"

#define MIB (1024.0 * 1024.0)

static const char *self_path;

/* Records pid for duration_ms with the procfs collector */
static PsEventStore *
record_pid (const char *pid,
            guint       duration_ms)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(GError) error = NULL;
  PsEventStore *store = ps_event_store_new ();

  ps_collectors_load (NULL);
  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_collector_get_name (collector), ==, "procfs");

  options = ps_collector_new_default_options (collector);
  g_assert_cmpstr (g_hash_table_lookup (options, "interval-ms"), ==, "100");
  g_hash_table_insert (options, g_strdup ("pid"), g_strdup (pid));

  g_assert_true (collector_test_start (collector, store, options, &error));
  g_assert_no_error (error);

  collector_test_run_for (duration_ms);

  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);

  return store;
}

/* The COUNTER track named counter under the object named object */
static guint32
find_counter (PsEventStore *store,
              const char   *object,
              const char   *counter)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      guint32 up = track->parent;

      if (track->kind != PS_TRACK_COUNTER || strcmp (ps_event_store_get_string (store, track->name), counter) != 0)
        continue;
      while (up != PS_NONE && ps_event_store_get_track (store, up)->kind != PS_TRACK_OBJECT)
        up = ps_event_store_get_track (store, up)->parent;
      if (up != PS_NONE && strcmp (ps_event_store_get_string (store, ps_event_store_get_track (store, up)->name), object) == 0)
        return t;
    }
  g_assert_not_reached ();
}

static GArray *
readings (PsEventStore *store,
          guint32       track)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track == track)
        g_array_append_val (values, value->value);
    }
  return values;
}

static double
process_cpu_mean (const char *pid)
{
  g_autoptr(PsEventStore) store = record_pid (pid, 1000);
  guint32 track = find_counter (store, "Process", "% Processor Time");
  g_autoptr(GArray) values = readings (store, track);
  double sum = 0;

  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_track (store, track)->unit), ==, "%");
  /* 100 ms intervals over a second, the first reading being the base */
  g_assert_cmpuint (values->len, >=, 5);
  for (guint i = 0; i < values->len; i++)
    sum += g_array_index (values, double, i);
  return sum / values->len;
}

static GSubprocess *
spawn (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  /* Its output is not the test's: a test that fails is not waited for */
  GSubprocess *process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                            &error);

  g_assert_no_error (error);
  return process;
}

/* utime + stime of a process in seconds, as the kernel accounts them */
static double
process_cpu_seconds (const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/stat", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  after_name = strrchr (contents, ')');
  g_assert_nonnull (after_name);
  fields = g_strsplit (after_name + 2, " ", -1);
  /* proc(5): utime and stime are fields 14 and 15, the 12th and 13th
   * after the name */
  g_assert_cmpuint (g_strv_length (fields), >, 13);
  return (g_ascii_strtod (fields[11], NULL) + g_ascii_strtod (fields[12], NULL)) / sysconf (_SC_CLK_TCK);
}

/* A busy loop shows what the kernel accounted to it over the recording:
 * near 100 % of a CPU on a machine that has one free, less when other
 * tests share it, the same figure either way */
static void
test_busy_process (void)
{
  const char *argv[] = {
    "sh", "-c",
    /* A minute at most, should the test die first */
    "end=$(($(date +%s) + 60)); while [ \"$(date +%s)\" -lt \"$end\" ]; do i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done; done",
    NULL
  };
  g_autoptr(GSubprocess) busy = spawn (argv);
  const char *pid = g_subprocess_get_identifier (busy);
  double cpu_before = process_cpu_seconds (pid);
  gint64 started = g_get_monotonic_time ();
  double mean = process_cpu_mean (pid);
  double elapsed_s = (g_get_monotonic_time () - started) / 1e6;
  double accounted = 100.0 * (process_cpu_seconds (pid) - cpu_before) / elapsed_s;

  g_subprocess_force_exit (busy);
  g_test_message ("busy loop: %.1f %% of a CPU; the kernel accounted %.1f %%", mean, accounted);
  g_assert_cmpfloat (fabs (mean - accounted), <=, 15.0);
  g_assert_cmpfloat (mean, >=, 20.0);
  g_assert_cmpfloat (mean, <=, 130.0);
}

static void
test_idle_process (void)
{
  const char *argv[] = { "sleep", "30", NULL };
  g_autoptr(GSubprocess) idle = spawn (argv);
  double mean = process_cpu_mean (g_subprocess_get_identifier (idle));

  g_subprocess_force_exit (idle);
  g_test_message ("sleeper: %.1f %% of a CPU", mean);
  g_assert_cmpfloat (mean, >=, 0.0);
  g_assert_cmpfloat (mean, <, 20.0);
}

static void
test_allocation (void)
{
  const char *argv[] = { self_path, "--allocate-child", NULL };
  g_autoptr(GSubprocess) child = spawn (argv);
  g_autoptr(PsEventStore) store = record_pid (g_subprocess_get_identifier (child), 1500);
  guint32 track = find_counter (store, "Process", "Resident Set Size");
  g_autoptr(GArray) values = readings (store, track);
  double first, max = 0;

  g_subprocess_force_exit (child);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_track (store, track)->unit), ==, "bytes");
  g_assert_cmpuint (values->len, >=, 5);
  first = g_array_index (values, double, 0);
  for (guint i = 0; i < values->len; i++)
    max = MAX (max, g_array_index (values, double, i));
  g_test_message ("RSS from %.1f MiB to %.1f MiB", first / MIB, max / MIB);
  g_assert_cmpfloat (max - first, >=, 150 * MIB);
}

static void
test_system (void)
{
  g_autoptr(PsEventStore) store = record_pid ("", 500);
  g_autoptr(GArray) cpu = readings (store, find_counter (store, "System", "% Processor Time"));
  g_autoptr(GArray) available = readings (store, find_counter (store, "System", "Available Bytes"));

  g_assert_cmpuint (cpu->len, >=, 2);
  for (guint i = 0; i < cpu->len; i++)
    {
      g_assert_cmpfloat (g_array_index (cpu, double, i), >=, 0.0);
      g_assert_cmpfloat (g_array_index (cpu, double, i), <=, 100.0);
    }
  g_assert_cmpfloat (g_array_index (available, double, 0), >, 0.0);
}

static void
test_no_such_process (void)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;

  ps_collectors_load (NULL);
  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  options = ps_collector_new_default_options (collector);
  /* Above the largest pid_max of Linux */
  g_hash_table_insert (options, g_strdup ("pid"), g_strdup ("99999999"));
  g_assert_false (collector_test_start (collector, store, options, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "99999999"));
}

/* A module without g_io_module_load and a file that is no module at
 * all: one warning each, and the good collectors still load */
static void
test_broken_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("perfscope-collectors-XXXXXX", &error);
  g_autofree char *built = g_test_build_filename (G_TEST_BUILT, "libnot-a-collector." G_MODULE_SUFFIX, NULL);
  g_autofree char *copy = NULL;
  g_autofree char *garbage = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(PsCollector) collector = NULL;
  gsize length;

  g_assert_no_error (error);
  copy = g_build_filename (dir, "libnot-a-collector." G_MODULE_SUFFIX, NULL);
  garbage = g_build_filename (dir, "libgarbage." G_MODULE_SUFFIX, NULL);
  g_file_get_contents (built, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (copy, contents, length, &error);
  g_assert_no_error (error);
  g_file_set_contents (garbage, "not an ELF file\n", -1, &error);
  g_assert_no_error (error);

  /* The development folder first: the loads below only see dir */
  ps_collectors_load (NULL);
  g_test_expect_message (NULL, G_LOG_LEVEL_WARNING, "*libgarbage*");
  g_test_expect_message (NULL, G_LOG_LEVEL_WARNING, "*libnot-a-collector*not a GIO module*");
  g_assert_cmpuint (ps_collectors_load (dir), ==, 0);
  g_test_assert_expected_messages ();

  /* Already seen: no second warning */
  g_assert_cmpuint (ps_collectors_load (dir), ==, 0);

  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  g_assert_nonnull (collector);

  g_unlink (copy);
  g_unlink (garbage);
  g_rmdir (dir);
}

static int
allocate_child (void)
{
  gsize size = 200 * 1024 * 1024;
  char *block;

  /* Small at first, so the recording sees the growth */
  g_usleep (300 * 1000);
  block = g_malloc (size);
  for (gsize i = 0; i < size; i += 4096)
    block[i] = (char)i;
  g_usleep (30 * G_USEC_PER_SEC);
  g_free (block);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc > 1 && strcmp (argv[1], "--allocate-child") == 0)
    return allocate_child ();

  self_path = argv[0];
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/collector/broken-modules", test_broken_modules);
  g_test_add_func ("/collector/procfs/busy", test_busy_process);
  g_test_add_func ("/collector/procfs/idle", test_idle_process);
  g_test_add_func ("/collector/procfs/allocation", test_allocation);
  g_test_add_func ("/collector/procfs/system", test_system);
  g_test_add_func ("/collector/procfs/no-such-process", test_no_such_process);

  return g_test_run ();
}

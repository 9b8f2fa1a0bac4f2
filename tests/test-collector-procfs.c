/* test-collector-procfs.c — collector plugins and the procfs collector
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PERFSCOPE_COLLECTOR_DIR (tests/meson.build) names the build's module
 * folder. Processes are started by the test: a busy loop, a sleeper and
 * this program with --allocate-child, which touches 200 MiB,
 * --two-busy-children, which starts two busy loops and waits, and
 * --child-that-ends, which starts a busy loop of 400 ms, reaps it and
 * sleeps, and --child-born-ended, whose child ends at once and is left a
 * zombie.
 */
/* kill () and PR_SET_PDEATHSIG */
#define _DEFAULT_SOURCE

#include "config.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "collector-test-util.h"
#include "ps-collector.h"
#include "ps-error.h"
#include "ps-host-collector.h"
#include "ps-loader.h"
#include "ps-native-writer.h"

#define MIB (1024.0 * 1024.0)

static const char *self_path;

typedef struct
{
  gboolean (*done) (gpointer user_data);
  gpointer   user_data;
} Until;

/* Records pid with the procfs collector and the options given in pairs
 * of key and value (NULL ends): until until->done says so (when until is
 * not NULL), then for duration_ms */
static PsEventStore *
record_pid_va (const char  *pid,
               const Until *until,
               guint        duration_ms,
               va_list      args)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(GError) error = NULL;
  PsEventStore *store = ps_event_store_new ();
  const char *key;

  ps_collectors_load (NULL);
  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_collector_get_name (collector), ==, "procfs");

  options = ps_collector_new_default_options (collector);
  g_assert_cmpstr (g_hash_table_lookup (options, "children"), ==, "true");
  g_assert_cmpstr (g_hash_table_lookup (options, "interval-ms"), ==, "100");
  g_hash_table_insert (options, g_strdup ("pid"), g_strdup (pid));
  while ((key = va_arg (args, const char *)) != NULL)
    g_hash_table_insert (options, g_strdup (key), g_strdup (va_arg (args, const char *)));

  g_assert_true (collector_test_start (collector, store, options, &error));
  g_assert_no_error (error);
  if (until != NULL)
    collector_test_run_until (until->done, until->user_data);
  collector_test_run_for (duration_ms);
  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);
  /* What the clock achieved */
  g_assert_nonnull (ps_event_store_get_metadata (store, 0, "readings"));

  return store;
}

/* Records pid with the procfs collector (until until->done says so, when
 * until is not NULL) for duration_ms, with the options given in pairs of
 * key and value after duration_ms (NULL ends) */
static PsEventStore *
record_pid_with (const char  *pid,
                 const Until *until,
                 guint        duration_ms,
                 ...)
{
  PsEventStore *store;
  va_list args;

  va_start (args, duration_ms);
  store = record_pid_va (pid, until, duration_ms, args);
  va_end (args);
  return store;
}

/* Records pid for duration_ms with the procfs collector's defaults (a
 * reading every 100 ms) */
static PsEventStore *
record_pid (const char *pid,
            guint       duration_ms)
{
  return record_pid_with (pid, NULL, duration_ms, NULL);
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
  /* A loop that never waits: a busy machine gives it less than a core
   * (19 % at a load average of 13), never next to nothing */
  g_assert_cmpfloat (mean, >=, 5.0);
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

typedef struct
{
  const char *pid;
  gint64      started;
} AllocationWait;

/* Whether the child's resident memory has reached 190 MiB (or 30 s
 * have passed: the test then fails on the values) */
static gboolean
has_allocated (gpointer user_data)
{
  const AllocationWait *wait = user_data;
  g_autofree char *path = g_strdup_printf ("/proc/%s/statm", wait->pid);
  g_autofree char *contents = NULL;
  unsigned long long size = 0, resident = 0;

  if (g_get_monotonic_time () - wait->started > 30 * G_USEC_PER_SEC)
    return TRUE;
  if (!g_file_get_contents (path, &contents, NULL, NULL) || sscanf (contents, "%llu %llu", &size, &resident) != 2)
    return FALSE;
  return (double)resident * (double)sysconf (_SC_PAGESIZE) >= 190 * MIB;
}

static void
test_allocation (void)
{
  const char *argv[] = { self_path, "--allocate-child", NULL };
  g_autoptr(GSubprocess) child = spawn (argv);
  const char *pid = g_subprocess_get_identifier (child);
  AllocationWait wait = { pid, g_get_monotonic_time () };
  Until until = { has_allocated, &wait };
  /* On a busy machine the child takes its time to touch its memory: the
   * recording lasts until it has (as the kernel says), then a few
   * readings more */
  g_autoptr(PsEventStore) store = record_pid_with (pid, &until, 500, NULL);
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


/* The instance tracks of object "Process", in the order made */
static GArray *
process_instances (PsEventStore *store)
{
  GArray *instances = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == PS_TRACK_INSTANCE
          && strcmp (ps_event_store_get_string (store, ps_event_store_get_track (store, track->parent)->name), "Process") == 0)
        g_array_append_val (instances, t);
    }
  return instances;
}

/* The counter named counter under the track parent */
static guint32
find_child_counter (PsEventStore *store,
                    guint32       parent,
                    const char   *counter)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->parent == parent && track->kind == PS_TRACK_COUNTER
          && strcmp (ps_event_store_get_string (store, track->name), counter) == 0)
        return t;
    }
  return PS_NONE;
}

static gboolean
has_object (PsEventStore *store,
            const char   *name)
{
  for (guint32 t = 0; t < ps_event_store_get_n_tracks (store); t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind == PS_TRACK_OBJECT && strcmp (ps_event_store_get_string (store, track->name), name) == 0)
        return TRUE;
    }
  return FALSE;
}

static double
mean (GArray *values)
{
  double sum = 0;

  g_assert_cmpuint (values->len, >, 0);
  for (guint i = 0; i < values->len; i++)
    sum += g_array_index (values, double, i);
  return sum / values->len;
}

/* The pids whose parent is pid, from /proc */
static GArray *
children_of (int pid)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  GArray *children = g_array_new (FALSE, FALSE, sizeof (int));
  const char *entry;

  g_assert_nonnull (dir);
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", entry, "stat", NULL);
      g_autofree char *contents = NULL;
      const char *after_name;

      if (!g_ascii_isdigit (entry[0]) || !g_file_get_contents (path, &contents, NULL, NULL))
        continue;
      after_name = strrchr (contents, ')');
      /* ") S PPID" */
      if (after_name != NULL && strlen (after_name) > 4 && atoi (after_name + 4) == pid)
        {
          int child = atoi (entry);

          g_array_append_val (children, child);
        }
    }
  return children;
}

static GArray *
wait_for_children (int   pid,
                   guint n)
{
  for (guint attempt = 0; attempt < 400; attempt++)
    {
      GArray *children = children_of (pid);

      if (children->len >= n)
        return children;
      g_array_unref (children);
      g_usleep (5000);
    }
  g_error ("process %d did not start %u children", pid, n);
}

/* Two busy children recorded as a tree: each has its series, and the
 * tree's CPU is theirs together as the kernel accounted it — about 200 %
 * with two free CPUs, less when the tests share the machine; the two
 * children get about the same share either way */
static void
test_tree (void)
{
  const char *argv[] = { self_path, "--two-busy-children", NULL };
  g_autoptr(GSubprocess) parent = spawn (argv);
  const char *pid = g_subprocess_get_identifier (parent);
  g_autoptr(GArray) children = wait_for_children (atoi (pid), 2);
  g_autofree char *child_a = g_strdup_printf ("%d", g_array_index (children, int, 0));
  g_autofree char *child_b = g_strdup_printf ("%d", g_array_index (children, int, 1));
  double before = process_cpu_seconds (child_a) + process_cpu_seconds (child_b);
  gint64 started = g_get_monotonic_time ();
  g_autoptr(PsEventStore) store = record_pid_with (pid, NULL, 1500, NULL);
  double elapsed_s = (g_get_monotonic_time () - started) / 1e6;
  double accounted = 100.0 * (process_cpu_seconds (child_a) + process_cpu_seconds (child_b) - before) / elapsed_s;
  g_autoptr(GArray) instances = process_instances (store);
  g_autoptr(GArray) tree = readings (store, find_counter (store, "Process Tree", "% Processor Time"));
  g_autoptr(GArray) count = readings (store, find_counter (store, "Process Tree", "Process Count"));
  g_autofree char *command_line = g_strdup_printf ("%s --two-busy-children", self_path);
  double means[3];

  g_subprocess_force_exit (parent);

  /* The parent and its two children, named after their command line */
  g_assert_cmpuint (instances->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const PsTrack *instance = ps_event_store_get_track (store, g_array_index (instances, guint32, i));
      g_autoptr(GArray) cpu = readings (store, find_child_counter (store, g_array_index (instances, guint32, i),
                                                                   "% Processor Time"));

      g_assert_cmpstr (ps_event_store_get_string (store, instance->name), ==, command_line);
      g_assert_cmpint (instance->number, ==, i);
      g_assert_cmpuint (cpu->len, >=, 10);
      means[i] = mean (cpu);
    }
  g_assert_cmpfloat (g_array_index (count, double, count->len - 1), ==, 3);

  g_test_message ("tree %.1f %% (parent %.1f %%, children %.1f %% and %.1f %%); the kernel accounted %.1f %% to the children",
                  mean (tree), means[0], means[1], means[2], accounted);
  g_assert_cmpfloat (means[0], <, 10.0);
  g_assert_cmpfloat (fabs (mean (tree) - accounted), <=, 15.0 + 0.1 * accounted);
  g_assert_cmpfloat (fabs (mean (tree) - (means[0] + means[1] + means[2])), <=, 5.0);
  /* The scheduler shares a CPU fairly between two equal loops */
  g_assert_cmpfloat (fabs (means[1] - means[2]), <=, 10.0 + 0.3 * MAX (means[1], means[2]));
  g_assert_cmpfloat (MIN (means[1], means[2]), >=, 10.0);
  /* Two CPUs free for the children: two busy CPUs */
  if (accounted >= 180.0)
    g_assert_cmpfloat (mean (tree), >, 160.0);
}

/* The switch off: the process alone */
static void
test_no_children (void)
{
  const char *argv[] = { self_path, "--two-busy-children", NULL };
  g_autoptr(GSubprocess) parent = spawn (argv);
  const char *pid = g_subprocess_get_identifier (parent);
  g_autoptr(GArray) children = wait_for_children (atoi (pid), 2);
  g_autoptr(PsEventStore) store = record_pid_with (pid, NULL, 600, "children", "false", NULL);
  g_autoptr(GArray) instances = process_instances (store);
  g_autoptr(GArray) cpu = readings (store, find_counter (store, "Process", "% Processor Time"));

  g_subprocess_force_exit (parent);
  g_assert_cmpuint (instances->len, ==, 1);
  g_assert_false (has_object (store, "Process Tree"));
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "children"), ==, "false");
  /* The parent only waits */
  g_assert_cmpfloat (mean (cpu), <, 10.0);
}

/* A child that has ended when it is first seen (a zombie, whose command
 * line is gone) has no series of its own: only its parent's are there */
static void
test_child_born_ended (void)
{
  const char *argv[] = { self_path, "--child-born-ended", NULL };
  g_autoptr(GSubprocess) parent = spawn (argv);
  const char *pid = g_subprocess_get_identifier (parent);
  g_autoptr(PsEventStore) store = record_pid_with (pid, NULL, 800, NULL);
  g_autoptr(GArray) instances = process_instances (store);
  g_autoptr(GArray) zombies = children_of (atoi (pid));
  g_autofree char *parent_name = g_strdup_printf ("%s --child-born-ended", self_path);

  /* The child was there to be seen */
  g_assert_cmpuint (zombies->len, ==, 1);
  g_subprocess_force_exit (parent);
  g_assert_cmpuint (instances->len, ==, 1);
  g_assert_cmpstr (ps_event_store_get_string (store, ps_event_store_get_track (store, g_array_index (instances, guint32, 0))->name),
                   ==, parent_name);
}

/* Spawns self_path with --child-blank blank_ms, waits until its child
 * reads without a command line and records the two for duration_ms; the
 * parent in parent, the child's pid in child */
static PsEventStore *
record_blank_child (const char   *blank_ms,
                    guint         duration_ms,
                    GSubprocess **parent,
                    int          *child)
{
  const char *argv[] = { self_path, "--child-blank", blank_ms, NULL };
  g_autoptr(GArray) children = NULL;
  g_autofree char *path = NULL;

  *parent = spawn (argv);
  children = wait_for_children (atoi (g_subprocess_get_identifier (*parent)), 1);
  *child = g_array_index (children, int, 0);
  path = g_strdup_printf ("/proc/%d/cmdline", *child);
  for (guint attempt = 0; attempt < 400; attempt++)
    {
      g_autofree char *contents = NULL;
      gsize length = 0;

      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      while (length > 0 && contents[length - 1] == '\0')
        length--;
      if (length == 0)
        return record_pid_with (g_subprocess_get_identifier (*parent), NULL, duration_ms, NULL);
      g_usleep (5000);
    }
  g_error ("the command line of process %d did not go blank", *child);
}

/* The name of instance in store */
static const char *
instance_name (PsEventStore *store,
               GArray       *instances,
               guint         i)
{
  return ps_event_store_get_string (store, ps_event_store_get_track (store, g_array_index (instances, guint32, i))->name);
}

/* A child already there at the first reading, in the middle of its exec
 * (its command line not set yet): it waits for its name, and is named as
 * it then reads, not "[comm]" */
static void
test_child_named_late (void)
{
  int child;
  g_autoptr(GSubprocess) parent = NULL;
  g_autoptr(PsEventStore) store = record_blank_child ("300", 1200, &parent, &child);
  g_autoptr(GArray) instances = process_instances (store);
  g_autofree char *command_line = g_strdup_printf ("%s --child-blank 300", self_path);

  g_subprocess_force_exit (parent);
  kill (child, SIGKILL);
  /* Forked, the child has its parent's command line: "#1" */
  g_assert_cmpuint (instances->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpstr (instance_name (store, instances, i), ==, command_line);
      g_assert_cmpint (ps_event_store_get_track (store, g_array_index (instances, guint32, i))->number, ==, i);
    }
}

/* A child whose command line stays blank is named "[comm]" once it has
 * waited a second for a name: its series start then */
static void
test_child_never_named (void)
{
  int child;
  g_autoptr(GSubprocess) parent = NULL;
  g_autoptr(PsEventStore) store = record_blank_child ("-1", 2000, &parent, &child);
  g_autoptr(GArray) instances = process_instances (store);
  g_autofree char *command_line = g_strdup_printf ("%s --child-blank -1", self_path);
  g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", child);
  g_autofree char *stat = NULL;
  g_autofree char *comm = NULL;
  guint32 rss;
  gint64 first_ns = G_MAXINT64;

  g_assert_true (g_file_get_contents (stat_path, &stat, NULL, NULL));
  comm = g_strdup_printf ("[%.*s]", (int)(strrchr (stat, ')') - strchr (stat, '(') - 1), strchr (stat, '(') + 1);
  g_subprocess_force_exit (parent);
  kill (child, SIGKILL);

  g_assert_cmpuint (instances->len, ==, 2);
  g_assert_cmpstr (instance_name (store, instances, 0), ==, command_line);
  g_assert_cmpstr (instance_name (store, instances, 1), ==, comm);
  rss = find_child_counter (store, g_array_index (instances, guint32, 1), "Resident Set Size");
  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      if (value->track == rss)
        first_ns = MIN (first_ns, value->time_ns);
    }
  g_test_message ("the child's first reading at %.3f s", first_ns / 1e9);
  g_assert_cmpint (first_ns, >=, G_GINT64_CONSTANT (1000000000));
  g_assert_cmpint (first_ns, <, G_GINT64_CONSTANT (2000000000));
}

/* A child that ends: its series stops at its end, and the tree's CPU
 * over the run is what the child used, counted once — the kernel adds
 * it to the parent's cutime when the parent reaps it */
static void
test_child_that_ends (gconstpointer data)
{
  const char *argv[] = { self_path, data, NULL };
  g_autoptr(GSubprocess) parent = spawn (argv);
  const char *pid = g_subprocess_get_identifier (parent);
  g_autoptr(PsEventStore) store = record_pid_with (pid, NULL, 1500, NULL);
  guint32 tree_track = find_counter (store, "Process Tree", "% Processor Time");
  g_autoptr(GArray) instances = process_instances (store);
  g_autofree char *path = g_strdup_printf ("/proc/%s/stat", pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  double parent_total_s, tree_cpu_s = 0, child_last_s = 0, run_end_s = 0;
  gint64 previous_ns = 0;

  /* utime, stime, cutime, cstime of the parent: everything the tree
   * used, with the zombie's utime and stime when it was not reaped */
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  fields = g_strsplit (strrchr (contents, ')') + 2, " ", -1);
  parent_total_s = (g_ascii_strtod (fields[11], NULL) + g_ascii_strtod (fields[12], NULL)
                    + g_ascii_strtod (fields[13], NULL) + g_ascii_strtod (fields[14], NULL)) / sysconf (_SC_CLK_TCK);
  if (strcmp (data, "--child-left-zombie") == 0)
    {
      g_autoptr(GArray) zombies = children_of (atoi (pid));

      g_assert_cmpuint (zombies->len, ==, 1);
      {
        g_autofree char *zombie = g_strdup_printf ("%d", g_array_index (zombies, int, 0));

        parent_total_s += process_cpu_seconds (zombie);
      }
    }
  g_subprocess_force_exit (parent);

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);

      run_end_s = MAX (run_end_s, value->time_ns / 1e9);
      if (value->track == tree_track)
        {
          /* The first figure covers the time since the first reading */
          tree_cpu_s += value->value / 100.0 * (value->time_ns - previous_ns) / 1e9;
          previous_ns = value->time_ns;
        }
    }
  g_assert_cmpuint (instances->len, ==, 2);
  {
    guint32 child_cpu = find_child_counter (store, g_array_index (instances, guint32, 1), "% Processor Time");

    for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
      if (ps_event_store_get_counter_value (store, i)->track == child_cpu)
        child_last_s = ps_event_store_get_counter_value (store, i)->time_ns / 1e9;
  }
  g_test_message ("tree used %.3f s of CPU; the parent's utime + stime + cutime + cstime: %.3f s; the child's last reading at %.2f s of %.2f s",
                  tree_cpu_s, parent_total_s, child_last_s, run_end_s);
  /* The child was born after the first reading, so everything counts;
   * the figures telescope to whole clock ticks */
  g_assert_cmpfloat (fabs (tree_cpu_s - parent_total_s), <=, 0.03);
  g_assert_cmpfloat (parent_total_s, >=, 0.05);
  /* It lived about 400 ms of the 1.5 s */
  g_assert_cmpfloat (child_last_s, >, 0.2);
  g_assert_cmpfloat (child_last_s, <, run_end_s - 0.3);
}

static guint64
metadata_number (PsEventStore *store,
                 const char   *key)
{
  const char *text = ps_event_store_get_metadata (store, 0, key);

  g_assert_nonnull (text);
  return g_ascii_strtoull (text, NULL, 10);
}

/* Readings on an absolute clock: the interval holds on average and the
 * run says what it achieved */
static void
test_interval (void)
{
  g_autoptr(PsEventStore) store = record_pid_with ("", NULL, 1000, "interval-ms", "50", NULL);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint32 track = find_counter (store, "System", "Available Bytes");
  guint64 n_readings = metadata_number (store, "readings");
  guint64 n_lost = metadata_number (store, "readings_lost");
  double achieved = g_ascii_strtod (ps_event_store_get_metadata (store, 0, "interval_achieved_ms"), NULL);

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    if (ps_event_store_get_counter_value (store, i)->track == track)
      g_array_append_val (times, ps_event_store_get_counter_value (store, i)->time_ns);

  g_test_message ("%" G_GUINT64_FORMAT " readings, %" G_GUINT64_FORMAT " lost, every %.3f ms",
                  n_readings, n_lost, achieved);
  g_assert_cmpstr (ps_event_store_get_metadata (store, 0, "interval_ms"), ==, "50");
  g_assert_cmpuint (times->len, ==, n_readings);
  /* A second at 50 ms: 21 times, the first at 0; the last at 1 s, or
   * later when the test's own loop stops it late. Every time up to the
   * last reading's is either a reading or lost */
  g_assert_cmpuint (n_readings + n_lost, >=, 20);
  g_assert_cmpuint (n_readings + n_lost, ==,
                    (guint64)((g_array_index (times, gint64, times->len - 1) + 25 * 1000 * 1000) / (50 * 1000 * 1000)) + 1);
  /* Each reading at its time, a lost one leaving its slot empty */
  g_assert_cmpfloat (fabs (achieved * (double)(n_readings - 1) / (double)(n_readings - 1 + n_lost) - 50.0), <=, 1.5);
  for (guint i = 1; i < times->len; i++)
    g_assert_cmpint (g_array_index (times, gint64, i) - g_array_index (times, gint64, i - 1), >=, 25 * 1000 * 1000);
}

static gboolean
block_main_loop (gpointer user_data)
{
  g_usleep (350 * 1000);
  return G_SOURCE_REMOVE;
}

/* The readings of "System" "Available Bytes", by time */
static GArray *
system_reading_times (PsEventStore *store)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint32 track = find_counter (store, "System", "Available Bytes");

  for (guint64 i = 0; i < ps_event_store_get_n_counter_values (store); i++)
    if (ps_event_store_get_counter_value (store, i)->track == track)
      g_array_append_val (times, ps_event_store_get_counter_value (store, i)->time_ns);
  return times;
}

/* The procfs collector reads on a thread of its own: a main loop too
 * busy for 350 ms (a window drawing) neither delays nor loses a reading;
 * Stop takes no reading of its own */
static void
test_busy_main_loop (void)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) times = NULL;

  ps_collectors_load (NULL);
  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  options = ps_collector_new_default_options (collector);
  g_assert_true (collector_test_start (collector, store, options, &error));
  g_assert_no_error (error);
  g_timeout_add (230, block_main_loop, NULL);
  /* Stop 30 ms after a reading's time */
  collector_test_run_for (830);
  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);

  times = system_reading_times (store);
  g_test_message ("%u readings, %" G_GUINT64_FORMAT " late, %" G_GUINT64_FORMAT " lost", times->len,
                  metadata_number (store, "readings_late"), metadata_number (store, "readings_lost"));
  g_assert_cmpuint (times->len, ==, metadata_number (store, "readings"));
  g_assert_cmpuint (metadata_number (store, "readings_lost"), ==, ps_collector_get_n_lost (collector));
  /* 0, 100, … 800 ms, however busy the main loop; a test machine busy
   * with other tests may still lose one */
  g_assert_cmpuint (times->len + metadata_number (store, "readings_lost"), ==, 9);
  g_assert_cmpuint (metadata_number (store, "readings_lost"), <=, 1);
  for (guint i = 1; i < times->len; i++)
    g_assert_cmpint (g_array_index (times, gint64, i) - g_array_index (times, gint64, i - 1), >=, 50 * 1000 * 1000);
  /* The last reading is the clock's (at 800 ms or before), not one at Stop */
  g_assert_cmpint (g_array_index (times, gint64, times->len - 1), <=, 825 * 1000 * 1000);
}

static void
note_reading (gpointer user_data,
              gint64   now_us)
{
  g_array_append_val ((GArray *)user_data, now_us);
}

/* A clock whose context is too busy to read: the readings due meanwhile
 * are lost, not bunched, each loss is a warning, and the warnings, the
 * counts and the achieved interval are kept by the saved run */
static void
test_lost_readings (void)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(PsEventStore) reopened = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  PsCollectorClock *clock;
  gint64 start_us = g_get_monotonic_time ();
  guint32 session;
  guint n_lost_warnings = 0;
  guint64 n_lost;

  ps_collectors_load (NULL);
  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  session = ps_event_store_add_session (store, 0, FALSE);
  ps_event_store_set_format (store, "procfs");
  clock = ps_collector_clock_new (&(PsCollectorRecording) { collector, store, session }, 100, start_us, NULL,
                                  note_reading, times);
  ps_collector_clock_count_reading (clock, start_us);
  g_array_append_val (times, start_us);
  g_timeout_add (230, block_main_loop, NULL);
  collector_test_run_for (830);
  ps_collector_clock_free (clock);

  n_lost = metadata_number (store, "readings_lost");
  g_test_message ("%u readings, %" G_GUINT64_FORMAT " lost", times->len, n_lost);
  g_assert_cmpuint (n_lost, >=, 2);
  g_assert_cmpuint (n_lost, ==, ps_collector_get_n_lost (collector));
  g_assert_cmpuint (times->len, ==, metadata_number (store, "readings"));
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      if (strcmp (warning.code, "W-READING-LOST") == 0)
        n_lost_warnings++;
    }
  g_assert_cmpuint (n_lost_warnings, >=, 1);
  for (guint i = 1; i < times->len; i++)
    g_assert_cmpint (g_array_index (times, gint64, i) - g_array_index (times, gint64, i - 1), >=, 50 * 1000);

  /* Saved and opened again */
  g_assert_true (ps_native_write_stream (store, output, NULL, &error));
  g_assert_no_error (error);
  g_output_stream_close (output, NULL, NULL);
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (output));
  input = g_memory_input_stream_new_from_bytes (bytes);
  reopened = ps_load_stream (input, "lost.perfscope", &(PsLoadParams) { .total_size = g_bytes_get_size (bytes) },
                             NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ps_event_store_get_n_warnings (reopened), ==, ps_event_store_get_n_warnings (store));
  for (guint i = 0; i < ps_event_store_get_n_warnings (store); i++)
    {
      PsWarning before, after;

      ps_event_store_get_warning (store, i, &before);
      ps_event_store_get_warning (reopened, i, &after);
      g_assert_cmpstr (before.code, ==, after.code);
      g_assert_cmpstr (before.message, ==, after.message);
    }
  g_assert_cmpstr (ps_event_store_get_metadata (reopened, 0, "readings_lost"), ==,
                   ps_event_store_get_metadata (store, 0, "readings_lost"));
  g_assert_cmpstr (ps_event_store_get_metadata (reopened, 0, "interval_achieved_ms"), ==,
                   ps_event_store_get_metadata (store, 0, "interval_achieved_ms"));
}

/* A launched command ends with its recording, and so do its children */
static void
test_command_tree_ends (void)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *command = g_strdup_printf ("'%s' --two-busy-children", self_path);
  g_autoptr(GArray) children = NULL;
  int root;

  ps_collectors_load (NULL);
  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  options = ps_collector_new_default_options (collector);
  g_hash_table_insert (options, g_strdup ("command"), g_strdup (command));
  g_assert_true (collector_test_start (collector, store, options, &error));
  g_assert_no_error (error);
  root = atoi (ps_event_store_get_metadata (store, 0, "pid"));
  children = wait_for_children (root, 2);
  collector_test_run_for (300);
  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < children->len; i++)
    {
      int child = g_array_index (children, int, i);
      g_autofree char *path = g_strdup_printf ("/proc/%d/stat", child);
      g_autofree char *contents = NULL;
      gboolean gone = FALSE;

      /* Gone, or a zombie waiting for init */
      for (guint attempt = 0; attempt < 200 && !gone; attempt++)
        {
          g_clear_pointer (&contents, g_free);
          gone = !g_file_get_contents (path, &contents, NULL, NULL) || strstr (contents, ") Z ") != NULL;
          if (!gone)
            g_usleep (5000);
        }
      g_assert_true (gone);
    }
  g_clear_pointer (&children, g_array_unref);
  children = process_instances (store);
  g_assert_cmpuint (children->len, ==, 3);
}

static gboolean
always_ready (gpointer user_data)
{
  guint *n_frames = user_data;

  (*n_frames)++;
  return G_SOURCE_CONTINUE;
}

static void
count_appended (guint *n_appended)
{
  (*n_appended)++;
}

/* A window that draws all the time keeps a source at GTK's drawing
 * priority (GDK_PRIORITY_REDRAW, G_PRIORITY_HIGH_IDLE + 20) always
 * ready, as a loaded machine does: the readings still reach the store
 * live and the end of the command still reaches the caller, so that the
 * recording ends */
static void
test_ends_while_drawing (void)
{
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(PsEventStore) store = ps_event_store_new ();
  g_autoptr(GError) error = NULL;
  guint n_appended = 0;
  guint n_frames = 0;
  guint drawing;
  gint64 deadline;

  ps_collectors_load (NULL);
  collector = ps_collectors_create ("procfs", &error);
  g_assert_no_error (error);
  options = ps_collector_new_default_options (collector);
  g_hash_table_insert (options, g_strdup ("command"), g_strdup ("sleep 0.3"));
  g_hash_table_insert (options, g_strdup ("interval-ms"), g_strdup ("20"));
  g_signal_connect_swapped (store, "appended", G_CALLBACK (count_appended), &n_appended);
  g_assert_true (collector_test_start (collector, store, options, &error));
  g_assert_no_error (error);
  n_appended = 0;

  drawing = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, always_ready, &n_frames, NULL);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!ps_collector_has_target_exited (collector) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (drawing);

  g_test_message ("%u frames, %u batches appended", n_frames, n_appended);
  g_assert_true (ps_collector_has_target_exited (collector));
  g_assert_cmpuint (n_appended, >, 0);
  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);
  g_signal_handlers_disconnect_by_func (store, count_appended, &n_appended);
}

/* Busy until killed, or for a minute at most */
static void
spin (gint64 duration_us)
{
  gint64 end = g_get_monotonic_time () + duration_us;
  volatile guint64 counter = 0;

  while (g_get_monotonic_time () < end)
    for (guint i = 0; i < 100000; i++)
      counter++;
}

static int
two_busy_children (void)
{
  for (guint i = 0; i < 2; i++)
    if (fork () == 0)
      {
        /* Ends with the test's process, should it die first */
        prctl (PR_SET_PDEATHSIG, SIGKILL);
        spin (60 * G_USEC_PER_SEC);
        _exit (0);
      }
  while (wait (NULL) > 0)
    ;
  return 0;
}

static int
child_that_ends (gboolean reap)
{
  pid_t child;

  /* After the recording's first reading */
  g_usleep (200 * 1000);
  child = fork ();
  if (child == 0)
    {
      spin (400 * 1000);
      _exit (0);
    }
  /* Or left a zombie for the rest of the recording */
  if (reap)
    waitpid (child, NULL, 0);
  g_usleep (60 * G_USEC_PER_SEC);
  return 0;
}

/* A child that ends at once and is left a zombie, after the recording's
 * first reading */
static int
child_born_ended (void)
{
  g_usleep (200 * 1000);
  if (fork () == 0)
    _exit (0);
  g_usleep (60 * G_USEC_PER_SEC);
  return 0;
}

/* A child whose command line reads empty, as in the middle of an exec:
 * it blanks the arguments it shares with its parent for blank_ms (for
 * good when below 0), then puts them back */
static int
child_blank (int    argc,
             char **argv)
{
  int blank_ms = atoi (argv[2]);

  if (fork () == 0)
    {
      char *start = argv[0];
      gsize length = (gsize)(argv[argc - 1] + strlen (argv[argc - 1]) + 1 - start);
      g_autofree char *saved = g_memdup2 (start, length);

      memset (start, 0, length);
      if (blank_ms >= 0)
        {
          g_usleep ((gulong)blank_ms * 1000);
          memcpy (start, saved, length);
        }
      g_usleep (60 * G_USEC_PER_SEC);
      _exit (0);
    }
  g_usleep (60 * G_USEC_PER_SEC);
  return 0;
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

static gboolean
has_target_exited (gpointer collector)
{
  return ps_collector_has_target_exited (collector);
}

/* The host backend (what Perfscope runs inside Flatpak) with the sandbox
 * faked: a flatpak-info file, and fake-flatpak-spawn and this build's
 * perfscope-cli on PATH. A command that ends ends the recording with
 * the run the host saved; Stop makes the host save what it has. */
static void
test_host (void)
{
  g_autofree char *root = g_dir_make_tmp ("perfscope-test-host-XXXXXX", NULL);
  g_autofree char *info = g_build_filename (root, "flatpak-info", NULL);
  g_autofree char *spawn = g_build_filename (root, "flatpak-spawn", NULL);
  g_autofree char *cli = g_build_filename (root, "perfscope-cli", NULL);
  g_autofree char *fake_spawn = g_test_build_filename (G_TEST_DIST, "fake-flatpak-spawn", NULL);
  g_autofree char *built_cli = g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "perfscope-cli", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = g_strjoin (G_SEARCHPATH_SEPARATOR_S, root, old_path, NULL);
  g_autoptr(GFile) spawn_link = g_file_new_for_path (spawn);
  g_autoptr(GFile) cli_link = g_file_new_for_path (cli);
  g_autoptr(PsCollector) collector = NULL;
  g_autoptr(PsEventStore) ended = ps_event_store_new ();
  g_autoptr(PsEventStore) stopped = ps_event_store_new ();
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (info, "[Application]\n", -1, NULL));
  g_file_make_symbolic_link (spawn_link, fake_spawn, NULL, &error);
  g_assert_no_error (error);
  g_file_make_symbolic_link (cli_link, built_cli, NULL, &error);
  g_assert_no_error (error);
  g_setenv (PS_FLATPAK_INFO_ENV, info, TRUE);
  g_setenv ("PATH", path, TRUE);

  collector = g_object_new (PS_TYPE_HOST_COLLECTOR, NULL);
  g_assert_true (ps_collector_check_available (collector, &error));
  g_assert_no_error (error);
  options = ps_collector_new_default_options (collector);
  g_hash_table_insert (options, g_strdup ("command"), g_strdup ("sleep 0.3"));
  g_hash_table_insert (options, g_strdup ("interval-ms"), g_strdup ("50"));
  g_assert_true (collector_test_start (collector, ended, options, &error));
  g_assert_no_error (error);
  collector_test_run_until (has_target_exited, collector);
  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);
  g_assert_null (ps_event_store_get_error (ended));
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (ended), >, 0);
  g_assert_cmpstr (ps_event_store_get_metadata (ended, 0, "command"), ==, "sleep 0.3");

  g_hash_table_insert (options, g_strdup ("command"), g_strdup ("sleep 60"));
  g_assert_true (collector_test_start (collector, stopped, options, &error));
  g_assert_no_error (error);
  collector_test_run_for (500);
  g_assert_true (collector_test_stop (collector, &error));
  g_assert_no_error (error);
  g_assert_null (ps_event_store_get_error (stopped));
  g_assert_cmpuint (ps_event_store_get_n_counter_readings (stopped), >, 0);

  g_setenv ("PATH", old_path, TRUE);
  g_unsetenv (PS_FLATPAK_INFO_ENV);
  g_unlink (spawn);
  g_unlink (cli);
  g_unlink (info);
  g_rmdir (root);
}

int
main (int   argc,
      char *argv[])
{
  if (argc > 1 && strcmp (argv[1], "--allocate-child") == 0)
    return allocate_child ();
  if (argc > 1 && strcmp (argv[1], "--two-busy-children") == 0)
    return two_busy_children ();
  if (argc > 1 && strcmp (argv[1], "--child-born-ended") == 0)
    return child_born_ended ();
  if (argc > 1 && strcmp (argv[1], "--child-that-ends") == 0)
    return child_that_ends (TRUE);
  if (argc > 1 && strcmp (argv[1], "--child-left-zombie") == 0)
    return child_that_ends (FALSE);
  if (argc > 2 && strcmp (argv[1], "--child-blank") == 0)
    return child_blank (argc, argv);

  self_path = argv[0];
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/collector/broken-modules", test_broken_modules);
  g_test_add_func ("/collector/procfs/busy", test_busy_process);
  g_test_add_func ("/collector/procfs/idle", test_idle_process);
  g_test_add_func ("/collector/procfs/allocation", test_allocation);
  g_test_add_func ("/collector/procfs/system", test_system);
  g_test_add_func ("/collector/procfs/no-such-process", test_no_such_process);
  g_test_add_func ("/collector/procfs/tree", test_tree);
  g_test_add_func ("/collector/procfs/no-children", test_no_children);
  g_test_add_func ("/collector/procfs/child-born-ended", test_child_born_ended);
  g_test_add_data_func ("/collector/procfs/child-that-ends", "--child-that-ends", test_child_that_ends);
  g_test_add_data_func ("/collector/procfs/child-left-zombie", "--child-left-zombie", test_child_that_ends);
  g_test_add_func ("/collector/procfs/child-named-late", test_child_named_late);
  g_test_add_func ("/collector/procfs/child-never-named", test_child_never_named);
  g_test_add_func ("/collector/procfs/command-tree-ends", test_command_tree_ends);
  g_test_add_func ("/collector/procfs/ends-while-drawing", test_ends_while_drawing);
  g_test_add_func ("/collector/host", test_host);
  g_test_add_func ("/collector/clock/interval", test_interval);
  g_test_add_func ("/collector/clock/busy-main-loop", test_busy_main_loop);
  g_test_add_func ("/collector/clock/lost", test_lost_readings);

  return g_test_run ();
}

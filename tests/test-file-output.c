/* test-file-output.c — no failure of the disk or the process takes a file away
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PsFileOutput (src/engine/ps-file-output.h) in the process: a new file,
 * a replaced one keeping its permissions, a write abandoned by its
 * caller, a file too large for the process's limit (RLIMIT_FSIZE: the
 * write fails as on a full disk), a symbolic link, a device and a FIFO, a
 * folder and a missing folder; each both with files made without a name
 * (O_TMPFILE) and with the hidden named files of other file systems.
 *
 * perfscope-cli as a user runs it: every export target and `diff` onto a
 * full file system and one without a free inode (a small tmpfs mounted in
 * a user and mount namespace of its own, where the system allows one),
 * `record -o` onto both (the recording kept in the cache folder), an
 * export killed while it writes, and `-o /dev/null`. After each, the old
 * file must be there byte for byte and nothing else beside it.
 */
#define _DEFAULT_SOURCE
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "cli-test-util.h"
#include "ps-event-store.h"
#include "ps-file-output.h"
#include "ps-native-writer.h"
#include "ps-loader.h"

#define OLD_CONTENT "the file that was there\n"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The names in dir, sorted, joined by spaces */
static char *
list_folder (const char *dir)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GDir *listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (listing);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **)names->pdata);
}

static void
remove_folder (const char *dir)
{
  GDir *listing = g_dir_open (dir, 0, NULL);
  const char *name;

  if (listing == NULL)
    return;
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        remove_folder (path);
      else
        g_unlink (path);
    }
  g_dir_close (listing);
  g_rmdir (dir);
}

static void
assert_file_is (const char *path,
                const char *expected)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, expected, strlen (expected));
}

/* A run with some counter readings, a few hundred kilobytes saved */
static PsEventStore *
make_store (guint n_readings)
{
  g_autofree char *csv = NULL;
  g_autoptr(GString) text = g_string_new ("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\m\\Processor(_Total)\\% Processor Time\"\r\n");
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  PsEventStore *store;

  for (guint i = 0; i < n_readings; i++)
    g_string_append_printf (text, "\"01/02/2026 %02u:%02u:%02u.000\",\"%u.5\"\r\n",
                            i / 3600 % 24, i / 60 % 60, i % 60, i % 100);
  csv = g_string_free (g_steal_pointer (&text), FALSE);
  stream = g_memory_input_stream_new_from_data (g_strdup (csv), strlen (csv), g_free);
  store = ps_load_stream (stream, "counters.csv", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ps_event_store_get_n_counter_values (store), ==, n_readings);
  return store;
}

/* ------------------------------------------------------------------------ */
/* PsFileOutput in the process, with and without unnamed files               */

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  unnamed)
{
  ps_file_output_set_unnamed_allowed (GPOINTER_TO_INT (unnamed));
  fixture->dir = g_dir_make_tmp ("perfscope-output-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  fixture->path = g_build_filename (fixture->dir, "run.out", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  unnamed)
{
  ps_file_output_set_unnamed_allowed (TRUE);
  remove_folder (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
}

static void
test_new_file (Fixture       *fixture,
               gconstpointer  unnamed)
{
  g_autoptr(GFile) file = g_file_new_for_path (fixture->path);
  g_autoptr(PsFileOutput) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;
  mode_t mask = umask (022);
  struct stat info;

  umask (mask);
  output = ps_file_output_open (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (ps_file_output_replaces_existing (output));
  g_assert_true (g_output_stream_write_all (ps_file_output_get_stream (output), "new\n", 4, NULL, NULL, &error));

  /* Nothing under the target's name until the commit */
  g_assert_false (g_file_test (fixture->path, G_FILE_TEST_EXISTS));
  listing = list_folder (fixture->dir);
  if (GPOINTER_TO_INT (unnamed))
    g_assert_cmpstr (listing, ==, "");
  else
    g_assert_true (g_str_has_prefix (listing, ".run.out."));

  g_assert_true (ps_file_output_commit (output, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (fixture->path, "new\n");
  g_clear_pointer (&listing, g_free);
  listing = list_folder (fixture->dir);
  g_assert_cmpstr (listing, ==, "run.out");

  /* The permissions of any new file */
  g_assert_cmpint (g_stat (fixture->path, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 07777, ==, 0666 & ~mask);
}

static void
test_replace_keeps_mode (Fixture       *fixture,
                         gconstpointer  unnamed)
{
  g_autoptr(GFile) file = g_file_new_for_path (fixture->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;
  struct stat info;

  g_assert_true (g_file_set_contents (fixture->path, OLD_CONTENT, -1, NULL));
  g_assert_cmpint (g_chmod (fixture->path, 0640), ==, 0);

  g_assert_true (ps_file_output_replace_contents (file, "replaced\n", 9, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (fixture->path, "replaced\n");
  g_assert_cmpint (g_stat (fixture->path, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 07777, ==, 0640);
  listing = list_folder (fixture->dir);
  g_assert_cmpstr (listing, ==, "run.out");
}

/* A caller that fails half-way frees the output without committing it */
static void
test_abandon_keeps_old (Fixture       *fixture,
                        gconstpointer  unnamed)
{
  g_autoptr(GFile) file = g_file_new_for_path (fixture->path);
  g_autoptr(GFile) other = g_file_new_build_filename (fixture->dir, "new.out", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;
  PsFileOutput *output;

  g_assert_true (g_file_set_contents (fixture->path, OLD_CONTENT, -1, NULL));

  output = ps_file_output_open (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ps_file_output_replaces_existing (output));
  g_assert_true (g_output_stream_write_all (ps_file_output_get_stream (output), "half", 4, NULL, NULL, &error));
  ps_file_output_free (output);

  /* A new file abandoned is not made at all */
  output = ps_file_output_open (other, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (ps_file_output_get_stream (output), "half", 4, NULL, NULL, &error));
  ps_file_output_free (output);

  assert_file_is (fixture->path, OLD_CONTENT);
  listing = list_folder (fixture->dir);
  g_assert_cmpstr (listing, ==, "run.out");
}

/* The child of test_file_too_large: the save, with the process's file
 * size limit below the run's size, fails as on a full disk */
static int
save_over_limit (const char *path,
                 const char *unnamed)
{
  g_autoptr(PsEventStore) store = make_store (20000);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  struct rlimit limit = { 64 * 1024, 64 * 1024 };

  ps_file_output_set_unnamed_allowed (strcmp (unnamed, "1") == 0);
  signal (SIGXFSZ, SIG_IGN);
  if (setrlimit (RLIMIT_FSIZE, &limit) != 0)
    return 77;
  if (ps_native_save (store, file, NULL, &error))
    return 0;
  g_print ("%d %s\n", error->code, error->message);
  return 1;
}

static void
test_file_too_large (Fixture       *fixture,
                     gconstpointer  unnamed)
{
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *listing = NULL;

  if (self_path == NULL)
    {
      g_test_skip ("/proc/self/exe is not available");
      return;
    }
  g_assert_true (g_file_set_contents (fixture->path, OLD_CONTENT, -1, NULL));

  child = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, self_path, "--save-over-limit", fixture->path,
                            GPOINTER_TO_INT (unnamed) ? "1" : "0", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (child, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 1);
  /* EFBIG, and the message says the old file is kept */
  expected = g_strdup_printf ("%d %s; the file that was there is unchanged\n", g_io_error_from_errno (EFBIG),
                              g_strerror (EFBIG));
  g_assert_cmpstr (out, ==, expected);

  assert_file_is (fixture->path, OLD_CONTENT);
  listing = list_folder (fixture->dir);
  g_assert_cmpstr (listing, ==, "run.out");
}

/* Through a symbolic link, the file it points to is replaced */
static void
test_symlink (Fixture       *fixture,
              gconstpointer  unnamed)
{
  g_autofree char *real = g_build_filename (fixture->dir, "real.out", NULL);
  g_autoptr(GFile) link = g_file_new_for_path (fixture->path);
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;

  g_assert_true (g_file_set_contents (real, OLD_CONTENT, -1, NULL));
  g_assert_cmpint (symlink ("real.out", fixture->path), ==, 0);

  g_assert_true (ps_file_output_replace_contents (link, "through\n", 8, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (fixture->path, G_FILE_TEST_IS_SYMLINK));
  assert_file_is (real, "through\n");
  listing = list_folder (fixture->dir);
  g_assert_cmpstr (listing, ==, "real.out run.out");
}

typedef struct
{
  char    *path;
  GString *read;
} FifoReader;

static gpointer
read_fifo (gpointer data)
{
  FifoReader *reader = data;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (g_file_get_contents (reader->path, &contents, &length, NULL))
    g_string_append_len (reader->read, contents, (gssize)length);
  return NULL;
}

/* /dev/null and a FIFO are written in place, and stay what they are */
static void
test_not_regular (Fixture       *fixture,
                  gconstpointer  unnamed)
{
  g_autoptr(GFile) null_file = g_file_new_for_path ("/dev/null");
  g_autoptr(GFile) fifo = g_file_new_for_path (fixture->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) read = g_string_new (NULL);
  FifoReader reader = { fixture->path, read };
  GThread *thread;
  struct stat info;

  g_assert_true (ps_file_output_replace_contents (null_file, "nothing\n", 8, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat ("/dev/null", &info), ==, 0);
  g_assert_true (S_ISCHR (info.st_mode));

  g_assert_cmpint (mkfifo (fixture->path, 0600), ==, 0);
  thread = g_thread_new ("fifo", read_fifo, &reader);
  g_assert_true (ps_file_output_replace_contents (fifo, "through a fifo\n", 15, NULL, &error));
  g_assert_no_error (error);
  g_thread_join (thread);
  g_assert_cmpstr (read->str, ==, "through a fifo\n");
  g_assert_cmpint (lstat (fixture->path, &info), ==, 0);
  g_assert_true (S_ISFIFO (info.st_mode));
}

static void
test_bad_targets (Fixture       *fixture,
                  gconstpointer  unnamed)
{
  g_autoptr(GFile) folder = g_file_new_for_path (fixture->dir);
  g_autofree char *missing_path = g_build_filename (fixture->dir, "gone", "run.out", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (missing_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *folder_name = g_filename_display_name (fixture->dir);
  g_autofree char *expected = NULL;
  g_autofree char *listing = NULL;

  g_assert_null (ps_file_output_open (folder, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  expected = g_strdup_printf ("“%s” is a folder", folder_name);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_clear_pointer (&expected, g_free);

  g_assert_false (ps_file_output_replace_contents (missing, "x", 1, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  expected = g_strdup_printf ("The folder “%s%cgone” does not exist", folder_name, G_DIR_SEPARATOR);
  g_assert_cmpstr (error->message, ==, expected);
  listing = list_folder (fixture->dir);
  g_assert_cmpstr (listing, ==, "");
}

static void
replaced_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
test_replace_async (Fixture       *fixture,
                    gconstpointer  unnamed)
{
  g_autoptr(GFile) file = g_file_new_for_path (fixture->path);
  g_autoptr(GBytes) contents = g_bytes_new_static ("async\n", 6);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (fixture->path, OLD_CONTENT, -1, NULL));
  ps_file_output_replace_contents_async (file, contents, NULL, replaced_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (ps_file_output_replace_contents_finish (result, &error));
  g_assert_no_error (error);
  assert_file_is (fixture->path, "async\n");
}

/* ------------------------------------------------------------------------ */
/* perfscope-cli                                                            */

static char *
demo_log (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);
}

/* Every -o that a command writes, with an input that has what it needs */
typedef struct
{
  const char *label;
  const char *input;  /* a demo log */
  const char *args[6];
} Writer;

static const Writer writers[] = {
  { "speedscope", "soffice_4711.log", { "export", "--to", "speedscope", NULL } },
  { "chrome-trace", "soffice_4711.log", { "export", "--to", "chrome-trace", NULL } },
  { "csv", "soffice_4711.log", { "export", "--to", "csv", NULL } },
  { "csv-points", "perfmon_4cpu.csv", { "export", "--to", "csv", "--points", NULL } },
  { "collapsed", "pmcstat_freebsd14.pmclog", { "export", "--to", "collapsed", NULL } },
  { "pmcstat-callgraph", "pmcstat_freebsd14.pmclog", { "export", "--to", "pmcstat-callgraph", NULL } },
  { "markdown", "soffice_4711.log", { "export", "--to", "markdown", NULL } },
  { "html", "perfmon_4cpu.csv", { "export", "--to", "html", NULL } },
};

/* The arguments of writer w writing to output */
static GStrv
writer_argv (const Writer *writer,
             const char   *output)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *input = demo_log (writer->input);

  g_strv_builder_add (builder, g_getenv ("PERFSCOPE_CLI"));
  g_strv_builder_add (builder, writer->args[0]);
  g_strv_builder_add (builder, input);
  for (guint i = 1; writer->args[i] != NULL; i++)
    g_strv_builder_add (builder, writer->args[i]);
  g_strv_builder_add_many (builder, "-o", output, NULL);
  return g_strv_builder_end (builder);
}

static void
test_cli_dev_null (void)
{
  struct stat info;

  for (guint w = 0; w < G_N_ELEMENTS (writers); w++)
    {
      g_auto(GStrv) argv = writer_argv (&writers[w], "/dev/null");
      g_autoptr(CliResult) result = cli_test_run_argv ((const char * const *)argv + 1);

      g_test_message ("%s", writers[w].label);
      g_assert_cmpstr (result->err, ==, "");
      g_assert_cmpint (result->status, ==, 0);
    }
  {
    g_autofree char *a = demo_log ("dbperf_CEPC_x86_6_0_3122.log");
    g_autofree char *b = demo_log ("fsperf_CEPC_x86_6_0_3122.log");
    g_autoptr(CliResult) result = cli_test_run ("diff", a, b, "--to", "csv", "-o", "/dev/null", NULL);

    g_assert_cmpint (result->status, ==, 0);
  }
  g_assert_cmpint (g_stat ("/dev/null", &info), ==, 0);
  g_assert_true (S_ISCHR (info.st_mode));
}

/* A shell script run as root of a user and mount namespace of its own,
 * where it may mount a tmpfs; FALSE (and the test skipped) where the
 * system allows no such namespace */
static gboolean
run_in_namespace (const char  *script,
                  char       **out)
{
  const char *argv[] = { "unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, NULL };
  g_autoptr(GSubprocess) probe = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  const char *probe_argv[] = { "unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                               "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\"; r=$?; rmdir \"$d\"; exit $r",
                               NULL };

  probe = g_subprocess_newv (probe_argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL);
  if (probe == NULL || !g_subprocess_wait_check (probe, NULL, NULL))
    {
      g_test_skip ("no user and mount namespace to mount a small tmpfs in (unshare -rm)");
      return FALSE;
    }

  child = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (child, NULL, NULL, out, &err, &error));
  g_assert_no_error (error);
  if (err != NULL && err[0] != '\0')
    g_test_message ("%s", err);
  g_assert_true (g_subprocess_get_if_exited (child));
  g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 0);
  return TRUE;
}

static char *
shell_quote_argv (char **argv)
{
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      g_autofree char *quoted = g_shell_quote (argv[i]);

      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, quoted);
    }
  return g_string_free (g_steal_pointer (&line), FALSE);
}

/* Each writer onto a file system with no room left (no_inode: no free
 * inode instead), over an old file: status 1, the message saying the old
 * file is kept, the file byte for byte and nothing beside it */
static void
check_writers_on_full_disk (gboolean no_inode)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-full-XXXXXX", NULL);
  g_autofree char *old_path = g_build_filename (dir, "old", NULL);
  g_autofree char *mount_point = g_build_filename (dir, "disk", NULL);
  g_autofree char *target = g_build_filename (mount_point, "prev.out", NULL);
  g_autoptr(GString) script = g_string_new ("set -u\n");
  g_autofree char *q_mount = g_shell_quote (mount_point);
  g_autofree char *q_old = g_shell_quote (old_path);
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  guint checked = 0;

  g_assert_true (g_file_set_contents (old_path, OLD_CONTENT, -1, NULL));
  g_assert_cmpint (g_mkdir (mount_point, 0700), ==, 0);

  /* The old file, then the disk filled: room for no byte (or no inode) */
  g_string_append_printf (script, "mount -t tmpfs -o size=1m%s tmpfs %s || exit 1\n",
                          no_inode ? ",nr_inodes=8" : "", q_mount);
  g_string_append_printf (script, "cp %s %s/prev.out\n", q_old, q_mount);
  if (no_inode)
    g_string_append_printf (script, "i=0; while touch %s/f$i 2>/dev/null; do i=$((i+1)); done\n", q_mount);
  else
    g_string_append_printf (script, "head -c 2M /dev/zero > %s/fill 2>/dev/null\n", q_mount);

  for (guint w = 0; w < G_N_ELEMENTS (writers); w++)
    {
      g_auto(GStrv) argv = writer_argv (&writers[w], target);
      g_autofree char *command = shell_quote_argv (argv);

      g_string_append_printf (script, "%s 2>%s/../err >/dev/null; status=$?\n", command, q_mount);
      g_string_append_printf (script, "if cmp -s %s %s/prev.out; then same=same; else same=changed; fi\n",
                              q_old, q_mount);
      g_string_append_printf (script, "echo \"%s|$status|$same|$(ls -A %s | grep -v '^f[0-9]*$' | tr '\\n' ' ')|$(cat %s/../err)\"\n",
                              writers[w].label, q_mount, q_mount);
    }
  g_string_append_printf (script, "umount %s\n", q_mount);

  if (!run_in_namespace (script->str, &out))
    {
      remove_folder (dir);
      return;
    }

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "|", 5);
      g_autofree char *expected_files = g_strdup (no_inode ? "prev.out " : "fill prev.out ");

      g_test_message ("%s", lines[i]);
      g_assert_cmpuint (g_strv_length (fields), ==, 5);
      g_assert_cmpstr (fields[1], ==, "1");
      g_assert_cmpstr (fields[2], ==, "same");
      g_assert_cmpstr (fields[3], ==, expected_files);
      g_assert_nonnull (strstr (fields[4], g_strerror (ENOSPC)));
      g_assert_nonnull (strstr (fields[4], "the file that was there is unchanged"));
      checked++;
    }
  g_assert_cmpuint (checked, ==, G_N_ELEMENTS (writers));
  remove_folder (dir);
}

static void
test_cli_full_disk (void)
{
  check_writers_on_full_disk (FALSE);
}

static void
test_cli_no_inode (void)
{
  check_writers_on_full_disk (TRUE);
}

/* record -o onto a disk without room: the old run stays, the recording
 * goes to the cache folder, and stderr says where */
static void
test_cli_record_kept (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-record-XXXXXX", NULL);
  g_autofree char *mount_point = g_build_filename (dir, "disk", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  g_autofree char *unsaved = g_build_filename (cache, "perfscope", "unsaved", NULL);
  g_autofree char *q_mount = g_shell_quote (mount_point);
  g_autofree char *q_cache = g_shell_quote (cache);
  g_autofree char *q_cli = g_shell_quote (g_getenv ("PERFSCOPE_CLI"));
  g_autofree char *q_old_content = g_shell_quote (OLD_CONTENT);
  g_autoptr(GString) script = g_string_new ("set -u\n");
  g_autofree char *out = NULL;
  g_autofree char *kept_name = NULL;
  g_autofree char *kept_path = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(CliResult) info = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *run;
  GDir *kept;

  if (!g_file_test ("/proc/self/stat", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the procfs backend needs Linux's /proc");
      return;
    }
  g_assert_cmpint (g_mkdir (mount_point, 0700), ==, 0);

  g_string_append_printf (script, "mount -t tmpfs -o size=1m,nr_inodes=8 tmpfs %s || exit 1\n", q_mount);
  g_string_append_printf (script, "printf '%%s' %s > %s/run.perfscope\n", q_old_content, q_mount);
  g_string_append_printf (script, "i=0; while touch %s/f$i 2>/dev/null; do i=$((i+1)); done\n", q_mount);
  g_string_append_printf (script, "XDG_CACHE_HOME=%s %s record --backend procfs --command 'sleep 0.3' "
                          "--interval-ms 50 -o %s/run.perfscope --text >%s/../out 2>%s/../err; status=$?\n",
                          q_cache, q_cli, q_mount, q_mount, q_mount);
  g_string_append_printf (script, "echo \"status=$status\"; cat %s/run.perfscope; echo; cat %s/../err; "
                          "grep -c 'Processor Time' %s/../out\n", q_mount, q_mount, q_mount);
  g_string_append_printf (script, "umount %s\n", q_mount);

  if (!run_in_namespace (script->str, &out))
    {
      remove_folder (dir);
      return;
    }
  g_test_message ("%s", out);

  /* Status 1, the old run as it was, where the recording went */
  g_assert_true (g_str_has_prefix (out, "status=1\n" OLD_CONTENT "\n"));
  g_assert_nonnull (strstr (out, "the file that was there is unchanged"));
  g_assert_nonnull (strstr (out, "The recording was saved to “"));
  g_assert_nonnull (strstr (out, unsaved));
  /* The counters were printed all the same: the CPU of the process, of
   * its tree and of the system */
  g_assert_true (g_str_has_suffix (out, "\n3\n"));

  /* The kept recording is a whole run */
  kept = g_dir_open (unsaved, 0, NULL);
  g_assert_nonnull (kept);
  kept_name = g_strdup (g_dir_read_name (kept));
  g_assert_nonnull (kept_name);
  g_assert_null (g_dir_read_name (kept));
  g_dir_close (kept);
  g_assert_true (g_str_has_prefix (kept_name, "run-"));
  g_assert_true (g_str_has_suffix (kept_name, ".perfscope"));
  kept_path = g_build_filename (unsaved, kept_name, NULL);
  g_assert_nonnull (strstr (out, kept_path));

  info = cli_test_run ("info", kept_path, NULL);
  g_assert_cmpint (info->status, ==, 0);
  root = cli_test_parse_json (info->out);
  run = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (run, "format"), ==, "perfscope");
  g_assert_cmpstr (json_object_get_string_member (run, "origin"), ==, "procfs");
  g_assert_true (json_object_get_boolean_member (run, "complete"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (run, "metadata"), "command"), ==,
                   "sleep 0.3");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (run, "counts"), "counter_values"), >, 0);

  listing = list_folder (dir);
  g_assert_cmpstr (listing, ==, "cache disk err out");
  remove_folder (dir);
}

/* An RTL log of n scopes: a large chrome-trace export */
static char *
write_big_rtl_log (const char *dir,
                   guint       n_scopes)
{
  g_autofree char *path = g_build_filename (dir, "big.log", NULL);
  g_autoptr(GString) text = g_string_new ("opening log file 1350232464.306251 seconds past January 1st 1970\n"
                                          "corresponding to 0 ms after timer start\n"
                                          "Process id is 4711\n");

  for (guint i = 0; i < n_scopes; i++)
    {
      g_string_append_printf (text, "%06u 1 { module (ab123456) ::Class::Function%u\n", i, i % 500);
      g_string_append_printf (text, "%06u 1 } module (ab123456) ::Class::Function%u\n", i, i % 500);
    }
  g_assert_true (g_file_set_contents (path, text->str, (gssize)text->len, NULL));
  return g_steal_pointer (&path);
}

/* Whether pid has a file open in dir (the export's new file, named or not) */
static gboolean
writes_in (GPid        pid,
           const char *dir)
{
  g_autofree char *fd_dir = g_strdup_printf ("/proc/%d/fd", (int)pid);
  g_autofree char *prefix = g_strconcat (dir, G_DIR_SEPARATOR_S, NULL);
  GDir *fds = g_dir_open (fd_dir, 0, NULL);
  const char *name;
  gboolean found = FALSE;

  if (fds == NULL)
    return FALSE;
  while (!found && (name = g_dir_read_name (fds)) != NULL)
    {
      g_autofree char *fd_path = g_build_filename (fd_dir, name, NULL);
      g_autofree char *target = g_file_read_link (fd_path, NULL);

      found = target != NULL && g_str_has_prefix (target, prefix);
    }
  g_dir_close (fds);
  return found;
}

/* An export killed while it writes leaves the old file and nothing else */
static void
test_cli_killed_export (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-kill-XXXXXX", NULL);
  g_autofree char *out_dir = g_build_filename (dir, "out", NULL);
  g_autofree char *target = g_build_filename (out_dir, "trace.json", NULL);
  g_autofree char *log = write_big_rtl_log (dir, 400000);
  guint killed = 0;

  g_assert_cmpint (g_mkdir (out_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (target, OLD_CONTENT, -1, NULL));

  for (guint round = 0; round < 3; round++)
    {
      const char *argv[] = { g_getenv ("PERFSCOPE_CLI"), "export", log, "--to", "chrome-trace", "-o", target, NULL };
      gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
      g_autoptr(GSubprocess) child = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *listing = NULL;
      GPid pid;

      child = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
      g_assert_no_error (error);
      pid = (GPid)g_ascii_strtoll (g_subprocess_get_identifier (child), NULL, 10);

      /* Killed as soon as it has its new file open */
      while (g_subprocess_get_identifier (child) != NULL && !writes_in (pid, out_dir)
             && g_get_monotonic_time () < deadline)
        g_usleep (200);
      g_subprocess_send_signal (child, SIGKILL);
      g_subprocess_wait (child, NULL, &error);
      g_assert_no_error (error);
      if (!g_subprocess_get_if_signaled (child))
        {
          /* It ended first: that export is the file now, written whole */
          g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 0);
          g_assert_true (g_file_set_contents (target, OLD_CONTENT, -1, NULL));
          continue;
        }
      killed++;
      assert_file_is (target, OLD_CONTENT);
      listing = list_folder (out_dir);
      g_assert_cmpstr (listing, ==, "trace.json");
    }
  g_test_message ("%u of 3 exports killed while writing", killed);
  g_assert_cmpuint (killed, >, 0);
  remove_folder (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 4 && strcmp (argv[1], "--save-over-limit") == 0)
    return save_over_limit (argv[2], argv[3]);

  g_test_init (&argc, &argv, NULL);

  for (guint unnamed = 0; unnamed <= 1; unnamed++)
    {
      const char *mode = unnamed ? "unnamed" : "named";
      struct
      {
        const char *name;
        void (*func) (Fixture *, gconstpointer);
      } tests[] = {
        { "new-file", test_new_file },
        { "replace-keeps-mode", test_replace_keeps_mode },
        { "abandon-keeps-old", test_abandon_keeps_old },
        { "file-too-large", test_file_too_large },
        { "symlink", test_symlink },
        { "not-regular", test_not_regular },
        { "bad-targets", test_bad_targets },
        { "replace-async", test_replace_async },
      };

      for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
        {
          g_autofree char *path = g_strdup_printf ("/file-output/%s/%s", mode, tests[i].name);

          g_test_add (path, Fixture, GINT_TO_POINTER (unnamed), fixture_set_up, tests[i].func, fixture_tear_down);
        }
    }
  g_test_add_func ("/file-output/cli/dev-null", test_cli_dev_null);
  g_test_add_func ("/file-output/cli/full-disk", test_cli_full_disk);
  g_test_add_func ("/file-output/cli/no-inode", test_cli_no_inode);
  g_test_add_func ("/file-output/cli/record-kept", test_cli_record_kept);
  g_test_add_func ("/file-output/cli/killed-export", test_cli_killed_export);

  return g_test_run ();
}

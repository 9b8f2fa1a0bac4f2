/* cli-test-util.c — running perfscope-cli from a test
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-test-util.h"
#include "pmclog-writer.h"

void
cli_result_free (CliResult *result)
{
  g_free (result->out);
  g_free (result->err);
  g_free (result);
}

static char *
bytes_to_string (GBytes *bytes)
{
  gsize size = g_bytes_get_size (bytes);

  return size > 0 ? g_strndup (g_bytes_get_data (bytes, NULL), size) : g_strdup ("");
}

CliResult *
cli_test_run_argv_with_input (const char * const *args,
                              GBytes             *input)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  CliResult *result = g_new0 (CliResult, 1);
  const char *cli = g_getenv ("PERFSCOPE_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *)cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *)argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE
                               | (input != NULL ? G_SUBPROCESS_FLAGS_STDIN_PIPE : G_SUBPROCESS_FLAGS_NONE),
                               &error);
  g_assert_no_error (error);
  /* Bytes: a CSV ends its rows with CRLF, kept as they are */
  g_subprocess_communicate (process, input, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  result->status = g_subprocess_get_exit_status (process);
  result->out = bytes_to_string (out);
  result->err = bytes_to_string (err);
  g_test_message ("exit %d; stderr: %s", result->status, result->err);
  return result;
}

CliResult *
cli_test_run_argv (const char * const *args)
{
  return cli_test_run_argv_with_input (args, NULL);
}

CliResult *
cli_test_run (const char *first,
              ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list list;

  va_start (list, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (list, const char *))
    g_ptr_array_add (args, (char *)arg);
  va_end (list);
  g_ptr_array_add (args, NULL);
  return cli_test_run_argv ((const char * const *)args->pdata);
}

JsonNode *
cli_test_parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

char *
cli_test_write_pmclog (const char *dir)
{
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A000000);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = g_build_filename (dir, "pmcstat.out", NULL);
  guint64 user[2] = { 0x400123, 0x400456 };
  guint64 kernel[2] = { G_GUINT64_CONSTANT (0xffffffff80300010), 0x400456 };
  g_autoptr(GError) error = NULL;

  ps_pmclog_writer_initialize (writer, 1000, 0x80, 1000000000, 1700000000, 0, "GenuineIntel-6-55-4");
  ps_pmclog_writer_pmcallocatedyn (writer, 1000, 0x100, 0x1000, 0x80, 0, "CLOCK.HARD");
  ps_pmclog_writer_map_in (writer, 1000, G_MAXUINT32, G_GUINT64_CONSTANT (0xffffffff80200000), "/boot/kernel/kernel");
  ps_pmclog_writer_map_in (writer, 1000, 7, 0x400000, "/bin/dd");
  ps_pmclog_writer_callchain (writer, 2000, 7, 700, 0x100, 1, user, 2);
  ps_pmclog_writer_callchain (writer, 3000, 7, 700, 0x100, 1, user, 2);
  ps_pmclog_writer_callchain (writer, 4000, 7, 700, 0x100, 0, kernel, 2);
  bytes = ps_pmclog_writer_free_to_bytes (writer);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

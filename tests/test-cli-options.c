/* test-cli-options.c — each command of perfscope-cli takes its own options
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The options of each command as docs/cli.md lists them: the command's
 * --help shows exactly those, the program's --help all of them, and an
 * option of another command is a usage error (status 2) that names the
 * commands that take it, before any file is read.
 */
#include <string.h>

#include "cli-test-util.h"

typedef struct
{
  const char *name;
  const char *files[3];   /* enough FILEs for the command, NULL-terminated */
  const char *options;    /* its options, beside --help and --version */
} Command;

#define READ_OPTIONS "--format --quiet --tick-rate --max-events --encoding --utc-offset --sysroot --address-width "
#define PRINT_OPTIONS "--json --text "
#define SCOPE_OPTIONS "--include --exclude --include-file --exclude-file "

static const Command commands[] = {
  { "info", { "x.log" }, READ_OPTIONS PRINT_OPTIONS },
  { "stats", { "x.log" }, READ_OPTIONS PRINT_OPTIONS SCOPE_OPTIONS "--group-by-name --include-negative --per-thread" },
  { "calltree", { "x.log" }, READ_OPTIONS PRINT_OPTIONS SCOPE_OPTIONS "--thread --basis --depth --group-addresses" },
  { "counters", { "x.log" }, READ_OPTIONS PRINT_OPTIONS "--changes" },
  { "diff", { "a.log", "b.log" }, READ_OPTIONS PRINT_OPTIONS "--rename --min-change --noise-floor --session-a --session-b --to --output" },
  { "export", { "x.log" }, READ_OPTIONS "--to --output --tree --points --source --group-by-name --basis --depth" },
  { "summarize", { "x.log" }, READ_OPTIONS "--output" },
  { "trend", { "nightly" }, READ_OPTIONS PRINT_OPTIONS "--by --value --min-change --fail-on-regression" },
  { "formats", { NULL }, PRINT_OPTIONS },
  { "record", { NULL }, PRINT_OPTIONS "--backend --pid --command --no-children --interval-ms --duration --output --sysroot" },
};

/* The options that take a value */
static const char * const value_options[] = {
  "--format", "--tick-rate", "--max-events", "--encoding", "--utc-offset", "--sysroot", "--address-width",
  "--include", "--exclude", "--include-file", "--exclude-file", "--thread", "--basis", "--depth",
  "--rename", "--min-change", "--noise-floor", "--session-a", "--session-b", "--to", "--output", "--source", "--by", "--value",
  "--fail-on-regression", "--backend", "--pid", "--command", "--interval-ms", "--duration", NULL,
};

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The options a --help lists, sorted: "--name" at the start of a line,
 * after "-x, " for one with a letter */
static GPtrArray *
listed_options (const char *help)
{
  g_autoptr(GRegex) regex = g_regex_new ("^ +(?:-[a-z], )?(--[a-z-]+)", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  GPtrArray *options = g_ptr_array_new_with_free_func (g_free);

  g_regex_match (regex, help, 0, &match);
  while (g_match_info_matches (match))
    {
      g_ptr_array_add (options, g_match_info_fetch (match, 1));
      g_match_info_next (match, NULL);
    }
  g_ptr_array_sort (options, compare_names);
  return options;
}

static char *
joined (GPtrArray *options)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < options->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? " " : "", (const char *) g_ptr_array_index (options, i));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The command's options with --help and --version, sorted, space-separated */
static char *
expected_options (const Command *command)
{
  g_auto(GStrv) names = g_strsplit (command->options, " ", -1);
  g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; names[i] != NULL; i++)
    if (names[i][0] != '\0')
      g_ptr_array_add (options, g_strdup (names[i]));
  g_ptr_array_add (options, g_strdup ("--help"));
  g_ptr_array_add (options, g_strdup ("--version"));
  g_ptr_array_sort (options, compare_names);
  return joined (options);
}

static gboolean
takes (const Command *command,
       const char    *option)
{
  g_auto(GStrv) names = g_strsplit (command->options, " ", -1);

  return g_strv_contains ((const char * const *) names, option);
}

/* Every option of every command, once */
static GPtrArray *
all_options (void)
{
  GPtrArray *options = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(GStrv) names = g_strsplit (commands[i].options, " ", -1);

      for (guint j = 0; names[j] != NULL; j++)
        if (names[j][0] != '\0' && !g_ptr_array_find_with_equal_func (options, names[j], g_str_equal, NULL))
          g_ptr_array_add (options, g_strdup (names[j]));
    }
  return options;
}

/* COMMAND --help lists exactly the command's options, under a usage line
 * that names the command and its FILEs */
static void
test_command_help (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const Command *command = &commands[i];
      g_autoptr(CliResult) help = cli_test_run (command->name, "--help", NULL);
      g_autoptr(CliResult) before = cli_test_run ("-h", command->name, NULL);
      g_autoptr(GPtrArray) listed = NULL;
      g_autofree char *listed_text = NULL;
      g_autofree char *expected = expected_options (command);
      g_autofree char *usage = g_strdup_printf ("perfscope-cli [OPTION…] %s", command->name);

      g_test_message ("%s --help", command->name);
      g_assert_cmpint (help->status, ==, 0);
      g_assert_cmpstr (help->err, ==, "");
      g_assert_nonnull (strstr (help->out, usage));
      listed = listed_options (help->out);
      listed_text = joined (listed);
      g_assert_cmpstr (listed_text, ==, expected);

      /* -h before the command is the same help */
      g_assert_cmpint (before->status, ==, 0);
      g_assert_cmpstr (before->out, ==, help->out);
    }
}

/* The program's --help names every command and lists every option once,
 * under the commands that take it */
static void
test_program_help (void)
{
  g_autoptr(CliResult) help = cli_test_run ("--help", NULL);
  g_autoptr(GPtrArray) options = all_options ();
  g_autoptr(GPtrArray) listed = NULL;
  g_autofree char *listed_text = NULL;
  g_autofree char *expected_text = NULL;

  g_assert_cmpint (help->status, ==, 0);
  g_ptr_array_add (options, g_strdup ("--help"));
  g_ptr_array_add (options, g_strdup ("--version"));
  g_ptr_array_sort (options, compare_names);
  listed = listed_options (help->out);
  listed_text = joined (listed);
  expected_text = joined (options);
  g_assert_cmpstr (listed_text, ==, expected_text);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *line = g_strdup_printf ("\n  %s ", commands[i].name);

      g_assert_nonnull (strstr (help->out, line));
    }

  /* The options shared by the commands that read files come once */
  g_assert_nonnull (strstr (help->out, "Options of info, stats, calltree, counters, diff, export, summarize and trend:\n"
                                       "  --format=NAME "));
  g_assert_nonnull (strstr (help->out, "Options of diff and trend:\n"
                                       "  --min-change=PERCENT "));
}

/* "--a applies to the x command only", "… to the x and y commands only" */
static char *
applies_message (const char *option,
                 const char *as_written)
{
  g_autoptr(GPtrArray) takers = g_ptr_array_new ();
  g_autoptr(GString) message = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (takes (&commands[i], option))
      g_ptr_array_add (takers, (gpointer) commands[i].name);
  g_assert_cmpuint (takers->len, >, 0);

  g_string_append_printf (message, "%s applies to the ", as_written);
  for (guint i = 0; i < takers->len; i++)
    g_string_append_printf (message, "%s%s", i == 0 ? "" : i + 1 < takers->len ? ", " : " and ",
                            (const char *) g_ptr_array_index (takers, i));
  g_string_append (message, takers->len == 1 ? " command only" : " commands only");
  return g_string_free (g_steal_pointer (&message), FALSE);
}

static void
assert_refused (const char * const *args,
                const char         *message)
{
  g_autoptr(CliResult) result = cli_test_run_argv (args);

  g_test_message ("%s %s: %s", args[0], args[1], result->err);
  g_assert_cmpint (result->status, ==, 2);
  g_assert_cmpstr (result->out, ==, "");
  g_assert_nonnull (strstr (result->err, message));
  g_assert_nonnull (strstr (result->err, "--help"));
}

/* Every option of another command, after the command or before it, is
 * refused with the names of the commands that take it; the files are not
 * looked at (they do not exist) */
static void
test_other_commands_options (void)
{
  g_autoptr(GPtrArray) options = all_options ();

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    for (guint j = 0; j < options->len; j++)
      {
        const Command *command = &commands[i];
        const char *option = g_ptr_array_index (options, j);
        g_autofree char *given = NULL;
        g_autofree char *message = NULL;
        const char *after[6] = { command->name, NULL };
        const char *before[6] = { NULL };
        guint n = 1;

        if (takes (command, option))
          continue;
        given = g_strv_contains (value_options, option) ? g_strconcat (option, "=1", NULL) : g_strdup (option);
        message = applies_message (option, option);

        after[n++] = given;
        for (guint k = 0; command->files[k] != NULL; k++)
          after[n++] = command->files[k];
        assert_refused (after, message);

        /* --OPTION COMMAND FILE… */
        before[0] = given;
        before[1] = command->name;
        for (guint k = 0; command->files[k] != NULL; k++)
          before[2 + k] = command->files[k];
        assert_refused (before, message);
      }
}

/* -o, as written, and a value that looks like an option is the value */
static void
test_short_and_values (void)
{
  const char * const short_output[] = { "info", "-o", "out.json", "x.log", NULL };
  const char * const valued[] = { "diff", "--rename", "--text", "a.log", "b.log", NULL };
  g_autofree char *message = applies_message ("--output", "-o");
  g_autoptr(CliResult) rename_value = NULL;

  assert_refused (short_output, message);

  /* "--text" is the value of --rename here, not the option, and
   * --rename says what it needs */
  rename_value = cli_test_run_argv (valued);
  g_assert_cmpint (rename_value->status, ==, 2);
  g_assert_nonnull (strstr (rename_value->err, "--rename needs A_NAME=B_NAME, not “--text”"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-options/command-help", test_command_help);
  g_test_add_func ("/cli-options/program-help", test_program_help);
  g_test_add_func ("/cli-options/other-commands", test_other_commands_options);
  g_test_add_func ("/cli-options/short-and-values", test_short_and_values);

  return g_test_run ();
}

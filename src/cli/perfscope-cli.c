/* perfscope-cli.c — the headless front end of the Perfscope engine
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md. Command names, exit codes and JSON field names are a
 * contract with scripts, tests and benchmarks.
 */
#include "config.h"

#include <locale.h>
#include <stdarg.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-util.h"

/* Commands of the contract that this version does not have yet */
static const char * const later_commands[] = {
  NULL,
};

/* Options that take a value as the next argument, for finding the command
 * before the options are parsed */
static const char * const options_with_value[] = {
  "--format", "--tick-rate", "--thread", "--basis", "--depth",
  "--to", "--output", "-o", "--source", "--sysroot", "--address-width", "--rename",
  "--backend", "--pid", "--command", "--interval-ms", "--duration", "--max-events",
  "--min-change", "--noise-floor", "--encoding", "--utc-offset",
  "--by", "--value", "--fail-on-regression", NULL,
};

/* The first argument that is neither an option nor an option's value */
static const char *
find_command (int    argc,
              char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0)
        return i + 1 < argc ? argv[i + 1] : NULL;
      if (arg[0] != '-' || arg[1] == '\0')
        return arg;
      if (g_strv_contains (options_with_value, arg))
        i++;
    }

  return NULL;
}

static gboolean
parse_tick_rate (const char *text,
                 double     *out)
{
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  /* end == text also for "" */
  if (end == text || *end != '\0' || !isfinite (value) || value <= 0)
    return FALSE;

  *out = value;
  return TRUE;
}

/* A percentage of 0 or more, at most maximum, as a fraction */
static gboolean
parse_percent (const char *text,
               double      maximum,
               double     *out)
{
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !isfinite (value) || value < 0 || value > maximum)
    return FALSE;

  *out = value / 100.0;
  return TRUE;
}

/* A code page that g_iconv knows and that writes ASCII as ASCII, as the
 * line ends and separators of a text log need */
static gboolean
is_known_encoding (const char *name)
{
  static const char ascii[] = "\"(PDH-CSV 4.0)\",\"\\\\H\\x\"\t09:59:59.5\r\n";
  g_autofree char *converted = g_convert (ascii, -1, "UTF-8", name, NULL, NULL, NULL);

  return converted != NULL && strcmp (converted, ascii) == 0;
}

/* "+03:00", "-5", "+0530", "0" or "Z": minutes east of UTC */
static gboolean
parse_utc_offset (const char *text,
                  gint64     *minutes)
{
  const char *p = text;
  int sign = 1;
  guint64 hours, extra = 0;
  g_autofree char *hour_text = NULL;
  const char *colon;

  if (g_ascii_strcasecmp (text, "Z") == 0 || g_ascii_strcasecmp (text, "UTC") == 0)
    {
      *minutes = 0;
      return TRUE;
    }
  if (g_ascii_strncasecmp (p, "UTC", 3) == 0)
    p += 3;
  if (*p == '+' || *p == '-')
    sign = *p++ == '-' ? -1 : 1;
  colon = strchr (p, ':');
  if (colon == NULL && strlen (p) == 4)
    colon = p + 2;  /* "+0530" */
  hour_text = colon != NULL ? g_strndup (p, colon - p) : g_strdup (p);
  if (!g_ascii_string_to_unsigned (hour_text, 10, 0, 14, &hours, NULL))
    return FALSE;
  if (colon != NULL)
    {
      const char *minute_text = *colon == ':' ? colon + 1 : colon;

      if (strlen (minute_text) != 2 || !g_ascii_string_to_unsigned (minute_text, 10, 0, 59, &extra, NULL))
        return FALSE;
    }
  *minutes = sign * (gint64) (hours * 60 + extra);
  return TRUE;
}

static char *
format_names (void)
{
  g_autoptr(GString) names = g_string_new (NULL);
  guint n_formats;
  const PsFormat * const *formats = ps_format_list (&n_formats);

  for (guint i = 0; i < n_formats; i++)
    {
      if (i > 0)
        g_string_append (names, ", ");
      g_string_append (names, formats[i]->name);
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static char *
help_summary (void)
{
  return g_strconcat (
    _("Commands:"), "\n",
    "  info FILE...               ", _("what was loaded"), "\n",
    "  stats FILE                 ", _("per-series statistics"), "\n",
    "  calltree FILE              ", _("call tree and function summary with the four instrumentation values"), "\n",
    "  counters FILE              ", _("performance counter series: points [time_ns, value] (missing samples "
                                         "left out), unit, min, max, mean and last"), "\n",
    "  diff FILE_A FILE_B         ", _("compare two runs: series, functions or counters matched by name, "
                                         "each with a verdict and its basis: a Mann–Whitney p-value, a test of "
                                         "sample shares, or the size of a change of one value per run "
                                         "(--min-change PERCENT, --noise-floor PERCENT; --rename A_NAME=B_NAME; "
                                         "--to csv or --to markdown, -o OUT)"), "\n",
    "  export FILE --to collapsed ", _("folded call stacks for flame graphs (-o OUT, --source NAME)"), "\n",
    "  export FILE --to csv       ", _("the run’s main table: stats, calltree functions (--tree: the call tree) "
                                         "or counters (--points: every reading)"), "\n",
    "  export FILE --to speedscope ", _("spans and call stacks for speedscope"), "\n",
    "  export FILE --to chrome-trace ", _("spans, marks, counters and timed samples for Perfetto and chrome://tracing"), "\n",
    "  export FILE --to markdown  ", _("a summary of the run for a bug report: the run, its top series, "
                                         "functions or counters, and its warnings (in English)"), "\n",
    "  export FILE --to html      ", _("the same summary as a standalone HTML page"), "\n",
    "  summarize FILE             ", _("a small summary of the run for trend: per row its count, median, "
                                         "p95, mean and total (-o OUT)"), "\n",
    "  trend FILE…|DIR            ", _("many runs (logs or summaries) in order (--by time, version or name) "
                                         "and the change points of each row’s median, p95 or total "
                                         "(--value; --min-change PERCENT, --fail-on-regression PERCENT)"), "\n",
    "  formats                    ", _("the registered formats"), "\n",
    "  record --backend procfs    ", _("record a live run (--pid N or --command CMD and the processes it "
                                         "starts, --no-children, --interval-ms MS, --duration S) and print its "
                                         "counters; -o OUT saves it"), "\n",
    "\n",
    _("Exit status: 0 success (warnings allowed), 1 the file could not be read or is not "
      "a known format, 2 bad usage, 3 the file was read only in part, 4 trend: the newest "
      "run is after a regression larger than --fail-on-regression."),
    NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) arguments = NULL;
  g_autofree char *format_name = NULL;
  g_autofree char *tick_rate = NULL;
  g_autofree char *thread = NULL;
  g_autofree char *basis = NULL;
  g_autofree char *depth = NULL;
  g_autofree char *export_target = NULL;
  g_autofree char *export_output = NULL;
  g_autofree char *sysroot = NULL;
  g_autofree char *max_events = NULL;
  g_autofree char *address_width = NULL;
  g_autofree char *export_source = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *backend = NULL;
  g_autofree char *pid = NULL;
  g_autofree char *record_command = NULL;
  g_autofree char *interval_ms = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *min_change = NULL;
  g_autofree char *noise_floor = NULL;
  g_autofree char *encoding = NULL;
  g_autofree char *utc_offset = NULL;
  g_autofree char *utc_offset_minutes = NULL;
  g_autofree char *trend_by = NULL;
  g_autofree char *trend_value = NULL;
  g_autofree char *fail_on_regression = NULL;
  g_auto(GStrv) includes = NULL;
  g_auto(GStrv) excludes = NULL;
  g_auto(GStrv) include_files = NULL;
  g_auto(GStrv) exclude_files = NULL;
  g_auto(GStrv) renames = NULL;
  g_autoptr(GHashTable) rename_map = NULL;
  g_autoptr(PsScopeFilter) scope_filter = NULL;
  gboolean json = FALSE;
  gboolean no_children = FALSE;
  gboolean show_help = FALSE;
  gboolean show_version = FALSE;
  PsCliOptions options = { 0 };
  const char *command;
  guint n_arguments;
  GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name,
      N_("Read the files as format NAME instead of detecting it"), N_("NAME") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print JSON (the default)"), NULL },
    { "text", 0, 0, G_OPTION_ARG_NONE, &options.text,
      N_("Print aligned tables for people"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options.quiet,
      N_("Do not show the progress line on a terminal"), NULL },
    { "group-by-name", 0, 0, G_OPTION_ARG_NONE, &options.group_by_name,
      N_("stats: merge the instances of one description within a session; export --to csv: a row per CE description with its keys as columns, as PerfToCsv"), NULL },
    { "include-negative", 0, 0, G_OPTION_ARG_NONE, &options.include_negative,
      N_("stats: count negative durations (left out by default)"), NULL },
    { "per-thread", 0, 0, G_OPTION_ARG_NONE, &options.per_thread,
      N_("stats: scopes of each thread apart (RTL logs)"), NULL },
    { "include", 0, 0, G_OPTION_ARG_STRING_ARRAY, &includes,
      N_("stats: only scopes whose begin record matches REGEX (repeatable)"), N_("REGEX") },
    { "exclude", 0, 0, G_OPTION_ARG_STRING_ARRAY, &excludes,
      N_("stats: leave out scopes whose begin record matches REGEX (repeatable)"), N_("REGEX") },
    { "include-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &include_files,
      N_("stats: --include for every expression in FILE, one per line"), N_("FILE") },
    { "exclude-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &exclude_files,
      N_("stats: --exclude for every expression in FILE, one per line"), N_("FILE") },
    { "tick-rate", 0, 0, G_OPTION_ARG_STRING, &tick_rate,
      N_("Timer ticks per second to use instead of the log’s RESOLUTION (calltree: of a report in ticks)"), N_("HZ") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread,
      N_("calltree: only the thread with this id"), N_("ID") },
    { "group-addresses", 0, 0, G_OPTION_ARG_NONE, &options.group_addresses,
      N_("calltree: one function per module for the addresses without a function name"), NULL },
    { "basis", 0, 0, G_OPTION_ARG_STRING, &basis,
      N_("calltree: percentages over s1 (elapsed and application totals, the default) or view (the elapsed total)"), N_("s1|view") },
    { "depth", 0, 0, G_OPTION_ARG_STRING, &depth,
      N_("calltree, export --to csv --tree: the tree N levels deep; export --to pmcstat-callgraph: N frames (16)"), N_("N") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &export_target,
      N_("export: the format to write (csv, collapsed, pmcstat-callgraph, speedscope, chrome-trace, markdown, html); diff: csv or markdown"), N_("TARGET") },
    { "tree", 0, 0, G_OPTION_ARG_NONE, &options.export_tree,
      N_("export --to csv: the top-down call tree instead of the function summary"), NULL },
    { "points", 0, 0, G_OPTION_ARG_NONE, &options.export_points,
      N_("export --to csv: every counter reading instead of one row of statistics per counter"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &export_output,
      N_("export, diff --to, summarize: write to FILE instead of the standard output; record: save the run to FILE"), N_("FILE") },
    { "source", 0, 0, G_OPTION_ARG_STRING, &export_source,
      N_("export: only the samples of this sample source (a PMC event)"), N_("NAME") },
    { "max-events", 0, 0, G_OPTION_ARG_STRING, &max_events,
      N_("Stop reading a file at the end of the line in which N events (measurements, spans, marks, samples, "
         "counter readings) were kept; what was read is kept and the exit status is 3"), N_("N") },
    { "encoding", 0, 0, G_OPTION_ARG_STRING, &encoding,
      N_("PDH counter logs: read text that is not UTF-8 in this code page (WINDOWS-1251, CP936, …) instead of the one guessed"), N_("NAME") },
    { "utc-offset", 0, 0, G_OPTION_ARG_STRING, &utc_offset,
      N_("PDH counter logs: the recording machine’s offset from UTC (+03:00, -5), for a header without a time zone or with one cut off"), N_("OFFSET") },
    { "sysroot", 0, 0, G_OPTION_ARG_FILENAME, &sysroot,
      N_("hwpmc logs: name functions from the ELF files under DIR, a copy of the FreeBSD machine’s / (kernel, libraries, /usr/lib/debug)"), N_("DIR") },
    { "address-width", 0, 0, G_OPTION_ARG_STRING, &address_width,
      N_("hwpmc logs: code addresses are 4 or 8 bytes wide, instead of what the log suggests"), N_("BYTES") },
    { "rename", 0, 0, G_OPTION_ARG_STRING_ARRAY, &renames,
      N_("diff: match the row A_NAME of the first run with B_NAME of the second (repeatable)"), N_("A_NAME=B_NAME") },
    { "min-change", 0, 0, G_OPTION_ARG_STRING, &min_change,
      N_("diff: the least change of a row with one value per run, in percent of A’s value (10); "
         "trend: the least change of a change point, in percent of the value before it (5)"), N_("PERCENT") },
    { "noise-floor", 0, 0, G_OPTION_ARG_STRING, &noise_floor,
      N_("diff: a row with one value per run changes by at least this percentage of the largest value of its kind and unit, else it is noise (1)"), N_("PERCENT") },
    { "by", 0, 0, G_OPTION_ARG_STRING, &trend_by,
      N_("trend: put the runs in order of their time (the default), of the version and build they measured, or of file name"), N_("time|version|name") },
    { "value", 0, 0, G_OPTION_ARG_STRING, &trend_value,
      N_("trend: each run’s value of a row: its median (the default), p95 or total"), N_("median|p95|total") },
    { "fail-on-regression", 0, 0, G_OPTION_ARG_STRING, &fail_on_regression,
      N_("trend: exit with status 4 when the newest run is after a rise of at least PERCENT in a row where lower is better"), N_("PERCENT") },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend,
      N_("record: the collector to record with (procfs; hwpmc on FreeBSD, perflib on Windows)"), N_("NAME") },
    { "pid", 0, 0, G_OPTION_ARG_STRING, &pid,
      N_("record: the process to watch, with the processes it starts"), N_("PID") },
    { "command", 0, 0, G_OPTION_ARG_STRING, &record_command,
      N_("record: launch this command and watch it and the processes it starts; the recording ends when they have exited"), N_("COMMAND") },
    { "no-children", 0, 0, G_OPTION_ARG_NONE, &no_children,
      N_("record: the process alone, not the processes it starts"), NULL },
    { "interval-ms", 0, 0, G_OPTION_ARG_STRING, &interval_ms,
      N_("record: milliseconds between readings, kept on average (100)"), N_("MS") },
    { "duration", 0, 0, G_OPTION_ARG_STRING, &duration,
      N_("record: seconds to record (default: until interrupted)"), N_("SECONDS") },
    { "help", 'h', 0, G_OPTION_ARG_NONE, &show_help,
      N_("Show this help"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &show_version,
      N_("Show the version"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &arguments,
      NULL, N_("COMMAND [FILE…]") },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, ps_util_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname (PS_CLI_PROGRAM);

  /* A command of the contract that is not here yet has options this
   * version does not know; say so before they are called unknown. */
  command = find_command (argc, argv);
  if (command != NULL && g_strv_contains (later_commands, command))
    {
      ps_cli_print_error (_("The command “%s” is not available yet in this version"), command);
      ps_cli_print_usage_hint ();
      return PS_CLI_EXIT_USAGE;
    }

  summary = help_summary ();
  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Inspect performance logs without a display."));
  g_option_context_set_description (context, summary);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ps_cli_usage_error ("%s", error->message);

  if (show_help)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

      fputs (help, stdout);
      return PS_CLI_EXIT_OK;
    }

  if (show_version)
    {
      printf ("%s %s\n", PS_CLI_PROGRAM, PACKAGE_VERSION);
      return PS_CLI_EXIT_OK;
    }

  n_arguments = arguments != NULL ? g_strv_length (arguments) : 0;
  if (n_arguments == 0)
    return ps_cli_usage_error (_("No command given"));
  command = arguments[0];

  if (json && options.text)
    return ps_cli_usage_error (_("--json and --text cannot be used together"));

  if (format_name != NULL)
    {
      options.format = ps_format_lookup (format_name);
      if (options.format == NULL)
        {
          g_autofree char *known = format_names ();

          /* Translators: the second %s is a list of format names */
          return ps_cli_usage_error (_("Unknown format “%s”; known formats: %s"), format_name, known);
        }
    }

  if (tick_rate != NULL && !parse_tick_rate (tick_rate, &options.tick_rate))
    return ps_cli_usage_error (_("--tick-rate needs a positive number of ticks per second, not “%s”"), tick_rate);

  options.thread = -1;
  if (thread != NULL || basis != NULL || depth != NULL)
    {
      guint64 number;

      if (strcmp (command, "calltree") != 0
          && !(strcmp (command, "export") == 0 && thread == NULL))
        return ps_cli_usage_error (_("--thread applies to the calltree command only, --basis and --depth to calltree and export"));
      if (thread != NULL)
        {
          if (!g_ascii_string_to_unsigned (thread, 10, 0, G_MAXINT64, &number, NULL))
            return ps_cli_usage_error (_("--thread needs a thread id, not “%s”"), thread);
          options.thread = (gint64)number;
        }
      if (basis != NULL && !ps_call_basis_from_string (basis, &options.basis))
        return ps_cli_usage_error (_("--basis is s1 or view, not “%s”"), basis);
      if (depth != NULL)
        {
          if (!g_ascii_string_to_unsigned (depth, 10, 1, G_MAXUINT, &number, NULL))
            return ps_cli_usage_error (_("--depth needs a positive number of levels, not “%s”"), depth);
          options.depth = (guint)number;
        }
    }

  if (max_events != NULL)
    {
      guint64 number;

      if (!g_ascii_string_to_unsigned (max_events, 10, 1, G_MAXUINT64, &number, NULL))
        return ps_cli_usage_error (_("--max-events needs a positive number of events, not “%s”"), max_events);
      options.max_events = max_events;
    }
  if (encoding != NULL)
    {
      if (!is_known_encoding (encoding))
        return ps_cli_usage_error (_("--encoding needs the name of a code page that writes ASCII as ASCII "
                                     "(WINDOWS-1251, WINDOWS-1252, CP936, ISO-8859-5, …), not “%s”"), encoding);
      options.encoding = encoding;
    }
  if (utc_offset != NULL)
    {
      gint64 minutes;

      if (!parse_utc_offset (utc_offset, &minutes))
        return ps_cli_usage_error (_("--utc-offset needs an offset from UTC such as +03:00 or -5, not “%s”"), utc_offset);
      utc_offset_minutes = g_strdup_printf ("%" G_GINT64_FORMAT, minutes);
      options.utc_offset = utc_offset_minutes;
    }
  if (sysroot != NULL)
    {
      if (!g_file_test (sysroot, G_FILE_TEST_IS_DIR))
        return ps_cli_usage_error (_("--sysroot needs a folder, and “%s” is not one"), sysroot);
      options.sysroot = sysroot;
    }
  if (address_width != NULL)
    {
      if (strcmp (address_width, "4") != 0 && strcmp (address_width, "8") != 0)
        return ps_cli_usage_error (_("--address-width is 4 or 8, not “%s”"), address_width);
      options.address_width = address_width;
    }

  /* record takes -o too (cli.md) */
  if (export_output != NULL && strcmp (command, "export") != 0 && strcmp (command, "record") != 0
      && strcmp (command, "summarize") != 0 && !(strcmp (command, "diff") == 0 && export_target != NULL))
    return ps_cli_usage_error (_("-o applies to export, record, summarize and diff --to only"));
  if (export_target != NULL && strcmp (command, "export") != 0 && strcmp (command, "diff") != 0)
    return ps_cli_usage_error (_("--to applies to the export and diff commands only"));
  if (export_source != NULL && strcmp (command, "export") != 0)
    return ps_cli_usage_error (_("--source applies to the export command only"));
  options.export_target = export_target;
  options.export_output = export_output;
  options.export_source = export_source;
  if ((options.export_tree || options.export_points) && strcmp (command, "export") != 0)
    return ps_cli_usage_error (_("--tree and --points apply to the export command only"));

  if (options.group_by_name && strcmp (command, "stats") != 0 && strcmp (command, "export") != 0)
    return ps_cli_usage_error (_("--group-by-name applies to the stats and export commands only"));
  if (options.per_thread && strcmp (command, "stats") != 0)
    return ps_cli_usage_error (_("--per-thread applies to the stats command only"));
  if (options.group_addresses && strcmp (command, "calltree") != 0)
    return ps_cli_usage_error (_("--group-addresses applies to the calltree command only"));

  if (includes != NULL || excludes != NULL || include_files != NULL || exclude_files != NULL)
    {
      if (strcmp (command, "stats") != 0 && strcmp (command, "calltree") != 0)
        return ps_cli_usage_error (_("--include and --exclude apply to the stats and calltree commands only"));

      scope_filter = ps_scope_filter_new ();
      for (guint i = 0; includes != NULL && includes[i] != NULL; i++)
        if (!ps_scope_filter_add (scope_filter, TRUE, includes[i], &error))
          return ps_cli_usage_error (_("Bad --include expression “%s”: %s"), includes[i], error->message);
      for (guint i = 0; excludes != NULL && excludes[i] != NULL; i++)
        if (!ps_scope_filter_add (scope_filter, FALSE, excludes[i], &error))
          return ps_cli_usage_error (_("Bad --exclude expression “%s”: %s"), excludes[i], error->message);
      for (guint i = 0; include_files != NULL && include_files[i] != NULL; i++)
        if (!ps_scope_filter_add_file (scope_filter, TRUE, include_files[i], &error))
          return ps_cli_usage_error (_("Bad --include-file: %s"), error->message);
      for (guint i = 0; exclude_files != NULL && exclude_files[i] != NULL; i++)
        if (!ps_scope_filter_add_file (scope_filter, FALSE, exclude_files[i], &error))
          return ps_cli_usage_error (_("Bad --exclude-file: %s"), error->message);
      options.scope_filter = scope_filter;
    }

  if (renames != NULL)
    {
      if (strcmp (command, "diff") != 0)
        return ps_cli_usage_error (_("--rename applies to the diff command only"));

      rename_map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint i = 0; renames[i] != NULL; i++)
        {
          const char *equals = strchr (renames[i], '=');

          if (equals == NULL || equals == renames[i] || equals[1] == '\0')
            return ps_cli_usage_error (_("--rename needs A_NAME=B_NAME, not “%s”"), renames[i]);
          g_hash_table_insert (rename_map, g_strndup (renames[i], equals - renames[i]), g_strdup (equals + 1));
        }
      options.renames = rename_map;
    }

  options.min_change = options.noise_fraction = NAN;
  if (min_change != NULL || noise_floor != NULL)
    {
      if (noise_floor != NULL && strcmp (command, "diff") != 0)
        return ps_cli_usage_error (_("--noise-floor applies to the diff command only"));
      if (strcmp (command, "diff") != 0 && strcmp (command, "trend") != 0)
        return ps_cli_usage_error (_("--min-change applies to the diff and trend commands only"));
      if (min_change != NULL && !parse_percent (min_change, G_MAXDOUBLE, &options.min_change))
        return ps_cli_usage_error (_("--min-change needs a percentage of 0 or more, not “%s”"), min_change);
      if (noise_floor != NULL && !parse_percent (noise_floor, 100, &options.noise_fraction))
        return ps_cli_usage_error (_("--noise-floor needs a percentage from 0 to 100, not “%s”"), noise_floor);
    }

  options.fail_on_regression = NAN;
  if (trend_by != NULL || trend_value != NULL || fail_on_regression != NULL)
    {
      if (strcmp (command, "trend") != 0)
        return ps_cli_usage_error (_("--by, --value and --fail-on-regression apply to the trend command only"));
      if (trend_by != NULL && !ps_trend_order_from_string (trend_by, &options.trend_order))
        return ps_cli_usage_error (_("--by is time, version or name, not “%s”"), trend_by);
      if (trend_value != NULL && !ps_trend_value_from_string (trend_value, &options.trend_value))
        return ps_cli_usage_error (_("--value is median, p95 or total, not “%s”"), trend_value);
      if (fail_on_regression != NULL
          && !parse_percent (fail_on_regression, G_MAXDOUBLE, &options.fail_on_regression))
        return ps_cli_usage_error (_("--fail-on-regression needs a percentage of 0 or more, not “%s”"), fail_on_regression);
    }

  if (backend != NULL || pid != NULL || record_command != NULL || interval_ms != NULL || duration != NULL || no_children)
    {
      if (strcmp (command, "record") != 0)
        return ps_cli_usage_error (_("--backend, --pid, --command, --no-children, --interval-ms and --duration apply to the record command only"));
      if (duration != NULL && !parse_tick_rate (duration, &options.duration))
        return ps_cli_usage_error (_("--duration needs a positive number of seconds, not “%s”"), duration);
      options.backend = backend;
      options.pid = pid;
      options.command = record_command;
      options.interval_ms = interval_ms;
      options.no_children = no_children;
    }

  /* The standard input can be read once */
  {
    guint n_stdin = 0;

    for (guint i = 1; i < n_arguments; i++)
      n_stdin += strcmp (arguments[i], "-") == 0;
    if (n_stdin > 1)
      return ps_cli_usage_error (_("Only one FILE can be “-”, the standard input"));
  }

  if (strcmp (command, "record") == 0)
    {
      if (n_arguments != 1)
        return ps_cli_usage_error (_("record takes no FILE"));
      return ps_cli_record (&options);
    }

  if (strcmp (command, "info") == 0)
    {
      if (n_arguments < 2)
        return ps_cli_usage_error (_("info needs at least one FILE"));
      return ps_cli_info (&options, arguments + 1);
    }

  if (strcmp (command, "stats") == 0)
    {
      if (n_arguments != 2)
        return ps_cli_usage_error (_("stats needs exactly one FILE"));
      return ps_cli_stats (&options, arguments[1]);
    }

  if (strcmp (command, "calltree") == 0)
    {
      if (n_arguments != 2)
        return ps_cli_usage_error (_("calltree needs exactly one FILE"));
      return ps_cli_calltree (&options, arguments[1]);
    }

  if (strcmp (command, "counters") == 0)
    {
      if (n_arguments != 2)
        return ps_cli_usage_error (_("counters needs exactly one FILE"));
      return ps_cli_counters (&options, arguments[1]);
    }

  if (strcmp (command, "diff") == 0)
    {
      if (n_arguments != 3)
        return ps_cli_usage_error (_("diff needs exactly two FILEs"));
      return ps_cli_diff (&options, arguments[1], arguments[2]);
    }

  if (strcmp (command, "export") == 0)
    {
      if (n_arguments != 2)
        return ps_cli_usage_error (_("export needs exactly one FILE"));
      return ps_cli_export (&options, arguments[1]);
    }

  if (strcmp (command, "summarize") == 0)
    {
      if (n_arguments != 2)
        return ps_cli_usage_error (_("summarize needs exactly one FILE"));
      return ps_cli_summarize (&options, arguments[1]);
    }

  if (strcmp (command, "trend") == 0)
    {
      if (n_arguments < 2)
        return ps_cli_usage_error (_("trend needs at least one FILE or folder"));
      return ps_cli_trend (&options, arguments + 1);
    }

  if (strcmp (command, "formats") == 0)
    {
      if (n_arguments != 1)
        return ps_cli_usage_error (_("formats takes no FILE"));
      return ps_cli_formats (&options);
    }

  return ps_cli_usage_error (_("Unknown command “%s”"), command);
}

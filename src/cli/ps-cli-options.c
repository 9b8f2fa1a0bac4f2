/* ps-cli-options.c — the options several commands of perfscope-cli take
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md (Options). Each option is defined once here and listed by
 * the commands that take it; an option of one command lives in that
 * command's file. A value is checked where it is parsed, so that a bad
 * one is a usage error that names the option before any file is read.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ps-cli.h"

void
ps_cli_set_usage_error (GError    **error,
                        const char *format,
                        ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, format, args));
  va_end (args);
}

void
ps_cli_set_string (char      **field,
                   const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

gboolean
ps_cli_parse_positive (const char *text,
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

gboolean
ps_cli_parse_percent (const char *text,
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

void
ps_cli_options_clear (PsCliOptions *options)
{
  g_clear_pointer (&options->scope_filter, ps_scope_filter_free);
  g_clear_pointer (&options->renames, g_hash_table_unref);
  g_clear_pointer (&options->export_target, g_free);
  g_clear_pointer (&options->export_output, g_free);
  g_clear_pointer (&options->export_source, g_free);
  g_clear_pointer (&options->sysroot, g_free);
  g_clear_pointer (&options->max_events, g_free);
  g_clear_pointer (&options->address_width, g_free);
  g_clear_pointer (&options->encoding, g_free);
  g_clear_pointer (&options->utc_offset, g_free);
  g_clear_pointer (&options->backend, g_free);
  g_clear_pointer (&options->pid, g_free);
  g_clear_pointer (&options->command, g_free);
  g_clear_pointer (&options->interval_ms, g_free);
}

/* Reading files ----------------------------------------------------------- */

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

static gboolean
parse_format (PsCliOptions *options,
              const char   *value,
              GError      **error)
{
  options->format = ps_format_lookup (value);
  if (options->format == NULL)
    {
      g_autofree char *known = format_names ();

      /* Translators: the second %s is a list of format names */
      ps_cli_set_usage_error (error, _("Unknown format “%s”; known formats: %s"), value, known);
      return FALSE;
    }
  return TRUE;
}

const PsCliOption ps_cli_option_format = {
  .long_name = "format", .value_name = N_("NAME"), .parse = parse_format,
  .description = N_("Read the files as format NAME instead of detecting it"),
};

const PsCliOption ps_cli_option_quiet = {
  .long_name = "quiet", .short_name = 'q', .offset = G_STRUCT_OFFSET (PsCliOptions, quiet),
  .description = N_("Do not show the progress line on a terminal"),
};

static gboolean
parse_tick_rate (PsCliOptions *options,
                 const char   *value,
                 GError      **error)
{
  if (!ps_cli_parse_positive (value, &options->tick_rate))
    {
      ps_cli_set_usage_error (error, _("--tick-rate needs a positive number of ticks per second, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

const PsCliOption ps_cli_option_tick_rate = {
  .long_name = "tick-rate", .value_name = N_("HZ"), .parse = parse_tick_rate,
  .description = N_("Timer ticks per second to use instead of the log’s RESOLUTION (calltree: of a report in ticks)"),
};

static gboolean
parse_max_events (PsCliOptions *options,
                  const char   *value,
                  GError      **error)
{
  guint64 number;

  if (!g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT64, &number, NULL))
    {
      ps_cli_set_usage_error (error, _("--max-events needs a positive number of events, not “%s”"), value);
      return FALSE;
    }
  ps_cli_set_string (&options->max_events, value);
  return TRUE;
}

const PsCliOption ps_cli_option_max_events = {
  .long_name = "max-events", .value_name = N_("N"), .parse = parse_max_events,
  .description = N_("Stop reading a file at the end of the line in which N events (measurements, spans, marks, "
                    "samples, counter readings) were kept; what was read is kept and the exit status is 3"),
};

/* A code page that g_iconv knows and that writes ASCII as ASCII, as the
 * line ends and separators of a text log need */
static gboolean
is_known_encoding (const char *name)
{
  static const char ascii[] = "\"(PDH-CSV 4.0)\",\"\\\\H\\x\"\t09:59:59.5\r\n";
  g_autofree char *converted = g_convert (ascii, -1, "UTF-8", name, NULL, NULL, NULL);

  return converted != NULL && strcmp (converted, ascii) == 0;
}

static gboolean
parse_encoding (PsCliOptions *options,
                const char   *value,
                GError      **error)
{
  if (!is_known_encoding (value))
    {
      ps_cli_set_usage_error (error, _("--encoding needs the name of a code page that writes ASCII as ASCII "
                                       "(WINDOWS-1251, WINDOWS-1252, CP936, ISO-8859-5, …), not “%s”"), value);
      return FALSE;
    }
  ps_cli_set_string (&options->encoding, value);
  return TRUE;
}

const PsCliOption ps_cli_option_encoding = {
  .long_name = "encoding", .value_name = N_("NAME"), .parse = parse_encoding,
  .description = N_("PDH counter logs: read text that is not UTF-8 in this code page (WINDOWS-1251, CP936, …) "
                    "instead of the one guessed"),
};

/* "+03:00", "-5", "+0530", "0" or "Z": minutes east of UTC */
static gboolean
parse_utc_offset_minutes (const char *text,
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

static gboolean
parse_utc_offset (PsCliOptions *options,
                  const char   *value,
                  GError      **error)
{
  gint64 minutes;

  if (!parse_utc_offset_minutes (value, &minutes))
    {
      ps_cli_set_usage_error (error, _("--utc-offset needs an offset from UTC such as +03:00 or -5, not “%s”"), value);
      return FALSE;
    }
  g_free (options->utc_offset);
  options->utc_offset = g_strdup_printf ("%" G_GINT64_FORMAT, minutes);
  return TRUE;
}

const PsCliOption ps_cli_option_utc_offset = {
  .long_name = "utc-offset", .value_name = N_("OFFSET"), .parse = parse_utc_offset,
  .description = N_("PDH counter logs: the recording machine’s offset from UTC (+03:00, -5), for a header "
                    "without a time zone or with one cut off"),
};

static gboolean
parse_sysroot (PsCliOptions *options,
               const char   *value,
               GError      **error)
{
  if (!g_file_test (value, G_FILE_TEST_IS_DIR))
    {
      ps_cli_set_usage_error (error, _("--sysroot needs a folder, and “%s” is not one"), value);
      return FALSE;
    }
  ps_cli_set_string (&options->sysroot, value);
  return TRUE;
}

const PsCliOption ps_cli_option_sysroot = {
  .long_name = "sysroot", .value_name = N_("DIR"), .filename = TRUE, .parse = parse_sysroot,
  .description = N_("hwpmc logs: name functions from the ELF files under DIR, a copy of the FreeBSD machine’s / "
                    "(kernel, libraries, /usr/lib/debug)"),
};

static gboolean
parse_address_width (PsCliOptions *options,
                     const char   *value,
                     GError      **error)
{
  if (strcmp (value, "4") != 0 && strcmp (value, "8") != 0)
    {
      ps_cli_set_usage_error (error, _("--address-width is 4 or 8, not “%s”"), value);
      return FALSE;
    }
  ps_cli_set_string (&options->address_width, value);
  return TRUE;
}

const PsCliOption ps_cli_option_address_width = {
  .long_name = "address-width", .value_name = N_("BYTES"), .parse = parse_address_width,
  .description = N_("hwpmc logs: code addresses are 4 or 8 bytes wide, instead of what the log suggests"),
};

/* Printing ---------------------------------------------------------------- */

/* Both flags are kept, so that the pair is refused whichever came first */
const PsCliOption ps_cli_option_json = {
  .long_name = "json", .offset = G_STRUCT_OFFSET (PsCliOptions, json),
  .description = N_("Print JSON (the default)"),
};

const PsCliOption ps_cli_option_text = {
  .long_name = "text", .offset = G_STRUCT_OFFSET (PsCliOptions, text),
  .description = N_("Print aligned tables for people"),
};

const PsCliOption ps_cli_option_output = {
  .long_name = "output", .short_name = 'o', .value_name = N_("FILE"), .filename = TRUE,
  .offset = G_STRUCT_OFFSET (PsCliOptions, export_output),
  .description = N_("export, diff --to, summarize: write to FILE instead of the standard output; record: save the run to FILE"),
};

/* The scopes a command looks at -------------------------------------------- */

static PsScopeFilter *
scope_filter (PsCliOptions *options)
{
  if (options->scope_filter == NULL)
    options->scope_filter = ps_scope_filter_new ();
  return options->scope_filter;
}

/* An --include or --exclude expression, or (from_file) a file of them;
 * the message says which option was bad */
static gboolean
add_scope_expressions (PsCliOptions *options,
                       gboolean      include,
                       gboolean      from_file,
                       const char   *value,
                       GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  PsScopeFilter *filter = scope_filter (options);

  if (from_file ? ps_scope_filter_add_file (filter, include, value, &local_error)
                : ps_scope_filter_add (filter, include, value, &local_error))
    return TRUE;

  if (from_file)
    ps_cli_set_usage_error (error, include ? _("Bad --include-file: %s") : _("Bad --exclude-file: %s"),
                            local_error->message);
  else
    ps_cli_set_usage_error (error, include ? _("Bad --include expression “%s”: %s")
                                           : _("Bad --exclude expression “%s”: %s"),
                            value, local_error->message);
  return FALSE;
}

static gboolean
parse_include (PsCliOptions *options,
               const char   *value,
               GError      **error)
{
  return add_scope_expressions (options, TRUE, FALSE, value, error);
}

static gboolean
parse_exclude (PsCliOptions *options,
               const char   *value,
               GError      **error)
{
  return add_scope_expressions (options, FALSE, FALSE, value, error);
}

static gboolean
parse_include_file (PsCliOptions *options,
                    const char   *value,
                    GError      **error)
{
  return add_scope_expressions (options, TRUE, TRUE, value, error);
}

static gboolean
parse_exclude_file (PsCliOptions *options,
                    const char   *value,
                    GError      **error)
{
  return add_scope_expressions (options, FALSE, TRUE, value, error);
}

const PsCliOption ps_cli_option_include = {
  .long_name = "include", .value_name = N_("REGEX"), .parse = parse_include,
  .description = N_("stats: only scopes whose begin record matches REGEX (repeatable)"),
};

const PsCliOption ps_cli_option_exclude = {
  .long_name = "exclude", .value_name = N_("REGEX"), .parse = parse_exclude,
  .description = N_("stats: leave out scopes whose begin record matches REGEX (repeatable)"),
};

const PsCliOption ps_cli_option_include_file = {
  .long_name = "include-file", .value_name = N_("FILE"), .filename = TRUE, .parse = parse_include_file,
  .description = N_("stats: --include for every expression in FILE, one per line"),
};

const PsCliOption ps_cli_option_exclude_file = {
  .long_name = "exclude-file", .value_name = N_("FILE"), .filename = TRUE, .parse = parse_exclude_file,
  .description = N_("stats: --exclude for every expression in FILE, one per line"),
};

/* The call tree ------------------------------------------------------------ */

static gboolean
parse_basis (PsCliOptions *options,
             const char   *value,
             GError      **error)
{
  if (!ps_call_basis_from_string (value, &options->basis))
    {
      ps_cli_set_usage_error (error, _("--basis is s1 or view, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

const PsCliOption ps_cli_option_basis = {
  .long_name = "basis", .value_name = N_("s1|view"), .parse = parse_basis,
  .description = N_("calltree: percentages over s1 (elapsed and application totals, the default) or view (the elapsed total)"),
};

static gboolean
parse_depth (PsCliOptions *options,
             const char   *value,
             GError      **error)
{
  guint64 number;

  if (!g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT, &number, NULL))
    {
      ps_cli_set_usage_error (error, _("--depth needs a positive number of levels, not “%s”"), value);
      return FALSE;
    }
  options->depth = (guint) number;
  return TRUE;
}

const PsCliOption ps_cli_option_depth = {
  .long_name = "depth", .value_name = N_("N"), .parse = parse_depth,
  .description = N_("calltree, export --to csv --tree: the tree N levels deep; export --to pmcstat-callgraph: N frames (16)"),
};

const PsCliOption ps_cli_option_group_by_name = {
  .long_name = "group-by-name", .offset = G_STRUCT_OFFSET (PsCliOptions, group_by_name),
  .description = N_("stats: merge the instances of one description within a session; export --to csv: a row per CE description with its keys as columns, as PerfToCsv"),
};

/* Comparisons ------------------------------------------------------------- */

static gboolean
parse_min_change (PsCliOptions *options,
                  const char   *value,
                  GError      **error)
{
  if (!ps_cli_parse_percent (value, G_MAXDOUBLE, &options->min_change))
    {
      ps_cli_set_usage_error (error, _("--min-change needs a percentage of 0 or more, not “%s”"), value);
      return FALSE;
    }
  return TRUE;
}

const PsCliOption ps_cli_option_min_change = {
  .long_name = "min-change", .value_name = N_("PERCENT"), .parse = parse_min_change,
  .description = N_("diff: the least change of a row with one value per run, in percent of A’s value (10); "
                    "trend: the least change of a change point, in percent of the value before it (5)"),
};

/* The file written --------------------------------------------------------- */

/* Each command checks the targets it writes */
const PsCliOption ps_cli_option_to = {
  .long_name = "to", .value_name = N_("TARGET"), .offset = G_STRUCT_OFFSET (PsCliOptions, export_target),
  .description = N_("export: the format to write (csv, collapsed, pmcstat-callgraph, speedscope, chrome-trace, markdown, html); diff: csv or markdown"),
};

/* ps-cli.h — shared pieces of perfscope-cli
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md (commands, exit codes, JSON field names)
 */
#pragma once

#include <stdio.h>

#include <json-glib/json-glib.h>

#include "ps-event-store.h"
#include "ps-format.h"
#include "ps-scopes.h"
#include "ps-call-tree.h"
#include "ps-export-writer.h"
#include "ps-series.h"
#include "ps-trend.h"

G_BEGIN_DECLS

#define PS_CLI_PROGRAM "perfscope-cli"

/* Indentation (JSON and the --text call tree) stops growing at this
 * depth, so that the output of a deep tree grows with its nodes, not with
 * the square of its depth (docs/cli.md) */
#define PS_CLI_MAX_INDENT_LEVEL 32

/* Exit codes of the contract (cli.md) */
typedef enum
{
  PS_CLI_EXIT_OK         = 0,  /* success, warnings allowed */
  PS_CLI_EXIT_UNREADABLE = 1,  /* missing, unreadable or not a known format */
  PS_CLI_EXIT_USAGE      = 2,  /* bad usage */
  PS_CLI_EXIT_PARTIAL    = 3,  /* the file was read only in part */
  PS_CLI_EXIT_REGRESSION = 4,  /* trend: the newest run is after a regression (--fail-on-regression) */
} PsCliExit;

/* The options of a run of the program, each checked and typed as its
 * PsCliOption parsed it; the strings are owned (ps_cli_options_clear ()) */
typedef struct
{
  const PsFormat *format;            /* forced with --format, or NULL to sniff */
  gboolean        json;              /* --json, the default */
  gboolean        text;              /* --text instead of JSON */
  gboolean        quiet;             /* no progress line */
  gboolean        group_by_name;     /* stats: merge instances by description */
  gboolean        include_negative;  /* stats: negative durations count */
  double          tick_rate;         /* --tick-rate override, 0 if none */
  gboolean        per_thread;        /* stats: span series per thread */
  PsScopeFilter  *scope_filter;      /* stats, calltree: --include/--exclude, or NULL */
  gint64          thread;            /* calltree: --thread, or -1 for all */
  PsCallBasis     basis;             /* calltree: --basis */
  guint           depth;             /* calltree: --depth, 0 for no limit */
  gboolean        group_addresses;   /* calltree: --group-addresses */
  char           *export_target;     /* export: --to, or NULL */
  char           *export_output;     /* export: -o, or NULL for stdout */
  char           *export_source;     /* export: --source (a sample source), or NULL */
  gboolean        export_tree;       /* export --to csv: --tree, the top-down call tree */
  gboolean        export_points;     /* export --to csv: --points, every counter reading */
  gboolean        counter_changes;   /* counters: --changes, where each counter's level changed */
  char           *sysroot;           /* --sysroot (hwpmc symbols), or NULL */
  char           *max_events;        /* --max-events, a checked decimal, or NULL */
  char           *address_width;     /* --address-width "4" or "8", or NULL */
  char           *encoding;          /* --encoding, a checked code page name, or NULL */
  char           *utc_offset;        /* --utc-offset in minutes east of UTC, a decimal, or NULL */
  GHashTable     *renames;           /* diff: --rename A name → B name, or NULL */
  double          min_change;        /* diff: --min-change as a fraction, NaN for the default */
  double          noise_fraction;    /* diff: --noise-floor as a fraction, NaN for the default */
  gint64          session_a;         /* diff: --session-a (0-based), −1 for the whole file */
  gint64          session_b;         /* diff: --session-b */
  char           *backend;           /* record: --backend, or NULL for procfs */
  char           *pid;               /* record: --pid, or NULL */
  char           *command;           /* record: --command, or NULL */
  char           *interval_ms;       /* record: --interval-ms, or NULL for the backend's default */
  gboolean        no_children;       /* record: --no-children, the process alone */
  double          duration;          /* record: --duration in seconds, 0 until interrupted */
  PsTrendOrder    trend_order;       /* trend: --by */
  PsTrendValue    trend_value;       /* trend: --value */
  double          fail_on_regression; /* trend: --fail-on-regression as a fraction, NaN if none */
  gboolean        help;              /* -h, --help: the help of the command, or of the program */
  gboolean        version;           /* --version */
} PsCliOptions;

/* Checks the value of an option and keeps it in options, typed; on a bad
 * value, error names the option and says what it needs */
typedef gboolean (*PsCliParseFunc)   (PsCliOptions       *options,
                                      const char         *value,
                                      GError            **error);

/* One option, which one command or several take (a command lists it in
 * its options): a flag sets the gboolean at offset in PsCliOptions; an
 * option with a value (value_name) has parse check and keep it, or
 * without parse is kept as it is in the char * at offset */
typedef struct
{
  const char     *long_name;
  char            short_name;
  const char     *value_name;        /* N_("NAME") in the help, or NULL for a flag */
  gboolean        filename;          /* the value is a file name, in the file system's encoding */
  gsize           offset;            /* G_STRUCT_OFFSET (PsCliOptions, field), without parse */
  PsCliParseFunc  parse;             /* an option with a value that is checked */
  const char     *description;       /* N_(), for the help */
} PsCliOption;

/* One command: what it is called, the FILEs and options it takes, and
 * the function that runs it (the files NULL-terminated, without the
 * command's name). The help and every "applies to" check come from
 * these (ps-cli-command.c). */
typedef struct
{
  const char                 *name;
  const char                 *files;        /* "FILE", the FILEs in the help, or NULL */
  const char                 *summary;      /* N_(), one line of the help */
  const char                 *files_error;  /* N_(), said when the number of FILEs is wrong */
  guint                       min_files;
  guint                       max_files;    /* G_MAXUINT for no limit */
  const PsCliOption * const  *options;      /* NULL-terminated; --help and --version come on top */
  int                       (*run)          (const PsCliOptions *options,
                                             char              **files);
} PsCliCommand;

/* ps-cli-command.c: parses the command line for one of the commands
 * (NULL-terminated) and runs it; the exit status */
int           ps_cli_command_main    (const PsCliCommand * const *commands,
                                      int                 argc,
                                      char              **argv);
void          ps_cli_options_clear   (PsCliOptions       *options);

/* ps-cli-options.c: the options several commands take, defined once */
extern const PsCliOption ps_cli_option_format;
extern const PsCliOption ps_cli_option_quiet;
extern const PsCliOption ps_cli_option_tick_rate;
extern const PsCliOption ps_cli_option_max_events;
extern const PsCliOption ps_cli_option_encoding;
extern const PsCliOption ps_cli_option_utc_offset;
extern const PsCliOption ps_cli_option_sysroot;
extern const PsCliOption ps_cli_option_address_width;
extern const PsCliOption ps_cli_option_json;
extern const PsCliOption ps_cli_option_text;
extern const PsCliOption ps_cli_option_output;
extern const PsCliOption ps_cli_option_include;
extern const PsCliOption ps_cli_option_exclude;
extern const PsCliOption ps_cli_option_include_file;
extern const PsCliOption ps_cli_option_exclude_file;
extern const PsCliOption ps_cli_option_basis;
extern const PsCliOption ps_cli_option_depth;
extern const PsCliOption ps_cli_option_group_by_name;
extern const PsCliOption ps_cli_option_min_change;
extern const PsCliOption ps_cli_option_to;

/* The options of every command that reads files */
#define PS_CLI_READ_OPTIONS \
  &ps_cli_option_format, &ps_cli_option_quiet, &ps_cli_option_tick_rate, &ps_cli_option_max_events, \
  &ps_cli_option_encoding, &ps_cli_option_utc_offset, &ps_cli_option_sysroot, &ps_cli_option_address_width
/* The options of every command that prints JSON or, with --text, tables */
#define PS_CLI_PRINT_OPTIONS \
  &ps_cli_option_json, &ps_cli_option_text
/* --include, --exclude and their files: the scopes a command looks at */
#define PS_CLI_SCOPE_FILTER_OPTIONS \
  &ps_cli_option_include, &ps_cli_option_exclude, &ps_cli_option_include_file, &ps_cli_option_exclude_file

/* Value checks that commands share: a positive number (as --tick-rate);
 * a percentage of 0 or more, at most maximum, as a fraction */
gboolean      ps_cli_parse_positive  (const char         *text,
                                      double             *out);
gboolean      ps_cli_parse_percent   (const char         *text,
                                      double              maximum,
                                      double             *out);
/* Sets error as a usage error of the command line, with the message */
void          ps_cli_set_usage_error (GError            **error,
                                      const char         *format,
                                      ...) G_GNUC_PRINTF (2, 3);
/* Keeps value in *field, freeing what was there */
void          ps_cli_set_string      (char              **field,
                                      const char         *value);

/* ps-cli-load.c */
/* NULL, after naming the file on stderr, when it cannot be read */
PsEventStore *ps_cli_load            (const PsCliOptions *options,
                                      const char         *path);
/* The same for a command that needs only the totals per scope name of the
 * spans: formats that gather them while reading (RTL) keep no spans or
 * messages then (PS_FORMAT_OPTION_TOTALS_ONLY) */
PsEventStore *ps_cli_load_totals     (const PsCliOptions *options,
                                      const char         *path);
/* TRUE, after saying so on stderr, when the store was read only in part */
gboolean      ps_cli_report_partial  (PsEventStore       *store,
                                      const char         *path);
char         *ps_cli_display_basename (const char        *path);
void          ps_cli_print_error     (const char         *format,
                                      ...) G_GNUC_PRINTF (1, 2);
/* Tells on stderr to see --help, after a usage error */
void          ps_cli_print_usage_hint (void);
/* Prints the message and the usage hint; returns PS_CLI_EXIT_USAGE */
int           ps_cli_usage_error     (const char         *format,
                                      ...) G_GNUC_PRINTF (1, 2);
/* The members every command's object starts with: "file", "path" (when
 * with_path), "format", "complete" and, for a partial read, "error" */
void          ps_cli_add_run_members (JsonBuilder        *builder,
                                      PsEventStore       *store,
                                      const char         *path,
                                      gboolean            with_path);
/* The "format" a command names: "perfscope" for a saved run, whose
 * format of origin ("procfs", "ce-perflog") is then in *origin, else the
 * format read and NULL */
const char   *ps_cli_run_format      (PsEventStore       *store,
                                      const char        **origin);

/* ps-cli-json.c: pretty-printed JSON with doubles in their shortest
 * round-trip form (json-glib prints "%.17g") */
void          ps_cli_json_print      (JsonNode           *root);
/* Writes part of the output: append to out (at the indentation level of
 * the member's value) and call ps_cli_json_write_out () now and then */
typedef void (*PsCliJsonWriteFunc)   (GString            *out,
                                      const char         *member,
                                      guint               level,
                                      gpointer            user_data);
/* Like ps_cli_json_print (), with the values of the top-level members
 * named in the NULL-terminated `members` (present in root, e.g. as null)
 * written by func: for output too large to hold as JSON nodes */
void          ps_cli_json_print_spliced (JsonNode        *root,
                                      const char * const *members,
                                      PsCliJsonWriteFunc  func,
                                      gpointer            user_data);
/* Writes out to stdout and empties it once it holds threshold bytes */
void          ps_cli_json_write_out  (GString            *out,
                                      gsize               threshold);
void          ps_cli_json_append_indent (GString         *out,
                                      guint               level);
/* Pretty-printed JSON written piece by piece, laid out as
 * ps_cli_json_print () lays out a tree: for output of many small values,
 * which as JSON nodes would cost more than their text. Values in an
 * object take their member's name, values in an array NULL. */
#define PS_CLI_JSON_STREAM_MAX_DEPTH 64

typedef struct
{
  GString *out;
  guint    level;        /* the indentation level of the first value */
  guint    depth;        /* containers open */
  gboolean has_values[PS_CLI_JSON_STREAM_MAX_DEPTH];
  char     closing[PS_CLI_JSON_STREAM_MAX_DEPTH];
} PsCliJsonStream;

void          ps_cli_json_stream_init (PsCliJsonStream   *stream,
                                      GString            *out,
                                      guint               level);
void          ps_cli_json_stream_begin_object (PsCliJsonStream *stream,
                                      const char         *name);
void          ps_cli_json_stream_begin_array (PsCliJsonStream *stream,
                                      const char         *name);
/* Closes the innermost object or array */
void          ps_cli_json_stream_end (PsCliJsonStream    *stream);
void          ps_cli_json_stream_string (PsCliJsonStream *stream,
                                      const char         *name,
                                      const char         *value);
/* The value cut as ps_util_append_cut_name () cuts a name */
void          ps_cli_json_stream_cut_string (PsCliJsonStream *stream,
                                      const char         *name,
                                      const char         *value);
void          ps_cli_json_stream_int (PsCliJsonStream    *stream,
                                      const char         *name,
                                      gint64              value);
/* null when the value is not finite */
void          ps_cli_json_stream_double (PsCliJsonStream *stream,
                                      const char         *name,
                                      double              value);
void          ps_cli_json_stream_boolean (PsCliJsonStream *stream,
                                      const char         *name,
                                      gboolean            value);
void          ps_cli_json_stream_null (PsCliJsonStream   *stream,
                                      const char         *name);
/* A value whose JSON text the caller made (a number it formatted) */
void          ps_cli_json_stream_literal (PsCliJsonStream *stream,
                                      const char         *name,
                                      const char         *text,
                                      gsize               length);
/* Begins a value the stream has no call for (a pair of numbers on one
 * line): the caller appends its text to the string returned */
GString      *ps_cli_json_stream_raw (PsCliJsonStream    *stream,
                                      const char         *name);

/* ps_cli_add_run_members () for a stream (ps-cli-load.c) */
void          ps_cli_stream_run_members (PsCliJsonStream *stream,
                                      PsEventStore       *store,
                                      const char         *path,
                                      gboolean            with_path);

/* Writes one item of an array, as a value in it */
typedef void (*PsCliJsonItemFunc)    (PsCliJsonStream    *stream,
                                      gpointer            item,
                                      gpointer            user_data);
/* The items as a JSON array at level, for a PsCliJsonWriteFunc: each
 * written by func and the output written out every so often, so that
 * many items never wait as text */
void          ps_cli_json_stream_array (GString          *out,
                                      guint               level,
                                      GPtrArray          *items,
                                      PsCliJsonItemFunc   func,
                                      gpointer            user_data);
/* The same text, the items written by func on this thread (with
 * user_data) and on a second one (with worker_user_data) at once: func
 * must only read what the items share */
void          ps_cli_json_stream_array_parallel (GString *out,
                                      guint               level,
                                      GPtrArray          *items,
                                      PsCliJsonItemFunc   func,
                                      gpointer            user_data,
                                      gpointer            worker_user_data);

/* A "name": number member; null when the value is not finite */
void          ps_cli_json_add_double (JsonBuilder        *builder,
                                      const char         *name,
                                      double              value);
/* A "name": integer member */
void          ps_cli_json_add_int    (JsonBuilder        *builder,
                                      const char         *name,
                                      gint64              value);

/* ps-cli-export.c: writes text to -o FILE (replaced whole) or, without
 * -o or with "-", to the standard output; says what failed and returns
 * FALSE when it cannot */
gboolean      ps_cli_write_text      (const PsCliOptions *options,
                                      GString            *text);

/* ps-cli-table.c: aligned text tables */
typedef struct _PsCliTable PsCliTable;

PsCliTable   *ps_cli_table_new       (guint               n_columns);
void          ps_cli_table_free      (PsCliTable         *table);
/* alignment: one of 'l' or 'r' per column */
void          ps_cli_table_set_alignment (PsCliTable     *table,
                                      const char         *alignment);
/* Takes n_columns strings; NULL-terminated, owned by the table afterwards */
void          ps_cli_table_add_row_take (PsCliTable      *table,
                                      char               *first,
                                      ...) G_GNUC_NULL_TERMINATED;
void          ps_cli_table_add_row   (PsCliTable         *table,
                                      const char         *first,
                                      ...) G_GNUC_NULL_TERMINATED;
/* A NULL-terminated array of exactly n_columns strings, owned afterwards */
void          ps_cli_table_add_row_strv_take (PsCliTable *table,
                                      char              **cells);
void          ps_cli_table_print     (PsCliTable         *table,
                                      FILE               *out,
                                      const char         *indent);
/* For a table too long to hold: every row measured first (widening the
 * columns as an added row does), then printed one by one */
void          ps_cli_table_measure_row (PsCliTable       *table,
                                      char              **cells);
void          ps_cli_table_print_row (PsCliTable         *table,
                                      FILE               *out,
                                      const char         *indent,
                                      char              **cells);
/* A number cell: six significant digits, "–" when not finite */
char         *ps_cli_table_format_number (double          value);
/* A text cell cut as ps_util_append_cut_name () cuts a name, bytes that
 * are not UTF-8 shown as Latin-1 */
char         *ps_cli_table_format_cut_text (const char   *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsCliTable, ps_cli_table_free)

/* Commands */
extern const PsCliCommand ps_cli_info_command;
extern const PsCliCommand ps_cli_stats_command;
extern const PsCliCommand ps_cli_calltree_command;
extern const PsCliCommand ps_cli_counters_command;
extern const PsCliCommand ps_cli_diff_command;
extern const PsCliCommand ps_cli_export_command;
extern const PsCliCommand ps_cli_summarize_command;
extern const PsCliCommand ps_cli_trend_command;
extern const PsCliCommand ps_cli_formats_command;
extern const PsCliCommand ps_cli_record_command;

/* The counters output of a store that is already there (record);
 * path names the run in "file" */
int           ps_cli_counters_print  (const PsCliOptions *options,
                                      PsEventStore       *store,
                                      const char         *path,
                                      gboolean            partial);
/* stats of a counter run (ps-cli-counters.c): a series of kind
 * PS_SERIES_COUNTER per counter track, appended to series, its statistics
 * over the readings with a value; its JSON object; its text tables */
void          ps_cli_counter_series_append (PsEventStore *store,
                                      GPtrArray          *series);
void          ps_cli_counter_series_write (PsCliJsonStream *stream,
                                      PsEventStore       *store,
                                      const PsSeries     *series);
void          ps_cli_counter_series_print (GPtrArray     *series);

G_END_DECLS

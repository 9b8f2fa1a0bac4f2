/* ps-format-vs-report-csv-private.h — what the reader of Visual Studio
 * CSV reports and its rows (ps-format-vs-report-rows.c) share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §6 (the report files) and §7 (the reader
 * rules).
 */
#pragma once

#include <glib.h>

#include "ps-format.h"
#include "ps-parse-kit.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Columns (§6.3, §6.4, §6.5), matched by their exact name                   */

typedef enum
{
  COLUMN_UNKNOWN,
  COLUMN_UNUSED,              /* documented, but nothing in a report row holds it */
  COLUMN_FUNCTION_NAME,
  COLUMN_FUNCTION_ADDRESS,
  COLUMN_MODULE_NAME,
  COLUMN_NUMBER_OF_CALLS,
  COLUMN_PROCESS_NAME,
  COLUMN_PROCESS_ID,
  COLUMN_LEVEL,
  COLUMN_TYPE,
  COLUMN_ROOT_FUNCTION_NAME,
  COLUMN_VALUE,
  N_COLUMN_ROLES,
} ColumnRole;

typedef enum
{
  STAT_TOTAL,
  STAT_PERCENT,
  STAT_AVG,
  STAT_MIN,
  STAT_MAX,
  N_STATS,
} ValueStat;

typedef struct
{
  const char *name;
  guint8      value;      /* PS_REPORT_ELAPSED_INCLUSIVE … */
  guint8      stat;       /* ValueStat */
  gboolean    sampling;   /* a sampling report's column */
} ValueColumn;

typedef struct
{
  ColumnRole         role;
  const ValueColumn *value;   /* COLUMN_VALUE only */
} Column;

typedef enum
{
  REPORT_FUNCTION_SUMMARY,
  REPORT_CALL_TREE,
  REPORT_CALLER_CALLEE,
} ReportKind;

/* ------------------------------------------------------------------------ */
/* Parser state                                                              */

typedef enum
{
  ENCODING_DETECTING,   /* waiting for enough bytes to see a BOM */
  ENCODING_8BIT,        /* UTF-8, with Windows-1252 fallback per field */
  ENCODING_UTF16LE,
  ENCODING_UTF16BE,
} Encoding;

typedef enum
{
  CSV_FIELD_START,
  CSV_UNQUOTED,
  CSV_QUOTED,
  CSV_QUOTE_IN_QUOTED,  /* a '"' inside quotes: closing, or the first of "" */
} CsvState;

typedef struct
{
  gsize    start;       /* in the record buffer */
  gsize    length;
  gboolean quoted;
} Field;

/* A row of a call tree that may still get children */
typedef struct
{
  guint64 level;
  guint32 row;
} OpenRow;

typedef struct
{
  PsParser      parent;
  PsEventStore *store;

  /* Encoding */
  Encoding      encoding;
  guint8        head[3];          /* the first bytes, while detecting */
  guint         n_head;
  guint         bom_length;
  PsUtf16Decoder utf16;
  GString      *decoded;          /* UTF-16 chunks as UTF-8 */

  /* Tokenizer */
  CsvState      state;
  gboolean      after_cr;         /* the previous byte was a CR */
  guint64       line;             /* the line of the next byte */
  guint64       record_line;      /* where the current record began */
  guint64       quote_line;       /* where the current quoted field began */
  GString      *record;           /* the fields' text, one after another */
  GArray       *fields;           /* Field */
  gsize         field_start;
  gboolean      field_quoted;
  gboolean      failed;           /* a fatal error was returned */

  /* Header */
  gboolean      have_header;
  Column       *columns;
  guint         n_columns;
  int           role_column[N_COLUMN_ROLES];  /* first column of a role, or -1 */
  ReportKind    kind;
  gboolean      sampling;
  guint32       session;

  /* Rows */
  guint         n_row_fields;     /* fields of the current row, trailing empty one dropped */
  gboolean      any_fractional_time;
  gboolean      reported_cp1252;
  guint64       last_line;
  GHashTable   *process_tracks;   /* "pid\nname" → track + 1 */
  GString      *key;

  /* Caller/callee: the current group (§6.5) */
  guint32       root_row;         /* PS_NONE before the first Root row */
  guint64       root_line;
  guint32       root_function;    /* string ids of the Root row */
  guint32       root_module;
  gboolean      root_has_pid;
  gint64        root_pid;
  guint         n_callers;
  gboolean      callers_time_known;
  double        callers_time;
  gboolean      callers_calls_known;
  guint64       callers_calls;
  guint         callers_decimals; /* most decimals among the summed values */
  GHashTable   *root_keys;        /* "name\naddress\npid" → first line */

  /* Call tree: the open path (§7 rule 7) */
  GArray       *open_rows;        /* OpenRow */
} VsParser;

static inline gboolean
field_is_empty_unquoted (const Field *field)
{
  return field->length == 0 && !field->quoted;
}

/* The header and the rows (ps-format-vs-report-rows.c) */

/* The first record: the columns, and from them the kind of report;
 * FALSE with error set when the file is not a report */
gboolean vs_read_header (VsParser *self,
                         GError  **error);
/* A record after the header; terminated: a line break ended it, not the
 * end of the file */
void vs_read_row (VsParser *self,
                  gboolean  terminated);
/* Caller/callee: the end of a group, whose Caller rows must add up to
 * its Root (§6.5, §7 rule 6) */
void vs_close_group (VsParser *self);

G_END_DECLS

/* ps-format-pdh-csv-private.h — what the reader of PDH CSV/TSV counter
 * logs and its counter paths (ps-format-pdh-counters.c) share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 (the text logs).
 */
#pragma once

#include <glib.h>

#include "ps-format.h"
#include "ps-line-reader.h"
#include "ps-parse-kit.h"

G_BEGIN_DECLS

typedef enum
{
  CODE_PAGE_UTF8,
  CODE_PAGE_1252,     /* Western European */
  CODE_PAGE_1251,     /* Cyrillic, as guessed: read through an iconv of it */
  CODE_PAGE_ICONV,    /* the "encoding" option's, or Windows-1251: self->iconv */
} CodePage;

/* The fields of a line, one at a time */
typedef struct
{
  const char *text;
  gsize       length;
  gsize       pos;
  char        separator;
  gboolean    done;
} FieldReader;

/* A value that is no number, in a column that has not reported one */
typedef struct
{
  guint  column;
  char  *text;
} BadValue;

/* A column with a counter path */
typedef struct
{
  guint    field;       /* its field in a row (0 is the timestamp) */
  guint32  track;       /* the counter track */
  gboolean warned;      /* a bad value of this column was reported */
} Column;

typedef struct
{
  PsParser      parent;
  PsEventStore *store;
  PsLineReader *reader;

  GError       *error;          /* the fatal error found in a line callback */
  gboolean      failed;
  gboolean      started;        /* the options were read */

  /* Text */
  CodePage      code_page;      /* of 8-bit lines from now on */
  GIConv        iconv;          /* the "encoding" option's, then Windows-1251's if guessed, or (GIConv) -1 */
  char         *encoding;       /* its name, or NULL */
  GString      *decoded;
  GString      *field;          /* the text of a field, NUL-terminated */
  GString      *scratch;        /* a field with doubled quotes, unquoted */

  /* Header */
  gboolean      have_header;
  guint64       header_line;
  char          separator;
  guint         n_fields;       /* of the header, timestamp included */
  GArray       *columns;        /* Column, by field; those with a counter path */
  double       *row_numbers;    /* per column: the value of the row being read */
  guint8       *row_status;     /* per column: its ValueStatus */
  GArray       *row_bad;        /* BadValue: the row's values that are no numbers, to report */
  guint32       session;
  gboolean      has_bias;
  gint64        bias_minutes;   /* UTC = local + bias */
  gboolean      has_utc_offset; /* given by the "utc-offset" option */
  gint64        utc_offset_minutes;
  PsIdTable     track_index;    /* machines, objects and instances by their fields */

  /* Rows */
  gboolean      have_origin;
  gint64        origin_utc_ns;  /* the first sample, local + bias */
  gint64        last_time_ns;
  guint64       last_line;
  guint64       n_rows;
  guint64       n_skipped;      /* lines that are no records */
  guint64       first_skipped_line;
} PdhParser;

/* Counter paths, units and tracks (ps-format-pdh-counters.c) */

/* The counter track of a column of the header (a path that is not one is
 * warned about); its machine, object and instance tracks are found or
 * added. Counters are never shared: a repeated path is a column of its own */
guint32 pdh_add_counter_column (PdhParser  *self,
                                guint       column,
                                const char *path,
                                gsize       path_length);

G_END_DECLS

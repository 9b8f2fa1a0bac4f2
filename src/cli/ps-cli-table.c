/* ps-cli-table.c — aligned text tables for --text
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Columns are as wide as their widest cell, counted in characters, up to
 * MAX_ALIGNED_WIDTH: a longer cell is written whole but widens nothing,
 * so that one long name does not pad every other row to its width. The
 * last column is not padded so that long descriptions do not leave
 * trailing blanks. A table too long to hold (the rows of a deep call
 * tree) is measured row by row and printed row by row in a second pass.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "ps-cli.h"
#include "ps-util.h"

#define COLUMN_GAP "  "

/* Wider cells do not widen their column (in characters) */
#define MAX_ALIGNED_WIDTH 120

struct _PsCliTable
{
  guint      n_columns;
  char      *alignment;  /* 'l' or 'r' per column */
  GPtrArray *rows;       /* GStrv of n_columns cells; the first is the header */
  gsize     *widths;     /* per column, of the rows added or measured */
};

PsCliTable *
ps_cli_table_new (guint n_columns)
{
  PsCliTable *table;

  g_return_val_if_fail (n_columns > 0, NULL);

  table = g_new0 (PsCliTable, 1);
  table->n_columns = n_columns;
  table->alignment = g_strnfill (n_columns, 'l');
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  table->widths = g_new0 (gsize, n_columns);

  return table;
}

void
ps_cli_table_free (PsCliTable *table)
{
  if (table == NULL)
    return;

  g_free (table->alignment);
  g_ptr_array_unref (table->rows);
  g_free (table->widths);
  g_free (table);
}

void
ps_cli_table_set_alignment (PsCliTable *table,
                            const char *alignment)
{
  g_return_if_fail (table != NULL);
  g_return_if_fail (alignment != NULL && strlen (alignment) == table->n_columns);

  g_free (table->alignment);
  table->alignment = g_strdup (alignment);
}

static gsize
text_width (const char *text)
{
  if (g_utf8_validate (text, -1, NULL))
    return g_utf8_strlen (text, -1);
  return strlen (text);
}

void
ps_cli_table_measure_row (PsCliTable *table,
                          char      **cells)
{
  g_return_if_fail (table != NULL);
  g_return_if_fail (cells != NULL);

  for (guint c = 0; c < table->n_columns && cells[c] != NULL; c++)
    {
      gsize width = text_width (cells[c]);

      if (width <= MAX_ALIGNED_WIDTH)
        table->widths[c] = MAX (table->widths[c], width);
    }
}

static void
add_row_valist (PsCliTable *table,
                char       *first,
                va_list     args,
                gboolean    take)
{
  char **row = g_new0 (char *, table->n_columns + 1);
  char *cell = first;

  for (guint i = 0; i < table->n_columns; i++)
    {
      if (cell == NULL)
        {
          g_critical ("%s: row with fewer than %u cells", G_STRFUNC, table->n_columns);
          break;
        }
      row[i] = take ? cell : g_strdup (cell);
      cell = va_arg (args, char *);
    }

  /* Fill a short row so printing never reads past it */
  for (guint i = 0; i < table->n_columns; i++)
    if (row[i] == NULL)
      row[i] = g_strdup ("");

  ps_cli_table_measure_row (table, row);
  g_ptr_array_add (table->rows, row);
}

void
ps_cli_table_add_row_take (PsCliTable *table,
                           char       *first,
                           ...)
{
  va_list args;

  g_return_if_fail (table != NULL);

  va_start (args, first);
  add_row_valist (table, first, args, TRUE);
  va_end (args);
}

void
ps_cli_table_add_row (PsCliTable *table,
                      const char *first,
                      ...)
{
  va_list args;

  g_return_if_fail (table != NULL);

  va_start (args, first);
  add_row_valist (table, (char *)first, args, FALSE);
  va_end (args);
}

void
ps_cli_table_add_row_strv_take (PsCliTable  *table,
                                char       **cells)
{
  g_return_if_fail (table != NULL);
  g_return_if_fail (cells != NULL);

  if (g_strv_length (cells) != table->n_columns)
    {
      g_critical ("%s: row with %u cells in a table of %u columns",
                  G_STRFUNC, g_strv_length (cells), table->n_columns);
      g_strfreev (cells);
      return;
    }

  ps_cli_table_measure_row (table, cells);
  g_ptr_array_add (table->rows, cells);
}

void
ps_cli_table_print_row (PsCliTable *table,
                        FILE       *out,
                        const char *indent,
                        char      **cells)
{
  g_autoptr(GString) line = NULL;

  g_return_if_fail (table != NULL);
  g_return_if_fail (cells != NULL);

  line = g_string_new (indent);
  for (guint c = 0; c < table->n_columns && cells[c] != NULL; c++)
    {
      gsize width = text_width (cells[c]);
      gsize padding = table->widths[c] > width ? table->widths[c] - width : 0;
      gboolean last = c + 1 == table->n_columns;

      if (c > 0)
        g_string_append (line, COLUMN_GAP);
      if (table->alignment[c] == 'r')
        {
          for (gsize i = 0; i < padding; i++)
            g_string_append_c (line, ' ');
          g_string_append (line, cells[c]);
        }
      else
        {
          g_string_append (line, cells[c]);
          if (!last)
            for (gsize i = 0; i < padding; i++)
              g_string_append_c (line, ' ');
        }
    }

  /* A right-aligned or empty last cell may still leave blanks */
  while (line->len > 0 && line->str[line->len - 1] == ' ')
    g_string_truncate (line, line->len - 1);
  g_string_append_c (line, '\n');
  fwrite (line->str, 1, line->len, out);
}

void
ps_cli_table_print (PsCliTable *table,
                    FILE       *out,
                    const char *indent)
{
  g_return_if_fail (table != NULL);

  for (guint r = 0; r < table->rows->len; r++)
    ps_cli_table_print_row (table, out, indent, g_ptr_array_index (table->rows, r));
}

char *
ps_cli_table_format_cut_text (const char *text)
{
  g_autoptr(GString) cut = g_string_new (NULL);

  ps_util_append_cut_name (cut, text);
  return ps_util_display_text (cut->str, (gssize)cut->len);
}

char *
ps_cli_table_format_number (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup ("–");
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.6g", value));
}

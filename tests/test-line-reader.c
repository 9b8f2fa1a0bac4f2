/* test-line-reader.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "ps-line-reader.h"

typedef struct
{
  GString *joined;   /* "number@offset[flags]:text\n" per line */
} Collected;

static void
collect_line (const PsLine *line,
              gpointer      user_data)
{
  Collected *collected = user_data;

  g_string_append_printf (collected->joined, "%" G_GUINT64_FORMAT "@%" G_GUINT64_FORMAT "%s%s:",
                          line->number, line->offset,
                          line->terminated ? "" : "[noeol]",
                          line->truncated ? "[cut]" : "");
  g_string_append_len (collected->joined, line->text, line->length);
  g_string_append_c (collected->joined, '\n');
}

/* Splits the input into chunks of every size from 1 to its length and
 * checks that the lines do not depend on where the chunks end. */
static char *
read_all (const guint8 *data,
          gsize         length,
          gsize         chunk,
          gboolean      detect,
          gsize         max_line,
          PsTextEncoding *encoding)
{
  Collected collected = { g_string_new (NULL) };
  g_autoptr(PsLineReader) reader = ps_line_reader_new (collect_line, &collected);

  ps_line_reader_set_detect_encoding (reader, detect);
  if (max_line > 0)
    ps_line_reader_set_max_line_length (reader, max_line);
  for (gsize pos = 0; pos < length; pos += chunk)
    ps_line_reader_feed (reader, data + pos, MIN (chunk, length - pos));
  ps_line_reader_finish (reader);
  if (encoding)
    *encoding = ps_line_reader_get_encoding (reader);

  return g_string_free (collected.joined, FALSE);
}

static void
check_every_split (const guint8 *data,
                   gsize         length,
                   gboolean      detect,
                   gsize         max_line,
                   const char   *expected,
                   PsTextEncoding expected_encoding)
{
  for (gsize chunk = 1; chunk <= length + 1; chunk++)
    {
      PsTextEncoding encoding;
      g_autofree char *got = read_all (data, length, chunk, detect, max_line, &encoding);

      if (g_strcmp0 (got, expected) != 0)
        g_error ("chunk size %" G_GSIZE_FORMAT ":\n%s\nexpected:\n%s", chunk, got, expected);
      g_assert_cmpint (encoding, ==, expected_encoding);
    }
}

static void
test_line_ends (void)
{
  const char *text = "a\r\nbb\nccc\rdd\r\r\neee\n\nlast";
  const char *expected =
    "1@0:a\n"
    "2@3:bb\n"
    "3@6:ccc\n"
    "4@10:dd\n"
    "5@13:\n"
    "6@15:eee\n"
    "7@19:\n"
    "8@20[noeol]:last\n";

  check_every_split ((const guint8 *)text, strlen (text), FALSE, 0, expected, PS_TEXT_ENCODING_8BIT);
  check_every_split ((const guint8 *)text, strlen (text), TRUE, 0, expected, PS_TEXT_ENCODING_8BIT);
}

static void
test_trailing_eol (void)
{
  const char *text = "x\r\ny\r\n";

  check_every_split ((const guint8 *)text, strlen (text), FALSE, 0, "1@0:x\n2@3:y\n", PS_TEXT_ENCODING_8BIT);
  check_every_split ((const guint8 *)"", 0, TRUE, 0, "", PS_TEXT_ENCODING_8BIT);
  check_every_split ((const guint8 *)"\r", 1, FALSE, 0, "1@0:\n", PS_TEXT_ENCODING_8BIT);
}

static void
test_nul_kept (void)
{
  const guint8 text[] = { 'a', 0, 'b', '\n', 'c' };
  g_autofree char *got = read_all (text, sizeof text, 2, FALSE, 0, NULL);

  g_assert_cmpmem (got, 15, "1@0:a\0b\n2@4[noeol]:c\n", 15);
}

static void
test_utf8_bom (void)
{
  const char *text = "\xEF\xBB\xBF## PERF ##\r\nx";

  check_every_split ((const guint8 *)text, strlen (text), TRUE, 0, "1@3:## PERF ##\n2@15[noeol]:x\n",
                     PS_TEXT_ENCODING_UTF8_BOM);
}

static GByteArray *
to_utf16 (const char *utf8,
          gboolean    big_endian,
          gboolean    bom)
{
  GByteArray *out = g_byte_array_new ();
  glong n = 0;
  g_autofree gunichar2 *units = g_utf8_to_utf16 (utf8, -1, NULL, &n, NULL);

  if (bom)
    {
      guint8 mark[2] = { big_endian ? 0xFE : 0xFF, big_endian ? 0xFF : 0xFE };
      g_byte_array_append (out, mark, 2);
    }
  for (glong i = 0; i < n; i++)
    {
      guint8 pair[2];

      pair[big_endian ? 0 : 1] = units[i] >> 8;
      pair[big_endian ? 1 : 0] = units[i] & 0xff;
      g_byte_array_append (out, pair, 2);
    }

  return out;
}

static void
test_utf16 (void)
{
  const char *text = "## PERF ## A\r\né😀\nz";
  const char *expected = "1@0:## PERF ## A\n2@14:é😀\n3@21[noeol]:z\n";
  g_autoptr(GByteArray) le_bom = to_utf16 (text, FALSE, TRUE);
  g_autoptr(GByteArray) le = to_utf16 (text, FALSE, FALSE);
  g_autoptr(GByteArray) be_bom = to_utf16 (text, TRUE, TRUE);
  g_autoptr(GByteArray) be = to_utf16 (text, TRUE, FALSE);

  check_every_split (le_bom->data, le_bom->len, TRUE, 0, expected, PS_TEXT_ENCODING_UTF16LE);
  check_every_split (le->data, le->len, TRUE, 0, expected, PS_TEXT_ENCODING_UTF16LE);
  check_every_split (be_bom->data, be_bom->len, TRUE, 0, expected, PS_TEXT_ENCODING_UTF16BE);
  check_every_split (be->data, be->len, TRUE, 0, expected, PS_TEXT_ENCODING_UTF16BE);
}

static void
test_max_length (void)
{
  const char *text = "0123456789\nab\n0123456789";

  check_every_split ((const guint8 *)text, strlen (text), FALSE, 4,
                     "1@0[cut]:0123\n2@11:ab\n3@14[noeol][cut]:0123\n", PS_TEXT_ENCODING_8BIT);
}

static void
test_long_line (void)
{
  gsize length = 8 * 1024 * 1024;
  g_autofree char *text = g_malloc (length + 3);
  Collected collected = { g_string_new (NULL) };
  g_autoptr(PsLineReader) reader = ps_line_reader_new (collect_line, &collected);

  memset (text, 'q', length);
  memcpy (text + length, "\nr", 3);
  for (gsize pos = 0; pos < length + 2; pos += 65536)
    ps_line_reader_feed (reader, (const guint8 *)text + pos, MIN (65536, length + 2 - pos));
  ps_line_reader_finish (reader);

  g_assert_cmpuint (ps_line_reader_get_n_lines (reader), ==, 2);
  g_assert_cmpuint (collected.joined->len, ==, strlen ("1@0:") + length + 1 + strlen ("2@8388609[noeol]:r\n"));
  g_assert_true (g_str_has_suffix (collected.joined->str, "\n2@8388609[noeol]:r\n"));
  g_string_free (collected.joined, TRUE);
}

static gsize
fast_lines_starting_with_f (const PsLineRun *run,
                            guint64         *n_lines,
                            gpointer         user_data)
{
  Collected *collected = user_data;
  const char *data = run->data;
  gsize available = run->available;
  gsize used = 0;

  /* Takes a run of consecutive "F" lines */
  *n_lines = 0;
  while (used < available && data[used] == 'F')
    {
      const char *line = data + used;
      const char *lf = memchr (line, '\n', available - used);
      gsize length;

      if (lf == NULL)
        break;
      length = lf - line;
      if (length > 0 && line[length - 1] == '\r')
        length--;
      if (memchr (line, '\r', length) != NULL)
        break;

      g_string_append_printf (collected->joined, "%" G_GUINT64_FORMAT "@%" G_GUINT64_FORMAT "[fast]:",
                              run->line_number + *n_lines, run->offset + used);
      g_string_append_len (collected->joined, line, length);
      g_string_append_c (collected->joined, '\n');
      used = lf - data + 1;
      (*n_lines)++;
    }

  return used;
}

/* The fast path takes whole lines it recognises; numbering, offsets and the
 * lines left to the general path are the same at every split. */
static void
test_fast_path (void)
{
  const char *text = "F1\r\nslow\nF2\nF5\r\nF3\rx\r\nF4";
  const char *expected_whole =
    "1@0[fast]:F1\n"
    "2@4:slow\n"
    "3@9[fast]:F2\n"
    "4@12[fast]:F5\n"
    "5@16:F3\n"
    "6@19:x\n"
    "7@22[noeol]:F4\n";
  gsize length = strlen (text);

  for (gsize chunk = 1; chunk <= length; chunk++)
    {
      Collected collected = { g_string_new (NULL) };
      g_autoptr(PsLineReader) reader = ps_line_reader_new (collect_line, &collected);
      g_autofree char *got = NULL;
      g_autofree char *normalized = NULL;
      g_auto(GStrv) parts = NULL;

      ps_line_reader_set_fast_func (reader, fast_lines_starting_with_f);
      for (gsize pos = 0; pos < length; pos += chunk)
        ps_line_reader_feed (reader, (const guint8 *)text + pos, MIN (chunk, length - pos));
      ps_line_reader_finish (reader);
      got = g_string_free (collected.joined, FALSE);

      /* Whether a line took the fast path depends on the split; the lines do not. */
      parts = g_strsplit (got, "[fast]", -1);
      normalized = g_strjoinv ("", parts);
      {
        g_auto(GStrv) expected_parts = g_strsplit (expected_whole, "[fast]", -1);
        g_autofree char *expected = g_strjoinv ("", expected_parts);

        g_assert_cmpstr (normalized, ==, expected);
      }
      if (chunk == length)
        g_assert_cmpstr (got, ==, expected_whole);
    }
}

/* LF only (RTL logs): one CR before LF or at the very end is part of the
 * line end, a lone CR elsewhere is text */
static void
test_lf_only (void)
{
  const char text[] = "a\r\nb\rc\n\r\nlast\r";
  const char *expected = "1@0:a\n2@3:b\rc\n3@7:\n4@9:last\n";

  for (gsize chunk = 1; chunk <= sizeof text - 1; chunk++)
    {
      Collected collected = { g_string_new (NULL) };
      g_autoptr(PsLineReader) reader = ps_line_reader_new (collect_line, &collected);
      g_autofree char *got = NULL;

      ps_line_reader_set_lf_only (reader, TRUE);
      for (gsize pos = 0; pos < sizeof text - 1; pos += chunk)
        ps_line_reader_feed (reader, (const guint8 *)text + pos, MIN (chunk, sizeof text - 1 - pos));
      ps_line_reader_finish (reader);
      got = g_string_free (collected.joined, FALSE);
      g_assert_cmpstr (got, ==, expected);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/line-reader/line-ends", test_line_ends);
  g_test_add_func ("/line-reader/trailing-eol", test_trailing_eol);
  g_test_add_func ("/line-reader/nul", test_nul_kept);
  g_test_add_func ("/line-reader/utf8-bom", test_utf8_bom);
  g_test_add_func ("/line-reader/utf16", test_utf16);
  g_test_add_func ("/line-reader/max-length", test_max_length);
  g_test_add_func ("/line-reader/long-line", test_long_line);
  g_test_add_func ("/line-reader/fast-path", test_fast_path);
  g_test_add_func ("/line-reader/lf-only", test_lf_only);

  return g_test_run ();
}

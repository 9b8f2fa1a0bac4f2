/* test-export-report.c — perfscope-cli export --to markdown, html
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "Commands" (export --to markdown|html).
 *
 * The reports of the small fixtures are compared byte for byte with the
 * golden files in tests/data/export/report (PERFSCOPE_UPDATE_GOLDEN=1
 * rewrites them). Every HTML report must parse as XML and close every tag
 * it opens; its table cells and list items must read exactly as the
 * Markdown's once both are unescaped. The numbers of the tables are read
 * back and compared with the JSON of `stats`, `calltree` and `counters`
 * for the same file, within the rounding of the printed digits.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cli-test-util.h"
#include "ps-export-report.h"
#include "ps-loader.h"

static char *
data_path (const char *folder,
           const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", folder, name, NULL);
}

/* Markdown ---------------------------------------------------------------- */

/* The cells of a table line: split at the pipes that are not escaped,
 * trimmed, backslash escapes removed */
static GStrv
markdown_row (const char *line)
{
  g_autoptr(GStrvBuilder) cells = g_strv_builder_new ();
  g_autoptr(GString) cell = NULL;
  const char *p = line;

  g_assert_true (*p == '|');
  for (p++; *p != '\0'; p++)
    {
      if (cell == NULL)
        cell = g_string_new (NULL);
      if (*p == '\\' && p[1] != '\0')
        {
          /* Only ASCII punctuation is ever escaped */
          g_assert_true (g_ascii_ispunct (p[1]));
          g_string_append_c (cell, *++p);
        }
      else if (*p == '|')
        {
          g_strstrip (cell->str);
          g_strv_builder_add (cells, cell->str);
          g_string_free (g_steal_pointer (&cell), TRUE);
        }
      else
        g_string_append_c (cell, *p);
    }
  /* A row ends with a pipe */
  g_assert_null (cell);
  return g_strv_builder_end (cells);
}

static gboolean
is_separator (const char *line)
{
  return line[0] == '|' && strspn (line, "|-: ") == strlen (line);
}

/* Markdown inline text without its escapes and strong emphasis */
static char *
markdown_unescape (const char *text)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        g_string_append_c (out, *++p);
      else if (*p == '*' && p[1] == '*')
        p++;
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Every table cell (header cells included) and list item, in order */
static GPtrArray *
markdown_texts (const char *markdown)
{
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) lines = g_strsplit (markdown, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '|' && !is_separator (lines[i]))
        {
          g_auto(GStrv) cells = markdown_row (lines[i]);

          for (guint c = 0; cells[c] != NULL; c++)
            g_ptr_array_add (texts, g_strdup (cells[c]));
        }
      else if (g_str_has_prefix (lines[i], "- "))
        g_ptr_array_add (texts, markdown_unescape (lines[i] + 2));
    }
  return texts;
}

/* The rows (header first) of the first table after the heading `heading`
 * (its text as written, e.g. "## Counters") */
static GPtrArray *
markdown_table (const char *markdown,
                const char *heading)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);
  g_auto(GStrv) lines = g_strsplit (markdown, "\n", -1);
  guint i = 0;

  while (lines[i] != NULL && strcmp (lines[i], heading) != 0)
    i++;
  g_assert_nonnull (lines[i]);
  while (lines[i] != NULL && lines[i][0] != '|')
    i++;
  for (; lines[i] != NULL && lines[i][0] == '|'; i++)
    if (!is_separator (lines[i]))
      g_ptr_array_add (rows, markdown_row (lines[i]));
  g_assert_cmpuint (rows->len, >, 1);
  return rows;
}

/* The right-aligned columns of every table are exactly the numeric ones */
static void
check_markdown_alignment (const char *markdown)
{
  g_auto(GStrv) lines = g_strsplit (markdown, "\n", -1);

  for (guint i = 1; lines[i] != NULL; i++)
    if (is_separator (lines[i]))
      {
        g_auto(GStrv) header = markdown_row (lines[i - 1]);
        g_auto(GStrv) marks = g_strsplit (lines[i] + 1, "|", -1);
        guint n_header = g_strv_length (header);

        /* One mark per column, then what follows the last pipe */
        g_assert_cmpuint (g_strv_length (marks), ==, n_header + 1);
        for (guint c = 0; c < n_header; c++)
          {
            gboolean right = g_str_has_suffix (g_strstrip (marks[c]), ":");
            gboolean numeric = strcmp (header[c], "Count") == 0 || strcmp (header[c], "Calls") == 0
                               || strcmp (header[c], "Readings") == 0
                               || strstr ("Total Mean Median p95 Max Min Last Inclusive Exclusive "
                                          "Inclusive % Exclusive %", header[c]) != NULL;

            g_assert_true (right == numeric);
          }
      }
}

/* HTML -------------------------------------------------------------------- */

typedef struct
{
  GPtrArray *texts;    /* cell and list item texts */
  GString   *current;  /* the text of the cell or item being read, or NULL */
  guint      depth;
} HtmlReader;

static gboolean
is_text_element (const char *name)
{
  return strcmp (name, "td") == 0 || strcmp (name, "th") == 0 || strcmp (name, "li") == 0;
}

static void
html_start (GMarkupParseContext  *context,
            const char           *name,
            const char          **attribute_names,
            const char          **attribute_values,
            gpointer              user_data,
            GError              **error)
{
  HtmlReader *reader = user_data;

  reader->depth++;
  if (is_text_element (name))
    {
      g_assert_null (reader->current);
      reader->current = g_string_new (NULL);
    }
}

static void
html_end (GMarkupParseContext  *context,
          const char           *name,
          gpointer              user_data,
          GError              **error)
{
  HtmlReader *reader = user_data;

  reader->depth--;
  if (is_text_element (name))
    g_ptr_array_add (reader->texts, g_string_free (g_steal_pointer (&reader->current), FALSE));
}

static void
html_text (GMarkupParseContext  *context,
           const char           *text,
           gsize                 length,
           gpointer              user_data,
           GError              **error)
{
  HtmlReader *reader = user_data;

  if (reader->current != NULL)
    g_string_append_len (reader->current, text, length);
}

/* Tags balance: every element opened is closed in order, void elements
 * (meta, img) written self-closed; no stray '<' or '>' in text */
static void
check_tag_balance (const char *html)
{
  g_autoptr(GPtrArray) open = g_ptr_array_new_with_free_func (g_free);
  const char *p = html;

  while ((p = strchr (p, '<')) != NULL)
    {
      const char *end = strchr (p, '>');
      g_autofree char *tag = NULL;
      gsize name_length;

      g_assert_nonnull (end);
      /* No '<' inside a tag */
      g_assert_null (memchr (p + 1, '<', end - p - 1));
      tag = g_strndup (p + 1, end - p - 1);
      p = end + 1;
      if (tag[0] == '!')
        continue;
      if (tag[0] == '/')
        {
          g_assert_cmpuint (open->len, >, 0);
          g_assert_cmpstr (tag + 1, ==, g_ptr_array_index (open, open->len - 1));
          g_ptr_array_set_size (open, open->len - 1);
          continue;
        }
      name_length = strcspn (tag, " />");
      if (g_str_has_suffix (tag, "/"))
        {
          g_assert_true (strncmp (tag, "meta", name_length) == 0 || strncmp (tag, "img", name_length) == 0);
          continue;
        }
      g_ptr_array_add (open, g_strndup (tag, name_length));
    }
  g_assert_cmpuint (open->len, ==, 0);
  /* Text holds no '>' outside tags */
  for (const char *q = html; *q != '\0'; q++)
    if (*q == '>')
      {
        const char *start = q;

        while (start > html && *start != '<')
          start--;
        g_assert_true (*start == '<');
      }
}

/* The texts of a report that must be a well-formed document */
static GPtrArray *
html_texts (const char *html)
{
  static const GMarkupParser parser = { html_start, html_end, html_text, NULL, NULL };
  HtmlReader reader = { g_ptr_array_new_with_free_func (g_free), NULL, 0 };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"));
  g_assert_true (g_str_has_suffix (html, "</body>\n</html>\n"));
  check_tag_balance (html);

  context = g_markup_parse_context_new (&parser, 0, &reader, NULL);
  g_markup_parse_context_parse (context, html, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (reader.depth, ==, 0);
  return reader.texts;
}

static void
check_same_texts (const char *markdown,
                  const char *html)
{
  g_autoptr(GPtrArray) from_markdown = markdown_texts (markdown);
  g_autoptr(GPtrArray) from_html = html_texts (html);

  g_assert_cmpuint (from_markdown->len, >, 0);
  g_assert_cmpuint (from_markdown->len, ==, from_html->len);
  for (guint i = 0; i < from_markdown->len; i++)
    g_assert_cmpstr (g_ptr_array_index (from_markdown, i), ==, g_ptr_array_index (from_html, i));
}

/* Numbers ----------------------------------------------------------------- */

/* A printed quantity ("12.300 ms", "9.59 MiB", "4 samples", "61.25 %"):
 * its value in the base unit (s, bytes, else the unit as printed) and
 * half a unit of its last digit in the same unit */
static void
parse_quantity (const char *text,
                double     *value,
                double     *tolerance)
{
  static const struct { const char *unit; double scale; } scales[] = {
    { "ns", 1e-9 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
    { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1024.0 * 1024 }, { "GiB", 1024.0 * 1024 * 1024 },
  };
  g_autofree char *number = g_strdup (text);
  char *space = strchr (number, ' ');
  const char *point;
  char *end = NULL;
  double scale = 1;
  int decimals = 0;

  if (space != NULL)
    {
      *space = '\0';
      for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
        if (strcmp (space + 1, scales[i].unit) == 0)
          scale = scales[i].scale;
    }
  *value = g_ascii_strtod (number, &end);
  g_assert_true (end != number && *end == '\0');
  point = strchr (number, '.');
  if (point != NULL)
    decimals = (int)strlen (point + 1);
  *value *= scale;
  *tolerance = 0.5 * pow (10, -decimals) * scale * (1 + 1e-9);
}

static void
assert_quantity (const char *text,
                 double      expected)
{
  double value, tolerance;

  parse_quantity (text, &value, &tolerance);
  if (fabs (value - expected) > tolerance + 1e-12 * fabs (expected))
    g_error ("“%s” is %.17g, expected %.17g", text, value, expected);
}

static JsonNode *
run_json (const char *command,
          const char *path)
{
  g_autoptr(CliResult) result = cli_test_run (command, path, NULL);

  g_assert_cmpint (result->status, ==, 0);
  return cli_test_parse_json (result->out);
}

static char *
run_report (const char *path,
            const char *target)
{
  g_autoptr(CliResult) result = cli_test_run ("export", path, "--to", target, NULL);

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->err, ==, "");
  return g_steal_pointer (&result->out);
}

static double
member_double (JsonObject *object,
               const char *name)
{
  return json_object_get_double_member (object, name);
}

/* A stats series of the JSON that a row names: name and app (or context) */
static JsonObject *
find_series (JsonArray  *series,
             char      **row,
             gboolean    times)
{
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *object = json_array_get_object_element (series, i);
      const char *kind = json_object_get_string_member (object, "kind");
      const char *source = json_object_get_string_member_with_default (object, "app",
                             json_object_get_string_member_with_default (object, "context", "–"));
      gboolean is_time = strcmp (kind, "duration") == 0 || strcmp (kind, "span") == 0;

      if (is_time == times && strcmp (json_object_get_string_member (object, "name"), row[0]) == 0
          && strcmp (source, row[1]) == 0)
        return object;
    }
  g_error ("no series “%s” (%s) in the stats output", row[0], row[1]);
  return NULL;
}

static void
check_stats_numbers (const char *path)
{
  g_autofree char *markdown = run_report (path, "markdown");
  g_autoptr(JsonNode) root = run_json ("stats", path);
  JsonArray *series = json_object_get_array_member (json_node_get_object (root), "series");
  g_autoptr(GPtrArray) rows = markdown_table (markdown, "## Top series by total time");
  guint n_times = 0, n_others = 0;
  double previous = INFINITY;

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *object = json_array_get_object_element (series, i);
      const char *kind = json_object_get_string_member (object, "kind");

      if (json_object_get_int_member (object, "count") == 0)
        continue;
      if (strcmp (kind, "duration") == 0 || strcmp (kind, "span") == 0)
        n_times++;
      else
        n_others++;
    }

  g_assert_cmpuint (rows->len - 1, ==, MIN (n_times, PS_EXPORT_REPORT_DEFAULT_TOP));
  for (guint r = 1; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r);
      JsonObject *object = find_series (series, row, TRUE);
      double sum = member_double (object, "sum");

      g_assert_cmpint (g_ascii_strtoll (row[2], NULL, 10), ==, json_object_get_int_member (object, "count"));
      assert_quantity (row[3], sum);
      assert_quantity (row[4], member_double (object, "mean"));
      assert_quantity (row[5], member_double (object, "median"));
      assert_quantity (row[6], member_double (object, "p95"));
      assert_quantity (row[7], member_double (object, "max"));
      /* Largest total first */
      g_assert_cmpfloat (sum, <=, previous);
      previous = sum;
    }

  if (n_others > 0)
    {
      g_autoptr(GPtrArray) others = markdown_table (markdown, "## Other measurements");

      g_assert_cmpuint (others->len - 1, ==, MIN (n_others, PS_EXPORT_REPORT_DEFAULT_TOP));
      for (guint r = 1; r < others->len; r++)
        {
          char **row = g_ptr_array_index (others, r);
          JsonObject *object = find_series (series, row, FALSE);

          g_assert_cmpint (g_ascii_strtoll (row[2], NULL, 10), ==, json_object_get_int_member (object, "count"));
          assert_quantity (row[3], member_double (object, "min"));
          assert_quantity (row[4], member_double (object, "mean"));
          assert_quantity (row[5], member_double (object, "median"));
          assert_quantity (row[6], member_double (object, "p95"));
          assert_quantity (row[7], member_double (object, "max"));
        }
    }
  else
    g_assert_null (strstr (markdown, "## Other measurements"));
}

/* The JSON value in seconds when the tree is timed, as printed */
static double
call_value (JsonObject *object,
            const char *member,
            const char *unit)
{
  double value = member_double (object, member);

  if (strcmp (unit, "ns") == 0)
    return value / 1e9;
  if (strcmp (unit, "ms") == 0)
    return value / 1e3;
  return value;
}

static void
check_function_table (GPtrArray  *rows,
                      JsonArray  *functions,
                      const char *unit,
                      const char *by)
{
  char **header = g_ptr_array_index (rows, 0);
  /* Sampled runs have no calls column */
  guint first_value = strcmp (header[2], "Calls") == 0 ? 3 : 2;
  double previous = INFINITY;
  double largest = 0;

  g_assert_cmpuint (rows->len - 1, ==, MIN (json_array_get_length (functions), PS_EXPORT_REPORT_DEFAULT_TOP));
  for (guint i = 0; i < json_array_get_length (functions); i++)
    largest = MAX (largest, member_double (json_array_get_object_element (functions, i), by));

  g_assert_cmpstr (header[first_value], ==, "Inclusive");
  g_assert_cmpuint (g_strv_length (header), ==, first_value + 4);
  for (guint r = 1; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r);
      JsonObject *function = NULL;

      for (guint i = 0; i < json_array_get_length (functions) && function == NULL; i++)
        {
          JsonObject *object = json_array_get_object_element (functions, i);
          const char *module = json_object_get_string_member (object, "module");

          if (strcmp (json_object_get_string_member (object, "name"), row[0]) == 0
              && strcmp (*module != '\0' ? module : "–", row[1]) == 0)
            function = object;
        }
      g_assert_nonnull (function);
      if (first_value == 3)
        g_assert_cmpint (g_ascii_strtoll (row[2], NULL, 10), ==, json_object_get_int_member (function, "calls"));
      else
        g_assert_cmpint (json_object_get_int_member (function, "calls"), ==, 0);
      assert_quantity (row[first_value], call_value (function, "elapsed_inclusive", unit));
      assert_quantity (row[first_value + 1], member_double (function, "elapsed_inclusive_pct"));
      assert_quantity (row[first_value + 2], call_value (function, "elapsed_exclusive", unit));
      assert_quantity (row[first_value + 3], member_double (function, "elapsed_exclusive_pct"));
      g_assert_true (g_str_has_suffix (row[first_value + 1], " %") && g_str_has_suffix (row[first_value + 3], " %"));
      if (r == 1)
        g_assert_cmpfloat (member_double (function, by), ==, largest);
      g_assert_cmpfloat (member_double (function, by), <=, previous);
      previous = member_double (function, by);
    }
}

static void
check_calltree_numbers (const char *path)
{
  g_autofree char *markdown = run_report (path, "markdown");
  g_autoptr(JsonNode) root = run_json ("calltree", path);
  JsonObject *object = json_node_get_object (root);
  JsonArray *functions = json_object_get_array_member (object, "functions");
  const char *unit = json_object_get_string_member (object, "unit");
  g_autoptr(GPtrArray) inclusive = markdown_table (markdown, "### Top functions by inclusive value");
  g_autoptr(GPtrArray) exclusive = markdown_table (markdown, "### Top functions by exclusive value");

  check_function_table (inclusive, functions, unit, "elapsed_inclusive");
  check_function_table (exclusive, functions, unit, "elapsed_exclusive");
}

static void
check_counters_numbers (const char *path)
{
  g_autofree char *markdown = run_report (path, "markdown");
  g_autoptr(JsonNode) root = run_json ("counters", path);
  JsonArray *series = json_object_get_array_member (json_node_get_object (root), "series");
  g_autoptr(GPtrArray) rows = markdown_table (markdown, "## Counters");

  g_assert_cmpuint (rows->len - 1, ==, MIN (json_array_get_length (series), PS_EXPORT_REPORT_DEFAULT_TOP));
  for (guint r = 1; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r);
      JsonObject *counter = NULL;

      for (guint i = 0; i < json_array_get_length (series) && counter == NULL; i++)
        {
          JsonObject *object = json_array_get_object_element (series, i);
          const char *instance = json_object_get_string_member_with_default (object, "instance", NULL);
          const char *object_name = json_object_get_string_member_with_default (object, "object", NULL);
          g_autofree char *label = g_strdup_printf ("%s%s%s%s%s%s",
                                                    object_name != NULL ? object_name : "",
                                                    object_name != NULL ? "\\" : "",
                                                    json_object_get_string_member (object, "counter"),
                                                    instance != NULL ? " (" : "",
                                                    instance != NULL ? instance : "",
                                                    instance != NULL ? ")" : "");

          if (strcmp (label, row[0]) == 0
              && g_strcmp0 (json_object_get_string_member_with_default (object, "machine", "–"), row[1]) == 0)
            counter = object;
        }
      g_assert_nonnull (counter);
      g_assert_cmpint (g_ascii_strtoll (row[2], NULL, 10), ==, json_object_get_int_member (counter, "count"));
      assert_quantity (row[3], member_double (counter, "min"));
      assert_quantity (row[4], member_double (counter, "mean"));
      assert_quantity (row[5], member_double (counter, "max"));
      assert_quantity (row[6], member_double (counter, "last"));
    }
}

/* Golden files ------------------------------------------------------------ */

typedef struct
{
  const char *folder;   /* in tests/data, or NULL for the generated hwpmc log */
  const char *file;
  const char *golden;   /* in tests/data/export/report, .md and .html */
} Golden;

static const Golden goldens[] = {
  { "ce", "fsperf_CEPC_x86_6_0_3122.log", "fsperf" },
  { "rtl", "startup_4711.log", "startup_4711" },
  { "rtl", "calltree_4711.log", "calltree_4711" },
  { NULL, "pmcstat.out", "hwpmc" },
  { "pmcstat-callgraph", "simple.txt", "pmcstat-simple" },
  { "perflib-plv2", "processor-2cpu.plv2", "processor-2cpu" },
  { "pdh-csv", "logman-pdt.csv", "logman-pdt" },
  { "vs-report-csv", "lr2_cc.csv", "lr2_cc" },
};

static void
test_goldens (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-report-XXXXXX", NULL);
  g_autofree char *pmclog = cli_test_write_pmclog (dir);
  gboolean update = g_strcmp0 (g_getenv ("PERFSCOPE_UPDATE_GOLDEN"), "1") == 0;

  for (guint i = 0; i < G_N_ELEMENTS (goldens); i++)
    {
      const Golden *golden = &goldens[i];
      g_autofree char *path = golden->folder != NULL ? data_path (golden->folder, golden->file) : g_strdup (pmclog);
      g_autofree char *markdown = run_report (path, "markdown");
      g_autofree char *html = run_report (path, "html");
      const char * const targets[] = { "markdown", "html" };
      const char * const texts[] = { markdown, html };
      const char * const extensions[] = { ".md", ".html" };

      g_test_message ("%s", golden->file);
      check_markdown_alignment (markdown);
      check_same_texts (markdown, html);
      /* No locale's decimal comma, no missing unit on a number */
      g_assert_true (g_utf8_validate (markdown, -1, NULL));

      for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
        {
          g_autofree char *name = g_strconcat (golden->golden, extensions[t], NULL);
          g_autofree char *golden_path = g_test_build_filename (G_TEST_DIST, "data", "export", "report", name, NULL);
          g_autofree char *output = g_build_filename (dir, name, NULL);
          g_autofree char *expected = NULL;
          g_autofree char *written = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(CliResult) to_file = NULL;

          if (update)
            {
              g_file_set_contents (golden_path, texts[t], -1, &error);
              g_assert_no_error (error);
            }
          g_file_get_contents (golden_path, &expected, NULL, &error);
          g_assert_no_error (error);
          g_assert_cmpstr (texts[t], ==, expected);

          /* -o writes the same bytes */
          to_file = cli_test_run ("export", path, "--to", targets[t], "-o", output, NULL);
          g_assert_cmpint (to_file->status, ==, 0);
          g_assert_cmpstr (to_file->out, ==, "");
          g_file_get_contents (output, &written, NULL, &error);
          g_assert_no_error (error);
          g_assert_cmpstr (written, ==, expected);
          g_remove (output);
        }
    }

  g_remove (pmclog);
  g_rmdir (dir);
}

static void
test_numbers (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-report-XXXXXX", NULL);
  g_autofree char *pmclog = cli_test_write_pmclog (dir);
  g_autofree char *fsperf = data_path ("ce", "fsperf_CEPC_x86_6_0_3122.log");
  g_autofree char *startup = data_path ("rtl", "startup_4711.log");
  g_autofree char *calltree = data_path ("rtl", "calltree_4711.log");
  g_autofree char *simple = data_path ("pmcstat-callgraph", "simple.txt");
  g_autofree char *iperf = data_path ("pmcstat-callgraph", "iperf3.txt");
  g_autofree char *report = data_path ("vs-report-csv", "lr2_cc.csv");
  g_autofree char *plv2 = data_path ("perflib-plv2", "processor-2cpu.plv2");
  g_autofree char *pdh = data_path ("pdh-csv", "logman-pdt.csv");

  check_stats_numbers (fsperf);
  check_stats_numbers (startup);
  check_stats_numbers (calltree);
  check_calltree_numbers (pmclog);
  check_calltree_numbers (simple);
  check_calltree_numbers (iperf);
  check_calltree_numbers (report);
  check_counters_numbers (plv2);
  check_counters_numbers (pdh);

  g_remove (pmclog);
  g_rmdir (dir);
}

/* Names with Markdown and HTML metacharacters ----------------------------- */

#define WEIRD_NAME "std::vector<T*>::push_back|a&b_c `x` [y](z) #1 ~w~ $m$"

static void
test_escaping (void)
{
  g_autofree char *dir = g_dir_make_tmp ("perfscope-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "weird_4711.log", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *html = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  const char *log =
    "000000 1 { " WEIRD_NAME "\n"
    "000004 1 { inner \"quoted\" 'name'\n"
    "000010 1 } inner \"quoted\" 'name'\n"
    "000030 1 } " WEIRD_NAME "\n";
  const char *line;

  g_file_set_contents (path, log, -1, &error);
  g_assert_no_error (error);
  markdown = run_report (path, "markdown");
  html = run_report (path, "html");

  /* Every metacharacter escaped, and the row keeps its eight cells */
  line = strstr (markdown, "| std::vector\\<T\\*\\>::push\\_back\\|a\\&b\\_c \\`x\\` \\[y\\](z) \\#1 \\~w\\~ \\$m\\$ |");
  g_assert_nonnull (line);
  rows = markdown_table (markdown, "## Top series by total time");
  g_assert_cmpuint (rows->len, ==, 3);
  g_assert_cmpuint (g_strv_length (g_ptr_array_index (rows, 1)), ==, 8);
  g_assert_cmpstr (((char **)g_ptr_array_index (rows, 1))[0], ==, WEIRD_NAME);
  g_assert_cmpstr (((char **)g_ptr_array_index (rows, 1))[3], ==, "30.000 ms");
  g_assert_cmpstr (((char **)g_ptr_array_index (rows, 2))[0], ==, "inner \"quoted\" 'name'");
  g_assert_cmpstr (((char **)g_ptr_array_index (rows, 2))[3], ==, "6.000 ms");

  g_assert_nonnull (strstr (html, "<td>std::vector&lt;T*&gt;::push_back|a&amp;b_c `x` [y](z) #1 ~w~ $m$</td>"));
  g_assert_nonnull (strstr (html, "<td>inner &quot;quoted&quot; &#39;name&#39;</td>"));
  check_same_texts (markdown, html);

  g_remove (path);
  g_rmdir (dir);
}

/* The engine API: pictures, a partial read ------------------------------- */

static PsEventStore *
load (const char *folder,
      const char *name,
      gssize      length)
{
  g_autofree char *path = data_path (folder, name);
  g_autofree char *contents = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;
  PsEventStore *store;

  g_file_get_contents (path, &contents, &size, &error);
  g_assert_no_error (error);
  if (length >= 0)
    size = MIN (size, (gsize)length);
  stream = g_memory_input_stream_new_from_data (g_memdup2 (contents, size), size, g_free);
  store = ps_load_stream (stream, name, NULL, NULL, &error);
  g_assert_no_error (error);
  return store;
}

static void
test_pictures (void)
{
  g_autoptr(PsEventStore) store = load ("rtl", "startup_4711.log", -1);
  const PsExportReportPicture pictures[] = {
    { "Timeline <all threads>", "timeline 1.png" },
    { "Flame graph & more", "flame.svg" },
  };
  PsExportReportOptions options = { PS_EXPORT_REPORT_MARKDOWN, "startup_4711.log", 3, 0, pictures, 2 };
  g_autoptr(GString) markdown = ps_export_report_build (store, &options);
  g_autoptr(GString) html = NULL;
  g_autoptr(GString) without = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  g_assert_nonnull (strstr (markdown->str, "\n## Pictures\n\n"
                                           "![Timeline \\<all threads\\>](timeline%201.png)\n\n"
                                           "![Flame graph \\& more](flame.svg)\n"));
  /* top: three rows, and a note of how many there are */
  rows = markdown_table (markdown->str, "## Top series by total time");
  g_assert_cmpuint (rows->len, ==, 4);
  g_assert_nonnull (strstr (markdown->str, "The first 3 of 9 series with times, by total time."));

  options.format = PS_EXPORT_REPORT_HTML;
  html = ps_export_report_build (store, &options);
  g_assert_nonnull (strstr (html->str, "<h2>Pictures</h2>\n<figure><img src=\"timeline%201.png\" "
                                       "alt=\"Timeline &lt;all threads&gt;\"/>"
                                       "<figcaption>Timeline &lt;all threads&gt;</figcaption></figure>\n"));
  g_ptr_array_unref (html_texts (html->str));

  /* A file name that is not UTF-8 links to its bytes, as in Markdown */
  {
    PsExportReportPicture latin1 = { "Timeline", "caf\xe9.png" };
    g_autoptr(GString) page = NULL;

    options.pictures = &latin1;
    options.n_pictures = 1;
    page = ps_export_report_build (store, &options);
    g_assert_nonnull (strstr (page->str, "<img src=\"caf%E9.png\" alt=\"Timeline\"/>"));
  }

  options.n_pictures = 0;
  without = ps_export_report_build (store, &options);
  g_assert_null (strstr (without->str, "Pictures"));
  g_assert_null (strstr (without->str, "<img"));
}

static void
test_partial (void)
{
  /* Cut inside a sample record */
  g_autoptr(PsEventStore) store = load ("perflib-plv2", "processor-2cpu.plv2", 2000);
  g_autoptr(GString) markdown = NULL;
  g_autoptr(GString) html = NULL;
  PsExportReportOptions options = { PS_EXPORT_REPORT_MARKDOWN, "cut.plv2", 0, 0, NULL, 0 };

  g_assert_false (ps_event_store_is_complete (store));
  markdown = ps_export_report_build (store, &options);
  g_assert_nonnull (strstr (markdown->str, "- **Read:** in part\n"));
  g_assert_nonnull (strstr (markdown->str, "## Data quality\n\nThe file was read only in part: The file ends inside record"));
  options.format = PS_EXPORT_REPORT_HTML;
  html = ps_export_report_build (store, &options);
  check_same_texts (markdown->str, html->str);
  g_assert_nonnull (strstr (html->str, "<p>The file was read only in part: The file ends inside record"));
}

static void
test_cli (void)
{
  g_autofree char *path = data_path ("rtl", "startup_4711.log");
  g_autoptr(CliResult) tree = cli_test_run ("export", path, "--to", "html", "--tree", NULL);
  g_autoptr(CliResult) unknown = cli_test_run ("export", path, "--to", "markdown2", NULL);

  g_assert_cmpint (tree->status, ==, 2);
  g_assert_cmpint (unknown->status, ==, 2);
  g_assert_nonnull (strstr (unknown->err, "markdown, html"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export-report/goldens", test_goldens);
  g_test_add_func ("/export-report/numbers", test_numbers);
  g_test_add_func ("/export-report/escaping", test_escaping);
  g_test_add_func ("/export-report/pictures", test_pictures);
  g_test_add_func ("/export-report/partial", test_partial);
  g_test_add_func ("/export-report/cli", test_cli);

  return g_test_run ();
}

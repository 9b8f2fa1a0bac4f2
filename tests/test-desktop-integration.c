/* test-desktop-integration.c — the MIME types and the desktop file
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared-mime-info XML built in data/ is compiled with
 * update-mime-database into a temporary XDG_DATA_HOME, and GIO sniffs the
 * demo logs and constructed headers through it: the magic must find
 * pmclog (both byte orders, both generations, the pmc(8) container) and
 * PLV2 files without a name, agree with the engine's sniffers, and leave
 * text logs and CSV files to the system's types. The desktop file must
 * list every type the XML defines. The settings schema compiled in data/
 * has the keys issue 11 asks for, each documented, with defaults the app
 * understands.
 *
 * specs: hwpmc-pmclog.md §1.6, §1.8; perflib-v2.md §8.1; rtl-logfile.md §2.1
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "ps-call-tree.h"
#include "ps-format.h"
#include "ps-pmclog.h"

#define PMCLOG_TYPE "application/x-hwpmc-log"
#define PLV2_TYPE   "application/x-perfscope-plv2"
#define RTL_TYPE    "application/x-perfscope-rtl-log"

static char *data_home;

/* The XML and the desktop file come from tests/meson.build */
static const char *
built_file (const char *variable)
{
  const char *path = g_getenv (variable);

  g_assert_nonnull (path);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  return path;
}

/* Compiles the XML once; FALSE (and the test skipped) without the tool. */
static gboolean
ensure_mime_database (void)
{
  static int state;  /* 0 not tried, 1 built, 2 no tool */
  g_autofree char *packages = NULL;
  g_autofree char *mime_dir = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *program = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;
  int status;

  if (state == 0)
    {
      program = g_find_program_in_path ("update-mime-database");
      if (program == NULL)
        state = 2;
      else
        {
          const char *argv[] = { program, NULL, NULL };

          mime_dir = g_build_filename (data_home, "mime", NULL);
          packages = g_build_filename (mime_dir, "packages", NULL);
          g_assert_cmpint (g_mkdir_with_parents (packages, 0700), ==, 0);
          g_assert_true (g_file_get_contents (built_file ("PERFSCOPE_MIME_XML"), &contents, &length, NULL));
          copy = g_build_filename (packages, "io.github.perfscope.Perfscope.xml", NULL);
          g_assert_true (g_file_set_contents (copy, contents, length, NULL));

          argv[1] = mime_dir;
          g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                        NULL, NULL, NULL, &err, &status, &error);
          g_assert_no_error (error);
          /* update-mime-database warns on stderr about unknown elements,
           * bad match types or values and still exits with 0 */
          g_assert_cmpstr (err, ==, "");
          g_assert_true (g_spawn_check_wait_status (status, NULL));
          state = 1;
        }
    }

  if (state == 2)
    g_test_skip ("update-mime-database is not installed");
  return state == 1;
}

static GBytes *
read_demo (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "demo", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents;
  gsize length;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

/* What GIO says a file with this name and these first bytes is */
static char *
guess (const char *file_name,
       GBytes     *data)
{
  gsize length = 0;
  const guchar *bytes = data != NULL ? g_bytes_get_data (data, &length) : NULL;

  /* GIO looks at the first 4 KiB, as the file manager does */
  return g_content_type_guess (file_name, bytes, MIN (length, 4096), NULL);
}

static void
assert_type (const char *file_name,
             GBytes     *data,
             const char *expected)
{
  g_autofree char *type = guess (file_name, data);
  g_autofree char *expected_type = g_content_type_from_mime_type (expected);

  if (!g_content_type_equals (type, expected_type))
    g_error ("%s (%" G_GSIZE_FORMAT " bytes): expected %s, GIO says %s",
             file_name != NULL ? file_name : "(no name)",
             data != NULL ? g_bytes_get_size (data) : 0, expected, type);
}

static void
assert_not_ours (const char *file_name,
                 GBytes     *data)
{
  g_autofree char *type = guess (file_name, data);
  g_autofree char *mime = g_content_type_get_mime_type (type);

  if (g_str_equal (mime, PMCLOG_TYPE) || g_str_equal (mime, PLV2_TYPE) || g_str_equal (mime, RTL_TYPE))
    g_error ("%s: claimed as %s", file_name != NULL ? file_name : "(no name)", mime);
}

/* Every 32-bit word in the other byte order: a stream as a big-endian
 * kernel would have written it (the records are made of words,
 * hwpmc-pmclog.md §1.2). */
static GBytes *
swap_words (GBytes *data)
{
  gsize length = g_bytes_get_size (data) & ~(gsize) 3;
  guint32 *words = g_memdup2 (g_bytes_get_data (data, NULL), length);

  for (gsize i = 0; i < length / 4; i++)
    words[i] = GUINT32_SWAP_LE_BE (words[i]);
  return g_bytes_new_take (words, length);
}

static GBytes *
concat (const void *prefix,
        gsize       prefix_length,
        GBytes     *data)
{
  GByteArray *bytes = g_byte_array_new ();

  g_byte_array_append (bytes, prefix, prefix_length);
  g_byte_array_append (bytes, g_bytes_get_data (data, NULL), g_bytes_get_size (data));
  return g_byte_array_free_to_bytes (bytes);
}

static guint
engine_sniff (GBytes *data)
{
  gsize length;
  const guint8 *bytes = g_bytes_get_data (data, &length);

  return ps_pmclog_sniff (bytes, length);
}

static void
test_mime_pmclog (void)
{
  g_autoptr(GBytes) modern = NULL;
  g_autoptr(GBytes) modern_big = NULL;
  g_autoptr(GBytes) container = NULL;
  g_autoptr(GBytes) container_big = NULL;
  g_autoptr(GBytes) legacy = NULL;
  g_autoptr(GBytes) legacy_big = NULL;
  g_autoptr(GBytes) lone_header = NULL;
  /* hwpmc-pmclog.md §1.8: magic, version 0, amd64, then the end block */
  static const guint8 container_header[16] = { 0x4C, 0x43, 0x4D, 0x50, 0, 0, 1, 0,
                                               0, 0, 0, 0, 0, 0, 0, 0 };
  static const guint8 container_header_big[16] = { 0x50, 0x4D, 0x43, 0x4C, 0, 0, 0, 3,
                                                   0, 0, 0, 0, 0, 0, 0, 0 };
  /* hwpmc-pmclog.md §1.6, §11: legacy INITIALIZE (length 20, version 3.x)
   * and a following 12-byte record */
  static const guint8 legacy_start[32] = { 0x14, 0x00, 0x02, 0xEE, 0, 0, 0, 0, 0, 0, 0, 0,
                                           0x00, 0x00, 0x00, 0x03, 0x10, 0, 0, 0,
                                           0x0C, 0x00, 0x01, 0xEE, 0, 0, 0, 0, 0, 0, 0, 0 };
  /* The same header word and nothing behind it */
  static const guint8 lone_start[32] = { 0x14, 0x00, 0x02, 0xEE };

  if (!ensure_mime_database ())
    return;

  modern = read_demo ("pmcstat_freebsd14.pmclog");
  modern_big = swap_words (modern);
  container = concat (container_header, sizeof container_header, modern);
  {
    g_autoptr(GBytes) swapped = swap_words (modern);
    container_big = concat (container_header_big, sizeof container_header_big, swapped);
  }
  legacy = g_bytes_new_static (legacy_start, sizeof legacy_start);
  legacy_big = swap_words (legacy);
  lone_header = g_bytes_new_static (lone_start, sizeof lone_start);

  /* The engine reads each of them: the magic must not claim more or less */
  g_assert_cmpuint (engine_sniff (modern), >=, 50);
  g_assert_cmpuint (engine_sniff (modern_big), >=, 50);
  g_assert_cmpuint (engine_sniff (container), >=, 50);
  g_assert_cmpuint (engine_sniff (container_big), >=, 50);
  g_assert_cmpuint (engine_sniff (legacy), >=, 50);
  g_assert_cmpuint (engine_sniff (legacy_big), >=, 50);
  g_assert_cmpuint (engine_sniff (lone_header), ==, 0);

  /* By content alone: pmcstat -O names files freely (often *.out) */
  assert_type (NULL, modern, PMCLOG_TYPE);
  assert_type (NULL, modern_big, PMCLOG_TYPE);
  assert_type (NULL, container, PMCLOG_TYPE);
  assert_type (NULL, container_big, PMCLOG_TYPE);
  assert_type (NULL, legacy, PMCLOG_TYPE);
  assert_type (NULL, legacy_big, PMCLOG_TYPE);
  assert_type ("samples.out", modern, PMCLOG_TYPE);
  assert_not_ours (NULL, lone_header);

  /* By name alone, and both */
  assert_type ("pmcstat_freebsd14.pmclog", NULL, PMCLOG_TYPE);
  assert_type ("pmcstat_freebsd14.pmclog", modern, PMCLOG_TYPE);

  {
    g_autofree char *type = g_content_type_from_mime_type (PMCLOG_TYPE);
    g_autofree char *description = g_content_type_get_description (type);

    g_assert_cmpstr (description, ==, "FreeBSD hwpmc log");
  }
}

static void
test_mime_plv2 (void)
{
  g_autoptr(GBytes) capture = NULL;
  g_autoptr(GBytes) not_capture = NULL;
  static const char almost[16] = "PLV2CAPX\1\0\0\0";

  if (!ensure_mime_database ())
    return;

  capture = read_demo ("processor_4cpu.plv2");
  not_capture = g_bytes_new_static (almost, sizeof almost);

  assert_type (NULL, capture, PLV2_TYPE);
  assert_type ("capture.bin", capture, PLV2_TYPE);
  assert_type ("processor_4cpu.plv2", NULL, PLV2_TYPE);
  assert_type ("processor_4cpu.plv2", capture, PLV2_TYPE);
  assert_not_ours (NULL, not_capture);

  {
    g_autofree char *type = g_content_type_from_mime_type (PLV2_TYPE);
    g_autofree char *description = g_content_type_get_description (type);

    g_assert_cmpstr (description, ==, "PerfLib V2 capture");
  }
}

/* Text formats: only a name nobody else uses is claimed */
static void
test_mime_text_logs (void)
{
  g_autoptr(GBytes) rtl = NULL;
  g_autoptr(GBytes) ce = NULL;
  g_autoptr(GBytes) pdh = NULL;
  g_autofree char *rtl_type = NULL;
  g_autofree char *text_type = NULL;

  if (!ensure_mime_database ())
    return;

  rtl = read_demo ("soffice_4711.log");
  ce = read_demo ("fsperf_CEPC_x86_6_0_3122.log");
  pdh = read_demo ("perfmon_4cpu.csv");

  assert_type ("soffice.nopid", rtl, RTL_TYPE);
  rtl_type = g_content_type_from_mime_type (RTL_TYPE);
  text_type = g_content_type_from_mime_type ("text/plain");
  g_assert_true (g_content_type_is_a (rtl_type, text_type));

  assert_not_ours ("soffice_4711.log", rtl);
  assert_not_ours (NULL, rtl);
  assert_not_ours ("fsperf_CEPC_x86_6_0_3122.log", ce);
  assert_not_ours ("perfmon_4cpu.csv", pdh);
  assert_type ("perfmon_4cpu.csv", pdh, "text/csv");
}

typedef struct
{
  GPtrArray *types;
  GPtrArray *globs;
} MimeXml;

static void
mime_xml_start (GMarkupParseContext  *context,
                const char           *element,
                const char          **names,
                const char          **values,
                gpointer              user_data,
                GError              **error)
{
  MimeXml *xml = user_data;

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_str_equal (element, "mime-type") && g_str_equal (names[i], "type"))
        g_ptr_array_add (xml->types, g_strdup (values[i]));
      else if (g_str_equal (element, "glob") && g_str_equal (names[i], "pattern"))
        g_ptr_array_add (xml->globs, g_strdup (values[i]));
    }
}

static gboolean
contains (GPtrArray  *array,
          const char *string)
{
  return g_ptr_array_find_with_equal_func (array, string, g_str_equal, NULL);
}

/* The XML, the desktop file and the formats' tables name the same types */
static void
test_mime_desktop_file (void)
{
  static const GMarkupParser parser = { mime_xml_start, NULL, NULL, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GKeyFile) desktop = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) desktop_types = g_ptr_array_new ();
  g_autoptr(GPtrArray) types = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) globs = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) mime_types = NULL;
  g_autofree char *contents = NULL;
  MimeXml xml = { types, globs };
  const PsFormat * const *formats;
  guint n_formats;

  g_assert_true (g_file_get_contents (built_file ("PERFSCOPE_MIME_XML"), &contents, NULL, NULL));
  context = g_markup_parse_context_new (&parser, 0, &xml, NULL);
  g_markup_parse_context_parse (context, contents, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);

  g_assert_true (contains (types, PMCLOG_TYPE));
  g_assert_true (contains (types, PLV2_TYPE));
  /* Text logs and CSV files belong to every program that reads text */
  g_assert_false (contains (globs, "*.log"));
  g_assert_false (contains (globs, "*.csv"));
  g_assert_false (contains (globs, "*.txt"));
  g_assert_false (contains (globs, "soffice_*.log"));

  g_key_file_load_from_file (desktop, built_file ("PERFSCOPE_DESKTOP_FILE"), G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  mime_types = g_key_file_get_string_list (desktop, G_KEY_FILE_DESKTOP_GROUP,
                                           G_KEY_FILE_DESKTOP_KEY_MIME_TYPE, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; mime_types[i] != NULL; i++)
    g_ptr_array_add (desktop_types, mime_types[i]);

  for (guint i = 0; i < types->len; i++)
    if (!contains (desktop_types, types->pdata[i]))
      g_error ("%s is defined in the MIME XML but missing from MimeType= of the desktop file",
               (char *) types->pdata[i]);

  /* A format's own type (not text/plain or text/csv) is defined here */
  formats = ps_format_list (&n_formats);
  for (guint i = 0; i < n_formats; i++)
    for (guint j = 0; formats[i]->mime_types != NULL && formats[i]->mime_types[j] != NULL; j++)
      {
        const char *mime_type = formats[i]->mime_types[j];

        if (g_str_has_prefix (mime_type, "application/x-") && !contains (types, mime_type))
          g_error ("format %s says %s, which the MIME XML does not define", formats[i]->name, mime_type);
        if (!contains (desktop_types, mime_type) && !g_str_has_prefix (mime_type, "text/"))
          g_error ("format %s says %s, which the desktop file does not list", formats[i]->name, mime_type);
      }
}

/* The compiled schema (GSETTINGS_SCHEMA_DIR=<build>/data, set by
 * tests/meson.build): every key documented, the defaults in range */
static void
test_settings_schema (void)
{
  static const char * const keys[] = {
    "window-width", "window-height", "window-maximized", "pane-fractions",
    "recent-files-limit", "recent-comparisons",
    "percentage-basis", "histogram-scale",
    "symbol-folder", "symbol-folders",
  };
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_auto(GStrv) nicks = NULL;
  g_autofree char *basis = NULL;
  g_autofree char *scale = NULL;
  PsCallBasis parsed;

  g_assert_nonnull (source);
  schema = g_settings_schema_source_lookup (source, "io.github.perfscope.Perfscope", FALSE);
  g_assert_nonnull (schema);

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr(GSettingsSchemaKey) key = NULL;
      g_autoptr(GVariant) value = NULL;

      if (!g_settings_schema_has_key (schema, keys[i]))
        g_error ("the schema has no key %s", keys[i]);
      key = g_settings_schema_get_key (schema, keys[i]);
      value = g_settings_schema_key_get_default_value (key);
      g_assert_true (g_settings_schema_key_range_check (key, value));
    }

  /* GSETTINGS_BACKEND=memory: the defaults, not the user's settings */
  settings = g_settings_new_full (schema, NULL, NULL);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1360);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 800);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  /* Open Recent lists as many as before the setting existed */
  g_assert_cmpuint (g_settings_get_uint (settings, "recent-files-limit"), ==, 10);
  scale = g_settings_get_string (settings, "histogram-scale");
  g_assert_cmpstr (scale, ==, "linear");

  /* The basis's nicks are the engine's names of the bases */
  basis = g_settings_get_string (settings, "percentage-basis");
  g_assert_true (ps_call_basis_from_string (basis, &parsed));
  g_assert_cmpint (parsed, ==, PS_CALL_BASIS_S1);
  {
    g_autoptr(GSettingsSchemaKey) key = g_settings_schema_get_key (schema, "percentage-basis");
    g_autoptr(GVariant) range = g_settings_schema_key_get_range (key);
    g_autoptr(GVariant) values = NULL;
    const char *type;

    g_variant_get (range, "(&sv)", &type, &values);
    g_assert_cmpstr (type, ==, "enum");
    nicks = g_variant_dup_strv (values, NULL);
  }
  g_assert_cmpuint (g_strv_length (nicks), ==, 2);
  for (guint i = 0; nicks[i] != NULL; i++)
    {
      g_assert_true (ps_call_basis_from_string (nicks[i], &parsed));
      g_assert_cmpstr (ps_call_basis_to_string (parsed), ==, nicks[i]);
    }
}

/* The summaries and descriptions are not compiled: read the source */
typedef struct
{
  char *key;
  int   n_summaries;
  int   n_descriptions;
  int   n_keys;
} SchemaXml;

static void
schema_xml_start (GMarkupParseContext  *context,
                  const char           *element,
                  const char          **names,
                  const char          **values,
                  gpointer              user_data,
                  GError              **error)
{
  SchemaXml *xml = user_data;

  if (g_str_equal (element, "key"))
    {
      for (guint i = 0; names[i] != NULL; i++)
        if (g_str_equal (names[i], "name"))
          xml->key = g_strdup (values[i]);
      xml->n_summaries = xml->n_descriptions = 0;
    }
  else if (g_str_equal (element, "summary"))
    xml->n_summaries++;
  else if (g_str_equal (element, "description"))
    xml->n_descriptions++;
}

static void
schema_xml_end (GMarkupParseContext  *context,
                const char           *element,
                gpointer              user_data,
                GError              **error)
{
  SchemaXml *xml = user_data;

  if (!g_str_equal (element, "key"))
    return;
  if (xml->n_summaries != 1 || xml->n_descriptions != 1)
    g_error ("key %s: %d summaries and %d descriptions, expected one of each",
             xml->key, xml->n_summaries, xml->n_descriptions);
  xml->n_keys++;
  g_clear_pointer (&xml->key, g_free);
}

static void
test_settings_documented (void)
{
  static const GMarkupParser parser = { schema_xml_start, schema_xml_end, NULL, NULL, NULL };
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data",
                                                 "io.github.perfscope.Perfscope.gschema.xml", NULL);
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  SchemaXml xml = { NULL, 0, 0, 0 };

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&parser, 0, &xml, NULL);
  g_markup_parse_context_parse (context, contents, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
  g_assert_cmpint (xml.n_keys, >=, 10);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  /* Before GIO looks at any content type: ours first, the system's after */
  data_home = g_dir_make_tmp ("perfscope-mime-XXXXXX", NULL);
  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  if (g_getenv ("XDG_DATA_DIRS") == NULL)
    g_setenv ("XDG_DATA_DIRS", "/usr/local/share:/usr/share", TRUE);

  g_test_add_func ("/mime/pmclog", test_mime_pmclog);
  g_test_add_func ("/mime/plv2", test_mime_plv2);
  g_test_add_func ("/mime/text-logs", test_mime_text_logs);
  g_test_add_func ("/mime/desktop-file", test_mime_desktop_file);
  g_test_add_func ("/settings/schema", test_settings_schema);
  g_test_add_func ("/settings/documented", test_settings_documented);

  status = g_test_run ();

  {
    const char *rm_argv[] = { "rm", "-rf", data_home, NULL };

    /* update-mime-database wrote many files and folders */
    g_spawn_sync (NULL, (char **) rm_argv, NULL, G_SPAWN_SEARCH_PATH,
                  NULL, NULL, NULL, NULL, NULL, NULL);
  }
  g_free (data_home);
  return status;
}

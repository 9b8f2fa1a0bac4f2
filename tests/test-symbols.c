/* test-symbols.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ELF files come from tests/meson.build (symbols/fixture.c built as a
 * library, a stripped copy, its debug file, an executable, a 32-bit
 * library), with what nm and readelf say about them: those are the
 * expectations. Each test arranges the files into a sysroot of its own.
 */
/* symlink () is POSIX, not C11 */
#define _POSIX_C_SOURCE 200809L

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ps-symbols.h"

/* What nm and readelf say about one fixture */
typedef struct
{
  guint64     start;
  guint64     size;
} NmSymbol;

typedef struct
{
  guint       elf_class;
  guint64     vaddr;
  guint64     start;
  guint64     end;
  guint64     entry;
  char       *build_id;
  char       *interpreter;
  GHashTable *symbols;  /* name → NmSymbol */
} Expected;

static void
expected_free (Expected *expected)
{
  g_free (expected->build_id);
  g_free (expected->interpreter);
  g_hash_table_unref (expected->symbols);
  g_free (expected);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Expected, expected_free)

static char **
split_fields (const char *line)
{
  g_auto(GStrv) parts = g_strsplit_set (line, " \t", -1);
  GPtrArray *fields = g_ptr_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      g_ptr_array_add (fields, g_strdup (parts[i]));
  g_ptr_array_add (fields, NULL);
  return (char **) g_ptr_array_free (fields, FALSE);
}

static guint64
parse_hex (const char *text)
{
  guint64 value = 0;

  g_assert_true (g_ascii_string_to_unsigned (g_str_has_prefix (text, "0x") ? text + 2 : text,
                                              16, 0, G_MAXUINT64, &value, NULL));
  return value;
}

/* NULL (and the test skipped) when the build could not make the fixture */
static Expected *
load_expected (const char *fixture)
{
  g_autofree char *nm_name = g_strconcat (fixture, ".nm", NULL);
  g_autofree char *readelf_name = g_strconcat (fixture, ".readelf", NULL);
  g_autofree char *nm_path = g_test_build_filename (G_TEST_BUILT, nm_name, NULL);
  g_autofree char *readelf_path = g_test_build_filename (G_TEST_BUILT, readelf_name, NULL);
  g_autofree char *nm_text = NULL;
  g_autofree char *readelf_text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(Expected) expected = g_new0 (Expected, 1);
  gboolean have_exec_section = FALSE;
  gboolean have_vaddr = FALSE;

  if (!g_file_get_contents (nm_path, &nm_text, NULL, NULL) ||
      !g_file_get_contents (readelf_path, &readelf_text, NULL, NULL))
    {
      g_autofree char *message = g_strdup_printf ("%s was not built (no objcopy, nm or readelf, or no compiler support)", fixture);

      g_test_skip (message);
      return NULL;
    }

  expected->symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lines = g_strsplit (nm_text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = split_fields (lines[i]);
      guint n_fields = g_strv_length (fields);
      NmSymbol *symbol;

      if (n_fields < 3)
        continue;
      symbol = g_new0 (NmSymbol, 1);
      symbol->start = parse_hex (fields[0]);
      symbol->size = n_fields >= 4 ? parse_hex (fields[1]) : 0;
      g_hash_table_replace (expected->symbols, g_strdup (fields[n_fields - 1]), symbol);
    }
  g_clear_pointer (&lines, g_strfreev);

  lines = g_strsplit (readelf_text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *bracket;
      g_auto(GStrv) fields = NULL;
      guint n_fields;

      if (strstr (line, "Class:") != NULL)
        expected->elf_class = strstr (line, "ELF32") != NULL ? 32 : 64;
      else if (strstr (line, "Entry point address:") != NULL)
        expected->entry = parse_hex (strstr (line, "0x"));
      else if (strstr (line, "Build ID:") != NULL)
        expected->build_id = g_strstrip (g_strdup (strstr (line, "Build ID:") + strlen ("Build ID:")));
      else if (strstr (line, "[Requesting program interpreter: ") != NULL)
        {
          const char *path = strstr (line, ": ") + 2;

          expected->interpreter = g_strndup (path, strcspn (path, "]"));
        }
      else if (g_str_has_prefix (line, "  [") && (bracket = strchr (line, ']')) != NULL)
        {
          /* Name Type Address Off Size ES Flg Lk Inf Al */
          fields = split_fields (bracket + 1);
          n_fields = g_strv_length (fields);
          if (n_fields == 10 && strchr (fields[6], 'X') != NULL)
            {
              guint64 address = parse_hex (fields[2]);
              guint64 size = parse_hex (fields[4]);

              if (size == 0)
                continue;
              if (!have_exec_section || address < expected->start)
                expected->start = address;
              if (!have_exec_section || address + size > expected->end)
                expected->end = address + size;
              have_exec_section = TRUE;
            }
        }
      else if (g_str_has_prefix (line, "  LOAD ") && !have_vaddr)
        {
          /* Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg… Align */
          fields = split_fields (line);
          n_fields = g_strv_length (fields);
          g_assert_cmpuint (n_fields, >=, 8);
          for (guint f = 6; f + 1 < n_fields; f++)
            if (strchr (fields[f], 'E') != NULL)
              {
                guint64 align = parse_hex (fields[n_fields - 1]);

                expected->vaddr = parse_hex (fields[2]) & ~(align - 1);
                have_vaddr = TRUE;
              }
        }
    }

  g_assert_cmpuint (expected->elf_class, !=, 0);
  g_assert_true (have_exec_section);
  g_assert_true (have_vaddr);
  return g_steal_pointer (&expected);
}

static const NmSymbol *
expected_symbol (Expected   *expected,
                 const char *name)
{
  const NmSymbol *symbol = g_hash_table_lookup (expected->symbols, name);

  if (symbol == NULL)
    g_error ("nm does not list %s", name);
  return symbol;
}

/* Sysroots */

typedef struct
{
  char             *sysroot;
  PsSymbolResolver *resolver;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->sysroot = g_dir_make_tmp ("perfscope-sysroot-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->resolver = ps_symbol_resolver_new (fixture->sysroot);
}

static void
remove_tree (const char *path)
{
  GDir *dir;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_rmdir (path);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_pointer (&fixture->resolver, ps_symbol_resolver_free);
  remove_tree (fixture->sysroot);
  g_free (fixture->sysroot);
}

/* Copies a built file to <sysroot>/<relative_path>; returns the copy's path */
static char *
install (Fixture    *fixture,
         const char *built_name,
         const char *relative_path)
{
  g_autofree char *source = g_test_build_filename (G_TEST_BUILT, built_name, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *dir = NULL;
  char *target = g_build_filename (fixture->sysroot, relative_path, NULL);
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_file_get_contents (source, &contents, &length, &error);
  g_assert_no_error (error);
  dir = g_path_get_dirname (target);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (target, contents, length, &error);
  g_assert_no_error (error);
  return target;
}

static PsElfImage *
get_image (Fixture    *fixture,
           const char *recorded_path)
{
  g_autoptr(GError) error = NULL;
  PsElfImage *image = ps_symbol_resolver_get_image (fixture->resolver, recorded_path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (image);
  return image;
}

static gboolean
have_demangler (void)
{
  g_autofree char *demangled = ps_symbols_demangle ("_ZN6Widget4drawEv");

  return demangled != NULL;
}

/* The name a lookup gives for a C++ symbol */
static const char *
shown_name (const char *mangled,
            const char *demangled)
{
  return have_demangler () ? demangled : mangled;
}

static void
assert_params (PsElfImage *image,
               Expected   *expected)
{
  g_assert_cmpuint (ps_elf_image_get_elf_class (image), ==, expected->elf_class);
  g_assert_cmphex (ps_elf_image_get_vaddr (image), ==, expected->vaddr);
  g_assert_cmphex (ps_elf_image_get_start (image), ==, expected->start);
  g_assert_cmphex (ps_elf_image_get_end (image), ==, expected->end);
  g_assert_cmphex (ps_elf_image_get_entry (image), ==, expected->entry);
  g_assert_cmpstr (ps_elf_image_get_interpreter (image), ==, expected->interpreter);
  g_assert_cmpstr (ps_elf_image_get_build_id (image), ==, expected->build_id);
}

static void
assert_lookup (PsElfImage *image,
               guint64     address,
               const char *name,
               guint64     start)
{
  guint64 symbol_start = G_MAXUINT64;

  g_assert_cmpstr (ps_elf_image_lookup (image, address, &symbol_start), ==, name);
  g_assert_cmphex (symbol_start, ==, start);
}

/* The first and last byte of a function, and one in the middle */
static void
assert_function (PsElfImage *image,
                 Expected   *expected,
                 const char *nm_name,
                 const char *name)
{
  const NmSymbol *symbol = expected_symbol (expected, nm_name);

  g_assert_cmpuint (symbol->size, >, 0);
  assert_lookup (image, symbol->start, name, symbol->start);
  assert_lookup (image, symbol->start + symbol->size / 2, name, symbol->start);
  assert_lookup (image, symbol->start + symbol->size - 1, name, symbol->start);
}

/* Every function of fixture.c, static_helper only when .symtab was read */
static void
assert_all_functions (PsElfImage *image,
                      Expected   *expected,
                      gboolean    with_static)
{
  const NmSymbol *zero_sized = expected_symbol (expected, "fixture_zero_sized");
  const NmSymbol *after_zero_sized = expected_symbol (expected, "fixture_after_zero_sized");
  const NmSymbol *global_one = expected_symbol (expected, "fixture_global_one");
  const NmSymbol *static_helper = expected_symbol (expected, "fixture_static_helper");

  g_assert_true (ps_elf_image_has_symbols (image));
  assert_function (image, expected, "fixture_global_one", "fixture_global_one");
  assert_function (image, expected, "fixture_global_two", "fixture_global_two");
  assert_function (image, expected, "_ZN6Widget4drawEv",
                   shown_name ("_ZN6Widget4drawEv", "Widget::draw()"));
  assert_function (image, expected, "_ZN6Widget6resizeEii",
                   shown_name ("_ZN6Widget6resizeEii", "Widget::resize(int, int)"));
  assert_function (image, expected, "fixture_after_zero_sized", "fixture_after_zero_sized");
  if (with_static)
    assert_function (image, expected, "fixture_static_helper", "fixture_static_helper");
  else
    g_assert_null (ps_elf_image_lookup (image, static_helper->start, NULL));

  /* Without a size, up to the next symbol: its 32 bytes and any padding */
  g_assert_cmpuint (zero_sized->size, ==, 0);
  g_assert_cmpuint (after_zero_sized->start, >=, zero_sized->start + 32);
  assert_lookup (image, zero_sized->start, "fixture_zero_sized", zero_sized->start);
  assert_lookup (image, zero_sized->start + 31, "fixture_zero_sized", zero_sized->start);
  assert_lookup (image, after_zero_sized->start - 1, "fixture_zero_sized", zero_sized->start);

  /* The 64 unnamed bytes after fixture_global_one */
  g_assert_null (ps_elf_image_lookup (image, global_one->start + global_one->size, NULL));
  g_assert_null (ps_elf_image_lookup (image, global_one->start + global_one->size + 63, NULL));
  g_assert_cmpuint (static_helper->start, >=, global_one->start + global_one->size + 64);

  /* Outside every function */
  g_assert_null (ps_elf_image_lookup (image, 0, NULL));
  g_assert_null (ps_elf_image_lookup (image, ps_elf_image_get_end (image) + 0x100000, NULL));
  g_assert_null (ps_elf_image_lookup (image, G_MAXUINT64, NULL));
}

/* The tests */

static void
test_library (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  g_autofree char *file = NULL;
  PsElfImage *image;

  if (expected == NULL)
    return;
  file = install (fixture, "libfixture.so", "usr/lib/libfixture.so.1");
  image = get_image (fixture, "/usr/lib/libfixture.so.1");

  g_assert_cmpstr (ps_elf_image_get_recorded_path (image), ==, "/usr/lib/libfixture.so.1");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, file);
  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, file);
  g_assert_nonnull (expected->build_id);
  assert_params (image, expected);
  assert_all_functions (image, expected, TRUE);

  /* Asked again: the same image */
  g_assert_true (get_image (fixture, "/usr/lib/libfixture.so.1") == image);
}

/* A pc sampled with the library mapped at a FreeBSD-like address */
static void
test_lookup_pc (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  const guint64 load_address = G_GUINT64_CONSTANT (0x801200000);
  const NmSymbol *symbol;
  PsElfImage *image;
  guint64 pc;
  guint64 symbol_start = 0;

  if (expected == NULL)
    return;
  g_free (install (fixture, "libfixture.so", "lib/libfixture.so.1"));
  image = get_image (fixture, "/lib/libfixture.so.1");
  symbol = expected_symbol (expected, "fixture_global_two");

  /* specs: hwpmc-pmclog.md §8.1: the map covers [pi_start + bias,
   * pi_end + bias) with bias = L − pi_vaddr; offset = pc − L */
  pc = load_address + (symbol->start - ps_elf_image_get_vaddr (image)) + 3;
  g_assert_cmpstr (ps_elf_image_lookup_pc (image, load_address, pc, &symbol_start), ==, "fixture_global_two");
  g_assert_cmphex (symbol_start, ==, symbol->start);
  g_assert_null (ps_elf_image_lookup_pc (image, load_address, load_address - 1, NULL));
}

static void
test_demangle (void)
{
  g_autofree char *draw = NULL;
  g_autofree char *resize = NULL;
  g_autofree char *bad = NULL;

  /* Not C++ names: never touched */
  g_assert_null (ps_symbols_demangle ("fixture_global_one"));
  g_assert_null (ps_symbols_demangle ("Z3foov"));
  g_assert_null (ps_symbols_demangle (NULL));

  if (!have_demangler ())
    {
      g_test_skip ("No C++ runtime with __cxa_demangle here: names stay mangled");
      return;
    }
  draw = ps_symbols_demangle ("_ZN6Widget4drawEv");
  resize = ps_symbols_demangle ("_ZN6Widget6resizeEii");
  bad = ps_symbols_demangle ("_Z!!not-mangled");
  g_assert_cmpstr (draw, ==, "Widget::draw()");
  g_assert_cmpstr (resize, ==, "Widget::resize(int, int)");
  g_assert_null (bad);
}

/* The stripped library alone: .dynsym only, so no static function */
static void
test_stripped (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  g_autofree char *file = NULL;
  PsElfImage *image;

  if (expected == NULL)
    return;
  file = install (fixture, "libfixture-stripped.so", "usr/lib/libfixture.so.1");
  image = get_image (fixture, "/usr/lib/libfixture.so.1");

  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, file);
  assert_params (image, expected);
  assert_all_functions (image, expected, FALSE);
}

typedef enum
{
  DEBUG_BY_BUILD_ID,
  DEBUG_BY_PATH,
  DEBUG_BY_LINK_NEXT_TO,
  DEBUG_BY_LINK_DOT_DEBUG,
  DEBUG_BY_LINK_UNDER_DEBUG,
} DebugLayout;

static char *
debug_file_path (Expected    *expected,
                 DebugLayout  layout)
{
  switch (layout)
    {
    case DEBUG_BY_BUILD_ID:
      {
        g_autofree char *head = g_strndup (expected->build_id, 2);
        g_autofree char *rest = g_strconcat (expected->build_id + 2, ".debug", NULL);

        return g_build_filename ("usr/lib/debug/.build-id", head, rest, NULL);
      }
    case DEBUG_BY_PATH:
      return g_strdup ("usr/lib/debug/usr/lib/libfixture.so.1.debug");
    case DEBUG_BY_LINK_NEXT_TO:
      return g_strdup ("usr/lib/fixture-debuglink.debug");
    case DEBUG_BY_LINK_DOT_DEBUG:
      return g_strdup ("usr/lib/.debug/fixture-debuglink.debug");
    case DEBUG_BY_LINK_UNDER_DEBUG:
      return g_strdup ("usr/lib/debug/usr/lib/fixture-debuglink.debug");
    default:
      g_assert_not_reached ();
    }
}

/* The stripped library takes its symbols from the one debug file there is */
static void
test_debug_file (Fixture       *fixture,
                 gconstpointer  data)
{
  DebugLayout layout = GPOINTER_TO_INT (data);
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  g_autofree char *debug_relative = NULL;
  g_autofree char *debug_file = NULL;
  PsElfImage *image;

  if (expected == NULL)
    return;
  g_assert_nonnull (expected->build_id);
  g_free (install (fixture, "libfixture-stripped.so", "usr/lib/libfixture.so.1"));
  debug_relative = debug_file_path (expected, layout);
  debug_file = install (fixture, "fixture-debuglink.debug", debug_relative);
  image = get_image (fixture, "/usr/lib/libfixture.so.1");

  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, debug_file);
  /* The debug file's sections say nothing about the image's layout */
  assert_params (image, expected);
  assert_all_functions (image, expected, TRUE);
}

/* Build-id first, then the path, then the debug link */
static void
test_debug_order (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  g_autofree char *by_build_id = NULL;
  g_autofree char *by_path = NULL;
  g_autofree char *by_link = NULL;
  g_autofree char *relative = NULL;
  g_autoptr(PsSymbolResolver) second = NULL;
  g_autoptr(PsSymbolResolver) third = NULL;
  g_autoptr(GError) error = NULL;
  PsElfImage *image;

  if (expected == NULL)
    return;
  g_free (install (fixture, "libfixture-stripped.so", "usr/lib/libfixture.so.1"));
  relative = debug_file_path (expected, DEBUG_BY_BUILD_ID);
  by_build_id = install (fixture, "fixture-debuglink.debug", relative);
  g_clear_pointer (&relative, g_free);
  relative = debug_file_path (expected, DEBUG_BY_PATH);
  by_path = install (fixture, "fixture-debuglink.debug", relative);
  g_clear_pointer (&relative, g_free);
  relative = debug_file_path (expected, DEBUG_BY_LINK_NEXT_TO);
  by_link = install (fixture, "fixture-debuglink.debug", relative);

  image = get_image (fixture, "/usr/lib/libfixture.so.1");
  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, by_build_id);

  g_assert_cmpint (g_unlink (by_build_id), ==, 0);
  second = ps_symbol_resolver_new (fixture->sysroot);
  image = ps_symbol_resolver_get_image (second, "/usr/lib/libfixture.so.1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, by_path);

  g_assert_cmpint (g_unlink (by_path), ==, 0);
  third = ps_symbol_resolver_new (fixture->sysroot);
  image = ps_symbol_resolver_get_image (third, "/usr/lib/libfixture.so.1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, by_link);
}

/* A debug file of another build (here: the executable) is not used */
static void
test_debug_mismatch (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  g_autoptr(Expected) program = load_expected ("fixture-program");
  g_autofree char *file = NULL;
  PsElfImage *image;

  if (expected == NULL || program == NULL)
    return;
  g_assert_cmpstr (program->build_id, !=, expected->build_id);
  file = install (fixture, "libfixture-stripped.so", "usr/lib/libfixture.so.1");
  g_free (install (fixture, "fixture-program", "usr/lib/debug/usr/lib/libfixture.so.1.debug"));
  image = get_image (fixture, "/usr/lib/libfixture.so.1");

  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, file);
  assert_all_functions (image, expected, FALSE);
}

static void
test_program (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("fixture-program");
  PsElfImage *image;

  if (expected == NULL)
    return;
  g_free (install (fixture, "fixture-program", "usr/bin/fixture-program"));
  image = get_image (fixture, "/usr/bin/fixture-program");

  g_assert_nonnull (expected->interpreter);
  g_assert_cmphex (expected->entry, !=, 0);
  assert_params (image, expected);
  assert_all_functions (image, expected, TRUE);
  assert_function (image, expected, "main", "main");
}

static void
test_elf32 (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(Expected) expected = NULL;
  PsElfImage *image;

  expected = load_expected ("libfixture32.so");
  if (expected == NULL)
    return;
  g_free (install (fixture, "libfixture32.so", "usr/lib32/libfixture.so.1"));
  image = get_image (fixture, "/usr/lib32/libfixture.so.1");

  g_assert_cmpuint (expected->elf_class, ==, 32);
  assert_params (image, expected);
  assert_all_functions (image, expected, TRUE);
}

/* Kernel modules recorded by bare name */
static void
test_kernel_module (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  g_autofree char *in_kernel = NULL;
  g_autofree char *in_modules = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *debug = NULL;
  PsElfImage *image;

  if (expected == NULL)
    return;
  in_kernel = install (fixture, "libfixture.so", "boot/kernel/if_fixture.ko");
  in_modules = install (fixture, "libfixture.so", "boot/modules/extra.ko");
  stripped = install (fixture, "libfixture-stripped.so", "boot/kernel/if_stripped.ko");
  debug = install (fixture, "fixture-debuglink.debug", "usr/lib/debug/boot/kernel/if_stripped.ko.debug");

  image = get_image (fixture, "if_fixture.ko");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, in_kernel);
  assert_function (image, expected, "fixture_global_one", "fixture_global_one");

  image = get_image (fixture, "/boot/kernel/if_fixture.ko");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, in_kernel);

  image = get_image (fixture, "extra.ko");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, in_modules);

  /* FreeBSD's /usr/lib/debug/boot/kernel/<module>.debug */
  image = get_image (fixture, "if_stripped.ko");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, stripped);
  g_assert_cmpstr (ps_elf_image_get_symbol_file (image), ==, debug);
  assert_function (image, expected, "fixture_static_helper", "fixture_static_helper");
}

/* Links inside the sysroot are those of the FreeBSD machine */
static void
test_symlinks (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(Expected) expected = load_expected ("libfixture.so");
  g_autofree char *file = NULL;
  g_autofree char *absolute_link = NULL;
  g_autofree char *relative_link = NULL;
  g_autofree char *dir_link = NULL;
  g_autofree char *usr_lib = NULL;
  PsElfImage *image;

  if (expected == NULL)
    return;
  file = install (fixture, "libfixture.so", "lib/libfixture.so.1");
  absolute_link = g_build_filename (fixture->sysroot, "usr", "lib", "libfixture.so", NULL);
  relative_link = g_build_filename (fixture->sysroot, "lib", "libfixture.so", NULL);
  dir_link = g_build_filename (fixture->sysroot, "compat", NULL);
  usr_lib = g_path_get_dirname (absolute_link);
  g_assert_cmpint (g_mkdir_with_parents (usr_lib, 0755), ==, 0);
  g_assert_cmpint (symlink ("/lib/libfixture.so.1", absolute_link), ==, 0);
  g_assert_cmpint (symlink ("libfixture.so.1", relative_link), ==, 0);
  g_assert_cmpint (symlink ("/usr", dir_link), ==, 0);

  image = get_image (fixture, "/usr/lib/libfixture.so");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, file);
  image = get_image (fixture, "/lib/libfixture.so");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, file);
  image = get_image (fixture, "/compat/lib/libfixture.so");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, file);

  /* ".." stops at the sysroot */
  image = get_image (fixture, "/../../../lib/./libfixture.so.1");
  g_assert_cmpstr (ps_elf_image_get_file (image), ==, file);
}

static void
test_errors (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(PsSymbolResolver) no_sysroot = ps_symbol_resolver_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text_file = NULL;
  g_autofree char *empty_file = NULL;
  g_autofree char *not_found_message = NULL;
  g_autofree char *etc = NULL;

  g_assert_null (ps_symbol_resolver_get_sysroot (no_sysroot));
  g_assert_null (ps_symbol_resolver_get_image (no_sysroot, "/lib/libc.so.7", &error));
  g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NO_SYSROOT);
  g_clear_error (&error);

  g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "/lib/libc.so.7", &error));
  g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/lib/libc.so.7"));
  g_assert_nonnull (strstr (error->message, fixture->sysroot));
  not_found_message = g_strdup (error->message);
  g_clear_error (&error);

  /* Failures are remembered: the same answer though the file is there now */
  g_free (install (fixture, "libfixture.so", "lib/libc.so.7"));
  g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "/lib/libc.so.7", &error));
  g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, not_found_message);
  g_clear_error (&error);
  /* …and without a GError */
  g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "/lib/libc.so.7", NULL));

  g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "if_none.ko", &error));
  g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "boot/kernel"));
  g_clear_error (&error);

  text_file = g_build_filename (fixture->sysroot, "etc", "rc.conf", NULL);
  etc = g_path_get_dirname (text_file);
  g_assert_cmpint (g_mkdir_with_parents (etc, 0755), ==, 0);
  g_file_set_contents (text_file, "hostname=\"bsd\"\n", -1, &error);
  g_assert_no_error (error);
  g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "/etc/rc.conf", &error));
  g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_ELF);
  g_assert_nonnull (strstr (error->message, "is not an ELF file"));
  g_assert_nonnull (strstr (error->message, text_file));
  g_clear_error (&error);

  empty_file = g_build_filename (fixture->sysroot, "etc", "empty", NULL);
  g_file_set_contents (empty_file, "", 0, &error);
  g_assert_no_error (error);
  g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "/etc/empty", &error));
  g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_ELF);
  g_clear_error (&error);

  g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "/etc", &error));
  g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_NOT_REGULAR_FILE);
  g_clear_error (&error);

  /* An ELF file that is not a program: a core dump's type */
  {
    g_autofree char *contents = NULL;
    g_autofree char *core = NULL;
    gsize length = 0;

    core = install (fixture, "libfixture.so", "var/core");
    g_file_get_contents (core, &contents, &length, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (length, >, 18);
    /* e_type at offset 16, in the file's byte order (byte 5: 1 = LSB) */
    contents[contents[5] == 1 ? 16 : 17] = 4;
    contents[contents[5] == 1 ? 17 : 16] = 0;
    g_file_set_contents (core, contents, length, &error);
    g_assert_no_error (error);
    g_assert_null (ps_symbol_resolver_get_image (fixture->resolver, "/var/core", &error));
    g_assert_error (error, PS_SYMBOL_ERROR, PS_SYMBOL_ERROR_INVALID);
    g_clear_error (&error);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/symbols/library", Fixture, NULL, fixture_setup, test_library, fixture_teardown);
  g_test_add ("/symbols/lookup-pc", Fixture, NULL, fixture_setup, test_lookup_pc, fixture_teardown);
  g_test_add_func ("/symbols/demangle", test_demangle);
  g_test_add ("/symbols/stripped", Fixture, NULL, fixture_setup, test_stripped, fixture_teardown);
  g_test_add ("/symbols/debug/build-id", Fixture, GINT_TO_POINTER (DEBUG_BY_BUILD_ID),
              fixture_setup, test_debug_file, fixture_teardown);
  g_test_add ("/symbols/debug/path", Fixture, GINT_TO_POINTER (DEBUG_BY_PATH),
              fixture_setup, test_debug_file, fixture_teardown);
  g_test_add ("/symbols/debug/link-next-to", Fixture, GINT_TO_POINTER (DEBUG_BY_LINK_NEXT_TO),
              fixture_setup, test_debug_file, fixture_teardown);
  g_test_add ("/symbols/debug/link-dot-debug", Fixture, GINT_TO_POINTER (DEBUG_BY_LINK_DOT_DEBUG),
              fixture_setup, test_debug_file, fixture_teardown);
  g_test_add ("/symbols/debug/link-under-debug", Fixture, GINT_TO_POINTER (DEBUG_BY_LINK_UNDER_DEBUG),
              fixture_setup, test_debug_file, fixture_teardown);
  g_test_add ("/symbols/debug/order", Fixture, NULL, fixture_setup, test_debug_order, fixture_teardown);
  g_test_add ("/symbols/debug/mismatch", Fixture, NULL, fixture_setup, test_debug_mismatch, fixture_teardown);
  g_test_add ("/symbols/program", Fixture, NULL, fixture_setup, test_program, fixture_teardown);
  g_test_add ("/symbols/elf32", Fixture, NULL, fixture_setup, test_elf32, fixture_teardown);
  g_test_add ("/symbols/kernel-module", Fixture, NULL, fixture_setup, test_kernel_module, fixture_teardown);
  g_test_add ("/symbols/symlinks", Fixture, NULL, fixture_setup, test_symlinks, fixture_teardown);
  g_test_add ("/symbols/errors", Fixture, NULL, fixture_setup, test_errors, fixture_teardown);

  return g_test_run ();
}

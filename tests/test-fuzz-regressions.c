/* test-fuzz-regressions.c — every fuzz target over its seeds and over the
 * inputs the fuzzers once broke it with
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 12 ("Fuzzing"). Each input goes through ps_fuzz_run () as the
 * fuzzers give it: whole and in random pieces, which must read alike,
 * then through the analyses. tests/fuzz/regressions/TARGET holds the
 * inputs of fixed findings (see tests/fuzz/README.md).
 */
#include "config.h"

#include <string.h>

#include "fuzz/ps-fuzz.h"
#include "fuzz/ps-fuzz-seeds.h"

static char *
source_root (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", NULL);
}

static void
test_seeds (gconstpointer data)
{
  const char *target = data;
  g_autofree char *root = source_root ();
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GPtrArray) seeds = ps_fuzz_seeds (target, root, &names);

  /* Every target has fixtures to start from */
  g_assert_cmpuint (seeds->len, >, 0);
  for (guint i = 0; i < seeds->len; i++)
    {
      gsize size;
      const guint8 *bytes = g_bytes_get_data (g_ptr_array_index (seeds, i), &size);

      g_test_message ("%s: %s (%zu bytes)", target, (const char *)g_ptr_array_index (names, i), size);
      ps_fuzz_run (target, bytes, size);
    }
}

static void
test_regressions (gconstpointer data)
{
  const char *target = data;
  g_autofree char *folder = g_test_build_filename (G_TEST_DIST, "fuzz", "regressions", target, NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  if (dir == NULL)
    {
      g_test_skip ("no findings kept for this target");
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autofree char *contents = NULL;
      gsize size;

      if (name[0] == '.' || strcmp (name, "README.md") == 0)
        continue;
      g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
      g_test_message ("%s: %s (%zu bytes)", target, name, size);
      ps_fuzz_run (target, (const guint8 *)contents, size);
      n++;
    }
  g_test_message ("%u findings replayed", n);
}

int
main (int   argc,
      char *argv[])
{
  const char * const *targets = ps_fuzz_targets ();

  g_test_init (&argc, &argv, NULL);
  ps_fuzz_init ();

  for (guint i = 0; targets[i] != NULL; i++)
    {
      g_autofree char *seeds = g_strdup_printf ("/fuzz/%s/seeds", targets[i]);
      g_autofree char *regressions = g_strdup_printf ("/fuzz/%s/regressions", targets[i]);

      g_test_add_data_func (seeds, targets[i], test_seeds);
      g_test_add_data_func (regressions, targets[i], test_regressions);
    }

  return g_test_run ();
}

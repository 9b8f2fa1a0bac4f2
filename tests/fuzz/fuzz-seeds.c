/* fuzz-seeds.c — writes the seed corpus of a fuzz target
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-seeds SOURCE_ROOT TARGET FOLDER: one file per seed
 * (ps-fuzz-seeds.h), for tests/fuzz/run.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ps-fuzz.h"
#include "ps-fuzz-seeds.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) seeds = NULL;
  g_autoptr(GPtrArray) names = NULL;

  if (argc != 4 || !ps_fuzz_has_target (argv[2]))
    {
      g_autofree char *targets = g_strjoinv (", ", (char **)ps_fuzz_targets ());

      fprintf (stderr, "Usage: fuzz-seeds SOURCE_ROOT TARGET FOLDER\nTargets: %s\n", targets);
      return 2;
    }

  g_mkdir_with_parents (argv[3], 0755);
  seeds = ps_fuzz_seeds (argv[2], argv[1], &names);
  for (guint i = 0; i < seeds->len; i++)
    {
      g_autofree char *base = g_strdelimit (g_strdup (g_ptr_array_index (names, i)), "/", '_');
      g_autofree char *path = g_build_filename (argv[3], base, NULL);
      gsize size;
      const char *data = g_bytes_get_data (g_ptr_array_index (seeds, i), &size);
      g_autoptr(GError) error = NULL;

      if (!g_file_set_contents (path, data, size, &error))
        {
          fprintf (stderr, "fuzz-seeds: %s\n", error->message);
          return 1;
        }
    }
  printf ("%u seeds for %s in %s\n", seeds->len, argv[2], argv[3]);
  return 0;
}

/* ps-fuzz-seeds.c — the first inputs of each fuzz target, from the tests'
 * fixtures
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "ps-format.h"
#include "ps-fuzz-seeds.h"
#include "ps-loader.h"
#include "ps-native-writer.h"
#include "ps-plv2.h"

typedef struct
{
  const char *target;
  const char *folder;   /* under the source root */
  const char *suffix;   /* of the file names taken */
} SeedFolder;

static const SeedFolder seed_folders[] = {
  { "ce-perflog", "tests/data/ce", ".log" },
  { "ce-perflog", "tests/data/diff", ".log" },
  { "ce-perflog", "data/demo", "CEPC_x86_6_0_3122.log" },
  { "rtl-logfile", "tests/data/rtl", ".log" },
  { "rtl-logfile", "tests/data/export", ".log" },
  { "rtl-logfile", "data/demo", "_4711.log" },
  { "hwpmc-pmclog", "data/demo", ".pmclog" },
  { "perflib-plv2", "tests/data/perflib-plv2", ".plv2" },
  { "perflib-plv2", "data/demo", ".plv2" },
  { "pdh-csv", "tests/data/pdh-csv", "" },
  { "pdh-csv", "data/demo", ".csv" },
  { "vs-report-csv", "tests/data/vs-report-csv", ".csv" },
  { "pmcstat-callgraph", "tests/data/pmcstat-callgraph", ".txt" },
};

static void
add_seed (GPtrArray  *seeds,
          GPtrArray  *names,
          GBytes     *bytes,
          char       *name)
{
  g_ptr_array_add (seeds, bytes);
  if (names != NULL)
    g_ptr_array_add (names, name);
  else
    g_free (name);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The files of target's format, in name order */
static void
add_files (const char  *target,
           const char  *source_root,
           GPtrArray   *seeds,
           GPtrArray   *names)
{
  for (guint i = 0; i < G_N_ELEMENTS (seed_folders); i++)
    {
      const SeedFolder *folder = &seed_folders[i];
      g_autofree char *path = NULL;
      g_autoptr(GDir) dir = NULL;
      g_autoptr(GPtrArray) files = NULL;
      const char *file;

      if (strcmp (folder->target, target) != 0)
        continue;
      path = g_build_filename (source_root, folder->folder, NULL);
      dir = g_dir_open (path, 0, NULL);
      if (dir == NULL)
        continue;
      files = g_ptr_array_new_with_free_func (g_free);
      while ((file = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (file, folder->suffix) && !g_str_has_suffix (file, ".md")
            && !g_str_has_suffix (file, ".gz") && strcmp (file, "LICENSE.txt") != 0)
          g_ptr_array_add (files, g_strdup (file));
      g_ptr_array_sort (files, compare_names);

      for (guint f = 0; f < files->len; f++)
        {
          g_autofree char *file_path = g_build_filename (path, g_ptr_array_index (files, f), NULL);
          /* A folder (expected-collapsed) does not map */
          g_autoptr(GMappedFile) mapped = g_mapped_file_new (file_path, FALSE, NULL);

          if (mapped != NULL)
            add_seed (seeds, names, g_mapped_file_get_bytes (mapped),
                      g_build_filename (folder->folder, g_ptr_array_index (files, f), NULL));
        }
    }
}

/* Every fixture of the other formats, loaded and saved as a native run */
static void
add_native (const char *source_root,
            GPtrArray  *seeds,
            GPtrArray  *names)
{
  const char * const *targets = (const char * const[]) {
    "ce-perflog", "rtl-logfile", "hwpmc-pmclog", "perflib-plv2", "pdh-csv",
    "vs-report-csv", "pmcstat-callgraph", NULL,
  };

  for (guint t = 0; targets[t] != NULL; t++)
    {
      g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
      g_autoptr(GPtrArray) file_names = g_ptr_array_new_with_free_func (g_free);

      add_files (targets[t], source_root, files, file_names);
      for (guint i = 0; i < files->len; i++)
        {
          g_autoptr(GInputStream) input = g_memory_input_stream_new_from_bytes (g_ptr_array_index (files, i));
          g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
          g_autoptr(PsEventStore) store = NULL;

          store = ps_load_stream (input, g_ptr_array_index (file_names, i),
                                  &(PsLoadParams) { .format = ps_format_lookup (targets[t]) }, NULL, NULL);
          if (store == NULL || !ps_native_write_stream (store, output, NULL, NULL)
              || !g_output_stream_close (output, NULL, NULL))
            continue;
          add_seed (seeds, names, g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (output)),
                    g_strconcat (g_ptr_array_index (file_names, i), ".perfscope", NULL));
        }
    }
}

typedef struct
{
  GPtrArray  *seeds;
  GPtrArray  *names;
  const char *file_name;
} BlockSeeds;

static void
add_block (BlockSeeds   *blocks,
           guint8        decoder,
           const guint8 *data,
           gsize         size,
           guint64       offset)
{
  guint8 *seed = g_malloc (size + 1);

  seed[0] = decoder;
  memcpy (seed + 1, data, size);
  add_seed (blocks->seeds, blocks->names, g_bytes_new_take (seed, size + 1),
            g_strdup_printf ("%s@%" G_GUINT64_FORMAT, blocks->file_name, offset));
}

/* Decoders: 0 a counter data buffer, 1 a counterset, 3 a query */
static gboolean
block_record (const PsPlv2Record *record,
              gpointer            user_data,
              GError            **error)
{
  BlockSeeds *blocks = user_data;

  switch (record->type & 0xffff)
    {
    case PS_PLV2_RECORD_SAMPLE:
      add_block (blocks, 0, record->body, record->body_size, record->offset);
      break;

    case PS_PLV2_RECORD_QUERY:
      add_block (blocks, 3, record->body, record->body_size, record->offset);
      break;

    case PS_PLV2_RECORD_COUNTERSET_REG:
      {
        PsPlv2RegIter iter;
        PsPlv2RegEntry entry;

        ps_plv2_reg_iter_init (&iter, record);
        while (ps_plv2_reg_iter_next (&iter, &entry, NULL))
          if (entry.request_code == 1)
            add_block (blocks, 1, entry.data, entry.data_size, record->offset);
      }
      break;

    default:
      break;
    }

  return TRUE;
}

static void
add_perflib_blocks (const char *source_root,
                    GPtrArray  *seeds,
                    GPtrArray  *names)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  g_autoptr(GPtrArray) file_names = g_ptr_array_new_with_free_func (g_free);
  const PsPlv2Callbacks callbacks = { NULL, block_record, NULL };

  add_files ("perflib-plv2", source_root, files, file_names);
  for (guint i = 0; i < files->len; i++)
    {
      BlockSeeds blocks = { seeds, names, g_ptr_array_index (file_names, i) };
      PsPlv2Reader *reader = ps_plv2_reader_new (&callbacks, &blocks);
      gsize size;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (files, i), &size);

      if (ps_plv2_reader_feed (reader, data, size, NULL))
        ps_plv2_reader_finish (reader, NULL);
      ps_plv2_reader_free (reader);
    }
}

GPtrArray *
ps_fuzz_seeds (const char  *target,
               const char  *source_root,
               GPtrArray  **names)
{
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  GPtrArray *seed_names = names != NULL ? g_ptr_array_new_with_free_func (g_free) : NULL;

  if (strcmp (target, "perfscope") == 0)
    add_native (source_root, seeds, seed_names);
  else if (strcmp (target, "perflib-block") == 0)
    add_perflib_blocks (source_root, seeds, seed_names);
  else
    add_files (target, source_root, seeds, seed_names);

  if (names != NULL)
    *names = seed_names;
  return seeds;
}

/* test-util.c — the engine's small helpers that the programs rely on
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The allocator's threshold for blocks of their own is checked through
 * glibc's own count of the bytes in such blocks (mallinfo2 ()'s hblkhd).
 * Under a sanitizer or another C library the allocator is not glibc's,
 * and the test is skipped.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "ps-util.h"

#if defined(__SANITIZE_ADDRESS__)
#define HAS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAS_SANITIZER 1
#endif
#endif

#define MIB (1024 * 1024)

/* After ps_util_tune_allocator () as the window calls it, blocks from
 * 16 MiB have mappings of their own even when a block of 24 MiB was
 * freed before: glibc's own
 * rule raises its threshold to the size of a mapped block freed (up to
 * 32 MiB), and would take them from a heap, where memory freed may stay
 * with the process. Blocks of a few MiB (a frame's drawing) still come
 * from the heaps, which keep their pages from one frame to the next. */
static void
test_tune_allocator (void)
{
#if defined(__GLIBC__) && !defined(HAS_SANITIZER) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  const gsize own_sizes[] = { 16 * MIB, 20 * MIB };
  guint8 *large;
  guint8 *block;
  gsize before;

  ps_util_tune_allocator (PS_UTIL_OWN_MAPPING_MIN_WINDOW);

  large = malloc (24 * MIB);
  g_assert_nonnull (large);
  memset (large, 1, 24 * MIB);
  free (large);

  for (guint i = 0; i < G_N_ELEMENTS (own_sizes); i++)
    {
      before = mallinfo2 ().hblkhd;
      block = malloc (own_sizes[i]);
      g_assert_nonnull (block);
      g_assert_cmpuint (mallinfo2 ().hblkhd - before, >=, own_sizes[i]);
      memset (block, 2, own_sizes[i]);
      free (block);
      /* Given back when freed */
      g_assert_cmpuint (mallinfo2 ().hblkhd, ==, before);
    }

  before = mallinfo2 ().hblkhd;
  block = malloc (4 * MIB);
  g_assert_nonnull (block);
  g_assert_cmpuint (mallinfo2 ().hblkhd, ==, before);
  free (block);
#else
  g_test_skip ("The allocator is not glibc's, or is wrapped by a sanitizer");
#endif
}

/* ps_util_alloc_filled () gives zeroed memory when asked, small or large */
static void
test_alloc_filled (void)
{
  const gsize sizes[] = { 16, 4096, PS_UTIL_POPULATE_MIN_BYTES - 1, PS_UTIL_POPULATE_MIN_BYTES,
                          3 * PS_UTIL_POPULATE_MIN_BYTES + 17 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      guint8 *memory = ps_util_alloc_filled (sizes[i], TRUE);

      g_assert_nonnull (memory);
      for (gsize b = 0; b < sizes[i]; b++)
        if (memory[b] != 0)
          g_error ("byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " is %u", b, sizes[i], memory[b]);
      memset (memory, 0xab, sizes[i]);
      g_free (memory);
    }
}

#if defined(__linux__) && defined(__GLIBC__) && !defined(HAS_SANITIZER)
#define ASKS_FOR_HUGE_PAGES 1

/* Whether the system's transparent huge pages are given where a program
 * asks for them (madvise), and only there */
static gboolean
huge_pages_on_request (void)
{
  g_autofree char *mode = NULL;

  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL))
    return FALSE;
  return strstr (mode, "[madvise]") != NULL;
}

/* The value of field (e.g. "THPeligible:") in /proc/self/smaps for the
 * mapping that holds address, or -1 */
static gint64
mapping_field (gconstpointer address,
               const char   *field)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return -1;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 begin, end;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x ", &begin, &end) == 2
          && strchr (lines[i], ':') != NULL && strchr (lines[i], '-') < strchr (lines[i], ' '))
        inside = (guintptr)address >= begin && (guintptr)address < end;
      else if (inside && g_str_has_prefix (lines[i], field))
        return g_ascii_strtoll (lines[i] + strlen (field), NULL, 10);
    }
  return -1;
}

#endif

/* An array filled whole from the size of a block of its own on may be
 * made of huge pages; one in a heap may not: there the system would make
 * huge pages of memory freed and reused piecemeal */
static void
test_populate_huge_pages (void)
{
#ifdef ASKS_FOR_HUGE_PAGES
  g_autofree guint8 *own = NULL;
  g_autofree guint8 *heap = NULL;

  if (!huge_pages_on_request ())
    {
      g_test_skip ("The system gives no huge pages on request");
      return;
    }
  ps_util_tune_allocator (PS_UTIL_OWN_MAPPING_MIN_WINDOW);
  own = ps_util_alloc_filled (PS_UTIL_OWN_MAPPING_MIN_WINDOW + 4 * MIB, TRUE);
  heap = ps_util_alloc_filled (4 * MIB, TRUE);
  g_assert_cmpint (mapping_field (own + 8 * MIB, "THPeligible:"), ==, 1);
  g_assert_cmpint (mapping_field (heap + 2 * MIB, "THPeligible:"), ==, 0);
  /* Still zeroed, and whole */
  g_assert_cmpuint (own[0] | own[PS_UTIL_OWN_MAPPING_MIN_WINDOW + 4 * MIB - 1], ==, 0);
#else
  g_test_skip ("Huge pages are asked for on Linux with glibc's allocator");
#endif
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/util/tune-allocator", test_tune_allocator);
  g_test_add_func ("/util/alloc-filled", test_alloc_filled);
  g_test_add_func ("/util/populate-huge-pages", test_populate_huge_pages);
  return g_test_run ();
}

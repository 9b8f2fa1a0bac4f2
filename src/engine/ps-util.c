/* ps-util.c
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* For MADV_POPULATE_WRITE and gettid (), which are not POSIX */
#define _GNU_SOURCE

#include "config.h"

#include <inttypes.h>

#include <math.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __linux__
#include <errno.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

#include "ps-number.h"
#include "ps-util.h"

char *
ps_util_display_text (const char *raw,
                      gssize      length)
{
  GString *out;

  if (raw == NULL)
    return g_strdup ("");
  if (length < 0)
    length = strlen (raw);

  if (g_utf8_validate_len (raw, length, NULL))
    return g_strndup (raw, length);

  out = g_string_sized_new (length + length / 4);
  for (gssize i = 0; i < length; i++)
    {
      guchar c = (guchar)raw[i];

      if (c == 0)
        continue;
      if (c < 0x80)
        g_string_append_c (out, c);
      else
        g_string_append_unichar (out, c);
    }

  return g_string_free (out, FALSE);
}

/* Windows-1252 0x80…0x9F */
static const gunichar2 cp1252_high[32] = {
  0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

void
ps_util_append_cp1252 (GString    *out,
                       const char *text,
                       gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar)text[i];

      if (c == 0)
        g_string_append_unichar (out, 0xFFFD);
      else if (c < 0x80)
        g_string_append_c (out, (char)c);
      else if (c < 0xA0)
        g_string_append_unichar (out, cp1252_high[c - 0x80]);
      else
        g_string_append_unichar (out, c);
    }
}

/* The length of the first bytes of text, at most `length`, that end at a
 * character boundary: a UTF-8 character is at most four bytes, so at
 * most three continuation bytes are given back (text[length] exists) */
static gsize
utf8_boundary (const char *text,
               gsize       length)
{
  for (guint i = 0; i < 3 && length > 0 && ((guchar)text[length] & 0xC0) == 0x80; i++)
    length--;
  return length;
}

void
ps_util_append_cut_name (GString    *out,
                         const char *name)
{
  g_autofree char *display = NULL;
  const char *text = name;
  gsize length;

  /* memchr stops at the first NUL (C11 §7.24.5.1): the name itself is
   * never read past its end */
  if (memchr (name, '\0', PS_UTIL_NAME_MAX_BYTES + 1) != NULL)
    {
      g_string_append (out, name);
      return;
    }

  length = utf8_boundary (name, PS_UTIL_NAME_MAX_BYTES);
  /* Bytes that are not UTF-8 would make "…" itself read as Latin-1 */
  if (!g_utf8_validate_len (name, length, NULL))
    {
      display = ps_util_display_text (name, PS_UTIL_NAME_MAX_BYTES);
      text = display;
      length = MIN (strlen (display), PS_UTIL_NAME_MAX_BYTES);
      length = utf8_boundary (display, length);
    }
  g_string_append_len (out, text, (gssize)length);
  g_string_append (out, "…");
}

/* Once an array has grown past its first piece, the next ones are
 * faulted in by one call rather than a page fault for every page the
 * appends reach, which on a large log costs as much as the appends
 * themselves; small inputs do not pay for pages they never use. */
gpointer
ps_util_alloc_for_filling (gsize    size,
                           gboolean populate,
                           gboolean zeroed)
{
  gpointer memory = zeroed ? g_malloc0 (size) : g_malloc (size);

  if (populate)
    ps_util_populate (memory, size);
  return memory;
}

gpointer
ps_util_alloc_filled (gsize    size,
                      gboolean zeroed)
{
  return ps_util_alloc_for_filling (size, size >= PS_UTIL_POPULATE_MIN_BYTES, zeroed);
}

#if defined (__linux__) && defined (MADV_HUGEPAGE)
#define ASKS_FOR_HUGE_PAGES 1
/* From how many bytes on a block has a mapping of its own
 * (ps_util_tune_allocator ()); G_MAXSIZE: not known */
static gsize own_mapping_min = G_MAXSIZE;
#endif

void
ps_util_populate (gpointer start,
                  gsize    size)
{
#if defined (__linux__) && defined (MADV_POPULATE_WRITE)
  const guintptr page = 4096;
  guintptr first = ((guintptr) start + page - 1) & ~(page - 1);
  guintptr end = ((guintptr) start + size) & ~(page - 1);

  if (end <= first)
    return;
#ifdef ASKS_FOR_HUGE_PAGES
  /* A range this large lies in a mapping of its own, which it fills:
   * there the pages may be huge ones (where the system lets a program
   * ask for them), one fault each instead of 512. Faulting in 180 MiB
   * took 0.36-0.75 s in a virtual machine, 0.04 s in huge pages. Not in
   * a heap, where the system would later make huge pages of what is
   * freed and reused piecemeal. */
  if (end - first >= own_mapping_min)
    madvise ((gpointer) first, end - first, MADV_HUGEPAGE);
#endif
  /* Fails harmlessly on kernels before 5.14: the pages then fault in */
  madvise ((gpointer) first, end - first, MADV_POPULATE_WRITE);
#else
  (void) start;
  (void) size;
#endif
}

char *
ps_util_format_double (double value)
{
  char buffer[PS_NUMBER_BUF];

  ps_number_format_double (value, buffer);
  return g_strdup (buffer);
}

char *
ps_util_format_seconds (double seconds)
{
  double magnitude = fabs (seconds);

  if (isnan (seconds))
    return g_strdup ("–");
  if (magnitude == 0)
    return g_strdup ("0 s");
  /* Three decimals in the unit: tables line up and keep 1 µs of 1 s */
  if (magnitude < 1e-6)
    return g_strdup_printf ("%.3f ns", seconds * 1e9);
  if (magnitude < 1e-3)
    return g_strdup_printf ("%.3f µs", seconds * 1e6);
  if (magnitude < 1)
    return g_strdup_printf ("%.3f ms", seconds * 1e3);
  return g_strdup_printf ("%.3f s", seconds);
}

char *
ps_util_format_bytes (double bytes)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  double value = bytes;
  guint unit = 0;

  while (fabs (value) >= 1024 && unit + 1 < G_N_ELEMENTS (units))
    {
      value /= 1024;
      unit++;
    }

  if (unit == 0)
    return g_strdup_printf ("%.0f %s", value, units[unit]);
  return g_strdup_printf ("%.1f %s", value, units[unit]);
}

char *
ps_util_format_count (guint64 count)
{
  return g_strdup_printf ("%'" PRIu64, count);
}

const char *
ps_util_localedir (void)
{
  const char *localedir = g_getenv ("PERFSCOPE_LOCALEDIR");

  return localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR;
}

void
ps_util_tune_allocator (gsize own_mapping_min_bytes)
{
#ifdef __GLIBC__
  /* glibc raises its threshold for mapping a block on its own to the size
   * of each mapped block freed, up to 32 MiB, and keeps twice as much
   * free at the top of a heap. After the first large temporary array of
   * an analysis, arrays of up to 32 MiB then came from the heaps of the
   * threads that made them, and what was freed stayed with the process:
   * at 1 GiB of log the window kept 70-80 MiB more that way. A fixed
   * threshold keeps it where it is. */
  (void)mallopt (M_MMAP_THRESHOLD, (int)MIN (own_mapping_min_bytes, (gsize)G_MAXINT));
#ifdef ASKS_FOR_HUGE_PAGES
  own_mapping_min = MIN (own_mapping_min_bytes, (gsize)G_MAXINT);
#endif
#else
  (void)own_mapping_min_bytes;
#endif
}

/* How nice a thread that works in the background for a window is: the
 * scheduler gives a thread of nice 0 about ten times its share */
#define BACKGROUND_NICE 10

void
ps_util_lower_thread_priority (void)
{
#ifdef __linux__
  /* Linux's nice is the thread's own (and inherited by the threads it
   * starts); only raised, which needs no privilege */
  id_t tid = (id_t)gettid ();
  int current;

  errno = 0;
  current = getpriority (PRIO_PROCESS, tid);
  if (errno == 0 && current < BACKGROUND_NICE)
    (void)setpriority (PRIO_PROCESS, tid, BACKGROUND_NICE);
#endif
}

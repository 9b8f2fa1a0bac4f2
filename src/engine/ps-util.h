/* ps-util.h — small helpers shared by the engine, the CLI and the app
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Little-endian loads, byte by byte: any alignment, any host (the PerfLib
 * buffers and the PLV2 container) */
static inline guint16
ps_util_load_le16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static inline guint32
ps_util_load_le32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static inline guint64
ps_util_load_le64 (const guint8 *p)
{
  return (guint64) ps_util_load_le32 (p) | ((guint64) ps_util_load_le32 (p + 4) << 32);
}

/* Valid UTF-8 for display: the text itself if it is valid UTF-8, else each
 * byte read as Latin-1 (specs: ce-perflog.md §7 #28). */
char *ps_util_display_text     (const char *raw,
                                gssize      length);
/* Appends `length` bytes of Windows-1252 text to out as UTF-8: 0x80…0x9F
 * through the code page (its five unassigned bytes as the C1 controls of
 * the same number, as Windows does), 0xA0…0xFF as Latin-1, and a NUL byte
 * as U+FFFD, so the result holds no NUL. */
void  ps_util_append_cp1252    (GString    *out,
                                const char *text,
                                gsize       length);
/* The longest name written where a name repeats once per call path or
 * stack (folded lines, call-tree nodes, stack frames): one function with
 * a name of a megabyte and a million callers would otherwise write a
 * terabyte from a few megabytes. */
#define PS_UTIL_NAME_MAX_BYTES 1024
/* Appends name to out; one longer than PS_UTIL_NAME_MAX_BYTES bytes is
 * cut at the last UTF-8 character boundary at or below that many bytes,
 * shown as ps_util_display_text () shows it, and followed by "…"
 * (U+2026). Reads at most PS_UTIL_NAME_MAX_BYTES + 1 bytes of name, so
 * the cost does not grow with its length either. */
void  ps_util_append_cut_name  (GString    *out,
                                const char *name);
/* "12.300 ms", "1.204 s", "850.000 ns": a duration in seconds with a fitting unit, three decimals */
/* Where the programs' translations are: $PERFSCOPE_LOCALEDIR when set
 * (meson devenv points it at the build tree's), else the installed ones */
const char *ps_util_localedir  (void);
char *ps_util_format_seconds   (double      seconds);
/* "9.6 MiB" with the exact unit chosen by size */
char *ps_util_format_bytes     (double      bytes);
/* A count with the locale's digit grouping ("1,234,567") */
char *ps_util_format_count     (guint64     count);
/* Locale-independent shortest round-trip text of a double ("0.0102"),
 * ps_number_format_double () in a new string */
char *ps_util_format_double    (double      value);

/* Memory of size bytes (zeroed with zeroed) that will be filled from
 * start to end: with populate, all its pages are faulted in at once */
gpointer ps_util_alloc_for_filling (gsize    size,
                                    gboolean populate,
                                    gboolean zeroed);

/* Memory of size bytes (zeroed with zeroed) that will be filled whole,
 * in any order: faulted in at once from PS_UTIL_POPULATE_MIN_BYTES on.
 * At 256 MiB of log, a page fault at a time took a third of the time
 * of filling such arrays; small ones do not pay for the call. */
#define PS_UTIL_POPULATE_MIN_BYTES (1u << 20)
gpointer ps_util_alloc_filled (gsize    size,
                               gboolean zeroed);

/* Faults in the whole pages of size bytes from start at once, ahead of
 * appends that will write them; in huge pages, where the system gives
 * them on request, when the range is as large as a block that has a
 * mapping of its own (ps_util_tune_allocator ()) */
void     ps_util_populate (gpointer start,
                           gsize    size);

/* Has the C library's allocator give blocks from own_mapping_min_bytes
 * on their own mappings, returned to the system when freed, instead of
 * taking them from the heaps where freed memory may stay. Called once at
 * start, by the programs, with one of the sizes below. */
void     ps_util_tune_allocator (gsize own_mapping_min_bytes);

/* For a program that draws nothing: an array that grows is then moved
 * by remapping its pages, and leaves no hole behind (from 1 MiB on; at
 * 16 MiB a PerfLib V2 capture of 3 MB of many instances peaked at 59 MiB
 * instead of 53). */
#define PS_UTIL_OWN_MAPPING_MIN_HEADLESS ((gsize)1 << 20)
/* For the window: a frame's drawing of a chart (a surface of 1-9 MB for
 * a window of up to 1920x1080) stays below it. Mapped afresh for each
 * frame, its pages would be faulted in again every time (8 ms a surface
 * of 3 MB on the development machine, against 0.05 ms when the heap has
 * it). What a heap keeps free at its top stays glibc's 128 KiB: keeping
 * as much as the threshold held 10-35 MiB more at 1 GiB of log. */
#define PS_UTIL_OWN_MAPPING_MIN_WINDOW ((gsize)16 << 20)

/* Lowers the calling thread's priority, for work done in the background
 * for a window: when every core is busy, the thread that answers input
 * and draws gets one first, and waits tens of milliseconds less. Threads
 * it then starts inherit it. Only on Linux; nothing where refused. */
void     ps_util_lower_thread_priority (void);

/* A 64-bit finalizer (murmur3's fmix64): every input bit moves every
 * output bit, for hash tables keyed by ids and addresses */
static inline guint64
ps_util_mix64 (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  key ^= key >> 33;
  return key;
}

/* a + b and a − b held to the range of gint64, for times and durations
 * that damaged input can make as large as it likes */
static inline gint64
ps_util_add_saturated (gint64 a,
                       gint64 b)
{
  gint64 sum;

  if (!__builtin_add_overflow (a, b, &sum))
    return sum;
  return b > 0 ? G_MAXINT64 : G_MININT64;
}

static inline gint64
ps_util_sub_saturated (gint64 a,
                       gint64 b)
{
  gint64 difference;

  if (!__builtin_sub_overflow (a, b, &difference))
    return difference;
  return b < 0 ? G_MAXINT64 : G_MININT64;
}

/* Seconds and nanoseconds (0 … 999 999 999) since 1970 as nanoseconds;
 * FALSE when that does not fit in 64 bits (before 1677 or after 2262) */
static inline gboolean
ps_util_unix_ns (gint64  seconds,
                 gint64  nanoseconds,
                 gint64 *out_ns)
{
  gint64 ns;

  if (nanoseconds < 0 || nanoseconds >= G_GINT64_CONSTANT (1000000000)
      || __builtin_mul_overflow (seconds, G_GINT64_CONSTANT (1000000000), &ns)
      || __builtin_add_overflow (ns, nanoseconds, &ns))
    return FALSE;
  *out_ns = ns;
  return TRUE;
}

/* For loops over millions of events: whether cancellable (may be NULL) is
 * cancelled, looked at once every 65 536 steps (a few milliseconds) */
static inline gboolean
ps_util_stop_at (guint64       step,
                 GCancellable *cancellable)
{
  return (step & 0xFFFF) == 0 && g_cancellable_is_cancelled (cancellable);
}

G_END_DECLS

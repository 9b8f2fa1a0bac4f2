/* test-pmclog-reader.c — the hwpmc pmclog reader against its specification
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §10 (the worked bytes), §12 (the cases a parser
 * must survive, numbered in the test names), §1.7 (address width), §1.8
 * (the container), §2 (PROCEXEC layouts), §4.6 (PMCALLOCATEDYN), §4.9
 * (multipart callchains). Logs are made with tests/pmclog-writer.c, which
 * shares no code with the reader; the §10 test pins its bytes.
 *
 * Decoded records are compared as text lines that name every field, so
 * an expected line is an assertion on every value of a record.
 */
#include "config.h"

#include <string.h>

#include "ps-error.h"
#include "ps-pmclog.h"
#include "pmclog-writer.h"

#define MODERN_10 0x0A000000u
#define MODERN_9  0x09030000u
#define LEGACY_3  0x03010000u

/* Collecting */

typedef struct
{
  GString   *lines;        /* records and warnings */
  GPtrArray *records;      /* record lines only */
  GPtrArray *warnings;     /* "CODE@offset" */
  guint      stop_after;   /* 0: never stop */
  PsPmclogReader *reader;  /* for the re-entrancy test */
} Collector;

static void
append_hex_list (GString       *out,
                 const guint64 *values,
                 guint          n)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s0x%" G_GINT64_MODIFIER "x", i ? "," : "", values[i]);
  g_string_append_c (out, ']');
}

static char *
describe (const PsPmclogRecord *r)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s #%" G_GUINT64_FORMAT " @%" G_GUINT64_FORMAT " len=%u raw=%u flags=0x%x ",
                          ps_pmclog_type_to_string (r->type), r->number, r->offset,
                          r->length, r->raw_type, r->flags);
  if (r->type != PS_PMCLOG_CONTAINER_INFO)
    {
      if (r->has_tsc)
        g_string_append_printf (out, "tsc=0x%" G_GINT64_MODIFIER "x", r->tsc);
      else
        g_string_append_printf (out, "time=%u.%u", r->seconds, r->nanoseconds);
    }

  switch (r->type)
    {
    case PS_PMCLOG_INITIALIZE:
      g_string_append_printf (out, " version=0x%08x cputype=0x%x tsc_freq=%" G_GUINT64_FORMAT " wall=%d:%" G_GINT64_FORMAT ".%" G_GINT64_FORMAT " cpuid='%s'",
                              r->u.initialize.version, r->u.initialize.cputype,
                              r->u.initialize.tsc_freq, r->u.initialize.has_wallclock,
                              r->u.initialize.wall_seconds, r->u.initialize.wall_nanoseconds,
                              r->u.initialize.cpuid);
      break;
    case PS_PMCLOG_CALLCHAIN:
    case PS_PMCLOG_PCSAMPLE:
      g_string_append_printf (out, " pid=%u tid=%u pmcid=0x%x cpu=%u cpuflags=0x%x n=%u pcs=",
                              r->u.callchain.pid, r->u.callchain.tid, r->u.callchain.pmcid,
                              r->u.callchain.cpu, r->u.callchain.cpuflags, r->u.callchain.n_pcs);
      if (r->u.callchain.n_pcs <= 8)
        append_hex_list (out, r->u.callchain.pcs, r->u.callchain.n_pcs);
      else
        {
          guint64 sum = 0;

          for (guint i = 0; i < r->u.callchain.n_pcs; i++)
            sum = sum * 31 + r->u.callchain.pcs[i];
          g_string_append_printf (out, "hash:0x%" G_GINT64_MODIFIER "x", sum);
        }
      if (r->u.callchain.n_parts > 0)
        {
          g_string_append (out, " parts=");
          for (guint i = 0; i < r->u.callchain.n_parts; i++)
            {
              g_string_append_printf (out, "%u:%u", r->u.callchain.parts[i].type, r->u.callchain.parts[i].length);
              append_hex_list (out, r->u.callchain.parts[i].values, r->u.callchain.parts[i].length);
            }
        }
      break;
    case PS_PMCLOG_MAP_IN:
      g_string_append_printf (out, " pid=%u start=0x%" G_GINT64_MODIFIER "x path='%s'",
                              r->u.map_in.pid, r->u.map_in.start, r->u.map_in.path);
      break;
    case PS_PMCLOG_MAP_OUT:
      g_string_append_printf (out, " pid=%u start=0x%" G_GINT64_MODIFIER "x end=0x%" G_GINT64_MODIFIER "x",
                              r->u.map_out.pid, r->u.map_out.start, r->u.map_out.end);
      break;
    case PS_PMCLOG_PMCALLOCATE:
    case PS_PMCLOG_PMCALLOCATEDYN:
      g_string_append_printf (out, " pmcid=0x%x event=0x%x flags=0x%x rate=%" G_GUINT64_FORMAT " name=%s%s%s",
                              r->u.allocate.pmcid, r->u.allocate.event, r->u.allocate.flags,
                              r->u.allocate.rate,
                              r->u.allocate.name ? "'" : "",
                              r->u.allocate.name ? r->u.allocate.name : "NULL",
                              r->u.allocate.name ? "'" : "");
      break;
    case PS_PMCLOG_PMCATTACH:
    case PS_PMCLOG_PMCDETACH:
      g_string_append_printf (out, " pmcid=0x%x pid=%u path=%s", r->u.attach.pmcid, r->u.attach.pid,
                              r->u.attach.path ? r->u.attach.path : "NULL");
      break;
    case PS_PMCLOG_PROCCSW:
      g_string_append_printf (out, " pmcid=0x%x pid=%u tid=%u value=0x%" G_GINT64_MODIFIER "x",
                              r->u.proccsw.pmcid, r->u.proccsw.pid, r->u.proccsw.tid, r->u.proccsw.value);
      break;
    case PS_PMCLOG_PROCEXEC:
      g_string_append_printf (out, " pid=%u pmcid=0x%x base=0x%" G_GINT64_MODIFIER "x dyn=%d:0x%" G_GINT64_MODIFIER "x path='%s'",
                              r->u.procexec.pid, r->u.procexec.pmcid, r->u.procexec.base,
                              r->u.procexec.has_dyn, r->u.procexec.dyn, r->u.procexec.path);
      break;
    case PS_PMCLOG_PROCEXIT:
      g_string_append_printf (out, " pmcid=0x%x pid=%u value=0x%" G_GINT64_MODIFIER "x",
                              r->u.procexit.pmcid, r->u.procexit.pid, r->u.procexit.value);
      break;
    case PS_PMCLOG_PROCFORK:
      g_string_append_printf (out, " old=%u new=%u", r->u.procfork.old_pid, r->u.procfork.new_pid);
      break;
    case PS_PMCLOG_SYSEXIT:
      g_string_append_printf (out, " pid=%u", r->u.sysexit.pid);
      break;
    case PS_PMCLOG_USERDATA:
      g_string_append_printf (out, " value=0x%x", r->u.userdata.value);
      break;
    case PS_PMCLOG_THR_CREATE:
    case PS_PMCLOG_THR_EXIT:
    case PS_PMCLOG_PROC_CREATE:
      g_string_append_printf (out, " tid=%u pid=%u flags=0x%x name=%s", r->u.thread.tid, r->u.thread.pid,
                              r->u.thread.flags, r->u.thread.name ? r->u.thread.name : "NULL");
      break;
    case PS_PMCLOG_CONTAINER_INFO:
      g_string_append_printf (out, "cversion=%u arch=%u block=%u blen=%u",
                              r->u.container.version, r->u.container.architecture,
                              r->u.container.block_type, r->u.container.block_length);
      if (r->u.container.block_length > 0)
        g_string_append_printf (out, " first=0x%02x", r->u.container.payload[0]);
      if (r->u.container.cpu_model != NULL)
        g_string_append_printf (out, " model='%s' release='%s' build='%s'",
                                r->u.container.cpu_model, r->u.container.os_release,
                                r->u.container.build_id);
      break;
    case PS_PMCLOG_CLOSELOG:
    case PS_PMCLOG_DROPNOTIFY:
    case PS_PMCLOG_N_TYPES:
    default:
      break;
    }

  return g_string_free (out, FALSE);
}

static gboolean
on_record (const PsPmclogRecord *record,
           gpointer              user_data,
           GError              **error)
{
  Collector *c = user_data;
  char *line = describe (record);

  g_string_append_printf (c->lines, "%s\n", line);
  g_ptr_array_add (c->records, line);
  if (c->reader != NULL)
    {
      g_autoptr(GError) local_error = NULL;
      guint8 byte = 0;

      g_assert_false (ps_pmclog_reader_feed (c->reader, &byte, 1, &local_error));
      g_assert_error (local_error, PS_ERROR, PS_ERROR_FAILED);
    }
  if (c->stop_after != 0 && c->records->len >= c->stop_after)
    return FALSE;
  return TRUE;
}

static void
on_warning (const char *code,
            guint64     offset,
            const char *message,
            gpointer    user_data)
{
  Collector *c = user_data;

  g_assert_nonnull (message);
  g_string_append_printf (c->lines, "W %s@%" G_GUINT64_FORMAT "\n", code, offset);
  g_ptr_array_add (c->warnings, g_strdup_printf ("%s@%" G_GUINT64_FORMAT, code, offset));
}

static const PsPmclogCallbacks callbacks = { on_record, on_warning };

static void
collector_init (Collector *c)
{
  memset (c, 0, sizeof *c);
  c->lines = g_string_new (NULL);
  c->records = g_ptr_array_new_with_free_func (g_free);
  c->warnings = g_ptr_array_new_with_free_func (g_free);
}

static void
collector_clear (Collector *c)
{
  g_string_free (c->lines, TRUE);
  g_ptr_array_unref (c->records);
  g_ptr_array_unref (c->warnings);
}

static gboolean
has_warning (Collector  *c,
             const char *code_at)
{
  for (guint i = 0; i < c->warnings->len; i++)
    if (g_str_has_prefix (c->warnings->pdata[i], code_at))
      return TRUE;
  return FALSE;
}

/* Feeds data in pieces of `piece` bytes (0: one piece), then finishes.
 * Returns whether everything succeeded; error set otherwise. */
static gboolean
read_log_options (const guint8          *data,
                  gsize                  length,
                  gsize                  piece,
                  const PsPmclogOptions *options,
                  Collector             *c,
                  GError               **error)
{
  g_autoptr(PsPmclogReader) reader = ps_pmclog_reader_new (options, &callbacks, c);

  if (piece == 0)
    piece = MAX (length, 1);
  for (gsize at = 0; at < length; at += piece)
    if (!ps_pmclog_reader_feed (reader, data + at, MIN (piece, length - at), error))
      return FALSE;
  return ps_pmclog_reader_finish (reader, error);
}

static gboolean
read_log (const guint8 *data,
          gsize         length,
          gsize         piece,
          Collector    *c,
          GError      **error)
{
  return read_log_options (data, length, piece, NULL, c, error);
}

/* Reads a log that must be valid; returns the collector's lines */
static char *
read_valid (const guint8          *data,
            gsize                  length,
            const PsPmclogOptions *options,
            Collector             *c)
{
  g_autoptr(GError) error = NULL;

  collector_init (c);
  g_assert_true (read_log_options (data, length, 0, options, c, &error));
  g_assert_no_error (error);
  return g_strdup (c->lines->str);
}

static const char *
record_line (Collector *c,
             guint      index)
{
  g_assert_cmpuint (index, <, c->records->len);
  return c->records->pdata[index];
}

/* Compares a record line without the "#n @offset len= raw=" prefix part */
static void
assert_record (Collector  *c,
               guint       index,
               const char *expected_tail)
{
  const char *line = record_line (c, index);
  const char *flags = strstr (line, " flags=");

  g_assert_nonnull (flags);
  g_assert_cmpstr (flags + 1, ==, expected_tail);
}

/* §10: the worked bytes, written out by hand */
static void
test_worked_example (void)
{
  static const guint8 expected_initialize_head[24] = {
    0x70, 0x00, 0x03, 0xEE,
    0, 0, 0, 0,                                       /* spare: not compared */
    0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,   /* tsc LE */
    0x00, 0x00, 0x00, 0x0A,                           /* version 0x0A000000 */
    0x01, 0x00, 0x00, 0x00,                           /* cputype 1 (AMD) */
  };
  static const guint8 expected_callchain[48] = {
    0x30, 0x00, 0x10, 0xEE,                           /* magic EE, type 16, length 48 */
    0, 0, 0, 0,                                       /* spare */
    0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,   /* tsc 16 */
    0xD2, 0x04, 0x00, 0x00,                           /* pid 1234 */
    0xD3, 0x04, 0x00, 0x00,                           /* tid 1235 */
    0x00, 0x01, 0xF2, 0xFF,                           /* pmcid 0xFFF20100 */
    0x01, 0x00, 0x03, 0x00,                           /* cpuflags (3 << 16) | 0x01 */
    0x78, 0x56, 0x34, 0x12, 0x05, 0x00, 0x00, 0x00,   /* pc0 0x512345678, low word first */
    0xF0, 0xDE, 0xBC, 0x9A, 0x07, 0x00, 0x00, 0x00,   /* pc1 0x79ABCDEF0 */
  };
  const guint64 pcs[2] = { G_GUINT64_CONSTANT (0x512345678), G_GUINT64_CONSTANT (0x79ABCDEF0) };
  PsPmclogWriter *writer = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *data;
  gsize length;
  Collector c;
  g_autofree char *lines = NULL;

  ps_pmclog_writer_initialize (writer, G_GUINT64_CONSTANT (0x1122334455667788), 1,
                               G_GUINT64_CONSTANT (2400000000), 1700000000, 123456789,
                               "AuthenticAMD-25-33-0");
  ps_pmclog_writer_callchain (writer, 16, 1234, 1235, 0xFFF20100u, (3u << 16) | 0x01, pcs, 2);
  bytes = ps_pmclog_writer_free_to_bytes (writer);
  data = g_bytes_get_data (bytes, &length);

  g_assert_cmpuint (length, ==, 112 + 48);
  g_assert_cmpmem (data, 4, expected_initialize_head, 4);
  g_assert_cmpmem (data + 8, 16, expected_initialize_head + 8, 16);
  /* the spare word is junk, never zero */
  g_assert_cmpuint (data[4] | data[5] | data[6] | data[7], !=, 0);
  g_assert_cmpmem (data + 112, 4, expected_callchain, 4);
  g_assert_cmpmem (data + 112 + 8, 40, expected_callchain + 8, 40);

  /* Legacy INITIALIZE (10.x amd64): 14 00 02 EE, sec, nsec, 00 00 01 03, cputype */
  {
    static const guint8 expected_legacy[20] = {
      0x14, 0x00, 0x02, 0xEE, 0x05, 0, 0, 0, 0x06, 0, 0, 0, 0x00, 0x00, 0x01, 0x03, 0x97, 0, 0, 0,
    };
    PsPmclogWriter *legacy = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_LEGACY, 8, FALSE, LEGACY_3);
    gsize legacy_length;

    ps_pmclog_writer_initialize (legacy, PS_PMCLOG_WRITER_LEGACY_TIME (5, 6), 0x97, 0, 0, 0, NULL);
    g_assert_cmpmem (ps_pmclog_writer_peek (legacy, &legacy_length), 20, expected_legacy, 20);
    g_assert_cmpuint (legacy_length, ==, 20);
    ps_pmclog_writer_free (legacy);
  }

  lines = read_valid (data, length, NULL, &c);
  g_assert_cmpuint (c.records->len, ==, 2);
  assert_record (&c, 0, "flags=0x0 tsc=0x1122334455667788 version=0x0a000000 cputype=0x1 tsc_freq=2400000000 wall=1:1700000000.123456789 cpuid='AuthenticAMD-25-33-0'");
  assert_record (&c, 1, "flags=0x0 tsc=0x10 pid=1234 tid=1235 pmcid=0xfff20100 cpu=3 cpuflags=0x1 n=2 pcs=[0x512345678,0x79abcdef0]");
  g_assert_cmpstr (record_line (&c, 1), ==, "CALLCHAIN #1 @112 len=48 raw=16 flags=0x0 tsc=0x10 pid=1234 tid=1235 pmcid=0xfff20100 cpu=3 cpuflags=0x1 n=2 pcs=[0x512345678,0x79abcdef0]");
  g_assert_cmpuint (c.warnings->len, ==, 0);
  collector_clear (&c);
}

/* Every record type, both generations, both widths, both byte orders */

typedef struct
{
  PsPmclogGeneration generation;
  guint              width;
  gboolean           big_endian;
} Config;

static guint64
addr (const Config *config,
      guint64       value64,
      guint32       value32)
{
  return config->width == 8 ? value64 : value32;
}

static GBytes *
write_every_record (const Config *config)
{
  gboolean modern = config->generation == PS_PMCLOG_GENERATION_MODERN;
  PsPmclogWriter *w = ps_pmclog_writer_new (config->generation, config->width, config->big_endian,
                                            modern ? MODERN_10 : LEGACY_3);
  guint64 pcs[3] = {
    addr (config, G_GUINT64_CONSTANT (0xFFFFFFFF80A01234), 0xC0A01234),
    addr (config, G_GUINT64_CONSTANT (0x00007FFE00001000), 0x08049000),
    addr (config, G_GUINT64_CONSTANT (0x0000000800123456), 0x28123456),
  };
#define T(n) (modern ? G_GUINT64_CONSTANT (0xABCD000000000000) + (n) : PS_PMCLOG_WRITER_LEGACY_TIME (1000 + (n), 5000 + (n)))

  /* Modern 32-bit: an ARMv7 cputype tells the width (§1.7 rule 2);
   * legacy: the MAP_IN path (rule 4) */
  ps_pmclog_writer_initialize (w, T (0), config->width == 8 ? 0x01 : 0x501, G_GUINT64_CONSTANT (0x1234567890),
                               G_GINT64_CONSTANT (0x123456789), 999999999, "GenuineIntel-6-55-4");
  ps_pmclog_writer_map_in (w, T (1), 0xFFFFFFFF, addr (config, G_GUINT64_CONSTANT (0xFFFFFFFF80200000), 0xC0200000),
                           "/boot/kernel/kernel");
  ps_pmclog_writer_map_out (w, T (2), 77, addr (config, G_GUINT64_CONSTANT (0x0000000800200000), 0x28200000),
                            addr (config, G_GUINT64_CONSTANT (0x0000000800300000), 0x28300000));
  ps_pmclog_writer_pmcallocate (w, T (3), 0x00020100, 0x1234, 0x80, G_GUINT64_CONSTANT (0x100000002));
  ps_pmclog_writer_pmcallocatedyn (w, T (4), 0x00020101, 0x2001, 0x20080, 65536, "CLOCK.PROF");
  ps_pmclog_writer_pmcattach (w, T (5), 0x00020100, 4242, "/usr/bin/yes");
  ps_pmclog_writer_pmcdetach (w, T (6), 0x00020100, 4242);
  ps_pmclog_writer_proccsw (w, T (7), 0x00020100, 4242, 100042, G_GUINT64_CONSTANT (0x0000000500000007));
  ps_pmclog_writer_procexec (w, T (8), 4243, 0xFFFFFFFF, addr (config, G_GUINT64_CONSTANT (0x0000000801000000), 0x29000000),
                             addr (config, G_GUINT64_CONSTANT (0x0000000001200000), 0x01200000), "/bin/sh");
  ps_pmclog_writer_procexit (w, T (9), 0x00020100, 4243, G_GUINT64_CONSTANT (0xFFFFFFFF00000001));
  ps_pmclog_writer_procfork (w, T (10), 4243, 4244);
  ps_pmclog_writer_sysexit (w, T (11), 4244);
  ps_pmclog_writer_userdata (w, T (12), 0xDEADBEEF);
  ps_pmclog_writer_callchain (w, T (13), 4242, 100042, 0x00020100, (7u << 16) | 0x01, pcs, 3);
  if (modern)
    {
      ps_pmclog_writer_thr_create (w, T (14), 100043, 4242, 0x10004000, "worker");
      ps_pmclog_writer_thr_exit (w, T (15), 100043);
      ps_pmclog_writer_proc_create (w, T (16), 4245, 0x10000000, "cc");
      ps_pmclog_writer_pmcallocatedyn_declared (w, T (17), 0x00020102, 0x2002, 0x80, "PAGE_FAULT.ALL");
    }
  else
    ps_pmclog_writer_pcsample (w, T (14), 4242, addr (config, G_GUINT64_CONSTANT (0x0000000800ABCDEF), 0x28ABCDEF),
                               0x00020100, TRUE);
  ps_pmclog_writer_dropnotify (w, T (18));
  ps_pmclog_writer_closelog (w, T (19));
#undef T
  return ps_pmclog_writer_free_to_bytes (w);
}

static void
test_every_record (gconstpointer data)
{
  const Config *config = data;
  gboolean modern = config->generation == PS_PMCLOG_GENERATION_MODERN;
  gboolean wide = config->width == 8;
  g_autoptr(GBytes) bytes = write_every_record (config);
  gsize length;
  const guint8 *log = g_bytes_get_data (bytes, &length);
  g_autoptr(PsPmclogReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  Collector c;
  guint i = 0;
  g_autofree char *no_tid = g_strdup_printf ("%u", G_MAXUINT32);

#define TS(n) (modern ? g_strdup_printf ("tsc=0x%" G_GINT64_MODIFIER "x", G_GUINT64_CONSTANT (0xABCD000000000000) + (n)) \
                      : g_strdup_printf ("time=%u.%u", 1000 + (n), 5000 + (n)))
#define EXPECT(ts_n, flags, fmt, ...) G_STMT_START {                          \
    g_autofree char *ts = TS (ts_n);                                          \
    g_autofree char *expected = g_strdup_printf ("flags=0x%x %s " fmt, flags, ts, __VA_ARGS__); \
    assert_record (&c, i++, g_strchomp (expected));                           \
  } G_STMT_END

  collector_init (&c);
  reader = ps_pmclog_reader_new (NULL, &callbacks, &c);
  g_assert_true (ps_pmclog_reader_feed (reader, log, length, &error));
  g_assert_true (ps_pmclog_reader_finish (reader, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ps_pmclog_reader_get_generation (reader), ==, config->generation);
  g_assert_cmpint (ps_pmclog_reader_is_big_endian (reader), ==, config->big_endian);
  g_assert_cmpuint (ps_pmclog_reader_get_address_width (reader), ==, config->width);
  g_assert_cmpuint (ps_pmclog_reader_get_version (reader), ==, modern ? MODERN_10 : LEGACY_3);
  g_assert_cmpuint (ps_pmclog_reader_get_offset (reader), ==, length);
  g_assert_false (ps_pmclog_reader_has_container (reader));

  if (modern)
    EXPECT (0, 0, "version=0x0a000000 cputype=0x%x tsc_freq=78187493520 wall=1:4886718345.999999999 cpuid='GenuineIntel-6-55-4'",
            wide ? 0x01 : 0x501);
  else
    EXPECT (0, 0, "version=0x03010000 cputype=0x%x tsc_freq=0 wall=0:0.0 cpuid=''", wide ? 0x01 : 0x501);
  EXPECT (1, 0, "pid=4294967295 start=0x%s path='/boot/kernel/kernel'", wide ? "ffffffff80200000" : "c0200000");
  EXPECT (2, 0, "pid=77 start=0x%s end=0x%s", wide ? "800200000" : "28200000", wide ? "800300000" : "28300000");
  EXPECT (3, 0, "pmcid=0x20100 event=0x1234 flags=0x80 rate=%s name=NULL", modern ? "4294967298" : "0");
  EXPECT (4, 0, "pmcid=0x20101 event=0x2001 flags=0x20080 rate=%s name='CLOCK.PROF'", modern ? "65536" : "0");
  EXPECT (5, 0, "pmcid=0x20100 pid=4242 path=%s", "/usr/bin/yes");
  EXPECT (6, 0, "pmcid=0x20100 pid=4242 path=%s", "NULL");
  EXPECT (7, 0, "pmcid=0x20100 pid=4242 tid=%s value=0x500000007", modern ? "100042" : no_tid);
  if (modern)
    EXPECT (8, 0, "pid=4243 pmcid=0xffffffff base=0x%s dyn=1:0x1200000 path='/bin/sh'", wide ? "801000000" : "29000000");
  else
    EXPECT (8, 0, "pid=4243 pmcid=0xffffffff base=0x%s dyn=0:0x0 path='/bin/sh'", wide ? "801000000" : "29000000");
  EXPECT (9, 0, "pmcid=0x20100 pid=4243 value=0x%s", "ffffffff00000001");
  EXPECT (10, 0, "old=4243 new=%d", 4244);
  EXPECT (11, 0, "pid=%d", 4244);
  EXPECT (12, 0, "value=0x%s", "deadbeef");
  EXPECT (13, 0, "pid=4242 tid=%s pmcid=0x20100 cpu=7 cpuflags=0x1 n=3 pcs=[%s]",
          modern ? "100042" : no_tid,
          wide ? "0xffffffff80a01234,0x7ffe00001000,0x800123456" : "0xc0a01234,0x8049000,0x28123456");
  if (modern)
    {
      EXPECT (14, 0, "tid=100043 pid=4242 flags=0x10004000 name=%s", "worker");
      EXPECT (15, 0, "tid=100043 pid=0 flags=0x0 name=%s", "NULL");
      EXPECT (16, 0, "tid=%s pid=4245 flags=0x10000000 name=cc", no_tid);
      EXPECT (17, PS_PMCLOG_RECORD_FLAG_NAME_AT_32, "pmcid=0x20102 event=0x2002 flags=0x80 rate=0 name=%s", "'PAGE_FAULT.ALL'");
    }
  else
    EXPECT (14, 0, "pid=4242 tid=%s pmcid=0x20100 cpu=0 cpuflags=0x1 n=1 pcs=[0x%s]", no_tid, wide ? "800abcdef" : "28abcdef");
  EXPECT (18, 0, "%s", "");
  EXPECT (19, 0, "%s", "");
  g_assert_cmpuint (i, ==, c.records->len);
  g_assert_cmpuint (c.warnings->len, ==, 0);
  g_assert_cmpstr (c.records->pdata[0], !=, NULL);
  g_assert_true (g_str_has_prefix (c.records->pdata[0], modern ? "INITIALIZE #0 @0 len=112 raw=3 " : "INITIALIZE #0 @0 len=20 raw=2 "));
  collector_clear (&c);
#undef EXPECT
#undef TS
}

/* A varied log: both streams used by the chunking and truncation tests */
static GBytes *
write_varied_log (PsPmclogGeneration generation,
                  gboolean           big_endian,
                  gboolean           container,
                  GArray            *record_offsets)
{
  gboolean modern = generation == PS_PMCLOG_GENERATION_MODERN;
  PsPmclogWriter *w = ps_pmclog_writer_new (generation, 8, big_endian, modern ? MODERN_10 : LEGACY_3);
  guint64 pcs[64];
  gsize offset;

#define ADD(call) G_STMT_START { offset = (call); if (record_offsets) g_array_append_val (record_offsets, offset); } G_STMT_END
  for (guint i = 0; i < G_N_ELEMENTS (pcs); i++)
    pcs[i] = G_GUINT64_CONSTANT (0x0000000800400000) + i * 0x1111;
  if (container)
    {
      ADD (ps_pmclog_writer_container_header (w, 0, 1));
      ADD (ps_pmclog_writer_container_system_info (w, "AMD Ryzen 9 7950X", "15.0-RELEASE", "abcdef0123"));
      ADD (ps_pmclog_writer_container_end (w));
    }
  ADD (ps_pmclog_writer_initialize (w, 100, 1, 3000000000u, 1700000000, 5, "AuthenticAMD-25-97-2"));
  ADD (ps_pmclog_writer_pmcallocate (w, 101, 0x20100, 7, 0x80, 100000));
  ADD (ps_pmclog_writer_map_in (w, 102, 4242, G_GUINT64_CONSTANT (0x400000), "/usr/local/bin/some-long-program-name"));
  ADD (ps_pmclog_writer_map_in (w, 103, 4242, G_GUINT64_CONSTANT (0x800400000), "/lib/libc.so.7"));
  for (guint i = 0; i < 6; i++)
    ADD (ps_pmclog_writer_callchain (w, 200 + i, 4242, 100001, 0x20100, (i << 16) | (i & 1), pcs, 1 + i * 12));
  ADD (ps_pmclog_writer_procexec (w, 300, 4243, 0xFFFFFFFF, 0x1000, 0x2000, "/bin/ls"));
  ADD (ps_pmclog_writer_userdata (w, 301, 42));
  ADD (ps_pmclog_writer_closelog (w, 302));
  ADD (ps_pmclog_writer_callchain (w, 303, 4242, 100001, 0x20100, 1, pcs, 2));
#undef ADD
  return ps_pmclog_writer_free_to_bytes (w);
}

/* §12 cases 9, 10, 11: any chunking gives the same records */
static void
test_chunking (void)
{
  for (guint variant = 0; variant < 3; variant++)
    {
      g_autoptr(GBytes) bytes = write_varied_log (variant == 1 ? PS_PMCLOG_GENERATION_LEGACY : PS_PMCLOG_GENERATION_MODERN,
                                                  variant == 2, variant == 2, NULL);
      gsize length;
      const guint8 *log = g_bytes_get_data (bytes, &length);
      Collector clean;
      g_autofree char *expected = read_valid (log, length, NULL, &clean);
      static const gsize pieces[] = { 1, 3, 4, 7, 16, 100 };

      g_assert_cmpuint (clean.records->len, >=, 14);
      /* the record after CLOSELOG is flagged, with one warning (case 12) */
      g_assert_nonnull (strstr (expected, "W W-PMCLOG-AFTER-CLOSE@"));
      g_assert_nonnull (strstr (clean.records->pdata[clean.records->len - 1], "flags=0x4 "));

      for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
        {
          Collector c;
          g_autoptr(GError) error = NULL;

          collector_init (&c);
          g_assert_true (read_log (log, length, pieces[p], &c, &error));
          g_assert_no_error (error);
          g_assert_cmpstr (c.lines->str, ==, expected);
          collector_clear (&c);
        }

      /* every split point, with an empty feed at the split */
      for (gsize split = 0; split <= length; split++)
        {
          Collector c;
          g_autoptr(GError) error = NULL;
          g_autoptr(PsPmclogReader) reader = NULL;

          collector_init (&c);
          reader = ps_pmclog_reader_new (NULL, &callbacks, &c);
          g_assert_true (ps_pmclog_reader_feed (reader, log, split, &error));
          g_assert_true (ps_pmclog_reader_feed (reader, log + split, 0, &error));
          g_assert_true (ps_pmclog_reader_feed (reader, log + split, length - split, &error));
          g_assert_true (ps_pmclog_reader_finish (reader, &error));
          g_assert_no_error (error);
          g_assert_cmpstr (c.lines->str, ==, expected);
          collector_clear (&c);
        }
      collector_clear (&clean);
    }
}

/* §12 cases 1, 5, 13: cut at every byte */
static void
test_truncated_everywhere (void)
{
  for (guint variant = 0; variant < 3; variant++)
    {
      g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
      g_autoptr(GBytes) bytes = write_varied_log (variant == 1 ? PS_PMCLOG_GENERATION_LEGACY : PS_PMCLOG_GENERATION_MODERN,
                                                  variant == 1, variant == 2, offsets);
      gsize length;
      const guint8 *log = g_bytes_get_data (bytes, &length);
      Collector clean;
      g_autofree char *expected = read_valid (log, length, NULL, &clean);
      gsize end_of_container = variant == 2 ? g_array_index (offsets, gsize, 3) : 0;

      for (gsize cut = 0; cut < length; cut++)
        {
          Collector c;
          g_autoptr(GError) error = NULL;
          gsize unit_start = 0, unit_end = length;
          guint delivered = 0;
          gboolean ok;

          for (guint k = 0; k < offsets->len; k++)
            if (g_array_index (offsets, gsize, k) <= cut)
              {
                unit_start = g_array_index (offsets, gsize, k);
                unit_end = k + 1 < offsets->len ? g_array_index (offsets, gsize, k + 1) : length;
              }
          /* records (and container blocks) wholly before the cut */
          for (guint k = 0; k < clean.records->len; k++)
            {
              const char *at = strchr (clean.records->pdata[k], '@');
              guint64 record_offset = g_ascii_strtoull (at + 1, NULL, 10);

              if (record_offset < unit_start || (record_offset == unit_start && cut == unit_end))
                delivered++;
            }

          collector_init (&c);
          ok = read_log (log, cut, 1 + cut % 5, &c, &error);
          if (cut == unit_start && cut >= end_of_container + (variant == 2 ? 0 : 1) && cut > end_of_container)
            {
              /* a cut between records is a shorter valid log */
              g_assert_no_error (error);
              g_assert_true (ok);
            }
          else
            {
              g_autofree char *where = g_strdup_printf ("byte offset %" G_GSIZE_FORMAT, unit_start);

              g_assert_false (ok);
              g_assert_error (error, PS_ERROR, PS_ERROR_TRUNCATED);
              g_assert_nonnull (strstr (error->message, where));
              if (cut - unit_start >= 4 && unit_start >= end_of_container && cut > end_of_container)
                {
                  g_autofree char *counts = g_strdup_printf ("(%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes)",
                                                             cut - unit_start, unit_end - unit_start);

                  g_assert_nonnull (strstr (error->message, "truncated final record"));
                  g_assert_nonnull (strstr (error->message, counts));
                }
            }
          g_assert_cmpuint (c.records->len, ==, delivered);
          for (guint k = 0; k < delivered; k++)
            g_assert_cmpstr (c.records->pdata[k], ==, clean.records->pdata[k]);
          collector_clear (&c);
        }
      collector_clear (&clean);
    }
}

static GBytes *
modern_with_raw (guint32       header_word,
                 gsize         body_length,
                 gsize        *bad_offset)
{
  PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
  guint8 body[2048];

  memset (body, 0x5A, sizeof body);
  ps_pmclog_writer_initialize (w, 1, 1, 1000, 0, 0, "x");
  ps_pmclog_writer_userdata (w, 2, 7);
  *bad_offset = ps_pmclog_writer_raw (w, header_word, body, MIN (body_length, sizeof body));
  ps_pmclog_writer_userdata (w, 3, 8);
  ps_pmclog_writer_userdata (w, 4, 9);
  return ps_pmclog_writer_free_to_bytes (w);
}

/* §12 cases 3, 4: bad headers, resync off and on */
static void
test_bad_headers (void)
{
  static const struct {
    guint32     header;
    gsize       body;
    const char *message;
  } cases[] = {
    { PS_PMCLOG_WRITER_HEADER (0x12, 12, 24), 20, "expected the magic byte 0xEE, found 0x12" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 12, 0), 20, "expected a length of at least the 16-byte header, found 0" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 12, 2), 20, "found 2" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 12, 3), 20, "found 3" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 12, 4), 20, "found 4" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 12, 12), 20, "at least the 16-byte header, found 12" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 12, 26), 20, "a multiple of 4, found 26" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 8, 32), 28, "expected a PROCCSW record of at least 40 bytes, found a length of 32" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 15, 36), 32, "expected a MAP_OUT record of at least 40 bytes" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 14, 1100), 1096, "expected a MAP_IN record of at most 1056 bytes" },
    { PS_PMCLOG_WRITER_HEADER (0xEE, 16, 65535), 2000, "a multiple of 4, found 65535" },
    /* legacy CLOSELOG in a modern log (case 7) */
    { PS_PMCLOG_WRITER_HEADER (0xEE, 0, 12), 8, "at least the 16-byte header, found 12" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize bad_offset, length;
      g_autoptr(GBytes) bytes = modern_with_raw (cases[i].header, cases[i].body, &bad_offset);
      const guint8 *log = g_bytes_get_data (bytes, &length);
      PsPmclogOptions options = { .resync = TRUE };
      g_autofree char *where = g_strdup_printf ("Bad record header at byte offset %" G_GSIZE_FORMAT ": ", bad_offset);
      g_autofree char *skipped = g_strdup_printf ("W-PMCLOG-RESYNC@%" G_GSIZE_FORMAT, bad_offset + 4 + cases[i].body);
      Collector c, r1, r3;
      g_autoptr(GError) error = NULL;

      collector_init (&c);
      g_assert_false (read_log (log, length, 0, &c, &error));
      g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
      g_assert_true (g_str_has_prefix (error->message, where));
      g_assert_nonnull (strstr (error->message, cases[i].message));
      g_assert_cmpuint (c.records->len, ==, 2);
      collector_clear (&c);
      g_clear_error (&error);

      /* resync: the next two records are found again */
      g_test_message ("bad header case %u", i);
      collector_init (&r1);
      g_assert_true (read_log_options (log, length, 0, &options, &r1, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (r1.records->len, ==, 4);
      g_assert_true (has_warning (&r1, skipped));
      assert_record (&r1, 3, "flags=0x0 tsc=0x4 value=0x9");
      collector_init (&r3);
      g_assert_true (read_log_options (log, length, 3, &options, &r3, &error));
      g_assert_cmpstr (r3.lines->str, ==, r1.lines->str);
      collector_clear (&r1);
      collector_clear (&r3);
    }

  /* Resync that finds nothing before the end */
  {
    PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
    guint8 junk[100];
    PsPmclogOptions options = { .resync = TRUE };
    g_autoptr(GBytes) bytes = NULL;
    gsize length;
    const guint8 *log;
    Collector c;
    g_autoptr(GError) error = NULL;

    memset (junk, 0x11, sizeof junk);
    ps_pmclog_writer_initialize (w, 1, 1, 1000, 0, 0, "x");
    ps_pmclog_writer_bytes (w, junk, sizeof junk);
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    collector_init (&c);
    g_assert_true (read_log_options (log, length, 7, &options, &c, &error));
    g_assert_cmpuint (c.records->len, ==, 1);
    g_assert_true (has_warning (&c, "W-PMCLOG-RESYNC@112"));
    collector_clear (&c);
  }
}

/* §12 case 2: the first record and the version */
static void
test_first_record (void)
{
  Collector c;
  g_autoptr(GError) error = NULL;

  /* not INITIALIZE */
  {
    PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
    PsPmclogOptions options = { .assume_modern = TRUE, .address_width = 8 };
    g_autoptr(GBytes) bytes = NULL;
    gsize length;
    const guint8 *log;
    guint64 pc = 0x401000;

    ps_pmclog_writer_callchain (w, 5, 1, 2, 3, 1, &pc, 1);
    ps_pmclog_writer_userdata (w, 6, 7);
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    collector_init (&c);
    g_assert_false (read_log (log, length, 0, &c, &error));
    g_assert_error (error, PS_ERROR, PS_ERROR_PARSE);
    g_assert_nonnull (strstr (error->message, "byte offset 0 is not INITIALIZE"));
    g_assert_cmpuint (c.records->len, ==, 0);
    collector_clear (&c);
    g_clear_error (&error);

    collector_init (&c);
    g_assert_true (read_log_options (log, length, 5, &options, &c, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (c.records->len, ==, 2);
    assert_record (&c, 0, "flags=0x0 tsc=0x5 pid=1 tid=2 pmcid=0x3 cpu=0 cpuflags=0x1 n=1 pcs=[0x401000]");
    collector_clear (&c);
  }

  /* transitional, future and mismatched versions */
  {
    static const struct { PsPmclogGeneration generation; guint32 version; int error_code; const char *text; } cases[] = {
      { PS_PMCLOG_GENERATION_MODERN, 0x05000000, PS_ERROR_UNSUPPORTED_VERSION, "unsupported transitional log version" },
      { PS_PMCLOG_GENERATION_MODERN, 0x08010000, PS_ERROR_UNSUPPORTED_VERSION, "unsupported transitional log version" },
      { PS_PMCLOG_GENERATION_LEGACY, 0x04000000, PS_ERROR_UNSUPPORTED_VERSION, "unsupported transitional log version" },
      { PS_PMCLOG_GENERATION_MODERN, 0x03010000, PS_ERROR_UNSUPPORTED_VERSION, "major version of 9 or later" },
      { PS_PMCLOG_GENERATION_LEGACY, 0x0A000000, PS_ERROR_UNSUPPORTED_VERSION, "major version of 1 to 3" },
      { PS_PMCLOG_GENERATION_MODERN, 0x0B000000, -1, "W-PMCLOG-VERSION@0" },
      { PS_PMCLOG_GENERATION_MODERN, 0x09030000, -1, NULL },
      { PS_PMCLOG_GENERATION_LEGACY, 0x01010001, -1, NULL },
      { PS_PMCLOG_GENERATION_LEGACY, 0x02000000, -1, NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        PsPmclogWriter *w = ps_pmclog_writer_new (cases[i].generation, 8, i % 2, cases[i].version);
        g_autoptr(GBytes) bytes = NULL;
        gsize length;
        const guint8 *log;

        ps_pmclog_writer_initialize (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 2), 1, 0, 0, 0, "");
        ps_pmclog_writer_procexec (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 3), 1, 2, 0x1000, 0x2000, "/bin/x");
        bytes = ps_pmclog_writer_free_to_bytes (w);
        log = g_bytes_get_data (bytes, &length);
        collector_init (&c);
        if (cases[i].error_code >= 0)
          {
            g_assert_false (read_log (log, length, 0, &c, &error));
            g_assert_error (error, PS_ERROR, cases[i].error_code);
            g_assert_nonnull (strstr (error->message, cases[i].text));
            g_assert_nonnull (strstr (error->message, "byte offset 0"));
            g_assert_cmpuint (c.records->len, ==, 0);
            g_clear_error (&error);
          }
        else
          {
            g_assert_true (read_log (log, length, 0, &c, &error));
            g_assert_no_error (error);
            g_assert_cmpuint (c.records->len, ==, 2);
            if (cases[i].text != NULL)
              g_assert_true (has_warning (&c, cases[i].text));
            else
              g_assert_cmpuint (c.warnings->len, ==, 0);
            /* 0x0B: the latest layout, two addresses */
            if (cases[i].version == 0x0B000000)
              g_assert_nonnull (strstr (c.records->pdata[1], "base=0x1000 dyn=1:0x2000 path='/bin/x'"));
          }
        collector_clear (&c);
      }
  }

  /* INITIALIZE lengths other than 20/104/112 */
  {
    PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
    g_autoptr(GBytes) bytes = NULL;
    gsize length;
    const guint8 *log;
    guint8 body[96] = { 0 };

    ps_pmclog_writer_set_extra (w, 8);
    ps_pmclog_writer_initialize (w, 1, 1, 5, 0, 0, "cpu");
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    collector_init (&c);
    g_assert_true (read_log (log, length, 0, &c, &error));
    assert_record (&c, 0, "flags=0x1 tsc=0x1 version=0x0a000000 cputype=0x1 tsc_freq=5 wall=1:0.0 cpuid='cpu'");
    g_assert_true (has_warning (&c, "W-PMCLOG-LONGER@0"));
    collector_clear (&c);

    w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
    ps_pmclog_writer_raw (w, PS_PMCLOG_WRITER_HEADER (0xEE, 3, 100), body, 96);
    g_clear_pointer (&bytes, g_bytes_unref);
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    collector_init (&c);
    g_assert_false (read_log (log, length, 0, &c, &error));
    g_assert_nonnull (strstr (error->message, "INITIALIZE record of at least 104 bytes"));
    collector_clear (&c);
    g_clear_error (&error);
  }
}

/* §12 case 1: tiny inputs */
static void
test_tiny_inputs (void)
{
  static const guint8 header[4] = { 0x70, 0x00, 0x03, 0xEE };

  for (gsize n = 0; n < 4; n++)
    {
      Collector c;
      g_autoptr(GError) error = NULL;

      collector_init (&c);
      g_assert_false (read_log (header, n, 1, &c, &error));
      g_assert_error (error, PS_ERROR, PS_ERROR_TRUNCATED);
      g_assert_nonnull (strstr (error->message, "truncated header"));
      g_assert_nonnull (strstr (error->message, "byte offset 0"));
      collector_clear (&c);
    }
}

/* §12 case 6: unknown types are skipped by their length */
static void
test_unknown_types (void)
{
  static const guint8 modern_codes[] = { 0, 4, 21, 255 };
  static const guint8 legacy_codes[] = { 3, 18, 200 };
  guint8 body[64];

  memset (body, 0x77, sizeof body);
  for (guint generation = 0; generation < 2; generation++)
    {
      gboolean modern = generation == 0;
      PsPmclogWriter *w = ps_pmclog_writer_new (modern ? PS_PMCLOG_GENERATION_MODERN : PS_PMCLOG_GENERATION_LEGACY,
                                                8, !modern, modern ? MODERN_10 : LEGACY_3);
      const guint8 *codes = modern ? modern_codes : legacy_codes;
      guint n_codes = modern ? G_N_ELEMENTS (modern_codes) : G_N_ELEMENTS (legacy_codes);
      g_autoptr(GBytes) bytes = NULL;
      GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
      gsize length;
      const guint8 *log;
      Collector c;
      g_autoptr(GError) error = NULL;
      g_autofree char *lines = NULL;

      ps_pmclog_writer_initialize (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 1), 1, 0, 0, 0, "");
      for (guint i = 0; i < n_codes; i++)
        {
          gsize at = ps_pmclog_writer_raw (w, PS_PMCLOG_WRITER_HEADER (0xEE, codes[i], 16 + 4 * i + (modern ? 4 : 0)),
                                           body, 12 + 4 * i + (modern ? 4 : 0));

          g_array_append_val (offsets, at);
          ps_pmclog_writer_userdata (w, PS_PMCLOG_WRITER_LEGACY_TIME (2, i), i);
        }
      bytes = ps_pmclog_writer_free_to_bytes (w);
      log = g_bytes_get_data (bytes, &length);
      lines = read_valid (log, length, NULL, &c);
      g_assert_cmpuint (c.records->len, ==, 1 + n_codes);
      g_assert_cmpuint (c.warnings->len, ==, n_codes);
      for (guint i = 0; i < n_codes; i++)
        {
          g_autofree char *code_at = g_strdup_printf ("W-PMCLOG-UNKNOWN-TYPE@%" G_GSIZE_FORMAT, g_array_index (offsets, gsize, i));
          g_autofree char *value = g_strdup_printf (" value=0x%x", i);

          g_autofree char *number = g_strdup_printf ("#%u ", 2 + 2 * i);

          g_assert_true (has_warning (&c, code_at));
          g_assert_true (g_str_has_suffix (c.records->pdata[1 + i], value));
          /* record numbers count the skipped record */
          g_assert_nonnull (strstr (c.records->pdata[1 + i], number));
        }
      g_array_unref (offsets);
      collector_clear (&c);
    }
}

/* §12 case 14: callchain depths */
static void
test_callchain_depths (void)
{
  static const struct { PsPmclogGeneration generation; guint width; guint n; gboolean deep; } cases[] = {
    { PS_PMCLOG_GENERATION_MODERN, 8, 0, FALSE },
    { PS_PMCLOG_GENERATION_MODERN, 8, 1, FALSE },
    { PS_PMCLOG_GENERATION_MODERN, 8, 512, FALSE },
    { PS_PMCLOG_GENERATION_MODERN, 8, 513, TRUE },
    { PS_PMCLOG_GENERATION_MODERN, 8, (65532 - 32) / 8, TRUE },
    { PS_PMCLOG_GENERATION_MODERN, 4, 512, FALSE },
    { PS_PMCLOG_GENERATION_MODERN, 4, (65532 - 32) / 4, TRUE },
    { PS_PMCLOG_GENERATION_LEGACY, 8, 128, FALSE },
    { PS_PMCLOG_GENERATION_LEGACY, 8, 129, TRUE },
    { PS_PMCLOG_GENERATION_LEGACY, 8, (65532 - 24) / 8, TRUE },
  };
  guint64 *pcs = g_new (guint64, 16384);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean modern = cases[i].generation == PS_PMCLOG_GENERATION_MODERN;
      PsPmclogWriter *w = ps_pmclog_writer_new (cases[i].generation, cases[i].width, i % 2, modern ? MODERN_10 : LEGACY_3);
      PsPmclogOptions options = { .address_width = cases[i].width };
      g_autoptr(GBytes) bytes = NULL;
      gsize length;
      const guint8 *log;
      Collector c;
      g_autoptr(GError) error = NULL;
      g_autoptr(PsPmclogReader) reader = NULL;
      guint64 sum = 0;
      g_autofree char *expected = NULL;

      for (guint k = 0; k < cases[i].n; k++)
        pcs[k] = cases[i].width == 8 ? G_GUINT64_CONSTANT (0xFFFFFFFF80000000) + k * 0x10001 : 0xC0000000u + k * 0x10001;
      for (guint k = 0; k < cases[i].n; k++)
        sum = sum * 31 + pcs[k];
      ps_pmclog_writer_initialize (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 1), 0x80, 0, 0, 0, "");
      ps_pmclog_writer_callchain (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 2), 9, 10, 11, 0x20000, pcs, cases[i].n);
      bytes = ps_pmclog_writer_free_to_bytes (w);
      log = g_bytes_get_data (bytes, &length);

      collector_init (&c);
      g_assert_true (read_log_options (log, length, 4093, &options, &c, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (c.records->len, ==, 2);
      if (cases[i].n <= 8)
        {
          GString *list = g_string_new (NULL);

          append_hex_list (list, pcs, cases[i].n);
          expected = g_strdup_printf ("n=%u pcs=%s", cases[i].n, list->str);
          g_string_free (list, TRUE);
        }
      else
        expected = g_strdup_printf ("n=%u pcs=hash:0x%" G_GINT64_MODIFIER "x", cases[i].n, sum);
      g_assert_true (g_str_has_suffix (c.records->pdata[1], expected));
      g_assert_nonnull (strstr (c.records->pdata[1], cases[i].deep ? "flags=0x20 " : "flags=0x0 "));
      g_assert_cmpint (has_warning (&c, "W-PMCLOG-DEEP-CALLCHAIN@"), ==, cases[i].deep);
      g_assert_nonnull (strstr (c.records->pdata[1], "cpu=2 cpuflags=0x0"));
      collector_clear (&c);
    }
  g_free (pcs);

  /* A payload that is not a multiple of the address size */
  {
    PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
    guint8 body[40] = { 0 };
    g_autoptr(GBytes) bytes = NULL;
    gsize length;
    const guint8 *log;
    Collector c;
    g_autofree char *lines = NULL;

    body[12] = 1;   /* pid */
    body[28] = 0x34; body[29] = 0x12;  /* pc0 = 0x1234 */
    ps_pmclog_writer_initialize (w, 1, 1, 0, 0, 0, "");
    ps_pmclog_writer_raw (w, PS_PMCLOG_WRITER_HEADER (0xEE, 16, 44), body, 40);
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    lines = read_valid (log, length, NULL, &c);
    g_assert_nonnull (strstr (c.records->pdata[1], "flags=0x1 "));
    g_assert_true (g_str_has_suffix (c.records->pdata[1], "n=1 pcs=[0x1234]"));
    g_assert_true (has_warning (&c, "W-PMCLOG-LONGER@112"));
    collector_clear (&c);
  }
}

/* §4.9, §12 case 16 */
static void
test_multipart (void)
{
  const guint64 slots[] = { 0xA1, 0xA2, 0xA3, 0xA4, 0xB1, 0xB2, 0xC1, 0xC2, 0xC3 };
  static const struct { guint8 directory[8]; const char *expected; gboolean warns; } cases[] = {
    { { 2, 4, 1, 3, 0, 0, 0, 0 }, "n=3 pcs=[0xb1,0xb2,0xc1] parts=2:4[0xa1,0xa2,0xa3,0xa4]1:3[0xb1,0xb2,0xc1]", FALSE },
    { { 2, 4, 4, 2, 1, 3, 0, 0 }, "n=3 pcs=[0xc1,0xc2,0xc3] parts=2:4[0xa1,0xa2,0xa3,0xa4]4:2[0xb1,0xb2]1:3[0xc1,0xc2,0xc3]", FALSE },
    /* an unknown part type, and no CALLCHAIN part */
    { { 9, 2, 3, 7, 0, 0, 0, 0 }, "n=0 pcs=[] parts=9:2[0xa1,0xa2]3:7[0xa3,0xa4,0xb1,0xb2,0xc1,0xc2,0xc3]", FALSE },
    /* lengths beyond n */
    { { 2, 4, 1, 6, 0, 0, 0, 0 }, "n=0 pcs=[] parts=2:4[0xa1,0xa2,0xa3,0xa4]", TRUE },
    { { 1, 200, 0, 0, 0, 0, 0, 0 }, "n=0 pcs=[]", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, 0x0A010000);
      g_autoptr(GBytes) bytes = NULL;
      gsize length;
      const guint8 *log;
      Collector c;
      g_autofree char *lines = NULL;

      ps_pmclog_writer_initialize (w, 1, 1, 0, 0, 0, "");
      ps_pmclog_writer_callchain_multipart (w, 2, 5, 6, 7, (1u << 16) | 1, cases[i].directory, slots, G_N_ELEMENTS (slots));
      bytes = ps_pmclog_writer_free_to_bytes (w);
      log = g_bytes_get_data (bytes, &length);
      lines = read_valid (log, length, NULL, &c);
      g_assert_nonnull (strstr (c.records->pdata[1], "cpu=1 cpuflags=0x3 "));
      g_test_message ("%s", (char *) c.records->pdata[1]);
      g_assert_true (g_str_has_suffix (c.records->pdata[1], cases[i].expected));
      g_assert_cmpint (has_warning (&c, "W-PMCLOG-MULTIPART@112"), ==, cases[i].warns);
      collector_clear (&c);
    }
}

/* §1.8, §12 case 24 */
static void
test_container (void)
{
  for (guint big_endian = 0; big_endian < 2; big_endian++)
    {
      guint8 payload[300];
      PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, big_endian, MODERN_10);
      g_autoptr(GBytes) bytes = NULL;
      gsize length;
      const guint8 *log;
      Collector c;
      g_autofree char *lines = NULL;
      char long_model[65];
      g_autofree char *first = NULL;

      memset (long_model, 'M', 64);
      long_model[64] = '\0';
      memset (payload, 0x41, sizeof payload);
      ps_pmclog_writer_container_header (w, 0, 2);
      ps_pmclog_writer_container_system_info (w, long_model, "15.0-RELEASE", "");
      ps_pmclog_writer_container_block (w, 7, payload, 5);            /* unknown type */
      ps_pmclog_writer_container_block (w, 1, payload, 200);          /* overlong system info */
      ps_pmclog_writer_container_block (w, 3, payload, 0);            /* empty CPUID */
      ps_pmclog_writer_container_end (w);
      ps_pmclog_writer_initialize (w, 9, 1, 0, 0, 0, "");
      bytes = ps_pmclog_writer_free_to_bytes (w);
      log = g_bytes_get_data (bytes, &length);

      g_assert_cmpuint (ps_pmclog_sniff (log, length), ==, 70);
      lines = read_valid (log, length, NULL, &c);
      g_assert_cmpuint (c.records->len, ==, 5);
      first = g_strdup_printf ("CONTAINER_INFO #0 @8 len=192 raw=1 flags=0x0 cversion=0 arch=2 block=1 blen=192 first=0x4d model='%s' release='15.0-RELEASE' build=''", long_model);
      g_assert_cmpstr (c.records->pdata[0], ==, first);
      g_assert_cmpstr (c.records->pdata[1], ==, "CONTAINER_INFO #0 @208 len=5 raw=7 flags=0x0 cversion=0 arch=2 block=7 blen=5 first=0x41");
      g_assert_true (g_str_has_prefix (c.records->pdata[2], "CONTAINER_INFO #0 @221 len=200 raw=1 flags=0x1 cversion=0 arch=2 block=1 blen=200 first=0x41 model='AAAA"));
      g_assert_cmpstr (c.records->pdata[3], ==, "CONTAINER_INFO #0 @429 len=0 raw=3 flags=0x0 cversion=0 arch=2 block=3 blen=0");
      g_assert_true (g_str_has_prefix (c.records->pdata[4], "INITIALIZE #0 @445 len=112 "));
      g_assert_true (has_warning (&c, "W-PMCLOG-CONTAINER@208"));
      g_assert_true (has_warning (&c, "W-PMCLOG-CONTAINER@221"));
      collector_clear (&c);
    }

  /* zero info blocks; a block running past the end */
  {
    PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_LEGACY, 4, FALSE, LEGACY_3);
    g_autoptr(GBytes) bytes = NULL;
    gsize length;
    const guint8 *log;
    Collector c;
    g_autofree char *lines = NULL;
    g_autoptr(GError) error = NULL;
    guint8 payload[100] = { 0 };

    ps_pmclog_writer_container_header (w, 0, 0);
    ps_pmclog_writer_container_end (w);
    ps_pmclog_writer_initialize (w, PS_PMCLOG_WRITER_LEGACY_TIME (3, 4), 0x80, 0, 0, 0, NULL);
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    g_assert_cmpuint (ps_pmclog_sniff (log, length), ==, 70);
    lines = read_valid (log, length, NULL, &c);
    g_assert_cmpuint (c.records->len, ==, 1);
    g_assert_true (g_str_has_prefix (c.records->pdata[0], "INITIALIZE #0 @16 len=20 raw=2 flags=0x0 time=3.4 version=0x03010000"));
    collector_clear (&c);

    w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
    ps_pmclog_writer_container_header (w, 0, 1);
    ps_pmclog_writer_container_block (w, 2, payload, 100);
    g_clear_pointer (&bytes, g_bytes_unref);
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    collector_init (&c);
    g_assert_false (read_log (log, length - 10, 0, &c, &error));
    g_assert_error (error, PS_ERROR, PS_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "truncated info block at byte offset 8 (98 of 108 bytes)"));
    g_clear_error (&error);
    g_assert_cmpuint (c.records->len, ==, 0);
    collector_clear (&c);

    /* the container ends without its terminating block */
    collector_init (&c);
    g_assert_false (read_log (log, length, 0, &c, &error));
    g_assert_error (error, PS_ERROR, PS_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "byte offset 116"));
    g_assert_cmpuint (c.records->len, ==, 1);
    collector_clear (&c);
  }
}

/* §2, §12 case 22: PROCEXEC of the other major version */
static void
test_procexec_layouts (void)
{
  for (guint width = 4; width <= 8; width += 4)
    for (guint major = 9; major <= 10; major++)
      {
        PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, width, major == 9, major << 24);
        PsPmclogOptions options = { .address_width = major == 10 ? 0 : width };
        g_autoptr(GBytes) bytes = NULL;
        gsize length;
        const guint8 *log;
        Collector c;
        g_autofree char *lines = NULL;

        ps_pmclog_writer_set_i386_time (w, width == 4);
        ps_pmclog_writer_initialize (w, 1, 0x80, 0, 0, 0, "");
        ps_pmclog_writer_procexec_layout (w, 2, TRUE, 10, 11, 0x7000, 0x8000, "/usr/bin/two");
        ps_pmclog_writer_procexec_layout (w, 3, FALSE, 12, 13, 0x9000, 0, "/usr/bin/one");
        ps_pmclog_writer_procexec_layout (w, 4, FALSE, 14, 15, 0x9000, 0, "");
        bytes = ps_pmclog_writer_free_to_bytes (w);
        log = g_bytes_get_data (bytes, &length);
        lines = read_valid (log, length, &options, &c);
        g_assert_cmpuint (c.records->len, ==, 4);
        assert_record (&c, 1, major == 10 ? "flags=0x0 tsc=0x2 pid=10 pmcid=0xb base=0x7000 dyn=1:0x8000 path='/usr/bin/two'"
                                          : "flags=0x10 tsc=0x2 pid=10 pmcid=0xb base=0x7000 dyn=1:0x8000 path='/usr/bin/two'");
        assert_record (&c, 2, major == 9 ? "flags=0x0 tsc=0x3 pid=12 pmcid=0xd base=0x9000 dyn=0:0x0 path='/usr/bin/one'"
                                         : "flags=0x10 tsc=0x3 pid=12 pmcid=0xd base=0x9000 dyn=0:0x0 path='/usr/bin/one'");
        g_assert_true (has_warning (&c, "W-PMCLOG-LAYOUT@"));
        collector_clear (&c);
      }
}

/* §4.6, §12 case 19 */
static void
test_allocatedyn (void)
{
  const char *name56 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123";
  const char *name64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-";
  PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, TRUE, MODERN_10);
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const guint8 *log;
  Collector c;
  g_autofree char *lines = NULL;
  g_autofree char *e3 = NULL, *e4 = NULL, *e5 = NULL;

  g_assert_cmpuint (strlen (name56), ==, 56);
  g_assert_cmpuint (strlen (name64), ==, 64);
  ps_pmclog_writer_initialize (w, 1, 1, 0, 0, 0, "");
  ps_pmclog_writer_pmcallocatedyn (w, 2, 1, 2, 3, G_GUINT64_CONSTANT (0x200000001), "PAGE_FAULT");
  ps_pmclog_writer_pmcallocatedyn_declared (w, 3, 1, 2, 3, "SOFT-CLOCK.HARD");
  ps_pmclog_writer_pmcallocatedyn (w, 4, 1, 2, 3, 10000, name56);       /* its NUL is past 96 */
  ps_pmclog_writer_pmcallocatedyn (w, 5, 1, 2, 3, 10000, name64);
  ps_pmclog_writer_pmcallocatedyn_declared (w, 6, 1, 2, 3, name64);      /* no NUL in 64 bytes */
  ps_pmclog_writer_pmcallocatedyn (w, 7, 1, 2, 3, 0, "");
  bytes = ps_pmclog_writer_free_to_bytes (w);
  log = g_bytes_get_data (bytes, &length);
  lines = read_valid (log, length, NULL, &c);
  g_assert_cmpuint (c.records->len, ==, 7);
  assert_record (&c, 1, "flags=0x0 tsc=0x2 pmcid=0x1 event=0x2 flags=0x3 rate=8589934593 name='PAGE_FAULT'");
  assert_record (&c, 2, "flags=0x8 tsc=0x3 pmcid=0x1 event=0x2 flags=0x3 rate=0 name='SOFT-CLOCK.HARD'");
  e3 = g_strdup_printf ("flags=0x2 tsc=0x4 pmcid=0x1 event=0x2 flags=0x3 rate=10000 name='%s'", name56);
  assert_record (&c, 3, e3);
  e4 = g_strdup_printf ("flags=0x2 tsc=0x5 pmcid=0x1 event=0x2 flags=0x3 rate=10000 name='%.56s'", name64);
  assert_record (&c, 4, e4);
  e5 = g_strdup_printf ("flags=0xa tsc=0x6 pmcid=0x1 event=0x2 flags=0x3 rate=0 name='%s'", name64);
  assert_record (&c, 5, e5);
  assert_record (&c, 6, "flags=0x0 tsc=0x7 pmcid=0x1 event=0x2 flags=0x3 rate=0 name=''");
  g_assert_true (has_warning (&c, "W-PMCLOG-NO-NUL@"));
  collector_clear (&c);
}

/* §12 cases 17, 21: strings */
static void
test_strings (void)
{
  char path1023[1024];
  char cpuid64[65];
  PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const guint8 *log;
  Collector c;
  g_autofree char *lines = NULL;
  g_autofree char *e0 = NULL, *e2 = NULL;
  guint8 body[40];

  path1023[0] = '/';
  memset (path1023 + 1, 'p', 1022);
  path1023[1023] = '\0';
  memset (cpuid64, 'C', 64);
  cpuid64[64] = '\0';
  ps_pmclog_writer_initialize (w, 1, 1, 0, -5, 0, cpuid64);
  ps_pmclog_writer_map_in (w, 2, 1, 0x1000, "");
  ps_pmclog_writer_map_in (w, 3, 1, 0x1000, path1023);
  ps_pmclog_writer_pmcattach (w, 4, 1, 2, "/a");
  /* a path without NUL up to the record's end: MAP_IN of 44 bytes */
  memset (body, 0, sizeof body);
  body[12] = 0x10;               /* pid 16 */
  body[20] = 0x00; body[21] = 0x20;   /* start 0x2000 */
  memcpy (body + 28, "/nonulpath12", 12);
  ps_pmclog_writer_raw (w, PS_PMCLOG_WRITER_HEADER (0xEE, 14, 44), body, sizeof body);
  bytes = ps_pmclog_writer_free_to_bytes (w);
  log = g_bytes_get_data (bytes, &length);
  lines = read_valid (log, length, NULL, &c);
  g_assert_cmpuint (c.records->len, ==, 5);
  e0 = g_strdup_printf ("flags=0x2 tsc=0x1 version=0x0a000000 cputype=0x1 tsc_freq=0 wall=1:-5.0 cpuid='%s'", cpuid64);
  assert_record (&c, 0, e0);
  assert_record (&c, 1, "flags=0x0 tsc=0x2 pid=1 start=0x1000 path=''");
  e2 = g_strdup_printf ("flags=0x0 tsc=0x3 pid=1 start=0x1000 path='%s'", path1023);
  assert_record (&c, 2, e2);
  assert_record (&c, 3, "flags=0x0 tsc=0x4 pmcid=0x1 pid=2 path=/a");
  g_assert_true (g_str_has_suffix (c.records->pdata[4], "flags=0x2 tsc=0x0 pid=16 start=0x2000 path='/nonulpath12'"));
  g_assert_true (has_warning (&c, "W-PMCLOG-NO-NUL@0"));
  collector_clear (&c);
}

/* §1.7, §12 case 23: 32-bit logs */
static void
test_32_bit (void)
{
  /* i386 modern: INITIALIZE of 104 bytes */
  {
    PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 4, FALSE, MODERN_9);
    g_autoptr(GBytes) bytes = NULL;
    gsize length;
    const guint8 *log;
    Collector c;
    g_autofree char *lines = NULL;
    guint64 pcs[2] = { 0xC0123456, 0x0804ABCD };
    g_autoptr(PsPmclogReader) reader = NULL;

    ps_pmclog_writer_set_i386_time (w, TRUE);
    ps_pmclog_writer_initialize (w, 1, 0x91, 1000000, 1234567, 890, "GenuineIntel-6-3a");
    ps_pmclog_writer_callchain (w, 2, 3, 4, 5, 0x10001, pcs, 2);
    ps_pmclog_writer_procexec (w, 3, 3, 5, 0x28000000, 0, "/bin/i386");
    bytes = ps_pmclog_writer_free_to_bytes (w);
    log = g_bytes_get_data (bytes, &length);
    g_assert_cmpuint (log[0], ==, 104);
    g_assert_cmpuint (ps_pmclog_sniff (log, length), ==, 100);
    lines = read_valid (log, length, NULL, &c);
    assert_record (&c, 0, "flags=0x0 tsc=0x1 version=0x09030000 cputype=0x91 tsc_freq=1000000 wall=1:1234567.890 cpuid='GenuineIntel-6-3a'");
    assert_record (&c, 1, "flags=0x0 tsc=0x2 pid=3 tid=4 pmcid=0x5 cpu=1 cpuflags=0x1 n=2 pcs=[0xc0123456,0x804abcd]");
    assert_record (&c, 2, "flags=0x0 tsc=0x3 pid=3 pmcid=0x5 base=0x28000000 dyn=0:0x0 path='/bin/i386'");
    collector_clear (&c);
  }

  /* legacy i386: MAP_OUT of 24 bytes tells the width before any callchain */
  for (guint big_endian = 0; big_endian < 2; big_endian++)
    {
      PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_LEGACY, 4, big_endian, LEGACY_3);
      g_autoptr(GBytes) bytes = NULL;
      gsize length;
      const guint8 *log;
      Collector c;
      g_autoptr(GError) error = NULL;
      g_autoptr(PsPmclogReader) reader = NULL;
      guint64 pcs[2] = { 0xC0123456, 0x0804ABCD };

      ps_pmclog_writer_initialize (w, PS_PMCLOG_WRITER_LEGACY_TIME (7, 8), 0x80, 0, 0, 0, NULL);
      ps_pmclog_writer_map_out (w, PS_PMCLOG_WRITER_LEGACY_TIME (7, 9), 12, 0x28000000, 0x28100000);
      ps_pmclog_writer_callchain (w, PS_PMCLOG_WRITER_LEGACY_TIME (7, 10), 12, 0, 0x1000100, 1, pcs, 2);
      bytes = ps_pmclog_writer_free_to_bytes (w);
      log = g_bytes_get_data (bytes, &length);
      collector_init (&c);
      reader = ps_pmclog_reader_new (NULL, &callbacks, &c);
      g_assert_true (ps_pmclog_reader_feed (reader, log, length, &error));
      g_assert_true (ps_pmclog_reader_finish (reader, &error));
      g_assert_cmpuint (ps_pmclog_reader_get_address_width (reader), ==, 4);
      assert_record (&c, 1, "flags=0x0 time=7.9 pid=12 start=0x28000000 end=0x28100000");
      g_assert_true (g_str_has_suffix (c.records->pdata[2], "pmcid=0x1000100 cpu=0 cpuflags=0x1 n=2 pcs=[0xc0123456,0x804abcd]"));
      g_assert_true (g_str_has_prefix (c.records->pdata[1], "MAP_OUT #1 @20 len=24 raw=15 "));
      collector_clear (&c);
    }
}

/* §12 case 12: CLOSELOG twice, records after it */
static void
test_after_close (void)
{
  PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_MODERN, 8, FALSE, MODERN_10);
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const guint8 *log;
  Collector c;
  g_autofree char *lines = NULL;

  ps_pmclog_writer_initialize (w, 1, 1, 0, 0, 0, "");
  ps_pmclog_writer_closelog (w, 2);
  ps_pmclog_writer_sysexit (w, 3, 99);
  ps_pmclog_writer_closelog (w, 4);
  bytes = ps_pmclog_writer_free_to_bytes (w);
  log = g_bytes_get_data (bytes, &length);
  lines = read_valid (log, length, NULL, &c);
  g_assert_cmpuint (c.records->len, ==, 4);
  assert_record (&c, 1, "flags=0x0 tsc=0x2");
  assert_record (&c, 2, "flags=0x4 tsc=0x3 pid=99");
  assert_record (&c, 3, "flags=0x4 tsc=0x4");
  g_assert_cmpuint (c.warnings->len, ==, 1);
  g_assert_true (has_warning (&c, "W-PMCLOG-AFTER-CLOSE@128"));
  collector_clear (&c);
}

/* §1.9 rule 3: a fixed record longer than its type */
static void
test_longer (void)
{
  PsPmclogWriter *w = ps_pmclog_writer_new (PS_PMCLOG_GENERATION_LEGACY, 8, TRUE, LEGACY_3);
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const guint8 *log;
  Collector c;
  g_autofree char *lines = NULL;

  ps_pmclog_writer_initialize (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 0), 0x80, 0, 0, 0, NULL);
  ps_pmclog_writer_set_extra (w, 12);
  ps_pmclog_writer_proccsw (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 1), 5, 6, 0, 77);
  ps_pmclog_writer_procfork (w, PS_PMCLOG_WRITER_LEGACY_TIME (1, 2), 6, 7);
  bytes = ps_pmclog_writer_free_to_bytes (w);
  log = g_bytes_get_data (bytes, &length);
  lines = read_valid (log, length, NULL, &c);
  g_assert_cmpstr (c.records->pdata[1], ==, "PROCCSW #1 @20 len=40 raw=8 flags=0x1 time=1.1 pmcid=0x5 pid=6 tid=4294967295 value=0x4d");
  assert_record (&c, 2, "flags=0x0 time=1.2 old=6 new=7");
  g_assert_true (has_warning (&c, "W-PMCLOG-LONGER@20"));
  collector_clear (&c);
}

static void
test_sniff (void)
{
  g_autoptr(GBytes) bytes = write_varied_log (PS_PMCLOG_GENERATION_MODERN, FALSE, FALSE, NULL);
  g_autoptr(GBytes) big = write_varied_log (PS_PMCLOG_GENERATION_LEGACY, TRUE, TRUE, NULL);
  gsize length, big_length;
  const guint8 *log = g_bytes_get_data (bytes, &length);
  const guint8 *big_log = g_bytes_get_data (big, &big_length);
  guint8 garbage[64];

  memset (garbage, 0x20, sizeof garbage);
  g_assert_cmpuint (ps_pmclog_sniff (log, length), ==, 100);
  g_assert_cmpuint (ps_pmclog_sniff (big_log, big_length), ==, 100);
  g_assert_cmpuint (ps_pmclog_sniff (log, 112), ==, 70);
  g_assert_cmpuint (ps_pmclog_sniff (log, 4), ==, 40);
  g_assert_cmpuint (ps_pmclog_sniff (big_log, 20), ==, 50);
  g_assert_cmpuint (ps_pmclog_sniff (log, 0), ==, 0);
  g_assert_cmpuint (ps_pmclog_sniff (garbage, sizeof garbage), ==, 0);
  g_assert_cmpstr (ps_pmclog_type_to_string (PS_PMCLOG_MAP_IN), ==, "MAP_IN");
  g_assert_cmpstr (ps_pmclog_type_to_string (PS_PMCLOG_CALLCHAIN), ==, "CALLCHAIN");
}

/* §12 case 11: a callback that stops, a feed from inside the callback */
static void
test_callback_control (void)
{
  g_autoptr(GBytes) bytes = write_varied_log (PS_PMCLOG_GENERATION_MODERN, FALSE, FALSE, NULL);
  gsize length;
  const guint8 *log = g_bytes_get_data (bytes, &length);
  Collector c;
  g_autoptr(GError) error = NULL;
  g_autoptr(PsPmclogReader) reader = NULL;

  collector_init (&c);
  c.stop_after = 3;
  reader = ps_pmclog_reader_new (NULL, &callbacks, &c);
  g_assert_false (ps_pmclog_reader_feed (reader, log, length, &error));
  g_assert_error (error, PS_ERROR, PS_ERROR_FAILED);
  g_assert_cmpuint (c.records->len, ==, 3);
  g_clear_error (&error);
  g_assert_false (ps_pmclog_reader_feed (reader, log, 0, &error));
  g_clear_error (&error);
  g_assert_false (ps_pmclog_reader_finish (reader, &error));
  collector_clear (&c);
  g_clear_pointer (&reader, ps_pmclog_reader_free);
  g_clear_error (&error);

  collector_init (&c);
  reader = ps_pmclog_reader_new (NULL, &callbacks, &c);
  c.reader = reader;
  g_assert_true (ps_pmclog_reader_feed (reader, log, length, &error));
  g_assert_true (ps_pmclog_reader_finish (reader, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.records->len, >=, 14);
  collector_clear (&c);
}

/* §12 case 25 and a mutation fuzzer: never crash; before the first
 * mutated byte, the records are those of the clean log */
static void
test_fuzz (void)
{
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GBytes) bytes = write_varied_log (PS_PMCLOG_GENERATION_MODERN, FALSE, FALSE, offsets);
  gsize length;
  const guint8 *log = g_bytes_get_data (bytes, &length);
  Collector clean;
  g_autofree char *expected = read_valid (log, length, NULL, &clean);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260101);
  guint8 *copy = g_malloc (length + 4096);

  for (guint iteration = 0; iteration < 4000; iteration++)
    {
      gsize copy_length = length;
      gsize first_change = length;
      guint n_changes = g_rand_int_range (rand, 1, 5);
      PsPmclogOptions options = { .resync = iteration % 2 };
      Collector c;
      g_autoptr(GError) error = NULL;
      g_autoptr(PsPmclogReader) reader = NULL;
      guint prefix = 0;
      gsize at = 0;

      memcpy (copy, log, length);
      if (iteration % 10 == 9)
        {
          /* random bytes after a valid INITIALIZE */
          copy_length = 112 + g_rand_int_range (rand, 0, 4096);
          for (gsize k = 112; k < copy_length; k++)
            copy[k] = g_rand_int_range (rand, 0, 256);
          first_change = 112;
        }
      else
        for (guint k = 0; k < n_changes; k++)
          {
            gsize position = g_rand_int_range (rand, 0, length);

            switch (g_rand_int_range (rand, 0, 3))
              {
              case 0:
                copy[position] = g_rand_int_range (rand, 0, 256);
                break;
              case 1:
                copy[position] ^= 1 << g_rand_int_range (rand, 0, 8);
                break;
              default:
                copy_length = MIN (copy_length, position);
                break;
              }
            first_change = MIN (first_change, position);
          }

      collector_init (&c);
      reader = ps_pmclog_reader_new (&options, &callbacks, &c);
      while (at < copy_length)
        {
          gsize random_piece = g_rand_int_range (rand, 1, 300);
          gsize piece = MIN (random_piece, copy_length - at);
          /* a chunk of its own, so that any read past it is caught */
          g_autofree guint8 *chunk = g_memdup2 (copy + at, piece);

          if (!ps_pmclog_reader_feed (reader, chunk, piece, &error))
            break;
          at += piece;
        }
      if (at == copy_length)
        ps_pmclog_reader_finish (reader, &error);

      /* records that end before the first change */
      for (guint k = 0; k < offsets->len; k++)
        {
          gsize end = k + 1 < offsets->len ? g_array_index (offsets, gsize, k + 1) : length;

          if (end <= first_change)
            prefix = k + 1;
        }
      g_assert_cmpuint (c.records->len, >=, MIN (prefix, clean.records->len));
      for (guint k = 0; k < prefix && k < clean.records->len; k++)
        g_assert_cmpstr (c.records->pdata[k], ==, clean.records->pdata[k]);
      collector_clear (&c);
    }
  g_free (copy);
  collector_clear (&clean);
}

int
main (int   argc,
      char *argv[])
{
  static const Config configs[] = {
    { PS_PMCLOG_GENERATION_MODERN, 8, FALSE },
    { PS_PMCLOG_GENERATION_MODERN, 8, TRUE },
    { PS_PMCLOG_GENERATION_MODERN, 4, FALSE },
    { PS_PMCLOG_GENERATION_MODERN, 4, TRUE },
    { PS_PMCLOG_GENERATION_LEGACY, 8, FALSE },
    { PS_PMCLOG_GENERATION_LEGACY, 8, TRUE },
    { PS_PMCLOG_GENERATION_LEGACY, 4, FALSE },
    { PS_PMCLOG_GENERATION_LEGACY, 4, TRUE },
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pmclog/worked-example-s10", test_worked_example);
  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      g_autofree char *path = g_strdup_printf ("/pmclog/every-record/%s-%u-bit-%s-endian",
                                               configs[i].generation == PS_PMCLOG_GENERATION_MODERN ? "modern" : "legacy",
                                               configs[i].width * 8, configs[i].big_endian ? "big" : "little");

      g_test_add_data_func (path, &configs[i], test_every_record);
    }
  g_test_add_func ("/pmclog/case-01-tiny-inputs", test_tiny_inputs);
  g_test_add_func ("/pmclog/case-02-first-record-and-version", test_first_record);
  g_test_add_func ("/pmclog/case-03-04-07-bad-headers-and-resync", test_bad_headers);
  g_test_add_func ("/pmclog/case-05-13-truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/pmclog/case-06-unknown-types", test_unknown_types);
  g_test_add_func ("/pmclog/case-09-10-11-chunking", test_chunking);
  g_test_add_func ("/pmclog/case-11-callback-control", test_callback_control);
  g_test_add_func ("/pmclog/case-12-after-close", test_after_close);
  g_test_add_func ("/pmclog/case-14-callchain-depths", test_callchain_depths);
  g_test_add_func ("/pmclog/case-16-multipart", test_multipart);
  g_test_add_func ("/pmclog/case-17-21-strings", test_strings);
  g_test_add_func ("/pmclog/case-19-allocatedyn", test_allocatedyn);
  g_test_add_func ("/pmclog/case-22-procexec-layouts", test_procexec_layouts);
  g_test_add_func ("/pmclog/case-23-32-bit", test_32_bit);
  g_test_add_func ("/pmclog/case-24-container", test_container);
  g_test_add_func ("/pmclog/case-25-fuzz", test_fuzz);
  g_test_add_func ("/pmclog/longer", test_longer);
  g_test_add_func ("/pmclog/sniff", test_sniff);

  return g_test_run ();
}

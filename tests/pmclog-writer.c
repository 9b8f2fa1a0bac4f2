/* pmclog-writer.c — a writer of synthetic FreeBSD hwpmc(4) logs for tests
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §1.2–§1.5, §1.8, §3.1, §4 and §11: every offset
 * below is read off the layout tables, not from the reader.
 */
#include "config.h"

#include <string.h>

#include "pmclog-writer.h"

#define RECORD_MAX (65536 + 256)

struct _PsPmclogWriter
{
  PsPmclogGeneration generation;
  guint              width;
  gboolean           big_endian;
  guint32            version;
  gboolean           i386_time;
  guint              extra;
  guint32            junk_state;
  GByteArray        *bytes;
  guint8            *record;
};

/* specs: hwpmc-pmclog.md §3.1, indexed by PsPmclogType */
static const int legacy_codes[PS_PMCLOG_N_TYPES] = {
  [PS_PMCLOG_CLOSELOG] = 0, [PS_PMCLOG_DROPNOTIFY] = 1, [PS_PMCLOG_INITIALIZE] = 2,
  [PS_PMCLOG_PCSAMPLE] = 4, [PS_PMCLOG_PMCALLOCATE] = 5, [PS_PMCLOG_PMCATTACH] = 6,
  [PS_PMCLOG_PMCDETACH] = 7, [PS_PMCLOG_PROCCSW] = 8, [PS_PMCLOG_PROCEXEC] = 9,
  [PS_PMCLOG_PROCEXIT] = 10, [PS_PMCLOG_PROCFORK] = 11, [PS_PMCLOG_SYSEXIT] = 12,
  [PS_PMCLOG_USERDATA] = 13, [PS_PMCLOG_MAP_IN] = 14, [PS_PMCLOG_MAP_OUT] = 15,
  [PS_PMCLOG_CALLCHAIN] = 16, [PS_PMCLOG_PMCALLOCATEDYN] = 17,
  [PS_PMCLOG_THR_CREATE] = -1, [PS_PMCLOG_THR_EXIT] = -1, [PS_PMCLOG_PROC_CREATE] = -1,
  [PS_PMCLOG_CONTAINER_INFO] = -1,
};

static const int modern_codes[PS_PMCLOG_N_TYPES] = {
  [PS_PMCLOG_CLOSELOG] = 1, [PS_PMCLOG_DROPNOTIFY] = 2, [PS_PMCLOG_INITIALIZE] = 3,
  [PS_PMCLOG_PCSAMPLE] = -1, [PS_PMCLOG_PMCALLOCATE] = 5, [PS_PMCLOG_PMCATTACH] = 6,
  [PS_PMCLOG_PMCDETACH] = 7, [PS_PMCLOG_PROCCSW] = 8, [PS_PMCLOG_PROCEXEC] = 9,
  [PS_PMCLOG_PROCEXIT] = 10, [PS_PMCLOG_PROCFORK] = 11, [PS_PMCLOG_SYSEXIT] = 12,
  [PS_PMCLOG_USERDATA] = 13, [PS_PMCLOG_MAP_IN] = 14, [PS_PMCLOG_MAP_OUT] = 15,
  [PS_PMCLOG_CALLCHAIN] = 16, [PS_PMCLOG_PMCALLOCATEDYN] = 17,
  [PS_PMCLOG_THR_CREATE] = 18, [PS_PMCLOG_THR_EXIT] = 19, [PS_PMCLOG_PROC_CREATE] = 20,
  [PS_PMCLOG_CONTAINER_INFO] = -1,
};

PsPmclogWriter *
ps_pmclog_writer_new (PsPmclogGeneration generation,
                      guint              address_width,
                      gboolean           big_endian,
                      guint32            version)
{
  PsPmclogWriter *self;

  g_return_val_if_fail (generation == PS_PMCLOG_GENERATION_LEGACY ||
                        generation == PS_PMCLOG_GENERATION_MODERN, NULL);
  g_return_val_if_fail (address_width == 4 || address_width == 8, NULL);

  self = g_new0 (PsPmclogWriter, 1);
  self->generation = generation;
  self->width = address_width;
  self->big_endian = big_endian;
  self->version = version;
  self->junk_state = 1;
  self->bytes = g_byte_array_new ();
  self->record = g_malloc (RECORD_MAX);
  return self;
}

void
ps_pmclog_writer_free (PsPmclogWriter *self)
{
  if (self == NULL)
    return;
  g_byte_array_unref (self->bytes);
  g_free (self->record);
  g_free (self);
}

GBytes *
ps_pmclog_writer_free_to_bytes (PsPmclogWriter *self)
{
  GBytes *bytes = g_byte_array_free_to_bytes (self->bytes);

  g_free (self->record);
  g_free (self);
  return bytes;
}

const guint8 *
ps_pmclog_writer_peek (PsPmclogWriter *self,
                       gsize          *length)
{
  if (length != NULL)
    *length = self->bytes->len;
  return self->bytes->data;
}

gsize
ps_pmclog_writer_get_length (PsPmclogWriter *self)
{
  return self->bytes->len;
}

int
ps_pmclog_writer_type_code (PsPmclogWriter *self,
                            PsPmclogType    type)
{
  g_return_val_if_fail ((guint) type < PS_PMCLOG_N_TYPES, -1);
  return self->generation == PS_PMCLOG_GENERATION_LEGACY ? legacy_codes[type] : modern_codes[type];
}

void
ps_pmclog_writer_set_i386_time (PsPmclogWriter *self,
                                gboolean        i386_time)
{
  self->i386_time = i386_time;
}

void
ps_pmclog_writer_set_extra (PsPmclogWriter *self,
                            guint           extra_bytes)
{
  g_return_if_fail (extra_bytes % 4 == 0);
  self->extra = extra_bytes;
}

void
ps_pmclog_writer_set_junk_seed (PsPmclogWriter *self,
                                guint32         seed)
{
  self->junk_state = seed != 0 ? seed : 1;
}

/* Word stores in the writer's byte order */

static void
store16 (PsPmclogWriter *self,
         guint8         *p,
         guint16         value)
{
  guint16 stored = self->big_endian ? GUINT16_TO_BE (value) : GUINT16_TO_LE (value);

  memcpy (p, &stored, 2);
}

static void
store32 (PsPmclogWriter *self,
         guint8         *p,
         guint32         value)
{
  guint32 stored = self->big_endian ? GUINT32_TO_BE (value) : GUINT32_TO_LE (value);

  memcpy (p, &stored, 4);
}

/* §1.2: "emit 64": low word, then high word */
static void
store_lo_hi (PsPmclogWriter *self,
             guint8         *p,
             guint64         value)
{
  store32 (self, p, (guint32) value);
  store32 (self, p + 4, (guint32) (value >> 32));
}

/* §1.2: a plain native 64-bit store (header tsc, timespec) */
static void
store_native64 (PsPmclogWriter *self,
                guint8         *p,
                guint64         value)
{
  guint64 stored = self->big_endian ? GUINT64_TO_BE (value) : GUINT64_TO_LE (value);

  memcpy (p, &stored, 8);
}

static void
store_address (PsPmclogWriter *self,
               guint8         *p,
               guint64         address)
{
  if (self->width == 8)
    store_lo_hi (self, p, address);
  else
    store32 (self, p, (guint32) address);
}

/* Junk: non-zero, never printable ASCII */
static void
fill_junk (PsPmclogWriter *self,
           guint8         *p,
           gsize           n)
{
  for (gsize i = 0; i < n; i++)
    {
      guint32 x = self->junk_state;

      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      self->junk_state = x;
      p[i] = 0x80 | (x & 0x7F);
    }
}

/* A path: strlen + 1 bytes (§1.5). Returns the natural end. */
static gsize
store_path (guint8     *p,
            gsize       offset,
            const char *path)
{
  gsize n = strlen (path) + 1;

  g_assert (offset + n < RECORD_MAX - 64);
  memcpy (p + offset, path, n);
  return offset + n;
}

/* A fixed name field copied whole from a kernel buffer: the string, its
 * NUL if it fits, then stale bytes. */
static void
store_field (PsPmclogWriter *self,
             guint8         *p,
             const char     *text,
             gsize           field_size)
{
  gsize n = MIN (strlen (text), field_size);

  memcpy (p, text, n);
  if (n < field_size)
    {
      p[n] = '\0';
      fill_junk (self, p + n + 1, field_size - n - 1);
    }
}

static gboolean
is_legacy (PsPmclogWriter *self)
{
  return self->generation == PS_PMCLOG_GENERATION_LEGACY;
}

static guint8 *
record_begin (PsPmclogWriter *self)
{
  /* Only the fixed parts need clearing: the rest is always written */
  memset (self->record, 0, 128);
  return self->record;
}

/* Fills the header, rounds the length up to 4 with junk (§1.4, §1.5),
 * adds the extra bytes and appends the record. */
static gsize
record_end (PsPmclogWriter *self,
            PsPmclogType    type,
            guint64         timestamp,
            gsize           natural_length)
{
  guint8 *p = self->record;
  gsize length = (natural_length + 3) & ~(gsize) 3;
  int code = ps_pmclog_writer_type_code (self, type);
  gsize offset = self->bytes->len;

  g_assert (code >= 0);
  fill_junk (self, p + natural_length, length - natural_length);
  if (self->extra != 0)
    {
      fill_junk (self, p + length, self->extra);
      length += self->extra;
      self->extra = 0;
    }
  g_assert (length <= 0xFFFF);

  store32 (self, p, PS_PMCLOG_WRITER_HEADER (0xEE, code, length));
  if (is_legacy (self))
    {
      store32 (self, p + 4, (guint32) (timestamp >> 32));
      store32 (self, p + 8, (guint32) timestamp);
    }
  else
    {
      fill_junk (self, p + 4, 4);   /* spare: never written */
      store_native64 (self, p + 8, timestamp);
    }

  g_byte_array_append (self->bytes, p, length);
  return offset;
}

/* The pmc(8) container, §1.8 */

gsize
ps_pmclog_writer_container_header (PsPmclogWriter *self,
                                   guint16         version,
                                   guint16         architecture)
{
  guint8 header[8];
  gsize offset = self->bytes->len;

  store32 (self, header, 0x504D434Cu);
  store16 (self, header + 4, version);
  store16 (self, header + 6, architecture);
  g_byte_array_append (self->bytes, header, sizeof header);
  return offset;
}

gsize
ps_pmclog_writer_container_block (PsPmclogWriter *self,
                                  guint8          block_type,
                                  const void     *payload,
                                  guint16         payload_length)
{
  guint8 header[8];
  gsize offset = self->bytes->len;

  header[0] = block_type;
  fill_junk (self, header + 1, 1);
  store16 (self, header + 2, payload_length);
  fill_junk (self, header + 4, 4);
  g_byte_array_append (self->bytes, header, sizeof header);
  if (payload_length > 0)
    g_byte_array_append (self->bytes, payload, payload_length);
  return offset;
}

gsize
ps_pmclog_writer_container_system_info (PsPmclogWriter *self,
                                        const char     *cpu_model,
                                        const char     *os_release,
                                        const char     *build_id)
{
  guint8 payload[3 * 64] = { 0 };

  const char *fields[3] = { cpu_model, os_release, build_id };

  /* NUL-padded; a 64-character string fills its field without a NUL */
  for (guint i = 0; i < 3; i++)
    memcpy (payload + i * 64, fields[i], MIN (strlen (fields[i]), 64));
  return ps_pmclog_writer_container_block (self, 1, payload, sizeof payload);
}

gsize
ps_pmclog_writer_container_end (PsPmclogWriter *self)
{
  return ps_pmclog_writer_container_block (self, 0, NULL, 0);
}

/* Records */

gsize
ps_pmclog_writer_initialize (PsPmclogWriter *self,
                             guint64         timestamp,
                             guint32         cputype,
                             guint64         tsc_freq,
                             gint64          wall_seconds,
                             gint64          wall_nanoseconds,
                             const char     *cpuid)
{
  guint8 *p = record_begin (self);

  if (is_legacy (self))
    {
      /* §11: version @12, cputype @16, 20 bytes */
      store32 (self, p + 12, self->version);
      store32 (self, p + 16, cputype);
      return record_end (self, PS_PMCLOG_INITIALIZE, timestamp, 20);
    }

  /* §4.3 */
  store32 (self, p + 16, self->version);
  store32 (self, p + 20, cputype);
  store_lo_hi (self, p + 24, tsc_freq);
  if (self->i386_time)
    {
      store32 (self, p + 32, (guint32) wall_seconds);
      store32 (self, p + 36, (guint32) wall_nanoseconds);
      store_field (self, p + 40, cpuid != NULL ? cpuid : "", 64);
      return record_end (self, PS_PMCLOG_INITIALIZE, timestamp, 104);
    }
  store_native64 (self, p + 32, (guint64) wall_seconds);
  if (self->width == 4)
    {
      /* a 32-bit long, then 4 bytes of padding */
      guint32 stored = self->big_endian ? GUINT32_TO_BE ((guint32) wall_nanoseconds)
                                        : GUINT32_TO_LE ((guint32) wall_nanoseconds);

      memcpy (p + 40, &stored, 4);
      fill_junk (self, p + 44, 4);
    }
  else
    store_native64 (self, p + 40, (guint64) wall_nanoseconds);
  store_field (self, p + 48, cpuid != NULL ? cpuid : "", 64);
  return record_end (self, PS_PMCLOG_INITIALIZE, timestamp, 112);
}

gsize
ps_pmclog_writer_closelog (PsPmclogWriter *self,
                           guint64         timestamp)
{
  record_begin (self);
  return record_end (self, PS_PMCLOG_CLOSELOG, timestamp, is_legacy (self) ? 12 : 16);
}

gsize
ps_pmclog_writer_dropnotify (PsPmclogWriter *self,
                             guint64         timestamp)
{
  record_begin (self);
  return record_end (self, PS_PMCLOG_DROPNOTIFY, timestamp, is_legacy (self) ? 12 : 16);
}

gsize
ps_pmclog_writer_callchain (PsPmclogWriter *self,
                            guint64         timestamp,
                            guint32         pid,
                            guint32         tid,
                            guint32         pmcid,
                            guint32         cpuflags,
                            const guint64  *pcs,
                            guint           n_pcs)
{
  guint8 *p = record_begin (self);
  gsize at;

  if (is_legacy (self))
    {
      /* §11: pid @12, pmcid @16, cpuflags @20, pc[] @24 */
      store32 (self, p + 12, pid);
      store32 (self, p + 16, pmcid);
      store32 (self, p + 20, cpuflags);
      at = 24;
    }
  else
    {
      /* §4.2 */
      store32 (self, p + 16, pid);
      store32 (self, p + 20, tid);
      store32 (self, p + 24, pmcid);
      store32 (self, p + 28, cpuflags);
      at = 32;
    }
  g_assert (at + (gsize) n_pcs * self->width <= 0xFFFF);
  for (guint i = 0; i < n_pcs; i++, at += self->width)
    store_address (self, p + at, pcs[i]);
  return record_end (self, PS_PMCLOG_CALLCHAIN, timestamp, at);
}

gsize
ps_pmclog_writer_callchain_multipart (PsPmclogWriter *self,
                                      guint64         timestamp,
                                      guint32         pid,
                                      guint32         tid,
                                      guint32         pmcid,
                                      guint32         cpuflags,
                                      const guint8    directory[8],
                                      const guint64  *slots,
                                      guint           n_slots)
{
  guint8 *p = record_begin (self);
  gsize at = 32;

  g_return_val_if_fail (!is_legacy (self) && self->width == 8, 0);

  /* §4.9: the directory is the first slot, then the parts */
  store32 (self, p + 16, pid);
  store32 (self, p + 20, tid);
  store32 (self, p + 24, pmcid);
  store32 (self, p + 28, cpuflags | PS_PMCLOG_CC_MULTIPART);
  memcpy (p + at, directory, 8);
  at += 8;
  g_assert (at + (gsize) n_slots * 8 <= 0xFFFF);
  for (guint i = 0; i < n_slots; i++, at += 8)
    store_lo_hi (self, p + at, slots[i]);
  return record_end (self, PS_PMCLOG_CALLCHAIN, timestamp, at);
}

gsize
ps_pmclog_writer_map_in (PsPmclogWriter *self,
                         guint64         timestamp,
                         guint32         pid,
                         guint64         start,
                         const char     *path)
{
  guint8 *p = record_begin (self);

  if (is_legacy (self))
    {
      /* §11: pid @12, start @16, path @24 (32-bit: @20) */
      store32 (self, p + 12, pid);
      store_address (self, p + 16, start);
      return record_end (self, PS_PMCLOG_MAP_IN, timestamp, store_path (p, 16 + self->width, path));
    }
  /* §4.4: pid @16, pad (0) @20, start @24, path @32 (32-bit: @28) */
  store32 (self, p + 16, pid);
  store_address (self, p + 24, start);
  return record_end (self, PS_PMCLOG_MAP_IN, timestamp, store_path (p, 24 + self->width, path));
}

gsize
ps_pmclog_writer_map_out (PsPmclogWriter *self,
                          guint64         timestamp,
                          guint32         pid,
                          guint64         start,
                          guint64         end)
{
  guint8 *p = record_begin (self);
  gsize at = is_legacy (self) ? 16 : 24;

  /* §11 / §4.5 */
  store32 (self, p + (is_legacy (self) ? 12 : 16), pid);
  store_address (self, p + at, start);
  store_address (self, p + at + self->width, end);
  return record_end (self, PS_PMCLOG_MAP_OUT, timestamp, at + 2 * self->width);
}

gsize
ps_pmclog_writer_pmcallocate (PsPmclogWriter *self,
                              guint64         timestamp,
                              guint32         pmcid,
                              guint32         event,
                              guint32         flags,
                              guint64         rate)
{
  guint8 *p = record_begin (self);

  if (is_legacy (self))
    {
      store32 (self, p + 12, pmcid);
      store32 (self, p + 16, event);
      store32 (self, p + 20, flags);
      return record_end (self, PS_PMCLOG_PMCALLOCATE, timestamp, 24);
    }
  /* §4.6: pmcid @16, event @20, flags @24, pad (0) @28, rate @32 */
  store32 (self, p + 16, pmcid);
  store32 (self, p + 20, event);
  store32 (self, p + 24, flags);
  store_lo_hi (self, p + 32, rate);
  return record_end (self, PS_PMCLOG_PMCALLOCATE, timestamp, 40);
}

gsize
ps_pmclog_writer_pmcallocatedyn (PsPmclogWriter *self,
                                 guint64         timestamp,
                                 guint32         pmcid,
                                 guint32         event,
                                 guint32         flags,
                                 guint64         rate,
                                 const char     *name)
{
  guint8 *p = record_begin (self);

  if (is_legacy (self))
    {
      /* §11: name[64] @24, 88 bytes */
      store32 (self, p + 12, pmcid);
      store32 (self, p + 16, event);
      store32 (self, p + 20, flags);
      store_field (self, p + 24, name, 64);
      return record_end (self, PS_PMCLOG_PMCALLOCATEDYN, timestamp, 88);
    }
  /* §4.6, the kernel's writer: rate @32, name[64] @40, declared length
   * 96 — the 8 bytes past it never reach the file */
  store32 (self, p + 16, pmcid);
  store32 (self, p + 20, event);
  store32 (self, p + 24, flags);
  store_lo_hi (self, p + 32, rate);
  store_field (self, p + 40, name, 64);
  return record_end (self, PS_PMCLOG_PMCALLOCATEDYN, timestamp, 96);
}

gsize
ps_pmclog_writer_pmcallocatedyn_declared (PsPmclogWriter *self,
                                          guint64         timestamp,
                                          guint32         pmcid,
                                          guint32         event,
                                          guint32         flags,
                                          const char     *name)
{
  guint8 *p = record_begin (self);

  g_return_val_if_fail (!is_legacy (self), 0);

  /* §4.6, the declared layout: pad (0) @28, name[64] @32, 96 bytes */
  store32 (self, p + 16, pmcid);
  store32 (self, p + 20, event);
  store32 (self, p + 24, flags);
  store_field (self, p + 32, name, 64);
  return record_end (self, PS_PMCLOG_PMCALLOCATEDYN, timestamp, 96);
}

gsize
ps_pmclog_writer_pmcattach (PsPmclogWriter *self,
                            guint64         timestamp,
                            guint32         pmcid,
                            guint32         pid,
                            const char     *path)
{
  guint8 *p = record_begin (self);
  gsize b = is_legacy (self) ? 12 : 16;

  /* §4.7 / §11 */
  store32 (self, p + b, pmcid);
  store32 (self, p + b + 4, pid);
  return record_end (self, PS_PMCLOG_PMCATTACH, timestamp, store_path (p, b + 8, path));
}

gsize
ps_pmclog_writer_pmcdetach (PsPmclogWriter *self,
                            guint64         timestamp,
                            guint32         pmcid,
                            guint32         pid)
{
  guint8 *p = record_begin (self);
  gsize b = is_legacy (self) ? 12 : 16;

  store32 (self, p + b, pmcid);
  store32 (self, p + b + 4, pid);
  return record_end (self, PS_PMCLOG_PMCDETACH, timestamp, b + 8);
}

gsize
ps_pmclog_writer_proccsw (PsPmclogWriter *self,
                          guint64         timestamp,
                          guint32         pmcid,
                          guint32         pid,
                          guint32         tid,
                          guint64         value)
{
  guint8 *p = record_begin (self);

  if (is_legacy (self))
    {
      /* §11: pmcid @12, value @16, pid @24 */
      store32 (self, p + 12, pmcid);
      store_lo_hi (self, p + 16, value);
      store32 (self, p + 24, pid);
      return record_end (self, PS_PMCLOG_PROCCSW, timestamp, 28);
    }
  /* §4.8: value @16, pmcid @24, pid @28, tid @32, pad (0) @36 */
  store_lo_hi (self, p + 16, value);
  store32 (self, p + 24, pmcid);
  store32 (self, p + 28, pid);
  store32 (self, p + 32, tid);
  return record_end (self, PS_PMCLOG_PROCCSW, timestamp, 40);
}

gsize
ps_pmclog_writer_procexec_layout (PsPmclogWriter *self,
                                  guint64         timestamp,
                                  gboolean        two_addresses,
                                  guint32         pid,
                                  guint32         pmcid,
                                  guint64         base,
                                  guint64         dyn,
                                  const char     *path)
{
  guint8 *p = record_begin (self);
  gsize at = 24;

  g_return_val_if_fail (!is_legacy (self), 0);

  /* §4.8: pid @16, pmcid @20, base @24, [dyn], path */
  store32 (self, p + 16, pid);
  store32 (self, p + 20, pmcid);
  store_address (self, p + at, base);
  at += self->width;
  if (two_addresses)
    {
      store_address (self, p + at, dyn);
      at += self->width;
    }
  return record_end (self, PS_PMCLOG_PROCEXEC, timestamp, store_path (p, at, path));
}

gsize
ps_pmclog_writer_procexec (PsPmclogWriter *self,
                           guint64         timestamp,
                           guint32         pid,
                           guint32         pmcid,
                           guint64         base,
                           guint64         dyn,
                           const char     *path)
{
  guint8 *p;

  if (!is_legacy (self))
    return ps_pmclog_writer_procexec_layout (self, timestamp, (self->version >> 24) >= 0x0A,
                                             pid, pmcid, base, dyn, path);

  /* §11: pid @12, entry @16, pmcid @24 (32-bit: @20), path @28 (@24) */
  p = record_begin (self);
  store32 (self, p + 12, pid);
  store_address (self, p + 16, base);
  store32 (self, p + 16 + self->width, pmcid);
  return record_end (self, PS_PMCLOG_PROCEXEC, timestamp, store_path (p, 20 + self->width, path));
}

gsize
ps_pmclog_writer_procexit (PsPmclogWriter *self,
                           guint64         timestamp,
                           guint32         pmcid,
                           guint32         pid,
                           guint64         value)
{
  guint8 *p = record_begin (self);

  if (is_legacy (self))
    {
      /* §11: pmcid @12, value @16, pid @24 */
      store32 (self, p + 12, pmcid);
      store_lo_hi (self, p + 16, value);
      store32 (self, p + 24, pid);
      return record_end (self, PS_PMCLOG_PROCEXIT, timestamp, 28);
    }
  /* §4.8: pmcid @16, pid @20, value @24 */
  store32 (self, p + 16, pmcid);
  store32 (self, p + 20, pid);
  store_lo_hi (self, p + 24, value);
  return record_end (self, PS_PMCLOG_PROCEXIT, timestamp, 32);
}

gsize
ps_pmclog_writer_procfork (PsPmclogWriter *self,
                           guint64         timestamp,
                           guint32         old_pid,
                           guint32         new_pid)
{
  guint8 *p = record_begin (self);
  gsize b = is_legacy (self) ? 12 : 16;

  store32 (self, p + b, old_pid);
  store32 (self, p + b + 4, new_pid);
  return record_end (self, PS_PMCLOG_PROCFORK, timestamp, b + 8);
}

/* SYSEXIT and USERDATA: one word, then (modern) an unwritten pad */
static gsize
one_word_record (PsPmclogWriter *self,
                 PsPmclogType    type,
                 guint64         timestamp,
                 guint32         value)
{
  guint8 *p = record_begin (self);

  if (is_legacy (self))
    {
      store32 (self, p + 12, value);
      return record_end (self, type, timestamp, 16);
    }
  store32 (self, p + 16, value);
  fill_junk (self, p + 20, 4);
  return record_end (self, type, timestamp, 24);
}

gsize
ps_pmclog_writer_sysexit (PsPmclogWriter *self,
                          guint64         timestamp,
                          guint32         pid)
{
  return one_word_record (self, PS_PMCLOG_SYSEXIT, timestamp, pid);
}

gsize
ps_pmclog_writer_userdata (PsPmclogWriter *self,
                           guint64         timestamp,
                           guint32         value)
{
  return one_word_record (self, PS_PMCLOG_USERDATA, timestamp, value);
}

gsize
ps_pmclog_writer_thr_create (PsPmclogWriter *self,
                             guint64         timestamp,
                             guint32         tid,
                             guint32         pid,
                             guint32         flags,
                             const char     *name)
{
  guint8 *p = record_begin (self);

  g_return_val_if_fail (!is_legacy (self), 0);

  /* §4.8: tid @16, pid @20, flags @24, pad (0) @28, name[20] @32 */
  store32 (self, p + 16, tid);
  store32 (self, p + 20, pid);
  store32 (self, p + 24, flags);
  store_field (self, p + 32, name, 20);
  return record_end (self, PS_PMCLOG_THR_CREATE, timestamp, 52);
}

gsize
ps_pmclog_writer_thr_exit (PsPmclogWriter *self,
                           guint64         timestamp,
                           guint32         tid)
{
  guint8 *p = record_begin (self);

  g_return_val_if_fail (!is_legacy (self), 0);

  store32 (self, p + 16, tid);
  fill_junk (self, p + 20, 4);
  return record_end (self, PS_PMCLOG_THR_EXIT, timestamp, 24);
}

gsize
ps_pmclog_writer_proc_create (PsPmclogWriter *self,
                              guint64         timestamp,
                              guint32         pid,
                              guint32         flags,
                              const char     *name)
{
  guint8 *p = record_begin (self);

  g_return_val_if_fail (!is_legacy (self), 0);

  /* §4.8: pid @16, flags @20, name[20] @24 */
  store32 (self, p + 16, pid);
  store32 (self, p + 20, flags);
  store_field (self, p + 24, name, 20);
  return record_end (self, PS_PMCLOG_PROC_CREATE, timestamp, 44);
}

gsize
ps_pmclog_writer_pcsample (PsPmclogWriter *self,
                           guint64         timestamp,
                           guint32         pid,
                           guint64         pc,
                           guint32         pmcid,
                           gboolean        usermode)
{
  guint8 *p = record_begin (self);

  g_return_val_if_fail (is_legacy (self), 0);

  /* §11: pid @12, pc @16, pmcid @24 (32-bit: @20), usermode @28 (@24) */
  store32 (self, p + 12, pid);
  store_address (self, p + 16, pc);
  store32 (self, p + 16 + self->width, pmcid);
  store32 (self, p + 20 + self->width, usermode ? 1 : 0);
  return record_end (self, PS_PMCLOG_PCSAMPLE, timestamp, 24 + self->width);
}

gsize
ps_pmclog_writer_raw (PsPmclogWriter *self,
                      guint32         header_word,
                      const void     *body,
                      gsize           body_length)
{
  guint8 header[4];
  gsize offset = self->bytes->len;

  store32 (self, header, header_word);
  g_byte_array_append (self->bytes, header, 4);
  if (body_length > 0)
    g_byte_array_append (self->bytes, body, body_length);
  return offset;
}

gsize
ps_pmclog_writer_bytes (PsPmclogWriter *self,
                        const void     *data,
                        gsize           length)
{
  gsize offset = self->bytes->len;

  if (length > 0)
    g_byte_array_append (self->bytes, data, length);
  return offset;
}

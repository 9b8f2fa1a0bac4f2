/* perflib-writer.c — a builder of PerfLib V2 data for tests and benchmarks
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §2, §3.1–§3.9
 */
#include "config.h"

#include "perflib-writer.h"

struct _PsPerflibWriter
{
  GByteArray *bytes;
  GArray     *fields;        /* PsPerflibField */
  GArray     *open;          /* gsize: starts of open structures */
  gsize       block_offset;  /* the open PERF_COUNTER_HEADER */
};

PsPerflibWriter *
ps_perflib_writer_new (void)
{
  PsPerflibWriter *self = g_new0 (PsPerflibWriter, 1);

  self->bytes = g_byte_array_new ();
  self->fields = g_array_new (FALSE, FALSE, sizeof (PsPerflibField));
  self->open = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->block_offset = PS_PERFLIB_WRITER_NO_BLOCK;
  return self;
}

void
ps_perflib_writer_free (PsPerflibWriter *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->bytes, g_byte_array_unref);
  g_array_unref (self->fields);
  g_array_unref (self->open);
  g_free (self);
}

GBytes *
ps_perflib_writer_free_to_bytes (PsPerflibWriter *self)
{
  GBytes *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&self->bytes));

  ps_perflib_writer_free (self);
  return bytes;
}

guint8 *
ps_perflib_writer_peek (PsPerflibWriter *self,
                        gsize           *length)
{
  if (length != NULL)
    *length = self->bytes->len;
  return self->bytes->data;
}

gsize
ps_perflib_writer_get_length (PsPerflibWriter *self)
{
  return self->bytes->len;
}

guint
ps_perflib_writer_get_n_fields (PsPerflibWriter *self)
{
  return self->fields->len;
}

const PsPerflibField *
ps_perflib_writer_get_field (PsPerflibWriter *self,
                             guint            index)
{
  g_return_val_if_fail (index < self->fields->len, NULL);

  return &g_array_index (self->fields, PsPerflibField, index);
}

/* ------------------------------------------------------------------ */
/* Primitives                                                         */
/* ------------------------------------------------------------------ */

void
ps_perflib_writer_u8 (PsPerflibWriter *self,
                      guint8           value)
{
  g_byte_array_append (self->bytes, &value, 1);
}

void
ps_perflib_writer_u16 (PsPerflibWriter *self,
                       guint16          value)
{
  guint8 bytes[2] = { value & 0xff, value >> 8 };

  g_byte_array_append (self->bytes, bytes, sizeof bytes);
}

void
ps_perflib_writer_u32 (PsPerflibWriter *self,
                       guint32          value)
{
  ps_perflib_writer_u16 (self, value & 0xffff);
  ps_perflib_writer_u16 (self, value >> 16);
}

void
ps_perflib_writer_u64 (PsPerflibWriter *self,
                       guint64          value)
{
  ps_perflib_writer_u32 (self, value & 0xffffffffu);
  ps_perflib_writer_u32 (self, value >> 32);
}

void
ps_perflib_writer_guid (PsPerflibWriter *self,
                        const guint8     guid[16])
{
  g_byte_array_append (self->bytes, guid, 16);
}

gsize
ps_perflib_writer_utf16 (PsPerflibWriter *self,
                         const char      *utf8)
{
  g_autofree gunichar2 *utf16 = NULL;
  glong n = 0;

  utf16 = g_utf8_to_utf16 (utf8, -1, NULL, &n, NULL);
  g_return_val_if_fail (utf16 != NULL, 0);
  for (glong i = 0; i < n; i++)
    ps_perflib_writer_u16 (self, utf16[i]);
  ps_perflib_writer_u16 (self, 0);
  return 2 * ((gsize) n + 1);
}

void
ps_perflib_writer_pad8 (PsPerflibWriter *self)
{
  while (self->bytes->len % 8 != 0)
    ps_perflib_writer_u8 (self, 0);
}

/* dwSize is a multiple of 8 (§3.3, §3.6), whatever the alignment of the
 * structure's start (after an odd PERF_MULTI_COUNTERS it is 4-aligned) */
static void
pad8_from (PsPerflibWriter *self,
           gsize            start)
{
  while ((self->bytes->len - start) % 8 != 0)
    ps_perflib_writer_u8 (self, 0);
}

void
ps_perflib_writer_patch_u32 (PsPerflibWriter *self,
                             gsize            offset,
                             guint32          value)
{
  guint8 *p;

  g_return_if_fail (offset + 4 <= self->bytes->len);

  p = self->bytes->data + offset;
  p[0] = value & 0xff;
  p[1] = (value >> 8) & 0xff;
  p[2] = (value >> 16) & 0xff;
  p[3] = (value >> 24) & 0xff;
}

void
ps_perflib_writer_patch_u64 (PsPerflibWriter *self,
                             gsize            offset,
                             guint64          value)
{
  ps_perflib_writer_patch_u32 (self, offset, value & 0xffffffffu);
  ps_perflib_writer_patch_u32 (self, offset + 4, value >> 32);
}

static gsize
add_field (PsPerflibWriter    *self,
           PsPerflibFieldKind  kind,
           gsize               offset,
           gsize               length,
           gsize               struct_offset)
{
  PsPerflibField field = { kind, offset, length, self->block_offset, struct_offset };

  g_array_append_val (self->fields, field);
  return offset;
}

gsize
ps_perflib_writer_field (PsPerflibWriter    *self,
                         PsPerflibFieldKind  kind,
                         guint32             value)
{
  gsize offset = self->bytes->len;

  add_field (self, kind, offset, 4, offset);
  ps_perflib_writer_u32 (self, value);
  return offset;
}

/* A field of the structure at struct_offset */
static void
struct_field (PsPerflibWriter    *self,
              PsPerflibFieldKind  kind,
              gsize               struct_offset,
              guint32             value)
{
  add_field (self, kind, self->bytes->len, 4, struct_offset);
  ps_perflib_writer_u32 (self, value);
}

void
ps_perflib_writer_open (PsPerflibWriter *self)
{
  gsize start = self->bytes->len;

  g_array_append_val (self->open, start);
}

void
ps_perflib_writer_close (PsPerflibWriter *self,
                         gsize            size_at)
{
  gsize start;

  g_return_if_fail (self->open->len > 0);

  start = g_array_index (self->open, gsize, self->open->len - 1);
  g_array_set_size (self->open, self->open->len - 1);
  ps_perflib_writer_patch_u32 (self, start + size_at, (guint32) (self->bytes->len - start));
}

/* ------------------------------------------------------------------ */
/* Counter data buffers (§3.1–§3.6)                                   */
/* ------------------------------------------------------------------ */

gsize
ps_perflib_writer_data_header (PsPerflibWriter           *self,
                               guint32                    n_counters,
                               gint64                     perf_time_stamp,
                               gint64                     perf_time_100nsec,
                               gint64                     perf_freq,
                               const PsPerflibSystemTime *st)
{
  gsize start = self->bytes->len;

  ps_perflib_writer_open (self);
  struct_field (self, PS_PERFLIB_FIELD_TOTAL_SIZE, start, 0);
  struct_field (self, PS_PERFLIB_FIELD_NUM_COUNTERS, start, n_counters);
  ps_perflib_writer_u64 (self, (guint64) perf_time_stamp);
  ps_perflib_writer_u64 (self, (guint64) perf_time_100nsec);
  ps_perflib_writer_u64 (self, (guint64) perf_freq);
  ps_perflib_writer_u16 (self, st->year);
  ps_perflib_writer_u16 (self, st->month);
  ps_perflib_writer_u16 (self, st->day_of_week);
  ps_perflib_writer_u16 (self, st->day);
  ps_perflib_writer_u16 (self, st->hour);
  ps_perflib_writer_u16 (self, st->minute);
  ps_perflib_writer_u16 (self, st->second);
  ps_perflib_writer_u16 (self, st->milliseconds);
  return start;
}

void
ps_perflib_writer_data_end (PsPerflibWriter *self)
{
  ps_perflib_writer_close (self, 0);
}

gsize
ps_perflib_writer_block_begin (PsPerflibWriter *self,
                               guint32          status,
                               guint32          type)
{
  gsize start = self->bytes->len;

  self->block_offset = start;
  ps_perflib_writer_open (self);
  ps_perflib_writer_u32 (self, status);
  ps_perflib_writer_u32 (self, type);
  struct_field (self, PS_PERFLIB_FIELD_BLOCK_SIZE, start, 0);
  ps_perflib_writer_u32 (self, 0);
  return start;
}

void
ps_perflib_writer_block_end (PsPerflibWriter *self)
{
  ps_perflib_writer_close (self, 8);
  self->block_offset = PS_PERFLIB_WRITER_NO_BLOCK;
}

gsize
ps_perflib_writer_counter_data (PsPerflibWriter *self,
                                guint64          value,
                                guint32          data_size)
{
  gsize start = self->bytes->len;

  struct_field (self, PS_PERFLIB_FIELD_DATA_SIZE, start, data_size);
  struct_field (self, PS_PERFLIB_FIELD_DATA_BLOCK_SIZE, start, 0);
  for (guint32 i = 0; i < data_size; i++)
    ps_perflib_writer_u8 (self, i < 8 ? (value >> (8 * i)) & 0xff : 0xAB);
  pad8_from (self, start);
  ps_perflib_writer_patch_u32 (self, start + 4, (guint32) (self->bytes->len - start));
  return start + 8;
}

gsize
ps_perflib_writer_multi_counters (PsPerflibWriter *self,
                                  const guint32   *ids,
                                  guint32          n_ids)
{
  gsize start = self->bytes->len;

  struct_field (self, PS_PERFLIB_FIELD_MULTI_COUNTERS_SIZE, start, 8 + 4 * n_ids);
  struct_field (self, PS_PERFLIB_FIELD_MULTI_COUNTERS_COUNT, start, n_ids);
  for (guint32 i = 0; i < n_ids; i++)
    ps_perflib_writer_u32 (self, ids[i]);
  return start;
}

gsize
ps_perflib_writer_multi_instances_begin (PsPerflibWriter *self,
                                         guint32          n_instances)
{
  gsize start = self->bytes->len;

  ps_perflib_writer_open (self);
  struct_field (self, PS_PERFLIB_FIELD_MULTI_INSTANCES_SIZE, start, 0);
  struct_field (self, PS_PERFLIB_FIELD_MULTI_INSTANCES_COUNT, start, n_instances);
  return start;
}

void
ps_perflib_writer_multi_instances_end (PsPerflibWriter *self)
{
  ps_perflib_writer_close (self, 0);
}

gsize
ps_perflib_writer_instance (PsPerflibWriter *self,
                            guint32          instance_id,
                            const char      *name)
{
  gsize start = self->bytes->len;

  struct_field (self, PS_PERFLIB_FIELD_INSTANCE_SIZE, start, 0);
  ps_perflib_writer_u32 (self, instance_id);
  ps_perflib_writer_utf16 (self, name);
  pad8_from (self, start);
  ps_perflib_writer_patch_u32 (self, start, (guint32) (self->bytes->len - start));
  add_field (self, PS_PERFLIB_FIELD_INSTANCE_NAME, start + 8, self->bytes->len - start - 8, start);
  return start;
}

/* ------------------------------------------------------------------ */
/* Identifiers (§3.8) and registration info (§3.9)                    */
/* ------------------------------------------------------------------ */

gsize
ps_perflib_writer_identifier (PsPerflibWriter *self,
                              const guint8     guid[16],
                              guint32          status,
                              guint32          counter_id,
                              guint32          instance_id,
                              guint32          index,
                              const char      *name)
{
  gsize start = self->bytes->len;

  ps_perflib_writer_guid (self, guid);
  ps_perflib_writer_u32 (self, status);
  struct_field (self, PS_PERFLIB_FIELD_IDENTIFIER_SIZE, start, 0);
  ps_perflib_writer_u32 (self, counter_id);
  ps_perflib_writer_u32 (self, instance_id);
  ps_perflib_writer_u32 (self, index);
  ps_perflib_writer_u32 (self, 0);
  if (name != NULL)
    {
      ps_perflib_writer_utf16 (self, name);
      ps_perflib_writer_pad8 (self);
    }
  ps_perflib_writer_patch_u32 (self, start + 20, (guint32) (self->bytes->len - start));
  return start;
}

gsize
ps_perflib_writer_counterset_reg (PsPerflibWriter *self,
                                  const guint8     guid[16],
                                  guint32          detail_level,
                                  guint32          n_counters,
                                  guint32          instance_type)
{
  gsize start = self->bytes->len;

  ps_perflib_writer_guid (self, guid);
  ps_perflib_writer_u32 (self, 0);
  ps_perflib_writer_u32 (self, detail_level);
  struct_field (self, PS_PERFLIB_FIELD_REG_NUM_COUNTERS, start, n_counters);
  ps_perflib_writer_u32 (self, instance_type);
  return start;
}

void
ps_perflib_writer_counter_init (PsPerflibWriterCounter *counter,
                                guint32                 counter_id,
                                guint32                 type)
{
  *counter = (PsPerflibWriterCounter) {
    .counter_id = counter_id,
    .type = type,
    .detail_level = 100,
    .base_counter_id = PS_PERF_NO_COUNTER,
    .perf_time_id = PS_PERF_NO_COUNTER,
    .perf_freq_id = PS_PERF_NO_COUNTER,
    .multi_id = PS_PERF_NO_COUNTER,
  };
}

gsize
ps_perflib_writer_counter_reg (PsPerflibWriter              *self,
                               const PsPerflibWriterCounter *counter)
{
  gsize start = self->bytes->len;

  ps_perflib_writer_u32 (self, counter->counter_id);
  ps_perflib_writer_u32 (self, counter->type);
  ps_perflib_writer_u64 (self, counter->attrib);
  ps_perflib_writer_u32 (self, counter->detail_level);
  ps_perflib_writer_u32 (self, (guint32) counter->default_scale);
  ps_perflib_writer_u32 (self, counter->base_counter_id);
  ps_perflib_writer_u32 (self, counter->perf_time_id);
  ps_perflib_writer_u32 (self, counter->perf_freq_id);
  ps_perflib_writer_u32 (self, counter->multi_id);
  ps_perflib_writer_u32 (self, counter->aggregate_func);
  ps_perflib_writer_u32 (self, 0);
  return start;
}

gsize
ps_perflib_writer_string_buffer (PsPerflibWriter    *self,
                                 const guint32      *ids,
                                 const char * const *strings,
                                 guint32             n_ids)
{
  gsize start = self->bytes->len;

  ps_perflib_writer_open (self);
  struct_field (self, PS_PERFLIB_FIELD_STRING_BUFFER_SIZE, start, 0);
  struct_field (self, PS_PERFLIB_FIELD_STRING_BUFFER_COUNT, start, n_ids);
  for (guint32 i = 0; i < n_ids; i++)
    {
      ps_perflib_writer_u32 (self, ids[i]);
      ps_perflib_writer_u32 (self, 0xFFFFFFFFu);
    }
  /* dwOffset counts from the start of the block (§3.9) */
  for (guint32 i = 0; i < n_ids; i++)
    if (strings[i] != NULL)
      {
        ps_perflib_writer_patch_u32 (self, start + 8 + 8 * (gsize) i + 4,
                                     (guint32) (self->bytes->len - start));
        ps_perflib_writer_utf16 (self, strings[i]);
      }
  ps_perflib_writer_close (self, 0);
  return start;
}

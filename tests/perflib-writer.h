/* perflib-writer.h — a builder of PerfLib V2 data for tests and benchmarks
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §2 (encodings), §3.1–§3.7 (PerfQueryCounterData
 * buffers), §3.8 (PERF_COUNTER_IDENTIFIER), §3.9 (registration info:
 * request codes 1, 5/6/10 string buffers and 3/4/9 single strings).
 *
 * Written from the spec's layout tables, sharing no code with the decoder
 * (src/engine/perflib/ps-perflib-block.c), so each checks the other.
 *
 * A writer appends little-endian bytes to a growing buffer, one byte at a
 * time, so the bytes are the same on any host. Structures whose size is
 * only known at their end (PERF_DATA_HEADER, PERF_COUNTER_HEADER,
 * PERF_MULTI_INSTANCES, string buffers) are opened and closed; closing
 * patches the size. Every size and count field written is recorded as a
 * PsPerflibField (with the PERF_COUNTER_HEADER block it belongs to) so
 * that tests can corrupt each one.
 *
 * The functions that write a structure return its byte offset;
 * ps_perflib_writer_counter_data () returns the offset of the raw value,
 * which a generator patches in place from one sample to the next.
 */
#pragma once

#include <glib.h>

#include "ps-perflib-block.h"

G_BEGIN_DECLS

/* What a recorded field is */
typedef enum
{
  PS_PERFLIB_FIELD_TOTAL_SIZE,            /* PERF_DATA_HEADER dwTotalSize */
  PS_PERFLIB_FIELD_NUM_COUNTERS,          /* PERF_DATA_HEADER dwNumCounters */
  PS_PERFLIB_FIELD_BLOCK_SIZE,            /* PERF_COUNTER_HEADER dwSize */
  PS_PERFLIB_FIELD_DATA_SIZE,             /* PERF_COUNTER_DATA dwDataSize */
  PS_PERFLIB_FIELD_DATA_BLOCK_SIZE,       /* PERF_COUNTER_DATA dwSize */
  PS_PERFLIB_FIELD_MULTI_COUNTERS_SIZE,   /* PERF_MULTI_COUNTERS dwSize */
  PS_PERFLIB_FIELD_MULTI_COUNTERS_COUNT,  /* PERF_MULTI_COUNTERS dwCounters */
  PS_PERFLIB_FIELD_MULTI_INSTANCES_SIZE,  /* PERF_MULTI_INSTANCES dwTotalSize */
  PS_PERFLIB_FIELD_MULTI_INSTANCES_COUNT, /* PERF_MULTI_INSTANCES dwInstances */
  PS_PERFLIB_FIELD_INSTANCE_SIZE,         /* PERF_INSTANCE_HEADER Size */
  PS_PERFLIB_FIELD_INSTANCE_NAME,         /* the name bytes, NUL and padding included */
  PS_PERFLIB_FIELD_REG_NUM_COUNTERS,      /* PERF_COUNTERSET_REG_INFO NumCounters */
  PS_PERFLIB_FIELD_IDENTIFIER_SIZE,       /* PERF_COUNTER_IDENTIFIER Size */
  PS_PERFLIB_FIELD_STRING_BUFFER_SIZE,    /* PERF_STRING_BUFFER_HEADER dwSize */
  PS_PERFLIB_FIELD_STRING_BUFFER_COUNT,   /* PERF_STRING_BUFFER_HEADER dwCounters */
  PS_PERFLIB_FIELD_OTHER_SIZE,            /* hand-written by a caller */
  PS_PERFLIB_FIELD_OTHER_COUNT,
} PsPerflibFieldKind;

#define PS_PERFLIB_WRITER_NO_BLOCK G_MAXSIZE

typedef struct
{
  PsPerflibFieldKind kind;
  gsize              offset;
  gsize              length;        /* 4, or the bytes of an instance name */
  gsize              block_offset;  /* its PERF_COUNTER_HEADER, or PS_PERFLIB_WRITER_NO_BLOCK */
  gsize              struct_offset; /* the structure the field belongs to */
} PsPerflibField;

/* One PERF_COUNTER_REG_INFO (§3.9); companions PS_PERF_NO_COUNTER for none */
typedef struct
{
  guint32 counter_id;
  guint32 type;
  guint64 attrib;
  guint32 detail_level;
  gint32  default_scale;
  guint32 base_counter_id;
  guint32 perf_time_id;
  guint32 perf_freq_id;
  guint32 multi_id;
  guint32 aggregate_func;
} PsPerflibWriterCounter;

typedef struct _PsPerflibWriter PsPerflibWriter;

PsPerflibWriter      *ps_perflib_writer_new              (void);
void                  ps_perflib_writer_free             (PsPerflibWriter       *self);
/* Frees the writer; the bytes written */
GBytes               *ps_perflib_writer_free_to_bytes    (PsPerflibWriter       *self);
/* The bytes so far (valid until the next write); length may be NULL */
guint8               *ps_perflib_writer_peek             (PsPerflibWriter       *self,
                                                          gsize                 *length);
gsize                 ps_perflib_writer_get_length       (PsPerflibWriter       *self);
guint                 ps_perflib_writer_get_n_fields     (PsPerflibWriter       *self);
const PsPerflibField *ps_perflib_writer_get_field        (PsPerflibWriter       *self,
                                                          guint                  index);

/* Primitives (§2) */
void   ps_perflib_writer_u8        (PsPerflibWriter *self, guint8 value);
void   ps_perflib_writer_u16       (PsPerflibWriter *self, guint16 value);
void   ps_perflib_writer_u32       (PsPerflibWriter *self, guint32 value);
void   ps_perflib_writer_u64       (PsPerflibWriter *self, guint64 value);
void   ps_perflib_writer_guid      (PsPerflibWriter *self, const guint8 guid[16]);
/* NUL-terminated UTF-16LE; returns the bytes written, NUL included */
gsize  ps_perflib_writer_utf16     (PsPerflibWriter *self, const char *utf8);
void   ps_perflib_writer_pad8      (PsPerflibWriter *self);
void   ps_perflib_writer_patch_u32 (PsPerflibWriter *self, gsize offset, guint32 value);
void   ps_perflib_writer_patch_u64 (PsPerflibWriter *self, gsize offset, guint64 value);
/* A u32 size or count field, recorded for corruption */
gsize  ps_perflib_writer_field     (PsPerflibWriter *self, PsPerflibFieldKind kind, guint32 value);
/* A structure whose u32 size at start + size_at is patched by close ()
 * with the bytes written since open (); they nest */
void   ps_perflib_writer_open      (PsPerflibWriter *self);
void   ps_perflib_writer_close     (PsPerflibWriter *self, gsize size_at);

/* PerfQueryCounterData buffers (§3.1–§3.6). data_header opens the
 * buffer, data_end patches dwTotalSize. */
gsize  ps_perflib_writer_data_header           (PsPerflibWriter           *self,
                                                guint32                    n_counters,
                                                gint64                     perf_time_stamp,
                                                gint64                     perf_time_100nsec,
                                                gint64                     perf_freq,
                                                const PsPerflibSystemTime *system_time);
void   ps_perflib_writer_data_end              (PsPerflibWriter *self);
/* PERF_COUNTER_HEADER; dwSize patched by block_end */
gsize  ps_perflib_writer_block_begin           (PsPerflibWriter *self,
                                                guint32          status,
                                                guint32          type);
void   ps_perflib_writer_block_end             (PsPerflibWriter *self);
/* PERF_COUNTER_DATA with data_size bytes: the little-endian bytes of
 * value, 0xAB beyond 8, then zero padding to a multiple of 8. Returns the
 * offset of the raw value. */
gsize  ps_perflib_writer_counter_data          (PsPerflibWriter *self,
                                                guint64          value,
                                                guint32          data_size);
/* PERF_MULTI_COUNTERS, dwSize = 8 + 4n without padding (§9.1.3) */
gsize  ps_perflib_writer_multi_counters        (PsPerflibWriter *self,
                                                const guint32   *ids,
                                                guint32          n_ids);
/* PERF_MULTI_INSTANCES; dwTotalSize patched by multi_instances_end */
gsize  ps_perflib_writer_multi_instances_begin (PsPerflibWriter *self,
                                                guint32          n_instances);
void   ps_perflib_writer_multi_instances_end   (PsPerflibWriter *self);
/* PERF_INSTANCE_HEADER with its UTF-16LE name, padded to 8 */
gsize  ps_perflib_writer_instance              (PsPerflibWriter *self,
                                                guint32          instance_id,
                                                const char      *name);

/* PERF_COUNTER_IDENTIFIER (§3.8); name NULL: Size 40 */
gsize  ps_perflib_writer_identifier            (PsPerflibWriter *self,
                                                const guint8     guid[16],
                                                guint32          status,
                                                guint32          counter_id,
                                                guint32          instance_id,
                                                guint32          index,
                                                const char      *name);

/* Registration info, request code 1 (§3.9): the 32-byte
 * PERF_COUNTERSET_REG_INFO, then one counter_reg per counter */
gsize  ps_perflib_writer_counterset_reg        (PsPerflibWriter *self,
                                                const guint8     guid[16],
                                                guint32          detail_level,
                                                guint32          n_counters,
                                                guint32          instance_type);
gsize  ps_perflib_writer_counter_reg           (PsPerflibWriter              *self,
                                                const PsPerflibWriterCounter *counter);
/* A string-buffer block (codes 5, 6, 10): one entry per id, strings[i]
 * NULL gives dwOffset 0xFFFFFFFF */
gsize  ps_perflib_writer_string_buffer         (PsPerflibWriter    *self,
                                                const guint32      *ids,
                                                const char * const *strings,
                                                guint32             n_ids);

/* A PsPerflibWriterCounter with every companion PS_PERF_NO_COUNTER,
 * detail level 100 and the rest 0 */
void   ps_perflib_writer_counter_init          (PsPerflibWriterCounter *counter,
                                                guint32                 counter_id,
                                                guint32                 type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsPerflibWriter, ps_perflib_writer_free)

G_END_DECLS

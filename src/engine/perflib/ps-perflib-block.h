/* ps-perflib-block.h — PerfLib V2 buffers decoded from untrusted bytes
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §2 (encodings), §3 (structures), §4.1 and §4.3
 * (the counter type word), §6 (validation), §9.1–§9.2 (the cases it
 * survives).
 *
 * Three decoders, all defensive (every size is checked against its
 * container in 64-bit arithmetic before anything inside is read, every
 * field is read with explicit little-endian loads):
 *  - ps_perflib_buffer_decode (): a PerfQueryCounterData buffer into flat
 *    arrays (blocks → instances → values) that later code walks by index;
 *  - ps_perflib_counterset_decode () / _apply (): registration info;
 *  - ps_perflib_query_decode (): the PerfQueryCounterInfo identifiers.
 * Each reports damage it cannot read past as a GError naming the byte
 * offset, keeps what it decoded before, and lists problems it read past
 * as warnings (code, offset, message).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* specs: perflib-v2.md §4.1 — the fields of the counter type word. The SDK
 * defines the values; the masks are ours. */
#define PS_PERF_SIZE_MASK           0x00000300u
#define PS_PERF_SIZE_DWORD          0x00000000u
#define PS_PERF_SIZE_LARGE          0x00000100u
#define PS_PERF_SIZE_ZERO           0x00000200u
#define PS_PERF_SIZE_VARIABLE_LEN   0x00000300u

#define PS_PERF_TYPE_MASK           0x00000C00u
#define PS_PERF_TYPE_NUMBER         0x00000000u
#define PS_PERF_TYPE_COUNTER        0x00000400u
#define PS_PERF_TYPE_TEXT           0x00000800u
#define PS_PERF_TYPE_ZERO           0x00000C00u

#define PS_PERF_SUBTYPE_MASK        0x000F0000u
#define PS_PERF_NUMBER_HEX          0x00000000u
#define PS_PERF_NUMBER_DECIMAL      0x00010000u
#define PS_PERF_NUMBER_DEC_1000     0x00020000u
#define PS_PERF_COUNTER_VALUE       0x00000000u
#define PS_PERF_COUNTER_RATE        0x00010000u
#define PS_PERF_COUNTER_FRACTION    0x00020000u
#define PS_PERF_COUNTER_BASE        0x00030000u
#define PS_PERF_COUNTER_ELAPSED     0x00040000u
#define PS_PERF_COUNTER_QUEUELEN    0x00050000u
#define PS_PERF_COUNTER_HISTOGRAM   0x00060000u
#define PS_PERF_COUNTER_PRECISION   0x00070000u
#define PS_PERF_TEXT_UNICODE        0x00000000u
#define PS_PERF_TEXT_ASCII          0x00010000u

#define PS_PERF_TIMER_MASK          0x00300000u
#define PS_PERF_TIMER_TICK          0x00000000u
#define PS_PERF_TIMER_100NS         0x00100000u
#define PS_PERF_OBJECT_TIMER        0x00200000u

#define PS_PERF_DELTA_COUNTER       0x00400000u
#define PS_PERF_DELTA_BASE          0x00800000u
#define PS_PERF_INVERSE_COUNTER     0x01000000u
#define PS_PERF_MULTI_COUNTER       0x02000000u

#define PS_PERF_DISPLAY_MASK        0x70000000u
#define PS_PERF_DISPLAY_NO_SUFFIX   0x00000000u
#define PS_PERF_DISPLAY_PER_SEC     0x10000000u
#define PS_PERF_DISPLAY_PERCENT     0x20000000u
#define PS_PERF_DISPLAY_SECONDS     0x30000000u
#define PS_PERF_DISPLAY_NOSHOW      0x40000000u

/* specs: perflib-v2.md §4.3 — every counter type, named as winperf.h
 * names it with PS_ in front. */
#define PS_PERF_COUNTER_RAWCOUNT_HEX          0x00000000u
#define PS_PERF_COUNTER_LARGE_RAWCOUNT_HEX    0x00000100u
#define PS_PERF_COUNTER_TEXT                  0x00000B00u
#define PS_PERF_COUNTER_RAWCOUNT              0x00010000u
#define PS_PERF_COUNTER_LARGE_RAWCOUNT        0x00010100u
#define PS_PERF_COUNTER_DELTA                 0x00400400u
#define PS_PERF_COUNTER_LARGE_DELTA           0x00400500u
#define PS_PERF_SAMPLE_COUNTER                0x00410400u
#define PS_PERF_COUNTER_QUEUELEN_TYPE         0x00450400u
#define PS_PERF_COUNTER_LARGE_QUEUELEN_TYPE   0x00450500u
#define PS_PERF_COUNTER_100NS_QUEUELEN_TYPE   0x00550500u
#define PS_PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE 0x00650500u
#define PS_PERF_COUNTER_COUNTER               0x10410400u
#define PS_PERF_COUNTER_BULK_COUNT            0x10410500u
#define PS_PERF_RAW_FRACTION                  0x20020400u
#define PS_PERF_LARGE_RAW_FRACTION            0x20020500u
#define PS_PERF_COUNTER_TIMER                 0x20410500u
#define PS_PERF_PRECISION_SYSTEM_TIMER        0x20470500u
#define PS_PERF_100NSEC_TIMER                 0x20510500u
#define PS_PERF_PRECISION_100NS_TIMER         0x20570500u
#define PS_PERF_OBJ_TIME_TIMER                0x20610500u
#define PS_PERF_PRECISION_OBJECT_TIMER        0x20670500u
#define PS_PERF_SAMPLE_FRACTION               0x20C20400u
#define PS_PERF_COUNTER_TIMER_INV             0x21410500u
#define PS_PERF_100NSEC_TIMER_INV             0x21510500u
#define PS_PERF_COUNTER_MULTI_TIMER           0x22410500u
#define PS_PERF_100NSEC_MULTI_TIMER           0x22510500u
#define PS_PERF_COUNTER_MULTI_TIMER_INV       0x23410500u
#define PS_PERF_100NSEC_MULTI_TIMER_INV       0x23510500u
#define PS_PERF_AVERAGE_TIMER                 0x30020400u
#define PS_PERF_ELAPSED_TIME                  0x30240500u
#define PS_PERF_AVERAGE_BULK                  0x40020500u
#define PS_PERF_COUNTER_NODATA                0x40000200u
#define PS_PERF_SAMPLE_BASE                   0x40030401u
#define PS_PERF_AVERAGE_BASE                  0x40030402u
#define PS_PERF_RAW_BASE                      0x40030403u
#define PS_PERF_LARGE_RAW_BASE                0x40030500u
#define PS_PERF_PRECISION_TIMESTAMP           PS_PERF_LARGE_RAW_BASE
#define PS_PERF_COUNTER_MULTI_BASE            0x42030500u
#define PS_PERF_COUNTER_HISTOGRAM_TYPE        0x80000000u

/* specs: perflib-v2.md §3.10 — "no counter", "any instance" */
#define PS_PERF_WILDCARD_COUNTER   0xFFFFFFFFu
#define PS_PERF_NO_COUNTER         0xFFFFFFFFu


/* specs: perflib-v2.md §3.2 — PerfCounterDataType, the dwType of a block */
typedef enum
{
  PS_PERFLIB_BLOCK_ERROR_RETURN        = 0,
  PS_PERFLIB_BLOCK_SINGLE_COUNTER      = 1,
  PS_PERFLIB_BLOCK_MULTIPLE_COUNTERS   = 2,
  PS_PERFLIB_BLOCK_MULTIPLE_INSTANCES  = 4,
  PS_PERFLIB_BLOCK_COUNTERSET          = 6,
} PsPerflibBlockType;

/* ------------------------------------------------------------------ */
/* The counter type word (§4.1, §4.3)                                 */
/* ------------------------------------------------------------------ */

/* What a type's display value is measured in. */
typedef enum
{
  PS_PERFLIB_UNIT_NONE,        /* bases, NODATA, histogram: not displayed */
  PS_PERFLIB_UNIT_COUNT,       /* raw counts, deltas, averages, queue lengths */
  PS_PERFLIB_UNIT_PER_SECOND,
  PS_PERFLIB_UNIT_PERCENT,
  PS_PERFLIB_UNIT_SECONDS,
  PS_PERFLIB_UNIT_TEXT,
} PsPerflibUnit;

/* Where the "D" (and "F") of a formula comes from (§4.2, §5.1). */
typedef enum
{
  PS_PERFLIB_TIME_NONE,          /* no time in the formula */
  PS_PERFLIB_TIME_SYSTEM_TICKS,  /* PerfTimeStamp / PerfFreq of the buffer */
  PS_PERFLIB_TIME_100NS,         /* PerfTime100NSec of the buffer */
  PS_PERFLIB_TIME_OBJECT,        /* PerfTimeId / PerfFreqId counters */
  PS_PERFLIB_TIME_BASE_COUNTER,  /* a provider-supplied timestamp counter */
} PsPerflibTimeSource;

/* How the display value is computed from N, D, F, B and M (§4.3,
 * "Display value"); ps_perflib_compute () follows it. */
typedef enum
{
  PS_PERFLIB_FORMULA_RAW,             /* N */
  PS_PERFLIB_FORMULA_TEXT,            /* no number */
  PS_PERFLIB_FORMULA_HIDDEN,          /* bases, NODATA, the histogram flag */
  PS_PERFLIB_FORMULA_DELTA,           /* N1 − N0 */
  PS_PERFLIB_FORMULA_RATE,            /* ΔN / (ΔD / F) */
  PS_PERFLIB_FORMULA_QUEUELEN,        /* ΔN / ΔD */
  PS_PERFLIB_FORMULA_FRACTION,        /* 100 × N / B */
  PS_PERFLIB_FORMULA_TIMER,           /* 100 × ΔN / ΔD */
  PS_PERFLIB_FORMULA_TIMER_INV,       /* 100 × (1 − ΔN / ΔD) */
  PS_PERFLIB_FORMULA_PRECISION,       /* 100 × ΔN / ΔB, B a timestamp */
  PS_PERFLIB_FORMULA_SAMPLE_FRACTION, /* 100 × ΔN / ΔB */
  PS_PERFLIB_FORMULA_MULTI_TIMER,     /* 100 × (ΔN / ΔD) / M */
  PS_PERFLIB_FORMULA_MULTI_TIMER_INV, /* 100 × (M − ΔN / ΔD), or ÷ M normalized (§5.6) */
  PS_PERFLIB_FORMULA_AVERAGE_TIMER,   /* (ΔN / F) / ΔB */
  PS_PERFLIB_FORMULA_AVERAGE_BULK,    /* ΔN / ΔB */
  PS_PERFLIB_FORMULA_ELAPSED,         /* (D − N) / F_obj (§5.3) */
} PsPerflibFormula;

/* One row of the §4.3 table: every fact about a known type lives here,
 * the decoder's and ps-perflib-formula's alike. */
typedef struct
{
  guint32              type;
  const char          *name;          /* "PERF_100NSEC_TIMER_INV" */
  PsPerflibFormula     formula;
  guint                raw_size;      /* 4, 8, or 0 (none / text) */
  guint                n_samples;     /* 1 or 2; 0 for bases and flags */
  gboolean             is_base;       /* a base counter, never shown alone */
  guint32              base_type;     /* the base it needs, or 0 for none */
  gboolean             needs_multi;   /* needs M, the component count */
  PsPerflibTimeSource  time_source;
  PsPerflibUnit        unit;
  gboolean             display_hex;
} PsPerflibTypeInfo;

/* Fields of the type word, for any value (also unknown types). */
guint32                  ps_perflib_type_get_size_field     (guint32 type);
guint                    ps_perflib_type_get_value_size     (guint32 type);
guint32                  ps_perflib_type_get_kind           (guint32 type);
guint32                  ps_perflib_type_get_subtype        (guint32 type);
guint32                  ps_perflib_type_get_time_base      (guint32 type);
guint32                  ps_perflib_type_get_modifiers      (guint32 type);
guint32                  ps_perflib_type_get_display_suffix (guint32 type);

/* The §4.3 table. The explicit table drives behaviour; for a type not in
 * it, get_info returns NULL and the predicates fall back to the bits.
 * Whether a type needs two samples: info->n_samples == 2, or
 * ps_perflib_type_needs_two_samples () in ps-perflib-formula.h. */
const PsPerflibTypeInfo *ps_perflib_type_get_info           (guint32 type);
const char              *ps_perflib_type_to_string          (guint32 type);
gboolean                 ps_perflib_type_needs_base         (guint32 type);
gboolean                 ps_perflib_type_needs_time_base    (guint32 type);
PsPerflibUnit            ps_perflib_type_get_unit           (guint32 type);
const char              *ps_perflib_unit_to_string          (PsPerflibUnit unit);

/* ------------------------------------------------------------------ */
/* Warnings: problems the decoders read past                          */
/* ------------------------------------------------------------------ */

typedef enum
{
  PS_PERFLIB_WARNING_TRAILING_BYTES,      /* bytes after dwTotalSize / after the last block */
  PS_PERFLIB_WARNING_UNALIGNED_SIZE,      /* a size that should be a multiple of 8 is not */
  PS_PERFLIB_WARNING_UNALIGNED_BLOCK,     /* a block the docs say is 8-aligned is not */
  PS_PERFLIB_WARNING_UNKNOWN_BLOCK_TYPE,  /* dwType not 0/1/2/4/6: skipped by dwSize */
  PS_PERFLIB_WARNING_ERROR_PAYLOAD,       /* a PERF_ERROR_RETURN with a payload: ignored */
  PS_PERFLIB_WARNING_UNUSED_BYTES,        /* a size covers more than its contents */
  PS_PERFLIB_WARNING_INSTANCE_REJECTED,   /* instance name without NUL: instance dropped */
  PS_PERFLIB_WARNING_BAD_UTF16,           /* ill-formed UTF-16 replaced by U+FFFD */
  PS_PERFLIB_WARNING_OPAQUE_VALUE,        /* dwDataSize not 4 or 8: no numeric value */
  PS_PERFLIB_WARNING_BAD_SYSTEM_TIME,     /* SYSTEMTIME fields out of range */
  PS_PERFLIB_WARNING_DUPLICATE_COUNTER,   /* a CounterId registered twice: first kept */
  PS_PERFLIB_WARNING_BAD_COMPANION,       /* a companion id missing or pointing at itself: cleared */
  PS_PERFLIB_WARNING_COMPANION_CYCLE,     /* companion ids form a cycle: closing link cleared */
  PS_PERFLIB_WARNING_BAD_STRING,          /* a string offset or string rejected */
  PS_PERFLIB_WARNING_UNKNOWN_STRING_ID,   /* a string for a counter that is not registered */
  PS_PERFLIB_WARNING_BAD_INDEX,           /* identifier Index values not a permutation */
} PsPerflibWarningCode;

typedef struct
{
  PsPerflibWarningCode  code;
  gsize                 offset;   /* byte offset within the decoded buffer */
  char                 *message;  /* translated, names the offset */
} PsPerflibWarning;

/* ------------------------------------------------------------------ */
/* GUID (§2)                                                          */
/* ------------------------------------------------------------------ */

typedef struct
{
  guint32 data1;
  guint16 data2;
  guint16 data3;
  guint8  data4[8];
} PsPerflibGuid;

void      ps_perflib_guid_read      (PsPerflibGuid       *guid,
                                     const guint8        *bytes16);
gboolean  ps_perflib_guid_equal     (const PsPerflibGuid *a,
                                     const PsPerflibGuid *b);
char     *ps_perflib_guid_to_string (const PsPerflibGuid *guid);

/* A FILETIME (100 ns since 1601) as nanoseconds since 1970; FALSE when
 * negative or beyond 64-bit nanoseconds (after 2262) */
gboolean  ps_perflib_filetime_to_unix_ns (gint64         filetime,
                                          gint64        *out_ns);

/* ------------------------------------------------------------------ */
/* Counter data buffers (§3.1–§3.7)                                   */
/* ------------------------------------------------------------------ */

#define PS_PERFLIB_NO_INSTANCE G_MAXUINT

/* specs: perflib-v2.md §2 — SYSTEMTIME */
typedef struct
{
  guint16 year, month, day_of_week, day, hour, minute, second, milliseconds;
} PsPerflibSystemTime;

/* One PERF_COUNTER_DATA block. */
typedef struct
{
  gsize    offset;       /* of its PERF_COUNTER_DATA struct */
  gsize    data_offset;  /* of its raw bytes (offset + 8) */
  guint32  counter_id;   /* from PERF_MULTI_COUNTERS, or PS_PERF_NO_COUNTER
                          * when the block does not say (types 1 and 4: the
                          * query specification names the counter) */
  guint32  data_size;    /* dwDataSize */
  guint    instance;     /* index into PsPerflibBuffer.instances, or
                          * PS_PERFLIB_NO_INSTANCE */
  gboolean has_value;    /* dwDataSize is 4 or 8 */
  guint64  value;        /* 4 bytes zero-extended, or 8 bytes */
} PsPerflibValue;

/* One PERF_INSTANCE_HEADER. */
typedef struct
{
  gsize        offset;
  guint32      instance_id;
  const char  *name;       /* UTF-8, owned by the buffer; "" when empty */
} PsPerflibInstance;

/* One PERF_COUNTER_HEADER block: its values are values[first_value ..
 * first_value + n_values), in buffer order (for type 6, instance by
 * instance, counter_ids order within each); its instances likewise. */
typedef struct
{
  gsize    offset;          /* of its PERF_COUNTER_HEADER */
  guint    position;        /* k: the result of the spec whose Index is k */
  guint32  status;          /* dwStatus, a Win32 error code */
  guint32  type;            /* dwType, a PsPerflibBlockType or unknown */
  guint32  size;            /* dwSize */
  gboolean complete;        /* FALSE: decoding stopped inside this block */
  guint    first_counter_id, n_counter_ids;   /* into counter_ids */
  guint    first_instance, n_instances;       /* into instances */
  guint    first_value, n_values;             /* into values */
} PsPerflibBlock;

/* The decoded buffer. Read the fields directly; they are not changed
 * after decoding. Times: PerfTime100NSec and SystemTime are also given
 * as Unix nanoseconds (0 and *_valid FALSE when out of range). */
typedef struct
{
  gsize                 length;            /* bytes given to the decoder */
  guint32               total_size;        /* dwTotalSize */
  guint32               num_counters;      /* dwNumCounters */
  gint64                perf_time_stamp;
  gint64                perf_time_100nsec;
  gint64                perf_freq;
  PsPerflibSystemTime   system_time;
  gint64                perf_time_100nsec_unix_ns;
  gboolean              perf_time_100nsec_valid;
  gint64                system_time_unix_ns;
  gboolean              system_time_valid;
  gboolean              complete;          /* every block decoded */

  const PsPerflibBlock    *blocks;       guint n_blocks;
  const PsPerflibInstance *instances;    guint n_instances;
  const PsPerflibValue    *values;       guint n_values;
  const guint32           *counter_ids;  guint n_counter_ids;
  const PsPerflibWarning  *warnings;     guint n_warnings;

  /*< private >*/
  gpointer priv;
} PsPerflibBuffer;

/* Decodes a PerfQueryCounterData buffer; the bytes are not kept (copy
 * raw values you need through data_offset while you hold them).
 *
 * Returns TRUE when the whole buffer was valid (warnings aside). On
 * damage, returns FALSE and sets @error (PS_ERROR_PARSE, or
 * PS_ERROR_TOO_LARGE above 1 GiB) with a message naming the byte offset
 * and what was expected; *@out_buffer still receives everything decoded
 * before the damage (the damaged block with complete = FALSE and the
 * values read before the damage), or NULL when not even the 48-byte
 * header could be read. @out_buffer may be NULL. */
gboolean ps_perflib_buffer_decode (const guint8     *data,
                                   gsize             length,
                                   PsPerflibBuffer **out_buffer,
                                   GError          **error);
void     ps_perflib_buffer_free   (PsPerflibBuffer  *buffer);

/* ------------------------------------------------------------------ */
/* Registration information (§3.9) and identifiers (§3.8)             */
/* ------------------------------------------------------------------ */

/* PerfRegInfoType request codes */
typedef enum
{
  PS_PERFLIB_REG_COUNTERSET_STRUCT       = 1,
  PS_PERFLIB_REG_COUNTER_STRUCT          = 2,
  PS_PERFLIB_REG_COUNTERSET_NAME_STRING  = 3,
  PS_PERFLIB_REG_COUNTERSET_HELP_STRING  = 4,
  PS_PERFLIB_REG_COUNTER_NAME_STRINGS    = 5,
  PS_PERFLIB_REG_COUNTER_HELP_STRINGS    = 6,
  PS_PERFLIB_REG_PROVIDER_NAME           = 7,
  PS_PERFLIB_REG_PROVIDER_GUID           = 8,
  PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME = 9,
  PS_PERFLIB_REG_COUNTER_ENGLISH_NAMES   = 10,
} PsPerflibRegInfoType;

/* InstanceType bits */
#define PS_PERFLIB_INSTANCE_MULTIPLE  0x2u
#define PS_PERFLIB_INSTANCE_AGGREGATE 0x4u
#define PS_PERFLIB_INSTANCE_HISTORY   0x8u
#define PS_PERFLIB_INSTANCE_INSTANCE  0x10u

/* Attrib bits */
#define PS_PERFLIB_ATTRIB_BY_REFERENCE    0x1u
#define PS_PERFLIB_ATTRIB_NO_DISPLAYABLE  0x2u
#define PS_PERFLIB_ATTRIB_NO_GROUP_SEPARATOR 0x4u
#define PS_PERFLIB_ATTRIB_DISPLAY_AS_REAL 0x8u
#define PS_PERFLIB_ATTRIB_DISPLAY_AS_HEX  0x10u

/* One PERF_COUNTER_REG_INFO; companion ids are PS_PERF_NO_COUNTER or
 * the id of another registered counter (invalid links are cleared with
 * a warning). Strings are UTF-8 owned by the counterset, NULL when the
 * corresponding request code was not applied or had no string. */
typedef struct
{
  gsize        offset;
  guint32      counter_id;
  guint32      type;
  guint64      attrib;
  guint32      detail_level;
  gint32       default_scale;
  guint32      base_counter_id;
  guint32      perf_time_id;
  guint32      perf_freq_id;
  guint32      multi_id;
  guint32      aggregate_func;
  const char  *name;          /* code 5 */
  const char  *help;          /* code 6 */
  const char  *english_name;  /* code 10 */
} PsPerflibCounterInfo;

typedef struct
{
  PsPerflibGuid  guid;
  PsPerflibGuid  provider_guid;      /* code 8 */
  gboolean       has_provider_guid;
  guint32        counterset_type;    /* reserved */
  guint32        detail_level;
  guint32        num_counters;       /* as declared */
  guint32        instance_type;
  const char    *name;               /* code 3 */
  const char    *help;               /* code 4 */
  const char    *provider_name;      /* code 7 */
  const char    *english_name;       /* code 9 */

  PsPerflibCounterInfo *counters;    /* registration order, duplicates dropped */
  guint                 n_counters;

  /* Warnings of every decode call on this set, in call order. */
  const PsPerflibWarning *warnings;
  guint                   n_warnings;

  /*< private >*/
  gpointer priv;
} PsPerflibCounterSet;

/* Decodes a PERF_REG_COUNTERSET_STRUCT result (code 1). Same contract as
 * ps_perflib_buffer_decode (): FALSE + @error on damage, *@out_set gets
 * the counters read before it (NULL if the 32-byte header is missing). */
gboolean                    ps_perflib_counterset_decode      (const guint8          *data,
                                                               gsize                  length,
                                                               PsPerflibCounterSet  **out_set,
                                                               GError               **error);
/* Adds the result of another request code (2–10) to @set. Nothing is
 * changed when it returns FALSE, except for string buffers, whose valid
 * entries are kept and bad entries skipped with warnings. */
gboolean                    ps_perflib_counterset_apply       (PsPerflibCounterSet   *set,
                                                               PsPerflibRegInfoType   request_code,
                                                               const guint8          *data,
                                                               gsize                  length,
                                                               GError               **error);
const PsPerflibCounterInfo *ps_perflib_counterset_lookup      (const PsPerflibCounterSet *set,
                                                               guint32                counter_id);
void                        ps_perflib_counterset_free        (PsPerflibCounterSet   *set);

/* One PERF_COUNTER_IDENTIFIER (a query specification). */
typedef struct
{
  gsize          offset;
  PsPerflibGuid  counterset_guid;
  guint32        status;
  guint32        size;
  guint32        counter_id;      /* or PS_PERF_WILDCARD_COUNTER */
  guint32        instance_id;     /* or 0xFFFFFFFF: any */
  guint32        index;
  const char    *instance_name;   /* UTF-8, NULL when absent (Size = 40) */
} PsPerflibIdentifier;

typedef struct
{
  PsPerflibIdentifier *identifiers;     /* storage order */
  guint                n_identifiers;
  /* TRUE when the Index values are a permutation of 0..n−1; otherwise
   * blocks map to identifiers in storage order (§3.1, [OURS]). */
  gboolean             index_valid;
  const PsPerflibWarning *warnings;
  guint                   n_warnings;

  /*< private >*/
  gpointer priv;
} PsPerflibQuery;

/* Decodes a PerfQueryCounterInfo result; same contract as above. */
gboolean                   ps_perflib_query_decode          (const guint8     *data,
                                                             gsize             length,
                                                             PsPerflibQuery  **out_query,
                                                             GError          **error);
/* The specification whose result is block @position, or NULL. */
const PsPerflibIdentifier *ps_perflib_query_get_for_block   (const PsPerflibQuery *query,
                                                             guint             position);
void                       ps_perflib_query_free            (PsPerflibQuery  *query);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsPerflibBuffer, ps_perflib_buffer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsPerflibCounterSet, ps_perflib_counterset_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsPerflibQuery, ps_perflib_query_free)

G_END_DECLS

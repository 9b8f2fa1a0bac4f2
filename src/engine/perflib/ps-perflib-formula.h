/* ps-perflib-formula.h — display values of PerfLib counters from raw samples
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §4.3 (every counter type and its formula), §5.1
 * (time sources), §5.3 (PERF_ELAPSED_TIME), §5.4 (invalid cases), §5.5
 * (no scaling), §5.6 (multi-timers), §5.7 and §9.3 (the cases it survives).
 *
 * The formulas know nothing about buffers, registration info or series:
 * the caller gathers, for one (counterset, instance, counter) in one
 * sample, the raw value and the companions the type needs (resolving
 * BaseCounterId, PerfTimeId, PerfFreqId and MultiId as §5.2 says) into a
 * PsPerflibRaw, and hands the previous and the current one of the same
 * series to ps_perflib_compute(). Values are never clamped nor scaled.
 */
#pragma once

#include <glib.h>

#include "ps-perflib-block.h"

G_BEGIN_DECLS

/* Which fields of a PsPerflibRaw hold something */
typedef enum
{
  PS_PERFLIB_RAW_VALUE       = 1 << 0, /* value, value_size */
  PS_PERFLIB_RAW_BASE        = 1 << 1, /* base */
  PS_PERFLIB_RAW_SYSTEM_TIME = 1 << 2, /* perf_time, perf_freq (PERF_DATA_HEADER) */
  PS_PERFLIB_RAW_TIME_100NS  = 1 << 3, /* perf_time_100ns (PERF_DATA_HEADER) */
  PS_PERFLIB_RAW_OBJECT_TIME = 1 << 4, /* object_time (the PerfTimeId counter) */
  PS_PERFLIB_RAW_OBJECT_FREQ = 1 << 5, /* object_freq (the PerfFreqId counter) */
  PS_PERFLIB_RAW_MULTI       = 1 << 6, /* multi (MultiId, or a PERF_COUNTER_MULTI_BASE) */
} PsPerflibRawFields;

/* One counter instance in one sample, as the formulas need it
 * (specs: perflib-v2.md §4.2). */
typedef struct
{
  guint32 fields;          /* PsPerflibRawFields */
  guint   value_size;      /* bytes of N in the data block: 4 (zero-extended) or 8 */
  guint64 value;           /* N */
  /* B: the base counter; for PERF_PRECISION_SYSTEM_TIMER the provider's
   * timestamp (BaseCounterId, else PerfTimeId, §5.1); for
   * PERF_PRECISION_100NS_TIMER the PERF_PRECISION_TIMESTAMP base. */
  guint64 base;
  gint64  perf_time;       /* PerfTimeStamp, ticks */
  gint64  perf_freq;       /* PerfFreq, ticks per second */
  gint64  perf_time_100ns; /* PerfTime100NSec */
  guint64 object_time;     /* object-timer types, PERF_PRECISION_OBJECT_TIMER, PERF_ELAPSED_TIME */
  guint64 object_freq;
  guint64 multi;           /* M, the component count */
} PsPerflibRaw;

typedef enum
{
  PS_PERFLIB_OPTIONS_NONE                   = 0,
  /* §5.4: for 4-byte counters, a negative ΔN is one 2^32 wrap when the
   * wrapped difference is below 2^31 */
  PS_PERFLIB_OPTIONS_WRAP_32                = 1 << 0,
  /* §5.6: inverse multi-timers as 100 × (M − ΔN/ΔD) / M (0–100 %)
   * instead of 100 × (M − ΔN/ΔD) (up to 100 × M) */
  PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE = 1 << 1,
} PsPerflibOptions;

/* Why there is no value (specs: perflib-v2.md §5.4, §9.3) */
typedef enum
{
  PS_PERFLIB_RESULT_OK,
  PS_PERFLIB_RESULT_FIRST_SAMPLE,       /* a two-sample type without a previous sample */
  PS_PERFLIB_RESULT_NEGATIVE_DELTA,     /* ΔN < 0: counter reset, instance replaced or wrap */
  PS_PERFLIB_RESULT_BAD_TIME_DELTA,     /* ΔD ≤ 0 (for precision types: Δ of the timestamp base) */
  PS_PERFLIB_RESULT_BAD_BASE_DELTA,     /* ΔB ≤ 0 */
  PS_PERFLIB_RESULT_ZERO_BASE,          /* B = 0 in a single-sample fraction */
  PS_PERFLIB_RESULT_ZERO_FREQUENCY,     /* PerfFreq (or the object frequency) is 0 or negative */
  PS_PERFLIB_RESULT_FREQUENCY_CHANGED,  /* the frequency differs between the two samples */
  PS_PERFLIB_RESULT_ZERO_MULTI,         /* M = 0 in a multi-timer */
  PS_PERFLIB_RESULT_NEGATIVE_ELAPSED,   /* PERF_ELAPSED_TIME: start time after the time now */
  PS_PERFLIB_RESULT_NOT_STARTED,        /* PERF_ELAPSED_TIME: start time 0 */
  PS_PERFLIB_RESULT_MISSING_INPUT,      /* the raw value or a companion the type needs is absent */
  PS_PERFLIB_RESULT_BAD_VALUE_SIZE,     /* the raw value is neither 4 nor 8 bytes */
  PS_PERFLIB_RESULT_NOT_NUMERIC,        /* PERF_COUNTER_TEXT */
  PS_PERFLIB_RESULT_NOT_DISPLAYED,      /* a base, PERF_COUNTER_NODATA, the histogram flag */
} PsPerflibResult;

typedef enum
{
  PS_PERFLIB_FLAG_NONE          = 0,
  PS_PERFLIB_FLAG_ESTIMATED     = 1 << 0, /* §5.3: PERF_ELAPSED_TIME from the header's clocks */
  PS_PERFLIB_FLAG_UNCONFIRMED   = 1 << 1, /* §5.6: the tick-based multi-timers */
  PS_PERFLIB_FLAG_WRAPPED       = 1 << 2, /* §5.4: ΔN taken as one 32-bit wrap */
  PS_PERFLIB_FLAG_SIZE_MISMATCH = 1 << 3, /* §9.3.6: data size differs from the type's size field */
  PS_PERFLIB_FLAG_UNKNOWN_TYPE  = 1 << 4, /* §9.3.7: not a type of §4.3: the raw value, no formula */
} PsPerflibFlags;

typedef struct
{
  PsPerflibResult result;
  guint32         flags;   /* PsPerflibFlags, set with or without a value */
} PsPerflibStatus;

/* How a type's value is shown */
typedef enum
{
  PS_PERFLIB_DISPLAY_DECIMAL,
  PS_PERFLIB_DISPLAY_HEX,
  PS_PERFLIB_DISPLAY_TEXT,
  PS_PERFLIB_DISPLAY_HIDDEN,  /* bases and other companions, PERF_COUNTER_NODATA */
} PsPerflibDisplay;

/* The display value of `type` from the current sample and, for two-sample
 * types, the previous one of the same series (NULL: none). TRUE with
 * *value set, or FALSE with *value = 0 and status->result saying why.
 * status may be NULL. */
gboolean          ps_perflib_compute              (guint32             type,
                                                   const PsPerflibRaw *previous,
                                                   const PsPerflibRaw *current,
                                                   PsPerflibOptions    options,
                                                   double             *value,
                                                   PsPerflibStatus    *status);
/* The same for a type whose entry was looked up once with
 * ps_perflib_type_get_info () (NULL for a type not in §4.3), for callers
 * that compute many readings of one counter */
gboolean          ps_perflib_compute_with_info    (const PsPerflibTypeInfo *info,
                                                   guint32             type,
                                                   const PsPerflibRaw *previous,
                                                   const PsPerflibRaw *current,
                                                   PsPerflibOptions    options,
                                                   double             *value,
                                                   PsPerflibStatus    *status);

/* "PERF_100NSEC_TIMER_INV", …; NULL for a type not in §4.3 */
const char       *ps_perflib_type_get_name        (guint32             type);
gboolean          ps_perflib_type_is_known        (guint32             type);
/* TRUE when the formula needs two samples */
gboolean          ps_perflib_type_needs_two_samples (guint32           type);
/* The PsPerflibRawFields a type's formula reads (PERF_ELAPSED_TIME: the
 * object time and frequency, though §5.3 has a fallback) */
guint32           ps_perflib_type_get_needed_fields (guint32           type);
/* A base or other companion type (the §4.3 rows marked hidden) */
gboolean          ps_perflib_type_is_base         (guint32             type);
PsPerflibDisplay  ps_perflib_type_get_display     (guint32             type);
/* The unit of the display value: a stable id ("percent",
 * "percent_of_component", "per_second", "seconds", "count", "number",
 * "text", "none") and its translated label. The options matter for the
 * inverse multi-timers (§5.6). */
const char       *ps_perflib_type_get_unit_id     (guint32             type,
                                                   PsPerflibOptions    options);
const char       *ps_perflib_type_get_unit_label  (guint32             type,
                                                   PsPerflibOptions    options);

/* A translated sentence for a result ("First sample of a rate: no value
 * yet", …) */
const char       *ps_perflib_result_to_string     (PsPerflibResult     result);

G_END_DECLS

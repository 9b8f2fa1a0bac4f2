/* ps-perflib-formula.c — display values of PerfLib counters from raw samples
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §4.3 (the table this file is driven by), §5.1,
 * §5.3, §5.4, §5.5, §5.6, §5.7, §9.3.
 *
 * §4.1 warns against deriving behaviour from the bits of the type word
 * (PERF_AVERAGE_TIMER needs two samples without a DELTA bit, PERF_AVERAGE_BULK
 * is displayed despite its "do not display" suffix), so every known type
 * has a row in `types` below; the bits are read only for unknown types.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ps-perflib-formula.h"

/* How a formula turns its inputs into a value (§4.3, "Display value") */
typedef enum
{
  KIND_RAW,             /* N */
  KIND_TEXT,            /* no number */
  KIND_HIDDEN,          /* bases, NODATA, the histogram flag */
  KIND_DELTA,           /* N1 − N0 */
  KIND_RATE,            /* ΔN / (ΔD / F) */
  KIND_QUEUELEN,        /* ΔN / ΔD */
  KIND_FRACTION,        /* 100 × N / B */
  KIND_TIMER,           /* 100 × ΔN / ΔD */
  KIND_TIMER_INV,       /* 100 × (1 − ΔN / ΔD) */
  KIND_PRECISION,       /* 100 × ΔN / ΔB, B a timestamp */
  KIND_SAMPLE_FRACTION, /* 100 × ΔN / ΔB */
  KIND_MULTI_TIMER,     /* 100 × (ΔN / ΔD) / M */
  KIND_MULTI_TIMER_INV, /* 100 × (M − ΔN / ΔD), or ÷ M normalized (§5.6) */
  KIND_AVERAGE_TIMER,   /* (ΔN / F) / ΔB */
  KIND_AVERAGE_BULK,    /* ΔN / ΔB */
  KIND_ELAPSED,         /* (D − N) / F_obj (§5.3) */
} Kind;

/* Where D (and F) come from (§5.1) */
typedef enum
{
  CLOCK_NONE,
  CLOCK_SYSTEM,   /* PerfTimeStamp / PerfFreq */
  CLOCK_100NS,    /* PerfTime100NSec */
  CLOCK_OBJECT,   /* the PerfTimeId / PerfFreqId counters */
} Clock;

typedef struct
{
  guint32          type;
  const char      *name;
  Kind             kind;
  Clock            clock;
  const char      *unit_id;
  PsPerflibDisplay display;
  gboolean         unconfirmed;  /* §5.6 */
} TypeInfo;

#define DEC PS_PERFLIB_DISPLAY_DECIMAL
#define HEX PS_PERFLIB_DISPLAY_HEX
#define TXT PS_PERFLIB_DISPLAY_TEXT
#define HID PS_PERFLIB_DISPLAY_HIDDEN

/* specs: perflib-v2.md §4.3, row by row */
static const TypeInfo types[] = {
  { PS_PERF_COUNTER_RAWCOUNT_HEX,           "PERF_COUNTER_RAWCOUNT_HEX",           KIND_RAW,             CLOCK_NONE,   "count",      HEX, FALSE },
  { PS_PERF_COUNTER_LARGE_RAWCOUNT_HEX,     "PERF_COUNTER_LARGE_RAWCOUNT_HEX",     KIND_RAW,             CLOCK_NONE,   "count",      HEX, FALSE },
  { PS_PERF_COUNTER_TEXT,                   "PERF_COUNTER_TEXT",                   KIND_TEXT,            CLOCK_NONE,   "text",       TXT, FALSE },
  { PS_PERF_COUNTER_RAWCOUNT,               "PERF_COUNTER_RAWCOUNT",               KIND_RAW,             CLOCK_NONE,   "count",      DEC, FALSE },
  { PS_PERF_COUNTER_LARGE_RAWCOUNT,         "PERF_COUNTER_LARGE_RAWCOUNT",         KIND_RAW,             CLOCK_NONE,   "count",      DEC, FALSE },
  { PS_PERF_COUNTER_DELTA,                  "PERF_COUNTER_DELTA",                  KIND_DELTA,           CLOCK_NONE,   "count",      DEC, FALSE },
  { PS_PERF_COUNTER_LARGE_DELTA,            "PERF_COUNTER_LARGE_DELTA",            KIND_DELTA,           CLOCK_NONE,   "count",      DEC, FALSE },
  { PS_PERF_SAMPLE_COUNTER,                 "PERF_SAMPLE_COUNTER",                 KIND_RATE,            CLOCK_SYSTEM, "per_second", DEC, FALSE },
  { PS_PERF_COUNTER_QUEUELEN_TYPE,          "PERF_COUNTER_QUEUELEN_TYPE",          KIND_QUEUELEN,        CLOCK_SYSTEM, "number",     DEC, FALSE },
  { PS_PERF_COUNTER_LARGE_QUEUELEN_TYPE,    "PERF_COUNTER_LARGE_QUEUELEN_TYPE",    KIND_QUEUELEN,        CLOCK_SYSTEM, "number",     DEC, FALSE },
  { PS_PERF_COUNTER_100NS_QUEUELEN_TYPE,    "PERF_COUNTER_100NS_QUEUELEN_TYPE",    KIND_QUEUELEN,        CLOCK_100NS,  "number",     DEC, FALSE },
  { PS_PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", KIND_QUEUELEN,        CLOCK_OBJECT, "number",     DEC, FALSE },
  { PS_PERF_COUNTER_COUNTER,                "PERF_COUNTER_COUNTER",                KIND_RATE,            CLOCK_SYSTEM, "per_second", DEC, FALSE },
  { PS_PERF_COUNTER_BULK_COUNT,             "PERF_COUNTER_BULK_COUNT",             KIND_RATE,            CLOCK_SYSTEM, "per_second", DEC, FALSE },
  { PS_PERF_RAW_FRACTION,                   "PERF_RAW_FRACTION",                   KIND_FRACTION,        CLOCK_NONE,   "percent",    DEC, FALSE },
  { PS_PERF_LARGE_RAW_FRACTION,             "PERF_LARGE_RAW_FRACTION",             KIND_FRACTION,        CLOCK_NONE,   "percent",    DEC, FALSE },
  { PS_PERF_COUNTER_TIMER,                  "PERF_COUNTER_TIMER",                  KIND_TIMER,           CLOCK_SYSTEM, "percent",    DEC, FALSE },
  { PS_PERF_PRECISION_SYSTEM_TIMER,         "PERF_PRECISION_SYSTEM_TIMER",         KIND_PRECISION,       CLOCK_NONE,   "percent",    DEC, FALSE },
  { PS_PERF_100NSEC_TIMER,                  "PERF_100NSEC_TIMER",                  KIND_TIMER,           CLOCK_100NS,  "percent",    DEC, FALSE },
  { PS_PERF_PRECISION_100NS_TIMER,          "PERF_PRECISION_100NS_TIMER",          KIND_PRECISION,       CLOCK_NONE,   "percent",    DEC, FALSE },
  { PS_PERF_OBJ_TIME_TIMER,                 "PERF_OBJ_TIME_TIMER",                 KIND_TIMER,           CLOCK_OBJECT, "percent",    DEC, FALSE },
  { PS_PERF_PRECISION_OBJECT_TIMER,         "PERF_PRECISION_OBJECT_TIMER",         KIND_TIMER,           CLOCK_OBJECT, "percent",    DEC, FALSE },
  { PS_PERF_SAMPLE_FRACTION,                "PERF_SAMPLE_FRACTION",                KIND_SAMPLE_FRACTION, CLOCK_NONE,   "percent",    DEC, FALSE },
  { PS_PERF_COUNTER_TIMER_INV,              "PERF_COUNTER_TIMER_INV",              KIND_TIMER_INV,       CLOCK_SYSTEM, "percent",    DEC, FALSE },
  { PS_PERF_100NSEC_TIMER_INV,              "PERF_100NSEC_TIMER_INV",              KIND_TIMER_INV,       CLOCK_100NS,  "percent",    DEC, FALSE },
  { PS_PERF_COUNTER_MULTI_TIMER,            "PERF_COUNTER_MULTI_TIMER",            KIND_MULTI_TIMER,     CLOCK_SYSTEM, "percent",    DEC, TRUE },
  { PS_PERF_100NSEC_MULTI_TIMER,            "PERF_100NSEC_MULTI_TIMER",            KIND_MULTI_TIMER,     CLOCK_100NS,  "percent",    DEC, FALSE },
  { PS_PERF_COUNTER_MULTI_TIMER_INV,        "PERF_COUNTER_MULTI_TIMER_INV",        KIND_MULTI_TIMER_INV, CLOCK_SYSTEM, "percent",    DEC, TRUE },
  { PS_PERF_100NSEC_MULTI_TIMER_INV,        "PERF_100NSEC_MULTI_TIMER_INV",        KIND_MULTI_TIMER_INV, CLOCK_100NS,  "percent",    DEC, FALSE },
  { PS_PERF_AVERAGE_TIMER,                  "PERF_AVERAGE_TIMER",                  KIND_AVERAGE_TIMER,   CLOCK_NONE,   "seconds",    DEC, FALSE },
  { PS_PERF_ELAPSED_TIME,                   "PERF_ELAPSED_TIME",                   KIND_ELAPSED,         CLOCK_OBJECT, "seconds",    DEC, FALSE },
  { PS_PERF_AVERAGE_BULK,                   "PERF_AVERAGE_BULK",                   KIND_AVERAGE_BULK,    CLOCK_NONE,   "number",     DEC, FALSE },
  { PS_PERF_COUNTER_NODATA,                 "PERF_COUNTER_NODATA",                 KIND_HIDDEN,          CLOCK_NONE,   "none",       HID, FALSE },
  { PS_PERF_SAMPLE_BASE,                    "PERF_SAMPLE_BASE",                    KIND_HIDDEN,          CLOCK_NONE,   "none",       HID, FALSE },
  { PS_PERF_AVERAGE_BASE,                   "PERF_AVERAGE_BASE",                   KIND_HIDDEN,          CLOCK_NONE,   "none",       HID, FALSE },
  { PS_PERF_RAW_BASE,                       "PERF_RAW_BASE",                       KIND_HIDDEN,          CLOCK_NONE,   "none",       HID, FALSE },
  { PS_PERF_LARGE_RAW_BASE,                 "PERF_LARGE_RAW_BASE",                 KIND_HIDDEN,          CLOCK_NONE,   "none",       HID, FALSE },
  { PS_PERF_COUNTER_MULTI_BASE,             "PERF_COUNTER_MULTI_BASE",             KIND_HIDDEN,          CLOCK_NONE,   "none",       HID, FALSE },
  { PS_PERF_COUNTER_HISTOGRAM_TYPE,         "PERF_COUNTER_HISTOGRAM_TYPE",         KIND_HIDDEN,          CLOCK_NONE,   "none",       HID, FALSE },
};

#undef DEC
#undef HEX
#undef TXT
#undef HID

/* A multi-timer's unit when the inverse is not normalized (§5.6): 100 is
 * one fully busy component, the maximum is 100 × M. */
#define UNIT_PERCENT_OF_COMPONENT "percent_of_component"

/* specs: perflib-v2.md §5.3 — a raw start time at or above this looks
 * like a 1601-based time in 100 ns units. */
#define FILETIME_THRESHOLD G_GUINT64_CONSTANT (100000000000000000)
#define FILETIME_FREQUENCY 10000000.0

static const TypeInfo *
lookup (guint32 type)
{
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (types[i].type == type)
      return &types[i];
  return NULL;
}

const char *
ps_perflib_type_get_name (guint32 type)
{
  const TypeInfo *info = lookup (type);

  return info != NULL ? info->name : NULL;
}

gboolean
ps_perflib_type_is_known (guint32 type)
{
  return lookup (type) != NULL;
}

static gboolean
kind_needs_two_samples (Kind kind)
{
  switch (kind)
    {
    case KIND_RAW:
    case KIND_TEXT:
    case KIND_HIDDEN:
    case KIND_FRACTION:
    case KIND_ELAPSED:
      return FALSE;
    case KIND_DELTA:
    case KIND_RATE:
    case KIND_QUEUELEN:
    case KIND_TIMER:
    case KIND_TIMER_INV:
    case KIND_PRECISION:
    case KIND_SAMPLE_FRACTION:
    case KIND_MULTI_TIMER:
    case KIND_MULTI_TIMER_INV:
    case KIND_AVERAGE_TIMER:
    case KIND_AVERAGE_BULK:
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

gboolean
ps_perflib_type_needs_two_samples (guint32 type)
{
  const TypeInfo *info = lookup (type);

  return info != NULL && kind_needs_two_samples (info->kind);
}

static guint32
clock_field (Clock clock)
{
  switch (clock)
    {
    case CLOCK_SYSTEM:
      return PS_PERFLIB_RAW_SYSTEM_TIME;
    case CLOCK_100NS:
      return PS_PERFLIB_RAW_TIME_100NS;
    case CLOCK_OBJECT:
      return PS_PERFLIB_RAW_OBJECT_TIME;
    case CLOCK_NONE:
    default:
      return 0;
    }
}

/* The fields both samples need (`for_current`: the newer one, which
 * alone carries M and PERF_ELAPSED_TIME's clock) */
static guint32
kind_fields (const TypeInfo *info,
             gboolean        for_current)
{
  guint32 fields = PS_PERFLIB_RAW_VALUE | clock_field (info->clock);

  switch (info->kind)
    {
    case KIND_TEXT:
    case KIND_HIDDEN:
      return 0;
    case KIND_FRACTION:
    case KIND_PRECISION:
    case KIND_SAMPLE_FRACTION:
    case KIND_AVERAGE_BULK:
      fields |= PS_PERFLIB_RAW_BASE;
      break;
    case KIND_AVERAGE_TIMER:
      fields |= PS_PERFLIB_RAW_BASE | PS_PERFLIB_RAW_SYSTEM_TIME;
      break;
    case KIND_MULTI_TIMER:
    case KIND_MULTI_TIMER_INV:
      if (for_current)
        fields |= PS_PERFLIB_RAW_MULTI;
      break;
    case KIND_ELAPSED:
      fields |= PS_PERFLIB_RAW_OBJECT_FREQ;
      break;
    case KIND_RAW:
    case KIND_DELTA:
    case KIND_RATE:
    case KIND_QUEUELEN:
    case KIND_TIMER:
    case KIND_TIMER_INV:
    default:
      break;
    }

  return fields;
}

guint32
ps_perflib_type_get_needed_fields (guint32 type)
{
  const TypeInfo *info = lookup (type);

  if (info == NULL)
    return PS_PERFLIB_RAW_VALUE;
  return kind_fields (info, TRUE);
}

/* specs: perflib-v2.md §4.1 — the bits, only for types §4.3 does not list */
static PsPerflibDisplay
display_from_bits (guint32 type)
{
  if ((type & PS_PERF_TYPE_MASK) == PS_PERF_TYPE_TEXT)
    return PS_PERFLIB_DISPLAY_TEXT;
  if ((type & PS_PERF_SIZE_MASK) == PS_PERF_SIZE_ZERO
      || ((type & PS_PERF_TYPE_MASK) == PS_PERF_TYPE_COUNTER
          && (type & PS_PERF_SUBTYPE_MASK) == PS_PERF_COUNTER_BASE))
    return PS_PERFLIB_DISPLAY_HIDDEN;
  if ((type & PS_PERF_TYPE_MASK) == PS_PERF_TYPE_NUMBER
      && (type & PS_PERF_SUBTYPE_MASK) == PS_PERF_NUMBER_HEX)
    return PS_PERFLIB_DISPLAY_HEX;
  return PS_PERFLIB_DISPLAY_DECIMAL;
}

PsPerflibDisplay
ps_perflib_type_get_display (guint32 type)
{
  const TypeInfo *info = lookup (type);

  return info != NULL ? info->display : display_from_bits (type);
}

gboolean
ps_perflib_type_is_base (guint32 type)
{
  return ps_perflib_type_get_display (type) == PS_PERFLIB_DISPLAY_HIDDEN;
}

const char *
ps_perflib_type_get_unit_id (guint32          type,
                             PsPerflibOptions options)
{
  const TypeInfo *info = lookup (type);

  if (info == NULL)
    {
      /* §9.3.7: an unknown type shows its raw value */
      switch (display_from_bits (type))
        {
        case PS_PERFLIB_DISPLAY_TEXT:
          return "text";
        case PS_PERFLIB_DISPLAY_HIDDEN:
          return "none";
        case PS_PERFLIB_DISPLAY_DECIMAL:
        case PS_PERFLIB_DISPLAY_HEX:
        default:
          return "count";
        }
    }
  if (info->kind == KIND_MULTI_TIMER_INV
      && (options & PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE) == 0)
    return UNIT_PERCENT_OF_COMPONENT;
  return info->unit_id;
}

const char *
ps_perflib_type_get_unit_label (guint32          type,
                                PsPerflibOptions options)
{
  const char *unit_id = ps_perflib_type_get_unit_id (type, options);

  if (g_str_equal (unit_id, "percent"))
    return _("%");
  if (g_str_equal (unit_id, UNIT_PERCENT_OF_COMPONENT))
    return _("% of one component");
  if (g_str_equal (unit_id, "per_second"))
    return _("/s");
  if (g_str_equal (unit_id, "seconds"))
    return _("s");
  if (g_str_equal (unit_id, "count"))
    return _("count");
  /* "number", "text", "none": no unit to print */
  return "";
}

const char *
ps_perflib_result_to_string (PsPerflibResult result)
{
  switch (result)
    {
    case PS_PERFLIB_RESULT_OK:
      return _("Computed");
    case PS_PERFLIB_RESULT_FIRST_SAMPLE:
      return _("First sample: the counter needs two samples");
    case PS_PERFLIB_RESULT_NEGATIVE_DELTA:
      return _("The counter went backwards (reset, replaced instance or wrap)");
    case PS_PERFLIB_RESULT_BAD_TIME_DELTA:
      return _("The time did not advance between the samples");
    case PS_PERFLIB_RESULT_BAD_BASE_DELTA:
      return _("The base counter did not advance between the samples");
    case PS_PERFLIB_RESULT_ZERO_BASE:
      return _("The base counter is 0");
    case PS_PERFLIB_RESULT_ZERO_FREQUENCY:
      return _("The clock frequency is 0");
    case PS_PERFLIB_RESULT_FREQUENCY_CHANGED:
      return _("The clock frequency changed between the samples");
    case PS_PERFLIB_RESULT_ZERO_MULTI:
      return _("The component count is 0");
    case PS_PERFLIB_RESULT_NEGATIVE_ELAPSED:
      return _("The start time lies after the time of the sample");
    case PS_PERFLIB_RESULT_NOT_STARTED:
      return _("No start time");
    case PS_PERFLIB_RESULT_MISSING_INPUT:
      return _("A value the formula needs is missing");
    case PS_PERFLIB_RESULT_BAD_VALUE_SIZE:
      return _("The raw value is neither 4 nor 8 bytes");
    case PS_PERFLIB_RESULT_NOT_NUMERIC:
      return _("Text, not a number");
    case PS_PERFLIB_RESULT_NOT_DISPLAYED:
      return _("A base or companion counter, not displayed");
    default:
      return _("Unknown result");
    }
}

/* Calculation helpers. specs: perflib-v2.md §5.4 — subtract in 64-bit
 * integers, then convert; a difference that is not positive where it
 * divides means no value. */

static PsPerflibResult
value_delta (const PsPerflibRaw *previous,
             const PsPerflibRaw *current,
             PsPerflibOptions    options,
             guint32            *flags,
             double             *delta)
{
  if (current->value >= previous->value)
    {
      *delta = (double) (current->value - previous->value);
      return PS_PERFLIB_RESULT_OK;
    }

  /* §5.4, optional: one 32-bit wrap of a 4-byte counter, accepted only
   * when the wrapped difference is below half the range; a reset to a
   * small value (900 → 100) stays a reset. */
  if ((options & PS_PERFLIB_OPTIONS_WRAP_32) != 0
      && previous->value_size == 4 && current->value_size == 4
      && previous->value <= G_MAXUINT32 && current->value <= G_MAXUINT32)
    {
      guint64 wrapped = (current->value + G_GUINT64_CONSTANT (0x100000000)) - previous->value;

      if (wrapped < G_GUINT64_CONSTANT (0x80000000))
        {
          *flags |= PS_PERFLIB_FLAG_WRAPPED;
          *delta = (double) wrapped;
          return PS_PERFLIB_RESULT_OK;
        }
    }

  return PS_PERFLIB_RESULT_NEGATIVE_DELTA;
}

static PsPerflibResult
unsigned_delta (guint64          older,
                guint64          newer,
                PsPerflibResult  not_positive,
                double          *delta)
{
  if (newer <= older)
    return not_positive;
  *delta = (double) (newer - older);
  return PS_PERFLIB_RESULT_OK;
}

static PsPerflibResult
signed_delta (gint64           older,
              gint64           newer,
              PsPerflibResult  not_positive,
              double          *delta)
{
  if (newer <= older)
    return not_positive;
  /* Well defined in unsigned arithmetic, exact as a difference */
  *delta = (double) ((guint64) newer - (guint64) older);
  return PS_PERFLIB_RESULT_OK;
}

/* ΔD of the type's clock; *frequency is F where the clock has one that
 * both samples agree on (system ticks; the object frequency when both
 * samples carry it), else 0. */
static PsPerflibResult
time_delta (Clock               clock,
            const PsPerflibRaw *previous,
            const PsPerflibRaw *current,
            double             *delta,
            double             *frequency)
{
  *frequency = 0;

  switch (clock)
    {
    case CLOCK_SYSTEM:
      /* §5.4: PerfFreq 0 or changing: no value for tick-based formulas */
      if (previous->perf_freq <= 0 || current->perf_freq <= 0)
        return PS_PERFLIB_RESULT_ZERO_FREQUENCY;
      if (previous->perf_freq != current->perf_freq)
        return PS_PERFLIB_RESULT_FREQUENCY_CHANGED;
      *frequency = (double) current->perf_freq;
      return signed_delta (previous->perf_time, current->perf_time,
                           PS_PERFLIB_RESULT_BAD_TIME_DELTA, delta);

    case CLOCK_100NS:
      return signed_delta (previous->perf_time_100ns, current->perf_time_100ns,
                           PS_PERFLIB_RESULT_BAD_TIME_DELTA, delta);

    case CLOCK_OBJECT:
      if ((previous->fields & current->fields & PS_PERFLIB_RAW_OBJECT_FREQ) != 0)
        {
          if (previous->object_freq == 0 || current->object_freq == 0)
            return PS_PERFLIB_RESULT_ZERO_FREQUENCY;
          if (previous->object_freq != current->object_freq)
            return PS_PERFLIB_RESULT_FREQUENCY_CHANGED;
          *frequency = (double) current->object_freq;
        }
      return unsigned_delta (previous->object_time, current->object_time,
                             PS_PERFLIB_RESULT_BAD_TIME_DELTA, delta);

    case CLOCK_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* specs: perflib-v2.md §5.3 */
static PsPerflibResult
elapsed_time (const PsPerflibRaw *current,
              guint32            *flags,
              double             *value)
{
  guint64 start = current->value;
  guint64 now;
  double frequency;

  if ((current->fields & (PS_PERFLIB_RAW_OBJECT_TIME | PS_PERFLIB_RAW_OBJECT_FREQ))
      == (PS_PERFLIB_RAW_OBJECT_TIME | PS_PERFLIB_RAW_OBJECT_FREQ))
    {
      if (current->object_freq == 0)
        return PS_PERFLIB_RESULT_ZERO_FREQUENCY;
      now = current->object_time;
      frequency = (double) current->object_freq;
    }
  else
    {
      /* No object clock: guess from the magnitude of the start time, and
       * say that it is a guess. */
      gint64 header_now;

      *flags |= PS_PERFLIB_FLAG_ESTIMATED;
      if (start >= FILETIME_THRESHOLD)
        {
          if ((current->fields & PS_PERFLIB_RAW_TIME_100NS) == 0)
            return PS_PERFLIB_RESULT_MISSING_INPUT;
          header_now = current->perf_time_100ns;
          frequency = FILETIME_FREQUENCY;
        }
      else
        {
          if ((current->fields & PS_PERFLIB_RAW_SYSTEM_TIME) == 0)
            return PS_PERFLIB_RESULT_MISSING_INPUT;
          if (current->perf_freq <= 0)
            return PS_PERFLIB_RESULT_ZERO_FREQUENCY;
          header_now = current->perf_time;
          frequency = (double) current->perf_freq;
        }
      if (header_now < 0)
        return PS_PERFLIB_RESULT_NEGATIVE_ELAPSED;
      now = (guint64) header_now;
    }

  if (start == 0)
    return PS_PERFLIB_RESULT_NOT_STARTED;
  if (start > now)
    return PS_PERFLIB_RESULT_NEGATIVE_ELAPSED;

  *value = (double) (now - start) / frequency;
  return PS_PERFLIB_RESULT_OK;
}

static guint
expected_size (guint32 type)
{
  switch (type & PS_PERF_SIZE_MASK)
    {
    case PS_PERF_SIZE_DWORD:
      return 4;
    case PS_PERF_SIZE_LARGE:
      return 8;
    default:
      return 0;
    }
}

static PsPerflibResult
compute_known (const TypeInfo     *info,
               const PsPerflibRaw *previous,
               const PsPerflibRaw *current,
               PsPerflibOptions    options,
               guint32            *flags,
               double             *value)
{
  PsPerflibResult result;
  double delta_value = 0;
  double delta_time = 0;
  double delta_base = 0;
  double frequency = 0;
  double fraction;
  guint32 needed;

  if (info->kind == KIND_TEXT)
    return PS_PERFLIB_RESULT_NOT_NUMERIC;
  if (info->kind == KIND_HIDDEN)
    return PS_PERFLIB_RESULT_NOT_DISPLAYED;

  if (kind_needs_two_samples (info->kind) && previous == NULL)
    return PS_PERFLIB_RESULT_FIRST_SAMPLE;

  needed = kind_fields (info, TRUE);
  if (info->kind == KIND_ELAPSED)
    needed = PS_PERFLIB_RAW_VALUE;  /* elapsed_time() has a fallback for the clock */
  if ((current->fields & needed) != needed)
    return PS_PERFLIB_RESULT_MISSING_INPUT;
  if (kind_needs_two_samples (info->kind))
    {
      guint32 needed_previous = kind_fields (info, FALSE);

      if ((previous->fields & needed_previous) != needed_previous)
        return PS_PERFLIB_RESULT_MISSING_INPUT;
    }

  if (current->value_size != 4 && current->value_size != 8)
    return PS_PERFLIB_RESULT_BAD_VALUE_SIZE;
  if (kind_needs_two_samples (info->kind)
      && previous->value_size != 4 && previous->value_size != 8)
    return PS_PERFLIB_RESULT_BAD_VALUE_SIZE;
  /* §9.3.6: the data's own size wins (§3.3 zero-extends 4 bytes) */
  if (current->value_size != expected_size (info->type)
      || (kind_needs_two_samples (info->kind) && previous->value_size != expected_size (info->type)))
    *flags |= PS_PERFLIB_FLAG_SIZE_MISMATCH;

  if (info->unconfirmed)
    *flags |= PS_PERFLIB_FLAG_UNCONFIRMED;

  switch (info->kind)
    {
    case KIND_RAW:
      *value = (double) current->value;
      return PS_PERFLIB_RESULT_OK;

    case KIND_FRACTION:
      if (current->base == 0)
        return PS_PERFLIB_RESULT_ZERO_BASE;
      *value = 100.0 * (double) current->value / (double) current->base;
      return PS_PERFLIB_RESULT_OK;

    case KIND_ELAPSED:
      return elapsed_time (current, flags, value);

    case KIND_TEXT:
    case KIND_HIDDEN:
    case KIND_DELTA:
    case KIND_RATE:
    case KIND_QUEUELEN:
    case KIND_TIMER:
    case KIND_TIMER_INV:
    case KIND_PRECISION:
    case KIND_SAMPLE_FRACTION:
    case KIND_MULTI_TIMER:
    case KIND_MULTI_TIMER_INV:
    case KIND_AVERAGE_TIMER:
    case KIND_AVERAGE_BULK:
    default:
      break;
    }

  /* Two-sample formulas. The clock is checked before ΔN so that a
   * changed frequency is reported as such, not as a side effect. */
  if (info->clock != CLOCK_NONE)
    {
      result = time_delta (info->clock, previous, current, &delta_time, &frequency);
      if (result != PS_PERFLIB_RESULT_OK)
        return result;
    }
  else if (info->kind == KIND_AVERAGE_TIMER)
    {
      /* F of the tick-valued numerator */
      if (previous->perf_freq <= 0 || current->perf_freq <= 0)
        return PS_PERFLIB_RESULT_ZERO_FREQUENCY;
      if (previous->perf_freq != current->perf_freq)
        return PS_PERFLIB_RESULT_FREQUENCY_CHANGED;
      frequency = (double) current->perf_freq;
    }

  result = value_delta (previous, current, options, flags, &delta_value);
  if (result != PS_PERFLIB_RESULT_OK)
    return result;

  switch (info->kind)
    {
    case KIND_DELTA:
      *value = delta_value;
      return PS_PERFLIB_RESULT_OK;

    case KIND_RATE:
      *value = delta_value / (delta_time / frequency);
      return PS_PERFLIB_RESULT_OK;

    case KIND_QUEUELEN:
      *value = delta_value / delta_time;
      return PS_PERFLIB_RESULT_OK;

    case KIND_TIMER:
      *value = 100.0 * delta_value / delta_time;
      return PS_PERFLIB_RESULT_OK;

    case KIND_TIMER_INV:
      *value = 100.0 * (1.0 - delta_value / delta_time);
      return PS_PERFLIB_RESULT_OK;

    case KIND_PRECISION:
      /* B is a timestamp: a base that does not advance is a time problem */
      result = unsigned_delta (previous->base, current->base,
                               PS_PERFLIB_RESULT_BAD_TIME_DELTA, &delta_base);
      if (result != PS_PERFLIB_RESULT_OK)
        return result;
      *value = 100.0 * delta_value / delta_base;
      return PS_PERFLIB_RESULT_OK;

    case KIND_SAMPLE_FRACTION:
      result = unsigned_delta (previous->base, current->base,
                               PS_PERFLIB_RESULT_BAD_BASE_DELTA, &delta_base);
      if (result != PS_PERFLIB_RESULT_OK)
        return result;
      *value = 100.0 * delta_value / delta_base;
      return PS_PERFLIB_RESULT_OK;

    case KIND_MULTI_TIMER:
      /* §5.6: ΔN and ΔD both in the clock's units, no F */
      if (current->multi == 0)
        return PS_PERFLIB_RESULT_ZERO_MULTI;
      *value = 100.0 * (delta_value / delta_time) / (double) current->multi;
      return PS_PERFLIB_RESULT_OK;

    case KIND_MULTI_TIMER_INV:
      if (current->multi == 0)
        return PS_PERFLIB_RESULT_ZERO_MULTI;
      fraction = delta_value / delta_time;
      *value = 100.0 * ((double) current->multi - fraction);
      if ((options & PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE) != 0)
        *value /= (double) current->multi;
      return PS_PERFLIB_RESULT_OK;

    case KIND_AVERAGE_TIMER:
      result = unsigned_delta (previous->base, current->base,
                               PS_PERFLIB_RESULT_BAD_BASE_DELTA, &delta_base);
      if (result != PS_PERFLIB_RESULT_OK)
        return result;
      *value = (delta_value / frequency) / delta_base;
      return PS_PERFLIB_RESULT_OK;

    case KIND_AVERAGE_BULK:
      result = unsigned_delta (previous->base, current->base,
                               PS_PERFLIB_RESULT_BAD_BASE_DELTA, &delta_base);
      if (result != PS_PERFLIB_RESULT_OK)
        return result;
      *value = delta_value / delta_base;
      return PS_PERFLIB_RESULT_OK;

    case KIND_RAW:
    case KIND_TEXT:
    case KIND_HIDDEN:
    case KIND_FRACTION:
    case KIND_ELAPSED:
    default:
      g_assert_not_reached ();
    }
}

gboolean
ps_perflib_compute (guint32             type,
                    const PsPerflibRaw *previous,
                    const PsPerflibRaw *current,
                    PsPerflibOptions    options,
                    double             *value,
                    PsPerflibStatus    *status)
{
  const TypeInfo *info;
  PsPerflibResult result;
  guint32 flags = 0;
  double computed = 0;

  g_return_val_if_fail (current != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  info = lookup (type);
  if (info != NULL)
    {
      result = compute_known (info, previous, current, options, &flags, &computed);
    }
  else
    {
      /* §9.3.7: an unknown type shows its raw value, no formula */
      flags |= PS_PERFLIB_FLAG_UNKNOWN_TYPE;
      if (display_from_bits (type) == PS_PERFLIB_DISPLAY_TEXT)
        result = PS_PERFLIB_RESULT_NOT_NUMERIC;
      else if ((current->fields & PS_PERFLIB_RAW_VALUE) == 0)
        result = PS_PERFLIB_RESULT_MISSING_INPUT;
      else if (current->value_size != 4 && current->value_size != 8)
        result = PS_PERFLIB_RESULT_BAD_VALUE_SIZE;
      else
        {
          computed = (double) current->value;
          result = PS_PERFLIB_RESULT_OK;
        }
    }

  /* §5.5: never clamped, never scaled */
  *value = result == PS_PERFLIB_RESULT_OK ? computed : 0;
  if (status != NULL)
    {
      status->result = result;
      status->flags = flags;
    }
  return result == PS_PERFLIB_RESULT_OK;
}

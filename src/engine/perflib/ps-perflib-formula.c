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
 * has a row in the §4.3 table of ps-perflib-block.c
 * (ps_perflib_type_get_info ()), whose formula column this file follows;
 * the bits are read only for unknown types.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ps-perflib-formula.h"

/* A multi-timer's unit when the inverse is not normalized (§5.6): 100 is
 * one fully busy component, the maximum is 100 × M. */
#define UNIT_PERCENT_OF_COMPONENT "percent_of_component"

/* specs: perflib-v2.md §5.3 — a raw start time at or above this looks
 * like a 1601-based time in 100 ns units. */
#define FILETIME_THRESHOLD G_GUINT64_CONSTANT (100000000000000000)
#define FILETIME_FREQUENCY 10000000.0

const char *
ps_perflib_type_get_name (guint32 type)
{
  return ps_perflib_type_to_string (type);
}

gboolean
ps_perflib_type_is_known (guint32 type)
{
  return ps_perflib_type_get_info (type) != NULL;
}

static inline gboolean
info_needs_two_samples (const PsPerflibTypeInfo *info)
{
  return info->n_samples == 2;
}

gboolean
ps_perflib_type_needs_two_samples (guint32 type)
{
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

  return info != NULL && info_needs_two_samples (info);
}

/* The clock whose Δ is the formula's ΔD. PERF_AVERAGE_TIMER reads only
 * F from the system clock, and the precision timers take their time
 * from B (§5.1), so neither has one. */
static PsPerflibTimeSource
info_clock (const PsPerflibTypeInfo *info)
{
  if (info->formula == PS_PERFLIB_FORMULA_AVERAGE_TIMER
      || info->time_source == PS_PERFLIB_TIME_BASE_COUNTER)
    return PS_PERFLIB_TIME_NONE;
  return info->time_source;
}

static guint32
clock_field (PsPerflibTimeSource clock)
{
  switch (clock)
    {
    case PS_PERFLIB_TIME_SYSTEM_TICKS:
      return PS_PERFLIB_RAW_SYSTEM_TIME;
    case PS_PERFLIB_TIME_100NS:
      return PS_PERFLIB_RAW_TIME_100NS;
    case PS_PERFLIB_TIME_OBJECT:
      return PS_PERFLIB_RAW_OBJECT_TIME;
    case PS_PERFLIB_TIME_NONE:
    case PS_PERFLIB_TIME_BASE_COUNTER:
    default:
      return 0;
    }
}

/* The fields both samples need (`for_current`: the newer one, which
 * alone carries M and PERF_ELAPSED_TIME's clock) */
static guint32
info_fields (const PsPerflibTypeInfo *info,
             gboolean                 for_current)
{
  guint32 fields = PS_PERFLIB_RAW_VALUE | clock_field (info_clock (info));

  switch (info->formula)
    {
    case PS_PERFLIB_FORMULA_TEXT:
    case PS_PERFLIB_FORMULA_HIDDEN:
      return 0;
    case PS_PERFLIB_FORMULA_FRACTION:
    case PS_PERFLIB_FORMULA_PRECISION:
    case PS_PERFLIB_FORMULA_SAMPLE_FRACTION:
    case PS_PERFLIB_FORMULA_AVERAGE_BULK:
      fields |= PS_PERFLIB_RAW_BASE;
      break;
    case PS_PERFLIB_FORMULA_AVERAGE_TIMER:
      fields |= PS_PERFLIB_RAW_BASE | PS_PERFLIB_RAW_SYSTEM_TIME;
      break;
    case PS_PERFLIB_FORMULA_MULTI_TIMER:
    case PS_PERFLIB_FORMULA_MULTI_TIMER_INV:
      if (for_current)
        fields |= PS_PERFLIB_RAW_MULTI;
      break;
    case PS_PERFLIB_FORMULA_ELAPSED:
      fields |= PS_PERFLIB_RAW_OBJECT_FREQ;
      break;
    case PS_PERFLIB_FORMULA_RAW:
    case PS_PERFLIB_FORMULA_DELTA:
    case PS_PERFLIB_FORMULA_RATE:
    case PS_PERFLIB_FORMULA_QUEUELEN:
    case PS_PERFLIB_FORMULA_TIMER:
    case PS_PERFLIB_FORMULA_TIMER_INV:
    default:
      break;
    }

  return fields;
}

guint32
ps_perflib_type_get_needed_fields (guint32 type)
{
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

  if (info == NULL)
    return PS_PERFLIB_RAW_VALUE;
  return info_fields (info, TRUE);
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
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

  if (info == NULL)
    return display_from_bits (type);
  if (info->formula == PS_PERFLIB_FORMULA_TEXT)
    return PS_PERFLIB_DISPLAY_TEXT;
  if (info->formula == PS_PERFLIB_FORMULA_HIDDEN)
    return PS_PERFLIB_DISPLAY_HIDDEN;
  return info->display_hex ? PS_PERFLIB_DISPLAY_HEX : PS_PERFLIB_DISPLAY_DECIMAL;
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
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

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

  switch (info->unit)
    {
    case PS_PERFLIB_UNIT_PER_SECOND:
      return "per_second";
    case PS_PERFLIB_UNIT_PERCENT:
      if (info->formula == PS_PERFLIB_FORMULA_MULTI_TIMER_INV
          && (options & PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE) == 0)
        return UNIT_PERCENT_OF_COMPONENT;
      return "percent";
    case PS_PERFLIB_UNIT_SECONDS:
      return "seconds";
    case PS_PERFLIB_UNIT_TEXT:
      return "text";
    case PS_PERFLIB_UNIT_COUNT:
      /* A quotient of counts (queue length, average bulk) is a number,
       * not a count of anything */
      if (info->formula == PS_PERFLIB_FORMULA_QUEUELEN
          || info->formula == PS_PERFLIB_FORMULA_AVERAGE_BULK)
        return "number";
      return "count";
    case PS_PERFLIB_UNIT_NONE:
    default:
      return "none";
    }
}

const char *
ps_perflib_type_get_unit_label (guint32          type,
                                PsPerflibOptions options)
{
  const char *unit_id = ps_perflib_type_get_unit_id (type, options);

  if (g_str_equal (unit_id, "percent"))
    return _("%");
  if (g_str_equal (unit_id, UNIT_PERCENT_OF_COMPONENT))
    /* xgettext:no-c-format */
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

/* How far a counter or clock went between two samples; @not_positive
 * (the cause the formula reports) when it did not advance */
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

/* The header's clocks are signed. Flipping the sign bit maps a gint64
 * onto a guint64 in the same order and with the same differences (offset
 * binary), so that they are judged by the one rule of unsigned_delta () */
static PsPerflibResult
signed_delta (gint64           older,
              gint64           newer,
              PsPerflibResult  not_positive,
              double          *delta)
{
  const guint64 sign_bit = G_GUINT64_CONSTANT (1) << 63;

  return unsigned_delta ((guint64) older ^ sign_bit, (guint64) newer ^ sign_bit, not_positive, delta);
}

/* F of the system clock, which both samples must agree on (§5.4: PerfFreq
 * 0 or changing: no value for tick-based formulas) */
static PsPerflibResult
system_frequency (const PsPerflibRaw *previous,
                  const PsPerflibRaw *current,
                  double             *frequency)
{
  if (previous->perf_freq <= 0 || current->perf_freq <= 0)
    return PS_PERFLIB_RESULT_ZERO_FREQUENCY;
  if (previous->perf_freq != current->perf_freq)
    return PS_PERFLIB_RESULT_FREQUENCY_CHANGED;
  *frequency = (double) current->perf_freq;
  return PS_PERFLIB_RESULT_OK;
}

/* ΔD of the type's clock; *frequency is F where the clock has one that
 * both samples agree on (system ticks; the object frequency when both
 * samples carry it), else 0. */
static PsPerflibResult
time_delta (PsPerflibTimeSource  clock,
            const PsPerflibRaw  *previous,
            const PsPerflibRaw  *current,
            double              *delta,
            double              *frequency)
{
  PsPerflibResult result;

  *frequency = 0;

  switch (clock)
    {
    case PS_PERFLIB_TIME_SYSTEM_TICKS:
      result = system_frequency (previous, current, frequency);
      if (result != PS_PERFLIB_RESULT_OK)
        return result;
      return signed_delta (previous->perf_time, current->perf_time,
                           PS_PERFLIB_RESULT_BAD_TIME_DELTA, delta);

    case PS_PERFLIB_TIME_100NS:
      return signed_delta (previous->perf_time_100ns, current->perf_time_100ns,
                           PS_PERFLIB_RESULT_BAD_TIME_DELTA, delta);

    case PS_PERFLIB_TIME_OBJECT:
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

    case PS_PERFLIB_TIME_NONE:
    case PS_PERFLIB_TIME_BASE_COUNTER:
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

static PsPerflibResult
compute_known (const PsPerflibTypeInfo *info,
               const PsPerflibRaw      *previous,
               const PsPerflibRaw      *current,
               PsPerflibOptions         options,
               guint32                 *flags,
               double                  *value)
{
  PsPerflibTimeSource clock = info_clock (info);
  gboolean two_samples = info_needs_two_samples (info);
  guint expected_size = ps_perflib_type_get_value_size (info->type);
  PsPerflibResult result;
  double delta_value = 0;
  double delta_time = 0;
  double delta_base = 0;
  double frequency = 0;
  guint32 needed;

  if (info->formula == PS_PERFLIB_FORMULA_TEXT)
    return PS_PERFLIB_RESULT_NOT_NUMERIC;
  if (info->formula == PS_PERFLIB_FORMULA_HIDDEN)
    return PS_PERFLIB_RESULT_NOT_DISPLAYED;

  if (two_samples && previous == NULL)
    return PS_PERFLIB_RESULT_FIRST_SAMPLE;

  needed = info_fields (info, TRUE);
  if (info->formula == PS_PERFLIB_FORMULA_ELAPSED)
    needed = PS_PERFLIB_RAW_VALUE;  /* elapsed_time() has a fallback for the clock */
  if ((current->fields & needed) != needed)
    return PS_PERFLIB_RESULT_MISSING_INPUT;
  if (two_samples)
    {
      guint32 needed_previous = info_fields (info, FALSE);

      if ((previous->fields & needed_previous) != needed_previous)
        return PS_PERFLIB_RESULT_MISSING_INPUT;
    }

  if (current->value_size != 4 && current->value_size != 8)
    return PS_PERFLIB_RESULT_BAD_VALUE_SIZE;
  if (two_samples && previous->value_size != 4 && previous->value_size != 8)
    return PS_PERFLIB_RESULT_BAD_VALUE_SIZE;
  /* §9.3.6: the data's own size wins (§3.3 zero-extends 4 bytes) */
  if (current->value_size != expected_size
      || (two_samples && previous->value_size != expected_size))
    *flags |= PS_PERFLIB_FLAG_SIZE_MISMATCH;

  /* §5.6: the tick-based multi-timers */
  if (info->needs_multi && info->time_source == PS_PERFLIB_TIME_SYSTEM_TICKS)
    *flags |= PS_PERFLIB_FLAG_UNCONFIRMED;

  switch (info->formula)
    {
    case PS_PERFLIB_FORMULA_RAW:
      *value = (double) current->value;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_FRACTION:
      if (current->base == 0)
        return PS_PERFLIB_RESULT_ZERO_BASE;
      *value = 100.0 * (double) current->value / (double) current->base;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_ELAPSED:
      return elapsed_time (current, flags, value);

    case PS_PERFLIB_FORMULA_TEXT:
    case PS_PERFLIB_FORMULA_HIDDEN:
    case PS_PERFLIB_FORMULA_DELTA:
    case PS_PERFLIB_FORMULA_RATE:
    case PS_PERFLIB_FORMULA_QUEUELEN:
    case PS_PERFLIB_FORMULA_TIMER:
    case PS_PERFLIB_FORMULA_TIMER_INV:
    case PS_PERFLIB_FORMULA_PRECISION:
    case PS_PERFLIB_FORMULA_SAMPLE_FRACTION:
    case PS_PERFLIB_FORMULA_MULTI_TIMER:
    case PS_PERFLIB_FORMULA_MULTI_TIMER_INV:
    case PS_PERFLIB_FORMULA_AVERAGE_TIMER:
    case PS_PERFLIB_FORMULA_AVERAGE_BULK:
    default:
      break;
    }

  /* Two-sample formulas. The clock is checked before ΔN so that a
   * changed frequency is reported as such, not as a side effect. */
  if (clock != PS_PERFLIB_TIME_NONE)
    result = time_delta (clock, previous, current, &delta_time, &frequency);
  else if (info->formula == PS_PERFLIB_FORMULA_AVERAGE_TIMER)
    result = system_frequency (previous, current, &frequency);  /* F of the tick-valued numerator */
  else
    result = PS_PERFLIB_RESULT_OK;
  if (result != PS_PERFLIB_RESULT_OK)
    return result;

  result = value_delta (previous, current, options, flags, &delta_value);
  if (result != PS_PERFLIB_RESULT_OK)
    return result;

  if ((needed & PS_PERFLIB_RAW_BASE) != 0)
    {
      /* For the precision timers B is a timestamp: a base that does not
       * advance is a time problem */
      result = unsigned_delta (previous->base, current->base,
                               info->formula == PS_PERFLIB_FORMULA_PRECISION
                               ? PS_PERFLIB_RESULT_BAD_TIME_DELTA
                               : PS_PERFLIB_RESULT_BAD_BASE_DELTA,
                               &delta_base);
      if (result != PS_PERFLIB_RESULT_OK)
        return result;
    }

  if (info->needs_multi && current->multi == 0)
    return PS_PERFLIB_RESULT_ZERO_MULTI;

  switch (info->formula)
    {
    case PS_PERFLIB_FORMULA_DELTA:
      *value = delta_value;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_RATE:
      *value = delta_value / (delta_time / frequency);
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_QUEUELEN:
      *value = delta_value / delta_time;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_TIMER:
      *value = 100.0 * delta_value / delta_time;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_TIMER_INV:
      *value = 100.0 * (1.0 - delta_value / delta_time);
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_PRECISION:
    case PS_PERFLIB_FORMULA_SAMPLE_FRACTION:
      *value = 100.0 * delta_value / delta_base;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_MULTI_TIMER:
      /* §5.6: ΔN and ΔD both in the clock's units, no F */
      *value = 100.0 * (delta_value / delta_time) / (double) current->multi;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_MULTI_TIMER_INV:
      *value = 100.0 * ((double) current->multi - delta_value / delta_time);
      if ((options & PS_PERFLIB_OPTIONS_NORMALIZE_MULTI_INVERSE) != 0)
        *value /= (double) current->multi;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_AVERAGE_TIMER:
      *value = (delta_value / frequency) / delta_base;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_AVERAGE_BULK:
      *value = delta_value / delta_base;
      return PS_PERFLIB_RESULT_OK;

    case PS_PERFLIB_FORMULA_RAW:
    case PS_PERFLIB_FORMULA_TEXT:
    case PS_PERFLIB_FORMULA_HIDDEN:
    case PS_PERFLIB_FORMULA_FRACTION:
    case PS_PERFLIB_FORMULA_ELAPSED:
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
  return ps_perflib_compute_with_info (ps_perflib_type_get_info (type), type, previous, current,
                                       options, value, status);
}

gboolean
ps_perflib_compute_with_info (const PsPerflibTypeInfo *info,
                              guint32                  type,
                              const PsPerflibRaw      *previous,
                              const PsPerflibRaw      *current,
                              PsPerflibOptions         options,
                              double                  *value,
                              PsPerflibStatus         *status)
{
  PsPerflibResult result;
  guint32 flags = 0;
  double computed = 0;

  g_return_val_if_fail (current != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

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

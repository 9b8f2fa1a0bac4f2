/* ps-format-perflib-plv2-samples.c — the samples of a PLV2 capture
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §3 (buffers), §5 (display values), §8 (the
 * container).
 *
 * A SAMPLE buffer of the plan's shape that follows the one before is read
 * as columns, its display values computed inline for the common formulas;
 * any other is decoded with every check of ps-perflib-block.c and read the
 * general way. ps-format-perflib-plv2.c holds the plans and the parser.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-format-perflib-plv2-private.h"
#include "ps-util.h"

/* ------------------------------------------------------------------------ */
/* Samples                                                                   */

static gint64
sample_unix_ns (Plv2Parser            *self,
                const PsPlv2Record    *record,
                const PsPerflibBuffer *buffer)
{
  gint64 unix_ns;

  if (buffer != NULL && buffer->perf_time_100nsec_valid)
    return buffer->perf_time_100nsec_unix_ns;
  if (buffer != NULL && buffer->system_time_valid)
    return buffer->system_time_unix_ns;
  /* Only after 1970 */
  if (record->has_utc && ps_perflib_filetime_to_unix_ns (record->utc, &unix_ns) && unix_ns > 0)
    return unix_ns;
  return G_MININT64;
}

/* The most common types on the usual path (a previous sample, counters
 * and clocks that moved forward), the same arithmetic as
 * ps_perflib_compute () in the same order; FALSE for everything else,
 * which takes the general way with all its checks */
static inline gboolean
fast_reading (const PsPerflibTypeInfo *info,
              const PsPerflibRaw      *previous,
              const PsPerflibRaw      *current,
              double                  *value)
{
  double delta_value, delta_time;

  if (info == NULL || (current->fields & PS_PERFLIB_RAW_VALUE) == 0)
    return FALSE;

  switch (info->formula)
    {
    case PS_PERFLIB_FORMULA_RAW:
      *value = (double) current->value;
      return TRUE;

    case PS_PERFLIB_FORMULA_TIMER:
    case PS_PERFLIB_FORMULA_TIMER_INV:
      if (info->time_source != PS_PERFLIB_TIME_100NS || previous == NULL
          || (previous->fields & PS_PERFLIB_RAW_VALUE) == 0
          || current->value < previous->value || current->perf_time_100ns <= previous->perf_time_100ns)
        return FALSE;
      delta_value = (double) (current->value - previous->value);
      delta_time = (double) ((guint64) current->perf_time_100ns - (guint64) previous->perf_time_100ns);
      *value = info->formula == PS_PERFLIB_FORMULA_TIMER ? 100.0 * delta_value / delta_time
                                                         : 100.0 * (1.0 - delta_value / delta_time);
      return TRUE;

    case PS_PERFLIB_FORMULA_RATE:
      if (info->time_source != PS_PERFLIB_TIME_SYSTEM_TICKS || previous == NULL
          || (previous->fields & PS_PERFLIB_RAW_VALUE) == 0
          || previous->perf_freq <= 0 || current->perf_freq != previous->perf_freq
          || current->value < previous->value || current->perf_time <= previous->perf_time)
        return FALSE;
      delta_value = (double) (current->value - previous->value);
      delta_time = (double) ((guint64) current->perf_time - (guint64) previous->perf_time);
      *value = delta_value / (delta_time / (double) current->perf_freq);
      return TRUE;

    default:
      return FALSE;
    }
}

/* The raw values of the plan's value `index` in a sample: the value,
 * its companions and the sample's clocks */
static void
fill_raw (const ValuePlan    *plans,
          guint               index,
          const SampleValues *sample,
          PsPerflibRaw       *raw)
{
  const ValuePlan *plan = &plans[index];

  memset (raw, 0, sizeof *raw);
  raw->fields = PS_PERFLIB_RAW_SYSTEM_TIME | PS_PERFLIB_RAW_TIME_100NS;
  raw->perf_time = sample->perf_time_stamp;
  raw->perf_freq = sample->perf_freq;
  raw->perf_time_100ns = sample->perf_time_100nsec;
  if (plan->data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_VALUE;
      raw->value_size = plan->data_size;
      raw->value = sample->values[index];
    }
  if (plan->base != NO_INDEX && plans[plan->base].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_BASE;
      raw->base = sample->values[plan->base];
    }
  if (plan->time != NO_INDEX && plans[plan->time].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_OBJECT_TIME;
      raw->object_time = sample->values[plan->time];
    }
  if (plan->freq != NO_INDEX && plans[plan->freq].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_OBJECT_FREQ;
      raw->object_freq = sample->values[plan->freq];
    }
  if (plan->multi != NO_INDEX && plans[plan->multi].data_size != 0)
    {
      raw->fields |= PS_PERFLIB_RAW_MULTI;
      raw->multi = sample->values[plan->multi];
    }
}

/* After samples read as columns: the series' previous raw values from
 * the last of them, for the general way */
static void
write_back_previous (Plv2Parser *self)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;

  if (!self->previous_pending)
    return;
  self->previous_pending = FALSE;
  for (guint index = 0; index < self->plan->len; index++)
    {
      Series *series;

      if (plans[index].series == NO_INDEX)
        continue;
      series = &g_array_index (self->series, Series, plans[index].series);
      fill_raw (plans, index, &self->previous_sample, &series->previous);
      series->has_previous = TRUE;
      series->previous_sample = self->previous_ordinal;
      series->previous_generation = self->previous_generation;
    }
}

/* The sample's readings were added under the current plan: its values are
 * the previous ones of the next sample read as columns. They are in
 * self->values, or in the reading thread's match, which is then kept. */
static void
note_sample_added (Plv2Parser         *self,
                   const PsPlv2Record *record,
                   guint64             ordinal,
                   const SampleValues *sample,
                   ShapeMatch        **match)
{
  guint64 *values;

  g_clear_pointer (&self->previous_match, plv2_shape_match_free);
  if (match != NULL && *match != NULL && sample->values == (*match)->sample.values)
    {
      self->previous_match = g_steal_pointer (match);
      values = self->previous_match->sample.values;
    }
  else
    {
      GArray *swap = self->previous_values;

      g_assert (sample->values == (guint64 *)(gpointer)self->values->data);
      self->previous_values = self->values;
      self->values = swap;
      values = (guint64 *)(gpointer)self->previous_values->data;
    }
  self->previous_sample = *sample;
  self->previous_sample.values = values;
  self->previous_serial = self->plan_serial;
  self->previous_ordinal = ordinal;
  self->previous_generation = record->generation;
}

/* The display value of a reading: by fast_reading () if `fast` and it
 * can, else by the counter type's formula with all its checks; NAN where
 * the formula gives none */
static double
compute_display (Plv2Parser         *self,
                 const Series       *series,
                 const PsPerflibRaw *previous,
                 const PsPerflibRaw *raw,
                 gboolean            fast,
                 PsPerflibStatus    *status)
{
  double display;

  status->result = PS_PERFLIB_RESULT_OK;
  if (fast && fast_reading (series->info, previous, raw, &display))
    return display;
  if (!ps_perflib_compute_with_info (series->info, series->type, previous, raw, self->options,
                                     &display, status))
    return NAN;
  return display;
}

/* The readings of one sample: each displayed value with its companions
 * through its counter type's formula, against the series' previous raw
 * values when they come from the sample just before, of the same
 * generation (§8.4) */
static void
add_readings (Plv2Parser         *self,
              const PsPlv2Record *record,
              guint64             ordinal,
              const SampleValues *sample)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;
  gint64 time_ns = ps_util_sub_saturated (sample->unix_ns, self->origin_unix_ns);

  write_back_previous (self);
  for (guint index = 0; index < self->plan->len; index++)
    {
      const ValuePlan *plan = &plans[index];
      PsCounterValue reading = { 0 };
      PsCounterRaw reading_raw;
      PsPerflibStatus status;
      PsPerflibRaw raw;
      const PsPerflibRaw *previous;
      Series *series;
      double display;

      if (plan->series == NO_INDEX)
        continue;
      series = &g_array_index (self->series, Series, plan->series);
      fill_raw (plans, index, sample, &raw);

      previous = series->has_previous && series->previous_sample + 1 == ordinal
                 && series->previous_generation == record->generation ? &series->previous : NULL;
      display = compute_display (self, series, previous, &raw, !self->decode_every_sample, &status);

      reading.time_ns = time_ns;
      reading.track = series->track;
      reading.flags = PS_COUNTER_FLAG_RAW | (isnan (display) ? PS_COUNTER_FLAG_MISSING : 0);
      reading.status = (guint16)status.result;
      reading.value = display;
      reading_raw.raw = (gint64)raw.value;
      reading_raw.base = (gint64)raw.base;
      ps_store_builder_add_raw_counter_value (self->parent.builder, &reading, &reading_raw);

      series->previous = raw;
      series->has_previous = TRUE;
      series->previous_sample = ordinal;
      series->previous_generation = record->generation;
    }
}

/* A reading of the column loop that is not computed inline */
static G_GNUC_NO_INLINE double
column_general (Plv2Parser         *self,
                const Column       *column,
                const SampleValues *sample,
                guint16            *status)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;
  const Series *series = &g_array_index (self->series, Series, plans[column->index].series);
  PsPerflibRaw raw, previous;
  PsPerflibStatus result;
  double display;

  fill_raw (plans, column->index, sample, &raw);
  fill_raw (plans, column->index, &self->previous_sample, &previous);
  display = compute_display (self, series, &previous, &raw, TRUE, &result);
  *status = (guint16)result.result;
  return display;
}

static void
commit_kept (Plv2Parser *self,
             guint       n_kept,
             guint64     n_readings)
{
  _ps_event_store_append_kept_counter_values (self->store, self->kept, self->kept_raws, n_kept, n_readings);
}

/* The display values of a sample of the shape against the sample just
 * before, of the same shape, for the columns whose formula is computed
 * inline; computed[i] FALSE for the others and where a condition fails.
 * In either thread. */
void
plv2_compute_columns (const Shape        *shape,
                      const SampleValues *sample,
                      const SampleValues *before,
                      double             *displays,
                      guint8             *computed)
{
  const Column *columns = shape->columns;
  const guint64 *values = sample->values;
  const guint64 *previous_values = before->values;
  /* The clocks' differences, as the formulas check and convert them */
  gboolean has_100ns = sample->perf_time_100nsec > before->perf_time_100nsec;
  gboolean has_ticks = before->perf_freq > 0 && sample->perf_freq > 0 && before->perf_freq == sample->perf_freq
                       && sample->perf_time_stamp > before->perf_time_stamp;
  double delta_100ns = (double)((guint64)sample->perf_time_100nsec - (guint64)before->perf_time_100nsec);
  double delta_ticks = (double)((guint64)sample->perf_time_stamp - (guint64)before->perf_time_stamp);
  double delta_ticks_seconds = delta_ticks / (double)sample->perf_freq;

  for (guint k = 0; k < shape->n_columns; k++)
    {
      guint i = shape->order[k];
      const Column *column = &columns[i];
      guint64 value = values[column->index];
      guint64 previous = previous_values[column->index];
      gboolean ok = FALSE;
      double display = 0;

      switch (column->formula)
        {
        case PS_PERFLIB_FORMULA_RAW:
          display = (double)value;
          ok = TRUE;
          break;

        case PS_PERFLIB_FORMULA_FRACTION:
          if (values[column->base] != 0)
            {
              display = 100.0 * (double)value / (double)values[column->base];
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_DELTA:
          if (value >= previous)
            {
              display = (double)(value - previous);
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_AVERAGE_BULK:
          if (value >= previous && values[column->base] > previous_values[column->base])
            {
              display = (double)(value - previous) / (double)(values[column->base] - previous_values[column->base]);
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_PRECISION:
        case PS_PERFLIB_FORMULA_SAMPLE_FRACTION:
          if (value >= previous && values[column->base] > previous_values[column->base])
            {
              display = 100.0 * (double)(value - previous)
                        / (double)(values[column->base] - previous_values[column->base]);
              ok = TRUE;
            }
          break;

        case PS_PERFLIB_FORMULA_RATE:
        case PS_PERFLIB_FORMULA_QUEUELEN:
        case PS_PERFLIB_FORMULA_TIMER:
        case PS_PERFLIB_FORMULA_TIMER_INV:
          if (value >= previous && (column->clock == PS_PERFLIB_TIME_100NS ? has_100ns : has_ticks))
            {
              double delta_value = (double)(value - previous);
              double delta_time = column->clock == PS_PERFLIB_TIME_100NS ? delta_100ns : delta_ticks;

              if (column->formula == PS_PERFLIB_FORMULA_RATE)
                display = delta_value / delta_ticks_seconds;
              else if (column->formula == PS_PERFLIB_FORMULA_QUEUELEN)
                display = delta_value / delta_time;
              else if (column->formula == PS_PERFLIB_FORMULA_TIMER)
                display = 100.0 * delta_value / delta_time;
              else
                display = 100.0 * (1.0 - delta_value / delta_time);
              ok = TRUE;
            }
          break;

        default:
          break;
        }
      displays[i] = display;
      computed[i] = (guint8)ok;
    }
}

/* A reading of a column of a sample with the given values */
static inline void
set_column_reading (PsCounterValue *reading,
                    PsCounterRaw   *raw,
                    const Column   *column,
                    const guint64  *values,
                    gint64          time_ns,
                    double          display,
                    guint16         status)
{
  reading->time_ns = time_ns;
  reading->track = column->track;
  reading->flags = PS_COUNTER_FLAG_RAW | (isnan (display) ? PS_COUNTER_FLAG_MISSING : 0);
  reading->status = status;
  reading->value = display;
  raw->raw = (gint64)values[column->index];
  raw->base = column->base != NO_INDEX ? (gint64)values[column->base] : 0;
}

/* A sample of the plan's shape right after one of the same plan: its
 * readings column by column (see the top of the file), with the display
 * values the reading thread computed if it could */
static void
add_columns (Plv2Parser         *self,
             const PsPlv2Record *record,
             guint64             ordinal,
             const SampleValues *sample,
             const ShapeMatch   *match)
{
  const Shape *shape = self->shape;
  const Column *columns = shape->columns;
  guint n_columns = shape->n_columns;
  const guint64 *values = sample->values;
  gint64 time_ns = sample->unix_ns - self->origin_unix_ns;
  const double *displays;
  const guint8 *computed;
  PsCounterSeries *all_series;
  gboolean direct;
  guint64 room;
  guint64 stride_mask;
  guint stride;
  guint n_kept = 0;

  if (match != NULL && match->shape == shape && match->displays != NULL)
    {
      displays = match->displays;
      computed = match->computed;
    }
  else
    {
      if (self->n_displays < n_columns)
        {
          self->n_displays = n_columns;
          self->displays = g_renew (double, self->displays, n_columns);
          self->computed = g_renew (guint8, self->computed, n_columns);
        }
      plv2_compute_columns (shape, sample, &self->previous_sample, self->displays, self->computed);
      displays = self->displays;
      computed = self->computed;
    }

  /* Readings still in the builder reach the series first */
  ps_store_builder_flush (self->parent.builder);
  room = _ps_event_store_get_counter_room (self->store, &stride);
  stride_mask = (guint64)stride - 1;
  /* Near the store's limit, it thins them as each reading comes */
  direct = room >= n_columns;
  all_series = _ps_event_store_edit_counter_series (self->store, shape->n_tracks);

  for (guint i = 0; i < n_columns; i++)
    {
      const Column *column = &columns[i];
      guint16 status = PS_PERFLIB_RESULT_OK;
      double display = displays[i];

      if G_UNLIKELY (!computed[i])
        display = column_general (self, column, sample, &status);

      if G_LIKELY (direct)
        {
          PsCounterSeries *series = &all_series[column->track];

#ifdef __GNUC__
          /* The series of a few columns on, each in a different place; and
           * closer, where a series will store the bucket it fills, if this
           * reading begins another */
          if G_LIKELY (i + 2 * COLUMN_PREFETCH < n_columns)
            {
              const PsCounterSeries *ahead = &all_series[columns[i + 2 * COLUMN_PREFETCH].track];

              __builtin_prefetch (ahead, 1, 3);
              __builtin_prefetch ((const guint8 *)ahead + 64, 1, 3);
            }
          if G_LIKELY (i + COLUMN_PREFETCH < n_columns)
            {
              const PsCounterSeries *ahead = &all_series[columns[i + COLUMN_PREFETCH].track];

              if (ahead->current_count != 0 && time_ns >= ahead->begin_ns
                  && (((guint64)time_ns - (guint64)ahead->begin_ns) >> ahead->shift) != ahead->current_index)
                __builtin_prefetch (&ahead->buckets[ahead->n_used], 1, 3);
            }
#endif
          if ((series->n_readings & stride_mask) == 0)
            {
              set_column_reading (&self->kept[n_kept], &self->kept_raws[n_kept], column, values, time_ns, display, status);
              n_kept++;
              if (n_kept == KEPT_BATCH_SIZE)
                {
                  commit_kept (self, n_kept, 0);
                  n_kept = 0;
                }
            }
          if G_UNLIKELY (isnan (display))
            ps_counter_series_add (series, time_ns, display, TRUE);
          else
            ps_counter_series_add_value (series, time_ns, display);
        }
      else
        {
          PsCounterValue reading;
          PsCounterRaw raw;

          set_column_reading (&reading, &raw, column, values, time_ns, display, status);
          ps_store_builder_add_raw_counter_value (self->parent.builder, &reading, &raw);
        }
    }
  if (direct)
    commit_kept (self, n_kept, n_columns);

  self->previous_pending = TRUE;
}


/* The columns of the current plan, for its shape. The formulas computed
 * inline take the same conditions and arithmetic as ps_perflib_compute ()
 * in the same order, given a previous sample of the same plan, whose
 * values therefore have the same sizes and companions. */
static void
make_columns (Plv2Parser *self,
              Shape      *shape)
{
  const ValuePlan *plans = (const ValuePlan *)(gpointer)self->plan->data;
  g_autofree guint8 *seen = g_new0 (guint8, MAX (self->series->len, 1));

  shape->columns = g_new (Column, MAX (self->plan->len, 1));
  shape->n_columns = 0;
  shape->n_tracks = 0;
  for (guint index = 0; index < self->plan->len; index++)
    {
      const ValuePlan *plan = &plans[index];
      const Series *series;
      const PsPerflibTypeInfo *info;
      Column column;
      gboolean has_base;

      if (plan->series == NO_INDEX)
        continue;
      /* A series twice in a sample is computed against itself in the same
       * sample the general way */
      if (seen[plan->series])
        {
          shape->n_columns = 0;
          return;
        }
      seen[plan->series] = TRUE;
      series = &g_array_index (self->series, Series, plan->series);
      info = series->info;
      has_base = plan->base != NO_INDEX && plans[plan->base].data_size != 0;

      column.index = index;
      column.base = has_base ? plan->base : NO_INDEX;
      column.track = series->track;
      column.formula = COLUMN_GENERAL;
      column.clock = info != NULL ? info->time_source : PS_PERFLIB_TIME_NONE;
      shape->n_tracks = MAX (shape->n_tracks, series->track + 1);
      if (info != NULL && plan->data_size != 0 && !info->needs_multi)
        switch (info->formula)
          {
          case PS_PERFLIB_FORMULA_RAW:
            column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_DELTA:
            if (info->time_source == PS_PERFLIB_TIME_NONE)
              column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_FRACTION:
          case PS_PERFLIB_FORMULA_AVERAGE_BULK:
          case PS_PERFLIB_FORMULA_PRECISION:
          case PS_PERFLIB_FORMULA_SAMPLE_FRACTION:
            if (has_base && (info->time_source == PS_PERFLIB_TIME_NONE
                             || info->time_source == PS_PERFLIB_TIME_BASE_COUNTER))
              column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_RATE:
            if (info->time_source == PS_PERFLIB_TIME_SYSTEM_TICKS)
              column.formula = info->formula;
            break;
          case PS_PERFLIB_FORMULA_QUEUELEN:
          case PS_PERFLIB_FORMULA_TIMER:
          case PS_PERFLIB_FORMULA_TIMER_INV:
            if (info->time_source == PS_PERFLIB_TIME_100NS
                || info->time_source == PS_PERFLIB_TIME_SYSTEM_TICKS)
              column.formula = info->formula;
            break;
          default:
            break;
          }
      shape->columns[shape->n_columns++] = column;
    }

  /* Computed formula by formula, each in one run: the branches of each
   * column are those of the one before */
  shape->order = g_new (guint32, MAX (shape->n_columns, 1));
  {
    guint n_ordered = 0;

    for (guint formula = 0; formula <= G_MAXUINT8; formula++)
      for (guint i = 0; i < shape->n_columns; i++)
        if (shape->columns[i].formula == formula)
          shape->order[n_ordered++] = i;
    g_assert (n_ordered == shape->n_columns);
  }
}

/* After a sample was decoded and planned: its shape, if it had no fault
 * at all (a sample with warnings is always decoded, so that they are
 * given again) */
static void
remember_shape (Plv2Parser            *self,
                const PsPlv2Record    *record,
                const PsPerflibBuffer *buffer)
{
  gsize n_words = (record->body_size + 7) / 8;
  Shape *shape;
  guint8 *mask;

  if (self->shape != NULL && self->shape->generation == record->generation
      && self->shape->length == record->body_size)
    return;
  plv2_forget_shape (self);
  if (self->decode_every_sample)
    return;
  if (!buffer->complete || buffer->n_warnings > 0 || !buffer->perf_time_100nsec_valid
      || !buffer->system_time_valid || buffer->length != record->body_size)
    return;

  shape = g_atomic_rc_box_new0 (Shape);
  shape->words = g_new0 (guint64, n_words);
  memcpy (shape->words, record->body, record->body_size);
  mask = g_malloc (n_words * 8);
  memset (mask, 0xff, record->body_size);
  memset (mask + record->body_size, 0, n_words * 8 - record->body_size);
  /* PerfTimeStamp, PerfTime100NSec; SystemTime */
  memset (mask + 8, 0, 16);
  memset (mask + 32, 0, 16);
  shape->n_values = self->plan->len;
  shape->value_offsets = g_new (guint32, MAX (self->plan->len, 1));
  shape->value_sizes = g_new (guint8, MAX (self->plan->len, 1));
  for (guint i = 0; i < self->plan->len; i++)
    {
      const ValuePlan *plan = &g_array_index (self->plan, ValuePlan, i);

      if (plan->data_size != 0)
        memset (mask + plan->data_offset, 0, plan->data_size);
      shape->value_offsets[i] = plan->data_offset;
      shape->value_sizes[i] = plan->data_size == 4 || plan->data_size == 8 ? plan->data_size : 0;
    }
  shape->mask = (guint64 *)(gpointer)mask;
  for (gsize w = 0; w < n_words; w++)
    shape->words[w] &= shape->mask[w];
  shape->generation = record->generation;
  shape->length = record->body_size;
  make_columns (self, shape);
  self->shape = shape;
  plv2_publish_shape (self);
}

/* A SYSTEMTIME the decoder accepts without a warning */
static gboolean
system_time_plausible (const guint8 *p)
{
  static const guint8 days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
  guint year = ps_util_load_le16 (p);
  guint month = ps_util_load_le16 (p + 2);
  guint day = ps_util_load_le16 (p + 6);
  guint hour = ps_util_load_le16 (p + 8);
  guint minute = ps_util_load_le16 (p + 10);
  guint second = ps_util_load_le16 (p + 12);
  guint milliseconds = ps_util_load_le16 (p + 14);
  gboolean leap;

  if (year < 1601 || year > 9999 || month < 1 || month > 12 || day < 1
      || hour > 23 || minute > 59 || second > 59 || milliseconds > 999)
    return FALSE;
  leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= days[month - 1] + (month == 2 && leap ? 1u : 0u);
}

/* The sample read at the shape's offsets into sample->values (as many as
 * the shape has values), if it has the shape. In either thread. */
gboolean
plv2_match_shape (const Shape        *shape,
                  const PsPlv2Record *record,
                  SampleValues       *sample)
{
  const guint8 *data = record->body;
  gsize n_words = (record->body_size + 7) / 8;
  gsize whole = record->body_size / 8;
  guint64 differ = 0;
  gint64 filetime;

  if (shape == NULL || record->generation != shape->generation || record->body_size != shape->length)
    return FALSE;

  /* Equal or not does not depend on the byte order: words as they lie */
  for (gsize w = 0; w < whole; w++)
    {
      guint64 word;

      memcpy (&word, data + 8 * w, 8);
      differ |= (word ^ shape->words[w]) & shape->mask[w];
    }
  if (whole < n_words)
    {
      guint64 tail = 0;

      memcpy (&tail, data + 8 * whole, record->body_size - 8 * whole);
      differ |= (tail ^ shape->words[whole]) & shape->mask[whole];
    }
  if (differ != 0 || !system_time_plausible (data + 32))
    return FALSE;

  /* The decoder's rule for PerfTime100NSec (a FILETIME) */
  filetime = (gint64)ps_util_load_le64 (data + 16);
  if (!ps_perflib_filetime_to_unix_ns (filetime, &sample->unix_ns))
    return FALSE;

  sample->perf_time_stamp = (gint64)ps_util_load_le64 (data + 8);
  sample->perf_time_100nsec = filetime;
  sample->perf_freq = (gint64)ps_util_load_le64 (data + 24);
  for (guint i = 0; i < shape->n_values; i++)
    {
      guint32 offset = shape->value_offsets[i];

      if (shape->value_sizes[i] == 8)
        sample->values[i] = ps_util_load_le64 (data + offset);
      else if (shape->value_sizes[i] == 4)
        sample->values[i] = ps_util_load_le32 (data + offset);
      else
        sample->values[i] = 0;
    }
  return TRUE;
}

/* The sample read at the plan's offsets, if it has the plan's shape:
 * as the reading thread found it when it compared it with this shape
 * (the values are then the match's) */
static gboolean
read_with_shape (Plv2Parser         *self,
                 const PsPlv2Record *record,
                 const ShapeMatch   *match,
                 SampleValues       *sample)
{
  if (self->shape == NULL)
    return FALSE;
  if (match != NULL && match->shape == self->shape)
    {
      *sample = match->sample;
      return match->matches;
    }
  g_array_set_size (self->values, self->plan->len);
  sample->values = (guint64 *)(gpointer)self->values->data;
  return plv2_match_shape (self->shape, record, sample);
}

static void
read_sample (Plv2Parser         *self,
             const PsPlv2Record *record,
             ShapeMatch        **match)
{
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;
  const PsPerflibQuery *query;
  guint64 buffer_offset = record->offset + PS_PLV2_RECORD_HEADER_SIZE + 16;
  guint64 ordinal = ++self->n_samples;
  SampleValues sample;
  gint64 unix_ns;

  if (record->win32_status != 0 || record->body_size == 0)
    return;  /* breaks delta chains: ordinals move on */

  query = g_hash_table_lookup (self->queries, GUINT_TO_POINTER (record->generation));
  if (query == NULL)
    {
      /* A generation no QUERY defined: the reader has warned already */
      if (record->flags & PS_PLV2_RECORD_FLAG_NO_QUERY)
        return;
      ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-NO-QUERY", record->offset,
                               _("Sample at byte offset %" PRIu64 ": no query of generation %u before it; skipped"),
                               record->offset, record->generation);
      return;
    }

  /* Most samples: the shape of the one before */
  if (self->has_origin && read_with_shape (self, record, *match, &sample))
    {
      if (self->previous_serial == self->plan_serial && self->previous_ordinal + 1 == ordinal
          && self->shape->n_columns > 0)
        add_columns (self, record, ordinal, &sample, *match);
      else
        add_readings (self, record, ordinal, &sample);
      note_sample_added (self, record, ordinal, &sample, match);
      return;
    }

  /* The plan may change: the series' previous values by the current one */
  write_back_previous (self);

  if (!ps_perflib_buffer_decode (record->body, record->body_size, &buffer, &error))
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_ERROR, "E-PLV2-BLOCK", buffer_offset,
                             _("Sample %" PRIu64 ", whose data begins at byte offset %" PRIu64
                               " of the file (the offsets that follow count from there): %s; the blocks before the damage are kept"),
                             ordinal, buffer_offset, error->message);
  if (buffer == NULL)
    return;
  for (guint i = 0; i < buffer->n_warnings; i++)
    ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-BLOCK", buffer_offset + buffer->warnings[i].offset,
                             _("Sample %" PRIu64 ", whose data begins at byte offset %" PRIu64
                               " of the file (the offsets that follow count from there): %s"),
                             ordinal, buffer_offset, buffer->warnings[i].message);

  unix_ns = sample_unix_ns (self, record, buffer);
  if (unix_ns == G_MININT64)
    {
      if (!self->warned_no_time)
        ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_WARNING, "W-PLV2-NO-TIME", buffer_offset,
                                 _("Sample %" PRIu64 " has no valid time (PerfTime100NSec, SystemTime and the "
                                   "writer’s time are all out of range); samples without a time are skipped"), ordinal);
      self->warned_no_time = TRUE;
      return;
    }
  if (!self->has_origin)
    {
      self->has_origin = TRUE;
      self->origin_unix_ns = unix_ns;
      ps_event_store_set_session_origin (self->store, self->session, unix_ns);
    }

  plv2_make_signature (self, record->generation, buffer, self->signature);
  if (self->signature->len != self->plan_signature->len
      || memcmp (self->signature->data, self->plan_signature->data, self->signature->len * sizeof (guint32)) != 0
      || self->plan->len != buffer->n_values)
    {
      plv2_make_plan (self, query, buffer, buffer_offset);
      plv2_forget_shape (self);
      g_array_set_size (self->plan_signature, 0);
      g_array_append_vals (self->plan_signature, self->signature->data, self->signature->len);
    }

  remember_shape (self, record, buffer);

  sample.perf_time_stamp = buffer->perf_time_stamp;
  sample.perf_time_100nsec = buffer->perf_time_100nsec;
  sample.perf_freq = buffer->perf_freq;
  sample.unix_ns = unix_ns;
  g_array_set_size (self->values, buffer->n_values);
  sample.values = (guint64 *)(gpointer)self->values->data;
  for (guint index = 0; index < buffer->n_values; index++)
    sample.values[index] = buffer->values[index].value;
  add_readings (self, record, ordinal, &sample);
  note_sample_added (self, record, ordinal, &sample, NULL);
}

gboolean
plv2_on_record (const PsPlv2Record *record,
                ShapeMatch        **match,
                gpointer            user_data,
                GError            **error)
{
  Plv2Parser *self = user_data;

  plv2_ensure_session (self);
  switch (record->type & ~PS_PLV2_MUST_UNDERSTAND)
    {
    case PS_PLV2_RECORD_SESSION:
      plv2_read_session (self, record);
      break;
    case PS_PLV2_RECORD_COUNTERSET_REG:
      plv2_read_registration (self, record);
      break;
    case PS_PLV2_RECORD_QUERY:
      plv2_read_query (self, record);
      break;
    case PS_PLV2_RECORD_SAMPLE:
      read_sample (self, record, match);
      break;
    case PS_PLV2_RECORD_ANNOTATION:
      {
        g_autofree char *text = g_utf8_make_valid ((const char *)record->body, (gssize)record->body_size);

        ps_parse_warn_at_offset (&self->parent, warning_session (self), PS_SEVERITY_INFO, "I-PLV2-ANNOTATION", record->offset, _("Annotation: %s"), text);
      }
      break;
    default:
      break;
    }
  return TRUE;
}

gboolean
plv2_on_header (const PsPlv2Header *header,
                gpointer            user_data,
                GError            **error)
{
  Plv2Parser *self = user_data;
  g_autofree char *bias = g_strdup_printf ("%d", header->tz_bias_minutes);

  plv2_ensure_session (self);
  ps_event_store_set_metadata (self->store, self->session, "time_zone_bias_minutes", bias);
  return TRUE;
}

void
plv2_on_warning (const char *code,
                 guint64     offset,
                 const char *message,
                 gpointer    user_data)
{
  Plv2Parser *self = user_data;

  /* Damage that ends the capture early is an error; the rest is noted */
  static const char * const fatal[] = { "W-PLV2-CRC", "W-PLV2-SEQUENCE", "W-PLV2-LENGTH", NULL };

  plv2_ensure_session (self);
  ps_parse_warn_at_offset (&self->parent, warning_session (self), g_strv_contains (fatal, code) ? PS_SEVERITY_ERROR : PS_SEVERITY_WARNING,
                           code, offset, "%s", message);
  if (g_strv_contains (fatal, code) && self->damage == NULL)
    {
      self->damage = g_strdup (message);
      self->damage_offset = offset;
    }
}

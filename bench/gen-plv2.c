/* gen-plv2.c — writes a realistic PLV2 capture of processor counters
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §8.3–§8.5 (records and their order), §3.1–§3.9
 * (the buffers, built by tests/perflib-writer), §4.3 (what raw values of
 * each counter type mean, so that computed values are plausible).
 *
 *   gen-plv2 [--counters N] [--instances N] [--samples N]
 *            [--interval-ms MS] [--seed N] [-o FILE]
 *
 * The capture is what a recorder querying \Processor Information(*)\*
 * writes: SESSION, one COUNTERSET_REG (codes 1, 9 and 10), one QUERY with
 * a wildcard specification, one SAMPLE per interval, each a single
 * PERF_COUNTERSET block (dwType 6), and END.
 *
 * The sample buffer is built once; each sample patches the timestamps and
 * the raw values in place. Every CPU has a busy fraction that wanders; the
 * raw values follow from it as real providers' would: timers advance by at
 * most the elapsed 100 ns, rate counters only grow, bases advance with
 * their counters, and "_Total" aggregates the CPUs (mean for times and
 * gauges, sum for rates).
 */
#include "config.h"

#include "gen-common.h"

#include <errno.h>
#include "gen-plv2.h"

#include "perflib-writer.h"
#include "ps-perflib-block.h"
#include "ps-plv2.h"

/* How a counter's raw value evolves */
typedef enum
{
  MODEL_IDLE_TIME,      /* += (1 − busy) · scale · Δt100ns */
  MODEL_BUSY_TIME,      /* += busy · scale · Δt100ns */
  MODEL_RATE,           /* += scale · (0.3 + busy) · Δs, ±10 % */
  MODEL_DELTA,          /* += 0..scale */
  MODEL_QUEUE,          /* += busy · scale · Δt100ns */
  MODEL_GAUGE,          /* = busy · scale */
  MODEL_LARGE_GAUGE,    /* = (0.5 + busy) · scale */
  MODEL_ZERO,           /* = 0 */
  MODEL_FREQUENCY,      /* MHz: scale · (0.66 + 0.34 · busy) */
  MODEL_FREQUENCY_PCT,  /* the above in % of scale */
  MODEL_TIMESTAMP,      /* = PerfTime100NSec */
  MODEL_AVERAGE,        /* += busy · scale · AVERAGE_STEP (AVERAGE_BULK) */
  MODEL_AVERAGE_BASE,   /* += AVERAGE_STEP */
  MODEL_FRACTION,       /* = busy · FRACTION_BASE (RAW_FRACTION) */
  MODEL_FRACTION_BASE,  /* = FRACTION_BASE */
} Model;

#define AVERAGE_STEP   16
#define FRACTION_BASE  1000

typedef struct
{
  const char *name;
  guint32     type;
  Model       model;
  double      scale;
  gboolean    has_base;   /* the next entry is its base counter */
} CounterDef;

/* Processor Information, {b4fc721a-0378-476f-89ba-a5a79f810b36}: real
 * names and types (as `typeperf -qx` and the registration show them) */
static const CounterDef processor_counters[] = {
  { "% Processor Time",            PS_PERF_100NSEC_TIMER_INV,    MODEL_IDLE_TIME,    1.0,   FALSE },
  { "% User Time",                 PS_PERF_100NSEC_TIMER,        MODEL_BUSY_TIME,    0.7,   FALSE },
  { "% Privileged Time",           PS_PERF_100NSEC_TIMER,        MODEL_BUSY_TIME,    0.3,   FALSE },
  { "Interrupts/sec",              PS_PERF_COUNTER_COUNTER,      MODEL_RATE,         2000,  FALSE },
  { "% DPC Time",                  PS_PERF_100NSEC_TIMER,        MODEL_BUSY_TIME,    0.02,  FALSE },
  { "% Interrupt Time",            PS_PERF_100NSEC_TIMER,        MODEL_BUSY_TIME,    0.01,  FALSE },
  { "DPCs Queued/sec",             PS_PERF_COUNTER_COUNTER,      MODEL_RATE,         150,   FALSE },
  { "DPC Rate",                    PS_PERF_COUNTER_RAWCOUNT,     MODEL_GAUGE,        20,    FALSE },
  { "% Idle Time",                 PS_PERF_100NSEC_TIMER,        MODEL_IDLE_TIME,    1.0,   FALSE },
  { "% C1 Time",                   PS_PERF_100NSEC_TIMER,        MODEL_IDLE_TIME,    0.5,   FALSE },
  { "% C2 Time",                   PS_PERF_100NSEC_TIMER,        MODEL_IDLE_TIME,    0.3,   FALSE },
  { "% C3 Time",                   PS_PERF_100NSEC_TIMER,        MODEL_IDLE_TIME,    0.15,  FALSE },
  { "C1 Transitions/sec",          PS_PERF_COUNTER_BULK_COUNT,   MODEL_RATE,         1500,  FALSE },
  { "C2 Transitions/sec",          PS_PERF_COUNTER_BULK_COUNT,   MODEL_RATE,         400,   FALSE },
  { "C3 Transitions/sec",          PS_PERF_COUNTER_BULK_COUNT,   MODEL_RATE,         100,   FALSE },
  { "% Priority Time",             PS_PERF_100NSEC_TIMER_INV,    MODEL_IDLE_TIME,    0.98,  FALSE },
  { "Parking Status",              PS_PERF_COUNTER_RAWCOUNT,     MODEL_ZERO,         0,     FALSE },
  { "Processor Frequency",         PS_PERF_COUNTER_RAWCOUNT,     MODEL_FREQUENCY,    3600,  FALSE },
  { "% of Maximum Frequency",      PS_PERF_COUNTER_RAWCOUNT,     MODEL_FREQUENCY_PCT, 3600, FALSE },
  { "Processor State Flags",       PS_PERF_COUNTER_RAWCOUNT,     MODEL_ZERO,         0,     FALSE },
  { "Clock Interrupts/sec",        PS_PERF_COUNTER_COUNTER,      MODEL_RATE,         800,   FALSE },
  { "Average Idle Time",           PS_PERF_PRECISION_100NS_TIMER, MODEL_IDLE_TIME,   1.0,   TRUE },
  { "Average Idle Time Base",      PS_PERF_PRECISION_TIMESTAMP,  MODEL_TIMESTAMP,    0,     FALSE },
  { "Idle Break Events/sec",       PS_PERF_COUNTER_BULK_COUNT,   MODEL_RATE,         900,   FALSE },
  { "% Processor Performance",     PS_PERF_AVERAGE_BULK,         MODEL_AVERAGE,      110,   TRUE },
  { "% Processor Performance Base", PS_PERF_AVERAGE_BASE,        MODEL_AVERAGE_BASE, 0,     FALSE },
  { "% Processor Utility",         PS_PERF_AVERAGE_BULK,         MODEL_AVERAGE,      100,   TRUE },
  { "% Processor Utility Base",    PS_PERF_AVERAGE_BASE,         MODEL_AVERAGE_BASE, 0,     FALSE },
  { "% Privileged Utility",        PS_PERF_AVERAGE_BULK,         MODEL_AVERAGE,      30,    TRUE },
  { "% Privileged Utility Base",   PS_PERF_AVERAGE_BASE,         MODEL_AVERAGE_BASE, 0,     FALSE },
  { "% Performance Limit",         PS_PERF_COUNTER_RAWCOUNT,     MODEL_ZERO,         0,     FALSE },
  { "Performance Limit Flags",     PS_PERF_COUNTER_RAWCOUNT,     MODEL_ZERO,         0,     FALSE },
};

/* Beyond the real ones: synthetic counters of the common types, in turn */
static const CounterDef synthetic_counters[] = {
  { "Synthetic Events %u/sec",     PS_PERF_COUNTER_COUNTER,      MODEL_RATE,         500,   FALSE },
  { "Synthetic Bytes %u/sec",      PS_PERF_COUNTER_BULK_COUNT,   MODEL_RATE,         5e6,   FALSE },
  { "Synthetic Count %u",          PS_PERF_COUNTER_RAWCOUNT,     MODEL_GAUGE,        100,   FALSE },
  { "Synthetic Large Count %u",    PS_PERF_COUNTER_LARGE_RAWCOUNT, MODEL_LARGE_GAUGE, 1e6,  FALSE },
  { "% Synthetic Busy Time %u",    PS_PERF_100NSEC_TIMER,        MODEL_BUSY_TIME,    0.5,   FALSE },
  { "% Synthetic Time %u",         PS_PERF_100NSEC_TIMER_INV,    MODEL_IDLE_TIME,    1.0,   FALSE },
  { "Synthetic Queue Length %u",   PS_PERF_COUNTER_100NS_QUEUELEN_TYPE, MODEL_QUEUE, 4,     FALSE },
  { "Synthetic Delta %u",          PS_PERF_COUNTER_DELTA,        MODEL_DELTA,        50,    FALSE },
  { "Synthetic Average %u",        PS_PERF_AVERAGE_BULK,         MODEL_AVERAGE,      64,    TRUE },
  { "Synthetic Average %u Base",   PS_PERF_AVERAGE_BASE,         MODEL_AVERAGE_BASE, 0,     FALSE },
  { "% Synthetic Fraction %u",     PS_PERF_RAW_FRACTION,         MODEL_FRACTION,     0,     TRUE },
  { "% Synthetic Fraction %u Base", PS_PERF_RAW_BASE,            MODEL_FRACTION_BASE, 0,    FALSE },
};

/* What a counter falls back to when its base does not fit in --counters */
static const CounterDef fallback_counter =
  { "Synthetic Count %u", PS_PERF_COUNTER_RAWCOUNT, MODEL_GAUGE, 100, FALSE };

static const guint8 processor_information_guid[16] = {
  0x1a, 0x72, 0xfc, 0xb4, 0x78, 0x03, 0x6f, 0x47,
  0x89, 0xba, 0xa5, 0xa7, 0x9f, 0x81, 0x0b, 0x36,
};

#define PERF_FREQ          G_GINT64_CONSTANT (10000000)
/* 2024-03-04 09:00:00 UTC, in 100 ns since 1601 */
#define START_UNIX_SECONDS G_GINT64_CONSTANT (1709542800)
#define FILETIME_UNIX_EPOCH G_GINT64_CONSTANT (116444736000000000)

typedef struct
{
  CounterDef  def;
  char       *name;
  guint32     base_id;     /* PS_PERF_NO_COUNTER or the next counter */
  guint       value_size;  /* 4 or 8 */
} Counter;

typedef struct
{
  GenPlv2Options  options;
  Rng             rng;
  Counter        *counters;
  guint           n_counters;
  guint           n_instances;   /* CPUs + _Total */
  double         *busy;          /* per instance */
  guint64        *raw;           /* instance × counter */
  gsize          *offsets;       /* instance × counter: raw value offsets in the buffer */
  guint8         *buffer;
  gsize           buffer_size;
  GByteArray     *out;           /* what the PLV2 writer produced, drained after each record */
} Generator;

void
gen_plv2_options_init (GenPlv2Options *options)
{
  *options = (GenPlv2Options) {
    .n_counters = 0,
    .n_instances = 8,
    .n_samples = 3600,
    .interval_ms = 1000,
    .seed = 1,
  };
}

guint
gen_plv2_n_counters (const GenPlv2Options *options)
{
  return options->n_counters != 0 ? options->n_counters : G_N_ELEMENTS (processor_counters);
}

/* The counter's number in place of the "%u" of a name */
static char *
counter_name (const char *pattern,
              guint       number)
{
  const char *at = strstr (pattern, "%u");

  if (at == NULL)
    return g_strdup (pattern);
  return g_strdup_printf ("%.*s%u%s", (int) (at - pattern), pattern, number, at + 2);
}

static void
build_counters (Generator *gen)
{
  guint n = gen_plv2_n_counters (&gen->options);

  gen->n_counters = n;
  gen->counters = g_new0 (Counter, n);
  for (guint i = 0; i < n; i++)
    {
      Counter *counter = &gen->counters[i];
      const CounterDef *def;

      if (i < G_N_ELEMENTS (processor_counters))
        def = &processor_counters[i];
      else
        def = &synthetic_counters[(i - G_N_ELEMENTS (processor_counters)) % G_N_ELEMENTS (synthetic_counters)];
      /* A base counter is only ever taken right after its counter */
      if (def->has_base && i + 1 >= n)
        def = &fallback_counter;
      counter->def = *def;
      counter->name = counter_name (def->name, i);
      counter->base_id = def->has_base ? i + 1 : PS_PERF_NO_COUNTER;
      counter->value_size = ps_perflib_type_get_value_size (def->type) == 8 ? 8 : 4;
    }
  /* The base of a pair is written with its counter's number */
  for (guint i = 0; i + 1 < n; i++)
    if (gen->counters[i].def.has_base)
      {
        g_free (gen->counters[i + 1].name);
        gen->counters[i + 1].name = counter_name (gen->counters[i + 1].def.name, i);
      }
}

static char *
instance_name (Generator *gen,
               guint      instance)
{
  if (instance + 1 == gen->n_instances)
    return g_strdup ("_Total");
  /* Windows puts at most 64 processors in a group */
  return g_strdup_printf ("%u,%u", instance / 64, instance % 64);
}

static void
system_time_at (gint64               unix_ms,
                PsPerflibSystemTime *st)
{
  g_autoptr(GDateTime) date_time = g_date_time_new_from_unix_utc (unix_ms / 1000);

  st->year = g_date_time_get_year (date_time);
  st->month = g_date_time_get_month (date_time);
  st->day_of_week = g_date_time_get_day_of_week (date_time) % 7;
  st->day = g_date_time_get_day_of_month (date_time);
  st->hour = g_date_time_get_hour (date_time);
  st->minute = g_date_time_get_minute (date_time);
  st->second = g_date_time_get_second (date_time);
  st->milliseconds = unix_ms % 1000;
}

/* The sample buffer, once; values are patched per sample */
static void
build_buffer (Generator *gen)
{
  g_autoptr(PsPerflibWriter) writer = ps_perflib_writer_new ();
  g_autofree guint32 *ids = g_new (guint32, gen->n_counters);
  PsPerflibSystemTime st;

  for (guint c = 0; c < gen->n_counters; c++)
    ids[c] = c;
  system_time_at (START_UNIX_SECONDS * 1000, &st);
  ps_perflib_writer_data_header (writer, 1, 0, 0, PERF_FREQ, &st);
  ps_perflib_writer_block_begin (writer, 0, PS_PERFLIB_BLOCK_COUNTERSET);
  ps_perflib_writer_multi_counters (writer, ids, gen->n_counters);
  ps_perflib_writer_multi_instances_begin (writer, gen->n_instances);
  for (guint i = 0; i < gen->n_instances; i++)
    {
      g_autofree char *name = instance_name (gen, i);

      ps_perflib_writer_instance (writer, i, name);
      for (guint c = 0; c < gen->n_counters; c++)
        gen->offsets[i * gen->n_counters + c] =
          ps_perflib_writer_counter_data (writer, 0, gen->counters[c].value_size);
    }
  ps_perflib_writer_multi_instances_end (writer);
  ps_perflib_writer_block_end (writer);
  ps_perflib_writer_data_end (writer);

  gen->buffer = g_bytes_unref_to_data (ps_perflib_writer_free_to_bytes (g_steal_pointer (&writer)),
                                       &gen->buffer_size);
}

static GBytes *
build_registration (Generator *gen,
                    guint32    request_code)
{
  g_autoptr(PsPerflibWriter) writer = ps_perflib_writer_new ();

  if (request_code == PS_PERFLIB_REG_COUNTERSET_STRUCT)
    {
      ps_perflib_writer_counterset_reg (writer, processor_information_guid, 100, gen->n_counters,
                                        PS_PERFLIB_INSTANCE_MULTIPLE | PS_PERFLIB_INSTANCE_AGGREGATE);
      for (guint c = 0; c < gen->n_counters; c++)
        {
          const Counter *counter = &gen->counters[c];
          PsPerflibWriterCounter reg;
          gboolean is_rate = counter->def.model == MODEL_RATE || counter->def.model == MODEL_DELTA;

          ps_perflib_writer_counter_init (&reg, c, counter->def.type);
          reg.base_counter_id = counter->base_id;
          /* _Total: rates add up, times and gauges average */
          reg.aggregate_func = is_rate ? 1 : 2;
          if (ps_perflib_type_get_display_suffix (counter->def.type) == PS_PERF_DISPLAY_NOSHOW &&
              counter->def.type != PS_PERF_AVERAGE_BULK)
            reg.attrib = PS_PERFLIB_ATTRIB_NO_DISPLAYABLE;
          ps_perflib_writer_counter_reg (writer, &reg);
        }
    }
  else if (request_code == PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME)
    ps_perflib_writer_utf16 (writer, "Processor Information");
  else
    {
      g_autofree guint32 *ids = g_new (guint32, gen->n_counters);
      g_autofree const char **names = g_new (const char *, gen->n_counters);

      for (guint c = 0; c < gen->n_counters; c++)
        {
          ids[c] = c;
          names[c] = gen->counters[c].name;
        }
      ps_perflib_writer_string_buffer (writer, ids, names, gen->n_counters);
    }
  return ps_perflib_writer_free_to_bytes (g_steal_pointer (&writer));
}

static inline void
store_le (guint8  *p,
          guint64  value,
          guint    size)
{
  for (guint i = 0; i < size; i++)
    p[i] = (guint8) (value >> (8 * i));
}

/* The machine booted this many intervals before the first sample */
#define UPTIME_INTERVALS 1000

static gboolean
is_accumulating (Model model)
{
  return model == MODEL_IDLE_TIME || model == MODEL_BUSY_TIME || model == MODEL_RATE ||
         model == MODEL_DELTA || model == MODEL_QUEUE || model == MODEL_AVERAGE ||
         model == MODEL_AVERAGE_BASE;
}

/* Advances every raw value by one interval and patches the buffer */
static void
advance (Generator *gen,
         gint64     time_100ns,
         gboolean   first)
{
  double dt = gen->options.interval_ms * 10000.0;
  double seconds = gen->options.interval_ms / 1000.0;
  guint n_cpus = gen->n_instances - 1;
  double total_busy = 0;

  for (guint i = 0; i < n_cpus; i++)
    {
      /* A mean-reverting walk around a per-CPU level */
      double level = 0.15 + 0.5 * (double) (i % 7) / 7.0;
      double busy = gen->busy[i] + 0.2 * (level - gen->busy[i]) + 0.06 * rng_normal (&gen->rng);

      gen->busy[i] = CLAMP (busy, 0.01, 0.99);
      total_busy += gen->busy[i];
    }
  gen->busy[n_cpus] = total_busy / MAX (n_cpus, 1);

  for (guint i = 0; i < gen->n_instances; i++)
    {
      double busy = gen->busy[i];
      double rate_factor = i == n_cpus ? MAX (n_cpus, 1) : 1;
      guint64 *raw = gen->raw + (gsize) i * gen->n_counters;
      const gsize *offsets = gen->offsets + (gsize) i * gen->n_counters;

      for (guint c = 0; c < gen->n_counters; c++)
        {
          const Counter *counter = &gen->counters[c];
          double scale = counter->def.scale;
          guint64 value = raw[c];

          switch (counter->def.model)
            {
            case MODEL_IDLE_TIME:
              value += (guint64) ((1.0 - busy) * scale * dt);
              break;
            case MODEL_BUSY_TIME:
              value += (guint64) (busy * scale * dt);
              break;
            case MODEL_RATE:
              value += (guint64) (scale * (0.3 + busy) * seconds * rate_factor *
                                  (0.9 + 0.2 * rng_uniform (&gen->rng)));
              break;
            case MODEL_DELTA:
              value += (guint64) (rng_uniform (&gen->rng) * scale * rate_factor);
              break;
            case MODEL_QUEUE:
              value += (guint64) (busy * scale * dt);
              break;
            case MODEL_GAUGE:
              value = (guint64) (busy * scale + 0.5);
              break;
            case MODEL_LARGE_GAUGE:
              value = (guint64) ((0.5 + busy) * scale);
              break;
            case MODEL_ZERO:
              value = 0;
              break;
            case MODEL_FREQUENCY:
              value = (guint64) (scale * (0.66 + 0.34 * busy));
              break;
            case MODEL_FREQUENCY_PCT:
              value = (guint64) (100.0 * (0.66 + 0.34 * busy));
              break;
            case MODEL_TIMESTAMP:
              value = (guint64) time_100ns;
              break;
            case MODEL_AVERAGE:
              value += (guint64) (busy * scale * AVERAGE_STEP);
              break;
            case MODEL_AVERAGE_BASE:
              value += AVERAGE_STEP;
              break;
            case MODEL_FRACTION:
              value = (guint64) (busy * FRACTION_BASE);
              break;
            case MODEL_FRACTION_BASE:
              value = FRACTION_BASE;
              break;
            }
          /* The first sample shows counters that have run since boot */
          if (first && is_accumulating (counter->def.model))
            value *= UPTIME_INTERVALS;
          if (counter->value_size == 4)
            value &= 0xffffffffu;
          raw[c] = value;
          store_le (gen->buffer + offsets[c], value, counter->value_size);
        }
    }
}

static gboolean
drain (Generator        *gen,
       GenPlv2WriteFunc  write,
       gpointer          user_data,
       GError          **error)
{
  if (gen->out->len > 0 && !write (gen->out->data, gen->out->len, user_data))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "writing the capture failed");
      return FALSE;
    }
  g_byte_array_set_size (gen->out, 0);
  return TRUE;
}

gboolean
gen_plv2_write (const GenPlv2Options *options,
                GenPlv2WriteFunc      write,
                gpointer              user_data,
                GError              **error)
{
  static const guint32 reg_codes[] = {
    PS_PERFLIB_REG_COUNTERSET_STRUCT,
    PS_PERFLIB_REG_COUNTERSET_ENGLISH_NAME,
    PS_PERFLIB_REG_COUNTER_ENGLISH_NAMES,
  };
  Generator gen = { .options = *options };
  g_autoptr(PsPlv2Writer) writer = NULL;
  g_autoptr(PsPerflibWriter) query = ps_perflib_writer_new ();
  g_autofree char *interval = g_strdup_printf ("%u", options->interval_ms);
  GBytes *reg[G_N_ELEMENTS (reg_codes)];
  PsPlv2RegEntry entries[G_N_ELEMENTS (reg_codes)];
  const char *session[] = {
    "machine", "GEN-PLV2", "os_version", "10.0", "os_build", "19045",
    "writer", "gen-plv2", "writer_version", "1", "ui_langid", "1033",
    "interval_ms", interval, NULL,
  };
  PsPlv2Header header;
  gint64 start_100ns = START_UNIX_SECONDS * 10000000 + FILETIME_UNIX_EPOCH;
  gint64 perf_time = (gint64) UPTIME_INTERVALS * options->interval_ms * (PERF_FREQ / 1000);
  gint64 time_100ns = start_100ns;
  gboolean ok = FALSE;

  g_return_val_if_fail (options->n_instances > 0 && options->interval_ms > 0, FALSE);

  rng_init (&gen.rng, options->seed);
  build_counters (&gen);
  gen.n_instances = options->n_instances + 1;
  gen.busy = g_new0 (double, gen.n_instances);
  gen.raw = g_new0 (guint64, (gsize) gen.n_instances * gen.n_counters);
  gen.offsets = g_new0 (gsize, (gsize) gen.n_instances * gen.n_counters);
  for (guint i = 0; i < gen.n_instances; i++)
    gen.busy[i] = 0.15 + 0.5 * (double) (i % 7) / 7.0;
  build_buffer (&gen);
  gen.out = g_byte_array_sized_new (gen.buffer_size + 1024);

  ps_plv2_header_init (&header);
  header.created_utc = start_100ns;
  header.qpc_frequency = PERF_FREQ;
  for (guint i = 0; i < 16; i++)
    header.session_id[i] = (guint8) rng_next (&gen.rng);
  header.session_id[6] = (header.session_id[6] & 0x0f) | 0x40;  /* a version 4 GUID */
  writer = ps_plv2_writer_new_for_byte_array (gen.out, &header);

  for (guint k = 0; k < G_N_ELEMENTS (reg_codes); k++)
    {
      gsize size = 0;
      const guint8 *data;

      reg[k] = build_registration (&gen, reg_codes[k]);
      data = g_bytes_get_data (reg[k], &size);
      entries[k] = (PsPlv2RegEntry) {
        .request_code = reg_codes[k],
        .data = data,
        .data_size = size,
      };
    }
  ps_perflib_writer_identifier (query, processor_information_guid, 0, PS_PERF_WILDCARD_COUNTER,
                                0xFFFFFFFFu, 0, "*");

  if (!ps_plv2_writer_add_session (writer, session, error) ||
      !ps_plv2_writer_add_counterset_reg (writer, processor_information_guid,
                                          entries, G_N_ELEMENTS (entries), error) ||
      !ps_plv2_writer_add_query (writer, 1, ps_perflib_writer_peek (query, NULL),
                                 ps_perflib_writer_get_length (query), error) ||
      !drain (&gen, write, user_data, error))
    goto out;

  for (guint64 s = 0; s < options->n_samples; s++)
    {
      PsPerflibSystemTime st;
      gint64 unix_ms = START_UNIX_SECONDS * 1000 + (gint64) s * options->interval_ms;

      advance (&gen, time_100ns, s == 0);
      store_le (gen.buffer + 8, (guint64) perf_time, 8);
      store_le (gen.buffer + 16, (guint64) time_100ns, 8);
      system_time_at (unix_ms, &st);
      store_le (gen.buffer + 32, st.year, 2);
      store_le (gen.buffer + 34, st.month, 2);
      store_le (gen.buffer + 36, st.day_of_week, 2);
      store_le (gen.buffer + 38, st.day, 2);
      store_le (gen.buffer + 40, st.hour, 2);
      store_le (gen.buffer + 42, st.minute, 2);
      store_le (gen.buffer + 44, st.second, 2);
      store_le (gen.buffer + 46, st.milliseconds, 2);

      /* The recorder writes the record a little after the query */
      if (!ps_plv2_writer_add_sample (writer, 1, 0, time_100ns + 2500, gen.buffer,
                                      gen.buffer_size, error) ||
          !drain (&gen, write, user_data, error))
        goto out;

      perf_time += (gint64) options->interval_ms * (PERF_FREQ / 1000);
      time_100ns += (gint64) options->interval_ms * 10000;
    }
  if (!ps_plv2_writer_add_end (writer, time_100ns - (gint64) options->interval_ms * 10000 + 2500, error) ||
      !drain (&gen, write, user_data, error))
    goto out;
  ok = TRUE;

out:
  for (guint k = 0; k < G_N_ELEMENTS (reg_codes); k++)
    g_clear_pointer (&reg[k], g_bytes_unref);
  for (guint c = 0; c < gen.n_counters; c++)
    g_free (gen.counters[c].name);
  g_free (gen.counters);
  g_free (gen.busy);
  g_free (gen.raw);
  g_free (gen.offsets);
  g_free (gen.buffer);
  g_clear_pointer (&writer, ps_plv2_writer_free);
  g_byte_array_unref (gen.out);
  return ok;
}

#ifndef GEN_PLV2_NO_MAIN

static gboolean
write_file (const guint8 *bytes,
            gsize         length,
            gpointer      user_data)
{
  return fwrite (bytes, 1, length, user_data) == length;
}

int
main (int    argc,
      char **argv)
{
  GenPlv2Options options;
  g_autoptr(GError) error = NULL;
  const char *output = "-";
  FILE *file;
  gboolean ok;

  g_set_prgname ("gen-plv2");
  gen_plv2_options_init (&options);
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--counters") && i + 1 < argc)
        {
          if (!parse_count (argv[++i], 64000, &options.n_counters))
            return usage_error ("bad --counters", argv[i]);
        }
      else if (g_str_equal (argv[i], "--instances") && i + 1 < argc)
        {
          if (!parse_count (argv[++i], 100000, &options.n_instances))
            return usage_error ("bad --instances", argv[i]);
        }
      else if (g_str_equal (argv[i], "--samples") && i + 1 < argc)
        {
          if (!parse_uint (argv[++i], G_MAXUINT32, &options.n_samples))
            return usage_error ("bad --samples", argv[i]);
        }
      else if (g_str_equal (argv[i], "--interval-ms") && i + 1 < argc)
        {
          if (!parse_count (argv[++i], 86400000, &options.interval_ms))
            return usage_error ("bad --interval-ms", argv[i]);
        }
      else if (g_str_equal (argv[i], "--seed") && i + 1 < argc)
        {
          if (!parse_uint (argv[++i], G_MAXUINT64, &options.seed))
            return usage_error ("bad --seed", argv[i]);
        }
      else if (g_str_equal (argv[i], "-o") && i + 1 < argc)
        output = argv[++i];
      else if (g_str_equal (argv[i], "--help"))
        {
          printf ("usage: gen-plv2 [--counters N] [--instances N] [--samples N] [--interval-ms MS] [--seed N] [-o FILE]\n");
          return 0;
        }
      else
        return usage_error ("unknown option", argv[i]);
    }

  file = g_str_equal (output, "-") ? stdout : fopen (output, "wb");
  if (file == NULL)
    {
      perror (output);
      return 1;
    }
  ok = gen_plv2_write (&options, write_file, file, &error);
  if (file != stdout)
    ok = fclose (file) == 0 && ok;
  else
    ok = fflush (stdout) == 0 && ok;
  if (!ok)
    {
      fprintf (stderr, "gen-plv2: %s: %s\n", output, error != NULL ? error->message : g_strerror (errno));
      return 1;
    }
  return 0;
}

#endif

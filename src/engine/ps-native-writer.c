/* ps-native-writer.c — save a run in Perfscope's own format
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: docs/formats/native-format.md
 *
 * Each section is built in memory, at most a few megabytes (event arrays
 * are cut into sections of PS_NATIVE_EVENTS_PER_SECTION), then written
 * with its header and checksums. Every number is stored little-endian by
 * explicit shifts, whatever the machine.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ps-error.h"
#include "ps-file-output.h"
#include "ps-event-store-private.h"
#include "ps-native-writer.h"
#include "ps-plv2.h"

/* Events per section of spans, marks, samples, measurements, readings */
#define EVENTS_PER_SECTION 65536
/* Strings per section */
#define STRINGS_PER_SECTION 65536

typedef struct
{
  GOutputStream *stream;
  GCancellable  *cancellable;
  GByteArray    *payload;
  guint64        offset;
} Writer;

static inline void
put_u8 (GByteArray *out,
        guint8      value)
{
  g_byte_array_append (out, &value, 1);
}

static inline void
put_u16 (GByteArray *out,
         guint16     value)
{
  guint8 bytes[2] = { value & 0xff, value >> 8 };

  g_byte_array_append (out, bytes, sizeof bytes);
}

static void
store_u32 (guint8  *at,
           guint32  value)
{
  for (guint i = 0; i < 4; i++)
    at[i] = (guint8)(value >> (8 * i));
}

static void
store_u64 (guint8  *at,
           guint64  value)
{
  for (guint i = 0; i < 8; i++)
    at[i] = (guint8)(value >> (8 * i));
}

static inline void
put_u32 (GByteArray *out,
         guint32     value)
{
  guint8 bytes[4];

  store_u32 (bytes, value);
  g_byte_array_append (out, bytes, sizeof bytes);
}

static inline void
put_u64 (GByteArray *out,
         guint64     value)
{
  guint8 bytes[8];

  store_u64 (bytes, value);
  g_byte_array_append (out, bytes, sizeof bytes);
}

static inline void
put_f64 (GByteArray *out,
         double      value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  put_u64 (out, bits);
}

static inline void
put_f32 (GByteArray *out,
         float       value)
{
  guint32 bits;

  memcpy (&bits, &value, sizeof bits);
  put_u32 (out, bits);
}

static inline void
put_varint (GByteArray *out,
            guint64     value)
{
  guint8 bytes[10];
  guint n = 0;

  while (value >= 0x80)
    {
      bytes[n++] = (guint8)(value | 0x80);
      value >>= 7;
    }
  bytes[n++] = (guint8)value;
  g_byte_array_append (out, bytes, n);
}

static inline void
put_svarint (GByteArray *out,
             gint64      value)
{
  put_varint (out, ((guint64)value << 1) ^ (guint64)(value >> 63));
}

static void
put_string (GByteArray *out,
            const char *text)
{
  gsize length = text != NULL ? strlen (text) : 0;

  put_varint (out, length);
  if (length > 0)
    g_byte_array_append (out, (const guint8 *)text, length);
}

guint32
ps_native_crc32 (const guint8 *data,
                 gsize         length)
{
  return ps_plv2_crc32 (0, data, length);
}

static gboolean
write_bytes (Writer        *writer,
             const guint8  *data,
             gsize          length,
             GError       **error)
{
  if (!g_output_stream_write_all (writer->stream, data, length, NULL, writer->cancellable, error))
    return FALSE;
  writer->offset += length;
  return TRUE;
}

/* Writes the payload gathered so far as one section, and empties it */
static gboolean
write_section (Writer   *writer,
               guint32   type,
               guint64   count,
               GError  **error)
{
  guint8 header[PS_NATIVE_SECTION_HEADER_SIZE] = { 0 };
  gboolean ok;

  if (writer->payload->len > PS_NATIVE_MAX_PAYLOAD)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TOO_LARGE,
                   _("The run has more frames, stack nodes or tracks than a saved run can hold"));
      return FALSE;
    }

  store_u32 (header, type);
  store_u32 (header + 4, 0);
  store_u64 (header + 8, writer->payload->len);
  store_u64 (header + 16, count);
  store_u32 (header + 24, ps_native_crc32 (writer->payload->data, writer->payload->len));
  store_u32 (header + 28, ps_native_crc32 (header, 28));

  ok = write_bytes (writer, header, sizeof header, error)
       && write_bytes (writer, writer->payload->data, writer->payload->len, error);
  g_byte_array_set_size (writer->payload, 0);
  return ok;
}

static gboolean
write_header (Writer  *writer,
              GError **error)
{
  guint8 header[PS_NATIVE_HEADER_SIZE] = { 0 };

  memcpy (header, PS_NATIVE_MAGIC, PS_NATIVE_MAGIC_LENGTH);
  header[8] = PS_NATIVE_VERSION_MAJOR & 0xff;
  header[9] = PS_NATIVE_VERSION_MAJOR >> 8;
  header[10] = PS_NATIVE_VERSION_MINOR & 0xff;
  header[11] = PS_NATIVE_VERSION_MINOR >> 8;
  store_u32 (header + 12, 0);
  store_u32 (header + 16, PS_NATIVE_HEADER_SIZE);
  store_u32 (header + 28, ps_native_crc32 (header, 28));
  return write_bytes (writer, header, sizeof header, error);
}

static gboolean
write_run (Writer        *writer,
           PsEventStore  *store,
           GError       **error)
{
  put_string (writer->payload, ps_event_store_get_format (store));
  put_u64 (writer->payload, ps_event_store_get_max_counter_values (store));
  return write_section (writer, PS_NATIVE_RUN, 0, error);
}

static gboolean
write_strings (Writer        *writer,
               PsEventStore  *store,
               GError       **error)
{
  guint n = _ps_event_store_get_n_strings (store);
  guint in_section = 0;

  /* id 0, the empty string, is in every store */
  for (guint id = 1; id < n; id++)
    {
      put_u8 (writer->payload, _ps_event_store_string_is_interned (store, id) ? 1 : 0);
      put_string (writer->payload, ps_event_store_get_string (store, id));
      if (++in_section == STRINGS_PER_SECTION || writer->payload->len >= (4u << 20))
        {
          if (!write_section (writer, PS_NATIVE_STRINGS, in_section, error))
            return FALSE;
          in_section = 0;
        }
    }
  return in_section == 0 || write_section (writer, PS_NATIVE_STRINGS, in_section, error);
}

static gboolean
write_sessions (Writer        *writer,
                PsEventStore  *store,
                GError       **error)
{
  guint n = ps_event_store_get_n_sessions (store);
  guint n_rates = _ps_event_store_get_n_all_tick_rates (store);

  for (guint s = 0; s < n; s++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, s);
      g_autoptr(GArray) entries = ps_event_store_list_metadata (store, s);

      put_u64 (writer->payload, info->first_line);
      put_u64 (writer->payload, info->last_line);
      put_u64 (writer->payload, info->first_measurement);
      put_u64 (writer->payload, (guint64)info->origin_unix_ns);
      put_u8 (writer->payload, info->implicit ? 1 : 0);
      put_varint (writer->payload, entries->len);
      for (guint i = 0; i < entries->len; i++)
        {
          const PsMetadataEntry *entry = &g_array_index (entries, PsMetadataEntry, i);

          put_string (writer->payload, entry->key);
          put_string (writer->payload, entry->value);
        }
    }
  if (!write_section (writer, PS_NATIVE_SESSIONS, n, error))
    return FALSE;

  for (guint i = 0; i < n_rates; i++)
    {
      guint32 session;
      guint64 from_index;
      double rate;

      _ps_event_store_get_tick_rate_entry (store, i, &session, &from_index, &rate);
      put_u32 (writer->payload, session);
      put_u64 (writer->payload, from_index);
      put_f64 (writer->payload, rate);
    }
  return write_section (writer, PS_NATIVE_TICKS, n_rates, error);
}

static gboolean
write_tracks (Writer        *writer,
              PsEventStore  *store,
              GError       **error)
{
  guint n = ps_event_store_get_n_tracks (store);
  guint n_others = _ps_event_store_get_n_others (store);

  for (guint i = 0; i < n; i++)
    {
      const PsTrack *track = ps_event_store_get_track (store, i);

      put_u32 (writer->payload, track->name);
      put_u32 (writer->payload, track->category);
      put_u32 (writer->payload, track->parent);
      put_u32 (writer->payload, track->session);
      put_u64 (writer->payload, (guint64)track->number);
      put_u32 (writer->payload, track->ordinal);
      put_u32 (writer->payload, track->unit);
      put_u64 (writer->payload, track->line);
      put_u16 (writer->payload, track->kind);
      put_u16 (writer->payload, track->flags);
    }
  if (!write_section (writer, PS_NATIVE_TRACKS, n, error))
    return FALSE;

  for (guint i = 0; i < n_others; i++)
    {
      guint32 kind_name, raw_value;

      _ps_event_store_get_other_ids (store, i, &kind_name, &raw_value);
      put_u32 (writer->payload, kind_name);
      put_u32 (writer->payload, raw_value);
    }
  return write_section (writer, PS_NATIVE_OTHERS, n_others, error);
}

static gboolean
write_stacks (Writer        *writer,
              PsEventStore  *store,
              GError       **error)
{
  guint n_frames = ps_event_store_get_n_frames (store);
  guint n_nodes = ps_event_store_get_n_stack_nodes (store);
  guint n_sources = ps_event_store_get_n_sample_sources (store);

  for (guint i = 0; i < n_frames; i++)
    {
      const PsFrame *frame = ps_event_store_get_frame (store, i);

      put_u64 (writer->payload, frame->address);
      put_u32 (writer->payload, frame->function);
      put_u32 (writer->payload, frame->module);
    }
  if (!write_section (writer, PS_NATIVE_FRAMES, n_frames, error))
    return FALSE;

  /* Node 0, the empty stack, is in every store */
  for (guint i = 1; i < n_nodes; i++)
    {
      const PsStackNode *node = ps_event_store_get_stack_node (store, i);

      put_u32 (writer->payload, node->parent);
      put_u32 (writer->payload, node->frame);
    }
  if (!write_section (writer, PS_NATIVE_STACKS, n_nodes - 1, error))
    return FALSE;

  for (guint i = 0; i < n_sources; i++)
    {
      const PsSampleSource *source = ps_event_store_get_sample_source (store, i);

      put_u32 (writer->payload, source->name);
      put_u32 (writer->payload, source->unit);
      put_u64 (writer->payload, source->rate);
    }
  return write_section (writer, PS_NATIVE_SOURCES, n_sources, error);
}

static gboolean
write_report (Writer        *writer,
              PsEventStore  *store,
              GError       **error)
{
  guint n = ps_event_store_get_n_report_rows (store);

  for (guint i = 0; i < n; i++)
    {
      const PsReportRow *row = ps_event_store_get_report_row (store, i);

      put_u64 (writer->payload, row->line);
      put_u32 (writer->payload, row->frame);
      put_u32 (writer->payload, row->parent);
      put_u32 (writer->payload, row->track);
      put_u16 (writer->payload, row->kind);
      put_u16 (writer->payload, row->level);
      put_u64 (writer->payload, row->calls);
      put_u8 (writer->payload, row->has_calls ? 1 : 0);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        put_f64 (writer->payload, row->total[v]);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        put_f64 (writer->payload, row->min[v]);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        put_f64 (writer->payload, row->avg[v]);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        put_f64 (writer->payload, row->max[v]);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        put_f64 (writer->payload, row->percent[v]);
    }
  return write_section (writer, PS_NATIVE_REPORT, n, error);
}

static gboolean
write_warnings (Writer        *writer,
                PsEventStore  *store,
                GError       **error)
{
  guint n = ps_event_store_get_n_warnings (store);

  for (guint i = 0; i < n; i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      put_string (writer->payload, warning.code);
      put_string (writer->payload, warning.message);
      put_u64 (writer->payload, warning.line);
      put_u64 (writer->payload, warning.offset);
      put_u32 (writer->payload, warning.session);
      put_u8 (writer->payload, (guint8)warning.severity);
    }
  return write_section (writer, PS_NATIVE_WARNINGS, n, error);
}

static void
put_bucket (GByteArray            *out,
            const PsCounterBucket *bucket)
{
  put_f32 (out, bucket->min);
  put_f32 (out, bucket->max);
  put_f32 (out, bucket->mean);
  put_u32 (out, bucket->count);
}

/* CSER: statistics and the overview's state; its buckets go to COVW,
 * only those with readings. FALSE for a track without readings. */
static gboolean
put_series (GByteArray            *out,
            guint32                track,
            const PsCounterSeries *series)
{
  PsCounterBucket current;

  if (series->n_readings == 0 && series->buckets == NULL)
    return FALSE;

  put_u32 (out, track);
  put_u64 (out, series->n_readings);
  put_u64 (out, series->stats.n_values);
  put_u64 (out, series->stats.n_missing);
  put_f64 (out, series->stats.min);
  put_f64 (out, series->stats.max);
  put_f64 (out, series->stats.sum);
  put_f64 (out, series->stats.first);
  put_f64 (out, series->stats.last);
  put_u64 (out, (guint64)series->stats.first_ns);
  put_u64 (out, (guint64)series->stats.last_ns);
  put_u64 (out, (guint64)series->begin_ns);
  put_u32 (out, series->shift);
  put_u32 (out, series->n_used);
  ps_counter_series_get_current (series, &current);
  put_bucket (out, &current);
  put_u32 (out, series->current_index);
  put_u8 (out, series->current_fresh ? 1 : 0);
  /* No buckets here */
  put_u8 (out, 0);
  put_u32 (out, 0);
  return TRUE;
}

/* COVW: the overview's buckets with readings. FALSE for a track without
 * an overview. */
static gboolean
put_overview (GByteArray            *out,
              guint32                track,
              const PsCounterSeries *series)
{
  if (series->buckets == NULL)
    return FALSE;

  put_u32 (out, track);
  put_u32 (out, series->n_used);
  for (guint b = 0; b < series->n_used; b++)
    {
      put_u16 (out, (guint16)series->buckets[b].index);
      put_bucket (out, &series->buckets[b]);
    }
  return TRUE;
}

typedef gboolean (*PutSeries) (GByteArray *out, guint32 track, const PsCounterSeries *series);

/* A record of every counter track that put writes one for, in sections
 * of about 4 MiB */
static gboolean
write_series_records (Writer        *writer,
                      PsEventStore  *store,
                      guint32        type,
                      PutSeries      put,
                      GError       **error)
{
  guint n = _ps_event_store_get_n_counter_series (store);
  guint count = 0;

  for (guint32 track = 0; track < n; track++)
    {
      if (!put (writer->payload, track, _ps_event_store_get_counter_series (store, track)))
        continue;
      count++;
      if (writer->payload->len >= (4u << 20))
        {
          if (!write_section (writer, type, count, error))
            return FALSE;
          count = 0;
        }
    }
  return count == 0 || write_section (writer, type, count, error);
}

static gboolean
write_measurements (Writer        *writer,
                    PsEventStore  *store,
                    GError       **error)
{
  PsMeasurementIter iter;
  PsMeasurement m;
  guint64 first = 0;
  guint64 previous_line = 0;
  guint in_section = 0;

  ps_measurement_iter_init (&iter, store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      if (in_section == 0)
        {
          first = m.index;
          previous_line = 0;
          put_u64 (writer->payload, first);
        }

      put_u8 (writer->payload, (guint8)(m.kind | m.flags << 2));
      put_varint (writer->payload, m.track);
      put_svarint (writer->payload, (gint64)(m.line - previous_line));
      previous_line = m.line;
      switch ((PsMeasureKind)m.kind)
        {
        case PS_MEASURE_DURATION:
          put_svarint (writer->payload, m.value.ticks);
          break;
        case PS_MEASURE_MEMORY:
          if ((m.flags & PS_MEASURE_FLAG_FRACTIONAL) == 0)
            {
              put_varint (writer->payload, m.value.bytes);
              break;
            }
          G_GNUC_FALLTHROUGH;
        case PS_MEASURE_CPU:
          put_f64 (writer->payload, m.value.number);
          break;
        case PS_MEASURE_OTHER:
        default:
          put_varint (writer->payload, m.value.other);
          break;
        }

      if (++in_section == EVENTS_PER_SECTION)
        {
          if (!write_section (writer, PS_NATIVE_MEASURES, in_section, error))
            return FALSE;
          in_section = 0;
          if (g_cancellable_set_error_if_cancelled (writer->cancellable, error))
            return FALSE;
        }
    }
  return in_section == 0 || write_section (writer, PS_NATIVE_MEASURES, in_section, error);
}

typedef void (*PutEvent) (GByteArray *out, PsEventStore *store, guint64 index);

static void
put_span (GByteArray   *out,
          PsEventStore *store,
          guint64       index)
{
  const PsSpan *span = ps_event_store_get_span (store, index);

  put_u64 (out, (guint64)span->begin_ns);
  put_u64 (out, (guint64)span->end_ns);
  put_u32 (out, span->track);
  put_u32 (out, span->name);
  put_u32 (out, span->parent);
  put_u16 (out, span->depth);
  put_u16 (out, span->flags);
}

static void
put_mark (GByteArray   *out,
          PsEventStore *store,
          guint64       index)
{
  const PsMark *mark = ps_event_store_get_mark (store, index);

  put_u64 (out, (guint64)mark->time_ns);
  put_u64 (out, mark->line);
  put_u32 (out, mark->track);
  put_u32 (out, mark->text);
  put_u32 (out, mark->name);
  put_u32 (out, mark->span);
  put_u32 (out, mark->position);
  put_u16 (out, mark->flags);
  put_u16 (out, mark->reserved);
}

static void
put_sample (GByteArray   *out,
            PsEventStore *store,
            guint64       index)
{
  const PsSample *sample = ps_event_store_get_sample (store, index);

  put_u64 (out, (guint64)sample->time_ns);
  put_u32 (out, sample->track);
  put_u32 (out, sample->stack);
  put_u32 (out, sample->weight);
  put_u16 (out, sample->flags);
  put_u16 (out, sample->source);
}

static void
put_counter_value (GByteArray   *out,
                   PsEventStore *store,
                   guint64       index)
{
  static const PsCounterRaw none = { 0 };
  const PsCounterValue *value = ps_event_store_get_counter_value (store, index);
  const PsCounterRaw *raw = ps_event_store_get_counter_raw (store, index);

  if (raw == NULL)
    raw = &none;
  put_u64 (out, (guint64)value->time_ns);
  put_u32 (out, value->track);
  put_u16 (out, value->flags);
  put_u16 (out, value->status);
  put_f64 (out, value->value);
  put_u64 (out, (guint64)raw->raw);
  put_u64 (out, (guint64)raw->base);
}

/* Fixed-size records: the first index, then the records */
static gboolean
write_events (Writer        *writer,
              PsEventStore  *store,
              guint32        type,
              guint64        n,
              PutEvent       put,
              GError       **error)
{
  for (guint64 first = 0; first < n; first += EVENTS_PER_SECTION)
    {
      guint64 count = MIN (n - first, EVENTS_PER_SECTION);

      put_u64 (writer->payload, first);
      for (guint64 i = first; i < first + count; i++)
        put (writer->payload, store, i);
      if (!write_section (writer, type, count, error))
        return FALSE;
      if (g_cancellable_set_error_if_cancelled (writer->cancellable, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_span_contexts (Writer        *writer,
                     PsEventStore  *store,
                     GError       **error)
{
  guint n = _ps_event_store_get_n_span_contexts (store);

  for (guint i = 0; i < n; i++)
    {
      guint64 span;
      guint32 context;

      _ps_event_store_get_span_context_entry (store, i, &span, &context);
      put_u64 (writer->payload, span);
      put_u32 (writer->payload, context);
    }
  return write_section (writer, PS_NATIVE_CONTEXTS, n, error);
}

static gboolean
write_totals (Writer        *writer,
              PsEventStore  *store,
              GError       **error)
{
  const GError *run_error = ps_event_store_get_error (store);

  put_u64 (writer->payload, ps_event_store_get_n_counter_readings (store));
  put_u32 (writer->payload, ps_event_store_get_counter_stride (store));
  put_u64 (writer->payload, ps_event_store_get_n_warnings_raised (store));
  put_u8 (writer->payload, run_error != NULL ? 1 : 0);
  if (run_error != NULL)
    {
      put_string (writer->payload, g_quark_to_string (run_error->domain));
      put_u32 (writer->payload, (guint32)run_error->code);
      put_string (writer->payload, run_error->message);
    }
  return write_section (writer, PS_NATIVE_TOTALS, 0, error);
}

gboolean
ps_native_write_stream (PsEventStore   *store,
                        GOutputStream  *stream,
                        GCancellable   *cancellable,
                        GError        **error)
{
  g_autoptr(GByteArray) payload = g_byte_array_sized_new (1 << 20);
  Writer writer = { stream, cancellable, payload, 0 };

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  return write_header (&writer, error)
         && write_run (&writer, store, error)
         && write_strings (&writer, store, error)
         && write_sessions (&writer, store, error)
         && write_tracks (&writer, store, error)
         && write_stacks (&writer, store, error)
         && write_report (&writer, store, error)
         && write_warnings (&writer, store, error)
         && write_series_records (&writer, store, PS_NATIVE_SERIES, put_series, error)
         && write_series_records (&writer, store, PS_NATIVE_OVERVIEWS, put_overview, error)
         && write_measurements (&writer, store, error)
         && write_events (&writer, store, PS_NATIVE_SPANS, ps_event_store_get_n_spans (store), put_span, error)
         && write_span_contexts (&writer, store, error)
         && write_events (&writer, store, PS_NATIVE_MARKS, ps_event_store_get_n_marks (store), put_mark, error)
         && write_events (&writer, store, PS_NATIVE_SAMPLES, ps_event_store_get_n_samples (store), put_sample, error)
         && write_events (&writer, store, PS_NATIVE_COUNTERS, ps_event_store_get_n_counter_values (store),
                          put_counter_value, error)
         && write_totals (&writer, store, error)
         && write_section (&writer, PS_NATIVE_END, 0, error);
}

gboolean
ps_native_save (PsEventStore  *store,
                GFile         *file,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(PsFileOutput) output = NULL;
  g_autoptr(GOutputStream) buffered = NULL;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  output = ps_file_output_open (file, cancellable, error);
  if (output == NULL)
    return FALSE;
  buffered = g_buffered_output_stream_new_sized (ps_file_output_get_stream (output), 1 << 20);
  g_filter_output_stream_set_close_base_stream (G_FILTER_OUTPUT_STREAM (buffered), FALSE);

  if (!ps_native_write_stream (store, buffered, cancellable, error)
      || !g_output_stream_flush (buffered, cancellable, error)
      || !ps_file_output_commit (output, cancellable, error))
    {
      ps_file_output_note_kept (output, error);
      return FALSE;
    }
  return TRUE;
}

/* A name any file system and shell takes: letters, digits and "._-" of
 * the title ("procfs — make -j2" gives "procfs-make-j2") */
static char *
file_name_stem (const char *title)
{
  g_autoptr(GString) stem = g_string_new (NULL);

  for (const char *p = title != NULL ? title : ""; *p != '\0' && stem->len < 64; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar)-1 || c == (gunichar)-2)
        break;
      if (g_unichar_isalnum (c) || c == '.' || c == '_' || c == '-')
        g_string_append_unichar (stem, c);
      else if (stem->len > 0 && stem->str[stem->len - 1] != '-')
        g_string_append_c (stem, '-');
    }
  while (stem->len > 0 && (stem->str[stem->len - 1] == '-' || stem->str[stem->len - 1] == '.'))
    g_string_truncate (stem, stem->len - 1);
  if (stem->len == 0 || stem->str[0] == '.')
    g_string_prepend (stem, "recording");
  return g_string_free (g_steal_pointer (&stem), FALSE);
}

char *
ps_native_unsaved_folder (void)
{
  return g_build_filename (g_get_user_cache_dir (), "perfscope", "unsaved", NULL);
}

GFile *
ps_native_save_unsaved (PsEventStore  *store,
                        const char    *stem,
                        GError       **error)
{
  g_autofree char *folder = ps_native_unsaved_folder ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *time = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *safe_stem = file_name_stem (stem);

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;
      g_autofree char *name = g_filename_display_name (folder);

      /* Translators: the first %s is a folder, the second why it could not be made */
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), _("Cannot make the folder “%s”: %s"),
                   name, g_strerror (saved_errno));
      return NULL;
    }

  /* A new name: nothing the user kept there before is replaced */
  for (guint attempt = 1; attempt < 1000; attempt++)
    {
      g_autofree char *base = attempt == 1 ? g_strdup_printf ("%s-%s.perfscope", safe_stem, time)
                                           : g_strdup_printf ("%s-%s-%u.perfscope", safe_stem, time, attempt);
      g_autoptr(GFile) file = g_file_new_build_filename (folder, base, NULL);

      if (g_file_query_exists (file, NULL))
        continue;
      if (!ps_native_save (store, file, NULL, error))
        return NULL;
      return g_steal_pointer (&file);
    }
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, g_strerror (EEXIST));
  return NULL;
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  PsEventStore *store = task_data;
  GFile *file = g_object_get_data (G_OBJECT (task), "ps-native-file");
  GError *error = NULL;

  if (ps_native_save (store, file, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
ps_native_save_async (PsEventStore        *store,
                      GFile               *file,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PS_IS_EVENT_STORE (store));
  g_return_if_fail (G_IS_FILE (file));

  /* Reading an overview moves the bucket being filled into the array;
   * done here, in the caller's thread, a view that reads one while the
   * worker saves changes nothing */
  for (guint track = 0; track < ps_event_store_get_n_tracks (store); track++)
    {
      PsCounterOverview overview;

      ps_event_store_get_counter_overview (store, track, &overview);
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ps_native_save_async);
  g_task_set_task_data (task, g_object_ref (store), g_object_unref);
  g_object_set_data_full (G_OBJECT (task), "ps-native-file", g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, save_thread);
}

gboolean
ps_native_save_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ps-format-native.c — Perfscope's own format for saved runs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: docs/formats/native-format.md
 *
 * Written by ps-native-writer.c. The parser gathers one section at a time
 * (a chunk that holds a whole section is read in place, without a copy),
 * checks both its checksums, and restores it into the store in bulk. A
 * damaged or missing section stops reading with the byte offset where it
 * begins; the sections before it stay.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-event-store-private.h"
#include "ps-format.h"
#include "ps-native-writer.h"
#include "ps-util.h"

/* Events decoded at a time before they go to the store */
#define BATCH 4096

/* Fuzzing builds (tests/fuzz) take any checksum, so that mutated input
 * reaches the decoding behind it */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define CRC_MATCHES(computed, stored) ((void) (computed), (void) (stored), TRUE)
#else
#define CRC_MATCHES(computed, stored) ((computed) == (stored))
#endif

typedef enum
{
  STATE_FILE_HEADER,
  STATE_SECTION_HEADER,
  STATE_PAYLOAD,
  STATE_DONE,
} State;

typedef struct
{
  PsParser      parent;
  PsEventStore *store;

  State         state;
  GByteArray   *pending;        /* bytes of the unit being gathered */
  guint64       offset;         /* byte offset of the unit being gathered */
  guint64       need;           /* its size */
  guint         n_sections;     /* complete sections restored */

  /* The section whose payload is being gathered */
  guint32       type;
  guint64       count;
  guint32       payload_crc;

  gboolean      totals_seen;
} NativeParser;

/* A bounded reader over a payload: reading past its end sets failed */
typedef struct
{
  const guint8 *at;
  const guint8 *end;
  gboolean      failed;
} Cursor;

static inline gboolean
cursor_need (Cursor *cursor,
             gsize   n)
{
  if (cursor->failed || (gsize)(cursor->end - cursor->at) < n)
    {
      cursor->failed = TRUE;
      cursor->at = cursor->end;
      return FALSE;
    }
  return TRUE;
}

/* `count` records of `size` bytes each, without overflowing the product */
static inline gboolean
cursor_need_records (Cursor  *cursor,
                     guint64  count,
                     gsize    size)
{
  if (count > (guint64)(cursor->end - cursor->at) / size)
    return cursor_need (cursor, G_MAXSIZE);
  return cursor_need (cursor, count * size);
}

static inline guint8
get_u8 (Cursor *cursor)
{
  if (!cursor_need (cursor, 1))
    return 0;
  return *cursor->at++;
}

static inline guint16
get_u16 (Cursor *cursor)
{
  guint16 value;

  if (!cursor_need (cursor, 2))
    return 0;
  value = ps_util_load_le16 (cursor->at);
  cursor->at += 2;
  return value;
}

static inline guint32
get_u32 (Cursor *cursor)
{
  guint32 value;

  if (!cursor_need (cursor, 4))
    return 0;
  value = ps_util_load_le32 (cursor->at);
  cursor->at += 4;
  return value;
}

static inline guint64
get_u64 (Cursor *cursor)
{
  guint64 value;

  if (!cursor_need (cursor, 8))
    return 0;
  value = ps_util_load_le64 (cursor->at);
  cursor->at += 8;
  return value;
}

static inline double
get_f64 (Cursor *cursor)
{
  guint64 bits = get_u64 (cursor);
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

static inline float
get_f32 (Cursor *cursor)
{
  guint32 bits = get_u32 (cursor);
  float value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

static inline guint64
get_varint (Cursor *cursor)
{
  guint64 value = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (cursor->at >= cursor->end)
        {
          cursor->failed = TRUE;
          return 0;
        }
      byte = *cursor->at++;
      value |= (guint64)(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        return value;
    }
  cursor->failed = TRUE;
  return 0;
}

static inline gint64
get_svarint (Cursor *cursor)
{
  guint64 value = get_varint (cursor);

  return (gint64)(value >> 1) ^ -(gint64)(value & 1);
}

/* The longest measurement record: kind, then three varints */
#define MAX_MEASUREMENT_SIZE (1 + 3 * 10)

/* A varint where at least ten bytes remain: no bounds to check */
static inline guint64
get_varint_unchecked (Cursor *cursor)
{
  const guint8 *at = cursor->at;
  guint64 value = *at & 0x7f;

  if G_LIKELY ((*at++ & 0x80) == 0)
    {
      cursor->at = at;
      return value;
    }
  for (guint shift = 7; shift < 70; shift += 7)
    {
      guint8 byte = *at++;

      value |= (guint64)(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          cursor->at = at;
          return value;
        }
    }
  cursor->at = at;
  cursor->failed = TRUE;
  return 0;
}

static inline gint64
get_svarint_unchecked (Cursor *cursor)
{
  guint64 value = get_varint_unchecked (cursor);

  return (gint64)(value >> 1) ^ -(gint64)(value & 1);
}

/* A string's bytes in the payload, not NUL-terminated */
static const char *
get_string (Cursor *cursor,
            gsize  *length)
{
  const char *text;

  *length = get_varint (cursor);
  if (!cursor_need (cursor, *length))
    {
      *length = 0;
      return "";
    }
  text = (const char *)cursor->at;
  cursor->at += *length;
  return text;
}

static char *
dup_string (Cursor *cursor)
{
  gsize length;
  const char *text = get_string (cursor, &length);

  return g_strndup (text, length);
}

static char *
section_name (guint32 type)
{
  char name[5];

  for (guint i = 0; i < 4; i++)
    {
      char c = (char)(type >> (8 * i));
      name[i] = g_ascii_isprint (c) ? c : '?';
    }
  name[4] = '\0';
  return g_strdup (g_strchomp (name));
}

static gboolean
malformed (NativeParser  *self,
           const char    *what,
           GError       **error)
{
  g_autofree char *name = section_name (self->type);

  g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
               /* Translators: %s: a section's name (e.g. SPAN); %llu: a byte offset; the last %s says what is wrong */
               _("The %s section at byte offset %llu is malformed (%s); the %u sections before it are kept"),
               name, (unsigned long long)self->offset, what, self->n_sections);
  return FALSE;
}

static inline gboolean
valid_string (NativeParser *self,
              guint32       id)
{
  return id < _ps_event_store_get_n_strings (self->store);
}

static gboolean
read_run (NativeParser  *self,
          Cursor        *cursor,
          GError       **error)
{
  g_autofree char *format = dup_string (cursor);
  guint64 max_counter_values = get_u64 (cursor);

  if (cursor->failed)
    return malformed (self, _("too short"), error);
  if (format[0] != '\0' && g_utf8_validate (format, -1, NULL))
    ps_event_store_set_format (self->store, format);
  ps_event_store_set_max_counter_values (self->store, max_counter_values);
  return TRUE;
}

static gboolean
read_strings (NativeParser  *self,
              Cursor        *cursor,
              GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      guint8 flags = get_u8 (cursor);
      guint expected = _ps_event_store_get_n_strings (self->store);
      gsize length;
      const char *text = get_string (cursor, &length);
      guint32 id;

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (length == 0)
        return malformed (self, _("an empty string"), error);
      if (flags & 1)
        id = ps_event_store_intern (self->store, text, length);
      else
        id = ps_event_store_add_text (self->store, text, length);
      if (id != expected)
        return malformed (self, _("a string given twice"), error);
    }
  return TRUE;
}

static gboolean
read_sessions (NativeParser  *self,
               Cursor        *cursor,
               GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      PsSessionInfo info = { 0 };
      guint64 n_entries;
      guint32 session;

      info.first_line = get_u64 (cursor);
      info.last_line = get_u64 (cursor);
      info.first_measurement = get_u64 (cursor);
      info.origin_unix_ns = (gint64)get_u64 (cursor);
      info.implicit = get_u8 (cursor) != 0;
      n_entries = get_varint (cursor);
      if (cursor->failed)
        return malformed (self, _("too short"), error);
      session = _ps_event_store_restore_session (self->store, &info);
      for (guint64 e = 0; e < n_entries; e++)
        {
          g_autofree char *key = dup_string (cursor);
          g_autofree char *value = dup_string (cursor);

          if (cursor->failed)
            return malformed (self, _("too short"), error);
          ps_event_store_set_metadata (self->store, session, key, value);
        }
    }
  return TRUE;
}

static gboolean
read_ticks (NativeParser  *self,
            Cursor        *cursor,
            GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      guint32 session = get_u32 (cursor);
      guint64 from_index = get_u64 (cursor);
      double rate = get_f64 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (!(rate > 0))
        return malformed (self, _("a tick rate that is not positive"), error);
      if (session >= ps_event_store_get_n_sessions (self->store))
        return malformed (self, _("a tick rate of a session that does not exist"), error);
      ps_event_store_add_tick_rate (self->store, session, from_index, rate);
    }
  return TRUE;
}

static gboolean
read_tracks (NativeParser  *self,
             Cursor        *cursor,
             GError       **error)
{
  guint first = ps_event_store_get_n_tracks (self->store);

  for (guint64 i = 0; i < self->count; i++)
    {
      PsTrack track = { 0 };

      track.name = get_u32 (cursor);
      track.category = get_u32 (cursor);
      track.parent = get_u32 (cursor);
      track.session = get_u32 (cursor);
      track.number = (gint64)get_u64 (cursor);
      track.ordinal = get_u32 (cursor);
      track.unit = get_u32 (cursor);
      track.line = get_u64 (cursor);
      track.kind = get_u16 (cursor);
      track.flags = get_u16 (cursor);
      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (!valid_string (self, track.name) || !valid_string (self, track.category) || !valid_string (self, track.unit))
        return malformed (self, _("a string that does not exist"), error);
      if (track.parent != PS_NONE && track.parent >= first + self->count)
        return malformed (self, _("a parent track that does not exist"), error);
      if (track.kind > PS_TRACK_INSTANCE)
        return malformed (self, _("a track of an unknown kind"), error);
      ps_event_store_add_track (self->store, &track);
    }
  return TRUE;
}

static gboolean
read_others (NativeParser  *self,
             Cursor        *cursor,
             GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      guint32 kind_name = get_u32 (cursor);
      guint32 raw_value = get_u32 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (!valid_string (self, kind_name) || !valid_string (self, raw_value))
        return malformed (self, _("a string that does not exist"), error);
      _ps_event_store_add_other (self->store, kind_name, raw_value);
    }
  return TRUE;
}

static gboolean
read_frames (NativeParser  *self,
             Cursor        *cursor,
             GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      guint expected = ps_event_store_get_n_frames (self->store);
      guint64 address = get_u64 (cursor);
      guint32 function = get_u32 (cursor);
      guint32 module = get_u32 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (!valid_string (self, function) || !valid_string (self, module))
        return malformed (self, _("a string that does not exist"), error);
      if (ps_event_store_intern_frame (self->store, function, module, address) != expected)
        return malformed (self, _("a frame given twice"), error);
    }
  return TRUE;
}

static gboolean
read_stacks (NativeParser  *self,
             Cursor        *cursor,
             GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      guint expected = ps_event_store_get_n_stack_nodes (self->store);
      guint32 parent = get_u32 (cursor);
      guint32 frame = get_u32 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (parent >= expected || (frame != PS_NONE && frame >= ps_event_store_get_n_frames (self->store)))
        return malformed (self, _("a stack node that refers to one not yet given"), error);
      if (ps_event_store_intern_stack (self->store, parent, frame) != expected)
        return malformed (self, _("a stack node given twice"), error);
    }
  return TRUE;
}

static gboolean
read_sources (NativeParser  *self,
              Cursor        *cursor,
              GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      guint32 name = get_u32 (cursor);
      guint32 unit = get_u32 (cursor);
      guint64 rate = get_u64 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (!valid_string (self, name) || !valid_string (self, unit))
        return malformed (self, _("a string that does not exist"), error);
      if (ps_event_store_get_n_sample_sources (self->store) > G_MAXUINT16)
        return malformed (self, _("too many sample sources"), error);
      _ps_event_store_restore_sample_source (self->store, name, unit, rate);
    }
  return TRUE;
}

static gboolean
read_report (NativeParser  *self,
             Cursor        *cursor,
             GError       **error)
{
  guint n_tracks = ps_event_store_get_n_tracks (self->store);
  guint n_frames = ps_event_store_get_n_frames (self->store);

  for (guint64 i = 0; i < self->count; i++)
    {
      PsReportRow row = { 0 };

      row.line = get_u64 (cursor);
      row.frame = get_u32 (cursor);
      row.parent = get_u32 (cursor);
      row.track = get_u32 (cursor);
      row.kind = get_u16 (cursor);
      row.level = get_u16 (cursor);
      row.calls = get_u64 (cursor);
      row.has_calls = get_u8 (cursor) != 0;
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        row.total[v] = get_f64 (cursor);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        row.min[v] = get_f64 (cursor);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        row.avg[v] = get_f64 (cursor);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        row.max[v] = get_f64 (cursor);
      for (guint v = 0; v < PS_N_REPORT_VALUES; v++)
        row.percent[v] = get_f64 (cursor);
      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if ((row.frame != PS_NONE && row.frame >= n_frames)
          || (row.track != PS_NONE && row.track >= n_tracks)
          || (row.parent != PS_NONE && row.parent >= ps_event_store_get_n_report_rows (self->store))
          || row.kind > PS_REPORT_ROW_CALLEE)
        return malformed (self, _("a row that refers to something that does not exist"), error);
      ps_event_store_add_report_row (self->store, &row);
    }
  return TRUE;
}

static gboolean
read_warnings (NativeParser  *self,
               Cursor        *cursor,
               GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      g_autofree char *code = dup_string (cursor);
      g_autofree char *message = dup_string (cursor);
      guint64 line = get_u64 (cursor);
      guint64 offset = get_u64 (cursor);
      guint32 session = get_u32 (cursor);
      guint8 severity = get_u8 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (severity > PS_SEVERITY_ERROR)
        return malformed (self, _("an unknown severity"), error);
      ps_event_store_add_warning (self->store, severity, code, line, offset, session, message);
    }
  return TRUE;
}

static void
get_bucket (Cursor          *cursor,
            PsCounterBucket *bucket)
{
  bucket->min = get_f32 (cursor);
  bucket->max = get_f32 (cursor);
  bucket->mean = get_f32 (cursor);
  bucket->count = get_u32 (cursor);
}

/* Buckets by increasing index, each with readings, the bucket being
 * filled after them when it says so (ps-counter-series.h) */
static gboolean
overview_is_sound (const PsCounterSeries *series,
                   const PsCounterBucket *buckets,
                   guint                  n_buckets)
{
  for (guint b = 0; b < n_buckets; b++)
    if (buckets[b].count == 0 || buckets[b].index >= PS_COUNTER_OVERVIEW_BUCKETS
        || (b > 0 && buckets[b].index <= buckets[b - 1].index))
      return FALSE;
  return !(series->current_count > 0 && series->current_fresh && n_buckets > 0
           && buckets[n_buckets - 1].index >= series->current_index);
}

static gboolean
read_series (NativeParser  *self,
             Cursor        *cursor,
             GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      PsCounterSeries series;
      PsCounterBucket current;
      guint32 current_index;
      guint32 track = get_u32 (cursor);
      gboolean has_buckets;
      guint32 n_buckets;

      ps_counter_series_init (&series);
      series.n_readings = get_u64 (cursor);
      series.stats.n_values = get_u64 (cursor);
      series.stats.n_missing = get_u64 (cursor);
      series.stats.min = get_f64 (cursor);
      series.stats.max = get_f64 (cursor);
      series.stats.sum = get_f64 (cursor);
      series.stats.first = get_f64 (cursor);
      series.stats.last = get_f64 (cursor);
      series.stats.first_ns = (gint64)get_u64 (cursor);
      series.stats.last_ns = (gint64)get_u64 (cursor);
      series.begin_ns = (gint64)get_u64 (cursor);
      series.shift = get_u32 (cursor);
      series.n_used = get_u32 (cursor);
      get_bucket (cursor, &current);
      ps_counter_series_set_current (&series, &current);
      current_index = get_u32 (cursor);
      series.current_index = (guint16)MIN (current_index, G_MAXUINT16);
      series.current_fresh = get_u8 (cursor) != 0;
      has_buckets = get_u8 (cursor) != 0;
      n_buckets = get_u32 (cursor);
      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (track >= ps_event_store_get_n_tracks (self->store))
        return malformed (self, _("a track that does not exist"), error);
      if (series.shift > 62 || series.n_used > PS_COUNTER_OVERVIEW_BUCKETS
          || current_index >= PS_COUNTER_OVERVIEW_BUCKETS
          || n_buckets > series.n_used || (!has_buckets && n_buckets > 0))
        return malformed (self, _("an overview out of bounds"), error);
      /* Files written before COVW hold the overview here: every bucket up
       * to the last one used, empty ones too, of which those with
       * readings are kept */
      if (has_buckets)
        {
          ps_counter_series_reserve (&series, 1);
          series.n_used = 0;
          for (guint b = 0; b < n_buckets; b++)
            {
              PsCounterBucket bucket;

              get_bucket (cursor, &bucket);
              if (bucket.count == 0)
                continue;
              bucket.index = b;
              ps_counter_series_reserve (&series, series.n_used + 1);
              series.buckets[series.n_used++] = bucket;
            }
          if (cursor->failed || !overview_is_sound (&series, series.buckets, series.n_used))
            {
              ps_counter_series_clear (&series);
              if (cursor->failed)
                return malformed (self, _("too short"), error);
              return malformed (self, _("an overview out of bounds"), error);
            }
        }
      _ps_event_store_restore_counter_series (self->store, track, &series);
      ps_counter_series_clear (&series);
    }
  return TRUE;
}

/* The buckets of the overviews whose statistics CSER gave */
static gboolean
read_overviews (NativeParser  *self,
                Cursor        *cursor,
                GError       **error)
{
  for (guint64 i = 0; i < self->count; i++)
    {
      g_autofree PsCounterBucket *buckets = NULL;
      const PsCounterSeries *restored;
      PsCounterSeries *series;
      guint32 track = get_u32 (cursor);
      guint32 n_buckets = get_u32 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      restored = _ps_event_store_get_counter_series (self->store, track);
      if (restored == NULL || restored->n_readings == 0 || restored->buckets != NULL
          || n_buckets != restored->n_used)
        return malformed (self, _("an overview out of bounds"), error);
      /* 18 bytes each, there before they are read; CSER allowed at most
       * PS_COUNTER_OVERVIEW_BUCKETS */
      if (!cursor_need_records (cursor, n_buckets, 18))
        return malformed (self, _("too short"), error);

      buckets = g_new (PsCounterBucket, MAX (n_buckets, 1));
      for (guint b = 0; b < n_buckets; b++)
        {
          buckets[b].index = get_u16 (cursor);
          get_bucket (cursor, &buckets[b]);
        }
      if (!overview_is_sound (restored, buckets, n_buckets))
        return malformed (self, _("an overview out of bounds"), error);

      series = _ps_event_store_edit_counter_series (self->store, track + 1) + track;
      ps_counter_series_reserve (series, MAX (n_buckets, 1));
      memcpy (series->buckets, buckets, n_buckets * sizeof (PsCounterBucket));
    }
  return TRUE;
}

/* The first index of an event section must follow the events before it */
static gboolean
check_first (NativeParser  *self,
             Cursor        *cursor,
             guint64        have,
             GError       **error)
{
  guint64 first = get_u64 (cursor);

  if (cursor->failed)
    return malformed (self, _("too short"), error);
  if (first != have)
    return malformed (self, _("events out of order"), error);
  return TRUE;
}

static gboolean
read_measurements (NativeParser  *self,
                   Cursor        *cursor,
                   GError       **error)
{
  PsMeasurement batch[256];
  guint n_tracks = ps_event_store_get_n_tracks (self->store);
  guint n_others = _ps_event_store_get_n_others (self->store);
  guint64 line = 0;
  guint in_batch = 0;

  if (!check_first (self, cursor, ps_event_store_get_n_measurements (self->store), error))
    return FALSE;

  for (guint64 i = 0; i < self->count; i++)
    {
      PsMeasurement *m = &batch[in_batch];
      guint8 meta = get_u8 (cursor);

      m->index = 0;
      m->kind = meta & 0x03;
      m->flags = meta >> 2;
      /* Most records are far from the end: read them without bounds checks */
      if G_LIKELY (cursor->end - cursor->at >= MAX_MEASUREMENT_SIZE)
        {
          m->track = (guint32)get_varint_unchecked (cursor);
          line += (guint64)get_svarint_unchecked (cursor);
          if G_LIKELY (m->kind == PS_MEASURE_DURATION)
            {
              m->line = line;
              m->value.ticks = get_svarint_unchecked (cursor);
              goto decoded;
            }
        }
      else
        {
          m->track = (guint32)get_varint (cursor);
          line += (guint64)get_svarint (cursor);
        }
      m->line = line;
      switch ((PsMeasureKind)m->kind)
        {
        case PS_MEASURE_DURATION:
          m->value.ticks = get_svarint (cursor);
          break;
        case PS_MEASURE_MEMORY:
          if ((m->flags & PS_MEASURE_FLAG_FRACTIONAL) == 0)
            {
              m->value.bytes = get_varint (cursor);
              break;
            }
          G_GNUC_FALLTHROUGH;
        case PS_MEASURE_CPU:
          m->value.number = get_f64 (cursor);
          break;
        case PS_MEASURE_OTHER:
        default:
          {
            guint64 other = get_varint (cursor);

            if (other >= n_others)
              {
                _ps_event_store_append_measurements (self->store, batch, in_batch);
                return malformed (self, _("an event of an unknown kind"), error);
              }
            m->value.other = (guint32)other;
          }
          break;
        }
    decoded:
      if (cursor->failed || m->track >= n_tracks || (meta >> 5) != 0)
        {
          _ps_event_store_append_measurements (self->store, batch, in_batch);
          return malformed (self, cursor->failed ? _("too short") : _("a measurement out of bounds"), error);
        }
      if (++in_batch == G_N_ELEMENTS (batch))
        {
          _ps_event_store_append_measurements (self->store, batch, in_batch);
          in_batch = 0;
        }
    }
  _ps_event_store_append_measurements (self->store, batch, in_batch);
  return TRUE;
}

static gboolean
read_spans (NativeParser  *self,
            Cursor        *cursor,
            GError       **error)
{
  g_autofree PsSpan *batch = g_new (PsSpan, BATCH);
  guint n_tracks = ps_event_store_get_n_tracks (self->store);
  guint n_strings = _ps_event_store_get_n_strings (self->store);
  guint64 index = ps_event_store_get_n_spans (self->store);
  guint in_batch = 0;

  if (!check_first (self, cursor, index, error))
    return FALSE;
  if (!cursor_need_records (cursor, self->count, 32))
    return malformed (self, _("too short"), error);

  for (guint64 i = 0; i < self->count; i++, index++)
    {
      PsSpan *span = &batch[in_batch];
      const guint8 *p = cursor->at;

      span->begin_ns = (gint64)ps_util_load_le64 (p);
      span->end_ns = (gint64)ps_util_load_le64 (p + 8);
      span->track = ps_util_load_le32 (p + 16);
      span->name = ps_util_load_le32 (p + 20);
      span->parent = ps_util_load_le32 (p + 24);
      span->depth = ps_util_load_le16 (p + 28);
      span->flags = ps_util_load_le16 (p + 30);
      cursor->at += 32;
      if (span->track >= n_tracks || span->name >= n_strings || (span->parent != PS_NONE && span->parent >= index))
        {
          _ps_event_store_append_spans (self->store, batch, in_batch);
          return malformed (self, _("a span out of bounds"), error);
        }
      if (++in_batch == BATCH)
        {
          _ps_event_store_append_spans (self->store, batch, in_batch);
          in_batch = 0;
        }
    }
  _ps_event_store_append_spans (self->store, batch, in_batch);
  return TRUE;
}

static gboolean
read_contexts (NativeParser  *self,
               Cursor        *cursor,
               GError       **error)
{
  guint64 n_spans = ps_event_store_get_n_spans (self->store);
  guint have = _ps_event_store_get_n_span_contexts (self->store);
  guint64 last = 0;

  if (have > 0)
    {
      guint32 context;

      _ps_event_store_get_span_context_entry (self->store, have - 1, &last, &context);
    }

  for (guint64 i = 0; i < self->count; i++)
    {
      guint64 span = get_u64 (cursor);
      guint32 context = get_u32 (cursor);

      if (cursor->failed)
        return malformed (self, _("too short"), error);
      if (span >= n_spans || !valid_string (self, context) || ((have > 0 || i > 0) && span <= last))
        return malformed (self, _("a span context out of bounds"), error);
      _ps_event_store_set_span_context (self->store, span, context);
      last = span;
    }
  return TRUE;
}

static gboolean
read_marks (NativeParser  *self,
            Cursor        *cursor,
            GError       **error)
{
  g_autofree PsMark *batch = g_new (PsMark, BATCH);
  guint n_tracks = ps_event_store_get_n_tracks (self->store);
  guint n_strings = _ps_event_store_get_n_strings (self->store);
  guint64 n_spans = ps_event_store_get_n_spans (self->store);
  guint in_batch = 0;

  if (!check_first (self, cursor, ps_event_store_get_n_marks (self->store), error))
    return FALSE;
  if (!cursor_need_records (cursor, self->count, 40))
    return malformed (self, _("too short"), error);

  for (guint64 i = 0; i < self->count; i++)
    {
      PsMark *mark = &batch[in_batch];
      const guint8 *p = cursor->at;

      mark->time_ns = (gint64)ps_util_load_le64 (p);
      mark->line = ps_util_load_le64 (p + 8);
      mark->track = ps_util_load_le32 (p + 16);
      mark->text = ps_util_load_le32 (p + 20);
      mark->name = ps_util_load_le32 (p + 24);
      mark->span = ps_util_load_le32 (p + 28);
      mark->position = ps_util_load_le32 (p + 32);
      mark->flags = ps_util_load_le16 (p + 36);
      mark->reserved = ps_util_load_le16 (p + 38);
      cursor->at += 40;
      if ((mark->track != PS_NONE && mark->track >= n_tracks) || mark->text >= n_strings || mark->name >= n_strings
          || (mark->span != PS_NONE && mark->span >= n_spans))
        {
          _ps_event_store_append_marks (self->store, batch, in_batch);
          return malformed (self, _("a mark out of bounds"), error);
        }
      if (++in_batch == BATCH)
        {
          _ps_event_store_append_marks (self->store, batch, in_batch);
          in_batch = 0;
        }
    }
  _ps_event_store_append_marks (self->store, batch, in_batch);
  return TRUE;
}

static gboolean
read_samples (NativeParser  *self,
              Cursor        *cursor,
              GError       **error)
{
  g_autofree PsSample *batch = g_new (PsSample, BATCH);
  guint n_tracks = ps_event_store_get_n_tracks (self->store);
  guint n_stacks = ps_event_store_get_n_stack_nodes (self->store);
  guint n_sources = ps_event_store_get_n_sample_sources (self->store);
  guint in_batch = 0;

  if (!check_first (self, cursor, ps_event_store_get_n_samples (self->store), error))
    return FALSE;
  if (!cursor_need_records (cursor, self->count, 24))
    return malformed (self, _("too short"), error);

  for (guint64 i = 0; i < self->count; i++)
    {
      PsSample *sample = &batch[in_batch];
      const guint8 *p = cursor->at;

      sample->time_ns = (gint64)ps_util_load_le64 (p);
      sample->track = ps_util_load_le32 (p + 8);
      sample->stack = ps_util_load_le32 (p + 12);
      sample->weight = ps_util_load_le32 (p + 16);
      sample->flags = ps_util_load_le16 (p + 20);
      sample->source = ps_util_load_le16 (p + 22);
      cursor->at += 24;
      /* Without sources every sample says 0 */
      if ((sample->track != PS_NONE && sample->track >= n_tracks) || sample->stack >= n_stacks
          || (sample->source >= n_sources && sample->source != 0))
        {
          _ps_event_store_append_samples (self->store, batch, in_batch);
          return malformed (self, _("a sample out of bounds"), error);
        }
      if (++in_batch == BATCH)
        {
          _ps_event_store_append_samples (self->store, batch, in_batch);
          in_batch = 0;
        }
    }
  _ps_event_store_append_samples (self->store, batch, in_batch);
  return TRUE;
}

static gboolean
read_counter_values (NativeParser  *self,
                     Cursor        *cursor,
                     GError       **error)
{
  g_autofree PsCounterValue *batch = g_new (PsCounterValue, BATCH);
  g_autofree PsCounterRaw *raws = g_new (PsCounterRaw, BATCH);
  guint n_tracks = ps_event_store_get_n_tracks (self->store);
  gboolean has_raws = FALSE;  /* a reading of the batch has any */
  guint in_batch = 0;

  if (!check_first (self, cursor, ps_event_store_get_n_counter_values (self->store), error))
    return FALSE;
  if (!cursor_need_records (cursor, self->count, 40))
    return malformed (self, _("too short"), error);

  for (guint64 i = 0; i < self->count; i++)
    {
      PsCounterValue *value = &batch[in_batch];
      const guint8 *p = cursor->at;
      guint64 bits;

      value->time_ns = (gint64)ps_util_load_le64 (p);
      value->track = ps_util_load_le32 (p + 8);
      value->flags = ps_util_load_le16 (p + 12);
      value->status = ps_util_load_le16 (p + 14);
      bits = ps_util_load_le64 (p + 16);
      memcpy (&value->value, &bits, sizeof bits);
      raws[in_batch].raw = (gint64)ps_util_load_le64 (p + 24);
      raws[in_batch].base = (gint64)ps_util_load_le64 (p + 32);
      has_raws |= (value->flags & PS_COUNTER_FLAG_RAW) != 0;
      cursor->at += 40;
      if (value->track >= n_tracks)
        {
          _ps_event_store_restore_counter_values (self->store, batch, has_raws ? raws : NULL, in_batch);
          return malformed (self, _("a reading out of bounds"), error);
        }
      if (++in_batch == BATCH)
        {
          _ps_event_store_restore_counter_values (self->store, batch, has_raws ? raws : NULL, in_batch);
          has_raws = FALSE;
          in_batch = 0;
        }
    }
  _ps_event_store_restore_counter_values (self->store, batch, has_raws ? raws : NULL, in_batch);
  return TRUE;
}

static gboolean
read_totals (NativeParser  *self,
             Cursor        *cursor,
             GError       **error)
{
  guint64 n_counter_readings = get_u64 (cursor);
  guint32 counter_stride = get_u32 (cursor);
  guint64 n_warnings_raised = get_u64 (cursor);
  gboolean has_error = get_u8 (cursor) != 0;

  if (cursor->failed)
    return malformed (self, _("too short"), error);
  if (counter_stride == 0 || (counter_stride & (counter_stride - 1)) != 0)
    return malformed (self, _("a stride that is not a power of two"), error);
  if (has_error)
    {
      g_autofree char *domain = dup_string (cursor);
      guint32 code = get_u32 (cursor);
      g_autofree char *message = dup_string (cursor);
      g_autoptr(GError) run_error = NULL;

      if (cursor->failed || domain[0] == '\0')
        return malformed (self, _("too short"), error);
      if (!g_utf8_validate (message, -1, NULL))
        return malformed (self, _("a message that is not UTF-8"), error);
      run_error = g_error_new_literal (g_quark_from_string (domain), (gint)code, message);
      ps_event_store_set_error (self->store, run_error);
    }
  _ps_event_store_restore_totals (self->store, n_counter_readings, counter_stride,
                                  MAX (n_warnings_raised, ps_event_store_get_n_warnings (self->store)));
  self->totals_seen = TRUE;
  return TRUE;
}

static gboolean
restore_section (NativeParser  *self,
                 const guint8  *payload,
                 gsize          length,
                 GError       **error)
{
  Cursor cursor = { payload, payload + length, FALSE };
  gboolean known = TRUE;
  gboolean ok;

  if (!CRC_MATCHES (ps_native_crc32 (payload, length), self->payload_crc))
    {
      g_autofree char *name = section_name (self->type);

      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   /* Translators: %s: a section's name (e.g. SPAN); %llu: a byte offset */
                   _("The %s section at byte offset %llu is damaged (its checksum does not match); "
                     "the %u sections before it are kept"),
                   name, (unsigned long long)self->offset, self->n_sections);
      return FALSE;
    }

  switch (self->type)
    {
    case PS_NATIVE_RUN:      ok = read_run (self, &cursor, error); break;
    case PS_NATIVE_STRINGS:  ok = read_strings (self, &cursor, error); break;
    case PS_NATIVE_SESSIONS: ok = read_sessions (self, &cursor, error); break;
    case PS_NATIVE_TICKS:    ok = read_ticks (self, &cursor, error); break;
    case PS_NATIVE_TRACKS:   ok = read_tracks (self, &cursor, error); break;
    case PS_NATIVE_OTHERS:   ok = read_others (self, &cursor, error); break;
    case PS_NATIVE_FRAMES:   ok = read_frames (self, &cursor, error); break;
    case PS_NATIVE_STACKS:   ok = read_stacks (self, &cursor, error); break;
    case PS_NATIVE_SOURCES:  ok = read_sources (self, &cursor, error); break;
    case PS_NATIVE_REPORT:   ok = read_report (self, &cursor, error); break;
    case PS_NATIVE_WARNINGS: ok = read_warnings (self, &cursor, error); break;
    case PS_NATIVE_SERIES:   ok = read_series (self, &cursor, error); break;
    case PS_NATIVE_OVERVIEWS: ok = read_overviews (self, &cursor, error); break;
    case PS_NATIVE_MEASURES: ok = read_measurements (self, &cursor, error); break;
    case PS_NATIVE_SPANS:    ok = read_spans (self, &cursor, error); break;
    case PS_NATIVE_CONTEXTS: ok = read_contexts (self, &cursor, error); break;
    case PS_NATIVE_MARKS:    ok = read_marks (self, &cursor, error); break;
    case PS_NATIVE_SAMPLES:  ok = read_samples (self, &cursor, error); break;
    case PS_NATIVE_COUNTERS: ok = read_counter_values (self, &cursor, error); break;
    case PS_NATIVE_TOTALS:   ok = read_totals (self, &cursor, error); break;
    case PS_NATIVE_END:      ok = TRUE; break;
    default:
      /* Sections a later minor version adds are skipped */
      ok = TRUE;
      known = FALSE;
      break;
    }
  if (!ok)
    return FALSE;
  /* Only the run and its totals may grow fields in a later minor version */
  if (known && cursor.at != cursor.end && self->type != PS_NATIVE_RUN && self->type != PS_NATIVE_TOTALS)
    return malformed (self, _("bytes left over after its records"), error);
  self->n_sections++;
  return TRUE;
}

static gboolean
read_file_header (NativeParser  *self,
                  const guint8  *header,
                  GError       **error)
{
  guint16 major;

  if (memcmp (header, PS_NATIVE_MAGIC, PS_NATIVE_MAGIC_LENGTH) != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Not a saved Perfscope run: the first bytes are not its signature"));
      return FALSE;
    }
  if (!CRC_MATCHES (ps_native_crc32 (header, 28), ps_util_load_le32 (header + 28)))
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("The file header at byte offset 0 is damaged (its checksum does not match)"));
      return FALSE;
    }
  major = ps_util_load_le16 (header + 8);
  if (major != PS_NATIVE_VERSION_MAJOR)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                   _("This run was saved in version %u.%u of the format; this Perfscope reads version %u"),
                   major, ps_util_load_le16 (header + 10), PS_NATIVE_VERSION_MAJOR);
      return FALSE;
    }
  if (ps_util_load_le32 (header + 16) != PS_NATIVE_HEADER_SIZE)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("The file header gives a size of %u bytes; %u were expected"),
                   ps_util_load_le32 (header + 16), PS_NATIVE_HEADER_SIZE);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_section_header (NativeParser  *self,
                     const guint8  *header,
                     GError       **error)
{
  guint64 length;

  if (!CRC_MATCHES (ps_native_crc32 (header, 28), ps_util_load_le32 (header + 28)))
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("The section header at byte offset %llu is damaged (its checksum does not match); "
                     "the %u sections before it are kept"),
                   (unsigned long long)self->offset, self->n_sections);
      return FALSE;
    }
  self->type = ps_util_load_le32 (header);
  length = ps_util_load_le64 (header + 8);
  self->count = ps_util_load_le64 (header + 16);
  self->payload_crc = ps_util_load_le32 (header + 24);
  if (length > PS_NATIVE_MAX_PAYLOAD)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TOO_LARGE,
                   _("The section at byte offset %llu claims %llu bytes, more than a section may hold; "
                     "the %u sections before it are kept"),
                   (unsigned long long)self->offset, (unsigned long long)length, self->n_sections);
      return FALSE;
    }
  self->need = length;
  return TRUE;
}

/* One whole unit (file header, section header or payload) is at data */
static gboolean
consume_unit (NativeParser  *self,
              const guint8  *data,
              GError       **error)
{
  switch (self->state)
    {
    case STATE_FILE_HEADER:
      if (!read_file_header (self, data, error))
        return FALSE;
      self->offset += PS_NATIVE_HEADER_SIZE;
      self->state = STATE_SECTION_HEADER;
      self->need = PS_NATIVE_SECTION_HEADER_SIZE;
      return TRUE;

    case STATE_SECTION_HEADER:
      if (!read_section_header (self, data, error))
        return FALSE;
      /* The payload's offset is reported as the section's */
      self->state = STATE_PAYLOAD;
      /* An empty payload is complete already */
      if (self->need == 0)
        return consume_unit (self, data, error);
      return TRUE;

    case STATE_PAYLOAD:
      if (!restore_section (self, data, self->need, error))
        return FALSE;
      self->offset += PS_NATIVE_SECTION_HEADER_SIZE + self->need;
      if (self->type == PS_NATIVE_END)
        {
          self->state = STATE_DONE;
          self->need = 0;
        }
      else
        {
          self->state = STATE_SECTION_HEADER;
          self->need = PS_NATIVE_SECTION_HEADER_SIZE;
        }
      return TRUE;

    case STATE_DONE:
    default:
      g_assert_not_reached ();
    }
}

/* Every error but a file cut inside its header names self->offset, the
 * start of the unit that failed; the loader reports it as where reading
 * stopped, so that the error's offset and its message agree */
static gboolean
stopped_at_unit (NativeParser *self)
{
  ps_parser_set_error_offset (&self->parent, self->offset);
  return FALSE;
}

static gboolean
native_feed (PsParser      *parser,
             const guint8  *data,
             gsize          length,
             GError       **error)
{
  NativeParser *self = (NativeParser *)parser;

  while (length > 0)
    {
      gsize take;

      if (self->state == STATE_DONE)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                       _("Data follows the end of the saved run at byte offset %llu"),
                       (unsigned long long)self->offset);
          return stopped_at_unit (self);
        }

      /* A whole unit in this chunk: read in place */
      if (self->pending->len == 0 && length >= self->need)
        {
          gsize used = self->need;

          if (!consume_unit (self, data, error))
            return stopped_at_unit (self);
          data += used;
          length -= used;
          continue;
        }

      take = MIN (length, self->need - self->pending->len);
      g_byte_array_append (self->pending, data, take);
      data += take;
      length -= take;
      if (self->pending->len == self->need)
        {
          gboolean ok = consume_unit (self, self->pending->data, error);

          g_byte_array_set_size (self->pending, 0);
          if (!ok)
            return stopped_at_unit (self);
        }
    }
  return TRUE;
}

static gboolean
native_finish (PsParser  *parser,
               GError   **error)
{
  NativeParser *self = (NativeParser *)parser;

  if (self->state == STATE_DONE)
    return TRUE;

  if (self->state == STATE_FILE_HEADER)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                   _("The file ends at byte offset %llu, inside its header"),
                   (unsigned long long)self->pending->len);
      ps_parser_set_error_offset (parser, self->pending->len);
      return FALSE;
    }
  if (self->state == STATE_PAYLOAD || self->pending->len > 0)
    g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                 _("The file was cut off inside the section that begins at byte offset %llu; "
                   "the %u sections before it are kept"),
                 (unsigned long long)self->offset, self->n_sections);
  else
    g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                 _("The file was cut off at byte offset %llu, before its end section; "
                   "the %u sections before it are kept"),
                 (unsigned long long)self->offset, self->n_sections);
  return stopped_at_unit (self);
}

static void
native_free (PsParser *parser)
{
  NativeParser *self = (NativeParser *)parser;

  g_byte_array_unref (self->pending);
  g_free (self);
}

static const PsParserClass native_parser_class = {
  native_feed,
  native_finish,
  native_free,
};

static PsParser *
native_parser_new (PsStoreBuilder *builder)
{
  NativeParser *self = g_new0 (NativeParser, 1);

  self->parent.klass = &native_parser_class;
  self->parent.builder = builder;
  self->store = ps_store_builder_get_store (builder);
  self->pending = g_byte_array_new ();
  self->state = STATE_FILE_HEADER;
  self->need = PS_NATIVE_HEADER_SIZE;
  return &self->parent;
}

static guint
native_sniff (const guint8 *data,
              gsize         length,
              const char   *file_name)
{
  if (length >= PS_NATIVE_MAGIC_LENGTH && memcmp (data, PS_NATIVE_MAGIC, PS_NATIVE_MAGIC_LENGTH) == 0)
    return 100;
  return 0;
}

static const char * const native_extensions[] = { "perfscope", NULL };
static const char * const native_mime_types[] = { "application/x-perfscope", NULL };

const PsFormat ps_format_native = {
  "perfscope",
  N_("Saved Perfscope run"),
  N_("A run saved by Perfscope, with everything it had read from the original file or recording"),
  native_extensions,
  native_mime_types,
  native_sniff,
  native_parser_new,
};

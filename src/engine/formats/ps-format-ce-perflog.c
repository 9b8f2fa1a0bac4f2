/* ps-format-ce-perflog.c — Windows Embedded CE 6.0 PerfLog ("## PERF ##")
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §3 (grammar), §4 (sessions, marker registry, event
 * assignment, value validation) and §7 (every malformed case).
 *
 * One track per marker instance: a registration of (application, marker id)
 * within a session; a re-registration opens a new instance and later events
 * go to it. Events become measurements in file order, which is the only time
 * axis of the format. Nothing in the content is fatal: a fault becomes a
 * warning with its line number and parsing goes on.
 *
 * Parsing has two stages (PsParserStages), which the loader runs on two
 * cores: the scan stage splits lines and reads the common ones — events
 * and marker registrations as PerfLog.dll spells them — into records; the
 * apply stage gives every line its meaning in file order and is the only
 * one that touches the store, the registry or the warnings.
 *
 * This file holds both stages and the parser; what each statement means
 * (sessions, the marker registry, events) is in ps-format-ce-statements.c.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-format-ce-perflog-private.h"
#include "ps-util.h"

/* The scan stage */

static inline gboolean
equal8 (const char *a,
        const char *b)
{
  guint64 x, y;

  memcpy (&x, a, 8);
  memcpy (&y, b, 8);
  return x == y;
}

/* The first 7 of 8 readable bytes; one load each, and no byte stores that
 * a wide load would have to wait for */
static inline gboolean
equal7 (const char *a,
        const char *b)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  const guint64 mask = G_GUINT64_CONSTANT (0x00FFFFFFFFFFFFFF);
#else
  const guint64 mask = G_GUINT64_CONSTANT (0xFFFFFFFFFFFFFF00);
#endif
  guint64 x, y;

  memcpy (&x, a, 8);
  memcpy (&y, b, 8);
  return ((x ^ y) & mask) == 0;
}

/* How many of the 8 bytes at p are decimal digits before the first other
 * byte — without a branch per digit, whose count varies from line to
 * line — and the 8 bytes in *word. Returns 8 when it cannot tell. */
static inline int
count_digits (const char *p,
              guint64    *word)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  const guint64 high_nibbles = G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0);
  const guint64 threes = G_GUINT64_CONSTANT (0x3030303030303030);
  guint64 other;

  memcpy (word, p, 8);
  /* A digit is 0x30…0x39: its high nibble is 3, also after adding 6. A
   * carry out of a byte only comes from a byte that is no digit and only
   * spoils the bytes after it. */
  other = ((*word & high_nibbles) ^ threes) | (((*word + G_GUINT64_CONSTANT (0x0606060606060606)) & high_nibbles) ^ threes);
  return other == 0 ? 8 : __builtin_ctzll (other) / 8;
#else
  return 8;
#endif
}

/* The value of the first n (1…7) digits of a word from count_digits () */
static inline guint64
digits_value (guint64 word,
              guint   n)
{
  /* The digits to the top bytes, zeros before them; then pairs, fours, eight */
  word = (word & G_GUINT64_CONSTANT (0x0F0F0F0F0F0F0F0F)) << (8 * (8 - n));
  word = (word * (1 + (10 << 8))) >> 8;
  word = ((word & G_GUINT64_CONSTANT (0x00FF00FF00FF00FF)) * (1 + (100 << 16))) >> 16;
  return ((word & G_GUINT64_CONSTANT (0x0000FFFF0000FFFF)) * (1 + (G_GUINT64_CONSTANT (10000) << 32))) >> 32;
}

/* Powers of ten that doubles hold exactly */
static const double exact_powers_of_ten[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static gpointer
batch_new (void)
{
  Batch *batch = g_new0 (Batch, 1);

  ps_kept_lines_init (&batch->lines);
  return batch;
}

static void
batch_release (CeParser *self,
               Batch    *batch)
{
  batch->n_records = 0;
  ps_line_batches_give_back (&self->batches, batch);
}

static void
batch_free (gpointer data)
{
  Batch *batch = data;

  g_free (batch->records);
  ps_kept_lines_clear (&batch->lines);
  g_free (batch);
}

static inline Record *
batch_add_record (Batch   *batch,
                  guint64  line_number)
{
  if G_UNLIKELY (batch->n_records == batch->records_size)
    {
      batch->records_size = MAX (4096, batch->records_size * 2);
      batch->records = g_renew (Record, batch->records, batch->records_size);
    }
  if (batch->n_records == 0)
    batch->first_line = line_number;

  return &batch->records[batch->n_records++];
}

/* The token of an application name that the scan stage has seen, 0 if
 * there is no room for another one */
static guint8
app_token (CeParser   *self,
           const char *name,
           gsize       length)
{
  AppName *entry;

  for (guint token = 1; token <= self->n_app_names; token++)
    if (self->app_names[token].length == length && memcmp (self->app_names[token].name, name, length) == 0)
      return token;

  if (self->n_app_names == MAX_APP_TOKENS || length > sizeof entry->name)
    return 0;
  entry = &self->app_names[++self->n_app_names];
  memcpy (entry->name, name, length);
  entry->length = length;
  return self->n_app_names;
}

/* The application of an event line at text, up to its "]": its token in
 * *app, as the guess for the next line */
static G_GNUC_NO_INLINE gboolean
scan_app (CeParser   *self,
          AppCache   *app,
          const char *text,
          gsize       available)
{
  const char *close = memchr (text, ']', MIN (available, sizeof self->app_names[0].name + 1));
  char mask[8] = { 0 };
  gsize length;

  if (close == NULL)
    return FALSE;
  length = close - text;
  /* A "]" on a later line: this line is not an event */
  if (memchr (text, '\n', length) != NULL || memchr (text, '\r', length) != NULL)
    return FALSE;
  app->token = app_token (self, text, length);
  if (app->token == 0)
    return FALSE;
  app->length = length;
  memset (mask, 0xFF, MIN (length, 8));
  memcpy (&app->mask, mask, 8);
  memcpy (&app->word, self->app_names[app->token].name, 8);
  app->word &= app->mask;
  return TRUE;
}

/* CPU [v] after the "[": a decimal with a point and at most 15
 * significant digits (the quotient of two exact doubles is rounded once,
 * as strtod rounds); returns the byte after it or NULL */
static G_GNUC_NO_INLINE const char *
scan_percent (const char *p,
              const char *end,
              double     *percent,
              guint8     *flags)
{
  gboolean negative = FALSE;
  guint64 magnitude = 0;
  int digits;
  int fraction = 0;

  if (*p == '-')
    {
      negative = TRUE;
      p++;
    }
  for (digits = 0; p < end && g_ascii_isdigit (*p) && digits < 18; digits++)
    magnitude = magnitude * 10 + (guint64) (*p++ - '0');
  if (digits == 0 || p >= end)
    return NULL;

  if (*p == '.')
    {
      for (p++; p < end && g_ascii_isdigit (*p) && digits < 15; digits++, fraction++)
        magnitude = magnitude * 10 + (guint64) (*p++ - '0');
      if (fraction == 0 || p >= end || g_ascii_isdigit (*p))
        return NULL;
    }
  else if (digits > 15)
    return NULL;

  *percent = (double) magnitude / exact_powers_of_ten[fraction];
  if (negative)
    *percent = -*percent;
  *flags = *percent < 0 || *percent > 100 ? PS_MEASURE_FLAG_OUT_OF_RANGE : PS_MEASURE_FLAG_NONE;
  return p;
}

/* Reads one line if it is "## PERF ## APP [a] EVT [n] KIND [v]" with
 * n < FAST_IDS and KIND one of DUR (whole ticks), MEM (whole bytes) or CPU
 * (scan_percent ()); returns the bytes taken (line end included) or 0.
 * Anything else goes the general way. */
static inline gsize
scan_event (CeParser   *self,
            AppCache   *app,
            const char *data,
            gsize       available,
            guint64    *value_out,
            guint32    *info)
{
  static const char prefix[16] = "## PERF ## APP [";
  static const char evt[8] = "] EVT [_";
  static const char dur[8] = "] DUR [_";
  static const char cpu[8] = "] CPU [_";
  static const char mem[8] = "] MEM [_";
  const char *end = data + available;
  const char *p;
  gsize app_length = app->length;
  guint id;
  guint digit;
  guint8 type;
  guint8 flags = PS_MEASURE_FLAG_NONE;
  guint64 value = 0;
  int digits;

  /* The shortest line: prefix, "] EVT [0] DUR [0]\n" */
  if (available < 16 + 18)
    return 0;
  if (!equal8 (data, prefix) || !equal8 (data + 8, prefix + 8))
    return 0;

  /* Mostly the application of the line before: one masked 8-byte compare */
  if (app->token != 0 && app_length <= 8)
    {
      guint64 word;

      memcpy (&word, data + 16, 8);
      if ((word & app->mask) != app->word || data[16 + app_length] != ']')
        app->token = 0;
    }
  else if (app->token != 0
           && (available < 16 + app_length + 1 || data[16 + app_length] != ']'
               || memcmp (data + 16, self->app_names[app->token].name, app_length) != 0))
    app->token = 0;

  if (app->token == 0)
    {
      if (!scan_app (self, app, data + 16, available - 16))
        return 0;
      app_length = app->length;
    }

  /* From here 18 bytes can be read without a check: "] EVT [" and the id
   * (at most 3 digits below FAST_IDS), then "] KIND [" */
  if (available < 16 + app_length + 18)
    return 0;
  p = data + 16 + app_length;
  if (!equal7 (p, evt))
    return 0;
  p += 7;

  id = 0;
  for (digits = 0; digits < 3 && (digit = (guint) (guchar) *p - '0') <= 9; digits++, p++)
    id = id * 10 + digit;
  if (digits == 0 || id >= FAST_IDS || end - p < 9)
    return 0;

  if (equal7 (p, dur))
    type = RECORD_DURATION;
  else if (equal7 (p, mem))
    type = RECORD_MEMORY;
  else if (equal7 (p, cpu))
    type = RECORD_CPU;
  else
    return 0;
  p += 7;

  if (type == RECORD_CPU)
    {
      double percent;

      p = scan_percent (p, end, &percent, &flags);
      if (p == NULL)
        return 0;
      memcpy (&value, &percent, sizeof value);
    }
  else
    {
      gboolean negative = *p == '-' && type == RECORD_DURATION;

      p += negative;
      digits = end - p >= 8 ? count_digits (p, &value) : 8;
      if (digits < 8)
        {
          p += digits;
          if (digits > 0)
            value = digits_value (value, digits);
        }
      else
        {
          value = 0;
          for (digits = 0; p < end && g_ascii_isdigit (*p) && digits < 18; digits++)
            value = value * 10 + (guint64) (*p++ - '0');
        }
      if (digits == 0 || p >= end)
        return 0;
      if (negative)
        {
          value = (guint64) -(gint64) value;
          flags = PS_MEASURE_FLAG_NEGATIVE;
        }
    }

  if (*p != ']')
    return 0;
  p++;

  if (p < end && *p == '\n')
    p++;
  else if (end - p >= 2 && p[0] == '\r' && p[1] == '\n')
    p += 2;
  else
    return 0;

  *value_out = value;
  *info = RECORD_INFO (type, id, app->token, flags);
  return p - data;
}

#define MARKER_PREFIX        "## PERF ## REGISTERED MARKER ["
#define MARKER_PREFIX_LENGTH (sizeof MARKER_PREFIX - 1)

/* Takes one line if it begins "## PERF ## REGISTERED MARKER [" and holds
 * nothing the general way warns about before matching it; returns the
 * bytes taken (line end included) or 0. The apply stage matches it, as
 * the general way would (ce_match_registered_marker ()). */
static G_GNUC_NO_INLINE gsize
scan_marker (const char *data,
             gsize       available,
             guint64    *value,
             guint32    *info)
{
  const char *newline;
  const char *end;

  if (available < MARKER_PREFIX_LENGTH || memcmp (data, MARKER_PREFIX, MARKER_PREFIX_LENGTH) != 0)
    return 0;
  newline = memchr (data, '\n', MIN (available, MAX_LINE_LENGTH));
  if (newline == NULL)
    return 0;
  end = newline;
  if (end[-1] == '\r')
    end--;
  /* A lone CR ends a line, a NUL its content */
  if (memchr (data, '\r', end - data) != NULL || memchr (data, '\0', end - data) != NULL)
    return 0;

  *value = end - data;
  *info = RECORD_INFO (RECORD_MARKER, 0, 0, 0);
  return newline + 1 - data;
}

/* The line reader's fast path in the scan stage: a run of lines that
 * scan_event () or scan_marker () read. Only lines inside the chunk, so
 * that records can point into it. */
static gsize
scan_fast_lines (const PsLineRun *run,
                 guint64         *n_lines,
                 gpointer         user_data)
{
  CeParser *self = user_data;
  const char *data = run->data;
  gsize available = run->available;
  Batch *batch = self->batches.filling;
  gsize start = (guintptr) data - (guintptr) batch->lines.chunk;
  /* Locals, not fields: the records' byte stores could alias the fields */
  AppCache app = self->last_app;
  Record *records = batch->records;
  gsize n_records = batch->n_records;
  gsize pos = 0;

  *n_lines = 0;
  if (batch->lines.chunk == NULL || batch->lines.chunk_length > G_MAXUINT32
      || start >= batch->lines.chunk_length || available > batch->lines.chunk_length - start)
    return 0;
  batch->chunk_offset = run->offset - start;
  if (n_records == 0)
    batch->first_line = run->line_number;

  while (pos < available)
    {
      guint64 value;
      guint32 info;
      gsize used = scan_event (self, &app, data + pos, available - pos, &value, &info);

      if (used == 0)
        used = scan_marker (data + pos, available - pos, &value, &info);
      if (used == 0)
        break;

      if G_UNLIKELY (n_records == batch->records_size)
        {
          batch->records_size = MAX (4096, batch->records_size * 2);
          batch->records = records = g_renew (Record, records, batch->records_size);
        }
      records[n_records].value = value;
      records[n_records].offset = (guint32) (start + pos);
      records[n_records].info = info;
      n_records++;
      pos += used;
    }

  *n_lines = n_records - batch->n_records;
  batch->n_records = n_records;
  self->last_app = app;
  return pos;
}

/* Every other line, for the general way */
static void
scan_line (const PsLine *line,
           gpointer      user_data)
{
  CeParser *self = user_data;
  Batch *batch = self->batches.filling;
  Record *record = batch_add_record (batch, line->number);

  record->value = ps_kept_lines_add (&batch->lines, line);
  record->offset = 0;
  record->info = RECORD_INFO (RECORD_LINE, 0, 0, 0);
}

static gpointer
ce_scan (PsParser     *parser,
         const guint8 *data,
         gsize         length)
{
  CeParser *self = (CeParser *) parser;

  return ps_line_batches_scan (&self->batches, self->reader, data, length);
}

/* The apply stage */

static const guint8 seen_of_record[] = {
  [RECORD_DURATION] = SEEN_DUR,
  [RECORD_CPU] = SEEN_CPU,
  [RECORD_MEMORY] = SEEN_MEM,
};

/* An event the fast way: for instances whose checks have been made (an
 * earlier event went the general way, or the instance was registered by
 * the application the fast path knows). Returns FALSE for the general
 * way, which gives the same result. */
static inline gboolean
apply_event (CeParser     *self,
             const Record *record,
             guint64       line)
{
  PsStoreBuilder *builder = self->parent.builder;
  guint32 track;
  guint8 *seen;

  if (RECORD_APP (record) != self->fast.app_token || (track = self->fast.tracks[RECORD_ID (record)]) == PS_NONE)
    return FALSE;

  /* A first event of a kind on an instance that had another kind is
   * "mixed": the general path warns about it */
  seen = &self->track_seen->data[track];
  if (*seen != seen_of_record[RECORD_TYPE (record)])
    {
      if (*seen != 0)
        return FALSE;
      *seen = seen_of_record[RECORD_TYPE (record)];
    }

  switch (RECORD_TYPE (record))
    {
    case RECORD_DURATION:
      ps_store_builder_add_duration (builder, track, line, (gint64) record->value, RECORD_FLAGS (record));
      self->session_has_durations = TRUE;
      break;
    case RECORD_MEMORY:
      ps_store_builder_add_memory (builder, track, line, record->value, RECORD_FLAGS (record));
      break;
    case RECORD_CPU:
    default:
      {
        double percent;

        memcpy (&percent, &record->value, sizeof percent);
        ps_store_builder_add_cpu (builder, track, line, percent, RECORD_FLAGS (record));
      }
      break;
    }
  self->session_last_line = line;
  return TRUE;
}

/* A line the scan stage read, the general way after all; an event line
 * may teach the fast path its application's token */
static void
apply_line_slowly (CeParser     *self,
                   const Batch  *batch,
                   const Record *record,
                   guint64       line)
{
  const char *text = batch->lines.chunk + record->offset;
  const char *newline = memchr (text, '\n', batch->lines.chunk_length - record->offset);
  const AppName *app = &self->app_names[RECORD_APP (record)];
  PsLine pl = { 0 };

  pl.text = text;
  pl.length = newline - text;
  if (pl.length > 0 && text[pl.length - 1] == '\r')
    pl.length--;
  pl.number = line;
  pl.offset = batch->chunk_offset + record->offset;
  pl.terminated = TRUE;
  ce_handle_line (&pl, self);

  if (RECORD_APP (record) != 0 && self->fast.valid && self->fast.app_token == 0
      && app->length == self->fast.app_length && memcmp (app->name, self->fast.app, app->length) == 0)
    self->fast.app_token = RECORD_APP (record);
}

/* A registration line as ce_parse_statement () would take it after trimming
 * its trailing blanks; FALSE if it does not match */
static gboolean
apply_marker (CeParser     *self,
              const Batch  *batch,
              const Record *record,
              guint64       line)
{
  const char *text = batch->lines.chunk + record->offset;
  const char *end = text + record->value;
  MarkerMatch match;

  while (ps_parse_is_blank (end[-1]))
    end--;
  if (!ce_match_registered_marker (text + MARKER_PREFIX_LENGTH - 1, end, &match))
    return FALSE;

  ce_register_marker (self, &match, line);
  self->session_last_line = line;
  return TRUE;
}

static void
apply_batch (CeParser *self,
             Batch    *batch)
{
  guint64 line = batch->first_line;

  for (gsize i = 0; i < batch->n_records; i++, line++)
    {
      const Record *record = &batch->records[i];

      switch (RECORD_TYPE (record))
        {
        case RECORD_LINE:
          ce_handle_line (ps_kept_lines_get (&batch->lines, (guint) record->value), self);
          break;

        case RECORD_MARKER:
          if (!apply_marker (self, batch, record, line))
            apply_line_slowly (self, batch, record, line);
          break;

        default:
          if (!apply_event (self, record, line))
            apply_line_slowly (self, batch, record, line);
          break;
        }
    }
}

static gboolean
ce_apply (PsParser  *parser,
          gpointer   scanned,
          GError   **error)
{
  CeParser *self = (CeParser *) parser;

  apply_batch (self, scanned);
  batch_release (self, scanned);

  return TRUE;
}

static gboolean
ce_feed (PsParser      *parser,
         const guint8  *data,
         gsize          length,
         GError       **error)
{
  return ce_apply (parser, ce_scan (parser, data, length), error);
}

static void
ce_stop_scanning (PsParser *parser)
{
  CeParser *self = (CeParser *) parser;

  ps_line_reader_drop_carry (self->reader);
}

static gboolean
ce_finish (PsParser  *parser,
           GError   **error)
{
  CeParser *self = (CeParser *) parser;

  ce_apply (parser, ps_line_batches_finish (&self->batches, self->reader), NULL);

  ce_close_session (self);

  if (self->n_foreign > 0)
    ps_parse_warn_at_line (parser, PS_NONE, PS_SEVERITY_INFO, "I-FOREIGN", self->first_foreign_line,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "%llu line without “## PERF ##” was ignored",
                                        "%llu lines without “## PERF ##” were ignored",
                                        self->n_foreign),
                           (unsigned long long) self->n_foreign);

  ps_store_builder_flush (parser->builder);
  return TRUE;
}

static void
ce_free (PsParser *parser)
{
  CeParser *self = (CeParser *) parser;

  g_clear_pointer (&self->reader, ps_line_reader_free);
  g_clear_pointer (&self->registry, g_hash_table_unref);
  g_clear_pointer (&self->apps, g_hash_table_unref);
  g_clear_pointer (&self->warned_apps, g_hash_table_unref);
  g_clear_pointer (&self->other_kinds, g_hash_table_unref);
  g_clear_pointer (&self->track_seen, g_byte_array_unref);
  ps_line_batches_clear (&self->batches);
  g_string_free (self->noted_app, TRUE);
  g_string_free (self->key, TRUE);
  g_string_free (self->session_apps, TRUE);
  g_string_free (self->session_pids, TRUE);
  g_free (self);
}

static const PsParserClass ce_parser_class = {
  ce_feed,
  ce_finish,
  ce_free,
};

static const PsParserStages ce_parser_stages = {
  ce_scan,
  ce_apply,
  ce_stop_scanning,
};

static PsParser *
ce_parser_new (PsStoreBuilder *builder)
{
  CeParser *self = g_new0 (CeParser, 1);

  self->parent.klass = &ce_parser_class;
  self->parent.stages = &ce_parser_stages;
  self->parent.builder = builder;
  self->store = ps_store_builder_get_store (builder);
  self->session = PS_NONE;
  self->registry = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->apps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->warned_apps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->other_kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->track_seen = g_byte_array_new ();
  self->noted_app = g_string_new (NULL);
  self->key = g_string_new (NULL);
  self->session_apps = g_string_new (NULL);
  self->session_pids = g_string_new (NULL);
  ce_forget_fast_path (self);
  for (guint i = 0; i < FAST_IDS; i++)
    self->names[i].id = PS_NONE;
  self->category.id = PS_NONE;

  ps_line_batches_init (&self->batches, batch_new, batch_free, G_STRUCT_OFFSET (Batch, lines));

  self->reader = ps_line_reader_new (scan_line, self);
  ps_line_reader_set_detect_encoding (self->reader, TRUE);
  ps_line_reader_set_max_line_length (self->reader, MAX_LINE_LENGTH);
  ps_line_reader_set_fast_func (self->reader, scan_fast_lines);

  return &self->parent;
}

/* Sniffing: the tag near the start of a line, in 8-bit or UTF-16 text */
static guint
ce_sniff (const guint8 *data,
          gsize         length,
          const char   *file_name)
{
  g_autofree char *narrow = NULL;
  const char *text = (const char *) data;
  gsize n = length;
  guint score = 0;

  /* UTF-16: keep every other byte of the start */
  if (length >= 4 && ((data[0] == 0xFF && data[1] == 0xFE) || (data[0] == 0xFE && data[1] == 0xFF)
                      || (data[1] == 0 && data[3] == 0) || (data[0] == 0 && data[2] == 0)))
    {
      gsize start = (data[0] == 0xFF || data[0] == 0xFE) ? 2 : 0;
      gsize odd = (data[start] == 0) ? 1 : 0;

      narrow = g_malloc (length / 2 + 1);
      n = 0;
      for (gsize i = start + odd; i < length; i += 2)
        narrow[n++] = data[i];
      text = narrow;
    }

  if (ce_find_tag (text, n) != NULL)
    {
      score = 80;
      if (g_strstr_len (text, n, "OSVERSION") || g_strstr_len (text, n, "REGISTERED MARKER")
          || g_strstr_len (text, n, "EVT ["))
        score = 95;
    }
  else if (g_strstr_len (text, n, "### PERF TEST ["))
    score = 60;

  return score;
}

static const char * const ce_extensions[] = { "log", "LOG", NULL };
static const char * const ce_mime_types[] = { "text/plain", NULL };

const PsFormat ps_format_ce_perflog = {
  "ce-perflog",
  N_("Windows CE PerfLog"),
  N_("Text logs of the Windows Embedded CE test kit’s PerfLog.dll (“## PERF ##” lines)"),
  ce_extensions,
  ce_mime_types,
  ce_sniff,
  ce_parser_new,
};

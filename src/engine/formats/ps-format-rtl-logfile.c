/* ps-format-rtl-logfile.c — OpenOffice RTL profiling logs (RTL_LOGFILE)
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §2 (what the writer does), §3 (grammar), §4.2 (the
 * pairing algorithm) and §7 (every malformed case).
 *
 * One track per thread of a session. Scopes become spans in the order they
 * began (their end is filled in when it arrives), messages become marks
 * attached to the scope they belong to. Times are the writer's milliseconds,
 * unwrapped per thread, in nanoseconds; the session's origin is the wall
 * clock at timer 0 when the header gives it. Nothing in the content is
 * fatal: every repair becomes a warning with its line number.
 *
 * A record is processed once the next line shows it is complete (a later
 * line may continue its text). Parsing has two stages: scanning cuts the
 * runs of plain timed records of a chunk into tokens and keeps its other
 * lines, reading nothing but the bytes; applying then processes both in
 * file order, so pairing, warnings and line numbers are those of the
 * general path, which keeps the one record that may still grow. The
 * loader scans a chunk on its reading thread while it applies the one
 * before.
 *
 * This file reads: the lines, the records in them and both stages;
 * ps-format-rtl-scopes.c builds the sessions, threads and scopes from the
 * records.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <glib/gi18n-lib.h>

#include "ps-format-rtl-logfile-private.h"
#include "ps-util.h"

/* ------------------------------------------------------------------------ */
/* Small text helpers                                                        */


static inline gboolean
is_kind (char c)
{
  return c == '{' || c == '}' || c == '|';
}

static gboolean
has_prefix (const char *text,
            gsize       length,
            const char *prefix,
            gsize       prefix_length)
{
  return length >= prefix_length && memcmp (text, prefix, prefix_length) == 0;
}

/* An unsigned 32-bit decimal of 1…10 digits. Returns the digits' end, or
 * NULL when there is no digit; *overflow says it had too many digits or
 * was too large. */
static const char *
parse_u32 (const char *p,
           const char *end,
           guint32    *value,
           gboolean   *overflow)
{
  const char *start = p;
  guint64 v = 0;

  while (p < end && is_digit (*p))
    {
      if (p - start < 11)
        v = v * 10 + (guint64)(*p - '0');
      p++;
    }

  if (p == start)
    return NULL;

  *overflow = (p - start) > 10 || v > G_MAXUINT32;
  *value = (guint32)v;
  return p;
}

typedef enum
{
  PREFIX_NONE,
  PREFIX_OK,
  PREFIX_TOO_LARGE,  /* shaped like a prefix, but a number is out of range */
} PrefixResult;

/* `time [ \t]+ thread [ \t]+ kind ( SP | end )`. On success *body_out is
 * the text after the kind and its space. */
static PrefixResult
parse_prefix (const char  *p,
              const char  *end,
              guint32     *time,
              guint32     *thread,
              char        *kind,
              const char **body_out)
{
  gboolean overflow_time = FALSE;
  gboolean overflow_thread = FALSE;
  const char *q;

  q = parse_u32 (p, end, time, &overflow_time);
  if (q == NULL || q == end || !ps_parse_is_blank (*q))
    return PREFIX_NONE;
  while (q < end && ps_parse_is_blank (*q))
    q++;
  q = parse_u32 (q, end, thread, &overflow_thread);
  if (q == NULL || q == end || !ps_parse_is_blank (*q))
    return PREFIX_NONE;
  while (q < end && ps_parse_is_blank (*q))
    q++;
  if (q == end || !is_kind (*q))
    return PREFIX_NONE;
  *kind = *q++;
  if (q < end)
    {
      if (*q != ' ')
        return PREFIX_NONE;
      q++;
    }
  *body_out = q;

  return (overflow_time || overflow_thread) ? PREFIX_TOO_LARGE : PREFIX_OK;
}

#ifdef __GNUC__
/* The leading decimal digits of the eight bytes at p, all at once: their
 * number (8 when all eight are digits, and then no value) and value. The
 * loop of parse_u32() ends in a mispredicted branch at every field. */
static inline guint
leading_digits (const char *p,
                guint64    *value)
{
  guint64 chunk;
  guint64 x;
  guint64 non_digit;
  guint n;

  memcpy (&chunk, p, 8);
  chunk = GUINT64_FROM_LE (chunk);
  /* Per byte: its digit value; a byte that is no digit gets its top bit
   * set (below '0' by the borrow, above '9' by the addition). Carries and
   * borrows only reach bytes after it, which do not count. */
  x = chunk - G_GUINT64_CONSTANT (0x3030303030303030);
  non_digit = (x | (x + G_GUINT64_CONSTANT (0x7676767676767676))) & G_GUINT64_CONSTANT (0x8080808080808080);
  if (non_digit == 0)
    return 8;
  n = (guint)__builtin_ctzll (non_digit) / 8;
  if (n == 0)
    return 0;

  /* The digits to the top, zeros (leading zero digits) below them; then
   * pairs, fours and eights of digits combined by multiplication */
  x <<= 8 * (8 - n);
  x = (x * 2561) >> 8;
  x = ((x & G_GUINT64_CONSTANT (0x00FF00FF00FF00FF)) * 6553601) >> 16;
  x = ((x & G_GUINT64_CONSTANT (0x0000FFFF0000FFFF)) * G_GUINT64_CONSTANT (42949672960001)) >> 32;
  *value = x;
  return n;
}
#endif

/* parse_prefix() for the shape the writer gives every record: digits,
 * one space, digits, one space, the kind, one space; at most seven digits
 * each (ten million milliseconds are almost three hours). FALSE means
 * "ask parse_prefix()", which decides every other shape (and this one
 * alike); without the GCC builtins, always. */
#ifdef __GNUC__
__attribute__((always_inline))
#endif
static inline gboolean
parse_common_prefix (const char  *p,
                     const char  *end,
                     guint32     *time,
                     guint32     *thread,
                     char        *kind,
                     const char **body_out)
{
#ifdef __GNUC__
  guint64 time_value;
  guint64 thread_value;
  guint n;

  /* Room for the longest such prefix and the bytes read with it */
  if (end - p < 8 + 8 + 3)
    return FALSE;

  n = leading_digits (p, &time_value);
  if (n == 0 || n == 8 || p[n] != ' ')
    return FALSE;
  p += n + 1;
  n = leading_digits (p, &thread_value);
  if (n == 0 || n == 8 || p[n] != ' ' || !is_kind (p[n + 1]) || p[n + 2] != ' ')
    return FALSE;

  *time = (guint32)time_value;
  *thread = (guint32)thread_value;
  *kind = p[n + 1];
  *body_out = p + n + 3;
  return TRUE;
#else
  return FALSE;
#endif
}

static gboolean
starts_with_record (const char *p,
                    const char *end)
{
  guint32 time, thread;
  char kind;
  const char *body;

  return parse_prefix (p, end, &time, &thread, &kind, &body) == PREFIX_OK;
}

/* The first " : ". Scope names have colons of their own ("::Function"),
 * so a search for the colon alone stops several times a record: where
 * SSE2 is there, sixteen places are looked at in one step for all three
 * bytes. */
static const char *
find_separator (const char *text,
                gsize       length)
{
  const char *p = text;
  const char *end = text + length;

#ifdef __SSE2__
  const __m128i colon = _mm_set1_epi8 (':');
  const __m128i space = _mm_set1_epi8 (' ');

  /* p is where a separator may begin: its colon is at p + 1 */
  while (end - p >= 18)
    {
      __m128i before = _mm_loadu_si128 ((const __m128i *)(const void *)p);
      __m128i at = _mm_loadu_si128 ((const __m128i *)(const void *)(p + 1));
      __m128i after = _mm_loadu_si128 ((const __m128i *)(const void *)(p + 2));
      guint mask = (guint)_mm_movemask_epi8 (_mm_and_si128 (_mm_and_si128 (_mm_cmpeq_epi8 (before, space),
                                                                          _mm_cmpeq_epi8 (at, colon)),
                                                            _mm_cmpeq_epi8 (after, space)));

      if (mask != 0)
        return p + __builtin_ctz (mask);
      p += 16;
    }
#endif

  for (; end - p >= 3; p++)
    if (p[0] == ' ' && p[1] == ':' && p[2] == ' ')
      return p;
  return NULL;
}

/* Splits the body of a "|" record into scope name and message (§3). */
static inline void
split_message (Record     *r,
               const char *body,
               gsize       length)
{
  const char *sep;

  if ((length == 1 && body[0] == ':') || (length >= 2 && body[0] == ':' && body[1] == ' '))
    {
      r->name = body;
      r->name_length = 0;
      r->message = body + MIN (length, 2);
      r->message_length = length - MIN (length, 2);
      return;
    }

  sep = find_separator (body, length);
  if (sep != NULL)
    {
      r->name = body;
      r->name_length = sep - body;
      r->message = sep + 3;
      r->message_length = length - (r->name_length + 3);
      return;
    }

  if (length >= 2 && body[length - 2] == ' ' && body[length - 1] == ':')
    {
      r->name = body;
      r->name_length = length - 2;
      r->message = body + length;
      r->message_length = 0;
      return;
    }

  r->name = body;
  r->name_length = 0;
  r->message = body;
  r->message_length = length;
  r->flags |= RECORD_NO_SEPARATOR;
}

/* ------------------------------------------------------------------------ */
/* The general path                                                          */

static void
flush_pending (RtlParser *self)
{
  if (!self->has_pending)
    return;

  self->has_pending = FALSE;
  self->pending.name = self->pending_name->str;
  self->pending.name_length = self->pending_name->len;
  self->pending.message = self->pending_message->str;
  self->pending.message_length = self->pending_message->len;
  rtl_process_record (self, &self->pending);

  for (guint i = 0; i < self->deferred->len; i++)
    {
      Deferred *deferred = g_ptr_array_index (self->deferred, i);

      ps_parse_warn_at_line (&self->parent, self->session, deferred->severity, deferred->code, deferred->line, "%s", deferred->message);
    }
  g_ptr_array_set_size (self->deferred, 0);
}

static void
submit_record (RtlParser    *self,
               const Record *r)
{
  flush_pending (self);

  if (r->flags & RECORD_INTERRUPTED)
    {
      /* Its text follows on a later line of its own (§2.5) */
      self->interrupted_mark = rtl_process_record (self, r);
      self->interrupted_line = r->line;
      return;
    }

  self->pending = *r;
  /* Its name may still grow */
  self->pending.name_sid = PS_NONE;
  g_string_truncate (self->pending_name, 0);
  g_string_append_len (self->pending_name, r->name, r->name_length);
  g_string_truncate (self->pending_message, 0);
  if (r->message != NULL)
    g_string_append_len (self->pending_message, r->message, r->message_length);
  self->has_pending = TRUE;
}

/* A line that is neither a record nor a fixed line (§4.2 step 5) */
static void
handle_text (RtlParser  *self,
             const char *text,
             gsize       length,
             guint64     line,
             gboolean    damaged)
{
  g_autofree char *display = NULL;

  if (self->interrupted_mark != PS_NO_POSITION)
    {
      if (self->totals == NULL)
        {
          PsMark *mark = ps_store_builder_edit_mark (self->parent.builder, self->interrupted_mark);

          mark->text = ps_event_store_add_text (self->store, text, length);
          mark->flags |= PS_MARK_FLAG_REASSEMBLED;
        }
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-REASSEMBLED", line,
                             _("This line is the text of the message on line %llu, which another thread’s record interrupted"),
                             (unsigned long long)self->interrupted_line);
      self->interrupted_mark = PS_NO_POSITION;
      return;
    }

  if (!self->has_pending)
    {
      display = ps_util_display_text (text, MIN (length, 200));
      if (self->seen_record)
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-STRAY-TEXT", line,
                               _("Text that is not a record and follows no record it could continue: “%s”; it is ignored"),
                               display);
      else
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-STRAY-TEXT", line,
                               _("Text before the first record: “%s”; it is ignored"), display);
      return;
    }

  if (damaged)
    {
      display = ps_util_display_text (text, MIN (length, 200));
      rtl_warn_after_pending (self, PS_SEVERITY_WARNING, "W-DAMAGED-PREFIX", line,
                              g_strdup_printf (_("“%s” looks like a record with a damaged time or thread number; it is kept as text of the record before"),
                                               display));
    }

  if (self->pending.kind == '|')
    {
      g_string_append_c (self->pending_message, '\n');
      g_string_append_len (self->pending_message, text, length);
    }
  else
    {
      g_string_append_c (self->pending_name, '\n');
      g_string_append_len (self->pending_name, text, length);
    }
  self->pending.flags |= RECORD_CONTINUED;
}

static gboolean
parse_epoch (const char *p,
             const char *end,
             gint64     *ns)
{
  gint64 seconds = 0;
  gint64 fraction = 0;
  gint64 scale = G_GINT64_CONSTANT (100000000);

  if (p == end || !is_digit (*p))
    return FALSE;
  while (p < end && is_digit (*p))
    {
      if (seconds > G_MAXINT64 / 10 / 1000000000)
        return FALSE;
      seconds = seconds * 10 + (*p++ - '0');
    }
  if (p < end && (*p == '.' || *p == ','))
    {
      p++;
      if (p == end || !is_digit (*p))
        return FALSE;
      while (p < end && is_digit (*p))
        {
          fraction += (*p++ - '0') * scale;
          scale /= 10;
        }
    }
  if (p != end)
    return FALSE;

  *ns = seconds * G_GINT64_CONSTANT (1000000000) + fraction;
  return TRUE;
}

static void handle_logical_line (RtlParser  *self,
                                 const char *text,
                                 gsize       length,
                                 guint64     line,
                                 guint       flags);

/* The four fixed lines (§2.2). Returns FALSE if the text is none of them. */
static gboolean
handle_fixed_line (RtlParser  *self,
                   const char *text,
                   gsize       length,
                   guint64     line,
                   guint       flags)
{
  const char *end = text + length;
  gboolean overflow = FALSE;
  guint32 value;
  const char *p;

  if (has_prefix (text, length, OPENING_PREFIX, STRLEN (OPENING_PREFIX)))
    {
      gint64 epoch_ns;
      const char *number = text + STRLEN (OPENING_PREFIX);
      const char *suffix;

      if (length < STRLEN (OPENING_PREFIX) + STRLEN (OPENING_SUFFIX))
        return FALSE;
      suffix = end - STRLEN (OPENING_SUFFIX);
      if (memcmp (suffix, OPENING_SUFFIX, STRLEN (OPENING_SUFFIX)) != 0
          || !parse_epoch (number, suffix, &epoch_ns))
        return FALSE;

      flush_pending (self);
      if (self->session == PS_NONE || self->session_closed || self->session_has_records
          || self->session_has_opening)
        rtl_start_session (self, line, FALSE);
      self->session_has_opening = TRUE;
      self->session_has_epoch = TRUE;
      self->session_epoch_ns = epoch_ns;
      self->session_last_line = line;
      {
        g_autofree char *value_text = g_strndup (number, suffix - number);
        ps_event_store_set_metadata (self->store, self->session, "opening_time", value_text);
      }
      return TRUE;
    }

  if (has_prefix (text, length, TIMER_PREFIX, STRLEN (TIMER_PREFIX)))
    {
      const char *suffix;
      char digits[16];

      if (length < STRLEN (TIMER_PREFIX) + STRLEN (TIMER_SUFFIX))
        return FALSE;
      suffix = end - STRLEN (TIMER_SUFFIX);
      if (memcmp (suffix, TIMER_SUFFIX, STRLEN (TIMER_SUFFIX)) != 0)
        return FALSE;
      p = parse_u32 (text + STRLEN (TIMER_PREFIX), suffix, &value, &overflow);
      if (p != suffix || overflow)
        return FALSE;

      flush_pending (self);
      if (self->session == PS_NONE || self->session_closed)
        rtl_start_session (self, line, FALSE);
      self->session_last_line = line;
      g_snprintf (digits, sizeof digits, "%u", value);
      ps_event_store_set_metadata (self->store, self->session, "timer_at_opening_ms", digits);
      if (self->session_has_epoch)
        ps_event_store_set_session_origin (self->store, self->session,
                                           self->session_epoch_ns - (gint64)value * NS_PER_MS);
      return TRUE;
    }

  if (has_prefix (text, length, PID_PREFIX, STRLEN (PID_PREFIX)))
    {
      guint64 pid;
      char digits[24];

      p = text + STRLEN (PID_PREFIX);
      if (p == end)
        return FALSE;
      pid = 0;
      for (const char *q = p; q < end; q++)
        {
          if (!is_digit (*q) || q - p >= 19)
            return FALSE;
          pid = pid * 10 + (guint64)(*q - '0');
        }

      flush_pending (self);
      if (self->session == PS_NONE || self->session_closed
          || (self->session_has_records && self->session_has_pid))
        rtl_start_session (self, line, FALSE);
      self->session_last_line = line;

      if (self->session == 0 && self->has_file_pid && pid != self->file_pid)
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PID-MISMATCH", line,
                               _("The log says process id %llu, its file name says %llu; the log’s own value is kept"),
                               (unsigned long long)pid, (unsigned long long)self->file_pid);

      self->session_has_pid = TRUE;
      g_snprintf (digits, sizeof digits, "%" PRIu64, pid);
      ps_event_store_set_metadata (self->store, self->session, "process_id", digits);
      return TRUE;
    }

  if (has_prefix (text, length, CLOSING_PREFIX, STRLEN (CLOSING_PREFIX)))
    {
      gint64 close_ms;
      char digits[16];

      p = parse_u32 (text + STRLEN (CLOSING_PREFIX), end, &value, &overflow);
      if (p == NULL || overflow)
        return FALSE;

      flush_pending (self);
      rtl_ensure_session (self, line);
      self->session_last_line = line;

      /* Unwrapped against the last record of the log */
      if (self->last_thread != NULL && self->last_thread->has_time)
        close_ms = self->last_thread->last_ms + (gint32)(value - self->last_thread->last_raw);
      else
        close_ms = value;

      g_snprintf (digits, sizeof digits, "%u", value);
      ps_event_store_set_metadata (self->store, self->session, "closing_time_ms", digits);
      rtl_end_session (self, TRUE, close_ms);
      self->session_closed = TRUE;

      /* Concatenated logs: the next one begins right after (§7 #21) */
      if (p < end)
        handle_logical_line (self, p, end - p, line, flags);
      return TRUE;
    }

  return FALSE;
}

/* Makes a record of the text after a prefix; splits off a record written
 * into its message (§4.2 step 3). Returns where that inner record starts,
 * or NULL. */
static const char *
fill_record (Record     *r,
             const char *body,
             const char *end,
             gboolean    timed)
{
  gsize length = end - body;

  if (r->kind != '|')
    {
      r->name = body;
      r->name_length = length;
      r->message = NULL;
      r->message_length = 0;
      return NULL;
    }

  if (timed && length > 0 && is_digit (body[0]) && starts_with_record (body, end))
    {
      r->name = body;
      r->name_length = 0;
      r->message = body;
      r->message_length = 0;
      r->flags |= RECORD_INTERRUPTED;
      return body;
    }

  split_message (r, body, length);
  if (timed && r->message_length > 0 && is_digit (r->message[0])
      && starts_with_record (r->message, r->message + r->message_length))
    {
      const char *inner = r->message;

      r->message_length = 0;
      r->flags |= RECORD_INTERRUPTED;
      return inner;
    }

  return NULL;
}

/* One line without NUL bytes (§4.2 steps 2–5) */
static void
handle_logical_line (RtlParser  *self,
                     const char *text,
                     gsize       length,
                     guint64     line,
                     guint       flags)
{
  const char *end = text + length;
  const char *p = text;
  const char *body;
  const char *inner;
  PrefixResult result;
  Record r = { 0 };

  if (length == 0)
    return;

  if ((text[0] == 'o' || text[0] == 'c' || text[0] == 'P')
      && handle_fixed_line (self, text, length, line, flags))
    return;

  r.line = line;
  r.flags = flags;
  r.name_sid = PS_NONE;

  /* Leading blanks before a prefix (§7 #12) */
  if (ps_parse_is_blank (*p))
    {
      while (p < end && ps_parse_is_blank (*p))
        p++;
      if (p < end && is_digit (*p) && starts_with_record (p, end))
        {
          flush_pending (self);
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-LEADING-SPACE", line,
                                 _("Blanks before the record’s time; they are ignored"));
        }
      else
        p = text;
    }

  result = is_digit (*p) ? parse_prefix (p, end, &r.time, &r.thread, &r.kind, &body) : PREFIX_NONE;

  if (result == PREFIX_OK)
    {
      inner = fill_record (&r, body, end, TRUE);
      submit_record (self, &r);
      if (inner != NULL)
        {
          g_autofree char *display = ps_util_display_text (text, inner - text);

          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-INTERRUPTED", line,
                                 _("Another record was written into the message “%s”; the two are separated and the message’s text is taken from the next line that has no time"),
                                 display);
          handle_logical_line (self, inner, end - inner, line, flags & ~RECORD_TRUNCATED_NUL);
        }
      return;
    }

  if (result == PREFIX_NONE && is_digit (*p))
    {
      /* A bare prefix whose text the writer dropped (§7 #17) */
      guint32 time, thread;
      gboolean overflow_time = FALSE, overflow_thread = FALSE;
      const char *q = parse_u32 (p, end, &time, &overflow_time);

      if (q != NULL && q < end && ps_parse_is_blank (*q))
        {
          while (q < end && ps_parse_is_blank (*q))
            q++;
          q = parse_u32 (q, end, &thread, &overflow_thread);
          if (q != NULL && q < end && ps_parse_is_blank (*q) && !overflow_time && !overflow_thread)
            {
              while (q < end && ps_parse_is_blank (*q))
                q++;
              if (q < end && is_digit (*q) && starts_with_record (q, end))
                {
                  r.time = time;
                  r.thread = thread;
                  r.kind = '|';
                  r.name = r.message = q;
                  r.name_length = r.message_length = 0;
                  r.flags = RECORD_LOST;
                  flush_pending (self);
                  ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-LOST", line,
                                         _("A record of thread %u at %u ms lost its text (the writer dropped an over-long message); a placeholder is kept"),
                                         thread, time);
                  submit_record (self, &r);
                  handle_logical_line (self, q, end - q, line, flags);
                  return;
                }
            }
        }
    }

  /* Records without prefix: the log bridge, raw rtl_logfile_trace (§7 #8) */
  if (is_kind (text[0]) && (length == 1 || text[1] == ' '))
    {
      r.kind = text[0];
      r.flags |= RECORD_UNTIMED;
      fill_record (&r, text + MIN (length, 2), end, FALSE);
      submit_record (self, &r);
      return;
    }

  if (result == PREFIX_TOO_LARGE)
    {
      g_autofree char *display = ps_util_display_text (text, MIN (length, 200));

      rtl_warn_after_pending (self, PS_SEVERITY_WARNING, "W-DAMAGED-PREFIX", line,
                              g_strdup_printf (_("“%s”: the time or thread number does not fit in 32 bits, so this is not a record"),
                                               display));
      handle_text (self, text, length, line, FALSE);
      return;
    }

  handle_text (self, text, length, line, is_digit (text[0]));
}

static void
handle_line (const PsLine *line,
             gpointer      user_data)
{
  RtlParser *self = user_data;
  const char *text = line->text;
  gsize length = line->length;
  guint flags = line->terminated ? 0 : RECORD_TRUNCATED_EOF;
  const char *nul;

  /* Text before a NUL byte is a record the writer cut off (§2.5, §7 #16).
   * Each part is handled before its warning, so that warnings come in the
   * order of their lines however the input was split. */
  while ((nul = memchr (text, '\0', length)) != NULL)
    {
      gsize before = nul - text;

      if (before > 0)
        {
          handle_logical_line (self, text, before, line->number, RECORD_TRUNCATED_NUL);
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-TRUNCATED-NUL", line->number,
                                 _("A record was cut off by a NUL byte after %zu bytes (an over-long message); the rest of the line is read as a new record"),
                                 before);
        }
      text = nul + 1;
      length -= before + 1;
    }

  handle_logical_line (self, text, length, line->number, flags);

  if (G_UNLIKELY (line->truncated))
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-LONGLINE", line->number,
                           _("The line is longer than %d MiB; only its first %d MiB are read"),
                           MAX_LINE_LENGTH / (1024 * 1024), MAX_LINE_LENGTH / (1024 * 1024));
}

/* ------------------------------------------------------------------------ */
/* The fast path                                                             */

/* Line ends are found ahead of the records, a few dozen lines at a time:
 * a search from each record's text to its end would stop after a number
 * of steps that changes from line to line, and the processor would guess
 * it wrong at every line. The first look is short, as input of other
 * lines leaves the fast path after a line or two. */
#define FIRST_INDEX_LINES 4
#define INDEX_LINES       64

/* The offsets from base of the LF and NUL bytes from base + *indexed on
 * (which is moved on past them), in order: at least max of them unless
 * base + limit comes first. Up to 64 more may be
 * written: ends has room for max + 64. Sixty-four bytes are looked at in
 * one step where SSE2 is there (it is on every x86-64; the compilers that
 * say so have the bit builtins). */
static guint
index_line_ends (const char *base,
                 guint32     limit,
                 guint32    *indexed,
                 guint32    *ends,
                 guint       max)
{
  guint32 b = *indexed;
  guint n = 0;

#ifdef __SSE2__
  const __m128i lf = _mm_set1_epi8 ('\n');
  const __m128i nul = _mm_setzero_si128 ();

  while (n < max && limit - b >= 64)
    {
      guint64 mask = 0;

      __builtin_prefetch (base + b + 1024);
      for (guint k = 0; k < 4; k++)
        {
          __m128i bytes = _mm_loadu_si128 ((const __m128i *)(const void *)(base + b + 16 * k));

          mask |= (guint64)(guint)_mm_movemask_epi8 (_mm_or_si128 (_mm_cmpeq_epi8 (bytes, lf),
                                                                   _mm_cmpeq_epi8 (bytes, nul)))
                  << (16 * k);
        }

      /* Two ends are written whether they are there or not (a line of
       * a log is some sixty bytes long), and counted only if they are:
       * no guess about their number */
      ends[n] = b + (guint32)__builtin_ctzll (mask | G_GUINT64_CONSTANT (1) << 63);
      n += mask != 0;
      mask &= mask - 1;
      ends[n] = b + (guint32)__builtin_ctzll (mask | G_GUINT64_CONSTANT (1) << 63);
      n += mask != 0;
      mask &= mask - 1;
      while (mask != 0)
        {
          ends[n++] = b + (guint32)__builtin_ctzll (mask);
          mask &= mask - 1;
        }
      b += 64;
    }
#endif

  for (; n < max && b < limit; b++)
    if (base[b] == '\n' || base[b] == '\0')
      ends[n++] = b;

  *indexed = b;
  return n;
}

/* A plain timed record, as the scanner found it in the read buffer */
typedef struct
{
  const char *name;
  const char *message;         /* '|' only */
  guint32     name_sid;        /* the scanner's id of the name; PS_NONE if empty */
  guint32     name_length;
  guint32     message_length;
  guint32     time;
  guint32     thread;
  char        kind;
} Token;

/* Plain records from p on, at most max_tokens lines of them, each taken
 * only when nothing about it needs the general path: its line ends in
 * view with a LF (no NUL, no CR before it), the next line is a record
 * too (so that nothing continues this one), and a message has its " : "
 * and no record written into it. Reads nothing but the bytes, so that it
 * may run on another thread than the records' processing (names is the
 * scanning thread's). Returns the number of tokens. */
static guint
scan_records (ScanNames  *names,
              const char *p,
              const char *end,
              Token      *tokens,
              guint       max_tokens,
              const char **next)
{
  guint n = 0;
  /* The tokens' fields are written one by one where they go: a token
   * made on the stack and copied whole would be read back in wider
   * loads than it was written with, which stalls the store */
  guint32 time;
  guint32 thread;
  char kind;
  Token following;
  const char *body;
  const char *following_body;
  Record r;

  guint32 ends[INDEX_LINES + 64];
  guint n_ends = 0;
  guint next_end = 0;
  guint32 indexed = 0;
  /* Offsets fit in 32 bits: that much input is far more than a block */
  guint32 limit = (guint32)MIN ((gsize)(end - p), G_MAXUINT32);
  guint batch = FIRST_INDEX_LINES;

  *next = p;
  if (!parse_common_prefix (p, end, &time, &thread, &kind, &body)
      && parse_prefix (p, end, &time, &thread, &kind, &body) != PREFIX_OK)
    return 0;

  while (n < max_tokens)
    {
      Token *t = &tokens[n];
      const char *lf;

      if (next_end == n_ends)
        {
          n_ends = index_line_ends (p, limit, &indexed, ends, batch);
          next_end = 0;
          batch = MIN (batch * 4, INDEX_LINES);
          /* The end of the line out of view */
          if (n_ends == 0)
            break;
        }
      /* The prefix has neither LF nor NUL: the next end is this line's */
      lf = p + ends[next_end++];

      /* A NUL, a CR before the LF, or the line after out of view */
      if (*lf != '\n' || lf + 1 >= end || (lf > body && lf[-1] == '\r'))
        break;

      if (!parse_common_prefix (lf + 1, end, &following.time, &following.thread, &following.kind, &following_body)
          && parse_prefix (lf + 1, end, &following.time, &following.thread, &following.kind,
                           &following_body) != PREFIX_OK)
        break;
      /* Whether the next line is a record depends on the byte after its
       * kind ("}x" is not one): that byte must be in view, or the answer
       * would depend on where the input was cut */
      if (following_body >= end)
        break;

      if (kind == '|')
        {
          if (lf > body && is_digit (body[0]))
            break;
          r.flags = 0;
          split_message (&r, body, lf - body);
          if ((r.flags & RECORD_NO_SEPARATOR) || (r.message_length > 0 && is_digit (r.message[0])))
            break;
          t->name = r.name;
          t->name_length = (guint32)r.name_length;
          t->message = r.message;
          t->message_length = (guint32)r.message_length;
        }
      else
        {
          t->name = body;
          t->name_length = (guint32)(lf - body);
          t->message = NULL;
          t->message_length = 0;
        }
      t->name_sid = t->name_length > 0 ? rtl_scan_name_id (names, t->name, t->name_length, end) : PS_NONE;
      t->time = time;
      t->thread = thread;
      t->kind = kind;

      n++;
      *next = lf + 1;
      time = following.time;
      thread = following.thread;
      kind = following.kind;
      body = following_body;
    }

  return n;
}

static inline void
token_record (Record      *r,
              const Token *t,
              guint64      line)
{
  r->line = line;
  r->time = t->time;
  r->thread = t->thread;
  r->kind = t->kind;
  r->flags = 0;
  r->name = t->name;
  r->name_length = t->name_length;
  r->message = t->message;
  r->message_length = t->message_length;
  r->name_sid = t->name_sid;
}

/* A run of tokens, as rtl_process_record() takes them. The first one may
 * begin a session and goes through it; so do messages and anything but
 * the begin of a named scope and the end of the innermost one, which are
 * taken here at once. */
static void
process_tokens (RtlParser   *self,
                const Token *tokens,
                guint        n_tokens,
                guint64      line_number)
{
  Record r;

  if (n_tokens == 0)
    return;

  if (G_UNLIKELY (self->has_pending))
    flush_pending (self);
  token_record (&r, &tokens[0], line_number);
  rtl_process_record (self, &r);

  for (guint i = 1; i < n_tokens; i++)
    {
      const Token *t = &tokens[i];
      guint64 line = line_number + i;
      ThreadState *thread;
      gint64 ms;

#ifdef __GNUC__
      /* A record's bytes are read here for the first time on this thread
       * (the scanner's core read them; a message follows its name): ask
       * for them early */
      if (i + PREFETCH_TOKENS < n_tokens)
        __builtin_prefetch (tokens[i + PREFETCH_TOKENS].name);
#endif

      if (t->kind == '|' || t->name_sid == PS_NONE)
        {
          token_record (&r, t, line);
          rtl_process_record (self, &r);
          continue;
        }

      thread = get_thread (self, t->thread, line);
      ms = advance_time (self, thread, t->time, line);
      self->last_thread = thread;

      if (t->kind == '{')
        {
          token_record (&r, t, line);
          rtl_open_scope (self, thread, &r, 0);
        }
      else if (ends_innermost (thread, t->name, t->name_length, t->name_sid))
        rtl_close_scope (self, thread, thread->stack.len - 1, ms, 0);
      else
        {
          token_record (&r, t, line);
          rtl_end_scope (self, thread, ms, &r);
        }
    }

  self->session_last_line = line_number + n_tokens - 1;
}

/* The scanning stage. What it found in a chunk, in file order: runs of
 * tokens and the lines between them, which the general path takes. The
 * tokens and the lines point into the chunk, which stays valid until the
 * batch is applied; a line that is not in it (carried over from the
 * chunk before) is copied. */

typedef struct
{
  guint64 first_line;
  guint   first;      /* the first token of the run, or the line's index in lines */
  guint   n_tokens;   /* 0: a line */
} Piece;

struct _Batch
{
  Token      *tokens;
  guint       n_tokens;
  guint       tokens_size;
  GArray     *pieces;   /* Piece */
  PsKeptLines lines;    /* the chunk scanned and the lines between the runs */
};

static gpointer
batch_new (void)
{
  Batch *batch = g_new0 (Batch, 1);

  batch->pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  ps_kept_lines_init (&batch->lines);
  return batch;
}

static void
batch_release (RtlParser *self,
               Batch     *batch)
{
  batch->n_tokens = 0;
  g_array_set_size (batch->pieces, 0);
  ps_line_batches_give_back (&self->batches, batch);
}

static void
batch_free (gpointer data)
{
  Batch *batch = data;

  g_free (batch->tokens);
  g_array_unref (batch->pieces);
  ps_kept_lines_clear (&batch->lines);
  g_free (batch);
}

/* The line reader's fast path: runs of plain records */
static gsize
scan_fast_lines (const PsLineRun *run,
                 guint64         *n_lines,
                 gpointer         user_data)
{
  RtlParser *self = user_data;
  Batch *batch = self->batches.filling;
  const char *p = run->data;
  const char *end = run->data + run->available;
  Piece piece = { run->line_number, batch->n_tokens, 0 };

  for (;;)
    {
      const char *next;
      guint room;
      guint n;

      if (batch->tokens_size - batch->n_tokens < TOKEN_RUN)
        {
          batch->tokens_size = MAX (batch->tokens_size * 2, 2 * TOKEN_RUN);
          batch->tokens = g_renew (Token, batch->tokens, batch->tokens_size);
        }
      room = batch->tokens_size - batch->n_tokens;
      n = scan_records (&self->scan_names, p, end, batch->tokens + batch->n_tokens, room, &next);
      batch->n_tokens += n;
      p = next;
      if (n < room)
        break;
    }

  piece.n_tokens = batch->n_tokens - piece.first;
  if (piece.n_tokens > 0)
    g_array_append_val (batch->pieces, piece);
  *n_lines = piece.n_tokens;
  return p - run->data;
}

/* Every other line, for the general path */
static void
scan_line (const PsLine *line,
           gpointer      user_data)
{
  RtlParser *self = user_data;
  Batch *batch = self->batches.filling;
  Piece piece = { line->number, 0, 0 };

  piece.first = ps_kept_lines_add (&batch->lines, line);
  g_array_append_val (batch->pieces, piece);
}

static void
apply_batch (RtlParser *self,
             Batch     *batch)
{
  for (guint i = 0; i < batch->pieces->len; i++)
    {
      const Piece *piece = &g_array_index (batch->pieces, Piece, i);

      if (piece->n_tokens > 0)
        process_tokens (self, batch->tokens + piece->first, piece->n_tokens, piece->first_line);
      else
        handle_line (ps_kept_lines_get (&batch->lines, piece->first), self);
    }
}

/* ------------------------------------------------------------------------ */
/* PsParser                                                                  */

static gpointer
rtl_scan (PsParser     *parser,
          const guint8 *data,
          gsize         length)
{
  RtlParser *self = (RtlParser *)parser;

  return ps_line_batches_scan (&self->batches, self->reader, data, length);
}

/* The options are set before the first input */
static void
read_options (RtlParser *self)
{
  if (self->options_read)
    return;
  self->options_read = TRUE;
  if (g_strcmp0 (ps_parser_get_option (&self->parent, PS_FORMAT_OPTION_TOTALS_ONLY), "true") == 0)
    self->totals = ps_span_totals_new (0);
}

static gboolean
rtl_apply (PsParser  *parser,
           gpointer   scanned,
           GError   **error)
{
  RtlParser *self = (RtlParser *)parser;

  read_options (self);
  apply_batch (self, scanned);
  batch_release (self, scanned);

  return TRUE;
}

static void
rtl_stop_scanning (PsParser *parser)
{
  RtlParser *self = (RtlParser *)parser;

  ps_line_reader_drop_carry (self->reader);
}

static gboolean
rtl_feed (PsParser      *parser,
          const guint8  *data,
          gsize          length,
          GError       **error)
{
  return rtl_apply (parser, rtl_scan (parser, data, length), error);
}

static gboolean
rtl_finish (PsParser  *parser,
            GError   **error)
{
  RtlParser *self = (RtlParser *)parser;

  rtl_apply (parser, ps_line_batches_finish (&self->batches, self->reader), NULL);

  flush_pending (self);
  if (self->session != PS_NONE && !self->session_closed)
    rtl_end_session (self, FALSE, 0);
  ps_store_builder_flush (self->parent.builder);
  if (self->totals != NULL)
    {
      ps_span_totals_finish (self->totals, NULL);
      ps_store_builder_set_span_totals (self->parent.builder, g_steal_pointer (&self->totals));
    }

  return TRUE;
}

static void
rtl_free (PsParser *parser)
{
  RtlParser *self = (RtlParser *)parser;

  ps_line_batches_clear (&self->batches);
  ps_line_reader_free (self->reader);
  g_hash_table_unref (self->threads);
  g_ptr_array_unref (self->thread_list);
  g_string_free (self->pending_name, TRUE);
  g_string_free (self->pending_message, TRUE);
  g_ptr_array_unref (self->deferred);
  g_free (self->names.slots);
  g_free (self->scan_names.table.slots);
  g_string_chunk_free (self->scan_names.texts);
  g_array_unref (self->scanned_names);
  g_clear_pointer (&self->totals, ps_span_totals_free);
  g_array_unref (self->ended_parents);
  g_array_unref (self->sid_groups);
  g_clear_object (&self->store);
  g_free (self);
}

static const PsParserClass rtl_parser_class = {
  rtl_feed,
  rtl_finish,
  rtl_free,
};

static const PsParserStages rtl_parser_stages = {
  rtl_scan,
  rtl_apply,
  rtl_stop_scanning,
};

static PsParser *
rtl_parser_new (PsStoreBuilder *builder)
{
  RtlParser *self = g_new0 (RtlParser, 1);

  self->parent.klass = &rtl_parser_class;
  self->parent.stages = &rtl_parser_stages;
  self->parent.builder = builder;
  self->store = g_object_ref (ps_store_builder_get_store (builder));
  self->session = PS_NONE;
  self->threads = g_hash_table_new_full (NULL, NULL, NULL, rtl_thread_state_free);
  self->thread_list = g_ptr_array_new ();
  self->pending_name = g_string_new (NULL);
  self->pending_message = g_string_new (NULL);
  self->deferred = g_ptr_array_new_with_free_func (rtl_deferred_free);
  rtl_name_table_grow (&self->names);
  rtl_name_table_grow (&self->scan_names.table);
  self->scan_names.texts = g_string_chunk_new (4096);
  self->scanned_names = g_array_new (FALSE, FALSE, sizeof (Interned));
  self->sid_groups = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->ended_parents = g_array_new (FALSE, FALSE, sizeof (EndedParent));
  self->interrupted_mark = PS_NO_POSITION;
  ps_line_batches_init (&self->batches, batch_new, batch_free, G_STRUCT_OFFSET (Batch, lines));

  self->reader = ps_line_reader_new (scan_line, self);
  ps_line_reader_set_detect_encoding (self->reader, TRUE);
  ps_line_reader_set_lf_only (self->reader, TRUE);
  ps_line_reader_set_max_line_length (self->reader, MAX_LINE_LENGTH);
  ps_line_reader_set_fast_func (self->reader, scan_fast_lines);

  return &self->parent;
}

/* ------------------------------------------------------------------------ */
/* Sniffing                                                                  */

static guint
rtl_sniff (const guint8 *data,
           gsize         length,
           const char   *file_name)
{
  const char *text = (const char *)data;
  const char *end = text + length;
  const char *p = text;
  guint n_records = 0;
  guint n_lines = 0;

  if (length >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
    p += 3;

  if (has_prefix (p, end - p, OPENING_PREFIX, STRLEN (OPENING_PREFIX))
      || has_prefix (p, end - p, PID_PREFIX, STRLEN (PID_PREFIX)))
    {
      const char *lf = memchr (p, '\n', end - p);
      gsize first = lf ? (gsize)(lf - p) : (gsize)(end - p);

      if (g_strstr_len (p, first, "seconds past January 1st 1970") != NULL
          || has_prefix (p, end - p, PID_PREFIX, STRLEN (PID_PREFIX)))
        return 95;
    }

  /* Otherwise: most of the first lines are records */
  while (p < end && n_lines < 20)
    {
      const char *lf = memchr (p, '\n', end - p);
      const char *line_end = lf ? lf : end;
      guint32 time, thread;
      char kind;
      const char *body;

      if (lf == NULL && n_lines > 0)
        break;
      if (line_end > p)
        {
          n_lines++;
          if (parse_prefix (p, line_end, &time, &thread, &kind, &body) == PREFIX_OK)
            n_records++;
        }
      p = line_end + 1;
    }

  if (n_lines > 0 && n_records * 2 > n_lines)
    {
      guint score = n_records >= 3 ? 70 : 40;

      if (file_name != NULL && g_str_has_suffix (file_name, ".log"))
        score += 5;
      return score;
    }

  return 0;
}

static const char * const rtl_extensions[] = { "log", "nopid", NULL };
static const char * const rtl_mime_types[] = { "application/x-perfscope-rtl-log", "text/plain", NULL };

const PsFormat ps_format_rtl_logfile = {
  "rtl-logfile",
  N_("OpenOffice RTL log"),
  N_("Profiling logs that OpenOffice.org, Apache OpenOffice and early LibreOffice write when RTL_LOGFILE is set"),
  rtl_extensions,
  rtl_mime_types,
  rtl_sniff,
  rtl_parser_new,
};

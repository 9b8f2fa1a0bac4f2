/* ps-format-rtl-scopes.c — sessions, threads and scopes of an RTL log
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.1 (sessions, records, scopes), §4.2 (the
 * pairing algorithm) and §7 (every malformed case).
 *
 * The records that ps-format-rtl-logfile.c reads become sessions, threads,
 * spans and marks here: names are interned through the parser's own table,
 * each thread's clock is unwrapped, and scopes are paired on each thread's
 * stack of open scopes, every repair a warning with its line number.
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
/* Names                                                                     */

static inline guint64
hash_bytes (const char *text,
            gsize       length)
{
  guint64 h = 0x9E3779B97F4A7C15u ^ length;

  while (length >= 8)
    {
      guint64 word;

      memcpy (&word, text, 8);
      h = (h ^ word) * 0xFF51AFD7ED558CCDu;
      h ^= h >> 32;
      text += 8;
      length -= 8;
    }
  if (length > 0)
    {
      guint64 word = 0;

      memcpy (&word, text, length);
      h = (h ^ word) * 0xC4CEB9FE1A85EC53u;
      h ^= h >> 29;
    }
  return h;
}

void
rtl_name_table_grow (NameTable *table)
{
  guint n_slots = table->slots != NULL ? (table->mask + 1) * 2 : 1024;
  NameSlot *slots = g_new0 (NameSlot, n_slots);

  for (guint i = 0; table->slots != NULL && i <= table->mask; i++)
    {
      NameSlot *slot = &table->slots[i];
      guint j;

      if (slot->text == NULL)
        continue;
      for (j = slot->hash & (n_slots - 1); slots[j].text != NULL; j = (j + 1) & (n_slots - 1))
        ;
      slots[j] = *slot;
    }

  g_free (table->slots);
  table->slots = slots;
  table->mask = n_slots - 1;
}

/* The string id of a scope name, interned, and the store's copy of it */
Interned
rtl_intern_name (RtlParser  *self,
                 const char *text,
                 gsize       length)
{
  NameTable *table = &self->names;
  Interned interned;
  guint64 hash;
  guint i;

  if (length == 0)
    return (Interned) { 0, "" };

  hash = hash_bytes (text, length);
  for (i = hash & table->mask; table->slots[i].text != NULL; i = (i + 1) & table->mask)
    {
      const NameSlot *slot = &table->slots[i];

      if (slot->hash == hash && slot->length == length && memcmp (slot->text, text, length) == 0)
        return (Interned) { slot->id, slot->text };
    }

  table->slots[i].hash = hash;
  table->slots[i].length = (guint32)MIN (length, G_MAXUINT32);
  table->slots[i].id = ps_event_store_intern (self->store, text, length);
  table->slots[i].text = ps_event_store_get_string (self->store, table->slots[i].id);
  interned = (Interned) { table->slots[i].id, table->slots[i].text };
  if (++table->n_used * 2 > table->mask)
    rtl_name_table_grow (table);

  return interned;
}

/* A hash of a name's length, first and last eight bytes: it costs the
 * same for every name, and the names of a log differ there (the module
 * and author in front, the function at the end); the comparison of the
 * bytes decides anyway */
static inline guint64
scan_hash (const char *text,
           gsize       length)
{
  guint64 first = 0;
  guint64 last = 0;
  guint64 h;

  if (length >= 8)
    {
      memcpy (&first, text, 8);
      memcpy (&last, text + length - 8, 8);
    }
  else
    {
      for (gsize i = 0; i < length; i++)
        first |= (guint64)(guchar)text[i] << (8 * i);
    }

  h = (first ^ length) * 0x9E3779B97F4A7C15u;
  h ^= last * 0xC2B2AE3D27D4EB4Fu;
  return h ^ (h >> 31);
}

/* memcmp() == 0 for the length of a name, in words and without a call:
 * the scanner compares every name it sees */
static inline gboolean
same_bytes (const char *a,
            const char *b,
            gsize       length)
{
  guint64 word_a, word_b;
  gsize i;

  if (length < 8)
    {
      for (i = 0; i < length; i++)
        if (a[i] != b[i])
          return FALSE;
      return TRUE;
    }

  for (i = 0; i + 8 < length; i += 8)
    {
      memcpy (&word_a, a + i, 8);
      memcpy (&word_b, b + i, 8);
      if (word_a != word_b)
        return FALSE;
    }
  /* The last eight bytes, overlapping what was compared */
  memcpy (&word_a, a + length - 8, 8);
  memcpy (&word_b, b + length - 8, 8);
  return word_a == word_b;
}

/* The scanner's copies of the names are followed by this many bytes, so
 * that a comparison may read that far past a name */
#define NAME_PADDING 64

/* same_bytes() for a name of the scanner's table (padded) and a name in
 * the read buffer, which ends at text_end: names of up to 64 bytes with
 * 64 bytes in view are compared in four steps of sixteen, whatever their
 * length, so that the processor has no loop end to guess */
static inline gboolean
same_name_bytes (const char *padded,
                 const char *text,
                 gsize       length,
                 const char *text_end)
{
#ifdef __SSE2__
  if (length <= 64 && text_end - text >= 64)
    {
      guint64 equal = 0;
      guint64 wanted = length == 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << length) - 1;

      for (guint k = 0; k < 4; k++)
        {
          __m128i a = _mm_loadu_si128 ((const __m128i *)(const void *)(padded + 16 * k));
          __m128i b = _mm_loadu_si128 ((const __m128i *)(const void *)(text + 16 * k));

          equal |= (guint64)(guint)_mm_movemask_epi8 (_mm_cmpeq_epi8 (a, b)) << (16 * k);
        }
      return (~equal & wanted) == 0;
    }
#else
  (void)text_end;
#endif
  return same_bytes (padded, text, length);
}

/* The scanner's id of a name: an entry of its own table, so that nothing
 * here touches the store. The read buffer ends at text_end. */
guint32
rtl_scan_name_id (ScanNames  *names,
                  const char *text,
                  gsize       length,
                  const char *text_end)
{
  NameTable *table = &names->table;
  guint64 hash = scan_hash (text, length);
  char *copy;
  guint i;

  for (i = hash & table->mask; table->slots[i].text != NULL; i = (i + 1) & table->mask)
    {
      const NameSlot *slot = &table->slots[i];

      if (slot->hash == hash && slot->length == length && same_name_bytes (slot->text, text, length, text_end))
        return slot->id;
    }

  copy = g_malloc0 (length + NAME_PADDING);
  memcpy (copy, text, length);
  table->slots[i].hash = hash;
  table->slots[i].length = (guint32)length;
  table->slots[i].id = table->n_used;
  table->slots[i].text = g_string_chunk_insert_len (names->texts, copy, length + NAME_PADDING);
  g_free (copy);
  if (++table->n_used * 2 > table->mask)
    rtl_name_table_grow (table);

  return table->n_used - 1;
}


/* A record's name, interned; through the scanner's id when it has one */
static Interned
record_name (RtlParser    *self,
             const Record *r)
{
  if (r->name_sid == PS_NONE)
    return rtl_intern_name (self, r->name, r->name_length);
  return scanned_name (self, r->name_sid, r->name, r->name_length);
}

/* ------------------------------------------------------------------------ */
/* Sessions and threads                                                      */

void
rtl_thread_state_free (gpointer data)
{
  ThreadState *thread = data;

  g_free (thread->stack.items);
  g_free (thread);
}

void
rtl_deferred_free (gpointer data)
{
  Deferred *deferred = data;

  g_free (deferred->message);
  g_free (deferred);
}

/* A warning about a line after the pending record: given once that
 * record is processed, so that warnings come in the order of their lines.
 * Takes the message. */
void
rtl_warn_after_pending (RtlParser  *self,
                        PsSeverity  severity,
                        const char *code,
                        guint64     line,
                        char       *message)
{
  Deferred *deferred;

  if (!self->has_pending)
    {
      ps_parse_warn_at_line (&self->parent, self->session, severity, code, line, "%s", message);
      g_free (message);
      return;
    }

  deferred = g_new (Deferred, 1);
  deferred->severity = severity;
  deferred->code = code;
  deferred->line = line;
  deferred->message = message;
  g_ptr_array_add (self->deferred, deferred);
}

/* Everything still open ends with the session: a lower bound up to the
 * close time, or to the thread's last record (§4.2 step 10, §7 #24). */
void
rtl_end_session (RtlParser *self,
                 gboolean   has_close,
                 gint64     close_ms)
{
  if (self->session == PS_NONE)
    return;

  for (guint i = 0; i < self->thread_list->len; i++)
    {
      ThreadState *thread = g_ptr_array_index (self->thread_list, i);

      while (thread->stack.len > 0)
        {
          OpenScope *open = &thread->stack.items[thread->stack.len - 1];
          gint64 end_ms = has_close ? MAX (close_ms, open->begin_ms) : MAX (thread->last_ms, open->begin_ms);
          g_autofree char *name = ps_util_display_text (open->name, open->name_length);

          if (has_close)
            ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-UNTERMINATED", open->line,
                                   _("Scope “%s” on thread %u never ended; its duration is at least %lld ms, up to the close of the log"),
                                   name, thread->id, (long long)(end_ms - open->begin_ms));
          else
            ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-UNTERMINATED", open->line,
                                   _("Scope “%s” on thread %u never ended; its duration is at least %lld ms, up to the thread’s last record"),
                                   name, thread->id, (long long)(end_ms - open->begin_ms));
          rtl_close_scope (self, thread, thread->stack.len - 1, end_ms, PS_SPAN_FLAG_UNTERMINATED);
        }
    }

  ps_event_store_set_session_end (self->store, self->session, self->session_last_line);
  g_hash_table_remove_all (self->threads);
  memset (self->small_threads, 0, sizeof self->small_threads);
  g_ptr_array_set_size (self->thread_list, 0);
  self->last_thread = NULL;
  self->interrupted_mark = PS_NO_POSITION;
}

static void
check_file_pid (RtlParser *self)
{
  const char *name = self->parent.file_name;
  const char *dot;
  const char *p;

  self->file_name_checked = TRUE;
  if (name == NULL)
    return;

  /* <value>_<digits>.log (§2.1) */
  dot = strrchr (name, '.');
  if (dot == NULL || g_ascii_strcasecmp (dot, ".log") != 0)
    return;
  p = dot;
  while (p > name && is_digit (p[-1]))
    p--;
  if (p == dot || p == name || p[-1] != '_' || dot - p > 10)
    return;

  self->file_pid = g_ascii_strtoull (p, NULL, 10);
  self->has_file_pid = self->file_pid <= G_MAXUINT32;
}

void
rtl_start_session (RtlParser *self,
                   guint64    line,
                   gboolean   implicit)
{
  gboolean concatenated = self->session != PS_NONE;

  if (concatenated && !self->session_closed)
    rtl_end_session (self, FALSE, 0);

  if (!self->file_name_checked)
    check_file_pid (self);

  self->session = ps_event_store_add_session (self->store, line, implicit);
  /* Groups are per session */
  g_array_set_size (self->sid_groups, 0);
  if (concatenated)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-CONCAT", line,
                           _("Another log starts here (the file holds several logs one after the other); it is read as a separate session"));
  self->session_closed = FALSE;
  self->session_has_records = FALSE;
  self->session_has_opening = FALSE;
  self->session_has_pid = FALSE;
  self->session_has_epoch = FALSE;
  self->session_last_line = line;

  if (self->session == 0 && self->has_file_pid)
    {
      g_autofree char *pid = g_strdup_printf ("%" PRIu64, self->file_pid);
      ps_event_store_set_metadata (self->store, self->session, "process_id", pid);
    }
}

void
rtl_ensure_session (RtlParser *self,
                    guint64    line)
{
  if (self->session == PS_NONE || self->session_closed)
    rtl_start_session (self, line, TRUE);
}

G_NO_INLINE ThreadState *
rtl_find_thread (RtlParser *self,
                 guint32    id,
                 guint64    line)
{
  ThreadState *thread = NULL;
  PsTrack track = { 0 };
  char name[16];

  /* Large ids (Windows numbers its threads so) come in runs */
  if (self->last_thread != NULL && self->last_thread->id == id)
    return self->last_thread;
  if (id >= SMALL_THREAD_IDS)
    thread = g_hash_table_lookup (self->threads, GUINT_TO_POINTER (id));
  if (thread != NULL)
    return thread;

  g_snprintf (name, sizeof name, "%u", id);
  track.name = ps_event_store_intern (self->store, name, -1);
  track.parent = PS_NONE;
  track.session = self->session;
  track.number = id;
  track.ordinal = self->thread_list->len + 1;
  track.line = line;
  track.kind = PS_TRACK_THREAD;

  thread = g_new0 (ThreadState, 1);
  thread->id = id;
  thread->track = ps_event_store_add_track (self->store, &track);
  g_hash_table_insert (self->threads, GUINT_TO_POINTER (id), thread);
  if (id < SMALL_THREAD_IDS)
    self->small_threads[id] = thread;
  g_ptr_array_add (self->thread_list, thread);

  return thread;
}


/* Serial-number arithmetic on the 32-bit millisecond timer (§4.2 step 6) */
G_NO_INLINE gint64
rtl_advance_time_warn (RtlParser   *self,
                       ThreadState *thread,
                       guint32      raw,
                       guint64      line)
{
  gint32 delta;

  if (G_UNLIKELY (!thread->has_time))
    {
      thread->has_time = TRUE;
      thread->last_raw = raw;
      thread->last_ms = raw;
      return thread->last_ms;
    }

  delta = (gint32)(raw - thread->last_raw);
  if (G_UNLIKELY (delta < 0))
    {
      thread->clock_steps++;
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-CLOCK-BACK", line,
                             _("The clock of thread %u went back by %lld ms (from %u to %u); scopes around this step are left out of the statistics"),
                             thread->id, -(long long)delta, thread->last_raw, raw);
    }
  else if (G_UNLIKELY (raw < thread->last_raw))
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-WRAP", line,
                           _("The millisecond timer of thread %u wrapped around after 2³² ms (49.7 days); times go on from there"),
                           thread->id);

  thread->last_raw = raw;
  thread->last_ms += delta;
  return thread->last_ms;
}


/* ------------------------------------------------------------------------ */
/* Scopes and messages                                                       */

/* Opens a scope at the thread's time: a physical one, or a logical one
 * (flags has PS_SPAN_FLAG_LOGICAL) in context */
static void
open_scope (RtlParser   *self,
            ThreadState *thread,
            guint64      line,
            Interned     name,
            gsize        name_length,
            guint32      name_sid,
            guint32      context,
            guint16      flags)
{
  gint64 ms = thread->last_ms;
  OpenScope open;
  PsSpan span;
  guint n_open = thread->stack.len;
  const OpenScope *top = n_open > 0 ? &thread->stack.items[n_open - 1] : NULL;
  /* One below the parent (a logical scope may have ended under it) */
  guint depth = top != NULL ? top->depth + 1 : 0;

  span.begin_ns = ms * NS_PER_MS;
  span.end_ns = span.begin_ns;
  span.track = thread->track;
  span.name = name.id;
  span.parent = top != NULL ? (guint32)top->span : PS_NONE;
  span.depth = (guint16)MIN (depth, G_MAXUINT16);
  span.flags = flags;

  if (self->totals != NULL)
    open.span = self->n_spans++;
  else
    open.span = ps_store_builder_add_span (self->parent.builder, &span);
  open.name = name.text;
  open.name_length = (guint32) name_length;
  open.name_id = span.name;
  open.name_sid = name_sid;
  open.context = context;
  open.begin_ms = ms;
  open.line = line;
  open.depth = depth;
  open.clock_steps = thread->clock_steps;
  open.logical = (flags & PS_SPAN_FLAG_LOGICAL) != 0;
  open.flags = flags;
  open.children_ns = 0;
  open.ended_parent = PS_NONE;

  if (open.logical && self->totals == NULL)
    ps_store_builder_set_span_context (self->parent.builder, open.span, context);

  /* From one scope up: a log may have a thread for every few lines */
  if (G_UNLIKELY (n_open == thread->stack.size))
    {
      thread->stack.size = MAX (1, thread->stack.size * 2);
      thread->stack.items = g_renew (OpenScope, thread->stack.items, thread->stack.size);
    }
  thread->stack.items[n_open] = open;
  thread->stack.len = n_open + 1;
}

void
rtl_open_scope (RtlParser    *self,
                ThreadState  *thread,
                const Record *r,
                guint16       flags)
{
  open_scope (self, thread, r->line, record_name (self, r), r->name_length, r->name_sid, 0, flags);
}

/* The group of the physical scopes whose names have scanner id sid: one
 * look-up per name and session */
static inline guint
sid_group (RtlParser         *self,
           guint32            sid,
           const PsEndedSpan *ended)
{
  guint32 *group;

  if (G_UNLIKELY (sid >= self->sid_groups->len))
    {
      guint old_length = self->sid_groups->len;

      g_array_set_size (self->sid_groups, MAX (sid + 1, old_length * 2));
      for (guint i = old_length; i < self->sid_groups->len; i++)
        g_array_index (self->sid_groups, guint32, i) = PS_NONE;
    }
  group = &g_array_index (self->sid_groups, guint32, sid);
  if (G_UNLIKELY (*group == PS_NONE))
    *group = ps_span_totals_lookup (self->totals, ended);
  return *group;
}

static void
add_ended (RtlParser         *self,
           const OpenScope   *open,
           const PsEndedSpan *ended)
{
  if (!open->logical && open->name_sid != PS_NONE)
    ps_span_totals_add_to (self->totals, sid_group (self, open->name_sid, ended), ended);
  else
    ps_span_totals_add (self->totals, ended);
}

/* A scope that ends is final: its duration goes to its parent's children,
 * and its self time is its duration less its measured children's (§4.3),
 * which mostly all ended before it. Its parent is right below it, as
 * scopes end from the top of the stack; the exception is a logical scope
 * that ends under its child (§4.2 step 9), which then waits for that
 * child's end. */
static void
add_to_totals (RtlParser       *self,
               ThreadState     *thread,
               guint            index,
               const OpenScope *open,
               const PsSpan    *span)
{
  PsEndedSpan ended;

  ended.index = open->span;
  ended.duration_ns = ps_util_sub_saturated (span->end_ns, span->begin_ns);
  ended.session = self->session;
  ended.track = span->track;
  ended.name = span->name;
  ended.context = open->context;
  ended.flags = span->flags;

  /* ps_span_is_measured() */
  if ((span->flags & PS_SPAN_FLAGS_NOT_MEASURED) == 0 && ended.duration_ns >= 0)
    {
      gint64 *children_ns = NULL;

      if (open->ended_parent != PS_NONE)
        children_ns = &g_array_index (self->ended_parents, EndedParent, open->ended_parent).children_ns;
      else if (index > 0)
        children_ns = &thread->stack.items[index - 1].children_ns;
      if (children_ns != NULL)
        *children_ns = ps_util_add_saturated (*children_ns, ended.duration_ns);
    }

  /* Its only open child has ended */
  if (open->ended_parent != PS_NONE)
    {
      EndedParent *parent = &g_array_index (self->ended_parents, EndedParent, open->ended_parent);

      parent->ended.self_ns = ps_util_sub_saturated (parent->ended.duration_ns, parent->children_ns);
      ps_span_totals_add (self->totals, &parent->ended);
    }

  if (index + 1 < thread->stack.len)
    {
      EndedParent parent = { ended, open->children_ns };

      g_array_append_val (self->ended_parents, parent);
      thread->stack.items[index + 1].ended_parent = self->ended_parents->len - 1;
      return;
    }

  ended.self_ns = ps_util_sub_saturated (ended.duration_ns, open->children_ns);
  add_ended (self, open, &ended);
}

/* Closes the scope at stack position index and removes it from the stack */
void
rtl_close_scope (RtlParser   *self,
                 ThreadState *thread,
                 guint        index,
                 gint64       end_ms,
                 guint16      flags)
{
  OpenScope *open = &thread->stack.items[index];
  PsSpan counted;
  PsSpan *span;

  if (self->totals != NULL)
    {
      /* What the store would have had of it */
      counted.begin_ns = open->begin_ms * NS_PER_MS;
      counted.track = thread->track;
      counted.name = open->name_id;
      counted.flags = open->flags;
      span = &counted;
    }
  else
    span = ps_store_builder_edit_span (self->parent.builder, open->span);

  span->end_ns = end_ms * NS_PER_MS;
  span->flags |= flags;
  if (open->clock_steps != thread->clock_steps)
    span->flags |= PS_SPAN_FLAG_CLOCK_BACK;
  if (self->totals != NULL)
    add_to_totals (self, thread, index, open, span);

  /* Mostly the innermost scope: nothing to move, and no call for it */
  if (index + 1 < thread->stack.len)
    memmove (&thread->stack.items[index], &thread->stack.items[index + 1],
             (thread->stack.len - index - 1) * sizeof (OpenScope));
  thread->stack.len--;
}


/* Every open scope above position index: physical ones end unterminated,
 * logical ones with their parent (§4.2 step 8.3) */
static void
close_above (RtlParser   *self,
             ThreadState *thread,
             guint        index,
             gint64       ms,
             guint64      line)
{
  while (thread->stack.len > index + 1)
    {
      guint top = thread->stack.len - 1;
      OpenScope *open = &thread->stack.items[top];
      g_autofree char *name = ps_util_display_text (open->name, open->name_length);

      if (open->logical)
        {
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-CLOSED-BY-PARENT", open->line,
                                 _("Logical scope “%s” on thread %u was still open when the scope around it ended on line %llu; it is left out of the statistics"),
                                 name, thread->id, (unsigned long long)line);
          rtl_close_scope (self, thread, top, ms, PS_SPAN_FLAG_CLOSED_BY_PARENT);
        }
      else
        {
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-UNTERMINATED", open->line,
                                 _("Scope “%s” on thread %u has no end; it was still open when the scope around it ended on line %llu (at least %lld ms)"),
                                 name, thread->id, (unsigned long long)line, (long long)(ms - open->begin_ms));
          rtl_close_scope (self, thread, top, MAX (ms, open->begin_ms), PS_SPAN_FLAG_UNTERMINATED);
        }
    }
}


void
rtl_end_scope (RtlParser    *self,
               ThreadState  *thread,
               gint64        ms,
               const Record *r)
{
  ScopeStack *stack = &thread->stack;
  const char *name = r->name;
  gsize length = r->name_length;
  guint16 flags = 0;

  if (G_LIKELY (ends_innermost (thread, name, length, r->name_sid)))
    {
      rtl_close_scope (self, thread, stack->len - 1, ms, 0);
      return;
    }

  if (stack->len > 0)
    {
      guint top = stack->len - 1;
      OpenScope *open = &stack->items[top];

      /* 8.2: the log bridge's "} X return : v" after "{ X" */
      if (!open->logical && length > open->name_length && memcmp (name, open->name, open->name_length) == 0
          && name[open->name_length] == ' ')
        {
          g_autofree char *begin_name = ps_util_display_text (open->name, open->name_length);
          g_autofree char *end_name = ps_util_display_text (name, length);

          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-NAME-MISMATCH", r->line,
                                 _("End “%s” closes scope “%s” (begun on line %llu): the end names it with more text"),
                                 end_name, begin_name, (unsigned long long)open->line);
          rtl_close_scope (self, thread, top, ms, PS_SPAN_FLAG_NAME_MISMATCH);
          return;
        }
    }

  /* 8.3: further down; what lies above never ended */
  for (guint i = stack->len; i-- > 0;)
    {
      OpenScope *open = &stack->items[i];

      if (!open->logical && same_name (open, name, length, r->name_sid))
        {
          close_above (self, thread, i, ms, r->line);
          rtl_close_scope (self, thread, i, ms, 0);
          return;
        }
    }

  /* 8.4: an end cut off at the end of the file */
  if (r->flags & RECORD_TRUNCATED_EOF)
    {
      for (guint i = stack->len; i-- > 0;)
        {
          OpenScope *open = &stack->items[i];

          if (!open->logical && open->name_length > length && memcmp (open->name, name, length) == 0)
            {
              flags = PS_SPAN_FLAG_TRUNCATED;
              close_above (self, thread, i, ms, r->line);
              rtl_close_scope (self, thread, i, ms, flags);
              return;
            }
        }
    }

  /* 8.5 */
  {
    g_autofree char *end_name = ps_util_display_text (name, length);

    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-ORPHAN-END", r->line,
                           _("End of scope “%s” on thread %u has no matching begin; it is ignored"),
                           end_name, thread->id);
  }
}

static gboolean
logical_marker (const char *message,
                gsize       length)
{
  /* "{}" is the design documents' notation for "either brace": plain text */
  return length > 0 && (message[0] == '{' || message[0] == '}')
         && !(length >= 2 && message[0] == '{' && message[1] == '}');
}

static void
end_logical (RtlParser    *self,
             ThreadState  *thread,
             gint64        ms,
             const Record *r,
             guint32       context,
             const char   *name,
             gsize         length)
{
  ScopeStack *stack = &thread->stack;

  for (guint i = stack->len; i-- > 0;)
    {
      OpenScope *open = &stack->items[i];

      if (open->logical && open->context == context && same_name (open, name, length, PS_NONE))
        {
          rtl_close_scope (self, thread, i, ms, 0);
          return;
        }
    }

  /* "{ … start: x" closed by "} … end: x" (§7 #28) */
  for (guint i = stack->len; i-- > 0;)
    {
      OpenScope *open = &stack->items[i];

      if (open->logical && open->context == context)
        {
          g_autofree char *begin_name = ps_util_display_text (open->name, open->name_length);
          g_autofree char *end_name = ps_util_display_text (name, length);

          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-NAME-MISMATCH", r->line,
                                 _("End “%s” closes logical scope “%s” (begun on line %llu), the innermost one open in the same context"),
                                 end_name, begin_name, (unsigned long long)open->line);
          rtl_close_scope (self, thread, i, ms, PS_SPAN_FLAG_NAME_MISMATCH);
          return;
        }
    }

  {
    g_autofree char *end_name = ps_util_display_text (name, length);

    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-ORPHAN-LOGICAL-END", r->line,
                           _("End of logical scope “%s” on thread %u has no matching begin; it is ignored"),
                           end_name, thread->id);
  }
}

static guint16
mark_flags (guint record_flags)
{
  guint16 flags = 0;

  if (record_flags & RECORD_UNTIMED)
    flags |= PS_MARK_FLAG_UNTIMED;
  if (record_flags & RECORD_CONTINUED)
    flags |= PS_MARK_FLAG_CONTINUED;
  if (record_flags & RECORD_INTERRUPTED)
    flags |= PS_MARK_FLAG_INTERRUPTED;
  if (record_flags & (RECORD_TRUNCATED_NUL | RECORD_TRUNCATED_EOF))
    flags |= PS_MARK_FLAG_TRUNCATED;
  if (record_flags & RECORD_NO_SEPARATOR)
    flags |= PS_MARK_FLAG_NO_SEPARATOR;
  if (record_flags & RECORD_LOST)
    flags |= PS_MARK_FLAG_LOST;

  return flags;
}

static guint64
add_message (RtlParser    *self,
             ThreadState  *thread,
             gint64        ms,
             const Record *r)
{
  ScopeStack *stack = &thread->stack;
  guint32 owner = stack->len > 0 ? (guint32)stack->items[stack->len - 1].span : PS_NONE;
  guint32 name = PS_NONE;
  PsMark mark = { 0 };

  mark.flags = mark_flags (r->flags);

  /* The innermost open scope of that name; else the innermost open one */
  if (r->name_length > 0)
    {
      gboolean found = FALSE;

      for (guint i = stack->len; i-- > 0;)
        {
          OpenScope *open = &stack->items[i];

          if (same_name (open, r->name, r->name_length, r->name_sid))
            {
              owner = (guint32)open->span;
              name = open->name_id;
              found = TRUE;
              break;
            }
        }

      if (!found)
        mark.flags |= PS_MARK_FLAG_CONTEXT_NOT_OPEN;

      /* Common (RTL_LOGFILE_TRACE_AUTHOR names no scope). Past the
       * warnings the store keeps with their text only the count matters:
       * the names need not be made displayable. */
      if (!found && ps_event_store_get_n_warnings (self->store) >= PS_EVENT_STORE_MAX_WARNINGS)
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-CONTEXT-NOT-OPEN", r->line, "%s", "");
      else if (!found)
        {
          g_autofree char *name = ps_util_display_text (r->name, r->name_length);

          if (stack->len > 0)
            {
              const OpenScope *top = &stack->items[stack->len - 1];
              g_autofree char *top_name = ps_util_display_text (top->name, top->name_length);

              ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-CONTEXT-NOT-OPEN", r->line,
                                     _("Message names scope “%s”, which is not open on thread %u; it is attached to the innermost open scope “%s”"),
                                     name, thread->id, top_name);
            }
          else
            ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-CONTEXT-NOT-OPEN", r->line,
                                   _("Message names scope “%s”, which is not open on thread %u; it is attached to the thread"),
                                   name, thread->id);
        }
    }

  if (self->totals != NULL)
    return self->n_marks++;

  mark.time_ns = ms * NS_PER_MS;
  mark.line = r->line;
  mark.track = thread->track;
  mark.text = ps_event_store_add_text (self->store, r->message, r->message_length);
  mark.name = name != PS_NONE ? name : record_name (self, r).id;
  mark.span = owner;
  mark.position = (guint32)MIN (ps_store_builder_get_n_spans (self->parent.builder), G_MAXUINT32);

  return ps_store_builder_add_mark (self->parent.builder, &mark);
}

/* One complete record (§4.2 steps 4 and 6–9). Returns the index of the
 * mark it made, or PS_NO_POSITION. */
guint64
rtl_process_record (RtlParser    *self,
                    const Record *r)
{
  ThreadState *thread;
  gint64 ms;
  guint64 mark = PS_NO_POSITION;

  rtl_ensure_session (self, r->line);
  self->session_last_line = r->line;

  if (G_LIKELY (!(r->flags & RECORD_UNTIMED)))
    {
      thread = get_thread (self, r->thread, r->line);
      ms = advance_time (self, thread, r->time, r->line);
    }
  else
    {
      thread = self->last_thread;
      if (thread == NULL)
        {
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-STRAY-TEXT", r->line,
                                 _("A record without time and thread before any timed record of its log; it is ignored"));
          return PS_NO_POSITION;
        }
      ms = thread->last_ms;
    }

  self->last_thread = thread;
  self->session_has_records = TRUE;
  self->seen_record = TRUE;

  if (G_UNLIKELY (r->flags & RECORD_TRUNCATED_EOF))
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-TRUNCATED-EOF", r->line,
                           _("The last record was cut off (the file ends without a line end); it is read as far as it goes"));

  switch (r->kind)
    {
    case '{':
      {
        guint16 flags = 0;

        if (r->flags & RECORD_UNTIMED)
          flags |= PS_SPAN_FLAG_UNTIMED;
        if (r->flags & RECORD_CONTINUED)
          flags |= PS_SPAN_FLAG_CONTINUED;
        if (r->flags & (RECORD_TRUNCATED_NUL | RECORD_TRUNCATED_EOF))
          flags |= PS_SPAN_FLAG_TRUNCATED;
        rtl_open_scope (self, thread, r, flags);
      }
      break;

    case '}':
      rtl_end_scope (self, thread, ms, r);
      break;

    default:
      if (G_UNLIKELY (r->flags & RECORD_NO_SEPARATOR))
        {
          g_autofree char *text = ps_util_display_text (r->message, r->message_length);

          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-NOSEP", r->line,
                                 _("Message “%s” has no “ : ” between scope name and text; it is read as text without a scope name"),
                                 text);
        }

      if (logical_marker (r->message, r->message_length))
        {
          const char *name = r->message + 1;
          gsize length = r->message_length - 1;
          guint32 context = record_name (self, r).id;

          ps_parse_trim_leading (&name, &length);
          if (r->message[0] == '{')
            open_scope (self, thread, r->line, rtl_intern_name (self, name, length), length, PS_NONE,
                        context, PS_SPAN_FLAG_LOGICAL);
          else
            end_logical (self, thread, ms, r, context, name, length);
        }
      else
        mark = add_message (self, thread, ms, r);
      break;
    }

  return mark;
}

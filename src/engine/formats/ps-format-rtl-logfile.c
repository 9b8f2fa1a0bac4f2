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
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <glib/gi18n-lib.h>

#include "ps-format.h"
#include "ps-parse-kit.h"
#include "ps-line-reader.h"
#include "ps-span-totals.h"
#include "ps-util.h"

#define NS_PER_MS       G_GINT64_CONSTANT (1000000)
#define MAX_LINE_LENGTH (16 * 1024 * 1024)

#define OPENING_PREFIX  "opening log file "
#define OPENING_SUFFIX  " seconds past January 1st 1970"
#define TIMER_PREFIX    "corresponding to "
#define TIMER_SUFFIX    " ms after timer start"
#define PID_PREFIX      "Process id is "
#define CLOSING_PREFIX  "closing log file at "

#define STRLEN(s) (sizeof (s) - 1)

/* Parsing has two stages (PsParserStages), which the loader runs on two
 * threads: scanning a chunk cuts its plain records into tokens and keeps
 * its other lines, and applying pairs them and fills the store, a chunk
 * behind. Tokens are scanned in runs of at least TOKEN_RUN. */
#define TOKEN_RUN           4096
#define PREFETCH_TOKENS     8

/* Thread ids below this are found without hashing (OpenOffice on Unix
 * numbers its threads 1, 2, 3 …) */
#define SMALL_THREAD_IDS 256

/* One per open scope of a thread, so a log of deep nesting holds one for
 * each level: the fields are ordered by size so that nothing pads them */
typedef struct
{
  guint64     span;         /* index in the store */
  const char *name;         /* the interned name */
  gint64      begin_ms;
  guint64     line;
  gint64      children_ns;  /* the durations of its measured children that ended */
  guint32     name_length;  /* lines are at most MAX_LINE_LENGTH */
  guint32     name_id;
  guint32     name_sid;     /* the scanner's id of the name, or PS_NONE */
  guint32     context;      /* logical scopes: string id of the naming record's scope */
  guint       depth;
  guint32     clock_steps;  /* the thread's backward steps when it began */
  guint32     ended_parent; /* its parent, if that ended before it: an index
                             * into ended_parents; else PS_NONE (the parent
                             * is right below it, or there is none) */
  guint16     flags;        /* the span's flags when it began */
  guint8      logical;
} OpenScope;

/* A scope that ended while its child was still open (a logical scope
 * ended under a physical one, §4.2 step 9): its self time waits for that
 * child's end */
typedef struct
{
  PsEndedSpan ended;
  gint64      children_ns;
} EndedParent;

/* A thread's open scopes, the innermost last: a plain array, as every
 * scope is pushed and popped here */
typedef struct
{
  OpenScope *items;
  guint      len;
  guint      size;
} ScopeStack;

typedef struct
{
  guint32  id;
  guint32  track;
  gboolean has_time;
  guint32  last_raw;
  gint64   last_ms;
  guint32  clock_steps;
  ScopeStack stack;
} ThreadState;

enum
{
  RECORD_UNTIMED       = 1 << 0,
  RECORD_CONTINUED     = 1 << 1,
  RECORD_INTERRUPTED   = 1 << 2,
  RECORD_TRUNCATED_NUL = 1 << 3,
  RECORD_TRUNCATED_EOF = 1 << 4,
  RECORD_NO_SEPARATOR  = 1 << 5,
  RECORD_LOST          = 1 << 6,
};

typedef struct
{
  guint64     line;
  guint32     time;
  guint32     thread;
  char        kind;          /* '{', '}' or '|' */
  guint       flags;         /* RECORD_* */
  const char *name;
  gsize       name_length;
  const char *message;       /* '|' only */
  gsize       message_length;
  guint32     name_sid;      /* the scanner's id of the name (ScanNames); PS_NONE if none */
} Record;

/* The parser's own table of scope names: interning through the store's
 * table costs a copy and a string hash per record. */
typedef struct
{
  guint64     hash;
  const char *text;    /* the store's copy; NULL for a free slot */
  guint32     length;
  guint32     id;
} NameSlot;

typedef struct
{
  NameSlot *slots;
  guint     mask;
  guint     n_used;
} NameTable;

/* A name's string id and the store's copy of its text */
typedef struct
{
  guint32     id;
  const char *text;
} Interned;

/* The scanner's own ids of the names it sees, equal exactly when the bytes
 * are, so that the records' processing compares names as numbers and
 * interns each only once. Owned by whichever thread scans at the time. */
typedef struct
{
  NameTable     table;    /* NameSlot.id is the scanner's id */
  GStringChunk *texts;    /* the names' bytes, each followed by NAME_PADDING zero bytes */
} ScanNames;

typedef struct _Batch Batch;

/* A warning held back by warn_after_pending() */
typedef struct
{
  PsSeverity  severity;
  const char *code;
  guint64     line;
  char       *message;
} Deferred;

typedef struct
{
  PsParser       parent;
  PsEventStore  *store;
  PsLineReader  *reader;

  /* The pid in the file name (…_<pid>.log), if any */
  gboolean       has_file_pid;
  guint64        file_pid;
  gboolean       file_name_checked;

  /* The current session; PS_NONE before the first line */
  guint32        session;
  gboolean       session_closed;       /* its close line was read */
  gboolean       session_has_records;
  gboolean       session_has_opening;
  gboolean       session_has_pid;
  gboolean       session_has_epoch;
  gint64         session_epoch_ns;
  guint64        session_last_line;
  GHashTable    *threads;              /* thread id → ThreadState, this session */
  GPtrArray     *thread_list;          /* the same, in order of appearance */
  ThreadState   *last_thread;          /* the thread of the last record */
  ThreadState   *small_threads[SMALL_THREAD_IDS];  /* by id, for the common small ids */

  /* The record whose text may still continue on the next line */
  gboolean       has_pending;
  Record         pending;
  GString       *pending_name;
  GString       *pending_message;
  GPtrArray     *deferred;             /* Deferred: warnings about later lines */
  NameTable      names;
  /* The scanning thread reads scan_names at every record while the
   * applying one writes the fields around it at every record: with a
   * cache line of its own (whatever the alignment of the parser), the two
   * cores do not pass that line back and forth, which cost more than the
   * lookup */
  char           scan_names_padding_before[64];
  ScanNames      scan_names;
  char           scan_names_padding_after[64];
  GArray        *scanned_names;        /* Interned per scanner id; id PS_NONE until interned */

  /* A message another record was written into, waiting for its text */
  guint64        interrupted_mark;     /* PS_NO_POSITION if none */
  guint64        interrupted_line;

  gboolean       seen_record;          /* in the whole file */

  /* PS_FORMAT_OPTION_TOTALS_ONLY: the totals per scope name, gathered as
   * the scopes end, are kept instead of the spans and messages, which are
   * counted, not added; these numbers stand for their indexes. totals is
   * NULL without the option, and once handed to the store. */
  gboolean       options_read;
  PsSpanTotals  *totals;
  GArray        *ended_parents;        /* EndedParent */
  guint64        n_spans;
  guint64        n_marks;
  GArray        *sid_groups;           /* guint32 per scanner id: its physical
                                        * scopes' group this session, or PS_NONE */

  /* The scanning stage's results: the one being filled, and all */
  Batch         *scanning;
  PsBatchPool   *batches;
} RtlParser;

/* ------------------------------------------------------------------------ */
/* Small text helpers                                                        */

static inline gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

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

static void
name_table_grow (NameTable *table)
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
static Interned
intern_name (RtlParser  *self,
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
    name_table_grow (table);

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
static guint32
scan_name_id (ScanNames  *names,
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
    name_table_grow (table);

  return table->n_used - 1;
}

/* A name the scanner found, interned: through the scanner's id */
static inline Interned
scanned_name (RtlParser  *self,
              guint32     sid,
              const char *name,
              gsize       length)
{
  Interned *interned;

  if (G_UNLIKELY (sid >= self->scanned_names->len))
    {
      guint old_length = self->scanned_names->len;

      g_array_set_size (self->scanned_names, MAX (sid + 1, old_length * 2));
      for (guint i = old_length; i < self->scanned_names->len; i++)
        g_array_index (self->scanned_names, Interned, i).id = PS_NONE;
    }
  interned = &g_array_index (self->scanned_names, Interned, sid);
  if (G_UNLIKELY (interned->id == PS_NONE))
    *interned = intern_name (self, name, length);
  return *interned;
}

/* A record's name, interned; through the scanner's id when it has one */
static Interned
record_name (RtlParser    *self,
             const Record *r)
{
  if (r->name_sid == PS_NONE)
    return intern_name (self, r->name, r->name_length);
  return scanned_name (self, r->name_sid, r->name, r->name_length);
}

/* ------------------------------------------------------------------------ */
/* Sessions and threads                                                      */

static void
thread_state_free (gpointer data)
{
  ThreadState *thread = data;

  g_free (thread->stack.items);
  g_free (thread);
}

static void
deferred_free (gpointer data)
{
  Deferred *deferred = data;

  g_free (deferred->message);
  g_free (deferred);
}

/* A warning about a line after the pending record: given once that
 * record is processed, so that warnings come in the order of their lines.
 * Takes the message. */
static void
warn_after_pending (RtlParser  *self,
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

static void close_scope (RtlParser   *self,
                         ThreadState *thread,
                         guint        index,
                         gint64       end_ms,
                         guint16      flags);

/* Everything still open ends with the session: a lower bound up to the
 * close time, or to the thread's last record (§4.2 step 10, §7 #24). */
static void
end_session (RtlParser *self,
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
          close_scope (self, thread, thread->stack.len - 1, end_ms, PS_SPAN_FLAG_UNTERMINATED);
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

static void
start_session (RtlParser *self,
               guint64    line,
               gboolean   implicit)
{
  gboolean concatenated = self->session != PS_NONE;

  if (concatenated && !self->session_closed)
    end_session (self, FALSE, 0);

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

static void
ensure_session (RtlParser *self,
                guint64    line)
{
  if (self->session == PS_NONE || self->session_closed)
    start_session (self, line, TRUE);
}

G_NO_INLINE static ThreadState *
find_thread (RtlParser *self,
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

/* A thread of this session, made on first sight */
static inline ThreadState *
get_thread (RtlParser *self,
            guint32    id,
            guint64    line)
{
  if (G_LIKELY (id < SMALL_THREAD_IDS && self->small_threads[id] != NULL))
    return self->small_threads[id];
  return find_thread (self, id, line);
}

/* Serial-number arithmetic on the 32-bit millisecond timer (§4.2 step 6) */
G_NO_INLINE static gint64
advance_time_warn (RtlParser   *self,
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

static inline gint64
advance_time (RtlParser   *self,
              ThreadState *thread,
              guint32      raw,
              guint64      line)
{
  /* Time that goes on, neither back nor around */
  if (G_LIKELY (thread->has_time && raw >= thread->last_raw && raw - thread->last_raw <= G_MAXINT32))
    {
      thread->last_ms += raw - thread->last_raw;
      thread->last_raw = raw;
      return thread->last_ms;
    }
  return advance_time_warn (self, thread, raw, line);
}

/* ------------------------------------------------------------------------ */
/* Scopes and messages                                                       */

static void
open_scope (RtlParser   *self,
            ThreadState *thread,
            gint64       ms,
            guint64      line,
            Interned     name,
            gsize        name_length,
            guint32      name_sid,
            guint32      context,
            guint16      flags)
{
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
static void
close_scope (RtlParser   *self,
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

static inline gboolean
same_name (const OpenScope *open,
           const char      *name,
           gsize            length,
           guint32          sid)
{
  if (sid != PS_NONE && open->name_sid != PS_NONE)
    return sid == open->name_sid;
  return open->name_length == length && memcmp (open->name, name, length) == 0;
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
          close_scope (self, thread, top, ms, PS_SPAN_FLAG_CLOSED_BY_PARENT);
        }
      else
        {
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-UNTERMINATED", open->line,
                                 _("Scope “%s” on thread %u has no end; it was still open when the scope around it ended on line %llu (at least %lld ms)"),
                                 name, thread->id, (unsigned long long)line, (long long)(ms - open->begin_ms));
          close_scope (self, thread, top, MAX (ms, open->begin_ms), PS_SPAN_FLAG_UNTERMINATED);
        }
    }
}

/* §4.2 step 8.1: whether an end of that name ends the innermost scope */
static inline gboolean
ends_innermost (const ThreadState *thread,
                const char        *name,
                gsize              length,
                guint32            sid)
{
  const OpenScope *open;

  if (thread->stack.len == 0)
    return FALSE;
  open = &thread->stack.items[thread->stack.len - 1];
  return !open->logical && same_name (open, name, length, sid);
}

static void
end_scope (RtlParser    *self,
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
      close_scope (self, thread, stack->len - 1, ms, 0);
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
          close_scope (self, thread, top, ms, PS_SPAN_FLAG_NAME_MISMATCH);
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
          close_scope (self, thread, i, ms, 0);
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
              close_scope (self, thread, i, ms, flags);
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
          close_scope (self, thread, i, ms, 0);
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
          close_scope (self, thread, i, ms, PS_SPAN_FLAG_NAME_MISMATCH);
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
static guint64
process_record (RtlParser    *self,
                const Record *r)
{
  ThreadState *thread;
  gint64 ms;
  guint64 mark = PS_NO_POSITION;

  ensure_session (self, r->line);
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
        open_scope (self, thread, ms, r->line, record_name (self, r), r->name_length, r->name_sid, 0, flags);
      }
      break;

    case '}':
      end_scope (self, thread, ms, r);
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
            open_scope (self, thread, ms, r->line, intern_name (self, name, length), length, PS_NONE,
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
  process_record (self, &self->pending);

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
      self->interrupted_mark = process_record (self, r);
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
      warn_after_pending (self, PS_SEVERITY_WARNING, "W-DAMAGED-PREFIX", line,
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
        start_session (self, line, FALSE);
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
        start_session (self, line, FALSE);
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
        start_session (self, line, FALSE);
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
      ensure_session (self, line);
      self->session_last_line = line;

      /* Unwrapped against the last record of the log */
      if (self->last_thread != NULL && self->last_thread->has_time)
        close_ms = self->last_thread->last_ms + (gint32)(value - self->last_thread->last_raw);
      else
        close_ms = value;

      g_snprintf (digits, sizeof digits, "%u", value);
      ps_event_store_set_metadata (self->store, self->session, "closing_time_ms", digits);
      end_session (self, TRUE, close_ms);
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

      warn_after_pending (self, PS_SEVERITY_WARNING, "W-DAMAGED-PREFIX", line,
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
      t->name_sid = t->name_length > 0 ? scan_name_id (names, t->name, t->name_length, end) : PS_NONE;
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

/* A run of tokens, as process_record() takes them. The first one may
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
  process_record (self, &r);

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
          process_record (self, &r);
          continue;
        }

      thread = get_thread (self, t->thread, line);
      ms = advance_time (self, thread, t->time, line);
      self->last_thread = thread;

      if (t->kind == '{')
        open_scope (self, thread, ms, line, scanned_name (self, t->name_sid, t->name, t->name_length),
                    t->name_length, t->name_sid, 0, 0);
      else if (ends_innermost (thread, t->name, t->name_length, t->name_sid))
        close_scope (self, thread, thread->stack.len - 1, ms, 0);
      else
        {
          token_record (&r, t, line);
          end_scope (self, thread, ms, &r);
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
  const char *chunk;
  gsize       chunk_length;
  Token      *tokens;
  guint       n_tokens;
  guint       tokens_size;
  GArray     *pieces;   /* Piece */
  PsKeptLines lines;
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
  batch->chunk = NULL;
  batch->chunk_length = 0;
  batch->n_tokens = 0;
  g_array_set_size (batch->pieces, 0);
  ps_kept_lines_reset (&batch->lines);
  ps_batch_pool_give_back (self->batches, batch);
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
scan_fast_lines (const char *data,
                 gsize       available,
                 guint64     line_number,
                 guint64     offset,
                 guint64    *n_lines,
                 gpointer    user_data)
{
  RtlParser *self = user_data;
  Batch *batch = self->scanning;
  const char *p = data;
  const char *end = data + available;
  Piece piece = { line_number, batch->n_tokens, 0 };

  (void)offset;

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
  return p - data;
}

/* Every other line, for the general path */
static void
scan_line (const PsLine *line,
           gpointer      user_data)
{
  RtlParser *self = user_data;
  Batch *batch = self->scanning;
  Piece piece = { line->number, 0, 0 };

  piece.first = ps_kept_lines_add (&batch->lines, line, batch->chunk, batch->chunk_length);
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
  Batch *batch = ps_batch_pool_take (self->batches);

  batch->chunk = (const char *)data;
  batch->chunk_length = length;
  self->scanning = batch;
  ps_line_reader_feed (self->reader, data, length);
  self->scanning = NULL;

  return batch;
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
  Batch *batch = ps_batch_pool_take (self->batches);

  /* The last line, if it has no line end */
  self->scanning = batch;
  ps_line_reader_finish (self->reader);
  self->scanning = NULL;
  rtl_apply (parser, batch, NULL);

  flush_pending (self);
  if (self->session != PS_NONE && !self->session_closed)
    end_session (self, FALSE, 0);
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

  ps_batch_pool_free (self->batches);
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
  self->threads = g_hash_table_new_full (NULL, NULL, NULL, thread_state_free);
  self->thread_list = g_ptr_array_new ();
  self->pending_name = g_string_new (NULL);
  self->pending_message = g_string_new (NULL);
  self->deferred = g_ptr_array_new_with_free_func (deferred_free);
  name_table_grow (&self->names);
  name_table_grow (&self->scan_names.table);
  self->scan_names.texts = g_string_chunk_new (4096);
  self->scanned_names = g_array_new (FALSE, FALSE, sizeof (Interned));
  self->sid_groups = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->ended_parents = g_array_new (FALSE, FALSE, sizeof (EndedParent));
  self->interrupted_mark = PS_NO_POSITION;
  self->batches = ps_batch_pool_new (batch_new, batch_free);

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

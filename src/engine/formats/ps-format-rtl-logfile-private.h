/* ps-format-rtl-logfile-private.h — what the RTL log reader and its scope
 * building share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §3 (records) and §4.2 (the pairing algorithm).
 */
#pragma once

#include <glib.h>

#include "ps-format.h"
#include "ps-line-reader.h"
#include "ps-parse-kit.h"
#include "ps-span-totals.h"

G_BEGIN_DECLS

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

  /* The scanning stage's results */
  PsLineBatches  batches;              /* Batch */
} RtlParser;

/* ps-format-rtl-scopes.c */

void
rtl_name_table_grow (NameTable *table);

Interned
rtl_intern_name (RtlParser  *self,
                 const char *text,
                 gsize       length);

guint32
rtl_scan_name_id (ScanNames  *names,
                  const char *text,
                  gsize       length,
                  const char *text_end);

void
rtl_thread_state_free (gpointer data);

void
rtl_deferred_free (gpointer data);

void
rtl_warn_after_pending (RtlParser  *self,
                        PsSeverity  severity,
                        const char *code,
                        guint64     line,
                        char       *message);

void
rtl_end_session (RtlParser *self,
                 gboolean   has_close,
                 gint64     close_ms);

void
rtl_start_session (RtlParser *self,
                   guint64    line,
                   gboolean   implicit);

void
rtl_ensure_session (RtlParser *self,
                    guint64    line);

ThreadState *
rtl_find_thread (RtlParser *self,
                 guint32    id,
                 guint64    line);

gint64
rtl_advance_time_warn (RtlParser   *self,
                       ThreadState *thread,
                       guint32      raw,
                       guint64      line);

/* Opens the scope record r begins, at its thread's time */
void
rtl_open_scope (RtlParser    *self,
                ThreadState  *thread,
                const Record *r,
                guint16       flags);

void
rtl_close_scope (RtlParser   *self,
                 ThreadState *thread,
                 guint        index,
                 gint64       end_ms,
                 guint16      flags);

void
rtl_end_scope (RtlParser    *self,
               ThreadState  *thread,
               gint64        ms,
               const Record *r);

guint64
rtl_process_record (RtlParser    *self,
                    const Record *r);

/* Inline for the per-record paths of both files */

static inline gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
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
    *interned = rtl_intern_name (self, name, length);
  return *interned;
}

/* A thread of this session, made on first sight */
static inline ThreadState *
get_thread (RtlParser *self,
            guint32    id,
            guint64    line)
{
  if (G_LIKELY (id < SMALL_THREAD_IDS && self->small_threads[id] != NULL))
    return self->small_threads[id];
  return rtl_find_thread (self, id, line);
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
  return rtl_advance_time_warn (self, thread, raw, line);
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

G_END_DECLS

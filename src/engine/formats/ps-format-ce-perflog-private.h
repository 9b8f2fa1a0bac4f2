/* ps-format-ce-perflog-private.h — what the CE PerfLog stages and its
 * statements share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §3 (grammar) and §4 (sessions, marker registry,
 * event assignment).
 */
#pragma once

#include <glib.h>

#include "ps-format.h"
#include "ps-line-reader.h"
#include "ps-parse-kit.h"

G_BEGIN_DECLS

#define TAG         "## PERF ##"
#define TAG_LENGTH  (sizeof TAG - 1)

/* Lines longer than this are cut (§7 #39); real lines are a few hundred bytes. */
#define MAX_LINE_LENGTH (16 * 1024 * 1024)

/* Marker ids the fast path knows: the documented range is 0…103 */
#define FAST_IDS 128

/* Kinds of data a marker instance has received, for the "mixed" warning */
enum
{
  SEEN_DUR = 1 << 0,
  SEEN_CPU = 1 << 1,
  SEEN_MEM = 1 << 2,
};

/* Warnings given once per file */
enum
{
  ONCE_PREFIX    = 1 << 0,
  ONCE_HIGH_ID   = 1 << 1,
  ONCE_DIALECT   = 1 << 2,
  ONCE_BRACKET   = 1 << 3,
  ONCE_COMMA     = 1 << 4,
};

typedef struct
{
  guint32 track;    /* current instance, or PS_NONE */
  guint32 ordinal;  /* instances of this (app, id) so far */
} RegistryEntry;

/* What the fast path knows: for one application, the instance of each
 * small marker id that has already received a DUR through the general path */
typedef struct
{
  gboolean       valid;
  gsize          app_length;
  char           app[64];
  guint8         app_token;          /* the scan stage's token for app, 0 until known */
  guint32        tracks[FAST_IDS];
  RegistryEntry *entries[FAST_IDS];  /* registry entries of app, as found */
} FastState;

/* The last string interned for a marker id: re-registrations mostly
 * repeat the description, and a compare is cheaper than a hash */
typedef struct
{
  guint32 id;       /* PS_NONE: none yet */
  gsize   length;
} InternedName;

/* Applications of event lines, numbered by the scan stage (1 …). A name
 * is written before the first record that refers to it is handed over,
 * and never changes after. */
#define MAX_APP_TOKENS 255

typedef struct
{
  gsize length;
  char  name[64];
} AppName;

/* The scan stage's guess for the next event line's application */
typedef struct
{
  guint8  token;   /* 0: none */
  gsize   length;
  guint64 word;    /* the first 8 bytes of the name, zero-padded … */
  guint64 mask;    /* … and which of them belong to it */
} AppCache;

/* One line of a scanned chunk */
enum
{
  RECORD_DURATION,  /* an event line, read: value and flags */
  RECORD_CPU,
  RECORD_MEMORY,
  RECORD_MARKER,    /* a registration as PerfLog.dll writes it: value is the line's length */
  RECORD_LINE,      /* any other line: index into lines */
};

/* Written in two words rather than field by field: a record put
 * together in memory from bytes and then copied stalls the scan */
typedef struct
{
  guint64 value;    /* ticks (gint64), bytes, percent (double bits) or an index */
  guint32 offset;   /* of the line's start in the chunk (events, registrations) */
  guint32 info;     /* RECORD_INFO () */
} Record;

/* type: RECORD_*; for events the marker id, the application token and
 * PS_MEASURE_FLAG_* */
#define RECORD_INFO(type, id, app, flags) \
  ((guint32) (type) | (guint32) (id) << 8 | (guint32) (app) << 16 | (guint32) (flags) << 24)
#define RECORD_TYPE(record)  ((guint8) (record)->info)
#define RECORD_ID(record)    ((guint8) ((record)->info >> 8))
#define RECORD_APP(record)   ((guint8) ((record)->info >> 16))
#define RECORD_FLAGS(record) ((guint8) ((record)->info >> 24))

/* REGISTERED MARKER [description] AS [id] BY APP [app] */
typedef struct
{
  const char *description;
  gsize       description_length;
  const char *app;
  gsize       app_length;
  guint64     id;
  gboolean    missing_bracket;
} MarkerMatch;

/* What the scan stage makes of one chunk; one record per line, the first
 * one for line first_line */
typedef struct
{
  guint64     chunk_offset;  /* byte offset of lines.chunk[0] in the input */
  guint64     first_line;
  Record     *records;
  gsize       n_records;
  gsize       records_size;
  PsKeptLines lines;         /* the chunk scanned, valid until applied, and
                              * the lines for the general way */
} Batch;

typedef struct
{
  PsParser       parent;
  PsEventStore  *store;
  PsLineReader  *reader;
  gboolean       encoding_reported;

  /* The current session, PS_NONE before the first */
  guint32        session;
  guint64        session_last_line;
  gboolean       session_has_durations;
  double         session_resolution;     /* the rate in effect, 0 if none */
  guint          session_n_resolutions;
  GString       *session_apps;           /* APP, joined (append_metadata) */
  GString       *session_pids;           /* PROCESSID, joined */
  guint          session_n_apps;         /* REGISTERED APP lines so far */
  GHashTable    *registry;               /* "app\nid" → RegistryEntry, this session */
  GHashTable    *apps;                   /* registered application names, this session */
  GHashTable    *warned_apps;            /* unregistered names already warned about */
  GString       *noted_app;              /* the application of the last event, checked */
  gboolean       noted_app_valid;
  GString       *key;                    /* scratch for registry keys */

  GByteArray    *track_seen;             /* per track: SEEN_* */
  GHashTable    *other_kinds;            /* undocumented event kinds already reported */
  guint          once;                   /* ONCE_* */

  guint64        n_foreign;
  guint64        first_foreign_line;

  FastState      fast;
  InternedName   names[FAST_IDS];       /* per marker id */
  InternedName   category;              /* the last application name interned */

  /* The scan stage, which may run in another thread */
  AppName        app_names[MAX_APP_TOKENS + 1];
  guint          n_app_names;
  AppCache       last_app;              /* the application of the last event line */

  PsLineBatches  batches;               /* Batch */
} CeParser;

/* Defined in one file, used in the other */

const char *
ce_find_tag (const char *text,
             gsize       length);

void
ce_forget_fast_path (CeParser *self);

void
ce_close_session (CeParser *self);

gboolean
ce_match_registered_marker (const char  *p,
                            const char  *end,
                            MarkerMatch *match);

void
ce_register_marker (CeParser          *self,
                    const MarkerMatch *match,
                    guint64            line);

void
ce_parse_statement (CeParser   *self,
                    const char *text,
                    gsize       length,
                    guint64     line,
                    gboolean    terminated);

void
ce_handle_line (const PsLine *pl,
                gpointer      user_data);

G_END_DECLS

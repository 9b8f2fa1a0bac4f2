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
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-format.h"
#include "ps-parse-kit.h"
#include "ps-line-reader.h"
#include "ps-util.h"

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
  const char *chunk;         /* the bytes scanned, valid until applied */
  gsize       chunk_length;
  guint64     chunk_offset;  /* byte offset of chunk[0] in the input */
  guint64     first_line;
  Record     *records;
  gsize       n_records;
  gsize       records_size;
  PsKeptLines lines;         /* those for the general way */
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
  Batch         *scanning;              /* being filled */
  AppName        app_names[MAX_APP_TOKENS + 1];
  guint          n_app_names;
  AppCache       last_app;              /* the application of the last event line */

  PsBatchPool   *batches;
} CeParser;

/* A cursor over the statement of one line */
typedef struct
{
  const char *p;
  const char *end;
} Cursor;

static void
skip_ows (Cursor *c)
{
  while (c->p < c->end && ps_parse_is_blank (*c->p))
    c->p++;
}

static gboolean
skip_ws (Cursor *c)
{
  const char *start = c->p;

  skip_ows (c);
  return c->p > start;
}

static gboolean
at_end (Cursor *c)
{
  skip_ows (c);
  return c->p == c->end;
}

/* A case-insensitive keyword, not followed by a letter, digit or "_" */
static gboolean
keyword (Cursor     *c,
         const char *word)
{
  gsize length = strlen (word);

  if ((gsize) (c->end - c->p) < length)
    return FALSE;
  /* Keywords are letters: compare case-insensitively without a call */
  for (gsize i = 0; i < length; i++)
    if ((c->p[i] | 0x20) != (word[i] | 0x20))
      return FALSE;
  if (c->p + length < c->end && (g_ascii_isalnum (c->p[length]) || c->p[length] == '_'))
    return FALSE;

  c->p += length;
  return TRUE;
}

static gboolean
expect_char (Cursor *c,
             char    ch)
{
  if (c->p < c->end && *c->p == ch)
    {
      c->p++;
      return TRUE;
    }
  return FALSE;
}

/* "[" … "]" with no "]" inside (the grammar's br) */
static gboolean
bracket (Cursor      *c,
         const char **value,
         gsize       *length)
{
  const char *close;

  if (!expect_char (c, '['))
    return FALSE;
  close = memchr (c->p, ']', c->end - c->p);
  if (close == NULL)
    return FALSE;

  *value = c->p;
  *length = close - c->p;
  c->p = close + 1;
  return TRUE;
}

/* 1*DIGIT fitting guint64 */
/* "[" 1*DIGIT "]" */
static gboolean
bracket_uint (Cursor  *c,
              guint64 *value)
{
  const char *text;
  gsize length;

  return bracket (c, &text, &length) && ps_parse_uint64 (text, length, value);
}

/* number = [ "-" ] 1*DIGIT [ "." *DIGIT ]; a "," decimal point is accepted
 * and reported through *comma. */
static gboolean
parse_decimal (const char *text,
               gsize       length,
               double     *value,
               gboolean   *comma)
{
  char buffer[64];
  gsize i = 0;
  gsize digits = 0;
  char *stop = NULL;

  if (length == 0 || length >= sizeof buffer)
    return FALSE;

  memcpy (buffer, text, length);
  buffer[length] = '\0';
  if (comma != NULL)
    *comma = FALSE;

  if (buffer[i] == '-')
    i++;
  while (g_ascii_isdigit (buffer[i]))
    {
      i++;
      digits++;
    }
  if (digits == 0)
    return FALSE;
  if (buffer[i] == '.' || buffer[i] == ',')
    {
      if (buffer[i] == ',')
        {
          if (comma == NULL)
            return FALSE;
          buffer[i] = '.';
          *comma = TRUE;
        }
      i++;
      while (g_ascii_isdigit (buffer[i]))
        i++;
    }
  if (i != length)
    return FALSE;

  *value = g_ascii_strtod (buffer, &stop);
  return stop == buffer + length;
}

/* DUR: optional minus and decimal digits, fitting gint64 (§4.3) */
static gboolean
parse_ticks (const char *text,
             gsize       length,
             gint64     *ticks)
{
  gboolean negative = length > 0 && text[0] == '-';
  guint64 magnitude;

  if (!ps_parse_uint64 (text + negative, length - negative, &magnitude))
    return FALSE;

  if (negative)
    {
      if (magnitude > (guint64) G_MAXINT64 + 1)
        return FALSE;
      *ticks = magnitude == (guint64) G_MAXINT64 + 1 ? G_MININT64 : -(gint64) magnitude;
    }
  else
    {
      if (magnitude > G_MAXINT64)
        return FALSE;
      *ticks = (gint64) magnitude;
    }

  return TRUE;
}

/* Case-insensitive search for the tag */
static const char *
find_tag (const char *text,
          gsize       length)
{
  const char *p = text;
  const char *end = text + length;

  while ((gsize) (end - p) >= TAG_LENGTH)
    {
      const char *hash = memchr (p, '#', end - p - TAG_LENGTH + 1);

      if (hash == NULL)
        return NULL;
      if (memcmp (hash, TAG, TAG_LENGTH) == 0 || g_ascii_strncasecmp (hash, TAG, TAG_LENGTH) == 0)
        return hash;
      p = hash + 1;
    }

  return NULL;
}

static void
forget_fast_path (CeParser *self)
{
  memset (&self->fast, 0, sizeof self->fast);
  for (guint i = 0; i < FAST_IDS; i++)
    self->fast.tracks[i] = PS_NONE;
}

/* Sessions (§4.2) */

static void
close_session (CeParser *self)
{
  if (self->session == PS_NONE)
    return;

  /* The applications registered after the first, which is given already */
  if (self->session_n_apps > 1)
    {
      ps_event_store_set_metadata (self->store, self->session, "APP", self->session_apps->str);
      ps_event_store_set_metadata (self->store, self->session, "PROCESSID", self->session_pids->str);
    }
  ps_event_store_set_session_end (self->store, self->session, self->session_last_line);
  if (self->session_has_durations && self->session_n_resolutions == 0)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-NORES",
                           ps_event_store_get_session (self->store, self->session)->first_line,
                           PS_NO_POSITION, self->session,
                           _("Session %u has no usable RESOLUTION line: durations are shown in ticks only"),
                           self->session + 1);
}

static void
open_session (CeParser *self,
              guint64   line,
              gboolean  implicit)
{
  close_session (self);

  /* The session's first measurement index must count every event before it */
  ps_store_builder_flush (self->parent.builder);
  self->session = ps_event_store_add_session (self->store, line, implicit);
  self->session_last_line = line;
  self->session_has_durations = FALSE;
  self->session_resolution = 0;
  self->session_n_resolutions = 0;
  self->session_n_apps = 0;
  g_string_truncate (self->session_apps, 0);
  g_string_truncate (self->session_pids, 0);
  g_hash_table_remove_all (self->registry);
  g_hash_table_remove_all (self->apps);
  g_hash_table_remove_all (self->warned_apps);
  g_string_truncate (self->noted_app, 0);
  self->noted_app_valid = FALSE;
  forget_fast_path (self);

  if (implicit)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-NOHEADER", line,
                           PS_NO_POSITION, self->session,
                           _("PerfLog data before any OSVERSION header line: opened a session without a header"));
}

static void
ensure_session (CeParser *self,
                guint64   line)
{
  if (self->session == PS_NONE)
    open_session (self, line, TRUE);
}

static void
set_metadata_slice (CeParser   *self,
                    const char *key,
                    const char *value,
                    gsize       length)
{
  g_autofree char *text = ps_util_display_text (value, length);

  ps_event_store_set_metadata (self->store, self->session, key, text);
}

/* Marker registry (§4.3) */

/* The key of (app, id) in self->key, which is reused: "app\nid" ("\n"
 * never occurs inside a line) */
static const char *
registry_key (CeParser   *self,
              const char *app,
              gsize       app_length,
              guint64     id)
{
  char digits[24];
  int n = 0;

  g_string_truncate (self->key, 0);
  g_string_append_len (self->key, app, app_length);
  g_string_append_c (self->key, '\n');
  do
    {
      digits[n++] = '0' + (char) (id % 10);
      id /= 10;
    }
  while (id > 0);
  while (n > 0)
    g_string_append_c (self->key, digits[--n]);

  return self->key->str;
}

static RegistryEntry *
registry_lookup (CeParser   *self,
                 const char *app,
                 gsize       app_length,
                 guint64     id)
{
  return g_hash_table_lookup (self->registry, registry_key (self, app, app_length, id));
}

/* ps_event_store_intern (), first trying the string it gave last time */
static guint32
intern_again (CeParser     *self,
              InternedName *last,
              const char   *text,
              gsize         length)
{
  if (last->id != PS_NONE && last->length == length
      && memcmp (ps_event_store_get_string (self->store, last->id), text, length) == 0)
    return last->id;

  last->id = ps_event_store_intern (self->store, text, length);
  last->length = length;
  return last->id;
}

static guint32
new_instance (CeParser   *self,
              const char *app,
              gsize       app_length,
              guint64     id,
              const char *description,
              gsize       description_length,
              guint64     line,
              gboolean    implicit)
{
  gboolean fast_app = id < FAST_IDS && self->fast.valid && app_length == self->fast.app_length
                      && memcmp (app, self->fast.app, app_length) == 0;
  RegistryEntry *entry = fast_app ? self->fast.entries[id] : NULL;
  PsTrack track = { 0 };
  guint32 index;

  if (entry == NULL)
    {
      entry = registry_lookup (self, app, app_length, id);
      if (entry == NULL)
        {
          entry = g_new0 (RegistryEntry, 1);
          g_hash_table_insert (self->registry, g_strdup (self->key->str), entry);
        }
      if (fast_app)
        self->fast.entries[id] = entry;
    }

  if (id < FAST_IDS)
    track.name = intern_again (self, &self->names[id], description, description_length);
  else
    track.name = ps_event_store_intern (self->store, description, description_length);
  track.category = intern_again (self, &self->category, app, app_length);
  track.parent = PS_NONE;
  track.session = self->session;
  track.number = (gint64) MIN (id, (guint64) G_MAXINT64);
  track.ordinal = ++entry->ordinal;
  track.line = line;
  track.kind = PS_TRACK_MARKER_INSTANCE;
  track.flags = implicit ? PS_TRACK_FLAG_IMPLICIT : PS_TRACK_FLAG_NONE;

  index = ps_event_store_add_track (self->store, &track);
  entry->track = index;
  g_byte_array_set_size (self->track_seen, index + 1);
  self->track_seen->data[index] = 0;
  /* A registration by the application the fast path knows (its events
   * have been checked already) can take DURs the fast way at once */
  if (id < FAST_IDS)
    self->fast.tracks[id] = !implicit && fast_app ? index : PS_NONE;

  return index;
}

/* Header and registration statements */

/* OWS "=" OWS br */
static gboolean
parse_key_value (Cursor      *c,
                 const char **value,
                 gsize       *length)
{
  skip_ows (c);
  if (!expect_char (c, '='))
    return FALSE;
  skip_ows (c);
  return bracket (c, value, length);
}

static gboolean
parse_osversion (CeParser *self,
                 Cursor   *c,
                 guint64   line)
{
  const char *version, *build;
  gsize version_length, build_length;

  if (!parse_key_value (c, &version, &version_length)
      || !skip_ws (c) || !keyword (c, "BUILD")
      || !parse_key_value (c, &build, &build_length) || !at_end (c))
    return FALSE;

  open_session (self, line, FALSE);
  set_metadata_slice (self, "OSVERSION", version, version_length);
  set_metadata_slice (self, "BUILD", build, build_length);
  return TRUE;
}

static gboolean
parse_platform (CeParser *self,
                Cursor   *c,
                guint64   line)
{
  const char *platform, *cpu;
  gsize platform_length, cpu_length;

  if (!parse_key_value (c, &platform, &platform_length)
      || !skip_ws (c) || !keyword (c, "CPU")
      || !parse_key_value (c, &cpu, &cpu_length) || !at_end (c))
    return FALSE;

  ensure_session (self, line);
  set_metadata_slice (self, "PLATFORM", platform, platform_length);
  set_metadata_slice (self, "CPU", cpu, cpu_length);
  return TRUE;
}

static gboolean
parse_devname (CeParser *self,
               Cursor   *c,
               guint64   line)
{
  const char *name;
  gsize length;

  if (!parse_key_value (c, &name, &length) || !at_end (c))
    return FALSE;

  ensure_session (self, line);
  set_metadata_slice (self, "DEVNAME", name, length);
  return TRUE;
}

/* The applications of a session, and their process ids, are each one
 * metadata value: the names joined with ", " in the order of their
 * REGISTERED APP lines. Joined here as they come and handed to the store
 * once the session ends, since each value given to the store is
 * interned: a value per line would keep every longer prefix of the list,
 * memory and time growing with the square of the registrations (a
 * harness that restarts its application registers it thousands of
 * times). The first one is given at once, so that the keys keep the
 * order of the lines. */
static void
append_metadata (CeParser   *self,
                 GString    *joined,
                 const char *key,
                 const char *value,
                 gsize       length)
{
  g_autofree char *text = ps_util_display_text (value, length);

  if (self->session_n_apps > 0)
    g_string_append (joined, ", ");
  g_string_append (joined, text);
  if (self->session_n_apps == 0)
    ps_event_store_set_metadata (self->store, self->session, key, joined->str);
}

/* REGISTERED APP [a] PROCCESSID [pid] */
static gboolean
parse_registered_app (CeParser *self,
                      Cursor   *c,
                      guint64   line)
{
  const char *app, *pid;
  gsize app_length, pid_length;

  if (!bracket (c, &app, &app_length) || !skip_ws (c)
      || !(keyword (c, "PROCCESSID") || keyword (c, "PROCESSID"))
      || !skip_ws (c) || !bracket (c, &pid, &pid_length) || !at_end (c))
    return FALSE;

  ensure_session (self, line);
  g_hash_table_add (self->apps, g_strndup (app, app_length));
  append_metadata (self, self->session_apps, "APP", app, app_length);
  append_metadata (self, self->session_pids, "PROCESSID", pid, pid_length);
  self->session_n_apps++;
  return TRUE;
}

/* After "] AS [n] BY APP [": the tail of a marker line, anchored at the end */
static gboolean
match_marker_tail (const char  *p,
                   const char  *end,
                   guint64     *id,
                   const char **app,
                   gsize       *app_length,
                   gboolean    *missing_bracket)
{
  Cursor c = { p, end };
  const char *close;

  if (!skip_ws (&c) || !keyword (&c, "AS") || !skip_ws (&c) || !bracket_uint (&c, id)
      || !skip_ws (&c) || !keyword (&c, "BY") || !skip_ws (&c) || !keyword (&c, "APP")
      || !skip_ws (&c))
    return FALSE;

  *missing_bracket = !expect_char (&c, '[');

  /* The statement was trimmed, so the last byte must be the closing "]" */
  if (c.end <= c.p || c.end[-1] != ']')
    return FALSE;
  close = c.end - 1;

  *app = c.p;
  *app_length = close - c.p;
  return TRUE;
}

/* "[d] AS [n] BY APP [a]" up to end — the description may contain
 * anything, so the split is the last "] AS [n] BY APP [a]" (§3). Only
 * reads: the scan stage uses it too. */
static gboolean
match_registered_marker (const char  *p,
                         const char  *end,
                         MarkerMatch *match)
{
  const char *description = p + 1;

  if (p >= end || *p != '[')
    return FALSE;

  for (const char *q = end - 1; q >= description; q--)
    {
      if (*q != ']')
        continue;
      if (!match_marker_tail (q + 1, end, &match->id, &match->app, &match->app_length,
                              &match->missing_bracket))
        continue;

      match->description = description;
      match->description_length = q - description;
      return TRUE;
    }

  return FALSE;
}

static void
register_marker (CeParser          *self,
                 const MarkerMatch *match,
                 guint64            line)
{
  ensure_session (self, line);
  if (match->missing_bracket && !(self->once & ONCE_BRACKET))
    {
      self->once |= ONCE_BRACKET;
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-BRACKET", line,
                             PS_NO_POSITION, self->session,
                             _("Marker registration without “[” before the application name; accepted"));
    }
  if (match->id > 103 && !(self->once & ONCE_HIGH_ID))
    {
      self->once |= ONCE_HIGH_ID;
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-HIGHID", line,
                             PS_NO_POSITION, self->session,
                             _("Marker id %llu is above the documented maximum of 103; accepted"),
                             (unsigned long long) match->id);
    }

  new_instance (self, match->app, match->app_length, match->id,
                match->description, match->description_length, line, FALSE);
}

static gboolean
parse_registered_marker (CeParser *self,
                         Cursor   *c,
                         guint64   line)
{
  MarkerMatch match;

  if (!match_registered_marker (c->p, c->end, &match))
    return FALSE;

  register_marker (self, &match, line);
  return TRUE;
}

/* RESOLUTION [n] TICKS PER SECOND, or the sibling logger's "Frequency is [n]
 * ticks per second" (§7 #5–#8, #40) */
static void
apply_resolution (CeParser   *self,
                  const char *text,
                  gsize       length,
                  guint64     line)
{
  guint64 rate = 0;
  g_autofree char *shown = ps_util_display_text (text, length);

  ensure_session (self, line);

  if (!ps_parse_uint64 (text, length, &rate) || rate == 0)
    {
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-BADRES", line,
                             PS_NO_POSITION, self->session,
                             _("RESOLUTION “%s” is not a positive whole number of ticks per second; ignored"),
                             shown);
      return;
    }

  if (self->session_n_resolutions == 0)
    {
      g_autofree char *value = g_strdup_printf ("%" PRIu64, rate);

      ps_event_store_set_metadata (self->store, self->session, "RESOLUTION", value);
      if (ps_store_builder_get_n_measurements (self->parent.builder)
          > ps_event_store_get_session (self->store, self->session)->first_measurement)
        ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-LATERES", line,
                               PS_NO_POSITION, self->session,
                               _("RESOLUTION comes after events; it applies to the whole session"));
    }
  else if ((double) rate != self->session_resolution)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-RESCHANGE", line,
                           PS_NO_POSITION, self->session,
                           _("RESOLUTION changes from %.0f to %llu ticks per second; later events use the new value"),
                           self->session_resolution, (unsigned long long) rate);

  ps_event_store_add_tick_rate (self->store, self->session,
                                ps_store_builder_get_n_measurements (self->parent.builder),
                                (double) rate);
  self->session_resolution = (double) rate;
  self->session_n_resolutions++;
}

static gboolean
parse_resolution (CeParser *self,
                  Cursor   *c,
                  guint64   line)
{
  const char *value;
  gsize length;

  if (!skip_ws (c) || !bracket (c, &value, &length)
      || !skip_ws (c) || !keyword (c, "TICKS") || !skip_ws (c) || !keyword (c, "PER")
      || !skip_ws (c) || !keyword (c, "SECOND") || !at_end (c))
    return FALSE;

  apply_resolution (self, value, length, line);
  return TRUE;
}

/* Events (§4.3) */

static void
note_app (CeParser   *self,
          const char *app,
          gsize       app_length,
          guint64     line)
{
  g_autofree char *name = NULL;

  /* Events mostly come from one application: remember the last one seen */
  if (self->noted_app_valid && self->noted_app->len == app_length
      && memcmp (self->noted_app->str, app, app_length) == 0)
    return;

  name = g_strndup (app, app_length);
  if (g_hash_table_contains (self->apps, name) || g_hash_table_contains (self->warned_apps, name))
    {
      g_string_assign (self->noted_app, name);
      self->noted_app_valid = TRUE;
      return;
    }

  {
    g_autofree char *shown = ps_util_display_text (app, app_length);

    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-UNKNOWNAPP", line,
                           PS_NO_POSITION, self->session,
                           _("Application “%s” was never registered with REGISTERED APP in this session; its events are kept"),
                           shown);
  }
  g_string_assign (self->noted_app, name);
  self->noted_app_valid = TRUE;
  g_hash_table_add (self->warned_apps, g_steal_pointer (&name));
}

static guint32
event_track (CeParser   *self,
             const char *app,
             gsize       app_length,
             guint64     id,
             guint64     line)
{
  RegistryEntry *entry = registry_lookup (self, app, app_length, id);
  g_autofree char *shown = NULL;

  if (entry != NULL && entry->track != PS_NONE)
    return entry->track;

  shown = ps_util_display_text (app, app_length);
  ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-UNREGISTERED", line,
                         PS_NO_POSITION, self->session,
                         _("Event for marker %llu of “%s”, which was never registered; "
                           "kept in an instance without description"),
                         (unsigned long long) id, shown);
  return new_instance (self, app, app_length, id, "", 0, line, TRUE);
}

static void
note_kind (CeParser *self,
           guint32   track,
           guint8    seen,
           guint64   line)
{
  guint8 *mask = &self->track_seen->data[track];
  guint8 before = *mask;

  if (before & seen)
    return;

  *mask |= seen;
  if (before != 0)
    {
      const PsTrack *t = ps_event_store_get_track (self->store, track);
      g_autofree char *shown = ps_util_display_text (ps_event_store_get_string (self->store, t->name), -1);

      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-MIXED", line,
                             PS_NO_POSITION, self->session,
                             _("Marker %lld (“%s”) receives more than one kind of event (DUR, CPU, MEM)"),
                             (long long) t->number, shown);
    }
}

static void
remember_for_fast_path (CeParser   *self,
                        const char *app,
                        gsize       app_length,
                        guint64     id,
                        guint32     track)
{
  if (id >= FAST_IDS || app_length > sizeof self->fast.app)
    return;

  if (!self->fast.valid || app_length != self->fast.app_length
      || memcmp (app, self->fast.app, app_length) != 0)
    {
      forget_fast_path (self);
      memcpy (self->fast.app, app, app_length);
      self->fast.app_length = app_length;
      self->fast.valid = TRUE;
    }

  self->fast.tracks[id] = track;
}

static void
bad_value (CeParser   *self,
           const char *kind,
           const char *value,
           gsize       length,
           const char *expected,
           guint64     line)
{
  g_autofree char *shown = ps_util_display_text (value, length);

  ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-BADVALUE", line,
                         PS_NO_POSITION, self->session,
                         _("%s value “%s” rejected: expected %s"), kind, shown, expected);
}

static void
add_event (CeParser   *self,
           const char *app,
           gsize       app_length,
           guint64     id,
           const char *kind,
           gsize       kind_length,
           const char *value,
           gsize       length,
           guint64     line)
{
  PsStoreBuilder *builder = self->parent.builder;
  guint32 track;

  ensure_session (self, line);
  note_app (self, app, app_length, line);

  if (kind_length == 3 && g_ascii_strncasecmp (kind, "DUR", 3) == 0)
    {
      gint64 ticks;

      if (!parse_ticks (value, length, &ticks))
        {
          bad_value (self, "DUR", value, length, _("whole timer ticks fitting 64 bits, such as “45210”"), line);
          return;
        }
      track = event_track (self, app, app_length, id, line);
      note_kind (self, track, SEEN_DUR, line);
      ps_store_builder_add_duration (builder, track, line, ticks,
                                     ticks < 0 ? PS_MEASURE_FLAG_NEGATIVE : PS_MEASURE_FLAG_NONE);
      self->session_has_durations = TRUE;
      remember_for_fast_path (self, app, app_length, id, track);
    }
  else if (kind_length == 3 && g_ascii_strncasecmp (kind, "CPU", 3) == 0)
    {
      double percent;
      gboolean comma;

      if (!parse_decimal (value, length, &percent, &comma))
        {
          bad_value (self, "CPU", value, length, _("a percentage such as “57.843834”"), line);
          return;
        }
      if (comma && !(self->once & ONCE_COMMA))
        {
          self->once |= ONCE_COMMA;
          ps_store_builder_warn (builder, PS_SEVERITY_WARNING, "W-COMMA", line, PS_NO_POSITION,
                                 self->session,
                                 _("CPU value with a decimal comma; read as a decimal point"));
        }
      track = event_track (self, app, app_length, id, line);
      note_kind (self, track, SEEN_CPU, line);
      ps_store_builder_add_cpu (builder, track, line, percent,
                                percent < 0 || percent > 100 ? PS_MEASURE_FLAG_OUT_OF_RANGE
                                                             : PS_MEASURE_FLAG_NONE);
      remember_for_fast_path (self, app, app_length, id, track);
    }
  else if (kind_length == 3 && g_ascii_strncasecmp (kind, "MEM", 3) == 0)
    {
      guint64 bytes;
      double number;

      if (ps_parse_uint64 (value, length, &bytes))
        {
          track = event_track (self, app, app_length, id, line);
          note_kind (self, track, SEEN_MEM, line);
          ps_store_builder_add_memory (builder, track, line, bytes, PS_MEASURE_FLAG_NONE);
          remember_for_fast_path (self, app, app_length, id, track);
        }
      else if (length > 0 && value[0] != '-' && parse_decimal (value, length, &number, NULL))
        {
          g_autofree char *shown = ps_util_display_text (value, length);

          track = event_track (self, app, app_length, id, line);
          note_kind (self, track, SEEN_MEM, line);
          ps_store_builder_add_memory_number (builder, track, line, number, PS_MEASURE_FLAG_NONE);
          ps_store_builder_warn (builder, PS_SEVERITY_WARNING, "W-FRACTION", line, PS_NO_POSITION,
                                 self->session,
                                 _("MEM value “%s” has a fraction; kept as a decimal number"), shown);
        }
      else
        bad_value (self, "MEM", value, length, _("an unsigned whole number such as “10059776”"), line);
    }
  else
    {
      g_autofree char *kind_name = g_ascii_strup (kind, kind_length);

      track = event_track (self, app, app_length, id, line);
      ps_store_builder_add_other (builder, track, line, kind_name, -1, value, length);
      if (!g_hash_table_contains (self->other_kinds, kind_name))
        {
          ps_store_builder_warn (builder, PS_SEVERITY_INFO, "I-OTHERKIND", line, PS_NO_POSITION,
                                 self->session,
                                 _("Undocumented event kind “%s”; its values are kept as text"), kind_name);
          g_hash_table_add (self->other_kinds, g_steal_pointer (&kind_name));
        }
    }
}

/* "[number]" after CAL or CPU CAL: never an event (§7 #35) */
static gboolean
skip_calibration (CeParser   *self,
                  Cursor     *c,
                  guint64     line,
                  const char *malformed_message)
{
  const char *number;
  gsize number_length;
  double unused;

  if (!skip_ws (c) || !bracket (c, &number, &number_length) || !at_end (c))
    return FALSE;

  ensure_session (self, line);
  if (!parse_decimal (number, number_length, &unused, NULL))
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-BADCAL", line,
                           PS_NO_POSITION, self->session, "%s", malformed_message);
  return TRUE;
}

/* APP [a] CAL [n] / APP [a] CPU CAL [n] / APP [a] CPU MON [a] FREQ [n] /
 * APP [a] EVT [n] KIND [v] */
static gboolean
parse_app_statement (CeParser *self,
                     Cursor   *c,
                     guint64   line)
{
  const char *app, *number, *kind, *value;
  gsize app_length, number_length, kind_length, value_length;
  guint64 id;
  double unused;

  if (!skip_ws (c) || !bracket (c, &app, &app_length) || !skip_ws (c))
    return FALSE;

  if (keyword (c, "EVT"))
    {
      if (!skip_ws (c) || !bracket_uint (c, &id) || !skip_ws (c))
        return FALSE;
      kind = c->p;
      while (c->p < c->end && (g_ascii_isalnum (*c->p) || *c->p == '_'))
        c->p++;
      kind_length = c->p - kind;
      if (kind_length == 0 || !skip_ws (c) || !bracket (c, &value, &value_length) || !at_end (c))
        return FALSE;

      add_event (self, app, app_length, id, kind, kind_length, value, value_length, line);
      return TRUE;
    }

  if (keyword (c, "CAL"))
    return skip_calibration (self, c, line, _("Calibration line with a value that is not a number; skipped"));

  if (keyword (c, "CPU"))
    {
      if (!skip_ws (c))
        return FALSE;
      if (keyword (c, "CAL"))
        return skip_calibration (self, c, line,
                                 _("CPU calibration line with a value that is not a number; skipped"));
      if (keyword (c, "MON"))
        {
          const char *monitor;
          gsize monitor_length;

          if (!skip_ws (c) || !bracket (c, &monitor, &monitor_length) || !skip_ws (c)
              || !keyword (c, "FREQ") || !skip_ws (c) || !bracket (c, &number, &number_length)
              || !at_end (c))
            return FALSE;
          ensure_session (self, line);
          if (parse_decimal (number, number_length, &unused, NULL))
            set_metadata_slice (self, "CPU_MON_FREQ", number, number_length);
          else
            ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-BADCAL", line,
                                   PS_NO_POSITION, self->session,
                                   _("CPU monitor line with a frequency that is not a number; skipped"));
          return TRUE;
        }
    }

  return FALSE;
}

/* The sibling "multi perf logger" dialect (§7 #40) */
static void
dialect_warning (CeParser *self,
                 guint64   line)
{
  if (self->once & ONCE_DIALECT)
    return;
  self->once |= ONCE_DIALECT;
  ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-DIALECT", line,
                         PS_NO_POSITION, self->session,
                         _("Lines of the CE multi perf logger, not of PerfLog.dll; read as well as they can be"));
}

static gboolean
parse_dialect (CeParser *self,
               Cursor   *c,
               guint64   line)
{
  Cursor start = *c;
  const char *text, *name;
  gsize length, name_length;
  guint64 ticks;

  /* Frequency is [N] ticks per second */
  if (keyword (c, "Frequency") && skip_ws (c) && keyword (c, "is") && skip_ws (c)
      && bracket (c, &text, &length) && skip_ws (c) && keyword (c, "ticks") && skip_ws (c)
      && keyword (c, "per") && skip_ws (c) && keyword (c, "second") && at_end (c))
    {
      ensure_session (self, line);
      dialect_warning (self, line);
      apply_resolution (self, text, length, line);
      return TRUE;
    }

  /* [name] took [N] ticks: a registration and one duration */
  *c = start;
  if (bracket (c, &name, &name_length) && skip_ws (c) && keyword (c, "took") && skip_ws (c)
      && bracket_uint (c, &ticks) && skip_ws (c) && keyword (c, "ticks") && at_end (c)
      && ticks <= G_MAXINT64)
    {
      guint32 track;

      ensure_session (self, line);
      dialect_warning (self, line);
      track = new_instance (self, "", 0, 0, name, name_length, line, FALSE);
      note_kind (self, track, SEEN_DUR, line);
      ps_store_builder_add_duration (self->parent.builder, track, line, (gint64) ticks, 0);
      self->session_has_durations = TRUE;
      return TRUE;
    }

  *c = start;
  return FALSE;
}

static void
parse_statement (CeParser   *self,
                 const char *text,
                 gsize       length,
                 guint64     line,
                 gboolean    terminated)
{
  Cursor c = { text, text + length };
  gboolean ok = FALSE;

  /* Trailing blanks are allowed after every statement */
  while (c.end > c.p && ps_parse_is_blank (c.end[-1]))
    c.end--;

  if (keyword (&c, "OSVERSION"))
    ok = parse_osversion (self, &c, line);
  else if (keyword (&c, "PLATFORM"))
    ok = parse_platform (self, &c, line);
  else if (keyword (&c, "DEVNAME"))
    ok = parse_devname (self, &c, line);
  else if (keyword (&c, "RESOLUTION"))
    ok = parse_resolution (self, &c, line);
  else if (keyword (&c, "APP"))
    ok = parse_app_statement (self, &c, line);
  else if (keyword (&c, "REGISTERED"))
    {
      if (skip_ws (&c))
        {
          if (keyword (&c, "APP"))
            ok = skip_ws (&c) && parse_registered_app (self, &c, line);
          else if (keyword (&c, "MARKER"))
            ok = skip_ws (&c) && parse_registered_marker (self, &c, line);
        }
    }
  else
    ok = parse_dialect (self, &c, line);

  if (ok)
    {
      self->session_last_line = line;
      return;
    }

  ensure_session (self, line);
  self->session_last_line = line;

  {
    g_autofree char *shown = ps_util_display_text (text, MIN (length, 200));

    if (!terminated)
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-TRUNCATED", line,
                             PS_NO_POSITION, self->session,
                             _("The last line is incomplete (“%s”); it was discarded"), shown);
    else
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-UNKNOWN", line,
                             PS_NO_POSITION, self->session,
                             _("Not a PerfLog statement: “%s”; expected a header, REGISTERED, APP … EVT, CAL or RESOLUTION line"),
                             shown);
  }
}

static void
handle_line (const PsLine *pl,
             gpointer      user_data)
{
  CeParser *self = user_data;
  const char *text = pl->text;
  gsize length = pl->length;
  const char *nul;
  const char *tag;
  const char *p;

  if (!self->encoding_reported)
    {
      PsTextEncoding encoding = ps_line_reader_get_encoding (self->reader);

      self->encoding_reported = TRUE;
      if (encoding == PS_TEXT_ENCODING_UTF16LE || encoding == PS_TEXT_ENCODING_UTF16BE)
        ps_store_builder_warn (self->parent.builder, PS_SEVERITY_INFO, "I-UTF16", 0, 0, PS_NONE,
                               "%s", encoding == PS_TEXT_ENCODING_UTF16LE
                                 ? _("The file is UTF-16LE text; it was decoded")
                                 : _("The file is UTF-16BE text; it was decoded"));
    }

  /* NUL ends the line's content in an 8-bit file (§7 #29) */
  nul = memchr (text, '\0', length);
  if (nul != NULL)
    {
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-NUL", pl->number,
                             pl->offset + (nul - text),
                             self->session,
                             _("NUL byte at byte offset %llu; the rest of the line is ignored"),
                             (unsigned long long) (pl->offset + (nul - text)));
      length = nul - text;
    }

  if (pl->truncated)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-LONGLINE", pl->number,
                           pl->offset, self->session,
                           _("Line longer than %u MiB; only its beginning was read"),
                           MAX_LINE_LENGTH / (1024 * 1024));

  tag = find_tag (text, length);
  if (tag == NULL)
    {
      gboolean blank = TRUE;

      for (gsize i = 0; i < length && blank; i++)
        blank = g_ascii_isspace (text[i]);
      if (blank)
        return;

      /* ### PERF TEST [ name ] ### names a test in the sibling dialect */
      p = text;
      while (p < text + length && ps_parse_is_blank (*p))
        p++;
      if ((gsize) (text + length - p) > 14 && g_ascii_strncasecmp (p, "### PERF TEST ", 14) == 0)
        {
          const char *open = memchr (p, '[', text + length - p);
          const char *close = open ? memchr (open, ']', text + length - open) : NULL;

          ensure_session (self, pl->number);
          dialect_warning (self, pl->number);
          if (close != NULL)
            {
              g_autofree char *name = g_strstrip (g_strndup (open + 1, close - open - 1));

              set_metadata_slice (self, "TEST", name, strlen (name));
            }
          return;
        }

      if (self->n_foreign++ == 0)
        self->first_foreign_line = pl->number;
      return;
    }

  for (p = text; p < tag; p++)
    if (!ps_parse_is_blank (*p))
      break;
  if (p < tag && !(self->once & ONCE_PREFIX))
    {
      g_autofree char *shown = ps_util_display_text (text, MIN ((gsize) (tag - text), 80));

      self->once |= ONCE_PREFIX;
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PREFIX", pl->number,
                             pl->offset, self->session,
                             _("Text before “## PERF ##” (“%s”) was skipped; lines with such a prefix are read without it"),
                             shown);
    }

  p = tag + TAG_LENGTH;
  if (p < text + length && !ps_parse_is_blank (*p))
    {
      /* The tag must be followed by white space */
      parse_statement (self, "", 0, pl->number, pl->terminated);
      return;
    }
  while (p < text + length && ps_parse_is_blank (*p))
    p++;

  parse_statement (self, p, text + length - p, pl->number, pl->terminated);
}

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
  batch->chunk = NULL;
  batch->chunk_length = 0;
  batch->n_records = 0;
  ps_kept_lines_reset (&batch->lines);
  ps_batch_pool_give_back (self->batches, batch);
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
 * the general way would (match_registered_marker ()). */
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
scan_fast_lines (const char *data,
                 gsize       available,
                 guint64     line_number,
                 guint64     offset,
                 guint64    *n_lines,
                 gpointer    user_data)
{
  CeParser *self = user_data;
  Batch *batch = self->scanning;
  gsize start = (guintptr) data - (guintptr) batch->chunk;
  /* Locals, not fields: the records' byte stores could alias the fields */
  AppCache app = self->last_app;
  Record *records = batch->records;
  gsize n_records = batch->n_records;
  gsize pos = 0;

  *n_lines = 0;
  if (batch->chunk == NULL || batch->chunk_length > G_MAXUINT32
      || start >= batch->chunk_length || available > batch->chunk_length - start)
    return 0;
  batch->chunk_offset = offset - start;
  if (n_records == 0)
    batch->first_line = line_number;

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
  Batch *batch = self->scanning;
  Record *record = batch_add_record (batch, line->number);

  record->value = ps_kept_lines_add (&batch->lines, line, batch->chunk, batch->chunk_length);
  record->offset = 0;
  record->info = RECORD_INFO (RECORD_LINE, 0, 0, 0);
}

static gpointer
ce_scan (PsParser     *parser,
         const guint8 *data,
         gsize         length)
{
  CeParser *self = (CeParser *) parser;
  Batch *batch = ps_batch_pool_take (self->batches);

  batch->chunk = (const char *) data;
  batch->chunk_length = length;
  self->scanning = batch;
  ps_line_reader_feed (self->reader, data, length);
  self->scanning = NULL;

  return batch;
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
  const char *text = batch->chunk + record->offset;
  const char *newline = memchr (text, '\n', batch->chunk_length - record->offset);
  const AppName *app = &self->app_names[RECORD_APP (record)];
  PsLine pl = { 0 };

  pl.text = text;
  pl.length = newline - text;
  if (pl.length > 0 && text[pl.length - 1] == '\r')
    pl.length--;
  pl.number = line;
  pl.offset = batch->chunk_offset + record->offset;
  pl.terminated = TRUE;
  handle_line (&pl, self);

  if (RECORD_APP (record) != 0 && self->fast.valid && self->fast.app_token == 0
      && app->length == self->fast.app_length && memcmp (app->name, self->fast.app, app->length) == 0)
    self->fast.app_token = RECORD_APP (record);
}

/* A registration line as parse_statement () would take it after trimming
 * its trailing blanks; FALSE if it does not match */
static gboolean
apply_marker (CeParser     *self,
              const Batch  *batch,
              const Record *record,
              guint64       line)
{
  const char *text = batch->chunk + record->offset;
  const char *end = text + record->value;
  MarkerMatch match;

  while (ps_parse_is_blank (end[-1]))
    end--;
  if (!match_registered_marker (text + MARKER_PREFIX_LENGTH - 1, end, &match))
    return FALSE;

  register_marker (self, &match, line);
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
          handle_line (ps_kept_lines_get (&batch->lines, (guint) record->value), self);
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
  Batch *batch = ps_batch_pool_take (self->batches);

  /* The last line, if it has no line end */
  self->scanning = batch;
  ps_line_reader_finish (self->reader);
  self->scanning = NULL;
  ce_apply (parser, batch, NULL);

  close_session (self);

  if (self->n_foreign > 0)
    ps_store_builder_warn (parser->builder, PS_SEVERITY_INFO, "I-FOREIGN", self->first_foreign_line,
                           PS_NO_POSITION, PS_NONE,
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
  g_clear_pointer (&self->batches, ps_batch_pool_free);
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
  forget_fast_path (self);
  for (guint i = 0; i < FAST_IDS; i++)
    self->names[i].id = PS_NONE;
  self->category.id = PS_NONE;

  self->batches = ps_batch_pool_new (batch_new, batch_free);

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

  if (find_tag (text, n) != NULL)
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

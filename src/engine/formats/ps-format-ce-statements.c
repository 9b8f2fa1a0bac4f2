/* ps-format-ce-statements.c — what each line of a CE PerfLog means
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §3 (grammar), §4 (sessions, marker registry, event
 * assignment, value validation) and §7 (every malformed case).
 *
 * The apply stage of ps-format-ce-perflog.c hands every line here in file
 * order: a cursor reads its statement, sessions open and close, markers
 * are registered, and events become measurements of their marker's track.
 * A fault becomes a warning with its line number.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-format-ce-perflog-private.h"
#include "ps-util.h"

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
const char *
ce_find_tag (const char *text,
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

void
ce_forget_fast_path (CeParser *self)
{
  memset (&self->fast, 0, sizeof self->fast);
  for (guint i = 0; i < FAST_IDS; i++)
    self->fast.tracks[i] = PS_NONE;
}

/* Sessions (§4.2) */

void
ce_close_session (CeParser *self)
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
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-NORES",
                           ps_event_store_get_session (self->store, self->session)->first_line,
                           _("Session %u has no usable RESOLUTION line: durations are shown in ticks only"),
                           self->session + 1);
}

static void
open_session (CeParser *self,
              guint64   line,
              gboolean  implicit)
{
  ce_close_session (self);

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
  ce_forget_fast_path (self);

  if (implicit)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-NOHEADER", line,
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
gboolean
ce_match_registered_marker (const char  *p,
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

void
ce_register_marker (CeParser          *self,
                    const MarkerMatch *match,
                    guint64            line)
{
  ensure_session (self, line);
  if (match->missing_bracket && !(self->once & ONCE_BRACKET))
    {
      self->once |= ONCE_BRACKET;
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-BRACKET", line,
                             _("Marker registration without “[” before the application name; accepted"));
    }
  if (match->id > 103 && !(self->once & ONCE_HIGH_ID))
    {
      self->once |= ONCE_HIGH_ID;
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-HIGHID", line,
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

  if (!ce_match_registered_marker (c->p, c->end, &match))
    return FALSE;

  ce_register_marker (self, &match, line);
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
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-BADRES", line,
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
        ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-LATERES", line,
                               _("RESOLUTION comes after events; it applies to the whole session"));
    }
  else if ((double) rate != self->session_resolution)
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-RESCHANGE", line,
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

    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-UNKNOWNAPP", line,
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
  ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-UNREGISTERED", line,
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

      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-MIXED", line,
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
      ce_forget_fast_path (self);
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

  ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-BADVALUE", line,
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
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-COMMA", line,
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
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-FRACTION", line,
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
          ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_INFO, "I-OTHERKIND", line,
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
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-BADCAL", line,
                           "%s", malformed_message);
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
            ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-BADCAL", line,
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
  ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-DIALECT", line,
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

void
ce_parse_statement (CeParser   *self,
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
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-TRUNCATED", line,
                             _("The last line is incomplete (“%s”); it was discarded"), shown);
    else
      ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-UNKNOWN", line,
                             _("Not a PerfLog statement: “%s”; expected a header, REGISTERED, APP … EVT, CAL or RESOLUTION line"),
                             shown);
  }
}

void
ce_handle_line (const PsLine *pl,
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
        ps_parse_warn_at_offset (&self->parent, PS_NONE, PS_SEVERITY_INFO, "I-UTF16", 0,
                                 "%s", encoding == PS_TEXT_ENCODING_UTF16LE
                                   ? _("The file is UTF-16LE text; it was decoded")
                                   : _("The file is UTF-16BE text; it was decoded"));
    }

  /* NUL ends the line's content in an 8-bit file (§7 #29) */
  nul = memchr (text, '\0', length);
  if (nul != NULL)
    {
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-NUL",
                             &(PsWarningPlace) { pl->number, pl->offset + (nul - text), self->session },
                             _("NUL byte at byte offset %llu; the rest of the line is ignored"),
                             (unsigned long long) (pl->offset + (nul - text)));
      length = nul - text;
    }

  if (pl->truncated)
    ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-LONGLINE",
                           &(PsWarningPlace) { pl->number, pl->offset, self->session },
                           _("Line longer than %u MiB; only its beginning was read"),
                           MAX_LINE_LENGTH / (1024 * 1024));

  tag = ce_find_tag (text, length);
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
      ps_store_builder_warn (self->parent.builder, PS_SEVERITY_WARNING, "W-PREFIX",
                             &(PsWarningPlace) { pl->number, pl->offset, self->session },
                             _("Text before “## PERF ##” (“%s”) was skipped; lines with such a prefix are read without it"),
                             shown);
    }

  p = tag + TAG_LENGTH;
  if (p < text + length && !ps_parse_is_blank (*p))
    {
      /* The tag must be followed by white space */
      ce_parse_statement (self, "", 0, pl->number, pl->terminated);
      return;
    }
  while (p < text + length && ps_parse_is_blank (*p))
    p++;

  ce_parse_statement (self, p, text + length - p, pl->number, pl->terminated);
}

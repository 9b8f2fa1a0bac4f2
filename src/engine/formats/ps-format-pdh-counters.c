/* ps-format-pdh-counters.c — what a counter path of a PDH log's header
 * names: its machine, object, instance and counter, the unit inferred
 * from its name, and the tracks they become
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 (the counter path and its parse algorithm).
 *
 * Apart from the reader (ps-format-pdh-csv.c) because a path is read once
 * per column of the header and never again: the rows only look up the
 * column's counter track.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-format-pdh-csv-private.h"
#include "ps-util.h"

/* Objects whose instances are "Parent/Instance" (§7.2: only these are split) */
static const char * const objects_with_parents[] = {
  "Thread",
  "Job Object Details",
};

/* ------------------------------------------------------------------------ */
/* Counter paths (§7.2 [OURS] parse algorithm)                              */

typedef struct
{
  const char *machine;          /* NULL when the path has none */
  gsize       machine_length;
  const char *object;
  gsize       object_length;
  const char *instance;         /* NULL for single-instance objects */
  gsize       instance_length;
  const char *parent;           /* NULL when not split */
  gsize       parent_length;
  gint64      index;            /* #n, 0 if not written */
  const char *counter;
  gsize       counter_length;
} CounterPath;

static gboolean
object_has_parents (const char *object,
                    gsize       length)
{
  for (guint i = 0; i < G_N_ELEMENTS (objects_with_parents); i++)
    if (strlen (objects_with_parents[i]) == length
        && g_ascii_strncasecmp (objects_with_parents[i], object, length) == 0)
      return TRUE;
  return FALSE;
}

/* FALSE when the path has no counter part (no backslash at all); `out`
 * then holds the whole text as the counter */
static gboolean
parse_counter_path (const char  *path,
                    gsize        length,
                    CounterPath *out)
{
  const char *p = path;
  const char *end = path + length;
  const char *last_backslash = NULL;
  const char *middle, *middle_end;

  memset (out, 0, sizeof *out);

  /* \\computer\ */
  if (end - p >= 2 && p[0] == '\\' && p[1] == '\\')
    {
      const char *machine_end = memchr (p + 2, '\\', end - (p + 2));

      if (machine_end != NULL)
        {
          out->machine = p + 2;
          out->machine_length = machine_end - (p + 2);
          p = machine_end + 1;
        }
      else
        p += 2;
    }
  else if (p < end && p[0] == '\\')
    p++;

  /* The counter: after the last backslash (instances may hold backslashes,
   * counter names never do) */
  for (const char *q = end; q > p; q--)
    if (q[-1] == '\\')
      {
        last_backslash = q - 1;
        break;
      }
  if (last_backslash == NULL)
    {
      out->object = "";
      out->counter = p;
      out->counter_length = end - p;
      return FALSE;
    }

  out->counter = last_backslash + 1;
  out->counter_length = end - out->counter;
  middle = p;
  middle_end = last_backslash;

  /* Object(instance-part): from the first '(' to the final ')' */
  out->object = middle;
  out->object_length = middle_end - middle;
  if (middle_end > middle && middle_end[-1] == ')')
    {
      const char *open = memchr (middle, '(', middle_end - middle);

      if (open != NULL && open < middle_end - 1)
        {
          const char *instance = open + 1;
          const char *instance_end = middle_end - 1;
          const char *hash = instance_end;

          out->object_length = open - middle;

          /* #digits only at the end */
          while (hash > instance && g_ascii_isdigit (hash[-1]))
            hash--;
          if (hash < instance_end && hash > instance + 1 && hash[-1] == '#'
              && instance_end - hash <= 9)
            {
              gint64 index = 0;

              for (const char *d = hash; d < instance_end; d++)
                index = index * 10 + (*d - '0');
              out->index = index;
              instance_end = hash - 1;
            }

          /* Parent/ only at the first '/', only for objects with parents */
          if (object_has_parents (out->object, out->object_length))
            {
              const char *slash = memchr (instance, '/', instance_end - instance);

              if (slash != NULL && slash > instance && slash + 1 < instance_end)
                {
                  out->parent = instance;
                  out->parent_length = slash - instance;
                  instance = slash + 1;
                }
            }

          out->instance = instance;
          out->instance_length = instance_end - instance;
        }
      else if (open != NULL)
        {
          /* "Object()": an empty instance */
          out->object_length = open - middle;
          out->instance = open + 1;
          out->instance_length = 0;
        }
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Units, inferred from the counter's name: the file has no counter types    */

static gboolean
contains (const char *haystack,
          const char *needle)
{
  return strstr (haystack, needle) != NULL;
}

static gboolean
ends_with (const char *text,
           const char *suffix)
{
  gsize length = strlen (text), suffix_length = strlen (suffix);

  return length >= suffix_length && strcmp (text + length - suffix_length, suffix) == 0;
}

/* One of "%", "bytes/sec", "bits/sec", "/sec", "ms", "s", "MB", "KB",
 * "bytes", or NULL. Names are matched case-insensitively, in English;
 * localized names mostly get no unit (a "%" is found in any language). */
static const char *
infer_unit (const char *counter,
            gsize       length)
{
  g_autofree char *name = g_ascii_strdown (counter, length);
  gboolean per_second;

  g_strstrip (name);

  if (contains (name, "%"))
    return "%";
  if (contains (name, "(ms)") || ends_with (name, " ms") || contains (name, "millisec")
      || ends_with (name, " msec"))
    return "ms";

  per_second = ends_with (name, "/sec") || ends_with (name, "/ sec") || ends_with (name, "/s")
               || ends_with (name, "per sec") || ends_with (name, "per second");
  if (per_second)
    {
      if (contains (name, "byte"))
        return "bytes/sec";
      if (contains (name, "bits"))
        return "bits/sec";
      return "/sec";
    }

  /* "Avg. Disk sec/Read": seconds per operation */
  if (contains (name, "sec/") || contains (name, "(sec)")
      || contains (name, "elapsed time") || ends_with (name, "up time") || ends_with (name, "seconds"))
    return "s";
  if (contains (name, "mbytes") || contains (name, "(mb)"))
    return "MB";
  if (contains (name, "kbytes") || contains (name, "(kb)"))
    return "KB";
  if (contains (name, "bytes") || g_str_has_prefix (name, "working set"))
    return "bytes";

  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Tracks                                                                    */

/* The tracks of machines, objects and instances are found again by their
 * fields through an open-addressing table of track indices: a header of a
 * million columns, each of its own instance, costs a few bytes a track
 * here rather than a string key each */
static guint
track_hash (PsTrackKind kind,
            guint32     parent,
            guint32     name,
            guint32     category,
            gint64      number)
{
  guint64 hash = (guint64)kind * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  hash = (hash ^ parent) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  hash = (hash ^ name) * G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  hash = (hash ^ category) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  hash = (hash ^ (guint64)number) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  return (guint)(hash >> 32);
}

static guint
track_hash_of_id (guint32  id,
                  gpointer user_data)
{
  const PsTrack *track = ps_event_store_get_track (user_data, id);

  return track_hash (track->kind, track->parent, track->name, track->category, track->number);
}

static guint32
find_or_add_track (PdhParser   *self,
                   PsTrackKind  kind,
                   guint32      parent,
                   const char  *name,
                   gsize        name_length,
                   const char  *category,
                   gsize        category_length,
                   gint64       number)
{
  PsTrack track = { 0 };
  guint32 name_id = ps_event_store_intern (self->store, name, name_length);
  guint32 category_id = category != NULL ? ps_event_store_intern (self->store, category, category_length) : 0;
  guint32 slot;
  guint32 index;

  for (slot = ps_id_table_first_slot (&self->track_index, track_hash (kind, parent, name_id, category_id, number));
       (index = ps_id_table_id_at (&self->track_index, slot)) != PS_ID_TABLE_FREE;
       slot = ps_id_table_next_slot (&self->track_index, slot))
    {
      const PsTrack *found = ps_event_store_get_track (self->store, index);

      if (found->kind == kind && found->parent == parent && found->name == name_id
          && found->category == category_id && found->number == number)
        return index;
    }

  track.name = name_id;
  track.category = category_id;
  track.parent = parent;
  track.session = self->session;
  track.number = number;
  track.line = self->header_line;
  track.kind = kind;
  track.flags = PS_TRACK_FLAG_NONE;

  index = ps_event_store_add_track (self->store, &track);
  ps_id_table_insert_at (&self->track_index, slot, index, track_hash_of_id, self->store);

  return index;
}

guint32
pdh_add_counter_column (PdhParser  *self,
                        guint       column,
                        const char *path,
                        gsize       path_length)
{
  CounterPath parsed;
  guint32 parent = PS_NONE;
  PsTrack track = { 0 };
  const char *unit;

  if (!parse_counter_path (path, path_length, &parsed))
    ps_parse_warn_at_line (&self->parent, self->session, PS_SEVERITY_WARNING, "W-PDH-PATH", self->header_line,
                           _("Column %u: “%s” is not a counter path; expected \\\\Computer\\Object(Instance)\\Counter"),
                           column + 1, path);

  if (parsed.machine != NULL)
    parent = find_or_add_track (self, PS_TRACK_MACHINE, PS_NONE, parsed.machine, parsed.machine_length,
                                NULL, 0, 0);
  parent = find_or_add_track (self, PS_TRACK_OBJECT, parent, parsed.object, parsed.object_length, NULL, 0, 0);
  if (parsed.instance != NULL)
    parent = find_or_add_track (self, PS_TRACK_INSTANCE, parent, parsed.instance, parsed.instance_length,
                                parsed.parent, parsed.parent_length, parsed.index);

  /* Counters are never shared: a repeated path is a column of its own */
  unit = infer_unit (parsed.counter, parsed.counter_length);
  track.name = ps_event_store_intern (self->store, parsed.counter, parsed.counter_length);
  track.category = ps_event_store_intern (self->store, path, path_length);
  track.parent = parent;
  track.session = self->session;
  track.number = column;
  track.unit = unit != NULL ? ps_event_store_intern (self->store, unit, -1) : 0;
  track.line = self->header_line;
  track.kind = PS_TRACK_COUNTER;
  track.flags = PS_TRACK_FLAG_NONE;

  return ps_event_store_add_track (self->store, &track);
}

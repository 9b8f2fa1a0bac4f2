/* ps-counter-name.c — what a counter track is called in the outputs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "counters".
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "ps-counter-name.h"
#include "ps-perflib-block.h"

/* Deeper parent chains than this are a broken store, not counters */
#define MAX_ANCESTORS 64

static const char *
string_or_null (PsEventStore *store,
                guint32       id)
{
  const char *text = id != 0 ? ps_event_store_get_string (store, id) : NULL;

  return text != NULL && *text != '\0' ? text : NULL;
}

static char *
instance_display (PsEventStore  *store,
                  const PsTrack *instance)
{
  GString *text = g_string_new (NULL);
  const char *parent = string_or_null (store, instance->category);

  if (parent != NULL)
    g_string_append_printf (text, "%s/", parent);
  g_string_append (text, ps_event_store_get_string (store, instance->name));
  if (instance->number > 0)
    g_string_append_printf (text, "#%" PRId64, instance->number);
  return g_string_free (text, FALSE);
}

void
ps_counter_name_init (PsCounterName *self,
                      PsEventStore  *store,
                      guint32        track_index,
                      gboolean       absolute_times)
{
  const PsTrack *track = ps_event_store_get_track (store, track_index);
  guint32 ancestor = track->parent;

  memset (self, 0, sizeof *self);
  self->counter = ps_event_store_get_string (store, track->name);
  self->unit = string_or_null (store, track->unit);
  self->path = string_or_null (store, track->category);
  if (track->flags & PS_TRACK_FLAG_COUNTER_TYPE)
    self->type = ps_perflib_type_to_string (track->ordinal);
  if (absolute_times && track->session < ps_event_store_get_n_sessions (store))
    self->origin_ns = ps_event_store_get_session (store, track->session)->origin_unix_ns;

  for (guint depth = 0; ancestor != PS_NONE && ancestor < ps_event_store_get_n_tracks (store)
                        && depth < MAX_ANCESTORS; depth++)
    {
      const PsTrack *up = ps_event_store_get_track (store, ancestor);

      if (up->kind == PS_TRACK_INSTANCE && self->instance == NULL)
        self->instance = instance_display (store, up);
      else if (up->kind == PS_TRACK_OBJECT && self->object == NULL)
        self->object = ps_event_store_get_string (store, up->name);
      else if (up->kind == PS_TRACK_MACHINE && self->machine == NULL)
        self->machine = ps_event_store_get_string (store, up->name);
      ancestor = up->parent;
    }
}

void
ps_counter_name_clear (PsCounterName *self)
{
  g_clear_pointer (&self->instance, g_free);
}

gboolean
ps_counter_name_origins_known (PsEventStore *store)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);

      if (track->kind != PS_TRACK_COUNTER)
        continue;
      if (track->session >= ps_event_store_get_n_sessions (store)
          || ps_event_store_get_session (store, track->session)->origin_unix_ns == 0)
        return FALSE;
    }
  return TRUE;
}

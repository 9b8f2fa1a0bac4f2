/* ps-profile-track-row.c — a process or a thread of the profile view's list
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ps-profile-track-row.h"
#include "ps-view-util.h"
#include "ps-util.h"


struct _PsProfileTrackRow
{
  GObject     parent_instance;

  guint32     track;
  gboolean    process;
  char       *label;
  GListStore *threads;        /* PsProfileTrackRow, NULL for a thread */
  guint64     samples;        /* with its threads' */
  double      percent;
  char       *samples_text;
  char       *percent_text;
};

enum {
  ROW_PROP_0,
  ROW_PROP_LABEL,
  ROW_PROP_SAMPLES,
  ROW_PROP_SAMPLES_TEXT,
  ROW_PROP_PERCENT_TEXT,
  N_ROW_PROPS
};

static GParamSpec *row_properties[N_ROW_PROPS];

G_DEFINE_FINAL_TYPE (PsProfileTrackRow, ps_profile_track_row, G_TYPE_OBJECT)

static void
ps_profile_track_row_finalize (GObject *object)
{
  PsProfileTrackRow *self = PS_PROFILE_TRACK_ROW (object);

  g_free (self->label);
  g_clear_object (&self->threads);
  g_free (self->samples_text);
  g_free (self->percent_text);

  G_OBJECT_CLASS (ps_profile_track_row_parent_class)->finalize (object);
}

static void
ps_profile_track_row_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PsProfileTrackRow *self = PS_PROFILE_TRACK_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case ROW_PROP_SAMPLES:
      g_value_set_uint64 (value, self->samples);
      break;
    case ROW_PROP_SAMPLES_TEXT:
      g_value_set_string (value, self->samples_text);
      break;
    case ROW_PROP_PERCENT_TEXT:
      g_value_set_string (value, self->percent_text);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_profile_track_row_class_init (PsProfileTrackRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_profile_track_row_finalize;
  object_class->get_property = ps_profile_track_row_get_property;

  row_properties[ROW_PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  row_properties[ROW_PROP_SAMPLES] =
    g_param_spec_uint64 ("samples", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  row_properties[ROW_PROP_SAMPLES_TEXT] =
    g_param_spec_string ("samples-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  row_properties[ROW_PROP_PERCENT_TEXT] =
    g_param_spec_string ("percent-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_ROW_PROPS, row_properties);
}

static void
ps_profile_track_row_init (PsProfileTrackRow *self)
{
}

/* By the one rule for digits (ps-view-util.h), as the call tree's shares */
static char *
format_percent (double percent)
{
  return ps_view_format_number (percent);
}

void
ps_profile_track_row_set_samples (PsProfileTrackRow *self,
                                  guint64            samples,
                                  guint64            total)
{
  double percent = total > 0 ? 100.0 * samples / total : 0;
  g_autofree char *percent_text = format_percent (percent);

  if (self->samples != samples)
    {
      self->samples = samples;
      g_free (self->samples_text);
      self->samples_text = ps_view_format_count (samples);
      g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_SAMPLES]);
      g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_SAMPLES_TEXT]);
    }
  self->percent = percent;
  if (g_strcmp0 (self->percent_text, percent_text) != 0)
    {
      g_free (self->percent_text);
      self->percent_text = g_steal_pointer (&percent_text);
      g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_PERCENT_TEXT]);
    }
}

static char *
track_label (PsEventStore  *store,
             const PsTrack *track)
{
  g_autofree char *name = ps_util_display_text (ps_event_store_get_string (store, track->name), -1);
  g_autofree char *number = g_strdup_printf ("%lld", (long long) track->number);
  gboolean named = *name != '\0' && !g_str_equal (name, number);

  /* A name made of the id already ("pid 5", "tid 500") says it all */
  if (named && strstr (name, number) != NULL)
    return g_steal_pointer (&name);

  if (track->kind == PS_TRACK_PROCESS)
    {
      if (named)
        /* Translators: a process name and its id, "dd (1234)" */
        return g_strdup_printf (_("%s (%s)"), name, number);
      /* Translators: a process without a name, by its id */
      return g_strdup_printf (_("Process %s"), number);
    }
  if (named)
    /* Translators: a thread, its id and its name, "Thread 100234 (main)" */
    return g_strdup_printf (_("Thread %s (%s)"), number, name);
  /* Translators: a thread by its id */
  return g_strdup_printf (_("Thread %s"), number);
}

PsProfileTrackRow *
ps_profile_track_row_new (PsEventStore *store,
                          guint32       track_index)
{
  const PsTrack *track = ps_event_store_get_track (store, track_index);
  PsProfileTrackRow *self = g_object_new (PS_TYPE_PROFILE_TRACK_ROW, NULL);

  self->track = track_index;
  self->process = track->kind == PS_TRACK_PROCESS;
  self->label = track_label (store, track);
  self->samples_text = ps_view_format_count (0);
  self->percent_text = format_percent (0);
  if (self->process)
    self->threads = g_list_store_new (PS_TYPE_PROFILE_TRACK_ROW);
  return self;
}

guint32
ps_profile_track_row_get_track (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), PS_NONE);
  return self->track;
}

gboolean
ps_profile_track_row_is_process (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), FALSE);
  return self->process;
}

const char *
ps_profile_track_row_get_label (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), NULL);
  return self->label;
}

guint64
ps_profile_track_row_get_samples (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), 0);
  return self->samples;
}

double
ps_profile_track_row_get_percent (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), 0);
  return self->percent;
}

const char *
ps_profile_track_row_get_samples_text (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), NULL);
  return self->samples_text;
}

const char *
ps_profile_track_row_get_percent_text (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), NULL);
  return self->percent_text;
}

GListModel *
ps_profile_track_row_get_threads (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), NULL);
  return self->threads != NULL ? G_LIST_MODEL (self->threads) : NULL;
}

GListStore *
ps_profile_track_row_get_threads_store (PsProfileTrackRow *self)
{
  g_return_val_if_fail (PS_IS_PROFILE_TRACK_ROW (self), NULL);
  return self->threads;
}


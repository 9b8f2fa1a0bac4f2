/* ps-timeline-render-model.c — the rows of a timeline and its label column
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the drawing (ps-timeline-render.c) because it is made once
 * for a run, often off the main thread, and only read by each frame: the
 * rows of the threads, counters and charts, their layout, and the labels
 * as they fit the label column. A sampled run's rows are made in
 * ps-timeline-render-samples.c, a CE run's charts in
 * ps-timeline-render-measurements.c.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-timeline-render-private.h"
#include "ps-view-util.h"
#include "ps-util.h"

/* Model */

static void forget_row_labels (PsTimelineModel *self);

static void
row_free (PsTimelineRow *row)
{
  g_clear_pointer (&row->values, ps_value_lod_unref);
  g_clear_pointer (&row->lane, ps_timeline_sample_lane_free);
  if (!row->label_shared)
    g_free (row->label);
  g_free (row->tooltip);
  if (!row->value_key_shared)
    g_free (row->value_key);
  g_clear_pointer (&row->changes, g_array_unref);
  g_free (row->match_label);
  g_free (row);
}

PsTimelineRow *
ps_timeline_model_add_row (PsTimelineModel   *self,
                           PsTimelineRowKind  kind,
                           guint32            track,
                           guint              group,
                           char              *label)
{
  PsTimelineRow *row = g_new0 (PsTimelineRow, 1);

  row->kind = kind;
  row->track = track;
  row->group = group;
  row->label = label;
  row->unit_scale = 1;
  row->session = G_MAXUINT;
  g_ptr_array_add (self->rows, row);
  return row;
}

/* What matches a chart with the same chart of another run (whose scale it
 * may share): its group's label, its own and its unit */
void
ps_timeline_model_set_value_key (PsTimelineModel *self,
                                 PsTimelineRow   *row)
{
  const PsTimelineRow *group = row->group < self->rows->len ? g_ptr_array_index (self->rows, row->group) : NULL;
  const char *group_label = group == NULL ? "" : group->match_label != NULL ? group->match_label : group->label;

  row->value_key = g_strdup_printf ("%s\x1f%s\x1f%s", group_label, row->label,
                                    row->unit != NULL ? row->unit : "");
}

void
ps_timeline_model_widen_extent (PsTimelineModel *self,
                                gint64           begin,
                                gint64           end)
{
  self->extent_begin = MIN (self->extent_begin, begin);
  self->extent_end = MAX (self->extent_end, end);
}

char *
ps_timeline_track_label (PsEventStore  *store,
                         const PsTrack *track)
{
  const char *raw = ps_event_store_get_string (store, track->name);
  g_autofree char *name = raw != NULL && *raw != '\0' ? ps_util_display_text (raw, -1) : NULL;

  if (track->kind == PS_TRACK_THREAD)
    /* Translators: a timeline row; %s is the thread's id or name */
    return g_strdup_printf (_("Thread %s"), name != NULL ? name : "?");
  /* The counters of many instances share a name ("% Processor Time" of
   * every CPU): their instance tells them apart */
  if (track->kind == PS_TRACK_COUNTER && track->parent != PS_NONE
      && track->parent < ps_event_store_get_n_tracks (store))
    {
      const PsTrack *parent = ps_event_store_get_track (store, track->parent);
      const char *raw_instance = ps_event_store_get_string (store, parent->name);

      if (parent->kind == PS_TRACK_INSTANCE && raw_instance != NULL && *raw_instance != '\0')
        {
          g_autofree char *instance = ps_util_display_text (raw_instance, -1);

          /* Translators: a timeline row of a counter: instance — counter */
          return g_strdup_printf (_("%s — %s"), instance, name != NULL ? name : _("(unnamed)"));
        }
    }
  return g_strdup (name != NULL ? name : _("(unnamed)"));
}

static void
add_span_rows (PsTimelineModel *self)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint n_sessions = ps_event_store_get_n_sessions (store);
  guint group = G_MAXUINT;
  guint group_session = G_MAXUINT;

  if (self->lod == NULL)
    return;

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      guint n_depths = ps_span_lod_get_n_depths (self->lod, t);
      guint64 n_marks = ps_span_lod_get_n_marks (self->lod, t);
      PsTimelineRow *row;

      if (n_depths == 0 && n_marks == 0)
        continue;

      /* One group per session: concatenated logs stay apart */
      if (group == G_MAXUINT || track->session != group_session)
        {
          char *label = n_sessions > 1
            /* Translators: a timeline group; %u is a 1-based number */
            ? g_strdup_printf (_("Threads of session %u"), track->session + 1)
            : g_strdup (_("Threads"));

          group = self->rows->len;
          group_session = track->session;
          ps_timeline_model_add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT, label)->session = n_sessions > 1 ? track->session
                                                                                                 : G_MAXUINT;
        }

      row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_SPANS, t, group, ps_timeline_track_label (store, track));
      row->n_depths = n_depths;
      row->has_marks = n_marks > 0;
      row->tooltip = g_strdup_printf (ngettext ("%s: %" PRIu64 " span, %" PRIu64 " messages",
                                                "%s: %" PRIu64 " spans, %" PRIu64 " messages",
                                                ps_span_lod_get_n_spans (self->lod, t)),
                                      row->label, ps_span_lod_get_n_spans (self->lod, t), n_marks);
    }

  {
    gint64 begin, end;

    /* Spans, marks and every other timed event */
    if (ps_event_store_get_time_range (store, &begin, &end))
      ps_timeline_model_widen_extent (self, begin, end);
  }
}

/* Counter tracks of the store: a chart each, of every counter track or
 * of those in counter_tracks (guint32). The extent is the whole run's
 * either way, so that checking a counter does not move the view. FALSE
 * when cancellable (may be NULL) was cancelled. */
static gboolean
add_counter_rows (PsTimelineModel *self,
                  const GArray    *counter_tracks,
                  GCancellable    *cancellable)
{
  PsEventStore *store = self->store;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_values = ps_event_store_get_n_counter_values (store);
  g_autofree gboolean *wanted = NULL;
  g_autofree GArray **xs = NULL;
  g_autofree GArray **ys = NULL;
  guint n_wanted = 0;
  guint group = G_MAXUINT;
  gint64 begin, end;

  self->counter_rows_begin = self->rows->len;
  if (n_values == 0)
    return TRUE;
  if (ps_event_store_get_time_range (store, &begin, &end))
    ps_timeline_model_widen_extent (self, begin, end);

  wanted = g_new0 (gboolean, n_tracks);
  for (guint t = 0; t < n_tracks; t++)
    if (counter_tracks == NULL)
      wanted[t] = TRUE;
  for (guint i = 0; counter_tracks != NULL && i < counter_tracks->len; i++)
    {
      guint32 t = g_array_index (counter_tracks, guint32, i);

      if (t < n_tracks && !wanted[t])
        wanted[t] = TRUE, n_wanted++;
    }
  if (counter_tracks != NULL && n_wanted == 0)
    return TRUE;

  xs = g_new0 (GArray *, n_tracks);
  ys = g_new0 (GArray *, n_tracks);
  for (guint64 i = 0; i < n_values; i++)
    {
      const PsCounterValue *value = ps_event_store_get_counter_value (store, i);
      double number;

      if (ps_util_stop_at (i, cancellable))
        {
          for (guint32 t = 0; t < n_tracks; t++)
            {
              g_clear_pointer (&xs[t], g_array_unref);
              g_clear_pointer (&ys[t], g_array_unref);
            }
          return FALSE;
        }
      if (value->track >= n_tracks || !wanted[value->track])
        continue;
      if (xs[value->track] == NULL)
        {
          xs[value->track] = g_array_new (FALSE, FALSE, sizeof (gint64));
          ys[value->track] = g_array_new (FALSE, FALSE, sizeof (double));
        }
      number = value->flags & PS_COUNTER_FLAG_MISSING ? NAN : value->value;
      g_array_append_val (xs[value->track], value->time_ns);
      g_array_append_val (ys[value->track], number);
    }

  for (guint32 t = 0; t < n_tracks; t++)
    {
      g_autoptr(GArray) x = g_steal_pointer (&xs[t]);
      g_autoptr(GArray) y = g_steal_pointer (&ys[t]);
      const PsTrack *track = ps_event_store_get_track (store, t);
      PsTimelineRow *row;
      gint64 x_min, x_max;
      double v_min, v_max;
      const char *path;

      if (x == NULL)
        continue;
      if (group == G_MAXUINT)
        {
          group = self->rows->len;
          ps_timeline_model_add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT, g_strdup (_("Counters")));
        }
      row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_VALUES, t, group, ps_timeline_track_label (store, track));
      row->values = ps_value_lod_new ((const gint64 *)(gpointer)x->data, (const double *)(gpointer)y->data, x->len);
      row->unit = g_intern_string (track->unit != 0 ? ps_event_store_get_string (store, track->unit) : "");
      ps_timeline_model_set_value_key (self, row);
      /* A PDH counter's full path (\\Machine\Object(Instance)\Counter) */
      path = track->kind == PS_TRACK_COUNTER ? ps_event_store_get_string (store, track->category) : NULL;
      if (path != NULL && *path != '\0')
        row->tooltip = ps_util_display_text (path, -1);
      if (ps_value_lod_get_range (row->values, &x_min, &x_max, &v_min, &v_max))
        ps_timeline_model_widen_extent (self, x_min, x_max);
    }
  return TRUE;
}

void
ps_timeline_model_set_counter_tracks (PsTimelineModel *self,
                                      const GArray    *counter_tracks)
{
  g_return_if_fail (self != NULL);

  /* Counter rows come last on a time axis (measurements have none) */
  if (self->sequence_axis)
    return;
  g_ptr_array_set_size (self->rows, MIN (self->counter_rows_begin, self->rows->len));
  add_counter_rows (self, counter_tracks, NULL);
  forget_row_labels (self);
  /* The overview is counted again, at the width it is drawn */
  g_clear_pointer (&self->overview_fine, g_free);
  ps_timeline_model_layout (self);
}

void
ps_timeline_series_rows_init (PsTimelineSeriesRows *rows)
{
  rows->group = G_MAXUINT;
  rows->group_category = PS_NONE;
  rows->group_session = G_MAXUINT;
  rows->last_label = NULL;
  rows->last_row = NULL;
  rows->texts = g_hash_table_new (g_str_hash, g_str_equal);
  rows->keys = g_hash_table_new (g_str_hash, g_str_equal);
}

void
ps_timeline_series_rows_clear (PsTimelineSeriesRows *rows)
{
  g_clear_pointer (&rows->last_label, g_free);
  g_clear_pointer (&rows->texts, g_hash_table_unref);
  g_clear_pointer (&rows->keys, g_hash_table_unref);
}

void
ps_timeline_model_add_series_rows (PsTimelineModel        *self,
                                   PsTimelineSeriesRows   *rows,
                                   const PsTimelineSeries *series,
                                   guint                   n_series)
{
  gboolean per_session = ps_event_store_get_n_sessions (self->store) > 1;

  for (guint i = 0; i < n_series; i++)
    {
      const PsTimelineSeries *one = &series[i];
      const PsTrack *track = ps_event_store_get_track (self->store, one->track);
      guint32 category = track != NULL ? track->category : 0;
      guint32 session = track != NULL && per_session ? track->session : G_MAXUINT;
      PsTimelineRow *row;
      const PsTimelineRow *prev_row;
      gboolean consecutive;
      gint64 x_min, x_max;
      double v_min, v_max;

      if (one->n_points == 0)
        {
          if (one->points_release != NULL)
            one->points_release (one->points_owner);
          else if (one->take_points)
            {
              g_free ((gpointer)one->x);
              g_free ((gpointer)one->values);
            }
          continue;
        }
      /* CE: one group per application, and per session in appended
       * logs, where each session registers its applications anew */
      if (rows->group == G_MAXUINT || category != rows->group_category || session != rows->group_session)
        {
          const char *raw = ps_event_store_get_string (self->store, category);
          char *name = raw != NULL && *raw != '\0' ? ps_util_display_text (raw, -1) : g_strdup (_("Markers"));
          PsTimelineRow *group_row;

          rows->group = self->rows->len;
          rows->group_category = category;
          rows->group_session = session;
          if (session == G_MAXUINT)
            group_row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT, name);
          else
            {
              /* Translators: an application's rows, or a thread, of one
               * of the runs appended to one log */
              group_row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_GROUP, PS_NONE, G_MAXUINT,
                                                     g_strdup_printf (_("%s (session %u)"), name, session + 1));
              group_row->match_label = name;
            }
          group_row->session = session;
        }
      /* The instances of one marker, one after another, and all rows of
       * one text: their text once, at one address, which also spares the
       * label column comparing their texts */
      prev_row = rows->last_row;
      consecutive = rows->last_row != NULL && rows->last_row->group == rows->group
                    && g_strcmp0 (one->label, rows->last_label) == 0;
      if (consecutive)
        {
          row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_VALUES, one->track, rows->group,
                                           rows->last_row->label);
          row->label_shared = TRUE;
        }
      else
        {
          char *text = ps_util_display_text (one->label, -1);
          char *known = g_hash_table_lookup (rows->texts, text);

          if (known != NULL)
            {
              g_free (text);
              row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_VALUES, one->track, rows->group, known);
              row->label_shared = TRUE;
            }
          else
            {
              row = ps_timeline_model_add_row (self, PS_TIMELINE_ROW_VALUES, one->track, rows->group, text);
              g_hash_table_add (rows->texts, text);
            }
        }
      /* Copied: the series may be handed over a part at a time */
      if (!consecutive)
        {
          g_free (rows->last_label);
          rows->last_label = g_strdup (one->label);
        }
      rows->last_row = row;
      if (one->points_release != NULL)
        {
          PsValueLodPoints block = {
            .x = one->x,
            .x_narrow = one->x_narrow,
            .values = one->values,
            .value_pages = one->value_pages,
            .divisor = one->divisor,
          };

          row->values = ps_value_lod_new_in_block (&block, one->n_points, one->points_owner, one->points_release);
        }
      else if (one->take_points)
        row->values = ps_value_lod_new_take ((gint64 *)one->x, (double *)one->values, one->n_points);
      else
        row->values = ps_value_lod_new (one->x, one->values, one->n_points);
      row->unit = g_intern_string (one->unit != NULL ? one->unit : "");
      row->unit_scale = one->unit_scale > 0 ? one->unit_scale : 1;
      /* The label, the group and the unit make the key: another instance
       * of the marker above has its key, and one of a marker before it
       * the key made then */
      if (consecutive && prev_row->unit == row->unit)
        {
          row->value_key = prev_row->value_key;
          row->value_key_shared = TRUE;
        }
      else
        {
          char *known;

          ps_timeline_model_set_value_key (self, row);
          known = g_hash_table_lookup (rows->keys, row->value_key);
          if (known != NULL)
            {
              g_free (row->value_key);
              row->value_key = known;
              row->value_key_shared = TRUE;
            }
          else
            g_hash_table_add (rows->keys, row->value_key);
        }
      /* Its tooltip is written when asked for (ps_timeline_row_tooltip ()):
       * a CE log has a row per marker instance */
      row->counts_values = TRUE;
      if (ps_value_lod_get_range (row->values, &x_min, &x_max, &v_min, &v_max))
        ps_timeline_model_widen_extent (self, x_min, x_max);
    }
}

gboolean
ps_timeline_store_has_sequence_axis (PsEventStore *store)
{
  return ps_series_points_suit (store);
}

PsTimelineModel *
ps_timeline_model_new (PsEventStore *store,
                       PsSpanLod    *lod)
{
  return ps_timeline_model_new_full (store, lod, NULL, PS_NONE, NULL);
}

PsTimelineModel *
ps_timeline_model_alloc (PsEventStore *store,
                         PsSpanLod    *lod,
                         gboolean      sequence_axis,
                         guint32       sample_source)
{
  PsTimelineModel *self = g_new0 (PsTimelineModel, 1);

  self->store = g_object_ref (store);
  self->lod = lod != NULL ? ps_span_lod_ref (lod) : NULL;
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify)row_free);
  self->sequence_axis = sequence_axis;
  self->extent_begin = G_MAXINT64;
  self->extent_end = G_MININT64;
  self->sample_source = sample_source < ps_event_store_get_n_sample_sources (store) ? sample_source : PS_NONE;
  return self;
}

PsTimelineModel *
ps_timeline_model_new_samples (PsEventStore *store,
                               guint32       sample_source,
                               GCancellable *cancellable)
{
  PsTimelineModel *self;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = ps_timeline_model_alloc (store, NULL, FALSE, sample_source);
  if (!ps_timeline_model_add_all_sample_rows (self, cancellable))
    {
      ps_timeline_model_free (self);
      return NULL;
    }
  return self;
}

/* Whether the row after a group (r + 1 < end) is of that kind */
static gboolean
group_leads_to (GPtrArray         *rows,
                guint              r,
                guint              end,
                PsTimelineRowKind  kind)
{
  const PsTimelineRow *row = g_ptr_array_index (rows, r);

  return row->kind == PS_TIMELINE_ROW_GROUP && r + 1 < end
         && ((const PsTimelineRow *)g_ptr_array_index (rows, r + 1))->kind == kind;
}

void
ps_timeline_model_take_sample_rows (PsTimelineModel *self,
                                    PsTimelineModel *samples)
{
  guint old_end, new_end;

  g_return_if_fail (self != NULL);
  g_return_if_fail (samples != NULL && samples->store == self->store);

  old_end = MIN (self->sample_rows_end, self->rows->len);
  new_end = MIN (samples->sample_rows_end, samples->rows->len);
  /* A group of rates or of lanes stays open or closed as the user left it */
  for (guint r = 0; r + 1 < new_end; r++)
    for (guint o = 0; o + 1 < old_end; o++)
      {
        PsTimelineRow *row = g_ptr_array_index (samples->rows, r);
        const PsTimelineRow *next = g_ptr_array_index (samples->rows, r + 1);

        if (row->kind == PS_TIMELINE_ROW_GROUP && group_leads_to (self->rows, o, old_end, next->kind))
          row->collapsed = ((const PsTimelineRow *)g_ptr_array_index (self->rows, o))->collapsed;
      }

  g_ptr_array_remove_range (self->rows, 0, old_end);
  for (guint r = new_end; r > 0; r--)
    g_ptr_array_insert (self->rows, 0, g_ptr_array_steal_index (samples->rows, r - 1));
  /* The rows after them point to their groups by index */
  for (guint r = new_end; r < self->rows->len; r++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->rows, r);

      if (row->group != G_MAXUINT)
        row->group = row->group - old_end + new_end;
    }
  self->counter_rows_begin = self->counter_rows_begin - old_end + new_end;
  self->sample_rows_end = new_end;
  self->sample_source = samples->sample_source;
  if (samples->extent_begin <= samples->extent_end)
    ps_timeline_model_widen_extent (self, samples->extent_begin, samples->extent_end);
  forget_row_labels (self);
  ps_timeline_model_free (samples);
  ps_timeline_model_layout (self);
}

PsTimelineModel *
ps_timeline_model_new_full (PsEventStore *store,
                            PsSpanLod    *lod,
                            const GArray *counter_tracks,
                            guint32       sample_source,
                            GCancellable *cancellable)
{
  PsTimelineModel *self;
  const PsSessionInfo *session;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self = ps_timeline_model_alloc (store, lod, FALSE, sample_source);

  session = ps_event_store_get_n_sessions (store) > 0 ? ps_event_store_get_session (store, 0) : NULL;
  if (session != NULL)
    self->origin_unix_ns = session->origin_unix_ns;

  /* A sampled run's samples before its lifetimes */
  if (!ps_timeline_model_add_all_sample_rows (self, cancellable))
    {
      ps_timeline_model_free (self);
      return NULL;
    }
  add_span_rows (self);
  if (!add_counter_rows (self, counter_tracks, cancellable))
    {
      ps_timeline_model_free (self);
      return NULL;
    }
  ps_timeline_model_finish (self);
  return self;
}

void
ps_timeline_model_finish (PsTimelineModel *self)
{
  if (self->extent_begin > self->extent_end)
    self->extent_begin = 0, self->extent_end = 1;
  if (self->extent_end == self->extent_begin)
    self->extent_end++;

  ps_timeline_model_layout (self);
}

void
ps_timeline_model_free (PsTimelineModel *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->store);
  g_clear_pointer (&self->lod, ps_span_lod_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_object (&self->labels_context);
  forget_row_labels (self);
  g_free (self->overview_busy);
  g_free (self->overview_fine);
  g_clear_pointer (&self->points, ps_series_points_unref);
  g_free (self);
}

guint32
ps_timeline_model_chart_track (const PsTimelineModel *self,
                               guint32                track)
{
  g_return_val_if_fail (self != NULL, track);

  return self->chart_tracks != NULL && track < self->n_chart_tracks ? self->chart_tracks[track] : track;
}

gboolean
ps_timeline_model_get_track_extent (const PsTimelineModel *self,
                                    guint32                track,
                                    gint64                *first,
                                    gint64                *last)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->track_extents == NULL || track >= self->n_chart_tracks
      || self->track_extents[2 * (gsize)track] == G_MAXINT64)
    return FALSE;
  *first = self->track_extents[2 * (gsize)track];
  *last = self->track_extents[2 * (gsize)track + 1];
  return TRUE;
}

guint32 *
ps_timeline_model_get_chart_members (const PsTimelineModel *self,
                                     guint32                chart_track,
                                     guint                 *n_members)
{
  GArray *members = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (self != NULL && n_members != NULL, NULL);

  if (self->chart_tracks == NULL || chart_track >= self->n_chart_tracks)
    g_array_append_val (members, chart_track);
  /* A marker's instances come at or after its first */
  for (guint32 t = chart_track; self->chart_tracks != NULL && t < self->n_chart_tracks; t++)
    if (self->chart_tracks[t] == chart_track)
      g_array_append_val (members, t);
  *n_members = members->len;
  return (guint32 *)(gpointer)g_array_free (members, FALSE);
}

void
ps_timeline_model_layout (PsTimelineModel *self)
{
  double y = 0;

  /* Rows may have come or gone: the overview counts them again (from
   * overview_fine, which goes only with the rows it counted) */
  g_clear_pointer (&self->overview_busy, g_free);

  for (guint i = 0; i < self->rows->len; i++)
    {
      PsTimelineRow *row = g_ptr_array_index (self->rows, i);

      row->hidden = row->group != G_MAXUINT &&
                    ((PsTimelineRow *)g_ptr_array_index (self->rows, row->group))->collapsed;
      row->y = y;
      switch (row->kind)
        {
        case PS_TIMELINE_ROW_GROUP:
          row->height = PS_TIMELINE_GROUP_HEIGHT;
          break;
        case PS_TIMELINE_ROW_SPANS:
          row->height = (row->has_marks ? PS_TIMELINE_MARK_HEIGHT : 0)
                        + MAX (row->n_depths, 1) * PS_TIMELINE_SPAN_HEIGHT + PS_TIMELINE_ROW_GAP;
          break;
        case PS_TIMELINE_ROW_SAMPLES:
          row->height = PS_TIMELINE_LANE_HEIGHT + PS_TIMELINE_LANE_GAP;
          break;
        case PS_TIMELINE_ROW_VALUES:
        default:
          row->height = PS_TIMELINE_VALUES_HEIGHT + PS_TIMELINE_ROW_GAP;
          break;
        }
      if (row->hidden)
        row->height = 0;
      y += row->height;
    }
  self->rows_height = y;
}

int
ps_timeline_model_row_at (PsTimelineModel *self,
                          double           y)
{
  guint low = 0, high = self->rows->len;

  if (y < 0)
    return -1;
  /* Rows are placed top to bottom: the last one starting at or above y */
  while (low < high)
    {
      guint mid = low + (high - low) / 2;
      PsTimelineRow *row = g_ptr_array_index (self->rows, mid);

      if (row->y <= y)
        low = mid + 1;
      else
        high = mid;
    }
  while (low > 0)
    {
      PsTimelineRow *row = g_ptr_array_index (self->rows, low - 1);

      if (!row->hidden && row->height > 0)
        return y < row->y + row->height ? (int)low - 1 : -1;
      low--;
    }
  return -1;
}

double
ps_timeline_row_depth_y (const PsTimelineRow *row,
                         guint                depth)
{
  return row->y + (row->has_marks ? PS_TIMELINE_MARK_HEIGHT : 0) + depth * PS_TIMELINE_SPAN_HEIGHT;
}

int
ps_timeline_row_depth_at (const PsTimelineRow *row,
                          double               y)
{
  double top = ps_timeline_row_depth_y (row, 0);
  int depth;

  if (row->kind != PS_TIMELINE_ROW_SPANS || y < top)
    return -1;
  depth = (int)floor ((y - top) / PS_TIMELINE_SPAN_HEIGHT);
  return depth < (int)row->n_depths ? depth : -1;
}

/* The label column */

const char *
ps_timeline_model_axis_name (const PsTimelineModel *model)
{
  return model->sequence_axis
         /* Translators: the timeline's x axis for data without timestamps */
         ? _("Sequence (no timestamps)")
         /* Translators: the timeline's x axis */
         : _("Time from start");
}

const char *
ps_timeline_overview_name (void)
{
  /* Translators: the strip above the timeline that shows the whole run */
  return _("Whole run");
}

/* In Pango units, as pango_layout_set_width () takes them */
static int
text_width (PangoLayout *layout,
            const char  *text)
{
  int width;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_size (layout, &width, NULL);
  return width;
}

static void
forget_label_column (PsTimelineModel *self)
{
  g_clear_object (&self->label_context);
  g_clear_pointer (&self->text_drawn, g_free);
  g_clear_pointer (&self->label_cuts, g_hash_table_unref);
}

/* The rows changed: their labels are found again */
static void
forget_row_labels (PsTimelineModel *self)
{
  forget_label_column (self);
  g_clear_pointer (&self->label_texts, g_ptr_array_unref);
  g_clear_pointer (&self->row_text, g_free);
}

void
ps_timeline_model_index_labels (PsTimelineModel *self)
{
  g_autoptr(GHashTable) index_of = NULL;
  const char *last = NULL;
  guint32 last_index = G_MAXUINT32;

  g_return_if_fail (self != NULL);

  if (self->row_text != NULL && self->n_row_text == self->rows->len)
    return;
  forget_row_labels (self);
  /* Rows repeat a few texts at one address (the rows of one marker one
   * after another, compared without hashing): addresses are told apart,
   * not texts; a text at two addresses is two entries, measured and cut
   * alike */
  index_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->label_texts = g_ptr_array_new ();
  self->row_text = g_new (guint32, MAX (self->rows->len, 1));
  self->n_row_text = self->rows->len;
  for (guint r = 0; r < self->rows->len; r++)
    {
      const PsTimelineRow *row = g_ptr_array_index (self->rows, r);
      gpointer found;

      if (row->kind == PS_TIMELINE_ROW_GROUP)
        {
          self->row_text[r] = G_MAXUINT32;
          continue;
        }
      if (row->label != last)
        {
          last = row->label;
          if (g_hash_table_lookup_extended (index_of, row->label, NULL, &found))
            last_index = GPOINTER_TO_UINT (found);
          else
            {
              last_index = self->label_texts->len;
              g_ptr_array_add (self->label_texts, row->label);
              g_hash_table_insert (index_of, row->label, GUINT_TO_POINTER (last_index));
            }
        }
      self->row_text[r] = last_index;
    }
}

static PangoLayout *
label_layout (PangoContext *pango)
{
  PangoLayout *layout = pango_layout_new (pango);

  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

/* What is measured holds for this context as it is now, else is measured
 * again: its font may have changed */
static void
measure_label_column (PsTimelineModel *self,
                      PangoContext    *pango)
{
  g_autoptr(PangoLayout) layout = NULL;
  int widest;

  /* Rows added since their labels were found: found again */
  if (self->row_text != NULL && self->n_row_text != self->rows->len)
    forget_row_labels (self);
  if (self->label_context == pango && self->label_serial == pango_context_get_serial (pango))
    return;
  forget_label_column (self);
  ps_timeline_model_index_labels (self);
  self->label_context = g_object_ref (pango);
  self->label_serial = pango_context_get_serial (pango);
  layout = label_layout (pango);
  widest = MAX (text_width (layout, ps_timeline_model_axis_name (self)), text_width (layout, ps_timeline_overview_name ()));
  self->label_natural_width = HEADER_LABEL_START + HEADER_LABEL_END + (double)widest / PANGO_SCALE;
  /* A group's heading spans the whole width */
  for (guint i = 0; i < self->label_texts->len; i++)
    self->label_natural_width = MAX (self->label_natural_width,
                                     ROW_LABEL_START + ROW_LABEL_END
                                     + (double)text_width (layout, g_ptr_array_index (self->label_texts, i)) / PANGO_SCALE);
}

double
ps_timeline_model_label_width (PsTimelineModel *self,
                               PangoContext    *pango,
                               int              width)
{
  g_return_val_if_fail (self != NULL, PS_TIMELINE_LABEL_WIDTH);
  g_return_val_if_fail (PANGO_IS_CONTEXT (pango), PS_TIMELINE_LABEL_WIDTH);

  measure_label_column (self, pango);
  /* Whole pixels, so that the column's edge is sharp */
  return ceil (CLAMP (self->label_natural_width, PS_TIMELINE_LABEL_WIDTH,
                      MAX (PS_TIMELINE_LABEL_WIDTH, floor (width * PS_TIMELINE_LABEL_MAX_SHARE))));
}

/* text with keep of its n_chars characters: those of its start, of its
 * end, or half of each, and "…" for the others. With difference (a
 * character's index) past the start, head_share of them from the start
 * and the rest from just before difference on, where it differs from the
 * label it is most like. */
static char *
cut_text_at (const char         *text,
             glong               n_chars,
             glong               keep,
             PangoEllipsizeMode  mode,
             glong               difference,
             double              head_share)
{
  glong n_start = (glong)(keep * head_share);
  g_autofree char *head = NULL;
  g_autofree char *tail = NULL;
  glong n_head = mode == PANGO_ELLIPSIZE_END ? keep
                 : mode == PANGO_ELLIPSIZE_START ? 0
                 : (keep + 1) / 2;

  if (difference > n_start)
    {
      glong from = MAX (n_start, MIN (difference - 2, n_chars - (keep - n_start)));
      g_autofree char *middle = g_utf8_substring (text, from, from + keep - n_start);

      head = g_utf8_substring (text, 0, n_start);
      g_strchomp (head);
      return g_strconcat (head, from > n_start ? "…" : "", middle,
                          from + keep - n_start < n_chars ? "…" : "", NULL);
    }
  head = g_utf8_substring (text, 0, n_head);
  tail = g_utf8_substring (text, n_chars - (keep - n_head), n_chars);
  /* No space next to the "…" */
  g_strchomp (head);
  g_strchug (tail);
  return g_strconcat (head, "…", tail, NULL);
}

/* The longest cut of text, by mode or around difference (-1: none; see
 * cut_text_at ()), that is at most max_width (Pango units) wide; text
 * itself when it fits */
static char *
cut_text (PangoLayout        *layout,
          const char         *text,
          int                 max_width,
          PangoEllipsizeMode  mode,
          glong               difference,
          double              head_share)
{
  glong n_chars = g_utf8_strlen (text, -1);
  glong fits = 0, fails = n_chars;

  if (text_width (layout, text) <= max_width)
    return g_strdup (text);
  /* Characters kept: fits does, fails does not */
  while (fails - fits > 1)
    {
      glong keep = fits + (fails - fits) / 2;
      g_autofree char *cut = cut_text_at (text, n_chars, keep, mode, difference, head_share);

      if (text_width (layout, cut) <= max_width)
        fits = keep;
      else
        fails = keep;
    }
  return cut_text_at (text, n_chars, fits, mode, difference, head_share);
}

/* How many texts' rows are drawn as text: by more. text stays with its
 * cuts while drawn is used. */
static void
count_drawn (GHashTable *drawn,
             const char *text,
             int         by)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (drawn, text));

  g_hash_table_replace (drawn, (gpointer)text, GUINT_TO_POINTER (n + by));
}

/* The label of rows with the same text: its place to cut, found once,
 * and its cuts, made when first asked for. A run of CE logs has hundreds
 * of thousands of marker instances but only some hundred descriptions. */
typedef struct
{
  const char        *text;
  PangoEllipsizeMode preferred;
  glong              difference;
  gboolean           at_two_addresses;
  /* Its preferred cut is the text itself */
  gboolean           uncut;
  /* By mode (modes[] of cut_row_labels ()), then by head share */
  char              *cuts[6];
  /* The one of them its rows draw */
  const char        *drawn;
} LabelCuts;

static void
label_cuts_free (gpointer data)
{
  LabelCuts *cuts = data;

  for (guint i = 0; i < G_N_ELEMENTS (cuts->cuts); i++)
    g_free (cuts->cuts[i]);
  g_free (cuts);
}

/* Each row's label as drawn in a column label_width wide. A label that
 * must be cut is cut where it differs from the others
 * (ps_view_ellipsize_mode_among ()); when it then still reads like
 * another row's, the other places are tried, and last its start with
 * the part where it differs from the label it is most like
 * ("Test=Writ…s=512,ti…" and "Test=Writ…s=4096,t…"). */
static void
cut_row_labels (PsTimelineModel *self,
                PangoContext    *pango,
                double           label_width)
{
  static const PangoEllipsizeMode modes[] = {
    PANGO_ELLIPSIZE_MIDDLE, PANGO_ELLIPSIZE_END, PANGO_ELLIPSIZE_START,
  };
  /* Of the characters kept, those of the start in the last tries */
  static const double head_shares[] = { 1 / 3.0, 1 / 2.0, 2 / 3.0 };
  g_autoptr(PangoLayout) layout = label_layout (pango);
  g_autoptr(GHashTable) drawn = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *by_text;
  /* Per text: its first address's label, and a second one */
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autofree LabelCuts **address_cuts = NULL;
  g_autofree PangoEllipsizeMode *preferred = NULL;
  g_autofree gsize *differs_at = NULL;
  int max_width = (int)((label_width - ROW_LABEL_START - ROW_LABEL_END) * PANGO_SCALE);

  ps_timeline_model_index_labels (self);
  g_clear_pointer (&self->text_drawn, g_free);
  g_clear_pointer (&self->label_cuts, g_hash_table_unref);
  self->label_cuts = by_text = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, label_cuts_free);
  self->row_labels_width = label_width;
  address_cuts = g_new0 (LabelCuts *, MAX (self->label_texts->len, 1));

  /* Each text takes part in the comparison once, or twice when rows at
   * two addresses have it: that is all ps_view_ellipsize_mode_among ()
   * tells apart */
  for (guint a = 0; a < self->label_texts->len; a++)
    {
      const char *label = g_ptr_array_index (self->label_texts, a);
      LabelCuts *cuts = g_hash_table_lookup (by_text, label);

      if (cuts == NULL)
        {
          cuts = g_new0 (LabelCuts, 1);
          cuts->text = label;
          g_hash_table_insert (by_text, (gpointer)label, cuts);
          g_ptr_array_add (texts, (gpointer)label);
        }
      else if (!cuts->at_two_addresses)
        {
          cuts->at_two_addresses = TRUE;
          g_ptr_array_add (texts, (gpointer)label);
        }
      address_cuts[a] = cuts;
    }
  preferred = g_new0 (PangoEllipsizeMode, MAX (texts->len, 1));
  differs_at = g_new0 (gsize, MAX (texts->len, 1));
  ps_view_ellipsize_modes_among ((const char * const *)texts->pdata, texts->len, preferred, differs_at);
  for (guint i = 0; i < texts->len; i++)
    {
      const char *text = g_ptr_array_index (texts, i);
      LabelCuts *cuts = g_hash_table_lookup (by_text, text);
      gsize at = differs_at[i];

      if (cuts->text != text)
        continue;
      cuts->preferred = preferred[i];
      /* A character's start */
      while (at > 0 && (text[at] & 0xc0) == 0x80)
        at--;
      cuts->difference = g_utf8_pointer_to_offset (text, text + at);
    }

  /* Each text's preferred cut, counted once however many rows draw it:
   * the rows of one text are one label */
  for (guint i = 0; i < texts->len; i++)
    {
      LabelCuts *cuts = g_hash_table_lookup (by_text, g_ptr_array_index (texts, i));
      guint m = cuts->preferred == PANGO_ELLIPSIZE_END ? 1 : cuts->preferred == PANGO_ELLIPSIZE_START ? 2 : 0;

      if (cuts->text != g_ptr_array_index (texts, i))
        continue;
      cuts->cuts[m] = cut_text (layout, cuts->text, max_width, cuts->preferred, -1, 0);
      cuts->uncut = strcmp (cuts->cuts[m], cuts->text) == 0;
      cuts->drawn = cuts->cuts[m];
      count_drawn (drawn, cuts->drawn, 1);
    }
  /* A cut that another text's rows draw too: the text's other cuts are
   * tried, in the order of its rows, for one no other text draws */
  for (guint i = 0; i < texts->len; i++)
    {
      LabelCuts *cuts = g_hash_table_lookup (by_text, g_ptr_array_index (texts, i));

      if (cuts->text != g_ptr_array_index (texts, i) || cuts->uncut
          || GPOINTER_TO_UINT (g_hash_table_lookup (drawn, cuts->drawn)) < 2)
        continue;
      for (guint m = 0; m < G_N_ELEMENTS (modes) + G_N_ELEMENTS (head_shares); m++)
        {
          if (m < G_N_ELEMENTS (modes) && modes[m] == cuts->preferred)
            continue;
          cuts->cuts[m] = m >= G_N_ELEMENTS (modes)
                          ? cut_text (layout, cuts->text, max_width, PANGO_ELLIPSIZE_END, cuts->difference,
                                      head_shares[m - G_N_ELEMENTS (modes)])
                          : cut_text (layout, cuts->text, max_width, modes[m], -1, 0);
          if (!g_hash_table_contains (drawn, cuts->cuts[m]))
            {
              count_drawn (drawn, cuts->drawn, -1);
              cuts->drawn = cuts->cuts[m];
              count_drawn (drawn, cuts->drawn, 1);
              break;
            }
        }
    }
  self->text_drawn = g_new (const char *, MAX (self->label_texts->len, 1));
  for (guint a = 0; a < self->label_texts->len; a++)
    self->text_drawn[a] = address_cuts[a]->drawn;
}

const char *
ps_timeline_model_row_label (PsTimelineModel *self,
                             PangoContext    *pango,
                             double           label_width,
                             guint            row)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (PANGO_IS_CONTEXT (pango), NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);

  measure_label_column (self, pango);
  if (self->text_drawn == NULL || self->row_labels_width != label_width)
    cut_row_labels (self, pango, label_width);
  return self->row_text[row] == G_MAXUINT32 ? NULL : self->text_drawn[self->row_text[row]];
}

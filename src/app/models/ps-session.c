/* ps-session.c — what the views of one run look at together
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Indexes are built off the main thread: the run's level-of-detail index
 * once, the highlighted spans' index each time they change. A result that
 * arrives after the highlight changed again is dropped (each build has its
 * own GCancellable, and the session compares it with the current one).
 */
#include "config.h"

#include <string.h>

#include "ps-call-tree.h"
#include "ps-series.h"
#include "ps-session.h"
#include "ps-task-util.h"

struct _PsSession
{
  GObject       parent_instance;

  PsEventStore *store;
  PsSpanLod    *lod;
  GCancellable *lod_cancellable;

  gint64        visible_begin_ns;
  gint64        visible_end_ns;
  gboolean      has_whole;
  gint64        whole_begin_ns;
  gint64        whole_end_ns;

  gboolean      has_selection;
  gint64        selection_begin_ns;
  gint64        selection_end_ns;
  guint8       *selected_spans;   /* lazily, per selection */

  PsSpanLod    *highlight;
  char         *highlight_description;
  GCancellable *highlight_cancellable;

  GArray       *counter_tracks;   /* guint32, sorted; NULL: every one */
  guint32       sample_source;    /* the chosen event, PS_NONE: every one */
  guint         log_session;      /* G_MAXUINT: no one session */

  GArray       *focus_tracks;     /* guint32, in the order given */
  guint64       selected_span;
  guint64       selected_mark;
  guint64       selected_measurement;
  GArray       *highlight_measurements;   /* guint64, ascending; NULL: none */
  char         *highlight_measurements_description;

  /* The highlighted measurements or the highlighted function's samples,
   * per track */
  GHashTable   *highlight_points;         /* track → PsValueLod, or NULL */
  gint64        highlight_points_begin;
  gint64        highlight_points_end;
  gboolean      points_of_function;
  /* The function (or the module's addresses) whose samples they are, to
   * collect them again for another sample source */
  char         *points_function;
  char         *points_module;
  gboolean      points_addresses;
  char         *points_description;
  GCancellable *points_cancellable;
};

enum {
  PROP_0,
  PROP_STORE,
  PROP_LOD,
  PROP_HIGHLIGHT,
  PROP_HIGHLIGHT_POINTS,
  N_PROPS
};

enum {
  VISIBLE_RANGE_CHANGED,
  SELECTION_CHANGED,
  COUNTER_TRACKS_CHANGED,
  SAMPLE_SOURCE_CHANGED,
  FOCUS_CHANGED,
  HIGHLIGHT_MEASUREMENTS_CHANGED,
  LOG_SESSION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PsSession, ps_session, G_TYPE_OBJECT)

/* Index building */

typedef struct
{
  PsEventStore *store;
  GArray       *spans;     /* guint64, or NULL for every span */
  char         *function;  /* else the calls of this function, or NULL */
  char         *module;
} BuildData;

static void
build_data_free (BuildData *data)
{
  g_clear_object (&data->store);
  g_clear_pointer (&data->spans, g_array_unref);
  g_free (data->function);
  g_free (data->module);
  g_free (data);
}

static gboolean
same_part (const char *part,
           gsize       length,
           const char *expected)
{
  if (part == NULL || expected == NULL)
    return part == NULL && (expected == NULL || *expected == '\0');
  return strlen (expected) == length && strncmp (part, expected, length) == 0;
}

/* The spans whose name the call tree reads as function (and module):
 * ps_call_tree_function_of_name () on each name once */
static GArray *
find_calls (PsEventStore *store,
            const char   *function,
            const char   *module,
            GCancellable *cancellable)
{
  g_autoptr(GHashTable) matches = g_hash_table_new (NULL, NULL);  /* name → 1 + match */
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 n_spans = ps_event_store_get_n_spans (store);

  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      gpointer known = g_hash_table_lookup (matches, GUINT_TO_POINTER (span->name));

      if ((i & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      if (known == NULL)
        {
          const char *text = ps_event_store_get_string (store, span->name);
          gsize function_length = 0, module_length = 0;
          const char *function_part = ps_call_tree_function_of_name (text != NULL ? text : "", &function_length);
          const char *module_part = ps_call_tree_module_of_name (text != NULL ? text : "", &module_length);
          gboolean match = same_part (function_part, function_length, function)
                           && same_part (module_part, module_length, module);

          known = GUINT_TO_POINTER (1 + match);
          g_hash_table_insert (matches, GUINT_TO_POINTER (span->name), known);
        }
      if (GPOINTER_TO_UINT (known) == 2)
        g_array_append_val (spans, i);
    }
  return spans;
}

static void
build_lod_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  BuildData *data = task_data;
  PsSpanLod *lod;

  if (data->function != NULL)
    data->spans = find_calls (data->store, data->function, data->module, cancellable);

  if (data->spans == NULL)
    lod = ps_span_lod_new (data->store, cancellable);
  else
    lod = ps_span_lod_new_for_spans (data->store, (const guint64 *)(gpointer)data->spans->data,
                                     data->spans->len, cancellable);
  if (lod == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  else
    g_task_return_pointer (task, lod, (GDestroyNotify)ps_span_lod_unref);
}

static void
start_build (PsSession           *self,
             GArray              *spans,
             const char          *function,
             const char          *module,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback)
{
  g_autoptr(GTask) task = NULL;
  BuildData *data = g_new0 (BuildData, 1);

  data->store = g_object_ref (self->store);
  data->spans = spans;
  data->function = g_strdup (function);
  data->module = g_strdup (module);
  task = g_task_new (self, cancellable, callback, NULL);
  g_task_set_source_tag (task, start_build);
  g_task_set_task_data (task, data, (GDestroyNotify)build_data_free);
  ps_task_run_in_background (task, build_lod_thread);
}

static void
lod_built_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  PsSession *self = PS_SESSION (object);
  PsSpanLod *lod = g_task_propagate_pointer (G_TASK (result), NULL);

  if (lod == NULL)
    return;
  g_clear_object (&self->lod_cancellable);
  g_clear_pointer (&self->lod, ps_span_lod_unref);
  self->lod = lod;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOD]);
}

static void
highlight_built_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  PsSession *self = PS_SESSION (object);
  PsSpanLod *lod = g_task_propagate_pointer (G_TASK (result), NULL);

  if (lod == NULL || g_task_get_cancellable (G_TASK (result)) != self->highlight_cancellable)
    {
      g_clear_pointer (&lod, ps_span_lod_unref);
      return;
    }
  g_clear_object (&self->highlight_cancellable);
  g_clear_pointer (&self->highlight, ps_span_lod_unref);
  self->highlight = lod;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT]);
}

/* Highlighted points */

typedef struct
{
  PsEventStore *store;
  GArray       *measurements;  /* guint64, ascending, or NULL */
  char         *function;      /* else the samples of this function */
  char         *module;
  gboolean      addresses;     /* or of any address of this module */
  guint32       source;        /* the samples of this source, PS_NONE: any */
} PointsData;

typedef struct
{
  GHashTable *points;          /* track → PsValueLod */
  gint64      begin;
  gint64      end;
} PointsResult;

static void
points_data_free (PointsData *data)
{
  g_clear_object (&data->store);
  g_clear_pointer (&data->measurements, g_array_unref);
  g_free (data->function);
  g_free (data->module);
  g_free (data);
}

static void
points_result_free (PointsResult *result)
{
  g_clear_pointer (&result->points, g_hash_table_unref);
  g_free (result);
}

typedef struct
{
  GArray *x;       /* gint64 */
  GArray *values;  /* double */
} TrackPoints;

static void
track_points_free (TrackPoints *points)
{
  g_array_unref (points->x);
  g_array_unref (points->values);
  g_free (points);
}

static void
add_point (GHashTable *tracks,
           guint32     track,
           gint64      x,
           double      value)
{
  TrackPoints *points = g_hash_table_lookup (tracks, GUINT_TO_POINTER (track));

  if (points == NULL)
    {
      points = g_new0 (TrackPoints, 1);
      points->x = g_array_new (FALSE, FALSE, sizeof (gint64));
      points->values = g_array_new (FALSE, FALSE, sizeof (double));
      g_hash_table_insert (tracks, GUINT_TO_POINTER (track), points);
    }
  g_array_append_val (points->x, x);
  g_array_append_val (points->values, value);
}

/* The measurements by index: read one by one when they are few, else in
 * one pass over the store. Each goes with its marker's first instance,
 * whose row charts all of them on the timeline
 * (ps_timeline_model_chart_track ()). */
static void
collect_measurements (PointsData   *data,
                      GHashTable   *tracks,
                      GCancellable *cancellable)
{
  const guint64 *wanted = (const guint64 *)(gpointer)data->measurements->data;
  guint n_wanted = data->measurements->len;
  guint64 n_measurements = ps_event_store_get_n_measurements (data->store);
  guint n_tracks = ps_event_store_get_n_tracks (data->store);
  g_autofree guint32 *leaders = ps_series_group_leaders (data->store);
  PsMeasurement m;

  if ((guint64)n_wanted * 64 < n_measurements)
    {
      for (guint i = 0; i < n_wanted; i++)
        {
          if ((i & 0xfff) == 0 && g_cancellable_is_cancelled (cancellable))
            return;
          if (wanted[i] >= n_measurements)
            break;
          ps_event_store_get_measurement (data->store, wanted[i], &m);
          add_point (tracks, m.track < n_tracks ? leaders[m.track] : m.track, (gint64)m.index,
                     ps_series_measurement_value (data->store, &m));
        }
    }
  else
    {
      PsMeasurementIter iter;
      guint next = 0;

      ps_measurement_iter_init (&iter, data->store);
      while (next < n_wanted && ps_measurement_iter_next (&iter, &m))
        {
          if ((m.index & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
            return;
          if (m.index != wanted[next])
            continue;
          add_point (tracks, m.track < n_tracks ? leaders[m.track] : m.track, (gint64)m.index,
                     ps_series_measurement_value (data->store, &m));
          while (next < n_wanted && wanted[next] <= m.index)
            next++;
        }
    }
}

static gboolean
same_module (const char *a,
             const char *b)
{
  return g_strcmp0 (a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/* The timed samples whose stack holds the function, named as the call tree
 * names a sampled frame: its function, or "module+0xoffset" without one;
 * or, with data->addresses, any address (a frame without a function name)
 * of the module, as the call tree groups them */
static void
collect_samples (PointsData   *data,
                 GHashTable   *tracks,
                 GCancellable *cancellable)
{
  PsEventStore *store = data->store;
  guint n_frames = ps_event_store_get_n_frames (store);
  guint n_nodes = ps_event_store_get_n_stack_nodes (store);
  guint64 n_samples = ps_event_store_get_n_samples (store);
  g_autofree guint8 *frame_matches = g_new0 (guint8, n_frames + 1);
  g_autofree guint8 *stack_holds = g_new0 (guint8, n_nodes + 1);
  g_autoptr(GString) name = g_string_new (NULL);

  for (guint f = 0; f < n_frames; f++)
    {
      const PsFrame *frame = ps_event_store_get_frame (store, f);

      if (!same_module (frame->module != 0 ? ps_event_store_get_string (store, frame->module) : NULL, data->module))
        continue;
      if (data->addresses)
        {
          frame_matches[f] = ps_call_tree_frame_is_address (store, f);
          continue;
        }
      g_string_truncate (name, 0);
      if (frame->function == 0)
        ps_event_store_append_frame_name (store, f, name);
      else
        g_string_append (name, ps_event_store_get_string (store, frame->function));
      frame_matches[f] = g_str_equal (name->str, data->function);
    }
  /* A parent has a smaller id than its children */
  for (guint id = 1; id < n_nodes; id++)
    {
      const PsStackNode *node = ps_event_store_get_stack_node (store, id);

      if (node == NULL)
        continue;
      stack_holds[id] = (node->frame < n_frames && frame_matches[node->frame])
                        || (node->parent < id && stack_holds[node->parent]);
    }
  for (guint64 i = 0; i < n_samples; i++)
    {
      const PsSample *sample = ps_event_store_get_sample (store, i);

      if ((i & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        return;
      if ((sample->flags & PS_SAMPLE_FLAG_UNTIMED) || sample->track == PS_NONE
          || sample->stack >= n_nodes || !stack_holds[sample->stack]
          || (data->source != PS_NONE && sample->source != data->source))
        continue;
      add_point (tracks, sample->track, sample->time_ns, 1);
    }
}

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  const gint64 *first = a;
  const gint64 *second = b;

  return (*first > *second) - (*first < *second);
}

static void
build_points_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  PointsData *data = task_data;
  g_autoptr(GHashTable) tracks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)track_points_free);
  PointsResult *result = g_new0 (PointsResult, 1);
  GHashTableIter iter;
  gpointer key, value;

  if (data->measurements != NULL)
    collect_measurements (data, tracks, cancellable);
  else
    collect_samples (data, tracks, cancellable);
  if (g_task_return_error_if_cancelled (task))
    {
      g_free (result);
      return;
    }

  result->points = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)ps_value_lod_unref);
  result->begin = G_MAXINT64;
  result->end = G_MININT64;
  g_hash_table_iter_init (&iter, tracks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      TrackPoints *points = value;
      gint64 *x = (gint64 *)(gpointer)points->x->data;
      gboolean ordered = TRUE;

      for (guint i = 1; i < points->x->len && ordered; i++)
        ordered = x[i - 1] <= x[i];
      /* Samples of a thread can come out of order across CPUs; their
       * values are all 1, so sorting x alone keeps them right */
      if (!ordered)
        g_array_sort (points->x, compare_points);
      result->begin = MIN (result->begin, x[0]);
      result->end = MAX (result->end, x[points->x->len - 1]);
      g_hash_table_insert (result->points, key,
                           ps_value_lod_new (x, (const double *)(gpointer)points->values->data, points->x->len));
    }
  g_task_return_pointer (task, result, (GDestroyNotify)points_result_free);
}

static void
points_built_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  PsSession *self = PS_SESSION (object);
  PointsResult *points = g_task_propagate_pointer (G_TASK (result), NULL);

  if (points == NULL || g_task_get_cancellable (G_TASK (result)) != self->points_cancellable)
    {
      g_clear_pointer (&points, points_result_free);
      return;
    }
  g_clear_object (&self->points_cancellable);
  g_clear_pointer (&self->highlight_points, g_hash_table_unref);
  if (g_hash_table_size (points->points) > 0)
    {
      self->highlight_points = g_steal_pointer (&points->points);
      self->highlight_points_begin = points->begin;
      self->highlight_points_end = points->end;
    }
  points_result_free (points);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT_POINTS]);
}

/* Starts building the points of measurements (ascending, taken) or of a
 * function's samples; both NULL drops the points */
static void
start_points (PsSession  *self,
              GArray     *measurements,
              const char *function,
              const char *module,
              gboolean    addresses)
{
  g_autoptr(GTask) task = NULL;
  PointsData *data;

  if (self->points_cancellable != NULL)
    g_cancellable_cancel (self->points_cancellable);
  g_clear_object (&self->points_cancellable);
  self->points_of_function = function != NULL || addresses;
  if (function != self->points_function)
    {
      g_free (self->points_function);
      self->points_function = g_strdup (function);
    }
  if (module != self->points_module)
    {
      g_free (self->points_module);
      self->points_module = g_strdup (module);
    }
  self->points_addresses = addresses;
  if (measurements == NULL && function == NULL && !addresses)
    {
      if (self->highlight_points != NULL)
        {
          g_clear_pointer (&self->highlight_points, g_hash_table_unref);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT_POINTS]);
        }
      return;
    }

  data = g_new0 (PointsData, 1);
  data->store = g_object_ref (self->store);
  data->measurements = measurements;
  data->function = g_strdup (function);
  data->module = g_strdup (module);
  data->addresses = addresses;
  data->source = self->sample_source;
  self->points_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->points_cancellable, points_built_cb, NULL);
  g_task_set_source_tag (task, start_points);
  g_task_set_task_data (task, data, (GDestroyNotify)points_data_free);
  ps_task_run_in_background (task, build_points_thread);
}

/* GObject */

static void
ps_session_dispose (GObject *object)
{
  PsSession *self = PS_SESSION (object);

  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  if (self->highlight_cancellable != NULL)
    g_cancellable_cancel (self->highlight_cancellable);
  if (self->points_cancellable != NULL)
    g_cancellable_cancel (self->points_cancellable);
  g_clear_object (&self->lod_cancellable);
  g_clear_object (&self->highlight_cancellable);
  g_clear_object (&self->points_cancellable);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (ps_session_parent_class)->dispose (object);
}

static void
ps_session_finalize (GObject *object)
{
  PsSession *self = PS_SESSION (object);

  g_clear_pointer (&self->lod, ps_span_lod_unref);
  g_clear_pointer (&self->highlight, ps_span_lod_unref);
  g_clear_pointer (&self->highlight_description, g_free);
  g_clear_pointer (&self->selected_spans, g_free);
  g_clear_pointer (&self->counter_tracks, g_array_unref);
  g_clear_pointer (&self->highlight_measurements, g_array_unref);
  g_clear_pointer (&self->highlight_measurements_description, g_free);
  g_clear_pointer (&self->focus_tracks, g_array_unref);
  g_clear_pointer (&self->highlight_points, g_hash_table_unref);
  g_clear_pointer (&self->points_description, g_free);
  g_clear_pointer (&self->points_function, g_free);
  g_clear_pointer (&self->points_module, g_free);

  G_OBJECT_CLASS (ps_session_parent_class)->finalize (object);
}

static void
ps_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  PsSession *self = PS_SESSION (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_LOD:
      g_value_set_pointer (value, self->lod);
      break;
    case PROP_HIGHLIGHT:
      g_value_set_pointer (value, self->highlight);
      break;
    case PROP_HIGHLIGHT_POINTS:
      g_value_set_pointer (value, self->highlight_points);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  PsSession *self = PS_SESSION (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_session_class_init (PsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ps_session_dispose;
  object_class->finalize = ps_session_finalize;
  object_class->get_property = ps_session_get_property;
  object_class->set_property = ps_session_set_property;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL,
                         PS_TYPE_EVENT_STORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOD] =
    g_param_spec_pointer ("lod", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIGHLIGHT] =
    g_param_spec_pointer ("highlight", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIGHLIGHT_POINTS] =
    g_param_spec_pointer ("highlight-points", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[VISIBLE_RANGE_CHANGED] =
    g_signal_new ("visible-range-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[COUNTER_TRACKS_CHANGED] =
    g_signal_new ("counter-tracks-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[SAMPLE_SOURCE_CHANGED] =
    g_signal_new ("sample-source-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[FOCUS_CHANGED] =
    g_signal_new ("focus-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[HIGHLIGHT_MEASUREMENTS_CHANGED] =
    g_signal_new ("highlight-measurements-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[LOG_SESSION_CHANGED] =
    g_signal_new ("log-session-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
ps_session_init (PsSession *self)
{
  self->visible_end_ns = 1;
  self->focus_tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->sample_source = PS_NONE;
  self->log_session = G_MAXUINT;
  self->selected_span = PS_SESSION_NO_SPAN;
  self->selected_mark = PS_SESSION_NO_MARK;
  self->selected_measurement = PS_SESSION_NO_MEASUREMENT;
}

PsSession *
ps_session_new (PsEventStore *store)
{
  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  return g_object_new (PS_TYPE_SESSION, "store", store, NULL);
}

PsEventStore *
ps_session_get_store (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  return self->store;
}

PsSpanLod *
ps_session_get_lod (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  return self->lod;
}

void
ps_session_ensure_lod (PsSession *self)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (self->lod != NULL || self->lod_cancellable != NULL)
    return;
  self->lod_cancellable = g_cancellable_new ();
  start_build (self, NULL, NULL, NULL, self->lod_cancellable, lod_built_cb);
}

void
ps_session_get_visible_range (PsSession *self,
                              gint64    *begin_ns,
                              gint64    *end_ns)
{
  g_return_if_fail (PS_IS_SESSION (self));

  *begin_ns = self->visible_begin_ns;
  *end_ns = self->visible_end_ns;
}

void
ps_session_set_visible_range (PsSession *self,
                              gint64     begin_ns,
                              gint64     end_ns)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (end_ns <= begin_ns)
    end_ns = begin_ns + 1;
  if (begin_ns == self->visible_begin_ns && end_ns == self->visible_end_ns)
    return;
  self->visible_begin_ns = begin_ns;
  self->visible_end_ns = end_ns;
  g_signal_emit (self, signals[VISIBLE_RANGE_CHANGED], 0);
}

void
ps_session_set_whole_range (PsSession *self,
                            gint64     begin_ns,
                            gint64     end_ns)
{
  g_return_if_fail (PS_IS_SESSION (self));

  self->has_whole = TRUE;
  self->whole_begin_ns = begin_ns;
  self->whole_end_ns = MAX (end_ns, begin_ns + 1);
}

gboolean
ps_session_get_whole_range (PsSession *self,
                            gint64    *begin_ns,
                            gint64    *end_ns)
{
  g_return_val_if_fail (PS_IS_SESSION (self), FALSE);

  if (begin_ns != NULL)
    *begin_ns = self->whole_begin_ns;
  if (end_ns != NULL)
    *end_ns = self->whole_end_ns;
  return self->has_whole;
}

gboolean
ps_session_get_selection (PsSession *self,
                          gint64    *begin_ns,
                          gint64    *end_ns)
{
  g_return_val_if_fail (PS_IS_SESSION (self), FALSE);

  if (begin_ns != NULL)
    *begin_ns = self->selection_begin_ns;
  if (end_ns != NULL)
    *end_ns = self->selection_end_ns;
  return self->has_selection;
}

void
ps_session_set_selection (PsSession *self,
                          gint64     begin_ns,
                          gint64     end_ns)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (end_ns < begin_ns)
    {
      gint64 swap = begin_ns;

      begin_ns = end_ns;
      end_ns = swap;
    }
  if (self->has_selection && begin_ns == self->selection_begin_ns && end_ns == self->selection_end_ns)
    return;
  self->has_selection = TRUE;
  self->selection_begin_ns = begin_ns;
  self->selection_end_ns = end_ns;
  g_clear_pointer (&self->selected_spans, g_free);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
ps_session_clear_selection (PsSession *self)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (!self->has_selection)
    return;
  self->has_selection = FALSE;
  g_clear_pointer (&self->selected_spans, g_free);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

gboolean
ps_session_span_in_selection (PsSession *self,
                              guint64    span)
{
  const PsSpan *s;

  g_return_val_if_fail (PS_IS_SESSION (self), FALSE);

  if (!self->has_selection)
    return TRUE;
  s = ps_event_store_get_span (self->store, span);
  return s != NULL && s->begin_ns >= self->selection_begin_ns && s->end_ns <= self->selection_end_ns;
}

const guint8 *
ps_session_get_selected_spans (PsSession *self)
{
  guint64 n_spans;

  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  if (!self->has_selection)
    return NULL;
  if (self->selected_spans != NULL)
    return self->selected_spans;

  n_spans = ps_event_store_get_n_spans (self->store);
  self->selected_spans = g_new0 (guint8, n_spans + 1);
  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (self->store, i);

      self->selected_spans[i] = span->begin_ns >= self->selection_begin_ns &&
                                span->end_ns <= self->selection_end_ns;
    }
  return self->selected_spans;
}

void
ps_session_set_highlight (PsSession     *self,
                          const guint64 *spans,
                          gsize          n_spans,
                          const char    *description)
{
  GArray *copy;

  g_return_if_fail (PS_IS_SESSION (self));

  if (self->highlight_cancellable != NULL)
    g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  g_free (self->highlight_description);
  self->highlight_description = g_strdup (description);
  /* Another highlight replaces a function's samples */
  if (self->points_of_function)
    start_points (self, NULL, NULL, NULL, FALSE);

  if (spans == NULL || n_spans == 0)
    {
      if (self->highlight != NULL)
        {
          g_clear_pointer (&self->highlight, ps_span_lod_unref);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT]);
        }
      return;
    }

  copy = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n_spans);
  g_array_append_vals (copy, spans, n_spans);
  self->highlight_cancellable = g_cancellable_new ();
  start_build (self, copy, NULL, NULL, self->highlight_cancellable, highlight_built_cb);
}

void
ps_session_clear_highlight (PsSession *self)
{
  ps_session_set_highlight (self, NULL, 0, NULL);
}

void
ps_session_highlight_function (PsSession  *self,
                               const char *function,
                               const char *module,
                               const char *description)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (function == NULL)
    {
      ps_session_clear_highlight (self);
      return;
    }
  if (self->highlight_cancellable != NULL)
    g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->highlight_cancellable);
  g_free (self->highlight_description);
  self->highlight_description = g_strdup (description);
  self->highlight_cancellable = g_cancellable_new ();
  start_build (self, NULL, function, module, self->highlight_cancellable, highlight_built_cb);
  /* A run of samples shows where the function was sampled */
  if (ps_event_store_get_n_samples (self->store) > 0)
    {
      g_free (self->points_description);
      self->points_description = g_strdup (description);
      start_points (self, NULL, function, module, FALSE);
    }
}

PsSpanLod *
ps_session_get_highlight (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  return self->highlight;
}

const char *
ps_session_get_highlight_description (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  return self->highlight != NULL ? self->highlight_description : NULL;
}

/* Counter tracks */

static int
compare_tracks (gconstpointer a,
                gconstpointer b)
{
  guint32 first = *(const guint32 *)a;
  guint32 second = *(const guint32 *)b;

  return (first > second) - (first < second);
}

GArray *
ps_session_get_counter_tracks (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  return self->counter_tracks;
}

void
ps_session_set_counter_tracks (PsSession     *self,
                               const guint32 *tracks,
                               guint          n_tracks,
                               gboolean       every_track)
{
  g_autoptr(GArray) sorted = NULL;

  g_return_if_fail (PS_IS_SESSION (self));
  g_return_if_fail (tracks != NULL || n_tracks == 0);

  if (!every_track)
    {
      sorted = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_tracks);
      g_array_append_vals (sorted, tracks, n_tracks);
      g_array_sort (sorted, compare_tracks);
    }
  /* Only a change of set is news: the timeline rebuilds its rows */
  if (sorted == NULL && self->counter_tracks == NULL)
    return;
  if (sorted != NULL && self->counter_tracks != NULL && sorted->len == self->counter_tracks->len
      && memcmp (sorted->data, self->counter_tracks->data, sorted->len * sizeof (guint32)) == 0)
    return;
  g_clear_pointer (&self->counter_tracks, g_array_unref);
  self->counter_tracks = g_steal_pointer (&sorted);
  g_signal_emit (self, signals[COUNTER_TRACKS_CHANGED], 0);
}

void
ps_session_counters_appended (PsSession *self)
{
  g_return_if_fail (PS_IS_SESSION (self));

  g_signal_emit (self, signals[COUNTER_TRACKS_CHANGED], 0);
}

/* The sample source */

guint32
ps_session_get_sample_source (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), PS_NONE);

  return self->sample_source;
}

void
ps_session_set_sample_source (PsSession *self,
                              guint32    source)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (source >= ps_event_store_get_n_sample_sources (self->store))
    source = PS_NONE;
  if (source == self->sample_source)
    return;
  self->sample_source = source;
  /* The highlighted function's samples are those of the chosen event */
  if (self->points_of_function)
    start_points (self, NULL, self->points_function, self->points_module, self->points_addresses);
  g_signal_emit (self, signals[SAMPLE_SOURCE_CHANGED], 0);
}

/* What the user chose */

void
ps_session_set_focus_track (PsSession *self,
                            guint32    track)
{
  ps_session_set_focus_tracks (self, &track, track != PS_NONE ? 1 : 0);
}

guint32
ps_session_get_focus_track (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), PS_NONE);

  return self->focus_tracks->len > 0 ? g_array_index (self->focus_tracks, guint32, 0) : PS_NONE;
}

static gboolean
focused_in (GArray  *tracks,
            guint32  track)
{
  for (guint i = 0; i < tracks->len; i++)
    if (g_array_index (tracks, guint32, i) == track)
      return TRUE;
  return FALSE;
}

/* The track of the chosen span, mark or measurement, PS_NONE without one */
static guint32
chosen_track (PsSession *self)
{
  if (self->selected_span != PS_SESSION_NO_SPAN)
    return ps_event_store_get_span (self->store, self->selected_span)->track;
  if (self->selected_mark != PS_SESSION_NO_MARK)
    return ps_event_store_get_mark (self->store, self->selected_mark)->track;
  if (self->selected_measurement != PS_SESSION_NO_MEASUREMENT)
    {
      PsMeasurement m;

      ps_event_store_get_measurement (self->store, self->selected_measurement, &m);
      return m.track;
    }
  return PS_NONE;
}

/* Returns whether the focus changed; emits nothing */
static gboolean
replace_focus (PsSession     *self,
               const guint32 *tracks,
               guint          n_tracks)
{
  g_autoptr(GArray) kept = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_tracks);

  for (guint i = 0; i < n_tracks; i++)
    if (tracks[i] != PS_NONE && !focused_in (kept, tracks[i]))
      g_array_append_val (kept, tracks[i]);
  if (kept->len == self->focus_tracks->len
      && memcmp (kept->data, self->focus_tracks->data, kept->len * sizeof (guint32)) == 0)
    return FALSE;
  g_array_unref (self->focus_tracks);
  self->focus_tracks = g_steal_pointer (&kept);
  return TRUE;
}

void
ps_session_set_focus_tracks (PsSession     *self,
                             const guint32 *tracks,
                             guint          n_tracks)
{
  gboolean changed;
  guint32 chosen;

  g_return_if_fail (PS_IS_SESSION (self));
  g_return_if_fail (tracks != NULL || n_tracks == 0);

  changed = replace_focus (self, tracks, n_tracks);
  /* A span or a measurement of another track is no longer the choice */
  chosen = chosen_track (self);
  if (chosen != PS_NONE && !focused_in (self->focus_tracks, chosen))
    {
      self->selected_span = PS_SESSION_NO_SPAN;
      self->selected_mark = PS_SESSION_NO_MARK;
      self->selected_measurement = PS_SESSION_NO_MEASUREMENT;
      changed = TRUE;
    }
  if (changed)
    g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

const guint32 *
ps_session_get_focus_tracks (PsSession *self,
                             guint     *n_tracks)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_tracks != NULL, NULL);

  *n_tracks = self->focus_tracks->len;
  return (const guint32 *)(gpointer)self->focus_tracks->data;
}

gboolean
ps_session_is_focus_track (PsSession *self,
                           guint32    track)
{
  g_return_val_if_fail (PS_IS_SESSION (self), FALSE);

  return focused_in (self->focus_tracks, track);
}

/* A chosen span or measurement focuses its track, unless it is focused
 * already (one of a CE marker group's instances) */
static void
focus_chosen_track (PsSession *self)
{
  guint32 track = chosen_track (self);

  if (track != PS_NONE && !focused_in (self->focus_tracks, track))
    replace_focus (self, &track, 1);
}

void
ps_session_set_selected_span (PsSession *self,
                              guint64    span)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (span != PS_SESSION_NO_SPAN && span >= ps_event_store_get_n_spans (self->store))
    span = PS_SESSION_NO_SPAN;
  if (self->selected_span == span)
    return;
  self->selected_span = span;
  if (span != PS_SESSION_NO_SPAN)
    {
      self->selected_mark = PS_SESSION_NO_MARK;
      self->selected_measurement = PS_SESSION_NO_MEASUREMENT;
    }
  focus_chosen_track (self);
  g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

void
ps_session_set_selected_mark (PsSession *self,
                              guint64    mark)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (mark != PS_SESSION_NO_MARK && mark >= ps_event_store_get_n_marks (self->store))
    mark = PS_SESSION_NO_MARK;
  if (self->selected_mark == mark)
    return;
  self->selected_mark = mark;
  if (mark != PS_SESSION_NO_MARK)
    {
      self->selected_span = PS_SESSION_NO_SPAN;
      self->selected_measurement = PS_SESSION_NO_MEASUREMENT;
    }
  focus_chosen_track (self);
  g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

guint64
ps_session_get_selected_mark (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), PS_SESSION_NO_MARK);

  return self->selected_mark;
}

guint64
ps_session_get_selected_span (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), PS_SESSION_NO_SPAN);

  return self->selected_span;
}

void
ps_session_set_selected_measurement (PsSession *self,
                                     guint64    measurement)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (measurement != PS_SESSION_NO_MEASUREMENT && measurement >= ps_event_store_get_n_measurements (self->store))
    measurement = PS_SESSION_NO_MEASUREMENT;
  if (self->selected_measurement == measurement)
    return;
  self->selected_measurement = measurement;
  if (measurement != PS_SESSION_NO_MEASUREMENT)
    {
      self->selected_span = PS_SESSION_NO_SPAN;
      self->selected_mark = PS_SESSION_NO_MARK;
    }
  focus_chosen_track (self);
  g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

guint64
ps_session_get_selected_measurement (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), PS_SESSION_NO_MEASUREMENT);

  return self->selected_measurement;
}

static int
compare_indexes (gconstpointer a,
                 gconstpointer b)
{
  guint64 first = *(const guint64 *)a;
  guint64 second = *(const guint64 *)b;

  return (first > second) - (first < second);
}

void
ps_session_set_highlight_measurements (PsSession     *self,
                                       const guint64 *measurements,
                                       gsize          n_measurements,
                                       const char    *description)
{
  g_autoptr(GArray) sorted = NULL;

  g_return_if_fail (PS_IS_SESSION (self));
  g_return_if_fail (measurements != NULL || n_measurements == 0);

  if (n_measurements > 0)
    {
      sorted = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint)n_measurements);
      g_array_append_vals (sorted, measurements, (guint)n_measurements);
      g_array_sort (sorted, compare_indexes);
    }
  if (sorted == NULL && self->highlight_measurements == NULL)
    return;
  g_clear_pointer (&self->highlight_measurements, g_array_unref);
  self->highlight_measurements = g_steal_pointer (&sorted);
  g_free (self->highlight_measurements_description);
  self->highlight_measurements_description = self->highlight_measurements != NULL ? g_strdup (description) : NULL;
  g_free (self->points_description);
  self->points_description = g_strdup (self->highlight_measurements_description);
  start_points (self, self->highlight_measurements != NULL ? g_array_copy (self->highlight_measurements) : NULL,
                NULL, NULL, FALSE);
  g_signal_emit (self, signals[HIGHLIGHT_MEASUREMENTS_CHANGED], 0);
}

const guint64 *
ps_session_get_highlight_measurements (PsSession *self,
                                       gsize     *n_measurements)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_measurements != NULL, NULL);

  if (self->highlight_measurements == NULL)
    {
      *n_measurements = 0;
      return NULL;
    }
  *n_measurements = self->highlight_measurements->len;
  return (const guint64 *)(gpointer)self->highlight_measurements->data;
}

const char *
ps_session_get_highlight_measurements_description (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  return self->highlight_measurements_description;
}

PsValueLod *
ps_session_get_highlight_points (PsSession *self,
                                 guint32    track)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  if (self->highlight_points == NULL)
    return NULL;
  return g_hash_table_lookup (self->highlight_points, GUINT_TO_POINTER (track));
}

gboolean
ps_session_get_highlight_points_extent (PsSession *self,
                                        gint64    *begin,
                                        gint64    *end)
{
  g_return_val_if_fail (PS_IS_SESSION (self), FALSE);

  if (self->highlight_points == NULL)
    return FALSE;
  if (begin != NULL)
    *begin = self->highlight_points_begin;
  if (end != NULL)
    *end = self->highlight_points_end;
  return TRUE;
}

void
ps_session_highlight_module_addresses (PsSession  *self,
                                       const char *module,
                                       const char *description)
{
  g_return_if_fail (PS_IS_SESSION (self));

  ps_session_clear_highlight (self);
  g_free (self->points_description);
  self->points_description = g_strdup (description);
  start_points (self, NULL, NULL, module, TRUE);
}

const char *
ps_session_get_highlight_points_description (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), NULL);

  return self->highlight_points != NULL ? self->points_description : NULL;
}

guint
ps_session_get_log_session (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), G_MAXUINT);

  return self->log_session;
}

void
ps_session_set_log_session (PsSession *self,
                            guint      log_session)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (self->log_session == log_session)
    return;
  self->log_session = log_session;
  g_signal_emit (self, signals[LOG_SESSION_CHANGED], 0);
}

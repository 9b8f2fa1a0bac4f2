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
#include "ps-session.h"

struct _PsSession
{
  GObject       parent_instance;

  PsEventStore *store;
  PsSpanLod    *lod;
  GCancellable *lod_cancellable;

  gint64        visible_begin_ns;
  gint64        visible_end_ns;

  gboolean      has_selection;
  gint64        selection_begin_ns;
  gint64        selection_end_ns;
  guint8       *selected_spans;   /* lazily, per selection */

  PsSpanLod    *highlight;
  char         *highlight_description;
  GCancellable *highlight_cancellable;

  GArray       *counter_tracks;   /* guint32, sorted; NULL: every one */

  guint32       focus_track;
  guint64       selected_span;
  GArray       *highlight_measurements;   /* guint64, ascending; NULL: none */
  char         *highlight_measurements_description;
};

enum {
  PROP_0,
  PROP_STORE,
  PROP_LOD,
  PROP_HIGHLIGHT,
  N_PROPS
};

enum {
  VISIBLE_RANGE_CHANGED,
  SELECTION_CHANGED,
  COUNTER_TRACKS_CHANGED,
  FOCUS_CHANGED,
  HIGHLIGHT_MEASUREMENTS_CHANGED,
  REVEAL,
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
  g_task_run_in_thread (task, build_lod_thread);
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

/* GObject */

static void
ps_session_dispose (GObject *object)
{
  PsSession *self = PS_SESSION (object);

  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  if (self->highlight_cancellable != NULL)
    g_cancellable_cancel (self->highlight_cancellable);
  g_clear_object (&self->lod_cancellable);
  g_clear_object (&self->highlight_cancellable);
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
  signals[REVEAL] =
    g_signal_new ("reveal",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
}

static void
ps_session_init (PsSession *self)
{
  self->visible_end_ns = 1;
  self->focus_track = PS_NONE;
  self->selected_span = PS_SESSION_NO_SPAN;
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

/* What the user chose */

void
ps_session_set_focus_track (PsSession *self,
                            guint32    track)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (self->focus_track == track)
    return;
  self->focus_track = track;
  g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

guint32
ps_session_get_focus_track (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), PS_NONE);

  return self->focus_track;
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
  g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

guint64
ps_session_get_selected_span (PsSession *self)
{
  g_return_val_if_fail (PS_IS_SESSION (self), PS_SESSION_NO_SPAN);

  return self->selected_span;
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

void
ps_session_reveal (PsSession *self,
                   gint64     begin_ns,
                   gint64     end_ns)
{
  g_return_if_fail (PS_IS_SESSION (self));

  if (end_ns < begin_ns)
    return;
  g_signal_emit (self, signals[REVEAL], 0, begin_ns, end_ns);
}

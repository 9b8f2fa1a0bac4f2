/* ps-counter-node.c — a machine, object, instance or counter of a run's
 * performance counters, as the counters view lists them
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only counters hold a checked flag; the state of the nodes above them is
 * computed from their counters when asked (a log has tens or hundreds of
 * columns), and a change of a counter notifies every node above it.
 */
#include "config.h"

#include <glib/gi18n.h>

#include <inttypes.h>

#include <string.h>

#include "ps-counter-node.h"

struct _PsCounterNode
{
  GObject        parent_instance;

  PsEventStore  *store;
  guint32        track;
  PsCounterNode *parent;     /* borrowed: the parent holds its children */
  GListStore    *children;   /* NULL for a counter */
  char          *label;
  char          *casefolded_label;
  gboolean       checked;
};

enum {
  PROP_0,
  PROP_LABEL,
  PROP_CHECKED,
  PROP_INCONSISTENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PsCounterNode, ps_counter_node, G_TYPE_OBJECT)

static void
ps_counter_node_dispose (GObject *object)
{
  PsCounterNode *self = PS_COUNTER_NODE (object);

  g_clear_object (&self->children);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (ps_counter_node_parent_class)->dispose (object);
}

static void
ps_counter_node_finalize (GObject *object)
{
  PsCounterNode *self = PS_COUNTER_NODE (object);

  g_free (self->label);
  g_free (self->casefolded_label);

  G_OBJECT_CLASS (ps_counter_node_parent_class)->finalize (object);
}

static void
ps_counter_node_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PsCounterNode *self = PS_COUNTER_NODE (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_CHECKED:
      g_value_set_boolean (value, ps_counter_node_get_checked (self));
      break;
    case PROP_INCONSISTENT:
      g_value_set_boolean (value, ps_counter_node_get_inconsistent (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_counter_node_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PsCounterNode *self = PS_COUNTER_NODE (object);

  switch (prop_id)
    {
    case PROP_CHECKED:
      ps_counter_node_set_checked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_counter_node_class_init (PsCounterNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ps_counter_node_dispose;
  object_class->finalize = ps_counter_node_finalize;
  object_class->get_property = ps_counter_node_get_property;
  object_class->set_property = ps_counter_node_set_property;

  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CHECKED] =
    g_param_spec_boolean ("checked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_INCONSISTENT] =
    g_param_spec_boolean ("inconsistent", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ps_counter_node_init (PsCounterNode *self)
{
}

static char *
make_label (PsEventStore  *store,
            const PsTrack *track)
{
  const char *name = ps_event_store_get_string (store, track->name);
  GString *label;

  if (track->kind != PS_TRACK_INSTANCE)
    return g_strdup (*name != '\0' ? name : "—");

  /* Thread(explorer/0), Process(svchost#3), as the log wrote them */
  label = g_string_new (NULL);
  if (track->category != 0)
    g_string_append_printf (label, "%s/", ps_event_store_get_string (store, track->category));
  g_string_append (label, name);
  if (track->number != 0)
    g_string_append_printf (label, "#%" PRId64, track->number);
  return g_string_free (label, FALSE);
}

PsCounterNode *
ps_counter_node_new (PsEventStore  *store,
                     guint32        track,
                     PsCounterNode *parent)
{
  PsCounterNode *self;
  const PsTrack *info;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  g_return_val_if_fail (track < ps_event_store_get_n_tracks (store), NULL);

  info = ps_event_store_get_track (store, track);
  self = g_object_new (PS_TYPE_COUNTER_NODE, NULL);
  self->store = g_object_ref (store);
  self->track = track;
  self->parent = parent;
  self->label = make_label (store, info);
  self->casefolded_label = g_utf8_casefold (self->label, -1);
  if (info->kind != PS_TRACK_COUNTER)
    self->children = g_list_store_new (PS_TYPE_COUNTER_NODE);
  return self;
}

gboolean
ps_counter_node_is_aggregate (PsCounterNode *self)
{
  PsCounterNode *instance;
  const PsTrack *track;
  const char *name;

  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), FALSE);

  instance = ps_counter_node_get_ancestor (self, PS_TRACK_INSTANCE);
  if (instance == NULL)
    return FALSE;
  track = ps_event_store_get_track (instance->store, instance->track);
  name = ps_event_store_get_string (instance->store, track->name);
  /* Processor Information totals each NUMA node as well: "0,_Total" */
  return track->category == 0 && track->number == 0
         && (g_strcmp0 (name, "_Total") == 0 || g_str_has_suffix (name, ",_Total"));
}

PsEventStore *
ps_counter_node_get_store (PsCounterNode *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), NULL);
  return self->store;
}

guint32
ps_counter_node_get_track (PsCounterNode *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), PS_NONE);
  return self->track;
}

PsTrackKind
ps_counter_node_get_kind (PsCounterNode *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), PS_TRACK_OTHER);
  return ps_event_store_get_track (self->store, self->track)->kind;
}

const char *
ps_counter_node_get_label (PsCounterNode *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), NULL);
  return self->label;
}

const char *
ps_counter_node_get_unit (PsCounterNode *self)
{
  const PsTrack *track;

  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), "");

  track = ps_event_store_get_track (self->store, self->track);
  return ps_event_store_get_string (self->store, track->unit);
}

PsCounterNode *
ps_counter_node_get_parent (PsCounterNode *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), NULL);
  return self->parent;
}

char *
ps_counter_node_dup_path (PsCounterNode *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GString) path = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), NULL);

  for (PsCounterNode *node = self; node != NULL; node = node->parent)
    g_ptr_array_insert (labels, 0, node->label);
  for (guint i = 0; i < labels->len; i++)
    {
      if (i > 0)
        /* Translators: between the levels of a counter's path, for a screen reader */
        g_string_append (path, _(", "));
      g_string_append (path, g_ptr_array_index (labels, i));
    }
  return g_string_free (g_steal_pointer (&path), FALSE);
}

PsCounterNode *
ps_counter_node_get_ancestor (PsCounterNode *self,
                              PsTrackKind    kind)
{
  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), NULL);

  for (PsCounterNode *node = self; node != NULL; node = node->parent)
    if (ps_counter_node_get_kind (node) == kind)
      return node;
  return NULL;
}

GListStore *
ps_counter_node_get_children (PsCounterNode *self)
{
  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), NULL);
  return self->children;
}

/* How many counters are at or below the node, and how many are checked */
static void
count_counters (PsCounterNode *self,
                guint         *n_counters,
                guint         *n_checked)
{
  guint n;

  if (self->children == NULL)
    {
      (*n_counters)++;
      if (self->checked)
        (*n_checked)++;
      return;
    }
  n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PsCounterNode) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      count_counters (child, n_counters, n_checked);
    }
}

gboolean
ps_counter_node_get_checked (PsCounterNode *self)
{
  guint n_counters = 0, n_checked = 0;

  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), FALSE);

  count_counters (self, &n_counters, &n_checked);
  return n_counters > 0 && n_checked == n_counters;
}

gboolean
ps_counter_node_get_inconsistent (PsCounterNode *self)
{
  guint n_counters = 0, n_checked = 0;

  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), FALSE);

  count_counters (self, &n_counters, &n_checked);
  return n_checked > 0 && n_checked < n_counters;
}

static void
notify_up (PsCounterNode *self)
{
  for (PsCounterNode *node = self; node != NULL; node = node->parent)
    {
      g_object_notify_by_pspec (G_OBJECT (node), properties[PROP_CHECKED]);
      g_object_notify_by_pspec (G_OBJECT (node), properties[PROP_INCONSISTENT]);
    }
}

static gboolean
set_checked_below (PsCounterNode *self,
                   gboolean       checked)
{
  gboolean changed = FALSE;
  guint n;

  if (self->children == NULL)
    {
      if (self->checked == checked)
        return FALSE;
      self->checked = checked;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHECKED]);
      return TRUE;
    }
  n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PsCounterNode) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      if (set_checked_below (child, checked))
        changed = TRUE;
    }
  if (changed)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHECKED]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INCONSISTENT]);
    }
  return changed;
}

void
ps_counter_node_set_checked (PsCounterNode *self,
                             gboolean       checked)
{
  g_return_if_fail (PS_IS_COUNTER_NODE (self));

  if (set_checked_below (self, !!checked) && self->parent != NULL)
    notify_up (self->parent);
}

gboolean
ps_counter_node_matches (PsCounterNode *self,
                         const char    *casefolded_text)
{
  guint n;

  g_return_val_if_fail (PS_IS_COUNTER_NODE (self), FALSE);

  if (casefolded_text == NULL || *casefolded_text == '\0' || strstr (self->casefolded_label, casefolded_text) != NULL)
    return TRUE;
  n = self->children != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->children)) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PsCounterNode) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      if (ps_counter_node_matches (child, casefolded_text))
        return TRUE;
    }
  return FALSE;
}

/* ps-marker-children.c — the instances of a group row of the marker table
 *
 * The table makes this model for every group row it shows, only to learn
 * whether the row has an expander, and drops it: its instances' series
 * are made when it is first asked for them (ps_run_analysis_get_members
 * ()), since a marker of a long run has tens of thousands.
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-marker-children.h"
#include "ps-marker-row.h"

struct _PsMarkerChildren
{
  GObject         parent_instance;

  PsRunAnalysis  *analysis;
  const PsSeries *group;      /* owned by the analysis */
  GPtrArray      *instances;  /* PsSeries*, the analysis' members of the
                               * group; NULL until asked for */
  PsMarkerRow   **rows;       /* made on demand, one per instance */
};

static void ps_marker_children_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsMarkerChildren, ps_marker_children, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, ps_marker_children_list_model_init))

static GType
ps_marker_children_get_item_type (GListModel *model)
{
  return PS_TYPE_MARKER_ROW;
}

static GPtrArray *
ensure_instances (PsMarkerChildren *self)
{
  if (self->instances != NULL)
    return self->instances;
  self->instances = g_ptr_array_ref (ps_run_analysis_get_members (self->analysis, self->group));
  self->rows = g_new0 (PsMarkerRow *, MAX (self->instances->len, 1));
  return self->instances;
}

static guint
ps_marker_children_get_n_items (GListModel *model)
{
  return ensure_instances (PS_MARKER_CHILDREN (model))->len;
}

static gpointer
ps_marker_children_get_item (GListModel *model,
                             guint       position)
{
  PsMarkerChildren *self = PS_MARKER_CHILDREN (model);

  if (position >= ensure_instances (self)->len)
    return NULL;
  /* The same object each time, as views and selections expect */
  if (self->rows[position] == NULL)
    self->rows[position] = ps_marker_row_new (self->analysis, g_ptr_array_index (self->instances, position), FALSE);
  return g_object_ref (self->rows[position]);
}

static void
ps_marker_children_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = ps_marker_children_get_item_type;
  iface->get_n_items = ps_marker_children_get_n_items;
  iface->get_item = ps_marker_children_get_item;
}

static void
ps_marker_children_finalize (GObject *object)
{
  PsMarkerChildren *self = PS_MARKER_CHILDREN (object);

  for (guint i = 0; self->instances != NULL && i < self->instances->len; i++)
    g_clear_object (&self->rows[i]);
  g_free (self->rows);
  g_clear_pointer (&self->instances, g_ptr_array_unref);
  ps_run_analysis_unref (self->analysis);

  G_OBJECT_CLASS (ps_marker_children_parent_class)->finalize (object);
}

static void
ps_marker_children_class_init (PsMarkerChildrenClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ps_marker_children_finalize;
}

static void
ps_marker_children_init (PsMarkerChildren *self)
{
}

PsMarkerChildren *
ps_marker_children_new (PsRunAnalysis  *analysis,
                        const PsSeries *group)
{
  PsMarkerChildren *self;

  g_return_val_if_fail (analysis != NULL, NULL);
  g_return_val_if_fail (group != NULL, NULL);

  self = g_object_new (PS_TYPE_MARKER_CHILDREN, NULL);
  self->analysis = ps_run_analysis_ref (analysis);
  self->group = group;
  return self;
}

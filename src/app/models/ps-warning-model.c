/* ps-warning-model.c — the warnings of a run as a GListModel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In the order of their place in the file, which is not always the order
 * a parser gives them in: an RTL scope left open is told of when the
 * scope around it ends, many lines after its begin, which is the line the
 * warning names. The store (and the CLI) keep the parser's order.
 */
#include "config.h"

#include <stdlib.h>

#include "ps-warning-model.h"
#include "ps-warning-row.h"

struct _PsWarningModel
{
  GObject       parent_instance;
  PsEventStore *store;
  GArray       *order;  /* guint: the store's warning at each position */
};

/* Where a warning is in its file: its line, else its byte offset; one
 * without a place (about the whole file) comes first */
static guint64
warning_place (PsEventStore *store,
               guint         index)
{
  PsWarning warning;

  ps_event_store_get_warning (store, index, &warning);
  if (warning.line > 0)
    return warning.line;
  return warning.offset != PS_NO_POSITION ? warning.offset : 0;
}

typedef struct
{
  guint64 place;
  guint   index;
} Placed;

static int
compare_placed (gconstpointer a,
                gconstpointer b)
{
  const Placed *first = a;
  const Placed *second = b;

  if (first->place != second->place)
    return first->place < second->place ? -1 : 1;
  return (first->index > second->index) - (first->index < second->index);
}

/* The order of the warnings, made again when a live run has more */
static GArray *
ensure_order (PsWarningModel *self)
{
  guint n_warnings = ps_event_store_get_n_warnings (self->store);
  g_autofree Placed *placed = NULL;

  if (self->order != NULL && self->order->len == n_warnings)
    return self->order;

  placed = g_new (Placed, MAX (n_warnings, 1));
  for (guint i = 0; i < n_warnings; i++)
    placed[i] = (Placed) { warning_place (self->store, i), i };
  qsort (placed, n_warnings, sizeof (Placed), compare_placed);
  g_clear_pointer (&self->order, g_array_unref);
  self->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    g_array_append_val (self->order, placed[i].index);
  return self->order;
}

static GType
ps_warning_model_get_item_type (GListModel *model)
{
  return PS_TYPE_WARNING_ROW;
}

static guint
ps_warning_model_get_n_items (GListModel *model)
{
  PsWarningModel *self = PS_WARNING_MODEL (model);

  return self->store != NULL ? ps_event_store_get_n_warnings (self->store) : 0;
}

static gpointer
ps_warning_model_get_item (GListModel *model,
                           guint       position)
{
  PsWarningModel *self = PS_WARNING_MODEL (model);
  PsWarning warning;

  if (position >= ps_warning_model_get_n_items (model))
    return NULL;

  ps_event_store_get_warning (self->store, g_array_index (ensure_order (self), guint, position), &warning);
  return ps_warning_row_new (self->store, &warning);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = ps_warning_model_get_item_type;
  iface->get_n_items = ps_warning_model_get_n_items;
  iface->get_item = ps_warning_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (PsWarningModel, ps_warning_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
ps_warning_model_dispose (GObject *object)
{
  PsWarningModel *self = PS_WARNING_MODEL (object);

  g_clear_object (&self->store);
  g_clear_pointer (&self->order, g_array_unref);

  G_OBJECT_CLASS (ps_warning_model_parent_class)->dispose (object);
}

static void
ps_warning_model_class_init (PsWarningModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ps_warning_model_dispose;
}

static void
ps_warning_model_init (PsWarningModel *self)
{
}

PsWarningModel *
ps_warning_model_new (PsEventStore *store)
{
  PsWarningModel *self;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  /* The store is fixed for the model's life: a field, not a property */
  self = g_object_new (PS_TYPE_WARNING_MODEL, NULL);
  self->store = g_object_ref (store);
  return self;
}

/* ps-warning-model.c — the warnings of a run as a GListModel
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-warning-model.h"
#include "ps-warning-row.h"

struct _PsWarningModel
{
  GObject       parent_instance;
  PsEventStore *store;
};

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

  ps_event_store_get_warning (self->store, position, &warning);
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

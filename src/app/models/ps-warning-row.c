/* ps-warning-row.c — one warning of a run, as a list item
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-warning-row.h"

struct _PsWarningRow
{
  GObject       parent_instance;
  PsEventStore *store;     /* keeps the strings of warning alive */
  PsWarning     warning;
};

G_DEFINE_FINAL_TYPE (PsWarningRow, ps_warning_row, G_TYPE_OBJECT)

static void
ps_warning_row_finalize (GObject *object)
{
  PsWarningRow *self = PS_WARNING_ROW (object);

  g_clear_object (&self->store);

  G_OBJECT_CLASS (ps_warning_row_parent_class)->finalize (object);
}

static void
ps_warning_row_class_init (PsWarningRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_warning_row_finalize;
}

static void
ps_warning_row_init (PsWarningRow *self)
{
}

PsWarningRow *
ps_warning_row_new (PsEventStore    *store,
                    const PsWarning *warning)
{
  PsWarningRow *self;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);
  g_return_val_if_fail (warning != NULL, NULL);

  self = g_object_new (PS_TYPE_WARNING_ROW, NULL);
  self->store = g_object_ref (store);
  self->warning = *warning;

  return self;
}

PsSeverity
ps_warning_row_get_severity (PsWarningRow *self)
{
  g_return_val_if_fail (PS_IS_WARNING_ROW (self), PS_SEVERITY_INFO);
  return self->warning.severity;
}

const char *
ps_warning_row_get_code (PsWarningRow *self)
{
  g_return_val_if_fail (PS_IS_WARNING_ROW (self), NULL);
  return self->warning.code;
}

const char *
ps_warning_row_get_message (PsWarningRow *self)
{
  g_return_val_if_fail (PS_IS_WARNING_ROW (self), NULL);
  return self->warning.message;
}

guint64
ps_warning_row_get_line (PsWarningRow *self)
{
  g_return_val_if_fail (PS_IS_WARNING_ROW (self), 0);
  return self->warning.line;
}

guint64
ps_warning_row_get_offset (PsWarningRow *self)
{
  g_return_val_if_fail (PS_IS_WARNING_ROW (self), PS_NO_POSITION);
  return self->warning.offset;
}

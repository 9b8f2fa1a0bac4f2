/* ps-compare-row.c — one row of a comparison, as an item of a list model
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A comparison has one row per series, function or counter (hundreds, not
 * millions), so each is an object of its own; it copies the row so that
 * the table does not depend on the lifetime of the PsRunDiff.
 */
#include "config.h"

#include "ps-compare-row.h"

struct _PsCompareRow
{
  GObject      parent_instance;

  PsRunDiffRow row;   /* the strings are ours */
};

G_DEFINE_FINAL_TYPE (PsCompareRow, ps_compare_row, G_TYPE_OBJECT)

static void
ps_compare_row_finalize (GObject *object)
{
  PsCompareRow *self = PS_COMPARE_ROW (object);

  g_free (self->row.name);
  g_free (self->row.a_name);
  g_free (self->row.context);
  g_free ((char *)self->row.kind);
  g_free ((char *)self->row.unit);

  G_OBJECT_CLASS (ps_compare_row_parent_class)->finalize (object);
}

static void
ps_compare_row_class_init (PsCompareRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ps_compare_row_finalize;
}

static void
ps_compare_row_init (PsCompareRow *self)
{
}

PsCompareRow *
ps_compare_row_new (const PsRunDiffRow *row)
{
  PsCompareRow *self;

  g_return_val_if_fail (row != NULL, NULL);

  self = g_object_new (PS_TYPE_COMPARE_ROW, NULL);
  self->row = *row;
  self->row.name = g_strdup (row->name);
  self->row.a_name = g_strdup (row->a_name);
  self->row.context = g_strdup (row->context);
  self->row.kind = g_strdup (row->kind != NULL ? row->kind : "");
  self->row.unit = g_strdup (row->unit != NULL ? row->unit : "");

  return self;
}

const PsRunDiffRow *
ps_compare_row_get_row (PsCompareRow *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_ROW (self), NULL);
  return &self->row;
}

gboolean
ps_compare_row_is_matched (PsCompareRow *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_ROW (self), FALSE);
  return self->row.has_a && self->row.has_b;
}

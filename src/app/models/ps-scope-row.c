/* ps-scope-row.c — one row of the scope tree: a session, thread, scope or message
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-scope-row.h"
#include "ps-scopes.h"
#include "ps-util.h"

struct _PsScopeRow
{
  GObject          parent_instance;

  PsScopeAnalysis *analysis;
  PsScopeRowKind   kind;
  guint32          index;
  char            *name;     /* made on first use */
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_BEGIN,
  PROP_DURATION,
  PROP_SELF,
  PROP_THREAD,
  PROP_LINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PsScopeRow, ps_scope_row, G_TYPE_OBJECT)

static void
ps_scope_row_finalize (GObject *object)
{
  PsScopeRow *self = PS_SCOPE_ROW (object);

  g_clear_pointer (&self->analysis, ps_scope_analysis_unref);
  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (ps_scope_row_parent_class)->finalize (object);
}

static void
ps_scope_row_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PsScopeRow *self = PS_SCOPE_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, ps_scope_row_get_name (self));
      break;
    case PROP_BEGIN:
      g_value_set_int64 (value, ps_scope_row_get_begin_ns (self));
      break;
    case PROP_DURATION:
      g_value_set_int64 (value, ps_scope_row_get_duration_ns (self));
      break;
    case PROP_SELF:
      g_value_set_int64 (value, ps_scope_row_get_self_ns (self));
      break;
    case PROP_THREAD:
      g_value_set_int64 (value, ps_scope_row_get_thread_id (self));
      break;
    case PROP_LINE:
      g_value_set_uint64 (value, ps_scope_row_get_line (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
time_property (const char *name)
{
  return g_param_spec_int64 (name, NULL, NULL, G_MININT64, G_MAXINT64, 0,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
ps_scope_row_class_init (PsScopeRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ps_scope_row_finalize;
  object_class->get_property = ps_scope_row_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BEGIN] = time_property ("begin");
  properties[PROP_DURATION] = time_property ("duration");
  properties[PROP_SELF] = time_property ("self");
  properties[PROP_THREAD] = time_property ("thread");
  properties[PROP_LINE] =
    g_param_spec_uint64 ("line", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ps_scope_row_init (PsScopeRow *self)
{
}

PsScopeRow *
ps_scope_row_new (PsScopeAnalysis *analysis,
                  PsScopeRowKind   kind,
                  guint32          index)
{
  PsScopeRow *self;

  g_return_val_if_fail (analysis != NULL, NULL);

  self = g_object_new (PS_TYPE_SCOPE_ROW, NULL);
  self->analysis = ps_scope_analysis_ref (analysis);
  self->kind = kind;
  self->index = index;

  return self;
}

static PsEventStore *
store_of (PsScopeRow *self)
{
  return self->analysis->store;
}

static const PsSpan *
span_of (PsScopeRow *self)
{
  return self->kind == PS_SCOPE_ROW_SPAN ? ps_event_store_get_span (store_of (self), self->index) : NULL;
}

static const PsMark *
mark_of (PsScopeRow *self)
{
  return self->kind == PS_SCOPE_ROW_MARK ? ps_event_store_get_mark (store_of (self), self->index) : NULL;
}

/* The track of a thread, scope or message; PS_NONE for a session */
static guint32
track_of (PsScopeRow *self)
{
  switch (self->kind)
    {
    case PS_SCOPE_ROW_THREAD:
      return self->index;
    case PS_SCOPE_ROW_SPAN:
      return span_of (self)->track;
    case PS_SCOPE_ROW_MARK:
      return mark_of (self)->track;
    case PS_SCOPE_ROW_SESSION:
    default:
      return PS_NONE;
    }
}

PsScopeAnalysis *
ps_scope_row_get_analysis (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), NULL);
  return self->analysis;
}

PsScopeRowKind
ps_scope_row_get_kind (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), PS_SCOPE_ROW_SPAN);
  return self->kind;
}

guint32
ps_scope_row_get_index (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), PS_NONE);
  return self->index;
}

guint32
ps_scope_row_get_session (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), 0);

  if (self->kind == PS_SCOPE_ROW_SESSION)
    return self->index;
  return ps_event_store_get_track (store_of (self), track_of (self))->session;
}

const char *
ps_scope_row_get_name (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), NULL);

  if (self->name != NULL)
    return self->name;

  switch (self->kind)
    {
    case PS_SCOPE_ROW_SESSION:
      /* Translators: a row of the scope tree; sessions are runs appended to one log */
      self->name = g_strdup_printf (_("Session %u"), self->index + 1);
      break;
    case PS_SCOPE_ROW_THREAD:
      /* Translators: a row of the scope tree, with the thread id of the log */
      self->name = g_strdup_printf (_("Thread %lld"),
                                    (long long) ps_event_store_get_track (store_of (self), self->index)->number);
      break;
    case PS_SCOPE_ROW_SPAN:
      self->name = ps_util_display_text (ps_event_store_get_string (store_of (self), span_of (self)->name), -1);
      break;
    case PS_SCOPE_ROW_MARK:
    default:
      self->name = ps_util_display_text (ps_event_store_get_string (store_of (self), mark_of (self)->text), -1);
      break;
    }

  return self->name;
}

char *
ps_scope_row_dup_record_text (PsScopeRow *self)
{
  PsEventStore *store;
  g_autofree char *raw = NULL;

  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), NULL);

  store = store_of (self);
  if (self->kind == PS_SCOPE_ROW_SPAN)
    {
      const PsSpan *span = span_of (self);

      if ((span->flags & PS_SPAN_FLAG_LOGICAL) == 0)
        return g_strdup (ps_scope_row_get_name (self));
      raw = g_strconcat (ps_event_store_get_string (store, ps_event_store_get_span_context (store, self->index)),
                         " : { ", ps_event_store_get_string (store, span->name), NULL);
    }
  else if (self->kind == PS_SCOPE_ROW_MARK)
    {
      const PsMark *mark = mark_of (self);

      raw = g_strconcat (ps_event_store_get_string (store, mark->name), " : ",
                         ps_event_store_get_string (store, mark->text), NULL);
    }
  else
    return NULL;

  return ps_util_display_text (raw, -1);
}

gint64
ps_scope_row_get_begin_ns (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), PS_SCOPE_ROW_NO_TIME);

  switch (self->kind)
    {
    case PS_SCOPE_ROW_THREAD:
      {
        const PsScopeRoot *root = ps_scope_tree_find_root (self->analysis->tree, self->index);

        return root != NULL && (root->n_spans > 0 || root->n_marks > 0) ? root->begin_ns : PS_SCOPE_ROW_NO_TIME;
      }
    case PS_SCOPE_ROW_SPAN:
      return span_of (self)->begin_ns;
    case PS_SCOPE_ROW_MARK:
      return mark_of (self)->time_ns;
    case PS_SCOPE_ROW_SESSION:
    default:
      return PS_SCOPE_ROW_NO_TIME;
    }
}

gint64
ps_scope_row_get_duration_ns (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), PS_SCOPE_ROW_NO_TIME);

  switch (self->kind)
    {
    case PS_SCOPE_ROW_THREAD:
      {
        const PsScopeRoot *root = ps_scope_tree_find_root (self->analysis->tree, self->index);

        return root != NULL ? root->scoped_ns : PS_SCOPE_ROW_NO_TIME;
      }
    case PS_SCOPE_ROW_SPAN:
      {
        const PsSpan *span = span_of (self);

        return span->end_ns - span->begin_ns;
      }
    case PS_SCOPE_ROW_MARK:
    case PS_SCOPE_ROW_SESSION:
    default:
      return PS_SCOPE_ROW_NO_TIME;
    }
}

gint64
ps_scope_row_get_self_ns (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), PS_SCOPE_ROW_NO_TIME);

  if (self->kind == PS_SCOPE_ROW_SPAN)
    return self->analysis->self_times[self->index];
  return PS_SCOPE_ROW_NO_TIME;
}

gint64
ps_scope_row_get_wall_ns (PsScopeRow *self)
{
  const PsSessionInfo *session;
  gint64 begin_ns;

  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), 0);

  session = ps_event_store_get_session (store_of (self), ps_scope_row_get_session (self));
  if (session == NULL || session->origin_unix_ns == 0)
    return 0;

  begin_ns = ps_scope_row_get_begin_ns (self);
  if (self->kind == PS_SCOPE_ROW_SESSION)
    begin_ns = 0;
  else if (begin_ns == PS_SCOPE_ROW_NO_TIME)
    return 0;

  return session->origin_unix_ns + begin_ns;
}

gint64
ps_scope_row_get_thread_id (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), -1);

  if (self->kind == PS_SCOPE_ROW_SESSION)
    return -1;
  return ps_event_store_get_track (store_of (self), track_of (self))->number;
}

guint64
ps_scope_row_get_line (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), 0);

  if (self->kind == PS_SCOPE_ROW_MARK)
    return mark_of (self)->line;
  return 0;
}

guint
ps_scope_row_get_flags (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), 0);

  if (self->kind == PS_SCOPE_ROW_SPAN)
    return span_of (self)->flags;
  if (self->kind == PS_SCOPE_ROW_MARK)
    return mark_of (self)->flags;
  return 0;
}

gboolean
ps_scope_row_is_measured (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), FALSE);

  if (self->kind == PS_SCOPE_ROW_SPAN)
    return ps_span_is_measured (span_of (self));
  if (self->kind == PS_SCOPE_ROW_THREAD)
    {
      const PsScopeRoot *root = ps_scope_tree_find_root (self->analysis->tree, self->index);

      return root != NULL && root->n_unmeasured == 0;
    }
  return FALSE;
}

/* A count kept per thread (a field of PsScopeRoot at @offset): the thread's
 * own for a thread row, the sum over the session's threads for a session */
static guint64
sum_root_counts (PsScopeRow *self,
                 gsize       offset)
{
  PsScopeTree *tree = self->analysis->tree;
  guint64 n = 0;

  if (self->kind == PS_SCOPE_ROW_THREAD)
    {
      const PsScopeRoot *root = ps_scope_tree_find_root (tree, self->index);

      return root != NULL ? G_STRUCT_MEMBER (guint64, root, offset) : 0;
    }
  if (self->kind == PS_SCOPE_ROW_SESSION)
    for (guint r = 0; r < ps_scope_tree_get_n_roots (tree); r++)
      if (ps_scope_tree_get_root (tree, r)->session == self->index)
        n += G_STRUCT_MEMBER (guint64, ps_scope_tree_get_root (tree, r), offset);

  return n;
}

guint64
ps_scope_row_get_n_spans (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), 0);
  return sum_root_counts (self, G_STRUCT_OFFSET (PsScopeRoot, n_spans));
}

guint64
ps_scope_row_get_n_marks (PsScopeRow *self)
{
  g_return_val_if_fail (PS_IS_SCOPE_ROW (self), 0);
  return sum_root_counts (self, G_STRUCT_OFFSET (PsScopeRoot, n_marks));
}

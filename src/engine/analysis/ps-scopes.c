/* ps-scopes.c — nested scopes (spans): self times, filters, totals
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3, §5
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-scopes.h"
#include "ps-util.h"

struct _PsScopeFilter
{
  GPtrArray  *include;   /* GRegex */
  GPtrArray  *exclude;   /* GRegex */
  GHashTable *verdicts;  /* (context << 32 | name) → 1 + kept */
  gboolean    has_range; /* keep only what lies inside a time range */
  gint64      range_begin_ns;
  gint64      range_end_ns;
};

PsScopeFilter *
ps_scope_filter_new (void)
{
  PsScopeFilter *self = g_new0 (PsScopeFilter, 1);

  self->include = g_ptr_array_new_with_free_func ((GDestroyNotify)g_regex_unref);
  self->exclude = g_ptr_array_new_with_free_func ((GDestroyNotify)g_regex_unref);
  self->verdicts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  return self;
}

void
ps_scope_filter_free (PsScopeFilter *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->include);
  g_ptr_array_unref (self->exclude);
  g_hash_table_unref (self->verdicts);
  g_free (self);
}

gboolean
ps_scope_filter_add (PsScopeFilter  *self,
                     gboolean        include,
                     const char     *pattern,
                     GError        **error)
{
  GRegex *regex;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);

  /* Raw: log names are bytes, not always UTF-8 */
  regex = g_regex_new (pattern, G_REGEX_RAW | G_REGEX_OPTIMIZE, 0, error);
  if (regex == NULL)
    return FALSE;

  g_ptr_array_add (include ? self->include : self->exclude, regex);
  g_hash_table_remove_all (self->verdicts);
  return TRUE;
}

gboolean
ps_scope_filter_add_file (PsScopeFilter  *self,
                          gboolean        include,
                          const char     *path,
                          GError        **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (!g_file_get_contents (path, &contents, NULL, error))
    return FALSE;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = lines[i];
      gsize length = strlen (line);
      g_autoptr(GError) local_error = NULL;

      if (length > 0 && line[length - 1] == '\r')
        line[--length] = '\0';
      if (length == 0 || line[0] == '#')
        continue;

      if (!ps_scope_filter_add (self, include, line, &local_error))
        {
          g_autofree char *name = g_filename_display_name (path);

          g_set_error (error, local_error->domain, local_error->code,
                       _("%s, line %u: %s"), name, i + 1, local_error->message);
          return FALSE;
        }
    }

  return TRUE;
}

gboolean
ps_scope_filter_is_empty (PsScopeFilter *self)
{
  return self == NULL || (self->include->len == 0 && self->exclude->len == 0 && !self->has_range);
}

void
ps_scope_filter_set_time_range (PsScopeFilter *self,
                                gint64         begin_ns,
                                gint64         end_ns)
{
  g_return_if_fail (self != NULL);

  self->has_range = TRUE;
  self->range_begin_ns = MIN (begin_ns, end_ns);
  self->range_end_ns = MAX (begin_ns, end_ns);
}

gboolean
ps_scope_filter_get_time_range (PsScopeFilter *self,
                                gint64        *begin_ns,
                                gint64        *end_ns)
{
  if (self == NULL || !self->has_range)
    return FALSE;
  if (begin_ns != NULL)
    *begin_ns = self->range_begin_ns;
  if (end_ns != NULL)
    *end_ns = self->range_end_ns;
  return TRUE;
}

gboolean
ps_scope_filter_match_time (PsScopeFilter *self,
                            gint64         time_ns)
{
  return self == NULL || !self->has_range || (time_ns >= self->range_begin_ns && time_ns <= self->range_end_ns);
}

static gboolean
any_matches (GPtrArray  *regexes,
             const char *text,
             gsize       length)
{
  for (guint i = 0; i < regexes->len; i++)
    if (g_regex_match_full (g_ptr_array_index (regexes, i), text, length, 0, 0, NULL, NULL))
      return TRUE;
  return FALSE;
}

gboolean
ps_scope_filter_match_text (PsScopeFilter *self,
                            const char    *text,
                            gssize         length)
{
  if (ps_scope_filter_is_empty (self))
    return TRUE;
  if (length < 0)
    length = strlen (text);

  if (self->include->len > 0 && !any_matches (self->include, text, length))
    return FALSE;
  return !any_matches (self->exclude, text, length);
}

gboolean
ps_scope_filter_match_span (PsScopeFilter *self,
                            PsEventStore  *store,
                            guint64        index)
{
  const PsSpan *span;
  guint32 context = 0;
  gint64 key;
  gpointer verdict;
  gboolean kept;

  if (ps_scope_filter_is_empty (self))
    return TRUE;

  span = ps_event_store_get_span (store, index);
  /* A scope counts in a time range when it lies wholly inside it */
  if (self->has_range && (span->begin_ns < self->range_begin_ns || span->end_ns > self->range_end_ns))
    return FALSE;
  if (self->include->len == 0 && self->exclude->len == 0)
    return TRUE;
  if (span->flags & PS_SPAN_FLAG_LOGICAL)
    context = ps_event_store_get_span_context (store, index);

  key = ((gint64)context << 32) | span->name;
  verdict = g_hash_table_lookup (self->verdicts, &key);
  if (verdict != NULL)
    return GPOINTER_TO_UINT (verdict) - 1;

  if (span->flags & PS_SPAN_FLAG_LOGICAL)
    {
      /* The text of the record that opened it: "context : { name" */
      g_autofree char *text = g_strconcat (ps_event_store_get_string (store, context), " : { ",
                                           ps_event_store_get_string (store, span->name), NULL);

      kept = ps_scope_filter_match_text (self, text, -1);
    }
  else
    kept = ps_scope_filter_match_text (self, ps_event_store_get_string (store, span->name), -1);

  g_hash_table_insert (self->verdicts, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (kept + 1));
  return kept;
}

gboolean
ps_span_is_measured (const PsSpan *span)
{
  return (span->flags & PS_SPAN_FLAGS_NOT_MEASURED) == 0 && span->end_ns >= span->begin_ns;
}

typedef struct
{
  guint64       index;
  const PsSpan *span;         /* committed: the store keeps it in place */
  gint64        children_ns;  /* measured children's durations */
} StackEntry;

/* A growable stack per track; plain arrays, as every span passes through one */
typedef struct
{
  StackEntry *entries;
  guint       length;
  guint       size;
} Stack;

static inline void
finish_entry (const StackEntry *entry,
              PsSelfTimeFunc    func,
              gpointer          user_data)
{
  const PsSpan *span = entry->span;

  func (entry->index, span,
        ps_util_sub_saturated (ps_util_sub_saturated (span->end_ns, span->begin_ns), entry->children_ns), user_data);
}

void
ps_scopes_foreach_self_time (PsEventStore   *store,
                             PsSelfTimeFunc  func,
                             gpointer        user_data)
{
  ps_scopes_foreach_self_time_cancellable (store, func, user_data, NULL);
}

gboolean
ps_scopes_foreach_self_time_cancellable (PsEventStore   *store,
                                         PsSelfTimeFunc  func,
                                         gpointer        user_data,
                                         GCancellable   *cancellable)
{
  guint n_tracks;
  guint64 n_spans;
  g_autofree Stack *stacks = NULL;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  n_tracks = ps_event_store_get_n_tracks (store);
  n_spans = ps_event_store_get_n_spans (store);
  stacks = g_new0 (Stack, n_tracks + 1);

  /* Spans of a track come in the order they began, each after its parent:
   * a span ends every open span of its track above its parent. */
  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);
      Stack *stack;
      guint keep = 0;

      if (ps_util_stop_at (i, cancellable))
        {
          for (guint t = 0; t < n_tracks; t++)
            g_free (stacks[t].entries);
          return FALSE;
        }
      if (span->track >= n_tracks)
        continue;
      stack = &stacks[span->track];

      /* A span is pushed right above its parent, so its parent is found
       * at its depth less one when depths count the ancestors (as RTL
       * scopes' do); a span is on the stack once, so that is the match
       * the search from the top would find */
      if (span->parent != PS_NONE && span->depth > 0 && span->depth <= stack->length
          && stack->entries[span->depth - 1].index == span->parent)
        keep = span->depth;
      else if (span->parent != PS_NONE)
        {
          for (guint k = stack->length; k-- > 0;)
            {
              if (stack->entries[k].index == span->parent)
                {
                  keep = k + 1;
                  break;
                }
            }
        }

      while (stack->length > keep)
        {
          stack->length--;
          finish_entry (&stack->entries[stack->length], func, user_data);
        }

      if (keep > 0 && ps_span_is_measured (span))
        stack->entries[keep - 1].children_ns = ps_util_add_saturated (stack->entries[keep - 1].children_ns,
                                                                      ps_util_sub_saturated (span->end_ns, span->begin_ns));

      if (G_UNLIKELY (stack->length == stack->size))
        {
          stack->size = MAX (16, stack->size * 2);
          stack->entries = g_renew (StackEntry, stack->entries, stack->size);
        }
      stack->entries[stack->length].index = i;
      stack->entries[stack->length].span = span;
      stack->entries[stack->length].children_ns = 0;
      stack->length++;
    }

  for (guint t = 0; t < n_tracks; t++)
    {
      Stack *stack = &stacks[t];

      for (guint k = stack->length; k-- > 0;)
        finish_entry (&stack->entries[k], func, user_data);
      g_free (stack->entries);
    }
  return TRUE;
}

static void
store_self_time (guint64       index,
                 const PsSpan *span,
                 gint64        self_ns,
                 gpointer      user_data)
{
  gint64 *self_times = user_data;

  self_times[index] = self_ns;
}

gint64 *
ps_scopes_get_self_times (PsEventStore *store)
{
  gint64 *self_times;

  g_return_val_if_fail (PS_IS_EVENT_STORE (store), NULL);

  self_times = g_new0 (gint64, ps_event_store_get_n_spans (store) + 1);
  ps_scopes_foreach_self_time (store, store_self_time, self_times);
  return self_times;
}

/* ps-rtl-view-filters.c — the RTL view's search and filters: the search
 * of the scope tree and of the totals, the include and exclude filters
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §5 (the include/exclude filters of the original
 * tools).
 *
 * Apart from the view (ps-rtl-view.c) because both run in a worker: a
 * search or a filter makes a new PsScopeAnalysis while a spinner turns,
 * and a newer one cancels the one before; the totals and the warnings
 * are filtered in place.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-rtl-view-private.h"
#include "ps-scope-list.h"
#include "ps-warning-row.h"

#define FILTER_DELAY_MS 400

/* Search: the totals and the warnings are filtered in place */

static gboolean
contains_folded (const char *text,
                 const char *needle)
{
  g_autofree char *folded = NULL;

  if (text == NULL)
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  return strstr (folded, needle) != NULL;
}

gboolean
ps_rtl_view_total_matches (gpointer item,
                           gpointer user_data)
{
  PsRtlView *self = user_data;
  PsScopeTotalRow *row = item;

  if (self->search_text == NULL)
    return TRUE;
  return contains_folded (ps_scope_total_row_get_name (row), self->search_text)
         || contains_folded (ps_scope_total_row_get_context (row), self->search_text);
}

gboolean
ps_rtl_view_warning_matches (gpointer item,
                             gpointer user_data)
{
  PsRtlView *self = user_data;
  PsWarningRow *row = item;

  if (self->search_text == NULL)
    return TRUE;
  return contains_folded (ps_warning_row_get_code (row), self->search_text)
         || contains_folded (ps_warning_row_get_message (row), self->search_text);
}

/* Search of the scope tree, in a worker */

static void
search_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PsRtlView) self = user_data;
  g_autoptr(PsScopeSearch) search = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PsScopeList) matches = NULL;
  GTask *task = G_TASK (result);

  search = ps_scope_analysis_search_finish (result, &error);
  if (search == NULL || g_task_get_cancellable (task) != self->search_cancellable)
    return;

  g_clear_object (&self->search_cancellable);
  ps_rtl_view_update_busy (self);

  g_free (self->applied_search);
  self->applied_search = g_steal_pointer (&self->pending_search);
  self->n_search_matches = search->n_matches;

  matches = ps_scope_list_new_nodes (self->scopes, search->nodes);
  ps_rtl_view_set_scope_root (self, G_LIST_MODEL (matches), FALSE);
  ps_rtl_view_update_scopes_page (self);
}

void
ps_rtl_view_start_search (PsRtlView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);

  if (self->scopes == NULL)
    return;

  g_free (self->pending_search);
  self->pending_search = g_strdup (text);
  self->search_cancellable = g_cancellable_new ();
  ps_scope_analysis_search_async (self->scopes, text, MAX_SEARCH_RESULTS, self->search_cancellable,
                                  search_cb, g_object_ref (self));
  ps_rtl_view_update_busy (self);
}

void
ps_rtl_view_search_changed_cb (PsRtlView      *self,
                               GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search_text, g_free);
  if (*text != '\0')
    self->search_text = g_utf8_casefold (text, -1);

  gtk_filter_changed (self->totals_filter, GTK_FILTER_CHANGE_DIFFERENT);
  gtk_filter_changed (self->warnings_filter, GTK_FILTER_CHANGE_DIFFERENT);

  if (self->scopes == NULL)
    return;

  ps_rtl_view_update_totals_status (self);
  if (self->search_text != NULL)
    ps_rtl_view_start_search (self);
  else
    {
      g_cancellable_cancel (self->search_cancellable);
      g_clear_object (&self->search_cancellable);
      ps_rtl_view_update_busy (self);
      ps_rtl_view_show_scope_tree (self);
    }
}

void
ps_rtl_view_stop_search_cb (PsRtlView      *self,
                            GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

/* Filters, in a worker */

/* Each line of an entry is one expression (a filter file can be pasted);
 * within a line, "|" separates alternatives */
static gboolean
add_expressions (PsScopeFilter  *filter,
                 gboolean        include,
                 const char     *text,
                 GError        **error)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (*lines[i] == '\0')
        continue;
      if (!ps_scope_filter_add (filter, include, lines[i], error))
        return FALSE;
    }

  return TRUE;
}

/* The filter of the entries, or NULL with the error shown */
static PsScopeFilter *
build_filter (PsRtlView *self)
{
  g_autoptr(PsScopeFilter) filter = ps_scope_filter_new ();
  g_autoptr(GError) include_error = NULL;
  g_autoptr(GError) exclude_error = NULL;
  const char *include = gtk_editable_get_text (GTK_EDITABLE (self->include_entry));
  const char *exclude = gtk_editable_get_text (GTK_EDITABLE (self->exclude_entry));
  g_autoptr(GString) message = g_string_new (NULL);

  gint64 begin, end;

  add_expressions (filter, TRUE, include, &include_error);
  add_expressions (filter, FALSE, exclude, &exclude_error);
  if (self->session != NULL && ps_session_get_selection (self->session, &begin, &end))
    ps_scope_filter_set_time_range (filter, begin, end);

  if (include_error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->include_entry), "error");
      /* Translators: %s is why a regular expression could not be used */
      g_string_append_printf (message, _("Include: %s"), include_error->message);
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->include_entry), "error");

  if (exclude_error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->exclude_entry), "error");
      if (message->len > 0)
        g_string_append_c (message, '\n');
      /* Translators: %s is why a regular expression could not be used */
      g_string_append_printf (message, _("Exclude: %s"), exclude_error->message);
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->exclude_entry), "error");

  gtk_label_set_text (self->filter_error_label, message->str);
  gtk_revealer_set_reveal_child (self->filter_error_revealer, message->len > 0);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->include_entry), GTK_ACCESSIBLE_STATE_INVALID,
                               include_error != NULL ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->exclude_entry), GTK_ACCESSIBLE_STATE_INVALID,
                               exclude_error != NULL ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);

  if (message->len > 0)
    return NULL;
  return g_steal_pointer (&filter);
}

static void
filter_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PsRtlView) self = user_data;
  g_autoptr(PsScopeAnalysis) scopes = NULL;
  g_autoptr(GError) error = NULL;

  scopes = ps_scope_analysis_compute_finish (result, &error);
  if (scopes == NULL || g_task_get_cancellable (G_TASK (result)) != self->filter_cancellable)
    return;

  g_clear_object (&self->filter_cancellable);
  ps_rtl_view_set_scopes (self, scopes);
  ps_rtl_view_update_busy (self);
}

void
ps_rtl_view_apply_filters (PsRtlView *self)
{
  const char *include = gtk_editable_get_text (GTK_EDITABLE (self->include_entry));
  const char *exclude = gtk_editable_get_text (GTK_EDITABLE (self->exclude_entry));
  g_autoptr(PsScopeFilter) filter = NULL;
  gboolean has_range;
  gint64 begin = 0, end = 0;

  g_clear_handle_id (&self->filter_timeout_id, g_source_remove);

  if (self->analysis == NULL || self->analysis->scopes == NULL)
    return;

  filter = build_filter (self);
  if (filter == NULL)
    {
      ps_rtl_view_update_busy (self);
      return;
    }

  /* Nothing new to compute */
  has_range = ps_scope_filter_get_time_range (filter, &begin, &end);
  if (g_strcmp0 (include, self->applied_include) == 0 && g_strcmp0 (exclude, self->applied_exclude) == 0
      && has_range == self->applied_range && (!has_range || (begin == self->applied_begin && end == self->applied_end)))
    {
      ps_rtl_view_update_busy (self);
      return;
    }

  g_free (self->applied_include);
  g_free (self->applied_exclude);
  self->applied_include = g_strdup (include);
  self->applied_exclude = g_strdup (exclude);
  self->applied_range = has_range;
  self->applied_begin = begin;
  self->applied_end = end;

  g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);

  if (ps_scope_filter_is_empty (filter))
    {
      ps_rtl_view_set_scopes (self, self->analysis->scopes);
      ps_rtl_view_update_busy (self);
      return;
    }

  self->filter_cancellable = g_cancellable_new ();
  ps_scope_analysis_compute_async (self->analysis->store, g_steal_pointer (&filter), self->filter_cancellable,
                                   filter_cb, g_object_ref (self));
  ps_rtl_view_update_busy (self);
}

static gboolean
filter_timeout_cb (gpointer user_data)
{
  PsRtlView *self = user_data;

  self->filter_timeout_id = 0;
  ps_rtl_view_apply_filters (self);
  return G_SOURCE_REMOVE;
}

void
ps_rtl_view_filter_changed_cb (PsRtlView *self,
                               GtkEditable *editable)
{
  g_autoptr(PsScopeFilter) filter = NULL;

  gtk_entry_set_icon_from_icon_name (GTK_ENTRY (editable), GTK_ENTRY_ICON_SECONDARY,
                                     *gtk_editable_get_text (editable) != '\0' ? "edit-clear-symbolic" : NULL);
  gtk_entry_set_icon_tooltip_text (GTK_ENTRY (editable), GTK_ENTRY_ICON_SECONDARY, _("Clear"));

  /* Errors show at once; a valid filter is applied after a pause in typing */
  filter = build_filter (self);
  g_clear_handle_id (&self->filter_timeout_id, g_source_remove);
  if (filter != NULL)
    self->filter_timeout_id = g_timeout_add (FILTER_DELAY_MS, filter_timeout_cb, self);
}

void
ps_rtl_view_filter_activate_cb (PsRtlView *self,
                                GtkEntry  *entry)
{
  ps_rtl_view_apply_filters (self);
}

void
ps_rtl_view_filter_icon_release_cb (GtkEntry             *entry,
                                    GtkEntryIconPosition  position,
                                    PsRtlView            *self)
{
  if (position == GTK_ENTRY_ICON_SECONDARY)
    {
      gtk_editable_set_text (GTK_EDITABLE (entry), "");
      ps_rtl_view_apply_filters (self);
    }
}

void
ps_rtl_view_per_thread_toggled_cb (PsRtlView      *self,
                                   GtkCheckButton *button)
{
  ps_rtl_view_set_per_thread (self, gtk_check_button_get_active (button));
}

/* The filters are about scopes: not shown with the warnings. The call
 * tree has a search of its own, which gets the keys typed there. */
void
ps_rtl_view_page_changed_cb (PsRtlView  *self,
                             GParamSpec *pspec,
                             GtkStack   *stack)
{
  const char *page = gtk_stack_get_visible_child_name (stack);
  gboolean call_tree = g_strcmp0 (page, "calltree") == 0;
  gboolean totals = g_strcmp0 (page, "totals") == 0;

  gtk_widget_set_visible (self->scope_filter_box, g_strcmp0 (page, "warnings") != 0);
  gtk_widget_set_visible (self->filter_bar, !call_tree);
  /* The Totals page's count and choice, beside the switcher */
  gtk_widget_set_visible (GTK_WIDGET (self->totals_status_label), totals);
  gtk_widget_set_visible (GTK_WIDGET (self->per_thread_check), totals);
  gtk_search_entry_set_key_capture_widget (self->search_entry, call_tree ? NULL : GTK_WIDGET (self->view_stack));
}

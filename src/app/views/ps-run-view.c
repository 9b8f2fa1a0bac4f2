/* ps-run-view.c — what every view of one run has, written once
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ps-run-view.h"

G_DEFINE_INTERFACE (PsRunView, ps_run_view, GTK_TYPE_WIDGET)

static void
ps_run_view_default_init (PsRunViewInterface *iface)
{
  /* The analysis of the run shown (a view's set_analysis () sets it) */
  g_object_interface_install_property (iface,
                                       g_param_spec_boxed ("analysis", NULL, NULL,
                                                           PS_TYPE_RUN_ANALYSIS,
                                                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                           G_PARAM_STATIC_STRINGS));
}

/* A part of the view at an offset its interface names */
#define RUN_VIEW_PART(type, self, offset_field) \
  G_STRUCT_MEMBER (type, (self), PS_RUN_VIEW_GET_IFACE (self)->offset_field)

/* A part that only some views have: NULL where the offset is 0 (the
 * parent instance, never a part) */
static gpointer
optional_part (PsRunView *self,
               gsize      offset)
{
  return offset != 0 ? G_STRUCT_MEMBER (gpointer, self, offset) : NULL;
}

PsRunAnalysis *
ps_run_view_get_analysis (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return RUN_VIEW_PART (PsRunAnalysis *, self, analysis_offset);
}

gboolean
ps_run_view_get_property (GObject    *object,
                          GValue     *value,
                          GParamSpec *pspec)
{
  /* A property the view overrides is passed on as the interface's own */
  if (pspec->owner_type != PS_TYPE_RUN_VIEW)
    return FALSE;

  g_value_set_boxed (value, ps_run_view_get_analysis (PS_RUN_VIEW (object)));
  return TRUE;
}

PsEventStore *
ps_run_view_get_store (PsRunView *self)
{
  PsRunAnalysis *analysis = ps_run_view_get_analysis (self);

  return analysis != NULL ? analysis->store : NULL;
}

void
ps_run_view_show_page (PsRunView  *self,
                       const char *name)
{
  g_return_if_fail (PS_IS_RUN_VIEW (self));
  gtk_stack_set_visible_child_name (RUN_VIEW_PART (GtkStack *, self, stack_offset), name);
}

const char *
ps_run_view_get_visible_page (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (RUN_VIEW_PART (GtkStack *, self, stack_offset));
}

const char *
ps_run_view_get_header_value (PsRunView  *self,
                              const char *field)
{
  PsRunViewInterface *iface;

  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);

  iface = PS_RUN_VIEW_GET_IFACE (self);
  return ps_view_lookup_label_text (self, iface->header_fields, iface->n_header_fields, field);
}

GListModel *
ps_run_view_get_warning_model (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return RUN_VIEW_PART (GListModel *, self, warnings_offset);
}

const char *
ps_run_view_get_warnings_title (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return gtk_stack_page_get_title (RUN_VIEW_PART (GtkStackPage *, self, warnings_page_offset));
}

gboolean
ps_run_view_is_busy (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), FALSE);
  return PS_RUN_VIEW_GET_IFACE (self)->is_busy (self);
}

PsSession *
ps_run_view_get_session (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return optional_part (self, PS_RUN_VIEW_GET_IFACE (self)->session_offset);
}

PsCallTreeView *
ps_run_view_get_call_tree_view (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return optional_part (self, PS_RUN_VIEW_GET_IFACE (self)->call_tree_view_offset);
}

PsHistogramView *
ps_run_view_get_histogram_view (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return optional_part (self, PS_RUN_VIEW_GET_IFACE (self)->histogram_view_offset);
}

GtkEditable *
ps_run_view_get_search_entry (PsRunView *self)
{
  g_return_val_if_fail (PS_IS_RUN_VIEW (self), NULL);
  return optional_part (self, PS_RUN_VIEW_GET_IFACE (self)->search_entry_offset);
}

void
ps_run_view_unfollow_session (PsSession               **followed,
                              PsRunViewSessionHandlers *handlers)
{
  g_return_if_fail (followed != NULL);
  g_return_if_fail (handlers != NULL);

  if (*followed != NULL)
    {
      g_clear_signal_handler (&handlers->range_handler, *followed);
      g_clear_signal_handler (&handlers->selection_handler, *followed);
      g_clear_signal_handler (&handlers->focus_handler, *followed);
    }
  g_clear_object (followed);
}

void
ps_run_view_follow_session (PsRunView                *self,
                            PsSession               **followed,
                            PsRunViewSessionHandlers *handlers,
                            PsSession                *session,
                            GCallback                 on_selection_changed,
                            GCallback                 on_focus_changed,
                            GCallback                 on_range_changed)
{
  g_return_if_fail (PS_IS_RUN_VIEW (self));
  g_return_if_fail (session == NULL || PS_IS_SESSION (session));

  if (*followed == session)
    return;

  ps_run_view_unfollow_session (followed, handlers);
  if (session == NULL)
    return;

  *followed = g_object_ref (session);
  if (on_range_changed != NULL)
    handlers->range_handler = g_signal_connect_swapped (session, "visible-range-changed",
                                                        on_range_changed, self);
  handlers->selection_handler = g_signal_connect_swapped (session, "selection-changed",
                                                          on_selection_changed, self);
  handlers->focus_handler = g_signal_connect_swapped (session, "focus-changed",
                                                      on_focus_changed, self);
}

void
ps_run_view_list_warnings (PsRunView       *self,
                           PsWarningModel **warnings,
                           PsEventStore    *store,
                           GtkStack        *warnings_stack,
                           GtkLabel        *overflow_label)
{
  g_return_if_fail (PS_IS_RUN_VIEW (self));

  g_clear_object (warnings);
  *warnings = ps_warning_model_new (store);
  ps_view_update_warnings_page (store,
                                RUN_VIEW_PART (GtkStackPage *, self, warnings_page_offset),
                                warnings_stack, overflow_label);
}

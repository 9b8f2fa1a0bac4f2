/* ps-run-view.h — what every view of one run has: pages, a header,
 * warnings, an analysis, work in progress, and the session, call tree,
 * histogram and search some of them have
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each kind of run has its own view (CE statistics, RTL scopes, counters,
 * a profile, a profiler report), yet they all show a run the same way: a
 * stack of named pages, header fields with the run's figures, a warnings
 * page titled with their count. The tests, and whatever treats every kind
 * of run alike, reach those parts here, written once, instead of through
 * a copy in each view; and the views follow their session and list their
 * warnings through the same functions.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-call-tree-view.h"
#include "ps-histogram-view.h"
#include "ps-run-analysis.h"
#include "ps-session.h"
#include "ps-view-util.h"
#include "ps-warning-model.h"

G_BEGIN_DECLS

#define PS_TYPE_RUN_VIEW (ps_run_view_get_type ())
G_DECLARE_INTERFACE (PsRunView, ps_run_view, PS, RUN_VIEW, GtkWidget)

struct _PsRunViewInterface
{
  GTypeInterface parent_iface;

  /* Where a view keeps its parts, as offsets into its instance struct
   * (as gtk_widget_class_bind_template_child () takes them), so that the
   * code reading them is the same for every view */
  gsize                   analysis_offset;       /* PsRunAnalysis * */
  gsize                   stack_offset;          /* GtkStack * of the pages */
  gsize                   warnings_page_offset;  /* GtkStackPage * */
  gsize                   warnings_offset;       /* a GListModel of PsWarningRow, as shown */
  const PsViewLabelField *header_fields;
  guint                   n_header_fields;
  /* Parts that only some views have; 0 where a view has none */
  gsize                   session_offset;        /* PsSession * it follows */
  gsize                   call_tree_view_offset; /* PsCallTreeView * */
  gsize                   histogram_view_offset; /* PsHistogramView * */
  gsize                   search_entry_offset;   /* GtkSearchEntry * */

  /* Whether tables or charts are still being computed */
  gboolean (*is_busy) (PsRunView *self);
};

/* For a view's interface init: a view whose parts have the usual names
 * (analysis, view_stack, warnings_page), whose warnings as shown are the
 * member warnings_model, with its table of header fields (a static array)
 * and its is_busy function */
#define PS_RUN_VIEW_BIND_PARTS(iface, TypeName, warnings_model, fields, busy)     \
  G_STMT_START {                                                                 \
    (iface)->analysis_offset = G_STRUCT_OFFSET (TypeName, analysis);             \
    (iface)->stack_offset = G_STRUCT_OFFSET (TypeName, view_stack);              \
    (iface)->warnings_page_offset = G_STRUCT_OFFSET (TypeName, warnings_page);   \
    (iface)->warnings_offset = G_STRUCT_OFFSET (TypeName, warnings_model);       \
    (iface)->header_fields = (fields);                                           \
    (iface)->n_header_fields = G_N_ELEMENTS (fields);                            \
    (iface)->is_busy = (busy);                                                   \
  } G_STMT_END

/* The property every view has, PsRunView's own: "analysis" (a
 * PsRunAnalysis). A view overrides it in its class_init
 * (g_object_class_override_property ()) and sets it itself; its
 * get_property hands what it does not know of to this function, which
 * reads the analysis where the view keeps it (FALSE for any other
 * property). */
gboolean         ps_run_view_get_property       (GObject    *object,
                                                 GValue     *value,
                                                 GParamSpec *pspec);

PsRunAnalysis   *ps_run_view_get_analysis       (PsRunView  *self);
/* The store of the run shown, or NULL */
PsEventStore    *ps_run_view_get_store          (PsRunView  *self);
/* Shows the page of that name ("warnings" in every view) */
void             ps_run_view_show_page          (PsRunView  *self,
                                                 const char *name);
const char      *ps_run_view_get_visible_page   (PsRunView  *self);
/* The text of a header field ("process", "samples"…, as the view names
 * them); NULL for a field the view does not have */
const char      *ps_run_view_get_header_value   (PsRunView  *self,
                                                 const char *field);
/* PsWarningRow items as shown */
GListModel      *ps_run_view_get_warning_model  (PsRunView  *self);
/* The title of the warnings page, e.g. "Warnings (3)" */
const char      *ps_run_view_get_warnings_title (PsRunView  *self);
gboolean         ps_run_view_is_busy            (PsRunView  *self);
/* The session of the run page the view follows, or NULL */
PsSession       *ps_run_view_get_session        (PsRunView  *self);
/* The call tree of a run with calls (RTL, profile, report), or NULL */
PsCallTreeView  *ps_run_view_get_call_tree_view (PsRunView  *self);
/* The histogram of the chosen scope's or marker's durations (RTL, CE),
 * or NULL */
PsHistogramView *ps_run_view_get_histogram_view (PsRunView  *self);
/* The search of the view's main table (RTL, counters), or NULL */
GtkEditable     *ps_run_view_get_search_entry   (PsRunView  *self);

/* The handlers a view keeps connected to the session it follows */
typedef struct
{
  gulong selection_handler;
  gulong focus_handler;
  gulong range_handler;
} PsRunViewSessionHandlers;

/* Makes the view follow session (NULL: none) in place of *followed: the
 * handlers on the session it followed are disconnected, and the new
 * one's "selection-changed", "focus-changed" and, where on_range_changed
 * is not NULL, "visible-range-changed" call these functions with the view */
void             ps_run_view_follow_session     (PsRunView                *self,
                                                 PsSession               **followed,
                                                 PsRunViewSessionHandlers *handlers,
                                                 PsSession                *session,
                                                 GCallback                 on_selection_changed,
                                                 GCallback                 on_focus_changed,
                                                 GCallback                 on_range_changed);
/* Follows no session any more (for dispose) */
void             ps_run_view_unfollow_session   (PsSession               **followed,
                                                 PsRunViewSessionHandlers *handlers);
/* Lists the warnings of store in a new *warnings (in place of the model
 * it held) and titles the view's warnings page with their count
 * (ps_view_update_warnings_page ()) */
void             ps_run_view_list_warnings      (PsRunView                *self,
                                                 PsWarningModel          **warnings,
                                                 PsEventStore             *store,
                                                 GtkStack                 *warnings_stack,
                                                 GtkLabel                 *overflow_label);

G_END_DECLS

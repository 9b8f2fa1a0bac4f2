/* ps-report-view.c — a profiler report: its call tree and its repairs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §6.3–§6.5 (the kinds of report) and §7
 * rule 5 (the unit is not in the file: the reader guesses it, and a
 * report in ticks can be given a tick rate on the call-tree page).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-call-tree-view.h"
#include "ps-call-tree-view-private.h"
#include "ps-report-view-private.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-warning-columns.h"
#include "ps-warning-model.h"

struct _PsReportView
{
  GtkWidget           parent_instance;

  PsRunAnalysis      *analysis;
  PsWarningModel     *warnings;

  /* Template widgets */
  GtkLabel           *kind_value;
  GtkLabel           *process_value;
  GtkLabel           *unit_value;
  GtkLabel           *rows_value;
  GtkStack           *view_stack;
  PsCallTreeView     *call_tree_view;
  GtkStackPage       *warnings_page;
  GtkLabel           *warnings_overflow_label;
  GtkStack           *warnings_stack;
  GtkColumnView      *warning_view;
};

enum {
  PROP_0,
  /* PsRunView's */
  PROP_ANALYSIS
};

static void ps_report_view_run_view_init (PsRunViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsReportView, ps_report_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_RUN_VIEW, ps_report_view_run_view_init))

/* "Call tree", "Caller/callee", "Function summary", or several */
static char *
report_kind (PsEventStore *store)
{
  gboolean has_tree = FALSE;
  gboolean has_functions = FALSE;
  gboolean has_relations = FALSE;
  GString *kind = g_string_new (NULL);

  for (guint i = 0; i < ps_event_store_get_n_report_rows (store); i++)
    switch (ps_event_store_get_report_row (store, i)->kind)
      {
      case PS_REPORT_ROW_TREE:
        has_tree = TRUE;
        break;
      case PS_REPORT_ROW_FUNCTION:
        has_functions = TRUE;
        break;
      case PS_REPORT_ROW_CALLER:
      case PS_REPORT_ROW_CALLEE:
      default:
        has_relations = TRUE;
        break;
      }

  if (has_tree)
    g_string_append (kind, _("Call tree"));
  if (has_relations)
    {
      if (kind->len > 0)
        g_string_append (kind, ", ");
      /* Translators: a Visual Studio report of the callers and callees of each function */
      g_string_append (kind, _("Caller/callee"));
    }
  else if (has_functions)
    {
      if (kind->len > 0)
        g_string_append (kind, ", ");
      g_string_append (kind, _("Function summary"));
    }

  return g_string_free (kind, FALSE);
}

/* The processes the report names, each once */
static char *
report_processes (PsEventStore *store)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < ps_event_store_get_n_report_rows (store); i++)
    {
      guint32 track_index = ps_event_store_get_report_row (store, i)->track;
      const PsTrack *track;
      g_autofree char *name = NULL;

      if (track_index == PS_NONE || !g_hash_table_add (seen, GUINT_TO_POINTER (track_index + 1)))
        continue;

      track = ps_event_store_get_track (store, track_index);
      name = ps_util_display_text (ps_event_store_get_string (store, track->name), -1);
      if (names->len > 0)
        g_string_append (names, ", ");
      if (track->number > 0 && *name != '\0')
        /* Translators: a process name and its id */
        g_string_append_printf (names, _("%s (%lld)"), name, (long long) track->number);
      else if (*name != '\0')
        g_string_append (names, name);
      else
        g_string_append_printf (names, "%lld", (long long) track->number);
    }

  return g_string_free (names, FALSE);
}

static void
update_header (PsReportView *self)
{
  PsEventStore *store = self->analysis->store;
  const char *unit;
  g_autofree char *kind = report_kind (store);
  g_autofree char *processes = report_processes (store);
  g_autofree char *rows = ps_view_format_count (ps_event_store_get_n_report_rows (store));
  const char *unit_text = NULL;
  const char *unit_tooltip = NULL;

  unit = ps_event_store_get_n_sessions (store) > 0 ? ps_event_store_get_metadata (store, 0, "time_unit") : NULL;
  if (g_strcmp0 (unit, "ticks") == 0)
    {
      unit_text = _("Timer ticks");
      unit_tooltip = _("Whole numbers: high-resolution timer ticks of a frequency the report does not give");
    }
  else if (g_strcmp0 (unit, "ms") == 0)
    {
      unit_text = _("Milliseconds");
      unit_tooltip = _("Numbers with two decimals: milliseconds");
    }
  else if (g_strcmp0 (unit, "samples") == 0)
    unit_text = _("Samples");

  ps_view_set_header_value (self->kind_value, kind, NULL);
  ps_view_set_header_value (self->process_value, processes, NULL);
  ps_view_set_header_value (self->unit_value, unit_text != NULL ? unit_text : unit, unit_tooltip);
  ps_view_set_header_value (self->rows_value, rows, NULL);
}

static void
update_warnings (PsReportView *self)
{
  ps_run_view_list_warnings (PS_RUN_VIEW (self), &self->warnings, self->analysis->store,
                             self->warnings_stack, self->warnings_overflow_label);
  ps_view_set_column_model (self->warning_view, G_LIST_MODEL (self->warnings));
}

/* PsRunView */

static gboolean
run_view_is_busy (PsRunView *view)
{
  return ps_call_tree_view_is_busy (PS_REPORT_VIEW (view)->call_tree_view);
}

static void
ps_report_view_run_view_init (PsRunViewInterface *iface)
{
  static const PsViewLabelField header_fields[] = {
    { "kind", G_STRUCT_OFFSET (PsReportView, kind_value) },
    { "process", G_STRUCT_OFFSET (PsReportView, process_value) },
    { "unit", G_STRUCT_OFFSET (PsReportView, unit_value) },
    { "rows", G_STRUCT_OFFSET (PsReportView, rows_value) },
  };

  PS_RUN_VIEW_BIND_PARTS (iface, PsReportView, warnings, header_fields, run_view_is_busy);
  iface->call_tree_view_offset = G_STRUCT_OFFSET (PsReportView, call_tree_view);
}

static void
ps_report_view_dispose (GObject *object)
{
  PsReportView *self = PS_REPORT_VIEW (object);

  ps_view_dispose_template (GTK_WIDGET (self), PS_TYPE_REPORT_VIEW);

  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_object (&self->warnings);

  G_OBJECT_CLASS (ps_report_view_parent_class)->dispose (object);
}

static void
ps_report_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  if (!ps_run_view_get_property (object, value, pspec))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ps_report_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PsReportView *self = PS_REPORT_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      ps_report_view_set_analysis (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_report_view_class_init (PsReportViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_report_view_dispose;
  object_class->get_property = ps_report_view_get_property;
  object_class->set_property = ps_report_view_set_property;

  g_object_class_override_property (object_class, PROP_ANALYSIS, "analysis");

  g_type_ensure (PS_TYPE_CALL_TREE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-report-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PsReportView, kind_value);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, process_value);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, unit_value);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, rows_value);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, call_tree_view);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, warnings_page);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, warnings_overflow_label);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, warnings_stack);
  gtk_widget_class_bind_template_child (widget_class, PsReportView, warning_view);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "reportview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_report_view_init (PsReportView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  /* Translators: the view of a run, for a screen reader */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Functions of the profiler report"), -1);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  ps_warning_columns_add (self->warning_view);
}

GtkWidget *
ps_report_view_new (void)
{
  return g_object_new (PS_TYPE_REPORT_VIEW, NULL);
}

void
ps_report_view_set_analysis (PsReportView  *self,
                             PsRunAnalysis *analysis)
{
  g_return_if_fail (PS_IS_REPORT_VIEW (self));

  if (self->analysis == analysis)
    return;

  ps_run_analysis_set (&self->analysis, analysis);

  if (self->analysis != NULL)
    {
      update_header (self);
      update_warnings (self);
      ps_call_tree_view_set_store (self->call_tree_view, self->analysis->store);
      ps_call_tree_view_set_tree (self->call_tree_view, self->analysis->call_tree);

      if (self->analysis->call_tree == NULL && ps_event_store_get_n_warnings (self->analysis->store) > 0)
        ps_report_view_show_page (self, "warnings");
      else
        ps_report_view_show_page (self, "calltree");
    }
  else
    {
      ps_call_tree_view_set_tree (self->call_tree_view, NULL);
      ps_call_tree_view_set_store (self->call_tree_view, NULL);
    }

  g_object_notify (G_OBJECT (self), "analysis");
}

void
ps_report_view_show_page (PsReportView *self,
                          const char   *name)
{
  g_return_if_fail (PS_IS_REPORT_VIEW (self));
  gtk_stack_set_visible_child_name (self->view_stack, name);
}

/* Testing API (ps-report-view-private.h) */


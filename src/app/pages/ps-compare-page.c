/* ps-compare-page.c — two runs compared in a tab: the diff table and the
 * runs side by side
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "diff"; issue 8. Each run is a PsRunPage of its own, so it
 * loads exactly as an opened file does (progress, errors, cancel) and
 * shows its usual views; once both are read, ps_run_diff_new () compares
 * the stores in a worker thread and the table shows its rows, the numbers
 * perfscope-cli diff prints. The two runs' sessions follow each other's
 * visible range and selection: both start at 0, B shifted by the offset
 * the user sets.
 *
 * The same worker builds both runs' call trees when they have them, for
 * the differential flame graph (B coloured against A), and keeps every
 * series' values by row, for the histograms of the selected row from both
 * runs. Rows of one run only can be matched by hand ("Match With…"): the
 * pair goes into the rename map and the runs are compared again.
 *
 * A side may be one session of its file (the runs appended to one CE log,
 * ps-compare-page-sessions.h): its run page shows that session and the
 * comparison counts that session's values only.
 *
 * This file holds the widget: its properties, its construction and the
 * tests' look at it. The table's rows and cells are in
 * ps-compare-page-table.c, the runs side by side in ps-compare-page-runs.c,
 * the comparison and its worker in ps-compare-page-diff.c, the exports
 * and the matching by hand in ps-compare-page-export.c; the struct and
 * what they share in ps-compare-page-private.h.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "ps-compare-page-private.h"
#include "ps-compare-page-sessions.h"
#include "ps-compare-row.h"
#include "ps-fit-row.h"
#include "ps-run-page-private.h"
#include "ps-table-export.h"
#include "ps-save-location.h"
#include "ps-view-util.h"
#include "ps-wrap-box.h"

/* The least height of a run under the table: its timeline, its header
 * and a few rows of its tables */
#define RUN_PAGE_MIN_HEIGHT 440

enum {
  PROP_0,
  PROP_FILE_A,
  PROP_FILE_B,
  PROP_SESSION_A,
  PROP_SESSION_B,
  PROP_TITLE,
  PROP_READY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ps_compare_page_save_source_init (PsSaveSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsComparePage, ps_compare_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_SAVE_SOURCE, ps_compare_page_save_source_init))

void
ps_compare_page_set_ready (PsComparePage *self,
                           gboolean       ready)
{
  if (self->ready == ready)
    return;
  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

/* Each side's name in the header and above its run: the file's, or the
 * session's with the number of sessions once the file is read */
void
ps_compare_page_update_side_names (PsComparePage *self)
{
  GtkLabel *labels[2] = { self->run_a_label, self->run_b_label };
  g_autofree char *sessions[2] = { NULL, NULL };

  for (guint side = 0; side < 2; side++)
    {
      g_free (self->side_names[side]);
      self->side_names[side] = ps_compare_side_dup_name (self->run_pages[side], self->chosen_sessions[side]);
      gtk_label_set_text (labels[side], self->side_names[side]);
    }
  /* Two sessions of one file: the header names the sessions, the tab and
   * the details line the file */
  if (ps_compare_side_same_file (self->run_pages[0], self->chosen_sessions[0],
                                 self->run_pages[1], self->chosen_sessions[1]))
    for (guint side = 0; side < 2; side++)
      sessions[side] = ps_compare_side_dup_session (self->run_pages[side], self->chosen_sessions[side]);

  for (guint side = 0; side < 2; side++)
    {
      const char *names[2] = { sessions[0] != NULL ? sessions[0] : self->side_names[0],
                               sessions[1] != NULL ? sessions[1] : self->side_names[1] };

      /* Two names alike but for their starts keep their starts */
      gtk_label_set_text (self->title_labels[side], names[side]);
      gtk_label_set_ellipsize (self->title_labels[side], ps_view_ellipsize_mode_among (names[side], names, 2, NULL));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_labels[side]), names[side]);
    }
}

/* GObject */

static void
ps_compare_page_constructed (GObject *object)
{
  PsComparePage *self = PS_COMPARE_PAGE (object);
  GtkBox *boxes[2] = { self->run_a_box, self->run_b_box };
  GtkLabel *labels[2] = { self->run_a_label, self->run_b_label };

  G_OBJECT_CLASS (ps_compare_page_parent_class)->constructed (object);

  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *path = ps_view_file_display_path (self->files[side]);

      GtkWidget *scrolled = gtk_scrolled_window_new ();

      self->run_pages[side] = PS_RUN_PAGE (ps_run_page_new (self->files[side]));
      /* Each run keeps to its half and scrolls inside it, both ways: a
       * run page may be wider than half a laptop's screen, and the
       * table above keeps its rows however tall the run page is */
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->run_pages[side]));
      gtk_widget_set_vexpand (scrolled, TRUE);
      gtk_widget_set_vexpand (GTK_WIDGET (self->run_pages[side]), TRUE);
      /* Tall enough for its views to show rows; more when there is room */
      gtk_widget_set_size_request (GTK_WIDGET (self->run_pages[side]), -1, RUN_PAGE_MIN_HEIGHT);
      gtk_box_append (boxes[side], scrolled);
      gtk_widget_set_tooltip_text (GTK_WIDGET (labels[side]), path);
      ps_compare_side_show_session (self->run_pages[side], self->chosen_sessions[side]);
      g_signal_connect_object (self->run_pages[side], "notify::state",
                               G_CALLBACK (ps_compare_page_run_state_changed_cb), self, G_CONNECT_SWAPPED);
    }

  self->options.session_a = self->chosen_sessions[0];
  self->options.session_b = self->chosen_sessions[1];
  self->title = ps_compare_side_dup_tab_title (self->run_pages[0], self->chosen_sessions[0],
                                               self->run_pages[1], self->chosen_sessions[1]);
  ps_compare_page_update_side_names (self);
  ps_compare_page_update_header (self);
}

static void
ps_compare_page_dispose (GObject *object)
{
  PsComparePage *self = PS_COMPARE_PAGE (object);

  g_clear_handle_id (&self->narrow_idle, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  for (guint side = 0; side < 2; side++)
    {
      if (self->run_pages[side] != NULL)
        ps_run_page_cancel (self->run_pages[side]);
      if (self->sessions[side] != NULL)
        {
          g_clear_signal_handler (&self->range_handlers[side], self->sessions[side]);
          g_clear_signal_handler (&self->selection_handlers[side], self->sessions[side]);
          g_clear_object (&self->sessions[side]);
        }
      g_clear_object (&self->diffed_stores[side]);
      g_clear_object (&self->aligned_stores[side]);
      self->run_pages[side] = NULL;
    }
  /* Taking the table apart re-sorts and re-selects: not for a page that
   * is going away */
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  g_clear_pointer ((GtkWidget **)&self->row_popover, gtk_widget_unparent);
  g_clear_object (&self->call_diff);
  gtk_widget_dispose_template (GTK_WIDGET (self), PS_TYPE_COMPARE_PAGE);
  g_clear_object (&self->selection);
  g_clear_object (&self->chosen_row);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (ps_compare_page_parent_class)->dispose (object);
}

static void
ps_compare_page_finalize (GObject *object)
{
  PsComparePage *self = PS_COMPARE_PAGE (object);

  g_clear_pointer (&self->diff, ps_run_diff_free);
  g_clear_pointer (&self->renames, g_hash_table_unref);
  g_clear_pointer (&self->values[0], g_hash_table_unref);
  g_clear_pointer (&self->values[1], g_hash_table_unref);
  g_clear_pointer (&self->align_times[0], g_array_unref);
  g_clear_pointer (&self->align_times[1], g_array_unref);
  g_clear_object (&self->files[0]);
  g_clear_object (&self->files[1]);
  g_free (self->side_names[0]);
  g_free (self->side_names[1]);
  g_free (self->title);
  g_free (self->search);

  G_OBJECT_CLASS (ps_compare_page_parent_class)->finalize (object);
}

static void
ps_compare_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PsComparePage *self = PS_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE_A:
      g_value_set_object (value, self->files[0]);
      break;
    case PROP_FILE_B:
      g_value_set_object (value, self->files[1]);
      break;
    case PROP_SESSION_A:
      g_value_set_int (value, self->chosen_sessions[0]);
      break;
    case PROP_SESSION_B:
      g_value_set_int (value, self->chosen_sessions[1]);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_compare_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PsComparePage *self = PS_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE_A:
      self->files[0] = g_value_dup_object (value);
      break;
    case PROP_FILE_B:
      self->files[1] = g_value_dup_object (value);
      break;
    case PROP_SESSION_A:
      self->chosen_sessions[0] = g_value_get_int (value);
      break;
    case PROP_SESSION_B:
      self->chosen_sessions[1] = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_compare_page_class_init (PsComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = ps_compare_page_constructed;
  object_class->dispose = ps_compare_page_dispose;
  ps_view_class_set_measure (widget_class, ps_compare_page_measure);
  widget_class->size_allocate = ps_compare_page_size_allocate;
  object_class->finalize = ps_compare_page_finalize;
  object_class->get_property = ps_compare_page_get_property;
  object_class->set_property = ps_compare_page_set_property;

  properties[PROP_FILE_A] =
    g_param_spec_object ("file-a", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILE_B] =
    g_param_spec_object ("file-b", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The session (0-based) each side compares, −1 for the whole file */
  properties[PROP_SESSION_A] =
    g_param_spec_int ("session-a", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                      G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SESSION_B] =
    g_param_spec_int ("session-b", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                      G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* TRUE once both runs were read and the table shows their comparison */
  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PS_TYPE_RUN_PAGE);
  g_type_ensure (PS_TYPE_FLAME_GRAPH);
  g_type_ensure (PS_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (PS_TYPE_FIT_ROW);
  g_type_ensure (PS_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, paned);
  gtk_widget_class_bind_template_child_full (widget_class, "title_a_label", FALSE,
                                             G_STRUCT_OFFSET (PsComparePage, title_labels[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "title_b_label", FALSE,
                                             G_STRUCT_OFFSET (PsComparePage, title_labels[1]));
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, details_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, regressions_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, improvements_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, changed_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, one_side_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, filter_all);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, filter_regressions);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, filter_improvements);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, filter_changed);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, filter_one_side);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, status_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, min_change_box);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, min_change_spin);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, unmatched_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, unmatched_button);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, rows_stack);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, empty_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, table_window);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, basis_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, table_toolbar);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, table_stack);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, spinner);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, busy_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, failed_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, column_view);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, row_menu);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, flame_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, histogram_box);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, histogram_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, histogram_view);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, offset_spin);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, align_box);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, align_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, align_a_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, align_b_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, side_by_side_button);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, stacked_button);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, same_scale_button);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, runs_box);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, run_a_box);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, run_b_box);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, run_a_label);
  gtk_widget_class_bind_template_child (widget_class, PsComparePage, run_b_label);

  ps_compare_page_install_export_actions (widget_class);

  gtk_widget_class_set_css_name (widget_class, "comparepage");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_compare_page_init (PsComparePage *self)
{
  GtkToggleButton *filters[5];

  gtk_widget_init_template (GTK_WIDGET (self));

  ps_run_diff_options_init (&self->options);
  gtk_spin_button_set_value (self->min_change_spin, 100.0 * self->options.min_change);

  self->renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.match-with", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.clear-matches", FALSE);
  self->row_popover = GTK_POPOVER (gtk_popover_menu_new_from_model (self->row_menu));
  gtk_popover_set_has_arrow (self->row_popover, FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->row_popover), GTK_ALIGN_START);
  gtk_widget_set_parent (GTK_WIDGET (self->row_popover), GTK_WIDGET (self));
  ps_view_menu_quiets_tooltips (self->row_popover);

  filters[0] = self->filter_all;
  filters[1] = self->filter_regressions;
  filters[2] = self->filter_improvements;
  filters[3] = self->filter_changed;
  filters[4] = self->filter_one_side;
  for (guint i = 0; i < G_N_ELEMENTS (filters); i++)
    g_signal_connect_object (filters[i], "toggled", G_CALLBACK (ps_compare_page_filter_toggled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (ps_compare_page_search_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->offset_spin, "value-changed", G_CALLBACK (ps_compare_page_offset_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stacked_button, "toggled", G_CALLBACK (ps_compare_page_layout_toggled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->same_scale_button, "toggled", G_CALLBACK (ps_compare_page_update_same_scale), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->min_change_spin, "value-changed", G_CALLBACK (ps_compare_page_min_change_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->unmatched_button, "clicked", G_CALLBACK (ps_compare_page_unmatched_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_css_class (GTK_WIDGET (self->runs_box), "side-by-side");
  for (guint side = 0; side < 2; side++)
    {
      GtkDropDown *dropdown = side == 0 ? self->align_a_dropdown : self->align_b_dropdown;

      self->align_times[side] = g_array_new (FALSE, FALSE, sizeof (gint64));
      ps_compare_page_set_align_factories (dropdown);
      /* Long lists of messages are searched by their text */
      gtk_drop_down_set_expression (dropdown, gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
      gtk_drop_down_set_enable_search (dropdown, TRUE);
      g_signal_connect_object (dropdown, "notify::selected", G_CALLBACK (ps_compare_page_align_changed_cb), self, G_CONNECT_SWAPPED);
    }
  ps_compare_page_update_align (self);

  ps_compare_page_add_columns (self);

  self->rows = g_list_store_new (PS_TYPE_COMPARE_ROW);
  self->filter = gtk_custom_filter_new (ps_compare_page_filter_row_cb, self, NULL);
  self->filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->rows)),
                                              g_object_ref (GTK_FILTER (self->filter)));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  /* Above the tables of the two runs shown beside it */
  ps_table_export_attach_with_writer (self->column_view, "comparison", 2, ps_compare_page_write_table_csv, self);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (ps_compare_page_selected_row_changed_cb), self, G_CONNECT_SWAPPED);

  /* Worst first until the user sorts */
  gtk_column_view_sort_by_column (self->column_view, self->column_widgets[COL_CHANGE], GTK_SORT_ASCENDING);

  ps_view_place_paned (self->paned, "compare", 0.45, 0);
  ps_view_whole_text_in_tooltips (GTK_WIDGET (self));
  ps_compare_page_show_busy (self, _("Loading both runs…"));
}

GtkWidget *
ps_compare_page_new (GFile *file_a,
                     GFile *file_b)
{
  g_return_val_if_fail (G_IS_FILE (file_a), NULL);
  g_return_val_if_fail (G_IS_FILE (file_b), NULL);

  return g_object_new (PS_TYPE_COMPARE_PAGE, "file-a", file_a, "file-b", file_b, NULL);
}

GtkWidget *
ps_compare_page_new_for_sessions (GFile *file_a,
                                  int    session_a,
                                  GFile *file_b,
                                  int    session_b)
{
  g_return_val_if_fail (G_IS_FILE (file_a), NULL);
  g_return_val_if_fail (G_IS_FILE (file_b), NULL);

  return g_object_new (PS_TYPE_COMPARE_PAGE, "file-a", file_a, "session-a", MAX (session_a, -1),
                       "file-b", file_b, "session-b", MAX (session_b, -1), NULL);
}

int
ps_compare_page_get_session (PsComparePage *self,
                             guint          side)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), -1);
  g_return_val_if_fail (side < 2, -1);
  return self->chosen_sessions[side];
}

GFile *
ps_compare_page_get_file (PsComparePage *self,
                          guint          side)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side < 2, NULL);
  return self->files[side];
}

const char *
ps_compare_page_get_title (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return self->title;
}

/* A save dialog starts beside run A */
static GFile *
save_source_get_file (PsSaveSource *source)
{
  return PS_COMPARE_PAGE (source)->files[0];
}

/* "A_vs_B" of the two files' names, else the comparison's title */
static char *
save_source_get_name (PsSaveSource *source)
{
  PsComparePage *self = PS_COMPARE_PAGE (source);
  g_autofree char *a = self->files[0] != NULL ? ps_save_location_file_name (self->files[0]) : NULL;
  g_autofree char *b = self->files[1] != NULL ? ps_save_location_file_name (self->files[1]) : NULL;

  if (a == NULL || b == NULL || a[0] == '\0' || b[0] == '\0')
    return ps_save_location_clean_name (self->title);
  /* Sessions by their number, as the user reads them */
  for (guint side = 0; side < 2; side++)
    if (self->chosen_sessions[side] >= 0)
      {
        char **name = side == 0 ? &a : &b;
        char *numbered = g_strdup_printf ("%s-%d", *name, self->chosen_sessions[side] + 1);

        g_free (*name);
        *name = numbered;
      }
  return g_strconcat (a, "_vs_", b, NULL);
}

static void
ps_compare_page_save_source_init (PsSaveSourceInterface *iface)
{
  iface->get_file = save_source_get_file;
  iface->get_name = save_source_get_name;
}

void
ps_compare_page_load (PsComparePage *self)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));

  ps_compare_page_set_ready (self, FALSE);
  g_clear_object (&self->diffed_stores[0]);
  g_clear_object (&self->diffed_stores[1]);
  ps_compare_page_show_busy (self, _("Loading both runs…"));
  ps_run_page_load (self->run_pages[0]);
  ps_run_page_load (self->run_pages[1]);
}

void
ps_compare_page_cancel (PsComparePage *self)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));

  g_cancellable_cancel (self->cancellable);
  for (guint side = 0; side < 2; side++)
    if (self->run_pages[side] != NULL)
      ps_run_page_cancel (self->run_pages[side]);
}

const PsRunDiff *
ps_compare_page_get_diff (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return self->ready ? self->diff : NULL;
}

/* Testing API (ps-compare-page-private.h) */

gboolean
ps_compare_page_is_ready (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return self->ready;
}

PsRunPage *
ps_compare_page_get_run_page (PsComparePage *self,
                              guint          side)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side < 2, NULL);
  return self->run_pages[side];
}

GtkLabel *
ps_compare_page_get_title_label (PsComparePage *self,
                                 guint          side)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side < 2, NULL);
  return self->title_labels[side];
}

GtkColumnView *
ps_compare_page_get_column_view (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return self->column_view;
}

void
ps_compare_page_set_min_change (PsComparePage *self,
                                double         percent)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  gtk_spin_button_set_value (self->min_change_spin, percent);
}

gboolean
ps_compare_page_get_min_change_visible (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return gtk_widget_get_visible (self->min_change_box);
}

const char *
ps_compare_page_get_basis_note (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->basis_label)) ? gtk_label_get_text (self->basis_label) : NULL;
}

gboolean
ps_compare_page_get_align_visible (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return gtk_widget_get_visible (self->align_box);
}

gboolean
ps_compare_page_get_same_scale_visible (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->same_scale_button));
}

void
ps_compare_page_set_same_scale (PsComparePage *self,
                                gboolean       same)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  gtk_toggle_button_set_active (self->same_scale_button, same);
}

const char *
ps_compare_page_get_table_state (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->table_stack);
}

const char *
ps_compare_page_get_unmatched_text (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return gtk_label_get_text (self->unmatched_label);
}

const char *
ps_compare_page_get_empty_text (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->rows_stack), "empty") != 0)
    return NULL;
  return gtk_label_get_text (self->empty_label);
}

GtkWidget *
ps_compare_page_get_run_half (PsComparePage *self,
                              guint          side)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side < 2, NULL);
  return GTK_WIDGET (side == 0 ? self->run_a_box : self->run_b_box);
}

GtkScrolledWindow *
ps_compare_page_get_table_window (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return self->table_window;
}

void
ps_compare_page_set_offset_ms (PsComparePage *self,
                               double         offset_ms)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  gtk_spin_button_set_value (self->offset_spin, offset_ms);
}

GtkDropDown *
ps_compare_page_get_align_dropdown (PsComparePage *self,
                                    guint          side)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side < 2, NULL);
  return side == 0 ? self->align_a_dropdown : self->align_b_dropdown;
}

gboolean
ps_compare_page_align_at (PsComparePage *self,
                          guint          side,
                          const char    *text)
{
  GtkDropDown *dropdown;
  GListModel *items;
  PsEventStore *store;

  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  g_return_val_if_fail (side < 2, FALSE);

  dropdown = side == 0 ? self->align_a_dropdown : self->align_b_dropdown;
  if (text == NULL)
    {
      gtk_drop_down_set_selected (dropdown, 0);
      return TRUE;
    }
  store = self->aligned_stores[side];
  items = gtk_drop_down_get_model (dropdown);
  if (store == NULL || items == NULL || !gtk_widget_get_sensitive (GTK_WIDGET (dropdown)))
    return FALSE;
  /* Item i + 1 is the i-th distinct text: find it as the list was made */
  {
    g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
    guint position = 1;

    for (guint64 i = 0; i < ps_event_store_get_n_marks (store); i++)
      {
        const char *mark_text = ps_event_store_get_string (store, ps_event_store_get_mark (store, i)->text);

        if (mark_text == NULL || mark_text[0] == '\0' || g_hash_table_contains (seen, mark_text))
          continue;
        g_hash_table_add (seen, (gpointer)mark_text);
        if (strcmp (mark_text, text) == 0)
          {
            gtk_drop_down_set_selected (dropdown, position);
            return TRUE;
          }
        position++;
      }
  }
  return FALSE;
}

double
ps_compare_page_get_offset_ms (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), 0);
  return self->offset_ms;
}

void
ps_compare_page_set_stacked (PsComparePage *self,
                             gboolean       stacked)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  self->user_stacked = stacked;
  ps_compare_page_apply_layout (self);
}

gboolean
ps_compare_page_get_stacked (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return gtk_toggle_button_get_active (self->stacked_button);
}

const char *
ps_compare_page_get_header_text (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return gtk_label_get_text (self->details_label);
}

PsFlameGraph *
ps_compare_page_get_flame_graph (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return self->flame_graph;
}

gboolean
ps_compare_page_has_flame_graph (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->view_switcher)) && self->call_diff != NULL;
}

void
ps_compare_page_show_view (PsComparePage *self,
                           const char    *name)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  gtk_stack_set_visible_child_name (self->view_stack, name);
}

const char *
ps_compare_page_get_visible_view (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->view_stack);
}

PsHistogramView *
ps_compare_page_get_histogram_view (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return self->histogram_view;
}

gboolean
ps_compare_page_get_histogram_visible (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->histogram_box));
}

gboolean
ps_compare_page_can_match (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), FALSE);
  return self->can_match;
}

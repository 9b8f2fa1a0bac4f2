/* ps-call-tree-view.c — the call-tree page: the four instrumentation values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (the values, the aggregation levels:
 * function summary, call tree, caller/callee) and §4 (the two bases of
 * the percentages; a report's own percentages are shown as given).
 *
 * The table is a GtkTreeListModel over PsCallNodeList models, so row
 * objects exist only for expanded nodes, sorted by a GtkTreeListRowSorter
 * so that children sort among their siblings. A search, the tree of one
 * thread and a report converted from ticks are computed in worker threads
 * (the trees in ps-call-tree-view-trees.c); the rows shown stay until the
 * new ones are ready. The cells are made in ps-call-tree-view-cells.c, the
 * format, the headers, the toolbar and the status line in
 * ps-call-tree-view-status.c.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-call-node-list.h"
#include "ps-call-search.h"
#include "ps-call-tree-view-private.h"
#include "ps-flame-graph.h"
#include "ps-selection-util.h"
#include "ps-table-export.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-wrap-box.h"

/* A search opens the paths to its matches up to this many rows */
#define MAX_SEARCH_EXPANDED_ROWS 2000

enum {
  PROP_0,
  PROP_TREE,
  PROP_STORE,
  PROP_MODE,
  PROP_BASIS,
  PROP_THREAD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  FUNCTION_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PsCallTreeView, ps_call_tree_view, GTK_TYPE_WIDGET)

static void show_rows   (PsCallTreeView *self);
static gboolean select_function_row (PsCallTreeView *self,
                                     guint32         function);

static void start_search (PsCallTreeView *self);

static PsCallSearchScope
search_scope (Mode mode)
{
  switch (mode)
    {
    case MODE_TOP_DOWN:
    case MODE_FLAME_GRAPH:
      return PS_CALL_SEARCH_TOP_DOWN;
    case MODE_BOTTOM_UP:
      return PS_CALL_SEARCH_BOTTOM_UP;
    case MODE_FUNCTIONS:
    case N_MODES:
    default:
      return PS_CALL_SEARCH_FUNCTIONS;
    }
}

void
ps_call_tree_view_update_busy (PsCallTreeView *self)
{
  ps_view_show_busy_spinner (self->spinner,
                             self->build_cancellable != NULL ? _("Computing the call tree…")
                             : self->search_cancellable != NULL ? _("Searching…") : NULL);
}

/* Callers and callees of the selected function */

/* The callers and callees came into view and took their room from the
 * table: each time it gets a new height, its selected row is scrolled
 * back into view (the row a person chose low in the table was otherwise
 * under the pane that its choice showed), until the height has stayed
 * the same for a few frames (the run page may then give the views more
 * room, in a later frame) */
#define RELATIONS_SETTLED_FRAMES 4

static gboolean
scroll_to_chosen_cb (GtkWidget     *widget,
                     GdkFrameClock *clock,
                     gpointer       user_data)
{
  PsCallTreeView *self = user_data;
  GtkSelectionModel *selection = gtk_column_view_get_model (self->column_view);
  guint position = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (selection));
  int height = gtk_widget_get_height (widget);

  if (height == self->relations_tree_height)
    {
      if (++self->relations_settled < RELATIONS_SETTLED_FRAMES)
        return G_SOURCE_CONTINUE;
      /* What the split asks for with callers shown, for when they are
       * hidden again (a table's scroll bar may take room once it has rows) */
      gtk_widget_measure (GTK_WIDGET (self->paned), GTK_ORIENTATION_VERTICAL,
                          gtk_widget_get_width (GTK_WIDGET (self->paned)), &self->relations_shown_minimum,
                          NULL, NULL, NULL);
      self->relations_scroll_id = 0;
      return G_SOURCE_REMOVE;
    }
  self->relations_tree_height = height;
  self->relations_settled = 0;
  if (position != GTK_INVALID_LIST_POSITION)
    ps_selection_scroll_to_row (self->column_view, position);
  return G_SOURCE_CONTINUE;
}

/* The page's height with the pane of callers and callees, at the width
 * the split has (its labels and column titles wrap when narrow), asked
 * for while the pane is hidden */
static void
keep_height_of_relations (PsCallTreeView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self->paned));
  int minimum;

  gtk_widget_set_size_request (GTK_WIDGET (self->main_stack), -1, -1);
  gtk_widget_set_visible (self->relations_box, TRUE);
  gtk_widget_measure (GTK_WIDGET (self->paned), GTK_ORIENTATION_VERTICAL, width > 0 ? width : -1,
                      &minimum, NULL, NULL, NULL);
  gtk_widget_set_visible (self->relations_box, FALSE);
  gtk_widget_set_size_request (GTK_WIDGET (self->main_stack), -1, MAX (minimum, self->relations_shown_minimum));
}

/* Shown for the first time, the split had no width yet: measured again
 * once it has one, before the frame is drawn (hidden again before that,
 * at the next time it is shown) */
static gboolean
measure_laid_out_cb (GtkWidget     *widget,
                     GdkFrameClock *clock,
                     gpointer       user_data)
{
  PsCallTreeView *self = PS_CALL_TREE_VIEW (widget);

  if (gtk_widget_get_mapped (widget) && gtk_widget_get_width (GTK_WIDGET (self->paned)) == 0)
    return G_SOURCE_CONTINUE;
  self->relations_measure_id = 0;
  if (!self->relations_wanted && !gtk_widget_get_visible (self->relations_box))
    keep_height_of_relations (self);
  return G_SOURCE_REMOVE;
}

/* The pane of callers and callees takes room only while a function is
 * chosen: at 1024×700 it left the tree four rows. The table gets the
 * room it leaves, and the page asks for the same height either way, so
 * that nothing else moves: the run page would have given it to the
 * timeline, and taken it back at the first function chosen. Applied once
 * the view is shown, when what the pane takes can be measured. */
static void
apply_relations_shown (PsCallTreeView *self)
{
  gboolean shown = self->relations_wanted;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || gtk_widget_get_visible (self->relations_box) == shown)
    return;
  if (shown)
    {
      if (self->relations_scroll_id == 0)
        {
          self->relations_tree_height = gtk_widget_get_height (GTK_WIDGET (self->column_view));
          self->relations_settled = 0;
          self->relations_scroll_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->column_view),
                                                                    scroll_to_chosen_cb, self, NULL);
        }
      gtk_widget_set_size_request (GTK_WIDGET (self->main_stack), -1, -1);
      gtk_widget_set_visible (self->relations_box, TRUE);
      return;
    }
  keep_height_of_relations (self);
}

static void
measure_when_laid_out (PsCallTreeView *self)
{
  if (!self->relations_wanted && gtk_widget_get_width (GTK_WIDGET (self->paned)) == 0
      && self->relations_measure_id == 0)
    self->relations_measure_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), measure_laid_out_cb, NULL, NULL);
}

static void
show_relations (PsCallTreeView *self,
                gboolean        shown)
{
  self->relations_wanted = shown;
  apply_relations_shown (self);
}

static void
ps_call_tree_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ps_call_tree_view_parent_class)->map (widget);
  apply_relations_shown (PS_CALL_TREE_VIEW (widget));
  measure_when_laid_out (PS_CALL_TREE_VIEW (widget));
}

static void
update_relations (PsCallTreeView *self,
                  guint32         function)
{
  gboolean changed = self->relations_function != function;

  self->relations_function = function;
  ps_flame_graph_set_marked_function (self->flame_graph, function);
  if (changed)
    g_signal_emit (self, signals[FUNCTION_SELECTED], 0, function);

  if (self->tree != NULL && function != PS_NONE)
    {
      g_autoptr(GArray) callers = ps_call_tree_get_callers (self->tree, function);
      g_autoptr(GArray) callees = ps_call_tree_get_callees (self->tree, function);
      g_autoptr(PsCallNodeList) callers_list = ps_call_node_list_new_relations (self->tree, PS_CALL_NODE_ROW_CALLER, callers);
      g_autoptr(PsCallNodeList) callees_list = ps_call_node_list_new_relations (self->tree, PS_CALL_NODE_ROW_CALLEE, callees);
      g_autofree char *name = ps_util_display_text (ps_call_tree_get_function_name (self->tree, function), -1);

      gtk_sort_list_model_set_model (self->callers_sorted, G_LIST_MODEL (callers_list));
      gtk_sort_list_model_set_model (self->callees_sorted, G_LIST_MODEL (callees_list));
      gtk_label_set_text (self->callers_function_label, name);
      gtk_label_set_text (self->callees_function_label, name);
      show_relations (self, TRUE);
    }
  else
    {
      show_relations (self, FALSE);
      gtk_sort_list_model_set_model (self->callers_sorted, NULL);
      gtk_sort_list_model_set_model (self->callees_sorted, NULL);
    }
}

static void
selection_changed_cb (PsCallTreeView     *self,
                      GParamSpec         *pspec,
                      GtkSingleSelection *selection)
{
  GtkTreeListRow *tree_row = gtk_single_selection_get_selected_item (selection);
  g_autoptr(PsCallNodeRow) row = NULL;
  guint32 function;

  /* Nothing selected (e.g. the rows changed): the pane keeps its function */
  if (tree_row == NULL)
    return;

  row = gtk_tree_list_row_get_item (tree_row);
  function = ps_call_node_row_get_function (row);
  if (function != PS_NONE && function != self->relations_function)
    update_relations (self, function);
}

/* The rows */

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  return ps_call_node_row_create_children (item);
}

/* For ps_view_auto_expand (): a few top rows with a few children each
 * are shown open */
static guint
n_children_of (gpointer item)
{
  PsCallNodeRow *row = item;

  return ps_call_tree_get_n_children (ps_call_node_row_get_tree (row), ps_call_node_row_get_index (row));
}

/* Opens the rows that have a match below them, top to bottom: each
 * opened row's children come right after it and are looked at next */
static void
expand_to_matches (GtkTreeListModel *tree,
                   PsCallSearch     *search)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (tree)); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = gtk_tree_list_model_get_row (tree, i);
      g_autoptr(PsCallNodeRow) row = gtk_tree_list_row_get_item (tree_row);

      if (g_list_model_get_n_items (G_LIST_MODEL (tree)) > MAX_SEARCH_EXPANDED_ROWS)
        break;
      if (ps_call_search_get_flags (search, ps_call_node_row_get_index (row)) & PS_CALL_SEARCH_FLAG_BELOW)
        gtk_tree_list_row_set_expanded (tree_row, TRUE);
    }
}

static void
update_empty (PsCallTreeView *self)
{
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));

  if (n_rows == 0)
    {
      g_autofree char *text = NULL;

      if (self->tree == NULL && self->tree_coming)
        text = g_strdup (_("Computing the call tree…"));
      else if (self->tree == NULL)
        text = g_strdup (_("No calls in this run"));
      else if (self->search != NULL)
        text = g_strdup_printf (_("No function matches “%s”"), ps_call_search_get_text (self->search));
      else
        text = g_strdup (_("No calls in this run"));
      gtk_label_set_text (self->empty_label, text);
    }
  gtk_stack_set_visible_child_name (self->content_stack, n_rows > 0 ? "table" : "empty");
}

static void
show_rows (PsCallTreeView *self)
{
  g_autoptr(PsCallNodeList) top = NULL;
  g_autoptr(GtkTreeListModel) tree = NULL;

  if (self->tree == NULL)
    {
      gtk_sort_list_model_set_model (self->sorted, NULL);
      update_empty (self);
      ps_call_tree_view_update_status (self);
      return;
    }

  /* The flame graph draws the top-down tree; the table behind it holds
   * the same rows, so that the empty state and the search follow */
  gtk_stack_set_visible_child_name (self->main_stack, self->mode == MODE_FLAME_GRAPH ? "flame" : "columns");

  switch (self->mode)
    {
    case MODE_TOP_DOWN:
    case MODE_FLAME_GRAPH:
      top = ps_call_node_list_new_children (self->tree, PS_CALL_NODE_ROW_TOP_DOWN, PS_CALL_NODE_ROOT,
                                            self->search, FALSE);
      break;
    case MODE_BOTTOM_UP:
      top = ps_call_node_list_new_children (self->tree, PS_CALL_NODE_ROW_BOTTOM_UP, PS_CALL_NODE_ROOT,
                                            self->search, FALSE);
      break;
    case MODE_FUNCTIONS:
    case N_MODES:
    default:
      top = ps_call_node_list_new_functions (self->tree, self->search);
      break;
    }

  tree = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&top)), FALSE, FALSE, create_children, NULL, NULL);
  if (self->search != NULL && self->mode != MODE_FUNCTIONS)
    expand_to_matches (tree, self->search);
  else if (self->search == NULL && (self->mode == MODE_TOP_DOWN || self->mode == MODE_FLAME_GRAPH))
    ps_view_auto_expand (tree, n_children_of);
  gtk_sort_list_model_set_model (self->sorted, G_LIST_MODEL (tree));
  /* The function chosen (in the flame graph, another view) keeps its row */
  if (self->mode == MODE_FUNCTIONS && self->relations_function != PS_NONE)
    select_function_row (self, self->relations_function);

  update_empty (self);
  ps_call_tree_view_update_status (self);
}

/* Search, in a worker */

static void
search_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PsCallTreeView) self = user_data;
  g_autoptr(PsCallSearch) search = NULL;
  g_autoptr(GError) error = NULL;

  search = ps_call_search_compute_finish (result, &error);
  if (search == NULL || g_task_get_cancellable (G_TASK (result)) != self->search_cancellable)
    return;

  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->search, ps_call_search_unref);
  self->search = g_steal_pointer (&search);
  show_rows (self);
  ps_call_tree_view_update_busy (self);
}

static void
start_search (PsCallTreeView *self)
{
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  ps_flame_graph_set_search (self->flame_graph, self->search_text);

  if (self->tree != NULL && self->search_text != NULL)
    {
      self->search_cancellable = g_cancellable_new ();
      ps_call_search_compute_async (self->tree, search_scope (self->mode), self->search_text,
                                    self->search_cancellable, search_cb, g_object_ref (self));
    }
  else
    {
      g_clear_pointer (&self->search, ps_call_search_unref);
      show_rows (self);
    }
  ps_call_tree_view_update_busy (self);
}

static void
apply_search_text (PsCallTreeView *self,
                   const char     *text)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  char *wanted = *stripped != '\0' ? g_steal_pointer (&stripped) : NULL;

  if (g_strcmp0 (wanted, self->search_text) == 0)
    {
      g_free (wanted);
      return;
    }

  g_free (self->search_text);
  self->search_text = wanted;
  start_search (self);
}

static void
search_changed_cb (PsCallTreeView *self,
                   GtkSearchEntry *entry)
{
  apply_search_text (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
stop_search_cb (PsCallTreeView *self,
                GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  apply_search_text (self, NULL);
}

/* Showing a tree */

/* The function of tree with that name and module, or PS_NONE */
static guint32
find_function (PsCallTree *tree,
               const char *name,
               const char *module)
{
  for (guint32 f = 0; tree != NULL && name != NULL && f < ps_call_tree_get_n_functions (tree); f++)
    if (g_strcmp0 (ps_call_tree_get_function_name (tree, f), name) == 0
        && g_strcmp0 (ps_call_tree_get_function_module (tree, f), module) == 0)
      return f;
  return PS_NONE;
}

void
ps_call_tree_view_show_tree (PsCallTreeView *self,
                             PsCallTree     *tree)
{
  /* The function chosen stays chosen in the new tree (of a time range, of
   * a thread) when it has it: another id, the same function */
  g_autofree char *chosen_name = NULL;
  g_autofree char *chosen_module = NULL;
  guint32 chosen;

  if (self->tree != NULL && self->relations_function != PS_NONE)
    {
      chosen_name = g_strdup (ps_call_tree_get_function_name (self->tree, self->relations_function));
      chosen_module = g_strdup (ps_call_tree_get_function_module (self->tree, self->relations_function));
    }
  if (!g_set_object (&self->tree, tree))
    return;
  chosen = find_function (self->tree, chosen_name, chosen_module);
  if (chosen != PS_NONE)
    self->relations_function = chosen;

  ps_call_tree_view_update_format (self);
  ps_call_tree_view_update_module_width (self);
  ps_call_tree_view_update_columns (self, self->columns, TRUE);
  ps_call_tree_view_update_columns (self, self->callers_columns, FALSE);
  ps_call_tree_view_update_columns (self, self->callees_columns, FALSE);
  ps_call_tree_view_update_toolbar (self);
  ps_call_tree_view_update_notice (self);
  update_relations (self, chosen);
  ps_flame_graph_set_tree (self->flame_graph, self->tree);

  /* A report without a tree opens on its functions */
  if (self->tree != NULL && !ps_call_tree_has_top_down (self->tree)
      && (self->mode == MODE_TOP_DOWN || self->mode == MODE_FLAME_GRAPH))
    {
      self->mode = MODE_FUNCTIONS;
      ps_call_tree_view_sync_mode_buttons (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
    }

  /* The search's marks belong to the old tree: keep its rows until the
   * new ones are found */
  if (self->search_text != NULL)
    start_search (self);
  else
    {
      g_clear_pointer (&self->search, ps_call_search_unref);
      show_rows (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
}

/* Toolbar callbacks */

static void
mode_toggled_cb (PsCallTreeView  *self,
                 GtkToggleButton *button)
{
  if (self->syncing || !gtk_toggle_button_get_active (button))
    return;

  if (button == self->top_down_button)
    ps_call_tree_view_set_mode (self, mode_names[MODE_TOP_DOWN]);
  else if (button == self->bottom_up_button)
    ps_call_tree_view_set_mode (self, mode_names[MODE_BOTTOM_UP]);
  else if (button == self->flame_button)
    ps_call_tree_view_set_mode (self, mode_names[MODE_FLAME_GRAPH]);
  else
    ps_call_tree_view_set_mode (self, mode_names[MODE_FUNCTIONS]);
}

static void
basis_selected_cb (PsCallTreeView *self,
                   GParamSpec     *pspec,
                   GtkDropDown    *dropdown)
{
  if (self->syncing)
    return;
  ps_call_tree_view_set_basis (self, gtk_drop_down_get_selected (dropdown) == 1 ? PS_CALL_BASIS_VIEW
                                                                                 : PS_CALL_BASIS_S1);
}

static void
thread_selected_cb (PsCallTreeView *self,
                    GParamSpec     *pspec,
                    GtkDropDown    *dropdown)
{
  if (self->syncing)
    return;
  ps_call_tree_view_rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THREAD]);
}

static void
tick_rate_apply_cb (PsCallTreeView *self)
{
  gtk_spin_button_update (self->tick_rate_spin);
  gtk_popover_popdown (self->tick_rate_popover);
  ps_call_tree_view_set_ticks_per_second (self, gtk_spin_button_get_value (self->tick_rate_spin));
}

static void
show_all_calls_cb (PsCallTreeView *self)
{
  ps_call_tree_view_set_span_selection (self, NULL, NULL);
}

static void
tick_rate_reset_cb (PsCallTreeView *self)
{
  gtk_popover_popdown (self->tick_rate_popover);
  ps_call_tree_view_set_ticks_per_second (self, 0);
}

/* Going to a function from the callers and callees */

static void
relation_activate_cb (PsCallTreeView *self,
                      guint           position,
                      GtkColumnView  *view)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(PsCallNodeRow) row = g_list_model_get_item (model, position);

  if (row == NULL || ps_call_node_row_get_function (row) == PS_NONE)
    return;

  if (ps_call_tree_view_select_function (self, ps_call_node_row_get_function (row)))
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

/* A frame of the flame graph shows its function's callers and callees */
static void
frame_activated_cb (PsCallTreeView *self,
                    guint           function,
                    PsFlameGraph   *flame_graph)
{
  if (self->tree != NULL && function < ps_call_tree_get_n_functions (self->tree))
    update_relations (self, function);
}

/* Actions */

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  gtk_widget_grab_focus (GTK_WIDGET (PS_CALL_TREE_VIEW (widget)->search_entry));
}

/* GObject */

static void
ps_call_tree_view_dispose (GObject *object)
{
  PsCallTreeView *self = PS_CALL_TREE_VIEW (object);

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);
  g_cancellable_cancel (self->threads_cancellable);
  g_clear_object (&self->threads_cancellable);
  if (self->relations_scroll_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->column_view), self->relations_scroll_id);
  self->relations_scroll_id = 0;
  if (self->relations_measure_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->relations_measure_id);
  self->relations_measure_id = 0;

  ps_view_dispose_template (GTK_WIDGET (self), PS_TYPE_CALL_TREE_VIEW);

  g_clear_object (&self->sorted);
  g_clear_object (&self->callers_sorted);
  g_clear_object (&self->callees_sorted);
  g_clear_object (&self->thread_names);
  g_clear_pointer (&self->search, ps_call_search_unref);
  g_clear_object (&self->tree);
  g_clear_object (&self->run_tree);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (ps_call_tree_view_parent_class)->dispose (object);
}

static void
ps_call_tree_view_finalize (GObject *object)
{
  PsCallTreeView *self = PS_CALL_TREE_VIEW (object);

  g_clear_pointer (&self->thread_tracks, g_array_unref);
  g_clear_pointer (&self->span_selection, g_bytes_unref);
  g_free (self->search_text);
  g_free (self->build_error);

  G_OBJECT_CLASS (ps_call_tree_view_parent_class)->finalize (object);
}

static void
ps_call_tree_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  PsCallTreeView *self = PS_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_TREE:
      g_value_set_object (value, self->tree);
      break;
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_MODE:
      g_value_set_string (value, ps_call_tree_view_get_mode (self));
      break;
    case PROP_BASIS:
      g_value_set_string (value, ps_call_basis_to_string (self->basis));
      break;
    case PROP_THREAD:
      g_value_set_uint (value, ps_call_tree_view_selected_track (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_call_tree_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  PsCallTreeView *self = PS_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_TREE:
      ps_call_tree_view_set_tree (self, g_value_get_object (value));
      break;
    case PROP_STORE:
      ps_call_tree_view_set_store (self, g_value_get_object (value));
      break;
    case PROP_MODE:
      ps_call_tree_view_set_mode (self, g_value_get_string (value));
      break;
    case PROP_BASIS:
      {
        PsCallBasis basis;

        if (ps_call_basis_from_string (g_value_get_string (value), &basis))
          ps_call_tree_view_set_basis (self, basis);
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_call_tree_view_class_init (PsCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_call_tree_view_dispose;
  object_class->finalize = ps_call_tree_view_finalize;
  object_class->get_property = ps_call_tree_view_get_property;
  object_class->set_property = ps_call_tree_view_set_property;
  widget_class->map = ps_call_tree_view_map;

  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL,
                         PS_TYPE_CALL_TREE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL,
                         PS_TYPE_EVENT_STORE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* "top-down", "bottom-up", "functions" or "flame-graph" */
  properties[PROP_MODE] =
    g_param_spec_string ("mode", NULL, NULL, mode_names[MODE_TOP_DOWN],
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* "s1" or "view" (ps_call_basis_to_string ()) */
  properties[PROP_BASIS] =
    g_param_spec_string ("basis", NULL, NULL, "s1",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* The track of the thread chosen, PS_NONE for all */
  properties[PROP_THREAD] =
    g_param_spec_uint ("thread", NULL, NULL, 0, G_MAXUINT32, PS_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PsCallTreeView::function-selected:
   * @function: the function whose callers and callees are shown, or PS_NONE
   *
   * A function of the tree was chosen (a row, a frame, a caller).
   */
  signals[FUNCTION_SELECTED] =
    g_signal_new ("function-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  g_type_ensure (PS_TYPE_FLAME_GRAPH);
  g_type_ensure (PS_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, top_down_button);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, bottom_up_button);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, functions_button);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, flame_button);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, thread_box);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, thread_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, basis_box);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, basis_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, given_label);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, spinner);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, notice_box);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, selection_box);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, selection_label);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, notice_label);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, tick_rate_button);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, tick_rate_popover);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, tick_rate_spin);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, tick_rate_reset_button);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, status_label);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, main_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, paned);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, relations_box);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, column_view);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, callers_function_label);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, callers_view);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, callees_function_label);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, callees_view);
  gtk_widget_class_bind_template_child (widget_class, PsCallTreeView, empty_label);
  gtk_widget_class_bind_template_callback (widget_class, mode_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, basis_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, thread_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, tick_rate_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, tick_rate_reset_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_all_calls_cb);
  gtk_widget_class_bind_template_callback (widget_class, relation_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, frame_activated_cb);

  gtk_widget_class_install_action (widget_class, "calltree.focus-search", NULL, focus_search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "calltree.focus-search", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "calltreeview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static GtkSortListModel *
relations_model_new (GtkColumnView        *view,
                     GtkColumnViewColumn **columns)
{
  GtkSortListModel *sorted = gtk_sort_list_model_new (NULL, g_object_ref (gtk_column_view_get_sorter (view)));

  ps_view_set_column_model (view, G_LIST_MODEL (sorted));
  ps_table_export_attach (view, "call-relations", 0);
  gtk_column_view_sort_by_column (view, columns[CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE)],
                                  GTK_SORT_DESCENDING);
  return sorted;
}

static void
ps_call_tree_view_init (PsCallTreeView *self)
{
  GtkSorter *row_sorter;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Its actions make it an element a screen reader can act on: it reads
   * as what it is */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Call tree"), -1);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->basis = PS_CALL_BASIS_S1;
  self->relations_function = PS_NONE;
  ps_call_tree_view_update_format (self);
  /* The default of the Preferences; the dropdown and flame graph follow */
  ps_call_tree_view_update_basis_tooltip (self);
  if (ps_view_default_basis_is_view ())
    ps_call_tree_view_set_basis (self, PS_CALL_BASIS_VIEW);

  for (CallColumn column = 0; column < N_CALL_COLUMNS; column++)
    {
      self->columns[column] = _ps_call_tree_view_column_new (self, column, TRUE);
      gtk_column_view_append_column (self->column_view, self->columns[column]);
      g_object_unref (self->columns[column]);
      self->callers_columns[column] = _ps_call_tree_view_column_new (self, column, FALSE);
      gtk_column_view_append_column (self->callers_view, self->callers_columns[column]);
      g_object_unref (self->callers_columns[column]);
      self->callees_columns[column] = _ps_call_tree_view_column_new (self, column, FALSE);
      gtk_column_view_append_column (self->callees_view, self->callees_columns[column]);
      g_object_unref (self->callees_columns[column]);
    }
  ps_call_tree_view_update_columns (self, self->columns, TRUE);
  ps_call_tree_view_update_columns (self, self->callers_columns, FALSE);
  ps_call_tree_view_update_columns (self, self->callees_columns, FALSE);

  /* Children sort among their siblings and stay under their parent */
  row_sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->column_view))));
  self->sorted = gtk_sort_list_model_new (NULL, row_sorter);
  ps_view_set_column_model (self->column_view, G_LIST_MODEL (self->sorted));
  ps_table_export_attach (self->column_view, "call-tree", 1);
  g_signal_connect_object (gtk_column_view_get_model (self->column_view), "notify::selected-item",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  /* The most expensive first */
  gtk_column_view_sort_by_column (self->column_view,
                                  self->columns[CALL_COLUMN_VALUE (PS_CALL_VALUE_ELAPSED_INCLUSIVE)],
                                  GTK_SORT_DESCENDING);

  self->callers_sorted = relations_model_new (self->callers_view, self->callers_columns);
  self->callees_sorted = relations_model_new (self->callees_view, self->callees_columns);

  self->thread_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->thread_dropdown, G_LIST_MODEL (self->thread_names));

  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->content_stack));
  /* The tree gets most of the room, the callers and callees the rest */
  ps_view_place_paned (self->paned, "call-tree", 0.62, 0);
  update_relations (self, PS_NONE);
  ps_call_tree_view_update_toolbar (self);
  ps_call_tree_view_update_notice (self);
  ps_call_tree_view_update_busy (self);
  update_empty (self);
}

GtkWidget *
ps_call_tree_view_new (void)
{
  return g_object_new (PS_TYPE_CALL_TREE_VIEW, NULL);
}

PsCallTree *
ps_call_tree_view_get_tree (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return self->tree;
}

void
ps_call_tree_view_set_tree (PsCallTreeView *self,
                            PsCallTree     *tree)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (tree == NULL || PS_IS_CALL_TREE (tree));

  if (self->run_tree == tree && self->tree == tree)
    return;

  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);
  g_clear_pointer (&self->build_error, g_free);
  g_set_object (&self->run_tree, tree);

  /* A new run starts with all threads, in the report's own unit */
  self->ticks_per_second = 0;
  self->syncing = TRUE;
  if (g_list_model_get_n_items (G_LIST_MODEL (self->thread_names)) > 0)
    gtk_drop_down_set_selected (self->thread_dropdown, 0);
  self->syncing = FALSE;

  ps_call_tree_view_show_tree (self, tree);
  ps_call_tree_view_update_notice (self);
  ps_call_tree_view_update_busy (self);
}

void
ps_call_tree_view_set_tree_coming (PsCallTreeView *self,
                                   gboolean        coming)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));

  if (self->tree_coming == coming)
    return;
  self->tree_coming = coming;
  update_empty (self);
}

PsEventStore *
ps_call_tree_view_get_store (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return self->store;
}

void
ps_call_tree_view_set_store (PsCallTreeView *self,
                             PsEventStore   *store)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (store == NULL || PS_IS_EVENT_STORE (store));

  if (!g_set_object (&self->store, store))
    return;

  ps_call_tree_view_list_threads (self);
  ps_call_tree_view_update_notice (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
}

const char *
ps_call_tree_view_get_mode (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return mode_names[self->mode];
}

void
ps_call_tree_view_set_mode (PsCallTreeView *self,
                            const char     *mode)
{
  Mode wanted = N_MODES;

  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (mode != NULL);

  for (Mode m = 0; m < N_MODES; m++)
    if (g_str_equal (mode, mode_names[m]))
      wanted = m;
  g_return_if_fail (wanted != N_MODES);

  if ((wanted == MODE_TOP_DOWN || wanted == MODE_FLAME_GRAPH)
      && self->tree != NULL && !ps_call_tree_has_top_down (self->tree))
    wanted = MODE_FUNCTIONS;

  if (self->mode == wanted)
    {
      ps_call_tree_view_sync_mode_buttons (self);
      return;
    }

  self->mode = wanted;
  ps_call_tree_view_sync_mode_buttons (self);
  /* The graph or the table at once, while a search may still run */
  gtk_stack_set_visible_child_name (self->main_stack, self->mode == MODE_FLAME_GRAPH ? "flame" : "columns");
  if (self->search_text != NULL)
    start_search (self);
  else
    show_rows (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

PsCallBasis
ps_call_tree_view_get_basis (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), PS_CALL_BASIS_S1);
  return self->basis;
}

void
ps_call_tree_view_set_basis (PsCallTreeView *self,
                             PsCallBasis     basis)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (basis == PS_CALL_BASIS_S1 || basis == PS_CALL_BASIS_VIEW);

  if (self->basis == basis)
    return;

  self->basis = basis;
  ps_call_tree_view_update_basis_tooltip (self);
  ps_flame_graph_set_basis (self->flame_graph, basis);
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->basis_dropdown, basis == PS_CALL_BASIS_VIEW ? 1 : 0);
  self->syncing = FALSE;

  /* The percentage cells follow */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASIS]);
}

/* Shared with ps-call-tree-view-cells.c (ps-call-tree-view-private.h) */

PsCallBasis
_ps_call_tree_view_get_basis (PsCallTreeView *self)
{
  return self->basis;
}

const PsCallFormat *
_ps_call_tree_view_get_format (PsCallTreeView *self)
{
  return &self->format;
}

const char *
_ps_call_tree_view_get_applied_search (PsCallTreeView *self)
{
  return self->search != NULL ? ps_call_search_get_text (self->search) : NULL;
}

/* Testing API (ps-call-tree-view-private.h) */

GListModel *
ps_call_tree_view_get_model (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

GtkColumnView *
ps_call_tree_view_get_column_view (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return self->column_view;
}

GtkColumnViewColumn *
ps_call_tree_view_get_column (PsCallTreeView *self,
                              CallColumn      column)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  g_return_val_if_fail (column < N_CALL_COLUMNS, NULL);
  return self->columns[column];
}

GListModel *
ps_call_tree_view_get_callers_model (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return G_LIST_MODEL (self->callers_sorted);
}

GListModel *
ps_call_tree_view_get_callees_model (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return G_LIST_MODEL (self->callees_sorted);
}

GtkColumnView *
ps_call_tree_view_get_callers_view (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return self->callers_view;
}

GtkColumnView *
ps_call_tree_view_get_callees_view (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return self->callees_view;
}

void
ps_call_tree_view_set_search (PsCallTreeView *self,
                              const char     *text)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  apply_search_text (self, text);
}

/* Selects the function's row in the rows shown; FALSE without one */
static gboolean
select_function_row (PsCallTreeView *self,
                     guint32         function)
{
  GListModel *rows = G_LIST_MODEL (self->sorted);
  GtkSelectionModel *selection = gtk_column_view_get_model (self->column_view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (rows, i);
      g_autoptr(PsCallNodeRow) row = gtk_tree_list_row_get_item (tree_row);

      if (ps_call_node_row_get_function (row) == function)
        {
          gtk_selection_model_select_item (selection, i, TRUE);
          ps_selection_scroll_to_row (self->column_view, i);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
ps_call_tree_view_select_function (PsCallTreeView *self,
                                   guint32         function)
{
  gboolean mode_changed;

  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), FALSE);

  if (self->tree == NULL || function >= ps_call_tree_get_n_functions (self->tree))
    return FALSE;

  /* The functions list under the search typed, unless that hides it */
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->search, ps_call_search_unref);
  if (self->search_text != NULL)
    {
      g_autoptr(PsCallSearch) search = ps_call_search_new (self->tree, PS_CALL_SEARCH_FUNCTIONS,
                                                           self->search_text, NULL);

      if (ps_call_search_function_matches (search, function))
        self->search = g_steal_pointer (&search);
      else
        {
          g_clear_pointer (&self->search_text, g_free);
          gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
          ps_flame_graph_set_search (self->flame_graph, NULL);
        }
    }

  mode_changed = self->mode != MODE_FUNCTIONS;
  self->mode = MODE_FUNCTIONS;
  ps_call_tree_view_sync_mode_buttons (self);
  show_rows (self);
  ps_call_tree_view_update_busy (self);
  if (mode_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);

  if (!select_function_row (self, function))
    return FALSE;
  update_relations (self, function);
  return TRUE;
}

guint32
ps_call_tree_view_get_thread (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), PS_NONE);

  return ps_call_tree_view_selected_track (self);
}

void
ps_call_tree_view_show_function (PsCallTreeView *self,
                                 guint32         function)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));

  if (self->tree == NULL || function >= ps_call_tree_get_n_functions (self->tree))
    return;
  if (self->mode == MODE_FUNCTIONS)
    ps_call_tree_view_select_function (self, function);
  else
    update_relations (self, function);
}

guint32
ps_call_tree_view_get_selected_function (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), PS_NONE);
  return self->relations_function;
}

char *
ps_call_tree_view_get_cell_text (PsCallTreeView *self,
                                 PsCallNodeRow  *row,
                                 CallColumn      column)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  g_return_val_if_fail (PS_IS_CALL_NODE_ROW (row), NULL);
  g_return_val_if_fail (column < N_CALL_COLUMNS, NULL);

  return _ps_call_tree_view_cell_text (self, row, column, NULL);
}

gboolean
ps_call_tree_view_is_busy (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), FALSE);

  return self->search_cancellable != NULL || self->build_cancellable != NULL
         || self->threads_cancellable != NULL
         || gtk_sort_list_model_get_pending (self->sorted) > 0;
}

const char *
ps_call_tree_view_get_notice (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);

  if (!gtk_widget_get_visible (self->notice_box))
    return NULL;
  return gtk_label_get_text (self->notice_label);
}

const char *
ps_call_tree_view_get_status (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return gtk_label_get_text (self->status_label);
}

const char *
ps_call_tree_view_get_empty_text (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return gtk_label_get_text (self->empty_label);
}

const char *
ps_call_tree_view_get_percent_label (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->given_label)))
    return NULL;
  return gtk_label_get_text (self->given_label);
}

gboolean
ps_call_tree_view_has_thread_choice (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), FALSE);
  return gtk_widget_get_visible (self->thread_box);
}

GListModel *
ps_call_tree_view_get_threads (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return G_LIST_MODEL (self->thread_names);
}

void
ps_call_tree_view_select_thread (PsCallTreeView *self,
                                 guint           position)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));
  gtk_drop_down_set_selected (self->thread_dropdown, position);
}

void
ps_call_tree_view_set_ticks_per_second (PsCallTreeView *self,
                                        double          ticks_per_second)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));

  ticks_per_second = MAX (ticks_per_second, 0);
  if (self->ticks_per_second == ticks_per_second)
    return;

  self->ticks_per_second = ticks_per_second;
  if (ticks_per_second > 0)
    gtk_spin_button_set_value (self->tick_rate_spin, ticks_per_second);
  ps_call_tree_view_rebuild (self);
}

/* Only the calls of chosen spans (one byte per span of the store, as
 * PsCallTreeOptions.span_selection), e.g. a histogram's buckets, said in
 * a bar with description and a button back to all calls; NULL for all */
void
ps_call_tree_view_set_span_selection (PsCallTreeView *self,
                                      GBytes         *selection,
                                      const char     *description)
{
  g_return_if_fail (PS_IS_CALL_TREE_VIEW (self));

  if (selection == NULL && self->span_selection == NULL)
    return;

  g_clear_pointer (&self->span_selection, g_bytes_unref);
  if (selection != NULL)
    self->span_selection = g_bytes_ref (selection);
  gtk_label_set_text (self->selection_label, description != NULL ? description : "");
  gtk_widget_set_visible (self->selection_box, selection != NULL);
  ps_call_tree_view_rebuild (self);
}

gboolean
ps_call_tree_view_has_span_selection (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), FALSE);

  return self->span_selection != NULL;
}

gboolean
ps_call_tree_view_is_mode_available (PsCallTreeView *self,
                                     const char     *mode)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), FALSE);

  if (g_strcmp0 (mode, mode_names[MODE_TOP_DOWN]) == 0)
    return gtk_widget_get_sensitive (GTK_WIDGET (self->top_down_button));
  if (g_strcmp0 (mode, mode_names[MODE_FLAME_GRAPH]) == 0)
    return gtk_widget_get_sensitive (GTK_WIDGET (self->flame_button));
  return g_strcmp0 (mode, mode_names[MODE_BOTTOM_UP]) == 0 || g_strcmp0 (mode, mode_names[MODE_FUNCTIONS]) == 0;
}

PsFlameGraph *
ps_call_tree_view_get_flame_graph (PsCallTreeView *self)
{
  g_return_val_if_fail (PS_IS_CALL_TREE_VIEW (self), NULL);
  return self->flame_graph;
}

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
 * thread and a report converted from ticks are computed in worker threads;
 * the rows shown stay until the new ones are ready.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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
/* Below this many children in all, the top rows open by themselves */
#define AUTO_EXPAND_BUDGET 400

typedef enum
{
  MODE_TOP_DOWN,
  MODE_BOTTOM_UP,
  MODE_FUNCTIONS,
  MODE_FLAME_GRAPH,
  N_MODES
} Mode;

static const char * const mode_names[N_MODES] = { "top-down", "bottom-up", "functions", "flame-graph" };

struct _PsCallTreeView
{
  GtkWidget            parent_instance;

  PsCallTree          *tree;              /* shown */
  PsCallTree          *run_tree;          /* of the whole run, as set */
  PsEventStore        *store;
  Mode                 mode;
  PsCallBasis          basis;
  PsCallFormat         format;
  int                  module_width;      /* of the longest module name, 0: none */
  gboolean             syncing;           /* toggles and drop-downs set from code */

  /* Threads and tick rate: rebuilt from the store */
  GtkStringList       *thread_names;
  GArray              *thread_tracks;     /* guint32 per choice after "All threads" */
  /* The store's time range, found with the threads: a scan of every event */
  gint64               time_begin;
  gint64               time_end;
  GCancellable        *threads_cancellable;
  double               ticks_per_second;  /* 0: the report's ticks */
  GBytes              *span_selection;    /* PsCallTreeOptions.span_selection, or NULL */
  GCancellable        *build_cancellable;
  char                *build_error;

  /* Search */
  char                *search_text;       /* as typed, or NULL */
  PsCallSearch        *search;            /* what the table shows, or NULL */
  GCancellable        *search_cancellable;

  /* Models */
  GtkSortListModel    *sorted;            /* GtkTreeListRow */
  GtkSortListModel    *callers_sorted;    /* PsCallNodeRow */
  GtkSortListModel    *callees_sorted;
  guint32              relations_function;
  GtkColumnViewColumn *columns[N_CALL_COLUMNS];
  GtkColumnViewColumn *callers_columns[N_CALL_COLUMNS];
  GtkColumnViewColumn *callees_columns[N_CALL_COLUMNS];

  /* Template widgets */
  GtkToggleButton     *top_down_button;
  GtkToggleButton     *bottom_up_button;
  GtkToggleButton     *functions_button;
  GtkToggleButton     *flame_button;
  GtkWidget           *thread_box;
  GtkDropDown         *thread_dropdown;
  GtkWidget           *basis_box;
  GtkDropDown         *basis_dropdown;
  GtkLabel            *given_label;
  GtkSpinner          *spinner;
  GtkSearchEntry      *search_entry;
  GtkWidget           *notice_box;
  GtkWidget           *selection_box;
  GtkLabel            *selection_label;
  GtkLabel            *notice_label;
  GtkMenuButton       *tick_rate_button;
  GtkPopover          *tick_rate_popover;
  GtkSpinButton       *tick_rate_spin;
  GtkWidget           *tick_rate_reset_button;
  GtkLabel            *status_label;
  GtkStack            *content_stack;
  GtkStack            *main_stack;
  GtkPaned            *paned;
  GtkColumnView       *column_view;
  PsFlameGraph        *flame_graph;
  GtkLabel            *callers_function_label;
  GtkColumnView       *callers_view;
  GtkLabel            *callees_function_label;
  GtkColumnView       *callees_view;
  GtkLabel            *empty_label;
};

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
static int  text_width  (GtkWidget      *widget,
                         const char     *text);
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

static void
update_busy (PsCallTreeView *self)
{
  ps_view_show_busy_spinner (self->spinner,
                             self->build_cancellable != NULL ? _("Computing the call tree…")
                             : self->search_cancellable != NULL ? _("Searching…") : NULL);
}

/* Format: one unit for the whole tree, named in every header */

static gboolean
is_whole (double value,
          double quantum)
{
  return !isfinite (value) || fmod (value, quantum) == 0;
}

/* Whether the totals of the tree are whole numbers of quantum. The
 * functions and the session say it for the call paths too (their values are
 * sums of the same intervals), and the engine makes the statistics of call
 * paths only when they are asked for. */
static gboolean
tree_is_whole (PsCallTree *tree,
               double      quantum)
{
  if (!is_whole (ps_call_tree_get_elapsed_total (tree), quantum)
      || !is_whole (ps_call_tree_get_application_total (tree), quantum))
    return FALSE;

  for (guint f = 0; f < ps_call_tree_get_n_functions (tree); f++)
    {
      const PsCallStats *stats = ps_call_tree_get_function_stats (tree, f);

      for (guint v = 0; v < PS_N_CALL_VALUES; v++)
        if (!is_whole (stats->total[v], quantum))
          return FALSE;
    }
  return TRUE;
}

/* The module column is as wide as the longest name needs, within bounds */
static void
update_module_width (PsCallTreeView *self)
{
  gsize longest = 0;
  const char *longest_name = NULL;

  self->module_width = 0;
  if (self->tree == NULL)
    return;

  for (guint f = 0; f < ps_call_tree_get_n_functions (self->tree); f++)
    {
      const char *module = ps_call_tree_get_function_module (self->tree, f);
      gsize length = module != NULL ? strlen (module) : 0;

      if (length > longest)
        {
          longest = length;
          longest_name = module;
        }
    }

  if (longest_name != NULL)
    {
      g_autofree char *display = ps_util_display_text (longest_name, -1);

      self->module_width = text_width (GTK_WIDGET (self), display) + 24;
    }
}

/* Nanoseconds are shown as milliseconds: whole ones for logs with a
 * millisecond clock (RTL), else with three decimals (down to µs) */
static void
update_format (PsCallTreeView *self)
{
  PsCallFormat *format = &self->format;

  format->scale = 1;
  format->samples = FALSE;
  switch (self->tree != NULL ? ps_call_tree_get_unit (self->tree) : PS_CALL_UNIT_NS)
    {
    case PS_CALL_UNIT_NS:
      format->scale = 1e-6;
      /* Translators: the unit of a column of times, milliseconds */
      format->unit = _("ms");
      format->decimals = self->tree == NULL || tree_is_whole (self->tree, 1e6) ? 0 : 3;
      break;
    case PS_CALL_UNIT_MS:
      format->unit = _("ms");
      format->decimals = tree_is_whole (self->tree, 1) ? 0 : 2;
      break;
    case PS_CALL_UNIT_TICKS:
      /* Translators: the unit of a column of timer ticks */
      format->unit = _("ticks");
      format->decimals = tree_is_whole (self->tree, 1) ? 0 : 2;
      break;
    case PS_CALL_UNIT_SAMPLES:
    default:
      /* Translators: the unit of a column of sample counts */
      format->unit = _("samples");
      format->decimals = tree_is_whole (self->tree, 1) ? 0 : 2;
      format->samples = TRUE;
      break;
    }
}

static gboolean
has_application_values (PsCallTreeView *self)
{
  return self->tree == NULL || isfinite (ps_call_tree_get_application_total (self->tree));
}

static int
text_width (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* GTK 4.8 keeps the fixed width of a hidden column as empty space at the
 * end of the table */
static void
set_column_shown (GtkColumnViewColumn *column,
                  gboolean             shown)
{
  if (!shown)
    gtk_column_view_column_set_fixed_width (column, -1);
  gtk_column_view_column_set_visible (column, shown);
}

/* Headers name the unit; a column is as wide as its header (with room
 * for the sort arrow), so that no header is cut */
static void
update_columns (PsCallTreeView       *self,
                GtkColumnViewColumn **columns,
                gboolean              in_tree)
{
  gboolean has_calls = self->tree == NULL || ps_call_tree_get_unit (self->tree) != PS_CALL_UNIT_SAMPLES;
  const char *export_unit = "ms";

  if (self->tree != NULL && ps_call_tree_get_unit (self->tree) == PS_CALL_UNIT_TICKS)
    export_unit = "ticks";
  else if (self->tree != NULL && ps_call_tree_get_unit (self->tree) == PS_CALL_UNIT_SAMPLES)
    export_unit = "samples";

  for (CallColumn column = 0; column < N_CALL_COLUMNS; column++)
    {
      g_autofree char *title = _ps_call_tree_view_column_title (&self->format, column);
      int minimum;

      gtk_column_view_column_set_title (columns[column], title);
      _ps_call_tree_view_update_export_header (&self->format, export_unit, columns[column], column);
      if (column == CALL_COLUMN_FUNCTION)
        {
          /* The main table's takes the room left; the small tables scroll */
          if (!in_tree)
            gtk_column_view_column_set_fixed_width (columns[column], 220);
          continue;
        }
      if (column == CALL_COLUMN_MODULE)
        {
          gtk_column_view_column_set_fixed_width (columns[column],
                                                  CLAMP (MAX (self->module_width, text_width (GTK_WIDGET (self), title) + 32),
                                                         72, 180));
          continue;
        }

      if (column == CALL_COLUMN_CALLS)
        minimum = 64;
      else if ((column - CALL_COLUMN_FIRST_VALUE) % 2 == 0)
        minimum = 96;
      else
        minimum = 64;
      gtk_column_view_column_set_fixed_width (columns[column],
                                              MAX (minimum, text_width (GTK_WIDGET (self), title) + 44));
    }
  set_column_shown (columns[CALL_COLUMN_CALLS], has_calls);
  set_column_shown (columns[CALL_COLUMN_MODULE], self->module_width > 0);
  /* A sampling report has inclusive and exclusive samples only */
  for (PsCallValue v = PS_CALL_VALUE_APPLICATION_INCLUSIVE; v <= PS_CALL_VALUE_APPLICATION_EXCLUSIVE; v++)
    {
      set_column_shown (columns[CALL_COLUMN_VALUE (v)], has_application_values (self));
      set_column_shown (columns[CALL_COLUMN_PERCENT (v)], has_application_values (self));
    }
}

/* Toolbar, notice and status */

static void
sync_mode_buttons (PsCallTreeView *self)
{
  GtkToggleButton *buttons[N_MODES] = { self->top_down_button, self->bottom_up_button, self->functions_button,
                                        self->flame_button };

  self->syncing = TRUE;
  gtk_toggle_button_set_active (buttons[self->mode], TRUE);
  self->syncing = FALSE;
}

static void
update_toolbar (PsCallTreeView *self)
{
  gboolean report = self->tree != NULL && ps_call_tree_is_report (self->tree);
  gboolean has_top_down = self->tree == NULL || ps_call_tree_has_top_down (self->tree);

  gtk_widget_set_visible (self->basis_box, !report);
  gtk_widget_set_visible (GTK_WIDGET (self->given_label), report);

  gtk_widget_set_sensitive (GTK_WIDGET (self->top_down_button), has_top_down);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->top_down_button),
                               has_top_down ? _("Every call path from the entry points down, with the values of the calls along that path")
                                            : _("This report has no call tree: it lists functions, or callers and callees"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->flame_button), has_top_down);
}

/* Why the totals exceed the run's wall time, when they do: they add up
 * the calls of every thread, and threads ran side by side; NULL else */
static char *
summed_totals_text (PsCallTreeView *self)
{
  gint64 begin, end;
  double elapsed, wall_seconds;
  guint n_threads;
  g_autofree char *total = NULL;
  g_autofree char *wall = NULL;

  if (self->tree == NULL || self->store == NULL || ps_call_tree_get_unit (self->tree) != PS_CALL_UNIT_NS
      || self->thread_tracks == NULL || self->thread_tracks->len < 2
      || gtk_drop_down_get_selected (self->thread_dropdown) != 0
      || self->time_end <= self->time_begin)
    return NULL;
  begin = self->time_begin;
  end = self->time_end;
  elapsed = ps_call_tree_get_elapsed_total (self->tree);
  wall_seconds = (double)(end - begin) / 1e9;
  /* A tolerance for the rounding of the two */
  if (elapsed / 1e9 <= wall_seconds * 1.001)
    return NULL;
  n_threads = self->thread_tracks->len;
  total = _ps_call_tree_view_format_value (&self->format, elapsed);
  wall = _ps_call_tree_view_format_value (&self->format, (double)(end - begin));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       /* Translators: "4 threads ran side by side: their calls add up to
                                        * 5250 ms, more than the 1926 ms from the log's first record to its
                                        * last." */
                                       "%u thread ran side by side: its calls add up to %s %s, more than the %s %s the log covers.",
                                       "%u threads ran side by side: their calls add up to %s %s, more than the %s %s the log covers.",
                                       n_threads),
                          n_threads, total, self->format.unit, wall, self->format.unit);
}

static void
update_notice (PsCallTreeView *self)
{
  g_autofree char *text = NULL;
  g_autofree char *summed = summed_totals_text (self);
  gboolean in_ticks = self->run_tree != NULL && ps_call_tree_get_unit (self->run_tree) == PS_CALL_UNIT_TICKS;

  if (self->tree != NULL && in_ticks && self->ticks_per_second > 0)
    {
      g_autofree char *rate = g_strdup_printf ("%.0f", self->ticks_per_second);

      /* Translators: %s is a number of timer ticks per second the user gave */
      text = g_strdup_printf (_("Timer ticks converted to times at %s ticks per second."), rate);
    }
  else if (self->tree != NULL && in_ticks)
    text = g_strdup (_("Times are timer ticks of unknown frequency: the report does not say how many make a second."));
  else if (self->build_error != NULL)
    text = g_strdup (self->build_error);
  else if (self->tree != NULL && !ps_call_tree_is_report (self->tree) && !ps_call_tree_has_os_events (self->tree))
    text = g_strdup (_("No OS events: application time is elapsed time."));
  if (summed != NULL)
    {
      g_autofree char *both = text != NULL ? g_strdup_printf ("%s %s", summed, text) : NULL;

      g_free (text);
      text = both != NULL ? g_steal_pointer (&both) : g_steal_pointer (&summed);
    }

  gtk_label_set_text (self->notice_label, text != NULL ? text : "");
  gtk_widget_set_visible (self->notice_box, text != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->tick_rate_button), in_ticks && self->store != NULL);
  gtk_widget_set_sensitive (self->tick_rate_reset_button, self->ticks_per_second > 0);
}

/* "107 functions", or with modules whose unnamed code is one function
 * each: "9 functions and 14 modules without names (20,403 addresses)" */
static char *
count_functions (PsCallTree *tree)
{
  guint n_functions = ps_call_tree_get_n_functions (tree);
  guint n_modules = 0;
  guint64 n_addresses = 0;
  g_autofree char *addresses = NULL;
  g_autofree char *modules = NULL;

  for (guint32 f = 0; f < n_functions; f++)
    if (ps_call_tree_get_n_function_addresses (tree, f) > 0)
      {
        n_modules++;
        n_addresses += ps_call_tree_get_n_function_addresses (tree, f);
      }
  if (n_modules == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u function", "%u functions", n_functions), n_functions);

  {
    g_autofree char *count = ps_view_format_count (n_addresses);

    /* Translators: a number of code addresses, "20,403 addresses" */
    addresses = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s address", "%s addresses", n_addresses), count);
  }
  /* Translators: modules standing for their code without function names,
   * "14 modules without names (20,403 addresses)" */
  modules = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u module without names (%s)",
                                          "%u modules without names (%s)", n_modules),
                             n_modules, addresses);
  if (n_modules == n_functions)
    return g_steal_pointer (&modules);
  /* Translators: "9 functions and 14 modules without names (20,403 addresses)" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u function and %s", "%u functions and %s",
                                       n_functions - n_modules),
                          n_functions - n_modules, modules);
}

/* The percentage bases in plain words on the drop-down, and in the
 * tooltip what each is of, with the terms of the Visual Studio
 * documentation it follows (vs-instrumentation.md §4) */
static void
update_basis_tooltip (PsCallTreeView *self)
{
  const char *text;

  if (self->basis == PS_CALL_BASIS_VIEW)
    text = _("Every percentage is a share of the elapsed total, the time of all calls with what the operating system did meanwhile.\n"
             "Visual Studio: the percentages of its Functions and Call Tree views, "
             "“Application Inclusive Time %” over the total elapsed time.");
  else
    text = _("Elapsed times are a share of the elapsed total; application times a share of the application total, the time without operating-system events.\n"
             "Visual Studio: “Understanding Instrumentation Data Values”, "
             "“Application Inclusive Time %” over the total application time.");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->basis_dropdown), text);
}

static void
update_status (PsCallTreeView *self)
{
  g_autofree char *functions = NULL;
  g_autofree char *elapsed = NULL;
  g_autofree char *application = NULL;
  g_autofree char *text = NULL;
  guint n_functions;

  if (self->tree == NULL)
    {
      gtk_label_set_text (self->status_label, "");
      return;
    }

  n_functions = ps_call_tree_get_n_functions (self->tree);
  if (self->search != NULL)
    functions = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u function matches “%s”",
                                              "%u of %u functions match “%s”", n_functions),
                                 ps_call_search_get_n_functions (self->search), n_functions,
                                 ps_call_search_get_text (self->search));
  else
    functions = count_functions (self->tree);

  elapsed = _ps_call_tree_view_format_value (&self->format, ps_call_tree_get_elapsed_total (self->tree));
  application = _ps_call_tree_view_format_value (&self->format, ps_call_tree_get_application_total (self->tree));
  if (self->format.samples && !has_application_values (self))
    /* Translators: "107 functions · 117 samples" */
    text = g_strdup_printf (_("%s · %s %s"), functions, elapsed, self->format.unit);
  else
    /* Translators: "9 functions · elapsed total 2013 ms · application total 2013 ms" */
    text = g_strdup_printf (_("%s · elapsed total %s %s · application total %s %s"),
                            functions, elapsed, self->format.unit, application, self->format.unit);
  gtk_label_set_text (self->status_label, text);
}

/* Callers and callees of the selected function */

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
    }
  else
    {
      gtk_sort_list_model_set_model (self->callers_sorted, NULL);
      gtk_sort_list_model_set_model (self->callees_sorted, NULL);
      gtk_label_set_text (self->callers_function_label, _("Select a function"));
      gtk_label_set_text (self->callees_function_label, "");
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

/* A few top rows with a few children each: show them open */
static void
auto_expand (GtkTreeListModel *tree)
{
  guint n_top = g_list_model_get_n_items (G_LIST_MODEL (tree));
  guint budget = AUTO_EXPAND_BUDGET;

  if (n_top > 8)
    return;

  /* From the bottom, so that the positions above do not move */
  for (guint i = n_top; i-- > 0;)
    {
      g_autoptr(GtkTreeListRow) tree_row = gtk_tree_list_model_get_child_row (tree, i);
      g_autoptr(PsCallNodeRow) row = gtk_tree_list_row_get_item (tree_row);
      PsCallTree *call_tree = ps_call_node_row_get_tree (row);
      guint n_children = ps_call_tree_get_n_children (call_tree, ps_call_node_row_get_index (row));

      if (n_children > 0 && n_children <= budget)
        {
          gtk_tree_list_row_set_expanded (tree_row, TRUE);
          budget -= n_children;
        }
    }
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

      if (self->tree == NULL)
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
      update_status (self);
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
    auto_expand (tree);
  gtk_sort_list_model_set_model (self->sorted, G_LIST_MODEL (tree));
  /* The function chosen (in the flame graph, another view) keeps its row */
  if (self->mode == MODE_FUNCTIONS && self->relations_function != PS_NONE)
    select_function_row (self, self->relations_function);

  update_empty (self);
  update_status (self);
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
  update_busy (self);
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
  update_busy (self);
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

static void
show_tree (PsCallTreeView *self,
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

  update_format (self);
  update_module_width (self);
  update_columns (self, self->columns, TRUE);
  update_columns (self, self->callers_columns, FALSE);
  update_columns (self, self->callees_columns, FALSE);
  update_toolbar (self);
  update_notice (self);
  update_relations (self, chosen);
  ps_flame_graph_set_tree (self->flame_graph, self->tree);

  /* A report without a tree opens on its functions */
  if (self->tree != NULL && !ps_call_tree_has_top_down (self->tree)
      && (self->mode == MODE_TOP_DOWN || self->mode == MODE_FLAME_GRAPH))
    {
      self->mode = MODE_FUNCTIONS;
      sync_mode_buttons (self);
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

/* Trees of one thread or from a tick rate, in a worker */

typedef struct
{
  PsEventStore      *store;
  GBytes            *span_selection;  /* kept alive for options */
  PsCallTreeOptions  options;
} BuildData;

static void
build_data_free (gpointer data)
{
  BuildData *build = data;

  g_clear_object (&build->store);
  g_clear_pointer (&build->span_selection, g_bytes_unref);
  g_free (build);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildData *build = task_data;
  g_autoptr(GError) error = NULL;
  PsCallTree *tree;

  if (g_task_return_error_if_cancelled (task))
    return;

  tree = ps_call_tree_new_for_store (build->store, &build->options, &error);
  if (tree == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, tree, g_object_unref);
}

static void
build_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(PsCallTreeView) self = user_data;
  g_autoptr(PsCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  tree = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_task_get_cancellable (G_TASK (result)) != self->build_cancellable
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->build_cancellable);
  g_clear_pointer (&self->build_error, g_free);
  if (tree != NULL)
    show_tree (self, tree);
  else
    /* Translators: %s says why a call tree could not be built */
    self->build_error = g_strdup_printf (_("The call tree could not be built: %s"), error->message);
  update_notice (self);
  update_busy (self);
}

static guint32
selected_track (PsCallTreeView *self)
{
  guint position = gtk_drop_down_get_selected (self->thread_dropdown);

  if (self->thread_tracks == NULL || position == 0 || position == GTK_INVALID_LIST_POSITION
      || position - 1 >= self->thread_tracks->len)
    return PS_NONE;
  return g_array_index (self->thread_tracks, guint32, position - 1);
}

/* The old tree stays until the new one is there */
static void
rebuild (PsCallTreeView *self)
{
  g_autoptr(GTask) task = NULL;
  BuildData *build;

  g_cancellable_cancel (self->build_cancellable);
  g_clear_object (&self->build_cancellable);
  g_clear_pointer (&self->build_error, g_free);

  if (selected_track (self) == PS_NONE && self->ticks_per_second <= 0 && self->span_selection == NULL)
    {
      show_tree (self, self->run_tree);
      update_notice (self);
      update_busy (self);
      return;
    }
  if (self->store == NULL)
    return;

  build = g_new0 (BuildData, 1);
  build->store = g_object_ref (self->store);
  build->options.track = selected_track (self);
  build->options.filter = NULL;
  build->options.ticks_per_second = self->ticks_per_second;
  if (self->span_selection != NULL)
    {
      build->span_selection = g_bytes_ref (self->span_selection);
      build->options.span_selection = g_bytes_get_data (build->span_selection, NULL);
    }

  self->build_cancellable = g_cancellable_new ();
  /* A rebuild started meanwhile stops this one's walk over the spans (the
   * task keeps the cancellable) */
  build->options.cancellable = self->build_cancellable;
  task = g_task_new (NULL, self->build_cancellable, build_cb, g_object_ref (self));
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, build, build_data_free);
  g_task_run_in_thread (task, build_thread);
  update_busy (self);
}

/* The threads that have spans, in a worker (a pass over the spans) */

typedef struct
{
  GArray *tracks;
  gint64  begin;
  gint64  end;       /* not past begin: no time range */
} ThreadsFound;

static void
threads_found_free (gpointer data)
{
  ThreadsFound *found = data;

  g_array_unref (found->tracks);
  g_free (found);
}

static void
threads_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  PsEventStore *store = task_data;
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_spans = ps_event_store_get_n_spans (store);
  g_autofree guint8 *has_spans = g_new0 (guint8, n_tracks + 1);
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  ThreadsFound *found;

  for (guint64 i = 0; i < n_spans; i++)
    {
      const PsSpan *span = ps_event_store_get_span (store, i);

      if (i % 65536 == 0 && g_cancellable_is_cancelled (cancellable))
        {
          g_array_unref (tracks);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
          return;
        }
      if (span->track < n_tracks)
        has_spans[span->track] = TRUE;
    }

  for (guint32 t = 0; t < n_tracks; t++)
    if (has_spans[t] && ps_event_store_get_track (store, t)->kind == PS_TRACK_THREAD)
      g_array_append_val (tracks, t);

  found = g_new0 (ThreadsFound, 1);
  found->tracks = tracks;
  if (!ps_event_store_get_time_range (store, &found->begin, &found->end))
    found->begin = found->end = 0;
  g_task_return_pointer (task, found, threads_found_free);
}

static char *
thread_label (PsEventStore *store,
              guint32       track_index)
{
  const PsTrack *track = ps_event_store_get_track (store, track_index);
  const char *name = ps_event_store_get_string (store, track->name);
  g_autofree char *number = g_strdup_printf ("%lld", (long long) track->number);
  g_autofree char *label = NULL;

  /* Translators: a thread with the id the log gives it */
  label = g_strdup_printf (_("Thread %s"), number);
  if (name != NULL && *name != '\0' && !g_str_equal (name, number))
    {
      g_autofree char *display = ps_util_display_text (name, -1);
      g_autofree char *named = NULL;

      /* Translators: a thread and its name, "Thread 12 (worker)" */
      named = g_strdup_printf (_("%s (%s)"), label, display);
      g_free (label);
      label = g_steal_pointer (&named);
    }

  if (ps_event_store_get_n_sessions (store) > 1)
    /* Translators: a thread of one of the runs appended to one log */
    return g_strdup_printf (_("%s (session %u)"), label, track->session + 1);
  return g_steal_pointer (&label);
}

static void
threads_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(PsCallTreeView) self = user_data;
  ThreadsFound *found;
  g_autoptr(GArray) tracks = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  found = g_task_propagate_pointer (G_TASK (result), &error);
  if (found == NULL || g_task_get_cancellable (G_TASK (result)) != self->threads_cancellable)
    {
      g_clear_pointer (&found, threads_found_free);
      return;
    }
  g_clear_object (&self->threads_cancellable);
  tracks = g_array_ref (found->tracks);
  self->time_begin = found->begin;
  self->time_end = found->end;
  threads_found_free (found);

  /* One thread is all threads */
  if (tracks->len < 2)
    return;

  g_ptr_array_add (names, g_strdup (_("All threads")));
  for (guint i = 0; i < tracks->len; i++)
    g_ptr_array_add (names, thread_label (self->store, g_array_index (tracks, guint32, i)));
  g_ptr_array_add (names, NULL);

  g_clear_pointer (&self->thread_tracks, g_array_unref);
  self->thread_tracks = g_steal_pointer (&tracks);
  self->syncing = TRUE;
  gtk_string_list_splice (self->thread_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->thread_names)),
                          (const char * const *)names->pdata);
  gtk_drop_down_set_selected (self->thread_dropdown, 0);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->thread_box, TRUE);
  update_busy (self);
  update_notice (self);
}

static void
list_threads (PsCallTreeView *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->threads_cancellable);
  g_clear_object (&self->threads_cancellable);
  g_clear_pointer (&self->thread_tracks, g_array_unref);
  self->time_begin = self->time_end = 0;

  self->syncing = TRUE;
  gtk_string_list_splice (self->thread_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->thread_names)), NULL);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->thread_box, FALSE);

  if (self->store == NULL || ps_event_store_get_n_spans (self->store) == 0)
    return;

  self->threads_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->threads_cancellable, threads_cb, g_object_ref (self));
  g_task_set_source_tag (task, list_threads);
  g_task_set_task_data (task, g_object_ref (self->store), g_object_unref);
  g_task_run_in_thread (task, threads_thread);
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
  rebuild (self);
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
      g_value_set_uint (value, selected_track (self));
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
  update_format (self);
  /* The default of the Preferences; the dropdown and flame graph follow */
  update_basis_tooltip (self);
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
  update_columns (self, self->columns, TRUE);
  update_columns (self, self->callers_columns, FALSE);
  update_columns (self, self->callees_columns, FALSE);

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
  update_toolbar (self);
  update_notice (self);
  update_busy (self);
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

  show_tree (self, tree);
  update_notice (self);
  update_busy (self);
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

  list_threads (self);
  update_notice (self);
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
      sync_mode_buttons (self);
      return;
    }

  self->mode = wanted;
  sync_mode_buttons (self);
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
  update_basis_tooltip (self);
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
  sync_mode_buttons (self);
  show_rows (self);
  update_busy (self);
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

  return selected_track (self);
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
  rebuild (self);
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
  rebuild (self);
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

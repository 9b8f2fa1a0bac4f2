/* ps-call-tree-view-cells.c — the cells of the call-tree page's tables
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §3 (the four values, calls, per-call
 * minimum, average and maximum) and §4 (percentages). Every value column
 * names its unit in the header; numbers are right-aligned in tabular
 * figures with a fixed number of decimals, so that a column lines up, and
 * the per-call statistics are in the tooltips.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-call-tree-view-private.h"
#include "ps-table-export.h"
#include "ps-util.h"
#include "ps-view-util.h"

typedef struct
{
  PsCallTreeView *view;      /* not referenced: it outlives its columns */
  CallColumn      column;
  gboolean        in_tree;
} CellData;

static const char * const value_titles[PS_N_CALL_VALUES] = {
  /* Translators: a column header, followed by its unit: "Elapsed incl. (ms)" */
  N_("Elapsed incl."),
  N_("Elapsed excl."),
  N_("Application incl."),
  N_("Application excl."),
};

/* Sampled sources: how many samples had the function on the stack, and at
 * the top (vs-instrumentation.md §6.5, "Inclusive Samples") */
static const char * const sample_titles[2] = {
  N_("Inclusive"),
  N_("Exclusive"),
};

static const char * const sample_names[2] = {
  N_("Inclusive samples"),
  N_("Exclusive samples"),
};

/* A sample counts once per function on its stack in the inclusive
 * column, once in all in the exclusive one: say which adds up to what */
static const char * const sample_meanings[2] = {
  N_("The samples taken while the function was on the stack; a sample counts for every function on its stack, so the column adds up to more than the samples"),
  N_("The samples taken while the function ran its own code; each sample counts for one function, so the column adds up to the samples"),
};

static const char * const value_names[PS_N_CALL_VALUES] = {
  N_("Elapsed inclusive"),
  N_("Elapsed exclusive"),
  N_("Application inclusive"),
  N_("Application exclusive"),
};

/* vs-instrumentation.md §3, in a sentence each */
static const char * const value_meanings[PS_N_CALL_VALUES] = {
  N_("All the time the function was on the stack: its own code, its callees and what the operating system did meanwhile"),
  N_("The time the function ran its own code, operating-system activity included, callees excluded"),
  N_("Like elapsed inclusive, without the intervals in which the operating system did something"),
  N_("Like elapsed exclusive, without the intervals in which the operating system did something"),
};

/* "Elapsed inclusive", or "Inclusive samples" for sampled sources */
static const char *
value_name (const PsCallFormat *format,
            PsCallValue         value)
{
  if (format->samples && value < G_N_ELEMENTS (sample_names))
    return _(sample_names[value]);
  return _(value_names[value]);
}

static gboolean
is_value_column (CallColumn column)
{
  return column >= CALL_COLUMN_FIRST_VALUE && (column - CALL_COLUMN_FIRST_VALUE) % 2 == 0;
}

static PsCallValue
value_of_column (CallColumn column)
{
  return (column - CALL_COLUMN_FIRST_VALUE) / 2;
}

/* Formatting */

char *
_ps_call_tree_view_format_value (const PsCallFormat *format,
                                 double              value)
{
  if (!isfinite (value))
    return g_strdup ("–");
  return ps_view_format_fixed (value * format->scale, format->decimals);
}

/* With its unit and without trailing zeros, for tooltips: "18.333 ms" */
static char *
format_value_with_unit (const PsCallFormat *format,
                        double              value)
{
  g_autofree char *number = NULL;

  if (!isfinite (value))
    return g_strdup ("–");

  number = ps_view_format_fixed (value * format->scale, 3);
  {
    char *end = number + strlen (number);

    while (end > number && end[-1] == '0')
      *--end = '\0';
    if (end > number && !g_ascii_isdigit (end[-1]))
      *--end = '\0';
  }
  /* Translators: a value and its unit, "18.333 ms", "444315 ticks" */
  return g_strdup_printf (_("%s %s"), number, format->unit);
}

static char *
format_percent (double percent)
{
  if (!isfinite (percent))
    return g_strdup ("–");
  return g_strdup_printf ("%.2f", percent);
}

char *
_ps_call_tree_view_column_title (const PsCallFormat *format,
                                 CallColumn          column)
{
  switch (column)
    {
    case CALL_COLUMN_FUNCTION:
      return g_strdup (_("Function"));
    case CALL_COLUMN_MODULE:
      /* Translators: the library or executable of a function */
      return g_strdup (_("Module"));
    case CALL_COLUMN_CALLS:
      return g_strdup (_("Calls"));
    case N_CALL_COLUMNS:
      g_assert_not_reached ();
      return NULL;
    default:
      if (is_value_column (column))
        {
          PsCallValue value = value_of_column (column);
          const char *title = format->samples && value < G_N_ELEMENTS (sample_titles)
                              ? sample_titles[value] : value_titles[value];

          /* Translators: a column header with its unit on a second line, "Elapsed incl.\n(ms)" */
          return g_strdup_printf (_("%s\n(%s)"), _(title), format->unit);
        }
      /* Translators: the header of a percentage column, right of its value's */
      return g_strdup (C_("column", "%"));
    }
}

static char *
per_call_text (const PsCallFormat *format,
               const PsCallStats  *stats,
               PsCallValue         value)
{
  g_autofree char *min = format_value_with_unit (format, stats->min[value]);
  g_autofree char *avg = format_value_with_unit (format, stats->avg[value]);
  g_autofree char *max = format_value_with_unit (format, stats->max[value]);

  /* Translators: the per-call statistics of a value */
  return g_strdup_printf (_("Per call: min %s · avg %s · max %s"), min, avg, max);
}

static char *
value_tooltip (PsCallTreeView    *view,
               PsCallNodeRow     *row,
               const PsCallStats *stats,
               PsCallValue        value)
{
  const PsCallFormat *format = _ps_call_tree_view_get_format (view);
  PsCallTree *tree = ps_call_node_row_get_tree (row);
  g_autofree char *total = format_value_with_unit (format, stats->total[value]);
  g_autofree char *per_call = per_call_text (format, stats, value);
  gboolean sampled = format->samples && value < G_N_ELEMENTS (sample_names);
  GString *text = g_string_new (NULL);

  /* Translators: "Elapsed inclusive: 2007 ms" */
  g_string_append_printf (text, _("%s: %s"), value_name (format, value), total);
  g_string_append_c (text, '\n');
  if (stats->calls > 0)
    {
      g_autofree char *calls = ps_view_format_count (stats->calls);

      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s call", "%s calls", stats->calls), calls);
      g_string_append (text, " · ");
    }
  if (stats->calls > 0
      || (ps_call_tree_is_report (tree)
          && (isfinite (stats->min[value]) || isfinite (stats->avg[value]) || isfinite (stats->max[value]))))
    {
      g_string_append (text, per_call);
      g_string_append_c (text, '\n');
    }
  g_string_append (text, _(sampled ? sample_meanings[value] : value_meanings[value]));

  return g_string_free (text, FALSE);
}

static char *
percent_tooltip (PsCallTreeView    *view,
                 PsCallNodeRow     *row,
                 const PsCallStats *stats,
                 PsCallValue        value)
{
  const PsCallFormat *format = _ps_call_tree_view_get_format (view);
  PsCallTree *tree = ps_call_node_row_get_tree (row);
  PsCallBasis basis = _ps_call_tree_view_get_basis (view);
  double percent = ps_call_tree_get_percent (tree, stats, value, basis);
  g_autofree char *number = format_percent (percent);
  gboolean over_application;
  g_autofree char *total = NULL;

  if (ps_call_tree_is_report (tree) && isfinite (stats->given_percent[value]))
    /* Translators: a percentage of a profiler report, "41.72 % of Elapsed inclusive, as the report gives it" */
    return g_strdup_printf (_("%s %% of %s, as the report gives it"), number, value_name (format, value));

  over_application = basis == PS_CALL_BASIS_S1
                     && (value == PS_CALL_VALUE_APPLICATION_INCLUSIVE || value == PS_CALL_VALUE_APPLICATION_EXCLUSIVE);
  if (over_application)
    {
      total = format_value_with_unit (format, ps_call_tree_get_application_total (tree));
      /* Translators: "47.37 % of the application total (95 ms)" */
      return g_strdup_printf (_("%s %% of the application total (%s): the time without operating-system events"),
                              number, total);
    }

  total = format_value_with_unit (format, ps_call_tree_get_elapsed_total (tree));
  /* Translators: "53.57 % of the elapsed total (140 ms)" */
  return g_strdup_printf (_("%s %% of the elapsed total (%s)"), number, total);
}

static char *
function_tooltip (PsCallNodeRow *row)
{
  const char *module = ps_call_node_row_get_module (row);
  GString *text = g_string_new (ps_call_node_row_get_name (row));

  if (*module != '\0')
    {
      g_autofree char *display = ps_util_display_text (module, -1);

      g_string_append_c (text, '\n');
      /* Translators: the module (library or executable) of a function */
      g_string_append_printf (text, _("Module: %s"), display);
    }
  if (ps_call_node_row_get_n_addresses (row) > 0)
    {
      g_autofree char *count = ps_view_format_count (ps_call_node_row_get_n_addresses (row));

      g_string_append_c (text, '\n');
      /* Translators: %s is a number of code addresses */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                                 "The module’s code without function names: %s address in the run, listed below the module in Functions; a symbol folder names them",
                                                 "The module’s code without function names: %s addresses in the run, listed below the module in Functions; a symbol folder names them",
                                                 ps_call_node_row_get_n_addresses (row)),
                              count);
    }
  else if (ps_call_node_row_get_kind (row) == PS_CALL_NODE_ROW_ADDRESS)
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("An address without a function name: the samples whose stack had it"));
    }
  if (ps_call_node_row_get_kind (row) == PS_CALL_NODE_ROW_CALLER && ps_call_node_row_get_function (row) == PS_NONE)
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("Calls from the top of a stack: the function is an entry point"));
    }

  return g_string_free (text, FALSE);
}

char *
_ps_call_tree_view_cell_text (PsCallTreeView  *view,
                              PsCallNodeRow   *row,
                              CallColumn       column,
                              char           **tooltip)
{
  const PsCallStats *stats = ps_call_node_row_get_stats (row);
  PsCallTree *tree = ps_call_node_row_get_tree (row);

  switch (column)
    {
    case CALL_COLUMN_FUNCTION:
      if (tooltip != NULL)
        *tooltip = function_tooltip (row);
      return g_strdup (ps_call_node_row_get_name (row));

    case CALL_COLUMN_MODULE:
      if (tooltip != NULL && *ps_call_node_row_get_module (row) != '\0')
        *tooltip = ps_util_display_text (ps_call_node_row_get_module (row), -1);
      return ps_util_display_text (ps_call_node_row_get_module (row), -1);

    case CALL_COLUMN_CALLS:
      if (tooltip != NULL)
        *tooltip = g_strdup (_("How many times the function was entered"));
      return g_strdup_printf ("%" PRIu64, stats->calls);

    case N_CALL_COLUMNS:
      g_assert_not_reached ();
      return NULL;

    default:
      {
        PsCallValue value = value_of_column (column);

        if (is_value_column (column))
          {
            if (tooltip != NULL)
              *tooltip = value_tooltip (view, row, stats, value);
            return _ps_call_tree_view_format_value (_ps_call_tree_view_get_format (view), stats->total[value]);
          }

        if (tooltip != NULL)
          *tooltip = percent_tooltip (view, row, stats, value);
        return format_percent (ps_call_tree_get_percent (tree, stats, value, _ps_call_tree_view_get_basis (view)));
      }
    }
}

/* Tooltips, made when asked for */

static PsCallNodeRow *
row_of_item (gpointer item)
{
  if (GTK_IS_TREE_LIST_ROW (item))
    return gtk_tree_list_row_get_item (item);
  return item != NULL ? g_object_ref (item) : NULL;
}

static char *
cell_tooltip (gpointer item,
              guint    column,
              gpointer user_data)
{
  CellData *cell = user_data;
  g_autoptr(PsCallNodeRow) row = row_of_item (item);
  g_autofree char *text = NULL;
  char *tooltip = NULL;

  if (row == NULL)
    return NULL;
  text = _ps_call_tree_view_cell_text (cell->view, row, cell->column, &tooltip);
  return tooltip;
}

/* Factories */

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            CellData                 *cell)
{
  GtkWidget *tooltip_widget;

  if (cell->column == CALL_COLUMN_FUNCTION)
    {
      GtkWidget *name = ps_view_cell_label_new (FALSE);

      /* Long names give way to the other columns down to a readable
       * width (then the table scrolls); the tooltip has them whole. The
       * end of a C++ name says most, so the middle goes. */
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_width_chars (GTK_LABEL (name), cell->in_tree ? 28 : 12);
      gtk_widget_add_css_class (name, "function-name");

      if (cell->in_tree)
        {
          GtkWidget *expander = gtk_tree_expander_new ();

          gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), name);
          gtk_list_item_set_child (list_item, expander);
        }
      else
        gtk_list_item_set_child (list_item, name);
      tooltip_widget = name;
    }
  else if (cell->column == CALL_COLUMN_MODULE)
    {
      tooltip_widget = ps_view_cell_label_new (FALSE);
      gtk_label_set_ellipsize (GTK_LABEL (tooltip_widget), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (tooltip_widget, "dim-label");
      gtk_list_item_set_child (list_item, tooltip_widget);
    }
  else
    {
      tooltip_widget = ps_view_cell_label_new (TRUE);
      gtk_list_item_set_child (list_item, tooltip_widget);
    }

  ps_view_cell_set_tooltip (tooltip_widget, list_item, cell->column, cell_tooltip, cell);
}

static void
bind_function_cell (CellData      *cell,
                    GtkWidget     *name,
                    PsCallNodeRow *row)
{
  PangoAttrList *attributes = NULL;

  gtk_label_set_text (GTK_LABEL (name), ps_call_node_row_get_name (row));
  if (cell->in_tree)
    attributes = ps_view_search_attributes (_ps_call_tree_view_get_applied_search (cell->view),
                                    ps_call_node_row_get_name (row));
  gtk_label_set_attributes (GTK_LABEL (name), attributes);
  g_clear_pointer (&attributes, pango_attr_list_unref);

  if (ps_call_node_row_get_function (row) == PS_NONE)
    gtk_widget_add_css_class (name, "entry-point");
  else
    gtk_widget_remove_css_class (name, "entry-point");
}

static void
update_number_cell (CellData    *cell,
                    GtkListItem *list_item)
{
  g_autoptr(PsCallNodeRow) row = row_of_item (gtk_list_item_get_item (list_item));
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  if (row == NULL)
    return;
  text = _ps_call_tree_view_cell_text (cell->view, row, cell->column, NULL);
  gtk_label_set_text (GTK_LABEL (label), text);
}

static void
basis_changed_cb (GtkListItem *list_item,
                  GParamSpec  *pspec,
                  GObject     *view)
{
  CellData *cell = g_object_get_data (G_OBJECT (list_item), "ps-call-cell");

  if (cell != NULL)
    update_number_cell (cell, list_item);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           CellData                 *cell)
{
  gpointer item = gtk_list_item_get_item (list_item);
  g_autoptr(PsCallNodeRow) row = row_of_item (item);
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (cell->column == CALL_COLUMN_FUNCTION)
    {
      if (cell->in_tree)
        {
          gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), item);
          child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
        }
      bind_function_cell (cell, child, row);
      return;
    }

  update_number_cell (cell, list_item);

  /* A percentage follows the basis while it is shown */
  if (cell->column >= CALL_COLUMN_FIRST_VALUE && !is_value_column (cell->column))
    {
      gulong handler = g_signal_connect_object (cell->view, "notify::basis", G_CALLBACK (basis_changed_cb),
                                                list_item, G_CONNECT_SWAPPED);

      g_object_set_data (G_OBJECT (list_item), "ps-call-cell", cell);
      g_object_set_data (G_OBJECT (list_item), "ps-call-basis-handler", GSIZE_TO_POINTER (handler));
    }
}

static void
cell_unbind (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             CellData                 *cell)
{
  gulong handler = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (list_item), "ps-call-basis-handler"));

  if (handler != 0)
    {
      g_signal_handler_disconnect (cell->view, handler);
      g_object_set_data (G_OBJECT (list_item), "ps-call-basis-handler", NULL);
    }
  if (cell->column == CALL_COLUMN_FUNCTION && cell->in_tree)
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

/* Sorting: a value the report did not give sorts below every number */

static int
compare_doubles (double a,
                 double b)
{
  gboolean a_known = isfinite (a);
  gboolean b_known = isfinite (b);

  if (!a_known || !b_known)
    return a_known - b_known;
  return (a > b) - (a < b);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  CallColumn column = GPOINTER_TO_UINT (user_data);
  PsCallNodeRow *row_a = PS_CALL_NODE_ROW ((gpointer)a);
  PsCallNodeRow *row_b = PS_CALL_NODE_ROW ((gpointer)b);
  const PsCallStats *stats_a = ps_call_node_row_get_stats (row_a);
  const PsCallStats *stats_b = ps_call_node_row_get_stats (row_b);
  int result;

  switch (column)
    {
    case CALL_COLUMN_FUNCTION:
      result = g_utf8_collate (ps_call_node_row_get_name (row_a), ps_call_node_row_get_name (row_b));
      break;
    case CALL_COLUMN_MODULE:
      result = g_strcmp0 (ps_call_node_row_get_module (row_a), ps_call_node_row_get_module (row_b));
      break;
    case CALL_COLUMN_CALLS:
      result = (stats_a->calls > stats_b->calls) - (stats_a->calls < stats_b->calls);
      break;
    case N_CALL_COLUMNS:
      g_assert_not_reached ();
      return 0;
    default:
      {
        PsCallValue value = value_of_column (column);

        if (is_value_column (column))
          result = compare_doubles (stats_a->total[value], stats_b->total[value]);
        else
          /* Every basis divides a column by one total, so one order fits all */
          result = compare_doubles (ps_call_tree_get_percent (ps_call_node_row_get_tree (row_a), stats_a,
                                                              value, PS_CALL_BASIS_S1),
                                    ps_call_tree_get_percent (ps_call_node_row_get_tree (row_b), stats_b,
                                                              value, PS_CALL_BASIS_S1));
      }
      break;
    }

  return result < 0 ? GTK_ORDERING_SMALLER : result > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* The export's value of a cell: values in the unit of the headers,
 * percentages of the basis chosen */
static void
cell_export_value (GObject  *item,
                   GValue   *value,
                   gpointer  user_data)
{
  CellData *cell = user_data;
  PsCallNodeRow *row = PS_CALL_NODE_ROW (item);
  const PsCallStats *stats = ps_call_node_row_get_stats (row);
  double number;

  switch (cell->column)
    {
    case CALL_COLUMN_FUNCTION:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_call_node_row_get_name (row));
      return;
    case CALL_COLUMN_MODULE:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_call_node_row_get_module (row));
      return;
    case CALL_COLUMN_CALLS:
      g_value_init (value, G_TYPE_UINT64);
      g_value_set_uint64 (value, stats->calls);
      return;
    case N_CALL_COLUMNS:
      return;
    default:
      if (is_value_column (cell->column))
        number = stats->total[value_of_column (cell->column)] * _ps_call_tree_view_get_format (cell->view)->scale;
      else
        number = ps_call_tree_get_percent (ps_call_node_row_get_tree (row), stats, value_of_column (cell->column),
                                           _ps_call_tree_view_get_basis (cell->view));
      if (isfinite (number))
        {
          g_value_init (value, G_TYPE_DOUBLE);
          g_value_set_double (value, number);
        }
      return;
    }
}

/* The export's header of a column: "Elapsed inclusive (ms)", "Elapsed
 * inclusive (%)" */
void
_ps_call_tree_view_update_export_header (const PsCallFormat  *format,
                                         const char          *unit,
                                         GtkColumnViewColumn *view_column,
                                         CallColumn           column)
{
  if (column < CALL_COLUMN_FIRST_VALUE || column >= N_CALL_COLUMNS)
    return;
  ps_table_export_set_column_header (view_column, value_name (format, value_of_column (column)),
                                     is_value_column (column) ? unit : "%");
}

GtkColumnViewColumn *
_ps_call_tree_view_column_new (PsCallTreeView *view,
                               CallColumn      column,
                               gboolean        in_tree)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = NULL;
  GtkColumnViewColumn *view_column;
  CellData *cell;

  g_return_val_if_fail (column < N_CALL_COLUMNS, NULL);

  cell = g_new0 (CellData, 1);
  cell->view = view;
  cell->column = column;
  cell->in_tree = in_tree;
  /* The factory lives as long as its column: it frees the data */
  g_object_set_data_full (G_OBJECT (factory), "ps-call-cell-data", cell, g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), cell);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), cell);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), cell);

  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (column), NULL));
  view_column = gtk_column_view_column_new (NULL, factory);
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, column == CALL_COLUMN_FUNCTION);
  ps_table_export_set_column (view_column, NULL, NULL, cell_export_value, cell, NULL);

  return view_column;
}

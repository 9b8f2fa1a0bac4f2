/* ps-ce-view-cells.c — the CE view's marker table: its cells, their
 * tooltips and sorting, its exported values and its columns
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.4 (marker descriptions), §4.5 (derived values)
 * and §5 (what a report shows).
 *
 * Apart from the widget (ps-ce-view.c) because a cell reads only its
 * marker row and its column's ColumnInfo: the columns are made once per
 * description key, and their cells, sorters and export values follow
 * from the column and the row alone.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-ce-view-internal.h"
#include "ps-marker-children.h"
#include "ps-table-export.h"
#include "ps-util.h"
#include "ps-view-util.h"

/* Marker table cells */

static gboolean
is_numeric_column (MarkerColumn column)
{
  return column >= MARKER_COLUMN_ID;
}

static gboolean
is_duration_column (MarkerColumn column)
{
  return column >= MARKER_COLUMN_MIN && column <= MARKER_COLUMN_TOTAL;
}

/* The value of a duration column (is_duration_column()) */
double
ps_ce_view_marker_duration (PsMarkerRow  *row,
                            MarkerColumn  column)
{
  switch (column)
    {
    case MARKER_COLUMN_MIN:
      return ps_marker_row_get_min (row);
    case MARKER_COLUMN_MAX:
      return ps_marker_row_get_max (row);
    case MARKER_COLUMN_MEAN:
      return ps_marker_row_get_mean (row);
    case MARKER_COLUMN_MEDIAN:
      return ps_marker_row_get_median (row);
    case MARKER_COLUMN_P95:
      return ps_marker_row_get_p95 (row);
    case MARKER_COLUMN_STDDEV:
      return ps_marker_row_get_stddev (row);
    case MARKER_COLUMN_TOTAL:
    default:
      return ps_marker_row_get_total (row);
    }
}

static void
column_info_free (gpointer  data,
                  GClosure *closure)
{
  ColumnInfo *info = data;

  g_free (info->key);
  g_free (info->unit);
  g_free (info);
}

static char *marker_cell_tooltip (gpointer item,
                                  guint    column,
                                  gpointer user_data);

static void
marker_cell_setup (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   ColumnInfo               *info)
{
  GtkWidget *label = gtk_label_new (NULL);

  if (is_numeric_column (info->column))
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
    }
  else
    gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  ps_view_cell_set_tooltip (label, list_item, info->column, marker_cell_tooltip, info);

  if (info->column == MARKER_COLUMN_DESCRIPTION)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      /* Descriptions can be long: a fair minimum, the rest in the tooltip */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 18);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

/* The exact value behind a rounded one, for a tooltip */
char *
ps_ce_view_format_exact (PsViewQuantity unit,
                         double         value)
{
  g_autofree char *number = ps_util_format_double (value);

  switch (unit)
    {
    case PS_VIEW_QUANTITY_SECONDS:
      /* Translators: an exact duration in seconds, in a tooltip */
      return g_strdup_printf (_("%s s"), number);
    case PS_VIEW_QUANTITY_TICKS:
      /* Translators: an exact number of timer ticks, in a tooltip */
      return g_strdup_printf (_("%s ticks"), number);
    case PS_VIEW_QUANTITY_BYTES:
      /* Translators: an exact number of bytes, in a tooltip */
      return g_strdup_printf (_("%s bytes"), number);
    case PS_VIEW_QUANTITY_PERCENT:
      /* Translators: an exact percentage, in a tooltip */
      return g_strdup_printf (_("%s %%"), number);
    case PS_VIEW_QUANTITY_NONE:
    default:
      return g_steal_pointer (&number);
    }
}

/* Durations are in seconds, or in ticks without a tick rate */
static PsViewQuantity
duration_unit (PsMarkerRow *row)
{
  return ps_marker_row_has_seconds (row) ? PS_VIEW_QUANTITY_SECONDS : PS_VIEW_QUANTITY_TICKS;
}

static char *
description_tooltip (PsMarkerRow *row)
{
  const PsSeries *series = ps_marker_row_get_series (row);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, _("Expanded: %s"), ps_marker_row_get_expanded_name (row));
  g_string_append_c (text, '\n');
  if (series->n_instances > 1)
    g_string_append_printf (text,
                            g_dngettext (GETTEXT_PACKAGE,
                                         "%u registration of the same description",
                                         "%u registrations of the same description",
                                         series->n_instances),
                            series->n_instances);
  else
    g_string_append_printf (text, _("Registered on line %llu"), (unsigned long long) series->first_line);
  if (series->n_excluded > 0)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text,
                              g_dngettext (GETTEXT_PACKAGE,
                                           "%llu negative duration left out of the statistics",
                                           "%llu negative durations left out of the statistics",
                                           series->n_excluded),
                              (unsigned long long) series->n_excluded);
    }

  return g_string_free (text, FALSE);
}

/* The number of a description value of kind: a statistic of the
 * durations in seconds, or a quotient over one; FALSE when the row's
 * value is of another kind or not a number */
gboolean
ps_ce_view_description_number (PsMarkerRow   *row,
                               const char    *key,
                               PsCeValueKind  kind,
                               double        *number)
{
  g_autoptr(GArray) items = ps_ce_description_parse (ps_marker_row_get_series (row)->name);
  const char *value = ps_marker_row_get_description_value (row, key);
  char *end = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      const PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, i);

      if (g_strcmp0 (item->key, key) != 0)
        continue;
      if (ps_ce_description_value_kind (item->value, NULL) != kind || value == NULL)
        return FALSE;
      *number = g_ascii_strtod (value, &end);
      return end != value && *end == '\0' && isfinite (*number);
    }
  return FALSE;
}

/* The number a description key's cell shows, when its value is one */
static gboolean
key_number (PsMarkerRow      *row,
            const ColumnInfo *info,
            double           *number)
{
  return info->value_kind != PS_CE_VALUE_TEXT
         && ps_marker_row_get_description_value (row, info->key) != NULL
         && ps_ce_view_description_number (row, info->key, info->value_kind, number);
}

static void
marker_cell_bind (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  ColumnInfo               *info)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  g_autoptr(PsMarkerRow) row = gtk_tree_list_row_get_item (tree_row);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  const PsSeries *series = ps_marker_row_get_series (row);
  g_autofree char *text = NULL;
  GtkWidget *label = child;
  double duration = 0;

  switch (info->column)
    {
    case MARKER_COLUMN_DESCRIPTION:
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), tree_row);
      label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
      /* Under its marker's row, which has the description, an instance
       * says which it is: hundreds of rows of one text told nothing */
      if (gtk_tree_list_row_get_depth (tree_row) > 0)
        {
          g_autofree char *ordinal = ps_view_format_count (series->instance);

          /* Translators: the row of one registration of a marker, under
           * the marker's row; %s is its ordinal, "Instance 2" */
          text = g_strdup_printf (_("Instance %s"), ordinal);
        }
      else if (ps_marker_row_get_name (row)[0] != '\0')
        text = g_strdup (ps_marker_row_get_name (row));
      else
        text = g_strdup (_("(no description)"));
      break;

    case MARKER_COLUMN_KEY:
      {
        const char *value = ps_marker_row_get_description_value (row, info->key);
        double number;

        if (key_number (row, info, &number))
          {
            text = ps_view_format_number (number / info->scale);
            gtk_label_set_xalign (GTK_LABEL (label), 1.0);
            gtk_widget_add_css_class (label, "numeric");
          }
        else if (value != NULL && ps_ce_description_value_kind (value, NULL) != PS_CE_VALUE_TEXT)
          {
            /* A statistic of no measurements (none in the range chosen
             * on the timeline) is left as the log wrote it, "%AVG%":
             * it has no value */
            text = g_strdup ("–");
            gtk_label_set_xalign (GTK_LABEL (label), 1.0);
            gtk_widget_add_css_class (label, "numeric");
          }
        else
          {
            /* Raw bytes of the log: Latin-1 when not UTF-8 (ce-perflog.md §7 #28) */
            text = value != NULL ? ps_util_display_text (value, -1) : NULL;
            gtk_label_set_xalign (GTK_LABEL (label), 0.0);
            gtk_widget_remove_css_class (label, "numeric");
          }
      }
      break;

    case MARKER_COLUMN_APP:
      text = ps_util_display_text (ps_marker_row_get_app (row), -1);
      break;

    case MARKER_COLUMN_ID:
      text = g_strdup_printf ("%" PRId64, series->id);
      break;

    case MARKER_COLUMN_INSTANCE:
      if (ps_marker_row_is_group (row) && series->n_instances > 1)
        {
          g_autofree char *count = ps_view_format_count (series->n_instances);

          text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s instance", "%s instances", series->n_instances),
                                  count);
        }
      else
        /* Translators: the registration ordinal of a marker, e.g. "#2" */
        text = g_strdup_printf (_("#%u"), series->instance);
      break;

    case MARKER_COLUMN_COUNT:
      text = ps_view_format_count (ps_marker_row_get_count (row));
      break;

    case MARKER_COLUMN_MIN:
    case MARKER_COLUMN_MAX:
    case MARKER_COLUMN_MEAN:
    case MARKER_COLUMN_MEDIAN:
    case MARKER_COLUMN_P95:
    case MARKER_COLUMN_STDDEV:
    case MARKER_COLUMN_TOTAL:
      duration = ps_ce_view_marker_duration (row, info->column);
      break;

    case MARKER_COLUMN_MEAN_TICKS:
      text = ps_view_format_number_whole (ps_marker_row_get_mean_ticks (row));
      break;

    case MARKER_COLUMN_TOTAL_TICKS:
      text = ps_view_format_number_whole (ps_marker_row_get_total_ticks (row));
      break;

    default:
      g_assert_not_reached ();
    }

  if (is_duration_column (info->column))
    {
      /* In the column's unit, named in its title */
      if (ps_marker_row_get_count (row) > 0 && duration_unit (row) == PS_VIEW_QUANTITY_TICKS)
        text = ps_view_format_number_whole (duration);
      else if (ps_marker_row_get_count (row) > 0)
        text = ps_view_format_number (duration / info->scale);
      else
        text = g_strdup ("–");
    }

  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
}

/* A cell's tooltip, made when asked for (ps_view_cell_set_tooltip ()):
 * the exact value behind a rounded one, or what a description stands for */
static char *
marker_cell_tooltip (gpointer item,
                     guint    column,
                     gpointer user_data)
{
  const ColumnInfo *info = user_data;
  g_autoptr(PsMarkerRow) row = gtk_tree_list_row_get_item (item);
  double number;

  if (info->column == MARKER_COLUMN_DESCRIPTION)
    return description_tooltip (row);
  if (is_duration_column (info->column))
    return ps_ce_view_format_exact (duration_unit (row), ps_ce_view_marker_duration (row, info->column));
  if (info->column == MARKER_COLUMN_KEY && key_number (row, info, &number))
    {
      g_autofree char *exact = ps_util_format_double (number);

      /* Translators: the exact value of a cell and its unit, "0.0051953 s" */
      return g_strdup_printf (C_("value with unit", "%s %s"), exact,
                              info->value_kind == PS_CE_VALUE_SECONDS ? "s" : info->unit);
    }
  return NULL;
}

static void
marker_cell_unbind (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    ColumnInfo               *info)
{
  if (info->column == MARKER_COLUMN_DESCRIPTION)
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

static int
compare_description_values (gconstpointer a,
                            gconstpointer b,
                            gpointer      user_data)
{
  const char *key = user_data;
  const char *value_a = ps_marker_row_get_description_value ((PsMarkerRow *)a, key);
  const char *value_b = ps_marker_row_get_description_value ((PsMarkerRow *)b, key);
  char *end_a, *end_b;
  double number_a, number_b;

  value_a = value_a != NULL ? value_a : "";
  value_b = value_b != NULL ? value_b : "";

  /* Numbers ("Bytes=4096", "time=0.010200") sort as numbers */
  number_a = g_ascii_strtod (value_a, &end_a);
  number_b = g_ascii_strtod (value_b, &end_b);
  if (*value_a != '\0' && *end_a == '\0' && *value_b != '\0' && *end_b == '\0')
    return (number_a > number_b) - (number_a < number_b);

  return g_utf8_collate (value_a, value_b);
}

static GtkSorter *
make_sorter (MarkerColumn  column,
             const char   *key)
{
  static const char *property_names[] = {
    [MARKER_COLUMN_DESCRIPTION] = "name",
    [MARKER_COLUMN_APP] = "app",
    [MARKER_COLUMN_ID] = "id",
    [MARKER_COLUMN_INSTANCE] = "instance",
    [MARKER_COLUMN_COUNT] = "count",
    [MARKER_COLUMN_MIN] = "min",
    [MARKER_COLUMN_MAX] = "max",
    [MARKER_COLUMN_MEAN] = "mean",
    [MARKER_COLUMN_MEDIAN] = "median",
    [MARKER_COLUMN_P95] = "p95",
    [MARKER_COLUMN_STDDEV] = "stddev",
    [MARKER_COLUMN_TOTAL] = "total",
    [MARKER_COLUMN_MEAN_TICKS] = "mean-ticks",
    [MARKER_COLUMN_TOTAL_TICKS] = "total-ticks",
  };
  GtkExpression *expression;

  if (column == MARKER_COLUMN_KEY)
    return GTK_SORTER (gtk_custom_sorter_new (compare_description_values, g_strdup (key), g_free));

  expression = gtk_property_expression_new (PS_TYPE_MARKER_ROW, NULL, property_names[column]);
  if (column == MARKER_COLUMN_DESCRIPTION || column == MARKER_COLUMN_APP)
    return GTK_SORTER (gtk_string_sorter_new (expression));
  return GTK_SORTER (gtk_numeric_sorter_new (expression));
}

/* The export's value of a cell: numbers in the column's unit (durations
 * in seconds, or in ticks without a tick rate), raw text */
static void
marker_export_value (GObject  *item,
                     GValue   *value,
                     gpointer  user_data)
{
  ColumnInfo *info = user_data;
  PsMarkerRow *row = PS_MARKER_ROW (item);
  const PsSeries *series = ps_marker_row_get_series (row);

  if (is_duration_column (info->column))
    {
      if (ps_marker_row_get_count (row) == 0)
        return;
      g_value_init (value, G_TYPE_DOUBLE);
      g_value_set_double (value, ps_ce_view_marker_duration (row, info->column));
      return;
    }

  switch (info->column)
    {
    case MARKER_COLUMN_DESCRIPTION:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_marker_row_get_name (row));
      break;

    case MARKER_COLUMN_KEY:
      {
        const PsCeValueKind kinds[] = { PS_CE_VALUE_SECONDS, PS_CE_VALUE_PER_SECOND };
        double number;

        /* A number in the column's unit (seconds, or per second) */
        for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
          if (ps_ce_view_description_number (row, info->key, kinds[k], &number))
            {
              g_value_init (value, G_TYPE_DOUBLE);
              g_value_set_double (value, number);
              return;
            }
        g_value_init (value, G_TYPE_STRING);
        g_value_set_string (value, ps_marker_row_get_description_value (row, info->key));
      }
      break;

    case MARKER_COLUMN_APP:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_marker_row_get_app (row));
      break;

    case MARKER_COLUMN_ID:
      g_value_init (value, G_TYPE_INT64);
      g_value_set_int64 (value, series->id);
      break;

    case MARKER_COLUMN_INSTANCE:
      /* A group of several registrations has no single ordinal */
      if (!(ps_marker_row_is_group (row) && series->n_instances > 1))
        {
          g_value_init (value, G_TYPE_UINT);
          g_value_set_uint (value, series->instance);
        }
      break;

    case MARKER_COLUMN_COUNT:
      g_value_init (value, G_TYPE_UINT64);
      g_value_set_uint64 (value, ps_marker_row_get_count (row));
      break;

    case MARKER_COLUMN_MEAN_TICKS:
      g_value_init (value, G_TYPE_DOUBLE);
      g_value_set_double (value, ps_marker_row_get_mean_ticks (row));
      break;

    case MARKER_COLUMN_TOTAL_TICKS:
      g_value_init (value, G_TYPE_DOUBLE);
      g_value_set_double (value, ps_marker_row_get_total_ticks (row));
      break;

    default:
      break;
    }
}

static void
export_info_free (gpointer data)
{
  column_info_free (data, NULL);
}

GtkColumnViewColumn *
ps_ce_view_make_marker_column (const char   *title,
                               MarkerColumn  column,
                               const char   *key)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  ColumnInfo *info = g_new0 (ColumnInfo, 1);
  GtkColumnViewColumn *view_column;
  g_autoptr(GtkSorter) sorter = make_sorter (column, key);

  info->column = column;
  info->key = g_strdup (key);
  info->scale = 1;

  g_signal_connect (factory, "setup", G_CALLBACK (marker_cell_setup), info);
  g_signal_connect (factory, "unbind", G_CALLBACK (marker_cell_unbind), info);
  g_signal_connect_data (factory, "bind", G_CALLBACK (marker_cell_bind), info,
                         column_info_free, 0);

  view_column = gtk_column_view_column_new (title, factory);
  /* The cells' unit changes with the rows; the title names it */
  g_object_set_data (G_OBJECT (view_column), CELL_INFO_KEY, info);
  g_object_set_data_full (G_OBJECT (view_column), "ps-base-title", g_strdup (title), g_free);
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, column == MARKER_COLUMN_DESCRIPTION);

  {
    ColumnInfo *export_info = g_new0 (ColumnInfo, 1);
    const char *export_name = NULL;
    const char *unit = NULL;

    export_info->column = column;
    export_info->key = g_strdup (key);
    if (column == MARKER_COLUMN_MEAN_TICKS)
      export_name = _("Mean"), unit = "ticks";
    else if (column == MARKER_COLUMN_TOTAL_TICKS)
      export_name = _("Total"), unit = "ticks";
    else if (is_duration_column (column) || column == MARKER_COLUMN_KEY)
      export_name = title, unit = is_duration_column (column) ? "s" : NULL;
    ps_table_export_set_column (view_column, export_name, unit,
                                marker_export_value, export_info, export_info_free);
    if (is_duration_column (column))
      g_object_set_data (G_OBJECT (view_column), "ps-duration-column", GINT_TO_POINTER (TRUE));
  }

  return view_column;
}

void
ps_ce_view_add_marker_columns (PsCeView *self)
{
  static const struct {
    const char   *title;
    MarkerColumn  column;
  } columns[] = {
    { N_("Description"), MARKER_COLUMN_DESCRIPTION },
    { N_("App"), MARKER_COLUMN_APP },
    { N_("Id"), MARKER_COLUMN_ID },
    { N_("Instance"), MARKER_COLUMN_INSTANCE },
    { N_("Count"), MARKER_COLUMN_COUNT },
    { N_("Min"), MARKER_COLUMN_MIN },
    { N_("Max"), MARKER_COLUMN_MAX },
    { N_("Mean"), MARKER_COLUMN_MEAN },
    { N_("Median"), MARKER_COLUMN_MEDIAN },
    /* Translators: the 95th percentile */
    { N_("P95"), MARKER_COLUMN_P95 },
    /* Translators: standard deviation */
    { N_("Std dev"), MARKER_COLUMN_STDDEV },
    { N_("Total"), MARKER_COLUMN_TOTAL },
    { N_("Mean (ticks)"), MARKER_COLUMN_MEAN_TICKS },
    { N_("Total (ticks)"), MARKER_COLUMN_TOTAL_TICKS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = ps_ce_view_make_marker_column (_(columns[i].title), columns[i].column, NULL);

      gtk_column_view_append_column (self->marker_view, column);
    }
}

GListModel *
ps_ce_view_create_marker_children (gpointer item,
                                   gpointer user_data)
{
  PsMarkerRow *row = item;
  const PsSeries *group = ps_marker_row_get_series (row);

  /* A group of one registration is the instance itself */
  if (!ps_marker_row_is_group (row) || group->n_instances < 2)
    return NULL;

  return G_LIST_MODEL (ps_marker_children_new (ps_marker_row_get_analysis (row), group));
}

/* ps-compare-page-table.c — the table of a comparison: its rows, their
 * cells, filters and columns
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the table shows of each row of the diff (PsCompareRow over a
 * PsRunDiffRow): the values and their text, the verdict, why it was
 * given and its tooltip, the cells with the row's menu, the sorting, the
 * filters and the search of the toolbar, and the columns. Apart from the
 * page (ps-compare-page.c) because none of it depends on how the diff is
 * computed or the runs are shown: the table takes the rows as they come.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ps-compare-export.h"
#include "ps-compare-page-private.h"
#include "ps-compare-row.h"
#include "ps-view-util.h"

/* The Why column's width: reasons are cut there, whole in the tooltip */
#define WHY_COLUMN_WIDTH 360
/* The Name column's least width: longer names are cut in the middle
 * where the table has no room left, whole in the tooltip */
#define NAME_COLUMN_WIDTH 300

/* value in unit by the window's one rule for digits (ps_view_format_number ()),
 * whole where it is whole: the engine's exports write "140.000 ms" for
 * the mean of a log's whole milliseconds, the window "140 ms". Times and
 * sizes in the unit a value of magnitude reference takes */
static char *
format_value_in_unit_of (double      value,
                         const char *unit,
                         gboolean    is_signed,
                         double      reference)
{
  PsViewQuantity quantity = PS_VIEW_QUANTITY_NONE;
  double to_stored = 1, scale = 1, magnitude, whole;
  const char *shown_unit;
  const char *sign = value < 0 ? "−" : is_signed && value > 0 ? "+" : "";
  g_autofree char *digits = NULL;
  g_autofree char *number = NULL;

  if (isnan (value))
    return g_strdup ("–");
  if (g_strcmp0 (unit, "s") == 0)
    quantity = PS_VIEW_QUANTITY_SECONDS;
  else if (g_strcmp0 (unit, "ns") == 0)
    quantity = PS_VIEW_QUANTITY_SECONDS, to_stored = 1e-9;
  else if (g_strcmp0 (unit, "bytes") == 0)
    quantity = PS_VIEW_QUANTITY_BYTES;

  if (quantity != PS_VIEW_QUANTITY_NONE)
    shown_unit = ps_view_quantity_unit (quantity, reference * to_stored, &scale);
  else
    shown_unit = ps_view_unit_name (unit);
  magnitude = fabs (value) * to_stored / scale;
  /* 0.14 s is 140.00000000000003 ms in doubles */
  whole = round (magnitude);
  if (fabs (magnitude - whole) <= 1e-9 * MAX (1.0, magnitude))
    magnitude = whole;
  digits = ps_view_format_number_whole (magnitude);
  number = g_strconcat (sign, digits, NULL);
  if (*shown_unit == '\0')
    return g_steal_pointer (&number);
  /* Translators: a number and its unit, "5.20 ms" */
  return g_strdup_printf (C_("value with unit", "%s %s"), number, shown_unit);
}

char *
ps_compare_page_format_value (double      value,
                              const char *unit,
                              gboolean    is_signed)
{
  return format_value_in_unit_of (value, unit, is_signed, value);
}

char *
ps_compare_page_format_delta (double      delta,
                              const char *unit,
                              double      mean)
{
  /* Two shares or percentages differ by percentage points: "57.68 %"
   * to "56.11 %" is −1.57 pp, a fall of 2.7 % */
  if (g_strcmp0 (unit, "percent") != 0 || !isfinite (delta))
    /* No change is "0 ms" beside means in ms, not "0 s" */
    return format_value_in_unit_of (delta, unit, TRUE, delta != 0 ? delta : mean);
  if (delta <= -0.005)
    /* Translators: a fall of a share in percentage points, with a minus sign */
    return g_strdup_printf (_("−%.2f pp"), -delta);
  /* Translators: a change of a share in percentage points */
  return g_strdup_printf (_("+%.2f pp"), fabs (delta) < 0.005 ? 0.0 : delta);
}

/* Each column's id (as sort_by () and the cells' text name it), its
 * title and whether it holds numbers */
static const struct
{
  const char *id;
  const char *title;      /* N_() */
  gboolean    numeric;
} columns[N_COLUMNS] = {
  [COL_NAME]       = { "name", N_("Name"), FALSE },
  [COL_CHANGE]     = { "change", N_("Change"), FALSE },
  [COL_WHY]        = { "why", N_("Why"), FALSE },
  [COL_KIND]       = { "kind", N_("Kind"), FALSE },
  [COL_A_COUNT]    = { "a-count", N_("Count A"), TRUE },
  [COL_A_MEAN]     = { "a-mean", N_("Mean A"), TRUE },
  [COL_A_MEDIAN]   = { "a-median", N_("Median A"), TRUE },
  [COL_A_P95]      = { "a-p95", N_("P95 A"), TRUE },
  [COL_A_TOTAL]    = { "a-total", N_("Total A"), TRUE },
  [COL_B_COUNT]    = { "b-count", N_("Count B"), TRUE },
  [COL_B_MEAN]     = { "b-mean", N_("Mean B"), TRUE },
  [COL_B_MEDIAN]   = { "b-median", N_("Median B"), TRUE },
  [COL_B_P95]      = { "b-p95", N_("P95 B"), TRUE },
  [COL_B_TOTAL]    = { "b-total", N_("Total B"), TRUE },
  [COL_DELTA_MEAN] = { "delta-mean", N_("Δ Mean"), TRUE },
  [COL_RATIO]      = { "ratio", N_("Ratio"), TRUE },
  [COL_P_VALUE]    = { "p-value", N_("p-value"), TRUE },
};

/* Values and their text */

static double
column_value (const PsRunDiffRow *row,
              Column              column)
{
  switch (column)
    {
    case COL_A_COUNT:    return row->has_a ? (double)row->a.count : NAN;
    case COL_A_MEAN:     return row->has_a ? row->a.mean : NAN;
    case COL_A_MEDIAN:   return row->has_a ? row->a.median : NAN;
    case COL_A_P95:      return row->has_a ? row->a.p95 : NAN;
    case COL_A_TOTAL:    return row->has_a ? row->a.sum : NAN;
    case COL_B_COUNT:    return row->has_b ? (double)row->b.count : NAN;
    case COL_B_MEAN:     return row->has_b ? row->b.mean : NAN;
    case COL_B_MEDIAN:   return row->has_b ? row->b.median : NAN;
    case COL_B_P95:      return row->has_b ? row->b.p95 : NAN;
    case COL_B_TOTAL:    return row->has_b ? row->b.sum : NAN;
    case COL_DELTA_MEAN: return row->delta_mean;
    case COL_RATIO:      return row->ratio_mean;
    case COL_P_VALUE:    return row->p_value;
    case COL_NAME:
    case COL_KIND:
    case COL_CHANGE:
    case COL_WHY:
    case N_COLUMNS:
    default:
      return NAN;
    }
}

const char *
ps_compare_page_kind_label (const char *kind)
{
  if (g_strcmp0 (kind, "duration") == 0)
    return _("Duration");
  if (g_strcmp0 (kind, "cpu") == 0)
    return _("CPU");
  if (g_strcmp0 (kind, "memory") == 0)
    return _("Memory");
  if (g_strcmp0 (kind, "span") == 0)
    return _("Span");
  if (g_strcmp0 (kind, "counter") == 0)
    return _("Counter");
  if (g_strcmp0 (kind, "function") == 0)
    return _("Function");
  return kind;
}

static const char *
change_label (const PsRunDiffRow *row)
{
  if (!row->has_b)
    return _("Only in A");
  if (!row->has_a)
    return _("Only in B");
  switch (row->change)
    {
    case PS_RUN_DIFF_REGRESSION:  return _("Regression");
    case PS_RUN_DIFF_IMPROVEMENT: return _("Improvement");
    case PS_RUN_DIFF_CHANGED:     return _("Changed");
    case PS_RUN_DIFF_UNCHANGED:
    default:                      return _("Unchanged");
    }
}

static const char *
change_icon (const PsRunDiffRow *row)
{
  if (!row->has_b)
    return "list-remove-symbolic";
  if (!row->has_a)
    return "list-add-symbolic";
  switch (row->change)
    {
    case PS_RUN_DIFF_REGRESSION:  return "go-up-symbolic";
    case PS_RUN_DIFF_IMPROVEMENT: return "go-down-symbolic";
    case PS_RUN_DIFF_CHANGED:     return "dialog-information-symbolic";
    case PS_RUN_DIFF_UNCHANGED:
    default:                      return NULL;
    }
}

static const char *
change_css_class (const PsRunDiffRow *row)
{
  if (!row->has_a || !row->has_b)
    return "one-side";
  switch (row->change)
    {
    case PS_RUN_DIFF_REGRESSION:  return "regression";
    case PS_RUN_DIFF_IMPROVEMENT: return "improvement";
    case PS_RUN_DIFF_CHANGED:     return "changed";
    case PS_RUN_DIFF_UNCHANGED:
    default:                      return "unchanged";
    }
}

/* Worst first when sorted ascending */
static int
change_rank (const PsRunDiffRow *row)
{
  if (!row->has_a || !row->has_b)
    return 4;
  switch (row->change)
    {
    case PS_RUN_DIFF_REGRESSION:  return 0;
    case PS_RUN_DIFF_CHANGED:     return 1;
    case PS_RUN_DIFF_IMPROVEMENT: return 2;
    case PS_RUN_DIFF_UNCHANGED:
    default:                      return 3;
    }
}

/* "+596 %", "−12 %", "+3.2 %": a ratio as a relative change */
static char *
format_relative_change (double ratio)
{
  double percent = 100.0 * (ratio - 1.0);
  const char *sign = percent > 0 ? "+" : percent < 0 ? "−" : "";

  if (!isfinite (percent))
    return g_strdup ("–");
  if (fabs (percent) >= 10 || percent == 0)
    return g_strdup_printf ("%s%.0f %%", sign, fabs (percent));
  return g_strdup_printf ("%s%.1f %%", sign, fabs (percent));
}

/* "10 %": a share of options (min_change, threshold) as a percentage */
char *
ps_compare_page_format_share (double share)
{
  double percent = 100.0 * share;

  return percent == floor (percent) ? g_strdup_printf ("%.0f %%", percent) : g_strdup_printf ("%.1f %%", percent);
}

/* "p = 0.003", "p < 0.001" */
static char *
format_p (double p_value)
{
  g_autofree char *number = ps_compare_export_format_p_value (p_value);

  if (p_value < 0.001)
    return g_strdup_printf ("p %s", number);
  return g_strdup_printf ("p = %s", number);
}

/* Why the row has its verdict, in words: the test and its p-value, or
 * the size of the change against the least change and the noise floor */
static char *
dup_why_text (const PsRunDiffRow     *row,
              const PsRunDiffOptions *options)
{
  g_autofree char *p = NULL;
  g_autofree char *change = NULL;
  g_autofree char *limit = NULL;
  const char *test;

  if (!row->has_b)
    return g_strdup (_("Only in run A: nothing to compare"));
  if (!row->has_a)
    return g_strdup (_("Only in run B: nothing to compare"));

  change = format_relative_change (ps_run_diff_row_get_compared_ratio (row));
  switch (row->basis)
    {
    case PS_RUN_DIFF_BASIS_SIZE:
      limit = ps_compare_page_format_share (options->min_change);
      switch (row->reason)
        {
        case PS_RUN_DIFF_REASON_LARGE:
          /* Translators: a verdict without a test: the change, then the least change counted */
          return g_strdup_printf (_("No test: one value per run; %s ≥ %s"), change, limit);
        case PS_RUN_DIFF_REASON_NOISE:
          {
            g_autofree char *floor_text = ps_compare_page_format_value (row->noise_floor, row->unit, FALSE);

            /* Translators: %s is the least change that is not noise, with its unit */
            return g_strdup_printf (_("No test: one value per run; change under the noise floor (%s)"), floor_text);
          }
        case PS_RUN_DIFF_REASON_NO_VALUE:
          return g_strdup (_("No test: one value per run, but no value to compare in both"));
        case PS_RUN_DIFF_REASON_SMALL:
        default:
          /* Translators: a verdict without a test: the change, then the least change counted */
          return g_strdup_printf (_("No test: one value per run; %s is under %s"), change, limit);
        }
    case PS_RUN_DIFF_BASIS_TEST:
    case PS_RUN_DIFF_BASIS_PROPORTION:
      test = row->basis == PS_RUN_DIFF_BASIS_TEST ? _("Mann–Whitney test") : _("Share of samples, two-proportion test");
      p = format_p (row->p_value);
      switch (row->reason)
        {
        case PS_RUN_DIFF_REASON_NOT_SIGNIFICANT:
          /* Translators: a test, then its p-value */
          return g_strdup_printf (_("%s, %s: not significant"), test, p);
        case PS_RUN_DIFF_REASON_SMALL:
          limit = ps_compare_page_format_share (options->threshold);
          /* Translators: a test, its p-value, the change, then the least change counted */
          return g_strdup_printf (_("%s, %s; %s is under %s"), test, p, change, limit);
        case PS_RUN_DIFF_REASON_NO_VALUE:
          /* Translators: %s is a test */
          return g_strdup_printf (_("%s: no value to compare in both runs"), test);
        case PS_RUN_DIFF_REASON_SIGNIFICANT:
        default:
          /* Translators: a test, then its p-value */
          return g_strdup_printf (_("%s, %s"), test, p);
        }
    case PS_RUN_DIFF_BASIS_NONE:
    default:
      /* Rows of both runs always have a basis */
      return g_strdup (_("No test"));
    }
}

/* Why the p column has no p-value */
static const char *
no_p_value_reason (const PsRunDiffRow *row)
{
  if (!row->has_a || !row->has_b)
    return _("In one run only: nothing to test");
  if (row->basis == PS_RUN_DIFF_BASIS_SIZE)
    return _("No test: one value per run, compared by the size of the change");
  if (row->reason == PS_RUN_DIFF_REASON_NO_VALUE)
    return _("No value to compare in both runs");
  return _("No test");
}

/* The tooltip of a cell, or NULL: the reason of a verdict, and what an
 * empty p-value means */
static char *
cell_tooltip (const PsRunDiffRow     *row,
              Column                  column,
              const PsRunDiffOptions *options)
{
  switch (column)
    {
    case COL_CHANGE:
    case COL_WHY:
      return dup_why_text (row, options);
    case COL_P_VALUE:
      if (isnan (row->p_value))
        return g_strdup (no_p_value_reason (row));
      return g_strdup (row->basis == PS_RUN_DIFF_BASIS_PROPORTION
                       ? _("Two-proportion test of the function’s share of each run’s samples")
                       : _("Mann–Whitney test of the values of both runs"));
    default:
      return NULL;
    }
}

static char *
cell_text (const PsRunDiffRow     *row,
           Column                  column,
           const PsRunDiffOptions *options)
{
  gboolean side_a = column >= COL_A_COUNT && column <= COL_A_TOTAL;
  gboolean side_b = column >= COL_B_COUNT && column <= COL_B_TOTAL;

  if ((side_a && !row->has_a) || (side_b && !row->has_b))
    return g_strdup ("–");

  switch (column)
    {
    case COL_NAME:
      if (row->a_name != NULL)
        /* Translators: a renamed row: its name in B, then in A */
        return g_strdup_printf (_("%s (was %s)"), row->name, row->a_name);
      if (row->context != NULL)
        return g_strdup_printf ("%s — %s", row->name, row->context);
      /* A CE log's monitors, "CPU: fsperf", as the run's own views name them */
      return ps_view_series_name (row->name);
    case COL_KIND:
      return g_strdup (ps_compare_page_kind_label (row->kind));
    case COL_WHY:
      return dup_why_text (row, options);
    case COL_A_COUNT:
      return ps_view_format_count (row->a.count);
    case COL_B_COUNT:
      return ps_view_format_count (row->b.count);
    case COL_A_MEAN:
    case COL_A_MEDIAN:
    case COL_A_P95:
    case COL_A_TOTAL:
    case COL_B_MEAN:
    case COL_B_MEDIAN:
    case COL_B_P95:
    case COL_B_TOTAL:
      return ps_compare_page_format_value (column_value (row, column), row->unit, FALSE);
    case COL_DELTA_MEAN:
      return ps_compare_page_format_delta (row->delta_mean, row->unit,
                                           MAX (row->has_a ? fabs (row->a.mean) : 0, row->has_b ? fabs (row->b.mean) : 0));
    case COL_RATIO:
      return ps_compare_export_format_ratio (row->ratio_mean);
    case COL_P_VALUE:
      return ps_compare_export_format_p_value (row->p_value);
    case COL_CHANGE:
      return g_strdup (change_label (row));
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

/* Cells */

static Column
column_of (GObject *object)
{
  return GPOINTER_TO_UINT (g_object_get_data (object, "ps-column"));
}

/* A right click on a cell selects its row and opens the row's menu */
static void
cell_pressed_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 GtkListItem     *list_item)
{
  GtkWidget *cell = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  PsComparePage *self = PS_COMPARE_PAGE (gtk_widget_get_ancestor (cell, PS_TYPE_COMPARE_PAGE));
  guint position = gtk_list_item_get_position (list_item);
  graphene_point_t point;

  if (self == NULL || position == GTK_INVALID_LIST_POSITION)
    return;
  gtk_single_selection_set_selected (self->selection, position);
  if (!gtk_widget_compute_point (cell, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    return;
  gtk_popover_set_pointing_to (self->row_popover, &(GdkRectangle) { (int)point.x, (int)point.y, 1, 1 });
  gtk_popover_popup (self->row_popover);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
add_context_menu (GtkWidget   *cell,
                  GtkListItem *list_item)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (cell_pressed_cb), list_item);
  gtk_widget_add_controller (cell, GTK_EVENT_CONTROLLER (click));
}

/* A cell's tooltip, made when asked for: why a row changed, how sure
 * the change is, or a name that differs between the runs */
static char *
row_cell_tooltip (gpointer item,
                  guint    column,
                  gpointer user_data)
{
  PsComparePage *self = user_data;
  const PsRunDiffRow *row = ps_compare_row_get_row (item);

  /* A name cut to its column is whole in the tooltip */
  if (column == COL_NAME)
    return cell_text (row, column, &self->options);
  return cell_tooltip (row, column, &self->options);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  Column column = column_of (G_OBJECT (factory));
  GtkWidget *cell;

  if (column == COL_CHANGE)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *image = gtk_image_new ();

      gtk_widget_add_css_class (box, "change-cell");
      gtk_accessible_update_property (GTK_ACCESSIBLE (image), GTK_ACCESSIBLE_PROPERTY_LABEL, "", -1);
      gtk_box_append (GTK_BOX (box), image);
      gtk_box_append (GTK_BOX (box), ps_view_cell_label_new (FALSE));
      ps_view_cell_set_tooltip (box, list_item, column, row_cell_tooltip, user_data);
      gtk_list_item_set_child (list_item, box);
      add_context_menu (box, list_item);
      return;
    }

  cell = ps_view_cell_label_new (columns[column].numeric);
  /* Reasons are sentences: cut to the column, whole in the tooltip */
  if (column == COL_WHY)
    gtk_label_set_ellipsize (GTK_LABEL (cell), PANGO_ELLIPSIZE_END);
  /* Names that differ at their start or their end (a CE marker's
   * parameters, a scope's function) both stay in sight */
  if (column == COL_NAME)
    gtk_label_set_ellipsize (GTK_LABEL (cell), PANGO_ELLIPSIZE_MIDDLE);
  if (column == COL_WHY || column == COL_P_VALUE || column == COL_NAME)
    ps_view_cell_set_tooltip (cell, list_item, column, row_cell_tooltip, user_data);
  gtk_list_item_set_child (list_item, cell);
  add_context_menu (cell, list_item);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  PsComparePage *self = user_data;
  Column column = column_of (G_OBJECT (factory));
  PsCompareRow *item = gtk_list_item_get_item (list_item);
  const PsRunDiffRow *row = ps_compare_row_get_row (item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = cell_text (row, column, &self->options);

  if (column == COL_CHANGE)
    {
      static const char *classes[] = { "regression", "improvement", "changed", "unchanged", "one-side" };
      GtkWidget *image = gtk_widget_get_first_child (child);
      GtkWidget *label = gtk_widget_get_next_sibling (image);
      const char *icon = change_icon (row);

      for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
        gtk_widget_remove_css_class (child, classes[i]);
      gtk_widget_add_css_class (child, change_css_class (row));
      gtk_image_set_from_icon_name (GTK_IMAGE (image), icon);
      gtk_widget_set_visible (image, icon != NULL);
      gtk_label_set_text (GTK_LABEL (label), text);
      return;
    }

  gtk_label_set_text (GTK_LABEL (child), text);
  if (column == COL_NAME)
    {
      if (!row->has_a || !row->has_b)
        gtk_widget_add_css_class (child, "dim-label");
      else
        gtk_widget_remove_css_class (child, "dim-label");
    }
}

/* Sorting */

static int
compare_rows_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  const PsRunDiffRow *row_a = ps_compare_row_get_row ((PsCompareRow *)a);
  const PsRunDiffRow *row_b = ps_compare_row_get_row ((PsCompareRow *)b);
  double value_a, value_b;

  switch (column)
    {
    case COL_NAME:
      return g_utf8_collate (row_a->name, row_b->name);
    case COL_KIND:
      return g_strcmp0 (row_a->kind, row_b->kind);
    case COL_WHY:
      return (int)row_a->basis - (int)row_b->basis != 0 ? (int)row_a->basis - (int)row_b->basis
                                                       : (int)row_a->reason - (int)row_b->reason;
    case COL_CHANGE:
      return change_rank (row_a) - change_rank (row_b);
    default:
      break;
    }

  value_a = column_value (row_a, column);
  value_b = column_value (row_b, column);
  /* Rows without a value go after those with one */
  if (isnan (value_a) || isnan (value_b))
    return isnan (value_a) - isnan (value_b);
  return (value_a > value_b) - (value_a < value_b);
}

/* Filtering */

/* Whether the row has the verdict the filter shows */
static gboolean
passes_filter (PsCompareFilter     mode,
               const PsRunDiffRow *row)
{
  gboolean matched = row->has_a && row->has_b;

  switch (mode)
    {
    case PS_COMPARE_FILTER_REGRESSIONS:
      return matched && row->change == PS_RUN_DIFF_REGRESSION;
    case PS_COMPARE_FILTER_IMPROVEMENTS:
      return matched && row->change == PS_RUN_DIFF_IMPROVEMENT;
    case PS_COMPARE_FILTER_CHANGED:
      return matched && row->change != PS_RUN_DIFF_UNCHANGED;
    case PS_COMPARE_FILTER_ONE_SIDE:
      return !matched;
    case PS_COMPARE_FILTER_ALL:
    default:
      return TRUE;
    }
}

gboolean
ps_compare_page_filter_row_cb (gpointer item,
                               gpointer user_data)
{
  PsComparePage *self = user_data;
  const PsRunDiffRow *row = ps_compare_row_get_row (item);
  g_autofree char *name = NULL;
  g_autofree char *a_name = NULL;

  if (!passes_filter (self->filter_mode, row))
    return FALSE;
  if (self->search == NULL)
    return TRUE;

  name = g_utf8_casefold (row->name, -1);
  a_name = row->a_name != NULL ? g_utf8_casefold (row->a_name, -1) : NULL;
  return strstr (name, self->search) != NULL
         || (a_name != NULL && strstr (a_name, self->search) != NULL);
}

/* Why no row is shown: the filter leaves none, or the search none of
 * those it leaves */
static char *
dup_empty_text (PsComparePage *self)
{
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  gboolean filter_leaves_rows = FALSE;

  if (n_rows == 0)
    return g_strdup (_("No rows to compare"));
  for (guint i = 0; i < n_rows && !filter_leaves_rows; i++)
    {
      g_autoptr(PsCompareRow) item = g_list_model_get_item (G_LIST_MODEL (self->rows), i);

      filter_leaves_rows = passes_filter (self->filter_mode, ps_compare_row_get_row (item));
    }
  if (filter_leaves_rows)
    /* Translators: the comparison's table when its search finds no row; %s is what was searched */
    return g_strdup_printf (_("No name matches “%s”"), gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));

  switch (self->filter_mode)
    {
    case PS_COMPARE_FILTER_REGRESSIONS:
      /* Translators: the comparison's table, filtered to regressions, when there are none */
      return g_strdup (_("No regressions"));
    case PS_COMPARE_FILTER_IMPROVEMENTS:
      /* Translators: the comparison's table, filtered to improvements, when there are none */
      return g_strdup (_("No improvements"));
    case PS_COMPARE_FILTER_CHANGED:
      /* Translators: the comparison's table, filtered to changed rows, when there are none */
      return g_strdup (_("No row changed"));
    case PS_COMPARE_FILTER_ONE_SIDE:
      /* Translators: the comparison's table, filtered to rows of one run only, when there are none */
      return g_strdup (_("Every row is in both runs"));
    case PS_COMPARE_FILTER_ALL:
    default:
      return g_strdup (_("No rows to compare"));
    }
}

/* The count of rows beside the search, and in the table's place, when
 * none is shown, why */
void
ps_compare_page_update_status (PsComparePage *self)
{
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_autofree char *text = NULL;

  if (!self->ready)
    {
      gtk_label_set_text (self->status_label, "");
      gtk_stack_set_visible_child_name (self->rows_stack, "rows");
      return;
    }
  if (n_shown == n_rows)
    /* Translators: %u is a number of rows */
    text = g_strdup_printf (ngettext ("%u row", "%u rows", n_rows), n_rows);
  else
    /* Translators: rows shown after filtering, of all rows */
    text = g_strdup_printf (ngettext ("%u of %u row", "%u of %u rows", n_rows), n_shown, n_rows);
  gtk_label_set_text (self->status_label, text);

  if (n_shown == 0)
    {
      g_autofree char *empty = dup_empty_text (self);

      gtk_label_set_text (self->empty_label, empty);
    }
  gtk_stack_set_visible_child_name (self->rows_stack, n_shown > 0 ? "rows" : "empty");
}

/* The position of item among the shown rows, or GTK_INVALID_LIST_POSITION */
static guint
shown_position (PsComparePage *self,
                PsCompareRow  *item)
{
  GListModel *shown = G_LIST_MODEL (self->sorted);

  for (guint i = 0; item != NULL && i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(PsCompareRow) shown_item = g_list_model_get_item (shown, i);

      if (shown_item == item)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* The rows shown again: the row the user selected stays selected where
 * it is shown, wherever the filter moved it, and is selected again when
 * a filter that hid it shows it; the runs and the histogram follow the
 * selection once, not through GTK's steps in between */
static void
refilter (PsComparePage *self)
{
  PsCompareRow *before = gtk_single_selection_get_selected_item (self->selection);

  self->refiltering = TRUE;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  gtk_single_selection_set_selected (self->selection, shown_position (self, self->chosen_row));
  self->refiltering = FALSE;
  if (gtk_single_selection_get_selected_item (self->selection) != before)
    ps_compare_page_follow_selected_row (self);
  ps_compare_page_update_status (self);
}

void
ps_compare_page_filter_toggled_cb (PsComparePage   *self,
                                   GtkToggleButton *button)
{
  PsCompareFilter mode;

  if (!gtk_toggle_button_get_active (button))
    return;
  if (button == self->filter_regressions)
    mode = PS_COMPARE_FILTER_REGRESSIONS;
  else if (button == self->filter_improvements)
    mode = PS_COMPARE_FILTER_IMPROVEMENTS;
  else if (button == self->filter_changed)
    mode = PS_COMPARE_FILTER_CHANGED;
  else if (button == self->filter_one_side)
    mode = PS_COMPARE_FILTER_ONE_SIDE;
  else
    mode = PS_COMPARE_FILTER_ALL;

  if (mode == self->filter_mode)
    return;
  self->filter_mode = mode;
  refilter (self);
}

void
ps_compare_page_search_changed_cb (PsComparePage  *self,
                                   GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && text[0] != '\0')
    self->search = g_utf8_casefold (text, -1);
  refilter (self);
}

/* Columns */

/* The columns as the table shows them: after the verdict, how much
 * changed (the means of both runs, their difference and ratio), then
 * why, then the rest of each statistic with A's beside B's. The CSV and
 * Markdown exports keep the CLI's order (ps-compare-export.h). */
static const Column shown_order[N_COLUMNS] = {
  COL_NAME, COL_CHANGE,
  COL_A_MEAN, COL_B_MEAN, COL_DELTA_MEAN, COL_RATIO,
  COL_WHY, COL_KIND,
  COL_A_COUNT, COL_B_COUNT, COL_A_MEDIAN, COL_B_MEDIAN,
  COL_A_P95, COL_B_P95, COL_A_TOTAL, COL_B_TOTAL,
  COL_P_VALUE,
};

void
ps_compare_page_add_columns (PsComparePage *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (shown_order); i++)
    {
      Column column = shown_order[i];
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) view_column = NULL;
      g_autoptr(GtkSorter) sorter = NULL;

      g_object_set_data (G_OBJECT (factory), "ps-column", GUINT_TO_POINTER (column));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), self);

      view_column = gtk_column_view_column_new (_(columns[column].title), factory);
      gtk_column_view_column_set_resizable (view_column, TRUE);
      /* The name gives up room to how much changed, down to its share */
      if (column == COL_NAME)
        {
          gtk_column_view_column_set_expand (view_column, TRUE);
          gtk_column_view_column_set_fixed_width (view_column, NAME_COLUMN_WIDTH);
        }
      if (column == COL_WHY)
        gtk_column_view_column_set_fixed_width (view_column, WHY_COLUMN_WIDTH);
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows_cb, GUINT_TO_POINTER (column), NULL));
      gtk_column_view_column_set_sorter (view_column, sorter);
      gtk_column_view_append_column (self->column_view, view_column);
      self->column_widgets[column] = view_column;
    }
}

/* The tests' look at the rows (ps-compare-page-private.h) */

GListModel *
ps_compare_page_get_rows (PsComparePage *self)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return G_LIST_MODEL (self->selection);
}

void
ps_compare_page_set_filter (PsComparePage   *self,
                            PsCompareFilter  filter)
{
  GtkToggleButton *buttons[] = {
    [PS_COMPARE_FILTER_ALL] = self->filter_all,
    [PS_COMPARE_FILTER_REGRESSIONS] = self->filter_regressions,
    [PS_COMPARE_FILTER_IMPROVEMENTS] = self->filter_improvements,
    [PS_COMPARE_FILTER_CHANGED] = self->filter_changed,
    [PS_COMPARE_FILTER_ONE_SIDE] = self->filter_one_side,
  };

  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  g_return_if_fail (filter < G_N_ELEMENTS (buttons));

  /* Through the button, as a click would */
  gtk_toggle_button_set_active (buttons[filter], TRUE);
}

void
ps_compare_page_set_search (PsComparePage *self,
                            const char    *text)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  /* Without waiting for the entry's delay */
  ps_compare_page_search_changed_cb (self, self->search_entry);
}

void
ps_compare_page_sort_by (PsComparePage *self,
                         const char    *column_id,
                         GtkSortType    order)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));

  for (Column column = 0; column < N_COLUMNS; column++)
    if (g_strcmp0 (columns[column].id, column_id) == 0)
      {
        gtk_column_view_sort_by_column (self->column_view, self->column_widgets[column], order);
        return;
      }
  g_critical ("No column %s", column_id);
}

/* The text (or the tooltip) of a shown row's cell; NULL for no such row
 * or column */
static char *
dup_cell (PsComparePage *self,
          guint          position,
          const char    *column_id,
          gboolean       tooltip)
{
  g_autoptr(PsCompareRow) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (item == NULL)
    return NULL;
  for (Column column = 0; column < N_COLUMNS; column++)
    if (g_strcmp0 (columns[column].id, column_id) == 0)
      return tooltip ? cell_tooltip (ps_compare_row_get_row (item), column, &self->options)
                     : cell_text (ps_compare_row_get_row (item), column, &self->options);
  return NULL;
}

char *
ps_compare_page_get_cell_text (PsComparePage *self,
                               guint          position,
                               const char     *column_id)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return dup_cell (self, position, column_id, FALSE);
}

char *
ps_compare_page_get_cell_tooltip (PsComparePage *self,
                                  guint          position,
                                  const char    *column_id)
{
  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);
  return dup_cell (self, position, column_id, TRUE);
}

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
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ps-compare-export.h"
#include "ps-compare-page-private.h"
#include "ps-compare-page-sessions.h"
#include "ps-compare-row.h"
#include "ps-file-output.h"
#include "ps-flame-graph.h"
#include "ps-format.h"
#include "ps-histogram-view.h"
#include "ps-series.h"
#include "ps-run-page-private.h"
#include "ps-session.h"
#include "ps-timeline-render.h"
#include "ps-table-export.h"
#include "ps-util.h"
#include "ps-save-location.h"
#include "ps-view-util.h"
#include "ps-wrap-box.h"

#define MARKDOWN_MAX_ROWS 10
/* The least height of a run under the table: its timeline, its header
 * and a few rows of its tables */
#define RUN_PAGE_MIN_HEIGHT 440
/* The Why column's width: reasons are cut there, whole in the tooltip */
#define WHY_COLUMN_WIDTH 360
/* The width of the Align At dropdowns' buttons, in characters */
#define ALIGN_BUTTON_CHARS 10
#define NS_PER_MS 1000000.0

/* A value as the CLI writes it (ps_compare_export_format_value ()), but
 * for whole numbers of ticks, samples and the like, grouped as every
 * count of the window is ("481,558 ticks") */
char *
ps_compare_page_format_value (double      value,
                              const char *unit,
                              gboolean    is_signed)
{
  g_autofree char *number = NULL;
  const char *shown_unit;

  if (isnan (value) || unit == NULL || strcmp (unit, "s") == 0 || strcmp (unit, "ns") == 0
      || strcmp (unit, "bytes") == 0 || strcmp (unit, "percent") == 0)
    return ps_compare_export_format_value (value, unit, is_signed);

  /* Ticks, samples, a counter's unit: the number as the exports write it
   * below 100, whole above, and the unit in the user's language */
  shown_unit = ps_view_unit_name (unit);
  if (fabs (value) < 100)
    number = ps_compare_export_format_value (value, "", is_signed);
  else
    number = g_strconcat (value < 0 ? "−" : is_signed && value > 0 ? "+" : "",
                          ps_view_format_count ((guint64)llround (fabs (value))), NULL);
  if (*shown_unit == '\0')
    return g_steal_pointer (&number);
  /* Translators: a number and its unit, "5.20 ms" */
  return g_strdup_printf (C_("value with unit", "%s %s"), number, shown_unit);
}

/* The change next to the name: what the user looks for first */
typedef enum
{
  COL_NAME,
  COL_CHANGE,
  COL_WHY,
  COL_KIND,
  COL_A_COUNT,
  COL_A_MEAN,
  COL_A_MEDIAN,
  COL_A_P95,
  COL_A_TOTAL,
  COL_B_COUNT,
  COL_B_MEAN,
  COL_B_MEDIAN,
  COL_B_P95,
  COL_B_TOTAL,
  COL_DELTA_MEAN,
  COL_RATIO,
  COL_P_VALUE,
  N_COLUMNS
} Column;

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

struct _PsComparePage
{
  GtkWidget        parent_instance;

  GFile           *files[2];
  int              chosen_sessions[2]; /* the session of each side, −1: the whole file */
  char            *side_names[2];      /* "a.log", "nightly.log — session 9 of 14" */
  char            *title;
  PsRunPage       *run_pages[2];
  PsSession       *sessions[2];
  gulong           range_handlers[2];
  gulong           selection_handlers[2];
  gboolean         syncing;
  gboolean         user_stacked;       /* the layout the user chose */
  gboolean         narrow;             /* a run does not fit half the page */
  gboolean         forcing_layout;     /* the page, not the user, toggles */
  guint            narrow_idle;
  double           offset_ms;
  PsEventStore    *aligned_stores[2];  /* whose marks the dropdowns list */
  GArray          *align_times[2];     /* gint64 ns per dropdown item: 0 for the start */
  gboolean         filling_align;      /* the dropdowns are being filled */

  GCancellable    *cancellable;
  PsEventStore    *diffed_stores[2];   /* of the diff computed or being computed */
  PsRunDiff       *diff;
  gboolean         ready;
  GHashTable      *renames;            /* A name → B name, matched by hand */
  gboolean         can_match;          /* the selected row is of A only */
  PsCallTreeDiff  *call_diff;          /* NULL unless both runs have a call tree */
  GHashTable      *values[2];          /* row key → GArray of double, per run */
  /* The thresholds of the verdicts; min_change is the user's */
  PsRunDiffOptions options;
  gboolean         list_unmatched;     /* rows of runs that share none, listed anyway */

  GListStore      *rows;
  GtkCustomFilter *filter;
  GtkFilterListModel *filtered;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;
  PsCompareFilter  filter_mode;
  char            *search;             /* casefolded, NULL for none */
  GtkColumnViewColumn *column_widgets[N_COLUMNS];

  /* Template widgets */
  GtkPaned        *paned;
  GtkLabel        *title_labels[2];
  GtkLabel        *details_label;
  GtkLabel        *regressions_label;
  GtkLabel        *improvements_label;
  GtkLabel        *changed_label;
  GtkLabel        *one_side_label;
  GtkToggleButton *filter_all;
  GtkToggleButton *filter_regressions;
  GtkToggleButton *filter_improvements;
  GtkToggleButton *filter_changed;
  GtkToggleButton *filter_one_side;
  GtkSearchEntry  *search_entry;
  GtkLabel        *status_label;
  GtkWidget       *min_change_box;
  GtkSpinButton   *min_change_spin;
  GtkWidget       *table_toolbar;
  GtkStack        *table_stack;
  GtkLabel        *unmatched_label;
  GtkButton       *unmatched_button;
  GtkScrolledWindow *table_window;
  GtkLabel        *basis_label;
  GtkSpinner      *spinner;
  GtkLabel        *busy_label;
  GtkLabel        *failed_label;
  GtkColumnView   *column_view;
  GtkStack        *view_stack;
  GtkStackSwitcher *view_switcher;
  PsFlameGraph    *flame_graph;
  GtkLabel        *flame_label;
  GtkBox          *histogram_box;
  GtkLabel        *histogram_label;
  PsHistogramView *histogram_view;
  GMenuModel      *row_menu;
  GtkPopover      *row_popover;           /* the table's context menu */
  GtkSpinButton   *offset_spin;
  GtkWidget       *align_box;
  GtkLabel        *align_label;
  GtkDropDown     *align_a_dropdown;
  GtkDropDown     *align_b_dropdown;
  GtkToggleButton *side_by_side_button;
  GtkToggleButton *stacked_button;
  GtkToggleButton *same_scale_button;
  GtkBox          *runs_box;
  GtkBox          *run_a_box;
  GtkBox          *run_b_box;
  GtkLabel        *run_a_label;
  GtkLabel        *run_b_label;
};

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

enum {
  CLOSE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void ps_compare_page_save_source_init (PsSaveSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsComparePage, ps_compare_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_SAVE_SOURCE, ps_compare_page_save_source_init))

static void update_flame_graph (PsComparePage *self);
static void update_side_names (PsComparePage *self);
static void start_diff (PsComparePage *self);
static gboolean is_read (PsRunPageState state);

static void
set_ready (PsComparePage *self,
           gboolean       ready)
{
  if (self->ready == ready)
    return;
  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

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

static const char *
kind_label (const char *kind)
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
static char *
format_share (double share)
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
      limit = format_share (options->min_change);
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
          limit = format_share (options->threshold);
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
      return g_strdup (row->name);
    case COL_KIND:
      return g_strdup (kind_label (row->kind));
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
      return ps_compare_page_format_value (row->delta_mean, row->unit, TRUE);
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
      gtk_list_item_set_child (list_item, box);
      add_context_menu (box, list_item);
      return;
    }

  cell = ps_view_cell_label_new (columns[column].numeric);
  /* Reasons are sentences: cut to the column, whole in the tooltip */
  if (column == COL_WHY)
    gtk_label_set_ellipsize (GTK_LABEL (cell), PANGO_ELLIPSIZE_END);
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
  g_autofree char *tooltip = cell_tooltip (row, column, &self->options);

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
      gtk_widget_set_tooltip_text (child, tooltip);
      return;
    }

  gtk_label_set_text (GTK_LABEL (child), text);
  if (column == COL_WHY || column == COL_P_VALUE)
    gtk_widget_set_tooltip_text (child, tooltip);
  if (column == COL_NAME)
    {
      gtk_widget_set_tooltip_text (child, row->a_name != NULL || row->context != NULL ? text : NULL);
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

static gboolean
filter_row_cb (gpointer item,
               gpointer user_data)
{
  PsComparePage *self = user_data;
  const PsRunDiffRow *row = ps_compare_row_get_row (item);
  gboolean matched = row->has_a && row->has_b;
  gboolean shown;

  switch (self->filter_mode)
    {
    case PS_COMPARE_FILTER_REGRESSIONS:
      shown = matched && row->change == PS_RUN_DIFF_REGRESSION;
      break;
    case PS_COMPARE_FILTER_IMPROVEMENTS:
      shown = matched && row->change == PS_RUN_DIFF_IMPROVEMENT;
      break;
    case PS_COMPARE_FILTER_CHANGED:
      shown = matched && row->change != PS_RUN_DIFF_UNCHANGED;
      break;
    case PS_COMPARE_FILTER_ONE_SIDE:
      shown = !matched;
      break;
    case PS_COMPARE_FILTER_ALL:
    default:
      shown = TRUE;
      break;
    }

  if (shown && self->search != NULL)
    {
      g_autofree char *name = g_utf8_casefold (row->name, -1);
      g_autofree char *a_name = row->a_name != NULL ? g_utf8_casefold (row->a_name, -1) : NULL;

      shown = strstr (name, self->search) != NULL
              || (a_name != NULL && strstr (a_name, self->search) != NULL);
    }

  return shown;
}

static void
update_status (PsComparePage *self)
{
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_autofree char *text = NULL;

  if (!self->ready)
    {
      gtk_label_set_text (self->status_label, "");
      return;
    }
  if (n_shown == n_rows)
    /* Translators: %u is a number of rows */
    text = g_strdup_printf (ngettext ("%u row", "%u rows", n_rows), n_rows);
  else
    /* Translators: rows shown after filtering, of all rows */
    text = g_strdup_printf (ngettext ("%u of %u row", "%u of %u rows", n_rows), n_shown, n_rows);
  gtk_label_set_text (self->status_label, text);
}

static void
refilter (PsComparePage *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_status (self);
}

static void
filter_toggled_cb (PsComparePage   *self,
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

static void
search_changed_cb (PsComparePage  *self,
                   GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && text[0] != '\0')
    self->search = g_utf8_casefold (text, -1);
  refilter (self);
}

/* The runs side by side, in step */

/* What a run's timeline is over */
typedef enum
{
  RUN_AXIS_NONE,      /* no timeline: reports, aggregated samples, not read yet */
  RUN_AXIS_SEQUENCE,  /* CE measurements, over their sequence numbers */
  RUN_AXIS_TIME,
} RunAxis;

static RunAxis
run_axis (PsComparePage *self,
          guint          side)
{
  PsRunPage *run = self->run_pages[side];

  if (run == NULL || !is_read (ps_run_page_get_state (run)) || ps_run_page_get_store (run) == NULL)
    return RUN_AXIS_NONE;
  if (ps_run_page_has_time_axis (run))
    return RUN_AXIS_TIME;
  if (ps_timeline_store_has_sequence_axis (ps_run_page_get_store (run)))
    return RUN_AXIS_SEQUENCE;
  return RUN_AXIS_NONE;
}

/* B's offset, which only runs that both have times can have: a sequence
 * has no milliseconds to shift by */
static gint64
offset_ns_in_force (PsComparePage *self)
{
  if (run_axis (self, 0) != RUN_AXIS_TIME || run_axis (self, 1) != RUN_AXIS_TIME)
    return 0;
  return (gint64)llround (self->offset_ms * NS_PER_MS);
}

/* Whether the visible ranges of both runs are in one unit, so that one
 * can follow the other: both over time, or both over their sequence */
static gboolean
axes_agree (PsComparePage *self)
{
  RunAxis axis = run_axis (self, 0);

  /* A session's sequence numbers go on from the sessions before it: the
   * same number is not the same point of two sessions */
  if (axis == RUN_AXIS_SEQUENCE && (self->chosen_sessions[0] >= 0 || self->chosen_sessions[1] >= 0))
    return FALSE;

  return axis != RUN_AXIS_NONE && axis == run_axis (self, 1);
}

static void
sync_range (PsComparePage *self,
            guint          from)
{
  gint64 begin, end;
  gint64 offset_ns = offset_ns_in_force (self);
  guint to = 1 - from;

  /* A range over time means nothing on a sequence axis, nor the reverse */
  if (self->syncing || self->sessions[from] == NULL || self->sessions[to] == NULL || !axes_agree (self))
    return;

  /* B's time t shows next to A's time t − offset */
  ps_session_get_visible_range (self->sessions[from], &begin, &end);
  if (from == 0)
    begin += offset_ns, end += offset_ns;
  else
    begin -= offset_ns, end -= offset_ns;

  self->syncing = TRUE;
  ps_session_set_visible_range (self->sessions[to], begin, end);
  self->syncing = FALSE;
}

static void
sync_selection (PsComparePage *self,
                guint          from)
{
  gint64 begin, end;
  gint64 offset_ns = offset_ns_in_force (self);
  guint to = 1 - from;

  if (self->syncing || self->sessions[from] == NULL || self->sessions[to] == NULL || !axes_agree (self))
    return;

  self->syncing = TRUE;
  if (ps_session_get_selection (self->sessions[from], &begin, &end))
    {
      if (from == 0)
        begin += offset_ns, end += offset_ns;
      else
        begin -= offset_ns, end -= offset_ns;
      ps_session_set_selection (self->sessions[to], begin, end);
    }
  else
    ps_session_clear_selection (self->sessions[to]);
  self->syncing = FALSE;
}

static void
range_changed_a_cb (PsComparePage *self)
{
  sync_range (self, 0);
}

static void
range_changed_b_cb (PsComparePage *self)
{
  sync_range (self, 1);
}

static void
selection_changed_a_cb (PsComparePage *self)
{
  sync_selection (self, 0);
}

static void
selection_changed_b_cb (PsComparePage *self)
{
  sync_selection (self, 1);
}

static void
watch_session (PsComparePage *self,
               guint          side)
{
  PsSession *session = self->run_pages[side] != NULL ? ps_run_page_get_session (self->run_pages[side]) : NULL;

  if (session == self->sessions[side])
    return;

  if (self->sessions[side] != NULL)
    {
      g_clear_signal_handler (&self->range_handlers[side], self->sessions[side]);
      g_clear_signal_handler (&self->selection_handlers[side], self->sessions[side]);
      g_clear_object (&self->sessions[side]);
    }
  if (session == NULL)
    return;

  self->sessions[side] = g_object_ref (session);
  self->range_handlers[side] =
    g_signal_connect_swapped (session, "visible-range-changed",
                              side == 0 ? G_CALLBACK (range_changed_a_cb) : G_CALLBACK (range_changed_b_cb),
                              self);
  self->selection_handlers[side] =
    g_signal_connect_swapped (session, "selection-changed",
                              side == 0 ? G_CALLBACK (selection_changed_a_cb) : G_CALLBACK (selection_changed_b_cb),
                              self);
}

/* Charts of the same values in both runs share one value axis while
 * Same Scale is on, so that equal heights are equal values; the toggle
 * is for runs that both have charts */
static void
update_same_scale (PsComparePage *self)
{
  gboolean charted = run_axis (self, 0) != RUN_AXIS_NONE && run_axis (self, 1) != RUN_AXIS_NONE;

  gtk_widget_set_visible (GTK_WIDGET (self->same_scale_button), charted);
  if (self->run_pages[0] != NULL && self->run_pages[1] != NULL)
    ps_run_page_set_shared_value_scale (self->run_pages[0], self->run_pages[1],
                                        charted && gtk_toggle_button_get_active (self->same_scale_button));
}

static void
offset_changed_cb (PsComparePage *self,
                   GtkSpinButton *spin)
{
  self->offset_ms = gtk_spin_button_get_value (spin);
  /* A leads; B moves */
  sync_range (self, 0);
}

/* Aligning at a mark: each dropdown lists "Run start" and its run's marks
 * by text, each text once at its first occurrence; choosing one on each
 * side sets the offset that puts them next to each other */

static void
align_changed_cb (PsComparePage *self)
{
  guint selected[2];
  gint64 times[2];

  if (self->filling_align)
    return;
  for (guint side = 0; side < 2; side++)
    {
      GtkDropDown *dropdown = side == 0 ? self->align_a_dropdown : self->align_b_dropdown;

      selected[side] = gtk_drop_down_get_selected (dropdown);
      if (selected[side] >= self->align_times[side]->len)
        return;
      times[side] = g_array_index (self->align_times[side], gint64, selected[side]);
    }
  /* B's time t shows next to A's t − offset: B's mark next to A's when
   * the offset is B's time less A's */
  gtk_spin_button_set_value (self->offset_spin, (double)(times[1] - times[0]) / NS_PER_MS);
}

/* The dropdown's items for a run: "Run start", then its marks' texts */
static GListModel *
align_items (PsComparePage *self,
             guint          side,
             PsEventStore  *store)
{
  GtkStringList *items = gtk_string_list_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 n_marks = store != NULL ? ps_event_store_get_n_marks (store) : 0;
  gint64 start = 0;

  g_array_set_size (self->align_times[side], 0);
  gtk_string_list_append (items, _("Run start"));
  g_array_append_val (self->align_times[side], start);
  for (guint64 i = 0; i < n_marks; i++)
    {
      const PsMark *mark = ps_event_store_get_mark (store, i);
      const char *text = ps_event_store_get_string (store, mark->text);
      g_autofree char *time = NULL;
      g_autofree char *item = NULL;

      if (text == NULL || text[0] == '\0' || g_hash_table_contains (seen, text))
        continue;
      g_hash_table_add (seen, (gpointer)text);
      time = ps_util_format_seconds ((double)mark->time_ns / 1e9);
      /* Translators: a mark to align a run at: its text, then its time */
      item = g_strdup_printf (_("%s (at %s)"), text, time);
      gtk_string_list_append (items, item);
      g_array_append_val (self->align_times[side], mark->time_ns);
    }
  return G_LIST_MODEL (items);
}

/* The dropdown's items: cut to a few words on the button, where a long
 * message would widen the page past the window, whole in the list */
static void
setup_align_item_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (GPOINTER_TO_INT (user_data))
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), ALIGN_BUTTON_CHARS);
      gtk_label_set_width_chars (GTK_LABEL (label), ALIGN_BUTTON_CHARS);
    }
  gtk_list_item_set_child (list_item, label);
}

static void
bind_align_item_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (list_item));

  gtk_label_set_text (GTK_LABEL (label), text);
  if (GPOINTER_TO_INT (user_data))
    gtk_widget_set_tooltip_text (label, text);
}

static void
set_align_factories (GtkDropDown *dropdown)
{
  for (int on_button = 0; on_button < 2; on_button++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_signal_connect (factory, "setup", G_CALLBACK (setup_align_item_cb), GINT_TO_POINTER (on_button));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_align_item_cb), GINT_TO_POINTER (on_button));
      if (on_button)
        gtk_drop_down_set_factory (dropdown, factory);
      else
        gtk_drop_down_set_list_factory (dropdown, factory);
    }
}

/* Fills the dropdowns with the marks of the runs read; without marks on
 * both sides there is nothing to align at but the start, and they say so */
static void
update_align (PsComparePage *self)
{
  gboolean has_marks[2];
  const char *tooltip = NULL;

  for (guint side = 0; side < 2; side++)
    {
      GtkDropDown *dropdown = side == 0 ? self->align_a_dropdown : self->align_b_dropdown;
      PsEventStore *store = NULL;

      if (self->run_pages[side] != NULL && is_read (ps_run_page_get_state (self->run_pages[side])))
        store = ps_run_page_get_store (self->run_pages[side]);
      has_marks[side] = store != NULL && ps_event_store_get_n_marks (store) > 0;
      if (store != NULL && store == self->aligned_stores[side] && self->align_times[side]->len > 0)
        continue;

      g_set_object (&self->aligned_stores[side], store);
      self->filling_align = TRUE;
      {
        g_autoptr(GListModel) items = align_items (self, side, store);

        gtk_drop_down_set_model (dropdown, items);
        gtk_drop_down_set_selected (dropdown, 0);
      }
      self->filling_align = FALSE;
    }

  if (self->aligned_stores[0] == NULL || self->aligned_stores[1] == NULL)
    tooltip = _("The runs are still being read");
  else if (!has_marks[0] && !has_marks[1])
    tooltip = _("Neither run has marks (messages, exec or fork records) to align at");
  else if (!has_marks[0])
    tooltip = _("Run A has no marks (messages, exec or fork records) to align at");
  else if (!has_marks[1])
    tooltip = _("Run B has no marks (messages, exec or fork records) to align at");
  else
    tooltip = _("Line up a mark of run A with one of run B: sets B’s offset to the difference of their times");

  for (guint side = 0; side < 2; side++)
    {
      GtkWidget *dropdown = GTK_WIDGET (side == 0 ? self->align_a_dropdown : self->align_b_dropdown);

      gtk_widget_set_sensitive (dropdown, has_marks[0] && has_marks[1]);
      gtk_widget_set_tooltip_text (dropdown, tooltip);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->align_label), tooltip);

  /* Aligning and shifting are for runs that both have times */
  {
    gboolean timed = run_axis (self, 0) == RUN_AXIS_TIME && run_axis (self, 1) == RUN_AXIS_TIME;

    gtk_widget_set_visible (self->align_box, timed);
    if (!timed && self->aligned_stores[0] != NULL && self->aligned_stores[1] != NULL)
      gtk_spin_button_set_value (self->offset_spin, 0);
  }
  update_same_scale (self);
}

static void
layout_toggled_cb (PsComparePage   *self,
                   GtkToggleButton *button)
{
  gboolean stacked = gtk_toggle_button_get_active (self->stacked_button);
  GtkOrientation orientation = stacked ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL;

  if (!self->forcing_layout)
    self->user_stacked = stacked;
  /* The box is homogeneous: each run keeps exactly half either way */
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->runs_box), orientation);
  gtk_widget_remove_css_class (GTK_WIDGET (self->runs_box), stacked ? "side-by-side" : "stacked");
  gtk_widget_add_css_class (GTK_WIDGET (self->runs_box), stacked ? "stacked" : "side-by-side");
}

/* Shows the runs as the user chose, or stacked when they are too wide
 * for half the page */
static void
apply_layout (PsComparePage *self)
{
  self->forcing_layout = TRUE;
  gtk_toggle_button_set_active (self->narrow || self->user_stacked ? self->stacked_button : self->side_by_side_button,
                                TRUE);
  self->forcing_layout = FALSE;
}

/* Runs too wide for half the page are stacked, each the page's width,
 * rather than cut at the side of their half; the user's choice comes
 * back when the window is wide enough again */
static void
apply_narrow (PsComparePage *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->side_by_side_button), !self->narrow);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->side_by_side_button),
                               self->narrow ? _("The window is too narrow for both runs side by side") : NULL);
  apply_layout (self);
}

static gboolean
narrow_idle_cb (gpointer data)
{
  PsComparePage *self = data;

  self->narrow_idle = 0;
  apply_narrow (self);
  return G_SOURCE_REMOVE;
}

/* As a bin: the page is its template's box (and the rows' popover) */
static void
ps_compare_page_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_should_layout (child))
      {
        int child_minimum, child_natural;

        gtk_widget_measure (child, orientation, for_size, &child_minimum, &child_natural, NULL, NULL);
        *minimum = MAX (*minimum, child_minimum);
        *natural = MAX (*natural, child_natural);
      }
}

static void
ps_compare_page_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  PsComparePage *self = PS_COMPARE_PAGE (widget);
  int widest = 0;
  gboolean narrow;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_should_layout (child))
      gtk_widget_allocate (child, width, height, baseline, NULL);
  if (self->row_popover != NULL && gtk_widget_get_visible (GTK_WIDGET (self->row_popover)))
    gtk_popover_present (self->row_popover);

  for (guint side = 0; side < 2; side++)
    if (self->run_pages[side] != NULL)
      {
        int minimum;

        gtk_widget_measure (GTK_WIDGET (self->run_pages[side]), GTK_ORIENTATION_HORIZONTAL, -1,
                            &minimum, NULL, NULL, NULL);
        widest = MAX (widest, minimum);
      }
  /* Each half, less its frame */
  narrow = widest > width / 2 - 2;
  /* Not while GTK allocates: the layout changes right after, before
   * the idle work of redrawing, which could hold back a lower priority */
  if (narrow != self->narrow)
    {
      self->narrow = narrow;
      if (self->narrow_idle == 0)
        self->narrow_idle = g_idle_add_full (G_PRIORITY_DEFAULT, narrow_idle_cb, self, NULL);
    }
}

/* The key of a series' values: kind, context and name */
static char *
values_key (const char *kind,
            const char *context,
            const char *name)
{
  return g_strdup_printf ("%s\x1f%s\x1f%s", kind, context != NULL ? context : "", name);
}

static GArray *
row_values (PsComparePage      *self,
            const PsRunDiffRow *row,
            guint               side)
{
  g_autofree char *key = NULL;

  if (self->values[side] == NULL)
    return NULL;
  key = values_key (row->kind, row->context, side == 0 && row->a_name != NULL ? row->a_name : row->name);
  return g_hash_table_lookup (self->values[side], key);
}

/* The histogram of the selected row's values: B's as bars, A's as an
 * outline on the same bins, on an axis in the row's unit (times, CPU
 * percent, memory bytes, a counter's unit). Function rows have totals
 * only, no values, and so no histogram. */
static void
update_histogram (PsComparePage      *self,
                  const PsRunDiffRow *row)
{
  GArray *values_a = row != NULL ? row_values (self, row, 0) : NULL;
  GArray *values_b = row != NULL ? row_values (self, row, 1) : NULL;
  g_autofree char *title = NULL;

  if (row == NULL || (values_a == NULL && values_b == NULL))
    {
      ps_histogram_view_clear (self->histogram_view);
      gtk_widget_set_visible (GTK_WIDGET (self->histogram_box), FALSE);
      return;
    }

  /* Translators: the heading of the histograms of a row; %s is its name */
  title = g_strdup_printf (_("Distribution of %s"), row->name);
  gtk_label_set_text (self->histogram_label, title);
  ps_histogram_view_set_title (self->histogram_view, title);
  ps_histogram_view_set_unit (self->histogram_view, row->unit);
  if (values_b != NULL)
    ps_histogram_view_set_values (self->histogram_view, (const double *)values_b->data, values_b->len);
  else
    ps_histogram_view_clear (self->histogram_view);
  ps_histogram_view_set_overlay (self->histogram_view,
                                 values_a != NULL ? (const double *)values_a->data : NULL,
                                 values_a != NULL ? values_a->len : 0,
                                 /* Translators: the legend of the run drawn as bars */
                                 _("B"),
                                 /* Translators: the legend of the run drawn as an outline */
                                 _("A"));
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_box), TRUE);
}

static gboolean
has_rows_only_in_b (PsComparePage *self)
{
  if (self->diff == NULL)
    return FALSE;
  for (guint i = 0; i < self->diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (self->diff->rows, i);

      if (row->has_b && !row->has_a)
        return TRUE;
    }
  return FALSE;
}

/* The row selected in the table is selected or highlighted in both runs
 * where their views can show it: the spans or calls of that name on the
 * timelines, the marker of that name in CE runs' tables */
static void
selected_row_changed_cb (PsComparePage *self)
{
  PsCompareRow *item = gtk_single_selection_get_selected_item (self->selection);
  const PsRunDiffRow *row = item != NULL ? ps_compare_row_get_row (item) : NULL;

  for (guint side = 0; side < 2; side++)
    {
      const char *name;
      g_autofree char *description = NULL;

      if (self->sessions[side] == NULL)
        continue;
      /* A CE marker: selected in that run's marker table, with its histogram */
      if (row != NULL && (side == 0 ? row->has_a : row->has_b) && g_strcmp0 (row->kind, "duration") == 0
          && self->run_pages[side] != NULL)
        ps_ce_view_select_marker (ps_run_page_get_ce_view (self->run_pages[side]),
                                  side == 0 && row->a_name != NULL ? row->a_name : row->name);
      if (row == NULL || (side == 0 ? !row->has_a : !row->has_b)
          || (g_strcmp0 (row->kind, "span") != 0 && g_strcmp0 (row->kind, "function") != 0))
        {
          ps_session_clear_highlight (self->sessions[side]);
          continue;
        }
      name = side == 0 && row->a_name != NULL ? row->a_name : row->name;
      /* Translators: what the timeline highlights; %s is a name */
      description = g_strdup_printf (_("calls of %s"), name);
      ps_session_highlight_function (self->sessions[side], name, NULL, description);
    }

  update_histogram (self, row);
  self->can_match = row != NULL && row->has_a && !row->has_b && has_rows_only_in_b (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.match-with", self->can_match);
}

/* The comparison */

static char *
describe_match (PsRunDiffMatch matched)
{
  g_autoptr(GPtrArray) ways = g_ptr_array_new ();

  if (matched == PS_RUN_DIFF_MATCH_NONE)
    return g_strdup (_("The runs have nothing in common: every row is in one run only"));
  if (matched & PS_RUN_DIFF_MATCH_SERIES)
    g_ptr_array_add (ways, _("series names"));
  if (matched & PS_RUN_DIFF_MATCH_FUNCTIONS)
    g_ptr_array_add (ways, _("function names"));
  if (matched & PS_RUN_DIFF_MATCH_COUNTERS)
    g_ptr_array_add (ways, _("counter paths"));
  g_ptr_array_add (ways, NULL);

  {
    g_autofree char *joined = g_strjoinv (", ", (char **)ways->pdata);

    /* Translators: %s lists how the rows of two runs were matched */
    return g_strdup_printf (_("Rows matched by %s"), joined);
  }
}

static const char *
format_display_name (PsEventStore *store)
{
  const PsFormat *format = ps_format_lookup (ps_event_store_get_format (store));

  return format != NULL && format->display_name != NULL ? _(format->display_name) : ps_event_store_get_format (store);
}

static void
set_chip (GtkLabel   *label,
          const char *text,
          guint       count,
          gboolean    hide_zero)
{
  gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), count > 0 || !hide_zero);
  if (count == 0)
    gtk_widget_add_css_class (GTK_WIDGET (label), "zero");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "zero");
}

/* Whether any row is present in both runs */
static gboolean
has_matched_rows (const PsRunDiff *diff)
{
  for (guint i = 0; diff != NULL && i < diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (diff->rows, i);

      if (row->has_a && row->has_b)
        return TRUE;
    }
  return FALSE;
}

static void
update_header (PsComparePage *self)
{
  g_autofree char *details = NULL;
  guint n_regressions = 0, n_improvements = 0, n_changed = 0, n_one_side = 0;
  gboolean can_regress = FALSE;

  if (self->diff == NULL)
    {
      gtk_label_set_text (self->details_label, _("Loading both runs…"));
      gtk_widget_set_visible (GTK_WIDGET (self->regressions_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->improvements_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->changed_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->one_side_label), FALSE);
      return;
    }

  {
    g_autofree char *match = describe_match (self->diff->matched);

    /* Translators: A: file (format) · B: file (format) · how rows were matched */
    details = g_strdup_printf (_("A: %s (%s) · B: %s (%s) · %s"),
                               self->side_names[0],
                               format_display_name (self->diffed_stores[0]),
                               self->side_names[1],
                               format_display_name (self->diffed_stores[1]),
                               match);
    gtk_label_set_text (self->details_label, details);
  }

  /* The pills count the verdicts of the rows; counters only change,
   * they neither regress nor improve */
  for (guint i = 0; i < self->diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (self->diff->rows, i);

      if (!row->has_a || !row->has_b)
        {
          n_one_side++;
          continue;
        }
      can_regress |= row->lower_is_better;
      if (row->change == PS_RUN_DIFF_REGRESSION)
        n_regressions++;
      else if (row->change == PS_RUN_DIFF_IMPROVEMENT)
        n_improvements++;
      else if (row->change == PS_RUN_DIFF_CHANGED)
        n_changed++;
    }

  {
    g_autofree char *regressions =
      g_strdup_printf (ngettext ("%u regression", "%u regressions", n_regressions), n_regressions);
    g_autofree char *improvements =
      g_strdup_printf (ngettext ("%u improvement", "%u improvements", n_improvements), n_improvements);
    g_autofree char *changed =
      /* Translators: rows that changed, neither better nor worse (counters) */
      g_strdup_printf (ngettext ("%u changed", "%u changed", n_changed), n_changed);
    g_autofree char *one_side =
      g_strdup_printf (ngettext ("%u in one run only", "%u in one run only", n_one_side), n_one_side);

    /* Runs that share no row, or only counters, have none to count */
    set_chip (self->regressions_label, regressions, n_regressions, !can_regress);
    set_chip (self->improvements_label, improvements, n_improvements, !can_regress);
    set_chip (self->changed_label, changed, n_changed, TRUE);
    set_chip (self->one_side_label, one_side, n_one_side, TRUE);
  }
}

/* Runs that share no row are not a comparison: the page says so plainly
 * instead of listing every row as "only in A" or "only in B" */
static void
update_unmatched (PsComparePage *self)
{
  g_autofree char *text = NULL;
  const char *format_a = format_display_name (self->diffed_stores[0]);
  const char *format_b = format_display_name (self->diffed_stores[1]);

  if (g_strcmp0 (ps_event_store_get_format (self->diffed_stores[0]),
                 ps_event_store_get_format (self->diffed_stores[1])) != 0)
    /* Translators: run A's file and format, then run B's */
    text = g_strdup_printf (_("A: %s — %s\nB: %s — %s\n"
                              "No series, function or counter of one run is in the other, "
                              "so there is nothing to compare."),
                            self->side_names[0], format_a, self->side_names[1], format_b);
  else
    /* Translators: run A's file and format, then run B's file */
    text = g_strdup_printf (_("A: %s — %s\nB: %s — the same format\n"
                              "No series, function or counter of one run is in the other, "
                              "so there is nothing to compare."),
                            self->side_names[0], format_a, self->side_names[1]);
  gtk_label_set_text (self->unmatched_label, text);
}

static void
unmatched_clicked_cb (PsComparePage *self)
{
  self->list_unmatched = TRUE;
  gtk_stack_set_visible_child_name (self->table_stack, "table");
  gtk_widget_set_visible (self->table_toolbar, TRUE);
}

/* Under the table, what the verdicts of rows with one value per run rest
 * on: the least change and the noise floor of each kind of row */
static void
update_basis_note (PsComparePage *self)
{
  g_autoptr(GString) floors = g_string_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *limit = format_share (self->options.min_change);
  g_autofree char *fraction = format_share (self->options.noise_fraction);
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  guint n_size = 0;

  for (guint i = 0; self->diff != NULL && i < self->diff->rows->len; i++)
    {
      const PsRunDiffRow *row = g_ptr_array_index (self->diff->rows, i);
      g_autofree char *key = NULL;
      g_autofree char *floor_text = NULL;

      if (row->basis != PS_RUN_DIFF_BASIS_SIZE)
        continue;
      n_size++;
      key = g_strdup_printf ("%s\x1f%s", row->kind, row->unit);
      if (isnan (row->noise_floor) || g_hash_table_contains (seen, key))
        continue;
      g_hash_table_add (seen, g_steal_pointer (&key));
      floor_text = ps_compare_page_format_value (row->noise_floor, row->unit, FALSE);
      if (floors->len > 0)
        g_string_append (floors, ", ");
      /* Translators: a noise floor, then the kind of rows it is for ("Function") */
      g_string_append_printf (floors, _("%s (%s)"), floor_text, kind_label (row->kind));
    }

  gtk_widget_set_visible (self->min_change_box, n_size > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->basis_label), n_size > 0);
  if (n_size == 0)
    return;
  if (floors->len > 0)
    {
      /* Translators: %u rows; the least change; then noise floors with the kinds of rows they are for */
      text = g_strdup_printf (ngettext ("No test for %u row with one value per run: a change counts from %s "
                                        "and from the noise floor, %s",
                                        "No test for %u rows with one value per run: a change counts from %s "
                                        "and from the noise floor, %s", n_size),
                              n_size, limit, floors->str);
      /* Translators: %s is a share ("1 %") */
      tooltip = g_strdup_printf (_("The noise floor is %s of the largest value of the row’s kind in either run: "
                                   "a smaller change is noise, however large its ratio"), fraction);
    }
  else
    /* Translators: %u rows; the least change */
    text = g_strdup_printf (ngettext ("No test for %u row with one value per run: a change counts from %s",
                                      "No test for %u rows with one value per run: a change counts from %s",
                                      n_size),
                            n_size, limit);
  gtk_label_set_text (self->basis_label, text);
  {
    g_autofree char *whole = tooltip != NULL ? g_strdup_printf ("%s.\n%s.", text, tooltip) : g_strdup_printf ("%s.", text);

    gtk_widget_set_tooltip_text (GTK_WIDGET (self->basis_label), whole);
  }
}

static void
min_change_changed_cb (PsComparePage *self,
                       GtkSpinButton *spin)
{
  double min_change = gtk_spin_button_get_value (spin) / 100.0;

  if (min_change == self->options.min_change)
    return;
  self->options.min_change = min_change;
  /* The verdicts of rows without a test follow the new least change */
  if (self->diffed_stores[0] != NULL && self->diffed_stores[1] != NULL)
    {
      set_ready (self, FALSE);
      start_diff (self);
    }
}

static void
show_busy (PsComparePage *self,
           const char    *text)
{
  gtk_label_set_text (self->busy_label, text);
  gtk_spinner_set_spinning (self->spinner, TRUE);
  gtk_stack_set_visible_child_name (self->table_stack, "busy");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-csv", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.copy-markdown", FALSE);
}

typedef struct
{
  PsEventStore    *stores[2];
  GHashTable      *renames;   /* a copy: the page's may change meanwhile */
  PsRunDiffOptions options;   /* the thresholds; no renames, no cancellable */
} DiffTaskData;

static void
diff_task_data_free (DiffTaskData *data)
{
  g_clear_object (&data->stores[0]);
  g_clear_object (&data->stores[1]);
  g_clear_pointer (&data->renames, g_hash_table_unref);
  g_free (data);
}

/* What the worker hands back */
typedef struct
{
  PsRunDiff      *diff;
  PsCallTreeDiff *call_diff;
  GHashTable     *values[2];
} DiffResult;

static void
diff_result_free (DiffResult *result)
{
  g_clear_pointer (&result->diff, ps_run_diff_free);
  g_clear_object (&result->call_diff);
  g_clear_pointer (&result->values[0], g_hash_table_unref);
  g_clear_pointer (&result->values[1], g_hash_table_unref);
  g_free (result);
}

/* The readings of every counter track that have a value, by the row the
 * diff makes of the track (its path) */
static void
collect_counter_values (PsEventStore *store,
                        gint64        session,
                        GHashTable   *values)
{
  guint n_tracks = ps_event_store_get_n_tracks (store);
  guint64 n_readings = ps_event_store_get_n_counter_values (store);
  g_autofree GArray **by_track = g_new0 (GArray *, MAX (n_tracks, 1));

  for (guint32 t = 0; t < n_tracks; t++)
    {
      const PsTrack *track = ps_event_store_get_track (store, t);
      g_autofree char *path = NULL;
      g_autofree char *key = NULL;

      if (track->kind != PS_TRACK_COUNTER || (session >= 0 && track->session != session))
        continue;
      path = ps_run_diff_dup_counter_path (store, track);
      key = values_key ("counter", NULL, path);
      by_track[t] = g_hash_table_lookup (values, key);
      if (by_track[t] == NULL)
        {
          by_track[t] = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (values, g_steal_pointer (&key), by_track[t]);
        }
    }

  for (guint64 i = 0; i < n_readings; i++)
    {
      const PsCounterValue *reading = ps_event_store_get_counter_value (store, i);

      if (reading->track < n_tracks && by_track[reading->track] != NULL
          && !(reading->flags & PS_COUNTER_FLAG_MISSING) && !isnan (reading->value))
        g_array_append_val (by_track[reading->track], reading->value);
    }
}

/* Every series' and counter's values, as ps_run_diff_new () pools them
 * into rows */
static GHashTable *
collect_values (PsEventStore *store,
                gint64        session,
                GCancellable *cancellable)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
  PsSeriesOptions options = { 0 };
  g_autoptr(GPtrArray) all_series = NULL;

  options.group_by_name = TRUE;
  options.cancellable = cancellable;
  all_series = ps_series_collect (store, &options);
  for (guint i = 0; i < all_series->len; i++)
    {
      const PsSeries *series = g_ptr_array_index (all_series, i);
      g_autofree char *key = NULL;
      GArray *array;

      if (session >= 0 && series->session != session)
        continue;
      key = values_key (ps_series_kind_to_string (series->kind), series->context, series->name);
      array = g_hash_table_lookup (values, key);
      if (array == NULL)
        {
          array = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (values, g_steal_pointer (&key), array);
        }
      g_array_append_vals (array, series->values->data, series->values->len);
    }
  collect_counter_values (store, session, values);
  return values;
}

static void
diff_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DiffTaskData *data = task_data;
  DiffResult *result = g_new0 (DiffResult, 1);
  PsRunDiffOptions options;

  options = data->options;
  options.renames = data->renames;
  options.cancellable = cancellable;
  result->diff = ps_run_diff_new (data->stores[0], data->stores[1], &options);

  /* The trees as the run pages show them: a module without symbols is
   * one frame named after it */
  if (result->diff != NULL)
    result->call_diff = ps_call_tree_diff_new_for_stores (data->stores[0], data->stores[1], cancellable);

  for (guint side = 0; side < 2 && !g_cancellable_is_cancelled (cancellable); side++)
    result->values[side] = collect_values (data->stores[side], side == 0 ? options.session_a : options.session_b,
                                           cancellable);

  if (g_task_return_error_if_cancelled (task))
    diff_result_free (result);
  else
    g_task_return_pointer (task, result, (GDestroyNotify)diff_result_free);
}

static void
diff_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  PsComparePage *self = PS_COMPARE_PAGE (object);
  DiffTaskData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  DiffResult *computed;
  PsRunDiff *diff;

  computed = g_task_propagate_pointer (G_TASK (result), &error);
  if (computed == NULL)
    return;  /* cancelled */

  /* Replaced by a later comparison, or the page was closed meanwhile */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result)))
      || data->stores[0] != self->diffed_stores[0] || data->stores[1] != self->diffed_stores[1])
    {
      diff_result_free (computed);
      return;
    }

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->diff, ps_run_diff_free);
  diff = self->diff = g_steal_pointer (&computed->diff);
  for (guint side = 0; side < 2; side++)
    {
      g_clear_pointer (&self->values[side], g_hash_table_unref);
      self->values[side] = g_steal_pointer (&computed->values[side]);
    }
  if (computed->call_diff != self->call_diff)
    {
      g_clear_object (&self->call_diff);
      self->call_diff = g_steal_pointer (&computed->call_diff);
      update_flame_graph (self);
    }
  diff_result_free (computed);

  {
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint i = 0; i < diff->rows->len; i++)
      g_ptr_array_add (items, ps_compare_row_new (g_ptr_array_index (diff->rows, i)));
    g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                         items->pdata, items->len);
  }

  set_ready (self, TRUE);
  gtk_spinner_set_spinning (self->spinner, FALSE);
  /* Filters and search are for a table, which runs sharing no row have
   * not until the user asks for it */
  if (!has_matched_rows (diff) && !self->list_unmatched)
    {
      update_unmatched (self);
      gtk_stack_set_visible_child_name (self->table_stack, "unmatched");
      gtk_widget_set_visible (self->table_toolbar, FALSE);
    }
  else
    {
      gtk_stack_set_visible_child_name (self->table_stack, "table");
      gtk_widget_set_visible (self->table_toolbar, TRUE);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-csv", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.copy-markdown", TRUE);
  update_header (self);
  update_basis_note (self);
  update_status (self);
}

/* The differential flame graph, next to the table, when both runs have
 * a call tree */
static void
update_flame_graph (PsComparePage *self)
{
  gboolean has_graph = self->call_diff != NULL;

  if (has_graph)
    {
      g_autofree char *text = NULL;
      guint only_b = ps_call_tree_diff_get_n_only_in_b_nodes (self->call_diff);
      guint only_a = ps_call_tree_diff_get_n_only_in_a_nodes (self->call_diff);

      ps_flame_graph_set_baseline (self->flame_graph, self->call_diff);
      /* Translators: above the differential flame graph; the numbers are
       * call paths found in one run only */
      text = g_strdup_printf (_("Run B’s calls, coloured by the change of their share of the run against A: "
                                "red spends more, blue less. %u call paths only in B, %u only in A."),
                              only_b, only_a);
      gtk_label_set_text (self->flame_label, text);
    }
  else
    {
      ps_flame_graph_set_baseline (self->flame_graph, NULL);
      ps_flame_graph_set_tree (self->flame_graph, NULL);
      gtk_stack_set_visible_child_name (self->view_stack, "table");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), has_graph);
}

static void
start_diff (PsComparePage *self)
{
  g_autoptr(GTask) task = NULL;
  DiffTaskData *data = g_new0 (DiffTaskData, 1);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  for (guint side = 0; side < 2; side++)
    {
      g_set_object (&self->diffed_stores[side], ps_run_page_get_store (self->run_pages[side]));
      data->stores[side] = g_object_ref (self->diffed_stores[side]);
    }
  data->options = self->options;
  if (g_hash_table_size (self->renames) > 0)
    {
      GHashTableIter iter;
      gpointer key, value;

      data->renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_iter_init (&iter, self->renames);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_hash_table_insert (data->renames, g_strdup (key), g_strdup (value));
    }

  show_busy (self, _("Comparing the runs…"));
  task = g_task_new (self, self->cancellable, diff_cb, NULL);
  g_task_set_source_tag (task, start_diff);
  g_task_set_task_data (task, data, (GDestroyNotify)diff_task_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, diff_thread);
}

static gboolean
is_read (PsRunPageState state)
{
  return state == PS_RUN_PAGE_LOADED || state == PS_RUN_PAGE_PARTIAL;
}

static void
run_state_changed_cb (PsComparePage *self)
{
  PsRunPageState states[2];

  for (guint side = 0; side < 2; side++)
    {
      states[side] = ps_run_page_get_state (self->run_pages[side]);
      watch_session (self, side);
    }
  update_align (self);
  update_side_names (self);

  /* A run that could not be read, or a session its file does not have:
   * nothing to compare */
  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *text = NULL;

      if (states[side] == PS_RUN_PAGE_FAILED)
        /* Translators: %s is a file name */
        text = g_strdup_printf (_("“%s” could not be read, so there is nothing to compare. Its error is shown below."),
                                ps_run_page_get_title (self->run_pages[side]));
      else if (states[side] == PS_RUN_PAGE_CANCELLED)
        /* Translators: %s is a file name */
        text = g_strdup_printf (_("Loading “%s” was cancelled, so there is nothing to compare."),
                                ps_run_page_get_title (self->run_pages[side]));
      else if (is_read (states[side]))
        text = ps_compare_side_dup_missing (self->run_pages[side], self->chosen_sessions[side]);

      if (text != NULL)
        {
          g_cancellable_cancel (self->cancellable);
          g_clear_object (&self->cancellable);
          gtk_spinner_set_spinning (self->spinner, FALSE);
          gtk_label_set_text (self->failed_label, text);
          gtk_stack_set_visible_child_name (self->table_stack, "failed");
          return;
        }
    }

  if (is_read (states[0]) && is_read (states[1]))
    {
      if (ps_run_page_get_store (self->run_pages[0]) != self->diffed_stores[0]
          || ps_run_page_get_store (self->run_pages[1]) != self->diffed_stores[1])
        {
          set_ready (self, FALSE);
          start_diff (self);
        }
      /* Both timelines start from the same range */
      sync_range (self, 0);
      return;
    }

  set_ready (self, FALSE);
  show_busy (self, _("Loading both runs…"));
}

/* Export */

static GPtrArray *
shown_rows (PsComparePage *self)
{
  GListModel *model = G_LIST_MODEL (self->sorted);
  guint n_items = g_list_model_get_n_items (model);
  GPtrArray *rows = g_ptr_array_new_full (n_items, g_object_unref);

  for (guint i = 0; i < n_items; i++)
    g_ptr_array_add (rows, g_list_model_get_item (model, i));
  return rows;
}

static void
append_shown_csv (PsComparePage *self,
                  GString       *out)
{
  g_autoptr(GPtrArray) items = shown_rows (self);
  g_autofree const PsRunDiffRow **rows = g_new0 (const PsRunDiffRow *, items->len + 1);

  for (guint i = 0; i < items->len; i++)
    rows[i] = ps_compare_row_get_row (g_ptr_array_index (items, i));
  ps_compare_export_csv (out, rows, items->len);
}

/* The table's menu and win.export-table write the same CSV as Export */
static void
write_table_csv (GtkColumnView *view,
                 GString       *out,
                 gpointer       user_data)
{
  append_shown_csv (PS_COMPARE_PAGE (user_data), out);
}

char *
ps_compare_page_dup_csv (PsComparePage *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);

  append_shown_csv (self, out);
  return g_string_free (out, FALSE);
}

char *
ps_compare_page_dup_markdown (PsComparePage *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_COMPARE_PAGE (self), NULL);

  if (self->diff != NULL)
    ps_compare_export_markdown (out,
                                self->side_names[0],
                                self->side_names[1],
                                self->diff->matched,
                                (const PsRunDiffRow * const *)self->diff->rows->pdata,
                                self->diff->rows->len,
                                MARKDOWN_MAX_ROWS);
  return g_string_free (out, FALSE);
}

typedef struct
{
  PsComparePage *page;
  GFile         *file;
} CsvSave;

static void
save_csv_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  CsvSave *save = user_data;
  g_autoptr(GError) error = NULL;

  if (!ps_file_output_replace_contents_finish (result, &error))
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (save->page));

      if (GTK_IS_WINDOW (root))
        ps_view_show_write_error (GTK_WINDOW (root), _("Could Not Export the Comparison"), save->file, error);
    }
  else
    ps_view_announce_saved (GTK_WIDGET (save->page), save->file);
  g_object_unref (save->page);
  g_object_unref (save->file);
  g_free (save);
}

static void
save_csv_to (PsComparePage *self,
             GFile         *file)
{
  char *csv = ps_compare_page_dup_csv (self);
  g_autoptr(GBytes) contents = g_bytes_new_take (csv, strlen (csv));
  CsvSave *save = g_new0 (CsvSave, 1);

  save->page = g_object_ref (self);
  save->file = g_object_ref (file);
  ps_file_output_replace_contents_async (file, contents, NULL, save_csv_cb, save);
}

static void
csv_file_chosen_cb (GFile    *file,
                    gpointer  user_data)
{
  save_csv_to (PS_COMPARE_PAGE (user_data), file);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PsComparePage *self = PS_COMPARE_PAGE (widget);
  g_autoptr(GFile) folder = ps_save_location_folder (widget);
  g_autofree char *name = ps_save_location_name (widget, NULL, "csv");
  GtkRoot *root = gtk_widget_get_root (widget);

  ps_save_location_choose_file (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _("Export Comparison as CSV"),
                                _("_Export"), folder, name, NULL, csv_file_chosen_cb, g_object_ref (self), g_object_unref);
}

static void
copy_markdown_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  g_autofree char *markdown = ps_compare_page_dup_markdown (PS_COMPARE_PAGE (widget));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), markdown);
}

/* Matching renamed rows by hand */

void
ps_compare_page_match_rows (PsComparePage *self,
                            const char    *a_name,
                            const char    *b_name)
{
  g_return_if_fail (PS_IS_COMPARE_PAGE (self));
  g_return_if_fail (a_name != NULL && b_name != NULL);

  g_hash_table_replace (self->renames, g_strdup (a_name), g_strdup (b_name));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.clear-matches", TRUE);
  if (self->diffed_stores[0] != NULL && self->diffed_stores[1] != NULL)
    {
      set_ready (self, FALSE);
      start_diff (self);
    }
}

static void
clear_matches_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PsComparePage *self = PS_COMPARE_PAGE (widget);

  g_hash_table_remove_all (self->renames);
  gtk_widget_action_set_enabled (widget, "compare.clear-matches", FALSE);
  if (self->diffed_stores[0] != NULL && self->diffed_stores[1] != NULL)
    {
      set_ready (self, FALSE);
      start_diff (self);
    }
}

static void
match_activated_cb (GtkListBox    *list,
                    GtkListBoxRow *list_row,
                    GtkWindow     *dialog)
{
  PsComparePage *self = g_object_get_data (G_OBJECT (dialog), "ps-page");
  const char *a_name = g_object_get_data (G_OBJECT (dialog), "ps-a-name");
  const char *b_name = g_object_get_data (G_OBJECT (list_row), "ps-b-name");

  ps_compare_page_match_rows (self, a_name, b_name);
  gtk_window_destroy (dialog);
}

static void
match_clicked_cb (GtkWindow *dialog)
{
  GtkListBox *list = g_object_get_data (G_OBJECT (dialog), "ps-list");
  GtkListBoxRow *list_row = gtk_list_box_get_selected_row (list);

  if (list_row != NULL)
    match_activated_cb (list, list_row, dialog);
}

/* "Match With…": a row of A only is paired with a row of B only, chosen
 * from a list of those */
static void
match_with_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PsComparePage *self = PS_COMPARE_PAGE (widget);
  PsCompareRow *item = gtk_single_selection_get_selected_item (self->selection);
  const PsRunDiffRow *row = item != NULL ? ps_compare_row_get_row (item) : NULL;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *dialog, *header, *cancel, *match, *box, *label, *scrolled, *list;
  g_autofree char *text = NULL;

  if (row == NULL || !row->has_a || row->has_b || self->diff == NULL)
    return;

  dialog = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (dialog), _("Match With"));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 420, 420);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (root));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);

  header = gtk_header_bar_new ();
  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  match = gtk_button_new_with_mnemonic (_("_Match"));
  gtk_widget_add_css_class (match, "suggested-action");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), match);
  gtk_window_set_titlebar (GTK_WINDOW (dialog), header);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  /* Translators: %s is the name of a row of run A only */
  text = g_strdup_printf (_("Which row of run B is “%s” of run A, renamed?"), row->name);
  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);

  list = gtk_list_box_new ();
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Rows of run B only"), -1);
  for (guint i = 0; i < self->diff->rows->len; i++)
    {
      const PsRunDiffRow *other = g_ptr_array_index (self->diff->rows, i);
      GtkWidget *list_row, *name;

      if (!other->has_b || other->has_a)
        continue;
      name = gtk_label_new (other->name);
      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_tooltip_text (name, other->name);
      gtk_widget_set_margin_start (name, 6);
      gtk_widget_set_margin_end (name, 6);
      gtk_widget_set_margin_top (name, 6);
      gtk_widget_set_margin_bottom (name, 6);
      list_row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (list_row), name);
      g_object_set_data_full (G_OBJECT (list_row), "ps-b-name", g_strdup (other->name), g_free);
      gtk_list_box_append (GTK_LIST_BOX (list), list_row);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_window_set_child (GTK_WINDOW (dialog), box);

  g_object_set_data_full (G_OBJECT (dialog), "ps-page", g_object_ref (self), g_object_unref);
  g_object_set_data_full (G_OBJECT (dialog), "ps-a-name", g_strdup (row->name), g_free);
  g_object_set_data (G_OBJECT (dialog), "ps-list", list);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), dialog);
  g_signal_connect_swapped (match, "clicked", G_CALLBACK (match_clicked_cb), dialog);
  g_signal_connect (list, "row-activated", G_CALLBACK (match_activated_cb), dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Columns */

static void
add_columns (PsComparePage *self)
{
  for (Column column = 0; column < N_COLUMNS; column++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) view_column = NULL;
      g_autoptr(GtkSorter) sorter = NULL;

      g_object_set_data (G_OBJECT (factory), "ps-column", GUINT_TO_POINTER (column));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), self);

      view_column = gtk_column_view_column_new (_(columns[column].title), factory);
      gtk_column_view_column_set_resizable (view_column, TRUE);
      if (column == COL_NAME)
        gtk_column_view_column_set_expand (view_column, TRUE);
      if (column == COL_WHY)
        gtk_column_view_column_set_fixed_width (view_column, WHY_COLUMN_WIDTH);
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows_cb, GUINT_TO_POINTER (column), NULL));
      gtk_column_view_column_set_sorter (view_column, sorter);
      gtk_column_view_append_column (self->column_view, view_column);
      self->column_widgets[column] = view_column;
    }
}

/* Each side's name in the header and above its run: the file's, or the
 * session's with the number of sessions once the file is read */
static void
update_side_names (PsComparePage *self)
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
run_close_requested_cb (PsComparePage *self)
{
  g_signal_emit (self, signals[CLOSE_REQUESTED], 0);
}

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
                               G_CALLBACK (run_state_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->run_pages[side], "close-requested",
                               G_CALLBACK (run_close_requested_cb), self, G_CONNECT_SWAPPED);
    }

  self->options.session_a = self->chosen_sessions[0];
  self->options.session_b = self->chosen_sessions[1];
  self->title = ps_compare_side_dup_tab_title (self->run_pages[0], self->chosen_sessions[0],
                                               self->run_pages[1], self->chosen_sessions[1]);
  update_side_names (self);
  update_header (self);
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
  widget_class->measure = ps_compare_page_measure;
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

  /**
   * PsComparePage::close-requested:
   *
   * The user asked to close the comparison (the Close button of a run
   * that could not be read).
   */
  signals[CLOSE_REQUESTED] =
    g_signal_new ("close-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (PS_TYPE_RUN_PAGE);
  g_type_ensure (PS_TYPE_FLAME_GRAPH);
  g_type_ensure (PS_TYPE_HISTOGRAM_VIEW);
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

  gtk_widget_class_install_action (widget_class, "compare.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "compare.copy-markdown", NULL, copy_markdown_action);
  gtk_widget_class_install_action (widget_class, "compare.match-with", NULL, match_with_action);
  gtk_widget_class_install_action (widget_class, "compare.clear-matches", NULL, clear_matches_action);

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
    g_signal_connect_object (filters[i], "toggled", G_CALLBACK (filter_toggled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->offset_spin, "value-changed", G_CALLBACK (offset_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stacked_button, "toggled", G_CALLBACK (layout_toggled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->same_scale_button, "toggled", G_CALLBACK (update_same_scale), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->min_change_spin, "value-changed", G_CALLBACK (min_change_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->unmatched_button, "clicked", G_CALLBACK (unmatched_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_css_class (GTK_WIDGET (self->runs_box), "side-by-side");
  for (guint side = 0; side < 2; side++)
    {
      GtkDropDown *dropdown = side == 0 ? self->align_a_dropdown : self->align_b_dropdown;

      self->align_times[side] = g_array_new (FALSE, FALSE, sizeof (gint64));
      set_align_factories (dropdown);
      /* Long lists of messages are searched by their text */
      gtk_drop_down_set_expression (dropdown, gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
      gtk_drop_down_set_enable_search (dropdown, TRUE);
      g_signal_connect_object (dropdown, "notify::selected", G_CALLBACK (align_changed_cb), self, G_CONNECT_SWAPPED);
    }
  update_align (self);

  add_columns (self);

  self->rows = g_list_store_new (PS_TYPE_COMPARE_ROW);
  self->filter = gtk_custom_filter_new (filter_row_cb, self, NULL);
  self->filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->rows)),
                                              g_object_ref (GTK_FILTER (self->filter)));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  /* Above the tables of the two runs shown beside it */
  ps_table_export_attach_with_writer (self->column_view, "comparison", 2, write_table_csv, self);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (selected_row_changed_cb), self, G_CONNECT_SWAPPED);

  /* Worst first until the user sorts */
  gtk_column_view_sort_by_column (self->column_view, self->column_widgets[COL_CHANGE], GTK_SORT_ASCENDING);

  ps_view_place_paned (self->paned, "compare", 0.45, 0);
  ps_view_whole_text_in_tooltips (GTK_WIDGET (self));
  show_busy (self, _("Loading both runs…"));
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

  set_ready (self, FALSE);
  g_clear_object (&self->diffed_stores[0]);
  g_clear_object (&self->diffed_stores[1]);
  show_busy (self, _("Loading both runs…"));
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
  search_changed_cb (self, self->search_entry);
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
  apply_layout (self);
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

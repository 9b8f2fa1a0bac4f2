/* ps-trend-page.c — many runs in order, and where each row changed
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md "trend", the same numbers as perfscope-cli trend. The
 * files are read in a thread (ps-trend-loader.h) with progress and a
 * Cancel; a file that cannot be read is listed with its reason and the
 * others are trended. The rows are listed by their largest change; the
 * chosen row's chart shows its value per run and its change points. A
 * point opens its run, a change point the comparison of the run before
 * it with the run after ("open-run", "compare-runs", which the window
 * handles). Changing the order, the value or the least change trends the
 * runs again, in a thread, without reading them again.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-task-util.h"
#include "ps-trend-loader.h"
#include "ps-trend-page.h"
#include "ps-trend-row.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-wrap-box.h"

/* The least change the page starts with, as perfscope-cli trend's */
#define DEFAULT_MIN_CHANGE 0.05

typedef enum
{
  COL_NAME,
  COL_KIND,
  COL_UNIT,
  COL_RUNS,
  COL_CHANGE,
  N_COLUMNS
} Column;

/* The runs read, shared with the thread that trends them again: the
 * page may read other files meanwhile */
typedef struct
{
  PsTrendInputs *inputs;
} Held;

static void
held_clear (gpointer data)
{
  g_clear_pointer (&((Held *)data)->inputs, ps_trend_inputs_free);
}

static Held *
held_new (PsTrendInputs *inputs)
{
  Held *held = g_atomic_rc_box_new0 (Held);

  held->inputs = inputs;
  return held;
}

static void
held_release (Held *held)
{
  g_atomic_rc_box_release_full (held, held_clear);
}

struct _PsTrendPage
{
  GtkWidget           parent_instance;

  GPtrArray          *files;          /* GFile*: as given, folders too */
  char               *title;

  /* Template widgets */
  GtkStack           *stack;
  GtkSpinner         *spinner;
  GtkLabel           *loading_label;
  GtkProgressBar     *progress_bar;
  AdwStatusPage      *error_page;
  GtkDropDown        *order_dropdown;
  GtkDropDown        *value_dropdown;
  GtkSpinButton      *min_change_spin;
  GtkLabel           *summary_label;
  GtkExpander        *problems_expander;
  GtkLabel           *problems_label;
  GtkPaned           *paned;
  GtkColumnView      *rows_view;
  GtkLabel           *row_title;
  PsTrendChart       *chart;
  GtkLabel           *hint_label;
  GtkListBox         *change_list;

  GListStore         *rows;           /* PsTrendRowItem */
  GtkSingleSelection *selection;

  PsTrendOptions      options;
  Held               *held;           /* the runs read, kept to trend again */
  PsTrend            *trend;          /* its runs point into held's runs */
  GCancellable       *cancellable;    /* reading or trending */
  gboolean            busy;
  gboolean            syncing;        /* controls set from the options */

  /* Progress from the reading thread, through one idle at a time */
  GMutex              progress_lock;
  double              progress_fraction;
  char               *progress_file;
  gboolean            progress_pending;
};

enum {
  OPEN_RUN,
  COMPARE_RUNS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PsTrendPage, ps_trend_page, GTK_TYPE_WIDGET)

static void show_row (PsTrendPage *self);

static const char *
value_title (PsTrendValue value)
{
  switch (value)
    {
    case PS_TREND_VALUE_P95:   return _("95th percentile");
    case PS_TREND_VALUE_TOTAL: return _("Total");
    case PS_TREND_VALUE_MEDIAN:
    default:                   return _("Median");
    }
}

static const char *
order_phrase (PsTrendOrder order)
{
  switch (order)
    {
    /* Translators: completes "20 runs by …" */
    case PS_TREND_BY_VERSION: return _("by version and build");
    case PS_TREND_BY_NAME:    return _("by file name");
    case PS_TREND_BY_TIME:
    default:                  return _("by time");
    }
}

static const char *
kind_name (const char *kind)
{
  static const struct { const char *kind; const char *name; } names[] = {
    { "duration", N_("Duration") },
    { "cpu", N_("CPU") },
    { "memory", N_("Memory") },
    { "span", N_("Scope") },
    { "counter", N_("Counter") },
    { "function", N_("Function") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (kind, names[i].kind) == 0)
      return _(names[i].name);
  return kind;
}

static char *
row_name (const PsTrendRow *row)
{
  /* A CE marker registered without a description, as the CE view names it */
  g_autofree char *name = row->name != NULL && row->name[0] != '\0' ? ps_view_series_name (row->name) : g_strdup (_("(no description)"));

  if (row->context == NULL)
    return g_steal_pointer (&name);
  {
    g_autofree char *context = ps_util_display_text (row->context, -1);

    /* Translators: a scope's name and its context: "Load (Writer)" */
    return g_strdup_printf (_("%s (%s)"), name, context);
  }
}

/* Cells */

static char *
cell_text (PsTrendRowItem *item,
           Column          column)
{
  const PsTrendRow *row = ps_trend_row_get_row (item);
  const PsChangePoint *largest;

  switch (column)
    {
    case COL_NAME:
      return row_name (row);
    case COL_KIND:
      return g_strdup (kind_name (row->kind));
    case COL_UNIT:
      return g_strdup (ps_trend_row_shown_unit (row));
    case COL_RUNS:
      return ps_view_format_count (row->n_values);
    case COL_CHANGE:
    default:
      largest = ps_trend_row_get_largest (item);
      if (largest == NULL)
        return g_strdup ("–");
      /* The unit is the column's */
      if (isinf (largest->relative_change))
        return g_strdup (largest->relative_change > 0 ? "+∞" : "−∞");
      return g_strdup_printf ("%s%.1f", largest->relative_change < 0 ? "−" : "+", fabs (100 * largest->relative_change));
    }
}

/* A cell's tooltip, made when asked for: a row's whole name, or what
 * its largest change means */
static char *
cell_tooltip (gpointer item,
              guint    column,
              gpointer user_data)
{
  g_autofree char *text = cell_text (item, column);
  const PsChangePoint *largest;

  if (column == COL_NAME)
    return g_steal_pointer (&text);
  largest = ps_trend_row_get_largest (item);
  if (largest == NULL)
    return NULL;
  /* Translators: the tooltip of a row's largest change: "+19.9 %: worse" */
  return g_strdup_printf (_("%s: %s"), text, ps_trend_change_word (ps_trend_row_get_row (item), largest->relative_change));
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "ps-column"));
  GtkWidget *label = ps_view_cell_label_new (column == COL_RUNS || column == COL_CHANGE);

  if (column == COL_NAME || column == COL_CHANGE)
    ps_view_cell_set_tooltip (label, list_item, column, cell_tooltip, NULL);
  if (column == COL_NAME)
    {
      /* Names that differ in their middle, such as a CE marker's
       * "Test=WriteFile,Bytes=65536,time=%AVG%" beside its siblings, stay
       * told apart on a laptop's screen: a second line before the cut,
       * without a hyphen the name does not have */
      g_autoptr(PangoAttrList) attributes = pango_attr_list_new ();

      pango_attr_list_insert (attributes, pango_attr_insert_hyphens_new (FALSE));
      gtk_label_set_attributes (GTK_LABEL (label), attributes);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_lines (GTK_LABEL (label), 2);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
    }
  if (column == COL_CHANGE)
    gtk_widget_add_css_class (label, "change-cell");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  static const char *classes[] = { "regression", "improvement", "changed" };
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "ps-column"));
  PsTrendRowItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = cell_text (item, column);

  if (column == COL_NAME)
    {
      GString *shown = g_string_new (text);

      /* A name wraps after a comma of its list (a zero-width space) rather
       * than inside a number: "Test=WriteFile,Bytes=51" above
       * "2,time=%AVG%" would read as 51 */
      g_string_replace (shown, ",", ",\xe2\x80\x8b", 0);
      g_free (text);
      text = g_string_free (shown, FALSE);
    }
  gtk_label_set_text (GTK_LABEL (label), text);
  if (column == COL_CHANGE)
    {
      const PsChangePoint *largest = ps_trend_row_get_largest (item);

      for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
        gtk_widget_remove_css_class (label, classes[i]);
      if (largest != NULL)
        gtk_widget_add_css_class (label, ps_trend_change_class (ps_trend_row_get_row (item), largest->relative_change));
    }
}

static void
add_column (PsTrendPage *self,
            Column       column,
            const char  *title,
            gboolean     expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;

  g_object_set_data (G_OBJECT (factory), "ps-column", GUINT_TO_POINTER (column));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), self);
  view_column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (view_column, expand);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_append_column (self->rows_view, view_column);
  g_object_unref (view_column);
}

/* Links */

/* The file to open for a run: its log, or for a summary the log it sums
 * up when that lies next to it; NULL when there is none */
static GFile *
run_log_file (PsTrendPage        *self,
              const PsRunSummary *run)
{
  GFile *file = g_hash_table_lookup (self->held->inputs->files, run);
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GFile) parent = NULL;
  g_autoptr(GFile) log = NULL;

  if (file == NULL)
    return NULL;
  base = g_file_get_basename (file);
  name = g_filename_display_name (base);
  if (run->file == NULL || g_strcmp0 (name, run->file) == 0)
    return g_object_ref (file);

  parent = g_file_get_parent (file);
  log = parent != NULL ? g_file_get_child_for_display_name (parent, run->file, NULL) : NULL;
  if (log != NULL && g_file_query_exists (log, NULL))
    return g_steal_pointer (&log);
  return NULL;
}

static void
say_no_log (PsTrendPage        *self,
            const PsRunSummary *run)
{
  GFile *file = g_hash_table_lookup (self->held->inputs->files, run);
  g_autofree char *summary = file != NULL ? g_file_get_basename (file) : NULL;
  g_autofree char *text = NULL;

  /* Translators: a run read from a summary (perfscope-cli summarize) whose log is not next to it */
  text = g_strdup_printf (_("The log “%s” summed up in “%s” is not in the summary’s folder: put it there to open it."),
                          run->file != NULL ? run->file : "", summary != NULL ? summary : "");
  gtk_label_set_text (self->hint_label, text);
  gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
open_run (PsTrendPage *self,
          guint        run_index)
{
  const PsRunSummary *run;
  g_autoptr(GFile) file = NULL;

  g_return_if_fail (self->trend != NULL && run_index < self->trend->runs->len);

  run = g_ptr_array_index (self->trend->runs, run_index);
  file = run_log_file (self, run);
  if (file == NULL)
    {
      say_no_log (self, run);
      return;
    }
  g_signal_emit (self, signals[OPEN_RUN], 0, file, (int)run->session);
}

static const PsTrendRow *
selected_row (PsTrendPage *self)
{
  PsTrendRowItem *item = gtk_single_selection_get_selected_item (self->selection);

  return item != NULL ? ps_trend_row_get_row (item) : NULL;
}

static void
compare_across (PsTrendPage *self,
                guint        index)
{
  const PsTrendRow *row = selected_row (self);
  const PsChangePoint *point;
  const PsRunSummary *before, *after;
  g_autoptr(GFile) file_before = NULL;
  g_autoptr(GFile) file_after = NULL;

  g_return_if_fail (row != NULL && index < row->change_points->len);

  point = &g_array_index (row->change_points, PsChangePoint, index);
  before = g_ptr_array_index (self->trend->runs, ps_trend_row_get_run_before (row, point));
  after = g_ptr_array_index (self->trend->runs, point->index);
  file_before = run_log_file (self, before);
  file_after = run_log_file (self, after);
  if (file_before == NULL || file_after == NULL)
    {
      say_no_log (self, file_before == NULL ? before : after);
      return;
    }
  g_signal_emit (self, signals[COMPARE_RUNS], 0, file_before, (int)before->session, file_after, (int)after->session);
}

static void
run_activated_cb (PsTrendPage  *self,
                  guint         run_index,
                  PsTrendChart *chart)
{
  open_run (self, run_index);
}

static void
change_point_activated_cb (PsTrendPage  *self,
                           guint         index,
                           PsTrendChart *chart)
{
  compare_across (self, index);
}

static void
change_row_activated_cb (PsTrendPage   *self,
                         GtkListBoxRow *row,
                         GtkListBox    *list)
{
  compare_across (self, (guint)gtk_list_box_row_get_index (row));
}

static void
compare_clicked_cb (GtkButton *button,
                    gpointer   user_data)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);

  if (row != NULL)
    g_signal_emit_by_name (gtk_widget_get_parent (row), "row-activated", row);
}

/* The chosen row */

static GtkWidget *
change_point_row (PsTrendPage         *self,
                  const PsTrendRow    *row,
                  const PsChangePoint *point)
{
  const PsRunSummary *before = g_ptr_array_index (self->trend->runs, ps_trend_row_get_run_before (row, point));
  const PsRunSummary *after = g_ptr_array_index (self->trend->runs, point->index);
  g_autofree char *before_name = ps_trend_format_run (before);
  g_autofree char *after_name = ps_trend_format_run (after);
  g_autofree char *mean_before = ps_trend_format_value (point->mean_before, row->unit);
  g_autofree char *mean_after = ps_trend_format_value (point->mean_after, row->unit);
  g_autofree char *change = ps_trend_format_change (point->relative_change);
  g_autofree char *p_value = ps_trend_format_p_value (point->p_value);
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  GtkWidget *list_row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label;
  GtkWidget *chip;
  GtkWidget *button;

  /* Translators: a change point in the list under a trend chart: where it is, then the
   * means of the runs before and after it: "Run 13, run-13.log: mean 10.0 ms → 12.0 ms" */
  text = g_strdup_printf (_("Run %u, %s: mean %s → %s"), (guint)point->index + 1, after_name, mean_before, mean_after);
  label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_widget_set_hexpand (text_box, TRUE);

  /* Translators: a change point's change, what it is, and its significance: "+19.9 % worse, p < 0.001" */
  tooltip = g_strdup_printf (_("%s %s, %s"), change, ps_trend_change_word (row, point->relative_change), p_value);
  chip = gtk_label_new (tooltip);
  gtk_widget_add_css_class (chip, "change-cell");
  gtk_widget_add_css_class (chip, ps_trend_change_class (row, point->relative_change));
  g_clear_pointer (&tooltip, g_free);

  button = gtk_button_new_with_mnemonic (_("_Compare"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  /* Translators: the tooltip of a change point's Compare button: the run before and the run after */
  tooltip = g_strdup_printf (_("Compare %s with %s, the runs on each side of the change"), before_name, after_name);
  gtk_widget_set_tooltip_text (button, tooltip);
  g_signal_connect (button, "clicked", G_CALLBACK (compare_clicked_cb), NULL);

  gtk_label_set_xalign (GTK_LABEL (chip), 0);
  /* Where and how much, one above the other: narrow enough for a laptop */
  gtk_box_append (GTK_BOX (text_box), label);
  gtk_box_append (GTK_BOX (text_box), chip);
  gtk_box_append (GTK_BOX (box), text_box);
  gtk_box_append (GTK_BOX (box), button);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (list_row), box);
  return list_row;
}

static void
show_row (PsTrendPage *self)
{
  const PsTrendRow *row = self->trend != NULL ? selected_row (self) : NULL;
  GtkWidget *child;

  {
    g_autofree char *runs_title = NULL;

    if (self->trend != NULL)
      /* Translators: the x axis of a trend chart: "20 runs by time (names in the tooltips)" */
      runs_title = g_strdup_printf (ngettext ("%u run %s (names in the tooltips)", "%u runs %s (names in the tooltips)",
                                              self->trend->runs->len),
                                    self->trend->runs->len, order_phrase (self->options.order));
    ps_trend_chart_set_row (self->chart, self->trend, row, value_title (self->options.value), runs_title);
  }
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->change_list))) != NULL)
    gtk_list_box_remove (self->change_list, child);
  gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->change_list), GTK_TYPE_SCROLLED_WINDOW),
                          row != NULL && row->change_points->len > 0);

  if (row == NULL)
    {
      gtk_label_set_text (self->row_title, "");
      gtk_label_set_text (self->hint_label, "");
      return;
    }

  {
    g_autofree char *name = row_name (row);
    g_autofree char *title = NULL;

    /* Translators: the chosen row over its trend chart: its name and kind: "Test=Write — Duration" */
    title = g_strdup_printf (_("%s — %s"), name, kind_name (row->kind));
    gtk_label_set_text (self->row_title, title);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->row_title), title);
  }
  for (guint i = 0; i < row->change_points->len; i++)
    gtk_list_box_append (self->change_list,
                         change_point_row (self, row, &g_array_index (row->change_points, PsChangePoint, i)));

  gtk_label_set_text (self->hint_label,
                      row->change_points->len > 0
                      ? _("Click a point, or move with ←/→ and press Enter, to open that run. A coloured line is a change point; the dashed lines are the means between change points. Click the line, or Compare, to compare the runs on each side. p is the chance that noise alone changes the mean so much.")
                      : _("Click a point, or move with ←/→ and press Enter, to open that run. No change point: the runs differ less than the least change, or not surely (p > 0.01)."));
}

static void
selection_changed_cb (PsTrendPage *self)
{
  show_row (self);
}

/* The trend */

static char *
row_key (const PsTrendRow *row)
{
  return g_strconcat (row->kind, "\x1f", row->unit, "\x1f", row->context != NULL ? row->context : "", "\x1f", row->name, NULL);
}

static void
show_trend (PsTrendPage *self,
            PsTrend     *trend)
{
  g_autoptr(PsTrend) old = g_steal_pointer (&self->trend);
  const PsTrendRow *previous = old != NULL ? selected_row (self) : NULL;
  g_autofree char *previous_key = previous != NULL ? row_key (previous) : NULL;
  g_autofree char *summary = NULL;
  guint select = 0;

  self->trend = trend;
  ps_trend_chart_set_row (self->chart, NULL, NULL, NULL, NULL);
  g_list_store_remove_all (self->rows);
  {
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint i = 0; i < trend->rows->len; i++)
      {
        const PsTrendRow *row = g_ptr_array_index (trend->rows, i);

        if (previous_key != NULL)
          {
            g_autofree char *key = row_key (row);

            if (strcmp (key, previous_key) == 0)
              select = i;
          }
        g_ptr_array_add (items, ps_trend_row_new (row));
      }
    g_list_store_splice (self->rows, 0, 0, items->pdata, items->len);
  }
  if (trend->rows->len > 0)
    gtk_single_selection_set_selected (self->selection, select);
  show_row (self);

  /* Translators: over the trend's rows: "20 runs by time: 3 of 40 rows changed" (the plural is the rows') */
  summary = g_strdup_printf (ngettext ("%u runs %s: %u of %u row changed",
                                       "%u runs %s: %u of %u rows changed", trend->rows->len),
                             trend->runs->len, order_phrase (self->options.order), ps_trend_count_changed (trend),
                             trend->rows->len);
  {
    g_autoptr(GHashTable) formats = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < trend->runs->len; i++)
      {
        const PsRunSummary *run = g_ptr_array_index (trend->runs, i);

        g_hash_table_add (formats, (gpointer)(run->origin != NULL ? run->origin : run->format != NULL ? run->format : ""));
      }
    if (g_hash_table_size (formats) > 1)
      {
        g_autofree char *plain = g_steal_pointer (&summary);

        /* Translators: after the trend's summary when its runs are logs of several formats */
        summary = g_strdup_printf (ngettext ("%s. The runs are of %u format: only rows of one name and kind are matched.",
                                             "%s. The runs are of %u formats: only rows of one name and kind are matched.",
                                             g_hash_table_size (formats)),
                                   plain, g_hash_table_size (formats));
      }
  }
  gtk_label_set_text (self->summary_label, summary);
  gtk_stack_set_visible_child_name (self->stack, "view");
}

/* Trends the runs read with the page's options, in the calling thread;
 * the runs stay in inputs */
static PsTrend *
make_trend (PsTrendInputs        *inputs,
            const PsTrendOptions *options)
{
  GPtrArray *runs = g_ptr_array_sized_new (inputs->runs->len);

  for (guint i = 0; i < inputs->runs->len; i++)
    g_ptr_array_add (runs, g_ptr_array_index (inputs->runs, i));
  return ps_trend_new (runs, options);
}

typedef struct
{
  Held           *held;
  PsTrendOptions  options;
} TrendData;

static void
trend_data_free (gpointer data)
{
  TrendData *trend_data = data;

  held_release (trend_data->held);
  g_free (trend_data);
}

static void
trend_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  TrendData *data = task_data;
  PsTrend *trend = make_trend (data->held->inputs, &data->options);

  if (g_task_return_error_if_cancelled (task))
    ps_trend_free (trend);
  else
    g_task_return_pointer (task, trend, (GDestroyNotify)ps_trend_free);
}

static void
trend_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  PsTrendPage *self = PS_TREND_PAGE (object);
  PsTrend *trend = g_task_propagate_pointer (G_TASK (result), NULL);

  /* A newer trend or reading was asked for, or the page went */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&trend, ps_trend_free);
      return;
    }
  if (trend == NULL)
    return;
  self->busy = FALSE;
  g_clear_object (&self->cancellable);
  show_trend (self, trend);
}

static void
retrend (PsTrendPage *self)
{
  g_autoptr(GTask) task = NULL;
  TrendData *data;

  if (self->held == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->busy = TRUE;

  task = g_task_new (self, self->cancellable, trend_done_cb, NULL);
  g_task_set_source_tag (task, retrend);
  data = g_new0 (TrendData, 1);
  data->held = g_atomic_rc_box_acquire (self->held);
  data->options = self->options;
  g_task_set_task_data (task, data, trend_data_free);
  ps_task_run_in_background (task, trend_thread);
}

static gboolean
options_equal (const PsTrendOptions *a,
               const PsTrendOptions *b)
{
  return a->order == b->order && a->value == b->value
         && a->detection.min_magnitude == b->detection.min_magnitude
         && a->detection.max_p_value == b->detection.max_p_value && a->detection.window == b->detection.window;
}

static void
sync_controls (PsTrendPage *self)
{
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->order_dropdown, self->options.order);
  gtk_drop_down_set_selected (self->value_dropdown, self->options.value);
  gtk_spin_button_set_value (self->min_change_spin, 100 * self->options.detection.min_magnitude);
  self->syncing = FALSE;
}

static void
controls_changed_cb (PsTrendPage *self)
{
  if (self->syncing)
    return;
  ps_trend_page_set_options (self,
                             gtk_drop_down_get_selected (self->order_dropdown),
                             gtk_drop_down_get_selected (self->value_dropdown),
                             gtk_spin_button_get_value (self->min_change_spin) / 100);
}

/* Reading */

static gboolean
progress_idle_cb (gpointer data)
{
  PsTrendPage *self = data;
  g_autofree char *file = NULL;
  double fraction;

  g_mutex_lock (&self->progress_lock);
  self->progress_pending = FALSE;
  fraction = self->progress_fraction;
  file = g_steal_pointer (&self->progress_file);
  g_mutex_unlock (&self->progress_lock);

  if (!self->busy || self->held != NULL)
    return G_SOURCE_REMOVE;
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  if (file != NULL)
    {
      /* Translators: while a trend's files are read; %s is a file name */
      g_autofree char *text = g_strdup_printf (_("Reading %s…"), file);

      gtk_label_set_text (self->loading_label, text);
    }
  return G_SOURCE_REMOVE;
}

/* In the reading thread */
static void
progress_cb (double      fraction,
             const char *file_name,
             gpointer    user_data)
{
  PsTrendPage *self = user_data;

  g_mutex_lock (&self->progress_lock);
  self->progress_fraction = fraction;
  if (file_name != NULL)
    {
      g_free (self->progress_file);
      self->progress_file = g_strdup (file_name);
    }
  if (!self->progress_pending)
    {
      self->progress_pending = TRUE;
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, progress_idle_cb, g_object_ref (self), g_object_unref);
    }
  g_mutex_unlock (&self->progress_lock);
}

typedef struct
{
  PsTrendInputs  *inputs;
  PsTrend        *trend;
  PsTrendOptions  options;
} ReadResult;

static void
read_result_free (gpointer data)
{
  ReadResult *result = data;

  /* The trend's runs are the inputs' */
  g_clear_pointer (&result->trend, ps_trend_free);
  g_clear_pointer (&result->inputs, ps_trend_inputs_free);
  g_free (result);
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  PsTrendPage *self = source_object;
  ReadResult *result = task_data;
  GError *error = NULL;

  result->inputs = ps_trend_inputs_read ((GFile * const *)self->files->pdata, self->files->len, cancellable,
                                         progress_cb, self, &error);
  if (result->inputs == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  result->trend = make_trend (result->inputs, &result->options);
  g_task_return_boolean (task, TRUE);
}

static void
show_problems (PsTrendPage *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GPtrArray *problems = self->held->inputs->problems;
  guint n_unread = 0;
  g_autofree char *title = NULL;

  for (guint i = 0; i < problems->len; i++)
    {
      const PsTrendProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *name = g_file_get_parse_name (problem->file);

      n_unread += !problem->partial;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* Translators: a file of a trend that could not be read, or only in part: "run-3.log: not a log" */
      g_string_append_printf (text, problem->partial ? _("%s (read in part): %s") : _("%s: %s"), name, problem->message);
    }
  gtk_label_set_text (self->problems_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->problems_expander), problems->len > 0);
  if (n_unread > 0)
    /* Translators: over the list of files a trend could not read */
    title = g_strdup_printf (ngettext ("%u file could not be read and is left out",
                                       "%u files could not be read and are left out", n_unread), n_unread);
  else
    title = g_strdup_printf (ngettext ("%u file was read only in part",
                                       "%u files were read only in part", problems->len), problems->len);
  gtk_expander_set_label (self->problems_expander, title);
}

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  PsTrendPage *self = PS_TREND_PAGE (object);
  ReadResult *read = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  gboolean read_whole = g_task_propagate_boolean (G_TASK (result), &error);

  /* Other files are read now, or the page went */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  self->busy = FALSE;
  g_clear_object (&self->cancellable);
  gtk_spinner_stop (self->spinner);
  if (!read_whole)
    {
      /* Only a cancel stops the reading: a file that fails is a problem */
      adw_status_page_set_title (self->error_page, _("Reading Cancelled"));
      adw_status_page_set_description (self->error_page, _("The runs were not trended."));
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }

  self->held = held_new (g_steal_pointer (&read->inputs));
  show_problems (self);

  if (self->held->inputs->runs->len == 0)
    {
      g_clear_pointer (&read->trend, ps_trend_free);
      adw_status_page_set_title (self->error_page, _("No Runs to Trend"));
      adw_status_page_set_description (self->error_page,
                                       self->held->inputs->problems->len > 0
                                       ? gtk_label_get_text (self->problems_label)
                                       : _("The folder holds no file."));
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }
  show_trend (self, g_steal_pointer (&read->trend));
  /* Options changed while the files were read */
  if (!options_equal (&read->options, &self->options))
    retrend (self);
}

static void
cancel_clicked_cb (PsTrendPage *self)
{
  ps_trend_page_cancel (self);
}

static void
reload_clicked_cb (PsTrendPage *self)
{
  ps_trend_page_load (self);
}

/* GObject */

static void
ps_trend_page_dispose (GObject *object)
{
  PsTrendPage *self = PS_TREND_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* A progress idle still to come finds nothing to show */
  self->busy = FALSE;
  if (self->chart != NULL)
    ps_trend_chart_set_row (self->chart, NULL, NULL, NULL, NULL);
  if (self->rows != NULL)
    g_list_store_remove_all (self->rows);
  gtk_widget_dispose_template (GTK_WIDGET (self), PS_TYPE_TREND_PAGE);

  G_OBJECT_CLASS (ps_trend_page_parent_class)->dispose (object);
}

static void
ps_trend_page_finalize (GObject *object)
{
  PsTrendPage *self = PS_TREND_PAGE (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->trend, ps_trend_free);
  g_clear_pointer (&self->held, held_release);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_free (self->title);
  g_free (self->progress_file);
  g_mutex_clear (&self->progress_lock);

  G_OBJECT_CLASS (ps_trend_page_parent_class)->finalize (object);
}

static void
ps_trend_page_class_init (PsTrendPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_trend_page_dispose;
  object_class->finalize = ps_trend_page_finalize;

  /* A run to open: its file, and its session in it (-1: the whole file) */
  signals[OPEN_RUN] =
    g_signal_new ("open-run", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_FILE, G_TYPE_INT);
  /* Two runs to compare, before and after a change point: each file and session */
  signals[COMPARE_RUNS] =
    g_signal_new ("compare-runs", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_FILE, G_TYPE_INT, G_TYPE_FILE, G_TYPE_INT);

  g_type_ensure (PS_TYPE_TREND_CHART);
  g_type_ensure (PS_TYPE_WRAP_BOX);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-trend-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, stack);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, loading_label);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, order_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, value_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, min_change_spin);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, problems_expander);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, problems_label);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, paned);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, rows_view);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, row_title);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, chart);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, hint_label);
  gtk_widget_class_bind_template_child (widget_class, PsTrendPage, change_list);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, reload_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, run_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, change_point_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, change_row_activated_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "trendpage");
}

static void
ps_trend_page_init (PsTrendPage *self)
{
  g_mutex_init (&self->progress_lock);
  ps_trend_options_init (&self->options);
  self->options.detection.min_magnitude = DEFAULT_MIN_CHANGE;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->rows = g_list_store_new (PS_TYPE_TREND_ROW);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->rows)));
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->rows_view, GTK_SELECTION_MODEL (self->selection));
  add_column (self, COL_NAME, _("Name"), TRUE);
  add_column (self, COL_KIND, _("Kind"), FALSE);
  add_column (self, COL_UNIT, _("Unit"), FALSE);
  add_column (self, COL_RUNS, _("Runs"), FALSE);
  /* Translators: a column of the trend's rows: the largest relative change of a row's mean, in percent */
  add_column (self, COL_CHANGE, _("Change (%)"), FALSE);
  /* Half for the rows, whose names are long, half for the chart */
  ps_view_place_paned (self->paned, "trend", 0.5, 0);

  sync_controls (self);
  g_signal_connect_swapped (self->order_dropdown, "notify::selected", G_CALLBACK (controls_changed_cb), self);
  g_signal_connect_swapped (self->value_dropdown, "notify::selected", G_CALLBACK (controls_changed_cb), self);
  g_signal_connect_swapped (self->min_change_spin, "value-changed", G_CALLBACK (controls_changed_cb), self);
}

GtkWidget *
ps_trend_page_new (GFile * const *files,
                   guint          n_files)
{
  PsTrendPage *self = g_object_new (PS_TYPE_TREND_PAGE, NULL);

  self->files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (self->files, g_object_ref (files[i]));

  if (n_files == 1)
    {
      g_autofree char *base = g_file_get_basename (files[0]);
      g_autofree char *name = g_filename_display_name (base);

      /* Translators: the tab of a trend of one folder or file: "Trend of nightly" */
      self->title = g_strdup_printf (_("Trend of %s"), name);
    }
  else
    /* Translators: the tab of a trend of several files */
    self->title = g_strdup_printf (ngettext ("Trend of %u file", "Trend of %u files", n_files), n_files);
  return GTK_WIDGET (self);
}

static gboolean
has_file (GFile * const *files,
          guint          n_files,
          GFile         *file)
{
  for (guint i = 0; i < n_files; i++)
    if (g_file_equal (files[i], file))
      return TRUE;
  return FALSE;
}

gboolean
ps_trend_page_has_files (PsTrendPage   *self,
                         GFile * const *files,
                         guint          n_files)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), FALSE);

  for (guint i = 0; i < n_files; i++)
    if (!has_file ((GFile * const *)self->files->pdata, self->files->len, files[i]))
      return FALSE;
  for (guint i = 0; i < self->files->len; i++)
    if (!has_file (files, n_files, g_ptr_array_index (self->files, i)))
      return FALSE;
  return TRUE;
}

const char *
ps_trend_page_get_title (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  return self->title;
}

char *
ps_trend_page_get_description (PsTrendPage *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);

  for (guint i = 0; i < self->files->len; i++)
    {
      g_autofree char *path = ps_view_file_display_path (g_ptr_array_index (self->files, i));

      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, path);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

void
ps_trend_page_load (PsTrendPage *self)
{
  g_autoptr(GTask) task = NULL;
  ReadResult *read;

  g_return_if_fail (PS_IS_TREND_PAGE (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->busy = TRUE;
  ps_trend_chart_set_row (self->chart, NULL, NULL, NULL, NULL);
  g_list_store_remove_all (self->rows);
  g_clear_pointer (&self->trend, ps_trend_free);
  g_clear_pointer (&self->held, held_release);

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_text (self->loading_label, _("Reading the runs…"));
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->stack, "loading");

  read = g_new0 (ReadResult, 1);
  read->options = self->options;
  task = g_task_new (self, self->cancellable, read_done_cb, NULL);
  g_task_set_source_tag (task, ps_trend_page_load);
  g_task_set_task_data (task, read, read_result_free);
  ps_task_run_in_background (task, read_thread);
}

void
ps_trend_page_cancel (PsTrendPage *self)
{
  g_return_if_fail (PS_IS_TREND_PAGE (self));
  g_cancellable_cancel (self->cancellable);
}

void
ps_trend_page_set_options (PsTrendPage  *self,
                           PsTrendOrder  order,
                           PsTrendValue  value,
                           double        min_change)
{
  g_return_if_fail (PS_IS_TREND_PAGE (self));

  if (self->options.order == order && self->options.value == value
      && self->options.detection.min_magnitude == min_change)
    return;
  self->options.order = order;
  self->options.value = value;
  self->options.detection.min_magnitude = MAX (min_change, 0);
  sync_controls (self);
  retrend (self);
}

const PsTrend *
ps_trend_page_get_trend (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  return self->trend;
}

gboolean
ps_trend_page_is_busy (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), FALSE);
  return self->busy;
}

const char *
ps_trend_page_get_visible_state (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

PsTrendChart *
ps_trend_page_get_chart (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  return self->chart;
}

GtkListBox *
ps_trend_page_get_change_list (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  return self->change_list;
}

guint
ps_trend_page_get_n_rows (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->rows));
}

void
ps_trend_page_select_row (PsTrendPage *self,
                          guint        position)
{
  g_return_if_fail (PS_IS_TREND_PAGE (self));
  gtk_single_selection_set_selected (self->selection, position);
}

guint
ps_trend_page_get_selected_row (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), GTK_INVALID_LIST_POSITION);
  return gtk_single_selection_get_selected (self->selection);
}

char *
ps_trend_page_get_cell_text (PsTrendPage *self,
                             guint        position,
                             guint        column)
{
  g_autoptr(PsTrendRowItem) item = NULL;

  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  g_return_val_if_fail (column < N_COLUMNS, NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  return item != NULL ? cell_text (item, column) : NULL;
}

const char *
ps_trend_page_get_problems_text (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->problems_expander)) ? gtk_label_get_text (self->problems_label) : NULL;
}

const char *
ps_trend_page_get_hint_text (PsTrendPage *self)
{
  g_return_val_if_fail (PS_IS_TREND_PAGE (self), NULL);
  return gtk_label_get_text (self->hint_label);
}

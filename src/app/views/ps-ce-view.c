/* ps-ce-view.c — the statistics of a CE PerfLog run
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.5 (derived values) and §5 (what a report shows).
 * The numbers are the PsSeries of ps_series_collect(), grouped by
 * description at the top level and per registration below, exactly as
 * perfscope-cli prints them.
 *
 * The marker table's cells and columns are made in ps-ce-view-cells.c,
 * and the links with the other views of the run are in
 * ps-ce-view-links.c.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-ce-view-internal.h"
#include "ps-ce-view-private.h"
#include "ps-table-export.h"
#include "ps-task-util.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-warning-columns.h"

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS,

  /* PsRunView's */
  PROP_ANALYSIS = N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ps_ce_view_run_view_init (PsRunViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsCeView, ps_ce_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_RUN_VIEW, ps_ce_view_run_view_init))

/* Filling the view for a session */

static const char *
metadata (PsCeView   *self,
          const char *key)
{
  PsEventStore *store = self->analysis->store;

  if (self->session >= ps_event_store_get_n_sessions (store))
    return NULL;
  return ps_event_store_get_metadata (store, self->session, key);
}

/* The whole value in the tooltip as well: a long one is cut short */
static void
set_header_text (GtkLabel   *label,
                 const char *value)
{
  ps_view_set_header_value (label, value, value);
}

/* "fsperf (PID 0x0a5f0012)": the parser joins several apps with ", ". An
 * app registered again and again (a harness restarting it) is named once,
 * with its first process id and how many registrations followed, so that
 * the header stays one short line whatever the log holds. */
typedef struct
{
  const char *name;
  const char *first_pid;
  guint       n;
} AppRegistrations;

static char *
format_applications (const char *apps,
                     const char *pids)
{
  g_auto(GStrv) app_names = NULL;
  g_auto(GStrv) pid_values = NULL;
  g_autoptr(GHashTable) index_of = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (AppRegistrations));
  GString *text = g_string_new (NULL);
  guint n_pids;

  if (apps == NULL)
    return g_string_free (text, FALSE);

  app_names = g_strsplit (apps, ", ", -1);
  pid_values = g_strsplit (pids != NULL ? pids : "", ", ", -1);
  n_pids = g_strv_length (pid_values);

  for (guint i = 0; app_names[i] != NULL; i++)
    {
      const char *name = app_names[i][0] != '\0' ? app_names[i] : _("(unnamed)");
      const char *pid = i < n_pids && pid_values[i][0] != '\0' ? pid_values[i] : NULL;
      gpointer found;

      if (g_hash_table_lookup_extended (index_of, name, NULL, &found))
        {
          AppRegistrations *app = &g_array_index (seen, AppRegistrations, GPOINTER_TO_UINT (found));

          app->n++;
          if (app->first_pid == NULL)
            app->first_pid = pid;
          continue;
        }
      g_hash_table_insert (index_of, (gpointer)name, GUINT_TO_POINTER (seen->len));
      g_array_append_val (seen, ((AppRegistrations) { name, pid, 1 }));
    }

  for (guint i = 0; i < seen->len; i++)
    {
      const AppRegistrations *app = &g_array_index (seen, AppRegistrations, i);
      g_autofree char *more = ps_view_format_count (app->n - 1);

      if (i > 0)
        g_string_append (text, ", ");
      if (app->n > 1 && app->first_pid != NULL)
        /* Translators: an application registered several times: its
         * name, its first process id and how many registrations followed */
        g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s (PID %s and %s more)",
                                                   "%s (PID %s and %s more)", app->n - 1),
                                app->name, app->first_pid, more);
      else if (app->n > 1)
        {
          g_autofree char *times = ps_view_format_count (app->n);

          /* Translators: an application registered several times without a process id */
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s (registered %s time)",
                                                     "%s (registered %s times)", app->n),
                                  app->name, times);
        }
      else if (app->first_pid != NULL)
        /* Translators: an application name and its process id */
        g_string_append_printf (text, _("%s (PID %s)"), app->name, app->first_pid);
      else
        g_string_append (text, app->name);
    }

  return g_string_free (text, FALSE);
}

static void
update_header (PsCeView *self)
{
  g_autofree char *apps = format_applications (metadata (self, "APP"), metadata (self, "PROCESSID"));
  g_autofree char *resolution = NULL;
  const char *rate = metadata (self, "RESOLUTION");

  set_header_text (self->os_value, metadata (self, "OSVERSION"));
  set_header_text (self->build_value, metadata (self, "BUILD"));
  set_header_text (self->platform_value, metadata (self, "PLATFORM"));
  set_header_text (self->cpu_value, metadata (self, "CPU"));
  set_header_text (self->device_value, metadata (self, "DEVNAME"));
  set_header_text (self->app_value, apps);

  if (rate != NULL && *rate != '\0')
    {
      char *end = NULL;
      guint64 ticks = g_ascii_strtoull (rate, &end, 10);
      /* Digits grouped as every count is, when the log gives a whole number */
      g_autofree char *shown = end != rate && *end == '\0' ? ps_view_format_count (ticks) : g_strdup (rate);

      /* Translators: the timer resolution, e.g. "1,193,180 ticks/s" */
      resolution = g_strdup_printf (_("%s ticks/s"), shown);
    }
  else
    resolution = g_strdup (_("Unknown: durations in ticks"));
  set_header_text (self->resolution_value, resolution);
}

static gboolean
series_in_session (PsCeView       *self,
                   const PsSeries *series,
                   PsSeriesKind    kind)
{
  return series->kind == kind && series->session == self->session;
}

/* What the values of a description key measure, from the first row
 * whose value is a statistic of the durations or a quotient over one
 * ("time=%AVG%" is a duration, "Bps AVG=%Bytes%/%AVG%" is Bytes per
 * second), and the unit of the column: a duration's from its values, so
 * "time" reads "5.20" in a "time (ms)" column rather than "0.005195" */
static void
set_key_column_unit (ColumnInfo *info,
                     GPtrArray  *rows)
{
  double smallest = G_MAXDOUBLE, largest = 0;

  info->value_kind = PS_CE_VALUE_TEXT;
  info->scale = 1;
  g_clear_pointer (&info->unit, g_free);
  for (guint i = 0; i < rows->len && info->value_kind == PS_CE_VALUE_TEXT; i++)
    {
      g_autoptr(GArray) items = ps_ce_description_parse (ps_marker_row_get_series (g_ptr_array_index (rows, i))->name);

      for (guint j = 0; j < items->len; j++)
        {
          const PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, j);
          g_autofree char *numerator = NULL;

          if (!g_str_equal (item->key, info->key))
            continue;
          info->value_kind = ps_ce_description_value_kind (item->value, &numerator);
          if (info->value_kind == PS_CE_VALUE_PER_SECOND)
            {
              g_autofree char *shown = numerator != NULL ? ps_util_display_text (numerator, -1) : NULL;

              /* Translators: the unit of a description value per second,
               * after the key its numerator names: "Bytes/s"; "1/s" without one */
              info->unit = shown != NULL ? g_strdup_printf (_("%s/s"), shown) : g_strdup (_("1/s"));
            }
          break;
        }
    }
  if (info->value_kind != PS_CE_VALUE_SECONDS)
    return;

  for (guint i = 0; i < rows->len; i++)
    {
      double number;

      if (ps_ce_view_description_number (g_ptr_array_index (rows, i), info->key, PS_CE_VALUE_SECONDS, &number) && number != 0)
        smallest = MIN (smallest, fabs (number)), largest = MAX (largest, fabs (number));
    }
  info->unit = g_strdup (ps_view_quantity_unit_for_range (PS_VIEW_QUANTITY_SECONDS, smallest, largest, &info->scale));
}

static void
update_key_columns (PsCeView  *self,
                    GPtrArray *rows)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < self->key_columns->len; i++)
    gtk_column_view_remove_column (self->marker_view, g_ptr_array_index (self->key_columns, i));
  g_ptr_array_set_size (self->key_columns, 0);

  /* The description keys in order of appearance (ce-perflog.md §5.2) */
  for (guint i = 0; i < rows->len; i++)
    {
      const PsSeries *series = ps_marker_row_get_series (g_ptr_array_index (rows, i));
      g_autoptr(GArray) items = ps_ce_description_parse (series->name);

      for (guint j = 0; j < items->len; j++)
        {
          const PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, j);

          if (item->key[0] != '\0'
              && !g_ptr_array_find_with_equal_func (keys, item->key, g_str_equal, NULL))
            g_ptr_array_add (keys, g_strdup (item->key));
        }
    }

  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      g_autofree char *title = ps_util_display_text (key, -1);
      g_autofree char *titled = NULL;
      GtkColumnViewColumn *column = ps_ce_view_make_marker_column (title, MARKER_COLUMN_KEY, key);

      set_key_column_unit (g_object_get_data (G_OBJECT (column), CELL_INFO_KEY), rows);
      switch (((ColumnInfo *)g_object_get_data (G_OBJECT (column), CELL_INFO_KEY))->value_kind)
        {
        case PS_CE_VALUE_SECONDS:
          ps_table_export_set_column_unit (column, "s");
          break;
        case PS_CE_VALUE_PER_SECOND:
          ps_table_export_set_column_unit (column, ((ColumnInfo *)g_object_get_data (G_OBJECT (column), CELL_INFO_KEY))->unit);
          break;
        case PS_CE_VALUE_TEXT:
        default:
          break;
        }
      titled = ps_view_title_with_unit (title, ((ColumnInfo *)g_object_get_data (G_OBJECT (column), CELL_INFO_KEY))->unit);
      gtk_column_view_column_set_title (column, titled);
      gtk_column_view_insert_column (self->marker_view, 1 + i, column);
      g_ptr_array_add (self->key_columns, column);
    }
}

static gboolean
same_marker (const PsSeries *a,
             const PsSeries *b)
{
  return a->kind == b->kind && a->session == b->session && a->id == b->id && a->instance == b->instance
         && g_strcmp0 (a->name, b->name) == 0 && g_strcmp0 (a->app, b->app) == 0;
}

/* The same marker stays selected when a range changes the numbers */
static void
reselect_marker (PsCeView       *self,
                 const PsSeries *wanted)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (self->marker_view);
  GListModel *shown = G_LIST_MODEL (self->marker_sorted);

  if (!GTK_IS_SINGLE_SELECTION (selection))
    return;
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (shown, i);
      g_autoptr(PsMarkerRow) row = gtk_tree_list_row_get_item (tree_row);

      if (same_marker (ps_marker_row_get_series (row), wanted))
        {
          gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), i);
          return;
        }
    }
}

/* The durations of a session are all in seconds, or all in ticks */
static void
update_duration_units (PsCeView  *self,
                       GPtrArray *rows)
{
  GListModel *columns = gtk_column_view_get_columns (self->marker_view);
  gboolean seconds = rows->len == 0 || ps_marker_row_has_seconds (g_ptr_array_index (rows, 0));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      ColumnInfo *info = g_object_get_data (G_OBJECT (column), CELL_INFO_KEY);
      g_autofree char *title = NULL;

      if (g_object_get_data (G_OBJECT (column), "ps-duration-column") == NULL)
        continue;
      ps_table_export_set_column_unit (column, seconds ? "s" : "ticks");

      /* One unit down the column, named in its title: "Mean (ms)" */
      g_clear_pointer (&info->unit, g_free);
      info->scale = 1;
      if (!seconds)
        info->unit = g_strdup (_("ticks"));
      else
        {
          double smallest = G_MAXDOUBLE, largest = 0;

          for (guint r = 0; r < rows->len; r++)
            {
              PsMarkerRow *row = g_ptr_array_index (rows, r);
              double value = fabs (ps_ce_view_marker_duration (row, info->column));

              if (ps_marker_row_get_count (row) > 0 && value > 0)
                smallest = MIN (smallest, value), largest = MAX (largest, value);
            }
          info->unit = g_strdup (ps_view_quantity_unit_for_range (PS_VIEW_QUANTITY_SECONDS, smallest, largest,
                                                                   &info->scale));
        }
      title = ps_view_title_with_unit (g_object_get_data (G_OBJECT (column), "ps-base-title"), info->unit);
      gtk_column_view_column_set_title (column, title);
    }
}

static void
update_markers (PsCeView *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  GtkSelectionModel *selection = gtk_column_view_get_model (self->marker_view);
  GtkTreeListRow *selected_row = GTK_IS_SINGLE_SELECTION (selection)
                                 ? gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)) : NULL;
  g_autoptr(PsMarkerRow) selected = selected_row != NULL ? gtk_tree_list_row_get_item (selected_row) : NULL;
  /* Kept alive by the analysis it belongs to, which the old rows hold */
  g_autoptr(PsRunAnalysis) selected_analysis = selected != NULL
                                               ? ps_run_analysis_ref (ps_marker_row_get_analysis (selected)) : NULL;
  const PsSeries *selected_series = selected != NULL ? ps_marker_row_get_series (selected) : NULL;

  for (guint i = 0; i < self->shown->groups->len; i++)
    {
      PsSeries *series = g_ptr_array_index (self->shown->groups, i);

      if (series_in_session (self, series, PS_SERIES_DURATION))
        g_ptr_array_add (rows, ps_marker_row_new (self->shown, series, TRUE));
    }

  update_key_columns (self, rows);
  update_duration_units (self, rows);
  g_list_store_splice (self->marker_groups, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->marker_groups)),
                       rows->pdata, rows->len);
  if (selected_series != NULL)
    reselect_marker (self, selected_series);
  gtk_stack_set_visible_child_name (self->markers_stack, rows->len > 0 ? "table" : "empty");
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static GtkWidget *
summary_label (const char *text,
               gboolean    numeric,
               gboolean    caption)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  gtk_label_set_selectable (GTK_LABEL (label), !caption);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  if (caption)
    {
      gtk_widget_add_css_class (label, "caption-heading");
      gtk_widget_add_css_class (label, "dim-label");
    }

  return label;
}

char *
ps_ce_view_series_label (const PsSeries *series)
{
  g_autofree char *name = ps_view_series_name (series->name);
  g_autofree char *app = ps_util_display_text (series->app, -1);

  if (*name == '\0')
    /* Translators: a marker without a description, by its id */
    return g_strdup_printf (_("Marker %lld"), (long long) series->id);
  if (*app != '\0' && strstr (name, app) == NULL)
    return g_strdup_printf ("%s (%s)", name, app);
  return g_steal_pointer (&name);
}

/* A series on a chart over the sequence of measurements, which it
 * holds, with the changes of its level marked (found with the analysis) */
static void
add_chart_series (PsCounterChart *chart,
                  const char     *label,
                  PsRunAnalysis  *analysis,
                  PsSeries       *series)
{
  GPtrArray *points = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  /* Sequence numbers are far below G_MAXINT64 */
  PsValueLodPoints block = {
    .x = (const gint64 *)(gpointer)series->indexes->data,
    .values = (const double *)(gpointer)series->values->data,
  };
  g_autoptr(PsValueLod) lod = NULL;
  GArray *changes = ps_run_analysis_get_changes (analysis, series);
  guint index;

  g_ptr_array_add (points, g_array_ref (series->indexes));
  g_ptr_array_add (points, g_array_ref (series->values));
  lod = ps_value_lod_new_in_block (&block, series->values->len, points, (GDestroyNotify)g_ptr_array_unref);
  index = ps_counter_chart_add_series (chart, label, lod);
  if (changes != NULL && changes->len > 0)
    ps_counter_chart_set_series_changes (chart, index, changes);
}

static void
update_summary (PsCeView       *self,
                GtkGrid        *grid,
                PsCounterChart *chart,
                PsSeriesKind    kind,
                PsViewQuantity  unit,
                const char     *empty_text)
{
  const char *headings[] = {
    _("Series"), _("Samples"), _("Min"), _("Max"), _("Mean"), _("Last"),
  };
  PsEventStore *store = self->analysis->store;
  guint row = 1;

  clear_grid (grid);
  ps_counter_chart_clear (chart);

  for (guint i = 0; i < self->shown->groups->len; i++)
    {
      PsSeries *series = g_ptr_array_index (self->shown->groups, i);
      g_autofree char *label = NULL;
      double values[4];

      if (!series_in_session (self, series, kind))
        continue;

      label = ps_ce_view_series_label (series);
      values[0] = series->stats.min;
      values[1] = series->stats.max;
      values[2] = series->stats.mean;
      values[3] = series->values->len > 0
                  ? g_array_index (series->values, double, series->values->len - 1) : 0;

      gtk_grid_attach (grid, summary_label (label, FALSE, FALSE), 0, row, 1, 1);
      {
        g_autofree char *count = ps_view_format_count (series->stats.count);

        gtk_grid_attach (grid, summary_label (count, TRUE, FALSE), 1, row, 1, 1);
      }
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          g_autofree char *text = series->stats.count > 0
                                  ? ps_view_format_quantity (unit, values[v]) : g_strdup ("–");
          GtkWidget *value_label = summary_label (text, TRUE, FALSE);

          if (series->stats.count > 0)
            {
              g_autofree char *exact = ps_ce_view_format_exact (unit, values[v]);

              gtk_widget_set_tooltip_text (value_label, exact);
            }
          gtk_grid_attach (grid, value_label, 2 + v, row, 1, 1);
        }

      add_chart_series (chart, label, self->shown, series);
      row++;
    }

  if (row == 1)
    {
      gtk_grid_attach (grid, summary_label (empty_text, FALSE, FALSE), 0, 0, 1, 1);
      gtk_widget_set_visible (GTK_WIDGET (chart), FALSE);
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (headings); i++)
    gtk_grid_attach (grid, summary_label (headings[i], i > 0, TRUE), i, 0, 1, 1);

  /* Line the charts up on the session's events */
  {
    guint64 first, end;

    if (ps_event_store_get_session_measurements (store, self->session, &first, &end))
      ps_counter_chart_set_x_range (chart, (gint64)first, (gint64)end - 1);
  }
  gtk_widget_set_visible (GTK_WIDGET (chart), TRUE);
}

static void
update_warnings (PsCeView *self)
{
  ps_run_view_list_warnings (PS_RUN_VIEW (self), &self->warnings, self->analysis->store,
                             self->warnings_stack, self->warnings_overflow_label);
  ps_view_set_column_model (self->warning_view, G_LIST_MODEL (self->warnings));
}

static void
update_session_selector (PsCeView *self)
{
  PsEventStore *store = self->analysis->store;
  guint n_sessions = ps_event_store_get_n_sessions (store);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  for (guint i = 0; i < n_sessions; i++)
    {
      const PsSessionInfo *info = ps_event_store_get_session (store, i);
      g_autofree char *name = NULL;

      /* Translators: an entry of the session selector */
      name = g_strdup_printf (_("Session %u (lines %llu–%llu)"),
                              i + 1, (unsigned long long) info->first_line,
                              (unsigned long long) info->last_line);
      gtk_string_list_append (names, name);
    }

  gtk_drop_down_set_model (self->session_dropdown, G_LIST_MODEL (names));
  if (n_sessions > 0)
    gtk_drop_down_set_selected (self->session_dropdown, MIN (self->session, n_sessions - 1));
  gtk_widget_set_visible (self->session_box, n_sessions > 1);
}

static void
update_session (PsCeView *self)
{
  if (self->analysis == NULL)
    return;

  update_header (self);
  update_markers (self);
  update_summary (self, self->cpu_summary, self->cpu_chart, PS_SERIES_CPU,
                  PS_VIEW_QUANTITY_PERCENT, _("No CPU samples in this session"));
  update_summary (self, self->memory_summary, self->memory_chart, PS_SERIES_MEMORY,
                  PS_VIEW_QUANTITY_BYTES, _("No memory samples in this session"));
}

static void
session_selected_cb (PsCeView    *self,
                     GParamSpec  *pspec,
                     GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    ps_ce_view_set_session (self, selected);
}

/* After update_session(): the tables and charts hold the session's series */
static void
show_first_page_with_data (PsCeView *self)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->marker_groups)) > 0)
    ps_ce_view_show_page (self, "markers");
  else if (ps_counter_chart_get_n_series (self->cpu_chart) > 0
           || ps_counter_chart_get_n_series (self->memory_chart) > 0)
    ps_ce_view_show_page (self, "cpu-memory");
  else if (ps_event_store_get_n_warnings (self->analysis->store) > 0)
    ps_ce_view_show_page (self, "warnings");
}

/* The histogram of the selected marker's durations, in seconds: the
 * tables keep only statistics, so its values are read again from the store
 * in a worker, within the range selected on the timeline if any */

typedef struct
{
  PsEventStore *store;
  GArray       *tracks;    /* guint32 */
  gboolean      has_range;
  guint64       first;
  guint64       last;
} DurationsData;

typedef struct
{
  GArray *values;    /* double */
  GArray *indexes;   /* guint64 */
} Durations;

static void
durations_free (Durations *durations)
{
  g_array_unref (durations->values);
  g_array_unref (durations->indexes);
  g_free (durations);
}

static void
durations_data_free (DurationsData *data)
{
  g_clear_object (&data->store);
  g_clear_pointer (&data->tracks, g_array_unref);
  g_free (data);
}

static void
durations_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  DurationsData *data = task_data;
  guint n_tracks = ps_event_store_get_n_tracks (data->store);
  g_autofree guint8 *wanted = g_new0 (guint8, n_tracks + 1);
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *indexes = g_array_new (FALSE, FALSE, sizeof (guint64));
  Durations *durations;
  PsMeasurementIter iter;
  PsMeasurement m;
  guint64 count = 0;

  for (guint i = 0; i < data->tracks->len; i++)
    if (g_array_index (data->tracks, guint32, i) < n_tracks)
      wanted[g_array_index (data->tracks, guint32, i)] = 1;

  ps_measurement_iter_init (&iter, data->store);
  while (ps_measurement_iter_next (&iter, &m))
    {
      double seconds;

      if ((++count & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      if (m.kind != PS_MEASURE_DURATION || m.track >= n_tracks || !wanted[m.track]
          || (m.flags & PS_MEASURE_FLAG_NEGATIVE))
        continue;
      if (data->has_range && (m.index < data->first || m.index > data->last))
        continue;
      seconds = ps_series_measurement_value (data->store, &m);
      g_array_append_val (values, seconds);
      g_array_append_val (indexes, m.index);
    }

  durations = g_new0 (Durations, 1);
  durations->values = values;
  durations->indexes = indexes;
  if (g_task_return_error_if_cancelled (task))
    {
      durations_free (durations);
      return;
    }
  g_task_return_pointer (task, durations, (GDestroyNotify)durations_free);
}

static void
durations_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(PsCeView) self = user_data;
  Durations *durations = g_task_propagate_pointer (G_TASK (result), NULL);

  if (durations == NULL || g_task_get_cancellable (G_TASK (result)) != self->histogram_cancellable)
    {
      g_clear_pointer (&durations, durations_free);
      return;
    }
  g_clear_object (&self->histogram_cancellable);
  g_clear_pointer (&self->histogram_values, g_array_unref);
  g_clear_pointer (&self->histogram_indexes, g_array_unref);
  self->histogram_values = g_array_ref (durations->values);
  self->histogram_indexes = g_array_ref (durations->indexes);
  ps_histogram_view_set_values (self->histogram_view, (const double *)(gpointer)durations->values->data,
                                durations->values->len);
  ps_ce_view_select_pending_value (self);
  durations_free (durations);
}

static void
update_histogram (PsCeView *self)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (self->marker_view);
  GtkTreeListRow *tree_row = GTK_IS_SINGLE_SELECTION (selection)
                             ? gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)) : NULL;
  g_autoptr(PsMarkerRow) row = tree_row != NULL ? gtk_tree_list_row_get_item (tree_row) : NULL;
  g_autoptr(GTask) task = NULL;
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
  g_autofree char *count = NULL;
  const PsSeries *series;
  DurationsData *data;
  gint64 begin, end;

  if (self->histogram_cancellable != NULL)
    g_cancellable_cancel (self->histogram_cancellable);
  g_clear_object (&self->histogram_cancellable);
  g_clear_pointer (&self->histogram_values, g_array_unref);
  g_clear_pointer (&self->histogram_indexes, g_array_unref);

  if (row == NULL || self->analysis == NULL)
    {
      ps_histogram_view_clear (self->histogram_view);
      gtk_widget_set_visible (self->histogram_box, FALSE);
      return;
    }

  series = ps_marker_row_get_series (row);
  name = ps_ce_view_series_label (series);
  count = ps_view_format_count (ps_marker_row_get_count (row));
  data = g_new0 (DurationsData, 1);
  data->store = g_object_ref (self->analysis->store);
  data->tracks = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (data->tracks, series->tracks, series->n_instances);
  data->has_range = self->run_session != NULL && ps_session_get_selection (self->run_session, &begin, &end);
  if (data->has_range)
    {
      data->first = (guint64)MAX (begin, 0);
      data->last = (guint64)MAX (end, 0);
      /* Translators: the title of a histogram of a marker's durations in
       * the range of measurements selected on the timeline */
      title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Durations of %s: %s measurement in the selected range",
                                            "Durations of %s: %s measurements in the selected range",
                                            ps_marker_row_get_count (row)),
                               name, count);
    }
  else
    /* Translators: the title of a histogram of a marker's durations; the
     * second %s is a count ("1,200") */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Durations of %s: %s measurement",
                                          "Durations of %s: %s measurements", ps_marker_row_get_count (row)),
                             name, count);
  gtk_label_set_text (self->histogram_title, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->histogram_title), title);
  ps_histogram_view_set_title (self->histogram_view, title);
  gtk_widget_set_visible (self->histogram_box, TRUE);

  self->histogram_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->histogram_cancellable, durations_cb, g_object_ref (self));
  g_task_set_source_tag (task, update_histogram);
  g_task_set_task_data (task, data, (GDestroyNotify)durations_data_free);
  ps_task_run_in_background (task, durations_thread);
}

static void
marker_selected_cb (PsCeView *self)
{
  update_histogram (self);
  if (!self->following)
    ps_ce_view_focus_selected_marker (self);
}

/* A range of measurements selected on the timeline: the tables and charts
 * show only its measurements, computed in a worker */

static void
show_range (PsCeView      *self,
            PsRunAnalysis *shown)
{
  g_clear_pointer (&self->shown, ps_run_analysis_unref);
  self->shown = ps_run_analysis_ref (shown);
  update_markers (self);
  update_summary (self, self->cpu_summary, self->cpu_chart, PS_SERIES_CPU,
                  PS_VIEW_QUANTITY_PERCENT, _("No CPU samples in this session"));
  update_summary (self, self->memory_summary, self->memory_chart, PS_SERIES_MEMORY,
                  PS_VIEW_QUANTITY_BYTES, _("No memory samples in this session"));
  update_histogram (self);
}

static void
range_computed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(PsCeView) self = user_data;
  g_autoptr(PsRunAnalysis) shown = ps_run_analysis_compute_finish (result, NULL);

  if (shown == NULL || g_task_get_cancellable (G_TASK (result)) != self->range_cancellable)
    return;
  g_clear_object (&self->range_cancellable);
  show_range (self, shown);
}

void
ps_ce_view_range_selected_cb (PsCeView *self)
{
  gint64 begin, end;

  if (self->range_cancellable != NULL)
    g_cancellable_cancel (self->range_cancellable);
  g_clear_object (&self->range_cancellable);
  if (self->analysis == NULL)
    return;

  if (self->run_session == NULL || !ps_session_get_selection (self->run_session, &begin, &end))
    {
      gtk_widget_set_visible (self->range_box, FALSE);
      if (self->shown != self->analysis)
        show_range (self, self->analysis);
      return;
    }

  {
    g_autofree char *text =
      /* Translators: the tables show the measurements of a range of their
       * sequence, selected on the timeline; %lld are sequence numbers */
      g_strdup_printf (_("Only the measurements #%lld to #%lld (selected on the timeline)"),
                       (long long) MAX (begin, 0), (long long) MAX (end, 0));

    gtk_label_set_text (self->range_label, text);
    gtk_widget_set_visible (self->range_box, TRUE);
  }
  self->range_cancellable = g_cancellable_new ();
  ps_run_analysis_compute_range_async (self->analysis->store, (guint64)MAX (begin, 0), (guint64)MAX (end, 0),
                                       self->range_cancellable, range_computed_cb, g_object_ref (self));
}

static void
show_all_measurements_cb (PsCeView *self)
{
  if (self->run_session != NULL)
    ps_session_clear_selection (self->run_session);
}

/* PsRunView */

static gboolean
run_view_is_busy (PsRunView *view)
{
  PsCeView *self = PS_CE_VIEW (view);

  return self->range_cancellable != NULL || self->histogram_cancellable != NULL;
}

static void
ps_ce_view_run_view_init (PsRunViewInterface *iface)
{
  static const PsViewLabelField header_fields[] = {
    { "os", G_STRUCT_OFFSET (PsCeView, os_value) },
    { "build", G_STRUCT_OFFSET (PsCeView, build_value) },
    { "platform", G_STRUCT_OFFSET (PsCeView, platform_value) },
    { "cpu", G_STRUCT_OFFSET (PsCeView, cpu_value) },
    { "device", G_STRUCT_OFFSET (PsCeView, device_value) },
    { "app", G_STRUCT_OFFSET (PsCeView, app_value) },
    { "resolution", G_STRUCT_OFFSET (PsCeView, resolution_value) },
  };

  PS_RUN_VIEW_BIND_PARTS (iface, PsCeView, warnings, header_fields, run_view_is_busy);
  iface->histogram_view_offset = G_STRUCT_OFFSET (PsCeView, histogram_view);
  iface->session_offset = G_STRUCT_OFFSET (PsCeView, run_session);
}

/* GObject */

static void
ps_ce_view_dispose (GObject *object)
{
  PsCeView *self = PS_CE_VIEW (object);

  if (self->range_cancellable != NULL)
    g_cancellable_cancel (self->range_cancellable);
  g_clear_object (&self->range_cancellable);
  if (self->histogram_cancellable != NULL)
    g_cancellable_cancel (self->histogram_cancellable);
  g_clear_object (&self->histogram_cancellable);
  ps_run_view_unfollow_session (&self->run_session, &self->session_handlers);
  g_clear_pointer (&self->histogram_values, g_array_unref);
  g_clear_pointer (&self->histogram_indexes, g_array_unref);

  ps_view_dispose_template (GTK_WIDGET (self), PS_TYPE_CE_VIEW);

  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_pointer (&self->shown, ps_run_analysis_unref);
  g_clear_object (&self->marker_groups);
  g_clear_object (&self->marker_sorted);
  g_clear_object (&self->warnings);
  g_clear_pointer (&self->key_columns, g_ptr_array_unref);

  G_OBJECT_CLASS (ps_ce_view_parent_class)->dispose (object);
}

static void
ps_ce_view_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  PsCeView *self = PS_CE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_uint (value, self->session);
      break;
    default:
      if (!ps_run_view_get_property (object, value, pspec))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_ce_view_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  PsCeView *self = PS_CE_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      ps_ce_view_set_analysis (self, g_value_get_boxed (value));
      break;
    case PROP_SESSION:
      ps_ce_view_set_session (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_ce_view_class_init (PsCeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_ce_view_dispose;
  object_class->get_property = ps_ce_view_get_property;
  object_class->set_property = ps_ce_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_uint ("session", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_ANALYSIS, "analysis");

  g_type_ensure (PS_TYPE_COUNTER_CHART);
  g_type_ensure (PS_TYPE_HISTOGRAM_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-ce-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PsCeView, session_box);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, session_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, os_value);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, build_value);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, platform_value);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, cpu_value);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, device_value);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, app_value);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, resolution_value);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, range_box);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, markers_paned);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, histogram_box);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, histogram_title);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, histogram_view);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, range_label);
  gtk_widget_class_bind_template_callback (widget_class, show_all_measurements_cb);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, warnings_page);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, markers_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, marker_view);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, cpu_summary);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, memory_summary);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, cpu_chart);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, memory_chart);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, warnings_overflow_label);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, warnings_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCeView, warning_view);
  gtk_widget_class_bind_template_callback (widget_class, session_selected_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "ceview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_ce_view_init (PsCeView *self)
{
  GtkTreeListModel *tree;
  GtkSorter *row_sorter;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  /* Translators: the view of a run, for a screen reader */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timer markers, CPU and memory"), -1);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  /* The default scale of the Preferences; the Logarithmic check follows
   * (bound both ways in the template) */
  ps_histogram_view_set_log_scale (self->histogram_view, ps_view_default_log_scale ());
  /* CE measurements have no timestamps: the charts are over their
   * sequence, memory in MiB */
  ps_counter_chart_set_sequence_axis (self->cpu_chart, TRUE);
  ps_counter_chart_set_unit (self->cpu_chart, "%", 1);
  ps_counter_chart_set_sequence_axis (self->memory_chart, TRUE);
  ps_counter_chart_set_unit (self->memory_chart, C_("byte unit", "MiB"), 1.0 / (1024 * 1024));

  self->key_columns = g_ptr_array_new_with_free_func (g_object_unref);
  self->marker_groups = g_list_store_new (PS_TYPE_MARKER_ROW);

  ps_ce_view_add_marker_columns (self);
  ps_warning_columns_add (self->warning_view);

  /* Groups at the top, their registrations below; the column sorter
   * orders siblings and keeps children under their parent. */
  tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->marker_groups)),
                                  FALSE, FALSE, ps_ce_view_create_marker_children, NULL, NULL);
  row_sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->marker_view))));
  self->marker_sorted = gtk_sort_list_model_new (G_LIST_MODEL (tree), row_sorter);
  ps_view_set_column_model (self->marker_view, G_LIST_MODEL (self->marker_sorted));
  ps_table_export_attach (self->marker_view, "statistics", 1);
  g_signal_connect_object (gtk_column_view_get_model (self->marker_view), "notify::selected-item",
                           G_CALLBACK (marker_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->histogram_view, "notify::selection",
                           G_CALLBACK (ps_ce_view_histogram_selection_changed_cb), self, G_CONNECT_SWAPPED);
  self->pending_value = NAN;
  /* The markers and the histogram of the selected one share the page */
  ps_view_place_paned (self->markers_paned, "ce-markers", 0.55, 0);
  ps_view_paned_fit_start (self->markers_paned);
}

GtkWidget *
ps_ce_view_new (void)
{
  return g_object_new (PS_TYPE_CE_VIEW, NULL);
}

void
ps_ce_view_set_analysis (PsCeView      *self,
                         PsRunAnalysis *analysis)
{
  g_return_if_fail (PS_IS_CE_VIEW (self));

  if (self->analysis == analysis)
    return;

  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_pointer (&self->shown, ps_run_analysis_unref);
  if (self->range_cancellable != NULL)
    g_cancellable_cancel (self->range_cancellable);
  g_clear_object (&self->range_cancellable);
  gtk_widget_set_visible (self->range_box, FALSE);
  if (analysis != NULL)
    {
      self->analysis = ps_run_analysis_ref (analysis);
      self->shown = ps_run_analysis_ref (analysis);
    }

  if (self->analysis != NULL)
    {
      self->session = 0;
      update_session_selector (self);
      update_warnings (self);
      update_session (self);
      show_first_page_with_data (self);
    }

  g_object_notify (G_OBJECT (self), "analysis");
}

guint
ps_ce_view_get_session (PsCeView *self)
{
  g_return_val_if_fail (PS_IS_CE_VIEW (self), 0);
  return self->session;
}

void
ps_ce_view_set_session (PsCeView *self,
                        guint     session)
{
  g_return_if_fail (PS_IS_CE_VIEW (self));

  if (self->session == session)
    return;

  self->session = session;
  if (gtk_drop_down_get_selected (self->session_dropdown) != session)
    gtk_drop_down_set_selected (self->session_dropdown, session);
  update_session (self);
  ps_ce_view_reveal_log_session (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

void
ps_ce_view_show_page (PsCeView   *self,
                      const char *name)
{
  g_return_if_fail (PS_IS_CE_VIEW (self));
  gtk_stack_set_visible_child_name (self->view_stack, name);
}

/* Testing API (ps-ce-view-private.h) */

GListModel *
ps_ce_view_get_marker_model (PsCeView *self)
{
  g_return_val_if_fail (PS_IS_CE_VIEW (self), NULL);
  return G_LIST_MODEL (self->marker_sorted);
}

PsCounterChart *
ps_ce_view_get_cpu_chart (PsCeView *self)
{
  g_return_val_if_fail (PS_IS_CE_VIEW (self), NULL);
  return self->cpu_chart;
}

PsCounterChart *
ps_ce_view_get_memory_chart (PsCeView *self)
{
  g_return_val_if_fail (PS_IS_CE_VIEW (self), NULL);
  return self->memory_chart;
}

gboolean
ps_ce_view_select_marker (PsCeView   *self,
                          const char *name)
{
  GtkSelectionModel *selection;
  GListModel *shown;

  g_return_val_if_fail (PS_IS_CE_VIEW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  selection = gtk_column_view_get_model (self->marker_view);
  shown = G_LIST_MODEL (self->marker_sorted);
  if (!GTK_IS_SINGLE_SELECTION (selection) || shown == NULL)
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (shown, i);
      g_autoptr(PsMarkerRow) row = gtk_tree_list_row_get_item (tree_row);

      if (ps_marker_row_is_group (row) && g_strcmp0 (ps_marker_row_get_name (row), name) == 0)
        {
          gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), i);
          return TRUE;
        }
    }
  return FALSE;
}

GtkColumnView *
ps_ce_view_get_marker_view (PsCeView *self)
{
  g_return_val_if_fail (PS_IS_CE_VIEW (self), NULL);
  return self->marker_view;
}

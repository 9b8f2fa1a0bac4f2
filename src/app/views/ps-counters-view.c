/* ps-counters-view.c — a run of performance counters: the counter tree,
 * charts of the checked counters by unit, their statistics
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §7.2 (the counter path \\Machine\Object(Parent/Instance#n)\Counter
 * and its tree of tracks, ps-event-store.h above PsTrackKind).
 *
 * The tree has one PsCounterNode per track. A checked counter's points are
 * made once and cached (ps-counters-view-charts.c). Checks change the
 * charts and the table (ps-counters-view-stats.c) at the next idle, so
 * checking an object's hundred counters redraws once. Counters of one unit
 * share a chart; units differ in scale and meaning, so each has its own,
 * stacked vertically. This file is the view itself: the tree, the links
 * with the other views, the header and the data quality.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-accessible-util.h"
#include "ps-counter-chart.h"
#include "ps-counter-node.h"
#include "ps-counters-view-private.h"
#include "ps-selection-util.h"
#include "ps-util.h"
#include "ps-view-util.h"
#include "ps-warning-columns.h"
#include "ps-warning-model.h"

/* --- The view ------------------------------------------------------------- */

enum {
  PROP_0,
  PROP_SESSION,
  PROP_STACKED,
  N_PROPS,

  /* PsRunView's */
  PROP_ANALYSIS = N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void ps_counters_view_run_view_init (PsRunViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PsCountersView, ps_counters_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (PS_TYPE_RUN_VIEW, ps_counters_view_run_view_init))

/* Links with the other views of the run (docs/selection.md): a counter
 * chosen in the tree or the statistics is focused on the timeline and
 * drawn over the others in its chart; one chosen on the timeline is
 * selected in both; a range selected on the timeline is shaded on the
 * charts */

void
ps_counters_view_apply_time_selection (PsCountersView *self)
{
  gint64 begin = 0, end = 0;
  gboolean has_selection = self->session != NULL && ps_session_get_selection (self->session, &begin, &end);

  for (guint i = 0; i < self->charts->len; i++)
    ps_counter_chart_set_selection (g_ptr_array_index (self->charts, i), has_selection, begin, end);
  ps_counters_view_update_range_stats (self);
}

static void
show_all_readings_cb (PsCountersView *self)
{
  if (self->session != NULL)
    ps_session_clear_selection (self->session);
}

static void
focus_counter (PsCountersView *self,
               PsCounterNode  *node)
{
  if (self->following || self->session == NULL || node == NULL
      || ps_counter_node_get_kind (node) != PS_TRACK_COUNTER)
    return;
  ps_session_set_focus_track (self->session, ps_counter_node_get_track (node));
}

static void
tree_selected_cb (PsCountersView *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->tree_selection);
  g_autoptr(PsCounterNode) node = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  focus_counter (self, node);
}

void
ps_counters_view_stats_selected_cb (PsCountersView *self)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (self->stats_view);

  focus_counter (self, gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)));
}

/* The position of a node's row in the tree as shown, opening the rows
 * above it; GTK_INVALID_LIST_POSITION when the search hides it */
static guint
open_tree_row (PsCountersView *self,
               PsCounterNode  *node)
{
  GListModel *rows = G_LIST_MODEL (self->tree_selection);
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  guint position = 0;

  for (PsCounterNode *up = node; up != NULL; up = ps_counter_node_get_parent (up))
    g_ptr_array_insert (path, 0, up);
  for (guint level = 0; level < path->len; level++)
    {
      gboolean found = FALSE;

      for (; position < g_list_model_get_n_items (rows) && !found; position++)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, position);
          g_autoptr(PsCounterNode) item = gtk_tree_list_row_get_item (row);

          if (item != g_ptr_array_index (path, level))
            continue;
          if (level + 1 == path->len)
            return position;
          gtk_tree_list_row_set_expanded (row, TRUE);
          found = TRUE;
        }
      if (!found)
        break;
    }
  return GTK_INVALID_LIST_POSITION;
}

void
ps_counters_view_follow_session (PsCountersView *self)
{
  guint32 track = self->session != NULL ? ps_session_get_focus_track (self->session) : PS_NONE;
  GtkSelectionModel *stats = gtk_column_view_get_model (self->stats_view);
  PsCounterNode *node = NULL;

  for (guint i = 0; self->counters != NULL && i < self->counters->len && node == NULL; i++)
    if (ps_counter_node_get_track (g_ptr_array_index (self->counters, i)) == track)
      node = g_ptr_array_index (self->counters, i);

  /* Its series in its chart */
  for (guint c = 0; c < self->charts->len; c++)
    {
      PsCounterChart *chart = g_ptr_array_index (self->charts, c);
      GArray *tracks = g_object_get_data (G_OBJECT (chart), "ps-series-tracks");
      guint emphasized = G_MAXUINT;

      for (guint i = 0; tracks != NULL && i < tracks->len && node != NULL; i++)
        if (g_array_index (tracks, guint32, i) == track)
          emphasized = i;
      ps_counter_chart_set_emphasized (chart, emphasized);
    }
  if (node == NULL)
    return;

  self->following = TRUE;
  {
    GtkTreeListRow *selected_row = gtk_single_selection_get_selected_item (self->tree_selection);
    g_autoptr(PsCounterNode) selected = selected_row != NULL ? gtk_tree_list_row_get_item (selected_row) : NULL;

    if (selected != node)
      {
        guint position = open_tree_row (self, node);

        if (position != GTK_INVALID_LIST_POSITION)
          {
            gtk_single_selection_set_selected (self->tree_selection, position);
            gtk_widget_activate_action (GTK_WIDGET (self->counter_list), "list.scroll-to-item", "u", position);
          }
      }
  }
  if (GTK_IS_SINGLE_SELECTION (stats))
    {
      guint position = ps_selection_find_item (G_LIST_MODEL (self->checked_sorted), node);

      gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (stats), position);
      if (position != GTK_INVALID_LIST_POSITION)
        ps_selection_scroll_to_row (self->stats_view, position);
    }
  self->following = FALSE;
}

/* The tree */

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PsCountersView *self = user_data;
  PsCounterNode *node = item;

  if (self->search == NULL || ps_counter_node_matches (node, self->search))
    return TRUE;
  /* Below a node that matches, everything is shown */
  for (PsCounterNode *up = ps_counter_node_get_parent (node); up != NULL; up = ps_counter_node_get_parent (up))
    {
      g_autofree char *label = g_utf8_casefold (ps_counter_node_get_label (up), -1);

      if (strstr (label, self->search) != NULL)
        return TRUE;
    }
  return FALSE;
}

static GListModel *
create_children_model (gpointer item,
                       gpointer user_data)
{
  PsCountersView *self = user_data;
  GListStore *children = ps_counter_node_get_children (item);

  if (children == NULL)
    return NULL;
  return G_LIST_MODEL (gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (children)),
                                                  g_object_ref (GTK_FILTER (self->filter))));
}

static void
add_node (PsCountersView *self,
          PsEventStore   *store,
          guint32         track,
          PsCounterNode **nodes)
{
  const PsTrack *info = ps_event_store_get_track (store, track);
  PsCounterNode *parent = NULL;

  if (nodes[track] != NULL)
    return;
  if (info->parent != PS_NONE && info->parent < ps_event_store_get_n_tracks (store))
    {
      add_node (self, store, info->parent, nodes);
      parent = nodes[info->parent];
    }
  nodes[track] = ps_counter_node_new (store, track, parent);
  g_list_store_append (parent != NULL ? ps_counter_node_get_children (parent) : self->roots, nodes[track]);
  if (info->kind == PS_TRACK_COUNTER)
    {
      g_ptr_array_add (self->counters, g_object_ref (nodes[track]));
      g_signal_connect_object (nodes[track], "notify::checked", G_CALLBACK (ps_counters_view_counter_checked_cb), self,
                               G_CONNECT_SWAPPED);
    }
}

static void
make_tree (PsCountersView *self)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  guint n_tracks = ps_event_store_get_n_tracks (store);
  g_autofree PsCounterNode **nodes = g_new0 (PsCounterNode *, MAX (n_tracks, 1));  /* owned */
  g_autoptr(GtkFilterListModel) roots = NULL;

  for (guint32 t = 0; t < n_tracks; t++)
    if (ps_event_store_get_track (store, t)->kind == PS_TRACK_COUNTER)
      add_node (self, store, t, nodes);
  for (guint32 t = 0; t < n_tracks; t++)
    g_clear_object (&nodes[t]);

  roots = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->roots)), g_object_ref (GTK_FILTER (self->filter)));
  g_clear_object (&self->tree);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&roots)), FALSE, TRUE,
                                        create_children_model, self, NULL);
  gtk_single_selection_set_model (self->tree_selection, G_LIST_MODEL (self->tree));
}

/* The first processor-time counter, in any language, of every instance;
 * else the first counter */
static void
check_default_counters (PsCountersView *self)
{
  PsCounterNode *chosen = NULL;

  for (guint i = 0; i < self->counters->len && chosen == NULL; i++)
    {
      PsCounterNode *node = g_ptr_array_index (self->counters, i);
      g_autofree char *name = g_utf8_casefold (ps_counter_node_get_label (node), -1);

      if (strstr (name, "processor") != NULL || strstr (name, "processeur") != NULL)
        chosen = node;
    }
  if (chosen == NULL && self->counters->len > 0)
    chosen = g_ptr_array_index (self->counters, 0);
  if (chosen == NULL)
    return;

  for (guint i = 0; i < self->counters->len; i++)
    {
      PsCounterNode *node = g_ptr_array_index (self->counters, i);

      if (g_str_equal (ps_counter_node_get_label (node), ps_counter_node_get_label (chosen))
          && ps_counter_node_get_ancestor (node, PS_TRACK_OBJECT) == ps_counter_node_get_ancestor (chosen, PS_TRACK_OBJECT))
        ps_counter_node_set_checked (node, TRUE);
    }
}

static void
search_changed_cb (PsCountersView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && *text != '\0')
    self->search = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
stop_search_cb (PsCountersView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->counter_list));
}

/* Only the button that became active chooses: the other one's toggle
 * comes in between */
static void
mode_toggled_cb (PsCountersView  *self,
                 GtkToggleButton *button)
{
  if (gtk_toggle_button_get_active (button))
    ps_counters_view_set_stacked (self, button == self->stacked_button);
}

/* Rows of the tree: expander, check button, name and unit */

/* A counter's label shows its name; its tooltip its whole path */
static char *
tree_label_tooltip (gpointer item,
                    guint    column,
                    gpointer user_data)
{
  g_autoptr(PsCounterNode) node = gtk_tree_list_row_get_item (item);
  PsEventStore *store = ps_counter_node_get_store (node);
  const char *path = ps_event_store_get_string (store,
                                                ps_event_store_get_track (store, ps_counter_node_get_track (node))->category);

  return g_strdup (ps_counter_node_get_kind (node) == PS_TRACK_COUNTER && *path != '\0'
                   ? path : ps_counter_node_get_label (node));
}

static void
tree_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *unit = gtk_label_new (NULL);

  /* Focus stays on the row: Space checks it */
  gtk_widget_set_focusable (check, FALSE);
  /* The check box reads its state itself: GTK 4.8's indicator inside it
   * would read as "GtkBuiltinIcon" */
  if (gtk_widget_get_first_child (check) != NULL)
    gtk_accessible_update_state (GTK_ACCESSIBLE (gtk_widget_get_first_child (check)),
                                 GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  ps_view_cell_set_tooltip (label, list_item, 0, tree_label_tooltip, NULL);
  gtk_widget_add_css_class (unit, "dim-label");
  gtk_widget_add_css_class (unit, "caption");
  ps_accessible_hide_empty (GTK_LABEL (unit));
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), unit);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
}

static void
tree_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  g_autoptr(PsCounterNode) node = gtk_tree_list_row_get_item (tree_row);
  GtkWidget *box = gtk_tree_expander_get_child (expander);
  GtkWidget *check = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (check);
  GtkWidget *unit = gtk_widget_get_next_sibling (label);
  g_autofree char *path_name = NULL;
  GBinding *checked, *inconsistent;

  gtk_tree_expander_set_list_row (expander, tree_row);
  gtk_label_set_text (GTK_LABEL (label), ps_counter_node_get_label (node));
  gtk_label_set_text (GTK_LABEL (unit), ps_view_unit_name (ps_counter_node_get_unit (node)));
  checked = g_object_bind_property (node, "checked", check, "active", G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  inconsistent = g_object_bind_property (node, "inconsistent", check, "inconsistent", G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (list_item), "ps-checked", checked);
  g_object_set_data (G_OBJECT (list_item), "ps-inconsistent", inconsistent);
  path_name = ps_counter_node_dup_path (node);
  /* The check box alone would read "0": it says which counters it draws */
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, path_name, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LABEL, path_name, -1);
  ps_accessible_name_list_row (list_item, path_name);
}

static void
tree_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item)
{
  GBinding *checked = g_object_steal_data (G_OBJECT (list_item), "ps-checked");
  GBinding *inconsistent = g_object_steal_data (G_OBJECT (list_item), "ps-inconsistent");

  if (checked != NULL)
    g_binding_unbind (checked);
  if (inconsistent != NULL)
    g_binding_unbind (inconsistent);
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

/* Enter: checks a counter, opens or closes the others */
static void
tree_activate_cb (PsCountersView *self,
                  guint           position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree_selection), position);
  g_autoptr(PsCounterNode) node = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (node == NULL)
    return;
  if (gtk_tree_list_row_is_expandable (row))
    gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
  else
    ps_counter_node_set_checked (node, !ps_counter_node_get_checked (node));
}

static gboolean
tree_key_pressed_cb (PsCountersView        *self,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     GtkEventControllerKey *controller)
{
  if ((keyval != GDK_KEY_space && keyval != GDK_KEY_KP_Space)
      || (state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  ps_counters_view_toggle_selected (self);
  return TRUE;
}

/* The header and the data quality */

static void
update_header (PsCountersView *self)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  g_autoptr(GString) machines = g_string_new (NULL);
  g_autofree char *counters = ps_view_format_count (self->counters->len);
  g_autofree char *readings = ps_view_format_count (ps_event_store_get_n_counter_readings (store));
  g_autofree char *duration = NULL;
  g_autofree char *interval = NULL;
  g_autofree char *started = NULL;
  g_autofree char *started_tooltip = NULL;
  const PsSessionInfo *session = ps_event_store_get_n_sessions (store) > 0 ? ps_event_store_get_session (store, 0) : NULL;
  const char *first_local = session != NULL ? ps_event_store_get_metadata (store, 0, "first_sample_local") : NULL;
  const char *zone = session != NULL ? ps_event_store_get_metadata (store, 0, "time_zone") : NULL;
  gint64 begin = 0, end = 0;
  guint n_rows = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->roots)); i++)
    {
      g_autoptr(PsCounterNode) root = g_list_model_get_item (G_LIST_MODEL (self->roots), i);

      if (ps_counter_node_get_kind (root) != PS_TRACK_MACHINE)
        continue;
      if (machines->len > 0)
        g_string_append (machines, ", ");
      g_string_append (machines, ps_counter_node_get_label (root));
    }
  ps_view_set_header_value (self->machine_value, machines->len > 0 ? machines->str : _("This computer"), NULL);
  ps_view_set_header_value (self->counters_value, counters, NULL);
  ps_view_set_header_value (self->readings_value, readings, NULL);

  /* In the zone the log gives, named as the time axis names it; a local
   * time of no known zone says so */
  if (session != NULL && session->origin_unix_ns != 0)
    {
      int offset_minutes;

      ps_view_run_utc_offset (store, 0, &offset_minutes);
      started = ps_view_format_wall_time (session->origin_unix_ns, offset_minutes, "%Y-%m-%d %H:%M:%S");
      if (zone != NULL && first_local != NULL)
        /* Translators: the tooltip of the start time: the time zone's name
         * as the log gives it, and the local time as the log wrote it */
        started_tooltip = g_strdup_printf (_("%s; the log writes %s"), zone, first_local);
    }
  else if (first_local != NULL && g_strcmp0 (ps_event_store_get_metadata (store, 0, "time_zone_cut"), "true") == 0)
    {
      /* Translators: a local time as the log wrote it, whose time zone
       * Performance Monitor cut off (written in letters other than English) */
      started = g_strdup_printf (_("%s (time zone cut off)"), first_local);
      /* Translators: %s is what is left of the time zone's name */
      started_tooltip = g_strdup_printf (_("The log’s time zone is cut off after “%s”: its offset from UTC is unknown"),
                                         zone != NULL ? zone : "");
    }
  else if (first_local != NULL)
    /* Translators: a local time as the log wrote it, of a zone it does not give */
    started = g_strdup_printf (_("%s (time zone not given)"), first_local);
  ps_view_set_header_value (self->started_value, started != NULL ? started : "–",
                            started_tooltip != NULL ? started_tooltip : zone);

  if (ps_event_store_get_time_range (store, &begin, &end))
    duration = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, (double)(end - begin) / 1e9);
  ps_view_set_header_value (self->duration_value, duration != NULL ? duration : "–", NULL);

  /* The mean time between the samples of the first counter */
  if (self->counters->len > 0)
    {
      PsCounterNode *first = g_ptr_array_index (self->counters, 0);
      const PsCounterStats *stats = ps_event_store_get_counter_stats (store, ps_counter_node_get_track (first));

      if (stats != NULL)
        n_rows = (guint)(stats->n_values + stats->n_missing);
    }
  if (n_rows > 1 && end > begin)
    interval = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, (double)(end - begin) / 1e9 / (n_rows - 1));
  ps_view_set_header_value (self->interval_value, interval != NULL ? interval : "–", NULL);
}

static void
update_quality (PsCountersView *self)
{
  PsEventStore *store = ps_run_view_get_store (PS_RUN_VIEW (self));
  g_autoptr(GString) summary = g_string_new (NULL);
  guint64 n_missing = 0;
  guint stride = ps_event_store_get_counter_stride (store);
  g_autofree char *readings = ps_view_format_count (ps_event_store_get_n_counter_readings (store));
  g_autofree char *missing = NULL;

  for (guint i = 0; i < self->counters->len; i++)
    {
      const PsCounterStats *stats = ps_event_store_get_counter_stats (store,
                                                                      ps_counter_node_get_track (g_ptr_array_index (self->counters, i)));

      if (stats != NULL)
        n_missing += stats->n_missing;
    }
  missing = ps_view_format_count (n_missing);
  g_string_append_printf (summary, g_dngettext (GETTEXT_PACKAGE,
                                                /* Translators: "37 readings, 9 without a value (blank, or the first of a rate)." */
                                                "%s reading, %s without a value (blank, or the first of a rate).",
                                                "%s readings, %s without a value (blank, or the first of a rate).",
                                                ps_event_store_get_n_counter_readings (store)),
                          readings, missing);
  if (stride > 1)
    {
      g_string_append_c (summary, '\n');
      g_string_append_printf (summary,
                              _("The run has more readings than are kept: one in %u is kept for the read-out; the charts and statistics still see every reading."),
                              stride);
    }
  gtk_label_set_text (self->quality_label, summary->str);

  ps_run_view_list_warnings (PS_RUN_VIEW (self), &self->warnings, store,
                             self->warnings_stack, self->warnings_overflow_label);
  ps_view_set_column_model (self->warning_view, G_LIST_MODEL (self->warnings));
}

static void
clear_run (PsCountersView *self)
{
  g_clear_handle_id (&self->update_id, g_source_remove);
  ps_counters_view_cancel_range_stats (self);
  g_clear_pointer (&self->range_stats, g_free);
  self->range_n_tracks = 0;
  gtk_widget_set_visible (self->range_box, FALSE);
  gtk_single_selection_set_model (self->tree_selection, NULL);
  g_clear_object (&self->tree);
  g_list_store_remove_all (self->roots);
  g_ptr_array_set_size (self->counters, 0);
  g_hash_table_remove_all (self->points);
  g_list_store_remove_all (self->checked);
}

/* Actions */

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PsCountersView *self = PS_COUNTERS_VIEW (widget);

  ps_counters_view_show_page (self, "counters");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* PsRunView */

static gboolean
run_view_is_busy (PsRunView *view)
{
  PsCountersView *self = PS_COUNTERS_VIEW (view);

  return self->range_cancellable != NULL;
}

static void
ps_counters_view_run_view_init (PsRunViewInterface *iface)
{
  static const PsViewLabelField header_fields[] = {
    { "machine", G_STRUCT_OFFSET (PsCountersView, machine_value) },
    { "counters", G_STRUCT_OFFSET (PsCountersView, counters_value) },
    { "readings", G_STRUCT_OFFSET (PsCountersView, readings_value) },
    { "started", G_STRUCT_OFFSET (PsCountersView, started_value) },
    { "duration", G_STRUCT_OFFSET (PsCountersView, duration_value) },
    { "interval", G_STRUCT_OFFSET (PsCountersView, interval_value) },
    { "quality", G_STRUCT_OFFSET (PsCountersView, quality_label) },
  };

  PS_RUN_VIEW_BIND_PARTS (iface, PsCountersView, warnings, header_fields, run_view_is_busy);
  iface->search_entry_offset = G_STRUCT_OFFSET (PsCountersView, search_entry);
  iface->session_offset = G_STRUCT_OFFSET (PsCountersView, session);
}

/* GObject */

static void
ps_counters_view_dispose (GObject *object)
{
  PsCountersView *self = PS_COUNTERS_VIEW (object);

  g_clear_handle_id (&self->update_id, g_source_remove);
  ps_counters_view_cancel_range_stats (self);
  ps_run_view_unfollow_session (&self->session, &self->session_handlers);

  ps_view_dispose_template (GTK_WIDGET (self), PS_TYPE_COUNTERS_VIEW);

  g_clear_pointer (&self->analysis, ps_run_analysis_unref);
  g_clear_object (&self->warnings);
  g_clear_object (&self->tree_selection);
  g_clear_object (&self->tree);
  g_clear_object (&self->filter);
  g_clear_object (&self->checked_sorted);
  g_clear_object (&self->checked);
  g_clear_object (&self->roots);
  g_clear_pointer (&self->counters, g_ptr_array_unref);
  g_clear_pointer (&self->points, g_hash_table_unref);
  g_clear_pointer (&self->charts, g_ptr_array_unref);

  G_OBJECT_CLASS (ps_counters_view_parent_class)->dispose (object);
}

static void
ps_counters_view_finalize (GObject *object)
{
  PsCountersView *self = PS_COUNTERS_VIEW (object);

  g_free (self->search);
  g_free (self->range_stats);

  G_OBJECT_CLASS (ps_counters_view_parent_class)->finalize (object);
}

static void
ps_counters_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PsCountersView *self = PS_COUNTERS_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_STACKED:
      g_value_set_boolean (value, self->stacked);
      break;
    default:
      if (!ps_run_view_get_property (object, value, pspec))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_counters_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  PsCountersView *self = PS_COUNTERS_VIEW (object);

  switch (prop_id)
    {
    case PROP_ANALYSIS:
      ps_counters_view_set_analysis (self, g_value_get_boxed (value));
      break;
    case PROP_SESSION:
      ps_counters_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_STACKED:
      ps_counters_view_set_stacked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_counters_view_class_init (PsCountersViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_counters_view_dispose;
  object_class->finalize = ps_counters_view_finalize;
  object_class->get_property = ps_counters_view_get_property;
  object_class->set_property = ps_counters_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         PS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STACKED] =
    g_param_spec_boolean ("stacked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_ANALYSIS, "analysis");

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-counters-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, machine_value);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, counters_value);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, readings_value);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, started_value);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, duration_value);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, interval_value);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, tree_paned);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, chart_paned);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, counter_list);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, selection_label);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, overlaid_button);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, stacked_button);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, chart_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, charts_box);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, stats_view);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, range_box);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, range_label);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, warnings_page);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, quality_label);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, warnings_overflow_label);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, warnings_stack);
  gtk_widget_class_bind_template_child (widget_class, PsCountersView, warning_view);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, mode_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_all_readings_cb);

  gtk_widget_class_install_action (widget_class, "counters.focus-search", NULL, focus_search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "counters.focus-search", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "countersview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
ps_counters_view_init (PsCountersView *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->roots = g_list_store_new (PS_TYPE_COUNTER_NODE);
  self->counters = g_ptr_array_new_with_free_func (g_object_unref);
  self->points = g_hash_table_new_full (NULL, NULL, NULL, ps_counters_view_points_release);
  self->checked = g_list_store_new (PS_TYPE_COUNTER_NODE);
  self->charts = g_ptr_array_new ();
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  /* Translators: the view of a run, for a screen reader */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Performance counters"), -1);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  /* Data Quality's summary is selectable, above the warnings */
  ps_selection_stack_focus_past_labels (self->view_stack);

  self->tree_selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->tree_selection, TRUE);
  g_signal_connect (factory, "setup", G_CALLBACK (tree_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (tree_bind_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (tree_unbind_cb), NULL);
  gtk_list_view_set_factory (self->counter_list, factory);
  gtk_list_view_set_model (self->counter_list, GTK_SELECTION_MODEL (self->tree_selection));
  g_signal_connect_object (self->tree_selection, "notify::selected-item",
                           G_CALLBACK (tree_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->counter_list, "activate", G_CALLBACK (tree_activate_cb), self, G_CONNECT_SWAPPED);
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (tree_key_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->counter_list), keys);

  ps_counters_view_add_stats_columns (self);
  ps_warning_columns_add (self->warning_view);
  /* The tree beside the charts: a quarter of the width, at most 360 px;
   * the charts above the table: two thirds of the height */
  ps_view_place_paned (self->tree_paned, "counters-tree", 0.25, 360);
  ps_view_place_paned (self->chart_paned, "counters-chart", 2 / 3.0, 0);
  gtk_stack_set_visible_child_name (self->chart_stack, "empty");
}

GtkWidget *
ps_counters_view_new (void)
{
  return g_object_new (PS_TYPE_COUNTERS_VIEW, NULL);
}

void
ps_counters_view_set_analysis (PsCountersView *self,
                               PsRunAnalysis  *analysis)
{
  g_return_if_fail (PS_IS_COUNTERS_VIEW (self));

  if (self->analysis == analysis)
    return;

  clear_run (self);
  ps_run_analysis_set (&self->analysis, analysis);

  if (self->analysis != NULL)
    {
      make_tree (self);
      check_default_counters (self);
      update_header (self);
      update_quality (self);
      ps_counters_view_show_page (self, "counters");
    }
  ps_counters_view_update_charts (self);

  g_object_notify (G_OBJECT (self), "analysis");
}

void
ps_counters_view_set_session (PsCountersView *self,
                              PsSession      *session)
{
  g_return_if_fail (PS_IS_COUNTERS_VIEW (self));
  g_return_if_fail (session == NULL || PS_IS_SESSION (session));

  if (self->session == session)
    return;

  ps_run_view_follow_session (PS_RUN_VIEW (self), &self->session, &self->session_handlers, session,
                              G_CALLBACK (ps_counters_view_apply_time_selection),
                              G_CALLBACK (ps_counters_view_follow_session),
                              G_CALLBACK (ps_counters_view_apply_range));
  ps_counters_view_apply_range (self);
  ps_counters_view_apply_time_selection (self);
  if (session != NULL)
    {
      g_autoptr(GPtrArray) checked = ps_counters_view_list_checked (self);

      ps_counters_view_share_checked_tracks (self, checked);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

gboolean
ps_counters_view_get_stacked (PsCountersView *self)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), FALSE);
  return self->stacked;
}

void
ps_counters_view_set_stacked (PsCountersView *self,
                              gboolean        stacked)
{
  g_return_if_fail (PS_IS_COUNTERS_VIEW (self));

  stacked = !!stacked;
  if (self->stacked == stacked)
    return;

  self->stacked = stacked;
  for (guint i = 0; i < self->charts->len; i++)
    ps_counter_chart_set_stacked (g_ptr_array_index (self->charts, i), stacked);
  gtk_toggle_button_set_active (stacked ? self->stacked_button : self->overlaid_button, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STACKED]);
}

/* F9: the counter tree beside the view, shown or hidden */
void
ps_counters_view_toggle_side_pane (PsCountersView *self)
{
  GtkWidget *side;

  g_return_if_fail (PS_IS_COUNTERS_VIEW (self));

  side = gtk_paned_get_start_child (self->tree_paned);
  gtk_widget_set_visible (side, !gtk_widget_get_visible (side));
}

void
ps_counters_view_show_page (PsCountersView *self,
                            const char     *name)
{
  g_return_if_fail (PS_IS_COUNTERS_VIEW (self));
  gtk_stack_set_visible_child_name (self->view_stack, name);
}

/* Testing API (ps-counters-view-private.h) */

GtkSelectionModel *
ps_counters_view_get_tree_selection (PsCountersView *self)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), NULL);
  return GTK_SELECTION_MODEL (self->tree_selection);
}

PsCounterNode *
ps_counters_view_find_counter (PsCountersView *self,
                               const char     *path)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), NULL);

  for (guint i = 0; i < self->counters->len; i++)
    {
      PsCounterNode *node = g_ptr_array_index (self->counters, i);
      PsEventStore *store = ps_counter_node_get_store (node);
      const PsTrack *track = ps_event_store_get_track (store, ps_counter_node_get_track (node));

      if (g_strcmp0 (ps_event_store_get_string (store, track->category), path) == 0)
        return node;
    }
  return NULL;
}

GPtrArray *
ps_counters_view_list_checked (PsCountersView *self)
{
  GPtrArray *checked = g_ptr_array_new ();

  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), checked);

  for (guint i = 0; i < self->counters->len; i++)
    if (ps_counter_node_get_checked (g_ptr_array_index (self->counters, i)))
      g_ptr_array_add (checked, g_ptr_array_index (self->counters, i));
  return checked;
}

void
ps_counters_view_toggle_selected (PsCountersView *self)
{
  GtkTreeListRow *row;
  g_autoptr(PsCounterNode) node = NULL;

  g_return_if_fail (PS_IS_COUNTERS_VIEW (self));

  row = gtk_single_selection_get_selected_item (self->tree_selection);
  node = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  if (node != NULL)
    ps_counter_node_set_checked (node, !ps_counter_node_get_checked (node));
}

void
ps_counters_view_update_now (PsCountersView *self)
{
  g_return_if_fail (PS_IS_COUNTERS_VIEW (self));
  if (self->update_id != 0)
    ps_counters_view_update_charts (self);
}

guint
ps_counters_view_get_n_charts (PsCountersView *self)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), 0);
  return self->charts->len;
}

PsCounterChart *
ps_counters_view_get_chart (PsCountersView *self,
                            guint           index)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), NULL);
  g_return_val_if_fail (index < self->charts->len, NULL);
  return g_ptr_array_index (self->charts, index);
}

GListModel *
ps_counters_view_get_stats_model (PsCountersView *self)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), NULL);
  return G_LIST_MODEL (self->checked_sorted);
}

GtkColumnView *
ps_counters_view_get_stats_view (PsCountersView *self)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), NULL);
  return self->stats_view;
}

char *
ps_counters_view_get_stats_cell_text (PsCountersView *self,
                                      PsCounterNode  *node,
                                      const char     *column)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), NULL);

  for (StatsColumn c = 0; c < N_STATS_COLUMNS; c++)
    if (g_strcmp0 (ps_counters_view_stats_column_title (c), column) == 0)
      return ps_counters_view_stats_cell_text (self, node, c);
  return NULL;
}

const char *
ps_counters_view_get_range_notice (PsCountersView *self)
{
  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), NULL);

  if (!gtk_widget_get_visible (self->range_box))
    return NULL;
  return gtk_label_get_text (self->range_label);
}

guint32
ps_counters_view_get_series_track (PsCountersView *self,
                                   guint           chart,
                                   guint           series)
{
  GArray *tracks;

  g_return_val_if_fail (PS_IS_COUNTERS_VIEW (self), PS_NONE);

  if (chart >= self->charts->len)
    return PS_NONE;
  tracks = g_object_get_data (g_ptr_array_index (self->charts, chart), "ps-series-tracks");
  return tracks != NULL && series < tracks->len ? g_array_index (tracks, guint32, series) : PS_NONE;
}

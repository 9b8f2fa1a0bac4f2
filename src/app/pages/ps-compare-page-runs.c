/* ps-compare-page-runs.c — the two runs of a comparison side by side
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runs' pages under the table: their sessions follow each other's
 * visible range and selection (B shifted by the offset, or aligned at a
 * mark chosen in each run), charts of the same values share one scale,
 * and the runs are side by side or stacked, stacked anyway when they are
 * too wide for half the page. The row selected in the table is selected
 * in both runs and its values drawn as histograms. Apart from the table
 * (ps-compare-page-table.c) and the diff (ps-compare-page-diff.c): this
 * is the runs' half of the page, which only reads the rows.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "ps-compare-page-private.h"
#include "ps-compare-row.h"
#include "ps-run-page-private.h"
#include "ps-util.h"

/* The width of the Align At dropdowns' buttons, in characters */
#define ALIGN_BUTTON_CHARS 10
#define NS_PER_MS 1000000.0

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

  if (run == NULL || !ps_compare_page_is_read (ps_run_page_get_state (run)) || ps_run_page_get_store (run) == NULL)
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

/* Whether what one run shows may be shown on the other: not while one
 * follows the other already, and a range over time means nothing on a
 * sequence axis, nor the reverse */
static gboolean
may_sync (PsComparePage *self)
{
  return !self->syncing && self->sessions[0] != NULL && self->sessions[1] != NULL && axes_agree (self);
}

/* B's time t shows next to A's time t − offset: [begin, end] of run @from
 * moved onto the other run's times */
static void
shift_to_other_run (PsComparePage *self,
                    guint          from,
                    gint64        *begin,
                    gint64        *end)
{
  gint64 offset_ns = offset_ns_in_force (self);

  if (from == 0)
    *begin += offset_ns, *end += offset_ns;
  else
    *begin -= offset_ns, *end -= offset_ns;
}

/* Whether run @from shows its whole run, as its timeline does once it has
 * indexed the run and on Reset Zoom: both runs are then shown whole, on
 * one scale, into *begin and *end of run @from, whichever run was read
 * last */
static gboolean
both_whole (PsComparePage *self,
            guint          from,
            gint64        *begin,
            gint64        *end)
{
  gint64 whole_begin[2], whole_end[2];

  for (guint side = 0; side < 2; side++)
    if (!ps_session_get_whole_range (self->sessions[side], &whole_begin[side], &whole_end[side]))
      return FALSE;
  if (*begin != whole_begin[from] || *end != whole_end[from])
    return FALSE;
  shift_to_other_run (self, 1 - from, &whole_begin[1 - from], &whole_end[1 - from]);
  *begin = MIN (whole_begin[0], whole_begin[1]);
  *end = MAX (whole_end[0], whole_end[1]);
  return TRUE;
}

void
ps_compare_page_sync_range (PsComparePage *self,
                            guint          from)
{
  gint64 begin, end;
  guint to = 1 - from;
  gboolean whole;

  if (!may_sync (self))
    return;

  ps_session_get_visible_range (self->sessions[from], &begin, &end);
  whole = both_whole (self, from, &begin, &end);
  self->syncing = TRUE;
  if (whole)
    ps_session_set_visible_range (self->sessions[from], begin, end);
  shift_to_other_run (self, from, &begin, &end);
  ps_session_set_visible_range (self->sessions[to], begin, end);
  self->syncing = FALSE;
}

static void
sync_selection (PsComparePage *self,
                guint          from)
{
  gint64 begin, end;
  guint to = 1 - from;

  if (!may_sync (self))
    return;

  self->syncing = TRUE;
  if (ps_session_get_selection (self->sessions[from], &begin, &end))
    {
      shift_to_other_run (self, from, &begin, &end);
      ps_session_set_selection (self->sessions[to], begin, end);
    }
  else
    ps_session_clear_selection (self->sessions[to]);
  self->syncing = FALSE;
}

static void
range_changed_a_cb (PsComparePage *self)
{
  ps_compare_page_sync_range (self, 0);
}

static void
range_changed_b_cb (PsComparePage *self)
{
  ps_compare_page_sync_range (self, 1);
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

void
ps_compare_page_watch_session (PsComparePage *self,
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
void
ps_compare_page_update_same_scale (PsComparePage *self)
{
  gboolean charted = run_axis (self, 0) != RUN_AXIS_NONE && run_axis (self, 1) != RUN_AXIS_NONE;

  gtk_widget_set_visible (GTK_WIDGET (self->same_scale_button), charted);
  if (self->run_pages[0] != NULL && self->run_pages[1] != NULL)
    ps_run_page_set_shared_value_scale (self->run_pages[0], self->run_pages[1],
                                        charted && gtk_toggle_button_get_active (self->same_scale_button));
}

void
ps_compare_page_offset_changed_cb (PsComparePage *self,
                                   GtkSpinButton *spin)
{
  self->offset_ms = gtk_spin_button_get_value (spin);
  /* A leads; B moves */
  ps_compare_page_sync_range (self, 0);
}

/* Aligning at a mark: each dropdown lists "Run start" and its run's marks
 * by text, each text once at its first occurrence; choosing one on each
 * side sets the offset that puts them next to each other */

void
ps_compare_page_align_changed_cb (PsComparePage *self)
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

void
ps_compare_page_set_align_factories (GtkDropDown *dropdown)
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
void
ps_compare_page_update_align (PsComparePage *self)
{
  gboolean has_marks[2];
  const char *tooltip = NULL;

  for (guint side = 0; side < 2; side++)
    {
      GtkDropDown *dropdown = side == 0 ? self->align_a_dropdown : self->align_b_dropdown;
      PsEventStore *store = NULL;

      if (self->run_pages[side] != NULL && ps_compare_page_is_read (ps_run_page_get_state (self->run_pages[side])))
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
  ps_compare_page_update_same_scale (self);
}

void
ps_compare_page_layout_toggled_cb (PsComparePage   *self,
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
void
ps_compare_page_apply_layout (PsComparePage *self)
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
  ps_compare_page_apply_layout (self);
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
void
ps_compare_page_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural)
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

void
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
char *
ps_compare_page_values_key (const char *kind,
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
  key = ps_compare_page_values_key (row->kind, row->context, side == 0 && row->a_name != NULL ? row->a_name : row->name);
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
void
ps_compare_page_follow_selected_row (PsComparePage *self)
{
  PsCompareRow *item = gtk_single_selection_get_selected_item (self->selection);
  const PsRunDiffRow *row = item != NULL ? ps_compare_row_get_row (item) : NULL;

  for (guint side = 0; side < 2; side++)
    {
      const char *name;
      g_autofree char *function_name = NULL;
      g_autofree char *module_name = NULL;
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
      if (g_strcmp0 (row->kind, "span") == 0)
        {
          /* A scope's name, "module (author) function": the calls of its
           * function in its module, as the run's call tree reads them */
          gsize function_length = 0, module_length = 0;
          const char *function = ps_call_tree_function_of_name (name, &function_length);
          const char *module = ps_call_tree_module_of_name (name, &module_length);

          function_name = g_strndup (function, function_length);
          module_name = module != NULL ? g_strndup (module, module_length) : NULL;
        }
      else
        function_name = g_strdup (name);
      /* Translators: what the timeline highlights; %s is a function */
      description = g_strdup_printf (_("Calls of %s"), function_name);
      ps_session_highlight_function (self->sessions[side], function_name, module_name, description);
    }

  update_histogram (self, row);
  self->can_match = row != NULL && row->has_a && !row->has_b && has_rows_only_in_b (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.match-with", self->can_match);
}

/* The row the user selects (or unselects) is the one the table keeps
 * selected through its filters (ps-compare-page-table.c) */
void
ps_compare_page_selected_row_changed_cb (PsComparePage *self)
{
  /* A filter changing: the table selects the row again, then the views follow */
  if (self->refiltering)
    return;
  g_set_object (&self->chosen_row, gtk_single_selection_get_selected_item (self->selection));
  ps_compare_page_follow_selected_row (self);
}

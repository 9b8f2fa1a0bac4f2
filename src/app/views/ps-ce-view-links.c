/* ps-ce-view-links.c — the CE view's links with the other views of the
 * run: the chosen marker and the histogram's bars on the timeline, and
 * what the timeline chose selected here
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from the widget (ps-ce-view.c) because all of it goes through the
 * run's session (PsSession, docs/selection.md): the view sets the
 * session's focus and highlighted points, and follows its focus, its
 * selected range and its log session.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-ce-view-internal.h"
#include "ps-selection-util.h"

/* Links with the other views of the run (docs/selection.md): the marker
 * chosen here is focused on the timeline, the histogram's bars highlight
 * their measurements there; a chart or a point chosen on the timeline
 * selects its marker here, and the bar of that point's duration */

static PsMarkerRow *
selected_marker (PsCeView *self)
{
  return ps_selection_get_selected_row_item (self->marker_view);
}

void
ps_ce_view_focus_selected_marker (PsCeView *self)
{
  g_autoptr(PsMarkerRow) row = selected_marker (self);
  const PsSeries *series;

  if (self->run_session == NULL || row == NULL)
    return;
  series = ps_marker_row_get_series (row);
  ps_session_set_focus_tracks (self->run_session, series->tracks, series->n_instances);
}

/* The measurements of the selected bars, highlighted on the timeline */
void
ps_ce_view_histogram_selection_changed_cb (PsCeView *self)
{
  g_autoptr(GArray) chosen = NULL;
  g_autoptr(PsMarkerRow) row = NULL;
  g_autofree char *name = NULL;
  g_autofree char *lower = NULL;
  g_autofree char *upper = NULL;
  g_autofree char *description = NULL;
  g_autofree char *count = NULL;
  g_autoptr(PsHistogramSelection) selection = NULL;

  if (self->run_session == NULL)
    return;
  g_object_get (self->histogram_view, "selection", &selection, NULL);
  row = selected_marker (self);
  if (selection == NULL || self->histogram_indexes == NULL || row == NULL)
    {
      ps_session_set_highlight_measurements (self->run_session, NULL, 0, NULL);
      return;
    }

  chosen = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint i = 0; i < self->histogram_indexes->len; i++)
    if (ps_histogram_view_selection_contains (self->histogram_view, g_array_index (self->histogram_values, double, i)))
      g_array_append_val (chosen, g_array_index (self->histogram_indexes, guint64, i));
  name = ps_ce_view_series_label (ps_marker_row_get_series (row));
  lower = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, selection->lower);
  upper = ps_view_format_quantity (PS_VIEW_QUANTITY_SECONDS, selection->upper);
  /* Translators: what the timeline highlights: a marker's measurements
   * whose durations lie in the bars selected on its histogram */
  count = ps_view_format_count (chosen->len);
  description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s measurement of %s from %s to %s",
                                              "%s measurements of %s from %s to %s", chosen->len),
                                 count, name, lower, upper);
  ps_session_set_highlight_measurements (self->run_session, (const guint64 *)(gpointer)chosen->data,
                                         chosen->len, description);
}

/* Selects the bar of the chosen measurement's duration once the
 * histogram has the marker's values */
void
ps_ce_view_select_pending_value (PsCeView *self)
{
  const PsHistogram *histogram = ps_histogram_view_get_histogram (self->histogram_view);

  if (isnan (self->pending_value) || histogram == NULL)
    return;
  for (guint bin = 0; bin < histogram->n_bins; bin++)
    if (self->pending_value >= histogram->bins[bin].lower
        && (self->pending_value < histogram->bins[bin].upper || bin + 1 == histogram->n_bins))
      {
        self->following = TRUE;
        ps_histogram_view_select_bins (self->histogram_view, bin, bin);
        self->following = FALSE;
        break;
      }
  self->pending_value = NAN;
}

/* Selects the first marker row (group or instance) whose tracks hold
 * track, opening its group when an instance of it is wanted; FALSE when
 * the table has none */
static gboolean
select_marker_of_track (PsCeView *self,
                        guint32   track,
                        gboolean  instance)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (self->marker_view);
  GListModel *shown = G_LIST_MODEL (self->marker_sorted);

  if (!GTK_IS_SINGLE_SELECTION (selection))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (shown, i);
      g_autoptr(PsMarkerRow) row = gtk_tree_list_row_get_item (tree_row);
      const PsSeries *series = ps_marker_row_get_series (row);
      gboolean holds = FALSE;

      for (guint t = 0; t < series->n_instances && !holds; t++)
        holds = series->tracks[t] == track;
      if (!holds)
        continue;
      /* An instance of a group of several is its child */
      if (instance && series->n_instances > 1 && gtk_tree_list_row_is_expandable (tree_row))
        {
          gtk_tree_list_row_set_expanded (tree_row, TRUE);
          continue;
        }
      if (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (selection)) != i)
        gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), i);
      ps_selection_scroll_to_row (self->marker_view, i);
      return TRUE;
    }
  return FALSE;
}

/* Whether the track is charted on the CPU & Memory page */
static gboolean
is_monitor_track (PsCeView *self,
                  guint32   track)
{
  for (guint i = 0; self->shown != NULL && i < self->shown->groups->len; i++)
    {
      PsSeries *series = g_ptr_array_index (self->shown->groups, i);

      if (series->kind != PS_SERIES_CPU && series->kind != PS_SERIES_MEMORY)
        continue;
      for (guint j = 0; j < series->n_instances; j++)
        if (series->tracks[j] == track)
          return TRUE;
    }
  return FALSE;
}

/* What another view chose: the marker of a measurement and the bar of
 * its duration, the marker of a chart, or the page of a CPU or memory
 * chart */
static void
follow_session (PsCeView *self)
{
  g_autoptr(PsMarkerRow) row = NULL;
  guint64 measurement = ps_session_get_selected_measurement (self->run_session);
  guint n_tracks;
  const guint32 *tracks = ps_session_get_focus_tracks (self->run_session, &n_tracks);
  gboolean covered = n_tracks > 0;

  if (self->analysis == NULL || n_tracks == 0)
    return;

  /* The selected row stands for the focus already: nothing to do */
  row = selected_marker (self);
  for (guint i = 0; i < n_tracks && covered; i++)
    {
      const PsSeries *series = row != NULL ? ps_marker_row_get_series (row) : NULL;
      gboolean found = FALSE;

      for (guint t = 0; series != NULL && t < series->n_instances && !found; t++)
        found = series->tracks[t] == tracks[i];
      covered = found;
    }

  self->following = TRUE;
  if (measurement != PS_SESSION_NO_MEASUREMENT)
    {
      PsMeasurement m;

      ps_event_store_get_measurement (self->analysis->store, measurement, &m);
      if (m.kind == PS_MEASURE_DURATION && !(m.flags & PS_MEASURE_FLAG_NEGATIVE))
        {
          self->pending_value = ps_series_measurement_value (self->analysis->store, &m);
          if (covered || select_marker_of_track (self, m.track, TRUE))
            {
              ps_ce_view_show_page (self, "markers");
              if (self->histogram_cancellable == NULL)
                ps_ce_view_select_pending_value (self);
            }
          else
            self->pending_value = NAN;
        }
      else if (is_monitor_track (self, m.track))
        ps_ce_view_show_page (self, "cpu-memory");
    }
  else if (is_monitor_track (self, tracks[0]))
    ps_ce_view_show_page (self, "cpu-memory");
  else if (!covered && select_marker_of_track (self, tracks[0], n_tracks == 1))
    ps_ce_view_show_page (self, "markers");
  self->following = FALSE;
}

/* The log session chosen in the drop-down: its rows and measurements
 * on the timeline */
void
ps_ce_view_reveal_log_session (PsCeView *self)
{
  if (self->run_session != NULL)
    ps_session_set_log_session (self->run_session, self->session);
}

void
ps_ce_view_link_session (PsCeView  *self,
                         PsSession *session)
{
  g_return_if_fail (PS_IS_CE_VIEW (self));

  if (self->run_session == session)
    return;
  ps_run_view_follow_session (PS_RUN_VIEW (self), &self->run_session, &self->session_handlers, session,
                              G_CALLBACK (ps_ce_view_range_selected_cb), G_CALLBACK (follow_session), NULL);
  ps_ce_view_range_selected_cb (self);
}

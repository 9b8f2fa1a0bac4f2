/* ps-rtl-view-chart.c — the RTL view's chart of the selected total's
 * durations along the log, with the changes of their level marked
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.3 (a scope's duration). Each call of the
 * selected total is a point at the time it began, as high as it lasted,
 * on the log's time; a level that steps up or climbs along the log is
 * marked where it begins (ps-counter-changes.h), as on the CE view's CPU
 * and memory charts. A total of a busy scope has millions of calls:
 * gathering them, putting them in time order and looking for changes is
 * done in a worker, which a newer selection cancels, and the chart draws
 * them from their level-of-detail index. A total none of whose calls has
 * a duration (the Excluded column) has the chart say why, and the
 * histogram beside it the same words, so that the two do not read as
 * different answers.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>

#include "ps-rtl-view-private.h"
#include "ps-task-util.h"
#include "ps-view-util.h"

typedef struct
{
  PsScopeAnalysis *scopes;
  const PsSeries  *series;    /* of scopes, which keeps it */
  char            *label;
  /* What the worker makes */
  PsValueLod      *values;    /* seconds at each call's begin */
  GArray          *changes;   /* PsCounterChange */
  double           longest;   /* seconds */
  /* Why its calls were left out, when none is left */
  PsScopeExclusions exclusions;
} ChartWork;

static void
chart_work_free (gpointer data)
{
  ChartWork *work = data;

  g_clear_pointer (&work->scopes, ps_scope_analysis_unref);
  g_free (work->label);
  g_clear_pointer (&work->values, ps_value_lod_unref);
  g_clear_pointer (&work->changes, g_array_unref);
  g_free (work);
}

typedef struct
{
  gint64 begin_ns;
  gsize  order;     /* in the store: calls that begin together keep it */
  double seconds;
} Call;

static int
compare_calls (const void *a,
               const void *b)
{
  const Call *first = a;
  const Call *second = b;

  if (first->begin_ns != second->begin_ns)
    return first->begin_ns < second->begin_ns ? -1 : 1;
  return (first->order > second->order) - (first->order < second->order);
}

/* The series' calls in the order they began: the store keeps a thread's
 * spans in the order they ended, and the threads one after another */
static void
collect_calls (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ChartWork *work = task_data;
  g_autoptr(GArray) durations = NULL;
  g_autoptr(GArray) spans = NULL;
  g_autofree Call *calls = NULL;
  gint64 *x;
  double *values;
  PsChangePointOptions options;
  gboolean sorted = TRUE;
  gsize n;

  durations = ps_scope_analysis_get_durations (work->scopes, work->series, &spans);
  n = durations->len;
  if (n == 0 && work->series->n_excluded > 0)
    ps_scope_analysis_count_exclusions (work->scopes, work->series, &work->exclusions);
  if (g_task_return_error_if_cancelled (task))
    return;

  calls = g_new (Call, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      const PsSpan *span = ps_event_store_get_span (work->scopes->store, g_array_index (spans, guint64, i));

      calls[i] = (Call) { span->begin_ns, i, g_array_index (durations, double, i) };
      sorted = sorted && (i == 0 || calls[i - 1].begin_ns <= calls[i].begin_ns);
      work->longest = MAX (work->longest, calls[i].seconds);
    }
  if (!sorted)
    qsort (calls, n, sizeof (Call), compare_calls);
  if (g_task_return_error_if_cancelled (task))
    return;

  x = g_new (gint64, MAX (n, 1));
  values = g_new (double, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      x[i] = calls[i].begin_ns;
      values[i] = calls[i].seconds;
    }
  ps_change_point_options_init (&options);
  work->changes = ps_counter_changes_find_in_points (x, values, n, &options);
  work->values = ps_value_lod_new_take (x, values, n);
  g_task_return_boolean (task, TRUE);
}

/* How many calls were left out for one reason, in a list of several:
 * reason as in describe_no_durations() */
static char *
describe_reason (guint   reason,
                 guint64 n_calls)
{
  g_autofree char *count = ps_view_format_count (n_calls);

  switch (reason)
    {
    case 0:
      /* Translators: calls of a scope left out of the statistics, one
       * reason among others: "2 never ended" */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s never ended", "%s never ended", n_calls),
                              count);
    case 1:
      /* Translators: "1 still open when its enclosing scope ended" */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s still open when its enclosing scope ended",
                                           "%s still open when their enclosing scope ended", n_calls),
                              count);
    case 2:
      /* Translators: "3 with the clock going back inside" (the log's clock) */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s with the clock going back inside",
                                           "%s with the clock going back inside", n_calls),
                              count);
    default:
      /* Translators: "2 ended before they began" (the clock went back) */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s ended before it began",
                                           "%s ended before they began", n_calls),
                              count);
    }
}

/* Why the calls were left out, when it is the same for all of them */
static char *
describe_only_reason (guint   reason,
                      guint64 n_calls)
{
  switch (reason)
    {
    case 0:
      /* Translators: why every call of a scope was left out of the
       * statistics, in parentheses after their number */
      return g_strdup (g_dngettext (GETTEXT_PACKAGE, "it never ended", "they never ended", n_calls));
    case 1:
      return g_strdup (g_dngettext (GETTEXT_PACKAGE, "it was still open when its enclosing scope ended",
                                    "they were still open when their enclosing scope ended", n_calls));
    case 2:
      return g_strdup (g_dngettext (GETTEXT_PACKAGE, "the clock went back inside it",
                                    "the clock went back inside them", n_calls));
    default:
      return g_strdup (g_dngettext (GETTEXT_PACKAGE, "it ended before it began", "they ended before they began",
                                    n_calls));
    }
}

/* What the chart says when no call has a duration to show: how many
 * calls were left out of the statistics and why, as the Scopes page
 * marks each of them (rtl-logfile.md §4.3). The reasons, in the order
 * of PsScopeExclusions: 0 never ended, 1 closed with the parent, 2 the
 * clock went back, 3 ended before it began. */
static char *
describe_no_durations (const PsScopeExclusions *exclusions)
{
  const guint64 counts[] = {
    exclusions->unterminated, exclusions->closed_by_parent, exclusions->clock_back, exclusions->negative
  };
  g_autoptr(GString) reasons = g_string_new (NULL);
  g_autofree char *excluded = NULL;
  guint64 n_excluded = 0;
  guint n_reasons = 0, last_reason = 0;

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (counts[i] > 0)
      {
        n_excluded += counts[i];
        n_reasons++;
        last_reason = i;
      }
  if (n_excluded == 0)
    /* Translators: a chart of a scope's calls, none of which has a duration */
    return g_strdup (_("No durations"));

  if (n_reasons == 1)
    {
      g_autofree char *reason = describe_only_reason (last_reason, n_excluded);

      g_string_append (reasons, reason);
    }
  else
    for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
      if (counts[i] > 0)
        {
          g_autofree char *reason = describe_reason (i, counts[i]);

          if (reasons->len > 0)
            /* Translators: between the reasons why calls were left out */
            g_string_append (reasons, _(", "));
          g_string_append (reasons, reason);
        }

  /* Translators: on the chart of a scope's durations when every call was
   * left out of the statistics (the Totals' Excluded column); the reasons
   * follow in parentheses: "No complete calls: 1 excluded (the clock went
   * back inside it)" */
  excluded = ps_view_format_count (n_excluded);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "No complete calls: %s excluded (%s)",
                                       "No complete calls: %s excluded (%s)", n_excluded),
                          excluded, reasons->str);
}

/* What the chart and the histogram beside it say while they have nothing
 * to show: one text for both, since both lack the same calls */
static void
set_empty_text (PsRtlView  *self,
                const char *text)
{
  ps_counter_chart_set_empty_text (self->duration_chart, text);
  ps_histogram_view_set_empty_text (self->histogram_view, text);
}

static void
show_calls (PsRtlView *self,
            ChartWork *work)
{
  double unit_seconds;
  const char *unit = ps_view_quantity_unit (PS_VIEW_QUANTITY_SECONDS, work->longest, &unit_seconds);
  g_autofree char *empty_text = NULL;
  guint series;

  ps_counter_chart_clear (self->duration_chart);
  ps_counter_chart_set_unit (self->duration_chart, unit, 1 / unit_seconds);
  /* None of the calls has a known duration: the chart and the histogram
   * say why */
  empty_text = describe_no_durations (&work->exclusions);
  set_empty_text (self, empty_text);
  if (ps_value_lod_get_n_points (work->values) == 0)
    return;
  series = ps_counter_chart_add_series (self->duration_chart, work->label, work->values);
  if (work->changes->len > 0)
    ps_counter_chart_set_series_changes (self->duration_chart, series, work->changes);
}

static void
collect_calls_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PsRtlView) self = user_data;
  GTask *task = G_TASK (result);

  if (!g_task_propagate_boolean (task, NULL) || g_task_get_cancellable (task) != self->chart_cancellable)
    return;
  g_clear_object (&self->chart_cancellable);
  show_calls (self, g_task_get_task_data (task));
}

/* The log's time, so that a call stands where the timeline has it */
static void
update_range (PsRtlView *self)
{
  gint64 begin, end;

  if (ps_event_store_get_time_range (self->analysis->store, &begin, &end) && begin < end)
    ps_counter_chart_set_x_range (self->duration_chart, begin, end);
  else
    ps_counter_chart_set_x_range (self->duration_chart, 0, 0);
}

void
ps_rtl_view_show_duration_chart (PsRtlView      *self,
                                 const PsSeries *series,
                                 const char     *label)
{
  g_autoptr(GTask) task = NULL;
  ChartWork *work;
  gint64 begin = 0, end = 0;
  gboolean has_selection;

  /* The range selected on the timeline, shaded */
  has_selection = self->session != NULL && ps_session_get_selection (self->session, &begin, &end);
  ps_counter_chart_set_selection (self->duration_chart, has_selection, begin, end);
  /* The same calls again (the totals follow a range dragged on the
   * timeline): only the shading moves */
  if (series != NULL && series == self->chart_series && self->scopes == self->chart_scopes)
    return;

  g_cancellable_cancel (self->chart_cancellable);
  g_clear_object (&self->chart_cancellable);
  g_clear_pointer (&self->chart_scopes, ps_scope_analysis_unref);
  self->chart_series = NULL;
  ps_counter_chart_clear (self->duration_chart);
  if (series == NULL || self->scopes == NULL)
    {
      ps_histogram_view_set_empty_text (self->histogram_view, NULL);
      return;
    }

  self->chart_scopes = ps_scope_analysis_ref (self->scopes);
  self->chart_series = series;
  update_range (self);
  /* Translators: shown on a chart while the calls of a scope name are
   * put in order in the background */
  set_empty_text (self, _("Gathering the calls…"));

  work = g_new0 (ChartWork, 1);
  work->scopes = ps_scope_analysis_ref (self->scopes);
  work->series = series;
  work->label = g_strdup (label);
  self->chart_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->chart_cancellable, collect_calls_cb, g_object_ref (self));
  g_task_set_source_tag (task, ps_rtl_view_show_duration_chart);
  g_task_set_task_data (task, work, chart_work_free);
  ps_task_run_in_background (task, collect_calls);
}

void
ps_rtl_view_init_duration_chart (PsRtlView *self)
{
  /* Translators: the title of a chart of each call's duration at the
   * time the call began; the unit follows in parentheses */
  ps_counter_chart_set_title (self->duration_chart, _("Duration by start time"));
}

PsCounterChart *
ps_rtl_view_get_duration_chart (PsRtlView *self)
{
  g_return_val_if_fail (PS_IS_RTL_VIEW (self), NULL);

  return self->duration_chart;
}

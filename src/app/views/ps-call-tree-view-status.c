/* ps-call-tree-view-status.c — what the call-tree page says around its
 * table: the format of the values, the columns' headers, the toolbar,
 * the notice and the status line
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §4 (the two bases of the percentages).
 *
 * Apart from the view (ps-call-tree-view.c) because all of it follows
 * the tree shown and the choices made: one unit for the whole tree,
 * named in every header, and the words that say what the numbers are of.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ps-call-tree-view-private.h"
#include "ps-util.h"
#include "ps-view-util.h"

static int text_width (GtkWidget  *widget,
                       const char *text);

/* Format: one unit for the whole tree, named in every header */

static gboolean
is_whole (double value,
          double quantum)
{
  return !isfinite (value) || fmod (value, quantum) == 0;
}

/* Whether the totals of the tree are whole numbers of quantum. The
 * functions and the session say it for the call paths too (their values are
 * sums of the same intervals), and the engine makes the statistics of call
 * paths only when they are asked for. */
static gboolean
tree_is_whole (PsCallTree *tree,
               double      quantum)
{
  if (!is_whole (ps_call_tree_get_elapsed_total (tree), quantum)
      || !is_whole (ps_call_tree_get_application_total (tree), quantum))
    return FALSE;

  for (guint f = 0; f < ps_call_tree_get_n_functions (tree); f++)
    {
      const PsCallStats *stats = ps_call_tree_get_function_stats (tree, f);

      for (guint v = 0; v < PS_N_CALL_VALUES; v++)
        if (!is_whole (stats->total[v], quantum))
          return FALSE;
    }
  return TRUE;
}

/* The module column is as wide as the longest name needs, within bounds */
void
ps_call_tree_view_update_module_width (PsCallTreeView *self)
{
  gsize longest = 0;
  const char *longest_name = NULL;

  self->module_width = 0;
  if (self->tree == NULL)
    return;

  for (guint f = 0; f < ps_call_tree_get_n_functions (self->tree); f++)
    {
      const char *module = ps_call_tree_get_function_module (self->tree, f);
      gsize length = module != NULL ? strlen (module) : 0;

      if (length > longest)
        {
          longest = length;
          longest_name = module;
        }
    }

  if (longest_name != NULL)
    {
      g_autofree char *display = ps_util_display_text (longest_name, -1);

      self->module_width = text_width (GTK_WIDGET (self), display) + 24;
    }
}

/* Nanoseconds are shown as milliseconds: whole ones for logs with a
 * millisecond clock (RTL), else with three decimals (down to µs) */
void
ps_call_tree_view_update_format (PsCallTreeView *self)
{
  PsCallFormat *format = &self->format;

  format->scale = 1;
  format->samples = FALSE;
  switch (self->tree != NULL ? ps_call_tree_get_unit (self->tree) : PS_CALL_UNIT_NS)
    {
    case PS_CALL_UNIT_NS:
      format->scale = 1e-6;
      /* Translators: the unit of a column of times, milliseconds */
      format->unit = _("ms");
      format->decimals = self->tree == NULL || tree_is_whole (self->tree, 1e6) ? 0 : 3;
      break;
    case PS_CALL_UNIT_MS:
      format->unit = _("ms");
      format->decimals = tree_is_whole (self->tree, 1) ? 0 : 2;
      break;
    case PS_CALL_UNIT_TICKS:
      /* Translators: the unit of a column of timer ticks */
      format->unit = _("ticks");
      format->decimals = tree_is_whole (self->tree, 1) ? 0 : 2;
      break;
    case PS_CALL_UNIT_SAMPLES:
    default:
      /* Translators: the unit of a column of sample counts */
      format->unit = _("samples");
      format->decimals = tree_is_whole (self->tree, 1) ? 0 : 2;
      format->samples = TRUE;
      break;
    }
}

static gboolean
has_application_values (PsCallTreeView *self)
{
  return self->tree == NULL || isfinite (ps_call_tree_get_application_total (self->tree));
}

static int
text_width (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* GTK 4.8 keeps the fixed width of a hidden column as empty space at the
 * end of the table */
static void
set_column_shown (GtkColumnViewColumn *column,
                  gboolean             shown)
{
  if (!shown)
    gtk_column_view_column_set_fixed_width (column, -1);
  gtk_column_view_column_set_visible (column, shown);
}

/* Headers name the unit; a column is as wide as its header (with room
 * for the sort arrow), so that no header is cut */
void
ps_call_tree_view_update_columns (PsCallTreeView       *self,
                                  GtkColumnViewColumn **columns,
                                  gboolean              in_tree)
{
  gboolean has_calls = self->tree == NULL || ps_call_tree_get_unit (self->tree) != PS_CALL_UNIT_SAMPLES;
  const char *export_unit = "ms";

  if (self->tree != NULL && ps_call_tree_get_unit (self->tree) == PS_CALL_UNIT_TICKS)
    export_unit = "ticks";
  else if (self->tree != NULL && ps_call_tree_get_unit (self->tree) == PS_CALL_UNIT_SAMPLES)
    export_unit = "samples";

  for (CallColumn column = 0; column < N_CALL_COLUMNS; column++)
    {
      g_autofree char *title = _ps_call_tree_view_column_title (&self->format, column);
      int minimum;

      gtk_column_view_column_set_title (columns[column], title);
      _ps_call_tree_view_update_export_header (&self->format, export_unit, columns[column], column);
      if (column == CALL_COLUMN_FUNCTION)
        {
          /* The main table's takes the room left; the small tables scroll */
          if (!in_tree)
            gtk_column_view_column_set_fixed_width (columns[column], 220);
          continue;
        }
      if (column == CALL_COLUMN_MODULE)
        {
          gtk_column_view_column_set_fixed_width (columns[column],
                                                  CLAMP (MAX (self->module_width, text_width (GTK_WIDGET (self), title) + 32),
                                                         72, 180));
          continue;
        }

      if (column == CALL_COLUMN_CALLS)
        minimum = 64;
      else if ((column - CALL_COLUMN_FIRST_VALUE) % 2 == 0)
        minimum = 96;
      else
        minimum = 64;
      gtk_column_view_column_set_fixed_width (columns[column],
                                              MAX (minimum, text_width (GTK_WIDGET (self), title) + 44));
    }
  set_column_shown (columns[CALL_COLUMN_CALLS], has_calls);
  set_column_shown (columns[CALL_COLUMN_MODULE], self->module_width > 0);
  /* A sampling report has inclusive and exclusive samples only */
  for (PsCallValue v = PS_CALL_VALUE_APPLICATION_INCLUSIVE; v <= PS_CALL_VALUE_APPLICATION_EXCLUSIVE; v++)
    {
      set_column_shown (columns[CALL_COLUMN_VALUE (v)], has_application_values (self));
      set_column_shown (columns[CALL_COLUMN_PERCENT (v)], has_application_values (self));
    }
}

/* Toolbar, notice and status */

void
ps_call_tree_view_sync_mode_buttons (PsCallTreeView *self)
{
  GtkToggleButton *buttons[N_MODES] = { self->top_down_button, self->bottom_up_button, self->functions_button,
                                        self->flame_button };

  self->syncing = TRUE;
  gtk_toggle_button_set_active (buttons[self->mode], TRUE);
  self->syncing = FALSE;
}

void
ps_call_tree_view_update_toolbar (PsCallTreeView *self)
{
  gboolean report = self->tree != NULL && ps_call_tree_is_report (self->tree);
  gboolean has_top_down = self->tree == NULL || ps_call_tree_has_top_down (self->tree);

  gtk_widget_set_visible (self->basis_box, !report);
  gtk_widget_set_visible (GTK_WIDGET (self->given_label), report);

  gtk_widget_set_sensitive (GTK_WIDGET (self->top_down_button), has_top_down);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->top_down_button),
                               has_top_down ? _("Every call path from the entry points down, with the values of the calls along that path")
                                            : _("This report has no call tree: it lists functions, or callers and callees"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->flame_button), has_top_down);
}

/* Why the totals exceed the run's wall time, when they do: they add up
 * the calls of every thread, and threads ran side by side; NULL else */
static char *
summed_totals_text (PsCallTreeView *self)
{
  gint64 begin, end;
  double elapsed, wall_seconds;
  guint n_threads;
  g_autofree char *total = NULL;
  g_autofree char *wall = NULL;

  if (self->tree == NULL || self->store == NULL || ps_call_tree_get_unit (self->tree) != PS_CALL_UNIT_NS
      || self->thread_tracks == NULL || self->thread_tracks->len < 2
      || gtk_drop_down_get_selected (self->thread_dropdown) != 0
      || self->time_end <= self->time_begin)
    return NULL;
  begin = self->time_begin;
  end = self->time_end;
  elapsed = ps_call_tree_get_elapsed_total (self->tree);
  wall_seconds = (double)(end - begin) / 1e9;
  /* A tolerance for the rounding of the two */
  if (elapsed / 1e9 <= wall_seconds * 1.001)
    return NULL;
  n_threads = self->thread_tracks->len;
  total = _ps_call_tree_view_format_value (&self->format, elapsed);
  wall = _ps_call_tree_view_format_value (&self->format, (double)(end - begin));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       /* Translators: "4 threads ran side by side: their calls add up to
                                        * 5250 ms, more than the 1926 ms from the log's first record to its
                                        * last." (the log may be closed later) */
                                       "%u thread ran side by side: its calls add up to %s %s, more than the %s %s from the log’s first record to its last.",
                                       "%u threads ran side by side: their calls add up to %s %s, more than the %s %s from the log’s first record to its last.",
                                       n_threads),
                          n_threads, total, self->format.unit, wall, self->format.unit);
}

void
ps_call_tree_view_update_notice (PsCallTreeView *self)
{
  g_autofree char *text = NULL;
  g_autofree char *summed = summed_totals_text (self);
  gboolean in_ticks = self->run_tree != NULL && ps_call_tree_get_unit (self->run_tree) == PS_CALL_UNIT_TICKS;

  if (self->tree != NULL && in_ticks && self->ticks_per_second > 0)
    {
      g_autofree char *rate = g_strdup_printf ("%.0f", self->ticks_per_second);

      /* Translators: %s is a number of timer ticks per second the user gave */
      text = g_strdup_printf (_("Timer ticks converted to times at %s ticks per second."), rate);
    }
  else if (self->tree != NULL && in_ticks)
    text = g_strdup (_("Times are timer ticks of unknown frequency: the report does not say how many make a second."));
  else if (self->build_error != NULL)
    text = g_strdup (self->build_error);
  else if (self->tree != NULL && !ps_call_tree_is_report (self->tree) && !ps_call_tree_has_os_events (self->tree))
    text = g_strdup (_("No OS events: application time is elapsed time."));
  if (summed != NULL)
    {
      g_autofree char *both = text != NULL ? g_strdup_printf ("%s %s", summed, text) : NULL;

      g_free (text);
      text = both != NULL ? g_steal_pointer (&both) : g_steal_pointer (&summed);
    }

  gtk_label_set_text (self->notice_label, text != NULL ? text : "");
  gtk_widget_set_visible (self->notice_box, text != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->tick_rate_button), in_ticks && self->store != NULL);
  gtk_widget_set_sensitive (self->tick_rate_reset_button, self->ticks_per_second > 0);
}

/* "107 functions", or with modules whose unnamed code is one function
 * each: "9 functions and 14 modules without names (20,403 addresses)" */
static char *
count_functions (PsCallTree *tree)
{
  guint n_functions = ps_call_tree_get_n_functions (tree);
  guint n_modules = 0;
  guint64 n_addresses = 0;
  g_autofree char *functions = NULL;
  g_autofree char *addresses = NULL;
  g_autofree char *modules_count = NULL;
  g_autofree char *modules = NULL;
  g_autofree char *named = NULL;

  for (guint32 f = 0; f < n_functions; f++)
    if (ps_call_tree_get_n_function_addresses (tree, f) > 0)
      {
        n_modules++;
        n_addresses += ps_call_tree_get_n_function_addresses (tree, f);
      }
  if (n_modules == 0)
    {
      functions = ps_view_format_count (n_functions);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s function", "%s functions", n_functions), functions);
    }

  {
    g_autofree char *count = ps_view_format_count (n_addresses);

    /* Translators: a number of code addresses, "20,403 addresses" */
    addresses = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s address", "%s addresses", n_addresses), count);
  }
  /* Translators: modules standing for their code without function names,
   * "14 modules without names (20,403 addresses)" */
  modules_count = ps_view_format_count (n_modules);
  modules = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s module without names (%s)",
                                          "%s modules without names (%s)", n_modules),
                             modules_count, addresses);
  if (n_modules == n_functions)
    return g_steal_pointer (&modules);
  /* Translators: "9 functions and 14 modules without names (20,403 addresses)" */
  named = ps_view_format_count (n_functions - n_modules);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s function and %s", "%s functions and %s",
                                       n_functions - n_modules),
                          named, modules);
}

/* The percentage bases in plain words on the drop-down, and in the
 * tooltip what each is of, with the terms of the Visual Studio
 * documentation it follows (vs-instrumentation.md §4) */
void
ps_call_tree_view_update_basis_tooltip (PsCallTreeView *self)
{
  const char *text;

  if (self->basis == PS_CALL_BASIS_VIEW)
    text = _("Every percentage is a share of the elapsed total, the time of all calls with what the operating system did meanwhile.\n"
             "Visual Studio: the percentages of its Functions and Call Tree views, "
             "“Application Inclusive Time %” over the total elapsed time.");
  else
    text = _("Elapsed times are a share of the elapsed total; application times a share of the application total, the time without operating-system events.\n"
             "Visual Studio: “Understanding Instrumentation Data Values”, "
             "“Application Inclusive Time %” over the total application time.");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->basis_dropdown), text);
}

void
ps_call_tree_view_update_status (PsCallTreeView *self)
{
  g_autofree char *functions = NULL;
  g_autofree char *elapsed = NULL;
  g_autofree char *application = NULL;
  g_autofree char *text = NULL;
  guint n_functions;

  if (self->tree == NULL)
    {
      gtk_label_set_text (self->status_label, "");
      return;
    }

  n_functions = ps_call_tree_get_n_functions (self->tree);
  if (self->search != NULL)
    {
      g_autofree char *matching = ps_view_format_count (ps_call_search_get_n_functions (self->search));
      g_autofree char *all = ps_view_format_count (n_functions);

      /* Translators: two counts ("120", "1,200") and the search */
      functions = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s function matches “%s”",
                                                "%s of %s functions match “%s”", n_functions),
                                   matching, all, ps_call_search_get_text (self->search));
    }
  else
    functions = count_functions (self->tree);

  elapsed = _ps_call_tree_view_format_value (&self->format, ps_call_tree_get_elapsed_total (self->tree));
  application = _ps_call_tree_view_format_value (&self->format, ps_call_tree_get_application_total (self->tree));
  if (self->format.samples && !has_application_values (self))
    /* Translators: "107 functions · 117 samples" */
    text = g_strdup_printf (_("%s · %s %s"), functions, elapsed, self->format.unit);
  else
    /* Translators: "9 functions · elapsed total 2013 ms · application total 2013 ms" */
    text = g_strdup_printf (_("%s · elapsed total %s %s · application total %s %s"),
                            functions, elapsed, self->format.unit, application, self->format.unit);
  gtk_label_set_text (self->status_label, text);
}

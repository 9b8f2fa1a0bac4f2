/* ps-rtl-view-cells.c — the cells of the RTL view's scope and totals tables
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: rtl-logfile.md §4.1 (scope status), §4.3 (durations, self times,
 * absolute times) and §5 (the totals: calls, total, min, max, mean).
 * Every number carries its unit; numbers are right-aligned in tabular
 * figures, and what a cell cannot say fully goes into its tooltip.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ps-rtl-view-private.h"
#include "ps-table-export.h"
#include "ps-util.h"
#include "ps-view-util.h"

/* Formatting */

/* The log's timer counts whole milliseconds (rtl-logfile.md §4.3), so
 * every time of the view is in ms, whole where it is whole ("1,906",
 * "36"), a mean by the one rule for digits ("18.33"); the columns name
 * the unit in their titles */
static char *
format_ms_number (double seconds)
{
  return ps_view_format_number_whole (seconds * 1e3);
}

/* A duration with its unit, for text outside the columns: "1,906 ms" */
char *
_ps_rtl_view_format_duration (double seconds)
{
  g_autofree char *number = format_ms_number (seconds);

  /* Translators: a duration in milliseconds */
  return g_strdup_printf (_("%s ms"), number);
}

static char *
format_duration_ns (gint64 ns)
{
  return format_ms_number ((double)ns / 1e9);
}

static GDateTime *
date_time_from_unix_ns (gint64 unix_ns)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (unix_ns / 1000000000);

  if (utc == NULL)
    return NULL;
  return g_date_time_add (utc, (unix_ns % 1000000000) / 1000);
}

/* "14:44:32.405": the opening line gives the time since 1970, so the
 * zone is UTC, which the column's title names */
static char *
format_clock_time (gint64 unix_ns)
{
  g_autoptr(GDateTime) utc = date_time_from_unix_ns (unix_ns);
  g_autofree char *time = NULL;

  if (utc == NULL)
    return g_strdup ("–");
  time = g_date_time_format (utc, "%H:%M:%S");
  return g_strdup_printf ("%s.%03d", time, g_date_time_get_microsecond (utc) / 1000);
}

/* "2009-07-02 14:44:32.405 UTC" */
char *
_ps_rtl_view_format_date_time (gint64 unix_ns)
{
  return ps_view_format_wall_time (unix_ns, 0, "%Y-%m-%d %H:%M:%S");
}

/* "2009-07-02T14:44:32.405817Z" */
char *
_ps_rtl_view_format_iso_utc (gint64 unix_ns)
{
  g_autoptr(GDateTime) utc = date_time_from_unix_ns (unix_ns);

  if (utc == NULL)
    return NULL;
  return g_date_time_format (utc, "%Y-%m-%dT%H:%M:%S.%fZ");
}

/* Status words of a scope or a message */

typedef struct
{
  guint       flag;
  gboolean    serious;      /* the duration or the text is not to be trusted */
  const char *short_text;
  const char *long_text;
} FlagText;

static const FlagText span_flag_texts[] = {
  { PS_SPAN_FLAG_UNTERMINATED, TRUE, N_("unterminated"),
    N_("No end record: the duration is a lower bound, up to the thread’s last record or the close line") },
  { PS_SPAN_FLAG_CLOSED_BY_PARENT, TRUE, N_("closed by parent"),
    N_("A logical scope still open when its enclosing scope ended: the duration is an upper bound") },
  { PS_SPAN_FLAG_CLOCK_BACK, TRUE, N_("clock back"),
    N_("The clock went back inside this scope: its duration is not reliable") },
  { PS_SPAN_FLAG_NAME_MISMATCH, FALSE, N_("name mismatch"),
    N_("The end record named the scope differently; they were paired anyway") },
  { PS_SPAN_FLAG_TRUNCATED, FALSE, N_("truncated"),
    N_("Closed by an end record cut off at the end of the file") },
  { PS_SPAN_FLAG_UNTIMED, FALSE, N_("untimed"),
    N_("The begin record had no time; the previous record’s was used") },
  { PS_SPAN_FLAG_CONTINUED, FALSE, N_("multi-line"),
    N_("The name went on over more lines") },
};

static const FlagText mark_flag_texts[] = {
  { PS_MARK_FLAG_LOST, TRUE, N_("lost"),
    N_("A record whose text the writer dropped") },
  { PS_MARK_FLAG_TRUNCATED, TRUE, N_("truncated"),
    N_("Cut off by a NUL byte or by the end of the file") },
  { PS_MARK_FLAG_INTERRUPTED, FALSE, N_("interrupted"),
    N_("Another record was written into this one") },
  { PS_MARK_FLAG_REASSEMBLED, FALSE, N_("reassembled"),
    N_("Its text was found on a later line") },
  { PS_MARK_FLAG_CONTEXT_NOT_OPEN, FALSE, N_("context not open"),
    N_("Named a scope that was not open; shown in the innermost open scope") },
  { PS_MARK_FLAG_NO_SEPARATOR, FALSE, N_("no separator"),
    N_("No “ : ” between the scope name and the text") },
  { PS_MARK_FLAG_UNTIMED, FALSE, N_("untimed"),
    N_("The record had no time; the previous record’s was used") },
  { PS_MARK_FLAG_CONTINUED, FALSE, N_("multi-line"),
    N_("The text went on over more lines") },
};

/* The short words, the long explanation and whether any is serious */
static char *
format_status (PsScopeRow  *row,
               char       **tooltip,
               gboolean    *serious)
{
  const FlagText *texts;
  guint n_texts;
  guint flags = ps_scope_row_get_flags (row);
  GString *words = g_string_new (NULL);
  GString *explanation = g_string_new (NULL);

  *serious = FALSE;
  if (ps_scope_row_get_kind (row) == PS_SCOPE_ROW_SPAN)
    {
      texts = span_flag_texts;
      n_texts = G_N_ELEMENTS (span_flag_texts);
    }
  else if (ps_scope_row_get_kind (row) == PS_SCOPE_ROW_MARK)
    {
      texts = mark_flag_texts;
      n_texts = G_N_ELEMENTS (mark_flag_texts);
    }
  else
    {
      texts = NULL;
      n_texts = 0;
    }

  for (guint i = 0; i < n_texts; i++)
    {
      if ((flags & texts[i].flag) == 0)
        continue;
      if (words->len > 0)
        {
          g_string_append (words, ", ");
          g_string_append_c (explanation, '\n');
        }
      g_string_append (words, _(texts[i].short_text));
      g_string_append (explanation, _(texts[i].long_text));
      *serious |= texts[i].serious;
    }

  *tooltip = g_string_free (explanation, explanation->len == 0);
  return g_string_free (words, FALSE);
}

/* Scope table cells */

static gboolean
is_numeric_scope_column (ScopeColumn column)
{
  return column >= SCOPE_COLUMN_BEGIN && column <= SCOPE_COLUMN_LINE;
}

/* "1,711 scopes", "466 messages" */
static char *
count_scopes (guint64 n_spans)
{
  g_autofree char *count = ps_view_format_count (n_spans);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s scope", "%s scopes", n_spans), count);
}

static char *
count_messages (guint64 n_marks)
{
  g_autofree char *count = ps_view_format_count (n_marks);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s message", "%s messages", n_marks), count);
}

static char *
scope_name_tooltip (PsScopeRow *row)
{
  PsScopeAnalysis *scopes = ps_scope_row_get_analysis (row);
  PsEventStore *store = scopes->store;
  g_autofree char *record = ps_scope_row_dup_record_text (row);
  GString *text = g_string_new (NULL);

  switch (ps_scope_row_get_kind (row))
    {
    case PS_SCOPE_ROW_SPAN:
      {
        const PsSpan *span = ps_event_store_get_span (store, ps_scope_row_get_index (row));

        g_string_append (text, ps_scope_row_get_name (row));
        if (span->flags & PS_SPAN_FLAG_LOGICAL)
          {
            g_autofree char *context =
              ps_util_display_text (ps_event_store_get_string (store, ps_event_store_get_span_context (store, ps_scope_row_get_index (row))), -1);

            g_string_append_c (text, '\n');
            /* Translators: %s is the scope name of the message that opened a logical scope */
            g_string_append_printf (text, _("Logical scope, opened by a message of “%s”"), context);
          }
        g_string_append_c (text, '\n');
        /* Translators: the depth of a scope in its thread's tree */
        g_string_append_printf (text, _("Depth %u"), (guint) span->depth);
      }
      break;

    case PS_SCOPE_ROW_MARK:
      g_string_append (text, record);
      g_string_append_c (text, '\n');
      /* Translators: %llu is a line number of the log */
      g_string_append_printf (text, _("Message on line %llu"), (unsigned long long) ps_scope_row_get_line (row));
      break;

    case PS_SCOPE_ROW_THREAD:
    case PS_SCOPE_ROW_SESSION:
    default:
      {
        g_autofree char *spans_text = count_scopes (ps_scope_row_get_n_spans (row));
        g_autofree char *marks_text = count_messages (ps_scope_row_get_n_marks (row));

        g_string_append (text, ps_scope_row_get_name (row));
        g_string_append_c (text, '\n');
        g_string_append (text, spans_text);
        g_string_append (text, ", ");
        g_string_append (text, marks_text);
      }
      break;
    }

  return g_string_free (text, FALSE);
}

/* The dim words after a name */
static char *
scope_name_detail (PsScopeRow *row)
{
  PsScopeAnalysis *scopes = ps_scope_row_get_analysis (row);

  switch (ps_scope_row_get_kind (row))
    {
    case PS_SCOPE_ROW_THREAD:
      {
        g_autofree char *spans_text = count_scopes (ps_scope_row_get_n_spans (row));
        g_autofree char *marks_text = count_messages (ps_scope_row_get_n_marks (row));

        /* Translators: "7 scopes · 5 messages" after a thread's name */
        return g_strdup_printf (_("%s · %s"), spans_text, marks_text);
      }

    case PS_SCOPE_ROW_SESSION:
      {
        const PsSessionInfo *info = ps_event_store_get_session (scopes->store, ps_scope_row_get_index (row));

        /* Translators: the lines of the log a session covers */
        return g_strdup_printf (_("lines %llu–%llu"), (unsigned long long) info->first_line,
                                (unsigned long long) info->last_line);
      }

    case PS_SCOPE_ROW_SPAN:
      if (ps_scope_row_get_flags (row) & PS_SPAN_FLAG_LOGICAL)
        /* Translators: a scope opened and closed by messages (rtl-logfile.md §4.1) */
        return g_strdup (C_("scope", "logical"));
      return NULL;

    case PS_SCOPE_ROW_MARK:
    default:
      return NULL;
    }
}

/* "in PERFORMANCE - open documents", "in Thread 3" */
static char *
scope_location (PsScopeRow *row)
{
  PsScopeAnalysis *scopes = ps_scope_row_get_analysis (row);
  PsScopeNode node = { ps_scope_row_get_kind (row), ps_scope_row_get_index (row) };
  g_autoptr(PsScopeRow) parent_row = NULL;
  PsScopeNode parent;

  if (node.kind != PS_SCOPE_ROW_SPAN && node.kind != PS_SCOPE_ROW_MARK)
    return NULL;

  parent = ps_scope_tree_get_parent (scopes->tree, node);
  parent_row = ps_scope_row_new (scopes, parent.kind, parent.index);
  /* Translators: where a search result is: in a scope or a thread */
  return g_strdup_printf (_("in %s"), ps_scope_row_get_name (parent_row));
}

/* tooltip may be NULL: binding a cell needs none, and some cost a
 * GDateTime or two */
char *
_ps_rtl_view_scope_cell_text (PsScopeRow   *row,
                              ScopeColumn   column,
                              char        **tooltip,
                              gboolean     *dim)
{
  PsScopeRowKind kind = ps_scope_row_get_kind (row);
  guint flags = ps_scope_row_get_flags (row);
  g_autofree char *unused_tooltip = NULL;
  gboolean want_tooltip = tooltip != NULL;

  if (tooltip == NULL)
    tooltip = &unused_tooltip;
  *tooltip = NULL;
  *dim = FALSE;

  switch (column)
    {
    case SCOPE_COLUMN_NAME:
      if (want_tooltip)
        *tooltip = scope_name_tooltip (row);
      *dim = kind == PS_SCOPE_ROW_MARK;
      return g_strdup (ps_scope_row_get_name (row));

    case SCOPE_COLUMN_BEGIN:
      {
        gint64 begin_ns = ps_scope_row_get_begin_ns (row);
        gint64 wall_ns = ps_scope_row_get_wall_ns (row);

        if (begin_ns == PS_SCOPE_ROW_NO_TIME)
          return NULL;
        if (wall_ns != 0 && want_tooltip)
          {
            g_autofree char *wall = _ps_rtl_view_format_date_time (wall_ns);
            g_autofree char *iso = _ps_rtl_view_format_iso_utc (wall_ns);

            *tooltip = g_strdup_printf ("%s\n%s", wall, iso);
          }
        if (kind == PS_SCOPE_ROW_THREAD)
          *dim = TRUE;
        return format_duration_ns (begin_ns);
      }

    case SCOPE_COLUMN_TIME:
      {
        gint64 wall_ns = ps_scope_row_get_wall_ns (row);

        if (wall_ns == 0)
          return NULL;
        if (want_tooltip)
          *tooltip = _ps_rtl_view_format_iso_utc (wall_ns);
        if (kind == PS_SCOPE_ROW_THREAD)
          *dim = TRUE;
        return format_clock_time (wall_ns);
      }

    case SCOPE_COLUMN_DURATION:
      {
        gint64 duration_ns = ps_scope_row_get_duration_ns (row);
        g_autofree char *text = NULL;

        if (duration_ns == PS_SCOPE_ROW_NO_TIME)
          return NULL;
        text = format_duration_ns (duration_ns);
        if (kind == PS_SCOPE_ROW_THREAD)
          {
            const PsScopeRoot *root = ps_scope_tree_find_root (ps_scope_row_get_analysis (row)->tree,
                                                               ps_scope_row_get_index (row));

            *dim = !ps_scope_row_is_measured (row);
            if (root != NULL && root->n_unmeasured > 0)
              {
                g_autofree char *scoped = _ps_rtl_view_format_duration ((double)duration_ns / 1e9);

                /* The sum of the measured scopes alone would read "0" above
                 * a child of seconds: the thread's extent covers them all */
                g_free (text);
                text = format_duration_ns (root->end_ns - root->begin_ns);
                *tooltip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                         "From the thread’s first record to its last. Its top-level scopes add up to %s without %llu whose duration is not known",
                                                         "From the thread’s first record to its last. Its top-level scopes add up to %s without %llu whose durations are not known",
                                                         root->n_unmeasured),
                                            scoped, (unsigned long long) root->n_unmeasured);
              }
            else
              *tooltip = g_strdup (_("Time spent in the thread’s top-level scopes"));
            return g_steal_pointer (&text);
          }

        *dim = !ps_scope_row_is_measured (row);
        if (flags & PS_SPAN_FLAG_UNTERMINATED)
          {
            *tooltip = g_strdup (_("At least this long: the scope never ended"));
            /* Translators: a lower bound of a duration */
            return g_strdup_printf (_("≥ %s"), text);
          }
        if (flags & PS_SPAN_FLAG_CLOSED_BY_PARENT)
          {
            *tooltip = g_strdup (_("At most this long: the scope was closed with its parent"));
            /* Translators: an upper bound of a duration */
            return g_strdup_printf (_("≤ %s"), text);
          }
        if (flags & PS_SPAN_FLAG_CLOCK_BACK)
          *tooltip = g_strdup (_("Not reliable: the clock went back inside this scope"));
        return g_steal_pointer (&text);
      }

    case SCOPE_COLUMN_SELF:
      {
        gint64 self_ns = ps_scope_row_get_self_ns (row);

        if (self_ns == PS_SCOPE_ROW_NO_TIME)
          return NULL;
        *dim = !ps_scope_row_is_measured (row);
        *tooltip = g_strdup (_("The duration minus the durations of the scopes directly inside"));
        return format_duration_ns (self_ns);
      }

    case SCOPE_COLUMN_THREAD:
      if (kind == PS_SCOPE_ROW_SESSION)
        return NULL;
      *dim = TRUE;
      return g_strdup_printf ("%" PRId64, ps_scope_row_get_thread_id (row));

    case SCOPE_COLUMN_LINE:
      if (ps_scope_row_get_line (row) == 0)
        return NULL;
      return g_strdup_printf ("%" PRIu64, ps_scope_row_get_line (row));

    case SCOPE_COLUMN_STATUS:
      {
        gboolean serious;
        char *text = format_status (row, tooltip, &serious);

        *dim = !serious;
        return text;
      }

    case N_SCOPE_COLUMNS:
    default:
      g_assert_not_reached ();
      return NULL;
    }
}

static char *
scope_cell_tooltip (gpointer item,
                    guint    column,
                    gpointer user_data)
{
  g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (item));
  g_autofree char *text = NULL;
  char *tooltip = NULL;
  gboolean dim;

  text = _ps_rtl_view_scope_cell_text (row, column, &tooltip, &dim);
  return tooltip;
}

static void
scope_cell_setup (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  ScopeColumn column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = ps_view_cell_label_new (is_numeric_scope_column (column));

  if (column == SCOPE_COLUMN_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *icon = gtk_image_new ();
      GtkWidget *detail = gtk_label_new (NULL);

      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, "", -1);
      /* Long names give way to the other columns; the tooltip has them */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 8);
      gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (detail, "dim-label");
      gtk_widget_add_css_class (detail, "caption");
      gtk_widget_add_css_class (label, "scope-name");
      gtk_box_append (GTK_BOX (box), icon);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), detail);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
      gtk_list_item_set_child (list_item, expander);
      label = box;
    }
  else
    {
      if (column == SCOPE_COLUMN_STATUS)
        gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_list_item_set_child (list_item, label);
    }

  ps_view_cell_set_tooltip (label, list_item, column, scope_cell_tooltip, NULL);
}

static void
bind_name_cell (const char      *search,
                GtkTreeExpander *expander,
                GtkTreeListRow *tree_row,
                PsScopeRow     *row)
{
  static const char *row_classes[] = { "scope-thread", "scope-span", "scope-message", "scope-session" };
  GtkWidget *box = gtk_tree_expander_get_child (expander);
  GtkWidget *icon = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (icon);
  GtkWidget *detail = gtk_widget_get_next_sibling (label);
  PsScopeRowKind kind = ps_scope_row_get_kind (row);
  g_autofree char *detail_text = NULL;
  PangoAttrList *attributes;
  const char *classes[] = { row_classes[kind], NULL };
  const char *icon_name = NULL;

  gtk_tree_expander_set_list_row (expander, tree_row);

  /* A search result says where it is */
  if (search != NULL && gtk_tree_list_row_get_depth (tree_row) == 0)
    detail_text = scope_location (row);
  else
    detail_text = scope_name_detail (row);

  switch (kind)
    {
    case PS_SCOPE_ROW_SESSION:
      icon_name = "document-open-recent-symbolic";
      break;
    case PS_SCOPE_ROW_THREAD:
      icon_name = "system-run-symbolic";
      break;
    case PS_SCOPE_ROW_MARK:
      icon_name = "ps-message-symbolic";
      break;
    case PS_SCOPE_ROW_SPAN:
    default:
      break;
    }
  gtk_image_set_from_icon_name (GTK_IMAGE (icon), icon_name);
  gtk_widget_set_visible (icon, icon_name != NULL);
  gtk_widget_set_css_classes (box, classes);

  gtk_label_set_text (GTK_LABEL (label), ps_scope_row_get_name (row));
  attributes = ps_view_search_attributes (search, ps_scope_row_get_name (row));
  gtk_label_set_attributes (GTK_LABEL (label), attributes);
  g_clear_pointer (&attributes, pango_attr_list_unref);

  gtk_label_set_text (GTK_LABEL (detail), detail_text != NULL ? detail_text : "");
  gtk_widget_set_visible (detail, detail_text != NULL);
}

static void
scope_cell_bind (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  ScopeColumn column = GPOINTER_TO_UINT (user_data);
  PsRtlView *self = g_object_get_data (G_OBJECT (factory), "ps-rtl-view");
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  g_autoptr(PsScopeRow) row = gtk_tree_list_row_get_item (tree_row);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;
  gboolean dim;

  if (column == SCOPE_COLUMN_NAME)
    {
      bind_name_cell (_ps_rtl_view_get_applied_search (self), GTK_TREE_EXPANDER (child), tree_row, row);
      return;
    }

  text = _ps_rtl_view_scope_cell_text (row, column, NULL, &dim);
  gtk_label_set_text (GTK_LABEL (child), text != NULL ? text : "");

  if (column == SCOPE_COLUMN_STATUS)
    {
      gtk_widget_remove_css_class (child, "warning");
      if (text != NULL && *text != '\0' && !dim)
        gtk_widget_add_css_class (child, "warning");
    }
  if (dim)
    gtk_widget_add_css_class (child, "dim-label");
  else
    gtk_widget_remove_css_class (child, "dim-label");
}

static void
scope_cell_unbind (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   gpointer                  user_data)
{
  if (GPOINTER_TO_UINT (user_data) == SCOPE_COLUMN_NAME)
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

static GtkSorter *
make_scope_sorter (ScopeColumn column)
{
  static const char *property_names[] = {
    [SCOPE_COLUMN_NAME] = "name",
    [SCOPE_COLUMN_BEGIN] = "begin",
    [SCOPE_COLUMN_TIME] = "begin",
    [SCOPE_COLUMN_DURATION] = "duration",
    [SCOPE_COLUMN_SELF] = "self",
    [SCOPE_COLUMN_THREAD] = "thread",
    [SCOPE_COLUMN_LINE] = "line",
  };
  GtkExpression *expression;

  if (column == SCOPE_COLUMN_STATUS)
    return NULL;

  expression = gtk_property_expression_new (PS_TYPE_SCOPE_ROW, NULL, property_names[column]);
  if (column == SCOPE_COLUMN_NAME)
    return GTK_SORTER (gtk_string_sorter_new (expression));
  return GTK_SORTER (gtk_numeric_sorter_new (expression));
}

/* The export's value of a cell: times in seconds since the log's timer
 * started, durations in seconds, the wall-clock time in ISO 8601 (UTC) */
static void
scope_export_value (GObject  *item,
                    GValue   *value,
                    gpointer  user_data)
{
  ScopeColumn column = GPOINTER_TO_UINT (user_data);
  PsScopeRow *row = PS_SCOPE_ROW (item);
  gint64 ns;

  switch (column)
    {
    case SCOPE_COLUMN_NAME:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_scope_row_get_name (row));
      break;

    case SCOPE_COLUMN_BEGIN:
    case SCOPE_COLUMN_DURATION:
    case SCOPE_COLUMN_SELF:
      if (column == SCOPE_COLUMN_BEGIN)
        ns = ps_scope_row_get_begin_ns (row);
      else if (column == SCOPE_COLUMN_DURATION)
        ns = ps_scope_row_get_duration_ns (row);
      else
        ns = ps_scope_row_get_self_ns (row);
      if (ns != PS_SCOPE_ROW_NO_TIME)
        {
          g_value_init (value, G_TYPE_DOUBLE);
          g_value_set_double (value, ns / 1e9);
        }
      break;

    case SCOPE_COLUMN_TIME:
      if (ps_scope_row_get_wall_ns (row) != 0)
        {
          g_value_init (value, G_TYPE_STRING);
          g_value_take_string (value, _ps_rtl_view_format_iso_utc (ps_scope_row_get_wall_ns (row)));
        }
      break;

    case SCOPE_COLUMN_THREAD:
      if (ps_scope_row_get_kind (row) != PS_SCOPE_ROW_SESSION)
        {
          g_value_init (value, G_TYPE_INT64);
          g_value_set_int64 (value, ps_scope_row_get_thread_id (row));
        }
      break;

    case SCOPE_COLUMN_LINE:
      if (ps_scope_row_get_line (row) != 0)
        {
          g_value_init (value, G_TYPE_UINT64);
          g_value_set_uint64 (value, ps_scope_row_get_line (row));
        }
      break;

    case SCOPE_COLUMN_STATUS:
    case N_SCOPE_COLUMNS:
    default:
      {
        gboolean dim;

        g_value_init (value, G_TYPE_STRING);
        g_value_take_string (value, _ps_rtl_view_scope_cell_text (row, column, NULL, &dim));
      }
      break;
    }
}

GtkColumnViewColumn *
_ps_rtl_view_scope_column_new (PsRtlView   *view,
                               ScopeColumn  column)
{
  static const struct {
    const char *title;
    int         width;
    const char *export_name;  /* the title without the unit the export adds */
  } columns[] = {
    [SCOPE_COLUMN_NAME] = { N_("Name"), -1, NULL },
    /* Translators: when a scope began, in ms after the log's timer started */
    [SCOPE_COLUMN_BEGIN] = { N_("Begin (ms)"), 96, N_("Begin") },
    /* Translators: the wall-clock time a scope began, in UTC */
    [SCOPE_COLUMN_TIME] = { N_("Time of day (UTC)"), 152, NULL },
    [SCOPE_COLUMN_DURATION] = { N_("Duration (ms)"), 116, N_("Duration") },
    /* Translators: exclusive time, a scope's duration without its child scopes */
    [SCOPE_COLUMN_SELF] = { N_("Exclusive (ms)"), 112, N_("Exclusive") },
    [SCOPE_COLUMN_THREAD] = { N_("Thread"), 116 },
    [SCOPE_COLUMN_LINE] = { N_("Line"), 64 },
    [SCOPE_COLUMN_STATUS] = { N_("Status"), 130 },
  };
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = make_scope_sorter (column);
  GtkColumnViewColumn *view_column;

  g_return_val_if_fail (column < N_SCOPE_COLUMNS, NULL);

  /* The view only lives longer than its columns' factories */
  g_object_set_data (G_OBJECT (factory), "ps-rtl-view", view);
  g_signal_connect (factory, "setup", G_CALLBACK (scope_cell_setup), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (scope_cell_bind), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "unbind", G_CALLBACK (scope_cell_unbind), GUINT_TO_POINTER (column));

  view_column = gtk_column_view_column_new (_(columns[column].title), factory);
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, column == SCOPE_COLUMN_NAME);
  if (columns[column].width > 0)
    gtk_column_view_column_set_fixed_width (view_column, columns[column].width);
  ps_table_export_set_column (view_column,
                              columns[column].export_name != NULL ? _(columns[column].export_name) : NULL,
                              column == SCOPE_COLUMN_BEGIN || column == SCOPE_COLUMN_DURATION
                              || column == SCOPE_COLUMN_SELF ? "s" : NULL,
                              scope_export_value, GUINT_TO_POINTER (column), NULL);

  return view_column;
}

/* Totals table cells */

static gboolean
is_numeric_total_column (TotalColumn column)
{
  return column >= TOTAL_COLUMN_SESSION;
}

static gboolean
is_duration_total_column (TotalColumn column)
{
  return column >= TOTAL_COLUMN_TOTAL && column <= TOTAL_COLUMN_SELF;
}

/* The value of a duration column (is_duration_total_column()), in seconds */
static double
total_duration (PsScopeTotalRow *row,
                TotalColumn      column)
{
  switch (column)
    {
    case TOTAL_COLUMN_MIN:
      return ps_scope_total_row_get_min (row);
    case TOTAL_COLUMN_MAX:
      return ps_scope_total_row_get_max (row);
    case TOTAL_COLUMN_MEAN:
      return ps_scope_total_row_get_mean (row);
    case TOTAL_COLUMN_MEDIAN:
      return ps_scope_total_row_get_median (row);
    case TOTAL_COLUMN_SELF:
      return ps_scope_total_row_get_self (row);
    case TOTAL_COLUMN_TOTAL:
    default:
      return ps_scope_total_row_get_total (row);
    }
}

/* tooltip may be NULL */
char *
_ps_rtl_view_total_cell_text (PsScopeTotalRow  *row,
                              TotalColumn       column,
                              char            **tooltip)
{
  const PsSeries *series = ps_scope_total_row_get_series (row);
  g_autofree char *unused_tooltip = NULL;
  double value = 0;

  if (tooltip == NULL)
    tooltip = &unused_tooltip;
  *tooltip = NULL;

  switch (column)
    {
    case TOTAL_COLUMN_NAME:
      *tooltip = g_strdup (ps_scope_total_row_get_name (row));
      return g_strdup (ps_scope_total_row_get_name (row));
    case TOTAL_COLUMN_CONTEXT:
      if (*ps_scope_total_row_get_context (row) != '\0')
        *tooltip = g_strdup_printf (_("Logical scope, opened by messages of “%s”"), ps_scope_total_row_get_context (row));
      return g_strdup (ps_scope_total_row_get_context (row));
    case TOTAL_COLUMN_SESSION:
      return g_strdup_printf ("%u", series->session + 1);
    case TOTAL_COLUMN_THREADS:
      return g_strdup (ps_scope_total_row_get_threads (row));
    case TOTAL_COLUMN_CALLS:
      if (series->n_flagged > 0)
        *tooltip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%llu of them paired despite a different or cut-off end record",
                                                 "%llu of them paired despite a different or cut-off end record",
                                                 series->n_flagged),
                                    (unsigned long long) series->n_flagged);
      return g_strdup_printf ("%" PRIu64, ps_scope_total_row_get_calls (row));
    case TOTAL_COLUMN_TOTAL:
    case TOTAL_COLUMN_MIN:
    case TOTAL_COLUMN_MAX:
    case TOTAL_COLUMN_MEAN:
    case TOTAL_COLUMN_MEDIAN:
    case TOTAL_COLUMN_SELF:
      value = total_duration (row, column);
      break;
    case TOTAL_COLUMN_EXCLUDED:
      if (series->n_excluded > 0)
        *tooltip = g_strdup (_("Unterminated, closed with their parent or across a clock step: left out of the statistics"));
      return g_strdup_printf ("%" PRIu64, ps_scope_total_row_get_excluded (row));
    case N_TOTAL_COLUMNS:
    default:
      g_assert_not_reached ();
      return NULL;
    }

  if (ps_scope_total_row_get_calls (row) == 0)
    return g_strdup ("–");

  {
    g_autofree char *exact = ps_util_format_double (value);

    /* Translators: an exact duration in seconds, in a tooltip */
    *tooltip = g_strdup_printf (_("%s s"), exact);
  }
  return format_ms_number (value);
}

static char *
total_cell_tooltip (gpointer item,
                    guint    column,
                    gpointer user_data)
{
  g_autofree char *text = NULL;
  char *tooltip = NULL;

  text = _ps_rtl_view_total_cell_text (PS_SCOPE_TOTAL_ROW (item), column, &tooltip);
  return tooltip;
}

static void
total_cell_setup (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  TotalColumn column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = ps_view_cell_label_new (is_numeric_total_column (column));

  /* Names and thread lists can be long; the tooltip has them */
  if (!is_numeric_total_column (column) || column == TOTAL_COLUMN_THREADS)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column == TOTAL_COLUMN_NAME)
    gtk_label_set_width_chars (GTK_LABEL (label), 24);
  if (column == TOTAL_COLUMN_CONTEXT)
    gtk_widget_add_css_class (label, "dim-label");

  ps_view_cell_set_tooltip (label, list_item, column, total_cell_tooltip, NULL);
  gtk_list_item_set_child (list_item, label);
}

static void
total_cell_bind (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  TotalColumn column = GPOINTER_TO_UINT (user_data);
  PsScopeTotalRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = _ps_rtl_view_total_cell_text (row, column, NULL);

  gtk_label_set_text (GTK_LABEL (label), text);
  if (column == TOTAL_COLUMN_EXCLUDED)
    {
      if (ps_scope_total_row_get_excluded (row) > 0)
        gtk_widget_remove_css_class (label, "dim-label");
      else
        gtk_widget_add_css_class (label, "dim-label");
    }
}

static GtkSorter *
make_total_sorter (TotalColumn column)
{
  static const char *property_names[] = {
    [TOTAL_COLUMN_NAME] = "name",
    [TOTAL_COLUMN_CONTEXT] = "context",
    [TOTAL_COLUMN_SESSION] = "session",
    [TOTAL_COLUMN_THREADS] = "n-threads",
    [TOTAL_COLUMN_CALLS] = "calls",
    [TOTAL_COLUMN_TOTAL] = "total",
    [TOTAL_COLUMN_MIN] = "min",
    [TOTAL_COLUMN_MAX] = "max",
    [TOTAL_COLUMN_MEAN] = "mean",
    [TOTAL_COLUMN_MEDIAN] = "median",
    [TOTAL_COLUMN_SELF] = "self",
    [TOTAL_COLUMN_EXCLUDED] = "excluded",
  };
  GtkExpression *expression = gtk_property_expression_new (PS_TYPE_SCOPE_TOTAL_ROW, NULL, property_names[column]);

  if (column == TOTAL_COLUMN_NAME || column == TOTAL_COLUMN_CONTEXT)
    return GTK_SORTER (gtk_string_sorter_new (expression));

  if (column == TOTAL_COLUMN_THREADS)
    {
      /* By the number of threads, then by the first thread's id */
      GtkMultiSorter *sorter = gtk_multi_sorter_new ();

      gtk_multi_sorter_append (sorter, GTK_SORTER (gtk_numeric_sorter_new (expression)));
      gtk_multi_sorter_append (sorter, GTK_SORTER (gtk_numeric_sorter_new (
        gtk_property_expression_new (PS_TYPE_SCOPE_TOTAL_ROW, NULL, "first-thread"))));
      return GTK_SORTER (sorter);
    }

  return GTK_SORTER (gtk_numeric_sorter_new (expression));
}

/* The export's value of a cell: durations in seconds */
static void
total_export_value (GObject  *item,
                    GValue   *value,
                    gpointer  user_data)
{
  TotalColumn column = GPOINTER_TO_UINT (user_data);
  PsScopeTotalRow *row = PS_SCOPE_TOTAL_ROW (item);
  const PsSeries *series = ps_scope_total_row_get_series (row);

  /* A scope never called has no durations: its cells are left empty */
  if (is_duration_total_column (column))
    {
      if (ps_scope_total_row_get_calls (row) > 0)
        {
          g_value_init (value, G_TYPE_DOUBLE);
          g_value_set_double (value, total_duration (row, column));
        }
      return;
    }

  switch (column)
    {
    case TOTAL_COLUMN_NAME:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_scope_total_row_get_name (row));
      return;
    case TOTAL_COLUMN_CONTEXT:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_scope_total_row_get_context (row));
      return;
    case TOTAL_COLUMN_SESSION:
      g_value_init (value, G_TYPE_UINT);
      g_value_set_uint (value, series->session + 1);
      return;
    case TOTAL_COLUMN_THREADS:
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, ps_scope_total_row_get_threads (row));
      return;
    case TOTAL_COLUMN_CALLS:
      g_value_init (value, G_TYPE_UINT64);
      g_value_set_uint64 (value, ps_scope_total_row_get_calls (row));
      return;
    case TOTAL_COLUMN_EXCLUDED:
      g_value_init (value, G_TYPE_UINT64);
      g_value_set_uint64 (value, ps_scope_total_row_get_excluded (row));
      return;
    case N_TOTAL_COLUMNS:
    default:
      return;
    }
}

GtkColumnViewColumn *
_ps_rtl_view_total_column_new (TotalColumn column)
{
  static const char *titles[] = {
    [TOTAL_COLUMN_NAME] = N_("Name"),
    /* Translators: the scope a logical scope was opened in */
    [TOTAL_COLUMN_CONTEXT] = N_("Context"),
    [TOTAL_COLUMN_SESSION] = N_("Session"),
    [TOTAL_COLUMN_THREADS] = N_("Threads"),
    [TOTAL_COLUMN_CALLS] = N_("Calls"),
    [TOTAL_COLUMN_TOTAL] = N_("Total (ms)"),
    [TOTAL_COLUMN_MIN] = N_("Min (ms)"),
    [TOTAL_COLUMN_MAX] = N_("Max (ms)"),
    [TOTAL_COLUMN_MEAN] = N_("Mean (ms)"),
    [TOTAL_COLUMN_MEDIAN] = N_("Median (ms)"),
    /* Translators: the total exclusive time of a scope name */
    [TOTAL_COLUMN_SELF] = N_("Exclusive (ms)"),
    /* Translators: calls left out of the statistics */
    [TOTAL_COLUMN_EXCLUDED] = N_("Excluded"),
  };
  /* The export writes seconds and adds the unit itself: "Total (s)" */
  static const char *export_names[] = {
    [TOTAL_COLUMN_TOTAL] = N_("Total"),
    [TOTAL_COLUMN_MIN] = N_("Min"),
    [TOTAL_COLUMN_MAX] = N_("Max"),
    [TOTAL_COLUMN_MEAN] = N_("Mean"),
    [TOTAL_COLUMN_MEDIAN] = N_("Median"),
    [TOTAL_COLUMN_SELF] = N_("Exclusive"),
    [TOTAL_COLUMN_EXCLUDED] = NULL,
  };
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = make_total_sorter (column);
  GtkColumnViewColumn *view_column;

  g_return_val_if_fail (column < N_TOTAL_COLUMNS, NULL);

  g_signal_connect (factory, "setup", G_CALLBACK (total_cell_setup), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (total_cell_bind), GUINT_TO_POINTER (column));

  view_column = gtk_column_view_column_new (_(titles[column]), factory);
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, column == TOTAL_COLUMN_NAME);
  if (column == TOTAL_COLUMN_CONTEXT)
    gtk_column_view_column_set_fixed_width (view_column, 160);
  if (is_duration_total_column (column))
    gtk_column_view_column_set_fixed_width (view_column, 100);
  ps_table_export_set_column (view_column, is_duration_total_column (column) ? _(export_names[column]) : NULL,
                              is_duration_total_column (column) ? "s" : NULL,
                              total_export_value, GUINT_TO_POINTER (column), NULL);

  return view_column;
}

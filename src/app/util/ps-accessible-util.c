/* ps-accessible-util.c — names for screen readers where GTK gives none
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-accessible-util.h"

/* The texts of the visible labels below @widget, in order, joined by
 * spaces; a label without text is taken out of the accessible tree, where
 * GTK would name it "GtkLabel" */
static void
gather_text (GtkWidget *widget,
             GString   *text)
{
  if (!gtk_widget_get_visible (widget))
    return;

  if (GTK_IS_LABEL (widget))
    {
      const char *label = gtk_label_get_text (GTK_LABEL (widget));
      gboolean empty = label == NULL || *label == '\0';

      gtk_accessible_update_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_HIDDEN, empty, -1);
      if (!empty)
        {
          if (text->len > 0)
            g_string_append_c (text, ' ');
          g_string_append (text, label);
        }
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gather_text (child, text);
}

/* The icons GTK draws as part of a control (a drop-down's or menu
 * button's arrow, a check box's indicator), of a type it does not export:
 * GTK 4.8 presents them as "GtkBuiltinIcon", and the control they belong
 * to says the same in words */
static gboolean
is_indicator (GtkWidget *widget)
{
  GType type = g_type_from_name ("GtkBuiltinIcon");

  return type != G_TYPE_INVALID && G_TYPE_CHECK_INSTANCE_TYPE (widget, type);
}

static void
hide_indicators (GtkWidget *root)
{
  if (is_indicator (root))
    {
      gtk_accessible_update_state (GTK_ACCESSIBLE (root), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    hide_indicators (child);
}

static GtkWidget *
first_descendant (GtkWidget *root,
                  GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = G_TYPE_CHECK_INSTANCE_TYPE (child, type) ? child : first_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The button inside @drop_down: the popover beside it is left alone */
static GtkWidget *
drop_down_button (GtkDropDown *drop_down)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (drop_down));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BUTTON (child))
      return child;
  return NULL;
}

/* The text of @drop_down's chosen item: a string list's, or its
 * expression's; NULL when none is chosen */
static char *
chosen_text (GtkDropDown *drop_down)
{
  GObject *item = gtk_drop_down_get_selected_item (drop_down);
  GtkExpression *expression = gtk_drop_down_get_expression (drop_down);
  char *text = NULL;

  if (item == NULL)
    return NULL;
  if (GTK_IS_STRING_OBJECT (item))
    return g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
  if (expression != NULL)
    {
      GValue value = G_VALUE_INIT;

      if (gtk_expression_evaluate (expression, item, &value) && G_VALUE_HOLDS_STRING (&value))
        text = g_value_dup_string (&value);
      g_value_unset (&value);
    }
  return text;
}

/* The button of a drop-down shows the chosen item in a stack, with a
 * page for no item; GTK 4.8 names the item's page and widget after their
 * types, and makes the widget's content only once it is shown. Both read
 * as the chosen item's text, as it changes; the arrow is left out. */
static void
tidy_drop_down_button (GtkDropDown *drop_down)
{
  GtkWidget *button = drop_down_button (drop_down);
  g_autofree char *text = chosen_text (drop_down);
  GtkWidget *stack;
  GtkWidget *item;
  GtkWidget *empty;

  if (button == NULL)
    return;
  hide_indicators (button);
  stack = first_descendant (button, GTK_TYPE_STACK);
  if (stack == NULL)
    return;
  item = gtk_stack_get_child_by_name (GTK_STACK (stack), "item");
  empty = gtk_stack_get_child_by_name (GTK_STACK (stack), "empty");
  /* Only the page on show is read */
  if (item != NULL)
    {
      GtkStackPage *page = gtk_stack_get_page (GTK_STACK (stack), item);

      gtk_accessible_update_property (GTK_ACCESSIBLE (page), GTK_ACCESSIBLE_PROPERTY_LABEL, text != NULL ? text : "", -1);
      gtk_accessible_update_state (GTK_ACCESSIBLE (page), GTK_ACCESSIBLE_STATE_HIDDEN, text == NULL, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (item), GTK_ACCESSIBLE_PROPERTY_LABEL, text != NULL ? text : "", -1);
    }
  if (empty != NULL)
    {
      GtkStackPage *page = gtk_stack_get_page (GTK_STACK (stack), empty);

      /* "(None)" */
      if (GTK_IS_LABEL (empty))
        gtk_accessible_update_relation (GTK_ACCESSIBLE (page), GTK_ACCESSIBLE_RELATION_LABELLED_BY, empty, NULL, -1);
      gtk_accessible_update_state (GTK_ACCESSIBLE (page), GTK_ACCESSIBLE_STATE_HIDDEN, text != NULL, -1);
    }
}

static void
tidy_drop_down (GtkDropDown *drop_down)
{
  if (g_object_get_data (G_OBJECT (drop_down), "ps-accessible-tidy") != NULL)
    return;
  g_object_set_data (G_OBJECT (drop_down), "ps-accessible-tidy", GINT_TO_POINTER (1));
  g_signal_connect_after (drop_down, "notify::selected-item", G_CALLBACK (tidy_drop_down_button), NULL);
  g_signal_connect_after (drop_down, "notify::model", G_CALLBACK (tidy_drop_down_button), NULL);
  tidy_drop_down_button (drop_down);
}

static GtkColumnViewColumn *
first_visible_column (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  guint n_columns = g_list_model_get_n_items (columns);

  for (guint i = 0; i < n_columns; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (column))
        return column;
    }
  return NULL;
}

/* After the view's own bind: the cell reads its text, then its column */
static void
cell_bound_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               GtkColumnViewColumn      *column)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autoptr(GString) text = g_string_new (NULL);
  GtkColumnView *view = gtk_column_view_column_get_column_view (column);
  const char *title = gtk_column_view_column_get_title (column);
  const char *name;
  GtkWidget *cell;

  if (child == NULL)
    return;
  gather_text (child, text);
  /* Translators: what a screen reader says for a table cell without text */
  name = text->len > 0 ? text->str : C_("table cell", "blank");

#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_list_item_set_accessible_label (list_item, name);
  gtk_list_item_set_accessible_description (list_item, title != NULL ? title : "");
#endif
  /* An expander takes the focus in the cell: it reads as the cell */
  if (GTK_IS_TREE_EXPANDER (child))
    gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  /* GTK 4.8 has no API for the cell: it is the widget the child is in */
  cell = gtk_widget_get_parent (child);
  if (cell == NULL)
    return;
#if !GTK_CHECK_VERSION (4, 12, 0)
  gtk_accessible_update_property (GTK_ACCESSIBLE (cell),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, title != NULL ? title : "",
                                  -1);
#endif

  /* A row reads as its first cell (a description, a function's name) */
  if (view != NULL && first_visible_column (view) == column && gtk_widget_get_parent (cell) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (cell)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

/* The title widgets of a column view's header (a type GTK does not
 * export, found by name): named by their label, the sort arrow left out */
static void
name_header_widget (GtkWidget *widget,
                    GType      title_type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (title_type != G_TYPE_INVALID && G_TYPE_CHECK_INSTANCE_TYPE (child, title_type))
        {
          g_autoptr(GString) text = g_string_new (NULL);

          gather_text (child, text);
          gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                          GTK_ACCESSIBLE_PROPERTY_LABEL, text->str,
                                          /* Translators: a column header's description for a screen reader */
                                          GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("Column header; activate to sort"),
                                          -1);
          for (GtkWidget *part = gtk_widget_get_first_child (child);
               part != NULL;
               part = gtk_widget_get_next_sibling (part))
            for (GtkWidget *piece = gtk_widget_get_first_child (part);
                 piece != NULL;
                 piece = gtk_widget_get_next_sibling (piece))
              if (!GTK_IS_LABEL (piece))
                gtk_accessible_update_state (GTK_ACCESSIBLE (piece), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
        }
    }
}

static gboolean
name_headers_cb (gpointer user_data)
{
  GtkColumnView *view = user_data;
  GType title_type = g_type_from_name ("GtkColumnViewTitle");

  g_object_set_data (G_OBJECT (view), "ps-accessible-headers-id", NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LIST_VIEW (child))
        {
          /* The rows' list reads as the table it is in */
          gtk_accessible_update_relation (GTK_ACCESSIBLE (child),
                                          GTK_ACCESSIBLE_RELATION_LABELLED_BY, view, NULL,
                                          -1);
          continue;
        }
      gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                      /* Translators: the row of a table's column headers, for a screen reader */
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Column headers"),
                                      -1);
      name_header_widget (child, title_type);
    }
  return G_SOURCE_REMOVE;
}

/* Headers are made and retitled after the columns change: named once the
 * view has settled */
static void
queue_name_headers (GtkColumnView *view)
{
  guint id;

  if (g_object_get_data (G_OBJECT (view), "ps-accessible-headers-id") != NULL)
    return;
  id = g_idle_add_full (G_PRIORITY_LOW, name_headers_cb, g_object_ref (view), g_object_unref);
  g_object_set_data (G_OBJECT (view), "ps-accessible-headers-id", GUINT_TO_POINTER (id));
}

static void
name_columns (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  guint n_columns = g_list_model_get_n_items (columns);

  for (guint i = 0; i < n_columns; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      GtkListItemFactory *factory = gtk_column_view_column_get_factory (column);

      if (g_object_get_data (G_OBJECT (column), "ps-accessible-names") != NULL)
        continue;
      g_object_set_data (G_OBJECT (column), "ps-accessible-names", GINT_TO_POINTER (1));
      if (GTK_IS_SIGNAL_LIST_ITEM_FACTORY (factory))
        g_signal_connect_object (factory, "bind", G_CALLBACK (cell_bound_cb), column, G_CONNECT_AFTER);
      g_signal_connect_object (column, "notify::title", G_CALLBACK (queue_name_headers), view, G_CONNECT_SWAPPED);
      g_signal_connect_object (column, "notify::visible", G_CALLBACK (queue_name_headers), view, G_CONNECT_SWAPPED);
    }
  queue_name_headers (view);
}

void
ps_accessible_name_table (GtkColumnView *view)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  if (g_object_get_data (G_OBJECT (view), "ps-accessible-table") != NULL)
    return;
  g_object_set_data (G_OBJECT (view), "ps-accessible-table", GINT_TO_POINTER (1));

  g_signal_connect_object (gtk_column_view_get_columns (view), "items-changed",
                           G_CALLBACK (name_columns), view, G_CONNECT_SWAPPED);
  g_signal_connect_object (view, "map", G_CALLBACK (queue_name_headers), view, G_CONNECT_SWAPPED);
  name_columns (view);
}

void
ps_accessible_name_list_row (GtkListItem *list_item,
                             const char  *name)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_LIST_ITEM (list_item));

  /* GTK 4.8 has no API for the row: it is the widget the child is in */
  child = gtk_list_item_get_child (list_item);
  if (child != NULL && gtk_widget_get_parent (child) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (child)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, name != NULL ? name : "",
                                    -1);
}

void
ps_accessible_name_drop_down (GtkDropDown *drop_down,
                              const char  *name)
{
  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));

  gtk_accessible_update_property (GTK_ACCESSIBLE (drop_down), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  /* The button that opens the list; the popover's list is named too */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (drop_down));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  tidy_drop_down (drop_down);
}

static void
label_changed_cb (GtkLabel *label)
{
  const char *text = gtk_label_get_text (label);

  gtk_accessible_update_state (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_STATE_HIDDEN,
                               text == NULL || *text == '\0', -1);
}

void
ps_accessible_hide_empty (GtkLabel *label)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  if (g_object_get_data (G_OBJECT (label), "ps-accessible-hide-empty") != NULL)
    return;
  g_object_set_data (G_OBJECT (label), "ps-accessible-hide-empty", GINT_TO_POINTER (1));
  g_signal_connect (label, "notify::label", G_CALLBACK (label_changed_cb), NULL);
  label_changed_cb (label);
}

void
ps_accessible_name_stack_page (GtkStack   *stack,
                               const char *page_name,
                               const char *label)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_STACK (stack));

  child = gtk_stack_get_child_by_name (stack, page_name);
  g_return_if_fail (child != NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_stack_get_page (stack, child)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void
ps_accessible_name_paned (GtkPaned   *paned,
                          const char *label)
{
  g_return_if_fail (GTK_IS_PANED (paned));

  g_object_set_data (G_OBJECT (paned), "ps-accessible-named", GINT_TO_POINTER (1));
  gtk_accessible_update_property (GTK_ACCESSIBLE (paned), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  /* The handle is dragged, or moved with F8 on the paned: no element of its own */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (paned));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != gtk_paned_get_start_child (paned) && child != gtk_paned_get_end_child (paned))
      gtk_accessible_update_state (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}

static void
name_scrollbar (GtkWidget *scrollbar)
{
  GtkOrientation orientation = gtk_orientable_get_orientation (GTK_ORIENTABLE (scrollbar));
  const char *label = orientation == GTK_ORIENTATION_HORIZONTAL
                      /* Translators: for a screen reader */
                      ? _("Horizontal scroll bar")
                      /* Translators: for a screen reader */
                      : _("Vertical scroll bar");

  gtk_accessible_update_property (GTK_ACCESSIBLE (scrollbar), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  /* GTK 4.8 makes the scroll bar of a range widget inside it */
  for (GtkWidget *child = gtk_widget_get_first_child (scrollbar);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void
ps_accessible_name_scrolling (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_SCROLLED_WINDOW (root))
    {
      GtkScrolledWindow *window = GTK_SCROLLED_WINDOW (root);
      GtkWidget *child = gtk_scrolled_window_get_child (window);

      name_scrollbar (gtk_scrolled_window_get_hscrollbar (window));
      name_scrollbar (gtk_scrolled_window_get_vscrollbar (window));
      if (GTK_IS_VIEWPORT (child))
        child = gtk_viewport_get_child (GTK_VIEWPORT (child));
      /* The scrolled area reads as what it scrolls */
      if (child != NULL)
        gtk_accessible_update_relation (GTK_ACCESSIBLE (window),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, child, NULL,
                                        -1);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    ps_accessible_name_scrolling (child);
}

/* What the untitled pages of the views' stacks show, by page name */
static const char *
untitled_page_label (const char *page_name)
{
  if (g_strcmp0 (page_name, "table") == 0 || g_strcmp0 (page_name, "columns") == 0)
    /* Translators: a page of a view, for a screen reader */
    return _("Table");
  if (g_strcmp0 (page_name, "empty") == 0)
    /* Translators: a page of a view, for a screen reader */
    return _("Nothing to show");
  if (g_strcmp0 (page_name, "charts") == 0)
    /* Translators: a page of a view, for a screen reader */
    return _("Charts");
  if (g_strcmp0 (page_name, "flame") == 0)
    /* Translators: a page of a view, for a screen reader */
    return _("Flame graph");
  return NULL;
}

/* GTK 4.8 names a control with an access key by its label as written,
 * underscore and all ("Per t_hread"), and a button by that and by its
 * label's text ("_Retry Retry"): each is named by the text its label shows */
void
ps_accessible_name_as_shown (GtkWidget *widget)
{
  GtkWidget *label = first_descendant (widget, GTK_TYPE_LABEL);

  if (label == NULL || !gtk_label_get_use_underline (GTK_LABEL (label)) || *gtk_label_get_text (GTK_LABEL (label)) == '\0')
    return;
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_parent (label) == widget && !GTK_IS_STACK_SWITCHER (gtk_widget_get_parent (widget)))
    /* The label names the button already */
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
  else
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    gtk_label_get_text (GTK_LABEL (label)), -1);
}

/* A title as written with its access key ("_Warnings (3)", "A__B") as it
 * shows ("Warnings (3)", "A_B") */
static char *
without_mnemonic (const char *title)
{
  GString *shown = g_string_sized_new (strlen (title));

  for (const char *c = title; *c != '\0'; c++)
    {
      if (*c == '_' && c[1] != '\0')
        c++;
      g_string_append_c (shown, *c);
    }
  return g_string_free (shown, FALSE);
}

/* The tabs of a view as they show, and the pages they lead to by the
 * titles they show: GTK 4.8 names a page by its title as written, which
 * a screen reader reads with its underscore */
static void
name_tabs_now (GtkStackSwitcher *switcher)
{
  GtkStack *stack = gtk_stack_switcher_get_stack (switcher);
  g_autoptr(GListModel) pages = stack != NULL ? G_LIST_MODEL (gtk_stack_get_pages (stack)) : NULL;

  for (GtkWidget *tab = gtk_widget_get_first_child (GTK_WIDGET (switcher)); tab != NULL;
       tab = gtk_widget_get_next_sibling (tab))
    ps_accessible_name_as_shown (tab);
  for (guint i = 0; pages != NULL && i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (pages, i);
      GtkStackPage *page = GTK_STACK_PAGE (item);
      const char *title = gtk_stack_page_get_title (page);

      if (title != NULL && gtk_stack_page_get_use_underline (page))
        {
          g_autofree char *shown = without_mnemonic (title);

          gtk_accessible_update_property (GTK_ACCESSIBLE (page), GTK_ACCESSIBLE_PROPERTY_LABEL, shown, -1);
        }
    }
}

static gboolean
name_tabs_idle_cb (gpointer user_data)
{
  name_tabs_now (user_data);
  return G_SOURCE_REMOVE;
}

/* A view's tabs are named again when a page's title changes ("_Warnings
 * (20)"), once the switcher has named its tab after it */
static void
name_tabs_cb (GObject    *page,
              GParamSpec *pspec,
              gpointer    user_data)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, name_tabs_idle_cb, g_object_ref (user_data), g_object_unref);
}

static void
name_tabs (GtkStackSwitcher *switcher)
{
  GtkStack *stack = gtk_stack_switcher_get_stack (switcher);
  g_autoptr(GListModel) pages = stack != NULL ? G_LIST_MODEL (gtk_stack_get_pages (stack)) : NULL;

  name_tabs_now (switcher);
  if (g_object_get_data (G_OBJECT (switcher), "ps-tabs-named") != NULL || pages == NULL)
    return;
  g_object_set_data (G_OBJECT (switcher), "ps-tabs-named", GINT_TO_POINTER (TRUE));
  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(GObject) page = g_list_model_get_item (pages, i);

      g_signal_connect_object (page, "notify::title", G_CALLBACK (name_tabs_cb), switcher, 0);
    }
}

void
ps_accessible_name_parts (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_STACK_SWITCHER (root))
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (root),
                                      /* Translators: the tabs of a view, for a screen reader */
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Pages of the view"), -1);
      name_tabs (GTK_STACK_SWITCHER (root));
    }
  else if ((GTK_IS_BUTTON (root) && !GTK_IS_MENU_BUTTON (root)) || GTK_IS_CHECK_BUTTON (root))
    ps_accessible_name_as_shown (root);
  else if (GTK_IS_SPINNER (root))
    gtk_accessible_update_property (GTK_ACCESSIBLE (root),
                                    /* Translators: a spinner, for a screen reader */
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Working"), -1);
  else if (GTK_IS_PANED (root) && g_object_get_data (G_OBJECT (root), "ps-accessible-named") == NULL)
    /* Translators: two parts of a view with a divider, for a screen reader */
    ps_accessible_name_paned (GTK_PANED (root), _("Split view"));
  else if (GTK_IS_LABEL (root))
    {
      GtkWidget *target = gtk_label_get_mnemonic_widget (GTK_LABEL (root));

      /* A label that says nothing yet (a count, a status line) is not
       * read until it does */
      ps_accessible_hide_empty (GTK_LABEL (root));
      /* The button inside a drop-down reads as the drop-down's label */
      if (GTK_IS_DROP_DOWN (target) && drop_down_button (GTK_DROP_DOWN (target)) != NULL)
        gtk_accessible_update_relation (GTK_ACCESSIBLE (drop_down_button (GTK_DROP_DOWN (target))),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, root, NULL,
                                        -1);
    }
  else if (is_indicator (root))
    gtk_accessible_update_state (GTK_ACCESSIBLE (root), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  else if (GTK_IS_DROP_DOWN (root))
    {
      /* Its popover's list is GTK's, made when it opens */
      tidy_drop_down (GTK_DROP_DOWN (root));
      return;
    }
  else if (GTK_IS_MENU_BUTTON (root) && gtk_menu_button_get_label (GTK_MENU_BUTTON (root)) != NULL)
    {
      /* GTK 4.8 names the button inside after the text, the menu button
       * around it after its type */
      GtkWidget *label = first_descendant (root, GTK_TYPE_LABEL);

      if (label != NULL)
        gtk_accessible_update_relation (GTK_ACCESSIBLE (root),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                        -1);
    }
  else if (GTK_IS_STACK (root))
    for (GtkWidget *child = gtk_widget_get_first_child (root);
         child != NULL;
         child = gtk_widget_get_next_sibling (child))
      {
        GtkStackPage *page = gtk_stack_get_page (GTK_STACK (root), child);
        const char *label = untitled_page_label (gtk_stack_page_get_name (page));

        if (gtk_stack_page_get_title (page) == NULL && label != NULL)
          gtk_accessible_update_property (GTK_ACCESSIBLE (page), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
      }

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    ps_accessible_name_parts (child);
}

/* test-reload-encoding.c — a run read again in another code page
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/cli.md "Counter logs": the main menu's "Reload With Encoding"
 * reads the current run's file again with its text in the code page
 * chosen, as perfscope-cli --encoding does, or guessed again with
 * "Automatic".
 */
#include "config.h"

#include <string.h>

#include "gui-fixture.h"
#include "ps-run-page-private.h"

/* The Russian log of tests/data/pdh-csv: Windows-1251 */
#define CYRILLIC_OBJECT "Процессор"
/* Its bytes read as Windows-1252 */
#define MISREAD_OBJECT "Ïðîöåññîð"

/* The targets of the items of the menu that call action, submenus and
 * sections included */
static void
collect_targets (GMenuModel *model,
                 const char *action,
                 GPtrArray  *targets)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *item_action = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autoptr(GMenuModel) submenu = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU);

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action)
          && g_strcmp0 (item_action, action) == 0)
        {
          g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (model, i, G_MENU_ATTRIBUTE_TARGET,
                                                                              G_VARIANT_TYPE_STRING);

          g_assert_nonnull (target);
          g_ptr_array_add (targets, g_variant_dup_string (target, NULL));
        }
      if (section != NULL)
        collect_targets (section, action, targets);
      if (submenu != NULL)
        collect_targets (submenu, action, targets);
    }
}

/* Whether the counter tree of the page names the object */
static gboolean
page_shows (PsRunPage  *page,
            const char *text)
{
  g_autofree char *labels = collect_label_text (GTK_WIDGET (page));

  return strstr (labels, text) != NULL;
}

typedef struct
{
  PsRunPage  *page;
  const char *text;
} Shows;

static gboolean
page_shows_cb (gpointer data)
{
  Shows *shows = data;

  return ps_run_page_get_state (shows->page) >= PS_RUN_PAGE_LOADED && page_shows (shows->page, shows->text);
}

static const char *
encoding_of (PsRunPage *page)
{
  return ps_event_store_get_metadata (ps_run_page_get_store (page), 0, "encoding");
}

static void
reload (Fixture    *fixture,
        PsRunPage  *page,
        const char *encoding,
        const char *shown)
{
  Shows shows = { page, shown };

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.reload-with-encoding", "s", encoding));
  wait_for_page (page);
  g_assert_cmpint (ps_run_page_get_state (page), >=, PS_RUN_PAGE_LOADED);
  g_assert_true (iterate_until (page_shows_cb, &shows));
}

static void
test_reload_with_encoding (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "pdh-csv", "cp1251-cut-zone.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWidget *titlebar = find_widget_of_type (GTK_WIDGET (fixture->window), ADW_TYPE_HEADER_BAR, FALSE);
  GtkWidget *button = find_widget_of_type (titlebar, GTK_TYPE_MENU_BUTTON, FALSE);
  g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func (g_free);
  Shows shows = { NULL, CYRILLIC_OBJECT };
  PsRunPage *page;

  /* The menu offers it: guessing again, and the common code pages */
  g_assert_nonnull (button);
  collect_targets (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), "win.reload-with-encoding", targets);
  g_assert_true (g_ptr_array_find_with_equal_func (targets, "", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (targets, "WINDOWS-1251", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (targets, "WINDOWS-1252", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (targets, "UTF-8", g_str_equal, NULL));
  /* Every one a code page the loader takes */
  for (guint i = 0; i < targets->len; i++)
    if (((char *) targets->pdata[i])[0] != '\0')
      {
        GIConv converter = g_iconv_open ("UTF-8", targets->pdata[i]);

        g_assert_true (converter != (GIConv) -1);
        g_iconv_close (converter);
      }

  /* Guessed: Cyrillic */
  page = open_and_wait (fixture, file);
  shows.page = page;
  g_assert_true (iterate_until (page_shows_cb, &shows));
  g_assert_cmpstr (encoding_of (page), ==, "Windows-1251");
  g_assert_null (ps_run_page_get_encoding (page));
  g_assert_false (page_shows (page, MISREAD_OBJECT));

  /* Read as Western European: the same bytes, other letters */
  reload (fixture, page, "WINDOWS-1252", MISREAD_OBJECT);
  g_assert_cmpstr (ps_run_page_get_encoding (page), ==, "WINDOWS-1252");
  g_assert_cmpstr (encoding_of (page), ==, "WINDOWS-1252");
  g_assert_false (page_shows (page, CYRILLIC_OBJECT));
  g_assert_true (ps_run_page_get_file (page) != NULL && g_file_equal (ps_run_page_get_file (page), file));

  /* Automatic: guessed again */
  reload (fixture, page, "", CYRILLIC_OBJECT);
  g_assert_null (ps_run_page_get_encoding (page));
  g_assert_cmpstr (encoding_of (page), ==, "Windows-1251");
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  ADD_TEST ("/reload-encoding/menu-and-reload", test_reload_with_encoding);

  return gui_test_run ();
}

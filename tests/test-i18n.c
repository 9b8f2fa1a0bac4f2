/* test-i18n.c — the application in French, with the translations of this build
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under LC_ALL=fr_FR.UTF-8 with po/fr.gmo of the build directory
 * bound to the text domain, as an installed fr.mo would be, and checks
 * that the window shows French labels and that numbers follow the French
 * locale (digit grouping, decimal comma).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <langinfo.h>
#include <locale.h>
#include <string.h>

#include "gui-fixture.h"
#include "ps-collector.h"
#include "ps-compare-export.h"
#include "ps-compare-page-private.h"
#include "ps-record-dialog.h"
#include "ps-trend-chart.h"
#include "ps-view-util.h"
#include "ps-window-private.h"

#define TEST_LOCALE "fr_FR.UTF-8"

/* Why the French run cannot happen, or NULL */
static char *skip_reason;

static void
test_skip (void)
{
  g_test_skip (skip_reason);
}

/* A locale folder holding fr/LC_MESSAGES/perfscope.mo: the catalogue that
 * meson compiled from po/fr.po (po/fr/LC_MESSAGES/perfscope.mo, or
 * po/fr.gmo with older meson), named as gettext looks it up */
static char *
make_locale_dir (void)
{
  const char *po_build_dir = g_getenv ("PERFSCOPE_PO_BUILDDIR");
  g_autofree char *built_mo = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *messages_dir = NULL;
  g_autofree char *mo = NULL;
  g_autoptr(GError) error = NULL;
  char *locale_dir;
  gsize length;

  g_assert_nonnull (po_build_dir);
  built_mo = g_build_filename (po_build_dir, "fr", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  if (!g_file_test (built_mo, G_FILE_TEST_IS_REGULAR))
    {
      g_free (built_mo);
      built_mo = g_build_filename (po_build_dir, "fr.gmo", NULL);
    }
  g_file_get_contents (built_mo, &contents, &length, &error);
  g_assert_no_error (error);

  locale_dir = g_dir_make_tmp ("perfscope-test-i18n-XXXXXX", &error);
  g_assert_no_error (error);
  messages_dir = g_build_filename (locale_dir, "fr", "LC_MESSAGES", NULL);
  g_assert_cmpint (g_mkdir_with_parents (messages_dir, 0700), ==, 0);
  mo = g_build_filename (messages_dir, GETTEXT_PACKAGE ".mo", NULL);
  g_file_set_contents (mo, contents, length, &error);
  g_assert_no_error (error);

  return locale_dir;
}

static void
remove_locale_dir (const char *locale_dir)
{
  g_autofree char *mo = g_build_filename (locale_dir, "fr", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  g_autofree char *messages_dir = g_path_get_dirname (mo);
  g_autofree char *language_dir = g_path_get_dirname (messages_dir);

  g_remove (mo);
  g_rmdir (messages_dir);
  g_rmdir (language_dir);
  g_rmdir (locale_dir);
}

/* The first descendant of widget of the given type whose text is label */
static GtkWidget *
find_labelled (GtkWidget  *widget,
               GType       type,
               const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    {
      const char *text = type == GTK_TYPE_BUTTON ? gtk_button_get_label (GTK_BUTTON (widget))
                                                 : gtk_label_get_label (GTK_LABEL (widget));

      if (g_strcmp0 (text, label) == 0)
        return widget;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_labelled (child, type, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_window_labels (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkWidget *open_button;
  GtkWidget *hint;

  /* The catalogue is the one of this build, not an installed one */
  g_assert_cmpstr (_("_Open"), ==, "_Ouvrir");

  /* The header bar's Open button and the empty state, as the user sees them */
  open_button = find_labelled (window, GTK_TYPE_BUTTON, "_Ouvrir");
  g_assert_nonnull (open_button);
  g_assert_true (gtk_widget_get_mapped (open_button));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (open_button), ==,
                   "Ouvrir un journal de performances (Ctrl+O)");
  g_assert_null (find_labelled (window, GTK_TYPE_BUTTON, "_Open"));

  hint = find_labelled (window, GTK_TYPE_LABEL, "Ouvrir un journal de performances");
  g_assert_nonnull (hint);
  g_assert_true (gtk_widget_get_mapped (hint));
  maybe_save_screenshot (fixture, "i18n-fr-empty");
}

static void
test_record_dialog (Fixture       *fixture,
                    gconstpointer  data)
{
  g_auto(GStrv) names = ps_collectors_list_names ();
  GtkWidget *dialog;

  if (!g_strv_contains ((const char * const *)names, "procfs"))
    {
      g_test_skip ("The procfs collector is not built");
      return;
    }

  /* The backend's options are named in the plugin and shown in French */
  dialog = ps_window_show_record_dialog (fixture->window);
  g_assert_true (ps_record_dialog_select_backend (PS_RECORD_DIALOG (dialog), "procfs"));
  g_assert_nonnull (find_labelled (dialog, GTK_TYPE_LABEL, "Identifiant de processus"));
  g_assert_nonnull (find_labelled (dialog, GTK_TYPE_LABEL, "Système entier"));
  g_assert_null (find_labelled (dialog, GTK_TYPE_LABEL, "Process ID"));
  g_assert_null (find_labelled (dialog, GTK_TYPE_LABEL, "Whole system"));
  maybe_save_screenshot (fixture, "i18n-fr-record");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Every character the Korean translation uses, once each */
static char *
korean_characters (void)
{
  g_autofree char *po = g_test_build_filename (G_TEST_DIST, "..", "po", "ko.po", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  GString *characters = g_string_new (NULL);

  g_file_get_contents (po, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_utf8_validate (contents, -1, NULL));
  for (const char *p = contents; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c >= 0x80 && !g_unichar_isspace (c)
          && g_hash_table_add (seen, GUINT_TO_POINTER (c)))
        g_string_append_unichar (characters, c);
    }
  return g_string_free (characters, FALSE);
}

/* A machine set up by build-aux/setup-debian draws Korean, not boxes */
static void
test_korean_glyphs (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *characters = korean_characters ();
  g_autoptr(PangoLayout) layout = NULL;
  int unknown;

  g_assert_cmpuint (g_utf8_strlen (characters, -1), >, 500);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (fixture->window), characters);
  unknown = pango_layout_get_unknown_glyphs_count (layout);
  if (unknown > 0)
    g_test_message ("%d characters of po/ko.po have no font on this system: "
                    "install a Korean font (fonts-nanum)", unknown);
  g_assert_cmpint (unknown, ==, 0);
}

static void
test_plurals (Fixture       *fixture,
              gconstpointer  data)
{
  /* French: n > 1 takes the plural, so 0 and 1 are singular */
  g_assert_cmpstr (ngettext ("%u row", "%u rows", 0), ==, "%u ligne");
  g_assert_cmpstr (ngettext ("%u row", "%u rows", 1), ==, "%u ligne");
  g_assert_cmpstr (ngettext ("%u row", "%u rows", 2), ==, "%u lignes");
}

/* The Trend page's Unit column and values name the engine's units in French;
 * a counter's own unit stays as its log wrote it */
static void
test_trend_units (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *samples = ps_trend_format_value (12, "samples");

  g_assert_cmpstr (ps_view_unit_name ("bytes"), ==, "octets");
  g_assert_cmpstr (ps_view_unit_name ("samples"), ==, "échantillons");
  g_assert_cmpstr (ps_view_unit_name ("ticks"), ==, "tops");
  g_assert_cmpstr (ps_view_unit_name ("percent"), ==, "%");
  g_assert_cmpstr (ps_view_unit_name ("Mo/s"), ==, "Mo/s");
  g_assert_true (g_str_has_suffix (samples, " échantillons"));
}

/* The comparison's values and noise floors name their units in French too */
static void
test_compare_units (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *large = ps_compare_page_format_value (33540, "ticks", FALSE);
  g_autofree char *small = ps_compare_page_format_value (-12, "samples", TRUE);
  g_autofree char *own = ps_compare_page_format_value (250, "Mo/s", FALSE);

  g_assert_true (g_str_has_suffix (large, " tops"));
  g_assert_true (g_str_has_prefix (small, "−12"));
  g_assert_true (g_str_has_suffix (small, " échantillons"));
  g_assert_true (g_str_has_suffix (own, " Mo/s"));

  /* Two percentages differ by percentage points; p-values in the
   * locale's digits, the least one too */
  {
    g_autofree char *fall = ps_compare_page_format_delta (-1.57, "percent", 57.68);
    g_autofree char *rise = ps_compare_page_format_delta (0.5, "percent", 56.11);
    g_autofree char *least = ps_compare_export_format_p_value (0.0001);
    g_autofree char *p = ps_compare_export_format_p_value (0.464);

    g_assert_cmpstr (fall, ==, "−1,57 pp");
    g_assert_cmpstr (rise, ==, "+0,50 pp");
    g_assert_cmpstr (least, ==, "< 0,001");
    g_assert_cmpstr (p, ==, "0,464");
  }
}

/* Sizes in French units, as GLib's g_format_size () writes them */
static void
test_byte_units (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *size = ps_view_format_quantity (PS_VIEW_QUANTITY_BYTES, 10.5 * 1024 * 1024);

  g_assert_cmpstr (size, ==, "10,50 Mio");
  g_assert_cmpstr (ps_view_quantity_unit (PS_VIEW_QUANTITY_BYTES, 2048, NULL), ==, "Kio");
  g_assert_cmpstr (ps_view_unit_name ("bytes"), ==, "octets");
}

static void
test_numbers (Fixture       *fixture,
              gconstpointer  data)
{
  const char *separator = nl_langinfo (THOUSEP);
  g_autofree char *expected_count = NULL;
  g_autofree char *count = ps_view_format_count (1234567);
  g_autofree char *fraction = ps_view_format_number (2.5);
  g_autofree char *small = ps_view_format_number (0.000523);
  g_autofree char *negative_zero = ps_view_format_number (-0.0);
  g_autofree char *large = ps_view_format_number (98765.0);
  g_autofree char *expected_large = NULL;

  /* French groups digits with a (narrow) no-break space, never a comma */
  g_assert_nonnull (separator);
  g_assert_cmpstr (separator, !=, "");
  g_assert_null (strchr (separator, ','));
  g_assert_true (g_utf8_validate (separator, -1, NULL));
  g_assert_true (g_unichar_isspace (g_utf8_get_char (separator))
                 || g_utf8_get_char (separator) == 0x202F);

  expected_count = g_strconcat ("1", separator, "234", separator, "567", NULL);
  g_assert_cmpstr (count, ==, expected_count);
  expected_large = g_strconcat ("98", separator, "765", NULL);
  g_assert_cmpstr (large, ==, expected_large);

  /* and writes a decimal comma */
  g_assert_cmpstr (fraction, ==, "2,50");
  g_assert_cmpstr (small, ==, "0,000523");
  /* printf writes "-0,00" for a negative zero */
  g_assert_cmpstr (negative_zero, ==, "0,00");

  /* A change's significance, below the least it tells or not, with the
   * same decimal comma */
  {
    g_autofree char *least = ps_trend_format_p_value (0.0001);
    g_autofree char *p = ps_trend_format_p_value (0.0125);

    g_assert_cmpstr (least, ==, "p < 0,001");
    g_assert_cmpstr (p, ==, "p = 0,013");
  }
}

/* The series of a CE log's CPU and memory monitors, which the log names
 * "CPU: fsperf" and "MEM: fsperf", are named in French in the window */
static void
test_ce_monitors (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = demo_file_path ("fsperf_CEPC_x86_6_0_3122.log");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *cpu = ps_view_series_name ("CPU: fsperf");
  g_autofree char *memory = ps_view_series_name ("MEM: fsperf");
  g_autofree char *marker = ps_view_series_name ("Test=CreateFile,Files=10");

  g_assert_cmpstr (cpu, ==, "Processeur\u00a0: fsperf");
  g_assert_cmpstr (memory, ==, "Mémoire\u00a0: fsperf");
  g_assert_cmpstr (marker, ==, "Test=CreateFile,Files=10");

  /* The CPU & Memory page's table, and no English name left there */
  open_and_wait (fixture, file);
  iterate_for (200);
  g_assert_nonnull (find_labelled (GTK_WIDGET (fixture->window), GTK_TYPE_LABEL, "Processeur\u00a0: fsperf"));
  g_assert_nonnull (find_labelled (GTK_WIDGET (fixture->window), GTK_TYPE_LABEL, "Mémoire\u00a0: fsperf"));
  g_assert_null (find_labelled (GTK_WIDGET (fixture->window), GTK_TYPE_LABEL, "CPU: fsperf"));
  g_assert_null (find_labelled (GTK_WIDGET (fixture->window), GTK_TYPE_LABEL, "MEM: fsperf"));

  /* A comparison of two such runs names them alike */
  {
    g_autofree char *path_b = demo_file_path ("fsperf_CEPC_x86_6_0_3150.log");
    g_autoptr(GFile) file_b = g_file_new_for_path (path_b);
    PsComparePage *page = ps_window_compare_files (fixture->window, file, file_b);
    guint n_named = 0;

    g_assert_true (iterate_until ((gboolean (*) (gpointer))ps_compare_page_is_ready, page));
    for (guint i = 0; i < g_list_model_get_n_items (ps_compare_page_get_rows (page)); i++)
      {
        g_autofree char *name = ps_compare_page_get_cell_text (page, i, "name");

        g_assert_false (g_str_has_prefix (name, "CPU: ") || g_str_has_prefix (name, "MEM: "));
        if (g_strcmp0 (name, cpu) == 0 || g_strcmp0 (name, memory) == 0)
          n_named++;
      }
    g_assert_cmpuint (n_named, ==, 2);
  }
}

/* The counts of the engine's warnings are grouped with the French
 * separator; decimals keep their comma */
static void
test_warning_counts (Fixture       *fixture,
                     gconstpointer  data)
{
  const char *separator = nl_langinfo (THOUSEP);
  g_autofree char *expected = g_strconcat ("Aucun nom de fonction pour /lib/libc.so.7 : 1", separator,
                                           "388 échantillons (78,5 %) y ont des cadres", NULL);
  g_autofree char *shown = ps_view_group_counts ("Aucun nom de fonction pour /lib/libc.so.7 : 1388 échantillons (78,5 %) y ont des cadres");
  g_autofree char *named_expected = g_strconcat ("Compteur 1848 à la position 96 : 4", separator, "096 octets", NULL);
  g_autofree char *named = ps_view_group_counts ("Compteur 1848 à la position 96 : 4096 octets");

  g_assert_cmpstr (shown, ==, expected);
  /* A number after a word that names (the translated list) is not a count */
  g_assert_cmpstr (named, ==, named_expected);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *locale_dir = NULL;
  int status;

  /* gtk_init () calls setlocale (LC_ALL, "") again: the environment says French */
  g_setenv ("LC_ALL", TEST_LOCALE, TRUE);
  g_setenv ("LANG", TEST_LOCALE, TRUE);
  g_unsetenv ("LANGUAGE");
  if (setlocale (LC_ALL, "") == NULL)
    skip_reason = g_strdup ("the locale " TEST_LOCALE " is not available on this system "
                            "(install locales-all, or generate it with locale-gen)");
  else if (g_strcmp0 (nl_langinfo (CODESET), "UTF-8") != 0)
    skip_reason = g_strdup_printf ("the locale " TEST_LOCALE " has the character set %s, not UTF-8",
                                   nl_langinfo (CODESET));

  if (skip_reason == NULL)
    {
      locale_dir = make_locale_dir ();
      bindtextdomain (GETTEXT_PACKAGE, locale_dir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }

  if (!gui_test_init (&argc, &argv))
    {
      if (locale_dir != NULL)
        remove_locale_dir (locale_dir);
      return 0;
    }

  if (skip_reason != NULL)
    {
      g_test_add_func ("/i18n/fr/skipped", test_skip);
    }
  else
    {
      ADD_TEST ("/i18n/fr/window-labels", test_window_labels);
      ADD_TEST ("/i18n/fr/record-dialog", test_record_dialog);
      ADD_TEST ("/i18n/fr/plurals", test_plurals);
      ADD_TEST ("/i18n/ko/glyphs", test_korean_glyphs);
      ADD_TEST ("/i18n/fr/numbers", test_numbers);
      ADD_TEST ("/i18n/fr/trend-units", test_trend_units);
      ADD_TEST ("/i18n/fr/compare-units", test_compare_units);
      ADD_TEST ("/i18n/fr/byte-units", test_byte_units);
      ADD_TEST ("/i18n/fr/ce-monitors", test_ce_monitors);
      ADD_TEST ("/i18n/fr/warning-counts", test_warning_counts);
    }

  status = gui_test_run ();
  if (locale_dir != NULL)
    remove_locale_dir (locale_dir);
  g_free (skip_reason);
  return status;
}

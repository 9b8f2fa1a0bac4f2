/* test-record-choices.c — a backend's options chosen from the lists it reports
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hwpmc collector cannot record here (no FreeBSD kernel): this
 * program links its code with the fake kernel of fake-libpmc.c as the
 * backend of every hwpmc collector made, in place of the build's module,
 * so that the Record dialog offers it with the modes and events that
 * kernel reports.
 */
#include "config.h"

#include <string.h>

#include "collector-test-util.h"
#include "fake-libpmc.h"
#include "gui-fixture.h"
#include "ps-collector.h"
#include "ps-hwpmc-collector.h"
#include "ps-record-dialog.h"
#include "ps-window-private.h"

static FakeLibpmc *fake;

static void
register_types (GTypeModule *module)
{
  ps_hwpmc_collector_register (module);
}

/* The labels of a drop-down's items, joined by "|" */
static char *
dropdown_labels (GtkWidget *widget)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (widget));
  g_autoptr(GString) labels = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      g_string_append_printf (labels, "%s%s", i > 0 ? "|" : "", gtk_string_object_get_string (item));
    }
  return g_strdup (labels->str);
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* Shown with room for a value */
static gboolean
is_laid_out (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 100;
}

static gboolean
is_unmapped (gpointer widget)
{
  return !gtk_widget_get_mapped (widget);
}

/* Mode and event are drop-downs of what the backend reports, the
 * defaults chosen; the event's last item, "Other…", shows an entry whose
 * text is the value, and choosing an item from the list hides it again;
 * a value set that is not in the list goes to the entry, one a closed
 * list does not have is refused */
static void
test_hwpmc_choices (Fixture       *fixture,
                    gconstpointer  data)
{
  PsRecordDialog *dialog = PS_RECORD_DIALOG (ps_window_show_record_dialog (fixture->window));
  GtkWidget *mode, *events, *other;
  g_autofree char *mode_labels = NULL;
  g_autofree char *event_labels = NULL;
  g_autofree char *value = NULL;

  g_assert_true (ps_record_dialog_select_backend (dialog, "hwpmc"));
  g_assert_true (ps_record_dialog_can_record (dialog));
  g_assert_null (ps_record_dialog_get_error (dialog));

  mode = ps_record_dialog_get_option_widget (dialog, "mode");
  g_assert_true (GTK_IS_DROP_DOWN (mode));
  mode_labels = dropdown_labels (mode);
  g_assert_cmpstr (mode_labels, ==,
                   "Automatic: one process when one is given, else the whole system|"
                   "Whole system: every CPU, every process|"
                   "One process and the processes it starts");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (mode)), ==, 0);
  value = ps_record_dialog_get_option_value (dialog, "mode");
  g_assert_cmpstr (value, ==, "");
  g_clear_pointer (&value, g_free);
  g_assert_null (ps_record_dialog_get_option_other_entry (dialog, "mode"));

  events = ps_record_dialog_get_option_widget (dialog, "events");
  g_assert_true (GTK_IS_DROP_DOWN (events));
  event_labels = dropdown_labels (events);
  g_assert_cmpstr (event_labels, ==,
                   "instructions — instructions retired|cycles — processor cycles|"
                   "unhalted-cycles — cycles the processor was not halted|"
                   "branches — branch instructions retired|branch-mispredicts — branches mispredicted|"
                   "dc-misses — data cache misses|ic-misses — instruction cache misses|"
                   "interrupts — hardware interrupts|inst_retired.any|cpu_clk_unhalted.thread_p|"
                   "br_misp_retired.all_branches|Other…");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (events)), ==, 0);
  value = ps_record_dialog_get_option_value (dialog, "events");
  g_assert_cmpstr (value, ==, "instructions");
  g_clear_pointer (&value, g_free);

  other = ps_record_dialog_get_option_other_entry (dialog, "events");
  g_assert_true (GTK_IS_ENTRY (other));
  g_assert_true (iterate_until (is_mapped, events));
  g_assert_false (gtk_widget_get_mapped (other));

  /* "Other…": the entry shows, takes the focus, and its text is the value */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (events), 11);
  g_assert_true (iterate_until (is_laid_out, other));
  g_assert_true (gtk_widget_has_focus (other) || gtk_widget_is_focus (other)
                 || gtk_widget_get_focus_child (other) != NULL);
  gtk_editable_set_text (GTK_EDITABLE (other), "inst_retired.any,cycles");
  value = ps_record_dialog_get_option_value (dialog, "events");
  g_assert_cmpstr (value, ==, "inst_retired.any,cycles");
  g_clear_pointer (&value, g_free);

  /* An item of the list again: the entry hides */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (events), 10);
  g_assert_true (iterate_until (is_unmapped, other));
  value = ps_record_dialog_get_option_value (dialog, "events");
  g_assert_cmpstr (value, ==, "br_misp_retired.all_branches");
  g_clear_pointer (&value, g_free);

  /* Values set as the settings restore them */
  g_assert_true (ps_record_dialog_set_option (dialog, "events", "cycles"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (events)), ==, 1);
  g_assert_true (ps_record_dialog_set_option (dialog, "events", "uops_retired.all"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (events)), ==, 11);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (other)), ==, "uops_retired.all");
  g_assert_true (ps_record_dialog_set_option (dialog, "mode", "system"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (mode)), ==, 1);
  g_assert_false (ps_record_dialog_set_option (dialog, "mode", "per-thread"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (mode)), ==, 1);

  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The build's collector folders but hwpmc's, whose module would register
 * the type this program registers itself */
static void
drop_hwpmc_module (void)
{
  const char *dirs = g_getenv (PS_COLLECTOR_DIR_ENV);
  g_auto(GStrv) list = dirs != NULL ? g_strsplit (dirs, G_SEARCHPATH_SEPARATOR_S, 0) : NULL;
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) kept_list = NULL;
  g_autofree char *joined = NULL;

  for (guint i = 0; list != NULL && list[i] != NULL; i++)
    if (!g_str_has_suffix (list[i], G_DIR_SEPARATOR_S "hwpmc"))
      g_strv_builder_add (kept, list[i]);
  kept_list = g_strv_builder_end (kept);
  joined = g_strjoinv (G_SEARCHPATH_SEPARATOR_S, kept_list);
  g_setenv (PS_COLLECTOR_DIR_ENV, joined, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GBytes) no_log = g_bytes_new_static ("", 0);
  int status;

  drop_hwpmc_module ();
  if (!gui_test_init (&argc, &argv))
    return 0;

  fake = fake_libpmc_new (no_log);
  ps_hwpmc_collector_set_default_backend (fake_libpmc_get_backend (fake));
  ps_collectors_ensure_extension_point ();
  collector_test_ensure_module (register_types);
  g_io_extension_point_implement (PS_COLLECTOR_EXTENSION_POINT_NAME, PS_TYPE_HWPMC_COLLECTOR, "hwpmc", 10);

  ADD_TEST ("/record-choices/hwpmc", test_hwpmc_choices);

  status = gui_test_run ();
  fake_libpmc_free (fake);
  return status;
}

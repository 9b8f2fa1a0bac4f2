/* ps-record-dialog.c — New Recording: a backend, its options, Record
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The option rows come from the collector (ps_collector_list_options), so
 * a new backend brings its own. A process option is a searchable list of
 * the running processes where the system lists them in /proc, else an
 * entry for the number. A choice is a drop-down of the values the
 * backend reports (ps_collector_list_choices), by what they mean; one
 * that takes other values too ends with "Other…", which shows an entry. The backends that can record here come first,
 * the system's own (ps_collectors_get_default_name) at the top; the
 * others follow, marked, and say why when chosen. The backend and its
 * options (but the process or command) are remembered from the last
 * recording started ("record-backend", "record-options").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ps-host-collector.h"
#include "ps-record-dialog.h"
#include "ps-view-util.h"

typedef struct
{
  char                  *key;
  PsCollectorOptionType  type;
  GtkWidget             *widget;
  GtkWidget             *cell;        /* what the grid holds: widget, or widget and other_entry */
  GArray                *pids;        /* PID options with a list: the pid of each item */
  GStrv                  values;      /* choice options: the value of each item but "Other…" */
  GtkWidget             *other_entry; /* open choices: the text of "Other…" */
} OptionRow;

struct _PsRecordDialog
{
  GtkWindow     parent_instance;

  GStrv         backends;      /* names, in the order of the drop-down */
  GPtrArray    *collectors;    /* one of each backend, NULL where it failed */
  GPtrArray    *unavailable;   /* why each backend cannot record here, NULL if it can */
  GSettings    *settings;      /* NULL where the schema is not installed */
  PsCollector  *collector;     /* of the selected backend */
  GPtrArray    *rows;          /* OptionRow */
  GPtrArray    *row_widgets;   /* everything added to the grid below the backend */
  GCancellable *cancellable;   /* while starting */
  PsEventStore *store;         /* while starting */
  char         *error;

  /* Template widgets */
  GtkGrid      *grid;
  GtkDropDown  *backend_dropdown;
  GtkLabel     *hint_label;
  GtkLabel     *error_label;
  GtkButton    *record_button;
};

G_DEFINE_FINAL_TYPE (PsRecordDialog, ps_record_dialog, GTK_TYPE_WINDOW)

enum {
  STARTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
option_row_free (gpointer data)
{
  OptionRow *row = data;

  g_free (row->key);
  g_clear_pointer (&row->pids, g_array_unref);
  g_strfreev (row->values);
  g_free (row);
}

static void
collector_free (gpointer collector)
{
  if (collector != NULL)
    g_object_unref (collector);
}

static void
show_error (PsRecordDialog *self,
            const char     *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

typedef struct
{
  int   pid;
  char *name;
} Process;

static int
compare_processes (gconstpointer a,
                   gconstpointer b)
{
  const Process *pa = a;
  const Process *pb = b;
  int by_name = g_utf8_collate (pa->name, pb->name);

  return by_name != 0 ? by_name : (pa->pid > pb->pid) - (pa->pid < pb->pid);
}

/* The running processes by name, or NULL where /proc does not list them */
static GArray *
list_processes (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  GArray *processes;
  const char *entry;

  if (dir == NULL)
    return NULL;

  processes = g_array_new (FALSE, FALSE, sizeof (Process));
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *comm = NULL;
      char *end = NULL;
      long pid = strtol (entry, &end, 10);
      Process process;

      if (end == entry || *end != '\0' || pid <= 0)
        continue;
      path = g_build_filename ("/proc", entry, "comm", NULL);
      if (!g_file_get_contents (path, &comm, NULL, NULL))
        continue;
      g_strstrip (comm);
      process.pid = (int)pid;
      process.name = g_utf8_make_valid (comm, -1);
      g_array_append_val (processes, process);
    }
  g_array_sort (processes, compare_processes);

  return processes;
}

static GtkWidget *
new_process_dropdown (OptionRow *row)
{
  g_autoptr(GArray) processes = list_processes ();
  g_autoptr(GtkStringList) items = NULL;
  g_autoptr(GtkExpression) expression = NULL;
  GtkWidget *dropdown;
  int none = -1;

  if (processes == NULL)
    return NULL;

  items = gtk_string_list_new (NULL);
  row->pids = g_array_new (FALSE, FALSE, sizeof (int));
  /* Translators: the first item of the process list: record no process */
  gtk_string_list_append (items, _("None"));
  g_array_append_val (row->pids, none);
  for (guint i = 0; i < processes->len; i++)
    {
      Process *process = &g_array_index (processes, Process, i);
      /* Translators: a process in the list: its name and process id */
      g_autofree char *label = g_strdup_printf (_("%s (%d)"), process->name, process->pid);

      gtk_string_list_append (items, label);
      g_array_append_val (row->pids, process->pid);
      g_free (process->name);
    }

  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&items)), g_steal_pointer (&expression));
  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (dropdown), TRUE);
  gtk_widget_set_tooltip_text (dropdown, _("The process to record; type to search the list"));

  return dropdown;
}

/* "Other…", the last item of an open choice, shows the entry for the
 * value typed */
static void
choice_selected_cb (GtkDropDown *dropdown,
                    GParamSpec  *pspec,
                    GtkWidget   *other_entry)
{
  guint n_items = g_list_model_get_n_items (gtk_drop_down_get_model (dropdown));
  gboolean other = gtk_drop_down_get_selected (dropdown) + 1 == n_items;

  gtk_widget_set_visible (other_entry, other);
  if (other && gtk_widget_get_mapped (GTK_WIDGET (dropdown)))
    gtk_widget_grab_focus (other_entry);
}

/* Selects value in a choice row, or types it after "Other…" in an open
 * one; FALSE if the row takes no such value */
static gboolean
select_choice (OptionRow  *row,
               const char *value)
{
  for (guint i = 0; row->values[i] != NULL; i++)
    if (strcmp (row->values[i], value) == 0)
      {
        gtk_drop_down_set_selected (GTK_DROP_DOWN (row->widget), i);
        return TRUE;
      }
  if (row->other_entry == NULL)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (row->other_entry), value);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (row->widget), g_strv_length (row->values));
  return TRUE;
}

/* The values the backend reports for the option, by what they mean; an
 * open choice ends with "Other…" and an entry for any other value */
static GtkWidget *
new_choice_dropdown (OptionRow               *row,
                     PsCollector             *collector,
                     const PsCollectorOption *option)
{
  g_autoptr(GPtrArray) choices = ps_collector_list_choices (collector, option->key);
  g_autoptr(GtkStringList) items = gtk_string_list_new (NULL);
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
  g_autoptr(GtkExpression) expression = NULL;
  GtkWidget *dropdown;

  for (guint i = 0; i < choices->len; i++)
    {
      PsCollectorChoice *choice = g_ptr_array_index (choices, i);

      gtk_string_list_append (items, choice->label);
      g_strv_builder_add (values, choice->value);
    }
  row->values = g_strv_builder_end (values);
  if (option->type == PS_COLLECTOR_OPTION_OPEN_CHOICE)
    /* Translators: the last item of a list of values: type another one */
    gtk_string_list_append (items, _("Other…"));

  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&items)), g_steal_pointer (&expression));
  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (dropdown), choices->len > 10);
  row->widget = dropdown;
  row->cell = dropdown;
  if (option->type == PS_COLLECTOR_OPTION_OPEN_CHOICE)
    {
      row->other_entry = gtk_entry_new ();
      gtk_widget_set_visible (row->other_entry, FALSE);
      gtk_entry_set_activates_default (GTK_ENTRY (row->other_entry), TRUE);
      gtk_entry_set_placeholder_text (GTK_ENTRY (row->other_entry), _("Any other value the collector takes"));
      g_signal_connect_object (dropdown, "notify::selected", G_CALLBACK (choice_selected_cb), row->other_entry, 0);
      row->cell = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      gtk_box_append (GTK_BOX (row->cell), dropdown);
      gtk_box_append (GTK_BOX (row->cell), row->other_entry);
    }
  select_choice (row, option->default_value != NULL ? option->default_value : "");
  return dropdown;
}

static GtkWidget *
new_option_widget (OptionRow               *row,
                   PsCollector             *collector,
                   const PsCollectorOption *option)
{
  const char *value = option->default_value != NULL ? option->default_value : "";
  GtkWidget *widget = NULL;

  switch (option->type)
    {
    case PS_COLLECTOR_OPTION_BOOLEAN:
      widget = gtk_switch_new ();
      gtk_switch_set_active (GTK_SWITCH (widget), g_strcmp0 (value, "true") == 0);
      gtk_widget_set_halign (widget, GTK_ALIGN_START);
      break;

    case PS_COLLECTOR_OPTION_INT:
      widget = gtk_spin_button_new_with_range (0, G_MAXINT32, 1);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), g_ascii_strtod (value, NULL));
      break;

    case PS_COLLECTOR_OPTION_CHOICE:
    case PS_COLLECTOR_OPTION_OPEN_CHOICE:
      widget = new_choice_dropdown (row, collector, option);
      break;

    case PS_COLLECTOR_OPTION_PID:
      widget = new_process_dropdown (row);
      if (widget != NULL)
        break;
      G_GNUC_FALLTHROUGH;
    case PS_COLLECTOR_OPTION_STRING:
    case PS_COLLECTOR_OPTION_COMMAND:
    case PS_COLLECTOR_OPTION_HOST_PID:
    default:
      widget = gtk_entry_new ();
      gtk_editable_set_text (GTK_EDITABLE (widget), value);
      gtk_entry_set_activates_default (GTK_ENTRY (widget), TRUE);
      if (option->type == PS_COLLECTOR_OPTION_COMMAND)
        /* Translators: an example of a command to record, in the empty entry */
        gtk_entry_set_placeholder_text (GTK_ENTRY (widget), _("e.g. make -j2"));
      break;
    }

  gtk_widget_set_hexpand (widget, TRUE);
  if (row->cell == NULL)
    row->cell = widget;
  return widget;
}

static void
clear_options (PsRecordDialog *self)
{
  for (guint i = 0; i < self->row_widgets->len; i++)
    gtk_grid_remove (self->grid, g_ptr_array_index (self->row_widgets, i));
  g_ptr_array_set_size (self->row_widgets, 0);
  g_ptr_array_set_size (self->rows, 0);
}

static char *row_value (OptionRow *row);

/* What is recorded: not kept from one recording to the next */
static gboolean
is_target (PsCollectorOptionType type)
{
  return type == PS_COLLECTOR_OPTION_PID || type == PS_COLLECTOR_OPTION_HOST_PID
         || type == PS_COLLECTOR_OPTION_COMMAND;
}

/* The setting's key of a backend's option */
static char *
remembered_key (PsRecordDialog *self,
                const char     *key)
{
  return g_strdup_printf ("%s/%s", ps_collector_get_name (self->collector), key);
}

static void
restore_options (PsRecordDialog *self)
{
  g_autoptr(GVariant) remembered = NULL;

  if (self->settings == NULL)
    return;
  remembered = g_settings_get_value (self->settings, "record-options");
  for (guint i = 0; i < self->rows->len; i++)
    {
      OptionRow *row = g_ptr_array_index (self->rows, i);
      g_autofree char *key = remembered_key (self, row->key);
      const char *value = NULL;

      if (!is_target (row->type) && g_variant_lookup (remembered, key, "&s", &value))
        ps_record_dialog_set_option (self, row->key, value);
    }
}

/* The backend and its options for the next time, but what it recorded:
 * the process is gone by then, and a command kept would clash with the
 * process chosen next */
static void
remember_options (PsRecordDialog *self)
{
  g_autoptr(GVariant) old = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *key, *value;
  g_autofree char *prefix = NULL;

  if (self->settings == NULL)
    return;
  g_settings_set_string (self->settings, "record-backend", ps_collector_get_name (self->collector));

  prefix = g_strdup_printf ("%s/", ps_collector_get_name (self->collector));
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  old = g_settings_get_value (self->settings, "record-options");
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
    if (!g_str_has_prefix (key, prefix))
      g_variant_builder_add (&builder, "{ss}", key, value);
  for (guint i = 0; i < self->rows->len; i++)
    {
      OptionRow *row = g_ptr_array_index (self->rows, i);
      g_autofree char *setting_key = remembered_key (self, row->key);
      g_autofree char *row_text = NULL;

      if (is_target (row->type))
        continue;
      row_text = row_value (row);
      g_variant_builder_add (&builder, "{ss}", setting_key, row_text != NULL ? row_text : "");
    }
  g_settings_set_value (self->settings, "record-options", g_variant_builder_end (&builder));
}

static void
backend_changed_cb (PsRecordDialog *self)
{
  guint selected = gtk_drop_down_get_selected (self->backend_dropdown);
  const PsCollectorOption *options;
  g_autoptr(GError) error = NULL;
  guint n_options = 0;

  clear_options (self);
  show_error (self, NULL);
  g_clear_object (&self->collector);
  if (self->backends == NULL || selected >= g_strv_length (self->backends))
    return;

  /* The one made for the list; made again only to say why it failed */
  if (g_ptr_array_index (self->collectors, selected) != NULL)
    self->collector = g_object_ref (g_ptr_array_index (self->collectors, selected));
  else
    self->collector = ps_collectors_create (self->backends[selected], &error);
  if (self->collector == NULL)
    {
      show_error (self, error->message);
      gtk_widget_set_sensitive (GTK_WIDGET (self->record_button), FALSE);
      return;
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->record_button), g_ptr_array_index (self->unavailable, selected) == NULL);
  if (g_ptr_array_index (self->unavailable, selected) != NULL)
    {
      show_error (self, g_ptr_array_index (self->unavailable, selected));
      gtk_label_set_text (self->hint_label, _("This collector cannot record on this system."));
      return;
    }

  options = ps_collector_list_options (self->collector, &n_options);
  for (guint i = 0; i < n_options; i++)
    {
      OptionRow *row = g_new0 (OptionRow, 1);
      GtkWidget *label = gtk_label_new (_(options[i].label));

      row->key = g_strdup (options[i].key);
      row->type = options[i].type;
      row->widget = new_option_widget (row, self->collector, &options[i]);
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      /* Beside the first line of a cell of two */
      gtk_widget_set_valign (label, row->cell != row->widget ? GTK_ALIGN_START : GTK_ALIGN_FILL);
      if (row->cell != row->widget)
        gtk_widget_set_margin_top (label, 6);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), row->widget);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (row->widget),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
      if (row->other_entry != NULL)
        gtk_accessible_update_relation (GTK_ACCESSIBLE (row->other_entry),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
      gtk_grid_attach (self->grid, label, 0, (int)i + 1, 1, 1);
      gtk_grid_attach (self->grid, row->cell, 1, (int)i + 1, 1, 1);
      g_ptr_array_add (self->row_widgets, label);
      g_ptr_array_add (self->row_widgets, row->cell);
      g_ptr_array_add (self->rows, row);
    }

  if (g_strcmp0 (ps_collector_get_name (self->collector), PS_HOST_COLLECTOR_NAME) == 0)
    /* Its readings come from the host when it ends */
    gtk_label_set_text (self->hint_label,
                        _("perfscope-cli, installed on your system outside Flatpak, records the program there. "
                          "The run opens in a new tab; its charts are drawn when the recording stops."));
  else if (ps_collectors_in_flatpak () && g_strcmp0 (ps_collector_get_name (self->collector), "procfs") == 0)
    /* The sandbox has a process namespace of its own: /proc lists only
     * its processes, and a command launched runs inside it */
    gtk_label_set_text (self->hint_label,
                        _("Perfscope runs in a Flatpak sandbox: the process list and a command launched here reach "
                          "only the sandbox’s own processes. To record a program of your system, run "
                          "“perfscope-cli record --pid PID -o run.perfscope” from a Perfscope installed outside "
                          "Flatpak, then open the saved run here."));
  else
    gtk_label_set_text (self->hint_label,
                        n_options > 0 ? _("The run opens in a new tab and draws as it is recorded. Stop it there.")
                                      : _("This collector has no options."));
  restore_options (self);
}

/* The value of a row as the collector reads it; NULL for none */
static char *
row_value (OptionRow *row)
{
  if (GTK_IS_SWITCH (row->widget))
    return g_strdup (gtk_switch_get_active (GTK_SWITCH (row->widget)) ? "true" : "false");
  if (GTK_IS_SPIN_BUTTON (row->widget))
    return g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (row->widget)));
  if (row->values != NULL)
    {
      guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->widget));

      if (selected < g_strv_length (row->values))
        return g_strdup (row->values[selected]);
      return row->other_entry != NULL ? g_strdup (gtk_editable_get_text (GTK_EDITABLE (row->other_entry))) : NULL;
    }
  if (GTK_IS_DROP_DOWN (row->widget))
    {
      guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (row->widget));
      int pid = row->pids != NULL && selected < row->pids->len ? g_array_index (row->pids, int, selected) : -1;

      return pid > 0 ? g_strdup_printf ("%d", pid) : g_strdup ("");
    }
  return g_strdup (gtk_editable_get_text (GTK_EDITABLE (row->widget)));
}

/* What is recorded, for the tab: the process or command chosen, else the
 * backend alone */
static char *
describe_target (PsRecordDialog *self)
{
  /* The short name: the tab has little room */
  const char *backend = ps_collector_get_name (self->collector);

  for (guint i = 0; i < self->rows->len; i++)
    {
      OptionRow *row = g_ptr_array_index (self->rows, i);
      g_autofree char *value = row_value (row);
      g_autofree char *target = NULL;

      if (value == NULL || *value == '\0')
        continue;
      if (row->type == PS_COLLECTOR_OPTION_PID && GTK_IS_DROP_DOWN (row->widget))
        {
          GtkStringObject *item = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (row->widget));

          target = g_strdup (gtk_string_object_get_string (item));
        }
      else if (row->type == PS_COLLECTOR_OPTION_PID || row->type == PS_COLLECTOR_OPTION_HOST_PID)
        /* Translators: what a recording follows: a process by its id */
        target = g_strdup_printf (_("process %s"), value);
      else if (row->type == PS_COLLECTOR_OPTION_COMMAND)
        target = g_strdup (value);
      else
        continue;

      /* Translators: a recording's tab: the collector, then what it records */
      return g_strdup_printf (_("%s — %s"), backend, target);
    }

  return g_strdup (backend);
}

static void
set_starting (PsRecordDialog *self,
              gboolean        starting)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->record_button), !starting);
  gtk_widget_set_sensitive (GTK_WIDGET (self->grid), !starting);
  gtk_button_set_label (self->record_button, starting ? _("Starting…") : _("_Record"));
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(PsRecordDialog) self = user_data;
  PsCollector *collector = PS_COLLECTOR (object);
  g_autoptr(PsEventStore) store = g_steal_pointer (&self->store);
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;

  g_clear_object (&self->cancellable);
  if (!ps_collector_start_finish (collector, result, &error))
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      set_starting (self, FALSE);
      /* Translators: %s is why the collector could not start */
      message = g_strdup_printf (_("Cannot record: %s"), error->message);
      show_error (self, message);
      return;
    }
  if (collector != self->collector)
    return;

  title = describe_target (self);
  remember_options (self);
  g_signal_emit (self, signals[STARTED], 0, collector, store, title);
  /* The page that shows the run owns the collector now */
  g_clear_object (&self->collector);
  gtk_window_destroy (GTK_WINDOW (self));
}

void
ps_record_dialog_record (PsRecordDialog *self)
{
  g_autoptr(GHashTable) options = NULL;

  g_return_if_fail (PS_IS_RECORD_DIALOG (self));

  if (self->collector == NULL || self->cancellable != NULL)
    return;

  options = ps_collector_new_default_options (self->collector);
  for (guint i = 0; i < self->rows->len; i++)
    {
      OptionRow *row = g_ptr_array_index (self->rows, i);

      g_hash_table_insert (options, g_strdup (row->key), row_value (row));
    }

  show_error (self, NULL);
  set_starting (self, TRUE);
  self->store = ps_event_store_new ();
  self->cancellable = g_cancellable_new ();
  ps_collector_start_async (self->collector, self->store, options, self->cancellable,
                            start_cb, g_object_ref (self));
}

static void
record_clicked_cb (PsRecordDialog *self)
{
  ps_record_dialog_record (self);
}

static void
ps_record_dialog_dispose (GObject *object)
{
  PsRecordDialog *self = PS_RECORD_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->collector);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), PS_TYPE_RECORD_DIALOG);

  G_OBJECT_CLASS (ps_record_dialog_parent_class)->dispose (object);
}

static void
ps_record_dialog_finalize (GObject *object)
{
  PsRecordDialog *self = PS_RECORD_DIALOG (object);

  g_strfreev (self->backends);
  g_ptr_array_unref (self->collectors);
  g_ptr_array_unref (self->unavailable);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->row_widgets);
  g_free (self->error);

  G_OBJECT_CLASS (ps_record_dialog_parent_class)->finalize (object);
}

static void
ps_record_dialog_class_init (PsRecordDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ps_record_dialog_dispose;
  object_class->finalize = ps_record_dialog_finalize;

  /**
   * PsRecordDialog::started:
   * @collector: the collector, recording
   * @store: the store it records into
   * @title: what is recorded, for the tab
   */
  signals[STARTED] =
    g_signal_new ("started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, PS_TYPE_COLLECTOR, PS_TYPE_EVENT_STORE, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/perfscope/Perfscope/ui/ps-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PsRecordDialog, grid);
  gtk_widget_class_bind_template_child (widget_class, PsRecordDialog, backend_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PsRecordDialog, hint_label);
  gtk_widget_class_bind_template_child (widget_class, PsRecordDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, PsRecordDialog, record_button);
  gtk_widget_class_bind_template_callback (widget_class, record_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, backend_changed_cb);
}

/* Backends that can record first, the system's own at the top; then
 * the others, each in name order */
static int
backend_rank (const char *name,
              gboolean    available)
{
  return (available ? 0 : 2) + (g_strcmp0 (name, ps_collectors_get_default_name ()) == 0 ? 0 : 1);
}

static void
ps_record_dialog_init (PsRecordDialog *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_auto(GStrv) all_names = ps_collectors_list_names ();
  g_autoptr(GStrvBuilder) ordered = g_strv_builder_new ();
  g_autofree char *remembered = NULL;
  guint n_names = g_strv_length (all_names);
  g_autofree PsCollector **collectors = g_new0 (PsCollector *, n_names + 1);
  g_autofree char **reasons = g_new0 (char *, n_names + 1);
  guint selected = G_MAXUINT;

  self->rows = g_ptr_array_new_with_free_func (option_row_free);
  self->row_widgets = g_ptr_array_new ();
  self->collectors = g_ptr_array_new_with_free_func (collector_free);
  self->unavailable = g_ptr_array_new_with_free_func (g_free);
  self->settings = ps_view_settings_new_if_installed ();

  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < n_names; i++)
    {
      g_autoptr(GError) error = NULL;

      collectors[i] = ps_collectors_create (all_names[i], &error);
      if (collectors[i] != NULL)
        ps_collector_check_available (collectors[i], &error);
      reasons[i] = error != NULL ? g_strdup (error->message) : NULL;
    }

  for (int rank = 0; rank < 4; rank++)
    for (guint i = 0; i < n_names; i++)
      {
        if (backend_rank (all_names[i], reasons[i] == NULL) != rank)
          continue;
        g_strv_builder_add (ordered, all_names[i]);
        g_ptr_array_add (self->collectors, collectors[i]);
        g_ptr_array_add (self->unavailable, reasons[i]);
        if (reasons[i] == NULL)
          gtk_string_list_append (names, collectors[i] != NULL ? ps_collector_get_display_name (collectors[i])
                                                               : all_names[i]);
        else
          {
            /* Translators: a backend in the list that cannot record on this system */
            g_autofree char *label = g_strdup_printf (_("%s (not available here)"),
                                                      collectors[i] != NULL ? ps_collector_get_display_name (collectors[i])
                                                                            : all_names[i]);

            gtk_string_list_append (names, label);
          }
      }
  self->backends = g_strv_builder_end (ordered);

  /* The last one recorded with, if it can still record */
  if (self->settings != NULL)
    remembered = g_settings_get_string (self->settings, "record-backend");
  for (guint i = 0; self->backends[i] != NULL; i++)
    if (g_strcmp0 (self->backends[i], remembered) == 0 && g_ptr_array_index (self->unavailable, i) == NULL)
      selected = i;

  gtk_drop_down_set_model (self->backend_dropdown, G_LIST_MODEL (names));
  if (selected != G_MAXUINT && selected != gtk_drop_down_get_selected (self->backend_dropdown))
    gtk_drop_down_set_selected (self->backend_dropdown, selected);
  else
    backend_changed_cb (self);
}

GtkWidget *
ps_record_dialog_new (GtkWindow *parent)
{
  return g_object_new (PS_TYPE_RECORD_DIALOG, "transient-for", parent, NULL);
}

/* The row of a collector option key, or NULL */
static OptionRow *
find_row (PsRecordDialog *self,
          const char     *key)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      OptionRow *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (row->key, key) == 0)
        return row;
    }
  return NULL;
}

GtkWidget *
ps_record_dialog_get_option_widget (PsRecordDialog *self,
                                    const char     *key)
{
  OptionRow *row;

  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), NULL);
  row = find_row (self, key);
  return row != NULL ? row->widget : NULL;
}

gboolean
ps_record_dialog_select_backend (PsRecordDialog *self,
                                 const char     *name)
{
  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), FALSE);

  for (guint i = 0; self->backends[i] != NULL; i++)
    if (g_strcmp0 (self->backends[i], name) == 0)
      {
        gtk_drop_down_set_selected (self->backend_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

char *
ps_record_dialog_get_option_value (PsRecordDialog *self,
                                   const char     *key)
{
  OptionRow *row;

  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), NULL);
  row = find_row (self, key);
  return row != NULL ? row_value (row) : NULL;
}

GtkWidget *
ps_record_dialog_get_option_other_entry (PsRecordDialog *self,
                                         const char     *key)
{
  OptionRow *row;

  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), NULL);
  row = find_row (self, key);
  return row != NULL ? row->other_entry : NULL;
}

const char *
ps_record_dialog_get_error (PsRecordDialog *self)
{
  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), NULL);
  return self->error;
}

gboolean
ps_record_dialog_set_option (PsRecordDialog *self,
                             const char     *key,
                             const char     *value)
{
  OptionRow *row;

  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  row = find_row (self, key);
  if (row == NULL)
    return FALSE;
  if (GTK_IS_SWITCH (row->widget))
    gtk_switch_set_active (GTK_SWITCH (row->widget), g_strcmp0 (value, "true") == 0);
  else if (GTK_IS_SPIN_BUTTON (row->widget))
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (row->widget), g_ascii_strtod (value, NULL));
  else if (row->values != NULL)
    return select_choice (row, value);
  else if (GTK_IS_DROP_DOWN (row->widget))
    {
      int pid = *value != '\0' ? atoi (value) : -1;

      for (guint item = 0; row->pids != NULL && item < row->pids->len; item++)
        if (g_array_index (row->pids, int, item) == pid)
          {
            gtk_drop_down_set_selected (GTK_DROP_DOWN (row->widget), item);
            return TRUE;
          }
      return FALSE;
    }
  else
    gtk_editable_set_text (GTK_EDITABLE (row->widget), value);
  return TRUE;
}

const char *
ps_record_dialog_get_backend (PsRecordDialog *self)
{
  guint selected;

  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), NULL);
  selected = gtk_drop_down_get_selected (self->backend_dropdown);
  return self->backends != NULL && selected < g_strv_length (self->backends) ? self->backends[selected] : NULL;
}

gboolean
ps_record_dialog_can_record (PsRecordDialog *self)
{
  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), FALSE);
  return self->collector != NULL && gtk_widget_get_sensitive (GTK_WIDGET (self->record_button));
}

const char *
ps_record_dialog_get_hint (PsRecordDialog *self)
{
  g_return_val_if_fail (PS_IS_RECORD_DIALOG (self), NULL);
  return gtk_label_get_text (self->hint_label);
}

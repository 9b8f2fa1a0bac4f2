/* ps-application.c — the Perfscope AdwApplication
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Files given on the command line arrive through `open` and go to the same
 * ps_window_open_file() as the file dialog, drag and drop and Open Recent;
 * with --compare, the two files go to ps_window_open_pair() as two files
 * dropped at once do. When Perfscope is already running, the files
 * travel to that instance's `open`, and --compare with them as platform
 * data (PS_PLATFORM_COMPARE), so that it opens a comparison too; with
 * --trend (PS_PLATFORM_TREND), the files and folders go together to
 * ps_window_open_trend().
 * The symbol folder (--sysroot, or Choose Symbol Folder…) is the
 * application's: every run opened after it is set reads its symbols there,
 * and it is kept in the settings for the next launch; a --sysroot given to
 * a second launch travels to the running instance (PS_PLATFORM_SYSROOT).
 */
#include "config.h"

#include <stdlib.h>

#include <glib/gi18n.h>
#ifdef G_OS_UNIX
#include <unistd.h>
#endif

#include "ps-application.h"
#include "ps-collector.h"
#include "ps-preferences-window.h"
#include "ps-renderer-choice.h"
#include "ps-ready-clock.h"
#include "ps-view-util.h"
#include "ps-window.h"

struct _PsApplication
{
  AdwApplication parent_instance;

  GSettings     *settings;       /* NULL when the schema is not installed */
  char          *symbol_folder;
  GtkWidget     *preferences_window;  /* weak */
  gboolean       compare;        /* --compare: the files of `open` are A and B */
  gboolean       trend;          /* --trend: the files of `open` make one trend */
};

enum {
  PROP_0,
  PROP_SYMBOL_FOLDER,
  PROP_MAX_EVENTS,
  PROP_AUTOMATIC_MAX_EVENTS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PsApplication, ps_application, ADW_TYPE_APPLICATION)

/* The platform data keys that carry --compare and --sysroot to a running
 * instance */
#define PS_PLATFORM_COMPARE "perfscope-compare"
#define PS_PLATFORM_TREND "perfscope-trend"
#define PS_PLATFORM_SYSROOT "perfscope-sysroot"

static void save_symbol_folder (PsApplication *self,
                                const char    *folder);

static PsWindow *
get_or_create_window (PsApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (PS_IS_WINDOW (window))
    return PS_WINDOW (window);

  return ps_window_new (GTK_APPLICATION (self));
}

static void
ps_application_activate (GApplication *application)
{
  PsApplication *self = PS_APPLICATION (application);
  g_autoptr(GError) error = NULL;

  gtk_window_present (GTK_WINDOW (get_or_create_window (self)));
  if (self->trend)
    g_printerr (_("--trend needs files or folders of runs\n"));
  self->trend = FALSE;
  /* Without a file nothing becomes ready */
  if (ps_ready_clock_is_running ())
    {
      g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "--bench-exit-when-ready needs a file");
      ps_ready_clock_finish (error);
    }
}

static void
ps_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  PsApplication *self = PS_APPLICATION (application);
  PsWindow *window = get_or_create_window (self);

  if (self->trend)
    {
      self->trend = FALSE;
      self->compare = FALSE;
      ps_window_open_trend (window, files, (guint)n_files);
      gtk_window_present (GTK_WINDOW (window));
      return;
    }
  if (self->compare && n_files == 2)
    {
      self->compare = FALSE;
      ps_window_open_pair (window, files[0], files[1]);
      gtk_window_present (GTK_WINDOW (window));
      return;
    }
  if (self->compare)
    g_printerr (_("--compare needs two files, not %d: opening them one by one\n"), n_files);
  self->compare = FALSE;

  for (int i = 0; i < n_files; i++)
    ps_window_open_file (window, files[i]);

  gtk_window_present (GTK_WINDOW (window));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  PsApplication *self = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));
  gboolean all_closed = TRUE;

  /* Closing the windows lets every run page cancel its loader. A window
   * with recordings that were not saved asks first, and stays if the user
   * says so: then the application does too. */
  while (windows != NULL)
    {
      GtkWindow *window = windows->data;

      windows = windows->next;
      if (PS_IS_WINDOW (window) && ps_window_get_n_unsaved_recordings (PS_WINDOW (window)) > 0)
        {
          gtk_window_close (window);
          all_closed = FALSE;
          continue;
        }
      if (PS_IS_WINDOW (window))
        ps_window_save_state (PS_WINDOW (window));
      gtk_window_destroy (window);
    }

  if (all_closed)
    g_application_quit (G_APPLICATION (self));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  PsApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  static const char *developers[] = { "The Perfscope authors", NULL };

  adw_show_about_window (window,
                         "application-name", _("Perfscope"),
                         "application-icon", APP_ID,
                         "developer-name", _("The Perfscope authors"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Open, explore and compare performance logs"),
                         "website", "https://github.com/perfscope/perfscope",
                         "issue-url", "https://github.com/perfscope/perfscope/issues",
                         "copyright", _("© 2026 The Perfscope authors"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         /* Translators: put your names here, one a line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

/* One Preferences window at a time, over the active window */
static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PsApplication *self = user_data;

  if (self->preferences_window == NULL)
    {
      self->preferences_window = ps_preferences_window_new (GTK_APPLICATION (self), self->settings);
      g_object_add_weak_pointer (G_OBJECT (self->preferences_window),
                                 (gpointer *)&self->preferences_window);
    }
  else
    gtk_window_set_transient_for (GTK_WINDOW (self->preferences_window),
                                  gtk_application_get_active_window (GTK_APPLICATION (self)));
  gtk_window_present (GTK_WINDOW (self->preferences_window));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "about", .activate = about_action },
  { .name = "preferences", .activate = preferences_action },
};

/* The accelerators of the application's and the windows' actions; the
 * views bind their own keys (data/ui/ps-shortcuts-window.ui lists them
 * all) */
static const struct {
  const char *action;
  const char *accels[4];
} app_accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.close-tab", { "<Control>w", NULL } },
  { "win.save-as", { "<Control>s", "<Control><Shift>s", NULL } },
  { "win.record", { "<Control>r", NULL } },
  { "win.toggle-side-pane", { "F9", NULL } },
  { "win.find", { "<Control>f", NULL } },
  { "win.export-table", { "<Control><Shift>e", NULL } },
  { "win.zoom-in", { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
  { "win.zoom-out", { "<Control>minus", "<Control>KP_Subtract", NULL } },
  { "win.zoom-reset", { "<Control>0", "<Control>KP_0", NULL } },
  { "win.show-help-overlay", { "<Control>question", NULL } },
};

/* Without the schema (an uninstalled build run by hand) nothing is kept */
static GSettings *
settings_new_if_installed (void)
{
  GSettings *settings = ps_view_settings_new_if_installed ();

  if (settings == NULL)
    g_message ("The settings schema %s is not installed: settings will not be kept", APP_ID);
  return settings;
}

static void
ps_application_startup (GApplication *application)
{
  PsApplication *self = PS_APPLICATION (application);

  /* AdwApplication initialises libadwaita and loads style.css from the
   * resource base path */
  G_APPLICATION_CLASS (ps_application_parent_class)->startup (application);
  ps_display_choose_renderer (gdk_display_get_default (), g_getenv ("GSK_RENDERER"));

  /* The folder of --sysroot wins over the saved one, and is saved */
  self->settings = settings_new_if_installed ();
  if (self->settings != NULL && self->symbol_folder != NULL)
    save_symbol_folder (self, self->symbol_folder);
  else if (self->settings != NULL)
    {
      g_autofree char *saved = g_settings_get_string (self->settings, "symbol-folder");

      ps_application_set_symbol_folder (self, saved);
    }

  gtk_window_set_default_icon_name (APP_ID);

  /* Recording backends: a plugin that cannot be loaded costs a warning */
  ps_collectors_load (NULL);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (app_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), app_accels[i].action,
                                           app_accels[i].accels);
}

/* --version; --sysroot DIR: taken here, in the process that was started,
 * before the files given with it are opened */
static int
ps_application_handle_local_options (GApplication *application,
                                     GVariantDict *options)
{
  PsApplication *self = PS_APPLICATION (application);
  g_autofree char *folder = NULL;

  /* As every program does, without starting the application */
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("perfscope %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }
  if (g_variant_dict_lookup (options, "sysroot", "^ay", &folder) && folder[0] != '\0')
    {
      g_autofree char *absolute = g_canonicalize_filename (folder, NULL);

      ps_application_set_symbol_folder (self, absolute);
    }
  /* Taken by the process started with it: the primary instance when no
   * other is running, else sent to the running one with the files
   * (add_platform_data) */
  self->compare = g_variant_dict_contains (options, "compare");
  self->trend = g_variant_dict_contains (options, "trend");
  /* A developer option: this process opens the file itself, whatever
   * instance runs already, and reports when the run is ready */
  if (g_variant_dict_contains (options, "bench-exit-when-ready"))
    {
      g_application_set_flags (application, g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
      ps_ready_clock_start (application);
    }

  return -1;
}

/* In the process started, when another instance runs: --compare and
 * --sysroot go with the files it opens (the process never starts up, so
 * its symbol folder can only come from --sysroot) */
static void
ps_application_add_platform_data (GApplication    *application,
                                  GVariantBuilder *builder)
{
  PsApplication *self = PS_APPLICATION (application);

  G_APPLICATION_CLASS (ps_application_parent_class)->add_platform_data (application, builder);
  if (self->compare)
    g_variant_builder_add (builder, "{sv}", PS_PLATFORM_COMPARE, g_variant_new_boolean (TRUE));
  if (self->trend)
    g_variant_builder_add (builder, "{sv}", PS_PLATFORM_TREND, g_variant_new_boolean (TRUE));
  if (self->symbol_folder != NULL)
    g_variant_builder_add (builder, "{sv}", PS_PLATFORM_SYSROOT,
                           g_variant_new_bytestring (self->symbol_folder));
}

/* In the running instance, before `open`: whether that launch said
 * --compare, and the folder of its --sysroot, which the runs open and to
 * come then read their symbols from, as after Choose Symbol Folder… */
static void
ps_application_before_emit (GApplication *application,
                            GVariant     *platform_data)
{
  PsApplication *self = PS_APPLICATION (application);
  gboolean compare = FALSE;
  gboolean trend = FALSE;
  const char *folder = NULL;

  G_APPLICATION_CLASS (ps_application_parent_class)->before_emit (application, platform_data);
  if (g_variant_lookup (platform_data, PS_PLATFORM_COMPARE, "b", &compare))
    self->compare = compare;
  if (g_variant_lookup (platform_data, PS_PLATFORM_TREND, "b", &trend))
    self->trend = trend;
  if (g_variant_lookup (platform_data, PS_PLATFORM_SYSROOT, "^&ay", &folder) && folder[0] != '\0')
    ps_application_set_symbol_folder (self, folder);
}

static void
ps_application_finalize (GObject *object)
{
  PsApplication *self = PS_APPLICATION (object);

  if (self->preferences_window != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->preferences_window),
                                  (gpointer *)&self->preferences_window);
  g_clear_object (&self->settings);
  g_free (self->symbol_folder);

  G_OBJECT_CLASS (ps_application_parent_class)->finalize (object);
}

static void
ps_application_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PsApplication *self = PS_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_SYMBOL_FOLDER:
      g_value_set_string (value, self->symbol_folder);
      break;
    case PROP_MAX_EVENTS:
      g_value_set_uint64 (value, ps_application_get_max_events (self));
      break;
    case PROP_AUTOMATIC_MAX_EVENTS:
      g_value_set_uint64 (value, ps_application_get_automatic_max_events ());
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_application_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PsApplication *self = PS_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_SYMBOL_FOLDER:
      ps_application_set_symbol_folder (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ps_application_class_init (PsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = ps_application_finalize;
  object_class->get_property = ps_application_get_property;
  object_class->set_property = ps_application_set_property;

  app_class->activate = ps_application_activate;
  app_class->open = ps_application_open;
  app_class->startup = ps_application_startup;
  app_class->handle_local_options = ps_application_handle_local_options;
  app_class->add_platform_data = ps_application_add_platform_data;
  app_class->before_emit = ps_application_before_emit;

  /* The run pages and the preferences read these and follow the symbol
   * folder: they know the application only by its properties */
  properties[PROP_SYMBOL_FOLDER] =
    g_param_spec_string ("symbol-folder", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Read from the settings each time: not notified */
  properties[PROP_MAX_EVENTS] =
    g_param_spec_uint64 ("max-events", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_AUTOMATIC_MAX_EVENTS] =
    g_param_spec_uint64 ("automatic-max-events", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ps_application_init (PsApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "sysroot", 's',
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME,
                                 _("Read the symbols of sampled runs from DIR, a copy of the traced machine’s files"),
                                 /* Translators: the argument of --sysroot */
                                 _("DIR"));
  g_application_add_main_option (G_APPLICATION (self), "compare", 'c',
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Compare the two runs given, A then B, side by side"),
                                 NULL);
  g_application_add_main_option (G_APPLICATION (self), "trend", 't',
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Trend the runs given, files or folders: their change points across the runs"),
                                 NULL);
  g_application_add_main_option (G_APPLICATION (self), "version", 0,
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Show the version"), NULL);
  /* For bench/run-window-bench, not in --help (bench/README.md) */
  g_application_add_main_option (G_APPLICATION (self), "bench-exit-when-ready", 0,
                                 G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE,
                                 "Print when the run is ready, then quit", NULL);
}

PsApplication *
ps_application_new (const char        *application_id,
                    GApplicationFlags  flags)
{
  return g_object_new (PS_TYPE_APPLICATION,
                       "application-id", application_id,
                       "flags", flags,
                       "resource-base-path", "/io/github/perfscope/Perfscope",
                       NULL);
}

/* A folder chosen goes first among the known ones (the Preferences list) */
static void
remember_symbol_folder (PsApplication *self,
                        const char    *folder)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "symbol-folders");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) known = NULL;

  if (folders[0] != NULL && g_str_equal (folders[0], folder))
    return;
  g_strv_builder_add (builder, folder);
  for (guint i = 0; folders[i] != NULL; i++)
    if (!g_str_equal (folders[i], folder))
      g_strv_builder_add (builder, folders[i]);
  known = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "symbol-folders", (const char * const *)known);
}

/* The settings keep the folder for the next launch. They hold UTF-8
 * strings only: a folder whose path is not UTF-8 serves this session. */
static void
save_symbol_folder (PsApplication *self,
                    const char    *folder)
{
  if (self->settings == NULL || (folder != NULL && !g_utf8_validate (folder, -1, NULL)))
    return;
  g_settings_set_string (self->settings, "symbol-folder", folder != NULL ? folder : "");
  if (folder != NULL)
    remember_symbol_folder (self, folder);
}

#define EVENT_SIZE 32

guint64
ps_application_get_automatic_max_events (void)
{
  guint64 memory = 0;

#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  if (pages > 0 && page_size > 0)
    memory = (guint64) pages * (guint64) page_size;
#endif
  /* Without a figure, a computer of 8 GiB */
  if (memory == 0)
    memory = G_GUINT64_CONSTANT (8) << 30;
  return memory / 2 / EVENT_SIZE;
}

guint64
ps_application_get_max_events (PsApplication *self)
{
  guint millions = 0;

  g_return_val_if_fail (PS_IS_APPLICATION (self), 0);

  if (self->settings != NULL)
    millions = g_settings_get_uint (self->settings, "max-million-events");
  if (millions == 0)
    return ps_application_get_automatic_max_events ();
  return (guint64) millions * 1000000;
}

const char *
ps_application_get_symbol_folder (PsApplication *self)
{
  g_return_val_if_fail (PS_IS_APPLICATION (self), NULL);
  return self->symbol_folder;
}

void
ps_application_set_symbol_folder (PsApplication *self,
                                  const char    *folder)
{
  g_return_if_fail (PS_IS_APPLICATION (self));

  if (!ps_view_set_folder_setting (&self->symbol_folder, folder))
    return;
  save_symbol_folder (self, self->symbol_folder);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYMBOL_FOLDER]);
}

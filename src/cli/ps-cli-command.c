/* ps-cli-command.c — the command line of perfscope-cli, from its table of
 * commands
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md (Options, Exit status). Every command lists the options it
 * takes (PsCliCommand); the parser of a command knows those and no
 * others, the help is written from the same lists, and an option that
 * another command takes is refused with the names of the commands that
 * do. Options may come before or after the command, so the command is
 * found first: the first argument that is neither an option nor an
 * option's value.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ps-cli.h"

static const PsCliOption help_option = {
  .long_name = "help", .short_name = 'h', .offset = G_STRUCT_OFFSET (PsCliOptions, help),
  .description = N_("Show this help"),
};

static const PsCliOption version_option = {
  .long_name = "version", .offset = G_STRUCT_OFFSET (PsCliOptions, version),
  .description = N_("Show the version"),
};

/* The options of every command, on top of the command's own */
static const PsCliOption * const every_command_options[] = {
  &help_option,
  &version_option,
  NULL,
};

static gboolean
option_has_name (const PsCliOption *option,
                 const char        *long_name,
                 char               short_name)
{
  if (long_name != NULL)
    return strcmp (option->long_name, long_name) == 0;
  return short_name != 0 && option->short_name == short_name;
}

/* The option of the list by its long name or, when long_name is NULL, its
 * letter */
static const PsCliOption *
find_option (const PsCliOption * const *options,
             const char                *long_name,
             char                       short_name)
{
  for (guint i = 0; options[i] != NULL; i++)
    if (option_has_name (options[i], long_name, short_name))
      return options[i];
  return NULL;
}

static const PsCliOption *
find_command_option (const PsCliCommand *command,
                     const char         *long_name,
                     char                short_name)
{
  const PsCliOption *option = find_option (every_command_options, long_name, short_name);

  return option != NULL ? option : find_option (command->options, long_name, short_name);
}

/* The option of that name of any command: options of one name take a
 * value with every command or with none */
static const PsCliOption *
find_any_option (const PsCliCommand * const *commands,
                 const char                 *long_name,
                 char                        short_name)
{
  for (guint i = 0; commands[i] != NULL; i++)
    {
      const PsCliOption *option = find_command_option (commands[i], long_name, short_name);

      if (option != NULL)
        return option;
    }
  return NULL;
}

static const PsCliCommand *
find_command (const PsCliCommand * const *commands,
              const char                 *name)
{
  for (guint i = 0; commands[i] != NULL; i++)
    if (strcmp (commands[i]->name, name) == 0)
      return commands[i];
  return NULL;
}

/* An option as the command line names it: the long name, or the letter */
typedef struct
{
  char *long_name;
  char  short_name;
} NamedOption;

static void
named_option_clear (NamedOption *named)
{
  g_free (named->long_name);
}

/* The first argument that is neither an option nor an option's value, or
 * NULL; every option before "--" is added to named */
static const char *
scan_command_line (const PsCliCommand * const *commands,
                   int                         argc,
                   char                      **argv,
                   GArray                     *named)
{
  const char *command_name = NULL;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0)
        {
          if (command_name == NULL && i + 1 < argc)
            command_name = argv[i + 1];
          break;
        }
      if (arg[0] != '-' || arg[1] == '\0')
        {
          if (command_name == NULL)
            command_name = arg;
          continue;
        }

      if (arg[1] == '-')
        {
          const char *equals = strchr (arg, '=');
          NamedOption option = { g_strndup (arg + 2, equals != NULL ? (gsize) (equals - arg - 2) : strlen (arg + 2)), 0 };
          const PsCliOption *known = find_any_option (commands, option.long_name, 0);

          g_array_append_val (named, option);
          if (known != NULL && known->value_name != NULL && equals == NULL)
            i++;
        }
      else
        {
          /* "-qo FILE": each letter an option, the values in the arguments after */
          int values = 0;

          for (const char *letter = arg + 1; *letter != '\0'; letter++)
            {
              NamedOption option = { NULL, *letter };
              const PsCliOption *known = find_any_option (commands, NULL, *letter);

              g_array_append_val (named, option);
              values += known != NULL && known->value_name != NULL;
            }
          i += values;
        }
    }

  return command_name;
}

/* "a", "a and b", "a, b and c" */
static char *
join_names (GPtrArray *names)
{
  g_autofree char *joined = NULL;

  if (names->len == 0)
    return g_strdup ("");
  joined = g_strdup (g_ptr_array_index (names, 0));
  for (guint i = 1; i < names->len; i++)
    {
      char *longer;

      if (i + 1 < names->len)
        /* Translators: the start of a list and its next item: "info, stats" */
        longer = g_strdup_printf (_("%s, %s"), joined, (const char *) g_ptr_array_index (names, i));
      else
        /* Translators: the start of a list and its last item: "info, stats and calltree" */
        longer = g_strdup_printf (_("%s and %s"), joined, (const char *) g_ptr_array_index (names, i));
      g_free (joined);
      joined = longer;
    }
  return g_steal_pointer (&joined);
}

/* NULL when the command takes every option named, else the usage error
 * for the first that it does not take but another command does (an
 * option no command knows is the option parser's to refuse) */
static char *
check_options_taken (const PsCliCommand * const *commands,
                     const PsCliCommand         *command,
                     GArray                     *named)
{
  for (guint i = 0; i < named->len; i++)
    {
      const NamedOption *option = &g_array_index (named, NamedOption, i);
      g_autoptr(GPtrArray) takers = NULL;
      g_autofree char *option_text = NULL;
      g_autofree char *names = NULL;

      if (find_command_option (command, option->long_name, option->short_name) != NULL)
        continue;

      takers = g_ptr_array_new ();
      for (guint j = 0; commands[j] != NULL; j++)
        if (find_option (commands[j]->options, option->long_name, option->short_name) != NULL)
          g_ptr_array_add (takers, (gpointer) commands[j]->name);
      if (takers->len == 0)
        continue;

      option_text = option->long_name != NULL ? g_strconcat ("--", option->long_name, NULL)
                                              : g_strdup_printf ("-%c", option->short_name);
      names = join_names (takers);
      /* Translators: the first %s is an option, the second one command name or a list of them */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s applies to the %s command only",
                                           "%s applies to the %s commands only", takers->len),
                              option_text, names);
    }

  return NULL;
}

/* Parsing ------------------------------------------------------------------ */

typedef struct
{
  PsCliOptions       *options;
  const PsCliCommand *command;
} ParseData;

static gboolean
parse_value (const char *option_name,
             const char *value,
             gpointer    user_data,
             GError    **error)
{
  ParseData *data = user_data;
  const PsCliOption *option;

  /* option_name is "--name" or "-n" */
  if (option_name[1] == '-')
    option = find_command_option (data->command, option_name + 2, 0);
  else
    option = find_command_option (data->command, NULL, option_name[1]);
  g_return_val_if_fail (option != NULL && option->value_name != NULL, FALSE);

  if (option->parse != NULL)
    return option->parse (data->options, value, error);
  ps_cli_set_string ((char **) ((guint8 *) data->options + option->offset), value);
  return TRUE;
}

static void
add_entries (GArray                    *entries,
             const PsCliOption * const *options,
             PsCliOptions              *values)
{
  for (guint i = 0; options[i] != NULL; i++)
    {
      const PsCliOption *option = options[i];
      GOptionEntry entry = {
        .long_name = option->long_name,
        .short_name = option->short_name,
        .flags = option->filename ? G_OPTION_FLAG_FILENAME : 0,
      };

      if (option->value_name != NULL)
        {
          entry.arg = G_OPTION_ARG_CALLBACK;
          entry.arg_data = (gpointer) parse_value;
        }
      else
        {
          entry.arg = G_OPTION_ARG_NONE;
          entry.arg_data = (guint8 *) values + option->offset;
        }
      g_array_append_val (entries, entry);
    }
}

/* Parses the command line for command (or, when it is NULL, for --help
 * and --version alone) into options and *arguments (the command and its
 * FILEs) */
static gboolean
parse_command_line (const PsCliCommand *command,
                    int                *argc,
                    char             ***argv,
                    PsCliOptions       *options,
                    char             ***arguments,
                    GError            **error)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  ParseData data = { options, command };
  GOptionEntry remaining = {
    .long_name = G_OPTION_REMAINING, .arg = G_OPTION_ARG_FILENAME_ARRAY, .arg_data = arguments,
  };
  GOptionGroup *group;

  add_entries (entries, every_command_options, options);
  if (command != NULL)
    add_entries (entries, command->options, options);
  else
    /* Without a command only --help and --version are looked at */
    g_option_context_set_ignore_unknown_options (context, TRUE);
  g_array_append_val (entries, remaining);

  group = g_option_group_new (NULL, NULL, NULL, &data, NULL);
  g_option_group_add_entries (group, (const GOptionEntry *) entries->data);
  g_option_context_set_main_group (context, group);
  /* The help comes from the table (print_help ()) */
  g_option_context_set_help_enabled (context, FALSE);

  return g_option_context_parse (context, argc, argv, error);
}

/* Help --------------------------------------------------------------------- */

/* The help reads as GLib's option help did: its "Usage:" and "[OPTION…]"
 * come in GLib's own translations */

/* "  -o, --output=FILE" */
static char *
option_label (const PsCliOption *option)
{
  GString *label = g_string_new ("  ");

  if (option->short_name != 0)
    g_string_append_printf (label, "-%c, ", option->short_name);
  g_string_append_printf (label, "--%s", option->long_name);
  if (option->value_name != NULL)
    g_string_append_printf (label, "=%s", _(option->value_name));
  return g_string_free (label, FALSE);
}

/* "  info FILE…" */
static char *
command_label (const PsCliCommand *command)
{
  if (command->files == NULL)
    return g_strconcat ("  ", command->name, NULL);
  return g_strconcat ("  ", command->name, " ", command->files, NULL);
}

/* Lines of a label and a text, the texts lined up after the widest label */
typedef struct
{
  GPtrArray *labels;
  GPtrArray *texts;   /* translated, not owned */
} HelpLines;

static void
help_lines_init (HelpLines *lines)
{
  lines->labels = g_ptr_array_new_with_free_func (g_free);
  lines->texts = g_ptr_array_new ();
}

static void
help_lines_clear (HelpLines *lines)
{
  g_ptr_array_unref (lines->labels);
  g_ptr_array_unref (lines->texts);
}

static void
help_lines_add (HelpLines  *lines,
                char       *label,
                const char *text)
{
  g_ptr_array_add (lines->labels, label);
  g_ptr_array_add (lines->texts, (gpointer) text);
}

static void
help_lines_add_options (HelpLines                 *lines,
                        const PsCliOption * const *options)
{
  for (guint i = 0; options[i] != NULL; i++)
    help_lines_add (lines, option_label (options[i]), _(options[i]->description));
}

static void
help_lines_print (HelpLines *lines,
                  GString   *out,
                  glong      width)
{
  for (guint i = 0; i < lines->labels->len; i++)
    {
      const char *label = g_ptr_array_index (lines->labels, i);

      g_string_append (out, label);
      for (glong pad = g_utf8_strlen (label, -1); pad < width; pad++)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (lines->texts, i));
    }
}

static glong
help_lines_width (HelpLines *lines,
                  glong      width)
{
  for (guint i = 0; i < lines->labels->len; i++)
    width = MAX (width, g_utf8_strlen (g_ptr_array_index (lines->labels, i), -1) + 2);
  return width;
}

static void
print_command_help (const PsCliCommand *command)
{
  g_autoptr(GString) out = g_string_new (NULL);
  HelpLines own, every;
  glong width;

  help_lines_init (&own);
  help_lines_init (&every);
  help_lines_add_options (&own, command->options);
  help_lines_add_options (&every, every_command_options);
  width = help_lines_width (&every, help_lines_width (&own, 0));

  g_string_append_printf (out, "%s\n  %s %s %s%s%s\n\n%s\n\n",
                          g_dgettext ("glib20", "Usage:"), PS_CLI_PROGRAM, g_dgettext ("glib20", "[OPTION…]"),
                          command->name, command->files != NULL ? " " : "",
                          command->files != NULL ? command->files : "", _(command->summary));
  if (own.labels->len > 0)
    {
      /* Translators: %s is a command name */
      g_string_append_printf (out, _("Options of %s:"), command->name);
      g_string_append_c (out, '\n');
      help_lines_print (&own, out, width);
      g_string_append_c (out, '\n');
    }
  g_string_append_printf (out, "%s\n", _("Options of every command:"));
  help_lines_print (&every, out, width);
  fputs (out->str, stdout);

  help_lines_clear (&own);
  help_lines_clear (&every);
}

/* The options of the program's help, each under the commands that take
 * it: the options several commands share come once */
typedef struct
{
  GPtrArray *takers;   /* the command names */
  HelpLines  lines;
} OptionSection;

static void
option_section_free (gpointer data)
{
  OptionSection *section = data;

  g_ptr_array_unref (section->takers);
  help_lines_clear (&section->lines);
  g_free (section);
}

static gboolean
same_names (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (g_ptr_array_index (a, i) != g_ptr_array_index (b, i))
      return FALSE;
  return TRUE;
}

static GPtrArray *
option_sections (const PsCliCommand * const *commands)
{
  GPtrArray *sections = g_ptr_array_new_with_free_func (option_section_free);
  g_autoptr(GHashTable) listed = g_hash_table_new (NULL, NULL);

  for (guint i = 0; commands[i] != NULL; i++)
    for (guint j = 0; commands[i]->options[j] != NULL; j++)
      {
        const PsCliOption *option = commands[i]->options[j];
        g_autoptr(GPtrArray) takers = g_ptr_array_new ();
        OptionSection *section = NULL;

        if (!g_hash_table_add (listed, (gpointer) option))
          continue;
        for (guint k = 0; commands[k] != NULL; k++)
          for (guint l = 0; commands[k]->options[l] != NULL; l++)
            if (commands[k]->options[l] == option)
              g_ptr_array_add (takers, (gpointer) commands[k]->name);

        for (guint k = 0; k < sections->len && section == NULL; k++)
          if (same_names (((OptionSection *) g_ptr_array_index (sections, k))->takers, takers))
            section = g_ptr_array_index (sections, k);
        if (section == NULL)
          {
            section = g_new0 (OptionSection, 1);
            section->takers = g_steal_pointer (&takers);
            help_lines_init (&section->lines);
            g_ptr_array_add (sections, section);
          }
        help_lines_add (&section->lines, option_label (option), _(option->description));
      }

  return sections;
}

static void
print_program_help (const PsCliCommand * const *commands)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) sections = option_sections (commands);
  HelpLines command_lines, every;
  glong width;

  help_lines_init (&command_lines);
  help_lines_init (&every);
  for (guint i = 0; commands[i] != NULL; i++)
    help_lines_add (&command_lines, command_label (commands[i]), _(commands[i]->summary));
  help_lines_add_options (&every, every_command_options);
  width = help_lines_width (&every, help_lines_width (&command_lines, 0));
  for (guint i = 0; i < sections->len; i++)
    width = help_lines_width (&((OptionSection *) g_ptr_array_index (sections, i))->lines, width);

  g_string_append_printf (out, "%s\n  %s %s %s\n\n%s\n\n%s\n",
                          g_dgettext ("glib20", "Usage:"), PS_CLI_PROGRAM, g_dgettext ("glib20", "[OPTION…]"),
                          _("COMMAND [FILE…]"),
                          _("Inspect performance logs without a display."), _("Commands:"));
  help_lines_print (&command_lines, out, width);
  g_string_append_printf (out, "\n%s\n\n%s\n", _("“perfscope-cli COMMAND --help” shows the options of a command."),
                          _("Options of every command:"));
  help_lines_print (&every, out, width);
  for (guint i = 0; i < sections->len; i++)
    {
      OptionSection *section = g_ptr_array_index (sections, i);
      g_autofree char *names = join_names (section->takers);

      g_string_append_c (out, '\n');
      /* Translators: %s is a command name or a list of them */
      g_string_append_printf (out, _("Options of %s:"), names);
      g_string_append_c (out, '\n');
      help_lines_print (&section->lines, out, width);
    }
  g_string_append_printf (out, "\n%s\n",
                          _("Exit status: 0 success (warnings allowed), 1 the file could not be read or is not "
                            "a known format, 2 bad usage, 3 the file was read only in part, 4 trend: the newest "
                            "run is after a regression larger than --fail-on-regression."));
  fputs (out->str, stdout);

  help_lines_clear (&command_lines);
  help_lines_clear (&every);
}

/* The program ------------------------------------------------------------- */

static int
run_command (const PsCliCommand * const *commands,
             int                         argc,
             char                      **argv,
             PsCliOptions               *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) named = g_array_new (FALSE, FALSE, sizeof (NamedOption));
  g_auto(GStrv) arguments = NULL;
  g_autofree char *not_taken = NULL;
  const PsCliCommand *command = NULL;
  const char *command_name;
  guint n_files, n_stdin = 0;

  g_array_set_clear_func (named, (GDestroyNotify) named_option_clear);
  command_name = scan_command_line (commands, argc, argv, named);
  if (command_name != NULL)
    {
      command = find_command (commands, command_name);
      if (command == NULL)
        return ps_cli_usage_error (_("Unknown command “%s”"), command_name);
      not_taken = check_options_taken (commands, command, named);
      if (not_taken != NULL)
        return ps_cli_usage_error ("%s", not_taken);
    }

  if (!parse_command_line (command, &argc, &argv, options, &arguments, &error))
    return ps_cli_usage_error ("%s", error->message);

  if (options->help)
    {
      if (command != NULL)
        print_command_help (command);
      else
        print_program_help (commands);
      return PS_CLI_EXIT_OK;
    }
  if (options->version)
    {
      printf ("%s %s\n", PS_CLI_PROGRAM, PACKAGE_VERSION);
      return PS_CLI_EXIT_OK;
    }
  if (command == NULL)
    return ps_cli_usage_error (_("No command given"));

  if (options->json && options->text)
    return ps_cli_usage_error (_("--json and --text cannot be used together"));

  /* arguments[0] is the command */
  n_files = g_strv_length (arguments) - 1;
  if (n_files < command->min_files || n_files > command->max_files)
    return ps_cli_usage_error ("%s", _(command->files_error));

  /* The standard input can be read once */
  for (guint i = 1; i <= n_files; i++)
    n_stdin += strcmp (arguments[i], "-") == 0;
  if (n_stdin > 1)
    return ps_cli_usage_error (_("Only one FILE can be “-”, the standard input"));

  return command->run (options, arguments + 1);
}

int
ps_cli_command_main (const PsCliCommand * const *commands,
                     int                         argc,
                     char                      **argv)
{
  PsCliOptions options = {
    .thread = -1,
    .min_change = NAN,
    .noise_fraction = NAN,
    .session_a = -1,
    .session_b = -1,
    .fail_on_regression = NAN,
  };
  int status = run_command (commands, argc, argv, &options);

  ps_cli_options_clear (&options);
  return status;
}

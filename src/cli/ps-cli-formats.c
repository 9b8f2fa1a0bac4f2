/* ps-cli-formats.c — perfscope-cli formats: the registered formats
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ps-cli.h"

static void
add_string_array (JsonBuilder        *builder,
                  const char         *name,
                  const char * const *strings)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; strings != NULL && strings[i] != NULL; i++)
    json_builder_add_string_value (builder, strings[i]);
  json_builder_end_array (builder);
}

static int
run_formats (const PsCliOptions  *options,
             char               **files G_GNUC_UNUSED)
{
  guint n_formats;
  const PsFormat * const *formats = ps_format_list (&n_formats);

  if (options->text)
    {
      g_autoptr(PsCliTable) table = ps_cli_table_new (4);

      ps_cli_table_add_row (table, _("Name"), _("Display name"), _("Extensions"), _("Description"), NULL);
      for (guint i = 0; i < n_formats; i++)
        {
          const PsFormat *format = formats[i];

          ps_cli_table_add_row_take (table,
                                     g_strdup (format->name),
                                     g_strdup (_(format->display_name)),
                                     format->extensions != NULL
                                       ? g_strjoinv (", ", (char **)format->extensions)
                                       : g_strdup (""),
                                     g_strdup (_(format->description)),
                                     NULL);
        }
      ps_cli_table_print (table, stdout, "");
    }
  else
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (builder);
      for (guint i = 0; i < n_formats; i++)
        {
          const PsFormat *format = formats[i];

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, format->name);
          json_builder_set_member_name (builder, "display_name");
          json_builder_add_string_value (builder, _(format->display_name));
          json_builder_set_member_name (builder, "description");
          json_builder_add_string_value (builder, _(format->description));
          add_string_array (builder, "extensions", format->extensions);
          add_string_array (builder, "mime_types", format->mime_types);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);

      root = json_builder_get_root (builder);
      ps_cli_json_print (root);
    }

  return PS_CLI_EXIT_OK;
}

static const PsCliOption * const formats_options[] = {
  PS_CLI_PRINT_OPTIONS,
  NULL,
};

const PsCliCommand ps_cli_formats_command = {
  .name = "formats",
  .summary = N_("the registered formats"),
  .files_error = N_("formats takes no FILE"),
  .min_files = 0,
  .max_files = 0,
  .options = formats_options,
  .run = run_formats,
};

/* perfscope-cli.c — the headless front end of the Perfscope engine
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: cli.md. Command names, exit codes and JSON field names are a
 * contract with scripts, tests and benchmarks. Each command, with the
 * options it takes, is defined in its own file; ps-cli-command.c reads
 * the command line from this table.
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "ps-cli.h"
#include "ps-util.h"

/* In the order of the help */
static const PsCliCommand * const commands[] = {
  &ps_cli_info_command,
  &ps_cli_stats_command,
  &ps_cli_calltree_command,
  &ps_cli_counters_command,
  &ps_cli_diff_command,
  &ps_cli_export_command,
  &ps_cli_summarize_command,
  &ps_cli_trend_command,
  &ps_cli_formats_command,
  &ps_cli_record_command,
  NULL,
};

int
main (int   argc,
      char *argv[])
{
  ps_util_tune_allocator (PS_UTIL_OWN_MAPPING_MIN_HEADLESS);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, ps_util_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname (PS_CLI_PROGRAM);

  return ps_cli_command_main (commands, argc, argv);
}

/* main.c — the perfscope program
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "ps-application.h"
#include "ps-util.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PsApplication) app = NULL;

  ps_util_tune_allocator (PS_UTIL_OWN_MAPPING_MIN_WINDOW);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, ps_util_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Perfscope"));

  app = ps_application_new (APP_ID, G_APPLICATION_HANDLES_OPEN);

  return g_application_run (G_APPLICATION (app), argc, argv);
}

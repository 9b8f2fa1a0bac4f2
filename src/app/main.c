/* main.c — the perfscope program
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "ps-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PsApplication) app = NULL;
  /* meson devenv points this at the translations compiled in the build
   * tree, so that the program run from there speaks as installed */
  const char *localedir = g_getenv ("PERFSCOPE_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Perfscope"));

  app = ps_application_new (APP_ID, G_APPLICATION_HANDLES_OPEN);

  return g_application_run (G_APPLICATION (app), argc, argv);
}

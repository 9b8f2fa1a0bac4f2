/* ps-renderer-choice.c — drawing with cairo where OpenGL runs on the CPU
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <epoxy/gl.h>
#include <string.h>

#include "ps-renderer-choice.h"

char *
ps_display_get_gl_renderer (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  const char *name;
  char *renderer = NULL;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);

  if (!gdk_display_prepare_gl (display, NULL))
    return NULL;
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return NULL;
  gdk_gl_context_make_current (context);
  name = (const char *) glGetString (GL_RENDERER);
  if (name != NULL)
    renderer = g_strdup (name);
  gdk_gl_context_clear_current ();
  return renderer;
}

gboolean
ps_gl_renderer_is_software (const char *renderer)
{
  /* Mesa's: llvmpipe (LLVM JIT), softpipe, and the classic swrast */
  static const char *const software[] = { "llvmpipe", "softpipe", "Software Rasterizer" };

  if (renderer == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (renderer, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

gboolean
ps_display_choose_renderer (GdkDisplay *display,
                            const char *chosen)
{
  g_autofree char *renderer = NULL;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), FALSE);

  if (chosen != NULL && chosen[0] != '\0')
    return FALSE;
  renderer = ps_display_get_gl_renderer (display);
  if (!ps_gl_renderer_is_software (renderer))
    return FALSE;
  /* GTK looks at this before GSK_RENDERER when it makes a window's
   * renderer (gsk_renderer_new_for_surface (), since GTK 4.0); GTK's
   * inspector sets it the same way for its own display */
  g_object_set_data (G_OBJECT (display), "gsk-renderer", (gpointer) "cairo");
  g_debug ("OpenGL is %s, on the CPU: drawing with cairo", renderer);
  return TRUE;
}

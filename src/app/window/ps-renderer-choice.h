/* ps-renderer-choice.h — drawing with cairo where OpenGL runs on the CPU
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK draws a window with OpenGL where the display has it, even when
 * Mesa emulates it on the CPU (llvmpipe: a virtual machine, a remote
 * desktop, Xvfb). Perfscope's charts are cairo drawings already; under a
 * software OpenGL each frame is drawn by cairo, uploaded and composited
 * again on the CPU, and the first frames compile GTK's shaders on the
 * window's thread. On logs of 256 MiB that cost the window 0.1–0.6 s,
 * 65–95 MiB, and 230–320 ms of its thread's work without a break
 * (bench/README.md). So there Perfscope asks GTK for its cairo renderer,
 * unless the person chose a renderer with GSK_RENDERER.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The display's OpenGL renderer as its driver names it ("llvmpipe (LLVM
 * 15.0.6, 256 bits)"), or NULL when the display has no OpenGL */
char     *ps_display_get_gl_renderer  (GdkDisplay *display);
/* Whether a GL_RENDERER string names a rasteriser that runs on the CPU */
gboolean  ps_gl_renderer_is_software  (const char *renderer);
/* Asks GTK to draw the display's windows realized from now on with cairo
 * when its OpenGL runs on the CPU and chosen (GSK_RENDERER's value) is
 * NULL or empty; returns whether it did */
gboolean  ps_display_choose_renderer  (GdkDisplay *display,
                                       const char *chosen);

G_END_DECLS

/* ps-prefault.h — memory made ready for filling on another thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A store filled by a parser asks for a fresh block of a few hundred
 * kilobytes again and again. The first write to each page of it costs a
 * page fault and the kernel clearing the page, which on a large log is as
 * much work as the appends themselves and sits on the thread that does
 * them. A PsPrefault keeps a few blocks of each size it was asked for
 * faulted in ahead, on a thread of its own, so that the filling thread
 * finds them ready. The thread ends, and gives back its spare blocks, once
 * nothing was asked of it for a moment.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PsPrefault PsPrefault;

PsPrefault *ps_prefault_new     (void);
/* Stops the thread; spare blocks are freed */
void        ps_prefault_free    (PsPrefault *self);
/* A block of size bytes (g_free() it), its pages faulted in: a ready one
 * if there is one, else one made now; blocks of that size are then made
 * ahead. */
gpointer    ps_prefault_take    (PsPrefault *self,
                                 gsize       size);
/* Memory of size bytes with its pages faulted in, made on this thread */
gpointer    ps_prefault_alloc   (gsize       size);

G_END_DECLS

/* ps-prefault.c — memory made ready for filling on another thread
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* For MADV_POPULATE_WRITE, which is not POSIX */
#define _DEFAULT_SOURCE

#include "config.h"

#include "ps-prefault.h"

#if defined (__linux__)
#include <sys/mman.h>
#endif

/* Sizes served ahead, and blocks of each kept ready: a store fills one
 * array at a time, a few kinds of them at most */
#define N_SIZES  4
#define N_AHEAD  2

/* The thread ends after this long without a request */
#define IDLE_US  (250 * G_TIME_SPAN_MILLISECOND)

typedef struct
{
  gsize    size;
  gpointer ready[N_AHEAD];
  guint    n_ready;
} SizeClass;

struct _PsPrefault
{
  GMutex    lock;
  GCond     cond;
  GThread  *thread;
  gboolean  running;   /* the thread has not decided to end */
  gboolean  quit;
  gboolean  asked;     /* a block was taken since the thread last waited */
  SizeClass sizes[N_SIZES];
  guint     n_sizes;
};

gpointer
ps_prefault_alloc (gsize size)
{
  gpointer memory = g_malloc (size);

#if defined (__linux__) && defined (MADV_POPULATE_WRITE)
  {
    const guintptr page = 4096;
    guintptr start = ((guintptr) memory + page - 1) & ~(page - 1);
    guintptr end = ((guintptr) memory + size) & ~(page - 1);

    /* Fails harmlessly on kernels before 5.14: the pages then fault in
     * when they are first written */
    if (end > start)
      madvise ((gpointer) start, end - start, MADV_POPULATE_WRITE);
  }
#endif

  return memory;
}

/* With the lock held: a size that has fewer blocks ready than it should */
static SizeClass *
find_short (PsPrefault *self)
{
  for (guint i = 0; i < self->n_sizes; i++)
    if (self->sizes[i].n_ready < N_AHEAD)
      return &self->sizes[i];
  return NULL;
}

static void
free_ready (PsPrefault *self)
{
  for (guint i = 0; i < self->n_sizes; i++)
    {
      SizeClass *class = &self->sizes[i];

      while (class->n_ready > 0)
        g_free (class->ready[--class->n_ready]);
    }
}

static gpointer
prefault_thread (gpointer data)
{
  PsPrefault *self = data;

  g_mutex_lock (&self->lock);
  while (!self->quit)
    {
      SizeClass *class = find_short (self);

      if (class != NULL)
        {
          gsize size = class->size;
          gpointer memory;

          g_mutex_unlock (&self->lock);
          memory = ps_prefault_alloc (size);
          g_mutex_lock (&self->lock);
          /* Classes are only ever added, so class still stands for size */
          if (class->n_ready < N_AHEAD && !self->quit)
            class->ready[class->n_ready++] = memory;
          else
            g_free (memory);
          continue;
        }

      /* Everything ready: wait for a request, or end when none comes */
      {
        gint64 end_time = g_get_monotonic_time () + IDLE_US;

        self->asked = FALSE;
        while (!self->quit && !self->asked)
          if (!g_cond_wait_until (&self->cond, &self->lock, end_time))
            break;
        if (!self->asked)
          break;
      }
    }

  free_ready (self);
  self->running = FALSE;
  g_mutex_unlock (&self->lock);

  return NULL;
}

PsPrefault *
ps_prefault_new (void)
{
  PsPrefault *self = g_new0 (PsPrefault, 1);

  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);

  return self;
}

void
ps_prefault_free (PsPrefault *self)
{
  if (self == NULL)
    return;

  g_mutex_lock (&self->lock);
  self->quit = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  if (self->thread != NULL)
    g_thread_join (self->thread);

  free_ready (self);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

gpointer
ps_prefault_take (PsPrefault *self,
                  gsize       size)
{
  SizeClass *class = NULL;
  gpointer memory = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->n_sizes && class == NULL; i++)
    if (self->sizes[i].size == size)
      class = &self->sizes[i];
  if (class == NULL && self->n_sizes < N_SIZES)
    {
      class = &self->sizes[self->n_sizes++];
      class->size = size;
      class->n_ready = 0;
    }
  if (class != NULL && class->n_ready > 0)
    memory = class->ready[--class->n_ready];

  self->asked = TRUE;
  if (!self->running && !self->quit)
    {
      /* A thread that ended has given its lock back for good */
      if (self->thread != NULL)
        g_thread_join (g_steal_pointer (&self->thread));
      self->thread = g_thread_try_new ("perfscope-prefault", prefault_thread, self, NULL);
      self->running = self->thread != NULL;
    }
  else
    {
      g_cond_signal (&self->cond);
    }
  g_mutex_unlock (&self->lock);

  if (memory == NULL)
    memory = ps_prefault_alloc (size);

  return memory;
}

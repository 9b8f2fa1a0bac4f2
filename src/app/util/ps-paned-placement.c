/* ps-paned-placement.c — where the splits of the views stand
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A placed split (ps_view_place_paned ()) starts at its default share of
 * the paned's size, follows the size as the window grows or shrinks, and
 * once the user drags it keeps the share they chose, saved by name in the
 * "pane-fractions" setting. A scrolled child can ask to come first
 * (ps_view_paned_fit_end ()) or to take no room it leaves empty
 * (ps_view_paned_fit_start ()). Declared in ps-view-util.h.
 */
#include "config.h"

#include <math.h>

#include "ps-view-util.h"

typedef struct
{
  GtkPaned *paned;      /* not referenced: the placement is the paned's data */
  char     *name;       /* in the "pane-fractions" setting */
  double    fraction;   /* the start child's share of the paned's size */
  int       max_start;  /* at most this many pixels for the default; 0: no limit */
  gboolean  chosen;     /* the fraction is where the user put the split */
  int       size;       /* the paned's size the split was last placed for */
  int       position;   /* where it was placed, before GTK's clamping */
  GtkWidget *fit_end;   /* a scrolled window whose content goes first, or NULL */
  int       fit_end_minimum;  /* its content's minimum size when last placed */
  GtkWidget *fit_start; /* a scrolled window that takes no room it leaves empty, or NULL */
  int       fit_start_natural;  /* its content's natural size when last placed */
  guint     fit_id;
  gboolean  placing;
  guint     save_id;
} PanedPlacement;

static void
paned_placement_free (gpointer data)
{
  PanedPlacement *placement = data;

  g_clear_handle_id (&placement->save_id, g_source_remove);
  g_clear_handle_id (&placement->fit_id, g_source_remove);
  g_free (placement->name);
  g_free (placement);
}

/* The share saved for a split, or -1 */
static double
saved_fraction (const char *name)
{
  g_autoptr(GSettings) settings = ps_view_settings_new_if_installed ();
  g_autoptr(GVariant) fractions = NULL;
  double fraction;

  if (settings == NULL || name == NULL)
    return -1;
  fractions = g_settings_get_value (settings, "pane-fractions");
  if (!g_variant_lookup (fractions, name, "d", &fraction) || !(fraction > 0 && fraction < 1))
    return -1;
  return fraction;
}

static gboolean
save_fraction_cb (gpointer user_data)
{
  PanedPlacement *placement = user_data;
  g_autoptr(GSettings) settings = ps_view_settings_new_if_installed ();
  g_autoptr(GVariant) old_fractions = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *key;
  double value;

  placement->save_id = 0;
  if (settings == NULL)
    return G_SOURCE_REMOVE;

  old_fractions = g_settings_get_value (settings, "pane-fractions");
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sd}"));
  g_variant_iter_init (&iter, old_fractions);
  while (g_variant_iter_next (&iter, "{&sd}", &key, &value))
    if (g_strcmp0 (key, placement->name) != 0)
      g_variant_builder_add (&builder, "{sd}", key, value);
  g_variant_builder_add (&builder, "{sd}", placement->name, placement->fraction);
  g_settings_set_value (settings, "pane-fractions", g_variant_builder_end (&builder));

  return G_SOURCE_REMOVE;
}

static int
paned_size (GtkPaned *paned)
{
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)) == GTK_ORIENTATION_VERTICAL
         ? gtk_widget_get_height (GTK_WIDGET (paned)) : gtk_widget_get_width (GTK_WIDGET (paned));
}

/* The minimum or natural size of what a scrolled window shows, along the
 * paned */
static int
content_size (GtkPaned  *paned,
              GtkWidget *window,
              gboolean   natural)
{
  GtkOrientation orientation = gtk_orientable_get_orientation (GTK_ORIENTABLE (paned));
  GtkWidget *child = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (window));
  int across = orientation == GTK_ORIENTATION_VERTICAL ? gtk_widget_get_width (window) : gtk_widget_get_height (window);
  int sizes[2] = { 0, 0 };

  if (child == NULL || !gtk_widget_get_visible (window))
    return 0;
  gtk_widget_measure (child, orientation, across > 0 ? across : -1, &sizes[0], &sizes[1], NULL, NULL);
  return sizes[natural];
}

/* Where the placement puts the split at size, before GTK keeps the
 * children at their minimum sizes */
static int
wanted_position (PanedPlacement *placement,
                 int             size)
{
  int position = (int)round (size * placement->fraction);

  if (!placement->chosen && placement->max_start > 0)
    position = MIN (position, placement->max_start);

  /* The start child gives up its default share, down to its own minimum,
   * before the end child's content has to scroll; a share the user chose
   * stays what it is */
  if (placement->fit_end != NULL && !placement->chosen)
    {
      GtkWidget *start = gtk_paned_get_start_child (placement->paned);
      int end_minimum, min_position, max_position;

      gtk_widget_measure (placement->fit_end, gtk_orientable_get_orientation (GTK_ORIENTABLE (placement->paned)),
                          -1, &end_minimum, NULL, NULL, NULL);
      g_object_get (placement->paned, "min-position", &min_position, "max-position", &max_position, NULL);
      if (start != NULL && gtk_widget_get_visible (start))
        position = MIN (position, MAX (max_position + end_minimum - placement->fit_end_minimum, min_position));
    }

  /* Nor does the start child keep room it would leave empty (a table of
   * a few rows above a chart) */
  if (placement->fit_start != NULL && !placement->chosen && placement->fit_start_natural > 0)
    position = MIN (position, placement->fit_start_natural);
  return position;
}

/* The position as GTK keeps it, between the children's minimum sizes */
static int
clamp_position (GtkPaned *paned,
                int       position)
{
  int min_position, max_position;

  g_object_get (paned, "min-position", &min_position, "max-position", &max_position, NULL);
  return CLAMP (position, min_position, MAX (min_position, max_position));
}

/* Puts the split where the placement wants it at the paned's size. A
 * position set while the paned is being allocated is used as it is:
 * clamped here as GTK would. */
static void
place (PanedPlacement *placement,
       int             size)
{
  placement->size = size;
  if (placement->fit_end != NULL)
    placement->fit_end_minimum = content_size (placement->paned, placement->fit_end, FALSE);
  if (placement->fit_start != NULL)
    placement->fit_start_natural = content_size (placement->paned, placement->fit_start, TRUE);
  placement->position = wanted_position (placement, size);
  placement->placing = TRUE;
  gtk_paned_set_position (placement->paned, clamp_position (placement->paned, placement->position));
  placement->placing = FALSE;
}

/* The split was moved while the paned kept its size: by the user's drag
 * or keys, or by a view. That share is kept for every size from now on,
 * and saved a moment later, once a drag has settled. A move that only
 * clamps the placed position to the children's minimum sizes is GTK's,
 * not a choice. */
static void
paned_moved_cb (GtkPaned   *paned,
                GParamSpec *pspec,
                gpointer    user_data)
{
  PanedPlacement *placement = user_data;
  GtkWidget *start = gtk_paned_get_start_child (paned);
  GtkWidget *end = gtk_paned_get_end_child (paned);
  int size = paned_size (paned);
  int position = gtk_paned_get_position (paned);

  if (placement->placing || size <= 0 || size != placement->size
      || ABS (position - clamp_position (paned, placement->position)) <= 1)
    return;

  placement->fraction = CLAMP ((double)position / size, 0.0, 1.0);
  placement->position = position;
  placement->chosen = TRUE;
  if (placement->name == NULL || !gtk_widget_get_mapped (GTK_WIDGET (paned))
      || start == NULL || end == NULL || !gtk_widget_get_visible (start) || !gtk_widget_get_visible (end))
    return;
  g_clear_handle_id (&placement->save_id, g_source_remove);
  placement->save_id = g_timeout_add (300, save_fraction_cb, placement);
}

/* A new size: the split goes to the same share of it */
static void
paned_sized_cb (GtkPaned   *paned,
                GParamSpec *pspec,
                gpointer    user_data)
{
  PanedPlacement *placement = user_data;
  int size = paned_size (paned);

  if (size > 0 && size != placement->size)
    place (placement, size);
}

/* What a child shows needs another size: the split moves for it. The
 * paned is queued for a resize, not only for the allocation that moving
 * the split asks: GTK then reallocates the paned's parent as a whole rather
 * than passing down to the paned alone, and a resize a child queues while
 * the paned is allocated (a scrolled window showing or hiding a scrollbar
 * for its content's new page size) is settled with the parent's
 * allocation. Passed down, GTK 4.8 leaves the parent marked unallocated
 * under an ancestor that is itself being allocated in that frame, and the
 * frame is drawn without it. */
static gboolean
fit_cb (gpointer user_data)
{
  PanedPlacement *placement = user_data;
  int size = paned_size (placement->paned);

  placement->fit_id = 0;
  if (size > 0 && placement->size == size)
    {
      place (placement, size);
      gtk_widget_queue_resize (GTK_WIDGET (placement->paned));
    }
  return G_SOURCE_REMOVE;
}

/* Called while a child is being allocated, when moving the split would
 * not be seen before the next frame's allocation: moved then */
static void
fit_changed_cb (GtkAdjustment *adjustment,
                GtkPaned      *paned)
{
  PanedPlacement *placement = g_object_get_data (G_OBJECT (paned), "ps-paned-placement");

  if (placement == NULL || placement->fit_id != 0)
    return;
  if ((placement->fit_end != NULL
       && content_size (placement->paned, placement->fit_end, FALSE) != placement->fit_end_minimum)
      || (placement->fit_start != NULL
          && content_size (placement->paned, placement->fit_start, TRUE) != placement->fit_start_natural))
    /* Before the next frame is laid out */
    placement->fit_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, fit_cb, placement, NULL);
}

/* The placement of paned, whose child is a scrolled window whose content
 * is watched */
static PanedPlacement *
watch_child (GtkPaned  *paned,
             GtkWidget *child)
{
  PanedPlacement *placement = g_object_get_data (G_OBJECT (paned), "ps-paned-placement");
  GtkAdjustment *adjustment;

  g_return_val_if_fail (placement != NULL && GTK_IS_SCROLLED_WINDOW (child), NULL);

  adjustment = gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)) == GTK_ORIENTATION_VERTICAL
               ? gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (child))
               : gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (child));
  /* As long as the paned, whose data the placement is */
  g_signal_connect_object (adjustment, "changed", G_CALLBACK (fit_changed_cb), paned, 0);
  return placement;
}

void
ps_view_paned_fit_end (GtkPaned *paned)
{
  PanedPlacement *placement;

  g_return_if_fail (GTK_IS_PANED (paned));

  placement = watch_child (paned, gtk_paned_get_end_child (paned));
  if (placement != NULL)
    placement->fit_end = gtk_paned_get_end_child (paned);
}

void
ps_view_paned_fit_start (GtkPaned *paned)
{
  PanedPlacement *placement;

  g_return_if_fail (GTK_IS_PANED (paned));

  placement = watch_child (paned, gtk_paned_get_start_child (paned));
  if (placement != NULL)
    placement->fit_start = gtk_paned_get_start_child (paned);
}

void
ps_view_place_paned (GtkPaned   *paned,
                     const char *name,
                     double      fraction,
                     int         max_start)
{
  PanedPlacement *placement = g_new0 (PanedPlacement, 1);
  double saved;

  g_return_if_fail (GTK_IS_PANED (paned));

  placement->paned = paned;
  placement->name = g_strdup (name);
  placement->fraction = fraction;
  placement->max_start = max_start;
  saved = saved_fraction (name);
  if (saved > 0)
    {
      placement->fraction = saved;
      placement->chosen = TRUE;
    }
  g_object_set_data_full (G_OBJECT (paned), "ps-paned-placement", placement, paned_placement_free);
  g_signal_connect (paned, "notify::max-position", G_CALLBACK (paned_sized_cb), placement);
  g_signal_connect (paned, "notify::position", G_CALLBACK (paned_moved_cb), placement);
}

double
ps_view_get_paned_fraction (GtkPaned *paned)
{
  PanedPlacement *placement;

  g_return_val_if_fail (GTK_IS_PANED (paned), -1);

  placement = g_object_get_data (G_OBJECT (paned), "ps-paned-placement");
  return placement != NULL ? placement->fraction : -1;
}

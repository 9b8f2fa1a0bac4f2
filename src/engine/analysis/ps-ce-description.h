/* ps-ce-description.h — CE PerfLog marker descriptions as key=value items
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.4 (items) and §4.5 (placeholder expansion).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *key;    /* "" for an item without "=" */
  char *value;
} PsCeDescriptionItem;

/* Statistics of a marker's durations, in seconds, for %AVG%, %MIN%, %MAX% */
typedef struct
{
  gboolean have_seconds;  /* FALSE: the placeholders stay as they are */
  double   mean_s;
  double   min_s;
  double   max_s;
} PsCeDescriptionStats;

/* What a value measures, from its placeholders (before expansion) */
typedef enum
{
  PS_CE_VALUE_TEXT,        /* as written: "CreateFile", "4096" */
  PS_CE_VALUE_SECONDS,     /* a statistic of the durations: "%AVG%" */
  PS_CE_VALUE_PER_SECOND,  /* something per second: "%Bytes%/%AVG%" */
} PsCeValueKind;

/* The kind of a raw value; for PS_CE_VALUE_PER_SECOND, *numerator_key
 * (may be NULL) is the key the numerator names ("Bytes"), or NULL when it
 * names none; g_free () */
PsCeValueKind ps_ce_description_value_kind (const char *raw_value,
                                            char      **numerator_key);

/* A GArray of PsCeDescriptionItem in order of appearance; freeing the
 * array frees the items. Never NULL; an empty description gives 0 items. */
GArray *ps_ce_description_parse  (const char                 *text);

/* The items with %AVG%/%MIN%/%MAX% and %key% substituted and simple
 * "a/b" expressions of numbers evaluated. Numbers are printed with six
 * decimals ("time=0.010200"). A placeholder that cannot be resolved stays. */
GArray *ps_ce_description_expand (const char                 *text,
                                  const PsCeDescriptionStats *stats);

/* The expanded items joined back with "," and "=" */
char   *ps_ce_description_expand_to_string (const char                 *text,
                                            const PsCeDescriptionStats *stats);
/* The same text appended to out */
void    ps_ce_description_append_expanded  (GString                    *out,
                                            const char                 *text,
                                            const PsCeDescriptionStats *stats);

G_END_DECLS

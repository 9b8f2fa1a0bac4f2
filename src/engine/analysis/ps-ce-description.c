/* ps-ce-description.c — CE PerfLog marker descriptions as key=value items
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.4, §4.5. The test kit formats descriptions as
 * "Bytes=65536,Bps AVG=%Bytes%/%AVG%,Test=Write"; PerfToCsv is believed
 * to substitute the statistics and evaluate the quotients.
 */
#include "config.h"

#include <string.h>

#include "ps-ce-description.h"
#include "ps-number.h"

static void
item_clear (gpointer data)
{
  PsCeDescriptionItem *item = data;

  g_clear_pointer (&item->key, g_free);
  g_clear_pointer (&item->value, g_free);
}

static GArray *
item_array_new (void)
{
  GArray *items = g_array_new (FALSE, TRUE, sizeof (PsCeDescriptionItem));

  g_array_set_clear_func (items, item_clear);
  return items;
}

GArray *
ps_ce_description_parse (const char *text)
{
  GArray *items = item_array_new ();
  const char *p;

  if (text == NULL || *text == '\0')
    return items;

  p = text;
  for (;;)
    {
      const char *end = strchr (p, ',');
      gsize length = end ? (gsize) (end - p) : strlen (p);
      const char *equals = memchr (p, '=', length);
      PsCeDescriptionItem item;

      if (equals != NULL)
        {
          item.key = g_strndup (p, equals - p);
          item.value = g_strndup (equals + 1, length - (equals + 1 - p));
        }
      else
        {
          item.key = g_strdup ("");
          item.value = g_strndup (p, length);
        }
      g_array_append_val (items, item);

      if (end == NULL)
        break;
      p = end + 1;
    }

  return items;
}

static void
append_number (GString *string,
               double   value,
               gboolean exact)
{
  char buffer[MAX (G_ASCII_DTOSTR_BUF_SIZE, PS_NUMBER_BUF)];

  /* Exactly: the shortest text that reads back to the same double */
  if (exact)
    ps_number_format_double (value, buffer);
  else
    g_ascii_formatd (buffer, sizeof buffer, "%.6f", value);
  g_string_append (string, buffer);
}

static gboolean
parse_number (const char *start,
              const char *end,
              double     *value)
{
  g_autofree char *copy = NULL;
  char *stop = NULL;

  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  if (start == end)
    return FALSE;
  /* Ordinary decimals without a copy; strtod for the rest (hexadecimal) */
  if (ps_number_parse_double (start, end - start, value))
    return TRUE;

  copy = g_strndup (start, end - start);
  *value = g_ascii_strtod (copy, &stop);
  return stop != NULL && *stop == '\0' && copy[0] != '\0'
         && !g_ascii_isalpha (copy[0]);  /* no "inf", "nan" */
}

/* "a/b" of two numbers, evaluated */
static gboolean
evaluate_quotient (const char *text,
                   double     *result)
{
  const char *slash = strchr (text, '/');
  double a, b;

  if (slash == NULL || strchr (slash + 1, '/') != NULL)
    return FALSE;
  if (!parse_number (text, slash, &a) || !parse_number (slash + 1, slash + strlen (slash), &b))
    return FALSE;
  if (b == 0.0)
    return FALSE;

  *result = a / b;
  return TRUE;
}

static const char *
lookup_item (GArray     *items,
             const char *key,
             gsize       key_length)
{
  for (guint i = 0; i < items->len; i++)
    {
      const PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, i);

      if (strlen (item->key) == key_length && memcmp (item->key, key, key_length) == 0)
        return item->value;
    }

  return NULL;
}

/* Substitutes the placeholders of one value twice: for display (six
 * decimals) and exactly (for evaluating a quotient without rounding). */
static char *
expand_value (const char                 *value,
              GArray                     *raw_items,
              const PsCeDescriptionStats *stats)
{
  g_autoptr(GString) display = g_string_new (NULL);
  g_autoptr(GString) exact = g_string_new (NULL);
  gboolean substituted = FALSE;
  double quotient;
  const char *p = value;

  while (*p != '\0')
    {
      const char *open = strchr (p, '%');
      const char *close;
      const char *name;
      gsize name_length;
      double number;
      const char *referenced;

      if (open == NULL || (close = strchr (open + 1, '%')) == NULL)
        {
          g_string_append (display, p);
          g_string_append (exact, p);
          break;
        }

      g_string_append_len (display, p, open - p);
      g_string_append_len (exact, p, open - p);
      name = open + 1;
      name_length = close - name;

      if (stats != NULL && stats->have_seconds && name_length == 3
          && (g_ascii_strncasecmp (name, "AVG", 3) == 0
              || g_ascii_strncasecmp (name, "MIN", 3) == 0
              || g_ascii_strncasecmp (name, "MAX", 3) == 0))
        {
          if (g_ascii_strncasecmp (name, "AVG", 3) == 0)
            number = stats->mean_s;
          else if (g_ascii_strncasecmp (name, "MIN", 3) == 0)
            number = stats->min_s;
          else
            number = stats->max_s;
          append_number (display, number, FALSE);
          append_number (exact, number, TRUE);
          substituted = TRUE;
        }
      else if (name_length > 0
               && (referenced = lookup_item (raw_items, name, name_length)) != NULL
               && strchr (referenced, '%') == NULL)
        {
          g_string_append (display, referenced);
          g_string_append (exact, referenced);
          substituted = TRUE;
        }
      else
        {
          /* Unresolved: keep it, and let the closing "%" start the next search */
          g_string_append_len (display, open, close - open);
          g_string_append_len (exact, open, close - open);
          p = close;
          continue;
        }

      p = close + 1;
    }

  if (substituted && evaluate_quotient (exact->str, &quotient))
    {
      g_string_truncate (display, 0);
      append_number (display, quotient, FALSE);
    }

  return g_string_free (g_steal_pointer (&display), FALSE);
}

/* Whether text is one of %AVG%, %MIN%, %MAX% and nothing else */
static gboolean
is_statistic (const char *start,
              const char *end)
{
  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  return end - start == 5 && start[0] == '%' && start[4] == '%'
         && (g_ascii_strncasecmp (start + 1, "AVG", 3) == 0
             || g_ascii_strncasecmp (start + 1, "MIN", 3) == 0
             || g_ascii_strncasecmp (start + 1, "MAX", 3) == 0);
}

PsCeValueKind
ps_ce_description_value_kind (const char  *raw_value,
                              char       **numerator_key)
{
  const char *slash;
  const char *end;

  if (numerator_key != NULL)
    *numerator_key = NULL;
  if (raw_value == NULL)
    return PS_CE_VALUE_TEXT;
  end = raw_value + strlen (raw_value);
  if (is_statistic (raw_value, end))
    return PS_CE_VALUE_SECONDS;

  /* "x/%AVG%": x per second of the statistic (the test kit's "Bps") */
  slash = strchr (raw_value, '/');
  if (slash == NULL || strchr (slash + 1, '/') != NULL || !is_statistic (slash + 1, end))
    return PS_CE_VALUE_TEXT;
  if (numerator_key != NULL)
    {
      g_autofree char *numerator = g_strstrip (g_strndup (raw_value, slash - raw_value));
      gsize length = strlen (numerator);

      if (length > 2 && numerator[0] == '%' && numerator[length - 1] == '%'
          && memchr (numerator + 1, '%', length - 2) == NULL)
        *numerator_key = g_strndup (numerator + 1, length - 2);
    }
  return PS_CE_VALUE_PER_SECOND;
}

GArray *
ps_ce_description_expand (const char                 *text,
                          const PsCeDescriptionStats *stats)
{
  g_autoptr(GArray) raw_items = ps_ce_description_parse (text);
  GArray *items = item_array_new ();

  for (guint i = 0; i < raw_items->len; i++)
    {
      const PsCeDescriptionItem *raw = &g_array_index (raw_items, PsCeDescriptionItem, i);
      PsCeDescriptionItem item;

      item.key = g_strdup (raw->key);
      item.value = expand_value (raw->value, raw_items, stats);
      g_array_append_val (items, item);
    }

  return items;
}

char *
ps_ce_description_expand_to_string (const char                 *text,
                                    const PsCeDescriptionStats *stats)
{
  g_autoptr(GArray) items = ps_ce_description_expand (text, stats);
  GString *string = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      const PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, i);

      if (i > 0)
        g_string_append_c (string, ',');
      if (item->key[0] != '\0')
        {
          g_string_append (string, item->key);
          g_string_append_c (string, '=');
        }
      g_string_append (string, item->value);
    }

  return g_string_free (string, FALSE);
}

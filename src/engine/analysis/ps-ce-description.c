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

/* An item of a description as a piece of its text: the key before the
 * first "=" (empty without one) and the value after it */
typedef struct
{
  const char *key;
  gsize       key_length;
  const char *value;
  gsize       value_length;
} ItemText;

/* Items of at most this many fit on the stack while a description is expanded */
#define STACK_ITEMS 16

/* The items of text into stack when they fit, else into a new array,
 * which is also put in *heap for the caller to free (NULL otherwise); an
 * empty text has none */
static ItemText *
split_items (const char *text,
             ItemText    stack[STACK_ITEMS],
             ItemText  **heap,
             guint      *n_items)
{
  ItemText *items = stack;
  guint allocated = STACK_ITEMS;
  const char *p = text;

  *heap = NULL;
  *n_items = 0;
  if (text == NULL || *text == '\0')
    return items;

  for (;;)
    {
      const char *end = strchr (p, ',');
      gsize length = end ? (gsize) (end - p) : strlen (p);
      const char *equals = memchr (p, '=', length);
      ItemText *item;

      if (*n_items == allocated)
        {
          allocated *= 2;
          if (items == stack)
            items = g_memdup2 (stack, STACK_ITEMS * sizeof *items);
          items = g_renew (ItemText, items, allocated);
          *heap = items;
        }
      item = &items[(*n_items)++];
      if (equals != NULL)
        {
          item->key = p;
          item->key_length = equals - p;
          item->value = equals + 1;
          item->value_length = length - (equals + 1 - p);
        }
      else
        {
          item->key = p;
          item->key_length = 0;
          item->value = p;
          item->value_length = length;
        }

      if (end == NULL)
        break;
      p = end + 1;
    }

  return items;
}

GArray *
ps_ce_description_parse (const char *text)
{
  GArray *items = item_array_new ();
  ItemText stack[STACK_ITEMS];
  g_autofree ItemText *allocated = NULL;
  guint n_items;
  const ItemText *texts = split_items (text, stack, &allocated, &n_items);

  for (guint i = 0; i < n_items; i++)
    {
      PsCeDescriptionItem item;

      item.key = g_strndup (texts[i].key, texts[i].key_length);
      item.value = g_strndup (texts[i].value, texts[i].value_length);
      g_array_append_val (items, item);
    }

  return items;
}

static void
append_number (GString *string,
               double   value,
               gboolean exact)
{
  char buffer[MAX (G_ASCII_DTOSTR_BUF_SIZE, PS_NUMBER_BUF)];
  int length;

  /* Exactly: the shortest text that reads back to the same double */
  if (exact)
    g_string_append_len (string, buffer, ps_number_format_double (value, buffer));
  else if ((length = ps_number_format_fixed (value, 6, buffer)) >= 0)
    g_string_append_len (string, buffer, length);
  else
    g_string_append (string, g_ascii_formatd (buffer, sizeof buffer, "%.6f", value));
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

/* The raw value of the first item named key[0, key_length), or NULL */
static const ItemText *
lookup_item (const ItemText *items,
             guint           n_items,
             const char     *key,
             gsize           key_length)
{
  for (guint i = 0; i < n_items; i++)
    if (items[i].key_length == key_length && memcmp (items[i].key, key, key_length) == 0)
      return &items[i];

  return NULL;
}

/* Appends one value with its placeholders substituted to out, the
 * statistics with six decimals or, with exact, as the shortest text that
 * reads back to the same double. Returns whether anything was
 * substituted; *has_slash tells whether out got a "/" (may be NULL). */
static gboolean
substitute_value (GString                    *out,
                  const ItemText             *value,
                  const ItemText             *items,
                  guint                       n_items,
                  const PsCeDescriptionStats *stats,
                  gboolean                    exact,
                  gboolean                   *has_slash)
{
  gboolean substituted = FALSE;
  gboolean slash = FALSE;
  const char *p = value->value;
  const char *end = value->value + value->value_length;

  while (p < end)
    {
      const char *open = memchr (p, '%', end - p);
      const char *close;
      const char *name;
      gsize name_length;
      double number;
      const ItemText *referenced;

      if (open == NULL || (close = memchr (open + 1, '%', end - (open + 1))) == NULL)
        {
          slash = slash || memchr (p, '/', end - p) != NULL;
          g_string_append_len (out, p, end - p);
          break;
        }

      slash = slash || memchr (p, '/', open - p) != NULL;
      g_string_append_len (out, p, open - p);
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
          append_number (out, number, exact);
          substituted = TRUE;
        }
      else if (name_length > 0
               && (referenced = lookup_item (items, n_items, name, name_length)) != NULL
               && memchr (referenced->value, '%', referenced->value_length) == NULL)
        {
          slash = slash || memchr (referenced->value, '/', referenced->value_length) != NULL;
          g_string_append_len (out, referenced->value, referenced->value_length);
          substituted = TRUE;
        }
      else
        {
          /* Unresolved: keep it, and let the closing "%" start the next search */
          slash = slash || memchr (open, '/', close - open) != NULL;
          g_string_append_len (out, open, close - open);
          p = close;
          continue;
        }

      p = close + 1;
    }

  if (has_slash != NULL)
    *has_slash = slash;
  return substituted;
}

/* Appends one value with its placeholders substituted to display, and a
 * quotient "a/b" of numbers then evaluated, from the exact numbers so
 * that the mean is not rounded first, with six decimals */
static void
expand_value (GString                    *display,
              const ItemText             *value,
              const ItemText             *items,
              guint                       n_items,
              const PsCeDescriptionStats *stats)
{
  gsize display_start = display->len;
  g_autoptr(GString) exact = NULL;
  gboolean has_slash;
  double quotient;

  /* Without a "/" there is no quotient, and no need of the exact text */
  if (!substitute_value (display, value, items, n_items, stats, FALSE, &has_slash) || !has_slash)
    return;

  exact = g_string_new (NULL);
  substitute_value (exact, value, items, n_items, stats, TRUE, NULL);
  if (evaluate_quotient (exact->str, &quotient))
    {
      g_string_truncate (display, display_start);
      append_number (display, quotient, FALSE);
    }
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
  GArray *items = item_array_new ();
  ItemText stack[STACK_ITEMS];
  g_autofree ItemText *allocated = NULL;
  guint n_items;
  const ItemText *texts = split_items (text, stack, &allocated, &n_items);
  g_autoptr(GString) display = g_string_new (NULL);

  for (guint i = 0; i < n_items; i++)
    {
      PsCeDescriptionItem item;

      g_string_truncate (display, 0);
      expand_value (display, &texts[i], texts, n_items, stats);
      item.key = g_strndup (texts[i].key, texts[i].key_length);
      item.value = g_strndup (display->str, display->len);
      g_array_append_val (items, item);
    }

  return items;
}

void
ps_ce_description_append_expanded (GString                    *out,
                                   const char                 *text,
                                   const PsCeDescriptionStats *stats)
{
  ItemText stack[STACK_ITEMS];
  g_autofree ItemText *allocated = NULL;
  guint n_items;
  const ItemText *texts = split_items (text, stack, &allocated, &n_items);

  /* Stats expands the description of every series: the items stay
   * pieces of text, and each value is substituted into the result */
  for (guint i = 0; i < n_items; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      if (texts[i].key_length > 0)
        {
          g_string_append_len (out, texts[i].key, texts[i].key_length);
          g_string_append_c (out, '=');
        }
      expand_value (out, &texts[i], texts, n_items, stats);
    }
}

char *
ps_ce_description_expand_to_string (const char                 *text,
                                    const PsCeDescriptionStats *stats)
{
  GString *string = g_string_new (NULL);

  ps_ce_description_append_expanded (string, text, stats);
  return g_string_free (string, FALSE);
}

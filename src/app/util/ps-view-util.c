/* ps-view-util.c — pieces the run views (CE, RTL) build their pages from
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <langinfo.h>
#include <math.h>
#include <string.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "ps-accessible-util.h"
#include "ps-util.h"
#include "ps-view-util.h"

/* Numbers */

/* The locale's digit grouping; the C locale has none, and "55040000"
 * is hard to read, so it groups with commas */
static const char *
thousands_separator (void)
{
  const char *separator = nl_langinfo (THOUSEP);

  return separator != NULL && *separator != '\0' ? separator : ",";
}

/* Groups the digits of the integer part of text (an optional minus sign,
 * digits, then anything) in threes */
static char *
group_digits (const char *text)
{
  const char *separator = thousands_separator ();
  const char *digits = text + (*text == '-' ? 1 : 0);
  gsize n_digits = strspn (digits, "0123456789");
  GString *grouped = g_string_new_len (text, digits - text);

  for (gsize i = 0; i < n_digits; i++)
    {
      if (i > 0 && (n_digits - i) % 3 == 0)
        g_string_append (grouped, separator);
      g_string_append_c (grouped, digits[i]);
    }
  g_string_append (grouped, digits + n_digits);
  return g_string_free (grouped, FALSE);
}

char *
ps_view_format_count (guint64 count)
{
  g_autofree char *digits = g_strdup_printf ("%" PRIu64, count);

  return group_digits (digits);
}

char *
ps_view_series_name (const char *raw)
{
  g_autofree char *name = ps_util_display_text (raw != NULL ? raw : "", -1);

  if (g_str_has_prefix (name, "CPU: "))
    /* Translators: the series of a CE log's CPU monitor, named by the log
     * "CPU: fsperf" (%s is the application): its processor load */
    return g_strdup_printf (_("CPU: %s"), name + strlen ("CPU: "));
  if (g_str_has_prefix (name, "MEM: "))
    /* Translators: the series of a CE log's memory monitor, named by the
     * log "MEM: fsperf" (%s is the application): its memory in use */
    return g_strdup_printf (_("MEM: %s"), name + strlen ("MEM: "));
  return g_steal_pointer (&name);
}

/* Characters around a number that make it part of something else: a
 * decimal ("78.5", "78,5"), a time, a date, a path, a name ("fsperf_3122") */
static gboolean
joins_number (gunichar c)
{
  return (c < 0x80 && (g_ascii_isalnum (c) || strchr ("_.,:-/\\+#%$'=@", (int) c) != NULL));
}

/* The quotation marks around text quoted for the user (“…”, «…»; "…"
 * is counted apart); ’ is an apostrophe as often as a quote */
static gboolean
opens_quote (gunichar c)
{
  return c == 0x201C || c == 0x00AB;
}

static gboolean
closes_quote (gunichar c)
{
  return c == 0x201D || c == 0x00BB;
}

/* Whether the word right before the number at number (spaces between)
 * is one after which a number names a thing: "counter 1848 at…", "process
 * 6360 but…", Korean's "프로세스 6360의…" */
static gboolean
follows_naming_word (const char *text,
                     const char *number)
{
  static GHashTable *words;
  static gsize made;
  const char *end = number, *start;
  g_autofree char *word = NULL;

  if (g_once_init_enter (&made))
    {
      GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      /* Translators: the words after which a number in a warning names a
       * thing rather than counts ("counter 1848 at byte offset…", "thread
       * 1234 never ended"), as the warnings of your language write them,
       * separated by spaces. A number after one of them is not written with
       * the thousands separator. */
      g_auto(GStrv) list = g_strsplit (_("id thread counter marker process pid tid type code version "
                                          "session instance build record line part slot item entry"), " ", -1);

      for (guint i = 0; list[i] != NULL; i++)
        if (*list[i] != '\0')
          g_hash_table_add (table, g_utf8_strdown (list[i], -1));
      /* Kept for the life of the process */
      words = table;
      g_once_init_leave (&made, 1);
    }

  while (end > text)
    {
      const char *previous = g_utf8_find_prev_char (text, end);
      gunichar c = g_utf8_get_char (previous);

      if (c != ' ' && c != 0x00A0 && c != 0x202F)
        break;
      end = previous;
    }
  for (start = end; start > text;)
    {
      const char *previous = g_utf8_find_prev_char (text, start);

      if (!g_unichar_isalpha (g_utf8_get_char (previous)))
        break;
      start = previous;
    }
  if (start == end)
    return FALSE;
  word = g_utf8_strdown (start, end - start);
  return g_hash_table_contains (words, word);
}

char *
ps_view_group_counts (const char *text)
{
  GString *grouped;
  guint depth = 0;
  gboolean straight_quote = FALSE;
  gunichar before = 0;

  g_return_val_if_fail (text != NULL, NULL);

  grouped = g_string_sized_new (strlen (text) + 8);
  for (const char *p = text; *p != '\0';)
    {
      gsize n_digits = strspn (p, "0123456789");
      const char *after = p + n_digits;
      gunichar next = *after != '\0' ? g_utf8_get_char (after) : 0;
      gboolean count = FALSE;

      if (n_digits == 0)
        {
          gunichar c = g_utf8_get_char (p);
          const char *following = g_utf8_next_char (p);

          if (opens_quote (c))
            depth++;
          else if (closes_quote (c) && depth > 0)
            depth--;
          else if (c == '"')
            straight_quote = !straight_quote;
          g_string_append_len (grouped, p, following - p);
          before = c;
          p = following;
          continue;
        }

      /* Followed by a word, after a space or at once (Korean's 개) */
      if (n_digits >= 4 && depth == 0 && !straight_quote && !joins_number (before) && !joins_number (next)
          && !follows_naming_word (text, p))
        {
          if (next == ' ' || next == 0x00A0 || next == 0x202F)
            count = g_unichar_isalpha (g_utf8_get_char (g_utf8_next_char (after)));
          else
            count = next >= 0x80 && g_unichar_isalpha (next);
        }
      if (count)
        {
          g_autofree char *digits = g_strndup (p, n_digits);
          g_autofree char *number = group_digits (digits);

          g_string_append (grouped, number);
        }
      else
        g_string_append_len (grouped, p, n_digits);
      before = '0';
      p = after;
    }
  return g_string_free (grouped, FALSE);
}

/* Digits that are all zero, with the locale's decimal point among them */
static gboolean
is_zero_text (const char *text)
{
  const char *radix = nl_langinfo (RADIXCHAR);
  gsize radix_length = radix != NULL ? strlen (radix) : 0;

  for (const char *p = text; *p != '\0';)
    {
      if (*p == '0')
        p++;
      else if (radix_length > 0 && strncmp (p, radix, radix_length) == 0)
        p += radix_length;
      else
        return FALSE;
    }
  return *text != '\0';
}

char *
ps_view_format_number (double value)
{
  double magnitude = fabs (value);
  g_autofree char *text = NULL;

  if (isnan (value))
    return g_strdup ("–");
  if (isinf (value))
    return g_strdup (value > 0 ? "∞" : "-∞");
  if (magnitude >= 1e15)
    return g_strdup_printf ("%.3e", value);
  if (magnitude >= 100)
    text = g_strdup_printf ("%.0f", value);
  else if (magnitude >= 1 || magnitude == 0)
    text = g_strdup_printf ("%.2f", value);
  else
    {
      /* Three significant digits: 0.500, 0.000520 */
      int decimals = MIN (2 - (int)floor (log10 (magnitude)), 12);

      text = g_strdup_printf ("%.*f", decimals, value);
    }
  /* No "-0" or "-0,00": printf keeps the sign of a negative zero. The
   * decimal point is the locale's, a comma in French. */
  if (text[0] == '-' && is_zero_text (text + 1))
    return g_strdup (text + 1);
  return group_digits (text);
}

char *
ps_view_format_number_whole (double value)
{
  if (isfinite (value) && value == round (value) && fabs (value) < 1e15)
    {
      g_autofree char *text = g_strdup_printf ("%.0f", value == 0 ? 0.0 : value);

      return group_digits (text);
    }
  return ps_view_format_number (value);
}

char *
ps_view_format_fixed (double value,
                      int    decimals)
{
  g_autofree char *text = NULL;

  if (isnan (value))
    return g_strdup ("–");
  if (isinf (value))
    return g_strdup (value > 0 ? "∞" : "-∞");
  text = g_strdup_printf ("%.*f", CLAMP (decimals, 0, 9), value);
  if (text[0] == '-' && is_zero_text (text + 1))
    return g_strdup (text + 1);
  return group_digits (text);
}

const char *
ps_view_quantity_unit (PsViewQuantity  quantity,
                       double          magnitude,
                       double         *scale)
{
  /* Translated as GLib's g_format_size () writes them (French: o, Kio, Mio) */
  static const char *byte_units[] = {
    NC_("byte unit", "B"), NC_("byte unit", "KiB"), NC_("byte unit", "MiB"),
    NC_("byte unit", "GiB"), NC_("byte unit", "TiB"),
  };
  double unused;

  if (scale == NULL)
    scale = &unused;
  *scale = 1;
  magnitude = fabs (magnitude);
  if (!isfinite (magnitude))
    magnitude = 0;

  switch (quantity)
    {
    case PS_VIEW_QUANTITY_SECONDS:
      if (magnitude >= 1 || magnitude == 0)
        return "s";
      if (magnitude >= 1e-3)
        return *scale = 1e-3, "ms";
      if (magnitude >= 1e-6)
        return *scale = 1e-6, "µs";
      return *scale = 1e-9, "ns";

    case PS_VIEW_QUANTITY_BYTES:
      {
        guint i = 0;

        while (magnitude >= *scale * 1024 && i + 1 < G_N_ELEMENTS (byte_units))
          {
            *scale *= 1024;
            i++;
          }
        return g_dpgettext2 (NULL, "byte unit", byte_units[i]);
      }

    case PS_VIEW_QUANTITY_PERCENT:
      return "%";

    case PS_VIEW_QUANTITY_TICKS:
      /* Translators: the unit of timer values */
      return _("ticks");

    case PS_VIEW_QUANTITY_NONE:
    default:
      return "";
    }
}

const char *
ps_view_quantity_unit_for_range (PsViewQuantity  quantity,
                                 double          smallest,
                                 double          largest,
                                 double         *scale)
{
  double middle;

  smallest = fabs (smallest), largest = fabs (largest);
  if (!isfinite (smallest) || smallest == 0 || !isfinite (largest) || largest < smallest)
    middle = largest;
  else
    middle = sqrt (smallest * largest);
  return ps_view_quantity_unit (quantity, middle, scale);
}

/* The engine's unit names (ps-series.c, ps_call_unit_to_string ()) in the
 * user's language, as the window shows them; a counter's own unit is shown as its log wrote it */
const char *
ps_view_unit_name (const char *unit)
{
  if (g_strcmp0 (unit, "percent") == 0)
    return "%";
  if (g_strcmp0 (unit, "bytes") == 0)
    /* Translators: the unit of memory sizes, in the Trend page's Unit column */
    return _("bytes");
  if (g_strcmp0 (unit, "ticks") == 0)
    return _("ticks");
  if (g_strcmp0 (unit, "samples") == 0)
    return _("samples");
  return unit != NULL ? unit : "";
}

char *
ps_view_format_quantity (PsViewQuantity quantity,
                         double         value)
{
  double scale;
  const char *unit = ps_view_quantity_unit (quantity, value, &scale);
  g_autofree char *number = NULL;

  if (isnan (value))
    return g_strdup ("–");
  /* Bytes and ticks are whole: "512 B", "1,234 ticks" */
  if ((quantity == PS_VIEW_QUANTITY_BYTES && scale == 1) || quantity == PS_VIEW_QUANTITY_TICKS)
    number = ps_view_format_number_whole (round (value));
  else
    number = ps_view_format_number (value / scale);
  if (*unit == '\0')
    return g_steal_pointer (&number);
  /* Translators: a number and its unit, "5.20 ms" */
  return g_strdup_printf (C_("value with unit", "%s %s"), number, unit);
}

char *
ps_view_title_with_unit (const char *title,
                         const char *unit)
{
  if (unit == NULL || *unit == '\0')
    return g_strdup (title);
  /* Translators: a column's title and the unit of its numbers, "Mean (ms)" */
  return g_strdup_printf (C_("column title", "%s (%s)"), title, unit);
}

/* Wall-clock times */

gboolean
ps_view_run_utc_offset (PsEventStore *store,
                        guint         session,
                        int          *offset_minutes)
{
  const char *bias;
  gint64 minutes;
  char *end = NULL;

  *offset_minutes = 0;
  if (store == NULL || session >= ps_event_store_get_n_sessions (store))
    return FALSE;
  /* Windows' bias: UTC = local + bias (perflib-v2.md §7.2, §8) */
  bias = ps_event_store_get_metadata (store, session, "time_zone_bias_minutes");
  if (bias == NULL)
    return FALSE;
  minutes = g_ascii_strtoll (bias, &end, 10);
  if (end == bias || *end != '\0' || minutes < -24 * 60 || minutes > 24 * 60)
    return FALSE;
  *offset_minutes = (int)-minutes;
  return TRUE;
}

char *
ps_view_format_zone (int offset_minutes)
{
  int magnitude = ABS (offset_minutes);

  if (offset_minutes == 0)
    return g_strdup ("UTC");
  /* A minus sign, not a hyphen, as in "UTC−08:00" */
  return g_strdup_printf ("UTC%s%02d:%02d", offset_minutes < 0 ? "−" : "+", magnitude / 60, magnitude % 60);
}

char *
ps_view_format_wall_time (gint64      unix_ns,
                          int         offset_minutes,
                          const char *format)
{
  gint64 seconds = unix_ns / G_GINT64_CONSTANT (1000000000);
  gint64 rest_ns = unix_ns % G_GINT64_CONSTANT (1000000000);
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) shifted = NULL;
  g_autofree char *text = NULL;
  g_autofree char *zone = ps_view_format_zone (offset_minutes);

  if (rest_ns < 0)
    seconds -= 1, rest_ns += G_GINT64_CONSTANT (1000000000);
  utc = g_date_time_new_from_unix_utc (seconds);
  if (utc == NULL)
    return g_strdup ("–");
  /* The zone's clock as the file gives its offset, whatever the zone of
   * the computer showing it */
  shifted = g_date_time_add_minutes (utc, offset_minutes);
  if (shifted == NULL)
    return g_strdup ("–");
  text = g_date_time_format (shifted, format);
  return g_strdup_printf ("%s.%03d %s", text, (int)(rest_ns / 1000000), zone);
}

/* Table cells */

GtkWidget *
ps_view_cell_label_new (gboolean numeric)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

/* A cell whose tooltip is made when asked for (ps_view_cell_set_tooltip ()) */
#define CELL_TOOLTIP_KEY "ps-cell-tooltip"

/* The tooltip of a label that can be cut repeats its text, unless the
 * label's owner gave it a tooltip of its own */
static void
cut_label_changed_cb (GtkLabel   *label,
                      GParamSpec *pspec,
                      gpointer    user_data)
{
  const char *text = gtk_label_get_text (label);
  const char *tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (label));

  if (tooltip != NULL && g_strcmp0 (tooltip, g_object_get_data (G_OBJECT (label), "ps-text-tooltip")) != 0)
    return;
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), *text != '\0' ? text : NULL);
  g_object_set_data_full (G_OBJECT (label), "ps-text-tooltip", g_strdup (text), g_free);
}

#define MIN_COMMON_BYTES 4

/* Bytes a and b have in common at their start, or at their end */
static gsize
common_affix (const char *a,
              const char *b,
              gboolean    at_end)
{
  gsize length_a = strlen (a), length_b = strlen (b), n = 0;

  while (n < length_a && n < length_b
         && (at_end ? a[length_a - 1 - n] == b[length_b - 1 - n] : a[n] == b[n]))
    n++;
  return n;
}

/* The mode of text, given the longest start and end it shares with another */
static PangoEllipsizeMode
mode_of_affixes (const char *text,
                 gsize       prefix,
                 gsize       suffix)
{
  const char *extension = strrchr (text, '.');

  if (suffix < (extension != NULL ? strlen (extension) : 0) + MIN_COMMON_BYTES)
    suffix = 0;
  if (prefix < MIN_COMMON_BYTES)
    prefix = 0;
  if (suffix > prefix)
    return PANGO_ELLIPSIZE_END;
  if (prefix > 0)
    return PANGO_ELLIPSIZE_START;
  return PANGO_ELLIPSIZE_MIDDLE;
}

PangoEllipsizeMode
ps_view_ellipsize_mode_among (const char         *text,
                              const char * const *others,
                              guint               n_others,
                              gsize              *differs_at)
{
  gsize prefix = 0, suffix = 0;

  g_return_val_if_fail (text != NULL, PANGO_ELLIPSIZE_END);

  for (guint i = 0; i < n_others; i++)
    {
      if (others[i] == NULL || others[i] == text)
        continue;
      prefix = MAX (prefix, common_affix (text, others[i], FALSE));
      suffix = MAX (suffix, common_affix (text, others[i], TRUE));
    }
  if (differs_at != NULL)
    *differs_at = prefix;
  return mode_of_affixes (text, prefix, suffix);
}

typedef struct
{
  const char * const *texts;
  const gsize        *lengths;
} AffixOrder;

/* By text, then by address, so that the entries of one string are together */
static int
compare_starts (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const AffixOrder *order = user_data;
  const char *text_a = order->texts[*(const guint *)a];
  const char *text_b = order->texts[*(const guint *)b];
  int result = strcmp (text_a, text_b);

  if (result != 0)
    return result;
  return text_a < text_b ? -1 : text_a > text_b;
}

/* By the text read backwards, then by address */
static int
compare_ends (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const AffixOrder *order = user_data;
  guint index_a = *(const guint *)a, index_b = *(const guint *)b;
  const char *text_a = order->texts[index_a], *text_b = order->texts[index_b];
  gsize length_a = order->lengths[index_a], length_b = order->lengths[index_b];

  for (gsize n = 0; n < length_a && n < length_b; n++)
    {
      guchar byte_a = (guchar)text_a[length_a - 1 - n], byte_b = (guchar)text_b[length_b - 1 - n];

      if (byte_a != byte_b)
        return byte_a < byte_b ? -1 : 1;
    }
  if (length_a != length_b)
    return length_a < length_b ? -1 : 1;
  return text_a < text_b ? -1 : text_a > text_b;
}

/* For each entry of sorted, the longest start (or end) it shares with an
 * entry at another address: in this order the closest such neighbours on
 * either side share the most */
static void
longest_affixes (const char * const *texts,
                 const guint        *sorted,
                 guint               n,
                 gboolean            at_end,
                 gsize              *longest)
{
  for (guint i = 0; i < n; i++)
    {
      const char *text = texts[sorted[i]];
      gsize best = 0;
      guint j;

      for (j = i; j > 0 && texts[sorted[j - 1]] == text; j--)
        ;
      if (j > 0)
        best = common_affix (text, texts[sorted[j - 1]], at_end);
      for (j = i + 1; j < n && texts[sorted[j]] == text; j++)
        ;
      if (j < n)
        best = MAX (best, common_affix (text, texts[sorted[j]], at_end));
      longest[sorted[i]] = best;
    }
}

void
ps_view_ellipsize_modes_among (const char * const *texts,
                               guint               n_texts,
                               PangoEllipsizeMode *modes,
                               gsize              *differs_at)
{
  g_autofree guint *sorted = g_new (guint, MAX (n_texts, 1));
  g_autofree gsize *lengths = g_new0 (gsize, MAX (n_texts, 1));
  g_autofree gsize *prefixes = g_new0 (gsize, MAX (n_texts, 1));
  g_autofree gsize *suffixes = g_new0 (gsize, MAX (n_texts, 1));
  AffixOrder order = { texts, lengths };
  guint n = 0;

  for (guint i = 0; i < n_texts; i++)
    if (texts[i] != NULL)
      {
        lengths[i] = strlen (texts[i]);
        sorted[n++] = i;
      }

  g_qsort_with_data (sorted, n, sizeof (guint), compare_starts, &order);
  longest_affixes (texts, sorted, n, FALSE, prefixes);
  g_qsort_with_data (sorted, n, sizeof (guint), compare_ends, &order);
  longest_affixes (texts, sorted, n, TRUE, suffixes);

  for (guint i = 0; i < n_texts; i++)
    {
      if (texts[i] == NULL)
        continue;
      modes[i] = mode_of_affixes (texts[i], prefixes[i], suffixes[i]);
      if (differs_at != NULL)
        differs_at[i] = prefixes[i];
    }
}

void
ps_view_whole_text_in_tooltips (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (GTK_IS_LABEL (widget) && gtk_label_get_ellipsize (GTK_LABEL (widget)) != PANGO_ELLIPSIZE_NONE
      && gtk_widget_get_tooltip_text (widget) == NULL
      && g_object_get_data (G_OBJECT (widget), "ps-text-tooltip") == NULL
      && g_object_get_data (G_OBJECT (widget), CELL_TOOLTIP_KEY) == NULL)
    {
      g_signal_connect (widget, "notify::label", G_CALLBACK (cut_label_changed_cb), NULL);
      cut_label_changed_cb (GTK_LABEL (widget), NULL, NULL);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    ps_view_whole_text_in_tooltips (child);
}

/* Tooltips and the pointer: a tooltip goes with the pointer that raised
 * it, and does not cover a menu */

static void
pointer_entered_cb (GtkEventControllerMotion *motion,
                    double                    x,
                    double                    y)
{
  gtk_widget_set_has_tooltip (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (motion)), TRUE);
}

/* GTK hides a tooltip when the pointer moves over another widget, but
 * not when it leaves for another window or the window's frame: the
 * widget answers no more, and the tooltip is asked again where the
 * pointer is now */
static void
pointer_left_cb (GtkEventControllerMotion *motion)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (motion));

  gtk_widget_set_has_tooltip (widget, FALSE);
  gtk_widget_trigger_tooltip_query (widget);
}

void
ps_view_tooltip_follows_pointer (GtkWidget *widget)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  g_return_if_fail (GTK_IS_WIDGET (widget));

  g_signal_connect (motion, "enter", G_CALLBACK (pointer_entered_cb), NULL);
  g_signal_connect (motion, "leave", G_CALLBACK (pointer_left_cb), NULL);
  gtk_widget_add_controller (widget, motion);
}

static void
quiet_tooltips (GtkWidget *widget,
                GPtrArray *quieted)
{
  if (gtk_widget_get_has_tooltip (widget))
    {
      gtk_widget_set_has_tooltip (widget, FALSE);
      g_ptr_array_add (quieted, g_object_ref (widget));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (!GTK_IS_NATIVE (child))
      quiet_tooltips (child, quieted);
}

static void
menu_shown_cb (GtkWidget *popover)
{
  GPtrArray *quieted = g_ptr_array_new_with_free_func (g_object_unref);

  if (gtk_widget_get_parent (popover) != NULL)
    quiet_tooltips (gtk_widget_get_parent (popover), quieted);
  g_object_set_data_full (G_OBJECT (popover), "ps-quieted-tooltips", quieted, (GDestroyNotify)g_ptr_array_unref);
}

static void
menu_closed_cb (GtkPopover *popover)
{
  g_autoptr(GPtrArray) quieted = g_object_steal_data (G_OBJECT (popover), "ps-quieted-tooltips");

  for (guint i = 0; quieted != NULL && i < quieted->len; i++)
    gtk_widget_set_has_tooltip (g_ptr_array_index (quieted, i), TRUE);
}

void
ps_view_menu_quiets_tooltips (GtkPopover *popover)
{
  g_return_if_fail (GTK_IS_POPOVER (popover));

  g_signal_connect (popover, "show", G_CALLBACK (menu_shown_cb), NULL);
  g_signal_connect (popover, "closed", G_CALLBACK (menu_closed_cb), NULL);
}

#define TOOLTIP_WRAP_CHARS 80

typedef struct
{
  GtkListItem       *list_item;   /* owns the widget: not referenced */
  PsCellTooltipFunc  func;
  gpointer           user_data;
  guint              column;
} CellTooltip;

static void
cell_tooltip_free (gpointer  data,
                   GClosure *closure)
{
  g_free (data);
}

/* Tooltips are made when asked for: setting one on every bind costs GTK
 * a round trip to the X server for the pointer */
static gboolean
cell_query_tooltip (GtkWidget   *widget,
                    int          x,
                    int          y,
                    gboolean     keyboard_mode,
                    GtkTooltip  *tooltip,
                    CellTooltip *cell)
{
  gpointer item = gtk_list_item_get_item (cell->list_item);
  g_autofree char *text = NULL;

  if (item == NULL)
    return FALSE;

  text = cell->func (item, cell->column, cell->user_data);
  if (text == NULL)
    return FALSE;

  if (g_utf8_strlen (text, -1) <= TOOLTIP_WRAP_CHARS)
    gtk_tooltip_set_text (tooltip, text);
  else
    {
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (label), TOOLTIP_WRAP_CHARS);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_tooltip_set_custom (tooltip, label);
    }
  return TRUE;
}

void
ps_view_cell_set_tooltip (GtkWidget         *widget,
                          GtkListItem       *list_item,
                          guint              column,
                          PsCellTooltipFunc  func,
                          gpointer           user_data)
{
  CellTooltip *cell;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (GTK_IS_LIST_ITEM (list_item));
  g_return_if_fail (func != NULL);

  cell = g_new0 (CellTooltip, 1);
  cell->list_item = list_item;
  cell->func = func;
  cell->user_data = user_data;
  cell->column = column;

  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect_data (widget, "query-tooltip", G_CALLBACK (cell_query_tooltip),
                         cell, cell_tooltip_free, 0);
  /* Owned by the handler, which goes with the widget */
  g_object_set_data (G_OBJECT (widget), CELL_TOOLTIP_KEY, cell);
}

char *
ps_view_cell_dup_tooltip (GtkWidget *widget)
{
  CellTooltip *cell;
  gpointer item;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  cell = g_object_get_data (G_OBJECT (widget), CELL_TOOLTIP_KEY);
  if (cell == NULL)
    return g_strdup (gtk_widget_get_tooltip_text (widget));
  item = gtk_list_item_get_item (cell->list_item);
  return item != NULL ? cell->func (item, cell->column, cell->user_data) : NULL;
}

PangoAttrList *
ps_view_search_attributes (const char *search,
                           const char *name)
{
  g_autofree char *lower = NULL;
  g_autofree char *needle = NULL;
  PangoAttrList *attributes;
  PangoAttribute *weight;
  const char *found;

  if (search == NULL || *search == '\0')
    return NULL;

  lower = g_utf8_strdown (name, -1);
  needle = g_utf8_strdown (search, -1);
  if (strlen (lower) != strlen (name) || (found = strstr (lower, needle)) == NULL)
    return NULL;

  attributes = pango_attr_list_new ();
  weight = pango_attr_weight_new (PANGO_WEIGHT_BOLD);
  weight->start_index = found - lower;
  weight->end_index = (found - lower) + strlen (needle);
  pango_attr_list_insert (attributes, weight);

  return attributes;
}

/* Rows can be selected one at a time, and nothing is selected at first */
/* A table sorted again starts at its top: GTK would keep the row that was
 * at the top in view, wherever it went */
static void
sort_changed_cb (GtkColumnView   *view,
                 GtkSorterChange  change,
                 GtkSorter       *sorter)
{
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (view));

  if (GTK_IS_SCROLLED_WINDOW (parent))
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (parent)), 0);
}

/* A tree opens by itself when it has at most this many top rows, and
 * those of them whose children number this many in all */
#define AUTO_EXPAND_TOP_ROWS 8
#define AUTO_EXPAND_BUDGET 400

void
ps_view_auto_expand (GtkTreeListModel        *tree,
                     PsViewCountChildrenFunc  n_children_of)
{
  guint n_top;
  guint budget = AUTO_EXPAND_BUDGET;

  g_return_if_fail (GTK_IS_TREE_LIST_MODEL (tree));
  g_return_if_fail (n_children_of != NULL);

  n_top = g_list_model_get_n_items (G_LIST_MODEL (tree));
  if (n_top > AUTO_EXPAND_TOP_ROWS)
    return;

  /* From the bottom, so that the positions above do not move */
  for (guint i = n_top; i-- > 0;)
    {
      g_autoptr(GtkTreeListRow) tree_row = gtk_tree_list_model_get_child_row (tree, i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (tree_row);
      guint n_children = n_children_of (item);

      if (n_children > 0 && n_children <= budget)
        {
          gtk_tree_list_row_set_expanded (tree_row, TRUE);
          budget -= n_children;
        }
    }
}

void
ps_view_leave_table (GtkWidget        *table,
                     GtkDirectionType  direction)
{
  GtkRoot *root;

  g_return_if_fail (GTK_IS_WIDGET (table));

  root = gtk_widget_get_root (table);
  if (root == NULL)
    return;
  /* The table takes no focus while GTK looks for the next widget, so
   * that it goes past the table's rows */
  gtk_widget_set_can_focus (table, FALSE);
  gtk_widget_child_focus (GTK_WIDGET (root), direction);
  gtk_widget_set_can_focus (table, TRUE);
}

static gboolean
leave_table_cb (GtkWidget *table,
                GVariant  *args,
                gpointer   user_data)
{
  ps_view_leave_table (table, (GtkDirectionType)GPOINTER_TO_INT (user_data));
  return TRUE;
}

void
ps_view_tab_leaves_table (GtkColumnView *view)
{
  GtkEventController *shortcuts;

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  if (g_object_get_data (G_OBJECT (view), "ps-tab-leaves") != NULL)
    return;
  g_object_set_data (G_OBJECT (view), "ps-tab-leaves", GINT_TO_POINTER (1));
  /* Before the table's rows take Tab as a move to the next row: GTK 4.8's
   * lists go through every row, thousands of them */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Tab, 0),
                                                                                       gtk_keyval_trigger_new (GDK_KEY_KP_Tab, 0)),
                                                          gtk_callback_action_new (leave_table_cb,
                                                                                   GINT_TO_POINTER (GTK_DIR_TAB_FORWARD), NULL)));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK),
                                                                                       gtk_keyval_trigger_new (GDK_KEY_Tab, GDK_SHIFT_MASK)),
                                                          gtk_callback_action_new (leave_table_cb,
                                                                                   GINT_TO_POINTER (GTK_DIR_TAB_BACKWARD), NULL)));
  gtk_widget_add_controller (GTK_WIDGET (view), shortcuts);
}

void
ps_view_set_column_model (GtkColumnView *view,
                          GListModel    *model)
{
  g_autoptr(GtkSingleSelection) selection = NULL;

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));
  g_return_if_fail (G_IS_LIST_MODEL (model));

  if (g_object_get_data (G_OBJECT (view), "ps-scrolls-on-sort") == NULL)
    {
      g_signal_connect_object (gtk_column_view_get_sorter (view), "changed",
                               G_CALLBACK (sort_changed_cb), view, G_CONNECT_SWAPPED);
      g_object_set_data (G_OBJECT (view), "ps-scrolls-on-sort", GINT_TO_POINTER (1));
    }
  ps_view_tab_leaves_table (view);

  ps_accessible_name_table (view);
  selection = gtk_single_selection_new (g_object_ref (model));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
}

/* Header */

/* A dash for a value the run does not give; an empty tooltip is none */
void
ps_view_set_header_value (GtkLabel   *label,
                          const char *value,
                          const char *tooltip)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_label_set_text (label, value != NULL && *value != '\0' ? value : "–");
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), tooltip != NULL && *tooltip != '\0' ? tooltip : NULL);
}

const char *
ps_view_lookup_label_text (gconstpointer           instance,
                           const PsViewLabelField *fields,
                           guint                   n_fields,
                           const char             *name)
{
  g_return_val_if_fail (instance != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].name, name))
      return gtk_label_get_text (G_STRUCT_MEMBER (GtkLabel *, instance, fields[i].offset));

  return NULL;
}

void
ps_view_show_busy_spinner (GtkSpinner *spinner,
                           const char *doing)
{
  g_return_if_fail (GTK_IS_SPINNER (spinner));

  gtk_spinner_set_spinning (spinner, doing != NULL);
  gtk_widget_set_opacity (GTK_WIDGET (spinner), doing != NULL ? 1.0 : 0.0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (spinner), doing);
}

/* Warnings */

/* The page's title counts every warning raised, and asks for attention
 * when one is more than information; the store keeps only the first ones. */
void
ps_view_update_warnings_page (PsEventStore *store,
                              GtkStackPage *page,
                              GtkStack     *stack,
                              GtkLabel     *overflow_label)
{
  guint n_kept;
  guint64 n_raised;
  gboolean attention = FALSE;
  g_autofree char *title = NULL;

  g_return_if_fail (PS_IS_EVENT_STORE (store));
  g_return_if_fail (GTK_IS_STACK_PAGE (page));
  g_return_if_fail (GTK_IS_STACK (stack));
  g_return_if_fail (GTK_IS_LABEL (overflow_label));

  n_kept = ps_event_store_get_n_warnings (store);
  n_raised = ps_event_store_get_n_warnings_raised (store);

  for (guint i = 0; i < n_kept && !attention; i++)
    {
      PsWarning warning;

      ps_event_store_get_warning (store, i, &warning);
      attention = warning.severity >= PS_SEVERITY_WARNING;
    }

  if (n_raised == 0)
    title = g_strdup (_("_Warnings"));
  else
    {
      g_autofree char *count = ps_view_format_count (n_raised);

      /* Translators: a page title with the number of warnings ("1,200") */
      title = g_strdup_printf (_("_Warnings (%s)"), count);
    }
  gtk_stack_page_set_title (page, title);
  gtk_stack_page_set_needs_attention (page, attention);
  gtk_stack_set_visible_child_name (stack, n_raised > 0 ? "table" : "empty");

  if (n_raised > n_kept)
    {
      g_autofree char *kept = ps_view_format_count (n_kept);
      g_autofree char *raised = ps_view_format_count (n_raised);
      /* Translators: two counts ("1,000", "1,200") */
      g_autofree char *text = g_strdup_printf (_("Showing the first %s of %s warnings."), kept, raised);

      gtk_label_set_text (overflow_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (overflow_label), n_raised > n_kept);
}

/* Widgets */

/* The int properties of a widget class that its layout reads, by property
 * id: kept as the class's type data */
typedef struct
{
  const gsize *offsets;
  guint        n_properties;
} LayoutInts;

static GQuark
layout_ints_quark (void)
{
  return g_quark_from_static_string ("ps-layout-ints");
}

/* The widget's field of property prop_id, or NULL for none */
static int *
layout_int_field (GObject *object,
                  guint    prop_id)
{
  const LayoutInts *ints = g_type_get_qdata (G_OBJECT_TYPE (object), layout_ints_quark ());

  if (ints == NULL || prop_id == 0 || prop_id >= ints->n_properties)
    return NULL;
  return G_STRUCT_MEMBER_P (object, ints->offsets[prop_id]);
}

static void
layout_int_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  int *field = layout_int_field (object, prop_id);

  if (field != NULL)
    g_value_set_int (value, *field);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* A new value is one more size asked for, and a notification */
static void
layout_int_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  int *field = layout_int_field (object, prop_id);

  if (field == NULL)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  if (*field == g_value_get_int (value))
    return;
  *field = g_value_get_int (value);
  gtk_widget_queue_resize (GTK_WIDGET (object));
  g_object_notify_by_pspec (object, pspec);
}

void
ps_view_class_install_layout_ints (GObjectClass *object_class,
                                   guint         n_properties,
                                   GParamSpec  **properties,
                                   const gsize  *offsets)
{
  LayoutInts *ints = g_new (LayoutInts, 1);

  g_return_if_fail (g_type_is_a (G_OBJECT_CLASS_TYPE (object_class), GTK_TYPE_WIDGET));

  ints->offsets = offsets;
  ints->n_properties = n_properties;
  g_type_set_qdata (G_OBJECT_CLASS_TYPE (object_class), layout_ints_quark (), ints);
  object_class->get_property = layout_int_get_property;
  object_class->set_property = layout_int_set_property;
  g_object_class_install_properties (object_class, n_properties, properties);
}

/* A widget class's PsViewMeasureFunc, kept as its type data */
typedef struct
{
  PsViewMeasureFunc measure;
} Measure;

static GQuark
measure_quark (void)
{
  return g_quark_from_static_string ("ps-measure");
}

static void
measure_without_baselines (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  const Measure *measure = g_type_get_qdata (G_OBJECT_TYPE (widget), measure_quark ());

  measure->measure (widget, orientation, for_size, minimum, natural);
  *minimum_baseline = *natural_baseline = -1;
}

void
ps_view_class_set_measure (GtkWidgetClass    *widget_class,
                           PsViewMeasureFunc  measure)
{
  Measure *kept;

  g_return_if_fail (measure != NULL);

  kept = g_new (Measure, 1);
  kept->measure = measure;
  /* Kept for the life of the class, that is of the process */
  g_type_set_qdata (G_TYPE_FROM_CLASS (widget_class), measure_quark (), kept);
  widget_class->measure = measure_without_baselines;
}

void
ps_view_unparent_children (GtkWidget *widget)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  while ((child = gtk_widget_get_first_child (widget)) != NULL)
    gtk_widget_unparent (child);
}

/* After the template's children, those without an id binding (e.g. a
 * stack switcher) that are still parented to @widget */
void
ps_view_dispose_template (GtkWidget *widget,
                          GType      widget_type)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  gtk_widget_dispose_template (widget, widget_type);
  ps_view_unparent_children (widget);
}

GSettings *
ps_view_settings_new_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

gboolean
ps_view_default_basis_is_view (void)
{
  g_autoptr(GSettings) settings = ps_view_settings_new_if_installed ();

  return settings != NULL && g_settings_get_enum (settings, "percentage-basis") == 1;
}

gboolean
ps_view_default_log_scale (void)
{
  g_autoptr(GSettings) settings = ps_view_settings_new_if_installed ();

  return settings != NULL && g_settings_get_enum (settings, "histogram-scale") == 1;
}

gboolean
ps_view_set_folder_setting (char       **folder,
                            const char  *new_folder)
{
  if (new_folder != NULL && new_folder[0] == '\0')
    new_folder = NULL;
  /* g_set_str () needs GLib 2.76 */
  if (g_strcmp0 (*folder, new_folder) == 0)
    return FALSE;
  g_free (*folder);
  *folder = g_strdup (new_folder);
  return TRUE;
}

void
ps_view_show_error (GtkWindow  *parent,
                    const char *message,
                    const char *detail)
{
  GtkWidget *dialog = adw_message_dialog_new (parent, message, detail);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

typedef struct
{
  PsChoiceFunc   func;
  gpointer       user_data;
  GDestroyNotify destroy;
} Choice;

/* A response's id is the index of its button */
static void
choice_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    gpointer          user_data)
{
  Choice *choice = user_data;
  guint64 index = 0;

  if (!g_ascii_string_to_unsigned (response, 10, 0, G_MAXINT, &index, NULL))
    index = 0;
  choice->func ((int)index, choice->user_data);
  if (choice->destroy != NULL)
    choice->destroy (choice->user_data);
  g_free (choice);
}

void
ps_view_ask (GtkWindow            *parent,
             const PsViewQuestion *question,
             PsChoiceFunc          func,
             gpointer              user_data,
             GDestroyNotify        destroy)
{
  Choice *choice;
  guint n_buttons = g_strv_length ((char **)question->buttons);
  GtkWidget *dialog;
  g_autofree char *last = NULL;

  g_return_if_fail (n_buttons > 0);

  choice = g_new0 (Choice, 1);
  choice->func = func;
  choice->user_data = user_data;
  choice->destroy = destroy;
  dialog = adw_message_dialog_new (parent, question->message, question->detail);
  for (guint i = 0; i < n_buttons; i++)
    {
      g_autofree char *id = g_strdup_printf ("%u", i);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), id, question->buttons[i]);
      if ((int)i == question->destructive)
        adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), id, ADW_RESPONSE_DESTRUCTIVE);
    }
  /* Escape is the first button, Enter the last */
  last = g_strdup_printf ("%u", n_buttons - 1);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "0");
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), last);
  g_signal_connect (dialog, "response", G_CALLBACK (choice_response_cb), choice);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
ps_view_show_write_error (GtkWindow    *parent,
                          const char   *message,
                          GFile        *file,
                          const GError *error)
{
  g_autofree char *name = ps_view_file_display_path (file);
  /* Translators: the first %s is a file name, the second why it could not be written */
  g_autofree char *detail = g_strdup_printf (_("“%s” could not be written: %s"), name, error->message);

  ps_view_show_error (parent, message, detail);
}

void
ps_view_announce_saved (GtkWidget *widget,
                        GFile     *file)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  gtk_widget_activate_action (widget, "win.show-saved", "s", uri);
}

char *
ps_view_file_display_name (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return basename != NULL ? g_filename_display_name (basename) : g_file_get_uri (file);
}

char *
ps_view_file_display_path (GFile *file)
{
  const char *path = g_file_peek_path (file);

  /* A parse name is UTF-8 too, but a local name that is not comes out as
   * a file:// URI with %XX escapes */
  return path != NULL ? g_filename_display_name (path) : g_file_get_parse_name (file);
}

char *
ps_view_file_name_stem (const char *name)
{
  char *stem = g_strdup (name != NULL ? name : "");
  char *dot = strrchr (stem, '.');

  if (dot != NULL && dot != stem)
    *dot = '\0';
  g_strdelimit (stem, "/\\:", '_');
  return stem;
}

/* test-ce-description.c — marker descriptions: items and placeholders
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: ce-perflog.md §4.4, §4.5, §6 (time=0.010200).
 */
#include "config.h"

#include "ps-ce-description.h"

static char *
items_to_string (GArray *items)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      const PsCeDescriptionItem *item = &g_array_index (items, PsCeDescriptionItem, i);

      g_string_append_printf (text, "(%s|%s)", item->key, item->value);
    }

  return g_string_free (text, FALSE);
}

static void
test_parse (void)
{
  struct {
    const char *description;
    const char *expected;
  } cases[] = {
    { "", "" },
    { "Test=WriteFile", "(Test|WriteFile)" },
    { "Bytes=65536,Bps AVG=%Bytes%/%AVG%,Test=Write",
      "(Bytes|65536)(Bps AVG|%Bytes%/%AVG%)(Test|Write)" },
    { "Test=RegQueryValueEx - small,time=%AVG%", "(Test|RegQueryValueEx - small)(time|%AVG%)" },
    { "plain text", "(|plain text)" },
    { "a=b=c,,x=", "(a|b=c)(|)(x|)" },
    { "CPU: fsperf", "(|CPU: fsperf)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GArray) items = ps_ce_description_parse (cases[i].description);
      g_autofree char *got = items_to_string (items);

      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

static void
test_expand (void)
{
  /* 24341 ticks over 2 events at 1193180 ticks/s (the spec's example) */
  PsCeDescriptionStats stats = { TRUE, 24341.0 / 2 / 1193180, 11931.0 / 1193180, 12410.0 / 1193180 };
  PsCeDescriptionStats none = { FALSE, 0, 0, 0 };
  struct {
    const char *description;
    const PsCeDescriptionStats *stats;
    const char *expected;
  } cases[] = {
    { "Test=WriteFile,Bytes=4096,time=%AVG%", &stats, "Test=WriteFile,Bytes=4096,time=0.010200" },
    { "min=%MIN%,max=%MAX%", &stats, "min=0.009999,max=0.010401" },
    /* 4096 / 0.0102003… s, evaluated without rounding the mean first */
    { "Bytes=4096,Bps AVG=%Bytes%/%AVG%,Bps MIN=%Bytes%/%MAX%", &stats,
      "Bytes=4096,Bps AVG=401566.515755,Bps MIN=393816.702659" },
    { "Ratio=3/4", &stats, "Ratio=3/4" },                      /* no placeholder: left alone */
    { "time=%AVG%", &none, "time=%AVG%" },                     /* no seconds: left alone */
    { "time=%AVG%", NULL, "time=%AVG%" },
    { "x=%Unknown%,y=100%", &stats, "x=%Unknown%,y=100%" },
    { "Bytes=0,Bps=%Bytes%/%AVG%,z=%Bytes%/0", &stats, "Bytes=0,Bps=0.000000,z=0/0" },
    { "plain", &stats, "plain" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ps_ce_description_expand_to_string (cases[i].description, cases[i].stats);

      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

static void
test_expand_items (void)
{
  PsCeDescriptionStats stats = { TRUE, 0.5, 0.25, 1.0 };
  g_autoptr(GArray) items = ps_ce_description_expand ("Bytes=1000,Bps AVG=%Bytes%/%AVG%,Test=Read", &stats);
  g_autofree char *got = items_to_string (items);

  g_assert_cmpstr (got, ==, "(Bytes|1000)(Bps AVG|2000.000000)(Test|Read)");
}

/* What a value measures decides the unit the view shows it in */
static void
test_value_kind (void)
{
  static const struct {
    const char    *raw;
    PsCeValueKind  kind;
    const char    *numerator;
  } cases[] = {
    { "%AVG%", PS_CE_VALUE_SECONDS, NULL },
    { " %max% ", PS_CE_VALUE_SECONDS, NULL },
    { "%Bytes%/%AVG%", PS_CE_VALUE_PER_SECOND, "Bytes" },
    { "4096/%MIN%", PS_CE_VALUE_PER_SECOND, NULL },
    { "%AVG%/%Bytes%", PS_CE_VALUE_TEXT, NULL },
    { "%Bytes%", PS_CE_VALUE_TEXT, NULL },
    { "%AVG%ms", PS_CE_VALUE_TEXT, NULL },
    { "a/b/%AVG%", PS_CE_VALUE_TEXT, NULL },
    { "CreateFile", PS_CE_VALUE_TEXT, NULL },
    { "", PS_CE_VALUE_TEXT, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *numerator = NULL;

      g_assert_cmpint (ps_ce_description_value_kind (cases[i].raw, &numerator), ==, cases[i].kind);
      g_assert_cmpstr (numerator, ==, cases[i].numerator);
    }
  g_assert_cmpint (ps_ce_description_value_kind (NULL, NULL), ==, PS_CE_VALUE_TEXT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ce-description/parse", test_parse);
  g_test_add_func ("/ce-description/expand", test_expand);
  g_test_add_func ("/ce-description/expand-items", test_expand_items);
  g_test_add_func ("/ce-description/value-kind", test_value_kind);

  return g_test_run ();
}

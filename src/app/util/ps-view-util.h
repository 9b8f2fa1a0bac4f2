/* ps-view-util.h — pieces the run views (CE, RTL) build their pages from
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Table cells with tooltips made on demand, column views over a model
 * without an automatic selection, the header fields and the warnings page
 * as PsCeView and PsRtlView both show them.
 */
#pragma once

#include <gtk/gtk.h>

#include "ps-event-store.h"

G_BEGIN_DECLS

/* The tooltip of the cell of @column showing @item, or %NULL for none */
typedef char * (*PsCellTooltipFunc) (gpointer item,
                                     guint    column,
                                     gpointer user_data);

/* A label field of a view, found by name (the testing API of the views) */
typedef struct
{
  const char *name;
  gsize       offset;   /* of the GtkLabel * in the view's instance struct */
} PsViewLabelField;

/* The name of a measured series as shown: the log's text made valid
 * UTF-8, and the "CPU: " and "MEM: " with which a CE log names its CPU
 * and memory monitors (ce-perflog.md §2.1: "CPU: fsperf") in the user's
 * language; the engine and the CLI keep the log's text */
char       *ps_view_series_name          (const char             *raw);

/* A count with its digits grouped ("55,040,000"): the locale's separator,
 * or a comma where the locale has none */
char       *ps_view_format_count         (guint64                 count);
/* text (an engine's message, which the CLI prints as it is) with the
 * digits of its counts grouped as ps_view_format_count () groups them:
 * "1388 samples" becomes "1,388 samples", "레코드 12345개" "레코드 12,345개".
 * A count is a whole number of four digits or more followed by a word; a
 * number that ends the clause names a place or a thing ("on line 1078
 * (…)", "at byte offset 4096:", "(pid 12345)") and stays as it is, as does
 * one after a word that names ("counter 1848 at…", a translated list), and
 * decimals, hexadecimal and the text between quotation marks. */
char       *ps_view_group_counts         (const char             *text);
/* The one rule for the digits of a measured value on screen (tables,
 * read-outs, tooltips, header fields): two decimals below 100 ("42.96",
 * "1.00"), none from 100 up ("850", "400,428"), three significant digits
 * below 1 ("0.520", "0.00520"); digits grouped, the locale's decimal
 * point. A value that is whole by nature (a count, a timer's whole
 * milliseconds) is written whole instead. Exports write the exact value. */
char       *ps_view_format_number        (double                  value);
/* ps_view_format_number (), but a whole value is written without
 * decimals ("36", "1,906"): for the readings of a whole-unit timer */
char       *ps_view_format_number_whole  (double                  value);

/* value with decimals fixed by a column (a call tree's, whose values are
 * all whole or all not), digits grouped: "1,064,922", "18.333" */
char       *ps_view_format_fixed         (double                  value,
                                          int                     decimals);

/* What a value measures, for picking and naming its unit */
typedef enum
{
  PS_VIEW_QUANTITY_NONE,
  PS_VIEW_QUANTITY_SECONDS,   /* stored in seconds: ns, µs, ms, s */
  PS_VIEW_QUANTITY_BYTES,     /* stored in bytes: B, KiB, MiB, GiB, TiB */
  PS_VIEW_QUANTITY_PERCENT,
  PS_VIEW_QUANTITY_TICKS,
} PsViewQuantity;

/* The unit in which values of quantity up to magnitude are shown: the
 * largest in which magnitude is at least 1 ("ms" for 0.0052 s, "MiB" for
 * 11 202 560 bytes). A table column or an axis picks it once, from its
 * largest value, and names it in its header; *scale is what a stored
 * value is divided by. */
const char *ps_view_quantity_unit        (PsViewQuantity          quantity,
                                          double                  magnitude,
                                          double                 *scale);
/* The unit of a column or an axis whose values range in magnitude from
 * smallest (the smallest that is not 0) to largest: the unit of their
 * middle (the geometric mean of the two), so that "1.79" and "2,137" ms
 * share a column rather than "0.00179" and "2.14" s */
const char *ps_view_quantity_unit_for_range (PsViewQuantity   quantity,
                                             double           smallest,
                                             double           largest,
                                             double          *scale);
/* A unit of the engine's (a series', a call tree's, a summary row's) in
 * the user's language: "bytes", "ticks", "samples", "%" for percent; any
 * other, such as a counter's own, as it is */
const char *ps_view_unit_name            (const char             *unit);
/* A lone value with its unit by the rule: "5.20 ms", "10.68 MiB",
 * "42.96 %", "1,234 ticks" */
char       *ps_view_format_quantity      (PsViewQuantity          quantity,
                                          double                  value);
/* A column's title with its unit: "Mean (ms)"; just the title without one */
char       *ps_view_title_with_unit      (const char             *title,
                                          const char             *unit);

/* A run's zone for wall-clock times, as its file tells it: the offset
 * from UTC in minutes (east positive) when the file gives one (a PDH
 * log's bias, a PLV2 capture's), else UTC. Returns FALSE for UTC. */
gboolean    ps_view_run_utc_offset       (PsEventStore           *store,
                                          guint                   session,
                                          int                    *offset_minutes);
/* A wall-clock time of the run in its zone, with the zone named:
 * "2024-03-04 01:00:00.000 UTC−08:00", "16:34:24.306 UTC"; format is
 * g_date_time_format ()'s, milliseconds are added after it */
char       *ps_view_format_wall_time     (gint64                  unix_ns,
                                          int                     offset_minutes,
                                          const char             *format);
/* The zone's name alone: "UTC", "UTC−08:00" */
char       *ps_view_format_zone          (int                     offset_minutes);
GtkWidget  *ps_view_cell_label_new       (gboolean                numeric);
/* Long tooltips wrap (C++ names can be wider than the screen) */
void        ps_view_cell_set_tooltip     (GtkWidget              *widget,
                                          GtkListItem            *list_item,
                                          guint                   column,
                                          PsCellTooltipFunc       func,
                                          gpointer                user_data);
/* The tooltip a cell shows: made by the function it was given, or its
 * tooltip text; NULL for none */
char       *ps_view_cell_dup_tooltip     (GtkWidget              *widget);
/* Bold for the part of @name that @search matched, ignoring case, when the
 * text can be lowered without changing its length (which covers ASCII
 * names); %NULL when there is no match or no search */
PangoAttrList *ps_view_search_attributes (const char            *search,
                                          const char             *name);
/* Shows model in a table, single selection, named for screen readers;
 * Tab leaves the table (ps_view_tab_leaves_table ()) */
void        ps_view_set_column_model     (GtkColumnView          *view,
                                          GListModel             *model);
/* Tab and Shift+Tab move the focus out of the table, to the widget after
 * or before it (ps_view_leave_table ()), rather than from row to row */
void        ps_view_tab_leaves_table     (GtkColumnView          *view);
void        ps_view_leave_table          (GtkWidget              *table,
                                          GtkDirectionType        direction);
/* The number of children of a tree's row, given its item */
typedef guint (*PsViewCountChildrenFunc) (gpointer item);
/* A tree of a few top rows (8 at most) with a few children each shows
 * them open: from the bottom up, each top row whose children fit in what
 * is left of 400 rows is expanded */
void        ps_view_auto_expand          (GtkTreeListModel       *tree,
                                          PsViewCountChildrenFunc n_children_of);
void        ps_view_set_header_value     (GtkLabel               *label,
                                          const char             *value,
                                          const char             *tooltip);
const char *ps_view_lookup_label_text    (gconstpointer           instance,
                                          const PsViewLabelField *fields,
                                          guint                   n_fields,
                                          const char             *name);
/* A spinner beside entries: spinning with what is being done as its
 * tooltip, or, with doing NULL, still and transparent but in its place,
 * so that the entries beside it do not move */
void        ps_view_show_busy_spinner    (GtkSpinner             *spinner,
                                          const char             *doing);
void        ps_view_update_warnings_page (PsEventStore           *store,
                                          GtkStackPage           *page,
                                          GtkStack               *stack,
                                          GtkLabel               *overflow_label);
/* Keeps a split at a share of the paned's size, whatever its size: the
 * share where the user last left the split of that name (the
 * "pane-fractions" setting), else fraction (the start child's share), at
 * most max_start pixels when max_start > 0. Where the user then moves it
 * is kept under name (NULL: not kept). GTK still keeps each child at its
 * minimum size. */
void        ps_view_place_paned          (GtkPaned               *paned,
                                          const char             *name,
                                          double                  fraction,
                                          int                     max_start);
/* The end child of a placed split, a scrolled window, shows its content
 * whole as long as the start child can give up room for it: the start
 * child gets less than its default share, down to its minimum size,
 * before the end child scrolls. A share the user chose is kept. */
void        ps_view_paned_fit_end        (GtkPaned               *paned);
/* Where a text too long for its room is best cut so that it stays told
 * apart from others like it (tab titles of files of one prefix, the
 * timeline's rows): at its start when it shares a longer start than end
 * with one of others, at its end in the opposite case, else in its middle.
 * A shared extension, or a letter or two, is no common part. others may
 * hold text itself, which is skipped. *differs_at (may be NULL): the byte
 * at which text first differs from the other it starts most like. */
PangoEllipsizeMode ps_view_ellipsize_mode_among (const char        *text,
                                                 const char * const *others,
                                                 guint              n_others,
                                                 gsize             *differs_at);
/* The same for each of texts among all of them (NULL entries are left
 * out and their modes[] untouched): a sort instead of a comparison of
 * every pair, for the thousands of rows of a timeline */
void               ps_view_ellipsize_modes_among (const char * const *texts,
                                                  guint               n_texts,
                                                  PangoEllipsizeMode *modes,
                                                  gsize              *differs_at);
/* Every label in widget that ellipsizes its text and has no tooltip gets
 * its whole text as tooltip, from now on (GTK already gives assistive
 * technologies a label's whole text) */
void        ps_view_whole_text_in_tooltips (GtkWidget            *widget);
/* The widget's tooltip closes when the pointer leaves the widget, for
 * wherever it goes */
void        ps_view_tooltip_follows_pointer (GtkWidget           *widget);
/* While the menu is open, the widget it pops up from and what is in it
 * show no tooltips, which would cover the menu's items */
void        ps_view_menu_quiets_tooltips (GtkPopover             *popover);
/* The start child of a placed split, a scrolled window, takes no more of
 * its default share than its content naturally needs: the rest goes to
 * the end child */
void        ps_view_paned_fit_start      (GtkPaned               *paned);
/* The start child's share a placed split keeps, or -1 */
double      ps_view_get_paned_fraction   (GtkPaned               *paned);
/* What a widget asks for in orientation, for_size in the other one
 * (-1: any): GtkWidgetClass.measure without the baselines, which no
 * widget of Perfscope's aligns its text to */
typedef void (*PsViewMeasureFunc) (GtkWidget      *widget,
                                   GtkOrientation  orientation,
                                   int             for_size,
                                   int            *minimum,
                                   int            *natural);
/* Makes measure the widget class's GtkWidgetClass.measure, which gives no
 * baseline (-1), for its class_init */
void        ps_view_class_set_measure    (GtkWidgetClass         *widget_class,
                                          PsViewMeasureFunc       measure);
/* Unparents every child of a widget that lays out its children itself
 * (for its dispose) */
void        ps_view_unparent_children    (GtkWidget              *widget);
void        ps_view_dispose_template     (GtkWidget              *widget,
                                          GType                   widget_type);
/* Installs the n_properties properties of a widget class (by property
 * id; properties[0] unused), all ints that its layout reads (spacings, a
 * width in characters): property i is the int at offsets[i] of the
 * instance, and setting it to a new value asks for a new size and
 * notifies. properties and offsets are static arrays, kept by the class. */
void        ps_view_class_install_layout_ints (GObjectClass       *object_class,
                                               guint               n_properties,
                                               GParamSpec        **properties,
                                               const gsize        *offsets);
/* The application's settings, or NULL without the schema (an
 * uninstalled build run by hand) */
GSettings  *ps_view_settings_new_if_installed (void);
/* The defaults a new view starts with, from the settings (Preferences):
 * "percentage-basis" is "view", "histogram-scale" is "logarithmic";
 * FALSE without the schema */
gboolean    ps_view_default_basis_is_view (void);
gboolean    ps_view_default_log_scale    (void);
/* Sets *@folder, a folder setting (the symbol folder), to @new_folder,
 * the empty name standing for none (NULL); returns whether it changed */
gboolean    ps_view_set_folder_setting   (char                  **folder,
                                          const char             *new_folder);

/* An error in a dialog over parent (an AdwMessageDialog): message, then
 * detail */
void        ps_view_show_error           (GtkWindow              *parent,
                                          const char             *message,
                                          const char             *detail);
/* What a dialog asks: message, detail and the buttons (mnemonic labels,
 * NULL-terminated), the first one cancelling; the destructive button (an
 * index, or -1) is shown in red */
typedef struct
{
  const char         *message;
  const char         *detail;
  const char * const *buttons;
  int                 destructive;
} PsViewQuestion;
/* Asks question in a dialog over parent: func runs with the index of the
 * button chosen (0 when the dialog is dismissed), then destroy
 * (user_data) */
typedef void (*PsChoiceFunc) (int      choice,
                              gpointer user_data);
void        ps_view_ask                  (GtkWindow              *parent,
                                          const PsViewQuestion   *question,
                                          PsChoiceFunc            func,
                                          gpointer                user_data,
                                          GDestroyNotify          destroy);
/* The same for a file that could not be written: the detail names the
 * file and says why */
void        ps_view_show_write_error     (GtkWindow              *parent,
                                          const char             *message,
                                          GFile                  *file,
                                          const GError           *error);

/* A file was written from widget (an export, a saved run): the window
 * widget is in says so in a toast, with a button that opens its folder
 * (the window's action win.show-saved); nothing when widget is in no
 * window any more */
void        ps_view_announce_saved       (GtkWidget              *widget,
                                          GFile                  *file);

/* The name of file for a title, a label or a menu: its base name as UTF-8
 * (bytes that are not shown as U+FFFD), or its URI when it has none;
 * g_free () */
char       *ps_view_file_display_name    (GFile                  *file);
/* Where file is, for a tooltip: its path as UTF-8 (bytes that are not
 * shown as U+FFFD), or its URI-like parse name when it has no path; g_free () */
char       *ps_view_file_display_path    (GFile                  *file);

/* A name to suggest for a file made from name (a run's title or file
 * name): without its extension, "/", "\\" and ":" replaced; g_free () */
char       *ps_view_file_name_stem       (const char             *name);

G_END_DECLS

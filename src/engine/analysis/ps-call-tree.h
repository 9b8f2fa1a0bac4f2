/* ps-call-tree.h — call trees with the four instrumentation values
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: vs-instrumentation.md §2 (collection model), §3 (the four values,
 * aggregation levels, recursion), §4 (percentages), §5 (worked example).
 *
 * A PsCallTree holds, for one source of call stacks:
 *  - the top-down tree: one node per call path, under a root node;
 *  - the bottom-up tree: one root per function, its children the callers
 *    (and their callers…), each with the part of the function's values that
 *    came through that path;
 *  - the flat function summary;
 *  - callers and callees of any function.
 * Every node and function has the number of calls, the four values
 * (elapsed/application × inclusive/exclusive) and their per-call minimum,
 * average and maximum.
 *
 * Trees are computed from intervals (enter/leave probes, or stacks with a
 * duration), from spans, or from weighted samples; or they hold the values
 * a profiler report gave (VS reports), in which case the values, averages
 * and percentages are shown as given.
 *
 * Recursion [OURS, spec §3]: in the function summary, in the bottom-up
 * roots and in caller/callee, an interval counts once per distinct function
 * on its stack. The top-down tree needs no rule: each path node appears
 * once per stack. Only the outermost call of a function on a stack adds its
 * inclusive values to the function; every call adds its exclusive values
 * (an interval is exclusive to one call only) and counts as a call.
 *
 * Sums over report rows (a function derived from the tree, derived callers
 * and callees, the bottom-up tree, the default totals) use each row's
 * total, or avg × calls when the report gave only the average (the IDE's
 * eight-column export); their given percentages are the sums of the rows'
 * given percentages (NAN as soon as one row has none).
 *
 * A built tree is immutable and may be read from any thread.
 */
#pragma once

#include "ps-event-store.h"
#include "ps-scopes.h"

G_BEGIN_DECLS

typedef enum
{
  PS_CALL_VALUE_ELAPSED_INCLUSIVE,
  PS_CALL_VALUE_ELAPSED_EXCLUSIVE,
  PS_CALL_VALUE_APPLICATION_INCLUSIVE,
  PS_CALL_VALUE_APPLICATION_EXCLUSIVE,
  PS_N_CALL_VALUES,
} PsCallValue;

/* Percentage basis (spec §4) */
typedef enum
{
  PS_CALL_BASIS_S1,    /* elapsed over T_E, application over T_A (default) */
  PS_CALL_BASIS_VIEW,  /* all four over T_E */
} PsCallBasis;

/* The unit of every value of a tree */
typedef enum
{
  PS_CALL_UNIT_NS,       /* timed sources (RTL, probes) */
  PS_CALL_UNIT_SAMPLES,  /* sampled sources: values are sample weights */
  PS_CALL_UNIT_TICKS,    /* a report in timer ticks of unknown frequency */
  PS_CALL_UNIT_MS,       /* a report in milliseconds */
} PsCallUnit;

typedef struct
{
  guint64 calls;                      /* entries; 0 for sampled sources */
  double  total[PS_N_CALL_VALUES];    /* in the tree's unit */
  /* Per call. Computed trees: over the calls counted in `calls`; avg is
   * total / calls (0 when there are no calls). Reports: as given, NAN for
   * a column the report did not have. */
  double  min[PS_N_CALL_VALUES];
  double  avg[PS_N_CALL_VALUES];
  double  max[PS_N_CALL_VALUES];
  /* Reports only: the percentages the report gave, NAN where it had none
   * (and always NAN in computed trees). */
  double  given_percent[PS_N_CALL_VALUES];
} PsCallStats;

#define PS_CALL_NODE_ROOT 0   /* the root node of either tree */

#define PS_TYPE_CALL_TREE (ps_call_tree_get_type ())
G_DECLARE_FINAL_TYPE (PsCallTree, ps_call_tree, PS, CALL_TREE, GObject)

/* --- Building ------------------------------------------------------------ */

typedef struct _PsCallTreeBuilder PsCallTreeBuilder;

PsCallTreeBuilder *ps_call_tree_builder_new     (PsCallUnit          unit);
void               ps_call_tree_builder_free    (PsCallTreeBuilder  *self);
/* Functions are identified by name and module (module may be NULL or "");
 * the same pair always gives the same id. */
guint32            ps_call_tree_builder_intern_function (PsCallTreeBuilder *self,
                                                  const char         *name,
                                                  const char         *module);

/* Probe model (spec §2). Each thread (any key the caller chooses) has its
 * own stack and clock; times of one thread must not go back. An interval
 * runs from one probe of a thread to its next one and belongs to the stack
 * as it was before the later probe. */
void               ps_call_tree_builder_enter   (PsCallTreeBuilder  *self,
                                                 guint32             thread,
                                                 guint32             function,
                                                 gint64              time);
void               ps_call_tree_builder_leave   (PsCallTreeBuilder  *self,
                                                 guint32             thread,
                                                 gint64              time);
/* The operating system did something in the thread's current interval
 * (the one that the thread's next probe ends). */
void               ps_call_tree_builder_os_event (PsCallTreeBuilder *self,
                                                 guint32             thread);

/* Interval model: an interval of `duration` with the stack (outermost
 * first) as it was at its end. Consecutive intervals of a thread share the
 * calls of their common stack prefix; a function that is no longer on the
 * stack has returned. An empty stack adds to no function and to no total. */
void               ps_call_tree_builder_add_interval (PsCallTreeBuilder *self,
                                                 guint32             thread,
                                                 const guint32      *stack,
                                                 guint               depth,
                                                 gint64              duration,
                                                 gboolean            os_event);

/* Sampled sources: a sample of `weight` with its stack (outermost first);
 * a kernel-mode sample is the OS-event case. Calls are not counted. */
void               ps_call_tree_builder_add_sample (PsCallTreeBuilder *self,
                                                 const guint32      *stack,
                                                 guint               depth,
                                                 guint64             weight,
                                                 gboolean            kernel);

/* Reports (values as given). A call-tree report adds nodes in depth-first
 * pre-order below a parent node (PS_CALL_NODE_ROOT for the top level) and
 * returns the new node. A function-summary or caller/callee report sets a
 * function's own row and adds its callers and callees (caller PS_NONE: an
 * entry point); setting a function again adds the rows (a report may list
 * one function several times). Functions of a report without a summary
 * get the sum of their top-down nodes (inclusive values of the outermost
 * node of each path, calls and exclusive values of every node, as in a
 * computed tree); a report without a tree gets none
 * (ps_call_tree_has_top_down () is FALSE). A builder holds either a report
 * or computed data, never both. */
guint32            ps_call_tree_builder_add_node (PsCallTreeBuilder *self,
                                                 guint32             parent,
                                                 guint32             function,
                                                 const PsCallStats  *given);
void               ps_call_tree_builder_set_function (PsCallTreeBuilder *self,
                                                 guint32             function,
                                                 const PsCallStats  *given);
void               ps_call_tree_builder_add_caller (PsCallTreeBuilder *self,
                                                 guint32             function,
                                                 guint32             caller,
                                                 const PsCallStats  *given);
void               ps_call_tree_builder_add_callee (PsCallTreeBuilder *self,
                                                 guint32             function,
                                                 guint32             callee,
                                                 const PsCallStats  *given);
/* Reports: the session totals T_E and T_A when the report implies them
 * (otherwise they are the sums of the functions' exclusive values). */
void               ps_call_tree_builder_set_totals (PsCallTreeBuilder *self,
                                                 double              elapsed,
                                                 double              application);

/* Closes the calls still open at each thread's last probe and returns the
 * tree; frees the builder. */
PsCallTree        *ps_call_tree_builder_end     (PsCallTreeBuilder  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsCallTreeBuilder, ps_call_tree_builder_free)

/* The call tree of the spans of a store: every track with spans is a
 * thread, a span is a call from its begin to its end (unterminated spans
 * end where the store says they end). track limits it to one track
 * (PS_NONE: all tracks, merged by call path). With a filter, the spans it
 * drops are left out and their children move up to the nearest kept
 * ancestor. The function of a span is the function part of its name
 * (ps_call_tree_function_of_name ()). Spans have no OS events, so
 * application = elapsed. */
PsCallTree        *ps_call_tree_new_for_spans   (PsEventStore       *store,
                                                 guint32             track,
                                                 PsScopeFilter      *filter);

/* What ps_call_tree_new_for_store () builds from */
typedef struct
{
  guint32        track;            /* spans: one track, or PS_NONE for all */
  PsScopeFilter *filter;           /* spans: may be NULL */
  double         ticks_per_second; /* reports in ticks: > 0 converts them to
                                    * ns; else they stay in ticks */
  const guint8  *span_selection;   /* spans: NULL, or one byte per span of
                                    * the store, non-zero for the spans whose
                                    * calls alone count (with what ran inside
                                    * them), e.g. a histogram's bucket range */
  /* Samples only; zero-initialised members select everything */
  const guint8  *sources;          /* NULL, or one byte per sample source,
                                    * non-zero for those that count */
  const guint8  *tracks;           /* NULL, or one byte per track of the
                                    * store, non-zero for those that count
                                    * (instead of `track`) */
  gboolean       time_range;       /* only samples in [begin_ns, end_ns) */
  gint64         begin_ns;
  gint64         end_ns;
  GCancellable  *cancellable;      /* spans and samples: may be NULL;
                                    * checked every 65 536 of them */
  gboolean       group_addresses;  /* samples: one function per module for
                                    * the frames without a function name
                                    * (see "Addresses" below) */
} PsCallTreeOptions;

/* The call tree of any run that has one: the report rows of a profiler
 * report (ps_event_store_get_report_row ()), else the sampled stacks
 * (weights, kernel samples as OS events; options->track, tracks, sources
 * and the time range limit them), else the spans (a run with samples may
 * have spans that are not calls, e.g. thread lifetimes). NULL with an error (PS_ERROR_NO_DATA) when the run has
 * none of them, or G_IO_ERROR_CANCELLED when options->cancellable was
 * cancelled while the spans or samples were walked. options may be NULL. */
PsCallTree        *ps_call_tree_new_for_store   (PsEventStore       *store,
                                                 const PsCallTreeOptions *options,
                                                 GError            **error);

/* The function part of a scope name that follows the
 * "module (author) function" convention (rtl-logfile.md §3), else the whole
 * name (also when the function part is empty: "sw (ab123456)"). Returns a
 * pointer into name and its length. */
const char        *ps_call_tree_function_of_name (const char        *name,
                                                 gsize              *length);
/* The module part of such a name, or NULL (length 0) when the name does not
 * follow the convention or has no function part. */
const char        *ps_call_tree_module_of_name  (const char         *name,
                                                 gsize              *length);

/* --- Reading ------------------------------------------------------------- */

PsCallUnit         ps_call_tree_get_unit        (PsCallTree         *self);
const char        *ps_call_unit_to_string       (PsCallUnit          unit); /* "ns", "samples", "ticks", "ms" */
const char        *ps_call_basis_to_string      (PsCallBasis         basis); /* "s1", "view" */
gboolean           ps_call_basis_from_string    (const char         *text,
                                                 PsCallBasis        *basis);
const char        *ps_call_value_to_string      (PsCallValue         value); /* "elapsed_inclusive", … */
/* Whether the values came from a report (shown as given) */
gboolean           ps_call_tree_is_report       (PsCallTree         *self);
/* Whether any interval that counts (non-empty stack) had an OS event, or
 * any sample was a kernel one; for reports, whether a given application
 * value differs from its elapsed one. Else application = elapsed. */
gboolean           ps_call_tree_has_os_events   (PsCallTree         *self);
gboolean           ps_call_tree_has_top_down    (PsCallTree         *self);

/* T_E and T_A */
double             ps_call_tree_get_elapsed_total     (PsCallTree   *self);
double             ps_call_tree_get_application_total (PsCallTree   *self);

/* The percentage of one value in a basis: the given one for reports that
 * have it, else 100 × value / (T_E or T_A), 0 when the total is 0. */
double             ps_call_tree_get_percent     (PsCallTree         *self,
                                                 const PsCallStats  *stats,
                                                 PsCallValue         value,
                                                 PsCallBasis         basis);

/* Functions: 0 … n-1, in the order they were first seen. A function's
 * module is "" when it has none. */
guint              ps_call_tree_get_n_functions (PsCallTree         *self);
const char        *ps_call_tree_get_function_name (PsCallTree       *self,
                                                 guint32             function);
const char        *ps_call_tree_get_function_module (PsCallTree     *self,
                                                 guint32             function);
const PsCallStats *ps_call_tree_get_function_stats (PsCallTree      *self,
                                                 guint32             function);
/* A function by name (first match, any module), or PS_NONE */
guint32            ps_call_tree_lookup_function (PsCallTree         *self,
                                                 const char         *name);

/* Addresses. A frame without a function name is an address: in an hwpmc
 * log read without the module's symbols, "libc.so.7+0x4a2f0" (an offset
 * in the module); in pmcstat -G text, a name that is a hexadecimal number
 * ("0xb768a"). Each one is a function of its own, so a run without
 * symbols has as many functions as distinct addresses, each with a few
 * samples. With options->group_addresses, the addresses of one module are
 * one function instead: named after the module's file ("libc.so.7"; "[unknown]"
 * for addresses outside every module), its module the module's path, and
 * consecutive frames of it on a stack are one call of it (code without
 * names cannot tell a call inside the module from a jump). The addresses
 * stay readable one by one: each has the values it would have had as a
 * function of its own (inclusive once per sample that has it anywhere on
 * its stack, exclusive when it was the sampled one), in the order first
 * seen. */

/* Whether a frame of the store is such an address */
gboolean           ps_call_tree_frame_is_address (PsEventStore      *store,
                                                 guint32             frame);
/* 0 for a function that stands for no addresses */
guint              ps_call_tree_get_n_function_addresses (PsCallTree *self,
                                                 guint32             function);
/* The address's own name ("libc.so.7+0x4a2f0", "0xb768a") */
const char        *ps_call_tree_get_function_address_name (PsCallTree *self,
                                                 guint32             function,
                                                 guint               index);
/* Its values, as a function of its own would have them (calls are 0) */
void               ps_call_tree_get_function_address_stats (PsCallTree *self,
                                                 guint32             function,
                                                 guint               index,
                                                 PsCallStats        *stats);

/* Top-down tree. Node PS_CALL_NODE_ROOT is the root ("<root>": calls 0,
 * inclusive values = the totals). Children in the order first seen. */
guint              ps_call_tree_get_n_children  (PsCallTree         *self,
                                                 guint32             node);
guint32            ps_call_tree_get_child       (PsCallTree         *self,
                                                 guint32             node,
                                                 guint               index);
guint32            ps_call_tree_get_parent      (PsCallTree         *self,
                                                 guint32             node); /* PS_NONE for the root */
guint32            ps_call_tree_get_node_function (PsCallTree       *self,
                                                 guint32             node); /* PS_NONE for the root */
guint              ps_call_tree_get_node_depth  (PsCallTree         *self,
                                                 guint32             node); /* root 0 */
const PsCallStats *ps_call_tree_get_node_stats  (PsCallTree         *self,
                                                 guint32             node);
/* The same values, written into *stats without being kept: a walk over
 * every node of a big computed tree with ps_call_tree_get_node_stats ()
 * leaves 168 bytes a node made behind */
void               ps_call_tree_copy_node_stats (PsCallTree         *self,
                                                 guint32             node,
                                                 PsCallStats        *stats);
guint              ps_call_tree_get_n_nodes     (PsCallTree         *self);

/* Bottom-up tree, built on first use, one node's children at a time (a
 * whole bottom-up tree of deep stacks grows with the square of the depth):
 * its root's children are the functions that have values (as in the
 * summary), their children the callers, each with the part of the
 * function's values that came through that path (the sum of the outermost
 * top-down nodes of the function below it). Node ids are valid once
 * returned by ps_call_tree_get_callers_child (); the root is
 * PS_CALL_NODE_ROOT (function PS_NONE, stats like the top-down root). */
guint              ps_call_tree_get_n_callers_children (PsCallTree  *self,
                                                 guint32             node);
guint32            ps_call_tree_get_callers_child (PsCallTree       *self,
                                                 guint32             node,
                                                 guint               index);
guint32            ps_call_tree_get_callers_node_function (PsCallTree *self,
                                                 guint32             node);
const PsCallStats *ps_call_tree_get_callers_node_stats (PsCallTree  *self,
                                                 guint32             node);

/* Callers and callees of one function (spec §3 "Caller/Callee"): a caller
 * row is the part of the function's values from calls by that caller (the
 * callers sum to the function's inclusive values and calls; a function
 * called from the top of a stack has the caller PS_NONE); a callee row is
 * the time in that callee when called by the function. */
typedef struct
{
  guint32     function;   /* PS_NONE: no caller (an entry point) */
  PsCallStats stats;
} PsCallRelation;

/* GArray of PsCallRelation, largest elapsed inclusive first; free with
 * g_array_unref (). Reports give them as given when they had any caller or
 * callee rows, else they are derived from the top-down tree like those of
 * computed trees: the outermost top-down nodes of the function, by the
 * function of their parent (callers) and by the functions of their
 * children (callees). */
GArray            *ps_call_tree_get_callers     (PsCallTree         *self,
                                                 guint32             function);
GArray            *ps_call_tree_get_callees     (PsCallTree         *self,
                                                 guint32             function);

G_END_DECLS

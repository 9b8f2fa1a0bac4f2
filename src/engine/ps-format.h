/* ps-format.h — the registry of file formats and the push-parser contract
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each format sniffs the first bytes of a file (the name is a hint only) and
 * makes push parsers: feed() any number of chunks split at any byte, then
 * finish(). The same code therefore parses files, pipes and test buffers.
 * A parser returns FALSE from feed()/finish() only for a fatal error (the
 * content cannot be read any further); everything appended before stays.
 */
#pragma once

#include "ps-store-builder.h"

G_BEGIN_DECLS

typedef struct _PsParser PsParser;

/* Optional two stages of feed(), which the loader runs as a pipeline:
 * scan() cuts a chunk into the parser's own intermediate form, one chunk
 * after the other in a thread of its own, and apply() takes each result
 * in the loader's thread, in the same order, and is the only stage that
 * touches the store. The chunk's bytes stay valid until its apply() has
 * returned. feed() must give exactly what scan() and apply() in one go
 * give; results that are never applied are released by free(). */
typedef struct
{
  gpointer (*scan)  (PsParser      *parser,
                     const guint8  *data,
                     gsize          length);
  gboolean (*apply) (PsParser      *parser,
                     gpointer       scanned,
                     GError       **error);
  /* Reading stops after the last chunk applied (the loader's limit of
   * events): forget what was scanned beyond it, including the line or
   * record that continues past it, so that finish () ends there without
   * reporting a cut record. May be NULL. */
  void     (*stop_scanning) (PsParser *parser);
} PsParserStages;

/* The results of a scanning stage, made once and used again: taken on
 * the scanning thread, given back on the applying one (emptied), and
 * all freed with the pool, applied or not */
typedef struct _PsBatchPool PsBatchPool;

PsBatchPool *ps_batch_pool_new       (gpointer      (*batch_new) (void),
                                      GDestroyNotify  batch_free);
gpointer     ps_batch_pool_take      (PsBatchPool    *self);
void         ps_batch_pool_give_back (PsBatchPool    *self,
                                      gpointer        batch);
void         ps_batch_pool_free      (PsBatchPool    *self);

typedef struct
{
  gboolean (*feed)   (PsParser      *parser,
                      const guint8  *data,
                      gsize          length,
                      GError       **error);
  gboolean (*finish) (PsParser      *parser,
                      GError       **error);
  void     (*free)   (PsParser      *parser);
} PsParserClass;

struct _PsParser
{
  const PsParserClass *klass;
  PsStoreBuilder      *builder;   /* not owned */
  char                *file_name; /* the input's base name, or NULL: a hint (RTL: the pid) */
  const PsParserStages *stages;   /* NULL unless the parser has them */
  GHashTable          *options;   /* string → string, or NULL: see ps_parser_get_option () */
  guint64              error_offset; /* see ps_parser_set_error_offset () */
};

/* How many bytes the loader offers to sniff() at most */
#define PS_FORMAT_SNIFF_SIZE 65536

typedef struct
{
  const char         *name;          /* stable id, e.g. "ce-perflog" (docs/cli.md, "formats") */
  const char         *display_name;  /* N_() marked */
  const char         *description;   /* N_() marked */
  const char * const *extensions;    /* NULL-terminated, without dot; hints only */
  const char * const *mime_types;    /* NULL-terminated, may be NULL */
  /* 0 (not this format) … 100 (certain) */
  guint     (*sniff)      (const guint8 *data,
                           gsize         length,
                           const char   *file_name);
  PsParser *(*parser_new) (PsStoreBuilder *builder);
} PsFormat;

const PsFormat * const *ps_format_list    (guint          *n_formats);
const PsFormat         *ps_format_lookup  (const char     *name);
/* The best match above the minimum score, or NULL */
const PsFormat         *ps_format_sniff   (const guint8   *data,
                                           gsize           length,
                                           const char     *file_name,
                                           guint          *score);
/* The format of a file by its first PS_FORMAT_SNIFF_SIZE bytes and its
 * name, as the loader finds it; NULL when it cannot be read or is of no
 * known format. Blocks: a file elsewhere than on a local disk is read in
 * a thread. */
const PsFormat         *ps_format_sniff_file (GFile        *file,
                                              GCancellable *cancellable);

PsParser *ps_format_new_parser (const PsFormat  *format,
                                PsStoreBuilder  *builder);
/* Before the first feed() */
void      ps_parser_set_file_name (PsParser     *parser,
                                const char      *file_name);
/* A table of options (string → string), made on first use; NULL removes
 * the key. What the loader and a parser keep their options in. */
void      ps_format_options_set (GHashTable    **options,
                                const char      *key,
                                const char      *value);
/* "true": a format whose parser sums its spans up per name as it reads
 * (RTL) keeps only those totals, and neither the spans nor the messages
 * (ps_event_store_get_spans_summarized ()): what perfscope-cli stats
 * needs without filters, in a fraction of the memory. Others ignore it.
 * Given like the loader's options, which go on to the parser. */
#define PS_FORMAT_OPTION_TOTALS_ONLY "totals-only"

/* The code page of 8-bit text that is not UTF-8 (pdh-csv), a name
 * g_iconv_open () knows ("WINDOWS-1251"), instead of the one guessed */
#define PS_FORMAT_OPTION_ENCODING "encoding"

/* The recording machine's offset from UTC in minutes east ("180" for
 * UTC+3), for logs whose local times name no zone (pdh-csv) */
#define PS_FORMAT_OPTION_UTC_OFFSET "utc-offset"

/* Options a user gives a format (hwpmc-pmclog: "sysroot", "address-width");
 * before the first feed(). A format ignores the options it does not know. */
void      ps_parser_set_option (PsParser        *parser,
                                const char      *key,
                                const char      *value);
/* Every option of a table (string → string), e.g. the loader's */
void      ps_parser_set_options (PsParser       *parser,
                                GHashTable      *options);
const char *ps_parser_get_option (PsParser      *parser,
                                const char      *key);
gboolean  ps_parser_feed       (PsParser        *parser,
                                const guint8    *data,
                                gsize            length,
                                GError         **error);
gboolean  ps_parser_finish     (PsParser        *parser,
                                GError         **error);
/* A parser whose fatal error names the byte offset where the input
 * stopped being usable sets it before feed()/finish() returns FALSE; the
 * loader reports it as the bytes read instead of where the failing chunk
 * began. PS_NO_POSITION (the default): the error names none. */
void      ps_parser_set_error_offset (PsParser  *parser,
                                guint64          offset);
guint64   ps_parser_get_error_offset (PsParser  *parser);
void      ps_parser_free       (PsParser        *parser);
/* The two stages, if the parser has them (see PsParserStages) */
gboolean  ps_parser_has_stages (PsParser        *parser);
gpointer  ps_parser_scan       (PsParser        *parser,
                                const guint8    *data,
                                gsize            length);
gboolean  ps_parser_apply      (PsParser        *parser,
                                gpointer         scanned,
                                GError         **error);
void      ps_parser_stop_scanning (PsParser     *parser);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsParser, ps_parser_free)

/* Formats, defined in formats/ */
extern const PsFormat ps_format_ce_perflog;
extern const PsFormat ps_format_rtl_logfile;
extern const PsFormat ps_format_vs_report_csv;
extern const PsFormat ps_format_hwpmc_pmclog;
extern const PsFormat ps_format_pmcstat_callgraph;
extern const PsFormat ps_format_pdh_csv;
extern const PsFormat ps_format_perflib_plv2;
extern const PsFormat ps_format_native;

G_END_DECLS

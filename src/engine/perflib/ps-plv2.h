/* ps-plv2.h — the PLV2 capture container: a streaming reader and a writer
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §8 (the container, our own format: file header
 * §8.1, record framing §8.2, record types §8.3, ordering §8.4, the
 * recorder's obligations §8.5) and §9.4 (the cases it survives).
 *
 * The reader knows records, not PerfLib: it checks the file header, the
 * framing, the CRC-32 and the sequence number of each record, decodes the
 * fixed fields at the start of the payload of each record type of §8.3
 * (generation, status, times, GUID) and hands the rest of the payload
 * (the verbatim Microsoft buffers) over untouched. Input comes in chunks
 * split at any byte.
 *
 * What the reader reports:
 *  - records, through PsPlv2Callbacks.record, in file order; the
 *    pointers inside a record are valid only during the callback;
 *  - problems, through PsPlv2Callbacks.warning with a code and the byte
 *    offset of the record. A damaged record (CRC mismatch, impossible
 *    payload size, sequence gap: "W-PLV2-CRC", "W-PLV2-LENGTH",
 *    "W-PLV2-SEQUENCE") ends the reading there, as §8.2 says: the
 *    framing after it cannot be trusted, so there is no resynchronisation;
 *    the records before it are the salvaged prefix, and the reader ignores
 *    the rest of the input (ps_plv2_reader_is_damaged()). Other warnings
 *    are read past: "W-PLV2-UNKNOWN-TYPE" (skipped), "W-PLV2-PADDING"
 *    (non-zero padding), "W-PLV2-SHORT-PAYLOAD" (a known type whose payload
 *    is shorter than its fixed fields: skipped), "W-PLV2-FLAGS",
 *    "W-PLV2-HEADER", "W-PLV2-AFTER-END", "W-PLV2-NO-QUERY" and
 *    "W-PLV2-GENERATION" (§8.4 ordering: the record is delivered with a
 *    flag, the consumer skips it), "W-PLV2-NO-END" (at finish: no
 *    END record, the recorder did not close the file);
 *  - fatal errors as a GError in PS_ERROR whose message names the byte
 *    offset: wrong magic (PS_ERROR_UNKNOWN_FORMAT), a version_major other
 *    than 1 or an unknown record type with the must-understand bit
 *    (PS_ERROR_UNSUPPORTED_VERSION), an impossible header_size
 *    (PS_ERROR_PARSE), and at finish a truncated header or final record
 *    (PS_ERROR_TRUNCATED, "truncated after N samples"). Every record
 *    before the error has been delivered.
 * Byte offsets count from the start of the file.
 */
#pragma once

#include <gio/gio.h>

#include "ps-parse-kit.h"

G_BEGIN_DECLS

#define PS_PLV2_MAGIC               "PLV2CAP"   /* 8 bytes with the NUL */
#define PS_PLV2_VERSION_MAJOR       1
#define PS_PLV2_VERSION_MINOR       0
#define PS_PLV2_HEADER_SIZE         64
#define PS_PLV2_RECORD_HEADER_SIZE  16
#define PS_PLV2_MAX_PAYLOAD         0x40000000u
#define PS_PLV2_MUST_UNDERSTAND     0x80000000u
#define PS_PLV2_FLAG_CRC            0x00000001u

/* specs: perflib-v2.md §8.3 */
typedef enum
{
  PS_PLV2_RECORD_SESSION        = 1,
  PS_PLV2_RECORD_COUNTERSET_REG = 2,
  PS_PLV2_RECORD_QUERY          = 3,
  PS_PLV2_RECORD_SAMPLE         = 4,
  PS_PLV2_RECORD_INSTANCES      = 5,
  PS_PLV2_RECORD_ANNOTATION     = 6,
  PS_PLV2_RECORD_END            = 7,
} PsPlv2RecordType;

/* specs: perflib-v2.md §8.1 */
typedef struct
{
  guint16 version_major;
  guint16 version_minor;
  guint32 header_size;
  guint32 flags;
  gint64  created_utc;        /* 100 ns since 1601 UTC */
  gint64  qpc_frequency;
  gint32  tz_bias_minutes;    /* UTC = local + bias */
  guint8  session_id[16];
} PsPlv2Header;

/* specs: perflib-v2.md §8.4 — ordering problems the container can see
 * without decoding the PerfLib buffers (the COUNTERSET_REG a QUERY needs
 * is the decoder's to check) */
typedef enum
{
  PS_PLV2_RECORD_FLAG_NONE         = 0,
  PS_PLV2_RECORD_FLAG_NO_QUERY     = 1 << 0, /* SAMPLE: no QUERY of its generation came before */
  PS_PLV2_RECORD_FLAG_OUT_OF_ORDER = 1 << 1, /* QUERY: generation not above the previous QUERY's */
} PsPlv2RecordFlags;

typedef struct
{
  guint32       type;          /* as written, the must-understand bit included */
  guint32       flags;         /* PsPlv2RecordFlags */
  guint32       seq;
  guint64       offset;        /* byte offset of the record header */
  const guint8 *payload;       /* the whole payload */
  gsize         payload_size;

  /* The fixed fields of §8.3, decoded for the known types */
  guint32       generation;    /* QUERY, SAMPLE */
  guint32       win32_status;  /* SAMPLE */
  gboolean      has_utc;
  gint64        utc;           /* SAMPLE and INSTANCES writer_utc, ANNOTATION utc, END last_utc */
  guint8        guid[16];      /* COUNTERSET_REG, INSTANCES; zero otherwise */
  guint32       entry_count;   /* COUNTERSET_REG */
  guint64       sample_count;  /* END */
  /* What follows the fixed fields: SESSION and ANNOTATION text (not
   * NUL-terminated), COUNTERSET_REG entries, the QUERY identifier list,
   * the SAMPLE data buffer, the INSTANCES output; the whole payload for
   * unknown types, the appended fields of a later minor version for END */
  const guint8 *body;
  gsize         body_size;
} PsPlv2Record;

/* One COUNTERSET_REG entry (§8.3) */
typedef struct
{
  guint32       request_code;  /* PerfRegInfoType */
  guint32       lang_id;
  guint32       win32_status;
  const guint8 *data;
  gsize         data_size;
} PsPlv2RegEntry;

typedef struct
{
  /* Once, when the file header has been read and accepted. May be NULL. */
  gboolean (*header)  (const PsPlv2Header *header,
                       gpointer            user_data,
                       GError            **error);
  /* Each record, in file order. Return FALSE to stop: feed () and
   * finish () then return FALSE with the error set here (or a generic one
   * when NULL). */
  gboolean (*record)  (const PsPlv2Record *record,
                       gpointer            user_data,
                       GError            **error);
  /* A problem, with the byte offset of the record it is about. May be NULL. */
  PsReaderWarningFunc warning;
} PsPlv2Callbacks;

typedef struct _PsPlv2Reader PsPlv2Reader;

PsPlv2Reader *ps_plv2_reader_new          (const PsPlv2Callbacks *callbacks,
                                           gpointer               user_data);
void          ps_plv2_reader_free         (PsPlv2Reader          *self);
/* Any chunk size, 0 included. FALSE on a fatal error (or when a callback
 * stopped); later feeds fail. After a damaged record the input is
 * ignored and feed () returns TRUE. */
gboolean      ps_plv2_reader_feed         (PsPlv2Reader          *self,
                                           const guint8          *data,
                                           gsize                  length,
                                           GError               **error);
/* Takes no more input: the record begun in the input so far is dropped,
 * later feeds are ignored and finish () succeeds */
void          ps_plv2_reader_stop         (PsPlv2Reader          *self);
/* End of input: FALSE when the input ends inside the file header or a
 * record. */
gboolean      ps_plv2_reader_finish       (PsPlv2Reader          *self,
                                           GError               **error);
/* NULL until the file header has been read */
const PsPlv2Header *ps_plv2_reader_get_header (PsPlv2Reader      *self);
/* Records delivered, SAMPLE records among them */
guint64       ps_plv2_reader_get_n_records (PsPlv2Reader         *self);
guint64       ps_plv2_reader_get_n_samples (PsPlv2Reader         *self);
gboolean      ps_plv2_reader_has_end      (PsPlv2Reader          *self);
/* TRUE after a damaged record; *offset (may be NULL) is its byte offset */
gboolean      ps_plv2_reader_is_damaged   (PsPlv2Reader          *self,
                                           guint64               *offset);

/* 100 when the data starts with the magic, else 0 */
guint         ps_plv2_sniff               (const guint8          *data,
                                           gsize                  length);
/* CRC-32 as zlib's crc32 () computes it (IEEE 802.3, reflected, start 0) */
guint32       ps_plv2_crc32               (guint32                crc,
                                           const guint8          *data,
                                           gsize                  length);
/* "SAMPLE", …, "UNKNOWN" */
const char   *ps_plv2_record_type_to_string (guint32              type);

/* The entries of a COUNTERSET_REG record's body. next () is FALSE at
 * the end, or with *error set on a malformed entry (the record is then
 * unusable from that entry on). */
typedef struct
{
  const guint8 *data;
  gsize         size;
  gsize         position;
  guint32       remaining;
  guint64       offset;        /* the record's, for messages */
} PsPlv2RegIter;

void          ps_plv2_reg_iter_init       (PsPlv2RegIter         *iter,
                                           const PsPlv2Record    *record);
gboolean      ps_plv2_reg_iter_next       (PsPlv2RegIter         *iter,
                                           PsPlv2RegEntry        *entry,
                                           GError               **error);

/* The writer: what a recorder and the tests use. It numbers records,
 * computes CRCs and padding, and counts SAMPLE records for END. */
typedef struct _PsPlv2Writer PsPlv2Writer;

/* version 1.0, header_size 64, flags PS_PLV2_FLAG_CRC, the rest 0 */
void          ps_plv2_header_init         (PsPlv2Header          *header);

/* header NULL: ps_plv2_header_init (); a header_size above 64 is padded
 * with zeros. The stream writer flushes after each record (§8.5) and
 * writes the file header at once. */
PsPlv2Writer *ps_plv2_writer_new_for_stream     (GOutputStream      *stream,
                                                 const PsPlv2Header *header,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
PsPlv2Writer *ps_plv2_writer_new_for_byte_array (GByteArray         *array,
                                                 const PsPlv2Header *header);
void          ps_plv2_writer_free               (PsPlv2Writer       *self);

/* Any record, with the next sequence number */
gboolean      ps_plv2_writer_add_record         (PsPlv2Writer       *self,
                                                 guint32             type,
                                                 const guint8       *payload,
                                                 gsize               payload_size,
                                                 GError            **error);
/* key_values: key, value, key, value, …, NULL */
gboolean      ps_plv2_writer_add_session        (PsPlv2Writer       *self,
                                                 const char * const *key_values,
                                                 GError            **error);
gboolean      ps_plv2_writer_add_counterset_reg (PsPlv2Writer       *self,
                                                 const guint8        guid[16],
                                                 const PsPlv2RegEntry *entries,
                                                 guint               n_entries,
                                                 GError            **error);
gboolean      ps_plv2_writer_add_query          (PsPlv2Writer       *self,
                                                 guint32             generation,
                                                 const guint8       *identifiers,
                                                 gsize               size,
                                                 GError            **error);
/* A non-zero status writes no buffer (§8.4 rule 5) */
gboolean      ps_plv2_writer_add_sample         (PsPlv2Writer       *self,
                                                 guint32             generation,
                                                 guint32             win32_status,
                                                 gint64              writer_utc,
                                                 const guint8       *buffer,
                                                 gsize               size,
                                                 GError            **error);
gboolean      ps_plv2_writer_add_instances      (PsPlv2Writer       *self,
                                                 const guint8        guid[16],
                                                 gint64              writer_utc,
                                                 const guint8       *data,
                                                 gsize               size,
                                                 GError            **error);
gboolean      ps_plv2_writer_add_annotation     (PsPlv2Writer       *self,
                                                 gint64              utc,
                                                 const char         *text,
                                                 GError            **error);
/* sample_count: the SAMPLE records written so far */
gboolean      ps_plv2_writer_add_end            (PsPlv2Writer       *self,
                                                 gint64              last_utc,
                                                 GError            **error);
guint32       ps_plv2_writer_get_n_records      (PsPlv2Writer       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsPlv2Reader, ps_plv2_reader_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PsPlv2Writer, ps_plv2_writer_free)

G_END_DECLS

/* ps-pmclog-private.h — what the pmclog reader's framing and its record
 * decoding share
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §1 (framing, byte order, address width).
 */
#pragma once

#include <glib.h>

#include "ps-pmclog.h"

G_BEGIN_DECLS

/* specs: hwpmc-pmclog.md §7.4 — the largest record is 65535 bytes; a
 * container info block may reach 8 + 65535 bytes. */
#define ACCUM_SIZE         (65536 + 8)
/* Resynchronisation needs a candidate record and the next header word. */
#define WINDOW_MAX         (2 * 65536 + 8)
#define MAX_SLOTS          (65536 / 4)
#define RECORD_MAGIC       0xEEu
#define CONTAINER_MAGIC    0x504D434Cu
#define CONTAINER_END      0
#define CONTAINER_SYSINFO  1
#define SYSINFO_FIELD      64
#define MODERN_MAX_DEPTH   512   /* specs: hwpmc-pmclog.md §3.3, §9.1 */
#define LEGACY_MAX_DEPTH   128   /* specs: hwpmc-pmclog.md §11 (10.x–11.x) */
#define PATH_MAX_BYTES     1024
#define CPUID_FIELD        64
#define COMM_FIELD         20
#define DYN_NAME_FIELD     64
#define NO_TYPE            0xFF

typedef enum
{
  STATE_START,
  STATE_CONTAINER_HEADER,
  STATE_CONTAINER_BLOCK,
  STATE_RECORDS,
  STATE_RESYNC,
  STATE_FAILED,
} State;

typedef enum
{
  HEADER_OK,
  HEADER_UNKNOWN_TYPE,
  HEADER_BAD,
} HeaderCheck;

/* What a record's header word says: its length (the header's included)
 * and its type, NO_TYPE where the code is unknown */
typedef struct
{
  guint  length;
  guint8 type;
} RecordHeader;

typedef enum
{
  UNIT_OK,
  UNIT_FAILED,
  UNIT_RESYNC,
} UnitResult;

/* §3.3: min and max are in bytes; max 0 means "up to 65532"; a fixed
 * type of length min that is longer is accepted with the LONGER flag. */
typedef struct
{
  guint16  min;
  guint16  max;
  gboolean fixed;
} TypeBounds;

struct _PsPmclogReader
{
  PsPmclogOptions    options;
  PsPmclogCallbacks  callbacks;
  gpointer           user_data;

  State              state;
  PsPmclogGeneration generation;
  gboolean           big_endian;
  gboolean           container_big_endian;
  gboolean           has_container;
  guint16            container_version;
  guint16            container_architecture;
  guint              address_width;   /* 0: not known yet */
  guint32            version;
  guint              header_size;
  guint              max_depth;
  gboolean           two_address_exec;
  gboolean           closed;
  gboolean           warned_after_close;
  gboolean           in_callback;

  guint64            offset;
  guint64            number;
  const guint8      *type_map;        /* file type code → PsPmclogType or NO_TYPE */
  TypeBounds         bounds[PS_PMCLOG_N_TYPES];

  guint8            *accum;
  gsize              accum_len;
  gsize              accum_need;      /* 0 while the unit's length is unknown */

  GByteArray        *window;          /* resync: bytes from self->offset on */
  gsize              window_start;
  guint64            resync_from;

  guint64           *pcs;
  PsPmclogPart       parts[4];
  char              *string;
  char               cpuid[CPUID_FIELD + 1];
  char               cpu_model[SYSINFO_FIELD + 1];
  char               os_release[SYSINFO_FIELD + 1];
  char               build_id[SYSINFO_FIELD + 1];
};


/* Defined in one file, used in the other */

void
pmclog_warn (PsPmclogReader *self,
             const char     *code,
             guint64         offset,
             const char     *format,
             ...) G_GNUC_PRINTF (4, 5);

void
pmclog_set_address_width (PsPmclogReader *self,
                          guint           width);

HeaderCheck
pmclog_check_header (PsPmclogReader *self,
                     guint32         word,
                     guint64         offset,
                     RecordHeader   *out_header,
                     GError        **error);

gboolean
pmclog_header_plausible (PsPmclogReader *self,
                         guint32         word,
                         guint          *out_length);

const char *
pmclog_copy_string (char         *dest,
                    const guint8 *p,
                    gsize         available,
                    guint32      *flags);

gboolean
pmclog_deliver (PsPmclogReader *self,
                PsPmclogRecord *record,
                GError        **error);

gboolean
pmclog_process_record (PsPmclogReader *self,
                       const guint8   *p,
                       guint           length,
                       guint8          type,
                       GError        **error);

/* Inline for the hot paths of both files */

static inline guint32
load32 (const guint8 *p,
        gboolean      big_endian)
{
  guint32 value;

  memcpy (&value, p, sizeof value);
  return big_endian ? GUINT32_FROM_BE (value) : GUINT32_FROM_LE (value);
}

static inline guint64
load64_words (const guint8 *p,
              gboolean      big_endian)
{
  return (guint64) load32 (p, big_endian) | ((guint64) load32 (p + 4, big_endian) << 32);
}

static inline guint64
load64_native (const guint8 *p,
               gboolean      big_endian)
{
  guint64 value;

  memcpy (&value, p, sizeof value);
  return big_endian ? GUINT64_FROM_BE (value) : GUINT64_FROM_LE (value);
}

static inline guint32
rd32 (const PsPmclogReader *self,
      const guint8         *p)
{
  return load32 (p, self->big_endian);
}

static inline guint64
rd64 (const PsPmclogReader *self,
      const guint8         *p)
{
  return load64_words (p, self->big_endian);
}

static inline guint64
rd_addr (const PsPmclogReader *self,
         const guint8         *p,
         guint                 width)
{
  return width == 8 ? rd64 (self, p) : rd32 (self, p);
}

/* §1.7 rule 4: the high half of a 64-bit address is that of a canonical
 * user (small) or kernel (all ones) address. */
static inline gboolean
high_half_plausible (guint32 high)
{
  return high <= 0xFFFFu || high >= 0xFFFF0000u;
}

G_END_DECLS

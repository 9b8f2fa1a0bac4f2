/* ps-pmclog.c — a streaming reader of FreeBSD hwpmc(4) event logs
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: hwpmc-pmclog.md §1 (framing, byte order, sniffing, address width,
 * the pmc(8) container, validation), §2 (versions and the PROCEXEC
 * layouts), §3.3 (size bounds), §4 (modern layouts), §4.9 (multipart
 * callchains), §7.3–§7.4 (what the reference reader gets wrong and the
 * streaming design), §11 (legacy layouts), §12 (the cases it survives).
 *
 * The input is cut into units: the container header, container info
 * blocks and records. A unit that is complete in the caller's chunk is
 * decoded where it lies; only a unit split across chunks is copied, into
 * an accumulation buffer big enough for the largest encodable one. The
 * header word of a record is validated as soon as it is available, so a
 * corrupt length never makes the reader wait for (or copy) bytes it will
 * not use. Decoding happens only once a unit is complete, so records and
 * warnings come out in the same order whatever the chunking.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-parse-kit.h"
#include "ps-pmclog.h"

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

/* specs: hwpmc-pmclog.md §3.1 */
static guint8 legacy_types[256];
static guint8 modern_types[256];

static void
init_type_maps (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      static const struct { guint8 code; guint8 type; } legacy[] = {
        { 0, PS_PMCLOG_CLOSELOG }, { 1, PS_PMCLOG_DROPNOTIFY }, { 2, PS_PMCLOG_INITIALIZE },
        { 4, PS_PMCLOG_PCSAMPLE }, { 5, PS_PMCLOG_PMCALLOCATE }, { 6, PS_PMCLOG_PMCATTACH },
        { 7, PS_PMCLOG_PMCDETACH }, { 8, PS_PMCLOG_PROCCSW }, { 9, PS_PMCLOG_PROCEXEC },
        { 10, PS_PMCLOG_PROCEXIT }, { 11, PS_PMCLOG_PROCFORK }, { 12, PS_PMCLOG_SYSEXIT },
        { 13, PS_PMCLOG_USERDATA }, { 14, PS_PMCLOG_MAP_IN }, { 15, PS_PMCLOG_MAP_OUT },
        { 16, PS_PMCLOG_CALLCHAIN }, { 17, PS_PMCLOG_PMCALLOCATEDYN },
      };
      static const struct { guint8 code; guint8 type; } modern[] = {
        { 1, PS_PMCLOG_CLOSELOG }, { 2, PS_PMCLOG_DROPNOTIFY }, { 3, PS_PMCLOG_INITIALIZE },
        { 5, PS_PMCLOG_PMCALLOCATE }, { 6, PS_PMCLOG_PMCATTACH },
        { 7, PS_PMCLOG_PMCDETACH }, { 8, PS_PMCLOG_PROCCSW }, { 9, PS_PMCLOG_PROCEXEC },
        { 10, PS_PMCLOG_PROCEXIT }, { 11, PS_PMCLOG_PROCFORK }, { 12, PS_PMCLOG_SYSEXIT },
        { 13, PS_PMCLOG_USERDATA }, { 14, PS_PMCLOG_MAP_IN }, { 15, PS_PMCLOG_MAP_OUT },
        { 16, PS_PMCLOG_CALLCHAIN }, { 17, PS_PMCLOG_PMCALLOCATEDYN },
        { 18, PS_PMCLOG_THR_CREATE }, { 19, PS_PMCLOG_THR_EXIT }, { 20, PS_PMCLOG_PROC_CREATE },
      };

      memset (legacy_types, NO_TYPE, sizeof legacy_types);
      memset (modern_types, NO_TYPE, sizeof modern_types);
      for (guint i = 0; i < G_N_ELEMENTS (legacy); i++)
        legacy_types[legacy[i].code] = legacy[i].type;
      for (guint i = 0; i < G_N_ELEMENTS (modern); i++)
        modern_types[modern[i].code] = modern[i].type;
      g_once_init_leave (&initialized, 1);
    }
}

const char *
ps_pmclog_type_to_string (PsPmclogType type)
{
  static const char *const names[] = {
    "CLOSELOG", "DROPNOTIFY", "INITIALIZE", "PCSAMPLE", "PMCALLOCATE",
    "PMCATTACH", "PMCDETACH", "PROCCSW", "PROCEXEC", "PROCEXIT", "PROCFORK",
    "SYSEXIT", "USERDATA", "MAP_IN", "MAP_OUT", "CALLCHAIN", "PMCALLOCATEDYN",
    "THR_CREATE", "THR_EXIT", "PROC_CREATE", "CONTAINER_INFO",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == PS_PMCLOG_N_TYPES);

  if ((guint) type < G_N_ELEMENTS (names))
    return names[type];
  return "UNKNOWN";
}

/* Loads. specs: hwpmc-pmclog.md §1.2 — every field is a 32-bit word in
 * the writer's byte order; 64-bit values are two words, low word first,
 * except the modern header tsc and the INITIALIZE timespec (native). */

static inline guint32
load32 (const guint8 *p,
        gboolean      big_endian)
{
  guint32 value;

  memcpy (&value, p, sizeof value);
  return big_endian ? GUINT32_FROM_BE (value) : GUINT32_FROM_LE (value);
}

static inline guint16
load16 (const guint8 *p,
        gboolean      big_endian)
{
  guint16 value;

  memcpy (&value, p, sizeof value);
  return big_endian ? GUINT16_FROM_BE (value) : GUINT16_FROM_LE (value);
}

static inline guint64
load64_native (const guint8 *p,
               gboolean      big_endian)
{
  guint64 value;

  memcpy (&value, p, sizeof value);
  return big_endian ? GUINT64_FROM_BE (value) : GUINT64_FROM_LE (value);
}

static inline guint64
load64_words (const guint8 *p,
              gboolean      big_endian)
{
  return (guint64) load32 (p, big_endian) | ((guint64) load32 (p + 4, big_endian) << 32);
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

static void
warn (PsPmclogReader *self,
      const char     *code,
      guint64         offset,
      const char     *format,
      ...) G_GNUC_PRINTF (4, 5);

static void
warn (PsPmclogReader *self,
      const char     *code,
      guint64         offset,
      const char     *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (self->callbacks.warning == NULL)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  self->callbacks.warning (code, offset, message, self->user_data);
}

/* specs: hwpmc-pmclog.md §3.3 — the bounds for the current generation and
 * address width; an unknown width takes the loosest of both. */
static void
update_bounds (PsPmclogReader *self)
{
  guint w = self->address_width;
  guint wmin = w != 0 ? w : 4;
  guint wmax = w != 0 ? w : 8;
  TypeBounds *b = self->bounds;

  memset (b, 0, sizeof self->bounds);

#define FIXED(type, length) b[type] = (TypeBounds) { (length), 0, TRUE }
#define RANGE(type, lo, hi) b[type] = (TypeBounds) { (lo), (hi), FALSE }

  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      /* specs: hwpmc-pmclog.md §11 */
      FIXED (PS_PMCLOG_CLOSELOG, 12);
      FIXED (PS_PMCLOG_DROPNOTIFY, 12);
      FIXED (PS_PMCLOG_INITIALIZE, 20);
      if (w != 0)
        FIXED (PS_PMCLOG_PCSAMPLE, 24 + w);
      else
        RANGE (PS_PMCLOG_PCSAMPLE, 28, 0);
      FIXED (PS_PMCLOG_PMCALLOCATE, 24);
      RANGE (PS_PMCLOG_PMCATTACH, 24, 20 + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PMCDETACH, 20);
      FIXED (PS_PMCLOG_PROCCSW, 28);
      RANGE (PS_PMCLOG_PROCEXEC, 24 + wmin, 20 + wmax + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PROCEXIT, 28);
      FIXED (PS_PMCLOG_PROCFORK, 20);
      FIXED (PS_PMCLOG_SYSEXIT, 16);
      FIXED (PS_PMCLOG_USERDATA, 16);
      RANGE (PS_PMCLOG_MAP_IN, 20 + wmin, 16 + wmax + PATH_MAX_BYTES);
      if (w != 0)
        FIXED (PS_PMCLOG_MAP_OUT, 16 + 2 * w);
      else
        RANGE (PS_PMCLOG_MAP_OUT, 24, 0);
      RANGE (PS_PMCLOG_CALLCHAIN, 24, 0);
      RANGE (PS_PMCLOG_PMCALLOCATEDYN, 24, 0);
    }
  else
    {
      /* specs: hwpmc-pmclog.md §3.3, §4 */
      FIXED (PS_PMCLOG_CLOSELOG, 16);
      FIXED (PS_PMCLOG_DROPNOTIFY, 16);
      RANGE (PS_PMCLOG_INITIALIZE, 104, 0);
      FIXED (PS_PMCLOG_PMCALLOCATE, 40);
      RANGE (PS_PMCLOG_PMCATTACH, 28, 24 + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PMCDETACH, 24);
      FIXED (PS_PMCLOG_PROCCSW, 40);
      /* Either PROCEXEC layout may turn up (§2), so the loosest bounds */
      RANGE (PS_PMCLOG_PROCEXEC, 28 + wmin, 24 + 2 * wmax + PATH_MAX_BYTES);
      FIXED (PS_PMCLOG_PROCEXIT, 32);
      FIXED (PS_PMCLOG_PROCFORK, 24);
      FIXED (PS_PMCLOG_SYSEXIT, 24);
      FIXED (PS_PMCLOG_USERDATA, 24);
      RANGE (PS_PMCLOG_MAP_IN, 28 + wmin, 24 + wmax + PATH_MAX_BYTES);
      if (w != 0)
        FIXED (PS_PMCLOG_MAP_OUT, 24 + 2 * w);
      else
        RANGE (PS_PMCLOG_MAP_OUT, 32, 0);
      RANGE (PS_PMCLOG_CALLCHAIN, 32, 0);
      RANGE (PS_PMCLOG_PMCALLOCATEDYN, 96, 0);
      FIXED (PS_PMCLOG_THR_CREATE, 52);
      FIXED (PS_PMCLOG_THR_EXIT, 24);
      FIXED (PS_PMCLOG_PROC_CREATE, 44);
    }

#undef FIXED
#undef RANGE
}

static void
set_address_width (PsPmclogReader *self,
                   guint           width)
{
  if (self->address_width == width)
    return;
  self->address_width = width;
  update_bounds (self);
}

static void
set_generation (PsPmclogReader     *self,
                PsPmclogGeneration  generation,
                gboolean            big_endian)
{
  self->generation = generation;
  self->big_endian = big_endian;
  if (generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      self->header_size = 12;
      self->type_map = legacy_types;
      self->max_depth = LEGACY_MAX_DEPTH;
    }
  else
    {
      self->header_size = 16;
      self->type_map = modern_types;
      self->max_depth = MODERN_MAX_DEPTH;
      /* Until INITIALIZE says otherwise: the latest layout (§2) */
      self->two_address_exec = TRUE;
    }
  update_bounds (self);
}

PsPmclogReader *
ps_pmclog_reader_new (const PsPmclogOptions   *options,
                      const PsPmclogCallbacks *callbacks,
                      gpointer                 user_data)
{
  PsPmclogReader *self;

  init_type_maps ();

  self = g_new0 (PsPmclogReader, 1);
  if (options != NULL)
    self->options = *options;
  if (callbacks != NULL)
    self->callbacks = *callbacks;
  self->user_data = user_data;
  self->state = STATE_START;
  self->generation = PS_PMCLOG_GENERATION_UNKNOWN;
  self->type_map = modern_types;
  if (self->options.address_width == 4 || self->options.address_width == 8)
    self->address_width = self->options.address_width;
  else
    self->options.address_width = 0;
  self->accum = g_malloc (ACCUM_SIZE);
  self->pcs = g_new (guint64, MAX_SLOTS);
  self->string = g_malloc (65536 + 1);

  return self;
}

void
ps_pmclog_reader_free (PsPmclogReader *self)
{
  if (self == NULL)
    return;
  g_free (self->accum);
  g_free (self->pcs);
  g_free (self->string);
  g_clear_pointer (&self->window, g_byte_array_unref);
  g_free (self);
}

PsPmclogGeneration
ps_pmclog_reader_get_generation (PsPmclogReader *self)
{
  return self->generation;
}

gboolean
ps_pmclog_reader_is_big_endian (PsPmclogReader *self)
{
  return self->big_endian;
}

guint
ps_pmclog_reader_get_address_width (PsPmclogReader *self)
{
  return self->address_width;
}

guint32
ps_pmclog_reader_get_version (PsPmclogReader *self)
{
  return self->version;
}

gboolean
ps_pmclog_reader_has_container (PsPmclogReader *self)
{
  return self->has_container;
}

guint64
ps_pmclog_reader_get_offset (PsPmclogReader *self)
{
  return self->offset;
}

/* Header validation: specs: hwpmc-pmclog.md §1.9 rules 1–4 and §7.3 (the
 * checks libpmc lacks). Pure, so that resynchronisation can use it. */
static HeaderCheck
check_header (PsPmclogReader *self,
              guint32         word,
              guint64         offset,
              guint          *out_length,
              guint8         *out_type,
              GError        **error)
{
  guint magic = word >> 24;
  guint code = (word >> 16) & 0xFF;
  guint length = word & 0xFFFF;
  guint8 type;
  const TypeBounds *bounds;

  if (magic != RECORD_MAGIC)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected the magic byte 0xEE, found 0x%02X"),
                   offset, magic);
      return HEADER_BAD;
    }
  if (length < self->header_size)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a length of at least the %u-byte header, found %u"),
                   offset, self->header_size, length);
      return HEADER_BAD;
    }
  if (length % 4 != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a length that is a multiple of 4, found %u"),
                   offset, length);
      return HEADER_BAD;
    }

  *out_length = length;
  type = self->type_map[code];
  *out_type = type;
  if (type == NO_TYPE)
    return HEADER_UNKNOWN_TYPE;

  bounds = &self->bounds[type];
  if (length < bounds->min)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a %s record of at least %u bytes, found a length of %u"),
                   offset, ps_pmclog_type_to_string (type), bounds->min, length);
      return HEADER_BAD;
    }
  if (bounds->max != 0 && length > bounds->max)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad record header at byte offset %" PRIu64 ": expected a %s record of at most %u bytes, found a length of %u"),
                   offset, ps_pmclog_type_to_string (type), bounds->max, length);
      return HEADER_BAD;
    }

  return HEADER_OK;
}

/* §1.9 rule 6: a plausible resynchronisation point is a known type whose
 * length is within its bounds (exact for fixed types). */
static gboolean
header_plausible (PsPmclogReader *self,
                  guint32         word,
                  guint          *out_length)
{
  guint8 type;

  if (check_header (self, word, 0, out_length, &type, NULL) != HEADER_OK)
    return FALSE;
  if (self->bounds[type].fixed && *out_length != self->bounds[type].min)
    return FALSE;
  return TRUE;
}

/* Strings: specs: hwpmc-pmclog.md §1.5 — bounded by the record (or the
 * field), up to the first NUL; the rest of the field is never read. */
static const char *
copy_string (char         *dest,
             const guint8 *p,
             gsize         available,
             guint32      *flags)
{
  const guint8 *nul = memchr (p, 0, available);
  gsize n = nul != NULL ? (gsize) (nul - p) : available;

  memcpy (dest, p, n);
  dest[n] = '\0';
  if (nul == NULL)
    *flags |= PS_PMCLOG_RECORD_FLAG_NO_NUL;
  return dest;
}

static const char *
copy_tail_string (PsPmclogReader *self,
                  const guint8   *p,
                  guint           length,
                  guint           string_offset,
                  guint32        *flags)
{
  if (string_offset >= length)
    {
      *flags |= PS_PMCLOG_RECORD_FLAG_NO_NUL;
      self->string[0] = '\0';
      return self->string;
    }
  return copy_string (self->string, p + string_offset, length - string_offset, flags);
}

/* A name "holds printable text": printable ASCII up to a NUL or the end. */
static gsize
printable_run (const guint8 *p,
               gsize         available,
               gboolean     *terminated)
{
  gsize i;

  *terminated = FALSE;
  for (i = 0; i < available; i++)
    {
      if (p[i] == 0)
        {
          *terminated = TRUE;
          return i;
        }
      if (p[i] < 0x20 || p[i] > 0x7E)
        return 0;
    }
  return i;
}

static gboolean
deliver (PsPmclogReader *self,
         PsPmclogRecord *record,
         GError        **error)
{
  gboolean ok;
  g_autoptr(GError) local_error = NULL;

  if (self->callbacks.record == NULL)
    return TRUE;

  self->in_callback = TRUE;
  ok = self->callbacks.record (record, self->user_data, &local_error);
  self->in_callback = FALSE;
  if (!ok)
    {
      if (local_error != NULL)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                     _("Reading stopped at the %s record at byte offset %" PRIu64),
                     ps_pmclog_type_to_string (record->type), record->offset);
      return FALSE;
    }
  return TRUE;
}

/* specs: hwpmc-pmclog.md §1.6, §1.7, §2 — the first INITIALIZE fixes the
 * version, the PROCEXEC layout and possibly the address width. */
static gboolean
apply_initialize (PsPmclogReader       *self,
                  const PsPmclogRecord *record,
                  GError              **error)
{
  guint32 version = record->u.initialize.version;
  guint major = version >> 24;
  guint32 cputype = record->u.initialize.cputype;

  if (major >= 0x04 && major <= 0x08)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                   _("INITIALIZE at byte offset %" PRIu64 " has version 0x%08X: unsupported transitional log version (majors 0x04–0x08 only existed in 2018 development snapshots)"),
                   record->offset, version);
      return FALSE;
    }

  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      if (major < 0x01 || major > 0x03)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                       _("INITIALIZE at byte offset %" PRIu64 " has version 0x%08X: expected a major version of 1 to 3 in a legacy (type 2) INITIALIZE"),
                       record->offset, version);
          return FALSE;
        }
    }
  else
    {
      if (major < 0x09)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                       _("INITIALIZE at byte offset %" PRIu64 " has version 0x%08X: expected a major version of 9 or later in a modern (type 3) INITIALIZE"),
                       record->offset, version);
          return FALSE;
        }
      if (major > 0x0A)
        warn (self, "W-PMCLOG-VERSION", record->offset,
              _("Log version 0x%08X is newer than any known (0x0A): reading it with the latest known layout"),
              version);
      self->two_address_exec = major >= 0x0A;
    }

  self->version = version;

  if (self->options.address_width != 0 || self->generation != PS_PMCLOG_GENERATION_MODERN)
    return TRUE;

  /* §1.7 rules 1 and 2 */
  if (record->length < 112)
    set_address_width (self, 4);
  else if (cputype >= 0x500 && cputype <= 0x5FF)
    set_address_width (self, 4);
  else if (cputype >= 0x600 && cputype <= 0x6FF)
    set_address_width (self, 8);
  else if (cputype <= 0x01 || (cputype >= 0x80 && cputype <= 0xFF))
    set_address_width (self, 8);

  return TRUE;
}

static void
decode_initialize (PsPmclogReader *self,
                   const guint8   *p,
                   guint           length,
                   PsPmclogRecord *record)
{
  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      /* specs: hwpmc-pmclog.md §11 */
      record->u.initialize.version = rd32 (self, p + 12);
      record->u.initialize.cputype = rd32 (self, p + 16);
      record->u.initialize.cpuid = "";
      if (length > 20)
        record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
      return;
    }

  /* specs: hwpmc-pmclog.md §4.3 */
  record->u.initialize.version = rd32 (self, p + 16);
  record->u.initialize.cputype = rd32 (self, p + 20);
  record->u.initialize.tsc_freq = rd64 (self, p + 24);
  record->u.initialize.has_wallclock = TRUE;
  if (length < 112)
    {
      /* i386: 32-bit time_t */
      record->u.initialize.wall_seconds = (gint32) rd32 (self, p + 32);
      record->u.initialize.wall_nanoseconds = rd32 (self, p + 36);
      record->u.initialize.cpuid = copy_string (self->cpuid, p + 40, CPUID_FIELD, &record->flags);
      if (length > 104)
        record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
    }
  else
    {
      guint64 nanoseconds = load64_native (p + 40, self->big_endian);
      guint32 cputype = record->u.initialize.cputype;
      gboolean narrow = self->address_width == 4 || (cputype >= 0x500 && cputype <= 0x5FF);

      /* A 32-bit long (arm, powerpc) followed by 4 bytes of padding */
      if (narrow || nanoseconds >= G_GUINT64_CONSTANT (1000000000))
        nanoseconds = load32 (p + 40, self->big_endian);
      record->u.initialize.wall_seconds = (gint64) load64_native (p + 32, self->big_endian);
      record->u.initialize.wall_nanoseconds = (gint64) nanoseconds;
      record->u.initialize.cpuid = copy_string (self->cpuid, p + 48, CPUID_FIELD, &record->flags);
      if (length > 112)
        record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
    }
}

/* specs: hwpmc-pmclog.md §1.7 rule 5 — not decisive, so only for this
 * record: 64-bit when every high half is that of a canonical address. */
static guint
guess_callchain_width (PsPmclogReader *self,
                       const guint8   *pcs,
                       guint           payload)
{
  if (payload % 8 != 0)
    {
      set_address_width (self, 4);
      return 4;
    }
  for (guint i = 4; i < payload; i += 8)
    if (!high_half_plausible (rd32 (self, pcs + i)))
      return 4;
  return 8;
}

static void
decode_pcs (PsPmclogReader *self,
            const guint8   *p,
            guint           n,
            guint           width)
{
  guint64 *pcs = self->pcs;

  if (width == 8)
    {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
      if (!self->big_endian)
        {
          /* Low word first in little-endian words is a native u64 */
          memcpy (pcs, p, (gsize) n * 8);
          return;
        }
#endif
      for (guint i = 0; i < n; i++)
        pcs[i] = rd64 (self, p + (gsize) i * 8);
    }
  else
    {
      for (guint i = 0; i < n; i++)
        pcs[i] = rd32 (self, p + (gsize) i * 4);
    }
}

/* specs: hwpmc-pmclog.md §4.2, §4.9, §11 */
static void
decode_callchain (PsPmclogReader *self,
                  const guint8   *p,
                  guint           length,
                  PsPmclogRecord *record)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;
  guint pcs_offset = legacy ? 24 : 32;
  guint payload = length - pcs_offset;
  guint width = self->address_width;
  guint32 cpuflags;
  guint n;

  record->u.callchain.pid = rd32 (self, p + (legacy ? 12 : 16));
  if (legacy)
    {
      record->u.callchain.tid = PS_PMCLOG_NO_TID;
      record->u.callchain.pmcid = rd32 (self, p + 16);
      cpuflags = rd32 (self, p + 20);
    }
  else
    {
      record->u.callchain.tid = rd32 (self, p + 20);
      record->u.callchain.pmcid = rd32 (self, p + 24);
      cpuflags = rd32 (self, p + 28);
    }
  record->u.callchain.cpu = cpuflags >> 16;
  record->u.callchain.cpuflags = cpuflags & 0xFFFF;

  if (width == 0)
    width = guess_callchain_width (self, p + pcs_offset, payload);
  n = payload / width;
  if (payload % width != 0)
    record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  decode_pcs (self, p + pcs_offset, n, width);
  record->u.callchain.pcs = self->pcs;
  record->u.callchain.n_pcs = n;

  if ((cpuflags & PS_PMCLOG_CC_MULTIPART) != 0 && width == 8 && n >= 1)
    {
      const guint8 *directory = p + pcs_offset;
      guint slot = 1;
      guint n_parts = 0;
      gboolean has_chain = FALSE;

      record->u.callchain.pcs = NULL;
      record->u.callchain.n_pcs = 0;
      for (guint i = 0; i < 4; i++)
        {
          guint8 part_type = directory[2 * i];
          guint8 part_length = directory[2 * i + 1];

          if (part_type == PS_PMCLOG_PART_END)
            break;
          if (slot + part_length > n)
            {
              warn (self, "W-PMCLOG-MULTIPART", record->offset,
                    _("Multipart CALLCHAIN at byte offset %" PRIu64 ": part %u (type %u) needs %u slots from slot %u, but the record has %u"),
                    record->offset, i, part_type, part_length, slot, n);
              break;
            }
          self->parts[n_parts].type = part_type;
          self->parts[n_parts].length = part_length;
          self->parts[n_parts].values = self->pcs + slot;
          if (part_type == PS_PMCLOG_PART_CALLCHAIN && !has_chain)
            {
              has_chain = TRUE;
              record->u.callchain.pcs = self->pcs + slot;
              record->u.callchain.n_pcs = part_length;
            }
          n_parts++;
          slot += part_length;
        }
      record->u.callchain.n_parts = n_parts;
      record->u.callchain.parts = self->parts;
    }
  else if ((cpuflags & PS_PMCLOG_CC_MULTIPART) != 0)
    {
      warn (self, "W-PMCLOG-MULTIPART", record->offset,
            _("Multipart CALLCHAIN at byte offset %" PRIu64 " without 64-bit slots: read as a plain stack"),
            record->offset);
    }

  if (n > self->max_depth)
    {
      record->flags |= PS_PMCLOG_RECORD_FLAG_DEEP;
      warn (self, "W-PMCLOG-DEEP-CALLCHAIN", record->offset,
            _("CALLCHAIN at byte offset %" PRIu64 " has %u pcs, more than the maximum depth %u"),
            record->offset, n, self->max_depth);
    }
}

/* specs: hwpmc-pmclog.md §11 (PCSAMPLE, v1 only) */
static void
decode_pcsample (PsPmclogReader *self,
                 const guint8   *p,
                 guint           length,
                 PsPmclogRecord *record)
{
  guint width = self->address_width;

  if (width == 0)
    {
      /* §1.7 rule 3: 32 ⇒ 8, 28 ⇒ 4 */
      if (length == 32)
        set_address_width (self, 8);
      else if (length == 28)
        set_address_width (self, 4);
      width = length >= 32 ? 8 : 4;
    }
  if (length > 24 + width)
    record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  record->u.callchain.pid = rd32 (self, p + 12);
  record->u.callchain.tid = PS_PMCLOG_NO_TID;
  self->pcs[0] = rd_addr (self, p + 16, width);
  record->u.callchain.pmcid = rd32 (self, p + 16 + width);
  record->u.callchain.cpuflags = rd32 (self, p + 20 + width) != 0 ? PS_PMCLOG_CC_USER : 0;
  record->u.callchain.cpu = 0;
  record->u.callchain.pcs = self->pcs;
  record->u.callchain.n_pcs = 1;
}

/* MAP_IN: specs: hwpmc-pmclog.md §4.4, §11, §1.7 rule 4 */
static void
decode_map_in (PsPmclogReader *self,
               const guint8   *p,
               guint           length,
               PsPmclogRecord *record)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;
  guint start_offset = legacy ? 16 : 24;
  guint width = self->address_width;

  if (width == 0)
    {
      if (start_offset + 8 < length && p[start_offset + 8] == '/' &&
          high_half_plausible (rd32 (self, p + start_offset + 4)))
        set_address_width (self, 8);
      else if (start_offset + 4 < length && p[start_offset + 4] == '/')
        set_address_width (self, 4);
      width = self->address_width != 0 ? self->address_width : 8;
    }

  record->u.map_in.pid = rd32 (self, p + (legacy ? 12 : 16));
  record->u.map_in.start = rd_addr (self, p + start_offset, width);
  record->u.map_in.path = copy_tail_string (self, p, length, start_offset + width, &record->flags);
}

/* MAP_OUT: specs: hwpmc-pmclog.md §4.5, §11, §1.7 rule 3 */
static void
decode_map_out (PsPmclogReader *self,
                const guint8   *p,
                guint           length,
                PsPmclogRecord *record)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;
  guint start_offset = legacy ? 16 : 24;
  guint width = self->address_width;

  if (width == 0)
    {
      if (length == start_offset + 16)
        set_address_width (self, 8);
      else if (length == start_offset + 8)
        set_address_width (self, 4);
      width = length >= start_offset + 16 ? 8 : 4;
    }
  if (length > start_offset + 2 * width)
    record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  record->u.map_out.pid = rd32 (self, p + (legacy ? 12 : 16));
  record->u.map_out.start = rd_addr (self, p + start_offset, width);
  record->u.map_out.end = rd_addr (self, p + start_offset + width, width);
}

/* PROCEXEC candidates (§2 cross-check, case 22): a layout fits when its
 * path begins with '/' and 64-bit addresses have plausible high halves. */
typedef struct
{
  guint n_addresses;
  guint width;
  guint path_offset;
} ExecLayout;

static gboolean
exec_layout_matches (PsPmclogReader   *self,
                     const guint8     *p,
                     guint             length,
                     const ExecLayout *layout,
                     guint             address_offset)
{
  if (layout->path_offset >= length || p[layout->path_offset] != '/')
    return FALSE;
  if (layout->width == 8)
    for (guint i = 0; i < layout->n_addresses; i++)
      if (!high_half_plausible (rd32 (self, p + address_offset + i * 8 + 4)))
        return FALSE;
  return TRUE;
}

static gboolean
all_path_bytes (const guint8 *p,
                guint         from,
                guint         to)
{
  for (guint i = from; i < to; i++)
    if (p[i] <= 0x20 || p[i] >= 0x7F)
      return FALSE;
  return TRUE;
}

/* The first fitting candidate, unless a fitting candidate whose path
 * starts earlier reads as path text up to it: "/usr/bin/x" also has a '/'
 * 4 bytes in, but an address is not made of path characters. Returns
 * the index, or -1 when none fits. */
static int
choose_exec_layout (PsPmclogReader   *self,
                    const guint8     *p,
                    guint             length,
                    const ExecLayout *layouts,
                    guint             n_layouts,
                    guint             address_offset)
{
  int chosen = -1;

  for (guint i = 0; i < n_layouts && chosen < 0; i++)
    if (exec_layout_matches (self, p, length, &layouts[i], address_offset))
      chosen = i;
  if (chosen < 0)
    return -1;
  for (guint i = 0; i < n_layouts; i++)
    if (layouts[i].path_offset < layouts[chosen].path_offset &&
        exec_layout_matches (self, p, length, &layouts[i], address_offset) &&
        all_path_bytes (p, layouts[i].path_offset, layouts[chosen].path_offset))
      chosen = i;
  return chosen;
}

/* PROCEXEC: specs: hwpmc-pmclog.md §2, §4.8, §11 */
static void
decode_procexec (PsPmclogReader *self,
                 const guint8   *p,
                 guint           length,
                 PsPmclogRecord *record)
{
  guint width = self->address_width;

  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      /* §11: pid @12, entry @16, pmcid @16+addr, path @20+addr */
      if (width == 0)
        {
          static const ExecLayout layouts[] = { { 1, 8, 28 }, { 1, 4, 24 } };
          int chosen = choose_exec_layout (self, p, length, layouts, G_N_ELEMENTS (layouts), 16);

          width = chosen >= 0 ? layouts[chosen].width : (length > 28 ? 8 : 4);
        }
      record->u.procexec.pid = rd32 (self, p + 12);
      record->u.procexec.base = rd_addr (self, p + 16, width);
      record->u.procexec.pmcid = rd32 (self, p + 16 + width);
      record->u.procexec.path = copy_tail_string (self, p, length, 20 + width, &record->flags);
    }
  else
    {
      ExecLayout layouts[4];
      guint n_layouts = 0;
      guint n_expected = self->two_address_exec ? 2 : 1;
      guint n_other = 3 - n_expected;
      guint n_addresses;
      int chosen;

      /* §4.8: pid @16, pmcid @20, addresses from 24, then the path */
      for (guint pass = 0; pass < 2; pass++)
        for (guint w = 8; w >= 4; w -= 4)
          if (width == 0 || width == w)
            {
              guint n = pass == 0 ? n_expected : n_other;

              layouts[n_layouts++] = (ExecLayout) { n, w, 24 + n * w };
            }
      chosen = choose_exec_layout (self, p, length, layouts, n_layouts, 24);
      if (chosen >= 0)
        {
          n_addresses = layouts[chosen].n_addresses;
          width = layouts[chosen].width;
        }
      else
        {
          /* No path to check (an empty one): the expected layout if the
           * record is long enough for it. */
          if (width == 0)
            width = 8;
          n_addresses = 24 + n_expected * width < length ? n_expected : n_other;
          if (24 + n_addresses * width >= length)
            width = 4;
        }
      if (n_addresses != n_expected)
        {
          record->flags |= PS_PMCLOG_RECORD_FLAG_OTHER_LAYOUT;
          warn (self, "W-PMCLOG-LAYOUT", record->offset,
                _("PROCEXEC at byte offset %" PRIu64 " has the %s layout, not the one of version 0x%08X"),
                record->offset,
                n_addresses == 2 ? _("two-address (major 0x0A)") : _("one-address (major 0x09)"),
                self->version);
        }

      record->u.procexec.pid = rd32 (self, p + 16);
      record->u.procexec.pmcid = rd32 (self, p + 20);
      record->u.procexec.base = rd_addr (self, p + 24, width);
      if (n_addresses == 2)
        {
          record->u.procexec.dyn = rd_addr (self, p + 24 + width, width);
          record->u.procexec.has_dyn = TRUE;
        }
      record->u.procexec.path = copy_tail_string (self, p, length, 24 + n_addresses * width, &record->flags);
    }
}

/* PMCALLOCATEDYN: specs: hwpmc-pmclog.md §4.6 (modern), §11 (legacy) */
static void
decode_allocatedyn (PsPmclogReader *self,
                    const guint8   *p,
                    guint           length,
                    PsPmclogRecord *record)
{
  if (self->generation == PS_PMCLOG_GENERATION_LEGACY)
    {
      record->u.allocate.pmcid = rd32 (self, p + 12);
      record->u.allocate.event = rd32 (self, p + 16);
      record->u.allocate.flags = rd32 (self, p + 20);
      record->u.allocate.name = copy_tail_string (self, p, length, 24, &record->flags);
      return;
    }
  else
    {
      gboolean terminated_32, terminated_40;
      guint end_32 = MIN (length, 32 + DYN_NAME_FIELD);
      guint end_40 = MIN (length, 40 + DYN_NAME_FIELD);
      gsize run_32 = printable_run (p + 32, end_32 - 32, &terminated_32);
      gsize run_40 = printable_run (p + 40, end_40 - 40, &terminated_40);
      gboolean name_at_32;

      /* The kernel writes the rate at 32 and the name at 40; a declared
       * layout puts the name at 32. Eight printable bytes at 32 cannot
       * be a rate; otherwise 32 only when 40 holds no text (§4.6). */
      if (run_32 >= 8)
        name_at_32 = TRUE;
      else
        name_at_32 = run_40 == 0 && run_32 > 0;

      record->u.allocate.pmcid = rd32 (self, p + 16);
      record->u.allocate.event = rd32 (self, p + 20);
      record->u.allocate.flags = rd32 (self, p + 24);
      if (name_at_32)
        {
          record->flags |= PS_PMCLOG_RECORD_FLAG_NAME_AT_32;
          record->u.allocate.rate = 0;
          record->u.allocate.name = copy_string (self->string, p + 32, end_32 - 32, &record->flags);
        }
      else
        {
          record->u.allocate.rate = rd64 (self, p + 32);
          record->u.allocate.name = copy_string (self->string, p + 40, end_40 - 40, &record->flags);
        }
      if (length > 40 + DYN_NAME_FIELD)
        record->flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
    }
}

/* Decodes one complete record and delivers it. */
static gboolean
process_record (PsPmclogReader *self,
                const guint8   *p,
                guint           length,
                guint8          type,
                GError        **error)
{
  gboolean legacy = self->generation == PS_PMCLOG_GENERATION_LEGACY;
  guint32 header = rd32 (self, p);
  PsPmclogRecord record;
  const guint b = legacy ? 12 : 16;   /* the body's first byte */

  memset (&record, 0, sizeof record);
  record.type = type;
  record.raw_type = (header >> 16) & 0xFF;
  record.length = length;
  record.offset = self->offset;
  record.number = self->number;
  if (legacy)
    {
      record.seconds = rd32 (self, p + 4);
      record.nanoseconds = rd32 (self, p + 8);
    }
  else
    {
      record.has_tsc = TRUE;
      record.tsc = load64_native (p + 8, self->big_endian);
    }
  if (self->closed)
    {
      record.flags |= PS_PMCLOG_RECORD_FLAG_AFTER_CLOSE;
      if (!self->warned_after_close)
        {
          self->warned_after_close = TRUE;
          warn (self, "W-PMCLOG-AFTER-CLOSE", record.offset,
                _("Records continue after CLOSELOG, from byte offset %" PRIu64),
                record.offset);
        }
    }
  if (self->bounds[type].fixed && length > self->bounds[type].min)
    record.flags |= PS_PMCLOG_RECORD_FLAG_LONGER;

  switch ((PsPmclogType) type)
    {
    case PS_PMCLOG_CALLCHAIN:
      decode_callchain (self, p, length, &record);
      break;

    case PS_PMCLOG_CLOSELOG:
      self->closed = TRUE;
      break;

    case PS_PMCLOG_DROPNOTIFY:
      break;

    case PS_PMCLOG_INITIALIZE:
      decode_initialize (self, p, length, &record);
      if (self->number == 0 && !apply_initialize (self, &record, error))
        return FALSE;
      break;

    case PS_PMCLOG_PCSAMPLE:
      decode_pcsample (self, p, length, &record);
      break;

    case PS_PMCLOG_PMCALLOCATE:
      record.u.allocate.pmcid = rd32 (self, p + b);
      record.u.allocate.event = rd32 (self, p + b + 4);
      record.u.allocate.flags = rd32 (self, p + b + 8);
      if (!legacy)
        record.u.allocate.rate = rd64 (self, p + 32);
      break;

    case PS_PMCLOG_PMCALLOCATEDYN:
      decode_allocatedyn (self, p, length, &record);
      break;

    case PS_PMCLOG_PMCATTACH:
      record.u.attach.pmcid = rd32 (self, p + b);
      record.u.attach.pid = rd32 (self, p + b + 4);
      record.u.attach.path = copy_tail_string (self, p, length, b + 8, &record.flags);
      break;

    case PS_PMCLOG_PMCDETACH:
      record.u.attach.pmcid = rd32 (self, p + b);
      record.u.attach.pid = rd32 (self, p + b + 4);
      break;

    case PS_PMCLOG_PROCCSW:
      if (legacy)
        {
          record.u.proccsw.pmcid = rd32 (self, p + 12);
          record.u.proccsw.value = rd64 (self, p + 16);
          record.u.proccsw.pid = rd32 (self, p + 24);
          record.u.proccsw.tid = PS_PMCLOG_NO_TID;
        }
      else
        {
          record.u.proccsw.value = rd64 (self, p + 16);
          record.u.proccsw.pmcid = rd32 (self, p + 24);
          record.u.proccsw.pid = rd32 (self, p + 28);
          record.u.proccsw.tid = rd32 (self, p + 32);
        }
      break;

    case PS_PMCLOG_PROCEXEC:
      decode_procexec (self, p, length, &record);
      break;

    case PS_PMCLOG_PROCEXIT:
      if (legacy)
        {
          record.u.procexit.pmcid = rd32 (self, p + 12);
          record.u.procexit.value = rd64 (self, p + 16);
          record.u.procexit.pid = rd32 (self, p + 24);
        }
      else
        {
          record.u.procexit.pmcid = rd32 (self, p + 16);
          record.u.procexit.pid = rd32 (self, p + 20);
          record.u.procexit.value = rd64 (self, p + 24);
        }
      break;

    case PS_PMCLOG_PROCFORK:
      record.u.procfork.old_pid = rd32 (self, p + b);
      record.u.procfork.new_pid = rd32 (self, p + b + 4);
      break;

    case PS_PMCLOG_SYSEXIT:
      record.u.sysexit.pid = rd32 (self, p + b);
      break;

    case PS_PMCLOG_USERDATA:
      record.u.userdata.value = rd32 (self, p + b);
      break;

    case PS_PMCLOG_MAP_IN:
      decode_map_in (self, p, length, &record);
      break;

    case PS_PMCLOG_MAP_OUT:
      decode_map_out (self, p, length, &record);
      break;

    case PS_PMCLOG_THR_CREATE:
      record.u.thread.tid = rd32 (self, p + 16);
      record.u.thread.pid = rd32 (self, p + 20);
      record.u.thread.flags = rd32 (self, p + 24);
      record.u.thread.name = copy_string (self->string, p + 32, COMM_FIELD, &record.flags);
      break;

    case PS_PMCLOG_THR_EXIT:
      record.u.thread.tid = rd32 (self, p + 16);
      break;

    case PS_PMCLOG_PROC_CREATE:
      record.u.thread.tid = PS_PMCLOG_NO_TID;
      record.u.thread.pid = rd32 (self, p + 16);
      record.u.thread.flags = rd32 (self, p + 20);
      record.u.thread.name = copy_string (self->string, p + 24, COMM_FIELD, &record.flags);
      break;

    case PS_PMCLOG_CONTAINER_INFO:
    case PS_PMCLOG_N_TYPES:
    default:
      g_assert_not_reached ();
    }

  if (G_UNLIKELY ((record.flags & (PS_PMCLOG_RECORD_FLAG_LONGER |
                                   PS_PMCLOG_RECORD_FLAG_NO_NUL)) != 0))
    {
      if (record.flags & PS_PMCLOG_RECORD_FLAG_LONGER)
        warn (self, "W-PMCLOG-LONGER", record.offset,
              _("%s record at byte offset %" PRIu64 " is %u bytes long, longer than its layout: the extra bytes were ignored"),
              ps_pmclog_type_to_string (type), record.offset, length);
      if (record.flags & PS_PMCLOG_RECORD_FLAG_NO_NUL)
        warn (self, "W-PMCLOG-NO-NUL", record.offset,
              _("A string of the %s record at byte offset %" PRIu64 " has no terminating NUL"),
              ps_pmclog_type_to_string (type), record.offset);
    }

  if (!deliver (self, &record, error))
    return FALSE;
  self->number++;
  return TRUE;
}

/* The first record: specs: hwpmc-pmclog.md §1.6 — the INITIALIZE type code
 * fixes the generation, the magic's position the byte order. */
static gboolean
start_stream (PsPmclogReader *self,
              const guint8   *p,
              GError        **error)
{
  if (p[3] == RECORD_MAGIC && (p[2] == 2 || p[2] == 3))
    set_generation (self, p[2] == 2 ? PS_PMCLOG_GENERATION_LEGACY : PS_PMCLOG_GENERATION_MODERN, FALSE);
  else if (p[0] == RECORD_MAGIC && (p[1] == 2 || p[1] == 3))
    set_generation (self, p[1] == 2 ? PS_PMCLOG_GENERATION_LEGACY : PS_PMCLOG_GENERATION_MODERN, TRUE);
  else if (self->options.assume_modern)
    set_generation (self, PS_PMCLOG_GENERATION_MODERN, FALSE);
  else
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("The first record at byte offset %" PRIu64 " is not INITIALIZE: expected the header word of an INITIALIZE record (magic 0xEE, type 2 or 3), found the bytes %02X %02X %02X %02X"),
                   self->offset, p[0], p[1], p[2], p[3]);
      return FALSE;
    }
  self->state = STATE_RECORDS;
  return TRUE;
}

/* How many bytes tell a unit's length */
static inline gsize
unit_header_size (PsPmclogReader *self)
{
  return self->state == STATE_CONTAINER_BLOCK ? 8 : 4;
}

/* specs: hwpmc-pmclog.md §1.8 — the container's magic in either order */
static gboolean
is_container_magic (const guint8 *p,
                    gboolean     *big_endian)
{
  if (load32 (p, FALSE) == CONTAINER_MAGIC)
    {
      *big_endian = FALSE;
      return TRUE;
    }
  if (load32 (p, TRUE) == CONTAINER_MAGIC)
    {
      *big_endian = TRUE;
      return TRUE;
    }
  return FALSE;
}

/* The length of the unit starting at p (unit_header_size () bytes are
 * available). */
static UnitResult
unit_length (PsPmclogReader *self,
             const guint8   *p,
             gsize          *out_length,
             GError        **error)
{
  guint length;
  guint8 type;

  switch (self->state)
    {
    case STATE_START:
      if (!self->has_container && is_container_magic (p, &self->container_big_endian))
        {
          self->has_container = TRUE;
          self->state = STATE_CONTAINER_HEADER;
          *out_length = 8;
          return UNIT_OK;
        }
      if (!start_stream (self, p, error))
        return UNIT_FAILED;
      break;

    case STATE_CONTAINER_HEADER:
      *out_length = 8;
      return UNIT_OK;

    case STATE_CONTAINER_BLOCK:
      *out_length = 8 + (gsize) load16 (p + 2, self->container_big_endian);
      return UNIT_OK;

    case STATE_RECORDS:
      break;

    case STATE_RESYNC:
    case STATE_FAILED:
    default:
      g_assert_not_reached ();
    }

  switch (check_header (self, rd32 (self, p), self->offset, &length, &type,
                        self->options.resync && self->number > 0 ? NULL : error))
    {
    case HEADER_OK:
    case HEADER_UNKNOWN_TYPE:
      if (self->number == 0 && type != PS_PMCLOG_INITIALIZE && !self->options.assume_modern)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                       _("The first record at byte offset %" PRIu64 " is not INITIALIZE: found type code %u"),
                       self->offset, (rd32 (self, p) >> 16) & 0xFF);
          return UNIT_FAILED;
        }
      *out_length = length;
      return UNIT_OK;

    case HEADER_BAD:
    default:
      /* §1.9 rule 6: resync only once the generation is settled by a
       * record; a bad first record stays fatal. */
      if (self->options.resync && self->number > 0)
        return UNIT_RESYNC;
      return UNIT_FAILED;
    }
}

/* specs: hwpmc-pmclog.md §1.8 */
static gboolean
process_container_block (PsPmclogReader *self,
                         const guint8   *p,
                         gsize           length,
                         GError        **error)
{
  PsPmclogRecord record;
  guint8 block_type = p[0];
  guint16 block_length = (guint16) (length - 8);
  const guint8 *payload = p + 8;

  if (block_type == CONTAINER_END)
    {
      if (block_length != 0)
        warn (self, "W-PMCLOG-CONTAINER", self->offset,
              _("The container's terminating block at byte offset %" PRIu64 " has a %u-byte payload: skipped"),
              self->offset, block_length);
      self->state = STATE_START;
      /* The raw stream follows: its first record decides the rest */
      return TRUE;
    }

  memset (&record, 0, sizeof record);
  record.type = PS_PMCLOG_CONTAINER_INFO;
  record.raw_type = block_type;
  record.length = block_length;
  record.offset = self->offset;
  record.number = self->number;
  record.u.container.version = self->container_version;
  record.u.container.architecture = self->container_architecture;
  record.u.container.block_type = block_type;
  record.u.container.block_length = block_length;
  record.u.container.payload = payload;

  if (block_type == CONTAINER_SYSINFO)
    {
      char *fields[3] = { self->cpu_model, self->os_release, self->build_id };
      const char **targets[3] = {
        &record.u.container.cpu_model,
        &record.u.container.os_release,
        &record.u.container.build_id,
      };

      for (guint i = 0; i < 3; i++)
        {
          gsize field_offset = i * SYSINFO_FIELD;
          gsize available = block_length > field_offset ? MIN (SYSINFO_FIELD, block_length - field_offset) : 0;

          *targets[i] = copy_string (fields[i], payload + field_offset, available, &record.flags);
        }
      /* A short last field is not a string without NUL but a short block */
      record.flags &= ~PS_PMCLOG_RECORD_FLAG_NO_NUL;
      if (block_length != 3 * SYSINFO_FIELD)
        {
          if (block_length > 3 * SYSINFO_FIELD)
            record.flags |= PS_PMCLOG_RECORD_FLAG_LONGER;
          warn (self, "W-PMCLOG-CONTAINER", self->offset,
                _("The system info block at byte offset %" PRIu64 " has %u bytes, expected %u"),
                self->offset, block_length, 3 * SYSINFO_FIELD);
        }
    }
  else if (block_type > 3)
    warn (self, "W-PMCLOG-CONTAINER", self->offset,
          _("Unknown container info block type %u at byte offset %" PRIu64 ": passed on undecoded"),
          block_type, self->offset);

  return deliver (self, &record, error);
}

/* A complete unit at p */
static gboolean
process_unit (PsPmclogReader *self,
              const guint8   *p,
              gsize           length,
              GError        **error)
{
  switch (self->state)
    {
    case STATE_CONTAINER_HEADER:
      self->container_version = load16 (p + 4, self->container_big_endian);
      self->container_architecture = load16 (p + 6, self->container_big_endian);
      if (self->container_version != 0)
        warn (self, "W-PMCLOG-CONTAINER", self->offset,
              _("pmc(8) container version %u is newer than the known version 0"),
              self->container_version);
      self->state = STATE_CONTAINER_BLOCK;
      break;

    case STATE_CONTAINER_BLOCK:
      if (!process_container_block (self, p, length, error))
        return FALSE;
      break;

    case STATE_RECORDS:
      {
        guint8 type = self->type_map[p[self->big_endian ? 1 : 2]];

        if (type == NO_TYPE)
          {
            /* §1.9 rule 4: skip by length */
            warn (self, "W-PMCLOG-UNKNOWN-TYPE", self->offset,
                  _("Unknown record type %u (%u bytes) at byte offset %" PRIu64 ": skipped"),
                  p[self->big_endian ? 1 : 2], (guint) length, self->offset);
            self->number++;
          }
        else if (!process_record (self, p, length, type, error))
          return FALSE;
      }
      break;

    case STATE_START:
    case STATE_RESYNC:
    case STATE_FAILED:
    default:
      g_assert_not_reached ();
    }

  self->offset += length;
  return TRUE;
}

/* specs: hwpmc-pmclog.md §1.9 rule 6 — scan the window in 4-byte steps for
 * a plausible header followed by another valid one. Returns the window
 * (to be read again as records) when the stream is back in step, NULL
 * while it is still searching. */
static GByteArray *
resync_scan (PsPmclogReader *self,
             gboolean        at_end)
{
  for (;;)
    {
      const guint8 *p = self->window->data + self->window_start;
      gsize available = self->window->len - self->window_start;
      guint length, next_length;
      gboolean found = FALSE;

      if (available < 4)
        break;

      if (header_plausible (self, rd32 (self, p), &length))
        {
          if (available >= (gsize) length + 4)
            found = header_plausible (self, rd32 (self, p + length), &next_length);
          else if (at_end)
            found = available == length;
          else
            break;   /* need more bytes to decide */
        }

      if (found)
        {
          GByteArray *window = g_steal_pointer (&self->window);

          warn (self, "W-PMCLOG-RESYNC", self->offset,
                _("Skipped %" PRIu64 " bytes of unreadable data from byte offset %" PRIu64 " to the next valid record at byte offset %" PRIu64),
                self->offset - self->resync_from, self->resync_from, self->offset);
          g_byte_array_remove_range (window, 0, self->window_start);
          self->window_start = 0;
          self->state = STATE_RECORDS;
          return window;
        }

      self->window_start += 4;
      self->offset += 4;
    }

  if (self->window_start >= 65536)
    {
      g_byte_array_remove_range (self->window, 0, self->window_start);
      self->window_start = 0;
    }
  return NULL;
}

static void
enter_resync (PsPmclogReader *self,
              const guint8   *data,
              gsize           length)
{
  self->state = STATE_RESYNC;
  self->resync_from = self->offset;
  self->window = g_byte_array_sized_new (WINDOW_MAX);
  g_byte_array_append (self->window, data, length);
  /* The bad header itself is skipped */
  self->window_start = 4;
  self->offset += 4;
}

static gboolean
fail (PsPmclogReader *self)
{
  self->state = STATE_FAILED;
  return FALSE;
}

/* The loop over a chunk (specs: hwpmc-pmclog.md §7.4). After a
 * resynchronisation the bytes held for the search are read again
 * ("replayed") before the rest of the chunk; a resync inside the replay
 * takes all of the replay's remaining bytes, so one replay is enough. */
static gboolean
process_bytes (PsPmclogReader *self,
               const guint8   *data,
               gsize           length,
               GError        **error)
{
  g_autoptr(GByteArray) replay = NULL;
  const guint8 *saved_data = NULL;
  gsize saved_length = 0;

  for (;;)
    {
      GByteArray *found = NULL;
      gsize need;
      gsize take;

      if (length == 0)
        {
          if (replay == NULL)
            break;
          g_clear_pointer (&replay, g_byte_array_unref);
          data = saved_data;
          length = saved_length;
          continue;
        }

      if (self->state == STATE_RESYNC)
        {
          gsize available = self->window->len - self->window_start;

          take = MIN (length, WINDOW_MAX - available);
          g_byte_array_append (self->window, data, take);
          data += take;
          length -= take;
          found = resync_scan (self, FALSE);
        }
      else if (self->accum_len > 0)
        {
          /* A unit split across chunks: complete it in the buffer */
          if (self->accum_need == 0)
            {
              gsize header_size = unit_header_size (self);

              take = MIN (header_size - self->accum_len, length);
              memcpy (self->accum + self->accum_len, data, take);
              self->accum_len += take;
              data += take;
              length -= take;
              if (self->accum_len < header_size)
                continue;

              switch (unit_length (self, self->accum, &need, error))
                {
                case UNIT_OK:
                  break;
                case UNIT_RESYNC:
                  {
                    gsize held = self->accum_len;

                    self->accum_len = 0;
                    enter_resync (self, self->accum, held);
                    found = resync_scan (self, FALSE);
                    goto replay;
                  }
                case UNIT_FAILED:
                default:
                  return fail (self);
                }
              self->accum_need = need;
            }

          need = self->accum_need;
          take = MIN (need - self->accum_len, length);
          memcpy (self->accum + self->accum_len, data, take);
          self->accum_len += take;
          data += take;
          length -= take;
          if (self->accum_len < need)
            continue;

          self->accum_len = 0;
          self->accum_need = 0;
          if (!process_unit (self, self->accum, need, error))
            return fail (self);
        }
      else
        {
          /* Units complete in the chunk are decoded in place */
          while (length >= unit_header_size (self))
            {
              switch (unit_length (self, data, &need, error))
                {
                case UNIT_OK:
                  break;
                case UNIT_RESYNC:
                  take = MIN (length, WINDOW_MAX);
                  enter_resync (self, data, take);
                  data += take;
                  length -= take;
                  found = resync_scan (self, FALSE);
                  goto replay;
                case UNIT_FAILED:
                default:
                  return fail (self);
                }

              if (need > length)
                {
                  self->accum_need = need;
                  break;
                }
              if (!process_unit (self, data, need, error))
                return fail (self);
              data += need;
              length -= need;
            }

          if (length > 0)
            {
              memcpy (self->accum, data, length);
              self->accum_len = length;
              length = 0;
            }
        }

    replay:
      if (found != NULL)
        {
          if (replay == NULL)
            {
              saved_data = data;
              saved_length = length;
            }
          else
            g_assert (length == 0);
          g_clear_pointer (&replay, g_byte_array_unref);
          replay = found;
          data = replay->data;
          length = replay->len;
        }
    }

  return TRUE;
}

gboolean
ps_pmclog_reader_feed (PsPmclogReader *self,
                       const guint8   *data,
                       gsize           length,
                       GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (!ps_parse_check_feed ("pmclog", self->in_callback, self->state == STATE_FAILED, self->offset, error))
    return FALSE;

  return process_bytes (self, data, length, error);
}

gboolean
ps_pmclog_reader_finish (PsPmclogReader *self,
                         GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!ps_parse_check_feed ("pmclog", FALSE, self->state == STATE_FAILED, self->offset, error))
    return FALSE;

  while (self->state == STATE_RESYNC)
    {
      g_autoptr(GByteArray) found = resync_scan (self, TRUE);

      if (found != NULL)
        {
          if (!process_bytes (self, found->data, found->len, error))
            return fail (self);
          continue;
        }
      else
        {
          guint64 end = self->offset + (self->window->len - self->window_start);

          warn (self, "W-PMCLOG-RESYNC", self->resync_from,
                _("Skipped %" PRIu64 " bytes of unreadable data from byte offset %" PRIu64 " to the end of the input"),
                end - self->resync_from, self->resync_from);
          self->offset = end;
          g_clear_pointer (&self->window, g_byte_array_unref);
          self->state = STATE_RECORDS;
          return TRUE;
        }
    }

  /* specs: hwpmc-pmclog.md §1.9 rule 5, §7.4: a partial unit at the end */
  if (self->accum_len > 0)
    {
      gboolean container = self->state == STATE_CONTAINER_BLOCK || self->state == STATE_CONTAINER_HEADER;

      if (self->accum_need == 0)
        g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                     container
                       ? _("The input ends inside the pmc(8) container: truncated header at byte offset %" PRIu64 " (%zu of %zu bytes)")
                       : _("The input ends inside a record: truncated header at byte offset %" PRIu64 " (%zu of %zu bytes)"),
                     self->offset, self->accum_len, unit_header_size (self));
      else
        g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                     container
                       ? _("The input ends inside the pmc(8) container: truncated info block at byte offset %" PRIu64 " (%zu of %zu bytes)")
                       : _("The input ends inside a record: truncated final record at byte offset %" PRIu64 " (%zu of %zu bytes)"),
                     self->offset, self->accum_len, self->accum_need);
      return fail (self);
    }

  if (self->state == STATE_CONTAINER_BLOCK || self->state == STATE_CONTAINER_HEADER)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                   _("The input ends at byte offset %" PRIu64 " inside the pmc(8) container, before its terminating block"),
                   self->offset);
      return fail (self);
    }

  if (self->state == STATE_START || self->generation == PS_PMCLOG_GENERATION_UNKNOWN)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                   _("The input ends at byte offset %" PRIu64 " before the first record: truncated header"),
                   self->offset);
      return fail (self);
    }

  return TRUE;
}

/* Sniffing: specs: hwpmc-pmclog.md §1.6 and §1.8 */
guint
ps_pmclog_sniff (const guint8 *data,
                 gsize         length)
{
  gsize at = 0;
  gboolean container_big_endian;
  gboolean big_endian;
  guint type_code;
  guint record_length;
  guint header_size;
  guint32 version;
  guint major;

  if (data == NULL)
    return 0;

  if (length >= 4 && is_container_magic (data, &container_big_endian))
    {
      at = 8;
      for (;;)
        {
          guint8 block_type;

          if (at + 8 > length)
            return 50;
          block_type = data[at];
          at += 8 + (gsize) load16 (data + at + 2, container_big_endian);
          if (block_type == CONTAINER_END)
            break;
        }
    }

  if (length < at + 4)
    return at > 0 ? 50 : 0;

  data += at;
  length -= at;
  if (data[3] == RECORD_MAGIC && (data[2] == 2 || data[2] == 3))
    big_endian = FALSE;
  else if (data[0] == RECORD_MAGIC && (data[1] == 2 || data[1] == 3))
    big_endian = TRUE;
  else
    return 0;

  type_code = big_endian ? data[1] : data[2];
  record_length = load32 (data, big_endian) & 0xFFFF;
  header_size = type_code == 2 ? 12 : 16;
  if (type_code == 2 && record_length != 20)
    return 0;
  if (type_code == 3 && record_length != 104 && record_length != 112)
    return 0;

  if (length < header_size + 4)
    return 40;
  version = load32 (data + header_size, big_endian);
  major = version >> 24;
  if (major >= 0x04 && major <= 0x08)
    return 60;   /* a pmclog, if one we refuse with a clear message */
  if (type_code == 2 && (major < 0x01 || major > 0x03))
    return 0;
  if (type_code == 3 && major < 0x09)
    return 0;

  if (length < record_length + 4)
    return 70;
  {
    guint32 next = load32 (data + record_length, big_endian);
    guint next_length = next & 0xFFFF;

    if ((next >> 24) != RECORD_MAGIC || next_length < header_size || next_length % 4 != 0)
      return 10;
  }
  return 100;
}

/* ps-plv2.c — the PLV2 capture container: a streaming reader and a writer
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §8.1 (file header), §8.2 (framing and the reader's
 * behaviour on damage), §8.3 (record payloads), §8.5, §9.4.
 *
 * The input is cut into units: the 64-byte file header, the bytes of a
 * longer header (skipped), a 16-byte record header, a record's payload
 * with its padding. A unit that is complete in the caller's chunk is used
 * where it lies; only a unit split across chunks is copied, into an
 * accumulation buffer. A record header is checked as soon as its 16 bytes
 * are there, so an impossible length never makes the reader wait for (or
 * copy) bytes it will not use. Whatever the chunking, records and
 * warnings come out identical and in the same order.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <zlib.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_CLMUL_CRC32 1
#endif

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-parse-kit.h"
#include "ps-util.h"
#include "ps-plv2.h"

/* Bytes of each known record type's fixed fields (§8.3) */
#define SESSION_FIXED        0
#define COUNTERSET_REG_FIXED 24
#define QUERY_FIXED          8
#define SAMPLE_FIXED         16
#define INSTANCES_FIXED      24
#define ANNOTATION_FIXED     8
#define END_FIXED            16
#define REG_ENTRY_HEADER     16

typedef enum
{
  STATE_FILE_HEADER,
  STATE_HEADER_EXTRA,
  STATE_RECORD_HEADER,
  STATE_RECORD_BODY,
  STATE_DAMAGED,
  STATE_STOPPED,
  STATE_FAILED,
} State;

struct _PsPlv2Reader
{
  PsPlv2Callbacks callbacks;
  gpointer        user_data;

  State           state;
  PsPlv2Header    header;
  gboolean        have_header;
  gboolean        check_crc;

  guint64         offset;          /* of the current unit */
  guint64         skip_left;       /* STATE_HEADER_EXTRA */

  guint8         *accum;
  gsize           accum_len;
  gsize           accum_alloc;

  /* The record whose header has been read */
  guint64         record_offset;
  guint32         record_type;
  guint32         record_size;
  guint32         record_crc;
  guint32         record_seq;

  guint32         next_seq;
  guint64         n_records;
  guint64         n_samples;
  gboolean        has_end;
  gboolean        warned_after_end;
  guint64         damaged_offset;
  gboolean        in_callback;

  /* §8.4: the QUERY generations seen, the last one */
  GHashTable     *generations;
  gboolean        have_query;
  guint32         last_generation;
};

/* Stores: little-endian, byte by byte, on any host (§2); loads are
 * ps_util_load_le*. */

static inline void
store16 (guint8  *p,
         guint16  value)
{
  p[0] = value & 0xff;
  p[1] = value >> 8;
}

static inline void
store32 (guint8  *p,
         guint32  value)
{
  p[0] = value & 0xff;
  p[1] = (value >> 8) & 0xff;
  p[2] = (value >> 16) & 0xff;
  p[3] = value >> 24;
}

static inline void
store64 (guint8  *p,
         guint64  value)
{
  store32 (p, (guint32) value);
  store32 (p + 4, (guint32) (value >> 32));
}

static inline gsize
padded (gsize size)
{
  return (size + 7) & ~(gsize) 7;
}

#ifdef HAVE_CLMUL_CRC32
/* The same CRC-32 by carry-less multiplication, 16 bytes at a time in
 * four lanes (Gopal et al., "Fast CRC Computation for Generic Polynomials
 * Using PCLMULQDQ Instruction", Intel 2009; the bit-reflected constants of
 * its appendix, as Chromium's zlib uses them). The constants of a fold
 * over d bits are x^(d+32) and x^(d−32) mod P, bit-reflected and shifted
 * left by one. */

/* The four lanes x1…x4, the 64 bytes before data with the CRC register
 * folded in, over the rest of the data (a multiple of 16) */
__attribute__((always_inline, target ("pclmul,sse4.1"))) static inline guint32
crc32_clmul_lanes (__m128i       x1,
                   __m128i       x2,
                   __m128i       x3,
                   __m128i       x4,
                   const guint8 *data,
                   gsize         length)
{
  const __m128i k1k2 = _mm_set_epi64x (0x01c6e41596, 0x0154442bd4);
  const __m128i k3k4 = _mm_set_epi64x (0x00ccaa009e, 0x01751997d0);
  const __m128i k5k0 = _mm_set_epi64x (0, 0x0163cd6124);
  const __m128i poly = _mm_set_epi64x (0x01f7011641, 0x01db710641);
  const __m128i low32 = _mm_setr_epi32 (~0, 0, ~0, 0);
  __m128i x5;

  while (length >= 64)
    {
      __m128i y1 = _mm_clmulepi64_si128 (x1, k1k2, 0x00);
      __m128i y2 = _mm_clmulepi64_si128 (x2, k1k2, 0x00);
      __m128i y3 = _mm_clmulepi64_si128 (x3, k1k2, 0x00);
      __m128i y4 = _mm_clmulepi64_si128 (x4, k1k2, 0x00);

      x1 = _mm_clmulepi64_si128 (x1, k1k2, 0x11);
      x2 = _mm_clmulepi64_si128 (x2, k1k2, 0x11);
      x3 = _mm_clmulepi64_si128 (x3, k1k2, 0x11);
      x4 = _mm_clmulepi64_si128 (x4, k1k2, 0x11);
      x1 = _mm_xor_si128 (_mm_xor_si128 (x1, y1), _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x00)));
      x2 = _mm_xor_si128 (_mm_xor_si128 (x2, y2), _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x10)));
      x3 = _mm_xor_si128 (_mm_xor_si128 (x3, y3), _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x20)));
      x4 = _mm_xor_si128 (_mm_xor_si128 (x4, y4), _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x30)));
      data += 64;
      length -= 64;
    }

  /* Four lanes into one */
  x5 = _mm_clmulepi64_si128 (x1, k3k4, 0x00);
  x1 = _mm_clmulepi64_si128 (x1, k3k4, 0x11);
  x1 = _mm_xor_si128 (_mm_xor_si128 (x1, x2), x5);
  x5 = _mm_clmulepi64_si128 (x1, k3k4, 0x00);
  x1 = _mm_clmulepi64_si128 (x1, k3k4, 0x11);
  x1 = _mm_xor_si128 (_mm_xor_si128 (x1, x3), x5);
  x5 = _mm_clmulepi64_si128 (x1, k3k4, 0x00);
  x1 = _mm_clmulepi64_si128 (x1, k3k4, 0x11);
  x1 = _mm_xor_si128 (_mm_xor_si128 (x1, x4), x5);

  while (length >= 16)
    {
      x5 = _mm_clmulepi64_si128 (x1, k3k4, 0x00);
      x1 = _mm_clmulepi64_si128 (x1, k3k4, 0x11);
      x1 = _mm_xor_si128 (_mm_xor_si128 (x1, _mm_loadu_si128 ((const __m128i *)(gconstpointer)data)), x5);
      data += 16;
      length -= 16;
    }

  /* 128 bits to 64 */
  x2 = _mm_clmulepi64_si128 (x1, k3k4, 0x10);
  x1 = _mm_xor_si128 (_mm_srli_si128 (x1, 8), x2);
  x2 = _mm_srli_si128 (x1, 4);
  x1 = _mm_and_si128 (x1, low32);
  x1 = _mm_clmulepi64_si128 (x1, k5k0, 0x00);
  x1 = _mm_xor_si128 (x1, x2);

  /* Barrett reduction to 32 bits */
  x2 = _mm_and_si128 (x1, low32);
  x2 = _mm_clmulepi64_si128 (x2, poly, 0x10);
  x2 = _mm_and_si128 (x2, low32);
  x2 = _mm_clmulepi64_si128 (x2, poly, 0x00);
  x1 = _mm_xor_si128 (x1, x2);

  return (guint32)_mm_extract_epi32 (x1, 1);
}

/* Takes and gives the CRC register inverted, as the table method keeps
 * it; length is a multiple of 16, at least 64 */
__attribute__((target ("pclmul,sse4.1"))) static guint32
crc32_clmul (guint32       crc,
             const guint8 *data,
             gsize         length)
{
  __m128i x1 = _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x00));
  __m128i x2 = _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x10));
  __m128i x3 = _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x20));
  __m128i x4 = _mm_loadu_si128 ((const __m128i *)(gconstpointer)(data + 0x30));

  x1 = _mm_xor_si128 (x1, _mm_cvtsi32_si128 ((int)crc));
  return crc32_clmul_lanes (x1, x2, x3, x4, data + 64, length - 64);
}

/* One 512-bit fold: a carried over bits distance ahead, onto b */
#define FOLD512(a, k, b) \
  _mm512_ternarylogic_epi64 (_mm512_clmulepi64_epi128 ((a), (k), 0x00), \
                             _mm512_clmulepi64_epi128 ((a), (k), 0x11), (b), 0x96)

/* The same with 64-byte registers where the processor has them: four of
 * them, 256 bytes a round, which reads data from memory about half again
 * as fast as the 16-byte lanes; then the lanes of the last register go on
 * as above. Length is a multiple of 16, at least 256. */
__attribute__((target ("vpclmulqdq,avx512f,pclmul,sse4.1"))) static guint32
crc32_clmul512 (guint32       crc,
                const guint8 *data,
                gsize         length)
{
  const __m512i k2048 = _mm512_broadcast_i32x4 (_mm_set_epi64x (0x01322d1430, 0x011542778a));
  const __m512i k512 = _mm512_broadcast_i32x4 (_mm_set_epi64x (0x01c6e41596, 0x0154442bd4));
  __m512i a0 = _mm512_loadu_si512 ((const void *)(data + 0x00));
  __m512i a1 = _mm512_loadu_si512 ((const void *)(data + 0x40));
  __m512i a2 = _mm512_loadu_si512 ((const void *)(data + 0x80));
  __m512i a3 = _mm512_loadu_si512 ((const void *)(data + 0xc0));

  a0 = _mm512_xor_si512 (a0, _mm512_castsi128_si512 (_mm_cvtsi32_si128 ((int)crc)));
  data += 256;
  length -= 256;
  while (length >= 256)
    {
      a0 = FOLD512 (a0, k2048, _mm512_loadu_si512 ((const void *)(data + 0x00)));
      a1 = FOLD512 (a1, k2048, _mm512_loadu_si512 ((const void *)(data + 0x40)));
      a2 = FOLD512 (a2, k2048, _mm512_loadu_si512 ((const void *)(data + 0x80)));
      a3 = FOLD512 (a3, k2048, _mm512_loadu_si512 ((const void *)(data + 0xc0)));
      data += 256;
      length -= 256;
    }
  a1 = FOLD512 (a0, k512, a1);
  a2 = FOLD512 (a1, k512, a2);
  a3 = FOLD512 (a2, k512, a3);

  return crc32_clmul_lanes (_mm512_extracti32x4_epi32 (a3, 0), _mm512_extracti32x4_epi32 (a3, 1),
                            _mm512_extracti32x4_epi32 (a3, 2), _mm512_extracti32x4_epi32 (a3, 3), data, length);
}

#undef FOLD512

typedef enum
{
  CLMUL_NONE,
  CLMUL_128,
  CLMUL_512
} ClmulWidth;

static ClmulWidth
clmul_width (void)
{
  static gsize checked = 0;
  static ClmulWidth width = CLMUL_NONE;

  if (g_once_init_enter (&checked))
    {
      __builtin_cpu_init ();
      if (__builtin_cpu_supports ("pclmul") && __builtin_cpu_supports ("sse4.1"))
        width = __builtin_cpu_supports ("vpclmulqdq") && __builtin_cpu_supports ("avx512f") ? CLMUL_512 : CLMUL_128;
      g_once_init_leave (&checked, 1);
    }
  return width;
}
#endif

/* specs: perflib-v2.md §8.2 — CRC-32 of IEEE 802.3 / zlib: by
 * carry-less multiplication where the processor has it (about ten times
 * zlib's speed, which a capture of gigabytes feels), else zlib's own */
guint32
ps_plv2_crc32 (guint32       crc,
               const guint8 *data,
               gsize         length)
{
#ifdef HAVE_CLMUL_CRC32
  ClmulWidth width = length >= 64 ? clmul_width () : CLMUL_NONE;

  if (width != CLMUL_NONE)
    {
      gsize whole = length & ~(gsize)15;

      if (width == CLMUL_512 && whole >= 256)
        crc = ~crc32_clmul512 (~crc, data, whole);
      else
        crc = ~crc32_clmul (~crc, data, whole);
      data += whole;
      length -= whole;
    }
#endif
  while (length > 0)
    {
      uInt chunk = (uInt)MIN (length, (gsize)G_MAXUINT32 / 2);

      crc = (guint32)crc32 ((uLong)crc, data, chunk);
      data += chunk;
      length -= chunk;
    }
  return crc;
}

const char *
ps_plv2_record_type_to_string (guint32 type)
{
  switch (type & ~PS_PLV2_MUST_UNDERSTAND)
    {
    case PS_PLV2_RECORD_SESSION:
      return "SESSION";
    case PS_PLV2_RECORD_COUNTERSET_REG:
      return "COUNTERSET_REG";
    case PS_PLV2_RECORD_QUERY:
      return "QUERY";
    case PS_PLV2_RECORD_SAMPLE:
      return "SAMPLE";
    case PS_PLV2_RECORD_INSTANCES:
      return "INSTANCES";
    case PS_PLV2_RECORD_ANNOTATION:
      return "ANNOTATION";
    case PS_PLV2_RECORD_END:
      return "END";
    default:
      return "UNKNOWN";
    }
}

static gboolean
is_known_type (guint32 type)
{
  guint32 base = type & ~PS_PLV2_MUST_UNDERSTAND;

  return base >= PS_PLV2_RECORD_SESSION && base <= PS_PLV2_RECORD_END;
}

guint
ps_plv2_sniff (const guint8 *data,
               gsize         length)
{
  if (data == NULL || length < sizeof PS_PLV2_MAGIC)
    return 0;
  return memcmp (data, PS_PLV2_MAGIC, sizeof PS_PLV2_MAGIC) == 0 ? 100 : 0;
}

/* The reader */

PsPlv2Reader *
ps_plv2_reader_new (const PsPlv2Callbacks *callbacks,
                    gpointer               user_data)
{
  PsPlv2Reader *self;

  g_return_val_if_fail (callbacks != NULL, NULL);
  g_return_val_if_fail (callbacks->record != NULL, NULL);

  self = g_new0 (PsPlv2Reader, 1);
  self->callbacks = *callbacks;
  self->user_data = user_data;
  self->state = STATE_FILE_HEADER;
  self->generations = g_hash_table_new (NULL, NULL);
  return self;
}

void
ps_plv2_reader_free (PsPlv2Reader *self)
{
  if (self == NULL)
    return;
  g_free (self->accum);
  g_clear_pointer (&self->generations, g_hash_table_unref);
  g_free (self);
}

const PsPlv2Header *
ps_plv2_reader_get_header (PsPlv2Reader *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->have_header ? &self->header : NULL;
}

guint64
ps_plv2_reader_get_n_records (PsPlv2Reader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_records;
}

guint64
ps_plv2_reader_get_n_samples (PsPlv2Reader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_samples;
}

gboolean
ps_plv2_reader_has_end (PsPlv2Reader *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->has_end;
}

gboolean
ps_plv2_reader_is_damaged (PsPlv2Reader *self,
                           guint64      *offset)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (offset != NULL)
    *offset = self->state == STATE_DAMAGED ? self->damaged_offset : 0;
  return self->state == STATE_DAMAGED;
}

G_GNUC_PRINTF (4, 5)
static void
warn (PsPlv2Reader *self,
      const char   *code,
      guint64       offset,
      const char   *format,
      ...)
{
  va_list args;

  va_start (args, format);
  self->in_callback = TRUE;
  ps_parse_reader_warn_valist (self->callbacks.warning, self->user_data, code, offset, format, args);
  self->in_callback = FALSE;
  va_end (args);
}

static gboolean
fail (PsPlv2Reader *self)
{
  self->state = STATE_FAILED;
  return FALSE;
}

/* specs: perflib-v2.md §8.2 — damage ends the reading: what came before
 * is the salvaged prefix. */
G_GNUC_PRINTF (4, 5)
static void
damaged (PsPlv2Reader *self,
         const char   *code,
         guint64       offset,
         const char   *format,
         ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  self->state = STATE_DAMAGED;
  self->damaged_offset = offset;
  warn (self, code, offset,
        _("Damaged record %u at byte offset %" PRIu64 ": %s. Reading stops there; the %" PRIu64 " records (%" PRIu64 " samples) before it are kept"),
        self->next_seq, offset, what, self->n_records, self->n_samples);
}

/* Gives *unit once `need` bytes of the current unit are there: in place
 * when the caller's chunk holds all of them, else accumulated. */
static gboolean
take (PsPlv2Reader  *self,
      const guint8 **data,
      gsize         *length,
      gsize          need,
      const guint8 **unit)
{
  gsize n;

  if (self->accum_len == 0 && *length >= need)
    {
      *unit = need > 0 ? *data : (const guint8 *) "";
      *data += need;
      *length -= need;
      return TRUE;
    }

  if (self->accum_alloc < need)
    {
      self->accum_alloc = MAX (need, MIN (2 * self->accum_alloc, (gsize) PS_PLV2_MAX_PAYLOAD + 8));
      self->accum = g_realloc (self->accum, self->accum_alloc);
    }
  n = MIN (need - self->accum_len, *length);
  if (n > 0)
    memcpy (self->accum + self->accum_len, *data, n);
  self->accum_len += n;
  *data += n;
  *length -= n;
  if (self->accum_len < need)
    return FALSE;

  *unit = self->accum;
  return TRUE;
}

/* specs: perflib-v2.md §8.1 */
static gboolean
read_file_header (PsPlv2Reader  *self,
                  const guint8  *unit,
                  GError       **error)
{
  PsPlv2Header *header = &self->header;

  if (memcmp (unit, PS_PLV2_MAGIC, sizeof PS_PLV2_MAGIC) != 0)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT,
                   _("Not a PLV2 capture: the magic at byte offset 0 is not “PLV2CAP”"));
      return FALSE;
    }

  header->version_major = ps_util_load_le16 (unit + 8);
  header->version_minor = ps_util_load_le16 (unit + 10);
  header->header_size = ps_util_load_le32 (unit + 12);
  header->flags = ps_util_load_le32 (unit + 16);
  header->created_utc = (gint64) ps_util_load_le64 (unit + 24);
  header->qpc_frequency = (gint64) ps_util_load_le64 (unit + 32);
  header->tz_bias_minutes = (gint32) ps_util_load_le32 (unit + 40);
  memcpy (header->session_id, unit + 48, sizeof header->session_id);

  /* A higher major version is refused; 0 never existed */
  if (header->version_major != PS_PLV2_VERSION_MAJOR)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                   _("PLV2 capture version %u.%u (byte offset 8) is not supported: this reader reads version %u.x"),
                   header->version_major, header->version_minor, PS_PLV2_VERSION_MAJOR);
      return FALSE;
    }
  if (header->header_size < PS_PLV2_HEADER_SIZE)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("The PLV2 header size at byte offset 12 is %u, expected at least %u"),
                   header->header_size, PS_PLV2_HEADER_SIZE);
      return FALSE;
    }

  /* Any minor version is accepted (§8.1): it only adds record types or
   * appends fields. */
  if (header->header_size % 8 != 0)
    warn (self, "W-PLV2-HEADER", 12,
          _("The PLV2 header size %u (byte offset 12) is not a multiple of 8: records are not aligned"),
          header->header_size);
  self->check_crc = (header->flags & PS_PLV2_FLAG_CRC) != 0;
  if (!self->check_crc)
    warn (self, "W-PLV2-FLAGS", 16,
          _("The PLV2 header says the records carry no CRC (flags 0x%08x at byte offset 16): damage cannot be detected"),
          header->flags);
  if ((header->flags & ~PS_PLV2_FLAG_CRC) != 0)
    warn (self, "W-PLV2-FLAGS", 16,
          _("Unknown PLV2 header flags 0x%08x at byte offset 16 were ignored"),
          header->flags & ~PS_PLV2_FLAG_CRC);

  self->have_header = TRUE;
  return TRUE;
}

/* specs: perflib-v2.md §8.2 — checked before the payload is waited for */
static gboolean
read_record_header (PsPlv2Reader  *self,
                    const guint8  *unit,
                    GError       **error)
{
  self->record_offset = self->offset;
  self->record_type = ps_util_load_le32 (unit);
  self->record_size = ps_util_load_le32 (unit + 4);
  self->record_crc = ps_util_load_le32 (unit + 8);
  self->record_seq = ps_util_load_le32 (unit + 12);

  if (self->record_size > PS_PLV2_MAX_PAYLOAD)
    {
      damaged (self, "W-PLV2-LENGTH", self->record_offset,
               _("payload size %u is above the limit of %u bytes"),
               self->record_size, PS_PLV2_MAX_PAYLOAD);
      return TRUE;
    }
  if (self->record_seq != self->next_seq)
    {
      damaged (self, "W-PLV2-SEQUENCE", self->record_offset,
               _("sequence number %u, expected %u"),
               self->record_seq, self->next_seq);
      return TRUE;
    }
  if ((self->record_type & PS_PLV2_MUST_UNDERSTAND) != 0 && !is_known_type (self->record_type))
    {
      g_set_error (error, PS_ERROR, PS_ERROR_UNSUPPORTED_VERSION,
                   _("Unsupported feature: record %u at byte offset %" PRIu64 " has the unknown type 0x%08x marked “must understand”; %" PRIu64 " samples were read before it"),
                   self->record_seq, self->record_offset, self->record_type, self->n_samples);
      return FALSE;
    }

  return TRUE;
}

/* specs: perflib-v2.md §8.3 — the fixed fields of each record type */
static gboolean
decode_payload (PsPlv2Record *record)
{
  const guint8 *p = record->payload;
  gsize fixed;

  switch (record->type & ~PS_PLV2_MUST_UNDERSTAND)
    {
    case PS_PLV2_RECORD_SESSION:
      fixed = SESSION_FIXED;
      break;
    case PS_PLV2_RECORD_COUNTERSET_REG:
      fixed = COUNTERSET_REG_FIXED;
      break;
    case PS_PLV2_RECORD_QUERY:
      fixed = QUERY_FIXED;
      break;
    case PS_PLV2_RECORD_SAMPLE:
      fixed = SAMPLE_FIXED;
      break;
    case PS_PLV2_RECORD_INSTANCES:
      fixed = INSTANCES_FIXED;
      break;
    case PS_PLV2_RECORD_ANNOTATION:
      fixed = ANNOTATION_FIXED;
      break;
    case PS_PLV2_RECORD_END:
      fixed = END_FIXED;
      break;
    default:
      g_assert_not_reached ();
    }

  if (record->payload_size < fixed)
    return FALSE;

  switch (record->type & ~PS_PLV2_MUST_UNDERSTAND)
    {
    case PS_PLV2_RECORD_COUNTERSET_REG:
      memcpy (record->guid, p, 16);
      record->entry_count = ps_util_load_le32 (p + 16);
      break;
    case PS_PLV2_RECORD_QUERY:
      record->generation = ps_util_load_le32 (p);
      break;
    case PS_PLV2_RECORD_SAMPLE:
      record->generation = ps_util_load_le32 (p);
      record->win32_status = ps_util_load_le32 (p + 4);
      record->has_utc = TRUE;
      record->utc = (gint64) ps_util_load_le64 (p + 8);
      break;
    case PS_PLV2_RECORD_INSTANCES:
      memcpy (record->guid, p, 16);
      record->has_utc = TRUE;
      record->utc = (gint64) ps_util_load_le64 (p + 16);
      break;
    case PS_PLV2_RECORD_ANNOTATION:
      record->has_utc = TRUE;
      record->utc = (gint64) ps_util_load_le64 (p);
      break;
    case PS_PLV2_RECORD_END:
      record->sample_count = ps_util_load_le64 (p);
      record->has_utc = TRUE;
      record->utc = (gint64) ps_util_load_le64 (p + 8);
      break;
    case PS_PLV2_RECORD_SESSION:
    default:
      break;
    }

  record->body = p + fixed;
  record->body_size = record->payload_size - fixed;
  return TRUE;
}

/* specs: perflib-v2.md §8.4 rules 2 and 5 */
static void
check_order (PsPlv2Reader *self,
             PsPlv2Record *record)
{
  switch (record->type & ~PS_PLV2_MUST_UNDERSTAND)
    {
    case PS_PLV2_RECORD_QUERY:
      if (self->have_query && record->generation <= self->last_generation)
        {
          record->flags |= PS_PLV2_RECORD_FLAG_OUT_OF_ORDER;
          warn (self, "W-PLV2-GENERATION", record->offset,
                _("QUERY record %u at byte offset %" PRIu64 " has generation %u, not above the previous %u"),
                record->seq, record->offset, record->generation, self->last_generation);
          return;
        }
      self->have_query = TRUE;
      self->last_generation = record->generation;
      g_hash_table_add (self->generations, GUINT_TO_POINTER (record->generation));
      break;

    case PS_PLV2_RECORD_SAMPLE:
      if (!g_hash_table_contains (self->generations, GUINT_TO_POINTER (record->generation)))
        {
          record->flags |= PS_PLV2_RECORD_FLAG_NO_QUERY;
          warn (self, "W-PLV2-NO-QUERY", record->offset,
                _("SAMPLE record %u at byte offset %" PRIu64 " names generation %u, which no QUERY record before it defines"),
                record->seq, record->offset, record->generation);
        }
      break;

    default:
      break;
    }
}

static gboolean
read_record_body (PsPlv2Reader  *self,
                  const guint8  *unit,
                  GError       **error)
{
  PsPlv2Record record = { 0 };
  gsize padding = padded (self->record_size) - self->record_size;
  gboolean keep_going;

  if (self->check_crc)
    {
      guint32 crc = ps_plv2_crc32 (0, unit, self->record_size);

      if (crc != self->record_crc)
        {
          damaged (self, "W-PLV2-CRC", self->record_offset,
                   _("CRC-32 of the %u payload bytes is 0x%08x, the record says 0x%08x"),
                   self->record_size, crc, self->record_crc);
          return TRUE;
        }
    }
  self->next_seq++;

  for (gsize i = 0; i < padding; i++)
    if (unit[self->record_size + i] != 0)
      {
        warn (self, "W-PLV2-PADDING", self->record_offset,
              _("Record %u at byte offset %" PRIu64 " has non-zero padding at byte offset %" PRIu64),
              self->record_seq, self->record_offset,
              self->record_offset + PS_PLV2_RECORD_HEADER_SIZE + self->record_size + i);
        break;
      }

  /* §8.2: an unknown type without the must-understand bit is skipped */
  if (!is_known_type (self->record_type))
    {
      warn (self, "W-PLV2-UNKNOWN-TYPE", self->record_offset,
            _("Record %u at byte offset %" PRIu64 " has the unknown type %u and was skipped"),
            self->record_seq, self->record_offset, self->record_type);
      return TRUE;
    }

  record.type = self->record_type;
  record.seq = self->record_seq;
  record.offset = self->record_offset;
  record.payload = unit;
  record.payload_size = self->record_size;
  if (!decode_payload (&record))
    {
      warn (self, "W-PLV2-SHORT-PAYLOAD", self->record_offset,
            _("Record %u at byte offset %" PRIu64 " (%s) has %u payload bytes, fewer than its fixed fields; it was skipped"),
            self->record_seq, self->record_offset,
            ps_plv2_record_type_to_string (self->record_type), self->record_size);
      return TRUE;
    }

  check_order (self, &record);

  if (self->has_end && !self->warned_after_end)
    {
      warn (self, "W-PLV2-AFTER-END", self->record_offset,
            _("Record %u at byte offset %" PRIu64 " follows the END record"),
            self->record_seq, self->record_offset);
      self->warned_after_end = TRUE;
    }

  self->in_callback = TRUE;
  keep_going = self->callbacks.record (&record, self->user_data, error);
  self->in_callback = FALSE;
  if (!keep_going)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                     _("Reading stopped at record %u, byte offset %" PRIu64),
                     self->record_seq, self->record_offset);
      return FALSE;
    }

  self->n_records++;
  if ((record.type & ~PS_PLV2_MUST_UNDERSTAND) == PS_PLV2_RECORD_SAMPLE)
    self->n_samples++;
  if ((record.type & ~PS_PLV2_MUST_UNDERSTAND) == PS_PLV2_RECORD_END)
    self->has_end = TRUE;
  return TRUE;
}

static gboolean
process (PsPlv2Reader  *self,
         const guint8  *data,
         gsize          length,
         GError       **error)
{
  const guint8 *unit;

  for (;;)
    {
      switch (self->state)
        {
        case STATE_FILE_HEADER:
          if (!take (self, &data, &length, PS_PLV2_HEADER_SIZE, &unit))
            return TRUE;
          if (!read_file_header (self, unit, error))
            return fail (self);
          self->accum_len = 0;
          self->offset = PS_PLV2_HEADER_SIZE;
          self->skip_left = self->header.header_size - PS_PLV2_HEADER_SIZE;
          self->state = self->skip_left > 0 ? STATE_HEADER_EXTRA : STATE_RECORD_HEADER;
          if (self->callbacks.header != NULL)
            {
              gboolean keep_going;

              self->in_callback = TRUE;
              keep_going = self->callbacks.header (&self->header, self->user_data, error);
              self->in_callback = FALSE;
              if (!keep_going)
                {
                  if (error != NULL && *error == NULL)
                    g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                                 _("Reading stopped after the PLV2 file header"));
                  return fail (self);
                }
            }
          break;

        case STATE_HEADER_EXTRA:
          {
            gsize n = (gsize) MIN (self->skip_left, (guint64) length);

            data += n;
            length -= n;
            self->offset += n;
            self->skip_left -= n;
            if (self->skip_left > 0)
              return TRUE;
            self->state = STATE_RECORD_HEADER;
          }
          break;

        case STATE_RECORD_HEADER:
          if (length == 0 && self->accum_len == 0)
            return TRUE;
          if (!take (self, &data, &length, PS_PLV2_RECORD_HEADER_SIZE, &unit))
            return TRUE;
          self->accum_len = 0;
          if (!read_record_header (self, unit, error))
            return fail (self);
          if (self->state == STATE_RECORD_HEADER)
            self->state = STATE_RECORD_BODY;
          break;

        case STATE_RECORD_BODY:
          if (!take (self, &data, &length, padded (self->record_size), &unit))
            return TRUE;
          if (!read_record_body (self, unit, error))
            {
              self->accum_len = 0;
              return fail (self);
            }
          self->accum_len = 0;
          if (self->state == STATE_RECORD_BODY)
            {
              self->offset += PS_PLV2_RECORD_HEADER_SIZE + padded (self->record_size);
              self->state = STATE_RECORD_HEADER;
            }
          break;

        case STATE_DAMAGED:
          /* §8.2: nothing after a damaged record can be trusted */
          self->accum_len = 0;
          return TRUE;

        case STATE_STOPPED:
          return TRUE;

        case STATE_FAILED:
        default:
          g_assert_not_reached ();
        }
    }
}

void
ps_plv2_reader_stop (PsPlv2Reader *self)
{
  g_return_if_fail (self != NULL);

  if (self->state != STATE_FAILED)
    self->state = STATE_STOPPED;
  self->accum_len = 0;
}

gboolean
ps_plv2_reader_feed (PsPlv2Reader  *self,
                     const guint8  *data,
                     gsize          length,
                     GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (!ps_parse_check_feed ("PLV2", self->in_callback, self->state == STATE_FAILED, self->offset, error))
    return FALSE;

  return process (self, data, length, error);
}

gboolean
ps_plv2_reader_finish (PsPlv2Reader  *self,
                       GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  switch (self->state)
    {
    case STATE_FAILED:
      return ps_parse_check_feed ("PLV2", FALSE, TRUE, self->offset, error);

    case STATE_DAMAGED:
    case STATE_STOPPED:
      return TRUE;

    case STATE_FILE_HEADER:
      if (self->accum_len == 0)
        g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                     _("The file is empty: expected a %u-byte PLV2 header at byte offset 0"),
                     PS_PLV2_HEADER_SIZE);
      else if (memcmp (self->accum, PS_PLV2_MAGIC, MIN (self->accum_len, sizeof PS_PLV2_MAGIC)) != 0)
        g_set_error (error, PS_ERROR, PS_ERROR_UNKNOWN_FORMAT,
                     _("Not a PLV2 capture: the magic at byte offset 0 is not “PLV2CAP”"));
      else
        g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                     _("The file ends inside the PLV2 header: %zu of %u bytes at byte offset 0"),
                     self->accum_len, PS_PLV2_HEADER_SIZE);
      return fail (self);

    case STATE_HEADER_EXTRA:
      g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                   _("The file ends inside the PLV2 header at byte offset %" PRIu64 ": the header is %u bytes long"),
                   self->offset, self->header.header_size);
      return fail (self);

    case STATE_RECORD_HEADER:
      if (self->accum_len > 0)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                       _("The file ends inside the header of record %u at byte offset %" PRIu64 " (%zu of %u bytes): truncated after %" PRIu64 " samples"),
                       self->next_seq, self->offset, self->accum_len, PS_PLV2_RECORD_HEADER_SIZE,
                       self->n_samples);
          return fail (self);
        }
      if (!self->has_end)
        warn (self, "W-PLV2-NO-END", self->offset,
              _("The capture has no END record at byte offset %" PRIu64 ": the recorder did not close it"),
              self->offset);
      return TRUE;

    case STATE_RECORD_BODY:
      g_set_error (error, PS_ERROR, PS_ERROR_TRUNCATED,
                   _("The file ends inside record %u (%s) at byte offset %" PRIu64 " (%zu of %zu bytes): truncated after %" PRIu64 " samples"),
                   self->record_seq, ps_plv2_record_type_to_string (self->record_type),
                   self->record_offset, PS_PLV2_RECORD_HEADER_SIZE + self->accum_len,
                   PS_PLV2_RECORD_HEADER_SIZE + padded (self->record_size), self->n_samples);
      return fail (self);

    default:
      g_assert_not_reached ();
    }
}

/* COUNTERSET_REG entries. specs: perflib-v2.md §8.3 */

void
ps_plv2_reg_iter_init (PsPlv2RegIter      *iter,
                       const PsPlv2Record *record)
{
  g_return_if_fail (iter != NULL);
  g_return_if_fail (record != NULL);

  memset (iter, 0, sizeof *iter);
  iter->offset = record->offset;
  if ((record->type & ~PS_PLV2_MUST_UNDERSTAND) != PS_PLV2_RECORD_COUNTERSET_REG)
    return;
  iter->data = record->body;
  iter->size = record->body_size;
  iter->remaining = record->entry_count;
}

gboolean
ps_plv2_reg_iter_next (PsPlv2RegIter   *iter,
                       PsPlv2RegEntry  *entry,
                       GError         **error)
{
  const guint8 *p;
  gsize left;
  guint64 entry_offset;

  g_return_val_if_fail (iter != NULL, FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);

  if (iter->remaining == 0)
    return FALSE;

  left = iter->size - iter->position;
  entry_offset = iter->offset + PS_PLV2_RECORD_HEADER_SIZE + COUNTERSET_REG_FIXED + iter->position;
  if (left < REG_ENTRY_HEADER)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("COUNTERSET_REG record at byte offset %" PRIu64 ": %u more entries announced, but only %zu bytes left at byte offset %" PRIu64),
                   iter->offset, iter->remaining, left, entry_offset);
      iter->remaining = 0;
      return FALSE;
    }

  p = iter->data + iter->position;
  entry->request_code = ps_util_load_le32 (p);
  entry->lang_id = ps_util_load_le32 (p + 4);
  entry->win32_status = ps_util_load_le32 (p + 8);
  entry->data_size = ps_util_load_le32 (p + 12);
  if (entry->data_size > left - REG_ENTRY_HEADER)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("COUNTERSET_REG record at byte offset %" PRIu64 ": the entry at byte offset %" PRIu64 " has %zu data bytes, only %zu are left"),
                   iter->offset, entry_offset, entry->data_size, left - REG_ENTRY_HEADER);
      iter->remaining = 0;
      return FALSE;
    }
  entry->data = p + REG_ENTRY_HEADER;

  /* The padding of the last entry may be missing */
  iter->position += MIN (padded (REG_ENTRY_HEADER + entry->data_size), left);
  iter->remaining--;
  return TRUE;
}

/* The writer */

struct _PsPlv2Writer
{
  GOutputStream *stream;
  GCancellable  *cancellable;
  GByteArray    *array;
  guint32        next_seq;
  guint64        n_samples;
  gboolean       failed;
};

void
ps_plv2_header_init (PsPlv2Header *header)
{
  g_return_if_fail (header != NULL);

  memset (header, 0, sizeof *header);
  header->version_major = PS_PLV2_VERSION_MAJOR;
  header->version_minor = PS_PLV2_VERSION_MINOR;
  header->header_size = PS_PLV2_HEADER_SIZE;
  header->flags = PS_PLV2_FLAG_CRC;
}

static gboolean
writer_write (PsPlv2Writer  *self,
              const guint8  *data,
              gsize          length,
              GError       **error)
{
  if (length == 0)
    return TRUE;
  if (self->array != NULL)
    {
      g_byte_array_append (self->array, data, length);
      return TRUE;
    }
  if (!g_output_stream_write_all (self->stream, data, length, NULL, self->cancellable, error))
    {
      self->failed = TRUE;
      return FALSE;
    }
  return TRUE;
}

static gboolean
writer_write_zeros (PsPlv2Writer  *self,
                    gsize          length,
                    GError       **error)
{
  static const guint8 zeros[64] = { 0 };

  while (length > 0)
    {
      gsize n = MIN (length, sizeof zeros);

      if (!writer_write (self, zeros, n, error))
        return FALSE;
      length -= n;
    }
  return TRUE;
}

static gboolean
writer_write_header (PsPlv2Writer        *self,
                     const PsPlv2Header  *header,
                     GError             **error)
{
  PsPlv2Header defaults;
  guint8 bytes[PS_PLV2_HEADER_SIZE] = { 0 };

  if (header == NULL)
    {
      ps_plv2_header_init (&defaults);
      header = &defaults;
    }

  memcpy (bytes, PS_PLV2_MAGIC, sizeof PS_PLV2_MAGIC);
  store16 (bytes + 8, header->version_major);
  store16 (bytes + 10, header->version_minor);
  store32 (bytes + 12, header->header_size);
  store32 (bytes + 16, header->flags);
  store64 (bytes + 24, (guint64) header->created_utc);
  store64 (bytes + 32, (guint64) header->qpc_frequency);
  store32 (bytes + 40, (guint32) header->tz_bias_minutes);
  memcpy (bytes + 48, header->session_id, sizeof header->session_id);

  if (!writer_write (self, bytes, sizeof bytes, error))
    return FALSE;
  if (header->header_size > PS_PLV2_HEADER_SIZE
      && !writer_write_zeros (self, header->header_size - PS_PLV2_HEADER_SIZE, error))
    return FALSE;
  if (self->stream != NULL
      && !g_output_stream_flush (self->stream, self->cancellable, error))
    {
      self->failed = TRUE;
      return FALSE;
    }
  return TRUE;
}

PsPlv2Writer *
ps_plv2_writer_new_for_stream (GOutputStream       *stream,
                               const PsPlv2Header  *header,
                               GCancellable        *cancellable,
                               GError             **error)
{
  g_autoptr(PsPlv2Writer) self = NULL;

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  self = g_new0 (PsPlv2Writer, 1);
  self->stream = g_object_ref (stream);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  if (!writer_write_header (self, header, error))
    return NULL;
  return g_steal_pointer (&self);
}

PsPlv2Writer *
ps_plv2_writer_new_for_byte_array (GByteArray         *array,
                                   const PsPlv2Header *header)
{
  PsPlv2Writer *self;

  g_return_val_if_fail (array != NULL, NULL);

  self = g_new0 (PsPlv2Writer, 1);
  self->array = g_byte_array_ref (array);
  writer_write_header (self, header, NULL);
  return self;
}

void
ps_plv2_writer_free (PsPlv2Writer *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->stream);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->array, g_byte_array_unref);
  g_free (self);
}

guint32
ps_plv2_writer_get_n_records (PsPlv2Writer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->next_seq;
}

/* The payload in pieces, so that fixed fields and a verbatim buffer need
 * no copy into one block */
static gboolean
writer_add_pieces (PsPlv2Writer  *self,
                   guint32        type,
                   const guint8  *fixed,
                   gsize          fixed_size,
                   const guint8  *body,
                   gsize          body_size,
                   GError       **error)
{
  guint8 header[PS_PLV2_RECORD_HEADER_SIZE];
  gsize payload_size = fixed_size + body_size;

  if (self->failed)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_FAILED,
                   _("The PLV2 writer failed earlier; record %u was not written"),
                   self->next_seq);
      return FALSE;
    }
  if (body_size > PS_PLV2_MAX_PAYLOAD || payload_size > PS_PLV2_MAX_PAYLOAD)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TOO_LARGE,
                   _("A PLV2 record payload of %zu bytes is above the limit of %u bytes"),
                   payload_size, PS_PLV2_MAX_PAYLOAD);
      return FALSE;
    }

  store32 (header, type);
  store32 (header + 4, (guint32) payload_size);
  store32 (header + 8, ps_plv2_crc32 (ps_plv2_crc32 (0, fixed, fixed_size), body, body_size));
  store32 (header + 12, self->next_seq);

  if (!writer_write (self, header, sizeof header, error)
      || !writer_write (self, fixed, fixed_size, error)
      || !writer_write (self, body, body_size, error)
      || !writer_write_zeros (self, padded (payload_size) - payload_size, error))
    {
      self->failed = TRUE;
      return FALSE;
    }
  /* specs: perflib-v2.md §8.5 — flush after each record */
  if (self->stream != NULL
      && !g_output_stream_flush (self->stream, self->cancellable, error))
    {
      self->failed = TRUE;
      return FALSE;
    }

  self->next_seq++;
  if ((type & ~PS_PLV2_MUST_UNDERSTAND) == PS_PLV2_RECORD_SAMPLE)
    self->n_samples++;
  return TRUE;
}

gboolean
ps_plv2_writer_add_record (PsPlv2Writer  *self,
                           guint32        type,
                           const guint8  *payload,
                           gsize          payload_size,
                           GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (payload != NULL || payload_size == 0, FALSE);

  return writer_add_pieces (self, type, NULL, 0, payload, payload_size, error);
}

gboolean
ps_plv2_writer_add_session (PsPlv2Writer       *self,
                            const char * const *key_values,
                            GError            **error)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; key_values != NULL && key_values[i] != NULL; i += 2)
    {
      const char *value = key_values[i + 1] != NULL ? key_values[i + 1] : "";

      g_return_val_if_fail (strpbrk (key_values[i], "=\n") == NULL, FALSE);
      g_return_val_if_fail (strchr (value, '\n') == NULL, FALSE);
      g_string_append_printf (text, "%s=%s\n", key_values[i], value);
      if (key_values[i + 1] == NULL)
        break;
    }

  return writer_add_pieces (self, PS_PLV2_RECORD_SESSION, NULL, 0,
                            (const guint8 *) text->str, text->len, error);
}

gboolean
ps_plv2_writer_add_counterset_reg (PsPlv2Writer         *self,
                                   const guint8          guid[16],
                                   const PsPlv2RegEntry *entries,
                                   guint                 n_entries,
                                   GError              **error)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();
  guint8 fixed[COUNTERSET_REG_FIXED] = { 0 };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (guid != NULL, FALSE);
  g_return_val_if_fail (entries != NULL || n_entries == 0, FALSE);

  memcpy (fixed, guid, 16);
  store32 (fixed + 16, n_entries);
  for (guint i = 0; i < n_entries; i++)
    {
      guint8 entry_header[REG_ENTRY_HEADER];
      static const guint8 zeros[8] = { 0 };

      if (entries[i].data_size > PS_PLV2_MAX_PAYLOAD)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_TOO_LARGE,
                       _("A COUNTERSET_REG entry of %zu bytes is above the PLV2 record limit"),
                       entries[i].data_size);
          return FALSE;
        }
      store32 (entry_header, entries[i].request_code);
      store32 (entry_header + 4, entries[i].lang_id);
      store32 (entry_header + 8, entries[i].win32_status);
      store32 (entry_header + 12, (guint32) entries[i].data_size);
      g_byte_array_append (body, entry_header, sizeof entry_header);
      if (entries[i].data_size > 0)
        g_byte_array_append (body, entries[i].data, entries[i].data_size);
      g_byte_array_append (body, zeros, padded (entries[i].data_size) - entries[i].data_size);
      if (body->len > PS_PLV2_MAX_PAYLOAD)
        {
          g_set_error (error, PS_ERROR, PS_ERROR_TOO_LARGE,
                       _("A COUNTERSET_REG record is above the PLV2 record limit of %u bytes"),
                       PS_PLV2_MAX_PAYLOAD);
          return FALSE;
        }
    }

  return writer_add_pieces (self, PS_PLV2_RECORD_COUNTERSET_REG, fixed, sizeof fixed,
                            body->data, body->len, error);
}

gboolean
ps_plv2_writer_add_query (PsPlv2Writer  *self,
                          guint32        generation,
                          const guint8  *identifiers,
                          gsize          size,
                          GError       **error)
{
  guint8 fixed[QUERY_FIXED] = { 0 };

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (identifiers != NULL || size == 0, FALSE);

  store32 (fixed, generation);
  return writer_add_pieces (self, PS_PLV2_RECORD_QUERY, fixed, sizeof fixed, identifiers, size, error);
}

gboolean
ps_plv2_writer_add_sample (PsPlv2Writer  *self,
                           guint32        generation,
                           guint32        win32_status,
                           gint64         writer_utc,
                           const guint8  *buffer,
                           gsize          size,
                           GError       **error)
{
  guint8 fixed[SAMPLE_FIXED];

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (buffer != NULL || size == 0, FALSE);

  store32 (fixed, generation);
  store32 (fixed + 4, win32_status);
  store64 (fixed + 8, (guint64) writer_utc);
  /* §8.4 rule 5: a failed query carries no buffer */
  if (win32_status != 0)
    size = 0;
  return writer_add_pieces (self, PS_PLV2_RECORD_SAMPLE, fixed, sizeof fixed, buffer, size, error);
}

gboolean
ps_plv2_writer_add_instances (PsPlv2Writer  *self,
                              const guint8   guid[16],
                              gint64         writer_utc,
                              const guint8  *data,
                              gsize          size,
                              GError       **error)
{
  guint8 fixed[INSTANCES_FIXED];

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (guid != NULL, FALSE);
  g_return_val_if_fail (data != NULL || size == 0, FALSE);

  memcpy (fixed, guid, 16);
  store64 (fixed + 16, (guint64) writer_utc);
  return writer_add_pieces (self, PS_PLV2_RECORD_INSTANCES, fixed, sizeof fixed, data, size, error);
}

gboolean
ps_plv2_writer_add_annotation (PsPlv2Writer  *self,
                               gint64         utc,
                               const char    *text,
                               GError       **error)
{
  guint8 fixed[ANNOTATION_FIXED];

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  store64 (fixed, (guint64) utc);
  return writer_add_pieces (self, PS_PLV2_RECORD_ANNOTATION, fixed, sizeof fixed,
                            (const guint8 *) text, strlen (text), error);
}

gboolean
ps_plv2_writer_add_end (PsPlv2Writer  *self,
                        gint64         last_utc,
                        GError       **error)
{
  guint8 fixed[END_FIXED];

  g_return_val_if_fail (self != NULL, FALSE);

  store64 (fixed, self->n_samples);
  store64 (fixed + 8, (guint64) last_utc);
  return writer_add_pieces (self, PS_PLV2_RECORD_END, fixed, sizeof fixed, NULL, 0, error);
}

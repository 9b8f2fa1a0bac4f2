/* ps-perflib-block.c — PerfLib V2 buffers decoded from untrusted bytes
 *
 * Copyright 2026 The Perfscope authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * specs: perflib-v2.md §2 (encodings), §3.1–§3.9 (layouts), §4.1 and §4.3
 * (the counter type word), §6 (validation rules 1–13 and 15), §9.1–§9.2.
 *
 * Every structure is read through a cursor that knows the end of its
 * container: a size field is compared with the bytes left in the
 * container (never added to an offset first), so a size that lies can
 * only stop the decoder, never make it read past the container. All sums
 * are done in gsize/guint64 and all counts are bounded by what the
 * remaining bytes could hold before anything is allocated for them.
 * This file has the counter type word and the counter data buffers; the
 * registration information and the counter identifiers are decoded in
 * ps-perflib-counterset.c.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ps-error.h"
#include "ps-util.h"
#include "ps-parse-kit.h"
#include "ps-perflib-block-private.h"

/* ------------------------------------------------------------------ */
/* The counter type word                                              */
/* ------------------------------------------------------------------ */

#define T(name, formula, raw, samples, is_base, base, multi, time, unit, hex) \
  { PS_##name, #name, PS_PERFLIB_FORMULA_##formula, raw, samples, is_base, base, multi, \
    PS_PERFLIB_TIME_##time, PS_PERFLIB_UNIT_##unit, hex }

/* specs: perflib-v2.md §4.3, §3.9 (base types from the manifest schema),
 * §5.1 (time sources) */
static const PsPerflibTypeInfo type_table[] = {
  T (PERF_COUNTER_RAWCOUNT_HEX,           RAW,             4, 1, FALSE, 0, FALSE, NONE, COUNT, TRUE),
  T (PERF_COUNTER_LARGE_RAWCOUNT_HEX,     RAW,             8, 1, FALSE, 0, FALSE, NONE, COUNT, TRUE),
  T (PERF_COUNTER_TEXT,                   TEXT,            0, 1, FALSE, 0, FALSE, NONE, TEXT, FALSE),
  T (PERF_COUNTER_RAWCOUNT,               RAW,             4, 1, FALSE, 0, FALSE, NONE, COUNT, FALSE),
  T (PERF_COUNTER_LARGE_RAWCOUNT,         RAW,             8, 1, FALSE, 0, FALSE, NONE, COUNT, FALSE),
  T (PERF_COUNTER_DELTA,                  DELTA,           4, 2, FALSE, 0, FALSE, NONE, COUNT, FALSE),
  T (PERF_COUNTER_LARGE_DELTA,            DELTA,           8, 2, FALSE, 0, FALSE, NONE, COUNT, FALSE),
  T (PERF_SAMPLE_COUNTER,                 RATE,            4, 2, FALSE, 0, FALSE, SYSTEM_TICKS, PER_SECOND, FALSE),
  T (PERF_COUNTER_QUEUELEN_TYPE,          QUEUELEN,        4, 2, FALSE, 0, FALSE, SYSTEM_TICKS, COUNT, FALSE),
  T (PERF_COUNTER_LARGE_QUEUELEN_TYPE,    QUEUELEN,        8, 2, FALSE, 0, FALSE, SYSTEM_TICKS, COUNT, FALSE),
  T (PERF_COUNTER_100NS_QUEUELEN_TYPE,    QUEUELEN,        8, 2, FALSE, 0, FALSE, 100NS, COUNT, FALSE),
  T (PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, QUEUELEN,        8, 2, FALSE, 0, FALSE, OBJECT, COUNT, FALSE),
  T (PERF_COUNTER_COUNTER,                RATE,            4, 2, FALSE, 0, FALSE, SYSTEM_TICKS, PER_SECOND, FALSE),
  T (PERF_COUNTER_BULK_COUNT,             RATE,            8, 2, FALSE, 0, FALSE, SYSTEM_TICKS, PER_SECOND, FALSE),
  T (PERF_RAW_FRACTION,                   FRACTION,        4, 1, FALSE, PS_PERF_RAW_BASE, FALSE, NONE, PERCENT, FALSE),
  T (PERF_LARGE_RAW_FRACTION,             FRACTION,        8, 1, FALSE, PS_PERF_LARGE_RAW_BASE, FALSE, NONE, PERCENT, FALSE),
  T (PERF_COUNTER_TIMER,                  TIMER,           8, 2, FALSE, 0, FALSE, SYSTEM_TICKS, PERCENT, FALSE),
  T (PERF_PRECISION_SYSTEM_TIMER,         PRECISION,       8, 2, FALSE, PS_PERF_PRECISION_TIMESTAMP, FALSE, BASE_COUNTER, PERCENT, FALSE),
  T (PERF_100NSEC_TIMER,                  TIMER,           8, 2, FALSE, 0, FALSE, 100NS, PERCENT, FALSE),
  T (PERF_PRECISION_100NS_TIMER,          PRECISION,       8, 2, FALSE, PS_PERF_PRECISION_TIMESTAMP, FALSE, BASE_COUNTER, PERCENT, FALSE),
  T (PERF_OBJ_TIME_TIMER,                 TIMER,           8, 2, FALSE, 0, FALSE, OBJECT, PERCENT, FALSE),
  T (PERF_PRECISION_OBJECT_TIMER,         TIMER,           8, 2, FALSE, 0, FALSE, OBJECT, PERCENT, FALSE),
  T (PERF_SAMPLE_FRACTION,                SAMPLE_FRACTION, 4, 2, FALSE, PS_PERF_SAMPLE_BASE, FALSE, NONE, PERCENT, FALSE),
  T (PERF_COUNTER_TIMER_INV,              TIMER_INV,       8, 2, FALSE, 0, FALSE, SYSTEM_TICKS, PERCENT, FALSE),
  T (PERF_100NSEC_TIMER_INV,              TIMER_INV,       8, 2, FALSE, 0, FALSE, 100NS, PERCENT, FALSE),
  T (PERF_COUNTER_MULTI_TIMER,            MULTI_TIMER,     8, 2, FALSE, 0, TRUE, SYSTEM_TICKS, PERCENT, FALSE),
  T (PERF_100NSEC_MULTI_TIMER,            MULTI_TIMER,     8, 2, FALSE, 0, TRUE, 100NS, PERCENT, FALSE),
  T (PERF_COUNTER_MULTI_TIMER_INV,        MULTI_TIMER_INV, 8, 2, FALSE, PS_PERF_COUNTER_MULTI_BASE, TRUE, SYSTEM_TICKS, PERCENT, FALSE),
  T (PERF_100NSEC_MULTI_TIMER_INV,        MULTI_TIMER_INV, 8, 2, FALSE, 0, TRUE, 100NS, PERCENT, FALSE),
  T (PERF_AVERAGE_TIMER,                  AVERAGE_TIMER,   4, 2, FALSE, PS_PERF_AVERAGE_BASE, FALSE, SYSTEM_TICKS, SECONDS, FALSE),
  T (PERF_ELAPSED_TIME,                   ELAPSED,         8, 1, FALSE, 0, FALSE, OBJECT, SECONDS, FALSE),
  T (PERF_AVERAGE_BULK,                   AVERAGE_BULK,    8, 2, FALSE, PS_PERF_AVERAGE_BASE, FALSE, NONE, COUNT, FALSE),
  T (PERF_COUNTER_NODATA,                 HIDDEN,          0, 0, FALSE, 0, FALSE, NONE, NONE, FALSE),
  T (PERF_SAMPLE_BASE,                    HIDDEN,          4, 0, TRUE, 0, FALSE, NONE, NONE, FALSE),
  T (PERF_AVERAGE_BASE,                   HIDDEN,          4, 0, TRUE, 0, FALSE, NONE, NONE, FALSE),
  T (PERF_RAW_BASE,                       HIDDEN,          4, 0, TRUE, 0, FALSE, NONE, NONE, FALSE),
  T (PERF_LARGE_RAW_BASE,                 HIDDEN,          8, 0, TRUE, 0, FALSE, NONE, NONE, FALSE),
  T (PERF_COUNTER_MULTI_BASE,             HIDDEN,          8, 0, TRUE, 0, FALSE, NONE, NONE, FALSE),
  T (PERF_COUNTER_HISTOGRAM_TYPE,         HIDDEN,          0, 0, FALSE, 0, FALSE, NONE, NONE, FALSE),
};

#undef T

guint32
ps_perflib_type_get_size_field (guint32 type)
{
  return type & PS_PERF_SIZE_MASK;
}

/* Bytes of raw value the size field announces: 0 for ZERO, G_MAXUINT for
 * VARIABLE_LEN. */
guint
ps_perflib_type_get_value_size (guint32 type)
{
  switch (type & PS_PERF_SIZE_MASK)
    {
    case PS_PERF_SIZE_DWORD: return 4;
    case PS_PERF_SIZE_LARGE: return 8;
    case PS_PERF_SIZE_ZERO: return 0;
    default: return G_MAXUINT;
    }
}

guint32
ps_perflib_type_get_kind (guint32 type)
{
  return type & PS_PERF_TYPE_MASK;
}

guint32
ps_perflib_type_get_subtype (guint32 type)
{
  return type & PS_PERF_SUBTYPE_MASK;
}

guint32
ps_perflib_type_get_time_base (guint32 type)
{
  return type & PS_PERF_TIMER_MASK;
}

/* The DELTA_COUNTER, DELTA_BASE, INVERSE and MULTI bits of @type. */
guint32
ps_perflib_type_get_modifiers (guint32 type)
{
  return type & (PS_PERF_DELTA_COUNTER | PS_PERF_DELTA_BASE |
                 PS_PERF_INVERSE_COUNTER | PS_PERF_MULTI_COUNTER);
}

guint32
ps_perflib_type_get_display_suffix (guint32 type)
{
  return type & PS_PERF_DISPLAY_MASK;
}

/* The table by type word: every reading of a capture asks, so an
 * open-addressing index (a quarter full) replaces a walk over the table */
#define TYPE_INDEX_SIZE 256

static guint
type_slot (guint32 type)
{
  return (guint)((type * 0x9E3779B1u) >> 24) & (TYPE_INDEX_SIZE - 1);
}

const PsPerflibTypeInfo *
ps_perflib_type_get_info (guint32 type)
{
  static guint8 index[TYPE_INDEX_SIZE];  /* table position + 1, 0: free */
  static gsize initialized = 0;

  G_STATIC_ASSERT (G_N_ELEMENTS (type_table) < TYPE_INDEX_SIZE / 2);

  if (g_once_init_enter (&initialized))
    {
      for (gsize i = 0; i < G_N_ELEMENTS (type_table); i++)
        {
          guint slot = type_slot (type_table[i].type);

          while (index[slot] != 0)
            slot = (slot + 1) & (TYPE_INDEX_SIZE - 1);
          index[slot] = (guint8)(i + 1);
        }
      g_once_init_leave (&initialized, 1);
    }

  for (guint slot = type_slot (type); index[slot] != 0; slot = (slot + 1) & (TYPE_INDEX_SIZE - 1))
    if (type_table[index[slot] - 1].type == type)
      return &type_table[index[slot] - 1];
  return NULL;
}

/* The winperf.h name of @type, or NULL for a type not in §4.3. */
const char *
ps_perflib_type_to_string (guint32 type)
{
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

  return info != NULL ? info->name : NULL;
}

gboolean
ps_perflib_type_needs_base (guint32 type)
{
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

  if (info != NULL)
    return info->base_type != 0;
  return (type & PS_PERF_TYPE_MASK) == PS_PERF_TYPE_COUNTER &&
         ((type & PS_PERF_SUBTYPE_MASK) == PS_PERF_COUNTER_FRACTION ||
          (type & PS_PERF_SUBTYPE_MASK) == PS_PERF_COUNTER_PRECISION);
}

gboolean
ps_perflib_type_needs_time_base (guint32 type)
{
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

  if (info != NULL)
    return info->time_source != PS_PERFLIB_TIME_NONE;
  return (type & PS_PERF_TYPE_MASK) == PS_PERF_TYPE_COUNTER &&
         ((type & PS_PERF_SUBTYPE_MASK) == PS_PERF_COUNTER_RATE ||
          (type & PS_PERF_SUBTYPE_MASK) == PS_PERF_COUNTER_QUEUELEN ||
          (type & PS_PERF_SUBTYPE_MASK) == PS_PERF_COUNTER_ELAPSED);
}

PsPerflibUnit
ps_perflib_type_get_unit (guint32 type)
{
  const PsPerflibTypeInfo *info = ps_perflib_type_get_info (type);

  if (info != NULL)
    return info->unit;
  if ((type & PS_PERF_TYPE_MASK) == PS_PERF_TYPE_TEXT)
    return PS_PERFLIB_UNIT_TEXT;
  switch (type & PS_PERF_DISPLAY_MASK)
    {
    case PS_PERF_DISPLAY_PER_SEC: return PS_PERFLIB_UNIT_PER_SECOND;
    case PS_PERF_DISPLAY_PERCENT: return PS_PERFLIB_UNIT_PERCENT;
    case PS_PERF_DISPLAY_SECONDS: return PS_PERFLIB_UNIT_SECONDS;
    case PS_PERF_DISPLAY_NOSHOW: return PS_PERFLIB_UNIT_NONE;
    default: return PS_PERFLIB_UNIT_COUNT;
    }
}

/* Untranslated identifiers ("percent", "per second", …) for exports and
 * lookups; the UI translates its own labels. */
const char *
ps_perflib_unit_to_string (PsPerflibUnit unit)
{
  switch (unit)
    {
    case PS_PERFLIB_UNIT_NONE: return "none";
    case PS_PERFLIB_UNIT_COUNT: return "count";
    case PS_PERFLIB_UNIT_PER_SECOND: return "per second";
    case PS_PERFLIB_UNIT_PERCENT: return "percent";
    case PS_PERFLIB_UNIT_SECONDS: return "seconds";
    case PS_PERFLIB_UNIT_TEXT: return "text";
    default: return "unknown";
    }
}

/* ------------------------------------------------------------------ */
/* GUID                                                               */
/* ------------------------------------------------------------------ */

void
ps_perflib_guid_read (PsPerflibGuid *guid,
                      const guint8  *bytes16)
{
  guid->data1 = ps_util_load_le32 (bytes16);
  guid->data2 = ps_util_load_le16 (bytes16 + 4);
  guid->data3 = ps_util_load_le16 (bytes16 + 6);
  memcpy (guid->data4, bytes16 + 8, 8);
}

gboolean
ps_perflib_guid_equal (const PsPerflibGuid *a,
                       const PsPerflibGuid *b)
{
  return a->data1 == b->data1 && a->data2 == b->data2 && a->data3 == b->data3 &&
         memcmp (a->data4, b->data4, 8) == 0;
}

char *
ps_perflib_guid_to_string (const PsPerflibGuid *guid)
{
  return g_strdup_printf ("{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
                          guid->data1, guid->data2, guid->data3,
                          guid->data4[0], guid->data4[1], guid->data4[2], guid->data4[3],
                          guid->data4[4], guid->data4[5], guid->data4[6], guid->data4[7]);
}

/* ------------------------------------------------------------------ */
/* Shared helpers: warnings, strings                                  */
/* ------------------------------------------------------------------ */

static void
warning_clear (gpointer data)
{
  PsPerflibWarning *warning = data;

  g_clear_pointer (&warning->message, g_free);
}

GArray *
ps_perflib_warnings_new (void)
{
  GArray *warnings = g_array_new (FALSE, TRUE, sizeof (PsPerflibWarning));

  g_array_set_clear_func (warnings, warning_clear);
  return warnings;
}

G_GNUC_PRINTF (4, 5)
void
ps_perflib_add_warning (GArray               *warnings,
                        PsPerflibWarningCode  code,
                        gsize                 offset,
                        const char           *format,
                        ...)
{
  PsPerflibWarning warning;
  va_list args;

  va_start (args, format);
  warning.code = code;
  warning.offset = offset;
  warning.message = g_strdup_vprintf (format, args);
  va_end (args);
  g_array_append_val (warnings, warning);
}

/* Index of the first NUL code unit among the @max_units UTF-16 code units
 * at @p, or -1. Works at any alignment. */
gssize
ps_perflib_find_utf16_nul (const guint8 *p,
                           gsize         max_units)
{
  for (gsize i = 0; i < max_units; i++)
    if (p[2 * i] == 0 && p[2 * i + 1] == 0)
      return (gssize) i;
  return -1;
}

/* UTF-16LE → UTF-8; ill-formed surrogates become U+FFFD (§6 rule 7).
 * Returns whether any replacement was made. */
gboolean
ps_perflib_utf16le_to_utf8 (GString      *out,
                            const guint8 *p,
                            gsize         n_units)
{
  PsUtf16Decoder decoder;

  ps_utf16_decoder_init (&decoder, FALSE);
  g_string_truncate (out, 0);
  ps_utf16_decoder_feed (&decoder, p, 2 * n_units, out);
  ps_utf16_decoder_finish (&decoder, out);
  return decoder.replaced;
}

/* ------------------------------------------------------------------ */
/* Counter data buffers                                               */
/* ------------------------------------------------------------------ */

typedef struct
{
  GArray       *blocks;
  GArray       *instances;
  GArray       *values;
  GArray       *counter_ids;
  GArray       *warnings;
  GStringChunk *strings;
} BufferPrivate;

typedef struct
{
  const guint8  *data;
  BufferPrivate *priv;
  GString       *scratch;
  GError        *error;
} Decoder;

static void
buffer_publish (PsPerflibBuffer *buffer)
{
  BufferPrivate *priv = buffer->priv;

  buffer->blocks = (const PsPerflibBlock *) (gpointer) priv->blocks->data;
  buffer->n_blocks = priv->blocks->len;
  buffer->instances = (const PsPerflibInstance *) (gpointer) priv->instances->data;
  buffer->n_instances = priv->instances->len;
  buffer->values = (const PsPerflibValue *) (gpointer) priv->values->data;
  buffer->n_values = priv->values->len;
  buffer->counter_ids = (const guint32 *) (gpointer) priv->counter_ids->data;
  buffer->n_counter_ids = priv->counter_ids->len;
  buffer->warnings = (const PsPerflibWarning *) (gpointer) priv->warnings->data;
  buffer->n_warnings = priv->warnings->len;
}

void
ps_perflib_buffer_free (PsPerflibBuffer *buffer)
{
  BufferPrivate *priv;

  if (buffer == NULL)
    return;
  priv = buffer->priv;
  g_array_unref (priv->blocks);
  g_array_unref (priv->instances);
  g_array_unref (priv->values);
  g_array_unref (priv->counter_ids);
  g_array_unref (priv->warnings);
  g_string_chunk_free (priv->strings);
  g_free (priv);
  g_free (buffer);
}

G_GNUC_PRINTF (3, 4)
static void
decoder_fail (Decoder    *decoder,
              gsize       offset,
              const char *format,
              ...)
{
  g_autofree char *detail = NULL;
  va_list args;

  if (decoder->error != NULL)
    return;
  va_start (args, format);
  detail = g_strdup_vprintf (format, args);
  va_end (args);
  decoder->error = g_error_new (PS_ERROR, PS_ERROR_PARSE,
                                _("Bad PerfLib data at byte offset %" PRIu64 ": %s"),
                                (guint64) offset, detail);
}

static void
check_unused (Decoder    *decoder,
              gsize       used_end,
              gsize       end,
              const char *what,
              gsize       offset)
{
  /* Padding to the next multiple of 8 is expected; more is not. */
  if (end > used_end && (end - used_end >= 8 || !is_aligned8 (end)))
    ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_UNUSED_BYTES, used_end,
                            _("%s at byte offset %" PRIu64 " has %" PRIu64 " unused bytes at byte offset %" PRIu64),
                            what, (guint64) offset, (guint64) (end - used_end), (guint64) used_end);
}

/* specs: perflib-v2.md §3.3, §6 rule 8 — one PERF_COUNTER_DATA in
 * [*pos, end). Appends a value unless @keep is FALSE (a rejected
 * instance's data is checked, then dropped). */
static gboolean
decode_counter_data (Decoder *decoder,
                     gsize   *pos,
                     gsize    end,
                     guint32  counter_id,
                     guint    instance,
                     gboolean keep)
{
  const guint8 *p = decoder->data + *pos;
  PsPerflibValue value = { 0 };
  guint32 data_size;
  guint32 size;

  if (end - *pos < COUNTER_DATA_SIZE)
    {
      decoder_fail (decoder, *pos,
                    _("expected an 8-byte PERF_COUNTER_DATA, only %" PRIu64 " bytes left in its container"),
                    (guint64) (end - *pos));
      return FALSE;
    }
  data_size = ps_util_load_le32 (p);
  size = ps_util_load_le32 (p + 4);
  if (size < COUNTER_DATA_SIZE || size > end - *pos)
    {
      decoder_fail (decoder, *pos,
                    _("PERF_COUNTER_DATA dwSize is %u, expected 8 to %" PRIu64 " (the bytes left in its container)"),
                    size, (guint64) (end - *pos));
      return FALSE;
    }
  if (data_size > size - COUNTER_DATA_SIZE)
    {
      decoder_fail (decoder, *pos,
                    _("PERF_COUNTER_DATA dwDataSize is %u, expected at most dwSize − 8 = %u"),
                    data_size, size - COUNTER_DATA_SIZE);
      return FALSE;
    }
  if (!is_aligned8 (size))
    ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE, *pos,
                            _("PERF_COUNTER_DATA at byte offset %" PRIu64 " has dwSize %u, not a multiple of 8"),
                            (guint64) *pos, size);

  if (keep)
    {
      value.offset = *pos;
      value.data_offset = *pos + COUNTER_DATA_SIZE;
      value.counter_id = counter_id;
      value.data_size = data_size;
      value.instance = instance;
      if (data_size == 4)
        {
          value.has_value = TRUE;
          value.value = ps_util_load_le32 (p + 8);
        }
      else if (data_size == 8)
        {
          value.has_value = TRUE;
          value.value = ps_util_load_le64 (p + 8);
        }
      else
        ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_OPAQUE_VALUE, *pos,
                                _("PERF_COUNTER_DATA at byte offset %" PRIu64 " has a %u-byte value, not 4 or 8: kept as opaque bytes"),
                                (guint64) *pos, data_size);
      g_array_append_val (decoder->priv->values, value);
    }
  *pos += size;
  return TRUE;
}

/* specs: perflib-v2.md §3.4, §6 rule 5 */
static gboolean
decode_multi_counters (Decoder        *decoder,
                       gsize          *pos,
                       gsize           end,
                       PsPerflibBlock *block)
{
  const guint8 *p = decoder->data + *pos;
  guint32 size;
  guint32 n_counters;

  if (end - *pos < MULTI_COUNTERS_SIZE)
    {
      decoder_fail (decoder, *pos,
                    _("expected an 8-byte PERF_MULTI_COUNTERS, only %" PRIu64 " bytes left in the block"),
                    (guint64) (end - *pos));
      return FALSE;
    }
  size = ps_util_load_le32 (p);
  n_counters = ps_util_load_le32 (p + 4);
  if (size < MULTI_COUNTERS_SIZE || size > end - *pos)
    {
      decoder_fail (decoder, *pos,
                    _("PERF_MULTI_COUNTERS dwSize is %u, expected 8 to %" PRIu64 " (the bytes left in the block)"),
                    size, (guint64) (end - *pos));
      return FALSE;
    }
  if (n_counters > (size - MULTI_COUNTERS_SIZE) / 4)
    {
      decoder_fail (decoder, *pos,
                    _("PERF_MULTI_COUNTERS dwCounters is %u, but its dwSize %u holds at most %u counter IDs"),
                    n_counters, size, (size - MULTI_COUNTERS_SIZE) / 4);
      return FALSE;
    }
  check_unused (decoder, *pos + MULTI_COUNTERS_SIZE + 4 * (gsize) n_counters, *pos + size,
                "PERF_MULTI_COUNTERS", *pos);

  block->first_counter_id = decoder->priv->counter_ids->len;
  block->n_counter_ids = n_counters;
  for (guint32 i = 0; i < n_counters; i++)
    {
      guint32 id = ps_util_load_le32 (p + MULTI_COUNTERS_SIZE + 4 * (gsize) i);

      g_array_append_val (decoder->priv->counter_ids, id);
    }
  *pos += size;
  return TRUE;
}

/* specs: perflib-v2.md §3.5–§3.6, §6 rules 6–7. Each instance carries
 * @n_per_instance data blocks whose ids are the block's counter_ids, or
 * one block without id when @with_ids is FALSE. */
static gboolean
decode_multi_instances (Decoder        *decoder,
                        gsize          *pos,
                        gsize           end,
                        PsPerflibBlock *block,
                        gboolean        with_ids)
{
  const guint8 *p = decoder->data + *pos;
  gsize start = *pos;
  gsize region_end;
  gsize cursor;
  guint32 total_size;
  guint32 n_instances;
  guint n_per_instance = with_ids ? block->n_counter_ids : 1;

  if (end - *pos < MULTI_INSTANCES_SIZE)
    {
      decoder_fail (decoder, *pos,
                    _("expected an 8-byte PERF_MULTI_INSTANCES, only %" PRIu64 " bytes left in the block"),
                    (guint64) (end - *pos));
      return FALSE;
    }
  total_size = ps_util_load_le32 (p);
  n_instances = ps_util_load_le32 (p + 4);
  if (total_size < MULTI_INSTANCES_SIZE || total_size > end - *pos)
    {
      decoder_fail (decoder, *pos,
                    _("PERF_MULTI_INSTANCES dwTotalSize is %u, expected 8 to %" PRIu64 " (the bytes left in the block)"),
                    total_size, (guint64) (end - *pos));
      return FALSE;
    }
  if (n_instances > (total_size - MULTI_INSTANCES_SIZE) / INSTANCE_HEADER_SIZE)
    {
      decoder_fail (decoder, *pos,
                    _("PERF_MULTI_INSTANCES dwInstances is %u, but its dwTotalSize %u holds at most %u instances"),
                    n_instances, total_size, (total_size - MULTI_INSTANCES_SIZE) / INSTANCE_HEADER_SIZE);
      return FALSE;
    }

  region_end = start + total_size;
  cursor = start + MULTI_INSTANCES_SIZE;
  for (guint32 i = 0; i < n_instances; i++)
    {
      const guint8 *ip = decoder->data + cursor;
      guint32 size;
      gssize name_units;
      gboolean keep = TRUE;
      guint instance_index = PS_PERFLIB_NO_INSTANCE;

      if (region_end - cursor < INSTANCE_HEADER_SIZE)
        {
          decoder_fail (decoder, cursor,
                        _("expected the 8-byte PERF_INSTANCE_HEADER of instance %u of %u, only %" PRIu64 " bytes left in PERF_MULTI_INSTANCES"),
                        i + 1, n_instances, (guint64) (region_end - cursor));
          return FALSE;
        }
      size = ps_util_load_le32 (ip);
      if (size < INSTANCE_HEADER_SIZE || size > region_end - cursor)
        {
          decoder_fail (decoder, cursor,
                        _("PERF_INSTANCE_HEADER Size is %u, expected 8 to %" PRIu64 " (the bytes left in PERF_MULTI_INSTANCES)"),
                        size, (guint64) (region_end - cursor));
          return FALSE;
        }
      if (!is_aligned8 (size))
        ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE, cursor,
                                _("PERF_INSTANCE_HEADER at byte offset %" PRIu64 " has Size %u, not a multiple of 8"),
                                (guint64) cursor, size);

      name_units = ps_perflib_find_utf16_nul (ip + INSTANCE_HEADER_SIZE, (size - INSTANCE_HEADER_SIZE) / 2);
      if (name_units < 0)
        {
          ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_INSTANCE_REJECTED, cursor,
                                  _("PERF_INSTANCE_HEADER at byte offset %" PRIu64 ": no NUL-terminated name within its Size %u; instance skipped"),
                                  (guint64) cursor, size);
          keep = FALSE;
        }
      else
        {
          PsPerflibInstance instance;

          if (ps_perflib_utf16le_to_utf8 (decoder->scratch, ip + INSTANCE_HEADER_SIZE, (gsize) name_units))
            ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_BAD_UTF16, cursor + INSTANCE_HEADER_SIZE,
                                    _("Instance name at byte offset %" PRIu64 " is not well-formed UTF-16; replaced characters with U+FFFD"),
                                    (guint64) (cursor + INSTANCE_HEADER_SIZE));
          instance.offset = cursor;
          instance.instance_id = ps_util_load_le32 (ip + 4);
          instance.name = g_string_chunk_insert_const (decoder->priv->strings, decoder->scratch->str);
          instance_index = decoder->priv->instances->len;
          g_array_append_val (decoder->priv->instances, instance);
          block->n_instances++;
        }
      cursor += size;

      for (guint j = 0; j < n_per_instance; j++)
        {
          guint32 id = PS_PERF_NO_COUNTER;

          if (with_ids)
            id = g_array_index (decoder->priv->counter_ids, guint32, block->first_counter_id + j);
          if (!decode_counter_data (decoder, &cursor, region_end, id, instance_index, keep))
            return FALSE;
          if (keep)
            block->n_values++;
        }
    }

  if (cursor != region_end)
    ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_UNUSED_BYTES, cursor,
                            _("PERF_MULTI_INSTANCES at byte offset %" PRIu64 " has dwTotalSize %u but its instances end after %" PRIu64 " bytes"),
                            (guint64) start, total_size, (guint64) (cursor - start));
  *pos = region_end;
  return TRUE;
}

/* specs: perflib-v2.md §3.2, §3.7, §6 rules 3–4. [start, end) is the
 * block as framed by its (already checked) dwSize. */
static gboolean
decode_block (Decoder        *decoder,
              gsize           start,
              gsize           end,
              PsPerflibBlock *block)
{
  gsize pos = start + COUNTER_HEADER_SIZE;

  switch (block->type)
    {
    case PS_PERFLIB_BLOCK_ERROR_RETURN:
      if (end > pos)
        ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_ERROR_PAYLOAD, pos,
                                _("PERF_ERROR_RETURN block at byte offset %" PRIu64 " has a %" PRIu64 "-byte payload; ignored"),
                                (guint64) start, (guint64) (end - pos));
      return TRUE;

    case PS_PERFLIB_BLOCK_SINGLE_COUNTER:
      if (!decode_counter_data (decoder, &pos, end, PS_PERF_NO_COUNTER, PS_PERFLIB_NO_INSTANCE, TRUE))
        return FALSE;
      block->n_values = 1;
      break;

    case PS_PERFLIB_BLOCK_MULTIPLE_COUNTERS:
      if (!decode_multi_counters (decoder, &pos, end, block))
        return FALSE;
      for (guint j = 0; j < block->n_counter_ids; j++)
        {
          guint32 id = g_array_index (decoder->priv->counter_ids, guint32, block->first_counter_id + j);

          if (!decode_counter_data (decoder, &pos, end, id, PS_PERFLIB_NO_INSTANCE, TRUE))
            return FALSE;
          block->n_values++;
        }
      break;

    case PS_PERFLIB_BLOCK_MULTIPLE_INSTANCES:
      if (!decode_multi_instances (decoder, &pos, end, block, FALSE))
        return FALSE;
      break;

    case PS_PERFLIB_BLOCK_COUNTERSET:
      if (!decode_multi_counters (decoder, &pos, end, block) ||
          !decode_multi_instances (decoder, &pos, end, block, TRUE))
        return FALSE;
      break;

    default:
      ps_perflib_add_warning (decoder->priv->warnings, PS_PERFLIB_WARNING_UNKNOWN_BLOCK_TYPE, start,
                              _("Block at byte offset %" PRIu64 " has unknown dwType %u; skipped"),
                              (guint64) start, block->type);
      return TRUE;
    }

  check_unused (decoder, pos, end, "PERF_COUNTER_HEADER block", start);
  return TRUE;
}

gboolean
ps_perflib_filetime_to_unix_ns (gint64  filetime,
                                gint64 *out_ns)
{
  gint64 since_epoch;

  if (filetime < 0)
    return FALSE;
  since_epoch = filetime - FILETIME_UNIX_EPOCH;
  if (since_epoch > G_MAXINT64 / 100 || since_epoch < G_MININT64 / 100)
    return FALSE;
  *out_ns = since_epoch * 100;
  return TRUE;
}

static gboolean
system_time_to_unix_ns (const PsPerflibSystemTime *st,
                        gint64                    *out_ns)
{
  g_autoptr(GDateTime) date_time = NULL;

  if (st->year < 1601 || st->year > 9999 || st->month < 1 || st->month > 12 ||
      st->day < 1 || st->day > g_date_get_days_in_month (st->month, st->year) ||
      st->hour > 23 || st->minute > 59 || st->second > 59 || st->milliseconds > 999)
    return FALSE;
  date_time = g_date_time_new_utc (st->year, st->month, st->day, st->hour, st->minute, st->second);
  if (date_time == NULL)
    return FALSE;
  return ps_util_unix_ns (g_date_time_to_unix (date_time), (gint64) st->milliseconds * 1000000, out_ns);
}

/* specs: perflib-v2.md §3.1, §6 rules 2–3 */
gboolean
ps_perflib_buffer_decode (const guint8     *data,
                          gsize             length,
                          PsPerflibBuffer **out_buffer,
                          GError          **error)
{
  g_autoptr(PsPerflibBuffer) buffer = NULL;
  g_autoptr(GString) scratch = NULL;
  BufferPrivate *priv;
  Decoder decoder = { 0 };
  gsize end;
  gsize pos;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (out_buffer != NULL)
    *out_buffer = NULL;

  if ((guint64) length > MAX_BUFFER_SIZE)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_TOO_LARGE,
                   _("PerfLib data buffer of %" PRIu64 " bytes is larger than the 1 GiB the protocol allows"),
                   (guint64) length);
      return FALSE;
    }
  if (length < DATA_HEADER_SIZE)
    {
      g_set_error (error, PS_ERROR, PS_ERROR_PARSE,
                   _("Bad PerfLib data at byte offset 0: expected a 48-byte PERF_DATA_HEADER, the buffer has %" PRIu64 " bytes"),
                   (guint64) length);
      return FALSE;
    }

  buffer = g_new0 (PsPerflibBuffer, 1);
  priv = g_new0 (BufferPrivate, 1);
  buffer->priv = priv;
  priv->blocks = g_array_new (FALSE, TRUE, sizeof (PsPerflibBlock));
  priv->instances = g_array_new (FALSE, TRUE, sizeof (PsPerflibInstance));
  priv->values = g_array_new (FALSE, TRUE, sizeof (PsPerflibValue));
  priv->counter_ids = g_array_new (FALSE, TRUE, sizeof (guint32));
  priv->warnings = ps_perflib_warnings_new ();
  priv->strings = g_string_chunk_new (256);
  scratch = g_string_new (NULL);

  decoder.data = data;
  decoder.priv = priv;
  decoder.scratch = scratch;

  buffer->length = length;
  buffer->total_size = ps_util_load_le32 (data);
  buffer->num_counters = ps_util_load_le32 (data + 4);
  buffer->perf_time_stamp = (gint64) ps_util_load_le64 (data + 8);
  buffer->perf_time_100nsec = (gint64) ps_util_load_le64 (data + 16);
  buffer->perf_freq = (gint64) ps_util_load_le64 (data + 24);
  buffer->system_time.year = ps_util_load_le16 (data + 32);
  buffer->system_time.month = ps_util_load_le16 (data + 34);
  buffer->system_time.day_of_week = ps_util_load_le16 (data + 36);
  buffer->system_time.day = ps_util_load_le16 (data + 38);
  buffer->system_time.hour = ps_util_load_le16 (data + 40);
  buffer->system_time.minute = ps_util_load_le16 (data + 42);
  buffer->system_time.second = ps_util_load_le16 (data + 44);
  buffer->system_time.milliseconds = ps_util_load_le16 (data + 46);
  buffer->perf_time_100nsec_valid = ps_perflib_filetime_to_unix_ns (buffer->perf_time_100nsec,
                                                         &buffer->perf_time_100nsec_unix_ns);
  buffer->system_time_valid = system_time_to_unix_ns (&buffer->system_time,
                                                      &buffer->system_time_unix_ns);
  if (!buffer->system_time_valid)
    ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_BAD_SYSTEM_TIME, 32,
                            _("PERF_DATA_HEADER SystemTime at byte offset 32 is not a valid date (%04u-%02u-%02u %02u:%02u:%02u.%03u)"),
                            buffer->system_time.year, buffer->system_time.month, buffer->system_time.day,
                            buffer->system_time.hour, buffer->system_time.minute, buffer->system_time.second,
                            buffer->system_time.milliseconds);

  /* dwTotalSize > length: the buffer was cut. The blocks that are all
   * there are still decoded; the error is reported after them. */
  end = length;
  if (buffer->total_size < DATA_HEADER_SIZE)
    {
      decoder_fail (&decoder, 0,
                    _("PERF_DATA_HEADER dwTotalSize is %u, expected at least 48"),
                    buffer->total_size);
      goto out;
    }
  if (buffer->total_size <= length)
    {
      end = buffer->total_size;
      if (end < length)
        ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_TRAILING_BYTES, end,
                                _("%" PRIu64 " bytes after the PERF_DATA_HEADER dwTotalSize %u are ignored"),
                                (guint64) (length - end), buffer->total_size);
    }
  if (!is_aligned8 (buffer->total_size))
    ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE, 0,
                            _("PERF_DATA_HEADER dwTotalSize %u is not a multiple of 8"),
                            buffer->total_size);
  if (buffer->num_counters > (buffer->total_size - DATA_HEADER_SIZE) / COUNTER_HEADER_SIZE)
    {
      decoder_fail (&decoder, 4,
                    _("PERF_DATA_HEADER dwNumCounters is %u, but dwTotalSize %u holds at most %u counter blocks"),
                    buffer->num_counters, buffer->total_size,
                    (buffer->total_size - DATA_HEADER_SIZE) / COUNTER_HEADER_SIZE);
      goto out;
    }

  pos = DATA_HEADER_SIZE;
  for (guint32 k = 0; k < buffer->num_counters; k++)
    {
      const guint8 *p = data + pos;
      PsPerflibBlock block = { 0 };
      gboolean ok;

      if (end - pos < COUNTER_HEADER_SIZE)
        {
          decoder_fail (&decoder, pos,
                        _("truncated: expected the 16-byte PERF_COUNTER_HEADER of block %u of %u, only %" PRIu64 " bytes left"),
                        k + 1, buffer->num_counters, (guint64) (end - pos));
          break;
        }
      block.offset = pos;
      block.position = k;
      block.status = ps_util_load_le32 (p);
      block.type = ps_util_load_le32 (p + 4);
      block.size = ps_util_load_le32 (p + 8);
      if (block.size < COUNTER_HEADER_SIZE || block.size > end - pos)
        {
          decoder_fail (&decoder, pos,
                        _("PERF_COUNTER_HEADER dwSize of block %u is %u, expected 16 to %" PRIu64 " (the bytes left)"),
                        k + 1, block.size, (guint64) (end - pos));
          break;
        }
      if (!is_aligned8 (pos))
        ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_UNALIGNED_BLOCK, pos,
                                _("PERF_COUNTER_HEADER at byte offset %" PRIu64 " is not 8-byte aligned"),
                                (guint64) pos);
      if (!is_aligned8 (block.size))
        ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_UNALIGNED_SIZE, pos,
                                _("PERF_COUNTER_HEADER at byte offset %" PRIu64 " has dwSize %u, not a multiple of 8"),
                                (guint64) pos, block.size);

      block.first_counter_id = priv->counter_ids->len;
      block.first_instance = priv->instances->len;
      block.first_value = priv->values->len;
      ok = decode_block (&decoder, pos, pos + block.size, &block);
      block.complete = ok;
      g_array_append_val (priv->blocks, block);
      if (!ok)
        break;
      pos += block.size;
    }

  if (decoder.error == NULL)
    {
      if (buffer->total_size > length)
        decoder_fail (&decoder, 0,
                      _("PERF_DATA_HEADER dwTotalSize is %u, but the buffer has only %" PRIu64 " bytes"),
                      buffer->total_size, (guint64) length);
      else if (pos < end)
        ps_perflib_add_warning (priv->warnings, PS_PERFLIB_WARNING_TRAILING_BYTES, pos,
                                _("%" PRIu64 " bytes after the last counter block at byte offset %" PRIu64 " are ignored"),
                                (guint64) (end - pos), (guint64) pos);
    }

out:
  buffer->complete = decoder.error == NULL;
  buffer_publish (buffer);
  if (out_buffer != NULL)
    *out_buffer = g_steal_pointer (&buffer);
  if (decoder.error != NULL)
    {
      g_propagate_error (error, decoder.error);
      return FALSE;
    }
  return TRUE;
}

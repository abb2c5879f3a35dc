/* cs-capture-pcapng.c — pcapng files: sections, interfaces, EPB/SPB/OPB packets */
#include "cs-capture-private.h"

#define BLOCK_SHB 0x0A0D0D0Au
#define BLOCK_IDB 0x00000001u
#define BLOCK_OPB 0x00000002u /* obsolete packet block */
#define BLOCK_SPB 0x00000003u
#define BLOCK_EPB 0x00000006u

#define BYTE_ORDER_MAGIC 0x1A2B3C4Du

#define OPT_ENDOFOPT 0
#define OPT_COMMENT 1
#define OPT_IF_TSRESOL 9
#define OPT_IF_TSOFFSET 14

#define BLOCK_MIN_LEN 12 /* type, length, trailing length */
#define SHB_MIN_LEN 28
#define IDB_MIN_LEN 20
#define EPB_MIN_LEN 32 /* the same for OPB */
#define SPB_MIN_LEN 16

typedef struct
{
  guint32 type;
  guint32 length;
  guint64 offset;
  CsCursor body; /* between the length and the trailing length */
} CsPcapngBlock;

typedef struct
{
  CsCapture *capture;
  gboolean be;
  GArray *interfaces; /* CsPcapngInterface, current section only */
  gint64 last_ts_ns;  /* for SPB, which has no timestamp */
  /* anchors index (instead of a frame array): where the current block starts */
  CsFrameAnchors *index;
  guint64 block_offset;
} CsPcapngReader;

static const guint64 powers_of_ten[] = {
  1u,
  10u,
  100u,
  1000u,
  10000u,
  100000u,
  1000000u,
  10000000u,
  100000000u,
  1000000000u,
  10000000000u,
  100000000000u,
  1000000000000u,
  10000000000000u,
  100000000000000u,
  1000000000000000u,
  10000000000000000u,
  100000000000000000u,
  1000000000000000000u,
  10000000000000000000u,
};

static guint32
cs_read_u32_at (const guint8 *p, gboolean be)
{
  if (be)
    return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
  return ((guint32) p[3] << 24) | ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
}

/* Reads and checks the block at offset; a section header sets the byte order. */
static gboolean
cs_pcapng_read_block (CsPcapngReader *reader, guint64 offset, CsPcapngBlock *block, GError **error)
{
  CsCapture *capture = reader->capture;
  const guint8 *p = capture->data + offset;
  guint64 left = capture->size - offset;
  guint32 trailing;

  if (left < BLOCK_MIN_LEN)
    {
      cs_capture_set_truncated (capture, error, "block", offset, BLOCK_MIN_LEN);
      return FALSE;
    }

  /* the SHB type reads the same in both orders; its byte-order magic decides */
  block->type = cs_read_u32_at (p, reader->be);
  if (block->type == BLOCK_SHB)
    {
      guint32 magic = cs_read_u32_at (p + 8, TRUE);

      if (magic == BYTE_ORDER_MAGIC)
        reader->be = TRUE;
      else if (cs_read_u32_at (p + 8, FALSE) == BYTE_ORDER_MAGIC)
        reader->be = FALSE;
      else
        {
          cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_CORRUPT,
                                "corrupt section header at byte offset %" G_GUINT64_FORMAT
                                " (bad byte-order magic %08x)",
                                offset, magic);
          return FALSE;
        }
    }

  block->offset = offset;
  block->length = cs_read_u32_at (p + 4, reader->be);
  if (block->length < BLOCK_MIN_LEN || block->length % 4 != 0)
    {
      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_CORRUPT,
                            "corrupt block at byte offset %" G_GUINT64_FORMAT
                            " (invalid block length %u)",
                            offset, block->length);
      return FALSE;
    }
  if (block->length > left)
    {
      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                            "truncated block at byte offset %" G_GUINT64_FORMAT
                            " (needs %u bytes, %" G_GUINT64_FORMAT " left)",
                            offset, block->length, left);
      return FALSE;
    }
  trailing = cs_read_u32_at (p + block->length - 4, reader->be);
  if (trailing != block->length)
    {
      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_CORRUPT,
                            "corrupt block at byte offset %" G_GUINT64_FORMAT
                            " (block length %u does not match trailing length %u)",
                            offset, block->length, trailing);
      return FALSE;
    }

  cs_cursor_init (&block->body, p + 8, block->length - BLOCK_MIN_LEN);
  return TRUE;
}

static gboolean
cs_pcapng_block_too_short (CsPcapngReader *reader, const CsPcapngBlock *block, guint32 min_len,
                           const char *what, GError **error)
{
  if (block->length >= min_len)
    return FALSE;
  cs_capture_set_error (reader->capture, error, CS_CAPTURE_ERROR_CORRUPT,
                        "corrupt %s at byte offset %" G_GUINT64_FORMAT
                        " (block length %u, at least %u needed)",
                        what, block->offset, block->length, min_len);
  return TRUE;
}

/* Calls func for each option; stops quietly at opt_endofopt or a malformed option,
 * because options only add detail and must not cost the packet. */
typedef void (*CsPcapngOptionFunc) (guint16 code, CsCursor *value, gpointer user_data);

static void
cs_pcapng_foreach_option (CsPcapngReader *reader, CsCursor *options, CsPcapngOptionFunc func,
                          gpointer user_data)
{
  guint16 code = 0, len = 0;
  CsCursor value;

  while (cs_cursor_u16 (options, reader->be, &code) && cs_cursor_u16 (options, reader->be, &len))
    {
      if (code == OPT_ENDOFOPT || !cs_cursor_sub (options, len, &value))
        return;
      func (code, &value, user_data);
      cs_cursor_skip (options, (4 - len % 4) % 4); /* padding; may be absent at the end */
    }
}

typedef struct
{
  const guint8 *text;
  gsize len;
} CsPcapngComment;

static void
cs_pcapng_comment_option (guint16 code, CsCursor *value, gpointer user_data)
{
  CsPcapngComment *comment = user_data;

  if (code == OPT_COMMENT && comment->text == NULL)
    {
      comment->len = cs_cursor_remaining (value);
      cs_cursor_bytes (value, comment->len, &comment->text);
    }
}

typedef struct
{
  CsPcapngReader *reader;
  CsPcapngInterface *iface;
} CsPcapngInterfaceParse;

static void
cs_pcapng_interface_option (guint16 code, CsCursor *value, gpointer user_data)
{
  CsPcapngInterfaceParse *parse = user_data;
  CsPcapngInterface *iface = parse->iface;
  gboolean be = parse->reader->be;
  guint8 tsresol;
  guint32 first = 0, second = 0;

  if (code == OPT_IF_TSRESOL && cs_cursor_u8 (value, &tsresol))
    {
      iface->tsresol_binary = (tsresol & 0x80) != 0;
      iface->tsresol_exp = tsresol & 0x7f;
    }
  else if (code == OPT_IF_TSOFFSET && cs_cursor_remaining (value) == 8)
    {
      guint64 raw;

      /* a 64-bit signed count of seconds in the section's byte order */
      cs_cursor_u32 (value, be, &first);
      cs_cursor_u32 (value, be, &second);
      raw = be ? ((guint64) first << 32) | second : ((guint64) second << 32) | first;
      iface->tsoffset_s = (gint64) raw;
    }
}

/* The first section's header: byte order, version, comment. */
gboolean
cs_capture_pcapng_read_header (CsCapture *capture, GError **error)
{
  CsPcapngReader reader = { capture, FALSE, NULL, 0, NULL, 0 };
  CsPcapngBlock block;
  guint16 major = 0, minor = 0;
  CsCursor body;
  CsPcapngComment comment = { NULL, 0 };

  capture->format = CS_CAPTURE_FORMAT_PCAPNG;
  if (!cs_pcapng_read_block (&reader, 0, &block, error))
    return FALSE;
  if (block.length < SHB_MIN_LEN)
    {
      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_CORRUPT,
                            "corrupt section header at byte offset 0 (block length %u)",
                            block.length);
      return FALSE;
    }
  body = block.body;
  cs_cursor_skip (&body, 4); /* byte-order magic */
  cs_cursor_u16 (&body, reader.be, &major);
  cs_cursor_u16 (&body, reader.be, &minor);
  if (major != 1)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                   "%s: unsupported pcapng version %u.%u", capture->path, major, minor);
      return FALSE;
    }
  cs_cursor_skip (&body, 8); /* section length */
  cs_pcapng_foreach_option (&reader, &body, cs_pcapng_comment_option, &comment);
  if (comment.text != NULL)
    capture->comment = g_strndup ((const char *) comment.text, comment.len);
  return TRUE;
}

/* Timestamp units since the epoch, at the interface's resolution, to ns. */
static gint64
cs_pcapng_ts_to_ns (const CsPcapngInterface *iface, guint64 units)
{
  const guint64 ns_per_s = G_GUINT64_CONSTANT (1000000000);
  guint exp = iface->tsresol_exp;
  guint64 seconds, fraction_ns, ns, offset_ns;
  gint64 offset_s = iface->tsoffset_s;

  if (!iface->tsresol_binary)
    {
      guint64 per_s = exp <= 9 ? powers_of_ten[exp] : powers_of_ten[9];

      if (exp > 9)
        units /= powers_of_ten[exp - 9]; /* now in ns */
      seconds = units / per_s;
      fraction_ns = exp <= 9 ? units % per_s * powers_of_ten[9 - exp] : units % per_s;
    }
  else
    {
      guint shift = exp;
      guint64 fraction = exp == 0 ? 0 : units & ((G_GUINT64_CONSTANT (1) << exp) - 1);

      seconds = exp == 0 ? units : units >> exp;
      /* keep fraction * 1e9 inside 64 bits: 2^34 * 1e9 < 2^64 */
      if (shift > 34)
        {
          fraction >>= shift - 34;
          shift = 34;
        }
      fraction_ns = shift == 0 ? 0 : (fraction * ns_per_s) >> shift;
    }
  /* Hostile timestamps saturate at CS_TIMESTAMP_MAX_NS so that every later
   * difference of two timestamps stays far from overflowing. */
  if (!g_uint64_checked_mul (&ns, seconds, ns_per_s) || !g_uint64_checked_add (&ns, ns, fraction_ns)
      || ns > (guint64) CS_TIMESTAMP_MAX_NS)
    ns = CS_TIMESTAMP_MAX_NS;
  offset_s = CLAMP (offset_s, -(CS_TIMESTAMP_MAX_NS / (gint64) ns_per_s),
                    CS_TIMESTAMP_MAX_NS / (gint64) ns_per_s);
  offset_ns = (guint64) ABS (offset_s) * ns_per_s;
  if (offset_s >= 0)
    ns = MIN (ns + offset_ns, (guint64) CS_TIMESTAMP_MAX_NS);
  else
    ns = ns > offset_ns ? ns - offset_ns : 0;
  return (gint64) ns;
}

static gboolean
cs_pcapng_read_interface (CsPcapngReader *reader, const CsPcapngBlock *block, GError **error)
{
  CsPcapngInterface iface = { 0, 0, FALSE, 6, 0 };
  CsPcapngInterfaceParse parse = { reader, &iface };
  CsCursor body = block->body;
  guint16 reserved = 0;

  if (cs_pcapng_block_too_short (reader, block, IDB_MIN_LEN, "interface description block", error))
    return FALSE;
  cs_cursor_u16 (&body, reader->be, &iface.linktype);
  cs_cursor_u16 (&body, reader->be, &reserved);
  cs_cursor_u32 (&body, reader->be, &iface.snaplen);
  cs_pcapng_foreach_option (reader, &body, cs_pcapng_interface_option, &parse);

  if ((!iface.tsresol_binary && iface.tsresol_exp >= G_N_ELEMENTS (powers_of_ten))
      || (iface.tsresol_binary && iface.tsresol_exp > 63))
    {
      cs_capture_set_error (reader->capture, error, CS_CAPTURE_ERROR_CORRUPT,
                            "corrupt interface description block at byte offset %" G_GUINT64_FORMAT
                            " (unsupported time resolution %s^-%u)",
                            block->offset, iface.tsresol_binary ? "2" : "10", iface.tsresol_exp);
      return FALSE;
    }
  g_array_append_val (reader->interfaces, iface);
  if (reader->index != NULL)
    {
      g_rw_lock_writer_lock (&reader->capture->walk_lock);
      g_array_append_val (reader->capture->interfaces, iface);
      g_rw_lock_writer_unlock (&reader->capture->walk_lock);
    }
  return TRUE;
}

static const CsPcapngInterface *
cs_pcapng_lookup_interface (CsPcapngReader *reader, const CsPcapngBlock *block, guint32 id,
                            GError **error)
{
  if (id < reader->interfaces->len)
    return &g_array_index (reader->interfaces, CsPcapngInterface, id);
  cs_capture_set_error (reader->capture, error, CS_CAPTURE_ERROR_CORRUPT,
                        "corrupt packet block at byte offset %" G_GUINT64_FORMAT
                        " (interface id %u out of range, the section has %u interfaces)",
                        block->offset, id, reader->interfaces->len);
  return NULL;
}

static void
cs_pcapng_append_frame (CsPcapngReader *reader, GArray *frames, guint64 offset, gint64 ts_ns,
                        guint32 caplen, guint32 origlen, const CsPcapngInterface *iface,
                        guint16 file_index, CsCursor *options)
{
  CsPcapngComment comment = { NULL, 0 };
  CsFrame frame;

  frame.offset = offset;
  frame.ts_ns = ts_ns;
  frame.caplen = caplen;
  frame.origlen = origlen;
  frame.linktype = iface->linktype;
  frame.file = file_index;
  frame.flags = 0;
  if (options != NULL)
    {
      cs_pcapng_foreach_option (reader, options, cs_pcapng_comment_option, &comment);
      if (comment.text != NULL)
        {
          cs_capture_add_frame_comment (reader->capture, offset, comment.text, comment.len);
          frame.flags |= CS_FRAME_HAS_COMMENT;
        }
    }
  if (frames != NULL)
    g_array_append_val (frames, frame);
  else
    {
      CsFramePosition position
          = { reader->block_offset, reader->last_ts_ns, reader->capture->sections->len - 1 };

      cs_frame_anchors_add (reader->index, &position, ts_ns);
    }
  reader->last_ts_ns = ts_ns;
}

/* Enhanced (EPB) and obsolete (OPB) packet blocks share one layout but the id width. */
static gboolean
cs_pcapng_read_packet (CsPcapngReader *reader, const CsPcapngBlock *block, guint16 file_index,
                       GArray *frames, GError **error)
{
  const CsPcapngInterface *iface;
  CsCursor body = block->body;
  guint32 id = 0, ts_high = 0, ts_low = 0, caplen = 0, origlen = 0;
  const char *what = block->type == BLOCK_EPB ? "enhanced packet block" : "packet block";

  if (cs_pcapng_block_too_short (reader, block, EPB_MIN_LEN, what, error))
    return FALSE;
  if (block->type == BLOCK_EPB)
    cs_cursor_u32 (&body, reader->be, &id);
  else
    {
      guint16 id16 = 0, drops = 0;

      cs_cursor_u16 (&body, reader->be, &id16);
      cs_cursor_u16 (&body, reader->be, &drops);
      id = id16;
    }
  cs_cursor_u32 (&body, reader->be, &ts_high);
  cs_cursor_u32 (&body, reader->be, &ts_low);
  cs_cursor_u32 (&body, reader->be, &caplen);
  cs_cursor_u32 (&body, reader->be, &origlen);

  iface = cs_pcapng_lookup_interface (reader, block, id, error);
  if (iface == NULL)
    return FALSE;
  if (caplen > cs_cursor_remaining (&body))
    {
      cs_capture_set_error (reader->capture, error, CS_CAPTURE_ERROR_CORRUPT,
                            "corrupt %s at byte offset %" G_GUINT64_FORMAT
                            " (captured length %u does not fit in block length %u)",
                            what, block->offset, caplen, block->length);
      return FALSE;
    }

  guint64 data_offset = block->offset + 8 + body.pos;
  cs_cursor_skip (&body, caplen);
  cs_cursor_skip (&body, MIN ((4 - caplen % 4) % 4, cs_cursor_remaining (&body)));
  cs_pcapng_append_frame (reader, frames, data_offset,
                          cs_pcapng_ts_to_ns (iface, ((guint64) ts_high << 32) | ts_low), caplen,
                          origlen, iface, file_index, &body);
  return TRUE;
}

static gboolean
cs_pcapng_read_simple_packet (CsPcapngReader *reader, const CsPcapngBlock *block,
                              guint16 file_index, GArray *frames, GError **error)
{
  const CsPcapngInterface *iface;
  CsCursor body = block->body;
  guint32 origlen = 0, caplen;

  if (cs_pcapng_block_too_short (reader, block, SPB_MIN_LEN, "simple packet block", error))
    return FALSE;
  iface = cs_pcapng_lookup_interface (reader, block, 0, error);
  if (iface == NULL)
    return FALSE;
  cs_cursor_u32 (&body, reader->be, &origlen);
  /* the captured length is implied: what fits, cut at the snaplen */
  caplen = (guint32) MIN ((guint64) origlen, (guint64) cs_cursor_remaining (&body));
  if (iface->snaplen != 0 && caplen > iface->snaplen)
    caplen = iface->snaplen;
  cs_pcapng_append_frame (reader, frames, block->offset + 12, reader->last_ts_ns, caplen, origlen,
                          iface, file_index, NULL);
  return TRUE;
}

gboolean
cs_capture_pcapng_index (CsCapture *capture, guint16 file_index, GArray *frames,
                         CsFrameAnchors *index, CsIndexRun *run, GError **error)
{
  CsPcapngReader reader = { capture, FALSE, NULL, 0, frames == NULL ? index : NULL, 0 };
  guint64 offset = 0;
  gboolean ok = TRUE;

  reader.interfaces = g_array_new (FALSE, FALSE, sizeof (CsPcapngInterface));
  if (reader.index != NULL)
    {
      g_rw_lock_writer_lock (&capture->walk_lock);
      g_clear_pointer (&capture->sections, g_array_unref);
      g_clear_pointer (&capture->interfaces, g_array_unref);
      capture->sections = g_array_new (FALSE, FALSE, sizeof (CsPcapngSection));
      capture->interfaces = g_array_new (FALSE, FALSE, sizeof (CsPcapngInterface));
      g_rw_lock_writer_unlock (&capture->walk_lock);
    }
  while (ok && offset < capture->size)
    {
      CsPcapngBlock block;

      if (!cs_pcapng_read_block (&reader, offset, &block, error))
        {
          ok = FALSE;
          break;
        }
      reader.block_offset = offset;
      switch (block.type)
        {
        case BLOCK_SHB:
          /* a new section: its own byte order (already read) and interfaces */
          ok = !cs_pcapng_block_too_short (&reader, &block, SHB_MIN_LEN, "section header", error);
          g_array_set_size (reader.interfaces, 0);
          if (reader.index != NULL)
            {
              CsPcapngSection section = { reader.be, capture->interfaces->len };

              g_rw_lock_writer_lock (&capture->walk_lock);
              g_array_append_val (capture->sections, section);
              g_rw_lock_writer_unlock (&capture->walk_lock);
            }
          break;
        case BLOCK_IDB:
          ok = cs_pcapng_read_interface (&reader, &block, error);
          break;
        case BLOCK_EPB:
        case BLOCK_OPB:
          ok = cs_pcapng_read_packet (&reader, &block, file_index, frames, error);
          break;
        case BLOCK_SPB:
          ok = cs_pcapng_read_simple_packet (&reader, &block, file_index, frames, error);
          break;
        default:
          break; /* name resolution, statistics, secrets, custom, unknown: not needed */
        }
      offset += block.length;
      /* blocks are a chain of dependent loads: prefetch ahead (see cs-capture-pcap.c) */
      __builtin_prefetch (capture->data + offset + 4096);
      if (ok)
        ok = cs_index_run_tick (run, offset, error);
    }
  g_array_free (reader.interfaces, TRUE);
  return ok;
}

/* ---- walking from an anchor (after the anchors index, which validated every block) ---- */

static const CsPcapngInterface *
cs_pcapng_section_interface (CsCapture *capture, guint32 section, guint32 id)
{
  const CsPcapngSection *sec = &g_array_index (capture->sections, CsPcapngSection, section);
  guint32 end
      = section + 1 < capture->sections->len
            ? g_array_index (capture->sections, CsPcapngSection, section + 1).first_interface
            : capture->interfaces->len;

  if (id >= end - sec->first_interface)
    return NULL;
  return &g_array_index (capture->interfaces, CsPcapngInterface, sec->first_interface + id);
}

static const guint8 *
cs_pcapng_next_frame_locked (CsCapture *capture, CsFramePosition *pos, CsFrame *frame)
{
  if (capture->format != CS_CAPTURE_FORMAT_PCAPNG || capture->sections == NULL
      || pos->section >= capture->sections->len)
    return NULL;
  while (pos->offset < capture->size && capture->size - pos->offset >= BLOCK_MIN_LEN)
    {
      const guint8 *p = capture->data + pos->offset;
      gboolean be = g_array_index (capture->sections, CsPcapngSection, pos->section).big_endian;
      CsPcapngReader reader = { capture, be, NULL, 0, NULL, 0 };
      const CsPcapngInterface *iface;
      guint32 type = cs_read_u32_at (p, be), length, caplen, origlen;
      guint64 data_offset, units;
      CsCursor body;
      CsPcapngComment comment = { NULL, 0 };

      if (type == BLOCK_SHB)
        {
          /* the next section, in file order (its type reads the same in either order) */
          if (pos->section + 1 >= capture->sections->len)
            return NULL;
          pos->section++;
          be = g_array_index (capture->sections, CsPcapngSection, pos->section).big_endian;
        }
      length = cs_read_u32_at (p + 4, be);
      if (length < BLOCK_MIN_LEN || length > capture->size - pos->offset)
        return NULL;
      cs_cursor_init (&body, p + 8, length - BLOCK_MIN_LEN);
      reader.be = be;
      if (type == BLOCK_EPB || type == BLOCK_OPB)
        {
          guint32 id = 0, ts_high = 0, ts_low = 0;

          if (length < EPB_MIN_LEN)
            return NULL;
          if (type == BLOCK_EPB)
            cs_cursor_u32 (&body, be, &id);
          else
            {
              guint16 id16 = 0, drops = 0;

              cs_cursor_u16 (&body, be, &id16);
              cs_cursor_u16 (&body, be, &drops);
              id = id16;
            }
          cs_cursor_u32 (&body, be, &ts_high);
          cs_cursor_u32 (&body, be, &ts_low);
          caplen = origlen = 0;
          cs_cursor_u32 (&body, be, &caplen);
          cs_cursor_u32 (&body, be, &origlen);
          iface = cs_pcapng_section_interface (capture, pos->section, id);
          if (iface == NULL || caplen > cs_cursor_remaining (&body))
            return NULL;
          data_offset = pos->offset + 8 + body.pos;
          cs_cursor_skip (&body, caplen);
          cs_cursor_skip (&body, MIN ((4 - caplen % 4) % 4, cs_cursor_remaining (&body)));
          cs_pcapng_foreach_option (&reader, &body, cs_pcapng_comment_option, &comment);
          units = ((guint64) ts_high << 32) | ts_low;
          frame->ts_ns = cs_pcapng_ts_to_ns (iface, units);
        }
      else if (type == BLOCK_SPB)
        {
          if (length < SPB_MIN_LEN)
            return NULL;
          iface = cs_pcapng_section_interface (capture, pos->section, 0);
          if (iface == NULL)
            return NULL;
          origlen = 0;
          cs_cursor_u32 (&body, be, &origlen);
          caplen = (guint32) MIN ((guint64) origlen, (guint64) cs_cursor_remaining (&body));
          if (iface->snaplen != 0 && caplen > iface->snaplen)
            caplen = iface->snaplen;
          data_offset = pos->offset + 12;
          frame->ts_ns = pos->last_ts_ns;
        }
      else
        {
          pos->offset += length; /* not a packet */
          continue;
        }
      frame->offset = data_offset;
      frame->caplen = caplen;
      frame->origlen = origlen;
      frame->linktype = iface->linktype;
      frame->file = 0;
      frame->flags = comment.text != NULL ? CS_FRAME_HAS_COMMENT : 0;
      pos->last_ts_ns = frame->ts_ns;
      pos->offset += length;
      return capture->data + data_offset;
    }
  return NULL;
}

const guint8 *
cs_capture_pcapng_next_frame (CsCapture *capture, CsFramePosition *pos, CsFrame *frame)
{
  const guint8 *data;

  /* decode workers walk while the index may still append sections and interfaces */
  g_rw_lock_reader_lock (&capture->walk_lock);
  data = cs_pcapng_next_frame_locked (capture, pos, frame);
  g_rw_lock_reader_unlock (&capture->walk_lock);
  return data;
}

/* cs-proto-tree.h — one frame's protocol tree: layers and their fields, each named by its
 * Wireshark display-filter name and pointing at its bytes in the frame */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One line of the tree. A layer is a node of depth 0 ("frame", "eth", "ip", "rtp" …); its
 * fields follow it with depth 1 and more (a field's children follow it, one deeper). */
typedef struct
{
  const char *name; /* display-filter name ("rtp.seq"); static; "" for a text line */
  char *value;      /* the value as `tshark -T fields -e NAME` prints it ("" for a text line) */
  char *label;      /* what the tree shows: "Sequence number: 1234" */
  guint32 offset;   /* of its first byte in the frame */
  guint32 length;   /* bytes it covers (0: computed, not in the frame) */
  guint8 depth;
  guint8 computed; /* callscope's own figure (arrival delta, jitter …), not a wire field */
  guint8 source;   /* 0: offset is in the frame; 1: in the reassembled datagram */
} CsProtoNode;

typedef struct _CsProtoTree CsProtoTree;

CsProtoTree *cs_proto_tree_new (void);
/* A tree that keeps only the list columns (protocol, addresses, info): fields are not
 * stored, so a list row costs no allocation per field. */
CsProtoTree *cs_proto_tree_new_summary (void);
void cs_proto_tree_free (CsProtoTree *tree);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsProtoTree, cs_proto_tree_free)

gboolean cs_proto_tree_wants_fields (const CsProtoTree *tree);

guint cs_proto_tree_get_n_nodes (const CsProtoTree *tree);
const CsProtoNode *cs_proto_tree_get_node (const CsProtoTree *tree, guint index);
/* The first node called name, or NULL. */
const CsProtoNode *cs_proto_tree_find (const CsProtoTree *tree, const char *name);
/* The deepest node whose bytes hold offset (the field a click on that byte selects), or -1. */
int cs_proto_tree_node_at_offset (const CsProtoTree *tree, guint32 offset);

/* The list columns: the topmost protocol ("RTP", "SIP/SDP"), the addresses and Wireshark's
 * Info text. */
const char *cs_proto_tree_get_protocol (const CsProtoTree *tree);
const char *cs_proto_tree_get_source (const CsProtoTree *tree);
const char *cs_proto_tree_get_destination (const CsProtoTree *tree);
const char *cs_proto_tree_get_info (const CsProtoTree *tree);
void cs_proto_tree_set_protocol (CsProtoTree *tree, const char *protocol);
void cs_proto_tree_set_addresses (CsProtoTree *tree, const char *source, const char *destination);
/* Replaces the Info text (each layer sets its own: the last one wins, as in Wireshark). */
void cs_proto_tree_set_info (CsProtoTree *tree, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Building. A layer starts a new depth-0 node; push/pop nest the fields added after them
 * under the last one added. Values and labels are copied. */
void cs_proto_tree_layer (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                          const char *format, ...) G_GNUC_PRINTF (5, 6);
void cs_proto_tree_push (CsProtoTree *tree);
void cs_proto_tree_pop (CsProtoTree *tree);
/* A field with its value text and label "Label: value" (label NULL: the value alone). */
void cs_proto_tree_add (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                        const char *value, const char *label);
void cs_proto_tree_add_uint (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                             guint64 value, const char *label);
/* Shown as 0x with digits hex digits (Wireshark's BASE_HEX). */
void cs_proto_tree_add_hex (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                            guint64 value, guint digits, const char *label);
/* Value "1" or "0", label "Label: True|False". */
void cs_proto_tree_add_bool (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                             gboolean value, const char *label);
/* A value shown with its meaning: "Payload type: ITU-T G.711 PCMU (0)". */
void cs_proto_tree_add_uint_named (CsProtoTree *tree, const char *name, guint32 offset,
                                   guint32 length, guint64 value, const char *meaning,
                                   const char *label);
/* A line of text with a name but no single value (the label is the value: "sip.Via"). */
void cs_proto_tree_add_text (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                             const char *format, ...) G_GNUC_PRINTF (5, 6);
/* The fields added from now on point into a datagram reassembled from several frames (kept
 * with the tree: cs_proto_tree_get_reassembled). */
void cs_proto_tree_set_reassembled (CsProtoTree *tree, GBytes *datagram);
GBytes *cs_proto_tree_get_reassembled (const CsProtoTree *tree);
/* The last node added (to mark it computed, or fix its label). */
CsProtoNode *cs_proto_tree_last (CsProtoTree *tree);

G_END_DECLS

/* dissect-test.h — crafted frames for the dissector tests: an Ethernet/IPv4/UDP frame around
 * a payload, and lookups of a tree's fields */
#pragma once

#include "dissect/cs-dissect.h"
#include "net/frame-bytes.h"

#include <string.h>

/* Ethernet (dst 02:00:00:00:00:01, src 02:00:00:00:00:02), one 802.1Q tag when vlan != 0,
 * IPv4 10.0.0.1 → 10.0.0.2 (id 0x1234, DF, TTL 64, checksum 0xbeef), UDP sport → dport
 * (checksum 0), then payload. The IPv4 header starts at 14 (18 with the tag), UDP 20 later. */
static inline GByteArray *
dissect_test_udp_frame (guint16 vlan, guint16 sport, guint16 dport, const guint8 *payload, gsize n)
{
  static const guint8 macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
  static const guint8 ips[8] = { 10, 0, 0, 1, 10, 0, 0, 2 };
  GByteArray *b = g_byte_array_new ();

  put_bytes (b, macs, sizeof macs);
  if (vlan != 0)
    {
      put16 (b, 0x8100);
      put16 (b, (guint16) ((5u << 13) | vlan)); /* priority 5 */
    }
  put16 (b, 0x0800);
  put8 (b, 0x45);
  put8 (b, 0xb8); /* DSCP 46 (EF), ECN 0 */
  put16 (b, (guint16) (20 + 8 + n));
  put16 (b, 0x1234);
  put16 (b, 0x4000);
  put8 (b, 64);
  put8 (b, 17);
  put16 (b, 0xbeef);
  put_bytes (b, ips, sizeof ips);
  put16 (b, sport);
  put16 (b, dport);
  put16 (b, (guint16) (8 + n));
  put16 (b, 0);
  put_bytes (b, payload, n);
  return b;
}

/* Dissects a copy of exactly the frame's bytes (so that ASan sees any read past its end). */
static inline CsProtoTree *
dissect_test_run_link (const GByteArray *bytes, guint linktype, const CsDissectHints *hints)
{
  CsProtoTree *tree = cs_proto_tree_new ();
  CsFrame frame = { 0 };
  guint8 *copy = g_memdup2 (bytes->data, bytes->len);

  frame.caplen = frame.origlen = bytes->len;
  frame.linktype = (guint16) linktype;
  frame.ts_ns = G_GINT64_CONSTANT (1700000000123456789);
  cs_dissect_frame (tree, &frame, copy, hints);
  g_free (copy);
  return tree;
}

static inline CsProtoTree *
dissect_test_run (const GByteArray *bytes, const CsDissectHints *hints)
{
  return dissect_test_run_link (bytes, 1, hints);
}

/* The value of the index-th node named name (asserting there is one). */
static inline const CsProtoNode *
dissect_test_nth (const CsProtoTree *tree, const char *name, guint index)
{
  for (guint i = 0; i < cs_proto_tree_get_n_nodes (tree); i++)
    {
      const CsProtoNode *node = cs_proto_tree_get_node (tree, i);

      if (g_strcmp0 (node->name, name) == 0 && index-- == 0)
        return node;
    }
  g_test_message ("no node %s", name);
  g_assert_not_reached ();
  return NULL;
}

static inline guint
dissect_test_count (const CsProtoTree *tree, const char *name)
{
  guint n = 0;

  for (guint i = 0; i < cs_proto_tree_get_n_nodes (tree); i++)
    n += g_strcmp0 (cs_proto_tree_get_node (tree, i)->name, name) == 0;
  return n;
}

/* Asserts a field's value, offset and length. */
#define dissect_test_field(tree, name, index, want_value, want_offset, want_length)                \
  G_STMT_START                                                                                     \
  {                                                                                                \
    const CsProtoNode *node_ = dissect_test_nth ((tree), (name), (index));                         \
    g_assert_cmpstr (node_->value, ==, (want_value));                                              \
    g_assert_cmpuint (node_->offset, ==, (want_offset));                                           \
    g_assert_cmpuint (node_->length, ==, (want_length));                                           \
  }                                                                                                \
  G_STMT_END

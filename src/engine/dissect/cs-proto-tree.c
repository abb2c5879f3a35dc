/* cs-proto-tree.c — the protocol tree of one frame: a flat array of nodes with depths */
#include "cs-proto-tree.h"

#include <stdio.h>

struct _CsProtoTree
{
  GArray *nodes; /* CsProtoNode; NULL in a summary tree */
  guint8 depth;  /* of the next field */
  char protocol[32];
  char source[64], destination[64];
  GString *info;
  GBytes *reassembled; /* what nodes of source 1 point into */
};

static void
cs_proto_node_clear (gpointer data)
{
  CsProtoNode *node = data;

  g_free (node->value);
  g_free (node->label);
}

CsProtoTree *
cs_proto_tree_new (void)
{
  CsProtoTree *tree = cs_proto_tree_new_summary ();

  tree->nodes = g_array_new (FALSE, FALSE, sizeof (CsProtoNode));
  g_array_set_clear_func (tree->nodes, cs_proto_node_clear);
  return tree;
}

CsProtoTree *
cs_proto_tree_new_summary (void)
{
  CsProtoTree *tree = g_new0 (CsProtoTree, 1);

  tree->info = g_string_new (NULL);
  return tree;
}

void
cs_proto_tree_free (CsProtoTree *tree)
{
  if (tree == NULL)
    return;
  if (tree->nodes != NULL)
    g_array_unref (tree->nodes);
  g_string_free (tree->info, TRUE);
  if (tree->reassembled != NULL)
    g_bytes_unref (tree->reassembled);
  g_free (tree);
}

gboolean
cs_proto_tree_wants_fields (const CsProtoTree *tree)
{
  return tree->nodes != NULL;
}

guint
cs_proto_tree_get_n_nodes (const CsProtoTree *tree)
{
  return tree->nodes != NULL ? tree->nodes->len : 0;
}

const CsProtoNode *
cs_proto_tree_get_node (const CsProtoTree *tree, guint index)
{
  g_return_val_if_fail (index < cs_proto_tree_get_n_nodes (tree), NULL);
  return &g_array_index (tree->nodes, CsProtoNode, index);
}

const CsProtoNode *
cs_proto_tree_find (const CsProtoTree *tree, const char *name)
{
  for (guint i = 0; i < cs_proto_tree_get_n_nodes (tree); i++)
    {
      const CsProtoNode *node = &g_array_index (tree->nodes, CsProtoNode, i);

      if (g_strcmp0 (node->name, name) == 0)
        return node;
    }
  return NULL;
}

int
cs_proto_tree_node_at_offset (const CsProtoTree *tree, guint32 offset)
{
  int best = -1;

  for (guint i = 0; i < cs_proto_tree_get_n_nodes (tree); i++)
    {
      const CsProtoNode *node = &g_array_index (tree->nodes, CsProtoNode, i);

      if (node->length == 0 || node->source != 0 || offset < node->offset
          || offset - node->offset >= node->length)
        continue;
      /* deeper wins; at the same depth the narrower one (a flag inside its byte) */
      if (best < 0 || node->depth > g_array_index (tree->nodes, CsProtoNode, best).depth
          || (node->depth == g_array_index (tree->nodes, CsProtoNode, best).depth
              && node->length < g_array_index (tree->nodes, CsProtoNode, best).length))
        best = (int) i;
    }
  return best;
}

const char *
cs_proto_tree_get_protocol (const CsProtoTree *tree)
{
  return tree->protocol;
}

const char *
cs_proto_tree_get_source (const CsProtoTree *tree)
{
  return tree->source;
}

const char *
cs_proto_tree_get_destination (const CsProtoTree *tree)
{
  return tree->destination;
}

const char *
cs_proto_tree_get_info (const CsProtoTree *tree)
{
  return tree->info->str;
}

void
cs_proto_tree_set_protocol (CsProtoTree *tree, const char *protocol)
{
  g_strlcpy (tree->protocol, protocol, sizeof tree->protocol);
}

void
cs_proto_tree_set_addresses (CsProtoTree *tree, const char *source, const char *destination)
{
  g_strlcpy (tree->source, source, sizeof tree->source);
  g_strlcpy (tree->destination, destination, sizeof tree->destination);
}

void
cs_proto_tree_set_info (CsProtoTree *tree, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_string_vprintf (tree->info, format, args);
  va_end (args);
}

static void
cs_proto_tree_append (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                      guint8 depth, char *value, char *label)
{
  CsProtoNode node = { name, value, label, offset, length, depth, 0, tree->reassembled != NULL };

  g_array_append_val (tree->nodes, node);
}

void
cs_proto_tree_layer (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                     const char *format, ...)
{
  va_list args;

  tree->depth = 1;
  if (tree->nodes == NULL)
    return;
  va_start (args, format);
  cs_proto_tree_append (tree, name, offset, length, 0, g_strdup (""),
                        g_strdup_vprintf (format, args));
  va_end (args);
}

void
cs_proto_tree_push (CsProtoTree *tree)
{
  if (tree->depth < G_MAXUINT8)
    tree->depth++;
}

void
cs_proto_tree_pop (CsProtoTree *tree)
{
  if (tree->depth > 1)
    tree->depth--;
}

void
cs_proto_tree_add (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                   const char *value, const char *label)
{
  if (tree->nodes == NULL)
    return;
  cs_proto_tree_append (tree, name, offset, length, tree->depth, g_strdup (value),
                        label != NULL ? g_strdup_printf ("%s: %s", label, value)
                                      : g_strdup (value));
}

void
cs_proto_tree_add_uint (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                        guint64 value, const char *label)
{
  char text[24];

  if (tree->nodes == NULL)
    return;
  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, value);
  cs_proto_tree_add (tree, name, offset, length, text, label);
}

void
cs_proto_tree_add_hex (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                       guint64 value, guint digits, const char *label)
{
  char text[24];

  if (tree->nodes == NULL)
    return;
  g_snprintf (text, sizeof text, "0x%0*" G_GINT64_MODIFIER "x", (int) digits, value);
  cs_proto_tree_add (tree, name, offset, length, text, label);
}

void
cs_proto_tree_add_bool (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                        gboolean value, const char *label)
{
  if (tree->nodes == NULL)
    return;
  cs_proto_tree_append (tree, name, offset, length, tree->depth, g_strdup (value ? "1" : "0"),
                        g_strdup_printf ("%s: %s", label, value ? "True" : "False"));
}

void
cs_proto_tree_add_uint_named (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                              guint64 value, const char *meaning, const char *label)
{
  if (tree->nodes == NULL)
    return;
  cs_proto_tree_append (tree, name, offset, length, tree->depth,
                        g_strdup_printf ("%" G_GUINT64_FORMAT, value),
                        g_strdup_printf ("%s: %s (%" G_GUINT64_FORMAT ")", label,
                                         meaning != NULL ? meaning : "Unknown", value));
}

void
cs_proto_tree_add_text (CsProtoTree *tree, const char *name, guint32 offset, guint32 length,
                        const char *format, ...)
{
  va_list args;
  char *text;

  if (tree->nodes == NULL)
    return;
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  cs_proto_tree_append (tree, name, offset, length, tree->depth, g_strdup (text), text);
}

void
cs_proto_tree_set_reassembled (CsProtoTree *tree, GBytes *datagram)
{
  if (tree->reassembled != NULL)
    g_bytes_unref (tree->reassembled);
  tree->reassembled = datagram != NULL ? g_bytes_ref (datagram) : NULL;
}

GBytes *
cs_proto_tree_get_reassembled (const CsProtoTree *tree)
{
  return tree->reassembled;
}

CsProtoNode *
cs_proto_tree_last (CsProtoTree *tree)
{
  if (tree->nodes == NULL || tree->nodes->len == 0)
    return NULL;
  return &g_array_index (tree->nodes, CsProtoNode, tree->nodes->len - 1);
}

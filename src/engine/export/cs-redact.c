/* cs-redact.c — the redactor's life: its tables, and text rewritten outside any frame */
#include "cs-redact-private.h"

static guint
cs_addr_hash_cb (gconstpointer a)
{
  return cs_addr_hash (a);
}

static gboolean
cs_addr_equal_cb (gconstpointer a, gconstpointer b)
{
  return cs_addr_equal (a, b);
}

CsRedactor *
cs_redactor_new (void)
{
  CsRedactor *r = g_new0 (CsRedactor, 1);

  /* A fresh seed per export: the mapping cannot be replayed from another file. */
  r->rand = g_rand_new ();
  r->original_addrs = g_hash_table_new_full (cs_addr_hash_cb, cs_addr_equal_cb, g_free, NULL);
  r->addr_order = g_ptr_array_new ();
  r->addr_map = g_hash_table_new_full (cs_addr_hash_cb, cs_addr_equal_cb, g_free, g_free);
  r->used_addrs = g_hash_table_new_full (cs_addr_hash_cb, cs_addr_equal_cb, g_free, NULL);
  r->v6_prefix_map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r->v6_site_map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r->original_words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->word_map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->used_words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->learned_words = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->learned_hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->host_map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->domain_map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->mac_map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  cs_redact_stream_init (r);
  return r;
}

void
cs_redactor_free (CsRedactor *r)
{
  if (r == NULL)
    return;
  cs_redact_stream_clear (r);
  g_rand_free (r->rand);
  g_ptr_array_unref (r->addr_order);
  g_hash_table_unref (r->original_addrs);
  g_hash_table_unref (r->addr_map);
  g_hash_table_unref (r->used_addrs);
  g_hash_table_unref (r->v6_prefix_map);
  g_hash_table_unref (r->v6_site_map);
  g_hash_table_unref (r->original_words);
  g_hash_table_unref (r->word_map);
  g_hash_table_unref (r->used_words);
  g_hash_table_unref (r->learned_words);
  g_hash_table_unref (r->learned_hosts);
  g_hash_table_unref (r->host_map);
  g_hash_table_unref (r->domain_map);
  g_hash_table_unref (r->mac_map);
  g_free (r);
}

GByteArray *
cs_redactor_rewrite_sip (CsRedactor *r, const char *text, gsize len)
{
  GByteArray *out;

  r->observing = !r->sealed;
  out = cs_redact_sip_text (r, (const guint8 *) text, len, NULL);
  r->observing = FALSE;
  return out;
}

void
cs_redactor_observe_sip (CsRedactor *r, const char *text, gsize len)
{
  r->observing = TRUE;
  g_byte_array_unref (cs_redact_sip_text (r, (const guint8 *) text, len, NULL));
  r->observing = FALSE;
}

guint64
cs_redactor_get_n_blanked (CsRedactor *r)
{
  return r->n_blanked;
}

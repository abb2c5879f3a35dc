/* test-slab.c — per-thread slab: alignment, the heap for threads that did not opt in and
 * for large objects, block reuse, blocks outliving their thread, frees from other
 * threads, SIP messages parsed on a decode thread that ends */
#include "loader/cs-loader.h"
#include "sip/cs-sip-message.h"
#include "base/cs-slab.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static void
check_objects (gboolean enabled)
{
  guint base = cs_slab_blocks_alive ();
  char *a = cs_slab_alloc (1);
  char *b = cs_slab_alloc (13);
  char *c = cs_slab_alloc (24);

  g_assert_cmpuint ((guintptr) a % 8, ==, 0);
  g_assert_cmpuint ((guintptr) b % 8, ==, 0);
  g_assert_cmpuint ((guintptr) c % 8, ==, 0);
  memset (a, 1, 1);
  memset (b, 2, 13);
  memset (c, 3, 24);
  g_assert_cmpint (a[0], ==, 1);
  g_assert_cmpint (b[12], ==, 2);
  g_assert_cmpint (c[23], ==, 3);
  if (enabled)
    g_assert_true (b >= a + 8 && c >= b + 16 && c - a < 64); /* bump-allocated */
  else
    g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
  cs_slab_free (a);
  cs_slab_free (b);
  cs_slab_free (c);
  cs_slab_free (NULL);
}

static gpointer
objects_on_enabled_thread (gpointer data)
{
  guint base = cs_slab_blocks_alive ();

  (void) data;
  cs_slab_thread_enable ();
  cs_slab_thread_enable (); /* idempotent */
  check_objects (TRUE);
  /* the thread keeps its current block until it ends */
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base + 1);
  return NULL;
}

static void
test_small_objects (void)
{
  guint base = cs_slab_blocks_alive ();

  check_objects (FALSE); /* this thread never opted in: the heap */
  g_thread_join (g_thread_new ("slab-small", objects_on_enabled_thread, NULL));
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
}

static gpointer
large_objects (gpointer data)
{
  guint base = cs_slab_blocks_alive ();
  gsize sizes[] = { CS_SLAB_MAX_OBJECT + 1, CS_SLAB_BLOCK_SIZE, 3 * CS_SLAB_BLOCK_SIZE + 5 };

  (void) data;
  cs_slab_thread_enable ();
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      char *p = cs_slab_alloc (sizes[i]);
      memset (p, 7, sizes[i]);
      g_assert_cmpint (p[sizes[i] - 1], ==, 7);
      g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
      cs_slab_free (p);
    }
  return NULL;
}

static void
test_large_objects_from_heap (void)
{
  g_thread_join (g_thread_new ("slab-large", large_objects, NULL));
}

/* Filling many blocks whose objects are freed at once never keeps more than the
 * current block: an empty block is reused, a retired one unmapped. */
static gpointer
blocks_reused_or_unmapped (gpointer data)
{
  guint base = cs_slab_blocks_alive ();
  gsize n = 3 * CS_SLAB_BLOCK_SIZE / 1000;
  gpointer *objs = g_new (gpointer, n);

  (void) data;
  cs_slab_thread_enable ();
  for (int round = 0; round < 3; round++)
    {
      for (gsize i = 0; i < n; i++)
        {
          objs[i] = cs_slab_alloc (1000);
          memset (objs[i], (int) i, 1000);
        }
      g_assert_cmpuint (cs_slab_blocks_alive (), >=, base + 3);
      for (gsize i = 0; i < n; i++)
        cs_slab_free (objs[i]);
      g_assert_cmpuint (cs_slab_blocks_alive (), <=, base + 1);
    }
  /* freed as they go: the same block is refilled */
  for (gsize i = 0; i < n; i++)
    cs_slab_free (cs_slab_alloc (1000));
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base + 1);
  g_free (objs);
  return NULL;
}

static void
test_blocks_reused_or_unmapped (void)
{
  guint base = cs_slab_blocks_alive ();

  g_thread_join (g_thread_new ("slab-reuse", blocks_reused_or_unmapped, NULL));
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
}

typedef struct
{
  gsize n;
  gpointer *objs;
} Batch;

static gpointer
fill_batch (gpointer data)
{
  Batch *b = data;

  cs_slab_thread_enable ();
  for (gsize i = 0; i < b->n; i++)
    {
      b->objs[i] = cs_slab_alloc (100 + i % 300);
      memset (b->objs[i], (int) i, 100);
    }
  return NULL;
}

/* Objects outlive the thread that made them; the last free unmaps its blocks. */
static void
test_objects_outlive_thread (void)
{
  guint base = cs_slab_blocks_alive ();
  Batch b = { .n = 20000 };

  b.objs = g_new (gpointer, b.n);
  g_thread_join (g_thread_new ("slab-fill", fill_batch, &b));
  g_assert_cmpuint (cs_slab_blocks_alive (), >, base);
  for (gsize i = 0; i < b.n; i++)
    {
      g_assert_cmpint (((guint8 *) b.objs[i])[99], ==, (guint8) i);
      cs_slab_free (b.objs[i]);
    }
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
  g_free (b.objs);

  /* a thread that ends with nothing alive leaves nothing mapped */
  b.n = 0;
  g_thread_join (g_thread_new ("slab-empty", fill_batch, &b));
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
}

typedef struct
{
  GAsyncQueue *queue;
  gsize n;
} Handoff;

static gpointer
produce (gpointer data)
{
  Handoff *h = data;

  cs_slab_thread_enable ();
  for (gsize i = 0; i < h->n; i++)
    {
      guint32 *p = cs_slab_alloc (sizeof (guint32) * (1 + i % 64));
      p[0] = (guint32) i;
      g_async_queue_push (h->queue, p);
    }
  return NULL;
}

/* Another thread frees while the owner is still filling (and retiring) blocks. */
static void
test_concurrent_frees (void)
{
  guint base = cs_slab_blocks_alive ();
  Handoff h = { g_async_queue_new (), 400000 };
  GThread *t = g_thread_new ("slab-produce", produce, &h);

  for (gsize i = 0; i < h.n; i++)
    {
      guint32 *p = g_async_queue_pop (h.queue);
      g_assert_cmpuint (p[0], ==, i);
      cs_slab_free (p);
    }
  g_thread_join (t);
  g_async_queue_unref (h.queue);
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
}

static const char invite[] = "INVITE sip:bob@example.com SIP/2.0\r\n"
                             "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1\r\n"
                             "From: <sip:alice@example.com>;tag=a\r\n"
                             "To: <sip:bob@example.com>\r\n"
                             "Call-ID: slab-1@example.com\r\n"
                             "CSeq: 1 INVITE\r\n"
                             "Content-Length: 0\r\n\r\n";

static gpointer
parse_messages (gpointer data)
{
  GPtrArray *out = data;

  cs_slab_thread_enable ();
  for (int i = 0; i < 5000; i++)
    g_ptr_array_add (out, cs_sip_message_parse ((const guint8 *) invite, strlen (invite), NULL));
  return NULL;
}

/* SIP messages parsed on a decode thread stay valid after it ends and free their blocks
 * when the last reference goes, wherever that is; elsewhere they come from the heap. */
static void
test_sip_messages (void)
{
  guint base = cs_slab_blocks_alive ();
  GPtrArray *msgs = g_ptr_array_new ();

  g_thread_join (g_thread_new ("slab-sip", parse_messages, msgs));
  g_assert_cmpuint (msgs->len, ==, 5000);
  g_assert_cmpuint (cs_slab_blocks_alive (), >, base);
  g_ptr_array_add (msgs, cs_sip_message_parse ((const guint8 *) invite, strlen (invite), NULL));
  for (guint i = 0; i < msgs->len; i++)
    {
      CsSipMessage *m = msgs->pdata[i];
      g_assert_cmpstr (cs_sip_message_get_call_id (m), ==, "slab-1@example.com");
      g_assert_nonnull (cs_sip_message_get_headers (m));
      cs_sip_message_ref (m);
      cs_sip_message_unref (m);
      cs_sip_message_unref (m);
    }
  g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
  g_ptr_array_unref (msgs);
}

static void
put_le32 (guint8 *p, guint32 v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (guint8) (v >> (8 * i));
}

/* A raw-IP pcap of n INVITEs, each its own call. */
static char *
write_invites (const char *dir, guint n)
{
  char *path = g_build_filename (dir, "invites.pcap", NULL);
  FILE *out = fopen (path, "wb");
  guint8 header[24] = { 0 };

  g_assert_nonnull (out);
  put_le32 (header, 0xa1b2c3d4);
  header[4] = 2, header[6] = 4;
  put_le32 (header + 16, 65535);
  put_le32 (header + 20, 101); /* LINKTYPE_RAW */
  fwrite (header, 1, sizeof header, out);
  for (guint i = 0; i < n; i++)
    {
      char sip[512];
      int len = g_snprintf (sip, sizeof sip,
                            "INVITE sip:bob@example.com SIP/2.0\r\n"
                            "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK%u\r\n"
                            "From: <sip:alice@example.com>;tag=a%u\r\n"
                            "To: <sip:bob@example.com>\r\n"
                            "Call-ID: slab-%u@example.com\r\n"
                            "CSeq: 1 INVITE\r\n"
                            "Content-Length: 0\r\n\r\n",
                            i, i, i);
      guint total = 28 + (guint) len;
      guint8 rec[16 + 28] = { 0 };

      put_le32 (rec, 1700000000 + i);
      put_le32 (rec + 8, total);
      put_le32 (rec + 12, total);
      rec[16] = 0x45; /* IPv4, 20-byte header */
      rec[18] = (guint8) (total >> 8), rec[19] = (guint8) total;
      rec[24] = 64, rec[25] = 17;                                     /* TTL, UDP */
      rec[28] = 10, rec[31] = 1;                                      /* 10.0.0.1 */
      rec[32] = 10, rec[35] = 2;                                      /* 10.0.0.2 */
      rec[36] = 0x13, rec[37] = 0xc4, rec[38] = 0x13, rec[39] = 0xc4; /* 5060 -> 5060 */
      rec[40] = (guint8) ((8 + len) >> 8), rec[41] = (guint8) (8 + len);
      fwrite (rec, 1, sizeof rec, out);
      fwrite (sip, 1, (gsize) len, out);
    }
  g_assert_cmpint (fclose (out), ==, 0);
  return path;
}

/* A load's decode workers put their messages in blocks, which go with the analysis. */
static void
test_loader_workers (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("under AddressSanitizer a load keeps its messages on the heap");
  return;
#endif
  g_autofree char *dir = g_dir_make_tmp ("cs-slab-XXXXXX", NULL);
  g_autofree char *path = write_invites (dir, 3000);
  const char *paths[] = { path, NULL };
  guint base = cs_slab_blocks_alive ();

  for (guint threads = 1; threads <= 2; threads++)
    {
      CsLoader *loader = cs_loader_new ();
      g_autoptr (GError) error = NULL;

      cs_loader_set_threads (loader, threads);
      CsAnalysis *analysis = cs_loader_load (loader, paths, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (analysis)), ==, 3000);
      g_assert_cmpuint (cs_slab_blocks_alive (), >, base);
      /* the loader may hold the analysis too */
      g_object_unref (loader);
      g_object_unref (analysis);
      g_assert_cmpuint (cs_slab_blocks_alive (), ==, base);
    }
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/slab/small-objects", test_small_objects);
  g_test_add_func ("/slab/large-objects-from-heap", test_large_objects_from_heap);
  g_test_add_func ("/slab/blocks-reused-or-unmapped", test_blocks_reused_or_unmapped);
  g_test_add_func ("/slab/objects-outlive-thread", test_objects_outlive_thread);
  g_test_add_func ("/slab/concurrent-frees", test_concurrent_frees);
  g_test_add_func ("/slab/sip-messages", test_sip_messages);
  g_test_add_func ("/slab/loader-workers", test_loader_workers);
  return g_test_run ();
}

/* fuzz-driver.c — main () for the smoke builds: runs a fixed number of
 * deterministic generated and mutated inputs through LLVMFuzzerTestOneInput.
 *
 * Usage: fuzz-NAME [--runs N] [--seed S] [--max-len BYTES] [--timeout S] [CORPUS…]
 * CORPUS is a file or a directory of seed files. Prints TAP (one test). An
 * input that crashes, aborts or runs longer than the timeout is written to
 * crash-NAME-<run>.bin in $CS_FUZZ_ARTIFACTS (default: the working directory)
 * so it can be replayed: fuzz-NAME --runs 0 crash-NAME-<run>.bin */
#include "fuzz-common.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Set under ASan/UBSan: lets us save the input before the sanitizer exits. */
extern void __sanitizer_set_death_callback (void (*callback) (void)) __attribute__ ((weak));

static const char *fuzz_name = "fuzz";
static const guint8 *current_data;
static gsize current_size;
static guint64 current_run;

/* xorshift64*: deterministic across platforms, unlike rand (). */
static guint64 rng_state;

static guint64
rng_next (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * G_GUINT64_CONSTANT (2685821657736338717);
}

static gsize
rng_below (gsize n)
{
  return n > 0 ? (gsize) (rng_next () % n) : 0;
}

/* Async-signal-safe: open/write/close only. */
static void
save_current_input (void)
{
  char path[512];
  const char *dir = getenv ("CS_FUZZ_ARTIFACTS");
  int fd;

  if (current_data == NULL)
    return;
  g_snprintf (path, sizeof path, "%s/crash-%s-%" G_GUINT64_FORMAT ".bin", dir != NULL ? dir : ".",
              fuzz_name, current_run);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0)
    {
      if (write (fd, current_data, current_size) < 0)
        { /* nothing more can be done inside a signal handler */
        }
      close (fd);
      if (write (2, "input saved to ", 15) < 0 || write (2, path, strlen (path)) < 0
          || write (2, "\n", 1) < 0)
        {
        }
    }
}

static void
on_fatal_signal (int sig)
{
  if (sig == SIGALRM && write (2, "timeout: input ran too long\n", 28) < 0)
    {
    }
  save_current_input ();
  signal (sig, SIG_DFL);
  raise (sig == SIGALRM ? SIGABRT : sig);
}

static void
install_handlers (void)
{
  signal (SIGABRT, on_fatal_signal);
  signal (SIGALRM, on_fatal_signal);
  signal (SIGTRAP, on_fatal_signal);
  if (__sanitizer_set_death_callback != NULL)
    __sanitizer_set_death_callback (save_current_input);
  else
    {
      /* Without a sanitizer nobody else reports these. */
      signal (SIGSEGV, on_fatal_signal);
      signal (SIGBUS, on_fatal_signal);
      signal (SIGFPE, on_fatal_signal);
    }
}

static void
add_seed_file (GPtrArray *seeds, const char *path, gsize max_len)
{
  char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return;
  g_ptr_array_add (seeds, g_bytes_new_take (contents, MIN (len, max_len)));
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
add_seeds (GPtrArray *seeds, const char *path, gsize max_len)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  GPtrArray *names;
  const char *name;

  if (dir == NULL)
    {
      add_seed_file (seeds, path, max_len);
      return;
    }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_dir_close (dir);
  /* Directory order is not stable: sort so every run sees the same inputs. */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    add_seed_file (seeds, g_ptr_array_index (names, i), max_len);
  g_ptr_array_unref (names);
}

/* data must not point into buf. */
static void
buf_insert (GByteArray *buf, guint pos, const guint8 *data, guint n)
{
  guint old_len = buf->len;

  g_byte_array_set_size (buf, old_len + n);
  memmove (buf->data + pos + n, buf->data + pos, old_len - pos);
  memcpy (buf->data + pos, data, n);
}

/* Values that make length and count fields lie. */
static const guint32 interesting[] = {
  0,       1,          2,          3,          4,          7,          8,          12,
  16,      0x7f,       0x80,       0xff,       0x100,      0x7fff,     0x8000,     0xffff,
  0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x0a0d0d0a, 0x1a2b3c4d, 65535 + 12,
};

static void
mutate_once (GByteArray *buf, GPtrArray *seeds, gsize max_len)
{
  gsize len = buf->len;
  gsize pos = rng_below (len + 1);

  switch (rng_below (11))
    {
    case 0: /* flip a bit */
      if (len > 0)
        buf->data[rng_below (len)] ^= (guint8) (1u << rng_below (8));
      break;
    case 1: /* a random byte */
      if (len > 0)
        buf->data[rng_below (len)] = (guint8) rng_next ();
      break;
    case 2: /* an interesting 8/16/32-bit value, either byte order */
      {
        guint32 v = interesting[rng_below (G_N_ELEMENTS (interesting))];
        gsize width = (gsize) 1 << rng_below (3);
        gboolean be = rng_below (2);

        for (gsize i = 0; i < width && pos + i < len; i++)
          buf->data[pos + i] = (guint8) (v >> (8 * (be ? width - 1 - i : i)));
      }
      break;
    case 3: /* insert random bytes */
      {
        guint8 junk[32];
        gsize n = 1 + rng_below (sizeof junk);

        for (gsize i = 0; i < n; i++)
          junk[i] = (guint8) rng_next ();
        buf_insert (buf, (guint) pos, junk, (guint) n);
      }
      break;
    case 4: /* delete a range */
      if (pos < len)
        g_byte_array_remove_range (buf, (guint) pos, (guint) (1 + rng_below (MIN (len - pos, 64))));
      break;
    case 5: /* truncate */
      g_byte_array_set_size (buf, (guint) rng_below (len + 1));
      break;
    case 6: /* duplicate a range in place */
      if (pos < len)
        {
          gsize n = 1 + rng_below (MIN (len - pos, 256));
          guint8 *copy = g_memdup2 (buf->data + pos, n);

          buf_insert (buf, (guint) pos, copy, (guint) n);
          g_free (copy);
        }
      break;
    case 7: /* splice in a piece of another seed */
      if (seeds->len > 0)
        {
          gsize other_len;
          const guint8 *other
              = g_bytes_get_data (g_ptr_array_index (seeds, rng_below (seeds->len)), &other_len);
          if (other_len > 0)
            {
              gsize from = rng_below (other_len);
              gsize n = 1 + rng_below (MIN (other_len - from, 512));

              buf_insert (buf, (guint) pos, other + from, (guint) n);
            }
        }
      break;
    case 8: /* text: a digit run becomes a huge or negative number */
      {
        static const char *const numbers[]
            = { "0", "99999999999999999999", "-1", "4294967296", "65536", "2147483648" };
        const char *n = numbers[rng_below (G_N_ELEMENTS (numbers))];

        for (gsize i = pos; i < len; i++)
          if (g_ascii_isdigit (buf->data[i]))
            {
              gsize end = i;

              while (end < len && g_ascii_isdigit (buf->data[end]))
                end++;
              g_byte_array_remove_range (buf, (guint) i, (guint) (end - i));
              buf_insert (buf, (guint) i, (const guint8 *) n, (guint) strlen (n));
              break;
            }
      }
      break;
    case 9: /* text: line breaks and separators where they hurt */
      {
        static const char *const bits[]
            = { "\r\n", "\n", "\r\n\r\n", ":", ";", ",", "\0", " ", "=", "<", ">", "\"", "\\" };
        const char *b = bits[rng_below (G_N_ELEMENTS (bits))];

        buf_insert (buf, (guint) pos, (const guint8 *) b, (guint) MAX (strlen (b), 1));
      }
      break;
    default: /* swap two bytes */
      if (len > 1)
        {
          gsize a = rng_below (len), b = rng_below (len);
          guint8 t = buf->data[a];

          buf->data[a] = buf->data[b];
          buf->data[b] = t;
        }
      break;
    }
  if (buf->len > max_len)
    g_byte_array_set_size (buf, (guint) max_len);
}

static void
make_input (GByteArray *buf, GPtrArray *seeds, guint64 run, gsize max_len)
{
  g_byte_array_set_size (buf, 0);
  /* Every tenth input (all of them without seeds) is random bytes; the
   * others are seeds with one to eight mutations, and each seed once as is. */
  if (seeds->len == 0 || run % 10 == 9)
    {
      gsize n = rng_below (MIN (max_len, 4096) + 1);

      for (gsize i = 0; i < n; i++)
        {
          guint8 b = (guint8) rng_next ();

          g_byte_array_append (buf, &b, 1);
        }
      return;
    }
  {
    gsize len;
    const guint8 *seed = g_bytes_get_data (g_ptr_array_index (seeds, run % seeds->len), &len);
    guint mutations = run < seeds->len ? 0 : 1 + (guint) rng_below (8);

    g_byte_array_append (buf, seed, (guint) len);
    for (guint i = 0; i < mutations; i++)
      mutate_once (buf, seeds, max_len);
  }
}

int
main (int argc, char **argv)
{
  guint64 runs = 20000, seed = 0x5eed;
  gsize max_len = 64 * 1024;
  guint timeout_s = 20;
  g_autoptr (GPtrArray) seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr (GByteArray) buf = g_byte_array_new ();
  const char *env_runs = g_getenv ("CS_FUZZ_RUNS");
  gint64 start, slowest = 0;
  guint64 slowest_run = 0;

  fuzz_name = g_path_get_basename (argv[0]);
  if (env_runs != NULL)
    runs = g_ascii_strtoull (env_runs, NULL, 10);
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--runs") == 0 && i + 1 < argc)
        runs = env_runs != NULL ? runs : g_ascii_strtoull (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--seed") == 0 && i + 1 < argc)
        seed = g_ascii_strtoull (argv[++i], NULL, 0);
      else if (strcmp (argv[i], "--max-len") == 0 && i + 1 < argc)
        max_len = (gsize) g_ascii_strtoull (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--timeout") == 0 && i + 1 < argc)
        timeout_s = (guint) g_ascii_strtoull (argv[++i], NULL, 10);
      else
        add_seeds (seeds, argv[i], max_len);
    }
  rng_state = seed != 0 ? seed : 1;
  install_handlers ();
  cs_fuzz_init_once ();

  printf ("1..1\n");
  fflush (stdout);
  start = g_get_monotonic_time ();
  /* With --runs 0, replay the given files once each. */
  for (guint64 run = 0; run < MAX (runs, runs == 0 ? seeds->len : 0); run++)
    {
      gint64 t0;

      make_input (buf, seeds, run, max_len);
      current_data = buf->data;
      current_size = buf->len;
      current_run = run;
      alarm (timeout_s);
      t0 = g_get_monotonic_time ();
      LLVMFuzzerTestOneInput (buf->data, buf->len);
      if (g_get_monotonic_time () - t0 > slowest)
        {
          slowest = g_get_monotonic_time () - t0;
          slowest_run = run;
        }
    }
  alarm (0);
  current_data = NULL;
  printf ("ok 1 - %s: %" G_GUINT64_FORMAT " inputs from %u seeds in %.2f s (slowest %.1f ms, "
          "input %" G_GUINT64_FORMAT ")\n",
          fuzz_name, MAX (runs, runs == 0 ? seeds->len : 0), seeds->len,
          (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC, (double) slowest / 1000.0,
          slowest_run);
  return 0;
}

/* golden-common.c — running the CLI and reading its JSON in golden tests */
#include "golden-common.h"

#include <glib/gstdio.h>

#include <string.h>
#include <sys/wait.h>

char *
golden_run_cli (const char *const *args, int *exit_status, char **err_out)
{
  const char *cli = g_getenv ("CS_CLI");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  char *out = NULL, *err = NULL;
  int wait_status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                &wait_status, &error);
  g_assert_no_error (error);
  *exit_status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  if (err_out != NULL)
    *err_out = err;
  else
    g_free (err);
  return out;
}

JsonNode *
golden_report (const char *file, int *exit_status)
{
  const char *args[] = { "report", "--format", "json", file, NULL };
  g_autofree char *err = NULL;
  g_autofree char *out = golden_run_cli (args, exit_status, &err);
  g_autoptr (GError) error = NULL;
  JsonNode *root;

  if (*exit_status != 0 && *exit_status != 3)
    g_test_message ("callscope-cli failed on %s: %s", file, err);
  root = json_from_string (out, &error);
  g_assert_no_error (error);
  g_assert_nonnull (root);
  return root;
}

gint64
golden_int (JsonObject *object, const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return -1;
  return json_node_get_int (node);
}

const char *
golden_samples_dir (void)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  return dir;
}

static int
golden_compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
golden_sample_names (void)
{
  const char *dir = golden_samples_dir ();
  g_autofree char *tshark_dir = NULL;
  g_autoptr (GDir) listing = NULL;
  GPtrArray *names;

  if (dir == NULL)
    return NULL;
  tshark_dir = g_build_filename (dir, "tshark", NULL);
  listing = g_dir_open (tshark_dir, 0, NULL);
  g_assert_nonnull (listing);
  names = g_ptr_array_new_with_free_func (g_free);
  for (const char *f; (f = g_dir_read_name (listing)) != NULL;)
    if (g_str_has_suffix (f, ".txt"))
      g_ptr_array_add (names, g_strndup (f, strlen (f) - 4));
  g_ptr_array_sort (names, golden_compare_names);
  return names;
}

void
golden_remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);

  for (const char *f; d != NULL && (f = g_dir_read_name (d)) != NULL;)
    {
      g_autofree char *path = g_build_filename (dir, f, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

void
golden_add_scenario_tests (const char *gen, const char *path_prefix, GTestDataFunc func, char **dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) d = NULL;
  const char *args[] = { gen, "all", "-d", NULL, NULL };
  int wait_status = 0;
  guint n = 0;

  *dir = g_dir_make_tmp ("callscope-golden-XXXXXX", &error);
  g_assert_no_error (error);
  args[3] = *dir;
  g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  d = g_dir_open (*dir, 0, &error);
  g_assert_no_error (error);
  for (const char *f; (f = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (f, ".expect.json"))
      {
        g_autofree char *name = g_strndup (f, strlen (f) - strlen (".expect.json"));
        g_autofree char *test_path = g_strdup_printf ("%s/%s", path_prefix, name);

        /* the path lives as long as the test program: the tests run after this returns */
        g_test_add_data_func_full (test_path, g_build_filename (*dir, f, NULL), func, g_free);
        n++;
      }
  g_assert_cmpuint (n, >, 10);
}

JsonNode *
golden_load_json (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

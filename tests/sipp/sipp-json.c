/* sipp-json.c — `callscope-cli loadtest --format json` for the sipp suite */
#include "sipp-json.h"

#include <math.h>

JsonObject *
loadtest_json (const char *pcap, const char *const *extra, JsonParser **parser_out)
{
  const char *cli = g_getenv ("CS_CLI");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  JsonParser *parser = json_parser_new ();
  int status = -1;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, "loadtest");
  g_ptr_array_add (argv, "--format");
  g_ptr_array_add (argv, "json");
  g_ptr_array_add (argv, "--quiet");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra[i]);
  g_ptr_array_add (argv, (gpointer) pcap);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (status != 0)
    g_printerr ("# %s\n", err);
  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  *parser_out = parser;
  return json_node_get_object (json_parser_get_root (parser));
}

gint64
member_int (JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && !json_node_is_null (node) ? json_node_get_int (node) : 0;
}

double
member_double (JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && !json_node_is_null (node) ? json_node_get_double (node) : NAN;
}

JsonObject *
member_object (JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* golden-common.h — running the CLI and reading its JSON in golden tests */
#pragma once

#include <json-glib/json-glib.h>

/* Runs callscope-cli with argv (NULL-terminated, without the program);
 * returns its stdout and sets *exit_status. */
char *golden_run_cli (const char *const *args, int *exit_status, char **err_out);
/* Runs `callscope-cli report --format json FILE` and parses it (asserts on failure). */
JsonNode *golden_report (const char *file, int *exit_status);
/* Integer member of an object, -1 when absent or null. */
gint64 golden_int (JsonObject *object, const char *member);
/* Path of the shared samples directory, or NULL when absent. */
const char *golden_samples_dir (void);
/* Names of the samples that have a stored tshark reference
 * (samples/tshark/NAME.txt), sorted; NULL when the samples are absent. */
GPtrArray *golden_sample_names (void);
/* Parses a JSON file (asserts on failure); free with json_node_unref. */
JsonNode *golden_load_json (const char *path);
/* Removes a flat temporary directory and the files in it. */
void golden_remove_dir (const char *dir);
/* Writes every generator scenario (`cs-gen all`) into a new temporary directory (returned in
 * *dir, remove it with golden_remove_dir) and adds one test per scenario, named
 * path_prefix/NAME, that runs func with the path of the scenario's expect.json. */
void golden_add_scenario_tests (const char *gen, const char *path_prefix, GTestDataFunc func,
                                char **dir);

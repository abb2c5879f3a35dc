/* sipp-json.h — `callscope-cli loadtest --format json` for the sipp suite, and
 * members of its answer */
#pragma once

#include <json-glib/json-glib.h>

/* Runs $CS_CLI loadtest --format json --quiet [extra…] pcap; the root object (owned by
 * *parser_out). extra may be NULL. */
JsonObject *loadtest_json (const char *pcap, const char *const *extra, JsonParser **parser_out);
gint64 member_int (JsonObject *object, const char *name);         /* 0 when absent or null */
double member_double (JsonObject *object, const char *name);      /* NAN when absent or null */
JsonObject *member_object (JsonObject *object, const char *name); /* NULL when absent */

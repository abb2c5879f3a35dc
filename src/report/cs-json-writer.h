/* cs-json-writer.h — a small streaming JSON writer (fast enough for 100 MB reports) */
#pragma once

#include <glib.h>
#include <stdio.h>
#include <string.h>

G_BEGIN_DECLS

typedef struct _CsJsonWriter CsJsonWriter;

CsJsonWriter *cs_json_writer_new (FILE *out, gboolean pretty);
/* Finishes the document; returns FALSE if writing failed. */
gboolean cs_json_writer_free (CsJsonWriter *w);

/* How many threads may write pieces of this document (cs_json_writer_new_piece);
 * 1 unless set. */
void cs_json_writer_set_threads (CsJsonWriter *w, guint threads);
guint cs_json_writer_get_threads (CsJsonWriter *w);
/* A writer for a piece of w's document, written in memory (on another thread) and
 * put in later with cs_json_append_piece: it continues at w's current depth after an
 * element (so its first element starts with a separator). */
CsJsonWriter *cs_json_writer_new_piece (CsJsonWriter *w);
/* Ends a piece writer, returning its text. */
GBytes *cs_json_writer_free_to_piece (CsJsonWriter *piece);
/* Appends a piece made for w at its current depth, as if written here. */
void cs_json_append_piece (CsJsonWriter *w, GBytes *piece);

void cs_json_begin_object (CsJsonWriter *w);
void cs_json_end_object (CsJsonWriter *w);
void cs_json_begin_array (CsJsonWriter *w);
void cs_json_end_array (CsJsonWriter *w);
/* Inside an object: the next value's name. */
void cs_json_key (CsJsonWriter *w, const char *key);
/* The same for a name that is a string literal needing no escaping: its quotes,
 * colon and space are joined at compile time and written with one copy. */
#define CS_JSON_KEY(w, literal)                                                                    \
  cs_json_key_quoted ((w), "\"" literal "\": ", sizeof ("\"" literal "\": ") - 1)
/* `quoted` is `"name": ` (len bytes, the space dropped when not pretty). */
void cs_json_key_quoted (CsJsonWriter *w, const char *quoted, gsize len);
/* A key (as CS_JSON_KEY) and its value in one call: the same text as the two calls, with
 * one reservation and no key state in between (reports write millions of these). */
#define CS_JSON_KEY_UINT(w, literal, value)                                                        \
  cs_json_key_quoted_uint ((w), "\"" literal "\": ", sizeof ("\"" literal "\": ") - 1, (value))
#define CS_JSON_KEY_STRING(w, literal, value)                                                      \
  cs_json_key_quoted_string ((w), "\"" literal "\": ", sizeof ("\"" literal "\": ") - 1, (value))
#define CS_JSON_KEY_DOUBLE(w, literal, value, decimals)                                            \
  cs_json_key_quoted_double ((w), "\"" literal "\": ", sizeof ("\"" literal "\": ") - 1, (value),  \
                             (decimals))
void cs_json_key_quoted_uint (CsJsonWriter *w, const char *quoted, gsize len, guint64 value);
void cs_json_key_quoted_string (CsJsonWriter *w, const char *quoted, gsize len, const char *value);
void cs_json_key_quoted_double (CsJsonWriter *w, const char *quoted, gsize len, double value,
                                int decimals);
void cs_json_string (CsJsonWriter *w, const char *value); /* NULL writes null */

/* Raw output, for objects written many times in one known shape: the caller writes the
 * exact text (separators, indentation, keys) itself between cs_json_raw_begin and
 * cs_json_raw_end, always with CS_JSON_RAW_MARGIN bytes of room left at p.
 * cs_json_raw_end records that this depth has an element and no key is pending. */
#define CS_JSON_RAW_MARGIN 2048
gboolean cs_json_writer_is_pretty (CsJsonWriter *w);
guint cs_json_writer_get_depth (CsJsonWriter *w);
char *cs_json_raw_begin (CsJsonWriter *w);
void cs_json_raw_end (CsJsonWriter *w, char *p);
/* cs_json_raw_end right after a raw key: the writer's next value belongs to it. */
void cs_json_raw_end_key (CsJsonWriter *w, char *p);
/* Room for `room` + CS_JSON_RAW_MARGIN bytes at the returned position (p's text kept). */
char *cs_json_raw_ensure (CsJsonWriter *w, char *p, gsize room);
/* After a raw key: the string as cs_json_string writes it; returns where to go on. */
char *cs_json_raw_string (CsJsonWriter *w, char *p, const char *value);
/* The same for a string (not NULL) whose length the caller knows. */
char *cs_json_raw_string_len (CsJsonWriter *w, char *p, const char *value, gsize len);
/* A number as cs_json_uint / cs_json_double write it (at most 40 bytes). */
char *cs_json_raw_uint (char *p, guint64 value);
char *cs_json_raw_double (char *p, double value, int decimals);
/* Copies a literal (a key with its separator and indentation). */
#define CS_JSON_RAW_LITERAL(p, literal)                                                            \
  (memcpy ((p), (literal), sizeof (literal) - 1), (p) + sizeof (literal) - 1)
void cs_json_int (CsJsonWriter *w, gint64 value);
void cs_json_uint (CsJsonWriter *w, guint64 value);
/* Writes a number with up to `decimals` places; NaN/inf write null. */
void cs_json_double (CsJsonWriter *w, double value, int decimals);
void cs_json_bool (CsJsonWriter *w, gboolean value);
void cs_json_null (CsJsonWriter *w);

G_END_DECLS

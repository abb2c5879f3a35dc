/* cs-gen.c — writes callscope's demo capture and golden-test scenarios */
#include "gen-points.h"
#include "gen-scenarios.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static int
usage (void)
{
  fprintf (stderr, "usage:\n"
                   "  cs-gen list\n"
                   "  cs-gen demo -o FILE.pcapng [--expect FILE.json]\n"
                   "  cs-gen scenario NAME -o FILE [--expect FILE.json]\n"
                   "  cs-gen all -d DIR\n"
                   "  cs-gen points -d DIR   (one network at three capture points)\n");
  return 2;
}

static gboolean
write_capture (const char *name, void (*build) (GenCapture *), const char *path,
               const char *expect_path, GError **error)
{
  GenCapture *cap = gen_capture_new (name);
  gboolean ok;

  build (cap);
  ok = gen_capture_write (cap, path, error);
  if (ok && expect_path != NULL)
    {
      g_autofree char *json = gen_expect_to_json (cap->expect, name, cap);
      ok = g_file_set_contents (expect_path, json, -1, error);
    }
  gen_capture_free (cap);
  return ok;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  const char *out = NULL, *expect = NULL, *dir = NULL;
  const char *command, *name = NULL;
  int i = 2;

  if (argc < 2)
    return usage ();
  command = argv[1];
  if (strcmp (command, "scenario") == 0)
    {
      if (argc < 3)
        return usage ();
      name = argv[2];
      i = 3;
    }
  for (; i < argc; i++)
    {
      if (i + 1 < argc && strcmp (argv[i], "-o") == 0)
        out = argv[++i];
      else if (i + 1 < argc && strcmp (argv[i], "--expect") == 0)
        expect = argv[++i];
      else if (i + 1 < argc && strcmp (argv[i], "-d") == 0)
        dir = argv[++i];
      else
        return usage ();
    }

  if (strcmp (command, "list") == 0)
    {
      guint n;
      const GenScenario *list = gen_scenario_list (&n);
      for (guint k = 0; k < n; k++)
        printf ("%-18s %s\n", list[k].name, list[k].description);
      return 0;
    }
  if (strcmp (command, "demo") == 0 && out != NULL)
    {
      if (!write_capture ("demo", gen_build_demo, out, expect, &error))
        goto fail;
      return 0;
    }
  if (strcmp (command, "scenario") == 0 && out != NULL)
    {
      const GenScenario *s = gen_scenario_find (name);
      if (s == NULL)
        {
          fprintf (stderr, "cs-gen: unknown scenario '%s' (see cs-gen list)\n", name);
          return 2;
        }
      if (!write_capture (s->name, s->build, out, expect, &error))
        goto fail;
      return 0;
    }
  if (strcmp (command, "all") == 0 && dir != NULL)
    {
      guint n;
      const GenScenario *list = gen_scenario_list (&n);

      if (g_mkdir_with_parents (dir, 0755) != 0)
        {
          fprintf (stderr, "cs-gen: cannot create %s\n", dir);
          return 1;
        }
      for (guint k = 0; k < n; k++)
        {
          g_autofree char *file = g_strdup_printf ("%s.%s", list[k].name, list[k].extension);
          g_autofree char *json = g_strdup_printf ("%s.expect.json", list[k].name);
          g_autofree char *path = g_build_filename (dir, file, NULL);
          g_autofree char *expect_path = g_build_filename (dir, json, NULL);

          if (!write_capture (list[k].name, list[k].build, path, expect_path, &error))
            goto fail;
        }
      return 0;
    }
  if (strcmp (command, "points") == 0 && dir != NULL)
    {
      if (!gen_points_write (dir, &error))
        goto fail;
      return 0;
    }
  return usage ();

fail:
  fprintf (stderr, "cs-gen: %s\n", error->message);
  return 1;
}

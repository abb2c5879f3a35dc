/* test-export-name.c — default file names from Call-IDs and numbers stay in their folder */
#include <string.h>

#include "export/cs-export-name.h"

static void
test_hostile_names (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "a84b4c76e66710@192.0.2.10", "a84b4c76e66710@192.0.2.10" },
    { "../../etc/passwd", "etc_passwd" },
    { ".bashrc", "bashrc" },
    { "-rf --no-preserve-root", "rf_--no-preserve-root" },
    { "C:\\Windows\\win.ini", "C_Windows_win.ini" },
    { "\x1b[2J\x07"
      "bell",
      "2J_bell" },
    { "\"><svg/onload=alert(1)>@evil.example", "svg_onload=alert_1_@evil.example" },
    { "\xe2\x80\xaegnp.exe", "gnp.exe" },
    { "...", "capture" },
    { "", "capture" },
    { NULL, "capture" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = cs_export_safe_file_name (cases[i].in, CS_EXPORT_NAME_MAX);

      g_assert_cmpstr (name, ==, cases[i].out);
    }
}

static void
test_long_names_cut (void)
{
  g_autofree char *long_id = g_strnfill (8192, 'a');
  g_autofree char *name = cs_export_safe_file_name (long_id, CS_EXPORT_NAME_MAX);

  g_assert_cmpuint (strlen (name), ==, CS_EXPORT_NAME_MAX);
}

static void
test_every_byte_value (void)
{
  /* no byte makes it through that a file system or a shell treats specially */
  for (guint b = 1; b < 256; b++)
    {
      char text[4] = { 'x', (char) b, 'y', 0 };
      g_autofree char *name = cs_export_safe_file_name (text, CS_EXPORT_NAME_MAX);

      for (const char *p = name; *p != '\0'; p++)
        g_assert_true (g_ascii_isalnum (*p) || strchr ("._-+@=", *p) != NULL);
      g_assert_true (name[0] != '.' && name[0] != '-');
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export-name/hostile", test_hostile_names);
  g_test_add_func ("/export-name/long", test_long_names_cut);
  g_test_add_func ("/export-name/every-byte", test_every_byte_value);
  return g_test_run ();
}

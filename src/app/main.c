/* main.c — starts the callscope GTK application */
#include <glib/gi18n.h>
#include <locale.h>

#include "cs-application.h"
#include "cs-config.h"

int
main (int argc, char *argv[])
{
  g_autoptr (CsApplication) application = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_ ("Callscope"));
  application = cs_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}

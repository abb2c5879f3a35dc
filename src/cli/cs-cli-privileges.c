/* cs-cli-privileges.c — live capture as root gives root up once the interface is open (as
 * tcpdump -Z does): the parsers that read what strangers send never run as root */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include "cs-cli-live.h"

#define CS_CLI_DEFAULT_USER "nobody"

gboolean
cs_cli_drop_privileges (const char *user, gboolean quiet)
{
  struct passwd *pw;

  if (geteuid () != 0)
    return TRUE; /* nothing to give up (capabilities are the process's own choice) */
  if (user == NULL)
    user = CS_CLI_DEFAULT_USER;
  if (g_strcmp0 (user, "root") == 0)
    return TRUE; /* asked for: --user root */
  errno = 0;
  pw = getpwnam (user);
  if (pw == NULL)
    {
      g_printerr ("callscope-cli: no user '%s' to run as (--user NAME, or --user root to stay "
                  "root)\n",
                  user);
      return FALSE;
    }
  if (initgroups (pw->pw_name, pw->pw_gid) != 0 || setgid (pw->pw_gid) != 0
      || setuid (pw->pw_uid) != 0)
    {
      g_printerr ("callscope-cli: cannot run as '%s': %s\n", user, g_strerror (errno));
      return FALSE;
    }
  /* irreversible, or not done at all */
  if (setuid (0) == 0 || geteuid () != pw->pw_uid || getegid () != pw->pw_gid)
    {
      g_printerr ("callscope-cli: root could not be given up\n");
      return FALSE;
    }
  if (!quiet)
    g_printerr ("Running as %s (uid %u) from now on\n", pw->pw_name, (guint) pw->pw_uid);
  return TRUE;
}

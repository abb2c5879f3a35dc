/* cs-cli-render-exec.c — find callscope-cli-render and exec it with our arguments */
#include "cs-cli-render-exec.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cs-cli-common.h"
#include "cs-cli-paths.h"

int
cs_cli_exec_render (char **argv)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *self_dir = self != NULL ? g_path_get_dirname (self) : NULL;
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *looked = NULL;
  const char *failed_path = NULL;
  int failed_errno = 0;

  if (self_dir != NULL)
    {
      g_ptr_array_add (candidates, g_build_filename (self_dir, CS_CLI_RENDER_NAME, NULL));
      if (CS_CLI_BINDIR_TO_LIBEXECDIR[0] != '\0')
        g_ptr_array_add (candidates, g_build_filename (self_dir, CS_CLI_BINDIR_TO_LIBEXECDIR,
                                                       CS_CLI_RENDER_NAME, NULL));
    }
  g_ptr_array_add (candidates, g_build_filename (CS_CLI_LIBEXECDIR, CS_CLI_RENDER_NAME, NULL));
  g_ptr_array_add (candidates, NULL);

  fflush (NULL);
  for (guint i = 0; i + 1 < candidates->len; i++)
    {
      const char *path = g_ptr_array_index (candidates, i);

      execv (path, argv);
      /* still here: it could not be run; an existing but broken file is worth naming */
      if (errno != ENOENT && errno != ENOTDIR && failed_path == NULL)
        {
          failed_path = path;
          failed_errno = errno;
        }
    }
  if (failed_path != NULL)
    {
      g_printerr ("callscope-cli: cannot run %s: %s\n", failed_path, g_strerror (failed_errno));
      return CS_EXIT_UNREADABLE;
    }
  looked = g_strjoinv (", ", (char **) candidates->pdata);
  g_printerr ("callscope-cli: %s is missing (looked for %s); 'ladder', 'graph', 'audio' and "
              "'report --format html|pdf' need it\n",
              CS_CLI_RENDER_NAME, looked);
  return CS_EXIT_UNREADABLE;
}

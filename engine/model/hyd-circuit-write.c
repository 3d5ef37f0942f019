/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyd-circuit-write.c — saving: the canonical JSON text and the faithful atomic file write. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "hyd-circuit-private.h"

/* ---------------------------------------------------------------------------
 * Saving
 * ------------------------------------------------------------------------- */

static void
add_extras (JsonObject *object, JsonObject *extra, const char *const *canonical)
{
  g_autoptr(GList) members = extra ? json_object_get_members (extra) : NULL;

  for (GList *l = members; l != NULL; l = l->next)
    {
      /* A known key in extra (put there by a caller) would be written twice. */
      if (g_strv_contains (canonical, l->data))
        continue;
      json_object_set_member (object, l->data,
                              hcp_node_deep_copy (json_object_get_member (extra, l->data)));
    }
}

static JsonNode *
position_node (double x, double y)
{
  JsonArray *array = json_array_sized_new (2);
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_array_add_element (array, hcp_new_double_node (x));
  json_array_add_element (array, hcp_new_double_node (y));
  json_node_take_array (node, array);
  return node;
}

static JsonNode *
component_to_json (const HydCircuitComponent *c)
{
  static const char *const keys[] = { "id", "type", "position", "rotation", "mirror",
                                      "label", "params", NULL };
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", c->id ? c->id : "");
  json_object_set_string_member (object, "type", c->type ? c->type : "");
  if (c->has_position)
    json_object_set_member (object, "position", position_node (c->x, c->y));
  if (c->has_rotation)
    json_object_set_int_member (object, "rotation", c->rotation);
  if (c->has_mirror)
    json_object_set_boolean_member (object, "mirror", c->mirror);
  if (c->label != NULL)
    json_object_set_string_member (object, "label", c->label);
  if (c->params != NULL && json_object_get_size (c->params) > 0)
    json_object_set_object_member (object, "params", hcp_object_deep_copy (c->params));
  add_extras (object, c->extra, keys);
  return hcp_new_object_node (object);
}

static JsonNode *
junction_to_json (const HydCircuitJunction *j)
{
  static const char *const keys[] = { "id", "position", "initial_pressure", NULL };
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", j->id ? j->id : "");
  if (j->has_position)
    json_object_set_member (object, "position", position_node (j->x, j->y));
  if (j->has_initial_pressure)
    json_object_set_double_member (object, "initial_pressure", j->initial_pressure);
  add_extras (object, j->extra, keys);
  return hcp_new_object_node (object);
}

/* What a connection's "friction" is written as, into *value: the key as
 * read in a file of version ≥ 3. A document of an older version is written
 * in the current version with its meaning kept: "friction": false where the
 * current version's default would turn friction on (a connection that
 * gives its length and diameter), and where the old file had a "friction"
 * key (an unknown key there, which meant nothing). FALSE: not written. */
static gboolean
connection_friction_key (int version, const HydCircuitConnection *c, gboolean *value)
{
  if (version >= HYD_CIRCUIT_VERSION_FRICTION)
    {
      *value = c->friction;
      return c->has_friction;
    }
  *value = FALSE;
  return (c->has_length && c->length > 0 && c->has_diameter)
         || (c->extra != NULL && json_object_has_member (c->extra, "friction"));
}

static JsonNode *
connection_to_json (const HydCircuitConnection *c, int version)
{
  static const char *const keys[] = { "from", "to", "route", "length", "diameter",
                                      "initial_pressure", "friction", NULL };
  gboolean friction;
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "from", c->from ? c->from : "");
  json_object_set_string_member (object, "to", c->to ? c->to : "");
  if (c->route != NULL)
    {
      JsonArray *route = json_array_sized_new (c->route->len / 2);
      for (guint i = 0; i + 1 < c->route->len; i += 2)
        json_array_add_element (route, position_node (g_array_index (c->route, double, i),
                                                      g_array_index (c->route, double, i + 1)));
      json_object_set_array_member (object, "route", route);
    }
  if (c->has_length)
    json_object_set_double_member (object, "length", c->length);
  if (c->has_diameter)
    json_object_set_double_member (object, "diameter", c->diameter);
  if (c->has_initial_pressure)
    json_object_set_double_member (object, "initial_pressure", c->initial_pressure);
  if (connection_friction_key (version, c, &friction))
    json_object_set_boolean_member (object, "friction", friction);
  add_extras (object, c->extra, keys);
  return hcp_new_object_node (object);
}

static JsonNode *
plot_to_json (const HydCircuitPlot *p)
{
  static const char *const keys[] = { "title", "traces", "y_unit", NULL };
  JsonObject *object = json_object_new ();

  if (p->title != NULL)
    json_object_set_string_member (object, "title", p->title);
  if (p->traces != NULL)
    {
      JsonArray *traces = json_array_sized_new (p->traces->len);
      for (guint i = 0; i < p->traces->len; i++)
        json_array_add_string_element (traces, g_ptr_array_index (p->traces, i));
      json_object_set_array_member (object, "traces", traces);
    }
  if (p->y_unit != NULL)
    json_object_set_string_member (object, "y_unit", p->y_unit);
  add_extras (object, p->extra, keys);
  return hcp_new_object_node (object);
}

typedef JsonNode *(*ItemToJsonFunc) (gconstpointer item);

static JsonArray *
list_to_json (GPtrArray *items, ItemToJsonFunc to_json)
{
  JsonArray *array = json_array_sized_new (items->len);

  for (guint i = 0; i < items->len; i++)
    json_array_add_element (array, to_json (g_ptr_array_index (items, i)));
  return array;
}

char *
hyd_circuit_to_data (const HydCircuit *circuit, gsize *length)
{
  static const char *const keys[] = { "format", "version", "title", "description", "fluid",
                                      "simulation", "components", "junctions",
                                      "connections", "plots", NULL };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;

  g_return_val_if_fail (circuit != NULL, NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "format", HYD_CIRCUIT_FORMAT);
  json_object_set_int_member (object, "version", HYD_CIRCUIT_VERSION);
  if (circuit->title != NULL)
    json_object_set_string_member (object, "title", circuit->title);
  if (circuit->description != NULL)
    json_object_set_string_member (object, "description", circuit->description);
  if (circuit->fluid != NULL)
    json_object_set_object_member (object, "fluid", hcp_object_deep_copy (circuit->fluid));
  if (circuit->simulation != NULL)
    json_object_set_object_member (object, "simulation", hcp_object_deep_copy (circuit->simulation));
  json_object_set_array_member (object, "components",
                                list_to_json (circuit->components, (ItemToJsonFunc) component_to_json));
  if (circuit->junctions->len > 0)
    json_object_set_array_member (object, "junctions",
                                  list_to_json (circuit->junctions, (ItemToJsonFunc) junction_to_json));
  {
    JsonArray *connections = json_array_sized_new (circuit->connections->len);
    for (guint i = 0; i < circuit->connections->len; i++)
      json_array_add_element (connections, connection_to_json (g_ptr_array_index (circuit->connections, i),
                                                               circuit->version));
    json_object_set_array_member (object, "connections", connections);
  }
  if (circuit->plots != NULL)
    json_object_set_array_member (object, "plots",
                                  list_to_json (circuit->plots, (ItemToJsonFunc) plot_to_json));
  add_extras (object, circuit->extra, keys);

  root = hcp_new_object_node (object);
  return hyd_json_to_string (root, length);
}

static gboolean
save_error (GError **error, int errsv, const char *path, const char *doing)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot save %s: %s: %s",
               display, doing, errsv == ENOSPC || errsv == EDQUOT
               ? "the disk is full (or the quota is used up)" : g_strerror (errsv));
  errno = errsv;   /* for hyd_file_replace_contents' callers */
  return FALSE;
}

/* The file a save writes: path, or the file its chain of symbolic links ends
 * at, so that saving through a link keeps the link. */
static char *
save_target (const char *path, GError **error)
{
  g_autofree char *target = g_strdup (path);

  for (guint hops = 0; hops < 40; hops++)
    {
      g_autofree char *link = NULL;
      g_autofree char *dir = NULL;
      struct stat st;

      if (lstat (target, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&target);
      link = g_file_read_link (target, error);
      if (link == NULL)
        {
          errno = EINVAL;
          return NULL;
        }
      if (g_path_is_absolute (link))
        {
          g_free (target);
          target = g_steal_pointer (&link);
          continue;
        }
      dir = g_path_get_dirname (target);
      g_free (target);
      target = g_build_filename (dir, link, NULL);
    }
  save_error (error, ELOOP, path, "following its links");
  return NULL;
}

static gboolean
write_all (int fd, const char *data, gsize length)
{
  while (length > 0)
    {
      gssize n = write (fd, data, MIN (length, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

/* A name in dir for the new text, ".NAME.XXXXXX": given to an O_TMPFILE
 * file (which has no name while it is written, so a crash leaves nothing
 * behind) only once it is complete, then renamed over the target. */
static char *
temporary_name (const char *dir, const char *base)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char suffix[7];

  for (guint i = 0; i < 6; i++)
    suffix[i] = letters[g_random_int_range (0, sizeof letters - 1)];
  suffix[6] = '\0';
  return g_strdup_printf ("%s/.%s.%s", dir, base, suffix);
}

/* Writes data to fd, gives it the mode (and owner, where the system allows)
 * of the file it replaces, or `mode` when it is not 0, and flushes it to the
 * disk. */
static gboolean
fill_file (int fd, const char *data, gsize length, const struct stat *old, guint mode)
{
  if (!write_all (fd, data, length))
    return FALSE;
  if (mode != 0)
    {
      if (fchmod (fd, mode & 07777) != 0)
        return FALSE;
    }
  else if (old != NULL)
    {
      /* only root may give a file away: that failure is no error; nor is
       * EPERM from fchmod (setting the set-group-ID bit as a non-member) */
      if (fchown (fd, old->st_uid, old->st_gid) != 0)
        errno = 0;
      if (fchmod (fd, old->st_mode & 07777) != 0 && errno != EPERM)
        return FALSE;
    }
  return fsync (fd) == 0;
}

/* The new text under a temporary name in dir; NULL with errno on failure.
 * With O_TMPFILE the file has no name while it is written, so a crash then
 * leaves nothing behind; it is named only once complete. */
static char *
write_temporary (const char *dir, const char *base, const char *data, gsize length,
                 const struct stat *old, guint mode)
{
  g_autofree char *temp = NULL;
  int fd, errsv;

#ifdef O_TMPFILE
  fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode != 0 ? (mode & 0777) : 0666);
  if (fd >= 0)
    {
      g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", fd);

      if (!fill_file (fd, data, length, old, mode))
        {
          errsv = errno;
          close (fd);
          errno = errsv;
          return NULL;
        }
      for (guint tries = 0; tries < 100; tries++)
        {
          g_free (temp);
          temp = temporary_name (dir, base);
          if (linkat (AT_FDCWD, proc, AT_FDCWD, temp, AT_SYMLINK_FOLLOW) == 0)
            {
              if (close (fd) == 0)
                return g_steal_pointer (&temp);
              errsv = errno;
              g_unlink (temp);
              errno = errsv;
              return NULL;
            }
          if (errno != EEXIST)
            break;
        }
      /* no /proc: write it again under a name */
      close (fd);
    }
  else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    return NULL;
#endif

  g_free (temp);
  temp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = g_mkstemp_full (temp, O_WRONLY | O_CLOEXEC, mode != 0 ? (int) (mode & 0777) : 0666);
  if (fd < 0)
    return NULL;
  if (!fill_file (fd, data, length, old, mode))
    {
      errsv = errno;
      close (fd);
      g_unlink (temp);
      errno = errsv;
      return NULL;
    }
  if (close (fd) != 0)
    {
      errsv = errno;
      g_unlink (temp);
      errno = errsv;
      return NULL;
    }
  return g_steal_pointer (&temp);
}

/* Replaces target with data atomically: a reader sees the old file or the
 * new one, never a part, and a failure leaves no temporary behind. */
static gboolean
replace_file (const char *target, const char *data, gsize length, guint mode, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  g_autofree char *temp = NULL;
  gboolean exists;
  struct stat st;
  int fd, errsv;

  exists = stat (target, &st) == 0;
  if (exists && !S_ISREG (st.st_mode))
    {
      g_autofree char *display = g_filename_display_name (target);
      hcp_error (error, HYD_DIAGNOSTIC_FILE,
                 S_ISDIR (st.st_mode) ? N_("cannot save %s: it is a folder, not a file")
                                      : N_("cannot save %s: it is a pipe, device or socket, not a file"),
                 display, NULL);
      errno = S_ISDIR (st.st_mode) ? EISDIR : EINVAL;
      return FALSE;
    }

  temp = write_temporary (dir, base, data, length, exists ? &st : NULL, mode);
  if (temp == NULL)
    return save_error (error, errno, target, "writing the new file");
  if (rename (temp, target) != 0)
    {
      errsv = errno;
      g_unlink (temp);
      return save_error (error, errsv, target, "replacing the old file");
    }

  /* the rename reaches the disk with the folder */
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      if (fsync (fd) != 0)
        errno = 0;
      close (fd);
    }
  return TRUE;
}

gboolean
hyd_circuit_save_data_to_file (const char *data, gsize length, const char *path, guint mode,
                               GError **error)
{
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* never write a file that the reader would refuse */
  if (length > HYD_CIRCUIT_MAX_FILE_SIZE)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *size = g_strdup_printf ("%.1f", length / 1048576.0);
      g_autofree char *mib = g_strdup_printf ("%d", HYD_CIRCUIT_MAX_FILE_SIZE >> 20);
      return hcp_error (error, HYD_DIAGNOSTIC_FILE,
                        N_("cannot save %s: the circuit would be %s MiB, more than the %s MiB a "
                           "circuit file may have; nothing was written"),
                        display, size, mib, NULL);
    }
  g_autofree char *target = save_target (path, error);
  if (target == NULL)
    return FALSE;
  return replace_file (target, data, length, mode, error);
}

gboolean
hyd_file_replace_contents (const char *path, const char *data, gsize length, guint mode, GError **error)
{
  g_autofree char *target = NULL;
  struct stat st;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  target = save_target (path, error);
  if (target == NULL)
    return FALSE;
  if (stat (target, &st) == 0 && (S_ISCHR (st.st_mode) || S_ISFIFO (st.st_mode)))
    {
      /* a device or a pipe (/dev/null, /dev/stdout, a FIFO): written in
       * place, as bramah-cli writes there; nothing to replace */
      int fd = open (target, O_WRONLY | O_CLOEXEC);
      if (fd < 0)
        return save_error (error, errno, target, "opening it");
      if (!write_all (fd, data ? data : "", length))
        {
          int errsv = errno;
          close (fd);
          return save_error (error, errsv, target, "writing it");
        }
      if (close (fd) != 0)
        return save_error (error, errno, target, "writing it");
      return TRUE;
    }
  return replace_file (target, data ? data : "", length, mode, error);
}

gboolean
hyd_circuit_save_to_file (const HydCircuit *circuit, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (circuit != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = hyd_circuit_to_data (circuit, &length);
  return hyd_circuit_save_data_to_file (data, length, path, 0, error);
}

